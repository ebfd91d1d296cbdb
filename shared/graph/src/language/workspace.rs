//! Package names and path aliases of a repository's workspaces: which package.json
//! packages an import may name (the members of root `workspaces` or pnpm-workspace.yaml
//! globs), which file of the tree a package's entry or subpath is, and the tsconfig
//! `paths` and `baseUrl` a source file is compiled with.

use super::typescript::{probe, probe_source, Package, Packages};
use crate::tree::{join, normalize, parent, Snapshot};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// Where the bare specifiers of a tree's TypeScript and JavaScript go.
#[derive(Debug, Default)]
pub struct Workspace {
    pub packages: Packages,
    /// Packages an import may name, by name, as indices into `packages.all`.
    importable: BTreeMap<String, usize>,
    /// Every package by its directory, for an alias that points at a package.
    by_dir: BTreeMap<String, usize>,
    /// By directory, the aliases of the tsconfig.json (else jsconfig.json) there: the
    /// nearest one governs the files below it, even when it has none.
    configs: BTreeMap<String, Aliases>,
}

impl Workspace {
    pub fn read(snapshot: &Snapshot) -> Workspace {
        let packages = Packages::read(snapshot);
        let importable = importable(snapshot, &packages);
        let by_dir = packages
            .all
            .iter()
            .enumerate()
            .map(|(i, p)| (p.dir.clone(), i))
            .collect();
        Workspace {
            importable,
            by_dir,
            configs: configs(snapshot),
            packages,
        }
    }

    /// The file a tsconfig of `from` maps the bare specifier `spec` to: a `paths` alias,
    /// else a file under `baseUrl`. A `paths` alias none of whose targets exists falls
    /// through to `baseUrl`, as the compiler's does.
    pub fn resolve_alias(&self, snapshot: &Snapshot, from: &str, spec: &str) -> Option<String> {
        let aliases = self.aliases_of(from)?;
        if let Some((alias, star)) = aliases.matching(spec) {
            let found = alias.targets.iter().find_map(|target| {
                let path = target.replacen('*', star, 1);
                self.target_file(snapshot, &path)
            });
            if found.is_some() {
                return found;
            }
        }
        let base = aliases.base_url.as_deref()?;
        probe(snapshot, &join(base, spec))
    }

    /// The file a workspace package's name (`@vue/reactivity`) or subpath
    /// (`@shop/ui/button`) names.
    pub fn resolve_package(&self, snapshot: &Snapshot, spec: &str) -> Option<String> {
        let (package, sub) = self.package_named(spec)?;
        match sub {
            "" => entry(snapshot, package),
            sub => subpath(snapshot, package, sub),
        }
    }

    /// The aliases of the tsconfig nearest `from`.
    fn aliases_of(&self, from: &str) -> Option<&Aliases> {
        let mut dir = parent(from);
        loop {
            if let Some(aliases) = self.configs.get(dir) {
                return Some(aliases);
            }
            if dir.is_empty() {
                return None;
            }
            dir = parent(dir);
        }
    }

    /// An alias target: a package's directory stands for its entry, as its package.json
    /// does for the compiler; else a file, with probing.
    fn target_file(&self, snapshot: &Snapshot, path: &str) -> Option<String> {
        if let Some(&i) = self.by_dir.get(path) {
            if let Some(found) = entry(snapshot, &self.packages.all[i]) {
                return Some(found);
            }
        }
        probe(snapshot, path)
    }

    /// The importable package `spec` names, and the subpath after its name.
    fn package_named<'s>(&self, spec: &'s str) -> Option<(&Package, &'s str)> {
        // A package name is one segment, or two for a scope (`@vue/reactivity`).
        let segments = if spec.starts_with('@') { 2 } else { 1 };
        let end = spec
            .match_indices('/')
            .nth(segments - 1)
            .map_or(spec.len(), |(i, _)| i);
        let &i = self.importable.get(&spec[..end])?;
        let sub = spec[end..].trim_start_matches('/');
        Some((&self.packages.all[i], sub))
    }
}

/// Conditions of an `exports` entry, in the order their targets are tried: `source`
/// names the source itself; the others name built files, which map back to sources.
const CONDITIONS: &[&str] = &[
    "source", "types", "import", "module", "default", "require", "node",
];

/// Entry fields of a package.json, after `exports`.
const ENTRY_FIELDS: &[&str] = &["source", "module", "main", "types", "typings"];

/// The source file of a package's entry. A declared entry that is TypeScript or under
/// the package's `src/` wins; then the conventional `src/index`; then any declared entry
/// of the tree (a JavaScript package's `index.js`); then `index`. A checked-in
/// `index.js` that only re-exports a build (`require('./dist/x.cjs.js')`) is what the
/// order keeps from standing for a TypeScript package.
pub fn entry(snapshot: &Snapshot, package: &Package) -> Option<String> {
    let mut declared: Vec<String> = package
        .json
        .get("exports")
        .map(|e| export_targets(e, "."))
        .unwrap_or_default();
    declared.extend(
        ENTRY_FIELDS
            .iter()
            .filter_map(|f| package.json.get(f)?.as_str().map(str::to_string)),
    );
    let found: Vec<String> = declared
        .iter()
        .filter_map(|target| entry_file(snapshot, &package.dir, target))
        .collect();
    let src = join(&package.dir, "src/");
    let is_source = |path: &&String| {
        path.starts_with(&src)
            || path
                .rsplit_once('.')
                .is_some_and(|(_, ext)| matches!(ext, "ts" | "tsx" | "mts" | "cts"))
    };
    found
        .iter()
        .find(is_source)
        .cloned()
        .or_else(|| probe(snapshot, &join(&package.dir, "src/index")))
        .or_else(|| found.first().cloned())
        .or_else(|| probe(snapshot, &join(&package.dir, "index")))
}

/// The source file of a package's subpath: its `exports` entry, else the path under
/// the package or its `src/`.
fn subpath(snapshot: &Snapshot, package: &Package, sub: &str) -> Option<String> {
    let key = format!("./{sub}");
    let exported = package
        .json
        .get("exports")
        .map(|e| export_targets(e, &key))
        .unwrap_or_default();
    exported
        .iter()
        .find_map(|target| entry_file(snapshot, &package.dir, target))
        .or_else(|| probe(snapshot, &join(&package.dir, sub)))
        .or_else(|| probe(snapshot, &join(&join(&package.dir, "src"), sub)))
}

/// The file an entry target (`./dist/x.js`, `./dist/x.d.ts`) of the package in `dir`
/// stands for: itself, or the source it was built from.
fn entry_file(snapshot: &Snapshot, dir: &str, target: &str) -> Option<String> {
    let base = normalize(dir, target)?;
    let stem = [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .find_map(|ext| base.strip_suffix(ext));
    match stem {
        Some(stem) => probe_source(snapshot, stem),
        None => probe_source(snapshot, &base),
    }
}

/// The targets `exports` gives the subpath `key` (`.` or `./sub`), most preferred first.
fn export_targets(exports: &Value, key: &str) -> Vec<String> {
    let Value::Object(map) = exports else {
        // A string or an array of fallbacks: the package's one entry.
        return match key {
            "." => condition_targets(exports),
            _ => Vec::new(),
        };
    };
    if !map.keys().any(|k| k.starts_with('.')) {
        // Conditions without subpaths: the `.` entry.
        return match key {
            "." => condition_targets(exports),
            _ => Vec::new(),
        };
    }
    if let Some(value) = map.get(key) {
        return condition_targets(value);
    }
    // Subpath patterns (`./*`, `./features/*.js`): the longest prefix that matches.
    let pattern = map
        .iter()
        .filter_map(|(k, v)| {
            let (prefix, suffix) = k.split_once('*')?;
            let star = key.strip_prefix(prefix)?.strip_suffix(suffix)?;
            Some((prefix.len(), star, v))
        })
        .max_by_key(|(len, _, _)| *len);
    match pattern {
        Some((_, star, value)) => condition_targets(value)
            .into_iter()
            .map(|t| t.replace('*', star))
            .collect(),
        None => Vec::new(),
    }
}

/// The strings of a conditional export, preferred conditions first.
fn condition_targets(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(condition_targets).collect(),
        Value::Object(map) => {
            let preferred = CONDITIONS.iter().filter_map(|c| map.get(*c));
            let others = map
                .iter()
                .filter(|(k, _)| !CONDITIONS.contains(&k.as_str()))
                .map(|(_, v)| v);
            preferred
                .chain(others)
                .flat_map(condition_targets)
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The packages an import may name. Where the tree declares workspaces (a package.json
/// `workspaces`, a pnpm-workspace.yaml), those are the workspace roots and their members;
/// elsewhere a package.json is a fixture, an example or a template, which code of the
/// tree does not import by name. A tree declaring none keeps every named package.
fn importable(snapshot: &Snapshot, packages: &Packages) -> BTreeMap<String, usize> {
    let mut roots: Vec<(String, Vec<String>)> = packages
        .all
        .iter()
        .filter_map(|p| Some((p.dir.clone(), npm_workspaces(p.json.get("workspaces")?))))
        .collect();
    for path in snapshot.named("pnpm-workspace.yaml") {
        let globs = snapshot.text(path).map(|t| pnpm_packages(&t));
        roots.push((parent(path).to_string(), globs.unwrap_or_default()));
    }
    let member = |dir: &str| {
        roots.is_empty()
            || roots.iter().any(|(root, globs)| {
                let Some(rel) = relative_to(root, dir) else {
                    return false;
                };
                rel.is_empty() || in_globs(globs, rel)
            })
    };
    let mut importable = BTreeMap::new();
    for (i, package) in packages.all.iter().enumerate() {
        if let Some(name) = package.name().filter(|_| member(&package.dir)) {
            importable.entry(name.to_string()).or_insert(i);
        }
    }
    importable
}

/// `dir` relative to `root`, when it is `root` or below it.
fn relative_to<'a>(root: &str, dir: &'a str) -> Option<&'a str> {
    match root {
        "" => Some(dir),
        _ if dir == root => Some(""),
        _ => dir.strip_prefix(root)?.strip_prefix('/'),
    }
}

/// package.json `workspaces`: an array of globs, or Yarn's `{ "packages": [...] }`.
fn npm_workspaces(value: &Value) -> Vec<String> {
    let list = match value {
        Value::Object(map) => map.get("packages"),
        other => Some(other),
    };
    list.and_then(Value::as_array)
        .map(|globs| {
            globs
                .iter()
                .filter_map(|g| g.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The `packages:` globs of a pnpm-workspace.yaml, block (`- 'packages/*'`) or flow
/// (`['a/*', 'b/*']`) style.
fn pnpm_packages(text: &str) -> Vec<String> {
    let unquote = |item: &str| {
        let item = item.split(" #").next().unwrap_or(item).trim();
        item.trim_matches(|c| c == '\'' || c == '"').to_string()
    };
    let mut globs = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("packages:") else {
            continue;
        };
        let rest = rest.trim();
        if let Some(flow) = rest.strip_prefix('[') {
            let flow = flow.split(']').next().unwrap_or(flow);
            globs.extend(flow.split(',').map(unquote).filter(|g| !g.is_empty()));
            break;
        }
        for item in lines.by_ref() {
            let trimmed = item.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match trimmed.strip_prefix('-') {
                Some(glob) if item.starts_with([' ', '\t', '-']) => globs.push(unquote(glob)),
                _ => break,
            }
        }
        break;
    }
    globs
}

/// True when a workspace glob list takes the directory `rel`: a glob matches it and no
/// later `!` glob excludes it.
fn in_globs(globs: &[String], rel: &str) -> bool {
    let dir: Vec<&str> = rel.split('/').collect();
    let mut taken = false;
    for glob in globs {
        let (negated, glob) = match glob.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, glob.as_str()),
        };
        let glob = glob.trim_start_matches("./").trim_end_matches('/');
        let pattern: Vec<&str> = glob.split('/').filter(|s| !s.is_empty()).collect();
        if glob_matches(&pattern, &dir) {
            taken = !negated;
        }
    }
    taken
}

/// Segment-wise glob matching: `**` spans any number of directories, `*` any part of one.
fn glob_matches(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| glob_matches(rest, &path[skip..])),
        Some((segment, rest)) => path
            .split_first()
            .is_some_and(|(dir, below)| wildcard(segment, dir) && glob_matches(rest, below)),
    }
}

/// `*` in `pattern` matches any run of characters of `text`.
fn wildcard(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            let Some(rest) = text.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| wildcard(tail, &rest[i..]))
        }
    }
}

/// The `paths` and `baseUrl` a tsconfig gives the files it governs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Aliases {
    /// The directory `baseUrl` names, from the repository root.
    base_url: Option<String>,
    paths: Vec<PathAlias>,
}

/// One `paths` entry: a pattern with at most one `*`, and its targets from the
/// repository root (a `*` in them takes what the pattern's matched).
#[derive(Debug, Clone, PartialEq, Eq)]
struct PathAlias {
    prefix: String,
    /// After the `*`; None for an exact pattern.
    suffix: Option<String>,
    targets: Vec<String>,
}

impl Aliases {
    /// The alias `spec` matches and what its `*` matched: an exact pattern first, else
    /// the wildcard pattern with the longest prefix, as the compiler picks.
    fn matching<'s>(&self, spec: &'s str) -> Option<(&PathAlias, &'s str)> {
        if let Some(exact) = self
            .paths
            .iter()
            .find(|a| a.suffix.is_none() && a.prefix == spec)
        {
            return Some((exact, ""));
        }
        self.paths
            .iter()
            .filter_map(|a| {
                let suffix = a.suffix.as_deref()?;
                let star = spec.strip_prefix(a.prefix.as_str())?.strip_suffix(suffix)?;
                Some((a, star))
            })
            .max_by_key(|(a, _)| a.prefix.len())
    }
}

/// The aliases of every tsconfig.json and jsconfig.json of the tree, by directory.
fn configs(snapshot: &Snapshot) -> BTreeMap<String, Aliases> {
    let mut configs = BTreeMap::new();
    // jsconfig.json first, so a tsconfig.json beside it replaces it.
    for name in ["jsconfig.json", "tsconfig.json"] {
        for path in snapshot.named(name) {
            let options = compiler_options(snapshot, path, &mut HashSet::new());
            configs.insert(parent(path).to_string(), options.aliases());
        }
    }
    configs
}

/// `baseUrl` and `paths` as a config and the configs it extends set them, each with the
/// directory of the config that set it (relative values are relative to that).
#[derive(Debug, Default)]
struct CompilerOptions {
    base_url: Option<String>,
    paths: Option<(String, serde_json::Map<String, Value>)>,
}

impl CompilerOptions {
    fn aliases(self) -> Aliases {
        let base_url = self.base_url;
        let paths = match self.paths {
            None => Vec::new(),
            Some((dir, map)) => {
                // Targets are relative to `baseUrl` when there is one, else to the
                // config that set `paths`.
                let base = base_url.clone().unwrap_or(dir);
                map.iter()
                    .filter_map(|(pattern, targets)| {
                        let targets: Vec<String> = targets
                            .as_array()?
                            .iter()
                            .filter_map(|t| normalize(&base, t.as_str()?))
                            .collect();
                        let (prefix, suffix) = match pattern.split_once('*') {
                            Some((p, s)) => (p.to_string(), Some(s.to_string())),
                            None => (pattern.clone(), None),
                        };
                        Some(PathAlias {
                            prefix,
                            suffix,
                            targets,
                        })
                    })
                    .collect()
            }
        };
        Aliases { base_url, paths }
    }
}

/// The options of the config at `path`, over those of the configs it extends. Only
/// configs of the tree are followed: a package's config (`@tsconfig/node20`) lives in
/// node_modules, which is not read.
fn compiler_options(
    snapshot: &Snapshot,
    path: &str,
    seen: &mut HashSet<String>,
) -> CompilerOptions {
    let mut options = CompilerOptions::default();
    // The set keeps an `extends` cycle from looping.
    if !seen.insert(path.to_string()) {
        return options;
    }
    let Some(json) = snapshot.text(path).and_then(|t| parse_jsonc(&t)) else {
        return options;
    };
    let dir = parent(path);
    let extended: Vec<&str> = match json.get("extends") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    // Later configs of an `extends` list override earlier ones, and the config itself
    // overrides them all.
    for extended in extended {
        let Some(base) = extended_config(snapshot, dir, extended) else {
            continue;
        };
        let inherited = compiler_options(snapshot, &base, seen);
        if inherited.base_url.is_some() {
            options.base_url = inherited.base_url;
        }
        if inherited.paths.is_some() {
            options.paths = inherited.paths;
        }
    }
    let own = json.get("compilerOptions");
    if let Some(base_url) = own.and_then(|o| o.get("baseUrl")).and_then(Value::as_str) {
        options.base_url = normalize(dir, base_url);
    }
    if let Some(paths) = own.and_then(|o| o.get("paths")).and_then(Value::as_object) {
        options.paths = Some((dir.to_string(), paths.clone()));
    }
    options
}

/// The tree path of a relative `extends`, with `.json` added when written without.
fn extended_config(snapshot: &Snapshot, dir: &str, extended: &str) -> Option<String> {
    if !(extended.starts_with("./") || extended.starts_with("../")) {
        return None;
    }
    let path = normalize(dir, extended)?;
    if snapshot.has(&path) {
        return Some(path);
    }
    let with_json = format!("{path}.json");
    snapshot.has(&with_json).then_some(with_json)
}

/// JSON as tsconfig allows it: comments and trailing commas.
pub fn parse_jsonc(text: &str) -> Option<Value> {
    let code = super::typescript::blank_comments(text);
    serde_json::from_str(&without_trailing_commas(&code)).ok()
}

/// The text with each comma that only blanks separate from a closing `}` or `]` left
/// out; commas in strings stay.
fn without_trailing_commas(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in code.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ',' {
            let next = code[i + 1..].trim_start();
            if next.starts_with('}') || next.starts_with(']') {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs_match_segments_and_negations_exclude() {
        let globs = ["packages/*".to_string(), "!packages/internal".to_string()];
        assert!(in_globs(&globs, "packages/reactivity"));
        assert!(!in_globs(&globs, "packages/internal"));
        assert!(!in_globs(&globs, "packages/a/b"));
        assert!(!in_globs(&globs, "examples/a"));
        assert!(in_globs(&["apps/**".to_string()], "apps/web/ui"));
        assert!(in_globs(&["./libs/ui-*/".to_string()], "libs/ui-kit"));
    }

    #[test]
    fn pnpm_workspace_lists_are_read_in_both_styles() {
        let block = "packages:\n  - 'packages/*'\n  - \"apps/**\" # apps\n  - '!**/test/**'\n\ncatalog:\n  vite: ^6\n";
        assert_eq!(
            pnpm_packages(block),
            ["packages/*", "apps/**", "!**/test/**"]
        );
        assert_eq!(pnpm_packages("packages: ['a/*', \"b\"]\n"), ["a/*", "b"]);
        assert!(pnpm_packages("catalog:\n  - x\n").is_empty());
    }

    #[test]
    fn tsconfig_json_allows_comments_and_trailing_commas() {
        let text = "{\n  // base\n  \"compilerOptions\": {\n    \"paths\": { \"@x/*\": [\"src/*\",], },\n    /* \"baseUrl\": \"no\" */\n    \"outDir\": \"a,}\",\n  },\n}\n";
        let json = parse_jsonc(text).expect("tsconfig JSON");
        assert_eq!(json["compilerOptions"]["paths"]["@x/*"], json!(["src/*"]));
        assert_eq!(json["compilerOptions"]["outDir"], "a,}");
        assert!(json["compilerOptions"].get("baseUrl").is_none());
    }

    #[test]
    fn exports_prefer_source_then_types_and_match_subpath_patterns() {
        let exports = json!({
            ".": {"require": "./dist/a.cjs", "types": "./dist/a.d.ts", "source": "./src/a.ts"},
            "./feature/*": {"import": "./dist/feature/*.js"},
            "./package.json": "./package.json",
        });
        assert_eq!(
            export_targets(&exports, "."),
            ["./src/a.ts", "./dist/a.d.ts", "./dist/a.cjs"]
        );
        assert_eq!(
            export_targets(&exports, "./feature/x"),
            ["./dist/feature/x.js"]
        );
        assert!(export_targets(&exports, "./other").is_empty());
        assert_eq!(export_targets(&json!("./index.js"), "."), ["./index.js"]);
        assert_eq!(
            export_targets(&json!({"import": "./m.js", "require": "./c.js"}), "."),
            ["./m.js", "./c.js"]
        );
    }

    #[test]
    fn an_exact_paths_pattern_beats_a_wildcard_and_the_longest_prefix_wins() {
        let alias = |prefix: &str, suffix: Option<&str>, target: &str| PathAlias {
            prefix: prefix.to_string(),
            suffix: suffix.map(str::to_string),
            targets: vec![target.to_string()],
        };
        let aliases = Aliases {
            base_url: None,
            paths: vec![
                alias("@vue/", Some(""), "packages/*/src"),
                alias("@vue/compat", None, "packages/vue-compat/src"),
                alias("@vue/runtime-", Some(""), "runtimes/*"),
            ],
        };
        let (a, star) = aliases.matching("@vue/compat").unwrap();
        assert_eq!(
            (a.targets[0].as_str(), star),
            ("packages/vue-compat/src", "")
        );
        let (a, star) = aliases.matching("@vue/runtime-core").unwrap();
        assert_eq!((a.targets[0].as_str(), star), ("runtimes/*", "core"));
        let (a, star) = aliases.matching("@vue/shared").unwrap();
        assert_eq!((a.targets[0].as_str(), star), ("packages/*/src", "shared"));
        assert!(aliases.matching("vue").is_none());
    }
}
