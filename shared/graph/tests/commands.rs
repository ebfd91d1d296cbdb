//! Command fixtures: a utility change reaches the command whose entry file imports it,
//! in TypeScript (package.json `bin`), Rust (Cargo binaries) and Go (`main` packages).

use crate::common;
use common::*;

fn npm_cli() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "package.json",
            r#"{"name": "@acme/shop", "bin": {"shop": "dist/cli.js"}}"#,
        ),
        (
            "src/cli.ts",
            "import { money } from './format.js';\nconsole.log(money(1));\n",
        ),
        (
            "src/format.ts",
            "export const money = (n: number) => `$${n}`;\n",
        ),
        ("src/unused.ts", "export const nothing = 0;\n"),
    ]
}

#[test]
fn a_util_change_reaches_the_cli_command_importing_it() {
    let change = Change::edit(
        &npm_cli(),
        "src/format.ts",
        "export const money = (n: number) => `USD ${n}`;\n",
    );
    let cg = change.analyze();
    assert!(reached(&cg).contains("command shop"), "{:?}", reached(&cg));
    assert_eq!(
        qa_graph::records::reaches(&cg, ["src/format.ts"]),
        ["command shop"]
    );
}

#[test]
fn a_util_the_cli_does_not_import_reaches_no_command() {
    let change = Change::edit(&npm_cli(), "src/unused.ts", "export const nothing = 1;\n");
    assert!(reached(&change.analyze()).is_empty());
}

fn cargo_cli() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "Cargo.toml",
            "[package]\nname = \"shop-cli\"\nversion = \"0.1.0\"\n",
        ),
        (
            "src/main.rs",
            "mod report;\nfn main() { report::print(); }\n",
        ),
        (
            "src/report.rs",
            "use crate::money::format;\npub fn print() { println!(\"{}\", format(1)); }\n",
        ),
        (
            "src/money.rs",
            "pub fn format(n: u32) -> String { n.to_string() }\n",
        ),
        ("src/bin/admin.rs", "fn main() {}\n"),
    ]
}

#[test]
fn a_rust_module_change_reaches_the_binary_through_mod_and_use_crate() {
    let change = Change::edit(
        &cargo_cli(),
        "src/money.rs",
        "pub fn format(n: u32) -> String { format!(\"${n}\") }\n",
    );
    let cg = change.analyze();
    let reached = reached(&cg);
    assert!(reached.contains("command shop-cli"), "{reached:?}");
    assert!(!reached.contains("command admin"), "{reached:?}");
    assert!(reaches_file(&cg, "src/report.rs"));
}

#[test]
fn a_go_package_change_reaches_the_main_package_importing_it_only() {
    let files = [
        ("go.mod", "module example.com/shop\n\ngo 1.22\n"),
        ("cmd/export/main.go", "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/shop/internal/csv\"\n)\n\nfunc main() { fmt.Println(csv.Row()) }\n"),
        ("cmd/serve/main.go", "package main\n\nimport \"example.com/shop/internal/http\"\n\nfunc main() { http.Serve() }\n"),
        ("internal/csv/row.go", "package csv\n\nfunc Row() string { return \"a,b\" }\n"),
        ("internal/http/serve.go", "package http\n\nfunc Serve() {}\n"),
    ];
    let change = Change::edit(
        &files,
        "internal/csv/row.go",
        "package csv\n\nfunc Row() string { return \"a;b\" }\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("command export"), "{reached:?}");
    assert!(!reached.contains("command serve"), "{reached:?}");
}
