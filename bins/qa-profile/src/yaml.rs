//! Reading the profile file: its bytes, as UTF-8, as YAML 1.2 core schema into a value
//! that keeps the file's key order. Anything that stops the file being read is one line
//! naming the file and what is wrong (with the line and column for YAML errors).

use std::path::Path;

use qa_records::exit::{failure, Exit};
use qa_records::regular_file::{self, Refusal, Symlinks};
use serde_json::Value;
use serde_saphyr::options::DuplicateKeyPolicy;

/// The profile as read: its bytes (hashed into a record's `src`) and its value.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub value: Value,
}

/// The most bytes a profile may have.
pub const MAX_BYTES: u64 = regular_file::MIB;

/// Reads and parses the profile at `path`, in one line when it cannot: a missing,
/// unreadable, non-UTF-8 or non-YAML file or a directory is exit 1 (an unusable profile);
/// a FIFO, device or socket is exit 66 and a file over [`MAX_BYTES`] exit 65, both before
/// a byte is read, so such a file can neither block the stage nor fill its memory.
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    let name = path.display();
    let bytes = regular_file::read(path, MAX_BYTES, Symlinks::Follow).map_err(|why| match why {
        Refusal::Missing => failure(Exit::Fail, format!("cannot read {name}: no such file")),
        Refusal::NotRegular("directory") => failure(
            Exit::Fail,
            format!("{name} is a directory, not a profile file"),
        ),
        Refusal::NotRegular(_) => failure(Exit::NoInput, format!("{name} {why}")),
        Refusal::TooLarge { .. } => failure(Exit::DataErr, format!("{name} {why}")),
        Refusal::Symlink | Refusal::Io(_) => failure(Exit::Fail, format!("{name} {why}")),
    })?;
    let value = parse(&bytes).map_err(|why| failure(Exit::Fail, format!("{name}: {why}")))?;
    Ok(Loaded { bytes, value })
}

/// Parses profile bytes. Err says why, in one line.
pub fn parse(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        )
    })?;
    let mut value: Value = serde_saphyr::from_str_with_options(text, options())
        .map_err(|e| format!("not valid YAML: {}", describe(&e)))?;
    as_javascript_numbers(&mut value);
    Ok(value)
}

fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        // YAML 1.2 core schema: `yes`/`no`/`on`/`off` are strings, `1_000` is a string.
        strict_booleans: true,
        underscored_numbers_as_strings: true,
        duplicate_keys: DuplicateKeyPolicy::Error,
    }
}

/// A parser error in one line, without its source snippet. For duplicate keys and extra
/// documents the library's own text suggests other API calls or relaxing the policy.
fn describe(err: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error;
    let (what, location) = match err.without_snippet() {
        Error::DuplicateMappingKey { key, location } => (
            format!(
                "duplicate key `{}`",
                key.as_deref().unwrap_or("(complex key)")
            ),
            location,
        ),
        Error::MultipleDocuments { location, .. } => {
            ("more than one YAML document".to_string(), location)
        }
        other => return other.to_string().replace('\n', " "),
    };
    format!(
        "{what} at line {}, column {}",
        location.line(),
        location.column()
    )
}

/// The format counts numbers as JavaScript does, where `90.0` is the integer 90: integral
/// floats within the exactly representable range become integers, so the normalized JSON
/// writes `90` and integer rules accept them.
fn as_javascript_numbers(value: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64() {
                if f.fract() == 0.0 && f.abs() <= EXACT {
                    // In range by the check above, so the cast is exact.
                    *value = Value::from(f as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(as_javascript_numbers),
        Value::Object(map) => map.values_mut().for_each(as_javascript_numbers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(text: &str) -> Value {
        parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_core_schema_reads_yes_as_a_string_and_unquoted_versions_as_numbers() {
        assert_eq!(
            yaml("a: yes\nb: 1.60\nc: \"1.60\"\nd: on"),
            json!({"a": "yes", "b": 1.6, "c": "1.60", "d": "on"})
        );
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(
            yaml("w: 90.0\nx: 1.5\ny: 1e3"),
            json!({"w": 90, "x": 1.5, "y": 1000})
        );
        assert_eq!(
            serde_json::to_string(&yaml("w: 90.0")).unwrap(),
            r#"{"w":90}"#
        );
    }

    #[test]
    fn key_order_is_the_files() {
        let value = yaml("zeta: 1\nalpha: 2\nmid: 3");
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["zeta", "alpha", "mid"]);
    }

    #[test]
    fn duplicate_keys_do_not_parse() {
        let err = parse(b"a: 1\nb: 2\na: 3\n").unwrap_err();
        assert!(err.contains("duplicate key `a`"), "{err}");
        assert!(err.contains("line 3"), "{err}");
    }

    #[test]
    fn broken_yaml_and_bytes_are_refused_in_one_line() {
        let err = parse(b"a: [1, 2\nb: 3\n").unwrap_err();
        assert!(err.starts_with("not valid YAML"), "{err}");
        assert!(!err.contains('\n'), "{err}");
        assert!(parse(b"a: \xff\xfe\n")
            .unwrap_err()
            .starts_with("not UTF-8"));
    }

    #[test]
    fn nulls_and_empty_values_are_null() {
        assert_eq!(
            yaml("a:\nb: ~\nc: null"),
            json!({"a": null, "b": null, "c": null})
        );
    }
}
