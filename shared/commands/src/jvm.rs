//! Maven and Gradle: changed test classes and methods (`mvn -Dtest=Class#m`, Gradle
//! `:module:test --tests Class.m`), the module's and the root's `test`.

use super::{Found, Runner};
use crate::targets::Targets;
use crate::tree::{ancestors, base_name, join, Reader};
use qa_records::change::CommandScope;

const GRADLE_BUILDS: &[&str] = &[
    "settings.gradle.kts",
    "settings.gradle",
    "build.gradle.kts",
    "build.gradle",
];

/// The class a changed test source declares by convention: `LoginTest.java` -> `LoginTest`.
pub fn test_class(path: &str) -> Option<&str> {
    let name = base_name(path);
    let stem = name
        .strip_suffix(".java")
        .or_else(|| name.strip_suffix(".kt"))?;
    let plain = stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (plain && (stem.ends_with("Test") || stem.ends_with("Tests"))).then_some(stem)
}

/// The Gradle task that runs the tests of `file`'s source set: `src/test/` is `test`; a
/// Kotlin multiplatform source set `src/<target>Test/` is `<target>Test` (`jvmTest`), and
/// the shared `src/commonTest/` runs on every target through `allTests`. A multiplatform
/// module has no `test` task, so `:module:test` would fail before running anything.
fn test_task(file: &str) -> &str {
    let Some(set) = file
        .split('/')
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[0] == "src" && w[1].ends_with("Test"))
        .map(|w| w[1])
    else {
        return "test";
    };
    match set {
        "commonTest" => "allTests",
        other if other.len() > "Test".len() => other,
        _ => "test",
    }
}

/// Methods a changed line declares that are set-up or tear-down, not tests: a filter
/// naming one selects no test, and Surefire then fails the run.
fn is_lifecycle(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["setup", "teardown", "before", "after", "init"]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// The changed test methods of `file` fit to filter by, or empty for the whole class.
fn methods<'t>(targets: &'t Targets, file: &'t str) -> Vec<&'t str> {
    let names: Vec<&str> = targets.known_in(file).map(|t| t.ident.as_str()).collect();
    let plain =
        |n: &&str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if names.iter().all(|n| plain(n) && !is_lifecycle(n)) {
        names
    } else {
        Vec::new()
    }
}

/// The Gradle project path of the directory `dir` (`libs/core` -> `:libs:core`) when the
/// settings file includes it; None for the root project or an undeclared directory.
fn gradle_project(reader: &mut Reader, settings: Option<&str>, dir: &str) -> Option<String> {
    if dir.is_empty() {
        return None;
    }
    let text = &reader.read(settings?)?.text;
    let path = format!(":{}", dir.replace('/', ":"));
    let declared = [
        format!("\"{path}\""),
        format!("'{path}'"),
        format!("\"{}\"", &path[1..]),
        format!("'{}'", &path[1..]),
    ]
    .iter()
    .any(|quoted| text.contains(quoted.as_str()));
    declared.then_some(path)
}

fn maven(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    for file in &targets.files {
        let Some(dir) = ancestors(file).find(|d| reader.read(&join(d, "pom.xml")).is_some()) else {
            continue;
        };
        let pom = join(dir, "pom.xml");
        if let Some(class) = test_class(file).filter(|_| file.ends_with(".java")) {
            let methods = methods(targets, file);
            let (filter, scope) = match methods.as_slice() {
                [] => (class.to_string(), CommandScope::File),
                names => (
                    format!("{class}#{}", names.join("+")),
                    CommandScope::ExactTest,
                ),
            };
            let run = format!("mvn -Dtest={filter} test");
            found.push(Runner::Mvn, run, dir, scope, &pom);
        }
        if !dir.is_empty() {
            found.push(
                Runner::Mvn,
                "mvn test".into(),
                dir,
                CommandScope::Package,
                &pom,
            );
        }
    }
    if reader.read("pom.xml").is_some() {
        found.push(
            Runner::Mvn,
            "mvn test".into(),
            "",
            CommandScope::Suite,
            "pom.xml",
        );
    }
}

fn gradle(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let Some(build) = GRADLE_BUILDS
        .iter()
        .find(|name| reader.read(name).is_some())
    else {
        return;
    };
    let (runner, program) = if reader.tree().is_executable("gradlew") {
        (Runner::Gradlew, "./gradlew")
    } else {
        (Runner::Gradle, "gradle")
    };
    let settings = GRADLE_BUILDS[..2]
        .iter()
        .copied()
        .find(|name| reader.read(name).is_some());
    for file in &targets.files {
        let Some(class) = test_class(file) else {
            continue;
        };
        // The nearest project with a build file of its own, when settings include it.
        let project = ancestors(file)
            .find(|d| {
                GRADLE_BUILDS[2..]
                    .iter()
                    .any(|b| reader.read(&join(d, b)).is_some())
            })
            .and_then(|d| gradle_project(reader, settings, d));
        let task = match &project {
            Some(path) => format!("{path}:{}", test_task(file)),
            None => test_task(file).to_string(),
        };
        let (filters, scope): (Vec<String>, _) = match methods(targets, file).as_slice() {
            [] => (vec![format!("--tests {class}")], CommandScope::File),
            names => (
                names
                    .iter()
                    .map(|m| format!("--tests {class}.{m}"))
                    .collect(),
                CommandScope::ExactTest,
            ),
        };
        let run = format!("{program} {task} {}", filters.join(" "));
        found.push(runner, run, "", scope, build);
    }
    found.push(
        runner,
        format!("{program} test"),
        "",
        CommandScope::Suite,
        build,
    );
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    maven(reader, targets, found);
    gradle(reader, targets, found);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::{files, runs, tree_with, with_tests};

    #[test]
    fn a_changed_maven_test_class_runs_alone_then_the_module_then_the_root() {
        let (_d, tree) = tree_with(&[("pom.xml", "<project/>"), ("core/pom.xml", "<project/>")]);
        let t = files(&["core/src/test/java/shop/LoginTest.java"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                "core mvn -Dtest=LoginTest test",
                "core mvn test",
                ". mvn test"
            ]
        );
    }

    #[test]
    fn a_changed_main_class_gets_no_exact_test() {
        let (_d, tree) = tree_with(&[("pom.xml", "<project/>")]);
        let t = files(&[
            "src/main/java/shop/Login.java",
            "src/main/java/shop/Testing.java",
        ]);
        assert_eq!(runs(&tree, &t, discover), [". mvn test"]);
    }

    #[cfg(unix)]
    #[test]
    fn an_executable_wrapper_is_preferred_over_gradle() {
        use std::os::unix::fs::PermissionsExt as _;
        let (dir, tree) = tree_with(&[("build.gradle.kts", ""), ("gradlew", "#!/bin/sh\n")]);
        let t = files(&["src/test/kotlin/LoginTests.kt"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". gradle test --tests LoginTests", ". gradle test"]
        );
        let wrapper = dir.path().join("gradlew");
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(
            runs(&tree, &t, discover),
            [". ./gradlew test --tests LoginTests", ". ./gradlew test"]
        );
    }

    #[test]
    fn without_build_files_there_is_nothing() {
        let (_d, tree) = tree_with(&[("gradlew", "")]);
        assert!(runs(&tree, &files(&["src/test/java/ATest.java"]), discover).is_empty());
    }

    #[test]
    fn changed_test_methods_narrow_maven_to_class_and_methods() {
        let (_d, tree) = tree_with(&[("pom.xml", "<project/>")]);
        let file = "src/test/java/shop/LoginTest.java";
        let one = with_tests(&[file], &[(file, "rejectsExpired")]);
        assert_eq!(
            runs(&tree, &one, discover)[0],
            ". mvn -Dtest=LoginTest#rejectsExpired test"
        );
        let two = with_tests(&[file], &[(file, "rejectsExpired"), (file, "acceptsFresh")]);
        assert_eq!(
            runs(&tree, &two, discover)[0],
            ". mvn -Dtest=LoginTest#rejectsExpired+acceptsFresh test"
        );
    }

    #[test]
    fn a_changed_set_up_method_runs_the_whole_class() {
        let (_d, tree) = tree_with(&[("pom.xml", "<project/>")]);
        let file = "src/test/java/shop/LoginTest.java";
        let t = with_tests(&[file], &[(file, "rejectsExpired"), (file, "setUp")]);
        assert_eq!(runs(&tree, &t, discover)[0], ". mvn -Dtest=LoginTest test");
    }

    #[test]
    fn a_gradle_subproject_test_runs_through_its_project_path_with_its_methods() {
        let (_d, tree) = tree_with(&[
            (
                "settings.gradle.kts",
                "rootProject.name = \"shop\"\ninclude(\":libs:core\")\n",
            ),
            ("build.gradle.kts", ""),
            ("libs/core/build.gradle.kts", ""),
        ]);
        let file = "libs/core/src/test/kotlin/shop/CartTest.kt";
        let t = with_tests(&[file], &[(file, "addsItem")]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". gradle :libs:core:test --tests CartTest.addsItem",
                ". gradle test"
            ]
        );
    }

    #[test]
    fn a_multiplatform_test_runs_through_its_source_sets_task_not_test() {
        let (_d, tree) = tree_with(&[
            ("settings.gradle.kts", "include(\":okhttp\")\n"),
            ("build.gradle.kts", ""),
            ("okhttp/build.gradle.kts", ""),
        ]);
        for (file, task) in [
            (
                "okhttp/src/jvmTest/kotlin/okhttp3/CallTest.kt",
                ":okhttp:jvmTest",
            ),
            (
                "okhttp/src/commonTest/kotlin/okhttp3/UrlTest.kt",
                ":okhttp:allTests",
            ),
            // The control: a plain JVM module's tests stay under `test`.
            ("okhttp/src/test/kotlin/okhttp3/CallTest.kt", ":okhttp:test"),
        ] {
            let t = files(&[file]);
            let run = &runs(&tree, &t, discover)[0];
            assert!(
                run.starts_with(&format!(". gradle {task} --tests ")),
                "{file}: {run}"
            );
        }
    }

    #[test]
    fn a_directory_the_settings_do_not_include_is_no_project_path() {
        let (_d, tree) = tree_with(&[
            ("settings.gradle", "include 'app'\n"),
            ("build.gradle", ""),
            ("tools/build.gradle", ""),
        ]);
        let t = files(&["tools/src/test/java/ToolTest.java"]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". gradle test --tests ToolTest"
        );
    }
}
