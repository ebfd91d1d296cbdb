//! The profile is read as a regular file of at most 1 MiB: a FIFO, a device or a file over
//! the cap is refused in one line and at once, and a signal ends the stage (130 / 143).

use qa_testkit::process::Group;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Far more than a refusal takes, even on a loaded machine.
const PROMPTLY: Duration = Duration::from_secs(20);

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/golden.yaml")
}

/// `qa-profile ARGS...` under a 1 GiB address-space limit (so an unbounded read fails
/// instead of taking the machine's memory), in its own process group: (exit code, stdout,
/// stderr), or None when it still ran after [`PROMPTLY`] (then it is killed).
fn bounded(args: &[&std::ffi::OsStr]) -> Option<(Option<i32>, Vec<u8>, String)> {
    let output = Group::spawn(capped(args)).wait(PROMPTLY)?;
    Some((output.status.code(), output.stdout, output.stderr))
}

fn capped(args: &[&std::ffi::OsStr]) -> Command {
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 1048576; exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_qa-profile"))
        .args(args);
    command
}

/// Asserts exit `code`, nothing on stdout, and one stderr line holding every needle.
fn assert_refused_at_once(
    outcome: Option<(Option<i32>, Vec<u8>, String)>,
    code: i32,
    needles: &[&str],
) {
    let (exit, stdout, stderr) = outcome.expect("qa-profile still ran after 20 s");
    assert_eq!(exit, Some(code), "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("qa-profile: error: "), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in: {stderr}");
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn dev_zero_is_refused_at_once() {
    assert_refused_at_once(
        bounded(&["/dev/zero".as_ref()]),
        66,
        &["/dev/zero is a device, not a regular file"],
    );
}

#[test]
fn a_symlink_to_dev_zero_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("profile.yaml");
    symlink("/dev/zero", &link).unwrap();
    assert_refused_at_once(
        bounded(&[link.as_os_str()]),
        66,
        &["profile.yaml is a device"],
    );
}

#[test]
fn a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("profile.yaml");
    mkfifo(&fifo);
    assert_refused_at_once(
        bounded(&[fifo.as_os_str()]),
        66,
        &["profile.yaml is a FIFO, not a regular file"],
    );
}

#[test]
fn a_profile_over_1_mib_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("profile.yaml");
    let golden = std::fs::read_to_string(golden()).unwrap();
    std::fs::write(&big, format!("{golden}{}", "#\n".repeat(1 << 19))).unwrap();
    assert_refused_at_once(
        bounded(&[big.as_os_str()]),
        65,
        &["profile.yaml is over the 1 MiB limit"],
    );
}

#[test]
fn a_profile_just_under_1_mib_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("profile.yaml");
    let golden = std::fs::read_to_string(golden()).unwrap();
    let padding = "#\n".repeat(((1 << 20) - golden.len()) / 2);
    std::fs::write(&path, format!("{golden}{padding}")).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() <= 1 << 20);
    let (code, stdout, stderr) = bounded(&[path.as_os_str()]).expect("qa-profile ends");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.is_empty());
}

/// `sleep 30 | qa-profile GOLDEN --ndjson --in -` in its own process group, as a pipeline a
/// person stops with Ctrl-C (SIGINT to the whole group) or a CI runner with SIGTERM. The
/// shell traps the signals (its children keep the default) and exits with qa-profile's
/// status, so that status is what the test sees.
fn pipeline() -> Group {
    let mut command = Command::new("sh");
    command
        .args([
            "-c",
            "trap : INT TERM; sleep 30 | \"$0\" \"$1\" --ndjson --in -; exit $?",
        ])
        .arg(env!("CARGO_BIN_EXE_qa-profile"))
        .arg(golden());
    Group::spawn(command)
}

#[test]
fn sigint_to_the_pipeline_ends_qa_profile_with_130() {
    let group = pipeline();
    std::thread::sleep(Duration::from_millis(500));
    assert!(group.signal("INT"));
    let out = group
        .wait(Duration::from_secs(5))
        .expect("the pipeline stops on SIGINT");
    assert_eq!(out.status.code(), Some(130), "{}", out.stderr);
}

#[test]
fn sigterm_to_the_pipeline_ends_qa_profile_with_143() {
    let group = pipeline();
    std::thread::sleep(Duration::from_millis(500));
    assert!(group.signal("TERM"));
    let out = group
        .wait(Duration::from_secs(5))
        .expect("the pipeline stops on SIGTERM");
    assert_eq!(out.status.code(), Some(143), "{}", out.stderr);
}
