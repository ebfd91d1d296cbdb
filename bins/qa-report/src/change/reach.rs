//! The entrypoints a scenario reaches, as the text and markdown reports name them: the
//! scenario record's own `reaches`, and what the stream's behavior graph (`node` and
//! `edge` records) reaches from the scenario's located evidence files, or from its
//! intent's files when none of its evidence is located.
//!
//! Impact travels against an edge's arrow (an edge points from the dependant to what it
//! depends on), along the edges the change's impact travelled (`impact: propagated`).

use qa_records::graph::{EdgeData, Impact, NodeData, NodeKind};
use qa_records::untrusted::{neutralize, Boundary};
use std::collections::{BTreeSet, HashMap};

/// The behavior graph a stream carries.
#[derive(Debug, Default)]
pub struct Graph {
    nodes: HashMap<String, NodeData>,
    /// Source-file node ids by path.
    files: HashMap<String, String>,
    /// Node id -> the ids of the nodes the change's impact travels on to.
    dependants: HashMap<String, Vec<String>>,
    /// Entrypoint names reached per file, as found.
    memo: HashMap<String, BTreeSet<String>>,
}

/// What a report names as a scenario's reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Entrypoint names (`route /checkout`): the record's own first, in its order, then
    /// the graph's, sorted. Already cleaned.
    pub names: Vec<String>,
    /// True when the names come from the intent's files (the scenario has no located
    /// evidence).
    pub via_intent: bool,
}

/// Entrypoints a human report names per scenario; the rest are counted.
pub const MAX_NAMES: usize = 8;

impl Reach {
    /// The names a human report shows, and the words that follow them: how many were
    /// left out, and that they come from the intent's files.
    pub fn shown(&self) -> (&[String], String) {
        let (names, more) = crate::model::bounded(&self.names, MAX_NAMES);
        let mut tail = String::new();
        if more > 0 {
            tail.push_str(&format!(" (+{more} more)"));
        }
        if self.via_intent {
            tail.push_str(" (from the intent's files)");
        }
        (names, tail)
    }
}

impl Graph {
    /// Adds a `node` record.
    pub fn node(&mut self, id: String, data: NodeData) {
        if data.kind == NodeKind::SourceFile {
            self.files.insert(data.name.clone(), id.clone());
        }
        self.nodes.insert(id, data);
    }

    /// Adds an `edge` record; only edges the change's impact travelled along count.
    pub fn edge(&mut self, data: EdgeData) {
        if data.impact == Impact::Propagated {
            self.dependants.entry(data.to).or_default().push(data.from);
        }
    }

    /// A scenario's reach: `own` (the record's `reaches`, cleaned), then what the graph
    /// reaches from its `located` evidence files, or from `intent_files` when none is
    /// located; graph names are cleaned by `boundary`.
    pub fn reach(
        &mut self,
        own: &[String],
        located: &[&str],
        intent_files: &[String],
        boundary: &mut Boundary,
    ) -> Reach {
        let found = if located.is_empty() {
            self.reached_from(intent_files.iter().map(String::as_str))
        } else {
            self.reached_from(located.iter().copied())
        };
        let mut names = own.to_vec();
        for raw in found {
            if !names.iter().any(|n| *n == neutralize(&raw).0) {
                names.push(boundary.clean(&raw).into_owned());
            }
        }
        Reach {
            via_intent: located.is_empty() && own.is_empty() && !names.is_empty(),
            names,
        }
    }

    /// The entrypoint names (`route /checkout`) the graph reaches from `files`, sorted.
    pub fn reached_from<'a>(&mut self, files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut names = BTreeSet::new();
        for file in files {
            if !self.memo.contains_key(file) {
                let found = self.walk(file);
                self.memo.insert(file.to_string(), found);
            }
            names.extend(self.memo[file].iter().cloned());
        }
        names.into_iter().collect()
    }

    /// Every entrypoint that depends, through reached nodes, on the node of `file`.
    fn walk(&self, file: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let Some(start) = self.files.get(file) else {
            return found;
        };
        let mut seen: BTreeSet<&str> = BTreeSet::from([start.as_str()]);
        let mut queue = vec![start.as_str()];
        while let Some(id) = queue.pop() {
            if let Some(node) = self.nodes.get(id).filter(|n| n.kind.is_entrypoint()) {
                found.insert(node.entrypoint_name());
            }
            for next in self.dependants.get(id).into_iter().flatten() {
                if seen.insert(next) {
                    queue.push(next);
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::Confidence;
    use qa_records::graph::{EdgeKind, Support};

    fn node(kind: NodeKind, name: &str) -> NodeData {
        NodeData {
            kind,
            name: name.to_string(),
            impact: Impact::Propagated,
            hops: 1,
            confidence: Confidence::High,
            evidence: vec![],
            adapter: "test".to_string(),
            support: Support::Deep,
        }
    }

    fn edge(kind: EdgeKind, from: &str, to: &str, impact: Impact) -> EdgeData {
        EdgeData {
            kind,
            from: from.to_string(),
            to: to.to_string(),
            impact,
            confidence: Confidence::High,
            evidence: vec![],
            adapter: "test".to_string(),
        }
    }

    /// lib.ts <- page.tsx (imports) <- screen <- route /cart; a test expects lib.ts.
    fn graph() -> Graph {
        let mut g = Graph::default();
        g.node("lib".into(), node(NodeKind::SourceFile, "src/lib.ts"));
        g.node("page".into(), node(NodeKind::SourceFile, "pages/cart.tsx"));
        g.node("screen".into(), node(NodeKind::Screen, "pages/cart.tsx"));
        g.node("cart".into(), node(NodeKind::Route, "/cart"));
        g.node(
            "test".into(),
            node(NodeKind::Assertion, "tests/lib.test.ts"),
        );
        g.edge(edge(EdgeKind::Imports, "page", "lib", Impact::Propagated));
        g.edge(edge(
            EdgeKind::ImplementedBy,
            "screen",
            "page",
            Impact::Propagated,
        ));
        g.edge(edge(
            EdgeKind::Entrypoint,
            "cart",
            "screen",
            Impact::Propagated,
        ));
        g.edge(edge(EdgeKind::Expects, "test", "lib", Impact::None));
        g
    }

    #[test]
    fn impact_travels_against_the_arrows_to_the_entrypoint() {
        assert_eq!(graph().reached_from(["src/lib.ts"]), ["route /cart"]);
    }

    #[test]
    fn a_file_the_graph_does_not_hold_reaches_nothing() {
        assert!(graph().reached_from(["src/other.ts"]).is_empty());
    }

    #[test]
    fn the_record_names_come_first_and_the_graph_adds_only_new_ones() {
        let mut boundary = Boundary::new();
        let own = vec!["route /checkout".to_string(), "route /cart".to_string()];
        let reach = graph().reach(&own, &["src/lib.ts"], &[], &mut boundary);
        assert_eq!(reach.names, own);
        assert!(!reach.via_intent);
    }

    #[test]
    fn without_located_evidence_the_intent_files_are_followed_and_said_so() {
        let mut boundary = Boundary::new();
        let reach = graph().reach(&[], &[], &["src/lib.ts".to_string()], &mut boundary);
        assert_eq!(reach.names, ["route /cart"]);
        assert!(reach.via_intent);
        let none = graph().reach(&[], &[], &["README.md".to_string()], &mut boundary);
        assert_eq!(none, Reach::default());
    }

    #[test]
    fn an_edge_impact_did_not_travel_is_not_followed() {
        let mut g = graph();
        g.node("cli".into(), node(NodeKind::Command, "shop"));
        g.edge(edge(EdgeKind::Expects, "cli", "lib", Impact::None));
        assert_eq!(g.reached_from(["src/lib.ts"]), ["route /cart"]);
    }
}
