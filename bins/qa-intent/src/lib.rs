//! qa-intent: change intents and runner-independent QA scenarios from a change stream.

pub mod behaviour;
pub mod changeset;
pub mod cli;
pub mod deltas;
pub mod equivalence;
pub mod graph;
pub mod intents;
pub mod joining;
pub mod lifecycle;
pub mod memory;
pub mod moves;
pub mod oracle;
pub use qa_team_manifest as manifest;
pub mod plan;
pub mod scenarios;
pub mod sources;
pub mod trees;
pub mod vocabulary;

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::Result;
use qa_records::diag::{Diag, Severity};
use qa_records::envelope::Src;
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};

use changeset::Changeset;
use manifest::Manifest;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-intent/", env!("CARGO_PKG_VERSION"));

/// How a run reports on itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Print the syntax trees' timings on stderr.
    pub timings: bool,
}

/// Forwards the stream, then appends one `intent` record per intent, each followed by its
/// `scenario` records, `diag` records for what it set aside, and the behavior graph the
/// change reaches in `repo` (`node` records, then the `edge` records among them).
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    manifest: Option<&Manifest>,
    repo: &Path,
    options: Options,
    out: &mut RecordWriter<W>,
) -> Result<()> {
    // The graphs need only the range, the first record: they are built on a second
    // thread while the rest of the stream is read and the intents are derived.
    let handoff = &memory::PackHandoff::default();
    std::thread::scope(|scope| {
        let mut cs = Changeset::in_repo(repo);
        let mut building = graph::Building::none();
        // A file record's data is read from its text: built as a `Value` tree first, the
        // largest record (a file's hunks, line by line) took several times its size,
        // beside the graph being built.
        let read =
            qa_records::ndjson::forward_each_text(source, input, out, |line, envelope, text| {
                cs.take(source, line, envelope, text)?;
                if let (false, Some(range)) = (building.started(), &cs.range) {
                    let range = range.data.clone();
                    graph::holds_head(repo, &range)?;
                    building = graph::Building::on(
                        scope.spawn(move || graph::trees(&range, repo, handoff)),
                    );
                }
                Ok(())
            });
        // Joined once the intents are derived (or at once on bad input).
        match read {
            Ok(_) => write(&cs, building, handoff, manifest, repo, options, out),
            Err(e) => {
                building.graphs();
                Err(e)
            }
        }
    })
}

/// Starts the verdicts' thread of [`write`]: it judges the commits' own diffs, says so on
/// `judged`, then compares the graphs and makes their records.
fn judge<'scope, 'env, 'b: 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    cs: &'env Changeset,
    building: graph::Building<'b>,
    judged: std::sync::mpsc::Sender<()>,
) -> std::thread::ScopedJoinHandle<'scope, Result<graph::Finished>> {
    scope.spawn(move || {
        cs.judge_ahead();
        let compared = graph::compared(cs, building);
        // A closed channel would only mean the intents are no longer awaited.
        let _ = judged.send(());
        graph::finish(cs, compared)
    })
}

/// Appends what qa-intent derives from the stream it read.
fn write<W: Write>(
    cs: &Changeset,
    building: graph::Building,
    handoff: &memory::PackHandoff,
    manifest: Option<&Manifest>,
    repo: &Path,
    options: Options,
    out: &mut RecordWriter<W>,
) -> Result<()> {
    if cs.range.is_none() && cs.files.is_empty() {
        let diag = Diag::new(
            Severity::Warning,
            "qa-intent",
            "no range or file records in the input: run qa-diff first",
        );
        out.write(&diag.into_record(BY, vec![])?)?;
        return Ok(());
    }
    // The commits' own diffs are judged on a second thread, from the moment the trees are
    // parsed: while this one matches what moved across the changed files, then reads what
    // a changed test passes to the repository's assertion helpers; then that thread
    // compares the graphs and makes their records while this one derives the intents once
    // the verdicts are in. Each needs only what is read by then: started after the moves
    // were matched, the verdicts left the other core idle meanwhile. The graphs are
    // compared (their trees dropped) before the intents are derived: beside the intents,
    // the trees took the peak RSS up by about 1 MB (30.4 MB).
    let (derived, graph) = std::thread::scope(|scope| {
        let (judged, verdicts) = std::sync::mpsc::channel();
        let mut judged = Some(judged);
        let building = std::cell::RefCell::new(Some(building));
        let taken = || {
            building
                .borrow_mut()
                .take()
                .unwrap_or_else(graph::Building::none)
        };
        let mut ahead = None;
        let (mut deltas, components, stats) = deltas::of_changeset(
            cs,
            repo,
            handoff,
            || building.borrow_mut().as_mut().is_none_or(|b| b.finished()),
            || {
                ahead = judged
                    .take()
                    .map(|judged| judge(scope, cs, taken(), judged))
            },
        );
        let ahead = match (ahead, judged) {
            (Some(ahead), _) => ahead,
            (None, Some(judged)) => judge(scope, cs, taken(), judged),
            (None, None) => unreachable!("the verdicts' thread is started once"),
        };
        // The trees are parsed and compared: their memory is free.
        memory::release_freed();
        if options.timings {
            eprintln!("qa-intent: {stats}");
        }
        oracle::support::resolve(cs, repo, &mut deltas);
        // The verdicts usually take longer: the patterns the intents are read with are
        // compiled meanwhile (here, not on the other thread, so that they sit in this
        // thread's heap as before: there they took the peak RSS up by 1.3 MB).
        lifecycle::compile_patterns();
        if verdicts.recv().is_err() {
            // The other thread panicked before it sent: its panic is this run's.
            if let Err(panic) = ahead.join() {
                std::panic::resume_unwind(panic);
            }
            unreachable!("the verdicts' thread sends before it returns");
        }
        // The verdicts are in: their free pages go before the intents are derived.
        memory::release_freed();
        let derived: Vec<_> = intents::derive(cs, manifest, &deltas, &components)
            .into_iter()
            .map(|intent| {
                let scenarios = scenarios::for_intent(&intent);
                (intent, scenarios)
            })
            .collect();
        let graph = ahead
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (derived, graph)
    });
    let graph = match graph? {
        graph::Finished::None => None,
        // A graph that cannot be built is a gap, not a failure: intents do not need it.
        graph::Finished::Failed(e) => {
            let diag = Diag::new(
                Severity::Warning,
                "qa-intent",
                format!("no behavior graph: {e:#}"),
            );
            out.write(&diag.into_record(BY, vec![])?)?;
            None
        }
        graph::Finished::Built(built) => Some(*built),
    };
    let mut src = Src::new();
    if let Some(m) = manifest {
        src.insert("manifest.sha256".to_string(), m.sha256.clone());
    }
    for (intent, scenarios) in derived {
        let intent_src = if intent.data.flow.is_some() {
            src.clone()
        } else {
            Src::new()
        };
        let record = Record::new(
            Kind::Intent,
            BY,
            intent.from.clone(),
            intent_src.clone(),
            &intent.data,
        )?;
        out.write(&record)?;
        for mut scenario in scenarios {
            if let Some(m) = manifest {
                let files: Vec<&str> = scenario
                    .evidence
                    .iter()
                    .filter(|e| e.line > 0)
                    .map(|e| e.file.as_str())
                    .collect();
                if let Some(s) = m.suppression_for(&scenario.title, &files) {
                    let mut diag = Diag::new(
                        Severity::Info,
                        "qa-intent",
                        format!(
                            "scenario {:?} suppressed by the manifest: {}",
                            scenario.title, s.reason
                        ),
                    );
                    diag.subjects.push(record.id.clone());
                    out.write(&diag.into_record(BY, vec![record.id.clone()])?)?;
                    continue;
                }
            }
            scenario.intent = record.id.clone();
            if let Some(built) = &graph {
                graph::name_reaches(&built.graph, &mut scenario);
            }
            out.write(&Record::new(
                Kind::Scenario,
                BY,
                vec![record.id.clone()],
                intent_src.clone(),
                &scenario,
            )?)?;
        }
    }
    if let Some(built) = graph {
        for line in &built.lines {
            out.forward(line)?;
        }
        let from: Vec<String> = cs.range.iter().map(|r| r.id.clone()).collect();
        for diag in built.diags {
            out.write(&diag.into_record(BY, from.clone())?)?;
        }
    }
    Ok(())
}
