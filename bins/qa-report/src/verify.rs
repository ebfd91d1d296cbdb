//! Stream verification: envelope shape, recomputed ids, and `from` ids seen earlier.

use qa_shared::envelope::Envelope;
use qa_shared::ndjson::{LineReader, ReadError};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::io::{self, BufRead};

/// One problem found on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: u64,
    pub message: String,
}

/// What a verification saw.
#[derive(Debug, Default)]
pub struct Summary {
    /// Lines that parsed as envelopes, by kind.
    pub per_kind: BTreeMap<String, u64>,
    /// The first problems, in line order.
    pub problems: Vec<Problem>,
    /// Every problem, listed or not.
    pub problem_count: u64,
}

impl Summary {
    pub fn records(&self) -> u64 {
        self.per_kind.values().sum()
    }

    fn problem(&mut self, max: usize, line: u64, message: String) {
        self.problem_count += 1;
        if self.problems.len() < max {
            self.problems.push(Problem { line, message });
        }
    }
}

impl Summary {
    /// The lines a person reads on stderr: each listed problem, how many more, then the
    /// summary.
    pub fn messages(&self, source: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .problems
            .iter()
            .map(|p| format!("{source} line {}: {}", p.line, p.message))
            .collect();
        let unlisted = self.problem_count - self.problems.len() as u64;
        if unlisted > 0 {
            out.push(format!("... and {unlisted} more"));
        }
        out.push(self.to_string());
        out
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds: Vec<String> = self
            .per_kind
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        write!(
            f,
            "{} records ({}); {} problem{}",
            self.records(),
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            },
            self.problem_count,
            if self.problem_count == 1 { "" } else { "s" }
        )
    }
}

/// Verifies every line of `input`, listing at most `max_problems` problems.
/// Only a failure to read the input is an error; everything else is a problem.
pub fn verify(input: impl BufRead, max_problems: usize) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut reader = LineReader::new(input);
    while let Some(item) = reader.next_line() {
        let (line, bytes) = match item {
            Ok(ok) => ok,
            Err(ReadError::Io(e)) => return Err(e),
            Err(e @ ReadError::TooLong { line, .. }) => {
                let message = e.to_string();
                let message = message
                    .split_once(": ")
                    .map_or(message.clone(), |(_, m)| m.to_string());
                summary.problem(max_problems, line, message);
                continue;
            }
        };
        let envelope = match Envelope::parse(bytes) {
            Ok(e) => e,
            Err(e) => {
                summary.problem(max_problems, line, e.to_string());
                continue;
            }
        };
        *summary.per_kind.entry(envelope.kind.clone()).or_default() += 1;
        match envelope.computed_id() {
            Ok(id) if id == envelope.id => {}
            Ok(id) => summary.problem(
                max_problems,
                line,
                format!(
                    "{} record id {} does not match its content ({id})",
                    envelope.kind, envelope.id
                ),
            ),
            Err(e) => summary.problem(max_problems, line, e.to_string()),
        }
        for from in &envelope.from {
            if !seen.contains(from) {
                summary.problem(
                    max_problems,
                    line,
                    format!(
                        "{} record names {from} in `from`, which does not appear earlier in the stream",
                        envelope.kind
                    ),
                );
            }
        }
        seen.insert(envelope.id);
    }
    Ok(summary)
}
