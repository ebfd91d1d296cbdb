//! `qa-intent --plan`: the acceptance flow's source stage. What a valid plan becomes
//! (records, order, sources, hashes), every plan error with its JSON pointer and exit 65,
//! source files inside the repository only, --in forwarding, and determinism.

use qa_records::hash::sha256_hex;
use qa_testkit::{of_kind, Program, Run};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const PLAN: &str = ".qa-acceptance.json";
const TICKET: &str = "# SHOP-12\n\nRefunds above 100 EUR require a manager's approval.\n";
const SPEC: &str = "## Footer\n\nThe footer shows the company name.\n";

/// A project directory in a temp dir: the repository root and the working directory.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    /// A project holding the ticket and spec files the valid plan quotes.
    fn new() -> Project {
        let project = Project {
            dir: tempfile::tempdir().unwrap(),
        };
        project.write("site/index.html", "<h1>Welcome</h1>");
        project.write("tickets/SHOP-12.md", TICKET);
        project.write("docs/spec.md", SPEC);
        project
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, path: &str, content: &str) -> PathBuf {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, content).unwrap();
        full
    }

    fn plan(&self, plan: &Value) -> &Project {
        self.write(PLAN, &serde_json::to_string_pretty(plan).unwrap());
        self
    }

    /// qa-intent --plan PLAN with `args`, run from the project directory.
    fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, b"")
    }

    fn run_with_stdin(&self, args: &[&str], stdin: &[u8]) -> Run {
        Program::at(env!("CARGO_BIN_EXE_qa-intent"))
            .invocation()
            .dir(self.path())
            .args(["--plan", PLAN])
            .args(args)
            .stdin(stdin.to_vec())
            .run()
    }

    /// The records of a successful run, schema-validated, ids recomputed.
    fn records(&self) -> Vec<Value> {
        self.run(&[]).records()
    }
}

/// A plan with every source kind, a file check and an http check on a directory target.
fn valid_plan() -> Value {
    json!({
        "target": {"kind": "directory", "value": "site", "buildId": "2026.11.29-1"},
        "criteria": [
            {"id": "greets", "expected": "The home page greets the visitor", "source": {"kind": "request", "text": "Show a greeting on the home page"}},
            {"id": "refunds", "expected": "Refunds over 100 EUR need approval", "source": {"kind": "ticket", "path": "tickets/SHOP-12.md", "quote": "Refunds above 100 EUR require a manager's approval"}},
            {"id": "spec-footer", "expected": "The footer names the company", "source": {"kind": "spec", "path": "docs/spec.md", "quote": "The footer shows the company name"}},
            {"id": "guess", "expected": "The page has a title", "source": {"kind": "inferred", "text": "pages usually have titles"}}
        ],
        "checks": [
            {"id": "home-greets", "criterion": "greets", "kind": "file", "path": "index.html", "contains": "Welcome"},
            {"id": "health", "criterion": "greets", "kind": "http", "path": "/health", "status": 200, "contains": "ok"},
            {"id": "footer", "criterion": "spec-footer", "kind": "file", "path": "index.html", "contains": "<footer>"}
        ]
    })
}

/// The valid plan changed by `edit`.
fn plan_with(edit: impl FnOnce(&mut Value)) -> Value {
    let mut plan = valid_plan();
    edit(&mut plan);
    plan
}

/// The `data` of the criterion `id`.
fn criterion<'a>(records: &'a [Value], id: &str) -> &'a Value {
    of_kind(records, "criterion")
        .into_iter()
        .find(|r| r["data"]["id"] == id)
        .unwrap_or_else(|| panic!("no criterion {id}"))
}

fn plan_schema() -> jsonschema::Validator {
    let path = qa_testkit::schema_dir().join("plan.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

// ---- a valid plan ----------------------------------------------------------------------

#[test]
fn a_valid_plan_writes_plan_target_criteria_then_checks_in_plan_order() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "plan",
            "target.spec",
            "criterion",
            "criterion",
            "criterion",
            "criterion",
            "check.spec",
            "check.spec",
            "check.spec"
        ]
    );
    let ids: Vec<&Value> = of_kind(&records, "criterion")
        .iter()
        .map(|r| &r["data"]["id"])
        .collect();
    assert_eq!(ids, ["greets", "refunds", "spec-footer", "guess"]);
}

#[test]
fn the_plan_record_hashes_the_plan_bytes_and_counts_what_it_holds() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let bytes = std::fs::read(project.path().join(PLAN)).unwrap();
    let plan = &records[0];
    assert_eq!(plan["src"], json!({"plan.sha256": sha256_hex(&bytes)}));
    assert_eq!(
        plan["data"],
        json!({
            "path": PLAN,
            "sha256": sha256_hex(&bytes),
            "target": {"kind": "directory", "value": "site", "build_id": "2026.11.29-1"},
            "criteria": 4,
            "checks": 3
        })
    );
    assert_eq!(plan["from"], json!([]));
}

#[test]
fn target_and_criteria_derive_from_the_plan_and_checks_also_from_their_criterion() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let plan_id = &records[0]["id"];
    assert_eq!(records[1]["from"], json!([plan_id]));
    assert_eq!(
        records[1]["data"],
        json!({"kind": "directory", "value": "site", "build_id": "2026.11.29-1"})
    );
    for c in of_kind(&records, "criterion") {
        assert_eq!(c["from"], json!([plan_id]));
    }
    let footer = of_kind(&records, "check.spec")[2];
    assert_eq!(
        footer["from"],
        json!([plan_id, criterion(&records, "spec-footer")["id"]])
    );
}

#[test]
fn a_check_spec_keeps_the_check_object_verbatim_with_unknown_kinds_and_keys() {
    let mcp = json!({"id": "volume", "criterion": "greets", "kind": "mcp", "tool": "set_volume",
        "input": {"level": 20}, "observePath": "/test/player-state", "$comment": "later"});
    let project = Project::new();
    project.plan(&plan_with(|p| {
        p["checks"].as_array_mut().unwrap().push(mcp.clone());
    }));
    let records = project.records();
    let spec = &of_kind(&records, "check.spec")[3]["data"];
    assert_eq!(
        spec,
        &json!({"id": "volume", "criterion": "greets", "kind": "mcp", "spec": mcp})
    );
}

#[test]
fn request_and_inferred_sources_keep_their_text_and_only_inferred_is_labelled() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let greets = criterion(&records, "greets");
    assert_eq!(
        greets["data"]["source"],
        json!({"kind": "request", "text": "Show a greeting on the home page", "path": null,
            "quote": null, "sha256": null, "found": true})
    );
    assert_eq!(greets["data"]["inferred"], false);
    assert_eq!(greets["src"], json!({}));
    let guess = criterion(&records, "guess");
    assert_eq!(guess["data"]["source"]["kind"], "inferred");
    assert_eq!(guess["data"]["source"]["text"], "pages usually have titles");
    assert_eq!(guess["data"]["inferred"], true);
}

#[test]
fn a_ticket_source_is_hashed_and_its_quote_found_verbatim() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let refunds = criterion(&records, "refunds");
    let sha = sha256_hex(TICKET.as_bytes());
    assert_eq!(
        refunds["data"]["source"],
        json!({"kind": "ticket", "path": "tickets/SHOP-12.md",
            "quote": "Refunds above 100 EUR require a manager's approval",
            "text": null, "sha256": sha, "found": true})
    );
    assert_eq!(refunds["src"], json!({"source.sha256": sha}));
    assert_eq!(refunds["data"]["inferred"], false);
}

#[test]
fn a_spec_source_is_hashed_and_its_quote_found_verbatim() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let footer = &criterion(&records, "spec-footer")["data"]["source"];
    assert_eq!(footer["kind"], "spec");
    assert_eq!(footer["sha256"], sha256_hex(SPEC.as_bytes()));
    assert_eq!(footer["found"], true);
}

#[test]
fn a_quote_missing_from_its_file_is_recorded_not_found_with_a_warning() {
    let project = Project::new();
    project.write(
        "tickets/SHOP-12.md",
        "# SHOP-12\n\nNothing about refunds.\n",
    );
    project.plan(&valid_plan());
    let run = project.run(&[]);
    let records = run.records();
    let source = &criterion(&records, "refunds")["data"]["source"];
    assert_eq!(source["found"], false);
    assert_eq!(
        source["sha256"],
        sha256_hex(b"# SHOP-12\n\nNothing about refunds.\n")
    );
    assert_eq!(
        run.stderr,
        "qa-intent: warning: .qa-acceptance.json: /criteria/1/source/quote: not found verbatim \
         in `tickets/SHOP-12.md`; the criterion stays unverified\n"
    );
}

#[test]
fn an_edited_quote_is_not_found_whether_wording_case_or_line_breaks_changed() {
    for edited in [
        "Refunds above 100 EUR require a manager approval.",
        "refunds above 100 EUR require a manager's approval.",
        "Refunds above 100 EUR require\na manager's approval.",
        "Refunds  above 100 EUR require a manager's approval.",
    ] {
        let project = Project::new();
        project.write("tickets/SHOP-12.md", edited);
        project.plan(&valid_plan());
        let records = project.records();
        let source = &criterion(&records, "refunds")["data"]["source"];
        assert_eq!(source["found"], false, "{edited:?}");
    }
}

#[test]
fn a_quote_in_a_file_that_is_not_utf8_is_still_found_by_its_bytes() {
    let project = Project::new();
    let mut bytes = b"\xff\xfe legacy export: ".to_vec();
    bytes.extend_from_slice(b"Refunds above 100 EUR require a manager's approval.");
    std::fs::write(project.path().join("tickets/SHOP-12.md"), &bytes).unwrap();
    project.plan(&valid_plan());
    let records = project.records();
    let source = &criterion(&records, "refunds")["data"]["source"];
    assert_eq!(source["found"], true);
    assert_eq!(source["sha256"], sha256_hex(&bytes));
}

#[test]
fn a_missing_source_file_is_recorded_not_found_without_a_hash() {
    let project = Project::new();
    std::fs::remove_file(project.path().join("docs/spec.md")).unwrap();
    project.plan(&valid_plan());
    let run = project.run(&[]);
    let records = run.records();
    let footer = criterion(&records, "spec-footer");
    assert_eq!(footer["data"]["source"]["found"], false);
    assert_eq!(footer["data"]["source"]["sha256"], Value::Null);
    assert_eq!(footer["src"], json!({}));
    assert!(
        run.stderr
            .contains("/criteria/2/source/path: `docs/spec.md` does not exist"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_source_that_is_a_directory_is_recorded_not_found() {
    let project = Project::new();
    std::fs::remove_file(project.path().join("docs/spec.md")).unwrap();
    std::fs::create_dir(project.path().join("docs/spec.md")).unwrap();
    project.plan(&valid_plan());
    let records = project.records();
    let source = &criterion(&records, "spec-footer")["data"]["source"];
    assert_eq!(source["found"], false);
    assert_eq!(source["sha256"], Value::Null);
}

#[cfg(unix)]
#[test]
fn a_source_reached_through_a_symlink_inside_the_repository_is_read() {
    let project = Project::new();
    std::os::unix::fs::symlink("SHOP-12.md", project.path().join("tickets/current.md")).unwrap();
    project.plan(&plan_with(|p| {
        p["criteria"][1]["source"]["path"] = json!("tickets/current.md");
    }));
    let records = project.records();
    let source = &criterion(&records, "refunds")["data"]["source"];
    assert_eq!(source["found"], true);
    assert_eq!(source["sha256"], sha256_hex(TICKET.as_bytes()));
}

#[cfg(unix)]
#[test]
fn a_source_reached_through_a_symlink_leaving_the_repository_is_exit_65() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), TICKET).unwrap();
    let project = Project::new();
    std::os::unix::fs::symlink(outside.path(), project.path().join("tickets/shared")).unwrap();
    project.plan(&plan_with(|p| {
        p["criteria"][1]["source"]["path"] = json!("tickets/shared/secret.md");
    }));
    let run = project.run(&[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "qa-intent: error: .qa-acceptance.json: /criteria/1/source/path: \
         `tickets/shared/secret.md` resolves outside the repository (through a symlink)\n"
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_source_file_over_4_mib_is_exit_65_naming_the_limit() {
    let project = Project::new();
    let big = "x".repeat((4 << 20) + 1);
    project.write("docs/spec.md", &big);
    project.plan(&valid_plan());
    let run = project.run(&[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("/criteria/2/source/path: `docs/spec.md` is larger than the 4 MiB"),
        "{}",
        run.stderr
    );
    let project = Project::new();
    project.write(
        "docs/spec.md",
        &format!("{}{SPEC}", "x".repeat((4 << 20) - SPEC.len())),
    );
    project.plan(&valid_plan());
    assert_eq!(project.run(&[]).code, 0, "exactly 4 MiB is allowed");
}

/// Makes a real FIFO at `path` (nothing ever opens it for writing).
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// qa-intent with `args` in `dir`, stdin closed; panics (after killing it) when it is
/// still running after 10 s: the stage blocked where it must refuse.
fn run_bounded(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qa-intent"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("qa-intent {args:?} still ran after 10 s: it blocked");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let code = output.status.code().expect("exited, not killed");
    (code, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_plan_that_is_a_fifo_or_a_device_is_refused_at_once_as_exit_65() {
    let project = Project::new();
    mkfifo(&project.path().join("plan.fifo"));
    for (plan, what) in [("plan.fifo", "a FIFO"), ("/dev/zero", "a device")] {
        let (code, stderr) = run_bounded(project.path(), &["--plan", plan]);
        assert_eq!(code, 65, "{stderr}");
        assert_eq!(
            stderr,
            format!("qa-intent: error: {plan} is {what}, not a plan file\n")
        );
    }
}

#[test]
fn a_ticket_source_that_is_a_fifo_is_recorded_not_found_without_blocking() {
    let project = Project::new();
    std::fs::remove_file(project.path().join("tickets/SHOP-12.md")).unwrap();
    mkfifo(&project.path().join("tickets/SHOP-12.md"));
    project.plan(&valid_plan());
    let (code, stderr) = run_bounded(project.path(), &["--plan", PLAN]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "/criteria/1/source/path: `tickets/SHOP-12.md` is a FIFO, not a regular file; the criterion stays unverified"
        ),
        "{stderr}"
    );
    let records = project.records();
    let source = &criterion(&records, "refunds")["data"]["source"];
    assert_eq!(source["found"], false);
    assert_eq!(source["sha256"], Value::Null);
}

#[test]
fn a_key_repeated_in_a_plan_object_is_exit_65_naming_its_pointer() {
    let project = Project::new();
    let plan = valid_plan().to_string();
    // The second criterion gets a second `id`: serde_json alone would keep the last.
    let repeated = plan.replacen(r#""id":"refunds","#, r#""id":"refunds","id":"other","#, 1);
    assert_ne!(repeated, plan);
    project.write(PLAN, &repeated);
    let run = project.run(&[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "qa-intent: error: {PLAN}: /criteria/1/id: duplicate key: `id` appears twice in this object\n"
        )
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_key_repeated_at_the_top_of_a_plan_is_exit_65_even_with_equal_values() {
    let project = Project::new();
    let plan = valid_plan().to_string();
    let target = serde_json::to_string(&valid_plan()["target"]).unwrap();
    let repeated = format!("{{\"target\":{target},{}", &plan[1..]);
    project.write(PLAN, &repeated);
    let run = project.run(&[]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    let message = "/target: duplicate key: `target` appears twice in this object";
    assert_eq!(run.stderr, format!("qa-intent: error: {PLAN}: {message}\n"));
}

#[test]
fn sources_are_read_under_repo_and_the_plan_from_the_working_directory() {
    let repo = Project::new();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("plan.json"), valid_plan().to_string()).unwrap();
    let run = Program::at(env!("CARGO_BIN_EXE_qa-intent"))
        .invocation()
        .dir(elsewhere.path())
        .args(["--plan", "plan.json", "--repo"])
        .arg(repo.path())
        .run();
    let records = run.records();
    assert_eq!(records[0]["data"]["path"], "plan.json");
    assert_eq!(
        criterion(&records, "refunds")["data"]["source"]["found"],
        true
    );
    // From the plan's own directory, without --repo, the same sources are missing.
    let run = Program::at(env!("CARGO_BIN_EXE_qa-intent"))
        .invocation()
        .dir(elsewhere.path())
        .args(["--plan", "plan.json"])
        .run();
    let records = run.records();
    assert_eq!(
        criterion(&records, "refunds")["data"]["source"]["found"],
        false
    );
}

#[test]
fn comments_and_a_schema_reference_are_allowed_in_a_plan() {
    let project = Project::new();
    project.plan(&plan_with(|p| {
        p["$schema"] = json!("https://qapipe.dev/schema/plan.schema.json");
        p["$comment"] = json!("top");
        p["target"]["$comment"] = json!("target");
        p["criteria"][0]["$comment"] = json!("criterion");
        p["criteria"][0]["source"]["$comment"] = json!("source");
    }));
    assert_eq!(project.records().len(), 9);
}

#[test]
fn file_and_url_targets_are_accepted_with_their_own_check_rules() {
    let project = Project::new();
    project.plan(&plan_with(|p| {
        p["target"] = json!({"kind": "file", "value": "site/index.html"});
        p["checks"] =
            json!([{"id": "c", "criterion": "greets", "kind": "file", "contains": "Welcome"}]);
    }));
    let records = project.records();
    assert_eq!(
        records[1]["data"],
        json!({"kind": "file", "value": "site/index.html", "build_id": null})
    );
    project.plan(&plan_with(|p| {
        p["target"] = json!({"kind": "url", "value": "http://127.0.0.1:8080"});
        p["checks"] = json!([{"id": "c", "criterion": "greets", "kind": "http", "status": 200}]);
    }));
    let records = project.records();
    assert_eq!(records[1]["data"]["value"], "http://127.0.0.1:8080");
}

// ---- plan errors -----------------------------------------------------------------------

/// An invalid plan: the edit that breaks the valid one, the stderr line after the plan
/// path, and whether plan.schema.json can see the problem too (ids, cross references and
/// floats are beyond what the schema says).
struct Bad {
    edit: fn(&mut Value),
    error: &'static str,
    schema_sees_it: bool,
}

const BAD: &[Bad] = &[
    Bad {
        edit: |p| *p = json!([1]),
        error: "a plan is a JSON object, not an array",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["extra"] = json!(1),
        error: "/extra: unknown key (known: $schema, $comment, target, criteria, checks)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p.as_object_mut().unwrap().remove("target");
        },
        error: "/target: missing: an object is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"] = json!("site"),
        error: "/target: `target` must be an object, not a string",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"]["build_id"] = json!("x"),
        error: "/target/build_id: unknown key (known: $comment, kind, value, buildId, env, app)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"]["kind"] = json!("ftp"),
        error: "/target/kind: unknown target kind `ftp` (expected file, directory or url)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"]["value"] = json!("/srv/site"),
        error: "/target/value: absolute paths are not allowed",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"]["value"] = json!("site/../../etc"),
        error: "/target/value: `..` is not allowed: paths stay inside the repository",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"] = json!({"kind": "url", "value": "https:///health"}),
        error: "/target/value: has no host",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"] = json!({"kind": "url", "value": "ftp://shop.example"}),
        error: "/target/value: must be an http:// or https:// URL",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"] = json!({"kind": "url", "value": "https://me:pw@shop.example"}),
        error: "/target/value: credentials in URLs are not allowed (use --auth-env NAME)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["target"]["buildId"] = json!(7),
        error: "/target/buildId: must be a string, not a number",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"] = json!({}),
        error: "/criteria: must be an array, not an object",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][1] = json!("refunds"),
        error: "/criteria/1: a criterion must be an object, not a string",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["criteria"][0].as_object_mut().unwrap().remove("expected");
        },
        error: "/criteria/0/expected: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][0]["expected"] = json!("  "),
        error: "/criteria/0/expected: must not be empty or blank",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][0]["note"] = json!("x"),
        error: "/criteria/0/note: unknown key (known: $comment, id, expected, source)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][0]["id"] = json!("greets\n"),
        error: "/criteria/0/id: must not hold control characters or surrounding whitespace",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][3]["id"] = json!("refunds"),
        error: "/criteria/3/id: duplicate criterion id `refunds` (first at /criteria/1/id)",
        schema_sees_it: false,
    },
    Bad {
        edit: |p| p["criteria"][0]["source"]["kind"] = json!("email"),
        error: "/criteria/0/source/kind: unknown source kind `email` (expected request, ticket, spec or inferred)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][0]["source"]["url"] = json!("https://tracker.example/SHOP-12"),
        error: "/criteria/0/source/url: unknown key (known: $comment, kind, text, path, quote)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][0]["source"] = json!({"kind": "request"}),
        error: "/criteria/0/source/text: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][3]["source"]["path"] = json!("docs/spec.md"),
        error: "/criteria/3/source/path: not allowed here: only ticket and spec sources name a file and a quote",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["criteria"][1]["source"].as_object_mut().unwrap().remove("quote");
        },
        error: "/criteria/1/source/quote: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][1]["source"]["text"] = json!("SHOP-12"),
        error: "/criteria/1/source/text: not allowed here: ticket and spec sources quote their file: use `quote`",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][1]["source"]["path"] = json!("/home/me/SHOP-12.md"),
        error: "/criteria/1/source/path: absolute paths are not allowed",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][1]["source"]["path"] = json!("../tickets/SHOP-12.md"),
        error: "/criteria/1/source/path: `..` is not allowed: paths stay inside the repository",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][1]["source"]["path"] = json!("tickets\\SHOP-12.md"),
        error: "/criteria/1/source/path: backslashes are not allowed (use /)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["criteria"][2]["source"]["path"] = json!("docs/spec.md\u{0}.txt"),
        error: "/criteria/2/source/path: NUL characters are not allowed",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p.as_object_mut().unwrap().remove("checks");
        },
        error: "/checks: missing: an array is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][0] = json!(null),
        error: "/checks/0: a check must be an object, not null",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][0].as_object_mut().unwrap().remove("criterion");
        },
        error: "/checks/0/criterion: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][0]["criterion"] = json!("missing"),
        error: "/checks/0/criterion: no criterion `missing` in the plan",
        schema_sees_it: false,
    },
    Bad {
        edit: |p| p["checks"][2]["id"] = json!("home-greets"),
        error: "/checks/2/id: duplicate check id `home-greets` (first at /checks/0/id)",
        schema_sees_it: false,
    },
    Bad {
        edit: |p| {
            p["checks"][0].as_object_mut().unwrap().remove("kind");
        },
        error: "/checks/0/kind: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][0].as_object_mut().unwrap().remove("contains");
        },
        error: "/checks/0/contains: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][0].as_object_mut().unwrap().remove("path");
        },
        error: "/checks/0/path: missing: a file check on a directory target names the file (`path`)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["target"] = json!({"kind": "file", "value": "site/index.html"});
            p["checks"].as_array_mut().unwrap().truncate(1);
        },
        error: "/checks/0/path: not allowed for a file target: the check reads the target file itself",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][2]["path"] = json!("/index.html"),
        error: "/checks/2/path: absolute paths are not allowed",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][2]["path"] = json!("../secrets.txt"),
        error: "/checks/2/path: `..` is not allowed: paths stay inside the repository",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1] = json!({"id": "health", "criterion": "greets", "kind": "http", "path": "/health"}),
        error: "/checks/1: an http check needs `status`, `contains` or both",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1]["status"] = json!(42),
        error: "/checks/1/status: must be an integer HTTP status from 100 to 599",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1]["status"] = json!("200"),
        error: "/checks/1/status: must be an integer HTTP status from 100 to 599",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1]["path"] = json!("health"),
        error: "/checks/1/path: must start with `/` (a path on the target's origin)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1]["path"] = json!("//evil.example/health"),
        error: "/checks/1/path: must not start with `//`: that names another host",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| p["checks"][1]["path"] = json!("https://evil.example/health"),
        error: "/checks/1/path: must start with `/` (a path on the target's origin)",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][2] = json!({"id": "volume", "criterion": "greets", "kind": "mcp", "tool": "set_volume", "input": {"level": 0.5}})
        },
        error: "/checks/2/input/level: floating-point numbers are not allowed (use integers)",
        schema_sees_it: false,
    },
    Bad {
        edit: |p| {
            p["checks"][2] = json!({"id": "volume", "criterion": "greets", "kind": "mcp", "input": {"level": 5}})
        },
        error: "/checks/2/tool: missing: a non-empty string is required",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][2] = json!({"id": "volume", "criterion": "greets", "kind": "browser", "tool": "add", "input": [1]})
        },
        error: "/checks/2/input: `input` must be an object, not an array",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][2] = json!({"id": "volume", "criterion": "greets", "kind": "mcp", "tool": "get", "readOnly": "yes"})
        },
        error: "/checks/2/readOnly: must be a boolean, not a string",
        schema_sees_it: true,
    },
    Bad {
        edit: |p| {
            p["checks"][2] = json!({"id": "volume", "criterion": "greets", "kind": "mcp", "tool": "get", "observePath": "//evil.example/"})
        },
        error: "/checks/2/observePath: must not start with `//`: that names another host",
        schema_sees_it: false,
    },
];

#[test]
fn every_plan_error_is_exit_65_with_one_line_naming_its_json_pointer() {
    for bad in BAD {
        let project = Project::new();
        project.plan(&plan_with(bad.edit));
        let run = project.run(&[]);
        assert_eq!(run.code, 65, "{}: {}", bad.error, run.stderr);
        assert_eq!(
            run.stderr,
            format!("qa-intent: error: {PLAN}: {}\n", bad.error)
        );
        assert!(run.stdout.is_empty(), "{}: wrote records", bad.error);
    }
}

#[test]
fn the_plan_schema_accepts_the_valid_plan_and_refuses_what_it_can_express() {
    let schema = plan_schema();
    let valid = valid_plan();
    let errors: Vec<String> = schema.iter_errors(&valid).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    for bad in BAD {
        let plan = plan_with(bad.edit);
        assert_eq!(
            !schema.is_valid(&plan),
            bad.schema_sees_it,
            "plan.schema.json on: {}",
            bad.error
        );
    }
}

#[test]
fn a_plan_that_is_not_json_is_exit_65_naming_line_and_column() {
    let project = Project::new();
    project.write(PLAN, "{\n  \"target\": \n}");
    let run = project.run(&[]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr
            .starts_with("qa-intent: error: .qa-acceptance.json: not valid JSON: "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("line 3 column 1"), "{}", run.stderr);
}

#[test]
fn a_missing_plan_file_is_exit_66() {
    let project = Project::new();
    let run = project.run(&[]);
    assert_eq!(run.code, 66);
    assert_eq!(
        run.stderr,
        "qa-intent: error: .qa-acceptance.json: no such plan file\n"
    );
}

#[test]
fn a_missing_repository_is_exit_66() {
    let project = Project::new();
    project.plan(&valid_plan());
    let run = project.run(&["--repo", "gone"]);
    assert_eq!(run.code, 66, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("qa-intent: error: repository gone"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_team_manifest_with_a_plan_is_a_usage_error() {
    let project = Project::new();
    project.plan(&valid_plan());
    assert_eq!(project.run(&["--manifest", "m.yaml"]).code, 64);
}

// ---- a source stage --------------------------------------------------------------------

/// A record of a kind qa-intent does not own, written with odd spacing and key order (so
/// forwarding must keep its bytes), under its true id (so the stream validates).
fn upstream() -> String {
    let data = json!({"b": 1, "a": 2});
    let id =
        qa_records::envelope::compute_id("x-profile", 1, &[], &Default::default(), &data).unwrap();
    format!(
        r#"{{"kind":"x-profile",  "v":1,"id":"{id}","by":"x","from":[],"src":{{}},"data":{{"b":1, "a":2}}}}"#
    )
}

#[test]
fn without_in_the_plan_stage_never_reads_stdin() {
    let project = Project::new();
    project.plan(&valid_plan());
    let run = project.run_with_stdin(&[], b"{not json\n");
    let records = run.records();
    assert_eq!(records[0]["kind"], "plan");
    assert_eq!(records.len(), 9);
}

#[test]
fn the_records_of_in_stdin_are_forwarded_byte_for_byte_before_the_plan() {
    let project = Project::new();
    project.plan(&valid_plan());
    let upstream = upstream();
    let run = project.run_with_stdin(&["--in", "-"], format!("{upstream}\r\n\n").as_bytes());
    let records = run.records();
    assert_eq!(records.len(), 10);
    assert!(
        run.text()
            .starts_with(&format!("{upstream}\n{{\"kind\":\"plan\"")),
        "{}",
        run.text()
    );
}

#[test]
fn the_records_of_an_in_file_are_forwarded_before_the_plan() {
    let project = Project::new();
    project.plan(&valid_plan());
    project.write("up.ndjson", &format!("{}\n", upstream()));
    let run = project.run(&["--in", "up.ndjson"]);
    assert_eq!(run.records().len(), 10);
    assert!(run.text().starts_with(&format!("{}\n", upstream())));
}

#[test]
fn a_malformed_in_line_is_exit_65_naming_it() {
    let project = Project::new();
    project.plan(&valid_plan());
    let input = format!("{}\n{{broken\n", upstream());
    let run = project.run_with_stdin(&["--in", "-"], input.as_bytes());
    assert_eq!(run.code, 65);
    assert!(run.stderr.contains("stdin line 2"), "{}", run.stderr);
}

#[test]
fn the_same_plan_and_sources_give_byte_identical_records() {
    let project = Project::new();
    project.plan(&valid_plan());
    let first = project.run(&[]).success();
    let second = project.run(&[]).success();
    assert_eq!(first.stdout, second.stdout);
    // A copy of the project elsewhere gives the same records: nothing machine-specific.
    let copy = Project::new();
    copy.plan(&valid_plan());
    assert_eq!(copy.run(&[]).success().stdout, first.stdout);
}

#[test]
fn editing_a_source_file_changes_its_criterion_and_the_checks_that_derive_from_it() {
    let project = Project::new();
    project.plan(&valid_plan());
    let before = project.records();
    project.write("docs/spec.md", &format!("{SPEC}\nEdited.\n"));
    let after = project.records();
    assert_eq!(before[0]["id"], after[0]["id"], "the plan did not change");
    assert_eq!(
        criterion(&before, "refunds")["id"],
        criterion(&after, "refunds")["id"]
    );
    assert_ne!(
        criterion(&before, "spec-footer")["id"],
        criterion(&after, "spec-footer")["id"]
    );
    assert_ne!(before[8]["id"], after[8]["id"], "the footer check");
    assert_eq!(
        before[6]["id"], after[6]["id"],
        "a check of another criterion"
    );
}

// ---- the record schemas ----------------------------------------------------------------

fn record_schema(name: &str) -> jsonschema::Validator {
    let path = qa_testkit::schema_dir().join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn the_criterion_schema_refuses_an_unlabelled_inferred_criterion() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let schema = record_schema("criterion.schema.json");
    let mut guess = criterion(&records, "guess")["data"].clone();
    assert!(schema.is_valid(&guess));
    guess["inferred"] = json!(false);
    assert!(!schema.is_valid(&guess));
    let mut greets = criterion(&records, "greets")["data"].clone();
    greets["inferred"] = json!(true);
    assert!(!schema.is_valid(&greets));
}

#[test]
fn the_criterion_schema_refuses_a_quote_found_in_a_file_that_was_not_read() {
    let project = Project::new();
    project.plan(&valid_plan());
    let records = project.records();
    let schema = record_schema("criterion.schema.json");
    let mut refunds = criterion(&records, "refunds")["data"].clone();
    assert!(schema.is_valid(&refunds));
    refunds["source"]["sha256"] = Value::Null;
    assert!(!schema.is_valid(&refunds));
    refunds["source"]["found"] = json!(false);
    assert!(schema.is_valid(&refunds));
}
