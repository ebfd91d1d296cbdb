//! Make: `make test` when the root Makefile declares a `test:` target.

use super::{Found, Runner};
use crate::change::CommandScope;
use crate::validation::tree::Reader;

const MAKEFILES: &[&str] = &["GNUmakefile", "makefile", "Makefile"];

/// True when a line starts the `test` rule (not a `test:=` assignment).
fn declares_test(text: &str) -> bool {
    text.lines()
        .any(|line| line.starts_with("test:") && !line.starts_with("test:="))
}

pub fn discover(reader: &mut Reader, found: &mut Found) {
    // make reads the first of these that exists; so does qa-route.
    let Some((name, file)) = MAKEFILES
        .iter()
        .find_map(|name| reader.read(name).map(|f| (*name, f)))
    else {
        return;
    };
    if declares_test(&file.text) {
        found.push(
            Runner::Make,
            "make test".into(),
            "",
            CommandScope::Suite,
            name,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::tests_support::tree_with;

    fn runs(files: &[(&str, &str)]) -> Vec<String> {
        let (_d, tree) = tree_with(files);
        let mut found = Found::default();
        discover(&mut tree.reader(), &mut found);
        found.candidates.into_iter().map(|c| c.run).collect()
    }

    #[test]
    fn a_test_target_is_make_test() {
        assert_eq!(
            runs(&[("Makefile", "build:\n\tcc x.c\n\ntest: build\n\t./x\n")]),
            ["make test"]
        );
    }

    #[test]
    fn an_assignment_or_another_target_is_not() {
        assert!(runs(&[("Makefile", "test:=unit\ntests:\n\t./t\n  test:\n")]).is_empty());
        assert!(runs(&[]).is_empty());
    }
}
