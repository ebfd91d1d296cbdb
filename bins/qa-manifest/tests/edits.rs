//! What an edit keeps and what it refuses: every byte outside the appended block, and the
//! file untouched when the id is unknown or the result would not parse.

use crate::common;
use common::*;
use qa_testkit::parse;

/// A reviewed manifest with comments, odd spacing and both blocks.
const REVIEWED: &str = "\
# Team QA policy: reviewed in every pull request.
version: 1

flows:   # the flows we protect
  # Payments are critical.
  - name: payments
    criticality:   critical
    paths: [\"src/payments/**\"]   # not touched by the fixture
    expected:
      - \"the receipt shows the amount\"

# Known noise, with reasons.
suppressions:
  - scenario: \"calendar\"
    reason: analyzer word lists are not product journeys
# trailing note
";

/// `after` is `before` with one block inserted: the bytes before and after it unchanged.
fn inserted(before: &str, after: &str) -> String {
    let head = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let tail = before[head..]
        .bytes()
        .rev()
        .zip(after[head..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    assert_eq!(
        head + tail,
        before.len(),
        "bytes of the old file changed:\n{after}"
    );
    after[head..after.len() - tail].to_string()
}

#[test]
fn accept_keeps_every_comment_and_key_order_byte_for_byte() {
    let r = shop(Some(REVIEWED));
    let (saved, before) = save_flow(&r, "run.ndjson");
    accept_scenario(&r, &saved, &before, AVATAR).success();
    let added = inserted(REVIEWED, &manifest_text(&r));
    assert!(
        added.starts_with("  - name: \"Show initials when the avatar is missing\"\n"),
        "{added}"
    );
    // The new flow goes right after the last flow, before the comment of the next block.
    assert!(manifest_text(&r).contains("the amount\"\n  - name: \"Show initials"));
}

#[test]
fn reject_keeps_every_comment_and_key_order_byte_for_byte() {
    let r = shop(Some(REVIEWED));
    let (saved, before) = save_flow(&r, "run.ndjson");
    reject_scenario(&r, &saved, &before, AVATAR, "cosmetic").success();
    let added = inserted(REVIEWED, &manifest_text(&r));
    assert_eq!(
        added,
        "  - scenario: \"Show initials when the avatar is missing\"\n    paths: [\"src/profile/avatar.ts\"]\n    reason: \"cosmetic\"\n"
    );
}

#[test]
fn an_existing_flow_that_anchors_the_files_already_makes_it_team_policy() {
    let manifest = "version: 1\nflows:\n  - name: profile\n    criticality: low\n    paths: [\"src/profile/**\"]\n";
    let r = shop(Some(manifest));
    let (saved, before) = save_flow(&r, "run.ndjson");
    let run = accept_scenario(&r, &saved, &before, AVATAR).success();
    assert!(
        run.text().contains("through flow \"profile\""),
        "{}",
        run.text()
    );
    assert_eq!(manifest_text(&r), manifest);
}

#[test]
fn an_unknown_id_is_refused_and_the_manifest_untouched() {
    let r = shop(Some(REVIEWED));
    let (saved, _) = save_flow(&r, "run.ndjson");
    let run = correct(&r, &saved, &["accept", "sha256:0123456789abcdef"]);
    assert_refused(&run, 65, "no scenario, intent or flow node");
    assert_eq!(manifest_text(&r), REVIEWED);
    assert_eq!(qa_dir_entries(&r), ["manifest.yaml"]);
}

#[test]
fn an_id_of_another_record_kind_is_refused_by_name() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let range = qa_testkit::of_kind(&before, "range")[0];
    let run = correct(&r, &saved, &["accept", id(range)]);
    assert_refused(&run, 65, "is a `range` record");
    assert!(!manifest_path(&r).exists());
}

#[test]
fn reject_refuses_an_intent_id() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    let intent = intent_of(&before, scenario(&before, AVATAR));
    let run = correct(&r, &saved, &["reject", id(intent), "--reason", "noise"]);
    assert_refused(&run, 65, "not a scenario");
    assert!(!manifest_path(&r).exists());
}

#[test]
fn an_edit_that_would_not_parse_is_refused_and_the_file_untouched() {
    // A document-end marker: text appended after it is a second document.
    let manifest = "version: 1\n...\n";
    let r = shop(Some(manifest));
    let (saved, before) = save_flow(&r, "run.ndjson");
    let run = accept_scenario(&r, &saved, &before, AVATAR);
    assert_refused(&run, 65, "would not parse");
    assert_eq!(manifest_text(&r), manifest);
    assert_eq!(qa_dir_entries(&r), ["manifest.yaml"]);
}

#[test]
fn a_non_empty_flow_style_block_is_refused_and_the_file_untouched() {
    let manifest = "version: 1\nflows: [{name: a, criticality: low, symbols: [x]}]\n";
    let r = shop(Some(manifest));
    let (saved, before) = save_flow(&r, "run.ndjson");
    let run = accept_scenario(&r, &saved, &before, AVATAR);
    assert_refused(&run, 65, "not a block sequence");
    assert_eq!(manifest_text(&r), manifest);
}

#[test]
fn an_empty_flow_style_block_becomes_a_block_sequence() {
    let manifest = "version: 1\nflows: [] # none yet\n";
    let r = shop(Some(manifest));
    let (saved, before) = save_flow(&r, "run.ndjson");
    accept_scenario(&r, &saved, &before, AVATAR).success();
    assert!(
        manifest_text(&r).starts_with("version: 1\nflows: # none yet\n  - name: \"Show initials"),
        "{}",
        manifest_text(&r)
    );
    let after = parse(&change_flow(&r));
    assert_eq!(scenario(&after, AVATAR)["data"]["authority"], "team-policy");
}

#[test]
fn an_invalid_manifest_is_refused_before_any_edit() {
    let manifest = "version: 1\nflows:\n  - name: a\n    criticality: urgent\n    symbols: [x]\n";
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    r.write(".qa/manifest.yaml", manifest);
    let run = accept_scenario(&r, &saved, &before, AVATAR);
    assert_refused(&run, 65, "flows[0].criticality");
    assert_eq!(manifest_text(&r), manifest);
}
