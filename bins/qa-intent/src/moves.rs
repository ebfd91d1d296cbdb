//! Which removed and added syntax subtrees of a change are the same code moved, in the
//! spirit of GumTree: normalised subtree hashes, matched top-down (the largest identical
//! subtrees first) then bottom-up (a parent whose descendants mostly matched), across
//! every changed file of the range.
//!
//! Only the changed nodes of each tree are matched (those overlapping removed base lines,
//! or added head lines, each hashed with its whole subtree): unchanged code is already
//! matched to itself by the diff. Matching is by hash lookup, never by comparing subtrees
//! pairwise.

use std::collections::{BTreeSet, HashSet};
use std::ops::Range;

use tree_sitter::{Node, Tree};

/// Fewest nodes a subtree needs to be matched with its identifiers abstracted: below
/// that, `let n = a.len();` (13 nodes) would be the same code as `let m = b.len();`.
pub const MIN_RENAMED: u32 = 24;

/// Fewest descendants a node needs to be matched bottom-up (by its matched descendants).
const MIN_CONTAINER: u32 = 4;

/// Most lines a changed node may span to be hashed and matched: a block or a short
/// function, not the long function, class or module around it. Hashing those would read
/// most of each changed file; what moved in them is matched statement by statement.
pub const MAX_SPAN: usize = 50;

/// How a changed node found its counterpart on the other side of the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matched {
    /// No counterpart: new or removed code.
    No,
    /// It, or a subtree around it, stands on the other side token for token (comments and
    /// layout aside), or with only its variables renamed.
    Whole,
    /// More than half of its descendants matched: a block moved with a few edits.
    Mostly,
}

/// One changed node: its place in the forest and its two hashes.
#[derive(Debug, Clone)]
struct Twig {
    /// Index of the parent in the forest (`u32::MAX` for a root: a maximal changed node).
    parent: u32,
    /// Node kinds and leaf text, comments and layout ignored.
    exact: u64,
    /// The same with variable names abstracted.
    renamed: u64,
    /// Nodes in the subtree, itself included (comments left out).
    size: u32,
    bytes: Range<usize>,
}

/// The changed subtrees of one side of one file, in preorder (a node's descendants right
/// after it), with what the matching made of each.
#[derive(Debug, Clone, Default)]
pub struct Forest {
    twigs: Vec<Twig>,
    matched: Vec<Matched>,
}

impl Forest {
    /// The changed nodes of `tree`: those overlapping the 1-based `lines` (a side's removed
    /// or added lines), each hashed whole. A node spanning more than [`MAX_SPAN`] lines (a
    /// module, a class) is not hashed: it is gone down through, never compared.
    pub fn of(tree: &Tree, text: &str, lines: &BTreeSet<u32>) -> Forest {
        // Each changed line as a run; runs that touch are merged.
        let runs = lines
            .iter()
            .filter(|&&l| l >= 1)
            .map(|&l| (l as usize - 1, l as usize));
        let ranges = crate::trees::byte_ranges(text, runs);
        let mut forest = Forest::default();
        if ranges.is_empty() {
            return forest;
        }
        let overlaps = |n: Node| overlapping(&ranges, n);
        crate::trees::descend(tree.root_node(), |node| {
            let span = node.end_position().row - node.start_position().row;
            if !overlaps(node) {
                false
            } else if span <= MAX_SPAN {
                forest.grow(node, text, &ranges);
                false
            } else {
                true
            }
        });
        forest.matched = vec![Matched::No; forest.twigs.len()];
        forest
    }

    /// Hashes the whole subtree of `root` and keeps the nodes of it that overlap `ranges`
    /// (the unchanged ones count in their parents' hashes only). One walk: a node's hash
    /// is folded into its parent's as the walk leaves it.
    fn grow(&mut self, root: Node, text: &str, ranges: &[Range<usize>]) {
        /// A node being walked: its kept twig (if it overlaps the ranges) and its hashes
        /// so far.
        struct Open {
            twig: u32,
            exact: u64,
            renamed: u64,
            size: u32,
        }
        const NONE: u32 = u32::MAX;
        let mut open: Vec<Open> = Vec::new();
        // Closes the innermost open node: its hashes are final, and go into its parent's.
        let close = |open: &mut Vec<Open>, twigs: &mut Vec<Twig>| {
            let Some(done) = open.pop() else { return };
            if done.twig != NONE {
                let t = &mut twigs[done.twig as usize];
                (t.exact, t.renamed, t.size) = (done.exact, done.renamed, done.size);
            }
            if let Some(up) = open.last_mut() {
                up.exact = mix(up.exact, done.exact);
                up.renamed = mix(up.renamed, done.renamed);
                up.size += done.size;
            }
        };
        let mut cursor = root.walk();
        'walk: loop {
            let node = cursor.node();
            // Comments are the grammars' extras (so is nothing else they hash).
            if !node.is_extra() {
                let parent = open.last().map_or(NONE, |o| o.twig);
                // A node outside the ranges holds none of them either.
                let keep = (open.is_empty() || parent != NONE) && overlapping(ranges, node);
                let leaf = node.child_count() == 0;
                let kind = mix(SEED, node.kind_id().into());
                let (exact, renamed) = if leaf {
                    let word = text.get(node.byte_range()).unwrap_or("");
                    let exact = mix(kind, bytes_hash(word));
                    let variable = is_variable(node, || cursor.field_name());
                    (exact, if variable { kind } else { exact })
                } else {
                    (kind, kind)
                };
                let twig = if keep {
                    self.twigs.push(Twig {
                        parent,
                        exact,
                        renamed,
                        size: 1,
                        bytes: node.byte_range(),
                    });
                    (self.twigs.len() - 1) as u32
                } else {
                    NONE
                };
                open.push(Open {
                    twig,
                    exact,
                    renamed,
                    size: 1,
                });
                if !leaf && cursor.goto_first_child() {
                    continue;
                }
                close(&mut open, &mut self.twigs);
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
                close(&mut open, &mut self.twigs);
            }
        }
    }

    /// What the matching made of the changed node spanning exactly `bytes`; `No` when no
    /// changed node spans them (a node partly on unchanged lines).
    pub fn matched(&self, bytes: &Range<usize>) -> Matched {
        let from = self.twigs.partition_point(|t| t.bytes.start < bytes.start);
        self.twigs[from..]
            .iter()
            .take_while(|t| t.bytes.start == bytes.start)
            .position(|t| t.bytes.end == bytes.end)
            .map_or(Matched::No, |k| self.matched[from + k])
    }

    /// True when the changed node spanning `bytes`, or one around it, matched whole.
    pub fn moved(&self, bytes: &Range<usize>) -> bool {
        self.matched(bytes) == Matched::Whole
    }

    /// How many nodes the forest holds.
    pub fn len(&self) -> usize {
        self.twigs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.twigs.is_empty()
    }
}

/// The hashes of one side's forests, for lookup from the other side.
#[derive(Default)]
struct Index {
    exact: HashSet<u64>,
    renamed: HashSet<u64>,
}

impl Index {
    fn of<'a>(forests: impl Iterator<Item = &'a Forest>) -> Index {
        let mut index = Index::default();
        for t in forests.flat_map(|f| &f.twigs) {
            // A lone token is no code that moved.
            if t.size >= 2 {
                index.exact.insert(t.exact);
            }
            if t.size >= MIN_RENAMED {
                index.renamed.insert(t.renamed);
            }
        }
        index
    }

    fn holds(&self, t: &Twig) -> bool {
        t.size >= 2 && self.exact.contains(&t.exact)
            || t.size >= MIN_RENAMED && self.renamed.contains(&t.renamed)
    }
}

/// Matches the removed forests (every changed file's base) with the added ones (every
/// changed file's head), marking each node of both sides.
pub fn match_all(removed: &mut [&mut Forest], added: &mut [&mut Forest]) {
    let (was, now) = (
        Index::of(removed.iter().map(|f| &**f)),
        Index::of(added.iter().map(|f| &**f)),
    );
    for f in removed.iter_mut() {
        f.mark(&now);
    }
    for f in added.iter_mut() {
        f.mark(&was);
    }
}

impl Forest {
    /// Top-down: a node whose subtree the other side holds is matched with all of its
    /// descendants. Bottom-up: an unmatched node most of whose descendants matched is
    /// matched too, as a container.
    fn mark(&mut self, other: &Index) {
        let n = self.twigs.len();
        let mut matched = vec![Matched::No; n];
        for i in 0..n {
            let t = &self.twigs[i];
            let inherited = t.parent != u32::MAX && matched[t.parent as usize] == Matched::Whole;
            if inherited || other.holds(t) {
                matched[i] = Matched::Whole;
            }
        }
        // Descendants matched whole, summed up the tree (children come after parents).
        let mut covered = vec![0u32; n];
        for i in (0..n).rev() {
            let own = u32::from(matched[i] == Matched::Whole);
            let below = covered[i];
            let t = &self.twigs[i];
            if matched[i] == Matched::No && t.size > MIN_CONTAINER && below * 2 > t.size - 1 {
                matched[i] = Matched::Mostly;
            }
            if t.parent != u32::MAX {
                covered[t.parent as usize] += below + own;
            }
        }
        self.matched = matched;
    }
}

/// Whether a leaf is a variable's name, abstracted in the renamed hash: an identifier
/// that names no called function, macro, constructor, field, attribute, type or item.
fn is_variable<'a>(node: Node, field: impl FnOnce() -> Option<&'a str>) -> bool {
    matches!(node.kind(), "identifier" | "shorthand_property_identifier")
        && !matches!(
            field(),
            Some(
                "function"
                    | "macro"
                    | "constructor"
                    | "attribute"
                    | "field"
                    | "property"
                    | "method"
                    | "name"
                    | "type"
                    | "path"
                    | "module_name"
            )
        )
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds `value` into `hash` (FNV-style multiply, with a rotation so the order counts).
fn mix(hash: u64, value: u64) -> u64 {
    (hash.rotate_left(5) ^ value).wrapping_mul(0x0100_0000_01b3)
}

fn bytes_hash(s: &str) -> u64 {
    s.bytes().fold(SEED, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// True when `n` overlaps one of the sorted, disjoint `ranges`.
fn overlapping(ranges: &[Range<usize>], n: Node) -> bool {
    let k = ranges.partition_point(|r| r.end <= n.start_byte());
    ranges.get(k).is_some_and(|r| r.start < n.end_byte())
}

#[cfg(test)]
mod tests;
