//! The graph of one tree: nodes keyed by kind and name, typed edges, and the
//! diagnostics of the adapters that built it.

use qa_records::change::Confidence;
use qa_records::graph::{EdgeKind, NodeKind, Support};
use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A name in the graph (a path, `/checkout`, a blob id), shared: the nodes and edges
/// naming one file, in the base and the head graph, hold one copy ([`Names`]). Compares,
/// orders, hashes and prints as the string it holds.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name(Arc::from(s.as_str()))
    }
}

/// The distinct names of the graphs being built, each held once.
#[derive(Debug, Default)]
pub struct Names {
    known: HashSet<Name>,
}

impl Names {
    /// Makes `name` the one copy of its string.
    pub fn share(&mut self, name: &mut Name) {
        match self.known.get(name.as_str()) {
            Some(known) => *name = known.clone(),
            None => {
                self.known.insert(name.clone());
            }
        }
    }
}

/// What identifies a node across the base and head trees: its kind and its name (a path,
/// `/checkout`, `GET /items`, a program name). Record ids add content on top of this.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeKey {
    pub kind: NodeKind,
    pub name: Name,
}

impl NodeKey {
    pub fn new(kind: NodeKind, name: impl Into<Name>) -> NodeKey {
        NodeKey {
            kind,
            name: name.into(),
        }
    }

    /// The node of a source file.
    pub fn file(path: impl Into<Name>) -> NodeKey {
        NodeKey::new(NodeKind::SourceFile, path)
    }
}

/// A line of a file in the tree the graph was read from (0: the whole file).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Located {
    pub file: Name,
    pub line: u32,
}

impl Located {
    pub fn new(file: impl Into<Name>, line: u32) -> Located {
        Located {
            file: file.into(),
            line,
        }
    }
}

/// A node and its provenance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub key: NodeKey,
    pub confidence: Confidence,
    pub evidence: Vec<Located>,
    /// The git blob a source-file node was read from: its content identity.
    pub blob: Option<Name>,
    /// Filled in by the adapter runner from the adapter that produced the node.
    pub adapter: &'static str,
    pub support: Support,
}

impl Node {
    pub fn new(key: NodeKey, confidence: Confidence, evidence: Located) -> Node {
        Node {
            key,
            confidence,
            evidence: vec![evidence],
            blob: None,
            adapter: "",
            support: Support::Generic,
        }
    }
}

/// A typed edge from the dependant (`from`) to what it depends on (`to`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub kind: EdgeKind,
    pub from: NodeKey,
    pub to: NodeKey,
    pub evidence: Located,
    pub confidence: Confidence,
    pub adapter: &'static str,
}

impl Edge {
    pub fn new(
        kind: EdgeKind,
        from: NodeKey,
        to: NodeKey,
        evidence: Located,
        confidence: Confidence,
    ) -> Edge {
        Edge {
            kind,
            from,
            to,
            evidence,
            confidence,
            adapter: "",
        }
    }
}

/// A diagnostic of graph building: an adapter that failed, edges that were dropped,
/// files that were skipped.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GraphDiag {
    pub severity: DiagLevel,
    /// The adapter it concerns, or `tree`.
    pub source: String,
    pub message: String,
}

/// How serious a graph diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DiagLevel {
    Warning,
    Info,
}

/// What one adapter made of one tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterRun {
    pub id: &'static str,
    pub support: Support,
    /// The evidence it accepted the tree on, or why it declined or failed.
    pub outcome: Outcome,
}

/// How an adapter's run on a tree ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Analyzed { evidence: String },
    Declined { reason: String },
    Failed { error: String },
}

/// The graph of one tree.
#[derive(Debug, Default)]
pub struct Graph {
    /// The commit whose tree this graph describes.
    pub commit: String,
    pub nodes: BTreeMap<NodeKey, Node>,
    /// Sorted and deduplicated: the same tree gives the same edge list.
    pub edges: BTreeSet<Edge>,
    pub adapters: Vec<AdapterRun>,
    pub diags: Vec<GraphDiag>,
}

impl Graph {
    /// Adds a node; a node already present keeps its adapter and gains the evidence.
    pub fn add_node(&mut self, node: Node) {
        match self.nodes.get_mut(&node.key) {
            Some(known) => {
                for e in node.evidence {
                    if !known.evidence.contains(&e) {
                        known.evidence.push(e);
                    }
                }
            }
            None => {
                self.nodes.insert(node.key.clone(), node);
            }
        }
    }

    /// Drops edges whose ends are not nodes (one diagnostic per adapter, with the
    /// first such edge), and nodes without provenance, which may not influence impact.
    pub fn settle(&mut self) {
        let before = self.nodes.len();
        self.nodes.retain(|_, n| !n.evidence.is_empty());
        if self.nodes.len() < before {
            self.diags.push(GraphDiag {
                severity: DiagLevel::Info,
                source: "graph".to_string(),
                message: format!(
                    "{} nodes without evidence were left out",
                    before - self.nodes.len()
                ),
            });
        }
        let mut dropped: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
        let nodes = &self.nodes;
        self.edges.retain(|e| {
            let missing = [&e.from, &e.to]
                .into_iter()
                .find(|end| !nodes.contains_key(*end));
            match missing {
                None => true,
                Some(end) => {
                    let entry = dropped.entry(e.adapter).or_insert_with(|| {
                        (
                            0,
                            format!(
                                "{} edge from {} {} to {} {} ({}:{}): no {} {}",
                                e.kind.as_str(),
                                e.from.kind.as_str(),
                                e.from.name,
                                e.to.kind.as_str(),
                                e.to.name,
                                e.evidence.file,
                                e.evidence.line,
                                end.kind.as_str(),
                                end.name
                            ),
                        )
                    });
                    entry.0 += 1;
                    false
                }
            }
        });
        for (adapter, (count, first)) in dropped {
            let message = match count {
                1 => format!("dropped an edge whose end is missing: {first}"),
                n => format!("dropped {n} edges whose end is missing, the first: {first}"),
            };
            self.diags.push(GraphDiag {
                severity: DiagLevel::Info,
                source: adapter.to_string(),
                message,
            });
        }
    }

    /// The edges pointing at `key` (its dependants, for impact).
    pub fn dependants(&self) -> BTreeMap<&NodeKey, Vec<&Edge>> {
        let mut by_target: BTreeMap<&NodeKey, Vec<&Edge>> = BTreeMap::new();
        for e in &self.edges {
            by_target.entry(&e.to).or_default().push(e);
        }
        by_target
    }
}

/// What one adapter adds: nodes, edges, and (language adapters) the modules it read.
#[derive(Debug, Default)]
pub struct Fragment {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub modules: BTreeMap<String, Module>,
}

/// What a language adapter read of one source file: later layers (routes rendering a
/// component) look up where a name was imported from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Module {
    /// Imports that resolved to a file of the tree.
    pub imports: Vec<Import>,
    /// Names the file declares (exported or top level), with their lines.
    pub symbols: Arc<Symbols>,
}

/// Names a file declares, each with its line, held in one string: a tree declares tens
/// of thousands, and the modules of both trees share them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Symbols {
    names: Box<str>,
    /// Per name, where it ends in `names`, and its line.
    ends: Box<[(u32, u32)]>,
}

impl Symbols {
    /// The names and their lines, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&(end, line)| {
            let name = &self.names[start..end as usize];
            start = end as usize;
            (name, line)
        })
    }
}

impl<S: AsRef<str>> FromIterator<(S, u32)> for Symbols {
    fn from_iter<I: IntoIterator<Item = (S, u32)>>(symbols: I) -> Symbols {
        let mut names = String::new();
        let mut ends = Vec::new();
        for (name, line) in symbols {
            names.push_str(name.as_ref());
            // Names past 4 GiB of one file's declarations are not kept.
            let Ok(end) = u32::try_from(names.len()) else {
                break;
            };
            ends.push((end, line));
        }
        Symbols {
            names: names.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        }
    }
}

impl fmt::Debug for Symbols {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Module {
    /// The file the local name `name` was imported from. One import may resolve to a
    /// package and its submodule (`from shop.cli import export`): the file named after
    /// the name is the one it binds.
    pub fn source_of(&self, name: &str) -> Option<&str> {
        let mut bound = self
            .imports
            .iter()
            .filter(|i| i.names.iter().any(|n| n == name))
            .map(|i| i.target.as_str());
        let first = bound.next()?;
        let named = |target: &str| module_name(target) == name;
        if named(first) {
            return Some(first);
        }
        Some(bound.find(|t| named(t)).unwrap_or(first))
    }

    /// True when the file declares `name` itself.
    pub fn declares(&self, name: &str) -> bool {
        self.symbols.iter().any(|(s, _)| s == name)
    }
}

/// The name a module file goes by: its stem, or its directory's name for a package's
/// index file (`__init__.py`, `index.ts`, `mod.rs`).
fn module_name(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    match stem {
        "__init__" | "index" | "mod" => parts.next().unwrap_or(stem),
        _ => stem,
    }
}

/// One resolved import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The imported file's path.
    pub target: String,
    pub line: u32,
    /// Local names it binds (`Checkout` for `import Checkout from "./Checkout"`).
    pub names: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_node(path: &str) -> Node {
        Node::new(NodeKey::file(path), Confidence::High, Located::new(path, 0))
    }

    fn imports(from: &str, to: &str) -> Edge {
        let mut edge = Edge::new(
            EdgeKind::Imports,
            NodeKey::file(from),
            NodeKey::file(to),
            Located::new(from, 1),
            Confidence::High,
        );
        edge.adapter = "typescript";
        edge
    }

    fn module_importing(targets: &[&str], name: &str) -> Module {
        Module {
            imports: targets
                .iter()
                .map(|t| Import {
                    target: t.to_string(),
                    line: 1,
                    names: vec![name.to_string()],
                })
                .collect(),
            symbols: Arc::default(),
        }
    }

    #[test]
    fn a_name_bound_by_a_package_and_its_submodule_is_the_submodule() {
        let module = module_importing(&["shop/cli/__init__.py", "shop/cli/export.py"], "export");
        assert_eq!(module.source_of("export"), Some("shop/cli/export.py"));
    }

    #[test]
    fn a_name_bound_by_one_unrelated_file_is_that_file() {
        let module = module_importing(&["src/handlers.ts"], "list");
        assert_eq!(module.source_of("list"), Some("src/handlers.ts"));
        assert_eq!(module.source_of("other"), None);
    }

    #[test]
    fn an_edge_whose_end_is_missing_is_dropped_with_a_diagnostic() {
        let mut graph = Graph::default();
        graph.add_node(file_node("a.ts"));
        graph.edges.insert(imports("a.ts", "gone.ts"));
        graph.settle();
        assert!(graph.edges.is_empty());
        assert_eq!(graph.diags.len(), 1);
        assert_eq!(graph.diags[0].source, "typescript");
        assert!(graph.diags[0].message.contains("no source-file gone.ts"));
    }

    #[test]
    fn an_edge_with_both_ends_stays_without_a_diagnostic() {
        let mut graph = Graph::default();
        graph.add_node(file_node("a.ts"));
        graph.add_node(file_node("b.ts"));
        graph.edges.insert(imports("a.ts", "b.ts"));
        graph.settle();
        assert_eq!(graph.edges.len(), 1);
        assert!(graph.diags.is_empty());
    }

    #[test]
    fn a_node_without_provenance_is_left_out_with_its_edges() {
        let mut graph = Graph::default();
        graph.add_node(file_node("a.ts"));
        let mut bare = file_node("b.ts");
        bare.evidence.clear();
        graph.add_node(bare);
        graph.edges.insert(imports("a.ts", "b.ts"));
        graph.settle();
        assert!(!graph.nodes.contains_key(&NodeKey::file("b.ts")));
        assert!(graph.edges.is_empty());
        assert!(graph.diags[0].message.contains("without evidence"));
    }

    #[test]
    fn the_same_node_from_two_adapters_keeps_one_node_with_both_evidence() {
        let mut graph = Graph::default();
        graph.add_node(file_node("a.ts"));
        let mut again = file_node("a.ts");
        again.evidence = vec![Located::new("package.json", 3)];
        graph.add_node(again);
        assert_eq!(graph.nodes.len(), 1);
        assert_eq!(graph.nodes[&NodeKey::file("a.ts")].evidence.len(), 2);
    }
}
