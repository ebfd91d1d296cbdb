//! Make: `make test` when the root Makefile declares a `test:` target, and its `build`,
//! `lint`, `typecheck` and `validate` targets for configuration and shipped files.

use super::{Candidate, Found, Runner};
use crate::delivery::{by_check, Concern};
use crate::tree::{BuildFile, Reader};
use qa_records::change::CommandScope;

const MAKEFILES: &[&str] = &["GNUmakefile", "makefile", "Makefile"];

/// The targets the rules of `text` name, in order (not `X:=` assignments, special
/// targets, patterns or variables).
fn targets(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for line in text.lines() {
        if line.starts_with(['\t', ' ', '#', '.']) {
            continue;
        }
        let Some((head, rest)) = line.split_once(':') else {
            continue;
        };
        if rest.starts_with('=') || head.contains(['=', '$', '%', '?', '+']) {
            continue;
        }
        for name in head.split_whitespace() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The root makefile: make reads the first of these that exists; so does qa-route.
fn makefile(reader: &mut Reader) -> Option<(&'static str, std::rc::Rc<BuildFile>)> {
    MAKEFILES
        .iter()
        .find_map(|name| reader.read(name).map(|f| (*name, f)))
}

pub fn discover(reader: &mut Reader, found: &mut Found) {
    let Some((name, file)) = makefile(reader) else {
        return;
    };
    if targets(&file.text).contains(&"test") {
        found.push(
            Runner::Make,
            "make test".into(),
            "",
            CommandScope::Suite,
            name,
        );
    }
}

/// The root makefile's targets that validate the changed configuration and shipped
/// files: repository-wide, so after the owning packages' own scripts.
pub fn checks(reader: &mut Reader, concerned: &[(&str, Concern)], found: &mut Found) {
    let Some((makefile, file)) = makefile(reader) else {
        return;
    };
    let targets = targets(&file.text);
    for (check, files) in by_check(concerned) {
        for target in targets.iter().filter(|t| check.names(t)) {
            let Some(word) = found.word(target, "a make target", makefile) else {
                continue;
            };
            found.candidates.push(
                Candidate::new(
                    Runner::Make,
                    format!("make {word}"),
                    "",
                    CommandScope::Suite,
                    makefile,
                )
                .checking(check, target, &files),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::tree_with;

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
