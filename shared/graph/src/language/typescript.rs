//! TypeScript and JavaScript: ES imports, re-exports, `require` and dynamic `import()`,
//! resolved the way the compiler and bundlers do (relative paths, extension and `index`
//! probing, `.js` written for a `.ts` file, tsconfig `paths` and `baseUrl`, `@/` for
//! `src/` without one, and workspace packages by their package.json name, see
//! [`super::workspace`]); exported and top-level names as symbols.

use super::workspace::Workspace;
use super::{Language, Parsed, RawImport};
use crate::model::Symbols;
use crate::tree::{join, normalize, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use regex::Regex;
use std::sync::{Arc, LazyLock};

pub const EXTENSIONS: &[&str] = &["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// Probed in this order after a specifier without an extension.
const PROBE: &[&str] = &["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// TypeScript and JavaScript, for the language layer.
pub struct TypeScript;

impl Language for TypeScript {
    const ID: &'static str = "typescript";
    const NAME: &'static str = "TypeScript or JavaScript";
    const EXTENSIONS: &'static [&'static str] = EXTENSIONS;
    /// Deep: imports resolve to files, and framework adapters name the entrypoints.
    const SUPPORT: Support = Support::Deep;
    type Tree = Workspace;

    fn read_tree(snapshot: &Snapshot) -> Workspace {
        Workspace::read(snapshot)
    }

    fn parse(text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        workspace: &Workspace,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        resolve(snapshot, workspace, from, &raw.spec)
            .into_iter()
            .collect()
    }
}

/// An npm package of the tree: its directory, name and entry fields.
#[derive(Debug, Clone)]
pub struct Package {
    pub dir: String,
    pub manifest: String,
    pub json: serde_json::Value,
}

impl Package {
    pub fn name(&self) -> Option<&str> {
        self.json.get("name").and_then(|n| n.as_str())
    }

    /// True when the package declares `dependency` in any dependency table.
    pub fn depends_on(&self, dependency: &str) -> bool {
        [
            "dependencies",
            "devDependencies",
            "peerDependencies",
            "optionalDependencies",
        ]
        .iter()
        .any(|table| {
            self.json
                .get(table)
                .and_then(|t| t.get(dependency))
                .is_some()
        })
    }
}

/// The package.json files of a tree. Unreadable ones are left out here: the language
/// layer only needs names, and the repository layer reports broken manifests.
#[derive(Debug, Default)]
pub struct Packages {
    pub all: Vec<Package>,
}

impl Packages {
    pub fn read(snapshot: &Snapshot) -> Packages {
        let all = snapshot
            .named("package.json")
            .filter_map(|path| {
                let json = serde_json::from_str(&snapshot.text(path)?).ok()?;
                Some(Package {
                    dir: parent(path).to_string(),
                    manifest: path.to_string(),
                    json,
                })
            })
            .collect();
        Packages { all }
    }

    /// The nearest package holding `path`.
    pub fn holding(&self, path: &str) -> Option<&Package> {
        self.all
            .iter()
            .filter(|p| p.dir.is_empty() || path.starts_with(&format!("{}/", p.dir)))
            .max_by_key(|p| p.dir.len())
    }
}

/// The file `spec`, imported from `from`, names in this tree: a relative path; a
/// tsconfig alias; `@/` or `~/` for the package's source root; a workspace package.
pub fn resolve(
    snapshot: &Snapshot,
    workspace: &Workspace,
    from: &str,
    spec: &str,
) -> Option<(String, Confidence)> {
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        let base = normalize(parent(from), spec)?;
        return probe(snapshot, &base).map(|p| (p, Confidence::High));
    }
    if let Some(found) = workspace.resolve_alias(snapshot, from, spec) {
        return Some((found, Confidence::High));
    }
    // `@/x` and `~/x`: the common no-config alias for the package's source root.
    if let Some(rest) = spec.strip_prefix("@/").or_else(|| spec.strip_prefix("~/")) {
        let root = workspace
            .packages
            .holding(from)
            .map_or("", |p| p.dir.as_str());
        return [join(root, "src"), root.to_string()]
            .iter()
            .find_map(|dir| probe(snapshot, &join(dir, rest)))
            .map(|p| (p, Confidence::Medium));
    }
    workspace
        .resolve_package(snapshot, spec)
        .map(|p| (p, Confidence::High))
}

/// The source file of an entry a manifest names: the file itself, or for a built entry
/// (`pkg/dist/cli.js`) the source it was built from (`pkg/src/cli.ts`).
pub fn probe_source(snapshot: &Snapshot, entry: &str) -> Option<String> {
    probe(snapshot, entry).or_else(|| {
        let rooted = format!("/{entry}");
        ["/dist/", "/lib/", "/build/"].iter().find_map(|dir| {
            let i = rooted.find(dir)?;
            let src = format!("{}/src/{}", &rooted[..i], &rooted[i + dir.len()..]);
            probe(snapshot, src.trim_start_matches('/'))
        })
    })
}

/// The file a specifier without resolution rules names: as written, with a TypeScript
/// extension for a written `.js`, with a probed extension, or its directory's index.
pub fn probe(snapshot: &Snapshot, base: &str) -> Option<String> {
    if snapshot.has(base) && super::has_extension(base, EXTENSIONS) {
        return Some(base.to_string());
    }
    if let Some((stem, ext)) = base.rsplit_once('.') {
        let swaps: &[&str] = match ext {
            "js" => &["ts", "tsx"],
            "jsx" => &["tsx"],
            "mjs" => &["mts"],
            "cjs" => &["cts"],
            _ => &[],
        };
        if let Some(found) = first_file(snapshot, stem, ".", swaps) {
            return Some(found);
        }
    }
    first_file(snapshot, base, ".", PROBE).or_else(|| first_file(snapshot, base, "/index.", PROBE))
}

/// The first `{stem}{middle}{extension}` of the tree, in the order of `extensions`.
fn first_file(
    snapshot: &Snapshot,
    stem: &str,
    middle: &str,
    extensions: &[&str],
) -> Option<String> {
    let mut path = String::with_capacity(stem.len() + middle.len() + 4);
    for extension in extensions {
        path.clear();
        path.push_str(stem);
        path.push_str(middle);
        path.push_str(extension);
        if snapshot.has(&path) {
            return Some(path);
        }
    }
    None
}

static IMPORT_FROM: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"\b(?:import|export)\s+(?:type\s+)?([\w$*{},\s]*?)\s*from\s*['"]([^'"\n]+)['"]"#,
    )
});
static IMPORT_BARE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bimport\s*['"]([^'"\n]+)['"]"#));
/// `require('./x')` / `import('./x')`, with the names a declaration binds to it
/// (`const { list } = require('./handlers')`).
static IMPORT_CALL: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"(?:\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*(?:await\s+)?)?\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)"#,
    )
});
/// The rest of an identifier from its first non-ASCII character on (`[\w$]` is Unicode).
static IDENTIFIER_REST: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"\A[\w$]*"));

/// Imports and declared names of one file; comments are blanked first so commented-out
/// imports bind nothing.
pub fn parse(text: &str) -> Parsed {
    let code = blank_comments(text);
    let mut lines = LineCounter::new(&code);
    let mut imports = Vec::new();
    for c in IMPORT_FROM.captures_iter(&code) {
        let (clause, spec) = (&c[1], &c[2]);
        imports.push(RawImport {
            spec: spec.to_string(),
            line: lines.at(&c, 0),
            names: bindings(clause),
        });
    }
    for c in IMPORT_BARE.captures_iter(&code) {
        imports.push(RawImport {
            spec: c[1].to_string(),
            line: lines.at(&c, 0),
            names: Vec::new(),
        });
    }
    for c in IMPORT_CALL.captures_iter(&code) {
        imports.push(RawImport {
            spec: c[2].to_string(),
            line: lines.at(&c, 2),
            names: c.get(1).map_or_else(Vec::new, |m| bindings(m.as_str())),
        });
    }
    imports.sort_by_key(|i| i.line);
    let symbols = Arc::new(declarations(&code));
    Parsed { imports, symbols }
}

/// Declared names with their lines: on a line of its own, after blanks and any of
/// `export`, `default`, `declare` and `async` (in that order, each followed by a blank),
/// one of `function`/`function*`, `class`, `const`, `let`, `var`, `interface`, `type`,
/// `enum`, blanks, then the name. The regex
/// `(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:async[ \t]+)?
/// (?:function\*?|class|const|let|var|interface|type|enum)[ \t]+([A-Za-z_$][\w$]*)`,
/// read by hand: no word is a prefix of another, so no choice is ever taken back.
fn declarations(code: &str) -> Symbols {
    const MODIFIERS: [&str; 4] = ["export", "default", "declare", "async"];
    const KEYWORDS: [&str; 8] = [
        "function",
        "class",
        "const",
        "let",
        "var",
        "interface",
        "type",
        "enum",
    ];
    let blanks = |s: &str| s.trim_start_matches([' ', '\t']).len() < s.len();
    let mut found = Vec::new();
    for (n, line) in code.split('\n').enumerate() {
        let mut rest = line.trim_start_matches([' ', '\t']);
        for modifier in MODIFIERS {
            if let Some(after) = rest.strip_prefix(modifier).filter(|a| blanks(a)) {
                rest = after.trim_start_matches([' ', '\t']);
            }
        }
        let Some(keyword) = KEYWORDS.iter().find(|k| rest.starts_with(**k)) else {
            continue;
        };
        let mut after = &rest[keyword.len()..];
        if *keyword == "function" {
            after = after.strip_prefix('*').unwrap_or(after);
        }
        if !blanks(after) {
            continue;
        }
        let name = after.trim_start_matches([' ', '\t']);
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$') {
            continue;
        }
        let ascii = name
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$'))
            .unwrap_or(name.len());
        let end = match name.as_bytes().get(ascii) {
            Some(b) if !b.is_ascii() => {
                ascii + IDENTIFIER_REST.find(&name[ascii..]).map_or(0, |m| m.end())
            }
            _ => ascii,
        };
        found.push((&name[..end], u32::try_from(n + 1).unwrap_or(u32::MAX)));
    }
    found.into_iter().collect()
}

/// 1-based lines of offsets asked for mostly in increasing order (each regex's matches
/// are), as [`super::Lines`] gives them: the newlines since the last offset asked for are
/// counted, not every line start of the text indexed.
struct LineCounter<'a> {
    text: &'a [u8],
    offset: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> LineCounter<'a> {
        LineCounter {
            text: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The line where group `group` of a match starts (the whole match for 0).
    fn at(&mut self, captures: &regex::Captures, group: usize) -> u32 {
        self.of(captures.get(group).map_or(0, |m| m.start()))
    }

    fn of(&mut self, offset: usize) -> u32 {
        if offset < self.offset {
            (self.offset, self.line) = (0, 1);
        }
        let newlines = self.text[self.offset..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line = self
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        self.offset = offset;
        self.line
    }
}

/// Local names an import clause binds: `A, { B, C as D }` -> A, B, D; `* as NS` -> NS.
fn bindings(clause: &str) -> Vec<String> {
    let mut names = Vec::new();
    let (outside, inside) = match (clause.find('{'), clause.find('}')) {
        (Some(open), Some(close)) if open < close => (
            format!("{}{}", &clause[..open], &clause[close + 1..]),
            &clause[open + 1..close],
        ),
        _ => (clause.to_string(), ""),
    };
    for part in outside.split(',').chain(inside.split(',')) {
        let part = part.trim().trim_start_matches("type ").trim();
        // `B as C` in an import clause, `B: C` in a destructured require.
        let local = match part.rsplit_once(" as ").or_else(|| part.rsplit_once(':')) {
            Some((_, local)) => local.trim(),
            None => part,
        };
        if !local.is_empty()
            && local != "*"
            && local
                .chars()
                .all(|c| c == '$' || c == '_' || c.is_alphanumeric())
        {
            names.push(local.to_string());
        }
    }
    names
}

/// The text with `//` and `/* */` comments replaced by spaces, one a character (newlines
/// kept, so line numbers hold); string and template literals are left as they are.
pub fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // `text[copied..i]` is code or literals still to copy as they are.
    let (mut copied, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[copied..i]);
                let end = memchr_from(bytes, b'\n', i).unwrap_or(bytes.len());
                push_spaces(&mut out, text[i..end].chars().count());
                (copied, i) = (end, end);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[copied..i]);
                // The `*` that opened the comment may close it too (`/*/`).
                let close = text[i + 1..].find("*/").map(|at| i + 1 + at);
                let end = close.map_or(bytes.len(), |at| at + 2);
                let body = &text[i..close.unwrap_or(bytes.len())];
                for (n, line) in body.split('\n').enumerate() {
                    if n > 0 {
                        out.push('\n');
                    }
                    push_spaces(&mut out, line.chars().count());
                }
                if close.is_some() {
                    out.push_str("  ");
                }
                (copied, i) = (end, end);
            }
            quote @ (b'"' | b'\'' | b'`') => {
                let ends_at_newline = quote != b'`';
                i += 1;
                loop {
                    let Some(at) = bytes[i..]
                        .iter()
                        .position(|&b| b == quote || b == b'\\' || (b == b'\n' && ends_at_newline))
                    else {
                        i = bytes.len();
                        break;
                    };
                    i += at + 1;
                    if bytes[i - 1] != b'\\' {
                        break;
                    }
                    // Past the escaped character's first byte: the rest of a multi-byte
                    // character never looks like a quote, a backslash or a newline.
                    i = (i + 1).min(bytes.len());
                }
            }
            _ => {
                i += bytes[i..]
                    .iter()
                    .position(|&b| matches!(b, b'/' | b'"' | b'\'' | b'`'))
                    .unwrap_or(bytes.len() - i)
                    .max(1);
            }
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The position of the first `byte` at or after `from`.
fn memchr_from(bytes: &[u8], byte: u8, from: usize) -> Option<usize> {
    bytes[from..]
        .iter()
        .position(|&b| b == byte)
        .map(|at| from + at)
}

fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > 0 {
        let take = left.min(SPACES.len());
        out.push_str(&SPACES[..take]);
        left -= take;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(text: &str) -> Vec<String> {
        parse(text).imports.into_iter().map(|i| i.spec).collect()
    }

    #[test]
    fn every_import_form_is_read() {
        let text = "import A, { B as C } from './a';\nimport './side';\nexport * from \"../b\";\nconst d = require('./d');\nconst e = await import('./e');\nimport {\n  F,\n} from './f';\n";
        assert_eq!(specs(text), ["./a", "./side", "../b", "./d", "./e", "./f"]);
        let parsed = parse(text);
        assert_eq!(parsed.imports[0].names, ["A", "C"]);
        assert_eq!(parsed.imports[5].line, 6);
    }

    #[test]
    fn commented_out_imports_are_not_imports() {
        let text = "// import A from './a';\n/* import B from './b' */\nconst url = 'http://x//y';\nimport C from './c';\n";
        assert_eq!(specs(text), ["./c"]);
    }

    #[test]
    fn declared_names_are_symbols_with_lines() {
        let parsed = parse("export default function Checkout() {}\nconst Local = 1;\n");
        assert_eq!(
            parsed.symbols.iter().collect::<Vec<_>>(),
            [("Checkout", 1), ("Local", 2)]
        );
    }

    #[test]
    fn a_required_module_binds_the_names_it_is_assigned_to() {
        let parsed = parse("const items = require('./items');\nconst { list, show: view } = require(\"./handlers\");\nrequire('./side');\n");
        let names: Vec<&[String]> = parsed.imports.iter().map(|i| i.names.as_slice()).collect();
        assert_eq!(names[0], ["items"]);
        assert_eq!(names[1], ["list", "view"]);
        assert!(names[2].is_empty());
        assert_eq!(parsed.imports[1].line, 2);
    }

    #[test]
    fn namespace_imports_bind_their_alias() {
        assert_eq!(bindings("* as api"), ["api"]);
        assert_eq!(bindings("{ type T, U }"), ["T", "U"]);
    }

    #[test]
    fn comments_blank_one_space_a_character_and_literals_stay() {
        assert_eq!(
            blank_comments("a /* é\nb */ c // ü\nd"),
            "a     \n     c     \nd"
        );
        assert_eq!(blank_comments("x /*/ y"), "x     y");
        assert_eq!(blank_comments("s = 'a\\'//b' // c"), "s = 'a\\'//b'     ");
        assert_eq!(blank_comments("t = `//\n/*` /* z"), "t = `//\n/*`     ");
        assert_eq!(blank_comments("u = \"é\\\n//\" v"), "u = \"é\\\n//\" v");
    }

    #[test]
    fn declarations_read_as_the_declaration_pattern_does() {
        let code = "function* gen() {}\nfunction *star() {}\n  export default class A {}\nexports.x = 1;\nconstructor(a) {}\nconst café = 1;\nexport async function $run() {}\nexport default Foo;\nlet\tx2 = 3;\n";
        let parsed = parse(code);
        let names: Vec<(&str, u32)> = parsed.symbols.iter().collect();
        assert_eq!(
            names,
            [("gen", 1), ("A", 3), ("café", 6), ("$run", 7), ("x2", 9)]
        );
    }
}
