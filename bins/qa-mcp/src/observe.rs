//! What qa-mcp notes of the stream it passes to qa-report: each record's kind and
//! producing stage (read from the envelope's first bytes, not parsed), and in full only
//! the few kinds a result names: scenarios, check routes missing a flag, executions.

use serde::Deserialize;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The most scenarios a change result lists (the rest are counted).
pub const MAX_SCENARIOS: usize = 100;

/// A scenario as the stream has it (raw repository text: cleaned before it is shown).
#[derive(Debug, Clone, Deserialize)]
pub struct Scenario {
    #[serde(skip)]
    pub id: String,
    pub title: String,
    pub priority: String,
    pub authority: String,
}

/// What `qa-check --exec` recorded.
#[derive(Debug, Clone, Deserialize)]
pub struct Execution {
    pub status: String,
    pub command: Option<String>,
    pub exit_code: Option<i32>,
}

#[derive(Debug, Default)]
pub struct Observed {
    pub records: u64,
    pub scenarios: Vec<Scenario>,
    pub scenario_count: u64,
    /// Permission flags a check route needed and the stages were not given.
    pub missing_flags: BTreeSet<String>,
    pub executions: Vec<Execution>,
}

#[derive(Deserialize)]
struct Envelope {
    kind: String,
    by: String,
}

impl Observed {
    /// Notes one line; the name of the stage that wrote it (from `by`), or None for a line
    /// that is not a record (blank, or not an envelope: qa-report will say so).
    pub fn note<'a>(&mut self, line: &'a [u8]) -> Option<Cow<'a, str>> {
        let (kind, by) = head(line)?;
        self.records += 1;
        match kind.as_ref() {
            "scenario" => {
                self.scenario_count += 1;
                if self.scenarios.len() < MAX_SCENARIOS {
                    if let Some((id, data)) = parse(line) {
                        if let Ok(mut s) = Scenario::deserialize(&data) {
                            s.id = id;
                            self.scenarios.push(s);
                        }
                    }
                }
            }
            "route" => {
                if let Some((_, data)) = parse(line) {
                    if let Some(missing) = data.get("missing").and_then(|m| m.as_array()) {
                        self.missing_flags.extend(
                            missing
                                .iter()
                                .filter_map(|f| f.as_str())
                                .map(str::to_string),
                        );
                    }
                }
            }
            "execution" => {
                if let Some((_, data)) = parse(line) {
                    if let Ok(e) = Execution::deserialize(&data) {
                        self.executions.push(e);
                    }
                }
            }
            _ => {}
        }
        Some(match by {
            Cow::Borrowed(b) => Cow::Borrowed(b.split('/').next().unwrap_or(b)),
            Cow::Owned(b) => Cow::Owned(b.split('/').next().unwrap_or(&b).to_string()),
        })
    }
}

/// The record's kind and `by`, from the canonical field order every stage writes
/// (`{"kind":"K","v":N,"id":"sha256:…","by":"B",…`); a full parse for any other order.
fn head(line: &[u8]) -> Option<(Cow<'_, str>, Cow<'_, str>)> {
    const KIND: &[u8] = b"{\"kind\":\"";
    const BY: &[u8] = b"\"by\":\"";
    let fast = || -> Option<(&str, &str)> {
        let rest = line.strip_prefix(KIND)?;
        let end = rest.iter().position(|&b| b == b'"')?;
        let kind = std::str::from_utf8(&rest[..end]).ok()?;
        let window = &rest[end..rest.len().min(end + 256)];
        let at = window.windows(BY.len()).position(|w| w == BY)? + BY.len();
        let by_rest = &window[at..];
        let by_end = by_rest.iter().position(|&b| b == b'"')?;
        let by = std::str::from_utf8(&by_rest[..by_end]).ok()?;
        Some((kind, by))
    };
    if let Some((kind, by)) = fast() {
        return Some((Cow::Borrowed(kind), Cow::Borrowed(by)));
    }
    // Any other field order: a real parse (only hand-made streams).
    let env: Envelope = serde_json::from_slice(line).ok()?;
    Some((Cow::Owned(env.kind), Cow::Owned(env.by)))
}

/// A record's id and data.
fn parse(line: &[u8]) -> Option<(String, serde_json::Value)> {
    #[derive(Deserialize)]
    struct IdData {
        id: String,
        data: serde_json::Value,
    }
    let r: IdData = serde_json::from_slice(line).ok()?;
    Some((r.id, r.data))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"{"kind":"scenario","v":1,"id":"sha256:ab","by":"qa-intent/0.1.0","from":[],"src":{},"data":{"title":"t","priority":"critical","authority":"team-policy"}}"#;

    #[test]
    fn the_stage_is_read_from_by_and_scenarios_are_kept() {
        let mut o = Observed::default();
        assert_eq!(o.note(SCENARIO.as_bytes()).as_deref(), Some("qa-intent"));
        assert_eq!(o.records, 1);
        assert_eq!(o.scenarios[0].id, "sha256:ab");
        assert_eq!(o.scenarios[0].authority, "team-policy");
    }

    #[test]
    fn a_record_in_another_field_order_is_still_noted() {
        let mut o = Observed::default();
        let line = r#"{"by":"qa-route/0.1.0","kind":"route","v":1,"id":"sha256:cd","from":[],"src":{},"data":{"missing":["--allow-network"]}}"#;
        assert_eq!(o.note(line.as_bytes()).as_deref(), Some("qa-route"));
        assert!(o.missing_flags.contains("--allow-network"));
    }

    #[test]
    fn a_line_that_is_not_a_record_is_not_counted() {
        let mut o = Observed::default();
        assert_eq!(o.note(b"not json\n"), None);
        assert_eq!(o.records, 0);
    }
}
