//! `qa-report --status`: the project's active acceptance run (from its lock), or else its
//! last run (the newest run folder) with that run's verdict.

use super::folder::REPORT_JSON;
use super::lock;
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
    Last {
        run: String,
        /// The verdict report.json records; None when the folder has no readable one (a
        /// run that ended before writing it).
        verdict: Option<String>,
        dir: PathBuf,
    },
}

/// The active run of the project at `repo`, else the newest run folder under `runs`.
pub fn find(repo: &Path, runs: &Path) -> Option<Status> {
    if let Some(h) = lock::holder(repo).filter(|h| lock::alive(h.pid)) {
        return Some(Status::Active {
            run: h.run,
            pid: h.pid,
        });
    }
    let newest = fs::read_dir(runs)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| {
            let modified = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            (modified, e.file_name(), e.path())
        })
        .max()?;
    let (_, name, dir) = newest;
    Some(Status::Last {
        run: name.to_string_lossy().into_owned(),
        verdict: verdict_of(&dir),
        dir,
    })
}

fn verdict_of(dir: &Path) -> Option<String> {
    let text = fs::read_to_string(dir.join(REPORT_JSON)).ok()?;
    let report: serde_json::Value = serde_json::from_str(&text).ok()?;
    report["verdict"]["status"].as_str().map(str::to_string)
}

/// Prints the status in `format` (json: one object; otherwise one line) and returns 0, or
/// exit 66 when the project has neither an active nor a past run.
pub fn show(repo: &Path, runs: &Path, format: Format) -> anyhow::Result<Exit> {
    let Some(status) = find(repo, runs) else {
        return Err(failure(
            Exit::NoInput,
            format!("no acceptance run found under {}", runs.display()),
        ));
    };
    let line = match (&status, format) {
        (_, Format::Json) => serde_json::to_string(&status).expect("a status is plain data"),
        (Status::Active { run, pid }, _) => format!("active run {run} (pid {pid})"),
        (Status::Last { run, verdict, dir }, _) => format!(
            "last run {run}: {} ({})",
            verdict.as_deref().unwrap_or("no verdict recorded"),
            dir.display()
        ),
    };
    writeln!(std::io::stdout().lock(), "{line}").context("writing the status to stdout")?;
    Ok(Exit::Success)
}
