//! Every stage reading from a source that never ends, never starts or cannot be written:
//! `/dev/zero` as `--in` or stdin, a FIFO no one writes (then SIGINT or SIGTERM), an
//! empty stream, stdout on a full disk (`/dev/full`).

use qa_hostile_tests::{run_all, Expect, Fixture, Launch, Verdicts, STAGES};
use std::time::Duration;

fn each_stage(case: &str, launch: impl Fn(&qa_hostile_tests::Stage) -> Launch, expect: Expect) {
    let outcomes = run_all(STAGES.iter().map(launch).collect());
    let mut verdicts = Verdicts::new();
    for (stage, outcome) in STAGES.iter().zip(&outcomes) {
        verdicts.check(case, stage, outcome, &expect, &[]);
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
            // Refused as a device before a byte is read, or stopped at the line limit.
            names: vec!["/dev/zero".into()],
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
            names: vec!["stdin".into()],
        },
    );
}

fn a_fifo_with_no_writer_stops_on(signal: libc::c_int, code: i32) {
    let fixture = Fixture::new();
    let path = fixture.fifo("no-writer.fifo");
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
    let outcomes = run_all(
        STAGES
            .iter()
            .map(|stage| stage.reading(&fixture, &input).stdout("/dev/full"))
            .collect(),
    );
    let mut verdicts = Verdicts::new();
    for (stage, outcome) in STAGES.iter().zip(&outcomes) {
        verdicts.check(
            "stdout on /dev/full",
            stage,
            outcome,
            &Expect::Refused {
                code: 74,
                names: vec!["stdout".into()],
            },
            &[],
        );
    }
    verdicts.assert_none();
}

#[test]
fn an_empty_stream_passes_through_the_filters_and_is_no_pass_for_the_report() {
    let fixture = Fixture::new();
    let input = fixture.file("empty.ndjson", b"");
    let name = input.display().to_string();
    let outcomes = run_all(STAGES.iter().map(|s| s.reading(&fixture, &input)).collect());
    let mut verdicts = Verdicts::new();
    for (stage, outcome) in STAGES.iter().zip(&outcomes) {
        let expect = match stage.name {
            // No vacuous pass: exit 2, one line (qa-report --help).
            "qa-report" => Expect::Refused {
                code: 2,
                names: vec![name.clone(), "no records".into()],
            },
            // The scenario asked about is not in the stream.
            "qa-manifest" => Expect::Refused {
                code: 65,
                names: vec![name.clone()],
            },
            // A filter adds its own records (if any) to an empty stream; the report at
            // the end of the pipeline is what refuses it.
            _ => Expect::Clean {
                code: 0,
                line: None,
            },
        };
        verdicts.check("an empty stream", stage, outcome, &expect, &[]);
    }
    verdicts.assert_none();
}
