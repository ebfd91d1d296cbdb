//! --out: the report folder's files, their private permissions, their checksums, and
//! that nothing outside the folder is written.

use crate::common;

use common::{mode, names, qa_report, rendered, sample};
use qa_records::hash::sha256_hex;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;

const FILES: [&str; 6] = [
    "SHA256SUMS",
    "records.ndjson",
    "report.html",
    "report.json",
    "report.md",
    "report.sarif",
];

#[test]
fn out_writes_exactly_the_report_files_and_stdout_keeps_the_chosen_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("runs/latest");
    let stdout = rendered(
        &sample().stream.bytes(),
        &["--format", "github", "--out", out.to_str().unwrap()],
    );
    assert!(stdout.starts_with("::warning "), "{stdout}");
    assert_eq!(names(&out), FILES);
}

#[test]
fn the_report_files_are_the_json_markdown_and_sarif_renderings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let input = sample().stream.bytes();
    rendered(&input, &["--out", out.to_str().unwrap()]);
    for (file, format) in [
        ("report.json", "json"),
        ("report.md", "markdown"),
        ("report.sarif", "sarif"),
    ] {
        assert_eq!(
            fs::read_to_string(out.join(file)).unwrap(),
            rendered(&input, &["--format", format]),
            "{file}"
        );
    }
}

#[test]
fn records_ndjson_is_the_input_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // CRLF and a blank line: kept as they came.
    let input = String::from_utf8(sample().stream.bytes())
        .unwrap()
        .replace('\n', "\r\n\r\n")
        .into_bytes();
    rendered(&input, &["--out", out.to_str().unwrap()]);
    assert_eq!(fs::read(out.join("records.ndjson")).unwrap(), input);
}

#[test]
fn the_folder_and_its_parents_are_private_and_every_file_is_0600() {
    let dir = tempfile::tempdir().unwrap();
    let parent = dir.path().join("runs");
    let out = parent.join("latest");
    rendered(&sample().stream.bytes(), &["--out", out.to_str().unwrap()]);
    assert_eq!(mode(&parent), 0o700);
    assert_eq!(mode(&out), 0o700);
    for file in FILES {
        assert_eq!(mode(&out.join(file)), 0o600, "{file}");
    }
}

#[test]
fn an_existing_report_file_with_wider_permissions_is_replaced_private() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("report.md"), "old").unwrap();
    fs::set_permissions(
        dir.path().join("report.md"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    rendered(
        &sample().stream.bytes(),
        &["--out", dir.path().to_str().unwrap()],
    );
    assert_eq!(mode(&dir.path().join("report.md")), 0o600);
    assert_ne!(
        fs::read_to_string(dir.path().join("report.md")).unwrap(),
        "old"
    );
}

#[test]
fn sha256sums_lists_every_other_file_with_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    rendered(
        &sample().stream.bytes(),
        &["--out", dir.path().to_str().unwrap()],
    );
    let sums = fs::read_to_string(dir.path().join("SHA256SUMS")).unwrap();
    let mut listed = Vec::new();
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").unwrap();
        assert_eq!(
            digest,
            sha256_hex(&fs::read(dir.path().join(name)).unwrap()),
            "{name}"
        );
        listed.push(name.to_string());
    }
    listed.sort();
    assert_eq!(listed, FILES[1..]);
}

#[test]
fn a_symlink_in_the_folder_is_replaced_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    fs::write(&outside, "keep me").unwrap();
    let out = dir.path().join("run");
    fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("report.json")).unwrap();
    rendered(&sample().stream.bytes(), &["--out", out.to_str().unwrap()]);
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep me");
    assert!(fs::symlink_metadata(out.join("report.json"))
        .unwrap()
        .is_file());
    assert_eq!(names(dir.path()), ["outside.txt", "run"]);
}

#[test]
fn an_out_path_under_a_file_is_a_usage_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, "").unwrap();
    let out = file.join("run");
    let result = qa_report(&sample().stream.bytes(), &["--out", out.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(64));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(
        err.starts_with(&format!(
            "qa-report: error: --out {}: creating the folder",
            out.display()
        )),
        "{err}"
    );
    assert!(result.stdout.is_empty());
}

#[test]
fn a_broken_stream_writes_no_report_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let result = qa_report(b"{broken\n", &["--out", out.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(65));
    assert!(!out.exists());
}

#[test]
fn the_report_files_are_the_same_bytes_on_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let input = sample().stream.bytes();
    rendered(&input, &["--out", a.to_str().unwrap()]);
    rendered(&input, &["--out", b.to_str().unwrap()]);
    for file in FILES {
        assert_eq!(
            fs::read(a.join(file)).unwrap(),
            fs::read(b.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn an_out_folder_below_a_symlink_inside_the_repository_is_refused_with_65() {
    let repo = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join(".qa")).unwrap();
    let out = repo.path().join(".qa/reports");
    let result = qa_report(
        &sample().stream.bytes(),
        &[
            "--repo",
            repo.path().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(result.status.code(), Some(65));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(
        err.contains(&format!(
            "{} is a symlink, not followed",
            repo.path().join(".qa").display()
        )),
        "{err}"
    );
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    assert!(result.stdout.is_empty());
}

#[test]
fn an_out_folder_outside_the_repository_is_reached_through_the_persons_own_link() {
    // The control: a link in the path the person gave, outside --repo, is theirs to follow.
    let repo = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).unwrap();
    let out = dir.path().join("link/run");
    rendered(
        &sample().stream.bytes(),
        &[
            "--repo",
            repo.path().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(names(&dir.path().join("real/run")), FILES);
}
