//! imports-check REPO REV...: for every source blob of the trees (each blob once), the
//! imports qa-syntax reads from the part of the file it chooses to parse
//! (`qa_syntax::imports`) against those of the whole file's tree; prints each blob where
//! they differ, so a cheaper cut is proven to read what the whole tree reads.

#[path = "common/blobs.rs"]
mod blobs;

use git2::Repository;
use qa_syntax::Grammar;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((repo, revs)) = args.split_first().filter(|(_, r)| !r.is_empty()) else {
        eprintln!("usage: imports-check REPO REV...");
        return ExitCode::from(64);
    };
    match check(repo, revs) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("imports-check: error: {e:#}");
            ExitCode::from(70)
        }
    }
}

/// The number of blobs whose two readings differ.
fn check(repo: &str, revs: &[String]) -> anyhow::Result<usize> {
    let git = Repository::open(repo)?;
    let blobs = blobs::of(&git, revs)?;
    let (mut read, mut differ) = (0, 0);
    for (oid, path) in &blobs {
        let Some(grammar) = Grammar::of(path) else {
            continue;
        };
        let blob = git.find_blob(*oid)?;
        let Ok(text) = std::str::from_utf8(blob.content()) else {
            continue;
        };
        read += 1;
        let cut = qa_syntax::imports(grammar, text);
        let whole = qa_syntax::read(grammar, text).imports;
        if cut != whole {
            differ += 1;
            println!("== {path} {oid}");
            for import in whole.iter().filter(|i| !cut.contains(i)) {
                println!("  - {} {} {:?}", import.line, import.spec, import.names);
            }
            for import in cut.iter().filter(|i| !whole.contains(i)) {
                println!("  + {} {} {:?}", import.line, import.spec, import.names);
            }
        }
    }
    eprintln!("{read} files read, {differ} differ from the whole tree");
    Ok(differ)
}
