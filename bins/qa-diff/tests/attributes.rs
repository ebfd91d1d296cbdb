//! Git attributes still decide how a file diffs, wherever they come from: qa-diff reads a
//! range without the working tree only when no attribute file exists anywhere.

use crate::common;
use common::*;
use serde_json::json;

/// `sub/data.dat` (text) and `sub/code.ts` changed on `feature`, with `setup` run on the
/// base commit first.
fn repo_with(setup: impl Fn(&mut Repo)) -> Repo {
    let mut r = Repo::new();
    r.write("sub/data.dat", "alpha\nbeta\n");
    r.write("sub/code.ts", "export const a = 1;\n");
    setup(&mut r);
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("sub/data.dat", "alpha\ngamma\n");
    r.write("sub/code.ts", "export const a = 2;\n");
    r.commit("change both");
    r
}

/// Whether `sub/data.dat` diffed as binary, and `sub/code.ts` as text.
fn data_is_binary(r: &Repo) -> bool {
    let records = r.qa_diff(&[], &[]).records();
    let code = file(&records, "sub/code.ts", "branch");
    assert_eq!(code["binary"], false);
    assert_eq!(code["added"], 1);
    let data = file(&records, "sub/data.dat", "branch");
    let binary = data["binary"] == true;
    if binary {
        assert_eq!(data["hunks"], json!([]));
    } else {
        assert_eq!(data["added"], 1);
    }
    binary
}

#[test]
fn without_attributes_text_diffs_as_text() {
    assert!(!data_is_binary(&repo_with(|_| {})));
}

#[test]
fn a_committed_gitattributes_marks_binary() {
    let r = repo_with(|r| r.write(".gitattributes", "*.dat -diff\n"));
    assert!(data_is_binary(&r));
}

#[test]
fn a_committed_gitattributes_in_a_subdirectory_marks_binary() {
    let r = repo_with(|r| r.write("sub/.gitattributes", "*.dat binary\n"));
    assert!(data_is_binary(&r));
}

#[test]
fn an_uncommitted_gitattributes_in_the_working_tree_marks_binary() {
    let r = repo_with(|_| {});
    r.write("sub/.gitattributes", "*.dat -diff\n");
    assert!(data_is_binary(&r));
}

#[test]
fn the_repository_info_attributes_mark_binary() {
    let r = repo_with(|_| {});
    std::fs::create_dir_all(r.path().join(".git/info")).unwrap();
    std::fs::write(r.path().join(".git/info/attributes"), "*.dat -diff\n").unwrap();
    assert!(data_is_binary(&r));
}

#[test]
fn the_global_attributes_file_marks_binary() {
    let r = repo_with(|_| {});
    // XDG_CONFIG_HOME is the test's HOME.
    std::fs::create_dir_all(r.home().join("git")).unwrap();
    std::fs::write(r.home().join("git/attributes"), "*.dat -diff\n").unwrap();
    assert!(data_is_binary(&r));
}

#[test]
fn core_attributes_file_marks_binary() {
    let r = repo_with(|_| {});
    let attributes = r.outside().join("attributes");
    std::fs::write(&attributes, "*.dat -diff\n").unwrap();
    r.git(&[
        "config",
        "core.attributesFile",
        attributes.to_str().unwrap(),
    ]);
    assert!(data_is_binary(&r));
}

#[test]
fn a_diff_attribute_shows_the_lines_of_content_with_nul_bytes() {
    let mut r = Repo::new();
    r.write(".gitattributes", "*.dat diff\n");
    r.write("data.dat", b"alpha\0\nbeta\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("data.dat", b"alpha\0\ngamma\n");
    r.commit("change");
    let records = r.qa_diff(&[], &[]).records();
    let data = file(&records, "data.dat", "branch");
    assert_eq!(data["binary"], false);
    assert_eq!(data["added"], 1);
}
