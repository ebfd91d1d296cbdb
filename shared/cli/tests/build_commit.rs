//! The commit qa-cli's build script names for `--version` (build/commit.rs), on real
//! git repositories in temp dirs.

#[path = "../build/commit.rs"]
mod commit;

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        // 01:30 at +02:00 is still the 4th in UTC: the date shown is UTC.
        .env("GIT_AUTHOR_DATE", "2026-03-05T01:30:00+02:00")
        .env("GIT_COMMITTER_DATE", "2026-03-05T01:30:00+02:00")
        .env_remove("GIT_DIR")
        .output()
        .expect("running git");
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// A repository holding a tracked package `pkg/` with one commit on `main`.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::create_dir(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/Cargo.toml"), "[package]\n").unwrap();
    git(dir.path(), &["add", "-A"]);
    git(
        dir.path(),
        &["-c", "commit.gpgsign=false", "commit", "-q", "-m", "one"],
    );
    dir
}

#[test]
fn a_checkout_names_its_short_hash_and_utc_commit_date() {
    let repo = checkout();
    let found = commit::describe(&repo.path().join("pkg"));
    let short = git(repo.path(), &["rev-parse", "--short", "HEAD"]);
    assert_eq!(found.line, Some(format!("{short} 2026-03-04")));
}

#[test]
fn a_checkout_watches_head_and_the_branch_ref() {
    let repo = checkout();
    let found = commit::describe(&repo.path().join("pkg"));
    let git_dir = repo.path().join(".git");
    let watched: Vec<_> = found
        .watch
        .iter()
        .map(|p| p.canonicalize().unwrap())
        .collect();
    assert!(
        watched.contains(&git_dir.join("HEAD").canonicalize().unwrap()),
        "{watched:?}"
    );
    assert!(
        watched.contains(&git_dir.join("refs/heads/main").canonicalize().unwrap()),
        "{watched:?}"
    );
}

#[test]
fn a_packed_branch_ref_is_watched_through_packed_refs_only() {
    let repo = checkout();
    git(repo.path(), &["pack-refs", "--all"]);
    let found = commit::describe(&repo.path().join("pkg"));
    assert!(found.watch.iter().all(|p| p.exists()), "{:?}", found.watch);
    assert!(
        found.watch.iter().any(|p| p.ends_with("packed-refs")),
        "{:?}",
        found.watch
    );
    assert!(found.line.is_some());
}

#[test]
fn a_detached_head_still_names_its_commit() {
    let repo = checkout();
    git(repo.path(), &["checkout", "-q", "--detach"]);
    let found = commit::describe(&repo.path().join("pkg"));
    let short = git(repo.path(), &["rev-parse", "--short", "HEAD"]);
    assert_eq!(found.line, Some(format!("{short} 2026-03-04")));
}

#[test]
fn a_copy_outside_git_names_no_commit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
    assert_eq!(commit::describe(dir.path()), commit::Commit::default());
}

#[test]
fn a_copy_unpacked_into_another_checkout_names_no_commit() {
    let repo = checkout();
    let copy = repo.path().join("vendor/qa-shared");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::write(copy.join("Cargo.toml"), "[package]\n").unwrap();
    assert_eq!(commit::describe(&copy).line, None);
}

#[test]
fn a_packaged_crate_names_no_commit_even_when_tracked() {
    let repo = checkout();
    let pkg = repo.path().join("pkg");
    std::fs::write(pkg.join(".cargo_vcs_info.json"), "{}\n").unwrap();
    git(repo.path(), &["add", "-A"]);
    git(
        repo.path(),
        &[
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "vendored",
        ],
    );
    assert_eq!(commit::describe(&pkg).line, None);
}
