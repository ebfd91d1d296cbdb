//! Whether a commit's own diff leaves behaviour as it was: only layout, comments, a
//! consistent renaming of identifiers, or code moved to another place.
//!
//! A commit's type and subject may call it cleanup; only this verdict may drop its
//! product lines. Each version of a file becomes a stream of tokens (comments and layout
//! gone, the syntax tree's nesting kept as markers, so a Python statement that leaves its
//! block is a change); two streams equal up to a renaming are the same code, and runs of
//! lines one place lost and another gained are moved.

use std::collections::{HashMap, HashSet};

use git2::{Oid, Repository, Tree};
use qa_records::change::CommitData;
use tree_sitter::Node;

use crate::sources;
use crate::trees::{self, Grammar};

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
struct Tok {
    text: String,
    name: bool,
    ident: bool,
    wiring: bool,
}

/// A version's non-empty lines, each as its tokens.
type Lines = Vec<Vec<Tok>>;

/// The verdict on the files of `commit` that `bears` behaviour, from its parent's and its
/// own trees; `None` when the commit cannot be read (a stream from another clone) or a
/// file is too big to parse: the commit text then stands.
pub fn verdict(
    git: &Repository,
    commit: &CommitData,
    bears: impl Fn(&str) -> bool,
) -> Option<Verdict> {
    judged(git, commit, bears, Keep::All)
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
    judged(git, commit, bears, Keep::NonTest).map(|v| v == Verdict::Neutral)
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
) -> Option<Verdict> {
    let c = git.find_commit(Oid::from_str(&commit.oid).ok()?).ok()?;
    let head = c.tree().ok()?;
    let base = match c.parents().next() {
        Some(parent) => Some(parent.tree().ok()?),
        None => None,
    };
    let mut files: Vec<(Lines, Lines)> = Vec::new();
    for p in commit.files.iter().filter(|p| bears(p)) {
        let before = match &base {
            Some(t) => text_at(git, t, p)?,
            None => None,
        };
        let after = text_at(git, &head, p)?;
        files.push((
            lines_kept(p, before.as_deref(), keep),
            lines_kept(p, after.as_deref(), keep),
        ));
    }
    Some(judge(&files))
}

/// The text of `path` in `tree`: `Some(None)` where the path is absent, `None` where it
/// cannot be judged (too big to parse, or unreadable).
fn text_at(git: &Repository, tree: &Tree, path: &str) -> Option<Option<String>> {
    let Ok(entry) = tree.get_path(std::path::Path::new(path)) else {
        return Some(None);
    };
    let blob = git.find_blob(entry.id()).ok()?;
    if blob.size() > sources::MAX_BYTES {
        return None;
    }
    Some(Some(String::from_utf8_lossy(blob.content()).into_owned()))
}

/// Neutral when every file is the same code, or what the files lost and gained are the
/// same runs of lines; Renamed when that holds only up to a renaming of identifiers.
fn judge(files: &[(Lines, Lines)]) -> Verdict {
    let differ = |same: fn(&[&Tok], &[&Tok]) -> bool| -> Vec<&(Lines, Lines)> {
        files
            .iter()
            .filter(|(base, head)| !same(&flat(base), &flat(head)))
            .collect()
    };
    let neutral = |changed: Vec<&(Lines, Lines)>| changed.is_empty() || only_moved(&changed);
    if neutral(differ(|a, b| a == b)) {
        Verdict::Neutral
    } else if neutral(differ(same_up_to_renaming)) {
        Verdict::Renamed
    } else {
        Verdict::Changes
    }
}

fn flat(lines: &Lines) -> Vec<&Tok> {
    lines.iter().flatten().collect()
}

/// True when the two streams differ at most by a one-to-one renaming of identifiers to
/// new names: a name the other version also uses stays itself, so calling one existing
/// function where another was is no renaming.
fn same_up_to_renaming(a: &[&Tok], b: &[&Tok]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let names = |s: &[&Tok]| -> HashSet<String> {
        s.iter()
            .filter(|t| t.ident)
            .map(|t| t.text.clone())
            .collect()
    };
    let (in_a, in_b) = (names(a), names(b));
    let mut forth: HashMap<&str, &str> = HashMap::new();
    let mut back: HashMap<&str, &str> = HashMap::new();
    a.iter().zip(b).all(|(x, y)| {
        if !(x.ident && y.ident) {
            return x.text == y.text && x.ident == y.ident;
        }
        let kept = x.text == y.text;
        (kept || !in_b.contains(&x.text) && !in_a.contains(&y.text))
            && *forth.entry(&x.text).or_insert(&y.text) == y.text
            && *back.entry(&y.text).or_insert(&x.text) == x.text
    })
}

/// True when every run of lines a file lost stands, in order, inside a run of lines a
/// file gained, and every gained line is so accounted for. A single line moves only to
/// another file: two statements swapped in place change the order things happen in.
/// Imports count as the wiring of a move once something moved.
fn only_moved(files: &[&(Lines, Lines)]) -> bool {
    let mut lost: Vec<(usize, Vec<String>, bool)> = Vec::new();
    let mut gained: Vec<(usize, Vec<(String, bool)>)> = Vec::new();
    for (i, (base, head)) in files.iter().enumerate() {
        let used = used_names(head);
        let (base, head) = (without_idle(base, &used), without_idle(head, &used));
        let Some((removed, added)) = runs(&base, &head) else {
            return false;
        };
        lost.extend(removed.into_iter().map(|run| {
            let wiring = run.iter().all(|(_, w)| *w);
            (i, run.into_iter().map(|(l, _)| l).collect(), wiring)
        }));
        gained.extend(added.into_iter().map(|run| (i, run)));
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
fn used_names(lines: &Lines) -> HashSet<&str> {
    lines
        .iter()
        .flatten()
        .filter(|t| t.name && !t.wiring)
        .map(|t| t.text.as_str())
        .collect()
}

/// The lines left once idle imports are gone: an import naming something, of which the
/// head's code uses no name, changes nothing (an unused import removed or added). An
/// import that names nothing (`import './polyfill'`) runs code, and stays.
fn without_idle(lines: &Lines, used: &HashSet<&str>) -> Lines {
    let idle = |line: &Vec<Tok>| {
        line.iter().all(|t| t.wiring)
            && line.iter().any(|t| t.name)
            && !line
                .iter()
                .any(|t| t.name && used.contains(t.text.as_str()))
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
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The lines of one version as tokens: read by its grammar where one exists, else as
/// words and marks with no comment known (any change to one is then a change).
#[cfg(test)]
fn lines_of(path: &str, text: Option<&str>) -> Lines {
    lines_kept(path, text, Keep::All)
}

fn lines_kept(path: &str, text: Option<&str>, keep: Keep) -> Lines {
    let Some(text) = text else {
        return Lines::new();
    };
    let tree = Grammar::of(path).and_then(|g| trees::parse(g, text));
    let mut rows: Vec<Vec<Tok>> = vec![Vec::new(); text.lines().count() + 1];
    match &tree {
        Some(tree) => {
            let skip = Skip {
                types: erased_types(path),
                tests: keep == Keep::NonTest,
            };
            tokens(tree.root_node(), text, &mut rows, skip);
            drop_layout_punctuation(&mut rows);
        }
        None => plain_tokens(text, &mut rows),
    }
    rows.into_iter().filter(|r| !r.is_empty()).collect()
}

/// Pushes the tokens of `root`'s tree onto their rows: leaves, any text between a node's
/// children (string contents some grammars leave unnamed), and an opening and a closing
/// mark for each named node, so that the nesting is part of the stream. Comments (the
/// grammar's extras) are left out.
/// What [`tokens`] leaves out besides comments.
#[derive(Debug, Clone, Copy)]
struct Skip {
    /// Type annotations the running program never reads.
    types: bool,
    /// The tests a source file holds.
    tests: bool,
}

fn tokens(root: Node, text: &str, rows: &mut [Vec<Tok>], skip: Skip) {
    let erased = skip.types;
    let mut push = |row: usize, tok: Tok| {
        if let Some(r) = rows.get_mut(row) {
            r.push(tok);
        }
    };
    // What is left to visit, each with whether it lies inside an import: a node, the
    // closing mark of an opened one (with its row), a gap between children (bytes, row).
    enum Step<'t> {
        Open(Node<'t>, bool),
        Close(String, usize, bool),
        Gap(usize, usize, usize, bool),
    }
    let mut stack = vec![Step::Open(root, false)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(node, wiring) => {
                if node.is_extra()
                    || (erased && (is_annotation(node) || annotates(node)))
                    || (skip.tests && is_test_item(node, text))
                {
                    continue;
                }
                let wiring = wiring || is_wiring(node, text);
                let row = node.start_position().row;
                if node.child_count() == 0 {
                    let t = trees::text_of(node, text).trim();
                    if !t.is_empty() {
                        push(
                            row,
                            Tok {
                                text: t.to_string(),
                                // A name in an import names another module: not ours to rename.
                                name: node.kind().ends_with("identifier"),
                                ident: node.kind().ends_with("identifier") && !wiring,
                                wiring,
                            },
                        );
                    }
                    continue;
                }
                // The root stands in every version: its marks would only glue a file's
                // first line to it.
                let kind = if erased {
                    untyped(node.kind())
                } else {
                    Some(node.kind())
                };
                if let Some(kind) = kind.filter(|_| node.is_named() && node != root) {
                    push(
                        row,
                        Tok {
                            text: format!("<{kind}"),
                            name: false,
                            ident: false,
                            wiring,
                        },
                    );
                    stack.push(Step::Close(
                        format!("{kind}>"),
                        node.end_position().row,
                        wiring,
                    ));
                }
                // Children in reverse, each preceded (in document order) by the text of
                // the gap before it; the gap after the last child too.
                let children: Vec<Node> = {
                    let mut c = node.walk();
                    node.children(&mut c).collect()
                };
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
                    text: mark,
                    name: false,
                    ident: false,
                    wiring,
                },
            ),
            Step::Gap(from, to, row, wiring) => {
                let gap = text.get(from..to).unwrap_or("").trim();
                if !gap.is_empty() {
                    push(
                        row,
                        Tok {
                            text: gap.split_whitespace().collect::<Vec<_>>().join(" "),
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

/// Removes punctuation a formatter adds or takes away without changing the code: a
/// trailing comma before a closing bracket, and the parentheses around an import list
/// (`from m import (a,)` is `from m import a`).
fn drop_layout_punctuation(rows: &mut [Vec<Tok>]) {
    let flat: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| (0..row.len()).map(move |k| (r, k)))
        .collect();
    let mut gone: HashSet<(usize, usize)> = HashSet::new();
    for (n, &(r, k)) in flat.iter().enumerate() {
        let tok = &rows[r][k];
        let next = flat.get(n + 1).map(|&(r2, k2)| rows[r2][k2].text.as_str());
        let trailing = tok.text == "," && matches!(next, Some(")" | "]" | "}"));
        let import_paren = tok.wiring && matches!(tok.text.as_str(), "(" | ")");
        if trailing || import_paren {
            gone.insert((r, k));
        }
    }
    for (r, row) in rows.iter_mut().enumerate() {
        let mut k = 0;
        row.retain(|_| {
            k += 1;
            !gone.contains(&(r, k - 1))
        });
    }
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
fn is_annotation(node: Node) -> bool {
    match node.kind() {
        "type"
        | "type_annotation"
        | "type_arguments"
        | "type_parameters"
        | "interface_declaration"
        | "type_alias_declaration" => true,
        "assignment" => {
            node.child_by_field_name("type").is_some()
                && node.child_by_field_name("right").is_none()
        }
        // The statement holding nothing but such a declaration.
        "expression_statement" => {
            node.named_child_count() == 1
                && node
                    .named_child(0)
                    .is_some_and(|c| c.kind() == "assignment" && is_annotation(c))
        }
        "return_type" => true,
        _ => false,
    }
}

/// A Rust test a source file holds: a function or module whose attributes (the
/// attribute items just before it) name `test` (`#[test]`, `#[tokio::test]`,
/// `#[cfg(test)]`), or such an attribute item itself.
fn is_test_item(node: Node, text: &str) -> bool {
    let names_test = |n: Node| {
        n.kind() == "attribute_item" && {
            let t = trees::text_of(n, text);
            t.contains("test]") || t.contains("cfg(test)") || t.contains("::test")
        }
    };
    match node.kind() {
        "attribute_item" => {
            // The attribute of a test item goes with the item.
            names_test(node)
        }
        "function_item" | "mod_item" => {
            let mut prev = node.prev_named_sibling();
            while let Some(p) = prev.filter(|p| p.kind() == "attribute_item") {
                if names_test(p) {
                    return true;
                }
                prev = p.prev_named_sibling();
            }
            false
        }
        _ => false,
    }
}

/// The `:` or `->` that introduces a Python annotation.
fn annotates(node: Node) -> bool {
    !node.is_named()
        && matches!(node.kind(), ":" | "->")
        && node.next_sibling().is_some_and(|n| n.kind() == "type")
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
fn is_wiring(node: Node, text: &str) -> bool {
    let kind = node.kind();
    kind.starts_with("import_")
        || kind == "package_clause"
        || kind == "package_declaration"
        || kind.ends_with("_import_statement")
        || kind == "use_declaration"
        || (kind == "mod_item" && trees::text_of(node, text).trim_end().ends_with(';'))
}

/// Words and single marks, line by line, for a file without a grammar.
fn plain_tokens(text: &str, rows: &mut [Vec<Tok>]) {
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
                    text: rest[..len].to_string(),
                    name: false,
                    ident: false,
                    wiring: false,
                });
            }
            rest = &rest[len..];
        }
    }
}

#[cfg(test)]
mod tests;
