//! The workspace as `cargo metadata` describes it keeps the layout's dependency rules
//! (tests/layout/src/lib.rs), and each library says what it owns and must not use.

use crate::workspace::{metadata, root as workspace_root};
use qa_layout_tests::{crates, violations, Crate, Role};

fn workspace_crates() -> Vec<Crate> {
    crates(&metadata()).unwrap_or_else(|e| panic!("{e:#}"))
}

#[test]
fn every_dependency_points_from_stages_to_libraries() {
    let all = workspace_crates();
    let found = violations(&all);
    let lines: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(
        found.is_empty(),
        "layout rules broken:\n{}",
        lines.join("\n")
    );
}

#[test]
fn the_workspace_has_stages_libraries_and_test_crates() {
    let all = workspace_crates();
    let count = |role: Role| all.iter().filter(|c| c.role == role).count();
    assert_eq!(count(Role::Stage), 10, "{all:#?}");
    assert!(count(Role::Library) >= 5, "{all:#?}");
    assert!(count(Role::TestOnly) >= 2, "{all:#?}");
}

#[test]
fn every_library_says_what_it_owns_and_what_it_must_not_use() {
    for c in workspace_crates() {
        if !c.folder.starts_with("shared/") {
            continue;
        }
        let lib = workspace_root().join(&c.folder).join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).expect("reading a library's lib.rs");
        assert!(
            text.starts_with("//!"),
            "{}: lib.rs opens with a //! doc saying what the crate owns",
            lib.display()
        );
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            doc.contains("must not depend"),
            "{}: its //! doc says what it must not depend on",
            lib.display()
        );
    }
}
