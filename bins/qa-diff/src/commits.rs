//! The commits of a range, oldest first, with their parsed messages and touched paths.

use crate::message;
use crate::records::CommitData;
use anyhow::Context as _;
use git2::{Oid, Repository, Sort, Tree, TreeEntry};
use std::cmp::Ordering;

/// One path a commit changed, with its blob before and after (zero when absent).
pub struct Touch {
    pub path: String,
    pub old: Oid,
    pub new: Oid,
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
        changed_files(repo, parent_tree.as_ref(), Some(&commit.tree()?))?
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
