use qa_intent::{cli, manifest};
use qa_shared::exit::{self, failure, Exit};
use qa_shared::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_shared::cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-intent", || {
        let manifest = match &args.manifest {
            Some(path) => Some(manifest::load(path)?.ok_or_else(|| {
                failure(
                    Exit::NoInput,
                    format!("{}: no such manifest", path.display()),
                )
            })?),
            None => manifest::load(&args.repo.join(".qa/manifest.yaml"))?,
        };
        let mut out = RecordWriter::stdout();
        let (source, input) = qa_shared::ndjson::open(&args.input)?;
        qa_intent::run(&source, input, manifest.as_ref(), &mut out)?;
        out.finish()?;
        Ok(Exit::Success)
    })
}
