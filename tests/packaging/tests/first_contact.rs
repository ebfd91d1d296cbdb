//! A new user's first commands: `make qa` on a fresh clone (HEAD is its base), `make qa
//! BASE=...`, and `make demo`, run on the built binaries.

use crate::common;

use qa_testkit::{Repo, Run};

/// A fresh clone of a repository with two commits on main.
fn fresh_clone() -> Repo {
    let mut origin = Repo::new();
    origin.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    origin.commit("feat: one");
    origin.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    if true { 1 } else { 2 }\n}\n",
    );
    origin.commit("fix: one returns one");
    origin.clone_repo()
}

fn make_qa(clone: &Repo, extra: &[&str]) -> Run {
    let target = tempfile::tempdir().unwrap();
    let mut make = common::make(["qa"])
        .arg(format!("REPO={}", clone.path().display()))
        .arg(format!("TARGET_DIR={}", target.path().display()))
        .args(extra)
        .env("HOME", clone.home());
    // A CI machine's pull-request variables would choose the base: not here.
    for name in qa_diff::base::CI_VARIABLES {
        make = make.env_remove(name);
    }
    make.run()
}

#[test]
fn make_qa_on_a_fresh_clone_stops_on_the_empty_range_and_says_why() {
    let clone = fresh_clone();
    let run = make_qa(&clone, &[]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    let head = &clone.rev("HEAD")[..12];
    let sentence = format!(
        "qa-report: empty range: origin/main and HEAD are the same commit ({head}); \
         name a base (`--base`, `BASE=`) or commit work"
    );
    assert!(run.stderr.lines().any(|l| l == sentence), "{}", run.stderr);
    // make exits 2 for any failed recipe; its message carries qa-report's own code.
    assert!(run.stderr.contains("Error 3"), "{}", run.stderr);
    assert!(
        !run.text().contains("no behaviour-bearing change found"),
        "{}",
        run.text()
    );
}

#[test]
fn make_qa_on_a_branch_behind_its_base_says_it_is_behind() {
    let clone = fresh_clone();
    clone.git(&["checkout", "-q", "-b", "old", "HEAD~1"]);
    let run = make_qa(&clone, &["BASE=origin/main"]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    let behind = format!(
        "HEAD ({}) is behind its base origin/main ({})",
        &clone.rev("HEAD")[..12],
        &clone.rev("origin/main")[..12]
    );
    assert!(run.stderr.contains(&behind), "{}", run.stderr);
    assert!(run.stderr.contains("Error 3"), "{}", run.stderr);
}

#[test]
fn make_qa_honours_base_and_then_reports_the_range() {
    let clone = fresh_clone();
    let run = make_qa(&clone, &["BASE=HEAD~1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let base = &clone.rev("HEAD~1")[..12];
    assert!(
        run.text()
            .lines()
            .any(|l| l.starts_with(&format!("range: HEAD~1 ({base}) .. HEAD"))),
        "{}",
        run.text()
    );
    assert!(!run.stderr.contains("empty range"), "{}", run.stderr);
}

#[test]
fn make_qa_shows_the_report_without_make_echoing_its_commands() {
    let clone = fresh_clone();
    let run = make_qa(&clone, &["BASE=HEAD~1", "FORMAT=markdown"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first = run.text().lines().next().unwrap_or_default();
    assert!(
        first.starts_with('#'),
        "stdout is the markdown report: {first:?}"
    );
    assert!(
        !run.text().contains("pipelines/changes.sh"),
        "{}",
        run.text()
    );
}

#[test]
fn make_demo_says_first_what_it_shows_and_echoes_no_commands() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut make = common::make(["demo"])
        .arg(format!("DEMO_DIR={}", dir.path().display()))
        .env("HOME", home.path());
    // A CI machine's pull-request variables would choose the base: not here.
    for name in qa_diff::base::CI_VARIABLES {
        make = make.env_remove(name);
    }
    let run = make.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.text();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("demo: builds qapipe, then shows the change report"),
        "{first:?}"
    );
    assert!(text.contains("qapipe change report"), "{text}");
    assert!(text.contains("qapipe acceptance report"), "{text}");
    for echoed in ["sh ", "QA_SAVE=", "QA_REPO=", "rm -rf", "cp -r", "true"] {
        assert!(
            !text.lines().any(|l| l.starts_with(echoed)),
            "make echoed a command starting {echoed:?}:\n{text}"
        );
    }
}

/// The command `make unit` would run (`make -n`), with RUNNER set to `runner` when given.
fn unit_command(runner: Option<&str>) -> String {
    let mut make = common::make(["-n", "unit"]);
    if let Some(runner) = runner {
        make = make.arg(format!("RUNNER={runner}"));
    }
    let run = make.run().success();
    run.text()
        .lines()
        .find(|l| l.contains("--workspace"))
        .unwrap_or_else(|| panic!("make -n unit runs no workspace tests: {}", run.text()))
        .to_string()
}

#[test]
fn make_unit_runs_the_workspace_tests_with_the_runner_asked_for() {
    assert!(
        unit_command(Some("cargo")).ends_with("cargo test --workspace"),
        "{}",
        unit_command(Some("cargo"))
    );
    assert!(
        unit_command(Some("nextest")).ends_with("cargo nextest run --no-fail-fast --workspace"),
        "{}",
        unit_command(Some("nextest"))
    );
}

#[test]
fn make_unit_picks_a_runner_when_none_is_asked_for() {
    let command = unit_command(None);
    assert!(
        command.ends_with("cargo test --workspace")
            || command.ends_with("cargo nextest run --no-fail-fast --workspace"),
        "{command}"
    );
}

#[test]
fn make_install_puts_the_flows_beside_the_binaries_and_qa_changes_runs_them() {
    let prefix = tempfile::tempdir().unwrap();
    let bins = qa_testkit::run::bin_dir();
    let run = common::make(["install"])
        .arg(format!("PREFIX={}", prefix.path().display()))
        .arg(format!("BIN_DIR={}", bins.display()))
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bin = prefix.path().join("bin");
    for flow in ["changes", "acceptance"] {
        let script = prefix
            .path()
            .join(format!("share/qapipe/pipelines/{flow}.sh"));
        assert!(script.is_file(), "{} is missing", script.display());
        assert!(
            bin.join(format!("qa-{flow}")).is_file(),
            "qa-{flow} is missing"
        );
    }
    // The installed wrapper finds the installed binaries, with nothing else on PATH.
    let clone = fresh_clone();
    let report = qa_testkit::Program::at(bin.join("qa-changes"))
        .invocation()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", clone.home())
        .args(["--repo", clone.path().to_str().unwrap(), "--base", "HEAD~1"])
        .run();
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(
        report.text().starts_with("qapipe change report"),
        "{}",
        report.text()
    );
}
