//! Committed-range records: commits, files, hunks, renames, binaries, limits, determinism.

use crate::common;
use common::*;
use serde_json::json;

fn two_branch_repo() -> Repo {
    let mut r = Repo::new();
    r.write("src/cart.js", "a\nb\nc\nd\ne\n");
    r.write("src/old_name.js", "shared line of text\n".repeat(20));
    r.write("src/gone.js", "bye\n");
    r.write("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x01binary");
    r.commit("chore: init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("src/cart.js", "a\nB\nc\nd\ne\nf\n");
    r.git(&["mv", "src/old_name.js", "src/new_name.js"]);
    r.remove("src/gone.js");
    r.write("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x02binary!");
    r.commit("feat(cart)!: change cart (SHOP-1)\n\nBody text.\n\nRefs: #12");
    r
}

#[test]
fn range_record_comes_first_and_names_head() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(records[0]["kind"], "range");
    let range = &records[0]["data"];
    assert_eq!(range["head"]["ref"], "HEAD");
    assert_eq!(range["head"]["branch"], "feature");
    assert_eq!(range["head"]["oid"], r.rev("HEAD"));
    assert_eq!(range["merge_base"], r.rev("main"));
    assert_eq!(range["mode"], "committed");
}

#[test]
fn every_record_derives_from_the_range() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let range_id = records[0]["id"].clone();
    for record in &records[1..] {
        assert_eq!(record["from"], json!([range_id]), "{record}");
    }
}

#[test]
fn commit_record_carries_the_parsed_message() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let commit = one(&records, "commit");
    assert_eq!(commit["oid"], r.rev("HEAD"));
    assert_eq!(commit["type"], "feat");
    assert_eq!(commit["scope"], "cart");
    assert_eq!(commit["breaking"], true);
    assert_eq!(commit["tickets"], json!(["#12", "SHOP-1"]));
    assert_eq!(commit["merge"], false);
    assert_eq!(commit["body"], "Body text.\n\nRefs: #12");
    let files = commit["files"].as_array().unwrap();
    assert!(files.contains(&json!("src/cart.js")) && files.contains(&json!("src/gone.js")));
}

#[test]
fn hunks_carry_base_and_head_line_numbers() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let cart = file(&records, "src/cart.js", "branch");
    assert_eq!(cart["status"], "modified");
    assert_eq!(
        (cart["added"].as_u64(), cart["removed"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        cart["hunks"],
        json!([
            {"old_start": 2, "old_lines": 1, "new_start": 2, "new_lines": 1,
             "lines": [{"op": "-", "line": 2, "text": "b"}, {"op": "+", "line": 2, "text": "B"}]},
            {"old_start": 5, "old_lines": 0, "new_start": 6, "new_lines": 1,
             "lines": [{"op": "+", "line": 6, "text": "f"}]}
        ])
    );
}

#[test]
fn file_record_hashes_its_new_content() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let cart = file(&records, "src/cart.js", "branch");
    assert_eq!(cart["new_oid"], r.rev("HEAD:src/cart.js"));
    assert_eq!(cart["old_oid"], r.rev("main:src/cart.js"));
    assert_eq!(
        cart["sha256"],
        qa_records::hash::sha256_hex(b"a\nB\nc\nd\ne\nf\n")
    );
}

#[test]
fn renames_name_their_source() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let renamed = file(&records, "src/new_name.js", "branch");
    assert_eq!(renamed["status"], "renamed");
    assert_eq!(renamed["old_path"], "src/old_name.js");
    assert!(paths(&records, "branch")
        .iter()
        .all(|p| p != "src/old_name.js"));
}

#[test]
fn a_rewrite_below_half_similarity_is_not_a_rename() {
    let mut r = Repo::new();
    r.write("a.txt", "original content line\n".repeat(10));
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.remove("a.txt");
    r.write("b.txt", "something completely different\n");
    r.commit("rewrite");
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(file(&records, "a.txt", "branch")["status"], "deleted");
    assert_eq!(file(&records, "b.txt", "branch")["status"], "added");
}

#[test]
fn a_pure_rename_beside_a_similar_deletion_pairs_the_identical_blob() {
    // Regression: two rename passes over one diff made libgit2 abort (exit 70).
    let mut r = Repo::new();
    let numbers: String = (1..=40).map(|n| format!("{n}\n")).collect();
    let similar: String = (1..=30).map(|n| format!("{n}\n")).collect::<String>() + "x\ny\n";
    r.write("a.txt", &numbers);
    r.write("b.txt", &similar);
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.git(&["mv", "a.txt", "c.txt"]);
    r.git(&["rm", "-q", "b.txt"]);
    r.commit_staged("move");
    let run = r.qa_diff(&[], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let records = run.records();
    let moved = file(&records, "c.txt", "branch");
    assert_eq!(moved["status"], "renamed");
    assert_eq!(moved["old_path"], "a.txt");
    assert_eq!(file(&records, "b.txt", "branch")["status"], "deleted");
}

#[test]
fn deleted_files_have_no_new_content() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let gone = file(&records, "src/gone.js", "branch");
    assert_eq!(gone["status"], "deleted");
    assert_eq!(gone["sha256"], json!(null));
    assert_eq!(gone["new_oid"], json!(null));
    assert_eq!(gone["removed"], 1);
}

#[test]
fn binary_files_are_flagged_without_hunks() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    let logo = file(&records, "logo.png", "branch");
    assert_eq!(logo["binary"], true);
    assert_eq!(logo["hunks"], json!([]));
    assert_eq!(logo["role"], "generated");
}

#[test]
fn text_files_are_not_flagged_binary() {
    let r = two_branch_repo();
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(file(&records, "src/cart.js", "branch")["binary"], false);
}

fn many_hunks_repo() -> Repo {
    let mut r = Repo::new();
    let lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
    r.write("big.txt", lines.join("\n") + "\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    let changed: Vec<String> = (0..100)
        .map(|i| {
            if i % 10 == 0 {
                format!("CHANGED {i}")
            } else {
                format!("line {i}")
            }
        })
        .collect();
    r.write("big.txt", changed.join("\n") + "\n");
    r.commit("edit every tenth line");
    r
}

#[test]
fn hunk_limit_truncates_and_keeps_full_counts() {
    let r = many_hunks_repo();
    let records = r.qa_diff(&["--max-hunks", "3"], &[]).records();
    let big = file(&records, "big.txt", "branch");
    assert_eq!(big["truncated"], true);
    assert_eq!(big["hunks"].as_array().unwrap().len(), 3);
    assert_eq!(big["hunk_count"], 10);
    assert_eq!(
        (big["added"].as_u64(), big["removed"].as_u64()),
        (Some(10), Some(10))
    );
}

#[test]
fn byte_limit_truncates_the_kept_text() {
    let r = many_hunks_repo();
    let records = r.qa_diff(&["--max-bytes", "20"], &[]).records();
    let big = file(&records, "big.txt", "branch");
    assert_eq!(big["truncated"], true);
    let kept: usize = big["hunks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["lines"].as_array().unwrap())
        .map(|l| l["text"].as_str().unwrap().len())
        .sum();
    assert!(kept <= 20, "{kept}");
}

#[test]
fn within_limits_nothing_is_truncated() {
    let r = many_hunks_repo();
    let records = r.qa_diff(&[], &[]).records();
    let big = file(&records, "big.txt", "branch");
    assert_eq!(big["truncated"], false);
    assert_eq!(big["hunks"].as_array().unwrap().len(), 10);
}

#[test]
fn merges_in_the_range_are_marked() {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.git(&["checkout", "-q", "-b", "side"]);
    r.write("side.txt", "s\n");
    r.commit("feat: side work");
    r.git(&["checkout", "-q", "feature"]);
    r.write("b.txt", "b\n");
    r.commit("feat: main work");
    r.git(&[
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "Merge branch 'side'",
        "side",
    ]);
    let records = r.qa_diff(&[], &[]).records();
    let commits = of_kind(&records, "commit");
    assert_eq!(commits.len(), 3);
    let merge = &commits[2]["data"];
    assert_eq!(merge["merge"], true);
    assert_eq!(merge["parents"].as_array().unwrap().len(), 2);
    assert_eq!(merge["files"], json!([]));
    assert!(commits[..2].iter().all(|c| c["data"]["merge"] == false));
}

#[test]
fn output_is_byte_identical_run_after_run() {
    let r = two_branch_repo();
    let a = r.qa_diff(&[], &[]);
    let b = r.qa_diff(&[], &[]);
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn a_missing_repository_exits_66() {
    let home = tempfile::tempdir().unwrap();
    let run = qa_diff_in(home.path(), home.path(), &["--repo", "/no/such/place"], &[]);
    assert_eq!(run.code, 66);
    assert_eq!(
        run.stderr.trim(),
        "qa-diff: error: repository /no/such/place does not exist"
    );
}

#[test]
fn a_directory_outside_any_repository_exits_66() {
    let dir = tempfile::tempdir().unwrap();
    let run = qa_diff_in(dir.path(), dir.path(), &["--repo", "."], &[]);
    assert_eq!(run.code, 66);
    assert!(
        run.stderr.contains("is not inside a git repository"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn an_empty_repository_exits_66() {
    let r = Repo::new();
    let run = r.qa_diff(&[], &[]);
    assert_eq!(run.code, 66);
    assert!(run.stderr.contains("no commit yet"), "{}", run.stderr);
}

#[test]
fn unrelated_histories_exit_65() {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("init");
    r.git(&["checkout", "-q", "--orphan", "other"]);
    r.write("b.txt", "b\n");
    r.commit("other root");
    let run = r.qa_diff(&["--base", "main"], &[]);
    assert_eq!(run.code, 65);
    assert!(run.stderr.contains("share no history"), "{}", run.stderr);
}

#[test]
fn a_bad_flag_is_a_usage_error() {
    let r = two_branch_repo();
    assert_eq!(r.qa_diff(&["--no-such-flag"], &[]).code, 64);
    assert_eq!(r.qa_diff(&["--max-hunks", "many"], &[]).code, 64);
}

#[test]
fn roles_reach_the_file_records() {
    let mut r = Repo::new();
    r.write("README.md", "x\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    for (path, _) in ROLE_CASES {
        r.write(path, "content\n");
    }
    r.commit("add one file per role");
    let records = r.qa_diff(&[], &[]).records();
    for (path, role) in ROLE_CASES {
        assert_eq!(file(&records, path, "branch")["role"], *role, "{path}");
    }
}

const ROLE_CASES: &[(&str, &str)] = &[
    ("src/checkout.ts", "product"),
    ("tests/checkout.test.ts", "test"),
    (".github/ISSUE_TEMPLATE/bug.md", "repository-workflow"),
    ("docs/guide.md", "documentation"),
    ("dist/app.min.js", "generated"),
    ("bin/tool.js", "command"),
    ("package.json", "configuration"),
];

#[test]
fn non_utf8_lines_stay_readable_and_the_record_valid() {
    let mut r = Repo::new();
    r.write("latin1.txt", b"caf\xe9\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("latin1.txt", b"caf\xe9\nna\xefve\n");
    r.commit("more latin-1");
    let records = r.qa_diff(&[], &[]).records();
    let f = file(&records, "latin1.txt", "branch");
    assert_eq!(f["binary"], false);
    assert_eq!(f["hunks"][0]["lines"][0]["text"], "na\u{fffd}ve");
    assert_eq!(
        f["sha256"],
        qa_records::hash::sha256_hex(b"caf\xe9\nna\xefve\n")
    );
}

#[test]
fn paths_with_spaces_and_unicode_are_kept_exactly() {
    let mut r = Repo::new();
    r.write("seed.txt", "x\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("docs/release notes é.md", "hello\n");
    r.commit("docs: notes");
    let records = r.qa_diff(&[], &[]).records();
    assert_eq!(
        file(&records, "docs/release notes é.md", "branch")["status"],
        "added"
    );
}

#[test]
fn lines_of_a_file_two_commits_changed_name_the_commit_that_added_them() {
    let mut r = Repo::new();
    r.write("src/refund.ts", "export function refund() {}\n");
    r.write("src/other.ts", "export const a = 1;\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write(
        "src/refund.ts",
        "export function refund() {}\nconst limit = 10;\n",
    );
    let first = r.commit("feat: limit refunds");
    r.write(
        "src/refund.ts",
        "export function refund() {}\nconst limit = 10;\nconst csv = true;\n",
    );
    r.write("src/other.ts", "export const a = 2;\n");
    let second = r.commit("wip");
    let records = r.qa_diff(&[], &[]).records();
    let lines = |path: &str| -> Vec<(u64, Option<String>)> {
        added_with_commits(&records, path)
            .into_iter()
            .map(|(line, _, commit)| (line, commit))
            .collect()
    };
    assert_eq!(
        lines("src/refund.ts"),
        vec![(2, Some(first)), (3, Some(second))]
    );
    // One commit changed other.ts: its lines need no attribution.
    assert_eq!(lines("src/other.ts"), vec![(1, None)]);
}

/// The `+` lines of `path`'s branch diff, each with the commit it names.
fn added_with_commits(
    records: &[serde_json::Value],
    path: &str,
) -> Vec<(u64, String, Option<String>)> {
    file(records, path, "branch")["hunks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["lines"].as_array().unwrap().clone())
        .filter(|l| l["op"] == "+")
        .map(|l| {
            (
                l["line"].as_u64().unwrap(),
                l["text"].as_str().unwrap().to_string(),
                l["commit"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn a_line_whose_text_a_later_commit_also_wrote_stays_the_commit_that_wrote_it_there() {
    let mut r = Repo::new();
    r.write("test/cmd.test.js", "describe('cmd', () => {\n});\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write(
        "test/cmd.test.js",
        "describe('cmd', () => {\n  it('absolute', () => {\n    r.exit.should.equal(true);\n  });\n});\n",
    );
    let first = r.commit("fix: absolute dirs");
    r.write(
        "test/cmd.test.js",
        "describe('cmd', () => {\n  it('absolute', () => {\n    r.exit.should.equal(true);\n  });\n  it('visit', () => {\n    r.exit.should.equal(true);\n  });\n});\n",
    );
    let second = r.commit("fix: visit");
    let records = r.qa_diff(&[], &[]).records();
    let lines = added_with_commits(&records, "test/cmd.test.js");
    let commit_of = |n: u64| lines.iter().find(|l| l.0 == n).unwrap().2.clone();
    // The first test's check (line 3) is the first commit's, though the second wrote
    // the same text at line 6.
    assert_eq!(commit_of(3), Some(first.clone()));
    assert_eq!(commit_of(2), Some(first));
    assert_eq!(commit_of(6), Some(second.clone()));
    assert_eq!(commit_of(5), Some(second));
}

#[test]
fn lines_of_a_file_changed_on_two_merged_branches_are_credited_by_their_text() {
    let mut r = Repo::new();
    r.write("src/a.ts", "one\ntwo\nthree\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.git(&["checkout", "-q", "-b", "side"]);
    r.write("src/a.ts", "one\nside\ntwo\nthree\n");
    let side = r.commit("feat: side");
    r.git(&["checkout", "-q", "feature"]);
    r.write("src/a.ts", "one\ntwo\nthree\nmain\n");
    let main = r.commit("feat: main");
    r.git(&["merge", "-q", "--no-edit", "side"]);
    let records = r.qa_diff(&[], &[]).records();
    // No chain of blobs joins the two commits: each line goes to the commit whose diff
    // added its text.
    let lines = added_with_commits(&records, "src/a.ts");
    assert_eq!(
        lines,
        vec![
            (2, "side".to_string(), Some(side)),
            (5, "main".to_string(), Some(main)),
        ]
    );
}

/// Ten lines of a file a commit of the range writes, then moves.
fn spew_lines() -> String {
    (1..=10)
        .map(|i| format!("line {i} of the dump test\n"))
        .collect()
}

#[test]
fn lines_a_commit_only_renamed_stay_the_commit_that_wrote_them() {
    let mut r = Repo::new();
    r.write("README.md", "readme\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("internal/spew/spew/dump_test.go", spew_lines());
    let wrote = r.commit("chore: import go-spew");
    r.git(&["mv", "internal/spew/spew", "internal/spew/moved"]);
    r.commit("move file in spew vendoring");
    let records = r.qa_diff(&[], &[]).records();
    let lines = added_with_commits(&records, "internal/spew/moved/dump_test.go");
    assert_eq!(lines.len(), 10);
    // The pure `git mv` wrote none of them.
    assert!(
        lines.iter().all(|l| l.2.as_deref() == Some(wrote.as_str())),
        "{lines:?}"
    );
}

#[test]
fn a_line_edited_in_a_rename_is_the_renaming_commits_alone() {
    let mut r = Repo::new();
    r.write("README.md", "readme\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("src/old.ts", spew_lines());
    let wrote = r.commit("feat: dump");
    r.remove("src/old.ts");
    r.write(
        "src/new.ts",
        spew_lines().replace("line 4 of", "line four of"),
    );
    let renamed = r.commit("refactor: rename and fix one line");
    let records = r.qa_diff(&[], &[]).records();
    let lines = added_with_commits(&records, "src/new.ts");
    for (line, text, commit) in &lines {
        let expected = if *line == 4 { &renamed } else { &wrote };
        assert_eq!(commit.as_ref(), Some(expected), "line {line}: {text}");
    }
}

#[test]
fn a_new_file_beside_an_unrelated_deletion_is_the_commit_that_added_it() {
    let mut r = Repo::new();
    r.write("README.md", "readme\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("src/old.ts", spew_lines());
    r.commit("feat: dump");
    r.remove("src/old.ts");
    let other: String = (1..=10).map(|i| format!("unrelated {i}\n")).collect();
    r.write("src/new.ts", &other);
    let added = r.commit("feat: replace the dump");
    r.write("src/new.ts", other.replace("unrelated 2", "edited 2"));
    let edited = r.commit("fix: edit one line");
    let records = r.qa_diff(&[], &[]).records();
    let lines = added_with_commits(&records, "src/new.ts");
    assert_eq!(lines.len(), 10);
    for (line, text, commit) in &lines {
        let expected = if *line == 2 { &edited } else { &added };
        assert_eq!(commit.as_ref(), Some(expected), "line {line}: {text}");
    }
}

/// The added lines of `path` as `git diff -U0` prints them: (new line, text).
fn git_added(r: &Repo, path: &str) -> Vec<(u64, String)> {
    let out = r.git(&["diff", "-U0", "main", "feature", "--", path]);
    let mut added = Vec::new();
    let mut line = 0;
    for l in out.lines() {
        if let Some(h) = l.strip_prefix("@@ ") {
            let new = h.split(' ').nth(1).unwrap_or("+0");
            line = new
                .trim_start_matches('+')
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap();
        } else if let Some(t) = l.strip_prefix('+').filter(|_| !l.starts_with("+++")) {
            added.push((line, t.to_string()));
            line += 1;
        }
    }
    added
}

#[test]
fn a_method_added_before_one_that_opens_the_same_way_is_the_hunk_git_shows() {
    let mut r = Repo::new();
    let method = |name: &str| format!("    @Test\n    void {name}() {{\n        run();\n    }}\n");
    r.write(
        "T.java",
        format!("class T {{\n{}\n{}}}\n", method("a"), method("b")),
    );
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write(
        "T.java",
        format!(
            "class T {{\n{}\n{}\n{}}}\n",
            method("a"),
            method("added"),
            method("b")
        ),
    );
    r.commit("test: add a method");
    let records = r.qa_diff(&[], &[]).records();
    let ours: Vec<(u64, String)> = added_with_commits(&records, "T.java")
        .into_iter()
        .map(|(line, text, _)| (line, text))
        .collect();
    assert_eq!(ours, git_added(&r, "T.java"));
    // The new method's own annotation opens the hunk; `b`'s stays unchanged.
    assert_eq!(ours.first().map(|(_, t)| t.as_str()), Some("    @Test"));
    assert_eq!(ours.last().map(|(_, t)| t.as_str()), Some(""));
}
