//! The commands that run the test files a scenario itself cites, put before the rest of
//! its intent's commands.

use crate::commands::delivery::Concern;
use crate::commands::Candidate;
use crate::discovered::Discovered;
use crate::targets::Targets;
use crate::tree::Reader;
use qa_records::change::{CommandPurpose, CommandScope, ScenarioData};
use std::collections::HashSet;

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
    let (first, rest): (Vec<Candidate>, Vec<Candidate>) = std::mem::take(candidates)
        .into_iter()
        .partition(|c| runs(c) && runs_cited.contains(&(c.dir.clone(), c.run.clone())));
    candidates.extend(first);
    candidates.extend(rest);
}

/// A test command narrowed to test files or tests by name: it runs what it names.
fn runs_named_tests(c: &Candidate) -> bool {
    c.purpose == CommandPurpose::Test
        && matches!(c.scope, CommandScope::ExactTest | CommandScope::File)
}
