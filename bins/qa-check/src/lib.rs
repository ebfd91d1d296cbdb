//! qa-check: runs the acceptance plan's file, HTTP, MCP and browser (WebMCP) checks and
//! writes one `observation` and one `event` per check; with `--exec`, runs the one routed
//! repository command under guard and writes one `execution`.

pub mod agent;
pub mod browser;
pub mod checks;
pub mod cli;
pub mod endpoint;
pub mod excerpt;
pub mod exec;
pub mod files;
pub mod fingerprint;
pub mod guard;
pub mod http;
pub mod mcp;
pub mod plan;
pub mod process;
pub mod progress;
pub mod screenshot;
pub mod secret;
pub mod waiting;

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Result;
use qa_records::acceptance::{
    CheckRouteData, CheckSpecData, EventData, InterfaceEvidence, ObservationStatus, TargetData,
    WriteGuardEvidence,
};
use qa_records::envelope::Src;
use qa_records::output::RecordWriter;
use qa_records::shard::{CheckRef, Shard};
use qa_records::{cancel, clock, Envelope, Exit, Kind, Record};

use crate::agent::{AgentSpec, Interface, Session};
use crate::browser::{Browser, BrowserSession, Chromium};
use crate::checks::{Outcome, Ready, Spec, TIMED_OUT};
use crate::cli::Settings;
use crate::guard::WriteGuard;
use crate::mcp::McpSession;
use crate::plan::{Plan, Read};
use crate::progress::Progress;
use crate::screenshot::Screenshots;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-check/", env!("CARGO_PKG_VERSION"));

/// What a run keeps of the stream it forwards: the plan's checks, or the routes `--exec`
/// chooses from.
pub trait Upstream: Default {
    /// Keeps what the run needs of the record on line `line` of `source`.
    fn take(&mut self, source: &str, line: u64, envelope: Envelope) -> Result<()>;
}

/// Forwards the whole stream from `input` to `out` and returns what `T` kept of it.
pub fn forward<T: Upstream, R: BufRead, W: Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
) -> Result<T> {
    let mut kept = T::default();
    qa_records::ndjson::forward_each(source, input, out, |line, envelope| {
        kept.take(source, line, envelope)
    })?;
    Ok(kept)
}

/// Runs every check of `plan` (read by [`forward`]) in plan order, writing its
/// observation and its event as each finishes. Returns the exit code: success, or the
/// signal's when the run was cancelled (the remaining checks are then written as
/// cancelled, followed by a `cancel` event).
pub fn run<W: Write>(plan: Plan, settings: &Settings, out: &mut RecordWriter<W>) -> Result<Exit> {
    let runner = Runner {
        settings,
        guard: plan.write_guard(),
        target: plan.target(),
        client: http::Client::new(settings.token.clone()),
        // One budget for the whole plan, started when the checks start.
        deadline: Instant::now() + settings.timeout,
        browser: RefCell::new(None),
    };
    let mut progress = Progress::new(plan.checks.len());
    let mut cancelled = None;
    // Checks that could not run for want of the browser, Node.js or the Playwright module.
    let mut without_browser = 0;
    let mut browser_missing = None;
    let owners = owners(&plan, settings.shard);
    let mine = owners.iter().filter(|o| o.is_none()).count();
    for (check, owner) in plan.checks.iter().zip(owners) {
        let started = Instant::now();
        let route = plan.routes.get(&check.id);
        cancelled = cancelled.or_else(cancel::requested);
        let spec = Spec::parse(&check.data);
        let outcome = match (owner, cancelled) {
            (Some(owner), _) => Outcome::skipped(owner),
            (None, Some(exit)) => Outcome::cancelled(exit),
            (None, None) => runner.outcome(&check.data, &spec, route),
        };
        if outcome
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with(BROWSER_MISSING))
        {
            without_browser += 1;
            browser_missing = browser_missing.or_else(|| outcome.reason.clone());
        }
        if outcome.status == ObservationStatus::Cancelled {
            cancelled = cancelled.or_else(cancel::requested);
        }
        let mut observation = outcome.into_observation(&check.data, spec.expected(&check.data));
        observation.shard = settings.shard;
        secret::redact_observation(
            settings.token.as_ref(),
            settings.browser.endpoint.as_ref(),
            &mut observation,
        );
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
    // The run's browser closes before the run ends.
    drop(runner.browser.take());
    progress.finish();
    let Some(exit) = cancelled else {
        if without_browser > 0 && without_browser == mine {
            // The observations say it too; the person running the stage reads this line.
            eprintln!(
                "qa-check: no check could run: {}",
                browser_missing.as_deref().unwrap_or(BROWSER_MISSING)
            );
            return Ok(Exit::Unavailable);
        }
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

/// For each check in plan order, the other shard that owns it, or None when this run
/// owns it (every check, without --shard).
fn owners(plan: &Plan, shard: Option<Shard>) -> Vec<Option<Shard>> {
    let Some(shard) = shard else {
        return vec![None; plan.checks.len()];
    };
    let refs: Vec<CheckRef<'_>> = plan
        .checks
        .iter()
        .map(|c| CheckRef {
            id: &c.data.id,
            kind: &c.data.kind,
        })
        .collect();
    qa_records::shard::assign(&refs, shard.count)
        .into_iter()
        .map(|index| {
            let owner = Shard {
                index,
                count: shard.count,
            };
            (owner != shard).then_some(owner)
        })
        .collect()
}

/// What every check of one run shares.
struct Runner<'a> {
    settings: &'a Settings,
    /// The production write guard of browser checks, when the target is production.
    guard: Option<WriteGuard>,
    target: Option<&'a Read<TargetData>>,
    client: http::Client,
    deadline: Instant,
    /// The run's browser, launched by its first browser check and kept for the next ones
    /// (each gets a fresh browser context); gone once a check had to end it.
    browser: RefCell<Option<BrowserSession>>,
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
            Ok(Ready::Agent(interface, spec, target)) => self.agent_check(interface, spec, target),
        }
    }

    /// Opens a session with the MCP endpoint or the page, judges the check against it and
    /// closes it, keeping what was seen of the interface as evidence.
    fn agent_check(&self, interface: Interface, spec: &AgentSpec, target: &TargetData) -> Outcome {
        let settings = self.settings;
        let root_default = match interface {
            Interface::Mcp => Some(mcp::DEFAULT_PATH),
            Interface::Browser => None,
        };
        let endpoint = match http::endpoint_url(&target.value, spec.path.as_deref(), root_default) {
            Ok(url) => url,
            Err(why) => return Outcome::unverified(why),
        };
        let mut seen = InterfaceEvidence {
            endpoint: endpoint.clone(),
            ..InterfaceEvidence::default()
        };
        let token = settings.token.as_ref();
        let mut outcome = match interface {
            Interface::Mcp => {
                let observe_url = match spec
                    .observe_path
                    .as_deref()
                    .map(|path| http::check_url(&target.value, Some(path)))
                    .transpose()
                {
                    Ok(url) => url,
                    Err(why) => return Outcome::unverified(why),
                };
                seen.observe.clone_from(&observe_url);
                let mut session = McpSession::new(
                    self.client.agent().clone(),
                    endpoint.clone(),
                    observe_url,
                    settings.token.clone(),
                    self.deadline,
                    cancel::requested,
                );
                let outcome = match session.initialize() {
                    Ok(()) => agent::judge(
                        &mut session,
                        spec,
                        settings.allow_tool_calls,
                        token,
                        &mut seen,
                    ),
                    Err(stop) => agent::stopped(stop),
                };
                seen.protocol_version = session.protocol_version().map(str::to_string);
                seen.session_issued = session.session_issued();
                seen.closed = session.close();
                outcome
            }
            Interface::Browser => {
                let selector = spec
                    .observe_path
                    .clone()
                    .unwrap_or_else(|| agent::DEFAULT_SELECTOR.to_string());
                if spec.observes() {
                    seen.observe = Some(selector.clone());
                }
                let mut running = self.browser.borrow_mut();
                // A browser an earlier check had to end is killed already: a new one then.
                let session = match running.take().filter(BrowserSession::alive) {
                    Some(session) => running.insert(session),
                    None => {
                        let browser = match self.browser() {
                            Ok(browser) => browser,
                            Err(why) => return Outcome::unverified(why),
                        };
                        match browser.launch(self.deadline, cancel::requested) {
                            Ok(session) => running.insert(session),
                            Err(stop) => return agent::stopped(stop),
                        }
                    }
                };
                match session.visit(&endpoint, &selector) {
                    Ok(()) => {
                        let mut outcome = agent::judge(
                            session,
                            spec,
                            settings.allow_tool_calls,
                            token,
                            &mut seen,
                        );
                        if let Some(guard) = &self.guard {
                            guarded(session, guard, &mut seen, &mut outcome);
                        }
                        seen.closed = session.leave();
                        let (shots, notes) = session.take_screenshots();
                        outcome.evidence.screenshots = shots;
                        if !notes.is_empty() {
                            outcome.observed =
                                format!("{}; {}", outcome.observed, notes.join("; "));
                        }
                        outcome
                    }
                    Err(stop) => agent::stopped(stop),
                }
            }
        };
        outcome.evidence.url = Some(endpoint);
        outcome.evidence.interface = Some(seen);
        outcome
    }

    /// The browser a browser check runs, or why there is none.
    fn browser(&self) -> Result<Browser, String> {
        let wanted = &self.settings.browser;
        let Some(module) = &wanted.module else {
            return Err(format!(
                "{BROWSER_MISSING}: --browser-module PATH (an installed Playwright index.mjs) was not given"
            ));
        };
        if !module.is_file() {
            return Err(format!(
                "{BROWSER_MISSING}: the Playwright module {} does not exist",
                module.display()
            ));
        }
        let chromium = match (&wanted.endpoint, wanted.executable.clone()) {
            (Some(endpoint), _) => Chromium::Connect(endpoint.clone()),
            (None, Some(executable)) if executable.is_file() => Chromium::Launch(executable),
            (None, _) => {
                return Err(format!(
                "{BROWSER_MISSING}: no Chromium executable (--browser PATH, or chromium on PATH)"
            ))
            }
        };
        let Some(node) = wanted.node.clone().filter(|p| p.is_file()) else {
            return Err(format!(
                "{BROWSER_MISSING}: no Node.js executable (--node PATH, or node on PATH)"
            ));
        };
        Ok(Browser {
            node,
            module: module.clone(),
            chromium,
            guard: self.guard.clone(),
            screenshots: self.settings.screenshots.then(|| Screenshots {
                repo: self.settings.repo.clone(),
                token: self.settings.token.clone(),
            }),
        })
    }
}

/// Records what the production write guard did during a browser check. A check whose
/// aborted requests cannot be read is not a pass: the guard's effect is part of its story.
fn guarded(
    session: &mut BrowserSession,
    guard: &WriteGuard,
    seen: &mut InterfaceEvidence,
    outcome: &mut Outcome,
) {
    let aborted = match session.aborted() {
        Ok(aborted) => aborted,
        Err(_) if outcome.status == ObservationStatus::Cancelled => return,
        Err(stop) => {
            *outcome = agent::stopped(stop);
            return;
        }
    };
    let note = match aborted.len() {
        0 => "production write guard: no request matched a write signature".to_string(),
        n => format!(
            "production write guard: aborted {n} request(s) matching a write signature ({})",
            aborted.join(", ")
        ),
    };
    outcome.observed = format!(
        "{}; {note}; a write no signature matches is not prevented",
        outcome.observed
    );
    seen.write_guard = Some(WriteGuardEvidence {
        write_signatures: guard.write.len() as u64,
        allow_signatures: guard.allow.len() as u64,
        aborted,
    });
}

/// How the reason of a browser check without its browser starts.
pub const BROWSER_MISSING: &str = "browser unavailable";

/// The status as its record name.
fn status_name(status: ObservationStatus) -> &'static str {
    match status {
        ObservationStatus::Pass => "pass",
        ObservationStatus::Fail => "fail",
        ObservationStatus::Error => "error",
        ObservationStatus::Unverified => "unverified",
        ObservationStatus::Cancelled => "cancelled",
        ObservationStatus::Skipped => "skipped",
    }
}
