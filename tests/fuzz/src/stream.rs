//! The stream's own formats: the record envelope, canonical JSON and NDJSON lines.

use qa_records::canonical;
use qa_records::envelope::Envelope;
use qa_records::ndjson::{self, LineReader};
use qa_records::output::RecordWriter;
use serde_json::Value;

/// One line as an envelope; when it is one, its id is recomputed (which may refuse a
/// float, never panic).
pub fn envelope(data: &[u8]) {
    if let Ok(envelope) = Envelope::parse(data) {
        let _ = envelope.known_kind();
        let _ = envelope.computed_id();
    }
}

/// Canonical JSON of any value: when a value has a canonical form, reading that form back
/// gives the same bytes again (what lets another tool recompute an id).
pub fn canonical(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(bytes) = canonical::to_vec(&value) else {
        return;
    };
    let again: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "canonical form does not parse back: {e}: {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    let twice = canonical::to_vec(&again).expect("a canonical form has a canonical form");
    assert_eq!(
        String::from_utf8_lossy(&twice),
        String::from_utf8_lossy(&bytes),
        "canonical JSON is not a fixed point"
    );
}

/// A whole stream forwarded as a filter stage does: what comes out is whole lines, each a
/// valid envelope, as many as were counted. Then the same bytes under a tiny line limit.
pub fn ndjson(data: &[u8]) {
    let mut written = Vec::new();
    let mut out = RecordWriter::new(&mut written);
    let forwarded = ndjson::forward("fuzz", data, &mut out);
    let count = out.written();
    out.finish().expect("writing to memory");
    if let Ok(n) = forwarded {
        assert_eq!(n, count, "forward counts what it wrote");
    }
    if !written.is_empty() {
        assert_eq!(
            written.last(),
            Some(&b'\n'),
            "a forwarded record ends its line"
        );
    }
    let mut seen = 0;
    for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        Envelope::parse(line).expect("a forwarded line is a valid envelope");
        seen += 1;
    }
    assert_eq!(seen, count, "every forwarded record is one line");

    let mut reader = LineReader::with_limit(data, 64);
    while let Some(item) = reader.next_line() {
        if let Ok((line, bytes)) = item {
            assert!(bytes.len() <= 64, "line {line} passed the limit");
            assert!(!bytes.contains(&b'\n'), "line {line} holds a newline");
        }
    }
}
