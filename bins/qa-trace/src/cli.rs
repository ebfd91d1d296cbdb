//! qa-trace's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

use crate::{DraftFormat, DraftOptions};

/// Assemble one reasoning trace per QA scenario.
///
/// qa-trace forwards every record it reads, then adds one `trace` record per `scenario`:
/// the causal path `diff file:line -> lifecycle stage -> risk -> route -> draft ->
/// execution`. A trace is `traceable` only when a located diff line and a lifecycle stage
/// of the intent located on that same line join and the scenario is routed; `partial`
/// when they do not; `review-only` when the route is review-only. Execution stays
/// `not-run` unless an `execution` record of the route's exact command is in the stream.
///
/// With --draft manual, each routed scenario also gets a `draft` record: steps and
/// assertions with the `file:line` each maps to, and a compile receipt (compiled,
/// partial, not-compiled, review-only).
///
/// With --draft playwright, each routed web scenario also gets a Playwright spec in the
/// draft directory (a new private temp directory unless --draft-dir names one; its path is
/// printed on stderr), with a config to run it (`QA_BASE_URL`, `QA_BROWSER`). Steps are
/// `test.step`s named from the flow; locators come only from changed `data-testid`,
/// `aria-label`, role or text lines; assertions only from located observable outcomes; a
/// reload step only when a located write and read of the same storage key, the stored
/// field, its save handler and that handler's control are all located; network mocks only
/// from an exact example of a matching operation in the --openapi document. The draft
/// record names the spec file and a label: `static-runnable, not executed` only when the
/// spec has an entrypoint, an observable assertion and no skipped placeholder.
///
/// On an acceptance stream, each `criterion` gets a trace too: `source -> check -> route
/// -> observation`, traceable when every check was observed, partial when one was not or
/// the source quote is missing, review-only for an inferred criterion; execution passed,
/// failed, blocked or not-run from the observations.
#[derive(Debug, Parser)]
#[command(name = "qa-trace", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Also write a draft per routed scenario.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub draft: Option<DraftFormat>,

    /// Write Playwright drafts to DIR (created 0700 when missing) instead of a new temp
    /// directory; the only way a draft lands inside a repository.
    #[arg(long, value_name = "DIR", requires = "draft")]
    pub draft_dir: Option<PathBuf>,

    /// An OpenAPI document (JSON) whose exact response examples may become Playwright
    /// network mocks; nothing else ever does.
    #[arg(long, value_name = "FILE", requires = "draft")]
    pub openapi: Option<PathBuf>,

    /// The permission flags every stage accepts; this stage needs none of them, and its
    /// help says so under their own heading rather than offering them.
    #[command(
        flatten,
        next_help_heading = "Ignored here (accepted so one flag set passes to every stage; qa-trace uses none)"
    )]
    pub pipeline: qa_cli::PipelineFlags,
}

impl Args {
    /// The draft options the flags ask for.
    pub fn drafts(&self) -> DraftOptions {
        DraftOptions {
            format: self.draft,
            dir: self.draft_dir.clone(),
            openapi: self.openapi.clone(),
        }
    }
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Traces for the current branch",
        command: "qa-diff | qa-intent | qa-route | qa-trace",
    },
    Example {
        what: "Criterion traces of an acceptance run",
        command: "qa-intent --plan plan.json | qa-fetch | qa-route | qa-check | qa-fetch --verify | qa-trace",
    },
    Example {
        what: "Playwright drafts in ./qa-drafts, mocks from the API's examples",
        command: "qa-diff | qa-intent | qa-route | qa-trace --draft playwright --draft-dir qa-drafts --openapi openapi.json",
    },
    Example {
        what: "With manual drafts, then only the drafts' receipts",
        command: "qa-diff | qa-intent | qa-route | qa-trace --draft manual | jq -c 'select(.kind == \"draft\") | .data.receipt'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "records written"),
    (
        Exit::Usage,
        "usage error (bad flags, a --draft-dir that cannot be created)",
    ),
    (
        Exit::DataErr,
        "malformed input records, or an --openapi document that is not JSON OpenAPI",
    ),
    (Exit::NoInput, "the --in or --openapi file does not exist"),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
