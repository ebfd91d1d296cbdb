//! `--verify`: after the checks, capture every recorded target again and re-hash the plan
//! and source files; each comparison is a `target.verify` record, a difference is data
//! (qa-report makes the run stale), not an error.

use crate::capture::Capturer;
use crate::events::{self, Phase};
use crate::manifest;
use crate::root;
use crate::BY;
use qa_records::acceptance::{
    CriterionData, Entry, PlanData, TargetData, TargetKind, TargetStatus, TargetVerifyData,
    VerifySubject,
};
use qa_records::envelope::Src;
use qa_records::output::RecordWriter;
use qa_records::{Exit, Kind, Record};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

/// At most this many changed paths are listed per target.
pub const MAX_CHANGED: usize = 64;

/// The recorded things to compare, by kind, in stream order.
#[derive(Debug, Default)]
struct Recorded {
    targets: Vec<(String, TargetData)>,
    plans: Vec<(String, PlanData)>,
    criteria: Vec<(String, CriterionData)>,
    builds: Vec<(String, qa_records::acceptance::BuildData)>,
    /// The plan's checks: an mcp check's endpoint is never fetched (see `identity_url`).
    checks: Vec<qa_records::acceptance::CheckSpecData>,
}

/// Forwards `input` as it arrives, then compares what it recorded: targets, plans, sources
/// and builds in that order, each written as soon as it is known. On SIGINT or SIGTERM it
/// writes the comparisons finished and a cancel event (a recapture in flight is abandoned).
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    capturer: &Capturer,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<Exit> {
    let mut recorded = Recorded::default();
    let forwarded =
        qa_records::ndjson::forward_each_writing(source, input, out, |line, envelope, out| {
            match envelope.known_kind() {
                Some(Kind::Target) => recorded.targets.push((
                    envelope.id.clone(),
                    qa_records::ndjson::data_of(source, line, &envelope)?,
                )),
                Some(Kind::Plan) => recorded.plans.push((
                    envelope.id.clone(),
                    qa_records::ndjson::data_of(source, line, &envelope)?,
                )),
                Some(Kind::Criterion) => recorded.criteria.push((
                    envelope.id.clone(),
                    qa_records::ndjson::data_of(source, line, &envelope)?,
                )),
                Some(Kind::CheckSpec) => recorded
                    .checks
                    .push(qa_records::ndjson::data_of(source, line, &envelope)?),
                Some(Kind::Build) => recorded.builds.push((
                    envelope.id.clone(),
                    qa_records::ndjson::data_of(source, line, &envelope)?,
                )),
                _ => {}
            }
            // Passed on at once: a run stopped later still shows what came before.
            out.flush()
        });
    if let Err(err) = forwarded {
        // After a signal the stage stops as cancelled, not failed, whatever ended the
        // stream (the signal's own read error, or a line an upstream stage cut short).
        return match qa_records::cancel::requested() {
            Some(exit) => {
                out.write(&events::cancelled(exit)?)?;
                Ok(exit)
            }
            None => Err(err),
        };
    }
    match compare_all(&recorded, capturer, out)? {
        Some(exit) => {
            out.write(&events::cancelled(exit)?)?;
            Ok(exit)
        }
        None => Ok(Exit::Success),
    }
}

/// Writes one `target.verify` per recorded thing; Some(exit) when a signal stopped it.
fn compare_all<W: Write>(
    recorded: &Recorded,
    capturer: &Capturer,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<Option<Exit>> {
    for (id, before) in &recorded.targets {
        if let Some(exit) = qa_records::cancel::requested() {
            return Ok(Some(exit));
        }
        let started = Instant::now();
        let data = match recapture(capturer, before, &recorded.checks) {
            Ok(data) => data,
            Err(exit) => return Ok(Some(exit)),
        };
        let record = verify_record(id, &data)?;
        let detail = match (&data.reason, data.same) {
            (None, _) => "unchanged".to_string(),
            (Some(reason), true) => reason.clone(),
            (Some(reason), false) => format!("changed: {reason}"),
        };
        let event = events::timed(Phase::Verify, &record.id, started, detail)?;
        out.write(&record)?;
        out.write(&event)?;
        out.flush()?;
    }
    for (id, plan) in &recorded.plans {
        if let Some(exit) = qa_records::cancel::requested() {
            return Ok(Some(exit));
        }
        let after = manifest::hash_regular_file(Path::new(&plan.path), &plan.path);
        let data = compared(
            VerifySubject::Plan,
            &plan.path,
            Some(plan.sha256.clone()),
            after,
        );
        out.write(&verify_record(id, &data)?)?;
    }
    // Several criteria may quote one file: it is hashed once per run.
    let mut hashed: HashMap<&str, Result<String, String>> = HashMap::new();
    for (id, criterion) in &recorded.criteria {
        let Some(path) = &criterion.source.path else {
            continue;
        };
        if let Some(exit) = qa_records::cancel::requested() {
            return Ok(Some(exit));
        }
        let after = hashed
            .entry(path)
            .or_insert_with(|| hash_source(capturer.repo(), path))
            .clone();
        let data = compared(
            VerifySubject::Source,
            path,
            criterion.source.sha256.clone(),
            after,
        );
        out.write(&verify_record(id, &data)?)?;
    }
    // The deployed build read again: another build answering makes the run stale.
    for (id, before) in &recorded.builds {
        if let Some(exit) = qa_records::cancel::requested() {
            return Ok(Some(exit));
        }
        let data = match crate::build::reverify(capturer.http(), before) {
            Ok(data) => data,
            Err(exit) => return Ok(Some(exit)),
        };
        out.write(&Record::new(
            Kind::BuildVerify,
            crate::BY,
            vec![id.clone()],
            Src::new(),
            &data,
        )?)?;
    }
    Ok(None)
}

/// A source file under the repository root, never through a symlink.
fn hash_source(repo: &Path, path: &str) -> Result<String, String> {
    let found = root::resolve(repo, path)?;
    manifest::hash_regular_file(&found.path, path)
}

/// The comparison of a recorded file hash with the file now.
fn compared(
    subject: VerifySubject,
    value: &str,
    before: Option<String>,
    after: Result<String, String>,
) -> TargetVerifyData {
    let (after, reason) = match after {
        Ok(sha) => (Some(sha), None),
        Err(reason) => (None, Some(reason)),
    };
    let same = before == after;
    let reason = reason.or_else(|| (!same).then(|| "content changed".to_string()));
    TargetVerifyData {
        subject,
        value: value.to_string(),
        before,
        after,
        same,
        changed: Vec::new(),
        reason,
    }
}

/// Captures `before`'s target again and compares. A target that was never captured
/// (blocked, failed) is not fetched again: nothing was observed to compare with.
pub fn recapture(
    capturer: &Capturer,
    before: &TargetData,
    checks: &[qa_records::acceptance::CheckSpecData],
) -> Result<TargetVerifyData, Exit> {
    let mut data = TargetVerifyData {
        subject: VerifySubject::Target,
        value: before.value.clone(),
        before: before.sha256.clone(),
        after: None,
        same: true,
        changed: Vec::new(),
        reason: None,
    };
    if before.status != TargetStatus::Captured {
        data.reason = Some("not captured".to_string());
        return Ok(data);
    }
    let spec = qa_records::acceptance::TargetSpec {
        kind: before.kind,
        value: before.value.clone(),
        build_id: before.build_id.clone(),
        env: None,
        app: None,
    };
    let after = capturer.capture(&spec, checks)?;
    data.after = after.sha256.clone();
    if after.status != TargetStatus::Captured {
        data.same = false;
        data.reason = Some(format!(
            "not captured again ({}): {}",
            status_name(after.status),
            after.reason.as_deref().unwrap_or("no reason given")
        ));
        return Ok(data);
    }
    data.same = data.before == data.after;
    if data.same {
        return Ok(data);
    }
    if before.kind == TargetKind::Url {
        data.reason = Some("the response body changed".to_string());
        return Ok(data);
    }
    let changed = changed_paths(&before.entries, &after.entries);
    let count = match changed.len() {
        1 => "1 path changed".to_string(),
        n => format!("{n} paths changed"),
    };
    data.reason = Some(if changed.len() > MAX_CHANGED {
        format!("{count}, the first {MAX_CHANGED} listed")
    } else {
        count
    });
    data.changed = changed.into_iter().take(MAX_CHANGED).collect();
    Ok(data)
}

fn status_name(status: TargetStatus) -> &'static str {
    match status {
        TargetStatus::Captured => "captured",
        TargetStatus::Blocked => "blocked",
        TargetStatus::Failed => "failed",
        TargetStatus::Cancelled => "cancelled",
    }
}

/// Paths added, removed or with other content, sorted.
pub fn changed_paths(before: &[Entry], after: &[Entry]) -> Vec<String> {
    let old: BTreeMap<&str, &Entry> = before.iter().map(|e| (e.path.as_str(), e)).collect();
    let new: BTreeMap<&str, &Entry> = after.iter().map(|e| (e.path.as_str(), e)).collect();
    let mut changed: Vec<String> = old
        .iter()
        .filter(|(path, entry)| new.get(*path) != Some(*entry))
        .map(|(path, _)| path.to_string())
        .collect();
    changed.extend(
        new.keys()
            .filter(|path| !old.contains_key(*path))
            .map(|path| path.to_string()),
    );
    changed.sort();
    changed
}

fn verify_record(from: &str, data: &TargetVerifyData) -> anyhow::Result<Record> {
    let mut src = Src::new();
    if let Some(sha) = &data.after {
        src.insert("sha256".to_string(), sha.clone());
    }
    Record::new(Kind::TargetVerify, BY, vec![from.to_string()], src, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, sha: &str) -> Entry {
        Entry {
            path: path.into(),
            size: 1,
            sha256: sha.into(),
        }
    }

    #[test]
    fn added_removed_and_edited_paths_are_listed_in_order() {
        let before = [entry("a", "1"), entry("b", "2"), entry("c", "3")];
        let after = [entry("a", "1"), entry("b", "9"), entry("d", "4")];
        assert_eq!(changed_paths(&before, &after), vec!["b", "c", "d"]);
    }

    #[test]
    fn identical_entries_list_nothing() {
        let before = [entry("a", "1")];
        assert!(changed_paths(&before, &before).is_empty());
    }

    #[test]
    fn a_missing_file_is_not_the_same_as_its_recorded_hash() {
        let data = compared(
            VerifySubject::Source,
            "t.md",
            Some("ab".into()),
            Err("t.md not found".into()),
        );
        assert!(!data.same);
        assert_eq!(data.reason.as_deref(), Some("t.md not found"));
    }

    #[test]
    fn an_unchanged_hash_is_the_same_with_no_reason() {
        let data = compared(
            VerifySubject::Plan,
            "p.json",
            Some("ab".into()),
            Ok("ab".into()),
        );
        assert!(data.same);
        assert_eq!(data.reason, None);
    }
}
