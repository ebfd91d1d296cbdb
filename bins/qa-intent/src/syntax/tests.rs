use super::*;

const TS: Language = Language::TypeScript;
const PY: Language = Language::Python;
const RS: Language = Language::Rust;
const GO: Language = Language::Go;

fn read(lang: Language, line: &str) -> LineFacts {
    read_line(lang, line, &mut LexState::default())
}

/// Lines of one hunk, read with one carried state.
fn read_all(lang: Language, lines: &[&str]) -> Vec<LineFacts> {
    let mut st = LexState::default();
    lines.iter().map(|l| read_line(lang, l, &mut st)).collect()
}

fn numbered<'a>(lines: &[&'a str]) -> Vec<(u32, &'a str)> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i as u32 + 10, *l))
        .collect()
}

fn titles<'a>(found: &'a [(u32, String, &'static str)]) -> Vec<&'a str> {
    found.iter().map(|(_, t, _)| t.as_str()).collect()
}

// --- languages ---------------------------------------------------------------------------

#[test]
fn javascript_and_typescript_family_paths_are_typescript() {
    for p in [
        "a.ts",
        "src/App.tsx",
        "x.js",
        "x.JSX",
        "m.mjs",
        "c.cjs",
        "types.d.ts",
        "x.mts",
    ] {
        assert_eq!(language_of(p), TS, "{p}");
    }
    for p in ["a.json", "tsconfig", ".ts", "dir.ts/readme.md"] {
        assert_eq!(language_of(p), Language::Other, "{p}");
    }
}

#[test]
fn python_rust_and_go_paths_are_recognised_and_the_rest_is_other() {
    assert_eq!(language_of("app/models.py"), PY);
    assert_eq!(language_of("stubs/x.pyi"), PY);
    assert_eq!(language_of("src/main.rs"), RS);
    assert_eq!(language_of("cmd/server/main.go"), GO);
    assert_eq!(language_of("Makefile"), Language::Other);
    assert_eq!(language_of("main.c"), Language::Other);
}

// --- strings and comments ----------------------------------------------------------------

#[test]
fn a_call_in_code_is_a_call_but_not_inside_a_string() {
    assert_eq!(read(TS, "saveCart(cart);").calls, ["saveCart"]);
    let f = read(TS, r#"log("saveCart(cart) failed", 'deleteAll()');"#);
    assert_eq!(f.calls, ["log"]);
    assert_eq!(f.identifiers, ["log"]);
    assert_eq!(f.strings, ["saveCart(cart) failed", "deleteAll()"]);
}

#[test]
fn line_comments_hide_calls_in_every_language() {
    for (lang, line, comment) in [
        (TS, "x = 1; // deleteAll(db)", "deleteAll(db)"),
        (RS, "let x = 1; /// deleteAll(db)", "deleteAll(db)"),
        (GO, "x := 1 // deleteAll(db)", "deleteAll(db)"),
        (PY, "x = 1  # deleteAll(db)", "deleteAll(db)"),
    ] {
        let f = read(lang, line);
        assert!(f.calls.is_empty(), "{lang:?}: {:?}", f.calls);
        assert_eq!(f.identifiers, ["x"], "{lang:?}");
        assert_eq!(f.comment.as_deref(), Some(comment), "{lang:?}");
    }
    assert_eq!(read(TS, "x = 1;").comment, None);
}

#[test]
fn a_block_comment_spans_lines_and_code_after_it_counts() {
    let f = read_all(
        TS,
        &[
            "/**",
            " * Calls deleteAll(db) on purge.",
            " */ purge(db);",
            "done();",
        ],
    );
    assert!(f[1].calls.is_empty());
    assert_eq!(
        f[1].comment.as_deref(),
        Some("Calls deleteAll(db) on purge.")
    );
    assert_eq!(f[2].calls, ["purge"]);
    assert_eq!(f[3].calls, ["done"]);
}

#[test]
fn rust_block_comments_nest() {
    let f = read_all(RS, &["/* outer /* inner */ still(comment) */ real();"]);
    assert_eq!(f[0].calls, ["real"]);
    let f = read_all(TS, &["/* outer /* inner */ not_a_comment();"]);
    assert_eq!(f[0].calls, ["not_a_comment"]);
}

#[test]
fn a_hash_starts_a_python_comment_but_not_inside_a_string() {
    let f = read(PY, r##"tag = "#deleteAll(db)"  # purge(db)"##);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert_eq!(f.strings, ["#deleteAll(db)"]);
    assert_eq!(f.comment.as_deref(), Some("purge(db)"));
}

#[test]
fn a_js_regex_literal_is_matcher_vocabulary_not_code() {
    let f = read(TS, r"if (/\bcalendar\(/i.test(x)) { open(x); }");
    assert_eq!(f.calls, [".test", "open"]);
    assert!(
        !f.identifiers.contains(&"calendar".to_string()),
        "{:?}",
        f.identifiers
    );
    assert_eq!(f.matcher_strings, [r"\bcalendar\("]);
}

#[test]
fn division_is_not_a_regex() {
    let f = read(TS, "const r = a / b / c;");
    assert_eq!(f.identifiers, ["r", "a", "b", "c"]);
    assert!(f.matcher_strings.is_empty());
    let f = read(TS, "const avg = total(xs) / count(xs) / 2;");
    assert_eq!(f.calls, ["total", "count"]);
    assert!(f.matcher_strings.is_empty());
}

#[test]
fn a_regex_may_follow_return_and_contain_a_slash_in_a_class() {
    let f = read(TS, r"return /[/]save\(/.exec(line);");
    assert_eq!(f.matcher_strings, [r"[/]save\("]);
    assert_eq!(f.calls, [".exec"]);
}

#[test]
fn template_literal_static_parts_are_strings_and_interpolations_are_code() {
    let f = read(TS, "toast(`Saved ${count(items)} items`);");
    assert_eq!(f.calls, ["toast", "count"]);
    assert_eq!(f.strings, ["Saved ", " items"]);
    assert_eq!(f.identifiers, ["toast", "count", "items"]);
}

#[test]
fn a_template_literal_spans_lines_with_its_interpolations() {
    let f = read_all(
        TS,
        &[
            "const msg = `Dear ${name},",
            "please pay(now) ${fmt(total)}",
            "thanks`; send(msg);",
        ],
    );
    assert!(f[1].calls == ["fmt"], "{:?}", f[1].calls);
    assert_eq!(f[1].strings, ["please pay(now) "]);
    assert_eq!(f[2].strings, ["thanks"]);
    assert_eq!(f[2].calls, ["send"]);
}

#[test]
fn rust_raw_strings_hide_quotes_and_calls() {
    let f = read(
        RS,
        r####"let s = r#"say "hi"; delete_all()"#; notify(s);"####,
    );
    assert_eq!(f.calls, ["notify"]);
    assert_eq!(f.strings, [r#"say "hi"; delete_all()"#]);
    let f = read(RS, r#"let s = r"C:\path"; go(s);"#);
    assert_eq!(f.strings, [r"C:\path"]);
    assert_eq!(f.calls, ["go"]);
}

#[test]
fn rust_char_literals_and_lifetimes_do_not_open_strings() {
    let f = read(
        RS,
        r#"fn quote<'a>(s: &'a str) -> char { let q = '"'; emit(q); '\'' }"#,
    );
    assert_eq!(f.declared, ["quote", "q"]);
    assert_eq!(f.calls, ["emit"]);
    assert!(f.strings.is_empty(), "{:?}", f.strings);
}

#[test]
fn rust_strings_continue_on_the_next_line() {
    let f = read_all(
        RS,
        &[r#"let help = "usage: run("#, r#"  then stop()"; start();"#],
    );
    assert!(f[0].calls.is_empty());
    assert_eq!(f[1].strings, ["  then stop()"]);
    assert_eq!(f[1].calls, ["start"]);
}

#[test]
fn python_f_string_expressions_are_code_and_plain_braces_are_text() {
    let f = read(PY, r#"msg = f"Hello {name(user)!r:>10}, {{literal(x)}}""#);
    assert_eq!(f.calls, ["name"]);
    assert_eq!(f.strings, ["Hello ", ", {{literal(x)}}"]);
    let f = read(PY, r#"msg = "Hello {name(user)}""#);
    assert!(f.calls.is_empty());
    assert_eq!(f.strings, ["Hello {name(user)}"]);
}

#[test]
fn python_raw_strings_keep_escaped_quotes_inside() {
    let f = read(PY, r#"pat = r"a\"b(c)"; run(pat)"#);
    assert_eq!(f.strings, [r#"a\"b(c)"#]);
    assert_eq!(f.calls, ["run"]);
}

#[test]
fn python_triple_quoted_strings_span_lines() {
    let f = read_all(
        PY,
        &["SQL = \"\"\"", "delete_all(users)", "\"\"\"; run(SQL)"],
    );
    assert!(f[1].calls.is_empty());
    assert_eq!(f[1].strings, ["delete_all(users)"]);
    assert_eq!(f[2].calls, ["run"]);
}

#[test]
fn a_python_docstring_is_a_comment_and_an_assigned_triple_string_is_not() {
    let f = read_all(
        PY,
        &["    \"\"\"Refund the order(s).", "    Calls pay(x).\"\"\""],
    );
    assert_eq!(f[0].comment.as_deref(), Some("Refund the order(s)."));
    assert!(f[0].strings.is_empty());
    assert!(f[1].calls.is_empty());
    let f = read(PY, "    text = \"\"\"Refund the order.\"\"\"");
    assert_eq!(f.strings, ["Refund the order."]);
    assert_eq!(f.comment, None);
}

#[test]
fn go_raw_strings_span_lines_and_runes_do_not_open_strings() {
    let f = read_all(GO, &["q := `SELECT count(*)", "FROM t` ; run(q)"]);
    assert!(f[0].calls.is_empty());
    assert_eq!(f[0].declared, ["q"]);
    assert_eq!(f[1].calls, ["run"]);
    let f = read(GO, r#"if c == '"' { quote(c) }"#);
    assert_eq!(f.calls, ["quote"]);
}

#[test]
fn go_struct_tags_are_not_text() {
    let f = read(GO, r#"	Name string `json:"name"`"#);
    assert!(f.strings.is_empty());
    let f = read(GO, r#"	msg := `Saved: "draft"`"#);
    assert_eq!(f.strings, [r#"Saved: "draft""#]);
}

#[test]
fn other_languages_read_closed_strings_and_hash_comments_conservatively() {
    let f = read(Language::Other, r#"echo "deploy(now)" # rollback(x)"#);
    assert!(f.calls.is_empty());
    assert_eq!(f.strings, ["deploy(now)"]);
    let f = read(Language::Other, "it's ok: run(job)");
    assert_eq!(f.calls, ["run"]);
    let f = read(Language::Other, "see http://example.com/run(x)");
    assert_eq!(f.comment, None);
}

// --- matcher vocabulary -------------------------------------------------------------------

#[test]
fn strings_given_to_matchers_are_matcher_vocabulary() {
    let f = read(TS, r#"const re = new RegExp("calendar|date", "i");"#);
    assert_eq!(f.matcher_strings, ["calendar|date", "i"]);
    assert!(f.strings.is_empty());
    let f = read(
        TS,
        r#"if (msg.includes("Saved") || name.startsWith('tmp')) {}"#,
    );
    assert_eq!(f.matcher_strings, ["Saved", "tmp"]);
    assert!(f.strings.is_empty());
}

#[test]
fn strings_given_to_ordinary_calls_stay_text() {
    let f = read(TS, r#"toast("Saved"); test("adds an item", () => {});"#);
    assert_eq!(f.strings, ["Saved", "adds an item"]);
    assert!(f.matcher_strings.is_empty());
    // Only the matcher's own arguments count, not those of a call nested inside.
    let f = read(TS, r#"if (text.includes(t("cart.saved"))) {}"#);
    assert_eq!(f.strings, ["cart.saved"]);
    assert!(f.matcher_strings.is_empty());
}

#[test]
fn matcher_arguments_on_following_lines_stay_matcher_vocabulary() {
    let f = read_all(
        TS,
        &[
            "const re = new RegExp(",
            "  \"refund|chargeback\",",
            ");",
            "notify(\"Refunded\");",
        ],
    );
    assert_eq!(f[1].matcher_strings, ["refund|chargeback"]);
    assert!(f[1].strings.is_empty());
    assert_eq!(f[3].strings, ["Refunded"]);
}

#[test]
fn python_rust_and_go_matchers_are_recognised() {
    assert_eq!(
        read(PY, r#"PAT = re.compile(r"\d+ items")"#).matcher_strings,
        [r"\d+ items"]
    );
    assert_eq!(
        read(PY, r#"if name.startswith("tmp_"): pass"#).matcher_strings,
        ["tmp_"]
    );
    assert_eq!(read(PY, r#"print("tmp_")"#).strings, ["tmp_"]);
    assert_eq!(
        read(RS, r#"let re = Regex::new(r"^v\d+$").unwrap();"#).matcher_strings,
        [r"^v\d+$"]
    );
    assert_eq!(
        read(RS, r#"if line.contains("TODO") { warn("TODO found"); }"#).matcher_strings,
        ["TODO"]
    );
    assert_eq!(
        read(RS, r#"if line.contains("TODO") { warn("TODO found"); }"#).strings,
        ["TODO found"]
    );
    assert_eq!(
        read(GO, "var re = regexp.MustCompile(`^a+$`)").matcher_strings,
        ["^a+$"]
    );
    assert_eq!(
        read(GO, r#"if strings.HasPrefix(s, "v") { log.Print("v") }"#).matcher_strings,
        ["v"]
    );
    assert_eq!(
        read(GO, r#"if strings.HasPrefix(s, "v") { log.Print("v") }"#).strings,
        ["v"]
    );
}

#[test]
fn a_bare_test_call_is_not_a_matcher_but_a_method_test_is() {
    assert!(read(TS, r#"test("matches x", fn);"#)
        .matcher_strings
        .is_empty());
    assert_eq!(read(TS, r#"pattern.test("x")"#).matcher_strings, ["x"]);
}

// --- keywords, calls and declarations --------------------------------------------------------

#[test]
fn keywords_followed_by_a_parenthesis_are_not_calls() {
    for line in [
        "if (ok) {",
        "for (const x of xs) {",
        "while (next) {",
        "switch (kind) {",
        "return (a + b);",
        "x = typeof (y);",
        "} catch (e) {",
    ] {
        assert!(
            read(TS, line).calls.is_empty(),
            "{line}: {:?}",
            read(TS, line).calls
        );
    }
    assert_eq!(read(TS, "iff(ok);").calls, ["iff"]);
    assert!(read(RS, "match (a, b) {").calls.is_empty());
    assert!(read(PY, "if (ok) and not (done):").calls.is_empty());
    assert_eq!(read(PY, "print(ok)").calls, ["print"]);
    assert!(read(GO, "if (a > b) {").calls.is_empty());
}

#[test]
fn a_declared_function_is_not_a_call() {
    let cases = [
        (TS, "function saveCart(cart) {", "saveCart"),
        (TS, "export async function* stream(x) {", "stream"),
        (PY, "def save_cart(cart):", "save_cart"),
        (PY, "async def save_cart(cart):", "save_cart"),
        (
            RS,
            "pub fn save_cart(cart: &Cart) -> Result<()> {",
            "save_cart",
        ),
        (GO, "func SaveCart(c *Cart) error {", "SaveCart"),
    ];
    for (lang, line, name) in cases {
        let f = read(lang, line);
        assert_eq!(f.declared, [name], "{line}");
        assert!(f.calls.is_empty(), "{line}: {:?}", f.calls);
    }
}

#[test]
fn callee_names_keep_their_receiver_path() {
    assert_eq!(read(TS, "this.store.save(item);").calls, ["store.save"]);
    assert_eq!(
        read(TS, "res.status(404).json({ error });").calls,
        ["res.status", ".json"]
    );
    assert_eq!(read(TS, "const c = new Cart(items);").calls, ["Cart"]);
    assert_eq!(
        read(TS, "api?.client?.send?.(msg);").calls,
        ["api.client.send"]
    );
    assert_eq!(read(RS, "let c = Cart::new(items);").calls, ["Cart::new"]);
    assert_eq!(
        read(RS, "let n = crate::cart::total(&c);").calls,
        ["crate::cart::total"]
    );
    assert_eq!(read(RS, "self.items.push(x);").calls, ["items.push"]);
    assert_eq!(read(PY, "self.repo.save(order)").calls, ["repo.save"]);
    assert_eq!(read(GO, "fmt.Println(total)").calls, ["fmt.Println"]);
}

#[test]
fn rust_macros_are_calls_with_a_bang() {
    let f = read(
        RS,
        r#"println!("saved {}", id); let v = vec![1]; assert!{ok};"#,
    );
    assert_eq!(f.calls, ["println!", "vec!", "assert!"]);
    assert_eq!(
        read(RS, r#"tracing::info!(id, "added");"#).calls,
        ["tracing::info!"]
    );
    assert!(read(RS, "if !(a && b) {").calls.is_empty());
    let f = read(RS, "macro_rules! retry {");
    assert_eq!(f.declared, ["retry"]);
    assert!(f.calls.is_empty());
}

#[test]
fn generic_calls_name_the_function() {
    assert_eq!(
        read(TS, r#"const [v, setV] = useState<string | null>("");"#).calls,
        ["useState"]
    );
    assert_eq!(
        read(RS, "let v = it.collect::<Vec<_>>();").calls,
        ["it.collect"]
    );
    // A comparison chain with spaces is no generic call.
    assert!(read(TS, "ok = a < b > (c);").calls.is_empty());
}

#[test]
fn constructors_of_values_are_not_calls() {
    assert!(read(RS, "return Ok(Some(x));").calls.is_empty());
    assert_eq!(read(RS, "return Ok(save(x));").calls, ["save"]);
    assert!(read(GO, "b := []byte(s)").calls.is_empty());
    assert_eq!(read(GO, "n := len(s)").calls, ["len"]);
}

#[test]
fn typescript_declarations_are_named() {
    assert_eq!(read(TS, "const total = sum(items);").declared, ["total"]);
    assert_eq!(
        read(TS, "let { a, b: renamed, ...rest } = obj;").declared,
        ["a", "renamed", "rest"]
    );
    assert_eq!(
        read(TS, "const [count, setCount] = useState(0);").declared,
        ["count", "setCount"]
    );
    assert_eq!(
        read(TS, "export class CartStore extends Store {").declared,
        ["CartStore"]
    );
    assert_eq!(read(TS, "export interface Cart {").declared, ["Cart"]);
    assert_eq!(
        read(TS, "export type Status = 'open' | 'paid';").declared,
        ["Status"]
    );
    assert_eq!(read(TS, "export const enum Mode { A }").declared, ["Mode"]);
}

#[test]
fn object_keys_named_type_and_plain_calls_declare_nothing() {
    assert!(read(TS, "  type: 'refund',").declared.is_empty());
    assert!(read(TS, "save(item);").declared.is_empty());
    assert!(read(TS, "x.class = 1;").declared.is_empty());
}

#[test]
fn a_class_method_definition_is_a_declaration_not_a_call() {
    let f = read(TS, "  async save(item: Item): Promise<void> {");
    assert_eq!(f.declared, ["save"]);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert_eq!(read(TS, "  get total() {").declared, ["total"]);
    let f = read(TS, "  save(item);");
    assert!(f.declared.is_empty());
    assert_eq!(f.calls, ["save"]);
}

#[test]
fn typescript_export_marks_the_line_exported() {
    let f = read(TS, "export const saveCart = async (cart) => {");
    assert!(f.exported);
    assert_eq!(f.declared, ["saveCart"]);
    assert!(f.calls.is_empty());
    assert!(read(TS, "export default function CartPage() {").exported);
    assert!(read(TS, "module.exports = { save };").exported);
    assert!(!read(TS, "const saveCart = async (cart) => {").exported);
}

#[test]
fn python_top_level_public_names_are_exported() {
    let f = read(PY, "def refund(order):");
    assert!(f.exported);
    let f = read(PY, "MAX_RETRIES: int = 3");
    assert_eq!(f.declared, ["MAX_RETRIES"]);
    assert!(f.exported);
    assert!(!read(PY, "def _helper(x):").exported);
    assert!(!read(PY, "    def refund(self):").exported);
    let f = read(PY, "    total = 0");
    assert!(f.declared.is_empty());
    assert!(!f.exported);
}

#[test]
fn rust_pub_is_exported_and_restricted_visibility_is_not() {
    assert!(read(RS, "pub struct Cart {").exported);
    assert_eq!(read(RS, "pub struct Cart {").declared, ["Cart"]);
    assert!(!read(RS, "pub(crate) fn total() -> u32 {").exported);
    assert_eq!(
        read(RS, "pub(crate) fn total() -> u32 {").declared,
        ["total"]
    );
    assert!(!read(RS, "fn total() -> u32 {").exported);
}

#[test]
fn rust_declarations_are_named() {
    assert_eq!(
        read(RS, "pub const fn limit() -> u32 {").declared,
        ["limit"]
    );
    assert_eq!(read(RS, "static mut COUNT: u32 = 0;").declared, ["COUNT"]);
    assert_eq!(read(RS, "let mut total = 0;").declared, ["total"]);
    assert_eq!(read(RS, "let (a, b) = pair;").declared, ["a", "b"]);
    assert!(read(RS, "let Some(x) = maybe else { return };")
        .declared
        .is_empty());
    assert_eq!(read(RS, "pub enum Status { Open }").declared, ["Status"]);
    assert_eq!(read(RS, "trait Store {").declared, ["Store"]);
}

#[test]
fn go_capitalised_top_level_names_are_exported() {
    let f = read(
        GO,
        "func (s *Server) HandleRefund(w http.ResponseWriter, r *http.Request) {",
    );
    assert_eq!(f.declared, ["HandleRefund"]);
    assert!(f.exported);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert!(!read(GO, "func handle(w http.ResponseWriter) {").exported);
    assert!(read(GO, "type Cart struct {").exported);
    assert!(!read(GO, "\tvar Total = 1").exported);
}

#[test]
fn go_short_declarations_name_their_variables() {
    assert_eq!(
        read(GO, "order, err := repo.Find(id)").declared,
        ["order", "err"]
    );
    assert_eq!(
        read(GO, "if err := save(o); err != nil {").declared,
        ["err"]
    );
    assert_eq!(read(GO, "for _, item := range items {").declared, ["item"]);
    assert!(read(GO, "x = f(a, b)").declared.is_empty());
    assert!(read(GO, "go func(x int) error { return nil }()")
        .declared
        .is_empty());
}

#[test]
fn identifiers_leave_out_keywords_but_keep_member_names() {
    let f = read(TS, "for (const item of items) { cart.delete(item); }");
    assert_eq!(f.identifiers, ["item", "items", "cart", "delete"]);
    let f = read(PY, "if self.total is None and not done:");
    assert_eq!(f.identifiers, ["total", "done"]);
}

#[test]
fn rust_attributes_are_neither_calls_nor_text() {
    let f = read(RS, r#"#[serde(rename = "order_id")]"#);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert!(f.strings.is_empty());
    let f = read(RS, "#[derive(Debug, Clone)] struct A;");
    assert!(f.calls.is_empty());
    assert_eq!(f.declared, ["A"]);
}

// --- imports ------------------------------------------------------------------------------

#[test]
fn module_specifiers_are_imports_not_text() {
    let f = read(TS, r#"import { saveCart } from "./cart";"#);
    assert_eq!(f.imports, ["./cart"]);
    assert!(f.strings.is_empty());
    assert_eq!(f.identifiers, ["saveCart"]);
    assert_eq!(
        read(TS, r#"const fs = require("node:fs");"#).imports,
        ["node:fs"]
    );
    assert_eq!(
        read(TS, r#"const m = await import("./lazy");"#).imports,
        ["./lazy"]
    );
    assert_eq!(read(TS, r#"const from = "Sender";"#).strings, ["Sender"]);
}

#[test]
fn go_python_and_rust_imports_are_module_specifiers() {
    let f = read_all(
        GO,
        &[
            "import (",
            "\t\"net/http\"",
            "\tlog \"github.com/x/log\"",
            ")",
            "msg := \"hi\"",
        ],
    );
    assert_eq!(f[1].imports, ["net/http"]);
    assert_eq!(f[2].imports, ["github.com/x/log"]);
    assert!(f[1].strings.is_empty());
    assert_eq!(f[4].strings, ["hi"]);
    assert_eq!(
        read(PY, "from .billing.refunds import refund").imports,
        [".billing.refunds"]
    );
    assert_eq!(
        read(PY, "import os.path as p, json").imports,
        ["os.path", "json"]
    );
    assert_eq!(
        read(RS, "pub use crate::cart::{Cart, total};").imports,
        ["crate::cart"]
    );
}

#[test]
fn directive_prologues_are_not_text() {
    assert!(read(TS, r#""use client";"#).strings.is_empty());
    assert_eq!(read(TS, r#"label = "use client";"#).strings, ["use client"]);
}

// --- JSX ----------------------------------------------------------------------------------

#[test]
fn jsx_text_between_tags_is_text_not_identifiers() {
    let f = read(TS, "return <p className=\"note\">Saved to your cart!</p>;");
    assert_eq!(f.jsx_text, ["Saved to your cart!"]);
    assert!(f.identifiers.is_empty(), "{:?}", f.identifiers);
    assert!(f.strings.is_empty(), "{:?}", f.strings);
}

#[test]
fn jsx_naming_attributes_and_handlers_are_reported() {
    let f = read(
        TS,
        r#"<button data-testid="save-cart" aria-label='Save cart' className="btn" onClick={() => save(cart)} title="Save">Save</button>"#,
    );
    assert_eq!(
        f.jsx_attrs,
        [
            ("data-testid".to_string(), "save-cart".to_string()),
            ("aria-label".to_string(), "Save cart".to_string()),
            ("onClick".to_string(), "save".to_string()),
        ]
    );
    assert_eq!(f.calls, ["save"]);
    assert_eq!(f.strings, ["Save"]);
    assert_eq!(f.jsx_text, ["Save"]);
}

#[test]
fn jsx_literal_expression_attributes_are_literals() {
    let f = read(TS, r#"<Dialog aria-label={"Close dialog"} role={kind} />"#);
    assert_eq!(
        f.jsx_attrs,
        [("aria-label".to_string(), "Close dialog".to_string())]
    );
    assert_eq!(f.identifiers, ["Dialog", "kind"]);
}

#[test]
fn a_jsx_element_spread_over_lines_keeps_its_context() {
    let f = read_all(
        TS,
        &[
            "  return (",
            "    <button",
            "      data-testid=\"pay\"",
            "      onClick={() => pay(order)}",
            "    >",
            "      Pay now {formatPrice(total)}",
            "    </button>",
            "  );",
            "  const r = a / b;",
        ],
    );
    assert_eq!(
        f[2].jsx_attrs,
        [("data-testid".to_string(), "pay".to_string())]
    );
    assert_eq!(f[3].calls, ["pay"]);
    assert_eq!(f[5].jsx_text, ["Pay now"]);
    assert_eq!(f[5].calls, ["formatPrice"]);
    assert!(!f[5].identifiers.contains(&"Pay".to_string()));
    assert!(
        f[8].matcher_strings.is_empty(),
        "division after JSX: {:?}",
        f[8]
    );
    assert_eq!(f[8].identifiers, ["r", "a", "b"]);
}

#[test]
fn jsx_inside_an_expression_inside_jsx_is_read() {
    let f = read(
        TS,
        "<ul>{items.map((i) => <li key={i.id}>Item {i.name}</li>)}</ul>",
    );
    assert_eq!(f.calls, ["items.map"]);
    assert_eq!(f.jsx_text, ["Item"]);
    let f = read(TS, "<>{/* todo(x) */}<Spinner /></>");
    assert!(f.calls.is_empty());
    assert_eq!(f.comment.as_deref(), Some("todo(x)"));
    assert_eq!(f.identifiers, ["Spinner"]);
}

#[test]
fn typescript_generics_and_assertions_are_not_jsx() {
    let f = read(TS, "const id = <T,>(x: T) => wrap(x);");
    assert!(f.jsx_text.is_empty());
    assert_eq!(f.calls, ["wrap"]);
    let f = read(TS, "const id = <T>(x: T): T => wrap(x);");
    assert!(f.jsx_text.is_empty());
    assert_eq!(f.calls, ["wrap"]);
    let f = read_all(TS, &["const el = <HTMLElement>target;", "save(el);"]);
    assert!(f[0].jsx_text.is_empty());
    assert_eq!(f[0].identifiers, ["el", "HTMLElement", "target"]);
    assert_eq!(f[1].calls, ["save"]);
    assert!(read(TS, "function f<T extends Item>(x: T) {}")
        .jsx_text
        .is_empty());
}

#[test]
fn comparisons_are_not_jsx() {
    let f = read(TS, "if (a < b && c > d) { go(); }");
    assert!(f.jsx_text.is_empty());
    assert_eq!(f.calls, ["go"]);
    assert_eq!(f.identifiers, ["a", "b", "c", "d", "go"]);
}

#[test]
fn sibling_elements_on_following_lines_are_jsx_even_without_their_parent() {
    let f = read_all(
        TS,
        &["      <p>Saved!</p>", "      <Trans>Hello there</Trans>"],
    );
    assert_eq!(f[0].jsx_text, ["Saved!"]);
    assert_eq!(f[1].jsx_text, ["Hello there"]);
    assert_eq!(f[1].identifiers, ["Trans"]);
}

#[test]
fn a_stray_closing_tag_ends_jsx_context_and_code_continues() {
    let f = read_all(TS, &["    </div>", "  );", "  const t = a / b;"]);
    assert!(f[0].identifiers.is_empty());
    assert!(f[2].matcher_strings.is_empty());
    let f = read(TS, "</ p> </> <> </");
    assert!(f.calls.is_empty());
}

// --- test contracts -----------------------------------------------------------------------

#[test]
fn js_it_and_test_titles_are_contracts() {
    let lines = numbered(&[
        "describe(\"cart\", () => {",
        "  it(\"adds an item\", () => {",
        "  test.only('removes an item', async () => {",
        "  it.concurrent(`totals ${n} items`, () => {",
        "  test.each([[1], [2]])(\"doubles %i\", (n) => {",
    ]);
    let found = test_contracts(TS, "src/cart.test.ts", &lines);
    assert_eq!(
        titles(&found),
        [
            "adds an item",
            "removes an item",
            "totals ${n} items",
            "doubles %i"
        ]
    );
    assert_eq!(found[0].0, 11);
    assert_eq!(found[0].2, "js");
}

#[test]
fn js_describe_skipped_and_commented_tests_are_not_contracts() {
    let lines = numbered(&[
        "describe('cart', () => {",
        "  it.skip('later', () => {});",
        "  test.todo('someday');",
        "  // it('commented out', () => {});",
        "  const ok = /x/.test('abc');",
        "  expect(x).test('nope');",
        "  test.describe('grouped', () => {});",
    ]);
    assert!(test_contracts(TS, "src/cart.test.ts", &lines).is_empty());
}

#[test]
fn a_test_each_table_over_several_lines_still_gives_its_title() {
    let lines = numbered(&[
        "test.each([",
        "  [1, 2],",
        "  [3, 4],",
        "])('adds %i and %i', (a, b) => {",
    ]);
    let found = test_contracts(TS, "a.spec.js", &lines);
    assert_eq!(titles(&found), ["adds %i and %i"]);
}

#[test]
fn pytest_functions_in_test_files_are_contracts() {
    let lines = numbered(&[
        "def test_refund_is_recorded(db):",
        "class TestCart:",
        "    async def test_total(self):",
        "def helper():",
        "@pytest.mark.skip(reason='flaky')",
        "def test_skipped():",
        "@pytest.mark.parametrize('x', [1])",
        "def test_param(x):",
    ]);
    let found = test_contracts(PY, "tests/test_refunds.py", &lines);
    assert_eq!(
        titles(&found),
        ["test_refund_is_recorded", "test_total", "test_param"]
    );
    assert_eq!(found[1].0, 12);
    assert_eq!(found[0].2, "pytest");
    assert!(test_contracts(PY, "app/refunds.py", &lines).is_empty());
}

#[test]
fn go_test_functions_in_test_files_are_contracts() {
    let lines = numbered(&[
        "func TestRefund(t *testing.T) {",
        "func Testify(t *testing.T) {",
        "func TestMain(m *testing.M) {",
        "func BenchmarkRefund(b *testing.B) {",
        "func Test_edge(t *testing.T) {",
    ]);
    let found = test_contracts(GO, "pay/refund_test.go", &lines);
    assert_eq!(titles(&found), ["TestRefund", "Test_edge"]);
    assert_eq!(found[0].2, "go");
    assert!(test_contracts(GO, "pay/refund.go", &lines).is_empty());
}

#[test]
fn rust_test_attributes_attach_to_the_next_fn() {
    let lines = numbered(&[
        "#[test]",
        "fn refund_is_recorded() {",
        "#[tokio::test(flavor = \"multi_thread\")]",
        "#[should_panic]",
        "/// Documented.",
        "async fn refund_twice_fails() {",
        "#[test] fn inline() {}",
    ]);
    let found = test_contracts(RS, "src/refund.rs", &lines);
    assert_eq!(
        titles(&found),
        ["refund_is_recorded", "refund_twice_fails", "inline"]
    );
    assert_eq!(found[0].0, 11);
    assert_eq!(found[1].0, 15);
    assert_eq!(found[0].2, "rust");
}

#[test]
fn rust_test_attributes_are_broken_by_gaps_cfg_and_ignore() {
    let gap = vec![(10, "#[test]"), (12, "fn far_away() {")];
    assert!(test_contracts(RS, "src/a.rs", &gap).is_empty());
    let lines = numbered(&[
        "#[cfg(test)]",
        "mod tests {",
        "#[test]",
        "#[ignore]",
        "fn slow() {}",
        "#[test]",
        "let x = 1;",
        "fn not_after_code() {}",
    ]);
    assert!(test_contracts(RS, "src/a.rs", &lines).is_empty());
}

// --- annotations --------------------------------------------------------------------------

#[test]
fn jsdoc_tags_attach_to_the_exported_declaration_that_follows() {
    let lines = numbered(&[
        "/**",
        " * Refunds an order.",
        " * @qaFlow refunds",
        " * @qaStage action @qaRisk high",
        " */",
        "export async function refund(order) {",
    ]);
    assert_eq!(
        annotations(&lines),
        [
            (15, "qaFlow".to_string(), "refunds".to_string()),
            (15, "qaStage".to_string(), "action".to_string()),
            (15, "qaRisk".to_string(), "high".to_string()),
        ]
    );
}

#[test]
fn doc_comments_of_rust_python_and_go_attach_too() {
    let rust = numbered(&[
        "/// @qaFlow checkout",
        "#[instrument]",
        "pub async fn pay() {",
    ]);
    assert_eq!(
        annotations(&rust),
        [(12, "qaFlow".to_string(), "checkout".to_string())]
    );
    let python = numbered(&["# @qaOutcome refund recorded", "def refund(order):"]);
    assert_eq!(
        annotations(&python),
        [(11, "qaOutcome".to_string(), "refund recorded".to_string())]
    );
    let go = numbered(&[
        "// @qaFlow refunds",
        "func (s *Server) Refund(w http.ResponseWriter) {",
    ]);
    assert_eq!(
        annotations(&go),
        [(11, "qaFlow".to_string(), "refunds".to_string())]
    );
    let one_line = numbered(&["/** @qaFlow carts */ export const addItem = () => {};"]);
    assert_eq!(
        annotations(&one_line),
        [(10, "qaFlow".to_string(), "carts".to_string())]
    );
}

#[test]
fn an_annotation_without_an_added_exported_declaration_is_ignored() {
    assert!(annotations(&numbered(&["/** @qaFlow refunds */"])).is_empty());
    assert!(annotations(&numbered(&["// @qaFlow refunds", "const x = 1;"])).is_empty());
    assert!(annotations(&numbered(&["/// @qaFlow refunds", "fn private() {}"])).is_empty());
    assert!(annotations(&numbered(&["# @qaFlow refunds", "def _private():"])).is_empty());
    assert!(annotations(&numbered(&["# @qaFlow refunds", "    def method(self):"])).is_empty());
    assert!(annotations(&numbered(&["// @qaFlow refunds", "func refund() {"])).is_empty());
    assert!(annotations(&numbered(&[
        "// @qaFlow refunds",
        "",
        "export function refund() {}"
    ]))
    .is_empty());
    let gap = vec![
        (10, "// @qaFlow refunds"),
        (14, "export function refund() {}"),
    ];
    assert!(annotations(&gap).is_empty());
    assert!(annotations(&numbered(&["// @qaFlow", "export function refund() {}"])).is_empty());
}

// --- robustness ---------------------------------------------------------------------------

/// A small deterministic generator (xorshift), so the junk is the same on every run.
fn junk_lines(seed: u64, count: usize) -> Vec<String> {
    const PIECES: [&str; 40] = [
        "\"", "'", "`", "/", "*", "\\", "<", ">", "</", "/>", "{", "}", "${", "(", ")", "[", "]",
        "#", "!", "r#\"", "\"#", "\"\"\"", "'''", "f\"", "//", "/*", "*/", "é", "日本", "🦀", " ",
        "\t", "x", "save", "=", "=>", "::", ".", "?.", "@qaFlow",
    ];
    let mut s = seed;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let n = (next() % 40) as usize;
            (0..n)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect()
        })
        .collect()
}

#[test]
fn random_junk_never_panics_and_state_stays_bounded() {
    for lang in [TS, PY, RS, GO, Language::Other] {
        let lines = junk_lines(0x9e37_79b9_7f4a_7c15 ^ lang as u64, 3000);
        let mut st = LexState::default();
        for l in &lines {
            let f = read_line(lang, l, &mut st);
            assert!(
                st.modes.len() <= MAX_DEPTH,
                "{lang:?}: modes grew to {}",
                st.modes.len()
            );
            assert!(
                st.groups.len() <= 2 * MAX_DEPTH,
                "{lang:?}: groups grew to {}",
                st.groups.len()
            );
            assert!(f.calls.iter().all(|c| !c.is_empty()));
        }
        let numbered: Vec<(u32, &str)> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u32, l.as_str()))
            .collect();
        test_contracts(lang, "junk_test.go", &numbered);
        annotations(&numbered);
    }
}

#[test]
fn odd_single_lines_are_read_without_panicking() {
    for line in [
        "\\",
        "'",
        "\"",
        "`",
        "/",
        "<",
        "</",
        "r#",
        "b'",
        "f'{",
        "'\\",
        "${",
        "x = /[/",
        "é'",
        "<a b='é",
        "#[",
        "\u{feff}x",
    ] {
        for lang in [TS, PY, RS, GO, Language::Other] {
            let _ = read(lang, line);
        }
    }
    let f = read(TS, "naïve(crème);");
    assert_eq!(f.calls, ["naïve"]);
    assert_eq!(f.identifiers, ["naïve", "crème"]);
}
