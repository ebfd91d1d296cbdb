//! `qa-check --exec`: runs exactly one routed repository command under guard and writes one
//! `execution` record: how it ended, the tests its runner reported, its output's size and
//! hash, and what it changed in the repository (HEAD, branch, index, worktree, git
//! internals), or why it was refused.

pub mod child;
pub mod count;
pub mod junit;
pub mod missing;
pub mod refusal;
pub mod selection;
pub mod terminal;

use std::io::{IsTerminal as _, Write};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use anyhow::{Context as _, Result};
use qa_commands::path::SearchPath;
use qa_records::envelope::Src;
use qa_records::execution::{
    BlockedReason, Changed, Count, ExecutionData, ExecutionStatus, TestOutcome,
};
use qa_records::output::RecordWriter;
use qa_records::{cancel, Exit, Kind, Record};

use crate::checks::signal_name;
use crate::cli::Settings;
use crate::fingerprint::{Difference, Fingerprint, Limits};

/// The most git-directory entries a reason names; `changed_git` lists them all.
const MAX_GIT_NAMED: usize = 8;
use crate::BY;
use child::{Ending, Finished};
use count::{Counted, Lines, Named, Reporting};
use selection::{Chosen, Routes};

/// Acts on the one route chosen among `routes` (read by [`crate::forward`]): refuses it
/// with a `blocked` record, or runs it and records the result. Returns the exit code: 0
/// passed, 1 failed, 2 blocked, empty, incomplete, timed out or repository changed,
/// 130/143 cancelled.
pub fn run<W: Write>(
    routes: &Routes,
    settings: &Settings,
    out: &mut RecordWriter<W>,
) -> Result<Exit> {
    let path = SearchPath::from_env();
    let data = execute(routes, settings, &path)?;
    let from = data.route.iter().cloned().collect();
    out.write(&Record::new(Kind::Execution, BY, from, Src::new(), &data)?)?;
    Ok(exit_of(&data))
}

/// The execution record for `routes` under `settings`, with `path` deciding which runners
/// can start. Every refusal is decided before anything runs.
pub fn execute(routes: &Routes, settings: &Settings, path: &SearchPath) -> Result<ExecutionData> {
    let timeout_secs = settings.timeout.as_secs();
    let chosen = match routes.choose(settings.scenario.as_deref()) {
        Ok(chosen) => chosen,
        Err(refused) => {
            let mut data = ExecutionData::blocked(refused.reason, refused.why, timeout_secs);
            if let Some((id, route)) = refused.route {
                describe(&mut data, id, route);
            }
            return Ok(data);
        }
    };
    let blocked = |reason, why: String| {
        let mut data = ExecutionData::blocked(reason, why, timeout_secs);
        describe(&mut data, chosen.id, chosen.route);
        data
    };
    let cleared = match refusal::clear(&chosen, &settings.repo, path) {
        Ok(cleared) => cleared,
        Err(refusal) => return Ok(blocked(refusal.reason, refusal.why)),
    };
    if git2::Repository::open(&settings.repo).is_err() {
        return Ok(blocked(
            BlockedReason::NotARepository,
            format!(
                "{} is not the root of a git repository: what the command changes could not be seen",
                settings.repo.display()
            ),
        ));
    }
    if !settings.allow_exec {
        return Ok(blocked(
            BlockedReason::ExecNotAllowed,
            "running a repository command needs --allow-exec".to_string(),
        ));
    }
    if let Some(exit) = cancel::requested() {
        let mut data = ExecutionData::not_started(ExecutionStatus::Cancelled, timeout_secs);
        describe(&mut data, chosen.id, chosen.route);
        data.reason = Some(format!(
            "qa-check got {} before the command started",
            signal_name(exit)
        ));
        return Ok(data);
    }
    // Reports go to a folder of qa-check's own, outside the repository's fingerprint.
    let private = tempfile::Builder::new()
        .prefix("qa-check-exec-")
        .tempdir()
        .context("creating a private folder for the runner's report")?;
    let candidate = &cleared.candidate;
    let reporting = Reporting::of(
        candidate.runner,
        &candidate.run,
        &cleared.dir,
        private.path(),
    );
    let named: Vec<Named> = cleared.named.iter().map(Named::from).collect();
    let lines = Arc::new(Mutex::new(Lines::new(named)));
    let before = Fingerprint::take(&settings.repo, Limits::default())?;
    let started = SystemTime::now();
    let finished = child::run(
        &reporting.run,
        &cleared.dir,
        settings.timeout,
        std::io::stderr().is_terminal(),
        cancel::requested,
        &lines,
    )?;
    let after = Fingerprint::take(&settings.repo, Limits::default())?;
    let counted = {
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.finish();
        count::counted(&lines, reporting.report.as_ref(), started)
    };
    let setting = missing::Setting::of(&cleared.candidate, &settings.repo);
    let missing = missing::blocked_reason(&finished, &setting);
    let run = Run {
        finished: &finished,
        missing,
        counted,
        added: reporting.added,
    };
    Ok(recorded(&chosen, settings, &before, &after, run))
}

/// What a started command came to: how it ended, why it is blocked rather than failed or
/// passed (it could not start what it runs), what its runner reported, and the reporter
/// options it ran with.
struct Run<'a> {
    finished: &'a Finished,
    missing: Option<String>,
    counted: Counted,
    added: Vec<String>,
}

/// The status of a command that exited with `code`, from most to least telling: a runner
/// that was not there, a failure, a changed repository, then what the runner reported (no
/// test run, a named changed test not run). With the reason for a status that is not a
/// plain pass or failure.
fn verdict(
    code: Option<i32>,
    missing: bool,
    changed: bool,
    counted: &Counted,
) -> (ExecutionStatus, Option<String>) {
    if missing {
        return (ExecutionStatus::Blocked, None);
    }
    if code != Some(0) {
        return (ExecutionStatus::Failed, None);
    }
    if changed {
        return (ExecutionStatus::RepositoryChanged, None);
    }
    if counted.tests.is_some_and(|t| t.ran == 0) {
        let why = "the command exited 0 but its runner ran no test: empty, not a pass".to_string();
        return (ExecutionStatus::Empty, Some(why));
    }
    let not_run: Vec<String> = counted
        .changed
        .iter()
        .filter(|t| !t.ran)
        .map(|t| match t.outcome {
            Some(TestOutcome::Skipped) => format!("{} ({}, skipped)", t.name, t.file),
            _ => format!("{} ({})", t.name, t.file),
        })
        .collect();
    if counted.tests.is_some() && !not_run.is_empty() {
        let why = format!(
            "the command exited 0 but did not run the changed {}: {}",
            if not_run.len() == 1 { "test" } else { "tests" },
            not_run.join(", ")
        );
        return (ExecutionStatus::Incomplete, Some(why));
    }
    (ExecutionStatus::Passed, None)
}

/// The record of a command that ran.
fn recorded(
    chosen: &Chosen<'_>,
    settings: &Settings,
    before: &Fingerprint,
    after: &Fingerprint,
    run: Run<'_>,
) -> ExecutionData {
    let Run {
        finished,
        missing,
        counted,
        added,
    } = run;
    let difference = before.compare(after);
    let changed = difference.changed;
    let (status, why) = match finished.ending {
        Ending::TimedOut => (ExecutionStatus::TimedOut, None),
        Ending::Cancelled(_) => (ExecutionStatus::Cancelled, None),
        Ending::Exited => verdict(
            finished.exit_code,
            missing.is_some(),
            changed.any(),
            &counted,
        ),
    };
    let blocked = missing.is_some().then_some(BlockedReason::RunnerMissing);
    let mut reasons: Vec<String> = missing.into_iter().chain(why).collect();
    match finished.ending {
        Ending::TimedOut => reasons.push(format!(
            "no exit within {} s: the process group got SIGTERM, then SIGKILL",
            settings.timeout.as_secs()
        )),
        Ending::Cancelled(exit) => reasons.push(format!(
            "qa-check got {}: the command's process group was stopped",
            signal_name(exit)
        )),
        Ending::Exited => {}
    }
    if changed.any() {
        reasons.push(what_changed(changed, before, after, &difference));
    }
    if let Some(bound) = before.unobserved.or(after.unobserved) {
        reasons.push(format!(
            "part of the worktree was not fingerprinted (the {} bound was hit)",
            bound.as_str()
        ));
    }
    if before.internals_unobserved || after.internals_unobserved {
        reasons.push(format!(
            "part of the git directory was not fingerprinted (more than {} entries)",
            crate::fingerprint::MAX_INTERNALS
        ));
    }
    if status == ExecutionStatus::Passed && counted.tests.is_none() {
        reasons.push(
            "passed on its exit code alone: the runner's output could not be read to count its tests (unverified count)"
                .to_string(),
        );
    }
    let mut data = ExecutionData::not_started(status, settings.timeout.as_secs());
    describe(&mut data, chosen.id, chosen.route);
    ExecutionData {
        blocked,
        reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
        exit_code: finished.exit_code,
        signal: finished.signal,
        timed_out: finished.ending == Ending::TimedOut,
        duration_ms: u64::try_from(finished.duration.as_millis()).unwrap_or(u64::MAX),
        stdout_bytes: finished.stdout.bytes,
        stdout_sha256: Some(finished.stdout.sha256.clone()),
        stderr_bytes: finished.stderr.bytes,
        stderr_sha256: Some(finished.stderr.sha256.clone()),
        git_before: Some(before.state()),
        git_after: Some(after.state()),
        changed: Some(changed),
        changed_paths: difference.listed(),
        changed_paths_total: difference.paths.len() as u64,
        changed_git: difference.internals.clone(),
        reporter_options: added,
        count: Some(if counted.tests.is_some() {
            Count::Counted
        } else {
            Count::Unverified
        }),
        tests: counted.tests,
        changed_tests: counted.changed,
        ..data
    }
}

/// One sentence naming what changed.
fn what_changed(
    changed: Changed,
    before: &Fingerprint,
    after: &Fingerprint,
    difference: &Difference,
) -> String {
    let paths = difference.paths.len();
    let short = |oid: &Option<String>| {
        oid.as_deref()
            .map_or_else(|| "none".to_string(), |o| o.chars().take(12).collect())
    };
    let name = |branch: &Option<String>| branch.clone().unwrap_or_else(|| "detached".into());
    let mut parts = Vec::new();
    if changed.head {
        parts.push(format!(
            "HEAD {} -> {}",
            short(&before.head),
            short(&after.head)
        ));
    }
    if changed.branch {
        parts.push(format!(
            "branch {} -> {}",
            name(&before.branch),
            name(&after.branch)
        ));
    }
    if changed.index {
        parts.push("the index (staged paths)".to_string());
    }
    if changed.worktree {
        let noun = if paths == 1 { "path" } else { "paths" };
        parts.push(format!("the worktree ({paths} {noun})"));
    }
    if changed.git {
        let listed: Vec<&str> = difference
            .internals
            .iter()
            .take(MAX_GIT_NAMED)
            .map(String::as_str)
            .collect();
        let more = difference.internals.len().saturating_sub(MAX_GIT_NAMED);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        parts.push(format!("the git directory ({}{more})", listed.join(", ")));
    }
    format!("the command changed the repository: {}", parts.join(", "))
}

/// Names the route and its command in `data`.
fn describe(data: &mut ExecutionData, id: &str, route: &qa_records::change::RouteData) {
    data.route = Some(id.to_string());
    data.subject = Some(route.subject.clone());
    if let Some(command) = &route.command {
        data.command = Some(command.run.clone());
        data.runner = Some(command.runner.clone());
        data.dir = Some(command.dir.clone());
    }
}

/// qa-check's exit code for `data`.
pub fn exit_of(data: &ExecutionData) -> Exit {
    match data.status {
        ExecutionStatus::Passed => Exit::Success,
        ExecutionStatus::Failed => Exit::Fail,
        ExecutionStatus::RepositoryChanged
        | ExecutionStatus::Empty
        | ExecutionStatus::Incomplete
        | ExecutionStatus::Blocked
        | ExecutionStatus::TimedOut => Exit::Incomplete,
        ExecutionStatus::Cancelled => cancel::requested().unwrap_or(Exit::Interrupted),
    }
}
