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
use qa_syntax::Grammar;
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

    fn parse(path: &str, text: &str) -> Parsed {
        parse(path, text)
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

/// The rest of an identifier from its first non-ASCII character on (`[\w$]` is Unicode).
static IDENTIFIER_REST: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"\A[\w$]*"));

/// Imports of one file from qa-syntax's tree of its import statements and calls (the
/// grammar by the path's extension: TypeScript, TSX or JavaScript), and its declared
/// names; comments are blanked first so commented-out declarations name nothing.
pub fn parse(path: &str, text: &str) -> Parsed {
    let grammar = Grammar::of(path)
        .filter(|g| g.is_javascript())
        .unwrap_or(Grammar::TypeScript);
    let imports = qa_syntax::imports(grammar, text)
        .into_iter()
        .map(RawImport::from)
        .collect();
    let symbols = Arc::new(declarations(&blank_comments(text)));
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
    for (n, line) in lines_of(code).enumerate() {
        // Every modifier and keyword starts with one of these letters: most lines are
        // left at their first byte (read as a byte: a blank or a letter is ASCII).
        let head = line.bytes().position(|b| b != b' ' && b != b'\t');
        let Some(head) = head.filter(|&at| {
            matches!(
                line.as_bytes()[at],
                b'e' | b'd' | b'a' | b'f' | b'c' | b'l' | b'v' | b'i' | b't'
            )
        }) else {
            continue;
        };
        let mut rest = &line[head..];
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

/// The lines of `text` as `split('\n')` gives them, found with `memchr` (a `char` split
/// costs a searcher set-up for every line).
fn lines_of(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut newlines = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        match newlines.next() {
            Some(end) => {
                start = Some(end + 1);
                Some(&text[from..end])
            }
            None => {
                start = None;
                Some(&text[from..])
            }
        }
    })
}

/// The text with `//` and `/* */` comments replaced by spaces, one a character (newlines
/// kept, so line numbers hold); string and template literals are left as they are.
pub fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // `text[copied..i]` is code or literals still to copy as they are.
    let (mut copied, mut i) = (0, 0);
    // The first backtick at or after `i`: rare, so found once and again only when passed
    // (a fourth byte `memchr` does not search for together with the other three).
    let mut tick = memchr::memchr(b'`', bytes);
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
                    let rest = &bytes[i..];
                    let end = match ends_at_newline {
                        true => memchr::memchr3(quote, b'\\', b'\n', rest),
                        false => memchr::memchr2(quote, b'\\', rest),
                    };
                    let Some(at) = end else {
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
                if tick.is_some_and(|at| at < i) {
                    tick = memchr_from(bytes, b'`', i);
                }
                let other = memchr::memchr3(b'/', b'"', b'\'', &bytes[i..]).map(|at| i + at);
                let next = match (other, tick) {
                    (Some(a), Some(b)) => a.min(b),
                    (found, None) | (None, found) => found.unwrap_or(bytes.len()),
                };
                i = next.max(i + 1);
            }
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The position of the first `byte` at or after `from`.
fn memchr_from(bytes: &[u8], byte: u8, from: usize) -> Option<usize> {
    memchr::memchr(byte, &bytes[from..]).map(|at| from + at)
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

    fn specs(path: &str, text: &str) -> Vec<String> {
        parse(path, text)
            .imports
            .into_iter()
            .map(|i| i.spec)
            .collect()
    }

    #[test]
    fn every_import_form_is_read() {
        let text = "import A, { B as C } from './a';\nimport './side';\nexport * from \"../b\";\nconst d = require('./d');\nconst e = await import('./e');\nimport {\n  F,\n} from './f';\n";
        assert_eq!(
            specs("m.ts", text),
            ["./a", "./side", "../b", "./d", "./e", "./f"]
        );
        let parsed = parse("m.ts", text);
        assert_eq!(parsed.imports[0].names, ["A", "C"]);
        assert_eq!(parsed.imports[5].line, 6);
    }

    #[test]
    fn a_brace_list_over_lines_binds_its_names() {
        let text = "import {\n  a,\n  b as c,\n  type T,\n} from './x'\nimport type { U } from './u'\nexport type { V } from './v'\n";
        let parsed = parse("m.ts", text);
        let read: Vec<(&str, u32, &[String])> = parsed
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.line, i.names.as_slice()))
            .collect();
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(read[0], ("./x", 1, names(&["a", "c", "T"]).as_slice()));
        assert_eq!(read[1], ("./u", 6, names(&["U"]).as_slice()));
        assert_eq!(read[2], ("./v", 7, names(&["V"]).as_slice()));
    }

    #[test]
    fn imports_in_comments_strings_and_template_literals_are_none() {
        let text = "// import A from './a';\n/* import B from './b' */\nconst url = 'http://x//y';\nconst s = \"import x from './s'\";\nconst t = `\nimport y from './t'\nrequire('./u')\n`;\nimport C from './c';\n";
        assert_eq!(specs("m.ts", text), ["./c"]);
    }

    #[test]
    fn a_late_dynamic_import_and_a_require_in_a_function_are_imports() {
        let text = "import a from './a'\n\nexport function load() {\n  const b = require('./b')\n  return import('./c').then(m => m.run(b))\n}\n";
        let parsed = parse("m.js", text);
        let read: Vec<(&str, u32)> = parsed
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.line))
            .collect();
        assert_eq!(read, [("./a", 1), ("./b", 4), ("./c", 5)]);
        assert_eq!(parsed.imports[1].names, ["b"]);
    }

    #[test]
    fn a_type_alias_after_export_is_no_import() {
        // `export type X<..>` opens no import: nothing from the declaration is read.
        let text = "import { A } from './a'\nexport type Pick2<\n  T,\n  K\n> = A\nexport type * from './b'\n";
        assert_eq!(specs("m.ts", text), ["./a", "./b"]);
    }

    #[test]
    fn declared_names_are_symbols_with_lines() {
        let parsed = parse(
            "m.ts",
            "export default function Checkout() {}\nconst Local = 1;\n",
        );
        assert_eq!(
            parsed.symbols.iter().collect::<Vec<_>>(),
            [("Checkout", 1), ("Local", 2)]
        );
    }

    #[test]
    fn a_required_module_binds_the_names_it_is_assigned_to() {
        let parsed = parse("m.js", "const items = require('./items');\nconst { list, show: view } = require(\"./handlers\");\nrequire('./side');\n");
        let names: Vec<&[String]> = parsed.imports.iter().map(|i| i.names.as_slice()).collect();
        assert_eq!(names[0], ["items"]);
        assert_eq!(names[1], ["list", "view"]);
        assert!(names[2].is_empty());
        assert_eq!(parsed.imports[1].line, 2);
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
    fn lines_split_as_a_newline_split_does() {
        for text in ["", "a", "a\n", "\n\nb\nc", "é\nü\n\n"] {
            assert_eq!(
                lines_of(text).collect::<Vec<_>>(),
                text.split('\n').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn two_imports_on_one_line_are_both_read() {
        assert_eq!(
            specs(
                "m.ts",
                "import a from './a'; import b from './b'; import './c'; import './d'"
            ),
            ["./a", "./b", "./c", "./d"]
        );
    }

    #[test]
    fn declarations_read_as_the_declaration_pattern_does() {
        let code = "function* gen() {}\nfunction *star() {}\n  export default class A {}\nexports.x = 1;\nconstructor(a) {}\nconst café = 1;\nexport async function $run() {}\nexport default Foo;\nlet\tx2 = 3;\n";
        let parsed = parse("m.ts", code);
        let names: Vec<(&str, u32)> = parsed.symbols.iter().collect();
        assert_eq!(
            names,
            [("gen", 1), ("A", 3), ("café", 6), ("$run", 7), ("x2", 9)]
        );
    }
}
