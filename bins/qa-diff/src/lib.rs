//! qa-diff: a git commit range (or the working tree) as `range`, `commit` and `file`
//! records.

pub mod attributes;
pub mod attribution;
pub mod base;
pub mod changes;
pub mod cli;
pub mod commits;
pub mod files;
pub mod message;
pub mod paths;
pub mod records;
pub mod roles;
#[cfg(test)]
mod testing;

use git2::{ErrorCode, Oid, Repository, RepositoryOpenFlags};
use qa_records::diag::{Diag, Severity};
use qa_records::envelope::Src;
use qa_records::exit::{failure, Exit};
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};
use records::{Head, Limits, Mode, RangeData};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The producer name in every record's `by`.
pub const BY: &str = concat!("qa-diff/", env!("CARGO_PKG_VERSION"));

/// What to describe.
pub struct Options {
    pub repo: PathBuf,
    pub base: Option<String>,
    pub head: String,
    pub worktree: bool,
    pub limits: Limits,
}

/// Writes the range, its commits and its changed files to `out`.
/// `env` reads environment variables (the CI base sources).
pub fn run<W: Write>(
    opts: &Options,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<()> {
    // git does not re-hash objects it reads; libgit2 does unless told not to.
    git2::opts::strict_hash_verification(false);
    let repo = open(&opts.repo)?;
    let head_oid = head_commit(&repo, &opts.head)?;
    let head_branch = head_branch(&repo, &opts.head);
    let mut skipped = Vec::new();
    let base = base::resolve(
        &repo,
        &base::Inputs {
            explicit: opts.base.as_deref(),
            env,
            head: head_oid,
            head_branch: head_branch.as_deref(),
        },
        &mut skipped,
    )?;
    let merge_base = repo.merge_base(base.oid, head_oid).map_err(|_| {
        failure(
            Exit::DataErr,
            format!(
                "{} and {} share no history (no merge base)",
                base.name, opts.head
            ),
        )
    })?;
    let base_oid = base.oid;
    let mut src = Src::new();
    src.insert("git.commit.base".into(), base_oid.to_string());
    src.insert("git.commit.head".into(), head_oid.to_string());
    src.insert("git.commit.merge_base".into(), merge_base.to_string());
    let range = Record::new(
        Kind::Range,
        BY,
        Vec::new(),
        src,
        RangeData {
            base,
            head: Head {
                name: opts.head.clone(),
                oid: head_oid,
                branch: head_branch,
            },
            merge_base,
            mode: if opts.worktree {
                Mode::Worktree
            } else {
                Mode::Committed
            },
            limits: opts.limits,
        },
    )?;
    out.write(&range)?;
    // A consumer can start on the range alone (qa-intent builds its behavior graphs from
    // it) while the commits and files are still being diffed.
    out.flush()?;
    let from = vec![range.id.clone()];
    for message in skipped {
        out.write(
            &Diag::new(Severity::Warning, "qa-diff", message).into_record(BY, from.clone())?,
        )?;
    }

    // Without attributes, the patches of a commit range read the same through a handle
    // without the working tree, where libgit2's attribute lookups are cheap (attributes.rs).
    // SAFETY: qa-diff never changes libgit2's search paths, so nothing writes them while
    // they are read.
    let bare = !opts.worktree && unsafe { attributes::none_apply(&repo, merge_base, head_oid) };
    // Files are diffed on threads of their own while this one walks the commits; bounded
    // channels keep memory flat while the commits are written first.
    let passes = files::start(&files::Job {
        git_dir: repo.path().to_path_buf(),
        bare,
        merge_base,
        head: head_oid,
        worktree: opts.worktree,
        limits: opts.limits,
    });
    let bare_repo = bare
        .then(|| Repository::open_bare(repo.path()).ok())
        .flatten();
    let mut attribution = attribution::Attribution::default();
    let written = commits::each_in_range(&repo, base_oid, head_oid, &mut |commit, touches| {
        if let Ok(oid) = Oid::from_str(&commit.oid) {
            attribution.saw(oid, touches);
        }
        let mut src = Src::new();
        src.insert("git.commit".into(), commit.oid.clone());
        out.write(&Record::new(Kind::Commit, BY, from.clone(), src, commit)?)
    });
    // One file record per path and delta: a UTF-8 name that reads like another's escaped
    // form (a literal `\xff`) must not give readers two records for one path.
    let mut shown = std::collections::BTreeSet::new();
    match written {
        Ok(()) => passes.drain(&mut |mut change| {
            if let changes::Change::File(file) = &change {
                if !shown.insert((file.delta, file.path.clone())) {
                    change = changes::Change::Skipped {
                        message: format!(
                            "{} names two paths (one of them not UTF-8); the second was left out",
                            file.path
                        ),
                        path: file.path.clone(),
                        raw: Vec::new(),
                        delta: file.delta,
                        severity: qa_records::diag::Severity::Warning,
                    };
                }
            }
            // Committed lines only: uncommitted work has no commit to name.
            if let (changes::Change::File(file), false) = (&mut change, opts.worktree) {
                attribution.attribute(bare_repo.as_ref().unwrap_or(&repo), file);
            }
            out.write(&files::record(change, &from)?)
        }),
        Err(e) => {
            // Stop the passes (their sends fail once the receivers are gone) and report.
            let _ = passes.drain(&mut |_| Err(anyhow::anyhow!("stopped")));
            Err(e)
        }
    }
}

/// Opens the repository `path` lies in; a missing path or a non-repository is exit 66.
fn open(path: &Path) -> anyhow::Result<Repository> {
    if !path.exists() {
        return Err(failure(
            Exit::NoInput,
            format!("repository {} does not exist", path.display()),
        ));
    }
    Repository::open_ext(
        path,
        RepositoryOpenFlags::empty(),
        std::iter::empty::<&str>(),
    )
    .map_err(|e| {
        if e.code() == ErrorCode::NotFound {
            failure(
                Exit::NoInput,
                format!("{} is not inside a git repository", path.display()),
            )
        } else {
            failure(
                Exit::NoInput,
                format!("opening {}: {}", path.display(), e.message()),
            )
        }
    })
}

fn head_commit(repo: &Repository, spec: &str) -> anyhow::Result<Oid> {
    if spec == "HEAD" {
        if let Err(e) = repo.head() {
            if e.code() == ErrorCode::UnbornBranch {
                return Err(failure(
                    Exit::NoInput,
                    "HEAD has no commit yet (an empty repository has nothing to diff)",
                ));
            }
        }
    }
    base::peel(repo, spec)
        .ok_or_else(|| failure(Exit::NoInput, format!("unknown ref `{spec}` (from --head)")))
}

/// The branch the head is on: the named local branch, or HEAD's branch.
fn head_branch(repo: &Repository, spec: &str) -> Option<String> {
    if spec == "HEAD" {
        let head = repo.head().ok()?;
        if !head.is_branch() {
            return None;
        }
        return head.shorthand().ok().map(str::to_string);
    }
    let short = spec.strip_prefix("refs/heads/").unwrap_or(spec);
    repo.find_branch(short, git2::BranchType::Local)
        .ok()
        .map(|_| short.to_string())
}
