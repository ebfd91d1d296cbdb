//! `qa-report --status`: the project's active acceptance run (from its lock), or else its
//! last run (the newest run folder) with that run's verdict.

use super::folder::REPORT_JSON;
use super::lock::{self, Holder};
use crate::render::Format;
use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use serde::Serialize;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What --status reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Status {
    Active {
        run: String,
        pid: u32,
    },
    /// The newest run folder, its SHA256SUMS verified: the verdict its report.json records.
    Last {
        run: String,
        verdict: String,
        dir: PathBuf,
        /// A lock left by a run whose process is gone (it ended without releasing it).
        stale_lock: Option<Holder>,
    },
    /// The newest run folder, not vouched for by its SHA256SUMS (a run that crashed or was
    /// killed mid-report, or a file changed since): its report.json is not believed.
    Incomplete {
        run: String,
        /// Why the folder is not vouched for.
        reason: String,
        dir: PathBuf,
        stale_lock: Option<Holder>,
    },
}

/// The active run of the project at `repo`, else the newest run folder under `runs`; a
/// lock whose process is gone is named with it. Err: no run folder (and the stale lock,
/// if any).
pub fn find(repo: &Path, runs: &Path) -> Result<Status, Option<Holder>> {
    let stale_lock = match lock::holder(repo) {
        Some(h) if lock::alive(h.pid) => {
            return Ok(Status::Active {
                run: h.run,
                pid: h.pid,
            })
        }
        held => held,
    };
    let newest = fs::read_dir(runs).ok().and_then(|entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| {
                let modified = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                (modified, e.file_name(), e.path())
            })
            .max()
    });
    let Some((_, name, dir)) = newest else {
        return Err(stale_lock);
    };
    let run = name.to_string_lossy().into_owned();
    Ok(match verdict_of(&dir) {
        Ok(verdict) => Status::Last {
            run,
            verdict,
            dir,
            stale_lock,
        },
        Err(reason) => Status::Incomplete {
            run,
            reason,
            dir,
            stale_lock,
        },
    })
}

/// The verdict of a run folder whose SHA256SUMS vouches for every file it lists, its
/// report.json among them; else why not.
fn verdict_of(dir: &Path) -> Result<String, String> {
    let verified = crate::merge::sums::verify(dir).map_err(|e| format!("{e:#}"))?;
    if !verified.listed.iter().any(|name| name == REPORT_JSON) {
        return Err(format!("SHA256SUMS does not list {REPORT_JSON}"));
    }
    let text =
        fs::read_to_string(dir.join(REPORT_JSON)).map_err(|e| format!("{REPORT_JSON}: {e}"))?;
    let report: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{REPORT_JSON}: {e}"))?;
    report["verdict"]["status"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{REPORT_JSON} records no verdict"))
}

/// ` (a stale lock of run R: pid P is gone)`, or nothing.
fn stale(lock: &Option<Holder>) -> String {
    lock.as_ref().map_or_else(String::new, |h| {
        format!("; stale lock of run {} (pid {} is gone)", h.run, h.pid)
    })
}

/// Prints the status in `format` (json: one object; otherwise one line) and returns 0, or
/// exit 66 when the project has neither an active nor a past run.
pub fn show(repo: &Path, runs: &Path, format: Format) -> anyhow::Result<Exit> {
    let status = find(repo, runs).map_err(|lock| {
        failure(
            Exit::NoInput,
            format!(
                "no acceptance run found under {}{}; a run made for another project (`make acceptance REPO=DIR`, `--repo DIR`) is found with qa-report --status --repo DIR",
                runs.display(),
                stale(&lock)
            ),
        )
    })?;
    let line = match (&status, format) {
        (_, Format::Json) => serde_json::to_string(&status).expect("a status is plain data"),
        (Status::Active { run, pid }, _) => format!("active run {run} (pid {pid})"),
        (
            Status::Last {
                run,
                verdict,
                dir,
                stale_lock,
            },
            _,
        ) => format!(
            "last run {run}: {verdict} ({}){}",
            dir.display(),
            stale(stale_lock)
        ),
        (
            Status::Incomplete {
                run,
                reason,
                dir,
                stale_lock,
            },
            _,
        ) => format!(
            "last run {run}: incomplete, its report not vouched for by SHA256SUMS: {reason} ({}){}",
            dir.display(),
            stale(stale_lock)
        ),
    };
    writeln!(std::io::stdout().lock(), "{line}").context("writing the status to stdout")?;
    Ok(Exit::Success)
}
