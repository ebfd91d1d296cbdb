//! Every stage reading a stream (`--in FILE`, or stdin) that turns hostile after valid
//! records: the bad line is refused with exit 65 and one line naming the input and the
//! line, within the bound, without a panic, every record before it still written; what is
//! odd but valid (an unknown kind, control characters, duplicate keys) passes untouched.

use qa_hostile_tests::records::{line, raw, with_newline};
use qa_hostile_tests::{run_all, Expect, Fixture, Outcome, Stage, Verdicts, STAGES};
use serde_json::json;
use std::path::Path;

/// Runs every stage on the stream file `input`; `expect` says what each stage must do.
fn each_stage(
    case: &str,
    fixture: &Fixture,
    input: &Path,
    kept: &[&[u8]],
    expect: impl Fn(&Stage, &Fixture) -> Expect,
) {
    let expected: Vec<Expect> = STAGES.iter().map(|s| expect(s, fixture)).collect();
    let outcomes = run_all(STAGES.iter().map(|s| s.reading(fixture, input)).collect());
    let mut verdicts = Verdicts::new();
    for ((stage, outcome), expect) in STAGES.iter().zip(&outcomes).zip(&expected) {
        verdicts.check(case, stage, outcome, expect, kept);
    }
    verdicts.assert_none();
}

/// The bad line appended to the fixture stream is refused: exit 65, naming the file and
/// the line.
fn refused_after_valid_records(case: &str, bad: &[u8], also: &[&str]) {
    let fixture = Fixture::new();
    let input = fixture.file(&format!("{case}.ndjson"), &fixture.stream_then(bad));
    let mut names = vec![
        input.display().to_string(),
        format!("line {}", fixture.next_line()),
    ];
    names.extend(also.iter().map(|s| s.to_string()));
    let kept = fixture.lines();
    each_stage(case, &fixture, &input, &kept, |_, _| Expect::Refused {
        code: 65,
        names: names.clone(),
    });
}

/// What `stage` does with the valid fixture stream: the exit code odd-but-valid input
/// must keep.
fn baseline(stage: &Stage, fixture: &Fixture) -> Outcome {
    let input = fixture.file("valid.ndjson", &fixture.stream);
    stage.reading(fixture, &input).run()
}

/// The record line appended to the fixture stream passes as valid records do: the same
/// exit code as the valid stream, forwarded byte for byte by the stages that forward.
fn passes_untouched(case: &str, record: Vec<u8>) {
    let fixture = Fixture::new();
    let input = fixture.file(
        &format!("{case}.ndjson"),
        &fixture.stream_then(&with_newline(record.clone())),
    );
    let kept = fixture.lines();
    each_stage(case, &fixture, &input, &kept, |stage, fixture| {
        Expect::Clean {
            code: baseline(stage, fixture).code.unwrap_or(-1),
            line: Some(record.clone()),
        }
    });
}

#[test]
fn a_stream_cut_inside_a_record_is_refused_naming_the_line() {
    refused_after_valid_records(
        "truncated",
        b"{\"kind\":\"diag\",\"v\":1,\"id\":\"sha256:01",
        &[],
    );
}

#[test]
fn a_20_mib_line_is_refused_at_the_line_limit() {
    let mut bad = b"{\"kind\":\"diag\",\"v\":1,\"data\":\"".to_vec();
    bad.resize(bad.len() + (20 << 20), b'a');
    bad.extend_from_slice(b"\"}\n");
    refused_after_valid_records("huge-line", &bad, &["limit"]);
}

#[test]
fn invalid_utf8_in_a_record_is_refused() {
    refused_after_valid_records(
        "invalid-utf8",
        &with_newline(raw("diag", "1", b"{\"message\":\"caf\xc3\x28 \xff\xfe\"}")),
        &[],
    );
}

#[test]
fn json_nested_100k_deep_is_refused_without_exhausting_the_stack() {
    let mut bad = vec![b'['; 100_000];
    bad.push(b'\n');
    refused_after_valid_records("nested-line", &bad, &[]);
}

#[test]
fn data_nested_100k_deep_in_an_unknown_kind_is_refused_without_exhausting_the_stack() {
    let mut data = vec![b'['; 100_000];
    data.extend(std::iter::repeat_n(b']', 100_000));
    refused_after_valid_records(
        "nested-data",
        &with_newline(raw("x-hostile-nested", "1", &data)),
        &[],
    );
}

#[test]
fn a_version_beyond_64_bits_is_refused() {
    refused_after_valid_records(
        "huge-version",
        &with_newline(raw("diag", "123456789012345678901234567890", b"{}")),
        &[],
    );
}

#[test]
fn a_raw_nul_byte_inside_a_string_is_refused() {
    refused_after_valid_records(
        "raw-nul",
        &with_newline(raw("diag", "1", b"{\"message\":\"a\0b\"}")),
        &[],
    );
}

#[test]
fn a_known_kind_at_a_future_version_is_refused_naming_kind_and_versions() {
    refused_after_valid_records(
        "future-version",
        &with_newline(raw("file", "99", b"{}")),
        &["file", "v99"],
    );
}

#[test]
fn a_record_of_an_unknown_kind_is_forwarded_untouched() {
    passes_untouched(
        "unknown-kind",
        line(
            "x-hostile-kind",
            7,
            json!({"anything": [1, {"goes": null}]}),
        ),
    );
}

#[test]
fn duplicate_keys_in_record_data_are_forwarded_untouched() {
    // The id is that of the object as every JSON reader keeps it (the last value wins).
    let record = line("x-hostile-dup", 1, json!({"a": 2}));
    let text = String::from_utf8(record)
        .unwrap()
        .replace("\"data\":{\"a\":2}", "\"data\":{\"a\":1,\"a\":2}");
    passes_untouched("duplicate-keys", text.into_bytes());
}

#[test]
fn integers_beyond_64_bits_in_data_are_forwarded_by_filters_and_named_by_the_verifier() {
    // Canonical integers stop at 64 bits (shared/records/src/canonical.rs): such a record has no
    // id, which only the stage that recomputes ids (qa-report) notices.
    let record = raw(
        "x-hostile-bigint",
        "1",
        b"{\"n\":123456789012345678901234567890}",
    );
    let fixture = Fixture::new();
    let input = fixture.file(
        "big-integer.ndjson",
        &fixture.stream_then(&with_newline(record.clone())),
    );
    let names = vec![
        input.display().to_string(),
        format!("line {}", fixture.next_line()),
        "/data/n".to_string(),
        "beyond 64 bits".to_string(),
    ];
    let kept = fixture.lines();
    each_stage(
        "big-integer-data",
        &fixture,
        &input,
        &kept,
        |stage, fixture| {
            if stage.name == "qa-report" {
                Expect::Refused {
                    code: 65,
                    names: names.clone(),
                }
            } else {
                Expect::Clean {
                    code: baseline(stage, fixture).code.unwrap_or(-1),
                    line: Some(record.clone()),
                }
            }
        },
    );
}

#[test]
fn nul_control_and_bidi_characters_pass_escaped_and_never_reach_the_report_raw() {
    let message = "ok\u{0}\u{1b}[31m\u{202e}txt.exe\u{2066}";
    let record = line(
        "diag",
        1,
        json!({"severity": "info", "stage": "hostile", "message": message, "subjects": []}),
    );
    passes_untouched("control-characters", record.clone());
    let fixture = Fixture::new();
    let input = fixture.file(
        "control.ndjson",
        &fixture.stream_then(&with_newline(record)),
    );
    let report = STAGES.iter().find(|s| s.name == "qa-report").unwrap();
    let outcome = report.reading(&fixture, &input).run();
    let text = String::from_utf8_lossy(&outcome.stdout);
    for raw in ['\u{0}', '\u{1b}', '\u{202e}', '\u{2066}'] {
        assert!(!text.contains(raw), "qa-report wrote {raw:?} raw:\n{text}");
    }
}
