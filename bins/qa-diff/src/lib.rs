//! qa-diff: a git commit range (or the working tree) as `range`, `commit` and `file`
//! records.

pub mod base;
pub mod changes;
pub mod cli;
pub mod commits;
pub mod message;
pub mod records;
pub mod roles;

use anyhow::Context as _;
use changes::{Change, Limits};
use git2::{ErrorCode, Oid, Repository, RepositoryOpenFlags};
use qa_shared::diag::{Diag, Severity};
use qa_shared::envelope::Src;
use qa_shared::exit::{failure, Exit};
use qa_shared::output::RecordWriter;
use qa_shared::{Kind, Record};
use records::{Delta, Head, Mode, RangeData};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

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
    // git does not re-hash objects it reads; libgit2 does unless told not to (DESIGN.md).
    git2::opts::strict_hash_verification(false);
    let repo = open(&opts.repo)?;
    if opts.worktree && opts.head != "HEAD" {
        return Err(failure(
            Exit::Usage,
            "--worktree compares against the working tree, so it cannot take --head",
        ));
    }
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
            limits: records::Limits {
                max_hunks: opts.limits.max_hunks,
                max_bytes: opts.limits.max_bytes,
            },
        },
    )?;
    out.write(&range)?;
    let from = vec![range.id.clone()];
    for message in skipped {
        out.write(
            &Diag::new(Severity::Warning, "qa-diff", message).into_record(BY, from.clone())?,
        )?;
    }

    // Files are diffed on a second thread while this one walks the commits; a bounded
    // channel keeps memory flat while the commits are written first.
    let git_dir = repo.path().to_path_buf();
    let (sender, receiver) = mpsc::sync_channel::<Record>(64);
    let worker = {
        let from = from.clone();
        let worktree = opts.worktree;
        let limits = opts.limits;
        std::thread::spawn(move || -> anyhow::Result<()> {
            let repo = Repository::open(&git_dir).context("reopening the repository")?;
            file_records(
                &repo, merge_base, head_oid, worktree, limits, &from, &sender,
            )
        })
    };
    let commits = commits::in_range(&repo, base_oid, head_oid);
    let commits = match commits {
        Ok(c) => c,
        Err(e) => {
            drop(receiver);
            let _ = worker.join();
            return Err(e);
        }
    };
    for commit in commits {
        let mut src = Src::new();
        src.insert("git.commit".into(), commit.oid.clone());
        out.write(&Record::new(Kind::Commit, BY, from.clone(), src, commit)?)?;
    }
    let mut written = Ok(());
    for record in receiver.iter() {
        if let Err(e) = out.write(&record) {
            written = Err(e);
            break;
        }
    }
    // Dropping the receiver (by ending the loop above) unblocks a worker stuck on send.
    drop(receiver);
    let worked = worker
        .join()
        .map_err(|_| anyhow::anyhow!("the diff thread panicked"))?;
    written?;
    worked
}

fn file_records(
    repo: &Repository,
    merge_base: Oid,
    head: Oid,
    worktree: bool,
    limits: Limits,
    from: &[String],
    sender: &mpsc::SyncSender<Record>,
) -> anyhow::Result<()> {
    let base_tree = repo.find_commit(merge_base)?.tree()?;
    let mut emit = |change: Change| -> anyhow::Result<()> {
        let record = match change {
            Change::File(file) => {
                let mut src = Src::new();
                if let Some(oid) = &file.new_oid {
                    src.insert("git.blob".into(), oid.clone());
                }
                if let Some(oid) = &file.old_oid {
                    src.insert("git.blob.old".into(), oid.clone());
                }
                if let Some(sha) = &file.sha256 {
                    src.insert("sha256".into(), sha.clone());
                }
                Record::new(Kind::File, BY, from.to_vec(), src, file)?
            }
            Change::Skipped(message) => {
                Diag::new(Severity::Info, "qa-diff", message).into_record(BY, from.to_vec())?
            }
        };
        // A closed receiver means the writer stopped (closed pipe): stop quietly.
        sender
            .send(record)
            .map_err(|_| anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe)))
    };
    if worktree {
        changes::against_worktree(repo, &base_tree, Delta::Branch, limits, &mut emit)?;
        let head_tree = repo.find_commit(head)?.tree()?;
        changes::against_worktree(repo, &head_tree, Delta::Current, limits, &mut emit)?;
    } else {
        let head_tree = repo.find_commit(head)?.tree()?;
        changes::between_trees(repo, &base_tree, &head_tree, limits, &mut emit)?;
    }
    Ok(())
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
