use super::*;
use crate::parse;
use crate::testing::broken_inputs;

/// The annotations of `text` with every line added: (line, tag, value).
fn of(g: Grammar, text: &str) -> Vec<(u32, String, String)> {
    let n = text.lines().count() as u32;
    of_lines(g, text, &(1..=n).collect())
}

fn of_lines(g: Grammar, text: &str, lines: &BTreeSet<u32>) -> Vec<(u32, String, String)> {
    let tree = parse(g, text).expect("parsed");
    read(g, &tree, text, lines)
        .into_iter()
        .map(|a| (a.line, a.tag, a.value))
        .collect()
}

fn tag(line: u32, tag: &str, value: &str) -> (u32, String, String) {
    (line, tag.to_string(), value.to_string())
}

#[test]
fn jsdoc_tags_attach_to_the_exported_declaration_that_follows() {
    let text = "/**\n * Refunds an order.\n * @qaFlow refunds\n * @qaStage action @qaRisk high\n */\nexport async function refund(order) {}\n";
    assert_eq!(
        of(Grammar::TypeScript, text),
        [
            tag(6, "qaFlow", "refunds"),
            tag(6, "qaStage", "action"),
            tag(6, "qaRisk", "high"),
        ]
    );
}

#[test]
fn doc_comments_of_rust_python_and_go_attach_too() {
    let rust = "/// @qaFlow checkout\n#[instrument]\npub async fn pay() {}\n";
    assert_eq!(of(Grammar::Rust, rust), [tag(3, "qaFlow", "checkout")]);
    let python = "# @qaOutcome refund recorded\n@app.post('/r')\ndef refund(order):\n    pass\n";
    assert_eq!(
        of(Grammar::Python, python),
        [tag(3, "qaOutcome", "refund recorded")]
    );
    let go =
        "package p\n\n// @qaFlow refunds\nfunc (s *Server) Refund(w http.ResponseWriter) {\n}\n";
    assert_eq!(of(Grammar::Go, go), [tag(4, "qaFlow", "refunds")]);
    let one_line = "/** @qaFlow carts */ export const addItem = () => {};\n";
    assert_eq!(
        of(Grammar::TypeScript, one_line),
        [tag(1, "qaFlow", "carts")]
    );
}

#[test]
fn an_annotation_without_an_exported_declaration_below_is_ignored() {
    let ts = Grammar::TypeScript;
    assert!(of(ts, "/** @qaFlow refunds */\n").is_empty());
    assert!(of(ts, "// @qaFlow refunds\nconst x = 1;\n").is_empty());
    assert!(of(Grammar::Rust, "/// @qaFlow refunds\nfn private() {}\n").is_empty());
    assert!(of(
        Grammar::Rust,
        "/// @qaFlow refunds\npub(crate) fn inner() {}\n"
    )
    .is_empty());
    assert!(of(
        Grammar::Python,
        "# @qaFlow refunds\ndef _private():\n    pass\n"
    )
    .is_empty());
    let method = "class A:\n    # @qaFlow refunds\n    def method(self):\n        pass\n";
    assert!(of(Grammar::Python, method).is_empty());
    assert!(of(
        Grammar::Go,
        "package p\n// @qaFlow refunds\nfunc refund() {\n}\n"
    )
    .is_empty());
    assert!(of(ts, "// @qaFlow refunds\n\nexport function refund() {}\n").is_empty());
    assert!(of(ts, "// @qaFlow\nexport function refund() {}\n").is_empty());
    // A tag-like word is no tag.
    assert!(of(ts, "// @qaFlows refunds\nexport function refund() {}\n").is_empty());
}

#[test]
fn a_tag_in_a_string_or_after_code_is_no_annotation() {
    let ts = Grammar::TypeScript;
    let string = "const s = \"// @qaFlow refunds\";\nexport function refund() {}\n";
    assert!(of(ts, string).is_empty());
    let trailing = "go(); // @qaFlow refunds\nexport function refund() {}\n";
    assert!(of(ts, trailing).is_empty());
}

#[test]
fn the_comment_and_the_declaration_must_all_be_added() {
    let text = "// @qaFlow refunds\nexport function refund() {}\n";
    let ts = Grammar::TypeScript;
    assert_eq!(
        of_lines(ts, text, &[1, 2].into()),
        [tag(2, "qaFlow", "refunds")]
    );
    assert!(of_lines(ts, text, &[1].into()).is_empty());
    assert!(of_lines(ts, text, &[2].into()).is_empty());
}

#[test]
fn broken_input_never_panics() {
    for g in [
        Grammar::TypeScript,
        Grammar::Rust,
        Grammar::Python,
        Grammar::Go,
        Grammar::Java,
    ] {
        for input in broken_inputs() {
            let text = format!("// @qaFlow x\n{input}\n/** @qaRisk */\n");
            let _ = of(g, &text);
        }
    }
}
