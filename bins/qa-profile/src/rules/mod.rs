//! The profile's rules, one module per section, run in the order the format lists them.

use std::path::Path;

use serde_json::{Map, Value};

use crate::findings::Findings;
use crate::jsvalue::{non_empty_object, object};
use crate::vocab::{self, EnvKind, Tracker};

mod apps;
mod auth;
mod clickup;
mod context;
mod cross_app;
mod environments;
mod evidence;
mod models;
mod mutation;
mod production;
mod sandbox;
mod selectors;
mod sha_source;
mod stabilization;
mod statuses;
mod top_level;

pub use production::looks_like_production;

/// What several sections need to know about the whole profile.
pub(crate) struct Scope<'a> {
    pub raw: &'a Map<String, Value>,
    /// `tracker: none`; any other value (even an invalid one) keeps the clickup rules.
    pub tracker_none: bool,
    /// The declared app names (none when `apps` is not a non-empty mapping).
    pub apps: Vec<&'a str>,
    /// The environments that are mappings, by name.
    pub environments: Vec<(&'a str, &'a Map<String, Value>)>,
    /// True when some environment declares `kind: production`.
    pub has_production: bool,
    /// The profile file's directory, against which `selectors.policy_doc` is looked up.
    pub profile_dir: Option<&'a Path>,
}

impl<'a> Scope<'a> {
    fn new(raw: &'a Map<String, Value>, profile_dir: Option<&'a Path>) -> Scope<'a> {
        let tracker_none = vocab::read::<Tracker>(raw.get("tracker")) == Some(Tracker::None);
        let apps = non_empty_object(raw.get("apps"))
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let environments: Vec<_> = object(raw.get("environments"))
            .map(|m| {
                m.iter()
                    .filter_map(|(name, env)| env.as_object().map(|env| (name.as_str(), env)))
                    .collect()
            })
            .unwrap_or_default();
        let has_production = environments
            .iter()
            .any(|(_, env)| kind_of(env) == Some(EnvKind::Production));
        Scope {
            raw,
            tracker_none,
            apps,
            environments,
            has_production,
            profile_dir,
        }
    }
}

/// The environment's declared kind, when it is one of the documented kinds.
pub(crate) fn kind_of(env: &Map<String, Value>) -> Option<EnvKind> {
    vocab::read(env.get("kind"))
}

/// Every error and warning of `profile` (the parsed YAML). `profile_dir` is where the
/// profile file lives; without it, paths on disk are not checked.
pub fn check(profile: &Value, profile_dir: Option<&Path>) -> Findings {
    let mut f = Findings::default();
    let Some(raw) = profile.as_object() else {
        f.error("profile", "must be a YAML mapping");
        return f;
    };
    let scope = Scope::new(raw, profile_dir);
    top_level::check(&scope, &mut f);
    apps::check(&scope, &mut f);
    environments::check(&scope, &mut f);
    auth::check(&scope, &mut f);
    evidence::check(&scope, &mut f);
    stabilization::check(&scope, &mut f);
    selectors::check(&scope, &mut f);
    models::check(&scope, &mut f);
    sandbox::check(&scope, &mut f);
    cross_app::check(&scope, &mut f);
    clickup::check(&scope, &mut f);
    context::check(&scope, &mut f);
    mutation::check(&scope, &mut f);
    f
}

/// Reports every key of `map` (at `at`) that is not in `allowed`.
pub(crate) fn unknown_keys(map: &Map<String, Value>, at: &str, allowed: &[&str], f: &mut Findings) {
    for key in map.keys().filter(|k| !allowed.contains(&k.as_str())) {
        f.error(
            format!("{at}.{key}"),
            format!("unknown key (allowed: {})", allowed.join(", ")),
        );
    }
}
