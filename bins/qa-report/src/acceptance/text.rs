//! The terminal acceptance report: the acceptance [`Document`] as lines (the run's facts
//! and verdict line, per criterion its expected behaviour, source, checks with their
//! observations and bounded evidence, then the verdict and its reasons).

use super::document::{inferred_note, CheckItem, CriterionItem, Document, Fact, Writer, NO_CHECKS};
use super::View;
use crate::document::Sheet;
use crate::phrase::{Phrase, Span};
use crate::plain::one_line;
use crate::text::{Lines, MARKS, PLAIN};
use std::fmt::Write as _;

/// The whole text report, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    super::document::render(view, Lines(Sheet::new(MARKS)))
}

impl Lines {
    fn check(&mut self, check: &CheckItem<'_>) {
        let (id, kind) = (one_line(check.id), one_line(check.kind));
        let (route, status) = (&check.route, &check.status);
        let _ = writeln!(self.0.out, "  check {id} ({kind}, {route}): {status}");
        let Some(o) = &check.observed else {
            if let Some(reason) = check.route_reason {
                let _ = writeln!(self.0.out, "    route: {}", one_line(reason));
            }
            return;
        };
        let _ = writeln!(self.0.out, "    expected: {}", one_line(o.expected));
        let _ = writeln!(self.0.out, "    observed: {}", one_line(o.observed));
        if let Some(reason) = o.reason {
            let _ = writeln!(self.0.out, "    reason: {}", one_line(reason));
        }
        let _ = writeln!(self.0.out, "    evidence: {}", one_line(&o.evidence));
        if let Some((lines, cut)) = &o.excerpt {
            for line in lines {
                let _ = writeln!(self.0.out, "      | {}", one_line(line));
            }
            if *cut {
                self.0
                    .out
                    .push_str("      | ... (excerpt cut; report.json keeps the whole excerpt)\n");
            }
        }
        for shot in &check.screenshots {
            let _ = match shot.carried {
                Ok(super::document::Png { size, .. }) => {
                    let size = size.map_or(String::new(), |(w, h)| format!(" {w}x{h}"));
                    writeln!(
                        self.0.out,
                        "    screenshot {}{size}: {}",
                        shot.moment, shot.file
                    )
                }
                Err(why) => writeln!(
                    self.0.out,
                    "    screenshot {} ({}): {}",
                    shot.moment,
                    super::document::short(shot.sha256),
                    one_line(why)
                ),
            };
        }
    }

    fn reasons(&mut self, reasons: &[Phrase<'_>]) {
        for reason in reasons {
            let _ = writeln!(self.0.out, "  - {}", PLAIN.show(reason));
        }
    }
}

impl Writer for Lines {
    fn facts(&mut self, doc: &Document<'_>) {
        self.0.out.push_str("qapipe acceptance report\n");
        for (fact, phrase, detail) in &doc.facts {
            let (name, phrase) = match fact {
                Fact::Run => ("run", phrase.clone()),
                Fact::Plan => ("plan", phrase.clone()),
                Fact::Target => ("target", phrase.clone()),
                // The terminal names the production environment as such.
                Fact::Production => {
                    let mut spans = phrase.0.clone();
                    spans.insert(1.min(spans.len()), Span::Word(" is production".into()));
                    ("environment", Phrase(spans))
                }
                Fact::Build => ("build", phrase.clone()),
            };
            let (phrase, detail) = (PLAIN.show(&phrase), PLAIN.show(detail));
            let _ = writeln!(self.0.out, "{name}: {phrase}{detail}");
        }
        let status = doc.status.to_uppercase();
        let _ = writeln!(self.0.out, "verdict: {status} ({})", doc.counts);
    }

    fn criterion(&mut self, c: &CriterionItem<'_>) {
        let (id, expected) = (one_line(c.id), one_line(c.expected));
        let note = inferred_note(c.inferred);
        let _ = writeln!(self.0.out, "\n[{}] {id}{note}: {expected}", c.status);
        let source = PLAIN.show(&c.source);
        let said = one_line(c.said);
        let _ = match c.quote_found {
            Some(found) => {
                let found = if found { "found" } else { "NOT found" };
                writeln!(self.0.out, "  source: {source}, quote {found}: \"{said}\"")
            }
            None => writeln!(self.0.out, "  source: {source}: \"{said}\""),
        };
        if c.checks.is_empty() {
            let _ = writeln!(self.0.out, "  {NO_CHECKS}");
        }
        for check in &c.checks {
            self.check(check);
        }
        self.reasons(&c.reasons);
    }

    fn verdict(&mut self, doc: &Document<'_>) {
        let _ = writeln!(self.0.out, "\nVerdict: {} (exit {})", doc.status, doc.exit);
        self.reasons(&doc.reasons);
    }

    fn folder(&mut self, dir: &str) {
        let _ = writeln!(self.0.out, "\nReport files: {dir}");
    }
}
