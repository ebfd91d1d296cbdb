//! `auth`: the sign-in model, a Playwright new enough to save IndexedDB, and storage state
//! that keeps it.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{display, object, text, trim};
use crate::vocab::{self, AuthModel, Vocabulary};

/// `storageState({ indexedDB: true })` landed in Playwright 1.51.0.
pub const PLAYWRIGHT_FLOOR: [u64; 3] = [1, 51, 0];

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(auth) = object(scope.raw.get("auth")) else {
        f.error("auth", "required");
        return;
    };
    if vocab::read::<AuthModel>(auth.get("model")).is_none() {
        f.error(
            "auth.model",
            format!("required, one of {}", AuthModel::choices()),
        );
    }
    let min = auth.get("playwright_min");
    match min {
        Some(v) if v.is_number() => {
            let read = display(v);
            f.error(
                "auth.playwright_min",
                format!("quote the version (\"{read}\"), otherwise YAML reads it as a number and 1.60 becomes 1.6"),
            );
        }
        _ => match min.map(display).as_deref().and_then(semver_prefix) {
            None => f.error(
                "auth.playwright_min",
                "required, must be a semver string (e.g. \"1.51.0\")",
            ),
            Some(v) if v < PLAYWRIGHT_FLOOR => f.error(
                "auth.playwright_min",
                "must be >= 1.51.0. storageState({ indexedDB: true }) landed in 1.51, and IndexedDB-persisted auth (Firebase) silently fails below it.",
            ),
            Some(_) => {}
        },
    }
    let Some(storage) = object(auth.get("storage_state")) else {
        f.error("auth.storage_state", "required");
        return;
    };
    if storage.get("indexed_db") != Some(&serde_json::Value::Bool(true)) {
        f.error(
            "auth.storage_state.indexed_db",
            "must be true. Saved profiles omit IndexedDB otherwise, and Firebase-style sessions will not restore.",
        );
    }
    if storage.contains_key("dir") && text(storage.get("dir")).is_none() {
        f.error(
            "auth.storage_state.dir",
            "must be a non-empty string when set",
        );
    }
}

/// `MAJOR.MINOR[.PATCH]` at the start of `version` (after trimming); anything may follow,
/// so `1.51.0-beta` reads as 1.51.0. A missing patch is 0.
pub fn semver_prefix(version: &str) -> Option<[u64; 3]> {
    let mut rest = trim(version);
    let mut parts = [0u64; 3];
    for (i, part) in parts.iter_mut().enumerate() {
        if i > 0 {
            match rest.strip_prefix('.') {
                Some(after) if after.starts_with(|c: char| c.is_ascii_digit()) => rest = after,
                _ if i == 2 => break,
                _ => return None,
            }
        }
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        // Absurdly long numbers saturate: they still compare above the floor.
        *part = rest[..digits].parse().unwrap_or(u64::MAX);
        rest = &rest[digits..];
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_their_semver_prefix() {
        assert_eq!(semver_prefix("1.51.0"), Some([1, 51, 0]));
        assert_eq!(semver_prefix(" 1.60 "), Some([1, 60, 0]));
        assert_eq!(semver_prefix("1.52.3-beta"), Some([1, 52, 3]));
        assert_eq!(semver_prefix("1.52."), Some([1, 52, 0]));
        assert_eq!(semver_prefix("v1.51.0"), None);
        assert_eq!(semver_prefix("1"), None);
        assert_eq!(semver_prefix("latest"), None);
    }
}
