//! The run folder `<out>/<run-id>/`: its id, its private creation, and the paths of the
//! files written in it (report.json, report.md, report.html, junit.xml, records.ndjson,
//! events.ndjson, screenshots/, SHA256SUMS).

use qa_records::private_dir::PrivateDir;
use serde::Serialize;
use std::io;
use std::path::PathBuf;

pub const REPORT_JSON: &str = "report.json";
pub const REPORT_MD: &str = "report.md";
pub const REPORT_HTML: &str = crate::html::REPORT_HTML;
pub const JUNIT: &str = "junit.xml";
pub const RECORDS: &str = "records.ndjson";
pub const EVENTS: &str = "events.ndjson";

/// Where a run's files are.
#[derive(Debug, Clone, Serialize)]
pub struct ReportPaths {
    pub run: String,
    pub dir: PathBuf,
    pub report_json: PathBuf,
    pub report_md: PathBuf,
    pub report_html: PathBuf,
    pub junit: PathBuf,
    pub records: PathBuf,
    pub events: PathBuf,
    pub sums: PathBuf,
}

impl ReportPaths {
    fn new(run: String, dir: PathBuf) -> ReportPaths {
        ReportPaths {
            report_json: dir.join(REPORT_JSON),
            report_md: dir.join(REPORT_MD),
            report_html: dir.join(REPORT_HTML),
            junit: dir.join(JUNIT),
            records: dir.join(RECORDS),
            events: dir.join(EVENTS),
            sums: dir.join(crate::out::SUMS),
            run,
            dir,
        }
    }
}

/// `<stamp>-<first 8 hex of the plan's sha256>`; `00000000` when no plan was read (a run
/// cancelled before its plan arrived).
pub fn run_id(stamp: &str, plan_sha256: Option<&str>) -> String {
    let hex: String = plan_sha256
        .map(|h| h.strip_prefix("sha256:").unwrap_or(h))
        .unwrap_or("")
        .chars()
        .take(8)
        .collect();
    if hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("{stamp}-{}", hex.to_ascii_lowercase())
    } else {
        format!("{stamp}-00000000")
    }
}

/// A new run folder (0700) in `out` (the open folder at `out_path`). A folder of the same
/// id (two runs of one plan within a second) is never reused: the new one gets `-2`,
/// `-3`, ... A failure is a usage error naming `out`.
pub fn create(out: &PrivateDir, run: &str) -> anyhow::Result<(ReportPaths, PrivateDir)> {
    for n in 1u32.. {
        let id = if n == 1 {
            run.to_string()
        } else {
            format!("{run}-{n}")
        };
        match out.create_new(&id) {
            Ok(dir) => {
                let paths = ReportPaths::new(id, dir.path().to_path_buf());
                return Ok((paths, dir));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                let e = anyhow::Error::new(e).context(format!("creating {id}"));
                return Err(crate::out::unwritable(out.path(), e));
            }
        }
    }
    unreachable!("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_id_is_the_stamp_and_the_plan_hash_prefix() {
        let sha = format!("sha256:ABCDEF12{}", "0".repeat(56));
        assert_eq!(
            run_id("20261129T173600Z", Some(&sha)),
            "20261129T173600Z-abcdef12"
        );
        assert_eq!(
            run_id("20261129T173600Z", Some("0123456789")),
            "20261129T173600Z-01234567"
        );
    }

    #[test]
    fn without_a_usable_plan_hash_the_run_id_says_zeros() {
        assert_eq!(run_id("S", None), "S-00000000");
        assert_eq!(run_id("S", Some("not-hex!")), "S-00000000");
    }

    #[test]
    fn a_second_run_with_the_same_id_gets_its_own_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = PrivateDir::open(dir.path(), std::path::Path::new("runs")).unwrap();
        let (a, _) = create(&out, "R").unwrap();
        let (b, _) = create(&out, "R").unwrap();
        assert_eq!((a.run.as_str(), b.run.as_str()), ("R", "R-2"));
        assert!(b.dir.is_dir());
    }
}
