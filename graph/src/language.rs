//! Language adapters: one source-file node per file of the language, `imports` edges to
//! the files its imports resolve to, and the module table later layers read. Each
//! language supplies how to parse a file and how to resolve one import.

pub mod go;
pub mod python;
pub mod rust;
pub mod typescript;

use crate::adapter::{Adapter, Context, Detection, Layer};
use crate::model::{Edge, Fragment, Import, Located, Module, Node, NodeKey};
use crate::tree::{file_name, Snapshot};
use qa_shared::change::Confidence;
use qa_shared::graph::{EdgeKind, Support};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

/// What one language contributes: its files, how to parse one, and how to resolve an
/// import against the tree (with whatever it first reads of the tree: packages,
/// module roots, crates).
pub trait Language: Send + Sync + 'static {
    /// The adapter id, written in node records.
    const ID: &'static str;
    /// The language's name in messages.
    const NAME: &'static str;
    const EXTENSIONS: &'static [&'static str];
    const SUPPORT: Support;
    /// What resolution needs to know of one tree.
    type Tree;
    fn read_tree(snapshot: &Snapshot) -> Self::Tree;
    fn parse(text: &str) -> Parsed;
    fn resolve(
        tree: &Self::Tree,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)>;
}

/// The language-layer adapter of `L`: accepts a tree holding one of its files, and
/// makes every such file a node with its resolved imports as edges.
pub struct LanguageAdapter<L> {
    cache: ParseCache,
    language: PhantomData<L>,
}

impl<L> Default for LanguageAdapter<L> {
    fn default() -> Self {
        LanguageAdapter {
            cache: ParseCache::default(),
            language: PhantomData,
        }
    }
}

impl<L: Language> Adapter for LanguageAdapter<L> {
    fn id(&self) -> &'static str {
        L::ID
    }

    fn layer(&self) -> Layer {
        Layer::Language
    }

    fn support(&self) -> Support {
        L::SUPPORT
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match files_with(snapshot, L::EXTENSIONS).next() {
            Some(path) => Detection::Accept(format!("{path} is {}", L::NAME)),
            None => Detection::Decline(format!("no {} file", L::NAME)),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let tree = L::read_tree(cx.snapshot);
        Ok(analyze_files(
            cx.snapshot,
            &self.cache,
            L::EXTENSIONS,
            L::parse,
            |from, raw| L::resolve(&tree, cx.snapshot, from, raw),
        ))
    }
}

/// An import as written, before resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawImport {
    /// The module specifier (`./Button`, `shop.pricing`, `crate::db`).
    pub spec: String,
    pub line: u32,
    /// Local names it binds.
    pub names: Vec<String>,
}

/// What parsing one file gives, independent of the rest of the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub imports: Vec<RawImport>,
    pub symbols: Vec<(String, u32)>,
}

/// Parses by blob id: the base and head trees share most blobs, so the second graph
/// parses only what the change touched.
#[derive(Debug, Default)]
pub struct ParseCache {
    parsed: Mutex<HashMap<String, Arc<Parsed>>>,
}

impl ParseCache {
    fn get(&self, oid: &str, text: &str, parse: fn(&str) -> Parsed) -> Arc<Parsed> {
        if let Some(p) = self.lock().get(oid) {
            return p.clone();
        }
        let parsed = Arc::new(parse(text));
        self.lock().insert(oid.to_string(), parsed.clone());
        parsed
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Parsed>>> {
        // A poisoned cache only means another adapter run panicked: its entries are whole.
        self.parsed.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// True when `path` has one of `extensions`.
pub fn has_extension(path: &str, extensions: &[&str]) -> bool {
    file_name(path)
        .rsplit_once('.')
        .is_some_and(|(_, ext)| extensions.contains(&ext))
}

/// The files of `snapshot` with one of `extensions`.
pub fn files_with<'a>(
    snapshot: &'a Snapshot,
    extensions: &'a [&str],
) -> impl Iterator<Item = &'a str> + 'a {
    snapshot
        .files
        .keys()
        .map(String::as_str)
        .filter(move |p| has_extension(p, extensions))
}

/// One language's whole-tree analysis: every file with `extensions` becomes a source-file
/// node; each import that `resolve` maps to files becomes `imports` edges.
fn analyze_files(
    snapshot: &Snapshot,
    cache: &ParseCache,
    extensions: &[&str],
    parse: fn(&str) -> Parsed,
    resolve: impl Fn(&str, &RawImport) -> Vec<(String, Confidence)>,
) -> Fragment {
    let mut fragment = Fragment::default();
    for path in files_with(snapshot, extensions) {
        let blob = &snapshot.files[path];
        let parsed = cache.get(&blob.oid, &blob.text, parse);
        let mut node = Node::new(NodeKey::file(path), Confidence::High, Located::new(path, 0));
        node.blob = Some(blob.oid.clone());
        fragment.nodes.push(node);
        let mut module = Module {
            imports: Vec::new(),
            symbols: parsed.symbols.clone(),
        };
        for raw in &parsed.imports {
            for (target, confidence) in resolve(path, raw) {
                if target == path {
                    continue;
                }
                fragment.edges.push(Edge::new(
                    EdgeKind::Imports,
                    NodeKey::file(path),
                    NodeKey::file(target.clone()),
                    Located::new(path, raw.line),
                    confidence,
                ));
                module.imports.push(Import {
                    target,
                    line: raw.line,
                    names: raw.names.clone(),
                });
            }
        }
        fragment.modules.insert(path.to_string(), module);
    }
    fragment
}

/// Each first group of `declaration` in `text`, with its line: a file's symbols.
pub fn symbols(declaration: &regex::Regex, text: &str, lines: &Lines) -> Vec<(String, u32)> {
    declaration
        .captures_iter(text)
        .map(|c| (c[1].to_string(), lines.at(&c, 1)))
        .collect()
}

/// 1-based line numbers of byte offsets in one text.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The line where group `group` of a match starts (the whole match for 0).
    pub fn at(&self, captures: &regex::Captures, group: usize) -> u32 {
        self.of(captures.get(group).map_or(0, |m| m.start()))
    }

    /// The line holding byte `offset`.
    pub fn of(&self, offset: usize) -> u32 {
        let line = self.starts.partition_point(|&s| s <= offset);
        u32::try_from(line).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_one() {
        let lines = Lines::new("a\nbb\nc");
        assert_eq!(lines.of(0), 1);
        assert_eq!(lines.of(2), 2);
        assert_eq!(lines.of(5), 3);
    }
}
