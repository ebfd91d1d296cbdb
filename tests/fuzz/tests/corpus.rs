//! Every committed corpus input and every crash the fuzzer found, replayed through its
//! target's entry point on the stable toolchain: none may panic.

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files directly in `dir`, sorted (none when it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file() && p.file_name().is_none_or(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// Runs `target` on each input, naming the input that panicked.
fn replay(target: &qa_fuzz::Target, files: &[PathBuf]) {
    for file in files {
        let data = std::fs::read(file).expect("reading a corpus file");
        let run = target.run;
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(
            outcome.is_ok(),
            "target {} panicked on {}",
            target.name,
            file.display()
        );
    }
}

#[test]
fn every_target_has_a_seed_corpus() {
    for target in qa_fuzz::TARGETS {
        let seeds = inputs(&fuzz_dir().join("corpus").join(target.name));
        assert!(
            !seeds.is_empty(),
            "tests/fuzz/corpus/{} has no seed",
            target.name
        );
    }
}

#[test]
fn every_corpus_and_regression_folder_names_a_target() {
    for kind in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(kind)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if !path.is_dir() {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                qa_fuzz::target(&name).is_some(),
                "tests/fuzz/{kind}/{name} names no target"
            );
        }
    }
}

#[test]
fn the_seed_corpus_replays_without_a_panic() {
    for target in qa_fuzz::TARGETS {
        replay(
            target,
            &inputs(&fuzz_dir().join("corpus").join(target.name)),
        );
    }
}

#[test]
fn every_crash_found_replays_without_a_panic() {
    for target in qa_fuzz::TARGETS {
        replay(
            target,
            &inputs(&fuzz_dir().join("regressions").join(target.name)),
        );
    }
}
