use qa_records::exit::{self, Exit};
use qa_records::output::RecordWriter;
use qa_route::checks::Permissions;
use qa_route::path::SearchPath;
use qa_route::{cli, stage};

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-route", || {
        let opts = stage::Options {
            repo: args.repo.clone(),
            permissions: Permissions {
                network: args.pipeline.allow_network,
                tool_calls: args.pipeline.allow_tool_calls,
            },
        };
        let mut out = RecordWriter::stdout();
        let (source, input) = qa_records::ndjson::open(&args.input)?;
        stage::run(&opts, &SearchPath::from_env(), &source, input, &mut out)?;
        out.finish()?;
        Ok(Exit::Success)
    })
}
