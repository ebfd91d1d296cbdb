//! A test the change wrote in is evidence its author expects it to pass: a changed test
//! no scenario cites gets the guard scenario that runs it, cited where the change wrote;
//! a changed test some scenario cites already gets nothing more. Each with a negative
//! control. Needs the built qa-diff (`cargo build --bins`).

use qa_testkit::Repo;
use serde_json::Value;

use crate::common::{flow, rust_crate, scenarios, strings};

/// The guard scenarios of a stream.
fn guards(rs: &[Value]) -> Vec<&Value> {
    scenarios(rs)
        .into_iter()
        .filter(|s| {
            s["data"]["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("The changed tests pass as the commit left them"))
        })
        .collect()
}

/// The one guard scenario of a stream.
fn the_guard(rs: &[Value]) -> &Value {
    let g = guards(rs);
    assert_eq!(g.len(), 1, "{:#?}", scenarios(rs));
    g[0]
}

/// Asserts that some string of `field` (`steps`, `assertions`) of scenario `s` holds
/// `part`.
fn assert_says(s: &Value, field: &str, part: &str) {
    let texts = strings(&s["data"][field]);
    assert!(
        texts.iter().any(|t| t.contains(part)),
        "{part} in {texts:#?}"
    );
}

/// Whether scenario `s` cites `line` of `file`.
fn cites(s: &Value, file: &str, line: u64) -> bool {
    s["data"]["evidence"]
        .as_array()
        .is_some_and(|ev| ev.iter().any(|e| e["file"] == file && e["line"] == line))
}

/// A crate whose `run` returns 1, with the test file `tests/run.rs` at `base`; on the
/// branch `run` returns 2 and the test file is `head`.
fn run_repo(base: &str, head: &str) -> Repo {
    let mut r = rust_crate("pub fn run() -> u32 {\n    1\n}\n");
    r.write("tests/run.rs", base);
    r.commit("init");
    r.branch("feature");
    r.write("src/lib.rs", "pub fn run() -> u32 {\n    2\n}\n");
    r.write("tests/run.rs", head);
    r.commit("Return two from run");
    r
}

const RUNS: &str = "#[test]\nfn runs() {\n    walk::run();\n}\n";

#[test]
fn a_test_file_changed_only_in_its_imports_is_guarded_at_the_written_line() {
    // The change writes an import above the unchanged test: no test is read as changed,
    // so no other scenario cites the file.
    let head = format!("use std::fmt::Write as _;\n{RUNS}");
    let rs = flow(&run_repo(RUNS, &head));
    let g = the_guard(&rs);
    assert!(cites(g, "tests/run.rs", 1), "{g:#?}");
    assert_says(g, "steps", "Run the tests in or using tests/run.rs");
    assert_eq!(g["data"]["test_class"], "regression");
    assert_eq!(g["data"]["focus"], "verification");
}

#[test]
fn a_test_file_the_change_did_not_write_in_gets_no_guard() {
    // Only the product changed: no test was written, nothing to guard.
    let rs = flow(&run_repo(RUNS, RUNS));
    assert!(guards(&rs).is_empty(), "{:#?}", scenarios(&rs));
}

#[test]
fn a_changed_test_another_scenario_cites_gets_no_guard() {
    // The test now checks the new value: the scenarios built from it cite the written
    // assertion, so no guard is added.
    let base = "#[test]\nfn runs() {\n    assert_eq!(walk::run(), 1);\n}\n";
    let head = "#[test]\nfn runs() {\n    assert_eq!(walk::run(), 2);\n}\n";
    let rs = flow(&run_repo(base, head));
    let cited = scenarios(&rs).iter().any(|s| cites(s, "tests/run.rs", 3));
    assert!(cited, "{:#?}", scenarios(&rs));
    assert!(guards(&rs).is_empty(), "{:#?}", guards(&rs));
}

#[test]
fn a_changed_test_beside_a_cited_one_in_the_same_file_is_guarded_alone() {
    // The scenarios cite the written assertion of `runs`; the new `runs_twice` in the
    // same file checks nothing they quote, so the guard runs it, and only it.
    let base = "#[test]\nfn runs() {\n    assert_eq!(walk::run(), 1);\n}\n";
    let head = "#[test]\nfn runs() {\n    assert_eq!(walk::run(), 2);\n}\n\n#[test]\nfn runs_twice() {\n    walk::run();\n    walk::run();\n}\n";
    let rs = flow(&run_repo(base, head));
    let g = the_guard(&rs);
    assert_says(
        g,
        "steps",
        "Run the changed test `runs_twice` in tests/run.rs",
    );
    assert!(!cites(g, "tests/run.rs", 3), "{g:#?}");
    let named = strings(&g["data"]["steps"])
        .iter()
        .any(|t| t.contains("`runs`"));
    assert!(!named, "{g:#?}");
}

#[test]
fn a_trybuild_case_is_guarded_as_a_compile_test_of_its_harness() {
    let mut r = rust_crate("pub fn check(path: &str) -> bool {\n    path.starts_with('/')\n}\n");
    r.write(
        "tests/ui.rs",
        "#[test]\nfn ui() {\n    let t = trybuild::TestCases::new();\n    t.compile_fail(\"tests/ui/fail/*.rs\");\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    // The check, and a case of the harness that the check must now refuse to compile,
    // with the error it records.
    let change = [
        (
            "src/lib.rs",
            "pub fn check(path: &str) -> bool {\n    path.starts_with('/') && !path.contains(\"//\")\n}\n",
        ),
        (
            "tests/ui/fail/double_slash.rs",
            "use walk::check;\n\nconst _: () = check(\"//\");\n\nfn main() {}\n",
        ),
        (
            "tests/ui/fail/double_slash.stderr",
            "error: calls in constants are limited\n",
        ),
    ];
    for (path, text) in change {
        r.write(path, text);
    }
    r.commit("Reject double slashes");
    let rs = flow(&r);
    let g = the_guard(&rs);
    // Cited at its first written line that is not an import.
    assert!(cites(g, "tests/ui/fail/double_slash.rs", 3), "{g:#?}");
    assert_says(
        g,
        "steps",
        "compile-test case tests/ui/fail/double_slash.rs",
    );
    assert_says(g, "assertions", "fails to compile");
}

/// A Python program whose entry file and test open with a module docstring; on the
/// branch the commit drops the docstring of the entry file, and of the test when `test`.
fn docstring_repo(test: bool) -> Repo {
    let mut r = Repo::new();
    let main = "import sys\n\n\ndef main():\n    print(len(sys.argv))\n";
    let check = "from app.__main__ import main\n\n\ndef test_main_runs():\n    main()\n";
    r.write(
        "app/__main__.py",
        format!("\"\"\"The entry point.\"\"\"\n{main}"),
    );
    r.write(
        "tests/test_main.py",
        format!("\"\"\"Tests of main.\"\"\"\n{check}"),
    );
    r.commit("init");
    r.branch("feature");
    r.write("app/__main__.py", main);
    if test {
        r.write("tests/test_main.py", check);
    }
    r.commit("Remove unused module docstrings");
    r
}

#[test]
fn a_test_the_change_only_took_lines_out_of_gets_a_scenario_when_none_is_made() {
    let rs = flow(&docstring_repo(true));
    let g = the_guard(&rs);
    assert!(cites(g, "tests/test_main.py", 1), "{g:#?}");
    assert_says(g, "steps", "Run the tests in tests/test_main.py");
}

#[test]
fn the_guard_of_a_shortened_test_quotes_the_line_it_lost() {
    let rs = flow(&docstring_repo(true));
    let g = the_guard(&rs);
    let texts: Vec<&str> = g["data"]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["file"] == "tests/test_main.py")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        texts,
        ["removed here: \"\"\"Tests of main.\"\"\""],
        "{g:#?}"
    );
}

#[test]
fn a_change_that_leaves_its_tests_alone_gets_no_guard_for_them() {
    let rs = flow(&docstring_repo(false));
    assert!(guards(&rs).is_empty(), "{:#?}", guards(&rs));
}
