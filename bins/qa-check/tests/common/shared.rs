//! One qa-check run read by several tests, each asserting on its own check's observation.

use qa_testkit::http::Server;
use qa_testkit::Run;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The whole-plan budget of a shared run: a group runs up to ten checks where each test's
/// own run had one or two within the default 30 s, so a loaded host does not cut it short.
pub const BUDGET: [&str; 2] = ["--timeout", "120"];

/// A qa-check run made once per test run for the tests of a group (testkit's `once::made`):
/// checks of one page with one set of flags share one qa-check process, so one node driver
/// loads playwright-core for all of them instead of one per test (~0.7 s of CPU each:
/// bench/README.md, issue 28, eleventh pass). Each check still gets a fresh browser
/// context, and the run keeps the pages server's count of requests per path for tests
/// whose checks each request paths of their own; tests whose point is the driver's start,
/// a launch, or a run of its own keep runs of their own.
pub struct SharedRun {
    pub run: Run,
    /// The origin of the pages server the run was made against.
    origin: String,
    /// How many requests each path of the pages server got during the run.
    calls: Value,
    /// The project folder the run had as `--repo`.
    pub repo: PathBuf,
}

impl SharedRun {
    /// The run named `name` (one name per group: the same name is the same run), made when
    /// no test of this test run has made it yet by `make` against a fresh pages server
    /// with an empty project folder.
    pub fn get(name: &str, make: impl FnOnce(&Server, &Path) -> Run) -> SharedRun {
        let base = std::env::temp_dir().join("qa-check-shared-runs");
        let dir = qa_testkit::once::made(&base, name, |dir| {
            let server = super::serve_pages();
            let repo = dir.join("repo");
            std::fs::create_dir(&repo).unwrap();
            let run = make(&server, &repo);
            let saved = json!({
                "origin": server.url(""),
                "calls": server.every_call(),
                "code": run.code,
                "stdout": String::from_utf8(run.stdout).expect("qa-check's stdout is UTF-8"),
                "stderr": run.stderr,
                "program": run.program,
            });
            std::fs::write(dir.join("run.json"), saved.to_string()).unwrap();
        });
        let text = std::fs::read_to_string(dir.join("run.json")).unwrap();
        let saved: Value = serde_json::from_str(&text).unwrap();
        let string = |key: &str| saved[key].as_str().unwrap().to_string();
        SharedRun {
            run: Run {
                program: string("program"),
                code: saved["code"].as_i64().unwrap() as i32,
                stdout: string("stdout").into_bytes(),
                stderr: string("stderr"),
            },
            origin: string("origin"),
            calls: saved["calls"].clone(),
            repo: dir.join("repo"),
        }
    }

    /// `path` on the pages server the run was made against.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// How many requests `path` of the pages server got during the run.
    pub fn calls(&self, path: &str) -> u64 {
        self.calls[path].as_u64().unwrap_or(0)
    }

    /// The observation of the check `id` in a run that exited 0 (its records validated).
    pub fn observation(&self, id: &str) -> Value {
        let all = super::observations(&super::records(&self.run, 0));
        let mut mine = all.into_iter().filter(|o| o["check"] == id);
        let found = mine
            .next()
            .unwrap_or_else(|| panic!("no observation of {id} in the shared run"));
        assert!(mine.next().is_none(), "two observations of {id}");
        found
    }
}
