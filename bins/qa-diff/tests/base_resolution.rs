//! Base resolution: each source, in order, with a negative control for each.

use crate::common;
use common::*;
use serde_json::Value;

/// main (2 commits) <- feature (2 commits), checked out on feature.
fn feature_repo() -> Repo {
    let mut r = Repo::new();
    r.write("app.js", "one\n");
    r.commit("chore: init");
    r.write("app.js", "one\ntwo\n");
    r.commit("feat: two");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("app.js", "one\ntwo\nthree\n");
    r.commit("feat: three");
    r.write("app.js", "one\ntwo\nthree\nfour\n");
    r.commit("feat: four");
    r
}

fn base_of(run: &Run) -> Value {
    one(&run.records(), "range")["base"].clone()
}

#[test]
fn explicit_base_wins_over_every_other_source() {
    let r = feature_repo();
    r.git(&["config", "qa.base", "main"]);
    let run = r.qa_diff(&["--base", "HEAD~1"], &[("QA_BASE_REF", "main")]);
    let base = base_of(&run);
    assert_eq!(base["source"], "explicit");
    assert_eq!(base["ref"], "HEAD~1");
    assert_eq!(base["oid"], r.rev("HEAD~1"));
    assert_eq!(base["reason"], "--base HEAD~1 was given");
}

#[test]
fn unknown_explicit_base_exits_66_naming_ref_and_source() {
    let r = feature_repo();
    let run = r.qa_diff(&["--base", "no-such-branch"], &[]);
    assert_eq!(run.code, 66);
    assert_eq!(
        run.stderr.trim(),
        "qa-diff: error: unknown ref `no-such-branch` (from --base)"
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn unknown_head_exits_66_naming_ref_and_source() {
    let r = feature_repo();
    let run = r.qa_diff(&["--head", "nope"], &[]);
    assert_eq!(run.code, 66);
    assert!(
        run.stderr.contains("unknown ref `nope` (from --head)"),
        "{}",
        run.stderr
    );
}

#[test]
fn ci_variable_chooses_the_base_and_says_which() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    let run = r.qa_diff(&[], &[("GITHUB_BASE_REF", "release")]);
    let base = base_of(&run);
    assert_eq!(base["source"], "ci-env");
    assert_eq!(base["ref"], "release");
    assert!(base["reason"]
        .as_str()
        .unwrap()
        .contains("GITHUB_BASE_REF=release"));
}

#[test]
fn ci_variable_prefers_the_remote_tracking_branch() {
    let r = feature_repo();
    // origin/main is ahead of the local main, as after a fetch in CI.
    r.git(&["update-ref", "refs/remotes/origin/main", "HEAD~1"]);
    let run = r.qa_diff(&[], &[("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main")]);
    let base = base_of(&run);
    assert_eq!(base["ref"], "origin/main");
    assert_eq!(base["oid"], r.rev("HEAD~1"));
}

#[test]
fn ci_variables_are_read_in_documented_order() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    let run = r.qa_diff(
        &[],
        &[("QA_BASE_REF", "release"), ("GITHUB_BASE_REF", "main")],
    );
    assert_eq!(base_of(&run)["ref"], "release");
}

#[test]
fn every_ci_variable_is_a_source() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    for var in CI_VARIABLES {
        let run = r.qa_diff(&[], &[(var, "release")]);
        let base = base_of(&run);
        assert_eq!(base["source"], "ci-env", "{var}");
        assert!(base["reason"].as_str().unwrap().contains(var));
    }
}

#[test]
fn unresolvable_ci_value_is_skipped_with_a_diag() {
    let r = feature_repo();
    let run = r.qa_diff(&[], &[("GITHUB_BASE_REF", "gone-branch")]);
    let records = run.records();
    let base = &one(&records, "range")["base"];
    assert_eq!(base["source"], "nearest-branch");
    let diag = one(&records, "diag");
    assert_eq!(diag["severity"], "warning");
    assert!(diag["message"]
        .as_str()
        .unwrap()
        .contains("GITHUB_BASE_REF=gone-branch"));
}

#[test]
fn empty_ci_variable_is_not_a_source() {
    let r = feature_repo();
    let run = r.qa_diff(&[], &[("GITHUB_BASE_REF", "")]);
    let records = run.records();
    assert_eq!(one(&records, "range")["base"]["source"], "nearest-branch");
    assert!(of_kind(&records, "diag").is_empty());
}

#[test]
fn branch_git_config_chooses_the_base() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    r.git(&["config", "branch.feature.qa-base", "release"]);
    r.git(&["config", "qa.base", "main"]);
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["source"], "git-config");
    assert_eq!(base["ref"], "release");
    assert!(base["reason"]
        .as_str()
        .unwrap()
        .contains("branch.feature.qa-base"));
}

#[test]
fn another_branchs_git_config_is_ignored() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    r.git(&["config", "branch.other.qa-base", "release"]);
    assert_eq!(base_of(&r.qa_diff(&[], &[]))["source"], "nearest-branch");
}

#[test]
fn repository_git_config_chooses_the_base() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    r.git(&["config", "qa.base", "release"]);
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["source"], "git-config");
    assert!(base["reason"].as_str().unwrap().contains("qa.base"));
}

#[test]
fn unresolvable_git_config_is_skipped_with_a_diag() {
    let r = feature_repo();
    r.git(&["config", "qa.base", "vanished"]);
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(one(&records, "range")["base"]["source"], "nearest-branch");
    assert!(one(&records, "diag")["message"]
        .as_str()
        .unwrap()
        .contains("qa.base=vanished"));
}

#[test]
fn nearest_long_lived_branch_is_chosen_by_commit_distance() {
    let r = feature_repo();
    // develop is one commit behind feature; main is two.
    r.git(&["branch", "develop", "HEAD~1"]);
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["source"], "nearest-branch");
    assert_eq!(base["ref"], "develop");
    let reason = base["reason"].as_str().unwrap();
    assert!(reason.contains("HEAD is 1 commit ahead"), "{reason}");
    assert!(reason.contains("main 2"), "{reason}");
}

#[test]
fn a_closer_short_lived_branch_is_not_a_candidate() {
    let r = feature_repo();
    r.git(&["branch", "topic-x", "HEAD~1"]);
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["ref"], "main");
}

#[test]
fn remote_head_target_is_a_candidate() {
    let r = feature_repo();
    r.git(&["update-ref", "refs/remotes/upstream/stable", "HEAD~1"]);
    r.git(&[
        "symbolic-ref",
        "refs/remotes/upstream/HEAD",
        "refs/remotes/upstream/stable",
    ]);
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["ref"], "upstream/stable");
}

#[test]
fn refs_at_the_same_commit_are_reported_equivalent() {
    let r = feature_repo();
    r.git(&["update-ref", "refs/remotes/origin/main", "main"]);
    r.git(&["branch", "trunk", "main"]);
    let base = base_of(&r.qa_diff(&[], &[]));
    // main comes before trunk in preference order, local before remote.
    assert_eq!(base["ref"], "main");
    assert_eq!(
        base["equivalent"],
        serde_json::json!(["origin/main", "trunk"])
    );
}

#[test]
fn no_long_lived_branch_diffs_from_the_root_commit() {
    let mut r = Repo::new();
    r.git(&["checkout", "-q", "-b", "work"]);
    r.write("a.txt", "a\n");
    let root = r.commit("first");
    r.write("a.txt", "a\nb\n");
    r.commit("second");
    // `main` was never created: the only branch is `work`.
    let records = r.qa_diff(&[], &[]).records();
    let range = one(&records, "range");
    assert_eq!(range["base"]["source"], "root");
    assert_eq!(range["base"]["oid"], root);
    assert_eq!(of_kind(&records, "commit").len(), 1);
}

#[test]
fn the_current_branch_is_never_its_own_base() {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("first");
    r.write("a.txt", "a\nb\n");
    r.commit("second");
    // On main with no other branch: main itself is not a candidate.
    let base = base_of(&r.qa_diff(&[], &[]));
    assert_eq!(base["source"], "root");
}

#[test]
fn ci_value_given_as_a_full_branch_ref_resolves() {
    let r = feature_repo();
    r.git(&["branch", "release", "HEAD~1"]);
    let base = base_of(&r.qa_diff(&[], &[("CHANGE_TARGET", "refs/heads/release")]));
    assert_eq!(base["source"], "ci-env");
    assert_eq!(base["ref"], "release");
}
