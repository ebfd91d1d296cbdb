//! Command-line test builders (assert_cmd's `cmd().arg("x").assert().success()`): the
//! command line a Rust test runs and what it expects of that run.

use super::{group_args, rust_literal, Tok};
use crate::suite::{literal, Expectation};

/// The outcome methods of an assert_cmd `Assert`, with how each reads.
const OUTCOMES: &[&str] = &[
    "success",
    "failure",
    "code",
    "stdout",
    "stderr",
    "interrupted",
];

/// The expectations of the chain whose `.assert()` call starts at `at` (the `assert`
/// token) and whose receiver starts at `start`: each `.success()`, `.failure()`,
/// `.code(n)`, `.stdout(x)`, `.stderr(x)` after it, said of the command line the receiver
/// builds. Empty when `assert` takes arguments (another API) or no outcome follows.
pub(super) fn expectations(toks: &[Tok], start: usize, at: usize) -> Vec<Expectation> {
    if toks.get(at + 1).map(|t| t.text) != Some("(")
        || toks.get(at + 2).map(|t| t.text) != Some(")")
    {
        return Vec::new();
    }
    let command = command_line(&toks[start..at.saturating_sub(1)]);
    let mut out = Vec::new();
    let mut k = at + 3;
    while toks.get(k).map(|t| t.text) == Some(".") {
        let Some(name) = toks.get(k + 1) else { break };
        let Some((args, end)) = group_args(toks, k + 2) else {
            break;
        };
        if let Some(text) = outcome(name.text, &args, &command) {
            out.push(Expectation {
                line: name.line,
                text,
            });
        }
        k = end;
    }
    out
}

/// How one outcome method reads: `running `fd -H` succeeds`, `... prints "x" on stderr`.
fn outcome(method: &str, args: &[&[Tok]], command: &str) -> Option<String> {
    if !OUTCOMES.contains(&method) {
        return None;
    }
    let run = format!("running `{command}`");
    let value = args.first().and_then(|a| the_literal(a));
    Some(match (method, value) {
        ("success", _) => format!("{run} succeeds"),
        ("failure", _) => format!("{run} fails"),
        ("interrupted", _) => format!("{run} is interrupted"),
        ("code", Some(v)) => format!("{run} exits with code {v}"),
        ("stdout" | "stderr", Some(v)) => {
            // `predicate::str::contains("x")` checks a part; a bare value the whole stream.
            let part = args[0]
                .iter()
                .any(|t| t.text == "contains" || t.text == "is_match");
            let how = if part { "prints" } else { "prints exactly" };
            format!("{run} {how} {v} on {method}")
        }
        _ => return None,
    })
}

/// The one literal in an argument (`"x"`, `predicate::str::contains("x")`), as written.
fn the_literal(arg: &[Tok]) -> Option<String> {
    let mut lits = arg.iter().filter(|t| rust_literal(t.kind));
    let first = lits.next()?;
    lits.next().is_none().then(|| literal(first.text))
}

/// The command line a receiver builds: the program (`Command::cargo_bin("fd")`'s or
/// `Command::new("ksh")`'s name, or the builder function the test calls, `fd()`), then
/// each `.arg(x)` and `.args([..])` literal, unquoted; an argument that is not a literal
/// shows as `…`.
fn command_line(receiver: &[Tok]) -> String {
    let named = |i: usize| match receiver[i].text {
        "cargo_bin" => true,
        "new" => i >= 2 && receiver[i - 2].text == "Command" && receiver[i - 1].text == "::",
        _ => false,
    };
    // A program named by anything but a literal (`Command::new(bin_path())`) shows as `…`.
    let program = (0..receiver.len().saturating_sub(2))
        .find(|&i| named(i) && receiver[i + 1].text == "(")
        .map(|i| match rust_literal(receiver[i + 2].kind) {
            true => unquoted(receiver[i + 2].text),
            false => "…".to_string(),
        })
        .or_else(|| {
            receiver
                .windows(2)
                .find(|w| w[0].kind == "identifier" && w[1].text == "(")
                .map(|w| w[0].text.to_string())
        })
        .or_else(|| receiver.first().map(|t| t.text.to_string()))
        .unwrap_or_default();
    let mut words = vec![program];
    let mut k = 0;
    while k + 2 < receiver.len() {
        let is_arg = receiver[k].text == "." && matches!(receiver[k + 1].text, "arg" | "args");
        if !is_arg {
            k += 1;
            continue;
        }
        let Some((args, end)) = group_args(receiver, k + 2) else {
            break;
        };
        for arg in args {
            let lits: Vec<&Tok> = arg.iter().filter(|t| rust_literal(t.kind)).collect();
            if lits.is_empty() {
                words.push("…".to_string());
            }
            words.extend(lits.iter().map(|t| shell_word(&unquoted(t.text))));
        }
        k = end;
    }
    words.join(" ")
}

/// A Rust string literal's contents (`"x"`, `r"x"`, `r#"x"#`); other literals as written.
fn unquoted(lit: &str) -> String {
    let body = lit.trim_start_matches('r').trim_start_matches('#');
    body.strip_prefix('"')
        .and_then(|b| b.trim_end_matches('#').strip_suffix('"'))
        .map_or_else(|| lit.to_string(), str::to_string)
}

/// A word as a shell shows it: quoted when it holds a space or is empty.
fn shell_word(word: &str) -> String {
    if word.is_empty() || word.contains(char::is_whitespace) {
        format!("'{word}'")
    } else {
        word.to_string()
    }
}
