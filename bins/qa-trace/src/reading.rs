//! What qa-trace reads of the stream: intents, scenarios, routes and executions; and of an
//! acceptance stream, criteria, checks, check routes and observations.

use std::collections::HashMap;

use anyhow::Result;
use qa_records::acceptance::{CheckRouteData, CheckSpecData, CriterionData, ObservationData};
use qa_records::change::{IntentData, RouteData, ScenarioData};
use qa_records::ndjson::data_of;
use qa_records::{Envelope, Kind};

/// A record with its id.
#[derive(Debug, Clone)]
pub struct Read<T> {
    pub id: String,
    pub data: T,
}

/// The parts of an `execution` record a trace reports.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ExecutionView {
    pub status: String,
    #[serde(default)]
    pub command: Option<serde_json::Value>,
}

/// Everything upstream that a trace joins.
#[derive(Debug, Default)]
pub struct Seen {
    /// In stream order.
    pub scenarios: Vec<Read<ScenarioData>>,
    /// By intent id.
    pub intents: HashMap<String, Read<IntentData>>,
    /// By subject (scenario id); the last route for a subject wins.
    pub routes: HashMap<String, Read<RouteData>>,
    pub executions: Vec<Read<ExecutionView>>,
    /// Acceptance criteria, in stream order.
    pub criteria: Vec<Read<CriterionData>>,
    /// Acceptance checks (`check.spec`), in stream order.
    pub checks: Vec<Read<CheckSpecData>>,
    /// Check routes by check id; the last route for a check wins.
    pub check_routes: HashMap<String, Read<CheckRouteData>>,
    /// Observations by check id; the last observation of a check is its final one.
    pub observations: HashMap<String, Read<ObservationData>>,
}

impl Seen {
    /// The kinds whose data [`Seen::take`] reads; the others pass through unread.
    pub fn reads(kind: Option<Kind>) -> bool {
        matches!(
            kind,
            Some(
                Kind::Scenario
                    | Kind::Intent
                    | Kind::Route
                    | Kind::Criterion
                    | Kind::CheckSpec
                    | Kind::Observation
                    | Kind::Execution
            )
        )
    }

    pub fn take(&mut self, source: &str, line: u64, envelope: Envelope) -> Result<()> {
        match envelope.known_kind() {
            Some(Kind::Scenario) => self.scenarios.push(Read {
                data: data_of(source, line, &envelope)?,
                id: envelope.id,
            }),
            Some(Kind::Intent) => {
                let data = data_of(source, line, &envelope)?;
                self.intents.insert(
                    envelope.id.clone(),
                    Read {
                        id: envelope.id,
                        data,
                    },
                );
            }
            Some(Kind::Route) => {
                // Scenario routes and check routes differ in shape (their decisions do not
                // overlap): each parses only as its own.
                if let Ok(data) = serde_json::from_value::<RouteData>(envelope.data.clone()) {
                    self.routes.insert(
                        data.subject.clone(),
                        Read {
                            id: envelope.id,
                            data,
                        },
                    );
                } else if let Ok(data) =
                    serde_json::from_value::<CheckRouteData>(envelope.data.clone())
                {
                    self.check_routes.insert(
                        data.check.clone(),
                        Read {
                            id: envelope.id,
                            data,
                        },
                    );
                }
            }
            Some(Kind::Criterion) => self.criteria.push(Read {
                data: data_of(source, line, &envelope)?,
                id: envelope.id,
            }),
            Some(Kind::CheckSpec) => self.checks.push(Read {
                data: data_of(source, line, &envelope)?,
                id: envelope.id,
            }),
            Some(Kind::Observation) => {
                let data: ObservationData = data_of(source, line, &envelope)?;
                self.observations.insert(
                    data.check.clone(),
                    Read {
                        id: envelope.id,
                        data,
                    },
                );
            }
            Some(Kind::Execution) => {
                if let Ok(data) = serde_json::from_value(envelope.data.clone()) {
                    self.executions.push(Read {
                        id: envelope.id,
                        data,
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }
}
