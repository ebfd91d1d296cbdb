//! The terminal report: the change [`Document`](crate::document::Document) laid out as
//! indented lines (what changed and what to test, what to run, what a person must check,
//! then how far qapipe could read, warnings and the neutralization count), source text
//! kept to one line.

use crate::document::{
    Capability, CommandItem, IntentItem, ManualItem, Marks, ScenarioItem, Sheet, Writer,
    NO_COMMANDS, NO_MANUAL, NO_SCENARIOS,
};
use crate::layers::Diagnostics;
use crate::model::{Report, Work};
use crate::phrase::{Phrase, Style};
use crate::plain::one_line;
use std::fmt::Write as _;

/// The whole text report, ending with a newline.
pub fn render(report: &Report, shown: Diagnostics) -> String {
    crate::document::render(report, shown, Lines(Sheet::new(MARKS)))
}

/// Plain text: source text on one line, emphasis as plain words.
pub const PLAIN: Style = Style {
    text: plain,
    code: plain,
    strong: str::to_string,
};

/// What marks plain text: nothing but indentation.
pub const MARKS: Marks = Marks::new(PLAIN, "", "", "  ", "", EXECUTED);

/// Before the executions, each and each detail.
const EXECUTED: [&str; 3] = ["  Already run\n", "  ", "      "];

fn plain(s: &str) -> String {
    one_line(s).into_owned()
}

/// A [`Writer`] of indented plain lines.
pub struct Lines(pub Sheet);

impl Lines {
    fn line(&mut self, indent: &str, phrase: &Phrase<'_>) {
        let _ = writeln!(self.0.out, "{indent}{}", PLAIN.show(phrase));
    }

    fn scenario(&mut self, s: &ScenarioItem<'_>) {
        let note = s.note.map_or(String::new(), |n| format!(", {n}"));
        let (title, kind) = (one_line(s.title), &s.kind);
        let _ = writeln!(self.0.out, "    - [{}] {title} ({kind}{note})", s.priority);
        let pad = "        ";
        for line in &s.work {
            let _ = match line {
                Work::Step(n, step) => writeln!(self.0.out, "{pad}{n}. {}", one_line(step)),
                Work::MoreSteps(more) => writeln!(self.0.out, "{pad}(+{more} more steps)"),
                Work::Verify(a) => writeln!(self.0.out, "{pad}verify: {}", one_line(a)),
                Work::MoreToVerify(more) => writeln!(self.0.out, "{pad}(+{more} more to verify)"),
            };
        }
        if let Some(gap) = s.proof_gap {
            let _ = writeln!(self.0.out, "{pad}proof gap: {}", one_line(gap));
        }
        let (reached, tail) = &s.reaches;
        if !reached.is_empty() {
            let names: Vec<_> = reached.iter().map(|r| one_line(r)).collect();
            let _ = writeln!(self.0.out, "{pad}reaches: {}{tail}", names.join(", "));
        }
        for e in &s.evidence {
            let (at, text) = (one_line(&e.at), one_line(e.text));
            let _ = writeln!(self.0.out, "{pad}evidence: {at} ({}) {text}", e.relation);
        }
        if let Some((state, execution)) = &s.trace {
            let _ = writeln!(self.0.out, "{pad}{state}; {execution}");
        }
    }

    fn command(&mut self, c: &CommandItem<'_>) {
        let _ = writeln!(self.0.out, "  run: {}", one_line(c.run));
        if let Some(needs) = &c.needs {
            self.line("      first: ", needs);
        }
        if let Some(why) = &c.why {
            self.line("      ", why);
        }
        let (dir, declared) = (one_line(c.dir), one_line(c.declared_in));
        let _ = write!(
            self.0.out,
            "      {}, in folder {dir}, declared in {declared}",
            c.scope
        );
        match &c.approval {
            Some(approval) => {
                let _ = writeln!(self.0.out, "; {approval}");
            }
            None => self.0.out.push('\n'),
        }
        if !c.covers.is_empty() {
            let covers: Vec<String> = c
                .covers
                .iter()
                .map(|(decision, title)| format!("[{}] {}", decision.words, one_line(title)))
                .collect();
            let _ = writeln!(self.0.out, "      covers: {}", covers.join("; "));
        }
    }
}

impl Writer for Lines {
    fn sheet(&mut self) -> &mut Sheet {
        &mut self.0
    }

    fn header(&mut self, title: &str, range: &Phrase<'_>, summary: &Phrase<'_>) {
        let _ = writeln!(self.0.out, "{title}");
        self.line("range: ", range);
        self.line("", summary);
    }

    fn intent(&mut self, intent: &IntentItem<'_>) {
        let _ = writeln!(self.0.out, "\n  Intent: {}", one_line(intent.title));
        let review = if intent.review_required {
            "; a reviewer must confirm it"
        } else {
            ""
        };
        let i = intent;
        let _ = writeln!(self.0.out, "    why it matters: {}{review}", i.authority);
        let _ = writeln!(
            self.0.out,
            "    {}, {}, {}",
            i.focus, i.confidence, i.commits
        );
        let files: Vec<_> = intent.files.iter().map(|f| one_line(f)).collect();
        let _ = writeln!(self.0.out, "    files: {}", files.join(", "));
        if intent.scenarios.is_empty() {
            let _ = writeln!(self.0.out, "    {NO_SCENARIOS}");
        }
        for s in &intent.scenarios {
            self.scenario(s);
        }
    }

    fn commands(&mut self, routed: &[CommandItem<'_>], additional: &[CommandItem<'_>]) {
        if routed.is_empty() {
            let _ = writeln!(self.0.out, "  {NO_COMMANDS}");
        }
        for c in routed {
            self.command(c);
        }
        if !additional.is_empty() {
            self.0.out.push_str("  also worth running:\n");
        }
        for c in additional {
            self.command(c);
        }
    }

    fn manual(&mut self, items: &[ManualItem<'_>]) {
        if items.is_empty() {
            let _ = writeln!(self.0.out, "  {NO_MANUAL}");
        }
        for m in items {
            let _ = write!(
                self.0.out,
                "  - [{}] {}",
                m.decision.words,
                one_line(m.title)
            );
            match &m.route {
                Some(r) => {
                    let _ = writeln!(self.0.out, ": {}", r.action);
                    let _ = writeln!(self.0.out, "      why: {}", one_line(r.why));
                }
                None => self.0.out.push_str(": no route chose how to test it\n"),
            }
            for d in &m.drafts {
                let _ = writeln!(
                    self.0.out,
                    "      draft ({}): {}",
                    one_line(d.format),
                    d.mapped
                );
                for gap in d.gaps {
                    let _ = writeln!(self.0.out, "        gap: {}", one_line(gap));
                }
            }
        }
    }

    fn capabilities(&mut self, items: &[Capability<'_>]) {
        for c in items {
            let _ = write!(self.0.out, "  {}: {}, {}", c.name, c.status, c.depth);
            match c.gap {
                Some(gap) => {
                    let _ = writeln!(self.0.out, ": {}", one_line(gap));
                }
                None => self.0.out.push('\n'),
            }
        }
    }
}
