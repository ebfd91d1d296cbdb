//! `qa-check --exec`: runs exactly one routed repository command under guard and writes one
//! `execution` record: how it ended, its output's size and hash, and what it changed in the
//! repository (HEAD, branch, index, worktree), or why it was refused.

pub mod child;
pub mod missing;
pub mod refusal;
pub mod selection;

use std::io::{BufRead, IsTerminal as _, Write};

use anyhow::Result;
use qa_commands::path::SearchPath;
use qa_records::envelope::Src;
use qa_records::execution::{BlockedReason, Changed, ExecutionData, ExecutionStatus};
use qa_records::output::RecordWriter;
use qa_records::{cancel, Exit, Kind, Record};

use crate::checks::signal_name;
use crate::cli::Settings;
use crate::fingerprint::{Fingerprint, Limits};
use crate::BY;
use child::{Ending, Finished};
use selection::{Chosen, Routes};

/// Forwards the stream, then acts on the one chosen route: refuses it with a `blocked`
/// record, or runs it and records the result. Returns the exit code: 0 passed, 1 failed,
/// 2 blocked, timed out or repository changed, 130/143 cancelled.
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    settings: &Settings,
    out: &mut RecordWriter<W>,
) -> Result<Exit> {
    let mut routes = Routes::default();
    qa_records::ndjson::forward_each(source, input, out, |line, envelope| {
        routes.take(source, line, envelope)
    })?;
    let path = SearchPath::from_env();
    let data = execute(&routes, settings, &path)?;
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
    let before = Fingerprint::take(&settings.repo, Limits::default())?;
    let finished = child::run(
        &cleared.candidate.run,
        &cleared.dir,
        settings.timeout,
        std::io::stderr().is_terminal(),
        cancel::requested,
    )?;
    let after = Fingerprint::take(&settings.repo, Limits::default())?;
    let setting = missing::Setting::of(&cleared.candidate, &settings.repo);
    let missing = missing::blocked_reason(&finished, &setting);
    Ok(recorded(
        &chosen, settings, &before, &after, &finished, missing,
    ))
}

/// The record of a command that ran. `missing` says why it is blocked rather than
/// failed: it could not start what it runs.
fn recorded(
    chosen: &Chosen<'_>,
    settings: &Settings,
    before: &Fingerprint,
    after: &Fingerprint,
    finished: &Finished,
    missing: Option<String>,
) -> ExecutionData {
    let difference = before.compare(after);
    let changed = difference.changed;
    let status = match finished.ending {
        Ending::TimedOut => ExecutionStatus::TimedOut,
        Ending::Cancelled(_) => ExecutionStatus::Cancelled,
        Ending::Exited if missing.is_some() => ExecutionStatus::Blocked,
        Ending::Exited if finished.exit_code != Some(0) => ExecutionStatus::Failed,
        Ending::Exited if changed.any() => ExecutionStatus::RepositoryChanged,
        Ending::Exited => ExecutionStatus::Passed,
    };
    let blocked = missing.is_some().then_some(BlockedReason::RunnerMissing);
    let mut reasons: Vec<String> = missing.into_iter().collect();
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
        reasons.push(what_changed(changed, before, after, difference.paths.len()));
    }
    if let Some(bound) = before.unobserved.or(after.unobserved) {
        reasons.push(format!(
            "part of the worktree was not fingerprinted (the {} bound was hit)",
            bound.as_str()
        ));
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
        ..data
    }
}

/// One sentence naming what changed.
fn what_changed(
    changed: Changed,
    before: &Fingerprint,
    after: &Fingerprint,
    paths: usize,
) -> String {
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
        | ExecutionStatus::Blocked
        | ExecutionStatus::TimedOut => Exit::Incomplete,
        ExecutionStatus::Cancelled => cancel::requested().unwrap_or(Exit::Interrupted),
    }
}
