//! HTML escaping for report.html: source-derived text becomes inert text in element
//! content and in double-quoted attributes, its hidden characters (controls, bidi
//! overrides and isolates) shown as U+FFFD so they cannot reorder what a reader sees.

use qa_records::untrusted::is_hidden;

/// `s` as HTML text or as the value of a double-quoted attribute: `&`, `<`, `>`, `"` and
/// `'` as character references, hidden characters as U+FFFD; tabs and line breaks kept.
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_hidden(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Our own token (a status, a kind) as a class name: lowercase ASCII letters, digits and
/// `-` kept, anything else as `-`, so it can never leave the attribute.
pub fn class(token: &str) -> String {
    token
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect()
}

/// `bytes` in standard base64 with padding, for a `data:` URL of bytes qa-report verified.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_become_character_references() {
        assert_eq!(
            html(r#"<script>alert("x")</script> & <img src=x onerror='y'>"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=&#39;y&#39;&gt;"
        );
    }

    #[test]
    fn ordinary_text_passes_unchanged() {
        assert_eq!(
            html("Grüße — refund 100 EUR → ok\n\tnext"),
            "Grüße — refund 100 EUR → ok\n\tnext"
        );
    }

    #[test]
    fn bidi_overrides_and_controls_show_as_replacement_characters() {
        assert_eq!(
            html("a\u{202e}b\u{2066}c\x1bd"),
            "a\u{fffd}b\u{fffd}c\u{fffd}d"
        );
    }

    #[test]
    fn an_attribute_value_cannot_be_closed_by_either_quote() {
        let escaped = html(r#"" onmouseover="x' y"#);
        assert!(
            !escaped.contains('"') && !escaped.contains('\''),
            "{escaped}"
        );
    }

    #[test]
    fn a_class_keeps_only_lowercase_letters_digits_and_dashes() {
        assert_eq!(class("review-only"), "review-only");
        assert_eq!(class("Fail\" onclick=x"), "fail--onclick-x");
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"\x89PNG\r\n\x1a\n"), "iVBORw0KGgo=");
    }
}
