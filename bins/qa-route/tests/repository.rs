//! The repository qa-route reads is the one the change stream came from: a real
//! `qa-diff` stream of one repository, routed with `--repo` at another. Needs the built
//! qa-diff (`cargo build --bins`).

use qa_testkit::{records, Program, Repo};

const QA_ROUTE: &str = env!("CARGO_BIN_EXE_qa-route");

/// A Cargo package with one commit on a branch.
fn crate_repo() -> Repo {
    let mut r = Repo::new();
    r.write("Cargo.toml", "[package]\nname = \"shop\"\n");
    r.write("src/lib.rs", "pub fn total() -> u32 {\n    1\n}\n");
    r.commit("chore: init");
    r.branch("feature");
    r.write("src/lib.rs", "pub fn total() -> u32 {\n    2\n}\n");
    r.commit("fix(total): count the shipping line");
    r
}

fn diff(repo: &Repo) -> Vec<u8> {
    repo.diff_stream("main")
}

#[test]
fn a_stream_from_another_repository_is_exit_66_naming_both() {
    let elsewhere = Repo::new();
    let run = Program::at(QA_ROUTE)
        .invocation()
        .arg("--repo")
        .arg(elsewhere.path())
        .stdin(diff(&crate_repo()))
        .run();
    assert_eq!(run.code, 66, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&elsewhere.path().display().to_string())
            && run.stderr.contains("does not hold the range's head commit"),
        "{}",
        run.stderr
    );
    assert!(!run.text().contains("\"kind\":\"route\""));
}

#[test]
fn the_repository_of_the_stream_is_read() {
    let repo = crate_repo();
    let run = Program::at(QA_ROUTE)
        .invocation()
        .arg("--repo")
        .arg(repo.path())
        .stdin(diff(&repo))
        .run();
    let rs = run.records();
    assert_eq!(records::of_kind(&rs, "range").len(), 1);
}
