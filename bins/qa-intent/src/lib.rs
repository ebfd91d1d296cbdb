//! qa-intent: change intents and runner-independent QA scenarios from a change stream.

pub mod behaviour;
pub mod changeset;
pub mod cli;
pub mod intents;
pub mod joining;
pub mod lifecycle;
pub mod manifest;
pub mod plan;
pub mod scenarios;
pub mod syntax;
pub mod vocabulary;

use std::io::{BufRead, Write};

use anyhow::Result;
use qa_shared::diag::{Diag, Severity};
use qa_shared::envelope::Src;
use qa_shared::output::RecordWriter;
use qa_shared::{Kind, Record};

use changeset::Changeset;
use manifest::Manifest;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-intent/", env!("CARGO_PKG_VERSION"));

/// Forwards the stream, then appends one `intent` record per intent, each followed by its
/// `scenario` records, and `diag` records for what it set aside.
pub fn run<R: BufRead, W: Write>(
    source: &str,
    input: R,
    manifest: Option<&Manifest>,
    out: &mut RecordWriter<W>,
) -> Result<()> {
    let mut cs = Changeset::default();
    qa_shared::ndjson::forward_each(source, input, out, |line, envelope| {
        cs.take(source, line, envelope)
    })?;
    if cs.range.is_none() && cs.files.is_empty() {
        let diag = Diag::new(
            Severity::Warning,
            "qa-intent",
            "no range or file records in the input: run qa-diff first",
        );
        out.write(&diag.into_record(BY, vec![])?)?;
        return Ok(());
    }
    let mut src = Src::new();
    if let Some(m) = manifest {
        src.insert("manifest.sha256".to_string(), m.sha256.clone());
    }
    for intent in intents::derive(&cs, manifest) {
        let intent_src = if intent.data.flow.is_some() {
            src.clone()
        } else {
            Src::new()
        };
        let record = Record::new(
            Kind::Intent,
            BY,
            intent.from.clone(),
            intent_src.clone(),
            &intent.data,
        )?;
        out.write(&record)?;
        for mut scenario in scenarios::for_intent(&intent) {
            if let Some(m) = manifest {
                let files: Vec<&str> = scenario
                    .evidence
                    .iter()
                    .filter(|e| e.line > 0)
                    .map(|e| e.file.as_str())
                    .collect();
                if let Some(s) = m.suppression_for(&scenario.title, &files) {
                    let mut diag = Diag::new(
                        Severity::Info,
                        "qa-intent",
                        format!(
                            "scenario {:?} suppressed by the manifest: {}",
                            scenario.title, s.reason
                        ),
                    );
                    diag.subjects.push(record.id.clone());
                    out.write(&diag.into_record(BY, vec![record.id.clone()])?)?;
                    continue;
                }
            }
            scenario.intent = record.id.clone();
            out.write(&Record::new(
                Kind::Scenario,
                BY,
                vec![record.id.clone()],
                intent_src.clone(),
                &scenario,
            )?)?;
        }
    }
    Ok(())
}
