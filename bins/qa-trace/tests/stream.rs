//! qa-trace as a filter: records it does not own pass through byte for byte, bad input stops
//! it with exit 65 naming the line, and what was forwarded before stays written.

use qa_testkit::Program;

fn run(stdin: &[u8]) -> qa_testkit::Run {
    Program::at(env!("CARGO_BIN_EXE_qa-trace"))
        .invocation()
        .stdin(stdin.to_vec())
        .run()
}

/// A valid record of a kind no stage owns.
const UNKNOWN: &[u8] = b"{\"kind\":\"x-custom\",\"v\":1,\"id\":\"sha256:0000000000000000000000000000000000000000000000000000000000000000\",\"by\":\"t\",\"from\":[],\"src\":{},\"data\":{\"a\":1}}";

#[test]
fn unknown_kinds_pass_through_byte_for_byte() {
    let mut input = UNKNOWN.to_vec();
    input.extend_from_slice(b"\r\n\n");
    let out = run(&input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with(UNKNOWN),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.stdout[UNKNOWN.len()], b'\n');
}

#[test]
fn a_malformed_line_is_exit_65_naming_it_after_what_was_forwarded() {
    let mut input = UNKNOWN.to_vec();
    input.extend_from_slice(b"\n{not json\n");
    let out = run(&input);
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
    assert!(out.stderr.lines().count() == 1, "one line: {}", out.stderr);
    assert!(out.stdout.starts_with(UNKNOWN));
}

#[test]
fn an_empty_stream_gives_no_traces() {
    let out = run(b"");
    assert_eq!(out.code, 0);
    assert!(out.stdout.is_empty());
}
