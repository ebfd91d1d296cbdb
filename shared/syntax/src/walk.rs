//! Walks over a tree with one cursor: asking tree-sitter for a node's parent searches from
//! the root each time, so the walk keeps the nodes above the one it visits.

use tree_sitter::Node;

/// Calls `visit` on `root` and its descendants in document order, with the nodes above
/// each one (root first, its parent last; empty for `root`); a node's children are
/// visited only when `visit` returns true for it.
pub fn descend_with<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>, &[Node<'t>]) -> bool) {
    let mut open: Vec<Node<'t>> = Vec::new();
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if visit(node, &open) && cursor.goto_first_child() {
            open.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            open.pop();
        }
    }
}

/// [`descend_with`] for a visit that needs no parents.
pub fn descend<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    descend_with(root, |node, _| visit(node));
}

/// The parent of `n`: `node`'s when `n` is `node`, else found among `open` (the nodes
/// above `node`), else asked of tree-sitter.
pub fn parent_in<'t>(open: &[Node<'t>], node: Node<'t>, n: Node<'t>) -> Option<Node<'t>> {
    if n == node {
        return open.last().copied();
    }
    match open.iter().rposition(|o| *o == n) {
        Some(k) => k.checked_sub(1).map(|k| open[k]),
        None => n.parent(),
    }
}
