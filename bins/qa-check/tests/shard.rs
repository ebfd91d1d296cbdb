//! --shard I/N: the checks shard I owns run, every other one is written as skipped naming
//! its shard (never a pass), every observation records the shard, and bad values are one
//! usage line.

use crate::common;

use common::{directory_target, observations, qa_check, records, routed, run_in};
use qa_testkit::Repo;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn site() -> Repo {
    let repo = Repo::new();
    repo.write(
        "site/index.html",
        "<h1>Welcome</h1>\n<p>Hello, visitor</p>\n",
    );
    repo
}

/// Seven file checks (one failing), two browser checks (unverified here: no network).
fn checks() -> Vec<Value> {
    let mut all: Vec<Value> = (0..7)
        .map(|i| {
            let text = if i == 3 { "Goodbye" } else { "Welcome" };
            json!({"id": format!("file-{i}"), "kind": "file", "path": "index.html", "contains": text})
        })
        .collect();
    for i in 0..2 {
        all.push(json!({"id": format!("browser-{i}"), "kind": "browser", "tool": "search"}));
    }
    all
}

/// The observations of shard `index` of `count` over the site.
fn shard(repo: &Repo, index: u32, count: u32) -> Vec<Value> {
    let target = directory_target(repo, "site", &[]);
    let run = run_in(
        repo,
        &routed(&target, &checks()),
        &["--shard", &format!("{index}/{count}")],
    );
    observations(&records(&run, 0))
}

#[test]
fn every_check_runs_in_exactly_one_shard_and_the_others_skip_it_naming_that_shard() {
    let repo = site();
    for count in [1, 2, 3, 9, 10] {
        let mut ran: BTreeMap<String, u32> = BTreeMap::new();
        let mut skipped: Vec<(String, String)> = Vec::new();
        for index in 1..=count {
            let all = shard(&repo, index, count);
            assert_eq!(all.len(), 9, "one observation per check");
            for o in all {
                assert_eq!(o["shard"], json!({"index": index, "count": count}), "{o:#}");
                let check = o["check"].as_str().unwrap().to_string();
                if o["status"] == "skipped" {
                    assert_eq!(o["observed"], "not run");
                    skipped.push((check, o["reason"].as_str().unwrap().to_string()));
                } else {
                    assert!(ran.insert(check, index).is_none(), "run twice");
                }
            }
        }
        assert_eq!(ran.len(), 9, "{count} shards: {ran:?}");
        assert_eq!(skipped.len(), 9 * (count as usize - 1));
        for (check, reason) in skipped {
            assert_eq!(reason, format!("shard {}/{count}", ran[&check]), "{check}");
        }
    }
}

#[test]
fn the_shards_are_balanced_and_the_browser_checks_spread_first() {
    let repo = site();
    let mut per_shard = Vec::new();
    for index in 1..=2 {
        let mine: Vec<String> = shard(&repo, index, 2)
            .into_iter()
            .filter(|o| o["status"] != "skipped")
            .map(|o| o["check"].as_str().unwrap().to_string())
            .collect();
        per_shard.push(mine);
    }
    let browsers = |list: &Vec<String>| list.iter().filter(|c| c.starts_with("browser")).count();
    assert_eq!(browsers(&per_shard[0]), 1, "{per_shard:?}");
    assert_eq!(browsers(&per_shard[1]), 1, "{per_shard:?}");
    let sizes = (per_shard[0].len(), per_shard[1].len());
    assert!(sizes == (5, 4) || sizes == (4, 5), "{per_shard:?}");
}

#[test]
fn the_same_shard_runs_the_same_checks_on_every_run() {
    let repo = site();
    let owned = |repo: &Repo| -> Vec<String> {
        shard(repo, 2, 4)
            .into_iter()
            .filter(|o| o["status"] != "skipped")
            .map(|o| o["check"].to_string())
            .collect()
    };
    assert_eq!(owned(&repo), owned(&site()));
}

#[test]
fn a_shard_owning_no_check_writes_only_skipped_observations_and_exits_0() {
    let repo = site();
    let target = directory_target(&repo, "site", &[]);
    let one = [json!({"id": "only", "kind": "file", "path": "index.html", "contains": "Welcome"})];
    let stream = routed(&target, &one);
    let runs: Vec<Vec<Value>> = (1..=2)
        .map(|i| {
            observations(&records(
                &run_in(&repo, &stream, &["--shard", &format!("{i}/2")]),
                0,
            ))
        })
        .collect();
    let statuses: Vec<&str> = runs
        .iter()
        .map(|o| o[0]["status"].as_str().unwrap())
        .collect();
    assert!(
        statuses == ["pass", "skipped"] || statuses == ["skipped", "pass"],
        "{statuses:?}"
    );
}

#[test]
fn without_shard_no_observation_names_one() {
    let repo = site();
    let target = directory_target(&repo, "site", &[]);
    let run = run_in(&repo, &routed(&target, &checks()), &[]);
    for o in observations(&records(&run, 0)) {
        assert!(o.get("shard").is_none(), "{o:#}");
        assert_ne!(o["status"], "skipped");
    }
}

#[test]
fn a_bad_shard_is_a_usage_error_in_one_line_before_reading_anything() {
    for bad in ["0/4", "5/4", "4", "two/4", "1/0", "1/1001", ""] {
        let run = qa_check().invocation().args(["--shard", bad]).run();
        assert_eq!(run.code, 64, "--shard {bad:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.lines().count(),
            1,
            "--shard {bad:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("--shard"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn shard_and_exec_are_refused_together() {
    let run = qa_check()
        .invocation()
        .args(["--exec", "--shard", "1/2"])
        .run();
    assert_eq!(run.code, 64, "{}", run.stderr);
}
