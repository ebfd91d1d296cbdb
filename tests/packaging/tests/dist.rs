//! `make dist` with the debug binaries already built (no release build: CI time is
//! limited), then the archive installed into a temporary prefix as a user would.

use crate::common;

use qa_testkit::{Program, Run};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn dist_into(out: &Path, bin_dir: &Path) -> Run {
    common::make(["dist"])
        .arg(format!("BIN_DIR={}", bin_dir.display()))
        .arg(format!("DIST_DIR={}", out.display()))
        .arg(format!(
            "COMPLETIONS={}",
            env!("CARGO_BIN_EXE_qa-completions")
        ))
        .arg("GZIP_LEVEL=1")
        .run()
}

/// `make dist` of the built binaries, made once per test run for the tests that only read
/// it (the third one makes its own, failing, dist): `cargo test` runs them in one process,
/// nextest each in its own process of one run, so testkit's `once::made` makes it under a
/// file lock in the target's tmp folder.
fn shared_dist() -> PathBuf {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let dir = qa_testkit::once::made(base, "packaging-dist", |dir| {
            let made = dist_into(&dir.join("dist"), &qa_testkit::run::bin_dir());
            assert_eq!(made.code, 0, "make dist: {}", made.stderr);
        });
        dir.join("dist")
    })
    .clone()
}

fn sh(dir: &Path, script: &str) -> Run {
    Program::at("sh")
        .invocation()
        .dir(dir)
        .args(["-c", script])
        .run()
}

/// Every file under `root`, relative, sorted.
fn files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, into: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, into);
            } else {
                into.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut all = Vec::new();
    walk(root, root, &mut all);
    all.sort();
    all
}

/// `man` renders the page (plain ASCII, no pager) and it names the binary and a flag.
fn assert_man_renders(what: &str, command: &mut std::process::Command) {
    let output = command
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("qa-diff") && text.contains("--base"),
        "{what}: {output:?}"
    );
}

#[test]
fn make_dist_gives_an_archive_that_installs_into_a_prefix() {
    let out = shared_dist();

    // The archive and the SHA256SUMS beside it.
    let name = format!("qapipe-{}-{}", env!("CARGO_PKG_VERSION"), host_triple());
    let archive = out.join(format!("{name}.tar.gz"));
    assert!(
        archive.is_file(),
        "{}: {:?}",
        archive.display(),
        files(&out)
    );
    sh(&out, "sha256sum -c SHA256SUMS").success();
    assert_eq!(
        files(&out),
        ["SHA256SUMS".to_string(), format!("{name}.tar.gz")]
    );

    // Unpacked into a prefix: one folder, every file in its SHA256SUMS, all verifying.
    let prefix = tempfile::tempdir().unwrap();
    Program::at("tar")
        .invocation()
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(prefix.path())
        .run()
        .success();
    let root: PathBuf = prefix.path().join(&name);
    let listed: Vec<String> = std::fs::read_to_string(root.join("SHA256SUMS"))
        .unwrap()
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_string())
        .collect();
    let mut present = files(&root);
    present.retain(|f| f != "SHA256SUMS");
    assert_eq!(listed, present, "SHA256SUMS lists every file once");
    sh(&root, "sha256sum --quiet -c SHA256SUMS").success();

    // What the archive holds.
    for bin in &qa_testkit::workspace::binaries() {
        for file in [
            format!("bin/{bin}"),
            format!("share/man/man1/{bin}.1"),
            format!("share/bash-completion/completions/{bin}"),
            format!("share/zsh/site-functions/_{bin}"),
            format!("share/fish/vendor_completions.d/{bin}.fish"),
        ] {
            assert!(present.contains(&file), "{file} missing: {present:?}");
        }
    }
    for file in [
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "pipelines/changes.sh",
        "pipelines/acceptance.sh",
    ] {
        assert!(present.iter().any(|f| f == file), "{file} missing");
    }
    assert!(
        !present.iter().any(|f| f.contains("qa-completions")),
        "the generator is not shipped"
    );

    // The binary runs from the prefix.
    let qa_diff = Program::at(root.join("bin/qa-diff"));
    let version = qa_diff.invocation().arg("--version").run().success();
    assert!(
        version
            .text()
            .starts_with(&format!("qa-diff {} (", env!("CARGO_PKG_VERSION"))),
        "{}",
        version.text()
    );
    let help = qa_diff.invocation().arg("--help").run().success();
    assert!(help.text().contains("Usage: qa-diff"), "{}", help.text());

    // Its man page: rendered by man where it is installed (as a file, and found as
    // `man qa-diff` through the prefix's share/man), else by nroff, else its roff header.
    let page = root.join("share/man/man1/qa-diff.1");
    if common::on_path("man") {
        assert_man_renders(
            "man -l",
            std::process::Command::new("man").arg("-l").arg(&page),
        );
        assert_man_renders(
            "man qa-diff",
            std::process::Command::new("man")
                .env("MANPATH", root.join("share/man"))
                .arg("qa-diff"),
        );
    } else if common::on_path("nroff") {
        assert_man_renders(
            "nroff -man",
            std::process::Command::new("nroff").arg("-man").arg(&page),
        );
    } else {
        let roff = std::fs::read_to_string(&page).unwrap();
        assert!(
            roff.lines().any(|l| l.starts_with(".TH qa-diff 1 ")),
            "no roff title"
        );
    }

    // Its completions: bash loads and registers it; zsh and fish name its flags.
    let bash = root.join("share/bash-completion/completions/qa-diff");
    let registered = Program::at("bash")
        .invocation()
        .args([
            "--norc",
            "--noprofile",
            "-c",
            "source \"$1\" && complete -p qa-diff",
            "bash",
        ])
        .arg(&bash)
        .run()
        .success();
    assert!(
        registered.text().trim_end().ends_with(" qa-diff"),
        "{}",
        registered.text()
    );
    let zsh = std::fs::read_to_string(root.join("share/zsh/site-functions/_qa-diff")).unwrap();
    let fish =
        std::fs::read_to_string(root.join("share/fish/vendor_completions.d/qa-diff.fish")).unwrap();
    for flag in ["base", "head", "worktree", "repo"] {
        assert!(zsh.contains(&format!("--{flag}")), "zsh: --{flag}");
        assert!(fish.contains(&format!("-l {flag}")), "fish: -l {flag}");
    }
}

#[test]
fn the_actions_installer_installs_the_archive_make_dist_writes() {
    let assets = shared_dist();
    // The release assets as the action fetches them, from a file:// release URL.
    let prefix = tempfile::tempdir().unwrap();
    let install = Program::at("sh")
        .invocation()
        .arg(common::workspace().join("pipelines/ci/install.sh"))
        .env("QAPIPE_INSTALL", "release")
        .env("QAPIPE_PREFIX", prefix.path())
        .env("QAPIPE_RELEASE_URL", format!("file://{}", assets.display()))
        .env_remove("GITHUB_PATH")
        .run();
    assert_eq!(install.code, 0, "install.sh: {}", install.stderr);
    // It prints the bin directory last; every binary there runs and names its version.
    let bin = PathBuf::from(install.text().trim_end().lines().last().unwrap());
    for name in &qa_testkit::workspace::binaries() {
        let version = Program::at(bin.join(name))
            .invocation()
            .arg("--version")
            .run()
            .success();
        assert!(
            version
                .text()
                .starts_with(&format!("{name} {}", env!("CARGO_PKG_VERSION"))),
            "{name}: {}",
            version.text()
        );
    }
}

#[test]
fn make_dist_names_a_binary_that_is_not_built_and_writes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let run = dist_into(&out.path().join("dist"), empty.path());
    assert_ne!(run.code, 0);
    let first = &qa_testkit::workspace::binaries()[0];
    assert!(
        run.stderr.contains(&format!("{first}: not built")),
        "{}",
        run.stderr
    );
    assert!(!out.path().join("dist").exists());
}

/// The host target triple, as rustc names it (what the archive's name carries).
fn host_triple() -> String {
    let run = Program::at("rustc").invocation().arg("-vV").run().success();
    run.text()
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_string()
}
