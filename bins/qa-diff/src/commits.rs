//! The commits of a range, oldest first, with their parsed messages and touched paths.

use crate::message;
use crate::records::CommitData;
use anyhow::Context as _;
use git2::{Oid, Repository, Sort, Tree, TreeEntry};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// One path a commit changed, with its blob before and after (zero when absent).
pub struct Touch {
    pub path: String,
    pub old: Oid,
    pub new: Oid,
    /// For a path the commit added: the path it deleted that this one continues (a rename,
    /// as `git diff -M` pairs them) and that path's blob before the commit.
    pub from: Option<(String, Oid)>,
}

/// Hands `each` every commit reachable from `head` and not from `base`, parents before
/// children, with the blobs of the paths it changed (none for merges).
pub fn each_in_range(
    repo: &Repository,
    base: Oid,
    head: Oid,
    each: &mut dyn FnMut(CommitData, Vec<Touch>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut walk = repo.revwalk()?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
    walk.push(head)?;
    walk.hide(base)?;
    for oid in walk {
        let oid = oid.context("walking the commit range")?;
        let (data, touches) =
            commit_data(repo, oid).with_context(|| format!("reading commit {oid}"))?;
        each(data, touches)?;
    }
    Ok(())
}

fn commit_data(repo: &Repository, oid: Oid) -> anyhow::Result<(CommitData, Vec<Touch>)> {
    let commit = repo.find_commit(oid)?;
    let parents: Vec<Oid> = commit.parent_ids().collect();
    let merge = parents.len() > 1;
    let touches = if merge {
        Vec::new()
    } else {
        let parent_tree = match parents.first() {
            Some(p) => Some(repo.find_commit(*p)?.tree()?),
            None => None,
        };
        let tree = commit.tree()?;
        let mut touches = changed_files(repo, parent_tree.as_ref(), Some(&tree))?;
        follow_renames(repo, parent_tree.as_ref(), &tree, &mut touches)?;
        touches
    };
    let mut files: Vec<String> = touches.iter().map(|t| t.path.clone()).collect();
    // A type change is a deletion, then an addition, of one path.
    files.dedup();
    let text = String::from_utf8_lossy(commit.message_bytes());
    let parsed = message::parse(&text);
    let data = CommitData {
        oid: oid.to_string(),
        parents: parents.iter().map(Oid::to_string).collect(),
        merge,
        subject: parsed.subject,
        body: parsed.body,
        kind: parsed.kind,
        scope: parsed.scope,
        breaking: parsed.breaking,
        tickets: parsed.tickets,
        files,
    };
    Ok((data, touches))
}

/// Pairs the paths a commit added with the ones it deleted that they continue, as
/// `git diff -M` does (the branch diff's rule, `changes::detect_renames`): an identical
/// blob first (cheap, and what a `git mv` leaves), then libgit2's 50% similarity over the
/// paths still unpaired. Nothing is read unless the commit both added and deleted paths.
fn follow_renames(
    repo: &Repository,
    old: Option<&Tree>,
    new: &Tree,
    touches: &mut [Touch],
) -> Result<(), git2::Error> {
    let added = |t: &Touch| t.old.is_zero() && !t.new.is_zero();
    let deleted = |t: &Touch| t.new.is_zero() && !t.old.is_zero();
    if !touches.iter().any(added) || !touches.iter().any(deleted) {
        return Ok(());
    }
    let Some(old) = old else { return Ok(()) };
    // A path both deleted and added is a type change, not a rename.
    let twice: HashSet<&str> = touches
        .windows(2)
        .filter(|w| w[0].path == w[1].path)
        .map(|w| w[0].path.as_str())
        .collect();
    let mut sources: HashMap<Oid, Vec<usize>> = HashMap::new();
    for (i, t) in touches.iter().enumerate().rev() {
        if deleted(t) && !twice.contains(t.path.as_str()) {
            sources.entry(t.old).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut unpaired: Vec<usize> = Vec::new();
    for (i, t) in touches.iter().enumerate() {
        if !added(t) || twice.contains(t.path.as_str()) {
            continue;
        }
        match sources.get_mut(&t.new).and_then(Vec::pop) {
            Some(from) => pairs.push((i, from)),
            None => unpaired.push(i),
        }
    }
    let left: Vec<usize> = sources.into_values().flatten().collect();
    if !unpaired.is_empty() && !left.is_empty() {
        similar(repo, old, new, touches, &unpaired, &left, &mut pairs)?;
    }
    for (to, from) in pairs {
        touches[to].from = Some((touches[from].path.clone(), touches[from].old));
    }
    Ok(())
}

/// Pairs the `added` touches with the `deleted` ones libgit2's rename detection finds
/// similar, over a diff of only those paths (a path shown escaped cannot be named to
/// libgit2 and stays unpaired).
fn similar(
    repo: &Repository,
    old: &Tree,
    new: &Tree,
    touches: &[Touch],
    added: &[usize],
    deleted: &[usize],
    pairs: &mut Vec<(usize, usize)>,
) -> Result<(), git2::Error> {
    let mut opts = git2::DiffOptions::new();
    opts.disable_pathspec_match(true);
    let mut index: HashMap<&str, usize> = HashMap::new();
    for &i in added.iter().chain(deleted) {
        let path = touches[i].path.as_str();
        if !path.contains('\\') {
            opts.pathspec(path);
            index.insert(path, i);
        }
    }
    let mut diff = repo.diff_tree_to_tree(Some(old), Some(new), Some(&mut opts))?;
    let mut find = git2::DiffFindOptions::new();
    find.renames(true)
        .rename_threshold(50)
        .rename_limit(1000)
        .dont_ignore_whitespace(true);
    diff.find_similar(Some(&mut find))?;
    for delta in diff.deltas() {
        if delta.status() != git2::Delta::Renamed {
            continue;
        }
        let path = |f: git2::DiffFile| f.path_bytes().map(crate::paths::text);
        let (Some(from), Some(to)) = (path(delta.old_file()), path(delta.new_file())) else {
            continue;
        };
        if let (Some(&from), Some(&to)) = (index.get(from.as_str()), index.get(to.as_str())) {
            pairs.push((to, from));
        }
    }
    Ok(())
}

fn is_tree(e: &TreeEntry) -> bool {
    e.filemode_raw() & 0o170000 == 0o040000
}

/// Git's tree order: names compared as bytes, a tree's name as if it ended in `/`. The
/// files of a walk in this order come out sorted by full path.
fn tree_order(a: &TreeEntry, b: &TreeEntry) -> Ordering {
    let (an, bn) = (a.name_bytes(), b.name_bytes());
    let common = an.len().min(bn.len());
    match an[..common].cmp(&bn[..common]) {
        Ordering::Equal => {
            let next = |e: &TreeEntry, name: &[u8]| {
                name.get(common)
                    .copied()
                    .or_else(|| is_tree(e).then_some(b'/'))
            };
            next(a, an).cmp(&next(b, bn))
        }
        other => other,
    }
}

fn entries<'a>(tree: Option<&'a Tree>) -> Vec<TreeEntry<'a>> {
    tree.map(|t| t.iter().collect()).unwrap_or_default()
}

/// The files that differ between `old` and `new` (either absent: empty), in path order,
/// as libgit2's tree-to-tree diff without type changes reports them (a blob that became a
/// symlink or submodule is a deletion, then an addition), but never reading subtrees whose
/// ids match: a commit reads only the trees on the paths it changed (libgit2 walks every
/// file of both trees).
pub(crate) fn changed_files(
    repo: &Repository,
    old: Option<&Tree>,
    new: Option<&Tree>,
) -> Result<Vec<Touch>, git2::Error> {
    let mut out = Vec::new();
    changed_blobs(repo, old, new, &mut Vec::new(), &mut out)?;
    Ok(out)
}

fn changed_blobs(
    repo: &Repository,
    old: Option<&Tree>,
    new: Option<&Tree>,
    prefix: &mut Vec<u8>,
    out: &mut Vec<Touch>,
) -> Result<(), git2::Error> {
    let (olds, news) = (entries(old), entries(new));
    let (mut i, mut j) = (0, 0);
    while i < olds.len() || j < news.len() {
        let order = match (olds.get(i), news.get(j)) {
            (Some(o), Some(n)) => tree_order(o, n),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        let (o, n) = match order {
            Ordering::Less => (olds.get(i), None),
            Ordering::Greater => (None, news.get(j)),
            Ordering::Equal => (olds.get(i), news.get(j)),
        };
        i += usize::from(o.is_some());
        j += usize::from(n.is_some());
        if let (Some(o), Some(n)) = (o, n) {
            let (om, nm) = (o.filemode_raw(), n.filemode_raw());
            if o.id() == n.id() && om == nm {
                continue;
            }
            // Same key, so both are trees or neither is.
            if !is_tree(o) && om & !0o777 != nm & !0o777 {
                side(repo, Some(o), None, prefix, out)?;
                side(repo, None, Some(n), prefix, out)?;
                continue;
            }
        }
        side(repo, o, n, prefix, out)?;
    }
    Ok(())
}

/// One changed entry (a side absent when it was added or deleted): a file, or a tree to
/// walk.
fn side(
    repo: &Repository,
    old: Option<&TreeEntry>,
    new: Option<&TreeEntry>,
    prefix: &mut Vec<u8>,
    out: &mut Vec<Touch>,
) -> Result<(), git2::Error> {
    let entry = new.or(old).expect("one side is present");
    let len = prefix.len();
    prefix.extend_from_slice(entry.name_bytes());
    if is_tree(entry) {
        let tree = |e: Option<&TreeEntry>| e.map(|e| repo.find_tree(e.id())).transpose();
        let (old, new) = (tree(old)?, tree(new)?);
        prefix.push(b'/');
        changed_blobs(repo, old.as_ref(), new.as_ref(), prefix, out)?;
    } else {
        let id = |e: Option<&TreeEntry>| e.map_or(Oid::ZERO_SHA1, |e| e.id());
        out.push(Touch {
            path: crate::paths::text(prefix),
            old: id(old),
            new: id(new),
            from: None,
        });
    }
    prefix.truncate(len);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use git2::{DiffOptions, FileMode};
    use std::collections::BTreeMap;

    /// A tree as a test builds it: names to files (content, mode) or subtrees.
    #[derive(Clone)]
    enum Node {
        File(String, FileMode),
        Dir(BTreeMap<String, Node>),
    }

    /// Names that sort differently as files and as directories (`a` < `a-b` < `a.b` <
    /// `a/` < `a0`), so a file turned directory moves among its siblings.
    const NAMES: &[&str] = &["a", "a-b", "a.b", "a0", "b", "c d"];

    fn random_node(rng: &mut Rng, depth: usize) -> Node {
        if depth < 3 && rng.below(3) == 0 {
            let mut dir = BTreeMap::new();
            for _ in 0..1 + rng.below(4) {
                dir.insert(
                    NAMES[rng.below(NAMES.len())].to_string(),
                    random_node(rng, depth + 1),
                );
            }
            Node::Dir(dir)
        } else {
            let mode = [
                FileMode::Blob,
                FileMode::BlobExecutable,
                FileMode::Link,
                FileMode::Commit,
            ][rng.below(4)];
            Node::File(format!("content {}\n", rng.below(3)), mode)
        }
    }

    /// Changes a few entries: new content or mode, a file made a directory and back,
    /// additions and deletions.
    fn mutate(rng: &mut Rng, dir: &mut BTreeMap<String, Node>, depth: usize) {
        for _ in 0..1 + rng.below(3) {
            let name = NAMES[rng.below(NAMES.len())].to_string();
            match (rng.below(4), dir.get_mut(&name)) {
                (0, Some(Node::Dir(sub))) => mutate(rng, sub, depth + 1),
                (1, Some(_)) => {
                    dir.remove(&name);
                }
                _ => {
                    dir.insert(name, random_node(rng, depth));
                }
            }
        }
    }

    fn write(repo: &Repository, dir: &BTreeMap<String, Node>) -> Oid {
        let mut builder = repo.treebuilder(None).unwrap();
        for (name, node) in dir {
            match node {
                Node::File(content, FileMode::Commit) => {
                    let oid = Oid::hash_object(git2::ObjectType::Blob, content.as_bytes());
                    builder
                        .insert(name, oid.unwrap(), FileMode::Commit.into())
                        .unwrap();
                }
                Node::File(content, mode) => {
                    let oid = repo.blob(content.as_bytes()).unwrap();
                    builder.insert(name, oid, (*mode).into()).unwrap();
                }
                Node::Dir(sub) => {
                    builder
                        .insert(name, write(repo, sub), FileMode::Tree.into())
                        .unwrap();
                }
            }
        }
        builder.write().unwrap()
    }

    /// What the walk replaced: libgit2's tree-to-tree diff, as (path, old, new).
    fn libgit2_changes(repo: &Repository, old: &Tree, new: &Tree) -> Vec<(String, Oid, Oid)> {
        let mut opts = DiffOptions::new();
        opts.skip_binary_check(true);
        let diff = repo
            .diff_tree_to_tree(Some(old), Some(new), Some(&mut opts))
            .unwrap();
        diff.deltas()
            .map(|d| {
                let path = d.new_file().path().or(d.old_file().path()).unwrap();
                (
                    crate::paths::text(path.as_os_str().as_encoded_bytes()),
                    d.old_file().id(),
                    d.new_file().id(),
                )
            })
            .collect()
    }

    #[test]
    fn the_tree_walk_reports_what_libgit2s_tree_diff_does() {
        // The trees and blobs live in memory: as loose objects on disk they made this a
        // second of waiting on the file system.
        let odb = git2::Odb::new().unwrap();
        odb.add_new_mempack_backend(1).unwrap();
        let repo = Repository::from_odb(odb).unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut compared = 0;
        for _ in 0..300 {
            let Node::Dir(mut model) = random_node(&mut Rng(rng.below(1 << 30) as u64 + 1), 0)
            else {
                continue;
            };
            let before = repo.find_tree(write(&repo, &model)).unwrap();
            mutate(&mut rng, &mut model, 0);
            let after = repo.find_tree(write(&repo, &model)).unwrap();
            let walked: Vec<_> = changed_files(&repo, Some(&before), Some(&after))
                .unwrap()
                .into_iter()
                .map(|t| (t.path, t.old, t.new))
                .collect();
            assert_eq!(walked, libgit2_changes(&repo, &before, &after));
            compared += walked.len();
        }
        assert!(compared > 300, "too few changes compared: {compared}");
    }
}
