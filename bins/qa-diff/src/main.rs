use qa_diff::{cli, records::Limits, Options};
use qa_records::exit::{self, Exit};
use qa_records::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-diff", || {
        let opts = Options {
            repo: args.repo.clone(),
            base: args.base.clone(),
            head: args.head.clone(),
            worktree: args.worktree,
            limits: Limits {
                max_hunks: args.max_hunks,
                max_bytes: args.max_bytes,
            },
        };
        let mut out = RecordWriter::stdout();
        if let Some(path) = &args.input {
            let (source, input) = qa_records::ndjson::open(path)?;
            qa_records::ndjson::forward(&source, input, &mut out)?;
        }
        qa_diff::run(&opts, &|name| std::env::var(name).ok(), &mut out)?;
        out.finish()?;
        Ok(Exit::Success)
    })
}
