//! Reading NDJSON output: one JSON value per line, and lookups by kind and by file.

use serde_json::Value;

/// Every non-blank line of `stdout` as JSON; panics naming the first line that is not.
pub fn parse(stdout: &[u8]) -> Vec<Value> {
    stdout
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            serde_json::from_slice(l).unwrap_or_else(|e| {
                panic!(
                    "line {} is not JSON ({e}): {}",
                    i + 1,
                    String::from_utf8_lossy(l)
                )
            })
        })
        .collect()
}

/// The records of `kind`, in stream order.
pub fn of_kind<'a>(records: &'a [Value], kind: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["kind"] == kind).collect()
}

/// The `data` of the one record of `kind`.
pub fn one<'a>(records: &'a [Value], kind: &str) -> &'a Value {
    let found = of_kind(records, kind);
    assert_eq!(
        found.len(),
        1,
        "expected one {kind} record, got {}",
        found.len()
    );
    &found[0]["data"]
}

/// The `data` of the file record for `path` in `delta` (branch or current).
pub fn file<'a>(records: &'a [Value], path: &str, delta: &str) -> &'a Value {
    let found: Vec<&Value> = of_kind(records, "file")
        .into_iter()
        .filter(|r| r["data"]["path"] == path && r["data"]["delta"] == delta)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {delta} file record for {path}, got {}",
        found.len()
    );
    &found[0]["data"]
}

/// The paths of the file records in `delta`, in stream order.
pub fn paths(records: &[Value], delta: &str) -> Vec<String> {
    of_kind(records, "file")
        .into_iter()
        .filter(|r| r["data"]["delta"] == delta)
        .map(|r| {
            r["data"]["path"]
                .as_str()
                .expect("a string path")
                .to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_are_skipped() {
        let records = parse(b"{\"kind\":\"a\"}\n\n{\"kind\":\"b\"}\n");
        assert_eq!(records.len(), 2);
        assert_eq!(of_kind(&records, "b").len(), 1);
    }

    #[test]
    #[should_panic(expected = "line 2 is not JSON")]
    fn a_bad_line_is_named() {
        parse(b"{}\n{\"kind\":\n");
    }
}
