//! The stages that take a file argument where a file is expected (a plan, a profile, a
//! manifest) against the same hostile inputs: a FIFO no one writes (then SIGINT),
//! `/dev/zero`, invalid UTF-8, nesting 100k deep, duplicate keys. Each is refused with
//! its documented exit code and one line naming the file, or stops on the signal.

use qa_hostile_tests::{run_all, Arg, Expect, Fixture, Launch, Verdicts, STAGES};
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
    /// The command line, [`Arg::Input`] standing for the file.
    args: &'static [Arg],
}

const FILE_STAGES: &[FileStage] = &[
    FileStage {
        stage: "qa-intent",
        what: "plan",
        bad: 65,
        not_regular: &[65, 66],
        args: &[
            Arg::Word("--repo"),
            Arg::Repo,
            Arg::Word("--plan"),
            Arg::Input,
        ],
    },
    FileStage {
        stage: "qa-profile",
        what: "profile",
        // qa-profile: a file that cannot be parsed is an unusable profile, exit 1;
        // a FIFO or device exit 66 (its --help).
        bad: 1,
        not_regular: &[66],
        args: &[Arg::Input],
    },
    FileStage {
        stage: "qa-manifest",
        what: "manifest",
        bad: 65,
        not_regular: &[65, 66],
        args: &[
            Arg::Word("--repo"),
            Arg::Repo,
            Arg::Word("--manifest"),
            Arg::Input,
            Arg::Word("validate"),
        ],
    },
];

fn launch(fixture: &Fixture, file_stage: &FileStage, file: &Path) -> Launch {
    qa_hostile_tests::launch(file_stage.stage, file_stage.args, fixture, file.as_os_str())
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

/// Every file stage given `special` (a FIFO, a device) where it expects a file, sent
/// SIGINT after half a second if one is given: refused with one of its `not_regular`
/// codes and one line naming it, or (with the signal) exit 130.
fn not_a_regular_file(fixture: &Fixture, case: &str, special: &Path, sigint: bool) {
    let outcomes = run_all(
        FILE_STAGES
            .iter()
            .map(|fs| {
                let run = launch(fixture, fs, special);
                match sigint {
                    true => run.signal_after(Duration::from_millis(500), libc::SIGINT),
                    false => run,
                }
            })
            .collect(),
    );
    let mut verdicts = Verdicts::new();
    for (fs, outcome) in FILE_STAGES.iter().zip(&outcomes) {
        let expect = Expect::Stopped {
            // Without a signal only a refusal passes.
            code: if sigint { 130 } else { -1 },
            refusals: fs.not_regular.to_vec(),
            names: vec![special.display().to_string()],
        };
        let case = format!("{case} as the {}", fs.what);
        verdicts.check(&case, stage(fs.stage), outcome, &expect, &[]);
    }
    verdicts.assert_none();
}

#[test]
fn a_fifo_with_no_writer_where_a_file_is_expected_is_refused_or_stops_on_sigint() {
    let fixture = Fixture::new();
    not_a_regular_file(&fixture, "a FIFO", &fixture.fifo("no-writer.fifo"), true);
}

#[test]
fn dev_zero_where_a_file_is_expected_is_refused_before_it_is_read() {
    not_a_regular_file(&Fixture::new(), "/dev/zero", Path::new("/dev/zero"), false);
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
