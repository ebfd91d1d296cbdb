//! What qa-trace reads of the stream: intents, scenarios, routes and executions.

use std::collections::HashMap;

use anyhow::Result;
use qa_shared::change::{IntentData, RouteData, ScenarioData};
use qa_shared::ndjson::data_of;
use qa_shared::{Envelope, Kind};

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
}

impl Seen {
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
                // Routes of acceptance checks have another shape; only scenario routes parse.
                if let Ok(data) = serde_json::from_value::<RouteData>(envelope.data.clone()) {
                    self.routes.insert(
                        data.subject.clone(),
                        Read {
                            id: envelope.id,
                            data,
                        },
                    );
                }
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
