//! Differential test against the git CLI on a generated history of a few hundred commits:
//! per-file added/removed counts, renames and the commit list must equal git's.

use crate::common;
use common::*;
use std::collections::{BTreeMap, BTreeSet};

/// A small deterministic generator (xorshift), so the history is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn text(rng: &mut Rng, lines: usize) -> Vec<String> {
    (0..lines)
        .map(|_| {
            format!(
                "let v{} = call_{}({});",
                rng.next() % 100_000,
                rng.next() % 1000,
                rng.next() % 97
            )
        })
        .collect()
}

/// main with 40 files, then feature: 300 commits of edits, additions, deletions, renames
/// (exact and edited), binary changes and a merged side branch. Written by one `git
/// fast-import` (the git CLI's own objects, as a commit per step would give).
fn generated_history() -> Repo {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut r = Repo::new();
    let mut s = r.history();
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for i in 0..40 {
        let path = format!("src/mod{}/file{i}.rs", i % 5);
        let body = text(&mut rng, 30);
        s.write(&path, body.join("\n") + "\n");
        files.insert(path, body);
    }
    s.write("assets/blob.bin", [0u8, 1, 2, 3, 255, 0, 7]);
    s.commit("main", "main", None, "chore: initial tree");
    let mut next_id = 100;
    for n in 0..300 {
        if n == 150 {
            s.write("side/notes.txt", "side work\n");
            s.commit("side", "feature", None, "feat(side): side work (SIDE-1)");
        }
        if n == 160 {
            // fast-import takes a merge's tree from its first parent plus the listed changes.
            s.write("side/notes.txt", "side work\n");
            s.commit("feature", "main", Some("side"), "Merge branch 'side'");
        }
        let paths: Vec<String> = files.keys().cloned().collect();
        let pick = paths[rng.below(paths.len())].clone();
        let message;
        match rng.below(10) {
            0 => {
                let path = format!("src/new/file{next_id}.rs");
                next_id += 1;
                let lines = 5 + rng.below(40);
                let body = text(&mut rng, lines);
                s.write(&path, body.join("\n") + "\n");
                files.insert(path, body);
                message = format!("feat: add module {n} (ABC-{n})");
            }
            1 if files.len() > 20 => {
                s.remove(&pick);
                files.remove(&pick);
                message = format!("refactor: remove {pick}");
            }
            2 => {
                let to = format!("src/moved/file{next_id}.rs");
                next_id += 1;
                let mut body = files.remove(&pick).unwrap();
                if rng.below(2) == 0 {
                    // A small edit keeps the rename well above git's 50% similarity.
                    let at = rng.below(body.len());
                    body[at] = format!("// edited in {n}");
                }
                s.remove(&pick);
                s.write(&to, body.join("\n") + "\n");
                files.insert(to, body);
                message = format!("refactor: move {pick}");
            }
            3 => {
                let bytes: Vec<u8> = (0..64)
                    .map(|_| (rng.next() % 256) as u8)
                    .chain([0u8])
                    .collect();
                s.write("assets/blob.bin", bytes);
                message = "chore: update asset".to_string();
            }
            _ => {
                let body = files.get_mut(&pick).unwrap();
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(body.len() + 1);
                    match rng.below(3) {
                        0 if body.len() > 3 && at < body.len() => {
                            body.remove(at);
                        }
                        1 if at < body.len() => {
                            body[at] = format!("changed_{}();", rng.next() % 9999)
                        }
                        _ => body.insert(at, format!("inserted_{}();", rng.next() % 9999)),
                    }
                }
                let content = body.join("\n") + "\n";
                s.write(&pick, content);
                message = format!("fix(core): adjust {pick} #{n}");
            }
        }
        s.commit("feature", "main", None, &message);
    }
    r.import(s, "feature");
    r
}

/// The history and what qa-diff wrote for main..feature, built once for every test.
fn history() -> &'static (Repo, Vec<serde_json::Value>) {
    static HISTORY: std::sync::OnceLock<(Repo, Vec<serde_json::Value>)> =
        std::sync::OnceLock::new();
    HISTORY.get_or_init(|| {
        let r = generated_history();
        let records = r
            .qa_diff(&["--base", "main", "--head", "feature"], &[])
            .records();
        (r, records)
    })
}

/// `git diff --numstat -z -M base...head`: path -> (added, removed, old path), with
/// binary files as None counts.
/// Added and removed lines (None for binary files) and the rename source.
type Numstat = (Option<u64>, Option<u64>, Option<String>);

fn git_numstat(r: &Repo) -> BTreeMap<String, Numstat> {
    let out = r.git(&["diff", "--numstat", "-z", "-M", "main...feature"]);
    let mut fields = out.split('\0');
    let mut stats = BTreeMap::new();
    while let Some(head) = fields.next() {
        if head.is_empty() {
            continue;
        }
        let mut parts = head.splitn(3, '\t');
        let added = parts.next().unwrap().parse().ok();
        let removed = parts.next().unwrap().parse().ok();
        let path = parts.next().unwrap();
        if path.is_empty() {
            // A rename: the old and new paths follow as separate fields.
            let old = fields.next().unwrap().to_string();
            let new = fields.next().unwrap().to_string();
            stats.insert(new, (added, removed, Some(old)));
        } else {
            stats.insert(path.to_string(), (added, removed, None));
        }
    }
    stats
}

#[test]
fn counts_renames_and_commits_match_the_git_cli() {
    let (r, records) = history();

    let expected = git_numstat(r);
    let mut got = BTreeMap::new();
    for f in of_kind(records, "file") {
        let d = &f["data"];
        let counts = if d["binary"] == true {
            (None, None)
        } else {
            (d["added"].as_u64(), d["removed"].as_u64())
        };
        let old = d["old_path"].as_str().map(str::to_string);
        got.insert(
            d["path"].as_str().unwrap().to_string(),
            (counts.0, counts.1, old),
        );
    }
    assert!(expected.len() > 40, "the history changes many files");
    assert!(
        expected.values().any(|v| v.2.is_some()),
        "the history has renames"
    );
    assert_eq!(got, expected);

    let rev_list: BTreeSet<String> = r
        .git(&["rev-list", "main..feature"])
        .lines()
        .map(str::to_string)
        .collect();
    let commits: Vec<String> = of_kind(records, "commit")
        .iter()
        .map(|c| c["data"]["oid"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(commits.len(), rev_list.len(), "no commit listed twice");
    assert_eq!(commits.iter().cloned().collect::<BTreeSet<_>>(), rev_list);
    assert!(rev_list.len() > 300);
}

#[test]
fn commits_are_listed_parents_first() {
    let (_, records) = history();
    let mut seen = BTreeSet::new();
    for c in of_kind(records, "commit") {
        for parent in c["data"]["parents"].as_array().unwrap() {
            let parent = parent.as_str().unwrap();
            let in_range = of_kind(records, "commit")
                .iter()
                .any(|o| o["data"]["oid"] == parent);
            assert!(
                !in_range || seen.contains(parent),
                "parent {parent} listed after its child"
            );
        }
        seen.insert(c["data"]["oid"].as_str().unwrap().to_string());
    }
}

#[test]
fn per_commit_files_match_git_show() {
    let (r, records) = history();
    for c in of_kind(records, "commit").iter().take(60) {
        let d = &c["data"];
        if d["merge"] == true {
            continue;
        }
        let oid = d["oid"].as_str().unwrap();
        let listed: BTreeSet<String> = r
            .git(&["show", "--no-renames", "--name-only", "--format=", oid])
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let files: BTreeSet<String> = d["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect();
        assert_eq!(files, listed, "commit {oid}");
    }
}
