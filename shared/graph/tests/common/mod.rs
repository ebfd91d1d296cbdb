//! Fixtures for the graph tests: a real git repository with a base commit and a head
//! commit, analyzed with the default adapters.

#![allow(dead_code)]

pub use qa_graph::model::NodeKey;
pub use qa_graph::ChangeGraph;
pub use qa_testkit::Repo;
use std::collections::BTreeSet;

/// A repository holding `files` at its base commit, then `changes` at head.
pub struct Change {
    pub repo: Repo,
    pub base: String,
    pub head: String,
}

impl Change {
    pub fn new(files: &[(&str, &str)], changes: &[(&str, &str)]) -> Change {
        let mut repo = Repo::new();
        for (path, text) in files {
            repo.write(path, text);
        }
        let base = repo.commit("base");
        for (path, text) in changes {
            repo.write(path, text);
        }
        let head = repo.commit("head");
        Change { repo, base, head }
    }

    /// A repository holding `files`, then one edit of `path` to `text`.
    pub fn edit(files: &[(&str, &str)], path: &str, text: &str) -> Change {
        Change::new(files, &[(path, text)])
    }

    pub fn analyze(&self) -> ChangeGraph {
        self.analyze_with(&qa_graph::adapters())
    }

    pub fn analyze_with(&self, adapters: &[Box<dyn qa_graph::adapter::Adapter>]) -> ChangeGraph {
        self.analyze_as(adapters, qa_graph::Options::default())
    }

    /// With the default adapters and other impact bounds.
    pub fn analyze_bounded(&self, bounds: qa_graph::impact::Bounds) -> ChangeGraph {
        let options = qa_graph::Options {
            bounds,
            ..Default::default()
        };
        self.analyze_as(&qa_graph::adapters(), options)
    }

    fn analyze_as(
        &self,
        adapters: &[Box<dyn qa_graph::adapter::Adapter>],
        options: qa_graph::Options,
    ) -> ChangeGraph {
        qa_graph::analyze(
            self.repo.path(),
            &self.base,
            &self.head,
            &BTreeSet::new(),
            adapters,
            &options,
        )
        .expect("analyzing the change")
    }
}

/// Every entrypoint the change reaches, as `route /checkout`.
pub fn reached(cg: &ChangeGraph) -> BTreeSet<String> {
    cg.impacts
        .nodes
        .keys()
        .filter(|k| k.kind.is_entrypoint())
        .map(|k| format!("{} {}", k.kind.as_str(), k.name))
        .collect()
}

/// True when the change reaches the source file `path`.
pub fn reaches_file(cg: &ChangeGraph, path: &str) -> bool {
    cg.impacts.reaches(&NodeKey::file(path))
}

/// The files `from` imports in the head graph.
pub fn imports_of(cg: &ChangeGraph, from: &str) -> Vec<String> {
    let from = NodeKey::file(from);
    cg.head
        .edges
        .iter()
        .filter(|e| e.from == from)
        .map(|e| e.to.name.to_string())
        .collect()
}
