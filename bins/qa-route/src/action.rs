//! The action contract of a route: what it asks to do next, with its risk, approval,
//! side effects and preconditions.

use crate::commands::{Candidate, Runner};
use crate::installed::{self, Installed};
use crate::tree::{shown, Reader};
use qa_records::change::{Action, ActionKind, Priority, Risk, RouteData, Unmet};

/// Every route's action needs a person or an explicit flag before anything happens.
const APPROVAL: &str = "required";

/// What routing and discovery concluded for one scenario.
pub enum Outcome<'a> {
    /// Commit wording or context only.
    Review,
    /// A command to run: one that can start, or (with what it lacks) the narrowest one
    /// when none can.
    Run(&'a Candidate, Option<&'a Unmet>),
    /// No command covers these files.
    NoCommand(&'a [String]),
}

fn inert(kind: ActionKind, preconditions: Vec<String>) -> Action {
    Action {
        kind,
        risk: Risk::Low,
        approval: APPROVAL.into(),
        executes_code: false,
        writes: Vec::new(),
        network: false,
        preconditions,
    }
}

/// The action for `outcome` on a scenario of `priority`.
pub fn action(outcome: Outcome, priority: Priority) -> Action {
    match outcome {
        Outcome::Review => inert(
            ActionKind::ReviewScenario,
            vec!["a person confirms the scenario matters".into()],
        ),
        Outcome::Run(command, unmet) => {
            let mut writes = vec!["build-artifacts".to_string()];
            if command.runner.fetches() {
                writes.push("dependencies".into());
            }
            let runner = match (unmet, command.runner) {
                (Some(unmet), _) => unmet.precondition.clone(),
                (None, Runner::Gradlew) => {
                    "`./gradlew` is executable in the repository".to_string()
                }
                (None, runner) => format!("`{}` is on PATH", runner.program()),
            };
            Action {
                kind: ActionKind::RunRepositoryCommand,
                risk: match priority {
                    Priority::Critical => Risk::High,
                    Priority::Recommended => Risk::Medium,
                },
                approval: APPROVAL.into(),
                executes_code: true,
                writes,
                network: command.runner.fetches(),
                preconditions: vec![
                    runner,
                    format!("it runs from `{}` in the repository", shown(&command.dir)),
                ],
            }
        }
        Outcome::NoCommand(files) => inert(
            ActionKind::DefineCommand,
            vec![format!(
                "the repository declares a validation command for {}",
                files_named(files)
            )],
        ),
    }
}

/// The precondition of a command whose runner needs `installed`.
pub fn installed_precondition(installed: &Installed) -> String {
    format!(
        "the repository's dependencies are installed ({})",
        installed.needs
    )
}

/// Adds to `route`, which runs `command` (if any), what its runner needs installed: a
/// precondition on its action, and one clause in its reason when the working tree
/// shows it absent. `reader` reads the declaring build file.
pub fn require_installed(route: &mut RouteData, command: Option<&Candidate>, reader: &mut Reader) {
    let Some(installed) = command.and_then(|c| installed::needed(c, reader)) else {
        return;
    };
    route
        .action
        .preconditions
        .push(installed_precondition(&installed));
    if let Some(absent) = &installed.absent {
        route.reason = format!("{}; {absent}", route.reason);
    }
}

/// Up to three files by name, then a count.
fn files_named(files: &[String]) -> String {
    let shown: Vec<String> = files.iter().take(3).map(|f| format!("`{f}`")).collect();
    match files.len() {
        0 => "the changed files".into(),
        n if n > 3 => format!("{} and {} more", shown.join(", "), n - 3),
        _ => shown.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::CommandScope;

    fn command(runner: Runner, run: &str, dir: &str) -> Candidate {
        Candidate::new(runner, run.into(), dir, CommandScope::Package, "x")
    }

    #[test]
    fn review_only_is_a_low_risk_review_that_runs_nothing() {
        let a = action(Outcome::Review, Priority::Critical);
        assert_eq!(a.kind, ActionKind::ReviewScenario);
        assert_eq!(a.risk, Risk::Low);
        assert!(!a.executes_code && !a.network && a.writes.is_empty());
        assert_eq!(a.preconditions, ["a person confirms the scenario matters"]);
    }

    #[test]
    fn running_a_package_manager_is_networked_and_may_install() {
        let c = command(Runner::Cargo, "cargo test -p a", "crates");
        let a = action(Outcome::Run(&c, None), Priority::Critical);
        assert_eq!(a.kind, ActionKind::RunRepositoryCommand);
        assert_eq!(a.risk, Risk::High);
        assert_eq!(a.approval, "required");
        assert!(a.executes_code && a.network);
        assert_eq!(a.writes, ["build-artifacts", "dependencies"]);
        assert_eq!(
            a.preconditions,
            [
                "`cargo` is on PATH",
                "it runs from `crates` in the repository"
            ]
        );
    }

    #[test]
    fn running_pytest_is_offline_and_medium_risk_when_not_critical() {
        let c = command(Runner::Pytest, "pytest", "");
        let a = action(Outcome::Run(&c, None), Priority::Recommended);
        assert_eq!(a.risk, Risk::Medium);
        assert!(!a.network);
        assert_eq!(a.writes, ["build-artifacts"]);
        assert_eq!(a.preconditions[1], "it runs from `.` in the repository");
    }

    #[test]
    fn no_command_asks_for_one_naming_the_files() {
        let files = vec![
            "a.rs".to_string(),
            "b.rs".into(),
            "c.rs".into(),
            "d.rs".into(),
        ];
        let a = action(Outcome::NoCommand(&files), Priority::Critical);
        assert_eq!(a.kind, ActionKind::DefineCommand);
        assert!(!a.executes_code);
        assert_eq!(
            a.preconditions,
            ["the repository declares a validation command for `a.rs`, `b.rs`, `c.rs` and 1 more"]
        );
    }

    #[test]
    fn a_command_whose_runner_is_missing_still_runs_it_with_the_unmet_precondition_first() {
        let c = command(Runner::Pytest, "pytest t.py", "");
        let unmet = Unmet {
            program: "pytest".into(),
            kind: qa_records::change::UnmetKind::Runner,
            precondition: "needs `pytest` on PATH: activate the project's virtual environment"
                .into(),
        };
        let a = action(Outcome::Run(&c, Some(&unmet)), Priority::Critical);
        assert_eq!(a.kind, ActionKind::RunRepositoryCommand);
        assert_eq!(
            a.preconditions,
            [
                "needs `pytest` on PATH: activate the project's virtual environment",
                "it runs from `.` in the repository"
            ]
        );
    }
}
