//! Which route `--exec` acts on: the most urgent scenario route that asks to run a
//! repository command that can start (else one that cannot, to refuse it naming what it
//! lacks), in qa-report's order, or the one `--scenario` names.

use crate::Upstream;
use qa_commands::targets::IntentFiles;
use qa_records::change::{ActionKind, Decision, IntentData, RouteData, ScenarioData};
use qa_records::execution::BlockedReason;
use qa_records::ndjson::data_of;
use qa_records::{Envelope, Kind};
use std::collections::HashMap;

/// What `--exec` keeps of the stream: intents, scenarios and their routes, in stream order.
#[derive(Debug, Default)]
pub struct Routes {
    intents: Vec<(String, IntentFiles)>,
    scenarios: Vec<(String, ScenarioData)>,
    routes: Vec<(String, RouteData)>,
}

/// A route chosen to run, with what re-discovery needs.
#[derive(Debug)]
pub struct Chosen<'a> {
    pub id: &'a str,
    pub route: &'a RouteData,
    pub scenario: Option<&'a ScenarioData>,
    pub intent: Option<&'a IntentFiles>,
}

/// No route to run: why, and the route that was looked at, if any.
#[derive(Debug)]
pub struct Refused<'a> {
    pub reason: BlockedReason,
    pub why: String,
    pub route: Option<(&'a str, &'a RouteData)>,
}

impl Upstream for Routes {
    /// Keeps `envelope` when it is an intent, a scenario or a scenario's route. A route
    /// naming a scenario must fit the route contract; other routes (acceptance checks)
    /// are not this mode's business.
    fn take(&mut self, source: &str, line: u64, envelope: Envelope) -> anyhow::Result<()> {
        match envelope.known_kind() {
            Some(Kind::Intent) => {
                let intent: IntentData = data_of(source, line, &envelope)?;
                self.intents.push((envelope.id, IntentFiles::from(&intent)));
            }
            Some(Kind::Scenario) => {
                let scenario = data_of(source, line, &envelope)?;
                self.scenarios.push((envelope.id, scenario));
            }
            Some(Kind::Route) => {
                let subject = envelope.data.get("subject").and_then(|s| s.as_str());
                if subject.is_some_and(|s| self.scenarios.iter().any(|(id, _)| id == s)) {
                    let route = data_of(source, line, &envelope)?;
                    self.routes.push((envelope.id, route));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl Routes {
    /// The route to run: `scenario`'s when given, else the most urgent one whose action
    /// is `run-repository-command`; or why there is none.
    pub fn choose(&self, scenario: Option<&str>) -> Result<Chosen<'_>, Refused<'_>> {
        let ordered = self.in_report_order();
        let candidate = match scenario {
            Some(wanted) => match ordered.iter().find(|(_, r)| r.subject == wanted) {
                Some(found) => *found,
                None => {
                    return Err(Refused {
                        reason: BlockedReason::NoRoute,
                        why: format!("no route in the stream names scenario {wanted}"),
                        route: None,
                    })
                }
            },
            // A command that can start comes before one routed with an unmet precondition
            // (which is refused, naming it), and both before any other route.
            None => match ordered
                .iter()
                .find(|(_, r)| runs(r) && r.command.as_ref().is_some_and(|c| c.unmet.is_none()))
                .or_else(|| ordered.iter().find(|(_, r)| runs(r)))
                .or(ordered.first())
            {
                Some(found) => *found,
                None => {
                    return Err(Refused {
                        reason: BlockedReason::NoRoute,
                        why: "the stream holds no scenario route: run qa-route first".into(),
                        route: None,
                    })
                }
            },
        };
        let (id, route) = candidate;
        if route.action.kind != ActionKind::RunRepositoryCommand {
            let kind = serde_json::to_value(route.action.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            return Err(Refused {
                reason: BlockedReason::NotACommandRoute,
                why: format!(
                    "the route's action is {kind}, not run-repository-command: only a routed repository command is ever executed"
                ),
                route: Some(candidate),
            });
        }
        if route.command.is_none() {
            return Err(Refused {
                reason: BlockedReason::NoCommand,
                why: "the route asks to run a repository command but names none".into(),
                route: Some(candidate),
            });
        }
        let scenario = self
            .scenarios
            .iter()
            .find(|(sid, _)| *sid == route.subject)
            .map(|(_, s)| s);
        let intent = scenario.and_then(|s| {
            self.intents
                .iter()
                .find(|(iid, _)| *iid == s.intent)
                .map(|(_, i)| i)
        });
        Ok(Chosen {
            id,
            route,
            scenario,
            intent,
        })
    }

    /// Routes in qa-report's order: by decision (required, recommended, review-only);
    /// within one, by intent (intents with a more urgent scenario first, then stream
    /// order), then scenario stream order.
    fn in_report_order(&self) -> Vec<(&str, &RouteData)> {
        let scenario_at: HashMap<&str, (usize, &str)> = self
            .scenarios
            .iter()
            .enumerate()
            .map(|(i, (id, s))| (id.as_str(), (i, s.intent.as_str())))
            .collect();
        let mut intent_rank: HashMap<&str, u8> = HashMap::new();
        for (_, route) in &self.routes {
            if let Some((_, intent)) = scenario_at.get(route.subject.as_str()) {
                let rank = intent_rank.entry(intent).or_insert(u8::MAX);
                *rank = (*rank).min(rank_of(route.decision));
            }
        }
        let intent_at: HashMap<&str, usize> = self
            .intents
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (id.as_str(), i))
            .collect();
        let mut ordered: Vec<(&str, &RouteData)> = self
            .routes
            .iter()
            .map(|(id, route)| (id.as_str(), route))
            .collect();
        ordered.sort_by_key(|(_, route)| {
            let (scenario, intent) = scenario_at
                .get(route.subject.as_str())
                .copied()
                .unwrap_or((usize::MAX, ""));
            (
                rank_of(route.decision),
                intent_rank.get(intent).copied().unwrap_or(u8::MAX),
                intent_at.get(intent).copied().unwrap_or(usize::MAX),
                scenario,
            )
        });
        ordered
    }
}

fn runs(route: &RouteData) -> bool {
    route.action.kind == ActionKind::RunRepositoryCommand
}

fn rank_of(decision: Decision) -> u8 {
    match decision {
        Decision::Required => 0,
        Decision::Recommended => 1,
        Decision::ReviewOnly => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::envelope::Src;
    use qa_records::Record;
    use serde_json::{json, Value};

    /// A stream of records, read into `Routes` as qa-check reads them.
    #[derive(Default)]
    struct Stream {
        routes: Routes,
        line: u64,
    }

    impl Stream {
        fn push(&mut self, kind: Kind, from: Vec<String>, data: Value) -> String {
            let record = Record::new(kind, "test/0", from, Src::new(), data).unwrap();
            self.line += 1;
            let envelope = Envelope::parse(&record.to_line()).unwrap();
            self.routes.take("test", self.line, envelope).unwrap();
            record.id
        }

        fn intent(&mut self, title: &str) -> String {
            self.push(
                Kind::Intent,
                vec![],
                json!({
                    "title": title, "type": "feat", "focus": "product", "source": "commits",
                    "commits": [], "cleanup_commits": [], "tickets": [], "files": ["a.rs"],
                    "confidence": "high", "review_required": true, "cleanup": false,
                    "lifecycle": [], "authority": "inference", "flow": null,
                    "contracts": [], "annotations": [], "reason": "r"
                }),
            )
        }

        fn scenario(&mut self, intent: &str, title: &str) -> String {
            self.push(
                Kind::Scenario,
                vec![intent.to_string()],
                json!({
                    "intent": intent, "title": title, "kind": "primary",
                    "priority": "critical", "steps": [], "assertions": [], "evidence": [],
                    "proof_gap": null, "authority": "inference", "test_class": "golden",
                    "focus": "product"
                }),
            )
        }

        fn route(&mut self, scenario: &str, decision: &str, action: &str) -> String {
            let command = (action == "run-repository-command").then(|| {
                json!({"run": "make test", "runner": "make", "dir": ".", "scope": "suite",
                       "declared_in": "Makefile"})
            });
            self.push(
                Kind::Route,
                vec![scenario.to_string()],
                json!({
                    "subject": scenario, "decision": decision, "reason": "r",
                    "evidence": {"direct": 1, "supporting": 0, "contextual": 0},
                    "action": {"kind": action, "risk": "low", "approval": "required",
                               "executes_code": command.is_some(), "writes": [],
                               "network": false, "preconditions": []},
                    "command": command, "additional_commands": []
                }),
            )
        }
    }

    const RUN: &str = "run-repository-command";

    impl Stream {
        /// A command route whose runner was not on PATH where it was routed.
        fn route_unmet(&mut self, scenario: &str, decision: &str) -> String {
            self.push(
                Kind::Route,
                vec![scenario.to_string()],
                json!({
                    "subject": scenario, "decision": decision, "reason": "r",
                    "evidence": {"direct": 1, "supporting": 0, "contextual": 0},
                    "action": {"kind": RUN, "risk": "low", "approval": "required",
                               "executes_code": true, "writes": [], "network": false,
                               "preconditions": ["needs `go` on PATH: install Go"]},
                    "command": {"run": "go test ./...", "runner": "go", "dir": ".",
                                "scope": "suite", "declared_in": "go.mod",
                                "unmet": {"program": "go", "kind": "runner",
                                          "precondition": "needs `go` on PATH: install Go"}},
                    "additional_commands": []
                }),
            )
        }
    }

    #[test]
    fn a_command_that_can_start_is_chosen_over_a_more_urgent_one_that_cannot() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route_unmet(&first, "required");
        let runnable = s.route(&second, "recommended", RUN);
        assert_eq!(s.routes.choose(None).unwrap().id, runnable);
        // Control: without a command that can start, the one that cannot is chosen (and
        // refused later, naming what it lacks).
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "required", "review-scenario");
        let unmet = s.route_unmet(&second, "recommended");
        assert_eq!(s.routes.choose(None).unwrap().id, unmet);
    }

    #[test]
    fn a_required_command_route_is_chosen_over_an_earlier_recommended_one() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "recommended", RUN);
        let required = s.route(&second, "required", RUN);
        assert_eq!(s.routes.choose(None).unwrap().id, required);
    }

    #[test]
    fn within_one_decision_the_earlier_route_is_chosen() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        let earlier = s.route(&first, "required", RUN);
        s.route(&second, "required", RUN);
        assert_eq!(s.routes.choose(None).unwrap().id, earlier);
    }

    #[test]
    fn a_more_urgent_draft_route_does_not_hide_a_command_route() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "required", "complete-draft");
        let runnable = s.route(&second, "recommended", RUN);
        assert_eq!(s.routes.choose(None).unwrap().id, runnable);
    }

    #[test]
    fn only_draft_routes_are_refused_naming_the_most_urgent() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "recommended", "complete-draft");
        let required = s.route(&second, "required", "complete-draft");
        let refused = s.routes.choose(None).unwrap_err();
        assert_eq!(refused.reason, BlockedReason::NotACommandRoute);
        assert_eq!(refused.route.map(|(id, _)| id), Some(required.as_str()));
    }

    #[test]
    fn within_one_decision_an_intent_with_a_more_urgent_scenario_comes_first() {
        let mut s = Stream::default();
        let calm = s.intent("calm");
        let urgent = s.intent("urgent");
        let calm_scenario = s.scenario(&calm, "calm");
        let urgent_draft = s.scenario(&urgent, "urgent draft");
        let urgent_command = s.scenario(&urgent, "urgent command");
        s.route(&calm_scenario, "recommended", RUN);
        s.route(&urgent_draft, "required", "complete-draft");
        let chosen = s.route(&urgent_command, "recommended", RUN);
        assert_eq!(s.routes.choose(None).unwrap().id, chosen);
    }

    #[test]
    fn a_named_scenario_is_chosen_even_when_less_urgent() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "required", RUN);
        let named = s.route(&second, "recommended", RUN);
        assert_eq!(s.routes.choose(Some(&second)).unwrap().id, named);
    }

    #[test]
    fn a_named_draft_route_is_refused_and_not_replaced() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        let first = s.scenario(&intent, "first");
        let second = s.scenario(&intent, "second");
        s.route(&first, "required", RUN);
        s.route(&second, "recommended", "complete-draft");
        let refused = s.routes.choose(Some(&second)).unwrap_err();
        assert_eq!(refused.reason, BlockedReason::NotACommandRoute);
    }

    #[test]
    fn a_stream_without_routes_is_refused() {
        let mut s = Stream::default();
        let intent = s.intent("cart");
        s.scenario(&intent, "first");
        let refused = s.routes.choose(None).unwrap_err();
        assert_eq!(refused.reason, BlockedReason::NoRoute);
    }

    #[test]
    fn a_check_route_is_not_a_scenario_route() {
        let mut s = Stream::default();
        s.push(
            Kind::Route,
            vec![],
            json!({"subject": "sha256:00", "decision": "runnable"}),
        );
        assert_eq!(
            s.routes.choose(None).unwrap_err().reason,
            BlockedReason::NoRoute
        );
    }
}
