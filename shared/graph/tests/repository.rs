//! Repository fixtures: tests and fixtures are reached as evidence (never entrypoints),
//! and the reviewed manifest's flows contain the files their globs match.

use crate::common;
use common::*;
use qa_records::graph::NodeKind;

fn tested_shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("shop/__init__.py", ""),
        ("shop/pricing.py", "def total(items):\n    return sum(items)\n"),
        ("shop/audit.py", "def log(e):\n    return e\n"),
        (
            "tests/test_pricing.py",
            "from pathlib import Path\nfrom shop.pricing import total\n\nDATA = Path(__file__).parent / 'fixtures' / 'order.json'\n\ndef test_total():\n    assert total([1]) == 1\n",
        ),
        ("tests/test_audit.py", "from shop.audit import log\n\ndef test_log():\n    assert log(1) == 1\n"),
        ("tests/fixtures/order.json", "{\"items\": [1]}\n"),
        ("tests/fixtures/unused.json", "{}\n"),
    ]
}

fn assertion(path: &str) -> NodeKey {
    NodeKey::new(NodeKind::Assertion, path)
}

#[test]
fn a_changed_module_reaches_the_tests_that_import_it() {
    let change = Change::edit(
        &tested_shop(),
        "shop/pricing.py",
        "def total(items):\n    return 0\n",
    );
    let cg = change.analyze();
    assert!(cg.impacts.reaches(&assertion("tests/test_pricing.py")));
    assert!(!cg.impacts.reaches(&assertion("tests/test_audit.py")));
}

#[test]
fn tests_are_evidence_not_entrypoints() {
    let change = Change::edit(
        &tested_shop(),
        "shop/pricing.py",
        "def total(items):\n    return 0\n",
    );
    let cg = change.analyze();
    assert!(reached(&cg).is_empty(), "{:?}", reached(&cg));
    assert!(qa_graph::records::reaches(&cg, ["shop/pricing.py"]).is_empty());
}

#[test]
fn a_changed_fixture_reaches_the_test_that_names_it() {
    let change = Change::edit(
        &tested_shop(),
        "tests/fixtures/order.json",
        "{\"items\": [2]}\n",
    );
    let cg = change.analyze();
    let fixture = NodeKey::new(NodeKind::Fixture, "tests/fixtures/order.json");
    assert!(cg.impacts.reaches(&fixture));
    assert!(cg.impacts.reaches(&assertion("tests/test_pricing.py")));
    assert!(!cg.impacts.reaches(&assertion("tests/test_audit.py")));
}

#[test]
fn a_fixture_no_test_names_is_not_a_node() {
    let change = Change::edit(&tested_shop(), "tests/fixtures/unused.json", "{\"x\": 1}\n");
    let cg = change.analyze();
    let unused = NodeKey::new(NodeKind::Fixture, "tests/fixtures/unused.json");
    assert!(!cg.head.nodes.contains_key(&unused));
    assert!(!cg.impacts.reaches(&assertion("tests/test_pricing.py")));
}

#[test]
fn a_go_test_expects_the_package_it_sits_in() {
    let files = [
        ("go.mod", "module example.com/shop\n"),
        (
            "cart/cart.go",
            "package cart\n\nfunc Total() int { return 1 }\n",
        ),
        (
            "cart/cart_test.go",
            "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {}\n",
        ),
        (
            "stock/stock_test.go",
            "package stock\n\nimport \"testing\"\n\nfunc TestNone(t *testing.T) {}\n",
        ),
        (
            "stock/stock.go",
            "package stock\n\nfunc Level() int { return 1 }\n",
        ),
    ];
    let change = Change::edit(
        &files,
        "cart/cart.go",
        "package cart\n\nfunc Total() int { return 2 }\n",
    );
    let cg = change.analyze();
    assert!(cg.impacts.reaches(&assertion("cart/cart_test.go")));
    assert!(!cg.impacts.reaches(&assertion("stock/stock_test.go")));
}

const MANIFEST: &str = "version: 1\nflows:\n  - name: checkout\n    criticality: critical\n    paths: [\"shop/pricing.py\"]\n  - name: audit\n    criticality: normal\n    paths: [\"shop/audit*.py\"]\n";

/// The tested shop with `manifest` as its `.qa/manifest.yaml`, after a pricing edit.
fn pricing_change_with_manifest(manifest: &str) -> ChangeGraph {
    let mut files = tested_shop();
    files.push((".qa/manifest.yaml", manifest));
    Change::edit(
        &files,
        "shop/pricing.py",
        "def total(items):\n    return 0\n",
    )
    .analyze()
}

#[test]
fn a_manifest_flow_is_reached_by_a_change_to_a_file_its_globs_match() {
    let cg = pricing_change_with_manifest(MANIFEST);
    assert!(cg
        .impacts
        .reaches(&NodeKey::new(NodeKind::Flow, "checkout")));
    assert!(!cg.impacts.reaches(&NodeKey::new(NodeKind::Flow, "audit")));
}

#[test]
fn a_broken_manifest_fails_the_flows_adapter_and_keeps_the_rest() {
    let cg = pricing_change_with_manifest(
        "version: 1\nflows:\n  - name: checkout\n    criticality: urgent\n",
    );
    assert!(cg
        .head
        .diags
        .iter()
        .any(|d| d.source == "flows" && d.message.contains("criticality")));
    assert!(cg.impacts.reaches(&assertion("tests/test_pricing.py")));
}
