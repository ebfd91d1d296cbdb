//! Language adapters: one source-file node per file of the language, `imports` edges to
//! the files its imports resolve to, and the module table later layers read. Each
//! language supplies how to parse a file and how to resolve one import.

pub mod cargo;
pub mod go;
pub mod python;
pub mod rust;
pub mod typescript;
pub mod workspace;

use crate::adapter::{Adapter, Context, Detection, Layer, Memo};
use crate::model::{Edge, Fragment, Import, Located, Module, Node, NodeKey, Symbols};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::graph::{EdgeKind, Support};
use std::marker::PhantomData;
use std::sync::Arc;

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
    /// What the file at `path` (its extension may choose a grammar) imports and declares.
    fn parse(path: &str, text: &str) -> Parsed;
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
    /// Parses by blob id: the base and head trees share most blobs, so the second graph
    /// parses only what the change touched.
    parsed: Memo<Arc<Parsed>>,
    language: PhantomData<L>,
}

impl<L> Default for LanguageAdapter<L> {
    fn default() -> Self {
        LanguageAdapter {
            parsed: Memo::default(),
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
            &self.parsed,
            L::EXTENSIONS,
            L::parse,
            |from, raw| L::resolve(&tree, cx.snapshot, from, raw),
        ))
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        if has_extension(path, L::EXTENSIONS) {
            self.parsed
                .learn(blob, text, |text| kept(L::parse(path, text)));
        }
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

impl From<qa_syntax::Import> for RawImport {
    /// An import read from a syntax tree.
    fn from(import: qa_syntax::Import) -> RawImport {
        RawImport {
            spec: import.spec,
            line: import.line,
            names: import.names,
        }
    }
}

/// What parsing one file gives, independent of the rest of the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub imports: Vec<RawImport>,
    /// Shared with the modules of every tree holding the file.
    pub symbols: Arc<Symbols>,
}

/// A parse as remembered for both trees: without room to grow.
fn kept(mut parsed: Parsed) -> Arc<Parsed> {
    for import in &mut parsed.imports {
        import.names.shrink_to_fit();
    }
    parsed.imports.shrink_to_fit();
    Arc::new(parsed)
}

/// True when `path` has one of `extensions`.
pub fn has_extension(path: &str, extensions: &[&str]) -> bool {
    // An extension holds no `.` or `/`, so a path ending in `.ext` has it as the file
    // name's last extension; asked for every file by every adapter, so no split.
    extensions.iter().any(|ext| {
        path.len() > ext.len()
            && path.ends_with(ext)
            && path.as_bytes()[path.len() - ext.len() - 1] == b'.'
    })
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
    parsed: &Memo<Arc<Parsed>>,
    extensions: &[&str],
    parse: fn(&str, &str) -> Parsed,
    resolve: impl Fn(&str, &RawImport) -> Vec<(String, Confidence)>,
) -> Fragment {
    let mut fragment = Fragment::default();
    for path in files_with(snapshot, extensions) {
        let blob = snapshot.files[path];
        let Some(parsed) = parsed.get(snapshot, path, |text| kept(parse(path, text))) else {
            continue;
        };
        // One copy of the path for the node and every edge it starts.
        let file = NodeKey::file(path);
        let at = |line| Located::new(file.name.clone(), line);
        let mut node = Node::new(file.clone(), Confidence::High, at(0));
        node.blob = Some(blob.oid.to_string().into());
        fragment.nodes.push(node);
        let mut module = Module {
            imports: Vec::new(),
            symbols: Arc::clone(&parsed.symbols),
        };
        for raw in &parsed.imports {
            for (target, confidence) in resolve(path, raw) {
                if target == path {
                    continue;
                }
                fragment.edges.push(Edge::new(
                    EdgeKind::Imports,
                    file.clone(),
                    NodeKey::file(target.as_str()),
                    at(raw.line),
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
pub fn symbols(declaration: &regex::Regex, text: &str, lines: &Lines) -> Arc<Symbols> {
    let symbols: Symbols = declaration
        .captures_iter(text)
        .filter_map(|c| Some((c.get(1)?.as_str(), lines.at(&c, 1))))
        .collect();
    Arc::new(symbols)
}

/// 1-based line numbers of byte offsets in one text.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        // `memchr` over the bytes: a byte loop cost Rust's reader as much as its regexes.
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
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
    fn an_extension_is_the_last_one_of_the_file_name() {
        let ts = &["ts", "tsx"];
        assert!(has_extension("src/a.ts", ts));
        assert!(has_extension(".ts", ts));
        assert!(has_extension("a.b.tsx", ts));
        assert!(!has_extension("src/a.ts.map", ts));
        assert!(!has_extension("src/ts", ts));
        assert!(!has_extension("src/ats", ts));
        assert!(!has_extension("ts", ts));
    }

    #[test]
    fn lines_count_from_one() {
        let lines = Lines::new("a\nbb\nc");
        assert_eq!(lines.of(0), 1);
        assert_eq!(lines.of(2), 2);
        assert_eq!(lines.of(5), 3);
    }
}
