use std::path::Path;

use qa_intent::{cli, manifest, plan};
use qa_records::exit::{self, failure, Exit};
use qa_records::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-intent", || match &args.plan {
        Some(path) => from_plan(&args, path),
        None => from_changes(&args),
    })
}

/// The source stage: the records of --in (if any), then the plan's.
fn from_plan(args: &cli::Args, path: &Path) -> anyhow::Result<Exit> {
    let root = plan::Root::open(&args.repo)?;
    let mut plan = plan::load(path, &root)?;
    for warning in &plan.warnings {
        eprintln!("qa-intent: warning: {warning}");
    }
    let mut out = RecordWriter::stdout();
    let mut profile = None;
    if let Some(input) = &args.input {
        let (source, input) = qa_records::ndjson::open(input)?;
        qa_records::ndjson::forward_each(&source, input, &mut out, |_, envelope| {
            if envelope.known_kind() == Some(qa_records::Kind::Profile) {
                profile = Some(envelope.data);
            }
            Ok(())
        })?;
    }
    plan.resolve_target(profile.as_ref())?;
    plan.write(&mut out)?;
    out.finish()?;
    Ok(Exit::Success)
}

/// The change-flow filter: intents and scenarios from a qa-diff stream.
fn from_changes(args: &cli::Args) -> anyhow::Result<Exit> {
    qa_intent::sources::small_pack_windows();
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
    let input = args.input.as_deref().unwrap_or(Path::new("-"));
    let (source, input) = qa_records::ndjson::open(input)?;
    let options = qa_intent::Options {
        timings: args.timings,
    };
    qa_intent::run(
        &source,
        input,
        manifest.as_ref(),
        &args.repo,
        options,
        &mut out,
    )?;
    out.finish()?;
    Ok(Exit::Success)
}
