//! GitHub workflow commands: a `::warning` per required and a `::notice` per recommended
//! scenario, at its first located evidence, then one summary notice.

use crate::model::Report;
use crate::plain::{hidden, swap_chars};
use qa_records::change::Decision;
use std::fmt::Write as _;

/// One workflow command per line, ending with a newline.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for (intent, s) in report.by_decision() {
        let command = match s.decision() {
            Some(Decision::Required) => "warning",
            Some(Decision::Recommended) => "notice",
            _ => continue,
        };
        let mut properties = Vec::new();
        if let Some((file, line)) = s.locations().first() {
            properties.push(format!("file={}", property(file)));
            properties.push(format!("line={line}"));
        }
        properties.push(format!("title={}", property(&s.data.title)));
        let _ = writeln!(
            out,
            "::{command} {}::{}",
            properties.join(","),
            data(&s.finding(intent))
        );
    }
    let mut summary = format!("qapipe: {}", report.summary);
    if report.neutralized > 0 {
        let _ = write!(
            summary,
            "; {} instruction-like strings neutralized",
            report.neutralized
        );
    }
    // A stream that ends early or is cut fails the step's annotations, not just informs.
    let command = if report.finished() { "notice" } else { "error" };
    let _ = writeln!(
        out,
        "::{command} title=qapipe change report::{}",
        data(&summary)
    );
    out
}

/// A message as GitHub reads it: `%`, CR and LF escaped; other control characters shown
/// as spaces so they cannot reach the log as escapes.
pub fn data(s: &str) -> String {
    swap_chars(s, |c| match c {
        '%' => Some("%25"),
        '\r' => Some("%0D"),
        '\n' => Some("%0A"),
        c if hidden(c) => Some(" "),
        _ => None,
    })
}

/// A property value: as [`data`], and `:` and `,` escaped too.
pub fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_escape_percent_and_line_breaks() {
        assert_eq!(data("50%\r\n::error::x"), "50%25%0D%0A::error::x");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(property("a,b: c%"), "a%2Cb%3A c%25");
    }

    #[test]
    fn plain_text_is_not_escaped() {
        assert_eq!(property("src/auth.rs"), "src/auth.rs");
        assert_eq!(data("Expired token is refused"), "Expired token is refused");
    }

    #[test]
    fn terminal_escapes_become_spaces() {
        assert_eq!(data("a\x1b[2Jb"), "a [2Jb");
    }
}
