//! Tests and their fixtures: each test file an `assertion` node that expects the
//! modules it imports (a changed module reaches the tests that import it, as evidence,
//! never as an entrypoint), and `uses-fixture` edges to the files under `fixtures/`,
//! `__fixtures__/` or `testdata/` that the test names.

use crate::adapter::{Adapter, Context, Detection, Layer};
use crate::language::{go, has_extension, Lines};
use crate::model::{Edge, Fragment, Located, Node, NodeKey};
use crate::tree::{file_name, in_fixture_dir, parent, Snapshot, FIXTURE_DIRS, SOURCE_EXTENSIONS};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{EdgeKind, NodeKind, Support};
use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

/// The tests-and-fixtures repository adapter.
#[derive(Debug, Default)]
pub struct Assertions;

/// Directories whose source files are tests.
const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "spec", "e2e"];

/// A string literal of a test: where a fixture is named.
static LITERAL: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"['"`]([^'"`\n]{1,300})['"`]"#));

/// True for a test file: `test_x.py`, `x_test.py`, `x_tests.py`, `x_test.go`, `x.test.ts`,
/// `x.spec.js`, or a source file under a test directory (not its package markers, not
/// pytest's conftest, not fixture data).
pub fn is_test_file(path: &str) -> bool {
    if !has_extension(path, SOURCE_EXTENSIONS) || in_fixture_dir(path) {
        return false;
    }
    let name = file_name(path);
    if matches!(name, "conftest.py" | "__init__.py") {
        return false;
    }
    let by_name = (name.starts_with("test_") && name.ends_with(".py"))
        || name.ends_with("_test.py")
        || name.ends_with("_tests.py")
        || name.ends_with("_test.go")
        || name.contains(".test.")
        || name.contains(".spec.");
    by_name
        || path
            .split('/')
            .rev()
            .skip(1)
            .any(|d| TEST_DIRS.contains(&d))
}

impl Adapter for Assertions {
    fn id(&self) -> &'static str {
        "tests"
    }

    fn layer(&self) -> Layer {
        Layer::Repository
    }

    /// Structural: a test is tied to the modules it imports, not to what it asserts.
    fn support(&self) -> Support {
        Support::Structural
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match snapshot.files.keys().find(|p| is_test_file(p)) {
            Some(path) => Detection::Accept(format!("{path} is a test")),
            None => Detection::Decline("no test file".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let tests: Vec<&str> = cx
            .modules
            .keys()
            .map(String::as_str)
            .filter(|p| is_test_file(p))
            .collect();
        let mut fragment = Fragment::default();
        for test in &tests {
            let key = NodeKey::new(NodeKind::Assertion, *test);
            let whole = Located::new(*test, 0);
            fragment
                .nodes
                .push(Node::new(key.clone(), Confidence::High, whole.clone()));
            let link = |kind, to: &str, at: Located| {
                Edge::new(kind, key.clone(), NodeKey::file(to), at, Confidence::High)
            };
            fragment
                .edges
                .push(link(EdgeKind::ImplementedBy, test, whole.clone()));
            let module = &cx.modules[*test];
            for import in &module.imports {
                let at = Located::new(*test, import.line);
                fragment
                    .edges
                    .push(link(EdgeKind::Expects, &import.target, at));
            }
            // A Go test sits in the package it tests, which it does not import.
            if test.ends_with("_test.go") {
                for file in go::package_files(cx.snapshot, parent(test)) {
                    fragment
                        .edges
                        .push(link(EdgeKind::Expects, &file, whole.clone()));
                }
            }
        }
        if !cx.snapshot.fixtures.is_empty() {
            uses_fixtures(cx.snapshot, &tests, &mut fragment);
        }
        Ok(fragment)
    }
}

/// The fixture directory's parent (whose tests may use it) and the path inside it.
fn fixture_parts(path: &str) -> Option<(&str, &str)> {
    let mut offset = 0;
    for segment in path.split('/') {
        let end = offset + segment.len();
        if FIXTURE_DIRS.contains(&segment) && end < path.len() {
            let owner = path[..offset].trim_end_matches('/');
            return Some((owner, &path[end + 1..]));
        }
        offset = end + 1;
    }
    None
}

/// The string literals of a test by every `/`-suffix (`fixtures/a/order.json` also as
/// `a/order.json` and `order.json`), each with its first line.
fn named_paths(text: &str) -> HashMap<&str, u32> {
    let lines = Lines::new(text);
    let mut named = HashMap::new();
    for c in LITERAL.captures_iter(text) {
        let Some(literal) = c.get(1) else { continue };
        let line = lines.of(literal.start());
        let literal = literal.as_str();
        named.entry(literal).or_insert(line);
        for (i, _) in literal.match_indices('/') {
            named.entry(&literal[i + 1..]).or_insert(line);
        }
    }
    named
}

/// `uses-fixture` edges from each test to the fixtures under its directory's reach that
/// it names by their path inside the fixture directory or by their file name.
fn uses_fixtures(snapshot: &Snapshot, tests: &[&str], fragment: &mut Fragment) {
    // Each fixture with the path inside its directory and the prefix of the tests that
    // may use it (None: any test).
    let fixtures: Vec<(&String, &String, &str, Option<String>)> = snapshot
        .fixtures
        .iter()
        .filter_map(|(fixture, oid)| {
            let (owner, inside) = fixture_parts(fixture)?;
            let prefix = (!owner.is_empty()).then(|| format!("{owner}/"));
            Some((fixture, oid, inside, prefix))
        })
        .collect();
    let mut used = BTreeSet::new();
    // One test's text at a time: the texts are not kept.
    for test in tests {
        let Some(text) = snapshot.text(test) else {
            continue;
        };
        let names = named_paths(&text);
        for &(fixture, oid, inside, ref prefix) in &fixtures {
            if prefix
                .as_ref()
                .is_some_and(|p| !test.starts_with(p.as_str()))
            {
                continue;
            }
            let Some(line) = names.get(inside).or_else(|| names.get(file_name(fixture))) else {
                continue;
            };
            let key = NodeKey::new(NodeKind::Fixture, fixture.clone());
            if used.insert(fixture.as_str()) {
                let mut node = Node::new(key.clone(), Confidence::High, Located::new(fixture, 0));
                node.blob = Some(oid.into());
                fragment.nodes.push(node);
            }
            fragment.edges.push(Edge::new(
                EdgeKind::UsesFixture,
                NodeKey::new(NodeKind::Assertion, *test),
                key,
                Located::new(*test, *line),
                Confidence::Medium,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_are_named_or_placed_as_tests() {
        for path in [
            "tests/test_pricing.py",
            "shop/pricing_test.py",
            "examples/shop/pricing_tests.py",
            "pkg/cart_test.go",
            "src/cart.test.ts",
            "src/__tests__/cart.tsx",
            "web/e2e/checkout.spec.js",
            "tests/cli.rs",
        ] {
            assert!(is_test_file(path), "{path}");
        }
    }

    #[test]
    fn sources_markers_and_fixture_data_are_not_tests() {
        for path in [
            "src/pricing.py",
            "src/testing.ts",
            "shop/contests.py",
            "tests/conftest.py",
            "tests/__init__.py",
            "tests/fixtures/sample.py",
            "tests/README.md",
        ] {
            assert!(!is_test_file(path), "{path}");
        }
    }

    #[test]
    fn a_fixture_splits_into_its_owner_and_its_path_inside() {
        assert_eq!(
            fixture_parts("tests/fixtures/orders/big.json"),
            Some(("tests", "orders/big.json"))
        );
        assert_eq!(fixture_parts("testdata/x.golden"), Some(("", "x.golden")));
        assert_eq!(fixture_parts("src/fixtures.ts"), None);
    }
}
