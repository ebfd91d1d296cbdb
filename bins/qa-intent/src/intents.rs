//! Assembling intents from a changeset: commit groups, cleanup provenance, vocabulary
//! partitions, changed tests, configuration, confidence and authority.

mod assessment;
mod evidence;
mod grouping;

use std::collections::{BTreeMap, BTreeSet};

use qa_records::change::{Annotation, CommitData, Focus, IntentData, Op, Role, Stage};

use crate::behaviour::{self, CommitClass};
use crate::changeset::{bears_behaviour, Changeset};
use crate::deltas::{Components, Deltas, FileDelta};
use crate::lifecycle::{self, Fact, FactKind, Reading};
use crate::manifest::{Criticality, Manifest};
use assessment::Evidence;
pub(crate) use evidence::string_literals;
use grouping::Group;

/// An intent before it becomes a record: its data and the facts its scenarios rest on.
#[derive(Debug, Clone)]
pub struct Intent {
    pub data: IntentData,
    /// Located facts of this intent's files; `weak` facts sit in a file another intent
    /// also changed and share no vocabulary with this one.
    pub facts: Vec<(Fact, bool)>,
    /// Record ids this intent rests on (commits and files).
    pub from: Vec<String>,
    /// Critical by manifest, annotation or a breaking change.
    pub critical: bool,
    /// Anchor commit description, for contextual evidence.
    pub wording: Option<(String, String)>,
    /// Path of each file in the intent with its role.
    pub roles: BTreeMap<String, Role>,
    /// Outcomes the matching manifest flow expects and forbids (team policy).
    pub expected: Vec<String>,
    pub forbidden: Vec<String>,
    /// What the syntax trees say changed in this intent's files, by path.
    pub deltas: BTreeMap<String, FileDelta>,
    /// String literals on the added lines of this intent's product and command files:
    /// a test expectation quoting one of them asserts what the change does.
    pub product_literals: BTreeSet<String>,
    /// Every string literal on those added lines, as written with its quotes (`"{}"`):
    /// an entry whose key the change writes again elsewhere is re-expressed, not gone.
    pub product_strings: BTreeSet<String>,
    /// The non-blank lines the intent's commits wrote in each of its test files, with
    /// their text (head numbering).
    pub written_tests: BTreeMap<String, Vec<(u32, String)>>,
    /// The test files the intent's commits changed only by removing lines, with the head
    /// line where the first removal was and the first removed line worth quoting.
    pub shortened_tests: BTreeMap<String, (u32, String)>,
}

/// Most lifecycle steps kept per stage.
const PER_STAGE: usize = 4;

/// Builds every intent of the change, in a stable order: commit intents by anchor, then
/// standalone cleanup, vocabulary partitions, configuration, workflow and test evidence.
/// `components` holds the line facts of the changed files with no delta that a grammar
/// still reads (Vue, Svelte).
pub fn derive(
    cs: &Changeset,
    manifest: Option<&Manifest>,
    deltas: &Deltas,
    components: &Components,
) -> Vec<Intent> {
    let readings = readings(cs, deltas, components);
    let role = |p: &str| cs.role(p);

    let mut behaviour = Vec::new();
    let mut cleanups = Vec::new();
    // Files only maintenance commits (docs, style, chore, ...) touched carry no intent;
    // files an unusable commit (`wip`) or the working tree touched are partitioned.
    let mut maintained: BTreeSet<&str> = BTreeSet::new();
    let mut unexplained: BTreeSet<&str> = cs.current.iter().map(|f| f.data.path.as_str()).collect();
    for (i, c) in cs.commits.iter().enumerate() {
        match behaviour::classify(&c.data, role, || cs.verdict(&c.data)) {
            CommitClass::Behaviour(rank) => behaviour.push((i, rank)),
            CommitClass::Cleanup => cleanups.push(i),
            CommitClass::Maintenance => maintained.extend(c.data.files.iter().map(String::as_str)),
            CommitClass::Unusable => unexplained.extend(c.data.files.iter().map(String::as_str)),
        }
    }
    let committed: BTreeSet<&str> = cs
        .commits
        .iter()
        .flat_map(|c| c.data.files.iter().map(String::as_str))
        .collect();

    let mut groups = grouping::commit_groups(cs, &behaviour, &role);
    let assigned: BTreeSet<&str> = groups
        .iter()
        .flat_map(|g| g.files.iter().map(String::as_str))
        .collect();
    // Behaviour files no commit text explains.
    let loose: Vec<&str> = cs
        .files
        .iter()
        .map(|f| f.data.path.as_str())
        .filter(|p| !assigned.contains(*p) && role(p).is_some_and(bears_behaviour))
        .filter(|p| unexplained.contains(p) || !(maintained.contains(p) || committed.contains(p)))
        .collect();
    groups.extend(grouping::vocabulary_groups(cs, &loose, &readings));
    grouping::attach_cleanups(&mut groups, cs, &cleanups, &role);
    let loose_tests = grouping::attach_tests(&mut groups, cs, &readings, deltas, &role);
    let leftovers = grouping::leftover_groups(&groups, cs, loose_tests, &role);
    groups.extend(leftovers);

    // Which intents share each file, to tell their lines apart.
    let mut owners: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &groups {
        for f in &g.files {
            *owners.entry(f.as_str()).or_default() += 1;
        }
    }
    let mut intents: Vec<Intent> = groups
        .iter()
        .map(|g| build(cs, g, &readings, &owners, manifest, deltas))
        .collect();
    // The work being edited now first; otherwise the order above (a stable sort).
    intents.sort_by_key(|i| !i.data.current);
    intents
}

/// Each changed file read for facts; a fact on an added copy of a line the change removed
/// anywhere is not new.
fn readings<'a>(
    cs: &'a Changeset,
    deltas: &Deltas,
    components: &Components,
) -> BTreeMap<&'a str, Reading> {
    let moved: std::collections::HashSet<String> = cs
        .files
        .iter()
        .flat_map(|f| f.data.hunks.iter().flat_map(|h| h.lines.iter()))
        .filter(|l| l.op == Op::Remove)
        .map(|l| crate::deltas::squeeze(&l.text))
        .filter(|l| l.len() >= crate::deltas::MIN_COPIED)
        .collect();
    cs.files
        .iter()
        .map(|f| {
            let delta = deltas.get(&f.data.path);
            let lines = delta
                .map(|d| &d.line_facts)
                .or_else(|| components.get(&f.data.path));
            let mut reading = lifecycle::read_file(&f.data, lines);
            lifecycle::refine(&mut reading, &f.data, delta, &moved);
            (f.data.path.as_str(), reading)
        })
        .collect()
}

/// True when a test file is named after a source file (`cart.test.ts` and `cart.ts`,
/// `test_orders.py` and `orders.py`, `refund_test.go` and `refund.go`).
pub fn same_subject(source: &str, test: &str) -> bool {
    let stem = |p: &str| -> String {
        let name = p.rsplit('/').next().unwrap_or(p);
        let base = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
        base.trim_start_matches("test_")
            .trim_end_matches("_test")
            .trim_end_matches("_spec")
            .to_string()
    };
    let (s, t) = (stem(source), stem(test));
    s.len() >= 3 && s == t && source != test
}

pub fn capitalized(text: &str) -> String {
    // An identifier (`formatCompact handles ...`, `max_items`) keeps its spelling.
    let first = text.split_whitespace().next().unwrap_or("");
    if first
        .chars()
        .skip(1)
        .any(|c| c.is_uppercase() || c == '_' || c == '.' || c == '(')
    {
        return text.to_string();
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One intent's data from its group: the anchor commit that names it, its focus, facts,
/// contracts, policy, confidence and provenance.
fn build(
    cs: &Changeset,
    g: &Group,
    readings: &BTreeMap<&str, Reading>,
    owners: &BTreeMap<&str, usize>,
    manifest: Option<&Manifest>,
    deltas: &Deltas,
) -> Intent {
    let commits: Vec<&CommitData> = g.commits.iter().map(|&i| &cs.commits[i].data).collect();
    let anchor = anchor(cs, &commits);
    let roles: BTreeMap<String, Role> = g
        .files
        .iter()
        .filter_map(|f| cs.role(f).map(|r| (f.clone(), r)))
        .collect();
    // A product file that only wires in a rule or a command (an import, a registration)
    // does not make the intent a product journey.
    let product_lines = g.files.iter().any(|f| {
        roles.get(f) == Some(&Role::Product)
            && readings
                .get(f.as_str())
                .is_some_and(|r| !r.facts.is_empty())
    });
    let focus = assessment::focus(g.focus_hint, &roles, product_lines);
    let cleanup = focus == Focus::Cleanup;

    let description = anchor.map(|c| behaviour::description(&c.subject).to_string());
    let title = match (&g.title, &description) {
        (Some(t), _) => t.clone(),
        (None, Some(d)) => capitalized(behaviour::title_of(d)),
        (None, None) => g
            .cleanup
            .first()
            .map(|&i| capitalized(behaviour::description(&cs.commits[i].data.subject)))
            .unwrap_or_else(|| "Change".to_string()),
    };
    let facts = evidence::facts(cs, g, readings, owners, description.as_deref());
    let own_deltas: BTreeMap<String, FileDelta> = g
        .files
        .iter()
        .filter_map(|f| deltas.get(f).map(|d| (f.clone(), d.clone())))
        .collect();
    let (contracts, annotations) =
        evidence::contracts_and_annotations(cs, g, &commits, &own_deltas, &roles, readings);

    // Team policy from the manifest: a flow anchored in a path or a changed symbol.
    let symbols: Vec<&str> = g
        .files
        .iter()
        .filter_map(|f| readings.get(f.as_str()))
        .flat_map(|r| r.declared.iter().map(String::as_str))
        .collect();
    // A flow covers work through what the work changes in the product: a test file two
    // intents share anchors neither, or accepting one would make the other team policy.
    let paths: Vec<&str> = g
        .files
        .iter()
        .filter(|f| roles.get(*f) != Some(&Role::Test))
        .map(String::as_str)
        .collect();
    let flow = if cleanup {
        None
    } else {
        manifest.and_then(|m| m.flow_for(&paths, &symbols))
    };
    let authority = assessment::authority(
        flow.is_some(),
        contracts.len(),
        annotations.iter().any(|a| a.tag == "flow"),
    );

    let (product_literals, product_strings) = evidence::product_literals(cs, g, &roles);
    let written_tests = evidence::written_tests(cs, g, &commits, &roles);
    let shortened_tests = evidence::shortened_tests(cs, g, &roles);
    let mut lifecycle = evidence::lifecycle_of(description.as_deref(), &facts, &annotations);
    let tree_steps = if cleanup {
        Vec::new()
    } else {
        evidence::tree_lifecycle(&own_deltas, &roles, &contracts)
    };
    lifecycle.extend(tree_steps.iter().cloned());

    let strong = || facts.iter().filter(|(_, weak)| !weak).map(|(f, _)| f);
    let stages: BTreeSet<Stage> = strong()
        .map(|f| f.stage)
        .chain(tree_steps.iter().map(|s| s.stage))
        .collect();
    let seen = Evidence {
        located: !tree_steps.is_empty() || strong().any(|f| f.kind != FactKind::Setting),
        proves: strong().any(|f| {
            matches!(
                f.kind,
                FactKind::Outcome { .. }
                    | FactKind::Output
                    | FactKind::ExitCode
                    | FactKind::State { durable: true, .. }
            )
        }) || !contracts.is_empty(),
        stages: stages.len(),
        contracts: contracts.len(),
        facts: facts.len(),
    };
    let demoted =
        anchor.is_some_and(|c| behaviour::demotes(behaviour::by_text(c, &|p: &str| cs.role(p))));
    let confidence = assessment::confidence(g.source, focus, anchor.is_some(), demoted, seen);
    let review_required = confidence == qa_records::change::Confidence::Low
        || g.source == qa_records::change::IntentSource::Vocabulary;

    let critical = commits.iter().any(|c| c.breaking)
        || flow.is_some_and(|f| matches!(f.criticality, Criticality::Critical | Criticality::High))
        || annotations.iter().any(|a| {
            a.tag == "risk" && matches!(a.value.to_ascii_lowercase().as_str(), "critical" | "high")
        });

    let mut tickets: BTreeSet<String> = commits
        .iter()
        .flat_map(|c| c.tickets.iter().cloned())
        .collect();
    tickets.extend(
        g.cleanup
            .iter()
            .flat_map(|&i| cs.commits[i].data.tickets.iter().cloned()),
    );

    let reason = assessment::reason(g.source, g.commits.len(), focus, confidence, seen);
    let kind = assessment::kind(
        anchor.map(|c| c.kind.as_deref()),
        g.source,
        cs.is_worktree(),
        cleanup.then(|| {
            g.cleanup
                .first()
                .and_then(|&i| cs.commits[i].data.kind.as_deref())
        }),
    );
    let from: Vec<String> = g
        .commits
        .iter()
        .chain(&g.cleanup)
        .map(|&i| cs.commits[i].id.clone())
        .chain(
            g.files
                .iter()
                .filter_map(|f| cs.file(f).map(|r| r.id.clone())),
        )
        .collect();

    Intent {
        data: IntentData {
            title,
            kind,
            focus,
            source: g.source,
            commits: commits.iter().map(|c| c.oid.clone()).collect(),
            cleanup_commits: g
                .cleanup
                .iter()
                .map(|&i| cs.commits[i].data.oid.clone())
                .collect(),
            tickets: tickets.into_iter().collect(),
            files: g.files.iter().cloned().collect(),
            confidence,
            review_required,
            cleanup,
            current: g
                .files
                .iter()
                .any(|f| cs.current.iter().any(|c| &c.data.path == f)),
            lifecycle,
            authority,
            flow: flow.map(|f| f.name.clone()),
            contracts,
            annotations,
            reason,
        },
        facts,
        from,
        critical,
        wording: anchor.map(|c| {
            (
                c.oid.clone(),
                behaviour::description(&c.subject).to_string(),
            )
        }),
        roles,
        expected: flow.map(|f| f.expected.clone()).unwrap_or_default(),
        forbidden: flow.map(|f| f.forbidden.clone()).unwrap_or_default(),
        deltas: own_deltas,
        product_literals,
        product_strings,
        written_tests,
        shortened_tests,
    }
}

/// The commit that names the work: one that changes it. A commit that only adds or fixes
/// tests (the failing test before its fix) never names it when another one can; a typed
/// feature or fix is taken at its word (no diff is read for it).
fn anchor<'a>(cs: &Changeset, commits: &[&'a CommitData]) -> Option<&'a CommitData> {
    match commits {
        [first, _, ..] if !behaviour::is_typed_change(first) => commits
            .iter()
            .find(|c| behaviour::is_typed_change(c) || cs.tests_only(c) != Some(true))
            .or(commits.first())
            .copied(),
        _ => commits.first().copied(),
    }
}

/// A file's added lines with their head line numbers.
fn added_lines(file: &qa_records::change::FileData) -> Vec<(u32, &str)> {
    file.hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == Op::Add)
        .map(|l| (l.line, l.text.as_str()))
        .collect()
}

/// The `@qa` annotations the head tree of `file` gives on its added lines.
fn annotations_of(file: &str, delta: &FileDelta) -> Vec<Annotation> {
    delta
        .annotations
        .iter()
        .map(|a| Annotation {
            file: file.to_string(),
            line: a.line,
            // `qaFlow` -> `flow`: the record names the tag, not its spelling.
            tag: a.tag.trim_start_matches("qa").to_ascii_lowercase(),
            value: a.value.clone(),
        })
        .collect()
}
