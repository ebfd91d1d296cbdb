//! Each crate builds at most one integration-test binary, and its root declares every
//! file beside it.

use crate::workspace::{metadata, root};
use qa_layout_tests::targets::{integration_targets, undeclared};
use std::path::Path;

#[test]
fn each_crate_has_at_most_one_integration_test_target() {
    let meta = metadata();
    let mut over = Vec::new();
    for package in meta["packages"].as_array().unwrap() {
        let targets = integration_targets(package);
        if targets.len() > 1 {
            over.push(format!("{}: {targets:?}", package["name"]));
        }
    }
    assert!(
        over.is_empty(),
        "crates with more than one integration-test binary (declare one `[[test]]` with \
         autotests = false, one `mod` per file):\n{}",
        over.join("\n")
    );
}

#[test]
fn every_file_beside_a_test_root_is_declared_in_it() {
    let meta = metadata();
    let mut missing = Vec::new();
    for package in meta["packages"].as_array().unwrap() {
        for target in package["targets"].as_array().unwrap() {
            if !target["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "test")
            {
                continue;
            }
            let src = Path::new(target["src_path"].as_str().unwrap());
            let dir = src.parent().unwrap();
            let root_name = src.file_name().unwrap().to_string_lossy().into_owned();
            let files: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".rs"))
                .collect();
            let text = std::fs::read_to_string(src).unwrap();
            for stem in undeclared(&root_name, &text, &files) {
                missing.push(format!(
                    "{}: {stem}.rs is not declared (`mod {stem};`), so it is never compiled",
                    src.strip_prefix(root()).unwrap_or(src).display()
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
