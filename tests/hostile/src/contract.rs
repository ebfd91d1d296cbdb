//! The contract every hostile run is held to, and the list of breaches a case collects
//! over all stages before it fails (so one run names every stage that broke it).

use crate::launch::{Outcome, BOUND};
use crate::stages::Stage;

/// What a case expects of a stage.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Stopped on bad input: exit `code` and one line on stderr holding every `names` entry
    /// (the input, the line, what is wrong).
    Refused { code: i32, names: Vec<String> },
    /// Handled as the stage handles a valid stream: the exit code it gives the fixture
    /// stream, and, for a stage that forwards, `line` forwarded byte for byte.
    Clean { code: i32, line: Option<Vec<u8>> },
    /// Stopped by a signal while blocked: exit `code` (130, 143); or the input refused
    /// at once with one of `refusals` and one line naming `names` before the signal.
    Stopped {
        code: i32,
        refusals: Vec<i32>,
        names: Vec<String>,
    },
}

/// The breaches found so far in one case.
#[derive(Default)]
pub struct Verdicts {
    breaches: Vec<String>,
}

impl Verdicts {
    pub fn new() -> Verdicts {
        Verdicts::default()
    }

    /// Checks `outcome` of `stage` in the case `case`. `kept` are the valid lines before
    /// the hostile one, which a forwarding stage must have written, in order.
    pub fn check(
        &mut self,
        case: &str,
        stage: &Stage,
        outcome: &Outcome,
        expect: &Expect,
        kept: &[&[u8]],
    ) {
        let mut breach = |what: String| {
            self.breaches.push(format!(
                "{case}: {}: {what} (exit {:?}, signal {:?}, {:.1?}); stderr: {:?}",
                stage.name,
                outcome.code,
                outcome.signal,
                outcome.elapsed,
                clip(&outcome.stderr)
            ))
        };
        if outcome.timed_out {
            breach(format!("still running after {BOUND:?}: killed"));
            return;
        }
        if outcome.stderr.contains("panicked") || outcome.code == Some(101) {
            breach("panicked".into());
        }
        let lines: Vec<&str> = outcome
            .stderr
            .lines()
            .filter(|l| !(stage.summarizes && is_summary(stage.name, l)))
            .collect();
        let one_line_naming = |names: &[String]| -> Option<String> {
            if lines.len() != 1 {
                return Some(format!("{} lines on stderr, not one", lines.len()));
            }
            let missing: Vec<&String> = names
                .iter()
                .filter(|n| !lines[0].contains(n.as_str()))
                .collect();
            (!missing.is_empty()).then(|| format!("the stderr line does not name {missing:?}"))
        };
        match expect {
            Expect::Refused { code, names } => {
                if outcome.code != Some(*code) {
                    breach(format!("exit {:?}, expected {code}", outcome.code));
                } else if let Some(why) = one_line_naming(names) {
                    breach(why);
                }
            }
            Expect::Clean { code, line } => {
                if outcome.code != Some(*code) {
                    breach(format!(
                        "exit {:?}, expected {code} as for the valid stream",
                        outcome.code
                    ));
                }
                if let (true, Some(line)) = (stage.forwards, line) {
                    if !outcome
                        .stdout
                        .split(|&b| b == b'\n')
                        .any(|l| l == line.as_slice())
                    {
                        breach("the record was not forwarded byte for byte".into());
                    }
                }
            }
            Expect::Stopped {
                code,
                refusals,
                names,
            } => match outcome.code {
                Some(c) if c == *code => {}
                Some(c) if refusals.contains(&c) => {
                    if let Some(why) = one_line_naming(names) {
                        breach(why);
                    }
                }
                other => breach(format!(
                    "exit {other:?}, expected {code} or a refusal {refusals:?}"
                )),
            },
        }
        if stage.forwards {
            if let Some(why) = lost(&outcome.stdout, kept) {
                breach(why);
            }
        }
    }

    /// Fails listing every breach, if there is one.
    pub fn assert_none(self) {
        assert!(
            self.breaches.is_empty(),
            "{} breach(es) of the hostile-input contract:\n  {}",
            self.breaches.len(),
            self.breaches.join("\n  ")
        );
    }
}

/// Why `stdout` is not a valid NDJSON stream holding `kept` in order, if it is not.
fn lost(stdout: &[u8], kept: &[&[u8]]) -> Option<String> {
    if !stdout.is_empty() && stdout.last() != Some(&b'\n') {
        return Some("stdout ends inside a line".into());
    }
    let lines: Vec<&[u8]> = stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    if let Some(n) = lines
        .iter()
        .position(|l| !serde_json::from_slice::<serde_json::Value>(l).is_ok_and(|v| v.is_object()))
    {
        return Some(format!("stdout line {} is not a JSON object", n + 1));
    }
    let mut at = lines.iter();
    for (i, want) in kept.iter().enumerate() {
        if !at.any(|l| l == want) {
            return Some(format!(
                "record {} of {} written before the hostile line is missing from stdout",
                i + 1,
                kept.len()
            ));
        }
    }
    None
}

/// True for the summary line a stage that reads the whole stream ends with on stderr:
/// `NAME: 7 records (commit 1, ...); 1 problem`.
fn is_summary(name: &str, line: &str) -> bool {
    line.strip_prefix(name)
        .and_then(|rest| rest.strip_prefix(": "))
        .is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains(" records")
        })
}

fn clip(text: &str) -> String {
    let text = text.trim_end();
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}
