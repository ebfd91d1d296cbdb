//! `Schemas`: every record checked against the envelope schema, its kind's data schema
//! when schema/ has one, and its id recomputed from the canonical hashed fields.

use qa_records::Envelope;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The workspace's schema/ directory.
pub fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema")
}

/// Compiled validators: the envelope's, and one per kind met so far (None: the kind has
/// no schema file yet, so only its envelope is checked).
pub struct Schemas {
    envelope: jsonschema::Validator,
    kinds: Mutex<HashMap<String, Option<&'static jsonschema::Validator>>>,
}

/// The schema file describing the `data` of a `kind` record: `K.record.schema.json` when
/// it exists (`plan.schema.json` is the plan file's format, not the record's), else
/// `K.schema.json`; None when schema/ has neither.
pub fn data_schema(kind: &str) -> Option<PathBuf> {
    [
        format!("{kind}.record.schema.json"),
        format!("{kind}.schema.json"),
    ]
    .into_iter()
    .map(|name| schema_dir().join(name))
    .find(|path| path.is_file())
}

fn load(path: &Path) -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", path.display()))
}

impl Schemas {
    pub fn get() -> &'static Schemas {
        static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
        SCHEMAS.get_or_init(|| Schemas {
            envelope: load(&schema_dir().join("envelope.schema.json")),
            kinds: Mutex::new(HashMap::new()),
        })
    }

    /// The data validator for `kind`, compiled once; None when schema/ has none.
    fn for_kind(&self, kind: &str) -> Option<&'static jsonschema::Validator> {
        let mut kinds = self.kinds.lock().unwrap_or_else(|e| e.into_inner());
        *kinds.entry(kind.to_string()).or_insert_with(|| {
            // Leaked once per kind per test process: validators live as long as the tests.
            data_schema(kind).map(|path| &*Box::leak(Box::new(load(&path))))
        })
    }

    /// True when schema/ has a data schema for `kind`.
    pub fn has_schema(&self, kind: &str) -> bool {
        self.for_kind(kind).is_some()
    }

    /// Panics on the first record that breaks the envelope schema, its kind's schema, or
    /// whose id does not match its content.
    pub fn validate_all(&self, records: &[Value]) {
        for (i, record) in records.iter().enumerate() {
            if let Err(e) = self.envelope.validate(record) {
                panic!("record {i} breaks the envelope schema: {e}\n{record}");
            }
            let kind = record["kind"]
                .as_str()
                .expect("the envelope schema requires kind");
            if let Some(validator) = self.for_kind(kind) {
                if let Err(e) = validator.validate(&record["data"]) {
                    panic!("{kind} record {i} breaks its schema: {e}\n{record}");
                }
            }
            let line = serde_json::to_vec(record).expect("serializing a Value");
            let envelope = Envelope::parse(&line)
                .unwrap_or_else(|e| panic!("{kind} record {i}: {e}\n{record}"));
            let computed = envelope
                .computed_id()
                .unwrap_or_else(|e| panic!("{kind} record {i}: {e}\n{record}"));
            assert_eq!(
                computed, envelope.id,
                "{kind} record {i} has an id that does not match its content\n{record}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::{Kind, Record};

    fn diag() -> Value {
        let record = Record::new(
            Kind::Diag,
            "qa-test/0.0.0",
            vec![],
            Default::default(),
            serde_json::json!({"severity": "info", "stage": "test", "message": "hello", "subjects": []}),
        )
        .unwrap();
        serde_json::from_slice(&record.to_line()).unwrap()
    }

    #[test]
    fn a_well_formed_record_passes() {
        Schemas::get().validate_all(&[diag()]);
    }

    #[test]
    #[should_panic(expected = "does not match its content")]
    fn an_edited_record_fails_on_its_id() {
        let mut record = diag();
        record["data"]["message"] = "edited".into();
        Schemas::get().validate_all(&[record]);
    }

    #[test]
    #[should_panic(expected = "breaks its schema")]
    fn a_record_breaking_its_kind_schema_fails() {
        let mut record = diag();
        record["data"]["severity"] = "loud".into();
        Schemas::get().validate_all(&[record]);
    }

    #[test]
    fn a_record_schema_is_preferred_over_the_file_format_of_the_same_name() {
        let plan = data_schema("plan").unwrap();
        assert!(plan.ends_with("plan.record.schema.json"), "{plan:?}");
        let file = data_schema("file").unwrap();
        assert!(file.ends_with("file.schema.json"), "{file:?}");
    }

    #[test]
    fn a_kind_without_a_schema_file_gets_only_the_envelope_check() {
        assert!(!Schemas::get().has_schema("x-no-such-kind"));
        assert!(Schemas::get().has_schema("file"));
    }
}
