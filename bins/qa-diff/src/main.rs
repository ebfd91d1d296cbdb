use qa_diff::{changes::Limits, cli, Options};
use qa_shared::exit::{self, Exit};
use qa_shared::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_shared::cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-diff", || {
        let opts = Options {
            repo: args.repo,
            base: args.base,
            head: args.head,
            worktree: args.worktree,
            limits: Limits {
                max_hunks: args.max_hunks,
                max_bytes: args.max_bytes,
            },
        };
        let mut out = RecordWriter::stdout();
        qa_diff::run(&opts, &|name| std::env::var(name).ok(), &mut out)?;
        out.finish()?;
        Ok(Exit::Success)
    })
}
