//! Every stage reading from a source that never ends, never starts or cannot be written:
//! `/dev/zero` as `--in` or stdin, a FIFO no one writes (then SIGINT or SIGTERM), an
//! empty stream, stdout on a full disk (`/dev/full`).

use qa_hostile_tests::{Expect, Fixture, Launch, Verdicts, STAGES};
use std::path::PathBuf;
use std::time::Duration;

/// A FIFO no process opens for writing, in the fixture's folder.
fn fifo(fixture: &Fixture, name: &str) -> PathBuf {
    let path = fixture.dir().join(name);
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("running mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
    path
}

fn each_stage(case: &str, launch: impl Fn(&qa_hostile_tests::Stage) -> Launch, expect: Expect) {
    let mut verdicts = Verdicts::new();
    for stage in STAGES {
        let outcome = launch(stage).run();
        verdicts.check(case, stage, &outcome, &expect, &[]);
    }
    verdicts.assert_none();
}

#[test]
fn dev_zero_as_the_input_file_stops_at_the_line_limit() {
    let fixture = Fixture::new();
    each_stage(
        "/dev/zero as --in",
        |stage| stage.reading(&fixture, "/dev/zero"),
        Expect::Refused {
            code: 65,
            names: vec!["/dev/zero".into(), "line 1".into()],
        },
    );
}

#[test]
fn dev_zero_as_stdin_stops_at_the_line_limit() {
    let fixture = Fixture::new();
    each_stage(
        "/dev/zero as stdin",
        |stage| stage.reading(&fixture, "-").stdin("/dev/zero"),
        Expect::Refused {
            code: 65,
            names: vec!["stdin".into(), "line 1".into()],
        },
    );
}

fn a_fifo_with_no_writer_stops_on(signal: libc::c_int, code: i32) {
    let fixture = Fixture::new();
    let path = fifo(&fixture, "no-writer.fifo");
    each_stage(
        &format!("a FIFO with no writer as --in, then signal {signal}"),
        |stage| {
            stage
                .reading(&fixture, &path)
                .signal_after(Duration::from_millis(500), signal)
        },
        Expect::Stopped {
            code,
            refusals: vec![65, 66],
            names: vec![path.display().to_string()],
        },
    );
}

#[test]
fn a_fifo_with_no_writer_as_the_input_stops_on_sigint() {
    a_fifo_with_no_writer_stops_on(libc::SIGINT, 130);
}

#[test]
fn a_fifo_with_no_writer_as_the_input_stops_on_sigterm() {
    a_fifo_with_no_writer_stops_on(libc::SIGTERM, 143);
}

#[test]
fn stdout_on_a_full_disk_is_an_io_error_naming_stdout() {
    let fixture = Fixture::new();
    let input = fixture.file("valid.ndjson", &fixture.stream);
    let mut verdicts = Verdicts::new();
    for stage in STAGES {
        let launch = stage.reading(&fixture, &input).stdout("/dev/full");
        let outcome = launch.run();
        verdicts.check(
            "stdout on /dev/full",
            stage,
            &outcome,
            &Expect::Refused {
                code: 74,
                names: vec!["stdout".into()],
            },
            &[],
        );
    }
    verdicts.assert_none();
}
