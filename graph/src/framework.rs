//! Framework adapters: routes, screens, endpoints and their entrypoint edges, built on
//! the files and imports the language layer read.

pub mod nextjs;
pub mod python_web;
pub mod react_router;

use crate::model::{Edge, Fragment, Located, Node, NodeKey};
use qa_shared::change::Confidence;
use qa_shared::graph::{EdgeKind, NodeKind};

/// Adds a route rendering a screen implemented by `file`: route -entrypoint-> screen
/// -implemented-by-> source file, with `at` as the evidence of both.
pub fn add_route(
    fragment: &mut Fragment,
    route: &str,
    screen: &str,
    file: &str,
    at: Located,
    confidence: Confidence,
) {
    let screen = NodeKey::new(NodeKind::Screen, screen);
    let route = NodeKey::new(NodeKind::Route, route);
    let link = |edge| (edge, at.clone(), confidence);
    add_node(fragment, route, link(EdgeKind::Entrypoint), screen.clone());
    add_node(
        fragment,
        screen,
        link(EdgeKind::ImplementedBy),
        NodeKey::file(file),
    );
}

/// Adds an entrypoint (endpoint or command) implemented by `file`.
pub fn add_entrypoint(
    fragment: &mut Fragment,
    kind: NodeKind,
    name: &str,
    file: &str,
    at: Located,
    confidence: Confidence,
) {
    let link = (EdgeKind::ImplementedBy, at, confidence);
    add_node(
        fragment,
        NodeKey::new(kind, name),
        link,
        NodeKey::file(file),
    );
}

/// Adds `node`, and an edge of the link's kind from it to `to`; the link's evidence
/// and confidence serve both.
fn add_node(
    fragment: &mut Fragment,
    node: NodeKey,
    (kind, at, confidence): (EdgeKind, Located, Confidence),
    to: NodeKey,
) {
    fragment
        .nodes
        .push(Node::new(node.clone(), confidence, at.clone()));
    fragment
        .edges
        .push(Edge::new(kind, node, to, at, confidence));
}
