//! The reached subgraph as `node` and `edge` records (nodes first, so every edge names
//! nodes written before it), the diagnostics of building it, and the entrypoint names a
//! scenario reaches.

use crate::impact::Side;
use crate::model::{DiagLevel, Graph, Located, Node, NodeKey};
use crate::ChangeGraph;
use qa_records::change::Confidence;
use qa_records::diag::{Diag, Severity};
use qa_records::envelope::Src;
use qa_records::graph::{EdgeData, EdgeKind, GraphEvidence, Impact, NodeData, NodeKind, Support};
use qa_records::{Kind, Record};
use std::collections::{BTreeMap, BTreeSet};

/// The adapter named on nodes for changed files no language adapter reads: the diff
/// shows they changed, nothing says what depends on them.
pub const DIFF_ADAPTER: &str = "diff";

/// The adapter named on `impacted-by-diff` edges.
pub const IMPACT_ADAPTER: &str = "impact";

/// Writes the records of the reached subgraph to `write` as they are made (a large
/// graph's records are never all held at once), and returns the diagnostics of building
/// it. `from` is what every node derives from (the `range` record); `unanalyzed` are
/// changed paths no adapter read, written as generic direct nodes so the support they
/// lack is visible.
pub fn emit(
    cg: &ChangeGraph,
    by: &str,
    stage: &str,
    from: &[String],
    unanalyzed: &[String],
    write: &mut dyn FnMut(&Record) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Diag>> {
    let mut ids: BTreeMap<NodeKey, String> = BTreeMap::new();
    let mut datas: BTreeMap<NodeKey, NodeData> = BTreeMap::new();
    for (key, reached) in &cg.impacts.nodes {
        let graph = side_graph(cg, reached.side);
        let Some(node) = graph.nodes.get(key) else {
            continue;
        };
        let data = node_data(node, &graph.commit, reached.impact, reached.hops);
        let record = Record::new_sorted(Kind::Node, by, from.to_vec(), node_src(node), &data)?;
        ids.insert(key.clone(), record.id.clone());
        datas.insert(key.clone(), data);
        write(&record)?;
    }
    for path in unanalyzed {
        let key = NodeKey::file(path.clone());
        if ids.contains_key(&key) {
            continue;
        }
        let data = NodeData {
            kind: NodeKind::SourceFile,
            name: path.clone(),
            impact: Impact::Direct,
            hops: 0,
            confidence: Confidence::High,
            evidence: vec![evidence(&Located::new(path.clone(), 0), &cg.head.commit)],
            adapter: DIFF_ADAPTER.to_string(),
            support: Support::Generic,
        };
        let record = Record::new_sorted(Kind::Node, by, from.to_vec(), Src::new(), &data)?;
        ids.insert(key, record.id.clone());
        write(&record)?;
    }

    let mut written = BTreeSet::new();
    for (graph, side) in [(&cg.head, Side::Head), (&cg.base, Side::Base)] {
        for e in &graph.edges {
            let ends = [&e.from, &e.to].map(|k| cg.impacts.nodes.get(k));
            let [Some(a), Some(b)] = ends else { continue };
            // Head edges join head nodes; base edges are only needed where a removed node
            // takes part.
            let wanted = match side {
                Side::Head => a.side == Side::Head && b.side == Side::Head,
                Side::Base => a.side == Side::Base || b.side == Side::Base,
            };
            // Only edges that carry impact one step further are written (an import between
            // two changed files, or between two dependants at the same distance, explains
            // nothing the reached nodes do not already say, and every record costs every
            // later stage a parse).
            let wanted = wanted && a.hops.abs_diff(b.hops) == 1;
            let (Some(from_id), Some(to_id)) = (ids.get(&e.from), ids.get(&e.to)) else {
                continue;
            };
            if !wanted || !written.insert((e.kind, from_id.clone(), to_id.clone())) {
                continue;
            }
            let impact = match e.kind {
                EdgeKind::Imports | EdgeKind::ImplementedBy | EdgeKind::Entrypoint => {
                    Impact::Propagated
                }
                _ => Impact::None,
            };
            let data = EdgeData {
                kind: e.kind,
                from: from_id.clone(),
                to: to_id.clone(),
                impact,
                confidence: e.confidence,
                evidence: vec![evidence(&e.evidence, &graph.commit)],
                adapter: e.adapter.to_string(),
            };
            let record = Record::new_sorted(
                Kind::Edge,
                by,
                vec![from_id.clone(), to_id.clone()],
                Src::new(),
                &data,
            )?;
            write(&record)?;
        }
    }
    for (seed, entrypoints) in &cg.impacts.entrypoints {
        let (Some(seed_id), Some(seed_data)) = (ids.get(seed), datas.get(seed)) else {
            continue;
        };
        for entry in entrypoints.iter().filter(|e| *e != seed) {
            let (Some(entry_id), Some(entry_data)) = (ids.get(entry), datas.get(entry)) else {
                continue;
            };
            let data = EdgeData {
                kind: EdgeKind::ImpactedByDiff,
                from: entry_id.clone(),
                to: seed_id.clone(),
                impact: Impact::Propagated,
                confidence: entry_data.confidence.min(seed_data.confidence),
                evidence: seed_data.evidence.clone(),
                adapter: IMPACT_ADAPTER.to_string(),
            };
            write(&Record::new_sorted(
                Kind::Edge,
                by,
                vec![entry_id.clone(), seed_id.clone()],
                Src::new(),
                &data,
            )?)?;
        }
    }
    Ok(diags(cg, stage))
}

/// The entrypoints (`route /checkout`) reached from the changed files among `files`,
/// sorted.
pub fn reaches<'a>(cg: &ChangeGraph, files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut names = BTreeSet::new();
    for file in files {
        if let Some(entrypoints) = cg.impacts.entrypoints.get(&NodeKey::file(file)) {
            names.extend(
                entrypoints
                    .iter()
                    .map(|k| format!("{} {}", k.kind.as_str(), k.name)),
            );
        }
    }
    names.into_iter().collect()
}

fn side_graph(cg: &ChangeGraph, side: Side) -> &Graph {
    match side {
        Side::Head => &cg.head,
        Side::Base => &cg.base,
    }
}

fn evidence(at: &Located, commit: &str) -> GraphEvidence {
    GraphEvidence {
        file: at.file.to_string(),
        line: at.line,
        commit: Some(commit.to_string()),
        manifest: None,
    }
}

fn node_data(node: &Node, commit: &str, impact: Impact, hops: u32) -> NodeData {
    NodeData {
        kind: node.key.kind,
        name: node.key.name.to_string(),
        impact,
        hops,
        confidence: node.confidence,
        evidence: node.evidence.iter().map(|e| evidence(e, commit)).collect(),
        adapter: node.adapter.to_string(),
        support: node.support,
    }
}

fn node_src(node: &Node) -> Src {
    let mut src = Src::new();
    if let Some(blob) = &node.blob {
        src.insert("git.blob".to_string(), blob.to_string());
    }
    src
}

/// Adapter failures, dropped edges and skipped files of both graphs (once each), which
/// adapters analyzed the head tree with what support, and the impact bounds.
fn diags(cg: &ChangeGraph, stage: &str) -> Vec<Diag> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for d in cg.head.diags.iter().chain(&cg.base.diags) {
        if seen.insert((&d.source, &d.message)) {
            let severity = match d.severity {
                DiagLevel::Warning => Severity::Warning,
                DiagLevel::Info => Severity::Info,
            };
            out.push(Diag::new(
                severity,
                stage,
                format!("behavior graph: {}", d.message),
            ));
        }
    }
    let analyzed: Vec<String> = cg
        .head
        .adapters
        .iter()
        .filter(|a| matches!(a.outcome, crate::model::Outcome::Analyzed { .. }))
        .map(|a| format!("{} ({})", a.id, a.support.as_str()))
        .collect();
    let analyzed = match analyzed.is_empty() {
        true => "none".to_string(),
        false => analyzed.join(", "),
    };
    let i = &cg.impacts;
    let cut = i.cut_by_depth + i.cut_by_fan_out;
    out.push(Diag::new(
        if cut > 0 { Severity::Warning } else { Severity::Info },
        stage,
        format!(
            "behavior graph: {} nodes and {} edges at head, adapters {analyzed}; impact bounded at {} import steps and {} dependants per node ({} cut by depth, {} by fan-out)",
            cg.head.nodes.len(),
            cg.head.edges.len(),
            i.bounds.depth,
            i.bounds.fan_out,
            i.cut_by_depth,
            i.cut_by_fan_out
        ),
    ));
    out
}
