//! A sharded acceptance run end to end: `pipelines/acceptance.sh PLAN --shard I/N` on one
//! project per CI job, then `qa-report --merge` over the run folders: the merged verdict
//! and each check's status equal the whole run's, for 1, 2, 4 and 7 shards; a tampered,
//! missing, unfinished or foreign shard is refused or leaves the verdict incomplete, with
//! the reason. Every record of every run folder is validated against schema/.

use crate::common;

use common::acceptance::*;
use qa_testkit::http::{Reply, Server};
use qa_testkit::run::bin_dir;
use qa_testkit::{Program, Run};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shop plan with two file checks per criterion: six checks, so one of seven shards
/// owns none.
fn passing_plan() -> Value {
    let mut plan = shop_plan();
    let more = [
        file_check("home-html", "greets", "index.html", "<h1>"),
        file_check("refund-amount", "refunds", "index.html", "100 EUR"),
        file_check("footer-tag", "footer", "index.html", "<footer>"),
    ];
    plan["checks"].as_array_mut().unwrap().extend(more);
    plan
}

/// A server with a home page, health, items and about pages.
fn shop_server() -> Server {
    Server::start([
        ("/", Reply::ok("<h1>Example Shop</h1>")),
        ("/health", Reply::ok("status: ok")),
        ("/api/items", Reply::ok("[{\"id\": 1, \"name\": \"lamp\"}]")),
        ("/about", Reply::ok("Example Shop GmbH, Berlin")),
    ])
}

/// Eight http checks over three criteria against `server`; `cart-total` fails (the page
/// is not there).
fn failing_plan(server: &Server) -> Value {
    plan(
        url(&server.url("/")),
        vec![
            request("up", "The service answers"),
            request("items", "The catalogue lists items"),
            request("about", "The about page names the company"),
        ],
        vec![
            http_check("home", "up", "/", Some(200), Some("Example Shop")),
            http_check("health", "up", "/health", Some(200), Some("ok")),
            http_check("health-text", "up", "/health", None, Some("status")),
            http_check("items-status", "items", "/api/items", Some(200), None),
            http_check("items-lamp", "items", "/api/items", None, Some("lamp")),
            http_check("cart-total", "items", "/cart", Some(200), None),
            http_check("about-company", "about", "/about", Some(200), Some("GmbH")),
            http_check("about-city", "about", "/about", None, Some("Berlin")),
        ],
    )
}

/// Shard `index` of `count` through pipelines/acceptance.sh.
fn shard(project: &Project, flags: &[&str], index: u32, count: u32) -> Outcome {
    let value = format!("{index}/{count}");
    let mut all: Vec<&str> = flags.to_vec();
    all.extend(["--shard", &value]);
    project.pipeline().flags(&all).run_script()
}

/// `qa-report --merge DIRS --repo PROJECT` (the merged run folder goes under the
/// project's .qa/acceptance), as it exited.
fn merge_run(project: &Project, dirs: &[&Path]) -> Run {
    Program::built("qa-report")
        .invocation()
        .arg("--merge")
        .args(dirs)
        .arg("--repo")
        .arg(project.path())
        .run()
}

/// The merge of `dirs`, its run folder read back (records validated against schema/).
fn merge(project: &Project, dirs: &[&Path]) -> Outcome {
    let before = project.run_dirs();
    let run = merge_run(project, dirs);
    Outcome::read(project, &before, vec![run])
}

/// What must be the same whole or sharded: the verdict with its reasons, each criterion
/// with its status and reasons, and each check's observation (status and what was
/// observed) by the shard that ran it.
#[derive(Debug, PartialEq)]
struct Judged {
    code: i32,
    verdict: Value,
    criteria: Vec<Value>,
    checks: BTreeMap<String, (String, String)>,
}

fn judged(outcome: &Outcome) -> Judged {
    let criteria = outcome.report["criteria"]
        .as_array()
        .expect("criteria")
        .iter()
        .map(|c| json!({"id": c["id"], "status": c["status"], "reasons": c["reasons"]}))
        .collect();
    let mut checks = BTreeMap::new();
    for o in ran(outcome) {
        let check = o["check"].as_str().unwrap().to_string();
        let seen = (
            o["status"].as_str().unwrap().to_string(),
            o["observed"].as_str().unwrap().to_string(),
        );
        assert!(
            checks.insert(check.clone(), seen).is_none(),
            "check {check} was observed twice\n{}",
            outcome.summary()
        );
    }
    Judged {
        code: outcome.code,
        verdict: json!({
            "status": outcome.report["verdict"]["status"],
            "reasons": outcome.report["verdict"]["reasons"],
        }),
        criteria,
        checks,
    }
}

/// The data of every observation that is not `skipped`.
fn ran(outcome: &Outcome) -> Vec<&Value> {
    qa_testkit::of_kind(&outcome.records, "observation")
        .into_iter()
        .map(|r| &r["data"])
        .filter(|d| d["status"] != "skipped")
        .collect()
}

/// Runs the plan whole, then as 1, 2, 4 and 7 shards merged, and asserts every merge
/// judges as the whole run did; returns the whole run's judgement.
fn assert_sharding_changes_nothing(project: &Project, flags: &[&str]) -> Judged {
    let whole = judged(&project.pipeline().flags(flags).run_script());
    for count in [1, 2, 4, 7] {
        let shards: Vec<Outcome> = (1..=count)
            .map(|index| shard(project, flags, index, count))
            .collect();
        for (at, outcome) in shards.iter().enumerate() {
            assert_shard_observations(outcome, at as u32 + 1, count);
        }
        let dirs: Vec<&Path> = shards.iter().map(|s| s.dir.as_path()).collect();
        let merged = merge(project, &dirs);
        assert_eq!(
            judged(&merged),
            whole,
            "{count} shards merged judge otherwise than the whole run\n{}",
            merged.summary()
        );
        merged.assert_checksums_valid();
        merged.assert_records_verify();
        assert_eq!(merged.files(), RUN_FILES);
        assert_junit_lists_every_criterion(&merged);
        let verdicts = qa_testkit::of_kind(&merged.records, "verdict");
        assert_eq!(verdicts.len(), 1, "the shards' own verdicts are not merged");
    }
    whole
}

/// Every observation of shard `index`/`count` names it; the checks it did not run are
/// skipped naming another shard, never passed.
fn assert_shard_observations(outcome: &Outcome, index: u32, count: u32) {
    for o in qa_testkit::of_kind(&outcome.records, "observation") {
        let d = &o["data"];
        assert_eq!(d["shard"], json!({"index": index, "count": count}), "{d:#}");
        if d["status"] == "skipped" {
            let reason = d["reason"].as_str().unwrap();
            let owner: u32 = reason
                .strip_prefix("shard ")
                .and_then(|r| r.strip_suffix(&format!("/{count}")))
                .and_then(|j| j.parse().ok())
                .unwrap_or_else(|| panic!("reason {reason:?} is not `shard J/{count}`"));
            assert_ne!(owner, index, "{d:#}");
            assert!((1..=count).contains(&owner), "{d:#}");
        }
    }
    if count > 1 {
        assert_ne!(
            outcome.verdict(),
            "pass",
            "shard {index}/{count} alone passed\n{}",
            outcome.summary()
        );
    }
}

fn assert_junit_lists_every_criterion(outcome: &Outcome) {
    let junit = fs::read_to_string(outcome.dir.join("junit.xml")).expect("junit.xml");
    for c in outcome.report["criteria"].as_array().unwrap() {
        let name = format!("<testcase name=\"{}\"", c["id"].as_str().unwrap());
        assert!(
            junit.contains(&name),
            "{name} missing from junit.xml:\n{junit}"
        );
    }
}

// --- the same verdict whole and sharded -------------------------------------------------

#[test]
fn a_passing_plan_merges_to_pass_from_1_2_4_and_7_shards_as_it_passes_whole() {
    let project = Project::shop();
    project.plan(&passing_plan());

    let whole = assert_sharding_changes_nothing(&project, &[]);

    assert_eq!(whole.verdict["status"], "pass");
    assert_eq!(whole.code, 0);
    assert_eq!(whole.checks.len(), 6);
}

#[test]
fn a_plan_with_a_failing_http_check_merges_to_fail_from_1_2_4_and_7_shards_as_whole() {
    let server = shop_server();
    let project = Project::empty();
    project.plan(&failing_plan(&server));

    let whole = assert_sharding_changes_nothing(&project, &["--allow-network"]);

    assert_eq!(whole.verdict["status"], "fail");
    assert_eq!(whole.code, 1);
    assert_eq!(whole.checks["cart-total"].0, "fail");
    assert_eq!(whole.checks["home"].0, "pass");
    assert_eq!(whole.checks.len(), 8);
}

#[test]
fn shard_flags_reach_qa_check_alone_and_every_check_runs_in_exactly_one_shard() {
    let server = shop_server();
    let project = Project::empty();
    project.plan(&failing_plan(&server));

    let shards: Vec<Outcome> = (1..=3)
        .map(|i| shard(&project, &["--allow-network"], i, 3))
        .collect();

    let mut owner = BTreeMap::new();
    for (at, outcome) in shards.iter().enumerate() {
        for o in ran(outcome) {
            let previous = owner.insert(o["check"].to_string(), at + 1);
            assert_eq!(previous, None, "{} ran in two shards", o["check"]);
        }
    }
    assert_eq!(owner.len(), 8, "{owner:?}");
    // Two checks each read /about and /api/items: each ran once over all the shards.
    assert_eq!(server.calls("/about"), 2);
    assert_eq!(server.calls("/api/items"), 2);
}

#[test]
fn a_lone_shard_of_several_is_incomplete_naming_the_shards_it_left_to_others() {
    let project = Project::shop();
    project.plan(&passing_plan());

    let outcome = shard(&project, &[], 1, 2);

    outcome.assert_verdict("incomplete", 2);
    assert!(
        outcome.run_reasons().contains("was skipped: shard 2/2"),
        "{}",
        outcome.summary()
    );
}

// --- refused or incomplete merges -------------------------------------------------------

/// The passing plan run as `count` shards.
fn passing_shards(project: &Project, count: u32) -> Vec<Outcome> {
    project.plan(&passing_plan());
    (1..=count).map(|i| shard(project, &[], i, count)).collect()
}

fn dirs(shards: &[Outcome]) -> Vec<&Path> {
    shards.iter().map(|s| s.dir.as_path()).collect()
}

/// Asserts the merge of `dirs` exits `code` with `needles` on stderr, writing no run folder.
fn assert_refused(project: &Project, dirs: &[&Path], code: i32, needles: &[&str]) {
    let before = project.run_dirs();
    let run = merge_run(project, dirs);
    assert_eq!(run.code, code, "stderr:\n{}", run.stderr);
    for needle in needles {
        assert!(
            run.stderr.contains(needle),
            "stderr does not mention {needle:?}:\n{}",
            run.stderr
        );
    }
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(
        project.run_dirs(),
        before,
        "a refused merge left a run folder"
    );
}

#[test]
fn a_shard_with_one_byte_changed_in_its_records_is_refused_naming_the_file() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let records = shards[1].dir.join("records.ndjson");
    let mut bytes = fs::read(&records).unwrap();
    let at = bytes
        .windows(6)
        .position(|w| w == b"\"pass\"")
        .expect("a pass");
    bytes[at + 1] = b'P';
    fs::write(&records, bytes).unwrap();

    assert_refused(
        &project,
        &dirs(&shards),
        65,
        &[&records.display().to_string(), "does not match SHA256SUMS"],
    );
}

#[test]
fn a_shard_with_a_record_changed_and_its_checksums_rewritten_is_refused_by_the_record_id() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let dir = &shards[0].dir;
    let text = fs::read_to_string(dir.join("records.ndjson")).unwrap();
    let forged = text.replacen("\"status\":\"skipped\"", "\"status\":\"pass\"", 1);
    assert_ne!(forged, text, "shard 1/2 skipped nothing");
    fs::write(dir.join("records.ndjson"), &forged).unwrap();
    rewrite_sums(dir);

    assert_refused(
        &project,
        &dirs(&shards),
        65,
        &["records.ndjson line", "does not match its content"],
    );
}

/// SHA256SUMS recomputed over the folder's files, as a forger would.
fn rewrite_sums(dir: &Path) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("sha256sum records.ndjson report.json report.md report.html junit.xml events.ndjson > SHA256SUMS")
        .current_dir(dir)
        .output()
        .expect("sha256sum");
    assert!(out.status.success());
}

#[test]
fn a_missing_shard_leaves_the_merged_verdict_incomplete_naming_it_and_its_checks() {
    let project = Project::shop();
    let shards = passing_shards(&project, 4);
    let given: Vec<&Path> = dirs(&shards)
        .into_iter()
        .enumerate()
        .filter(|(at, _)| *at != 2)
        .map(|(_, d)| d)
        .collect();

    let merged = merge(&project, &given);

    merged.assert_verdict("incomplete", 2);
    let reasons = merged.run_reasons();
    assert!(
        reasons.contains("shard 3/4 was not given: its check"),
        "{}",
        merged.summary()
    );
    let missing: Vec<&str> = qa_testkit::of_kind(&shards[2].records, "observation")
        .into_iter()
        .map(|r| &r["data"])
        .filter(|d| d["status"] != "skipped")
        .map(|d| d["check"].as_str().unwrap())
        .collect();
    assert!(!missing.is_empty());
    for check in missing {
        assert!(reasons.contains(check), "{check} not named\n{reasons}");
        assert!(
            reasons.contains(&format!("check {check} was skipped: shard 3/4")),
            "{}",
            merged.summary()
        );
    }
}

#[test]
fn a_shard_that_did_not_finish_leaves_the_merged_verdict_incomplete_naming_it() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    // Shard 2 again, its pipeline broken after qa-check: no qa-fetch --verify, no qa-trace.
    let broken = unfinished_shard(&project, "2/2");

    let merged = merge(&project, &[shards[0].dir.as_path(), broken.as_path()]);

    merged.assert_verdict("incomplete", 2);
    assert!(
        merged
            .run_reasons()
            .contains("did not finish: no records from qa-fetch --verify, qa-trace"),
        "{}",
        merged.summary()
    );
    assert!(
        merged.run_reasons().contains(&broken.display().to_string()),
        "{}",
        merged.summary()
    );
}

/// Runs `qa-intent --plan | qa-fetch | qa-route | qa-check --shard SHARD | qa-report
/// --acceptance` in `project` (no recapture, no trace) and returns the new run folder.
fn unfinished_shard(project: &Project, shard: &str) -> PathBuf {
    pipeline_dir(
        project,
        &format!(
            "qa-intent --plan {PLAN} | qa-fetch | qa-route | qa-check --shard {shard} | qa-report --acceptance"
        ),
    )
}

/// Runs the shell pipeline `script` in `project` with the built binaries first on PATH;
/// returns the one run folder it added.
fn pipeline_dir(project: &Project, script: &str) -> PathBuf {
    let before = project.run_dirs();
    let out = sh(project, script);
    let new: Vec<PathBuf> = project.run_dirs().difference(&before).cloned().collect();
    assert_eq!(
        new.len(),
        1,
        "{script}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    new.into_iter().next().unwrap()
}

#[test]
fn a_shard_of_another_plan_is_refused_naming_both_plans() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let plan_sha = |o: &Outcome| {
        qa_testkit::one(&o.records, "plan")["sha256"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut other = passing_plan();
    other["checks"][0]["contains"] = json!("Welcome");
    project.plan(&other);
    let foreign = shard(&project, &[], 2, 2);

    assert_refused(
        &project,
        &[shards[0].dir.as_path(), foreign.dir.as_path()],
        65,
        &[
            &format!(
                "shard 2/2 ({}) ran plan sha256:{}",
                foreign.dir.display(),
                plan_sha(&foreign)
            ),
            &format!(
                "shard 1/2 ({}) ran sha256:{}",
                shards[0].dir.display(),
                plan_sha(&shards[0])
            ),
        ],
    );
}

#[test]
fn a_shard_run_against_another_target_is_refused_naming_both_captures() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    project.edit("site/index.html", "<footer>", "<footer class=\"v2\">");
    let other = shard(&project, &[], 2, 2);
    let capture = |o: &Outcome| o.target()["sha256"].as_str().unwrap().to_string();
    assert_ne!(capture(&other), capture(&shards[0]));

    assert_refused(
        &project,
        &[shards[0].dir.as_path(), other.dir.as_path()],
        65,
        &[
            &format!("captured target site as sha256:{}", capture(&other)),
            &format!("as sha256:{}: not the same target", capture(&shards[0])),
        ],
    );
}

/// A host profile whose `qa` environment serves the app at `app` and reports its
/// deployed build at `version`.
fn profile(app: &Server, version: &Server) -> String {
    format!(
        "project: shop\ntracker: none\napps:\n  storefront: {{framework: react, spec_dir: e2e, repo: .}}\n\
         environments:\n  qa:\n    kind: qa\n    apps: {{storefront: \"{}\"}}\n    sha_source: {{url: \"{}\", json_path: commit}}\n\
         auth: {{model: dev-handoff, playwright_min: \"1.51.0\", storage_state: {{indexed_db: true}}}}\n\
         assertions: {{network_events: allowed, style: mixed}}\nselectors: {{testid_attribute: data-testid}}\n\
         models: {{generation_approved: [model-a]}}\nsandbox: {{mode: {{env_var: VITE_API_MODE, value: mocks}}}}\n",
        app.url("/"),
        version.url("/version.json")
    )
}

#[test]
fn a_shard_run_against_another_deployed_build_is_refused_naming_both_builds() {
    let app = shop_server();
    let build = |commit: &str| {
        Server::start([(
            "/version.json",
            Reply::ok(format!("{{\"commit\": \"{commit}\"}}")),
        )])
    };
    let (old, new) = (build("1111111aaaa"), build("2222222bbbb"));
    let project = Project::empty();
    project.plan(&plan(
        json!({"kind": "url", "env": "qa", "app": "storefront"}),
        vec![request("up", "The service answers")],
        vec![
            http_check("home", "up", "/", Some(200), None),
            http_check("health", "up", "/health", Some(200), None),
        ],
    ));
    let run = |version: &Server, shard: &str| {
        project.write("profile.yaml", profile(&app, version));
        pipeline_dir(
            &project,
            &format!(
                "qa-profile profile.yaml --ndjson | qa-intent --plan {PLAN} --in - \
                 | qa-fetch --env qa --allow-network | qa-route --allow-network \
                 | qa-check --allow-network --shard {shard} | qa-fetch --verify --allow-network \
                 | qa-trace | qa-report --acceptance"
            ),
        )
    };
    let first = run(&old, "1/2");
    let second = run(&new, "2/2");

    assert_refused(
        &project,
        &[first.as_path(), second.as_path()],
        65,
        &[
            "ran against build 2222222bbbb of environment qa",
            "ran against build 1111111aaaa",
        ],
    );
}

#[test]
fn the_same_shard_given_twice_is_refused() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let again = shard(&project, &[], 2, 2);

    assert_refused(
        &project,
        &[shards[1].dir.as_path(), again.dir.as_path()],
        65,
        &["shard 2/2 is given twice"],
    );
}

#[test]
fn shards_of_different_counts_are_refused() {
    let project = Project::shop();
    let halves = passing_shards(&project, 2);
    let thirds = passing_shards(&project, 3);

    assert_refused(
        &project,
        &[halves[0].dir.as_path(), thirds[1].dir.as_path()],
        65,
        &["is one of 3 shards but shard 1/2", "is one of 2"],
    );
}

#[test]
fn a_merge_of_a_folder_that_does_not_exist_is_66() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let gone = project.path().join("no-such-shard");

    assert_refused(
        &project,
        &[shards[0].dir.as_path(), gone.as_path()],
        66,
        &["no-such-shard"],
    );
}

#[test]
fn a_folder_holding_one_run_folder_is_merged_as_that_run_folder() {
    let project = Project::shop();
    let shards = passing_shards(&project, 2);
    let artifacts = project.path().join("artifacts");
    for (at, s) in shards.iter().enumerate() {
        let into = artifacts.join(format!("shard-{}", at + 1));
        fs::create_dir_all(&into).unwrap();
        let status = Command::new("cp")
            .arg("-rp")
            .arg(&s.dir)
            .arg(&into)
            .status()
            .unwrap();
        assert!(status.success());
    }

    let merged = merge(
        &project,
        &[&artifacts.join("shard-1"), &artifacts.join("shard-2")],
    );

    merged.assert_verdict("pass", 0);
}

/// The shard of `count` that owns check `id` in `project`'s plan, as qa-check deals it
/// (found without the network: every check is then unverified, none waits).
fn owner_of(project: &Project, id: &str, count: u32) -> u32 {
    let out = sh(
        project,
        &format!("qa-intent --plan {PLAN} | qa-fetch | qa-route | qa-check --shard 1/{count}"),
    );
    let records = qa_testkit::parse(&out.stdout);
    let observation = qa_testkit::of_kind(&records, "observation")
        .into_iter()
        .map(|r| &r["data"])
        .find(|d| d["check"] == id)
        .unwrap_or_else(|| panic!("no observation of {id}"));
    match observation["reason"].as_str() {
        Some(reason) if observation["status"] == "skipped" => reason
            .strip_prefix("shard ")
            .and_then(|r| r.split('/').next())
            .and_then(|j| j.parse().ok())
            .expect("shard J/N"),
        _ => 1,
    }
}

#[test]
fn a_shard_cancelled_mid_run_leaves_the_merged_verdict_incomplete_naming_it_not_cancelled() {
    let server = Server::start([
        ("/", Reply::ok("home")),
        ("/health", Reply::ok("ok")),
        (
            "/export",
            Reply::ok("done").delayed(std::time::Duration::from_secs(30)),
        ),
    ]);
    let project = Project::empty();
    project.plan(&plan(
        url(&server.url("/")),
        vec![request("up", "The service answers")],
        vec![
            http_check("health", "up", "/health", Some(200), Some("ok")),
            http_check("home", "up", "/", Some(200), None),
            http_check("export", "up", "/export", Some(200), None),
        ],
    ));
    let owner = owner_of(&project, "export", 2);
    let flags = ["--allow-network", "--timeout", "60"];
    let other = shard(&project, &flags, 3 - owner, 2);
    let before = project.run_dirs();
    let mut all: Vec<&str> = flags.to_vec();
    let value = format!("{owner}/2");
    all.extend(["--shard", &value]);
    let group = qa_testkit::process::Group::spawn(project.pipeline().flags(&all).script());
    assert!(
        server.wait_for("/export", std::time::Duration::from_secs(10)),
        "qa-check never requested /export"
    );
    assert!(group.signal("INT"));
    let output = group
        .wait(std::time::Duration::from_secs(10))
        .expect("the shard was still running 10 s after SIGINT");
    assert_eq!(output.status.code(), Some(130), "{}", output.stderr);
    let cancelled: Vec<PathBuf> = project.run_dirs().difference(&before).cloned().collect();
    assert_eq!(cancelled.len(), 1);

    let merged = merge(&project, &[other.dir.as_path(), cancelled[0].as_path()]);

    merged.assert_verdict("incomplete", 2);
    let reasons = merged.run_reasons();
    assert!(
        reasons.contains(&format!(
            "shard {owner}/2 ({}) was cancelled",
            cancelled[0].display()
        )),
        "{}",
        merged.summary()
    );
    assert!(reasons.contains("check export was cancelled"), "{reasons}");
}

/// `sh -c script` in `project` with the built binaries first on PATH, as it ended.
fn sh(project: &Project, script: &str) -> std::process::Output {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(project.path())
        .env("PATH", path)
        .output()
        .expect("running sh")
}
