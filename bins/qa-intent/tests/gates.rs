//! No gate drops a real change, through the real `qa-diff | qa-intent` on repositories
//! built here: a commit's diff, not its type, decides whether its product lines count;
//! the changed test is the oracle whatever the file's role; a library whose product is
//! a command-line parser is a library. Each with a positive and a negative control.
//! Needs the built qa-diff (`cargo build --bins`).

use qa_testkit::{records, Repo};
use serde_json::Value;

use crate::common::{flow, scenarios, strings};

/// Every assertion of every scenario.
fn assertions(rs: &[Value]) -> Vec<String> {
    scenarios(rs)
        .iter()
        .flat_map(|s| strings(&s["data"]["assertions"]))
        .map(String::from)
        .collect()
}

/// The commits some intent lists as cleanup.
fn cleanup_commits(rs: &[Value]) -> Vec<String> {
    records::of_kind(rs, "intent")
        .iter()
        .flat_map(|i| strings(&i["data"]["cleanup_commits"]))
        .map(String::from)
        .collect()
}

/// The commits some intent rests on as behaviour.
fn behaviour_commits(rs: &[Value]) -> Vec<String> {
    records::of_kind(rs, "intent")
        .iter()
        .flat_map(|i| strings(&i["data"]["commits"]))
        .map(String::from)
        .collect()
}

/// The role qa-diff gave a changed file.
fn role_of<'a>(rs: &'a [Value], path: &str) -> &'a str {
    records::of_kind(rs, "file")
        .into_iter()
        .find(|f| f["data"]["path"] == path)
        .and_then(|f| f["data"]["role"].as_str())
        .unwrap_or_else(|| panic!("no file record for {path}"))
}

const CARGO: &str = "[package]\nname = \"conf\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// A crate whose `parse_port` unwraps the parse; `main` gets one commit on top.
fn port_crate() -> Repo {
    let mut r = Repo::new();
    r.write("Cargo.toml", CARGO);
    r.write(
        "src/lib.rs",
        "pub fn parse_port(text: &str) -> u16 {\n    let t = text.trim();\n    t.parse().unwrap()\n}\n",
    );
    r.write(
        "tests/port.rs",
        "use conf::parse_port;\n\n#[test]\nfn parses_a_port() {\n    assert_eq!(parse_port(\"8080\"), 8080);\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r
}

#[test]
fn a_chore_that_replaces_a_panicking_unwrap_with_a_checked_parse_makes_a_scenario() {
    let mut r = port_crate();
    r.write(
        "src/lib.rs",
        "pub fn parse_port(text: &str) -> Result<u16, String> {\n    let t = text.trim();\n    t.parse().map_err(|_| format!(\"not a port: {t}\"))\n}\n",
    );
    r.write(
        "tests/port.rs",
        "use conf::parse_port;\n\n#[test]\nfn parses_a_port() {\n    assert_eq!(parse_port(\"8080\"), Ok(8080));\n}\n\n#[test]\nfn rejects_a_word() {\n    assert_eq!(parse_port(\"http\"), Err(\"not a port: http\".to_string()));\n}\n",
    );
    let oid = r.commit("chore(conf): tidy port parsing");
    let rs = flow(&r);
    assert!(behaviour_commits(&rs).contains(&oid), "{rs:#?}");
    assert!(!cleanup_commits(&rs).contains(&oid));
    // The text still lowers the confidence.
    let intent = records::of_kind(&rs, "intent")
        .into_iter()
        .find(|i| strings(&i["data"]["commits"]).contains(&oid.as_str()))
        .unwrap();
    assert_eq!(intent["data"]["confidence"], "medium");
    // The changed test's expected value is quoted.
    assert!(
        assertions(&rs)
            .iter()
            .any(|a| a.contains("rejects_a_word") && a.contains("not a port: http")),
        "{:#?}",
        assertions(&rs)
    );
}

#[test]
fn a_chore_that_renames_a_local_and_reformats_is_cleanup_without_scenarios() {
    let mut r = port_crate();
    r.write(
        "src/lib.rs",
        "pub fn parse_port(text: &str) -> u16 {\n    // The port as typed, spaces aside.\n    let trimmed = text\n        .trim();\n    trimmed.parse().unwrap()\n}\n",
    );
    let oid = r.commit("chore(conf): tidy port parsing");
    let rs = flow(&r);
    assert!(scenarios(&rs).is_empty(), "{:#?}", scenarios(&rs));
    assert_eq!(cleanup_commits(&rs), [oid]);
}

#[test]
fn a_chore_that_reformats_and_changes_a_ci_workflow_keeps_the_workflow_change() {
    let mut r = port_crate();
    r.write(
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test\n",
    );
    r.commit("ci: test on push");
    r.branch("robust");
    r.write(
        "src/lib.rs",
        "pub fn parse_port(text: &str) -> u16 {\n    // The port as typed, spaces aside.\n    let trimmed = text\n        .trim();\n    trimmed.parse().unwrap()\n}\n",
    );
    r.write(
        ".github/workflows/ci.yml",
        "on: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test --locked\n",
    );
    let oid = r.commit("chore: improve build robustness");
    let rs = flow(&r);
    // The product lines only moved and gained a comment: cleanup, as without the workflow.
    assert_eq!(cleanup_commits(&rs), [oid]);
    // The workflow's new trigger and command are not the cleanup's to hide.
    let workflow = records::of_kind(&rs, "intent")
        .into_iter()
        .find(|i| strings(&i["data"]["files"]).contains(&".github/workflows/ci.yml"))
        .expect("an intent holds the workflow");
    assert_eq!(workflow["data"]["focus"], "configuration", "{workflow:#}");
    assert!(
        scenarios(&rs).iter().any(|s| s["data"]["evidence"]
            .to_string()
            .contains(".github/workflows/ci.yml")),
        "{:#?}",
        scenarios(&rs)
    );
}

/// A Go package with a limit check in `limits.go`; the branch moves `Clamp` into its
/// own file, and, when `changed`, also changes its condition.
fn clamp_move(changed: bool) -> (Repo, String) {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/clamp\n\ngo 1.21\n");
    r.write(
        "limits.go",
        "package clamp\n\n// Max is the largest value.\nconst Max = 10\n\n// Clamp keeps n at or under Max.\nfunc Clamp(n int) int {\n\tif n > Max {\n\t\treturn Max\n\t}\n\treturn n\n}\n",
    );
    r.commit("init");
    r.branch("feature");
    r.write(
        "limits.go",
        "package clamp\n\n// Max is the largest value.\nconst Max = 10\n",
    );
    let op = if changed { ">=" } else { ">" };
    r.write(
        "clamp.go",
        format!("package clamp\n\n// Clamp keeps n at or under Max.\nfunc Clamp(n int) int {{\n\tif n {op} Max {{\n\t\treturn Max\n\t}}\n\treturn n\n}}\n"),
    );
    let oid = r.commit("refactor: split the helpers into their own file");
    (r, oid)
}

#[test]
fn a_refactor_that_only_moves_a_function_to_another_file_is_cleanup() {
    let (r, oid) = clamp_move(false);
    let rs = flow(&r);
    assert_eq!(cleanup_commits(&rs), [oid]);
    assert!(scenarios(&rs).is_empty(), "{:#?}", scenarios(&rs));
}

#[test]
fn a_refactor_that_moves_a_function_and_changes_its_condition_is_behaviour() {
    let (r, oid) = clamp_move(true);
    let rs = flow(&r);
    assert!(!cleanup_commits(&rs).contains(&oid));
    assert!(behaviour_commits(&rs).contains(&oid), "{rs:#?}");
    assert!(!scenarios(&rs).is_empty());
}

/// Three commits: a feature, a `fix: lint warnings` that (when `new_error`) adds an error
/// path to `src/config.rs` with two tests, and a docs commit.
fn lint_range(new_error: bool) -> (Repo, String) {
    let mut r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write(
        "src/lib.rs",
        "pub mod config;\n\npub fn greet(name: &str) -> String {\n    format!(\"hi {name}\")\n}\n",
    );
    r.write(
        "src/config.rs",
        "pub fn workers(text: &str) -> usize {\n    text.parse().unwrap_or(1)\n}\n",
    );
    r.write("README.md", "# app\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/lib.rs",
        "pub mod config;\n\npub fn greet(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n",
    );
    r.commit("feat: greet with hello");
    let config = if new_error {
        "pub fn workers(text: &str) -> Result<usize, String> {\n    let n: usize = text.parse().unwrap_or(1);\n    if n == 0 {\n        return Err(\"workers must be at least 1\".to_string());\n    }\n    Ok(n)\n}\n"
    } else {
        "pub fn workers(text: &str) -> usize {\n    text.parse()\n        .unwrap_or(1)\n}\n"
    };
    r.write("src/config.rs", config);
    if new_error {
        r.write(
            "tests/config.rs",
            "use app::config::workers;\n\n#[test]\nfn zero_workers_is_an_error() {\n    assert_eq!(workers(\"0\"), Err(\"workers must be at least 1\".to_string()));\n}\n\n#[test]\nfn two_workers_parse() {\n    assert_eq!(workers(\"2\"), Ok(2));\n}\n",
        );
    }
    let fix = r.commit("fix: lint warnings");
    r.write("README.md", "# app\n\nSays hello.\n");
    r.commit("docs: say what it does");
    (r, fix)
}

#[test]
fn a_cleanup_shaped_fix_that_adds_an_error_path_keeps_its_file_and_tests() {
    let (r, fix) = lint_range(true);
    let rs = flow(&r);
    assert!(!cleanup_commits(&rs).contains(&fix), "{rs:#?}");
    let intent = records::of_kind(&rs, "intent")
        .into_iter()
        .find(|i| strings(&i["data"]["commits"]).contains(&fix.as_str()))
        .expect("an intent rests on the fix");
    let contracts: Vec<&str> = intent["data"]["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["title"].as_str())
        .collect();
    assert!(
        contracts.contains(&"zero_workers_is_an_error"),
        "{contracts:?}"
    );
    assert!(
        assertions(&rs)
            .iter()
            .any(|a| a.contains("workers must be at least 1")),
        "{:#?}",
        assertions(&rs)
    );
}

#[test]
fn a_cleanup_shaped_fix_that_only_reformats_stays_cleanup() {
    let (r, fix) = lint_range(false);
    let rs = flow(&r);
    assert_eq!(cleanup_commits(&rs), [fix]);
}

/// A binary crate whose `main.rs` reads `--hidden`; the branch accepts `-H` as well and
/// adds `tests` to it.
fn hidden_flag_with(tests: &str) -> Repo {
    let mut r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"finder\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let main = |any: &str, tests: &str| {
        format!("struct Options {{\n    hidden: bool,\n}}\n\nfn options(args: &[String]) -> Options {{\n    Options {{\n        hidden: args.iter().any(|a| {any}),\n    }}\n}}\n\nfn main() {{\n    let args: Vec<String> = std::env::args().skip(1).collect();\n    let _ = options(&args).hidden;\n}}\n{tests}")
    };
    r.write("src/main.rs", main("a == \"--hidden\"", ""));
    r.commit("init");
    r.branch("feature");
    r.write(
        "src/main.rs",
        main("a == \"--hidden\" || a == \"-H\"", tests),
    );
    r.commit("Accept the short form of the hidden option");
    r
}

/// The branch of `hidden_flag_with`, with a unit test expecting the option's value when
/// `tested`.
fn hidden_flag(tested: bool) -> Repo {
    hidden_flag_with(if tested {
        "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn short_flag_shows_hidden_files() {\n        let args = vec![\"-H\".to_string()];\n        assert_eq!(options(&args).hidden, true);\n    }\n}\n"
    } else {
        ""
    })
}

#[test]
fn a_command_file_with_a_changed_test_makes_a_scenario_quoting_the_options_value() {
    let rs = flow(&hidden_flag(true));
    assert_eq!(role_of(&rs, "src/main.rs"), "command");
    let quoting: Vec<&Value> = scenarios(&rs)
        .into_iter()
        .filter(|s| {
            strings(&s["data"]["assertions"])
                .iter()
                .any(|a| a.contains("short_flag_shows_hidden_files") && a.contains("true"))
        })
        .collect();
    assert_eq!(quoting.len(), 1, "{:#?}", scenarios(&rs));
    assert_eq!(quoting[0]["data"]["focus"], "command");
    // The test's set-up is told as a step a tester follows, not quoted as code again.
    let first = &strings(&quoting[0]["data"]["steps"])[0];
    assert!(
        first.ends_with("): run `let args = vec![\"-H\".to_string()];`"),
        "{first}"
    );
}

#[test]
fn a_command_files_changed_test_makes_a_scenario_even_when_its_checks_are_not_read() {
    // The test checks through a call the flow does not read as an assertion.
    let rs = flow(&hidden_flag_with(
        "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn short_flag_shows_hidden_files() {\n        let args = vec![\"-H\".to_string()];\n        if !options(&args).hidden {\n            std::process::abort();\n        }\n    }\n}\n",
    ));
    let naming: Vec<&Value> = scenarios(&rs)
        .into_iter()
        .filter(|s| {
            s["data"]["focus"] == "command"
                && strings(&s["data"]["steps"])
                    .iter()
                    .any(|a| a.contains("short_flag_shows_hidden_files"))
        })
        .collect();
    assert_eq!(naming.len(), 1, "{:#?}", scenarios(&rs));
    assert_eq!(
        strings(&naming[0]["data"]["assertions"]),
        ["Changed test passes: short_flag_shows_hidden_files"]
    );
}

#[test]
fn a_command_file_without_a_changed_test_or_cli_fact_makes_none() {
    let rs = flow(&hidden_flag(false));
    assert_eq!(role_of(&rs, "src/main.rs"), "command");
    assert!(scenarios(&rs).is_empty(), "{:#?}", scenarios(&rs));
}

#[test]
fn a_library_for_building_command_lines_is_product_and_its_own_main_is_command() {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/cli\n\ngo 1.21\n");
    r.write("README.md", "# cli\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "command.go",
        "package cli\n\nimport \"os\"\n\n// Command is one verb of a command line.\ntype Command struct {\n\tUse  string\n\targs []string\n}\n\n// Execute runs the command on the process arguments.\nfunc (c *Command) Execute() error {\n\tc.args = os.Args[1:]\n\treturn nil\n}\n",
    );
    r.write(
        "plugin/builder.go",
        "package plugin\n\nimport \"github.com/spf13/cobra\"\n\nfunc New() *cobra.Command {\n\treturn &cobra.Command{Use: \"plugin\"}\n}\n",
    );
    r.write(
        "lib/command.js",
        "const EventEmitter = require('events');\n\nclass Command extends EventEmitter {\n  parse(argv) {\n    return argv || process.argv;\n  }\n  option(flags) {\n    this.flags = flags;\n    return this;\n  }\n}\n\nexports.Command = Command;\n",
    );
    r.write(
        "cmd/cli/main.go",
        "package main\n\nimport \"example.com/cli\"\n\nfunc main() {\n\t_ = (&cli.Command{Use: \"cli\"}).Execute()\n}\n",
    );
    r.commit("feat: add commands");
    let rs = flow(&r);
    assert_eq!(role_of(&rs, "command.go"), "product");
    assert_eq!(role_of(&rs, "plugin/builder.go"), "product");
    assert_eq!(role_of(&rs, "lib/command.js"), "product");
    assert_eq!(role_of(&rs, "cmd/cli/main.go"), "command");
}

#[test]
fn a_main_package_outside_a_command_directory_is_command() {
    let mut r = Repo::new();
    r.write("go.mod", "module example.com/tool\n\ngo 1.21\n");
    r.commit("init");
    r.branch("feature");
    r.write(
        "main.go",
        "package main\n\nimport \"github.com/spf13/cobra\"\n\nfunc main() {\n\t_ = (&cobra.Command{Use: \"tool\"}).Execute()\n}\n",
    );
    r.write("version.go", "package main\n\nconst version = \"1.0\"\n");
    r.commit("feat: add the tool");
    let rs = flow(&r);
    assert_eq!(role_of(&rs, "main.go"), "command");
    assert_eq!(role_of(&rs, "version.go"), "command");
}

const MODELS: &str = "class Request:\n    def __init__(self, hooks=None, data=None):\n        self.hooks = hooks or {}\n        self.data = data\n\n    def body(self, limit=10):\n        if not self.data:\n            return b\"\"\n        return self.data[:limit]\n";

/// `main` holds `src/models.py`; `feature` gets one plain-subject commit writing `head`.
fn python_commit(subject: &str, head: &str) -> Repo {
    let mut r = Repo::new();
    r.write("src/models.py", MODELS);
    r.commit("Import the request model");
    r.branch("feature");
    r.write("src/models.py", head);
    r.commit(subject);
    r
}

#[test]
fn a_plain_commit_adding_only_annotations_and_pragmas_makes_no_scenario() {
    let head = MODELS
        .replace(
            "class Request:\n",
            "class Request:\n    hooks: dict[str, list[Hook]]\n\n",
        )
        .replace(
            "def body(self, limit=10):",
            "def body(self, limit: int = 10) -> bytes:",
        )
        .replace(
            "self.data = data",
            "self.data = data  # type: ignore[assignment]",
        );
    let r = python_commit("Add type annotation for `Request.hooks`", &head);
    let rs = flow(&r);
    assert!(scenarios(&rs).is_empty(), "{:#?}", scenarios(&rs));
    assert!(
        !cleanup_commits(&rs).is_empty(),
        "the commit is listed as cleanup"
    );
}

#[test]
fn a_plain_commit_changing_a_condition_beside_its_annotations_makes_a_scenario() {
    let head = MODELS
        .replace(
            "def body(self, limit=10):",
            "def body(self, limit: int = 10) -> bytes:",
        )
        .replace("if not self.data:", "if self.data is None:");
    let r = python_commit("Add type annotation for `Request.body`", &head);
    let rs = flow(&r);
    assert!(!scenarios(&rs).is_empty(), "{rs:#?}");
    assert!(!behaviour_commits(&rs).is_empty());
}

/// A shop of two modules, `price.py` and `stock.py`, and `test_file` importing both,
/// committed; `feature` is checked out.
fn shop(test_file: &str) -> Repo {
    let mut r = Repo::new();
    r.write("src/price.py", "def price(n):\n    return n\n");
    r.write("src/stock.py", "def stock(n):\n    return n\n");
    r.write(
        test_file,
        "from src.price import price\nfrom src.stock import stock\n",
    );
    r.commit("Import the shop");
    r.branch("feature");
    r
}

/// Two features in two commits, each adding its test to the one test file they share.
fn two_features_one_test_file() -> Repo {
    let mut r = shop("tests/test_shop.py");
    r.write("src/price.py", "def price(n):\n    return n * 2\n");
    r.write(
        "tests/test_shop.py",
        "from src.price import price\nfrom src.stock import stock\n\n\ndef test_price_doubles():\n    assert price(21) == 42\n",
    );
    r.commit("Double every price");
    r.write("src/stock.py", "def stock(n):\n    return max(n, 0)\n");
    r.write(
        "tests/test_shop.py",
        "from src.price import price\nfrom src.stock import stock\n\n\ndef test_price_doubles():\n    assert price(21) == 42\n\n\ndef test_stock_is_never_negative():\n    assert stock(-5) == 0\n",
    );
    r.commit("Never report a negative stock");
    r
}

/// The assertions of the scenarios of the intent titled `title`.
fn assertions_of(rs: &[Value], title: &str) -> Vec<String> {
    let intent = records::of_kind(rs, "intent")
        .into_iter()
        .find(|i| i["data"]["title"] == title)
        .unwrap_or_else(|| panic!("no intent {title}"));
    scenarios(rs)
        .iter()
        .filter(|s| s["data"]["intent"] == intent["id"])
        .flat_map(|s| strings(&s["data"]["assertions"]))
        .map(String::from)
        .collect()
}

#[test]
fn each_intent_quotes_the_tests_its_own_commits_wrote_in_a_shared_test_file() {
    let rs = flow(&two_features_one_test_file());
    let price = assertions_of(&rs, "Double every price");
    let stock = assertions_of(&rs, "Never report a negative stock");
    assert!(price.iter().any(|a| a.contains("42")), "{price:#?}");
    assert!(!price.iter().any(|a| a.contains("stock(-5)")), "{price:#?}");
    assert!(stock.iter().any(|a| a.contains("stock(-5)")), "{stock:#?}");
    assert!(!stock.iter().any(|a| a.contains("price(21)")), "{stock:#?}");
}

#[test]
fn an_intent_is_titled_from_the_commit_that_changes_the_code_not_its_failing_test() {
    let lib = "pub fn stamp(s: i64) -> Option<i64> {\n    Some(s)\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn in_range() {\n        assert_eq!(stamp(1), Some(1));\n    }\n}\n";
    let mut r = crate::common::rust_crate(lib);
    r.commit("Import the stamps");
    r.branch("feature");
    let failing = lib.replace(
        "    #[test]\n    fn in_range",
        "    #[test]\n    fn out_of_range() {\n        assert_eq!(stamp(i64::MAX), None);\n    }\n\n    #[test]\n    fn in_range",
    );
    r.write("src/lib.rs", &failing);
    r.commit("Add failing test for an out-of-range timestamp");
    r.write(
        "src/lib.rs",
        failing.replace("    Some(s)\n", "    (s < i64::MAX).then_some(s)\n"),
    );
    r.commit("Reject an out-of-range timestamp");
    let rs = flow(&r);
    let titles: Vec<&str> = records::of_kind(&rs, "intent")
        .iter()
        .filter_map(|i| i["data"]["title"].as_str())
        .collect();
    assert!(
        titles.contains(&"Reject an out-of-range timestamp"),
        "{titles:?}"
    );
    assert!(
        !titles.iter().any(|t| t.contains("failing test")),
        "{titles:?}"
    );
}

/// A shop with two modules; on `feature`, one commit changes `price.py` alone, and a later
/// one writes a test in `tests/test_price.py` (the price module's own test file by its
/// name) that checks the stock: with a change to `stock.py` when `stock_is_behaviour`, as
/// a test-only commit otherwise.
fn shop_with_a_stock_test_in_the_price_tests(stock_is_behaviour: bool) -> Repo {
    let mut r = shop("tests/test_price.py");
    r.write("src/price.py", "def price(n):\n    return n * 2\n");
    r.commit("Double every price");
    if stock_is_behaviour {
        r.write("src/stock.py", "def stock(n):\n    return max(n, 0)\n");
    }
    r.write(
        "tests/test_price.py",
        "from src.price import price\nfrom src.stock import stock\n\n\ndef test_stock_is_never_negative():\n    assert stock(-5) == 0\n",
    );
    r.commit(if stock_is_behaviour {
        "Never report a negative stock"
    } else {
        "Cover the stock floor"
    });
    r
}

/// The files of the intent titled `title`.
fn files_of(rs: &[Value], title: &str) -> Vec<String> {
    records::of_kind(rs, "intent")
        .into_iter()
        .find(|i| i["data"]["title"] == title)
        .map(|i| {
            strings(&i["data"]["files"])
                .into_iter()
                .map(String::from)
                .collect()
        })
        .unwrap_or_else(|| panic!("no intent {title}"))
}

#[test]
fn a_test_another_commit_of_the_range_changed_is_not_borrowed_by_its_name() {
    let rs = flow(&shop_with_a_stock_test_in_the_price_tests(true));
    let price = files_of(&rs, "Double every price");
    assert!(
        !price.contains(&"tests/test_price.py".to_string()),
        "{price:?}"
    );
    let quoted = assertions_of(&rs, "Double every price");
    assert!(
        !quoted.iter().any(|a| a.contains("stock(-5)")),
        "{quoted:#?}"
    );
    let stock = files_of(&rs, "Never report a negative stock");
    assert!(
        stock.contains(&"tests/test_price.py".to_string()),
        "{stock:?}"
    );
}

#[test]
fn a_test_no_behaviour_commit_changed_is_still_claimed_by_its_name() {
    let rs = flow(&shop_with_a_stock_test_in_the_price_tests(false));
    let price = files_of(&rs, "Double every price");
    assert!(
        price.contains(&"tests/test_price.py".to_string()),
        "{price:?}"
    );
}

#[test]
fn a_commit_with_unusable_text_that_only_rewords_comments_is_cleanup() {
    let mut r = port_crate();
    r.write(
        "src/lib.rs",
        "/// The port a text names, spaces aside.\npub fn parse_port(text: &str) -> u16 {\n    let t = text.trim();\n    t.parse().unwrap()\n}\n",
    );
    let oid = r.commit("Javadoc");
    let rs = flow(&r);
    assert!(cleanup_commits(&rs).contains(&oid), "{rs:#?}");
    assert!(scenarios(&rs).is_empty(), "{:#?}", scenarios(&rs));
}

#[test]
fn a_commit_with_unusable_text_that_changes_code_keeps_its_scenario() {
    let mut r = port_crate();
    r.write(
        "src/lib.rs",
        "pub fn parse_port(text: &str) -> u16 {\n    let t = text.trim();\n    t.parse().unwrap_or(80)\n}\n",
    );
    let oid = r.commit("Tweaks");
    let rs = flow(&r);
    assert!(!cleanup_commits(&rs).contains(&oid), "{rs:#?}");
    assert!(!scenarios(&rs).is_empty());
}
