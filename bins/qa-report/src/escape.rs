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

/// `bytes` in standard base64 with padding, for a `data:` URL of bytes qa-report verified
/// and a CSP hash.
pub fn base64(bytes: &[u8]) -> String {
    qa_records::base64::encode(bytes, qa_records::base64::Alphabet::Standard)
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
}
