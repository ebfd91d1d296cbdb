//! `clickup`: required and checked under the default tracker; ignored (with a warning)
//! and dropped from the normalized profile under `tracker: none`.

use super::{statuses, Scope};
use crate::findings::Findings;
use crate::jsvalue::{object, text};
use crate::vocab::{self, PlanTier, Vocabulary};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    if scope.tracker_none {
        // Not validated: nothing reads it.
        if scope.raw.contains_key("clickup") {
            f.warn(
                "clickup",
                "present but ignored under tracker: none, and removed from the normalized profile",
            );
        }
        return;
    }
    let Some(clickup) = object(scope.raw.get("clickup")) else {
        f.error("clickup", "required");
        return;
    };
    if clickup.contains_key("plan_tier")
        && vocab::read::<PlanTier>(clickup.get("plan_tier")).is_none()
    {
        f.error(
            "clickup.plan_tier",
            format!("one of {} when present", PlanTier::choices()),
        );
    }
    if text(clickup.get("space")).is_none() {
        f.error(
            "clickup.space",
            "required, the ClickUp space holding QA work",
        );
    }
    if clickup.contains_key("bug_list") && text(clickup.get("bug_list")).is_none() {
        f.error(
            "clickup.bug_list",
            "must be a non-empty string when set, the list confirmed defects are filed into",
        );
    }
    if clickup.contains_key("folder") && text(clickup.get("folder")).is_none() {
        f.error(
            "clickup.folder",
            "must be a non-empty string when set, the folder inside the space that holds feature lists",
        );
    }
    statuses::check(clickup.get("statuses"), f);
}
