//! `apps`: at least one frontend, each with its framework, spec folder and repository.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{non_empty_object, text};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(apps) = non_empty_object(scope.raw.get("apps")) else {
        f.error("apps", "required, must contain at least one app");
        return;
    };
    for (name, app) in apps {
        let Some(app) = app.as_object() else {
            f.error(format!("apps.{name}"), "must be a mapping");
            continue;
        };
        for field in ["framework", "spec_dir", "repo"] {
            if text(app.get(field)).is_none() {
                f.error(
                    format!("apps.{name}.{field}"),
                    "required, must be a non-empty string",
                );
            }
        }
    }
}
