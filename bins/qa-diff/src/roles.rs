//! Source roles: which kind of evidence a changed path can give (first match wins).
//!
//! A role is an evidence boundary for QA, not a guess at the domain: a change to a
//! test proves something different from a change to a lockfile or a CI workflow.
//! [`classify`] applies the rules below in a fixed order and returns the first
//! role that matches; the order is part of the specification (for example
//! `tests/fixtures/package.json` is a test, not configuration).
//!
//! 1. test, 2. repository-workflow, 3. documentation, 4. generated, 5. command,
//! 6. analysis-rule, 7. configuration, 8. product (everything else).
//!
//! Path matching is ASCII case-insensitive because repositories mix `README` and
//! `Readme`, `Dockerfile` and `dockerfile`, `Docs/` and `docs/`. Content matching
//! is case-sensitive because the signals are identifiers in source code.
//!
//! Classification runs on every changed file, so it is cheap by construction: path
//! rules need one lowercase copy of the path, and content is only read for the
//! command and analysis-rule rules (first 64 KiB, code files only) plus the
//! generated-file header check (first 1 KiB).

use std::sync::LazyLock;

use regex::bytes::Regex;

pub use qa_records::change::Role;

/// Classify a changed file.
///
/// `path` is repository-relative with '/' separators. `content` is the file's new content
/// (None when deleted or unavailable); `binary` is git's binary flag.
pub fn classify(path: &str, content: Option<&[u8]>, binary: bool) -> Role {
    let lower = path.to_ascii_lowercase();
    let path = PathInfo::new(&lower);

    if is_test(&path) {
        Role::Test
    } else if is_repository_workflow(&path) {
        Role::RepositoryWorkflow
    } else if is_documentation(&path) {
        Role::Documentation
    } else if is_generated(&path, content, binary) {
        Role::Generated
    } else if is_command(&path, content) {
        Role::Command
    } else if is_analysis_rule(&path, content) {
        Role::AnalysisRule
    } else if is_configuration(&path) {
        Role::Configuration
    } else {
        Role::Product
    }
}

/// A lowercased repository-relative path split into the pieces the rules look at.
struct PathInfo<'a> {
    /// The whole path, without a leading `./` or `/`.
    full: &'a str,
    /// Everything before the file name; empty for files at the repository root.
    dir: &'a str,
    /// The file name (last component).
    name: &'a str,
    /// The file name without its last extension; a dotfile such as `.env` is all stem.
    stem: &'a str,
    /// The last extension without the dot, or empty.
    ext: &'a str,
}

impl<'a> PathInfo<'a> {
    fn new(path: &'a str) -> Self {
        let full = path.trim_start_matches("./").trim_start_matches('/');
        let (dir, name) = match full.rfind('/') {
            Some(i) => (&full[..i], &full[i + 1..]),
            None => ("", full),
        };
        // `i > 0` keeps dotfiles like `.env` or `.gitignore` from having an extension.
        let (stem, ext) = match name.rfind('.') {
            Some(i) if i > 0 => (&name[..i], &name[i + 1..]),
            _ => (name, ""),
        };
        PathInfo {
            full,
            dir,
            name,
            stem,
            ext,
        }
    }

    /// Directory components, outermost first. The file name is deliberately not
    /// included: `build.rs` is not a `build/` directory.
    fn dirs(&self) -> impl Iterator<Item = &'a str> {
        let dir = self.dir;
        dir.split('/').filter(|c| !c.is_empty())
    }

    fn has_dir_in(&self, names: &[&str]) -> bool {
        self.dirs().any(|d| names.contains(&d))
    }

    fn is_at_root(&self) -> bool {
        self.dir.is_empty()
    }

    fn ext_in(&self, exts: &[&str]) -> bool {
        exts.contains(&self.ext)
    }
}

/// Extensions of source files whose content may be inspected for command and
/// analysis-rule signals. Restricting the scan to code keeps data, markup and
/// tool configuration (which often mention `argv` or contain regexes) out of it.
const CODE_EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "mjs", "cjs", "ts", "go", "rb", "sh", "java", "kt",
];

/// Only the start of a file is scanned for command and analysis-rule signals:
/// imports and parser set-up live there, and it bounds the cost per file.
const CONTENT_SCAN_LIMIT: usize = 64 * 1024;

/// Generated-file markers are conventionally in the leading comment.
const HEADER_SCAN_LIMIT: usize = 1024;

fn head(content: &[u8], limit: usize) -> &[u8] {
    &content[..content.len().min(limit)]
}

/// Compile a list of patterns into one alternation, once. `(?-u)` makes `\b`
/// and `\s` ASCII-only, which keeps the lazy DFA fast on non-ASCII bytes and lets
/// the regex run on content that is not valid UTF-8.
fn alternation(patterns: &[&str]) -> Regex {
    let joined = patterns
        .iter()
        .map(|p| format!("(?:{p})"))
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&format!("(?-u){joined}")).expect("role patterns are valid regexes")
}

// ---------------------------------------------------------------------------
// 1. test

/// Directories that hold tests, test data or benchmarks. `benches` is Cargo's
/// benchmark directory and `__snapshots__` is Jest's snapshot directory.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "fixtures",
    "snapshots",
    "__snapshots__",
    "benchmarks",
    "benches",
    "bench",
    "spec",
    "__mocks__",
    "testdata",
    "e2e",
];

fn is_test(p: &PathInfo) -> bool {
    if p.has_dir_in(TEST_DIRS) || in_gradle_test_source_set(p) {
        return true;
    }
    let name = p.name;
    // Whole-word conventions only: `latest.py` or `testimony.ts` must not match.
    name.contains(".test.")
        || name.contains(".spec.")
        // Type tests (tsd's `index.test-d.ts`, vitest's `x.test-d.ts`), in a `test-d/`
        // folder or not.
        || name.contains(".test-d.")
        || p.has_dir_in(&["test-d"])
        || name.ends_with("_test.go")
        || name.ends_with("_test.py")
        // unittest's and Django's plural convention (`flaskr_tests.py`, `model_tests.py`).
        || name.ends_with("_tests.py")
        || (name.starts_with("test_") && p.ext == "py")
        || name == "conftest.py"
        // Django's per-app test module.
        || name == "tests.py"
        // Benchmarks are verification contracts, never product journeys.
        || name.contains(".bench.")
        || name.ends_with("_bench.go")
        || name.ends_with("_bench.py")
        || (name.starts_with("bench_") && p.ext == "py")
}

/// A Gradle source set of tests: `src/commonTest/kotlin/`, `src/jvmTest/java/`,
/// `src/androidTest/kotlin/` (Kotlin Multiplatform and Android name them `<target>Test`;
/// the path is lowercased, so the language directory below tells a source set).
fn in_gradle_test_source_set(p: &PathInfo) -> bool {
    let dirs: Vec<&str> = p.dirs().collect();
    dirs.windows(3).any(|w| {
        w[0] == "src"
            && w[1].len() > "test".len()
            && w[1].ends_with("test")
            && matches!(w[2], "kotlin" | "java" | "resources" | "groovy" | "scala")
    })
}

// ---------------------------------------------------------------------------
// 2. repository-workflow

fn is_repository_workflow(p: &PathInfo) -> bool {
    let full = p.full;
    if full.starts_with(".github/issue_template/")
        || full.starts_with(".gitlab/issue_templates/")
        || full.starts_with(".gitlab/merge_request_templates/")
    {
        return true;
    }
    // GitHub looks for PR templates (and legacy single-file issue templates) at the
    // root, in docs/ or in .github/, either as one file or as a directory of them.
    let rest = full
        .strip_prefix(".github/")
        .or_else(|| full.strip_prefix("docs/"))
        .unwrap_or(full);
    let first = rest.split('/').next().unwrap_or(rest);
    let is_template = |base: &str| {
        first
            .strip_prefix(base)
            .is_some_and(|after| after.is_empty() || after.starts_with('.'))
    };
    if is_template("pull_request_template") || is_template("issue_template") {
        return true;
    }
    // CODEOWNERS is only honoured in these locations (GitHub and GitLab).
    matches!(
        full,
        "codeowners" | ".github/codeowners" | "docs/codeowners" | ".gitlab/codeowners"
    )
}

// ---------------------------------------------------------------------------
// 3. documentation

const DOC_DIRS: &[&str] = &["docs", "doc", "documentation", "examples", "example"];

/// Conventional prose file names, matched as a prefix (`LICENSE-MIT`, `README.zh.md`).
const DOC_NAMES: &[&str] = &[
    "readme",
    "changelog",
    "contributing",
    "license",
    "licence",
    "authors",
    "copying",
    "notice",
];

/// Prose formats. Plain `.txt` is not here: `requirements.txt` and
/// `CMakeLists.txt` are configuration, so `.txt` only counts when doc-named.
const DOC_EXTENSIONS: &[&str] = &["md", "mdx", "markdown", "rst", "adoc", "asciidoc"];

/// Man page sections: `qa-diff.1`, `git-config.5`, `tool.1p`.
fn is_man_page(p: &PathInfo) -> bool {
    let mut ext = p.ext.bytes();
    ext.next().is_some_and(|b| (b'1'..=b'9').contains(&b))
        && ext.all(|b| b.is_ascii_lowercase())
        && (p.has_dir_in(&["man"]) || p.dirs().any(|d| d.starts_with("man")))
}

fn is_documentation(p: &PathInfo) -> bool {
    p.has_dir_in(DOC_DIRS) || p.ext_in(DOC_EXTENSIONS) || has_doc_name(p) || is_man_page(p)
}

fn has_doc_name(p: &PathInfo) -> bool {
    // A code file that merely starts with a doc word (`license_check.rs`) is code.
    if p.ext_in(CODE_EXTENSIONS) {
        return false;
    }
    DOC_NAMES.iter().any(|word| {
        p.name
            .strip_prefix(word)
            .is_some_and(|after| after.is_empty() || after.starts_with(['.', '-', '_']))
    })
}

// ---------------------------------------------------------------------------
// 4. generated

/// Third-party code and caches, wherever they sit.
const VENDORED_DIRS: &[&str] = &["vendor", "node_modules", "__pycache__"];

/// Where builds write their output: at a package's top, never inside its source tree.
const OUTPUT_DIRS: &[&str] = &["dist", "build", "target", "out", "coverage"];

/// Directories that hold a package's own source: an output directory's name below one
/// of them is a module (`src/build/usage_parser.rs`, Go's `internal/build/`).
const SOURCE_TREES: &[&str] = &["src", "lib", "internal", "pkg"];

/// True when an output directory stands outside every source tree of the path.
fn in_output_dir(p: &PathInfo) -> bool {
    for dir in p.dirs() {
        if SOURCE_TREES.contains(&dir) {
            return false;
        }
        if OUTPUT_DIRS.contains(&dir) {
            return true;
        }
    }
    false
}

/// Lockfiles without a `.lock` extension; `Cargo.lock`, `yarn.lock`,
/// `poetry.lock`, `Pipfile.lock`, `composer.lock`, `Gemfile.lock` and `uv.lock`
/// are all caught by the extension.
const LOCKFILE_NAMES: &[&str] = &[
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "bun.lockb",
    "go.sum",
];

const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "ico", "webp", "bmp", "woff", "woff2", "ttf", "otf", "eot", "pdf",
    "zip", "gz", "tgz", "bz2", "xz", "7z", "tar", "exe", "dll", "so", "dylib", "wasm", "jar",
    "class", "o", "a", "obj", "lib", "pyc",
];

/// The `@generated` marker and Go's `Code generated ... DO NOT EDIT.` line.
/// The literals are split with empty groups so that this file's own source does
/// not carry the markers and get classified as generated.
static GENERATED_MARKER: LazyLock<Regex> =
    LazyLock::new(|| alternation(&[r"@gen(?:)erated", r"DO NOT(?:) EDIT"]));

fn is_generated(p: &PathInfo, content: Option<&[u8]>, binary: bool) -> bool {
    p.has_dir_in(VENDORED_DIRS)
        || in_output_dir(p)
        || p.ext == "lock"
        || LOCKFILE_NAMES.contains(&p.name)
        || p.name.ends_with(".min.js")
        || p.name.ends_with(".min.css")
        || p.ext_in(&["map", "snap"])
        || binary
        || p.ext_in(BINARY_EXTENSIONS)
        || content.is_some_and(|c| GENERATED_MARKER.is_match(head(c, HEADER_SCAN_LIMIT)))
}

// ---------------------------------------------------------------------------
// 5. command

/// Directories that hold a repository's own executables by convention: `bin/` (npm,
/// Cargo's `src/bin/`), Go's `cmd/<tool>/`.
const COMMAND_DIRS: &[&str] = &["bin", "cmd"];

/// Signals that a file is an entry point of the repository's own executable: where a
/// process starts, not where a command line is parsed. A library whose product is a
/// command-line parser (cobra, commander, clap) defines and uses parsing APIs on every
/// page and is still a library; its users' `main` is the command. Each pattern is
/// anchored on an identifier boundary so prose and longer names miss.
const ENTRY_POINT_PATTERNS: &[&str] = &[
    // Rust: a top-level `fn main`.
    r"(?m)^(?:pub\s+)?(?:async\s+)?fn\s+main\s*\(",
    // Go: the `main` package.
    r"(?m)^package\s+main\b",
    // Python: the script guard.
    r#"\bif\s+__name__\s*==\s*['"]__main__['"]"#,
    // JavaScript, TypeScript, Python, Ruby: an interpreter line, which npm's `bin`
    // entries and installed scripts need to run (Rust's `#![attr]` is no such line).
    r"\A#![^\[]",
    // Ruby: the script guard.
    r"\b__FILE__\s*==\s*\$(?:0|PROGRAM_NAME)\b",
    // Shell: a script that reads its own options.
    r"\bgetopts\b",
    // JVM: a `main` that takes the argument vector.
    r"\bstatic\s+void\s+main\s*\(\s*(?:final\s+)?String\b",
    r"\bfun\s+main\s*\(",
];

static ENTRY_POINT: LazyLock<Regex> = LazyLock::new(|| alternation(ENTRY_POINT_PATTERNS));

fn is_command(p: &PathInfo, content: Option<&[u8]>) -> bool {
    // A build script (`build.rs`, `setup.py`) has a `main` too, but is configuration.
    !is_configuration(p)
        && (p.has_dir_in(COMMAND_DIRS)
            || p.full == "src/main.rs"
            || p.full.ends_with("/src/main.rs")
            || p.name == "__main__.py"
            || code_content(p, content).is_some_and(|c| matches_in_code(&ENTRY_POINT, c, p)))
}

/// True when `re` matches somewhere that is code: not inside a string literal and not on
/// a comment line. An analyzer whose regex or message names `sys.argv` holds matcher
/// vocabulary, not argument parsing. A match that starts with its own quote (an import
/// such as `require('yargs')`) is code.
fn matches_in_code(re: &Regex, content: &[u8], p: &PathInfo) -> bool {
    // Rust's `'` also opens lifetimes, so only `"` delimits its strings.
    let quotes: &[u8] = match p.ext {
        "rs" => b"\"",
        "go" => b"\"`",
        _ => b"\"'`",
    };
    let hash_comments = matches!(p.ext, "py" | "rb" | "sh");
    re.find_iter(content).any(|m| {
        let line_start = content[..m.start()]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let before = &content[line_start..m.start()];
        let lead = before.trim_ascii_start();
        let comment = lead.starts_with(b"//")
            || lead.starts_with(b"/*")
            || lead.starts_with(b"* ")
            || (hash_comments && lead.starts_with(b"#") && !lead.starts_with(b"#!"));
        !comment && !quotes.iter().any(|&q| unescaped(before, q) % 2 == 1)
    })
}

/// How many times `quote` occurs in `text` not preceded by a backslash.
fn unescaped(text: &[u8], quote: u8) -> usize {
    text.iter()
        .enumerate()
        .filter(|&(i, &b)| b == quote && (i == 0 || text[i - 1] != b'\\'))
        .count()
}

/// The scannable head of a code file's content, or None for anything else.
fn code_content<'c>(p: &PathInfo, content: Option<&'c [u8]>) -> Option<&'c [u8]> {
    if !p.ext_in(CODE_EXTENSIONS) {
        return None;
    }
    content.map(|c| head(c, CONTENT_SCAN_LIMIT))
}

// ---------------------------------------------------------------------------
// 6. analysis-rule

/// Words in a directory or file stem that name rule-like code.
const ANALYSIS_NAME_WORDS: &[&str] = &[
    "analyzer",
    "analyser",
    "analysis",
    "rule",
    "lint",
    "matcher",
    "classifier",
    "classify",
    "scanner",
    "detector",
    "heuristic",
];

/// Pattern-matching structure: regex constructors and literals, glob/pattern
/// matching calls, and AST visitors. A name alone is not enough, since a
/// `rules.ts` of UI copy strings has the name but none of this structure.
const PATTERN_STRUCTURE_PATTERNS: &[&str] = &[
    // Regex constructors across languages.
    r"\bRegex(?:Set|Builder)?::new\s*\(",
    r"\bregex!\s*\(",
    r"\bRegExp\s*\(",
    r"\bre\.(?:compile|match|fullmatch|search|findall|finditer|sub|split)\s*\(",
    r"\bregexp\.(?:MustCompile|Compile|Match)\w*\s*\(",
    r"\bRegexp\.new\b",
    r"\bPattern\.compile\s*\(",
    // A JS regex literal where an expression starts (after `=`, `(`, `,`, `:`,
    // `[`, `!`, `&`, `|`, `?`, `{` or `return`), so division (`a / b`), comments
    // (`//`, `/*`) and URLs (`https://`) do not look like one.
    r"(?:[=(,:\[!&|?{]|\breturn)\s*/(?:[^/*\s\\\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])*/[dgimsuvy]*",
    // Glob and pattern tables.
    r"\.matches\s*\(",
    r"\bis_match\s*\(",
    r"\.test\s*\(",
    r"\bfnmatch\b",
    r"\bGlob(?:Set)?(?:Builder)?::new\b",
    r"\b(?:minimatch|micromatch|picomatch)\b",
    // AST visitors (`visit_expr`, `ast.NodeVisitor`, `impl Visitor`, `ast.walk(`).
    r"\bvisit_\w+",
    r"Visitor\b",
    r"\bwalk\s*\(",
];

static PATTERN_STRUCTURE: LazyLock<Regex> =
    LazyLock::new(|| alternation(PATTERN_STRUCTURE_PATTERNS));

fn is_analysis_rule(p: &PathInfo, content: Option<&[u8]>) -> bool {
    // Cheap name check first; a deleted file (no content) never qualifies.
    has_analysis_name(p) && code_content(p, content).is_some_and(|c| PATTERN_STRUCTURE.is_match(c))
}

fn has_analysis_name(p: &PathInfo) -> bool {
    let names_rules = |s: &str| ANALYSIS_NAME_WORDS.iter().any(|w| s.contains(w));
    // A linter's own configuration file (`eslint.config.js`, `.eslintrc.js`) is
    // configuration even though its stem says "lint", so its stem does not count.
    let stem_counts = !is_tool_config_name(p);
    p.dirs().any(names_rules) || (stem_counts && names_rules(p.stem))
}

// ---------------------------------------------------------------------------
// 7. configuration

/// Exact file names of manifests, build files, CI definitions and tool settings.
const CONFIG_NAMES: &[&str] = &[
    // CI definitions that live outside a hidden directory.
    ".gitlab-ci.yml",
    "azure-pipelines.yml",
    "jenkinsfile",
    ".travis.yml",
    "bitbucket-pipelines.yml",
    // Package manifests and build files.
    "package.json",
    "cargo.toml",
    "build.rs",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "go.mod",
    "go.work",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "gradle.properties",
    "gemfile",
    "composer.json",
    "jsconfig.json",
    "deno.json",
    "deno.jsonc",
    "dockerfile",
    "compose.yaml",
    "compose.yml",
    "makefile",
    "gnumakefile",
    "cmakelists.txt",
    "justfile",
    // Toolchain and editor settings.
    ".env",
    ".editorconfig",
    ".npmrc",
    ".nvmrc",
    ".node-version",
    ".python-version",
    ".tool-versions",
    "rust-toolchain",
    "rust-toolchain.toml",
    ".gitignore",
    ".gitattributes",
    ".gitmodules",
    ".dockerignore",
    // Tool settings that also appear below the root.
    "rustfmt.toml",
    ".rustfmt.toml",
    "clippy.toml",
    ".clippy.toml",
    "deny.toml",
    "ruff.toml",
    ".ruff.toml",
    "mypy.ini",
    "pytest.ini",
    "tox.ini",
    ".flake8",
];

/// Data formats that hold settings rather than code.
const SETTINGS_EXTENSIONS: &[&str] = &[
    "toml",
    "ini",
    "cfg",
    "conf",
    "yaml",
    "yml",
    "json",
    "jsonc",
    "json5",
    "xml",
    "properties",
];

/// Data formats taken as configuration when they sit at the repository root.
/// Deeper files in these formats are usually product data (fixtures, locale
/// tables, schemas), so below the root only recognised names count.
const ROOT_SETTINGS_EXTENSIONS: &[&str] =
    &["toml", "ini", "cfg", "conf", "yaml", "yml", "json", "jsonc"];

fn is_configuration(p: &PathInfo) -> bool {
    let name = p.name;
    // Top-level hidden directories belong to tools: `.github/workflows`,
    // `.circleci`, `.buildkite`, `.gitlab`, `.cargo`, `.vscode`, `.devcontainer`...
    p.dirs().next().is_some_and(|d| d.starts_with('.'))
        || CONFIG_NAMES.contains(&name)
        || is_tool_config_name(p)
        || (name.starts_with("requirements") && p.ext_in(&["txt", "in"]))
        || (p.has_dir_in(&["requirements"]) && p.ext_in(&["txt", "in"]))
        || (name.starts_with("tsconfig") && p.ext == "json")
        || (name.starts_with("docker-compose") && p.ext_in(&["yml", "yaml"]))
        || name.starts_with("dockerfile.")
        || p.ext == "dockerfile"
        || name.starts_with(".env.")
        || p.ext == "mk"
        || (p.is_at_root() && p.ext_in(ROOT_SETTINGS_EXTENSIONS))
}

/// File names that follow tool-configuration conventions:
///
/// * `<tool>.config.<ext>` (`vite.config.ts`, `app.config.js`, `babel.config.js`),
///   whatever the extension;
/// * a stem ending in `config` with a settings extension or none (`tsconfig.json`,
///   `.pre-commit-config.yaml`, `.cargo/config.toml`);
/// * rc dotfiles (`.eslintrc`, `.eslintrc.json`, `.prettierrc.yaml`, `.babelrc`).
///
/// Code files merely named after config (`config.ts`, `config_panel.tsx`,
/// `ConfigPanel.tsx`) are deliberately not matched: they are product code that
/// happens to model settings, and their behaviour is product behaviour.
fn is_tool_config_name(p: &PathInfo) -> bool {
    let name = p.name;
    if name.contains(".config.") {
        return true;
    }
    if p.stem.ends_with("config") && (p.ext.is_empty() || p.ext_in(SETTINGS_EXTENSIONS)) {
        return true;
    }
    name.strip_prefix('.')
        .and_then(|rest| rest.split('.').next())
        .is_some_and(|tool| tool.len() > 2 && tool.ends_with("rc"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(path: &str) -> Role {
        classify(path, None, false)
    }

    fn role_with(path: &str, content: &str) -> Role {
        classify(path, Some(content.as_bytes()), false)
    }

    fn assert_all(expected: Role, paths: &[&str]) {
        for path in paths {
            assert_eq!(role(path), expected, "{path}");
        }
    }

    fn assert_all_with(expected: Role, cases: &[(&str, &str)]) {
        for (path, content) in cases {
            assert_eq!(role_with(path, content), expected, "{path}");
        }
    }

    // -- test ---------------------------------------------------------------

    #[test]
    fn benchmarks_and_django_test_modules_are_tests() {
        assert_all(
            Role::Test,
            &[
                "bench/run.js",
                "src/parser.bench.ts",
                "pkg/lex_bench.go",
                "tools/bench_rules.py",
                "blog/tests.py",
            ],
        );
        // Words that merely contain "bench" or "tests" stay product.
        assert_all(
            Role::Product,
            &[
                "src/workbench.ts",
                "src/benchmark_report_view.tsx",
                "blog/contests.py",
            ],
        );
    }

    #[test]
    fn type_test_files_and_folders_are_tests_and_declarations_are_not() {
        assert_all(
            Role::Test,
            &[
                "index.test-d.ts",
                "test-d/stdio/option/generator-string.test-d.ts",
                "test-d/methods/script.ts",
                "src/types.test-d.tsx",
            ],
        );
        assert_all(
            Role::Product,
            &[
                "index.d.ts",
                "types/methods/script.d.ts",
                "src/test-data.ts",
            ],
        );
    }

    #[test]
    fn test_directories_mark_tests() {
        assert_all(
            Role::Test,
            &[
                "tests/parse.rs",
                "src/__tests__/App.tsx",
                "pkg/testdata/input.json",
                "spec/models/user_spec.rb",
                "benches/throughput.rs",
                "okhttp/src/commonTest/kotlin/okhttp3/CacheTest.kt",
                "app/src/androidTest/java/shop/LoginTest.kt",
            ],
        );
    }

    #[test]
    fn a_source_set_not_named_for_tests_is_not_a_test_directory() {
        assert_eq!(
            role("okhttp/src/commonJvmAndroid/kotlin/okhttp3/Cache.kt"),
            Role::Product
        );
        assert_eq!(role("src/main/kotlin/shop/Contest.kt"), Role::Product);
    }

    #[test]
    fn test_file_name_conventions_mark_tests() {
        assert_all(
            Role::Test,
            &[
                "src/app.test.ts",
                "src/app.spec.js",
                "pkg/server/server_test.go",
                "lib/test_utils.py",
                "lib/utils_test.py",
                "conftest.py",
            ],
        );
    }

    #[test]
    fn a_plural_tests_module_is_a_test_even_under_examples() {
        assert_eq!(role("examples/flaskr/flaskr_tests.py"), Role::Test);
        assert_eq!(role("shop/model_tests.py"), Role::Test);
        // Negative controls: a plural word that is not the `_tests` suffix, and another language.
        assert_eq!(role("examples/flaskr/flaskr.py"), Role::Documentation);
        assert_eq!(role("shop/contests.py"), Role::Product);
    }

    #[test]
    fn words_containing_test_are_not_tests() {
        assert_all(
            Role::Product,
            &[
                "src/testimony.ts",
                "src/latest.py",
                "contest/score.go",
                "src/attestation.rs",
            ],
        );
    }

    // -- repository-workflow ------------------------------------------------

    #[test]
    fn issue_and_pull_request_templates_are_repository_workflow() {
        assert_all(
            Role::RepositoryWorkflow,
            &[
                ".github/ISSUE_TEMPLATE/bug_report.yml",
                ".github/PULL_REQUEST_TEMPLATE.md",
                ".github/PULL_REQUEST_TEMPLATE/feature.md",
                "PULL_REQUEST_TEMPLATE.md",
                ".gitlab/issue_templates/Bug.md",
                ".gitlab/merge_request_templates/Default.md",
            ],
        );
    }

    #[test]
    fn codeowners_in_honoured_locations_is_repository_workflow() {
        assert_all(
            Role::RepositoryWorkflow,
            &[
                "CODEOWNERS",
                ".github/CODEOWNERS",
                "docs/CODEOWNERS",
                ".gitlab/CODEOWNERS",
            ],
        );
    }

    #[test]
    fn ci_workflows_and_lookalike_names_are_not_repository_workflow() {
        assert_eq!(role(".github/workflows/ci.yml"), Role::Configuration);
        assert_eq!(role("src/codeowners.ts"), Role::Product);
        assert_eq!(role("lib/CODEOWNERS"), Role::Product);
        assert_eq!(role("pull_request_template_helper.py"), Role::Product);
    }

    // -- documentation ------------------------------------------------------

    #[test]
    fn documentation_directories_are_documentation() {
        assert_all(
            Role::Documentation,
            &[
                "docs/guide/setup.ts",
                "doc/architecture.svg",
                "examples/basic.rs",
                "crates/core/example/demo.py",
            ],
        );
        // Even images: rule 3 precedes the binary check of rule 4.
        assert_eq!(
            classify("docs/diagram.png", Some(b"\x89PNG"), true),
            Role::Documentation
        );
    }

    #[test]
    fn prose_formats_and_conventional_names_are_documentation() {
        assert_all(
            Role::Documentation,
            &[
                "CHANGELOG.md",
                "README",
                "Readme.rst",
                "LICENSE-MIT",
                "crates/x/README.txt",
                "src/components/Button.mdx",
                "manual/install.adoc",
            ],
        );
    }

    #[test]
    fn documentation_lookalikes_are_not_documentation() {
        assert_eq!(role("src/docs_link.ts"), Role::Product);
        assert_eq!(role("src/license_check.rs"), Role::Product);
        assert_eq!(role("src/doctor.py"), Role::Product);
        assert_eq!(role("assets/wordlist.txt"), Role::Product);
        assert_eq!(role("requirements.txt"), Role::Configuration);
    }

    // -- generated ----------------------------------------------------------

    #[test]
    fn build_output_and_vendored_directories_are_generated() {
        assert_all(
            Role::Generated,
            &[
                "dist/app.js",
                "web/node_modules/left-pad/index.js",
                "vendor/github.com/pkg/errors/errors.go",
                "target/debug/build/output",
                "coverage/lcov.info",
            ],
        );
    }

    #[test]
    fn an_output_directory_inside_a_source_tree_is_a_module() {
        assert_all(
            Role::Product,
            &[
                "src/build/usage_parser.rs",
                "internal/build/plan.go",
                "lib/out/format.js",
            ],
        );
        // Control: the same names at a package's top are build output.
        assert_all(
            Role::Generated,
            &["build/usage_parser.rs", "web/dist/app.js", "out/format.js"],
        );
    }

    #[test]
    fn lockfiles_are_generated() {
        assert_all(
            Role::Generated,
            &[
                "Cargo.lock",
                "package-lock.json",
                "yarn.lock",
                "pnpm-lock.yaml",
                "bun.lockb",
                "poetry.lock",
                "go.sum",
                "web/Gemfile.lock",
            ],
        );
    }

    #[test]
    fn minified_source_maps_and_snapshot_files_are_generated() {
        assert_all(
            Role::Generated,
            &[
                "public/app.min.js",
                "public/site.min.css",
                "public/app.js.map",
                "src/view.snap",
            ],
        );
    }

    #[test]
    fn binary_files_are_generated() {
        assert_eq!(
            classify("assets/blob", Some(b"\0\x01"), true),
            Role::Generated
        );
        assert_all(
            Role::Generated,
            &["assets/logo.png", "fonts/inter.woff2", "lib/native.so"],
        );
    }

    #[test]
    fn generated_header_markers_are_generated() {
        let go = "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage pb\n";
        let rust = "// @generated by build tooling\npub struct Api;\n";
        assert_all_with(
            Role::Generated,
            &[("api/service.pb.go", go), ("src/api.rs", rust)],
        );
    }

    #[test]
    fn generated_markers_after_the_header_are_ignored() {
        let late = format!(
            "{}\n// DO NOT EDIT the table below by hand\n",
            "x".repeat(2048)
        );
        assert_eq!(role_with("src/table.rs", &late), Role::Product);
    }

    #[test]
    fn build_lookalikes_are_not_generated() {
        assert_eq!(role("src/builder.ts"), Role::Product);
        assert_eq!(role("src/output.rs"), Role::Product);
        assert_eq!(role("build.rs"), Role::Configuration);
        assert_eq!(role("app/build.gradle"), Role::Configuration);
    }

    #[test]
    fn this_module_is_not_classified_as_generated() {
        // The module's own source names the markers; it must not trip over them.
        let own = include_bytes!("roles.rs");
        assert_ne!(classify("src/roles.rs", Some(own), false), Role::Generated);
    }

    // -- command ------------------------------------------------------------

    #[test]
    fn command_directories_are_command() {
        assert_all(
            Role::Command,
            &[
                "cmd/server/main.go",
                "bin/run",
                "bin/tool.js",
                "src/bin/tool.rs",
            ],
        );
    }

    #[test]
    fn entry_point_files_are_command() {
        assert_all(
            Role::Command,
            &["src/main.rs", "crates/qa/src/main.rs", "pkg/__main__.py"],
        );
    }

    #[test]
    fn entry_point_content_is_command() {
        assert_all_with(
            Role::Command,
            &[
                (
                    "tools/gen.rs",
                    "use clap::Parser;\n\nfn main() {\n    let _ = 1;\n}\n",
                ),
                ("main.go", "package main\n\nimport \"github.com/spf13/cobra\"\n\nfunc main() {}\n"),
                (
                    "tools/report.py",
                    "import argparse\n\nif __name__ == \"__main__\":\n    argparse.ArgumentParser()\n",
                ),
                ("scripts/release.js", "#!/usr/bin/env node\nconst [, , tag] = process.argv;\n"),
                ("tools/migrate.rb", "run(ARGV) if __FILE__ == $0\n"),
                ("scripts/deploy.sh", "while getopts \"e:\" opt; do :; done"),
                ("src/App.java", "class App { public static void main(String[] args) {} }"),
            ],
        );
    }

    #[test]
    fn a_library_whose_product_is_a_command_line_parser_is_product() {
        assert_all_with(
            Role::Product,
            &[
                // cobra's own package: it defines `Command` and parses flags for its users.
                (
                    "command.go",
                    "package cobra\n\ntype Command struct{ Use string }\n\nfunc (c *Command) Execute() error { flag.Parse(); _ = os.Args; return nil }\n",
                ),
                // A Go package that builds commands with cobra for others to mount.
                (
                    "pkg/plugin/cmd_builder.go",
                    "package plugin\n\nfunc New() *cobra.Command { return &cobra.Command{Use: \"x\"} }\n",
                ),
                // commander's core: reads process.argv by default, for its users.
                (
                    "lib/command.js",
                    "const EventEmitter = require('events');\nclass Command extends EventEmitter {\n  parse(argv) { argv = argv || process.argv; }\n}\nexports.Command = Command;\n",
                ),
                // clap's builder and an options module of a binary crate.
                (
                    "clap_builder/src/builder/arg.rs",
                    "pub struct Arg;\nimpl Arg { pub fn new() -> Self { Arg } }\n",
                ),
                (
                    "src/cli.rs",
                    "use clap::Parser;\n#[derive(Parser)]\npub struct Opts { pub hidden: bool }\n",
                ),
                ("src/args.rs", "pub fn first() -> Option<String> { std::env::args().nth(1) }"),
                // A crate-level attribute is no interpreter line.
                ("src/lib.rs", "#![doc = \"Parses a command line.\"]\npub mod builder;\n"),
                ("scripts/sync.py", "import sys\nname = sys.argv[1]\n"),
            ],
        );
    }

    #[test]
    fn build_scripts_with_a_main_stay_configuration() {
        assert_eq!(
            role_with(
                "build.rs",
                "fn main() {\n    println!(\"cargo:rerun-if-changed=x\");\n}\n"
            ),
            Role::Configuration
        );
    }

    #[test]
    fn argument_words_in_product_code_are_not_command() {
        assert_all_with(
            Role::Product,
            &[
                (
                    "src/eval.rs",
                    "/// Evaluates the arguments of a call.\npub fn eval() {}",
                ),
                ("src/calc.py", "argvalue = compute(arguments)\n"),
                (
                    "src/git.rs",
                    "std::process::Command::new(\"git\").arg(\"log\").output()",
                ),
                ("src/client/api.ts", "export const fetchUser = () => {};"),
            ],
        );
    }

    #[test]
    fn man_pages_are_documentation() {
        assert_all(
            Role::Documentation,
            &[
                "man/qa-diff.1",
                "share/man/man5/tool.conf.5",
                "man/man1/x.1p",
            ],
        );
    }

    #[test]
    fn numbered_files_outside_man_directories_are_not_man_pages() {
        assert_all(Role::Product, &["src/backup.1", "data/part.2"]);
    }

    #[test]
    fn entry_point_signs_inside_strings_or_comments_are_not_command() {
        assert_all_with(
            Role::Product,
            &[
                (
                    "src/scan.rs",
                    "const P: &str = \"fn main() {}\";\nfn f() {}",
                ),
                (
                    "src/hint.py",
                    "MESSAGE = 'if __name__ == \"__main__\": run'\n",
                ),
                (
                    "src/hint.py",
                    "# if __name__ == '__main__': used to run here\nx = 1\n",
                ),
                (
                    "src/doc.go",
                    "package doc\n\n// package main holds the tool\nvar x = 1\n",
                ),
            ],
        );
    }

    #[test]
    fn entry_points_in_code_next_to_strings_are_command() {
        assert_all_with(
            Role::Command,
            &[
                ("src/run.rs", "const NAME: &str = \"run\";\nfn main() {}\n"),
                (
                    "src/run.py",
                    "name = \"x\"\nif __name__ == '__main__':\n    run(name)\n",
                ),
            ],
        );
    }

    #[test]
    fn argument_parsing_in_non_code_files_is_ignored() {
        assert_eq!(
            role_with("src/templates/usage.html", "<pre>process.argv</pre>"),
            Role::Product
        );
    }

    #[test]
    fn content_beyond_the_scan_limit_is_ignored() {
        let late = format!(
            "{}\nif __name__ == '__main__':\n    run()\n",
            "#\n".repeat(CONTENT_SCAN_LIMIT)
        );
        assert_eq!(role_with("src/job.py", &late), Role::Product);
    }

    // -- analysis-rule ------------------------------------------------------

    #[test]
    fn rule_named_code_with_pattern_structure_is_analysis_rule() {
        assert_all_with(
            Role::AnalysisRule,
            &[
                (
                    "src/scanner.py",
                    "import re\nSECRET = re.compile(r\"AKIA[0-9A-Z]{16}\")",
                ),
                (
                    "src/lint/no_console.ts",
                    "const pattern = /console\\.log\\(/g;",
                ),
                (
                    "src/rules.rs",
                    "static R: LazyLock<Regex> = LazyLock::new(|| Regex::new(\"x\").unwrap());",
                ),
                (
                    "crates/analyzer/src/walk.rs",
                    "impl<'a> Visit<'a> for Finder { fn visit_expr(&mut self) {} }",
                ),
                (
                    "pkg/detector/secrets.go",
                    "var key = regexp.MustCompile(`ghp_[A-Za-z0-9]+`)",
                ),
            ],
        );
    }

    #[test]
    fn rule_named_files_without_pattern_structure_are_product() {
        let copy = "export const rules = {\n  title: 'House rules',\n  body: 'Be kind, see https://example.com/rules',\n};\n";
        assert_eq!(role_with("src/rules_copy.ts", copy), Role::Product);
        assert_eq!(role_with("src/rules.ts", copy), Role::Product);
    }

    #[test]
    fn pattern_structure_without_a_rule_name_is_product() {
        let slug =
            "static SLUG: LazyLock<Regex> = LazyLock::new(|| Regex::new(\"[^a-z]\").unwrap());";
        assert_eq!(role_with("src/slugify.rs", slug), Role::Product);
    }

    #[test]
    fn deleted_analyzer_falls_through_to_later_rules() {
        assert_eq!(role("src/analyzer.rs"), Role::Product);
        assert_eq!(role("src/rules/config.toml"), Role::Configuration);
        assert_eq!(role("tests/analyzer.rs"), Role::Test);
    }

    #[test]
    fn linter_configuration_files_are_configuration() {
        let flat = "export default [{ files: ['**/*.ts'], ignores: [/generated/] }];";
        assert_eq!(role_with("eslint.config.js", flat), Role::Configuration);
        assert_eq!(
            role_with(
                ".eslintrc.js",
                "module.exports = { ignorePatterns: [/x/] };"
            ),
            Role::Configuration
        );
    }

    // -- configuration ------------------------------------------------------

    #[test]
    fn ci_definitions_are_configuration() {
        assert_all(
            Role::Configuration,
            &[
                ".github/workflows/release.yml",
                ".gitlab-ci.yml",
                ".circleci/config.yml",
                "azure-pipelines.yml",
                "Jenkinsfile",
                ".buildkite/pipeline.yml",
            ],
        );
    }

    #[test]
    fn manifests_and_build_files_are_configuration() {
        assert_all(
            Role::Configuration,
            &[
                "crates/core/Cargo.toml",
                "web/package.json",
                "pyproject.toml",
                "requirements-dev.txt",
                "go.mod",
                "Dockerfile.dev",
                "deploy/api.dockerfile",
                "docker-compose.prod.yml",
                "Makefile",
                "mk/tools.mk",
                "CMakeLists.txt",
                "crates/core/build.rs",
                ".env.local",
                "rust-toolchain.toml",
            ],
        );
    }

    #[test]
    fn tool_config_file_names_are_configuration() {
        assert_all(
            Role::Configuration,
            &[
                "web/vite.config.ts",
                "app.config.js",
                "packages/ui/babel.config.js",
                "tsconfig.base.json",
                "packages/ui/.prettierrc.yaml",
                "packages/ui/.eslintrc",
                ".pre-commit-config.yaml",
            ],
        );
    }

    #[test]
    fn settings_formats_are_configuration_only_at_the_root() {
        assert_all(
            Role::Configuration,
            &["deny.toml", "mkdocs.yml", "renovate.json", "setup.cfg"],
        );
        assert_all(
            Role::Product,
            &["src/data/countries.yaml", "assets/i18n/en.json"],
        );
    }

    #[test]
    fn code_named_after_config_is_product() {
        assert_all(
            Role::Product,
            &[
                "src/ConfigPanel.tsx",
                "src/config_panel.tsx",
                "src/config.ts",
            ],
        );
    }

    // -- product ------------------------------------------------------------

    #[test]
    fn ordinary_source_files_are_product() {
        assert_all(
            Role::Product,
            &["src/lib.rs", "app/models/user.rb", "web/src/App.tsx"],
        );
    }

    #[test]
    fn path_matching_ignores_ascii_case() {
        assert_eq!(role("Docs/Guide.MD"), Role::Documentation);
        assert_eq!(role("Tests/Unit/Parser.cs"), Role::Test);
        assert_eq!(role("DOCKERFILE"), Role::Configuration);
    }

    // -- precedence ---------------------------------------------------------

    #[test]
    fn test_precedes_configuration() {
        assert_eq!(role("tests/fixtures/package.json"), Role::Test);
    }

    #[test]
    fn test_precedes_repository_workflow() {
        assert_eq!(
            role("tests/fixtures/.github/PULL_REQUEST_TEMPLATE.md"),
            Role::Test
        );
    }

    #[test]
    fn repository_workflow_precedes_documentation() {
        assert_eq!(
            role("docs/PULL_REQUEST_TEMPLATE.md"),
            Role::RepositoryWorkflow
        );
    }

    #[test]
    fn documentation_precedes_configuration() {
        assert_eq!(role("docs/Makefile"), Role::Documentation);
    }

    #[test]
    fn documentation_precedes_command() {
        assert_eq!(role("examples/cli/main.rs"), Role::Documentation);
    }

    #[test]
    fn generated_precedes_command() {
        assert_eq!(role("vendor/bin/tool"), Role::Generated);
    }

    #[test]
    fn command_precedes_analysis_rule() {
        assert_eq!(
            role_with("src/bin/rules.rs", "let r = Regex::new(\"^--\")?;"),
            Role::Command
        );
    }

    #[test]
    fn analysis_rule_precedes_configuration() {
        assert_eq!(
            role_with(
                ".github/scripts/lint_commits.py",
                "import re\nSUBJECT = re.compile(r\"^(feat|fix): \")"
            ),
            Role::AnalysisRule
        );
    }

    // -- names --------------------------------------------------------------

    #[test]
    fn role_names_are_kebab_case() {
        let names: Vec<_> = [
            Role::Product,
            Role::Command,
            Role::AnalysisRule,
            Role::RepositoryWorkflow,
            Role::Configuration,
            Role::Test,
            Role::Documentation,
            Role::Generated,
        ]
        .into_iter()
        .map(Role::as_str)
        .collect();
        assert_eq!(
            names,
            [
                "product",
                "command",
                "analysis-rule",
                "repository-workflow",
                "configuration",
                "test",
                "documentation",
                "generated",
            ]
        );
    }
}
