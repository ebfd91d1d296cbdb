//! The markdown acceptance report (report.md): the acceptance [`Document`] as headings,
//! a table of checks per criterion and fenced evidence excerpts; source text that cannot
//! format, link or break a table.

use super::document::{inferred_note, CriterionItem, Document, Fact, Writer, NO_CHECKS};
use super::View;
use crate::document::Sheet;
use crate::markdown::{code, joined_items, sentence, text, Blocks, MARKDOWN, MARKS};
use crate::plain::one_line;
use std::fmt::Write as _;

/// The whole markdown report, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    super::document::render(view, Blocks(Sheet::new(MARKS)))
}

impl Blocks {
    /// The checks of a criterion as a table, then the evidence of each observed one.
    fn checks(&mut self, c: &CriterionItem<'_>) {
        let columns = ["check", "kind", "route", "status", "expected", "observed"];
        self.0.out.push_str(&crate::markdown::head(&columns));
        for check in &c.checks {
            let (expected, observed) = check.observed.as_ref().map_or_else(
                || (String::new(), String::new()),
                |o| (text(o.expected), text(o.observed)),
            );
            let (id, kind) = (code(check.id), text(check.kind));
            let cells = [
                &id,
                &kind,
                &check.route,
                &check.status,
                &expected,
                &observed,
            ];
            let cells: Vec<&str> = cells.iter().map(|c| c.as_str()).collect();
            self.0.out.push_str(&crate::markdown::row(&cells));
        }
        for check in &c.checks {
            let Some(o) = &check.observed else {
                continue;
            };
            let id = code(check.id);
            let _ = writeln!(self.0.out, "\nEvidence of {id}: {}", text(&o.evidence));
            if let Some((lines, cut)) = &o.excerpt {
                let lines: Vec<String> = lines.iter().map(|l| one_line(l).into_owned()).collect();
                self.0.out.push_str(&fenced(&lines));
                if *cut {
                    self.0
                        .out
                        .push_str("_Excerpt cut; report.json keeps the whole excerpt._\n");
                }
            }
            for shot in &check.screenshots {
                let _ = match shot.carried {
                    Ok(super::document::Png { size, .. }) => {
                        let size = size.map_or(String::new(), |(w, h)| format!(", {w}×{h}"));
                        writeln!(
                            self.0.out,
                            "\n- Screenshot {}{size}: {}",
                            shot.moment,
                            code(&shot.file)
                        )
                    }
                    Err(why) => writeln!(
                        self.0.out,
                        "\n- Screenshot {} ({}): {}",
                        shot.moment,
                        code(&super::document::short(shot.sha256)),
                        text(why)
                    ),
                };
            }
        }
    }
}

impl Writer for Blocks {
    fn facts(&mut self, doc: &Document<'_>) {
        self.0.out.push_str("## qapipe acceptance report\n\n");
        let (status, exit) = (doc.status.to_uppercase(), doc.exit);
        let counts = &doc.counts;
        let _ = writeln!(
            self.0.out,
            "**Verdict:** **{status}** (exit {exit}): {counts}\n"
        );
        for (fact, phrase, _) in &doc.facts {
            let name = match fact {
                Fact::Run => "Run",
                Fact::Plan => "Plan",
                Fact::Target => "Target",
                Fact::Production => "Production",
                Fact::Build => "Build",
            };
            let _ = writeln!(self.0.out, "- **{name}:** {}", MARKDOWN.show(phrase));
        }
    }

    fn criterion(&mut self, c: &CriterionItem<'_>) {
        let (status, id, note) = (&c.status, code(c.id), inferred_note(c.inferred));
        let _ = writeln!(self.0.out, "\n### {status}: {id}{note}\n");
        let _ = writeln!(self.0.out, "**Expected:** {}\n", text(c.expected));
        let (source, said) = (MARKDOWN.show(&c.source), text(c.said));
        let _ = match c.quote_found {
            Some(found) => {
                let found = if found { "found" } else { "**not found**" };
                writeln!(
                    self.0.out,
                    "**Source:** {source}, quote {found}:\n\n> {said}\n"
                )
            }
            None => writeln!(self.0.out, "**Source:** {source}:\n\n> {said}\n"),
        };
        if c.checks.is_empty() {
            let _ = writeln!(self.0.out, "{}", sentence(NO_CHECKS));
        } else {
            self.checks(c);
        }
        if !c.reasons.is_empty() {
            let _ = writeln!(self.0.out, "\n{}", joined_items(&c.reasons));
        }
    }

    fn verdict(&mut self, doc: &Document<'_>) {
        let _ = writeln!(self.0.out, "\n### Verdict\n\n**{}**", doc.status);
        if !doc.reasons.is_empty() {
            let _ = writeln!(self.0.out, "{}", joined_items(&doc.reasons));
        }
    }

    /// The run folder is named on the terminal only (report.md sits in it).
    fn folder(&mut self, _dir: &str) {}
}

/// `lines` in a fenced block whose fence is longer than any backtick run inside, so
/// source text cannot close it.
fn fenced(lines: &[String]) -> String {
    let longest = lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!("\n{fence}text\n{}\n{fence}\n", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outgrows_the_backticks_inside_it() {
        assert_eq!(
            fenced(&["a ```` b".into()]),
            "\n`````text\na ```` b\n`````\n"
        );
        assert_eq!(fenced(&["plain".into()]), "\n```text\nplain\n```\n");
    }
}
