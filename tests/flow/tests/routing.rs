//! qa-route picks the repository's own validation commands, narrowed to the changed test,
//! and only when the runner is on PATH. The runners here are stubs: qa-route only looks
//! them up on PATH and never runs them (each stub records it if it is run anyway).

use crate::common;
use common::*;

const PYPROJECT: &str = "[project]\nname = \"orders\"\nversion = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n";

const ORDERS_V1: &str = r#"from dataclasses import dataclass


@dataclass
class Order:
    number: str
    paid: int
    refunded: int = 0


def refund(order: Order, amount: int) -> Order:
    order.refunded += amount
    return order
"#;

const TEST_ORDERS_V1: &str = r#"from app.orders import Order, refund


def test_refund_adds_to_refunded():
    order = refund(Order(number="A1", paid=100), 30)
    assert order.refunded == 30
"#;

fn pytest_service() -> Repo {
    let mut r = feature_repo(&[
        ("pyproject.toml", PYPROJECT),
        ("app/__init__.py", ""),
        ("app/orders.py", ORDERS_V1),
        ("tests/test_orders.py", TEST_ORDERS_V1),
    ]);
    commit_files(
        &mut r,
        "fix: reject negative refunds",
        &[
            (
                "app/orders.py",
                &edit(
                    ORDERS_V1,
                    "    order.refunded += amount",
                    "    if amount < 0:\n        raise ValueError(\"refund amount must not be negative\")\n    order.refunded += amount",
                ),
            ),
            (
                "tests/test_orders.py",
                &format!("import pytest\n\n{TEST_ORDERS_V1}\n\ndef test_refund_rejects_negative():\n    with pytest.raises(ValueError):\n        refund(Order(number=\"A1\", paid=100), -5)\n"),
            ),
        ],
    );
    r
}

#[test]
fn a_pytest_service_routes_to_the_changed_test_file() {
    let r = pytest_service();
    let stubs = ToolStubs::new(&["pytest"]);
    let s = flow(&r).path(stubs.path_var()).run();
    let commands: Vec<&serde_json::Value> = s
        .of_kind("route")
        .into_iter()
        .map(|route| &route["data"]["command"])
        .filter(|c| c["run"].is_string())
        .collect();
    assert!(
        commands.iter().any(|c| c["runner"] == "pytest"
            && c["run"]
                .as_str()
                .is_some_and(|run| run.starts_with("pytest tests/test_orders.py"))),
        "no route runs the changed test file: {commands:?}"
    );
    assert!(stubs.ran().is_empty(), "qa-route ran {:?}", stubs.ran());
}

#[test]
fn without_pytest_on_path_the_route_keeps_its_command_with_the_precondition() {
    // Issue 30: a command whose runner is missing is still the command to run, with what
    // must be done first; it is never dropped to a warning.
    let r = pytest_service();
    let empty = ToolStubs::new(&[]);
    let s = flow(&r).path(empty.path_var()).run();
    let routes = s.of_kind("route");
    let unmet: Vec<&serde_json::Value> = routes
        .iter()
        .map(|route| &route["data"]["command"])
        .filter(|c| c["run"].as_str().is_some_and(|run| run.contains("pytest")))
        .collect();
    assert!(
        !unmet.is_empty(),
        "the pytest command stays: {:?}",
        s.command_lines()
    );
    for c in unmet {
        assert_eq!(c["unmet"]["program"], "pytest", "{c}");
        let said = c["unmet"]["precondition"].as_str().unwrap_or_default();
        assert!(said.contains("virtual environment"), "{said}");
    }
    // Control: with pytest on PATH the same route has nothing unmet.
    let stubs = ToolStubs::new(&["pytest"]);
    let s = flow(&r).path(stubs.path_var()).run();
    let routes = s.of_kind("route");
    assert!(
        s.command_lines().iter().any(|run| run.contains("pytest")),
        "{:?}",
        s.command_lines()
    );
    assert!(routes
        .iter()
        .all(|route| route["data"]["command"]["unmet"].is_null()));
}

#[test]
fn a_rust_crate_routes_to_the_changed_test_then_its_package() {
    let r = ledger_crate();
    let stubs = ToolStubs::new(&["cargo"]);
    let s = flow(&r).path(stubs.path_var()).run();
    let routes = s.of_kind("route");
    let exact = routes
        .iter()
        .map(|route| &route["data"])
        .find(|d| {
            d["command"]["run"].as_str().is_some_and(|run| {
                run.starts_with("cargo test -p ledger") && run.contains("refund_rejects_negative")
            })
        })
        .unwrap_or_else(|| panic!("no route runs the changed test: {:?}", s.command_lines()));
    assert_eq!(exact["command"]["scope"], "exact-test");
    assert_eq!(exact["command"]["runner"], "cargo");
    let additional: Vec<&str> = exact["additional_commands"]
        .as_array()
        .expect("additional_commands is an array")
        .iter()
        .filter_map(|c| c["run"].as_str())
        .collect();
    assert!(
        additional.contains(&"cargo test -p ledger"),
        "the package suite is the next candidate: {additional:?}"
    );
    assert!(stubs.ran().is_empty(), "qa-route ran {:?}", stubs.ran());
}
