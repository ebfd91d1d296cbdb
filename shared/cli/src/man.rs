//! Man pages rendered from a binary's clap command, with EXAMPLES and EXIT STATUS added,
//! so man/ cannot drift from --help.

use crate::Example;
use clap::Command;
use qa_records::exit::Exit;
use std::path::Path;

/// The man page for `command`, as roff.
pub fn render(command: Command, examples: &[Example], exits: &[(Exit, &str)]) -> String {
    // The after-help text is rendered as our own sections below, not as clap's "EXTRA".
    let command = command.after_help("").after_long_help("");
    let man = clap_mangen::Man::new(command);
    let mut out: Vec<u8> = Vec::new();
    // Writing into memory cannot fail.
    man.render_title(&mut out).expect("rendering into memory");
    man.render_name_section(&mut out)
        .expect("rendering into memory");
    man.render_synopsis_section(&mut out)
        .expect("rendering into memory");
    man.render_description_section(&mut out)
        .expect("rendering into memory");
    man.render_options_section(&mut out)
        .expect("rendering into memory");
    let mut page = String::from_utf8(out).expect("clap_mangen writes UTF-8");
    page.push_str(".SH \"EXIT STATUS\"\n");
    for (exit, meaning) in qa_records::exit::documented(exits) {
        page.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            exit.code(),
            escape(meaning)
        ));
    }
    page.push_str(".SH EXAMPLES\n");
    for ex in examples {
        page.push_str(&format!(
            ".PP\n{}\n.PP\n.nf\n.RS 4\n{}\n.RE\n.fi\n",
            escape(ex.what),
            escape(ex.command)
        ));
    }
    page
}

fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// Compares the committed page with `rendered`; with `QAPIPE_BLESS=1`, rewrites it.
/// Returns a message naming the drift, or None when they match.
pub fn check(path: &Path, rendered: &str) -> Option<String> {
    if std::env::var_os("QAPIPE_BLESS").is_some() {
        std::fs::write(path, rendered).expect("writing the man page");
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(committed) if committed == rendered => None,
        Ok(_) => Some(format!(
            "{} differs from --help: run `make man` and commit it",
            path.display()
        )),
        Err(e) => Some(format!("{}: {e}: run `make man`", path.display())),
    }
}

/// Renders the page for `command` and panics when the committed page at `path` differs
/// (with `QAPIPE_BLESS=1`, rewrites it instead). For each binary's test suite.
pub fn assert_current(path: &Path, command: Command, examples: &[Example], exits: &[(Exit, &str)]) {
    if let Some(drift) = check(path, &render(command, examples, exits)) {
        panic!("{drift}");
    }
}
