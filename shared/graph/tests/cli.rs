//! Subcommand fixtures: a utility change reaches `command <program> <sub>` when the
//! subcommand's handler module imports it, for clap (derive and builder) and argparse.

use crate::common;
use common::*;

fn clap_derive_app() -> Vec<(&'static str, &'static str)> {
    vec![
        ("Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n"),
        ("src/money.rs", "pub fn money(n: u32) -> String { format!(\"${n}\") }\n"),
        ("src/stock.rs", "pub fn count() -> u32 { 3 }\n"),
        ("src/export.rs", "use crate::money::money;\npub fn run() { println!(\"{}\", money(1)); }\n"),
        ("src/import.rs", "use crate::stock;\npub fn run() { stock::count(); }\n"),
        (
            "src/main.rs",
            "mod export;\nmod import;\nmod money;\nmod stock;\nuse clap::{Parser, Subcommand};\n\n#[derive(Parser)]\nstruct Cli {\n    #[command(subcommand)]\n    command: Command,\n}\n\n#[derive(Subcommand)]\nenum Command {\n    /// Export orders, as CSV\n    Export,\n    #[command(name = \"import-all\")]\n    Import { dry_run: bool },\n    StockLevel,\n}\n\nfn main() {\n    match Cli::parse().command {\n        Command::Export => export::run(),\n        Command::Import { .. } => import::run(),\n        Command::StockLevel => println!(\"none\"),\n    }\n}\n",
        ),
    ]
}

#[test]
fn a_util_change_reaches_the_clap_subcommand_whose_handler_imports_it() {
    let change = Change::edit(
        &clap_derive_app(),
        "src/money.rs",
        "pub fn money(n: u32) -> String { format!(\"USD {n}\") }\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("command shop export"), "{reached:?}");
    assert!(!reached.contains("command shop import-all"), "{reached:?}");
}

#[test]
fn a_renamed_variant_and_a_kebab_cased_one_are_named_as_clap_names_them() {
    let change = Change::edit(
        &clap_derive_app(),
        "src/stock.rs",
        "pub fn count() -> u32 { 4 }\n",
    );
    let cg = change.analyze();
    let reached = reached(&cg);
    assert!(reached.contains("command shop import-all"), "{reached:?}");
    assert!(!reached.contains("command shop export"), "{reached:?}");
    assert!(cg.head.nodes.contains_key(&NodeKey::new(
        qa_records::graph::NodeKind::Command,
        "shop stock-level"
    )));
}

#[test]
fn a_clap_builder_subcommand_is_reached_through_its_dispatch_arm() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"tool\"\nversion = \"0.1.0\"\n"),
        ("src/fmt.rs", "pub fn fmt() {}\n"),
        ("src/sync.rs", "use crate::fmt::fmt;\npub fn run() { fmt() }\n"),
        ("src/clean.rs", "pub fn run() {}\n"),
        (
            "src/main.rs",
            "mod clean;\nmod fmt;\nmod sync;\nuse clap::Command;\nfn main() {\n    let m = Command::new(\"tool\")\n        .subcommand(Command::new(\"sync\"))\n        .subcommand(Command::new(\"clean\"))\n        .get_matches();\n    match m.subcommand() {\n        Some((\"sync\", _)) => sync::run(),\n        Some((\"clean\", _)) => clean::run(),\n        _ => {}\n    }\n}\n",
        ),
    ];
    let change = Change::edit(&files, "src/fmt.rs", "pub fn fmt() { println!() }\n");
    let reached = reached(&change.analyze());
    assert!(reached.contains("command tool sync"), "{reached:?}");
    assert!(!reached.contains("command tool clean"), "{reached:?}");
}

#[test]
fn a_clap_builder_after_non_ascii_text_is_still_read() {
    // 300 bytes before the program's builder fall inside a two-byte `é` at one of the two
    // offsets.
    for lead in ["", "x"] {
        let main = format!(
            "mod clean;\nmod fmt;\nmod sync;\nuse clap::Command;\nconst ABOUT: &str = \"{lead}{}\";\nfn main() {{\n    let m = Command::new(\"tool\")\n        .about(ABOUT)\n        .subcommand(Command::new(\"sync\"))\n        .subcommand(Command::new(\"clean\"))\n        .get_matches();\n    match m.subcommand() {{\n        Some((\"sync\", _)) => sync::run(),\n        Some((\"clean\", _)) => clean::run(),\n        _ => {{}}\n    }}\n}}\n",
            "é".repeat(200)
        );
        let files = [
            (
                "Cargo.toml",
                "[package]\nname = \"tool\"\nversion = \"0.1.0\"\n",
            ),
            ("src/fmt.rs", "pub fn fmt() {}\n"),
            (
                "src/sync.rs",
                "use crate::fmt::fmt;\npub fn run() { fmt() }\n",
            ),
            ("src/clean.rs", "pub fn run() {}\n"),
            ("src/main.rs", main.as_str()),
        ];
        let change = Change::edit(&files, "src/fmt.rs", "pub fn fmt() { println!() }\n");
        let reached = reached(&change.analyze());
        assert!(
            reached.contains("command tool sync"),
            "{lead:?}: {reached:?}"
        );
        assert!(
            !reached.contains("command tool clean"),
            "{lead:?}: {reached:?}"
        );
    }
}

fn argparse_app() -> Vec<(&'static str, &'static str)> {
    vec![
        ("pyproject.toml", "[project]\nname = \"shop\"\n\n[project.scripts]\nshop = \"shop.cli:main\"\n"),
        ("shop/__init__.py", ""),
        ("shop/money.py", "def money(n):\n    return f'${n}'\n"),
        ("shop/commands/__init__.py", ""),
        ("shop/commands/export.py", "from shop.money import money\n\ndef run(args):\n    print(money(1))\n"),
        ("shop/commands/stock.py", "def run(args):\n    print(3)\n"),
        (
            "shop/cli.py",
            "import argparse\nfrom shop.commands import export, stock\n\ndef main():\n    parser = argparse.ArgumentParser()\n    sub = parser.add_subparsers()\n    e = sub.add_parser('export')\n    e.set_defaults(func=export.run)\n    s = sub.add_parser('stock')\n    s.set_defaults(func=stock.run)\n    args = parser.parse_args()\n    args.func(args)\n",
        ),
    ]
}

#[test]
fn an_argparse_subcommand_is_reached_through_its_set_defaults_handler() {
    let change = Change::edit(
        &argparse_app(),
        "shop/money.py",
        "def money(n):\n    return f'USD {n}'\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("command shop export"), "{reached:?}");
    assert!(!reached.contains("command shop stock"), "{reached:?}");
}

#[test]
fn an_explicit_prog_names_the_argparse_program() {
    let mut files = argparse_app();
    let cli = files.iter_mut().find(|(p, _)| *p == "shop/cli.py").unwrap();
    cli.1 = "import argparse\nfrom shop.commands import stock\n\nparser = argparse.ArgumentParser(prog='shopctl')\nsub = parser.add_subparsers()\ns = sub.add_parser('stock')\ns.set_defaults(func=stock.run)\n";
    let change = Change::edit(
        &files,
        "shop/commands/stock.py",
        "def run(args):\n    print(4)\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("command shopctl stock"), "{reached:?}");
    assert!(!reached.contains("command shop stock"), "{reached:?}");
}
