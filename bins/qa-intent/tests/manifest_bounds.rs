//! The team manifest is read like a build file: a regular file inside the repository, at
//! most 1 MiB; a symlink (to `/dev/zero`, or anywhere) or a FIFO is refused in one line,
//! as an invalid manifest is, and at once.

use qa_testkit::process::Group;
use qa_testkit::Repo;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Far more than a refusal takes, even on a loaded machine.
const PROMPTLY: Duration = Duration::from_secs(20);

/// What a run of qa-intent left.
struct Outcome {
    code: Option<i32>,
    stderr: String,
}

/// `qa-intent --repo REPO ARGS...` with stdin empty, under a 1 GiB address-space limit
/// (so the unbounded read this guards against fails instead of taking the machine's
/// memory); None when it is still running after [`PROMPTLY`] (then it is killed).
fn qa_intent(repo: &Repo, args: &[&str]) -> Option<Outcome> {
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 1048576; exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_qa-intent"))
        .arg("--repo")
        .arg(repo.path())
        .args(args)
        .current_dir(repo.outside());
    let output = Group::spawn(command).wait(PROMPTLY)?;
    Some(Outcome {
        code: output.status.code(),
        stderr: output.stderr,
    })
}

/// Asserts one stderr line with exit `code`, naming the manifest `file` and `why`.
fn assert_refused(outcome: Option<Outcome>, code: i32, file: &str, why: &str) {
    let outcome = outcome.expect("qa-intent still ran after 20 s");
    assert_eq!(outcome.code, Some(code), "{}", outcome.stderr);
    assert_eq!(outcome.stderr.lines().count(), 1, "{}", outcome.stderr);
    assert!(
        outcome.stderr.starts_with("qa-intent: error: manifest ")
            && outcome.stderr.contains(file)
            && outcome.stderr.contains(why),
        "{why:?} not in: {}",
        outcome.stderr
    );
}

/// A committed repository with one source file (and whatever `setup` adds).
fn repo(setup: impl FnOnce(&Repo)) -> Repo {
    let mut r = Repo::new();
    r.write("src/app.ts", "export const app = 1;\n");
    std::fs::create_dir_all(r.path().join(".qa")).unwrap();
    setup(&r);
    r.commit("chore: initial import");
    r
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_committed_manifest_symlinked_to_dev_zero_is_refused() {
    let r = repo(|r| symlink("/dev/zero", r.path().join(".qa/manifest.yaml")).unwrap());
    assert!(
        r.git(&["ls-files", "-s", ".qa/manifest.yaml"])
            .starts_with("120000"),
        "the symlink is committed"
    );
    assert_refused(
        qa_intent(&r, &[]),
        65,
        ".qa/manifest.yaml",
        "is a symlink, not a regular file",
    );
}

#[test]
fn a_manifest_symlinked_to_a_valid_file_inside_the_repository_is_refused_too() {
    let r = repo(|r| {
        r.write("policy/manifest.yaml", "version: 1\n");
        symlink(
            "../policy/manifest.yaml",
            r.path().join(".qa/manifest.yaml"),
        )
        .unwrap();
    });
    assert_refused(qa_intent(&r, &[]), 65, ".qa/manifest.yaml", "is a symlink");
}

#[test]
fn a_qa_directory_symlinked_outside_the_repository_is_refused() {
    let r = repo(|r| {
        std::fs::remove_dir(r.path().join(".qa")).unwrap();
        std::fs::create_dir(r.outside().join("elsewhere")).unwrap();
        std::fs::write(r.outside().join("elsewhere/manifest.yaml"), "version: 1\n").unwrap();
        symlink("../elsewhere", r.path().join(".qa")).unwrap();
    });
    assert_refused(
        qa_intent(&r, &[]),
        65,
        ".qa/manifest.yaml",
        ".qa is a symlink",
    );
}

#[test]
fn a_fifo_in_place_of_the_manifest_is_refused_at_once() {
    let r = repo(|_| {});
    mkfifo(&r.path().join(".qa/manifest.yaml"));
    assert_refused(
        qa_intent(&r, &[]),
        66,
        ".qa/manifest.yaml",
        "is a FIFO, not a regular file",
    );
}

#[test]
fn a_manifest_over_1_mib_is_refused() {
    let r = repo(|r| {
        let padding = "# padding\n".repeat((1 << 20) / 10 + 1);
        r.write(".qa/manifest.yaml", format!("version: 1\n{padding}"));
    });
    assert_refused(
        qa_intent(&r, &[]),
        65,
        ".qa/manifest.yaml",
        "over the 1 MiB limit",
    );
}

#[test]
fn a_manifest_just_under_1_mib_is_read() {
    let r = repo(|r| {
        let padding = "# padding\n".repeat((1 << 20) / 10 - 2);
        r.write(".qa/manifest.yaml", format!("version: 1\n{padding}"));
    });
    let outcome = qa_intent(&r, &[]).expect("qa-intent ends");
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
}

#[test]
fn an_explicit_manifest_naming_a_device_is_refused() {
    let r = repo(|_| {});
    assert_refused(
        qa_intent(&r, &["--manifest", "/dev/zero"]),
        66,
        "/dev/zero",
        "is a device, not a regular file",
    );
}

#[test]
fn an_explicit_manifest_naming_a_fifo_is_refused_at_once() {
    let r = repo(|_| {});
    let fifo = r.outside().join("manifest.yaml");
    mkfifo(&fifo);
    assert_refused(
        qa_intent(&r, &["--manifest", fifo.to_str().unwrap()]),
        66,
        "manifest.yaml",
        "is a FIFO",
    );
}

#[test]
fn an_explicit_manifest_over_1_mib_is_refused() {
    let r = repo(|_| {});
    let big = r.outside().join("manifest.yaml");
    std::fs::write(&big, format!("version: 1\n{}", "#\n".repeat(1 << 19))).unwrap();
    assert_refused(
        qa_intent(&r, &["--manifest", big.to_str().unwrap()]),
        65,
        "manifest.yaml",
        "over the 1 MiB limit",
    );
}
