//! What one intent rests on: its files' located facts (and which are only weakly its own),
//! the changed tests and annotations that state it, the product literals tests may quote,
//! and the lifecycle steps all of them locate.

use std::collections::{BTreeMap, BTreeSet};

use qa_records::change::{
    Annotation, CommitData, Exercised, Expected, IntentSource, LifecycleStep, Location, Op, Origin,
    Role, Stage, Status, TestContract,
};

use super::grouping::Group;
use super::{added_lines, annotations_of, PER_STAGE};
use crate::changeset::{bears_behaviour, Changeset};
use crate::deltas::FileDelta;
use crate::lifecycle::{self, Fact, FactKind, Reading};
use crate::trees::{Grammar, ItemKind};
use crate::vocabulary;

/// The located facts of a group's files, each with whether it is only weakly the
/// intent's: in a file another intent also changed (or a commit outside it touched), a
/// line is the intent's own where qa-diff credits it to one of its commits, else where it
/// carries the intent's words. A cleanup intent has none.
pub fn facts(
    cs: &Changeset,
    g: &Group,
    readings: &BTreeMap<&str, Reading>,
    owners: &BTreeMap<&str, usize>,
    description: Option<&str>,
) -> Vec<(Fact, bool)> {
    if g.focus_hint == Some(qa_records::change::Focus::Cleanup) {
        return Vec::new();
    }
    // A file another intent also changed, or a commit outside this intent also touched (a
    // `wip` or `style:` commit), is shared.
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
    // Words that tell this intent's lines apart in a shared file.
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
    facts
}

/// The changed tests (as contracts) and `@qa` annotations of a group's files, read from
/// their syntax trees. A test the change wrote only in lines of commits outside the
/// intent (`commits`) is theirs.
pub fn contracts_and_annotations(
    cs: &Changeset,
    g: &Group,
    commits: &[&CommitData],
    own_deltas: &BTreeMap<String, FileDelta>,
    roles: &BTreeMap<String, Role>,
    readings: &BTreeMap<&str, Reading>,
) -> (Vec<TestContract>, Vec<Annotation>) {
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
        // A file without a tree gives no test and no annotation: no facts rather than
        // wrong ones.
        let Some(delta) = own_deltas.get(f) else {
            continue;
        };
        if matches!(file.data.role, Role::Test | Role::Product | Role::Command) {
            let empty = BTreeSet::new();
            let imports = readings.get(f.as_str()).map_or(&empty, |r| &r.imports);
            let others = others_lines(&file.data, &own_commits);
            // A blank line is anyone's: git credits it to whichever commit added one.
            let written: BTreeSet<u32> = added_lines(&file.data)
                .iter()
                .filter(|(_, text)| !text.trim().is_empty())
                .map(|(l, _)| *l)
                .collect();
            let tests = tree_contracts(f, delta, &product_items, imports);
            let foreign = others_tests(&tests, &others, &written);
            contracts.extend(tests.into_iter().filter(|t| !foreign.contains(&t.line)));
        }
        if matches!(file.data.role, Role::Product | Role::Command) {
            annotations.extend(annotations_of(f, delta));
        }
    }
    (contracts, annotations)
}

/// The lines the group's own commits wrote in each of its test files (head numbering,
/// blank lines left out), with their text: a changed test no scenario cites is still
/// evidence that its author expects it to pass as written.
pub fn written_tests(
    cs: &Changeset,
    g: &Group,
    commits: &[&CommitData],
    roles: &BTreeMap<String, Role>,
) -> BTreeMap<String, Vec<(u32, String)>> {
    let own_commits: BTreeSet<&str> = commits.iter().map(|c| c.oid.as_str()).collect();
    g.files
        .iter()
        .filter(|f| roles.get(*f) == Some(&Role::Test))
        .filter_map(|f| cs.file(f).map(|file| (f, file)))
        .map(|(f, file)| {
            let others = others_lines(&file.data, &own_commits);
            let lines: Vec<(u32, String)> = added_lines(&file.data)
                .into_iter()
                .filter(|(l, text)| !text.trim().is_empty() && !others.contains(l))
                .map(|(l, text)| (l, text.trim().to_string()))
                .collect();
            (f.clone(), lines)
        })
        .filter(|(_, lines)| !lines.is_empty())
        .collect()
}

/// The test files of the group, still there at head, that its commits changed only by
/// removing lines, each with the head line where the first removal was and the first
/// removed line worth quoting: no written line can be cited, but the tests left must
/// still pass.
pub fn shortened_tests(
    cs: &Changeset,
    g: &Group,
    roles: &BTreeMap<String, Role>,
) -> BTreeMap<String, (u32, String)> {
    g.files
        .iter()
        .filter(|f| roles.get(*f) == Some(&Role::Test))
        .filter_map(|f| cs.file(f).map(|file| (f, &file.data)))
        .filter(|(_, data)| data.status != Status::Deleted && added_lines(data).is_empty())
        .filter_map(|(f, data)| {
            let hunk = data
                .hunks
                .iter()
                .find(|h| h.lines.iter().any(|l| l.op == Op::Remove))?;
            // A hunk that only removes lines starts at the head line before the gap.
            // The removed text says what went: its first line of some length (not a
            // lone brace or blank).
            let removed: Vec<&str> = hunk
                .lines
                .iter()
                .filter(|l| l.op == Op::Remove)
                .map(|l| l.text.trim())
                .collect();
            let quoted = removed
                .iter()
                .find(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
                .or(removed.first())
                .map_or_else(String::new, |t| t.to_string());
            Some((f.clone(), ((hunk.new_start + 1).max(1), quoted)))
        })
        .collect()
}

/// String literals on the added lines of a group's product and command files: the
/// sentence-like ones (messages, not names, of some length), which a test expectation
/// quoting one of asserts what the change does; and every double-quoted one as written.
pub fn product_literals(
    cs: &Changeset,
    g: &Group,
    roles: &BTreeMap<String, Role>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let added: Vec<&str> = g
        .files
        .iter()
        .filter(|f| matches!(roles.get(*f), Some(Role::Product | Role::Command)))
        .filter_map(|f| cs.file(f))
        .flat_map(|f| added_lines(&f.data))
        .map(|(_, text)| text)
        .collect();
    let literals = added
        .iter()
        .flat_map(|text| quoted(text))
        .filter(|q| q.len() >= 8 && q.contains(' '))
        .collect();
    let strings = added
        .iter()
        .flat_map(|text| string_literals(text))
        .collect();
    (literals, strings)
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
pub fn tree_lifecycle(
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
                    text: qa_syntax::suite::values_as_code(&e.text),
                })
                .collect(),
            skipped: t.skipped.clone(),
            setup: t.setup.clone(),
            act: t.act.clone(),
            cases: t.cases,
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

/// The lifecycle steps of the commit wording (`description`), `@qaOutcome` annotations
/// and the intent's own located facts (a few per stage), in lifecycle order.
pub fn lifecycle_of(
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
