//! `environments`: each one's declared kind, app URLs, evidence upload and build source.

use super::{kind_of, production, sha_source, Scope};
use crate::findings::Findings;
use crate::jsvalue::{display, is_http_url, non_empty_object, object};
use crate::vocab::{self, EnvKind, EvidenceUpload, Vocabulary};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(environments) = non_empty_object(scope.raw.get("environments")) else {
        f.error(
            "environments",
            "required, must contain at least one environment",
        );
        return;
    };
    if environments.len() == 1 {
        f.warn(
            "environments",
            "only one environment registered, so there is no QA/staging split",
        );
    }
    for (name, env) in environments {
        let at = format!("environments.{name}");
        let Some(env) = env.as_object() else {
            f.error(at, "must be a mapping");
            continue;
        };
        match non_empty_object(env.get("apps")) {
            None => f.error(
                format!("{at}.apps"),
                "required, must map app names to base URLs",
            ),
            Some(apps) => {
                for (app, url) in apps {
                    if !scope.apps.is_empty() && !scope.apps.contains(&app.as_str()) {
                        f.error(format!("{at}.apps.{app}"), "not declared under apps");
                    }
                    if !is_http_url(Some(url)) {
                        f.error(format!("{at}.apps.{app}"), "must be an http(s) URL");
                    }
                }
            }
        }
        let kind = kind_of(env);
        match env.get("kind") {
            None => f.error(
                format!("{at}.kind"),
                format!(
                    "required, one of {}. Declare what this environment is; the hostname is never used to guess.",
                    EnvKind::choices()
                ),
            ),
            Some(v) if kind.is_none() => f.error(
                format!("{at}.kind"),
                format!("\"{}\" is not one of {}", display(v), EnvKind::choices()),
            ),
            Some(_) => {}
        }
        if env.contains_key("allow_production") {
            f.error(
                format!("{at}.allow_production"),
                "is rejected; declare kind: production",
            );
        }
        let upload = vocab::read::<EvidenceUpload>(env.get("evidence_upload"));
        if env.contains_key("evidence_upload") && upload.is_none() {
            f.error(
                format!("{at}.evidence_upload"),
                format!("must be {}", EvidenceUpload::choices()),
            );
        }
        if scope.tracker_none {
            if let Some(v) = upload.filter(|u| *u != EvidenceUpload::Local) {
                f.warn(
                    format!("{at}.evidence_upload"),
                    format!(
                        "{} is ignored under tracker: none; evidence stays local",
                        v.as_str()
                    ),
                );
            }
        }
        production::environment(&at, env, kind, upload, f);
        if kind != Some(EnvKind::Production) {
            // The hostname only ever warns: the declared kind wins.
            let declared = env
                .get("kind")
                .filter(|v| !v.is_null())
                .map_or_else(|| "unset".to_string(), display);
            for (app, url) in object(env.get("apps")).into_iter().flatten() {
                if let Some(url) = url
                    .as_str()
                    .filter(|u| production::looks_like_production(u))
                {
                    f.warn(
                        format!("{at}.apps.{app}"),
                        format!(
                            "\"{url}\" looks like production, but kind is {declared}. The declared kind wins; check it is not a typo."
                        ),
                    );
                }
            }
        }
        sha_source::check(&at, env.get("sha_source"), f);
    }
}
