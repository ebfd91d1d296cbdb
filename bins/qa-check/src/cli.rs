//! qa-check's flags, help text and man-page sections, and the settings they validate to.

use anyhow::Result;
use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example, PipelineFlags};
use qa_records::exit::failure;
use qa_records::shard::Shard;
use qa_records::Exit;
use std::path::PathBuf;
use std::time::Duration;

use crate::endpoint::BrowserEndpoint;
use crate::secret::Secret;

/// The whole-plan timeout when --timeout is not given.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// The largest whole-plan timeout --timeout accepts (5 minutes).
pub const MAX_TIMEOUT_SECS: u64 = 300;
/// The command's time limit under --exec when --timeout is not given (5 minutes).
pub const DEFAULT_EXEC_TIMEOUT_SECS: u64 = 300;
/// The largest command time limit --timeout accepts under --exec (30 minutes).
pub const MAX_EXEC_TIMEOUT_SECS: u64 = 1800;

/// Run the acceptance plan's checks and write one observation per check.
///
/// qa-check forwards every record it reads, then runs each `check.spec` in plan order and
/// writes one `observation` (status pass, fail, error, unverified or cancelled, with the
/// expected and observed values and bounded evidence) and one `event` (phase `check`, with
/// its duration) per check. Verdicts are qa-report's job: qa-check exits 0 whenever it
/// wrote its observations.
///
/// A file check reads the path from the captured target manifest under --repo, re-hashes
/// it (a change since capture is an error), decodes it as UTF-8 and looks for `contains`.
/// Nothing is ever executed. An excluded or uncaptured path is unverified.
///
/// An http check needs --allow-network: a GET of the target URL's origin plus the check's
/// path (same origin only), redirects rejected (a 3xx fails), no proxy from the
/// environment, at most 1 MiB of body read (4,096 characters kept as excerpt, the SHA-256
/// of what was read), `status` compared exactly and `contains` searched in the body.
/// One deadline (--timeout, default 30 s, at most 300) bounds the whole plan; a check
/// past it is unverified. --auth-env NAME sends `Authorization: Bearer $NAME` (a value
/// starting or ending with a space is refused, exit 64: a server would read it trimmed);
/// the value is redacted from every record, excerpt and message, as sent, trimmed or
/// percent-encoded.
///
/// An mcp check (needs --allow-network) speaks MCP 2025-11-25 over Streamable HTTP with
/// JSON responses to the target URL (or its origin plus `path`): initialize, tools/list
/// (at most 10 pages and 1,000 tools) until the named tool is found with a description and
/// an object inputSchema (equal to `schema` when given), then, with `input` and
/// --allow-tool-calls, validates the input against that inputSchema (JSON Schema, draft by
/// `$schema`) and calls the tool. A positive case passes only on an observed effect:
/// `observePath` (a same-origin GET) containing `observeContains` after the call, or with
/// `readOnly: true` the same observation before and after. A negative case
/// (`expectError: true`) passes on a JSON-RPC error or an `isError` result. The session is
/// deleted at the end. SSE replies, other protocol versions, OAuth and server requests
/// are unsupported: unverified, never a pass. Responses are capped at 4 MiB.
///
/// A browser check (needs --allow-network and --browser-module) does the same against a
/// page's WebMCP API (`document.modelContext`: getTools, executeTool) in a headless
/// Chromium launched once per run, each check's page in a fresh browser context (no
/// cookies, storage or cache of an earlier check's), the browser closed at the end of the
/// run and on cancel, and relaunched after a check that had to kill it; `observePath` is a CSS
/// selector (default `body`) whose text is observed. When the plan's target is a
/// production environment of the host profile (a `profile` record in the stream), every
/// request of the page that matches a `write_signatures` entry and no `allow_signatures`
/// entry is aborted and recorded; a write no signature matches is not prevented.
///
/// A browser check keeps screenshots as evidence: a PNG of the page's 1280x800 viewport
/// `before` the tool call (checks that call one), `after` the observation, or, for a
/// check that failed before getting there, at the `failure`. Each is checked to be a PNG,
/// at most 2 MiB, and written as `.qa/screenshots/<sha256>.png` under --repo (directories
/// 0700, files 0600, written through a temp file and a rename, never through a symlink; a
/// symlinked `.qa` or `.qa/screenshots` is refused), and the observation's
/// `evidence.screenshots` names its moment, path, SHA-256, size, width and height. They
/// are taken with the write guard still routing the page's requests, within the check's
/// deadline (at most 10 s each). Pixels are not redacted: when the page's text (or a
/// form field) shows the --auth-env token, no screenshot is taken. A screenshot that is
/// not kept (over 2 MiB, refused, not taken) is said in `observed` and never fails a check
/// by itself. --no-screenshots takes none (no `screenshots` field, no files).
///
/// A check whose route is not runnable, that was never routed, whose target was not
/// captured, or whose kind has no checker here is unverified with the reason, never a
/// pass. SIGINT or SIGTERM marks the remaining checks cancelled, writes
/// them, and exits 130 or 143.
///
/// With --shard I/N (a CI job matrix of N jobs), qa-check runs only the checks shard I
/// owns: the plan's checks ordered browser checks first (the slow ones), then by the
/// SHA-256 of their id, and dealt round-robin to shards 1..N, so each check lands in
/// exactly one shard, the same one on every machine, and the shards differ by at most one
/// check. Every other check is written as an observation with status `skipped` and reason
/// `shard J/N` (J owns it), never a pass; every observation records the shard that wrote
/// it. `qa-report --merge` joins the shards' run folders into one verdict.
///
/// With --exec (the change flow), qa-check runs no checks: it forwards the stream and
/// acts on exactly one route, the most urgent one whose action is run-repository-command
/// (required before recommended, in qa-report's order), or the one --scenario names. It
/// writes one `execution` record. The command is refused, never run, and the record says
/// `blocked` with the reason, without --allow-exec; when the route's action is anything
/// else (a draft route is never executed); when the command is not among those the
/// repository's build files declare for that scenario (discovered again here, not taken
/// from the stream); when it is longer than 2,048 bytes, holds NUL, CR or LF, holds
/// instruction-like text (looked for through zero-width and other hidden characters), or
/// holds a hidden character (a control or format character such as U+200B or U+202E);
/// when its runner, or the tool its wrapper starts (`make test`'s `go`, read as qa-route
/// reads it), is not on PATH (`runner-missing`, naming it; checked on this machine's PATH,
/// whatever the route's `unmet` says); or when --repo is not the root
/// of a git repository. A cleared command runs through `/bin/sh -c` in its directory, in
/// a process group of its own, with stdin closed; past --timeout (the command's limit
/// under --exec: default 300 s, 1 to 1,800) the group gets SIGTERM and, 2 s later,
/// SIGKILL, and whatever the command left running in its group is ended the same way.
/// Its output is echoed to stderr when stderr is a terminal and never stored: the record
/// keeps exit code, signal, duration, timed-out flag, and the byte count and SHA-256 of
/// stdout and stderr. Tests are counted from the runner, not the exit code: libtest's
/// `test result:` lines, `go test -json` events, pytest's JUnit XML, vitest's and jest's
/// JSON reports (written into a private folder outside the repository), Surefire and
/// Gradle XML reports, or the runner's summary lines; the reporter options added are
/// recorded apart (`reporter_options`), `command` stays the routed line. The record holds
/// `tests` {ran, passed, failed, skipped} and, for each changed test the command names,
/// whether it ran. Exit 0 with no test run is `empty`; exit 0 without a changed test the
/// command names is `incomplete`, naming it; neither is a pass. Output the runner's
/// counts cannot be read from keeps the exit-code verdict with `count: unverified`. HEAD,
/// the branch, the index entries, every tracked-modified or untracked-not-ignored path
/// (mode and content, at most 10,000 paths and 64 MiB, past which the record says
/// `unobserved`) and the git directory's config, hooks, info, refs, packed-refs and
/// stash (read as files: nothing the repository's git config names is run) are
/// fingerprinted before and after: a dirty tree before the command is the baseline; a
/// command that exits 0 but changed any of them is `repository-changed`, never `passed`,
/// with up to 8 changed paths and every changed git-directory entry listed. A missing
/// dependency is not a failing test: a command that exits 127 or 126, or whose output
/// ends saying its runner was not found (`go: not found`, `command not found`, the
/// runner's own module or package not found, `No module named pytest`, a cargo
/// subcommand or Java missing), even after exit 0 from a wrapper such as `make test`, is
/// `blocked` (`runner-missing`) with a reason naming the program and how to install it,
/// never `failed` or `passed`.
#[derive(Debug, Parser)]
#[command(name = "qa-check", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// The project root that file targets are relative to.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// An installed Playwright module (`.../playwright-core/index.mjs`) for browser checks.
    /// qa-check never installs a browser or a package.
    #[arg(long, value_name = "PATH")]
    pub browser_module: Option<PathBuf>,

    /// The Chromium executable browser checks launch; Chromium's headless shell (Debian's
    /// chromium-headless-shell) works too, at about half the CPU [default: chromium on PATH].
    #[arg(long, value_name = "PATH")]
    pub browser: Option<PathBuf>,

    /// Run browser checks in the Playwright browser server at this WebSocket URL
    /// (`chromium.launchServer()`'s `wsEndpoint()`) instead of launching Chromium: each check
    /// still gets a fresh browser context, and the server is left running. Its path is a
    /// secret and is redacted from every message and record. Launch the server with the
    /// switches qa-check launches Chromium with: --headless --no-sandbox --disable-gpu
    /// --disable-quic --no-first-run --disable-background-networking
    /// --disable-component-update --disable-sync --enable-features=WebMCP. Not with --browser.
    #[arg(long, value_name = "WS-URL")]
    pub browser_endpoint: Option<String>,

    /// The Node.js executable that runs the Playwright module.
    #[arg(long, value_name = "PATH", default_value = "node")]
    pub node: PathBuf,

    /// Run the one routed repository command of a change-flow stream instead of checks
    /// (needs --allow-exec to run anything).
    #[arg(long)]
    pub exec: bool,

    /// Run only shard I of N (1 <= I <= N), e.g. 2/4; the other shards' checks are written
    /// as skipped, naming their shard.
    #[arg(long, value_name = "I/N", conflicts_with = "exec")]
    pub shard: Option<String>,

    /// Take no screenshots in browser checks (no `evidence.screenshots`, no files under
    /// `.qa/screenshots/`).
    #[arg(long)]
    pub no_screenshots: bool,

    /// With --exec: act on this scenario's route instead of the most urgent one.
    #[arg(long, value_name = "ID", requires = "exec")]
    pub scenario: Option<String>,

    /// The permission flags every stage accepts: qa-check uses --allow-network,
    /// --allow-tool-calls, --allow-exec (with --exec), --timeout (whole plan; with --exec,
    /// the command's limit) and --auth-env.
    #[command(flatten)]
    pub pipeline: PipelineFlags,
}

/// What browser checks run with; each missing part makes them unverified, naming it.
#[derive(Debug, Clone)]
pub struct BrowserSettings {
    pub module: Option<PathBuf>,
    pub executable: Option<PathBuf>,
    /// The running browser server to connect to instead of launching `executable`.
    pub endpoint: Option<BrowserEndpoint>,
    pub node: Option<PathBuf>,
}

/// What the flags come to, checked before any record is read or request sent.
#[derive(Debug)]
pub struct Settings {
    pub repo: PathBuf,
    pub allow_network: bool,
    pub allow_tool_calls: bool,
    pub browser: BrowserSettings,
    /// The whole-plan time budget; with --exec, the command's time limit.
    pub timeout: Duration,
    /// Run the routed repository command instead of checks.
    pub exec: bool,
    pub allow_exec: bool,
    /// The scenario whose route --exec acts on.
    pub scenario: Option<String>,
    /// The bearer token named by --auth-env.
    pub token: Option<Secret>,
    /// The shard of the plan this run owns (--shard I/N); None runs every check.
    pub shard: Option<Shard>,
    /// Browser checks keep screenshots under `<repo>/.qa/screenshots/` (not with
    /// --no-screenshots).
    pub screenshots: bool,
}

impl Args {
    /// Validates the flags: --timeout within 1..=300 (with --exec, 1..=1800) and an
    /// --auth-env variable that is set (usage errors, 64), an existing --repo directory (66).
    pub fn settings(&self) -> Result<Settings> {
        let (default, max, what) = if self.exec {
            (
                DEFAULT_EXEC_TIMEOUT_SECS,
                MAX_EXEC_TIMEOUT_SECS,
                "the command's time limit",
            )
        } else {
            (
                DEFAULT_TIMEOUT_SECS,
                MAX_TIMEOUT_SECS,
                "the whole-plan timeout",
            )
        };
        let secs = self.pipeline.timeout.unwrap_or(default);
        if secs == 0 || secs > max {
            return Err(failure(
                Exit::Usage,
                format!("--timeout {secs}: {what} must be 1 to {max} seconds"),
            ));
        }
        let shard = match &self.shard {
            Some(value) => Some(
                value
                    .parse::<Shard>()
                    .map_err(|e| failure(Exit::Usage, e))?,
            ),
            None => None,
        };
        let endpoint = self.endpoint()?;
        let token = match &self.pipeline.auth_env {
            Some(name) => Some(Secret::from_env(name)?),
            None => None,
        };
        if !self.repo.is_dir() {
            return Err(failure(
                Exit::NoInput,
                format!("--repo {}: not a directory", self.repo.display()),
            ));
        }
        Ok(Settings {
            repo: self.repo.clone(),
            allow_network: self.pipeline.allow_network,
            allow_tool_calls: self.pipeline.allow_tool_calls,
            browser: BrowserSettings {
                module: self.browser_module.clone(),
                executable: match (&self.browser, &endpoint) {
                    (Some(path), _) => Some(path.clone()),
                    // Nothing is launched: no Chromium needs to be installed here.
                    (None, Some(_)) => None,
                    (None, None) => on_path("chromium"),
                },
                endpoint,
                node: on_path(&self.node.to_string_lossy()),
            },
            timeout: Duration::from_secs(secs),
            exec: self.exec,
            allow_exec: self.pipeline.allow_exec,
            scenario: self.scenario.clone(),
            token,
            shard,
            screenshots: !self.no_screenshots,
        })
    }
}

impl Args {
    /// --browser-endpoint parsed; refused (usage error) beside --browser, which would say
    /// to launch a browser the run does not launch. No message holds the URL's path.
    fn endpoint(&self) -> Result<Option<BrowserEndpoint>> {
        let Some(url) = &self.browser_endpoint else {
            return Ok(None);
        };
        if self.browser.is_some() {
            return Err(failure(
                Exit::Usage,
                "--browser-endpoint connects to a running browser and --browser launches one: give one of them",
            ));
        }
        BrowserEndpoint::parse(url)
            .map(Some)
            .map_err(|why| failure(Exit::Usage, why))
    }
}

/// `name` as given when it has a slash, else its first match on PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Some(PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "The whole acceptance flow, with network checks allowed",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch --allow-network | qa-route --allow-network | qa-check --allow-network | qa-fetch --verify --allow-network | qa-trace | qa-report",
    },
    Example {
        what: "File checks only, against a project elsewhere",
        command: "qa-intent --plan site/.qa-acceptance.json | qa-fetch --repo site | qa-route | qa-check --repo site",
    },
    Example {
        what: "An authenticated staging server, 60 seconds for the whole plan",
        command: "STAGING_TOKEN=... qa-check --allow-network --auth-env STAGING_TOKEN --timeout 60 --in routed.ndjson",
    },
    Example {
        what: "MCP and WebMCP checks that call tools, with an installed playwright-core",
        command: "qa-check --allow-network --allow-tool-calls --browser-module node_modules/playwright-core/index.mjs --in routed.ndjson",
    },
    Example {
        what: "Shard 2 of a 4-job CI matrix: a quarter of the checks, the rest recorded as skipped",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch | qa-route | qa-check --shard 2/4 | qa-fetch --verify | qa-trace | qa-report --acceptance",
    },
    Example {
        what: "The change flow, running the one routed repository command (10 minutes at most)",
        command: "qa-diff | qa-intent | qa-route | qa-trace | qa-check --exec --allow-exec --timeout 600 | qa-report",
    },
    Example {
        what: "Which command would run, and why it is refused, without running anything",
        command: "qa-check --exec --in routed.ndjson | jq -c 'select(.kind==\"execution\") | .data | {command, status, blocked, reason}'",
    },
    Example {
        what: "Each check's status and reason",
        command: "qa-check --in routed.ndjson | jq -r 'select(.kind==\"observation\") | [.data.check, .data.status, .data.reason] | @tsv'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "observations written (whatever their status: verdicts are qa-report's job); with --exec, the command passed (its changed tests ran, or its tests could not be counted: count unverified) and left the repository unchanged",
    ),
    (Exit::Fail, "with --exec: the command failed (non-zero exit or a signal)"),
    (
        Exit::Incomplete,
        "with --exec: the command was blocked (refused, or it could not start its runner), timed out, exited 0 but changed the repository, ran no test (empty), or did not run a changed test it names (incomplete)",
    ),
    (
        Exit::Usage,
        "usage error (bad flags, --browser-endpoint not a ws:// or wss:// URL or given with --browser, --timeout over 300, or over 1800 with --exec, --auth-env variable not set or its value starting or ending with a space, --shard not I/N with 1 <= I <= N <= 1000)",
    ),
    (Exit::DataErr, "malformed input records"),
    (
        Exit::NoInput,
        "the --in file or the --repo directory does not exist",
    ),
    (
        Exit::Unavailable,
        "every check was a browser check and the browser, Node.js or the Playwright module is missing (their observations are written)",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "cancelled by SIGINT: finished and cancelled observations written; with --exec, the command's process group stopped and its record written",
    ),
    (
        Exit::Terminated,
        "cancelled by SIGTERM: finished and cancelled observations written; with --exec, the command's process group stopped and its record written",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::exit::exit_of;

    const URL: &str = "ws://127.0.0.1:41234/0123456789abcdef";

    fn settings(flags: &[&str]) -> Result<Settings> {
        let argv = ["qa-check", "--repo", "."].iter().chain(flags);
        Args::try_parse_from(argv).unwrap().settings()
    }

    /// The usage error's message, asserting exit 64, one line, and no endpoint path.
    fn usage_error(flags: &[&str]) -> String {
        let err = settings(flags).unwrap_err();
        assert_eq!(exit_of(&err), Exit::Usage);
        let message = format!("{err:#}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(!message.contains("0123456789abcdef"), "{message}");
        message
    }

    #[test]
    fn a_browser_endpoint_is_connected_to_and_no_chromium_is_looked_for() {
        let settings = settings(&["--browser-endpoint", URL]).unwrap();
        let endpoint = settings.browser.endpoint.expect("the endpoint");
        assert_eq!(endpoint.url(), URL);
        assert_eq!(settings.browser.executable, None);
    }

    #[test]
    fn without_a_browser_endpoint_chromium_is_launched() {
        let settings = settings(&["--browser", "/opt/chromium"]).unwrap();
        assert!(settings.browser.endpoint.is_none());
        assert_eq!(settings.browser.executable, Some("/opt/chromium".into()));
    }

    #[test]
    fn a_browser_endpoint_beside_browser_is_a_usage_error() {
        let message = usage_error(&["--browser-endpoint", URL, "--browser", "/opt/chromium"]);
        assert!(message.contains("give one of them"), "{message}");
    }

    #[test]
    fn a_browser_endpoint_that_is_not_a_websocket_url_is_a_usage_error() {
        let message = usage_error(&[
            "--browser-endpoint",
            "http://127.0.0.1:41234/0123456789abcdef",
        ]);
        assert!(message.contains("ws://"), "{message}");
    }

    #[test]
    fn the_help_lists_every_switch_qa_check_launches_chromium_with() {
        let help = command().render_long_help().to_string();
        for switch in crate::browser::CHROMIUM_ARGS {
            assert!(help.contains(switch), "--help does not list {switch}");
        }
    }
}
