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
