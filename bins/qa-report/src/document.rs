//! The change report as one document for the human formats: the header, the three layers
//! (the QA and risk map, the executable evidence available now, the manual contracts
//! left), capabilities, warnings and the neutralized count, every item with its labels
//! named and its phrases composed. [`Document::write`] decides the order; a [`Writer`]
//! (text, markdown) only lays each part out.

use crate::layers;
use crate::layers::Diagnostics;
use crate::model::{
    evidence_ref, label, Counts, DiagView, ExecutionView, Report, ScenarioView, Work,
};
use crate::phrase::{Phrase, Style};
use crate::plain::short;
use qa_records::change::Command;
use qa_records::untrusted::MARKER;
use qa_records::words::{self, Words as _};
use std::fmt::Write as _;

/// What a section with nothing in it says (a format may capitalize it and end it with a
/// full stop).
pub const NO_SCENARIOS: &str = "no scenarios";
pub const NO_COMMANDS: &str = "nothing: no repository command covers this change";
pub const NO_MANUAL: &str = "nothing";

/// The three sections' titles: what the change asks of a reviewer.
pub const MAP: &str = "1. What changed and what to test";
pub const RUN: &str = "2. Run this";
pub const MANUAL: &str = "3. What a person must check";
pub const CAPABILITIES: &str = "How far qapipe could read this change";

/// Everything a human change report says, in order.
pub struct Document<'a> {
    pub title: &'static str,
    /// The range line, or a phrase saying the stream has none.
    pub range: Phrase<'a>,
    pub summary: Phrase<'a>,
    /// None without intents: the summary says no behaviour-bearing change was found.
    pub layers: Option<Layers<'a>>,
    pub capabilities: Vec<Capability<'a>>,
    pub warnings: Vec<Phrase<'a>>,
    /// None when nothing was neutralized.
    pub neutralized: Option<Phrase<'a>>,
    /// The head commit's object id, what evidence links point at.
    pub head: Option<&'a str>,
    pub counts: Counts,
    /// The stages of the flow that left no records: the report is incomplete.
    pub missing: &'a [&'static str],
    /// The signal that cut the stream: the report is cancelled.
    pub cancelled: Option<&'static str>,
}

/// The three layers.
pub struct Layers<'a> {
    pub intents: Vec<IntentItem<'a>>,
    pub commands: Vec<CommandItem<'a>>,
    pub additional: Vec<CommandItem<'a>>,
    pub executions: Vec<ExecutionItem<'a>>,
    pub manual: Vec<ManualItem<'a>>,
}

pub struct IntentItem<'a> {
    pub title: &'a str,
    pub focus: &'static str,
    pub confidence: &'static str,
    /// Why it matters: who says so.
    pub authority: &'static str,
    /// `1 commit`, `3 commits`.
    pub commits: String,
    pub review_required: bool,
    pub files: &'a [String],
    pub scenarios: Vec<ScenarioItem<'a>>,
}

pub struct ScenarioItem<'a> {
    pub title: &'a str,
    pub kind: &'static str,
    /// The route decision, else the scenario's own priority, in words.
    pub priority: &'static str,
    /// The record name of the route decision (`unrouted` without a route): a style class.
    pub class: String,
    /// `downgraded` or `not routed`.
    pub note: Option<&'static str>,
    pub work: Vec<Work<'a>>,
    pub proof_gap: Option<&'a str>,
    /// The entrypoints shown, and what qualifies them (`(+N more)`, `(from the intent's
    /// files)`).
    pub reaches: (&'a [String], String),
    pub evidence: Vec<EvidenceItem<'a>>,
    /// How far the trace reaches, and whether the covering command ran (from the
    /// execution record when there is one, else the trace).
    pub trace: Option<(&'static str, &'static str)>,
}

pub struct EvidenceItem<'a> {
    /// `file:line`, the file, or commit wording.
    pub at: String,
    /// The file and line, when the evidence is a located line.
    pub located: Option<(&'a str, u32)>,
    pub relation: &'static str,
    pub text: &'a str,
}

/// A repository command: routed (with its action contract and what it covers) or
/// additional.
pub struct CommandItem<'a> {
    pub run: &'a str,
    /// What it checks and why it covers the change; None in older streams.
    pub why: Option<Phrase<'a>>,
    pub dir: &'a str,
    pub scope: &'static str,
    pub declared_in: &'a str,
    /// A routed command's approval, in words, when it writes or uses the network.
    pub approval: Option<String>,
    /// What it needs that is not there (its runner, or the tool its wrapper starts): the
    /// command stays the one to run, once this is met.
    pub needs: Option<Phrase<'a>>,
    /// Decision (in words and as a style class) and title of each scenario a routed
    /// command covers.
    pub covers: Vec<(Cover, &'a str)>,
}

/// A route decision in words and by its record name (a style class).
#[derive(Clone)]
pub struct Cover {
    pub words: &'static str,
    pub class: String,
}

/// One execution: its summary, then what it changed or why it did not finish.
pub struct ExecutionItem<'a> {
    pub summary: Phrase<'a>,
    pub details: Vec<Phrase<'a>>,
}

pub struct ManualItem<'a> {
    pub decision: Cover,
    pub title: &'a str,
    pub route: Option<ManualRoute<'a>>,
    pub drafts: Vec<DraftItem<'a>>,
}

pub struct ManualRoute<'a> {
    /// What the person does, in words.
    pub action: &'static str,
    pub why: &'a str,
}

pub struct DraftItem<'a> {
    pub format: &'a str,
    /// `fully mapped, 3 of 3 mapped`.
    pub mapped: String,
    pub gaps: &'a [String],
}

pub struct Capability<'a> {
    pub name: &'static str,
    pub status: &'static str,
    /// The status's record name: a style class.
    pub class: String,
    pub depth: &'static str,
    pub gap: Option<&'a str>,
}

/// How a human format marks what every report of either flow has: its phrases, section
/// headings, the warnings list and the closing line.
#[derive(Clone, Copy)]
pub struct Marks {
    pub style: Style,
    /// Before a section title.
    heading: &'static str,
    /// Before a list, and before each of its items.
    list: &'static str,
    item: &'static str,
    /// Around the closing line.
    emphasis: &'static str,
    /// Before the executions (when there are any), before each, before each detail.
    executed: [&'static str; 3],
}

impl Marks {
    pub const fn new(
        style: Style,
        heading: &'static str,
        list: &'static str,
        item: &'static str,
        emphasis: &'static str,
        executed: [&'static str; 3],
    ) -> Marks {
        Marks {
            style,
            heading,
            list,
            item,
            emphasis,
            executed,
        }
    }
}

/// What a human report is written into, with the marks of its format.
pub struct Sheet {
    pub out: String,
    pub marks: Marks,
}

impl Sheet {
    pub fn new(marks: Marks) -> Sheet {
        Sheet {
            out: String::new(),
            marks,
        }
    }

    /// `phrase` as this format shows it.
    pub fn show(&self, phrase: &Phrase<'_>) -> String {
        self.marks.style.show(phrase)
    }

    pub fn heading(&mut self, title: &str) {
        let _ = writeln!(self.out, "\n{}{title}", self.marks.heading);
    }

    /// The Warnings section's items: severity, stage and message.
    pub fn warnings(&mut self, items: &[Phrase<'_>]) {
        self.out.push_str(self.marks.list);
        for w in items {
            let _ = writeln!(self.out, "{}{}", self.marks.item, self.show(w));
        }
    }

    /// The executions: each summary, then what it changed or why it did not finish.
    pub fn executions(&mut self, executions: &[ExecutionItem<'_>]) {
        let [title, item, detail] = self.marks.executed;
        if !executions.is_empty() {
            self.out.push_str(title);
        }
        for e in executions {
            let _ = writeln!(self.out, "{item}{}", self.show(&e.summary));
            for d in &e.details {
                let _ = writeln!(self.out, "{detail}{}", self.show(d));
            }
        }
    }

    /// The closing line, after a blank line.
    pub fn closing(&mut self, line: &Phrase<'_>) {
        let e = self.marks.emphasis;
        let _ = writeln!(self.out, "\n{e}{}{e}", self.show(line));
    }
}

/// A human format: how it lays out each part of a change [`Document`].
pub trait Writer {
    /// Where it writes, and its marks.
    fn sheet(&mut self) -> &mut Sheet;
    fn header(&mut self, title: &str, range: &Phrase<'_>, summary: &Phrase<'_>);
    fn intent(&mut self, intent: &IntentItem<'_>);
    fn commands(&mut self, routed: &[CommandItem<'_>], additional: &[CommandItem<'_>]);
    fn manual(&mut self, items: &[ManualItem<'_>]);
    fn capabilities(&mut self, items: &[Capability<'_>]);

    /// A section's title.
    fn heading(&mut self, title: &str) {
        self.sheet().heading(title);
    }

    /// The executions of `qa-check --exec`.
    fn executions(&mut self, executions: &[ExecutionItem<'_>]) {
        self.sheet().executions(executions);
    }

    /// How the report ends: warnings and the neutralized line (see [`write_tail`]).
    fn tail(&mut self, warnings: &[Phrase<'_>], neutralized: Option<&Phrase<'_>>) {
        write_tail(warnings, neutralized, self.sheet());
    }
}

/// The change report of `report` laid out by `writer`.
pub fn render(report: &Report, shown: Diagnostics, mut writer: impl Writer) -> String {
    Document::of(report, shown).write(&mut writer);
    std::mem::take(&mut writer.sheet().out)
}

impl<'a> Document<'a> {
    /// The document of `report`, listing the `shown` diagnostics.
    pub fn of(report: &'a Report, shown: Diagnostics) -> Document<'a> {
        Document {
            title: if report.cancelled.is_some() {
                "qapipe change report: CANCELLED"
            } else {
                "qapipe change report"
            },
            range: range(report),
            summary: Phrase::default().text(report.summary.as_str()),
            layers: (!report.intents.is_empty()).then(|| Layers::of(report)),
            capabilities: report
                .capabilities
                .iter()
                .map(|c| Capability {
                    name: c.name.words(),
                    status: c.status.words(),
                    class: label(&c.status),
                    depth: c.depth.words(),
                    gap: c.gap.as_deref(),
                })
                .collect(),
            warnings: warnings(layers::warnings(report, shown)),
            neutralized: neutralized(report.neutralized),
            head: report.range.as_ref().map(|r| r.head.oid.as_str()),
            counts: report.counts,
            missing: &report.missing_stages,
            cancelled: report.cancelled,
        }
    }

    /// Lays the document out with `writer`, in the report's order.
    pub fn write(&self, writer: &mut impl Writer) {
        writer.header(self.title, &self.range, &self.summary);
        if let Some(layers) = &self.layers {
            writer.heading(MAP);
            for intent in &layers.intents {
                writer.intent(intent);
            }
            writer.heading(RUN);
            writer.commands(&layers.commands, &layers.additional);
            writer.executions(&layers.executions);
            writer.heading(MANUAL);
            writer.manual(&layers.manual);
        }
        if !self.capabilities.is_empty() {
            writer.heading(CAPABILITIES);
            writer.capabilities(&self.capabilities);
        }
        writer.tail(&self.warnings, self.neutralized.as_ref());
    }
}

/// The Warnings section (when there are any) and the closing neutralized line (when
/// anything was neutralized): how every human report ends.
pub fn write_tail(warnings: &[Phrase<'_>], neutralized: Option<&Phrase<'_>>, sheet: &mut Sheet) {
    if !warnings.is_empty() {
        sheet.heading("Warnings");
        sheet.warnings(warnings);
    }
    if let Some(line) = neutralized {
        sheet.closing(line);
    }
}

/// Each diagnostic as one phrase: severity, stage and message.
pub fn warnings<'a>(diags: impl Iterator<Item = &'a DiagView>) -> Vec<Phrase<'a>> {
    diags
        .map(|d| {
            Phrase::default()
                .strong(label(&d.severity))
                .word(" ")
                .code(d.stage.as_str())
                .word(": ")
                .text(d.message.as_str())
        })
        .collect()
}

/// The line counting neutralized instruction-like strings; None for none.
pub fn neutralized(count: u64) -> Option<Phrase<'static>> {
    (count > 0).then(|| {
        Phrase::default()
            .word(format!(
                "{count} instruction-like string{} neutralized (shown as ",
                if count == 1 { "" } else { "s" }
            ))
            .text(MARKER)
            .word(").")
    })
}

fn range(report: &Report) -> Phrase<'_> {
    let Some(r) = &report.range else {
        return Phrase::default().word("no range record in the stream");
    };
    Phrase::default()
        .code(r.base.name.as_str())
        .word(" (")
        .code(short(&r.base.oid))
        .word(") .. ")
        .code(r.head.name.as_str())
        .word(" (")
        .code(short(&r.head.oid))
        .word(format!("), {}, merge base ", r.mode.words()))
        .code(short(&r.merge_base))
}

impl<'a> Layers<'a> {
    fn of(report: &'a Report) -> Layers<'a> {
        let groups = layers::commands(report);
        let additional = layers::additional(report, &groups)
            .into_iter()
            .map(|c| command(c, None, Vec::new()))
            .collect();
        let commands = groups
            .iter()
            .map(|g| {
                let covers = g
                    .covers
                    .iter()
                    .map(|s| (cover(s), s.data.title.as_str()))
                    .collect();
                command(g.command, words::approval(g.action), covers)
            })
            .collect();
        Layers {
            intents: report
                .intents
                .iter()
                .map(|i| intent(i, &report.executions))
                .collect(),
            commands,
            additional,
            executions: report.executions.iter().map(execution).collect(),
            manual: layers::manual(report)
                .into_iter()
                .map(|(_, s)| manual(s))
                .collect(),
        }
    }
}

/// A scenario's route decision (or `not routed`) in words and as a class.
fn cover(s: &ScenarioView) -> Cover {
    Cover {
        words: s.decision().map_or(words::NOT_ROUTED, |d| d.words()),
        class: s.decision_label(),
    }
}

fn intent<'a>(
    intent: &'a crate::model::IntentView,
    executions: &'a [ExecutionView],
) -> IntentItem<'a> {
    let d = &intent.data;
    let n = d.commits.len();
    IntentItem {
        title: &d.title,
        focus: d.focus.words(),
        confidence: d.confidence.words(),
        authority: d.authority.words(),
        // An intent no behaviour commit explains (configuration, uncommitted work, files
        // only maintenance commits touched) comes from the diff: "0 commits" read as empty.
        commits: match n {
            0 => "from the diff, no behaviour commit".to_string(),
            1 => "1 commit".to_string(),
            n => format!("{n} commits"),
        },
        review_required: d.review_required,
        files: &d.files,
        scenarios: intent
            .scenarios
            .iter()
            .map(|s| scenario(s, executions))
            .collect(),
    }
}

fn scenario<'a>(s: &'a ScenarioView, executions: &'a [ExecutionView]) -> ScenarioItem<'a> {
    let d = &s.data;
    ScenarioItem {
        title: &d.title,
        kind: d.kind.words(),
        priority: s.priority_words(),
        class: s.decision_label(),
        note: s.priority_note(),
        work: s.work(),
        proof_gap: d.proof_gap.as_deref(),
        reaches: s.reach.shown(),
        evidence: d
            .evidence
            .iter()
            .map(|e| EvidenceItem {
                at: evidence_ref(e),
                located: (e.line > 0 && !e.file.is_empty()).then_some((e.file.as_str(), e.line)),
                relation: e.relation.words(),
                text: &e.text,
            })
            .collect(),
        trace: s.trace.as_ref().map(|t| {
            let ran =
                ran(s, executions).map_or(t.data.execution.words(), |e| e.data.status.words());
            (t.data.state.words(), ran)
        }),
    }
}

/// The last execution of the command that covers `s`: one derived from the scenario or
/// its route, else one of the same command line in the same folder (the command covers
/// every scenario routed to it). The trace is written before `qa-check --exec` runs, so
/// only this says whether the command ran.
fn ran<'a>(s: &'a ScenarioView, all: &'a [ExecutionView]) -> Option<&'a ExecutionView> {
    let command = s.route.as_ref().and_then(|r| r.data.command.as_ref());
    s.executions.last().or_else(|| {
        let command = command?;
        all.iter().rev().find(|e| {
            e.data.command.as_deref() == Some(command.run.as_str())
                && e.data.dir.as_deref() == Some(command.dir.as_str())
        })
    })
}

fn command<'a>(
    c: &'a Command,
    approval: Option<String>,
    covers: Vec<(Cover, &'a str)>,
) -> CommandItem<'a> {
    CommandItem {
        run: &c.run,
        why: (!c.why.is_empty()).then(|| {
            Phrase::default()
                .word(format!("{}: ", c.purpose.words()))
                .text(c.why.as_str())
        }),
        dir: &c.dir,
        scope: c.scope.words(),
        declared_in: &c.declared_in,
        approval,
        needs: c.unmet.as_ref().map(|u| needs(&u.precondition)),
        covers,
    }
}

/// A precondition in words, its back-quoted names as names: "needs `pytest` on PATH:
/// activate the project's virtual environment".
fn needs(precondition: &str) -> Phrase<'_> {
    precondition
        .split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .fold(Phrase::default(), |phrase, (i, part)| match i % 2 {
            0 => phrase.text(part),
            _ => phrase.code(part),
        })
}

fn execution(e: &crate::model::ExecutionView) -> ExecutionItem<'static> {
    ExecutionItem {
        summary: Phrase::default().text(e.summary()),
        details: [e.changes(), e.why()]
            .into_iter()
            .flatten()
            .map(|line| Phrase::default().text(line))
            .collect(),
    }
}

fn manual(s: &ScenarioView) -> ManualItem<'_> {
    ManualItem {
        decision: cover(s),
        title: &s.data.title,
        route: s.route.as_ref().map(|r| ManualRoute {
            action: r.data.action.kind.words(),
            why: &r.data.reason,
        }),
        drafts: s
            .drafts
            .iter()
            .map(|d| DraftItem {
                format: &d.data.format,
                mapped: format!(
                    "{}, {} of {} mapped",
                    d.data.receipt.words(),
                    d.data.mapped,
                    d.data.total
                ),
                gaps: &d.data.gaps,
            })
            .collect(),
    }
}
