//! `tests/tmpdir.sh`, the TMPDIR `make test` gives the tests: a private folder on a tmpfs
//! that has room and lets programs run, else nothing (the caller's TMPDIR stays).

use crate::common;

use qa_testkit::{Program, Run};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// tests/tmpdir.sh with `SHM` and `MIN_FREE_KB` set.
fn probe(shm: &Path, min_free_kb: u64) -> Run {
    Program::at("sh")
        .invocation()
        .arg(common::workspace().join("tests/tmpdir.sh"))
        .env("SHM", shm)
        .env("MIN_FREE_KB", min_free_kb.to_string())
        .run()
        .success()
}

fn one_line(command: &str, args: &[&str]) -> String {
    Program::at(command)
        .invocation()
        .args(args)
        .run()
        .success()
        .text()
        .trim_end()
        .to_string()
}

fn is_tmpfs(dir: &Path) -> bool {
    one_line("stat", &["-f", "-c", "%T", dir.to_str().unwrap()]) == "tmpfs"
}

/// Where the probe puts the folder under `shm`.
fn folder(shm: &Path) -> PathBuf {
    shm.join(format!("qapipe-tests-{}", one_line("id", &["-u"])))
}

/// What the probe must print for `shm`: the folder on a tmpfs, nothing elsewhere.
fn expected(shm: &Path) -> String {
    if is_tmpfs(shm) {
        format!("{}\n", folder(shm).display())
    } else {
        String::new()
    }
}

/// A fresh folder under the tests' TMPDIR (a tmpfs under `make test` where the host has
/// one) and one under the target dir (on the disk the build is on).
fn media() -> [tempfile::TempDir; 2] {
    [
        tempfile::tempdir().unwrap(),
        tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap(),
    ]
}

#[test]
fn the_folder_is_private_and_on_a_tmpfs_and_nothing_is_printed_for_another_medium() {
    for shm in media() {
        let run = probe(shm.path(), 1);
        assert_eq!(run.text(), expected(shm.path()), "{}", shm.path().display());
        if is_tmpfs(shm.path()) {
            let made = folder(shm.path());
            let mode = std::fs::metadata(&made).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{}", made.display());
            assert_eq!(
                std::fs::read_dir(&made).unwrap().count(),
                0,
                "the exec probe is removed"
            );
            // A second run takes the same folder.
            assert_eq!(probe(shm.path(), 1).text(), run.text());
        } else {
            assert!(!folder(shm.path()).exists());
        }
    }
}

#[test]
fn a_tmpfs_without_the_room_asked_for_is_not_used() {
    for shm in media() {
        assert_eq!(probe(shm.path(), u64::MAX / 2048).text(), "");
        // Control: the same medium with room asked for that it has.
        assert_eq!(probe(shm.path(), 1).text(), expected(shm.path()));
    }
}

#[test]
fn a_link_in_place_of_the_folder_is_not_used_nor_followed() {
    for shm in media() {
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), folder(shm.path())).unwrap();
        assert_eq!(probe(shm.path(), 1).text(), "");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // Control: a real folder of this user in its place is used.
        std::fs::remove_file(folder(shm.path())).unwrap();
        std::fs::create_dir(folder(shm.path())).unwrap();
        assert_eq!(probe(shm.path(), 1).text(), expected(shm.path()));
    }
}
