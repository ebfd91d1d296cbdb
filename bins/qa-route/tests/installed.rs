//! A route whose runner lives in the repository's installed dependencies says so in its
//! action's preconditions (a package.json script's tool from `node_modules/.bin`, pytest
//! in a repository with a virtualenv, the JDK the Gradle wrapper needs), and its reason
//! says when the working tree shows them absent. Runners are stubs on a private PATH that
//! qa-route looks up but never starts.

use crate::common;

use common::*;

/// The precondition a jest project's route lists.
const NEEDS_JEST: &str = "the repository's dependencies are installed (node_modules/.bin/jest)";

/// The reason's clause when node_modules/.bin/jest is not there.
const JEST_ABSENT: &str = "its dependencies are not installed (no node_modules/.bin/jest)";

/// The demo repository's shape: `npm test` runs `jest`, and nothing is installed.
fn jest_project() -> Tree {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","version":"1.0.0","scripts":{"test":"jest"}}"#,
    )
    .write(
        "src/cart.js",
        "export const total = (items) => items.length;\n",
    );
    tree
}

fn route_of(tree: &Tree, stubs: &[&str], file: &str) -> serde_json::Value {
    let records = route_one(tree.path(), &Stubs::new(stubs), file, &[], &[]).records;
    only_route(&records).clone()
}

fn preconditions(route: &serde_json::Value) -> Vec<String> {
    route["action"]["preconditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_jest_route_without_node_modules_lists_dependencies_and_says_they_are_absent() {
    let tree = jest_project();
    let route = route_of(&tree, &["npm"], "src/cart.js");
    assert_eq!(route["command"]["run"], "npm test");
    assert_eq!(
        preconditions(&route),
        [
            "`npm` is on PATH",
            "it runs from `.` in the repository",
            NEEDS_JEST
        ]
    );
    let reason = route["reason"].as_str().unwrap();
    assert_eq!(
        reason,
        format!("critical; 1 direct changed line; {JEST_ABSENT}")
    );
}

#[test]
fn with_node_modules_bin_jest_present_the_absence_clause_is_gone() {
    let tree = jest_project();
    // A stub is enough: qa-route only checks that the file is there, it never runs it.
    tree.write("node_modules/.bin/jest", "#!/bin/sh\nexit 99\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let stub = tree.path().join("node_modules/.bin/jest");
        std::fs::set_permissions(stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let route = route_of(&tree, &["npm"], "src/cart.js");
    assert!(preconditions(&route).contains(&NEEDS_JEST.to_string()));
    assert_eq!(route["reason"], "critical; 1 direct changed line");
}

#[test]
fn a_script_that_runs_the_package_manager_itself_needs_no_installed_tool() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","scripts":{"test":"npm run lint && npm run unit"}}"#,
    )
    .write("src/cart.js", "");
    let route = route_of(&tree, &["npm"], "src/cart.js");
    assert_eq!(
        preconditions(&route),
        ["`npm` is on PATH", "it runs from `.` in the repository"]
    );
    assert_eq!(route["reason"], "critical; 1 direct changed line");
}

#[test]
fn a_workspace_package_tool_is_looked_for_in_the_package_and_the_root() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"mono","private":true,"workspaces":["apps/*"],"scripts":{"test":"npm test -ws"}}"#,
    )
    .write(
        "apps/site/package.json",
        r#"{"name":"site","scripts":{"test":"mocha"}}"#,
    )
    .write("apps/site/src/nav.js", "")
    // Hoisted to the root, as npm workspaces install it: present, so no absence clause.
    .write("node_modules/.bin/mocha", "");
    let route = route_of(&tree, &["npm"], "apps/site/src/nav.js");
    assert_eq!(route["command"]["run"], "npm test -w site");
    assert!(preconditions(&route).contains(
        &"the repository's dependencies are installed (node_modules/.bin/mocha in `apps/site` or the repository root)"
            .to_string()
    ));
    assert_eq!(route["reason"], "critical; 1 direct changed line");
}

#[test]
fn a_pytest_route_in_a_repository_with_a_virtualenv_lists_its_packages() {
    let tree = Tree::new();
    tree.write("pytest.ini", "[pytest]\n")
        .write("uv.lock", "version = 1\n")
        .write("shop/login.py", "");
    let route = route_of(&tree, &["pytest"], "shop/login.py");
    assert_eq!(route["command"]["run"], "pytest");
    assert!(preconditions(&route).contains(
        &"the repository's dependencies are installed (pytest and the packages `uv.lock` names, in a virtualenv)"
            .to_string()
    ));
}

#[cfg(unix)]
#[test]
fn a_gradle_wrapper_route_needs_a_jdk() {
    use std::os::unix::fs::PermissionsExt as _;
    let tree = Tree::new();
    tree.write("build.gradle.kts", "")
        .write("gradlew", "#!/bin/sh\nexit 99\n")
        .write("src/main/kotlin/Login.kt", "");
    let wrapper = tree.path().join("gradlew");
    std::fs::set_permissions(wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let route = route_of(&tree, &[], "src/main/kotlin/Login.kt");
    assert_eq!(route["command"]["run"], "./gradlew test");
    assert!(preconditions(&route).contains(
        &"the repository's dependencies are installed (a JDK for `./gradlew`, which fetches Gradle and the build's dependencies)"
            .to_string()
    ));
}

#[test]
fn a_route_without_a_command_names_the_build_files_it_read() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","scripts":{"start":"node ."}}"#,
    )
    .write("src/cart.js", "");
    let route = route_of(&tree, &["npm"], "src/cart.js");
    assert_eq!(route["command"], serde_json::Value::Null);
    assert_eq!(
        route["reason"],
        "critical; 1 direct changed line; `package.json` declares no validation command for its files"
    );
}

#[test]
fn a_route_without_any_build_file_says_none_was_found() {
    let tree = Tree::new();
    tree.write("src/cart.js", "");
    let route = route_of(&tree, &["npm"], "src/cart.js");
    assert!(
        route["reason"]
            .as_str()
            .unwrap()
            .ends_with("; no build file (Cargo.toml, package.json, pyproject.toml, go.mod, pom.xml, build.gradle, Makefile) found for its files"),
        "{route}"
    );
}
