//! The commits of a range, oldest first, with their parsed messages and touched paths.

use crate::message;
use crate::records::CommitData;
use anyhow::Context as _;
use git2::{DiffOptions, Oid, Repository, Sort};

/// Hands `each` every commit reachable from `head` and not from `base`, parents before
/// children.
pub fn each_in_range(
    repo: &Repository,
    base: Oid,
    head: Oid,
    each: &mut dyn FnMut(CommitData) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut walk = repo.revwalk()?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
    walk.push(head)?;
    walk.hide(base)?;
    for oid in walk {
        let oid = oid.context("walking the commit range")?;
        each(commit_data(repo, oid).with_context(|| format!("reading commit {oid}"))?)?;
    }
    Ok(())
}

fn commit_data(repo: &Repository, oid: Oid) -> anyhow::Result<CommitData> {
    let commit = repo.find_commit(oid)?;
    let parents: Vec<Oid> = commit.parent_ids().collect();
    let merge = parents.len() > 1;
    let files = if merge {
        Vec::new()
    } else {
        let parent_tree = match parents.first() {
            Some(p) => Some(repo.find_commit(*p)?.tree()?),
            None => None,
        };
        let mut opts = DiffOptions::new();
        opts.skip_binary_check(true);
        let diff =
            repo.diff_tree_to_tree(parent_tree.as_ref(), Some(&commit.tree()?), Some(&mut opts))?;
        let mut files: Vec<String> = diff
            .deltas()
            .filter_map(|d| {
                d.new_file()
                    .path()
                    .or(d.old_file().path())
                    .map(|p| p.to_string_lossy().into_owned())
            })
            .collect();
        files.dedup();
        files
    };
    let text = String::from_utf8_lossy(commit.message_bytes());
    let parsed = message::parse(&text);
    Ok(CommitData {
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
    })
}
