//! Base-versus-head impact: nodes that differ between the two graphs are direct, their
//! dependants (reverse imports, screens of a changed file, routes rendering a changed
//! screen, commands starting in a changed file) are propagated, breadth first and
//! bounded in depth and fan-out; the bounds and what they cut are recorded.

use crate::model::{Graph, NodeKey};
use qa_records::graph::{EdgeKind, Impact};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

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

/// The nodes of both graphs and the ends of their edges, numbered, with each one's
/// dependants in either graph in the order [`Graph::dependants`] gives them.
struct Index<'g> {
    keys: Vec<&'g NodeKey>,
    ids: HashMap<&'g NodeKey, usize>,
    in_head: Vec<bool>,
    head_dependants: Vec<Vec<(EdgeKind, usize)>>,
    base_dependants: Vec<Vec<(EdgeKind, usize)>>,
}

impl<'g> Index<'g> {
    fn new(base: &'g Graph, head: &'g Graph) -> Index<'g> {
        let mut index = Index {
            keys: Vec::new(),
            ids: HashMap::new(),
            in_head: Vec::new(),
            head_dependants: Vec::new(),
            base_dependants: Vec::new(),
        };
        for key in head.nodes.keys() {
            let id = index.id(key);
            index.in_head[id] = true;
        }
        for key in base.nodes.keys() {
            index.id(key);
        }
        for e in &head.edges {
            let (to, from) = (index.id(&e.to), index.id(&e.from));
            index.head_dependants[to].push((e.kind, from));
        }
        for e in &base.edges {
            let (to, from) = (index.id(&e.to), index.id(&e.from));
            index.base_dependants[to].push((e.kind, from));
        }
        index
    }

    fn id(&mut self, key: &'g NodeKey) -> usize {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = self.keys.len();
        self.keys.push(key);
        self.ids.insert(key, id);
        self.in_head.push(false);
        self.head_dependants.push(Vec::new());
        self.base_dependants.push(Vec::new());
        id
    }
}

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
    // Let go before the walks' index is built: the stage's peak memory is here.
    drop((base_prints, head_prints));

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
    // The walks run over numbered nodes: one walk per direct node, each visiting most of
    // what it reaches, made the ordered maps' lookups most of the comparison's cost.
    let index = Index::new(base, head);
    let mut reached: Vec<Option<Reached>> = vec![None; index.keys.len()];
    let mut seen_by = vec![usize::MAX; index.keys.len()];
    let mut queue: VecDeque<(usize, Side, u32, u32)> = VecDeque::new();
    let mut is_direct = vec![false; index.keys.len()];
    for seed in direct.keys() {
        is_direct[index.ids[seed]] = true;
    }
    for (walk, (seed, side)) in direct.iter().enumerate() {
        let seed_id = index.ids[seed];
        let mut reached_entrypoints = BTreeSet::new();
        seen_by[seed_id] = walk;
        queue.clear();
        queue.push_back((seed_id, *side, 0, 0));
        while let Some((node, side, depth, hops)) = queue.pop_front() {
            let key = index.keys[node];
            if key.kind.is_entrypoint() {
                reached_entrypoints.insert(key.clone());
            }
            // A node that is still in head is followed through head's edges; a removed
            // one through the base graph's, where its dependants last depended on it.
            let (dependants, side) = if side == Side::Head || index.in_head[node] {
                (&index.head_dependants[node], Side::Head)
            } else {
                (&index.base_dependants[node], Side::Base)
            };
            let followed = if dependants.len() > bounds.fan_out {
                impacts.cut_by_fan_out += dependants.len() - bounds.fan_out;
                &dependants[..bounds.fan_out]
            } else {
                &dependants[..]
            };
            for &(kind, from) in followed {
                let next_depth = depth + u32::from(kind == EdgeKind::Imports);
                if next_depth > bounds.depth {
                    impacts.cut_by_depth += 1;
                    continue;
                }
                // The visited set is what keeps an import cycle from looping.
                if seen_by[from] == walk {
                    continue;
                }
                seen_by[from] = walk;
                if !is_direct[from] {
                    match &mut reached[from] {
                        Some(known) => known.hops = known.hops.min(hops + 1),
                        slot @ None => {
                            *slot = Some(Reached {
                                impact: Impact::Propagated,
                                hops: hops + 1,
                                side,
                            })
                        }
                    }
                }
                queue.push_back((from, side, next_depth, hops + 1));
            }
        }
        impacts
            .entrypoints
            .insert(seed.clone(), reached_entrypoints);
    }
    for (id, reached) in reached.into_iter().enumerate() {
        if let Some(reached) = reached {
            impacts.nodes.insert(index.keys[id].clone(), reached);
        }
    }
    impacts
}
