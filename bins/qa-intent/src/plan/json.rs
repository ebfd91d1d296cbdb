//! Plan JSON read into a value with every key of an object unique: serde_json keeps the
//! last of two equal keys silently, so a plan could say one thing to a reviewer and another
//! to the stage. A repeated key is an error naming its JSON pointer.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::shape::Pointer;
use super::PlanError;

/// Parses `bytes` as one JSON value; a key repeated within an object is an error at the
/// pointer of its second occurrence.
pub fn parse(bytes: &[u8]) -> Result<Value, PlanError> {
    let duplicate = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let parsed = Unique {
        at: Pointer::root(),
        duplicate: &duplicate,
    }
    .deserialize(&mut reader)
    .and_then(|value| reader.end().map(|()| value));
    if let Some((at, key)) = duplicate.into_inner() {
        return Err(at.error(format!(
            "duplicate key: `{key}` appears twice in this object"
        )));
    }
    parsed.map_err(|e| PlanError {
        pointer: None,
        message: format!("not valid JSON: {e}"),
    })
}

/// Reads the value at `at`, noting the first repeated key in `duplicate`.
struct Unique<'d> {
    at: Pointer,
    duplicate: &'d RefCell<Option<(Pointer, String)>>,
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Unique {
            at: self.at.index(items.len()),
            duplicate: self.duplicate,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = self.at.key(&key);
            if object.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some((at, key));
                return Err(de::Error::custom("duplicate key"));
            }
            let value = map.next_value_seed(Unique {
                at,
                duplicate: self.duplicate,
            })?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        parse(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn a_repeated_key_is_named_with_its_pointer_at_any_depth() {
        assert_eq!(
            refused(r#"{"a": 1, "a": 2}"#),
            "/a: duplicate key: `a` appears twice in this object"
        );
        assert_eq!(
            refused(r#"{"c": [{"id": "x"}, {"id": "y", "n": 1, "id": "z"}]}"#),
            "/c/1/id: duplicate key: `id` appears twice in this object"
        );
        assert_eq!(
            refused(r#"{"a/b~": {"k": 1, "k": 1}}"#),
            "/a~1b~0/k: duplicate key: `k` appears twice in this object"
        );
    }

    #[test]
    fn equal_keys_in_different_objects_are_fine() {
        let value = parse(br#"{"id": 1, "x": {"id": 2}, "y": [{"id": 3}, {"id": 4}]}"#);
        assert_eq!(
            value.unwrap(),
            serde_json::json!({"id": 1, "x": {"id": 2}, "y": [{"id": 3}, {"id": 4}]})
        );
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"n": [0, -5, 18446744073709551615, 2.5, true, null, "é\n"], "o": {}}"#;
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parse(text.as_bytes()).unwrap(), expected);
    }

    #[test]
    fn trailing_text_and_broken_json_are_not_json() {
        assert!(refused(r#"{"a": 1} x"#).starts_with("not valid JSON: trailing characters"));
        assert!(refused(r#"{"a": "#).starts_with("not valid JSON: EOF"));
    }
}
