//! The GitLab template job's script (pipelines/ci/gitlab.sh) on a merge request checkout
//! with the variables GitLab sets: the Code Quality report (valid against its schema),
//! the markdown, the dotenv file, JUnit for a plan, and a shallow clone deepened or refused.

use crate::common;

use common::*;

#[test]
fn a_merge_request_job_writes_a_code_quality_report_valid_against_its_schema() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let run = job(&up, &checkout, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = json_file(&checkout.path.join("gl-code-quality-report.json"));
    qa_testkit::documents::assert_valid("codequality.schema.json", &report);
    let issues = report.as_array().unwrap();
    assert!(
        issues
            .iter()
            .any(|i| i["severity"] == "major"
                && i["location"]["path"] == "src/checkout/submitOrder.ts"),
        "{report:#}"
    );
}

#[test]
fn the_markdown_report_and_the_dotenv_verdict_are_written_for_artifacts() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    job(&up, &checkout, &[]);
    let md = std::fs::read_to_string(checkout.path.join("qapipe-report.md")).unwrap();
    assert!(md.starts_with("## qapipe change report"), "{md}");
    assert!(md.contains("`origin/main`"), "{md}");
    let env = key_values(&checkout.path.join("qapipe.env"));
    assert_eq!(env["QAPIPE_VERDICT"], "required");
    assert!(env["QAPIPE_REQUIRED"].parse::<u32>().unwrap() >= 1);
}

#[test]
fn a_shallow_clone_is_deepened_to_the_merge_base() {
    let up = upstream();
    let checkout = Checkout::shallow(&up);
    let run = job(&up, &checkout, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = json_file(&checkout.path.join("qapipe-reports/change/report.json"));
    assert_eq!(report["range"]["merge_base"], up.rev("main~3"));
}

#[test]
fn a_shallow_clone_is_refused_with_git_depth_0_when_deepening_is_off() {
    let up = upstream();
    let checkout = Checkout::shallow(&up);
    let run = job(&up, &checkout, &[("QAPIPE_DEEPEN", "false")]);
    assert_eq!(run.code, 66);
    assert_eq!(
        run.stderr,
        "qapipe: error: the checkout is shallow and HEAD shares no history with origin/main in it: set GIT_DEPTH: 0 in the job's variables\n"
    );
    assert!(
        run.stdout.is_empty(),
        "no GitHub workflow commands on GitLab"
    );
    assert!(!checkout.path.join("gl-code-quality-report.json").exists());
}

#[test]
fn a_plan_gives_the_junit_report() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Welcome to the Example Shop");
    let run = job(&up, &checkout, &[("QAPIPE_PLAN", "plan.json")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let junit = std::fs::read_to_string(checkout.path.join("qapipe-junit.xml")).unwrap();
    assert!(
        junit.contains("<testsuite") && junit.contains("<testcase name=\"greets\""),
        "{junit}"
    );
    let md = std::fs::read_to_string(checkout.path.join("qapipe-acceptance.md")).unwrap();
    assert!(md.starts_with("## qapipe acceptance report"), "{md}");
    assert_eq!(
        key_values(&checkout.path.join("qapipe.env"))["QAPIPE_VERDICT"],
        "pass"
    );
}

#[test]
fn files_of_an_earlier_run_are_not_left_for_the_artifacts() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    std::fs::write(checkout.path.join("qapipe-junit.xml"), "<stale/>").unwrap();
    job(&up, &checkout, &[]);
    assert!(!checkout.path.join("qapipe-junit.xml").exists());
}

#[test]
fn under_parallel_the_job_runs_its_node_as_the_acceptance_shard() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Welcome to the Example Shop");
    let run = job(
        &up,
        &checkout,
        &[
            ("QAPIPE_PLAN", "plan.json"),
            ("QAPIPE_CHANGES", "false"),
            ("CI_NODE_INDEX", "2"),
            ("CI_NODE_TOTAL", "4"),
        ],
    );
    assert!(
        run.stderr.contains("qapipe: acceptance flow: ") && run.stderr.contains(" (shard 2/4)\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_explicit_shard_wins_over_the_parallel_node() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Welcome to the Example Shop");
    let run = job(
        &up,
        &checkout,
        &[
            ("QAPIPE_PLAN", "plan.json"),
            ("QAPIPE_CHANGES", "false"),
            ("QAPIPE_SHARD", "1/1"),
            ("CI_NODE_INDEX", "2"),
            ("CI_NODE_TOTAL", "4"),
        ],
    );
    assert!(run.stderr.contains(" (shard 1/1)\n"), "{}", run.stderr);
}

#[test]
fn the_report_folders_are_copied_into_qapipe_reports_and_the_temp_folder_removed() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    checkout.write_plan("Welcome to the Example Shop");
    let temp = tempfile::tempdir().unwrap();
    let tmpdir = temp.path().display().to_string();
    let run = job(
        &up,
        &checkout,
        &[("QAPIPE_PLAN", "plan.json"), ("TMPDIR", &tmpdir)],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let reports = checkout.path.join("qapipe-reports");
    assert_eq!(mode(&reports), 0o700);
    assert!(json_file(&reports.join("change/report.json"))["counts"].is_object());
    assert!(reports.join("acceptance/junit.xml").is_file());
    assert!(reports.join("acceptance/SHA256SUMS").is_file());
    assert_eq!(tree(temp.path()), std::collections::BTreeMap::new());
}

#[test]
fn a_qapipe_reports_already_in_the_checkout_is_refused() {
    let up = upstream();
    let checkout = Checkout::full(&up);
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), checkout.path.join("qapipe-reports")).unwrap();
    let run = job(&up, &checkout, &[]);
    assert_eq!(run.code, 66, "{}", run.stderr);
    assert!(
        run.stderr.contains("qapipe-reports is already there"),
        "{}",
        run.stderr
    );
    assert_eq!(tree(outside.path()), std::collections::BTreeMap::new());
}

#[test]
fn a_push_pipeline_on_the_base_branch_is_neutral_and_says_the_range_is_empty() {
    let up = upstream();
    let checkout = Checkout::of_branch(&up, "main");
    let push = [
        ("CI_PIPELINE_SOURCE", "push"),
        ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", ""),
        ("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", ""),
    ];
    let run = job(&up, &checkout, &push);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let env = key_values(&checkout.path.join("qapipe.env"));
    assert_eq!(env["QAPIPE_CHANGE_VERDICT"], "empty", "{env:?}");
    assert!(
        run.stderr.contains(
            "qapipe: change flow: empty: empty range: origin/main and HEAD are the same commit"
        ),
        "{}",
        run.stderr
    );
}
