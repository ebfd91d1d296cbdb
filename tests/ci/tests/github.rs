//! The GitHub Action's run step (pipelines/ci/github.sh, what action.yml calls) on a pull
//! request checkout with the variables GitHub sets: the job summary, the outputs, the
//! annotations and qa.sarif; a shallow checkout deepened or refused with one clear line;
//! the acceptance flow for a plan.

use crate::common;

use common::*;
use std::collections::BTreeMap;

fn summary(checkout: &Checkout) -> String {
    std::fs::read_to_string(checkout.runner_file("summary.md")).unwrap()
}

#[test]
fn a_pull_request_run_sets_the_verdict_and_counts_as_outputs() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = outputs(&checkout);
    assert_eq!(out["verdict"], "required", "{out:?}\n{}", run.stderr);
    assert_eq!(out["change-verdict"], "required");
    assert_eq!(out["acceptance-verdict"], "");
    let required: u32 = out["required"].parse().unwrap();
    let scenarios: u32 = out["scenarios"].parse().unwrap();
    assert!(required >= 1 && scenarios >= required, "{out:?}");
    for key in ["intents", "recommended", "review-only", "unrouted"] {
        assert!(out[key].parse::<u32>().is_ok(), "{key}: {out:?}");
    }
    let report_dir = std::path::Path::new(&out["report-dir"]);
    assert!(report_dir.is_absolute() && report_dir.is_dir(), "{out:?}");
    let change = std::path::Path::new(&out["change-dir"]);
    let report = json_file(&change.join("report.json"));
    assert_eq!(report["counts"]["required"], required);
    assert_eq!(report["range"]["base"]["ref"], "origin/main");
}

#[test]
fn the_markdown_report_goes_into_the_job_summary() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    action(&up, &checkout, &[]);
    let summary = summary(&checkout);
    assert!(summary.starts_with("## qapipe change report"), "{summary}");
    assert!(
        summary.contains("`src/checkout/submitOrder.ts:"),
        "{summary}"
    );
    let change = outputs(&checkout)["change-dir"].clone();
    let md = std::fs::read_to_string(std::path::Path::new(&change).join("report.md")).unwrap();
    assert!(summary.starts_with(&md), "the summary is report.md");
}

#[test]
fn annotations_are_workflow_commands_on_stdout() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[]);
    let stdout = run.text();
    assert!(
        stdout.contains("::warning file=src/checkout/submitOrder.ts,line="),
        "{stdout}"
    );
    assert!(
        stdout.contains("::notice title=qapipe change report::qapipe: "),
        "{stdout}"
    );
    let quiet = action(&up, &checkout, &[("INPUT_ANNOTATIONS", "false")]);
    assert!(!quiet.text().contains("::warning"), "{}", quiet.text());
}

#[test]
fn qa_sarif_is_written_for_upload_sarif() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    action(&up, &checkout, &[]);
    let sarif_path = checkout.path.join("qa.sarif");
    assert_eq!(
        outputs(&checkout)["sarif"],
        sarif_path.display().to_string()
    );
    let sarif = json_file(&sarif_path);
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["level"] == "warning"), "{sarif:#}");
}

#[test]
fn fail_on_required_fails_the_step_yet_writes_everything() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[("INPUT_FAIL_ON", "required")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(outputs(&checkout)["verdict"], "required");
    assert!(summary(&checkout).starts_with("## qapipe change report"));
    assert!(checkout.path.join("qa.sarif").is_file());
}

#[test]
fn an_unknown_fail_on_is_a_usage_error() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[("INPUT_FAIL_ON", "sometimes")]);
    assert_eq!(run.code, 64);
    assert!(
        run.stderr
            .contains("fail-on is incomplete, required or never"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_shallow_checkout_is_deepened_to_the_merge_base() {
    let up = upstream();
    let full = Checkout::full(&up);
    action(&up, &full, &[]);
    let shallow = Checkout::shallow(&up);
    assert!(shallow.is_shallow(&up));
    let run = action(&up, &shallow, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("deepening by 50 commits"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("deepening by 100 commits"),
        "{}",
        run.stderr
    );
    let (a, b) = (outputs(&full), outputs(&shallow));
    for key in ["verdict", "intents", "scenarios", "required", "recommended"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let report = json_file(&std::path::Path::new(&b["change-dir"]).join("report.json"));
    assert_eq!(report["range"]["merge_base"], up.rev("main~3"));
}

#[test]
fn a_shallow_checkout_is_refused_with_fetch_depth_0_when_deepening_is_off() {
    let up = upstream();
    let checkout = Checkout::shallow(&up);
    let run = action(&up, &checkout, &[("INPUT_DEEPEN", "false")]);
    assert_eq!(run.code, 66, "{}", run.stderr);
    let line = "qapipe: error: the checkout is shallow and HEAD shares no history with origin/main in it: set fetch-depth: 0 on actions/checkout\n";
    assert_eq!(run.stderr, line);
    assert!(run
        .text()
        .starts_with("::error title=qapipe::the checkout is shallow"));
    assert!(checkout.is_shallow(&up), "nothing was fetched");
    assert_eq!(outputs(&checkout), BTreeMap::new());
}

#[test]
fn a_shallow_checkout_whose_origin_cannot_be_reached_is_refused_clearly() {
    let up = upstream();
    let checkout = Checkout::shallow(&up);
    up.git_in(
        &checkout.path,
        &[
            "remote",
            "set-url",
            "origin",
            "file:///nonexistent/qapipe-origin",
        ],
    );
    let run = action(&up, &checkout, &[]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(
            "qapipe: error: could not fetch the base branch main from origin: set fetch-depth: 0 on actions/checkout\n"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unknown_base_is_incomplete_never_a_pass() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[("INPUT_BASE", "no-such-ref")]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(outputs(&checkout)["verdict"], "incomplete");
    assert!(run
        .text()
        .contains("::error title=qapipe::the change flow wrote no report"));
    assert!(summary(&checkout).contains("INCOMPLETE, not a pass"));
    assert!(!checkout.path.join("qa.sarif").exists());
}

#[test]
fn a_plan_runs_the_acceptance_flow_and_its_verdict_is_the_verdict() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Welcome to the Example Shop");
    let run = action(&up, &checkout, &[("INPUT_PLAN", "plan.json")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = outputs(&checkout);
    assert_eq!(out["verdict"], "pass", "{out:?}");
    assert_eq!(out["acceptance-verdict"], "pass");
    assert_eq!(out["change-verdict"], "required");
    let dir = std::path::Path::new(&out["acceptance-dir"]);
    assert!(dir.join("junit.xml").is_file() && dir.join("SHA256SUMS").is_file());
    assert!(summary(&checkout).contains("## qapipe acceptance report"));
}

#[test]
fn a_failing_acceptance_check_fails_the_step_with_exit_1() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Goodbye");
    let run = action(
        &up,
        &checkout,
        &[("INPUT_PLAN", "plan.json"), ("INPUT_CHANGES", "false")],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = outputs(&checkout);
    assert_eq!(out["verdict"], "fail");
    assert_eq!(out["change-verdict"], "");
    assert!(!summary(&checkout).contains("qapipe change report"));
}

#[test]
fn without_the_change_flow_or_a_plan_there_is_nothing_to_run() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[("INPUT_CHANGES", "false")]);
    assert_eq!(run.code, 64);
    assert!(run.stderr.contains("nothing to run"), "{}", run.stderr);
}

#[test]
fn the_report_folder_is_a_new_private_folder_under_runner_temp() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = outputs(&checkout);
    let report_dir = std::path::Path::new(&out["report-dir"]);
    assert_eq!(
        report_dir.parent(),
        Some(checkout.runner.as_path()),
        "{out:?}"
    );
    assert_eq!(mode(report_dir), 0o700);
    assert_eq!(
        std::path::Path::new(&out["change-dir"]),
        report_dir.join("change")
    );
    assert!(!checkout.path.join(".qa/ci").exists());
    let again = action(&up, &checkout, &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_ne!(
        outputs(&checkout)["report-dir"],
        out["report-dir"],
        "a new one per run"
    );
}

#[test]
fn a_sarif_path_through_a_symlinked_folder_is_refused() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), checkout.path.join("out")).unwrap();
    let run = action(&up, &checkout, &[("INPUT_SARIF", "out/qa.sarif")]);
    assert_eq!(run.code, 64, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("is not in a folder of the working directory"),
        "{}",
        run.stderr
    );
    assert_eq!(tree(outside.path()), BTreeMap::new());
    // The control: the same path through a real folder is written.
    std::fs::remove_file(checkout.path.join("out")).unwrap();
    std::fs::create_dir(checkout.path.join("out")).unwrap();
    let run = action(&up, &checkout, &[("INPUT_SARIF", "out/qa.sarif")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(checkout.path.join("out/qa.sarif").is_file());
}

#[test]
fn a_push_to_the_base_branch_is_neutral_with_a_notice_saying_the_range_is_empty() {
    let up = upstream();
    let checkout = Checkout::of_branch(&up, "main");
    let push = [("GITHUB_EVENT_NAME", "push"), ("GITHUB_BASE_REF", "")];
    let run = action(&up, &checkout, &push);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = outputs(&checkout);
    assert_eq!(out["change-verdict"], "empty", "{out:?}\n{}", run.stderr);
    assert_eq!(out["verdict"], "empty");
    let head = &up.rev("main")[..12];
    let notice = format!(
        "::notice title=qapipe::empty range: origin/main and HEAD are the same commit ({head})"
    );
    assert!(
        run.text().lines().any(|l| l.starts_with(&notice)),
        "{}",
        run.text()
    );
    assert!(!run.text().contains("::error"), "{}", run.text());
}

#[test]
fn a_pull_request_with_commits_is_no_empty_range() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = action(&up, &checkout, &[]);
    assert_ne!(outputs(&checkout)["change-verdict"], "empty");
    assert!(!run.text().contains("empty range"), "{}", run.text());
}
