//! Canonical JSON: the byte form record ids are computed over.
//!
//! Object keys are sorted by code point, there is no insignificant whitespace and strings
//! are escaped as serde_json writes them. The result is byte-identical to Python's
//! `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, so any
//! tool can recompute an id. Floats are refused: their text form is not portable.

use serde_json::Value;
use std::fmt;

/// A value that has no canonical form (a float).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotCanonical {
    /// JSON pointer to the offending value.
    pub pointer: String,
}

impl fmt::Display for NotCanonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "floating-point number at {} cannot be hashed (use integers)",
            if self.pointer.is_empty() {
                "/"
            } else {
                &self.pointer
            }
        )
    }
}

impl std::error::Error for NotCanonical {}

/// Appends the canonical form of `value` to `out`.
pub fn write(value: &Value, out: &mut Vec<u8>) -> Result<(), NotCanonical> {
    write_at_pointer(value, out, "")
}

/// Like [`write`], for a value found at `pointer` inside a larger document (errors name
/// the full pointer).
pub fn write_at_pointer(
    value: &Value,
    out: &mut Vec<u8>,
    pointer: &str,
) -> Result<(), NotCanonical> {
    let mut path = Vec::new();
    write_value(value, out, &mut path).map_err(|()| NotCanonical {
        pointer: format!("{pointer}{}", render(&path)),
    })
}

/// The canonical form of `value` as bytes.
pub fn to_vec(value: &Value) -> Result<Vec<u8>, NotCanonical> {
    let mut out = Vec::with_capacity(256);
    write(value, &mut out)?;
    Ok(out)
}

/// One step of the path to a value; only rendered when a float is found.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn render(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        s.push('/');
        match step {
            Step::Key(k) => s.push_str(&k.replace('~', "~0").replace('/', "~1")),
            Step::Index(i) => s.push_str(&i.to_string()),
        }
    }
    s
}

/// Writes `value`; on a float, leaves its path in `path` and returns Err.
fn write_value<'a>(
    value: &'a Value,
    out: &mut Vec<u8>,
    path: &mut Vec<Step<'a>>,
) -> Result<(), ()> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => {
            if n.is_f64() {
                return Err(());
            }
            out.extend_from_slice(n.to_string().as_bytes());
        }
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                path.push(Step::Index(i));
                write_value(item, out, path)?;
                path.pop();
            }
            out.push(b']');
        }
        Value::Object(map) => {
            // Sorted explicitly: serde_json's map order depends on a cargo feature
            // (`preserve_order`) that any crate in the workspace may switch on.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                path.push(Step::Key(key));
                write_value(item, out, path)?;
                path.pop();
            }
            out.push(b'}');
        }
    }
    Ok(())
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    // Writing a str into a Vec cannot fail.
    serde_json::to_writer(&mut *out, s).expect("serializing a string into memory");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn canon(v: Value) -> String {
        String::from_utf8(to_vec(&v).unwrap()).unwrap()
    }

    #[test]
    fn keys_are_sorted_by_code_point_at_every_depth() {
        let v = json!({"b": 1, "a": {"z": [1, {"y": 2, "x": 3}], "é": 0, "Z": 0}});
        assert_eq!(
            canon(v),
            r#"{"a":{"Z":0,"z":[1,{"x":3,"y":2}],"é":0},"b":1}"#
        );
    }

    #[test]
    fn strings_keep_non_ascii_and_escape_controls_like_python() {
        let v = json!("tab\tquote\"back\\slash/ñ\u{1}\u{7f}\u{2028}");
        assert_eq!(
            canon(v),
            "\"tab\\tquote\\\"back\\\\slash/ñ\\u0001\u{7f}\u{2028}\""
        );
    }

    #[test]
    fn integers_and_literals_are_written_plainly() {
        assert_eq!(
            canon(json!([0, -5, 18446744073709551615u64, true, false, null])),
            "[0,-5,18446744073709551615,true,false,null]"
        );
    }

    #[test]
    fn floats_are_refused_with_their_pointer() {
        let err = to_vec(&json!({"a": [1, 2.5]})).unwrap_err();
        assert_eq!(err.pointer, "/a/1");
        assert!(err.to_string().contains("/a/1"));
    }
}
