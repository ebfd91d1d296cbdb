//! Base-versus-head impact: nodes that differ between the two graphs are direct, their
//! dependants (reverse imports, screens of a changed file, routes rendering a changed
//! screen, commands starting in a changed file) are propagated, breadth first and
//! bounded in depth and fan-out; the bounds and what they cut are recorded.

use crate::model::{Edge, Graph, NodeKey};
use qa_records::graph::{EdgeKind, Impact};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How far impact travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Import steps from a direct node. Screen, route and command links do not count:
    /// they name the entrypoint of a file already reached, not another layer of code.
    pub depth: u32,
    /// Dependants followed from one node; the rest are cut.
    pub fan_out: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            depth: 6,
            fan_out: 200,
        }
    }
}

/// Which graph a reached node lives in: removed nodes are only in the base graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Head,
    Base,
}

/// How the change reaches one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached {
    pub impact: Impact,
    /// Edges from the nearest direct node (0 when direct).
    pub hops: u32,
    pub side: Side,
}

/// What the change reaches.
#[derive(Debug, Default)]
pub struct Impacts {
    pub nodes: BTreeMap<NodeKey, Reached>,
    /// For each direct node, the entrypoints (routes, endpoints, commands) it reaches.
    pub entrypoints: BTreeMap<NodeKey, BTreeSet<NodeKey>>,
    pub bounds: Bounds,
    /// Dependants not followed because of the depth bound.
    pub cut_by_depth: usize,
    /// Dependants not followed because of the fan-out bound.
    pub cut_by_fan_out: usize,
}

impl Impacts {
    /// True when `key` is changed or reached.
    pub fn reaches(&self, key: &NodeKey) -> bool {
        self.nodes.contains_key(key)
    }
}

/// What a node is made of, for telling a changed node from an unchanged one: its blob
/// and the edges it starts.
type Fingerprint<'g> = (Option<&'g str>, Vec<(EdgeKind, &'g NodeKey)>);

fn fingerprints(graph: &Graph) -> BTreeMap<&NodeKey, Fingerprint<'_>> {
    let mut prints: BTreeMap<&NodeKey, Fingerprint<'_>> = graph
        .nodes
        .iter()
        .map(|(k, n)| (k, (n.blob.as_deref(), Vec::new())))
        .collect();
    for e in &graph.edges {
        if let Some(p) = prints.get_mut(&e.from) {
            p.1.push((e.kind, &e.to));
        }
    }
    prints
}

/// Compares the graphs: nodes added, removed or changed (and the head nodes of
/// `also_changed` paths, e.g. edits in the working tree) are direct; their dependants
/// are propagated.
pub fn compare(
    base: &Graph,
    head: &Graph,
    also_changed: &BTreeSet<String>,
    bounds: Bounds,
) -> Impacts {
    let base_prints = fingerprints(base);
    let head_prints = fingerprints(head);
    let mut direct: BTreeMap<NodeKey, Side> = BTreeMap::new();
    for (key, print) in &head_prints {
        if base_prints.get(key) != Some(print) {
            direct.insert((*key).clone(), Side::Head);
        }
    }
    for key in base_prints.keys() {
        if !head_prints.contains_key(key) {
            direct.insert((*key).clone(), Side::Base);
        }
    }
    for path in also_changed {
        let key = NodeKey::file(path.clone());
        if head.nodes.contains_key(&key) {
            direct.insert(key, Side::Head);
        }
    }

    let head_dependants = head.dependants();
    let base_dependants = base.dependants();
    let mut impacts = Impacts {
        bounds,
        ..Impacts::default()
    };
    for (key, side) in &direct {
        impacts.nodes.insert(
            key.clone(),
            Reached {
                impact: Impact::Direct,
                hops: 0,
                side: *side,
            },
        );
    }
    for (seed, side) in &direct {
        let mut reached_entrypoints = BTreeSet::new();
        let mut seen: BTreeSet<&NodeKey> = BTreeSet::from([seed]);
        let mut queue: VecDeque<(&NodeKey, Side, u32, u32)> = VecDeque::from([(seed, *side, 0, 0)]);
        while let Some((node, side, depth, hops)) = queue.pop_front() {
            if node.kind.is_entrypoint() {
                reached_entrypoints.insert(node.clone());
            }
            // A node that is still in head is followed through head's edges; a removed
            // one through the base graph's, where its dependants last depended on it.
            let (dependants, side) = if side == Side::Head || head.nodes.contains_key(node) {
                (head_dependants.get(node), Side::Head)
            } else {
                (base_dependants.get(node), Side::Base)
            };
            let Some(dependants) = dependants else {
                continue;
            };
            let followed: &[&Edge] = if dependants.len() > bounds.fan_out {
                impacts.cut_by_fan_out += dependants.len() - bounds.fan_out;
                &dependants[..bounds.fan_out]
            } else {
                dependants
            };
            for edge in followed {
                let next_depth = depth + u32::from(edge.kind == EdgeKind::Imports);
                if next_depth > bounds.depth {
                    impacts.cut_by_depth += 1;
                    continue;
                }
                // The visited set is what keeps an import cycle from looping.
                if !seen.insert(&edge.from) {
                    continue;
                }
                match impacts.nodes.get_mut(&edge.from) {
                    Some(known) if known.impact == Impact::Propagated => {
                        known.hops = known.hops.min(hops + 1)
                    }
                    Some(_) => {}
                    None => {
                        let reached = Reached {
                            impact: Impact::Propagated,
                            hops: hops + 1,
                            side,
                        };
                        impacts.nodes.insert(edge.from.clone(), reached);
                    }
                }
                queue.push_back((&edge.from, side, next_depth, hops + 1));
            }
        }
        impacts
            .entrypoints
            .insert(seed.clone(), reached_entrypoints);
    }
    impacts
}
