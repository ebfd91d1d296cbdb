//! --worktree: merge base against the working tree, plus the current delta; nested
//! repositories are never entered.

use crate::common;
use common::*;
use serde_json::json;

/// main <- feature with one commit; then staged, unstaged, untracked and ignored changes.
fn dirty_repo() -> Repo {
    let mut r = Repo::new();
    r.write("src/a.js", "a1\n");
    r.write("src/b.js", "b1\n");
    r.write(".gitignore", "*.log\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("src/a.js", "a1\na2\n");
    r.commit("feat: a2");
    r.write("src/b.js", "b1\nb2-staged\n");
    r.git(&["add", "src/b.js"]);
    r.write("src/a.js", "a1\na2\na3-unstaged\n");
    r.write("src/new.js", "fresh\n");
    r.write("debug.log", "ignored\n");
    r
}

#[test]
fn worktree_mode_is_named_in_the_range() {
    let r = dirty_repo();
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert_eq!(one(&records, "range")["mode"], "worktree");
}

#[test]
fn branch_delta_spans_commits_staged_unstaged_and_untracked() {
    let r = dirty_repo();
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert_eq!(
        paths(&records, "branch"),
        vec!["src/a.js", "src/b.js", "src/new.js"]
    );
    let a = file(&records, "src/a.js", "branch");
    assert_eq!(a["added"], 2, "the committed and the unstaged line");
    let fresh = file(&records, "src/new.js", "branch");
    assert_eq!(fresh["status"], "added");
    assert_eq!(fresh["sha256"], qa_records::hash::sha256_hex(b"fresh\n"));
    assert_eq!(
        fresh["new_oid"],
        r.git(&["hash-object", "src/new.js"]).trim()
    );
}

#[test]
fn current_delta_holds_only_what_changed_since_head() {
    let r = dirty_repo();
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert_eq!(
        paths(&records, "current"),
        vec!["src/a.js", "src/b.js", "src/new.js"]
    );
    let a = file(&records, "src/a.js", "current");
    assert_eq!(a["added"], 1);
    assert_eq!(
        a["hunks"][0]["lines"],
        json!([{"op": "+", "line": 3, "text": "a3-unstaged"}])
    );
}

#[test]
fn ignored_files_are_left_out() {
    let r = dirty_repo();
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert!(!paths(&records, "branch").contains(&"debug.log".to_string()));
}

#[test]
fn committed_mode_ignores_the_dirty_tree() {
    let r = dirty_repo();
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(paths(&records, "branch"), vec!["src/a.js"]);
    assert!(paths(&records, "current").is_empty());
}

#[test]
fn a_clean_tree_has_no_current_delta() {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("a.txt", "a\nb\n");
    r.commit("b");
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert_eq!(paths(&records, "branch"), vec!["a.txt"]);
    assert!(paths(&records, "current").is_empty());
}

#[test]
fn worktree_with_another_head_is_a_usage_error() {
    let r = dirty_repo();
    let run = r.qa_diff(&["--worktree", "--head", "main"], &[]);
    assert_eq!(run.code, 64);
}

#[test]
fn an_untracked_nested_repository_is_not_entered() {
    let r = dirty_repo();
    let nested = r.path().join("vendor-clone");
    std::fs::create_dir_all(&nested).unwrap();
    r.git_in(&nested, &["init", "-q"]);
    std::fs::write(nested.join("inner.js"), "inner\n").unwrap();
    let records = r.qa_diff(&["--worktree"], &[]).records();
    let all: Vec<String> = of_kind(&records, "file")
        .iter()
        .map(|f| f["data"]["path"].as_str().unwrap().to_string())
        .collect();
    assert!(
        all.iter().all(|p| !p.starts_with("vendor-clone")),
        "{all:?}"
    );
    let diags = of_kind(&records, "diag");
    assert!(
        diags.iter().any(|d| d["data"]["message"]
            .as_str()
            .unwrap()
            .contains("vendor-clone")),
        "a diag says why it was left out"
    );
}

#[test]
fn a_tracked_directory_that_gained_a_git_dir_is_not_entered() {
    let mut r = Repo::new();
    r.write("lib/inner.js", "v1\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.git(&["commit", "-q", "--allow-empty", "-m", "empty"]);
    // Someone cloned over a tracked directory: its edits belong to the other repository.
    r.git_in(&r.path().join("lib"), &["init", "-q"]);
    r.write("lib/inner.js", "v2\n");
    r.write("top.js", "t\n");
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert_eq!(paths(&records, "branch"), vec!["top.js"]);
}

#[test]
fn a_committed_nested_repository_is_not_entered() {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    let inner = r.path().join("sub");
    std::fs::create_dir_all(&inner).unwrap();
    r.git_in(&inner, &["init", "-q", "-b", "main"]);
    std::fs::write(inner.join("x.txt"), "x\n").unwrap();
    r.git_in(&inner, &["add", "x.txt"]);
    r.git_in(
        &inner,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "-m",
            "inner",
        ],
    );
    // `git add sub` records a gitlink, as for a submodule.
    r.git(&["add", "sub"]);
    r.commit_staged("add nested repo");
    let records = r.qa_diff(&[], &[]).records();
    assert!(paths(&records, "branch").is_empty());
    assert!(of_kind(&records, "diag")
        .iter()
        .any(|d| d["data"]["message"]
            .as_str()
            .unwrap()
            .contains("sub is a nested repository")));
}

#[test]
fn a_directory_without_its_own_git_is_entered() {
    let r = dirty_repo();
    r.write("plain/inner.js", "inner\n");
    let records = r.qa_diff(&["--worktree"], &[]).records();
    assert!(paths(&records, "branch").contains(&"plain/inner.js".to_string()));
}
