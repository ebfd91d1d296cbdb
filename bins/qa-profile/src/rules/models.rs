//! `models.generation_approved`: the model ids QA trusts to author cases.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{object, text};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(models) = object(scope.raw.get("models")) else {
        f.error("models", "required");
        return;
    };
    match models.get("generation_approved").and_then(|v| v.as_array()) {
        Some(list) if !list.is_empty() => {
            if !list.iter().all(|id| text(Some(id)).is_some()) {
                f.error(
                    "models.generation_approved",
                    "every entry must be a non-empty model id string",
                );
            }
        }
        _ => f.error(
            "models.generation_approved",
            "required, at least one approved model id",
        ),
    }
}
