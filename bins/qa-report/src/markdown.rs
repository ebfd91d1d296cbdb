//! The markdown report for a pull-request comment: the change [`Document`](crate::document::Document) laid out as
//! headings and tables, `file:line` as code spans, and source text that cannot format,
//! link or break a table.

use crate::document::{
    Capability, CommandItem, IntentItem, ManualItem, Marks, ScenarioItem, Sheet, Writer,
    NO_COMMANDS, NO_MANUAL, NO_SCENARIOS,
};
use crate::model::{Report, Work};
use crate::phrase::{Phrase, Style};
use crate::plain::one_line;
use std::fmt::Write as _;

/// The whole markdown report, ending with a newline.
pub fn render(report: &Report) -> String {
    crate::document::render(report, Blocks(Sheet::new(MARKS)))
}

/// Markdown: prose escaped, names as code spans, emphasis in bold.
pub const MARKDOWN: Style = Style {
    text,
    code,
    strong: |s| format!("**{s}**"),
};

/// What marks markdown: level-3 headings, lists, an emphasised closing line.
pub const MARKS: Marks = Marks::new(MARKDOWN, "### ", "\n", "- ", "_", EXECUTED);

/// Before the executions, each and each detail.
const EXECUTED: [&str; 3] = ["\n**Execution**\n\n", "- ", "  - "];

/// A note such as `none: no route runs a repository command` as a sentence.
pub fn sentence(note: &str) -> String {
    let mut chars = note.chars();
    let first = chars.next().map(|c| c.to_uppercase().to_string());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// Cells as one table row.
pub fn row(cells: &[&str]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

/// A table's head: its column names and the delimiter row.
pub fn head(columns: &[&str]) -> String {
    format!("{}|{}\n", row(columns), "---|".repeat(columns.len()))
}

/// A [`Writer`] of markdown blocks.
pub struct Blocks(pub Sheet);

impl Blocks {
    /// The scenarios of one intent as table rows.
    fn scenario_row(&mut self, s: &ScenarioItem<'_>) {
        let priority = match s.note {
            Some(note) => format!("{} ({note})", s.priority),
            None => s.priority.clone(),
        };
        let (names, tail) = &s.reaches;
        let names: Vec<String> = names.iter().map(|r| text(r)).collect();
        let evidence: Vec<String> = s
            .evidence
            .iter()
            .map(|e| format!("{} {}: {}", code(&e.at), e.relation, text(e.text)))
            .collect();
        self.0.out.push_str(&row(&[
            &priority,
            &s.kind,
            &text(s.title),
            &s.proof_gap.map_or("none".to_string(), text),
            &format!("{}{tail}", names.join(", ")),
            &or_none(evidence.join("<br>")),
        ]));
    }

    /// Under an intent's table, each scenario with steps or assertions: its title, the
    /// steps numbered, then what to verify.
    fn steps(&mut self, s: &ScenarioItem<'_>) {
        if s.work.is_empty() {
            return;
        }
        let _ = writeln!(self.0.out, "\n**{}**\n", text(s.title));
        let mut verifying = false;
        for line in &s.work {
            let out = &mut self.0.out;
            let _ = match line {
                Work::Step(n, step) => writeln!(out, "{n}. {}", item(step)),
                Work::MoreSteps(more) => writeln!(out, "\n_(+{more} more steps)_"),
                Work::Verify(assertion) => {
                    if !std::mem::replace(&mut verifying, true) {
                        out.push_str("\nVerify:\n");
                    }
                    writeln!(out, "- {}", item(assertion))
                }
                Work::MoreToVerify(more) => writeln!(out, "\n_(+{more} more to verify)_"),
            };
        }
    }

    fn command_row(&mut self, c: &CommandItem<'_>) {
        let why = c.why.as_ref().map_or(String::new(), |w| MARKDOWN.show(w));
        let mut cells = vec![
            code(c.run),
            why,
            code(c.dir),
            c.scope.clone(),
            code(c.declared_in),
        ];
        if let Some((risk, approval)) = &c.contract {
            let covers: Vec<String> = c
                .covers
                .iter()
                .map(|(decision, title)| format!("{decision}: {}", text(title)))
                .collect();
            cells.extend([risk.clone(), text(approval), covers.join("<br>")]);
        }
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        self.0.out.push_str(&row(&cells));
    }
}

/// `cell`, or `none` when it is empty.
fn or_none(cell: String) -> String {
    if cell.is_empty() {
        "none".into()
    } else {
        cell
    }
}

impl Writer for Blocks {
    fn sheet(&mut self) -> &mut Sheet {
        &mut self.0
    }

    fn header(&mut self, title: &str, range: &Phrase<'_>, summary: &Phrase<'_>) {
        let _ = writeln!(self.0.out, "## {title}\n");
        let _ = writeln!(self.0.out, "**Range:** {}\n", MARKDOWN.show(range));
        let _ = writeln!(self.0.out, "**Summary:** {}", MARKDOWN.show(summary));
    }

    fn intent(&mut self, intent: &IntentItem<'_>) {
        let _ = writeln!(self.0.out, "\n#### Intent: {}\n", text(intent.title));
        let files: Vec<String> = intent.files.iter().map(|f| code(f)).collect();
        let i = intent;
        let _ = writeln!(
            self.0.out,
            "focus **{}** · confidence **{}** · authority **{}** · {} · files: {}",
            i.focus,
            i.confidence,
            i.authority,
            i.commits,
            files.join(", ")
        );
        if intent.scenarios.is_empty() {
            let _ = writeln!(self.0.out, "\n{}", sentence(NO_SCENARIOS));
            return;
        }
        self.0.out.push('\n');
        let columns = [
            "priority",
            "kind",
            "scenario",
            "proof gap",
            "reaches",
            "evidence",
        ];
        self.0.out.push_str(&head(&columns));
        for s in &intent.scenarios {
            self.scenario_row(s);
        }
        for s in &intent.scenarios {
            self.steps(s);
        }
    }

    fn commands(&mut self, routed: &[CommandItem<'_>], additional: &[CommandItem<'_>]) {
        self.0.out.push('\n');
        let columns = ["command", "why", "dir", "scope", "declared in"];
        if routed.is_empty() {
            let _ = writeln!(self.0.out, "{}", sentence(NO_COMMANDS));
        } else {
            self.0.out.push_str(&head(
                &[&columns[..], &["risk", "approval", "covers"]].concat(),
            ));
        }
        for c in routed {
            self.command_row(c);
        }
        if !additional.is_empty() {
            self.0.out.push_str("\n**Additional commands**\n\n");
            self.0.out.push_str(&head(&columns));
        }
        for c in additional {
            self.command_row(c);
        }
    }

    fn manual(&mut self, items: &[ManualItem<'_>]) {
        self.0.out.push('\n');
        if items.is_empty() {
            let _ = writeln!(self.0.out, "{}", sentence(NO_MANUAL));
            return;
        }
        let columns = [
            "decision", "scenario", "action", "approval", "why", "drafts",
        ];
        self.0.out.push_str(&head(&columns));
        for m in items {
            let (action, approval, why) = match &m.route {
                Some(r) => (r.action.clone(), text(r.approval), text(r.why)),
                None => ("no route".into(), "n/a".into(), "n/a".into()),
            };
            let drafts: Vec<String> = m
                .drafts
                .iter()
                .map(|d| {
                    let mut cell = format!("{}: {}", text(d.format), d.mapped);
                    for gap in d.gaps {
                        let _ = write!(cell, "<br>gap: {}", text(gap));
                    }
                    cell
                })
                .collect();
            let drafts = or_none(drafts.join("<br>"));
            let title = text(m.title);
            let cells = [
                m.decision.as_str(),
                &title,
                &action,
                &approval,
                &why,
                &drafts,
            ];
            self.0.out.push_str(&row(&cells));
        }
    }

    fn capabilities(&mut self, items: &[Capability<'_>]) {
        self.0.out.push('\n');
        self.0
            .out
            .push_str(&head(&["capability", "status", "depth", "gap"]));
        for c in items {
            let gap = c.gap.map_or("none".to_string(), text);
            self.0
                .out
                .push_str(&row(&[&c.name, &c.status, &c.depth, &gap]));
        }
    }
}

/// Phrases as a markdown list, one item a line (no trailing newline).
pub fn joined_items(items: &[Phrase<'_>]) -> String {
    let list: Vec<Phrase<'_>> = items
        .iter()
        .map(|p| Phrase::default().word("- ").then(p.clone()))
        .collect();
    MARKDOWN.joined(&list, "\n")
}

/// Source text as inert markdown: one line, with the characters that format, link, open
/// HTML, start math or end a table cell escaped.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in one_line(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Source text as a list item's content: [`text`], trimmed, with a leading `#`, `-`, `+`,
/// `=` or `1.` escaped so it cannot start a heading or another list.
pub fn item(s: &str) -> String {
    let body = text(one_line(s).trim());
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let ordinal = digits > 0 && matches!(body.as_bytes().get(digits), Some(b'.' | b')'));
    if ordinal {
        format!("{}\\{}", &body[..digits], &body[digits..])
    } else if body.starts_with(['#', '-', '+', '=']) {
        format!("\\{body}")
    } else {
        body
    }
}

/// Source text as a one-line code span that cannot end early or break a table cell.
pub fn code(s: &str) -> String {
    let body = one_line(s).replace('|', "\\|");
    if body.is_empty() {
        return "` `".into();
    }
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_links_html_emphasis_and_cell_ends() {
        assert_eq!(
            text("[x](http://a) <b>*y*</b> | a&b"),
            r"\[x\](http://a) \<b\>\*y\*\</b\> \| a&amp;b"
        );
    }

    #[test]
    fn plain_words_pass_through_text_unchanged() {
        assert_eq!(
            text("Login rejects expired tokens."),
            "Login rejects expired tokens."
        );
    }

    #[test]
    fn a_code_span_outgrows_the_backticks_inside_it() {
        assert_eq!(code("a`b``c"), "```a`b``c```");
        assert_eq!(code("`x`"), "`` `x` ``");
    }

    #[test]
    fn an_item_cannot_start_a_heading_or_a_nested_list() {
        assert_eq!(item("  # Title"), r"\# Title");
        assert_eq!(item("- one"), r"\- one");
        assert_eq!(item("2. two"), r"2\. two");
        assert_eq!(item("3) three"), r"3\) three");
        assert_eq!(item("200 ms at most"), "200 ms at most");
    }

    #[test]
    fn a_plain_path_is_a_simple_code_span() {
        assert_eq!(code("src/a.rs:12"), "`src/a.rs:12`");
    }

    #[test]
    fn a_code_span_escapes_pipes_and_newlines_for_tables() {
        assert_eq!(code("a|b\nc"), r"`a\|b c`");
    }
}
