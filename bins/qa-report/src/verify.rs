//! Stream verification: envelope shape, recomputed ids, and `from` ids seen earlier.

use qa_records::envelope::Envelope;
use qa_records::ndjson::DEFAULT_MAX_LINE as MAX_LINE;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, HashSet};
use std::fmt;

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
            .map(|p| {
                let line = format!("{source} line {}: {}", p.line, p.message);
                crate::plain::one_line(&line).into_owned()
            })
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

/// Verifies a stream line by line, listing at most `max_problems` problems.
pub struct Verifier {
    summary: Summary,
    /// The ids seen so far, as their 32 digest bytes.
    seen: HashSet<[u8; 32]>,
    max_problems: usize,
}

impl Verifier {
    pub fn new(max_problems: usize) -> Verifier {
        Verifier {
            summary: Summary::default(),
            seen: HashSet::new(),
            max_problems,
        }
    }

    /// Checks line `line`: its envelope, its recomputed id, and that every id in its
    /// `from` appeared earlier. Returns the envelope when it parsed, with the data built
    /// for the kinds `reads` accepts ([`Envelope::parse_canonical`]: also for any other
    /// whose data is not canonical), and the data's text when it is canonical.
    pub fn line<'a>(
        &mut self,
        line: u64,
        bytes: &'a [u8],
        reads: impl Fn(&str) -> bool,
    ) -> Option<(Envelope, Option<&'a RawValue>)> {
        let max = self.max_problems;
        let summary = &mut self.summary;
        let (envelope, text) = match Envelope::parse_canonical(bytes, reads) {
            Ok(read) => read,
            Err(e) => {
                summary.problem(max, line, e.to_string());
                return None;
            }
        };
        *summary.per_kind.entry(envelope.kind.clone()).or_default() += 1;
        match envelope.computed_id_given(text) {
            Ok(id) if id == envelope.id => {}
            Ok(id) => summary.problem(
                max,
                line,
                format!(
                    "{} record id {} does not match its content ({id})",
                    envelope.kind, envelope.id
                ),
            ),
            Err(e) => summary.problem(max, line, e.to_string()),
        }
        for from in &envelope.from {
            if !self.seen.contains(&digest(from)) {
                summary.problem(
                    max,
                    line,
                    format!(
                        "{} record names {from} in `from`, which does not appear earlier in the stream",
                        envelope.kind
                    ),
                );
            }
        }
        self.seen.insert(digest(&envelope.id));
        Some((envelope, text))
    }

    /// Line `line` is over the line limit: a problem, and the last line read.
    pub fn too_long(&mut self, line: u64) {
        let message = format!("longer than the {MAX_LINE}-byte line limit");
        self.summary.problem(self.max_problems, line, message);
    }

    /// Problems found so far.
    pub fn problem_count(&self) -> u64 {
        self.summary.problem_count
    }

    pub fn finish(self) -> Summary {
        self.summary
    }
}

/// The 32 bytes an id (`sha256:` and 64 hex digits, as every parsed envelope holds) names.
fn digest(id: &str) -> [u8; 32] {
    let hex = id.strip_prefix("sha256:").unwrap_or(id).as_bytes();
    let mut out = [0u8; 32];
    for (i, pair) in hex.chunks(2).take(32).enumerate() {
        let nibble = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
        out[i] = nibble(pair[0]) << 4 | pair.get(1).map_or(0, |&b| nibble(b));
    }
    out
}
