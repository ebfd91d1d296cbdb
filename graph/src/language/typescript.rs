//! TypeScript and JavaScript: ES imports, re-exports, `require` and dynamic `import()`,
//! resolved without a tsconfig the way bundlers default to (relative paths, extension
//! and `index` probing, `.js` written for a `.ts` file, `@/` for `src/`, and workspace
//! packages by their package.json name); exported and top-level names as symbols.

use super::{symbols, Language, Lines, Parsed, RawImport};
use crate::tree::{join, normalize, parent, Snapshot};
use qa_shared::change::Confidence;
use qa_shared::graph::Support;
use regex::Regex;
use std::sync::LazyLock;

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
    type Tree = Packages;

    fn read_tree(snapshot: &Snapshot) -> Packages {
        Packages::read(snapshot)
    }

    fn parse(text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        packages: &Packages,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        resolve(snapshot, packages, from, &raw.spec)
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
                let json = serde_json::from_str(snapshot.text(path)?).ok()?;
                Some(Package {
                    dir: parent(path).to_string(),
                    manifest: path.to_string(),
                    json,
                })
            })
            .collect();
        Packages { all }
    }

    /// The package whose name `spec` starts with (`@shop/ui/button` -> `@shop/ui`).
    fn by_specifier<'a>(&'a self, spec: &'a str) -> Option<(&'a Package, &'a str)> {
        self.all.iter().find_map(|p| {
            let name = p.name()?;
            let rest = spec.strip_prefix(name)?;
            match rest {
                "" => Some((p, "")),
                _ => rest.strip_prefix('/').map(|sub| (p, sub)),
            }
        })
    }

    /// The nearest package holding `path`.
    pub fn holding(&self, path: &str) -> Option<&Package> {
        self.all
            .iter()
            .filter(|p| p.dir.is_empty() || path.starts_with(&format!("{}/", p.dir)))
            .max_by_key(|p| p.dir.len())
    }
}

/// The file `spec`, imported from `from`, names in this tree.
pub fn resolve(
    snapshot: &Snapshot,
    packages: &Packages,
    from: &str,
    spec: &str,
) -> Option<(String, Confidence)> {
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        let base = normalize(parent(from), spec)?;
        return probe(snapshot, &base).map(|p| (p, Confidence::High));
    }
    // `@/x` and `~/x`: the common no-config alias for the package's source root.
    if let Some(rest) = spec.strip_prefix("@/").or_else(|| spec.strip_prefix("~/")) {
        let root = packages.holding(from).map_or("", |p| p.dir.as_str());
        return [join(root, "src"), root.to_string()]
            .iter()
            .find_map(|dir| probe(snapshot, &join(dir, rest)))
            .map(|p| (p, Confidence::Medium));
    }
    let (package, sub) = packages.by_specifier(spec)?;
    if !sub.is_empty() {
        return [
            join(&package.dir, sub),
            join(&join(&package.dir, "src"), sub),
        ]
        .iter()
        .find_map(|base| probe(snapshot, base))
        .map(|p| (p, Confidence::High));
    }
    let declared = ["source", "module", "main", "types"]
        .iter()
        .filter_map(|field| package.json.get(field).and_then(|v| v.as_str()))
        .filter_map(|entry| normalize(&package.dir, entry));
    let defaults = [join(&package.dir, "src/index"), join(&package.dir, "index")];
    declared
        .chain(defaults)
        .find_map(|base| probe_source(snapshot, &base))
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
        if let Some(found) = swaps
            .iter()
            .map(|e| format!("{stem}.{e}"))
            .find(|p| snapshot.has(p))
        {
            return Some(found);
        }
    }
    PROBE
        .iter()
        .map(|e| format!("{base}.{e}"))
        .chain(PROBE.iter().map(|e| format!("{base}/index.{e}")))
        .find(|p| snapshot.has(p))
}

static IMPORT_FROM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\b(?:import|export)\s+(?:type\s+)?([\w$*{},\s]*?)\s*from\s*['"]([^'"\n]+)['"]"#)
        .expect("a valid regex")
});
static IMPORT_BARE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\bimport\s*['"]([^'"\n]+)['"]"#).expect("a valid regex"));
/// `require('./x')` / `import('./x')`, with the names a declaration binds to it
/// (`const { list } = require('./handlers')`).
static IMPORT_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*(?:await\s+)?)?\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)"#)
        .expect("a valid regex")
});
static DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:async[ \t]+)?(?:function\*?|class|const|let|var|interface|type|enum)[ \t]+([A-Za-z_$][\w$]*)")
        .expect("a valid regex")
});

/// Imports and declared names of one file; comments are blanked first so commented-out
/// imports bind nothing.
pub fn parse(text: &str) -> Parsed {
    let code = blank_comments(text);
    let lines = Lines::new(&code);
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
    let symbols = symbols(&DECLARATION, &code, &lines);
    Parsed { imports, symbols }
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

/// The text with `//` and `/* */` comments replaced by spaces (newlines kept, so line
/// numbers hold); string and template literals are left as they are.
pub fn blank_comments(text: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        Code,
        Line,
        Block,
        Quote(char),
    }
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            State::Code => match c {
                '/' if chars.peek() == Some(&'/') => {
                    state = State::Line;
                    out.push(' ');
                }
                '/' if chars.peek() == Some(&'*') => {
                    state = State::Block;
                    out.push(' ');
                }
                '"' | '\'' | '`' => {
                    state = State::Quote(c);
                    out.push(c);
                }
                _ => out.push(c),
            },
            State::Line => {
                if c == '\n' {
                    state = State::Code;
                    out.push('\n');
                } else {
                    out.push(' ');
                }
            }
            State::Block => {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    out.push_str("  ");
                    state = State::Code;
                } else {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                }
            }
            State::Quote(q) => {
                out.push(c);
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                } else if c == q || (c == '\n' && q != '`') {
                    state = State::Code;
                }
            }
        }
    }
    out
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
            parsed.symbols,
            [("Checkout".to_string(), 1), ("Local".to_string(), 2)]
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
}
