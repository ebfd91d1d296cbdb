//! Which runner of a package takes a changed test file: the paths a script hands its
//! runner (or Playwright's `testDir`) cover the file, or the runner's conventions do when the
//! script names none; and the sibling script to narrow when the `test` script's runner
//! names no path that covers the file.

use super::narrowed::{is_loadable_script, is_test_file};
use super::runners::{self, Invocation, TestRunner};
use crate::tree::{join, parent, under, Reader};
use serde_json::{Map, Value};

/// How a runner takes a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    /// Not at all: the script names paths and none covers it, or its conventions refuse it.
    No,
    /// By its conventions: the script names no path.
    Convention,
    /// A named path covers it; the number is that path's literal characters, so that the
    /// narrowest covering path is the greatest.
    Named(usize),
}

/// How `invocation` takes `file` (relative to the package the script is declared in).
pub fn cover(invocation: &Invocation, file: &str) -> Cover {
    let runner = invocation.runner;
    if invocation.paths.is_empty() {
        return match is_test_file(file, runner) {
            true => Cover::Convention,
            false => Cover::No,
        };
    }
    if !is_loadable_script(file) {
        return Cover::No;
    }
    invocation
        .paths
        .iter()
        .filter(|path| covers(path, file, runner))
        .map(|path| Cover::Named(literal_len(path)))
        .max()
        .unwrap_or(Cover::No)
}

/// True when the path argument `path` makes `runner` run `file`.
fn covers(path: &str, file: &str, runner: TestRunner) -> bool {
    let Some(path) = normal(path.trim_end_matches('/')) else {
        return false;
    };
    if path.contains(['*', '?', '{', '[']) {
        return expand_braces(&path)
            .iter()
            .any(|glob| matches_glob(glob, file));
    }
    if path == file {
        return true;
    }
    match runner {
        // Their positionals filter the files their configuration finds.
        TestRunner::Vitest | TestRunner::Jest | TestRunner::Playwright => {
            file.contains(path.as_str()) && is_test_file(file, runner)
        }
        // mocha runs every script file in a folder it is given, and below it only with
        // `--recursive` (here or in its configuration): there, by its conventions.
        TestRunner::Mocha => {
            under(file, &path).is_some_and(|rest| !rest.contains('/') || is_test_file(file, runner))
        }
        TestRunner::NodeTest | TestRunner::Ava => {
            under(file, &path).is_some() && is_test_file(file, runner)
        }
        // Karma takes no test path: its configuration lists the files.
        TestRunner::Karma => false,
    }
}

/// How many characters of a path argument are no wildcard.
fn literal_len(path: &str) -> usize {
    path.trim_start_matches("./")
        .trim_end_matches('/')
        .chars()
        .filter(|c| !"*?{},[]".contains(*c))
        .count()
}

/// The sibling script of `scripts` (not `test`, not watching) whose runner's named paths
/// cover `file` most narrowly (among equals, the first by name); else the first karma
/// script whose conventions take the file: karma's configuration, not its command line,
/// lists the files it loads.
pub fn sibling(scripts: &Map<String, Value>, file: &str) -> Option<Invocation> {
    let mut best: Option<(usize, &Invocation)> = None;
    let siblings = siblings(scripts);
    for invocation in siblings.iter() {
        if let Cover::Named(width) = cover(invocation, file) {
            if best.as_ref().is_none_or(|(w, _)| width > *w) {
                best = Some((width, invocation));
            }
        }
    }
    if let Some((_, invocation)) = best {
        return Some(invocation.clone());
    }
    siblings
        .iter()
        .find(|i| i.runner == TestRunner::Karma && is_test_file(file, TestRunner::Karma))
        .cloned()
}

/// Most `scripts` objects whose sibling runners are kept.
const MAX_READ: usize = 16;

/// The runners the sibling scripts of `scripts` start with named paths, by script name:
/// read once per `scripts` and thread (every changed test file of a range asks).
fn siblings(scripts: &Map<String, Value>) -> std::rc::Rc<Vec<Invocation>> {
    type Read = Vec<(Map<String, Value>, std::rc::Rc<Vec<Invocation>>)>;
    thread_local! {
        static READ: std::cell::RefCell<Read> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(known) = READ.with_borrow(|read| {
        read.iter()
            .find(|(s, _)| s == scripts)
            .map(|(_, known)| known.clone())
    }) {
        return known;
    }
    let mut names: Vec<&String> = scripts.keys().filter(|n| *n != "test").collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let fit = scripts
            .get(name)
            .and_then(Value::as_str)
            .is_some_and(|body| crate::refusal(body).is_none());
        if !fit {
            continue;
        }
        let script = runners::read(scripts, name);
        let Some(invocation) = script.runner.filter(|_| !script.watches) else {
            continue;
        };
        if !invocation.paths.is_empty() || invocation.runner == TestRunner::Karma {
            out.push(invocation);
        }
    }
    let out = std::rc::Rc::new(out);
    READ.with_borrow_mut(|read| {
        // A long-lived process reads many repositories: the last few packages suffice.
        if read.len() >= MAX_READ {
            read.remove(0);
        }
        read.push((scripts.clone(), out.clone()))
    });
    out
}

/// Names Playwright looks for its configuration under, in a package's folder.
const PLAYWRIGHT_CONFIGS: &[&str] = &[
    "playwright.config.ts",
    "playwright.config.js",
    "playwright.config.mts",
    "playwright.config.mjs",
    "playwright.config.cts",
    "playwright.config.cjs",
];

/// A Playwright invocation that names no path, given the folder its configuration's
/// `testDir` names (relative to the package at `dir`): only files there are its tests. Left
/// as it is when the configuration cannot be found or its `testDir` is no literal string.
pub fn with_test_dir(reader: &mut Reader, dir: &str, mut invocation: Invocation) -> Invocation {
    if invocation.runner != TestRunner::Playwright || !invocation.paths.is_empty() {
        return invocation;
    }
    let Some((config, text)) = configuration(reader, dir, &invocation, PLAYWRIGHT_CONFIGS) else {
        return invocation;
    };
    // Without `testDir`, Playwright's tests are under the configuration's own folder.
    let test_dir = match test_dir(&text) {
        Some(Some(literal)) => normal(&join(parent(&config), literal)),
        Some(None) => None,
        None => Some(parent(&config).to_string()),
    };
    if let Some(test_dir) = test_dir {
        invocation.paths.push(if test_dir.is_empty() {
            ".".to_string()
        } else {
            test_dir
        });
    }
    invocation
}

/// A runner invocation that names no path, given the tests its configuration names:
/// Playwright's `testDir`, Vitest's `test.include`. Left as it is for other runners, and
/// when the configuration cannot be read for certain.
pub fn with_configured_tests(reader: &mut Reader, dir: &str, invocation: Invocation) -> Invocation {
    match invocation.runner {
        TestRunner::Playwright => with_test_dir(reader, dir, invocation),
        TestRunner::Vitest => with_include(reader, dir, invocation),
        _ => invocation,
    }
}

/// Names Vitest looks for its configuration under, in a package's folder: a
/// `vite.config.*` serves when there is no `vitest.config.*`.
const VITEST_CONFIGS: &[&str] = &[
    "vitest.config.ts",
    "vitest.config.mts",
    "vitest.config.cts",
    "vitest.config.js",
    "vitest.config.mjs",
    "vitest.config.cjs",
    "vite.config.ts",
    "vite.config.mts",
    "vite.config.cts",
    "vite.config.js",
    "vite.config.mjs",
    "vite.config.cjs",
];

/// A Vitest invocation that names no path, given the globs its configuration's
/// `test.include` lists (relative to the configuration's folder): only files they match
/// are its tests, whatever their names (`__tests__/base.js` too). Left as it is when there
/// is no configuration, no `include` (the default takes `.test.`/`.spec.` names), or the
/// list is anything but string literals (computed, spread, or projects with their own).
fn with_include(reader: &mut Reader, dir: &str, mut invocation: Invocation) -> Invocation {
    if !invocation.paths.is_empty() {
        return invocation;
    }
    let Some((config, text)) = configuration(reader, dir, &invocation, VITEST_CONFIGS) else {
        return invocation;
    };
    let Some(globs) = include_globs(&text) else {
        return invocation;
    };
    let globs: Option<Vec<String>> = globs
        .iter()
        .map(|glob| normal(&join(parent(&config), glob)))
        .collect();
    if let Some(globs) = globs.filter(|g| !g.is_empty()) {
        invocation.paths = globs;
    }
    invocation
}

/// The string literals of `include` directly in the `test` object of a Vitest
/// configuration's text; None when there is none, when another value than string literals
/// stands in the list, or when the `test` object declares projects (each has its own).
fn include_globs(text: &str) -> Option<Vec<String>> {
    let test = object_of(text, "test")?;
    if ["projects", "workspace"]
        .iter()
        .any(|key| value_of(test, key).is_some())
    {
        return None;
    }
    let list = value_of(test, "include")?.strip_prefix('[')?;
    let mut globs = Vec::new();
    let mut rest = list;
    loop {
        rest = rest.trim_start().trim_start_matches(',').trim_start();
        if rest.starts_with(']') {
            break;
        }
        let quote = rest.chars().next().filter(|c| "\"'`".contains(*c))?;
        let end = rest[1..].find(quote)?;
        let glob = &rest[1..1 + end];
        // A negated glob or an extended one other than `?(..)`/`@(..)` is not matched here.
        if glob.contains("${")
            || glob.starts_with('!')
            || ["*(", "+(", "!("].iter().any(|x| glob.contains(x))
        {
            return None;
        }
        globs.push(glob.to_string());
        rest = &rest[2 + end..];
    }
    Some(globs)
}

/// The body of the object `key: { .. }` first found in `text`, without its braces.
fn object_of<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let mut from = 0;
    while let Some(at) = text[from..].find(key).map(|a| a + from) {
        from = at + key.len();
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
            continue;
        }
        let Some(rest) = text[from..].trim_start().strip_prefix(':') else {
            continue;
        };
        let Some(body) = rest.trim_start().strip_prefix('{') else {
            continue;
        };
        let offset = text.len() - body.len();
        let mut depth = 0usize;
        for (i, c, top) in scan(body) {
            if !top {
                continue;
            }
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' if depth == 0 => return Some(&text[offset..offset + i]),
                '}' | ']' | ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        return None;
    }
    None
}

/// What follows `key:` at the top level of an object's body, trimmed.
fn value_of<'t>(body: &'t str, key: &str) -> Option<&'t str> {
    let mut depth = 0usize;
    for (i, c, code) in scan(body) {
        if !code {
            continue;
        }
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 && body[i..].starts_with(key) => {
                let before = body[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                    continue;
                }
                let rest = body[i + key.len()..].trim_start();
                if let Some(value) = rest.strip_prefix(':') {
                    return Some(value.trim_start());
                }
            }
            _ => {}
        }
    }
    None
}

/// The characters of JavaScript source with their byte offsets, each marked true when it
/// is code (outside string literals and comments): enough to balance braces.
fn scan(text: &str) -> impl Iterator<Item = (usize, char, bool)> + '_ {
    let mut quote: Option<char> = None;
    let mut comment: Option<bool> = None; // Some(true): to the end of the line
    let mut escaped = false;
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (i, c) = chars.next()?;
        let next = chars.peek().map(|(_, n)| *n);
        if let Some(line) = comment {
            let ends = if line {
                c == '\n'
            } else {
                c == '*' && next == Some('/')
            };
            if ends {
                if !line {
                    chars.next();
                }
                comment = None;
            }
            return Some((i, c, false));
        }
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            return Some((i, c, false));
        }
        match (c, next) {
            ('/', Some('/')) => comment = Some(true),
            ('/', Some('*')) => comment = Some(false),
            ('"' | '\'' | '`', _) => quote = Some(c),
            _ => return Some((i, c, true)),
        }
        Some((i, c, false))
    })
}

/// A runner's configuration (its path relative to the package at `dir`, and its text): the
/// one its options name, else the first of `names` in the package's folder.
fn configuration(
    reader: &mut Reader,
    dir: &str,
    invocation: &Invocation,
    names: &[&str],
) -> Option<(String, String)> {
    let config = match config_option(&invocation.options) {
        Some(config) => normal(config)?,
        None => names
            .iter()
            .find(|name| reader.tree().is_file(&join(dir, name)))?
            .to_string(),
    };
    let text = reader.read(&join(dir, &config))?.text.clone();
    Some((config, text))
}

/// The value of `--config X`, `-c X` or `--config=X` among a runner's kept options.
fn config_option(options: &[String]) -> Option<&str> {
    let mut words = options.iter();
    while let Some(word) = words.next() {
        if let Some(value) = word.strip_prefix("--config=") {
            return Some(value);
        }
        if word == "--config" || word == "-c" {
            return words.next().map(String::as_str);
        }
    }
    None
}

/// `testDir` in a Playwright configuration's text: None when it is not there, Some(None)
/// when its value is no string literal (computed: unknown here).
fn test_dir(text: &str) -> Option<Option<&str>> {
    let at = text.find("testDir")?;
    let rest = text[at + "testDir".len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let Some(quote) = rest.chars().next().filter(|c| "\"'`".contains(*c)) else {
        return Some(None);
    };
    let body = &rest[1..];
    let literal = body
        .find(quote)
        .map(|end| &body[..end])
        .filter(|v| !v.contains("${"));
    Some(literal)
}

/// A relative path with `.` and `..` resolved; None when it leaves its base or is
/// absolute.
fn normal(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// How many alternatives a glob's braces may expand to: a script is data.
const MAX_ALTERNATIVES: usize = 64;

/// `a/{b,c}/*.js` as `a/b/*.js` and `a/c/*.js`, bounded.
fn expand_braces(glob: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut pending = vec![glob.to_string()];
    while let Some(glob) = pending.pop() {
        // `{a,b}`, and the extended `?(a|b)` (none or one) and `@(a|b)` (one).
        let brace = glob.find('{').map(|o| (o, 1, '}', ",", false));
        let ext = ["?(", "@("]
            .iter()
            .filter_map(|x| glob.find(x).map(|o| (o, 2, ')', "|", x.starts_with('?'))))
            .min();
        let first = match (brace, ext) {
            (Some(b), Some(e)) => Some(b.min(e)),
            (b, e) => b.or(e),
        };
        let Some((open, width, closer, bar, optional)) = first else {
            done.push(glob);
            continue;
        };
        let Some(close) = glob[open..].find(closer).map(|c| open + c) else {
            done.push(glob);
            continue;
        };
        let inner = &glob[open + width..close];
        let mut choices: Vec<&str> = inner.split(bar).collect();
        if optional {
            choices.push("");
        }
        for choice in choices {
            if done.len() + pending.len() >= MAX_ALTERNATIVES {
                break;
            }
            pending.push(format!("{}{choice}{}", &glob[..open], &glob[close + 1..]));
        }
    }
    done
}

/// Path glob matching: `**` spans folders (none too), `*` and `?` stay within one name.
fn matches_glob(glob: &str, path: &str) -> bool {
    let glob: Vec<&str> = glob.split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    segments_match(&glob, &path)
}

fn segments_match(glob: &[&str], path: &[&str]) -> bool {
    let Some((first, later)) = glob.split_first() else {
        return path.is_empty();
    };
    if *first == "**" {
        return (0..=path.len()).any(|skip| segments_match(later, &path[skip..]));
    }
    let Some((name, below)) = path.split_first() else {
        return false;
    };
    name_matches(first.as_bytes(), name.as_bytes()) && segments_match(later, below)
}

/// One name against one glob segment: `*` any run, `?` one character, `[jt]` / `[!x]` /
/// `[a-z]` one character of a class.
fn name_matches(glob: &[u8], name: &[u8]) -> bool {
    match glob.first() {
        None => name.is_empty(),
        Some(b'*') => (0..=name.len()).any(|at| name_matches(&glob[1..], &name[at..])),
        Some(b'?') => !name.is_empty() && name_matches(&glob[1..], &name[1..]),
        Some(b'[') if glob[1..].contains(&b']') => {
            let close = 1 + glob[1..].iter().position(|c| *c == b']').unwrap_or(0);
            let Some(c) = name.first() else {
                return false;
            };
            in_class(&glob[1..close], *c) && name_matches(&glob[close + 1..], &name[1..])
        }
        Some(c) => name.first() == Some(c) && name_matches(&glob[1..], &name[1..]),
    }
}

/// True when `c` is in the class body `class` (between the brackets).
fn in_class(class: &[u8], c: u8) -> bool {
    let (negated, class) = match class.first() {
        Some(b'!' | b'^') => (true, &class[1..]),
        _ => (false, class),
    };
    let mut found = false;
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == b'-' {
            found |= (class[i]..=class[i + 2]).contains(&c);
            i += 3;
        } else {
            found |= class[i] == c;
            i += 1;
        }
    }
    found != negated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::{scripts, tree_with};

    fn invocation(body: &str) -> Invocation {
        runners::read(&scripts(&[("test", body)]), "test")
            .runner
            .unwrap()
    }

    /// uptime-kuma's scripts: the `test` script's backend step is an opaque script, its
    /// e2e step a Playwright run; two siblings run node's runner on the backend tests.
    const UPTIME: &[(&str, &str)] = &[
        ("test", "npm run test-backend && npm run test-e2e"),
        ("test-backend", "node test/test-backend.mjs"),
        (
            "test-backend-22",
            "cross-env TEST_BACKEND=1 node --test --test-reporter=spec \"test/backend-test/**/*.js\"",
        ),
        (
            "test-backend-20",
            "cross-env TEST_BACKEND=1 node --test --test-reporter=spec test/backend-test",
        ),
        (
            "test-e2e",
            "playwright test --config ./config/playwright.config.js",
        ),
        (
            "test-e2e-ui",
            "playwright test --config ./config/playwright.config.js --ui",
        ),
    ];

    #[test]
    fn a_glob_argument_covers_the_files_it_matches_and_no_others() {
        let mocha = invocation("mocha 'test/unit/**/*.js' --timeout 30000");
        assert!(matches!(
            cover(&mocha, "test/unit/utils/utils.js"),
            Cover::Named(_)
        ));
        assert!(matches!(
            cover(&mocha, "test/unit/helpers/composeSignals.js"),
            Cover::Named(_)
        ));
        assert_eq!(cover(&mocha, "test/module/test.js"), Cover::No);
        assert_eq!(cover(&mocha, "test/unit/data.json"), Cover::No);
    }

    #[test]
    fn a_folder_argument_covers_the_tests_below_it() {
        let node = invocation("node --test test/backend-test");
        assert!(matches!(
            cover(&node, "test/backend-test/monitors/test-oracledb.js"),
            Cover::Named(_)
        ));
        assert_eq!(cover(&node, "test/e2e/specs/a.spec.js"), Cover::No);
    }

    #[test]
    fn a_mocha_folder_covers_its_files_and_below_only_tests_by_convention() {
        let mocha = invocation("mocha --check-leaks test/ test/acceptance/");
        assert!(matches!(
            cover(&mocha, "test/app.router.js"),
            Cover::Named(_)
        ));
        assert!(matches!(
            cover(&mocha, "test/acceptance/auth.js"),
            Cover::Named(_)
        ));
        assert_eq!(cover(&mocha, "test/support/env.js"), Cover::No);
        assert_eq!(cover(&mocha, "lib/router.js"), Cover::No);
    }

    #[test]
    fn a_runner_naming_no_path_takes_files_by_its_conventions() {
        let vitest = invocation("vitest run");
        assert_eq!(cover(&vitest, "src/a.test.ts"), Cover::Convention);
        assert_eq!(cover(&vitest, "src/a.ts"), Cover::No);
    }

    #[test]
    fn brace_alternatives_are_each_a_glob() {
        let jest = invocation("jest 'src/{app,lib}/**/*.test.ts'");
        assert!(matches!(
            cover(&jest, "src/lib/x/a.test.ts"),
            Cover::Named(_)
        ));
        assert_eq!(cover(&jest, "src/other/a.test.ts"), Cover::No);
    }

    #[test]
    fn a_sibling_whose_paths_cover_the_file_is_found_the_narrowest_first() {
        let s = scripts(UPTIME);
        let found = sibling(&s, "test/backend-test/check-translations.test.js").unwrap();
        assert_eq!(found.runner, TestRunner::NodeTest);
        // The glob names more than the folder does.
        assert_eq!(found.paths, ["test/backend-test/**/*.js"]);
        assert_eq!(found.env, [("TEST_BACKEND".into(), "1".into())]);
    }

    #[test]
    fn a_sibling_whose_paths_do_not_cover_the_file_is_not_used() {
        let s = scripts(UPTIME);
        assert_eq!(sibling(&s, "test/e2e/specs/status-page.spec.js"), None);
        assert_eq!(sibling(&s, "server/model/monitor.js"), None);
    }

    #[test]
    fn a_spec_file_no_named_path_covers_goes_to_the_karma_script() {
        let s = scripts(&[
            ("test", "npm run test:mocha && npm run test:karma"),
            ("test:mocha", "mocha test/unit/**/*.js"),
            ("test:karma", "karma start karma.conf.cjs --single-run"),
        ]);
        let karma = sibling(&s, "test/specs/helpers/toJSON.spec.js").unwrap();
        assert_eq!(karma.runner, TestRunner::Karma);
        // Controls: a named path still wins, and a file karma's conventions refuse stays.
        assert_eq!(
            sibling(&s, "test/unit/utils.js").map(|i| i.runner),
            Some(TestRunner::Mocha)
        );
        assert_eq!(sibling(&s, "test/specs/__helpers.js"), None);
    }

    #[test]
    fn a_watching_sibling_is_not_used() {
        let s = scripts(&[
            ("test", "node scripts/run-tests.mjs"),
            ("test:dev", "mocha --watch test/unit"),
        ]);
        assert_eq!(sibling(&s, "test/unit/a.js"), None);
        let s = scripts(&[
            ("test", "node scripts/run-tests.mjs"),
            ("test:once", "mocha test/unit"),
        ]);
        assert!(sibling(&s, "test/unit/a.js").is_some());
    }

    #[test]
    fn siblings_read_once_answer_only_for_the_scripts_they_were_read_from() {
        let covering = scripts(&[("test:unit", "mocha test/unit")]);
        let other = scripts(&[("test:unit", "mocha test/other")]);
        for _ in 0..2 {
            assert!(sibling(&covering, "test/unit/a.js").is_some());
            assert_eq!(sibling(&other, "test/unit/a.js"), None);
        }
    }

    #[test]
    fn equally_narrow_siblings_are_chosen_by_name() {
        let s = scripts(&[("unit-b", "mocha test/unit"), ("unit-a", "ava test/unit")]);
        assert_eq!(
            sibling(&s, "test/unit/a.js").unwrap().runner,
            TestRunner::Ava
        );
    }

    #[test]
    fn playwright_takes_only_files_under_its_configured_test_dir() {
        let (_d, tree) = tree_with(&[(
            "config/playwright.config.js",
            "export default defineConfig({\n    testDir: \"../test/e2e/specs\",\n});\n",
        )]);
        let e2e = invocation("playwright test --config ./config/playwright.config.js");
        let e2e = with_test_dir(&mut tree.reader(), "", e2e);
        assert_eq!(e2e.paths, ["test/e2e/specs"]);
        assert!(matches!(
            cover(&e2e, "test/e2e/specs/status-page.spec.js"),
            Cover::Named(_)
        ));
        assert_eq!(
            cover(&e2e, "test/backend-test/check-translations.test.js"),
            Cover::No
        );
    }

    #[test]
    fn playwright_without_test_dir_takes_its_configurations_folder_and_a_computed_one_is_unknown() {
        let (_d, tree) = tree_with(&[
            (
                "e2e/playwright.config.ts",
                "export default { retries: 1 }\n",
            ),
            (
                "playwright.config.ts",
                "export default { testDir: path.join(__dirname, 'e2e') }\n",
            ),
        ]);
        let plain = invocation("playwright test -c e2e/playwright.config.ts");
        assert_eq!(with_test_dir(&mut tree.reader(), "", plain).paths, ["e2e"]);
        let computed = invocation("playwright test");
        assert!(with_test_dir(&mut tree.reader(), "", computed)
            .paths
            .is_empty());
    }

    #[test]
    fn vitest_takes_the_files_its_configured_include_matches_whatever_their_names() {
        let (_d, tree) = tree_with(&[(
            "vitest.config.ts",
            "export default defineConfig({\n  test: {\n    // tests live beside fixtures\n    include: [\"**/__tests__/**/*.[jt]s?(x)\"],\n    coverage: { include: [\"src/**\"] },\n  },\n})\n",
        )]);
        let vitest = with_configured_tests(&mut tree.reader(), "", invocation("vitest run"));
        assert_eq!(vitest.paths, ["**/__tests__/**/*.[jt]s?(x)"]);
        assert!(matches!(
            cover(&vitest, "__tests__/base.js"),
            Cover::Named(_)
        ));
        assert!(matches!(
            cover(&vitest, "__tests__/sub/map.tsx"),
            Cover::Named(_)
        ));
        assert_eq!(cover(&vitest, "src/utils.test.ts"), Cover::No);
    }

    #[test]
    fn vitest_without_a_test_include_keeps_its_conventions_and_coverage_include_is_not_one() {
        let (_d, tree) = tree_with(&[(
            "vite.config.mjs",
            "export default { plugins: [vue()], test: { environment: 'jsdom', coverage: { include: ['src/**'] } } }\n",
        )]);
        let vitest = with_configured_tests(&mut tree.reader(), "", invocation("vitest run"));
        assert!(vitest.paths.is_empty());
        assert_eq!(cover(&vitest, "src/a.test.ts"), Cover::Convention);
        assert_eq!(cover(&vitest, "__tests__/base.js"), Cover::No);
    }

    #[test]
    fn vitest_include_that_is_computed_or_split_into_projects_is_unknown() {
        for config in [
            "export default { test: { include: [...configDefaults.include, 'e2e/*.ts'] } }",
            "export default { test: { projects: [{ test: { include: ['a/**'] } }], include: ['b/**'] } }",
            "export default { test: { include: ['!skip/**'] } }",
        ] {
            let (_d, tree) = tree_with(&[("vitest.config.js", config)]);
            let vitest = with_configured_tests(&mut tree.reader(), "", invocation("vitest run"));
            assert!(vitest.paths.is_empty(), "{config}");
        }
    }

    #[test]
    fn globs_read_classes_and_extended_alternatives() {
        let js = |path| {
            expand_braces("**/*.[jt]s?(x)")
                .iter()
                .any(|g| matches_glob(g, path))
        };
        assert!(js("a/b.js") && js("b.ts") && js("b.jsx") && js("b.tsx"));
        assert!(!js("b.cs") && !js("b.jsxx"));
        assert!(matches_glob("t/[!_]*.js", "t/a.js"));
        assert!(!matches_glob("t/[!_]*.js", "t/_a.js"));
        assert!(matches_glob("t/[a-c].js", "t/b.js"));
        assert!(!matches_glob("t/[a-c].js", "t/d.js"));
        let one = expand_braces("x.@(spec|test).ts");
        assert!(one.iter().any(|g| matches_glob(g, "x.spec.ts")));
        assert!(!one.iter().any(|g| matches_glob(g, "x..ts")));
    }

    #[test]
    fn globs_keep_single_stars_within_a_name() {
        assert!(matches_glob("test/*.js", "test/a.js"));
        assert!(!matches_glob("test/*.js", "test/sub/a.js"));
        assert!(matches_glob("test/**/*.js", "test/a.js"));
        assert!(matches_glob("test/?.js", "test/a.js"));
    }
}
