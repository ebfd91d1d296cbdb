//! The change report's report.html (`--out DIR`), opened in the real headless Chromium of
//! the test peers: intents with their scenarios, steps, assertions, proof gaps and
//! evidence, commands, manual contracts and capabilities; evidence linked to the forge the
//! CI environment names, at the head commit, and never otherwise; hostile text stays text.

use crate::common;

use common::{at, sample, scenario_data, Stream};
use qa_records::change::{ActionKind, Decision, Relation, ScenarioKind};
use qa_testkit::page::{assert_inert, look, open};
use serde_json::{json, Value};
use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Every variable that names a forge.
const FORGE_VARS: [&str; 3] = ["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "CI_PROJECT_URL"];

/// The head commit of every test range.
fn head() -> String {
    "b".repeat(40)
}

/// `qa-report --out DIR` on `input` with exactly the forge variables `env`; returns the
/// folder.
fn report(input: &[u8], env: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut command = Command::new(env!("CARGO_BIN_EXE_qa-report"));
    for var in FORGE_VARS {
        command.env_remove(var);
    }
    let mut child = command
        .args(["--out", out.to_str().unwrap()])
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let status = child.wait_with_output().unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    (dir, out)
}

fn hrefs(seen: &Value) -> Vec<String> {
    seen["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["href"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_shows_intents_scenarios_commands_manual_contracts_and_capabilities() {
    let (_dir, out) = report(&sample().stream.whole(), &[]);
    let seen = look(&out.join("report.html"), "change");
    assert_inert(&seen);
    assert_eq!(seen["verdict"], "1 required");
    let scenarios = seen["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 4);
    let first = scenarios[0]["text"].as_str().unwrap();
    assert!(scenarios[0]["class"]
        .as_str()
        .unwrap()
        .contains("p-required"));
    for part in [
        "Expired token is refused",
        "sign in",
        "the response is 401",
        "Proof gap: no changed line shows the response",
        "src/auth.rs:42",
    ] {
        assert!(first.contains(part), "{part:?} missing from {first}");
    }
    let text = seen["text"].as_str().unwrap();
    for part in [
        "Refuse expired session tokens",
        "Retry failed uploads",
        "cargo test -p auth",
        "3. What a person must check",
        "name the retry limit",
        "reading what the change means",
        "finding the repository's test commands",
        "src/upload.rs has no validation command",
    ] {
        assert!(text.contains(part), "{part:?} missing");
    }
}

#[test]
fn report_html_is_listed_in_sha256sums_of_the_out_folder() {
    let (_dir, out) = report(&sample().stream.whole(), &[]);
    let sums = fs::read_to_string(out.join("SHA256SUMS")).unwrap();
    assert!(sums.lines().any(|l| l.ends_with("  report.html")), "{sums}");
    let check = Command::new("sha256sum")
        .args(["-c", "--quiet", "SHA256SUMS"])
        .current_dir(&out)
        .status()
        .unwrap();
    assert!(check.success());
    assert_eq!(common::mode(&out.join("report.html")), 0o600);
}

#[test]
fn evidence_links_to_github_at_the_head_commit() {
    let env = [
        ("GITHUB_SERVER_URL", "https://github.com"),
        ("GITHUB_REPOSITORY", "acme/shop"),
    ];
    let (_dir, out) = report(&sample().stream.whole(), &env);
    let seen = open(&out.join("report.html"), None, None);
    let links = hrefs(&seen);
    let h = head();
    for line in [42, 43, 40] {
        let want = format!("https://github.com/acme/shop/blob/{h}/src/auth.rs#L{line}");
        assert!(links.contains(&want), "{want} not in {links:?}");
    }
    // Commit wording has no line to link.
    assert_eq!(links.len(), 4, "{links:?}");
}

#[test]
fn evidence_links_to_gitlab_through_the_project_url() {
    let env = [("CI_PROJECT_URL", "https://gitlab.example.com/group/shop")];
    let (_dir, out) = report(&sample().stream.whole(), &env);
    let links = hrefs(&open(&out.join("report.html"), None, None));
    let want = format!(
        "https://gitlab.example.com/group/shop/-/blob/{}/src/upload.rs#L10",
        head()
    );
    assert!(links.contains(&want), "{links:?}");
}

#[test]
fn without_a_forge_in_the_environment_evidence_is_not_linked() {
    let (_dir, out) = report(&sample().stream.whole(), &[]);
    let seen = open(&out.join("report.html"), None, None);
    assert_eq!(seen["links"], json!([]));
    assert!(seen["text"].as_str().unwrap().contains("src/auth.rs:42"));
}

#[test]
fn a_forge_url_that_is_not_plain_http_gives_no_link() {
    for url in [
        "javascript:alert(1)//",
        "data:text/html,x",
        "https://u:p@host/x",
    ] {
        let (_dir, out) = report(&sample().stream.whole(), &[("CI_PROJECT_URL", url)]);
        let seen = open(&out.join("report.html"), None, None);
        assert_eq!(seen["links"], json!([]), "{url}");
    }
}

#[test]
fn the_scenario_filters_show_only_that_decision_without_script() {
    let (_dir, out) = report(&sample().stream.whole(), &[]);
    let seen = open(&out.join("report.html"), Some("required"), None);
    assert_eq!(seen["filtered"].as_array().unwrap().len(), 1, "{seen:#}");
    let seen = open(&out.join("report.html"), Some("review-only"), None);
    let shown = seen["filtered"].as_array().unwrap();
    assert_eq!(shown.len(), 1);
    assert!(shown[0].as_str().unwrap().contains("p-review-only"));
}

const HOSTILE: &str = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2;alert(2)\"><a href=\"javascript:window.__pwned=3\">go</a></style><style>body{display:none}</style>\" style=\"display:none\" '\u{202e}evil";

#[test]
fn hostile_text_from_the_repository_stays_text_and_links_stay_on_the_forge() {
    let mut s = Stream::default();
    s.range();
    s.commit(&"1".repeat(40), HOSTILE);
    let path = format!("src/{HOSTILE}.ts");
    let intent = s.intent(HOSTILE, &[&"1".repeat(40)], &[&path]);
    let mut data = scenario_data(
        &intent,
        HOSTILE,
        ScenarioKind::Primary,
        vec![at(&path, 7, Relation::Direct, HOSTILE)],
    );
    data.steps = vec![HOSTILE.into()];
    data.assertions = vec![HOSTILE.into()];
    data.proof_gap = Some(HOSTILE.into());
    let scenario = s.push_scenario(data);
    s.route(
        &scenario,
        Decision::Required,
        ActionKind::ReviewScenario,
        None,
    );
    s.trace(&scenario);
    let env = [
        ("GITHUB_SERVER_URL", "https://github.com"),
        ("GITHUB_REPOSITORY", "acme/shop"),
    ];
    let (_dir, out) = report(&s.whole(), &env);
    let seen = open(&out.join("report.html"), None, None);
    assert_inert(&seen);
    let text = seen["text"].as_str().unwrap();
    let shown = HOSTILE.replace('\u{202e}', "\u{fffd}");
    assert!(text.contains(&shown), "{text}");
    assert!(!text.contains('\u{202e}'));
    // The one link is the evidence line on the forge, its path percent-encoded.
    let links = hrefs(&seen);
    assert_eq!(links.len(), 1, "{links:?}");
    let prefix = format!("https://github.com/acme/shop/blob/{}/src/", head());
    assert!(
        links[0].starts_with(&prefix) && links[0].ends_with(".ts#L7"),
        "{links:?}"
    );
    assert!(
        !links[0][prefix.len()..].contains(['<', '>', '"', '\'', ' ']),
        "{links:?}"
    );
}
