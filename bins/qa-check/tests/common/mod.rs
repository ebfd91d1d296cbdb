//! Test support: acceptance streams built from the shared record types, captured manifests
//! of project trees (real git repositories), a real HTTP server on 127.0.0.1, and running qa-check.
#![allow(dead_code)]

pub mod server;
pub mod shared;

use qa_records::acceptance::{
    CheckDecision, CheckRouteData, CheckSpecData, Entry, Excluded, TargetData, TargetKind,
    TargetSpec, TargetStatus,
};
use qa_records::change::{Action, ActionKind, Risk};
use qa_records::envelope::Src;
use qa_records::hash::sha256_hex;
use qa_records::{Kind, Record};
use qa_testkit::{Program, Repo, Run, Schemas};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// A real HTTP server on 127.0.0.1 serving every page of `tests/pages/` as HTML.
pub fn serve_pages() -> qa_testkit::http::Server {
    use qa_testkit::http::{Reply, Server};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pages");
    let pages: Vec<(String, Reply)> = std::fs::read_dir(&dir)
        .expect("the test pages")
        .map(|entry| {
            let path = entry.expect("a test page").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let body = std::fs::read(&path).expect("reading a test page");
            let page = Reply::ok(body).header("Content-Type", "text/html; charset=utf-8");
            (format!("/{name}"), page)
        })
        .collect();
    Server::start(
        pages
            .iter()
            .map(|(path, page)| (path.as_str(), page.clone())),
    )
}

pub fn qa_check() -> Program {
    Program::at(env!("CARGO_BIN_EXE_qa-check"))
}

/// An NDJSON stream built record by record.
#[derive(Default, Clone)]
pub struct Stream {
    bytes: Vec<u8>,
}

impl Stream {
    /// Appends a record and returns its id.
    pub fn push(&mut self, kind: Kind, from: Vec<String>, data: impl Serialize) -> String {
        let record = Record::new(kind, "test/0", from, Src::new(), data).unwrap();
        self.bytes.extend_from_slice(&record.to_line());
        self.bytes.push(b'\n');
        record.id
    }

    /// Appends a raw line.
    pub fn raw(&mut self, line: &[u8]) {
        self.bytes.extend_from_slice(line);
        self.bytes.push(b'\n');
    }

    /// The plan's target spec and its captured `target` record.
    pub fn target(&mut self, target: &TargetData) -> String {
        let spec = self.push(
            Kind::TargetSpec,
            vec![],
            TargetSpec {
                kind: target.kind,
                value: target.value.clone(),
                build_id: None,
                env: None,
                app: None,
            },
        );
        self.push(Kind::Target, vec![spec], target)
    }

    /// A `check.spec` for `spec` (a plan check object with id, criterion and kind).
    pub fn check(&mut self, spec: Value) -> String {
        let data = CheckSpecData {
            id: spec["id"].as_str().unwrap().to_string(),
            criterion: spec["criterion"].as_str().unwrap_or("crit").to_string(),
            kind: spec["kind"].as_str().unwrap().to_string(),
            spec,
        };
        self.push(Kind::CheckSpec, vec![], data)
    }

    /// A check route for the check spec `subject`.
    pub fn route(
        &mut self,
        subject: &str,
        check: &str,
        decision: CheckDecision,
        reason: &str,
        missing: &[&str],
    ) -> String {
        let data = CheckRouteData {
            subject: subject.to_string(),
            check: check.to_string(),
            criterion: "crit".to_string(),
            decision,
            reason: reason.to_string(),
            needs: missing.iter().map(|s| s.to_string()).collect(),
            missing: missing.iter().map(|s| s.to_string()).collect(),
            action: Action {
                kind: ActionKind::RunCheck,
                risk: Risk::Low,
                approval: "required".to_string(),
                executes_code: false,
                writes: vec![],
                network: false,
                preconditions: vec!["the target is captured".to_string()],
            },
        };
        self.push(Kind::Route, vec![subject.to_string()], data)
    }

    /// A check spec with a runnable route.
    pub fn routed(&mut self, spec: Value) -> String {
        let id = spec["id"].as_str().unwrap().to_string();
        let subject = self.check(spec);
        self.route(&subject, &id, CheckDecision::Runnable, "runnable", &[]);
        subject
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}

/// A captured target: the stream holding it and the given checks, each routed runnable.
pub fn routed(target: &TargetData, checks: &[Value]) -> Stream {
    let mut stream = Stream::default();
    stream.target(target);
    for check in checks {
        stream.routed(check.clone());
    }
    stream
}

/// A target record's data with nothing captured yet: the base the builders below fill.
pub fn target_data(kind: TargetKind, value: &str, status: TargetStatus) -> TargetData {
    TargetData {
        kind,
        value: value.to_string(),
        build_id: None,
        status,
        sha256: None,
        entries: vec![],
        excluded: vec![],
        reason: None,
        http_status: None,
        etag: None,
        x_build_id: None,
    }
}

/// The captured directory target `dir` of `repo` as qa-fetch writes it: every file under
/// it as an entry {path relative to `dir`, size, sha256}, sorted, except the `excluded`
/// paths, which are listed as excluded.
pub fn directory_target(repo: &Repo, dir: &str, excluded: &[&str]) -> TargetData {
    let root = repo.path().join(dir);
    let mut entries = Vec::new();
    collect(&root, &root, &mut entries);
    entries.retain(|e: &Entry| {
        !excluded
            .iter()
            .any(|x| e.path == *x || e.path.starts_with(&format!("{x}/")))
    });
    entries.sort();
    TargetData {
        sha256: Some(sha256_hex(&serde_json::to_vec(&entries).unwrap())),
        entries,
        excluded: excluded
            .iter()
            .map(|x| Excluded {
                path: x.to_string(),
                reason: "secret file".to_string(),
            })
            .collect(),
        ..target_data(TargetKind::Directory, dir, TargetStatus::Captured)
    }
}

/// The captured file target `path` of `repo`: a one-entry manifest named by the file name.
pub fn file_target(repo: &Repo, path: &str) -> TargetData {
    let bytes = std::fs::read(repo.path().join(path)).unwrap();
    let name = Path::new(path).file_name().unwrap().to_string_lossy();
    let entries = vec![Entry {
        path: name.into_owned(),
        size: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
    }];
    TargetData {
        sha256: Some(sha256_hex(&serde_json::to_vec(&entries).unwrap())),
        entries,
        ..target_data(TargetKind::File, path, TargetStatus::Captured)
    }
}

/// qa-check with `--repo` at `repo`, `flags`, and `stream` on stdin.
pub fn run_in(repo: &Repo, stream: &Stream, flags: &[&str]) -> Run {
    qa_check()
        .invocation()
        .arg("--repo")
        .arg(repo.path())
        .args(flags)
        .stdin(stream.bytes())
        .run()
}

fn collect(root: &Path, dir: &Path, entries: &mut Vec<Entry>) {
    for item in std::fs::read_dir(dir).unwrap() {
        let path = item.unwrap().path();
        if path.is_dir() {
            collect(root, &path, entries);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            let rel = path.strip_prefix(root).unwrap();
            entries.push(Entry {
                path: rel.to_string_lossy().replace('\\', "/"),
                size: bytes.len() as u64,
                sha256: sha256_hex(&bytes),
            });
        }
    }
}

/// A url target as qa-fetch writes it: captured (or `status` with `reason`).
pub fn url_target(url: &str, status: TargetStatus, reason: Option<&str>) -> TargetData {
    let captured = status == TargetStatus::Captured;
    TargetData {
        sha256: captured.then(|| sha256_hex(b"home")),
        reason: reason.map(str::to_string),
        http_status: captured.then_some(200),
        ..target_data(TargetKind::Url, url, status)
    }
}

/// The records of a run that exited `code`; qa-check's own (observations, events) are
/// validated against their schemas with their ids recomputed.
pub fn records(run: &Run, code: i32) -> Vec<Value> {
    assert_eq!(run.code, code, "stderr:\n{}", run.stderr);
    let records = qa_testkit::parse(&run.stdout);
    let mine: Vec<Value> = records
        .iter()
        .filter(|r| r["kind"] == "observation" || r["kind"] == "event")
        .cloned()
        .collect();
    Schemas::get().validate_all(&mine);
    records
}

/// The data of every observation, in order.
pub fn observations(records: &[Value]) -> Vec<Value> {
    qa_testkit::of_kind(records, "observation")
        .into_iter()
        .map(|r| r["data"].clone())
        .collect()
}

/// The one observation of a run that exited 0.
pub fn only_observation(run: &Run) -> Value {
    let all = observations(&records(run, 0));
    assert_eq!(all.len(), 1, "{all:#?}");
    all.into_iter().next().unwrap()
}
