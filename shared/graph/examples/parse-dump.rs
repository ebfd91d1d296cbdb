//! parse-dump REPO REV...: what the language adapters read of every source blob of the
//! trees (each blob once), one block per blob, so two builds' readings can be diffed
//! file by file (a cheaper reader proven equal to the one it replaces).

#[path = "common/blobs.rs"]
mod blobs;

use git2::Repository;
use qa_graph::language::{self, Language, Parsed};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((repo, revs)) = args.split_first().filter(|(_, r)| !r.is_empty()) else {
        eprintln!("usage: parse-dump REPO REV...");
        return ExitCode::from(64);
    };
    match dump(repo, revs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parse-dump: error: {e:#}");
            ExitCode::from(70)
        }
    }
}

fn dump(repo: &str, revs: &[String]) -> anyhow::Result<()> {
    let git = Repository::open(repo)?;
    let blobs = blobs::of(&git, revs)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    for (oid, path) in &blobs {
        let Some(parse) = reader(path) else { continue };
        let blob = git.find_blob(*oid)?;
        let Ok(text) = std::str::from_utf8(blob.content()) else {
            continue;
        };
        let parsed = parse(path, text);
        writeln!(out, "== {path} {oid}")?;
        for import in &parsed.imports {
            writeln!(
                out,
                "import {} {} {:?}",
                import.line, import.spec, import.names
            )?;
        }
        for (name, line) in parsed.symbols.iter() {
            writeln!(out, "symbol {line} {name}")?;
        }
    }
    Ok(())
}

/// The language reader of a path, by extension.
fn reader(path: &str) -> Option<fn(&str, &str) -> Parsed> {
    let ext = path.rsplit_once('.')?.1;
    let of = |extensions: &[&str]| extensions.contains(&ext);
    if of(language::typescript::TypeScript::EXTENSIONS) {
        Some(language::typescript::TypeScript::parse)
    } else if of(language::python::Python::EXTENSIONS) {
        Some(language::python::Python::parse)
    } else if of(language::rust::Rust::EXTENSIONS) {
        Some(language::rust::Rust::parse)
    } else if of(language::go::Go::EXTENSIONS) {
        Some(language::go::Go::parse)
    } else {
        None
    }
}
