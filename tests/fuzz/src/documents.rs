//! The YAML documents a team writes: the host profile (qa-profile) and the manifest.

use qa_team_manifest::{self as manifest, Glob};

/// A profile parsed, checked against the rules and, when valid, made a record.
pub fn profile(data: &[u8]) {
    let Ok(value) = qa_profile::yaml::parse(data) else {
        return;
    };
    let checked = qa_profile::check(&value, None);
    if let Some(normalized) = &checked.normalized {
        let _ = qa_profile::record(data, normalized);
    }
}

/// A manifest parsed and checked, then asked what qa-intent asks of it; each of its lines
/// also tried as a glob against a few paths.
pub fn manifest(data: &[u8]) {
    if let Ok(m) = manifest::parse(data, "manifest.yaml") {
        let files = ["src/lib.rs", "web/app.tsx", ""];
        let _ = m.flow_for(&files, &["main", "checkout"]);
        let _ = m.suppression_for("a scenario", &files);
    }
    for line in String::from_utf8_lossy(data).lines().take(16) {
        if let Ok(glob) = Glob::new(line.trim()) {
            for path in ["src/lib.rs", "a/b/c.d", ".qa/manifest.yaml", ""] {
                let _ = glob.matches(path);
            }
        }
    }
}
