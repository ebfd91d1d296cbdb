//! report.html: a report as one self-contained page (inline CSS allowed by its hash in a
//! strict Content-Security-Policy, system fonts, no script, no request outside the file),
//! and the change [`Document`] laid out as intent cards with their scenarios, evidence
//! linked to the forge at the head commit, commands, manual contracts and capabilities.
//! Every source-derived string is escaped ([`crate::escape`]); filters by status are CSS.

use crate::document::{
    Capability, CommandItem, Document, EvidenceItem, ExecutionItem, IntentItem, ManualItem, Marks,
    ScenarioItem, Sheet, Writer, NO_COMMANDS, NO_MANUAL, NO_SCENARIOS,
};
use crate::escape::{base64, class, html};
use crate::forge::Forge;
use crate::layers::Diagnostics;
use crate::model::{Counts, Report, Work};
use crate::phrase::{Phrase, Span, Style};
use qa_records::change::Decision;
use qa_records::secret::REDACTED;
use qa_records::untrusted::MARKER;
use qa_records::words::{self, Words as _};
use sha2::{Digest as _, Sha256};
use std::fmt::Write as _;

/// The page's whole style sheet; the CSP allows exactly these bytes.
pub const CSS: &str = include_str!("report.css");

/// The file name in a report folder.
pub const REPORT_HTML: &str = "report.html";

/// The Content-Security-Policy of a page: nothing but its own style sheet, and `data:`
/// images only when it embeds screenshots.
pub fn policy(images: bool) -> String {
    let hash = base64(&Sha256::digest(CSS.as_bytes()));
    let img = if images { " img-src data:;" } else { "" };
    format!(
        "default-src 'none'; style-src 'sha256-{hash}';{img} base-uri 'none'; form-action 'none'"
    )
}

/// `body` as a whole page titled `title` (our words).
pub fn page(title: &str, body: &str, images: bool) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        policy(images),
        html(title)
    )
}

/// Source text as HTML: escaped, with the neutralization and redaction markers shown as
/// marks.
pub fn text(s: &str) -> String {
    html(s)
        .replace(
            MARKER,
            &format!("<mark class=\"neutralized\" title=\"instruction-like text removed\">{MARKER}</mark>"),
        )
        .replace(
            REDACTED,
            &format!("<mark class=\"redacted\" title=\"a secret was redacted\">{REDACTED}</mark>"),
        )
}

/// A source name as a code element.
pub fn code(s: &str) -> String {
    format!("<code>{}</code>", text(s))
}

/// HTML: every span escaped, our words included.
pub const HTML: Style = Style {
    text,
    code,
    strong: |s| format!("<strong>{}</strong>", html(s)),
};

/// A phrase as HTML; unlike [`Style::show`], our own words are escaped too.
pub fn show(phrase: &Phrase<'_>) -> String {
    let mut out = String::new();
    for span in &phrase.0 {
        match span {
            Span::Word(s) => out.push_str(&html(s)),
            Span::Text(s) => out.push_str(&text(s)),
            Span::Code(s) => out.push_str(&code(s)),
            Span::Strong(s) => out.push_str(&(HTML.strong)(s)),
        }
    }
    out
}

/// A status chip: our own status word, its class derived from it.
pub fn chip(status: &str) -> String {
    format!(
        "<span class=\"chip s-{}\">{}</span>",
        class(status),
        html(status)
    )
}

/// A status chip showing `words`, coloured by the record name `token`.
pub fn chip_as(token: &str, words: &str) -> String {
    format!(
        "<span class=\"chip s-{}\">{}</span>",
        class(token),
        html(words)
    )
}

/// A label chip that carries no status colour.
pub fn quiet(label: &str) -> String {
    format!("<span class=\"chip quiet\">{}</span>", html(label))
}

/// Radio inputs and their labels that filter cards by status (CSS only): `all` first.
/// Each option is the status's record name (its id, as the style sheet names it), the
/// words its label shows, and its count.
pub fn filters(heading: &str, options: &[(&str, &str, u64)]) -> String {
    let mut inputs = String::from(
        "<input class=\"filters\" type=\"radio\" name=\"filter\" id=\"f-all\" checked>\n",
    );
    let mut labels = format!(
        "<nav class=\"bar\" aria-label=\"filter\"><span>{}</span><label for=\"f-all\">all</label>",
        html(heading)
    );
    for (name, words, count) in options {
        let id = class(name);
        let _ = writeln!(
            inputs,
            "<input class=\"filters\" type=\"radio\" name=\"filter\" id=\"f-{id}\">"
        );
        let _ = write!(
            labels,
            "<label for=\"f-{id}\">{} ({count})</label>",
            html(words)
        );
    }
    format!("{inputs}{labels}</nav>\n")
}

/// What marks HTML in the sheet's shared parts (the writers here override them all).
const MARKS: Marks = Marks::new(HTML, "", "", "", "", ["", "", ""]);

/// The change report as a page; `forge` links evidence to the head commit.
pub fn render(report: &Report, forge: Option<&Forge>, shown: Diagnostics) -> String {
    let doc = Document::of(report, shown);
    let mut writer = Page {
        sheet: Sheet::new(MARKS),
        forge: forge.cloned(),
        head: doc.head,
        counts: doc.counts,
        missing: doc.missing.to_vec(),
        cancelled: doc.cancelled,
        open: false,
    };
    doc.write(&mut writer);
    writer.close_section();
    writer.sheet.out.push_str("</main>\n");
    page("qapipe change report", &writer.sheet.out, false)
}

/// A [`Writer`] of HTML sections and cards.
pub struct Page<'a> {
    pub sheet: Sheet,
    forge: Option<Forge>,
    head: Option<&'a str>,
    counts: Counts,
    missing: Vec<&'static str>,
    /// The signal that cut the stream.
    cancelled: Option<&'static str>,
    /// A `<section>` is open.
    open: bool,
}

impl Page<'static> {
    /// A page without forge links (an acceptance report).
    pub fn plain() -> Page<'static> {
        Page {
            sheet: Sheet::new(MARKS),
            forge: None,
            head: None,
            counts: Counts::default(),
            missing: Vec::new(),
            cancelled: None,
            open: false,
        }
    }
}

impl Page<'_> {
    fn close_section(&mut self) {
        if std::mem::replace(&mut self.open, false) {
            self.sheet.out.push_str("</section>\n");
        }
    }

    fn scenario(&mut self, s: &ScenarioItem<'_>) {
        let out = &mut self.sheet.out;
        let _ = write!(
            out,
            "<div class=\"scenario p-{}\"><h4>{} {}",
            class(&s.class),
            chip_as(&s.class, s.priority),
            quiet(s.kind)
        );
        if let Some(note) = s.note {
            let _ = write!(out, " {}", quiet(note));
        }
        let _ = writeln!(out, " {}</h4>", text(s.title));
        let (mut steps, mut verify) = (String::new(), String::new());
        for line in &s.work {
            match line {
                Work::Step(_, step) => {
                    let _ = write!(steps, "<li>{}</li>", text(step));
                }
                Work::MoreSteps(more) => {
                    let _ = write!(steps, "<li class=\"muted\">(+{more} more steps)</li>");
                }
                Work::Verify(a) => {
                    let _ = write!(verify, "<li>{}</li>", text(a));
                }
                Work::MoreToVerify(more) => {
                    let _ = write!(verify, "<li class=\"muted\">(+{more} more to verify)</li>");
                }
            }
        }
        let columns: Vec<String> = [("Steps", "ol", &steps), ("Verify", "ul", &verify)]
            .into_iter()
            .filter(|(_, _, items)| !items.is_empty())
            .map(|(name, list, items)| {
                format!("<div><div class=\"muted\">{name}</div><{list}>{items}</{list}></div>")
            })
            .collect();
        if !columns.is_empty() {
            let _ = writeln!(out, "<div class=\"work\">{}</div>", columns.concat());
        }
        if let Some(gap) = s.proof_gap {
            let _ = writeln!(
                out,
                "<div class=\"gap\"><strong>Proof gap:</strong> {}</div>",
                text(gap)
            );
        }
        let (reached, tail) = &s.reaches;
        if !reached.is_empty() {
            let names: Vec<String> = reached.iter().map(|r| code(r)).collect();
            let _ = writeln!(
                out,
                "<div><span class=\"muted\">Reaches:</span> {}{}</div>",
                names.join(", "),
                html(tail)
            );
        }
        if !s.evidence.is_empty() {
            let items: Vec<String> = s.evidence.iter().map(|e| self.evidence(e)).collect();
            let out = &mut self.sheet.out;
            let _ = writeln!(out, "<ul class=\"evidence\">{}</ul>", items.concat());
        }
        let out = &mut self.sheet.out;
        if let Some((state, execution)) = &s.trace {
            let _ = writeln!(
                out,
                "<div class=\"muted\">{}; {}</div>",
                html(state),
                html(execution)
            );
        }
        out.push_str("</div>\n");
    }

    /// One piece of evidence: `file:line` linked to the forge when one is named.
    fn evidence(&self, e: &EvidenceItem<'_>) -> String {
        let at = code(&e.at);
        let link = match (&self.forge, self.head, e.located) {
            (Some(forge), Some(head), Some((file, line))) => forge.link(head, file, line),
            _ => None,
        };
        let at = match link {
            Some(url) => format!(
                "<a class=\"forge\" href=\"{}\" rel=\"noopener noreferrer\">{at}</a>",
                html(&url)
            ),
            None => at,
        };
        format!("<li>{at} {} {}</li>", quiet(e.relation), text(e.text))
    }

    fn command_row(&mut self, c: &CommandItem<'_>, routed: bool) {
        let mut why = c.why.as_ref().map_or(String::new(), show);
        if let Some(approval) = &c.approval {
            let _ = write!(why, "<br><strong>{}</strong>", html(approval));
        }
        let mut run = code(c.run);
        if let Some(needs) = &c.needs {
            let _ = write!(run, "<br><strong>first:</strong> {}", show(needs));
        }
        let mut cells = vec![run, why, code(c.dir), html(c.scope), code(c.declared_in)];
        if routed {
            let covers: Vec<String> = c
                .covers
                .iter()
                .map(|(d, title)| format!("{} {}", chip_as(&d.class, d.words), text(title)))
                .collect();
            cells.push(covers.join("<br>"));
        }
        let _ = writeln!(
            self.sheet.out,
            "<tr><td>{}</td></tr>",
            cells.join("</td><td>")
        );
    }
}

/// A table head.
pub fn head(columns: &[&str]) -> String {
    let cells: Vec<String> = columns
        .iter()
        .map(|c| format!("<th>{}</th>", html(c)))
        .collect();
    format!("<table><thead><tr>{}</tr></thead><tbody>\n", cells.concat())
}

impl Writer for Page<'_> {
    fn sheet(&mut self) -> &mut Sheet {
        &mut self.sheet
    }

    fn header(&mut self, title: &str, range: &Phrase<'_>, summary: &Phrase<'_>) {
        let c = self.counts;
        let (verdict, headline) = if self.cancelled.is_some() {
            ("cancelled", "CANCELLED".to_string())
        } else if !self.missing.is_empty() {
            ("incomplete", "INCOMPLETE".to_string())
        } else if c.required > 0 {
            ("required", format!("{} required", c.required))
        } else if c.recommended > 0 {
            ("recommended", format!("{} recommended", c.recommended))
        } else if c.scenarios > 0 {
            ("review-only", format!("{} to review", c.scenarios))
        } else {
            ("review-only", NO_SCENARIOS.to_string())
        };
        let out = &mut self.sheet.out;
        let _ = writeln!(
            out,
            "<header class=\"banner v-{verdict}\" id=\"verdict\"><div class=\"wrap\">\
             <div class=\"what\">{}</div><h1>{}</h1><div class=\"sub\">{}</div></div></header>",
            html(title),
            html(&headline),
            show(summary)
        );
        let _ = writeln!(
            out,
            "<div class=\"wrap\"><dl class=\"facts\"><dt>range</dt><dd>{}</dd></dl></div>",
            show(range)
        );
        if c.scenarios > 0 {
            out.push_str(&filters(
                "scenarios:",
                &[
                    ("required", Decision::Required.words(), c.required),
                    ("recommended", Decision::Recommended.words(), c.recommended),
                    ("review-only", Decision::ReviewOnly.words(), c.review_only),
                    ("unrouted", words::NOT_ROUTED, c.unrouted),
                ],
            ));
        }
        out.push_str("<main>\n");
    }

    fn heading(&mut self, title: &str) {
        self.close_section();
        self.open = true;
        let _ = writeln!(self.sheet.out, "<section><h2>{}</h2>", html(title));
    }

    fn intent(&mut self, intent: &IntentItem<'_>) {
        let i = intent;
        let out = &mut self.sheet.out;
        let _ = writeln!(
            out,
            "<article class=\"intent\"><header><h3>{}</h3>{}{}{}<span class=\"muted\">{}</span>{}</header>",
            text(i.title),
            quiet(&format!("why it matters: {}", i.authority)),
            quiet(i.focus),
            quiet(i.confidence),
            html(&i.commits),
            if i.review_required { " <span class=\"chip s-required\">a reviewer must confirm it</span>" } else { "" }
        );
        let files: Vec<String> = i.files.iter().map(|f| code(f)).collect();
        let _ = writeln!(
            out,
            "<div><span class=\"muted\">Files:</span> {}</div>",
            files.join(" ")
        );
        if i.scenarios.is_empty() {
            let _ = writeln!(out, "<p class=\"muted\">{}</p>", html(NO_SCENARIOS));
        }
        for s in &i.scenarios {
            self.scenario(s);
        }
        self.sheet.out.push_str("</article>\n");
    }

    fn commands(&mut self, routed: &[CommandItem<'_>], additional: &[CommandItem<'_>]) {
        let columns = ["run this", "what it checks", "in", "runs", "from"];
        if routed.is_empty() {
            let _ = writeln!(
                self.sheet.out,
                "<p class=\"muted\">{}</p>",
                html(NO_COMMANDS)
            );
        } else {
            let all = [&columns[..], &["covers"]].concat();
            self.sheet.out.push_str(&head(&all));
            for c in routed {
                self.command_row(c, true);
            }
            self.sheet.out.push_str("</tbody></table>\n");
        }
        if !additional.is_empty() {
            self.sheet.out.push_str("<h3>Also worth running</h3>\n");
            self.sheet.out.push_str(&head(&columns));
            for c in additional {
                self.command_row(c, false);
            }
            self.sheet.out.push_str("</tbody></table>\n");
        }
    }

    fn executions(&mut self, executions: &[ExecutionItem<'_>]) {
        if executions.is_empty() {
            return;
        }
        let out = &mut self.sheet.out;
        out.push_str("<h3>Already run</h3><ul>\n");
        for e in executions {
            let _ = write!(out, "<li>{}", show(&e.summary));
            for d in &e.details {
                let _ = write!(out, "<br><span class=\"muted\">{}</span>", show(d));
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }

    fn manual(&mut self, items: &[ManualItem<'_>]) {
        if items.is_empty() {
            let _ = writeln!(self.sheet.out, "<p class=\"muted\">{}</p>", html(NO_MANUAL));
            return;
        }
        self.sheet.out.push_str(&head(&[
            "decision",
            "scenario",
            "what to do",
            "why",
            "drafts",
        ]));
        for m in items {
            let (action, why) = match &m.route {
                Some(r) => (html(r.action), text(r.why)),
                None => (html("no route chose how to test it"), "n/a".into()),
            };
            let drafts: Vec<String> = m
                .drafts
                .iter()
                .map(|d| {
                    let mut cell = format!("{}: {}", code(d.format), html(&d.mapped));
                    for gap in d.gaps {
                        let _ = write!(cell, "<br>gap: {}", text(gap));
                    }
                    cell
                })
                .collect();
            let drafts = if drafts.is_empty() {
                "none".to_string()
            } else {
                drafts.join("<br>")
            };
            let _ = writeln!(
                self.sheet.out,
                "<tr><td>{}</td><td>{}</td><td>{action}</td><td>{why}</td><td>{drafts}</td></tr>",
                chip_as(&m.decision.class, m.decision.words),
                text(m.title)
            );
        }
        self.sheet.out.push_str("</tbody></table>\n");
    }

    fn capabilities(&mut self, items: &[Capability<'_>]) {
        self.sheet
            .out
            .push_str(&head(&["what", "status", "how deep", "gap"]));
        for c in items {
            let gap = c.gap.map_or("none".to_string(), text);
            let _ = writeln!(
                self.sheet.out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{gap}</td></tr>",
                html(c.name),
                chip_as(&c.class, c.status),
                html(c.depth)
            );
        }
        self.sheet.out.push_str("</tbody></table>\n");
    }

    fn tail(&mut self, warnings: &[Phrase<'_>], neutralized: Option<&Phrase<'_>>) {
        self.close_section();
        tail(&mut self.sheet.out, warnings, neutralized);
    }
}

/// The warnings (in a section of their own) and the neutralized line of either flow.
pub fn tail(out: &mut String, warnings: &[Phrase<'_>], neutralized: Option<&Phrase<'_>>) {
    if !warnings.is_empty() {
        out.push_str("<section><h2>Warnings</h2><ul class=\"warnings\">\n");
        for w in warnings {
            let _ = writeln!(out, "<li>{}</li>", show(w));
        }
        out.push_str("</ul></section>\n");
    }
    if let Some(line) = neutralized {
        let _ = writeln!(
            out,
            "<p class=\"muted\" id=\"neutralized\"><em>{}</em></p>",
            show(line)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_exactly_the_inline_style_and_nothing_else() {
        let p = policy(false);
        assert!(p.starts_with("default-src 'none'; style-src 'sha256-"));
        assert!(p.contains("base-uri 'none'; form-action 'none'"));
        assert!(!p.contains("img-src") && !p.contains("script-src") && !p.contains("unsafe"));
        assert!(policy(true).contains("img-src data:;"));
    }

    #[test]
    fn markers_show_as_marks_and_markup_stays_text() {
        let shown = text("<b>x</b> [redacted] [instruction-like text removed]");
        assert!(
            shown.starts_with("&lt;b&gt;x&lt;/b&gt; <mark class=\"redacted\""),
            "{shown}"
        );
        assert!(shown.contains("<mark class=\"neutralized\""), "{shown}");
    }

    #[test]
    fn our_own_words_are_escaped_too() {
        let p = Phrase::default()
            .word("<i>")
            .text("<s>")
            .code("<c>")
            .strong("<b>");
        assert_eq!(
            show(&p),
            "&lt;i&gt;&lt;s&gt;<code>&lt;c&gt;</code><strong>&lt;b&gt;</strong>"
        );
    }
}
