//! The acceptance report as one document for the human formats: the run's facts (run,
//! plan, targets, production, builds), the verdict and its counts, each criterion with its
//! source, checks, observations, bounded evidence and reasons, then warnings and the
//! neutralized count. [`Document::write`] decides what comes when; a [`Writer`] (text,
//! markdown) only lays each part out.

use super::model::{bounded_excerpt, evidence_summary, CheckView, CriterionView};
use super::screenshots::{self, Carried, Screenshots};
use super::View;
use crate::document as change;
use crate::model::label;
use crate::phrase::Phrase;
use qa_records::acceptance::{CriterionOutcome, SourceKind};

/// What a criterion without checks says.
pub const NO_CHECKS: &str = "no checks";

/// What the run rests on, one fact a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    Run,
    Plan,
    Target,
    Production,
    Build,
}

/// Everything a human acceptance report says.
pub struct Document<'a> {
    /// Each fact: what it is, its phrase, and detail only the terminal shows.
    pub facts: Vec<(Fact, Phrase<'a>, Phrase<'a>)>,
    /// The verdict's name (`pass`, `incomplete`, ...).
    pub status: String,
    pub exit: u8,
    /// `1 pass, 0 fail, 2 unverified`.
    pub counts: String,
    pub criteria: Vec<CriterionItem<'a>>,
    pub reasons: Vec<Phrase<'a>>,
    pub warnings: Vec<Phrase<'a>>,
    pub neutralized: Option<Phrase<'a>>,
    /// The run folder, when one was written.
    pub folder: Option<String>,
}

pub struct CriterionItem<'a> {
    /// The outcome's name in capitals (`PASS`, `UNVERIFIED`).
    pub status: String,
    pub id: &'a str,
    pub inferred: bool,
    pub expected: &'a str,
    /// Where the criterion comes from: its kind, and a ticket's or spec's path and hash.
    pub source: Phrase<'a>,
    /// For a quoted source, whether the quote was found verbatim.
    pub quote_found: Option<bool>,
    /// The quote, or the request's or inference's own words.
    pub said: &'a str,
    pub checks: Vec<CheckItem<'a>>,
    pub reasons: Vec<Phrase<'a>>,
}

pub struct CheckItem<'a> {
    pub id: &'a str,
    pub kind: &'a str,
    /// The route's decision, or `not routed`.
    pub route: String,
    /// Why the route decided so (shown when nothing was observed).
    pub route_reason: Option<&'a str>,
    /// The observation's status, or `no observation`.
    pub status: String,
    pub observed: Option<Observed<'a>>,
    /// The screenshots its observation names, each verified or refused.
    pub screenshots: Vec<ShotItem<'a>>,
}

/// One screenshot of a browser check.
pub struct ShotItem<'a> {
    /// `before`, `after` or `failure`.
    pub moment: String,
    pub sha256: &'a str,
    /// Where it is: `screenshots/<sha256>.png` in the run folder, or the project path
    /// when no run folder was written.
    pub file: String,
    /// The verified PNG bytes and their width and height, or why it was not copied.
    pub carried: Result<Png<'a>, &'a str>,
}

/// A verified screenshot.
pub struct Png<'a> {
    /// Its size in bytes.
    pub bytes: u64,
    /// Width and height, as its IHDR chunk says.
    pub size: Option<(u32, u32)>,
    /// How report.html shows it ([`embedding`]).
    pub embed: Embed,
    /// Where its verified copy is read back from to embed it.
    pub copies: &'a Screenshots,
}

/// How report.html shows a verified screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embed {
    /// Its bytes in the page: the first time it is shown, while the page's embedded
    /// screenshots stay within [`MAX_EMBEDDED_BYTES`].
    Inline,
    /// Shown inline earlier on the page: a link to that one, its bytes not again.
    Above,
    /// Past the page's budget: a link to its file in the run folder.
    Linked,
}

/// The most screenshot data (base64, as it stands in the page) one report.html embeds:
/// a page of hundreds of checks with large screenshots stays a page a browser opens.
pub const MAX_EMBEDDED_BYTES: u64 = 20 * 1024 * 1024;

/// Decides, in page order, how each verified screenshot of `criteria` is shown: each PNG
/// embedded once (by SHA-256), linked after [`MAX_EMBEDDED_BYTES`].
fn embedding(criteria: &mut [CriterionItem<'_>]) {
    let mut inline = std::collections::HashSet::new();
    let mut embedded = 0u64;
    let shots = criteria
        .iter_mut()
        .flat_map(|c| c.checks.iter_mut())
        .flat_map(|k| k.screenshots.iter_mut());
    for shot in shots {
        let Ok(png) = &mut shot.carried else { continue };
        let size = png.bytes.div_ceil(3) * 4;
        png.embed = if inline.contains(shot.sha256) {
            Embed::Above
        } else if embedded + size <= MAX_EMBEDDED_BYTES {
            embedded += size;
            inline.insert(shot.sha256);
            Embed::Inline
        } else {
            Embed::Linked
        };
    }
}

pub struct Observed<'a> {
    pub expected: &'a str,
    pub observed: &'a str,
    pub reason: Option<&'a str>,
    /// Path or URL, HTTP status, size and hash.
    pub evidence: String,
    /// The first lines of the evidence excerpt, and whether any was left out.
    pub excerpt: Option<(Vec<String>, bool)>,
}

/// A human format: how it lays out each part of a [`Document`]; it writes into the sheet
/// of its change [`change::Writer`] and ends the report as a change report ends.
pub trait Writer: change::Writer {
    fn facts(&mut self, doc: &Document<'_>);
    fn criterion(&mut self, c: &CriterionItem<'_>);
    fn verdict(&mut self, doc: &Document<'_>);
    fn folder(&mut self, dir: &str);
}

/// The acceptance report of `view` laid out by `writer`.
pub fn render(view: &View<'_>, mut writer: impl Writer) -> String {
    Document::of(view).write(&mut writer);
    std::mem::take(&mut writer.sheet().out)
}

impl<'a> Document<'a> {
    pub fn of(view: &'a View<'a>) -> Document<'a> {
        let report = view.report;
        let mut facts = Vec::new();
        if let Some(paths) = view.paths {
            facts.push((
                Fact::Run,
                Phrase::default().code(paths.run.as_str()),
                Phrase::default(),
            ));
        }
        facts.push((Fact::Plan, plan(view), Phrase::default()));
        facts.extend(report.targets.iter().map(|t| target(&t.data)));
        facts.extend(report.production.as_ref().map(|p| {
            let account = match &p.test_account {
                Some(account) => Phrase::default().text(account.as_str()),
                None => Phrase::default().word("(declared null)"),
            };
            let phrase = Phrase::default()
                .code(p.env.as_str())
                .word("; test account (the profile's attestation): ")
                .then(account)
                .word("; evidence capture: always");
            (Fact::Production, phrase, Phrase::default())
        }));
        facts.extend(report.builds.iter().map(|b| build(&b.data)));
        let v = &view.verdict.data;
        let mut criteria: Vec<CriterionItem<'a>> = view
            .criteria()
            .map(|(c, o)| criterion(view, c, o))
            .collect();
        embedding(&mut criteria);
        Document {
            facts,
            status: label(&v.status),
            exit: view.verdict.exit.code(),
            counts: format!(
                "{} pass, {} fail, {} unverified",
                v.counts.pass, v.counts.fail, v.counts.unverified
            ),
            criteria,
            reasons: reasons(&v.reasons),
            // Info diagnostics are for --verbose change reports, never a verdict's reader.
            warnings: change::warnings(
                report
                    .diagnostics
                    .iter()
                    .filter(|d| crate::layers::Diagnostics::Notable.shows(d.severity)),
            ),
            neutralized: change::neutralized(report.neutralized),
            folder: view.paths.map(|p| p.dir.display().to_string()),
        }
    }

    /// Lays the document out with `writer`.
    pub fn write(&self, writer: &mut impl Writer) {
        writer.facts(self);
        for c in &self.criteria {
            writer.criterion(c);
        }
        writer.verdict(self);
        writer.tail(&self.warnings, self.neutralized.as_ref());
        if let Some(dir) = &self.folder {
            writer.folder(dir);
        }
    }
}

/// Reasons as phrases of source-derived text.
fn reasons(reasons: &[String]) -> Vec<Phrase<'_>> {
    reasons
        .iter()
        .map(|r| Phrase::default().text(r.as_str()))
        .collect()
}

/// The first 12 characters of a hash, past any `sha256:` prefix.
pub fn short(hash: &str) -> String {
    crate::plain::short(hash.strip_prefix("sha256:").unwrap_or(hash))
}

fn plan<'a>(view: &'a View<'a>) -> Phrase<'a> {
    match &view.report.plan {
        Some(p) => Phrase::default()
            .code(p.data.path.as_str())
            .word(" (sha256 ")
            .code(short(&p.data.sha256))
            .word(format!(
                "), {} criteria, {} checks",
                p.data.criteria, p.data.checks
            )),
        None => Phrase::default().word("no plan record in the stream"),
    }
}

fn target(d: &qa_records::acceptance::TargetData) -> (Fact, Phrase<'_>, Phrase<'_>) {
    let mut phrase = Phrase::default()
        .word(format!("{} ", label(&d.kind)))
        .code(d.value.as_str());
    if let Some(build) = &d.build_id {
        phrase = phrase
            .word(" (build label ")
            .code(build.as_str())
            .word(", not attested)");
    }
    phrase = phrase.word(format!(": {}", label(&d.status)));
    if let Some(sha) = &d.sha256 {
        phrase = phrase.word(", sha256 ").code(short(sha));
    }
    let mut detail = Phrase::default();
    if !d.entries.is_empty() {
        detail = detail.word(format!(", {} files", d.entries.len()));
    }
    if !d.excluded.is_empty() {
        detail = detail.word(format!(", {} excluded", d.excluded.len()));
    }
    (
        Fact::Target,
        phrase,
        detail.then(reason(d.reason.as_deref())),
    )
}

fn build(d: &qa_records::acceptance::BuildData) -> (Fact, Phrase<'_>, Phrase<'_>) {
    let value = match &d.value {
        Some(value) => Phrase::default().code(value.as_str()),
        None => Phrase::default().word("(not read)"),
    };
    let phrase = Phrase::default()
        .code(d.env.as_str())
        .word(format!(" {} ", label(&d.format)))
        .then(value)
        .word(" from ")
        .code(d.url.as_str())
        .word(format!(": {}", label(&d.status)));
    (Fact::Build, phrase, reason(d.reason.as_deref()))
}

/// ` (reason)`, or nothing.
fn reason(reason: Option<&str>) -> Phrase<'_> {
    match reason {
        Some(r) => Phrase::default().word(" (").text(r).word(")"),
        None => Phrase::default(),
    }
}

fn criterion<'a>(
    view: &'a View<'a>,
    c: &'a CriterionView,
    outcome: &'a CriterionOutcome,
) -> CriterionItem<'a> {
    let d = &c.data;
    let s = &d.source;
    let quoted = matches!(s.kind, SourceKind::Ticket | SourceKind::Spec);
    let mut source = Phrase::default().word(label(&s.kind));
    if quoted {
        source = source.word(" ").code(s.path.as_deref().unwrap_or(""));
        if let Some(h) = &s.sha256 {
            source = source.word(" (sha256 ").code(short(h)).word(")");
        }
    }
    let said = if quoted { &s.quote } else { &s.text };
    CriterionItem {
        status: label(&outcome.status).to_uppercase(),
        id: &d.id,
        inferred: c.is_inferred(),
        expected: &d.expected,
        source,
        quote_found: quoted.then_some(s.found),
        said: said.as_deref().unwrap_or(""),
        checks: c.checks.iter().map(|k| check(view, k)).collect(),
        reasons: reasons(&outcome.reasons),
    }
}

fn check<'a>(view: &'a View<'a>, check: &'a CheckView) -> CheckItem<'a> {
    let route = check.route.as_ref().map(|r| &r.data);
    CheckItem {
        id: &check.data.id,
        kind: &check.data.kind,
        route: route.map_or("not routed".to_string(), |r| label(&r.decision)),
        route_reason: route.map(|r| r.reason.as_str()),
        status: check
            .observation
            .as_ref()
            .map_or("no observation".to_string(), |o| label(&o.data.status)),
        observed: check.observation.as_ref().map(|o| {
            let o = &o.data;
            Observed {
                expected: &o.expected,
                observed: &o.observed,
                reason: o.reason.as_deref(),
                evidence: evidence_summary(o),
                excerpt: o.evidence.excerpt.as_deref().map(bounded_excerpt),
            }
        }),
        screenshots: check
            .screenshots
            .iter()
            .map(|shot| ShotItem {
                moment: label(&shot.moment),
                sha256: &shot.sha256,
                file: match view.paths {
                    Some(_) => screenshots::file(&shot.sha256),
                    None => shot.path.clone(),
                },
                carried: match view.screenshots.get(&shot.sha256) {
                    Some(Carried::Verified(verified)) => Ok(Png {
                        bytes: verified.bytes,
                        size: verified.size,
                        embed: Embed::Linked,
                        copies: view.screenshots,
                    }),
                    Some(Carried::Refused(why)) => Err(why.as_str()),
                    None => Err("not copied: not read"),
                },
            })
            .collect(),
    }
}

/// The label a criterion heading adds to an inferred criterion.
pub fn inferred_note(inferred: bool) -> &'static str {
    if inferred {
        " (inferred: cannot establish acceptance by itself)"
    } else {
        ""
    }
}
