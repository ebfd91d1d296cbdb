//! qa-route's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Route QA scenarios to evidence decisions and the repository's own validation commands,
/// and acceptance checks to runnable, blocked or unsupported.
///
/// qa-route forwards every record it reads, unchanged and in order. At the end of input it
/// appends one `route` record per `scenario`: the decision (required: critical with a
/// located direct or supporting changed line; recommended: located but not critical;
/// review-only: commit wording or context only), the evidence counts, the existing
/// validation commands of the repository that cover the scenario's files (Cargo,
/// npm/pnpm/yarn/bun scripts, pytest, go test, Maven/Gradle, Make; the changed test first,
/// then its package, then the whole suite; within one of these, a test the change adds
/// (its declaration on a line the `file` records show added) before tests it only adapts;
/// a changed Rust test by its exact name, with `--include-ignored` when it is `#[ignore]`d
/// (the command would run nothing otherwise), and one rstest expands into cases
/// (`#[case]`, `#[values]`, rstest_reuse's `#[apply]`) by its name as a prefix (`name::`,
/// no `--exact`, which would match none of its cases); a Go package with the packages below it (`go test ./pkg/...`), the package at the
/// module root alone (`go test ./`: `./...` there is the whole module), a package under no
/// go.mod as Go built before modules (`GO111MODULE=off go test ./pkg/...`); a changed
/// JavaScript test goes to the runner of
/// the `test` script when a path the script names covers it or it names none, else to the
/// sibling script whose runner's path arguments cover it most narrowly, never a watching
/// one, else to a `karma start` script when it is spec-named (karma's configuration lists
/// its files: the changed tests are named by title, `karma start karma.conf.cjs
/// --single-run -- --grep=/<titles>/`, a regular expression as karma's adapters read one,
/// and without a known test there is no narrowed karma
/// run); a script file that starts a runner, `node bin/hotfix.js mocha test/`, is stepped
/// over; an Angular project whose `test` script is `ng test` with the
/// `@angular-builders/jest:run` builder gets its changed spec files as Jest path patterns,
/// `pnpm test --test-path-patterns <spec>`, the option named by the `jest` version it
/// declares: `--test-path-pattern` before Jest 30), and an action contract (risk, approval, whether
/// it executes project code, what it writes, network, preconditions). Configuration and
/// shipped files (bundler and TypeScript configuration, package.json, lint configuration,
/// .env files and feature flags, app.json and platform manifests, images, fonts and files
/// under public/ or static/) also route to the owning package's declared `validate:*`,
/// `typecheck`, `build`, platform builds (`build:ios`, ...) and `lint` scripts and the root
/// Makefile's targets of those names; for a change made only of such files they come
/// first. Each command names its `purpose` (test, validate, typecheck, build, lint) and
/// `why` it covers the change; a script that watches or serves is never offered. A command
/// that is a wrapper (a Makefile target, a package.json script) is read as text, never run,
/// for the tool it starts (`go`, `pytest`, `python -m pytest`, `vitest`, `jest`, `cargo`,
/// ...; `$(VAR)` assignments of the same makefile followed, and one level of `make other`,
/// prerequisites or `npm run other`; a makefile that is a symbolic link is not read), and
/// that tool is checked on PATH too (a script's tools also in `node_modules/.bin`). A
/// command whose runner or wrapped tool is missing is passed over for the next one that
/// can start; when none can, the narrowest stays the route's command with `unmet` (the
/// missing program and the precondition in words: "needs `pytest` on PATH: activate the
/// project's virtual environment"), the first precondition of its action. A package tool
/// missing from `node_modules/.bin` is named in `unmet` too ("run `npm install` first"),
/// and the command is still routed. Then `diag` records (for example a runner that is not
/// on PATH, naming the commands skipped) and one `capability` record per reasoning stage.
///
/// For each `check.spec` (from `qa-intent --plan`) it appends one `route` record: a file
/// check on a file or directory target is runnable; an http, mcp or browser check on a
/// url target needs --allow-network, and an mcp or browser check that calls a tool
/// (`input`) needs --allow-tool-calls too (runnable with them, blocked without, naming the
/// missing flags); on a production environment of the host profile a tool call is blocked
/// unless `readOnly: true`. A check on a target of the wrong kind and an unknown kind are
/// unsupported. Each carries a `run-check` action: it never executes project code (a
/// browser check runs the page's scripts in Chromium), and a tool call that is not
/// read-only may write remote state. A stream with check specs and no scenarios gets no
/// capability receipts: those describe the change flow.
///
/// qa-route only reads build files under --repo; it never runs a command or a check and
/// never enters a nested repository. A command is selected only when its runner is on
/// PATH; `qa-check --exec --allow-exec` is what runs it.
#[derive(Debug, Parser)]
#[command(name = "qa-route", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// The repository working tree whose build files declare the validation commands;
    /// on a change stream it must hold the range's head commit (else exit 66).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// The permission flags every stage accepts. --allow-network and --allow-tool-calls
    /// decide whether a check is routed runnable or blocked; the others change nothing here.
    #[command(flatten)]
    pub pipeline: qa_cli::PipelineFlags,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Route the current branch's scenarios against this repository",
        command: "qa-diff | qa-intent | qa-route | qa-report --verify",
    },
    Example {
        what: "Route a saved stream against another checkout",
        command: "qa-route --repo ../service --in change.ndjson > routed.ndjson",
    },
    Example {
        what: "Route an acceptance plan's checks, allowing http checks",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch --allow-network | qa-route --allow-network | qa-check --allow-network",
    },
    Example {
        what: "Checks that will not run, and why",
        command: "qa-route --in plan.ndjson | jq -r 'select(.kind==\"route\" and .data.check and .data.decision!=\"runnable\") | \"\\(.data.check): \\(.data.reason)\"'",
    },
    Example {
        what: "The selected command of every required scenario",
        command: "qa-route --in change.ndjson | jq -r 'select(.kind==\"route\" and .data.decision==\"required\") | .data.command.run'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "records written (also when stdout closed early)"),
    (Exit::Usage, "usage error (bad flags)"),
    (
        Exit::DataErr,
        "malformed input: a bad line or one over 16 MiB, or intent, scenario, target.spec or check.spec data that does not parse (the message names the line)",
    ),
    (
        Exit::NoInput,
        "the --in file or the --repo directory does not exist, or that repository does not hold the change stream's head commit",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
