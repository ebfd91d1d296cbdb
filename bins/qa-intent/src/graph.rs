//! The behavior graph of the change: qa-graph builds it from the range's merge base and
//! head (git objects, no checkout), qa-intent names the entrypoints each scenario
//! reaches and writes the reached subgraph as `node` and `edge` records.

use crate::changeset::{bears_behaviour, Changeset};
use crate::memory::PackHandoff;
use anyhow::{Context as _, Result};
use qa_graph::model::{Graph, NodeKey};
use qa_graph::ChangeGraph;
use qa_records::change::{RangeView, ScenarioData, Status};
use std::collections::BTreeSet;
use std::path::Path;

/// The `stage` of the diagnostics written about the graph.
const STAGE: &str = "qa-intent";

/// The base and head graphs, before they are compared.
pub type Trees = (Graph, Graph);

/// The graphs being built on a thread of their own while the stream is read.
pub struct Building<'scope> {
    thread: Option<std::thread::ScopedJoinHandle<'scope, Result<Trees>>>,
    built: Option<Result<Trees>>,
}

impl<'scope> Building<'scope> {
    /// Nothing to build: the stream has no range.
    pub fn none() -> Building<'scope> {
        Building {
            thread: None,
            built: None,
        }
    }

    pub fn on(thread: std::thread::ScopedJoinHandle<'scope, Result<Trees>>) -> Building<'scope> {
        Building {
            thread: Some(thread),
            built: None,
        }
    }

    pub fn started(&self) -> bool {
        self.thread.is_some() || self.built.is_some()
    }

    /// True once the thread has ended (it is joined then, so its core and its malloc
    /// arena are free for the next thread), or when there was none.
    pub fn finished(&mut self) -> bool {
        if self.thread.as_ref().is_some_and(|t| t.is_finished()) {
            self.join();
        }
        self.thread.is_none()
    }

    /// The graphs, once built; `None` without a range. A panic while building costs the
    /// graph, not the intents.
    pub fn graphs(mut self) -> Option<Result<Trees>> {
        self.join();
        self.built
    }

    fn join(&mut self) {
        if let Some(t) = self.thread.take() {
            self.built = Some(
                t.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the graph builder panicked"))),
            );
        }
    }
}

/// Refuses a repository that does not hold the range's head commit (exit 66): its
/// graph, sources and manifest would describe another history than the stream's.
pub fn holds_head(repo: &Path, range: &RangeView) -> Result<()> {
    let holds = git2::Repository::open(repo).is_ok_and(|git| {
        git2::Oid::from_str(&range.head.oid).is_ok_and(|oid| git.find_commit(oid).is_ok())
    });
    match holds {
        true => Ok(()),
        false => Err(range.foreign_to(repo, STAGE)),
    }
}

/// The base (merge base) and head graphs of a range in `repo`: the slow half, which
/// runs while the rest of the stream is read. Between the two trees the pack is handed
/// over (`handoff`): its cache of delta bases goes.
pub fn trees(range: &RangeView, repo: &Path, handoff: &PackHandoff) -> Result<Trees> {
    qa_graph::graphs_handing_over(
        repo,
        &range.merge_base,
        &range.head.oid,
        &qa_graph::adapters(),
        &qa_graph::Options::default().limits,
        || handoff.hand_over(),
    )
    .with_context(|| format!("building the behavior graph of {}", repo.display()))
}

/// The change graph: the two trees compared, with the paths the diff changed counting
/// as changed at head even where the commits agree (a worktree stream's edits are not
/// in the head commit).
pub fn compare(cs: &Changeset, (base, head): Trees) -> ChangeGraph {
    let changed: BTreeSet<String> = cs
        .files
        .iter()
        .filter(|f| f.data.status != Status::Deleted)
        .map(|f| f.data.path.clone())
        .collect();
    ChangeGraph::compare(base, head, &changed, qa_graph::Options::default().bounds)
}

/// The behavior graph's part of the output, once the stream is read.
pub enum Finished {
    /// The stream has no range: no graph.
    None,
    /// The graphs could not be built (a gap, said in a diag).
    Failed(anyhow::Error),
    Built(Box<Built>),
}

/// The compared graphs and their records, as lines.
pub struct Built {
    pub graph: ChangeGraph,
    pub lines: Vec<Vec<u8>>,
    pub diags: Vec<qa_records::diag::Diag>,
}

/// Waits for the graphs and compares them: the trees are dropped here.
pub fn compared(cs: &Changeset, building: Building) -> Option<Result<ChangeGraph>> {
    building
        .graphs()
        .map(|built| built.map(|trees| compare(cs, trees)))
}

/// Makes the records of the compared graphs ([`compared`]).
pub fn finish(cs: &Changeset, compared: Option<Result<ChangeGraph>>) -> Result<Finished> {
    Ok(match compared {
        None => Finished::None,
        Some(Err(e)) => Finished::Failed(e),
        Some(Ok(graph)) => {
            let mut lines = Vec::new();
            let diags = emit(cs, &graph, crate::BY, &mut |record| {
                lines.push(record.to_line());
                Ok(())
            })?;
            Finished::Built(Box::new(Built {
                graph,
                lines,
                diags,
            }))
        }
    })
}

/// Fills `reaches` with the entrypoints the scenario's located evidence files reach.
pub fn name_reaches(graph: &ChangeGraph, scenario: &mut ScenarioData) {
    let files = scenario
        .evidence
        .iter()
        .filter(|e| e.line > 0)
        .map(|e| e.file.as_str());
    scenario.reaches = qa_graph::records::reaches(graph, files);
}

/// Changed behaviour-bearing paths no adapter read: the graph knows they changed but
/// not what depends on them.
pub fn unanalyzed(cs: &Changeset, graph: &ChangeGraph) -> Vec<String> {
    cs.files
        .iter()
        .filter(|f| f.data.status != Status::Deleted && bears_behaviour(f.data.role))
        .filter(|f| {
            !graph
                .head
                .nodes
                .contains_key(&NodeKey::file(f.data.path.clone()))
        })
        .map(|f| f.data.path.clone())
        .collect()
}

/// Writes the records of the reached subgraph, derived from the range record, and
/// returns the diagnostics of building it.
pub fn emit(
    cs: &Changeset,
    graph: &ChangeGraph,
    by: &str,
    write: &mut dyn FnMut(&qa_records::Record) -> Result<()>,
) -> Result<Vec<qa_records::diag::Diag>> {
    let from: Vec<String> = cs.range.iter().map(|r| r.id.clone()).collect();
    qa_graph::records::emit(graph, by, STAGE, &from, &unanalyzed(cs, graph), write)
}
