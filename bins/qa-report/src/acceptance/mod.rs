//! The acceptance report: a stream holding a `plan` record read into criteria, checks and
//! observations, judged by the verdict rules, rendered (text, markdown, json), and kept in
//! a private run folder with its `verdict` record, events, junit.xml and checksums; with
//! the project lock, cancellation and `--status` of an acceptance run.

pub mod document;
pub mod folder;
pub mod html;
pub mod ignore;
pub mod json;
pub mod junit;
pub mod lock;
pub mod markdown;
pub mod model;
pub mod screenshots;
pub mod status;
pub mod text;
pub mod verdict;

use crate::flow::{self, Flow};
use crate::out::{Render, Saved};
use crate::reading::{self, Input, Models};
use crate::render::Format;
use crate::BY;
use anyhow::Context as _;
use model::{Acceptance, CriterionView};
use qa_records::acceptance::{CriterionOutcome, EventData, PlanData};
use qa_records::envelope::Src;
use qa_records::exit::{failure, Exit};
use qa_records::{clock, Kind, Record};
use screenshots::Screenshots;
use serde::Deserialize as _;
use std::path::{Path, PathBuf};
use std::time::Instant;
use verdict::Decided;

/// What every renderer of an acceptance report reads.
pub struct View<'a> {
    pub report: &'a Acceptance,
    pub verdict: &'a Decided,
    /// The `verdict` record's id.
    pub verdict_id: &'a str,
    /// The run folder, when one was written.
    pub paths: Option<&'a folder::ReportPaths>,
    /// What became of each screenshot the observations name.
    pub screenshots: &'a Screenshots,
}

impl View<'_> {
    /// Each criterion with its outcome, in plan order.
    pub fn criteria(&self) -> impl Iterator<Item = (&CriterionView, &CriterionOutcome)> {
        self.report.criteria.iter().zip(&self.verdict.data.criteria)
    }
}

/// How one acceptance report is made.
pub struct Settings {
    pub format: Format,
    /// The stamp the run id starts with (taken when the run started).
    pub stamp: String,
    pub started: Instant,
    /// The signal qa-report itself received, if any.
    pub interrupted: Option<Exit>,
    /// Where the screenshots the observations name are read from.
    pub shots: ShotSource,
    /// Where to write the sealed run folder's path (`--run-dir-file`).
    pub run_dir_file: Option<PathBuf>,
}

/// Where an acceptance report takes its screenshots from.
pub enum ShotSource {
    /// The project root qa-check ran in (`--repo`): each read and verified there.
    Project(PathBuf),
    /// A merge: the shard run folder whose SHA256SUMS vouched for each, by SHA-256 (each
    /// read and verified again as it is copied).
    Shards(std::collections::BTreeMap<String, PathBuf>),
}

/// A usage error unless `format` renders acceptance reports: for a saved stream, whose
/// flow is known only once its records are read (the flags' [`crate::cli::Mode`] settles
/// every other case before reading).
fn check_format(format: Format) -> anyhow::Result<()> {
    match format {
        Format::Text | Format::Markdown | Format::Json => Ok(()),
        other => Err(failure(
            Exit::Usage,
            format!(
                "--format {} renders change reports; an acceptance report is text, markdown or json",
                crate::cli::format_name(other)
            ),
        )),
    }
}

/// The rendered report for stdout and the exit code the verdict maps to. With `saved`
/// (the stream saved for the folder run folders go in), first writes the run folder, so
/// the report can name its files.
pub fn report(
    report: &Acceptance,
    saved: Option<Saved>,
    settings: &Settings,
) -> anyhow::Result<(String, Exit)> {
    check_format(settings.format)?;
    let decided = verdict::decide(report, settings.interrupted);
    let mut from: Vec<String> = report.plan.iter().map(|p| p.id.clone()).collect();
    from.extend(report.observation_ids.iter().cloned());
    from.extend(report.verifies.iter().map(|v| v.id.clone()));
    let record = Record::new(Kind::Verdict, BY, from, Src::new(), &decided.data)?;
    let (paths, run_dir) = match &saved {
        Some(saved) => {
            let plan_sha = report.plan.as_ref().map(|p| p.data.sha256.as_str());
            let run = folder::run_id(&settings.stamp, plan_sha);
            let (paths, dir) = folder::create(&saved.folder, &run)?;
            (Some(paths), Some(dir))
        }
        None => (None, None),
    };
    // Each verified as it is copied, one at a time: report.html embeds from the copies.
    let screenshots = Screenshots::carry(&settings.shots, report.screenshots(), run_dir.as_ref())
        .map_err(|e| {
        let dir = paths.as_ref().map_or_else(PathBuf::new, |p| p.dir.clone());
        let e = anyhow::Error::new(e).context(format!("writing {}/", screenshots::FOLDER));
        crate::out::unwritable(&dir, e)
    })?;
    let view = View {
        report,
        verdict: &decided,
        verdict_id: &record.id,
        paths: paths.as_ref(),
        screenshots: &screenshots,
    };
    if let (Some(saved), Some(paths), Some(run_dir)) = (saved, &paths, &run_dir) {
        write_folder(saved, &view, &record, paths, run_dir, settings)?;
        if let Some(file) = &settings.run_dir_file {
            name_run_dir(file, &paths.dir)?;
        }
        let project = match &settings.shots {
            ShotSource::Project(repo) => Some(repo.as_path()),
            ShotSource::Shards(_) => None,
        };
        if let Some(warning) = ignore::warning(&paths.dir, project) {
            eprintln!("qa-report: warning: {warning}");
        }
    }
    let rendered = match settings.format {
        Format::Json => json::render(&view),
        Format::Markdown => markdown::render(&view),
        _ => text::render(&view),
    };
    Ok((rendered, decided.exit))
}

/// report.json, report.md, report.html, junit.xml, records.ndjson (the input, then the
/// verdict), events.ndjson (the input's events, then qa-report's own), the verified
/// screenshots and SHA256SUMS.
fn write_folder(
    mut saved: Saved,
    view: &View<'_>,
    verdict: &Record,
    paths: &folder::ReportPaths,
    run_dir: &qa_records::private_dir::PrivateDir,
    settings: &Settings,
) -> anyhow::Result<()> {
    saved.append_line(&verdict.to_line())?;
    let mut events = view.report.event_lines.clone();
    let elapsed = u64::try_from(settings.started.elapsed().as_millis()).unwrap_or(u64::MAX);
    if let Some(signal) = settings.interrupted {
        events.extend(event(
            "cancel",
            None,
            elapsed,
            format!(
                "{} received: the report is partial",
                verdict::signal_name(signal)
            ),
        )?);
    }
    events.extend(event(
        "report",
        Some(verdict.id.clone()),
        elapsed,
        format!(
            "verdict {} written to {}",
            crate::model::label(&view.verdict.data.status),
            paths.run
        ),
    )?);
    let report_json = |w: &mut dyn std::io::Write| w.write_all(json::render(view).as_bytes());
    let report_md = |w: &mut dyn std::io::Write| w.write_all(markdown::render(view).as_bytes());
    let report_html = |w: &mut dyn std::io::Write| w.write_all(html::render(view).as_bytes());
    let junit_xml = |w: &mut dyn std::io::Write| w.write_all(junit::render(view).as_bytes());
    let events_ndjson = |w: &mut dyn std::io::Write| w.write_all(&events);
    let files: Vec<(&str, Render<'_>)> = vec![
        (folder::REPORT_JSON, &report_json),
        (folder::REPORT_MD, &report_md),
        (folder::REPORT_HTML, &report_html),
        (folder::JUNIT, &junit_xml),
        (folder::EVENTS, &events_ndjson),
    ];
    // The verified screenshots, already copied (their name is their checked SHA-256).
    saved.keep(Some(run_dir), &files, &view.screenshots.files())
}

/// Writes `dir` and a line break to `file` (0600): the folder this run sealed, for the
/// caller to read rather than list. A failure is a usage error naming the file.
fn name_run_dir(file: &Path, dir: &Path) -> anyhow::Result<()> {
    use std::io::Write as _;
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(file)
        .and_then(|mut f| f.write_all(&[dir.as_os_str().as_bytes(), b"\n"].concat()))
        .map_err(|e| {
            failure(
                Exit::Usage,
                format!("--run-dir-file {}: {e}", file.display()),
            )
        })
}

/// One of qa-report's own `event` records as an NDJSON line.
fn event(
    phase: &str,
    subject: Option<String>,
    duration_ms: u64,
    detail: String,
) -> anyhow::Result<Vec<u8>> {
    let data = EventData {
        phase: phase.to_string(),
        at: clock::timestamp(),
        subject,
        duration_ms: Some(duration_ms),
        detail: Some(detail),
    };
    let mut line = Record::new(Kind::Event, BY, vec![], Src::new(), &data)?.to_line();
    line.push(b'\n');
    Ok(line)
}

/// Where acceptance run folders go: `out`, else `.qa/acceptance` under `repo`.
pub fn runs_folder(repo: &Path, out: Option<&Path>) -> PathBuf {
    out.map_or_else(|| repo.join(".qa").join("acceptance"), Path::to_path_buf)
}

/// What an acceptance run (`--acceptance`) needs from the command line.
pub struct Run<'a> {
    pub input: &'a Path,
    pub repo: &'a Path,
    pub out: Option<&'a Path>,
    pub format: Format,
    pub max_problems: usize,
    pub run_dir_file: Option<&'a Path>,
}

/// An acceptance run: takes the project lock before reading, reads the stream while
/// watching for SIGINT/SIGTERM (and for what upstream stages finish after one), verifies
/// it, reports, and releases the lock.
pub fn run(args: &Run<'_>) -> anyhow::Result<(String, Exit)> {
    let started = Instant::now();
    if !args.repo.is_dir() {
        return Err(failure(
            Exit::NoInput,
            format!("--repo {}: not a directory", args.repo.display()),
        ));
    }
    qa_records::cancel::install().context("installing the signal handlers")?;
    let stamp = clock::compact();
    let lock = lock::Lock::acquire(args.repo, &stamp)?;
    let saved = Saved::begin(args.repo, &runs_folder(args.repo, args.out))?;
    let mut input = Input::open(args.input, reading::REPORT_GRACE, Some(saved))?;
    let mut named = false;
    let pass = reading::pass(&mut input, args.max_problems, Models::Both, |envelope| {
        if !named && envelope.known_kind() == Some(Kind::Plan) {
            if let Ok(plan) = PlanData::deserialize(&envelope.data) {
                named = true;
                lock.rename(&folder::run_id(&stamp, Some(&plan.sha256)))
                    .context("while reading the stream")?;
            }
        }
        Ok(())
    })?;
    let source = input.source.clone();
    let interrupted = pass.interrupted;
    if pass.summary.problem_count > 0 {
        for message in pass.summary.messages(&source) {
            eprintln!("qa-report: {message}");
        }
        return Ok((String::new(), Exit::DataErr));
    }
    if interrupted.is_none() {
        match pass.stages.flow() {
            None => return Err(failure(Exit::Incomplete, flow::no_flow(&source, &pass.summary.per_kind))),
            Some(Flow::Change) => {
                return Err(failure(
                    Exit::DataErr,
                    format!("{source} has no plan record: not an acceptance stream (start it with qa-intent --plan)"),
                ))
            }
            Some(Flow::Acceptance) => {}
        }
    }
    let mut report = pass.acceptance?;
    report.missing = pass.stages.missing();
    let settings = Settings {
        format: args.format,
        stamp,
        started,
        interrupted,
        shots: ShotSource::Project(args.repo.to_path_buf()),
        run_dir_file: args.run_dir_file.map(Path::to_path_buf),
    };
    let result = self::report(&report, input.take_saved(), &settings);
    drop(lock);
    result
}
