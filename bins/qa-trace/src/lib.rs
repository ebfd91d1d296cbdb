//! qa-trace: one causal reasoning trace per QA scenario, and optional manual or Playwright
//! drafts with compile receipts; on an acceptance stream, one trace per criterion.

pub mod cli;
pub mod criteria;
pub mod drafts;
pub mod playwright;
pub mod reading;
pub mod traces;

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Result;
use qa_records::envelope::Src;
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-trace/", env!("CARGO_PKG_VERSION"));

/// Which drafts to write besides the traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DraftFormat {
    /// A manual test draft: steps and assertions a person follows.
    Manual,
    /// A Playwright spec per routed web scenario, written to the draft directory.
    Playwright,
}

/// What drafts to write, and where.
#[derive(Debug, Clone, Default)]
pub struct DraftOptions {
    pub format: Option<DraftFormat>,
    /// Playwright drafts' directory; None: a new private temp directory.
    pub dir: Option<PathBuf>,
    /// An OpenAPI (JSON) document whose exact examples may become network mocks.
    pub openapi: Option<PathBuf>,
}

/// Forwards the stream, then appends for each scenario its draft (when asked) and its
/// trace, in scenario order, then one trace per acceptance criterion, in criterion order.
/// Playwright specs are written to the draft directory, which is named on stderr.
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    drafts: &DraftOptions,
    out: &mut RecordWriter<W>,
) -> Result<()> {
    let openapi = match (&drafts.format, &drafts.openapi) {
        (Some(DraftFormat::Playwright), Some(path)) => {
            Some(playwright::openapi::OpenApi::read(path)?)
        }
        _ => None,
    };
    let mut seen = reading::Seen::default();
    let mut lines = playwright::sources::ChangedLines::default();
    let playwright = drafts.format == Some(DraftFormat::Playwright);
    // Graph records, commits and (without Playwright drafts) files pass through unread.
    let reads = |kind: &str| {
        let kind = Kind::parse(kind);
        reading::Seen::reads(kind) || (playwright && kind == Some(Kind::File))
    };
    qa_records::ndjson::forward_each_reading(source, input, out, reads, |line, envelope| {
        if playwright {
            lines.take(source, line, &envelope)?;
        }
        seen.take(source, line, envelope)
    })?;
    let mut dir = None;
    for scenario in &seen.scenarios {
        let route = seen.routes.get(&scenario.id);
        let intent = seen.intents.get(&scenario.data.intent);
        let mut draft_record = None;
        if let (Some(format), Some(route)) = (drafts.format, route) {
            let data = match format {
                DraftFormat::Manual => serde_json::to_value(drafts::manual(scenario, route))?,
                DraftFormat::Playwright => {
                    let ctx = playwright::Context {
                        lines: &lines,
                        openapi: openapi.as_ref(),
                    };
                    let compiled = playwright::compile(scenario, route, intent, ctx);
                    if let (Some(file), Some(spec)) = (&compiled.data.file, &compiled.spec) {
                        if dir.is_none() {
                            let opened =
                                playwright::directory::DraftDir::open(drafts.dir.as_deref())?;
                            eprintln!("qa-trace: playwright drafts in {}", opened.path().display());
                            dir = Some(opened);
                        }
                        dir.as_ref().expect("opened above").write(file, spec)?;
                    }
                    serde_json::to_value(compiled.data)?
                }
            };
            let record = Record::new(
                Kind::Draft,
                BY,
                vec![scenario.id.clone(), route.id.clone()],
                Src::new(),
                &data,
            )?;
            out.write(&record)?;
            draft_record = Some((record.id.clone(), serde_json::from_value(data)?));
        }
        let execution = seen.executions.last();
        let data = traces::trace(scenario, intent, route, draft_record.as_ref(), execution);
        let mut from = vec![scenario.id.clone()];
        from.extend(route.map(|r| r.id.clone()));
        from.extend(draft_record.map(|d| d.0));
        from.extend(intent.map(|i| i.id.clone()));
        out.write(&Record::new(Kind::Trace, BY, from, Src::new(), &data)?)?;
    }
    for criterion in &seen.criteria {
        let checks = criteria::links(criterion, &seen);
        let data = criteria::trace(criterion, &checks);
        let from = criteria::from(criterion, &checks);
        out.write(&Record::new(Kind::Trace, BY, from, Src::new(), &data)?)?;
    }
    Ok(())
}

/// Scenario, route and intent values for the unit tests of drafts and traces.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::reading::Read;
    use qa_records::change::*;

    pub fn evidence(
        file: &str,
        line: u32,
        relation: Relation,
        stage: Option<Stage>,
        text: &str,
    ) -> Evidence {
        Evidence {
            file: file.into(),
            line,
            relation,
            stage,
            text: text.into(),
        }
    }

    pub fn scenario(
        steps: &[&str],
        assertions: &[&str],
        evidence: Vec<Evidence>,
        gap: Option<&str>,
    ) -> Read<ScenarioData> {
        Read {
            id: format!("sha256:{}", "a".repeat(64)),
            data: ScenarioData {
                intent: format!("sha256:{}", "b".repeat(64)),
                title: "Refund".into(),
                kind: ScenarioKind::Failure,
                priority: Priority::Recommended,
                steps: steps.iter().map(|s| s.to_string()).collect(),
                assertions: assertions.iter().map(|s| s.to_string()).collect(),
                evidence,
                proof_gap: gap.map(str::to_string),
                authority: Authority::Inference,
                test_class: TestClass::Edge,
                focus: Focus::Product,
                reaches: Vec::new(),
            },
        }
    }

    pub fn route(decision: Decision, command: Option<&str>) -> Read<RouteData> {
        Read {
            id: format!("sha256:{}", "c".repeat(64)),
            data: RouteData {
                subject: format!("sha256:{}", "a".repeat(64)),
                decision,
                reason: "test".into(),
                evidence: EvidenceCounts::default(),
                action: Action {
                    kind: if command.is_some() {
                        ActionKind::RunRepositoryCommand
                    } else {
                        ActionKind::ReviewScenario
                    },
                    risk: Risk::Low,
                    approval: "required".into(),
                    executes_code: command.is_some(),
                    writes: vec![],
                    network: false,
                    preconditions: vec![],
                },
                command: command.map(|run| Command {
                    run: run.into(),
                    runner: "npm".into(),
                    dir: ".".into(),
                    scope: CommandScope::Suite,
                    declared_in: "package.json".into(),
                    purpose: CommandPurpose::Test,
                    why: "runs the whole test suite".into(),
                    unmet: None,
                }),
                additional_commands: vec![],
            },
        }
    }
}
