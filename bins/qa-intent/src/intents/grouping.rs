//! Which commits and files make one intent: behaviour commits joined, files no commit text
//! explains partitioned by vocabulary, cleanup commits, changed tests, and leftover
//! configuration, workflow and test files.

use std::collections::{BTreeMap, BTreeSet};

use qa_records::change::{CommitData, Focus, IntentSource, Role};

use super::same_subject;
use crate::behaviour::Rank;
use crate::changeset::{bears_behaviour, Changeset};
use crate::deltas::Deltas;
use crate::joining::{self, Member};
use crate::lifecycle::{self, Reading};
use crate::vocabulary::{self, FileTerms};

/// Commits, files and wording of one intent before its data is built.
#[derive(Debug)]
pub struct Group {
    /// Indexes into the changeset's commits: the behaviour commits, then review fixes.
    pub commits: Vec<usize>,
    pub cleanup: Vec<usize>,
    pub files: BTreeSet<String>,
    pub source: IntentSource,
    pub focus_hint: Option<Focus>,
    pub title: Option<String>,
}

impl Group {
    fn of(files: BTreeSet<String>, focus: Focus, title: String) -> Group {
        Group {
            commits: vec![],
            cleanup: vec![],
            files,
            source: IntentSource::Commits,
            focus_hint: Some(focus),
            title: Some(title),
        }
    }
}

/// The behaviour commits (with their rank) joined by shared tickets and behaviour files,
/// each group holding the files the net diff still shows.
pub fn commit_groups(
    cs: &Changeset,
    behaviour: &[(usize, Rank)],
    role: &impl Fn(&str) -> Option<Role>,
) -> Vec<Group> {
    let members: Vec<Member> = behaviour
        .iter()
        .map(|&(i, rank)| member(&cs.commits[i].data, rank, role))
        .collect();
    joining::group(&members)
        .into_iter()
        .map(|g| {
            let commits: Vec<usize> = g.iter().map(|&m| behaviour[m].0).collect();
            let files = commits
                .iter()
                .flat_map(|&c| changed_in(cs, &cs.commits[c].data))
                .collect();
            Group {
                commits,
                cleanup: Vec::new(),
                files,
                source: IntentSource::Commits,
                focus_hint: None,
                title: None,
            }
        })
        .collect()
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
pub fn changed_in<'a>(cs: &'a Changeset, c: &'a CommitData) -> impl Iterator<Item = String> + 'a {
    c.files.iter().filter(|p| cs.file(p).is_some()).cloned()
}

/// Behaviour files (`loose`) no commit text explains, partitioned by the vocabulary of
/// their paths and declarations: each part one intent named after what its files share.
pub fn vocabulary_groups(
    cs: &Changeset,
    loose: &[&str],
    readings: &BTreeMap<&str, Reading>,
) -> Vec<Group> {
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
    vocabulary::partition(&terms)
        .into_iter()
        .map(|(members, shared)| {
            let files: BTreeSet<String> = members.iter().map(|&i| loose[i].to_string()).collect();
            let topic: Vec<String> = if shared.is_empty() {
                terms[members[0]].anchors.iter().take(3).cloned().collect()
            } else {
                shared.into_iter().take(3).collect()
            };
            let uncommitted = files
                .iter()
                .all(|f| cs.current.iter().any(|c| &c.data.path == f));
            Group {
                commits: vec![],
                cleanup: vec![],
                title: Some(vocabulary_title(uncommitted, &topic, &files)),
                files,
                source: IntentSource::Vocabulary,
                focus_hint: None,
            }
        })
        .collect()
}

/// The title of a vocabulary group: where the work sits, and what its files share (else
/// its first file).
fn vocabulary_title(uncommitted: bool, topic: &[String], files: &BTreeSet<String>) -> String {
    let place = if uncommitted {
        "Uncommitted work"
    } else {
        "Work without usable commit text"
    };
    if topic.is_empty() {
        let first = files.iter().next().map(String::as_str).unwrap_or("files");
        format!("{place} on {first}")
    } else {
        format!("{place} on {}", topic.join(", "))
    }
}

/// Cleanup commits join the first intent sharing a behaviour file with them, else stand
/// alone (kept for provenance). Run after the vocabulary partition, so a review-fix commit
/// cannot claim the files of work whose own commit text was unusable. A cleanup is judged
/// by the diff of its product files only, so it never holds the configuration and
/// workflow files it also changed: those are left to their own intents
/// ([`leftover_groups`]), or a pinned action and a new CI job would vanish with the
/// reformatting they came with.
pub fn attach_cleanups(
    groups: &mut Vec<Group>,
    cs: &Changeset,
    cleanups: &[usize],
    role: &impl Fn(&str) -> Option<Role>,
) {
    for &c in cleanups {
        let files: BTreeSet<String> = changed_in(cs, &cs.commits[c].data)
            .filter(|f| {
                !role(f)
                    .is_some_and(|r| matches!(r, Role::Configuration | Role::RepositoryWorkflow))
            })
            .collect();
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
}

/// What ties a changed test file to an intent.
#[derive(Debug, Default)]
pub struct TestClues<'a> {
    pub path: &'a str,
    /// Tickets of the commits that changed it (`test: cover ORD-231`).
    pub tickets: BTreeSet<String>,
    /// Module stems it imports (a test of `rules/urgency.js` requires `urgency`).
    pub imports: Option<&'a BTreeSet<String>>,
    /// Its changed test titles, lowercased ("urgency flags account threats").
    pub titles: Vec<String>,
}

/// Whether an intent (its files and its commits' `tickets`) claims a changed test: it
/// changed the test, or a behaviour file of it is imported by the test, named by a changed
/// test title, or named like the test; or they share a ticket. Cleanup intents claim none.
pub fn claims_test(
    g: &Group,
    tickets: &BTreeSet<String>,
    test: &TestClues,
    role: &impl Fn(&str) -> Option<Role>,
) -> bool {
    let named = |f: &str| {
        let stem = lifecycle::module_stem(f);
        stem.len() >= 4
            && test
                .titles
                .iter()
                .any(|title| vocabulary::words_of(title).any(|w| w == stem))
    };
    g.focus_hint != Some(Focus::Cleanup)
        && (g.files.contains(test.path)
            || g.files.iter().any(|f| {
                role(f).is_some_and(bears_behaviour)
                    && (test
                        .imports
                        .is_some_and(|i| i.contains(&lifecycle::module_stem(f)))
                        || named(f))
            })
            || g.files.iter().any(|f| same_subject(f, test.path))
            || !test.tickets.is_disjoint(tickets))
}

/// Each changed test joins the first intent that claims it ([`claims_test`]); the tests
/// none claims are returned. A test that a behaviour commit of the range changed already
/// belongs to that commit's intent and joins no other: in a mix range, a test one commit
/// rewrote is not the check of another commit that only shares an import with it.
pub fn attach_tests(
    groups: &mut [Group],
    cs: &Changeset,
    readings: &BTreeMap<&str, Reading>,
    deltas: &Deltas,
    role: &impl Fn(&str) -> Option<Role>,
) -> BTreeSet<String> {
    let tickets_of = |commits: &mut dyn Iterator<Item = &CommitData>| -> BTreeSet<String> {
        commits.flat_map(|c| c.tickets.iter().cloned()).collect()
    };
    let mut loose_tests = BTreeSet::new();
    let tests = cs
        .files
        .iter()
        .map(|f| f.data.path.as_str())
        .filter(|p| role(p) == Some(Role::Test));
    for t in tests {
        if groups.iter().any(|g| changed_by_its_commits(g, t)) {
            continue;
        }
        let clues = TestClues {
            path: t,
            tickets: tickets_of(
                &mut cs
                    .commits
                    .iter()
                    .map(|c| &c.data)
                    .filter(|c| c.files.iter().any(|f| f == t)),
            ),
            imports: readings.get(t).map(|r| &r.imports),
            titles: changed_titles(deltas, t),
        };
        let owner = groups.iter_mut().find(|g| {
            let tickets = tickets_of(&mut g.commits.iter().map(|&i| &cs.commits[i].data));
            claims_test(g, &tickets, &clues, role)
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
    loose_tests
}

/// Whether a behaviour intent's own commits changed `path` (a commit group holds the files
/// its commits changed).
fn changed_by_its_commits(g: &Group, path: &str) -> bool {
    !g.commits.is_empty() && g.focus_hint != Some(Focus::Cleanup) && g.files.contains(path)
}

/// A test file's changed test titles, lowercased, from its syntax tree (none without one).
fn changed_titles(deltas: &Deltas, t: &str) -> Vec<String> {
    match deltas.get(t) {
        Some(delta) => delta
            .changed_tests
            .iter()
            .map(|c| c.title.to_ascii_lowercase())
            .collect(),
        None => Vec::new(),
    }
}

/// Intents for what no intent took: configuration files, repository workflow files (each
/// their own verification intent) and the changed tests none claimed (`loose_tests`).
pub fn leftover_groups(
    groups: &[Group],
    cs: &Changeset,
    loose_tests: BTreeSet<String>,
    role: &impl Fn(&str) -> Option<Role>,
) -> Vec<Group> {
    let assigned: BTreeSet<&str> = groups
        .iter()
        .flat_map(|g| g.files.iter().map(String::as_str))
        .collect();
    let mut leftovers = Vec::new();
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
            .filter(|p| !assigned.contains(p.as_str()) && role(p) == Some(want))
            .collect();
        if !files.is_empty() {
            let title = format!("{title}: {}", join_paths(&files));
            leftovers.push(Group::of(files, focus, title));
        }
    }
    if !loose_tests.is_empty() {
        let title = format!("Changed test evidence: {}", join_paths(&loose_tests));
        leftovers.push(Group::of(loose_tests, Focus::Verification, title));
    }
    leftovers
}

/// Up to three paths, then an ellipsis.
fn join_paths(files: &BTreeSet<String>) -> String {
    let mut names: Vec<&str> = files.iter().map(String::as_str).take(3).collect();
    if files.len() > 3 {
        names.push("…");
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(files: &[&str]) -> Group {
        Group {
            commits: vec![0],
            cleanup: vec![],
            files: files.iter().map(|f| f.to_string()).collect(),
            source: IntentSource::Commits,
            focus_hint: None,
            title: None,
        }
    }

    fn roles(p: &str) -> Option<Role> {
        Some(if p.contains("test") {
            Role::Test
        } else {
            Role::Product
        })
    }

    fn clues<'a>(path: &'a str) -> TestClues<'a> {
        TestClues {
            path,
            ..TestClues::default()
        }
    }

    #[test]
    fn a_test_the_intent_changed_is_its_own() {
        let g = group(&["src/cart.ts", "test/basket.test.ts"]);
        let none = BTreeSet::new();
        assert!(claims_test(
            &g,
            &none,
            &clues("test/basket.test.ts"),
            &roles
        ));
        assert!(!claims_test(
            &g,
            &none,
            &clues("test/orders.test.ts"),
            &roles
        ));
    }

    #[test]
    fn a_test_importing_a_behaviour_file_is_claimed_by_its_intent() {
        let g = group(&["src/rules/urgency.js"]);
        let none = BTreeSet::new();
        let imports: BTreeSet<String> = ["urgency".to_string()].into();
        let importing = TestClues {
            imports: Some(&imports),
            ..clues("test/flags.test.js")
        };
        assert!(claims_test(&g, &none, &importing, &roles));
        let other: BTreeSet<String> = ["billing".to_string()].into();
        let elsewhere = TestClues {
            imports: Some(&other),
            ..clues("test/flags.test.js")
        };
        assert!(!claims_test(&g, &none, &elsewhere, &roles));
    }

    #[test]
    fn a_changed_test_title_naming_the_module_ties_the_test() {
        let g = group(&["src/rules/urgency.js"]);
        let none = BTreeSet::new();
        let titled = TestClues {
            titles: vec!["urgency flags account threats".into()],
            ..clues("test/flags.test.js")
        };
        assert!(claims_test(&g, &none, &titled, &roles));
        // A stem under four letters is too common a word to tie anything.
        let short = group(&["src/map.js"]);
        let titled = TestClues {
            titles: vec!["map keeps order".into()],
            ..clues("test/flags.test.js")
        };
        assert!(!claims_test(&short, &none, &titled, &roles));
    }

    #[test]
    fn a_shared_ticket_ties_a_test_to_the_work() {
        let g = group(&["src/orders.py"]);
        let tickets: BTreeSet<String> = ["ORD-231".to_string()].into();
        let covering = TestClues {
            tickets: tickets.clone(),
            ..clues("tests/test_refunds.py")
        };
        assert!(claims_test(&g, &tickets, &covering, &roles));
        assert!(!claims_test(&g, &BTreeSet::new(), &covering, &roles));
    }

    #[test]
    fn a_cleanup_intent_claims_no_test() {
        let mut g = group(&["src/cart.ts", "test/cart.test.ts"]);
        g.focus_hint = Some(Focus::Cleanup);
        let none = BTreeSet::new();
        assert!(!claims_test(&g, &none, &clues("test/cart.test.ts"), &roles));
    }

    #[test]
    fn a_vocabulary_title_names_what_its_files_share_else_the_first_file() {
        let files: BTreeSet<String> = ["src/b.rs".to_string(), "src/a.rs".to_string()].into();
        let topic = vec!["refund".to_string(), "ledger".to_string()];
        assert_eq!(
            vocabulary_title(true, &topic, &files),
            "Uncommitted work on refund, ledger"
        );
        assert_eq!(
            vocabulary_title(false, &[], &files),
            "Work without usable commit text on src/a.rs"
        );
    }

    #[test]
    fn more_than_three_paths_end_in_an_ellipsis() {
        let four: BTreeSet<String> = ["a", "b", "c", "d"].map(String::from).into();
        assert_eq!(join_paths(&four), "a, b, c, …");
        let two: BTreeSet<String> = ["a", "b"].map(String::from).into();
        assert_eq!(join_paths(&two), "a, b");
    }
}
