//! Precision on repositories written the way people write them: review-fix commits after
//! ticket-prefixed work, persistence claims, benchmarks, rule wiring and state words.

use crate::common;

use common::*;

const ORDERS_V1: &str = "import { Router } from \"express\";\nimport { db } from \"../db\";\n\nexport const orders = Router();\n\norders.get(\"/:id\", async (req, res) => {\n  res.json(await db.orders.find(req.params.id));\n});\n";

fn cancel_route() -> String {
    format!(
        "{ORDERS_V1}\norders.post(\"/:id/cancel\", async (req, res) => {{\n  const order = await db.orders.find(req.params.id);\n  if (!order) {{\n    return res.status(404).json({{ error: \"order not found\" }});\n  }}\n  if (order.shippedAt) {{\n    return res.status(409).json({{ error: \"order can no longer be cancelled\" }});\n  }}\n  order.status = \"cancelled\";\n  await db.orders.save(order);\n  res.json(order);\n}});\n"
    )
}

#[test]
fn a_review_fix_after_ticket_prefixed_work_keeps_the_feature() {
    let mut r = feature_repo(&[("src/routes/orders.ts", ORDERS_V1)]);
    let feature = commit_files(
        &mut r,
        "ORD-231 add cancel endpoint for orders",
        &[("src/routes/orders.ts", &cancel_route())],
    );
    let tip = commit_files(
        &mut r,
        "address review feedback",
        &[(
            "src/routes/orders.ts",
            &edit(
                &cancel_route(),
                "can no longer be cancelled",
                "has already shipped",
            ),
        )],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_commit(&feature);
    assert_eq!(intent["data"]["focus"], "product", "{}", s.summary());
    // The review fix rewords an error message: its diff changes what a user sees, so it
    // joins the feature's intent as behaviour, anchored after the feature (issue 29).
    assert!(strs(&intent["data"]["commits"]).contains(&tip.as_str()));
    assert_eq!(strs(&intent["data"]["commits"])[0], feature.as_str());
    assert_eq!(intent["data"]["title"], "Add cancel endpoint for orders");
    assert!(strs(&intent["data"]["tickets"]).contains(&"ORD-231"));
    let scenarios = s.scenarios_of(intent);
    assert!(
        scenarios.iter().any(|sc| sc["data"]["kind"] == "failure"),
        "{}",
        s.summary()
    );
    assert!(
        scenarios.iter().any(|sc| title(sc).contains("cancelled")),
        "the status change is a scenario: {}",
        s.summary()
    );
}

const SETTINGS_V1: &str = "export function Settings() {\n  return <form></form>;\n}\n";

#[test]
fn a_storage_write_and_read_of_one_key_claims_persistence() {
    let mut r = feature_repo(&[("src/Settings.tsx", SETTINGS_V1)]);
    commit_files(
        &mut r,
        "feat: remember the theme",
        &[(
            "src/Settings.tsx",
            "export function Settings() {\n  const [theme, setTheme] = useState(localStorage.getItem(\"theme\") ?? \"light\");\n  function save(next: string) {\n    localStorage.setItem(\"theme\", next);\n    setTheme(next);\n  }\n  return <form onSubmit={() => save(theme)}></form>;\n}\n",
        )],
    );
    let s = flow(&r).run();
    let persistence: Vec<_> = s
        .scenarios()
        .into_iter()
        .filter(|sc| title(sc).starts_with("persistence"))
        .collect();
    assert_eq!(persistence.len(), 1, "{}", s.summary());
    assert!(has_evidence_at(persistence[0], "src/Settings.tsx", 2));
    assert!(has_evidence_at(persistence[0], "src/Settings.tsx", 4));
}

#[test]
fn a_storage_write_without_a_read_claims_no_persistence() {
    let mut r = feature_repo(&[("src/Settings.tsx", SETTINGS_V1)]);
    commit_files(
        &mut r,
        "feat: remember the theme",
        &[(
            "src/Settings.tsx",
            "export function Settings() {\n  function save(next: string) {\n    localStorage.setItem(\"theme\", next);\n  }\n  return <form onSubmit={() => save(\"dark\")}></form>;\n}\n",
        )],
    );
    let s = flow(&r).run();
    assert!(
        s.scenarios()
            .iter()
            .all(|sc| !title(sc).starts_with("persistence")),
        "{}",
        s.summary()
    );
}

#[test]
fn benchmark_scripts_never_create_product_scenarios() {
    let mut r = feature_repo(&[(
        "src/lint.js",
        "export function lint(text) {\n  return [];\n}\n",
    )]);
    commit_files(
        &mut r,
        "feat: benchmark the linter",
        &[(
            "bench/run.js",
            "const results = lint(corpus);\nif (results.length === 0) {\n  throw new Error(\"benchmark corpus produced no findings\");\n}\n",
        )],
    );
    let s = flow(&r).run();
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
}

#[test]
fn a_product_file_that_only_wires_in_a_rule_is_no_product_journey() {
    let mut r = feature_repo(&[
        (
            "src/index.js",
            "const rules = [require(\"./rules/caps\")];\nmodule.exports = rules;\n",
        ),
        (
            "src/rules/caps.js",
            "const CAPS = new RegExp(\"[A-Z]{5,}\");\nmodule.exports = (t) => CAPS.test(t);\n",
        ),
    ]);
    commit_files(
        &mut r,
        "feat(rules): add urgency rule for checkout and login copy",
        &[
            ("src/index.js", "const rules = [require(\"./rules/caps\"), require(\"./rules/urgency\")];\nmodule.exports = rules;\n"),
            ("src/rules/urgency.js", "const URGENT = new RegExp(\"\\\\b(hurry|last chance|only \\\\d+ left)\\\\b\", \"i\");\nmodule.exports = (t) => URGENT.test(t);\n"),
        ],
    );
    let s = flow(&r).run();
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
    assert!(
        !s.scenarios_of_focus("analysis-rule").is_empty(),
        "{}",
        s.summary()
    );
    // Control: the same commit with a real product change keeps its journey.
    let mut r = feature_repo(&[("src/index.js", "module.exports = [];\n")]);
    commit_files(
        &mut r,
        "feat: warn about urgency copy",
        &[("src/index.js", "module.exports = [];\nexport function warn(text) {\n  toast.warning(\"Urgency copy found\");\n}\n")],
    );
    let s = flow(&r).run();
    assert!(
        !s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
}

#[test]
fn a_changed_test_naming_a_rule_is_that_rules_contract() {
    let mut r = feature_repo(&[(
        "test/rules.test.js",
        "const { lint } = require(\"../src/index\");\n",
    )]);
    commit_files(
        &mut r,
        "feat: add urgency rule",
        &[(
            "src/rules/urgency.js",
            "const URGENT = new RegExp(\"act now|last chance\", \"i\");\nmodule.exports = (t) => URGENT.test(t);\n",
        )],
    );
    commit_files(
        &mut r,
        "test: cover the new rule",
        &[(
            "test/rules.test.js",
            "const { lint } = require(\"../src/index\");\ntest(\"urgency flags act now\", () => {\n  expect(lint(\"act now\").length).toBe(1);\n});\n",
        )],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_file("src/rules/urgency.js");
    assert_eq!(
        intent["data"]["authority"],
        "repository-contract",
        "{}",
        s.summary()
    );
    assert!(strs(&intent["data"]["files"]).contains(&"test/rules.test.js"));
    // Control: a test title naming another subject stays separate evidence.
    let mut r = feature_repo(&[(
        "test/rules.test.js",
        "const { lint } = require(\"../src/index\");\n",
    )]);
    commit_files(
        &mut r,
        "feat: add urgency rule",
        &[(
            "src/rules/urgency.js",
            "const URGENT = new RegExp(\"act now|last chance\", \"i\");\nmodule.exports = (t) => URGENT.test(t);\n",
        )],
    );
    commit_files(
        &mut r,
        "test: cover casing",
        &[(
            "test/rules.test.js",
            "const { lint } = require(\"../src/index\");\ntest(\"casing flags SHOUTING\", () => {\n  expect(lint(\"SHOUTING\").length).toBe(1);\n});\n",
        )],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_file("src/rules/urgency.js");
    assert_eq!(intent["data"]["authority"], "inference", "{}", s.summary());
}

#[test]
fn a_wip_line_in_the_features_file_is_not_the_features_direct_evidence() {
    let base = "export function refund(amount: number) {\n  return amount;\n}\n";
    let mut r = feature_repo(&[("src/refund.ts", base)]);
    let feature = "export function refund(amount: number) {\n  if (amount < 0) {\n    throw new Error(\"Refund amount must be positive\");\n  }\n  return amount;\n}\n";
    let feat = commit_files(
        &mut r,
        "fix: reject negative refund amounts",
        &[("src/refund.ts", feature)],
    );
    let with_wip = format!("{feature}export function exportCsv(rows: string[]) {{\n  toast.success(\"Exported CSV\");\n}}\n");
    commit_files(&mut r, "wip", &[("src/refund.ts", &with_wip)]);
    let s = flow(&r).run();
    let intent = s.intent_with_commit(&feat);
    let csv_line = line_of(&with_wip, "Exported CSV");
    for sc in s.scenarios_of(intent) {
        let direct_csv = sc["data"]["evidence"].as_array().unwrap().iter().any(|e| {
            e["file"] == "src/refund.ts" && e["line"] == csv_line && e["relation"] == "direct"
        });
        assert!(!direct_csv, "{}", s.summary());
    }
    // The feature's own line stays direct.
    let throw_line = line_of(&with_wip, "Refund amount must be positive");
    assert!(
        s.scenarios_of(intent).iter().any(|sc| {
            sc["data"]["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["line"] == throw_line && e["relation"] == "direct")
        }),
        "{}",
        s.summary()
    );
}
