//! The change report's model: a verified stream read into intents with their scenarios,
//! routes, traces and drafts, every source-derived string cleaned by one `Boundary`.

use crate::change::reach::{Graph, Reach};
use qa_records::change::{
    ActionKind, CapabilityData, Decision, DraftData, Evidence, IntentData, Priority, RangeView,
    RouteData, ScenarioData, TraceData,
};
use qa_records::execution::{BlockedReason, ExecutionData, ExecutionStatus, TestOutcome};
use qa_records::exit::{failure, Exit};
use qa_records::graph::{EdgeData, NodeData};
use qa_records::untrusted::{neutralize, reveal, Boundary};
use qa_records::words::Words as _;
use qa_records::{Envelope, Kind};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// Everything a change report shows. Strings are already cleaned.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub range: Option<RangeView>,
    /// One line: how many intents and scenarios, by decision.
    pub summary: String,
    pub counts: Counts,
    pub commits: Vec<CommitView>,
    /// Most urgent first: by their most urgent scenario, then stream order.
    pub intents: Vec<IntentView>,
    pub capabilities: Vec<CapabilityData>,
    pub diagnostics: Vec<DiagView>,
    pub executions: Vec<ExecutionView>,
    /// Records read, by kind (including kinds this report does not render).
    pub records: BTreeMap<String, u64>,
    /// The stages of the change flow that left no records: a report of a stream that ends
    /// early is incomplete, never a pass.
    pub missing_stages: Vec<&'static str>,
    /// The signal (`SIGINT`, `SIGTERM`) that cut the stream while qa-report read it: the
    /// report shows what was read before, cancelled, never a pass.
    pub cancelled: Option<&'static str>,
    /// Instruction-like spans replaced by the marker.
    pub neutralized: u64,
    /// Why the range holds no change (HEAD is its base or behind it): the summary, and a
    /// report that is neither a pass nor a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_range: Option<String>,
}

/// Scenarios by route decision.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub intents: u64,
    pub scenarios: u64,
    pub required: u64,
    pub recommended: u64,
    pub review_only: u64,
    /// Scenarios no route record names.
    pub unrouted: u64,
}

/// What the report shows of a `commit` record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CommitView {
    pub oid: String,
    pub subject: String,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub tickets: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct IntentView {
    pub id: String,
    #[serde(flatten)]
    pub data: IntentData,
    /// Required first, then recommended, review-only and unrouted; stream order within.
    pub scenarios: Vec<ScenarioView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ScenarioView {
    pub id: String,
    #[serde(flatten)]
    pub data: ScenarioData,
    pub route: Option<Linked<RouteData>>,
    pub trace: Option<Linked<TraceData>>,
    pub drafts: Vec<Linked<DraftData>>,
    pub executions: Vec<ExecutionView>,
    /// The entrypoints the text and markdown reports name (the record's `reaches` plus
    /// the stream's behavior graph); JSON keeps the record's own `reaches`.
    #[serde(skip)]
    pub reach: Reach,
}

/// Steps a human report lists per scenario; the rest are counted.
pub const MAX_STEPS: usize = 8;

/// Assertions a human report lists per scenario; the rest are counted.
pub const MAX_ASSERTIONS: usize = 6;

/// The first `max` of `items` and how many were left out.
pub fn bounded<T>(items: &[T], max: usize) -> (&[T], usize) {
    let shown = &items[..items.len().min(max)];
    (shown, items.len() - shown.len())
}

/// One line of what a human report lists of a scenario's work, in order: the steps
/// numbered from 1, then what to verify, each list bounded with what it left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work<'a> {
    Step(usize, &'a str),
    MoreSteps(usize),
    Verify(&'a str),
    MoreToVerify(usize),
}

/// A record tied to a scenario, with its own id.
#[derive(Debug, Clone, Serialize)]
pub struct Linked<T> {
    pub id: String,
    #[serde(flatten)]
    pub data: T,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// A `diag` record, or a problem this report found in how records link.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiagView {
    pub severity: Severity,
    pub stage: String,
    pub message: String,
    #[serde(default)]
    pub subjects: Vec<String>,
}

/// An `execution` record (qa-check --exec) with its id.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecutionView {
    #[serde(default)]
    pub id: String,
    #[serde(flatten)]
    pub data: ExecutionData,
}

impl ExecutionView {
    /// One line in a reviewer's words: the command and where it ran, what it came to (its status with the tests
    /// its runner reported: "passed: ran 12 tests, the 2 changed ones passed", "ran no
    /// test: empty, not a pass", "blocked: `go` is not installed", "passed (tests not
    /// counted)"), exit code or signal, and duration.
    pub fn summary(&self) -> String {
        let d = &self.data;
        let plural = |n: u64, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let ran = d
            .tests
            .map(|t| format!("ran {}", plural(t.ran, "test", "tests")));
        let changed_passed = d
            .changed_tests
            .iter()
            .filter(|t| t.outcome == Some(TestOutcome::Passed))
            .count() as u64;
        let not_run: Vec<&str> = d
            .changed_tests
            .iter()
            .filter(|t| !t.ran)
            .map(|t| t.name.as_str())
            .collect();
        // Every phrase starts with whether it ran, as the record words do ("ran: failed",
        // "not run: blocked"), and then says what the runner counted.
        let outcome = match (d.status, &ran, d.tests) {
            (ExecutionStatus::Passed, Some(ran), _) if changed_passed > 0 => {
                let changed = match changed_passed {
                    1 => "the changed one".to_string(),
                    k => format!("the {k} changed ones"),
                };
                format!("{ran}: passed, {changed} passed")
            }
            (ExecutionStatus::Passed, Some(ran), _) => format!("{ran}: passed"),
            (ExecutionStatus::Passed, None, _) => "ran: passed (tests not counted)".to_string(),
            (ExecutionStatus::Failed, Some(ran), Some(t)) if t.failed > 0 => {
                format!("{ran}: {} failed", t.failed)
            }
            (ExecutionStatus::Empty, _, _) => "ran no test: empty, not a pass".to_string(),
            (ExecutionStatus::Incomplete, ran, _) => {
                let ran = ran.clone().unwrap_or_else(|| "ran tests".to_string());
                format!("{ran}: incomplete, not the changed {}", not_run.join(", "))
            }
            (ExecutionStatus::Blocked, _, _) if d.blocked == Some(BlockedReason::RunnerMissing) => {
                let what = d.reason.as_deref().unwrap_or("its runner is missing");
                let what = what.split(" (").next().unwrap_or(what);
                format!("not run: blocked, {what}")
            }
            (status, _, _) => status.words().to_string(),
        };
        let mut line = match (&d.command, &d.dir) {
            (Some(run), Some(dir)) => format!("{run} (in {dir}) {outcome}"),
            (Some(run), None) => format!("{run} {outcome}"),
            (None, _) => format!("no command, {outcome}"),
        };
        if let Some(code) = d.exit_code {
            line.push_str(&format!(", exit {code}"));
        }
        if let Some(signal) = d.signal {
            line.push_str(&format!(", signal {signal}"));
        }
        if d.status != ExecutionStatus::Blocked {
            line.push_str(&format!(", {} ms", d.duration_ms));
        }
        line
    }

    /// What the command changed in the repository; None when it did not run.
    pub fn changes(&self) -> Option<String> {
        let d = &self.data;
        let changed = d.changed?;
        if !changed.any() {
            return Some("repository unchanged".to_string());
        }
        let mut line = format!(
            "changed the repository: {}",
            self.changed_parts().join(", ")
        );
        if !d.changed_paths.is_empty() {
            line.push_str(&format!("; paths: {}", d.changed_paths.join(", ")));
            let more = d
                .changed_paths_total
                .saturating_sub(d.changed_paths.len() as u64);
            if more > 0 {
                line.push_str(&format!(" and {more} more"));
            }
        }
        if !d.changed_git.is_empty() {
            line.push_str(&format!("; git: {}", d.changed_git.join(", ")));
        }
        Some(line)
    }

    /// The parts of the repository the command changed, by their record names (`head`,
    /// `branch`, `index`, `worktree`, `git`); empty when unchanged or not run.
    pub fn changed_parts(&self) -> Vec<&'static str> {
        self.data.changed.map_or_else(Vec::new, |c| {
            [
                (c.head, "head"),
                (c.branch, "branch"),
                (c.index, "index"),
                (c.worktree, "worktree"),
                (c.git, "git"),
            ]
            .into_iter()
            .filter_map(|(yes, name)| yes.then_some(name))
            .collect()
        })
    }

    /// Why it was blocked, timed out or cancelled; None otherwise (a change is said by
    /// [`ExecutionView::changes`]).
    pub fn why(&self) -> Option<String> {
        let d = &self.data;
        let reason = d.reason.as_deref().unwrap_or("no reason given");
        match (d.status, d.blocked) {
            (ExecutionStatus::Blocked, Some(kind)) => Some(format!("{}: {reason}", kind.words())),
            (
                ExecutionStatus::Blocked
                | ExecutionStatus::TimedOut
                | ExecutionStatus::Cancelled
                | ExecutionStatus::Empty
                | ExecutionStatus::Incomplete,
                _,
            ) => Some(reason.to_string()),
            _ => None,
        }
    }
}

impl ScenarioView {
    pub fn decision(&self) -> Option<Decision> {
        self.route.as_ref().map(|r| r.data.decision)
    }

    /// The route decision's name, or `unrouted`.
    pub fn decision_label(&self) -> String {
        self.decision()
            .map_or_else(|| "unrouted".to_string(), |d| label(&d))
    }

    /// The one priority a scenario line shows, in words: the route decision when a route
    /// names the scenario (what the team acts on), else the scenario's own priority.
    pub fn priority_words(&self) -> &'static str {
        self.decision()
            .map_or_else(|| self.data.priority.words(), |d| d.words())
    }

    /// Words qualifying [`ScenarioView::priority_words`]: `downgraded` for a critical
    /// scenario its route left review only, `not routed` when no route names it.
    pub fn priority_note(&self) -> Option<&'static str> {
        match (self.decision(), self.data.priority) {
            (None, _) => Some(qa_records::words::NOT_ROUTED),
            (Some(Decision::ReviewOnly), Priority::Critical) => Some(qa_records::words::DOWNGRADED),
            _ => None,
        }
    }

    /// The scenario's steps and assertions as a human report lists them (see [`Work`]).
    pub fn work(&self) -> Vec<Work<'_>> {
        let (steps, more_steps) = bounded(&self.data.steps, MAX_STEPS);
        let (assertions, more_assertions) = bounded(&self.data.assertions, MAX_ASSERTIONS);
        let mut lines: Vec<Work<'_>> = steps
            .iter()
            .enumerate()
            .map(|(n, step)| Work::Step(n + 1, step))
            .collect();
        lines.extend((more_steps > 0).then_some(Work::MoreSteps(more_steps)));
        lines.extend(assertions.iter().map(|a| Work::Verify(a)));
        lines.extend((more_assertions > 0).then_some(Work::MoreToVerify(more_assertions)));
        lines
    }

    /// One line for a code-scanning finding or annotation: decision, kind, title, intent,
    /// proof gap and the command that would prove it.
    pub fn finding(&self, intent: &IntentView) -> String {
        let mut message = format!(
            "{} {} scenario: {} (intent: {}).",
            self.decision_label(),
            label(&self.data.kind),
            self.data.title.trim_end_matches('.'),
            intent.data.title.trim_end_matches('.')
        );
        if let Some(gap) = &self.data.proof_gap {
            // Proof gaps are sentences already: one full stop, never "..".
            message.push_str(&format!(
                " Proof gap: {}.",
                gap.trim_end().trim_end_matches('.')
            ));
        }
        if let Some(c) = self.route.as_ref().and_then(|r| r.data.command.as_ref()) {
            message.push_str(&format!(" Run: {} (in {}).", c.run, c.dir));
        }
        message
    }

    /// Sort rank: required, recommended, review-only, then unrouted.
    fn rank(&self) -> u8 {
        match self.decision() {
            Some(Decision::Required) => 0,
            Some(Decision::Recommended) => 1,
            Some(Decision::ReviewOnly) => 2,
            None => 3,
        }
    }

    /// True when a person, not a repository command, must act: no route, or a route
    /// whose action is not running a repository command.
    pub fn is_manual(&self) -> bool {
        self.route
            .as_ref()
            .is_none_or(|r| r.data.action.kind != ActionKind::RunRepositoryCommand)
    }

    /// Located direct and supporting evidence (`file`, `line`), the lines a finding points at.
    pub fn locations(&self) -> Vec<(&str, u32)> {
        use qa_records::change::Relation;
        let mut out: Vec<(&str, u32)> = Vec::new();
        for e in &self.data.evidence {
            let located = e.line > 0 && !e.file.is_empty();
            let bears = matches!(e.relation, Relation::Direct | Relation::Supporting);
            if located && bears && !out.contains(&(e.file.as_str(), e.line)) {
                out.push((e.file.as_str(), e.line));
            }
        }
        out
    }
}

impl Report {
    /// Scenarios in report order (intents most urgent first, then their scenarios).
    pub fn scenarios(&self) -> impl Iterator<Item = (&IntentView, &ScenarioView)> {
        self.intents
            .iter()
            .flat_map(|i| i.scenarios.iter().map(move |s| (i, s)))
    }

    /// Every scenario, required first, then recommended, review-only and unrouted;
    /// report order within each.
    pub fn by_decision(&self) -> Vec<(&IntentView, &ScenarioView)> {
        let mut all: Vec<_> = self.scenarios().collect();
        all.sort_by_key(|(_, s)| s.rank());
        all
    }
}

impl Report {
    /// Marks the report incomplete: its stream has no records from `missing` stages. The
    /// summary says so first, in every format.
    pub fn ends_early(&mut self, missing: Vec<&'static str>) {
        if missing.is_empty() {
            return;
        }
        self.summary = format!("{}; {}", crate::flow::ends_early(&missing), self.summary);
        self.missing_stages = missing;
    }

    /// Marks the report cancelled: `signal` cut its stream after the records read, and
    /// `missing` stages had left none by then. The summary says so first, in every format.
    pub fn cancelled_by(&mut self, signal: Exit, missing: Vec<&'static str>) {
        let name = qa_records::cancel::signal_name(signal);
        let records: u64 = self.records.values().sum();
        self.summary = format!(
            "{}; {}",
            crate::flow::cut(name, records, &missing),
            self.summary
        );
        self.cancelled = Some(name);
        self.missing_stages = missing;
    }

    /// The flow reached the report whole: no stage is missing and no signal cut it.
    pub fn finished(&self) -> bool {
        self.missing_stages.is_empty() && self.cancelled.is_none()
    }
}

/// The stable kebab-case or lowercase name of a record enum value, as serde writes it.
pub fn label<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::from("?"),
    }
}

/// Where a piece of evidence is: `file:line`, the file alone, or commit wording.
pub fn evidence_ref(e: &Evidence) -> String {
    match (e.line, e.file.is_empty()) {
        (0, true) => "commit wording".to_string(),
        // qa-intent names commit wording by the commit's object id.
        (0, false) if e.file.len() >= 40 && e.file.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!("commit {}", &e.file[..12])
        }
        (0, false) => e.file.clone(),
        (line, _) => format!("{}:{line}", e.file),
    }
}

/// What a scenario's trailing records attach to before the report is assembled.
#[derive(Default)]
struct Pending {
    intents: Vec<(String, IntentData)>,
    scenarios: Vec<ScenarioView>,
    routes: Vec<Linked<RouteData>>,
    traces: Vec<Linked<TraceData>>,
    drafts: Vec<Linked<DraftData>>,
    /// Executions with the ids their `from` names.
    executions: Vec<(Vec<String>, ExecutionView)>,
}

/// Reads a verified change stream record by record into a [`Report`], keeping only what
/// the report shows. A record of a kind this report renders whose data does not fit its
/// contract is bad input (exit 65).
#[derive(Default)]
pub struct Builder {
    boundary: Boundary,
    report: Report,
    pending: Pending,
    graph: Graph,
}

impl Builder {
    /// Takes the record on line `line` of `source`; `text` is its data's canonical text
    /// when its data was left unbuilt ([`qa_records::Envelope::parse_canonical`]).
    pub fn take(
        &mut self,
        source: &str,
        line: u64,
        envelope: &Envelope,
        text: Option<&RawValue>,
    ) -> anyhow::Result<()> {
        *self
            .report
            .records
            .entry(envelope.kind.clone())
            .or_default() += 1;
        let Some(kind) = envelope.known_kind() else {
            return Ok(());
        };
        // The behavior graph only adds to what scenarios reach: a graph record that does
        // not fit its contract is passed over (its names are cleaned when shown).
        match kind {
            Kind::Node => {
                if let Ok(node) = graph_data::<NodeData>(envelope, text) {
                    self.graph.node(envelope.id.clone(), node);
                }
                return Ok(());
            }
            Kind::Edge => {
                if let Ok(edge) = graph_data::<EdgeData>(envelope, text) {
                    self.graph.edge(edge);
                }
                return Ok(());
            }
            _ if !RENDERED.contains(&kind) => return Ok(()),
            _ => {}
        }
        let mut data = envelope.data.clone();
        if let Some(fields) = data.as_object_mut() {
            // Commit bodies are not shown; their text is neither rendered nor counted.
            fields.remove("body");
        }
        // A command is shown as the route wrote it: rewriting it would show a command
        // that is not the routed one. One the boundary would change is marked instead.
        let commands = take_commands(kind, &mut data);
        self.boundary.clean_json(&mut data);
        for (pointer, command) in commands {
            if neutralize(&command).0 != command {
                self.report
                    .diagnostics
                    .push(unsafe_command(&envelope.id, &pointer));
            }
            if let Some(slot) = data.pointer_mut(&pointer) {
                *slot = Value::String(reveal(&command).into_owned());
            }
        }
        let kind_name = envelope.kind.as_str();
        let read = |e: serde_json::Error| {
            failure(
                Exit::DataErr,
                format!("{source} line {line}: `{kind_name}` record data: {e}"),
            )
        };
        macro_rules! data {
            () => {
                serde_json::from_value(data).map_err(read)?
            };
        }
        let id = envelope.id.clone();
        let (report, pending) = (&mut self.report, &mut self.pending);
        match kind {
            Kind::Range => report.range = Some(data!()),
            Kind::Commit => report.commits.push(data!()),
            Kind::Intent => pending.intents.push((id, data!())),
            Kind::Scenario => pending.scenarios.push(ScenarioView {
                id,
                data: data!(),
                route: None,
                trace: None,
                drafts: Vec::new(),
                executions: Vec::new(),
                reach: Reach::default(),
            }),
            Kind::Route => pending.routes.push(Linked { id, data: data!() }),
            Kind::Trace => pending.traces.push(Linked { id, data: data!() }),
            Kind::Draft => pending.drafts.push(Linked { id, data: data!() }),
            Kind::Capability => report.capabilities.push(data!()),
            Kind::Diag => report.diagnostics.push(data!()),
            Kind::Execution => {
                let mut execution: ExecutionView = data!();
                execution.id = id;
                pending.executions.push((envelope.from.clone(), execution));
            }
            _ => unreachable!("only rendered kinds reach here"),
        }
        Ok(())
    }

    /// The report, its records nested and its scenarios' reaches named.
    pub fn finish(self) -> Report {
        let Builder {
            mut boundary,
            mut report,
            pending,
            mut graph,
        } = self;
        assemble(&mut report, pending);
        name_reaches(&mut report, &mut graph, &mut boundary);
        report.neutralized = boundary.count();
        let files = report.records.get("file").copied().unwrap_or(0);
        report.empty_range = report.range.as_ref().and_then(|r| r.empty_because(files));
        if let Some(why) = &report.empty_range {
            report.summary = why.clone();
        }
        report
    }
}

/// The JSON pointers and texts of the commands in a record's data (a route's command
/// and additional commands, an execution's command), each left as an empty string.
fn take_commands(kind: Kind, data: &mut Value) -> Vec<(String, String)> {
    let mut pointers = Vec::new();
    match kind {
        Kind::Route => {
            pointers.push("/command/run".to_string());
            let additional = data["additional_commands"].as_array().map_or(0, Vec::len);
            pointers.extend((0..additional).map(|i| format!("/additional_commands/{i}/run")));
        }
        Kind::Execution => pointers.push("/command".to_string()),
        _ => {}
    }
    pointers
        .into_iter()
        .filter_map(|pointer| match data.pointer_mut(&pointer) {
            Some(Value::String(command)) => {
                let command = std::mem::take(command);
                Some((pointer, command))
            }
            _ => None,
        })
        .collect()
}

/// The warning for a command holding instruction-like text or hidden characters: shown
/// as written (in a code span), never edited, and refused by `qa-check --exec`.
fn unsafe_command(id: &str, pointer: &str) -> DiagView {
    DiagView {
        severity: Severity::Warning,
        stage: "qa-report".to_string(),
        message: format!(
            "{id} {pointer}: the command holds instruction-like text or hidden characters; it is shown as written (hidden characters as U+FFFD), not cleaned, and qa-check --exec refuses to run it"
        ),
        subjects: vec![id.to_string()],
    }
}

/// A graph record's data: read from its canonical text when the envelope left it as
/// that (the same fields as from the tree: canonical text holds no key twice).
fn graph_data<T: serde::de::DeserializeOwned>(
    envelope: &Envelope,
    text: Option<&RawValue>,
) -> serde_json::Result<T> {
    match text {
        Some(text) if envelope.data.is_null() => serde_json::from_str(text.get()),
        _ => T::deserialize(&envelope.data),
    }
}

/// The kinds a change report reads; others are only counted.
pub(crate) const RENDERED: [Kind; 10] = [
    Kind::Range,
    Kind::Commit,
    Kind::Intent,
    Kind::Scenario,
    Kind::Route,
    Kind::Trace,
    Kind::Draft,
    Kind::Capability,
    Kind::Diag,
    Kind::Execution,
];

/// Nests routes, traces, drafts and executions under their scenarios and scenarios under
/// their intents; what names a missing subject becomes a warning.
fn assemble(report: &mut Report, pending: Pending) {
    let Pending {
        intents,
        mut scenarios,
        routes,
        traces,
        drafts,
        executions,
    } = pending;
    let index: HashMap<String, usize> = scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let mut orphan = |what: &str, id: &str, subject: &str| {
        report.diagnostics.push(DiagView {
            severity: Severity::Warning,
            stage: "qa-report".into(),
            message: format!("{what} {id} names {subject}, which is not in the stream"),
            subjects: vec![id.to_string()],
        })
    };
    for route in routes {
        match index.get(&route.data.subject) {
            Some(&i) if scenarios[i].route.is_none() => scenarios[i].route = Some(route),
            Some(_) => orphan("route", &route.id, "a scenario already routed"),
            None => orphan("route", &route.id, &route.data.subject.clone()),
        }
    }
    for trace in traces {
        match index.get(&trace.data.subject) {
            Some(&i) if scenarios[i].trace.is_none() => scenarios[i].trace = Some(trace),
            Some(_) => orphan("trace", &trace.id, "a scenario already traced"),
            None => orphan("trace", &trace.id, &trace.data.subject.clone()),
        }
    }
    for draft in drafts {
        match index.get(&draft.data.subject) {
            Some(&i) => scenarios[i].drafts.push(draft),
            None => orphan("draft", &draft.id, &draft.data.subject.clone()),
        }
    }
    // An execution belongs to the scenario (or the route of the scenario) it derives from.
    let by_route: HashMap<String, usize> = scenarios
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.route.as_ref().map(|r| (r.id.clone(), i)))
        .collect();
    for (from, execution) in executions {
        for i in from
            .iter()
            .filter_map(|id| index.get(id).or(by_route.get(id)))
        {
            scenarios[*i].executions.push(execution.clone());
        }
        report.executions.push(execution);
    }
    let mut views: Vec<IntentView> = intents
        .into_iter()
        .map(|(id, data)| IntentView {
            id,
            data,
            scenarios: Vec::new(),
        })
        .collect();
    let by_intent: HashMap<String, usize> = views
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id.clone(), i))
        .collect();
    for scenario in scenarios {
        match by_intent.get(&scenario.data.intent) {
            Some(&i) => views[i].scenarios.push(scenario),
            None => orphan("scenario", &scenario.id, &scenario.data.intent.clone()),
        }
    }
    for view in &mut views {
        view.scenarios.sort_by_key(ScenarioView::rank);
    }
    views.sort_by_key(|v| {
        v.scenarios
            .iter()
            .map(ScenarioView::rank)
            .min()
            .unwrap_or(4)
    });
    report.intents = views;
    report.counts = count(&report.intents);
    report.summary = summary(&report.counts);
}

/// Gives each scenario its [`Reach`]: its record's `reaches` and what the behavior graph
/// reaches from its located evidence files, or from its intent's files.
fn name_reaches(report: &mut Report, graph: &mut Graph, boundary: &mut Boundary) {
    for intent in &mut report.intents {
        for s in &mut intent.scenarios {
            let mut located: Vec<&str> = Vec::new();
            for e in s.data.evidence.iter().filter(|e| e.line > 0) {
                if !located.contains(&e.file.as_str()) {
                    located.push(&e.file);
                }
            }
            s.reach = graph.reach(&s.data.reaches, &located, &intent.data.files, boundary);
        }
    }
}

fn count(intents: &[IntentView]) -> Counts {
    let mut counts = Counts {
        intents: intents.len() as u64,
        ..Counts::default()
    };
    for s in intents.iter().flat_map(|i| &i.scenarios) {
        counts.scenarios += 1;
        match s.decision() {
            Some(Decision::Required) => counts.required += 1,
            Some(Decision::Recommended) => counts.recommended += 1,
            Some(Decision::ReviewOnly) => counts.review_only += 1,
            None => counts.unrouted += 1,
        }
    }
    counts
}

fn summary(c: &Counts) -> String {
    if c.intents == 0 {
        return "no behaviour-bearing change found".into();
    }
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut s = format!(
        "{}, {}: {} required, {} recommended, {} review only",
        plural(c.intents, "intent", "intents"),
        plural(c.scenarios, "scenario", "scenarios"),
        c.required,
        c.recommended,
        c.review_only
    );
    if c.unrouted > 0 {
        s.push_str(&format!(
            ", {} {}",
            c.unrouted,
            qa_records::words::NOT_ROUTED
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::Relation;

    fn at(file: &str, line: u32) -> Evidence {
        Evidence {
            file: file.to_string(),
            line,
            relation: Relation::Contextual,
            stage: None,
            text: String::new(),
        }
    }

    #[test]
    fn evidence_names_a_line_a_commit_or_commit_wording() {
        assert_eq!(evidence_ref(&at("src/cart.ts", 12)), "src/cart.ts:12");
        assert_eq!(
            evidence_ref(&at(&"ab12".repeat(10), 0)),
            "commit ab12ab12ab12"
        );
        assert_eq!(evidence_ref(&at("", 0)), "commit wording");
        // A file that is not an object id keeps its name.
        assert_eq!(evidence_ref(&at("README.md", 0)), "README.md");
    }
}
