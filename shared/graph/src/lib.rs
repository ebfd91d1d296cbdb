//! qa-graph: the behavior graph of a git tree (source files, routes, screens, endpoints,
//! commands and their edges), built by layered adapters from git objects without a
//! checkout, and what a change between a base and a head tree reaches.
//!
//! It may use qa-records (the `node` and `edge` payloads), qa-team-manifest (flows as
//! nodes) and qa-syntax (Python's route decorators); it must not depend on a stage, nor
//! on qa-cli or qa-commands.

pub mod adapter;
pub mod framework;
pub mod impact;
pub mod language;
pub mod model;
pub mod records;
pub mod repository;
pub mod tree;

use adapter::Adapter;
use anyhow::{Context as _, Result};
use impact::{Bounds, Impacts};
use language::LanguageAdapter;
use model::{DiagLevel, Graph, GraphDiag, Names};
use std::collections::BTreeSet;
use std::path::Path;
use tree::{Blobs, Limits, Skipped, Snapshot};

/// The adapters every run uses, language layer first.
pub fn adapters() -> Vec<Box<dyn Adapter>> {
    vec![
        Box::new(LanguageAdapter::<language::typescript::TypeScript>::default()),
        Box::new(LanguageAdapter::<language::python::Python>::default()),
        Box::new(LanguageAdapter::<language::rust::Rust>::default()),
        Box::new(LanguageAdapter::<language::go::Go>::default()),
        Box::new(framework::nextjs::NextJs),
        Box::<framework::react_router::ReactRouter>::default(),
        Box::<framework::python_web::PythonWeb>::default(),
        Box::<framework::express::Express>::default(),
        Box::<framework::django::Django>::default(),
        Box::<framework::cli::Cli>::default(),
        Box::<repository::Commands>::default(),
        Box::new(repository::assertions::Assertions),
        Box::new(repository::flows::Flows),
    ]
}

/// How much is read and how far impact travels.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub limits: Limits,
    pub bounds: Bounds,
}

/// The base and head graphs of a change and what the change reaches.
#[derive(Debug)]
pub struct ChangeGraph {
    pub base: Graph,
    pub head: Graph,
    pub impacts: Impacts,
}

/// Builds the graphs of `base` and `head` (commits or revisions of the repository at
/// `repo`) and compares them. `also_changed` paths count as changed at head even when
/// the trees agree (edits only in the working tree).
pub fn analyze(
    repo: &Path,
    base: &str,
    head: &str,
    also_changed: &BTreeSet<String>,
    adapters: &[Box<dyn Adapter>],
    options: &Options,
) -> Result<ChangeGraph> {
    let (base, head) = graphs(repo, base, head, adapters, &options.limits)?;
    Ok(ChangeGraph::compare(
        base,
        head,
        also_changed,
        options.bounds,
    ))
}

/// The graphs of `base` and `head`, without comparing them: the expensive half of
/// [`analyze`], which a caller may run while it reads what `also_changed` needs.
pub fn graphs(
    repo: &Path,
    base: &str,
    head: &str,
    adapters: &[Box<dyn Adapter>],
    limits: &Limits,
) -> Result<(Graph, Graph)> {
    // git does not re-hash objects it reads; libgit2 does unless told not to.
    git2::opts::strict_hash_verification(false);
    let repository = open(repo)?;
    let mut blobs = Blobs::new(&repository)?;
    let mut names = Names::default();
    let head = graph_of(&repository, head, adapters, limits, &mut blobs, &mut names)?;
    let base = graph_of(&repository, base, adapters, limits, &mut blobs, &mut names)?;
    Ok((base, head))
}

/// [`graphs`], with the repository closed between the two trees: `between` runs once the
/// head's handle is let go, before the base's is opened. libgit2 keeps a cache of delta
/// bases for each pack (up to 16 MB, no option bounds it) until the last handle on the
/// pack closes: a caller whose other handles let go in `between` frees what the head's
/// reads filled, at the cost of inflating again the bases the base's reads share.
pub fn graphs_handing_over(
    repo: &Path,
    base: &str,
    head: &str,
    adapters: &[Box<dyn Adapter>],
    limits: &Limits,
    between: impl FnOnce(),
) -> Result<(Graph, Graph)> {
    git2::opts::strict_hash_verification(false);
    let mut names = Names::default();
    let (head, learned) = {
        let repository = open(repo)?;
        let mut blobs = Blobs::new(&repository)?;
        let head = graph_of(&repository, head, adapters, limits, &mut blobs, &mut names)?;
        (head, blobs.learned())
    };
    between();
    let repository = open(repo)?;
    let mut blobs = Blobs::with_learned(&repository, learned)?;
    let base = graph_of(&repository, base, adapters, limits, &mut blobs, &mut names)?;
    Ok((base, head))
}

fn open(repo: &Path) -> Result<git2::Repository> {
    git2::Repository::open(repo)
        .with_context(|| format!("opening the git repository {}", repo.display()))
}

impl ChangeGraph {
    /// Compares two graphs of [`graphs`].
    pub fn compare(
        base: Graph,
        head: Graph,
        also_changed: &BTreeSet<String>,
        bounds: Bounds,
    ) -> ChangeGraph {
        let impacts = impact::compare(&base, &head, also_changed, bounds);
        ChangeGraph {
            base,
            head,
            impacts,
        }
    }
}

/// The graph of one commit's tree.
pub fn graph_of(
    repo: &git2::Repository,
    commit: &str,
    adapters: &[Box<dyn Adapter>],
    limits: &Limits,
    blobs: &mut Blobs,
    names: &mut Names,
) -> Result<Graph> {
    let mut look = |path: &str, oid: git2::Oid, text: &str| {
        for adapter in adapters {
            adapter::look(adapter.as_ref(), path, oid, text);
        }
    };
    let snapshot = Snapshot::read(repo, commit, limits, blobs, &mut look)?;
    let mut graph = adapter::build(&snapshot, adapters, names);
    if let Some(message) = skipped_message(&snapshot.skipped) {
        graph.diags.push(GraphDiag {
            severity: DiagLevel::Info,
            source: "tree".to_string(),
            message: format!("tree of {}: {message}", short(&snapshot.commit)),
        });
    }
    Ok(graph)
}

fn short(oid: &str) -> &str {
    &oid[..oid.len().min(12)]
}

/// What the tree read left out, in one sentence; None when nothing was.
fn skipped_message(s: &Skipped) -> Option<String> {
    let parts: Vec<String> = [
        (s.nested, "nested repositories"),
        (s.vendored, "vendored paths"),
        (s.unreadable, "files over the size limit or not UTF-8"),
        (s.over_limit, "files past the file-count or byte limit"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    (!parts.is_empty()).then(|| format!("left out {}", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handing_over_between_the_trees_builds_the_same_graphs_and_runs_between_once() {
        let mut repo = qa_testkit::Repo::new();
        repo.write(
            "package.json",
            "{\"name\": \"shop\", \"bin\": \"cli.js\"}\n",
        );
        repo.write("cli.js", "import { total } from './src/cart.js'\ntotal()\n");
        repo.write("src/cart.js", "export function total() { return 1 }\n");
        let base = repo.commit("base");
        repo.write("src/cart.js", "export function total() { return 2 }\n");
        repo.write(
            "src/tax.js",
            "import { total } from './cart.js'\nexport const t = total\n",
        );
        let head = repo.commit("head");
        let (adapters, limits) = (adapters(), Limits::default());
        let kept = graphs(repo.path(), &base, &head, &adapters, &limits).unwrap();
        let mut between = 0;
        let handed = graphs_handing_over(repo.path(), &base, &head, &adapters, &limits, || {
            between += 1
        })
        .unwrap();
        assert_eq!(between, 1);
        assert_eq!(format!("{:?}", handed.0), format!("{:?}", kept.0));
        assert_eq!(format!("{:?}", handed.1), format!("{:?}", kept.1));
        assert!(handed.1.nodes.len() > handed.0.nodes.len());
    }
}
