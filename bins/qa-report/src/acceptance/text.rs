//! The terminal acceptance report: per criterion its expected behaviour, source, checks
//! with their observations and bounded evidence, then the verdict and its reasons.

use super::model::{bounded_excerpt, evidence_summary, CheckView, CriterionView};
use super::View;
use crate::model::label;
use crate::plain::one_line;
use qa_records::acceptance::{CriterionOutcome, SourceKind};
use std::fmt::Write as _;

/// The whole text report, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    let mut out = String::from("qapipe acceptance report\n");
    header(view, &mut out);
    for (c, outcome) in view.criteria() {
        criterion(c, outcome, &mut out);
    }
    let v = &view.verdict.data;
    let _ = writeln!(
        out,
        "\nVerdict: {} (exit {})",
        label(&v.status),
        view.verdict.exit.code()
    );
    for reason in &v.reasons {
        let _ = writeln!(out, "  - {}", one_line(reason));
    }
    crate::text::warnings(view.report.diagnostics.iter(), &mut out);
    crate::text::neutralized(view.report.neutralized, &mut out);
    if let Some(paths) = &view.paths {
        let _ = writeln!(out, "\nReport files: {}", paths.dir.display());
    }
    out
}

fn header(view: &View<'_>, out: &mut String) {
    if let Some(paths) = &view.paths {
        let _ = writeln!(out, "run: {}", paths.run);
    }
    match &view.report.plan {
        Some(p) => {
            let _ = writeln!(
                out,
                "plan: {} (sha256 {}), {} criteria, {} checks",
                one_line(&p.data.path),
                short(&p.data.sha256),
                p.data.criteria,
                p.data.checks
            );
        }
        None => out.push_str("plan: no plan record in the stream\n"),
    }
    for t in &view.report.targets {
        let d = &t.data;
        let mut line = format!("target: {} {}", label(&d.kind), one_line(&d.value));
        if let Some(build) = &d.build_id {
            let _ = write!(line, " (build label {}, not attested)", one_line(build));
        }
        let _ = write!(line, ": {}", label(&d.status));
        if let Some(sha) = &d.sha256 {
            let _ = write!(line, ", sha256 {}", short(sha));
        }
        if !d.entries.is_empty() {
            let _ = write!(line, ", {} files", d.entries.len());
        }
        if !d.excluded.is_empty() {
            let _ = write!(line, ", {} excluded", d.excluded.len());
        }
        if let Some(reason) = &d.reason {
            let _ = write!(line, " ({})", one_line(reason));
        }
        let _ = writeln!(out, "{line}");
    }
    if let Some(p) = &view.report.production {
        let _ = writeln!(
            out,
            "environment: {} is production; test account (the profile's attestation): {}; evidence capture: always",
            one_line(&p.env),
            p.test_account.as_deref().map_or("(declared null)".into(), one_line)
        );
    }
    for b in &view.report.builds {
        let d = &b.data;
        let mut line = format!(
            "build: {} {} {}",
            one_line(&d.env),
            label(&d.format),
            d.value.as_deref().map_or("(not read)".into(), one_line)
        );
        let _ = write!(line, " from {}: {}", one_line(&d.url), label(&d.status));
        if let Some(reason) = &d.reason {
            let _ = write!(line, " ({})", one_line(reason));
        }
        let _ = writeln!(out, "{line}");
    }
    let c = &view.verdict.data.counts;
    let _ = writeln!(
        out,
        "verdict: {} ({} pass, {} fail, {} unverified)",
        label(&view.verdict.data.status).to_uppercase(),
        c.pass,
        c.fail,
        c.unverified
    );
}

fn criterion(c: &CriterionView, outcome: &CriterionOutcome, out: &mut String) {
    let d = &c.data;
    let _ = writeln!(
        out,
        "\n[{}] {}{}: {}",
        label(&outcome.status).to_uppercase(),
        one_line(&d.id),
        if c.is_inferred() {
            " (inferred: cannot establish acceptance by itself)"
        } else {
            ""
        },
        one_line(&d.expected)
    );
    let s = &d.source;
    match s.kind {
        SourceKind::Ticket | SourceKind::Spec => {
            let _ = writeln!(
                out,
                "  source: {} {}{}, quote {}: \"{}\"",
                label(&s.kind),
                one_line(s.path.as_deref().unwrap_or("")),
                s.sha256
                    .as_deref()
                    .map_or(String::new(), |h| format!(" (sha256 {})", short(h))),
                if s.found { "found" } else { "NOT found" },
                one_line(s.quote.as_deref().unwrap_or(""))
            );
        }
        SourceKind::Request | SourceKind::Inferred => {
            let _ = writeln!(
                out,
                "  source: {}: \"{}\"",
                label(&s.kind),
                one_line(s.text.as_deref().unwrap_or(""))
            );
        }
    }
    if c.checks.is_empty() {
        out.push_str("  no checks\n");
    }
    for check in &c.checks {
        check_lines(check, out);
    }
    for reason in &outcome.reasons {
        let _ = writeln!(out, "  - {}", one_line(reason));
    }
}

fn check_lines(check: &CheckView, out: &mut String) {
    let route = check.route.as_ref().map(|r| &r.data);
    let _ = writeln!(
        out,
        "  check {} ({}, {}): {}",
        one_line(&check.data.id),
        one_line(&check.data.kind),
        route.map_or("not routed".to_string(), |r| label(&r.decision)),
        check
            .observation
            .as_ref()
            .map_or("no observation".to_string(), |o| label(&o.data.status))
    );
    let Some(o) = &check.observation else {
        if let Some(r) = route {
            let _ = writeln!(out, "    route: {}", one_line(&r.reason));
        }
        return;
    };
    let o = &o.data;
    let _ = writeln!(out, "    expected: {}", one_line(&o.expected));
    let _ = writeln!(out, "    observed: {}", one_line(&o.observed));
    if let Some(reason) = &o.reason {
        let _ = writeln!(out, "    reason: {}", one_line(reason));
    }
    let _ = writeln!(out, "    evidence: {}", one_line(&evidence_summary(o)));
    if let Some(excerpt) = &o.evidence.excerpt {
        let (lines, cut) = bounded_excerpt(excerpt);
        for line in lines {
            let _ = writeln!(out, "      | {}", one_line(&line));
        }
        if cut {
            out.push_str("      | ... (excerpt cut; report.json keeps the whole excerpt)\n");
        }
    }
}

/// The first 12 characters of a hash, past any `sha256:` prefix.
pub fn short(hash: &str) -> String {
    crate::text::short(hash.strip_prefix("sha256:").unwrap_or(hash))
}
