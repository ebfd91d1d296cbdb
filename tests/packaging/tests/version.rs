//! `--version` of every shipped binary: `<name> <version> (<short hash> <YYYY-MM-DD>)`, or
//! `(unknown commit)` when built outside a git checkout.

use crate::common;

use qa_testkit::Program;

/// The commit part of a version line, checked for shape: a hex hash of 7+ digits and a date.
fn commit_of<'a>(name: &str, line: &'a str) -> &'a str {
    let prefix = format!("{name} {} (", env!("CARGO_PKG_VERSION"));
    let inner = line
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("{name} --version: {line:?} is not `{prefix}...)`"));
    if inner == "unknown commit" {
        return inner;
    }
    let (hash, date) = inner
        .split_once(' ')
        .unwrap_or_else(|| panic!("{name} --version: {inner:?} is not `<hash> <date>`"));
    assert!(
        hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{name} --version: {hash:?} is not a short commit hash"
    );
    let digits: Vec<&str> = date.split('-').collect();
    assert!(
        matches!(digits.as_slice(), [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2
            && date.bytes().all(|b| b.is_ascii_digit() || b == b'-')),
        "{name} --version: {date:?} is not YYYY-MM-DD"
    );
    hash
}

#[test]
fn every_binary_prints_its_name_version_and_commit() {
    for (name, _) in qa_packaging::commands() {
        let run = Program::built(name)
            .invocation()
            .arg("--version")
            .run()
            .success();
        commit_of(name, run.text());
    }
}

#[test]
fn short_and_long_version_flags_print_the_same_line() {
    for (name, _) in qa_packaging::commands() {
        let long = Program::built(name).invocation().arg("--version").run();
        let short = Program::built(name).invocation().arg("-V").run().success();
        assert_eq!(long.text(), short.text(), "{name}");
    }
}

#[test]
fn the_commit_shown_is_the_checked_out_head() {
    let head = std::process::Command::new("git")
        .arg("-C")
        .arg(common::workspace())
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let run = Program::built("qa-diff")
        .invocation()
        .arg("--version")
        .run()
        .success();
    let commit = commit_of("qa-diff", run.text());
    match head {
        Some(head) => assert!(
            head.starts_with(commit),
            "qa-diff names {commit}, HEAD is {head}: rebuild (cargo build --bins) after committing"
        ),
        None => assert_eq!(commit, "unknown commit", "built outside git"),
    }
}

#[test]
fn man_pages_keep_the_bare_version() {
    let page = std::fs::read_to_string(common::workspace().join("man/qa-diff.1")).unwrap();
    let title = page.lines().find(|l| l.starts_with(".TH")).unwrap();
    assert!(
        title.contains(&format!("\"qa-diff {}\"", env!("CARGO_PKG_VERSION"))),
        "{title}: the man page must not change with every commit"
    );
}
