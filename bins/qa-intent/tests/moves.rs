//! Moved code is moved: through the real `qa-diff | qa-intent` on real repositories, a
//! block moved into a helper (in its file or another), extracted, inlined or copied with
//! its variables renamed gives no "no longer" or "removed" claim, and a really removed
//! exit still does (the negative control of each). Rust, Python, TypeScript and Go.

use qa_testkit::{records, Program, Repo};
use serde_json::Value;

const QA_INTENT: &str = env!("CARGO_BIN_EXE_qa-intent");

/// A repository whose branch `feature` changes each `(path, before, after)` in one commit
/// (an empty `before` is a file the commit adds).
fn change(files: &[(&str, &str, &str)], subject: &str) -> Repo {
    let mut r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    for (path, before, _) in files {
        if !before.is_empty() {
            r.write(path, before);
        }
    }
    r.commit("init");
    r.branch("feature");
    for (path, _, after) in files {
        r.write(path, after);
    }
    r.commit(subject);
    r
}

/// `qa-diff --base main | qa-intent` on the branch.
fn flow(repo: &Repo) -> Vec<Value> {
    let stream = Program::built("qa-diff")
        .invocation()
        .dir(repo.path())
        .env("HOME", repo.home())
        .args(["--base", "main"])
        .run()
        .success()
        .stdout;
    Program::at(QA_INTENT)
        .invocation()
        .arg("--repo")
        .arg(repo.path())
        .stdin(stream)
        .run()
        .records()
}

/// Every claim the flow makes: scenario titles, assertions and evidence, and the intents'
/// lifecycle steps.
fn claims(rs: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for s in records::of_kind(rs, "scenario") {
        let d = &s["data"];
        out.push(d["title"].as_str().unwrap_or("").to_string());
        for key in ["assertions", "steps"] {
            out.extend(
                d[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(String::from),
            );
        }
        out.extend(
            d["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["text"].as_str())
                .map(String::from),
        );
    }
    for i in records::of_kind(rs, "intent") {
        out.extend(
            i["data"]["lifecycle"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["text"].as_str())
                .map(String::from),
        );
    }
    out
}

/// The claims that say code is gone: "no longer", "removed", "dropped".
fn removal_claims(rs: &[Value]) -> Vec<String> {
    claims(rs)
        .into_iter()
        .filter(|c| c.contains("no longer") || c.contains("removed") || c.contains("dropped"))
        .collect()
}

/// Scenario titles starting with `prefix`.
fn titled(rs: &[Value], prefix: &str) -> Vec<String> {
    records::of_kind(rs, "scenario")
        .iter()
        .filter_map(|s| s["data"]["title"].as_str())
        .filter(|t| t.starts_with(prefix))
        .map(String::from)
        .collect()
}

/// The detector must see a removal claim where there is one: a planted record holding
/// "`f` no longer panics" is caught, one without is not.
#[test]
fn the_removal_detector_catches_a_planted_claim() {
    let planted: Vec<Value> = vec![serde_json::json!({
        "kind": "scenario",
        "data": {"title": "`f` no longer panics (`unreachable!()` removed)", "assertions": [], "steps": [], "evidence": []}
    })];
    assert_eq!(removal_claims(&planted).len(), 1);
    let clean: Vec<Value> = vec![serde_json::json!({
        "kind": "scenario",
        "data": {"title": "`f` returns 2", "assertions": [], "steps": [], "evidence": []}
    })];
    assert!(removal_claims(&clean).is_empty());
}

// ---------------------------------------------------------------------------------------
// Rust: a match arm ending in `unreachable!` moved into a helper the function calls.

const KIND_BEFORE: &str = "pub enum Kind {\n    A,\n    B,\n    C,\n}\n\npub fn weight(k: Kind) -> u32 {\n    match k {\n        Kind::A => 1,\n        Kind::B => 2,\n        Kind::C => unreachable!(\"C is filtered out before weighing\"),\n    }\n}\n";

// The helper nests the arm one level deeper: the diff removes its line and adds another.
const KIND_HELPER: &str = "pub enum Kind {\n    A,\n    B,\n    C,\n}\n\npub fn weight(k: Kind) -> u32 {\n    match k {\n        Kind::A => 1,\n        other => heavy(other),\n    }\n}\n\nfn heavy(k: Kind) -> u32 {\n    let w = {\n        match k {\n            Kind::B => 2,\n            Kind::C => unreachable!(\"C is filtered out before weighing\"),\n            Kind::A => 1,\n        }\n    };\n    w\n}\n";

const KIND_REMOVED: &str = "pub enum Kind {\n    A,\n    B,\n    C,\n}\n\npub fn weight(k: Kind) -> u32 {\n    match k {\n        Kind::A => 1,\n        Kind::B => 2,\n        Kind::C => 3,\n    }\n}\n";

#[test]
fn a_match_arm_moved_verbatim_into_a_helper_in_the_same_file_is_no_removal() {
    let rs = flow(&change(
        &[("src/lib.rs", KIND_BEFORE, KIND_HELPER)],
        "Weigh heavy kinds in a helper",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
}

#[test]
fn a_really_removed_unreachable_is_a_removal() {
    let rs = flow(&change(
        &[("src/lib.rs", KIND_BEFORE, KIND_REMOVED)],
        "Weigh C as 3",
    ));
    assert_eq!(
        titled(&rs, "`weight` no longer panics").len(),
        1,
        "{:#?}",
        claims(&rs)
    );
}

#[test]
fn a_block_moved_into_a_helper_in_another_file_is_no_removal() {
    let lib_after = "pub mod heavy;\npub enum Kind {\n    A,\n    B,\n    C,\n}\n\npub fn weight(k: Kind) -> u32 {\n    match k {\n        Kind::A => 1,\n        other => heavy::heavy(other),\n    }\n}\n";
    let heavy = "use crate::Kind;\n\npub fn heavy(k: Kind) -> u32 {\n    match k {\n        Kind::B => 2,\n        Kind::C => unreachable!(\"C is filtered out before weighing\"),\n        Kind::A => 1,\n    }\n}\n";
    let rs = flow(&change(
        &[
            ("src/lib.rs", KIND_BEFORE, lib_after),
            ("src/heavy.rs", "", heavy),
        ],
        "Weigh heavy kinds in their own module",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
}

// ---------------------------------------------------------------------------------------
// A function extracted, and a function inlined into its caller.

const CHECKED: &str = "pub fn run(name: &str) -> usize {\n    validate(name);\n    name.len()\n}\n\nfn validate(name: &str) {\n    if name.is_empty() {\n        panic!(\"a name is required\");\n    }\n}\n";

/// `CHECKED` with `validate` inlined one level deeper (so the diff removes and adds lines).
const INLINED: &str = "pub fn run(name: &str) -> usize {\n    let len = {\n        if name.is_empty() {\n            panic!(\"a name is required\");\n        }\n        name.len()\n    };\n    len\n}\n";

#[test]
fn a_function_inlined_into_its_caller_is_moved_not_removed() {
    let inlined = INLINED;
    let rs = flow(&change(
        &[("src/lib.rs", CHECKED, inlined)],
        "Inline the name check",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
    assert!(titled(&rs, "Boundary:").is_empty(), "{:#?}", claims(&rs));
}

#[test]
fn a_function_extracted_from_its_caller_is_moved_not_new() {
    let rs = flow(&change(
        &[("src/lib.rs", INLINED, CHECKED)],
        "Extract the name check",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
    assert!(titled(&rs, "Boundary:").is_empty(), "{:#?}", claims(&rs));
}

/// A check moved out of `parse` into `Parser::new`, which `parse` does not call: only the
/// matched subtree says the panic still stands.
#[test]
fn a_check_moved_into_a_function_the_old_one_does_not_call_is_no_removal() {
    let before = "pub struct Parser {\n    limit: usize,\n}\n\nimpl Parser {\n    pub fn new(limit: usize) -> Parser {\n        Parser { limit }\n    }\n\n    pub fn parse(&self, text: &str) -> usize {\n        if self.limit == 0 {\n            panic!(\"a parser needs a limit\");\n        }\n        text.len().min(self.limit)\n    }\n}\n";
    let after = "pub struct Parser {\n    limit: usize,\n}\n\nimpl Parser {\n    pub fn new(limit: usize) -> Parser {\n        let parser = Parser { limit };\n        {\n            if parser.limit == 0 {\n                panic!(\"a parser needs a limit\");\n            }\n        }\n        parser\n    }\n\n    pub fn parse(&self, text: &str) -> usize {\n        text.len().min(self.limit)\n    }\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", before, after)],
        "Refuse a zero limit when the parser is made",
    ));
    assert!(
        titled(&rs, "`Parser::parse` no longer").is_empty()
            && titled(&rs, "`parse` no longer").is_empty(),
        "{:#?}",
        claims(&rs)
    );
    // The negative control: the check dropped, not moved.
    let dropped = "pub struct Parser {\n    limit: usize,\n}\n\nimpl Parser {\n    pub fn new(limit: usize) -> Parser {\n        Parser { limit }\n    }\n\n    pub fn parse(&self, text: &str) -> usize {\n        text.len().min(self.limit)\n    }\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", before, dropped)],
        "Parse with any limit",
    ));
    assert_eq!(
        titled(&rs, "`parse` no longer panics").len()
            + titled(&rs, "`Parser::parse` no longer panics").len(),
        1,
        "{:#?}",
        claims(&rs)
    );
}

#[test]
fn a_function_that_still_panics_through_a_changed_helper_it_calls_does_not_no_longer_panic() {
    let before = "use std::sync::Mutex;\n\npub struct Out {\n    buf: Mutex<Vec<u8>>,\n}\n\nimpl Out {\n    pub fn write(&self, b: &[u8]) {\n        self.buf.lock().unwrap().extend_from_slice(b);\n    }\n}\n";
    let still = "use std::sync::Mutex;\n\npub struct Out {\n    buf: Mutex<Vec<u8>>,\n}\n\nimpl Out {\n    pub fn write(&self, b: &[u8]) {\n        append(&self.buf, b);\n    }\n}\n\nfn append(buf: &Mutex<Vec<u8>>, b: &[u8]) {\n    let mut guard = buf.lock().expect(\"buffer poisoned\");\n    guard.extend_from_slice(b);\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", before, still)],
        "Append through one helper",
    ));
    assert!(
        titled(&rs, "`write` no longer").is_empty(),
        "{:#?}",
        claims(&rs)
    );
    // The negative control: the helper that no longer panics leaves the claim standing.
    let gone = still.replace(
        ".expect(\"buffer poisoned\")",
        ".unwrap_or_else(|e| e.into_inner())",
    );
    let rs = flow(&change(
        &[("src/lib.rs", before, &gone)],
        "Append through one helper",
    ));
    assert_eq!(
        titled(&rs, "`write` no longer panics").len(),
        1,
        "{:#?}",
        claims(&rs)
    );
}

// ---------------------------------------------------------------------------------------
// Renamed variables: a block copied with new names is moved; a changed condition is new.

const SIGNER: &str = "pub fn unsign(age: u64, max_age: u64) -> Result<(), String> {\n    if age > max_age {\n        log(age, max_age);\n        return Err(format!(\"signature expired\"));\n    }\n    Ok(())\n}\n\nfn log(_a: u64, _b: u64) {}\n";

fn signer_helper(op: &str) -> String {
    format!("pub fn unsign(age: u64, max_age: u64) -> Result<(), String> {{\n    check_age(age, max_age)\n}}\n\nfn check_age(seconds: u64, limit: u64) -> Result<(), String> {{\n    if seconds {op} limit {{\n        log(seconds, limit);\n        return Err(format!(\"signature expired\"));\n    }}\n    Ok(())\n}}\n\nfn log(_a: u64, _b: u64) {{}}\n")
}

#[test]
fn a_block_moved_with_its_variables_renamed_is_no_new_boundary() {
    let rs = flow(&change(
        &[("src/lib.rs", SIGNER, &signer_helper(">"))],
        "Check the age in a helper",
    ));
    assert!(titled(&rs, "Boundary:").is_empty(), "{:#?}", claims(&rs));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
}

#[test]
fn a_block_moved_with_its_condition_changed_is_a_new_boundary() {
    let rs = flow(&change(
        &[("src/lib.rs", SIGNER, &signer_helper(">="))],
        "Expire signatures at their max age",
    ));
    assert_eq!(
        titled(&rs, "Boundary: seconds >= limit").len(),
        1,
        "{:#?}",
        claims(&rs)
    );
}

// ---------------------------------------------------------------------------------------
// Python, TypeScript and Go: an error exit moved into a helper module, and removed.

/// The flow on a change moving an exit out of `main_path` into a new `helper` file the
/// function now calls (no removal claim), and on one removing it (the `claim`).
fn assert_moved_versus_removed(
    main_path: &str,
    before: &str,
    moved: &str,
    helper: (&str, &str),
    removed: &str,
    claim: &str,
) {
    let rs = flow(&change(
        &[(main_path, before, moved), (helper.0, "", helper.1)],
        "Check the input in a helper",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
    let rs = flow(&change(
        &[(main_path, before, removed)],
        "Accept empty input",
    ));
    assert_eq!(titled(&rs, claim).len(), 1, "{:#?}", claims(&rs));
}

#[test]
fn a_python_raise_moved_into_a_helper_module_is_no_removal_but_a_removed_one_is() {
    assert_moved_versus_removed(
        "shop/parse.py",
        "def parse(text):\n    if not text:\n        raise ValueError(\"empty input\")\n    return text.split(\",\")\n",
        "from shop.checks import require\n\n\ndef parse(text):\n    require(text)\n    return text.split(\",\")\n",
        (
            "shop/checks.py",
            "def require(text):\n    if not text:\n        raise ValueError(\"empty input\")\n",
        ),
        "def parse(text):\n    if not text:\n        return []\n    return text.split(\",\")\n",
        "`parse` no longer throws",
    );
}

#[test]
fn a_typescript_throw_moved_into_a_helper_module_is_no_removal_but_a_removed_one_is() {
    assert_moved_versus_removed(
        "src/parse.ts",
        "export function parse(text: string): string[] {\n  if (text.length === 0) {\n    throw new Error(\"empty input\");\n  }\n  return text.split(\",\");\n}\n",
        "import { require } from \"./checks\";\n\nexport function parse(text: string): string[] {\n  require(text);\n  return text.split(\",\");\n}\n",
        (
            "src/checks.ts",
            "export function require(text: string): void {\n  if (text.length === 0) {\n    throw new Error(\"empty input\");\n  }\n}\n",
        ),
        "export function parse(text: string): string[] {\n  if (text.length === 0) {\n    return [];\n  }\n  return text.split(\",\");\n}\n",
        "`parse` no longer throws",
    );
}

#[test]
fn a_go_panic_moved_into_a_helper_file_is_no_removal_but_a_removed_one_is() {
    assert_moved_versus_removed(
        "parse/parse.go",
        "package parse\n\nimport \"strings\"\n\nfunc Parse(text string) []string {\n\tif text == \"\" {\n\t\tpanic(\"empty input\")\n\t}\n\treturn strings.Split(text, \",\")\n}\n",
        "package parse\n\nimport \"strings\"\n\nfunc Parse(text string) []string {\n\trequire(text)\n\treturn strings.Split(text, \",\")\n}\n",
        (
            "parse/checks.go",
            "package parse\n\nfunc require(text string) {\n\tif text == \"\" {\n\t\tpanic(\"empty input\")\n\t}\n}\n",
        ),
        "package parse\n\nimport \"strings\"\n\nfunc Parse(text string) []string {\n\tif text == \"\" {\n\t\treturn nil\n\t}\n\treturn strings.Split(text, \",\")\n}\n",
        "`Parse` no longer panics",
    );
}

// ---------------------------------------------------------------------------------------
// A match arm keyed by a string, re-expressed as a pattern table the change writes.

const ARMS: &str = "pub enum Token {\n    Placeholder,\n    NoExt,\n    Text,\n}\n\npub fn token(p: &str) -> Token {\n    match p {\n        \"{}\" => Token::Placeholder,\n        \"{.}\" => Token::NoExt,\n        _ => Token::Text,\n    }\n}\n";

#[test]
fn an_entry_whose_key_the_change_writes_again_is_no_removal() {
    let table = "pub enum Token {\n    Placeholder,\n    NoExt,\n    Text,\n}\n\nconst PATTERNS: [&str; 2] = [\"{}\", \"{.}\"];\n\npub fn token(p: &str) -> Token {\n    match PATTERNS.iter().position(|x| *x == p) {\n        Some(0) => Token::Placeholder,\n        Some(1) => Token::NoExt,\n        _ => Token::Text,\n    }\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", ARMS, table)],
        "Find placeholders through a pattern table",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
}

#[test]
fn a_catch_all_arm_rewritten_as_a_fall_through_is_no_removal() {
    let ifs = "pub enum Token {\n    Placeholder,\n    NoExt,\n    Text,\n}\n\npub fn token(p: &str) -> Token {\n    if p == \"{}\" {\n        return Token::Placeholder;\n    }\n    if p == \"{.}\" {\n        return Token::NoExt;\n    }\n    Token::Text\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", ARMS, ifs)],
        "Find placeholders by comparison",
    ));
    assert!(removal_claims(&rs).is_empty(), "{:#?}", removal_claims(&rs));
}

#[test]
fn arms_rewritten_into_a_matches_macro_are_no_removal() {
    let arms = "pub enum Template {\n    Tokens(Vec<u8>),\n    Text(String),\n}\n\nimpl Template {\n    pub fn has_tokens(&self) -> bool {\n        match self {\n            Template::Tokens(_) => true,\n            Template::Text(_) => false,\n        }\n    }\n}\n";
    let macro_form = "pub enum Template {\n    Tokens(Vec<u8>),\n    Text(String),\n}\n\nimpl Template {\n    pub fn has_tokens(&self) -> bool {\n        matches!(self, Template::Tokens(_))\n    }\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", arms, macro_form)],
        "Fix clippy warnings",
    ));
    // `Template::Tokens(_)` stands at head as often as before: rewritten, not removed.
    assert!(
        !claims(&rs)
            .iter()
            .any(|c| c.contains("Template::Tokens(_)")),
        "{:#?}",
        claims(&rs)
    );
}

#[test]
fn an_entry_whose_key_the_change_drops_is_a_removal() {
    let dropped = "pub enum Token {\n    Placeholder,\n    NoExt,\n    Text,\n}\n\npub fn token(p: &str) -> Token {\n    match p {\n        \"{}\" => Token::Placeholder,\n        _ => Token::Text,\n    }\n}\n";
    let rs = flow(&change(
        &[("src/lib.rs", ARMS, dropped)],
        "Read {.} as text",
    ));
    assert!(
        claims(&rs)
            .iter()
            .any(|c| c == "`token` no longer has the entry \"{.}\""),
        "{:#?}",
        claims(&rs)
    );
}

// ---------------------------------------------------------------------------------------
// A `when` entry moved into another file's function, where it is an expression: the
// `return` it held is gone, the entry is not (okhttp's state machine split out of a call).

const DECODE: &str = "package dns\n\nconst val SUCCESS = 0\nconst val FAILURE = 2\n\nclass Message(val code: Int, val answers: List<String>)\n\nfun decode(message: Message): List<String> {\n  when (message.code) {\n    SUCCESS -> return message.answers\n    FAILURE -> throw IllegalStateException(\"server failure\")\n    else -> throw IllegalStateException()\n  }\n}\n";

#[test]
fn a_when_entry_moved_into_another_file_as_an_expression_is_no_removal() {
    let decode = "package dns\n\nconst val SUCCESS = 0\nconst val FAILURE = 2\n\nclass Message(val code: Int, val answers: List<String>)\n\nfun decode(message: Message): Message {\n  return message\n}\n";
    let machine = "package dns\n\nclass Machine {\n  fun onResponse(message: Message): List<String> {\n    val answers =\n      when (message.code) {\n        SUCCESS -> message.answers\n        FAILURE -> throw IllegalStateException(\"server failure\")\n        else -> throw IllegalStateException()\n      }\n    return answers\n  }\n}\n";
    let rs = flow(&change(
        &[
            ("src/main/kotlin/dns/Decode.kt", DECODE, decode),
            ("src/main/kotlin/dns/Machine.kt", "", machine),
        ],
        "Split the state machine out of decode",
    ));
    assert!(
        !claims(&rs).iter().any(|c| c.contains("SUCCESS")),
        "{:#?}",
        claims(&rs)
    );
}

#[test]
fn a_when_entry_dropped_from_every_file_is_a_removal() {
    let dropped = "package dns\n\nconst val SUCCESS = 0\nconst val FAILURE = 2\n\nclass Message(val code: Int, val answers: List<String>)\n\nfun decode(message: Message): List<String> {\n  when (message.code) {\n    FAILURE -> throw IllegalStateException(\"server failure\")\n    else -> throw IllegalStateException()\n  }\n}\n";
    let rs = flow(&change(
        &[("src/main/kotlin/dns/Decode.kt", DECODE, dropped)],
        "Treat success as a failure",
    ));
    assert!(
        claims(&rs)
            .iter()
            .any(|c| c.contains("no longer has the entry SUCCESS")),
        "{:#?}",
        claims(&rs)
    );
}

// ---------------------------------------------------------------------------------------
// Tests moved whole into another file (eza's `permissions.rs` tests split out into
// `permissions_unix.rs`): only what changed in transit is the change's.

const PERMS: &str = "pub fn render(bits: u32) -> String {\n    if bits & 4 != 0 {\n        \"r\".to_string()\n    } else {\n        \"-\".to_string()\n    }\n}\n";

/// The test module as the base's `permissions.rs` holds it, with `negate`'s check.
fn perm_tests(negate_check: &str, extra: &str) -> String {
    format!(
        "#[cfg(test)]\nmod test {{\n    use super::render;\n\n    #[test]\n    fn negate() {{\n        {negate_check}\n    }}\n\n    #[test]\n    fn affirm() {{\n        assert_eq!(render(4), String::from(\"r\"), \"readable bit shows\");\n    }}\n{extra}}}\n"
    )
}

const NEGATE: &str = "assert_eq!(render(0), String::from(\"-\"), \"no bits show a dash\");";

/// Every claim of the flow that quotes a test's check.
fn quoting(rs: &[Value], text: &str) -> Vec<String> {
    claims(rs)
        .into_iter()
        .filter(|c| c.contains(text))
        .collect()
}

/// Moves the base's tests of `src/permissions.rs` into `src/permissions_unix.rs`, which
/// the commit writes as `moved`.
fn tests_moved(moved: &str) -> Vec<Value> {
    let base = format!("{PERMS}\n{}", perm_tests(NEGATE, ""));
    flow(&change(
        &[
            (
                "src/permissions.rs",
                &base,
                &format!("{PERMS}\n#[cfg(unix)]\nmod permissions_unix;\n"),
            ),
            ("src/permissions_unix.rs", "", moved),
        ],
        "chore: replace #[allow(unused)] by #[cfg(unix)]",
    ))
}

#[test]
fn a_test_moved_word_for_word_into_another_file_is_no_changed_test() {
    let rs = tests_moved(&perm_tests(NEGATE, "").replace("super::render", "crate::render"));
    for check in ["String::from(\"-\")", "String::from(\"r\")"] {
        assert!(quoting(&rs, check).is_empty(), "{:#?}", claims(&rs));
    }
}

#[test]
fn a_test_moved_with_a_new_check_keeps_only_that_check() {
    let changed = "assert_eq!(render(0), String::from(\"--\"), \"no bits show a dash\");";
    let rs = tests_moved(&perm_tests(changed, ""));
    assert!(
        !quoting(&rs, "String::from(\"--\")").is_empty(),
        "{:#?}",
        claims(&rs)
    );
    assert!(
        quoting(&rs, "String::from(\"r\")").is_empty(),
        "{:#?}",
        claims(&rs)
    );
}

#[test]
fn a_test_really_added_beside_moved_ones_is_a_changed_test() {
    let added = "\n    #[test]\n    fn sticky() {\n        assert_eq!(render(1), String::from(\"t\"), \"sticky bit shows a t\");\n    }\n";
    let rs = tests_moved(&perm_tests(NEGATE, added));
    assert!(
        !quoting(&rs, "String::from(\"t\")").is_empty(),
        "{:#?}",
        claims(&rs)
    );
    assert!(
        quoting(&rs, "String::from(\"-\")").is_empty(),
        "{:#?}",
        claims(&rs)
    );
}
