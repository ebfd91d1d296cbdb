use anyhow::Context as _;
use qa_report::{cli, verify};
use qa_shared::exit::{self, failure, Exit};
use std::io::{self, BufReader};

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_shared::cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-report", || run(args))
}

fn run(args: cli::Args) -> anyhow::Result<Exit> {
    if !args.verify {
        return Err(failure(
            Exit::Usage,
            "nothing to do: pass --verify (see qa-report --help)",
        ));
    }
    let (source, summary) = if args.input.as_os_str() == "-" {
        let summary =
            verify::verify(io::stdin().lock(), args.max_problems).context("reading stdin")?;
        ("stdin".to_string(), summary)
    } else {
        let name = args.input.display().to_string();
        let file = std::fs::File::open(&args.input).map_err(|e| {
            let exit = if e.kind() == io::ErrorKind::NotFound {
                Exit::NoInput
            } else {
                Exit::DataErr
            };
            failure(exit, format!("{name}: {e}"))
        })?;
        let summary = verify::verify(BufReader::new(file), args.max_problems)
            .with_context(|| format!("reading {name}"))?;
        (name, summary)
    };
    for p in &summary.problems {
        eprintln!("qa-report: {source} line {}: {}", p.line, p.message);
    }
    if summary.problem_count > summary.problems.len() as u64 {
        eprintln!(
            "qa-report: ... and {} more",
            summary.problem_count - summary.problems.len() as u64
        );
    }
    eprintln!("qa-report: {summary}");
    Ok(if summary.problem_count == 0 {
        Exit::Success
    } else {
        Exit::DataErr
    })
}
