//! The small rules that judge one intent: what it is about (focus), how sure the evidence
//! makes it (confidence), who owns the judgement (authority), its kind and why.

use std::collections::BTreeMap;

use qa_records::change::{Authority, Confidence, Focus, IntentSource, Role};

/// What the evidence of an intent shows, as its rules read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evidence {
    /// A changed line (or syntax-tree step) locates the behaviour.
    pub located: bool,
    /// A changed line shows an observable outcome, or a changed test states one.
    pub proves: bool,
    /// How many lifecycle stages the located evidence spans.
    pub stages: usize,
    /// Changed tests stating the behaviour.
    pub contracts: usize,
    /// Located facts of any weight.
    pub facts: usize,
}

/// What the intent is about: the group's own hint (cleanup, configuration, leftover tests),
/// else the most specific role among its files. A product file whose only changed lines
/// wire in a command or a rule (`product_lines` false) does not make it a product journey.
pub fn focus(hint: Option<Focus>, roles: &BTreeMap<String, Role>, product_lines: bool) -> Focus {
    if let Some(hint) = hint {
        return hint;
    }
    let has = |want: Role| roles.values().any(|&r| r == want);
    let journey =
        has(Role::Product) && (product_lines || !(has(Role::Command) || has(Role::AnalysisRule)));
    if journey {
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
    }
}

/// How sure the evidence makes the intent. `anchored` says a commit names the work;
/// `demoted` that its text calls it maintenance (it then counts by its diff, but with less
/// certainty than a commit whose text and diff agree).
pub fn confidence(
    source: IntentSource,
    focus: Focus,
    anchored: bool,
    demoted: bool,
    e: Evidence,
) -> Confidence {
    match (source, focus) {
        (IntentSource::Vocabulary, _) => Confidence::Low,
        (_, Focus::Cleanup) => Confidence::Medium,
        (_, Focus::Verification) if e.contracts > 0 => Confidence::Medium,
        (_, Focus::Configuration | Focus::RepositoryWorkflow) if e.facts > 0 => Confidence::Medium,
        _ if anchored && demoted && e.located => Confidence::Medium,
        _ if anchored && e.located && e.proves && e.stages >= 2 => Confidence::High,
        _ if e.located => Confidence::Medium,
        _ => Confidence::Low,
    }
}

/// Who owns the judgement: a manifest flow (team policy), else a changed test or a `@qaFlow`
/// annotation (the repository's own contract), else qapipe's inference.
pub fn authority(flow: bool, contracts: usize, flow_annotation: bool) -> Authority {
    if flow {
        Authority::TeamPolicy
    } else if contracts > 0 || flow_annotation {
        Authority::RepositoryContract
    } else {
        Authority::Inference
    }
}

/// The intent's kind: its anchor commit's type, else what its grouping says (`worktree`,
/// `wip`, the first cleanup commit's type or `cleanup`), else `change`.
pub fn kind(
    anchor: Option<Option<&str>>,
    source: IntentSource,
    worktree: bool,
    cleanup: Option<Option<&str>>,
) -> String {
    match (anchor, source) {
        (Some(kind), _) => kind.unwrap_or("change").to_string(),
        (None, IntentSource::Vocabulary) if worktree => "worktree".to_string(),
        (None, IntentSource::Vocabulary) => "wip".to_string(),
        (None, _) => match cleanup {
            Some(kind) => kind.unwrap_or("cleanup").to_string(),
            None => "change".to_string(),
        },
    }
}

/// One sentence on why the intent exists and how sure it is: how its files were grouped,
/// what the changed lines show, how many changed tests state it.
pub fn reason(
    source: IntentSource,
    commits: usize,
    focus: Focus,
    confidence: Confidence,
    e: Evidence,
) -> String {
    let grouping = match (source, commits) {
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
    let evidence = match (e.located, e.proves) {
        (true, true) => "changed lines locate the behaviour and an observable outcome",
        (true, false) => "changed lines locate the behaviour but no observable outcome",
        (false, _) => "no changed line locates the behaviour",
    };
    let tests = if e.contracts > 0 {
        format!("; {} changed test(s)", e.contracts)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(list: &[(&str, Role)]) -> BTreeMap<String, Role> {
        list.iter().map(|(p, r)| (p.to_string(), *r)).collect()
    }

    const STRONG: Evidence = Evidence {
        located: true,
        proves: true,
        stages: 2,
        contracts: 1,
        facts: 3,
    };

    #[test]
    fn a_groups_own_hint_decides_its_focus() {
        let product = roles(&[("src/cart.rs", Role::Product)]);
        assert_eq!(focus(Some(Focus::Cleanup), &product, true), Focus::Cleanup);
        assert_eq!(focus(None, &product, true), Focus::Product);
    }

    #[test]
    fn a_product_file_that_only_wires_in_a_command_is_not_a_journey() {
        let both = roles(&[
            ("src/lib.rs", Role::Product),
            ("src/main.rs", Role::Command),
        ]);
        assert_eq!(focus(None, &both, false), Focus::Command);
        assert_eq!(focus(None, &both, true), Focus::Product);
        // Without a command or a rule beside it, a product file is the journey anyway.
        let alone = roles(&[("src/lib.rs", Role::Product)]);
        assert_eq!(focus(None, &alone, false), Focus::Product);
    }

    #[test]
    fn only_tests_changed_is_verification() {
        let tests = roles(&[("tests/cart.rs", Role::Test)]);
        assert_eq!(focus(None, &tests, false), Focus::Verification);
        let config = roles(&[
            ("tests/cart.rs", Role::Test),
            ("app.toml", Role::Configuration),
        ]);
        assert_eq!(focus(None, &config, false), Focus::Configuration);
    }

    #[test]
    fn anchored_located_proved_work_over_two_stages_is_high() {
        let c = confidence(IntentSource::Commits, Focus::Product, true, false, STRONG);
        assert_eq!(c, Confidence::High);
        let one_stage = Evidence {
            stages: 1,
            ..STRONG
        };
        let c = confidence(
            IntentSource::Commits,
            Focus::Product,
            true,
            false,
            one_stage,
        );
        assert_eq!(c, Confidence::Medium);
    }

    #[test]
    fn maintenance_text_lowers_but_never_hides_located_work() {
        let c = confidence(IntentSource::Commits, Focus::Product, true, true, STRONG);
        assert_eq!(c, Confidence::Medium);
        let nothing = Evidence::default();
        let c = confidence(IntentSource::Commits, Focus::Product, true, true, nothing);
        assert_eq!(c, Confidence::Low);
    }

    #[test]
    fn vocabulary_groups_are_always_low() {
        let c = confidence(
            IntentSource::Vocabulary,
            Focus::Product,
            false,
            false,
            STRONG,
        );
        assert_eq!(c, Confidence::Low);
    }

    #[test]
    fn changed_tests_alone_are_medium_and_nothing_located_is_low() {
        let tests = Evidence {
            contracts: 2,
            ..Evidence::default()
        };
        let c = confidence(
            IntentSource::Commits,
            Focus::Verification,
            false,
            false,
            tests,
        );
        assert_eq!(c, Confidence::Medium);
        let c = confidence(
            IntentSource::Commits,
            Focus::Verification,
            false,
            false,
            Evidence::default(),
        );
        assert_eq!(c, Confidence::Low);
    }

    #[test]
    fn a_flow_is_team_policy_a_changed_test_the_repositorys_contract() {
        assert_eq!(authority(true, 0, false), Authority::TeamPolicy);
        assert_eq!(authority(false, 1, false), Authority::RepositoryContract);
        assert_eq!(authority(false, 0, true), Authority::RepositoryContract);
        assert_eq!(authority(false, 0, false), Authority::Inference);
    }

    #[test]
    fn the_kind_is_the_anchors_type_else_the_groupings() {
        let commits = IntentSource::Commits;
        assert_eq!(kind(Some(Some("fix")), commits, false, None), "fix");
        assert_eq!(kind(Some(None), commits, false, None), "change");
        assert_eq!(kind(None, IntentSource::Vocabulary, true, None), "worktree");
        assert_eq!(kind(None, IntentSource::Vocabulary, false, None), "wip");
        assert_eq!(kind(None, commits, false, Some(Some("style"))), "style");
        assert_eq!(kind(None, commits, false, Some(None)), "cleanup");
        assert_eq!(kind(None, commits, false, None), "change");
    }

    #[test]
    fn the_reason_says_grouping_evidence_tests_and_confidence() {
        let r = reason(
            IntentSource::Commits,
            1,
            Focus::Product,
            Confidence::High,
            STRONG,
        );
        assert_eq!(
            r,
            "one behaviour-bearing commit; changed lines locate the behaviour and an \
             observable outcome; 1 changed test(s); confidence high"
        );
        let r = reason(
            IntentSource::Commits,
            0,
            Focus::Cleanup,
            Confidence::Medium,
            Evidence::default(),
        );
        assert_eq!(
            r,
            "a cleanup-shaped commit: kept for provenance, no scenarios; no changed line \
             locates the behaviour; confidence medium"
        );
    }
}
