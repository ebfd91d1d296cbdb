//! The narrowed commands qa-route writes are cross-checked against the real runners
//! (vitest and jest from `tests/peers`, installed by `make peers`; cargo): run as written
//! from the fixture, each selects exactly the changed spec (and test), while the package's
//! whole suite, run as a control, meets the failing spec the narrowing left out.

use crate::common;

use common::*;
use std::process::Command;

/// A fixture project whose `node_modules` is the peers' (vitest and jest installed).
fn project(test_script: &str, files: &[(&str, &str)]) -> Tree {
    let tree = Tree::new();
    tree.write(
        "package.json",
        &format!(r#"{{"name":"shop","private":true,"scripts":{{"test":"{test_script}"}}}}"#),
    );
    for (path, text) in files {
        tree.write(path, text);
    }
    let modules = qa_testkit::peers::peers_dir().join("node_modules");
    assert!(
        modules.join(".bin/vitest").exists() && modules.join(".bin/jest").exists(),
        "vitest and jest are not installed in {}: run `make peers`",
        modules.display()
    );
    std::os::unix::fs::symlink(&modules, tree.path().join("node_modules")).unwrap();
    tree
}

/// The first command qa-route routes a critical scenario on `file` to, with the changed
/// tests `contracts` (file, title, framework).
fn routed(tree: &Tree, file: &str, contracts: &[(&str, &str, &str)]) -> String {
    let stubs = Stubs::new(&["npm"]);
    let records = route_one(tree.path(), &stubs, file, &[file], contracts).records;
    only_route(&records)["command"]["run"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Runs `run` from the fixture with the real PATH: exit code and stdout + stderr.
fn run(tree: &Tree, run: &str) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(run)
        .current_dir(tree.path())
        .env("CI", "1")
        .env_remove("NODE_OPTIONS")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

const VITEST_CART: &str = "import { it, expect } from 'vitest';\n\
    it('totals the cart', () => { expect(1 + 1).toBe(2); });\n\
    it('rounds the tax', () => { expect(1).toBe(2); });\n";
const VITEST_OTHER: &str =
    "import { it, expect } from 'vitest';\nit('is broken elsewhere', () => { expect(1).toBe(2); });\n";

#[test]
fn the_narrowed_vitest_command_runs_the_changed_test_alone() {
    let tree = project(
        "vitest run",
        &[
            ("src/cart.spec.ts", VITEST_CART),
            ("src/other.spec.ts", VITEST_OTHER),
        ],
    );
    let command = routed(
        &tree,
        "src/cart.spec.ts",
        &[("src/cart.spec.ts", "totals the cart", "vitest")],
    );
    assert_eq!(
        command,
        "npx --no vitest run src/cart.spec.ts -t 'totals the cart'"
    );
    let (code, out) = run(&tree, &command);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 passed"), "{out}");
    assert!(!out.contains("other.spec"), "{out}");
}

#[test]
fn the_vitest_suite_the_narrowing_replaces_meets_the_failing_specs() {
    let tree = project(
        "vitest run",
        &[
            ("src/cart.spec.ts", VITEST_CART),
            ("src/other.spec.ts", VITEST_OTHER),
        ],
    );
    let (code, out) = run(&tree, "npm test");
    assert_ne!(code, 0, "the control must fail: {out}");
    assert!(out.contains("other.spec"), "{out}");
}

#[test]
fn the_narrowed_jest_command_runs_the_changed_file_alone() {
    let tree = project(
        "jest",
        &[
            (
                "src/cart.test.js",
                "test('totals the cart', () => { expect(1 + 1).toBe(2); });\n",
            ),
            (
                "src/other.test.js",
                "test('is broken elsewhere', () => { expect(1).toBe(2); });\n",
            ),
        ],
    );
    let command = routed(&tree, "src/cart.test.js", &[]);
    assert_eq!(command, "npx --no jest src/cart.test.js");
    let (code, out) = run(&tree, &command);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 passed"), "{out}");
    let (code, out) = run(&tree, "npm test");
    assert_ne!(code, 0, "the whole suite meets the failing test: {out}");
}

/// A Cargo package whose inline tests share a prefix (`totals`, `totals_with_fee`) beside
/// one that fails (`broken`): a substring filter would run more than the changed tests.
fn crate_project() -> Tree {
    let tree = Tree::new();
    tree.write(
        "Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    tree.write(
        "src/lib.rs",
        // The fixture's contracts sit on line 5: inside `mod tests`, as a changed test is.
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn totals() {\n        assert_eq!(super::total(2), 2);\n    }\n    #[test]\n    fn totals_with_fee() {\n        assert_eq!(super::total(3), 3);\n    }\n    #[test]\n    fn broken() {\n        assert_eq!(1, 2);\n    }\n}\npub fn total(a: u32) -> u32 {\n    a\n}\n",
    );
    tree
}

/// `run` from the fixture with its own target dir (a fresh build of a crate without
/// dependencies: no network), built as its user would build it: without the clippy-driver
/// wrapper `make test` builds this suite under (its `-D warnings` is this suite's policy,
/// not the fixture's).
fn cargo_run(tree: &Tree, run: &str) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(run)
        .current_dir(tree.path())
        .env("CARGO_TARGET_DIR", tree.path().join("target"))
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn routed_cargo(tree: &Tree, tests: &[&str]) -> String {
    let stubs = Stubs::new(&["cargo"]);
    let contracts: Vec<(&str, &str, &str)> =
        tests.iter().map(|t| ("src/lib.rs", *t, "rust")).collect();
    let records = route_one(
        tree.path(),
        &stubs,
        "src/lib.rs",
        &["src/lib.rs"],
        &contracts,
    )
    .records;
    let route = only_route(&records);
    assert_eq!(route["command"]["scope"], "exact-test", "{route:#}");
    route["command"]["run"].as_str().unwrap().to_string()
}

#[test]
fn the_exact_cargo_command_runs_the_one_changed_test_and_not_its_namesakes() {
    let tree = crate_project();
    let command = routed_cargo(&tree, &["totals"]);
    assert_eq!(command, "cargo test -p shop --lib tests::totals -- --exact");
    let (code, out) = cargo_run(&tree, &command);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("test result: ok. 1 passed"), "{out}");
    // The control: the same filter without --exact also runs `totals_with_fee`.
    let (_, loose) = cargo_run(&tree, "cargo test -p shop --lib tests::totals");
    assert!(loose.contains("test result: ok. 2 passed"), "{loose}");
}

#[test]
fn the_exact_cargo_command_names_every_changed_test_and_leaves_the_others_out() {
    let tree = crate_project();
    let command = routed_cargo(&tree, &["totals", "totals_with_fee"]);
    assert_eq!(
        command,
        "cargo test -p shop --lib -- tests::totals tests::totals_with_fee --exact"
    );
    let (code, out) = cargo_run(&tree, &command);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("test result: ok. 2 passed"), "{out}");
    // The control: the package's tests meet the failing one the command left out.
    let (code, all) = cargo_run(&tree, "cargo test -p shop --lib");
    assert_ne!(code, 0, "{all}");
}
