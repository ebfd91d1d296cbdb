//! Where a scenario built from a changed test cites it: at a line the change wrote (an
//! edit inside a multi-line assertion, a changed body under an unchanged header), never
//! only at an unchanged line of the test. Each with a negative control. Needs the built
//! qa-diff (`cargo build --bins`).

use qa_testkit::Repo;
use serde_json::Value;

use crate::common::{flow, rust_crate, scenarios};

/// Every evidence item of every scenario.
fn evidence(rs: &[Value]) -> Vec<Value> {
    scenarios(rs)
        .iter()
        .flat_map(|s| {
            s["data"]["evidence"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect()
}

/// Every (file, line) a scenario's evidence names.
fn cited(rs: &[Value]) -> Vec<(String, u64)> {
    evidence(rs)
        .iter()
        .map(|e| {
            (
                e["file"].as_str().unwrap_or_default().to_string(),
                e["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// Asserts that some scenario's evidence names one of `lines` of `file` (`cites`), or
/// that none does.
fn assert_cites(rs: &[Value], file: &str, lines: &[u64], cites: bool) {
    let all = cited(rs);
    let any = all.iter().any(|(f, l)| f == file && lines.contains(l));
    assert_eq!(any, cites, "{file} {lines:?} in {all:#?}");
}

/// Evidence items at `line` of `file`, with their text.
fn texts_at(rs: &[Value], file: &str, line: u64) -> Vec<String> {
    evidence(rs)
        .iter()
        .filter(|e| e["file"] == file && e["line"].as_u64() == Some(line))
        .map(|e| e["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A crate whose `usage` text names the program; its test compares the text over a
/// multi-line string. `test` is the test file at each side.
fn usage_repo(base_test: &str, head_test: &str) -> Repo {
    let mut r = rust_crate("pub fn usage() -> String {\n    \"Usage: fd-find [OPTIONS]\\n\\nMore\\n\".to_string()\n}\n");
    r.write("tests/usage.rs", base_test);
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub fn usage() -> String {\n    \"Usage: fd [OPTIONS]\\n\\nMore\\n\".to_string()\n}\n",
    );
    r.write("tests/usage.rs", head_test);
    r.commit("Name the program fd in its usage");
    r
}

/// The test: two checks before the multi-line one, whose middle line names the program.
fn usage_test(program: &str, setup: &str) -> String {
    format!(
        "#[test]\nfn usage_text() {{\n    let text = walk::usage();\n{setup}    assert!(text.starts_with(\"Usage\"));\n    assert!(text.ends_with(\"More\\n\"));\n    assert_eq!(\n        text,\n        \"Usage: {program} [OPTIONS]\\n\\\n         \\n\\\n         More\\n\"\n    );\n}}\n"
    )
}

#[test]
fn an_edit_inside_a_multi_line_assertion_is_cited_at_the_edited_line() {
    let rs = flow(&usage_repo(
        &usage_test("fd-find", ""),
        &usage_test("fd", ""),
    ));
    // Line 8 is `"Usage: fd [OPTIONS]\n\` inside the `assert_eq!` starting at line 6.
    assert_cites(&rs, "tests/usage.rs", &[8], true);
    // The expectation cited there is the multi-line one; the unchanged checks (lines 4
    // and 5) are context, not the oracle.
    let at = texts_at(&rs, "tests/usage.rs", 8);
    assert!(at.iter().any(|t| t.contains("Usage: fd")), "{at:#?}");
    assert_cites(&rs, "tests/usage.rs", &[4, 5], false);
}

#[test]
fn a_setup_line_added_between_assertions_is_no_edit_of_the_assertion_before_it() {
    // The change adds a set-up line (line 4) before the checks and leaves every
    // assertion as it was: no expectation is cited at the set-up line as if the change
    // wrote it.
    let rs = flow(&usage_repo(
        &usage_test("fd", ""),
        &usage_test("fd", "    let _len = text.len();\n"),
    ));
    let at = texts_at(&rs, "tests/usage.rs", 4);
    assert!(
        !at.iter()
            .any(|t| t.contains("starts_with") || t.contains("is \"Usage")),
        "{at:#?}"
    );
}

/// A crate with a smoke test `runs` (it asserts nothing) and, on the branch, `body` as
/// the test file: the change touches tests only.
fn smoke_repo(head_test: &str) -> Repo {
    let mut r = rust_crate("pub fn run() -> u32 {\n    1\n}\n");
    r.write(
        "tests/smoke.rs",
        "#[test]\nfn runs() {\n    walk::run();\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write("tests/smoke.rs", head_test);
    r.commit("Run twice in the smoke test");
    r
}

#[test]
fn a_test_whose_body_changed_under_its_header_is_cited_at_the_changed_line() {
    let rs = flow(&smoke_repo(
        "#[test]\nfn runs() {\n    walk::run();\n    walk::run();\n}\n",
    ));
    assert_cites(&rs, "tests/smoke.rs", &[4], true);
    // The unchanged header (attribute or signature) is not what it cites.
    assert_cites(&rs, "tests/smoke.rs", &[1, 2], false);
}

#[test]
fn a_new_test_is_cited_at_its_header() {
    let rs = flow(&smoke_repo(
        "#[test]\nfn runs() {\n    walk::run();\n}\n\n#[test]\nfn runs_twice() {\n    walk::run();\n    walk::run();\n}\n",
    ));
    assert_cites(&rs, "tests/smoke.rs", &[6, 7], true);
}

/// The relation of the evidence items at `line` of `file`.
fn relations_at(rs: &[Value], file: &str, line: u64) -> Vec<String> {
    evidence(rs)
        .iter()
        .filter(|e| e["file"] == file && e["line"].as_u64() == Some(line))
        .map(|e| e["relation"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A crate whose `second` changes; its test checks `first` (line 3), calls `second`
/// (line 4, written by the change when `call` differs from `walk::second(0)`) and checks
/// the result (line 5).
fn call_repo(call: &str, check: &str) -> Repo {
    let test = |call: &str, check: &str| {
        format!("#[test]\nfn values() {{\n    assert_eq!(walk::first(), 1);\n    let n = {call};\n    {check}\n}}\n")
    };
    let mut r = rust_crate(
        "pub fn first() -> u32 {\n    1\n}\n\npub fn second(x: u32) -> u32 {\n    x + 2\n}\n",
    );
    r.write(
        "tests/values.rs",
        test("walk::second(0)", "assert_eq!(n, 2);"),
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub fn first() -> u32 {\n    1\n}\n\npub fn second(x: u32) -> u32 {\n    x * 2 + 2\n}\n",
    );
    r.write("tests/values.rs", test(call, check));
    r.commit("Double the input of second");
    r
}

#[test]
fn a_test_changed_only_in_its_call_is_quoted_by_the_checks_after_the_call() {
    let rs = flow(&call_repo("walk::second(1)", "assert_eq!(n, 2);"));
    // The check after the changed call observes it: quoted, as support, not as a line
    // the change wrote.
    let after = texts_at(&rs, "tests/values.rs", 5);
    assert!(after.iter().any(|t| t.contains('2')), "{after:#?}");
    let relations = relations_at(&rs, "tests/values.rs", 5);
    assert!(!relations.is_empty(), "{rs:#?}");
    assert!(relations.iter().all(|r| r == "supporting"), "{relations:?}");
    // The check before it cannot observe the change: not quoted.
    assert_cites(&rs, "tests/values.rs", &[3], false);
}

#[test]
fn a_check_the_change_wrote_is_direct_evidence() {
    // Control: the change writes the check itself (line 5).
    let rs = flow(&call_repo("walk::second(0)", "assert_eq!(n, 4);"));
    let relations = relations_at(&rs, "tests/values.rs", 5);
    assert!(relations.iter().any(|r| r == "direct"), "{relations:?}");
}

#[test]
fn a_check_the_change_repeats_word_for_word_is_cited_where_it_wrote_it() {
    // The change adds a second call and the same check after it (lines 6-7): the check
    // is quoted at line 7, which it wrote, not at the identical line 5 it did not.
    let mut r = rust_crate(
        "pub fn first() -> u32 {\n    1\n}\n\npub fn second(x: u32) -> u32 {\n    x + 2\n}\n",
    );
    let test = |more: &str| {
        format!("#[test]\nfn values() {{\n    assert_eq!(walk::first(), 1);\n    let n = walk::second(0);\n    assert_eq!(n, 2);\n{more}}}\n")
    };
    r.write("tests/values.rs", test(""));
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub fn first() -> u32 {\n    1\n}\n\npub fn second(x: u32) -> u32 {\n    x * 2 + 2\n}\n",
    );
    r.write(
        "tests/values.rs",
        test("    let n = walk::second(0);\n    assert_eq!(n, 2);\n"),
    );
    r.commit("Double the input of second");
    let rs = flow(&r);
    let relations = relations_at(&rs, "tests/values.rs", 7);
    assert!(relations.iter().any(|r| r == "direct"), "{rs:#?}");
    assert_cites(&rs, "tests/values.rs", &[5], false);
}

/// The inline test module a product file holds at head: its new test counts its own
/// calls (`if builds == 3`).
const INLINE_TESTS: &str = "\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[should_panic(expected = \"third\")]\n    fn panics_on_the_third_call() {\n        let mut builds = 0;\n        for n in 0..5 {\n            builds += 1;\n            if builds == 3 {\n                panic!(\"third\");\n            }\n            super::admit(n);\n        }\n    }\n}\n";

/// A crate whose `admit` gains a limit (`product`) and the inline tests above.
fn inline_test_repo(product: &str) -> Repo {
    let head = [
        "pub fn admit(n: usize) -> bool {\n",
        product,
        "    n > 0\n}\n",
        INLINE_TESTS,
    ];
    let mut r = rust_crate("pub fn admit(n: usize) -> bool {\n    n > 0\n}\n");
    r.commit("init");
    r.branch("feature");
    r.write("src/lib.rs", head.concat());
    r.commit("Refuse large inputs in admit");
    r
}

/// The titles of every scenario.
fn titles(rs: &[Value]) -> Vec<String> {
    scenarios(rs)
        .iter()
        .map(|s| s["data"]["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_condition_inside_a_product_files_test_module_is_no_boundary() {
    // The product's own new limit is a boundary; the test's counter is not.
    let rs = flow(&inline_test_repo(
        "    if n > 10 {\n        return false;\n    }\n",
    ));
    let t = titles(&rs);
    assert!(t.iter().any(|t| t.contains("n > 10")), "{t:#?}");
    assert!(!t.iter().any(|t| t.contains("builds == 3")), "{t:#?}");
    let texts: Vec<String> = evidence(&rs)
        .iter()
        .map(|e| e["text"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        !texts.iter().any(|t| t.contains("builds == 3")),
        "{texts:#?}"
    );
    // The module's test is quoted at its own lines: no second citation as test code.
    assert!(
        !texts.iter().any(|t| t == "test code changed here"),
        "{texts:#?}"
    );
}

/// A crate whose `get` changes while its test moves from `tests/get.rs` into the file's
/// own test module (`inline`), or stays where it was.
fn moved_test_repo(inline: bool) -> Repo {
    let test = "    #[test]\n    fn gets() {\n        assert_eq!(get(2), 4);\n    }\n";
    let mut r = rust_crate("pub fn get(n: u8) -> u8 {\n    n * 2\n}\n");
    r.write(
        "tests/get.rs",
        format!("mod t {{\n    use walk::*;\n{test}}}\n"),
    );
    r.commit("init");
    r.branch("feature");
    let lib = "pub fn get(n: u8) -> u8 {\n    n + n\n}\n";
    if inline {
        r.write(
            "src/lib.rs",
            format!("{lib}\n#[cfg(test)]\nmod tests {{\n    use super::*;\n{test}}}\n"),
        );
        r.remove("tests/get.rs");
    } else {
        r.write("src/lib.rs", lib);
    }
    r.commit("Refactor get usage");
    r
}

#[test]
fn a_moved_inline_test_is_cited_as_test_code_when_no_changed_test_is_read() {
    let changed_here = |rs: &[Value]| {
        evidence(rs)
            .iter()
            .filter(|e| e["text"] == "test code changed here")
            .map(|e| {
                (
                    e["file"].as_str().unwrap_or_default().to_string(),
                    e["line"].as_u64(),
                )
            })
            .collect::<Vec<_>>()
    };
    let rs = flow(&moved_test_repo(true));
    let at = changed_here(&rs);
    assert!(
        at.iter().any(|(f, _)| f == "src/lib.rs"),
        "{:#?}",
        titles(&rs)
    );
    // Control: no test code in the product file, nothing cited as test code.
    assert!(changed_here(&flow(&moved_test_repo(false))).is_empty());
}
