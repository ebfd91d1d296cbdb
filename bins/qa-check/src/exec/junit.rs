//! JUnit XML reports (pytest `--junitxml`, Maven Surefire, Gradle): each `<testcase>`'s
//! name, class and outcome, read with a small scanner (only these elements and attributes
//! matter; a file that does not hold them counts as unread).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use qa_records::execution::TestOutcome;

/// The largest report file read (JUnit XML or a JS runner's JSON).
pub const MAX_FILE: u64 = 64 << 20;
/// The most report files read from build folders.
const MAX_FILES: usize = 4096;

/// Reads the report `file`, telling `note` each test case (name, `class name`, outcome).
/// False when the file is absent, too large or holds no test suite.
pub fn read(file: &Path, note: &mut impl FnMut(&str, &str, TestOutcome)) -> bool {
    let fits = std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE);
    let Some(text) = fits.then(|| std::fs::read_to_string(file).ok()).flatten() else {
        return false;
    };
    cases(&text, note)
}

/// Reads every `*.xml` report in `dirs` modified since `started` (one left by an earlier
/// build is not this run's). False when none was.
pub fn read_dirs(
    dirs: &[PathBuf],
    started: SystemTime,
    note: &mut impl FnMut(&str, &str, TestOutcome),
) -> bool {
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .filter(|p| {
            std::fs::metadata(p)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= started)
        })
        .take(MAX_FILES)
        .collect();
    files.sort();
    let mut any = false;
    for file in files {
        any |= read(&file, note);
    }
    any
}

/// The test cases of a JUnit XML text. False when it holds no `<testsuite`.
fn cases(text: &str, note: &mut impl FnMut(&str, &str, TestOutcome)) -> bool {
    if !text.contains("<testsuite") {
        return false;
    }
    let mut rest = text;
    while let Some(at) = rest.find("<testcase") {
        rest = &rest[at + "<testcase".len()..];
        let Some(end) = rest.find('>') else {
            break;
        };
        let tag = &rest[..end];
        let body = if tag.ends_with('/') {
            ""
        } else {
            let close = rest.find("</testcase>").unwrap_or(rest.len());
            &rest[end..close]
        };
        let outcome = if body.contains("<failure") || body.contains("<error") {
            TestOutcome::Failed
        } else if body.contains("<skipped") {
            TestOutcome::Skipped
        } else {
            TestOutcome::Passed
        };
        let name = attribute(tag, "name").unwrap_or_default();
        let class = attribute(tag, "classname").unwrap_or_default();
        note(&name, &format!("{class} {name}"), outcome);
        rest = &rest[end..];
    }
    true
}

/// The unescaped value of `name="..."` in a tag's attributes.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut rest = tag;
    loop {
        let at = rest.find(&format!("{name}=\""))?;
        let before = rest[..at].chars().last();
        rest = &rest[at + name.len() + 2..];
        if before.is_none_or(char::is_whitespace) {
            let value = &rest[..rest.find('"')?];
            return Some(
                value
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Option<Vec<(String, TestOutcome)>> {
        let mut seen = Vec::new();
        let read = cases(text, &mut |name: &str, _: &str, outcome| {
            seen.push((name.to_string(), outcome))
        });
        read.then_some(seen)
    }

    #[test]
    fn each_test_case_is_read_with_its_outcome() {
        let xml = r#"<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="4">
<testcase classname="tests.test_cart" name="test_total" time="0.001" />
<testcase classname="tests.test_cart" name="test_tax[a&amp;b]" time="0.001"><failure message="x">boom</failure></testcase>
<testcase classname="tests.test_cart" name="test_slow"><skipped message="later"/></testcase>
<testcase classname="tests.test_cart" name="test_io"><error message="e"/></testcase>
</testsuite></testsuites>"#;
        let seen = read_text(xml).unwrap();
        assert_eq!(
            seen,
            [
                ("test_total".to_string(), TestOutcome::Passed),
                ("test_tax[a&b]".to_string(), TestOutcome::Failed),
                ("test_slow".to_string(), TestOutcome::Skipped),
                ("test_io".to_string(), TestOutcome::Failed),
            ]
        );
    }

    #[test]
    fn build_reports_are_read_only_when_written_during_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let reports = dir.path().join("target/surefire-reports");
        std::fs::create_dir_all(&reports).unwrap();
        let suite = |name: &str| {
            format!(
                r#"<testsuite tests="1"><testcase classname="CartTest" name="{name}"/></testsuite>"#
            )
        };
        std::fs::write(reports.join("TEST-Old.xml"), suite("leftOver")).unwrap();
        let started = SystemTime::now() + std::time::Duration::from_secs(2);
        let mut seen = Vec::new();
        let mut note = |name: &str, _: &str, _| seen.push(name.to_string());
        // Only a report older than the run: nothing read.
        assert!(!read_dirs(
            std::slice::from_ref(&reports),
            started,
            &mut note
        ));
        let file = std::fs::File::options()
            .write(true)
            .create(true)
            .truncate(true)
            .open(reports.join("TEST-CartTest.xml"))
            .unwrap();
        std::io::Write::write_all(&mut &file, suite("totals").as_bytes()).unwrap();
        file.set_modified(started + std::time::Duration::from_secs(1))
            .unwrap();
        assert!(read_dirs(&[reports], started, &mut note));
        assert_eq!(seen, ["totals"]);
    }

    #[test]
    fn a_file_without_a_test_suite_is_unread() {
        assert_eq!(read_text("<html>not a report</html>"), None);
        assert_eq!(
            read_text("<testsuite tests=\"0\"></testsuite>"),
            Some(vec![])
        );
    }
}
