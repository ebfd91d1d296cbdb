//! junit.xml: one testcase per criterion, so CI test views show the acceptance run: a
//! failure for a failed criterion, skipped (with every reason) for an unverified one.

use super::View;
use crate::model::label;
use qa_records::acceptance::CriterionStatus;
use std::fmt::Write as _;

/// The JUnit XML document, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    let counts = &view.verdict.data.counts;
    let tests = counts.pass + counts.fail + counts.unverified;
    let suite = view
        .report
        .plan
        .as_ref()
        .map_or("acceptance".to_string(), |p| p.data.path.clone());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"qapipe acceptance\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">",
        counts.fail, counts.unverified
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">",
        xml(&suite),
        counts.fail,
        counts.unverified
    );
    let _ = writeln!(
        out,
        "    <properties><property name=\"verdict\" value=\"{}\"/></properties>",
        label(&view.verdict.data.status)
    );
    for (c, outcome) in view.criteria() {
        let _ = write!(
            out,
            "    <testcase name=\"{}\" classname=\"acceptance.{}\">",
            xml(&c.data.id),
            label(&c.data.source.kind)
        );
        let reasons = outcome.reasons.join("; ");
        match outcome.status {
            CriterionStatus::Pass => {}
            CriterionStatus::Fail => {
                let _ = write!(
                    out,
                    "\n      <failure message=\"{}\" type=\"fail\">{}</failure>\n    ",
                    xml(&reasons),
                    xml(&format!(
                        "expected: {}\n{}",
                        c.data.expected,
                        outcome.reasons.join("\n")
                    ))
                );
            }
            CriterionStatus::Unverified => {
                let _ = write!(
                    out,
                    "\n      <skipped message=\"{}\"/>\n    ",
                    xml(&reasons)
                );
            }
        }
        out.push_str("</testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Text as XML character data or an attribute value: markup escaped, and characters
/// XML 1.0 cannot hold (controls other than tab and newline) shown as spaces.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_quotes_and_controls_cannot_escape_a_value() {
        assert_eq!(
            xml("a<b>&\"c\"'\u{1b}\nd"),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos; &#10;d"
        );
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(xml("Refunds over 100 EUR"), "Refunds over 100 EUR");
    }
}
