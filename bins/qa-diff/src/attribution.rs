//! Which range commit added each line of a file that several commits of the range changed,
//! so later stages can tell one commit's work from another's in a file both touched.
//!
//! Not git blame: blame walks the whole range for every file, 27 times git's time on a
//! 320-commit history. Instead each line is followed by its position through the diffs of
//! only the commits that touched the file, oldest first (`tracked`): a line is the commit's
//! whose diff wrote it there, whatever other commit wrote the same text elsewhere (`});`,
//! `r.exit.should.equal(true);`). When those commits are no chain of one blob to the next
//! (a merge inside the range joined two lines of work on the file), a line is credited to
//! the newest commit whose diff of the file added a line with its text (`by_text`: read
//! newest first, a diff computed only when counting lines cannot settle it, see
//! `settled_by_counts`). Work is bounded by the commits that touched the file, and capped.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use git2::{Blob, Oid, Patch, Repository};
use qa_records::change::{Delta, FileData, Op, Role, Status};

use crate::commits::Touch;

/// Most per-commit file changes one run reads (each file counts the commits that touched
/// it); files past it keep no attribution (a fallback later stages already handle), so
/// the cap bounds cost without changing what is right.
const MAX_DIFFS: usize = 128;

/// Per-path commit touches of the range, and the attribution budget left.
pub struct Attribution {
    /// Non-merge range commits that changed each path (with its blobs), oldest first.
    touches: HashMap<String, Vec<(Oid, Oid, Oid)>>,
    budget: usize,
}

impl Default for Attribution {
    fn default() -> Self {
        Attribution {
            touches: HashMap::new(),
            budget: MAX_DIFFS,
        }
    }
}

impl Attribution {
    /// Notes the paths one walked commit changed (merges bring none). A path the commit
    /// renamed continues its source's touches (as they stood before the commit), so its
    /// lines keep the commits that wrote them, not the one that moved them.
    pub fn saw(&mut self, oid: Oid, touches: Vec<Touch>) {
        let renamed = touches.iter().any(|t| t.from.is_some());
        let sources: Vec<Option<Vec<(Oid, Oid, Oid)>>> = if renamed {
            let source = |t: &Touch| {
                let (from, _) = t.from.as_ref()?;
                Some(self.touches.get(from).cloned().unwrap_or_default())
            };
            touches.iter().map(source).collect()
        } else {
            Vec::new()
        };
        let mut sources = sources.into_iter();
        for t in touches {
            match (sources.next().flatten(), t.from) {
                (Some(mut history), Some((_, blob))) => {
                    history.push((oid, blob, t.new));
                    self.touches.insert(t.path, history);
                }
                _ => self
                    .touches
                    .entry(t.path)
                    .or_default()
                    .push((oid, t.old, t.new)),
            }
        }
    }

    /// Fills `commit` on the added lines of `file` when several commits changed it. A file
    /// past the budget, or whose history cannot be read, is left as it is.
    pub fn attribute(&mut self, repo: &Repository, file: &mut FileData) {
        // Only files whose lines can be behaviour evidence later are worth the diffs; a
        // test file's lines are the oracle, and which commit wrote a test decides which
        // work it checks.
        let bears = matches!(
            file.role,
            Role::Product | Role::Command | Role::AnalysisRule | Role::Test
        );
        if file.delta != Delta::Branch || file.binary || file.status == Status::Deleted || !bears {
            return;
        }
        let Some(commits) = self.touches.get(&file.path).filter(|c| c.len() >= 2) else {
            return;
        };
        if commits.len() > self.budget {
            self.budget = 0;
            return;
        }
        self.budget -= commits.len();
        attribute_lines(repo, commits, file);
    }
}

/// Names, for every added line of `file`, the commit of `commits` (oldest first) whose diff
/// wrote it: by its position when the commits form one chain of blobs to the head's, else
/// (and for a line the chain leaves unclaimed) by its text.
fn attribute_lines(repo: &Repository, commits: &[(Oid, Oid, Oid)], file: &mut FileData) {
    let head = file.new_oid.as_deref().and_then(|o| Oid::from_str(o).ok());
    let origins = head.and_then(|head| tracked(repo, commits, &file.path, head));
    let mut unclaimed = false;
    for line in file.hunks.iter_mut().flat_map(|h| h.lines.iter_mut()) {
        if line.op == Op::Add {
            let at = (line.line as usize).checked_sub(1);
            let origin = at.and_then(|i| origins.as_ref()?.get(i).copied().flatten());
            line.commit = origin.map(|c| commits[c].0.to_string());
            unclaimed |= line.commit.is_none();
        }
    }
    if unclaimed {
        by_text(repo, commits, file);
    }
}

/// For each line of the head blob `head` of `path`, the index in `commits` (oldest first)
/// of the commit whose diff wrote it, None for a line the range's base already had. Each
/// commit's diff moves the lines it kept and writes its own; None when the commits are no
/// chain from the base's blob to `head` or a blob cannot be read.
fn tracked(
    repo: &Repository,
    commits: &[(Oid, Oid, Oid)],
    path: &str,
    head: Oid,
) -> Option<Vec<Option<usize>>> {
    let chained = commits.windows(2).all(|w| w[0].2 == w[1].1);
    if !chained || commits.last()?.2 != head {
        return None;
    }
    let mut origins: Vec<Option<usize>> = match commits[0].1 {
        o if o.is_zero() => Vec::new(),
        o => vec![None; line_count(repo.find_blob(o).ok()?.content())],
    };
    let mut opts = git2::DiffOptions::new();
    // Lines credited where the hunks place them (see changes.rs).
    opts.context_lines(0).indent_heuristic(true);
    let path = Some(Path::new(path));
    let mut blobs: Option<Blob> = None;
    for (i, &(_, old, new)) in commits.iter().enumerate() {
        let new_blob = repo.find_blob(new).ok()?;
        if old.is_zero() {
            // The commit created the file (again): every line is its own.
            origins = vec![Some(i); line_count(new_blob.content())];
            blobs = Some(new_blob);
            continue;
        }
        let old_blob = match blobs.take().filter(|b| b.id() == old) {
            Some(b) => b,
            None => repo.find_blob(old).ok()?,
        };
        // Only the lines between the common leading and trailing ones are diffed (xdiff
        // would hash every line of both blobs first); hunks count from the middle's start.
        let (old_text, new_text) = (old_blob.content(), new_blob.content());
        let (old_mid, new_mid) = changed_middle(old_text, new_text);
        let skipped =
            line_count(&old_text[..old_mid.as_ptr() as usize - old_text.as_ptr() as usize]);
        let patch = Patch::from_buffers(old_mid, path, new_mid, path, Some(&mut opts)).ok()?;
        let mut next = Vec::with_capacity(line_count(new_text));
        let mut kept = 0;
        for h in 0..patch.num_hunks() {
            let (hunk, _) = patch.hunk(h).ok()?;
            // An insertion's hunk starts at the line it follows; any other at its first line.
            let (start, removed) = (hunk.old_start() as usize, hunk.old_lines() as usize);
            let first = skipped
                + if removed == 0 {
                    start
                } else {
                    start.checked_sub(1)?
                };
            next.extend(origins.get(kept..first)?);
            next.extend(std::iter::repeat_n(Some(i), hunk.new_lines() as usize));
            kept = first + removed;
        }
        next.extend(origins.get(kept..)?);
        drop(patch);
        origins = next;
        blobs = Some(new_blob);
    }
    Some(origins)
}

/// The number of lines of `content`, a last line without a newline counted.
fn line_count(content: &[u8]) -> usize {
    let newlines = content.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(content.last().is_some_and(|&b| b != b'\n'))
}

/// Names, for every added line of `file` still unclaimed, the newest of `commits` (oldest
/// first) that added a line with its text: the commits are read newest first, and only
/// while some text is still unclaimed, each for the texts still unclaimed.
fn by_text(repo: &Repository, commits: &[(Oid, Oid, Oid)], file: &mut FileData) {
    let mut texts: HashMap<&str, Option<Oid>> = HashMap::new();
    for line in file.hunks.iter().flat_map(|h| h.lines.iter()) {
        if line.op == Op::Add && line.commit.is_none() {
            texts.insert(line.text.as_str(), None);
        }
    }
    let mut open: Vec<&str> = texts.keys().copied().collect();
    // A fixed order keeps the work (not the outcome) the same run after run.
    open.sort_unstable();
    // The old blob of the commit read last: usually the new blob of the next (older) one.
    let mut kept: Option<Blob> = None;
    for &(oid, old, new) in commits.iter().rev() {
        if open.is_empty() {
            break;
        }
        let added = if old.is_zero() {
            // The commit created the file: every line is its own.
            Some(open.iter().copied().collect())
        } else {
            let new = match kept.take().filter(|b| b.id() == new) {
                Some(blob) => Some(blob),
                None => repo.find_blob(new).ok(),
            };
            let old = repo.find_blob(old).ok();
            match (new, old) {
                (Some(new), Some(old)) => {
                    let added = added_among(&old, &new, &file.path, &open);
                    kept = Some(old);
                    added
                }
                _ => None,
            }
        };
        let Some(added) = added else {
            continue;
        };
        open.retain(|text| {
            if added.contains(text) {
                texts.insert(text, Some(oid));
                false
            } else {
                true
            }
        });
    }
    let found: HashMap<String, Oid> = texts
        .into_iter()
        .filter_map(|(text, oid)| Some((text.to_string(), oid?)))
        .collect();
    for line in file.hunks.iter_mut().flat_map(|h| h.lines.iter_mut()) {
        if line.op == Op::Add && line.commit.is_none() {
            line.commit = found.get(&line.text).map(Oid::to_string);
        }
    }
}

/// Which of the `open` texts the commit that turned blob `old` into `new` at `path`
/// added; None when the blobs cannot be diffed.
///
/// The answer is the one the diff of the two blobs gives, but most texts are settled
/// without it by counting lines (a diff adds a line at least as many more times as the new
/// blob has it than the old one, and never one the new blob lacks); only a text the new
/// blob holds no more often than the old one (a line that may have moved) needs the diff.
fn added_among<'t>(
    old_blob: &Blob,
    new_blob: &Blob,
    path: &str,
    open: &[&'t str],
) -> Option<HashSet<&'t str>> {
    if old_blob.id() == new_blob.id() {
        // The same content (a mode change): nothing added.
        return Some(HashSet::new());
    }
    match settled_by_counts(old_blob.content(), new_blob.content(), open) {
        Some(added) => Some(added),
        None => diffed_among(old_blob, new_blob, path, open),
    }
}

/// Which of the `open` texts the diff of `before` and `after` (which differ) adds, when
/// counting their lines settles it for every text; None when one needs the diff itself.
fn settled_by_counts<'t>(
    before: &[u8],
    after: &[u8],
    open: &[&'t str],
) -> Option<HashSet<&'t str>> {
    // Binary-looking or huge content, or a text that an invalid UTF-8 line could stand for
    // (the diff's lines are compared as lossily decoded text): only the diff can tell.
    if looks_binary(before)
        || looks_binary(after)
        || before.len().max(after.len()) >= MAX_DIFF_SIZE
        || open.iter().any(|t| t.contains(char::REPLACEMENT_CHARACTER))
    {
        return None;
    }
    let index: HashMap<&[u8], usize> = open
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_bytes(), i))
        .collect();
    let (before, after) = changed_middle(before, after);
    let (old_counts, new_counts) = (counts(before, &index), counts(after, &index));
    let mut added = HashSet::new();
    for (i, text) in open.iter().enumerate() {
        let (o, n) = (old_counts[i], new_counts[i]);
        if n.0 > o.0 || n.1 > o.1 {
            added.insert(*text);
        } else if n.0 + n.1 > 0 {
            return None;
        }
    }
    Some(added)
}

/// libgit2 diffs content with a NUL in its first 8,000 bytes as binary (no lines).
fn looks_binary(content: &[u8]) -> bool {
    content[..content.len().min(8000)].contains(&0)
}

/// libgit2 diffs blobs larger than this (512 MiB) as binary.
const MAX_DIFF_SIZE: usize = 0x2000_0000;

/// The lines of `old` and `new` (which differ) between their common leading and trailing
/// lines, the only place the diff marks changes: xdiff drops the same lines before it
/// compares, and its later sliding of a change over equal lines never changes which texts
/// are added. Lines keep their newline, as xdiff compares them.
fn changed_middle<'a>(old: &'a [u8], new: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    // Leading lines: the whole lines inside the common leading bytes. The contents differ,
    // so a last line without a newline is never whole in both.
    let same = common_prefix(old, new);
    let start = old[..same]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let (old, new) = (&old[start..], &new[start..]);
    // Trailing lines, after the leading ones: the whole lines inside the common trailing
    // bytes. A line starts inside them after each of their newlines but the last byte;
    // one starts where they start only if it does in both contents.
    let same = common_suffix(old, new);
    let (o, n) = (old.len() - same, new.len() - same);
    let starts_line = |c: &[u8], at: usize| at == 0 || c[at - 1] == b'\n';
    let end = if same > 0 && starts_line(old, o) && starts_line(new, n) {
        Some(0)
    } else {
        old[o..old.len().saturating_sub(1).max(o)]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| i + 1)
    };
    match end {
        Some(at) => (&old[..o + at], &new[..n + at]),
        None => (old, new),
    }
}

/// How many leading bytes `a` and `b` share.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut i = 0;
    while i + 64 <= len && a[i..i + 64] == b[i..i + 64] {
        i += 64;
    }
    while i < len && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many trailing bytes `a` and `b` share.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut i = 0;
    while i + 64 <= len && a[len - i - 64..len - i] == b[len - i - 64..len - i] {
        i += 64;
    }
    while i < len && a[len - i - 1] == b[len - i - 1] {
        i += 1;
    }
    i
}

/// How often each indexed text is a line of `content`: (ending in a newline, the last
/// line without one). The diff tells those two apart, so they are counted apart.
fn counts(content: &[u8], index: &HashMap<&[u8], usize>) -> Vec<(usize, usize)> {
    let mut counts = vec![(0, 0); index.len()];
    for line in content.split_inclusive(|&b| b == b'\n') {
        let (text, newline) = match line.strip_suffix(b"\n") {
            Some(text) => (text, true),
            None => (line, false),
        };
        if let Some(&i) = index.get(text) {
            if newline {
                counts[i].0 += 1;
            } else {
                counts[i].1 += 1;
            }
        }
    }
    counts
}

/// Which of the `open` texts are added lines of the diff of `old` and `new` at `path`
/// (whose attributes choose the diff driver).
fn diffed_among<'t>(
    old: &Blob,
    new: &Blob,
    path: &str,
    open: &[&'t str],
) -> Option<HashSet<&'t str>> {
    let wanted: HashSet<&'t str> = open.iter().copied().collect();
    let mut opts = git2::DiffOptions::new();
    // Lines credited where the hunks place them (see changes.rs).
    opts.context_lines(0).indent_heuristic(true);
    let path = Some(Path::new(path));
    let patch = Patch::from_blobs(old, path, new, path, Some(&mut opts)).ok()?;
    let mut out = HashSet::new();
    for h in 0..patch.num_hunks() {
        for l in 0..patch.num_lines_in_hunk(h).ok()? {
            let line = patch.line_in_hunk(h, l).ok()?;
            if line.origin() == '+' {
                let content = line.content();
                let content = content.strip_suffix(b"\n").unwrap_or(content);
                if let Some(text) = wanted.get(String::from_utf8_lossy(content).as_ref()) {
                    out.insert(*text);
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// Few distinct lines, so texts repeat and move, as braces and blank lines do.
    const LINES: &[&str] = &["}", "", "  }", "a", "b", "return x;", "if (x) {", "\r"];

    fn lines(rng: &mut Rng) -> Vec<&'static str> {
        (0..rng.below(30))
            .map(|_| LINES[rng.below(LINES.len())])
            .collect()
    }

    /// Some edits of `old`: lines replaced, inserted, deleted and moved.
    fn edited(rng: &mut Rng, old: &[&'static str]) -> Vec<&'static str> {
        let mut new = old.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(new.len() + 1);
            match rng.below(4) {
                0 if at < new.len() => new[at] = LINES[rng.below(LINES.len())],
                1 if at < new.len() => {
                    new.remove(at);
                }
                2 if at < new.len() => {
                    let line = new.remove(at);
                    let to = rng.below(new.len() + 1);
                    new.insert(to, line);
                }
                _ => new.insert(at, LINES[rng.below(LINES.len())]),
            }
        }
        new
    }

    /// Joined lines, the last one with or without its newline.
    fn content(rng: &mut Rng, lines: &[&str]) -> Vec<u8> {
        let mut text = lines.join("\n");
        if !lines.is_empty() && rng.below(3) > 0 {
            text.push('\n');
        }
        text.into_bytes()
    }

    /// The naive middle: split into lines, drop the common leading and trailing ones.
    fn middle_by_lines<'a>(old: &'a [u8], new: &'a [u8]) -> (Vec<&'a [u8]>, Vec<&'a [u8]>) {
        let split = |c: &'a [u8]| c.split_inclusive(|&b| b == b'\n').collect::<Vec<_>>();
        let (mut old, mut new) = (split(old), split(new));
        let head = old.iter().zip(&new).take_while(|(o, n)| o == n).count();
        old.drain(..head);
        new.drain(..head);
        let tail = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take_while(|(o, n)| o == n)
            .count();
        old.truncate(old.len() - tail);
        new.truncate(new.len() - tail);
        (old, new)
    }

    #[test]
    fn the_changed_middle_is_the_lines_between_the_common_ones() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..5000 {
            let old_lines = lines(&mut rng);
            let new_lines = edited(&mut rng, &old_lines);
            let (old, new) = (content(&mut rng, &old_lines), content(&mut rng, &new_lines));
            if old == new {
                continue;
            }
            let (o, n) = changed_middle(&old, &new);
            let split = |c: &[u8]| {
                c.split_inclusive(|&b| b == b'\n')
                    .map(<[u8]>::to_vec)
                    .collect()
            };
            let (expected_o, expected_n) = middle_by_lines(&old, &new);
            let expected = |lines: Vec<&[u8]>| lines.into_iter().map(<[u8]>::to_vec).collect();
            let got: (Vec<Vec<u8>>, Vec<Vec<u8>>) = (split(o), split(n));
            assert_eq!(
                got,
                (expected(expected_o), expected(expected_n)),
                "{old:?} -> {new:?}"
            );
        }
    }

    #[test]
    fn texts_settled_by_counting_are_the_ones_the_diff_adds() {
        // The 6,000 blobs live in memory: written as loose objects they cost 1.3 s of
        // system CPU in file creation, which is not what the test is about.
        let odb = git2::Odb::new().unwrap();
        odb.add_new_mempack_backend(1).unwrap();
        let repo = Repository::from_odb(odb).unwrap();
        let mut rng = Rng(0x853c_49e6_748f_ea9b);
        let (mut settled, mut unsettled) = (0, 0);
        for _ in 0..3000 {
            let old_lines = lines(&mut rng);
            let new_lines = edited(&mut rng, &old_lines);
            let (old, new) = (content(&mut rng, &old_lines), content(&mut rng, &new_lines));
            if old == new {
                continue;
            }
            // Every text the new content has, and one it lacks.
            let mut open: Vec<&str> = new_lines.clone();
            open.push("absent");
            open.sort_unstable();
            open.dedup();
            let (old_blob, new_blob) = (repo.blob(&old).unwrap(), repo.blob(&new).unwrap());
            let (old_blob, new_blob) = (
                repo.find_blob(old_blob).unwrap(),
                repo.find_blob(new_blob).unwrap(),
            );
            let diffed = diffed_among(&old_blob, &new_blob, "src/a.ts", &open).unwrap();
            match settled_by_counts(&old, &new, &open) {
                Some(counted) => {
                    assert_eq!(counted, diffed, "{old:?} -> {new:?}");
                    settled += 1;
                }
                None => unsettled += 1,
            }
            assert_eq!(
                added_among(&old_blob, &new_blob, "src/a.ts", &open),
                Some(diffed)
            );
        }
        assert!(
            settled > 500 && unsettled > 500,
            "{settled} settled, {unsettled} not"
        );
    }
}
