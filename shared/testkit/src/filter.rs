//! What every filter stage must do with a stream it does not own: forward unknown kinds
//! byte for byte, and stop on a malformed line with exit 65 after what it forwarded.

use crate::run::Program;

/// A valid record of a kind no stage owns.
pub const UNKNOWN: &[u8] = b"{\"kind\":\"x-custom\",\"v\":1,\"id\":\"sha256:0000000000000000000000000000000000000000000000000000000000000000\",\"by\":\"t\",\"from\":[],\"src\":{},\"data\":{\"a\":1}}";

fn run(bin: &str, stdin: &[u8]) -> crate::Run {
    Program::at(bin).invocation().stdin(stdin.to_vec()).run()
}

/// An unknown record (with `\r\n` and a blank line after it) comes out first, unchanged
/// but for its `\n` terminator.
pub fn assert_forwards_unknown_kinds(bin: &str) {
    let mut input = UNKNOWN.to_vec();
    input.extend_from_slice(b"\r\n\n");
    let out = run(bin, &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with(UNKNOWN),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.stdout[UNKNOWN.len()], b'\n');
}

/// A malformed second line stops the stage with exit 65 and one stderr line naming it,
/// after the first record was forwarded.
pub fn assert_malformed_line_is_65(bin: &str) {
    let mut input = UNKNOWN.to_vec();
    input.extend_from_slice(b"\n{not json\n");
    let out = run(bin, &input);
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "one line: {}", out.stderr);
    assert!(out.stdout.starts_with(UNKNOWN));
}

/// The stage's output for `stdin`.
pub fn output(bin: &str, stdin: &[u8]) -> crate::Run {
    run(bin, stdin)
}
