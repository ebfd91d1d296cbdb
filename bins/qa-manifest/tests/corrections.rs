//! One reviewer correction changes the next run of the real change flow, deterministically:
//! accept makes a scenario team policy and golden, reject makes it disappear.

use crate::common;
use common::*;

#[test]
fn an_accepted_scenario_is_team_policy_and_golden_on_the_next_run() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let avatar = scenario(&before, AVATAR);
    assert_eq!(avatar["data"]["authority"], "inference");
    assert_eq!(avatar["data"]["test_class"], "regression");

    let run = correct(&r, &saved, &["accept", id(avatar)]).success();
    assert!(run.text().contains("as flow"), "{}", run.text());

    let after = parse(&change_flow(&r));
    let avatar = scenario(&after, AVATAR);
    assert_eq!(avatar["data"]["authority"], "team-policy", "{avatar}");
    assert_eq!(avatar["data"]["test_class"], "golden", "{avatar}");
    assert_eq!(intent_of(&after, avatar)["data"]["flow"], AVATAR);
}

#[test]
fn accepting_one_scenario_leaves_unrelated_work_inferred() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    accept_scenario(&r, &saved, &before, AVATAR).success();

    let after = parse(&change_flow(&r));
    let checkout = scenario(&after, CHECKOUT);
    assert_eq!(checkout["data"]["authority"], "inference", "{checkout}");
    assert_eq!(checkout["data"]["test_class"], "regression", "{checkout}");
}

#[test]
fn an_accepted_flow_holds_the_scenarios_files_and_assertions() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    accept_scenario(&r, &saved, &before, CHECKOUT).success();
    assert_eq!(
        manifest_text(&r),
        "version: 1\nflows:\n  - name: \"Confirm the order number after payment\"\n    criticality: normal\n    paths: [\"src/checkout/submitOrder.ts\"]\n    expected: [\"Shows \\\"Order ${order.number} is confirmed\\\"\"]\n"
    );
}

#[test]
fn an_accepted_intent_makes_its_scenarios_team_policy() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let intent = intent_of(&before, scenario(&before, CHECKOUT));
    correct(&r, &saved, &["accept", id(intent)]).success();

    let after = parse(&change_flow(&r));
    let checkout = scenario(&after, CHECKOUT);
    assert_eq!(checkout["data"]["authority"], "team-policy");
    assert_eq!(checkout["data"]["test_class"], "golden");
    assert_ne!(scenario(&after, AVATAR)["data"]["authority"], "team-policy");
}

#[test]
fn accepting_the_same_scenario_twice_changes_nothing_the_second_time() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let avatar = id(scenario(&before, AVATAR)).to_string();
    correct(&r, &saved, &["accept", &avatar]).success();
    let once = manifest_text(&r);
    let again = correct(&r, &saved, &["accept", &avatar]).success();
    assert!(
        again.text().contains("already team policy"),
        "{}",
        again.text()
    );
    assert_eq!(manifest_text(&r), once);
}

#[test]
fn a_rejected_scenario_is_gone_on_the_next_run() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let reason = "initials are cosmetic";
    reject_scenario(&r, &saved, &before, AVATAR, reason).success();

    let after = parse(&change_flow(&r));
    assert!(
        scenarios(&after, AVATAR).is_empty(),
        "the avatar scenario came back"
    );
    let diags = of_kind(&after, "diag");
    assert!(
        diags.iter().any(|d| d["data"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("suppressed") && m.contains(reason))),
        "{diags:#?}"
    );
}

#[test]
fn rejecting_one_scenario_keeps_the_others() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    reject_scenario(&r, &saved, &before, AVATAR, "cosmetic").success();
    let after = parse(&change_flow(&r));
    assert_eq!(scenarios(&after, CHECKOUT).len(), 1);
}

#[test]
fn a_suppression_names_the_exact_title_and_its_evidence_files() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    reject_scenario(&r, &saved, &before, AVATAR, "cosmetic").success();
    assert_eq!(
        manifest_text(&r),
        "version: 1\nsuppressions:\n  - scenario: \"Show initials when the avatar is missing\"\n    paths: [\"src/profile/avatar.ts\"]\n    reason: \"cosmetic\"\n"
    );
}

#[test]
fn an_id_prefix_of_twelve_hex_digits_is_enough() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let full = id(scenario(&before, AVATAR));
    let prefix = &full["sha256:".len().."sha256:".len() + 12];
    correct(&r, &saved, &["accept", prefix]).success();
    let after = parse(&change_flow(&r));
    assert_eq!(scenario(&after, AVATAR)["data"]["authority"], "team-policy");
}

#[test]
fn an_id_prefix_under_twelve_hex_digits_is_a_usage_error() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let full = id(scenario(&before, AVATAR));
    let run = correct(&r, &saved, &["accept", &full[..full.len() - 53]]);
    assert_eq!(run.code, 64, "{}", run.stderr);
    assert!(!manifest_path(&r).exists());
}

#[test]
fn the_same_correction_gives_the_same_manifest_and_the_same_next_stream() {
    let outcome = || {
        let r = shop(None);
        let (saved, before) = save_flow(&r, "run.ndjson");
        accept_scenario(&r, &saved, &before, CHECKOUT).success();
        reject_scenario(&r, &saved, &before, AVATAR, "cosmetic").success();
        (manifest_text(&r), change_flow(&r))
    };
    let (manifest_a, stream_a) = outcome();
    let (manifest_b, stream_b) = outcome();
    assert_eq!(manifest_a, manifest_b);
    assert_eq!(stream_a, stream_b);
}

use qa_testkit::{of_kind, parse};

#[test]
fn a_flow_accepted_from_one_scenario_is_anchored_in_its_product_files_not_a_shared_test() {
    let r = shop_with_shared_test();
    let (saved, before) = save_flow(&r, "run.ndjson");
    let checkout = scenario(&before, CHECKOUT);
    let cites_test = checkout["data"]["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .any(|e| e["file"] == "test/shop.test.ts");
    assert!(
        cites_test,
        "the fixture must cite the shared test: {checkout:#}"
    );
    accept_scenario(&r, &saved, &before, CHECKOUT).success();
    let manifest = manifest_text(&r);
    assert!(
        manifest.contains("paths: [\"src/checkout/submitOrder.ts\"]"),
        "{manifest}"
    );
    assert!(!manifest.contains("test/shop.test.ts"), "{manifest}");
}

#[test]
fn accepting_one_scenario_leaves_another_citing_the_same_test_file_outside_team_policy() {
    let r = shop_with_shared_test();
    let (saved, before) = save_flow(&r, "run.ndjson");
    accept_scenario(&r, &saved, &before, CHECKOUT).success();

    let after = parse(&change_flow(&r));
    assert_eq!(
        scenario(&after, CHECKOUT)["data"]["authority"],
        "team-policy"
    );
    let avatar = scenario(&after, AVATAR);
    assert_ne!(avatar["data"]["authority"], "team-policy", "{avatar:#}");
}

#[test]
fn a_hand_written_flow_anchored_only_in_a_test_file_makes_nothing_team_policy() {
    let r = shop_with_shared_test();
    let manifest = "version: 1\nflows:\n  - name: \"shop tests\"\n    criticality: normal\n    paths: [\"test/shop.test.ts\"]\n";
    let after = flow_under_manifest(&r, manifest);
    for title in [CHECKOUT, AVATAR] {
        let s = scenario(&after, title);
        assert_ne!(s["data"]["authority"], "team-policy", "{s:#}");
    }
}

#[test]
fn a_hand_written_flow_anchored_in_a_product_file_is_team_policy() {
    let r = shop_with_shared_test();
    let manifest = "version: 1\nflows:\n  - name: \"checkout\"\n    criticality: normal\n    paths: [\"src/checkout/**\"]\n";
    let after = flow_under_manifest(&r, manifest);
    assert_eq!(
        scenario(&after, CHECKOUT)["data"]["authority"],
        "team-policy"
    );
    assert_ne!(scenario(&after, AVATAR)["data"]["authority"], "team-policy");
}

/// The change flow over `r` after committing nothing but writing `manifest` in `.qa/`.
fn flow_under_manifest(r: &qa_testkit::Repo, manifest: &str) -> Vec<serde_json::Value> {
    std::fs::create_dir_all(r.path().join(".qa")).expect(".qa");
    std::fs::write(manifest_path(r), manifest).expect("manifest");
    parse(&change_flow(r))
}
