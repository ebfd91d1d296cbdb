//! The profile's values read the way the format defines them: as JavaScript reads them
//! (`String(v)`, `trim()`, UTF-16 lengths, `Number.isInteger`), so a rule such as "at
//! least 20 characters after trimming" means the same here as in the format's definition.

use serde_json::{Map, Value};

/// The value as a mapping (a YAML mapping, not a list and not null).
pub fn object(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// The value as a mapping with at least one key.
pub fn non_empty_object(v: Option<&Value>) -> Option<&Map<String, Value>> {
    object(v).filter(|m| !m.is_empty())
}

/// The value as a string that is not blank after trimming.
pub fn text(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !trim(s).is_empty())
}

/// True when the value is a string equal to one of `allowed`.
pub fn is_one_of(v: Option<&Value>, allowed: &[&str]) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|s| allowed.contains(&s))
}

/// JavaScript's white space and line terminators: what `trim()` removes and `\s` matches.
/// Unlike Rust's `char::is_whitespace`, U+FEFF is white space and U+0085 is not.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{000B}' | '\u{000C}' | '\r' | ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `String.prototype.trim`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// A string's length as JavaScript counts it (UTF-16 code units).
pub fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// True for a non-blank string matching `^https?://\S+$`.
pub fn is_http_url(v: Option<&Value>) -> bool {
    let Some(s) = text(v) else { return false };
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.chars().any(is_js_space))
}

/// The number, when the value is an integral number (`Number.isInteger`).
pub fn integer(v: Option<&Value>) -> Option<f64> {
    let n = v?.as_f64()?;
    (n.is_finite() && n.fract() == 0.0).then_some(n)
}

/// `String(v)`: how a value reads inside a message.
pub fn display(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => number(f),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        // Array.prototype.toString: elements joined by commas, null as empty.
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Null => String::new(),
                other => display(other),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

/// `String(n)` for a float: the shortest round-trip digits, with JavaScript's switch to
/// exponent notation below 1e-6 and from 1e21.
fn number(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let magnitude = f.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        let e = format!("{f:e}");
        return match e.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => e,
        };
    }
    format!("{f}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn trim_removes_javascript_white_space_only() {
        assert_eq!(trim("\u{FEFF} a \u{3000}"), "a");
        assert_eq!(trim("\u{0085}a"), "\u{0085}a");
    }

    #[test]
    fn lengths_count_utf16_code_units() {
        assert_eq!(js_len("😀"), 2);
        assert_eq!(js_len("é"), 1);
    }

    #[test]
    fn urls_need_an_http_scheme_and_no_white_space() {
        assert!(is_http_url(Some(&json!("https://qa.example.com"))));
        assert!(is_http_url(Some(&json!("http://localhost:3000/x"))));
        assert!(!is_http_url(Some(&json!("ftp://qa.example.com"))));
        assert!(!is_http_url(Some(&json!("https://"))));
        assert!(!is_http_url(Some(&json!("https://qa.example.com/a b"))));
        assert!(!is_http_url(Some(&json!("HTTPS://qa.example.com"))));
        assert!(!is_http_url(Some(&json!(42))));
    }

    #[test]
    fn values_display_as_javascript_strings() {
        assert_eq!(display(&json!(1.6)), "1.6");
        assert_eq!(display(&json!(2)), "2");
        assert_eq!(display(&json!(null)), "null");
        assert_eq!(display(&json!(["a", null, 1])), "a,,1");
        assert_eq!(display(&json!({"a": 1})), "[object Object]");
        assert_eq!(number(1e21), "1e+21");
        assert_eq!(number(1e-7), "1e-7");
        assert_eq!(number(0.5), "0.5");
    }

    #[test]
    fn integers_are_integral_numbers_of_any_representation() {
        assert_eq!(integer(Some(&json!(90))), Some(90.0));
        assert_eq!(integer(Some(&json!(90.0))), Some(90.0));
        assert_eq!(integer(Some(&json!(90.5))), None);
        assert_eq!(integer(Some(&json!("90"))), None);
    }
}
