//! The top level: only documented keys, a project name, and the tracker.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{display, text};
use crate::vocab::{self, Tracker, Vocabulary};

/// Every top-level key the format defines, in documented order.
pub const TOP_LEVEL_KEYS: &[&str] = &[
    "project",
    "tracker",
    "apps",
    "environments",
    "stabilization",
    "auth",
    "assertions",
    "evidence",
    "selectors",
    "models",
    "sandbox",
    "context",
    "mutation",
    "cross_app",
    "clickup",
];

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    for key in scope.raw.keys() {
        if !TOP_LEVEL_KEYS.contains(&key.as_str()) {
            // Reported at its own name: there is no parent key to hang it on.
            f.error(
                key.as_str(),
                format!(
                    "unknown top-level key (allowed: {})",
                    TOP_LEVEL_KEYS.join(", ")
                ),
            );
        }
    }
    if text(scope.raw.get("project")).is_none() {
        f.error("project", "required, must be a non-empty string");
    }
    // `tracker:` left empty means the default, as an absent key does.
    match scope.raw.get("tracker").filter(|v| !v.is_null()) {
        Some(v) if vocab::read::<Tracker>(Some(v)).is_none() => f.error(
            "tracker",
            format!(
                "\"{}\" is not one of {} (default: clickup)",
                display(v),
                Tracker::choices()
            ),
        ),
        _ => {}
    }
}
