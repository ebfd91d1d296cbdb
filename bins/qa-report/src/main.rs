use anyhow::Context as _;
use qa_records::exit::{self, failure, Exit};
use qa_report::acceptance::{self, status, Run, Settings};
use qa_report::cli::{self, Mode};
use qa_report::flow::{self, Flow};
use qa_report::out::Saved;
use qa_report::reading::{self, Input, Models};
use qa_report::render;
use qa_report::verdict_of_signal;
use std::io::{IsTerminal as _, Write as _};

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-report", || run(args))
}

fn run(args: cli::Args) -> anyhow::Result<Exit> {
    let mode = args.mode()?;
    match mode {
        Mode::Status { .. } => {
            let runs = acceptance::runs_folder(&args.repo, args.out.as_deref());
            return status::show(&args.repo, &runs, args.format);
        }
        Mode::Merge { format } => {
            let (rendered, exit) = qa_report::merge::merge(&qa_report::merge::Merge {
                dirs: &args.merge,
                repo: &args.repo,
                out: args.out.as_deref(),
                format,
            })?;
            print(&rendered)?;
            return Ok(exit);
        }
        Mode::Verify | Mode::Acceptance { .. } | Mode::Report { .. } => {}
    }
    if args.input.as_os_str() == "-" && std::io::stdin().is_terminal() {
        return Err(failure(
            Exit::Usage,
            "qa-report reads a record stream: pipe one in or pass --in FILE",
        ));
    }
    // Every read can then end on SIGINT/SIGTERM, whatever stdin is.
    qa_records::cancel::install().context("installing the signal handlers")?;
    if let Mode::Acceptance { format } = mode {
        let (rendered, exit) = acceptance::run(&Run {
            input: &args.input,
            repo: &args.repo,
            out: args.out.as_deref(),
            format,
            max_problems: args.max_problems,
            run_dir_file: args.run_dir_file.as_deref(),
        })?;
        print(&rendered)?;
        return Ok(exit);
    }
    let started = std::time::Instant::now();
    if mode == Mode::Verify {
        let mut input = Input::open(&args.input, reading::GRACE, None)?;
        let pass = reading::pass(&mut input, args.max_problems, Models::None, |_| Ok(()))?;
        if let Some(signal) = pass.interrupted {
            return Err(verdict_of_signal(signal, &input.source));
        }
        for message in pass.summary.messages(&input.source) {
            eprintln!("qa-report: {message}");
        }
        if pass.summary.problem_count > 0 {
            return Ok(Exit::DataErr);
        }
        if pass.summary.records() == 0 {
            return Err(failure(
                Exit::Incomplete,
                flow::no_flow(&input.source, &pass.summary.per_kind),
            ));
        }
        return Ok(Exit::Success);
    }
    let saved = args
        .out
        .as_deref()
        .map(|out| Saved::begin(&args.repo, out))
        .transpose()?;
    let mut input = Input::open(&args.input, reading::REPORT_GRACE, saved)?;
    let pass = reading::pass(&mut input, args.max_problems, Models::Both, |_| Ok(()))?;
    let source = input.source.clone();
    if let Some(signal) = pass.interrupted {
        // Cut inside a change flow: what was read is reported, marked cancelled.
        if pass.stages.flow() != Some(Flow::Change) || pass.summary.problem_count > 0 {
            return Err(verdict_of_signal(signal, &source));
        }
        let mut report = pass.change?;
        report.cancelled_by(signal, pass.stages.missing());
        return change_report(&report, &args, input.take_saved(), signal);
    }
    if pass.summary.problem_count > 0 {
        for message in pass.summary.messages(&source) {
            eprintln!("qa-report: {message}");
        }
        return Ok(Exit::DataErr);
    }
    let missing = pass.stages.missing();
    match pass.stages.flow() {
        None => Err(failure(
            Exit::Incomplete,
            flow::no_flow(&source, &pass.summary.per_kind),
        )),
        Some(Flow::Acceptance) => {
            // A saved acceptance stream: reported and judged, without the lock of a live run.
            let mut report = pass.acceptance?;
            report.missing = missing;
            let (rendered, exit) = acceptance::report(
                &report,
                input.take_saved(),
                &Settings {
                    format: args.format,
                    stamp: qa_records::clock::compact(),
                    started,
                    interrupted: None,
                    shots: acceptance::ShotSource::Project(args.repo.clone()),
                    run_dir_file: None,
                },
            )?;
            print(&rendered)?;
            Ok(exit)
        }
        Some(Flow::Change) => {
            let mut report = pass.change?;
            let exit = if !missing.is_empty() {
                Exit::Incomplete
            } else if let Some(why) = &report.empty_range {
                // Said on stderr too: a SARIF or JSON reader on stdout must not hide it.
                eprintln!("qa-report: {why}");
                Exit::EmptyRange
            } else {
                Exit::Success
            };
            report.ends_early(missing);
            change_report(&report, &args, input.take_saved(), exit)
        }
    }
}

/// Writes the change report (and its folder, with `saved`), then exits with `exit`. A
/// report cut by a signal keeps its 130 or 143 even when stdout is closed: its folder is
/// already written by then.
fn change_report(
    report: &qa_report::model::Report,
    args: &cli::Args,
    saved: Option<Saved>,
    exit: Exit,
) -> anyhow::Result<Exit> {
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let shown = args.diagnostics();
    match render::change_report(report, args.format, shown, saved, &mut stdout) {
        Err(e) if report.cancelled.is_some() && exit::is_broken_pipe(&e) => Ok(exit),
        written => written.map(|()| exit),
    }
}

fn print(rendered: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(rendered.as_bytes())
        .and_then(|()| stdout.flush())
        .context("writing the report to stdout")
}
