//! qa-intent's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Derive change intents and QA scenarios from a qa-diff stream, or start an acceptance
/// stream from a plan.
///
/// qa-intent forwards every record it reads, then adds one `intent` record per
/// behaviour-bearing change, each followed by its `scenario` records. Commits join into
/// one intent only on a shared ticket or a shared product, command or analysis-rule file,
/// re-split around one anchor commit; docs, style, ci, test, build, chore and release
/// commits never become product intents; cleanup-shaped commits stay in provenance with
/// no scenarios. Without usable commit text (`wip`, the working tree) files are grouped by
/// specific path and symbol vocabulary, at low confidence. Scenarios (primary, failure,
/// boundary, state-transition) carry located evidence (`file:line`) and an explicit proof
/// gap when no changed line shows an observable outcome. A reviewed `.qa/manifest.yaml`
/// turns flows anchored in a changed product file or symbol into team policy (a changed
/// test file anchors no flow) and suppresses known false positives.
///
/// It also builds the behavior graph of the repository at the range's base and head from
/// git objects (no checkout; nested repositories and vendored code left out): language
/// adapters (imports and exports of TS/JS, Python, Rust, Go), framework adapters (Next.js
/// and React Router routes and screens; FastAPI/Flask, Django URL confs and Express/
/// Fastify handlers as endpoints, with mounted prefixes; clap and argparse subcommands)
/// and repository adapters (commands declared in manifests, tests and the fixtures they
/// name, flows of .qa/manifest.yaml). An entrypoint whose handler is an imported name
/// starts at the handler's module. The changed nodes are `direct`, their dependants
/// (reverse imports, routes rendering a changed screen, tests importing a changed
/// module) `propagated`, bounded in depth and fan-out; tests and flows are evidence,
/// never entrypoints. The reached subgraph is written as `node` and `edge` records after
/// the scenarios, and each scenario `reaches` the entrypoints its changed files reach.
/// An adapter that fails becomes a `diag`.
///
/// The base and head versions of every changed TypeScript/TSX, JavaScript, Python, Rust,
/// Go, Java and Kotlin file are read as syntax trees (tree-sitter; the head re-parsed from the base
/// where the hunks say): the item each hunk sits in, conditions new at head or only
/// moved (a moved or copied check is never a new boundary; a boundary is a comparison
/// against a limit or a test of an input's start or end against a literal), error exits added or removed
/// (a removed `todo!()` or `throw` is a failure scenario; code moved, extracted, inlined
/// or renamed across the changed files, matched by its syntax subtrees, is neither removed
/// nor new), list elements and match arms,
/// parameters, and the changed tests with the values they expect (assertions, matchers,
/// table rows, parametrize columns, inline snapshots (`@"..."`); repository test macros; a
/// skipped test is a named
/// proof gap). A changed test's expected value becomes the scenario's assertion, quoted,
/// with evidence at the test and at the product item it calls. Other files are read line
/// by line.
///
/// With --plan FILE, qa-intent is a source stage: it checks the acceptance plan (target,
/// criteria with their sources, checks; the first error names its JSON pointer), hashes it,
/// reads each ticket or spec source file under --repo (symlinks resolved, never outside
/// it; at most 4 MiB), hashes it and looks for its quote verbatim, then writes a `plan`
/// record, a `target.spec`, one `criterion` per criterion and one `check.spec` per check.
/// A missing source file or quote is not an error: the criterion records `found: false`
/// and stays unverified. It reads stdin only when given `--in -`.
///
/// Nothing is executed and nothing is written but stdout.
#[derive(Debug, Parser)]
#[command(name = "qa-intent", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin). With --plan, forward the
    /// records of FILE before the plan's own; without --in, --plan never reads stdin.
    #[arg(long = "in", value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// The repository: its `.qa/manifest.yaml` holds team policy, its history the change
    /// stream's head commit (else exit 66), and every path of a plan (sources, file and
    /// directory targets) is relative to it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// Read team policy from FILE instead of DIR/.qa/manifest.yaml (which is optional).
    /// Either is read only as a regular file of at most 1 MiB: a symlink or an oversize
    /// manifest is exit 65, a FIFO, device or directory exit 66.
    #[arg(long, value_name = "FILE", conflicts_with = "plan")]
    pub manifest: Option<PathBuf>,

    /// Start an acceptance stream from the plan FILE (`.qa-acceptance.json`, read
    /// relative to the working directory) instead of reading a change stream.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,

    /// Print on stderr how long the syntax trees took: files, megabytes of base and head
    /// source, parse and read time per megabyte (for benchmarks; records are unchanged).
    #[arg(long)]
    pub timings: bool,

    /// The permission flags every stage accepts; this stage needs none of them, and its
    /// help says so under their own heading rather than offering them.
    #[command(
        flatten,
        next_help_heading = "Ignored here (accepted so one flag set passes to every stage; qa-intent uses none)"
    )]
    pub pipeline: qa_cli::PipelineFlags,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Intents and scenarios of the current branch",
        command: "qa-diff | qa-intent",
    },
    Example {
        what: "Only the scenarios, as JSON data",
        command: "qa-diff | qa-intent | jq -c 'select(.kind == \"scenario\") | .data'",
    },
    Example {
        what: "Another repository, with its team manifest",
        command: "qa-diff --repo ../shop | qa-intent --repo ../shop",
    },
    Example {
        what: "Start the acceptance flow from a plan",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch | qa-route | qa-check | qa-fetch --verify | qa-trace | qa-report",
    },
    Example {
        what: "Carry a host profile into the acceptance flow",
        command: "qa-profile host.yaml --ndjson | qa-intent --plan .qa-acceptance.json --in - | qa-fetch",
    },
    Example {
        what: "Which criteria have a source quote that was not found",
        command: "qa-intent --plan .qa-acceptance.json | jq -r 'select(.kind == \"criterion\" and (.data.source.found | not)) | .data.id'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "records written"),
    (Exit::Usage, "usage error (bad flags)"),
    (
        Exit::DataErr,
        "malformed input records (or a line over 16 MiB), an invalid manifest, or an invalid plan: a key repeated in an object, or a plan that is a FIFO or device (the message names the JSON pointer, e.g. `/checks/2/path`)",
    ),
    (
        Exit::NoInput,
        "the --in, --manifest or --plan file, or the --repo directory of a plan, does not exist; or the --repo repository does not hold the change stream's head commit",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
