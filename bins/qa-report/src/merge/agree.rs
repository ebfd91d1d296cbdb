//! Whether shards belong to one run: the same plan (and sources), the same target and the
//! same deployed build, one count of shards, each shard once and each check observed by
//! at most one shard. A difference refuses the merge (65), naming both sides.

use super::run::ShardRun;
use crate::model::label;
use qa_records::acceptance::{TargetData, TargetStatus};
use qa_records::exit::{failure, Exit};

/// Checks every run against the first (the lowest shard): the first difference is the error.
pub fn check(runs: &[ShardRun]) -> anyhow::Result<()> {
    let Some((first, rest)) = runs.split_first() else {
        return Ok(());
    };
    for run in rest {
        same_plan(first, run)?;
        same_build(first, run)?;
        same_target(first, run)?;
    }
    shards_fit(runs)?;
    observed_once(runs)
}

fn refuse(message: String) -> anyhow::Error {
    failure(Exit::DataErr, message)
}

fn sha(hex: &str) -> String {
    if hex.starts_with("sha256:") {
        hex.to_string()
    } else {
        format!("sha256:{hex}")
    }
}

fn same_plan(first: &ShardRun, run: &ShardRun) -> anyhow::Result<()> {
    if run.plan.sha256 != first.plan.sha256 {
        return Err(refuse(format!(
            "{} ran plan {} but {} ran {}: not shards of one run",
            run.label(),
            sha(&run.plan.sha256),
            first.label(),
            sha(&first.plan.sha256)
        )));
    }
    same_ids(first, run, "criteria", |r| {
        r.criteria.keys().cloned().collect()
    })?;
    same_ids(first, run, "checks", |r| {
        r.checks.iter().map(|c| c.id.clone()).collect()
    })?;
    for (id, (record, data)) in &run.criteria {
        let (theirs, other) = &first.criteria[id];
        if record != theirs {
            let source = |d: &qa_records::acceptance::CriterionData| {
                d.source
                    .sha256
                    .as_deref()
                    .map_or_else(|| "its text".to_string(), sha)
            };
            return Err(refuse(format!(
                "{} read criterion {id} from source {} but {} from {}: the plan's sources differ between the shards",
                run.label(),
                source(data),
                first.label(),
                source(other)
            )));
        }
    }
    Ok(())
}

/// Refuses when the `what` ids of `run` differ from those of `first`.
fn same_ids(
    first: &ShardRun,
    run: &ShardRun,
    what: &str,
    ids: impl Fn(&ShardRun) -> Vec<String>,
) -> anyhow::Result<()> {
    if ids(run) == ids(first) {
        return Ok(());
    }
    Err(refuse(format!(
        "{} has {what} {:?} but {} has {:?}: not shards of one run",
        run.label(),
        ids(run),
        first.label(),
        ids(first)
    )))
}

fn same_build(first: &ShardRun, run: &ShardRun) -> anyhow::Result<()> {
    let envs: std::collections::BTreeSet<&String> =
        run.builds.keys().chain(first.builds.keys()).collect();
    for env in envs {
        let value = |r: &ShardRun| {
            r.builds
                .get(env)
                .and_then(|b| b.value.clone())
                .unwrap_or_else(|| "(none read)".to_string())
        };
        if value(run) != value(first) {
            return Err(refuse(format!(
                "{} ran against build {} of environment {env} but {} ran against build {}",
                run.label(),
                value(run),
                first.label(),
                value(first)
            )));
        }
    }
    let header = |t: Option<&TargetData>| t.and_then(|t| t.x_build_id.clone());
    let (theirs, ours) = (header(first.target.as_ref()), header(run.target.as_ref()));
    if theirs != ours {
        let name = |b: Option<String>| b.unwrap_or_else(|| "(no X-Build-Id)".to_string());
        return Err(refuse(format!(
            "{} ran against build {} (X-Build-Id of the target) but {} ran against build {}",
            run.label(),
            name(ours),
            first.label(),
            name(theirs)
        )));
    }
    Ok(())
}

fn same_target(first: &ShardRun, run: &ShardRun) -> anyhow::Result<()> {
    let describe = |t: Option<&TargetData>| match t {
        None => "no captured target".to_string(),
        Some(t) => format!("{} {}", label(&t.kind), t.value),
    };
    let (a, b) = (first.target.as_ref(), run.target.as_ref());
    if describe(a) != describe(b) {
        return Err(refuse(format!(
            "{} ran against {} but {} ran against {}",
            run.label(),
            describe(b),
            first.label(),
            describe(a)
        )));
    }
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(());
    };
    if a.status != b.status {
        return Err(refuse(format!(
            "{} {} target {} but {} {} it",
            run.label(),
            status(b.status),
            b.value,
            first.label(),
            status(a.status)
        )));
    }
    if a.sha256 != b.sha256 {
        let hash = |t: &TargetData| t.sha256.as_deref().map_or("nothing".to_string(), sha);
        return Err(refuse(format!(
            "{} captured target {} as {} but {} captured it as {}: not the same target",
            run.label(),
            b.value,
            hash(b),
            first.label(),
            hash(a)
        )));
    }
    Ok(())
}

fn status(status: TargetStatus) -> &'static str {
    match status {
        TargetStatus::Captured => "captured",
        TargetStatus::Blocked => "was blocked from capturing",
        TargetStatus::Failed => "failed to capture",
        TargetStatus::Cancelled => "was cancelled capturing",
    }
}

/// One count of shards, each shard given once.
fn shards_fit(runs: &[ShardRun]) -> anyhow::Result<()> {
    let known: Vec<&ShardRun> = runs.iter().filter(|r| r.shard.is_some()).collect();
    let Some(first) = known.first() else {
        return Ok(());
    };
    let count = first.shard.map_or(1, |s| s.count);
    for run in &known[1..] {
        let shard = run.shard.expect("known");
        if shard.count != count {
            return Err(refuse(format!(
                "{} is one of {} shards but {} is one of {count}: not shards of one run",
                run.label(),
                shard.count,
                first.label()
            )));
        }
    }
    for (at, run) in known.iter().enumerate() {
        if let Some(twice) = known[at + 1..].iter().find(|r| r.shard == run.shard) {
            return Err(refuse(format!(
                "shard {} is given twice: {} and {}",
                run.shard.expect("known"),
                run.dir.display(),
                twice.dir.display()
            )));
        }
    }
    Ok(())
}

/// No check observed (run, not skipped) by two shards.
fn observed_once(runs: &[ShardRun]) -> anyhow::Result<()> {
    for (at, run) in runs.iter().enumerate() {
        for other in &runs[at + 1..] {
            if let Some(check) = run
                .observed
                .keys()
                .find(|c| other.observed.contains_key(*c))
            {
                return Err(refuse(format!(
                    "check {check} was observed by {} and by {}: each check must be observed by exactly one shard",
                    run.label(),
                    other.label()
                )));
            }
        }
    }
    Ok(())
}
