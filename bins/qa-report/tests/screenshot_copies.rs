//! The run folder's `screenshots/` holds each verified screenshot exactly once, under its
//! hash, however many checks show it and however many there are (qa-report copies them
//! one at a time as it verifies them, never holding them all); a file swapped for another
//! PNG after the observation named it is neither copied nor embedded.

use crate::common;

use common::acceptance::{accept, browser_checks, merge, save_screenshot};
use qa_records::base64::{encode, Alphabet};
use qa_records::hash::sha256_hex;
use serde_json::Value;
use std::fs;
use std::path::Path;

/// A real 480x270 screenshot.
const PNG: &[u8] = include_bytes!("fixtures/cart.png");

/// A PNG distinct for each `seed`: the real one with bytes after its end.
fn png(seed: u64) -> Vec<u8> {
    let mut bytes = PNG.to_vec();
    bytes.extend(seed.to_le_bytes());
    bytes
}

/// Whether `run` keeps exactly the screenshots `pngs` (by content), each once: its
/// `screenshots/` holds `<sha256>.png` of each and nothing else (no leftover temporary
/// file), each copy is those bytes, and SHA256SUMS lists each once and no other.
fn keeps_exactly(run: &Path, pngs: &[Vec<u8>]) -> Result<(), String> {
    let mut expected: Vec<String> = pngs
        .iter()
        .map(|p| format!("{}.png", sha256_hex(p)))
        .collect();
    expected.sort();
    expected.dedup();
    let folder = run.join("screenshots");
    let held = if folder.exists() {
        common::names(&folder)
    } else {
        Vec::new()
    };
    if held != expected {
        return Err(format!("screenshots/ holds {held:?}, not {expected:?}"));
    }
    for bytes in pngs {
        let name = format!("{}.png", sha256_hex(bytes));
        if fs::read(folder.join(&name)).ok().as_deref() != Some(&bytes[..]) {
            return Err(format!("screenshots/{name} is not its screenshot's bytes"));
        }
    }
    let sums = fs::read_to_string(run.join("SHA256SUMS")).map_err(|e| e.to_string())?;
    let mut listed: Vec<&str> = sums
        .lines()
        .filter_map(|l| l.split_once("  screenshots/").map(|(_, name)| name))
        .collect();
    listed.sort_unstable();
    if listed != expected {
        return Err(format!("SHA256SUMS lists {listed:?}, not {expected:?}"));
    }
    Ok(())
}

/// 60 distinct screenshots, each shown by two checks, and the run folder they made.
fn many(repo: &Path) -> (Vec<Vec<u8>>, std::path::PathBuf) {
    let pngs: Vec<Vec<u8>> = (0..60).map(png).collect();
    let shots: Vec<Value> = pngs.iter().map(|p| save_screenshot(repo, p)).collect();
    let twice: Vec<Value> = shots.iter().chain(&shots).cloned().collect();
    let run = accept(repo, &browser_checks(&twice));
    (pngs, run)
}

#[test]
fn a_run_with_many_distinct_screenshots_keeps_each_exactly_once() {
    let repo = tempfile::tempdir().unwrap();
    let (pngs, run) = many(repo.path());
    keeps_exactly(&run, &pngs).unwrap();
    let report: Value =
        serde_json::from_str(&fs::read_to_string(run.join("report.json")).unwrap()).unwrap();
    let listed = report["screenshots"].as_array().unwrap();
    assert_eq!(listed.len(), 60);
    assert!(listed.iter().all(|s| s["file"].is_string()), "{listed:?}");
}

#[test]
fn a_merge_keeps_each_distinct_screenshot_of_its_shards_exactly_once() {
    let repo = tempfile::tempdir().unwrap();
    let (pngs, run) = many(repo.path());
    let into = tempfile::tempdir().unwrap();
    let (out, merged) = merge(&run, &into.path().join("merged"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    keeps_exactly(&merged.unwrap(), &pngs).unwrap();
}

#[test]
fn the_copies_detector_sees_a_missing_extra_or_twice_listed_screenshot() {
    // The control: a run folder whose copies are right, then each way they can be wrong.
    let repo = tempfile::tempdir().unwrap();
    let (pngs, run) = many(repo.path());
    keeps_exactly(&run, &pngs).unwrap();
    let one = run.join(format!("screenshots/{}.png", sha256_hex(&pngs[0])));
    let leftover = run.join("screenshots/.x.png.1-0.tmp");
    fs::write(&leftover, b"x").unwrap();
    assert!(keeps_exactly(&run, &pngs).is_err(), "a leftover file");
    fs::remove_file(&leftover).unwrap();
    fs::write(&one, &pngs[1]).unwrap();
    assert!(keeps_exactly(&run, &pngs).is_err(), "a copy of other bytes");
    fs::remove_file(&one).unwrap();
    assert!(keeps_exactly(&run, &pngs).is_err(), "a missing copy");
    fs::write(&one, &pngs[0]).unwrap();
    keeps_exactly(&run, &pngs).unwrap();
    let sums = run.join("SHA256SUMS");
    let text = fs::read_to_string(&sums).unwrap();
    let twice = text.lines().find(|l| l.contains("screenshots/")).unwrap();
    fs::write(&sums, format!("{text}{twice}\n")).unwrap();
    assert!(keeps_exactly(&run, &pngs).is_err(), "listed twice");
}

#[test]
fn a_screenshot_swapped_for_another_png_of_the_same_name_is_neither_copied_nor_embedded() {
    let repo = tempfile::tempdir().unwrap();
    let (kept, swapped, other) = (png(1), png(2), png(3));
    let shots = [
        save_screenshot(repo.path(), &kept),
        save_screenshot(repo.path(), &swapped),
    ];
    // After the observation named it, another real PNG takes its name.
    let sha = sha256_hex(&swapped);
    fs::write(
        repo.path().join(format!(".qa/screenshots/{sha}.png")),
        &other,
    )
    .unwrap();
    let run = accept(repo.path(), &browser_checks(&shots));
    keeps_exactly(&run, std::slice::from_ref(&kept)).unwrap();
    let report: Value =
        serde_json::from_str(&fs::read_to_string(run.join("report.json")).unwrap()).unwrap();
    let refused = report["screenshots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sha256"] == sha.as_str())
        .unwrap();
    assert!(refused["file"].is_null(), "{refused}");
    assert!(
        refused["refused"].as_str().unwrap().contains("was changed"),
        "{refused}"
    );
    let page = fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        page.contains(&encode(&kept, Alphabet::Standard)),
        "the kept one is embedded"
    );
    for bytes in [&other, &swapped] {
        assert!(!page.contains(&encode(bytes, Alphabet::Standard)));
    }
    assert!(page.contains("class=\"shot-missing\""), "the page says why");
}
