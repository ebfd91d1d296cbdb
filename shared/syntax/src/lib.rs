//! qa-syntax: source code read with tree-sitter. It owns the grammars, which file takes
//! which ([`Grammar::of`]) and the parser's setup, and, one module per language, the
//! outline of a file (functions, methods, classes and types with their names and line
//! spans) and its imports; what each line says ([`lines`]), the `@qa` annotations of
//! declarations ([`annotations`]) and the tests a file defines with the values they
//! expect and the assertion helpers they call ([`suite`]). Vue and Svelte components are split by the HTML grammar
//! ([`sfc`]): each `<script>` block is read by the TypeScript or JavaScript grammar at its
//! true place in the file.
//!
//! It must not depend on any qapipe crate: the stages and the behavior graph read code
//! through it, and it knows nothing of records or repositories.

pub mod annotations;
mod go;
mod java;
mod kotlin;
pub mod lines;
mod python;
mod reading;
mod rust;
pub mod sfc;
pub mod suite;
mod typescript;
pub mod walk;

pub use reading::{Import, Symbol, SymbolKind};
/// The tree-sitter version the grammars are built for: walk the trees with it.
pub use tree_sitter;
use tree_sitter::{Node, Parser, Tree};

/// A language with a grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grammar {
    Rust,
    TypeScript,
    Tsx,
    JavaScript,
    Python,
    Go,
    Java,
    Kotlin,
}

impl Grammar {
    /// The grammar of a repository path, by its extension.
    pub fn of(path: &str) -> Option<Grammar> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let (stem, ext) = name.rsplit_once('.')?;
        if stem.is_empty() {
            return None;
        }
        Some(match ext.to_ascii_lowercase().as_str() {
            "rs" => Grammar::Rust,
            "ts" | "mts" | "cts" => Grammar::TypeScript,
            "tsx" => Grammar::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Grammar::JavaScript,
            "py" | "pyi" => Grammar::Python,
            "go" => Grammar::Go,
            "java" => Grammar::Java,
            "kt" | "kts" => Grammar::Kotlin,
            _ => return None,
        })
    }

    /// TypeScript, TSX or JavaScript.
    pub fn is_javascript(self) -> bool {
        matches!(
            self,
            Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript
        )
    }

    /// The tree-sitter language of the grammar.
    pub fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
            Grammar::Java => tree_sitter_java::LANGUAGE.into(),
            Grammar::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
        }
    }

    /// What a node of this grammar is to the outline and the imports.
    fn reader(self) -> &'static dyn reading::Reader {
        match self {
            Grammar::Rust => &rust::Rust,
            Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => &typescript::TypeScript,
            Grammar::Python => &python::Python,
            Grammar::Go => &go::Go,
            Grammar::Java => &java::Java,
            Grammar::Kotlin => &kotlin::Kotlin,
        }
    }
}

/// A parser set to `grammar`; None only when the grammar and the tree-sitter library
/// disagree on their ABI (a build problem, not an input one).
pub fn parser(grammar: Grammar) -> Option<Parser> {
    let mut parser = Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    Some(parser)
}

/// A syntax tree, or `None` when the parser gives up (it never fails on odd input: errors
/// become `ERROR` nodes).
pub fn parse(grammar: Grammar, text: &str) -> Option<Tree> {
    parser(grammar)?.parse(text, None)
}

thread_local! {
    /// One parser per grammar and thread: the graph asks for the imports of every file
    /// of a tree, and a parser's setup is worth keeping.
    static PARSERS: std::cell::RefCell<Vec<(Grammar, Parser)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` with this thread's parser for `grammar`; None when the grammar has none.
fn with_parser<R>(grammar: Grammar, f: impl FnOnce(&mut Parser) -> R) -> Option<R> {
    PARSERS.with_borrow_mut(|parsers| {
        let at = match parsers.iter().position(|(g, _)| *g == grammar) {
            Some(at) => at,
            None => {
                parsers.push((grammar, parser(grammar)?));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[at].1;
        // A parse left unfinished by an earlier caller must not leak into this one.
        parser.reset();
        Some(f(parser))
    })
}

/// The tree of `text[..cut]`, a part of the text the caller knows to hold what it reads,
/// handed to `read`; of the whole text when the part's tree has an error (the cut fell
/// in a comment, a string or an unclosed bracket, or the code is broken there), as if no
/// cut had been tried. Nodes' bytes and lines are the text's either way.
fn read_cut<R>(
    grammar: Grammar,
    text: &str,
    cut: usize,
    read: impl FnOnce(&Tree) -> R,
) -> Option<R> {
    with_parser(grammar, |parser| {
        let part = parser.parse(&text[..cut], None)?;
        let tree = if part.root_node().has_error() && cut < text.len() {
            parser.parse(text, None)?
        } else {
            part
        };
        Some(read(&tree))
    })
    .flatten()
}

/// The tree of the parts `ranges` of `text` (in order, apart from each other) parsed as
/// one text, handed to `read`; of the whole text when the parts' tree has an error (a
/// part began or ended inside a literal or a comment, or was no whole statement), as if
/// no parts had been chosen. Nodes' bytes and lines are the text's either way.
fn read_ranges<R>(
    grammar: Grammar,
    text: &str,
    ranges: &[std::ops::Range<usize>],
    read: impl FnOnce(&Tree) -> R,
) -> Option<R> {
    let tree = match parse_parts(grammar, text, ranges) {
        Some(part) if !part.root_node().has_error() => part,
        _ => parse_whole(grammar, text)?,
    };
    Some(read(&tree))
}

/// The tree of the parts `ranges` of `text` (in order, apart from each other) parsed as
/// one text, errors and all; nodes' bytes and lines are the text's.
fn parse_parts(grammar: Grammar, text: &str, ranges: &[std::ops::Range<usize>]) -> Option<Tree> {
    let included = included(text, ranges);
    with_parser(grammar, |parser| {
        parser.set_included_ranges(&included).ok()?;
        let part = parser.parse(text, None);
        // The parser is this thread's for every later caller: whole texts again.
        parser.set_included_ranges(&[]).ok()?;
        part
    })
    .flatten()
}

/// The tree of the whole `text`, by this thread's parser of `grammar`.
fn parse_whole(grammar: Grammar, text: &str) -> Option<Tree> {
    with_parser(grammar, |parser| parser.parse(text, None)).flatten()
}

/// `ranges` as tree-sitter's included ranges, with the rows and columns of their ends.
fn included(text: &str, ranges: &[std::ops::Range<usize>]) -> Vec<tree_sitter::Range> {
    let bytes = text.as_bytes();
    // The row and the line's start at `at`, counted on from the last offset asked for.
    let (mut at, mut row, mut line) = (0, 0, 0);
    let mut point = |to: usize| {
        // Counted, not iterated: memchr counts a run of short lines many bytes at a time.
        let gap = &bytes[at..to];
        row += memchr::memchr_iter(b'\n', gap).count();
        if let Some(newline) = memchr::memrchr(b'\n', gap) {
            line = at + newline + 1;
        }
        at = to;
        tree_sitter::Point::new(row, to - line)
    };
    ranges
        .iter()
        .map(|range| tree_sitter::Range {
            start_byte: range.start,
            start_point: point(range.start),
            end_byte: range.end,
            end_point: point(range.end),
        })
        .collect()
}

/// The imports of a file, each from a node of its tree. Where the language bounds the
/// part of a file imports can stand in (Go: its head; Python: up to the line of its last
/// word `import`; TypeScript, JavaScript and Rust: the statements around their import
/// keywords in code), only that part is parsed; the other grammars parse the whole text.
pub fn imports(grammar: Grammar, text: &str) -> Vec<Import> {
    match grammar {
        Grammar::Go => go::imports::read(text),
        Grammar::Python => python::imports::read(text),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            typescript::imports::read(grammar, text)
        }
        Grammar::Rust => rust::imports::read(text),
        _ => read(grammar, text).imports,
    }
}

/// What a file declares and imports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct File {
    /// In the order they start; a symbol's `parent` indexes this list.
    pub symbols: Vec<Symbol>,
    /// In the order they stand.
    pub imports: Vec<Import>,
}

/// Parses `text` and reads its outline and imports (both empty when the parser gives up).
pub fn read(grammar: Grammar, text: &str) -> File {
    parse(grammar, text).map_or_else(File::default, |tree| read_tree(grammar, &tree, text))
}

/// The outline and imports of an already parsed text.
pub fn read_tree(grammar: Grammar, tree: &Tree, text: &str) -> File {
    read_node(grammar, tree.root_node(), text)
}

/// The outline and imports below `root`, a node of a tree parsed from `text` (the whole
/// file: byte ranges and lines are the file's).
pub fn read_node(grammar: Grammar, root: Node, text: &str) -> File {
    reading::read(grammar.reader(), root, text)
}

/// The text of `node`, empty when its bytes are not a slice of `text`.
#[inline]
pub fn text_of<'a>(node: Node, text: &'a str) -> &'a str {
    text.get(node.byte_range()).unwrap_or("")
}

/// The 1-based line a node starts on.
#[inline]
pub fn line_of(node: Node) -> u32 {
    u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
}

/// Longest excerpt of code, in characters, that [`excerpt`] keeps.
const EXCERPT: usize = 120;

/// A one-line excerpt of code: whitespace runs collapsed, at most 120 characters (then
/// an ellipsis).
pub fn excerpt(code: &str) -> String {
    let one: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(EXCERPT) {
        Some((i, _)) => format!("{}…", &one[..i]),
        None => one,
    }
}

/// The 1-based line a node ends on (a node ending at a line's start ends on the line
/// before).
fn end_line_of(node: Node) -> u32 {
    let end = node.end_position();
    let row = if end.column == 0 && end.row > node.start_position().row {
        end.row
    } else {
        end.row + 1
    };
    u32::try_from(row).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod testing;
