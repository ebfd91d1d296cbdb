//! One-line plain text for terminals, logs and comments: source-derived control and
//! format characters (bidi overrides, zero-width spaces) cannot move the cursor, colour
//! the screen, reorder what a reader sees or start a new line.

use std::borrow::Cow;

/// `text` with every control or format character (`untrusted::is_hidden`, and line
/// breaks) shown as a space.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if hidden(c) { ' ' } else { c })
            .collect(),
    )
}

/// The first 12 characters of an object id or hash, enough to name it.
pub fn short(oid: &str) -> String {
    one_line(oid).chars().take(12).collect()
}

/// `s` with each character `swap` gives a replacement for replaced by it, the others kept:
/// how each format's escaping is written.
pub fn swap_chars(s: &str, swap: impl Fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match swap(c) {
            Some(with) => out.push_str(with),
            None => out.push(c),
        }
    }
    out
}

/// True for characters a reader does not see as text: controls (line breaks too) and
/// format characters (zero-width, bidi, soft hyphen, ...).
pub fn hidden(c: char) -> bool {
    c.is_control() || qa_records::untrusted::is_hidden(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_newlines_and_bidi_overrides_become_spaces() {
        assert_eq!(one_line("a\nb\x1b[31mc\u{202e}d"), "a b [31mc d");
    }

    #[test]
    fn ordinary_unicode_text_is_kept_as_is() {
        assert!(matches!(one_line("Grüße — ok → 完了"), Cow::Borrowed(_)));
    }
}
