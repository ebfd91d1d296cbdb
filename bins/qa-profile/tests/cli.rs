//! The command line: exit codes, what goes to stdout and stderr, --ndjson, the man page.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn run(args: &[&std::ffi::OsStr], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qa-profile"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qa-profile starts");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn run_on(profile: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec![profile.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    run(&args, b"")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The golden profile with `find` replaced by `replace`, written to a temp folder.
fn edited(find: &str, replace: &str) -> (tempfile::TempDir, PathBuf) {
    let text = std::fs::read_to_string(fixture("golden.yaml")).unwrap();
    assert!(text.contains(find), "{find:?} is in the golden profile");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("qa-pilot.config.yaml");
    std::fs::write(&path, text.replacen(find, replace, 1)).unwrap();
    (dir, path)
}

#[test]
fn a_valid_profile_exits_0_with_json_and_no_stderr() {
    let out = run_on(&fixture("golden.yaml"), &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
}

#[test]
fn warnings_go_to_stderr_one_per_line() {
    let (_dir, path) = edited("  capture: always", "  capture: on-failure");
    let out = run_on(&path, &[]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: evidence.capture: on-failure keeps no evidence"),
        "{err}"
    );
}

#[test]
fn an_invalid_profile_exits_1_listing_every_error_and_no_warning() {
    let (_dir, path) = edited("  capture: always", "  capture: off\nreporting: true");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("project: shop\n", "");
    std::fs::write(&path, text).unwrap();
    let out = run_on(&path, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"");
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        format!("qa-profile: invalid profile: {}", path.display())
    );
    assert!(
        lines[1].starts_with("  - reporting: unknown top-level key"),
        "{err}"
    );
    assert_eq!(
        lines[2],
        "  - project: required, must be a non-empty string"
    );
    assert_eq!(lines.len(), 3, "the capture warning is not printed: {err}");
}

#[test]
fn a_file_that_cannot_be_read_as_yaml_exits_1_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad_yaml = dir.path().join("bad.yaml");
    std::fs::write(&bad_yaml, "project: [shop\n").unwrap();
    let duplicate = dir.path().join("dup.yaml");
    std::fs::write(&duplicate, "project: a\nproject: b\n").unwrap();
    let binary = dir.path().join("bin.yaml");
    std::fs::write(&binary, b"project: \xff\xfe\n").unwrap();
    let cases = [
        (dir.path().join("missing.yaml"), "no such file"),
        (dir.path().to_path_buf(), "is a directory"),
        (bad_yaml, "not valid YAML"),
        (duplicate, "duplicate key `project`"),
        (binary, "not UTF-8"),
    ];
    for (path, says) in cases {
        let out = run_on(&path, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("qa-profile: error: ") && err.contains(says),
            "{err}"
        );
    }
}

#[test]
fn usage_errors_exit_64() {
    assert_eq!(run(&[], b"").status.code(), Some(64));
    assert_eq!(
        run_on(&fixture("golden.yaml"), &["--no-such-flag"])
            .status
            .code(),
        Some(64)
    );
    assert_eq!(
        run_on(&fixture("golden.yaml"), &["--in", "-"])
            .status
            .code(),
        Some(64),
        "--in needs --ndjson"
    );
}

#[test]
fn help_has_examples_and_exit_status() {
    qa_testkit::cli::assert_help_lists(
        env!("CARGO_BIN_EXE_qa-profile"),
        &[
            "--ndjson",
            "--in <FILE>",
            "Examples:",
            "Exit status:",
            "  1  ",
        ],
    );
}

#[test]
fn ndjson_emits_one_schema_valid_profile_record_resting_on_the_file() {
    let out = run_on(&fixture("golden.yaml"), &["--ndjson"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = qa_testkit::records::parse(&out.stdout);
    assert_eq!(records.len(), 1);
    qa_testkit::Schemas::get().validate_all(&records);
    let record = &records[0];
    assert_eq!(record["kind"], "profile");
    let bytes = std::fs::read(fixture("golden.yaml")).unwrap();
    assert_eq!(
        record["src"]["profile.sha256"],
        qa_records::hash::sha256_hex(&bytes)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&run_on(&fixture("golden.yaml"), &[]).stdout).unwrap();
    assert_eq!(record["data"], json);
}

#[test]
fn ndjson_is_deterministic() {
    let first = run_on(&fixture("golden.yaml"), &["--ndjson"]);
    let second = run_on(&fixture("golden.yaml"), &["--ndjson"]);
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn ndjson_with_in_forwards_the_stream_first() {
    let upstream = run_on(&fixture("golden.yaml"), &["--ndjson"]).stdout;
    let (_dir, other) = edited("project: shop", "project: kiosk");
    let out = run(
        &[
            other.as_os_str(),
            "--ndjson".as_ref(),
            "--in".as_ref(),
            "-".as_ref(),
        ],
        &upstream,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = qa_testkit::records::parse(&out.stdout);
    assert_eq!(records.len(), 2);
    assert_eq!(out.stdout[..upstream.len()], upstream[..]);
    assert_eq!(records[0]["data"]["project"], "shop");
    assert_eq!(records[1]["data"]["project"], "kiosk");
}

#[test]
fn ndjson_on_an_invalid_profile_writes_no_record() {
    let (_dir, path) = edited("project: shop\n", "");
    let out = run_on(&path, &["--ndjson"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"");
}

#[test]
fn ndjson_refuses_a_fraction_a_record_cannot_hash() {
    let (_dir, path) = edited("    repo: .\n", "    repo: .\n    zoom: 1.5\n");
    assert_eq!(run_on(&path, &[]).status.code(), Some(0), "valid as JSON");
    let out = run_on(&path, &["--ndjson"]);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("/data/apps/storefront/zoom"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_missing_in_stream_exits_66() {
    let out = run_on(
        &fixture("golden.yaml"),
        &["--ndjson", "--in", "/nonexistent/stream.ndjson"],
    );
    assert_eq!(out.status.code(), Some(66));
}

#[test]
fn man_page_matches_help() {
    use qa_profile::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-profile.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
