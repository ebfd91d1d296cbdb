//! `cross_app`: with more than one app, how long a change takes to show in another app and
//! which app hosts the specs that span them.

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{integer, object, text};

/// The allowed `propagation_window_s`, in seconds.
pub const WINDOW_S: std::ops::RangeInclusive<f64> = 1.0..=600.0;

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    if scope.apps.len() <= 1 {
        return;
    }
    let Some(cross) = object(scope.raw.get("cross_app")) else {
        f.error("cross_app", "required when more than one app is declared");
        return;
    };
    if !integer(cross.get("propagation_window_s")).is_some_and(|w| WINDOW_S.contains(&w)) {
        f.error("cross_app.propagation_window_s", "required, integer 1..600");
    }
    match text(cross.get("spec_home")) {
        None => f.error(
            "cross_app.spec_home",
            "required, name of the app whose spec_dir hosts cross-app specs",
        ),
        Some(home) if !scope.apps.contains(&home) => f.error(
            "cross_app.spec_home",
            format!("\"{home}\" is not a declared app"),
        ),
        Some(_) => {}
    }
}
