//! `qa-check --exec` counts tests from the runner, not the exit code: real cargo, pytest
//! (the peers' virtualenv), vitest and jest (the peers' node_modules) run the command
//! qa-route routed for a changed test, and the record says how many tests ran and whether
//! the changed ones did. A zero-exit run that ran nothing is `empty`, one that skipped the
//! changed test is `incomplete`, one whose output says its runner is missing is `blocked`,
//! and one that touched the git directory is `repository-changed`, naming what. Each
//! test's detector is run on a planted record with the counting taken out, and fails.

use crate::exec::{exec_with, execution, routed_with};
use qa_testkit::{Repo, Run};
use serde_json::{json, Value};

/// The outer cargo's target directory and flags stay out of the fixture's own build.
const CLEAN_CARGO: &[(&str, Option<&str>)] = &[
    ("CARGO_TARGET_DIR", None),
    ("CARGO_BUILD_TARGET_DIR", None),
    ("RUSTFLAGS", None),
    ("CARGO_TERM_COLOR", Some("never")),
];

/// A changed test, as qa-intent writes it into the intent's contracts.
fn contract(file: &str, line: u32, title: &str, framework: &str) -> Value {
    json!({"file": file, "line": line, "title": title, "framework": framework})
}

/// The routed command line of `stream`.
fn routed_run(stream: &[u8]) -> String {
    qa_testkit::parse(stream)
        .into_iter()
        .find(|r| r["kind"] == "route")
        .and_then(|r| r["data"]["command"]["run"].as_str().map(str::to_string))
        .expect("a route with a command")
}

/// Why `data` is not a counted pass of every changed test it names; Ok when it is one.
fn counted_pass(data: &Value) -> Result<(), String> {
    if data["status"] != "passed" || data["count"] != "counted" {
        return Err(format!("not a counted pass: {data}"));
    }
    let ran = data["tests"]["ran"].as_u64().unwrap_or(0);
    if ran == 0 || data["tests"]["passed"].as_u64() != Some(ran) {
        return Err(format!("no passing test counted: {}", data["tests"]));
    }
    let changed = data["changed_tests"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if changed.is_empty() {
        return Err("no changed test named".into());
    }
    match changed
        .iter()
        .find(|t| t["ran"] != true || t["outcome"] != "passed")
    {
        Some(t) => Err(format!("changed test not passed: {t}")),
        None => Ok(()),
    }
}

/// `data` as a runner that could not be read would leave it: counted nothing, named no
/// outcome (the planted bad artifact every control runs a detector on).
fn uncounted(data: &Value) -> Value {
    let mut data = data.clone();
    data["count"] = json!("unverified");
    data["tests"] = Value::Null;
    for test in data["changed_tests"].as_array_mut().into_iter().flatten() {
        test["ran"] = json!(false);
        test["outcome"] = Value::Null;
    }
    data
}

// ---- cargo (libtest lines) ----

const CART_TESTS: &str = "use cart::total;\n\
    #[test]\nfn totals() { assert_eq!(total(&[1, 2]), 3); }\n\
    #[test]\nfn empty_cart() { assert_eq!(total(&[]), 0); }\n\
    #[test]\n#[ignore]\nfn taxes() { assert_eq!(total(&[1]), 2); }\n";

/// A committed cargo package `cart` whose integration tests are [`CART_TESTS`].
fn cargo_repository() -> Repo {
    let mut repo = Repo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"cart\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write(
        "src/lib.rs",
        "pub fn total(items: &[u32]) -> u32 {\n    items.iter().sum()\n}\n",
    );
    repo.write("tests/cart.rs", CART_TESTS);
    repo.write(".gitignore", "target/\nCargo.lock\n");
    repo.commit("feat: cart totals");
    repo
}

/// qa-route's records for a change to `tests/cart.rs` naming `tests` (name, line), and
/// qa-check --exec --allow-exec on them.
fn cargo_exec(repo: &Repo, tests: &[(&str, u32)]) -> (String, Run) {
    let contracts: Vec<Value> = tests
        .iter()
        .map(|(name, line)| contract("tests/cart.rs", *line, name, "rust"))
        .collect();
    let stream = routed_with(repo, "critical", "tests/cart.rs", &contracts, &[]);
    let run = exec_with(repo, &stream, &["--allow-exec"], CLEAN_CARGO);
    (routed_run(&stream), run)
}

#[test]
fn a_cargo_command_that_runs_the_changed_test_passes_with_its_counts() {
    let repo = cargo_repository();
    let (command, run) = cargo_exec(&repo, &[("totals", 3)]);
    let data = execution(&run);
    assert_eq!(run.code, 0, "{data}");
    assert_eq!(
        data["command"],
        command.as_str(),
        "the routed line is recorded"
    );
    assert_eq!(
        data["reporter_options"],
        json!([]),
        "libtest has no reporter"
    );
    counted_pass(&data).unwrap();
    assert_eq!(
        data["changed_tests"],
        json!([{"file": "tests/cart.rs", "name": "totals", "ran": true, "outcome": "passed"}])
    );
    // Control: the same run with the counting taken out is no counted pass.
    assert!(counted_pass(&uncounted(&data)).is_err());
}

#[test]
fn a_cargo_filter_that_matches_no_test_is_empty_not_passed() {
    let repo = cargo_repository();
    // The changed test the intent names is not in the file (renamed since): the routed
    // filter selects nothing, cargo exits 0.
    let (command, run) = cargo_exec(&repo, &[("vanished", 9)]);
    assert!(command.contains("vanished"), "{command}");
    let data = execution(&run);
    assert_eq!(
        (run.code, data["exit_code"].as_i64()),
        (2, Some(0)),
        "{data}"
    );
    assert_eq!(data["status"], "empty");
    assert_eq!(data["tests"]["ran"], 0);
    assert!(data["reason"].as_str().unwrap().contains("ran no test"));
    // Control: without the counts the exit code alone would have said passed.
    let detector = |d: &Value| d["tests"]["ran"] == 0 && d["count"] == "counted";
    assert!(detector(&data) && !detector(&uncounted(&data)));
}

#[test]
fn a_cargo_run_that_skips_a_changed_test_is_incomplete_naming_it() {
    let repo = cargo_repository();
    // Two changed tests in one file, named exactly (`-- totals taxes --exact`): `taxes`
    // is #[ignore]d, so only `totals` runs.
    let (command, run) = cargo_exec(&repo, &[("totals", 3), ("taxes", 7)]);
    assert!(command.ends_with("-- totals taxes --exact"), "{command}");
    let data = execution(&run);
    assert_eq!(run.code, 2, "{command}: {data}");
    assert_eq!(data["status"], "incomplete");
    assert_eq!(data["tests"]["ran"], 1);
    assert_eq!(data["tests"]["skipped"], 1);
    let reason = data["reason"].as_str().unwrap();
    assert!(
        reason.contains("taxes (tests/cart.rs, skipped)"),
        "{reason}"
    );
    assert!(!reason.contains("totals"), "{reason}");
    // Control: the detector that finds `taxes` not run finds nothing once uncounted
    // data says the run could not be read.
    let skipped = |d: &Value| {
        d["changed_tests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "taxes" && t["outcome"] == "skipped")
    };
    assert!(skipped(&data) && !skipped(&uncounted(&data)));
}

// ---- zero-exit wrappers whose runner is missing ----

/// A repository whose `make test` recipe is `recipe` after the makefile lines `head`,
/// with `run-tests.sh` running `go test ... || true`, routed on its changed file.
fn make_exec(recipe: &str, head: &str) -> Run {
    let mut repo = Repo::new();
    repo.write("Makefile", format!("{head}test:\n\t@{recipe}\n"));
    repo.write("run-tests.sh", "go test ./... || true\n");
    repo.write("src/cart.txt", "total = sum(items)\n");
    repo.commit("feat: cart totals");
    let stream = routed_with(&repo, "critical", "src/cart.txt", &[], &[]);
    assert_eq!(routed_run(&stream), "make test");
    // Only the system's programs: no go, no pytest.
    exec_with(
        &repo,
        &stream,
        &["--allow-exec"],
        &[("PATH", Some("/usr/bin:/bin"))],
    )
}

/// The reason of a blocked run whose command exited 0.
fn blocked_after_exit_0(run: &Run) -> Result<String, String> {
    let data = execution(run);
    if run.code != 2 || data["status"] != "blocked" || data["exit_code"] != 0 {
        return Err(format!("not blocked after exit 0: {data}"));
    }
    Ok(data["reason"].as_str().unwrap_or("").to_string())
}

/// Asserts go is in neither of the system directories the wrapper tests' PATH holds.
fn no_system_go() {
    for dir in ["/usr/bin", "/bin"] {
        assert!(
            !std::path::Path::new(dir).join("go").exists(),
            "go is in {dir}"
        );
    }
}

#[test]
fn a_make_wrapper_around_a_missing_go_is_blocked_before_it_runs_naming_go() {
    no_system_go();
    let run = make_exec("$(GO) test ./...", "GO ?= go\n");
    let data = execution(&run);
    assert_eq!(
        (run.code, &data["status"]),
        (2, &json!("blocked")),
        "{data}"
    );
    assert_eq!(data["blocked"], "runner-missing");
    assert_eq!(
        data["reason"],
        "the command cannot start: needs `go` on PATH (the `test` recipe of `Makefile` starts it): install Go"
    );
    // Nothing ran: no exit code, no fingerprint.
    assert_eq!(data["exit_code"], Value::Null);
    assert_eq!(data["git_before"], Value::Null);
    // Control: a recipe starting what is on PATH runs.
    let control = execution(&make_exec("echo all good", ""));
    assert_eq!(control["exit_code"], 0, "{control}");
}

#[test]
fn a_wrapper_that_exits_0_after_go_not_found_is_blocked() {
    // go is behind a script qa-route does not read: only the output tells.
    no_system_go();
    let run = make_exec("sh ./run-tests.sh", "");
    let reason = blocked_after_exit_0(&run).unwrap();
    assert!(
        reason.starts_with("`go` is not installed (its output says so, though it exited 0)"),
        "{reason}"
    );
    // Control: the same wrapper printing nothing of the kind is no blocked run.
    assert!(blocked_after_exit_0(&make_exec("echo all good || true", "")).is_err());
}

#[test]
fn a_zero_exit_run_printing_sh_pytest_not_found_is_blocked() {
    let run = make_exec("echo 'sh: 1: pytest: not found' >&2; exit 0", "");
    let reason = blocked_after_exit_0(&run).unwrap();
    assert!(reason.starts_with("`pytest` is not installed"), "{reason}");
    let control = make_exec("echo 'Error: user: not found' >&2; exit 0", "");
    assert!(blocked_after_exit_0(&control).is_err());
}

#[test]
fn a_command_with_unreadable_output_keeps_its_exit_code_verdict_unverified() {
    let run = make_exec("echo all good", "");
    let data = execution(&run);
    assert_eq!((run.code, &data["status"]), (0, &json!("passed")), "{data}");
    assert_eq!(data["count"], "unverified");
    assert_eq!(data["tests"], Value::Null);
    assert!(data["reason"]
        .as_str()
        .unwrap()
        .contains("unverified count"));
}

// ---- the git directory ----

#[test]
fn a_command_that_adds_a_hook_edits_git_config_and_tags_is_repository_changed_naming_each() {
    let mut repo = Repo::new();
    let recipe = "git config core.fsmonitor 'touch planted-by-fsmonitor'; \
                  printf '#!/bin/sh\\n' > .git/hooks/pre-commit; \
                  git tag v9; git branch sideline";
    repo.write("Makefile", format!("test:\n\t@{recipe}\n"));
    repo.write("src/cart.txt", "total = sum(items)\n");
    repo.commit("feat: cart totals");
    let stream = routed_with(&repo, "critical", "src/cart.txt", &[], &[]);
    let run = exec_with(&repo, &stream, &["--allow-exec"], &[]);
    let data = execution(&run);
    assert_eq!(run.code, 2, "{data}");
    assert_eq!(data["status"], "repository-changed");
    assert_eq!(data["changed"]["git"], true);
    let names_each = |d: &Value| -> Result<(), String> {
        for name in [
            "config",
            "hooks/pre-commit",
            "refs/tags/v9",
            "refs/heads/sideline",
        ] {
            let listed = d["changed_git"]
                .as_array()
                .is_some_and(|l| l.contains(&json!(name)));
            let said = d["reason"].as_str().is_some_and(|r| r.contains(name));
            if !(listed && said) {
                return Err(format!("{name} not named: {d}"));
            }
        }
        Ok(())
    };
    names_each(&data).unwrap();
    // The fingerprint read the planted config and ran nothing it names.
    assert!(!repo.path().join("planted-by-fsmonitor").exists());
    // Control: the record as it was before the git directory was fingerprinted.
    let mut before = data.clone();
    before["changed_git"] = json!([]);
    before["reason"] = Value::Null;
    assert!(names_each(&before).is_err());
}

// ---- pytest (JUnit XML into qa-check's private folder) ----

/// PATH with the peers' virtualenv first (pytest is installed there by `make peers`).
fn venv_path() -> String {
    let bin = qa_testkit::peers::python().parent().unwrap().to_path_buf();
    assert!(
        bin.join("pytest").is_file(),
        "pytest is not installed in {}: run `make peers` (tests/peers/requirements.txt)",
        bin.display()
    );
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn a_pytest_command_that_runs_the_changed_test_passes_counted_from_its_junit_report() {
    let mut repo = Repo::new();
    repo.write(
        "tests/test_cart.py",
        "def test_total():\n    assert sum([1, 2]) == 3\n\n\ndef test_tax():\n    assert round(1.5) == 2\n",
    );
    repo.write("pytest.ini", "[pytest]\n");
    repo.write(".gitignore", "__pycache__/\n.pytest_cache/\n");
    repo.commit("test: cart totals");
    let path = venv_path();
    let env = [("PATH", Some(path.as_str()))];
    let contracts = [contract("tests/test_cart.py", 1, "test_total", "pytest")];
    let stream = routed_with(&repo, "critical", "tests/test_cart.py", &contracts, &env);
    let command = routed_run(&stream);
    assert!(
        command.starts_with("pytest tests/test_cart.py"),
        "{command}"
    );
    let run = exec_with(&repo, &stream, &["--allow-exec"], &env);
    let data = execution(&run);
    assert_eq!(run.code, 0, "{data}");
    assert_eq!(data["command"], command.as_str());
    let options = data["reporter_options"].as_array().unwrap();
    assert!(
        options[0].as_str().unwrap().starts_with("--junitxml="),
        "{options:?}"
    );
    assert!(
        !options[0]
            .as_str()
            .unwrap()
            .contains(repo.path().to_str().unwrap()),
        "the report is written outside the repository"
    );
    counted_pass(&data).unwrap();
    assert!(counted_pass(&uncounted(&data)).is_err());
}

// ---- vitest and jest (JSON reports) ----

/// A committed npm project using the peers' node_modules, its `test` script `script`.
fn node_repository(script: &str, files: &[(&str, &str)]) -> Repo {
    let mut repo = Repo::new();
    repo.write(
        "package.json",
        json!({"name": "shop", "private": true, "scripts": {"test": script}}).to_string(),
    );
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.write(".gitignore", "node_modules\n");
    let modules = qa_testkit::peers::peers_dir().join("node_modules");
    assert!(
        modules.join(".bin/vitest").exists() && modules.join(".bin/jest").exists(),
        "vitest and jest are not installed in {}: run `make peers`",
        modules.display()
    );
    std::os::unix::fs::symlink(&modules, repo.path().join("node_modules")).unwrap();
    repo.commit("test: cart totals");
    repo
}

const NODE_ENV: &[(&str, Option<&str>)] = &[
    ("CI", Some("1")),
    ("NODE_OPTIONS", None),
    ("npm_config_update_notifier", Some("false")),
];

/// qa-check --exec on the route for a change to `file` naming the changed test `title`.
fn node_exec(repo: &Repo, file: &str, title: &str, framework: &str) -> (String, Value) {
    let contracts = [contract(file, 2, title, framework)];
    let stream = routed_with(repo, "critical", file, &contracts, NODE_ENV);
    let run = exec_with(repo, &stream, &["--allow-exec"], NODE_ENV);
    let data = execution(&run);
    // The documented exit codes: 0 passed, 1 failed, 2 every other outcome here.
    let expected = match data["status"].as_str() {
        Some("passed") => 0,
        Some("failed") => 1,
        _ => 2,
    };
    assert_eq!(run.code, expected, "{data}");
    (routed_run(&stream), data)
}

const VITEST_CART: &str = "import { it, expect } from 'vitest';\n\
    it('totals the cart', () => { expect(1 + 1).toBe(2); });\n\
    it('rounds the tax', () => { expect(1).toBe(1); });\n";

#[test]
fn a_vitest_command_that_runs_the_changed_test_passes_counted_from_its_json_report() {
    let repo = node_repository("vitest run", &[("src/cart.spec.ts", VITEST_CART)]);
    let (command, data) = node_exec(&repo, "src/cart.spec.ts", "totals the cart", "vitest");
    assert_eq!(
        command,
        "npx --no vitest run src/cart.spec.ts -t 'totals the cart'"
    );
    assert_eq!(data["command"], command.as_str());
    assert!(data["reporter_options"]
        .to_string()
        .contains("--reporter=json"));
    counted_pass(&data).unwrap();
    // The filter ran the changed test alone; the other was skipped.
    assert_eq!(data["tests"]["ran"], 1, "{data}");
    assert!(counted_pass(&uncounted(&data)).is_err());
}

#[test]
fn a_vitest_title_filter_that_matches_no_test_is_empty() {
    let repo = node_repository("vitest run", &[("src/cart.spec.ts", VITEST_CART)]);
    let (command, data) = node_exec(&repo, "src/cart.spec.ts", "vanished title", "vitest");
    assert!(command.ends_with("-t 'vanished title'"), "{command}");
    assert_eq!(
        (&data["status"], &data["exit_code"]),
        (&json!("empty"), &json!(0)),
        "{data}"
    );
    assert_eq!(data["tests"]["ran"], 0);
    let detector = |d: &Value| d["status"] == "empty" && d["tests"]["ran"] == 0;
    let mut vacuous = uncounted(&data);
    vacuous["status"] = json!("passed");
    assert!(detector(&data) && !detector(&vacuous));
}

#[test]
fn a_jest_command_that_runs_the_changed_test_passes_counted_from_its_json_report() {
    let repo = node_repository(
        "jest",
        &[(
            "src/cart.test.js",
            "test('totals the cart', () => { expect(1 + 1).toBe(2); });\n",
        )],
    );
    let (command, data) = node_exec(&repo, "src/cart.test.js", "totals the cart", "jest");
    assert!(
        command.starts_with("npx --no jest src/cart.test.js"),
        "{command}"
    );
    assert!(data["reporter_options"].to_string().contains("--json"));
    counted_pass(&data).unwrap();
    assert!(counted_pass(&uncounted(&data)).is_err());
}

// ---- go (go test -json) ----

#[test]
fn a_go_command_that_runs_the_changed_test_passes_counted_from_its_json_events() {
    let on_path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|dir| dir.join("go").is_file());
    if !on_path {
        // go is not installed on this machine: said, never passed in silence. Written to
        // the process's stderr directly, past libtest's capture, so every run shows it.
        let note = "NOTE exec_counts: go is not on PATH; the go test -json count is checked by unit tests only\n";
        std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes()).unwrap();
        return;
    }
    let mut repo = Repo::new();
    repo.write("go.mod", "module example.com/cart\n\ngo 1.21\n");
    repo.write(
        "cart.go",
        "package cart\n\nfunc Total(a, b int) int { return a + b }\n",
    );
    repo.write(
        "cart_test.go",
        "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
    );
    repo.commit("test: cart totals");
    let contracts = [contract("cart_test.go", 5, "TestTotal", "go")];
    let stream = routed_with(&repo, "critical", "cart_test.go", &contracts, &[]);
    let run = exec_with(&repo, &stream, &["--allow-exec"], &[]);
    let data = execution(&run);
    assert_eq!(data["reporter_options"], json!(["-json"]));
    counted_pass(&data).unwrap();
    assert!(counted_pass(&uncounted(&data)).is_err());
}
