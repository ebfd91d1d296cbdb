//! File checks: a captured manifest entry, read again under the project root, re-hashed
//! against the capture, decoded as UTF-8 and searched. Nothing is ever executed.

use std::io::Read;
use std::path::{Component, Path};

use qa_records::acceptance::{Entry, ObservationEvidence, TargetData, TargetKind};
use qa_records::hash::sha256_hex;

use crate::checks::{FileSpec, Outcome};
use crate::excerpt;
use crate::secret::{redact, Secret};

/// The largest file a capture holds (qa-fetch's per-file limit): no entry is read past it.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Runs a file check against a captured file or directory target under `repo`.
pub fn check(repo: &Path, target: &TargetData, spec: &FileSpec, token: Option<&Secret>) -> Outcome {
    let entry = match entry_of(target, spec) {
        Ok(entry) => entry,
        Err(reason) => return Outcome::unverified(reason),
    };
    let shown = shown_path(target, entry);
    let base = match target.kind {
        TargetKind::File => None,
        _ => Some(entry.path.as_str()),
    };
    if let Some(bad) = [Some(target.value.as_str()), base]
        .into_iter()
        .flatten()
        .find(|p| !is_relative_inside(p))
    {
        return Outcome::error(
            format!("unsafe path {bad:?}: not relative to the project root"),
            evidence(&shown),
        );
    }
    let path = match base {
        Some(inner) => repo.join(&target.value).join(inner),
        None => repo.join(&target.value),
    };
    let bytes = match read_captured(&path, &shown, entry) {
        Ok(bytes) => bytes,
        Err(why) => return Outcome::error(why, evidence(&shown)),
    };
    let sha256 = sha256_hex(&bytes);
    let mut found = ObservationEvidence {
        sha256: Some(sha256.clone()),
        bytes: bytes.len() as u64,
        ..evidence(&shown)
    };
    if sha256 != entry.sha256 {
        return Outcome::error(
            format!(
                "changed since capture: {shown} now hashes to {sha256}, captured as {}",
                entry.sha256
            ),
            found,
        );
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            return Outcome::error(
                format!(
                    "{shown} is not UTF-8 text: invalid byte at offset {}",
                    e.valid_up_to()
                ),
                found,
            )
        }
    };
    found.excerpt = Some(excerpt::around(&redact(token, text), &spec.contains));
    let observed = match text.find(&spec.contains) {
        Some(at) => format!(
            "{shown} contains {:?} at character {}",
            spec.contains,
            text[..at].chars().count()
        ),
        None => format!(
            "{shown} ({} bytes) does not contain {:?}",
            bytes.len(),
            spec.contains
        ),
    };
    Outcome::judged(text.contains(&spec.contains), observed, found)
}

/// The manifest entry the check reads: the one file of a file target, or the entry at
/// the check's path in a directory target; else why the check is unverified (an
/// excluded or absent path).
fn entry_of<'a>(target: &'a TargetData, spec: &FileSpec) -> Result<&'a Entry, String> {
    if target.kind == TargetKind::File {
        if spec.path.is_some() {
            return Err("invalid file check: `path` is not allowed with a file target".into());
        }
        let name = Path::new(&target.value)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&target.value);
        return match target.entries.as_slice() {
            [only] => Ok(only),
            entries => entries
                .iter()
                .find(|e| e.path == target.value || e.path == name)
                .ok_or_else(|| {
                    format!(
                        "not captured: {} is not in the target manifest",
                        target.value
                    )
                }),
        };
    }
    let Some(path) = spec.path.as_deref() else {
        return Err("invalid file check: a directory target needs `path`".into());
    };
    if let Some(entry) = target.entries.iter().find(|e| e.path == path) {
        return Ok(entry);
    }
    // An excluded directory (`node_modules`) covers every path under it.
    let excluded = target.excluded.iter().find(|x| {
        path == x.path
            || path
                .strip_prefix(x.path.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    });
    Err(match excluded {
        Some(x) => format!("not captured: excluded {} ({})", x.path, x.reason),
        None => format!("not captured: {path} is not in the target manifest"),
    })
}

/// The entry's path as the project root sees it, for messages and evidence.
fn shown_path(target: &TargetData, entry: &Entry) -> String {
    match target.kind {
        TargetKind::File => target.value.clone(),
        _ if target.value == "." || target.value.is_empty() => entry.path.clone(),
        _ => format!("{}/{}", target.value.trim_end_matches('/'), entry.path),
    }
}

fn evidence(path: &str) -> ObservationEvidence {
    ObservationEvidence {
        path: Some(path.to_string()),
        ..ObservationEvidence::default()
    }
}

/// True for a relative path with no `..`, root or prefix, and no backslash.
fn is_relative_inside(path: &str) -> bool {
    !path.contains('\\')
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The file's bytes, read only if it is still a regular file (a symlink planted since the
/// capture is not followed), and never more than one byte past the captured size.
/// Messages name the file by `shown`, its project-relative path: records hold no machine
/// paths.
fn read_captured(path: &Path, shown: &str, entry: &Entry) -> Result<Vec<u8>, String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("changed since capture: {shown} no longer exists"),
        _ => format!("reading {shown}: {e}"),
    })?;
    if !meta.file_type().is_file() {
        return Err(format!(
            "changed since capture: {shown} is no longer a regular file"
        ));
    }
    if entry.size > MAX_FILE_BYTES {
        return Err(format!(
            "the manifest entry for {shown} is over the {MAX_FILE_BYTES}-byte capture limit"
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("reading {shown}: {e}"))?;
    let mut bytes = Vec::with_capacity(entry.size as usize);
    // One byte more than captured is enough to see that the file grew.
    file.take(entry.size + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading {shown}: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_relative_paths_inside_the_root_are_read() {
        assert!(is_relative_inside("site/index.html"));
        assert!(is_relative_inside("./a"));
        assert!(!is_relative_inside("../a"));
        assert!(!is_relative_inside("a/../../b"));
        assert!(!is_relative_inside("/etc/passwd"));
        assert!(!is_relative_inside("a\\b"));
    }
}
