//! The matcher alone: forests of hand-written base and head texts, matched as a range.

use super::*;
use crate::trees::{parse, Grammar};

/// The forest of `text`'s lines `from..=to` (1-based), as if the change removed or added them.
fn forest(grammar: Grammar, text: &str, from: u32, to: u32) -> Forest {
    let tree = parse(grammar, text).unwrap();
    Forest::of(&tree, text, &(from..=to).collect())
}

/// The bytes of the first occurrence of `code` in `text`.
fn at(text: &str, code: &str) -> Range<usize> {
    let start = text
        .find(code)
        .unwrap_or_else(|| panic!("{code:?} not in {text:?}"));
    start..start + code.len()
}

/// Matches one removed and one added forest.
fn matched(mut removed: Forest, mut added: Forest) -> (Forest, Forest) {
    match_all(&mut [&mut removed], &mut [&mut added]);
    (removed, added)
}

const ARM_BASE: &str = "fn f(x: Kind) -> u32 {\n    match x {\n        Kind::A => 1,\n        Kind::B => unreachable!(\"B is filtered out\"),\n    }\n}\n";

#[test]
fn a_match_arm_moved_into_a_helper_is_matched_whole() {
    let head = "fn f(x: Kind) -> u32 {\n    match x {\n        Kind::A => 1,\n        other => g(other),\n    }\n}\nfn g(x: Kind) -> u32 {\n    match x {\n        Kind::B => unreachable!(\"B is filtered out\"),\n        _ => 0,\n    }\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, ARM_BASE, 4, 4),
        forest(Grammar::Rust, head, 4, 12),
    );
    let exit = at(ARM_BASE, "unreachable!(\"B is filtered out\")");
    assert_eq!(base.matched(&exit), Matched::Whole);
    let arm = at(ARM_BASE, "Kind::B => unreachable!(\"B is filtered out\"),");
    assert_eq!(base.matched(&arm), Matched::Whole);
}

#[test]
fn a_removed_exit_without_a_counterpart_is_unmatched() {
    let head = "fn f(x: Kind) -> u32 {\n    match x {\n        Kind::A => 1,\n        Kind::B => 2,\n    }\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, ARM_BASE, 4, 4),
        forest(Grammar::Rust, head, 4, 4),
    );
    let exit = at(ARM_BASE, "unreachable!(\"B is filtered out\")");
    assert_eq!(base.matched(&exit), Matched::No);
}

#[test]
fn layout_and_comments_do_not_stop_a_match() {
    let head = "fn g(x: Kind) -> u32 {\n    match x {\n        // B never reaches here\n        Kind::B =>\n            unreachable!( \"B is filtered out\" ),\n        _ => 0,\n    }\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, ARM_BASE, 4, 4),
        forest(Grammar::Rust, head, 1, 8),
    );
    assert!(base.moved(&at(ARM_BASE, "unreachable!(\"B is filtered out\")")));
}

const LIMIT: &str = "fn check(len: usize, max: usize) {\n    if len > max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }\n}\n";

#[test]
fn a_block_with_its_variables_renamed_is_matched_by_its_renamed_hash() {
    let head = "fn check(n: usize, limit: usize) {\n    if n > limit {\n        log(n, limit);\n        panic!(\"too long: {len} > {max}\");\n    }\n}\n";
    let (base, added) = matched(
        forest(Grammar::Rust, LIMIT, 1, 6),
        forest(Grammar::Rust, head, 1, 6),
    );
    assert!(base.moved(&at(LIMIT, "len > max")));
    assert!(added.moved(&at(head, "n > limit")));
}

#[test]
fn a_renamed_statement_too_small_to_be_a_block_is_not_matched() {
    let before = "fn a() {\n    let n = x.len();\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, before, 2, 2),
        forest(Grammar::Rust, "fn a() {\n    let m = y.len();\n}\n", 2, 2),
    );
    assert_eq!(base.matched(&at(before, "let n = x.len();")), Matched::No);
}

#[test]
fn a_block_whose_condition_changed_is_not_matched_whole_but_its_body_is() {
    let head = "fn check(len: usize, max: usize) {\n    if len >= max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }\n}\n";
    let (base, added) = matched(
        forest(Grammar::Rust, LIMIT, 2, 5),
        forest(Grammar::Rust, head, 2, 5),
    );
    let block = at(LIMIT, "if len > max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }");
    assert_ne!(base.matched(&block), Matched::Whole);
    assert_eq!(base.matched(&at(LIMIT, "len > max")), Matched::No);
    assert_eq!(added.matched(&at(head, "len >= max")), Matched::No);
    assert!(base.moved(&at(LIMIT, "panic!(\"too long: {len} > {max}\")")));
}

#[test]
fn a_block_moved_with_one_statement_edited_is_matched_mostly() {
    let before = "fn f(len: usize, max: usize) {\n    if len > max {\n        log(len, max);\n        trim(len, max, \"tail\");\n        panic!(\"too long\");\n    }\n}\n";
    let head = "fn g(len: usize, max: usize) {\n    if len > max {\n        log(len, max);\n        trim(len, max, \"tail\");\n        warn(\"too long\");\n    }\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, before, 2, 6),
        forest(Grammar::Rust, head, 1, 7),
    );
    let block = at(before, "if len > max {\n        log(len, max);\n        trim(len, max, \"tail\");\n        panic!(\"too long\");\n    }");
    assert_eq!(base.matched(&block), Matched::Mostly);
    assert_eq!(
        base.matched(&at(before, "panic!(\"too long\")")),
        Matched::No
    );
}

#[test]
fn a_python_raise_moved_to_another_file_is_matched_and_a_removed_one_is_not() {
    let base = "def parse(s):\n    if not s:\n        raise ValueError(\"empty\")\n    return s\n";
    let other = "def require(s):\n    if not s:\n        raise ValueError(\"empty\")\n";
    let gone = "def require(s):\n    return s\n";
    let raise = at(base, "raise ValueError(\"empty\")");
    let (moved, _) = matched(
        forest(Grammar::Python, base, 2, 3),
        forest(Grammar::Python, other, 1, 3),
    );
    assert!(moved.moved(&raise));
    let (removed, _) = matched(
        forest(Grammar::Python, base, 2, 3),
        forest(Grammar::Python, gone, 1, 2),
    );
    assert_eq!(removed.matched(&raise), Matched::No);
}

#[test]
fn only_nodes_overlapping_the_changed_lines_are_in_the_forest() {
    let f = forest(Grammar::Rust, LIMIT, 4, 4);
    // The `if` spans the changed line: a changed node, hashed whole.
    let block = at(LIMIT, "if len > max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }");
    assert!(f.twigs.iter().any(|t| t.bytes == block));
    // `log(len, max);` stands on an unchanged line: counted in its parents only.
    let log = at(LIMIT, "log(len, max);");
    assert!(f.twigs.iter().all(|t| t.bytes.start != log.start));
}

#[test]
fn a_block_split_by_the_diff_between_changed_and_unchanged_lines_still_matches() {
    // Only the `if` line changed on each side (the diff aligns the rest as unchanged).
    let head = "fn g(a: u32) {}\nfn check(len: usize, max: usize) {\n    if len > max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }\n}\n";
    let (base, _) = matched(
        forest(Grammar::Rust, LIMIT, 2, 2),
        forest(Grammar::Rust, head, 1, 3),
    );
    let block = at(LIMIT, "if len > max {\n        log(len, max);\n        panic!(\"too long: {len} > {max}\");\n    }");
    assert!(base.moved(&block));
}
