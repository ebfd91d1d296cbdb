//! Rust, Python and Go across package boundaries: Cargo path and workspace dependencies
//! (renames, library names), Python `src/` layouts of project directories, and Go
//! module paths with directory replaces; and what stays unresolved.

use crate::common;
use common::*;

/// The graphs of `files`, with an edit of the first one.
fn analyze(files: &[(&str, &str)]) -> ChangeGraph {
    let (path, text) = files[0];
    Change::edit(files, path, &format!("{text}\n")).analyze()
}

const CARGO_WORKSPACE: &str = "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.dependencies]\nshop-util = { path = \"crates/util\" }\n";

fn cargo_workspace(
    app_manifest: &'static str,
    app_main: &'static str,
) -> Vec<(&'static str, &'static str)> {
    vec![
        ("Cargo.toml", CARGO_WORKSPACE),
        (
            "crates/core/Cargo.toml",
            "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\n",
        ),
        ("crates/core/src/lib.rs", "pub mod pricing;\n"),
        (
            "crates/core/src/pricing.rs",
            "pub fn total(n: u32) -> u32 { n }\n",
        ),
        (
            "crates/util/Cargo.toml",
            "[package]\nname = \"shop-util\"\n\n[lib]\nname = \"util\"\n",
        ),
        ("crates/util/src/lib.rs", "pub fn trim() {}\n"),
        ("crates/app/Cargo.toml", app_manifest),
        ("crates/app/src/main.rs", app_main),
    ]
}

#[test]
fn a_cargo_path_dependency_resolves_to_the_member_module_and_impact_crosses() {
    let files = cargo_workspace(
        "[package]\nname = \"app\"\n\n[dependencies]\nshop-core = { path = \"../core\" }\n",
        "use shop_core::pricing::total;\nfn main() { total(1); }\n",
    );
    let change = Change::edit(
        &files,
        "crates/core/src/pricing.rs",
        "pub fn total(n: u32) -> u32 { n * 2 }\n",
    );
    let cg = change.analyze();
    assert_eq!(
        imports_of(&cg, "crates/app/src/main.rs"),
        ["crates/core/src/pricing.rs"]
    );
    assert!(reaches_file(&cg, "crates/app/src/main.rs"));
    assert!(reached(&cg).contains("command app"), "{:?}", reached(&cg));
}

#[test]
fn a_renamed_cargo_dependency_goes_by_its_key_not_its_package_name() {
    let files = cargo_workspace(
        "[package]\nname = \"app\"\n\n[dependencies.money]\npath = \"../core\"\npackage = \"shop-core\"\n",
        "use money::pricing;\nuse shop_core::pricing::total;\nfn main() {}\n",
    );
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "crates/app/src/main.rs"),
        ["crates/core/src/pricing.rs"]
    );
}

#[test]
fn a_workspace_dependency_resolves_by_its_library_name() {
    let files = cargo_workspace(
        "[package]\nname = \"app\"\n\n[dependencies]\nshop-util = { workspace = true }\n",
        "use util::trim;\nfn main() { trim(); }\n",
    );
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "crates/app/src/main.rs"),
        ["crates/util/src/lib.rs"]
    );
}

#[test]
fn a_member_crate_the_package_does_not_depend_on_stays_unresolved() {
    let files = cargo_workspace(
        "[package]\nname = \"app\"\n\n[dependencies]\nserde = \"1\"\n",
        "use shop_core::pricing::total;\nuse serde::Serialize;\nfn main() {}\n",
    );
    let cg = analyze(&files);
    assert!(imports_of(&cg, "crates/app/src/main.rs").is_empty());
}

#[test]
fn a_python_package_in_a_src_layout_is_importable_from_another_project() {
    let files = [
        (
            "packages/core/src/shop_core/pricing.py",
            "def total(items):\n    return sum(items)\n",
        ),
        (
            "packages/core/pyproject.toml",
            "[project]\nname = \"shop-core\"\n",
        ),
        ("packages/core/src/shop_core/__init__.py", ""),
        (
            "packages/api/pyproject.toml",
            "[project]\nname = \"shop-api\"\n",
        ),
        ("packages/api/src/shop_api/__init__.py", ""),
        (
            "packages/api/src/shop_api/views.py",
            "from shop_core.pricing import total\n\ndef price():\n    return total([1])\n",
        ),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "packages/api/src/shop_api/views.py"),
        ["packages/core/src/shop_core/pricing.py"]
    );
    assert!(reaches_file(&cg, "packages/api/src/shop_api/views.py"));
}

#[test]
fn a_src_directory_outside_any_python_project_is_not_an_import_root() {
    let files = [
        ("tools/src/helper/__init__.py", "def help():\n    pass\n"),
        ("app/main.py", "import helper\n"),
    ];
    let cg = analyze(&files);
    assert!(imports_of(&cg, "app/main.py").is_empty());
}

#[test]
fn a_python_package_directory_named_by_pyproject_where_is_an_import_root() {
    let files = [
        ("svc/lib/billing/__init__.py", "def bill():\n    pass\n"),
        (
            "svc/pyproject.toml",
            "[project]\nname = \"svc\"\n\n[tool.setuptools.packages.find]\nwhere = [\"lib\"]\n",
        ),
        ("app/main.py", "from billing import bill\n"),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "app/main.py"),
        ["svc/lib/billing/__init__.py"]
    );
}

fn go_modules(go_mod: &'static str, main: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "libs/money/format.go",
            "package money\n\nfunc Format() string { return \"$\" }\n",
        ),
        ("libs/money/go.mod", "module example.com/money\n\ngo 1.22\n"),
        ("libs/money/format_test.go", "package money\n"),
        ("svc/go.mod", go_mod),
        ("svc/main.go", main),
    ]
}

#[test]
fn a_go_import_of_a_module_of_the_tree_resolves_to_its_package_files_and_impact_crosses() {
    let files = go_modules(
        "module example.com/svc\n\ngo 1.22\n\nreplace example.com/money => ../libs/money\n",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/money\"\n)\n\nfunc main() { fmt.Println(money.Format()) }\n",
    );
    let cg = analyze(&files);
    assert_eq!(imports_of(&cg, "svc/main.go"), ["libs/money/format.go"]);
    assert!(reaches_file(&cg, "svc/main.go"));
    assert!(reached(&cg).contains("command svc"), "{:?}", reached(&cg));
}

#[test]
fn a_go_replace_directive_ties_another_path_to_a_directory_of_the_tree() {
    // `example.com/legacy/money` is not the path the replacement's go.mod declares:
    // only the replace directive of the importing module ties them.
    let files = go_modules(
        "module example.com/svc\n\ngo 1.22\n\nreplace (\n\texample.com/legacy/money v1.0.0 => ../libs/money\n)\n",
        "package main\n\nimport \"example.com/legacy/money\"\n\nfunc main() { money.Format() }\n",
    );
    let cg = analyze(&files);
    assert_eq!(imports_of(&cg, "svc/main.go"), ["libs/money/format.go"]);
}

#[test]
fn a_go_replace_outside_the_repository_or_by_version_stays_unresolved() {
    let files = go_modules(
        "module example.com/svc\n\ngo 1.22\n\nreplace example.com/legacy/money => ../../elsewhere/money\nreplace example.com/gone => example.com/fork v1.0.0\n",
        "package main\n\nimport (\n\t\"example.com/legacy/money\"\n\t\"example.com/gone\"\n)\n\nfunc main() {}\n",
    );
    let cg = analyze(&files);
    assert!(imports_of(&cg, "svc/main.go").is_empty());
}
