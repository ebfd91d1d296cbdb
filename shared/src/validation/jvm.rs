//! Maven and Gradle: changed test classes, the module's and the root's `test`.

use super::{Found, Runner};
use crate::change::CommandScope;
use crate::validation::targets::Targets;
use crate::validation::tree::{ancestors, base_name, join, Reader};

const GRADLE_BUILDS: &[&str] = &[
    "settings.gradle.kts",
    "settings.gradle",
    "build.gradle.kts",
    "build.gradle",
];

/// The class a changed test source declares by convention: `LoginTest.java` -> `LoginTest`.
fn test_class(path: &str) -> Option<&str> {
    let name = base_name(path);
    let stem = name
        .strip_suffix(".java")
        .or_else(|| name.strip_suffix(".kt"))?;
    let plain = stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (plain && (stem.ends_with("Test") || stem.ends_with("Tests"))).then_some(stem)
}

fn maven(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    for file in &targets.files {
        let Some(dir) = ancestors(file).find(|d| reader.read(&join(d, "pom.xml")).is_some()) else {
            continue;
        };
        let pom = join(dir, "pom.xml");
        if let Some(class) = test_class(file).filter(|_| file.ends_with(".java")) {
            let run = format!("mvn -Dtest={class} test");
            found.push(Runner::Mvn, run, dir, CommandScope::ExactTest, &pom);
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
    for class in targets.files.iter().filter_map(|f| test_class(f)) {
        let run = format!("{program} test --tests {class}");
        found.push(runner, run, "", CommandScope::ExactTest, build);
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
    use crate::validation::tests_support::{files, runs, tree_with};

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
}
