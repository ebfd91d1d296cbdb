//! The acceptance flow as the tests run it: project directories in temp dirs, plans built
//! as JSON, the built stages piped one by one (so a test can act between two of them) or
//! through pipelines/acceptance.sh, and the run folder qa-report leaves, read back.
#![allow(dead_code)]

use qa_testkit::process::wait_until;
use qa_testkit::run::bin_dir;
use qa_testkit::{parse, Program, Run, Schemas, Tree};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Where a project keeps its plan.
pub const PLAN: &str = ".qa-acceptance.json";

/// The home page of the shop project.
pub const INDEX: &str = "<!doctype html>\n<html lang=\"en\">\n<body>\n  <h1>Welcome to the Example Shop</h1>\n  <p>Refunds above 100 EUR are reviewed by a manager before they are paid.</p>\n  <footer>Example Shop GmbH</footer>\n</body>\n</html>\n";
/// The ticket the refund criterion quotes.
pub const TICKET: &str = "# SHOP-12\n\nRefunds above 100 EUR require a manager's approval.\nSmaller refunds are paid at once.\n";
pub const TICKET_QUOTE: &str = "Refunds above 100 EUR require a manager's approval";
/// The specification the footer criterion quotes.
pub const SPEC: &str = "# Shop specification\n\nThe footer shows the company name.\n";
pub const SPEC_QUOTE: &str = "The footer shows the company name.";

/// A project directory in a temp dir: the plan, the target, ticket and spec files.
pub struct Project {
    tree: Tree,
}

impl Project {
    /// An empty project.
    pub fn empty() -> Project {
        Project { tree: Tree::new() }
    }

    /// A small shop: `site/index.html` and `site/health.json`, a ticket and a spec.
    pub fn shop() -> Project {
        let p = Project::empty();
        p.write("site/index.html", INDEX);
        p.write("site/health.json", "{\"status\":\"ok\"}\n");
        p.write("tickets/SHOP-12.md", TICKET);
        p.write("docs/spec.md", SPEC);
        p
    }

    pub fn path(&self) -> &Path {
        self.tree.path()
    }

    /// Writes `content` at the project-relative `rel`, creating its folders.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        self.tree.write(rel, content);
    }

    /// Replaces the first `find` in `rel` by `replace` (which must be there).
    pub fn edit(&self, rel: &str, find: &str, replace: &str) {
        self.tree.edit(rel, find, replace);
    }

    /// Writes the plan file.
    pub fn plan(&self, plan: &Value) {
        self.write(
            PLAN,
            serde_json::to_vec_pretty(plan).expect("a plan is JSON"),
        );
    }

    /// The plan file, parsed.
    pub fn plan_document(&self) -> Value {
        serde_json::from_str(&self.tree.read(PLAN)).expect("the plan file is JSON")
    }

    /// The run folders under `.qa/acceptance`.
    pub fn run_dirs(&self) -> BTreeSet<PathBuf> {
        match fs::read_dir(self.path().join(".qa/acceptance")) {
            Ok(entries) => entries
                .map(|e| e.expect("a folder entry").path())
                .filter(|p| p.is_dir())
                .collect(),
            Err(_) => BTreeSet::new(),
        }
    }

    pub fn lock_file(&self) -> PathBuf {
        self.path().join(".qa/acceptance.lock")
    }

    /// The acceptance flow over this project, with no flags yet.
    pub fn pipeline(&self) -> Pipeline<'_> {
        Pipeline {
            project: self,
            flags: Vec::new(),
            env: Vec::new(),
        }
    }
}

/// A plan with `target`, `criteria` and `checks`.
pub fn plan(target: Value, criteria: Vec<Value>, checks: Vec<Value>) -> Value {
    json!({"target": target, "criteria": criteria, "checks": checks})
}

/// The project's `site` directory as target.
pub fn site() -> Value {
    json!({"kind": "directory", "value": "site", "buildId": "2026.11.29-1"})
}

/// A URL target.
pub fn url(value: &str) -> Value {
    json!({"kind": "url", "value": value})
}

/// A criterion stated in the plan itself.
pub fn request(id: &str, text: &str) -> Value {
    json!({"id": id, "expected": format!("{text} (expected)"), "source": {"kind": "request", "text": text}})
}

/// A criterion quoting a ticket file.
pub fn ticket(id: &str, path: &str, quote: &str) -> Value {
    json!({"id": id, "expected": "Large refunds need approval", "source": {"kind": "ticket", "path": path, "quote": quote}})
}

/// A criterion quoting a specification file.
pub fn spec(id: &str, path: &str, quote: &str) -> Value {
    json!({"id": id, "expected": "The footer names the company", "source": {"kind": "spec", "path": path, "quote": quote}})
}

/// A criterion supplied by inference.
pub fn inferred(id: &str, text: &str) -> Value {
    json!({"id": id, "expected": text, "source": {"kind": "inferred", "text": text}})
}

/// A file check of a directory target.
pub fn file_check(id: &str, criterion: &str, path: &str, contains: &str) -> Value {
    json!({"id": id, "criterion": criterion, "kind": "file", "path": path, "contains": contains})
}

/// An http check; `status` and `contains` are left out when None.
pub fn http_check(
    id: &str,
    criterion: &str,
    path: &str,
    status: Option<u16>,
    contains: Option<&str>,
) -> Value {
    let mut check = json!({"id": id, "criterion": criterion, "kind": "http", "path": path});
    if let Some(status) = status {
        check["status"] = json!(status);
    }
    if let Some(contains) = contains {
        check["contains"] = json!(contains);
    }
    check
}

/// The shop's passing plan: a request, a ticket and a spec criterion, one file check each.
pub fn shop_plan() -> Value {
    plan(
        site(),
        vec![
            request("greets", "Greet visitors on the home page"),
            ticket("refunds", "tickets/SHOP-12.md", TICKET_QUOTE),
            spec("footer", "docs/spec.md", SPEC_QUOTE),
        ],
        vec![
            file_check(
                "home-greets",
                "greets",
                "index.html",
                "Welcome to the Example Shop",
            ),
            file_check(
                "refund-note",
                "refunds",
                "index.html",
                "reviewed by a manager",
            ),
            file_check(
                "footer-company",
                "footer",
                "index.html",
                "<footer>Example Shop GmbH</footer>",
            ),
        ],
    )
}

/// The stages before qa-report, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Plan,
    Fetch,
    Route,
    Check,
    Verify,
    Trace,
}

const STAGES: [Stage; 6] = [
    Stage::Plan,
    Stage::Fetch,
    Stage::Route,
    Stage::Check,
    Stage::Verify,
    Stage::Trace,
];

impl Stage {
    fn program(self) -> &'static str {
        match self {
            Stage::Plan => "qa-intent",
            Stage::Fetch | Stage::Verify => "qa-fetch",
            Stage::Route => "qa-route",
            Stage::Check => "qa-check",
            Stage::Trace => "qa-trace",
        }
    }

    fn args(self) -> &'static [&'static str] {
        match self {
            Stage::Plan => &["--plan", PLAN, "--repo", "."],
            Stage::Fetch | Stage::Route | Stage::Check => &["--repo", "."],
            Stage::Verify => &["--verify", "--repo", "."],
            Stage::Trace => &[],
        }
    }
}

/// The acceptance flow over a project, with the pipeline-wide flags and environment
/// every stage gets. Stages run with the project as working directory.
pub struct Pipeline<'p> {
    project: &'p Project,
    flags: Vec<String>,
    env: Vec<(String, String)>,
}

impl<'p> Pipeline<'p> {
    /// Adds pipeline-wide flags (`--allow-network`, `--timeout 1`, ...).
    pub fn flags(mut self, flags: &[&str]) -> Self {
        self.flags.extend(flags.iter().map(|f| f.to_string()));
        self
    }

    /// Sets an environment variable for every stage.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    /// No stage has run yet.
    pub fn start(&self) -> Progress<'_, 'p> {
        Progress {
            pipeline: self,
            bytes: Vec::new(),
            runs: Vec::new(),
            next: 0,
        }
    }

    /// Every stage, then qa-report --acceptance.
    pub fn run(&self) -> Outcome {
        self.start().report()
    }

    /// `sh pipelines/acceptance.sh PLAN FLAGS...` with the built binaries first on PATH.
    pub fn script(&self) -> Command {
        let mut path = OsString::from(bin_dir());
        if let Some(old) = std::env::var_os("PATH") {
            path.push(":");
            path.push(old);
        }
        let mut command = Command::new("sh");
        command
            .arg(acceptance_script())
            .arg(PLAN)
            .args(&self.flags)
            .current_dir(self.project.path())
            .env("PATH", path)
            .env("QA_REPO", ".")
            .env_remove("QA_OUT")
            .env_remove("QA_SAVE")
            .env_remove("QA_FORMAT");
        for (key, value) in &self.env {
            command.env(key, value);
        }
        command
    }

    /// Runs the script to its end.
    pub fn run_script(&self) -> Outcome {
        let before = self.project.run_dirs();
        let output = self
            .script()
            .stdin(Stdio::null())
            .output()
            .expect("starting sh");
        let run = Run {
            program: "acceptance.sh".into(),
            code: output
                .status
                .code()
                .unwrap_or_else(|| panic!("acceptance.sh was killed: {:?}", output.status)),
            stdout: output.stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        Outcome::read(self.project, &before, vec![run])
    }

    fn invocation(&self, program: &str) -> qa_testkit::Invocation {
        let mut invocation = Program::built(program)
            .invocation()
            .dir(self.project.path());
        for (key, value) in &self.env {
            invocation = invocation.env(key, value);
        }
        invocation
    }
}

/// The path of pipelines/acceptance.sh.
pub fn acceptance_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pipelines/acceptance.sh")
}

/// A pipeline run part of the way: the stream so far and every stage's run.
pub struct Progress<'a, 'p> {
    pipeline: &'a Pipeline<'p>,
    bytes: Vec<u8>,
    runs: Vec<Run>,
    next: usize,
}

impl Progress<'_, '_> {
    /// Runs the stages up to and including `last`, each of which must exit 0 and forward
    /// its input unchanged and in order.
    pub fn through(mut self, last: Stage) -> Self {
        while self.next < STAGES.len() && STAGES[self.next] <= last {
            let stage = STAGES[self.next];
            let run = self
                .pipeline
                .invocation(stage.program())
                .args(stage.args())
                .args(&self.pipeline.flags)
                .stdin(self.bytes.clone())
                .run();
            assert_eq!(
                run.code, 0,
                "{} ({stage:?}) exited {}; stderr:\n{}",
                run.program, run.code, run.stderr
            );
            assert_forwards(stage, &self.bytes, &run.stdout);
            self.bytes = run.stdout.clone();
            self.runs.push(run);
            self.next += 1;
        }
        self
    }

    /// The stream so far.
    pub fn records(&self) -> Vec<Value> {
        parse(&self.bytes)
    }

    /// The remaining stages, then `qa-report --acceptance`, as it exited.
    pub fn report_run(self) -> (Vec<Run>, Run) {
        let done = self.through(Stage::Trace);
        let report = done
            .pipeline
            .invocation("qa-report")
            .args(["--acceptance", "--repo", "."])
            .args(&done.pipeline.flags)
            .stdin(done.bytes.clone())
            .run();
        (done.runs, report)
    }

    /// The remaining stages, then `qa-report --acceptance`, and its run folder read back.
    pub fn report(self) -> Outcome {
        let project = self.pipeline.project;
        let before = project.run_dirs();
        let (mut runs, report) = self.report_run();
        runs.push(report);
        Outcome::read(project, &before, runs)
    }
}

/// Asserts `output` holds every line of `input`, unchanged and in order.
fn assert_forwards(stage: Stage, input: &[u8], output: &[u8]) {
    let mut expected = input.split(|b| *b == b'\n').filter(|l| !l.is_empty());
    let mut next = expected.next();
    for line in output.split(|b| *b == b'\n') {
        if Some(line) == next {
            next = expected.next();
        }
    }
    if let Some(missing) = next {
        panic!(
            "{stage:?} did not forward this input line unchanged and in order: {}",
            String::from_utf8_lossy(missing)
        );
    }
}

/// What a run left: its exit code, every stage's output, and the run folder.
pub struct Outcome {
    /// qa-report's exit code (the script's, when run through it).
    pub code: i32,
    /// Every stage's run, qa-report (or the script) last.
    pub runs: Vec<Run>,
    /// The run folder.
    pub dir: PathBuf,
    /// report.json.
    pub report: Value,
    /// records.ndjson, parsed.
    pub records: Vec<Value>,
}

/// The files of a run folder.
pub const RUN_FILES: [&str; 7] = [
    "SHA256SUMS",
    "events.ndjson",
    "junit.xml",
    "records.ndjson",
    "report.html",
    "report.json",
    "report.md",
];

impl Outcome {
    /// Reads the one run folder that is not among `before`; every record of
    /// records.ndjson is checked against its schema, with its id recomputed.
    pub fn read(project: &Project, before: &BTreeSet<PathBuf>, runs: Vec<Run>) -> Outcome {
        let last = runs.last().expect("at least one run");
        let code = last.code;
        let new: Vec<PathBuf> = project.run_dirs().difference(before).cloned().collect();
        assert_eq!(
            new.len(),
            1,
            "expected one new run folder, got {new:?}; {} exited {code}; stderr:\n{}",
            last.program,
            all_stderr(&runs)
        );
        let dir = new[0].clone();
        let text = fs::read_to_string(dir.join("report.json"))
            .unwrap_or_else(|e| panic!("reading report.json in {}: {e}", dir.display()));
        let report: Value = serde_json::from_str(&text).expect("report.json is JSON");
        let records = parse(&fs::read(dir.join("records.ndjson")).expect("records.ndjson"));
        Schemas::get().validate_all(&records);
        Outcome {
            code,
            runs,
            dir,
            report,
            records,
        }
    }

    /// The verdict's status in report.json.
    pub fn verdict(&self) -> &str {
        self.report["verdict"]["status"]
            .as_str()
            .expect("report.json has a verdict status")
    }

    /// Asserts the verdict and the exit code, showing the report's criteria otherwise.
    pub fn assert_verdict(&self, status: &str, code: i32) {
        assert_eq!(
            (self.verdict(), self.code),
            (status, code),
            "verdict and exit code\n{}",
            self.summary()
        );
    }

    /// The verdict record's data in records.ndjson.
    pub fn verdict_record(&self) -> &Value {
        qa_testkit::one(&self.records, "verdict")
    }

    /// The report.json entry of criterion `id`.
    pub fn criterion(&self, id: &str) -> &Value {
        self.report["criteria"]
            .as_array()
            .expect("report.json lists criteria")
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("criterion {id} is not in report.json\n{}", self.summary()))
    }

    /// Criterion `id`'s status in report.json.
    pub fn status_of(&self, id: &str) -> &str {
        self.criterion(id)["status"].as_str().unwrap_or("(none)")
    }

    /// Criterion `id`'s reasons in report.json, joined by newlines.
    pub fn reasons_of(&self, id: &str) -> String {
        strings(&self.criterion(id)["reasons"]).join("\n")
    }

    /// The run's reasons in report.json, joined by newlines.
    pub fn run_reasons(&self) -> String {
        strings(&self.report["verdict"]["reasons"]).join("\n")
    }

    /// Asserts criterion `id` has `status` and a reason containing `needle`.
    pub fn assert_criterion(&self, id: &str, status: &str, needle: &str) {
        assert_eq!(
            self.status_of(id),
            status,
            "criterion {id}\n{}",
            self.summary()
        );
        assert!(
            self.reasons_of(id).contains(needle),
            "criterion {id}'s reasons do not mention {needle:?}\n{}",
            self.summary()
        );
    }

    /// The data of the one record of `kind` (observation, route) about check `id`.
    fn about_check(&self, kind: &str, check: &str) -> &Value {
        let found: Vec<&Value> = qa_testkit::of_kind(&self.records, kind)
            .into_iter()
            .filter(|r| r["data"]["check"] == check)
            .collect();
        assert_eq!(
            found.len(),
            1,
            "expected one {kind} of {check}\n{}",
            self.summary()
        );
        &found[0]["data"]
    }

    /// The data of the observation of check `id`.
    pub fn observation(&self, check: &str) -> &Value {
        self.about_check("observation", check)
    }

    /// Asserts check `id` was observed with `status`.
    pub fn assert_observed(&self, check: &str, status: &str) {
        assert_eq!(
            self.observation(check)["status"],
            status,
            "observation of {check}: {:#}\n{}",
            self.observation(check),
            self.summary()
        );
    }

    /// The data of the route of check `id`.
    pub fn route_of(&self, check: &str) -> &Value {
        self.about_check("route", check)
    }

    /// The data of the one `target` record.
    pub fn target(&self) -> &Value {
        qa_testkit::one(&self.records, "target")
    }

    /// The data of the one `target.verify` of `subject` (target, plan, source) `value`.
    pub fn verify_of(&self, subject: &str, value: &str) -> &Value {
        let found: Vec<&Value> = qa_testkit::of_kind(&self.records, "target.verify")
            .into_iter()
            .map(|r| &r["data"])
            .filter(|d| d["subject"] == subject && d["value"] == value)
            .collect();
        assert_eq!(
            found.len(),
            1,
            "expected one target.verify of {subject} {value}\n{}",
            self.summary()
        );
        found[0]
    }

    /// The data of the `target.verify` records.
    pub fn verifies(&self) -> Vec<&Value> {
        qa_testkit::of_kind(&self.records, "target.verify")
            .into_iter()
            .map(|r| &r["data"])
            .collect()
    }

    /// Every stage's stderr.
    pub fn stderr(&self) -> String {
        all_stderr(&self.runs)
    }

    /// The run folder's files, by name.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.dir)
            .expect("reading the run folder")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    /// Asserts `sha256sum -c SHA256SUMS` accepts the run folder and that the sums cover
    /// every other file in it.
    pub fn assert_checksums_valid(&self) {
        let out = Command::new("sha256sum")
            .args(["-c", "--strict", "SHA256SUMS"])
            .current_dir(&self.dir)
            .output()
            .expect("running sha256sum");
        assert!(
            out.status.success(),
            "sha256sum -c failed in {}:\n{}{}",
            self.dir.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let sums = fs::read_to_string(self.dir.join("SHA256SUMS")).expect("SHA256SUMS");
        let mut covered: Vec<String> = sums
            .lines()
            .filter_map(|l| l.split_once("  ").map(|(_, name)| name.to_string()))
            .collect();
        covered.push("SHA256SUMS".into());
        covered.sort();
        assert_eq!(
            covered,
            self.files(),
            "SHA256SUMS does not cover the run folder"
        );
    }

    /// Asserts the run folder and its parents up to `.qa` are 0700 and its files 0600.
    pub fn assert_private(&self, project: &Project) {
        let mut folder = self.dir.clone();
        while folder.starts_with(project.path().join(".qa")) {
            assert_eq!(mode(&folder), 0o700, "{}", folder.display());
            folder.pop();
        }
        for name in self.files() {
            assert_eq!(mode(&self.dir.join(&name)), 0o600, "{name}");
        }
    }

    /// Asserts `qa-report --verify` accepts records.ndjson: envelopes, ids, `from` chain.
    pub fn assert_records_verify(&self) {
        let bytes = fs::read(self.dir.join("records.ndjson")).expect("records.ndjson");
        let run = Program::built("qa-report")
            .invocation()
            .arg("--verify")
            .stdin(bytes)
            .run();
        assert_eq!(
            run.code, 0,
            "qa-report --verify rejected records.ndjson:\n{}",
            run.stderr
        );
    }

    /// records.ndjson without its `event` lines: what must not depend on the clock.
    pub fn timeless_records(&self) -> Vec<String> {
        fs::read_to_string(self.dir.join("records.ndjson"))
            .expect("records.ndjson")
            .lines()
            .filter(|l| {
                let record: Value = serde_json::from_str(l).expect("a JSON line");
                record["kind"] != "event"
            })
            .map(str::to_string)
            .collect()
    }

    /// The verdict, each criterion with its status and reasons, and every stage's stderr:
    /// what an assertion message needs.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "exit {}; verdict {} ({})\n",
            self.code,
            self.report["verdict"]["status"],
            self.run_reasons()
        );
        for c in self.report["criteria"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  {} {}: {}\n",
                c["id"],
                c["status"],
                strings(&c["reasons"]).join("; ")
            ));
        }
        for o in qa_testkit::of_kind(&self.records, "observation") {
            let d = &o["data"];
            out.push_str(&format!(
                "  observation {} {}: {} ({})\n",
                d["check"], d["status"], d["observed"], d["reason"]
            ));
        }
        out.push_str(&format!("stderr:\n{}", self.stderr()));
        out
    }
}

fn all_stderr(runs: &[Run]) -> String {
    runs.iter()
        .filter(|r| !r.stderr.is_empty())
        .map(|r| format!("[{}] {}", r.program, r.stderr))
        .collect()
}

/// The `path` of each item of a JSON array (manifest entries, excluded paths).
pub fn paths_of(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|a| a.iter().filter_map(|e| e["path"].as_str()).collect())
        .unwrap_or_default()
}

/// The strings of a JSON array.
pub fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A file's permission bits.
pub fn mode(path: &Path) -> u32 {
    fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Waits up to 10 s for `what`.
pub fn wait_for(what: &str, done: impl FnMut() -> bool) {
    wait_until(what, Duration::from_secs(10), done);
}
