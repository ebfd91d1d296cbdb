//! The version-1 record envelope (`kind, v, id, by, from, src, data`) and its id.
//!
//! `id` is `sha256:` + the hex SHA-256 of the canonical JSON of `{kind, v, from, src,
//! data}`; `by` is left out so that the same input gives the same id whatever build
//! produced it.

use crate::canonical::{self, NotCanonical};
use crate::hash;
use crate::kind::Kind;
use anyhow::Context as _;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;

/// The prefix of every record id.
pub const ID_PREFIX: &str = "sha256:";

/// Content hashes of outside material a record rests on, by source name.
pub type Src = BTreeMap<String, String>;

/// A record a stage emits. `data` holds its canonical JSON, so the bytes written are the
/// bytes hashed.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    pub kind: String,
    pub v: u64,
    pub id: String,
    pub by: String,
    pub from: Vec<String>,
    pub src: Src,
    pub data: Box<RawValue>,
}

impl Record {
    /// Builds a record of a known kind at its current version and computes its id.
    pub fn new(
        kind: Kind,
        by: &str,
        from: Vec<String>,
        src: Src,
        data: impl Serialize,
    ) -> anyhow::Result<Record> {
        let value =
            serde_json::to_value(data).with_context(|| format!("serializing a {kind} record"))?;
        let data = canonical::to_raw_value_at_pointer(&value, "/data")
            .with_context(|| format!("hashing a {kind} record"))?;
        Ok(Record::from_canonical(kind, by, from, src, data))
    }

    /// Like [`Record::new`] without the detour through a `serde_json::Value`, for large
    /// payloads whose types serialize canonically as they are: struct fields declared in
    /// code-point order of their serialized names, maps as `BTreeMap`, no floats. Debug
    /// builds (and so every test) check each record.
    pub fn new_sorted(
        kind: Kind,
        by: &str,
        from: Vec<String>,
        src: Src,
        data: &impl Serialize,
    ) -> anyhow::Result<Record> {
        // serde_json's own output becomes a RawValue without being parsed again.
        let data = serde_json::value::to_raw_value(data)
            .with_context(|| format!("serializing a {kind} record"))?;
        #[cfg(debug_assertions)]
        {
            let value: Value =
                serde_json::from_str(data.get()).expect("serde_json reads its own output");
            let canonical = canonical::to_vec(&value).expect("no floats in sorted records");
            assert!(
                canonical == data.get().as_bytes(),
                "{kind} data does not serialize canonically: declare its fields in sorted order"
            );
        }
        Ok(Record::from_canonical(kind, by, from, src, data))
    }

    /// The record of `data`, already in canonical form.
    fn from_canonical(
        kind: Kind,
        by: &str,
        from: Vec<String>,
        src: Src,
        data: Box<RawValue>,
    ) -> Record {
        let kind_name = kind.as_str().to_string();
        let v = kind.version();
        let id = id_of_canonical(&kind_name, v, &from, &src, data.get().as_bytes());
        Record {
            kind: kind_name,
            v,
            id,
            by: by.to_string(),
            from,
            src,
            data,
        }
    }

    /// The record as one NDJSON line, without the newline.
    pub fn to_line(&self) -> Vec<u8> {
        // Room for the whole line up front: the data, ids of 71 bytes, the rest short.
        let room = self.data.get().len() + 160 + 74 * self.from.len() + 96 * self.src.len();
        let mut line = Vec::with_capacity(room);
        // A Record holds only strings, integers and raw JSON: serializing cannot fail.
        serde_json::to_writer(&mut line, self).expect("serializing a record");
        line
    }
}

/// The id of a record with these hashed fields.
pub fn compute_id(
    kind: &str,
    v: u64,
    from: &[String],
    src: &Src,
    data: &Value,
) -> Result<String, NotCanonical> {
    let mut bytes = Vec::with_capacity(256);
    canonical::write_at_pointer(data, &mut bytes, "/data")?;
    Ok(id_of_canonical(kind, v, from, src, &bytes))
}

/// The id, given `data` already in canonical form. The hashed object {data, from, kind,
/// src, v} is written key by key in sorted order rather than assembled as a Value, so the
/// (possibly large) data is never copied into a tree.
fn id_of_canonical(kind: &str, v: u64, from: &[String], src: &Src, data: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"{\"data\":");
    hasher.update(data);
    let mut rest = Vec::with_capacity(128 + 72 * from.len());
    rest.extend_from_slice(b",\"from\":");
    // Ids, kind names and src entries are plain strings: serde_json's form is canonical.
    serde_json::to_writer(&mut rest, from).expect("writing into memory");
    rest.extend_from_slice(b",\"kind\":");
    serde_json::to_writer(&mut rest, kind).expect("writing into memory");
    rest.extend_from_slice(b",\"src\":");
    serde_json::to_writer(&mut rest, src).expect("writing into memory");
    rest.extend_from_slice(b",\"v\":");
    rest.extend_from_slice(v.to_string().as_bytes());
    rest.push(b'}');
    hasher.update(&rest);
    format!("{ID_PREFIX}{}", hash::hex(&hasher.finalize()))
}

/// True when `s` has the form of a record id.
pub fn is_id(s: &str) -> bool {
    s.strip_prefix(ID_PREFIX).is_some_and(hash::is_sha256_hex)
}

/// The text of a JSON string at the start of `rest` (its opening quote already taken)
/// when it holds no escape and no control character, `rest` moved past its closing quote.
fn plain_string<'l>(rest: &mut &'l [u8]) -> Option<&'l str> {
    let end = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    if rest[end] != b'"' {
        return None;
    }
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    *rest = &rest[end + 1..];
    Some(text)
}

/// A record read from a stream, with its envelope checked for shape.
#[derive(Debug, Clone)]
pub struct Envelope {
    pub kind: String,
    pub v: u64,
    pub id: String,
    pub by: String,
    pub from: Vec<String>,
    pub src: Src,
    pub data: Value,
}

/// The envelope fields of one line, each as read (None when absent).
struct Fields {
    kind: Option<Value>,
    v: Option<Value>,
    id: Option<Value>,
    by: Option<Value>,
    from: Option<Value>,
    src: Option<Value>,
    data: Option<Value>,
}

/// The envelope fields of one line, unparsed; other fields are ignored. A field given
/// as `null` is present (`Option` alone would read it as absent).
#[derive(serde::Deserialize)]
struct RawFields<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    v: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    by: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    from: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    src: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    data: Option<&'a RawValue>,
}

/// Nesting (arrays and objects) that [`Envelope::parse_reading`] leaves to
/// [`Envelope::parse`] to judge; serde_json refuses 128 levels.
const SHALLOW: usize = 100;

/// True when the JSON text `json` (valid JSON) certainly reads as a `Value`: nested at
/// most [`SHALLOW`] deep, no `\u` escape (a lone surrogate is refused), no number with an
/// exponent or of 300 digits (out of range is refused). Otherwise `parse` judges it.
fn plain(json: &str) -> bool {
    let bytes = json.as_bytes();
    let (mut depth, mut digits, mut previous) = (0usize, 0usize, b' ');
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        at += 1;
        if b == b'"' {
            // Inside a string only a `\u` escape matters: skipped to its end.
            loop {
                at = canonical::to_string_end_or_escape::<false>(bytes, at);
                match bytes.get(at) {
                    Some(b'\\') if bytes.get(at + 1) == Some(&b'u') => return false,
                    Some(b'\\') => at += 2,
                    Some(_) => {
                        at += 1;
                        break;
                    }
                    None => break,
                }
            }
            digits = 0;
            previous = b;
            continue;
        }
        digits = if b.is_ascii_digit() { digits + 1 } else { 0 };
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'e' | b'E' if previous.is_ascii_digit() || previous == b'.' => return false,
            _ => {}
        }
        if depth > SHALLOW || digits >= 300 {
            return false;
        }
        previous = b;
    }
    true
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue as serde::Deserialize>::deserialize(d).map(Some)
}

/// Why a line is not a valid envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvelopeError {
    NotJson(String),
    NotObject,
    Missing(&'static str),
    WrongType(&'static str, &'static str),
    BadId(String),
    BadFromId(String),
    NewerVersion { kind: String, v: u64, known: u64 },
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvelopeError::NotJson(e) => write!(f, "not valid JSON: {e}"),
            EnvelopeError::NotObject => f.write_str("not a JSON object"),
            EnvelopeError::Missing(field) => write!(f, "envelope field `{field}` is missing"),
            EnvelopeError::WrongType(field, want) => {
                write!(f, "envelope field `{field}` must be {want}")
            }
            EnvelopeError::BadId(id) => {
                write!(f, "`id` {id:?} is not `sha256:` followed by 64 lowercase hex digits")
            }
            EnvelopeError::BadFromId(id) => write!(f, "`from` entry {id:?} is not a record id"),
            EnvelopeError::NewerVersion { kind, v, known } => write!(
                f,
                "record kind `{kind}` is v{v}, newer than this build understands (v{known}); upgrade qapipe"
            ),
        }
    }
}

impl std::error::Error for EnvelopeError {}

impl Envelope {
    /// Parses one line and checks the envelope's shape; unknown fields are ignored.
    /// A known kind at a newer `v` than this build reads is refused.
    pub fn parse(line: &[u8]) -> Result<Envelope, EnvelopeError> {
        let value: Value =
            serde_json::from_slice(line).map_err(|e| EnvelopeError::NotJson(e.to_string()))?;
        let Value::Object(mut obj) = value else {
            return Err(EnvelopeError::NotObject);
        };
        let mut take = |field| obj.remove(field);
        Envelope::of_fields(Fields {
            kind: take("kind"),
            v: take("v"),
            id: take("id"),
            by: take("by"),
            from: take("from"),
            src: take("src"),
            data: take("data"),
        })
    }

    /// [`Envelope::parse`] that builds `data` only for the kinds `reads` accepts; any
    /// other record's `data` is `Value::Null`, checked to be JSON all the same. A stage
    /// that forwards records it does not read (a graph's edges) skips building them:
    /// most of the work of reading a record is its data. Errors are [`Envelope::parse`]'s.
    pub fn parse_reading(
        line: &[u8],
        reads: impl Fn(&str) -> bool,
    ) -> Result<Envelope, EnvelopeError> {
        Envelope::parse_raw(line, reads, false).map(|(envelope, _)| envelope)
    }

    /// [`Envelope::parse_reading`] that also hands back the data's own text when it is
    /// canonical ([`canonical::is_canonical`]), as every stage writes it: its id is then
    /// that text's hash ([`Envelope::computed_id_given`]), and a reader may deserialize it
    /// as it stands. The data of a kind `reads` refuses is left unbuilt (`Value::Null`)
    /// only then: otherwise it is built as [`Envelope::parse`] builds it.
    pub fn parse_canonical(
        line: &[u8],
        reads: impl Fn(&str) -> bool,
    ) -> Result<(Envelope, Option<&RawValue>), EnvelopeError> {
        Envelope::parse_raw(line, reads, true)
    }

    /// The kind of `line` when it is one of `kinds` written as every stage writes a
    /// record (the envelope's fields in their order, `src` empty, the data canonical)
    /// and [`Envelope::parse_canonical`] would accept it; `None` for anything else, which
    /// that parse then judges. A stage that forwards such records unread is spared
    /// building their envelopes.
    pub fn unread_kind(line: &[u8], kinds: &[Kind]) -> Option<Kind> {
        let mut rest = line.strip_prefix(br#"{"kind":""#)?;
        let name = plain_string(&mut rest)?;
        let kind = Kind::parse(name).filter(|k| kinds.contains(k))?;
        rest = rest.strip_prefix(br#","v":"#)?;
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let v: u64 = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        // A leading zero is no JSON number; a newer version is refused by the parse.
        if rest[0] == b'0' || v > kind.version() {
            return None;
        }
        rest = rest[digits..].strip_prefix(br#","id":""#)?;
        if !is_id(plain_string(&mut rest)?) {
            return None;
        }
        rest = rest.strip_prefix(br#","by":""#)?;
        plain_string(&mut rest)?;
        rest = rest.strip_prefix(br#","from":["#)?;
        if let Some(after) = rest.strip_prefix(b"]") {
            rest = after;
        } else {
            loop {
                rest = rest.strip_prefix(b"\"")?;
                if !is_id(plain_string(&mut rest)?) {
                    return None;
                }
                match rest.split_first()? {
                    (b',', after) => rest = after,
                    (b']', after) => {
                        rest = after;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let data = rest
            .strip_prefix(br#","src":{},"data":"#)?
            .strip_suffix(b"}")?;
        let data = std::str::from_utf8(data).ok()?;
        canonical::is_canonical(data).then_some(kind)
    }

    /// The raw path of [`Envelope::parse_reading`] and, with `canonical`, of
    /// [`Envelope::parse_canonical`].
    fn parse_raw(
        line: &[u8],
        reads: impl Fn(&str) -> bool,
        canonical: bool,
    ) -> Result<(Envelope, Option<&RawValue>), EnvelopeError> {
        // The top level as raw fields: JSON checked, nothing built. Anything else (not an
        // object, a field given twice) takes the full path, whose errors are documented.
        // (A derived struct also reads a JSON array, field by field: only an object here.)
        let object = line.trim_ascii_start().first() == Some(&b'{');
        let Some(raw) = object
            .then(|| serde_json::from_slice::<RawFields>(line).ok())
            .flatten()
        else {
            return Envelope::parse(line).map(|envelope| (envelope, None));
        };
        let value = |raw: Option<&RawValue>| match raw {
            None => Ok(None),
            Some(raw) => serde_json::from_str::<Value>(raw.get())
                .map(Some)
                .map_err(|e| EnvelopeError::NotJson(e.to_string())),
        };
        let kind = value(raw.kind)?;
        let read = matches!(&kind, Some(Value::String(kind)) if reads(kind));
        let kept = raw
            .data
            .filter(|data| canonical && canonical::is_canonical(data.get()));
        let fields = Fields {
            kind,
            v: value(raw.v)?,
            id: value(raw.id)?,
            by: value(raw.by)?,
            from: value(raw.from)?,
            src: value(raw.src)?,
            data: match raw.data {
                Some(data) if read => value(Some(data))?,
                // Canonical text reads as a `Value` (no lone surrogate, no deep nesting,
                // integers only).
                Some(_) if kept.is_some() => Some(Value::Null),
                // What a `Value` may refuse (deep nesting, a number out of range, a
                // lone surrogate) is judged by `parse`: a later stage must be able to
                // read what this one forwards.
                Some(data) if !plain(data.get()) => {
                    return Envelope::parse(line).map(|envelope| (envelope, None))
                }
                Some(data) if canonical => value(Some(data))?,
                Some(_) => Some(Value::Null),
                None => None,
            },
        };
        Envelope::of_fields(fields).map(|envelope| (envelope, kept))
    }

    /// Checks the envelope fields of one line.
    fn of_fields(f: Fields) -> Result<Envelope, EnvelopeError> {
        let string = |field: &'static str, value: Option<Value>| match value {
            None => Err(EnvelopeError::Missing(field)),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(EnvelopeError::WrongType(field, "a string")),
        };
        let kind = string("kind", f.kind)?;
        let v = match f.v {
            None => return Err(EnvelopeError::Missing("v")),
            Some(v) => v
                .as_u64()
                .filter(|v| *v >= 1)
                .ok_or(EnvelopeError::WrongType("v", "a positive integer"))?,
        };
        if let Some(known) = Kind::parse(&kind) {
            if v > known.version() {
                return Err(EnvelopeError::NewerVersion {
                    kind,
                    v,
                    known: known.version(),
                });
            }
        }
        let id = string("id", f.id)?;
        if !is_id(&id) {
            return Err(EnvelopeError::BadId(id));
        }
        let by = string("by", f.by)?;
        let from = match f.from {
            None => return Err(EnvelopeError::Missing("from")),
            Some(Value::Array(items)) => {
                let mut ids = Vec::with_capacity(items.len());
                for item in items {
                    let Value::String(s) = item else {
                        return Err(EnvelopeError::WrongType("from", "an array of record ids"));
                    };
                    if !is_id(&s) {
                        return Err(EnvelopeError::BadFromId(s));
                    }
                    ids.push(s);
                }
                ids
            }
            Some(_) => return Err(EnvelopeError::WrongType("from", "an array of record ids")),
        };
        let src = match f.src {
            None => return Err(EnvelopeError::Missing("src")),
            Some(Value::Object(map)) => {
                let mut src = Src::new();
                for (k, v) in map {
                    let Value::String(s) = v else {
                        return Err(EnvelopeError::WrongType("src", "an object of strings"));
                    };
                    src.insert(k, s);
                }
                src
            }
            Some(_) => return Err(EnvelopeError::WrongType("src", "an object of strings")),
        };
        let data = f.data.ok_or(EnvelopeError::Missing("data"))?;
        Ok(Envelope {
            kind,
            v,
            id,
            by,
            from,
            src,
            data,
        })
    }

    /// The kind, if this build knows it.
    pub fn known_kind(&self) -> Option<Kind> {
        Kind::parse(&self.kind)
    }

    /// Recomputes the id from the hashed fields.
    pub fn computed_id(&self) -> Result<String, NotCanonical> {
        compute_id(&self.kind, self.v, &self.from, &self.src, &self.data)
    }

    /// [`Envelope::computed_id`] of an envelope read by [`Envelope::parse_canonical`],
    /// given the canonical text of its data that it handed back, if any: that text is
    /// hashed as it stands.
    pub fn computed_id_given(&self, data: Option<&RawValue>) -> Result<String, NotCanonical> {
        match data {
            Some(text) => Ok(id_of_canonical(
                &self.kind,
                self.v,
                &self.from,
                &self.src,
                text.get().as_bytes(),
            )),
            None => self.computed_id(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Record {
        let mut src = Src::new();
        src.insert("git.commit".into(), "abc".into());
        Record::new(
            Kind::Diag,
            "qa-test/0.0.0",
            vec![],
            src,
            json!({"b": 1, "a": "é"}),
        )
        .unwrap()
    }

    #[test]
    fn id_is_sha256_of_the_canonical_hashed_fields() {
        let r = sample();
        let canonical =
            r#"{"data":{"a":"é","b":1},"from":[],"kind":"diag","src":{"git.commit":"abc"},"v":1}"#;
        assert_eq!(
            r.id,
            format!("sha256:{}", hash::sha256_hex(canonical.as_bytes()))
        );
    }

    #[test]
    fn by_does_not_change_the_id() {
        let a = sample();
        let data: Value = serde_json::from_str(a.data.get()).unwrap();
        let b = Record::new(Kind::Diag, "other/9", a.from.clone(), a.src.clone(), data).unwrap();
        assert_eq!(a.id, b.id);
    }

    #[derive(Serialize)]
    struct Sorted {
        alpha: u32,
        beta: Vec<&'static str>,
        gamma: Option<String>,
    }

    #[derive(Serialize)]
    struct Unsorted {
        zeta: u32,
        alpha: u32,
    }

    #[test]
    fn the_sorted_fast_path_gives_the_same_record_as_the_general_one() {
        let data = Sorted {
            alpha: 1,
            beta: vec!["é", "\"q\""],
            gamma: None,
        };
        let fast = Record::new_sorted(Kind::File, "t/0", vec![], Src::new(), &data).unwrap();
        let general = Record::new(Kind::File, "t/0", vec![], Src::new(), &data).unwrap();
        assert_eq!(fast.id, general.id);
        assert_eq!(fast.to_line(), general.to_line());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "does not serialize canonically")]
    fn the_sorted_fast_path_refuses_unsorted_fields_in_debug_builds() {
        let _ = Record::new_sorted(
            Kind::File,
            "t/0",
            vec![],
            Src::new(),
            &Unsorted { zeta: 1, alpha: 2 },
        );
    }

    #[test]
    fn the_general_path_sorts_unsorted_fields() {
        let r = Record::new(
            Kind::File,
            "t/0",
            vec![],
            Src::new(),
            Unsorted { zeta: 1, alpha: 2 },
        )
        .unwrap();
        assert_eq!(r.data.get(), r#"{"alpha":2,"zeta":1}"#);
    }

    #[test]
    fn a_written_record_parses_back_with_the_same_id() {
        let r = sample();
        let e = Envelope::parse(&r.to_line()).unwrap();
        assert_eq!(e.computed_id().unwrap(), r.id);
        assert_eq!(e.id, r.id);
    }

    #[test]
    fn envelope_fields_are_written_in_documented_order() {
        let line = String::from_utf8(sample().to_line()).unwrap();
        let order: Vec<usize> = [
            "\"kind\"", "\"v\"", "\"id\"", "\"by\"", "\"from\"", "\"src\"", "\"data\"",
        ]
        .iter()
        .map(|f| line.find(f).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{line}");
    }

    #[test]
    fn a_newer_version_of_a_known_kind_is_refused() {
        let line = br#"{"kind":"file","v":2,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"x","from":[],"src":{},"data":{}}"#;
        let err = Envelope::parse(line).unwrap_err();
        assert!(err.to_string().contains("`file` is v2"), "{err}");
    }

    #[test]
    fn a_newer_version_of_an_unknown_kind_is_accepted() {
        let line = br#"{"kind":"x-custom","v":7,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"x","from":[],"src":{},"data":{}}"#;
        assert!(Envelope::parse(line).is_ok());
    }

    #[test]
    fn each_missing_envelope_field_is_named() {
        let full = json!({"kind":"diag","v":1,"id":format!("sha256:{}", "0".repeat(64)),"by":"x","from":[],"src":{},"data":{}});
        for field in ["kind", "v", "id", "by", "from", "src", "data"] {
            let mut v = full.clone();
            v.as_object_mut().unwrap().remove(field);
            let err = Envelope::parse(&serde_json::to_vec(&v).unwrap()).unwrap_err();
            assert_eq!(err, EnvelopeError::Missing(field));
        }
    }

    #[test]
    fn malformed_ids_are_refused() {
        let line =
            br#"{"kind":"diag","v":1,"id":"sha256:XYZ","by":"x","from":[],"src":{},"data":{}}"#;
        assert!(matches!(
            Envelope::parse(line),
            Err(EnvelopeError::BadId(_))
        ));
    }

    /// The result of both parsers, `data` aside, and each one's `data`.
    fn both(
        line: &[u8],
        reads: bool,
    ) -> (
        Result<Envelope, EnvelopeError>,
        Result<Envelope, EnvelopeError>,
    ) {
        (
            Envelope::parse(line),
            Envelope::parse_reading(line, |_| reads),
        )
    }

    #[test]
    fn parse_reading_builds_the_data_of_the_kinds_it_reads() {
        let line = sample().to_line();
        let (full, reading) = both(&line, true);
        let (full, reading) = (full.unwrap(), reading.unwrap());
        assert_eq!(
            (full.kind, full.v, full.id, full.by, full.from, full.src, full.data),
            (
                reading.kind,
                reading.v,
                reading.id,
                reading.by,
                reading.from,
                reading.src,
                reading.data
            )
        );
    }

    #[test]
    fn parse_reading_leaves_the_data_of_other_kinds_null_and_keeps_the_envelope() {
        let line = sample().to_line();
        let full = Envelope::parse(&line).unwrap();
        let read = Envelope::parse_reading(&line, |kind| kind != "diag").unwrap();
        assert_eq!(read.data, Value::Null);
        assert_eq!(
            (read.kind, read.id, read.from, read.src),
            (full.kind, full.id, full.from, full.src)
        );
    }

    #[test]
    fn plain_finds_a_u_escape_at_every_offset_of_a_long_string_and_nothing_else() {
        // An escape or a quote at every offset of an eight-byte word, within long strings;
        // the word after a string is read again as structure.
        for pad in 0..17 {
            let run = "a".repeat(pad);
            for (inner, plain_text) in [
                (r#"\""#, true),
                (r#"\\"#, true),
                (r#"\n"#, true),
                ("ü", true),
                (r#"\u00e9"#, false),
            ] {
                let object = format!(r#"{{"k":"{run}{inner}{run}","n":1,"e":"{run}"}}"#);
                assert_eq!(plain(&object), plain_text, "{object}");
                let exponent = format!(r#"["{run}{inner}",2e1,"{run}"]"#);
                assert!(!plain(&exponent), "{exponent}");
            }
        }
        assert!(plain(r#"{"a":"\\u"}"#), "an escaped backslash before a u");
        assert!(!plain(&format!("[{}]", "9".repeat(300))));
        assert!(!plain(&format!("{}1{}", "[".repeat(101), "]".repeat(101))));
    }

    #[test]
    fn parse_canonical_hands_back_canonical_data_unbuilt_and_its_id_is_the_same() {
        let line = sample().to_line();
        let full = Envelope::parse(&line).unwrap();
        let (read, text) = Envelope::parse_canonical(&line, |_| false).unwrap();
        assert_eq!(read.data, Value::Null);
        let text = text.expect("a stage's own line is canonical");
        assert_eq!(
            serde_json::from_str::<Value>(text.get()).unwrap(),
            full.data
        );
        assert_eq!(read.computed_id_given(Some(text)).unwrap(), full.id);
    }

    #[test]
    fn parse_canonical_builds_data_that_is_not_canonical_and_hands_back_no_text() {
        let record = sample();
        let line = format!(
            r#"{{"kind":"diag","v":1,"id":"{}","by":"x","from":[],"src":{{"git.commit":"abc"}},"data":{{"b": 1, "a": "é"}}}}"#,
            record.id
        );
        let (read, text) = Envelope::parse_canonical(line.as_bytes(), |_| false).unwrap();
        assert!(text.is_none());
        assert_eq!(read.data, json!({"a": "é", "b": 1}));
        assert_eq!(read.computed_id_given(text).unwrap(), record.id);
    }

    #[test]
    fn parse_canonical_builds_the_data_of_a_kind_it_reads_and_hands_back_its_text() {
        let line = sample().to_line();
        let (read, text) = Envelope::parse_canonical(&line, |_| true).unwrap();
        assert_eq!(read.data, json!({"a": "é", "b": 1}));
        assert_eq!(text.map(RawValue::get), Some(r#"{"a":"é","b":1}"#));
    }

    #[test]
    fn parse_reading_and_parse_canonical_refuse_what_parse_refuses_with_the_same_error() {
        let id = format!("sha256:{}", "0".repeat(64));
        let full =
            json!({"kind":"diag","v":1,"id":id,"by":"x","from":[],"src":{},"data":{"a":[1,2]}});
        let mut lines: Vec<Vec<u8>> = vec![
            b"[1,2]".to_vec(),
            b"{not json".to_vec(),
            b"{\"kind\":\"diag\",\"kind\":\"file\"}".to_vec(),
            br#"{"kind":"file","v":2,"id":"sha256:00","by":"x","from":[],"src":{},"data":{}}"#.to_vec(),
            format!(r#"{{"kind":"diag","v":1,"id":"{id}","by":"x","from":[7],"src":{{}},"data":{{}}}}"#).into_bytes(),
            format!(r#"{{"kind":"diag","v":1,"id":"{id}","by":"x","from":[],"src":{{"a":1}},"data":{{"x":}}}}"#).into_bytes(),
        ];
        for field in ["kind", "v", "id", "by", "from", "src", "data"] {
            let mut v = full.clone();
            v.as_object_mut().unwrap().remove(field);
            lines.push(serde_json::to_vec(&v).unwrap());
            let mut v = full.clone();
            v[field] = json!(true);
            lines.push(serde_json::to_vec(&v).unwrap());
        }
        for line in &lines {
            for reads in [true, false] {
                let (full, reading) = both(line, reads);
                let shown = String::from_utf8_lossy(line);
                let canonical = Envelope::parse_canonical(line, |_| reads).map(|(e, _)| e);
                for other in [reading, canonical] {
                    match (&full, other) {
                        (Err(a), Err(b)) => assert_eq!(a, &b, "{shown}"),
                        (Ok(_), Ok(_)) => {}
                        (a, b) => panic!("{shown}: parse {a:?}, the other {b:?}"),
                    }
                }
            }
        }
    }

    /// A stage-written edge line: `from` two ids, `src` empty.
    fn edge_line() -> Vec<u8> {
        let a = format!("sha256:{}", "a".repeat(64));
        let b = format!("sha256:{}", "b".repeat(64));
        Record::new(
            Kind::Edge,
            "qa-intent/0.1.0",
            vec![a.clone(), b.clone()],
            Src::new(),
            json!({"from": a, "to": b, "kind": "calls", "evidence": [{"line": 1}]}),
        )
        .unwrap()
        .to_line()
    }

    #[test]
    fn a_stage_written_record_of_a_kind_left_unread_is_recognised_and_parses() {
        let line = edge_line();
        assert_eq!(
            Envelope::unread_kind(&line, &[Kind::Edge]),
            Some(Kind::Edge)
        );
        assert!(Envelope::parse_canonical(&line, |_| false).is_ok());
        // Not among the kinds left unread: read.
        assert_eq!(Envelope::unread_kind(&line, &[Kind::Commit]), None);
    }

    #[test]
    fn a_record_not_written_as_stages_write_it_is_left_to_the_parse() {
        let line = String::from_utf8(edge_line()).unwrap();
        let variants = [
            line.replace(r#""src":{}"#, r#""src":{"git.commit":"abc"}"#),
            line.replace(r#""by":"qa-intent/0.1.0""#, r#""by":"qa\u002dintent""#),
            line.replace(r#""v":1"#, r#""v":2"#),
            line.replace(r#""v":1"#, r#""v":01"#),
            line.replace(r#""v":1"#, r#""v":0"#),
            line.replace(r#""line":1"#, r#""line": 1"#),
            line.replace(r#""line":1"#, r#""line":1.5"#),
            line.replacen("sha256:a", "sha256:A", 1),
            line.replace(r#""kind":"edge""#, r#""kind": "edge""#),
            line.replacen(r#""from":[""#, r#""from":[7,""#, 1),
            format!("{line} "),
            line[..line.len() - 1].to_string(),
            line.replace(r#""to":"#, r#""to":{"#),
        ];
        for variant in &variants {
            assert_eq!(
                Envelope::unread_kind(variant.as_bytes(), &[Kind::Edge]),
                None,
                "{variant}"
            );
        }
        // Each of them the parse judges: a newer version is refused with its own error.
        assert!(matches!(
            Envelope::parse_canonical(variants[2].as_bytes(), |_| false),
            Err(EnvelopeError::NewerVersion { .. })
        ));
    }

    #[test]
    fn parse_reading_takes_a_null_data_as_present() {
        let line = format!(
            r#"{{"kind":"diag","v":1,"id":"sha256:{}","by":"x","from":[],"src":{{}},"data":null}}"#,
            "0".repeat(64)
        );
        for reads in [true, false] {
            let (full, reading) = both(line.as_bytes(), reads);
            assert_eq!(full.unwrap().data, Value::Null);
            assert_eq!(reading.unwrap().data, Value::Null);
        }
    }

    #[test]
    fn parse_reading_refuses_data_nested_too_deep_like_parse_even_unread() {
        let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
        let line = format!(
            r#"{{"kind":"x-deep","v":1,"id":"sha256:{}","by":"x","from":[],"src":{{}},"data":{deep}}}"#,
            "0".repeat(64)
        );
        let (full, reading) = both(line.as_bytes(), false);
        assert!(full.is_err());
        assert_eq!(full.unwrap_err(), reading.unwrap_err());
        // Brackets inside strings are text, not nesting.
        assert!(plain(&format!("[\"{}\"]", "[".repeat(500))));
        assert!(!plain(&deep));
    }

    #[test]
    fn parse_reading_refuses_what_a_value_refuses_in_unread_data() {
        let long = "9".repeat(400);
        for data in ["1e400", r#"["\ud800"]"#, &long, r#"{"a":[-2.5E+999]}"#] {
            let line = format!(
                r#"{{"kind":"x-edge","v":1,"id":"sha256:{}","by":"x","from":[],"src":{{}},"data":{data}}}"#,
                "0".repeat(64)
            );
            let (full, reading) = both(line.as_bytes(), false);
            assert!(full.is_err(), "{data}");
            assert_eq!(full.unwrap_err(), reading.unwrap_err(), "{data}");
        }
        // Plain data stays unread: `true`, `false` and strings hold no exponent.
        assert!(plain(
            r#"{"t":true,"f":false,"s":"1e400 \\ x","n":[-1.5,12]}"#
        ));
    }
}
