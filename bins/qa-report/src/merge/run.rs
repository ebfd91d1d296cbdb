//! One shard's run folder read back: its records verified (envelopes, ids, `from` chain),
//! and what a merge compares and joins: the plan, the target and build it ran against,
//! which shard it was, which checks it observed, and whether it finished.

use super::sums;
use crate::acceptance::folder::RECORDS;
use crate::flow::Stages;
use crate::verify::Verifier;
use qa_records::acceptance::{
    BuildData, CheckSpecData, CriterionData, EventData, ObservationData, ObservationStatus,
    PlanData, TargetData, TargetSpec,
};
use qa_records::exit::{failure, Exit};
use qa_records::ndjson::{LineReader, ReadError};
use qa_records::shard::Shard;
use qa_records::{Envelope, Kind};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A shard's run folder, verified and read.
pub struct ShardRun {
    /// The run folder, as given (or the one run folder inside the folder given).
    pub dir: PathBuf,
    /// Which shard this is; None when no observation says (its qa-check did not run).
    pub shard: Option<Shard>,
    /// Its records, in order, each with its line number and its line as written.
    pub records: Vec<(u64, Envelope, Vec<u8>)>,
    pub plan: PlanData,
    /// Criteria by id: the record id and data.
    pub criteria: BTreeMap<String, (String, CriterionData)>,
    /// The plan's checks in plan order.
    pub checks: Vec<CheckSpecData>,
    /// The captured target the checks ran against (as qa-check chooses it).
    pub target: Option<TargetData>,
    /// The deployed builds read, by profile environment.
    pub builds: BTreeMap<String, BuildData>,
    /// Each check's final observation that is not `skipped`: the checks this shard ran.
    pub observed: BTreeMap<String, ObservationStatus>,
    /// The stages of the acceptance flow that left no records in this run.
    pub missing: Vec<&'static str>,
    /// A stage of this run was cancelled (SIGINT/SIGTERM).
    pub cancelled: bool,
    /// The SHA-256 of each screenshot its SHA256SUMS vouches for.
    pub screenshots: BTreeSet<String>,
}

impl ShardRun {
    /// How messages name this run: `shard 2/4 (DIR)`, or `run folder DIR` when unknown.
    pub fn label(&self) -> String {
        match self.shard {
            Some(shard) => format!("shard {shard} ({})", self.dir.display()),
            None => format!("run folder {}", self.dir.display()),
        }
    }
}

/// Reads the run folder `given` names: checks its SHA256SUMS, then every record of its
/// records.ndjson. A missing folder is 66; a tampered, broken or non-acceptance one 65.
pub fn read(given: &Path) -> anyhow::Result<ShardRun> {
    let dir = run_folder(given)?;
    let sums::Verified {
        records: bytes,
        screenshots,
        ..
    } = sums::verify(&dir)?;
    let source = dir.join(RECORDS).display().to_string();
    let mut verifier = Verifier::new(1);
    let mut stages = Stages::default();
    let mut records = Vec::new();
    let mut lines = LineReader::new(&bytes[..]);
    while let Some(next) = lines.next_line() {
        match next {
            Ok((line, raw)) => {
                // Every record's data is read: the merged run is written from them.
                if let Some((envelope, _)) = verifier.line(line, raw, |_| true) {
                    stages.take(&envelope);
                    records.push((line, envelope, raw.to_vec()));
                }
            }
            Err(ReadError::TooLong { line, .. }) => verifier.too_long(line),
            Err(e) => return Err(bad(format!("{source}: {e}"))),
        }
        if verifier.problem_count() > 0 {
            break;
        }
    }
    let summary = verifier.finish();
    if let Some(problem) = summary.problems.first() {
        return Err(bad(format!(
            "{source} line {}: {}",
            problem.line, problem.message
        )));
    }
    let mut run = Facts::default();
    for (line, envelope, _) in &records {
        run.take(&source, *line, envelope)?;
    }
    let target = run.target();
    let Some(plan) = run.plan.take() else {
        return Err(bad(format!(
            "{source}: no plan record: not an acceptance run"
        )));
    };
    let shard = match run.shards.len() {
        0 if run.observations == 0 => None,
        0 => Some(Shard::WHOLE),
        1 if run.whole == 0 => run.shards.first().copied(),
        _ => {
            return Err(bad(format!(
                "{source}: observations of more than one shard ({}): not one shard's run",
                run.shard_names()
            )))
        }
    };
    Ok(ShardRun {
        dir,
        shard,
        plan,
        criteria: run.criteria,
        checks: run.checks,
        target,
        builds: run.builds,
        observed: run
            .finals
            .into_iter()
            .filter(|(_, status)| *status != ObservationStatus::Skipped)
            .collect(),
        missing: stages.missing(),
        cancelled: run.cancelled,
        records,
        screenshots,
    })
}

/// `given` when it holds SHA256SUMS, else the one folder in it that does (a CI artifact
/// holding the runs folder). A missing folder is 66; none or several run folders 65.
fn run_folder(given: &Path) -> anyhow::Result<PathBuf> {
    if !given.is_dir() {
        return Err(failure(
            Exit::NoInput,
            format!("--merge {}: no such folder", given.display()),
        ));
    }
    if given.join(crate::out::SUMS).exists() {
        return Ok(given.to_path_buf());
    }
    let inside: Vec<PathBuf> = std::fs::read_dir(given)
        .map_err(|e| bad(format!("--merge {}: {e}", given.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir() && path.join(crate::out::SUMS).exists())
        .collect();
    match inside.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(bad(format!(
            "--merge {}: no SHA256SUMS in it or in a folder inside: not an acceptance run folder",
            given.display()
        ))),
        many => Err(bad(format!(
            "--merge {}: holds {} run folders: name the one of this shard",
            given.display(),
            many.len()
        ))),
    }
}

/// What one pass over a shard's records collects.
#[derive(Default)]
struct Facts {
    plan: Option<PlanData>,
    criteria: BTreeMap<String, (String, CriterionData)>,
    checks: Vec<CheckSpecData>,
    target_spec: Option<TargetSpec>,
    targets: Vec<TargetData>,
    builds: BTreeMap<String, BuildData>,
    /// The shards observations name, and how many observations name none.
    shards: Vec<Shard>,
    whole: u64,
    observations: u64,
    /// Each check's final status (a skipped one never replaces another).
    finals: BTreeMap<String, ObservationStatus>,
    cancelled: bool,
}

impl Facts {
    fn take(&mut self, source: &str, line: u64, envelope: &Envelope) -> anyhow::Result<()> {
        match envelope.known_kind() {
            Some(Kind::Plan) if self.plan.is_none() => {
                self.plan = Some(data(source, line, envelope)?)
            }
            Some(Kind::Criterion) => {
                let c: CriterionData = data(source, line, envelope)?;
                self.criteria.insert(c.id.clone(), (envelope.id.clone(), c));
            }
            Some(Kind::CheckSpec) => self.checks.push(data(source, line, envelope)?),
            Some(Kind::TargetSpec) => self.target_spec = Some(data(source, line, envelope)?),
            Some(Kind::Target) => self.targets.push(data(source, line, envelope)?),
            Some(Kind::Build) => {
                let b: BuildData = data(source, line, envelope)?;
                self.builds.insert(b.env.clone(), b);
            }
            Some(Kind::Observation) => {
                let o: ObservationData = data(source, line, envelope)?;
                self.observations += 1;
                match o.shard {
                    Some(shard) if !self.shards.contains(&shard) => self.shards.push(shard),
                    Some(_) => {}
                    None => self.whole += 1,
                }
                self.cancelled |= o.status == ObservationStatus::Cancelled;
                let skipped = o.status == ObservationStatus::Skipped;
                if !skipped || !self.finals.contains_key(&o.check) {
                    self.finals.insert(o.check, o.status);
                }
            }
            Some(Kind::Event) => {
                let e: EventData = data(source, line, envelope)?;
                self.cancelled |= e.phase == "cancel";
            }
            _ => {}
        }
        Ok(())
    }

    /// The target qa-check ran the checks against: the last one of the plan's target.
    fn target(&self) -> Option<TargetData> {
        let mut targets = self.targets.iter().rev();
        match &self.target_spec {
            Some(spec) => targets.find(|t| t.kind == spec.kind && t.value == spec.value),
            None => targets.next(),
        }
        .cloned()
    }

    fn shard_names(&self) -> String {
        let mut names: BTreeSet<String> = self.shards.iter().map(Shard::to_string).collect();
        if self.whole > 0 {
            names.insert("a whole run".to_string());
        }
        names.into_iter().collect::<Vec<_>>().join(", ")
    }
}

fn data<T: DeserializeOwned>(source: &str, line: u64, envelope: &Envelope) -> anyhow::Result<T> {
    qa_records::ndjson::data_of(source, line, envelope)
}

fn bad(message: String) -> anyhow::Error {
    failure(Exit::DataErr, message)
}
