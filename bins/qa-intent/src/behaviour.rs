//! Which commits carry behaviour: conventional types, plain subjects, cleanup shapes,
//! and the commit's own diff, which alone may drop its product lines.

use std::sync::LazyLock;

use qa_records::change::{CommitData, Role};
use regex::Regex;

use crate::changeset::bears_behaviour;
use crate::equivalence::Verdict;

/// What a commit can contribute to intents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitClass {
    /// Describes behaviour and touches a behaviour-bearing file.
    Behaviour(Rank),
    /// Cleanup-shaped (tidy, lint, typo, review comments): provenance only, no scenarios.
    Cleanup,
    /// docs, style, ci, test, build, chore, release, or only tests/docs changed.
    Maintenance,
    /// No usable text (`wip`, "update", a merge): its files are partitioned by vocabulary.
    Unusable,
}

/// How strongly a commit's type anchors an intent (lower anchors first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    Feature,
    Fix,
    Refactor,
    Plain,
    /// Text that says maintenance or cleanup on a diff that changes behaviour: the
    /// commit counts, but anchors last.
    Maintenance,
}

/// Conventional types that never become product intents.
const MAINTENANCE_TYPES: &[&str] = &[
    "docs", "doc", "style", "ci", "test", "tests", "build", "chore", "release", "revert",
];

/// Words that make a subject cleanup-shaped, whatever its type.
static CLEANUP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        \b(typos?|tidy|tidies|lint(s|ing)?|linter|clippy|prettier|rustfmt|gofmt|black|
           formatt?(ing)?|whitespace|nits?|nitpicks?|dead\ code|unused|
           clean\ ?ups?|clean\ up|cleaned|minor\ refactor(ing)?|small\ refactor(ing)?|
           address(ed|es)?\ (the\ )?(pr\ |code\ )?(review\ )?(comments|feedback|notes)|review\ (comments|feedback)|(pr|mr|code|review)\ (feedback|comments|nits|fixes|suggestions)|(per|after)\ review|
           reorder(ed)?\ imports|sort(ed)?\ imports|fix\ imports|rename(d)?\ (local\ )?variables?)\b",
    )
    .expect("cleanup pattern")
});

/// A description that starts as cleanup (`typo in ...`, `lint warnings`, `remove unused
/// imports`, `address review comments`).
static CLEANUP_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s*(?:fix(?:es|ed)?\s+|correct\s+|run\s+|apply\s+)?(?:the\s+|a\s+|some\s+)?(
            typos?|lint(s|ing)?|linter|clippy|prettier|rustfmt|gofmt|black|formatting|format\ code|
            whitespace|nits?|tidy|clean\ ?up|cleanup|dead\ code|unused\ (imports?|variables?|code)|
            remove\ (dead|unused)|address(ed)?\ (review|pr|the)|review\ (comments|feedback)|
            (pr|mr|code)\ (feedback|review)|minor\ refactor)\b",
    )
    .expect("cleanup lead pattern")
});

/// Subjects with no usable intent.
static UNUSABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s*(
            (wip|tmp|temp|todo|checkpoint|stuff|misc|fixup!|squash!|amend!)\b.*
          | (save|changes?|updates?|progress|more)(\ \S+)?\s*
          | (update|edit|change)s?\ [\w./-]+\s*$
          | [.\-_!?\s]*
        )$",
    )
    .expect("unusable pattern")
});

/// Subjects that describe mechanics, not behaviour: versions, dependencies, generated
/// files, moves and merges.
static MECHANICAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s*(
            (bump|bumps|bumped|upgrade|upgrades|pin|pins|unpin|vendor|regenerate|regenerates|
             release|prepare\ release|publish|version|merge|merged|revert|reverts|reformat|
             initial\ commit|init|bootstrap|scaffold|sync\ with|rebase)\b.*
          | (fixup|squash|amend)!.*
          | v?\d+(\.\d+)+\b.*
          | .*\b(dependenc(y|ies)|deps|lockfile|changelog|snapshots?|version\ to|to\ v?\d+(\.\d+)+)\s*$
        )$",
    )
    .expect("mechanical pattern")
});

/// A plain phrase about what the product does ("Close the temp file before removing it",
/// "Forwards the arguments set in an environment variable"): at least three words, most
/// of them words, and not mechanical.
fn is_descriptive(desc: &str) -> bool {
    let words: Vec<&str> = desc.split_whitespace().collect();
    let wordy = words
        .iter()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    words.len() >= 3 && wordy * 3 >= words.len() * 2 && !MECHANICAL.is_match(desc)
}

/// Verbs that describe externally meaningful behaviour when a subject starts with them
/// (after an optional `area:` prefix) or, for refactors, anywhere in the subject.
const BEHAVIOUR_VERBS: &[&str] = &[
    "apply",
    "applies",
    "approve",
    "approves",
    "archive",
    "archives",
    "avoid",
    "avoids",
    "calculate",
    "calculates",
    "cancel",
    "cancels",
    "charge",
    "charges",
    "compute",
    "computes",
    "convert",
    "converts",
    "count",
    "counts",
    "deny",
    "denies",
    "detect",
    "detects",
    "download",
    "enforces",
    "expire",
    "expires",
    "fall",
    "falls",
    "filter",
    "filters",
    "flag",
    "flags",
    "forbid",
    "format",
    "formats",
    "grant",
    "grants",
    "lock",
    "locks",
    "mark",
    "marks",
    "paginate",
    "parse",
    "parses",
    "refund",
    "refunds",
    "remove",
    "removes",
    "render",
    "renders",
    "report",
    "reports",
    "reset",
    "resets",
    "restore",
    "restores",
    "round",
    "rounds",
    "schedule",
    "schedules",
    "search",
    "sync",
    "syncs",
    "treat",
    "treats",
    "unlock",
    "upload",
    "uploads",
    "verify",
    "verifies",
    "accept",
    "add",
    "adds",
    "allow",
    "allows",
    "block",
    "blocks",
    "cap",
    "create",
    "creates",
    "disable",
    "disables",
    "display",
    "displays",
    "emit",
    "emits",
    "enable",
    "enables",
    "enforce",
    "export",
    "exports",
    "expose",
    "exposes",
    "fix",
    "fixes",
    "handle",
    "handles",
    "hide",
    "hides",
    "ignore",
    "ignores",
    "implement",
    "implements",
    "introduce",
    "introduces",
    "keep",
    "keeps",
    "let",
    "lets",
    "limit",
    "limits",
    "notify",
    "persist",
    "persists",
    "prevent",
    "prevents",
    "redirect",
    "redirects",
    "reject",
    "rejects",
    "remember",
    "require",
    "requires",
    "respect",
    "retry",
    "retries",
    "return",
    "returns",
    "save",
    "saves",
    "send",
    "sends",
    "show",
    "shows",
    "skip",
    "skips",
    "sort",
    "sorts",
    "store",
    "stores",
    "support",
    "supports",
    "track",
    "validate",
    "validates",
    "warn",
    "warns",
];

/// A leading ticket reference: `ORD-231 `, `[ORD-231] `, `(#42) `, `#42 `, `ORD-231: `.
static LEADING_TICKET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:\[[A-Z][A-Z0-9]+-\d+\]|\(#?\d+\)|#\d+|[A-Z][A-Z0-9]+-\d+)\s*[:\-–]?\s+")
        .expect("ticket prefix pattern")
});

/// The subject with a leading ticket reference and a conventional `type(scope)!:` or
/// plain `area:` prefix removed.
pub fn description(subject: &str) -> &str {
    let subject = match LEADING_TICKET.find(subject) {
        Some(m) if m.end() < subject.len() => &subject[m.end()..],
        _ => subject,
    };
    match subject.split_once(':') {
        Some((prefix, rest))
            if !prefix.is_empty()
                && prefix.len() <= 40
                && !prefix.contains(' ')
                && !rest.trim().is_empty() =>
        {
            rest.trim()
        }
        _ => subject.trim(),
    }
}

/// A subject's description without trailing ticket references (`(#40)`, `[SHOP-301]`,
/// `(ABC-1, #2)`): the tickets live in their own field.
pub fn title_of(description: &str) -> &str {
    static TRAILING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\s*[\(\[](?:#\d+|[A-Z][A-Z0-9]+-\d+)(?:\s*,\s*(?:#\d+|[A-Z][A-Z0-9]+-\d+))*[\)\]]\s*$")
            .expect("trailing ticket pattern")
    });
    match TRAILING.find(description) {
        Some(m) if m.start() > 0 => &description[..m.start()],
        _ => description,
    }
}

/// True when `text` names behaviour a user, caller or operator could observe.
pub fn describes_behaviour(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| BEHAVIOUR_VERBS.contains(&w.to_ascii_lowercase().as_str()))
}

fn starts_with_behaviour_verb(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .is_some_and(|w| BEHAVIOUR_VERBS.contains(&w.to_ascii_lowercase().as_str()))
}

/// True when the subject is cleanup-shaped.
pub fn is_cleanup_shaped(subject: &str) -> bool {
    CLEANUP.is_match(subject)
}

/// Classifies a commit; `role` gives the role of each path the range changed (None for
/// paths the net diff no longer shows), `diff` judges the commit's own diff. The text
/// may demote a commit to cleanup or maintenance only when the diff agrees; an unread
/// diff leaves the text's word.
pub fn classify(
    commit: &CommitData,
    role: impl Fn(&str) -> Option<Role>,
    diff: impl FnOnce() -> Option<Verdict>,
) -> CommitClass {
    let said = by_text(commit, &role);
    if !touches_behaviour(commit, &role) {
        return said;
    }
    if !demotes(said) {
        // Whatever its subject says, a commit whose product lines are only comments,
        // pragmas, layout, type annotations or moved code changes no behaviour. A
        // renaming is not enough here: a renamed exported name is an API change. A typed
        // feature or fix is taken at its word without reading its diff (parsing every
        // commit's files twice tripled the flow's time): at worst it keeps a scenario,
        // it never loses one.
        return if (untyped(said) || unusable_single(commit, said))
            && diff() == Some(Verdict::Neutral)
        {
            CommitClass::Cleanup
        } else {
            said
        };
    }
    match diff() {
        Some(Verdict::Changes) => CommitClass::Behaviour(rank_of_type(commit)),
        // Maintenance the diff shows to leave the product as it was is cleanup of it:
        // listed with the work it tidies.
        Some(Verdict::Neutral | Verdict::Renamed) => CommitClass::Cleanup,
        None => said,
    }
}

/// True when [`classify`] reads the commit's own diff: it touches behaviour, and its text
/// demotes it or names no type of change.
pub fn reads_diff(commit: &CommitData, role: impl Fn(&str) -> Option<Role>) -> bool {
    let said = by_text(commit, &role);
    touches_behaviour(commit, &role)
        && (demotes(said) || untyped(said) || unusable_single(commit, said))
}

/// A single commit whose text says nothing usable ("Javadoc", "Tweaks"): only its diff
/// can tell whether it changed behaviour. A merge's diff is its branch's work, judged
/// commit by commit.
fn unusable_single(commit: &CommitData, said: CommitClass) -> bool {
    said == CommitClass::Unusable && !commit.merge
}

/// A commit kept as behaviour by a text that names no feature or fix.
fn untyped(said: CommitClass) -> bool {
    matches!(said, CommitClass::Behaviour(Rank::Plain | Rank::Refactor))
}

/// True for a commit typed as a feature or a fix (`feat:`, `fix:`, `perf:`, ...).
pub fn is_typed_change(commit: &CommitData) -> bool {
    matches!(
        commit
            .kind
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("feat" | "feature" | "fix" | "hotfix" | "bugfix" | "perf")
    )
}

/// True for the classes that keep a commit's product lines out of every intent.
pub fn demotes(class: CommitClass) -> bool {
    matches!(class, CommitClass::Cleanup | CommitClass::Maintenance)
}

/// True when the commit changed a file the range still shows that bears behaviour.
fn touches_behaviour(commit: &CommitData, role: &impl Fn(&str) -> Option<Role>) -> bool {
    commit
        .files
        .iter()
        .any(|p| role(p).is_some_and(bears_behaviour))
}

/// The rank a demoted commit keeps once its diff shows behaviour: a typed feature or fix
/// keeps its type's, every other type anchors last.
fn rank_of_type(commit: &CommitData) -> Rank {
    match commit
        .kind
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("feat" | "feature") => Rank::Feature,
        Some("fix" | "hotfix" | "bugfix" | "perf") => Rank::Fix,
        _ => Rank::Maintenance,
    }
}

/// What the commit's type and subject alone make of it.
pub fn by_text(commit: &CommitData, role: &impl Fn(&str) -> Option<Role>) -> CommitClass {
    if commit.merge {
        return CommitClass::Unusable;
    }
    let roles: Vec<Role> = commit.files.iter().filter_map(|p| role(p)).collect();
    let behaviour_files = roles.iter().any(|&r| bears_behaviour(r));
    let other_files = roles
        .iter()
        .any(|&r| matches!(r, Role::Configuration | Role::RepositoryWorkflow));
    let kind = commit.kind.as_deref().map(str::to_ascii_lowercase);
    let desc = description(&commit.subject);

    if kind
        .as_deref()
        .is_some_and(|k| MAINTENANCE_TYPES.contains(&k))
    {
        return CommitClass::Maintenance;
    }
    if !behaviour_files && !other_files {
        // Only tests, docs or generated files changed (or nothing the net diff kept).
        return CommitClass::Maintenance;
    }
    let typed = matches!(
        kind.as_deref(),
        Some("feat" | "feature" | "fix" | "hotfix" | "bugfix" | "perf")
    );
    // A feature that mentions a format or unused coupons is still a feature: a typed
    // commit is cleanup only when its description leads with the cleanup.
    if if typed {
        CLEANUP_LEAD.is_match(desc)
    } else {
        is_cleanup_shaped(&commit.subject)
    } {
        return CommitClass::Cleanup;
    }
    match kind.as_deref() {
        Some("feat" | "feature") => CommitClass::Behaviour(Rank::Feature),
        Some("fix" | "hotfix" | "bugfix" | "perf") => CommitClass::Behaviour(Rank::Fix),
        Some("refactor") if describes_behaviour(desc) => CommitClass::Behaviour(Rank::Refactor),
        Some("refactor") => CommitClass::Cleanup,
        // Another conventional-looking type (e.g. `deps`, `i18n`): judge it as plain text.
        _ if UNUSABLE.is_match(desc) || UNUSABLE.is_match(&commit.subject) => CommitClass::Unusable,
        _ if starts_with_behaviour_verb(desc) => CommitClass::Behaviour(Rank::Plain),
        // A ticketed subject of a few words names real work even without a known verb
        // ("SHOP-301 free shipping over 50"): its ticket joins it to its siblings.
        _ if !commit.tickets.is_empty()
            && behaviour_files
            && desc.split_whitespace().count() >= 3 =>
        {
            CommitClass::Behaviour(Rank::Plain)
        }
        // Many projects write plain imperative or third-person phrases about the product:
        // on a product file, such a subject is the intent's wording.
        _ if behaviour_files && is_descriptive(desc) => CommitClass::Behaviour(Rank::Plain),
        _ => CommitClass::Unusable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(subject: &str, kind: Option<&str>, files: &[&str]) -> CommitData {
        CommitData {
            oid: "0".repeat(40),
            parents: vec![],
            merge: false,
            subject: subject.to_string(),
            body: String::new(),
            kind: kind.map(str::to_string),
            scope: None,
            breaking: false,
            tickets: vec![],
            files: files.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn role_of(path: &str) -> Option<Role> {
        Some(if path.contains("test") {
            Role::Test
        } else if path.starts_with("docs/") || path.ends_with(".md") {
            Role::Documentation
        } else if path.ends_with(".json") {
            Role::Configuration
        } else {
            Role::Product
        })
    }

    /// The class by text alone: no diff is read.
    fn class(subject: &str, kind: Option<&str>, files: &[&str]) -> CommitClass {
        classify(&commit(subject, kind, files), role_of, || None)
    }

    fn judged(subject: &str, kind: Option<&str>, files: &[&str], diff: Verdict) -> CommitClass {
        classify(&commit(subject, kind, files), role_of, || Some(diff))
    }

    #[test]
    fn a_maintenance_type_on_a_diff_that_changes_behaviour_counts_last() {
        for kind in ["chore", "refactor", "style", "test", "docs"] {
            assert_eq!(
                judged(
                    &format!("{kind}: tidy port parsing"),
                    Some(kind),
                    &["src/port.go"],
                    Verdict::Changes
                ),
                CommitClass::Behaviour(Rank::Maintenance),
                "{kind}"
            );
        }
    }

    #[test]
    fn a_maintenance_type_on_a_neutral_diff_is_cleanup() {
        assert_eq!(
            judged(
                "chore: rename a local",
                Some("chore"),
                &["src/port.go"],
                Verdict::Neutral
            ),
            CommitClass::Cleanup
        );
        // Unread, the text's word stands.
        assert_eq!(
            class("chore: rename a local", Some("chore"), &["src/port.go"]),
            CommitClass::Maintenance
        );
        assert_eq!(
            judged(
                "refactor: extract price module",
                Some("refactor"),
                &["src/c.ts"],
                Verdict::Neutral
            ),
            CommitClass::Cleanup
        );
    }

    #[test]
    fn a_cleanup_shaped_fix_on_a_diff_that_changes_behaviour_keeps_its_rank() {
        assert_eq!(
            judged(
                "fix: lint warnings",
                Some("fix"),
                &["src/c.ts"],
                Verdict::Changes
            ),
            CommitClass::Behaviour(Rank::Fix)
        );
        assert_eq!(
            judged(
                "fix: lint warnings",
                Some("fix"),
                &["src/c.ts"],
                Verdict::Neutral
            ),
            CommitClass::Cleanup
        );
    }

    #[test]
    fn a_plain_subject_on_a_neutral_diff_is_cleanup_and_on_a_renaming_is_not() {
        let subject = "Add type annotation for `Request.hooks`";
        assert_eq!(
            class(subject, None, &["src/requests/auth.py"]),
            CommitClass::Behaviour(Rank::Plain)
        );
        assert_eq!(
            judged(subject, None, &["src/requests/auth.py"], Verdict::Neutral),
            CommitClass::Cleanup
        );
        // A renamed exported name is an API change the diff cannot rule out.
        assert_eq!(
            judged(
                "Rename the checkout entry point",
                None,
                &["src/c.ts"],
                Verdict::Renamed
            ),
            CommitClass::Behaviour(Rank::Plain)
        );
        assert_eq!(
            judged(subject, None, &["src/requests/auth.py"], Verdict::Changes),
            CommitClass::Behaviour(Rank::Plain)
        );
    }

    #[test]
    fn an_unusable_subject_on_a_neutral_diff_is_cleanup_and_on_a_change_stays_partitioned() {
        assert_eq!(
            judged(
                "Javadoc",
                None,
                &["src/main/java/Lookup.java"],
                Verdict::Neutral
            ),
            CommitClass::Cleanup
        );
        assert_eq!(
            judged("Tweaks", None, &["source/core/index.ts"], Verdict::Changes),
            CommitClass::Unusable
        );
        // A renaming may change an exported name: the vocabulary still partitions it.
        assert_eq!(
            judged("Tweaks", None, &["source/core/index.ts"], Verdict::Renamed),
            CommitClass::Unusable
        );
        // A merge is judged by its commits, not as one diff.
        let mut merge = commit("Merge branch 'x'", None, &["src/a.ts"]);
        merge.merge = true;
        assert_eq!(
            classify(&merge, role_of, || Some(Verdict::Neutral)),
            CommitClass::Unusable
        );
    }

    #[test]
    fn a_typed_feature_or_fix_is_taken_at_its_word_without_reading_its_diff() {
        let read = std::cell::Cell::new(false);
        let class = classify(
            &commit("feat: show initials", Some("feat"), &["src/avatar.ts"]),
            role_of,
            || {
                read.set(true);
                Some(Verdict::Neutral)
            },
        );
        assert_eq!(class, CommitClass::Behaviour(Rank::Feature));
        assert!(!read.get());
    }

    #[test]
    fn the_diff_is_not_read_for_commits_without_behaviour_files() {
        let read = std::cell::Cell::new(false);
        let class = classify(
            &commit("chore: docs", Some("chore"), &["docs/a.md"]),
            role_of,
            || {
                read.set(true);
                Some(Verdict::Changes)
            },
        );
        assert_eq!(class, CommitClass::Maintenance);
        assert!(!read.get());
    }

    #[test]
    fn feat_and_fix_touching_product_are_behaviour() {
        assert_eq!(
            class("feat: add coupons", Some("feat"), &["src/coupon.ts"]),
            CommitClass::Behaviour(Rank::Feature)
        );
        assert_eq!(
            class("fix: reject bad refunds", Some("fix"), &["src/refund.ts"]),
            CommitClass::Behaviour(Rank::Fix)
        );
        assert_eq!(
            class("perf: cache totals", Some("perf"), &["src/cart.ts"]),
            CommitClass::Behaviour(Rank::Fix)
        );
    }

    #[test]
    fn maintenance_types_never_become_behaviour_even_on_product_files() {
        for kind in ["docs", "style", "ci", "test", "build", "chore", "release"] {
            assert_eq!(
                class(&format!("{kind}: add things"), Some(kind), &["src/cart.ts"]),
                CommitClass::Maintenance,
                "{kind}"
            );
        }
    }

    #[test]
    fn test_only_and_docs_only_feats_are_maintenance() {
        assert_eq!(
            class("feat: add cart tests", Some("feat"), &["src/cart.test.ts"]),
            CommitClass::Maintenance
        );
        assert_eq!(
            class("feat: document coupons", Some("feat"), &["docs/coupons.md"]),
            CommitClass::Maintenance
        );
    }

    #[test]
    fn refactor_counts_only_when_it_describes_behaviour() {
        assert_eq!(
            class(
                "refactor: reject expired coupons at checkout",
                Some("refactor"),
                &["src/c.ts"]
            ),
            CommitClass::Behaviour(Rank::Refactor)
        );
        assert_eq!(
            class(
                "refactor: extract price module",
                Some("refactor"),
                &["src/c.ts"]
            ),
            CommitClass::Cleanup
        );
        assert_eq!(
            class(
                "refactor: minor cleanup of cart helpers",
                Some("refactor"),
                &["src/c.ts"]
            ),
            CommitClass::Cleanup
        );
    }

    #[test]
    fn a_typed_feature_mentioning_cleanup_words_stays_a_feature() {
        for subject in [
            "feat(cli): --format json and exit 3 on errors",
            "feat: date format setting",
            "fix: refund unused coupons",
        ] {
            let kind = subject.split([':', '(']).next();
            assert!(
                matches!(
                    class(subject, kind, &["src/cli.ts"]),
                    CommitClass::Behaviour(_)
                ),
                "{subject}"
            );
        }
        assert_eq!(
            class("fix: typo in checkout", Some("fix"), &["src/c.ts"]),
            CommitClass::Cleanup
        );
        assert_eq!(
            class("fix: lint warnings", Some("fix"), &["src/c.ts"]),
            CommitClass::Cleanup
        );
    }

    #[test]
    fn cleanup_shapes_are_cleanup_whatever_the_type() {
        for subject in [
            "address review comments",
            "pr feedback: shorter message",
            "Apply code review suggestions",
            "Fix typo in cart",
            "fix: lint warnings",
            "tidy imports",
            "Apply prettier",
            "Remove dead code",
        ] {
            assert_eq!(
                class(subject, None, &["src/cart.ts"]),
                CommitClass::Cleanup,
                "{subject}"
            );
        }
    }

    #[test]
    fn plain_subjects_with_behaviour_verbs_on_product_files_count() {
        assert_eq!(
            class("Add support for gift cards", None, &["src/giftcard.ts"]),
            CommitClass::Behaviour(Rank::Plain)
        );
        assert_eq!(
            class("cart: show totals in the header", None, &["src/cart.ts"]),
            CommitClass::Behaviour(Rank::Plain)
        );
    }

    #[test]
    fn plain_subjects_without_product_files_or_verbs_do_not_count() {
        assert_eq!(
            class("Add support for gift cards", None, &["docs/gift.md"]),
            CommitClass::Maintenance
        );
        assert_eq!(
            class("Tweak spacing", None, &["src/cal.ts"]),
            CommitClass::Unusable
        );
    }

    #[test]
    fn plain_descriptive_subjects_on_product_files_are_behaviour_wording() {
        for subject in [
            "Close the temp file before removing it",
            "Keep the declaration order of option names",
            "Forwards the arguments set in an environment variable",
            "Open the cache file in text mode",
            "Tweak calendar spacing",
            "Update \"pause\" and \"resume\" API calls to use `update_fields`",
        ] {
            assert_eq!(
                class(subject, None, &["src/cache.py"]),
                CommitClass::Behaviour(Rank::Plain),
                "{subject}"
            );
        }
    }

    #[test]
    fn mechanical_subjects_stay_without_usable_wording() {
        for subject in [
            "Bump serde to 1.0.200",
            "v2.3.1",
            "Merge pull request 42 from x/y",
            "Regenerate the parser tables",
            "Update dependencies",
            "refresh the lockfile",
            "1 2 3",
        ] {
            assert_ne!(
                class(subject, None, &["src/cache.py"]),
                CommitClass::Behaviour(Rank::Plain),
                "{subject}"
            );
        }
        // The same descriptive phrase on a docs-only commit is maintenance.
        assert_eq!(
            class(
                "Close the temp file before removing it",
                None,
                &["docs/a.md"]
            ),
            CommitClass::Maintenance
        );
    }

    #[test]
    fn leading_ticket_ids_do_not_hide_the_verb() {
        assert_eq!(
            description("ORD-231 add cancel endpoint"),
            "add cancel endpoint"
        );
        assert_eq!(
            description("[ORD-231] add cancel endpoint"),
            "add cancel endpoint"
        );
        assert_eq!(description("#42 show totals"), "show totals");
        assert_eq!(
            description("ORD-231: add cancel endpoint"),
            "add cancel endpoint"
        );
        assert_eq!(
            class(
                "ORD-231 add cancel endpoint for orders",
                None,
                &["src/orders.ts"]
            ),
            CommitClass::Behaviour(Rank::Plain)
        );
        // A subject that is only a ticket stays unusable.
        assert_eq!(
            class("ORD-231", None, &["src/orders.ts"]),
            CommitClass::Unusable
        );
    }

    #[test]
    fn a_ticketed_subject_without_a_known_verb_still_counts() {
        let mut c = commit("SHOP-301 free shipping over 50", None, &["src/cart.ts"]);
        c.tickets = vec!["SHOP-301".into()];
        assert_eq!(
            classify(&c, role_of, || None),
            CommitClass::Behaviour(Rank::Plain)
        );
        // Without the ticket, two words are no usable intent.
        let c = commit("free shipping", None, &["src/cart.ts"]);
        assert_eq!(classify(&c, role_of, || None), CommitClass::Unusable);
    }

    #[test]
    fn titles_leave_trailing_ticket_references_to_the_tickets_field() {
        assert_eq!(title_of("add export (#40)"), "add export");
        assert_eq!(
            title_of("free shipping over 50 [SHOP-301]"),
            "free shipping over 50"
        );
        assert_eq!(title_of("add export (ABC-1, #2)"), "add export");
        // A parenthesis that is not a ticket stays.
        assert_eq!(title_of("add export (CSV)"), "add export (CSV)");
    }

    #[test]
    fn wip_and_vague_subjects_are_unusable() {
        for subject in [
            "wip",
            "WIP: more",
            "update",
            "changes",
            "update cart.ts",
            "more changes",
            ".",
            "fixup! feat: x",
        ] {
            assert_eq!(
                class(subject, None, &["src/cart.ts"]),
                CommitClass::Unusable,
                "{subject}"
            );
        }
    }

    #[test]
    fn merges_are_unusable() {
        let mut c = commit("Merge branch 'x'", None, &[]);
        c.merge = true;
        assert_eq!(classify(&c, role_of, || None), CommitClass::Unusable);
    }

    #[test]
    fn description_strips_type_and_area_prefixes_only() {
        assert_eq!(description("feat(cart): add coupons"), "add coupons");
        assert_eq!(description("cart: show totals"), "show totals");
        assert_eq!(description("Add a: b thing"), "Add a: b thing");
        assert_eq!(description("Support ratio 1:2"), "Support ratio 1:2");
    }
}
