//! Report text as spans that say what they are (our own words, source prose, source
//! names, emphasis), so a phrase is composed once in a document model and each human
//! format makes source text inert its own way: plain text keeps it to one line, markdown
//! escapes prose and puts names in code spans.

use std::borrow::Cow;

/// A piece of a phrase and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span<'a> {
    /// Our own words, labels and numbers: written as they are.
    Word(Cow<'a, str>),
    /// Source-derived prose (titles, messages, reasons).
    Text(Cow<'a, str>),
    /// Source-derived names (paths, commands, refs, hashes, ids).
    Code(Cow<'a, str>),
    /// Our own word that stands out (a severity, a status).
    Strong(Cow<'a, str>),
}

/// Spans in order: one line of a report, or a part of one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Phrase<'a>(pub Vec<Span<'a>>);

/// The builder methods that append one span of each kind.
macro_rules! spans {
    ($($(#[$doc:meta])* $name:ident => $kind:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, s: impl Into<Cow<'a, str>>) -> Self {
                self.0.push(Span::$kind(s.into()));
                self
            }
        )*
    };
}

impl<'a> Phrase<'a> {
    spans!(word => Word, text => Text, code => Code, strong => Strong);

    /// This phrase followed by `other`.
    pub fn then(mut self, other: Phrase<'a>) -> Self {
        self.0.extend(other.0);
        self
    }
}

/// How a format writes each kind of span: our words always as they are, the rest through
/// the format's own functions.
#[derive(Clone, Copy)]
pub struct Style {
    pub text: fn(&str) -> String,
    pub code: fn(&str) -> String,
    pub strong: fn(&str) -> String,
}

impl Style {
    /// The whole phrase as this format shows it.
    pub fn show(&self, phrase: &Phrase<'_>) -> String {
        let mut out = String::new();
        for span in &phrase.0 {
            match span {
                Span::Word(s) => out.push_str(s),
                Span::Text(s) => out.push_str(&(self.text)(s)),
                Span::Code(s) => out.push_str(&(self.code)(s)),
                Span::Strong(s) => out.push_str(&(self.strong)(s)),
            }
        }
        out
    }

    /// `items` shown one after the other, `separator` between them.
    pub fn joined(&self, items: &[Phrase<'_>], separator: &str) -> String {
        let shown: Vec<String> = items.iter().map(|p| self.show(p)).collect();
        shown.join(separator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAGGED: Style = Style {
        text: |s| format!("t({s})"),
        code: |s| format!("c({s})"),
        strong: |s| format!("s({s})"),
    };

    #[test]
    fn a_phrase_keeps_its_spans_in_order_and_kind() {
        let p = Phrase::default()
            .strong("error")
            .word(" ")
            .code("qa-route")
            .then(Phrase::default().word(": ").text("a message"));
        assert_eq!(TAGGED.show(&p), "s(error) c(qa-route): t(a message)");
    }

    #[test]
    fn joined_phrases_are_separated_once_between_each() {
        let items = [Phrase::default().word("a"), Phrase::default().code("b")];
        assert_eq!(TAGGED.joined(&items, "; "), "a; c(b)");
    }
}
