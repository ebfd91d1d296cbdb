//! The change-flow record payloads (`commit`, `file`, `intent`, `scenario`, `route`,
//! `capability`, `trace`, `draft`): written by one stage, read by the ones after it.
//!
//! Enumerations serialize to the names in `schema/<kind>.schema.json`. Readers ignore
//! unknown fields, so a later stage keeps working when an earlier one adds a field.

use serde::{Deserialize, Serialize};

/// Which kind of evidence a changed path can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Product,
    Command,
    AnalysisRule,
    RepositoryWorkflow,
    Configuration,
    Test,
    Documentation,
    Generated,
}

impl Role {
    /// The stable kebab-case name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Product => "product",
            Role::Command => "command",
            Role::AnalysisRule => "analysis-rule",
            Role::RepositoryWorkflow => "repository-workflow",
            Role::Configuration => "configuration",
            Role::Test => "test",
            Role::Documentation => "documentation",
            Role::Generated => "generated",
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CommitData {
    pub oid: String,
    pub parents: Vec<String>,
    pub merge: bool,
    pub subject: String,
    pub body: String,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub scope: Option<String>,
    pub breaking: bool,
    pub tickets: Vec<String>,
    /// Paths this commit changed against its first parent (old and new path of a
    /// rename); empty for merges, whose content arrives through the merged commits.
    pub files: Vec<String>,
}

/// How a path changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Modified,
    Deleted,
    Renamed,
    Copied,
    Typechange,
}

/// Which comparison a file record belongs to (branch records are written first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Delta {
    /// Merge base against head (or the working tree).
    Branch,
    /// HEAD against the working tree: the task being edited now.
    Current,
}

/// Added or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    #[serde(rename = "+")]
    Add,
    #[serde(rename = "-")]
    Remove,
}

// The file payload types below are written with `Record::new_sorted`: their fields are
// declared in code-point order of their serialized names, so they serialize canonically
// as they are (debug builds check it).

#[derive(Debug, Serialize, Deserialize)]
pub struct HunkLine {
    /// The range commit that added this line, for files more than one commit of the range
    /// changed (absent otherwise, and for removed lines): which work a line belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Head line number for `+`, base line number for `-`.
    pub line: u32,
    pub op: Op,
    pub text: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Hunk {
    pub lines: Vec<HunkLine>,
    pub new_lines: u32,
    pub new_start: u32,
    pub old_lines: u32,
    pub old_start: u32,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct FileData {
    pub added: usize,
    pub binary: bool,
    pub delta: Delta,
    /// Hunks in the whole diff of this file, kept or not.
    pub hunk_count: usize,
    pub hunks: Vec<Hunk>,
    pub new_oid: Option<String>,
    pub old_oid: Option<String>,
    pub old_path: Option<String>,
    /// `old_path`'s raw bytes as hex, when they are not UTF-8 (see `path_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_path_bytes: Option<String>,
    /// Repository-relative; a path that is not UTF-8 is escaped (`\xHH` per byte outside
    /// UTF-8, `\\` per backslash) and its raw bytes are in `path_bytes`.
    pub path: String,
    /// The raw bytes of a path that is not UTF-8, as lowercase hex; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<String>,
    pub removed: usize,
    pub role: Role,
    /// SHA-256 of the new content; None when deleted.
    pub sha256: Option<String>,
    pub status: Status,
    /// True when a limit cut the hunks or their text short.
    pub truncated: bool,
}

/// Committed range or working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Committed,
    Worktree,
}

/// A ref and the commit it names, as a reader of `range` sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RefOid {
    #[serde(rename = "ref")]
    pub name: String,
    pub oid: String,
}

/// What later stages read of a `range` record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RangeView {
    pub base: RefOid,
    pub head: RefOid,
    pub merge_base: String,
    pub mode: Mode,
}

impl RangeView {
    /// Why this range holds no change, as the one sentence every front end shows, or None
    /// when it holds one. `files` is how many `file` records the range has: a working-tree
    /// range on its base is empty only when nothing is changed either.
    pub fn empty_because(&self, files: u64) -> Option<String> {
        if self.head.oid != self.merge_base {
            return None;
        }
        let short = |oid: &str| oid[..oid.len().min(12)].to_string();
        let (head, base) = (short(&self.head.oid), short(&self.base.oid));
        let name = &self.base.name;
        let ask = "name a base (`--base`, `BASE=`)";
        match self.mode {
            Mode::Worktree if files > 0 => None,
            Mode::Worktree => Some(format!(
                "empty range: the working tree has no change and HEAD ({head}) is its base {name}; {ask} or change something"
            )),
            Mode::Committed if self.base.oid == self.head.oid => Some(format!(
                "empty range: {name} and HEAD are the same commit ({head}); {ask} or commit work"
            )),
            Mode::Committed => Some(format!(
                "empty range: HEAD ({head}) is behind its base {name} ({base}), so the range holds no commit; {ask} or commit work"
            )),
        }
    }

    /// The error of a stage whose repository does not hold this range's head commit
    /// (exit 66): its files and history would describe another change than the stream.
    pub fn foreign_to(&self, repo: &std::path::Path, stage: &str) -> anyhow::Error {
        let head = &self.head.oid;
        crate::exit::failure(
            crate::exit::Exit::NoInput,
            format!(
                "repository {} does not hold the range's head commit {}: run {stage} in the repository qa-diff read, or pass --repo",
                repo.display(),
                &head[..head.len().min(12)]
            ),
        )
    }
}

/// How sure an intent is, from connected evidence (never from a title alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

/// Who owns a judgment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Authority {
    /// A reviewed manifest flow protects this behaviour.
    TeamPolicy,
    /// A changed test or an active `@qa*` annotation declares it.
    RepositoryContract,
    /// Derived from commits and diff evidence; always needs approval.
    Inference,
}

/// Why a scenario exists in the QA harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestClass {
    Golden,
    Regression,
    Edge,
}

/// A step of a behaviour lifecycle, in lifecycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Trigger,
    Condition,
    Action,
    StateChange,
    SideEffect,
    ObservableOutcome,
}

/// Which evidence family an intent draws on: product journeys only come from product
/// sources; the others get role-shaped contracts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Focus {
    Product,
    Command,
    AnalysisRule,
    Configuration,
    RepositoryWorkflow,
    /// Only tests changed: the change is its own verification evidence.
    Verification,
    /// Cleanup-shaped work: visible in provenance, no scenarios.
    Cleanup,
}

/// Where an intent's grouping came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IntentSource {
    /// Behaviour-bearing commit text joined with its files.
    Commits,
    /// No usable commit text: files partitioned by anchored vocabulary.
    Vocabulary,
}

/// A changed line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
}

/// One lifecycle step with the changed lines (or commit) it rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LifecycleStep {
    pub stage: Stage,
    pub text: String,
    /// Changed lines; empty when the step comes from commit text alone.
    pub evidence: Vec<Location>,
    /// `commit` or `diff`.
    pub origin: Origin,
}

/// Where a lifecycle step or claim was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Commit,
    Diff,
    Annotation,
    Manifest,
}

/// A changed test: a repository-authored contract.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TestContract {
    pub file: String,
    pub line: u32,
    pub title: String,
    /// `jest` style (`it`/`test`), `pytest`, `go`, `rust`.
    pub framework: String,
    /// The function or case name, when it differs from the title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The values the test expects, read from its assertions (untrusted text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expects: Vec<Expected>,
    /// The marker that skips or disables the test (`#[ignore]`, `test.skip`, `t.Skip`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Changed product items the test calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exercises: Vec<Exercised>,
    /// What the test sets up before the call it checks, in words: options and fields set
    /// to a value, environment, fixtures; else its first statement that calls something
    /// and asserts nothing (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The call whose result the test checks, as written with its arguments (untrusted
    /// text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<String>,
    /// The runner expands the test into cases named under its name (`name::case_1`, rstest's
    /// `#[case]`): a command naming it must select them all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cases: bool,
}

/// One value a changed test expects, at its assertion line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Expected {
    pub line: u32,
    pub text: String,
}

/// A changed product item a test calls: where it starts at head.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Exercised {
    pub file: String,
    pub line: u32,
    pub item: String,
}

/// A `@qaFlow` / `@qaStage` / `@qaOutcome` / `@qaRisk` annotation on a changed export.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Annotation {
    pub file: String,
    pub line: u32,
    /// `flow`, `stage`, `outcome` or `risk`.
    pub tag: String,
    pub value: String,
}

/// `intent` data.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IntentData {
    pub title: String,
    /// The conventional type of the anchor commit, `change` for a plain subject, or
    /// `worktree` for vocabulary partitions.
    #[serde(rename = "type")]
    pub kind: String,
    pub focus: Focus,
    pub source: IntentSource,
    /// Behaviour-bearing commits, anchor first.
    pub commits: Vec<String>,
    /// Cleanup-shaped commits that touched this intent's files: provenance only.
    pub cleanup_commits: Vec<String>,
    pub tickets: Vec<String>,
    pub files: Vec<String>,
    pub confidence: Confidence,
    pub review_required: bool,
    pub cleanup: bool,
    /// Touches the task being edited now (HEAD against the working tree): such intents
    /// are written first, so a long-running branch cannot hide the work in progress.
    /// Absent in streams written before the field existed: read as false.
    #[serde(default)]
    pub current: bool,
    pub lifecycle: Vec<LifecycleStep>,
    pub authority: Authority,
    /// The manifest flow that matched, if any.
    pub flow: Option<String>,
    pub contracts: Vec<TestContract>,
    pub annotations: Vec<Annotation>,
    /// Why this grouping and confidence, in one sentence.
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioKind {
    Primary,
    Failure,
    Boundary,
    StateTransition,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Critical,
    Recommended,
}

/// How a piece of evidence bears on a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The changed line is the behaviour under test.
    Direct,
    /// A changed line the behaviour depends on, or an unchanged check of a changed test
    /// that observes what the change wrote before it.
    Supporting,
    /// Commit wording, annotations or unchanged context.
    Contextual,
}

/// One located piece of scenario evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub file: String,
    /// 0 when the evidence is not a line (commit wording).
    pub line: u32,
    pub relation: Relation,
    /// The lifecycle stage this line supports, when it supports one.
    pub stage: Option<Stage>,
    /// The changed line or commit clause (untrusted text).
    pub text: String,
}

/// `scenario` data.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScenarioData {
    /// The intent record id.
    pub intent: String,
    pub title: String,
    pub kind: ScenarioKind,
    pub priority: Priority,
    pub steps: Vec<String>,
    pub assertions: Vec<String>,
    pub evidence: Vec<Evidence>,
    /// What no changed line proves; null when an observable outcome or durable state is
    /// located.
    pub proof_gap: Option<String>,
    pub authority: Authority,
    pub test_class: TestClass,
    pub focus: Focus,
    /// The entrypoints (`route /checkout`, `command shop`) the behavior graph reaches from
    /// this scenario's directly changed evidence files; empty without a graph.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reaches: Vec<String>,
}

/// Route decision for a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    Required,
    Recommended,
    ReviewOnly,
}

/// What the route asks to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// Run one existing validation command of the repository (`qa-check --exec`).
    RunRepositoryCommand,
    /// No command covers it: write or complete a draft (manual or runner).
    CompleteDraft,
    /// The repository has no validation command for these files: define one.
    DefineCommand,
    /// Commit wording or context only: a person decides whether it matters.
    ReviewScenario,
    /// Run one acceptance check (qa-check).
    RunCheck,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Low,
    Medium,
    High,
}

/// The authority and side effects of a route's action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    pub kind: ActionKind,
    pub risk: Risk,
    /// `required`: a person (or an explicit flag) must approve before anything runs.
    pub approval: String,
    pub executes_code: bool,
    /// What the action may write: `build-artifacts`, `dependencies`, ... (empty: none).
    pub writes: Vec<String>,
    /// Whether the action may use the network (a package manager fetching).
    pub network: bool,
    pub preconditions: Vec<String>,
}

/// How narrowly a validation command targets the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CommandScope {
    /// Exactly the changed tests, by name (pytest node ids, `go test -run '^(A|B)$'`,
    /// a `-t` name filter, libtest filters with `--exact`, `-Dtest=Class#method`).
    ExactTest,
    /// The changed test files, whole.
    File,
    /// The tests under a changed module's path (a libtest `module::` filter).
    Module,
    /// The suite of the package holding the change.
    Package,
    /// The whole repository suite.
    Suite,
}

/// What a validation command checks.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum CommandPurpose {
    /// Runs tests.
    #[default]
    Test,
    /// A declared validation of the package's own configuration (`validate:*` scripts).
    Validate,
    /// Type-checks (`typecheck`, `tsc --noEmit`).
    Typecheck,
    /// Builds the package (`build`) or a platform's app (`build:ios`, `build:android`).
    Build,
    /// Lints (`lint`).
    Lint,
}

/// An existing validation command of the repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// The command line, as a person would type it from `dir`.
    pub run: String,
    /// The program that must be on PATH.
    pub runner: String,
    /// Repository-relative directory to run it from (`.` for the root).
    pub dir: String,
    pub scope: CommandScope,
    /// The file that declares it (Cargo.toml, package.json, Makefile, ...).
    pub declared_in: String,
    /// What it checks. Absent in streams written before the field existed: a test.
    #[serde(default)]
    pub purpose: CommandPurpose,
    /// Why it covers the change, in one clause. Absent in older streams: empty.
    #[serde(default)]
    pub why: String,
    /// What it needs that is not there, when it cannot start as the machine stands (its
    /// runner, or the tool its wrapper starts, is missing); absent when it can start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmet: Option<Unmet>,
}

/// A precondition of a command that the machine does not meet: the command is still the
/// one to run, once it is met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unmet {
    /// The program that is missing: `pytest`, `go`, `vitest`.
    pub program: String,
    pub kind: UnmetKind,
    /// The precondition in words, with what to do: "needs `pytest` on PATH: activate the
    /// project's virtual environment".
    pub precondition: String,
}

/// Which program of a command is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnmetKind {
    /// The command's own runner is not on PATH (`pytest`, `go`, `make`).
    Runner,
    /// The tool a wrapper starts (a Makefile recipe's `go`, a script's `pytest`) is not
    /// on PATH.
    WrappedTool,
    /// The tool a package script starts is not installed in `node_modules/.bin`.
    PackageTool,
}

/// Counts of a scenario's evidence by relation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceCounts {
    pub direct: u32,
    pub supporting: u32,
    pub contextual: u32,
}

/// `route` data for a scenario.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RouteData {
    /// The scenario id.
    pub subject: String,
    pub decision: Decision,
    pub reason: String,
    pub evidence: EvidenceCounts,
    pub action: Action,
    pub command: Option<Command>,
    pub additional_commands: Vec<Command>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapabilityName {
    ChangeIntent,
    BehaviorImpact,
    ScenarioRouting,
    RepositoryValidation,
    AutomationDrafting,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapabilityStatus {
    Available,
    Limited,
    Generic,
    Unavailable,
    NotApplicable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Depth {
    Deep,
    Structural,
    Generic,
    None,
}

/// `capability` data: one receipt per reasoning stage.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CapabilityData {
    pub name: CapabilityName,
    pub status: CapabilityStatus,
    pub depth: Depth,
    /// What is missing for the full contract; null when nothing is.
    pub gap: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceState {
    Traceable,
    Partial,
    ReviewOnly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceStepKind {
    Diff,
    Lifecycle,
    Risk,
    Route,
    Draft,
    Execution,
    /// An acceptance criterion's source: the ticket or spec quote (found or not), or the
    /// request or inferred text.
    Source,
    /// One check of a criterion and its route decision (runnable, blocked, unsupported).
    Check,
    /// One check's observation status, or its absence.
    Observation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExecutionState {
    NotRun,
    Passed,
    Failed,
    Blocked,
}

/// One link of a reasoning path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    pub step: TraceStepKind,
    /// `file:line`, a stage name, a record id, ...
    #[serde(rename = "ref")]
    pub reference: String,
    pub text: String,
}

/// `trace` data: the causal path of one scenario, or of one acceptance criterion.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceData {
    /// The scenario id, or the `criterion` record id.
    pub subject: String,
    pub state: TraceState,
    pub path: Vec<TraceStep>,
    pub execution: ExecutionState,
    pub authority: Authority,
    pub test_class: TestClass,
    /// `required` unless a team-policy flow already approved the judgment.
    pub approval: String,
}

/// A compile receipt: how much of a scenario a draft maps to something checkable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Receipt {
    Compiled,
    Partial,
    NotCompiled,
    ReviewOnly,
}

/// One step or assertion of a draft, and what it maps to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftItem {
    pub text: String,
    /// `file:line` of the located evidence it maps to; null when unmapped.
    pub maps_to: Option<String>,
}

/// `draft` data: a test draft for one routed scenario.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DraftData {
    pub subject: String,
    /// `manual` or `playwright` (a Playwright draft adds `file`, `label` and `mocks`,
    /// written by qa-trace's `playwright` module; see schema/draft.schema.json).
    pub format: String,
    pub receipt: Receipt,
    pub mapped: u32,
    pub total: u32,
    pub steps: Vec<DraftItem>,
    pub assertions: Vec<DraftItem>,
    /// What a person must add before the draft can be followed.
    pub gaps: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(base: &str, head: &str, merge_base: &str, mode: Mode) -> RangeView {
        let oid = |c: &str| c.repeat(40);
        RangeView {
            base: RefOid {
                name: "main".into(),
                oid: oid(base),
            },
            head: RefOid {
                name: "HEAD".into(),
                oid: oid(head),
            },
            merge_base: oid(merge_base),
            mode,
        }
    }

    #[test]
    fn a_range_whose_head_is_its_base_is_empty_and_says_so() {
        let why = range("a", "a", "a", Mode::Committed).empty_because(0);
        assert_eq!(
            why.as_deref(),
            Some("empty range: main and HEAD are the same commit (aaaaaaaaaaaa); name a base (`--base`, `BASE=`) or commit work")
        );
    }

    #[test]
    fn a_head_behind_its_base_is_empty_and_named_as_behind() {
        let why = range("b", "a", "a", Mode::Committed).empty_because(0);
        let why = why.expect("empty");
        assert!(
            why.starts_with(
                "empty range: HEAD (aaaaaaaaaaaa) is behind its base main (bbbbbbbbbbbb)"
            ),
            "{why}"
        );
    }

    #[test]
    fn a_head_ahead_of_its_base_is_not_empty() {
        assert_eq!(range("a", "b", "a", Mode::Committed).empty_because(0), None);
        // Diverged: the merge base is neither end.
        assert_eq!(range("a", "b", "c", Mode::Committed).empty_because(0), None);
    }

    #[test]
    fn a_working_tree_on_its_base_is_empty_only_without_changed_files() {
        let clean = range("a", "a", "a", Mode::Worktree).empty_because(0);
        assert!(clean.is_some_and(|w| w.contains("the working tree has no change")));
        assert_eq!(range("a", "a", "a", Mode::Worktree).empty_because(2), None);
    }
}
