//! TypeScript and JavaScript: ES imports, re-exports, `require` and dynamic `import()`,
//! resolved the way the compiler and bundlers do (relative paths, extension and `index`
//! probing, `.js` written for a `.ts` file, tsconfig `paths` and `baseUrl`, `@/` for
//! `src/` without one, and workspace packages by their package.json name, see
//! [`super::workspace`]); exported and top-level names as symbols.

use super::workspace::Workspace;
use super::{Language, Parsed, RawImport};
use crate::tree::{join, normalize, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::graph::Support;
use qa_syntax::{Grammar, SymbolKind};

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
        parse(Grammar::of(path).unwrap_or(Grammar::TypeScript), text)
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

/// Imports and declared names of one file (a class's members are not the file's).
pub fn parse(grammar: Grammar, text: &str) -> Parsed {
    super::read(grammar, text, |s| {
        matches!(
            s.kind,
            SymbolKind::Function | SymbolKind::Class | SymbolKind::Type | SymbolKind::Variable
        )
    })
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

    fn parse(text: &str) -> Parsed {
        super::parse(Grammar::TypeScript, text)
    }

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
        let parsed = parse("import * as api from './api';\nimport { type T, U } from './t';\n");
        assert_eq!(parsed.imports[0].names, ["api"]);
        assert_eq!(parsed.imports[1].names, ["T", "U"]);
    }

    #[test]
    fn code_in_a_template_string_imports_nothing() {
        // A compiler's test holds the source it compiles: `vue` is not this file's import.
        let text = "const src = `import { ref } from 'vue'\nconst x = require('./y')`;\nimport { compile } from './compile';\n";
        assert_eq!(specs(text), ["./compile"]);
    }

    #[test]
    fn the_extension_picks_the_grammar() {
        // `<T>x` is a type assertion in .ts and an element in .tsx.
        let ts = "import a from './a';\nconst n = <number>a;\nfunction f() {}\n";
        let got = <TypeScript as Language>::parse("src/a.ts", ts);
        let names: Vec<&str> = got.symbols.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["n", "f"]);
        let tsx = "import B from './b';\nexport const Page = () => <B label=\"x\" />;\n";
        let got = <TypeScript as Language>::parse("src/page.tsx", tsx);
        assert_eq!(got.imports[0].spec, "./b");
        assert_eq!(got.symbols.iter().collect::<Vec<_>>(), [("Page", 2)]);
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
    fn declarations_are_read_from_the_syntax_tree() {
        // `function *star` is a generator too (the former line pattern wanted `function*`).
        let code = "function* gen() {}\nfunction *star() {}\n  export default class A {}\nexports.x = 1;\nconstructor(a) {}\nconst café = 1;\nexport async function $run() {}\nexport default Foo;\nlet\tx2 = 3;\n";
        let parsed = parse(code);
        let names: Vec<(&str, u32)> = parsed.symbols.iter().collect();
        assert_eq!(
            names,
            [
                ("gen", 1),
                ("star", 2),
                ("A", 3),
                ("café", 6),
                ("$run", 7),
                ("x2", 9)
            ]
        );
    }

    #[test]
    fn class_members_are_not_the_file_s_names() {
        let parsed = parse("class Cart {\n  total() {}\n  static of = () => 1;\n}\n");
        assert_eq!(parsed.symbols.iter().collect::<Vec<_>>(), [("Cart", 1)]);
    }
}
