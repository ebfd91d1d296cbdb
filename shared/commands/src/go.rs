//! Go: the module owning a changed file (nearest go.mod with a `module` line), its
//! changed `TestX` functions, its package and the module suite; a package under no go.mod
//! at all builds as Go did before modules (`GO111MODULE=off`, from the repository root).

use super::{Found, Runner};
use crate::targets::Targets;
use crate::tree::{ancestors, join, parent, under, Reader};
use qa_records::change::CommandScope;

struct Module {
    dir: String,
    manifest: String,
}

/// The module whose go.mod (with a `module` line) is in `dir`.
fn module_at(reader: &mut Reader, dir: &str) -> Option<Module> {
    let manifest = join(dir, "go.mod");
    let text = reader.read(&manifest)?;
    text.text
        .lines()
        .any(|l| l.trim_start().starts_with("module "))
        .then(|| Module {
            dir: dir.to_string(),
            manifest,
        })
}

fn is_identifier(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `./pkg/` for a package directory relative to the module, `./` for the module root.
fn package_path(rel_dir: &str) -> String {
    if rel_dir.is_empty() {
        "./".to_string()
    } else {
        format!("./{rel_dir}/")
    }
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let mut modules: Vec<Module> = Vec::new();
    for file in targets.files.iter().filter(|f| f.ends_with(".go")) {
        let owner = ancestors(file).find_map(|dir| module_at(reader, dir));
        // No go.mod at any level (a go.mod without a `module` line is a broken module, not
        // none): the package builds in GOPATH mode, the changed file declaring its command.
        let gopath = owner.is_none()
            && ancestors(file).all(|dir| reader.read(&join(dir, "go.mod")).is_none());
        let (module, env) = match owner {
            Some(module) => (module, ""),
            None if gopath => (
                Module {
                    dir: String::new(),
                    manifest: file.clone(),
                },
                "GO111MODULE=off ",
            ),
            None => continue,
        };
        let rel_dir = under(parent(file), &module.dir)
            .or((parent(file) == module.dir).then_some(""))
            .unwrap_or("");
        let Some(pkg) = found.word(&package_path(rel_dir), "a package directory", file) else {
            continue;
        };
        if file.ends_with("_test.go") {
            // A subtest (`TestX/case title`) runs under its test function: `-run` matches
            // each level of a name apart, and `TestX` at the first runs all its cases.
            let mut names: Vec<&str> = Vec::new();
            for name in targets.tests_in(file) {
                let function = name.split('/').next().unwrap_or(name);
                if function.starts_with("Test")
                    && is_identifier(function)
                    && !names.contains(&function)
                {
                    names.push(function);
                }
            }
            let pattern = match names.as_slice() {
                [] => None,
                [one] => Some(format!("^{one}$")),
                many => Some(format!("^({})$", many.join("|"))),
            };
            if let Some(pattern) = pattern.and_then(|p| found.word(&p, "a test pattern", file)) {
                let run = format!("{env}go test {pkg} -run {pattern}");
                found.push(
                    Runner::Go,
                    run,
                    &module.dir,
                    CommandScope::ExactTest,
                    &module.manifest,
                );
            }
        }
        // A package's command runs it with the packages below it; at the module root
        // that is the whole module (the suite), so the root package runs alone.
        let run = if rel_dir.is_empty() {
            format!("{env}go test {pkg}")
        } else {
            format!("{env}go test {pkg}...")
        };
        found.push(
            Runner::Go,
            run,
            &module.dir,
            CommandScope::Package,
            &module.manifest,
        );
        // Outside a module there is no suite to name: `./...` would walk vendored trees.
        if !gopath && !modules.iter().any(|m| m.dir == module.dir) {
            modules.push(module);
        }
    }
    if !modules.iter().any(|m| m.dir.is_empty()) {
        modules.extend(module_at(reader, ""));
    }
    for module in modules {
        let run = "go test ./...".to_string();
        found.push(
            Runner::Go,
            run,
            &module.dir,
            CommandScope::Suite,
            &module.manifest,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::{files, runs, tree_with, with_tests};

    const MODULE: &[(&str, &str)] = &[("go.mod", "module example.com/shop\n\ngo 1.22\n")];

    fn in_file(file: &str, names: &[&str]) -> Targets {
        let tests: Vec<(&str, &str)> = names.iter().map(|n| (file, *n)).collect();
        with_tests(&[file], &tests)
    }

    #[test]
    fn a_changed_test_function_runs_alone_in_its_package() {
        let (_d, tree) = tree_with(MODULE);
        let t = in_file("internal/auth/login_test.go", &["TestExpired"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". go test ./internal/auth/ -run '^TestExpired$'",
                ". go test ./internal/auth/...",
                ". go test ./..."
            ]
        );
    }

    #[test]
    fn several_changed_tests_share_one_pattern() {
        let (_d, tree) = tree_with(MODULE);
        let t = in_file("login_test.go", &["TestA", "TestB", "helper"]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". go test ./ -run '^(TestA|TestB)$'"
        );
    }

    #[test]
    fn a_changed_subtest_runs_with_its_test_function() {
        let (_d, tree) = tree_with(MODULE);
        let t = in_file(
            "cors_test.go",
            &[
                "TestCORS/OPTIONS without Origin reaches next",
                "TestCORS/true preflight still short-circuits next",
                "TestA",
            ],
        );
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". go test ./ -run '^(TestCORS|TestA)$'"
        );
    }

    #[test]
    fn a_case_title_under_no_test_function_names_no_test() {
        // Control: the part before `/` is no `Test` function.
        let (_d, tree) = tree_with(MODULE);
        let t = in_file("cors_test.go", &["cases/OPTIONS without Origin"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". go test ./", ". go test ./..."]
        );
    }

    #[test]
    fn a_test_file_without_known_tests_gets_package_and_suite() {
        let (_d, tree) = tree_with(MODULE);
        let t = files(&["pkg/login_test.go"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". go test ./pkg/...", ". go test ./..."]
        );
    }

    #[test]
    fn a_package_at_the_module_root_runs_alone_before_the_suite() {
        let (_d, tree) = tree_with(MODULE);
        let t = files(&["command_test.go"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". go test ./", ". go test ./..."]
        );
    }

    #[test]
    fn a_package_below_the_root_runs_with_its_subpackages() {
        let (_d, tree) = tree_with(MODULE);
        let t = files(&["internal/auth/login.go"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". go test ./internal/auth/...", ". go test ./..."]
        );
    }

    #[test]
    fn a_nested_module_runs_from_its_own_directory() {
        let (_d, tree) = tree_with(&[("tools/go.mod", "module example.com/tools\n")]);
        let t = files(&["tools/gen/main.go"]);
        assert_eq!(
            runs(&tree, &t, discover),
            ["tools go test ./gen/...", "tools go test ./..."]
        );
    }

    #[test]
    fn a_package_under_no_go_mod_runs_in_gopath_mode_without_a_suite() {
        let (_d, tree) = tree_with(&[("flag.go", "package cli\n")]);
        let t = in_file("flag_test.go", &["TestParseMultiString"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". GO111MODULE=off go test ./ -run '^TestParseMultiString$'",
                ". GO111MODULE=off go test ./",
            ]
        );
    }

    #[test]
    fn a_go_mod_without_a_module_line_is_not_a_module() {
        let (_d, tree) = tree_with(&[("go.mod", "go 1.22\n")]);
        assert!(runs(&tree, &files(&["main.go"]), discover).is_empty());
    }
}
