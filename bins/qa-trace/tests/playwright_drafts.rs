//! `qa-trace --draft playwright`: one spec per routed web scenario with an honest compile
//! receipt; locators only from changed lines, assertions only from located outcomes, a
//! reload only for a located write and read of one key, mocks only from exact OpenAPI
//! examples; and, end to end, a generated spec that passes against the changed page in
//! headless Chromium and fails once the page regresses.

use std::path::{Path, PathBuf};

use qa_records::envelope::{Record, Src};
use qa_records::steps::{action, stored_change, trigger};
use qa_records::Kind;
use qa_testkit::http::{Reply, Server};
use qa_testkit::{of_kind, peers, Program, Repo};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_qa-trace");

/// A change-flow stream built by hand: changed lines, one intent, one scenario, its route.
struct Stream {
    records: Vec<Record>,
}

impl Stream {
    fn new() -> Stream {
        Stream { records: vec![] }
    }

    fn push(&mut self, kind: Kind, data: Value) -> String {
        let from = self
            .records
            .last()
            .map(|r| vec![r.id.clone()])
            .unwrap_or_default();
        let record = Record::new(kind, "test/0", from, Src::new(), data).unwrap();
        let id = record.id.clone();
        self.records.push(record);
        id
    }

    /// A `file` record whose added lines are `lines` (line numbers from 1).
    fn file(&mut self, path: &str, lines: &[&str]) {
        let hunk_lines: Vec<Value> = lines
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"line": i + 1, "op": "+", "text": t}))
            .collect();
        self.push(
            Kind::File,
            json!({"added": lines.len(), "binary": false, "delta": "branch", "hunk_count": 1,
                "hunks": [{"lines": hunk_lines, "new_lines": lines.len(), "new_start": 1, "old_lines": 0, "old_start": 0}],
                "new_oid": null, "old_oid": null, "old_path": null, "path": path, "removed": 0,
                "role": "product", "sha256": null, "status": "added", "truncated": false}),
        );
    }

    /// An intent over `files`, its scenario and a route with `decision`.
    fn scenario(
        &mut self,
        files: &[&str],
        steps: &[&str],
        assertions: &[&str],
        evidence: Value,
        decision: &str,
    ) {
        let intent = self.push(
            Kind::Intent,
            json!({"title": "Settings", "type": "feat", "focus": "product", "source": "commits",
                "commits": [], "cleanup_commits": [], "tickets": [], "files": files,
                "confidence": "high", "review_required": false, "cleanup": false, "current": false, "lifecycle": [],
                "authority": "inference", "flow": null, "contracts": [], "annotations": [], "reason": "test"}),
        );
        let scenario = self.push(
            Kind::Scenario,
            json!({"intent": intent, "title": "Settings are saved", "kind": "primary",
                "priority": "recommended", "steps": steps, "assertions": assertions,
                "evidence": evidence, "proof_gap": null, "authority": "inference",
                "test_class": "regression", "focus": "product"}),
        );
        self.push(
            Kind::Route,
            json!({"subject": scenario, "decision": decision, "reason": "test",
                "evidence": {"direct": 1, "supporting": 1, "contextual": 0},
                "action": {"kind": "complete-draft", "risk": "low", "approval": "required",
                    "executes_code": false, "writes": [], "network": false, "preconditions": ["a person completes the draft"]},
                "command": null, "additional_commands": []}),
        );
    }

    fn bytes(&self) -> Vec<u8> {
        self.records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect::<String>()
            .into_bytes()
    }
}

fn ev(file: &str, line: u32, relation: &str, stage: &str, text: &str) -> Value {
    json!({"file": file, "line": line, "relation": relation, "stage": stage, "text": text})
}

/// Runs qa-trace --draft playwright into `dir`; the draft record and the spec text.
fn draft(stream: &Stream, dir: &Path, extra: &[&str]) -> (Value, Option<String>) {
    let run = Program::at(BIN)
        .invocation()
        .args(["--draft", "playwright", "--draft-dir"])
        .arg(dir)
        .args(extra)
        .stdin(stream.bytes())
        .run()
        .success();
    // records() checks every record against its schema.
    let records = run.records();
    let draft = of_kind(&records, "draft")[0]["data"].clone();
    let spec = draft["file"]
        .as_str()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap());
    (draft, spec)
}

const PAGE: &str = "public/index.html";
const APP: &str = "public/app.js";

/// A save button located by data-testid whose click shows "Settings saved".
fn saved_notice(outcome_line: &str) -> Stream {
    notice_on(Some(PAGE), outcome_line)
}

/// The saved-notice change, with the page it is served on changed too (or not).
fn notice_on(page: Option<&str>, outcome_line: &str) -> Stream {
    let mut s = Stream::new();
    if let Some(page) = page {
        s.file(
            page,
            &[r#"<button data-testid="save-settings">Save</button>"#],
        );
    }
    s.file(
        APP,
        &[
            r#"const saveButton = document.querySelector('[data-testid="save-settings"]');"#,
            "function saveSettings() {",
            outcome_line,
            r#"saveButton.addEventListener("click", saveSettings);"#,
        ],
    );
    let files: Vec<&str> = [APP].into_iter().chain(page).collect();
    s.scenario(
        &files,
        &[&trigger("click event"), &action("saveSettings (changed)")],
        &["Shows \"Settings saved\""],
        json!([
            ev(
                APP,
                3,
                "direct",
                "observable-outcome",
                "shows \"Settings saved\""
            ),
            ev(APP, 4, "supporting", "trigger", "click event"),
            ev(APP, 2, "supporting", "action", "saveSettings (changed)"),
        ]),
        "recommended",
    );
    s
}

#[test]
fn a_test_id_trigger_and_a_visible_success_text_compile_to_a_static_runnable_spec() {
    let dir = tempfile::tempdir().unwrap();
    let (d, spec) = draft(
        &saved_notice(r#"  notify("Settings saved");"#),
        dir.path(),
        &[],
    );
    assert_eq!(
        (
            d["receipt"].as_str(),
            d["mapped"].as_u64(),
            d["total"].as_u64()
        ),
        (Some("compiled"), Some(3), Some(3))
    );
    assert_eq!(d["label"], "static-runnable, not executed");
    let spec = spec.unwrap();
    assert!(
        spec.contains(r#"await page.goto("/index.html");"#),
        "{spec}"
    );
    assert!(
        spec.contains(r#"await page.getByTestId("save-settings").click();"#),
        "{spec}"
    );
    assert!(
        spec.contains(
            r#"await expect(page.getByText("Settings saved", { exact: true })).toBeVisible();"#
        ),
        "{spec}"
    );
    assert!(!spec.contains("test.fixme"), "{spec}");
}

#[test]
fn an_outcome_without_located_visible_text_is_partial_and_never_runnable() {
    let dir = tempfile::tempdir().unwrap();
    // The notice text comes from a variable: nothing literal to look for on the page.
    let (d, spec) = draft(&saved_notice("  notify(message);"), dir.path(), &[]);
    assert_eq!(d["receipt"], "partial");
    assert_eq!(d["label"], "not runnable");
    assert_eq!(d["assertions"][0]["maps_to"], Value::Null);
    let spec = spec.unwrap();
    assert!(spec.contains("test.fixme(true,"), "{spec}");
    assert!(!spec.contains("await expect("), "{spec}");
}

#[test]
fn without_a_changed_page_or_route_there_is_no_entrypoint_and_no_runnable_label() {
    let dir = tempfile::tempdir().unwrap();
    let (d, spec) = draft(
        &notice_on(None, r#"  notify("Settings saved");"#),
        dir.path(),
        &[],
    );
    assert_eq!(d["receipt"], "partial", "{d}");
    assert_eq!(d["label"], "not runnable");
    assert!(d["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g.as_str().unwrap().contains("no entrypoint")));
    assert!(!spec.unwrap().contains("page.goto("));
}

/// A theme field saved under "theme" by a save handler; `read` adds the located read.
fn persisted(read: bool) -> Stream {
    let mut s = Stream::new();
    s.file(PAGE, &[r#"<input data-testid="theme">"#]);
    let mut lines = vec![
        r#"const themeInput = document.querySelector('[data-testid="theme"]');"#,
        r#"const saveButton = document.querySelector('[data-testid="save"]');"#,
        "function saveTheme() {",
        r#"  localStorage.setItem("theme", themeInput.value);"#,
        r#"  notify("Theme saved");"#,
        r#"saveButton.addEventListener("click", saveTheme);"#,
    ];
    if read {
        lines.push(r#"themeInput.value = localStorage.getItem("theme") ?? "";"#);
    }
    s.file(APP, &lines);
    let mut evidence = vec![ev(
        APP,
        4,
        "direct",
        "state-change",
        "localStorage.setItem(\"theme\", themeInput.value);",
    )];
    if read {
        evidence.push(ev(
            APP,
            7,
            "direct",
            "state-change",
            "themeInput.value = localStorage.getItem(\"theme\") ?? \"\";",
        ));
    }
    s.scenario(
        &[APP, PAGE],
        &[&stored_change("localStorage.setItem(\"theme\", themeInput.value);", "public/app.js", 4), "Reload the page"],
        &["The value stored under \"theme\" is read back: themeInput.value = localStorage.getItem(\"theme\") ?? \"\";"],
        json!(evidence),
        "recommended",
    );
    s
}

#[test]
fn a_located_write_and_read_of_one_key_compile_fill_save_inspect_reload_and_restore() {
    let dir = tempfile::tempdir().unwrap();
    let (d, spec) = draft(&persisted(true), dir.path(), &[]);
    assert_eq!(d["receipt"], "compiled", "{d}");
    let spec = spec.unwrap();
    let order = [
        r#"await page.getByTestId("theme").fill("#,
        r#"await page.getByTestId("save").click();"#,
        r#"window.localStorage.getItem(k), "theme")"#,
        "await page.reload();",
        r#"await expect(page.getByTestId("theme")).toHaveValue("#,
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|o| spec.find(o).unwrap_or_else(|| panic!("{o} in {spec}")))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{spec}");
}

#[test]
fn persistence_without_a_located_read_of_the_key_gets_no_reload_step() {
    let dir = tempfile::tempdir().unwrap();
    let (d, spec) = draft(&persisted(false), dir.path(), &[]);
    assert_eq!(d["receipt"], "not-compiled", "{d}");
    assert_eq!(d["steps"][1]["maps_to"], Value::Null);
    assert!(d["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g.as_str().unwrap().contains("no located read of \"theme\"")));
    assert!(!spec.unwrap().contains("page.reload()"));
}

/// The saved-notice flow, whose save also fetches `/api/settings`.
fn with_request() -> Stream {
    let mut s = Stream::new();
    s.file(
        PAGE,
        &[r#"<button data-testid="save-settings">Save</button>"#],
    );
    s.file(
        APP,
        &[
            r#"const saveButton = document.querySelector('[data-testid="save-settings"]');"#,
            "async function saveSettings() {",
            r#"  await fetch("/api/settings");"#,
            r#"  notify("Settings saved");"#,
            r#"saveButton.addEventListener("click", saveSettings);"#,
        ],
    );
    s.scenario(
        &[APP, PAGE],
        &[&trigger("click event")],
        &["Shows \"Settings saved\""],
        json!([
            ev(
                APP,
                4,
                "direct",
                "observable-outcome",
                "shows \"Settings saved\""
            ),
            ev(APP, 5, "supporting", "trigger", "click event"),
            ev(
                APP,
                3,
                "supporting",
                "side-effect",
                "await fetch(\"/api/settings\");"
            ),
        ]),
        "recommended",
    );
    s
}

/// The request flow drafted with an OpenAPI document whose GET /api/settings 200 is `response`.
fn with_openapi(response: Value) -> (Value, Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openapi.json");
    let doc = json!({"openapi": "3.1.0", "paths": {"/api/settings": {"get": {"responses": {"200": response}}}}});
    std::fs::write(&path, doc.to_string()).unwrap();
    draft(
        &with_request(),
        &dir.path().join("drafts"),
        &["--openapi", path.to_str().unwrap()],
    )
}

#[test]
fn a_mock_is_set_up_only_from_the_exact_openapi_example() {
    let (d, spec) =
        with_openapi(json!({"content": {"application/json": {"example": {"theme": "dark"}}}}));
    assert_eq!(d["mocks"].as_array().unwrap().len(), 1, "{d}");
    assert!(d["mocks"][0]["maps_to"]
        .as_str()
        .unwrap()
        .ends_with("#/paths/~1api~1settings/get/responses/200/content/application~1json/example"));
    let spec = spec.unwrap();
    assert!(
        spec.contains(r#"body: JSON.stringify({"theme":"dark"})"#),
        "{spec}"
    );
}

#[test]
fn an_operation_without_an_example_gets_no_invented_mock() {
    let (d, spec) =
        with_openapi(json!({"content": {"application/json": {"schema": {"type": "object"}}}}));
    assert!(d.get("mocks").is_none(), "{d}");
    assert!(d["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g.as_str().unwrap().contains("no exact JSON example")));
    assert!(!spec.unwrap().contains("page.route("));
}

#[test]
fn a_review_only_route_gets_a_review_only_receipt_and_no_spec() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Stream::new();
    s.file(
        PAGE,
        &[r#"<button data-testid="save-settings">Save</button>"#],
    );
    s.scenario(
        &[PAGE],
        &[&trigger("click event")],
        &["Shows \"Settings saved\""],
        json!([]),
        "review-only",
    );
    let (d, spec) = draft(&s, dir.path(), &[]);
    assert_eq!(d["receipt"], "review-only");
    assert_eq!(d["label"], "not runnable");
    assert!(spec.is_none() && d.get("file").is_none());
}

#[test]
fn by_default_drafts_go_to_a_new_private_temp_dir_named_on_stderr() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let run = Program::at(BIN)
        .invocation()
        .args(["--draft", "playwright"])
        .env("TMPDIR", tmp.path())
        .dir(tmp.path())
        .stdin(saved_notice(r#"  notify("Settings saved");"#).bytes())
        .run()
        .success();
    let dir = run
        .stderr
        .trim()
        .strip_prefix("qa-trace: playwright drafts in ")
        .map(PathBuf::from)
        .expect(&run.stderr);
    assert_eq!(dir.parent(), Some(tmp.path()));
    assert_eq!(
        std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    let records = run.records();
    let draft = &of_kind(&records, "draft")[0]["data"];
    assert!(dir.join(draft["file"].as_str().unwrap()).is_file());
}

/// The page of the end-to-end test, served from its files in `root`.
fn serve(root: &Path) -> Server {
    let read = |p: &str| std::fs::read(root.join(p)).unwrap();
    Server::start([
        (
            "/index.html",
            Reply::ok(read("public/index.html")).header("content-type", "text/html"),
        ),
        (
            "/app.js",
            Reply::ok(read("public/app.js")).header("content-type", "text/javascript"),
        ),
    ])
}

/// Runs the drafts in `dir` against `origin` with @playwright/test in headless Chromium.
fn run_drafts(dir: &Path, origin: &str) -> std::process::Output {
    let modules = peers::peers_dir().join("node_modules");
    let cli = modules.join("@playwright/test/cli.js");
    assert!(
        cli.is_file(),
        "@playwright/test is not installed: run `make peers`"
    );
    // The spec imports @playwright/test: resolve it from the peers' node_modules.
    let link = dir.join("node_modules");
    if !link.exists() {
        std::os::unix::fs::symlink(&modules, &link).unwrap();
    }
    std::process::Command::new("node")
        .arg(cli)
        .args(["test", "--config", "playwright.qa-trace.config.mjs"])
        .current_dir(dir)
        .env("QA_BASE_URL", origin)
        .env("QA_BROWSER", peers::chromium())
        .env("CI", "1")
        .output()
        .unwrap()
}

#[test]
fn the_generated_spec_passes_on_the_changed_page_and_fails_once_it_regresses() {
    let mut repo = Repo::new();
    repo.write("public/index.html", "<!doctype html>\n<html><body>\n<label>Theme <input id=\"theme\"></label>\n<script src=\"app.js\"></script>\n</body></html>\n");
    repo.write(
        "public/app.js",
        "function notify(text) {\n  document.getElementById(\"status\").textContent = text;\n}\n",
    );
    repo.commit("chore: initial page");
    repo.branch("feature");
    repo.write("public/index.html", "<!doctype html>\n<html><body>\n<label>Theme <input id=\"theme\"></label>\n<button data-testid=\"save-settings\">Save</button>\n<p role=\"status\" id=\"status\"></p>\n<script src=\"app.js\"></script>\n</body></html>\n");
    let app = "function notify(text) {\n  document.getElementById(\"status\").textContent = text;\n}\nconst saveButton = document.querySelector('[data-testid=\"save-settings\"]');\nfunction saveSettings() {\n  notify(\"Settings saved\");\n}\nsaveButton.addEventListener(\"click\", saveSettings);\n";
    repo.write("public/app.js", app);
    repo.commit("feat(settings): the save button confirms saved settings");

    let mut stream = repo
        .run(&Program::built("qa-diff"))
        .args(["--base", "main"])
        .run()
        .success()
        .stdout;
    for stage in ["qa-intent", "qa-route"] {
        stream = repo
            .run(&Program::built(stage))
            .stdin(stream)
            .run()
            .success()
            .stdout;
    }
    let drafts = tempfile::tempdir().unwrap();
    let traced = repo
        .run(&Program::at(BIN))
        .args(["--draft", "playwright", "--draft-dir"])
        .arg(drafts.path())
        .stdin(stream)
        .run()
        .success();
    let records = traced.records();
    let compiled: Vec<&Value> = of_kind(&records, "draft")
        .into_iter()
        .filter(|d| d["data"]["receipt"] == "compiled")
        .collect();
    assert_eq!(compiled.len(), 1, "{}", traced.text());
    assert_eq!(
        compiled[0]["data"]["label"],
        "static-runnable, not executed"
    );

    let server = serve(repo.path());
    let passed = run_drafts(drafts.path(), &server.origin());
    assert!(
        passed.status.success(),
        "{}",
        String::from_utf8_lossy(&passed.stdout)
    );

    // The seeded regression: the success text is gone.
    repo.write(
        "public/app.js",
        app.replace("notify(\"Settings saved\");", "notify(\"\");"),
    );
    let regressed = serve(repo.path());
    let failed = run_drafts(drafts.path(), &regressed.origin());
    assert!(
        !failed.status.success(),
        "{}",
        String::from_utf8_lossy(&failed.stdout)
    );
    assert!(String::from_utf8_lossy(&failed.stdout).contains("1 failed"));
}
