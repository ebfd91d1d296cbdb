//! graph-bench REPO BASE HEAD: builds the base and head graphs of a repository and
//! compares them, printing one summary line; bench/graph_bench.py times it.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [repo, base, head] = args.as_slice() else {
        eprintln!("usage: graph-bench REPO BASE HEAD");
        return ExitCode::from(64);
    };
    let adapters = qa_graph::adapters();
    let options = qa_graph::Options::default();
    match qa_graph::analyze(
        Path::new(repo),
        base,
        head,
        &BTreeSet::new(),
        &adapters,
        &options,
    ) {
        Ok(cg) => {
            let entrypoints = cg
                .impacts
                .nodes
                .keys()
                .filter(|k| k.kind.is_entrypoint())
                .count();
            println!(
                "head: {} nodes, {} edges; base: {} nodes, {} edges; reached: {} nodes, {} entrypoints",
                cg.head.nodes.len(),
                cg.head.edges.len(),
                cg.base.nodes.len(),
                cg.base.edges.len(),
                cg.impacts.nodes.len(),
                entrypoints
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("graph-bench: error: {e:#}");
            ExitCode::from(70)
        }
    }
}
