use anyhow::Context as _;
use qa_report::{cli, verify};
use qa_shared::exit::{self, failure, Exit};

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
    let (source, input) = qa_shared::ndjson::open(&args.input)?;
    let summary =
        verify::verify(input, args.max_problems).with_context(|| format!("reading {source}"))?;
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
