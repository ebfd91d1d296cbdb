//! `mutation`: what a write looks like on this host, for the write guard. Every key is
//! checked, since a misspelt one would leave the guard with nothing to match.

use serde_json::Value;

use super::{production, unknown_keys, Scope};
use crate::findings::Findings;
use crate::jsregex::{self, Case};
use crate::jsvalue::text;
use crate::vocab::{self, Method, Vocabulary};

const MUTATION_KEYS: &[&str] = &["deny_controls", "write_signatures", "allow_signatures"];
const DENY_KEYS: &[&str] = &["text", "icons"];
const SIGNATURE_KEYS: &[&str] = &["method", "url", "body", "note"];

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(mutation) = scope.raw.get("mutation") else {
        production::mutation_required(scope, f);
        return;
    };
    let Some(mutation) = mutation.as_object() else {
        f.error("mutation", "must be a mapping");
        return;
    };
    unknown_keys(mutation, "mutation", MUTATION_KEYS, f);
    if let Some(deny) = mutation.get("deny_controls") {
        deny_controls(deny, f);
    }
    let writes = signatures(mutation.get("write_signatures"), "write_signatures", f);
    signatures(mutation.get("allow_signatures"), "allow_signatures", f);
    // A list that is not a list was reported above; an absent or null one, or an empty
    // list, lists no signature.
    let not_a_list = mutation
        .get("write_signatures")
        .is_some_and(|v| !v.is_array() && !v.is_null());
    if writes == 0 && !not_a_list {
        production::write_signatures_required(scope, f);
    }
}

fn deny_controls(deny: &Value, f: &mut Findings) {
    let Some(deny) = deny.as_object() else {
        f.error(
            "mutation.deny_controls",
            "must be a mapping of text and icons",
        );
        return;
    };
    unknown_keys(deny, "mutation.deny_controls", DENY_KEYS, f);
    if let Some(patterns) = deny.get("text") {
        match patterns.as_array() {
            None => f.error(
                "mutation.deny_controls.text",
                "must be a list of regex strings",
            ),
            Some(patterns) => {
                for (i, pattern) in patterns.iter().enumerate() {
                    let at = format!("mutation.deny_controls.text[{i}]");
                    match text(Some(pattern)) {
                        None => f.error(at, "must be a non-empty regex string"),
                        // Control labels are matched case-insensitively.
                        Some(p) => compiles(&at, p, Case::Insensitive, f),
                    }
                }
            }
        }
    }
    if let Some(icons) = deny.get("icons") {
        match icons.as_array() {
            None => f.error(
                "mutation.deny_controls.icons",
                "must be a list of icon class names",
            ),
            Some(icons) => {
                for (i, icon) in icons.iter().enumerate() {
                    if text(Some(icon)).is_none() {
                        f.error(
                            format!("mutation.deny_controls.icons[{i}]"),
                            "must be a non-empty string",
                        );
                    }
                }
            }
        }
    }
}

/// Checks a signature list; returns how many entries it has (0 when not a list).
fn signatures(list: Option<&Value>, key: &str, f: &mut Findings) -> usize {
    let Some(list) = list else { return 0 };
    let Some(list) = list.as_array() else {
        f.error(format!("mutation.{key}"), "must be a list");
        return 0;
    };
    for (i, signature) in list.iter().enumerate() {
        let at = format!("mutation.{key}[{i}]");
        let Some(signature) = signature.as_object() else {
            f.error(at, "must be a mapping");
            continue;
        };
        unknown_keys(signature, &at, SIGNATURE_KEYS, f);
        if vocab::read::<Method>(signature.get("method")).is_none() {
            f.error(
                format!("{at}.method"),
                format!("must be one of {} (uppercase)", Method::choices()),
            );
        }
        for field in ["url", "body"] {
            let value = signature.get(field);
            if field == "body" && value.is_none() {
                continue;
            }
            match text(value) {
                None => f.error(format!("{at}.{field}"), "required, a regex string"),
                // Request URLs and bodies are matched case-sensitively.
                Some(p) => compiles(&format!("{at}.{field}"), p, Case::Sensitive, f),
            }
        }
        if signature.get("note").is_some_and(|n| !n.is_string()) {
            f.error(format!("{at}.note"), "must be a string");
        }
    }
    list.len()
}

fn compiles(at: &str, pattern: &str, case: Case, f: &mut Findings) {
    if let Err(why) = jsregex::compile(pattern, case) {
        f.error(at, format!("does not compile: {why}"));
    }
    // The write guard matches it against every request URL, body and control label.
    jsregex::warn_if_slow(at, pattern, case, f);
}
