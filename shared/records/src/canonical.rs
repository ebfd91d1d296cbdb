//! Canonical JSON: the byte form record ids are computed over.
//!
//! Object keys are sorted by code point, there is no insignificant whitespace and strings
//! are escaped as serde_json writes them. The result is byte-identical to Python's
//! `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, so any
//! tool can recompute an id. Numbers are integers from -2^63 to 2^64-1. Refused, each
//! named for what it is: floats (their text form is not portable), negative zero (Python
//! reads `-0` as the integer 0 and writes `0`, so the bytes hashed would differ), and
//! integers beyond 64 bits (Python keeps them, but JavaScript, jq and serde_json read
//! them as floats and lose digits: an id over one could not be recomputed everywhere).

use serde_json::{Number, Value};
use std::fmt;

/// Why a number has no canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A number with a fraction or an exponent.
    Float,
    /// `-0`: Python writes it as `0`.
    NegativeZero,
    /// An integer outside -2^63..2^64-1 (read as a float, with digits lost).
    BeyondSixtyFourBits,
}

/// A value that has no canonical form, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotCanonical {
    /// JSON pointer to the offending value.
    pub pointer: String,
    pub reason: Reason,
}

impl fmt::Display for NotCanonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        match self.reason {
            Reason::Float => write!(
                f,
                "floating-point number at {at} cannot be hashed (use integers)"
            ),
            Reason::NegativeZero => {
                write!(f, "negative zero at {at} cannot be hashed (write 0)")
            }
            Reason::BeyondSixtyFourBits => write!(
                f,
                "integer beyond 64 bits at {at} cannot be hashed (canonical integers run from -2^63 to 2^64-1; write a larger one as a string)"
            ),
        }
    }
}

impl std::error::Error for NotCanonical {}

/// Why `n` has no canonical form, if it has none.
fn refused(n: &Number) -> Option<Reason> {
    // serde_json keeps every integer within 64 bits as one; anything else is an f64.
    let f = n.as_f64().filter(|_| n.is_f64())?;
    Some(if f == 0.0 && f.is_sign_negative() {
        Reason::NegativeZero
    } else if f.fract() == 0.0 && (f >= 18446744073709551616.0 || f <= -9223372036854775808.0) {
        // At the bounds too: -2^63 - 1 reads as the float -2^63 (-2^63 itself is an i64).
        Reason::BeyondSixtyFourBits
    } else {
        Reason::Float
    })
}

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
    write_value(value, out, &mut path).map_err(|reason| NotCanonical {
        pointer: format!("{pointer}{}", render(&path)),
        reason,
    })
}

/// The canonical form of `value` as bytes.
pub fn to_vec(value: &Value) -> Result<Vec<u8>, NotCanonical> {
    let mut out = Vec::with_capacity(256);
    write(value, &mut out)?;
    Ok(out)
}

/// The canonical form of `value` as a `RawValue`, written once by serde_json's own
/// writer (the same escaping and integer digits as [`write`]) with object keys sorted:
/// serde_json builds a `RawValue` from its own output without parsing it again, as
/// `RawValue::from_string` would. `pointer` is where `value` stands, for errors.
pub fn to_raw_value_at_pointer(
    value: &Value,
    pointer: &str,
) -> Result<Box<serde_json::value::RawValue>, NotCanonical> {
    serde_json::value::to_raw_value(&Sorted(value)).or_else(|_| {
        // Only a refused number fails: `write_at_pointer` finds it and names its path.
        let mut bytes = Vec::new();
        write_at_pointer(value, &mut bytes, pointer)?;
        let text = String::from_utf8(bytes).expect("canonical JSON is UTF-8");
        Ok(serde_json::value::RawValue::from_string(text).expect("canonical JSON is JSON"))
    })
}

/// A `Value` that serializes in canonical form; a refused number is an error.
struct Sorted<'a>(&'a Value);

impl serde::Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Number(n) if refused(n).is_some() => {
                Err(serde::ser::Error::custom("a number canonical JSON refuses"))
            }
            Value::Array(items) => s.collect_seq(items.iter().map(Sorted)),
            Value::Object(map) => {
                // Sorted explicitly, as in `write_value`.
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                s.collect_map(entries.into_iter().map(|(k, v)| (k, Sorted(v))))
            }
            other => other.serialize(s),
        }
    }
}

/// One step of the path to a value; only rendered when a number is refused.
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

/// Writes `value`; on a refused number, leaves its path in `path` and returns why.
fn write_value<'a>(
    value: &'a Value,
    out: &mut Vec<u8>,
    path: &mut Vec<Step<'a>>,
) -> Result<(), Reason> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => {
            if let Some(reason) = refused(n) {
                return Err(reason);
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

/// True when the JSON text `text` is already canonical: [`write`] of what it reads as
/// gives back these very bytes, so it can be hashed as it stands (every stage writes
/// its records so). What this does not prove is false, and the caller canonicalizes:
/// an escaped key, a number outside the canonical integers, nesting past 100 levels.
pub fn is_canonical(text: &str) -> bool {
    let mut scan = Scan {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    scan.value() && scan.at == scan.bytes.len()
}

/// Nesting [`is_canonical`] follows (serde_json reads up to 128 levels).
const DEEPEST: usize = 100;

/// A walk over a JSON text that stops at the first byte canonical JSON would not have.
struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Scan<'_> {
    fn value(&mut self) -> bool {
        match self.bytes.get(self.at) {
            Some(b'"') => self.string().is_some(),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b't') => self.word(b"true"),
            Some(b'f') => self.word(b"false"),
            Some(b'n') => self.word(b"null"),
            Some(b'-' | b'0'..=b'9') => self.integer(),
            _ => false,
        }
    }

    fn word(&mut self, word: &[u8]) -> bool {
        let found = self.bytes[self.at..].starts_with(word);
        self.at += word.len();
        found
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.bytes.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    /// An integer as a 64-bit integer prints: no `+`, leading zero, fraction, exponent
    /// or `-0`.
    fn integer(&mut self) -> bool {
        let start = self.at;
        self.eat(b'-');
        let digits = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        let (sign, digits) = (&self.bytes[start..digits], &self.bytes[digits..self.at]);
        if digits.is_empty() || (digits[0] == b'0' && (digits.len() > 1 || !sign.is_empty())) {
            return false;
        }
        if matches!(self.bytes.get(self.at), Some(b'.' | b'e' | b'E')) {
            return false;
        }
        // ASCII digits and a sign: UTF-8 by construction.
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("x");
        text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok()
    }

    /// A string escaped as serde_json escapes (`\"`, `\\`, the short escapes of
    /// `\b \t \n \f \r`, `\u00xx` in lowercase for the other controls, nothing else):
    /// its content's byte range and whether it held an escape.
    fn string(&mut self) -> Option<(usize, usize, bool)> {
        self.at += 1;
        let start = self.at;
        let mut escaped = false;
        loop {
            self.at = to_string_end_or_escape::<true>(self.bytes, self.at);
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some((start, self.at - 1, escaped));
                }
                b'\\' => {
                    escaped = true;
                    match *self.bytes.get(self.at + 1)? {
                        b'"' | b'\\' | b'b' | b't' | b'n' | b'f' | b'r' => self.at += 2,
                        b'u' => {
                            let hex = self.bytes.get(self.at + 2..self.at + 6)?;
                            let digit = |d: u8| match d {
                                b'0'..=b'9' => Some(d - b'0'),
                                b'a'..=b'f' => Some(d - b'a' + 10),
                                _ => None,
                            };
                            let code = digit(hex[2])? << 4 | digit(hex[3])?;
                            let short = matches!(code, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d);
                            if hex[..2] != *b"00" || code >= 0x20 || short {
                                return None;
                            }
                            self.at += 6;
                        }
                        _ => return None,
                    }
                }
                c if c < 0x20 => return None,
                _ => self.at += 1,
            }
        }
    }

    /// The items of an array or object up to its `close` byte, separated by commas.
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> bool) -> bool {
        self.at += 1;
        self.depth += 1;
        if self.depth > DEEPEST {
            return false;
        }
        if !self.eat(close) {
            loop {
                if !item(self) {
                    return false;
                }
                if self.eat(close) {
                    break;
                }
                if !self.eat(b',') {
                    return false;
                }
            }
        }
        self.depth -= 1;
        true
    }

    fn array(&mut self) -> bool {
        self.items(b']', Scan::value)
    }

    /// An object whose keys, none escaped, stand in strictly increasing byte order: the
    /// code-point order [`write`] sorts by, with no key given twice.
    fn object(&mut self) -> bool {
        let mut last: Option<(usize, usize)> = None;
        self.items(b'}', |scan| {
            if scan.bytes.get(scan.at) != Some(&b'"') {
                return false;
            }
            let Some((start, end, false)) = scan.string() else {
                return false;
            };
            let key = &scan.bytes[start..end];
            if last.is_some_and(|(s, e)| scan.bytes[s..e] >= *key) {
                return false;
            }
            last = Some((start, end));
            scan.eat(b':') && scan.value()
        })
    }
}

/// The first `"` or `\\` (or, with `CONTROLS`, control byte below 0x20) of `bytes` at or
/// after `at` (or its end): eight bytes at a time where none stands among them (most of a
/// record's bytes are string contents). Text already known to be JSON needs no `CONTROLS`.
pub(crate) fn to_string_end_or_escape<const CONTROLS: bool>(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // True when a byte of `word` is below `n` (n <= 0x80): the classic test, exact as a
    // whole word; a byte equal to `byte` is a zero byte of `word ^ (ONES * byte)`.
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS != 0;
    let holds = |word: u64, byte: u8| below(word ^ (ONES * u64::from(byte)), 1);
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        if holds(word, b'"') || holds(word, b'\\') || (CONTROLS && below(word, 0x20)) {
            break;
        }
        at += 8;
    }
    while at < bytes.len() && !(matches!(bytes[at], b'"' | b'\\') || CONTROLS && bytes[at] < 0x20) {
        at += 1;
    }
    at
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
    fn is_canonical_finds_a_raw_control_byte_or_a_bad_escape_at_every_offset_of_a_long_string() {
        for pad in 0..17 {
            let run = "a".repeat(pad);
            for (inner, canonical) in [
                ("\\\"", true),
                ("\\n", true),
                ("\\u001f", true),
                ("ü", true),
                ("\u{1f}", false),
                ("\t", false),
                ("\\u00e9", false),
                ("\\/", false),
            ] {
                let text = format!(r#"{{"k":"{run}{inner}{run}","n":"{run}"}}"#);
                assert_eq!(is_canonical(&text), canonical, "{text:?}");
            }
        }
    }

    #[test]
    fn the_raw_value_form_holds_the_canonical_bytes() {
        let v = json!({"z": [{"b": "\u{1}é\"", "a": -3}], "a": {"y": null, "x": true}, "m": 18446744073709551615u64});
        let raw = to_raw_value_at_pointer(&v, "/data").unwrap();
        assert_eq!(raw.get(), canon(v));
    }

    #[test]
    fn the_raw_value_form_refuses_a_float_naming_its_full_pointer() {
        let v = json!({"a": [1, {"b": 2.5}]});
        let err = to_raw_value_at_pointer(&v, "/data").unwrap_err();
        assert_eq!(
            err,
            NotCanonical {
                pointer: "/data/a/1/b".into(),
                reason: Reason::Float
            }
        );
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
        assert_eq!(err.reason, Reason::Float);
        assert!(err.to_string().contains("floating-point number at /a/1"));
    }

    /// Parses `text` as a reader of a stream line does.
    fn refusal(text: &str) -> Result<String, NotCanonical> {
        let value: Value = serde_json::from_str(text).unwrap();
        to_vec(&value).map(|bytes| String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn negative_zero_is_refused_and_named_as_such() {
        let err = refusal(r#"{"n": -0}"#).unwrap_err();
        assert_eq!(err.reason, Reason::NegativeZero);
        assert_eq!(
            err.to_string(),
            "negative zero at /n cannot be hashed (write 0)"
        );
        assert_eq!(refusal(r#"{"n": 0}"#).unwrap(), r#"{"n":0}"#);
        assert_eq!(refusal("-0.0").unwrap_err().reason, Reason::NegativeZero);
    }

    #[test]
    fn integers_beyond_64_bits_are_refused_and_named_as_such() {
        for big in [
            "18446744073709551616",
            "-9223372036854775809",
            "123456789012345678901234567890",
        ] {
            let err = refusal(&format!("[{big}]")).unwrap_err();
            assert_eq!(err.reason, Reason::BeyondSixtyFourBits, "{big}");
            assert!(
                err.to_string()
                    .starts_with("integer beyond 64 bits at /0 cannot be hashed"),
                "{err}"
            );
        }
    }

    #[test]
    fn the_64_bit_bounds_themselves_are_canonical() {
        let bounds = "[-9223372036854775808,18446744073709551615]";
        assert_eq!(refusal(bounds).unwrap(), bounds);
    }

    #[test]
    fn integral_floats_within_64_bits_stay_floats() {
        assert_eq!(refusal("[1.0]").unwrap_err().reason, Reason::Float);
        assert_eq!(refusal("[1e3]").unwrap_err().reason, Reason::Float);
    }

    /// `is_canonical` agrees with writing the value out again.
    fn agrees(text: &str) -> bool {
        let value: Value = serde_json::from_str(text).unwrap();
        let rewritten = to_vec(&value).ok();
        let same = rewritten.as_deref() == Some(text.as_bytes());
        assert_eq!(is_canonical(text), same, "{text}");
        same
    }

    #[test]
    fn text_as_the_stages_write_it_is_canonical_as_it_stands() {
        for text in [
            r#"{"a":{"Z":0,"z":[1,{"x":3,"y":2}],"é":0},"b":1}"#,
            "\"tab\\tquote\\\"back\\\\slash/ñ\\u0001\u{7f}\u{2028}\"",
            "[-9223372036854775808,18446744073709551615,0,-5,true,false,null]",
            r#"{"":[],"a":{},"b":"\u001f\b\f\n\r\t"}"#,
        ] {
            assert!(agrees(text), "{text}");
        }
    }

    #[test]
    fn text_that_writing_out_would_change_is_not_canonical() {
        for text in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a": 1}"#,
            " [1]",
            "[1 ]",
            r#""\/""#,
            r#""\u0041""#,
            r#""\u000A""#,
            r#""\u000a""#,
            r#""\u001F""#,
            "[-0]",
            "[1.0]",
            "[1e3]",
            "[18446744073709551616]",
            "[-9223372036854775809]",
        ] {
            assert!(!agrees(text), "{text}");
        }
    }

    #[test]
    fn an_escaped_key_or_deep_nesting_is_left_to_the_writer() {
        // Canonical in fact, but not proved so here: the caller writes it out.
        let escaped_key = r#"{"a\"b":1}"#;
        assert_eq!(
            to_vec(&serde_json::from_str(escaped_key).unwrap()).unwrap(),
            escaped_key.as_bytes()
        );
        assert!(!is_canonical(escaped_key));
        let deep = format!("{}{}", "[".repeat(DEEPEST + 1), "]".repeat(DEEPEST + 1));
        assert!(!is_canonical(&deep));
        let deepest = format!("{}{}", "[".repeat(DEEPEST), "]".repeat(DEEPEST));
        assert!(is_canonical(&deepest));
    }
}
