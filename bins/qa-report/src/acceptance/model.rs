//! The acceptance report's model: a verified acceptance stream read into its plan, targets,
//! criteria (each with its checks, routes and final observations), recaptures and events,
//! every source-derived string cleaned by one `Boundary`.

use crate::model::{DiagView, Linked, Severity};
use qa_records::acceptance::{
    BuildData, BuildVerifyData, CallStatus, CheckRouteData, CheckSpecData, CriterionData,
    EventData, ObservationData, ObservationStatus, PlanData, Screenshot, SourceKind, TargetData,
    TargetVerifyData,
};
use qa_records::ndjson;
use qa_records::untrusted::Boundary;
use qa_records::{Envelope, Exit, Kind};
use serde::Serialize;
use std::collections::HashMap;

/// A run against a production environment, as the host profile declares it.
#[derive(Debug, Clone, Serialize)]
pub struct Production {
    pub env: String,
    /// The profile's `test_account` (null counts as present in the profile rules).
    pub test_account: Option<String>,
}

/// Everything an acceptance report shows. Strings are already cleaned.
#[derive(Debug, Default, Serialize)]
pub struct Acceptance {
    /// None only when a run was cancelled before the plan record arrived.
    pub plan: Option<Linked<PlanData>>,
    pub targets: Vec<Linked<TargetData>>,
    /// In plan order.
    pub criteria: Vec<CriterionView>,
    /// Every `target.verify` record, changed or not.
    pub verifies: Vec<Linked<TargetVerifyData>>,
    /// The plan's environment when the profile declares it production: the test account
    /// the profile attests the run uses.
    pub production: Option<Production>,
    /// The deployed builds read (`qa-fetch --env`), and read again by `--verify`.
    pub builds: Vec<Linked<BuildData>>,
    pub build_verifies: Vec<Linked<BuildVerifyData>>,
    pub diagnostics: Vec<DiagView>,
    /// Ids of every observation, final or superseded: the verdict derives from them all.
    #[serde(skip)]
    pub observation_ids: Vec<String>,
    /// The input's `event` records, byte for byte, each with its newline.
    #[serde(skip)]
    pub event_lines: Vec<u8>,
    /// A cancellation an upstream stage recorded (a `cancel` event or a cancelled
    /// observation), as the exit it asks for.
    #[serde(skip)]
    pub cancelled: Option<Exit>,
    /// Instruction-like spans replaced by the marker.
    pub neutralized: u64,
    /// The acceptance flow's stages that left no records: never a pass.
    #[serde(skip)]
    pub missing: Vec<&'static str>,
    /// Gaps found outside the stream (`--merge`: a shard not given or not finished): each
    /// is a reason of the verdict and makes it incomplete, never a pass.
    #[serde(skip)]
    pub gaps: Vec<String>,
}

/// One criterion with its checks.
#[derive(Debug, Clone, Serialize)]
pub struct CriterionView {
    /// The `criterion` record id.
    pub record: String,
    #[serde(flatten)]
    pub data: CriterionData,
    /// In stream order.
    pub checks: Vec<CheckView>,
}

impl Acceptance {
    /// Every screenshot the final observations name, in plan order.
    pub fn screenshots(&self) -> impl Iterator<Item = &Screenshot> {
        self.criteria
            .iter()
            .flat_map(|c| &c.checks)
            .flat_map(|check| &check.screenshots)
    }
}

impl CriterionView {
    /// Inferred criteria are reported but can never establish acceptance.
    pub fn is_inferred(&self) -> bool {
        self.data.inferred || self.data.source.kind == SourceKind::Inferred
    }
}

/// One check with its route and its final (last) observation.
#[derive(Debug, Clone, Serialize)]
pub struct CheckView {
    /// The `check.spec` record id.
    pub record: String,
    #[serde(flatten)]
    pub data: CheckSpecData,
    pub route: Option<Linked<CheckRouteData>>,
    pub observation: Option<Linked<ObservationData>>,
    /// The screenshots its final observation names (browser checks).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub screenshots: Vec<Screenshot>,
}

/// What arrives before it can be joined.
#[derive(Default)]
struct Pending {
    checks: Vec<CheckView>,
    routes: HashMap<String, Linked<CheckRouteData>>,
    observations: HashMap<String, Linked<ObservationData>>,
    /// The screenshots of each check's final observation.
    screenshots: HashMap<String, Vec<Screenshot>>,
}

/// Reads a verified acceptance stream record by record into an [`Acceptance`]. A record
/// of a kind this report reads whose data does not fit its contract is bad input (exit 65).
#[derive(Default)]
pub struct Builder {
    boundary: Boundary,
    report: Acceptance,
    profile: Option<serde_json::Value>,
    pending: Pending,
}

impl Builder {
    /// Takes the record on line `line` of `source`; `raw` is its line as read.
    pub fn take(
        &mut self,
        source: &str,
        line: u64,
        raw: &[u8],
        envelope: &Envelope,
    ) -> anyhow::Result<()> {
        let Some(kind) = envelope.known_kind() else {
            return Ok(());
        };
        let report = &mut self.report;
        if kind == Kind::Event {
            report.event_lines.extend_from_slice(raw);
            report.event_lines.push(b'\n');
        }
        if !READ.contains(&kind) {
            return Ok(());
        }
        let mut envelope = envelope.clone();
        self.boundary.clean_json(&mut envelope.data);
        let pending = &mut self.pending;
        let id = envelope.id.clone();
        match kind {
            Kind::Plan => {
                report.plan = Some(Linked {
                    id,
                    data: ndjson::data_of(source, line, &envelope)?,
                })
            }
            Kind::Target => report.targets.push(Linked {
                id,
                data: ndjson::data_of(source, line, &envelope)?,
            }),
            Kind::Criterion => report.criteria.push(CriterionView {
                record: id,
                data: ndjson::data_of(source, line, &envelope)?,
                checks: Vec::new(),
            }),
            Kind::CheckSpec => pending.checks.push(CheckView {
                record: id,
                data: ndjson::data_of(source, line, &envelope)?,
                route: None,
                observation: None,
                screenshots: Vec::new(),
            }),
            Kind::Route => {
                // Scenario routes have another shape; only check routes belong here.
                if let Ok(data) = serde_json::from_value::<CheckRouteData>(envelope.data) {
                    pending
                        .routes
                        .insert(data.check.clone(), Linked { id, data });
                }
            }
            Kind::Observation => {
                let mut data: ObservationData = ndjson::data_of(source, line, &envelope)?;
                // Shown on their own (`CheckView::screenshots`), not again in the evidence.
                let shots = std::mem::take(&mut data.evidence.screenshots);
                if data.status == ObservationStatus::Cancelled {
                    report.cancelled.get_or_insert(Exit::Interrupted);
                }
                report.observation_ids.push(id.clone());
                // A later observation of the same check is its final one, except a skipped
                // one: it only says another shard owns the check, and in a merged stream
                // it may come after that shard's observation.
                let skipped = data.status == ObservationStatus::Skipped;
                if !skipped || !pending.observations.contains_key(&data.check) {
                    pending.screenshots.insert(data.check.clone(), shots);
                    pending
                        .observations
                        .insert(data.check.clone(), Linked { id, data });
                }
            }
            Kind::TargetVerify => report.verifies.push(Linked {
                id,
                data: ndjson::data_of(source, line, &envelope)?,
            }),
            Kind::Profile => self.profile = Some(envelope.data),
            Kind::Build => report.builds.push(Linked {
                id,
                data: ndjson::data_of(source, line, &envelope)?,
            }),
            Kind::BuildVerify => report.build_verifies.push(Linked {
                id,
                data: ndjson::data_of(source, line, &envelope)?,
            }),
            Kind::Event => {
                let event: EventData = ndjson::data_of(source, line, &envelope)?;
                if event.phase == "cancel" {
                    report.cancelled = Some(signal_of(&event));
                }
            }
            Kind::Diag => report
                .diagnostics
                .push(ndjson::data_of(source, line, &envelope)?),
            _ => unreachable!("only read kinds reach here"),
        }
        Ok(())
    }

    /// The report, checks nested under their criteria.
    pub fn finish(self) -> Acceptance {
        let Builder {
            boundary,
            mut report,
            profile,
            pending,
        } = self;
        report.production = production(&report, profile.as_ref());
        assemble(&mut report, pending);
        report.neutralized = boundary.count();
        report
    }
}

/// The kinds an acceptance report reads; others only pass into records.ndjson.
pub(crate) const READ: [Kind; 12] = [
    Kind::Plan,
    Kind::Target,
    Kind::Criterion,
    Kind::CheckSpec,
    Kind::Route,
    Kind::Observation,
    Kind::TargetVerify,
    Kind::Build,
    Kind::BuildVerify,
    Kind::Profile,
    Kind::Event,
    Kind::Diag,
];

/// The production environment the plan's target names, from the host profile.
fn production(report: &Acceptance, profile: Option<&serde_json::Value>) -> Option<Production> {
    let env = report.plan.as_ref()?.data.target.env.clone()?;
    let environment = profile?.get("environments")?.get(&env)?;
    (environment.get("kind")?.as_str()? == "production").then(|| Production {
        test_account: environment
            .get("test_account")
            .and_then(|a| a.as_str())
            .map(|a| a.trim().to_string()),
        env,
    })
}

/// A cancel event names SIGTERM when that was the signal; anything else was an interrupt.
fn signal_of(event: &EventData) -> Exit {
    let detail = event.detail.as_deref().unwrap_or("");
    if detail.contains("SIGTERM") || detail.contains("143") {
        Exit::Terminated
    } else {
        Exit::Interrupted
    }
}

/// Nests routes and observations under their checks and checks under their criteria; a
/// check naming a criterion that is not in the stream becomes a warning.
fn assemble(report: &mut Acceptance, mut pending: Pending) {
    let index: HashMap<String, usize> = report
        .criteria
        .iter()
        .enumerate()
        .map(|(i, c)| (c.data.id.clone(), i))
        .collect();
    for mut check in pending.checks {
        check.route = pending.routes.remove(&check.data.id);
        check.observation = pending.observations.remove(&check.data.id);
        check.screenshots = pending
            .screenshots
            .remove(&check.data.id)
            .unwrap_or_default();
        match index.get(&check.data.criterion) {
            Some(&i) => report.criteria[i].checks.push(check),
            None => report.diagnostics.push(DiagView {
                severity: Severity::Warning,
                stage: "qa-report".into(),
                message: format!(
                    "check {} names criterion {}, which is not in the stream",
                    check.data.id, check.data.criterion
                ),
                subjects: vec![check.record],
            }),
        }
    }
}

/// Most lines and characters of an evidence excerpt a text or markdown report shows
/// (report.json keeps the observation's whole excerpt).
pub const EXCERPT_LINES: usize = 8;
pub const EXCERPT_CHARS: usize = 480;

/// The first lines of `excerpt` within the report's bounds, and whether any was left out.
pub fn bounded_excerpt(excerpt: &str) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut used = 0;
    let mut cut = false;
    for line in excerpt.lines() {
        if lines.len() == EXCERPT_LINES || used >= EXCERPT_CHARS {
            cut = true;
            break;
        }
        let room = EXCERPT_CHARS - used;
        let kept: String = line.chars().take(room).collect();
        used += kept.chars().count();
        cut |= kept.len() < line.len();
        lines.push(kept);
    }
    (lines, cut)
}

/// What a check's evidence points at, for one line: path or URL, HTTP status, size.
pub fn evidence_summary(o: &ObservationData) -> String {
    let e = &o.evidence;
    let mut parts = Vec::new();
    if let Some(path) = &e.path {
        parts.push(path.clone());
    }
    if let Some(url) = &e.url {
        parts.push(url.clone());
    }
    if let Some(status) = e.http_status {
        parts.push(format!("HTTP {status}"));
    }
    if let Some(seen) = &e.interface {
        if let Some(version) = &seen.protocol_version {
            parts.push(format!("MCP {version}"));
        }
        parts.push(format!(
            "{} tools listed in {} page(s)",
            seen.tools_listed, seen.pages
        ));
        let call = match seen.call {
            CallStatus::NotCalled => "not called",
            CallStatus::Result => "called: result",
            CallStatus::ToolError => "called: tool error",
            CallStatus::RpcError => "called: JSON-RPC error",
        };
        parts.push(call.to_string());
        if let Some(observe) = &seen.observe {
            parts.push(format!("observed {observe}"));
        }
        if let Some(closed) = &seen.closed {
            parts.push(closed.clone());
        }
    }
    parts.push(format!(
        "{} bytes{}",
        e.bytes,
        if e.truncated { " (cut at the cap)" } else { "" }
    ));
    if let Some(sha) = &e.sha256 {
        parts.push(format!("sha256 {sha}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_excerpt_is_kept_whole() {
        assert_eq!(
            bounded_excerpt("a\nb"),
            (vec!["a".into(), "b".into()], false)
        );
    }

    #[test]
    fn a_long_excerpt_is_cut_by_lines_and_by_characters() {
        let many = "x\n".repeat(EXCERPT_LINES + 1);
        assert_eq!(bounded_excerpt(&many).0.len(), EXCERPT_LINES);
        assert!(bounded_excerpt(&many).1);
        let wide = "y".repeat(EXCERPT_CHARS + 5);
        let (lines, cut) = bounded_excerpt(&wide);
        assert_eq!(lines[0].len(), EXCERPT_CHARS);
        assert!(cut);
    }
}

#[cfg(test)]
mod production_tests {
    use super::*;
    use qa_records::acceptance::{TargetKind, TargetSpec};

    fn with_env(env: Option<&str>) -> Acceptance {
        Acceptance {
            plan: Some(Linked {
                id: format!("sha256:{}", "a".repeat(64)),
                data: PlanData {
                    path: "plan.json".into(),
                    sha256: "b".repeat(64),
                    target: TargetSpec {
                        kind: TargetKind::Url,
                        value: "https://shop.example.com/".into(),
                        build_id: None,
                        env: env.map(str::to_string),
                        app: env.map(|_| "storefront".to_string()),
                    },
                    criteria: 0,
                    checks: 0,
                },
            }),
            ..Acceptance::default()
        }
    }

    fn profile(kind: &str) -> serde_json::Value {
        serde_json::json!({"environments": {"prod": {"kind": kind, "test_account": "  qa-runner@example.com, own tenant  "}}})
    }

    #[test]
    fn a_production_environment_records_the_profiles_test_account() {
        let p = production(&with_env(Some("prod")), Some(&profile("production"))).unwrap();
        assert_eq!(p.env, "prod");
        assert_eq!(
            p.test_account.as_deref(),
            Some("qa-runner@example.com, own tenant")
        );
    }

    #[test]
    fn other_kinds_and_plain_targets_are_no_production_run() {
        assert!(production(&with_env(Some("prod")), Some(&profile("staging"))).is_none());
        assert!(production(&with_env(None), Some(&profile("production"))).is_none());
        assert!(production(&with_env(Some("prod")), None).is_none());
    }
}
