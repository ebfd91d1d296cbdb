//! Criterion sources: ticket and spec files read inside the repository root (symlinks
//! resolved, size bounded), hashed, and searched for their verbatim quote.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::Result;
use qa_records::acceptance::Source;
use qa_records::exit::{failure, Exit};
use qa_records::hash::sha256_hex;

use super::shape::{DeclaredSource, Pointer};
use super::{not_regular, PlanError, MAX_FILE_BYTES};

/// The repository root every source path of a plan is under, with symlinks resolved.
#[derive(Debug, Clone)]
pub struct Root {
    real: PathBuf,
}

/// What reading one source file gave.
enum Read {
    /// Hashed; the quote was or was not in it.
    Hashed { sha256: String, found: bool },
    /// Not there (or not a readable regular file): the criterion stays unverified.
    Missing(String),
}

impl Root {
    /// The directory `repo`; a missing one is exit 66.
    pub fn open(repo: &Path) -> Result<Root> {
        let shown = repo.display();
        let real = std::fs::canonicalize(repo)
            .map_err(|e| failure(Exit::NoInput, format!("repository {shown}: {e}")))?;
        if !real.is_dir() {
            return Err(failure(
                Exit::NoInput,
                format!("repository {shown} is not a directory"),
            ));
        }
        Ok(Root { real })
    }

    /// The checked source of one criterion (at `at`) of the plan `plan`. A missing file or
    /// quote gives `found: false` and a warning; a path that resolves outside the root or a
    /// file over the size limit is a plan error.
    pub(super) fn resolve(
        &self,
        declared: &DeclaredSource,
        at: &Pointer,
        plan: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Source, PlanError> {
        let (kind, path, quote) = match declared {
            DeclaredSource::Inline { kind, text } => {
                return Ok(Source {
                    kind: *kind,
                    path: None,
                    quote: None,
                    text: Some(text.clone()),
                    sha256: None,
                    found: true,
                })
            }
            DeclaredSource::File { kind, path, quote } => (*kind, path, quote),
        };
        let at = at.key("source");
        let (sha256, found) = match self.read(path, quote, &at.key("path"))? {
            Read::Hashed { sha256, found } => {
                if !found {
                    warnings.push(format!(
                        "{plan}: {}: not found verbatim in `{path}`; the criterion stays unverified",
                        at.key("quote")
                    ));
                }
                (Some(sha256), found)
            }
            Read::Missing(why) => {
                warnings.push(format!(
                    "{plan}: {}: {why}; the criterion stays unverified",
                    at.key("path")
                ));
                (None, false)
            }
        };
        Ok(Source {
            kind,
            path: Some(path.clone()),
            quote: Some(quote.clone()),
            text: None,
            sha256,
            found,
        })
    }

    /// Reads `path` (already checked to be repository-relative) under the root.
    fn read(&self, path: &str, quote: &str, at: &Pointer) -> Result<Read, PlanError> {
        let real = match std::fs::canonicalize(self.real.join(path)) {
            Ok(real) => real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Read::Missing(format!("`{path}` does not exist")))
            }
            Err(e) => return Ok(Read::Missing(format!("`{path}` cannot be read: {e}"))),
        };
        if !real.starts_with(&self.real) {
            return Err(at.error(format!(
                "`{path}` resolves outside the repository (through a symlink)"
            )));
        }
        // Looked at before opening: opening a FIFO waits for a writer that may never come.
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() => {}
            Ok(meta) => {
                return Ok(Read::Missing(format!(
                    "`{path}` is {}, not a regular file",
                    not_regular(&meta)
                )))
            }
            Err(e) => return Ok(Read::Missing(format!("`{path}` cannot be read: {e}"))),
        }
        let file = match std::fs::File::open(&real) {
            Ok(file) => file,
            Err(e) => return Ok(Read::Missing(format!("`{path}` cannot be read: {e}"))),
        };
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Ok(Read::Missing(format!("`{path}` is not a regular file")));
        }
        let mut bytes = Vec::new();
        if let Err(e) = file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
            return Ok(Read::Missing(format!("`{path}` cannot be read: {e}")));
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(at.error(format!(
                "`{path}` is larger than the 4 MiB source file limit"
            )));
        }
        // Verbatim: the quote's exact bytes, with no normalization of case, whitespace or
        // line endings.
        let found = match std::str::from_utf8(&bytes) {
            Ok(text) => text.contains(quote),
            Err(_) => bytes.windows(quote.len()).any(|w| w == quote.as_bytes()),
        };
        Ok(Read::Hashed {
            sha256: sha256_hex(&bytes),
            found,
        })
    }
}
