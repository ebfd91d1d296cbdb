//! The markdown report for a pull-request comment: the terminal report's layers as
//! headings and tables, `file:line` as code spans, and source text that cannot format,
//! link or break a table.

use crate::layers;
use crate::model::{evidence_ref, label, receipt_label, DiagView, Report, ScenarioView, Work};
use crate::plain::one_line;
use crate::text::short;
use qa_records::change::Command;
use qa_records::untrusted::MARKER;
use std::fmt::Write as _;

/// The whole markdown report, ending with a newline.
pub fn render(report: &Report) -> String {
    let mut out = String::from("## qapipe change report\n\n");
    match &report.range {
        Some(r) => {
            let _ = writeln!(
                out,
                "**Range:** {} ({}) .. {} ({}), {}, merge base {}\n",
                code(&r.base.name),
                code(&short(&r.base.oid)),
                code(&r.head.name),
                code(&short(&r.head.oid)),
                label(&r.mode),
                code(&short(&r.merge_base))
            );
        }
        None => out.push_str("**Range:** no range record in the stream\n\n"),
    }
    let _ = writeln!(out, "**Summary:** {}", text(&report.summary));
    // Without intents the summary line already says no behaviour-bearing change was found.
    if !report.intents.is_empty() {
        risk_map(report, &mut out);
        executable(report, &mut out);
        manual(report, &mut out);
    }
    receipts(report, &mut out);
    neutralized(report.neutralized, &mut out);
    out
}

fn risk_map(report: &Report, out: &mut String) {
    out.push_str("\n### 1. QA and risk map\n");
    for intent in &report.intents {
        let d = &intent.data;
        let _ = writeln!(out, "\n#### Intent: {}\n", text(&d.title));
        let files: Vec<String> = d.files.iter().map(|f| code(f)).collect();
        let _ = writeln!(
            out,
            "focus **{}** · confidence **{}** · authority **{}** · {} commit{} · files: {}",
            label(&d.focus),
            label(&d.confidence),
            label(&d.authority),
            d.commits.len(),
            if d.commits.len() == 1 { "" } else { "s" },
            files.join(", ")
        );
        if intent.scenarios.is_empty() {
            out.push_str("\nNo scenarios.\n");
            continue;
        }
        out.push_str("\n| priority | kind | scenario | proof gap | reaches | evidence |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for s in &intent.scenarios {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                priority(s),
                label(&s.data.kind),
                text(&s.data.title),
                s.data.proof_gap.as_deref().map_or("none".to_string(), text),
                reaches(s),
                evidence(s)
            );
        }
        steps(&intent.scenarios, out);
    }
}

/// The scenario's one priority, with its one-word note.
fn priority(s: &ScenarioView) -> String {
    match s.priority_note() {
        Some(note) => format!("{} ({note})", s.priority_label()),
        None => s.priority_label(),
    }
}

/// The entrypoints the scenario reaches; empty when the graph reached none from it.
fn reaches(s: &ScenarioView) -> String {
    let (shown, tail) = s.reach.shown();
    let names: Vec<String> = shown.iter().map(|r| text(r)).collect();
    format!("{}{tail}", names.join(", "))
}

/// Under an intent's table, each scenario with steps or assertions: its title, the
/// steps numbered, then what to verify.
fn steps(scenarios: &[ScenarioView], out: &mut String) {
    for s in scenarios {
        let work = s.work();
        if work.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n**{}**\n", text(&s.data.title));
        let mut verifying = false;
        for line in work {
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
}

fn evidence(s: &ScenarioView) -> String {
    let items: Vec<String> = s
        .data
        .evidence
        .iter()
        .map(|e| {
            format!(
                "{} {}: {}",
                code(&evidence_ref(e)),
                label(&e.relation),
                text(&e.text)
            )
        })
        .collect();
    if items.is_empty() {
        "none".into()
    } else {
        items.join("<br>")
    }
}

/// What a command checks and why it covers the change; empty in older streams.
fn why(c: &Command) -> String {
    if c.why.is_empty() {
        String::new()
    } else {
        format!("{}: {}", label(&c.purpose), text(&c.why))
    }
}

fn executable(report: &Report, out: &mut String) {
    out.push_str("\n### 2. Executable evidence available now\n\n");
    let groups = layers::commands(report);
    if groups.is_empty() {
        out.push_str("None: no route runs a repository command.\n");
    } else {
        out.push_str("| command | why | dir | scope | declared in | risk | approval | covers |\n");
        out.push_str("|---|---|---|---|---|---|---|---|\n");
        for g in &groups {
            let covers: Vec<String> = g
                .covers
                .iter()
                .map(|s| format!("{}: {}", s.decision_label(), text(&s.data.title)))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                code(&g.command.run),
                why(g.command),
                code(&g.command.dir),
                label(&g.command.scope),
                code(&g.command.declared_in),
                label(&g.action.risk),
                text(&g.action.approval),
                covers.join("<br>")
            );
        }
    }
    let additional = layers::additional(report, &groups);
    if !additional.is_empty() {
        out.push_str("\n**Additional commands**\n\n| command | why | dir | scope | declared in |\n|---|---|---|---|---|\n");
        for c in additional {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(&c.run),
                why(c),
                code(&c.dir),
                label(&c.scope),
                code(&c.declared_in)
            );
        }
    }
    if !report.executions.is_empty() {
        out.push_str("\n**Execution**\n\n");
    }
    for e in &report.executions {
        let _ = writeln!(out, "- {}", text(&e.summary()));
        for line in [e.changes(), e.why()].into_iter().flatten() {
            let _ = writeln!(out, "  - {}", text(&line));
        }
    }
}

fn manual(report: &Report, out: &mut String) {
    out.push_str("\n### 3. Manual contracts left\n\n");
    let left = layers::manual(report);
    if left.is_empty() {
        out.push_str("None.\n");
        return;
    }
    out.push_str("| decision | scenario | action | approval | why | drafts |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for (_, s) in left {
        let (action, approval, why) = match &s.route {
            Some(r) => (
                label(&r.data.action.kind),
                text(&r.data.action.approval),
                text(&r.data.reason),
            ),
            None => ("no route".into(), "n/a".into(), "n/a".into()),
        };
        let drafts: Vec<String> = s
            .drafts
            .iter()
            .map(|d| {
                let d = &d.data;
                let mut cell = format!(
                    "{}: {}, {} of {} mapped",
                    text(&d.format),
                    receipt_label(d.receipt),
                    d.mapped,
                    d.total
                );
                for gap in &d.gaps {
                    let _ = write!(cell, "<br>gap: {}", text(gap));
                }
                cell
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            s.decision_label(),
            text(&s.data.title),
            action,
            approval,
            why,
            if drafts.is_empty() {
                "none".into()
            } else {
                drafts.join("<br>")
            }
        );
    }
}

fn receipts(report: &Report, out: &mut String) {
    if !report.capabilities.is_empty() {
        out.push_str(
            "\n### Capabilities\n\n| capability | status | depth | gap |\n|---|---|---|---|\n",
        );
    }
    for c in &report.capabilities {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            label(&c.name),
            label(&c.status),
            label(&c.depth),
            c.gap.as_deref().map_or("none".to_string(), text)
        );
    }
    warnings(layers::warnings(report), out);
}

/// The Warnings section (nothing when there are none): severity, stage and message.
pub fn warnings<'a>(diags: impl Iterator<Item = &'a DiagView>, out: &mut String) {
    let mut diags = diags.peekable();
    if diags.peek().is_some() {
        out.push_str("\n### Warnings\n\n");
    }
    for d in diags {
        let _ = writeln!(
            out,
            "- **{}** {}: {}",
            label(&d.severity),
            code(&d.stage),
            text(&d.message)
        );
    }
}

/// The closing line counting neutralized instruction-like strings (nothing for none).
pub fn neutralized(count: u64, out: &mut String) {
    if count > 0 {
        let _ = writeln!(
            out,
            "\n_{count} instruction-like string{} neutralized (shown as {})._",
            if count == 1 { "" } else { "s" },
            text(MARKER)
        );
    }
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
