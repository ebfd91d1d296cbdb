//! The terminal report: the QA and risk map, the executable evidence available now and
//! the manual contracts left, then capabilities, warnings and the neutralization count.

use crate::layers;
use crate::model::{evidence_ref, label, receipt_label, DiagView, Report, ScenarioView, Work};
use crate::plain::one_line;
use qa_records::change::Command;
use qa_records::untrusted::MARKER;
use std::fmt::Write as _;

/// The whole text report, ending with a newline.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(report, &mut out);
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

fn header(report: &Report, out: &mut String) {
    out.push_str("qapipe change report\n");
    match &report.range {
        Some(r) => {
            let _ = writeln!(
                out,
                "range: {} ({}) .. {} ({}), {}, merge base {}",
                one_line(&r.base.name),
                short(&r.base.oid),
                one_line(&r.head.name),
                short(&r.head.oid),
                label(&r.mode),
                short(&r.merge_base)
            );
        }
        None => out.push_str("range: no range record in the stream\n"),
    }
    let _ = writeln!(out, "{}", report.summary);
}

fn risk_map(report: &Report, out: &mut String) {
    out.push_str("\n1. QA and risk map\n");
    for intent in &report.intents {
        let d = &intent.data;
        let _ = writeln!(out, "\n  Intent: {}", one_line(&d.title));
        let _ = writeln!(
            out,
            "    focus {}, confidence {}, authority {}, {} commit{}{}",
            label(&d.focus),
            label(&d.confidence),
            label(&d.authority),
            d.commits.len(),
            if d.commits.len() == 1 { "" } else { "s" },
            if d.review_required {
                ", review required"
            } else {
                ""
            }
        );
        let files: Vec<_> = d.files.iter().map(|f| one_line(f)).collect();
        let _ = writeln!(out, "    files: {}", files.join(", "));
        if intent.scenarios.is_empty() {
            out.push_str("    no scenarios\n");
        }
        for s in &intent.scenarios {
            scenario(s, out);
        }
    }
}

/// A scenario: its one priority, title and kind, then its numbered steps, what to
/// verify, the proof gap, the entrypoints it reaches, evidence and trace.
fn scenario(s: &ScenarioView, out: &mut String) {
    let d = &s.data;
    let note = s
        .priority_note()
        .map_or(String::new(), |n| format!(", {n}"));
    let _ = writeln!(
        out,
        "    - [{}] {} ({}{note})",
        s.priority_label(),
        one_line(&d.title),
        label(&d.kind)
    );
    for line in s.work() {
        let _ = match line {
            Work::Step(n, step) => writeln!(out, "        {n}. {}", one_line(step)),
            Work::MoreSteps(more) => writeln!(out, "        (+{more} more steps)"),
            Work::Verify(assertion) => writeln!(out, "        verify: {}", one_line(assertion)),
            Work::MoreToVerify(more) => writeln!(out, "        (+{more} more to verify)"),
        };
    }
    if let Some(gap) = &d.proof_gap {
        let _ = writeln!(out, "        proof gap: {}", one_line(gap));
    }
    let (reached, tail) = s.reach.shown();
    if !reached.is_empty() {
        let names: Vec<_> = reached.iter().map(|r| one_line(r)).collect();
        let _ = writeln!(out, "        reaches: {}{tail}", names.join(", "));
    }
    for e in &d.evidence {
        let _ = writeln!(
            out,
            "        evidence: {} ({}) {}",
            one_line(&evidence_ref(e)),
            label(&e.relation),
            one_line(&e.text)
        );
    }
    if let Some(trace) = &s.trace {
        let _ = writeln!(
            out,
            "        trace: {}, execution {}",
            label(&trace.data.state),
            label(&trace.data.execution)
        );
    }
}

/// What a command checks and why it covers the change (absent in older streams).
fn why(c: &Command, out: &mut String) {
    if !c.why.is_empty() {
        let _ = writeln!(out, "      {}: {}", label(&c.purpose), one_line(&c.why));
    }
}

fn executable(report: &Report, out: &mut String) {
    out.push_str("\n2. Executable evidence available now\n");
    let groups = layers::commands(report);
    if groups.is_empty() {
        out.push_str("  none: no route runs a repository command\n");
    }
    for g in &groups {
        let c = g.command;
        let _ = writeln!(out, "  run: {}", one_line(&c.run));
        why(c, out);
        let _ = writeln!(
            out,
            "      dir {}, scope {}, declared in {}; risk {}, approval {}",
            one_line(&c.dir),
            label(&c.scope),
            one_line(&c.declared_in),
            label(&g.action.risk),
            one_line(&g.action.approval)
        );
        let covers: Vec<String> = g
            .covers
            .iter()
            .map(|s| format!("[{}] {}", s.decision_label(), one_line(&s.data.title)))
            .collect();
        let _ = writeln!(out, "      covers: {}", covers.join("; "));
    }
    let additional = layers::additional(report, &groups);
    if !additional.is_empty() {
        out.push_str("  additional commands:\n");
        for c in additional {
            let _ = writeln!(out, "  run: {}", one_line(&c.run));
            why(c, out);
            let _ = writeln!(
                out,
                "      dir {}, scope {}, declared in {}",
                one_line(&c.dir),
                label(&c.scope),
                one_line(&c.declared_in)
            );
        }
    }
    if !report.executions.is_empty() {
        out.push_str(
            "  Execution
",
        );
    }
    for e in &report.executions {
        let _ = writeln!(out, "  executed: {}", one_line(&e.summary()));
        for line in [e.changes(), e.why()].into_iter().flatten() {
            let _ = writeln!(out, "      {}", one_line(&line));
        }
    }
}

fn manual(report: &Report, out: &mut String) {
    out.push_str("\n3. Manual contracts left\n");
    let left = layers::manual(report);
    if left.is_empty() {
        out.push_str("  none\n");
    }
    for (_, s) in left {
        let _ = write!(
            out,
            "  - [{}] {}",
            s.decision_label(),
            one_line(&s.data.title)
        );
        match &s.route {
            Some(r) => {
                let _ = writeln!(
                    out,
                    ": {}, approval {}",
                    label(&r.data.action.kind),
                    one_line(&r.data.action.approval)
                );
                let _ = writeln!(out, "      why: {}", one_line(&r.data.reason));
            }
            None => out.push_str(": no route\n"),
        }
        for draft in &s.drafts {
            let d = &draft.data;
            let _ = writeln!(
                out,
                "      draft ({}): {}, {} of {} mapped",
                one_line(&d.format),
                receipt_label(d.receipt),
                d.mapped,
                d.total
            );
            for gap in &d.gaps {
                let _ = writeln!(out, "        gap: {}", one_line(gap));
            }
        }
    }
}

fn receipts(report: &Report, out: &mut String) {
    if !report.capabilities.is_empty() {
        out.push_str("\nCapabilities\n");
    }
    for c in &report.capabilities {
        let _ = write!(
            out,
            "  {}: {} ({})",
            label(&c.name),
            label(&c.status),
            label(&c.depth)
        );
        match &c.gap {
            Some(gap) => {
                let _ = writeln!(out, ": {}", one_line(gap));
            }
            None => out.push('\n'),
        }
    }
    warnings(layers::warnings(report), out);
}

/// The Warnings section (nothing when there are none): severity, stage and message.
pub fn warnings<'a>(diags: impl Iterator<Item = &'a DiagView>, out: &mut String) {
    let mut diags = diags.peekable();
    if diags.peek().is_some() {
        out.push_str("\nWarnings\n");
    }
    for d in diags {
        let _ = writeln!(
            out,
            "  {} {}: {}",
            label(&d.severity),
            one_line(&d.stage),
            one_line(&d.message)
        );
    }
}

/// The closing line counting neutralized instruction-like strings (nothing for none).
pub fn neutralized(count: u64, out: &mut String) {
    if count > 0 {
        let _ = writeln!(
            out,
            "\n{count} instruction-like string{} neutralized (shown as {MARKER}).",
            if count == 1 { "" } else { "s" }
        );
    }
}

/// The first 12 characters of an object id, enough to name it.
pub fn short(oid: &str) -> String {
    one_line(oid).chars().take(12).collect()
}
