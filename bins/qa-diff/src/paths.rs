//! Paths as records show them: git paths are bytes, record paths are strings. A UTF-8
//! path is itself; any other is escaped losslessly (`\xHH` for each byte outside UTF-8,
//! `\\` for a backslash) and its raw bytes are recorded beside it as hex, so two names
//! that differ only in such bytes never become one path.

use std::fmt::Write as _;

/// A path's record form: its text and, when it is not UTF-8, its bytes as hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub hex: Option<String>,
}

/// The record form of the git path `bytes`.
pub fn shown(bytes: &[u8]) -> Shown {
    match std::str::from_utf8(bytes) {
        Ok(text) => Shown {
            text: text.to_string(),
            hex: None,
        },
        Err(_) => Shown {
            text: escaped(bytes),
            hex: Some(qa_records::hash::hex(bytes)),
        },
    }
}

/// The text of the git path `bytes` (see [`shown`]).
pub fn text(bytes: &[u8]) -> String {
    shown(bytes).text
}

/// The raw bytes of a record path: `hex` decoded when there is one, else the text.
pub fn raw(text: &str, hex: Option<&str>) -> Vec<u8> {
    let decoded = hex.and_then(|hex| {
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()
    });
    decoded.unwrap_or_else(|| text.as_bytes().to_vec())
}

/// `bytes` with each byte outside UTF-8 written `\xHH` and each backslash `\\`.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\\\"));
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_utf8_path_is_itself_with_no_bytes_recorded() {
        let path = shown("src/ñ\\x.rs".as_bytes());
        assert_eq!(path.text, "src/ñ\\x.rs");
        assert_eq!(path.hex, None);
    }

    #[test]
    fn bytes_outside_utf8_are_escaped_and_kept_as_hex() {
        assert_eq!(
            shown(b"a\xff"),
            Shown {
                text: "a\\xff".into(),
                hex: Some("61ff".into())
            }
        );
        assert_eq!(shown(b"a\xfe").text, "a\\xfe");
    }

    #[test]
    fn the_raw_bytes_come_back_from_a_record_path() {
        let path = shown(b"dir/a\xff");
        assert_eq!(raw(&path.text, path.hex.as_deref()), b"dir/a\xff");
        assert_eq!(raw("plain/ñ", None), "plain/ñ".as_bytes());
    }

    #[test]
    fn a_backslash_in_a_non_utf8_path_is_doubled_so_escapes_cannot_collide() {
        // A literal `\xff` beside a raw 0xfe, against a raw 0xff beside a raw 0xfe.
        let literal = shown(b"a\\xff\xfe");
        let raw = shown(b"a\xff\xfe");
        assert_eq!(literal.text, "a\\\\xff\\xfe");
        assert_eq!(raw.text, "a\\xff\\xfe");
        assert_ne!(literal.text, raw.text);
    }
}
