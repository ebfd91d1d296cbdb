//! File and directory targets: content manifests, exclusions, fail-closed symlinks and
//! special files, and the limits, on real trees in temp dirs.

use crate::support;

use qa_records::acceptance::TargetKind;
use qa_records::hash::sha256_hex;
use serde_json::{json, Value};
use std::fs;
use std::path::Path;
use support::{run, spec, target};

fn write(root: &Path, path: &str, content: &[u8]) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn capture_dir(root: &Path, value: &str) -> Value {
    target(&run(root, &[], spec(TargetKind::Directory, value, None)))
}

fn assert_failed(data: &Value, needles: &[&str]) {
    assert_eq!(data["status"], "failed", "{data}");
    assert_eq!(data["sha256"], Value::Null);
    assert_eq!(data["entries"], json!([]));
    let reason = data["reason"].as_str().unwrap();
    for needle in needles {
        assert!(reason.contains(needle), "{reason:?} lacks {needle:?}");
    }
}

#[test]
fn a_directory_is_captured_as_a_sorted_manifest_with_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/index.html", b"Welcome");
    write(dir.path(), "site/css/main.css", b"body{}");
    let out = run(
        dir.path(),
        &[],
        spec(TargetKind::Directory, "site", Some("2026.1")),
    );
    let data = target(&out);
    assert_eq!(data["status"], "captured");
    assert_eq!(data["build_id"], "2026.1");
    let entries = json!([
        {"path": "css/main.css", "sha256": sha256_hex(b"body{}"), "size": 6},
        {"path": "index.html", "sha256": sha256_hex(b"Welcome"), "size": 7},
    ]);
    assert_eq!(data["entries"], entries);
    let canonical = qa_records::canonical::to_vec(&entries).unwrap();
    assert_eq!(data["sha256"], sha256_hex(&canonical));
    support::validate_all(&out);
}

#[test]
fn a_file_target_is_one_entry_named_after_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "docs/spec.md", b"spec");
    let data = target(&run(
        dir.path(),
        &[],
        spec(TargetKind::File, "docs/spec.md", None),
    ));
    assert_eq!(data["status"], "captured");
    assert_eq!(data["entries"][0]["path"], "spec.md");
    assert_eq!(data["entries"].as_array().unwrap().len(), 1);
}

#[test]
fn repository_dependency_env_and_key_files_are_excluded_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    for path in [
        "site/.git/HEAD",
        "site/.qa/runs/x",
        "site/node_modules/a/index.js",
        "site/vendor/lib.php",
        "site/.env",
        "site/.env.local",
        "site/tls/server.pem",
        "site/tls/server.key",
        "site/keys/id_rsa",
        "site/keys/id_ed25519.pub",
        "site/app.jks",
        "site/cert.p12",
        "site/index.html",
    ] {
        write(dir.path(), path, b"x");
    }
    let data = capture_dir(dir.path(), "site");
    assert_eq!(data["status"], "captured");
    let paths: Vec<&str> = data["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["index.html"]);
    let excluded: Vec<(&str, &str)> = data["excluded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        excluded,
        vec![
            (".env", "environment file"),
            (".env.local", "environment file"),
            (".git", "repository metadata"),
            (".qa", "repository metadata"),
            ("app.jks", "private-key file"),
            ("cert.p12", "private-key file"),
            ("keys/id_ed25519.pub", "private-key file"),
            ("keys/id_rsa", "private-key file"),
            ("node_modules", "installed dependencies"),
            ("tls/server.key", "private-key file"),
            ("tls/server.pem", "private-key file"),
            ("vendor", "installed dependencies"),
        ]
    );
}

#[test]
fn a_symlink_inside_the_directory_fails_closed_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.txt", b"outside");
    write(dir.path(), "site/index.html", b"x");
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        dir.path().join("site/link"),
    )
    .unwrap();
    assert_failed(&capture_dir(dir.path(), "site"), &["site/link", "symlink"]);
}

#[test]
fn a_symlinked_target_directory_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "index.html", b"outside");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("site")).unwrap();
    assert_failed(&capture_dir(dir.path(), "site"), &["site is a symlink"]);
}

#[test]
fn a_fifo_fails_closed_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/index.html", b"x");
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join("site/pipe"))
        .status()
        .unwrap();
    assert!(status.success());
    let root = dir.path().to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(capture_dir(&root, "site"));
    });
    let data = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("qa-fetch blocked on the FIFO");
    assert_failed(&data, &["site/pipe", "FIFO"]);
}

#[test]
fn a_socket_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/index.html", b"x");
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("site/sock")).unwrap();
    assert_failed(&capture_dir(dir.path(), "site"), &["site/sock", "socket"]);
}

#[test]
fn a_file_over_4_mib_fails_naming_the_limit_and_path() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/big.bin", &vec![b'x'; (4 << 20) + 1]);
    assert_failed(
        &capture_dir(dir.path(), "site"),
        &["site/big.bin", "4 MiB per-file limit"],
    );
}

#[test]
fn files_past_32_mib_in_all_fail_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("site")).unwrap();
    for i in 0..9 {
        // Sparse files: 4 MiB each on paper, 36 MiB in all.
        let file = fs::File::create(dir.path().join(format!("site/f{i}.bin"))).unwrap();
        file.set_len(4 << 20).unwrap();
    }
    assert_failed(
        &capture_dir(dir.path(), "site"),
        &["site/f8.bin", "32 MiB total limit"],
    );
}

#[test]
fn exactly_32_mib_in_all_is_captured() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("site")).unwrap();
    for i in 0..8 {
        let file = fs::File::create(dir.path().join(format!("site/f{i}.bin"))).unwrap();
        file.set_len(4 << 20).unwrap();
    }
    let data = capture_dir(dir.path(), "site");
    assert_eq!(data["status"], "captured");
    assert_eq!(data["entries"].as_array().unwrap().len(), 8);
}

fn many_files(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in 0..10 {
        fs::create_dir_all(dir.path().join(format!("site/d{d}"))).unwrap();
    }
    for i in 0..n {
        fs::write(dir.path().join(format!("site/d{}/f{i:05}", i % 10)), b"").unwrap();
    }
    dir
}

#[test]
fn ten_thousand_files_are_captured() {
    let dir = many_files(10_000);
    let data = capture_dir(dir.path(), "site");
    assert_eq!(data["status"], "captured");
    assert_eq!(data["entries"].as_array().unwrap().len(), 10_000);
}

#[test]
fn more_than_ten_thousand_files_fail_naming_the_entry_limit() {
    let dir = many_files(10_001);
    assert_failed(
        &capture_dir(dir.path(), "site"),
        &["10000-entry limit", "site/d9/"],
    );
}

#[test]
fn a_missing_target_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    assert_failed(&capture_dir(dir.path(), "site"), &["site not found"]);
}

#[test]
fn a_target_escaping_the_repository_fails_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "repo/x", b"x");
    write(dir.path(), "secret/x", b"x");
    let data = capture_dir(&dir.path().join("repo"), "../secret");
    assert_failed(&data, &["escapes the repository"]);
}

#[test]
fn a_key_file_named_as_the_target_is_not_captured() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "deploy/server.pem", b"-----BEGIN");
    let data = target(&run(
        dir.path(),
        &[],
        spec(TargetKind::File, "deploy/server.pem", None),
    ));
    assert_failed(&data, &["deploy/server.pem is excluded (private-key file)"]);
}
