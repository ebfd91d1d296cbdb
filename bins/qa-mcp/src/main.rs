use qa_mcp::cli;
use qa_records::exit;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-mcp", || qa_mcp::serve::serve(&args))
}
