//! qa-report's flags, help text and man-page sections.

use crate::render::Format;
use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::exit::failure;
use qa_records::Exit;
use std::path::PathBuf;

/// Verify a qapipe NDJSON stream and report the change it describes.
///
/// qa-report is the last stage of the change flow (qa-diff | qa-intent | qa-route |
/// qa-trace | qa-report). It reads the whole stream and verifies it: every record's
/// envelope (kind, v, id, by, from, src, data), its id recomputed from the canonical JSON
/// of {kind, v, from, src, data}, and every id named in `from` appearing earlier. A broken
/// stream lists its problems on stderr and exits 65. Otherwise it renders the report on
/// stdout in --format: what changed and what to test (each intent and why it matters,
/// its scenarios with one priority: the route decision, else the scenario's own; kind,
/// numbered steps and what to verify, proof gap, the entrypoints the behavior graph
/// reaches from it, evidence file:line, and whether its command ran: "not run yet",
/// "ran: passed", "ran: failed"; required first), what to run (routed repository
/// commands, and what `qa-check --exec` already ran), what a person must check
/// (scenarios no command runs, drafts and how fully they are mapped), how far qapipe
/// could read the change, and warnings (info diagnostics too with --verbose).
///
/// Text, markdown and report.html speak a reviewer's words ("why it matters: your
/// changed test says so", "review only"); json, sarif, codequality and the agent line's
/// fields keep the record names ("repository-contract", "review-only").
///
/// Formats: text (terminal); markdown (a pull-request comment); json (one pretty-printed
/// object, two-space indent, scenarios nested in intents with their route, trace, drafts
/// and executions); sarif (SARIF 2.1.0, one result per required or recommended scenario,
/// fingerprinted by its record id); github (workflow commands: ::warning per required,
/// ::notice per recommended scenario); codequality (GitLab Code Quality: a JSON array of
/// Code Climate issues, major per required and minor per recommended scenario at its
/// first located evidence, fingerprinted by the SHA-256 of check name, path and title so a
/// line shift keeps it; a stream that ends early adds a blocker `qapipe/incomplete`, one
/// a signal cut a blocker `qapipe/cancelled`;
/// schema/codequality.schema.json); agent (one JSON line of at most 4,096 bytes with
/// its newline: routes and action contracts first, then range, counts and the path of
/// report.json; `truncated` when the byte budget left anything out).
///
/// Source-derived text (titles, commit subjects, evidence, paths, commands, messages) is
/// data: instruction-like spans are replaced by "[instruction-like text removed]" in
/// every format and report file, and counted (`neutralized`). The same stream always
/// gives the same bytes (report.html: in the same environment, which names the forge).
///
/// Every report folder also holds report.html: one self-contained page (inline CSS
/// allowed by its SHA-256 in a strict Content-Security-Policy, system fonts, no script,
/// nothing requested outside the file) with filters by status in CSS; every source-derived
/// string is HTML-escaped, bidi overrides and controls show as U+FFFD, and no link comes
/// from outside input. In the change report, evidence file:line links to the forge at
/// the head commit only when the environment names one with an absolute http(s) URL:
/// GITHUB_SERVER_URL and GITHUB_REPOSITORY ({server}/{repo}/blob/{head}/{path}#L{line}),
/// else CI_PROJECT_URL ({url}/-/blob/{head}/{path}#L{line}).
///
/// With --verify alone, qa-report only verifies: a one-line summary on stderr (records
/// per kind, problems), nothing on stdout; a stream with no records at all is exit 2.
///
/// No vacuous pass: a stream with neither a `range` record (the change flow) nor a `plan`
/// record (the acceptance flow), an empty one included, is one line on stderr ("stdin: no
/// records: did an upstream stage fail?", or what it holds instead) and exit 2 in every
/// format, with nothing on stdout and no --out folder. A change stream that ends inside
/// its flow (no records from qa-intent, qa-route, or qa-trace when there are scenarios)
/// is rendered, but its summary starts "INCOMPLETE, not a pass" naming the missing stages
/// (report.json and the agent line list them in missing_stages, SARIF marks the run
/// unsuccessful, github writes ::error) and qa-report exits 2; an acceptance stream
/// without records from qa-fetch, qa-route, qa-check, qa-fetch --verify or qa-trace is
/// verdict incomplete.
///
/// An empty range is its own outcome, not a clean result: when the range record says HEAD
/// is its base, or behind it (or, with --worktree, that nothing changed either), the
/// summary is that sentence ("empty range: main and HEAD are the same commit (X); name a
/// base (`--base`, `BASE=`) or commit work"), it is also the one line on stderr,
/// report.json's status is `empty-range` and qa-report exits 3.
///
/// The stream is read once, keeping what the report shows rather than the stream: a line
/// may hold 16 MiB, a stream 4 GiB; --in is a regular file or a pipe (a device or socket
/// is refused). SIGINT or SIGTERM ends any read, even one waiting on an idle pipe or FIFO,
/// and exits 130 or 143. A report keeps reading for two seconds for what the upstream
/// stages finish, then reports what it read, marked cancelled: a change stream with its
/// `range` record is rendered with the title "qapipe change report: CANCELLED" and a
/// summary starting "CANCELLED, not a pass" naming the signal (report.json: `status`
/// cancelled and `cancelled` the signal; the agent line's `cancelled`; SARIF marks the
/// run unsuccessful, github writes ::error; report.html's banner says CANCELLED), on
/// stdout and in the --out folder with its SHA256SUMS; an acceptance run writes its
/// partial report. A stream cut before its `range` record (without --acceptance) and
/// --verify stop with one line and no report.
///
/// A stream with a `plan` record is an acceptance run (qa-intent --plan P | qa-fetch |
/// qa-route | qa-check | qa-fetch --verify | qa-trace | qa-report --acceptance). Each
/// criterion passes only with at least one check, every check observed passing and its
/// source quote found; it fails when an observation failed; otherwise it is unverified,
/// with every reason (no checks, quote not found, a blocked check naming the flag, an
/// unsupported check, an unverified or errored observation, none at all). Inferred
/// criteria are labelled and never establish acceptance: without a passing request,
/// ticket or spec criterion the run is incomplete. The verdict is cancelled (a signal),
/// stale (a target, plan or source changed during the run), fail, incomplete (any gap)
/// or pass; its `verdict` record goes into the run folder's records.ndjson. Stdout is the
/// report in --format text, markdown or json: per criterion the expected behaviour, the
/// source quote, each check with its observation, expected against observed, a bounded
/// evidence excerpt and hashes, then the verdict and its reasons.
///
/// With --acceptance (what pipelines/acceptance.sh passes) qa-report first takes the
/// project lock .qa/acceptance.lock under --repo (one active run per project: another
/// live run is exit 69; a lock left by a dead process is taken over), then writes the run
/// folder <out>/<run-id>/ (default out: .qa/acceptance under --repo; run id: UTC time and
/// the plan hash's first 8 hex digits) with report.json, report.md, report.html,
/// junit.xml, records.ndjson, events.ndjson and SHA256SUMS, folders 0700 and files 0600,
/// and warns when git would not ignore it. A browser check's screenshots (the PNGs its
/// observation names under .qa/screenshots/ in --repo) are copied to screenshots/ in the
/// run folder, listed in SHA256SUMS and embedded in report.html, each only when it is a
/// regular file (never a symlink) of at most 2 MiB, a PNG, and hashes to the SHA-256 the
/// observation records; otherwise every report says why it was not copied. SIGINT or SIGTERM stops reading and writes the partial
/// report, marked cancelled, before exiting 130 or 143. --status prints the active run
/// or the last one with its verdict.
///
/// With --merge DIR... qa-report reads no stream: it joins the run folders of a sharded
/// acceptance run (one per CI job, qa-check --shard I/N; DIR is a run folder or a folder
/// holding exactly one). Each folder must match its SHA256SUMS and every record its id and
/// `from` chain (a screenshot also a PNG named by its own SHA-256, carried into the merged
/// folder); the shards must have run the same plan and sources against the same
/// target and deployed build, be of one shard count, each given once, and no check may be
/// observed by two shards: otherwise the merge is refused naming the file or the
/// difference (exit 65). The shards' records are joined in shard order, each record once,
/// without their own verdicts; a check's observation by its shard replaces the others'
/// `skipped` ones. The merged verdict follows the rules above and is written with the
/// report files and SHA256SUMS to a new run folder under --out (default .qa/acceptance
/// under --repo). A shard not given, without observations, cancelled or unfinished makes
/// it incomplete (exit 2) at best, naming the shard and the checks it left unobserved.
#[derive(Debug, Parser)]
#[command(name = "qa-report", version)]
pub struct Args {
    /// Only check every record's envelope, id and provenance chain; render nothing.
    #[arg(long, conflicts_with_all = ["format", "out"])]
    pub verify: bool,

    /// The report format written on stdout.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    pub format: Format,

    /// Also write report.json, report.md, report.sarif, report.html, records.ndjson (the
    /// input, byte for byte, saved as it is read) and SHA256SUMS into DIR, created private (0700,
    /// files 0600), only once a report is made. For an acceptance stream, the run folder
    /// DIR/<run-id>/ instead.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Run as the acceptance flow's last stage: take the project lock before reading,
    /// write the run folder (by default under .qa/acceptance) and exit with the verdict.
    #[arg(long, conflicts_with = "verify")]
    pub acceptance: bool,

    /// With --acceptance: once the run folder is sealed (its SHA256SUMS written), write its
    /// path and a line break to FILE (0600), so a CI script takes the folder qa-report
    /// made instead of guessing it from a listing. Not written when no folder is.
    #[arg(long, value_name = "FILE", requires = "acceptance")]
    pub run_dir_file: Option<PathBuf>,

    /// Join the run folders of a sharded acceptance run (qa-check --shard I/N) into one
    /// verdict and run folder.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["verify", "acceptance", "status", "input"])]
    pub merge: Vec<PathBuf>,

    /// Print the project's active acceptance run, or its last run with its verdict.
    #[arg(long, conflicts_with_all = ["verify", "acceptance"])]
    pub status: bool,

    /// The project root: its .qa/ holds the acceptance lock and run folders.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// Read records from FILE (a regular file or a pipe) instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Also list `info` diagnostics (what each stage noted, such as the behavior graph's
    /// size) in the text, markdown and html change reports; without it they list
    /// warnings and errors only (report.json always holds every diagnostic).
    #[arg(long, conflicts_with = "verify")]
    pub verbose: bool,

    /// How many problems to list before only counting them.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_problems: usize,

    /// The permission flags every stage accepts; this stage needs none of them, and its
    /// help says so under their own heading rather than offering them.
    #[command(
        flatten,
        next_help_heading = "Ignored here (accepted so one flag set passes to every stage; qa-report uses none)"
    )]
    pub pipeline: qa_cli::PipelineFlags,
}

/// What one run does, decided from the flags before anything is read: a format the mode
/// cannot write is a usage error here, never found deep inside a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `--verify`: check every record, render nothing.
    Verify,
    /// `--status`: the project's active or last acceptance run, one line of text or one
    /// JSON object.
    Status { json: bool },
    /// `--merge DIR...`: one verdict from the shards' run folders (text, markdown, json).
    Merge { format: Format },
    /// `--acceptance`: the acceptance flow's last stage (text, markdown, json).
    Acceptance { format: Format },
    /// A stream to report: a change report in any format, or the report of a saved
    /// acceptance stream (known only once its records are read).
    Report { format: Format },
}

impl Args {
    /// The mode the flags ask for, or a usage error naming the flag that cannot go with
    /// the format.
    pub fn mode(&self) -> anyhow::Result<Mode> {
        let acceptance_format = |flag: &str| -> anyhow::Result<Format> {
            match self.format {
                Format::Text | Format::Markdown | Format::Json => Ok(self.format),
                other => Err(failure(
                    Exit::Usage,
                    format!(
                        "{flag} writes an acceptance report: --format text, markdown or json, not {}",
                        format_name(other)
                    ),
                )),
            }
        };
        if self.verify {
            return Ok(Mode::Verify);
        }
        if self.status {
            return match self.format {
                Format::Text | Format::Json => Ok(Mode::Status {
                    json: self.format == Format::Json,
                }),
                other => Err(failure(
                    Exit::Usage,
                    format!(
                        "--status prints one line of text or one JSON object: --format text or json, not {}",
                        format_name(other)
                    ),
                )),
            };
        }
        if !self.merge.is_empty() {
            return Ok(Mode::Merge {
                format: acceptance_format("--merge")?,
            });
        }
        if self.acceptance {
            return Ok(Mode::Acceptance {
                format: acceptance_format("--acceptance")?,
            });
        }
        Ok(Mode::Report {
            format: self.format,
        })
    }

    /// The diagnostics the human change reports list.
    pub fn diagnostics(&self) -> crate::layers::Diagnostics {
        if self.verbose {
            crate::layers::Diagnostics::All
        } else {
            crate::layers::Diagnostics::Notable
        }
    }
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "The change report for the current branch, in the terminal",
        command: "qa-diff | qa-intent | qa-route | qa-trace | qa-report",
    },
    Example {
        what: "A pull-request comment, with every report file kept in a private folder",
        command: "qa-report --in run.ndjson --format markdown --out .qa/runs/latest > comment.md",
    },
    Example {
        what: "Annotations in a GitHub Actions job",
        command: "qa-diff | qa-intent | qa-route | qa-trace | qa-report --format github",
    },
    Example {
        what: "A GitLab Code Quality report for a merge request",
        command: "qa-report --in run.ndjson --format codequality > gl-code-quality.json",
    },
    Example {
        what: "One bounded line for an agent, pointing at the full report",
        command: "qa-report --in run.ndjson --format agent --out .qa/runs/latest",
    },
    Example {
        what: "The acceptance flow's last stage: verdict, report and run folder under .qa/acceptance",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch | qa-route | qa-check | qa-fetch --verify | qa-trace | qa-report --acceptance",
    },
    Example {
        what: "One verdict from the run folders of a 4-job CI matrix (qa-check --shard I/4)",
        command: "qa-report --merge shard-1 shard-2 shard-3 shard-4 --out merged --format markdown",
    },
    Example {
        what: "The active or last acceptance run of this project",
        command: "qa-report --status",
    },
    Example {
        what: "Verify what qa-diff emits for the current branch",
        command: "qa-diff | qa-report --verify",
    },
    Example {
        what: "Verify a saved stream",
        command: "qa-report --verify --in run.ndjson",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "the stream verified cleanly and the report was written; for an acceptance stream, verdict pass; --status found a run",
    ),
    (Exit::Fail, "acceptance verdict fail: a criterion failed (also of a --merge)"),
    (
        Exit::Incomplete,
        "no range or plan record in the stream (empty: \"no records: did an upstream stage fail?\"); a change stream that ends inside its flow (the report names the missing stages); acceptance verdict incomplete (a gap, a missing stage; --merge: a shard not given, unfinished or cancelled) or stale (a target, plan or source changed)",
    ),
    (
        Exit::EmptyRange,
        "empty range: the change stream's HEAD is its base or behind it, so nothing was analysed (the report and stderr say which)",
    ),
    (
        Exit::Usage,
        "usage error: bad flags, stdin is a terminal, or --out cannot be written",
    ),
    (
        Exit::DataErr,
        "the stream has problems: malformed lines, wrong ids, broken `from` chains, a line over 16 MiB, a stream over 4 GiB, or change-flow data that breaks its contract; --in is a device or socket; --merge: a shard folder that fails its SHA256SUMS or ids, or shards of different plans, targets, builds or shard counts, or a check observed twice",
    ),
    (
        Exit::NoInput,
        "the --in file, --repo folder or a --merge folder does not exist; --status found no run",
    ),
    (
        Exit::Unavailable,
        "another acceptance run of this project is active",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "SIGINT: reading stopped; the report of what was read is marked cancelled (an acceptance run's partial report; none before a range record without --acceptance, nor with --verify)",
    ),
    (
        Exit::Terminated,
        "SIGTERM: reading stopped; the report of what was read is marked cancelled (an acceptance run's partial report; none before a range record without --acceptance, nor with --verify)",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}

/// A format's name as `--format` takes it.
pub fn format_name(format: Format) -> String {
    clap::ValueEnum::to_possible_value(&format)
        .map_or_else(String::new, |v| v.get_name().to_string())
}
