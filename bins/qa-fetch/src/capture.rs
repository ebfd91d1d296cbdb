//! The capture stage: every `target.spec` in the stream becomes a `target` record with the
//! target's identity (content manifest or response), followed by a `fetch` event.

use crate::events::{self, Phase};
use crate::http::Http;
use crate::manifest::{self, Manifest, Stop};
use crate::BY;
use qa_records::acceptance::{CheckSpecData, TargetData, TargetKind, TargetSpec, TargetStatus};
use qa_records::envelope::Src;
use qa_records::output::RecordWriter;
use qa_records::{Exit, Kind, Record};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The reason of a URL target captured without `--allow-network`.
pub const NEEDS_NETWORK: &str = "needs --allow-network";

/// Captures targets: files and directories under `repo`, URLs through `http` when the
/// network is allowed.
pub struct Capturer {
    repo: PathBuf,
    http: Option<Http>,
}

impl Capturer {
    /// `http` is None when `--allow-network` was not given: URL targets are then blocked
    /// without any request.
    pub fn new(repo: PathBuf, http: Option<Http>) -> Capturer {
        Capturer { repo, http }
    }

    /// The repository root paths are resolved under.
    pub fn repo(&self) -> &Path {
        &self.repo
    }

    /// The HTTP client, when `--allow-network` was given.
    pub fn http(&self) -> Option<&Http> {
        self.http.as_ref()
    }

    /// The target's identity now; Err when a signal asked the stage to stop (a request in
    /// flight is abandoned at once). A url target that an mcp check of `checks` names as
    /// its endpoint is identified by its origin's `/` instead: Streamable HTTP reserves GET
    /// on an MCP endpoint for an event stream.
    pub fn capture(&self, spec: &TargetSpec, checks: &[CheckSpecData]) -> Result<TargetData, Exit> {
        let mut target = uncaptured(spec);
        match spec.kind {
            TargetKind::File => {
                self.take_manifest(&mut target, manifest::of_file(&self.repo, &spec.value))?
            }
            TargetKind::Directory => {
                self.take_manifest(&mut target, manifest::of_directory(&self.repo, &spec.value))?
            }
            TargetKind::Url => match &self.http {
                None => {
                    target.status = TargetStatus::Blocked;
                    target.reason = Some(NEEDS_NETWORK.to_string());
                }
                Some(http) => match http.get_or_cancel(&identity_url(&spec.value, checks))? {
                    Ok(fetched) => {
                        target.status = TargetStatus::Captured;
                        target.sha256 = Some(fetched.sha256);
                        target.http_status = Some(fetched.status);
                        target.etag = fetched.etag;
                        target.x_build_id = fetched.x_build_id;
                    }
                    Err(refused) => {
                        target.reason = Some(refused.reason);
                        target.http_status = refused.status;
                    }
                },
            },
        }
        Ok(target)
    }

    fn take_manifest(
        &self,
        target: &mut TargetData,
        result: Result<Manifest, Stop>,
    ) -> Result<(), Exit> {
        match result {
            Ok(manifest) => {
                target.status = TargetStatus::Captured;
                target.sha256 = Some(manifest.sha256);
                target.entries = manifest.entries;
                target.excluded = manifest.excluded;
            }
            Err(Stop::Failed(reason)) => target.reason = Some(reason),
            Err(Stop::Cancelled(exit)) => return Err(exit),
        }
        Ok(())
    }
}

/// The URL a url target is fetched at: the target itself, or its origin's `/` when an
/// mcp check names the target as its endpoint.
pub fn identity_url(target: &str, checks: &[CheckSpecData]) -> String {
    if !checks.iter().any(|c| c.is_mcp_endpoint(target)) {
        return target.to_string();
    }
    match target.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            format!("{scheme}://{authority}/")
        }
        None => target.to_string(),
    }
}

/// The `build` record of environment `env` from the profile record in the stream, with a
/// warning when the build is named by a bundle id rather than a commit. A signal before
/// or during the read makes it a `cancelled` build.
fn write_build<W: Write>(
    env: &str,
    profile: Option<&(String, serde_json::Value)>,
    capturer: &Capturer,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<()> {
    let Some((profile_id, profile)) = profile else {
        return Err(qa_records::exit::failure(
            Exit::DataErr,
            format!("--env {env}: no profile record in the stream (qa-profile --ndjson)"),
        ));
    };
    let sha_source = crate::build::source_of(profile, env)
        .map_err(|why| qa_records::exit::failure(Exit::DataErr, why))?;
    let data = match qa_records::cancel::requested() {
        Some(exit) => crate::build::cancelled(env, &sha_source, exit, false),
        None => crate::build::identify(capturer.http(), env, &sha_source)
            .unwrap_or_else(|exit| crate::build::cancelled(env, &sha_source, exit, true)),
    };
    let mut src = Src::new();
    if let Some(sha) = &data.body_sha256 {
        src.insert("body.sha256".to_string(), sha.clone());
    }
    let record = Record::new(Kind::Build, crate::BY, vec![profile_id.clone()], src, &data)?;
    out.write(&record)?;
    if data.format == qa_records::acceptance::BuildFormat::BuildId {
        let diag = qa_records::diag::Diag::new(
            qa_records::diag::Severity::Warning,
            "qa-fetch",
            format!("environment {env} names its build by a build id, not a commit: tracing it back to source needs release records"),
        );
        out.write(&diag.into_record(crate::BY, vec![record.id.clone()])?)?;
    }
    out.flush()
}

/// The `target` record for `data`, derived from `from`; `src` names the content hash.
pub fn target_record(from: &str, data: &TargetData) -> anyhow::Result<Record> {
    let mut src = Src::new();
    if let Some(sha) = &data.sha256 {
        let name = match data.kind {
            TargetKind::Url => "body.sha256",
            TargetKind::File | TargetKind::Directory => "manifest.sha256",
        };
        src.insert(name.to_string(), sha.clone());
    }
    Record::new(Kind::Target, BY, vec![from.to_string()], src, data)
}

/// A short account of a capture for its event.
pub fn summary(data: &TargetData) -> String {
    match (&data.status, &data.reason) {
        (TargetStatus::Captured, _) if data.kind == TargetKind::Url => format!(
            "captured: HTTP {}",
            data.http_status.map_or("-".to_string(), |s| s.to_string())
        ),
        (TargetStatus::Captured, _) => format!("captured: {} files", data.entries.len()),
        (TargetStatus::Blocked, reason) => format!("blocked: {}", reason.as_deref().unwrap_or("")),
        (TargetStatus::Failed, reason) => format!("failed: {}", reason.as_deref().unwrap_or("")),
        (TargetStatus::Cancelled, reason) => reason.clone().unwrap_or_default(),
    }
}

/// The `target` of `spec` that a signal (`exit`) stopped `when` ("before the capture",
/// "during the capture").
fn cancelled_target(spec: &TargetSpec, exit: Exit, when: &str) -> TargetData {
    TargetData {
        status: TargetStatus::Cancelled,
        reason: Some(format!("cancelled by {} {when}", events::signal_name(exit))),
        ..uncaptured(spec)
    }
}

/// The `target` of `spec` before anything is known: failed, without a reason yet.
fn uncaptured(spec: &TargetSpec) -> TargetData {
    TargetData {
        kind: spec.kind,
        value: spec.value.clone(),
        build_id: spec.build_id.clone(),
        status: TargetStatus::Failed,
        sha256: None,
        entries: Vec::new(),
        excluded: Vec::new(),
        reason: None,
        http_status: None,
        etag: None,
        x_build_id: None,
    }
}

/// Captures `spec` (the `target.spec` record `id`) and writes its `target` record and
/// fetch event at once; after a signal, or when one stops the capture, the target is
/// written as `cancelled`.
fn write_capture<W: Write>(
    capturer: &Capturer,
    id: &str,
    spec: &TargetSpec,
    checks: &[CheckSpecData],
    out: &mut RecordWriter<W>,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let data = match qa_records::cancel::requested() {
        Some(exit) => cancelled_target(spec, exit, "before the capture"),
        None => capturer
            .capture(spec, checks)
            .unwrap_or_else(|exit| cancelled_target(spec, exit, "during the capture")),
    };
    let record = target_record(id, &data)?;
    let event = events::timed(Phase::Fetch, &record.id, started, summary(&data))?;
    out.write(&record)?;
    out.write(&event)?;
    out.flush()
}

/// Forwards `input` record by record as it arrives (flushed, so a run stopped later still
/// shows them downstream), capturing each file or directory `target.spec` at once and
/// url targets once the input ends. Every `target.spec` gets a `target` record: after
/// SIGINT or SIGTERM a `cancelled` one, then a cancel event, and 130 or 143 is returned.
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    capturer: &Capturer,
    env: Option<&str>,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<Exit> {
    // Url targets wait for the end of the input: whether one is an MCP endpoint depends on
    // the checks after it.
    let mut urls: Vec<(String, TargetSpec)> = Vec::new();
    let mut checks: Vec<CheckSpecData> = Vec::new();
    let mut profile: Option<(String, serde_json::Value)> = None;
    let result =
        qa_records::ndjson::forward_each_writing(source, input, out, |line, envelope, out| {
            match envelope.known_kind() {
                Some(Kind::Profile) => profile = Some((envelope.id.clone(), envelope.data.clone())),
                Some(Kind::CheckSpec) => {
                    checks.push(qa_records::ndjson::data_of(source, line, &envelope)?)
                }
                Some(Kind::TargetSpec) => {
                    let spec: TargetSpec = qa_records::ndjson::data_of(source, line, &envelope)?;
                    if spec.kind == TargetKind::Url {
                        urls.push((envelope.id.clone(), spec));
                    } else {
                        write_capture(capturer, &envelope.id, &spec, &[], out)?;
                    }
                }
                _ => {}
            }
            out.flush()
        });
    // Url targets are captured (or written as cancelled) even when a bad line stopped the
    // stream.
    for (id, spec) in &urls {
        write_capture(capturer, id, spec, &checks, out)?;
    }
    match result {
        // After a signal the stage stops as cancelled, not failed, whatever ended the
        // stream (the signal's own read error, or a line an upstream stage cut short).
        Err(err) if qa_records::cancel::requested().is_none() => return Err(err),
        Err(_) => {}
        Ok(_) => {
            if let Some(env) = env {
                write_build(env, profile.as_ref(), capturer, out)?;
            }
        }
    }
    match qa_records::cancel::requested() {
        Some(exit) => {
            out.write(&events::cancelled(exit)?)?;
            Ok(exit)
        }
        None => Ok(Exit::Success),
    }
}
