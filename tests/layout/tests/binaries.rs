//! One list of the binaries: the folders of `bins/`. The Makefile derives its list from
//! them, and no other file types one by hand (the tests read `qa_testkit::workspace`, the
//! installer the archive's SHA256SUMS or `bins/`).

use crate::workspace::root;
use qa_layout_tests::binaries::hand_lists;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders of `bins/`, sorted.
fn bins() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("bins"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Lists of a part of the binaries kept on purpose, each with why it is not `bins/`.
const SUBSETS: &[(&str, &str)] = &[(
    "bins/qa-mcp/src/stages.rs",
    "the stages the MCP server may start: a choice, not every binary",
)];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() && !matches!(name.as_str(), "target" | "node_modules" | "venv" | "work") {
            sources(&path, out);
        } else if kind.is_file()
            && (name.ends_with(".rs") || name.ends_with(".sh") || name.ends_with(".yml"))
        {
            out.push(path);
        }
    }
}

#[test]
fn the_makefile_lists_the_folders_of_bins() {
    let out = Command::new("make")
        .args(["-s", "--no-print-directory", "bins"])
        .current_dir(root())
        .output()
        .expect("make runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(listed, bins());
}

#[test]
fn no_file_types_the_binaries_by_hand() {
    let bins = bins();
    let root = root();
    let mut files = vec![root.join("Makefile")];
    for dir in ["bins", "shared", "tests", "pipelines", "examples", ".ci"] {
        if root.join(dir).is_dir() {
            sources(&root.join(dir), &mut files);
        }
    }
    files.push(root.join("action.yml"));
    let mut found = Vec::new();
    for file in files.iter().filter(|f| f.is_file()) {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel == "tests/layout/src/binaries.rs" {
            continue; // its own controls
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (line, names) in hand_lists(&text, &bins) {
            // A few stages in a row are a flow (`qa-intent, qa-route, qa-trace`); half of
            // the binaries or more is a list of them.
            let kept = SUBSETS.iter().any(|(f, _)| *f == rel) && names.len() < bins.len();
            if names.len() * 2 >= bins.len() && !kept {
                found.push(format!("{rel}:{line}: {}", names.join(" ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "binaries typed by hand (read bins/: qa_testkit::workspace::binaries(), `make bins`):\n{}",
        found.join("\n")
    );
}

#[test]
fn each_kept_subset_is_still_there() {
    let bins = bins();
    for (file, why) in SUBSETS {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let lists = hand_lists(&text, &bins);
        assert!(
            !lists.is_empty(),
            "{file} ({why}) holds no list any more: drop it from SUBSETS"
        );
    }
}
