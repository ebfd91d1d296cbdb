//! The normalized profile: the input, in its key order, with every environment's effective
//! `evidence_upload` resolved and `clickup` dropped under `tracker: none`. Nothing else is
//! filled in.

use serde_json::{Map, Value};

use crate::vocab::{self, EnvKind, EvidenceUpload, Tracker};

/// Where an environment's traces go: local everywhere under `tracker: none` (there is
/// nowhere to upload to); else the environment's own value; else local on production and
/// reference elsewhere.
pub fn effective_evidence_upload(env: &Map<String, Value>, tracker_none: bool) -> EvidenceUpload {
    if tracker_none {
        return EvidenceUpload::Local;
    }
    if let Some(own) = vocab::read::<EvidenceUpload>(env.get("evidence_upload")) {
        return own;
    }
    match vocab::read::<EnvKind>(env.get("kind")) {
        Some(EnvKind::Production) => EvidenceUpload::Local,
        _ => EvidenceUpload::Reference,
    }
}

/// The normalized form of a profile that passed validation.
pub fn normalize(profile: &Value) -> Value {
    let mut out = profile.clone();
    let Some(root) = out.as_object_mut() else {
        return out;
    };
    let tracker_none = vocab::read::<Tracker>(root.get("tracker")) == Some(Tracker::None);
    if let Some(Value::Object(environments)) = root.get_mut("environments") {
        for env in environments.values_mut().filter_map(Value::as_object_mut) {
            let upload = effective_evidence_upload(env, tracker_none);
            // An existing key keeps its place; a new one goes last.
            env.insert("evidence_upload".to_string(), Value::from(upload.as_str()));
        }
    }
    if tracker_none {
        // Under tracker: none no stage may read a status name from an ignored block.
        root.shift_remove("clickup");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn tracker_none_makes_every_environment_local() {
        let qa = env(json!({"kind": "qa", "evidence_upload": "tracker"}));
        assert_eq!(effective_evidence_upload(&qa, true), EvidenceUpload::Local);
    }

    #[test]
    fn an_environments_own_value_wins_under_a_tracker() {
        let qa = env(json!({"kind": "qa", "evidence_upload": "tracker"}));
        assert_eq!(
            effective_evidence_upload(&qa, false),
            EvidenceUpload::Tracker
        );
    }

    #[test]
    fn the_default_is_local_on_production_and_reference_elsewhere() {
        let prod = env(json!({"kind": "production"}));
        let staging = env(json!({"kind": "staging"}));
        assert_eq!(
            effective_evidence_upload(&prod, false),
            EvidenceUpload::Local
        );
        assert_eq!(
            effective_evidence_upload(&staging, false),
            EvidenceUpload::Reference
        );
    }

    #[test]
    fn an_existing_key_keeps_its_place_and_a_new_one_goes_last() {
        let profile = json!({"environments": {
            "qa": {"evidence_upload": "tracker", "kind": "qa"},
            "prod": {"kind": "production", "apps": {}}
        }});
        let out = normalize(&profile);
        let qa: Vec<&String> = out["environments"]["qa"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        let prod: Vec<&String> = out["environments"]["prod"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(qa, ["evidence_upload", "kind"]);
        assert_eq!(prod, ["kind", "apps", "evidence_upload"]);
        assert_eq!(out["environments"]["prod"]["evidence_upload"], "local");
    }

    #[test]
    fn clickup_is_dropped_only_under_tracker_none() {
        let none = json!({"tracker": "none", "clickup": {"space": "QA"}, "z": 1});
        let keys: Vec<String> = normalize(&none)
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["tracker", "z"]);
        let clickup = json!({"clickup": {"space": "QA"}});
        assert_eq!(normalize(&clickup), clickup);
    }
}
