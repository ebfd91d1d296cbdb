//! `qa-completions PREFIX`: writes every binary's bash, zsh and fish completions under
//! PREFIX/share (run by `make dist`).

use qa_records::exit::{self, failure, Exit};

fn main() -> std::process::ExitCode {
    exit::run("qa-completions", || {
        let mut args = std::env::args_os().skip(1);
        let (Some(prefix), None) = (args.next(), args.next()) else {
            return Err(failure(
                Exit::Usage,
                "usage: qa-completions PREFIX (writes PREFIX/share/{bash-completion,zsh,fish}/...)",
            ));
        };
        qa_packaging::completions::write_all(std::path::Path::new(&prefix))?;
        Ok(Exit::Success)
    })
}
