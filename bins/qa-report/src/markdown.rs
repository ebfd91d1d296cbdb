//! The markdown report for a pull-request comment: the change [`Document`](crate::document::Document) laid out as
//! headings and tables, `file:line` and backtick spans of source text as code spans, and
//! source text that cannot otherwise format, link or break a table.

use crate::document::{
    Capability, CommandItem, IntentItem, ManualItem, Marks, ScenarioItem, Sheet, Writer,
    NO_COMMANDS, NO_MANUAL, NO_SCENARIOS,
};
use crate::layers::Diagnostics;
use crate::model::{Report, Work};
use crate::phrase::{Phrase, Style};
use crate::plain::one_line;
use std::fmt::Write as _;

/// The whole markdown report, ending with a newline.
pub fn render(report: &Report, shown: Diagnostics) -> String {
    crate::document::render(report, shown, Blocks(Sheet::new(MARKS)))
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
const EXECUTED: [&str; 3] = ["\n**Already run**\n\n", "- ", "  - "];

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

/// The columns of a command table.
const COMMAND_COLUMNS: [&str; 5] = ["run this", "what it checks", "in", "runs", "from"];

/// A manual item without a route.
const NO_ROUTE: &str = "no route chose how to test it";

/// A [`Writer`] of markdown blocks.
pub struct Blocks(pub Sheet);

impl Blocks {
    /// The scenarios of one intent as table rows.
    fn scenario_row(&mut self, s: &ScenarioItem<'_>) {
        let priority = match s.note {
            Some(note) => format!("{} ({note})", s.priority),
            None => s.priority.to_string(),
        };
        let (names, tail) = &s.reaches;
        let names: Vec<String> = names.iter().map(|r| text(r)).collect();
        let evidence: Vec<String> = s
            .evidence
            .iter()
            .map(|e| format!("{} {}: {}", code(&e.at), e.relation, text(e.text)))
            .collect();
        let ran = s
            .trace
            .map_or(String::new(), |(state, ran)| format!("{state}; {ran}"));
        self.0.out.push_str(&row(&[
            &priority,
            s.kind,
            &text(s.title),
            &s.proof_gap.map_or("none".to_string(), text),
            &format!("{}{tail}", names.join(", ")),
            &or_none(evidence.join("<br>")),
            &or_none(ran),
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

    fn command_row(&mut self, c: &CommandItem<'_>, routed: bool) {
        let mut why = c.why.as_ref().map_or(String::new(), |w| MARKDOWN.show(w));
        if let Some(approval) = &c.approval {
            let _ = write!(why, "<br>**{approval}**");
        }
        let mut run = code(c.run);
        if let Some(needs) = &c.needs {
            let _ = write!(run, "<br>first: {}", MARKDOWN.show(needs));
        }
        let mut cells = vec![
            run,
            why,
            code(c.dir),
            c.scope.to_string(),
            code(c.declared_in),
        ];
        if routed {
            let covers: Vec<String> = c
                .covers
                .iter()
                .map(|(decision, title)| format!("{}: {}", decision.words, text(title)))
                .collect();
            cells.push(covers.join("<br>"));
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
        let review = if i.review_required {
            " (a reviewer must confirm it)"
        } else {
            ""
        };
        let _ = writeln!(
            self.0.out,
            "why it matters: **{}**{review} · {} · {} · {} · files: {}",
            i.authority,
            i.focus,
            i.confidence,
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
            "traced and run",
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
        if routed.is_empty() {
            let _ = writeln!(self.0.out, "{}", sentence(NO_COMMANDS));
        } else {
            self.0
                .out
                .push_str(&head(&[&COMMAND_COLUMNS[..], &["covers"]].concat()));
        }
        for c in routed {
            self.command_row(c, true);
        }
        if !additional.is_empty() {
            self.0.out.push_str("\n**Also worth running**\n\n");
            self.0.out.push_str(&head(&COMMAND_COLUMNS));
        }
        for c in additional {
            self.command_row(c, false);
        }
    }

    fn manual(&mut self, items: &[ManualItem<'_>]) {
        self.0.out.push('\n');
        if items.is_empty() {
            let _ = writeln!(self.0.out, "{}", sentence(NO_MANUAL));
            return;
        }
        let columns = ["decision", "scenario", "what to do", "why", "drafts"];
        self.0.out.push_str(&head(&columns));
        for m in items {
            let (action, why) = match &m.route {
                Some(r) => (r.action.to_string(), text(r.why)),
                None => (NO_ROUTE.to_string(), "n/a".into()),
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
            let cells = [m.decision.words, &title, &action, &why, &drafts];
            self.0.out.push_str(&row(&cells));
        }
    }

    fn capabilities(&mut self, items: &[Capability<'_>]) {
        self.0.out.push('\n');
        self.0
            .out
            .push_str(&head(&["what", "status", "how deep", "gap"]));
        for c in items {
            let gap = c.gap.map_or("none".to_string(), text);
            self.0
                .out
                .push_str(&row(&[c.name, c.status, c.depth, &gap]));
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

/// Source text as inert markdown on one line: each balanced backtick span (a run of
/// backticks closed by a run of the same length) as a [`code`] span, the text around
/// them with the characters that format, link, open HTML, start math or end a table cell
/// escaped (an unbalanced backtick too).
pub fn text(s: &str) -> String {
    let line = one_line(s);
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest: &str = &line;
    while let Some(open) = rest.find('`') {
        let run = rest[open..].bytes().take_while(|b| *b == b'`').count();
        let after = &rest[open + run..];
        match closing(after, run) {
            Some(end) => {
                out.push_str(&escape(&rest[..open]));
                let inner = &after[..end];
                // CommonMark strips one space each side of a span that has both.
                let inner = match inner.strip_prefix(' ').and_then(|i| i.strip_suffix(' ')) {
                    Some(trimmed) if !trimmed.trim().is_empty() => trimmed,
                    _ => inner,
                };
                out.push_str(&code(inner));
                rest = &after[end + run..];
            }
            None => {
                out.push_str(&escape(&rest[..open + run]));
                rest = after;
            }
        }
    }
    out.push_str(&escape(rest));
    out
}

/// Where the first run of exactly `run` backticks starts in `s`.
fn closing(s: &str, run: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let n = bytes[i..].iter().take_while(|b| **b == b'`').count();
            if n == run {
                return Some(i);
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// Text outside code spans as inert markdown (see [`text`]).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
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
    fn a_backtick_span_in_prose_becomes_a_code_span_and_the_prose_stays_escaped() {
        assert_eq!(
            text("Call `total` as *that* test does"),
            r"Call `total` as \*that\* test does"
        );
        assert_eq!(text("expects ``a`b`` is 6"), "expects ``a`b`` is 6");
    }

    #[test]
    fn markup_inside_a_code_span_stays_code_and_cannot_break_a_table() {
        assert_eq!(text("see `<b>|x</b>`"), r"see `<b>\|x</b>`");
    }

    #[test]
    fn an_unbalanced_backtick_is_escaped_as_before() {
        assert_eq!(text("it`s open"), r"it\`s open");
        assert_eq!(text("``a` b"), r"\`\`a\` b");
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
