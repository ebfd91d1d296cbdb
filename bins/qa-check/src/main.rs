use qa_check::cli;
use qa_records::exit;
use qa_records::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-check", || {
        let settings = args.settings()?;
        qa_records::cancel::install()?;
        let mut out = RecordWriter::stdout();
        let (source, input) = qa_records::ndjson::open(&args.input)?;
        let code = if settings.exec {
            qa_check::exec::run(&source, input, &settings, &mut out)?
        } else {
            qa_check::run(&source, input, &settings, &mut out)?
        };
        out.finish()?;
        Ok(code)
    })
}
