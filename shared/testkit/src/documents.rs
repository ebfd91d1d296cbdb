//! Files that are not records (the acceptance plan) checked against their schema/ file.

use serde_json::Value;

/// Panics when `document` breaks `schema/<schema_file>`, naming every problem.
pub fn assert_valid(schema_file: &str, document: &Value) {
    let path = crate::schema_dir().join(schema_file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", path.display()));
    let problems: Vec<String> = validator
        .iter_errors(document)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "the document breaks {schema_file}:\n{}\n{document:#}",
        problems.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(check_path: &str) -> Value {
        json!({
            "target": {"kind": "directory", "value": "site"},
            "criteria": [{"id": "c", "expected": "e", "source": {"kind": "request", "text": "t"}}],
            "checks": [{"id": "k", "criterion": "c", "kind": "file", "path": check_path, "contains": "x"}]
        })
    }

    #[test]
    fn a_plan_following_the_format_is_valid() {
        assert_valid("plan.schema.json", &plan("index.html"));
    }

    #[test]
    #[should_panic(expected = "the document breaks plan.schema.json")]
    fn a_plan_with_an_unknown_top_level_key_is_not() {
        let mut doc = plan("index.html");
        doc["extra"] = json!(1);
        assert_valid("plan.schema.json", &doc);
    }
}
