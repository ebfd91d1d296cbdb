//! `selectors`: the test-id attribute, and the selector policy document if one is named.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{object, text};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(selectors) = object(scope.raw.get("selectors")) else {
        f.error("selectors", "required");
        return;
    };
    if text(selectors.get("testid_attribute")).is_none() {
        f.error("selectors.testid_attribute", "required, e.g. data-testid");
    }
    if !selectors.contains_key("policy_doc") {
        return;
    }
    let Some(doc) = text(selectors.get("policy_doc")) else {
        f.error(
            "selectors.policy_doc",
            "must be a non-empty string when set",
        );
        return;
    };
    if let Some(dir) = scope.profile_dir {
        // Relative to the profile's folder; a `#section` anchor is not part of the path.
        let file = doc.split('#').next().unwrap_or_default();
        if !dir.join(file).exists() {
            f.warn(
                "selectors.policy_doc",
                format!("\"{doc}\" not found on disk"),
            );
        }
    }
}
