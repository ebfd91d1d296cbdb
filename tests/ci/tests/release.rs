//! The release workflow's script (pipelines/ci/release.sh): a tag must name the workspace
//! version, and the build jobs' dist/ folders are assembled into one release whose
//! SHA256SUMS the installer accepts; a part whose archive its sums do not vouch for, or two
//! parts shipping one name, are refused with nothing published.

use crate::common;

use common::*;
use std::path::Path;

fn release_sh(args: &[&str]) -> qa_testkit::Run {
    let dir = tempfile::tempdir().unwrap();
    let mut run = qa_testkit::Program::at("/bin/sh")
        .invocation()
        .arg(source("pipelines/ci/release.sh"))
        .dir(dir.path());
    for arg in args {
        run = run.arg(arg);
    }
    run.run()
}

/// A build job's dist/ folder: `release`'s archive renamed for `target`, and its sums.
fn part(release: &Release, target: &str, into: &Path) {
    std::fs::create_dir_all(into).unwrap();
    let name = format!("qapipe-{}-{target}.tar.gz", version());
    std::fs::copy(release.archive(), into.join(&name)).unwrap();
    sh(into, &format!("sha256sum {name} > SHA256SUMS"));
}

/// Two build jobs' parts (one archive each, named for `a` and `b`) assembled into
/// `release/` of a new temp dir: the dir, that folder and the run.
fn assemble_two(a: &str, b: &str) -> (tempfile::TempDir, std::path::PathBuf, qa_testkit::Run) {
    let release = Release::new("true");
    let work = tempfile::tempdir().unwrap();
    let parts = [
        work.path().join("parts/dist-a"),
        work.path().join("parts/dist-b"),
    ];
    part(&release, a, &parts[0]);
    part(&release, b, &parts[1]);
    let out = work.path().join("release");
    let run = release_sh(&[
        "assemble",
        out.to_str().unwrap(),
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
    ]);
    (work, out, run)
}

#[test]
fn a_tag_naming_the_workspace_version_passes_and_another_is_refused() {
    let ok = release_sh(&["tag", &format!("v{}", version())]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let other = release_sh(&["tag", "v99.0.0"]);
    assert_eq!(other.code, 65);
    assert_eq!(
        other.stderr,
        format!(
            "release: error: tag v99.0.0 does not name the workspace version: expected v{} (Cargo.toml)\n",
            version()
        )
    );
}

#[test]
fn assembled_parts_make_one_release_the_installer_accepts() {
    let (work, out, run) = assemble_two(TARGET, "aarch64-apple-darwin");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sums = std::fs::read_to_string(out.join("SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), 2, "{sums}");
    let prefix = work.path().join("installed");
    let installed = install(
        "release",
        &format!("file://{}", out.display()),
        &prefix,
        &[],
    );
    assert_eq!(installed.code, 0, "{}", installed.stderr);
    assert!(prefix.join("bin/qa-diff").is_file());
}

#[test]
fn a_part_whose_archive_its_sums_do_not_vouch_for_publishes_nothing() {
    let release = Release::new("true");
    let work = tempfile::tempdir().unwrap();
    let bad = work.path().join("parts/dist-a");
    part(&release, TARGET, &bad);
    std::fs::write(
        bad.join(format!("qapipe-{}-{TARGET}.tar.gz", version())),
        b"swapped",
    )
    .unwrap();
    let out = work.path().join("release");
    let run = release_sh(&["assemble", out.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("not listed with this digest"),
        "{}",
        run.stderr
    );
    assert!(!out.join("SHA256SUMS").exists());
}

#[test]
fn two_parts_shipping_the_same_archive_name_are_refused() {
    let (_work, out, run) = assemble_two(TARGET, TARGET);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("shipped by two parts"),
        "{}",
        run.stderr
    );
    assert!(!out.join("SHA256SUMS").exists());
}
