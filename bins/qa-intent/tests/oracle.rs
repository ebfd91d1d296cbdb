//! The oracle on real repositories, through the real `qa-diff | qa-intent`: assertions
//! known by what they do (the repository's own helpers, directly and through one more),
//! the rows a change adds to a table of cases, and steps a tester can follow. Each with
//! a negative control. Needs the built qa-diff (`cargo build --bins`).

use qa_testkit::{records, Repo};
use serde_json::Value;

use crate::common::{flow, rust_crate};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Every assertion of every scenario.
fn assertions(rs: &[Value]) -> Vec<String> {
    records::of_kind(rs, "scenario")
        .iter()
        .flat_map(|s| strings(&s["data"]["assertions"]))
        .collect()
}

/// Every step of every scenario.
fn steps(rs: &[Value]) -> Vec<String> {
    records::of_kind(rs, "scenario")
        .iter()
        .flat_map(|s| strings(&s["data"]["steps"]))
        .collect()
}

/// True when a scenario assertion quotes every one of `parts`.
fn quoted(rs: &[Value], parts: &[&str]) -> bool {
    assertions(rs)
        .iter()
        .any(|a| parts.iter().all(|p| a.contains(p)))
}

// ---------------------------------------------------------------------------------------
// Assertion helpers

/// A test-support module whose `assert_failure_with_error` compares the error it is
/// given only through `assert_error_subdirectory` (which panics when stderr differs);
/// `asserting: false` gives the same shape printing instead of comparing.
fn testenv(asserting: bool) -> String {
    let check = if asserting {
        "if expected != actual {\n                panic!(\"{}\", format_output_error(args, expected, &actual));\n            }"
    } else {
        "println!(\"{} {}\", expected, actual);"
    };
    format!(
        "pub struct TestEnv;\n\nimpl TestEnv {{\n    pub fn new() -> TestEnv {{\n        TestEnv\n    }}\n\n    pub fn assert_failure_with_error(&self, args: &[&str], expected: &str) {{\n        self.assert_error_subdirectory(\".\", args, Some(expected));\n    }}\n\n    fn assert_error_subdirectory(&self, dir: &str, args: &[&str], expected: Option<&str>) {{\n        let actual = walk::run(dir, args).unwrap_err();\n        if let Some(expected) = expected {{\n            {check}\n        }}\n    }}\n}}\n\nfn format_output_error(args: &[&str], expected: &str, actual: &str) -> String {{\n    format!(\"{{args:?}}: {{expected}} != {{actual}}\")\n}}\n"
    )
}

/// A Rust crate whose `run` starts rejecting a path given to `--flag`; the branch adds
/// a test calling the repository's `TestEnv` helper with literal arguments.
fn flag_repo(asserting: bool) -> Repo {
    let mut r = rust_crate("pub fn run(_dir: &str, args: &[&str]) -> Result<(), String> {\n    let _ = args;\n    Ok(())\n}\n");
    r.write("tests/testenv/mod.rs", testenv(asserting));
    r.write(
        "tests/cli.rs",
        "mod testenv;\nuse testenv::TestEnv;\n\n#[test]\nfn plain() {\n    let te = TestEnv::new();\n    let _ = te;\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub fn run(_dir: &str, args: &[&str]) -> Result<(), String> {\n    if args.iter().any(|a| a.contains('/')) {\n        return Err(\"[tool error]: a path is no flag value\".to_string());\n    }\n    Ok(())\n}\n",
    );
    r.write(
        "tests/cli.rs",
        "mod testenv;\nuse testenv::TestEnv;\n\n#[test]\nfn plain() {\n    let te = TestEnv::new();\n    let _ = te;\n}\n\n#[test]\nfn flag_value_with_a_path() {\n    let te = TestEnv::new();\n    te.assert_failure_with_error(&[\"pat\", \"--flag\", \"x/y\"], \"[tool error]: a path is no flag value\");\n}\n",
    );
    r.commit("Reject a path as a flag value");
    r
}

#[test]
fn a_repository_helper_that_asserts_through_another_makes_its_literal_arguments_quoted() {
    let rs = flow(&flag_repo(true));
    assert!(
        quoted(
            &rs,
            &[
                "flag_value_with_a_path",
                "\"[tool error]: a path is no flag value\"",
                "\"--flag\", \"x/y\""
            ]
        ),
        "{:#?}",
        assertions(&rs)
    );
}

#[test]
fn a_helper_of_the_same_shape_that_asserts_nothing_gives_no_expectation() {
    let rs = flow(&flag_repo(false));
    assert!(
        !assertions(&rs)
            .iter()
            .any(|a| a.contains("\"[tool error]: a path is no flag value\"") && a.contains("Test")),
        "{:#?}",
        assertions(&rs)
    );
    // The detector sees a quote where there is one: the asserting helper's run quotes it.
    assert!(quoted(
        &flow(&flag_repo(true)),
        &["\"[tool error]: a path is no flag value\""]
    ));
}

/// A Go package whose help text changes; the branch's test checks it with a helper the
/// package's other test file defines (`checkContains` fails the test on a condition).
fn help_repo(asserting: bool) -> Repo {
    let body = if asserting {
        "\tif !strings.Contains(got, want) {\n\t\tt.Errorf(\"%q does not contain %q\", got, want)\n\t}\n"
    } else {
        "\tt.Logf(\"%q %q\", got, want)\n"
    };
    go_help_change(
        &[(
            "helpers_test.go",
            format!("package cli\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc checkContains(t *testing.T, got, want string) {{\n\tt.Helper()\n{body}}}\n\nvar _ = strings.Contains\n"),
        )],
        "\tcheckContains(t, got, \"Usage: cli [--flag PATH]\")\n",
    )
}

/// A Go package with the test files `supports`, whose `Help` text changes; the branch's
/// `TestHelp` then makes the calls `checks` (lines of Go).
fn go_help_change(supports: &[(&str, String)], checks: &str) -> Repo {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/cli\n\ngo 1.21\n");
    r.write(
        "help.go",
        "package cli\n\nfunc Help() string {\n\treturn \"usage: cli\"\n}\n",
    );
    for (path, text) in supports {
        r.write(path, text);
    }
    r.write(
        "help_test.go",
        "package cli\n\nimport \"testing\"\n\nfunc TestHelp(t *testing.T) {\n\tgot := Help()\n\t_ = got\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "help.go",
        "package cli\n\nfunc Help() string {\n\treturn \"Usage: cli [--flag PATH]\"\n}\n",
    );
    r.write(
        "help_test.go",
        format!("package cli\n\nimport \"testing\"\n\nfunc TestHelp(t *testing.T) {{\n\tgot := Help()\n{checks}}}\n"),
    );
    r.commit("Help names the flag");
    r
}

#[test]
fn a_go_helper_in_the_packages_other_test_file_that_fails_the_test_is_an_assertion() {
    let rs = flow(&help_repo(true));
    assert!(
        quoted(
            &rs,
            &[
                "TestHelp",
                "`checkContains`",
                "\"Usage: cli [--flag PATH]\""
            ]
        ),
        "{:#?}",
        assertions(&rs)
    );
    let rs = flow(&help_repo(false));
    assert!(!quoted(&rs, &["`checkContains`"]), "{:#?}", assertions(&rs));
}

/// A Go package whose test calls two helpers of the package's other test files:
/// `checkContains` (in `a_test.go`, which also defines `same`) and `checkPrefix` (in
/// `b_test.go`), which compares only through `same`. `a_test.go` is read for the helper the
/// test calls before `checkPrefix` is found to call `same`: it is read again for it.
fn two_supports_repo(asserting: bool) -> Repo {
    let body = if asserting {
        "\tif got != want {\n\t\tt.Errorf(\"%q is not %q\", got, want)\n\t}\n"
    } else {
        "\tt.Logf(\"%q %q\", got, want)\n"
    };
    go_help_change(
        &[
            (
                "a_test.go",
                format!("package cli\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc checkContains(t *testing.T, got, want string) {{\n\tt.Helper()\n\tif !strings.Contains(got, want) {{\n\t\tt.Errorf(\"%q does not contain %q\", got, want)\n\t}}\n}}\n\nfunc same(t *testing.T, got, want string) {{\n\tt.Helper()\n{body}}}\n"),
            ),
            (
                "b_test.go",
                "package cli\n\nimport \"testing\"\n\nfunc checkPrefix(t *testing.T, got, want string) {\n\tt.Helper()\n\tsame(t, got[:len(want)], want)\n}\n".to_string(),
            ),
        ],
        "\tcheckContains(t, got, \"--flag PATH\")\n\tcheckPrefix(t, got, \"Usage: cli\")\n",
    )
}

#[test]
fn a_helper_comparing_through_one_of_a_support_file_read_before_is_an_assertion() {
    let rs = flow(&two_supports_repo(true));
    assert!(
        quoted(&rs, &["TestHelp", "`checkPrefix`", "\"Usage: cli\""]),
        "{:#?}",
        assertions(&rs)
    );
    let rs = flow(&two_supports_repo(false));
    assert!(!quoted(&rs, &["`checkPrefix`"]), "{:#?}", assertions(&rs));
    // The helper the test calls directly asserts either way.
    assert!(quoted(&rs, &["`checkContains`"]), "{:#?}", assertions(&rs));
}

// ---------------------------------------------------------------------------------------
// Table-driven tests

/// A repository at `main` with `files`, then a branch that replaces them with `changed`.
fn changed(files: &[(&str, &str)], changed: &[(&str, &str)], message: &str) -> Repo {
    let mut r = Repo::new();
    for (p, c) in files {
        r.write(p, c);
    }
    r.commit("init");
    r.branch("feature");
    for (p, c) in changed {
        r.write(p, c);
    }
    r.commit(message);
    r
}

/// The added row is quoted with its input; the unchanged row is not.
fn assert_added_row_only(rs: &[Value], added: &[&str], unchanged: &str) {
    assert!(quoted(rs, added), "{:#?}", assertions(rs));
    assert!(
        !assertions(rs).iter().any(|a| a.contains(unchanged)),
        "{:#?}",
        assertions(rs)
    );
}

#[test]
fn an_added_test_each_row_is_quoted_with_its_input_and_an_unchanged_row_is_not() {
    let test = |rows: &str| {
        format!("import {{ slug }} from './slug';\n\ntest.each([\n{rows}])('slug of %s', (input, expected) => {{\n  expect(slug(input)).toBe(expected);\n}});\n")
    };
    let rs = flow(&changed(
        &[
            ("package.json", "{\"name\": \"s\", \"scripts\": {\"test\": \"jest\"}}\n"),
            ("src/slug.ts", "export function slug(s: string): string {\n  return s.toLowerCase();\n}\n"),
            ("src/slug.test.ts", &test("  ['Ab', 'ab'],\n")),
        ],
        &[
            ("src/slug.ts", "export function slug(s: string): string {\n  return s.toLowerCase().replace(/ /g, '-');\n}\n"),
            ("src/slug.test.ts", &test("  ['Ab', 'ab'],\n  ['A b', 'a-b'],\n")),
        ],
        "Slugs join words with dashes",
    ));
    assert_added_row_only(&rs, &["`expected` is 'a-b' for `input` 'A b'"], "'ab'");
}

#[test]
fn an_added_go_table_row_is_quoted_with_its_input_and_an_unchanged_row_is_not() {
    let test = |rows: &str| {
        format!("package slug\n\nimport \"testing\"\n\nfunc TestSlug(t *testing.T) {{\n\ttests := []struct {{\n\t\tin, want string\n\t}}{{\n{rows}\t}}\n\tfor _, tt := range tests {{\n\t\tif got := Slug(tt.in); got != tt.want {{\n\t\t\tt.Errorf(\"got %q\", got)\n\t\t}}\n\t}}\n}}\n")
    };
    let rs = flow(&changed(
        &[
            ("go.mod", "module example.com/slug\n\ngo 1.21\n"),
            ("slug.go", "package slug\n\nimport \"strings\"\n\nfunc Slug(s string) string {\n\treturn strings.ToLower(s)\n}\n"),
            ("slug_test.go", &test("\t\t{\"Ab\", \"ab\"},\n")),
        ],
        &[
            ("slug.go", "package slug\n\nimport \"strings\"\n\nfunc Slug(s string) string {\n\treturn strings.ReplaceAll(strings.ToLower(s), \" \", \"-\")\n}\n"),
            ("slug_test.go", &test("\t\t{\"Ab\", \"ab\"},\n\t\t{\"A b\", \"a-b\"},\n")),
        ],
        "Slugs join words with dashes",
    ));
    assert_added_row_only(&rs, &["`want` is \"a-b\" for `in` \"A b\""], "\"ab\"");
}

#[test]
fn an_added_parametrize_row_is_quoted_with_its_input_and_an_unchanged_row_is_not() {
    let test = |rows: &str| {
        format!("import pytest\n\nfrom slugs.slug import slug\n\n\n@pytest.mark.parametrize(\"text, expected\", [\n{rows}])\ndef test_slug(text, expected):\n    assert slug(text) == expected\n")
    };
    let rs = flow(&changed(
        &[
            ("pyproject.toml", "[project]\nname = \"slugs\"\n"),
            ("slugs/__init__.py", ""),
            ("slugs/slug.py", "def slug(s):\n    return s.lower()\n"),
            ("tests/test_slug.py", &test("    (\"Ab\", \"ab\"),\n")),
        ],
        &[
            (
                "slugs/slug.py",
                "def slug(s):\n    return s.lower().replace(\" \", \"-\")\n",
            ),
            (
                "tests/test_slug.py",
                &test("    (\"Ab\", \"ab\"),\n    (\"A b\", \"a-b\"),\n"),
            ),
        ],
        "Slugs join words with dashes",
    ));
    assert_added_row_only(&rs, &["`expected` is \"a-b\" for `text` \"A b\""], "\"ab\"");
}

#[test]
fn an_added_csv_source_row_is_quoted_with_its_input_and_an_unchanged_row_is_not() {
    let test = |rows: &str| {
        format!("package slugs;\n\nimport org.junit.jupiter.params.ParameterizedTest;\nimport org.junit.jupiter.params.provider.CsvSource;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass SlugTest {{\n    @ParameterizedTest\n    @CsvSource({{\n{rows}    }})\n    void slugs(String text, String expected) {{\n        assertEquals(expected, Slug.of(text));\n    }}\n}}\n")
    };
    let main = |body: &str| {
        format!("package slugs;\n\npublic final class Slug {{\n    public static String of(String s) {{\n        return {body};\n    }}\n}}\n")
    };
    let rs = flow(&changed(
        &[
            (
                "pom.xml",
                "<project><artifactId>slugs</artifactId></project>\n",
            ),
            ("src/main/java/slugs/Slug.java", &main("s.toLowerCase()")),
            (
                "src/test/java/slugs/SlugTest.java",
                &test("        \"Ab, ab\",\n"),
            ),
        ],
        &[
            (
                "src/main/java/slugs/Slug.java",
                &main("s.toLowerCase().replace(' ', '-')"),
            ),
            (
                "src/test/java/slugs/SlugTest.java",
                &test("        \"Ab, ab\",\n        \"A b, a-b\",\n"),
            ),
        ],
        "Slugs join words with dashes",
    ));
    assert_added_row_only(&rs, &["`expected` is \"a-b\" for `text` \"A b\""], "\"ab\"");
}

// ---------------------------------------------------------------------------------------
// Steps

/// A Go router that learns to redirect a trailing slash when `StrictSlash` is set; the
/// branch's test sets the option to `true` and checks `Match`.
fn strict_repo() -> Repo {
    let router = |body: &str| {
        format!("package chi\n\nimport \"strings\"\n\ntype Router struct {{\n\tStrictSlash bool\n}}\n\nfunc NewRouter() *Router {{\n\treturn &Router{{}}\n}}\n\nfunc (r *Router) Match(path string) string {{\n{body}\treturn path\n}}\n\nvar _ = strings.HasSuffix\n")
    };
    changed(
        &[
            ("go.mod", "module example.com/chi\n\ngo 1.21\n"),
            ("router.go", &router("")),
            ("router_test.go", "package chi\n\nimport \"testing\"\n\nfunc TestMatch(t *testing.T) {\n\tr := NewRouter()\n\tif got := r.Match(\"/a\"); got != \"/a\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n"),
        ],
        &[
            ("router.go", &router("\tif r.StrictSlash && strings.HasSuffix(path, \"/\") {\n\t\treturn strings.TrimSuffix(path, \"/\")\n\t}\n")),
            ("router_test.go", "package chi\n\nimport \"testing\"\n\nfunc TestMatch(t *testing.T) {\n\tr := NewRouter()\n\tif got := r.Match(\"/a\"); got != \"/a\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n\nfunc TestStrictSlash(t *testing.T) {\n\tr := NewRouter()\n\tr.StrictSlash = true\n\tgot := r.Match(\"/users/\")\n\tif got != \"/users\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n"),
        ],
        "Strict slash: a trailing slash is dropped",
    )
}

#[test]
fn a_test_that_sets_an_option_gives_the_arrange_and_act_steps_and_no_code_condition() {
    let rs = flow(&strict_repo());
    let steps = steps(&rs);
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("Set up as test `TestStrictSlash`")
                && s.contains("set `r.StrictSlash` to `true`")),
        "{steps:#?}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("Call `r.Match(\"/users/\")`")),
        "{steps:#?}"
    );
    // No step is a condition of the product's code, and none the commit's wording.
    let code_condition = |s: &&String| {
        s.starts_with("Arrange that")
            || s.contains("r.StrictSlash && ")
            || s.starts_with("Start at the moment")
    };
    assert!(!steps.iter().any(|s| code_condition(&s)), "{steps:#?}");
    // The detector sees a code condition where there is one: the same change without
    // its test names the product's new condition as the case to use.
    let mut untested = strict_repo();
    untested.git(&["checkout", "-q", "main"]);
    untested.git(&["checkout", "-q", "-b", "untested"]);
    untested.write(
        "router.go",
        "package chi\n\nimport \"strings\"\n\ntype Router struct {\n\tStrictSlash bool\n}\n\nfunc NewRouter() *Router {\n\treturn &Router{}\n}\n\nfunc (r *Router) Match(path string) string {\n\tif r.StrictSlash && strings.HasSuffix(path, \"/\") {\n\t\tpath = strings.TrimSuffix(path, \"/\")\n\t\tpath = strings.ToLower(path)\n\t\tpath = strings.TrimSpace(path)\n\t}\n\treturn path\n}\n\nvar _ = strings.HasSuffix\n",
    );
    untested.commit("Strict slash without a test");
    let untested_steps = self::steps(&flow(&untested));
    assert!(
        untested_steps
            .iter()
            .any(|s| s.contains("r.StrictSlash && ")),
        "{untested_steps:#?}"
    );
    assert!(
        !untested_steps.iter().any(|s| s.starts_with("Arrange that")),
        "{untested_steps:#?}"
    );
}

#[test]
fn an_assert_cmd_test_is_quoted_with_the_command_line_it_runs_and_its_outcome() {
    let mut r =
        crate::common::rust_crate("pub fn parse(flag: &str) -> bool {\n    flag == \"-x\"\n}\n");
    r.write(
        "src/main.rs",
        "fn main() {\n    let flag = std::env::args().nth(1).unwrap_or_default();\n    if !walk::parse(&flag) {\n        std::process::exit(1);\n    }\n}\n",
    );
    r.write("tests/cli.rs", "use assert_cmd::Command;\n");
    r.commit("Import the tool");
    r.branch("feature");
    r.write(
        "src/main.rs",
        "fn main() {\n    let flag = std::env::args().nth(1).unwrap_or_default();\n    if !walk::parse(&flag) {\n        eprintln!(\"bad flag: {flag}\");\n        std::process::exit(2);\n    }\n}\n",
    );
    r.write(
        "tests/cli.rs",
        "use assert_cmd::Command;\n\n#[test]\nfn a_bad_flag_fails_and_names_it() {\n    Command::cargo_bin(\"walk\")\n        .unwrap()\n        .arg(\"-y\")\n        .assert()\n        .code(2)\n        .stderr(predicates::str::contains(\"bad flag: -y\"));\n}\n",
    );
    r.commit("Name a bad flag and exit 2");
    let rs = flow(&r);
    let all = assertions(&rs);
    assert!(
        all.iter()
            .any(|a| a.contains("running `walk -y` exits with code `2`")),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|a| a.contains("running `walk -y` prints \"bad flag: -y\" on stderr")),
        "{all:#?}"
    );
}

/// The product functions a change modified are the way in when no test sets up the case;
/// a test function the product file holds itself is a changed test, not one of them.
#[test]
fn an_inline_test_function_is_no_changed_code_to_exercise() {
    let base = "pub fn hist_file(home: &str) -> String {\n    format!(\"{home}/.lesshst\")\n}\n";
    let head = "pub fn hist_file(home: &str) -> String {\n    let state = format!(\"{home}/.local/state\");\n    format!(\"{state}/lesshst\")\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn prints_hist_file() {\n        dbg!(super::hist_file(\"/home/u\"));\n    }\n}\n";
    let mut r = rust_crate(base);
    r.commit("init");
    r.branch("feature");
    r.write("src/lib.rs", head);
    r.commit("History file: look at the state directory");
    let steps = steps(&flow(&r));
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("Exercise `hist_file` (src/lib.rs:1)")),
        "{steps:#?}"
    );
    assert!(
        !steps.iter().any(|s| s.contains("`prints_hist_file`")),
        "{steps:#?}"
    );
}

/// A Rust crate whose `step` starts checking overflow; the branch adds a test of four
/// expectations. The third is `third`: `step(3, -3)` giving `Some(0)`, the outcome
/// the first already showed, or `step(255, 0)` giving one of its own.
fn outcomes_repo(third: &str) -> Repo {
    let mut r = rust_crate(
        "pub fn step(x: u8, by: i8) -> Option<u8> {\n    Some(x.wrapping_add_signed(by))\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub fn step(x: u8, by: i8) -> Option<u8> {\n    x.checked_add_signed(by)\n}\n",
    );
    r.write(
        "tests/step.rs",
        format!("use walk::step;\n\n#[test]\nfn step_stops_at_the_ends() {{\n    assert_eq!(step(0, 0), Some(0));\n    assert_eq!(step(0, 1), Some(1));\n    {third}\n    assert_eq!(step(0, -1), None);\n}}\n"),
    );
    r.commit("Stop at the ends instead of wrapping");
    r
}

/// The expectations a scenario keeps show the outcomes the test checks: one giving the
/// outcome an earlier one gave (`Some(0)` again) yields to the other outcome (`None`).
#[test]
fn an_expectation_repeating_an_earlier_outcome_yields_to_another_outcome() {
    // Which of the third expectation and the `None` one the scenario shows.
    let shown = |third: &str, call: &str| {
        let all = assertions(&flow(&outcomes_repo(third)));
        let has = |c: &str| all.iter().any(|a| a.contains(c));
        (has(call), has("`step(0, -1)` equals `None`"), all)
    };
    let (third, none, all) = shown("assert_eq!(step(3, -3), Some(0));", "`step(3, -3)`");
    assert!(!third && none, "{all:#?}");
    // Negative control: a third expectation with an outcome of its own keeps its place.
    let (third, none, all) = shown("assert_eq!(step(255, 0), Some(255));", "`step(255, 0)`");
    assert!(third && !none, "{all:#?}");
}

// ---------------------------------------------------------------------------------------
// Deleted tests

const RES_BASE: &str = "function jsonp(obj) {\n  var val = obj;\n  if (arguments.length === 2) {\n    this.status = arguments[0];\n    val = arguments[1];\n  }\n  return JSON.stringify(val);\n}\nmodule.exports = { jsonp };\n";
const RES_HEAD: &str =
    "function jsonp(obj) {\n  return JSON.stringify(obj);\n}\nmodule.exports = { jsonp };\n";
const SERIALIZES: &str =
    "it('serializes the object', () => {\n  expect(jsonp({ id: 1 })).toBe('{\"id\":1}');\n});\n";
const STATUS_FIRST: &str = "it('takes a status first', () => {\n  expect(jsonp(201, { id: 2 })).toBe('{\"id\":2}');\n});\n";
const REQUIRE: &str = "const { jsonp } = require('../lib/res');\n";

/// A removal that deletes the test of what it removes: that test, read as it stood, is
/// the oracle of the behaviour given up.
#[test]
fn a_test_deleted_with_the_code_it_checked_says_what_no_longer_has_to_hold() {
    let base_test = format!("{REQUIRE}{SERIALIZES}{STATUS_FIRST}");
    let head_test = format!("{REQUIRE}{SERIALIZES}");
    let r = changed(
        &[("lib/res.js", RES_BASE), ("test/res.test.js", &base_test)],
        &[("lib/res.js", RES_HEAD), ("test/res.test.js", &head_test)],
        "Remove jsonp(status, obj) signature",
    );
    let rs = flow(&r);
    assert!(
        quoted(
            &rs,
            &[
                "The deleted test `takes a status first` expected",
                "'{\"id\":2}'"
            ]
        ),
        "{:#?}",
        assertions(&rs)
    );
    assert!(
        steps(&rs)
            .iter()
            .any(|s| s.starts_with("Set up") && s.contains("deleted test `takes a status first`")),
        "{:#?}",
        steps(&rs)
    );
}

/// Control: a test moved to another file is moved, not deleted: it says nothing is given up.
#[test]
fn a_test_moved_to_another_file_is_no_deleted_oracle() {
    let base_test = format!("{REQUIRE}{SERIALIZES}{STATUS_FIRST}");
    let head_test = format!("{REQUIRE}{SERIALIZES}");
    let moved = format!("{REQUIRE}{STATUS_FIRST}");
    let r = changed(
        &[("lib/res.js", RES_BASE), ("test/res.test.js", &base_test)],
        &[
            ("lib/res.js", RES_HEAD),
            ("test/res.test.js", &head_test),
            ("test/status.test.js", &moved),
        ],
        "Remove jsonp(status, obj) signature",
    );
    let rs = flow(&r);
    assert!(
        !assertions(&rs).iter().any(|a| a.contains("deleted test")),
        "{:#?}",
        assertions(&rs)
    );
}

/// A deleted test that shares its title with a kept one (two `describe`s) is deleted: its
/// title stands fewer times at head than at base.
#[test]
fn a_deleted_test_sharing_its_title_with_a_kept_one_is_deleted() {
    let kept = "describe('jsonp(obj)', () => {\n  it('sets the body', () => {\n    expect(jsonp({ id: 1 })).toBe('{\"id\":1}');\n  });\n});\n";
    let gone = "describe('jsonp(status, obj)', () => {\n  it('sets the body', () => {\n    expect(jsonp(201, { id: 2 })).toBe('{\"id\":2}');\n  });\n});\n";
    let base_test = format!("{REQUIRE}{kept}{gone}");
    let r = changed(
        &[("lib/res.js", RES_BASE), ("test/res.test.js", &base_test)],
        &[
            ("lib/res.js", RES_HEAD),
            ("test/res.test.js", &format!("{REQUIRE}{kept}")),
        ],
        "Remove jsonp(status, obj) signature",
    );
    let rs = flow(&r);
    assert!(
        quoted(
            &rs,
            &["The deleted test `sets the body` expected", "'{\"id\":2}'"]
        ),
        "{:#?}",
        assertions(&rs)
    );
    // Control: both kept, the product change alone deletes no test.
    let r = changed(
        &[("lib/res.js", RES_BASE), ("test/res.test.js", &base_test)],
        &[("lib/res.js", RES_HEAD)],
        "Remove jsonp(status, obj) signature",
    );
    assert!(
        !assertions(&flow(&r))
            .iter()
            .any(|a| a.contains("deleted test")),
        "{:#?}",
        assertions(&flow(&r))
    );
}

/// A Go router whose `Match` learns to trim a trailing slash through a middleware; the
/// branch writes `r.Use(Trim)` into the test that stood before (`written`), or only
/// changes its expected value with the same call already there (`!written`).
fn setup_repo(written: bool) -> Repo {
    let router = |body: &str| {
        format!("package chi\n\nimport \"strings\"\n\ntype Router struct {{\n\ttrim bool\n}}\n\nfunc NewRouter() *Router {{\n\treturn &Router{{}}\n}}\n\nfunc Trim(r *Router) {{\n\tr.trim = true\n}}\n\nfunc (r *Router) Use(m func(*Router)) {{\n\tm(r)\n}}\n\nfunc (r *Router) Match(path string) string {{\n{body}\treturn path\n}}\n\nvar _ = strings.TrimSuffix\n")
    };
    let test = |use_line: &str, want: &str| {
        format!("package chi\n\nimport \"testing\"\n\nfunc TestMatch(t *testing.T) {{\n\tr := NewRouter()\n{use_line}\tif got := r.Match(\"/users/\"); got != \"{want}\" {{\n\t\tt.Errorf(\"got %q\", got)\n\t}}\n}}\n")
    };
    let base_use = if written { "" } else { "\tr.Use(Trim)\n" };
    changed(
        &[
            ("go.mod", "module example.com/chi\n\ngo 1.21\n"),
            ("router.go", &router("")),
            ("router_test.go", &test(base_use, "/users/")),
        ],
        &[
            (
                "router.go",
                &router("\tif r.trim {\n\t\tpath = strings.TrimSuffix(path, \"/\")\n\t}\n"),
            ),
            ("router_test.go", &test("\tr.Use(Trim)\n", "/users")),
        ],
        "A trimming middleware drops a trailing slash",
    )
}

#[test]
fn a_set_up_call_written_into_an_existing_test_joins_its_arrange_step() {
    let arranged = |rs: &[Value]| {
        steps(rs)
            .into_iter()
            .filter(|s| s.starts_with("Set up as test `TestMatch`"))
            .collect::<Vec<_>>()
    };
    let rs = flow(&setup_repo(true));
    let set_up = arranged(&rs);
    assert!(
        set_up.iter().any(|s| s.contains("run `r.Use(Trim)`")),
        "{:#?}",
        steps(&rs)
    );
    // Control: the same call standing at base, the change writing only the expected
    // value, is no set-up the change wrote.
    let rs = flow(&setup_repo(false));
    assert!(
        !arranged(&rs).iter().any(|s| s.contains("r.Use(Trim)")),
        "{:#?}",
        steps(&rs)
    );
}
