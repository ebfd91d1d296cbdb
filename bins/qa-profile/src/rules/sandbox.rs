//! `sandbox.mode`: the environment variable and value that put an app on its mocks, where
//! specs stabilize by default (never verdict-eligible).

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{object, text};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(mode) = object(scope.raw.get("sandbox")).and_then(|s| object(s.get("mode"))) else {
        f.error(
            "sandbox.mode",
            "required. Declare the stabilization mode (env_var + value).",
        );
        return;
    };
    if text(mode.get("env_var")).is_none() {
        f.error("sandbox.mode.env_var", "required, e.g. VITE_API_MODE");
    }
    if text(mode.get("value")).is_none() {
        f.error("sandbox.mode.value", "required, e.g. mocks");
    }
}
