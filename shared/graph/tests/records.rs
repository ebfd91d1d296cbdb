//! The reached subgraph as records: valid against schema/node and schema/edge, nodes
//! before the edges naming them, and identical ids for the same repository state.

use crate::common;
use common::*;
use qa_graph::records::emit;
use qa_testkit::Schemas;
use serde_json::Value;

const RANGE: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000001";

fn shop() -> Change {
    Change::new(
        &[
            (
                "package.json",
                r#"{"name": "shop", "dependencies": {"next": "15"}}"#,
            ),
            (
                "components/Button.tsx",
                "export const Button = () => null;\n",
            ),
            (
                "pages/checkout.tsx",
                "import { Button } from '../components/Button';\nexport default () => <Button/>;\n",
            ),
            ("pages/about.tsx", "export default () => null;\n"),
        ],
        &[(
            "components/Button.tsx",
            "export const Button = () => 'pay';\n",
        )],
    )
}

fn records(change: &Change, unanalyzed: &[String]) -> Vec<Value> {
    let cg = change.analyze();
    let mut written = Vec::new();
    let diags = emit(
        &cg,
        "qa-test/0.0.0",
        "qa-test",
        &[RANGE.to_string()],
        unanalyzed,
        &mut |r| {
            written.push(serde_json::from_slice(&r.to_line())?);
            Ok(())
        },
    )
    .unwrap();
    assert!(!diags.is_empty(), "the bounds are always recorded");
    written
}

fn named<'a>(records: &'a [Value], kind: &str, name: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["kind"] == "node" && r["data"]["kind"] == kind && r["data"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} node {name}"))
}

#[test]
fn node_and_edge_records_validate_against_their_schemas() {
    let records = records(&shop(), &["styles/site.scss".to_string()]);
    assert!(Schemas::get().has_schema("node") && Schemas::get().has_schema("edge"));
    Schemas::get().validate_all(&records);
}

#[test]
fn the_same_repository_state_gives_the_same_ids() {
    let ids = |records: Vec<Value>| -> Vec<String> {
        records
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    // Two repositories built alike (fixed identity and clock): same commits, same graph.
    let first = ids(records(&shop(), &[]));
    let second = ids(records(&shop(), &[]));
    assert!(!first.is_empty());
    assert_eq!(first, second);
}

#[test]
fn a_different_change_gives_different_ids() {
    let other = Change::new(
        &[(
            "components/Button.tsx",
            "export const Button = () => null;\n",
        )],
        &[(
            "components/Button.tsx",
            "export const Button = () => 'other';\n",
        )],
    );
    let a = records(&shop(), &[]);
    let b = records(&other, &[]);
    let button = |rs: &[Value]| named(rs, "source-file", "components/Button.tsx")["id"].clone();
    assert_ne!(button(&a), button(&b));
}

#[test]
fn every_edge_names_nodes_written_before_it() {
    let records = records(&shop(), &[]);
    let mut seen = std::collections::HashSet::new();
    for r in &records {
        if r["kind"] == "edge" {
            for end in ["from", "to"] {
                assert!(seen.contains(r["data"][end].as_str().unwrap()), "{r}");
            }
        }
        seen.insert(r["id"].as_str().unwrap().to_string());
    }
}

#[test]
fn the_reached_route_is_tied_to_the_changed_file_and_the_unreached_page_is_absent() {
    let records = records(&shop(), &[]);
    let button = named(&records, "source-file", "components/Button.tsx");
    assert_eq!(button["data"]["impact"], "direct");
    assert_eq!(button["data"]["support"], "deep");
    assert_eq!(button["src"]["git.blob"].as_str().unwrap().len(), 40);
    let route = named(&records, "route", "/checkout");
    assert_eq!(route["data"]["impact"], "propagated");
    assert!(records
        .iter()
        .any(|r| r["data"]["kind"] == "impacted-by-diff"
            && r["data"]["from"] == route["id"]
            && r["data"]["to"] == button["id"]));
    assert!(!records.iter().any(|r| r["data"]["name"] == "/about"));
}

#[test]
fn a_changed_file_no_adapter_reads_is_a_generic_direct_node() {
    let records = records(&shop(), &["styles/site.scss".to_string()]);
    let node = named(&records, "source-file", "styles/site.scss");
    assert_eq!(node["data"]["support"], "generic");
    assert_eq!(node["data"]["adapter"], "diff");
}
