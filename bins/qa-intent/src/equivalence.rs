//! Whether a commit's own diff leaves behaviour as it was: only layout, comments, a
//! consistent renaming of identifiers, or code moved to another place.
//!
//! A commit's type and subject may call it cleanup; only this verdict may drop its
//! product lines. Each version of a file becomes a stream of tokens (comments and layout
//! gone, the syntax tree's nesting kept as markers, so a Python statement that leaves its
//! block is a change); two streams equal up to a renaming are the same code, and runs of
//! lines one place lost and another gained are moved.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};

use git2::{Oid, Repository, Tree};
use qa_records::change::CommitData;
use tree_sitter::Node;

use crate::sources;
use crate::trees::{self, Grammar};
use qa_syntax::walk::ByKind;

/// What a commit's diff says about its product files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every changed product line is layout, a comment, a type annotation (Python,
    /// TypeScript) or moved code.
    Neutral,
    /// As [`Verdict::Neutral`], and identifiers consistently renamed: the same code, unless
    /// a renamed name is one others call (an exported function), which the diff cannot tell.
    Renamed,
    /// Some product line changes what the code does.
    Changes,
}

/// One token of a version: its text, whether it is a name, whether a rename may replace
/// it, and whether it sits in an import (wiring that a move brings along).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok<'a> {
    /// The version's own text where it can be (a mark is shared, a gap's layout squeezed).
    text: Cow<'a, str>,
    name: bool,
    ident: bool,
    wiring: bool,
}

/// A version's non-empty lines, each as its tokens.
type Lines<'a> = Vec<Vec<Tok<'a>>>;

/// The verdict on the files of `commit` that `bears` behaviour, from its parent's and its
/// own trees; `None` when the commit cannot be read (a stream from another clone) or a
/// file is too big to parse: the commit text then stands.
pub fn verdict(
    git: &Repository,
    commit: &CommitData,
    bears: impl Fn(&str) -> bool,
) -> Option<Verdict> {
    judged(git, commit, bears, Keep::All, None)
}

/// [`verdict`], taking the files [`Ahead`] compared from there.
pub fn verdict_ahead(
    git: &Repository,
    commit: &CommitData,
    bears: impl Fn(&str) -> bool,
    ahead: &Ahead,
) -> Option<Verdict> {
    judged(git, commit, bears, Keep::All, Some(ahead))
}

/// True when `commit` changes only test code in the files that bear behaviour: with the
/// tests a source file holds (Rust's `#[test]` functions and `#[cfg(test)]` modules) left
/// out, its diff is neutral. Such a commit adds or fixes the oracle, not the behaviour,
/// and never names the work. `None` when it cannot be read.
pub fn tests_only(
    git: &Repository,
    commit: &CommitData,
    bears: impl Fn(&str) -> bool,
) -> Option<bool> {
    judged(git, commit, bears, Keep::NonTest, None).map(|v| v == Verdict::Neutral)
}

/// What of a file the token streams keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    All,
    /// Everything but the tests a source file holds.
    NonTest,
}

fn judged(
    git: &Repository,
    commit: &CommitData,
    bears: impl Fn(&str) -> bool,
    keep: Keep,
    ahead: Option<&Ahead>,
) -> Option<Verdict> {
    let c = git.find_commit(Oid::from_str(&commit.oid).ok()?).ok()?;
    let head = c.tree().ok()?;
    let base = match c.parents().next() {
        Some(parent) => Some(parent.tree().ok()?),
        None => None,
    };
    // The blob ids first: a file too big to parse leaves the commit unjudged, whichever
    // files the judgement then reads.
    let mut versions: Vec<(&str, Option<Oid>, Option<Oid>)> = Vec::new();
    for p in commit.files.iter().filter(|p| bears(p)) {
        let before = match &base {
            Some(t) => id_at(git, t, p)?,
            None => None,
        };
        versions.push((p.as_str(), before, id_at(git, &head, p)?));
    }
    // The files compared ahead first: their part is ready, and with it the commit may be
    // shown to be a change before any other file is read ([`shown`]). The judgement
    // itself takes the files in the commit's order.
    let mut parts: Vec<Option<Early>> = versions
        .iter()
        .map(|(p, before, after)| match (before, after, ahead) {
            (Some(b), Some(h), Some(ahead)) => ahead.take(p, *b, *h),
            _ => None,
        })
        .collect();
    let mut tries = 0;
    for i in 0..versions.len() {
        if parts[i].is_some() {
            continue;
        }
        if tries < PROOFS && shown_now(git, &versions, &parts, &mut tries)? {
            return Some(Verdict::Changes);
        }
        let (p, before, after) = versions[i];
        let (before, after) = (blob_text(git, before)?, blob_text(git, after)?);
        // Each file's versions, trees and tokens are let go before the next is read.
        parts[i] = Some(Early(differing(
            p,
            before.as_deref(),
            after.as_deref(),
            keep,
        )));
    }
    let files: Vec<Differs> = parts.into_iter().flatten().filter_map(|e| e.0).collect();
    Some(judge(&files))
}

/// How many times a commit's files not compared yet are read to show it a change: each
/// try reads them all, one at a time.
const PROOFS: usize = 4;

/// True when the files compared so far (`parts`) show the commit to be a change that no
/// pending file can account for ([`shown`]); the pending files' texts are read one at a
/// time, and only when there is a line to look for (a try, counted in `tries`). `None`
/// when a version cannot be read.
fn shown_now(
    git: &Repository,
    versions: &[(&str, Option<Oid>, Option<Oid>)],
    parts: &[Option<Early>],
    tries: &mut usize,
) -> Option<bool> {
    let compared: Vec<&Differs> = parts
        .iter()
        .filter_map(|p| p.as_ref().and_then(|e| e.0.as_ref()))
        .collect();
    let mut lines = match shown::proof(&compared) {
        shown::Proof::Shown => return Some(true),
        shown::Proof::Lines(lines) if lines.is_empty() => return Some(false),
        shown::Proof::Lines(lines) => lines,
    };
    *tries += 1;
    for ((_, before, after), _) in versions.iter().zip(parts).filter(|(_, p)| p.is_none()) {
        let (b, h) = (blob_text(git, *before)?, blob_text(git, *after)?);
        lines.retain(|l| l.excluded(b.as_deref(), h.as_deref()));
        if lines.is_empty() {
            return Some(false);
        }
    }
    Some(true)
}

/// Files compared ahead, while the range's own trees stand ([`crate::deltas`] reads
/// them): a file one judged commit alone changed in the range has that commit's two
/// versions as its base and head, and its trees (whole, or without the far blocks) need
/// not be parsed a second time; a file whose trees without the far blocks differ is read
/// whole there, once. Each comparison is kept under the two blob ids until its
/// commit is judged ([`Ahead::take`]), so only the same versions meet it.
#[derive(Debug, Default)]
pub struct Ahead {
    /// The paths worth comparing ahead.
    wanted: HashSet<String>,
    found: Mutex<HashMap<(String, Oid, Oid), Early>>,
}

/// The largest pair of versions (bytes) compared ahead from trees without their far
/// blocks: such a pair found to differ is read whole there, beside the range's largest
/// trees. Whole trees are compared ahead at any size: they stand already.
const AHEAD_MAX_BYTES: usize = 64 << 10;

/// What a comparison made ahead found: the file's part of the judgement, `None` when the
/// versions are the same code.
#[derive(Debug)]
struct Early(Option<Differs>);

impl Ahead {
    /// Compares ahead the files of `wanted`.
    pub fn of(wanted: HashSet<String>) -> Ahead {
        Ahead {
            wanted,
            found: Mutex::default(),
        }
    }

    /// Takes `path`'s two versions `base` and `head` (blob ids `oids`) and the trees the
    /// range's reading made of them with line `edits`: compared as the verdict would,
    /// when the path is wanted and the edits turn the base into the head (then the
    /// trees are these versions' trees).
    pub fn offer(
        &self,
        path: &str,
        oids: (Option<&str>, Option<&str>),
        (base, head): (&str, &str),
        edits: &[trees::LineEdit],
        pair: &trees::Pair,
    ) {
        if !self.wanted.contains(path) {
            return;
        }
        // A large file read whole, beside the large trees the range's reading holds then,
        // would raise the stage's peak memory: its verdict compares it later.
        if pair.left_out > 0 && base.len() + head.len() > AHEAD_MAX_BYTES {
            return;
        }
        let (Some(b), Some(h)) = (oids.0, oids.1) else {
            return;
        };
        let (Ok(b), Ok(h)) = (Oid::from_str(b), Oid::from_str(h)) else {
            return;
        };
        // The trees were made with these edits: they must turn the base into the head.
        // The stream's hunks of the two blobs are git's own diff of them, the edits the
        // verdict would make (diffing the texts again here cost more than the check).
        if !trees::edits_hold(base, head, edits) {
            return;
        }
        let Some(grammar) = Grammar::of(path) else {
            return;
        };
        let early = match partial(path, base, head, Keep::All, pair) {
            Partial::Same => None,
            // The verdict's own trees would be these: the same versions and line edits.
            Partial::Whole => from_whole(path, base, head, Keep::All, pair),
            Partial::Differ => whole_differing(grammar, path, base, head, edits, Keep::All),
        };
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        found.insert((path.to_string(), b, h), Early(early));
    }

    fn take(&self, path: &str, base: Oid, head: Oid) -> Option<Early> {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        found.remove(&(path.to_string(), base, head))
    }
}

/// What the judgement needs of a file when its two versions are not the same code token
/// for token; `None` when they are. The base is parsed once and the head re-parsed from its
/// tree. A TypeScript or JavaScript file is first compared without the blocks far from
/// its changes ([`trees::pair`]: they are the same text on both sides, kept as one gap
/// token each), and read whole only when that comparison finds a difference.
fn differing(path: &str, before: Option<&str>, after: Option<&str>, keep: Keep) -> Option<Differs> {
    let whole = |before, after| {
        unequal(
            lines_kept(path, before, keep),
            lines_kept(path, after, keep),
        )
    };
    let (Some(b), Some(h), Some(grammar)) = (before, after, Grammar::of(path)) else {
        return whole(before, after);
    };
    let Some(edits) = line_edits(b, h) else {
        return whole(before, after);
    };
    let pair = trees::pair(grammar, Some(b), Some(h), Some(&edits));
    match partial(path, b, h, keep, &pair) {
        Partial::Same => None,
        Partial::Whole => from_whole(path, b, h, keep, &pair),
        Partial::Differ => {
            drop(pair);
            whole_differing(grammar, path, b, h, &edits, keep)
        }
    }
}

/// What the trees of a pair without the far blocks say.
enum Partial {
    /// The same code.
    Same,
    /// Not the same token for token: the versions are read whole.
    Differ,
    /// Nothing was left out: the trees are whole.
    Whole,
}

/// Trees without the far blocks are compared first; whole ones (parsed afresh: the head
/// cannot be re-parsed from a partial base) only when they differ.
fn partial(path: &str, b: &str, h: &str, keep: Keep, pair: &trees::Pair) -> Partial {
    if pair.left_out == 0 {
        return Partial::Whole;
    }
    match (&pair.base, &pair.head) {
        (Some(bt), Some(ht))
            if flat(&lines_from(path, Some(bt), b, keep))
                == flat(&lines_from(path, Some(ht), h, keep)) =>
        {
            Partial::Same
        }
        _ => Partial::Differ,
    }
}

/// [`differing`] on the two versions read whole.
fn whole_differing(
    grammar: Grammar,
    path: &str,
    b: &str,
    h: &str,
    edits: &[trees::LineEdit],
    keep: Keep,
) -> Option<Differs> {
    from_whole(
        path,
        b,
        h,
        keep,
        &trees::whole_pair(grammar, Some(b), Some(h), Some(edits)),
    )
}

/// [`differing`] from the whole trees of the two versions.
fn from_whole(path: &str, b: &str, h: &str, keep: Keep, pair: &trees::Pair) -> Option<Differs> {
    let base_lines = lines_from(path, pair.base.as_ref(), b, keep);
    let recovered = pair
        .base
        .as_ref()
        .is_some_and(|t| t.root_node().has_error());
    // A head tree with an error, or re-parsed from one, is parsed afresh: error recovery
    // may differ.
    let head = match pair
        .head
        .as_ref()
        .filter(|t| !recovered && !t.root_node().has_error())
    {
        Some(tree) => lines_from(path, Some(tree), h, keep),
        None => lines_kept(path, Some(h), keep),
    };
    unequal(base_lines, head)
}

fn unequal(base: Lines, head: Lines) -> Option<Differs> {
    Differs::of(&base, &head)
}

/// The line edits that turn `base` into `head` (a diff without context); `None` when the
/// texts cannot be diffed.
fn line_edits(base: &str, head: &str) -> Option<Vec<trees::LineEdit>> {
    let mut options = git2::DiffOptions::new();
    options.context_lines(0);
    let patch = git2::Patch::from_buffers(
        base.as_bytes(),
        None,
        head.as_bytes(),
        None,
        Some(&mut options),
    )
    .ok()?;
    (0..patch.num_hunks())
        .map(|h| {
            let (hunk, _) = patch.hunk(h).ok()?;
            Some(trees::LineEdit::of_hunk(
                hunk.old_start(),
                hunk.old_lines(),
                hunk.new_start(),
                hunk.new_lines(),
            ))
        })
        .collect()
}

/// The blob id of `path` in `tree`: `Some(None)` where the path is absent, `None` where
/// it cannot be judged (too big to parse, or unreadable).
fn id_at(git: &Repository, tree: &Tree, path: &str) -> Option<Option<Oid>> {
    let Ok(entry) = tree.get_path(std::path::Path::new(path)) else {
        return Some(None);
    };
    let (size, _) = git.odb().ok()?.read_header(entry.id()).ok()?;
    (size <= sources::MAX_BYTES).then_some(Some(entry.id()))
}

/// The text of blob `id` (`Some(None)` for an absent version); `None` when it cannot be
/// read.
fn blob_text(git: &Repository, id: Option<Oid>) -> Option<Option<String>> {
    let Some(id) = id else {
        return Some(None);
    };
    let blob = git.find_blob(id).ok()?;
    Some(Some(String::from_utf8_lossy(blob.content()).into_owned()))
}

/// What the judgement needs of a file whose versions are not the same code token for
/// token: whether they are up to a renaming, and the runs of lines each lost and gained
/// (`None` when they cannot be diffed). Made file by file, so that no more than one file's
/// tokens are held at a time.
#[derive(Debug)]
struct Differs {
    renamed: bool,
    runs: Option<(Vec<Run>, Vec<Run>)>,
}

impl Differs {
    /// `None` when the two versions are the same code.
    fn of(base: &Lines, head: &Lines) -> Option<Differs> {
        let (a, b) = (flat(base), flat(head));
        if a == b {
            return None;
        }
        let used = used_names(head);
        let (base, head) = (without_idle(base, &used), without_idle(head, &used));
        Some(Differs {
            renamed: same_up_to_renaming(&a, &b),
            runs: runs(&base, &head),
        })
    }
}

/// Neutral when every file is the same code, or what the files lost and gained are the
/// same runs of lines; Renamed when that holds only up to a renaming of identifiers.
/// `files` are those whose versions differ ([`Differs::of`]).
fn judge(files: &[Differs]) -> Verdict {
    let neutral = |changed: Vec<&Differs>| changed.is_empty() || only_moved(&changed);
    if neutral(files.iter().collect()) {
        Verdict::Neutral
    } else if neutral(files.iter().filter(|f| !f.renamed).collect()) {
        Verdict::Renamed
    } else {
        Verdict::Changes
    }
}

fn flat<'l, 'a>(lines: &'l Lines<'a>) -> Vec<&'l Tok<'a>> {
    lines.iter().flatten().collect()
}

/// True when the two streams differ at most by a one-to-one renaming of identifiers to
/// new names: a name the other version also uses stays itself, so calling one existing
/// function where another was is no renaming.
fn same_up_to_renaming<'t>(a: &[&'t Tok], b: &[&'t Tok]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let names = |s: &[&'t Tok]| -> HashSet<&'t str> {
        s.iter()
            .filter(|t| t.ident)
            .map(|t| t.text.as_ref())
            .collect()
    };
    let (in_a, in_b) = (names(a), names(b));
    let mut forth: HashMap<&str, &str> = HashMap::new();
    let mut back: HashMap<&str, &str> = HashMap::new();
    a.iter().zip(b).all(|(x, y)| {
        if !(x.ident && y.ident) {
            return x.text == y.text && x.ident == y.ident;
        }
        let (x, y) = (x.text.as_ref(), y.text.as_ref());
        let kept = x == y;
        (kept || !in_b.contains(x) && !in_a.contains(y))
            && *forth.entry(x).or_insert(y) == y
            && *back.entry(y).or_insert(x) == x
    })
}

/// True when every run of lines a file lost stands, in order, inside a run of lines a
/// file gained, and every gained line is so accounted for. A single line moves only to
/// another file: two statements swapped in place change the order things happen in.
/// Imports count as the wiring of a move once something moved.
fn only_moved(files: &[&Differs]) -> bool {
    let mut lost: Vec<(usize, Vec<&str>, bool)> = Vec::new();
    let mut gained: Vec<(usize, &Run)> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let Some((removed, added)) = &file.runs else {
            return false;
        };
        lost.extend(removed.iter().map(|run| {
            let wiring = run.iter().all(|(_, w)| *w);
            (i, run.iter().map(|(l, _)| l.as_str()).collect(), wiring)
        }));
        gained.extend(added.iter().map(|run| (i, run)));
    }
    let mut used: Vec<Vec<bool>> = gained.iter().map(|(_, r)| vec![false; r.len()]).collect();
    let mut moved = 0;
    let mut wiring_lost = 0;
    for (file, run, wiring) in &lost {
        let found = gained.iter().enumerate().find_map(|(g, (to, lines))| {
            if run.len() == 1 && to == file {
                return None;
            }
            (0..=lines.len().saturating_sub(run.len()))
                .find(|&at| {
                    lines.len() >= run.len()
                        && run
                            .iter()
                            .enumerate()
                            .all(|(k, l)| !used[g][at + k] && lines[at + k].0 == *l)
                })
                .map(|at| (g, at))
        });
        match found {
            Some((g, at)) => {
                used[g][at..at + run.len()]
                    .iter_mut()
                    .for_each(|u| *u = true);
                moved += 1;
            }
            None if *wiring => wiring_lost += 1,
            None => return false,
        }
    }
    let unaccounted = gained
        .iter()
        .zip(&used)
        .flat_map(|((_, lines), used)| lines.iter().zip(used))
        .filter(|(_, used)| !**used)
        .collect::<Vec<_>>();
    let wiring_only = unaccounted.iter().all(|((_, wiring), _)| *wiring);
    (unaccounted.is_empty() && wiring_lost == 0) || (moved > 0 && wiring_only)
}

/// The names a version's code (outside its imports) uses.
fn used_names<'l>(lines: &'l Lines) -> HashSet<&'l str> {
    lines
        .iter()
        .flatten()
        .filter(|t| t.name && !t.wiring)
        .map(|t| t.text.as_ref())
        .collect()
}

/// The lines left once idle imports are gone: an import naming something, of which the
/// head's code uses no name, changes nothing (an unused import removed or added). An
/// import that names nothing (`import './polyfill'`) runs code, and stays.
fn without_idle<'a>(lines: &Lines<'a>, used: &HashSet<&str>) -> Lines<'a> {
    let idle = |line: &Vec<Tok>| {
        line.iter().all(|t| t.wiring)
            && line.iter().any(|t| t.name)
            && !line
                .iter()
                .any(|t| t.name && used.contains(t.text.as_ref()))
    };
    lines.iter().filter(|l| !idle(l)).cloned().collect()
}

/// A removed or added run of lines: each line's normalized text and whether it is wiring.
type Run = Vec<(String, bool)>;

/// The runs of lines the diff of two versions removes and adds.
fn runs(base: &Lines, head: &Lines) -> Option<(Vec<Run>, Vec<Run>)> {
    let (old, new) = (texts(base), texts(head));
    let joined = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let (old_text, new_text) = (joined(&old), joined(&new));
    let patch =
        git2::Patch::from_buffers(old_text.as_bytes(), None, new_text.as_bytes(), None, None)
            .ok()?;
    let (mut removed, mut added): (Vec<Run>, Vec<Run>) = (Vec::new(), Vec::new());
    for h in 0..patch.num_hunks() {
        let mut last = ' ';
        for l in 0..patch.num_lines_in_hunk(h).ok()? {
            let line = patch.line_in_hunk(h, l).ok()?;
            let (origin, lines, at, list) = match line.origin() {
                '-' => ('-', base, line.old_lineno(), &mut removed),
                '+' => ('+', head, line.new_lineno(), &mut added),
                other => {
                    last = other;
                    continue;
                }
            };
            let row = (at? as usize).checked_sub(1)?;
            let text = if origin == '-' {
                old.get(row)?
            } else {
                new.get(row)?
            };
            let wiring = lines.get(row)?.iter().all(|t| t.wiring);
            if last != origin {
                list.push(Vec::new());
            }
            list.last_mut()?.push((text.clone(), wiring));
            last = origin;
        }
    }
    Some((removed, added))
}

fn texts(lines: &Lines) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|t| t.text.as_ref())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The lines of one version as tokens: read by its grammar where one exists, else as
/// words and marks with no comment known (any change to one is then a change).
#[cfg(test)]
fn lines_of<'a>(path: &str, text: Option<&'a str>) -> Lines<'a> {
    lines_kept(path, text, Keep::All)
}

fn lines_kept<'a>(path: &str, text: Option<&'a str>, keep: Keep) -> Lines<'a> {
    let Some(text) = text else {
        return Lines::new();
    };
    let tree = Grammar::of(path).and_then(|g| trees::parse(g, text));
    lines_from(path, tree.as_ref(), text, keep)
}

/// The lines of a version from its tree (its words and marks without one).
fn lines_from<'a>(
    path: &str,
    tree: Option<&tree_sitter::Tree>,
    text: &'a str,
    keep: Keep,
) -> Lines<'a> {
    // A row for each line a node may start on (empty rows are dropped below).
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let mut rows: Vec<Vec<Tok>> = vec![Vec::new(); newlines + 2];
    match tree {
        Some(tree) => {
            let skip = Skip {
                types: erased_types(path),
                tests: keep == Keep::NonTest,
                docstrings: Grammar::of(path) == Some(Grammar::Python),
            };
            let far = trees::left_out(tree, text);
            tokens(tree.root_node(), text, &far, &mut rows, skip);
            drop_layout_punctuation(&mut rows);
        }
        None => plain_tokens(text, &mut rows),
    }
    rows.into_iter().filter(|r| !r.is_empty()).collect()
}

/// What [`tokens`] leaves out besides comments.
#[derive(Debug, Clone, Copy)]
struct Skip {
    /// Type annotations the running program never reads.
    types: bool,
    /// The tests a source file holds.
    tests: bool,
    /// Python docstrings: documentation, as a comment is, though the grammar reads them as
    /// string statements.
    docstrings: bool,
}

/// Pushes the tokens of `root`'s tree onto their rows: leaves, any text between a node's
/// children (string contents some grammars leave unnamed), and an opening and a closing
/// mark for each named node, so that the nesting is part of the stream. Comments (the
/// grammar's extras) are left out. `far` are the blocks a partial tree left out
/// ([`trees::left_out`]): the gap holding one is taken as it stands.
fn tokens<'a, 't>(
    root: Node<'t>,
    text: &'a str,
    far: &[std::ops::Range<usize>],
    rows: &mut [Vec<Tok<'a>>],
    skip: Skip,
) {
    let erased = skip.types;
    let mut kinds: ByKind<KindFacts<'t>> = ByKind::default();
    let mut push = |row: usize, tok: Tok<'a>| {
        if let Some(r) = rows.get_mut(row) {
            r.push(tok);
        }
    };
    // What is left to visit, each with whether it lies inside an import: a node, the
    // closing mark of an opened one (with its row), a gap between children (bytes, row).
    enum Step<'t> {
        Open(Node<'t>, bool),
        Close(&'static str, usize, bool),
        Gap(usize, usize, usize, bool),
    }
    let mut stack = vec![Step::Open(root, false)];
    let mut children: Vec<Node> = Vec::new();
    // One cursor for every node's children: making one allocates.
    let mut cursor = root.walk();
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(node, wiring) => {
                let facts = kinds.of(node, KindFacts::of);
                if node.is_extra()
                    || (erased && (is_annotation(node, &facts) || annotates(node, &facts)))
                    || (skip.tests && is_test_item(node, text))
                    || (skip.docstrings && is_docstring(node))
                {
                    continue;
                }
                let wiring = wiring || is_wiring(node, &facts, text);
                let row = node.start_position().row;
                if node.child_count() == 0 {
                    let t = qa_syntax::text_of(node, text).trim();
                    if !t.is_empty() {
                        push(
                            row,
                            Tok {
                                text: Cow::Borrowed(t),
                                // A name in an import names another module: not ours to rename.
                                name: facts.identifier,
                                ident: facts.identifier && !wiring,
                                wiring,
                            },
                        );
                    }
                    continue;
                }
                // The root stands in every version: its marks would only glue a file's
                // first line to it.
                let marks = if erased {
                    facts.untyped_marks
                } else {
                    Some(facts.marks)
                };
                if let Some((open, close)) = marks.filter(|_| node.is_named() && node != root) {
                    push(
                        row,
                        Tok {
                            text: Cow::Borrowed(open),
                            name: false,
                            ident: false,
                            wiring,
                        },
                    );
                    stack.push(Step::Close(close, node.end_position().row, wiring));
                }
                // Children in reverse, each preceded (in document order) by the text of
                // the gap before it; the gap after the last child too.
                children.clear();
                children.extend(node.children(&mut cursor));
                let mut end = node.end_byte();
                for child in children.iter().rev() {
                    let row = child.end_position().row;
                    stack.push(Step::Gap(child.end_byte(), end, row, wiring));
                    stack.push(Step::Open(*child, wiring));
                    end = child.start_byte();
                }
                stack.push(Step::Gap(node.start_byte(), end, row, wiring));
            }
            Step::Close(mark, row, wiring) => push(
                row,
                Tok {
                    text: Cow::Borrowed(mark),
                    name: false,
                    ident: false,
                    wiring,
                },
            ),
            Step::Gap(from, to, row, wiring) => {
                let gap = text.get(from..to).unwrap_or("").trim();
                // A block left out stands the same in both versions (it is far from every
                // edit): its layout is not squeezed, which cost more than reading the rest
                // of the file. Layout that differs beside it makes the versions differ, and
                // then they are compared whole.
                let left_out = || far.iter().any(|r| r.start < to && from < r.end);
                if !gap.is_empty() {
                    push(
                        row,
                        Tok {
                            text: if !left_out() && gap.contains(char::is_whitespace) {
                                Cow::Owned(gap.split_whitespace().collect::<Vec<_>>().join(" "))
                            } else {
                                Cow::Borrowed(gap)
                            },
                            name: false,
                            ident: false,
                            wiring,
                        },
                    );
                }
            }
        }
    }
}

/// What [`tokens`] reads of one node kind.
#[derive(Clone, Copy)]
struct KindFacts<'t> {
    kind: &'t str,
    /// The kind's opening and closing marks.
    marks: (&'static str, &'static str),
    /// The marks of the kind a node has without its Python annotation (`None`: none).
    untyped_marks: Option<(&'static str, &'static str)>,
    identifier: bool,
    /// The kind alone makes a node a type annotation.
    annotation: bool,
    /// `:` or `->`: a Python annotation's introducer when a type follows.
    introducer: bool,
    /// The kind alone makes a node wiring ([`is_wiring`]).
    wiring: bool,
}

impl<'t> KindFacts<'t> {
    fn of(kind: &'t str) -> KindFacts<'t> {
        let marks = |kind| (mark(kind, true), mark(kind, false));
        KindFacts {
            kind,
            marks: marks(kind),
            untyped_marks: untyped(kind).map(marks),
            identifier: kind.ends_with("identifier"),
            annotation: matches!(
                kind,
                "type"
                    | "type_annotation"
                    | "type_arguments"
                    | "type_parameters"
                    | "interface_declaration"
                    | "type_alias_declaration"
                    | "return_type"
            ),
            introducer: matches!(kind, ":" | "->"),
            wiring: kind.starts_with("import_")
                || kind == "package_clause"
                || kind == "package_declaration"
                || kind.ends_with("_import_statement")
                || kind == "use_declaration",
        }
    }
}

/// Removes punctuation a formatter adds or takes away without changing the code: a
/// trailing comma before a closing bracket, and the parentheses around an import list
/// (`from m import (a,)` is `from m import a`).
fn drop_layout_punctuation(rows: &mut [Vec<Tok>]) {
    // Judged on the tokens as they stand, each with the one after it, then removed.
    let mut gone: Vec<bool> = Vec::new();
    let mut toks = rows.iter().flatten().peekable();
    while let Some(tok) = toks.next() {
        let next = toks.peek().map(|t| t.text.as_ref());
        let trailing = tok.text == "," && matches!(next, Some(")" | "]" | "}"));
        let import_paren = tok.wiring && matches!(tok.text.as_ref(), "(" | ")");
        gone.push(trailing || import_paren);
    }
    let mut gone = gone.into_iter();
    for row in rows.iter_mut() {
        row.retain(|_| !gone.next().unwrap_or(false));
    }
}

/// The mark opening (`<kind`) or closing (`kind>`) a node of `kind`, made once per kind
/// and kept for the run: every named node of every version has two.
fn mark(kind: &str, open: bool) -> &'static str {
    static MARKS: LazyLock<Mutex<[HashMap<String, &'static str>; 2]>> =
        LazyLock::new(Mutex::default);
    let mut marks = MARKS.lock().unwrap_or_else(|e| e.into_inner());
    let marks = &mut marks[usize::from(open)];
    if let Some(mark) = marks.get(kind) {
        return mark;
    }
    let mark = if open {
        format!("<{kind}")
    } else {
        format!("{kind}>")
    };
    // A grammar has a few hundred kinds: leaking one string each bounds the memory.
    let mark: &'static str = Box::leak(mark.into_boxed_str());
    marks.insert(kind.to_string(), mark);
    mark
}

/// True for languages whose type annotations the running program never reads (Python,
/// TypeScript): a change to one alone changes no behaviour.
fn erased_types(path: &str) -> bool {
    matches!(
        Grammar::of(path),
        Some(Grammar::Python | Grammar::TypeScript | Grammar::Tsx)
    )
}

/// A type annotation, or a declaration made only of one: Python's parameter, return and
/// variable annotations (`hooks: dict[str, list[Hook]]` with no value assigned),
/// TypeScript's `: T`, type parameters and arguments, interfaces and type aliases.
fn is_annotation(node: Node, facts: &KindFacts) -> bool {
    match facts.kind {
        _ if facts.annotation => true,
        "assignment" => {
            node.child_by_field_name("type").is_some()
                && node.child_by_field_name("right").is_none()
        }
        // The statement holding nothing but such a declaration.
        "expression_statement" => {
            node.named_child_count() == 1
                && node.named_child(0).is_some_and(|c| {
                    c.kind() == "assignment" && is_annotation(c, &KindFacts::of(c.kind()))
                })
        }
        _ => false,
    }
}

/// A Rust test a source file holds ([`qa_syntax::suite::is_test_item`]), or the attribute
/// item that makes one (it goes with the item).
fn is_test_item(node: Node, text: &str) -> bool {
    match node.kind() {
        "attribute_item" => qa_syntax::suite::is_test_attribute(qa_syntax::text_of(node, text)),
        _ => qa_syntax::suite::is_test_item(node, text),
    }
}

/// A Python docstring: a statement made of one string, first in a module, a class or a
/// function body (comments aside).
fn is_docstring(node: Node) -> bool {
    let lone_string = node.kind() == "expression_statement"
        && node.named_child_count() == 1
        && node
            .named_child(0)
            .is_some_and(|c| matches!(c.kind(), "string" | "concatenated_string"));
    let mut prev = node.prev_named_sibling();
    while let Some(p) = prev.filter(|p| p.is_extra()) {
        prev = p.prev_named_sibling();
    }
    let documents = |parent: Node| match parent.kind() {
        "module" => true,
        "block" => parent
            .parent()
            .is_some_and(|d| matches!(d.kind(), "function_definition" | "class_definition")),
        _ => false,
    };
    lone_string && prev.is_none() && node.parent().is_some_and(documents)
}

/// The `:` or `->` that introduces a Python annotation.
fn annotates(node: Node, facts: &KindFacts) -> bool {
    facts.introducer && !node.is_named() && node.next_sibling().is_some_and(|n| n.kind() == "type")
}

/// The node kind an annotated Python parameter has without its annotation: a typed
/// parameter is its name alone (no mark), a typed default parameter a default one.
fn untyped(kind: &str) -> Option<&str> {
    match kind {
        "typed_parameter" => None,
        "typed_default_parameter" => Some("default_parameter"),
        other => Some(other),
    }
}

/// A declaration that only names a file's place or brings names into scope: an import,
/// a `use`, a `mod x;`, a package clause.
fn is_wiring(node: Node, facts: &KindFacts, text: &str) -> bool {
    facts.wiring
        || (facts.kind == "mod_item" && qa_syntax::text_of(node, text).trim_end().ends_with(';'))
}

/// Words and single marks, line by line, for a file without a grammar.
fn plain_tokens<'a>(text: &'a str, rows: &mut [Vec<Tok<'a>>]) {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for (row, line) in text.lines().enumerate() {
        let mut rest = line.trim_start();
        while let Some(c) = rest.chars().next() {
            let len = if word(c) {
                rest.find(|c| !word(c)).unwrap_or(rest.len())
            } else {
                c.len_utf8()
            };
            if !c.is_whitespace() {
                rows[row].push(Tok {
                    text: Cow::Borrowed(&rest[..len]),
                    name: false,
                    ident: false,
                    wiring: false,
                });
            }
            rest = &rest[len..];
        }
    }
}

mod shown;

#[cfg(test)]
mod tests;
