//! The commands that run the test files a scenario itself cites, put before the rest of
//! its intent's commands.

use crate::commands::delivery::Concern;
use crate::commands::Candidate;
use crate::discovered::Discovered;
use crate::targets::Targets;
use crate::tree::Reader;
use qa_records::change::{CommandPurpose, CommandScope, ScenarioData};
use std::collections::{HashMap, HashSet};

/// Moves to the front, in their order, the test commands of test or file scope that
/// discovery finds for the changed test files (`is_test`: qa-diff's role) the scenario's
/// own located evidence cites, when they are part of its intent's files. Discovery over the whole intent sorts the narrowest scope
/// first, so one scenario's exact test would otherwise stand first in every scenario's
/// route, and a scenario that cites another changed test file (the changed tests guarding
/// a commit, a UI test case) would get a command that does not run it. Only commands the
/// whole intent's discovery also found are moved: `qa-check --exec` discovers a route's
/// command again over the whole intent.
pub fn lead(
    candidates: &mut Vec<Candidate>,
    scenario: &ScenarioData,
    targets: &Targets,
    is_test: impl Fn(&str) -> bool,
    reader: &mut Reader,
    discovered: &mut Discovered,
) {
    let cited: HashSet<&str> = scenario
        .evidence
        .iter()
        .filter(|e| e.line > 0 && is_test(&e.file))
        .map(|e| e.file.as_str())
        .collect();
    let own = Targets {
        files: targets
            .files
            .iter()
            .filter(|f| cited.contains(f.as_str()))
            .cloned()
            .collect(),
        tests: targets
            .tests
            .iter()
            .filter(|t| cited.contains(t.file.as_str()))
            .cloned()
            .collect(),
    };
    // The same files discover the same commands: nothing to move.
    if own.files.is_empty() || own.files.len() == targets.files.len() {
        return;
    }
    // Type tests (`x.test-d.ts`) run in the type check, which reads them, not in a
    // test runner: a scenario citing only those leads with its package's type check.
    let type_tests = own
        .files
        .iter()
        .all(|f| Concern::of(f) == Some(Concern::Types));
    let runs =
        |c: &Candidate| runs_named_tests(c) || type_tests && c.purpose == CommandPurpose::Typecheck;
    let runs_cited: HashSet<(String, String)> = discovered
        .discover(reader, &own)
        .candidates
        .into_iter()
        .filter(|c| runs(c))
        .map(|c| (c.dir, c.run))
        .collect();
    if runs_cited.is_empty() {
        return;
    }
    let (mut first, rest): (Vec<Candidate>, Vec<Candidate>) = std::mem::take(candidates)
        .into_iter()
        .partition(|c| runs(c) && runs_cited.contains(&(c.dir.clone(), c.run.clone())));
    // The scenario names its tests in order: the command of the first cited file leads
    // (a guard naming three files runs its first one first, not the one discovery happens
    // to list first).
    let mut order: Vec<&str> = Vec::new();
    for e in &scenario.evidence {
        if cited.contains(e.file.as_str()) && !order.contains(&e.file.as_str()) {
            order.push(e.file.as_str());
        }
    }
    if first.len() > 1 && order.len() > 1 {
        let mut rank: HashMap<(String, String), usize> = HashMap::new();
        for (k, file) in order.iter().enumerate() {
            let one = Targets {
                files: own.files.iter().filter(|f| f == file).cloned().collect(),
                tests: own
                    .tests
                    .iter()
                    .filter(|t| t.file == *file)
                    .cloned()
                    .collect(),
            };
            for c in discovered.discover(reader, &one).candidates {
                if runs(&c) {
                    rank.entry((c.dir, c.run)).or_insert(k);
                }
            }
        }
        first.sort_by_key(|c| {
            rank.get(&(c.dir.clone(), c.run.clone()))
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
    candidates.extend(first);
    candidates.extend(rest);
}

/// A test command narrowed to test files or tests by name: it runs what it names.
fn runs_named_tests(c: &Candidate) -> bool {
    c.purpose == CommandPurpose::Test
        && matches!(c.scope, CommandScope::ExactTest | CommandScope::File)
}
