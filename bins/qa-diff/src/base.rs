//! Base resolution: which commit the change is measured from, who chose it, and why.

use git2::{BranchType, Oid, Repository};
use qa_records::exit::{failure, Exit};
use serde::Serialize;

/// The pull-request CI variables, in the order they are consulted.
pub const CI_VARIABLES: &[&str] = &[
    "QA_BASE_REF",
    "GITHUB_BASE_REF",
    "CI_MERGE_REQUEST_TARGET_BRANCH_NAME",
    "BITBUCKET_PR_DESTINATION_BRANCH",
    "BUILDKITE_PULL_REQUEST_BASE_BRANCH",
    "CHANGE_TARGET",
    "SYSTEM_PULLREQUEST_TARGETBRANCH",
];

/// Long-lived branch names, in order of preference when distances tie.
pub const LONG_LIVED: &[&str] = &["develop", "development", "dev", "main", "master", "trunk"];

/// Which source chose the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Explicit,
    CiEnv,
    GitConfig,
    NearestBranch,
    Root,
}

/// The resolved base.
#[derive(Debug, Clone, Serialize)]
pub struct Base {
    #[serde(rename = "ref")]
    pub name: String,
    #[serde(serialize_with = "crate::records::oid_hex")]
    pub oid: Oid,
    pub source: Source,
    /// One sentence: why this base.
    pub reason: String,
    /// Other branches at the same commit, which local history cannot tell apart.
    pub equivalent: Vec<String>,
}

/// What resolution needs from outside the repository.
pub struct Inputs<'a> {
    pub explicit: Option<&'a str>,
    /// Reads an environment variable (injected so tests need not touch the process env).
    pub env: &'a dyn Fn(&str) -> Option<String>,
    pub head: Oid,
    /// The checked-out branch's short name, when HEAD is on a branch.
    pub head_branch: Option<&'a str>,
}

/// Resolves the base. Sources that are set but do not resolve are skipped, each with a
/// message in `skipped`; only an explicit --base that does not resolve is an error.
pub fn resolve(
    repo: &Repository,
    inputs: &Inputs,
    skipped: &mut Vec<String>,
) -> anyhow::Result<Base> {
    if let Some(name) = inputs.explicit {
        let oid = peel(repo, name)
            .ok_or_else(|| failure(Exit::NoInput, format!("unknown ref `{name}` (from --base)")))?;
        return Ok(base(
            repo,
            name.to_string(),
            oid,
            Source::Explicit,
            format!("--base {name} was given"),
        ));
    }
    for var in CI_VARIABLES {
        let Some(value) = (inputs.env)(var).map(|v| v.trim().to_string()) else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        match resolve_branch_name(repo, &value) {
            Some((name, oid)) => {
                let reason = format!(
                    "the pull-request CI variable {var}={value} names {name} as the target branch"
                );
                return Ok(base(repo, name, oid, Source::CiEnv, reason));
            }
            None => skipped.push(format!(
                "{var}={value} does not resolve to a commit in this repository; skipped"
            )),
        }
    }
    let mut keys = Vec::new();
    if let Some(branch) = inputs.head_branch {
        keys.push(format!("branch.{branch}.qa-base"));
    }
    keys.push("qa.base".to_string());
    let config = repo.config()?;
    for key in keys {
        let Ok(value) = config.get_string(&key) else {
            continue;
        };
        let value = value.trim().to_string();
        if value.is_empty() {
            continue;
        }
        match peel(repo, &value)
            .map(|oid| (value.clone(), oid))
            .or_else(|| resolve_branch_name(repo, &value))
        {
            Some((name, oid)) => {
                let reason = format!("git config {key} is set to {value}");
                return Ok(base(repo, name, oid, Source::GitConfig, reason));
            }
            None => skipped.push(format!(
                "git config {key}={value} does not resolve to a commit in this repository; skipped"
            )),
        }
    }
    if let Some(found) = nearest(repo, inputs)? {
        return Ok(found);
    }
    let root = root_commit(repo, inputs.head)?;
    Ok(base(
        repo,
        root.to_string(),
        root,
        Source::Root,
        "no long-lived branch (a remote HEAD, develop, development, dev, main, master or trunk) shares history with HEAD; diffing from the root commit".to_string(),
    ))
}

fn base(repo: &Repository, name: String, oid: Oid, source: Source, reason: String) -> Base {
    let equivalent = equivalent_refs(repo, oid, &name);
    Base {
        name,
        oid,
        source,
        reason,
        equivalent,
    }
}

/// The commit `spec` names (branch, tag, oid, `HEAD~2`...), if any.
pub fn peel(repo: &Repository, spec: &str) -> Option<Oid> {
    repo.revparse_single(spec)
        .ok()?
        .peel_to_commit()
        .ok()
        .map(|c| c.id())
}

/// A branch name as CI systems give it (`main`, `refs/heads/main`): the remote-tracking
/// branch first (it is what the pull request targets), then the local one.
fn resolve_branch_name(repo: &Repository, value: &str) -> Option<(String, Oid)> {
    let short = value.strip_prefix("refs/heads/").unwrap_or(value);
    // origin first, then the local branch, then the other remotes.
    let others = remote_names(repo)
        .into_iter()
        .filter(|r| r != "origin")
        .map(|r| format!("{r}/{short}"));
    [format!("origin/{short}"), short.to_string()]
        .into_iter()
        .chain(others)
        .find_map(|c| branch_oid(repo, &c).map(|oid| (c, oid)))
        .or_else(|| peel(repo, value).map(|oid| (value.to_string(), oid)))
}

/// The commit of a local (`main`) or remote-tracking (`origin/main`) branch.
fn branch_oid(repo: &Repository, name: &str) -> Option<Oid> {
    let branch = repo
        .find_branch(name, BranchType::Local)
        .or_else(|_| repo.find_branch(name, BranchType::Remote))
        .ok()?;
    branch.get().peel_to_commit().ok().map(|c| c.id())
}

/// Remote names: configured remotes and any name under `refs/remotes/` (CI checkouts may
/// fetch a target branch without configuring its remote).
fn remote_names(repo: &Repository) -> Vec<String> {
    let mut names: Vec<String> = repo
        .remotes()
        .map(|r| {
            r.iter()
                .filter_map(|n| n.ok().flatten())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Ok(refs) = repo.references_glob("refs/remotes/*") {
        for reference in refs.flatten() {
            if let Some(rest) = reference
                .name()
                .ok()
                .and_then(|n| n.strip_prefix("refs/remotes/"))
            {
                if let Some((remote, _)) = rest.split_once('/') {
                    names.push(remote.to_string());
                }
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The long-lived candidates, in preference order: each remote's HEAD target, then each
/// long-lived name as a local branch and as each remote's branch.
fn candidates(repo: &Repository, head_branch: Option<&str>) -> Vec<String> {
    let remotes = remote_names(repo);
    let mut out: Vec<String> = Vec::new();
    for remote in &remotes {
        if let Ok(r) = repo.find_reference(&format!("refs/remotes/{remote}/HEAD")) {
            if let Ok(Some(target)) = r.symbolic_target() {
                if let Some(short) = target.strip_prefix("refs/remotes/") {
                    out.push(short.to_string());
                }
            }
        }
    }
    for name in LONG_LIVED {
        out.push(name.to_string());
        for remote in &remotes {
            out.push(format!("{remote}/{name}"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()) && Some(c.as_str()) != head_branch);
    out
}

/// The candidate HEAD is fewest commits ahead of; ties keep preference order.
fn nearest(repo: &Repository, inputs: &Inputs) -> anyhow::Result<Option<Base>> {
    let mut measured: Vec<(String, Oid, usize)> = Vec::new();
    for name in candidates(repo, inputs.head_branch) {
        let Some(oid) = branch_oid(repo, &name) else {
            continue;
        };
        if repo.merge_base(inputs.head, oid).is_err() {
            continue;
        }
        let (ahead, _) = repo.graph_ahead_behind(inputs.head, oid)?;
        measured.push((name, oid, ahead));
    }
    let Some(best) = measured.iter().min_by_key(|(_, _, ahead)| *ahead).cloned() else {
        return Ok(None);
    };
    let (name, oid, ahead) = best;
    let others: Vec<String> = measured
        .iter()
        .filter(|(n, o, _)| *n != name && *o != oid)
        .map(|(n, _, a)| format!("{n} {a}"))
        .collect();
    let mut reason = format!(
        "{name} is the nearest long-lived branch: HEAD is {ahead} commit{} ahead of it",
        if ahead == 1 { "" } else { "s" }
    );
    if !others.is_empty() {
        reason.push_str(&format!(
            " (other candidates, commits ahead: {})",
            others.join(", ")
        ));
    }
    Ok(Some(base(repo, name, oid, Source::NearestBranch, reason)))
}

/// The root commit reached by following first parents from `head`.
fn root_commit(repo: &Repository, head: Oid) -> anyhow::Result<Oid> {
    let mut commit = repo.find_commit(head)?;
    while let Ok(parent) = commit.parent(0) {
        commit = parent;
    }
    Ok(commit.id())
}

/// Local and remote-tracking branches at `oid`, other than `chosen`, sorted.
fn equivalent_refs(repo: &Repository, oid: Oid, chosen: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(branches) = repo.branches(None) else {
        return out;
    };
    for (branch, _) in branches.flatten() {
        let reference = branch.get();
        if !matches!(reference.symbolic_target(), Ok(None)) {
            continue;
        }
        let Ok(name) = reference.shorthand() else {
            continue;
        };
        if name == chosen || name.ends_with("/HEAD") {
            continue;
        }
        if reference.peel_to_commit().map(|c| c.id()).ok() == Some(oid) {
            out.push(name.to_string());
        }
    }
    out.sort();
    out
}
