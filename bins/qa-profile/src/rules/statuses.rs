//! `clickup.statuses`: the host's names for the seven lifecycle states, all or none, each
//! distinct after trimming and case-folding.

use serde_json::Value;

use crate::findings::Findings;
use crate::jsvalue::{text, trim};

/// The lifecycle keys with their canonical names, in lifecycle order.
pub const STATUSES: [(&str, &str); 7] = [
    ("case_review", "Case Review"),
    ("approved_for_execution", "Approved for Execution"),
    ("under_review", "Under Review"),
    ("approved", "Approved"),
    ("rejected", "Rejected"),
    ("retest", "Retest"),
    ("quarantined", "Quarantined"),
];

pub(super) fn check(statuses: Option<&Value>, f: &mut Findings) {
    let Some(statuses) = statuses else {
        let canonical: Vec<&str> = STATUSES.iter().map(|(_, name)| *name).collect();
        f.warn(
            "clickup.statuses",
            format!(
                "not declared, so the canonical names are assumed ({}). Declare them if your ClickUp uses different wording.",
                canonical.join(", ")
            ),
        );
        return;
    };
    let Some(statuses) = statuses.as_object() else {
        f.error(
            "clickup.statuses",
            "must be a mapping of lifecycle key to the status name as it appears in ClickUp",
        );
        return;
    };
    let keys: Vec<&str> = STATUSES.iter().map(|(key, _)| *key).collect();
    for key in statuses.keys().filter(|k| !keys.contains(&k.as_str())) {
        f.error(
            format!("clickup.statuses.{key}"),
            format!("unknown lifecycle key (allowed: {})", keys.join(", ")),
        );
    }
    for key in &keys {
        if text(statuses.get(*key)).is_none() {
            f.error(
                format!("clickup.statuses.{key}"),
                "required once clickup.statuses is set; name it exactly as ClickUp shows it",
            );
        }
    }
    let mut seen: Vec<(String, &str)> = Vec::new();
    for key in &keys {
        let Some(name) = text(statuses.get(*key)) else {
            continue;
        };
        let folded = trim(name).to_lowercase();
        match seen.iter().find(|(n, _)| *n == folded) {
            Some((_, first)) => f.error(
                "clickup.statuses",
                format!("\"{name}\" is used for both {first} and {key}; each lifecycle state needs a status of its own or the pipeline cannot tell them apart"),
            ),
            None => seen.push((folded, key)),
        }
    }
}
