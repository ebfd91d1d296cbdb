//! The change report as one document for the human formats: the header, the three layers
//! (the QA and risk map, the executable evidence available now, the manual contracts
//! left), capabilities, warnings and the neutralized count, every item with its labels
//! named and its phrases composed. [`Document::write`] decides the order; a [`Writer`]
//! (text, markdown) only lays each part out.

use crate::layers;
use crate::model::{
    evidence_ref, label, receipt_label, Counts, DiagView, Report, ScenarioView, Work,
};
use crate::phrase::{Phrase, Style};
use crate::plain::short;
use qa_records::change::Command;
use qa_records::untrusted::MARKER;
use std::fmt::Write as _;

/// What a section with nothing in it says (a format may capitalize it and end it with a
/// full stop).
pub const NO_SCENARIOS: &str = "no scenarios";
pub const NO_COMMANDS: &str = "none: no route runs a repository command";
pub const NO_MANUAL: &str = "none";

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
    pub focus: String,
    pub confidence: String,
    pub authority: String,
    /// `1 commit`, `3 commits`.
    pub commits: String,
    pub review_required: bool,
    pub files: &'a [String],
    pub scenarios: Vec<ScenarioItem<'a>>,
}

pub struct ScenarioItem<'a> {
    pub title: &'a str,
    pub kind: String,
    /// The route decision, else the scenario's own priority.
    pub priority: String,
    /// `downgraded` or `unrouted`.
    pub note: Option<&'static str>,
    pub work: Vec<Work<'a>>,
    pub proof_gap: Option<&'a str>,
    /// The entrypoints shown, and what qualifies them (`(+N more)`, `(from the intent's
    /// files)`).
    pub reaches: (&'a [String], String),
    pub evidence: Vec<EvidenceItem<'a>>,
    /// The trace's state and execution.
    pub trace: Option<(String, String)>,
}

pub struct EvidenceItem<'a> {
    /// `file:line`, the file, or commit wording.
    pub at: String,
    /// The file and line, when the evidence is a located line.
    pub located: Option<(&'a str, u32)>,
    pub relation: String,
    pub text: &'a str,
}

/// A repository command: routed (with its action contract and what it covers) or
/// additional.
pub struct CommandItem<'a> {
    pub run: &'a str,
    /// What it checks and why it covers the change; None in older streams.
    pub why: Option<Phrase<'a>>,
    pub dir: &'a str,
    pub scope: String,
    pub declared_in: &'a str,
    /// Risk and approval of a routed command's action contract.
    pub contract: Option<(String, &'a str)>,
    /// Decision and title of each scenario a routed command covers.
    pub covers: Vec<(String, &'a str)>,
}

/// One execution: its summary, then what it changed or why it did not finish.
pub struct ExecutionItem<'a> {
    pub summary: Phrase<'a>,
    pub details: Vec<Phrase<'a>>,
}

pub struct ManualItem<'a> {
    pub decision: String,
    pub title: &'a str,
    pub route: Option<ManualRoute<'a>>,
    pub drafts: Vec<DraftItem<'a>>,
}

pub struct ManualRoute<'a> {
    pub action: String,
    pub approval: &'a str,
    pub why: &'a str,
}

pub struct DraftItem<'a> {
    pub format: &'a str,
    /// `fully mapped, 3 of 3 mapped`.
    pub mapped: String,
    pub gaps: &'a [String],
}

pub struct Capability<'a> {
    pub name: String,
    pub status: String,
    pub depth: String,
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
pub fn render(report: &Report, mut writer: impl Writer) -> String {
    Document::of(report).write(&mut writer);
    std::mem::take(&mut writer.sheet().out)
}

impl<'a> Document<'a> {
    /// The document of `report`.
    pub fn of(report: &'a Report) -> Document<'a> {
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
                    name: label(&c.name),
                    status: label(&c.status),
                    depth: label(&c.depth),
                    gap: c.gap.as_deref(),
                })
                .collect(),
            warnings: warnings(layers::warnings(report)),
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
            writer.heading("1. QA and risk map");
            for intent in &layers.intents {
                writer.intent(intent);
            }
            writer.heading("2. Executable evidence available now");
            writer.commands(&layers.commands, &layers.additional);
            writer.executions(&layers.executions);
            writer.heading("3. Manual contracts left");
            writer.manual(&layers.manual);
        }
        if !self.capabilities.is_empty() {
            writer.heading("Capabilities");
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
        .word(format!("), {}, merge base ", label(&r.mode)))
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
                    .map(|s| (s.decision_label(), s.data.title.as_str()))
                    .collect();
                let contract = (label(&g.action.risk), g.action.approval.as_str());
                command(g.command, Some(contract), covers)
            })
            .collect();
        Layers {
            intents: report.intents.iter().map(intent).collect(),
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

fn intent(intent: &crate::model::IntentView) -> IntentItem<'_> {
    let d = &intent.data;
    let n = d.commits.len();
    IntentItem {
        title: &d.title,
        focus: label(&d.focus),
        confidence: label(&d.confidence),
        authority: label(&d.authority),
        // An intent no behaviour commit explains (configuration, uncommitted work, files
        // only maintenance commits touched) comes from the diff: "0 commits" read as empty.
        commits: match n {
            0 => "from the diff, no behaviour commit".to_string(),
            1 => "1 commit".to_string(),
            n => format!("{n} commits"),
        },
        review_required: d.review_required,
        files: &d.files,
        scenarios: intent.scenarios.iter().map(scenario).collect(),
    }
}

fn scenario(s: &ScenarioView) -> ScenarioItem<'_> {
    let d = &s.data;
    ScenarioItem {
        title: &d.title,
        kind: label(&d.kind),
        priority: s.priority_label(),
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
                relation: label(&e.relation),
                text: &e.text,
            })
            .collect(),
        trace: s
            .trace
            .as_ref()
            .map(|t| (label(&t.data.state), label(&t.data.execution))),
    }
}

fn command<'a>(
    c: &'a Command,
    contract: Option<(String, &'a str)>,
    covers: Vec<(String, &'a str)>,
) -> CommandItem<'a> {
    CommandItem {
        run: &c.run,
        why: (!c.why.is_empty()).then(|| {
            Phrase::default()
                .word(format!("{}: ", label(&c.purpose)))
                .text(c.why.as_str())
        }),
        dir: &c.dir,
        scope: label(&c.scope),
        declared_in: &c.declared_in,
        contract,
        covers,
    }
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
        decision: s.decision_label(),
        title: &s.data.title,
        route: s.route.as_ref().map(|r| ManualRoute {
            action: label(&r.data.action.kind),
            approval: &r.data.action.approval,
            why: &r.data.reason,
        }),
        drafts: s
            .drafts
            .iter()
            .map(|d| DraftItem {
                format: &d.data.format,
                mapped: format!(
                    "{}, {} of {} mapped",
                    receipt_label(d.data.receipt),
                    d.data.mapped,
                    d.data.total
                ),
                gaps: &d.data.gaps,
            })
            .collect(),
    }
}
