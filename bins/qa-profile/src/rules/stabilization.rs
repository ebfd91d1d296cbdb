//! `stabilization`: the deployed environment where a new spec earns its three greens when
//! the sandbox cannot model the flow: registered, and never production.

use super::{kind_of, unknown_keys, Scope};
use crate::findings::Findings;
use crate::jsvalue::text;
use crate::vocab::EnvKind;

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(stabilization) = scope.raw.get("stabilization") else {
        return;
    };
    let Some(stabilization) = stabilization.as_object() else {
        f.error("stabilization", "must be a mapping, e.g. { env: staging }");
        return;
    };
    unknown_keys(stabilization, "stabilization", &["env"], f);
    let Some(name) = text(stabilization.get("env")) else {
        f.error(
            "stabilization.env",
            "required, the name of a registered environment",
        );
        return;
    };
    match scope.environments.iter().find(|(n, _)| *n == name) {
        None => f.error(
            "stabilization.env",
            format!("\"{name}\" is not a registered environment"),
        ),
        Some((_, env)) if kind_of(env) == Some(EnvKind::Production) => f.error(
            "stabilization.env",
            format!("\"{name}\" has kind production. Stabilization runs a spec before anyone trusts it, which production must not host."),
        ),
        Some(_) => {}
    }
}
