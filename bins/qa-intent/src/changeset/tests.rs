use super::*;

/// A repository with one commit, and its record.
fn repository() -> (tempfile::TempDir, CommitData) {
    let dir = tempfile::tempdir().unwrap();
    let git = git2::Repository::init(dir.path()).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let blob = git.blob(b"fn f() {}\n").unwrap();
    let mut root = git.treebuilder(None).unwrap();
    root.insert("f.rs", blob, 0o100644).unwrap();
    let tree = git.find_tree(root.write().unwrap()).unwrap();
    let oid = git.commit(None, &sig, &sig, "c", &tree, &[]).unwrap();
    // As qa-diff writes it.
    let commit = serde_json::from_value(serde_json::json!({
        "oid": oid.to_string(), "parents": [], "merge": false, "subject": "chore: tidy",
        "body": "", "type": "chore", "scope": null, "breaking": false, "tickets": [],
        "files": ["f.rs"],
    }))
    .unwrap();
    (dir, commit)
}

#[test]
fn a_commit_judged_once_keeps_its_verdict_and_another_is_judged_apart() {
    let (dir, commit) = repository();
    let cs = Changeset::in_repo(dir.path());
    // No file bears behaviour in this changeset: nothing of the commit changes any.
    assert_eq!(cs.verdict(&commit), Some(Verdict::Neutral));
    // The repository gone, a new judgement cannot be made: the first one is reused.
    std::fs::remove_dir_all(dir.path().join(".git")).unwrap();
    assert_eq!(cs.verdict(&commit), Some(Verdict::Neutral));
    // Another commit is not taken for it.
    let other = CommitData {
        oid: "0123456789012345678901234567890123456789".into(),
        ..commit
    };
    assert_eq!(cs.verdict(&other), None);
}
