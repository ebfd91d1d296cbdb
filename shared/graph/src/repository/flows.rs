//! The flows of the reviewed `.qa/manifest.yaml`, read with the one manifest parser:
//! each a `flow` node containing the source files its path globs match, so a change to
//! one of them reaches the flow.

use crate::adapter::{Adapter, Context, Detection, Layer};
use crate::model::{Edge, Fragment, Located, Node, NodeKey};
use crate::tree::{Snapshot, QA_MANIFEST};
use qa_records::change::Confidence;
use qa_records::graph::{EdgeKind, NodeKind, Support};

/// The manifest-flows repository adapter.
#[derive(Debug, Default)]
pub struct Flows;

impl Adapter for Flows {
    fn id(&self) -> &'static str {
        "flows"
    }

    fn layer(&self) -> Layer {
        Layer::Repository
    }

    /// Structural: a flow is the files a team listed, not a traced journey.
    fn support(&self) -> Support {
        Support::Structural
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match snapshot.has(QA_MANIFEST) {
            true => Detection::Accept(format!("{QA_MANIFEST} may declare flows")),
            false => Detection::Decline(format!("no {QA_MANIFEST}")),
        }
    }

    /// A manifest that does not parse fails the adapter: the team's flows are unknown.
    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let text = cx.snapshot.text(QA_MANIFEST).unwrap_or_default();
        let manifest = qa_team_manifest::parse(text.as_bytes(), QA_MANIFEST)?;
        let mut fragment = Fragment::default();
        for flow in &manifest.flows {
            let key = NodeKey::new(NodeKind::Flow, &flow.name);
            let at = Located::new(QA_MANIFEST, line_of_flow(&text, &flow.name));
            fragment
                .nodes
                .push(Node::new(key.clone(), Confidence::High, at.clone()));
            // Source files only: the language layer's modules are the files with nodes.
            for file in cx
                .modules
                .keys()
                .filter(|f| flow.paths.iter().any(|g| g.matches(f)))
            {
                fragment.edges.push(Edge::new(
                    EdgeKind::Contains,
                    key.clone(),
                    NodeKey::file(file.clone()),
                    at.clone(),
                    Confidence::High,
                ));
            }
        }
        Ok(fragment)
    }
}

/// The line of `name: <flow>` in the manifest (1 when it is written another way).
fn line_of_flow(text: &str, flow: &str) -> u32 {
    text.lines()
        .position(|l| {
            let l = l.trim_start().trim_start_matches("- ").trim_start();
            l.strip_prefix("name:")
                .is_some_and(|v| v.trim().trim_matches(['"', '\'']) == flow)
        })
        .map_or(1, |i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_is_located_at_its_name() {
        let text = "version: 1\nflows:\n  - name: checkout\n    criticality: critical\n  - name: \"search\"\n";
        assert_eq!(line_of_flow(text, "checkout"), 3);
        assert_eq!(line_of_flow(text, "search"), 5);
        assert_eq!(line_of_flow(text, "absent"), 1);
    }
}
