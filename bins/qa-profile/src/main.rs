use qa_profile::cli;
use qa_records::exit;
use qa_records::output::RecordWriter;

fn main() -> std::process::ExitCode {
    let args: cli::Args = match qa_cli::parse(cli::command()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    exit::run("qa-profile", || {
        let (loaded, checked) = qa_profile::check_file(&args.profile)?;
        let mut stderr = std::io::stderr().lock();
        if !args.ndjson {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let code = qa_profile::report(&args.profile, &checked, &mut stdout, &mut stderr)?;
            std::io::Write::flush(&mut stdout)
                .map_err(|e| qa_records::output::write_failed("stdout", e))?;
            return Ok(code);
        }
        let input = args
            .input
            .as_deref()
            .map(qa_records::ndjson::open)
            .transpose()?;
        let mut out = RecordWriter::stdout();
        let code = qa_profile::report_ndjson(
            &args.profile,
            &loaded,
            &checked,
            input,
            &mut out,
            &mut stderr,
        )?;
        out.finish()?;
        Ok(code)
    })
}
