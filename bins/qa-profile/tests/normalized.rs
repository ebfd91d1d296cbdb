//! The normalized profile, byte for byte: the input in its key order, evidence_upload
//! resolved in place or appended, clickup dropped under tracker: none.

use std::path::Path;
use std::process::Command;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn stdout_of(profile: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qa-profile"))
        .arg(fixture(profile))
        .output()
        .expect("qa-profile starts");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 JSON")
}

#[test]
fn the_golden_profile_gains_only_its_effective_evidence_upload() {
    let expected = std::fs::read_to_string(fixture("golden.json")).unwrap();
    assert_eq!(stdout_of("golden.yaml"), expected);
}

#[test]
fn tracker_none_keeps_key_order_makes_evidence_local_and_drops_clickup() {
    let expected = std::fs::read_to_string(fixture("tracker-none.json")).unwrap();
    assert_eq!(stdout_of("tracker-none.yaml"), expected);
}

#[test]
fn nothing_but_evidence_upload_and_clickup_differs_from_the_input() {
    let input =
        qa_profile::yaml::parse(&std::fs::read(fixture("tracker-none.yaml")).unwrap()).unwrap();
    let mut output: serde_json::Value =
        serde_json::from_str(&stdout_of("tracker-none.yaml")).unwrap();
    let mut expected = input.clone();
    expected.as_object_mut().unwrap().shift_remove("clickup");
    for env in output["environments"].as_object_mut().unwrap().values_mut() {
        assert_eq!(env["evidence_upload"], "local");
        env.as_object_mut().unwrap().shift_remove("evidence_upload");
    }
    for env in expected["environments"]
        .as_object_mut()
        .unwrap()
        .values_mut()
    {
        env.as_object_mut().unwrap().shift_remove("evidence_upload");
    }
    assert_eq!(output, expected);
}

#[test]
fn the_normalized_profile_follows_its_schema() {
    for name in ["golden.yaml", "tracker-none.yaml"] {
        let value: serde_json::Value = serde_json::from_str(&stdout_of(name)).unwrap();
        qa_testkit::documents::assert_valid("profile.schema.json", &value);
    }
}
