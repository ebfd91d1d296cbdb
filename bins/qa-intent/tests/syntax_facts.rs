//! What the syntax trees of a change's base and head make of real repositories, through
//! the real `qa-diff | qa-intent`: tests as the oracle, removed panics, moved versus new
//! conditions, list elements, skipped tests, and steps a tester can follow. Each fact has
//! a positive and a negative control. Needs the built qa-diff (`cargo build --bins`).

use qa_testkit::{records, Repo};
use serde_json::Value;

use crate::common::{flow, rust_crate, scenarios, strings};

fn titled<'a>(rs: &'a [Value], prefix: &str) -> Vec<&'a Value> {
    scenarios(rs)
        .into_iter()
        .filter(|s| s["data"]["title"].as_str().unwrap().starts_with(prefix))
        .collect()
}

/// Fails, listing every scenario, when one is titled `prefix...`.
fn assert_none_titled(rs: &[Value], prefix: &str) {
    assert!(titled(rs, prefix).is_empty(), "{:#?}", scenarios(rs));
}

/// Every assertion of every scenario.
fn all_assertions(rs: &[Value]) -> Vec<String> {
    scenarios(rs)
        .iter()
        .flat_map(|s| strings(&s["data"]["assertions"]))
        .map(String::from)
        .collect()
}

fn contracts(rs: &[Value]) -> Vec<&Value> {
    records::of_kind(rs, "intent")
        .into_iter()
        .flat_map(|i| i["data"]["contracts"].as_array().unwrap().iter())
        .collect()
}

const MACROS: &str = "macro_rules! xtest {\n    ($name:ident, $fun:expr) => {\n        #[test]\n        fn $name() {\n            $fun()\n        }\n    };\n}\n";

/// A Rust crate whose `sort_paths` ends in `todo!()`; the branch implements it and adds
/// a test written with the repository's own `xtest!` macro, expecting exact output.
fn sortr(with_macro: bool, fixed: bool) -> Repo {
    let mut r = rust_crate("pub fn sort_paths(paths: &mut Vec<String>, reverse: bool) {\n    if reverse {\n        todo!()\n    }\n    paths.sort();\n}\n");
    if with_macro {
        r.write("tests/macros.rs", MACROS);
    }
    r.write("tests/feature.rs", "mod macros;\n");
    r.commit("init");
    r.branch("feature");
    let body = if fixed {
        "pub fn sort_paths(paths: &mut Vec<String>, reverse: bool) {\n    paths.sort();\n    if reverse {\n        paths.reverse();\n    }\n}\n"
    } else {
        "pub fn sort_paths(paths: &mut Vec<String>, reverse: bool) {\n    if reverse {\n        todo!()\n    }\n    paths.sort_unstable();\n}\n"
    };
    r.write("src/lib.rs", body);
    r.write(
        "tests/feature.rs",
        "mod macros;\nuse walk::sort_paths;\n\nxtest!(sorts_in_reverse, || {\n    let mut paths = vec![\"a\".to_string(), \"b\".to_string()];\n    sort_paths(&mut paths, true);\n    let expected = \"b,a\";\n    eqnice!(expected, paths.join(\",\"));\n});\n",
    );
    r.commit("Sort paths in reverse when asked");
    r
}

/// The one failure scenario titled `title...`: its assertions quote test `test`
/// expecting "b,a", its evidence stands at each of `at` (file, line).
fn assert_failure_quoting(rs: &[Value], title: &str, test: &str, at: &[(&str, u64)]) {
    let failures = titled(rs, title);
    assert_eq!(failures.len(), 1, "{:#?}", scenarios(rs));
    let f = &failures[0]["data"];
    assert_eq!(f["kind"], "failure");
    let assertions = strings(&f["assertions"]);
    assert!(
        assertions
            .iter()
            .any(|a| a.contains(test) && a.contains("\"b,a\"")),
        "{assertions:?}"
    );
    let evidence: Vec<(&str, u64)> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["file"].as_str().unwrap(), e["line"].as_u64().unwrap()))
        .collect();
    for place in at {
        assert!(evidence.contains(place), "{evidence:?}");
    }
}

#[test]
fn a_removed_todo_becomes_a_failure_scenario_that_quotes_the_changed_test() {
    // The expected value stands on the `let expected = ...` line the assertion uses.
    assert_failure_quoting(
        &flow(&sortr(true, true)),
        "`sort_paths` no longer panics",
        "sorts_in_reverse",
        &[("src/lib.rs", 1), ("tests/feature.rs", 7)],
    );
}

#[test]
fn a_todo_that_stays_gives_no_fixed_panic_scenario() {
    let rs = flow(&sortr(true, false));
    assert!(titled(&rs, "`sort_paths` no longer panics").is_empty());
}

#[test]
fn the_primary_scenario_quotes_the_changed_tests_expected_value() {
    let rs = flow(&sortr(true, true));
    let primary: Vec<&Value> = scenarios(&rs)
        .into_iter()
        .filter(|s| s["data"]["kind"] == "primary")
        .collect();
    assert_eq!(primary.len(), 1);
    let assertions = strings(&primary[0]["data"]["assertions"]);
    assert!(
        assertions.contains(&"Test `sorts_in_reverse` expects `paths.join(\",\")` is \"b,a\""),
        "{assertions:?}"
    );
    assert_eq!(primary[0]["data"]["proof_gap"], Value::Null);
    let steps = strings(&primary[0]["data"]["steps"]);
    assert!(
        steps.contains(&"Call `sort_paths` as that test does"),
        "{steps:?}"
    );
}

#[test]
fn repository_test_macros_are_tests_only_when_the_repository_defines_them() {
    let rs = flow(&sortr(true, true));
    let names: Vec<&str> = contracts(&rs)
        .iter()
        .map(|c| c["title"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sorts_in_reverse"]);
    let c = contracts(&rs)[0];
    assert_eq!(c["exercises"][0]["item"], "sort_paths");
    // Without `macro_rules! xtest` the same invocation is just a macro call.
    assert!(contracts(&flow(&sortr(false, true))).is_empty());
}

/// A reader whose end-of-input check moves into the loop (`moved`) or whose branch adds
/// a new limit check (`new`).
fn reader(new_limit: bool) -> Repo {
    let mut r = Repo::new();
    r.write(
        "src/reader.ts",
        "export function readAll(chunks: number[]): number {\n  let total = 0;\n  const readlen = chunks.length;\n  if (readlen == 0) {\n    return -1;\n  }\n  for (const c of chunks) {\n    total += c;\n  }\n  return total;\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    let check = if new_limit {
        "    if (total > 4096) {\n      return -2;\n    }\n"
    } else {
        "    if (readlen == 0) {\n      return -1;\n    }\n"
    };
    r.write(
        "src/reader.ts",
        format!("export function readAll(chunks: number[]): number {{\n  let total = 0;\n  const readlen = chunks.length;\n  for (const c of chunks) {{\n{check}    total += c;\n  }}\n  return total;\n}}\n"),
    );
    r.commit("fix: stop reading at the end of the input");
    r
}

/// No boundary scenario for a condition that only moved; one for a new one.
fn assert_boundary_only_when_new(reader: fn(bool) -> Repo) {
    assert_none_titled(&flow(&reader(false)), "Boundary:");
    let rs = flow(&reader(true));
    let b = titled(&rs, "Boundary: total > 4096");
    assert_eq!(b.len(), 1, "{:#?}", scenarios(&rs));
}

#[test]
fn a_condition_that_only_moved_is_no_boundary_but_a_new_one_is() {
    assert_boundary_only_when_new(reader);
}

/// A constant list that gains an element, or a brand-new constant list.
fn kinds(existing: bool) -> Repo {
    let mut r = Repo::new();
    r.write(
        "src/kinds.rs",
        if existing {
            "pub const KINDS: &[&str] = &[\"csv\", \"json\"];\n"
        } else {
            "pub fn none() {}\n"
        },
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/kinds.rs",
        if existing {
            "pub const KINDS: &[&str] = &[\n    \"csv\",\n    \"json\",\n    \"yaml\",\n];\n"
        } else {
            "pub fn none() {}\npub const KINDS: &[&str] = &[\"csv\", \"json\", \"yaml\"];\n"
        },
    );
    r.commit("Accept yaml files as input");
    r
}

fn evidence_texts(rs: &[Value]) -> Vec<String> {
    scenarios(rs)
        .iter()
        .flat_map(|s| s["data"]["evidence"].as_array().unwrap().iter())
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

/// The element added to an existing constant list is evidence; a new list gains nothing.
fn assert_gains_only_in_existing_lists(kinds: fn(bool) -> Repo) {
    let texts = evidence_texts(&flow(&kinds(true)));
    assert!(
        texts.contains(&"`KINDS` gains \"yaml\"".to_string()),
        "{texts:?}"
    );
    let texts = evidence_texts(&flow(&kinds(false)));
    assert!(!texts.iter().any(|t| t.contains("gains")), "{texts:?}");
}

#[test]
fn an_element_added_to_a_constant_list_is_evidence_but_a_new_list_gains_nothing() {
    assert_gains_only_in_existing_lists(kinds);
}

/// A JavaScript module with a changed test that is skipped, or runs.
fn skipped(skip: bool) -> Repo {
    let mut r = Repo::new();
    r.write(
        "src/price.js",
        "export function price(n) {\n  return n;\n}\n",
    );
    r.write("src/price.test.js", "import { price } from './price';\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/price.js",
        "export function price(n) {\n  return Math.round(n * 100) / 100;\n}\n",
    );
    let call = if skip { "test.skip" } else { "test" };
    r.write(
        "src/price.test.js",
        format!("import {{ price }} from './price';\n\n{call}('rounds to cents', () => {{\n  expect(price(1.005)).toBe(1.01);\n}});\n"),
    );
    r.commit("Round prices to cents");
    r
}

/// The first scenario names the skipped test (`named`) in its proof gap and quotes no
/// assertion holding `value`.
fn assert_skip_named(repo: &Repo, named: &str, value: &str) {
    let rs = flow(repo);
    let primary = &scenarios(&rs)[0]["data"];
    let gap = primary["proof_gap"].as_str().unwrap_or("");
    assert!(gap.contains(named), "{gap}");
    assert!(!strings(&primary["assertions"])
        .iter()
        .any(|a| a.contains(value)));
}

/// The first scenario has no skip in its proof gap and quotes `assertion`.
fn assert_running_quoted(repo: &Repo, assertion: &str) {
    let rs = flow(repo);
    let primary = &scenarios(&rs)[0]["data"];
    assert!(!primary["proof_gap"]
        .as_str()
        .unwrap_or("")
        .contains("skipped"));
    let assertions = strings(&primary["assertions"]);
    assert!(assertions.contains(&assertion), "{assertions:?}");
}

#[test]
fn a_skipped_changed_test_is_named_in_the_proof_gap_and_quotes_nothing() {
    assert_skip_named(&skipped(true), "`rounds to cents` (test.skip", "1.01");
}

#[test]
fn a_running_changed_test_leaves_no_skip_gap_and_is_quoted() {
    assert_running_quoted(
        &skipped(false),
        "Test `rounds to cents` expects `price(1.005)` is `1.01`",
    );
}

#[test]
fn a_python_assert_is_quoted_as_the_expected_value() {
    let mut r = Repo::new();
    r.write("app/slug.py", "def slug(s):\n    return s\n");
    r.write("tests/test_slug.py", "from app.slug import slug\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "app/slug.py",
        "def slug(s):\n    return s.lower().replace(' ', '-')\n",
    );
    r.write(
        "tests/test_slug.py",
        "from app.slug import slug\n\n\ndef test_slug_lowercases():\n    assert slug('A B') == 'a-b'\n",
    );
    r.commit("Lowercase slugs and join words with dashes");
    let rs = flow(&r);
    let assertions = all_assertions(&rs);
    assert!(
        assertions
            .contains(&"Test `test_slug_lowercases` expects `slug('A B')` is 'a-b'".to_string()),
        "{assertions:?}"
    );
}

#[test]
fn a_go_want_binding_is_quoted_as_the_expected_value() {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/greet\n\ngo 1.22\n");
    r.write(
        "greet.go",
        "package greet\n\nfunc Hello(n string) string {\n\treturn n\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "greet.go",
        "package greet\n\nfunc Hello(n string) string {\n\treturn \"hello, \" + n\n}\n",
    );
    r.write(
        "greet_test.go",
        "package greet\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\twant := \"hello, ann\"\n\tif got := Hello(\"ann\"); got != want {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n",
    );
    r.commit("Greet people by name");
    let rs = flow(&r);
    let assertions = all_assertions(&rs);
    assert!(
        assertions.contains(&"Test `TestHello` expects `got` is \"hello, ann\"".to_string()),
        "{assertions:?}"
    );
}

#[test]
fn steps_are_sentences_not_prefixed_identifiers() {
    for repo in [
        sortr(true, true),
        reader(true),
        kinds(true),
        skipped(false),
        java_sort(true, false),
        java_reader(true),
        java_kinds(true),
    ] {
        let rs = flow(&repo);
        for s in scenarios(&rs) {
            for step in strings(&s["data"]["steps"]) {
                for prefix in ["Trigger:", "Given:", "Action:", "Change:"] {
                    assert!(!step.starts_with(prefix), "{step}");
                }
                assert!(step.contains(' '), "a bare identifier: {step}");
            }
        }
    }
}

/// A repository whose branch adds `rust` to `src/lib.rs` after `init`.
fn rust_change(base: &str, head: &str, files: &[(&str, &str, &str)], subject: &str) -> Repo {
    let mut r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", base);
    for (path, before, _) in files {
        r.write(path, before);
    }
    r.commit("init");
    r.branch("feature");
    r.write("src/lib.rs", head);
    for (path, _, after) in files {
        r.write(path, after);
    }
    r.commit(subject);
    r
}

/// The flow on a crate whose `src/lib.rs` goes from `base` to `head` in one commit.
fn rust_flow(base: &str, head: &str, subject: &str) -> Vec<Value> {
    flow(&rust_change(base, head, &[], subject))
}

const SIGNER: &str = "pub fn unsign(age: u64, max_age: u64) -> Result<(), String> {\n    if age > max_age {\n        return Err(format!(\"Signature age {age} > {max_age} seconds\"));\n    }\n    Ok(())\n}\n";

#[test]
fn a_check_copied_from_elsewhere_in_the_file_is_no_new_boundary_or_failure() {
    let head = format!("{SIGNER}\npub fn unsign_short(age: u64, max_age: u64) -> Result<(), String> {{\n    if age > max_age {{\n        return Err(format!(\"Signature age {{age}} > {{max_age}} seconds\"));\n    }}\n    Ok(())\n}}\n");
    let rs = rust_flow(SIGNER, &head, "Add a short signer for bounce ids");
    assert_none_titled(&rs, "Boundary:");
    assert_none_titled(&rs, "Failure:");
}

#[test]
fn a_new_check_in_a_new_function_is_a_boundary() {
    let head = format!("{SIGNER}\npub fn unsign_short(len: usize) -> Result<(), String> {{\n    if len > 64 {{\n        return Err(\"signature longer than 64 characters\".into());\n    }}\n    Ok(())\n}}\n");
    let rs = rust_flow(SIGNER, &head, "Refuse signatures longer than 64 characters");
    assert_eq!(
        titled(&rs, "Boundary: len > 64").len(),
        1,
        "{:#?}",
        scenarios(&rs)
    );
}

#[test]
fn a_condition_moved_to_another_file_is_no_new_boundary() {
    let main_before = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let main_after = "pub fn run(threads: usize) {\n    crate::enabled::run(threads);\n}\n";
    let enabled = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let rs = flow(&rust_change(
        "pub mod main;\n",
        "pub mod main;\npub mod enabled;\n",
        &[
            ("src/main.rs", main_before, main_after),
            ("src/enabled.rs", "", enabled),
        ],
        "Run searches through the enabled module",
    ));
    assert_none_titled(&rs, "Boundary:");
}

#[test]
fn a_compound_condition_is_no_limit_to_probe() {
    let head = "pub fn pick(index: usize, count: usize, forced: bool) -> bool {\n    if index > 0 || forced {\n        return true;\n    }\n    count > 3\n}\n";
    let rs = rust_flow("pub fn pick() {}\n", head, "Pick the entry when asked to");
    assert_none_titled(&rs, "Boundary: index > 0 ||");
}

#[test]
fn an_error_whose_message_is_only_placeholders_makes_no_failure_title() {
    let head = "pub fn check(on: bool, msg: &str) -> Result<(), String> {\n    if on {\n        return Ok(());\n    }\n    anyhow::bail!(\"{}\", msg)\n}\n";
    let rs = rust_flow(
        "pub fn check() {}\n",
        head,
        "Refuse the index without the feature",
    );
    assert_none_titled(&rs, "Failure: {}");
}

#[test]
fn a_throw_whose_arguments_changed_is_not_a_removed_throw() {
    let before = "def match_opt(opt):\n    raise NoSuchOption(opt)\n";
    let after = "def match_opt(opt, possibilities):\n    raise NoSuchOption(opt, possibilities=possibilities)\n";
    let mut r = Repo::new();
    r.write("click/parser.py", before);
    r.commit("init");
    r.branch("feature");
    r.write("click/parser.py", after);
    r.commit("Suggest close option names when an option is unknown");
    let rs = flow(&r);
    assert_none_titled(&rs, "`match_opt` no longer");
}

#[test]
fn a_new_error_exit_with_its_message_on_the_next_line_is_a_failure() {
    let head = "pub fn open(index: bool) -> anyhow::Result<()> {\n    if !index {\n        anyhow::bail!(\n            \"indexing not enabled in this build\"\n        );\n    }\n    Ok(())\n}\n";
    let rs = rust_flow(
        "pub fn open() {}\n",
        head,
        "Refuse to open an index in builds without indexing",
    );
    let failures = titled(&rs, "Failure: `open` ends in");
    assert_eq!(failures.len(), 1, "{:#?}", scenarios(&rs));
    assert!(failures[0]["data"]["title"]
        .as_str()
        .unwrap()
        .contains("indexing not enabled in this build"));
}

#[test]
fn an_ignore_list_is_no_runtime_configuration() {
    let mut r = Repo::new();
    r.write("src/app.py", "def run():\n    return 1\n");
    r.write(".gitignore", "target\n");
    r.commit("init");
    r.branch("feature");
    r.write("src/app.py", "def run():\n    return 2\n");
    r.write(".gitignore", "target\n.venv\n");
    r.commit("Return two from run and ignore the virtualenv");
    let rs = flow(&r);
    assert_none_titled(&rs, "Build and runtime verification");
}

/// A save handler that moves a status through "saving" then "saved" or "error", or
/// (`one_state`) only sets "saved".
fn save_handler(one_state: bool) -> Repo {
    let mut r = Repo::new();
    r.write(
        "src/Save.tsx",
        "export function Save() {\n  return <button>Save</button>;\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    let body = if one_state {
        "export function Save({ api }) {\n  const [status, setStatus] = useState('idle');\n  async function onSave() {\n    await api.save();\n    setStatus('saved');\n  }\n  return <button onClick={onSave}>Save</button>;\n}\n"
    } else {
        "export function Save({ api }) {\n  const [status, setStatus] = useState('idle');\n  async function onSave() {\n    setStatus('saving');\n    try {\n      await api.save();\n      setStatus('saved');\n    } catch (e) {\n      setStatus('error');\n    }\n  }\n  return <button onClick={onSave}>Save</button>;\n}\n"
    };
    r.write("src/Save.tsx", body);
    r.commit("Show the saving progress of the settings form");
    r
}

#[test]
fn a_status_moved_through_several_states_is_one_transition_and_its_failure() {
    let rs = flow(&save_handler(false));
    let t = titled(&rs, "State: `setStatus` moves through");
    assert_eq!(t.len(), 1, "{:#?}", scenarios(&rs));
    assert_eq!(
        t[0]["data"]["title"],
        "State: `setStatus` moves through \"saving\", \"saved\", \"error\""
    );
    let assertions = strings(&t[0]["data"]["assertions"]);
    assert!(
        assertions.contains(&"On success `setStatus` ends at \"saved\""),
        "{assertions:?}"
    );
    let f = titled(&rs, "Failure: `setStatus` ends at \"error\"");
    assert_eq!(f.len(), 1, "{:#?}", scenarios(&rs));
}

#[test]
fn a_single_state_is_no_state_machine() {
    let rs = flow(&save_handler(true));
    assert!(titled(&rs, "State: `setStatus` moves through").is_empty());
    assert!(titled(&rs, "Failure: `setStatus`").is_empty());
}

#[test]
fn the_expectation_quoting_the_products_new_text_comes_first() {
    let mut r = Repo::new();
    r.write(
        "src/props.js",
        "export function check(props) {\n  return props;\n}\n",
    );
    r.write("src/props.test.js", "import { check } from './props';\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/props.js",
        "export function check(props) {\n  if (props.title) {\n    console.warn('prop overrides a native property');\n  }\n  return props;\n}\n",
    );
    r.write(
        "src/props.test.js",
        "import { check } from './props';\n\ntest('warns', () => {\n  expect(check({}).a).toBe(1);\n  expect(check({}).b).toBe(2);\n  expect(warnings[0]).toBe('prop overrides a native property');\n});\n",
    );
    r.commit("Warn when props override native properties");
    let rs = flow(&r);
    let primary = scenarios(&rs)
        .into_iter()
        .find(|s| s["data"]["kind"] == "primary")
        .unwrap();
    let first = strings(&primary["data"]["assertions"])[0];
    assert!(
        first.contains("'prop overrides a native property'"),
        "{first}"
    );
}

#[test]
fn a_dropped_check_and_a_new_parameter_are_evidence_of_the_change() {
    let base = "pub fn limit(n: usize) -> usize {\n    if n > 100 {\n        return 100;\n    }\n    n\n}\n";
    let head = "pub fn limit(n: usize, cap: usize) -> usize {\n    n.min(cap)\n}\n";
    let rs = rust_flow(base, head, "Let callers choose the cap of the limit");
    let texts = evidence_texts(&rs);
    assert!(
        texts.contains(&"`limit` gains the parameter `cap`".to_string()),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"removed check `n>100`".to_string()),
        "{texts:?}"
    );
    // Evidence to review, never a claim: the decision may live on under another name.
    assert!(!scenarios(&rs)
        .iter()
        .flat_map(|s| strings(&s["data"]["assertions"]))
        .any(|a| a.contains("no longer checks")));
}

#[test]
fn a_check_rewritten_in_the_same_function_is_not_dropped() {
    let base = "pub fn limit(n: usize) -> usize {\n    if n > 100 {\n        return 100;\n    }\n    n\n}\n";
    let head = "pub fn limit(n: usize) -> usize {\n    if n >= 100 {\n        return 100;\n    }\n    n\n}\n";
    let rs = rust_flow(base, head, "Cap limits at 100 inclusive");
    assert!(!evidence_texts(&rs)
        .iter()
        .any(|t| t.starts_with("removed check")));
}

#[test]
fn a_check_moved_into_another_function_is_not_dropped() {
    let base = "pub fn limit(n: usize) -> usize {\n    if n > 100 {\n        return 100;\n    }\n    n\n}\n";
    let head = "pub fn limit(n: usize) -> usize {\n    clamp(n)\n}\n\nfn clamp(n: usize) -> usize {\n    if n > 100 {\n        return 100;\n    }\n    n\n}\n";
    let rs = rust_flow(base, head, "Clamp limits in one place");
    assert!(!evidence_texts(&rs)
        .iter()
        .any(|t| t.starts_with("removed check")));
}

/// A Go module whose branch `feature` teaches `Days` that March has 31 days, its
/// `clock_test.go` going from `before` to `after`.
fn march(before: String, after: String) -> Repo {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/clock\n\ngo 1.22\n");
    r.write(
        "clock.go",
        "package clock\n\nfunc Days(m string) int {\n\treturn 30\n}\n",
    );
    r.write("clock_test.go", before);
    r.commit("init");
    r.branch("feature");
    r.write(
        "clock.go",
        "package clock\n\nfunc Days(m string) int {\n\tif m == \"mar\" {\n\t\treturn 31\n\t}\n\treturn 30\n}\n",
    );
    r.write("clock_test.go", after);
    r.commit("Count 31 days in March");
    r
}

#[test]
fn a_row_added_to_a_file_level_case_table_is_a_changed_test() {
    let test = |rows: &str| {
        format!("package clock\n\nimport \"testing\"\n\nvar cases = []struct {{\n\tin   string\n\twant int\n}}{{\n{rows}}}\n\nfunc TestDays(t *testing.T) {{\n\tfor _, c := range cases {{\n\t\tif got := Days(c.in); got != c.want {{\n\t\t\tt.Errorf(\"%s: %d\", c.in, got)\n\t\t}}\n\t}}\n}}\n")
    };
    let rs = flow(&march(
        test("\t{in: \"apr\", want: 30},\n"),
        test("\t{in: \"apr\", want: 30},\n\t{in: \"mar\", want: 31},\n"),
    ));
    let assertions = all_assertions(&rs);
    assert!(
        assertions.contains(&"Test `cases` expects `want` is `31` for `in` \"mar\"".to_string()),
        "{assertions:?}"
    );
    // The unchanged row is context, not the change's oracle.
    assert!(
        !assertions.iter().any(|a| a.contains("apr")),
        "{assertions:?}"
    );
}

/// A Go table test whose rows stand in a long list: thirty unchanged months, then `rows`.
fn long_case_table(added: &str) -> String {
    let mut rows = String::new();
    for k in 0..30 {
        rows.push_str(&format!("\t\t{{in: \"m{k:02}\", want: 30}},\n"));
    }
    rows.push_str(added);
    format!("package clock\n\nimport \"testing\"\n\nfunc TestDays(t *testing.T) {{\n\tcases := []struct {{\n\t\tin   string\n\t\twant int\n\t}}{{\n{rows}\t}}\n\tfor _, c := range cases {{\n\t\tif got := Days(c.in); got != c.want {{\n\t\t\tt.Errorf(\"%s: %d\", c.in, got)\n\t\t}}\n\t}}\n}}\n")
}

#[test]
fn a_row_added_at_the_end_of_a_long_case_table_is_the_quoted_one() {
    let assertions = all_assertions(&flow(&march(
        long_case_table(""),
        long_case_table("\t\t{in: \"mar\", want: 31},\n"),
    )));
    assert!(
        assertions
            .iter()
            .any(|a| a.contains("`want` is `31` for `in` \"mar\"")),
        "{assertions:?}"
    );
    // Control: the unchanged rows above it are context.
    assert!(
        !assertions.iter().any(|a| a.contains("\"m00\"")),
        "{assertions:?}"
    );
}

#[test]
fn a_test_changed_only_in_its_parametrize_rows_is_a_changed_test() {
    let test = |row: &str| {
        format!("import pytest\nfrom app.complete import complete\n\n\n@pytest.mark.parametrize(\n    (\"shell\", \"expect\"),\n    [\n        {row}\n    ],\n)\ndef test_complete(shell, expect):\n    assert complete(shell) == expect\n")
    };
    let mut r = Repo::new();
    r.write(
        "app/complete.py",
        "def complete(shell):\n    return 'plain\\na\\n'\n",
    );
    r.write(
        "tests/test_complete.py",
        test("(\"fish\", \"plain\\na\\n\"),"),
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "app/complete.py",
        "def complete(shell):\n    return 'plain,a\\n'\n",
    );
    r.write(
        "tests/test_complete.py",
        test("(\"fish\", \"plain,a\\n\"),"),
    );
    r.commit("Fix broken fish completion of multiline help");
    let rs = flow(&r);
    let assertions = all_assertions(&rs);
    assert!(
        assertions.contains(
            &"Test `test_complete` expects `expect` is \"plain,a\\n\" for `shell` \"fish\""
                .to_string()
        ),
        "{assertions:?}"
    );
}

#[test]
fn a_condition_copied_from_another_changed_file_is_no_new_boundary() {
    let main_before = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let main_after = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n    log();\n}\nfn single() {}\nfn log() {}\n";
    let enabled = "pub fn run_indexed(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let rs = flow(&rust_change(
        "pub mod main;\n",
        "pub mod main;\npub mod enabled;\n",
        &[
            ("src/main.rs", main_before, main_after),
            ("src/enabled.rs", "", enabled),
        ],
        "Search an index when one is enabled",
    ));
    assert_none_titled(&rs, "Boundary: threads == 1");
}

/// A Python module whose branch changes the product and deletes (or keeps) one test.
fn deleted_test(delete: bool) -> Repo {
    let tests = "from app.help import render\n\n\ndef test_plain():\n    assert render('a') == 'a'\n\n\ndef test_multiline():\n    assert render('a\\nb') == 'a b'\n";
    let mut r = Repo::new();
    r.write(
        "app/help.py",
        "def render(s):\n    return s.replace('\\n', ' ')\n",
    );
    r.write("tests/test_help.py", tests);
    r.commit("init");
    r.branch("feature");
    r.write(
        "app/help.py",
        "def render(s):\n    return s.splitlines()[0] if s else s\n",
    );
    if delete {
        r.write(
            "tests/test_help.py",
            "from app.help import render\n\n\ndef test_plain():\n    assert render('a') == 'a'\n",
        );
    } else {
        r.write(
            "tests/test_help.py",
            format!("{tests}\n\ndef test_empty():\n    assert render('') == ''\n"),
        );
    }
    r.commit("Show only the first line of multiline help");
    r
}

#[test]
fn a_deleted_test_is_named_in_the_proof_gap() {
    let rs = flow(&deleted_test(true));
    let gaps: Vec<&str> = scenarios(&rs)
        .iter()
        .filter_map(|s| s["data"]["proof_gap"].as_str())
        .collect();
    assert!(
        gaps.iter()
            .any(|g| g.contains("deletes the test `test_multiline`")),
        "{gaps:?}"
    );
}

#[test]
fn a_kept_test_is_not_reported_deleted() {
    let rs = flow(&deleted_test(false));
    assert!(!scenarios(&rs)
        .iter()
        .filter_map(|s| s["data"]["proof_gap"].as_str())
        .any(|g| g.contains("deletes the test")));
}

#[test]
fn a_condition_from_another_files_base_on_a_different_line_is_no_new_boundary() {
    let main = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let main_after = "pub fn run(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n    log();\n}\nfn single() {}\nfn log() {}\n";
    let enabled = "pub fn run_indexed(threads: usize, index: bool) {\n    if !index {\n        return;\n    } else if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let rs = flow(&rust_change(
        "pub mod main;\n",
        "pub mod main;\npub mod enabled;\n",
        &[
            ("src/main.rs", main, main_after),
            ("src/enabled.rs", "", enabled),
        ],
        "Search an index when one is enabled",
    ));
    assert_none_titled(&rs, "Boundary: threads == 1");
}

#[test]
fn a_rewritten_method_of_a_constant_object_is_neither_gained_nor_lost() {
    let mut r = Repo::new();
    r.write(
        "src/model.js",
        "export const vModelText = {\n  created(el) {\n    el.value = '';\n  },\n  mounted(el) {\n    el.value = 'a';\n  },\n};\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/model.js",
        "export const vModelText = {\n  created(el) {\n    el.value = '';\n  },\n  mounted(el, { value }) {\n    el.value = value == null ? '' : value;\n  },\n};\n",
    );
    r.commit("Preserve the text input's value before hydration");
    let texts = evidence_texts(&flow(&r));
    assert!(
        !texts
            .iter()
            .any(|t| t.contains(" loses ") || t.contains(" gains ")),
        "{texts:?}"
    );
}

#[test]
fn a_condition_that_was_a_match_guard_in_another_file_is_no_new_boundary() {
    let main = "pub fn run(mode: u8, threads: usize) {\n    match mode {\n        0 if threads == 1 => single(),\n        _ => {}\n    }\n}\nfn single() {}\n";
    let main_after = "pub fn run(mode: u8, threads: usize) {\n    match mode {\n        0 if threads == 1 => single(),\n        _ => log(),\n    }\n}\nfn single() {}\nfn log() {}\n";
    let enabled = "pub fn run_indexed(threads: usize) {\n    if threads == 1 {\n        single();\n    }\n}\nfn single() {}\n";
    let rs = flow(&rust_change(
        "pub mod main;\n",
        "pub mod main;\npub mod enabled;\n",
        &[
            ("src/main.rs", main, main_after),
            ("src/enabled.rs", "", enabled),
        ],
        "Search an index when one is enabled",
    ));
    assert_none_titled(&rs, "Boundary: threads == 1");
}

#[test]
fn a_go_test_moved_to_another_package_is_not_deleted() {
    let test = "package p\n\nimport \"testing\"\n\nfunc TestSNS(t *testing.T) {\n\tt.Run(\"topic\", func(t *testing.T) {\n\t\tif got := Topic(); got != \"a\" {\n\t\t\tt.Errorf(\"got %q\", got)\n\t\t}\n\t})\n}\n";
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/p\n\ngo 1.22\n");
    r.write(
        "config/config.go",
        "package config\n\nfunc Topic() string {\n\treturn \"a\"\n}\n",
    );
    r.write(
        "config/config_test.go",
        test.replace("package p", "package config"),
    );
    r.commit("init");
    r.branch("feature");
    r.remove("config/config_test.go");
    r.write(
        "config/config.go",
        "package config\n\nfunc Other() string {\n\treturn \"b\"\n}\n",
    );
    r.write(
        "sns/config.go",
        "package sns\n\nfunc Topic() string {\n\treturn \"a\"\n}\n",
    );
    r.write(
        "sns/config_test.go",
        test.replace("package p", "package sns"),
    );
    r.commit("Move the SNS configuration into its package");
    let rs = flow(&r);
    assert!(!scenarios(&rs)
        .iter()
        .filter_map(|s| s["data"]["proof_gap"].as_str())
        .any(|g| g.contains("deletes the test")));
}

/// `open` gains an error with its message; the inline test asserts the error, or
/// (`asserts_error` false) only the success path.
fn refused_index(asserts_error: bool) -> Vec<Value> {
    let check = if asserts_error {
        "assert!(open(false).is_err());"
    } else {
        "assert!(open(true).is_ok());"
    };
    let head = format!("pub fn open(index: bool) -> anyhow::Result<()> {{\n    if !index {{\n        anyhow::bail!(\n            \"indexing not enabled in this build\"\n        );\n    }}\n    Ok(())\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n    #[test]\n    fn refuses() {{\n        {check}\n    }}\n}}\n");
    rust_flow(
        "pub fn open() {}\n",
        &head,
        "Refuse to open an index in builds without indexing",
    )
}

#[test]
fn a_failure_scenario_quotes_the_test_that_expects_the_error() {
    let rs = refused_index(true);
    let f = titled(&rs, "Failure: `open` ends in");
    assert_eq!(f.len(), 1, "{:#?}", scenarios(&rs));
    assert!(strings(&f[0]["data"]["assertions"])
        .contains(&"Test `refuses` expects `open(false).is_err()` holds"));
}

#[test]
fn a_test_of_the_success_path_is_not_quoted_by_the_failure_scenario() {
    let rs = refused_index(false);
    let f = titled(&rs, "Failure: `open` ends in");
    assert_eq!(f.len(), 1, "{:#?}", scenarios(&rs));
    assert!(!strings(&f[0]["data"]["assertions"])
        .iter()
        .any(|a| a.starts_with("Test ")));
}

/// A crate whose branch changes its product, its manifest (`manifest_line` appended) and,
/// when `ci` is set, its CI workflow.
fn configured(manifest_line: &str, ci: bool) -> Vec<Value> {
    let cargo = "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
    let mut r = Repo::new();
    r.write("Cargo.toml", cargo);
    r.write("src/lib.rs", "pub fn one() -> u8 {\n    1\n}\n");
    r.write(
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write("Cargo.toml", format!("{cargo}{manifest_line}\n"));
    r.write("src/lib.rs", "pub fn one() -> u8 {\n    2\n}\n");
    if ci {
        r.write(
            ".github/workflows/ci.yml",
            "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 30\n",
        );
    }
    r.commit("Return two from one and tune the build");
    flow(&r)
}

#[test]
fn package_metadata_is_no_runtime_configuration() {
    let rs = configured("description = \"numbers\"", false);
    assert_none_titled(&rs, "Build and runtime verification");
}

#[test]
fn ci_lines_and_build_settings_get_a_scenario_each() {
    let rs = configured("\n[profile.release]\nopt-level = 3", true);
    assert_eq!(
        titled(&rs, "CI verification: .github/workflows/ci.yml").len(),
        1,
        "{:#?}",
        scenarios(&rs)
    );
    assert_eq!(
        titled(&rs, "Build and runtime verification: Cargo.toml").len(),
        1,
        "{:#?}",
        scenarios(&rs)
    );
}

// ---------------------------------------------------------------------------------------
// Java (Maven layout: product under src/main/java, JUnit 5 tests under src/test/java)

const JAVA_PATHS: &str = "src/main/java/walk/Paths.java";
const JAVA_TEST: &str = "src/test/java/walk/PathsTest.java";

/// A `Paths.sort` that throws when asked for reverse order; the branch implements it
/// (`fixed`) or only tidies the sort, and adds a JUnit test expecting exact output. The
/// test also expects a refusal with `assertThrows` in a test method, or (`in_helper`) in
/// a helper method that is no test.
fn java_sort(fixed: bool, in_helper: bool) -> Repo {
    let mut r = Repo::new();
    r.write(
        JAVA_PATHS,
        "package walk;\n\nimport java.util.List;\n\npublic class Paths {\n    public static String sort(List<String> paths, boolean reverse) {\n        if (reverse) {\n            throw new UnsupportedOperationException(\"reverse order\");\n        }\n        return String.join(\",\", paths);\n    }\n}\n",
    );
    r.write(JAVA_TEST, "package walk;\n\nclass PathsTest {\n}\n");
    r.commit("init");
    r.branch("feature");
    let body = if fixed {
        "package walk;\n\nimport java.util.ArrayList;\nimport java.util.Collections;\nimport java.util.List;\n\npublic class Paths {\n    public static String sort(List<String> paths, boolean reverse) {\n        if (paths == null) {\n            throw new IllegalArgumentException(\"no paths\");\n        }\n        List<String> sorted = new ArrayList<>(paths);\n        Collections.sort(sorted);\n        if (reverse) {\n            Collections.reverse(sorted);\n        }\n        return String.join(\",\", sorted);\n    }\n}\n"
    } else {
        "package walk;\n\nimport java.util.List;\n\npublic class Paths {\n    public static String sort(List<String> paths, boolean reverse) {\n        if (reverse) {\n            throw new UnsupportedOperationException(\"reverse order\");\n        }\n        return String.join(\",\", paths.stream().sorted().toList());\n    }\n}\n"
    };
    r.write(JAVA_PATHS, body);
    let refusal = if in_helper {
        "    void refuses() {\n        assertThrows(IllegalArgumentException.class, () -> Paths.sort(null, false));\n    }\n"
    } else {
        "    @Test\n    void refusesNoPaths() {\n        assertThrows(IllegalArgumentException.class, () -> Paths.sort(null, false));\n    }\n"
    };
    r.write(
        JAVA_TEST,
        format!("package walk;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport java.util.List;\nimport org.junit.jupiter.api.Test;\n\nclass PathsTest {{\n    @Test\n    void sortsInReverse() {{\n        String expected = \"b,a\";\n        assertEquals(expected, Paths.sort(List.of(\"a\", \"b\"), true));\n    }}\n\n{refusal}}}\n"),
    );
    r.commit("Sort paths in reverse when asked");
    r
}

#[test]
fn a_removed_java_throw_becomes_a_failure_scenario_that_quotes_the_changed_test() {
    // The expected value stands on the `String expected = ...` line.
    assert_failure_quoting(
        &flow(&java_sort(true, false)),
        "`sort` no longer throws",
        "sortsInReverse",
        &[(JAVA_PATHS, 8), (JAVA_TEST, 11)],
    );
}

#[test]
fn a_java_throw_that_stays_gives_no_removed_throw_scenario() {
    let rs = flow(&java_sort(false, false));
    assert_none_titled(&rs, "`sort` no longer throws");
}

#[test]
fn a_junit_assert_equals_expected_value_is_quoted_in_the_assertion() {
    let rs = flow(&java_sort(true, false));
    let assertions = all_assertions(&rs);
    assert!(
        assertions.contains(
            &"Test `sortsInReverse` expects `Paths.sort(List.of(\"a\", \"b\"), true)` is \"b,a\""
                .to_string()
        ),
        "{assertions:?}"
    );
    let c = contracts(&rs);
    assert!(
        c.iter()
            .any(|c| c["title"] == "sortsInReverse" && c["framework"] == "junit"),
        "{c:#?}"
    );
}

#[test]
fn a_junit_assert_throws_is_quoted_as_an_expected_error() {
    let rs = flow(&java_sort(true, false));
    let assertions = all_assertions(&rs);
    assert!(
        assertions.contains(
            &"Test `refusesNoPaths` expects `Paths.sort(null, false)` throws IllegalArgumentException"
                .to_string()
        ),
        "{assertions:?}"
    );
}

#[test]
fn an_assert_throws_in_a_helper_method_is_no_test() {
    let rs = flow(&java_sort(true, true));
    let assertions = all_assertions(&rs);
    assert!(
        !assertions
            .iter()
            .any(|a| a.contains("throws IllegalArgumentException")),
        "{assertions:?}"
    );
    let titles: Vec<&str> = contracts(&rs)
        .iter()
        .map(|c| c["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["sortsInReverse"]);
}

/// A reader whose end-of-input check moves into the loop (`moved`) or whose branch adds a
/// new limit check (`new_limit`).
fn java_reader(new_limit: bool) -> Repo {
    let before = "package io;\n\npublic class Reader {\n    public int readAll(int[] chunks) {\n        int total = 0;\n        int readlen = chunks.length;\n        if (readlen == 0) {\n            return -1;\n        }\n        for (int c : chunks) {\n            total += c;\n        }\n        return total;\n    }\n}\n";
    let check = if new_limit {
        "            if (total > 4096) {\n                return -2;\n            }\n"
    } else {
        "            if (readlen == 0) {\n                return -1;\n            }\n"
    };
    one_file_change(
        "src/main/java/io/Reader.java",
        before,
        &format!("package io;\n\npublic class Reader {{\n    public int readAll(int[] chunks) {{\n        int total = 0;\n        int readlen = chunks.length;\n        for (int c : chunks) {{\n{check}            total += c;\n        }}\n        return total;\n    }}\n}}\n"),
        "fix: stop reading at the end of the input",
    )
}

/// A repository whose branch changes `path` from `before` to `after` in one commit.
fn one_file_change(path: &str, before: &str, after: &str, subject: &str) -> Repo {
    let mut r = Repo::new();
    r.write(path, before);
    r.commit("init");
    r.branch("feature");
    r.write(path, after);
    r.commit(subject);
    r
}

#[test]
fn a_java_condition_that_only_moved_is_no_boundary_but_a_new_one_is() {
    assert_boundary_only_when_new(java_reader);
}

/// A constant list that gains an element, or a brand-new constant list.
fn java_kinds(existing: bool) -> Repo {
    let before = if existing {
        "package app;\n\nimport java.util.List;\n\npublic class Kinds {\n    public static final List<String> KINDS = List.of(\"csv\", \"json\");\n}\n"
    } else {
        "package app;\n\npublic class Kinds {\n}\n"
    };
    let after = if existing {
        "package app;\n\nimport java.util.List;\n\npublic class Kinds {\n    public static final List<String> KINDS = List.of(\n        \"csv\",\n        \"json\",\n        \"yaml\"\n    );\n}\n"
    } else {
        "package app;\n\nimport java.util.List;\n\npublic class Kinds {\n    public static final List<String> KINDS = List.of(\"csv\", \"json\", \"yaml\");\n}\n"
    };
    one_file_change(
        "src/main/java/app/Kinds.java",
        before,
        after,
        "Accept yaml files as input",
    )
}

#[test]
fn an_element_added_to_a_java_constant_list_is_evidence_but_a_new_list_gains_nothing() {
    assert_gains_only_in_existing_lists(java_kinds);
}

/// A price rounding change with a changed JUnit test that is disabled, or runs.
fn java_skipped(skip: bool) -> Repo {
    let product = "src/main/java/shop/Price.java";
    let test = "src/test/java/shop/PriceTest.java";
    let mut r = Repo::new();
    r.write(
        product,
        "package shop;\n\npublic class Price {\n    public static double round(double n) {\n        return n;\n    }\n}\n",
    );
    r.write(test, "package shop;\n\nclass PriceTest {\n}\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        product,
        "package shop;\n\npublic class Price {\n    public static double round(double n) {\n        return Math.round(n * 100) / 100.0;\n    }\n}\n",
    );
    let disabled = if skip {
        "    @Disabled(\"flaky\")\n"
    } else {
        ""
    };
    r.write(
        test,
        format!("package shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Disabled;\nimport org.junit.jupiter.api.Test;\n\nclass PriceTest {{\n    @Test\n{disabled}    void roundsToCents() {{\n        assertEquals(1.01, Price.round(1.005));\n    }}\n}}\n"),
    );
    r.commit("Round prices to cents");
    r
}

#[test]
fn a_disabled_changed_junit_test_is_named_in_the_proof_gap_and_quotes_nothing() {
    assert_skip_named(&java_skipped(true), "`roundsToCents` (@Disabled", "1.01");
}

#[test]
fn a_running_changed_junit_test_leaves_no_skip_gap_and_is_quoted() {
    assert_running_quoted(
        &java_skipped(false),
        "Test `roundsToCents` expects `Price.round(1.005)` is `1.01`",
    );
}

/// The lifecycle step texts of every intent.
fn lifecycle_texts(rs: &[Value]) -> Vec<String> {
    records::of_kind(rs, "intent")
        .into_iter()
        .flat_map(|i| {
            i["data"]["lifecycle"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|s| s["text"].as_str().map(String::from))
        .collect()
}

#[test]
fn a_component_template_shows_its_text_but_not_its_html_comments() {
    let mut r = Repo::new();
    r.write("package.json", "{\"name\": \"shop\", \"private\": true}\n");
    let base = "<template>\n  <div>\n    <button @click=\"save\">Save</button>\n  </div>\n</template>\n<script setup>\nfunction save() {}\n</script>\n";
    r.write("src/components/Cart.vue", base);
    r.commit("init");
    r.branch("feature");
    let head = "<template>\n  <div>\n    <!-- Saved note: shown after a save -->\n    <p class=\"note\">Saved to your cart!</p>\n    <button @click=\"save\">Save</button>\n  </div>\n</template>\n<script setup>\nfunction save() {}\n</script>\n";
    r.write("src/components/Cart.vue", head);
    r.commit("feat(cart): show a notice once the cart is saved");
    let steps = lifecycle_texts(&flow(&r));
    assert!(
        steps.iter().any(|s| s == "shows \"Saved to your cart!\""),
        "{steps:?}"
    );
    assert!(!steps.iter().any(|s| s.contains("Saved note")), "{steps:?}");
}

#[test]
fn a_qa_tag_above_an_exported_function_is_an_annotation_and_one_above_a_private_one_is_not() {
    let mut r = Repo::new();
    r.write("package.json", "{\"name\": \"shop\", \"private\": true}\n");
    r.write("src/refund.ts", "export const VERSION = 1;\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/refund.ts",
        "export const VERSION = 1;\n\n/** @qaFlow refunds */\nexport function refund(total: number) {\n  if (total < 0) {\n    throw new Error(\"negative refund\");\n  }\n  return total;\n}\n\n// @qaFlow internal\nfunction audit(total: number) {\n  return total > 0;\n}\n",
    );
    r.commit("feat(refund): reject negative refunds");
    let annotations: Vec<(String, String, u64)> = records::of_kind(&flow(&r), "intent")
        .into_iter()
        .flat_map(|i| {
            i["data"]["annotations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .map(|a| {
            (
                a["tag"].as_str().unwrap().to_string(),
                a["value"].as_str().unwrap().to_string(),
                a["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        annotations,
        [("flow".to_string(), "refunds".to_string(), 4)]
    );
}

/// eza's `render` before and after a change of its tuple-pattern match arms (`arms`
/// replaces the or-pattern arm `(Mode::Grid(_), None) | (Mode::Lines, _)`).
fn grid_arms(arms: &str) -> Repo {
    let render = |arms: &str| {
        format!(
            "pub enum Mode {{ Grid(u32), Lines }}\n\npub fn render(mode: Mode, width: Option<usize>) -> String {{\n    match (mode, width) {{\n        (Mode::Grid(opts), Some(console_width)) => {{\n            grid_layout(opts, console_width)\n        }}\n{arms}    }}\n}}\n\nfn grid_layout(opts: u32, width: usize) -> String {{\n    format!(\"{{opts}} {{width}}\")\n}}\n\nfn lines_layout() -> String {{\n    String::from(\"lines\")\n}}\n"
        )
    };
    let mut r = Repo::new();
    r.write(
        "src/lib.rs",
        render("        (Mode::Grid(_), None) | (Mode::Lines, _) => {\n            lines_layout()\n        }\n"),
    );
    r.commit("init");
    r.branch("feature");
    r.write("src/lib.rs", render(arms));
    r.commit("Make --grid work when not in TTY");
    r
}

fn gains(rs: &[Value]) -> Vec<String> {
    evidence_texts(rs)
        .into_iter()
        .filter(|t| t.contains("gains"))
        .collect()
}

#[test]
fn a_tuple_pattern_arm_split_out_of_an_or_pattern_with_a_body_of_its_own_is_a_new_arm() {
    let rs = flow(&grid_arms(
        "        (Mode::Grid(opts), None) => {\n            grid_layout(opts, 80)\n        }\n        (Mode::Lines, _) => {\n            lines_layout()\n        }\n",
    ));
    assert_eq!(
        gains(&rs),
        vec!["`render` gains (Mode::Grid(opts), None)".to_string()]
    );
}

#[test]
fn a_tuple_pattern_or_arm_reordered_or_split_with_its_old_body_gains_no_arm() {
    let reordered = "        (Mode::Lines, _) | (Mode::Grid(_), None) => {\n            lines_layout()\n        }\n";
    assert!(gains(&flow(&grid_arms(reordered))).is_empty());
    let split = "        (Mode::Grid(_), None) => {\n            lines_layout()\n        }\n        (Mode::Lines, _) => {\n            lines_layout()\n        }\n";
    assert!(gains(&flow(&grid_arms(split))).is_empty());
}

/// A Go package whose `Range` rejects values beyond a limit, tested by a table whose
/// subtests (`t.Run("", ..)`) compare the error with each row's `wantErr`. On the branch
/// the limit changes; the table gains a row when `row`, and the subtest's check is edited
/// when `body_too`.
fn go_table_change(row: bool, body_too: bool) -> Vec<Value> {
    let test = |rows: &str, check: &str| {
        format!("package p\n\nimport \"testing\"\n\nfunc TestRange(t *testing.T) {{\n\ttests := []struct {{\n\t\tin      int\n\t\twantErr string\n\t}}{{\n\t\t{{\n\t\t\t999,\n\t\t\t`999 is out of range for int8`,\n\t\t}},\n{rows}\t}}\n\tfor _, tt := range tests {{\n\t\tt.Run(\"\", func(t *testing.T) {{\n\t\t\terr := Range(tt.in)\n\t\t\t{check}\n\t\t}})\n\t}}\n}}\n")
    };
    let old_check =
        "if err == nil || err.Error() != tt.wantErr {\n\t\t\t\tt.Errorf(\"got %v\", err)\n\t\t\t}";
    let new_check = "if err == nil && tt.wantErr != \"\" {\n\t\t\t\tt.Fatalf(\"no error\")\n\t\t\t}\n\t\t\tif err != nil && err.Error() != tt.wantErr {\n\t\t\t\tt.Errorf(\"got %v\", err)\n\t\t\t}";
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/p\n\ngo 1.22\n");
    r.write(
        "range.go",
        "package p\n\nimport \"fmt\"\n\nfunc Range(n int) error {\n\tif n > 127 {\n\t\treturn fmt.Errorf(\"%d is out of range for int8\", n)\n\t}\n\treturn nil\n}\n",
    );
    r.write("range_test.go", test("", old_check));
    r.commit("init");
    r.branch("feature");
    r.write(
        "range.go",
        "package p\n\nimport \"fmt\"\n\nfunc Range(n int) error {\n\tif n > 100 {\n\t\treturn fmt.Errorf(\"%d is out of range for int8\", n)\n\t}\n\treturn nil\n}\n",
    );
    let rows = match row {
        true => "\t\t{\n\t\t\t101,\n\t\t\t`101 is out of range for int8`,\n\t\t},\n",
        false => "",
    };
    r.write(
        "range_test.go",
        test(rows, if body_too { new_check } else { old_check }),
    );
    r.commit("Lower the limit to 100");
    flow(&r)
}

#[test]
fn a_row_the_change_wrote_in_a_table_is_quoted_when_the_subtest_running_it_changed_too() {
    for body_too in [true, false] {
        let rs = go_table_change(true, body_too);
        let quoted: Vec<&str> = scenarios(&rs)
            .iter()
            .flat_map(|s| strings(&s["data"]["assertions"]))
            .collect();
        assert!(
            quoted
                .iter()
                .any(|a| a.contains("101 is out of range for int8")),
            "body_too {body_too}: {quoted:#?}"
        );
    }
}

#[test]
fn a_change_only_inside_a_subtest_leaves_the_table_test_around_it_unchanged() {
    let rs = go_table_change(false, true);
    let tests: Vec<String> = records::of_kind(&rs, "intent")
        .iter()
        .flat_map(|i| {
            i["data"]["contracts"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|c| c["title"].as_str().map(String::from))
        .collect();
    assert!(tests.contains(&"TestRange/".to_string()), "{tests:?}");
    assert!(!tests.contains(&"TestRange".to_string()), "{tests:?}");
}
