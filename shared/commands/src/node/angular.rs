//! Angular CLI projects whose `test` script is `ng test` and whose one test target is
//! built by `@angular-builders/jest:run`: Jest runs the specs, and `ng test` takes the
//! changed spec files as the builder's Jest path patterns, not as file arguments.

use super::manager::Manager;
use super::narrowed::is_test_file;
use super::runners::{sole_program, TestRunner};
use super::workspace::Package;
use crate::tree::{join, Reader};
use serde_json::Value;

/// The builder that runs an Angular project's tests with Jest.
const JEST_BUILDER: &str = "@angular-builders/jest:run";

/// The Angular CLI option that hands Jest its path patterns, by Jest's major version:
/// Jest 30 renamed `testPathPattern` to `testPathPatterns`, and the builder's options
/// follow Jest's. None when the package declares no readable `jest` version.
fn path_option(pkg: &Package) -> Option<&'static str> {
    let spec = pkg.dependency("jest")?;
    let digits: String = spec
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let major: u32 = digits.parse().ok()?;
    Some(if major >= 30 {
        "--test-path-patterns"
    } else {
        "--test-path-pattern"
    })
}

/// True when the one project of `angular.json` (beside the package) that has a `test`
/// target builds it with the Jest builder: `ng test` then runs Jest.
fn tests_with_jest(reader: &mut Reader, pkg: &Package) -> bool {
    let Some(config) = reader.json(&join(&pkg.dir, "angular.json")) else {
        return false;
    };
    let builders: Vec<&str> = config
        .get("projects")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|projects| projects.values())
        .filter_map(|p| p.pointer("/architect/test/builder"))
        .filter_map(Value::as_str)
        .collect();
    builders == [JEST_BUILDER]
}

/// The command that runs `files` (spec files, relative to the package) through the
/// package's `ng test` with Jest's path patterns; None when the package's tests are no
/// such run or a file is no spec Jest's default match takes.
pub fn narrowed(
    reader: &mut Reader,
    pkg: &Package,
    manager: Manager,
    files: &[String],
) -> Option<String> {
    let script = pkg.scripts().get("test")?.as_str()?;
    let (program, args) = sole_program(script)?;
    if program != "ng" || args != ["test"] {
        return None;
    }
    let takes = |f: &String| is_test_file(f, TestRunner::Jest) && crate::refusal(f).is_none();
    if files.is_empty() || !files.iter().all(takes) {
        return None;
    }
    if !tests_with_jest(reader, pkg) {
        return None;
    }
    let option = path_option(pkg)?;
    let patterns: Vec<String> = files
        .iter()
        .map(|f| format!("{option} {}", crate::quote(f)))
        .collect();
    Some(manager.test_with(&patterns.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::tree_with;

    const ANGULAR_JEST: &str = r#"{"projects": {"ui": {"architect": {"test": {"builder": "@angular-builders/jest:run"}}}}}"#;
    const ANGULAR_KARMA: &str = r#"{"projects": {"ui": {"architect": {"test": {"builder": "@angular-devkit/build-angular:karma"}}}}}"#;

    fn run(angular: &str, jest: &str, test: &str, files: &[&str]) -> Option<String> {
        let manifest = format!(
            r#"{{"name": "ui", "scripts": {{"test": "{test}"}}, "devDependencies": {{"jest": "{jest}"}}}}"#
        );
        let (_d, tree) = tree_with(&[
            ("ui/package.json", manifest.as_str()),
            ("ui/angular.json", angular),
        ]);
        let mut reader = tree.reader();
        let pkg = Package::read(&mut reader, "ui")?;
        let files: Vec<String> = files.iter().map(|f| f.to_string()).collect();
        narrowed(&mut reader, &pkg, Manager::Pnpm, &files)
    }

    #[test]
    fn ng_test_with_the_jest_builder_takes_the_spec_as_a_path_pattern() {
        assert_eq!(
            run(
                ANGULAR_JEST,
                "30.4.2",
                "ng test",
                &["src/app/a.component.spec.ts"]
            )
            .as_deref(),
            Some("pnpm test --test-path-patterns src/app/a.component.spec.ts")
        );
        assert_eq!(
            run(ANGULAR_JEST, "^29.7.0", "ng test", &["src/app/a.spec.ts"]).as_deref(),
            Some("pnpm test --test-path-pattern src/app/a.spec.ts")
        );
    }

    #[test]
    fn ng_test_with_karma_or_another_script_is_no_jest_run() {
        assert_eq!(
            run(ANGULAR_KARMA, "30.4.2", "ng test", &["src/app/a.spec.ts"]),
            None
        );
        assert_eq!(
            run(
                ANGULAR_JEST,
                "30.4.2",
                "ng lint && ng test",
                &["src/app/a.spec.ts"]
            ),
            None
        );
        // A file Jest's default match does not take (a mock beside the specs).
        assert_eq!(
            run(
                ANGULAR_JEST,
                "30.4.2",
                "ng test",
                &["src/test/mocks/pdf.ts"]
            ),
            None
        );
        // No Jest version to choose the option by.
        assert_eq!(
            run(ANGULAR_JEST, "latest", "ng test", &["src/app/a.spec.ts"]),
            None
        );
    }
}
