use qa_fetch::{capture, cli, verify};
use qa_records::exit::{self, Exit};
use qa_records::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-fetch", || {
        qa_records::cancel::install()?;
        let (source, input) = qa_records::ndjson::open(&args.input)?;
        let capturer = qa_fetch::capturer(&args)?;
        let mut out = RecordWriter::stdout();
        let exit = if args.verify {
            verify::run(&source, input, &capturer, &mut out)?
        } else {
            capture::run(&source, input, &capturer, args.env.as_deref(), &mut out)?
        };
        out.finish()?;
        if exit != Exit::Success {
            eprintln!("qa-fetch: cancelled after writing what was finished");
        }
        Ok(exit)
    })
}
