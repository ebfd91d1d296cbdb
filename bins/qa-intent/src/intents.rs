//! Assembling intents from a changeset: commit groups, cleanup provenance, vocabulary
//! partitions, changed tests, configuration, confidence and authority.

use std::collections::{BTreeMap, BTreeSet};

use qa_records::change::{
    Annotation, Authority, CommitData, Confidence, Exercised, Expected, Focus, IntentData,
    IntentSource, LifecycleStep, Location, Op, Origin, Role, Stage, TestContract,
};

use crate::behaviour::{self, CommitClass, Rank};
use crate::changeset::{bears_behaviour, Changeset};
use crate::deltas::{Deltas, FileDelta};
use crate::joining::{self, Member};
use crate::lifecycle::{self, Fact, FactKind, Reading};
use crate::manifest::{Criticality, Manifest};
use crate::syntax;
use crate::trees::{Grammar, ItemKind};
use crate::vocabulary::{self, FileTerms};

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
}

/// Most lifecycle steps kept per stage.
const PER_STAGE: usize = 4;

/// Builds every intent of the change, in a stable order: commit intents by anchor, then
/// standalone cleanup, vocabulary partitions, configuration, workflow and test evidence.
pub fn derive(cs: &Changeset, manifest: Option<&Manifest>, deltas: &Deltas) -> Vec<Intent> {
    // Lines the change removed anywhere: a fact on an added copy of one is not new.
    let moved: std::collections::HashSet<String> = cs
        .files
        .iter()
        .flat_map(|f| f.data.hunks.iter().flat_map(|h| h.lines.iter()))
        .filter(|l| l.op == Op::Remove)
        .map(|l| crate::deltas::squeeze(&l.text))
        .filter(|l| l.len() >= crate::deltas::MIN_COPIED)
        .collect();
    let readings: BTreeMap<&str, Reading> = cs
        .files
        .iter()
        .map(|f| {
            let delta = deltas.get(&f.data.path);
            let mut reading = lifecycle::read_file(&f.data, delta);
            lifecycle::refine(&mut reading, &f.data, delta, &moved);
            (f.data.path.as_str(), reading)
        })
        .collect();
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

    let members: Vec<Member> = behaviour
        .iter()
        .map(|&(i, rank)| member(&cs.commits[i].data, rank, &role))
        .collect();
    let mut groups: Vec<Group> = joining::group(&members)
        .into_iter()
        .map(|g| Group {
            commits: g.iter().map(|&m| behaviour[m].0).collect(),
            cleanup: Vec::new(),
            files: BTreeSet::new(),
            source: IntentSource::Commits,
            focus_hint: None,
            title: None,
        })
        .collect();
    for g in &mut groups {
        for &c in &g.commits {
            g.files.extend(changed_in(cs, &cs.commits[c].data));
        }
    }

    let assigned: BTreeSet<String> = groups
        .iter()
        .flat_map(|g| g.files.iter().cloned())
        .collect();

    // Behaviour files no commit text explains: partition by anchored vocabulary.
    let loose: Vec<&str> = cs
        .files
        .iter()
        .map(|f| f.data.path.as_str())
        .filter(|p| !assigned.contains(*p) && role(p).is_some_and(bears_behaviour))
        .filter(|p| unexplained.contains(p) || !(maintained.contains(p) || committed.contains(p)))
        .collect();
    let terms: Vec<FileTerms> = loose
        .iter()
        .map(|p| {
            let reading = &readings[p];
            let mut anchors = vocabulary::path_terms(p);
            anchors.extend(
                reading
                    .declared
                    .iter()
                    .filter_map(|s| vocabulary::symbol_term(s)),
            );
            FileTerms {
                path: p.to_string(),
                anchors,
                words: reading.words.clone(),
            }
        })
        .collect();
    for (members, shared) in vocabulary::partition(&terms) {
        let files: BTreeSet<String> = members.iter().map(|&i| loose[i].to_string()).collect();
        let topic: Vec<String> = if shared.is_empty() {
            terms[members[0]].anchors.iter().take(3).cloned().collect()
        } else {
            shared.into_iter().take(3).collect()
        };
        let uncommitted = files
            .iter()
            .all(|f| cs.current.iter().any(|c| &c.data.path == f));
        let place = if uncommitted {
            "Uncommitted work"
        } else {
            "Work without usable commit text"
        };
        let title = if topic.is_empty() {
            format!(
                "{place} on {}",
                files.iter().next().map(String::as_str).unwrap_or("files")
            )
        } else {
            format!("{place} on {}", topic.join(", "))
        };
        groups.push(Group {
            commits: vec![],
            cleanup: vec![],
            files,
            source: IntentSource::Vocabulary,
            focus_hint: None,
            title: Some(title),
        });
    }

    // Cleanup commits join the first intent (from commits or vocabulary) sharing a
    // behaviour file, else stand alone. They come after the partition so a review-fix
    // commit cannot claim the files of work whose own commit text was unusable.
    for &c in &cleanups {
        let files: BTreeSet<String> = changed_in(cs, &cs.commits[c].data).collect();
        let shared = groups.iter_mut().find(|g| {
            g.files
                .iter()
                .any(|f| files.contains(f) && role(f).is_some_and(bears_behaviour))
        });
        match shared {
            Some(g) => g.cleanup.push(c),
            None => groups.push(Group {
                commits: vec![],
                cleanup: vec![c],
                files,
                source: IntentSource::Commits,
                focus_hint: Some(Focus::Cleanup),
                title: None,
            }),
        }
    }

    // Tests: attach to an intent that touched them or whose file they are named after.
    let tests: Vec<&str> = cs
        .files
        .iter()
        .map(|f| f.data.path.as_str())
        .filter(|p| role(p) == Some(Role::Test))
        .collect();
    let mut loose_tests = BTreeSet::new();
    let tickets_of = |commits: &mut dyn Iterator<Item = &CommitData>| -> BTreeSet<String> {
        commits.flat_map(|c| c.tickets.iter().cloned()).collect()
    };
    for t in &tests {
        // A test joins by its commits' tickets too: `test: cover ORD-231` belongs to ORD-231.
        let test_tickets = tickets_of(
            &mut cs
                .commits
                .iter()
                .map(|c| &c.data)
                .filter(|c| c.files.iter().any(|f| f == t)),
        );
        // ... by what it imports (a test of `rules/urgency.js` requires it), and by the
        // module its changed test titles name ("urgency flags account threats").
        let imported = readings.get(t).map(|r| &r.imports);
        let titles: Vec<String> = match deltas.get(*t) {
            Some(delta) => delta
                .changed_tests
                .iter()
                .map(|c| c.title.to_ascii_lowercase())
                .collect(),
            None => cs
                .file(t)
                .map(|f| {
                    syntax::test_contracts(syntax::language_of(t), t, &added_lines(&f.data))
                        .into_iter()
                        .map(|(_, title, _)| title.to_ascii_lowercase())
                        .collect()
                })
                .unwrap_or_default(),
        };
        let named = |f: &str| {
            let stem = lifecycle::module_stem(f);
            stem.len() >= 4
                && titles
                    .iter()
                    .any(|title| vocabulary::words_of(title).any(|w| w == stem))
        };
        let owner = groups.iter_mut().find(|g| {
            g.focus_hint != Some(Focus::Cleanup)
                && (g.files.contains(*t)
                    || g.files.iter().any(|f| {
                        role(f).is_some_and(bears_behaviour)
                            && (imported.is_some_and(|i| i.contains(&lifecycle::module_stem(f)))
                                || named(f))
                    })
                    || g.files.iter().any(|f| same_subject(f, t))
                    || !test_tickets.is_disjoint(&tickets_of(
                        &mut g.commits.iter().map(|&i| &cs.commits[i].data),
                    )))
        });
        match owner {
            Some(g) => {
                g.files.insert(t.to_string());
            }
            None => {
                loose_tests.insert(t.to_string());
            }
        }
    }

    // Configuration and workflow files no intent took: their own verification intents.
    let all_assigned: BTreeSet<String> = groups
        .iter()
        .flat_map(|g| g.files.iter().cloned())
        .collect();
    for (want, focus, title) in [
        (
            Role::Configuration,
            Focus::Configuration,
            "Configuration change",
        ),
        (
            Role::RepositoryWorkflow,
            Focus::RepositoryWorkflow,
            "Repository workflow change",
        ),
    ] {
        let files: BTreeSet<String> = cs
            .files
            .iter()
            .map(|f| f.data.path.clone())
            .filter(|p| !all_assigned.contains(p) && role(p) == Some(want))
            .collect();
        if !files.is_empty() {
            groups.push(Group {
                commits: vec![],
                cleanup: vec![],
                title: Some(format!("{title}: {}", join_paths(&files))),
                files,
                source: IntentSource::Commits,
                focus_hint: Some(focus),
            });
        }
    }
    if !loose_tests.is_empty() {
        groups.push(Group {
            commits: vec![],
            cleanup: vec![],
            title: Some(format!(
                "Changed test evidence: {}",
                join_paths(&loose_tests)
            )),
            files: loose_tests,
            source: IntentSource::Commits,
            focus_hint: Some(Focus::Verification),
        });
    }

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

/// Commits, files and wording of one intent before its data is built.
#[derive(Debug)]
struct Group {
    commits: Vec<usize>,
    cleanup: Vec<usize>,
    files: BTreeSet<String>,
    source: IntentSource,
    focus_hint: Option<Focus>,
    title: Option<String>,
}

fn member(c: &CommitData, rank: Rank, role: &impl Fn(&str) -> Option<Role>) -> Member {
    Member {
        rank,
        tickets: c.tickets.iter().cloned().collect(),
        files: c
            .files
            .iter()
            .filter(|p| role(p).is_some_and(bears_behaviour))
            .cloned()
            .collect(),
    }
}

/// The commit's paths the net diff still shows.
fn changed_in<'a>(cs: &'a Changeset, c: &'a CommitData) -> impl Iterator<Item = String> + 'a {
    c.files.iter().filter(|p| cs.file(p).is_some()).cloned()
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

fn join_paths(files: &BTreeSet<String>) -> String {
    let mut names: Vec<&str> = files.iter().map(String::as_str).take(3).collect();
    if files.len() > 3 {
        names.push("…");
    }
    names.join(", ")
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

fn build(
    cs: &Changeset,
    g: &Group,
    readings: &BTreeMap<&str, Reading>,
    owners: &BTreeMap<&str, usize>,
    manifest: Option<&Manifest>,
    deltas: &Deltas,
) -> Intent {
    let commits: Vec<&CommitData> = g.commits.iter().map(|&i| &cs.commits[i].data).collect();
    // The work is named by a commit that changes it: a commit that only adds or fixes
    // tests (the failing test before its fix) never names it, when another one can.
    // A typed feature or fix is taken at its word (no diff is read for it).
    let anchor = match commits.as_slice() {
        [first, _, ..] if !behaviour::is_typed_change(first) => commits
            .iter()
            .find(|c| behaviour::is_typed_change(c) || cs.tests_only(c) != Some(true))
            .or(commits.first()),
        _ => commits.first(),
    };
    let roles: BTreeMap<String, Role> = g
        .files
        .iter()
        .filter_map(|f| cs.role(f).map(|r| (f.clone(), r)))
        .collect();
    let has = |want: Role| roles.values().any(|&r| r == want);

    // A product file that only wires in a rule or a command (an import, a registration)
    // does not make the intent a product journey.
    let product_lines = g.files.iter().any(|f| {
        roles.get(f) == Some(&Role::Product)
            && readings
                .get(f.as_str())
                .is_some_and(|r| !r.facts.is_empty())
    });
    let journey =
        has(Role::Product) && (product_lines || !(has(Role::Command) || has(Role::AnalysisRule)));
    let focus = g.focus_hint.unwrap_or(if journey {
        Focus::Product
    } else if has(Role::Command) {
        Focus::Command
    } else if has(Role::AnalysisRule) {
        Focus::AnalysisRule
    } else if has(Role::Configuration) {
        Focus::Configuration
    } else if has(Role::RepositoryWorkflow) {
        Focus::RepositoryWorkflow
    } else {
        Focus::Verification
    });
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

    // Words that tell this intent's lines apart in a file another intent also changed.
    // A file another intent also changed, or a commit outside this intent also touched (a
    // `wip` or `style:` commit), is shared: its lines are this intent's direct evidence
    // only where they carry this intent's words.
    let touched_outside = |f: &str| {
        g.source == IntentSource::Commits
            && !g.commits.is_empty()
            && cs.commits.iter().enumerate().any(|(i, c)| {
                !g.commits.contains(&i)
                    && !g.cleanup.contains(&i)
                    && !c.data.merge
                    && c.data.files.iter().any(|p| p == f)
            })
    };
    let shared = |f: &str| touched_outside(f) || owners.get(f).is_some_and(|&n| n > 1);
    let own_words: BTreeSet<String> = description
        .iter()
        .flat_map(|d| vocabulary::words_of(d))
        .chain(g.files.iter().filter(|f| !shared(f)).flat_map(|f| {
            readings
                .get(f.as_str())
                .into_iter()
                .flat_map(|r| r.declared.iter().flat_map(|s| vocabulary::words_of(s)))
        }))
        .map(|w| vocabulary::singular(&w))
        .collect();
    // Review fixes (cleanup commits) are part of the work they fix.
    let own_commits: BTreeSet<&str> = g
        .commits
        .iter()
        .chain(&g.cleanup)
        .map(|&i| cs.commits[i].data.oid.as_str())
        .collect();
    let mut facts = Vec::new();
    if !cleanup {
        for f in &g.files {
            let Some(reading) = readings.get(f.as_str()) else {
                continue;
            };
            let shared = shared(f);
            for fact in &reading.facts {
                // qa-diff's attribution settles whose line it is; without it, words do.
                let weak = match &fact.commit {
                    Some(c) if !own_commits.is_empty() => !own_commits.contains(c.as_str()),
                    _ => shared && !fact.words.iter().any(|w| own_words.contains(w)),
                };
                facts.push((fact.clone(), weak));
            }
        }
    }

    // Changed tests and annotations of this intent's files; the syntax trees read the
    // tests where a grammar exists, the line lexer elsewhere.
    let own_deltas: BTreeMap<String, FileDelta> = g
        .files
        .iter()
        .filter_map(|f| deltas.get(f).map(|d| (f.clone(), d.clone())))
        .collect();
    let product_items: Vec<(&str, &str, u32)> = own_deltas
        .iter()
        .filter(|(f, _)| roles.get(*f).is_some_and(|&r| bears_behaviour(r)))
        .flat_map(|(f, d)| {
            d.changed_items
                .iter()
                .filter(|(_, kind, _)| *kind == ItemKind::Function)
                .map(move |(path, _, line)| (f.as_str(), path.as_str(), *line))
        })
        .collect();
    let mut contracts = Vec::new();
    let mut annotations = Vec::new();
    let own_commits: BTreeSet<&str> = commits.iter().map(|c| c.oid.as_str()).collect();
    for f in &g.files {
        let Some(file) = cs.file(f) else { continue };
        let added = added_lines(&file.data);
        let lang = syntax::language_of(f);
        if let Some(delta) = own_deltas.get(f) {
            if matches!(file.data.role, Role::Test | Role::Product | Role::Command) {
                let empty = BTreeSet::new();
                let imports = readings.get(f.as_str()).map_or(&empty, |r| &r.imports);
                let others = others_lines(&file.data, &own_commits);
                // A blank line is anyone's: git credits it to whichever commit added one.
                let written: BTreeSet<u32> = added
                    .iter()
                    .filter(|(_, text)| !text.trim().is_empty())
                    .map(|(l, _)| *l)
                    .collect();
                let tests = tree_contracts(f, delta, &product_items, imports);
                let foreign = others_tests(&tests, &others, &written);
                contracts.extend(tests.into_iter().filter(|t| !foreign.contains(&t.line)));
            }
            if matches!(file.data.role, Role::Product | Role::Command) {
                annotations.extend(annotations_of(f, &added));
            }
            continue;
        }
        match file.data.role {
            // Rust keeps unit tests beside the code: `#[test] fn` in a source file.
            Role::Product | Role::Command if lang == syntax::Language::Rust => {
                contracts.extend(contracts_of(lang, f, &added));
                annotations.extend(annotations_of(f, &added));
            }
            Role::Test => contracts.extend(contracts_of(lang, f, &added)),
            Role::Product | Role::Command => annotations.extend(annotations_of(f, &added)),
            _ => {}
        }
    }

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
    let authority = if flow.is_some() {
        Authority::TeamPolicy
    } else if !contracts.is_empty() || annotations.iter().any(|a| a.tag == "flow") {
        Authority::RepositoryContract
    } else {
        Authority::Inference
    };

    let product_added: Vec<&str> = g
        .files
        .iter()
        .filter(|f| matches!(roles.get(*f), Some(Role::Product | Role::Command)))
        .filter_map(|f| cs.file(f))
        .flat_map(|f| added_lines(&f.data))
        .map(|(_, text)| text)
        .collect();
    let product_literals: BTreeSet<String> = product_added
        .iter()
        .flat_map(|text| quoted(text))
        // Messages, not names: a sentence-like string of some length.
        .filter(|q| q.len() >= 8 && q.contains(' '))
        .collect();
    let product_strings: BTreeSet<String> = product_added
        .iter()
        .flat_map(|text| string_literals(text))
        .collect();
    let mut lifecycle = lifecycle_of(description.as_deref(), &facts, &annotations);
    let tree_steps = if cleanup {
        Vec::new()
    } else {
        tree_lifecycle(&own_deltas, &roles, &contracts)
    };
    lifecycle.extend(tree_steps.iter().cloned());

    let located = !tree_steps.is_empty()
        || facts
            .iter()
            .any(|(f, weak)| !weak && f.kind != FactKind::Setting);
    let proves = facts.iter().any(|(f, weak)| {
        !weak
            && matches!(
                f.kind,
                FactKind::Outcome { .. }
                    | FactKind::Output
                    | FactKind::ExitCode
                    | FactKind::State { durable: true, .. }
            )
    }) || !contracts.is_empty();
    let stages: BTreeSet<Stage> = facts
        .iter()
        .filter(|(_, w)| !w)
        .map(|(f, _)| f.stage)
        .chain(tree_steps.iter().map(|s| s.stage))
        .collect();
    let confidence = match (g.source, focus) {
        (IntentSource::Vocabulary, _) => Confidence::Low,
        (_, Focus::Cleanup) => Confidence::Medium,
        (_, Focus::Verification) if !contracts.is_empty() => Confidence::Medium,
        (_, Focus::Configuration | Focus::RepositoryWorkflow) if !facts.is_empty() => {
            Confidence::Medium
        }
        // A commit whose text calls it maintenance counts by its diff, but with less
        // certainty than one whose text and diff agree.
        _ if anchor
            .is_some_and(|c| behaviour::demotes(behaviour::by_text(c, &|p: &str| cs.role(p))))
            && located =>
        {
            Confidence::Medium
        }
        _ if anchor.is_some() && located && proves && stages.len() >= 2 => Confidence::High,
        _ if located => Confidence::Medium,
        _ => Confidence::Low,
    };
    let review_required = confidence == Confidence::Low || g.source == IntentSource::Vocabulary;

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

    let reason = reason(g, focus, confidence, located, proves, contracts.len());
    let kind = match (anchor, g.source) {
        (Some(c), _) => c.kind.clone().unwrap_or_else(|| "change".to_string()),
        (None, IntentSource::Vocabulary) if cs.is_worktree() => "worktree".to_string(),
        (None, IntentSource::Vocabulary) => "wip".to_string(),
        (None, _) if cleanup => g
            .cleanup
            .first()
            .and_then(|&i| cs.commits[i].data.kind.clone())
            .unwrap_or_else(|| "cleanup".to_string()),
        (None, _) => "change".to_string(),
    };
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
    }
}

/// The double-quoted string literals of a line, any length, quotes kept: `"{}"`.
pub(crate) fn string_literals(line: &str) -> Vec<String> {
    static STRING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#""(?:[^"\\]|\\.)*""#).expect("string pattern")
    });
    STRING
        .find_iter(line)
        .map(|m| m.as_str().to_string())
        .collect()
}

/// The quoted strings of a line, four characters or more.
fn quoted(line: &str) -> Vec<String> {
    static QUOTED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#""([^"\\]{4,})"|'([^'\\]{4,})'|`([^`\\$]{4,})`"#)
            .expect("quoted pattern")
    });
    QUOTED
        .captures_iter(line)
        .filter_map(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .next()
                .map(|m| m.as_str().to_string())
        })
        .collect()
}

/// Lifecycle steps the syntax trees locate: what the changed tests expect (the outcome),
/// error exits a product item lost (the outcome: it completes), and new conditions and
/// list elements (the condition), a few per stage.
fn tree_lifecycle(
    deltas: &BTreeMap<String, FileDelta>,
    roles: &BTreeMap<String, Role>,
    contracts: &[TestContract],
) -> Vec<LifecycleStep> {
    let step = |stage, text: String, file: &str, line| LifecycleStep {
        stage,
        text,
        evidence: vec![Location {
            file: file.to_string(),
            line,
        }],
        origin: Origin::Diff,
    };
    let mut outcomes = Vec::new();
    let mut conditions = Vec::new();
    for c in contracts.iter().filter(|c| c.skipped.is_none()) {
        for e in c.expects.iter().take(1) {
            let name = c.name.as_deref().unwrap_or(&c.title);
            outcomes.push(step(
                Stage::ObservableOutcome,
                format!("test `{name}` expects {}", e.text),
                &c.file,
                e.line,
            ));
        }
    }
    for (file, d) in deltas {
        if !roles.get(file).is_some_and(|&r| bears_behaviour(r)) {
            continue;
        }
        for (at, kind) in &d.added_exits {
            let says = *kind == crate::trees::ExitKind::Throw
                || *kind == crate::trees::ExitKind::Error && at.text.contains(['"', '\'']);
            if says && !d.copied_lines.contains(&at.line) {
                outcomes.push(step(
                    Stage::ObservableOutcome,
                    format!("`{}` ends in `{}`", at.item, at.text),
                    file,
                    at.line,
                ));
            }
        }
        for (at, kind) in &d.removed_exits {
            if *kind != crate::trees::ExitKind::Error {
                outcomes.push(step(
                    Stage::ObservableOutcome,
                    format!("`{}` no longer ends in `{}`", at.item, at.text),
                    file,
                    at.line,
                ));
            }
        }
        for c in &d.new_conditions {
            conditions.push(step(
                Stage::Condition,
                format!("when `{}`", c.text),
                file,
                c.line,
            ));
        }
        for e in &d.added_elements {
            conditions.push(step(
                Stage::Condition,
                format!("`{}` gains {}", e.item, e.text),
                file,
                e.line,
            ));
        }
    }
    outcomes.truncate(PER_STAGE);
    conditions.truncate(PER_STAGE);
    conditions.extend(outcomes);
    conditions
}

/// The changed tests of a file as contracts: their expectations, skips, and the changed
/// product functions they call (`product_items`: file, item path, head line).
fn tree_contracts(
    file: &str,
    delta: &FileDelta,
    product_items: &[(&str, &str, u32)],
    imports: &BTreeSet<String>,
) -> Vec<TestContract> {
    delta
        .changed_tests
        .iter()
        .map(|t| TestContract {
            file: file.to_string(),
            line: t.line,
            title: t.title.clone(),
            framework: t.framework.name().to_string(),
            name: (t.name != t.title).then(|| t.name.clone()),
            expects: t
                .expects
                .iter()
                .map(|e| Expected {
                    line: e.line,
                    text: crate::oracle::numbers_as_code(&e.text),
                })
                .collect(),
            skipped: t.skipped.clone(),
            setup: t.setup.clone(),
            act: t.act.clone(),
            exercises: product_items
                .iter()
                .filter(|(f, path, _)| {
                    let name = path.rsplit("::").next().unwrap_or(path);
                    // A method of the same name is another thing unless the test imports
                    // its module (`render` of a test library is not `App::render`);
                    // Rust, Go, Java and Kotlin tests call into their crate or package directly.
                    let linked = !path.contains("::")
                        || matches!(
                            Grammar::of(f),
                            Some(Grammar::Rust | Grammar::Go | Grammar::Java | Grammar::Kotlin)
                        )
                        || imports.contains(&lifecycle::module_stem(f));
                    // A test's own file counts too: Rust keeps unit tests beside the code.
                    linked && t.calls.iter().any(|c| c == name)
                })
                .take(3)
                .map(|(f, path, line)| Exercised {
                    file: f.to_string(),
                    line: *line,
                    item: path.to_string(),
                })
                .collect(),
        })
        .collect()
}

/// The added lines of `file` that another commit of the range wrote (qa-diff names the
/// commit of each line of a file several commits changed).
fn others_lines(file: &qa_records::change::FileData, own: &BTreeSet<&str>) -> BTreeSet<u32> {
    file.hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == Op::Add)
        .filter(|l| l.commit.as_deref().is_some_and(|c| !own.contains(c)))
        .map(|l| l.line)
        .collect()
}

/// The tests of one file the change wrote only in other commits' lines: each test spans
/// from its line to the next changed test's, and a test whose written lines there are
/// all another commit's checks that commit's work, not this intent's. A test none of
/// whose lines the change wrote stays (nothing tells).
fn others_tests(
    tests: &[TestContract],
    others: &BTreeSet<u32>,
    added: &BTreeSet<u32>,
) -> BTreeSet<u32> {
    let mut starts: Vec<u32> = tests.iter().map(|t| t.line).collect();
    starts.sort_unstable();
    starts.dedup();
    tests
        .iter()
        .filter(|t| {
            let end = starts
                .iter()
                .find(|&&s| s > t.line)
                .copied()
                .unwrap_or(u32::MAX);
            let mut written = added.range(t.line..end).peekable();
            written.peek().is_some() && written.all(|l| others.contains(l))
        })
        .map(|t| t.line)
        .collect()
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

fn annotations_of(file: &str, added: &[(u32, &str)]) -> Vec<Annotation> {
    syntax::annotations(added)
        .into_iter()
        .map(|(line, tag, value)| Annotation {
            file: file.to_string(),
            line,
            // `qaFlow` -> `flow`: the record names the tag, not its spelling.
            tag: tag.trim_start_matches("qa").to_ascii_lowercase(),
            value,
        })
        .collect()
}

fn contracts_of(lang: syntax::Language, file: &str, added: &[(u32, &str)]) -> Vec<TestContract> {
    syntax::test_contracts(lang, file, added)
        .into_iter()
        .map(|(line, title, framework)| TestContract {
            file: file.to_string(),
            line,
            title,
            framework: framework.to_string(),
            ..Default::default()
        })
        .collect()
}

fn reason(
    g: &Group,
    focus: Focus,
    confidence: Confidence,
    located: bool,
    proves: bool,
    tests: usize,
) -> String {
    let grouping = match (g.source, g.commits.len()) {
        (IntentSource::Vocabulary, _) => {
            "files grouped by shared path and symbol vocabulary, without usable commit text"
                .to_string()
        }
        (_, 0) if focus == Focus::Cleanup => {
            "a cleanup-shaped commit: kept for provenance, no scenarios".to_string()
        }
        (_, 0) => "files no behaviour commit explains, verified by their role".to_string(),
        (_, 1) => "one behaviour-bearing commit".to_string(),
        (_, n) => format!("{n} commits joined by shared tickets or behaviour files"),
    };
    let evidence = match (located, proves) {
        (true, true) => "changed lines locate the behaviour and an observable outcome",
        (true, false) => "changed lines locate the behaviour but no observable outcome",
        (false, _) => "no changed line locates the behaviour",
    };
    let tests = if tests > 0 {
        format!("; {tests} changed test(s)")
    } else {
        String::new()
    };
    format!(
        "{grouping}; {evidence}{tests}; confidence {}",
        match confidence {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    )
}

fn lifecycle_of(
    description: Option<&str>,
    facts: &[(Fact, bool)],
    annotations: &[Annotation],
) -> Vec<LifecycleStep> {
    let mut steps: Vec<LifecycleStep> = Vec::new();
    if let Some(d) = description {
        for (stage, text) in lifecycle::clauses(d) {
            steps.push(LifecycleStep {
                stage,
                text,
                evidence: vec![],
                origin: Origin::Commit,
            });
        }
    }
    for a in annotations {
        let stage = match a.tag.as_str() {
            "outcome" => Stage::ObservableOutcome,
            "stage" => continue,
            _ => continue,
        };
        steps.push(LifecycleStep {
            stage,
            text: a.value.clone(),
            evidence: vec![Location {
                file: a.file.clone(),
                line: a.line,
            }],
            origin: Origin::Annotation,
        });
    }
    let mut per_stage: BTreeMap<Stage, usize> = BTreeMap::new();
    for (fact, weak) in facts {
        if *weak || fact.kind == FactKind::Setting || fact.kind == FactKind::Pattern {
            continue;
        }
        let n = per_stage.entry(fact.stage).or_default();
        if *n >= PER_STAGE {
            continue;
        }
        if let Some(existing) = steps
            .iter_mut()
            .find(|s| s.origin == Origin::Diff && s.stage == fact.stage && s.text == fact.text)
        {
            existing.evidence.push(fact.at.clone());
            continue;
        }
        *n += 1;
        steps.push(LifecycleStep {
            stage: fact.stage,
            text: fact.text.clone(),
            evidence: vec![fact.at.clone()],
            origin: Origin::Diff,
        });
    }
    // Lifecycle order, commit wording before the lines within a stage.
    steps.sort_by_key(|s| (s.stage, s.origin != Origin::Commit));
    steps
}
