use qa_records::exit::{self, Exit};
use qa_records::output::RecordWriter;
use qa_trace::cli;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-trace", || {
        let mut out = RecordWriter::stdout();
        let (source, input) = qa_records::ndjson::open(&args.input)?;
        qa_trace::run(&source, input, &args.drafts(), &mut out)?;
        out.finish()?;
        Ok(Exit::Success)
    })
}
