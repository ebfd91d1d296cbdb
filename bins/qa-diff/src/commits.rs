//! The commits of a range, oldest first, with their parsed messages and touched paths.

use crate::message;
use crate::records::CommitData;
use anyhow::Context as _;
use git2::{DiffOptions, Oid, Repository, Sort};

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
    let mut touches = Vec::new();
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
        let mut files: Vec<String> = Vec::new();
        for d in diff.deltas() {
            let Some(path) = d.new_file().path().or(d.old_file().path()) else {
                continue;
            };
            let path = path.to_string_lossy().into_owned();
            touches.push(Touch {
                path: path.clone(),
                old: d.old_file().id(),
                new: d.new_file().id(),
            });
            files.push(path);
        }
        files.dedup();
        files
    };
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
