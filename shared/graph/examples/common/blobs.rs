//! The blobs of some trees of a repository, each once, with a path it has.

use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};
use std::collections::BTreeMap;

/// Every blob of the trees of `revs`, by id, with the first path it was met at.
pub fn of(git: &Repository, revs: &[String]) -> anyhow::Result<BTreeMap<Oid, String>> {
    let mut blobs = BTreeMap::new();
    for rev in revs {
        let tree = git.revparse_single(rev)?.peel_to_tree()?;
        tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            if entry.kind() == Some(ObjectType::Blob) {
                let path = format!("{dir}{}", entry.name().unwrap_or(""));
                blobs.entry(entry.id()).or_insert(path);
            }
            TreeWalkResult::Ok
        })?;
    }
    Ok(blobs)
}
