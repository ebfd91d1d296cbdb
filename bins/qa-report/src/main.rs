use anyhow::Context as _;
use qa_report::acceptance::{self, status, Run, Settings};
use qa_report::{cli, render, verify};
use qa_shared::exit::{self, failure, Exit};
use std::io::{IsTerminal as _, Read as _, Write as _};

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_shared::cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-report", || run(args))
}

fn run(args: cli::Args) -> anyhow::Result<Exit> {
    if args.status {
        let runs = acceptance::runs_folder(&args.repo, args.out.as_deref());
        return status::show(&args.repo, &runs, args.format);
    }
    if args.input.as_os_str() == "-" && std::io::stdin().is_terminal() {
        return Err(failure(
            Exit::Usage,
            "qa-report reads a record stream: pipe one in or pass --in FILE",
        ));
    }
    if args.acceptance {
        let (rendered, exit) = acceptance::run(&Run {
            input: &args.input,
            repo: &args.repo,
            out: args.out.as_deref(),
            format: args.format,
            max_problems: args.max_problems,
        })?;
        print(&rendered)?;
        return Ok(exit);
    }
    let started = std::time::Instant::now();
    let (source, mut input) = qa_shared::ndjson::open(&args.input)?;
    if args.verify {
        let summary = verify::verify(input, args.max_problems)
            .with_context(|| format!("reading {source}"))?;
        for message in summary.messages(&source) {
            eprintln!("qa-report: {message}");
        }
        return Ok(verified(&summary));
    }
    // The report needs the whole stream, and --out keeps it byte for byte.
    let mut stream = Vec::new();
    input
        .read_to_end(&mut stream)
        .with_context(|| format!("reading {source}"))?;
    let summary = verify::verify(&stream[..], args.max_problems)
        .with_context(|| format!("reading {source}"))?;
    if verified(&summary) != Exit::Success {
        for message in summary.messages(&source) {
            eprintln!("qa-report: {message}");
        }
        return Ok(Exit::DataErr);
    }
    if acceptance::model::has_plan(&stream) {
        // A saved acceptance stream: reported and judged, without the lock of a live run.
        let (rendered, exit) = acceptance::report(
            &stream,
            &Settings {
                source: &source,
                format: args.format,
                out: args.out.clone(),
                stamp: qa_shared::clock::compact(),
                started,
                interrupted: None,
            },
        )?;
        print(&rendered)?;
        return Ok(exit);
    }
    let rendered = render::change_report(&source, &stream, args.format, args.out.as_deref())?;
    print(&rendered)?;
    Ok(Exit::Success)
}

fn print(rendered: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(rendered.as_bytes())
        .and_then(|()| stdout.flush())
        .context("writing the report to stdout")
}

fn verified(summary: &verify::Summary) -> Exit {
    if summary.problem_count == 0 {
        Exit::Success
    } else {
        Exit::DataErr
    }
}
