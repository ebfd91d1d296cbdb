//! qa-intent as a filter: records it does not own pass through byte for byte, bad input
//! stops it with exit 65 naming the line, and what was forwarded before stays written.

use qa_testkit::filter;

const BIN: &str = env!("CARGO_BIN_EXE_qa-intent");

qa_testkit::filter_contract_tests!(BIN);

#[test]
fn a_stream_without_a_change_gets_one_warning_and_no_intents() {
    let out = filter::output(BIN, filter::UNKNOWN);
    assert_eq!(out.code, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\"kind\":\"diag\"") && text.contains("run qa-diff first"),
        "{text}"
    );
    assert!(!text.contains("\"kind\":\"intent\""));
}
