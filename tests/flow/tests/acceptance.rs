//! The acceptance flow end to end: `qa-intent --plan | qa-fetch | qa-route | qa-check |
//! qa-fetch --verify | qa-trace | qa-report --acceptance` on projects built in temp dirs,
//! against a real HTTP server on 127.0.0.1: verdicts and their exit codes, the run folder,
//! staleness, limits of captures and responses, secrets, cancellation, the project lock
//! and determinism.

use crate::common;

use common::acceptance::*;
use qa_testkit::http::{Reply, Server};
use qa_testkit::process::{dead_pid, Group, GroupOutput};
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An http plan against `server`: one request criterion per check.
fn http_plan(server: &Server, checks: Vec<serde_json::Value>) -> serde_json::Value {
    let criteria = checks
        .iter()
        .map(|c| request(c["criterion"].as_str().unwrap(), "The service answers"))
        .collect();
    plan(url(&server.url("/")), criteria, checks)
}

/// A server whose home page answers, plus `routes`.
fn server_with(routes: Vec<(&str, Reply)>) -> Server {
    let mut all = vec![("/", Reply::ok("home"))];
    all.extend(routes);
    Server::start(all)
}

// --- verdicts on directory targets ---------------------------------------------------

#[test]
fn a_passing_directory_plan_exits_0_with_valid_records_and_a_private_checksummed_run_folder() {
    let project = Project::shop();
    project.plan(&shop_plan());
    qa_testkit::documents::assert_valid("plan.schema.json", &project.plan_document());

    let outcome = project.pipeline().run_script();

    outcome.assert_verdict("pass", 0);
    for id in ["greets", "refunds", "footer"] {
        assert_eq!(outcome.status_of(id), "pass", "{}", outcome.summary());
    }
    assert_eq!(outcome.verdict_record()["status"], "pass");
    assert_eq!(outcome.files(), RUN_FILES);
    outcome.assert_checksums_valid();
    outcome.assert_private(&project);
    outcome.assert_records_verify();
    let kinds: Vec<&str> = outcome
        .records
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .filter(|k| *k != "event")
        .collect();
    for (kind, count) in [
        ("plan", 1),
        ("target.spec", 1),
        ("criterion", 3),
        ("check.spec", 3),
        ("target", 1),
        ("route", 3),
        ("observation", 3),
        ("trace", 3),
        ("verdict", 1),
    ] {
        assert_eq!(
            kinds.iter().filter(|k| **k == kind).count(),
            count,
            "{kind} records in {kinds:?}"
        );
    }
    let target = outcome.target();
    assert_eq!(target["status"], "captured");
    assert_eq!(paths_of(&target["entries"]), ["health.json", "index.html"]);
    assert!(outcome.verifies().iter().all(|v| v["same"] == true));
}

#[test]
fn a_failing_check_fails_its_criterion_and_the_run_and_the_others_are_still_reported() {
    let project = Project::shop();
    let mut plan = shop_plan();
    plan["checks"][1]["contains"] = json!("refunds are paid instantly");
    project.plan(&plan);

    let outcome = project.pipeline().run();

    outcome.assert_verdict("fail", 1);
    assert_eq!(
        outcome.status_of("refunds"),
        "fail",
        "{}",
        outcome.summary()
    );
    assert_eq!(outcome.status_of("greets"), "pass", "{}", outcome.summary());
    assert_eq!(outcome.status_of("footer"), "pass", "{}", outcome.summary());
    outcome.assert_observed("refund-note", "fail");
    outcome.assert_observed("home-greets", "pass");
    outcome.assert_observed("footer-company", "pass");
    outcome.assert_checksums_valid();
}

// --- incomplete: gaps, each with its reason in report.json ----------------------------

#[test]
fn a_criterion_without_checks_is_unverified_and_the_run_incomplete() {
    let project = Project::shop();
    let mut plan = shop_plan();
    plan["criteria"]
        .as_array_mut()
        .unwrap()
        .push(request("contact", "Show a contact address"));
    project.plan(&plan);

    let outcome = project.pipeline().run();

    outcome.assert_verdict("incomplete", 2);
    outcome.assert_criterion("contact", "unverified", "no check");
    assert_eq!(outcome.status_of("greets"), "pass", "{}", outcome.summary());
}

#[test]
fn a_quote_missing_from_its_ticket_leaves_the_criterion_unverified_though_its_check_passes() {
    let project = Project::shop();
    let mut plan = shop_plan();
    plan["criteria"][1]["source"]["quote"] = json!("Refunds above 50 EUR require two approvals");
    project.plan(&plan);

    let outcome = project.pipeline().run();

    outcome.assert_verdict("incomplete", 2);
    outcome.assert_observed("refund-note", "pass");
    outcome.assert_criterion("refunds", "unverified", "quote");
    assert_eq!(outcome.criterion("refunds")["source"]["found"], false);
    assert_eq!(outcome.criterion("greets")["source"]["found"], true);
}

#[test]
fn an_inferred_only_plan_is_incomplete_even_when_its_checks_pass() {
    let project = Project::shop();
    project.plan(&plan(
        site(),
        vec![inferred("titled", "pages usually greet their visitors")],
        vec![file_check("greeting", "titled", "index.html", "Welcome")],
    ));

    let outcome = project.pipeline().run();

    outcome.assert_observed("greeting", "pass");
    outcome.assert_verdict("incomplete", 2);
    assert_eq!(outcome.criterion("titled")["inferred"], true);
    assert!(
        outcome.run_reasons().contains("inferred"),
        "the run's reasons do not mention the inferred criteria\n{}",
        outcome.summary()
    );
}

#[test]
fn an_http_check_without_allow_network_is_blocked_naming_the_flag_and_nothing_is_fetched() {
    let server = server_with(vec![("/health", Reply::ok("ok"))]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("health", "up", "/health", Some(200), Some("ok"))],
    ));

    let outcome = project.pipeline().run();

    outcome.assert_verdict("incomplete", 2);
    outcome.assert_criterion("up", "unverified", "--allow-network");
    let route = outcome.route_of("health");
    assert_eq!(route["decision"], "blocked", "{route:#}");
    assert_eq!(route["missing"], json!(["--allow-network"]));
    outcome.assert_observed("health", "unverified");
    assert_eq!(outcome.target()["status"], "blocked");
    assert!(
        server.requests().is_empty(),
        "a request went out without --allow-network: {:?}",
        server.requests()
    );
}

#[test]
fn an_unknown_check_kind_is_unsupported_and_the_run_incomplete() {
    let project = Project::shop();
    let mut plan = shop_plan();
    plan["criteria"]
        .as_array_mut()
        .unwrap()
        .push(request("uploads", "Accept uploads"));
    plan["checks"].as_array_mut().unwrap().push(
        json!({"id": "ftp-upload", "criterion": "uploads", "kind": "ftp", "path": "/incoming"}),
    );
    project.plan(&plan);

    let outcome = project.pipeline().run();

    outcome.assert_verdict("incomplete", 2);
    outcome.assert_criterion("uploads", "unverified", "unsupported");
    assert_eq!(outcome.route_of("ftp-upload")["decision"], "unsupported");
    outcome.assert_observed("ftp-upload", "unverified");
    assert_eq!(outcome.status_of("greets"), "pass", "{}", outcome.summary());
}

// --- stale: what changed during the run -----------------------------------------------

#[test]
fn a_target_file_edited_between_the_checks_and_the_verify_makes_the_run_stale() {
    let project = Project::shop();
    project.plan(&shop_plan());
    let pipeline = project.pipeline();

    let checked = pipeline.start().through(Stage::Check);
    project.edit("site/index.html", "Example Shop GmbH", "Other Shop AG");
    let outcome = checked.report();

    outcome.assert_verdict("stale", 2);
    let target = outcome.verify_of("target", "site");
    assert_eq!(target["same"], false, "{target:#}");
    assert_eq!(target["changed"], json!(["index.html"]));
    assert_eq!(
        outcome.verify_of("source", "tickets/SHOP-12.md")["same"],
        true
    );
}

#[test]
fn a_ticket_quote_edited_between_plan_and_verify_makes_the_run_stale() {
    let project = Project::shop();
    project.plan(&shop_plan());
    let pipeline = project.pipeline();

    let planned = pipeline.start().through(Stage::Plan);
    project.edit("tickets/SHOP-12.md", "above 100 EUR", "above 500 EUR");
    let outcome = planned.report();

    outcome.assert_verdict("stale", 2);
    let source = outcome.verify_of("source", "tickets/SHOP-12.md");
    assert_eq!(source["same"], false, "{source:#}");
    assert_eq!(outcome.verify_of("target", "site")["same"], true);
}

// --- http checks against a live server --------------------------------------------------

#[test]
fn an_http_check_of_status_and_text_passes_against_a_live_server() {
    let server = server_with(vec![("/health", Reply::ok("status: ok"))]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("health", "up", "/health", Some(200), Some("ok"))],
    ));

    let outcome = project.pipeline().flags(&["--allow-network"]).run();

    outcome.assert_verdict("pass", 0);
    outcome.assert_observed("health", "pass");
    assert_eq!(
        outcome.observation("health")["evidence"]["http_status"],
        200
    );
    assert_eq!(outcome.target()["status"], "captured");
    assert_eq!(server.calls("/health"), 1);
}

#[test]
fn an_http_check_answered_with_another_status_fails() {
    let server = server_with(vec![("/health", Reply::with_status(503, "ok"))]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("health", "up", "/health", Some(200), None)],
    ));

    let outcome = project.pipeline().flags(&["--allow-network"]).run();

    outcome.assert_verdict("fail", 1);
    outcome.assert_observed("health", "fail");
    assert_eq!(
        outcome.observation("health")["evidence"]["http_status"],
        503
    );
}

#[test]
fn an_http_check_whose_text_is_missing_fails() {
    let server = server_with(vec![("/health", Reply::ok("status: degraded"))]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("health", "up", "/health", Some(200), Some("ok"))],
    ));

    let outcome = project.pipeline().flags(&["--allow-network"]).run();

    outcome.assert_verdict("fail", 1);
    outcome.assert_observed("health", "fail");
}

#[test]
fn a_redirect_is_rejected_as_a_failure_and_never_followed() {
    let server = server_with(vec![
        ("/account", Reply::redirect("/login")),
        ("/login", Reply::ok("please log in: ok")),
    ]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check(
            "account",
            "private",
            "/account",
            Some(200),
            Some("ok"),
        )],
    ));

    let outcome = project.pipeline().flags(&["--allow-network"]).run();

    outcome.assert_verdict("fail", 1);
    outcome.assert_observed("account", "fail");
    assert_eq!(server.calls("/account"), 1);
    assert_eq!(server.calls("/login"), 0, "the redirect was followed");
}

#[test]
fn a_response_slower_than_the_timeout_is_unverified_and_the_run_still_ends_in_time() {
    let server = server_with(vec![(
        "/report",
        Reply::ok("done").delayed(Duration::from_secs(20)),
    )]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("report", "reports", "/report", Some(200), None)],
    ));

    let started = Instant::now();
    let outcome = project
        .pipeline()
        .flags(&["--allow-network", "--timeout", "1"])
        .run();
    let took = started.elapsed();

    outcome.assert_verdict("incomplete", 2);
    outcome.assert_observed("report", "unverified");
    assert_eq!(server.calls("/report"), 1);
    assert!(
        took < Duration::from_secs(8),
        "the run took {took:?} with --timeout 1"
    );
}

#[test]
fn a_body_over_1_mib_is_cut_at_the_cap_found_text_passes_and_text_past_the_cap_is_unverified() {
    let mut body = b"HEAD-MARK ".to_vec();
    body.resize((1 << 20) + 64 * 1024, b'a');
    body.extend_from_slice(b" TAIL-MARK");
    let server = server_with(vec![("/big", Reply::ok(body))]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![
            http_check("head", "starts", "/big", Some(200), Some("HEAD-MARK")),
            http_check("tail", "ends", "/big", Some(200), Some("TAIL-MARK")),
        ],
    ));

    let outcome = project.pipeline().flags(&["--allow-network"]).run();

    outcome.assert_observed("head", "pass");
    outcome.assert_observed("tail", "unverified");
    outcome.assert_verdict("incomplete", 2);
    for check in ["head", "tail"] {
        let evidence = &outcome.observation(check)["evidence"];
        assert_eq!(evidence["truncated"], true, "{evidence:#}");
        assert_eq!(evidence["bytes"], 1 << 20, "{check}");
        let excerpt = evidence["excerpt"].as_str().unwrap_or_default();
        assert!(
            excerpt.chars().count() <= 4096,
            "{check}'s excerpt has {} characters",
            excerpt.chars().count()
        );
    }
}

const SECRET: &str = "s3cr3t-Tok3n-8f1d2c";

/// The pipeline with the bearer token in `QA_TEST_TOKEN`, named by --auth-env.
fn with_token(project: &Project) -> Pipeline<'_> {
    project
        .pipeline()
        .flags(&["--allow-network", "--auth-env", "QA_TEST_TOKEN"])
        .env("QA_TEST_TOKEN", SECRET)
}

/// Asserts no stage's stdout or stderr and no file under the project's `.qa/` holds
/// `secret`; the message shows where it was found.
fn assert_secret_nowhere(project: &Project, outcome: &Outcome, secret: &str) {
    let mut places: Vec<(String, String)> = Vec::new();
    for run in &outcome.runs {
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        places.push((format!("{}'s stdout", run.program), stdout));
        places.push((format!("{}'s stderr", run.program), run.stderr.clone()));
    }
    let files = files_under(&project.path().join(".qa"));
    assert!(files.len() >= RUN_FILES.len(), "{files:?}");
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        places.push((file.display().to_string(), text));
    }
    for (place, text) in places {
        if let Some(at) = text.find(secret) {
            let from = text[..at]
                .char_indices()
                .rev()
                .nth(80)
                .map_or(0, |(i, _)| i);
            panic!(
                "{place} holds the secret: ...{}",
                &text[from..at + secret.len()]
            );
        }
    }
}

#[test]
fn the_auth_env_secret_reaches_the_server_but_no_file_record_or_output_of_the_run() {
    let server = server_with(vec![("/whoami", Reply::echo())]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check(
            "whoami",
            "me",
            "/whoami",
            Some(200),
            Some("Bearer"),
        )],
    ));

    let outcome = with_token(&project).run();

    // The control: the token was sent, and the server put it in the body it returned.
    assert!(
        server
            .requests()
            .iter()
            .any(|h| h.contains(&format!("Bearer {SECRET}"))),
        "the server never got the token: {:?}",
        server.requests()
    );
    outcome.assert_observed("whoami", "pass");
    assert_secret_nowhere(&project, &outcome, SECRET);
}

#[test]
fn a_secret_a_server_reflects_in_headers_reaches_no_record() {
    let server = Server::start([
        (
            "/",
            Reply::ok("home")
                .header("ETag", &format!("\"Bearer {SECRET}\""))
                .header("X-Build-Id", &format!("Bearer {SECRET}")),
        ),
        (
            "/bounce",
            Reply::redirect(&format!("/login?auth=Bearer+{SECRET}")),
        ),
    ]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![http_check("bounce", "kept", "/bounce", Some(200), None)],
    ));

    let outcome = with_token(&project).run();

    outcome.assert_observed("bounce", "fail");
    assert_secret_nowhere(&project, &outcome, SECRET);
}

// --- directory targets that cannot be captured safely ---------------------------------

/// Asserts the capture failed naming `needle` and every check is unverified.
fn assert_capture_failed_closed(outcome: &Outcome, needle: &str) {
    let target = outcome.target();
    assert_eq!(target["status"], "failed", "{target:#}");
    let reason = target["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(needle),
        "the reason {reason:?} does not name {needle:?}"
    );
    for check in ["home-greets", "refund-note", "footer-company"] {
        outcome.assert_observed(check, "unverified");
    }
    outcome.assert_verdict("incomplete", 2);
}

#[test]
fn a_symlink_in_a_directory_target_fails_the_capture_closed() {
    let project = Project::shop();
    project.plan(&shop_plan());
    std::os::unix::fs::symlink("index.html", project.path().join("site/alias.html")).unwrap();

    let outcome = project.pipeline().run();

    assert_capture_failed_closed(&outcome, "alias.html");
}

#[test]
fn a_fifo_in_a_directory_target_fails_the_capture_closed() {
    let project = Project::shop();
    project.plan(&shop_plan());
    let made = Command::new("mkfifo")
        .arg(project.path().join("site/events"))
        .status()
        .expect("running mkfifo");
    assert!(made.success());

    let outcome = project.pipeline().run();

    assert_capture_failed_closed(&outcome, "events");
}

#[test]
fn a_file_over_4_mib_in_a_directory_target_fails_the_capture_naming_the_limit() {
    let project = Project::shop();
    project.plan(&shop_plan());
    project.write("site/video.bin", vec![0u8; (4 << 20) + 1]);

    let outcome = project.pipeline().run();

    assert_capture_failed_closed(&outcome, "video.bin");
    let reason = outcome.target()["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("4 MiB"),
        "{reason:?} does not name the limit"
    );
}

#[test]
fn env_and_key_files_are_listed_as_excluded_and_a_check_on_one_is_unverified() {
    let project = Project::shop();
    project.write("site/.env", "API_KEY=live-123\n");
    project.write("site/.env.production", "API_KEY=live-456\n");
    project.write("site/tls/server.key", "-----BEGIN PRIVATE KEY-----\n");
    project.write("site/tls/cert.pem", "-----BEGIN CERTIFICATE-----\n");
    project.write("site/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    let mut plan = shop_plan();
    plan["criteria"]
        .as_array_mut()
        .unwrap()
        .push(request("configured", "The API key is set"));
    plan["checks"].as_array_mut().unwrap().push(file_check(
        "api-key",
        "configured",
        ".env",
        "API_KEY",
    ));
    project.plan(&plan);

    let outcome = project.pipeline().run();

    let target = outcome.target();
    assert_eq!(target["status"], "captured", "{target:#}");
    let mut excluded = paths_of(&target["excluded"]);
    excluded.sort();
    assert_eq!(
        excluded,
        [
            ".env",
            ".env.production",
            "id_rsa",
            "tls/cert.pem",
            "tls/server.key"
        ]
    );
    let entries = target["entries"].to_string();
    assert!(!entries.contains(".env") && !entries.contains("server.key"));
    outcome.assert_observed("api-key", "unverified");
    outcome.assert_observed("home-greets", "pass");
    outcome.assert_verdict("incomplete", 2);
}

// --- cancellation, the project lock, determinism ---------------------------------------

/// Starts acceptance.sh in its own process group on a plan whose second http check waits
/// 30 s for its answer, sends SIGINT to the group once qa-check is waiting on it and
/// qa-report holds the run's lock (the run has begun: on a loaded machine qa-check can
/// reach its second check before qa-report has started), and waits for the whole group
/// to end (10 s at most). The first check has passed by then.
fn interrupted_run() -> (Project, GroupOutput) {
    let server = server_with(vec![
        ("/health", Reply::ok("ok")),
        (
            "/export",
            Reply::ok("done").delayed(Duration::from_secs(30)),
        ),
    ]);
    let project = Project::empty();
    project.plan(&http_plan(
        &server,
        vec![
            http_check("health", "up", "/health", Some(200), Some("ok")),
            http_check("export", "exports", "/export", Some(200), None),
        ],
    ));
    let pipeline = project
        .pipeline()
        .flags(&["--allow-network", "--timeout", "60"]);
    let group = Group::spawn(pipeline.script());
    assert!(
        server.wait_for("/export", Duration::from_secs(10)),
        "qa-check never requested /export"
    );
    wait_for("the run's lock", || project.lock_file().is_file());
    assert!(
        group.signal("INT"),
        "kill could not signal the pipeline's group"
    );
    let output = group
        .wait(Duration::from_secs(10))
        .expect("the pipeline was still running 10 s after SIGINT");
    (project, output)
}

/// The run folder of an interrupted run.
fn interrupted_outcome(project: &Project, output: &GroupOutput) -> Outcome {
    let run = qa_testkit::Run {
        program: "acceptance.sh".into(),
        code: output.status.code().unwrap_or(-1),
        stdout: output.stdout.clone(),
        stderr: output.stderr.clone(),
    };
    Outcome::read(project, &Default::default(), vec![run])
}

#[test]
fn sigint_mid_run_exits_130_with_a_cancelled_report_and_valid_checksums() {
    let (project, output) = interrupted_run();

    let outcome = interrupted_outcome(&project, &output);
    assert_eq!(outcome.verdict(), "cancelled", "{}", outcome.summary());
    assert_eq!(outcome.verdict_record()["status"], "cancelled");
    assert_eq!(outcome.files(), RUN_FILES);
    outcome.assert_checksums_valid();
    outcome.assert_private(&project);
    assert_eq!(
        output.status.code(),
        Some(130),
        "acceptance.sh ended with {:?} after SIGINT; stderr:\n{}",
        output.status,
        output.stderr
    );
}

#[test]
fn sigint_mid_run_keeps_what_was_observed_and_marks_the_rest_cancelled() {
    let (project, output) = interrupted_run();

    let outcome = interrupted_outcome(&project, &output);
    outcome.assert_observed("health", "pass");
    outcome.assert_observed("export", "cancelled");
    assert_eq!(outcome.status_of("up"), "pass", "{}", outcome.summary());
    assert_ne!(
        outcome.status_of("exports"),
        "pass",
        "{}",
        outcome.summary()
    );
}

#[test]
fn a_second_run_while_one_is_active_exits_69_naming_the_active_run() {
    let project = Project::shop();
    project.plan(&shop_plan());
    let mut first = Command::new(qa_testkit::Program::built("qa-report").path())
        .args(["--acceptance", "--repo", "."])
        .current_dir(project.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting the first qa-report");
    wait_for("the first run's lock", || project.lock_file().is_file());
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.lock_file()).unwrap()).unwrap();
    let active = lock["run"]
        .as_str()
        .expect("the lock names its run")
        .to_string();

    let pipeline = project.pipeline();
    let (_, second) = pipeline.start().report_run();

    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(second.code, 69, "stderr:\n{}", second.stderr);
    assert!(
        second.stderr.contains(&active),
        "the message does not name the active run {active}:\n{}",
        second.stderr
    );
    assert!(
        project.run_dirs().is_empty(),
        "the second run wrote a run folder"
    );
}

#[test]
fn a_stale_lock_left_by_a_dead_process_is_taken_over() {
    let project = Project::shop();
    project.plan(&shop_plan());
    std::fs::create_dir(project.path().join(".qa")).unwrap();
    let stale = json!({"run": "20260101T000000Z-deadbeef", "pid": dead_pid()});
    std::fs::write(project.lock_file(), stale.to_string()).unwrap();

    let outcome = project.pipeline().run();

    outcome.assert_verdict("pass", 0);
    assert!(
        outcome.stderr().contains("20260101T000000Z-deadbeef"),
        "no word of the lock taken over:\n{}",
        outcome.stderr()
    );
    assert!(!project.lock_file().exists(), "the lock outlived the run");
}

#[test]
fn the_same_plan_on_the_same_tree_gives_the_same_records_apart_from_events() {
    let project = Project::shop();
    let mut plan = shop_plan();
    plan["checks"][1]["contains"] = json!("refunds are paid instantly");
    project.plan(&plan);
    let pipeline = project.pipeline();

    let first = pipeline.run();
    let second = pipeline.run();

    assert_ne!(first.dir, second.dir, "two runs share a folder");
    let (a, b) = (first.timeless_records(), second.timeless_records());
    assert!(a.len() > 10, "{a:?}");
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "record {i} differs between two runs");
    }
    assert_eq!(a.len(), b.len());
    assert_eq!(first.report["criteria"], second.report["criteria"]);
}
