//! Bounded excerpts of observed text: at most 4,096 characters, around the first match or
//! from the start. Callers pass text that is already redacted, so no cut can leave part
//! of a token behind.

/// The most characters an excerpt keeps.
pub const MAX_CHARS: usize = 4096;

/// The first [`MAX_CHARS`] characters of `text`.
pub fn head(text: &str) -> String {
    window(text, 0)
}

/// At most [`MAX_CHARS`] characters of `text` around the first occurrence of `needle`,
/// centred on it when it fits; the start of `text` when `needle` does not occur.
pub fn around(text: &str, needle: &str) -> String {
    let Some(at) = text.find(needle) else {
        return head(text);
    };
    let match_start = text[..at].chars().count();
    let match_chars = needle.chars().count();
    let before = MAX_CHARS.saturating_sub(match_chars) / 2;
    window(text, match_start.saturating_sub(before))
}

/// [`MAX_CHARS`] characters of `text` from character `start`.
fn window(text: &str, start: usize) -> String {
    text.chars().skip(start).take(MAX_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(around("hello world", "world"), "hello world");
        assert_eq!(head("héllo"), "héllo");
    }

    #[test]
    fn long_text_is_cut_to_the_limit_in_characters_not_bytes() {
        let text = "é".repeat(MAX_CHARS + 10);
        let cut = head(&text);
        assert_eq!(cut.chars().count(), MAX_CHARS);
    }

    #[test]
    fn a_late_match_is_inside_the_excerpt() {
        let text = format!("{}NEEDLE{}", "a".repeat(10_000), "b".repeat(10_000));
        let cut = around(&text, "NEEDLE");
        assert!(cut.contains("NEEDLE"));
        assert_eq!(cut.chars().count(), MAX_CHARS);
        assert!(cut.starts_with('a') && cut.ends_with('b'));
    }

    #[test]
    fn without_a_match_the_excerpt_is_the_start() {
        let text = format!("START{}", "x".repeat(10_000));
        let cut = around(&text, "NEEDLE");
        assert!(cut.starts_with("START"));
        assert_eq!(cut.chars().count(), MAX_CHARS);
    }
}
