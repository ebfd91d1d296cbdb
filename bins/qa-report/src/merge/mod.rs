//! `qa-report --merge DIR...`: the run folders of a sharded acceptance run (one per CI job,
//! `qa-check --shard I/N`) verified and joined into one verdict and one run folder.
//!
//! Each folder must match its SHA256SUMS and its records their ids and `from` chains; the
//! shards must share plan, sources, target, deployed build and shard count, each given
//! once, each check observed by at most one. Their records are joined in shard order, each
//! record once (by id), without the shards' own verdicts, and judged by the acceptance
//! verdict rules; a shard not given, not finished or cancelled leaves the merged verdict
//! incomplete, naming it.

pub mod agree;
pub mod run;
pub mod sums;

use crate::acceptance::model::{Acceptance, Builder};
use crate::acceptance::{self, Settings};
use crate::out::Saved;
use crate::render::Format;
use crate::verify::Verifier;
use qa_records::exit::{failure, Exit};
use qa_records::shard::{self, CheckRef, Shard};
use qa_records::{clock, Kind};
use run::ShardRun;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a merge needs from the command line.
pub struct Merge<'a> {
    pub dirs: &'a [PathBuf],
    pub repo: &'a Path,
    pub out: Option<&'a Path>,
    pub format: Format,
}

/// How many check ids a reason lists before it only counts them.
const LISTED: usize = 10;

/// Verifies and joins the shards' run folders, writes the merged run folder under --out
/// (default .qa/acceptance under --repo) and returns the rendered report with the exit
/// code of its verdict.
pub fn merge(args: &Merge<'_>) -> anyhow::Result<(String, Exit)> {
    let started = Instant::now();
    let mut runs = args
        .dirs
        .iter()
        .map(|dir| run::read(dir))
        .collect::<anyhow::Result<Vec<ShardRun>>>()?;
    runs.sort_by_key(|r| (r.shard.is_none(), r.shard));
    agree::check(&runs)?;
    let gaps = gaps(&runs);
    let stamp = clock::compact();
    let saved = Saved::begin(args.repo, &acceptance::runs_folder(args.repo, args.out))?;
    let (mut report, saved) = join(&runs, saved)?;
    // Each screenshot from the first shard holding it, read and verified again when copied.
    let mut screenshots = std::collections::BTreeMap::new();
    for run in &runs {
        for sha in &run.screenshots {
            screenshots
                .entry(sha.clone())
                .or_insert_with(|| run.dir.clone());
        }
    }
    // The shards' own ends are named as gaps: the merge itself was not cancelled.
    report.cancelled = None;
    report.missing = Vec::new();
    report.gaps = gaps;
    acceptance::report(
        &report,
        Some(saved),
        &Settings {
            format: args.format,
            stamp,
            started,
            interrupted: None,
            shots: acceptance::ShotSource::Shards(screenshots),
            run_dir_file: None,
        },
    )
}

/// The shards' records in shard order, each id once, without their verdicts (nor
/// anything derived from one), saved as the merged stream and read into the report.
fn join(runs: &[ShardRun], mut saved: Saved) -> anyhow::Result<(Acceptance, Saved)> {
    const SOURCE: &str = "the merged stream";
    let mut builder = Builder::default();
    let mut verifier = Verifier::new(1);
    let mut written: HashSet<&str> = HashSet::new();
    let mut dropped: HashSet<&str> = HashSet::new();
    let mut line = 0;
    for run in runs {
        for (_, envelope, raw) in &run.records {
            let id = envelope.id.as_str();
            if written.contains(id) || dropped.contains(id) {
                continue;
            }
            if envelope.known_kind() == Some(Kind::Verdict)
                || envelope.from.iter().any(|f| dropped.contains(f.as_str()))
            {
                dropped.insert(id);
                continue;
            }
            line += 1;
            verifier.line(line, raw, |_| false);
            saved.append_line(raw)?;
            builder.take(SOURCE, line, raw, envelope)?;
            written.insert(id);
        }
    }
    let summary = verifier.finish();
    if let Some(problem) = summary.problems.first() {
        return Err(failure(
            Exit::Software,
            format!(
                "{SOURCE} line {}: {} (a bug: please report it)",
                problem.line, problem.message
            ),
        ));
    }
    Ok((builder.finish(), saved))
}

/// Why the merged run is incomplete beyond its observations: shards not given, without
/// observations, cancelled or unfinished, and checks their own shard did not observe.
fn gaps(runs: &[ShardRun]) -> Vec<String> {
    let mut gaps = Vec::new();
    let Some(reference) = runs.first() else {
        return gaps;
    };
    let count = runs.iter().find_map(|r| r.shard).map_or(1, |s| s.count);
    let refs: Vec<CheckRef<'_>> = reference
        .checks
        .iter()
        .map(|c| CheckRef {
            id: &c.id,
            kind: &c.kind,
        })
        .collect();
    let owners = shard::assign(&refs, count);
    let given = |shard: Shard| runs.iter().find(|r| r.shard == Some(shard));
    for index in 1..=count {
        let shard = Shard { index, count };
        if given(shard).is_none() {
            let owned = refs
                .iter()
                .zip(&owners)
                .filter(|(_, &owner)| owner == index)
                .map(|(c, _)| c.id);
            gaps.push(format!(
                "shard {shard} was not given: {}",
                not_observed(owned)
            ));
        }
    }
    for run in runs {
        let label = run.label();
        if run.shard.is_none() {
            gaps.push(format!(
                "{label} has no observations: its qa-check did not run"
            ));
            continue;
        }
        if run.cancelled {
            gaps.push(format!("{label} was cancelled: its run is partial"));
        }
        if !run.missing.is_empty() {
            gaps.push(format!(
                "{label} did not finish: no records from {}",
                run.missing.join(", ")
            ));
        }
    }
    for (check, &index) in refs.iter().zip(&owners) {
        let owner = Shard { index, count };
        if runs.iter().all(|r| !r.observed.contains_key(check.id)) {
            if let Some(run) = given(owner) {
                gaps.push(format!(
                    "{} has no observation of check {}, which it owns",
                    run.label(),
                    check.id
                ));
            }
        }
    }
    gaps
}

/// `checks a, b not observed`, at most [`LISTED`] named.
fn not_observed<'a>(checks: impl Iterator<Item = &'a str>) -> String {
    let checks: Vec<&str> = checks.collect();
    match checks.len() {
        0 => "it owns no check".to_string(),
        1 => format!("its check {} was not observed", checks[0]),
        n if n <= LISTED => format!("its checks {} were not observed", checks.join(", ")),
        n => format!(
            "its checks {} and {} more were not observed",
            checks[..LISTED].join(", "),
            n - LISTED
        ),
    }
}
