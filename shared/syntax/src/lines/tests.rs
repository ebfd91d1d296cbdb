use super::*;
use crate::parse;

/// The facts of every line of `text`.
fn lines(g: Grammar, text: &str) -> Vec<LineFacts> {
    let tree = parse(g, text).expect("parsed");
    let n = text.lines().count() as u32;
    read(g, &tree, text, &(1..=n).collect())
        .into_values()
        .collect()
}

fn one(g: Grammar, text: &str) -> LineFacts {
    lines(g, text).remove(0)
}

const TS: Grammar = Grammar::TypeScript;
const TSX: Grammar = Grammar::Tsx;

#[test]
fn calls_name_their_callee_without_the_receiver_keyword() {
    assert_eq!(one(TS, "saveCart(cart);").calls, ["saveCart"]);
    assert_eq!(one(TS, "this.store.save(cart);").calls, ["store.save"]);
    assert_eq!(one(TS, "/x/.test(s);").calls, [".test"]);
    assert_eq!(
        one(Grammar::Rust, "let a = Foo::new(); println!(\"x\");").calls,
        ["Foo::new", "println!"]
    );
}

#[test]
fn identifiers_leave_out_keywords_and_receivers_but_keep_member_names() {
    let f = one(TS, "for (const item of items) { cart.delete(item); }");
    assert_eq!(f.identifiers, ["item", "items", "cart", "delete"]);
    let f = one(
        Grammar::Python,
        "if self.total is None and not done:\n    pass\n",
    );
    assert_eq!(f.identifiers, ["total", "done"]);
}

#[test]
fn strings_are_text_and_module_specifiers_are_imports() {
    let f = one(TS, "import { saveCart } from \"./cart\";");
    assert_eq!(f.imports, ["./cart"]);
    assert!(f.strings.is_empty());
    assert_eq!(
        one(TS, "const fs = require(\"node:fs\");").imports,
        ["node:fs"]
    );
    assert_eq!(one(TS, "const from = \"Sender\";").strings, ["Sender"]);
    assert_eq!(
        one(TS, "if (s.includes(\"abc\")) {}").matcher_strings,
        ["abc"]
    );
}

#[test]
fn a_string_spread_over_lines_is_never_code() {
    let f = lines(TS, "const s = `line one\nnot(code) here\n`;\n");
    assert!(f[1].calls.is_empty(), "{:?}", f[1].calls);
    assert!(f[1].identifiers.is_empty());
}

#[test]
fn jsx_text_attributes_and_handlers() {
    let f = one(
        TSX,
        "const b = <button data-testid=\"pay\" onClick={() => save(cart)}>Save</button>;",
    );
    assert_eq!(f.jsx_text, ["Save"]);
    assert!(f
        .jsx_attrs
        .contains(&("data-testid".to_string(), "pay".to_string())));
    assert!(f
        .jsx_attrs
        .contains(&("onClick".to_string(), "save".to_string())));
    assert!(f.calls.contains(&"save".to_string()));
}

#[test]
fn declarations_and_exports() {
    let f = one(TS, "export function saveCart(cart: Cart) {}");
    assert_eq!(f.declared, ["saveCart"]);
    assert!(f.exported);
    let f = one(Grammar::Rust, "pub fn refund(a: i64) -> i64 { a }");
    assert_eq!(f.declared, ["refund"]);
    assert!(f.exported);
    assert!(!one(Grammar::Rust, "fn helper() {}").exported);
}

#[test]
fn comments_are_comments_not_code() {
    let f = one(TS, "// todo(x): call save()");
    assert!(f.calls.is_empty());
    assert_eq!(f.comment.as_deref(), Some("todo(x): call save()"));
}

#[test]
fn java_lines_give_calls_imports_declarations_and_messages() {
    let src = "import com.shop.Cart;\npublic class Pay {\n    @Override\n    public int save(int id) {\n        this.store.save(new Cart<>(id));\n        throw new IllegalStateException(\"card declined\");\n    }\n    boolean ok(String s) { return s.matches(\"[a-z]+\"); }\n}\n";
    let f = lines(Grammar::Java, src);
    assert_eq!(f[0].imports, ["com.shop.Cart"]);
    assert_eq!(f[1].declared, ["Pay"]);
    assert!(f[1].exported);
    // The name under its annotation is declared on its own line.
    assert_eq!(f[3].declared, ["save"]);
    assert!(f[3].exported);
    assert_eq!(f[4].calls, ["store.save", "Cart"]);
    assert_eq!(f[5].strings, ["card declined"]);
    assert_eq!(f[7].matcher_strings, ["[a-z]+"]);
    assert!(f[7].strings.is_empty());
    assert!(!f[7].exported);
}

// The behaviours the hand line lexer's tests pinned, read from trees now.

const RS: Grammar = Grammar::Rust;
const PY: Grammar = Grammar::Python;
const GO: Grammar = Grammar::Go;

/// `body` inside a Go function, its facts.
fn go_line(body: &str) -> LineFacts {
    lines(GO, &format!("package p\nfunc f() {{\n{body}\n}}\n")).remove(2)
}

#[test]
fn a_call_in_code_is_a_call_but_not_inside_a_string() {
    let f = one(TS, r#"log("saveCart(cart) failed", 'deleteAll()');"#);
    assert_eq!(f.calls, ["log"]);
    assert_eq!(f.identifiers, ["log"]);
    assert_eq!(f.strings, ["saveCart(cart) failed", "deleteAll()"]);
}

#[test]
fn line_comments_hide_calls_in_every_language() {
    for (g, text, comment) in [
        (TS, "x = 1; // deleteAll(db)", "deleteAll(db)"),
        (
            RS,
            "fn f() { let x = 1; } // deleteAll(db)",
            "deleteAll(db)",
        ),
        (PY, "x = 1  # deleteAll(db)", "deleteAll(db)"),
    ] {
        let f = one(g, text);
        assert!(f.calls.is_empty(), "{g:?}: {:?}", f.calls);
        assert_eq!(f.comment.as_deref(), Some(comment), "{g:?}");
    }
    let f = go_line("x := 1 // deleteAll(db)");
    assert!(f.calls.is_empty());
    assert_eq!(f.comment.as_deref(), Some("deleteAll(db)"));
    assert_eq!(one(TS, "x = 1;").comment, None);
}

#[test]
fn a_block_comment_spans_lines_and_code_after_it_counts() {
    let f = lines(
        TS,
        "/**\n * Calls deleteAll(db) on purge.\n */ purge(db);\ndone();\n",
    );
    assert!(f[1].calls.is_empty());
    assert!(f[1].identifiers.is_empty());
    assert_eq!(f[2].calls, ["purge"]);
    assert_eq!(f[3].calls, ["done"]);
}

#[test]
fn rust_block_comments_nest() {
    let f = one(
        RS,
        "/* outer /* inner */ still(comment) */ fn f() { real(); }",
    );
    assert_eq!(f.calls, ["real"]);
}

#[test]
fn a_hash_starts_a_python_comment_but_not_inside_a_string() {
    let f = one(PY, r##"tag = "#deleteAll(db)"  # purge(db)"##);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert_eq!(f.strings, ["#deleteAll(db)"]);
    assert_eq!(f.comment.as_deref(), Some("purge(db)"));
}

#[test]
fn a_js_regex_literal_is_matcher_vocabulary_not_code() {
    let f = one(TS, r"if (/\bcalendar\(/i.test(x)) { open(x); }");
    assert_eq!(f.calls, [".test", "open"]);
    assert!(!f.identifiers.contains(&"calendar".to_string()));
    assert_eq!(f.matcher_strings, [r"\bcalendar\("]);
}

#[test]
fn division_is_not_a_regex() {
    let f = one(TS, "const r = a / b / c;");
    assert_eq!(f.identifiers, ["r", "a", "b", "c"]);
    assert!(f.matcher_strings.is_empty());
    let f = one(TS, "const avg = total(xs) / count(xs) / 2;");
    assert_eq!(f.calls, ["total", "count"]);
    assert!(f.matcher_strings.is_empty());
}

#[test]
fn a_regex_may_contain_a_slash_in_a_class() {
    let f = one(TS, r"function f(line) { return /[/]save\(/.exec(line); }");
    assert_eq!(f.matcher_strings, [r"[/]save\("]);
    assert_eq!(f.calls, [".exec"]);
}

#[test]
fn a_template_literal_spans_lines_with_its_interpolations() {
    let f = lines(
        TS,
        "const msg = `Dear ${name},\nplease pay(now) ${fmt(total)}\nthanks`; send(msg);\n",
    );
    assert!(f[1].calls == ["fmt"], "{:?}", f[1].calls);
    assert!(!f[1].identifiers.contains(&"pay".to_string()));
    assert_eq!(f[2].calls, ["send"]);
}

#[test]
fn rust_raw_strings_hide_quotes_and_calls() {
    let f = one(
        RS,
        r####"fn f() { let s = r#"say "hi"; delete_all()"#; notify(s); }"####,
    );
    assert_eq!(f.calls, ["notify"]);
    assert_eq!(f.strings, [r#"say "hi"; delete_all()"#]);
}

#[test]
fn rust_char_literals_and_lifetimes_do_not_open_strings() {
    let f = one(
        RS,
        r#"fn quote<'a>(s: &'a str) -> char { let q = '"'; emit(q); '\'' }"#,
    );
    assert_eq!(f.declared, ["quote", "q"]);
    assert_eq!(f.calls, ["emit"]);
    assert!(f.strings.is_empty(), "{:?}", f.strings);
}

#[test]
fn rust_strings_continue_on_the_next_line() {
    let f = lines(
        RS,
        "fn f() {\nlet help = \"usage: run(\n  then stop()\"; start();\n}\n",
    );
    assert!(f[1].calls.is_empty());
    assert!(f[2].calls == ["start"], "{:?}", f[2].calls);
    assert!(!f[2].identifiers.contains(&"stop".to_string()));
}

#[test]
fn python_f_string_expressions_are_code_and_plain_braces_are_text() {
    let f = one(PY, r#"msg = f"Hello {name(user)!r:>10}, {{literal(x)}}""#);
    assert_eq!(f.calls, ["name"]);
    let f = one(PY, r#"msg = "Hello {name(user)}""#);
    assert!(f.calls.is_empty());
    assert_eq!(f.strings, ["Hello {name(user)}"]);
}

#[test]
fn python_triple_quoted_strings_span_lines() {
    let f = lines(PY, "SQL = \"\"\"\ndelete_all(users)\n\"\"\"; run(SQL)\n");
    assert!(f[1].calls.is_empty());
    assert!(f[1].identifiers.is_empty());
    assert_eq!(f[2].calls, ["run"]);
}

#[test]
fn go_raw_strings_span_lines_and_runes_do_not_open_strings() {
    let f = lines(
        GO,
        "package p\nfunc f() {\nq := `SELECT count(*)\nFROM t` ; run(q)\n}\n",
    );
    assert!(f[2].calls.is_empty());
    assert_eq!(f[2].declared, ["q"]);
    assert_eq!(f[3].calls, ["run"]);
    assert_eq!(go_line(r#"if c == '"' { quote(c) }"#).calls, ["quote"]);
}

#[test]
fn strings_given_to_matchers_are_matcher_vocabulary() {
    let f = one(TS, r#"const re = new RegExp("calendar|date", "i");"#);
    assert_eq!(f.matcher_strings, ["calendar|date", "i"]);
    assert!(f.strings.is_empty());
    let f = one(
        TS,
        r#"if (msg.includes("Saved") || name.startsWith('tmp')) {}"#,
    );
    assert_eq!(f.matcher_strings, ["Saved", "tmp"]);
    assert!(f.strings.is_empty());
}

#[test]
fn strings_given_to_ordinary_calls_stay_text() {
    let f = one(TS, r#"toast("Saved"); test("adds an item", () => {});"#);
    assert_eq!(f.strings, ["Saved", "adds an item"]);
    assert!(f.matcher_strings.is_empty());
    // Only the matcher's own arguments count, not those of a call nested inside.
    let f = one(TS, r#"if (text.includes(t("cart.saved"))) {}"#);
    assert_eq!(f.strings, ["cart.saved"]);
    assert!(f.matcher_strings.is_empty());
}

#[test]
fn matcher_arguments_on_following_lines_stay_matcher_vocabulary() {
    let f = lines(
        TS,
        "const re = new RegExp(\n  \"refund|chargeback\",\n);\nnotify(\"Refunded\");\n",
    );
    assert_eq!(f[1].matcher_strings, ["refund|chargeback"]);
    assert!(f[1].strings.is_empty());
    assert_eq!(f[3].strings, ["Refunded"]);
}

#[test]
fn python_rust_and_go_matchers_are_recognised() {
    assert_eq!(
        one(PY, r#"PAT = re.compile(r"\d+ items")"#).matcher_strings,
        [r"\d+ items"]
    );
    assert_eq!(
        one(PY, "if name.startswith(\"tmp_\"):\n    pass\n").matcher_strings,
        ["tmp_"]
    );
    assert_eq!(one(PY, r#"print("tmp_")"#).strings, ["tmp_"]);
    let rust = one(
        RS,
        r#"fn f() { if line.contains("TODO") { warn("TODO found"); } }"#,
    );
    assert_eq!(rust.matcher_strings, ["TODO"]);
    assert_eq!(rust.strings, ["TODO found"]);
    let go = go_line(r#"if strings.HasPrefix(s, "v") { log.Print("w") }"#);
    assert_eq!(go.matcher_strings, ["v"]);
    assert_eq!(go.strings, ["w"]);
}

#[test]
fn a_bare_test_call_is_not_a_matcher_but_a_method_test_is() {
    assert!(one(TS, r#"test("matches x", fn);"#)
        .matcher_strings
        .is_empty());
    assert_eq!(one(TS, r#"pattern.test("x")"#).matcher_strings, ["x"]);
}

#[test]
fn keywords_followed_by_a_parenthesis_are_not_calls() {
    for text in [
        "if (ok) {}",
        "for (const x of xs) {}",
        "while (next) {}",
        "switch (kind) {}",
        "function f() { return (a + b); }",
        "x = typeof (y);",
        "try {} catch (e) {}",
    ] {
        assert!(
            one(TS, text).calls.is_empty(),
            "{text}: {:?}",
            one(TS, text).calls
        );
    }
    assert_eq!(one(TS, "iff(ok);").calls, ["iff"]);
    assert!(one(RS, "fn f() { match (a, b) { _ => {} } }")
        .calls
        .is_empty());
    assert!(one(PY, "if (ok) and not (done):\n    pass\n")
        .calls
        .is_empty());
    assert_eq!(one(PY, "print(ok)").calls, ["print"]);
    assert!(go_line("if (a > b) {}").calls.is_empty());
}

#[test]
fn a_declared_function_is_not_a_call() {
    for (g, text, name) in [
        (TS, "function saveCart(cart) {}", "saveCart"),
        (TS, "export async function* stream(x) {}", "stream"),
        (PY, "def save_cart(cart):\n    pass\n", "save_cart"),
        (PY, "async def save_cart(cart):\n    pass\n", "save_cart"),
        (
            RS,
            "pub fn save_cart(cart: &Cart) -> Result<()> {}",
            "save_cart",
        ),
        (GO, "func SaveCart(c *Cart) error {}", "SaveCart"),
    ] {
        let f = one(g, text);
        assert_eq!(f.declared, [name], "{text}");
        assert!(f.calls.is_empty(), "{text}: {:?}", f.calls);
    }
}

#[test]
fn callee_names_keep_their_receiver() {
    // The outer call first: calls stand in the order their nodes start.
    assert_eq!(
        one(TS, "res.status(404).json({ error });").calls,
        [".json", "res.status"]
    );
    assert_eq!(one(TS, "const c = new Cart(items);").calls, ["Cart"]);
    assert_eq!(
        one(RS, "fn f() { let c = Cart::new(items); }").calls,
        ["Cart::new"]
    );
    assert_eq!(
        one(RS, "fn f() { self.items.push(x); }").calls,
        ["items.push"]
    );
    assert_eq!(one(PY, "self.repo.save(order)").calls, ["repo.save"]);
    assert_eq!(go_line("fmt.Println(total)").calls, ["fmt.Println"]);
}

#[test]
fn rust_macros_are_calls_with_a_bang() {
    let f = one(
        RS,
        r#"fn f() { println!("saved {}", id); let v = vec![1]; assert!{ok}; }"#,
    );
    assert_eq!(f.calls, ["println!", "vec!", "assert!"]);
    assert!(one(RS, "fn f() { if !(a && b) {} }").calls.is_empty());
}

#[test]
fn generic_calls_name_the_function() {
    assert_eq!(
        one(TS, r#"const [v, setV] = useState<string | null>("");"#).calls,
        ["useState"]
    );
    assert_eq!(
        one(RS, "fn f() { let v = it.collect::<Vec<_>>(); }").calls,
        ["it.collect"]
    );
}

#[test]
fn typescript_declarations_are_named() {
    assert_eq!(one(TS, "const total = sum(items);").declared, ["total"]);
    assert_eq!(
        one(TS, "export class CartStore extends Store {}").declared,
        ["CartStore"]
    );
    assert_eq!(one(TS, "export interface Cart {}").declared, ["Cart"]);
    assert_eq!(
        one(TS, "export type Status = 'open' | 'paid';").declared,
        ["Status"]
    );
    assert_eq!(one(TS, "export const enum Mode { A }").declared, ["Mode"]);
}

#[test]
fn object_keys_named_type_and_plain_calls_declare_nothing() {
    assert!(lines(TS, "x = {\n  type: 'refund',\n};\n")[1]
        .declared
        .is_empty());
    assert!(one(TS, "save(item);").declared.is_empty());
    assert!(one(TS, "x.class = 1;").declared.is_empty());
}

#[test]
fn a_class_method_definition_is_a_declaration_not_a_call() {
    let f = lines(
        TS,
        "class A {\n  async save(item: Item): Promise<void> {}\n  get total() { return 1; }\n}\n",
    );
    assert_eq!(f[1].declared, ["save"]);
    assert!(f[1].calls.is_empty(), "{:?}", f[1].calls);
    assert_eq!(f[2].declared, ["total"]);
}

#[test]
fn export_and_pub_mark_the_line_exported_and_restricted_visibility_does_not() {
    let f = one(TS, "export const saveCart = async (cart) => {};");
    assert!(f.exported);
    assert_eq!(f.declared, ["saveCart"]);
    assert!(f.calls.is_empty());
    assert!(one(TS, "export default function CartPage() {}").exported);
    assert!(!one(TS, "const saveCart = async (cart) => {};").exported);
    assert!(one(RS, "pub struct Cart {}").exported);
    assert!(!one(RS, "pub(crate) fn total() -> u32 {}").exported);
    assert_eq!(
        one(RS, "pub(crate) fn total() -> u32 {}").declared,
        ["total"]
    );
}

#[test]
fn rust_declarations_are_named() {
    assert_eq!(
        one(RS, "pub const fn limit() -> u32 {}").declared,
        ["limit"]
    );
    assert_eq!(one(RS, "static mut COUNT: u32 = 0;").declared, ["COUNT"]);
    assert_eq!(
        one(RS, "fn f() { let total = 0; }").declared,
        ["f", "total"]
    );
    assert_eq!(one(RS, "pub enum Status { Open }").declared, ["Status"]);
    assert_eq!(one(RS, "trait Store {}").declared, ["Store"]);
}

#[test]
fn rust_attributes_are_neither_calls_nor_text() {
    let f = one(RS, "#[serde(rename = \"order_id\")]\nstruct A;\n");
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    assert!(f.strings.is_empty(), "{:?}", f.strings);
    let f = one(RS, "#[derive(Debug, Clone)] struct A;");
    assert!(f.calls.is_empty());
    assert_eq!(f.declared, ["A"]);
}

#[test]
fn go_python_and_rust_imports_are_module_specifiers() {
    let f = lines(
        GO,
        "package p\nimport (\n\t\"net/http\"\n\tlog \"github.com/x/log\"\n)\nvar msg = \"hi\"\n",
    );
    assert_eq!(f[2].imports, ["net/http"]);
    assert_eq!(f[3].imports, ["github.com/x/log"]);
    assert!(f[2].strings.is_empty());
    assert_eq!(f[5].strings, ["hi"]);
    assert_eq!(
        one(PY, "from .billing.refunds import refund").imports,
        [".billing.refunds"]
    );
    assert_eq!(
        one(RS, "pub use crate::cart::{Cart, total};").imports,
        ["crate::cart"]
    );
    assert_eq!(
        one(TS, r#"const m = await import("./lazy");"#).imports,
        ["./lazy"]
    );
}

#[test]
fn jsx_text_between_tags_is_text_not_identifiers() {
    let f = one(
        TSX,
        "const p = <p className=\"note\">Saved to your cart!</p>;",
    );
    assert_eq!(f.jsx_text, ["Saved to your cart!"]);
    assert!(!f.identifiers.contains(&"Saved".to_string()));
}

#[test]
fn a_jsx_element_spread_over_lines_keeps_its_context() {
    let f = lines(
        TSX,
        "const b = (\n    <button\n      data-testid=\"pay\"\n      onClick={() => pay(order)}\n    >\n      Pay now {formatPrice(total)}\n    </button>\n  );\nconst r = a / b;\n",
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
fn typescript_generics_and_comparisons_are_not_jsx() {
    let f = one(TS, "const id = <T,>(x: T) => wrap(x);");
    assert!(f.jsx_text.is_empty());
    assert_eq!(f.calls, ["wrap"]);
    let f = one(TS, "const el = <HTMLElement>target;");
    assert!(f.jsx_text.is_empty());
    let f = one(TSX, "if (a < b && c > d) { go(); }");
    assert!(f.jsx_text.is_empty());
    assert_eq!(f.calls, ["go"]);
}

/// What a component's lines say, every line read.
fn component(text: &str) -> Vec<LineFacts> {
    let n = text.lines().count() as u32;
    read_component(text, &(1..=n).collect())
        .into_values()
        .collect()
}

#[test]
fn a_component_script_is_read_by_its_grammar_at_its_own_lines() {
    let f = component("<template>\n  <p>Hi</p>\n</template>\n<script setup lang=\"ts\">\nconst total = sum(items);\n// save(cart)\n</script>\n");
    assert_eq!(f[4].calls, ["sum"]);
    assert_eq!(f[4].declared, ["total"]);
    assert!(f[5].calls.is_empty());
    assert_eq!(f[5].comment.as_deref(), Some("save(cart)"));
}

#[test]
fn component_markup_shows_its_text_but_not_its_comments_expressions_or_styles() {
    let f = component("<template>\n  <button data-testid=\"pay\" @click=\"pay\">Pay now</button>\n  <!-- Save the name -->\n  <p>Total: {{ format(total) }}</p>\n</template>\n<style>\n.a { color: rgba(0, 0, 0, 1); }\n</style>\n");
    assert_eq!(f[1].jsx_text, ["Pay now"]);
    assert_eq!(
        f[1].jsx_attrs,
        [("data-testid".to_string(), "pay".to_string())]
    );
    assert!(f[2].jsx_text.is_empty(), "{:?}", f[2]);
    assert_eq!(f[3].jsx_text, ["Total:"]);
    assert!(f[3].calls.is_empty());
    assert_eq!(f[6], LineFacts::default());
}

#[test]
fn broken_input_never_panics() {
    for g in [TS, TSX, RS, PY, GO, Grammar::Java, Grammar::Kotlin] {
        for input in crate::testing::broken_inputs() {
            let _ = lines(g, &input);
        }
    }
    for input in crate::testing::broken_inputs() {
        let _ = component(&input);
        let _ = component(&format!("<template>{input}</template><script>{input}"));
    }
    let f = one(TS, "naïve(crème);");
    assert_eq!(f.calls, ["naïve"]);
    assert_eq!(f.identifiers, ["naïve", "crème"]);
}
