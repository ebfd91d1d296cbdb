//! The record schemas of the change flow (`intent`, `scenario`, `trace`, `draft`) describe
//! exactly what the shared payload types serialize to, and the manifest schema describes
//! what the manifest parser accepts.

use std::path::Path;

use qa_intent::manifest;
use qa_records::change::{
    Annotation, Authority, Confidence, DraftData, DraftItem, Evidence, ExecutionState, Exercised,
    Expected, Focus, IntentData, IntentSource, LifecycleStep, Location, Origin, Priority, Receipt,
    Relation, ScenarioData, ScenarioKind, Stage, TestClass, TestContract, TraceData, TraceState,
    TraceStep, TraceStepKind,
};
use serde::Serialize;
use serde_json::{json, Value};

/// Every variant of an enum; the match stops compiling when change.rs gains a variant
/// that the cases below do not cover.
macro_rules! all {
    ($ty:ident: $($variant:ident),+ $(,)?) => {{
        fn _exhaustive(value: $ty) {
            match value {
                $($ty::$variant)|+ => {}
            }
        }
        [$($ty::$variant),+]
    }};
}

const FOCUSES: [Focus; 7] = all!(
    Focus: Product,
    Command,
    AnalysisRule,
    Configuration,
    RepositoryWorkflow,
    Verification,
    Cleanup
);
const STAGES: [Stage; 6] =
    all!(Stage: Trigger, Condition, Action, StateChange, SideEffect, ObservableOutcome);
const AUTHORITIES: [Authority; 3] = all!(Authority: TeamPolicy, RepositoryContract, Inference);
const TEST_CLASSES: [TestClass; 3] = all!(TestClass: Golden, Regression, Edge);
const SOURCES: [IntentSource; 2] = all!(IntentSource: Commits, Vocabulary);
const CONFIDENCES: [Confidence; 3] = all!(Confidence: Low, Medium, High);
const ORIGINS: [Origin; 4] = all!(Origin: Commit, Diff, Annotation, Manifest);
const SCENARIO_KINDS: [ScenarioKind; 4] =
    all!(ScenarioKind: Primary, Failure, Boundary, StateTransition);
const PRIORITIES: [Priority; 2] = all!(Priority: Critical, Recommended);
const RELATIONS: [Relation; 3] = all!(Relation: Direct, Supporting, Contextual);
const TRACE_STATES: [TraceState; 3] = all!(TraceState: Traceable, Partial, ReviewOnly);
const STEP_KINDS: [TraceStepKind; 9] =
    all!(TraceStepKind: Diff, Lifecycle, Risk, Route, Draft, Execution, Source, Check, Observation);
const EXECUTIONS: [ExecutionState; 4] = all!(ExecutionState: NotRun, Passed, Failed, Blocked);
const RECEIPTS: [Receipt; 4] = all!(Receipt: Compiled, Partial, NotCompiled, ReviewOnly);

fn schema(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schema")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&schema(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_valid(name: &str, value: &Value) {
    let errors: Vec<String> = validator(name)
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name} breaks its schema: {errors:#?}\n{value:#}"
    );
}

fn assert_each_valid<T: Serialize>(name: &str, cases: &[T]) {
    for case in cases {
        assert_valid(name, &to_value(case));
    }
}

fn to_value(data: &impl Serialize) -> Value {
    serde_json::to_value(data).unwrap()
}

fn id(n: usize) -> String {
    format!("sha256:{n:064x}")
}

fn oid(n: usize) -> String {
    format!("{n:040x}")
}

fn intents() -> Vec<IntentData> {
    (0..FOCUSES.len())
        .map(|i| IntentData {
            title: format!("intent {i}"),
            kind: ["feat", "fix", "change", "worktree"][i % 4].to_string(),
            focus: FOCUSES[i],
            source: SOURCES[i % 2],
            commits: vec![oid(i + 1), oid(i + 2)],
            cleanup_commits: if i % 2 == 0 { vec![] } else { vec![oid(99)] },
            tickets: vec!["SHOP-12".into(), "#4".into()],
            files: vec!["src/checkout/pay.ts".into()],
            confidence: CONFIDENCES[i % 3],
            review_required: i % 2 == 0,
            cleanup: i % 3 == 0,
            current: i % 2 == 1,
            lifecycle: STAGES
                .iter()
                .enumerate()
                .map(|(j, &stage)| LifecycleStep {
                    stage,
                    text: format!("step {j}"),
                    evidence: if j % 2 == 0 {
                        vec![Location {
                            file: "src/checkout/pay.ts".into(),
                            line: 10 + j as u32,
                        }]
                    } else {
                        vec![]
                    },
                    origin: ORIGINS[(i + j) % 4],
                })
                .collect(),
            authority: AUTHORITIES[i % 3],
            flow: (i % 2 == 0).then(|| "checkout".to_string()),
            contracts: vec![TestContract {
                file: "src/checkout/pay.test.ts".into(),
                line: 3,
                title: "charges once".into(),
                framework: "jest".into(),
                name: Some("charges once".into()),
                expects: vec![Expected {
                    line: 4,
                    text: "`charge(cart)` is 1".into(),
                }],
                skipped: (i % 2 == 1).then(|| "it.skip".to_string()),
                setup: Some("charge(cart)".into()),
                act: Some("charge(cart, 2)".into()),
                cases: i % 3 == 0,
                exercises: vec![Exercised {
                    file: "src/checkout/pay.ts".into(),
                    line: 10,
                    item: "charge".into(),
                }],
            }],
            annotations: ["flow", "stage", "outcome", "risk"]
                .iter()
                .map(|tag| Annotation {
                    file: "src/checkout/pay.ts".into(),
                    line: 1,
                    tag: tag.to_string(),
                    value: "checkout".into(),
                })
                .collect(),
            reason: "one commit with connected diff evidence".into(),
        })
        .collect()
}

fn scenarios() -> Vec<ScenarioData> {
    (0..FOCUSES.len())
        .map(|i| ScenarioData {
            intent: id(i),
            title: format!("scenario {i}"),
            kind: SCENARIO_KINDS[i % 4],
            priority: PRIORITIES[i % 2],
            steps: vec!["open the cart".into()],
            assertions: vec!["the total shows".into()],
            evidence: RELATIONS
                .iter()
                .enumerate()
                .map(|(j, &relation)| Evidence {
                    file: "src/cart.ts".into(),
                    line: j as u32, // 0: commit wording
                    relation,
                    stage: (j != 0).then(|| STAGES[(i + j) % 6]),
                    text: "total += price".into(),
                })
                .collect(),
            proof_gap: (i % 2 == 0).then(|| "no changed line shows the total".to_string()),
            authority: AUTHORITIES[i % 3],
            test_class: TEST_CLASSES[i % 3],
            focus: FOCUSES[i],
            reaches: Vec::new(),
        })
        .collect()
}

fn traces() -> Vec<TraceData> {
    (0..EXECUTIONS.len())
        .map(|i| TraceData {
            subject: id(i),
            state: TRACE_STATES[i % 3],
            path: STEP_KINDS
                .iter()
                .map(|&step| TraceStep {
                    step,
                    reference: "src/cart.ts:12".into(),
                    text: "total += price".into(),
                })
                .collect(),
            execution: EXECUTIONS[i],
            authority: AUTHORITIES[i % 3],
            test_class: TEST_CLASSES[i % 3],
            approval: "required".into(),
        })
        .collect()
}

fn drafts() -> Vec<DraftData> {
    RECEIPTS
        .iter()
        .enumerate()
        .map(|(i, &receipt)| DraftData {
            subject: id(i),
            format: "manual".into(),
            receipt,
            mapped: 1,
            total: 2,
            steps: vec![DraftItem {
                text: "open the cart".into(),
                maps_to: Some("src/cart.ts:12".into()),
            }],
            assertions: vec![DraftItem {
                text: "the total shows".into(),
                maps_to: None,
            }],
            gaps: vec!["name the page that shows the total".into()],
        })
        .collect()
}

/// One valid serialized value per record schema.
fn one_of_each() -> Vec<(&'static str, Value)> {
    vec![
        ("intent", to_value(&intents()[0])),
        ("scenario", to_value(&scenarios()[0])),
        ("trace", to_value(&traces()[0])),
        ("draft", to_value(&drafts()[0])),
    ]
}

// Positive: what the types serialize to is valid.

#[test]
fn every_serialized_intent_matches_the_intent_schema() {
    assert_each_valid("intent", &intents());
}

#[test]
fn every_serialized_scenario_matches_the_scenario_schema() {
    assert_each_valid("scenario", &scenarios());
}

#[test]
fn every_serialized_trace_matches_the_trace_schema() {
    assert_each_valid("trace", &traces());
}

#[test]
fn every_serialized_draft_matches_the_draft_schema() {
    assert_each_valid("draft", &drafts());
}

#[test]
fn schema_enums_list_exactly_the_serialized_variants() {
    fn names<T: Serialize>(variants: &[T]) -> Vec<Value> {
        let mut names: Vec<Value> = variants.iter().map(to_value).collect();
        names.sort_by_key(|v| v.to_string());
        names
    }
    fn listed(schema: &Value, pointer: &str) -> Vec<Value> {
        let mut names = schema
            .pointer(pointer)
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("no enum at {pointer}"))
            .clone();
        names.sort_by_key(|v| v.to_string());
        names
    }
    let intent = schema("intent");
    let scenario = schema("scenario");
    let trace = schema("trace");
    let draft = schema("draft");
    let cases = [
        (&intent, "/$defs/focus/enum", names(&FOCUSES)),
        (&intent, "/properties/source/enum", names(&SOURCES)),
        (&intent, "/properties/confidence/enum", names(&CONFIDENCES)),
        (&intent, "/properties/authority/enum", names(&AUTHORITIES)),
        (&intent, "/$defs/stage/enum", names(&STAGES)),
        (
            &intent,
            "/properties/lifecycle/items/properties/origin/enum",
            names(&ORIGINS),
        ),
        (&scenario, "/properties/kind/enum", names(&SCENARIO_KINDS)),
        (&scenario, "/properties/priority/enum", names(&PRIORITIES)),
        (
            &scenario,
            "/properties/evidence/items/properties/relation/enum",
            names(&RELATIONS),
        ),
        (&scenario, "/$defs/stage/enum", names(&STAGES)),
        (&scenario, "/properties/authority/enum", names(&AUTHORITIES)),
        (
            &scenario,
            "/properties/test_class/enum",
            names(&TEST_CLASSES),
        ),
        (&scenario, "/properties/focus/enum", names(&FOCUSES)),
        (&trace, "/properties/state/enum", names(&TRACE_STATES)),
        (
            &trace,
            "/properties/path/items/properties/step/enum",
            names(&STEP_KINDS),
        ),
        (&trace, "/properties/execution/enum", names(&EXECUTIONS)),
        (&trace, "/properties/authority/enum", names(&AUTHORITIES)),
        (&trace, "/properties/test_class/enum", names(&TEST_CLASSES)),
        (&draft, "/properties/receipt/enum", names(&RECEIPTS)),
    ];
    for (schema, pointer, serialized) in cases {
        assert_eq!(
            listed(schema, pointer),
            serialized,
            "{} {pointer}",
            schema["$id"]
        );
    }
}

#[test]
fn every_serialized_field_is_required_by_its_schema() {
    for (name, value) in one_of_each() {
        let mut fields: Vec<&String> = value.as_object().unwrap().keys().collect();
        fields.sort();
        let schema = schema(name);
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        required.sort();
        assert_eq!(fields, required, "{name}");
    }
}

// Negative controls: each schema refuses what the types never write.

#[test]
fn a_wrong_enum_value_fails_validation() {
    for (name, mut value, field) in [
        ("intent", to_value(&intents()[0]), "confidence"),
        ("scenario", to_value(&scenarios()[0]), "kind"),
        ("trace", to_value(&traces()[0]), "execution"),
        ("draft", to_value(&drafts()[0]), "receipt"),
    ] {
        value[field] = json!("not-a-variant");
        assert!(!validator(name).is_valid(&value), "{name}.{field}");
    }
}

#[test]
fn a_wrong_nested_enum_value_fails_validation() {
    let mut intent = to_value(&intents()[0]);
    intent["lifecycle"][0]["stage"] = json!("observable_outcome");
    assert!(!validator("intent").is_valid(&intent));
    let mut scenario = to_value(&scenarios()[0]);
    scenario["evidence"][1]["stage"] = json!("side_effect");
    assert!(!validator("scenario").is_valid(&scenario));
}

#[test]
fn a_missing_field_fails_validation() {
    for (name, value) in one_of_each() {
        for field in value.as_object().unwrap().keys() {
            let mut broken = value.clone();
            broken.as_object_mut().unwrap().remove(field);
            assert!(!validator(name).is_valid(&broken), "{name} without {field}");
        }
    }
}

#[test]
fn an_extra_field_fails_validation() {
    for (name, mut value) in one_of_each() {
        value["extra"] = json!(1);
        assert!(!validator(name).is_valid(&value), "{name}");
    }
}

#[test]
fn an_extra_nested_field_fails_validation() {
    let mut intent = to_value(&intents()[0]);
    intent["lifecycle"][0]["evidence"][0]["column"] = json!(4);
    assert!(!validator("intent").is_valid(&intent));
    let mut trace = to_value(&traces()[0]);
    trace["path"][0]["reference"] = json!("src/cart.ts:12");
    assert!(!validator("trace").is_valid(&trace));
}

#[test]
fn a_malformed_record_id_fails_validation() {
    let mut scenario = to_value(&scenarios()[0]);
    scenario["intent"] = json!(format!("{:064x}", 1));
    assert!(!validator("scenario").is_valid(&scenario));
    let mut draft = to_value(&drafts()[0]);
    draft["subject"] = json!("sha256:ABC");
    assert!(!validator("draft").is_valid(&draft));
}

// The manifest: the documented example passes both the schema and the parser, and
// manifests the parser refuses fail the schema too.

const EXAMPLE_MANIFEST: &str = r#"version: 1
flows:
  - name: checkout            # unique, required
    criticality: critical     # critical | high | normal | low
    paths: ["src/checkout/**", "src/cart.ts"]   # globs: `*` (no slash), `**` (any depth), `?`
    symbols: ["submitOrder", "CartTotal"]        # changed symbols that anchor the flow
    expected: ["the order confirmation shows the order number"]
    forbidden: ["a second charge for the same order"]
suppressions:
  - scenario: "calendar"      # case-insensitive substring of a scenario title
    paths: ["src/analyzers/**"]   # optional: only when the scenario's evidence is under these paths
    reason: "analyzer word lists are not product journeys"   # required
"#;

fn yaml_value(yaml: &str) -> Value {
    let options = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options(yaml, options).unwrap()
}

#[test]
fn the_example_manifest_matches_its_schema() {
    assert_valid("manifest", &yaml_value(EXAMPLE_MANIFEST));
    manifest::parse(EXAMPLE_MANIFEST.as_bytes(), "example").unwrap();
}

#[test]
fn a_manifest_the_parser_refuses_fails_its_schema() {
    let cases = [
        ("unknown key", "version: 1\nowners: []\n"),
        ("newer version", "version: 2\n"),
        ("missing version", "flows: []\n"),
        (
            "unknown criticality",
            "version: 1\nflows:\n  - {name: a, criticality: urgent, symbols: [x]}\n",
        ),
        (
            "empty flow name",
            "version: 1\nflows:\n  - {name: '', criticality: high, symbols: [x]}\n",
        ),
        (
            "unanchored flow",
            "version: 1\nflows:\n  - {name: a, criticality: high, paths: []}\n",
        ),
        (
            "bad glob",
            "version: 1\nflows:\n  - {name: a, criticality: high, paths: ['src/a**']}\n",
        ),
        (
            "absolute glob",
            "version: 1\nflows:\n  - {name: a, criticality: high, paths: ['/src']}\n",
        ),
        (
            "missing reason",
            "version: 1\nsuppressions:\n  - {scenario: calendar}\n",
        ),
        (
            "blank reason",
            "version: 1\nsuppressions:\n  - {scenario: calendar, reason: ' '}\n",
        ),
    ];
    let validator = validator("manifest");
    for (what, yaml) in cases {
        assert!(
            manifest::parse(yaml.as_bytes(), "case").is_err(),
            "the parser accepted: {what}"
        );
        assert!(
            !validator.is_valid(&yaml_value(yaml)),
            "the schema accepted: {what}"
        );
    }
}
