//! Source roles shape scenarios: analysis rules get positive and negative controls,
//! commands get argument/exit-code contracts, configuration stays on build and runtime,
//! and a test-only change is its own verification evidence. None of them is a product
//! journey.

use crate::common;
use common::*;

const RULE_V1: &str = r#"const CALENDAR_WORDS = ["calendar", "schedule"];

export const calendarRule = {
  name: "calendarRule",
  calendar: new RegExp(`\\b(${CALENDAR_WORDS.join("|")})\\b`, "i"),
};
"#;

const RULE_V2: &str = r#"const CALENDAR_WORDS = ["calendar", "schedule", "meeting"];
const PAYMENT_WORDS = ["payment", "invoice", "refund"];

export const calendarRule = {
  name: "calendarRule",
  calendar: new RegExp(`\\b(${CALENDAR_WORDS.join("|")})\\b`, "i"),
  payment: new RegExp(`\\b(${PAYMENT_WORDS.join("|")})\\b`, "i"),
  endpoint: new RegExp("^/api/(calendar|payments)/"),
};
"#;

#[test]
fn an_analysis_rule_change_yields_positive_and_negative_controls_not_journeys() {
    let mut r = feature_repo(&[("src/analyzers/calendarRule.ts", RULE_V1)]);
    commit_files(
        &mut r,
        "feat(rules): widen calendarRule word lists",
        &[("src/analyzers/calendarRule.ts", RULE_V2)],
    );
    let s = flow(&r).run();
    assert_eq!(
        file(&s.records, "src/analyzers/calendarRule.ts", "branch")["role"],
        "analysis-rule",
        "fixture: qa-diff sees an analysis rule"
    );
    let rule = s.scenarios_of_focus("analysis-rule");
    let titles: Vec<String> = rule.iter().map(|sc| title(sc)).collect();
    assert!(
        titles.iter().any(|t| t.contains("positive control")),
        "{titles:?}"
    );
    assert!(
        titles.iter().any(|t| t.contains("negative control")),
        "{titles:?}"
    );
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "word lists are not product journeys:\n{}",
        s.summary()
    );
    for scenario in s.scenarios() {
        // The rule's own name may appear; the words it matches are not journeys.
        let t = title(scenario)
            .replace("calendarrule", "")
            .replace("calendar rule", "");
        for word in ["calendar", "payment", "/api"] {
            assert!(
                !t.contains(word),
                "scenario title {:?} turns the rule's word list into a journey",
                scenario["data"]["title"]
            );
        }
    }
}

const CLI_V1: &str = r#"use clap::Parser;

/// Export orders as CSV.
#[derive(Parser)]
struct Args {
    /// Where to write the file.
    #[arg(long, default_value = "orders.csv")]
    out: String,
}

fn main() {
    let args = Args::parse();
    export_orders(&args.out);
}
"#;

const CLI_V2: &str = r#"use clap::Parser;

/// Export orders as CSV.
#[derive(Parser)]
struct Args {
    /// Where to write the file.
    #[arg(long, default_value = "orders.csv")]
    out: String,
    /// Print what would be written and exit without writing.
    #[arg(long)]
    dry_run: bool,
}

fn main() {
    let args = Args::parse();
    if args.dry_run {
        eprintln!("would write {}", args.out);
        std::process::exit(0);
    }
    export_orders(&args.out);
}
"#;

const EXPORT_CARGO: &str = "[package]\nname = \"export\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nclap = { version = \"4\", features = [\"derive\"] }\n";

#[test]
fn a_command_change_yields_argument_exit_code_and_output_contracts() {
    let mut r = feature_repo(&[("Cargo.toml", EXPORT_CARGO), ("src/main.rs", CLI_V1)]);
    commit_files(
        &mut r,
        "feat: add --dry-run to the export command",
        &[("src/main.rs", CLI_V2)],
    );
    let s = flow(&r).run();
    assert_eq!(
        file(&s.records, "src/main.rs", "branch")["role"],
        "command",
        "fixture: qa-diff sees a command"
    );
    let command = s.scenarios_of_focus("command");
    assert!(!command.is_empty(), "{}", s.summary());
    let text: String = command.iter().map(|sc| scenario_text(sc)).collect();
    assert!(text.contains("argument"), "no argument contract:\n{text}");
    assert!(
        text.contains("exit code") || text.contains("exit status"),
        "no exit code contract:\n{text}"
    );
    assert!(
        text.contains("stdout") || text.contains("stderr"),
        "no output contract:\n{text}"
    );
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
}

#[test]
fn a_configuration_change_stays_on_build_and_runtime() {
    let mut r = feature_repo(&[
        (
            "tsconfig.json",
            "{\n  \"compilerOptions\": { \"target\": \"ES2019\", \"strict\": false }\n}\n",
        ),
        (
            "Dockerfile",
            "FROM node:18-slim\nWORKDIR /app\nCOPY . .\nCMD [\"node\", \"dist/server.js\"]\n",
        ),
    ]);
    commit_files(
        &mut r,
        "fix: run on node 22 with strict type checking",
        &[
            (
                "tsconfig.json",
                "{\n  \"compilerOptions\": { \"target\": \"ES2022\", \"strict\": true }\n}\n",
            ),
            (
                "Dockerfile",
                "FROM node:22-slim\nWORKDIR /app\nCOPY . .\nCMD [\"node\", \"dist/server.js\"]\n",
            ),
        ],
    );
    let s = flow(&r).run();
    for path in ["tsconfig.json", "Dockerfile"] {
        assert_eq!(
            file(&s.records, path, "branch")["role"],
            "configuration",
            "fixture: {path} is configuration"
        );
    }
    let config = s.intents_of_focus("configuration");
    assert!(!config.is_empty(), "{}", s.summary());
    let text: String = config
        .iter()
        .flat_map(|i| s.scenarios_of(i))
        .map(scenario_text)
        .collect();
    assert!(
        text.contains("build") || text.contains("runtime"),
        "configuration scenarios verify the build or the runtime:\n{text}"
    );
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
}

const CART: &str = r#"export function loadCart(storage: Storage): string[] {
  return JSON.parse(storage.getItem("cart") ?? "[]");
}
"#;

const CART_TEST_V1: &str = r#"import { loadCart } from "./cart";

describe("cart", () => {
  it("starts empty", () => {
    expect(loadCart(new MemoryStorage())).toEqual([]);
  });
});
"#;

const CART_TEST_V2: &str = r#"import { loadCart } from "./cart";

describe("cart", () => {
  it("starts empty", () => {
    expect(loadCart(new MemoryStorage())).toEqual([]);
  });

  it("keeps items after reload", () => {
    const storage = new MemoryStorage();
    storage.setItem("cart", JSON.stringify(["sku-1"]));
    expect(loadCart(storage)).toEqual(["sku-1"]);
  });
});
"#;

#[test]
fn a_test_only_change_is_verification_evidence_with_its_contract() {
    let mut r = feature_repo(&[("src/cart.ts", CART), ("src/cart.test.ts", CART_TEST_V1)]);
    commit_files(
        &mut r,
        "test: cart keeps items after reload",
        &[("src/cart.test.ts", CART_TEST_V2)],
    );
    let s = flow(&r).run();
    let verification = s.intents_of_focus("verification");
    assert_eq!(verification.len(), 1, "{}", s.summary());
    let line = line_of(CART_TEST_V2, "keeps items after reload");
    let contracts = verification[0]["data"]["contracts"]
        .as_array()
        .expect("contracts is an array");
    assert!(
        contracts.iter().any(|c| c["file"] == "src/cart.test.ts"
            && c["line"] == line
            && c["title"] == "keeps items after reload"),
        "the changed test is the contract at src/cart.test.ts:{line}: {contracts:?}"
    );
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
    assert!(
        s.scenarios()
            .iter()
            .any(|sc| title(sc).contains("changed test evidence")),
        "{}",
        s.summary()
    );
}
