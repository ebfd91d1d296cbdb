//! report.html embeds each screenshot once, whatever the number of checks showing it, and
//! at most 20 MiB of them; the rest are links to the files copied into `screenshots/`, so
//! a run of many checks with large screenshots stays a page a browser opens.

use crate::common;

use common::acceptance::{accept, big_png, browser_checks as stream, save_screenshot as saved};
use serde_json::Value;
use std::fs;

const DATA_URL: &str = "src=\"data:image/png;base64,";
const BUDGET: usize = 20 * 1024 * 1024;

/// How a page shows screenshots: the embedded data URLs, each counted, and the total
/// bytes they take.
struct Embedded {
    urls: Vec<String>,
}

impl Embedded {
    fn of(page: &str) -> Embedded {
        let urls = page
            .match_indices(DATA_URL)
            .map(|(at, _)| {
                let rest = &page[at + DATA_URL.len()..];
                rest[..rest.find('"').expect("a closed src")].to_string()
            })
            .collect();
        Embedded { urls }
    }

    fn bytes(&self) -> usize {
        self.urls.iter().map(String::len).sum()
    }

    /// The largest number of times one data URL appears.
    fn most_repeated(&self) -> usize {
        self.urls
            .iter()
            .map(|u| self.urls.iter().filter(|v| *v == u).count())
            .max()
            .unwrap_or(0)
    }
}

#[test]
fn each_screenshot_is_embedded_once_and_at_most_20_mib_in_all_the_rest_linked() {
    let repo = tempfile::tempdir().unwrap();
    // 12 distinct 1.9 MB screenshots (2.5 MiB each in base64: 8 fit the budget), each
    // shown by three checks.
    let distinct: Vec<Value> = (0..12).map(|i| saved(repo.path(), &big_png(i))).collect();
    let shots: Vec<Value> = (0..3).flat_map(|_| distinct.iter().cloned()).collect();
    let run = accept(repo.path(), &stream(&shots));
    let page = fs::read_to_string(run.join("report.html")).unwrap();

    let embedded = Embedded::of(&page);
    assert_eq!(
        embedded.most_repeated(),
        1,
        "a screenshot is embedded twice"
    );
    assert_eq!(embedded.urls.len(), 8);
    assert!(
        embedded.bytes() <= BUDGET,
        "{} bytes embedded",
        embedded.bytes()
    );
    assert!(
        page.len() < BUDGET + 1024 * 1024,
        "report.html is {} bytes",
        page.len()
    );
    // Every screenshot past the budget is a relative link to its copy in the run folder.
    for shot in &distinct[8..] {
        let sha = shot["sha256"].as_str().unwrap();
        let link = format!("href=\"screenshots/{sha}.png\"");
        assert_eq!(page.matches(&link).count(), 3, "{sha}");
        assert!(run.join(format!("screenshots/{sha}.png")).is_file());
    }
    // Every repeat of an embedded one points back to it.
    for shot in &distinct[..8] {
        let sha = shot["sha256"].as_str().unwrap();
        assert_eq!(page.matches(&format!("id=\"shot-{sha}\"")).count(), 1);
        assert_eq!(page.matches(&format!("href=\"#shot-{sha}\"")).count(), 2);
    }
    // The policy still allows only data: images; links are navigation.
    assert!(page.contains("img-src data:;") && !page.contains("img-src 'self'"));
}

#[test]
fn the_embedding_detector_sees_a_repeated_or_oversized_page() {
    // The control: a page embedding one screenshot twice, and one over the budget.
    let one = format!("<img {DATA_URL}AAAA\">");
    assert_eq!(Embedded::of(&one.repeat(2)).most_repeated(), 2);
    let big = format!("<img {DATA_URL}{}\">", "A".repeat(BUDGET + 4));
    assert!(Embedded::of(&big).bytes() > BUDGET);
}

#[test]
fn a_few_small_screenshots_are_all_embedded() {
    let repo = tempfile::tempdir().unwrap();
    let png = include_bytes!("fixtures/cart.png");
    let shot = saved(repo.path(), png);
    let run = accept(repo.path(), &stream(&[shot.clone(), shot]));
    let page = fs::read_to_string(run.join("report.html")).unwrap();
    let embedded = Embedded::of(&page);
    assert_eq!(embedded.urls.len(), 1);
    assert!(!page.contains("href=\"screenshots/"), "nothing is linked");
}
