//! Walks over a tree with one cursor: asking tree-sitter for a node's parent searches from
//! the root each time, so the walk keeps the nodes above the one it visits ([`Walk`] keeps
//! them all, in document order), and facts of node kinds found once per kind ([`ByKind`]).

use std::borrow::Cow;
use std::ops::Range;

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

/// The nodes of a tree in document order, walked once with one cursor; a subtree is a
/// slice of it (preorder keeps a node's descendants right after it). A walk limited to
/// byte ranges skips every subtree outside them; a test's body is then walked whole.
pub struct Walk<'t> {
    /// The nodes walked, in document order: the root first.
    pub all: Vec<Node<'t>>,
    /// The index in `all` of each node's parent (`u32::MAX` for the walk's root).
    up: Vec<u32>,
    ranges: Option<Vec<Range<usize>>>,
}

impl<'t> Walk<'t> {
    /// Walks `root`'s subtree, only the nodes overlapping `ranges` (bytes) when given.
    pub fn new(root: Node<'t>, ranges: Option<&[Range<usize>]>) -> Walk<'t> {
        // A changed decorator or attribute changes the test it marks: the definition
        // under a touched `decorated_definition`, and the item right after a touched
        // attribute, are walked too.
        let mut all: Vec<Node> = Vec::new();
        let mut up = Vec::new();
        if ranges.is_none() {
            // A whole walk keeps every node: their count is known (the tree keeps it), so
            // the lists are made once at their size rather than grown by doubling.
            all.reserve_exact(root.descendant_count());
            up.reserve_exact(root.descendant_count());
        }
        let mut cursor = root.walk();
        // The walk keeps each open node (its index in `all`) with the last named child seen
        // under it: asking tree-sitter for a parent or a previous sibling scans from the
        // root each time.
        let mut open: Vec<(u32, Option<Node>)> = Vec::new();
        let (mut decorated, mut attribute) = (ByKind::default(), ByKind::default());
        'walk: loop {
            let node = cursor.node();
            let (parent, previous) = open
                .last()
                .map_or((None, None), |&(p, s)| (Some(all[p as usize]), s));
            let inside = node == root
                || touches(ranges, node)
                || ranges.is_some()
                    && (parent.is_some_and(|p| {
                        decorated.of(p, |k| k == "decorated_definition") && touches(ranges, p)
                    }) || previous.is_some_and(|p| {
                        attribute.of(p, |k| k == "attribute_item") && touches(ranges, p)
                    }));
            if node.is_named() {
                if let Some(top) = open.last_mut() {
                    top.1 = Some(node);
                }
            }
            if inside {
                up.push(open.last().map_or(u32::MAX, |&(p, _)| p));
                all.push(node);
                if cursor.goto_first_child() {
                    open.push(((all.len() - 1) as u32, None));
                    continue;
                }
            }
            loop {
                if cursor.node() == root {
                    break 'walk;
                }
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
                open.pop();
            }
        }
        Walk {
            all,
            up,
            ranges: ranges.map(<[Range<usize>]>::to_vec),
        }
    }

    /// The byte ranges the walk keeps (none: the whole tree).
    pub fn ranges(&self) -> Option<&[Range<usize>]> {
        self.ranges.as_deref()
    }

    /// The parent of the walk's `i`th node (none for its root), without asking tree-sitter.
    pub fn parent(&self, i: usize) -> Option<Node<'t>> {
        self.parent_index(i).map(|p| self.all[p])
    }

    /// The index in the walk of the `i`th node's parent (none for its root).
    pub fn parent_index(&self, i: usize) -> Option<usize> {
        self.up
            .get(i)
            .map(|&p| p as usize)
            .filter(|&p| p < self.all.len())
    }

    /// The parent of `n`, the walk's `i`th node or one of its ancestors: found by going
    /// up the walk from `i`, else asked of tree-sitter (which searches from the root).
    pub fn parent_of(&self, i: usize, n: Node<'t>) -> Option<Node<'t>> {
        let mut k = i;
        while let Some(&node) = self.all.get(k) {
            if node == n {
                return self.parent(k);
            }
            k = self.up[k] as usize;
        }
        n.parent()
    }

    /// True when `node` overlaps the walk's ranges (always, for a whole walk).
    pub fn touches(&self, node: Node) -> bool {
        touches(self.ranges.as_deref(), node)
    }

    /// `node` and all of its descendants.
    pub fn subtree(&self, node: Node<'t>) -> Cow<'_, [Node<'t>]> {
        if self.ranges.is_some() {
            return Cow::Owned(Walk::new(node, None).all);
        }
        let from = self
            .all
            .partition_point(|n| n.start_byte() < node.start_byte());
        let Some(first) = self.all[from..]
            .iter()
            .position(|n| *n == node)
            .map(|k| from + k)
        else {
            return Cow::Borrowed(&[]);
        };
        let end = node.end_byte();
        let len = self.all[first + 1..].partition_point(|n| n.start_byte() < end);
        Cow::Borrowed(&self.all[first..first + 1 + len])
    }
}

fn touches(ranges: Option<&[Range<usize>]>, n: Node) -> bool {
    ranges.is_none_or(|rs| {
        rs.iter()
            .any(|r| n.start_byte() < r.end && n.end_byte() > r.start)
    })
}

/// A fact of a node's kind, found once per kind id of one tree: `Node::kind` checks the
/// name's UTF-8 on every call, and a walk asks it of every node. An id stands for one
/// kind (a keyword token and a named node of the same name have two ids), so the fact is
/// the one its name gives; use one per tree (ids are a grammar's own).
pub struct ByKind<T> {
    facts: Vec<Option<T>>,
}

/// The kind ids a [`ByKind`] keeps facts of (a grammar has a few hundred kinds; the error
/// kinds' ids are near 65535 and are looked up each time).
const KIND_IDS: usize = 4096;

impl<T> Default for ByKind<T> {
    fn default() -> ByKind<T> {
        ByKind { facts: Vec::new() }
    }
}

impl<T: Copy> ByKind<T> {
    /// `fact` of `node`'s kind name, from the first node of that kind id when it is kept.
    pub fn of<'t>(&mut self, node: Node<'t>, fact: impl FnOnce(&'t str) -> T) -> T {
        let id = usize::from(node.kind_id());
        if id >= KIND_IDS {
            return fact(node.kind());
        }
        if id >= self.facts.len() {
            self.facts.resize(id + 1, None);
        }
        *self.facts[id].get_or_insert_with(|| fact(node.kind()))
    }
}

#[cfg(test)]
mod tests;
