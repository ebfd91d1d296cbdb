//! The analyzer adapter contract (`detect`, then `analyze`) and the runner that builds a
//! tree's graph from the layers in order, so one adapter's failure becomes a diagnostic
//! and never erases the others' output.

use crate::model::{AdapterRun, DiagLevel, Fragment, Graph, GraphDiag, Module, Outcome};
use crate::tree::Snapshot;
use qa_shared::graph::Support;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Which layer an adapter belongs to; layers run in this order, so a framework adapter
/// sees what the language adapters read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// Imports, exports and symbols of one language.
    Language,
    /// Routes, screens, handlers and commands of one framework.
    Framework,
    /// Manifests, declared commands, tests and fixtures of the repository.
    Repository,
}

/// Whether an adapter takes a tree, and on what evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detection {
    /// The evidence, e.g. `package.json depends on next`.
    Accept(String),
    /// Why not, e.g. `no .py file`.
    Decline(String),
}

/// What an adapter analyzes: the tree, and the modules earlier layers read.
pub struct Context<'a> {
    pub snapshot: &'a Snapshot,
    /// Per source file, its resolved imports and declared names (language layer).
    pub modules: &'a BTreeMap<String, Module>,
}

/// A graph-producing analyzer. Adapters hold no per-tree state (they may cache parses
/// by blob id), so one set of adapters builds both the base and the head graph.
pub trait Adapter: Send + Sync {
    /// A stable id, written in node records (`typescript`, `nextjs`, ...).
    fn id(&self) -> &'static str;
    fn layer(&self) -> Layer;
    /// How much of the behavior-impact contract this adapter's nodes support.
    fn support(&self) -> Support;
    /// Evidence-based: may decline a tree it finds nothing for.
    fn detect(&self, snapshot: &Snapshot) -> Detection;
    /// The adapter's nodes and edges. Edges may name nodes of other adapters (a route's
    /// screen file); edges whose end no adapter produced are dropped with a diagnostic.
    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment>;
}

/// Builds the graph of `snapshot` with `adapters`, layer by layer.
pub fn build(snapshot: &Snapshot, adapters: &[Box<dyn Adapter>]) -> Graph {
    let mut graph = Graph {
        commit: snapshot.commit.clone(),
        ..Graph::default()
    };
    let mut order: Vec<&dyn Adapter> = adapters.iter().map(|a| a.as_ref()).collect();
    order.sort_by_key(|a| a.layer());
    let mut modules: BTreeMap<String, Module> = BTreeMap::new();
    for adapter in order {
        let outcome = run_one(adapter, snapshot, &modules);
        let outcome = match outcome {
            Ok((evidence, fragment)) => {
                merge(&mut graph, adapter, &mut modules, fragment);
                Outcome::Analyzed { evidence }
            }
            Err(Ok(reason)) => Outcome::Declined { reason },
            Err(Err(error)) => {
                graph.diags.push(GraphDiag {
                    severity: DiagLevel::Warning,
                    source: adapter.id().to_string(),
                    message: format!("adapter {} failed: {error}", adapter.id()),
                });
                Outcome::Failed { error }
            }
        };
        graph.adapters.push(AdapterRun {
            id: adapter.id(),
            support: adapter.support(),
            outcome,
        });
    }
    graph.settle();
    graph
}

/// Ok: accepted and analyzed; Err(Ok): declined; Err(Err): failed (error or panic).
type RunResult = Result<(String, Fragment), Result<String, String>>;

fn run_one(
    adapter: &dyn Adapter,
    snapshot: &Snapshot,
    modules: &BTreeMap<String, Module>,
) -> RunResult {
    // A panic inside one adapter is that adapter's failure, not the whole stage's.
    let caught = catch_unwind(AssertUnwindSafe(|| match adapter.detect(snapshot) {
        Detection::Decline(reason) => Err(Ok(reason)),
        Detection::Accept(evidence) => {
            let cx = Context { snapshot, modules };
            match adapter.analyze(&cx) {
                Ok(fragment) => Ok((evidence, fragment)),
                Err(e) => Err(Err(format!("{e:#}"))),
            }
        }
    }));
    match caught {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(Err(format!("panicked: {what}")))
        }
    }
}

fn merge(
    graph: &mut Graph,
    adapter: &dyn Adapter,
    modules: &mut BTreeMap<String, Module>,
    fragment: Fragment,
) {
    for mut node in fragment.nodes {
        node.adapter = adapter.id();
        node.support = adapter.support();
        graph.add_node(node);
    }
    for mut edge in fragment.edges {
        edge.adapter = adapter.id();
        graph.edges.insert(edge);
    }
    modules.extend(fragment.modules);
}
