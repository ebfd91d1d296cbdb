//! What qa-check reads of the stream: the plan's checks in order, their check routes, the
//! target spec and the captured targets.

use std::collections::HashMap;

use anyhow::Result;
use qa_records::acceptance::{CheckRouteData, CheckSpecData, TargetData, TargetSpec};
use qa_records::ndjson::data_of;
use qa_records::{Envelope, Kind};
use serde::Deserialize as _;

use crate::guard::WriteGuard;

/// A record's data with its id.
#[derive(Debug, Clone)]
pub struct Read<T> {
    pub id: String,
    pub data: T,
}

/// Everything upstream a check needs.
#[derive(Debug, Default)]
pub struct Plan {
    /// `check.spec` records, in stream (plan) order.
    pub checks: Vec<Read<CheckSpecData>>,
    /// Check routes by subject (the `check.spec` id); the last route of a check wins.
    pub routes: HashMap<String, Read<CheckRouteData>>,
    /// The last `target.spec`: which captured target the checks run against.
    pub target_spec: Option<TargetSpec>,
    /// `target` records, in stream order.
    pub targets: Vec<Read<TargetData>>,
    /// The last `profile` record's data (the normalized host profile), if any.
    pub profile: Option<serde_json::Value>,
}

impl Plan {
    /// Keeps what a check needs from one forwarded record. A check spec or target that
    /// does not parse is bad input (65); a route that is not a check route is a scenario
    /// route and is skipped.
    pub fn take(&mut self, source: &str, line: u64, envelope: Envelope) -> Result<()> {
        match envelope.known_kind() {
            Some(Kind::CheckSpec) => self.checks.push(Read {
                data: data_of(source, line, &envelope)?,
                id: envelope.id,
            }),
            Some(Kind::Route) => {
                // Scenario routes lack `check`, `needs` and `missing`: they do not parse.
                if let Ok(data) = CheckRouteData::deserialize(&envelope.data) {
                    self.routes.insert(
                        data.subject.clone(),
                        Read {
                            id: envelope.id,
                            data,
                        },
                    );
                }
            }
            Some(Kind::TargetSpec) => self.target_spec = Some(data_of(source, line, &envelope)?),
            Some(Kind::Profile) => self.profile = Some(envelope.data),
            Some(Kind::Target) => self.targets.push(Read {
                data: data_of(source, line, &envelope)?,
                id: envelope.id,
            }),
            _ => {}
        }
        Ok(())
    }

    /// The production write guard browser checks run under: the profile's signatures when
    /// the plan's target names a production environment of it.
    pub fn write_guard(&self) -> Option<WriteGuard> {
        let env = self.target_spec.as_ref()?.env.as_deref()?;
        WriteGuard::of_profile(self.profile.as_ref()?, env)
    }

    /// The captured target the checks run against: the last `target` record of the plan's
    /// target (same kind and value as the last `target.spec`), or the last `target` when
    /// the stream has no spec.
    pub fn target(&self) -> Option<&Read<TargetData>> {
        let mut targets = self.targets.iter().rev();
        match &self.target_spec {
            Some(spec) => targets.find(|t| t.data.kind == spec.kind && t.data.value == spec.value),
            None => targets.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::acceptance::TargetKind;

    fn target(kind: TargetKind, value: &str, id: char) -> Read<TargetData> {
        let data = serde_json::json!({
            "kind": kind, "value": value, "status": "captured", "entries": [], "excluded": [],
        });
        Read {
            id: format!("sha256:{}", id.to_string().repeat(64)),
            data: TargetData::deserialize(&data).unwrap(),
        }
    }

    #[test]
    fn the_target_matching_the_spec_is_chosen_over_a_later_other_one() {
        let plan = Plan {
            target_spec: Some(TargetSpec {
                kind: TargetKind::Directory,
                value: "site".into(),
                build_id: None,
                env: None,
                app: None,
            }),
            targets: vec![
                target(TargetKind::Directory, "site", 'a'),
                target(TargetKind::Directory, "other", 'b'),
            ],
            ..Plan::default()
        };
        assert_eq!(plan.target().unwrap().data.value, "site");
    }

    #[test]
    fn no_target_matches_a_spec_naming_another_one() {
        let plan = Plan {
            target_spec: Some(TargetSpec {
                kind: TargetKind::Url,
                value: "http://x".into(),
                build_id: None,
                env: None,
                app: None,
            }),
            targets: vec![target(TargetKind::Directory, "site", 'a')],
            ..Plan::default()
        };
        assert!(plan.target().is_none());
    }

    #[test]
    fn without_a_spec_the_last_target_is_chosen() {
        let plan = Plan {
            targets: vec![
                target(TargetKind::Directory, "a", 'a'),
                target(TargetKind::Directory, "b", 'b'),
            ],
            ..Plan::default()
        };
        assert_eq!(plan.target().unwrap().data.value, "b");
    }
}
