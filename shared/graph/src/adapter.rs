//! The analyzer adapter contract (`detect`, then `analyze`) and the runner that builds a
//! tree's graph from the layers in order, so one adapter's failure becomes a diagnostic
//! and never erases the others' output.

use crate::language::has_extension;
use crate::model::{AdapterRun, DiagLevel, Fragment, Graph, GraphDiag, Module, Names, Outcome};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::graph::Support;
use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

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
    pub snapshot: &'a Snapshot<'a>,
    /// Per source file, its resolved imports and declared names (language layer).
    pub modules: &'a BTreeMap<String, Module>,
}

/// A graph-producing analyzer. Adapters hold no per-tree state (they may remember what
/// they learn of a text by its blob id), so one set of adapters builds both the base and
/// the head graph.
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
    /// Sees each text once, as the trees are read (a blob both trees hold is read once):
    /// an adapter that remembers what it needs of a text by blob id ([`Memo`]) spares
    /// reading it again. Texts are not kept: [`Snapshot::text`] reads one again.
    fn look(&self, _path: &str, _blob: Oid, _text: &str) {}
}

/// Shows a text to an adapter; a panic there costs only what the adapter would have
/// remembered (its analysis reads the text again, and fails there if it must).
pub fn look(adapter: &dyn Adapter, path: &str, blob: Oid, text: &str) {
    let _ = catch_unwind(AssertUnwindSafe(|| adapter.look(path, blob, text)));
}

/// What an adapter learned from texts alone, by blob id: learned as the trees are read
/// ([`Adapter::look`]), else from the text when first asked for.
#[derive(Debug)]
pub struct Memo<T> {
    known: Mutex<HashMap<Oid, T>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            known: Mutex::new(HashMap::new()),
        }
    }
}

impl<T: Clone> Memo<T> {
    /// Remembers `learn` of a text being read.
    pub fn learn(&self, blob: Oid, text: &str, learn: impl FnOnce(&str) -> T) {
        let value = learn(text);
        self.lock().insert(blob, value);
    }

    /// What `learn` gives for the text of `path`; None when the tree has no such file.
    pub fn get(&self, snapshot: &Snapshot, path: &str, learn: impl FnOnce(&str) -> T) -> Option<T> {
        let blob = snapshot.blob(path)?.oid;
        if let Some(known) = self.lock().get(&blob) {
            return Some(known.clone());
        }
        let value = learn(&snapshot.text(path)?);
        self.lock().insert(blob, value.clone());
        Some(value)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Oid, T>> {
        // A poisoned memo only means an adapter panicked: its entries are whole.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// True when `text` holds `needle`: `memchr`'s vectorised search, several times faster
/// than `str::contains` on the texts of a tree, which most tests read to the end.
pub fn holds(text: &str, needle: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some()
}

/// A yes-or-no test of the texts of files with some extensions, remembered by blob id.
#[derive(Debug)]
pub struct TextTest {
    extensions: &'static [&'static str],
    test: fn(&str) -> bool,
    memo: Memo<bool>,
}

impl TextTest {
    pub fn new(extensions: &'static [&'static str], test: fn(&str) -> bool) -> TextTest {
        TextTest {
            extensions,
            test,
            memo: Memo::default(),
        }
    }

    /// For [`Adapter::look`].
    pub fn look(&self, path: &str, blob: Oid, text: &str) {
        if has_extension(path, self.extensions) {
            self.memo.learn(blob, text, self.test);
        }
    }

    /// True when the text of `path` passes.
    pub fn passes(&self, snapshot: &Snapshot, path: &str) -> bool {
        self.memo.get(snapshot, path, self.test).unwrap_or(false)
    }
}

/// Builds the graph of `snapshot` with `adapters`, layer by layer; its names are shared
/// through `names` (with the other graphs built with it).
pub fn build(snapshot: &Snapshot, adapters: &[Box<dyn Adapter>], names: &mut Names) -> Graph {
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
                merge(&mut graph, adapter, &mut modules, fragment, names);
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
    names: &mut Names,
) {
    for mut node in fragment.nodes {
        node.adapter = adapter.id();
        node.support = adapter.support();
        names.share(&mut node.key.name);
        for at in &mut node.evidence {
            names.share(&mut at.file);
        }
        if let Some(blob) = &mut node.blob {
            names.share(blob);
        }
        graph.add_node(node);
    }
    for mut edge in fragment.edges {
        edge.adapter = adapter.id();
        names.share(&mut edge.from.name);
        names.share(&mut edge.to.name);
        names.share(&mut edge.evidence.file);
        graph.edges.insert(edge);
    }
    modules.extend(fragment.modules);
}
