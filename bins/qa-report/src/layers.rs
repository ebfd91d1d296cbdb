//! The three layers the human formats share: what runs now (repository commands, grouped),
//! what a person must still do (manual contracts), and which diagnostics to surface.

use crate::model::{IntentView, Report, ScenarioView, Severity};
use qa_records::change::{Action, Command};

/// One repository command and the scenarios its routes send to it.
pub struct CommandGroup<'a> {
    pub command: &'a Command,
    /// The action contract of the first route naming it (report order).
    pub action: &'a Action,
    pub covers: Vec<&'a ScenarioView>,
}

/// Routed repository commands in report order, one group per command line and directory.
pub fn commands(report: &Report) -> Vec<CommandGroup<'_>> {
    let mut groups: Vec<CommandGroup<'_>> = Vec::new();
    for (_, scenario) in report.scenarios() {
        if scenario.is_manual() {
            continue;
        }
        let Some(route) = &scenario.route else {
            continue;
        };
        let Some(command) = &route.data.command else {
            continue;
        };
        match groups
            .iter_mut()
            .find(|g| g.command.run == command.run && g.command.dir == command.dir)
        {
            Some(group) => group.covers.push(scenario),
            None => groups.push(CommandGroup {
                command,
                action: &route.data.action,
                covers: vec![scenario],
            }),
        }
    }
    groups
}

/// Additional commands of every route, once each, leaving out the routed ones.
pub fn additional<'a>(report: &'a Report, routed: &[CommandGroup<'a>]) -> Vec<&'a Command> {
    let mut out: Vec<&Command> = Vec::new();
    for (_, scenario) in report.scenarios() {
        let Some(route) = &scenario.route else {
            continue;
        };
        for c in &route.data.additional_commands {
            let same = |o: &&Command| o.run == c.run && o.dir == c.dir;
            if !out.iter().any(same) && !routed.iter().map(|g| g.command).any(|o| same(&o)) {
                out.push(c);
            }
        }
    }
    out
}

/// Scenarios a person must act on (no route, a route that runs nothing, or a draft),
/// required first.
pub fn manual(report: &Report) -> Vec<(&IntentView, &ScenarioView)> {
    report
        .by_decision()
        .into_iter()
        .filter(|(_, s)| s.is_manual() || !s.drafts.is_empty())
        .collect()
}

/// Which diagnostics a human report lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Diagnostics {
    /// Errors and warnings: what a reader must act on.
    #[default]
    Notable,
    /// Every one, `info` too (`--verbose`).
    All,
}

impl Diagnostics {
    /// True when `severity` is listed.
    pub fn shows(self, severity: Severity) -> bool {
        self == Diagnostics::All || matches!(severity, Severity::Error | Severity::Warning)
    }
}

/// The `shown` diagnostics of `report`, in stream order.
pub fn warnings(
    report: &Report,
    shown: Diagnostics,
) -> impl Iterator<Item = &crate::model::DiagView> {
    report
        .diagnostics
        .iter()
        .filter(move |d| shown.shows(d.severity))
}
