//! The real `qa-diff | qa-intent` on a Next.js repository: the reached subgraph arrives
//! as `node` and `edge` records after the scenarios, and each scenario names the
//! entrypoints its changed files reach. Needs the built qa-diff (`cargo build --bins`).

use qa_testkit::{records, Program, Repo};
use serde_json::Value;

const QA_INTENT: &str = env!("CARGO_BIN_EXE_qa-intent");

/// main: a shop with a shared button used by checkout only; feature: the button changes.
fn shop() -> Repo {
    let mut r = Repo::new();
    r.write(
        "package.json",
        r#"{"name": "shop", "dependencies": {"next": "15.0.0"}}"#,
    );
    r.write(
        "components/PayButton.tsx",
        "export function PayButton() {\n  return <button>Pay</button>;\n}\n",
    );
    r.write(
        "pages/checkout.tsx",
        "import { PayButton } from '../components/PayButton';\nexport default function Checkout() {\n  return <PayButton />;\n}\n",
    );
    r.write(
        "pages/about.tsx",
        "export default function About() {\n  return <p>About</p>;\n}\n",
    );
    r.commit("chore: init");
    r.branch("feature");
    r.write(
        "components/PayButton.tsx",
        "export function PayButton() {\n  return <button onClick={() => submitPayment()}>Pay now</button>;\n}\n",
    );
    r.commit("feat(checkout): pay button submits the payment and shows pay now");
    r
}

/// qa-diff's stream of the feature branch against main.
fn diff(repo: &Repo) -> Vec<u8> {
    repo.diff_stream("main")
}

/// qa-intent --repo `repo` on `stream`; every record schema-checked, ids recomputed.
fn intent(repo: &std::path::Path, stream: Vec<u8>) -> Vec<Value> {
    Program::at(QA_INTENT)
        .invocation()
        .arg("--repo")
        .arg(repo)
        .stdin(stream)
        .run()
        .records()
}

fn pipeline(repo: &Repo) -> Vec<Value> {
    intent(repo.path(), diff(repo))
}

fn nodes<'a>(rs: &'a [Value], kind: &str, name: &str) -> Vec<&'a Value> {
    records::of_kind(rs, "node")
        .into_iter()
        .filter(|n| n["data"]["kind"] == kind && n["data"]["name"] == name)
        .collect()
}

#[test]
fn the_reached_subgraph_follows_the_scenarios_as_node_and_edge_records() {
    let repo = shop();
    let rs = pipeline(&repo);
    let button = nodes(&rs, "source-file", "components/PayButton.tsx");
    assert_eq!(button.len(), 1);
    assert_eq!(button[0]["data"]["impact"], "direct");
    let route = nodes(&rs, "route", "/checkout");
    assert_eq!(route.len(), 1);
    assert_eq!(route[0]["data"]["impact"], "propagated");
    assert!(nodes(&rs, "route", "/about").is_empty());
    let position = |kind: &str| rs.iter().position(|r| r["kind"] == kind).unwrap();
    let last = |kind: &str| rs.iter().rposition(|r| r["kind"] == kind).unwrap();
    assert!(last("scenario") < position("node"));
    assert!(last("node") < position("edge"));
    let range = records::of_kind(&rs, "range")[0]["id"].clone();
    assert_eq!(button[0]["from"], serde_json::json!([range]));
}

#[test]
fn a_scenario_on_the_changed_button_reaches_the_checkout_route_only() {
    let rs = pipeline(&shop());
    let scenarios = records::of_kind(&rs, "scenario");
    assert!(!scenarios.is_empty());
    let reaching: Vec<&Value> = scenarios
        .iter()
        .copied()
        .filter(|s| s["data"]["reaches"].is_array())
        .collect();
    assert!(!reaching.is_empty(), "{scenarios:#?}");
    for s in reaching {
        assert_eq!(s["data"]["reaches"], serde_json::json!(["route /checkout"]));
    }
}

#[test]
fn the_same_repository_state_gives_the_same_graph_records() {
    let graph = |rs: Vec<Value>| -> Vec<Value> {
        rs.into_iter()
            .filter(|r| r["kind"] == "node" || r["kind"] == "edge")
            .map(|r| r["id"].clone())
            .collect()
    };
    let repo = shop();
    let first = graph(pipeline(&repo));
    assert!(!first.is_empty());
    assert_eq!(first, graph(pipeline(&repo)));
}

#[test]
fn a_stream_from_another_repository_is_exit_66_naming_both() {
    let elsewhere = Repo::new();
    let stream = diff(&shop());
    let run = Program::at(QA_INTENT)
        .invocation()
        .arg("--repo")
        .arg(elsewhere.path())
        .stdin(stream)
        .run();
    assert_eq!(run.code, 66, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(
        lines[0].contains(&elsewhere.path().display().to_string())
            && lines[0].contains("does not hold the range's head commit"),
        "{}",
        run.stderr
    );
    assert!(
        !run.text().contains("\"kind\":\"intent\""),
        "no intent from another history"
    );
}

#[test]
fn the_repository_that_holds_the_head_commit_is_accepted() {
    let repo = shop();
    let rs = intent(repo.path(), diff(&repo));
    assert!(!records::of_kind(&rs, "intent").is_empty());
}

#[test]
fn qa_route_reports_deep_behavior_impact_from_the_graph_records() {
    let repo = shop();
    let intent_out: Vec<u8> = pipeline(&repo)
        .iter()
        .flat_map(|r| {
            let mut line = serde_json::to_vec(r).unwrap();
            line.push(b'\n');
            line
        })
        .collect();
    let route = |stdin: Vec<u8>| {
        let rs = Program::built("qa-route")
            .invocation()
            .arg("--repo")
            .arg(repo.path())
            .stdin(stdin)
            .run()
            .records();
        records::of_kind(&rs, "capability")
            .into_iter()
            .find(|c| c["data"]["name"] == "behavior-impact")
            .expect("a behavior-impact receipt")["data"]
            .clone()
    };
    let with_graph = route(intent_out.clone());
    assert_eq!(
        (&with_graph["status"], &with_graph["depth"]),
        (&"available".into(), &"deep".into())
    );
    // The same stream without its graph records: the receipt says there is no graph.
    let without: Vec<u8> = intent_out
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .filter(|l| {
            let v: Value = serde_json::from_slice(l).unwrap();
            v["kind"] != "node" && v["kind"] != "edge"
        })
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    assert_eq!(route(without)["status"], "unavailable");
}
