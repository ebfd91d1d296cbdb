//! qa-check: runs the acceptance plan's file and HTTP checks and writes one `observation`
//! and one `event` per check.

pub mod checks;
pub mod cli;
pub mod excerpt;
pub mod files;
pub mod http;
pub mod plan;
pub mod progress;
pub mod secret;

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Result;
use qa_shared::acceptance::{
    CheckRouteData, CheckSpecData, EventData, ObservationStatus, TargetData,
};
use qa_shared::envelope::Src;
use qa_shared::output::RecordWriter;
use qa_shared::{cancel, clock, Exit, Kind, Record};

use crate::checks::{Outcome, Ready, Spec, TIMED_OUT};
use crate::cli::Settings;
use crate::plan::{Plan, Read};
use crate::progress::Progress;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-check/", env!("CARGO_PKG_VERSION"));

/// Forwards the stream, then runs every check in plan order, writing its observation and
/// its event as each finishes. Returns the exit code: success, or the signal's when the
/// run was cancelled (the remaining checks are then written as cancelled, followed by a
/// `cancel` event).
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    settings: &Settings,
    out: &mut RecordWriter<W>,
) -> Result<Exit> {
    let mut plan = Plan::default();
    qa_shared::ndjson::forward_each(source, input, out, |line, envelope| {
        plan.take(source, line, envelope)
    })?;
    let runner = Runner {
        settings,
        target: plan.target(),
        client: http::Client::new(settings.token.clone()),
        // One budget for the whole plan, started when the checks start.
        deadline: Instant::now() + settings.timeout,
    };
    let mut progress = Progress::new(plan.checks.len());
    let mut cancelled = None;
    for check in &plan.checks {
        let started = Instant::now();
        let route = plan.routes.get(&check.id);
        cancelled = cancelled.or_else(cancel::requested);
        let spec = Spec::parse(&check.data);
        let outcome = match cancelled {
            Some(exit) => Outcome::cancelled(exit),
            None => runner.outcome(&check.data, &spec, route),
        };
        if outcome.status == ObservationStatus::Cancelled {
            cancelled = cancelled.or_else(cancel::requested);
        }
        let mut observation = outcome.into_observation(&check.data, spec.expected(&check.data));
        secret::redact_observation(settings.token.as_ref(), &mut observation);
        let mut from = vec![check.id.clone()];
        from.extend(route.map(|r| r.id.clone()));
        from.extend(runner.target.map(|t| t.id.clone()));
        let record = Record::new(Kind::Observation, BY, from, Src::new(), &observation)?;
        out.write(&record)?;
        let event = EventData {
            phase: "check".to_string(),
            at: clock::timestamp(),
            subject: Some(check.id.clone()),
            duration_ms: Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)),
            detail: Some(status_name(observation.status).to_string()),
        };
        out.write(&Record::new(
            Kind::Event,
            BY,
            vec![record.id],
            Src::new(),
            &event,
        )?)?;
        progress.tick();
    }
    progress.finish();
    let Some(exit) = cancelled else {
        return Ok(Exit::Success);
    };
    let event = EventData {
        phase: "cancel".to_string(),
        at: clock::timestamp(),
        subject: None,
        duration_ms: None,
        detail: Some(format!("qa-check stopped on {}", checks::signal_name(exit))),
    };
    out.write(&Record::new(Kind::Event, BY, vec![], Src::new(), &event)?)?;
    Ok(exit)
}

/// What every check of one run shares.
struct Runner<'a> {
    settings: &'a Settings,
    target: Option<&'a Read<TargetData>>,
    client: http::Client,
    deadline: Instant,
}

impl Runner<'_> {
    /// Runs one check, or says why it cannot run.
    fn outcome(
        &self,
        check: &CheckSpecData,
        spec: &Spec,
        route: Option<&Read<CheckRouteData>>,
    ) -> Outcome {
        let settings = self.settings;
        let ready = checks::ready(
            check,
            spec,
            route.map(|r| &r.data),
            self.target.map(|t| &t.data),
            settings.allow_network,
        );
        match ready {
            Err(reason) => Outcome::unverified(reason),
            Ok(_) if Instant::now() >= self.deadline => Outcome::unverified(TIMED_OUT),
            Ok(Ready::File(file, target)) => {
                files::check(&settings.repo, target, file, settings.token.as_ref())
            }
            Ok(Ready::Http(web, target)) => {
                self.client
                    .check(&target.value, web, self.deadline, cancel::requested)
            }
        }
    }
}

/// The status as its record name.
fn status_name(status: ObservationStatus) -> &'static str {
    match status {
        ObservationStatus::Pass => "pass",
        ObservationStatus::Fail => "fail",
        ObservationStatus::Error => "error",
        ObservationStatus::Unverified => "unverified",
        ObservationStatus::Cancelled => "cancelled",
    }
}
