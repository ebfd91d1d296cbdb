//! Hostile lines: records with a correct id (so only what the case is about is wrong),
//! and the malformed lines the cases append to a valid stream.

use qa_records::envelope::{compute_id, Src};
use serde_json::{json, Value};

/// One record line (no newline) of `kind` at version `v` with `data`, its id computed.
pub fn line(kind: &str, v: u64, data: Value) -> Vec<u8> {
    let id = compute_id(kind, v, &[], &Src::new(), &data).expect("canonical data");
    serde_json::to_vec(&json!({
        "kind": kind, "v": v, "id": id, "by": "hostile/0", "from": [], "src": {}, "data": data,
    }))
    .expect("serializing a record")
}

/// `line` with a newline.
pub fn with_newline(mut line: Vec<u8>) -> Vec<u8> {
    line.push(b'\n');
    line
}

/// A record line whose text is spliced in raw: `{"kind":KIND,...,"data":DATA}` with the
/// id of an empty object (the cases using it fail before any id is checked).
pub fn raw(kind: &str, v: &str, data: &[u8]) -> Vec<u8> {
    let mut line = format!(
        "{{\"kind\":\"{kind}\",\"v\":{v},\"id\":\"sha256:{}\",\"by\":\"hostile/0\",\"from\":[],\"src\":{{}},\"data\":",
        "0".repeat(64)
    )
    .into_bytes();
    line.extend_from_slice(data);
    line.push(b'}');
    line
}
