//! The markdown acceptance report (report.md): per criterion its expected behaviour,
//! source quote, checks with observations and bounded evidence, then the verdict; source
//! text that cannot format, link or break a table.

use super::model::{bounded_excerpt, evidence_summary, CriterionView};
use super::text::short;
use super::View;
use crate::markdown::{code, text};
use crate::model::label;
use crate::plain::one_line;
use qa_records::acceptance::{CriterionOutcome, SourceKind};
use std::fmt::Write as _;

/// The whole markdown report, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    let mut out = String::from("## qapipe acceptance report\n\n");
    let v = &view.verdict.data;
    let _ = writeln!(
        out,
        "**Verdict:** **{}** (exit {}): {} pass, {} fail, {} unverified\n",
        label(&v.status).to_uppercase(),
        view.verdict.exit.code(),
        v.counts.pass,
        v.counts.fail,
        v.counts.unverified
    );
    if let Some(paths) = &view.paths {
        let _ = writeln!(out, "- **Run:** {}", code(&paths.run));
    }
    match &view.report.plan {
        Some(p) => {
            let _ = writeln!(
                out,
                "- **Plan:** {} (sha256 {}), {} criteria, {} checks",
                code(&p.data.path),
                code(&short(&p.data.sha256)),
                p.data.criteria,
                p.data.checks
            );
        }
        None => out.push_str("- **Plan:** no plan record in the stream\n"),
    }
    for t in &view.report.targets {
        let d = &t.data;
        let _ = writeln!(
            out,
            "- **Target:** {} {}{}: {}{}",
            label(&d.kind),
            code(&d.value),
            d.build_id.as_deref().map_or(String::new(), |b| format!(
                " (build label {}, not attested)",
                code(b)
            )),
            label(&d.status),
            d.sha256
                .as_deref()
                .map_or(String::new(), |h| format!(", sha256 {}", code(&short(h))))
        );
    }
    if let Some(p) = &view.report.production {
        let _ = writeln!(
            out,
            "- **Production:** {}; test account (the profile's attestation): {}; evidence capture: always",
            code(&p.env),
            p.test_account.as_deref().map_or("(declared null)".to_string(), text)
        );
    }
    for b in &view.report.builds {
        let d = &b.data;
        let _ = writeln!(
            out,
            "- **Build:** {} {} {} from {}: {}",
            code(&d.env),
            label(&d.format),
            d.value.as_deref().map_or("(not read)".to_string(), code),
            code(&d.url),
            label(&d.status)
        );
    }
    for (c, outcome) in view.criteria() {
        criterion(c, outcome, &mut out);
    }
    out.push_str("\n### Verdict\n\n");
    let _ = writeln!(out, "**{}**", label(&v.status));
    for reason in &v.reasons {
        let _ = writeln!(out, "- {}", text(reason));
    }
    crate::markdown::warnings(view.report.diagnostics.iter(), &mut out);
    crate::markdown::neutralized(view.report.neutralized, &mut out);
    out
}

fn criterion(c: &CriterionView, outcome: &CriterionOutcome, out: &mut String) {
    let d = &c.data;
    let _ = writeln!(
        out,
        "\n### {}: {}{}\n",
        label(&outcome.status).to_uppercase(),
        code(&d.id),
        if c.is_inferred() {
            " (inferred: cannot establish acceptance by itself)"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "**Expected:** {}\n", text(&d.expected));
    let s = &d.source;
    match s.kind {
        SourceKind::Ticket | SourceKind::Spec => {
            let _ = writeln!(
                out,
                "**Source:** {} {}{}, quote {}:\n\n> {}\n",
                label(&s.kind),
                code(s.path.as_deref().unwrap_or("")),
                s.sha256
                    .as_deref()
                    .map_or(String::new(), |h| format!(" (sha256 {})", code(&short(h)))),
                if s.found { "found" } else { "**not found**" },
                text(s.quote.as_deref().unwrap_or(""))
            );
        }
        SourceKind::Request | SourceKind::Inferred => {
            let _ = writeln!(
                out,
                "**Source:** {}:\n\n> {}\n",
                label(&s.kind),
                text(s.text.as_deref().unwrap_or(""))
            );
        }
    }
    if c.checks.is_empty() {
        out.push_str("No checks.\n");
    } else {
        out.push_str("| check | kind | route | status | expected | observed |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for check in &c.checks {
            let o = check.observation.as_ref().map(|o| &o.data);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                code(&check.data.id),
                text(&check.data.kind),
                check
                    .route
                    .as_ref()
                    .map_or("not routed".to_string(), |r| label(&r.data.decision)),
                o.map_or("no observation".to_string(), |o| label(&o.status)),
                o.map_or(String::new(), |o| text(&o.expected)),
                o.map_or(String::new(), |o| text(&o.observed)),
            );
        }
        for check in &c.checks {
            let Some(o) = check.observation.as_ref().map(|o| &o.data) else {
                continue;
            };
            let _ = writeln!(
                out,
                "\nEvidence of {}: {}",
                code(&check.data.id),
                text(&evidence_summary(o))
            );
            if let Some(excerpt) = &o.evidence.excerpt {
                let (lines, cut) = bounded_excerpt(excerpt);
                let lines: Vec<String> = lines.iter().map(|l| one_line(l).into_owned()).collect();
                out.push_str(&fenced(&lines));
                if cut {
                    out.push_str("_Excerpt cut; report.json keeps the whole excerpt._\n");
                }
            }
        }
    }
    if !outcome.reasons.is_empty() {
        out.push('\n');
        for reason in &outcome.reasons {
            let _ = writeln!(out, "- {}", text(reason));
        }
    }
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
