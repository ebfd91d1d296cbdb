use std::io::{IsTerminal as _, Write as _};

use qa_manifest::accept::{self, Accepted};
use qa_manifest::cli::{self, Command, StreamArg};
use qa_manifest::manifest_file::ManifestFile;
use qa_manifest::reject::{self, Rejected};
use qa_manifest::stream::Stream;
use qa_manifest::{explain, init, validate};
use qa_records::exit::{self, failure, Exit};

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-manifest", || {
        let file = ManifestFile::locate(&args.repo, args.manifest.as_deref());
        let mut stdout = std::io::stdout().lock();
        let summary = match &args.command {
            Command::Init { stream } => {
                let flows = init::init(&file, &read(stream)?)?;
                format!(
                    "wrote {} with {flows} flows: review it before committing",
                    file.name()
                )
            }
            Command::Accept { id, stream } => match accept::accept(&file, &read(stream)?, id)? {
                Accepted::Added(name) => {
                    format!("accepted {id} as flow {name:?} in {}", file.name())
                }
                Accepted::Already(name) => {
                    format!(
                        "{id} is already team policy through flow {name:?}: {} unchanged",
                        file.name()
                    )
                }
            },
            Command::Reject { id, reason, stream } => {
                match reject::reject(&file, &read(stream)?, id, reason)? {
                    Rejected::Added => {
                        format!("rejected {id}: suppression added to {}", file.name())
                    }
                    Rejected::Already(why) => {
                        format!(
                            "{id} is already suppressed ({why}): {} unchanged",
                            file.name()
                        )
                    }
                }
            }
            Command::Explain { id, stream } => {
                explain::explain(&read(stream)?, id, &mut stdout)?;
                stdout
                    .flush()
                    .map_err(|e| qa_records::output::write_failed("stdout", e))?;
                return Ok(Exit::Success);
            }
            Command::Validate => validate::validate(&file)?,
        };
        writeln!(stdout, "{summary}").map_err(|e| qa_records::output::write_failed("stdout", e))?;
        stdout
            .flush()
            .map_err(|e| qa_records::output::write_failed("stdout", e))?;
        Ok(Exit::Success)
    })
}

/// The saved stream; stdin only when it is not a terminal, so the command never waits on one.
fn read(arg: &StreamArg) -> anyhow::Result<Stream> {
    if arg.input.as_os_str() == "-" && std::io::stdin().is_terminal() {
        return Err(failure(
            Exit::Usage,
            "give the saved stream with --in FILE or on stdin (qa-manifest never reads a terminal)",
        ));
    }
    let (source, input) = qa_records::ndjson::open(&arg.input)?;
    Stream::read(&source, input)
}
