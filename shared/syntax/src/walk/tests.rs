use super::{descend, ByKind, Walk};
use crate::{excerpt, parse, Grammar};

#[test]
fn a_fact_by_kind_is_the_fact_of_each_nodes_own_kind_name() {
    // `string` is both a named node (the literal) and a keyword token (the type) in the
    // TypeScript grammar: two ids, each with its own fact.
    let text = "let s: string = \"a\";\nlet n: number = 1;\n";
    let tree = parse(Grammar::TypeScript, text).expect("parsed");
    let (mut by_kind, mut asked) = (ByKind::default(), 0);
    let mut strings = Vec::new();
    descend(tree.root_node(), |n| {
        let fact = by_kind.of(n, |k| {
            asked += 1;
            (k, k == "string")
        });
        assert_eq!(fact.0, n.kind());
        if fact.1 {
            strings.push(n.is_named());
        }
        true
    });
    strings.sort();
    assert_eq!(strings, [false, true], "the keyword and the literal");
    let kinds: std::collections::BTreeSet<u16> = Walk::new(tree.root_node(), None)
        .all
        .iter()
        .map(|n| n.kind_id())
        .collect();
    assert_eq!(asked, kinds.len(), "each kind id asked once");
}

#[test]
fn a_walk_limited_to_ranges_keeps_only_the_nodes_that_touch_them() {
    let text = "fn a() { one(); }\nfn b() { two(); }\n";
    let tree = parse(Grammar::Rust, text).expect("parsed");
    let whole = Walk::new(tree.root_node(), None);
    let second = text.find("fn b").expect("b")..text.len();
    let part = Walk::new(tree.root_node(), Some(std::slice::from_ref(&second)));
    assert!(part.all.len() < whole.all.len());
    assert!(part.all[1..].iter().all(|n| n.end_byte() > second.start));
    assert!(whole
        .all
        .iter()
        .any(|n| n.end_byte() <= second.start && n.kind() == "function_item"));
}

#[test]
fn a_subtree_is_the_node_and_its_descendants_and_a_parent_is_known_without_asking() {
    let text = "fn a() { one(); }\nfn b() { two(); }\n";
    let tree = parse(Grammar::Rust, text).expect("parsed");
    let walk = Walk::new(tree.root_node(), None);
    let b = walk
        .all
        .iter()
        .rposition(|n| n.kind() == "function_item")
        .expect("b");
    let sub = walk.subtree(walk.all[b]);
    assert_eq!(
        sub.len(),
        walk.all.len() - b,
        "b is last: its subtree runs to the end"
    );
    assert_eq!(walk.parent(b), Some(tree.root_node()));
    assert_eq!(walk.parent(0), None, "the root has none");
}

#[test]
fn an_excerpt_is_one_line_and_bounded() {
    assert_eq!(excerpt("f(\n    a,\n    b)"), "f( a, b)");
    let long = "x".repeat(130);
    let cut = excerpt(&long);
    assert_eq!(cut.chars().count(), 121);
    assert!(cut.ends_with('…'));
    assert_eq!(excerpt("short"), "short", "a short one is kept whole");
}
