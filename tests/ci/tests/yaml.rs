//! Every workflow and template file parses as YAML and has the shape the scripts and the
//! other files rely on: action.yml's inputs, outputs and composite steps match what
//! pipelines/ci/github.sh reads and writes; the example workflows use only real inputs and
//! outputs; the GitLab job's reports are the files pipelines/ci/gitlab.sh writes.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// The YAML files under examples/ci/ and action.yml, as repository paths.
fn yaml_files() -> Vec<String> {
    let mut files = vec![
        "action.yml".to_string(),
        ".github/workflows/release.yml".to_string(),
    ];
    for dir in ["examples/ci/github", "examples/ci/gitlab"] {
        for entry in std::fs::read_dir(source(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".yml") || name.ends_with(".yaml") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

fn keys(map: &Value) -> BTreeSet<String> {
    map.as_object()
        .unwrap_or_else(|| panic!("not a mapping: {map}"))
        .keys()
        .cloned()
        .collect()
}

fn script(name: &str) -> String {
    std::fs::read_to_string(source(&format!("pipelines/ci/{name}"))).unwrap()
}

/// Every `PREFIX[A-Z_]+` name mentioned in `text`.
fn names_with(prefix: &str, text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.insert(format!("{prefix}{}", &rest[..end]));
        }
    }
    out
}

/// The github.sh variable of an action input: `fail-on` is INPUT_FAIL_ON.
fn input_variable(input: &str) -> String {
    format!("INPUT_{}", input.to_uppercase().replace('-', "_"))
}

#[test]
fn every_workflow_and_template_file_is_valid_yaml() {
    let files = yaml_files();
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        assert!(yaml(&file).is_object(), "{file} is not a mapping");
    }
}

#[test]
fn action_yml_is_a_composite_action_with_described_inputs_and_outputs() {
    let action = yaml("action.yml");
    assert!(action["name"].is_string() && action["description"].is_string());
    assert_eq!(action["runs"]["using"], "composite");
    for (name, input) in action["inputs"].as_object().unwrap() {
        assert!(input["description"].is_string(), "input {name}");
        assert!(
            input["default"].is_string(),
            "input {name} has a string default"
        );
    }
    for (name, output) in action["outputs"].as_object().unwrap() {
        assert!(output["description"].is_string(), "output {name}");
        assert_eq!(
            output["value"],
            format!("${{{{ steps.run.outputs.{name} }}}}"),
            "output {name}"
        );
    }
    let steps = action["runs"]["steps"].as_array().unwrap();
    let runs: Vec<&str> = steps.iter().map(|s| s["run"].as_str().unwrap()).collect();
    assert_eq!(
        runs,
        [
            "sh \"$GITHUB_ACTION_PATH/pipelines/ci/install.sh\"",
            "sh \"$GITHUB_ACTION_PATH/pipelines/ci/github.sh\""
        ]
    );
    for step in steps {
        assert!(
            step["shell"].is_string(),
            "a composite run step names its shell"
        );
    }
    assert_eq!(steps[1]["id"], "run");
}

#[test]
fn every_action_input_reaches_the_scripts_and_every_variable_they_read_is_an_input() {
    let action = yaml("action.yml");
    let inputs = keys(&action["inputs"]);
    let run_env = &action["runs"]["steps"][1]["env"];
    let passed = keys(run_env);
    let read = names_with("INPUT_", &script("github.sh"));
    assert_eq!(
        passed, read,
        "the run step's env against what github.sh reads"
    );
    for variable in &passed {
        let input = variable
            .strip_prefix("INPUT_")
            .unwrap()
            .to_lowercase()
            .replace('_', "-");
        assert!(inputs.contains(&input), "{variable}: no input {input}");
        assert_eq!(
            run_env[variable],
            format!("${{{{ inputs.{input} }}}}"),
            "{variable}"
        );
    }
    let install_env = &action["runs"]["steps"][0]["env"];
    for input in &inputs {
        let used = passed.contains(&input_variable(input))
            || install_env
                .as_object()
                .unwrap()
                .values()
                .any(|v| v == &format!("${{{{ inputs.{input} }}}}"))
            || action["runs"]["steps"][1]["if"]
                .as_str()
                .is_some_and(|c| c.contains(&format!("inputs.{input}")));
        assert!(used, "input {input} is used by no step");
    }
}

#[test]
fn every_action_output_is_written_by_the_run_script() {
    let action = yaml("action.yml");
    let github = script("github.sh");
    let written: BTreeSet<String> = github
        .lines()
        .filter_map(|l| l.trim().strip_prefix("output "))
        .filter_map(|l| l.split_once(' ').map(|(k, _)| k.to_string()))
        .filter(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    assert_eq!(keys(&action["outputs"]), written);
}

/// The steps of every job in a workflow that use the qapipe action.
fn qapipe_steps(workflow: &Value) -> Vec<&Value> {
    workflow["jobs"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|job| job["steps"].as_array().unwrap())
        .filter(|s| s["uses"] == QAPIPE_ACTION)
        .collect()
}

/// Where the examples check qapipe out and use it from by path.
const QAPIPE_ACTION: &str = "./.qapipe";

#[test]
fn every_example_takes_qapipe_from_the_two_documented_variables() {
    for (file, workflow) in workflows() {
        for (name, job) in workflow["jobs"].as_object().unwrap() {
            let steps = job["steps"].as_array().unwrap();
            let Some(used) = steps.iter().position(|s| s["uses"] == QAPIPE_ACTION) else {
                continue;
            };
            let checkout = steps[..used]
                .iter()
                .find(|s| s["with"]["path"] == ".qapipe")
                .unwrap_or_else(|| panic!("{file}: {name}: no checkout of qapipe before it"));
            assert_eq!(
                checkout["with"]["repository"],
                "${{ vars.QAPIPE_REPOSITORY }}"
            );
            assert_eq!(checkout["with"]["ref"], "${{ vars.QAPIPE_REF }}");
            assert_eq!(
                steps[used]["with"]["repository"], "${{ vars.QAPIPE_REPOSITORY }}",
                "{file}: {name}: the installer must know where the release is"
            );
        }
        let text = std::fs::read_to_string(source(&file)).unwrap();
        assert!(
            text.contains("QAPIPE_REPOSITORY and"),
            "{file}: its header names the variables"
        );
    }
    for file in yaml_files() {
        let text = std::fs::read_to_string(source(&file)).unwrap();
        assert!(
            !text.contains("qapipe/qapipe"),
            "{file} names a placeholder owner"
        );
    }
}

#[test]
fn the_gitlab_template_stops_naming_the_two_variables_when_they_are_unset() {
    let template = yaml("examples/ci/gitlab/qapipe.gitlab-ci.yml");
    let variables = &template[".qapipe"]["variables"];
    assert_eq!(variables["QAPIPE_REPOSITORY"], "");
    assert_eq!(variables["QAPIPE_VERSION"], "");
    let check = template[".qapipe"]["before_script"][0].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = |repository: &str, version: &str| {
        std::process::Command::new("sh")
            .args(["-c", check])
            .env("QAPIPE_REPOSITORY", repository)
            .env("QAPIPE_VERSION", version)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let unset = run("", "0.1.0");
    assert_eq!(unset.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&unset.stderr).contains("QAPIPE_REPOSITORY"));
    assert_eq!(run("me/qapipe", "").status.code(), Some(64));
    assert!(run("me/qapipe", "0.1.0").status.success());
}

#[test]
fn the_release_workflow_builds_every_platform_on_a_version_tag_and_publishes_one_sums_file() {
    let workflow = yaml(".github/workflows/release.yml");
    assert_eq!(workflow["on"]["push"]["tags"], serde_json::json!(["v*"]));
    let dist = &workflow["jobs"]["dist"];
    let targets: BTreeSet<&str> = dist["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["target"].as_str().unwrap())
        .collect();
    for target in [
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "aarch64-apple-darwin",
        "x86_64-apple-darwin",
    ] {
        assert!(targets.contains(target), "{target}: {targets:?}");
    }
    let runs = |job: &Value| -> Vec<String> {
        job["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["run"].as_str().map(str::to_string))
            .collect()
    };
    let built = runs(dist);
    assert!(
        built
            .iter()
            .any(|r| r.contains("release.sh tag \"$GITHUB_REF_NAME\"")),
        "{built:?}"
    );
    assert!(
        built
            .iter()
            .any(|r| r == "make dist TARGET=${{ matrix.target }}"),
        "{built:?}"
    );
    let publish = &workflow["jobs"]["publish"];
    assert_eq!(publish["needs"], "dist");
    assert_eq!(publish["permissions"]["contents"], "write");
    let published = runs(publish);
    assert!(
        published
            .iter()
            .any(|r| r == "sh pipelines/ci/release.sh assemble release parts/dist-*"),
        "{published:?}"
    );
    assert!(published
        .iter()
        .any(|r| r.starts_with("gh release create \"$GITHUB_REF_NAME\" release/*")));
    assert_eq!(
        workflow["permissions"]["contents"], "read",
        "only publish may write"
    );
}

fn workflows() -> Vec<(String, Value)> {
    yaml_files()
        .into_iter()
        .filter(|f| f.starts_with("examples/ci/github/"))
        .map(|f| {
            let v = yaml(&f);
            (f, v)
        })
        .collect()
}

#[test]
fn every_example_workflow_has_triggers_and_jobs_with_steps() {
    let workflows = workflows();
    assert_eq!(
        workflows.len(),
        3,
        "pull request, code scanning, acceptance"
    );
    for (file, workflow) in &workflows {
        assert!(workflow["on"].is_object(), "{file}: on");
        for (name, job) in workflow["jobs"].as_object().unwrap() {
            assert!(job["runs-on"].is_string(), "{file}: {name}: runs-on");
            assert!(
                !job["steps"].as_array().unwrap().is_empty(),
                "{file}: {name}"
            );
        }
        assert!(!qapipe_steps(workflow).is_empty(), "{file} uses the action");
    }
}

#[test]
fn the_example_workflows_pass_only_inputs_the_action_has_and_read_only_its_outputs() {
    let action = yaml("action.yml");
    let inputs = keys(&action["inputs"]);
    let outputs = keys(&action["outputs"]);
    for (file, workflow) in workflows() {
        for step in qapipe_steps(&workflow) {
            if let Some(with) = step["with"].as_object() {
                for key in with.keys() {
                    assert!(inputs.contains(key), "{file}: no input {key}");
                }
            }
        }
        let text = std::fs::read_to_string(source(&file)).unwrap();
        for (at, _) in text.match_indices("steps.qapipe.outputs.") {
            let rest = &text[at + "steps.qapipe.outputs.".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            assert!(outputs.contains(&name), "{file}: no output {name}");
        }
    }
}

#[test]
fn the_pull_request_workflow_checks_out_the_whole_history() {
    let workflow = yaml("examples/ci/github/pull-request.yml");
    assert!(workflow["on"]["pull_request"].is_null() || workflow["on"]["pull_request"].is_object());
    assert!(keys(&workflow["on"]).contains("pull_request"));
    let checkout = &workflow["jobs"]["qa"]["steps"][0];
    assert!(checkout["uses"]
        .as_str()
        .unwrap()
        .starts_with("actions/checkout@"));
    assert_eq!(checkout["with"]["fetch-depth"], 0);
}

#[test]
fn the_code_scanning_workflow_uploads_the_actions_sarif() {
    let workflow = yaml("examples/ci/github/code-scanning.yml");
    assert_eq!(workflow["permissions"]["security-events"], "write");
    let steps = workflow["jobs"]["sarif"]["steps"].as_array().unwrap();
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload-sarif step");
    assert_eq!(
        upload["with"]["sarif_file"],
        "${{ steps.qapipe.outputs.sarif }}"
    );
}

#[test]
fn the_acceptance_workflow_runs_four_shards_and_merges_them() {
    let workflow = yaml("examples/ci/github/acceptance-preview.yml");
    let acceptance = &workflow["jobs"]["acceptance"];
    assert_eq!(
        acceptance["strategy"]["matrix"]["shard"],
        serde_json::json!([1, 2, 3, 4])
    );
    let step = qapipe_steps(&workflow)
        .into_iter()
        .find(|s| s["with"]["plan"].is_string())
        .expect("a qapipe step with a plan");
    assert_eq!(step["with"]["shard"], "${{ matrix.shard }}/4");
    assert_eq!(step["with"]["allow-network"], "true");
    assert_eq!(step["with"]["auth-env"], "PREVIEW_TOKEN");
    assert!(step["env"]["PREVIEW_TOKEN"]
        .as_str()
        .unwrap()
        .contains("secrets."));
    let merge = &workflow["jobs"]["merge"];
    assert_eq!(merge["needs"], "acceptance");
    let runs: Vec<&str> = merge["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect();
    assert!(
        runs.iter().any(|r| r.contains("qa-report --merge")),
        "{runs:?}"
    );
}

#[test]
fn the_gitlab_job_runs_the_script_and_reports_the_files_it_writes() {
    let template = yaml("examples/ci/gitlab/qapipe.gitlab-ci.yml");
    let hidden = &template[".qapipe"];
    let lines: Vec<&str> = hidden["script"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines, ["sh \"$QAPIPE_HOME/pipelines/ci/gitlab.sh\""]);
    let reports = &hidden["artifacts"]["reports"];
    assert_eq!(reports["junit"], "qapipe-junit.xml");
    assert_eq!(reports["codequality"], "gl-code-quality-report.json");
    assert_eq!(reports["dotenv"], "qapipe.env");
    assert_eq!(hidden["artifacts"]["when"], "always");
    let paths = hidden["artifacts"]["paths"].as_array().unwrap();
    assert!(paths.contains(&Value::from("qapipe-report.md")));
    let gitlab = script("gitlab.sh");
    for file in [
        "qapipe-junit.xml",
        "gl-code-quality-report.json",
        "qapipe.env",
        "qapipe-report.md",
    ] {
        assert!(gitlab.contains(file), "gitlab.sh does not write {file}");
    }
    let job = &template["qapipe"];
    assert_eq!(job["extends"], ".qapipe");
    assert!(job["rules"][0]["if"]
        .as_str()
        .unwrap()
        .contains("merge_request_event"));
}

#[test]
fn the_gitlab_job_sets_only_variables_the_script_reads() {
    let template = yaml("examples/ci/gitlab/qapipe.gitlab-ci.yml");
    let read = names_with("QAPIPE_", &script("gitlab.sh"));
    let install = names_with("QAPIPE_", &script("install.sh"));
    for variable in keys(&template[".qapipe"]["variables"]) {
        let used = read.contains(&variable)
            || install.contains(&variable)
            || variable == "QAPIPE_HOME" // the template's own: where qapipe's sources go
            || variable == "QAPIPE_REPOSITORY";
        assert!(used, "{variable} is read by no script");
    }
    assert!(script("gitlab.sh").contains("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"));
}
