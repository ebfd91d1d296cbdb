//! The stages that take a file argument where a file is expected (a plan, a profile, a
//! manifest) against the same hostile inputs: a FIFO no one writes (then SIGINT),
//! `/dev/zero`, invalid UTF-8, nesting 100k deep, duplicate keys. Each is refused with
//! its documented exit code and one line naming the file, or stops on the signal.

use qa_hostile_tests::{run_all, Expect, Fixture, Launch, Verdicts, STAGES};
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

/// A stage that takes one file: how it is named on the command line, and the exit code
/// its documentation gives a file that is there but unusable.
struct FileStage {
    stage: &'static str,
    what: &'static str,
    /// Exit code for a file whose content is bad.
    bad: i32,
    /// Exit codes for a FIFO or device refused before it is read.
    not_regular: &'static [i32],
    args: fn(&Fixture, &Path) -> Vec<OsString>,
}

const FILE_STAGES: &[FileStage] = &[
    FileStage {
        stage: "qa-intent",
        what: "plan",
        bad: 65,
        not_regular: &[65, 66],
        args: |f, file| {
            vec![
                "--repo".into(),
                f.repo().into(),
                "--plan".into(),
                file.into(),
            ]
        },
    },
    FileStage {
        stage: "qa-profile",
        what: "profile",
        // qa-profile: a file that cannot be parsed is an unusable profile, exit 1;
        // a FIFO or device exit 66 (its --help).
        bad: 1,
        not_regular: &[66],
        args: |_, file| vec![file.into()],
    },
    FileStage {
        stage: "qa-manifest",
        what: "manifest",
        bad: 65,
        not_regular: &[65, 66],
        args: |f, file| {
            vec![
                "--repo".into(),
                f.repo().into(),
                "--manifest".into(),
                file.into(),
                "validate".into(),
            ]
        },
    },
];

fn launch(fixture: &Fixture, file_stage: &FileStage, file: &Path) -> Launch {
    Launch::new(qa_testkit::run::bin_dir().join(file_stage.stage))
        .args((file_stage.args)(fixture, file))
        .dir(fixture.dir())
}

fn stage(name: &str) -> &'static qa_hostile_tests::Stage {
    STAGES.iter().find(|s| s.name == name).expect("a stage")
}

/// Every file stage on the file `content` makes (named `name`): refused with its `bad`
/// exit code and one line naming the file.
fn bad_content(case: &str, name: &str, content: impl Fn(&FileStage) -> Vec<u8>) {
    let fixture = Fixture::new();
    let files: Vec<_> = FILE_STAGES
        .iter()
        .map(|fs| fixture.file(&format!("{}-{name}", fs.what), &content(fs)))
        .collect();
    let outcomes = run_all(
        FILE_STAGES
            .iter()
            .zip(&files)
            .map(|(fs, file)| launch(&fixture, fs, file))
            .collect(),
    );
    let mut verdicts = Verdicts::new();
    for ((fs, file), outcome) in FILE_STAGES.iter().zip(&files).zip(&outcomes) {
        let expect = Expect::Refused {
            code: fs.bad,
            names: vec![file.display().to_string()],
        };
        verdicts.check(
            &format!("{case} ({})", fs.what),
            stage(fs.stage),
            outcome,
            &expect,
            &[],
        );
    }
    verdicts.assert_none();
}

#[test]
fn a_fifo_with_no_writer_where_a_file_is_expected_is_refused_or_stops_on_sigint() {
    let fixture = Fixture::new();
    let fifo = fixture.dir().join("no-writer.fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let outcomes = run_all(
        FILE_STAGES
            .iter()
            .map(|fs| {
                launch(&fixture, fs, &fifo).signal_after(Duration::from_millis(500), libc::SIGINT)
            })
            .collect(),
    );
    let mut verdicts = Verdicts::new();
    for (fs, outcome) in FILE_STAGES.iter().zip(&outcomes) {
        let expect = Expect::Stopped {
            code: 130,
            refusals: fs.not_regular.to_vec(),
            names: vec![fifo.display().to_string()],
        };
        verdicts.check(
            &format!("a FIFO as the {}", fs.what),
            stage(fs.stage),
            outcome,
            &expect,
            &[],
        );
    }
    verdicts.assert_none();
}

#[test]
fn dev_zero_where_a_file_is_expected_is_refused_before_it_is_read() {
    let fixture = Fixture::new();
    let outcomes = run_all(
        FILE_STAGES
            .iter()
            .map(|fs| launch(&fixture, fs, Path::new("/dev/zero")))
            .collect(),
    );
    let mut verdicts = Verdicts::new();
    for (fs, outcome) in FILE_STAGES.iter().zip(&outcomes) {
        let expect = Expect::Stopped {
            // No signal is sent: only a refusal passes.
            code: -1,
            refusals: fs.not_regular.to_vec(),
            names: vec!["/dev/zero".into()],
        };
        verdicts.check(
            &format!("/dev/zero as the {}", fs.what),
            stage(fs.stage),
            outcome,
            &expect,
            &[],
        );
    }
    verdicts.assert_none();
}

#[test]
fn invalid_utf8_in_a_file_is_refused() {
    bad_content("invalid UTF-8", "latin1", |fs| match fs.what {
        "plan" => b"{\"target\":{\"kind\":\"url\",\"value\":\"caf\xe9\"}}".to_vec(),
        _ => b"version: 1\nname: caf\xe9\n".to_vec(),
    });
}

#[test]
fn nesting_100k_deep_in_a_file_is_refused_without_exhausting_the_stack() {
    bad_content("nested 100k deep", "nested", |_| {
        let mut bytes = vec![b'['; 100_000];
        bytes.extend(std::iter::repeat_n(b']', 100_000));
        bytes
    });
}

#[test]
fn a_duplicate_key_in_a_file_is_refused() {
    bad_content("duplicate key", "duplicate", |fs| match fs.what {
        "plan" => {
            br#"{"target":{"kind":"directory","value":"a","value":"b"},"criteria":[],"checks":[]}"#
                .to_vec()
        }
        "profile" => b"version: 1\nversion: 1\n".to_vec(),
        _ => b"version: 1\nflows: []\nflows: []\n".to_vec(),
    });
}
