//! What a change did to each source file, item by item, from the base and head syntax
//! trees: conditions new or moved, error exits added or removed, list elements and match
//! arms added or removed, parameters, and the tests it changed.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use qa_records::change::{FileData, Op};
use qa_syntax::lines::LineFacts;

use crate::changeset::Changeset;
use crate::equivalence::Ahead;
use crate::moves::{self, Forest, Matched};
use crate::sources;
use crate::trees::{self, ExitKind, Grammar, ItemKind, Outline};
use qa_syntax::suite::{Expectation, Test};
use tree_sitter::Tree;

/// A located fact of one version: `item` is the enclosing item's path (`""` at file level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    pub item: String,
    pub line: u32,
    pub text: String,
}

/// A test the change deletes, read at base: what it set up, called and expected, the
/// behaviour the change stops checking.
#[derive(Debug, Clone)]
pub struct DeletedTest {
    /// The test at base (its lines are base lines).
    pub test: qa_syntax::suite::Test,
    /// Where it was, mapped to the head.
    pub line: u32,
    /// Each expectation's line as written at base, trimmed, in the order of `test.expects`.
    pub written: Vec<String>,
}

/// The changes of one file that has a grammar.
#[derive(Debug, Clone, Default)]
pub struct FileDelta {
    /// Items (by path) holding an added line at head, with their head start line.
    pub changed_items: Vec<(String, ItemKind, u32)>,
    /// Conditions on added lines that stood nowhere in the base file.
    pub new_conditions: Vec<At>,
    /// Conditions on added lines whose normalized text was already in the base file.
    pub moved_conditions: Vec<At>,
    /// Conditions on removed lines that stand nowhere in the head file: a check the
    /// change dropped. `line` is where it was, mapped to the head.
    pub removed_conditions: Vec<At>,
    /// Error exits on added lines that the same item did not have at base.
    pub added_exits: Vec<(At, ExitKind)>,
    /// Error exits on removed lines that the same item no longer has at head; `line` is
    /// the head line of the item (or of the hunk) where it was.
    pub removed_exits: Vec<(At, ExitKind)>,
    /// List, set or map elements and match arms added and removed, per item.
    pub added_elements: Vec<At>,
    pub removed_elements: Vec<At>,
    /// Parameters a function gained or lost (`text` is the parameter name).
    pub added_params: Vec<At>,
    pub removed_params: Vec<At>,
    /// Tests whose span holds an added or removed line, or that are new.
    pub changed_tests: Vec<Test>,
    /// Tests the change deletes: at base, with every line removed, and their name
    /// nowhere in the head file. `line` is where they were, mapped to the head.
    pub removed_tests: Vec<At>,
    /// The same deleted tests as they stood at base, with what they checked.
    pub deleted_tests: Vec<DeletedTest>,
    /// Every condition on a changed head line with the last line of its statement:
    /// what the condition guards.
    pub condition_spans: Vec<(u32, u32)>,
    /// What each added line says, read from the head tree.
    pub line_facts: BTreeMap<u32, LineFacts>,
    /// The `@qa` tags of declarations on added lines, read from the head tree.
    pub annotations: Vec<qa_syntax::annotations::Annotation>,
    /// Added lines whose text (whitespace aside) already stood as a line of the base
    /// file, or that another changed file lost: copied or moved, not new.
    pub copied_lines: BTreeSet<u32>,
    /// Every added line (head numbering): a changed test is cited at a line the change
    /// wrote, not only at its unchanged header.
    pub added_lines: BTreeSet<u32>,
    /// For each kept expectation of a changed test that the change wrote, by the line it
    /// starts on: the first added line of its statement (itself when added). A
    /// multi-line assertion the change edited inside is cited where it was edited.
    pub written_expectations: BTreeMap<u32, u32>,
    /// The last line of the statement starting on each expectation's and assertion
    /// helper call's line of the changed tests, from the head tree.
    pub statement_ends: BTreeMap<u32, u32>,
    /// Where the claims above stand in the trees, for the structural move detection;
    /// emptied once [`of_changeset`] has matched the range.
    pub sites: Sites,
    /// The functions the head file defines, read while its tree stands, for
    /// [`crate::oracle::support::resolve`]: `None` when no changed test calls a helper.
    pub own_helpers: Option<crate::oracle::support::OwnHelpers>,
}

/// The changed subtrees of one file and where its claims of removed or new code stand
/// among them (byte ranges, in the order of the claims).
#[derive(Debug, Clone, Default)]
pub struct Sites {
    /// The subtrees on removed base lines and on added head lines.
    pub removed: Forest,
    pub added: Forest,
    removed_exits: Vec<Range<usize>>,
    removed_conditions: Vec<Range<usize>>,
    removed_elements: Vec<Range<usize>>,
    /// The keys of the elements on added head lines, whatever their item: an entry removed
    /// from one item whose key the range writes into another moved there.
    added_keys: BTreeSet<String>,
    new_conditions: Vec<Range<usize>>,
    /// For each removed exit: the names its item calls at head.
    reaches: Vec<BTreeSet<String>>,
    /// Changed functions at head (by name) and the exits they hold (kind and shape).
    holds: Vec<(String, Vec<(ExitKind, String)>)>,
}

/// The deltas of every changed file with a grammar, by path.
pub type Deltas = BTreeMap<String, FileDelta>;

/// What reading the trees cost.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub files: usize,
    /// Bytes of base and head source parsed.
    pub bytes: usize,
    /// Time spent parsing and reading outlines, summed over the threads.
    pub busy: Duration,
    /// Time spent reading the two versions from git, summed over the threads.
    pub read: Duration,
    /// Time from the first read to the last delta.
    pub wall: Duration,
    /// Bytes of the bases left out of their trees (blocks far from the change).
    pub left_out: usize,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let mb = self.bytes as f64 / 1e6;
        let per_mb = if mb > 0.0 {
            self.busy.as_secs_f64() * 1e3 / mb
        } else {
            0.0
        };
        write!(
            f,
            "syntax trees: {} files, {mb:.2} MB of base and head source read from git in {:.1} ms ({:.2} MB of each side left out: blocks far from the change), {:.1} ms busy parsing on two threads ({per_mb:.1} ms per MB read), {:.1} ms wall",
            self.files,
            self.read.as_secs_f64() * 1e3,
            self.left_out as f64 / 1e6,
            self.busy.as_secs_f64() * 1e3,
            self.wall.as_secs_f64() * 1e3
        )
    }
}

/// Reads and parses the two versions of every changed file with a grammar, and compares
/// them: on this thread, and on a second one once `idle` says a core is free (the
/// behavior graph is built on the other core first; this thread reads the smallest files
/// meanwhile, the largest after). Files without a grammar have no delta; the added lines
/// of Vue and Svelte components are read too ([`Components`]). `parsed` is called once,
/// as soon as both threads have ended: what follows runs on this thread alone and needs
/// none of the other core, which the caller can put to work meanwhile.
pub fn of_changeset(
    cs: &Changeset,
    repo: &Path,
    handoff: &crate::memory::PackHandoff,
    mut idle: impl FnMut() -> bool,
    parsed: impl FnOnce(),
) -> (Deltas, Components, Stats) {
    let started = Instant::now();
    let files: Vec<&FileData> = cs
        .files
        .iter()
        .map(|f| &f.data)
        .filter(|f| !f.binary && Grammar::of(&f.path).is_some())
        .collect();
    if files.is_empty() {
        parsed();
        let git = changed_components(cs)
            .next()
            .and_then(|_| git2::Repository::open(repo).ok());
        let components = components(cs, git.as_ref(), repo);
        return (Deltas::new(), components, Stats::default());
    }
    let macros = test_macros(cs, repo, &files);
    // Only the added lines' hashes are looked for in the bases, not every base line kept.
    let added = hashes_of(&files, Op::Add);
    let queue = Queue::new(by_size(repo, &files));
    let (mine, theirs) = std::thread::scope(|scope| {
        let mut helper = None;
        let ahead = cs.ahead();
        let mut reader = Reader::new(repo, &macros, &added, ahead);
        let reading = handoff.reading();
        loop {
            // The graph's thread has let its handle on the pack go between its two trees:
            // this one goes too, and the pack with the cache of delta bases they filled.
            if handoff.wanted() {
                reader.reopen();
                handoff.handed();
            }
            // Two threads at most: one more would only share the two cores, and each
            // thread keeps a malloc arena of its own. A thread that starts after the
            // graph's has ended takes over its arena.
            if helper.is_none() && idle() {
                // The graph's reads filled libgit2's cache of delta bases (up to 16 MB,
                // held while any handle keeps the pack open): let it go with the pack.
                reader.reopen();
                // The graph's thread has ended and the pack is closed: the memory they
                // held (the graph itself excepted) goes back before the largest files
                // are parsed.
                crate::memory::release_freed();
                let (queue, macros, added) = (&queue, &macros, &added);
                helper = Some(scope.spawn(move || {
                    let mut reader = Reader::new(repo, macros, added, ahead);
                    while let Some(f) = queue.smallest() {
                        reader.read(f);
                    }
                    reader.finish().0
                }));
            }
            let Some(f) = queue.first_threads(helper.is_none()) else {
                break;
            };
            reader.read(f);
        }
        drop(reading);
        let theirs = helper.map(|h| h.join().unwrap_or_default());
        (reader.finish(), theirs.unwrap_or_default())
    });
    parsed();
    let ((mine, git), theirs) = (mine, theirs);
    let mut stats = Stats::default();
    let mut deltas = Deltas::new();
    // Added lines that stand in a changed file's base: an added copy of one is not new code.
    let mut based = HashSet::new();
    for (part, s, lines) in [mine, theirs] {
        based.extend(lines);
        deltas.extend(part);
        stats.files += s.files;
        stats.bytes += s.bytes;
        stats.busy += s.busy;
        stats.read += s.read;
        stats.left_out += s.left_out;
    }
    // Removed and added subtrees matched across every changed file: what moved (into a
    // helper, another file, renamed) is neither removed nor new.
    let m = Instant::now();
    settle_moves(&mut deltas);
    stats.busy += m.elapsed();
    // A condition that stood as a condition in another changed file's base was moved
    // or copied from there (`if threads == 1` copied into a new module). The bases are
    // read again, one at a time, rather than held from the first pass.
    let stood = conditions_standing(
        git.as_ref(),
        &files,
        deltas
            .values()
            .flat_map(|d| d.new_conditions.iter().map(|c| squeeze(&c.text))),
    );
    for d in deltas.values_mut() {
        let (stood, new): (Vec<At>, Vec<At>) = std::mem::take(&mut d.new_conditions)
            .into_iter()
            .partition(|c| stood.contains(&squeeze(&c.text)));
        d.new_conditions = new;
        d.moved_conditions.extend(stood);
    }
    // A test deleted here and changed (added) in another file was moved.
    let tests_elsewhere: BTreeSet<String> = deltas
        .values()
        .flat_map(|d| d.changed_tests.iter())
        // A subtest `TestX/case` stands for its test too.
        .map(|t| t.name.split('/').next().unwrap_or(&t.name).to_string())
        .collect();
    // The tests the range deletes, by name, with the files it deletes them from.
    let mut removed_from: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (path, d) in &deltas {
        let names = d.removed_tests.iter().map(|t| &t.item);
        for name in names.chain(d.deleted_tests.iter().map(|t| &t.test.name)) {
            if tests_elsewhere.contains(name) {
                removed_from
                    .entry(name.clone())
                    .or_default()
                    .insert(path.as_str());
            }
        }
    }
    let removed_from: BTreeMap<String, Vec<String>> = removed_from
        .into_iter()
        .map(|(name, paths)| (name, paths.into_iter().map(str::to_string).collect()))
        .collect();
    for d in deltas.values_mut() {
        d.removed_tests
            .retain(|t| !tests_elsewhere.contains(&t.item));
        d.deleted_tests
            .retain(|t| !tests_elsewhere.contains(&t.test.name));
    }
    // A line another changed file lost, or has at base, is moved or copied code where
    // it appears.
    let moved = hashes_of(&files, Op::Remove);
    for f in &files {
        if let Some(d) = deltas.get_mut(&f.path) {
            d.copied_lines.extend(
                f.hunks
                    .iter()
                    .flat_map(|h| h.lines.iter())
                    .filter(|l| {
                        l.op == Op::Add
                            && line_hash(&l.text)
                                .is_some_and(|h| moved.contains(&h) || based.contains(&h))
                    })
                    .map(|l| l.line),
            );
        }
    }
    moved_tests(&mut deltas, &files, &removed_from);
    // The components are read with the same handle: its pack is mapped already.
    let components = components(cs, git.as_ref(), repo);
    stats.wall = started.elapsed();
    (deltas, components, stats)
}

/// A changed test the range deletes from another file (`removed_from`: the files each
/// deleted test name left) moved here: only what changed in transit is the change's. Its
/// fresh lines are the added ones in its span that are neither copied (a long line another
/// changed file lost or the base holds) nor, whitespace aside, the text of a line the range
/// removed (`}` and `#[test]` are too short to count as copied); a test moved with none
/// is no changed test, and one with some keeps the expectations those wrote (as
/// [`keep_written`] keeps a test's); the lines it brought unchanged leave `added_lines`.
/// A test really written here has a body no removed test had, so its lines stay fresh.
fn moved_tests(
    deltas: &mut Deltas,
    files: &[&FileData],
    removed_from: &BTreeMap<String, Vec<String>>,
) {
    if removed_from.is_empty() {
        return;
    }
    let mut removed_texts: Option<HashSet<String>> = None;
    for f in files {
        let Some(d) = deltas.get_mut(&f.path) else {
            continue;
        };
        let moved_here = |t: &Test| {
            let root = t.name.split('/').next().unwrap_or(&t.name);
            removed_from
                .get(root)
                .is_some_and(|from| from.iter().any(|p| *p != f.path))
        };
        if !d.changed_tests.iter().any(moved_here) {
            continue;
        }
        let removed_texts = removed_texts.get_or_insert_with(|| {
            files
                .iter()
                .flat_map(|f| f.hunks.iter().flat_map(|h| h.lines.iter()))
                .filter(|l| l.op == Op::Remove)
                .map(|l| squeeze(&l.text))
                .collect()
        });
        let fresh: BTreeSet<u32> = f
            .hunks
            .iter()
            .flat_map(|h| h.lines.iter())
            .filter(|l| l.op == Op::Add && !d.copied_lines.contains(&l.line))
            .filter(|l| {
                let text = squeeze(&l.text);
                !text.is_empty() && !removed_texts.contains(&text)
            })
            .map(|l| l.line)
            .collect();
        let FileDelta {
            changed_tests,
            added_lines,
            statement_ends,
            written_expectations,
            ..
        } = d;
        changed_tests.retain_mut(|t| {
            if !moved_here(t) {
                return true;
            }
            // What it brought unchanged is no line the change wrote.
            let span = t.line..=t.end.max(t.line);
            added_lines.retain(|l| !span.contains(l) || fresh.contains(l));
            if fresh.range(span.clone()).next().is_none() {
                return false;
            }
            written_expectations.retain(|line, _| !span.contains(line));
            keep_written(t, &fresh, statement_ends, written_expectations);
            true
        });
    }
}

/// What each added line of a file without a delta says, by path: only Vue and Svelte
/// components, read by their script and markup grammars (a line of any other file with
/// no grammar says nothing).
pub type Components = BTreeMap<String, BTreeMap<u32, LineFacts>>;

/// The changed components with added lines.
fn changed_components(cs: &Changeset) -> impl Iterator<Item = &FileData> {
    cs.files
        .iter()
        .map(|f| &f.data)
        .filter(|f| !f.binary && qa_syntax::sfc::is_component(&f.path))
        .filter(|f| {
            f.hunks
                .iter()
                .any(|h| h.lines.iter().any(|l| l.op == Op::Add))
        })
}

/// The line facts of the changed components' added lines, from their head versions.
fn components(cs: &Changeset, git: Option<&git2::Repository>, repo: &Path) -> Components {
    let Some(git) = git else {
        return Components::new();
    };
    changed_components(cs)
        .filter_map(|f| {
            let head = sources::head(git, repo, f)?;
            let facts = qa_syntax::lines::read_component(&head, &lines(f, Op::Add));
            Some((f.path.clone(), facts))
        })
        .collect()
}

/// The `line_hash`es of the changed files' lines that `op` (added or removed).
fn hashes_of(files: &[&FileData], op: Op) -> HashSet<u64> {
    files
        .iter()
        .flat_map(|f| f.hunks.iter().flat_map(|h| h.lines.iter()))
        .filter(|l| l.op == op)
        .filter_map(|l| line_hash(&l.text))
        .collect()
}

/// What one thread of [`of_changeset`] found: its deltas, its costs, and which of the
/// added lines' hashes the bases it read hold.
type Part = (Vec<(String, FileDelta)>, Stats, HashSet<u64>);

/// The files to read, largest first: once both threads read, one takes from the front and
/// the other from the back, so the two largest trees are not held at once and both end
/// together (before that, the one thread takes from the back).
struct Queue<'a> {
    files: Vec<&'a FileData>,
    /// The untaken files are `files[ends.0..ends.1]`.
    ends: Mutex<(usize, usize)>,
}

impl<'a> Queue<'a> {
    fn new(files: Vec<&'a FileData>) -> Queue<'a> {
        let ends = Mutex::new((0, files.len()));
        Queue { files, ends }
    }

    fn largest(&self) -> Option<&'a FileData> {
        let mut ends = self.ends.lock().unwrap_or_else(|e| e.into_inner());
        (ends.0 < ends.1).then(|| {
            ends.0 += 1;
            self.files[ends.0 - 1]
        })
    }

    /// The next file for the thread that reads from the start: while the behavior graph is
    /// still being built on the other core its thread holds most of the heap, so the
    /// smallest file then, and the largest once that memory is freed.
    fn first_threads(&self, graph_building: bool) -> Option<&'a FileData> {
        match graph_building {
            true => self.smallest(),
            false => self.largest(),
        }
    }

    fn smallest(&self) -> Option<&'a FileData> {
        let mut ends = self.ends.lock().unwrap_or_else(|e| e.into_inner());
        (ends.0 < ends.1).then(|| {
            ends.1 -= 1;
            self.files[ends.1]
        })
    }
}

/// One thread's reading: its repository handle and what it found so far.
struct Reader<'a> {
    git: Option<git2::Repository>,
    repo: &'a Path,
    macros: &'a [String],
    added: &'a HashSet<u64>,
    ahead: &'a Ahead,
    part: Part,
}

impl<'a> Reader<'a> {
    fn new(
        repo: &'a Path,
        macros: &'a [String],
        added: &'a HashSet<u64>,
        ahead: &'a Ahead,
    ) -> Reader<'a> {
        Reader {
            git: git2::Repository::open(repo).ok(),
            repo,
            macros,
            added,
            ahead,
            part: Part::default(),
        }
    }

    /// Closes the repository and opens it again: the pack and its caches are freed once
    /// no other handle holds them.
    fn reopen(&mut self) {
        self.git = None;
        self.git = git2::Repository::open(self.repo).ok();
    }

    /// Reads the two versions of `f` and compares them.
    fn read(&mut self, f: &FileData) {
        let Some(git) = &self.git else { return };
        let (deltas, stats, lines) = &mut self.part;
        let r = Instant::now();
        let v = sources::versions(git, self.repo, f);
        stats.read += r.elapsed();
        lines.extend(
            v.base
                .iter()
                .flat_map(|b| b.lines())
                .filter_map(line_hash)
                .filter(|h| self.added.contains(h)),
        );
        let t = Instant::now();
        let d = delta(f, &v, self.macros, &mut stats.left_out, self.ahead);
        deltas.extend(d.map(|d| (f.path.clone(), d)));
        stats.busy += t.elapsed();
        stats.files += 1;
        stats.bytes +=
            v.base.as_ref().map_or(0, String::len) + v.head.as_ref().map_or(0, String::len);
    }

    /// What the thread found, and its repository handle: the pack's caches stay warm for
    /// a second pass over the same blobs.
    fn finish(self) -> (Part, Option<git2::Repository>) {
        (self.part, self.git)
    }
}

/// The changed files, largest (base and head together) first, by the sizes the object
/// database records without reading the blobs.
fn by_size<'a>(repo: &Path, files: &[&'a FileData]) -> Vec<&'a FileData> {
    let odb = git2::Repository::open(repo).ok();
    let odb = odb.as_ref().and_then(|git| git.odb().ok());
    let size = |oid: &Option<String>| {
        let oid = oid.as_deref().and_then(|o| git2::Oid::from_str(o).ok());
        match (oid, &odb) {
            (Some(oid), Some(odb)) => odb.read_header(oid).map_or(0, |(len, _)| len),
            _ => 0,
        }
    };
    let mut sized: Vec<(usize, &FileData)> = files
        .iter()
        .map(|f| (size(&f.old_oid) + size(&f.new_oid), *f))
        .collect();
    // Stable: equal sizes keep the stream's order.
    sized.sort_by_key(|(len, _)| std::cmp::Reverse(*len));
    sized.into_iter().map(|(_, f)| f).collect()
}

/// Rust macros that define tests, from the `macro_rules!` of the changed Rust files'
/// directories at head (a test macro usually sits beside the tests that use it).
fn test_macros(cs: &Changeset, repo: &Path, files: &[&FileData]) -> Vec<String> {
    // The changed files' directories and every directory above them: `tests/index/x.rs`
    // uses the macros of `tests/macros.rs`.
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for f in files
        .iter()
        .filter(|f| Grammar::of(&f.path) == Some(Grammar::Rust))
    {
        let mut dir = f.path.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            dirs.insert(parent);
            dir = parent;
        }
        dirs.insert("");
    }
    let Some(head) = cs.range.as_ref().map(|r| r.data.head.oid.clone()) else {
        return Vec::new();
    };
    if dirs.is_empty() {
        return Vec::new();
    }
    let Ok(git) = git2::Repository::open(repo) else {
        return Vec::new();
    };
    let Ok(tree) = git.revparse_single(&head).and_then(|o| o.peel_to_tree()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for dir in dirs {
        let listing = if dir.is_empty() {
            Some(tree.clone())
        } else {
            tree.get_path(Path::new(dir))
                .ok()
                .and_then(|e| e.to_object(&git).ok())
                .and_then(|o| o.into_tree().ok())
        };
        let Some(listing) = listing else { continue };
        for entry in listing.iter().take(500) {
            let is_rs = entry.name().is_ok_and(|n| n.ends_with(".rs"));
            let Some(blob) = is_rs
                .then(|| entry.to_object(&git).ok())
                .flatten()
                .and_then(|o| o.into_blob().ok())
            else {
                continue;
            };
            let Ok(text) = std::str::from_utf8(blob.content()) else {
                continue;
            };
            if blob.size() > sources::MAX_BYTES || !text.contains("macro_rules!") {
                continue;
            }
            if let Some(o) = trees::outline(Grammar::Rust, text, &[]) {
                out.extend(o.test_macros);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The delta of one file, or `None` when neither version could be parsed.
/// `left_out_bytes` grows by the bytes of the base its tree left out.
/// `ahead` compares the two trees as a commit's verdict would, when it wants the file.
pub fn delta(
    file: &FileData,
    v: &sources::Versions,
    macros: &[String],
    left_out_bytes: &mut usize,
    ahead: &Ahead,
) -> Option<FileDelta> {
    let grammar = Grammar::of(&file.path)?;
    // The head is the base edited where the hunks say: re-parsed incrementally when the
    // hunks are whole, from scratch otherwise.
    let edits = line_edits(file);
    let pair = trees::pair(
        grammar,
        v.base.as_deref(),
        v.head.as_deref(),
        (!file.truncated).then_some(edits.as_slice()),
    );
    if let (Some(b), Some(h), false) = (v.base.as_deref(), v.head.as_deref(), file.truncated) {
        let oids = (file.old_oid.as_deref(), file.new_oid.as_deref());
        ahead.offer(&file.path, oids, (b, h), &edits, &pair);
    }
    let trees::Pair {
        base: base_tree,
        head: head_tree,
        left_out,
        marked,
    } = pair;
    *left_out_bytes += left_out;
    // Only what overlaps the changed lines is read (the items around them included);
    // a file with a truncated diff is read whole.
    let limit = |text: &str, side: fn(&trees::LineEdit) -> (usize, usize)| {
        (!file.truncated).then(|| trees::byte_ranges(text, edits.iter().map(side)))
    };
    let base_ranges = v.base.as_deref().and_then(|t| limit(t, |e| e.base));
    let head_ranges = v.head.as_deref().and_then(|t| limit(t, |e| e.head));
    let outline =
        |tree: Option<&Tree>, text: Option<&str>, ranges: Option<&[Range<usize>]>, marked| {
            let (tree, text) = tree.zip(text)?;
            Some(trees::outline_marked(
                grammar, tree, text, macros, ranges, marked,
            ))
        };
    let base = outline(
        base_tree.as_ref(),
        v.base.as_deref(),
        base_ranges.as_deref(),
        marked[0],
    );
    let head = outline(
        head_tree.as_ref(),
        v.head.as_deref(),
        head_ranges.as_deref(),
        marked[1],
    );
    if base.is_none() && head.is_none() {
        return None;
    }
    let empty = Outline::default();
    let base = base.as_ref().unwrap_or(&empty);
    let head = head.as_ref().unwrap_or(&empty);
    let added: BTreeSet<u32> = lines(file, Op::Add);
    let removed: BTreeSet<u32> = lines(file, Op::Remove);
    let base_lines = base_lines(v.base.as_deref());
    let copied_lines: BTreeSet<u32> = file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == Op::Add && line_hash(&l.text).is_some_and(|h| base_lines.contains(&h)))
        .map(|l| l.line)
        .collect();
    let statements = match (&head_tree, v.head.as_deref()) {
        (Some(tree), Some(text)) => Some(trees::Statements::new(tree, text)),
        _ => None,
    };
    let statement_end = |line: u32| statements.as_ref().map_or(line, |s| s.end(line));
    let mut d = compare(
        base,
        head,
        &added,
        &removed,
        file,
        (
            &Squeezed::of(v.base.as_deref()),
            v.head.as_deref().unwrap_or(""),
        ),
        &statement_end,
    );
    rewritten_entries(&mut d, v.base.as_deref(), v.head.as_deref());
    d.copied_lines = copied_lines;
    let head_text = v.head.as_deref().unwrap_or("");
    let base_text = v.base.as_deref().unwrap_or("");
    for t in &base.tests {
        // A subtest goes with its test: `TestX/case` is named by `TestX`.
        if t.name.contains('/') {
            continue;
        }
        let all_removed = (t.line..=t.end).all(|l| removed.contains(&l));
        // Its name stands fewer times at head than at base: gone, even when another
        // test of the file bears the same title (`it('sets the status')` in two describes).
        let name = t.name.as_str();
        if all_removed && head_text.matches(name).count() < base_text.matches(name).count() {
            let line = head_line_of(file, t.line);
            d.removed_tests.push(At {
                item: t.name.clone(),
                line,
                text: t.title.clone(),
            });
            let written = t
                .expects
                .iter()
                .map(|e| {
                    let at = (e.line as usize).saturating_sub(1);
                    base_text.lines().nth(at).unwrap_or("").trim().to_string()
                })
                .collect();
            d.deleted_tests.push(DeletedTest {
                test: t.clone(),
                line,
                written,
            });
        }
    }
    if let (Some(tree), Some(text)) = (&head_tree, v.head.as_deref()) {
        d.line_facts = qa_syntax::lines::read(grammar, tree, text, &added);
        // Most changes carry no tag: the tree is walked for them only when one may.
        let tagged = file.hunks.iter().flat_map(|h| h.lines.iter());
        if tagged
            .filter(|l| l.op == Op::Add)
            .any(|l| l.text.contains("@qa"))
        {
            d.annotations = qa_syntax::annotations::read(grammar, tree, text, &added);
        }
    }
    // A removed condition is dropped only if the head holds it nowhere (whitespace aside).
    let head_squeezed = Squeezed::of(v.head.as_deref());
    // Not a rewrite: the item still stands at head and gained no condition of its own.
    let rewritten: BTreeSet<&str> = d
        .new_conditions
        .iter()
        .chain(&d.moved_conditions)
        .map(|c| c.item.as_str())
        .collect();
    let head_paths: BTreeSet<&str> = head.items.iter().map(|i| i.path.as_str()).collect();
    for c in base.conditions.iter().filter(|c| removed.contains(&c.line)) {
        let item = base.path_of(c.item);
        if c.text.len() >= 3
            && !head_squeezed.get().contains(squeeze(&c.text).as_str())
            && head_paths.contains(item)
            && !rewritten.contains(item)
        {
            d.removed_conditions.push(At {
                item: base.path_of(c.item).to_string(),
                line: head_line_of(file, c.line),
                text: c.text.clone(),
            });
            d.sites.removed_conditions.push(c.bytes.clone());
        }
    }
    if let (Some(tree), Some(text)) = (&head_tree, v.head.as_deref()) {
        d.own_helpers = crate::oracle::support::own_helpers(grammar, tree, left_out > 0, text, &d);
    }
    // Test code makes no removal claim and no product code moves into it: its subtrees
    // are not matched (a changed test file is often the largest part of a change).
    let tests = file.role == qa_records::change::Role::Test;
    if let (Some(tree), Some(text), false) = (&base_tree, v.base.as_deref(), tests) {
        d.sites.removed = Forest::of(tree, text, &removed);
    }
    if let (Some(tree), Some(text)) = (&head_tree, v.head.as_deref()) {
        if !tests {
            d.sites.added = Forest::of(tree, text, &added);
        }
        reach(&mut d, grammar, head, tree, text, !tests);
    }
    Some(d)
}

/// What the functions of the removed exits reach at head: an item that still holds an
/// exit of the same class loses the claim at once; else the names it calls are kept, with
/// the exits every changed function holds (outside test files, when `holds`), for [`settle_moves`] to follow one call.
fn reach(
    d: &mut FileDelta,
    grammar: Grammar,
    head: &Outline,
    tree: &tree_sitter::Tree,
    text: &str,
    holds: bool,
) {
    let functions: Vec<&trees::Item> = head
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Function)
        .collect();
    let changed: BTreeSet<String> = d.changed_items.iter().map(|(p, _, _)| p.clone()).collect();
    let mut held: BTreeMap<String, Vec<(ExitKind, String)>> = BTreeMap::new();
    let mut exits_of = |it: &trees::Item| {
        held.entry(it.path.clone())
            .or_insert_with(|| trees::exits_within(grammar, tree, text, it.byte_range()))
            .clone()
    };
    let claims = std::mem::take(&mut d.removed_exits);
    let sites = std::mem::take(&mut d.sites.removed_exits);
    for ((at, kind), site) in claims.into_iter().zip(sites) {
        let item = functions.iter().find(|i| i.path == at.item);
        if let Some(it) = item {
            let shape = trees::shape_of(&at.text);
            if exits_of(it)
                .iter()
                .any(|(k, s)| still_fails(kind, &shape, *k, s))
            {
                continue;
            }
        }
        let calls = item.map_or_else(BTreeSet::new, |it| {
            trees::callees(text.get(it.byte_range()).unwrap_or(""))
                .into_iter()
                .map(String::from)
                .collect()
        });
        d.removed_exits.push((at, kind));
        d.sites.removed_exits.push(site);
        d.sites.reaches.push(calls);
    }
    // Only a function whose text names a panic or a throw is read for them: most changed
    // functions hold none, and reading every node of each would cost more than the rest.
    let marked = |it: &trees::Item| {
        let code = text.get(it.byte_range()).unwrap_or("");
        fail_words(grammar).iter().any(|m| code.contains(m))
    };
    for it in functions
        .iter()
        .filter(|i| holds && changed.contains(&i.path) && marked(i))
    {
        let exits: Vec<(ExitKind, String)> = exits_of(it)
            .into_iter()
            .filter(|(k, _)| *k != ExitKind::Error)
            .collect();
        if !exits.is_empty() {
            d.sites.holds.push((it.name.clone(), exits));
        }
    }
}

/// Words without which code of a grammar holds no panic or throw.
fn fail_words(grammar: Grammar) -> &'static [&'static str] {
    match grammar {
        Grammar::Rust => &[
            "panic!",
            "unreachable!",
            "todo!",
            "unimplemented!",
            ".unwrap",
            ".expect",
        ],
        Grammar::Python => &["raise"],
        Grammar::Go => &["panic"],
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript | Grammar::Java => &["throw"],
        Grammar::Kotlin => &["throw", "error(", "TODO("],
    }
}

/// True when a function that lost an exit of `kind` and `shape` still fails the same way
/// through an exit it reaches: any panic for a panic (`unreachable!` or `unwrap()`: the
/// function still panics), the same thrown type or error construct for a throw or an
/// error (`throw new IllegalArgumentException` left is no `UnsupportedOperationException`).
fn still_fails(kind: ExitKind, shape: &str, held: ExitKind, held_shape: &str) -> bool {
    let panics = |k| matches!(k, ExitKind::Panic | ExitKind::Unwrap);
    if panics(kind) {
        return panics(held);
    }
    kind == held && shape == held_shape
}

/// Matches the removed and added subtrees of every file of the range, then keeps only the
/// claims that rest on unmatched code: a removed exit, check or entry whose subtree stands
/// at head (moved, extracted, inlined, renamed) is not removed, and a function that still
/// reaches an exit of the same class (in its body or a changed function it calls) does not
/// "no longer" fail that way; a new condition whose subtree was removed elsewhere moved.
pub fn settle_moves(deltas: &mut Deltas) {
    {
        let (mut removed, mut added): (Vec<&mut Forest>, Vec<&mut Forest>) = deltas
            .values_mut()
            .map(|d| (&mut d.sites.removed, &mut d.sites.added))
            .unzip();
        moves::match_all(&mut removed, &mut added);
    }
    let added_keys: BTreeSet<String> = deltas
        .values()
        .flat_map(|d| d.sites.added_keys.iter().cloned())
        .collect();
    // Changed functions that hold an exit at head, by name and class.
    let holds: Vec<(String, ExitKind, String)> = deltas
        .values()
        .flat_map(|d| &d.sites.holds)
        .flat_map(|(name, exits)| exits.iter().map(|(k, s)| (name.clone(), *k, s.clone())))
        .collect();
    for d in deltas.values_mut() {
        let sites = std::mem::take(&mut d.sites);
        let exits = std::mem::take(&mut d.removed_exits);
        d.removed_exits = exits
            .into_iter()
            .zip(sites.removed_exits.iter().zip(&sites.reaches))
            .filter(|((claim, kind), (at, calls))| {
                let shape = trees::shape_of(&claim.text);
                !sites.removed.moved(at)
                    && !holds.iter().any(|(name, k, s)| {
                        calls.contains(name) && still_fails(*kind, &shape, *k, s)
                    })
            })
            .map(|(claim, _)| claim)
            .collect();
        // A check stands or falls whole; an entry (a match arm) moved with a few edits
        // in its body is still the entry.
        let keep = |claims: Vec<At>, at: &[Range<usize>], gone: fn(Matched) -> bool| {
            claims
                .into_iter()
                .zip(at)
                .filter(|(_, at)| gone(sites.removed.matched(at)))
                .map(|(c, _)| c)
                .collect::<Vec<At>>()
        };
        d.removed_conditions = keep(
            std::mem::take(&mut d.removed_conditions),
            &sites.removed_conditions,
            |m| m != Matched::Whole,
        );
        d.removed_elements = keep(
            std::mem::take(&mut d.removed_elements),
            &sites.removed_elements,
            |m| m == Matched::No,
        );
        // An entry is known by its key: one the range writes again, in another item or
        // file, moved there (a `when` arm whose `return` became the moved arm's value).
        d.removed_elements
            .retain(|e| !added_keys.contains(&element_key(&e.text)));
        let (moved, new): (Vec<_>, Vec<_>) = std::mem::take(&mut d.new_conditions)
            .into_iter()
            .zip(&sites.new_conditions)
            .partition(|(_, at)| sites.added.moved(at));
        d.new_conditions = new.into_iter().map(|(c, _)| c).collect();
        d.moved_conditions.extend(moved.into_iter().map(|(c, _)| c));
    }
}

/// Drops the removed entries whose text (whitespace aside) the head still holds at least as
/// often as the base did: the code was rewritten around them (`Tokens(_) => true` arms
/// become `matches!(self, Tokens(_))`), so "no longer has the entry" would claim the
/// removal of code that still stands.
fn rewritten_entries(d: &mut FileDelta, base: Option<&str>, head: Option<&str>) {
    if d.removed_elements.is_empty() {
        return;
    }
    let (base, head) = (Squeezed::of(base), Squeezed::of(head));
    let gone: Vec<bool> = d
        .removed_elements
        .iter()
        .map(|e| {
            let entry = squeeze(&e.text);
            entry.is_empty()
                || head.get().matches(&entry).count() < base.get().matches(&entry).count()
        })
        .collect();
    let mut keep = gone.iter();
    d.removed_elements.retain(|_| *keep.next().unwrap_or(&true));
    let mut keep = gone.iter();
    d.sites
        .removed_elements
        .retain(|_| *keep.next().unwrap_or(&true));
}

/// The hunks as line edits (0-based, end-exclusive).
fn line_edits(file: &FileData) -> Vec<trees::LineEdit> {
    file.hunks
        .iter()
        .map(|h| trees::LineEdit::of_hunk(h.old_start, h.old_lines, h.new_start, h.new_lines))
        .collect()
}

fn lines(file: &FileData, op: Op) -> BTreeSet<u32> {
    file.hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == op)
        .map(|l| l.line)
        .collect()
}

/// Compares two outlines given the added (head) and removed (base) line numbers, with the
/// base text (squeezed) and the head text they were read from.
pub fn compare(
    base: &Outline,
    head: &Outline,
    added: &BTreeSet<u32>,
    removed: &BTreeSet<u32>,
    file: &FileData,
    (base_squeezed, head_text): (&Squeezed, &str),
    statement_end: &dyn Fn(u32) -> u32,
) -> FileDelta {
    let mut d = FileDelta::default();
    let at = |o: &Outline, item: Option<usize>, line: u32, text: &str| At {
        item: o.path_of(item).to_string(),
        line,
        text: text.to_string(),
    };

    let mut seen = BTreeSet::new();
    for &line in added {
        if let Some(i) = head.item_at(line) {
            let it = &head.items[i];
            if seen.insert(it.path.clone()) {
                d.changed_items.push((it.path.clone(), it.kind, it.start));
            }
        }
    }

    let base_conditions: BTreeSet<&str> = base.conditions.iter().map(|c| c.text.as_str()).collect();
    for c in head.conditions.iter().filter(|c| added.contains(&c.line)) {
        d.condition_spans.push((c.line, c.end));
        let a = at(head, c.item, c.line, &c.text);
        // The base outline holds the conditions near the change; one that stood anywhere
        // else in the base file is found in its text (whitespace ignored).
        let elsewhere =
            c.text.len() >= 6 && stood_as_condition(base_squeezed.get(), &squeeze(&c.text));
        if base_conditions.contains(c.text.as_str()) || elsewhere {
            d.moved_conditions.push(a);
        } else {
            d.new_conditions.push(a);
            d.sites.new_conditions.push(c.bytes.clone());
        }
    }

    // An exit is added or removed when its item has more (fewer) exits of its shape on
    // changed lines than before: a `raise` whose arguments changed is neither.
    let count = |o: &Outline, lines: &BTreeSet<u32>| {
        let mut n: BTreeMap<(String, String), usize> = BTreeMap::new();
        for e in o.exits.iter().filter(|e| lines.contains(&e.line)) {
            *n.entry((o.path_of(e.item).to_string(), e.shape.clone()))
                .or_default() += 1;
        }
        n
    };
    let (was, now) = (count(base, removed), count(head, added));
    let mut extra = now.clone();
    for (key, n) in &was {
        if let Some(m) = extra.get_mut(key) {
            *m = m.saturating_sub(*n);
        }
    }
    for e in head.exits.iter().filter(|e| added.contains(&e.line)) {
        let key = (head.path_of(e.item).to_string(), e.shape.clone());
        if let Some(m) = extra.get_mut(&key).filter(|m| **m > 0) {
            *m -= 1;
            d.added_exits
                .push((at(head, e.item, e.line, &e.text), e.kind));
        }
    }
    let mut lost = was;
    for (key, n) in &now {
        if let Some(m) = lost.get_mut(key) {
            *m = m.saturating_sub(*n);
        }
    }
    for e in base.exits.iter().filter(|e| removed.contains(&e.line)) {
        let path = base.path_of(e.item);
        let key = (path.to_string(), e.shape.clone());
        let Some(m) = lost.get_mut(&key).filter(|m| **m > 0) else {
            continue;
        };
        *m -= 1;
        // Where it was, at head: the same item, else the hunk that removed it.
        let line = head
            .items
            .iter()
            .find(|it| it.path == path)
            .map(|it| it.start)
            .unwrap_or_else(|| head_line_of(file, e.line));
        d.removed_exits.push((
            At {
                item: path.to_string(),
                line,
                text: e.text.clone(),
            },
            e.kind,
        ));
        d.sites.removed_exits.push(e.bytes.clone());
    }

    // An element is known by its key (`mounted` of `mounted(el) {...}`, `a` of `a: 1`):
    // one whose body changed is neither added nor removed.
    // An or-pattern (`(Mode::Grid(_), None) | (Mode::Lines, _)`) is known by each of its
    // alternatives: its alternatives reordered are no new arm, and an arm split out of it
    // is new only with a body (after `=>`) the base does not hold.
    let elements = |o: &Outline| -> BTreeSet<(String, String)> {
        o.elements
            .iter()
            .flat_map(|m| {
                let item = o.path_of(m.item);
                alternatives(&m.text)
                    .into_iter()
                    .map(move |k| (item.to_string(), k))
            })
            .collect()
    };
    let (base_el, head_el) = (elements(base), elements(head));
    let base_arms: BTreeSet<(&str, Vec<String>)> = base
        .elements
        .iter()
        .map(|m| (base.path_of(m.item), sorted(alternatives(&m.text))))
        .collect();
    let split_with_new_body = |m: &trees::Mark| {
        let alts = sorted(alternatives(&m.text));
        if base_arms.contains(&(head.path_of(m.item), alts)) {
            return false;
        }
        let body = head_text
            .get(m.bytes.clone())
            .and_then(|arm| arm.split_once("=>"))
            .map(|(_, body)| squeeze(body.trim_end_matches([',', ' ', '\n'])));
        body.is_some_and(|b| !b.is_empty() && !base_squeezed.get().contains(&b))
    };
    // Only items that exist on both sides: a new constant is new code, not new elements.
    let base_items: BTreeSet<&str> = base.items.iter().map(|i| i.path.as_str()).collect();
    let head_items: BTreeSet<&str> = head.items.iter().map(|i| i.path.as_str()).collect();
    for m in head.elements.iter().filter(|m| added.contains(&m.line)) {
        let key = (head.path_of(m.item).to_string(), element_key(&m.text));
        // A wildcard (`_`) names no entry, so nothing is known to move by it.
        if key.1.chars().any(char::is_alphanumeric) {
            d.sites.added_keys.insert(key.1.clone());
        }
        let new = alternatives(&m.text)
            .into_iter()
            .any(|k| !base_el.contains(&(key.0.clone(), k)))
            || split_with_new_body(m);
        if base_items.contains(key.0.as_str()) && new {
            d.added_elements.push(at(head, m.item, m.line, &m.text));
        }
    }
    for m in base.elements.iter().filter(|m| removed.contains(&m.line)) {
        let key = (base.path_of(m.item).to_string(), element_key(&m.text));
        let gone = alternatives(&m.text)
            .into_iter()
            .all(|k| !head_el.contains(&(key.0.clone(), k)));
        if head_items.contains(key.0.as_str()) && gone {
            d.removed_elements.push(At {
                item: key.0,
                line: head_line_of(file, m.line),
                text: m.text.clone(),
            });
            d.sites.removed_elements.push(m.bytes.clone());
        }
    }

    for h in head.items.iter().filter(|i| i.kind == ItemKind::Function) {
        let Some(b) = base
            .items
            .iter()
            .find(|b| b.kind == ItemKind::Function && b.path == h.path)
        else {
            continue;
        };
        for p in h.params.iter().filter(|p| !b.params.contains(p)) {
            d.added_params.push(At {
                item: h.path.clone(),
                line: h.start,
                text: p.clone(),
            });
        }
        for p in b.params.iter().filter(|p| !h.params.contains(p)) {
            d.removed_params.push(At {
                item: h.path.clone(),
                line: h.start,
                text: p.clone(),
            });
        }
    }

    // A changed test: one whose span holds an added line, or that lost a line; nested
    // subtests win over the test around them, unless the change also wrote lines of the
    // outer test outside them (the rows of the table its subtests run).
    // A removed line counts for the test that held it at base (a whole test removed next
    // to another one changes neither).
    let lost_lines = |t: &Test| {
        base.tests
            .iter()
            .filter(|b| b.name == t.name)
            .any(|b| removed.range(b.line..=b.end).next().is_some())
    };
    let touches = |t: &Test| added.range(t.line..=t.end).next().is_some() || lost_lines(t);
    let hits: Vec<&Test> = head.tests.iter().filter(|t| touches(t)).collect();
    for t in &hits {
        let has_inner = hits
            .iter()
            .any(|o| o.line >= t.line && o.end <= t.end && (o.line, o.end) != (t.line, t.end));
        let inner_changed = has_inner
            && hits.iter().any(|o| {
                o.line >= t.line
                    && o.end <= t.end
                    && (o.line, o.end) != (t.line, t.end)
                    && added.range(o.line..=o.end).next().is_some()
            });
        let written_outside_inner = || {
            added.range(t.line..=t.end).any(|&l| {
                !hits.iter().any(|o| {
                    o.line >= t.line
                        && o.end <= t.end
                        && (o.line, o.end) != (t.line, t.end)
                        && (o.line..=o.end).contains(&l)
                })
            })
        };
        if !inner_changed || written_outside_inner() {
            d.changed_tests.push((*t).clone());
        }
    }
    // The oracle of a change is what it asserts anew: new tests first, and within a test
    // the expectations on added lines first.
    let base_tests: BTreeSet<&str> = base.tests.iter().map(|t| t.name.as_str()).collect();
    d.changed_tests
        .sort_by_key(|t| base_tests.contains(t.name.as_str()));
    // When the change wrote some of a test's expectations, those are the oracle; the
    // unchanged rows beside them are context. An expectation is written by the change
    // when an added line stands anywhere in its statement, not only on its first line
    // (a message edited inside a multi-line assertion).
    // The helpers' calls become expectations later (oracle::support): their statements too.
    let starts: BTreeSet<u32> = d
        .changed_tests
        .iter()
        .flat_map(|t| {
            t.expects
                .iter()
                .map(|e| e.line)
                .chain(t.helper_calls.iter().map(|c| c.line))
        })
        .collect();
    d.statement_ends = starts.into_iter().map(|l| (l, statement_end(l))).collect();
    d.added_lines = added.clone();
    let FileDelta {
        changed_tests,
        added_lines,
        statement_ends,
        written_expectations,
        ..
    } = &mut d;
    for t in changed_tests {
        keep_written(t, added_lines, statement_ends, written_expectations);
        if base_tests.contains(t.name.as_str()) {
            join_written_setup(t, added_lines);
        }
    }
    d
}

/// A set-up call the change wrote into a test that stood before (`r.Use(mw)` added above
/// the same checks) is what the test now arranges differently: it joins the test's
/// set-up, which was read from the whole body and may not name it.
pub fn join_written_setup(t: &mut Test, added: &BTreeSet<u32>) {
    let written: Vec<String> = t
        .setup_calls
        .iter()
        .filter(|c| added.range(c.line..=c.end.max(c.line)).next().is_some())
        .filter(|c| {
            !t.setup
                .as_deref()
                .is_some_and(|s| s.contains(c.text.as_str()))
        })
        .map(|c| format!("run `{}`", c.text))
        .take(2)
        .collect();
    if written.is_empty() {
        return;
    }
    let mut items: Vec<String> = t.setup.take().into_iter().collect();
    items.extend(written);
    t.setup = Some(items.join(", "));
}

/// Keeps the expectations of changed test `t` that the change wrote, when it wrote any
/// (the unchanged rows beside them are context), at most [`MAX_EXPECTS`], and notes in
/// `written` the first added line of each kept one that was written. An expectation is
/// written when an added line stands anywhere in its statement (`ends`: the last line
/// of the statement starting on a line), not only on its first line: a message edited
/// inside a multi-line assertion. When the change wrote none of them but wrote in the
/// test (a set-up, a call), the checks after its first written line are kept: they
/// observe what it changed, and those before it cannot. A check repeated word for word
/// is kept once, where the change wrote it if it did.
pub fn keep_written(
    t: &mut Test,
    added: &BTreeSet<u32>,
    ends: &BTreeMap<u32, u32>,
    written: &mut BTreeMap<u32, u32>,
) {
    let edit = |e: &Expectation| {
        let last = ends.get(&e.line).copied().unwrap_or(e.line);
        let last = last.clamp(e.line, t.end.max(e.line));
        added.range(e.line..=last).next().copied()
    };
    if t.expects.iter().any(|e| edit(e).is_some()) {
        t.expects.retain(|e| edit(e).is_some());
    } else if let Some(&first) = added.range(t.line..=t.end.max(t.line)).next() {
        t.expects.retain(|e| e.line > first);
    }
    let mut seen = HashSet::new();
    t.expects.retain(|e| seen.insert(e.text.clone()));
    t.expects.truncate(MAX_EXPECTS);
    for e in &t.expects {
        if let Some(at) = edit(e) {
            written.insert(e.line, at);
        }
    }
}

/// Most expectations kept per changed test.
const MAX_EXPECTS: usize = 6;

/// Shortest line (whitespace-free) that counts as copied: `}` or `return;` are everywhere.
pub const MIN_COPIED: usize = 12;

/// The lines of a base text long enough to count as copied, by `line_hash`.
fn base_lines(text: Option<&str>) -> HashSet<u64> {
    text.unwrap_or("").lines().filter_map(line_hash).collect()
}

/// A line's identity whitespace aside (FNV-1a over its other bytes), for lines of at least
/// `MIN_COPIED` such bytes; computed without building the squeezed text.
pub fn line_hash(line: &str) -> Option<u64> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut len = 0;
    for b in line.bytes().filter(|b| !b.is_ascii_whitespace()) {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        len += 1;
    }
    (len >= MIN_COPIED).then_some(hash)
}

/// A whole text without its whitespace, squeezed when first asked for: most files have
/// no condition to look up in it.
pub struct Squeezed<'a> {
    text: &'a str,
    squeezed: std::cell::OnceCell<String>,
}

impl<'a> Squeezed<'a> {
    pub fn of(text: Option<&'a str>) -> Squeezed<'a> {
        Squeezed {
            text: text.unwrap_or(""),
            squeezed: std::cell::OnceCell::new(),
        }
    }

    pub fn get(&self) -> &str {
        self.squeezed.get_or_init(|| squeeze(self.text))
    }
}

/// A line without its whitespace (`char::is_whitespace`, Unicode's included).
pub fn squeeze(line: &str) -> String {
    // Whole files are squeezed: each byte is written and the end moves past it unless it
    // is layout, with no branch on the irregular layout of code; splitting on a `char`
    // predicate decoded every character and branched at every blank.
    let bytes = line.as_bytes();
    let mut out = vec![0u8; bytes.len()];
    let mut end = 0;
    if line.is_ascii() {
        end = squeeze_ascii(bytes, &mut out, end);
    } else {
        // ASCII runs as above; a non-ASCII character (rare in code) decoded and kept
        // unless it is whitespace.
        let mut i = 0;
        while i < bytes.len() {
            let run = bytes[i..]
                .iter()
                .position(|b| !b.is_ascii())
                .map_or(bytes.len(), |n| i + n);
            end = squeeze_ascii(&bytes[i..run], &mut out, end);
            i = run;
            if let Some(c) = line.get(i..).and_then(|rest| rest.chars().next()) {
                let width = c.len_utf8();
                if !c.is_whitespace() {
                    out[end..end + width].copy_from_slice(&bytes[i..i + width]);
                    end += width;
                }
                i += width;
            }
        }
    }
    out.truncate(end);
    // Whole characters were left out of valid UTF-8: what remains is valid.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes the ASCII `run` into `out` from `end` without its layout; returns the new end.
fn squeeze_ascii(run: &[u8], out: &mut [u8], mut end: usize) -> usize {
    for &b in run {
        out[end] = b;
        end += usize::from(!LAYOUT[usize::from(b)]);
    }
    end
}

/// The ASCII whitespace [`squeeze`] drops (as `char::is_whitespace` does), by byte.
const LAYOUT: [bool; 256] = {
    let mut layout = [false; 256];
    let mut i = 0;
    while i < 256 {
        layout[i] = matches!(i as u8, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
        i += 1;
    }
    layout
};

/// `keys` in order, so that an or-pattern's alternatives compare as a set.
fn sorted(mut keys: Vec<String>) -> Vec<String> {
    keys.sort_unstable();
    keys
}

/// The keys of an element: of each alternative of an or-pattern (split at a `|` outside
/// brackets and strings, `||` kept whole), else its one key.
fn alternatives(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q && bytes.get(i.wrapping_sub(1)) != Some(&b'\\') => {
                quote = None;
            }
            (Some(_), _) => {}
            (None, b'"' | b'\'' | b'`') => quote = Some(b),
            (None, b'(' | b'[' | b'{') => depth += 1,
            (None, b')' | b']' | b'}') => depth -= 1,
            (None, b'|')
                if depth == 0
                    && bytes.get(i + 1) != Some(&b'|')
                    && (i == 0 || bytes[i - 1] != b'|') =>
            {
                out.push(element_key(&text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(element_key(&text[start..]));
    out
}

/// What names an element: the key of a `key: value` pair or the name of a method,
/// else the whole element (a string in a list is its own key).
fn element_key(text: &str) -> String {
    let t = text.trim();
    let quoted = t.starts_with(['"', '\'', '`']);
    // A tuple or struct pattern (`(Mode::Grid(opts), None)`) has no name before its
    // bracket: the whole of it is its key.
    let cut = t.find([':', '(', '{', '=']).filter(|&i| !quoted && i > 0);
    squeeze(cut.map_or(t, |i| &t[..i]))
}

/// Which of `conditions` (whitespace-free, six bytes or more) a changed file's base holds
/// as a whole condition, whitespace aside: each base is read again and searched in one
/// pass (longest first, so a condition inside a longer one is found where it stands alone).
fn conditions_standing(
    git: Option<&git2::Repository>,
    files: &[&FileData],
    conditions: impl Iterator<Item = String>,
) -> BTreeSet<String> {
    let mut wanted: Vec<String> = conditions.filter(|c| c.len() >= 6).collect();
    wanted.sort_by_key(|c| std::cmp::Reverse(c.len()));
    wanted.dedup();
    if wanted.is_empty() {
        return BTreeSet::new();
    }
    let Some(git) = git else {
        return BTreeSet::new();
    };
    // Leftmost-first over the longest-first list: where conditions overlap, the longest
    // one that starts first is the match, as in a regex alternation.
    let finder = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostFirst)
        .build(&wanted)
        .ok();
    let mut stood = BTreeSet::new();
    for f in files {
        let Some(base) = sources::base(git, f) else {
            continue;
        };
        let text = squeeze(&base);
        match &finder {
            Some(finder) => stood.extend(
                finder
                    .find_iter(&text)
                    .filter(|m| stands_alone(&text, m.start(), m.end()))
                    .map(|m| wanted[m.pattern().as_usize()].clone()),
            ),
            // Too many conditions for one automaton: one search per condition instead.
            None => stood.extend(
                wanted
                    .iter()
                    .filter(|c| stood_as_condition(&text, c))
                    .cloned(),
            ),
        }
    }
    stood
}

/// True when the whitespace-free text holds `condition` as a whole condition: right after
/// `if`/`while`/`(` and right before `)`, `{`, `:`, `?` or a match guard's `=>` (not inside
/// a larger expression).
fn stood_as_condition(squeezed: &str, condition: &str) -> bool {
    squeezed
        .match_indices(condition)
        .any(|(at, _)| stands_alone(squeezed, at, at + condition.len()))
}

/// True when `text[start..end]` is a whole condition: right after `if`/`while`/`(`, right
/// before `)`, `{`, `:`, `?` or `=>`.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let (before, after) = (&text[..start], &text[end..]);
    (before.ends_with('(') || before.ends_with("if") || before.ends_with("while"))
        && (after.starts_with([')', '{', ':', '?']) || after.starts_with("=>"))
}

/// The head line a base line maps to: the hunk's new start plus the offset, clamped.
fn head_line_of(file: &FileData, base_line: u32) -> u32 {
    let mut shift: i64 = 0;
    for h in &file.hunks {
        if base_line < h.old_start {
            break;
        }
        if base_line < h.old_start + h.old_lines.max(1) {
            return h.new_start.max(1);
        }
        shift = h.new_start as i64 + h.new_lines as i64 - (h.old_start as i64 + h.old_lines as i64);
    }
    (base_line as i64 + shift).max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(path: &str) -> FileData {
        serde_json::from_value(serde_json::json!({
            "added": 1, "binary": false, "delta": "branch", "hunk_count": 0, "hunks": [],
            "new_oid": null, "old_oid": null, "old_path": null, "path": path, "removed": 0,
            "role": "product", "sha256": null, "status": "modified", "truncated": false
        }))
        .unwrap()
    }

    /// Three changed files, largest first (as `by_size` orders them).
    fn by_size_order() -> [FileData; 3] {
        ["large.ts", "middle.ts", "small.ts"].map(changed)
    }

    #[test]
    fn the_first_thread_reads_the_smallest_file_while_the_graph_is_built() {
        let files = by_size_order();
        let queue = Queue::new(files.iter().collect());
        assert_eq!(queue.first_threads(true).unwrap().path, "small.ts");
    }

    #[test]
    fn the_first_thread_reads_the_largest_file_once_the_graph_is_built() {
        let files = by_size_order();
        let queue = Queue::new(files.iter().collect());
        assert_eq!(queue.first_threads(false).unwrap().path, "large.ts");
        assert_eq!(queue.smallest().unwrap().path, "small.ts");
        assert_eq!(queue.first_threads(false).unwrap().path, "middle.ts");
        assert!(queue.first_threads(true).is_none());
    }

    #[test]
    fn the_parsed_callback_runs_once_before_the_changeset_is_settled() {
        let handoff = crate::memory::PackHandoff::default();
        let repo = Path::new("/nonexistent/qa-intent-test-repo");
        // A changed file with a grammar: the reading threads run (no repository to read).
        let mut cs = Changeset::in_repo(repo);
        cs.files.push(crate::changeset::Read {
            id: "f1".to_string(),
            data: changed("src/a.ts"),
        });
        let mut calls = 0;
        let (deltas, _, stats) = of_changeset(&cs, repo, &handoff, || true, || calls += 1);
        assert_eq!(calls, 1);
        assert!(deltas.is_empty());
        assert_eq!(stats.files, 0);
        // No file with a grammar (negative control of the reading path): called once too.
        let mut calls = 0;
        let empty = Changeset::in_repo(repo);
        of_changeset(&empty, repo, &handoff, || true, || calls += 1);
        assert_eq!(calls, 1);
    }

    #[test]
    fn squeeze_drops_ascii_and_unicode_whitespace_and_keeps_every_other_character() {
        assert_eq!(squeeze(" if (a &&\tb)\r\n{\x0b\x0c}"), "if(a&&b){}");
        // No-break space, line separator and ideographic space are whitespace too.
        assert_eq!(squeeze("a\u{a0}b\u{2028}c\u{3000}d"), "abcd");
        assert_eq!(squeeze("café == 'naïve' → ok"), "café=='naïve'→ok");
        assert_eq!(squeeze(""), "");
    }

    #[test]
    fn squeeze_of_ascii_text_agrees_with_splitting_on_char_is_whitespace() {
        let text = "fn x() {\n\tif a  &&\x0bb {\r\n\x0c  return 1;\n  }\n}\n";
        let split: String = text.split(char::is_whitespace).collect();
        assert!(text.is_ascii());
        assert_eq!(squeeze(text), split);
    }

    #[test]
    fn squeeze_agrees_with_splitting_on_char_is_whitespace() {
        let text = "fn x() {\n\tlet s = \"a\u{85}b\u{2009}c\";  // ü\u{feff}\n}\u{1680}";
        let split: String = text.split(char::is_whitespace).collect();
        assert_eq!(squeeze(text), split);
    }
}
