//! The behavior-graph record payloads (`node`, `edge`): what changed code reaches, as
//! qa-intent writes it and qa-route reads it.
//!
//! Enumerations serialize to the kebab-case names of schema/node.schema.json and
//! schema/edge.schema.json.

use crate::change::Confidence;
use serde::{Deserialize, Serialize};

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    Domain,
    Flow,
    /// A page a user navigates to (`/checkout`).
    Route,
    /// The component a route renders.
    Screen,
    /// An HTTP handler (`GET /items`).
    Endpoint,
    /// A command-line program or subcommand.
    Command,
    Artifact,
    Action,
    State,
    Effect,
    Contract,
    Assertion,
    Fixture,
    Locator,
    SourceFile,
}

impl NodeKind {
    /// The stable kebab-case name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Domain => "domain",
            NodeKind::Flow => "flow",
            NodeKind::Route => "route",
            NodeKind::Screen => "screen",
            NodeKind::Endpoint => "endpoint",
            NodeKind::Command => "command",
            NodeKind::Artifact => "artifact",
            NodeKind::Action => "action",
            NodeKind::State => "state",
            NodeKind::Effect => "effect",
            NodeKind::Contract => "contract",
            NodeKind::Assertion => "assertion",
            NodeKind::Fixture => "fixture",
            NodeKind::Locator => "locator",
            NodeKind::SourceFile => "source-file",
        }
    }

    /// True for the kinds a user or a caller starts from: what a scenario "reaches".
    pub fn is_entrypoint(self) -> bool {
        matches!(
            self,
            NodeKind::Route | NodeKind::Endpoint | NodeKind::Command
        )
    }
}

/// How two nodes relate. An edge points from the dependant to what it depends on, so
/// impact travels against the arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeKind {
    Contains,
    /// A route, endpoint or command starts at the screen or source file it names.
    Entrypoint,
    Precedes,
    Expects,
    UsesFixture,
    LocatedBy,
    /// A screen, endpoint or command is implemented by a source file.
    ImplementedBy,
    /// A source file imports another.
    Imports,
    /// A reached entrypoint, tied to the directly changed node it was reached from.
    ImpactedByDiff,
}

impl EdgeKind {
    /// The stable kebab-case name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Contains => "contains",
            EdgeKind::Entrypoint => "entrypoint",
            EdgeKind::Precedes => "precedes",
            EdgeKind::Expects => "expects",
            EdgeKind::UsesFixture => "uses-fixture",
            EdgeKind::LocatedBy => "located-by",
            EdgeKind::ImplementedBy => "implemented-by",
            EdgeKind::Imports => "imports",
            EdgeKind::ImpactedByDiff => "impacted-by-diff",
        }
    }
}

/// How the change bears on a node or an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Impact {
    /// Changed between base and head (added, removed or edited).
    Direct,
    /// Depends, through imports, renders or entrypoints, on a direct node.
    Propagated,
    None,
}

/// How much of the behavior-impact contract an adapter supports (weakest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Support {
    /// Diff and dependency evidence only: no product journey is claimed.
    Generic,
    /// Imports, routes, contracts and commands are understood.
    Structural,
    /// Imports resolved to files and entrypoints named: impact reaches user surfaces.
    Deep,
}

impl Support {
    /// The stable lowercase name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Support::Generic => "generic",
            Support::Structural => "structural",
            Support::Deep => "deep",
        }
    }
}

/// Where a node or an edge was read: a line of a file at a commit, or a manifest entry.
///
/// The payload types below declare their fields in code-point order of their names, so
/// they serialize canonically as they are (`Record::new_sorted`, checked in debug builds).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GraphEvidence {
    /// The commit whose tree holds that file (head, or base for what the change removed).
    pub commit: Option<String>,
    /// Repository-relative path.
    pub file: String,
    /// 1-based line; 0 when the evidence is the whole file.
    pub line: u32,
    /// The SHA-256 of the manifest the evidence comes from, when it does.
    pub manifest: Option<String>,
}

/// `node` data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeData {
    /// The adapter that produced the node (`typescript`, `nextjs`, ...).
    pub adapter: String,
    pub confidence: Confidence,
    /// Never empty: a node without provenance never influences a decision.
    pub evidence: Vec<GraphEvidence>,
    /// Dependency steps from the nearest directly changed node (0 when direct).
    pub hops: u32,
    pub impact: Impact,
    pub kind: NodeKind,
    /// Path for a source file, `/checkout` for a route, `GET /items` for an endpoint,
    /// the program name for a command.
    pub name: String,
    /// How much of the behavior-impact contract that adapter supports.
    pub support: Support,
}

impl NodeData {
    /// The name a scenario uses for a reached entrypoint: `route /checkout`.
    pub fn entrypoint_name(&self) -> String {
        format!("{} {}", self.kind.as_str(), self.name)
    }
}

/// `edge` data. `from` and `to` are ids of `node` records written earlier in the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeData {
    pub adapter: String,
    pub confidence: Confidence,
    pub evidence: Vec<GraphEvidence>,
    pub from: String,
    /// `propagated` when the change's impact travelled along this edge, else `none`.
    pub impact: Impact,
    pub kind: EdgeKind,
    pub to: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialize_to_their_documented_names() {
        assert_eq!(
            serde_json::to_value(NodeKind::SourceFile).unwrap(),
            NodeKind::SourceFile.as_str()
        );
        assert_eq!(
            serde_json::to_value(EdgeKind::UsesFixture).unwrap(),
            "uses-fixture"
        );
        assert_eq!(
            serde_json::to_value(EdgeKind::ImpactedByDiff).unwrap(),
            EdgeKind::ImpactedByDiff.as_str()
        );
        assert_eq!(serde_json::to_value(Support::Deep).unwrap(), "deep");
    }

    #[test]
    fn only_routes_endpoints_and_commands_are_entrypoints() {
        assert!(NodeKind::Route.is_entrypoint());
        assert!(NodeKind::Command.is_entrypoint());
        assert!(!NodeKind::Screen.is_entrypoint());
        assert!(!NodeKind::SourceFile.is_entrypoint());
    }

    #[test]
    fn support_orders_weakest_first() {
        assert!(Support::Generic < Support::Structural);
        assert!(Support::Structural < Support::Deep);
    }
}
