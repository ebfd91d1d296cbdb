//! The changed lines of the stream's `file` records, by path and line: the text a locator,
//! a storage key or a request is read from (scenario evidence carries only fact wording).

use std::collections::{BTreeMap, HashMap};

use anyhow::Result;
use qa_records::change::{FileData, Op};
use qa_records::ndjson::data_of;
use qa_records::{Envelope, Kind};

/// Added lines of every changed file; a later record of a path (the current delta) wins.
#[derive(Debug, Default)]
pub struct ChangedLines {
    files: HashMap<String, BTreeMap<u32, String>>,
}

impl ChangedLines {
    /// Keeps the added lines of a `file` record; other kinds are not read.
    pub fn take(&mut self, source: &str, line: u64, envelope: &Envelope) -> Result<()> {
        if envelope.known_kind() != Some(Kind::File) {
            return Ok(());
        }
        let data: FileData = data_of(source, line, envelope)?;
        let added = data
            .hunks
            .into_iter()
            .flat_map(|h| h.lines)
            .filter(|l| l.op == Op::Add)
            .map(|l| (l.line, l.text))
            .collect();
        self.files.insert(data.path, added);
        Ok(())
    }

    /// Adds one changed line (tests and callers that build streams by hand).
    pub fn insert(&mut self, file: &str, line: u32, text: &str) {
        self.files
            .entry(file.to_string())
            .or_default()
            .insert(line, text.to_string());
    }

    /// The added line at `file:line`.
    pub fn line(&self, file: &str, line: u32) -> Option<&str> {
        self.files.get(file)?.get(&line).map(String::as_str)
    }

    /// The added lines of `file`, in line order.
    pub fn of(&self, file: &str) -> impl Iterator<Item = (u32, &str)> {
        self.files
            .get(file)
            .into_iter()
            .flat_map(|m| m.iter().map(|(n, t)| (*n, t.as_str())))
    }

    /// Every added line, by file then line.
    pub fn all(&self) -> impl Iterator<Item = (&str, u32, &str)> {
        let mut files: Vec<&String> = self.files.keys().collect();
        files.sort();
        files
            .into_iter()
            .flat_map(move |f| self.of(f).map(move |(n, t)| (f.as_str(), n, t)))
    }
}
