//! The acceptance report.html: the acceptance [`Document`] as a page: the verdict banner
//! with its exit code and reasons first, the plan and target identity, then one card per
//! criterion (source and quote status, each check's expected against observed, evidence
//! excerpt, screenshots embedded from their verified copies, each once and at most 20 MiB
//! of them, the rest linked), filtered by status in CSS.

use super::document::{
    inferred_note, CheckItem, CriterionItem, Document, Embed, Fact, ShotItem, Writer,
    MAX_EMBEDDED_BYTES, NO_CHECKS,
};
use super::View;
use crate::escape::{base64, class, html};
use crate::html::{chip, code, filters, page, show, text, Page};
use crate::phrase::Phrase;
use std::fmt::Write as _;

/// The whole page.
pub fn render(view: &View<'_>) -> String {
    let doc = Document::of(view);
    let images = doc
        .criteria
        .iter()
        .flat_map(|c| &c.checks)
        .flat_map(|k| &k.screenshots)
        .any(|s| matches!(&s.carried, Ok(png) if png.embed == Embed::Inline));
    let mut writer = Page::plain();
    doc.write(&mut writer);
    page("qapipe acceptance report", &writer.sheet.out, images)
}

impl Page<'_> {
    fn check(&mut self, check: &CheckItem<'_>) {
        let out = &mut self.sheet.out;
        let _ = writeln!(
            out,
            "<div class=\"check s-{}\" data-check=\"{}\"><header>{} {} <span class=\"muted\">{} · route {}</span></header>",
            class(&check.status),
            html(check.id),
            chip(&check.status),
            code(check.id),
            html(check.kind),
            html(&check.route)
        );
        match &check.observed {
            None => {
                if let Some(reason) = check.route_reason {
                    let _ = writeln!(out, "<div class=\"muted\">Route: {}</div>", text(reason));
                }
            }
            Some(o) => {
                let _ = writeln!(
                    out,
                    "<div class=\"vs\"><div class=\"exp\"><b>expected</b>{}</div><div class=\"obs\"><b>observed</b>{}</div></div>",
                    text(o.expected),
                    text(o.observed)
                );
                if let Some(reason) = o.reason {
                    let _ = writeln!(
                        out,
                        "<div class=\"reason\"><strong>Reason:</strong> {}</div>",
                        text(reason)
                    );
                }
                let _ = writeln!(
                    out,
                    "<div class=\"muted evidence\">Evidence: {}</div>",
                    text(&o.evidence)
                );
                if let Some((lines, cut)) = &o.excerpt {
                    let _ = writeln!(
                        out,
                        "<pre class=\"excerpt\">{}</pre>",
                        text(&lines.join("\n"))
                    );
                    if *cut {
                        out.push_str("<div class=\"muted\">Excerpt cut; report.json keeps the whole excerpt.</div>\n");
                    }
                }
            }
        }
        if !check.screenshots.is_empty() {
            out.push_str("<div class=\"shots\">\n");
            for shot in &check.screenshots {
                out.push_str(&screenshot(shot));
            }
            out.push_str("</div>\n");
        }
        out.push_str("</div>\n");
    }
}

/// Reasons as a list of class `class`; nothing for none.
fn list(class: &str, reasons: &[Phrase<'_>]) -> String {
    if reasons.is_empty() {
        return String::new();
    }
    let items: Vec<String> = reasons
        .iter()
        .map(|r| format!("<li>{}</li>\n", show(r)))
        .collect();
    format!("<ul class=\"{class}\">\n{}</ul>\n", items.concat())
}

/// A verified screenshot as an image embedded from its bytes the first time the page
/// shows it, as a link to that image after, and as a link to its file once the page's
/// budget is spent (links are navigation, which the page's policy leaves alone, so it
/// needs no `img-src` beyond `data:`); a refused one as text saying why. The bytes are
/// read back from the run folder's copy and checked again, one screenshot at a time.
fn screenshot(shot: &ShotItem<'_>) -> String {
    let png = match &shot.carried {
        Ok(png) => png,
        Err(why) => return missing(shot, why),
    };
    let size = png
        .size
        .map_or(String::new(), |(w, h)| format!(", {w}×{h}"));
    let moment = html(&shot.moment);
    let caption = format!(
        "<figcaption><b>{moment}</b>{size}: {}</figcaption>",
        code(&shot.file)
    );
    // The hash is checked hex, so it is safe in an id and a fragment.
    let anchor = format!("shot-{}", class(shot.sha256));
    match png.embed {
        Embed::Inline => match png.copies.bytes(shot.sha256) {
            Ok(bytes) => format!(
                "<figure class=\"shot\" id=\"{anchor}\" data-moment=\"{moment}\"><img alt=\"screenshot {moment}\" src=\"data:image/png;base64,{}\">{caption}</figure>\n",
                base64(&bytes),
            ),
            Err(why) => missing(shot, &why),
        },
        Embed::Above => format!(
            "<figure class=\"shot\" data-moment=\"{moment}\" data-embed=\"above\"><a href=\"#{anchor}\">the same screenshot as shown above</a>{caption}</figure>\n"
        ),
        Embed::Linked => format!(
            "<figure class=\"shot\" data-moment=\"{moment}\" data-embed=\"linked\"><a href=\"{}\">open the screenshot file</a> (not embedded: the page already holds {} MiB of screenshots){caption}</figure>\n",
            html(&shot.file),
            MAX_EMBEDDED_BYTES / (1024 * 1024),
        ),
    }
}

/// A screenshot not shown: text saying why.
fn missing(shot: &ShotItem<'_>, why: &str) -> String {
    format!(
        "<div class=\"shot-missing\" data-moment=\"{moment}\">Screenshot {moment} ({}): {}</div>\n",
        code(&crate::acceptance::document::short(shot.sha256)),
        text(why),
        moment = html(&shot.moment),
    )
}

impl Writer for Page<'_> {
    fn facts(&mut self, doc: &Document<'_>) {
        let out = &mut self.sheet.out;
        let _ = write!(
            out,
            "<header class=\"banner v-{}\" id=\"verdict\"><div class=\"wrap\"><div class=\"what\">qapipe acceptance report</div>\
             <h1>{}</h1><div class=\"sub\">exit {} · {}</div>",
            class(&doc.status),
            html(&doc.status.to_uppercase()),
            doc.exit,
            html(&doc.counts)
        );
        out.push_str(&list("why", &doc.reasons));
        out.push_str("</div></header>\n<div class=\"wrap\">\n");
        out.push_str("<dl class=\"facts\">\n");
        for (fact, phrase, detail) in &doc.facts {
            let name = match fact {
                Fact::Run => "run",
                Fact::Plan => "plan",
                Fact::Target => "target",
                Fact::Production => "production",
                Fact::Build => "build",
            };
            let _ = writeln!(
                out,
                "<dt>{name}</dt><dd>{}{}</dd>",
                show(phrase),
                show(detail)
            );
        }
        out.push_str("</dl></div>\n");
        let count = |status: &str| {
            doc.criteria
                .iter()
                .filter(|c| c.status.eq_ignore_ascii_case(status))
                .count() as u64
        };
        out.push_str(&filters(
            "criteria:",
            &[
                ("pass", "pass", count("pass")),
                ("fail", "fail", count("fail")),
                ("unverified", "unverified", count("unverified")),
            ],
        ));
        out.push_str("<main>\n");
    }

    fn criterion(&mut self, c: &CriterionItem<'_>) {
        let status = c.status.to_lowercase();
        let out = &mut self.sheet.out;
        let _ = writeln!(
            out,
            "<article class=\"card criterion s-{}\" data-criterion=\"{}\"><header>{} <h3>{}</h3>{}</header>",
            class(&status),
            html(c.id),
            chip(&status),
            code(c.id),
            if c.inferred {
                format!(" <span class=\"chip s-unverified\">{}</span>", html(inferred_note(true).trim().trim_matches(|ch| ch == '(' || ch == ')')))
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "<p class=\"expected\">{}</p>", text(c.expected));
        let quote = match c.quote_found {
            Some(true) => ", quote <span class=\"found\">found</span>".to_string(),
            Some(false) => ", quote <span class=\"miss\">NOT found</span>".to_string(),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "<p class=\"source\">Source: {}{quote}</p>",
            show(&c.source)
        );
        if !c.said.is_empty() {
            let _ = writeln!(out, "<blockquote>{}</blockquote>", text(c.said));
        }
        if c.checks.is_empty() {
            let _ = writeln!(out, "<p class=\"muted\">{}</p>", html(NO_CHECKS));
        }
        for check in &c.checks {
            self.check(check);
        }
        let out = &mut self.sheet.out;
        out.push_str(&list("reasons", &c.reasons));
        out.push_str("</article>\n");
    }

    /// The verdict and its reasons lead the page; the cards end here.
    fn verdict(&mut self, _doc: &Document<'_>) {
        self.sheet.out.push_str("</main>\n");
    }

    /// report.html sits in the run folder it would name.
    fn folder(&mut self, _dir: &str) {}
}
