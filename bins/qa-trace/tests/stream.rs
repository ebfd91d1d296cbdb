//! qa-trace as a filter: records it does not own pass through byte for byte, bad input
//! stops it with exit 65 naming the line, and what was forwarded before stays written.

use qa_testkit::filter;

const BIN: &str = env!("CARGO_BIN_EXE_qa-trace");

qa_testkit::filter_contract_tests!(BIN);

#[test]
fn an_empty_stream_gives_no_traces() {
    let out = filter::output(BIN, b"");
    assert_eq!(out.code, 0);
    assert!(out.stdout.is_empty());
}
