//! Adapter isolation and tree boundaries: a failing adapter becomes a diagnostic while
//! the others' output stays; nested repositories and vendored code are never nodes.

use crate::common;
use common::*;
use qa_graph::adapter::{Adapter, Context, Detection, Layer};
use qa_graph::model::{Fragment, Outcome};
use qa_graph::tree::Snapshot;
use qa_records::graph::Support;

fn app_with_cli(package_json: &str) -> Change {
    Change::new(
        &[
            ("package.json", package_json),
            ("src/cli.ts", "import { run } from './run';\nrun();\n"),
            ("src/run.ts", "export const run = () => 1;\n"),
        ],
        &[("src/run.ts", "export const run = () => 2;\n")],
    )
}

fn outcome<'a>(cg: &'a ChangeGraph, id: &str) -> &'a Outcome {
    &cg.head
        .adapters
        .iter()
        .find(|a| a.id == id)
        .expect("the adapter ran")
        .outcome
}

#[test]
fn a_broken_manifest_fails_the_commands_adapter_and_keeps_the_import_graph() {
    let cg = app_with_cli(r#"{"name": "shop", "bin": {"shop": "src/cli.ts"#).analyze();
    assert!(
        matches!(outcome(&cg, "commands"), Outcome::Failed { error } if error.contains("package.json is not valid JSON"))
    );
    assert!(cg
        .head
        .diags
        .iter()
        .any(|d| d.source == "commands" && d.message.starts_with("adapter commands failed")));
    assert!(
        reaches_file(&cg, "src/cli.ts"),
        "the typescript adapter's edges survive"
    );
    assert!(reached(&cg).is_empty());
}

#[test]
fn a_valid_manifest_gives_the_command_the_broken_one_lost() {
    let cg = app_with_cli(r#"{"name": "shop", "bin": {"shop": "src/cli.ts"}}"#).analyze();
    assert!(matches!(outcome(&cg, "commands"), Outcome::Analyzed { .. }));
    assert!(reached(&cg).contains("command shop"));
}

/// An adapter that accepts every tree and panics while analyzing it.
struct Panicking;

impl Adapter for Panicking {
    fn id(&self) -> &'static str {
        "panicking"
    }
    fn layer(&self) -> Layer {
        Layer::Framework
    }
    fn support(&self) -> Support {
        Support::Deep
    }
    fn detect(&self, _: &Snapshot) -> Detection {
        Detection::Accept("always".to_string())
    }
    fn analyze(&self, _: &Context) -> anyhow::Result<Fragment> {
        panic!("index out of bounds")
    }
}

#[test]
fn a_panicking_adapter_is_reported_and_the_others_output_stays() {
    let change = app_with_cli(r#"{"name": "shop", "bin": {"shop": "src/cli.ts"}}"#);
    let mut adapters = qa_graph::adapters();
    adapters.push(Box::new(Panicking));
    let cg = change.analyze_with(&adapters);
    assert!(
        matches!(outcome(&cg, "panicking"), Outcome::Failed { error } if error == "panicked: index out of bounds")
    );
    assert!(reached(&cg).contains("command shop"));
    let without = change.analyze();
    assert_eq!(cg.head.nodes, without.head.nodes);
    assert_eq!(cg.head.edges, without.head.edges);
}

#[test]
fn a_framework_adapter_declines_a_tree_without_its_evidence() {
    let cg = app_with_cli(r#"{"name": "shop"}"#).analyze();
    assert!(
        matches!(outcome(&cg, "nextjs"), Outcome::Declined { reason } if reason.contains("next"))
    );
    assert!(matches!(outcome(&cg, "python"), Outcome::Declined { .. }));
    assert!(matches!(
        outcome(&cg, "typescript"),
        Outcome::Analyzed { .. }
    ));
}

#[test]
fn nested_repositories_and_vendored_code_are_never_nodes() {
    let mut repo = Repo::new();
    repo.write(
        "src/app.ts",
        "import lib from 'lib';\nimport { v } from '../vendor/v';\nexport const a = 1;\n",
    );
    repo.write("node_modules/lib/index.js", "module.exports = 1;\n");
    repo.write("vendor/v.ts", "export const v = 1;\n");
    repo.write("public/bundle.min.js", "var a=1;\n");
    let base = repo.commit("base");
    // A gitlink: a submodule's commit recorded in the tree, not its files.
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{base},libs/sub"),
    ]);
    repo.write(
        "src/app.ts",
        "import lib from 'lib';\nexport const a = 2;\n",
    );
    repo.git(&["add", "src/app.ts", "node_modules", "vendor", "public"]);
    let head = repo.commit_staged("head");
    let cg = qa_graph::analyze(
        repo.path(),
        &base,
        &head,
        &Default::default(),
        &qa_graph::adapters(),
        &qa_graph::Options::default(),
    )
    .unwrap();
    let paths: Vec<&str> = cg.head.nodes.keys().map(|k| k.name.as_str()).collect();
    assert_eq!(paths, ["src/app.ts"]);
    let skipped = cg
        .head
        .diags
        .iter()
        .find(|d| d.source == "tree")
        .expect("a tree diagnostic");
    assert!(
        skipped.message.contains("1 nested repositories"),
        "{}",
        skipped.message
    );
    assert!(
        skipped.message.contains("3 vendored paths"),
        "{}",
        skipped.message
    );
}

#[test]
fn the_same_files_outside_vendored_dirs_are_nodes() {
    let change = Change::new(
        &[
            ("src/app.ts", "import { v } from './v';\n"),
            ("src/v.ts", "export const v = 1;\n"),
            ("public/bundle.js", "var a=1;\n"),
        ],
        &[("src/v.ts", "export const v = 2;\n")],
    );
    let cg = change.analyze();
    assert!(cg
        .head
        .nodes
        .contains_key(&NodeKey::file("public/bundle.js")));
    assert!(reaches_file(&cg, "src/app.ts"));
}
