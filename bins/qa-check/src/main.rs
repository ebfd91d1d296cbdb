use qa_check::cli;
use qa_shared::exit;
use qa_shared::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_shared::cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-check", || {
        let settings = args.settings()?;
        qa_shared::cancel::install()?;
        let mut out = RecordWriter::stdout();
        let (source, input) = qa_shared::ndjson::open(&args.input)?;
        let code = if settings.exec {
            qa_check::exec::run(&source, input, &settings, &mut out)?
        } else {
            qa_check::run(&source, input, &settings, &mut out)?
        };
        out.finish()?;
        Ok(code)
    })
}
