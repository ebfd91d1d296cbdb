//! The change flow as the tests run it: fixture repositories on a `feature` branch, the
//! built binaries piped stage by stage, every stream schema-checked and verified by
//! `qa-report --verify`, and lookups over intents, scenarios, routes and traces.
#![allow(dead_code)]

pub mod acceptance;

use serde_json::Value;
use std::collections::HashSet;
use std::ffi::OsString;

pub use qa_testkit::*;

/// A repository whose `main` holds `base` (plus a README) in one commit, checked out on a
/// new `feature` branch.
pub fn feature_repo(base: &[(&str, &str)]) -> Repo {
    let mut r = Repo::new();
    r.write("README.md", "# shop\n\nA small web shop.\n");
    for (path, content) in base {
        r.write(path, content);
    }
    r.commit("chore: initial import");
    r.branch("feature");
    r
}

const LEDGER_CARGO: &str =
    "[package]\nname = \"ledger\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

const LEDGER_V1: &str = r#"/// A ledger entry in cents.
pub struct Entry {
    pub amount: i64,
}

pub fn refund(balance: i64, amount: i64) -> i64 {
    balance - amount
}
"#;

fn ledger_v2() -> String {
    let guarded = edit(
        LEDGER_V1,
        "pub fn refund(balance: i64, amount: i64) -> i64 {\n    balance - amount\n",
        "pub fn refund(balance: i64, amount: i64) -> Result<i64, String> {\n    if amount < 0 {\n        return Err(format!(\"refund of {amount} cents is negative\"));\n    }\n    Ok(balance - amount)\n",
    );
    guarded
        + "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn refund_rejects_negative() {\n        assert!(refund(100, -1).is_err());\n    }\n}\n"
}

/// A Rust crate `ledger` whose refund, on `feature`, rejects negative amounts, with a new
/// `#[test] fn refund_rejects_negative`.
pub fn ledger_crate() -> Repo {
    ledger_with(&[])
}

fn ledger_with(extra_base: &[(&str, &str)]) -> Repo {
    let mut base = vec![("Cargo.toml", LEDGER_CARGO), ("src/lib.rs", LEDGER_V1)];
    base.extend_from_slice(extra_base);
    let mut r = feature_repo(&base);
    commit_files(
        &mut r,
        "fix: reject negative refunds in the ledger",
        &[("src/lib.rs", &ledger_v2())],
    );
    r
}

const RECEIPT_V1: &str = r#"export function receiptLines(refunds: Refund[]): string[] {
  const out = refunds.map((r) => `${r.orderId}: ${r.amount}`);
  return out;
}
"#;

/// The ledger crate plus a `feat` whose diff only renames a local variable: its
/// scenarios can only rest on commit wording.
pub fn ledger_and_rename() -> Repo {
    let mut r = ledger_with(&[("web/receipt.ts", RECEIPT_V1)]);
    commit_files(
        &mut r,
        "feat: list refunds on the receipt",
        &[(
            "web/receipt.ts",
            &RECEIPT_V1
                .replace("const out", "const lines")
                .replace("return out", "return lines"),
        )],
    );
    r
}

/// Writes `files` and commits them with `message`; returns the commit id.
pub fn commit_files(r: &mut Repo, message: &str, files: &[(&str, &str)]) -> String {
    for (path, content) in files {
        r.write(path, content);
    }
    r.commit(message)
}

/// `content` with its first `find` replaced by `replace`: a fixture's change written as
/// the change. Panics when `find` is absent, so a fixture cannot silently stop changing.
pub fn edit(content: &str, find: &str, replace: &str) -> String {
    assert!(
        content.contains(find),
        "fixture: {find:?} is not in the file"
    );
    content.replacen(find, replace, 1)
}

/// The 1-based line of the first line of `content` containing `needle`.
pub fn line_of(content: &str, needle: &str) -> u64 {
    content
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("fixture: {needle:?} is not in the file"))
}

/// The change flow over one repository, configured before it runs.
pub struct Flow<'a> {
    repo: &'a Repo,
    worktree: bool,
    draft_manual: bool,
    path: Option<OsString>,
}

/// `qa-diff --repo R | qa-intent --repo R | qa-route --repo R | qa-trace`, from outside R.
pub fn flow(repo: &Repo) -> Flow<'_> {
    Flow {
        repo,
        worktree: false,
        draft_manual: false,
        path: None,
    }
}

/// The record kinds each stage may add to the stream.
const ADDS: &[(&str, &[&str])] = &[
    ("qa-intent", &["intent", "scenario", "node", "edge", "diag"]),
    ("qa-route", &["route", "capability", "diag"]),
    ("qa-trace", &["trace", "draft", "diag"]),
];

impl Flow<'_> {
    /// Diff the working tree (`qa-diff --worktree`).
    pub fn worktree(mut self) -> Self {
        self.worktree = true;
        self
    }

    /// `qa-trace --draft manual`.
    pub fn draft_manual(mut self) -> Self {
        self.draft_manual = true;
        self
    }

    /// The PATH every stage sees (qa-route looks runners up there). Default: an empty
    /// directory, so no machine's installed tools change the routes.
    pub fn path(mut self, path: OsString) -> Self {
        self.path = Some(path);
        self
    }

    /// Runs every stage, asserting each exits 0, forwards its input unchanged and in
    /// order, and adds only its own kinds; then schema-checks and verifies the stream.
    pub fn run(self) -> Stream {
        let no_tools = ToolStubs::new(&[]);
        let path = self.path.clone().unwrap_or_else(|| no_tools.path_var());
        let repo = self.repo.path().to_str().expect("a UTF-8 temp path");
        let mut diff_args = vec!["--repo", repo, "--base", "main"];
        if self.worktree {
            diff_args.push("--worktree");
        }
        let diff = self.stage("qa-diff", &diff_args, Vec::new(), &path);
        let mut bytes = diff.stdout;
        let trace_args: &[&str] = if self.draft_manual {
            &["--draft", "manual"]
        } else {
            &[]
        };
        for (name, args) in [
            ("qa-intent", &["--repo", repo][..]),
            ("qa-route", &["--repo", repo][..]),
            ("qa-trace", trace_args),
        ] {
            let run = self.stage(name, args, bytes.clone(), &path);
            assert_forwards(name, &bytes, &run.stdout);
            bytes = run.stdout;
        }
        Stream::checked(bytes)
    }

    fn stage(&self, name: &str, args: &[&str], stdin: Vec<u8>, path: &OsString) -> Run {
        self.repo
            .run(&Program::built(name))
            .dir(self.repo.outside())
            .env("PATH", path)
            .args(args)
            .stdin(stdin)
            .run()
            .success()
    }
}

/// Asserts `output` holds every line of `input`, unchanged and in order, and that the
/// lines `stage` added are of its own kinds.
fn assert_forwards(stage: &str, input: &[u8], output: &[u8]) {
    let allowed = ADDS
        .iter()
        .find(|(s, _)| *s == stage)
        .map(|(_, kinds)| *kinds)
        .unwrap_or_default();
    let mut expected = input.split(|b| *b == b'\n').filter(|l| !l.is_empty());
    let mut next = expected.next();
    for line in output.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        if Some(line) == next {
            next = expected.next();
            continue;
        }
        let record: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
            panic!(
                "{stage} wrote a line that is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            )
        });
        let kind = record["kind"].as_str().unwrap_or("(none)");
        assert!(
            allowed.contains(&kind),
            "{stage} added a {kind} record (it may add {allowed:?}), or changed a forwarded line: {record}"
        );
    }
    if let Some(missing) = next {
        panic!(
            "{stage} did not forward this input line unchanged and in order: {}",
            String::from_utf8_lossy(missing)
        );
    }
}

/// Asserts `qa-report --verify` accepts `bytes`: envelopes, ids and the `from` chain.
pub fn assert_verifies(bytes: &[u8]) {
    let run = Program::built("qa-report")
        .invocation()
        .arg("--verify")
        .stdin(bytes.to_vec())
        .run();
    assert_eq!(
        run.code, 0,
        "qa-report --verify rejected the stream:\n{}",
        run.stderr
    );
}

/// A whole change-flow stream, checked.
pub struct Stream {
    pub bytes: Vec<u8>,
    pub records: Vec<Value>,
}

impl Stream {
    /// Parses, schema-checks (ids recomputed) and verifies `bytes`.
    pub fn checked(bytes: Vec<u8>) -> Stream {
        let records = parse(&bytes);
        Schemas::get().validate_all(&records);
        assert_verifies(&bytes);
        Stream { bytes, records }
    }

    pub fn of_kind(&self, kind: &str) -> Vec<&Value> {
        of_kind(&self.records, kind)
    }

    pub fn intents(&self) -> Vec<&Value> {
        self.of_kind("intent")
    }

    pub fn scenarios(&self) -> Vec<&Value> {
        self.of_kind("scenario")
    }

    /// Intents of `focus` (product, command, ...).
    pub fn intents_of_focus(&self, focus: &str) -> Vec<&Value> {
        self.intents()
            .into_iter()
            .filter(|i| i["data"]["focus"] == focus)
            .collect()
    }

    /// Scenarios of `focus`.
    pub fn scenarios_of_focus(&self, focus: &str) -> Vec<&Value> {
        self.scenarios()
            .into_iter()
            .filter(|s| s["data"]["focus"] == focus)
            .collect()
    }

    /// Scenarios of `kind` (primary, failure, boundary, state-transition).
    pub fn scenarios_of_kind(&self, kind: &str) -> Vec<&Value> {
        self.scenarios()
            .into_iter()
            .filter(|s| s["data"]["kind"] == kind)
            .collect()
    }

    /// Asserts a scenario of `kind` has `file:line` among its evidence.
    pub fn assert_scenario_at(&self, kind: &str, file: &str, line: u64) {
        assert!(
            self.scenarios_of_kind(kind)
                .iter()
                .any(|sc| has_evidence_at(sc, file, line)),
            "no {kind} scenario rests on {file}:{line}:\n{}",
            self.summary()
        );
    }

    /// The scenarios whose `intent` is this intent record's id.
    pub fn scenarios_of(&self, intent: &Value) -> Vec<&Value> {
        self.scenarios()
            .into_iter()
            .filter(|s| s["data"]["intent"] == intent["id"])
            .collect()
    }

    /// The intents listing `oid` among their behaviour-bearing `commits`.
    pub fn intents_with_commit(&self, oid: &str) -> Vec<&Value> {
        self.intents()
            .into_iter()
            .filter(|i| strs(&i["data"]["commits"]).contains(&oid))
            .collect()
    }

    /// The one intent listing `oid` in `commits`.
    pub fn intent_with_commit(&self, oid: &str) -> &Value {
        let found = self.intents_with_commit(oid);
        assert_eq!(
            found.len(),
            1,
            "expected one intent with commit {oid}, got {}:\n{}",
            found.len(),
            self.summary()
        );
        found[0]
    }

    /// The intents listing `path` among their files.
    pub fn intents_with_file(&self, path: &str) -> Vec<&Value> {
        self.intents()
            .into_iter()
            .filter(|i| strs(&i["data"]["files"]).contains(&path))
            .collect()
    }

    /// The one intent listing `path` among its files.
    pub fn intent_with_file(&self, path: &str) -> &Value {
        let found = self.intents_with_file(path);
        assert_eq!(
            found.len(),
            1,
            "expected one intent with file {path}, got {}:\n{}",
            found.len(),
            self.summary()
        );
        found[0]
    }

    /// The records of `kind` whose `data.subject` is `subject`'s id.
    fn about<'s>(&'s self, kind: &str, subject: &Value) -> Vec<&'s Value> {
        self.of_kind(kind)
            .into_iter()
            .filter(|r| r["data"]["subject"] == subject["id"])
            .collect()
    }

    /// The one record of `kind` (route, trace) about a scenario.
    pub fn one_about(&self, kind: &str, scenario: &Value) -> &Value {
        let found = self.about(kind, scenario);
        assert_eq!(
            found.len(),
            1,
            "expected one {kind} for scenario {:?}, got {}",
            scenario["data"]["title"],
            found.len()
        );
        found[0]
    }

    /// The one route of a scenario.
    pub fn route_of(&self, scenario: &Value) -> &Value {
        self.one_about("route", scenario)
    }

    /// The one trace of a scenario.
    pub fn trace_of(&self, scenario: &Value) -> &Value {
        self.one_about("trace", scenario)
    }

    /// The drafts of a scenario.
    pub fn drafts_of(&self, scenario: &Value) -> Vec<&Value> {
        self.about("draft", scenario)
    }

    /// Every route and additional command's `run` line.
    pub fn command_lines(&self) -> Vec<String> {
        self.of_kind("route")
            .into_iter()
            .flat_map(|r| {
                let d = &r["data"];
                std::iter::once(&d["command"])
                    .chain(d["additional_commands"].as_array().into_iter().flatten())
                    .filter_map(|c| c["run"].as_str().map(str::to_string))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Runs `qa-report` on this stream with `args`; asserts it ends with a verdict exit
    /// (0, 1 or 2), not a usage, input or internal error.
    pub fn report(&self, args: &[&str]) -> Run {
        let run = Program::built("qa-report")
            .invocation()
            .args(args)
            .stdin(self.bytes.clone())
            .run();
        assert!(
            matches!(run.code, 0..=2),
            "qa-report {args:?} exited {}; stderr:\n{}",
            run.code,
            run.stderr
        );
        run
    }

    /// One line per intent and its scenarios, for assertion messages.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for intent in self.intents() {
            let d = &intent["data"];
            out.push_str(&format!(
                "intent {:?} focus={} source={} confidence={} commits={} cleanup_commits={} files={}\n",
                d["title"], d["focus"], d["source"], d["confidence"], d["commits"], d["cleanup_commits"], d["files"]
            ));
            for s in self.scenarios_of(intent) {
                let s = &s["data"];
                out.push_str(&format!(
                    "  scenario {:?} kind={} focus={}\n",
                    s["title"], s["kind"], s["focus"]
                ));
            }
        }
        if out.is_empty() {
            out.push_str("(no intents)\n");
        }
        out
    }
}

/// The strings of a JSON array (empty when it is not one).
pub fn strs(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A scenario's title, steps and assertions, lowercased: what a reader of it sees.
pub fn scenario_text(scenario: &Value) -> String {
    let d = &scenario["data"];
    let mut parts = vec![d["title"].as_str().unwrap_or_default().to_string()];
    parts.extend(strs(&d["steps"]).into_iter().map(str::to_string));
    parts.extend(strs(&d["assertions"]).into_iter().map(str::to_string));
    parts.join("\n").to_lowercase()
}

/// The lowercased title of a scenario.
pub fn title(scenario: &Value) -> String {
    scenario["data"]["title"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase()
}

/// True when the scenario's evidence holds `file:line`.
pub fn has_evidence_at(scenario: &Value, file: &str, line: u64) -> bool {
    scenario["data"]["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|e| e["file"] == file && e["line"] == line)
}

/// True when a direct or supporting evidence item names a changed line (line > 0).
pub fn is_located(scenario: &Value) -> bool {
    scenario["data"]["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|e| {
            (e["relation"] == "direct" || e["relation"] == "supporting")
                && e["line"].as_u64().is_some_and(|l| l > 0)
        })
}

/// The ids of a list of records.
pub fn ids<'a>(records: &[&'a Value]) -> HashSet<&'a str> {
    records.iter().filter_map(|r| r["id"].as_str()).collect()
}
