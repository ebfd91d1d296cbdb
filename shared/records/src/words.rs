//! The reviewer's vocabulary: each record enum value as the phrase the human reports
//! (qa-report's text, markdown, html and agent summary; qa-manifest explain) show.
//! Records, JSON, SARIF and code quality keep the record names; this is the one place
//! that turns them into words.

use crate::change::{
    ActionKind, Authority, CapabilityName, CapabilityStatus, CommandPurpose, CommandScope,
    Confidence, Decision, Depth, ExecutionState, Focus, Mode, Priority, Receipt, Relation,
    ScenarioKind, Stage, TraceState,
};
use crate::execution::{BlockedReason, ExecutionStatus};

/// A record value as a reviewer reads it.
pub trait Words {
    fn words(&self) -> &'static str;
}

/// `impl Words` for each enum: every variant and its phrase, side by side.
macro_rules! words {
    ($($ty:ident { $($variant:ident => $phrase:literal),* $(,)? })*) => {
        $(
            impl Words for $ty {
                fn words(&self) -> &'static str {
                    match self {
                        $($ty::$variant => $phrase),*
                    }
                }
            }
        )*
    };
}

words! {
    // Why the scenario matters: who says so.
    Authority {
        TeamPolicy => "team policy",
        RepositoryContract => "your changed test says so",
        Inference => "inferred from the diff",
    }
    Focus {
        Product => "product behaviour",
        Command => "a command-line tool",
        AnalysisRule => "an analysis rule",
        Configuration => "configuration",
        RepositoryWorkflow => "the repository's workflow",
        Verification => "tests only",
        Cleanup => "cleanup",
    }
    Confidence {
        Low => "low confidence",
        Medium => "medium confidence",
        High => "high confidence",
    }
    ScenarioKind {
        Primary => "main path",
        Failure => "failure",
        Boundary => "edge case",
        StateTransition => "state change",
    }
    Priority {
        Critical => "critical",
        Recommended => "recommended",
    }
    Decision {
        Required => "required",
        Recommended => "recommended",
        ReviewOnly => "review only",
    }
    // What a person does with a scenario no command runs.
    ActionKind {
        RunRepositoryCommand => "run the repository's command",
        CompleteDraft => "complete the draft test",
        DefineCommand => "add a test command for these files",
        ReviewScenario => "read it and decide whether it matters",
        RunCheck => "run the acceptance check",
    }
    Relation {
        Direct => "changed line",
        Supporting => "supports it",
        Contextual => "context",
    }
    CommandScope {
        ExactTest => "the changed tests, by name",
        File => "the changed test files",
        Module => "the changed module's tests",
        Package => "the package's tests",
        Suite => "the whole suite",
    }
    CommandPurpose {
        Test => "tests",
        Validate => "validates",
        Typecheck => "type check",
        Build => "build",
        Lint => "lint",
    }
    CapabilityName {
        ChangeIntent => "reading what the change means",
        BehaviorImpact => "following what the change reaches",
        ScenarioRouting => "choosing what to test",
        RepositoryValidation => "finding the repository's test commands",
        AutomationDrafting => "drafting tests",
    }
    CapabilityStatus {
        Available => "available",
        Limited => "limited",
        Generic => "generic only",
        Unavailable => "unavailable",
        NotApplicable => "not applicable",
    }
    Depth {
        Deep => "reads the code in depth",
        Structural => "reads the structure only",
        Generic => "generic reading",
        None => "no reading",
    }
    TraceState {
        Traceable => "traced to the changed lines",
        Partial => "partly traced to the changed lines",
        ReviewOnly => "traced to the commit wording only",
    }
    // The trace's own word on execution, when no execution record says more.
    ExecutionState {
        NotRun => "not run yet",
        Passed => "ran: passed",
        Failed => "ran: failed",
        Blocked => "not run: blocked",
    }
    ExecutionStatus {
        Passed => "ran: passed",
        Failed => "ran: failed",
        RepositoryChanged => "ran: passed but changed the repository",
        Empty => "ran no test: empty, not a pass",
        Incomplete => "ran: the changed tests did not all run",
        Blocked => "not run: blocked",
        TimedOut => "ran: timed out",
        Cancelled => "ran: cancelled",
    }
    BlockedReason {
        ExecNotAllowed => "running commands was not allowed (--allow-exec)",
        NoRoute => "no scenario is routed",
        NotACommandRoute => "its route runs no command",
        NoCommand => "its route names no command",
        NotDiscovered => "not among the repository's own commands",
        TooLong => "the command is too long",
        ControlCharacter => "the command holds a control character",
        InstructionLike => "the command holds instruction-like text",
        RunnerMissing => "its runner is not installed",
        DirectoryOutside => "its folder is outside the repository",
        NotARepository => "not a git repository",
    }
    // A lifecycle step.
    Stage {
        Trigger => "trigger",
        Condition => "condition",
        Action => "action",
        StateChange => "state change",
        SideEffect => "side effect",
        ObservableOutcome => "observable outcome",
    }
    Mode {
        Committed => "committed",
        Worktree => "working tree",
    }
    Receipt {
        Compiled => "fully mapped",
        Partial => "partially mapped",
        NotCompiled => "not mapped",
        ReviewOnly => "review only",
    }
}

/// A scenario no route names, as the reports say it.
pub const NOT_ROUTED: &str = "not routed";

/// A critical scenario its route left for review only.
pub const DOWNGRADED: &str = "downgraded";

/// What a test run writes as a matter of course (`target/`, `build/`): no reason to ask.
const OWN_OUTPUT: &str = "build-artifacts";

/// What a routed command's action contract asks of a person, in words; None for a
/// command that only reads the repository (a test run that writes nothing but its own
/// build output and stays offline), which needs no more than being run.
pub fn approval(action: &crate::change::Action) -> Option<String> {
    let mut does: Vec<String> = action
        .writes
        .iter()
        .filter(|w| *w != OWN_OUTPUT)
        .map(|w| match w.as_str() {
            "dependencies" => "install dependencies".to_string(),
            other => format!("write {}", other.replace('-', " ")),
        })
        .collect();
    if action.network {
        does.push("use the network".to_string());
    }
    (!does.is_empty()).then(|| format!("approval needed: it may {}", does.join(" and ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{Action, Risk};

    fn action(writes: &[&str], network: bool) -> Action {
        Action {
            kind: ActionKind::RunRepositoryCommand,
            risk: Risk::Medium,
            approval: "required".into(),
            executes_code: true,
            writes: writes.iter().map(|w| w.to_string()).collect(),
            network,
            preconditions: vec![],
        }
    }

    #[test]
    fn the_authority_says_who_makes_the_scenario_matter() {
        assert_eq!(
            Authority::RepositoryContract.words(),
            "your changed test says so"
        );
        assert_eq!(Authority::TeamPolicy.words(), "team policy");
        assert_eq!(Authority::Inference.words(), "inferred from the diff");
    }

    #[test]
    fn execution_says_not_run_yet_or_what_the_run_gave() {
        assert_eq!(ExecutionState::NotRun.words(), "not run yet");
        assert_eq!(ExecutionStatus::Passed.words(), "ran: passed");
        assert_eq!(ExecutionStatus::Failed.words(), "ran: failed");
    }

    #[test]
    fn a_test_run_writing_only_its_build_output_offline_needs_no_approval_line() {
        assert_eq!(approval(&action(&["build-artifacts"], false)), None);
        assert_eq!(approval(&action(&[], false)), None);
    }

    #[test]
    fn a_command_that_installs_or_fetches_says_approval_needed_and_why() {
        assert_eq!(
            approval(&action(&["build-artifacts", "dependencies"], true)).as_deref(),
            Some("approval needed: it may install dependencies and use the network")
        );
    }

    #[test]
    fn no_phrase_is_a_kebab_case_name() {
        let phrases = [
            ActionKind::RunRepositoryCommand.words(),
            ActionKind::CompleteDraft.words(),
            ActionKind::DefineCommand.words(),
            ActionKind::ReviewScenario.words(),
            Focus::AnalysisRule.words(),
            Focus::RepositoryWorkflow.words(),
            CapabilityName::ChangeIntent.words(),
            CapabilityName::AutomationDrafting.words(),
            CapabilityStatus::NotApplicable.words(),
            CommandScope::ExactTest.words(),
            TraceState::ReviewOnly.words(),
            ExecutionStatus::RepositoryChanged.words(),
            ExecutionStatus::TimedOut.words(),
            Decision::ReviewOnly.words(),
            Receipt::NotCompiled.words(),
            Stage::StateChange.words(),
            Stage::SideEffect.words(),
            Stage::ObservableOutcome.words(),
            ExecutionState::NotRun.words(),
            BlockedReason::ExecNotAllowed.words(),
            BlockedReason::NotACommandRoute.words(),
        ];
        for phrase in phrases {
            // "instruction-like" and "command-line" are English; a record name joins
            // lowercase words with `-` and nothing else.
            let kebab = phrase
                .split(' ')
                .map(|w| w.trim_matches(|c: char| "(),:;".contains(c)))
                .any(|w| w.contains('-') && !w.starts_with('-') && w != "command-line");
            assert!(!kebab, "{phrase}");
        }
    }
}
