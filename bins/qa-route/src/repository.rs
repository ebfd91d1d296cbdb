//! The repository routes are read from: it must hold the change stream's head commit,
//! or its build files describe another change than the one routed.

use qa_records::change::RangeView;
use std::path::Path;

/// Ok when `repo` is a git repository holding `range`'s head commit; the one-line exit-66
/// error naming both otherwise.
pub fn holds_head(repo: &Path, range: &RangeView) -> anyhow::Result<()> {
    let holds = git2::Repository::open(repo).is_ok_and(|git| {
        git2::Oid::from_str(&range.head.oid).is_ok_and(|oid| git.find_commit(oid).is_ok())
    });
    match holds {
        true => Ok(()),
        false => Err(range.foreign_to(repo, "qa-route")),
    }
}
