use super::*;

/// The verdict on files given as (path, base, head); an empty side is an absent file.
fn verdict_of(files: &[(&str, &str, &str)]) -> Verdict {
    fn side<'a>(path: &str, text: &'a str) -> Lines<'a> {
        lines_of(path, (!text.is_empty()).then_some(text))
    }
    let files: Vec<Differs> = files
        .iter()
        .filter_map(|(path, base, head)| Differs::of(&side(path, base), &side(path, head)))
        .collect();
    judge(&files)
}

/// Asserts the verdict on one file changed from `base` to `head`.
fn assert_one(path: &str, base: &str, head: &str, expected: Verdict) {
    assert_eq!(
        verdict_of(&[(path, base, head)]),
        expected,
        "{path}:\n{head}"
    );
}

const PARSE: &str = "fn parse(input: &str) -> u32 {\n    let value = input.trim();\n    if value.is_empty() {\n        return 0;\n    }\n    value.len() as u32\n}\n";

#[test]
fn a_renamed_local_and_new_layout_are_the_same_code_up_to_a_renaming() {
    let head = "fn parse(input: &str) -> u32 {\n    let trimmed = input.trim();\n    if trimmed.is_empty() { return 0; }\n    trimmed.len() as u32\n}\n";
    assert_one("src/a.rs", PARSE, head, Verdict::Renamed);
    let relaid = "fn parse(input: &str) -> u32 {\n    let value = input.trim();\n    if value.is_empty() { return 0; }\n    value.len() as u32\n}\n";
    assert_one("src/a.rs", PARSE, relaid, Verdict::Neutral);
}

const PY: &str = "class Request:\n    def __init__(self, hooks=None, data=None):\n        self.hooks = hooks or {}\n        self.data = data\n\n    def body(self, limit=10):\n        return self.data[:limit]\n";

#[test]
fn python_annotations_alone_are_neutral() {
    let typed = "class Request:\n    hooks: dict[str, list[Hook]]\n\n    def __init__(self, hooks: dict | None = None, data: bytes = None) -> None:\n        self.hooks = hooks or {}\n        self.data = data\n\n    def body(self, limit: int = 10) -> bytes:\n        return self.data[:limit]\n";
    assert_one("src/models.py", PY, typed, Verdict::Neutral);
    // A pragma is a comment too.
    let ignored = PY.replace(
        "self.data = data",
        "self.data = data  # type: ignore[assignment]",
    );
    assert_one("src/models.py", PY, &ignored, Verdict::Neutral);
}

#[test]
fn a_changed_python_docstring_is_neutral_and_a_changed_string_statement_elsewhere_is_not() {
    let documented = "\"\"\"Requests.\"\"\"\n\nclass Request:\n    \"\"\"A request.\"\"\"\n\n    def body(self, limit=10):\n        \"\"\"The body, cut.\"\"\"\n        return self.data[:limit]\n";
    let reworded = documented
        .replace("Requests.", "HTTP requests.")
        .replace(
            "A request.",
            "An outgoing request.\n\n    Prefer the client.",
        )
        .replace("The body, cut.", "The body, cut at `limit` bytes.");
    assert_one("src/models.py", documented, &reworded, Verdict::Neutral);
    // A string statement after the first is code that runs (and is no docstring).
    let late = documented.replace(
        "        return self.data[:limit]",
        "        \"\"\"Second.\"\"\"\n        return self.data[:limit]",
    );
    assert_one("src/models.py", documented, &late, Verdict::Changes);
    // A string returned is a value.
    let returned = "def name():\n    return \"fd\"\n";
    assert_one(
        "src/a.py",
        returned,
        &returned.replace("fd", "fdfind"),
        Verdict::Changes,
    );
}

#[test]
fn a_python_annotation_with_a_changed_value_is_a_change() {
    let typed = PY.replace(
        "def body(self, limit=10):",
        "def body(self, limit: int = 20):",
    );
    assert_one("src/models.py", PY, &typed, Verdict::Changes);
    let assigned = PY.replace("self.data = data", "self.data: bytes = data or b\"\"");
    assert_one("src/models.py", PY, &assigned, Verdict::Changes);
}

#[test]
fn typescript_types_alone_are_neutral_and_rust_types_are_not() {
    let ts = "export function total(items) {\n  return items.length;\n}\n";
    let typed = "interface Item { price: number }\nexport function total(items: Item[]): number {\n  return items.length;\n}\n";
    assert_one("src/cart.ts", ts, typed, Verdict::Neutral);
    let changed = typed.replace("items.length", "items.length + 1");
    assert_one("src/cart.ts", ts, &changed, Verdict::Changes);
    // A Rust type decides what the code does (conversions, overflow): never erased.
    assert_one(
        "src/a.rs",
        PARSE,
        &PARSE.replace("-> u32", "-> u64"),
        Verdict::Changes,
    );
}

#[test]
fn a_changed_condition_is_a_change() {
    let head = PARSE.replace("value.is_empty()", "value.len() < 2");
    assert_one("src/a.rs", PARSE, &head, Verdict::Changes);
}

#[test]
fn comments_alone_are_neutral_and_a_changed_string_is_not() {
    let commented = PARSE.replace(
        "    if value",
        "    // Blank input counts as zero.\n    if value",
    );
    assert_one("src/a.rs", PARSE, &commented, Verdict::Neutral);
    let go = "package a\n\nfunc Name() string {\n\treturn \"fd\"\n}\n";
    assert_eq!(
        verdict_of(&[("a.go", go, &go.replace("\"fd\"", "\"fdfind\""))]),
        Verdict::Changes
    );
}

#[test]
fn a_rename_onto_a_name_already_used_is_a_change() {
    // `value` and `input` both stand at base: calling one where the other was is no
    // renaming, whatever the token count says.
    let head = PARSE.replace("value.len()", "input.len()");
    assert_one("src/a.rs", PARSE, &head, Verdict::Changes);
}

#[test]
fn a_checked_assertion_replacing_a_panicking_one_is_a_change() {
    let base = "package a\n\nfunc Port(v interface{}) int {\n\treturn v.(int)\n}\n";
    let head = "package a\n\nimport \"errors\"\n\nfunc Port(v interface{}) (int, error) {\n\tp, ok := v.(int)\n\tif !ok {\n\t\treturn 0, errors.New(\"port is not a number\")\n\t}\n\treturn p, nil\n}\n";
    assert_one("a.go", base, head, Verdict::Changes);
}

const HELPERS: &str = "package a\n\nfunc Keep() int {\n\treturn 1\n}\n\nfunc Moved(n int) int {\n\tif n > 3 {\n\t\treturn n\n\t}\n\treturn 0\n}\n";
const KEPT: &str = "package a\n\nfunc Keep() int {\n\treturn 1\n}\n";

#[test]
fn a_function_moved_to_another_file_is_neutral() {
    let moved =
        "package a\n\nfunc Moved(n int) int {\n\tif n > 3 {\n\t\treturn n\n\t}\n\treturn 0\n}\n";
    assert_eq!(
        verdict_of(&[("a.go", HELPERS, KEPT), ("b.go", "", moved)]),
        Verdict::Neutral
    );
}

#[test]
fn a_moved_function_with_a_changed_condition_is_a_change() {
    let moved =
        "package a\n\nfunc Moved(n int) int {\n\tif n >= 3 {\n\t\treturn n\n\t}\n\treturn 0\n}\n";
    assert_eq!(
        verdict_of(&[("a.go", HELPERS, KEPT), ("b.go", "", moved)]),
        Verdict::Changes
    );
}

#[test]
fn imports_follow_a_move_but_alone_are_a_change() {
    let base_a = "mod b;\nuse std::fmt;\n\npub fn keep() -> u32 {\n    1\n}\n\npub fn show(n: u32) -> String {\n    fmt::format(format_args!(\"{n}\"))\n}\n\npub fn moved(n: u32) -> u32 {\n    n + 1\n}\n";
    let head_a = base_a
        .replace("mod b;\n", "mod b;\nmod c;\n")
        .replace("\npub fn moved(n: u32) -> u32 {\n    n + 1\n}\n", "");
    let head_c = "pub fn moved(n: u32) -> u32 {\n    n + 1\n}\n";
    assert_eq!(
        verdict_of(&[("src/lib.rs", base_a, &head_a), ("src/c.rs", "", head_c)]),
        Verdict::Neutral
    );
    // Swapping where a used name comes from moves nothing: the import is the change.
    let swapped = base_a.replace("use std::fmt;", "use core::fmt;");
    assert_one("src/lib.rs", base_a, &swapped, Verdict::Changes);
}

#[test]
fn an_unused_import_removed_is_neutral_and_a_used_one_is_not() {
    let base = "import json\nimport os\n\n\ndef dump(x):\n    return json.dumps(x)\n";
    let unused_gone = base.replace("import os\n", "");
    assert_one("app/dump.py", base, &unused_gone, Verdict::Neutral);
    // `json` is still called: without its import the call fails.
    let used_gone = base.replace("import json\n", "");
    assert_one("app/dump.py", base, &used_gone, Verdict::Changes);
}

#[test]
fn an_import_that_names_nothing_runs_code_and_is_a_change() {
    let base = "import './polyfill';\nimport { a } from './a';\n\nexport const b = a + 1;\n";
    let head = base.replace("import './polyfill';\n", "");
    assert_one("src/b.ts", base, &head, Verdict::Changes);
}

#[test]
fn two_statements_swapped_in_place_are_a_change() {
    let base = "def save(order):\n    validate(order)\n    store(order)\n";
    let head = "def save(order):\n    store(order)\n    validate(order)\n";
    assert_one("app/orders.py", base, head, Verdict::Changes);
}

#[test]
fn a_statement_leaving_its_block_is_a_change() {
    let base = "def run(x):\n    if x:\n        a()\n    b()\n";
    let head = "def run(x):\n    if x:\n        a()\n        b()\n";
    assert_one("app/run.py", base, head, Verdict::Changes);
}

#[test]
fn files_without_a_grammar_are_neutral_only_for_layout() {
    let base = "int f(int x) {\n  return x + 1;\n}\n";
    let layout = "int f(int x)\n{\n    return x + 1;\n}\n";
    assert_one("src/f.c", base, layout, Verdict::Neutral);
    let renamed = base.replace('x', "y");
    assert_one("src/f.c", base, &renamed, Verdict::Changes);
}

/// A repository whose second commit changes `src/big.rs` from `base` to `head`: the
/// commit's record and the repository.
fn committed(base: &str, head: &str) -> (tempfile::TempDir, Repository, CommitData) {
    committed_as("big.rs", base, head)
}

/// [`committed`], the file being `src/` and `name`.
fn committed_as(name: &str, base: &str, head: &str) -> (tempfile::TempDir, Repository, CommitData) {
    let dir = tempfile::tempdir().unwrap();
    let git = Repository::init(dir.path()).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let commit = |text: &str, parents: &[&git2::Commit]| -> Oid {
        let blob = git.blob(text.as_bytes()).unwrap();
        let mut src = git.treebuilder(None).unwrap();
        src.insert(name, blob, 0o100644).unwrap();
        let src = src.write().unwrap();
        let mut root = git.treebuilder(None).unwrap();
        root.insert("src", src, 0o040000).unwrap();
        let tree = git.find_tree(root.write().unwrap()).unwrap();
        git.commit(None, &sig, &sig, "c", &tree, parents).unwrap()
    };
    let first = commit(base, &[]);
    let first = git.find_commit(first).unwrap();
    let second = commit(head, &[&first]);
    drop(first);
    let data = CommitData {
        oid: second.to_string(),
        parents: vec![],
        merge: false,
        subject: "chore: tidy".into(),
        body: String::new(),
        kind: Some("chore".into()),
        scope: None,
        breaking: false,
        tickets: vec![],
        files: vec![format!("src/{name}")],
    };
    (dir, git, data)
}

#[test]
fn a_commit_is_judged_from_its_parent_and_its_own_blobs() {
    let head = PARSE.replace("value.is_empty()", "value.len() < 2");
    let (_dir, git, c) = committed(PARSE, &head);
    assert_eq!(verdict(&git, &c, |_| true), Some(Verdict::Changes));
    let (_dir, git, c) = committed(PARSE, &PARSE.replace("value", "trimmed"));
    assert_eq!(verdict(&git, &c, |_| true), Some(Verdict::Renamed));
}

#[test]
fn a_file_too_big_to_parse_leaves_the_commit_unjudged() {
    let big = format!("{PARSE}{}", "// padding\n".repeat(sources::MAX_BYTES / 10));
    let (_dir, git, c) = committed(PARSE, &big.replace("value.is_empty()", "value.len() < 2"));
    assert_eq!(verdict(&git, &c, |_| true), None);
}

#[test]
fn a_formatter_s_trailing_commas_and_import_parentheses_are_neutral() {
    let base = "from urllib3 import (\n    __version__ as urllib3_version,\n)\n\ndef info(a, b):\n    return call(a, b)\n";
    let head = "from urllib3 import __version__ as urllib3_version\n\ndef info(a, b,):\n    return call(\n        a,\n        b,\n    )\n";
    assert_one("src/help.py", base, head, Verdict::Neutral);
    // The control: a comma that separates a new argument is code.
    let more = head.replace("        b,\n", "        b,\n        c,\n");
    assert_one("src/help.py", base, &more, Verdict::Changes);
}

const WITH_TESTS: &str = "pub fn stamp(s: i64) -> Option<i64> {\n    Some(s)\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn in_range() {\n        assert_eq!(stamp(1), Some(1));\n    }\n}\n";

#[test]
fn a_commit_that_only_adds_a_test_to_a_source_file_changes_tests_only() {
    let head = WITH_TESTS.replace(
        "    #[test]\n    fn in_range",
        "    #[test]\n    fn out_of_range() {\n        assert_eq!(stamp(i64::MAX), None);\n    }\n\n    #[test]\n    fn in_range",
    );
    let (_dir, git, c) = committed(WITH_TESTS, &head);
    assert_eq!(tests_only(&git, &c, |_| true), Some(true));
    // The control: the fix to the function is no test-only change.
    let fixed = WITH_TESTS.replace("    Some(s)\n", "    (s < i64::MAX).then_some(s)\n");
    let (_dir, git, c) = committed(WITH_TESTS, &fixed);
    assert_eq!(tests_only(&git, &c, |_| true), Some(false));
}

/// A TypeScript module of `n` functions of 14 lines each, the first one's condition being
/// `cond`: every other function is far from a change to the first.
fn module(n: usize, cond: &str) -> String {
    let mut s = String::new();
    for i in 0..n {
        let c = if i == 0 { cond } else { "x > 0" };
        s.push_str(&format!(
            "export function f{i}(x: number): number {{\n  if ({c}) {{\n"
        ));
        for k in 0..10 {
            s.push_str(&format!("    x = x + {k}\n"));
        }
        s.push_str("  }\n  return x\n}\n\n");
    }
    s
}

/// The verdict on one file judged as a commit is: through [`differing`].
fn judged_one(path: &str, base: &str, head: &str) -> Verdict {
    let files: Vec<Differs> = differing(path, Some(base), Some(head), Keep::All)
        .into_iter()
        .collect();
    judge(&files)
}

#[test]
fn far_blocks_left_out_give_the_verdict_the_whole_file_gives() {
    let base = module(4, "x > 0");
    let relaid = base.replacen("if (x > 0) {", "if (x > 0)   {  // why", 1);
    let changed = module(4, "x > 1");
    // The comparison really leaves blocks out here.
    let edits = line_edits(&base, &changed).unwrap();
    let pair = trees::pair(
        Grammar::TypeScript,
        Some(&base),
        Some(&changed),
        Some(&edits),
    );
    assert!(pair.left_out > 0);
    assert_eq!(judged_one("src/m.ts", &base, &relaid), Verdict::Neutral);
    assert_eq!(judged_one("src/m.ts", &base, &changed), Verdict::Changes);
    // The same verdicts as each whole version read alone.
    assert_one("src/m.ts", &base, &relaid, Verdict::Neutral);
    assert_one("src/m.ts", &base, &changed, Verdict::Changes);
}

#[test]
fn a_renaming_that_a_far_block_contradicts_is_a_change() {
    // The variable `x` renamed to `y` (`export` stays).
    let rename = |s: &str| s.replace('x', "y").replace("eyport", "export");
    let base = module(4, "x > 0");
    // Renamed in the first function only: the far functions still use `x`.
    let first_end = base.find("\n\n").unwrap();
    let renamed = format!("{}{}", rename(&base[..first_end]), &base[first_end..]);
    assert_eq!(judged_one("src/m.ts", &base, &renamed), Verdict::Changes);
    // Renamed everywhere, it is a renaming.
    assert_eq!(
        judged_one("src/m.ts", &base, &rename(&base)),
        Verdict::Renamed
    );
}

#[test]
fn a_mark_is_made_once_per_kind_and_side() {
    let open = mark("if_statement", true);
    assert_eq!(open, "<if_statement");
    assert!(std::ptr::eq(open, mark("if_statement", true)));
    assert_eq!(mark("if_statement", false), "if_statement>");
    assert_eq!(mark("call_expression", true), "<call_expression");
}

/// An [`Ahead`] wanting `path`, offered its versions `base` and `head` with the trees the
/// range's reading makes of them.
fn offered(path: &str, base: &str, head: &str) -> Ahead {
    let ahead = Ahead::of(HashSet::from([path.to_string()]));
    let edits = line_edits(base, head).unwrap();
    let grammar = Grammar::of(path).unwrap();
    let pair = trees::pair(grammar, Some(base), Some(head), Some(&edits));
    let oid = |text: &str| {
        Oid::hash_object(git2::ObjectType::Blob, text.as_bytes())
            .unwrap()
            .to_string()
    };
    let (b, h) = (oid(base), oid(head));
    ahead.offer(path, (Some(&b), Some(&h)), (base, head), &edits, &pair);
    ahead
}

fn compared(ahead: &Ahead) -> usize {
    ahead.found.lock().unwrap().len()
}

#[test]
fn whole_trees_are_compared_ahead_at_any_size_and_judged_as_afresh() {
    let mut base = PARSE.to_string();
    for i in 0..3000 {
        base.push_str(&format!("fn f{i}() -> u32 {{\n    {i}\n}}\n"));
    }
    assert!(2 * base.len() > AHEAD_MAX_BYTES);
    for head in [
        base.replace("value.is_empty()", "value.len() < 2"),
        base.replace("value", "trimmed"),
        base.replace("    let value", "    // trimmed\n    let value"),
    ] {
        let (_dir, git, c) = committed(&base, &head);
        let ahead = offered("src/big.rs", &base, &head);
        assert_eq!(compared(&ahead), 1);
        assert_eq!(
            verdict_ahead(&git, &c, |_| true, &ahead),
            verdict(&git, &c, |_| true)
        );
        assert_eq!(compared(&ahead), 0, "the comparison is taken by its commit");
    }
}

#[test]
fn a_large_pair_without_its_far_blocks_is_left_to_its_verdict() {
    let (base, head) = (module(200, "x > 0"), module(200, "x > 1"));
    assert!(base.len() + head.len() > AHEAD_MAX_BYTES);
    assert_eq!(compared(&offered("src/m.ts", &base, &head)), 0);
    // The control: a small one is compared ahead.
    let (base, head) = (module(4, "x > 0"), module(4, "x > 1"));
    assert_eq!(compared(&offered("src/m.ts", &base, &head)), 1);
}

#[test]
fn a_pair_differing_without_its_far_blocks_is_read_whole_ahead_as_its_verdict_would() {
    let base = module(4, "x > 0");
    let relaid = base.replacen("if (x > 0) {", "if (x > 0)   {  // why", 1);
    let rename = |s: &str| s.replace('x', "y").replace("eyport", "export");
    for (head, expected) in [
        (relaid, Verdict::Neutral),
        (module(4, "x > 1"), Verdict::Changes),
        (rename(&base), Verdict::Renamed),
    ] {
        let (_dir, git, c) = committed_as("m.ts", &base, &head);
        let ahead = offered("src/m.ts", &base, &head);
        assert_eq!(compared(&ahead), 1);
        assert_eq!(verdict_ahead(&git, &c, |_| true, &ahead), Some(expected));
        assert_eq!(verdict(&git, &c, |_| true), Some(expected));
    }
}

/// Whether the `compared` files (path, base, head) show a change that none of the
/// `pending` ones (base, head) can account for, as [`judged`] asks [`shown`].
fn shown_with(compared: &[(&str, &str, &str)], pending: &[(&str, &str)]) -> bool {
    fn side<'a>(path: &str, text: &'a str) -> Lines<'a> {
        lines_of(path, (!text.is_empty()).then_some(text))
    }
    let differs: Vec<Differs> = compared
        .iter()
        .filter_map(|(path, base, head)| Differs::of(&side(path, base), &side(path, head)))
        .collect();
    let differs: Vec<&Differs> = differs.iter().collect();
    let mut lines = match shown::proof(&differs) {
        shown::Proof::Shown => return true,
        shown::Proof::Lines(lines) => lines,
    };
    fn some(t: &str) -> Option<&str> {
        (!t.is_empty()).then_some(t)
    }
    for (base, head) in pending {
        lines.retain(|l| l.excluded(some(base), some(head)));
    }
    !lines.is_empty()
}

#[test]
fn a_changed_line_no_pending_file_could_gain_shows_a_change_before_the_rest() {
    let changed = HELPERS.replace("n > 3", "n >= 3");
    // The pending file's head has no `>=`: the lost and the gained line are nowhere else.
    assert!(shown_with(&[("a.go", HELPERS, &changed)], &[(KEPT, KEPT)]));
    // And the whole commit is a change, as shown.
    assert_eq!(
        verdict_of(&[("a.go", HELPERS, &changed), ("b.go", KEPT, KEPT)]),
        Verdict::Changes
    );
}

#[test]
fn a_line_a_pending_file_may_have_gained_shows_nothing() {
    let moved =
        "package a\n\nfunc Moved(n int) int {\n\tif n > 3 {\n\t\treturn n\n\t}\n\treturn 0\n}\n";
    // The function lost here may stand in the pending file's head: moved, not changed.
    assert!(!shown_with(&[("a.go", HELPERS, KEPT)], &[("", moved)]));
    assert_eq!(
        verdict_of(&[("a.go", HELPERS, KEPT), ("b.go", "", moved)]),
        Verdict::Neutral
    );
    // With nothing pending that could hold it, the lost function is a change.
    assert!(shown_with(&[("a.go", HELPERS, KEPT)], &[(KEPT, KEPT)]));
}

#[test]
fn a_renamed_file_shows_no_change_whatever_is_pending() {
    let head = "fn parse(input: &str) -> u32 {\n    let trimmed = input.trim();\n    if trimmed.is_empty() { return 0; }\n    trimmed.len() as u32\n}\n";
    assert!(!shown_with(&[("src/a.rs", PARSE, head)], &[(KEPT, KEPT)]));
    assert_eq!(
        verdict_of(&[("src/a.rs", PARSE, head), ("b.go", KEPT, KEPT)]),
        Verdict::Renamed
    );
}
