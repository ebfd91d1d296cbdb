//! Writers at once: every edit survives (the manifest's directory is locked, the file read
//! again under the lock and replaced by rename), and a writer that cannot get the lock
//! within the documented bound exits 69 in one line, leaving the file untouched.

use crate::common;
use common::*;
use qa_testkit::process::Group;
use qa_testkit::{of_kind, Program, Repo};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How many features (commits, intents, files) the busy repository has.
const FEATURES: usize = 16;

/// How long a writer waits for the lock (documented in --help and the man page).
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// A repository whose `feature` branch adds FEATURES behaviours, each in its own file and
/// commit, so each intent can become its own flow; and its saved change flow.
fn busy() -> (Repo, PathBuf, Vec<Value>) {
    let mut r = Repo::new();
    r.write("README.md", "# busy\n");
    for i in 0..FEATURES {
        r.write(
            &format!("src/f{i}/feature{i}.ts"),
            format!("export function feature{i}(n: number): number {{\n  return n;\n}}\n"),
        );
    }
    r.commit("chore: initial import");
    r.branch("feature");
    for i in 0..FEATURES {
        r.write(
            &format!("src/f{i}/feature{i}.ts"),
            format!(
                "export function feature{i}(n: number): number {{\n  if (n < 0) {{\n    throw new Error(\"feature{i} needs a positive number\");\n  }}\n  return n + {i};\n}}\n"
            ),
        );
        r.commit(&format!("feat(f{i}): feature{i} refuses a negative number"));
    }
    let (saved, records) = save_flow(&r, "run.ndjson");
    (r, saved, records)
}

/// The ids of the intents in the saved stream, one per feature.
fn intent_ids(records: &[Value]) -> Vec<String> {
    let ids: Vec<String> = of_kind(records, "intent")
        .into_iter()
        .map(|i| id(i).to_string())
        .collect();
    assert_eq!(ids.len(), FEATURES, "one intent per feature commit");
    ids
}

/// `qa-manifest --repo REPO ARGS... --in STREAM`, started and not waited for.
fn start(repo: &Repo, stream: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_qa-manifest"))
        .current_dir(repo.outside())
        .arg("--repo")
        .arg(repo.path())
        .args(args)
        .arg("--in")
        .arg(stream)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qa-manifest starts")
}

/// Waits for every child; returns (exit code, stderr) of each, in order.
fn finish(children: Vec<Child>) -> Vec<(Option<i32>, String)> {
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().expect("waiting for qa-manifest");
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        })
        .collect()
}

/// The manifest as qa-intent's parser reads it.
fn parsed(repo: &Repo) -> qa_team_manifest::Manifest {
    qa_team_manifest::load(&manifest_path(repo))
        .expect("the manifest parses")
        .expect("the manifest exists")
}

/// The manifest's directory, locked by this test process as another writer would.
fn hold_lock(repo: &Repo) -> std::fs::File {
    let dir = repo.path().join(".qa");
    std::fs::create_dir_all(&dir).unwrap();
    let held = std::fs::File::open(&dir).expect("opening .qa");
    held.lock().expect("locking .qa");
    held
}

#[test]
fn parallel_accepts_of_different_flows_all_survive() {
    let (r, saved, records) = busy();
    let ids = intent_ids(&records);
    let children = ids
        .iter()
        .map(|id| start(&r, &saved, &["accept", id]))
        .collect();
    for (code, stderr) in finish(children) {
        assert_eq!(code, Some(0), "{stderr}");
    }
    assert_eq!(parsed(&r).flows.len(), FEATURES, "{}", manifest_text(&r));
    assert_eq!(qa_dir_entries(&r), ["manifest.yaml"], "no temp file left");
}

#[test]
fn parallel_accepts_and_rejects_all_survive() {
    let (r, saved, records) = busy();
    let ids = intent_ids(&records);
    let scenarios: Vec<String> = ids
        .iter()
        .map(|intent| {
            of_kind(&records, "scenario")
                .into_iter()
                .find(|s| s["data"]["intent"] == intent.as_str())
                .map(|s| id(s).to_string())
                .expect("each intent has a scenario")
        })
        .collect();
    let half = FEATURES / 2;
    let mut children: Vec<Child> = ids[..half]
        .iter()
        .map(|id| start(&r, &saved, &["accept", id]))
        .collect();
    children.extend(
        scenarios[half..]
            .iter()
            .map(|id| start(&r, &saved, &["reject", id, "--reason", "not ours"])),
    );
    for (code, stderr) in finish(children) {
        assert_eq!(code, Some(0), "{stderr}");
    }
    let manifest = parsed(&r);
    assert_eq!(manifest.flows.len(), half, "{}", manifest_text(&r));
    assert_eq!(manifest.suppressions.len(), FEATURES - half);
}

#[test]
fn of_parallel_inits_exactly_one_writes_and_the_others_refuse() {
    let (r, saved, _) = busy();
    let children = (0..4).map(|_| start(&r, &saved, &["init"])).collect();
    let outcomes = finish(children);
    let written = outcomes.iter().filter(|(code, _)| *code == Some(0)).count();
    assert_eq!(written, 1, "{outcomes:?}");
    for (code, stderr) in outcomes.iter().filter(|(code, _)| *code != Some(0)) {
        assert_eq!(*code, Some(64), "{stderr}");
        assert!(stderr.contains("already exists"), "{stderr}");
    }
    assert_eq!(parsed(&r).flows.len(), FEATURES);
}

#[test]
fn a_writer_that_cannot_get_the_lock_exits_69_after_the_bound() {
    let (r, saved, records) = busy();
    let id = &intent_ids(&records)[0];
    r.write(".qa/manifest.yaml", "version: 1\n");
    let _held = hold_lock(&r);
    let started = Instant::now();
    let out = start(&r, &saved, &["accept", id])
        .wait_with_output()
        .unwrap();
    let waited = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(69), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("another qa-manifest is editing") && stderr.contains("10 s"),
        "{stderr}"
    );
    assert!(waited >= LOCK_WAIT, "gave up after {waited:?}");
    assert!(waited < LOCK_WAIT * 6, "waited {waited:?}");
    assert_eq!(manifest_text(&r), "version: 1\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_writer_goes_on_once_the_lock_is_released_within_the_bound() {
    let (r, saved, records) = busy();
    let id = &intent_ids(&records)[0];
    let held = hold_lock(&r);
    let child = start(&r, &saved, &["accept", id]);
    std::thread::sleep(Duration::from_millis(500));
    drop(held);
    let outcome = finish(vec![child]);
    assert_eq!(outcome[0].0, Some(0), "{}", outcome[0].1);
    assert_eq!(parsed(&r).flows.len(), 1);
}

#[test]
fn a_signal_stops_a_writer_waiting_for_the_lock() {
    let (r, saved, records) = busy();
    let id = &intent_ids(&records)[0];
    r.write(".qa/manifest.yaml", "version: 1\n");
    let _held = hold_lock(&r);
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qa-manifest"));
        command
            .arg("--repo")
            .arg(r.path())
            .args(["accept", id, "--in"])
            .arg(&saved);
        let waiting = Group::spawn(command);
        std::thread::sleep(Duration::from_millis(500));
        assert!(waiting.signal(signal));
        // Well before the lock's 10 s bound.
        let out = waiting
            .wait(Duration::from_secs(5))
            .expect("qa-manifest stops on the signal");
        assert_eq!(out.status.code(), Some(code), "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains("nothing was changed"), "{}", out.stderr);
    }
    assert_eq!(manifest_text(&r), "version: 1\n");
}

#[test]
fn validate_reads_without_waiting_for_a_writers_lock() {
    let (r, _, _) = busy();
    r.write(".qa/manifest.yaml", "version: 1\n");
    let _held = hold_lock(&r);
    let run = r
        .run(&Program::at(env!("CARGO_BIN_EXE_qa-manifest")))
        .args(["validate", "--repo"])
        .arg(r.path())
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
}
