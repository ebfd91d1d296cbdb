//! A commit's verdict shown to be [`Verdict::Changes`](super::Verdict::Changes) before all its files are compared.
//!
//! [`judge`] calls a commit neutral only when every run of lines a file lost stands in a
//! run some file gained, and every gained line is so accounted for (wiring aside); a
//! renaming excuses only the files it holds in. So a line of a file not renamed, lost in
//! a run that is not wiring and standing in no gained line of any file (or gained, not
//! wiring, and standing in no lost line), makes the commit a change whatever the other
//! files hold. The files not compared yet are asked only whether the line could be one
//! of theirs: a version's lines are made of its text's words (leaves and the text between
//! them, split at spaces) and of marks that no text holds (`<kind`, `kind>`), so a line
//! with a word the version's text lacks is none of its lines.
//!
//! [`judge`]: super::judge

use std::collections::HashSet;

use super::Differs;

/// How many lines are tried as a proof at each step: the search is cheap beside a
/// comparison, and the first few lines of a real change usually prove it.
const TRIED: usize = 32;

/// A file of the commit, compared or not yet.
pub(super) enum File<'a> {
    /// Compared: its part of the judgement (`None`: the same code).
    Compared(Option<&'a Differs>),
    /// Not compared yet: the texts of its two versions (`None`: absent).
    Pending {
        base: Option<&'a str>,
        head: Option<&'a str>,
    },
}

/// True when the files compared so far show the commit to be a change, whatever the
/// pending ones hold (see the module's comment): [`judge`](super::judge) on all of them
/// would say [`Verdict::Changes`](super::Verdict::Changes).
pub(super) fn changes(files: &[File]) -> bool {
    let compared = || {
        files.iter().filter_map(|f| match f {
            File::Compared(d) => *d,
            File::Pending { .. } => None,
        })
    };
    let pending = || {
        files.iter().filter_map(|f| match f {
            File::Pending { base, head } => Some((*base, *head)),
            File::Compared(_) => None,
        })
    };
    // A file not renamed whose lines cannot be diffed fails every set it is in.
    if compared().any(|d| !d.renamed && d.runs.is_none()) {
        return true;
    }
    let runs = || compared().filter_map(|d| d.runs.as_ref());
    let lost: HashSet<&str> = runs()
        .flat_map(|(removed, _)| removed.iter().flatten())
        .map(|(l, _)| l.as_str())
        .collect();
    let gained: HashSet<&str> = runs()
        .flat_map(|(_, added)| added.iter().flatten())
        .map(|(l, _)| l.as_str())
        .collect();
    let own = || {
        compared()
            .filter(|d| !d.renamed)
            .filter_map(|d| d.runs.as_ref())
    };
    // A lost run that is not all wiring must be found whole in a gained run.
    let lost_lines = own()
        .flat_map(|(removed, _)| removed.iter())
        .filter(|run| !run.iter().all(|(_, wiring)| *wiring))
        .flatten()
        .map(|(l, _)| l.as_str())
        .filter(|l| !gained.contains(l))
        .map(|l| (l, true));
    // A gained line that is not wiring must be covered by a lost run.
    let gained_lines = own()
        .flat_map(|(_, added)| added.iter().flatten())
        .filter(|(_, wiring)| !*wiring)
        .map(|(l, _)| l.as_str())
        .filter(|l| !lost.contains(l))
        .map(|l| (l, false));
    lost_lines
        .chain(gained_lines)
        .take(TRIED)
        .any(|(line, lost)| {
            pending().all(|(base, head)| {
                // A lost line is looked for among the gained (head) lines, and the other way.
                let text = if lost { head } else { base };
                !text.is_some_and(|t| may_hold(t, line))
            })
        })
}

/// False when `line` (a version's line as [`super::texts`] writes it) cannot be a line of
/// the version whose text is `text`: one of its words is not in the text. A mark is no
/// word of any text and proves nothing.
fn may_hold(text: &str, line: &str) -> bool {
    let is_mark = |w: &str| w.starts_with('<') || w.ends_with('>');
    line.split(' ')
        .filter(|w| !w.is_empty() && !is_mark(w))
        .all(|w| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some())
}
