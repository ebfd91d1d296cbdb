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

/// What the compared files say towards a change.
pub(super) enum Proof<'a> {
    /// A change already: a file not renamed whose lines cannot be diffed.
    Shown,
    /// The lines that show a change if no pending file can account for them (none: no
    /// proof).
    Lines(Vec<Line<'a>>),
}

/// A line that no compared file accounts for: lost and in no gained line, or gained and
/// in no lost line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    pub text: &'a str,
    /// Lost (looked for among a pending file's head lines) or gained (its base lines).
    pub lost: bool,
}

impl Line<'_> {
    /// True when the pending file whose versions are `base` and `head` (`None`: absent)
    /// cannot account for this line: the version that could hold it lacks one of its words.
    pub fn excluded(&self, base: Option<&str>, head: Option<&str>) -> bool {
        let text = if self.lost { head } else { base };
        !text.is_some_and(|t| may_hold(t, self.text))
    }
}

/// What the files compared so far (`compared`: those whose versions differ) show: a
/// change, or the lines of the files not renamed that no compared file accounts for (at
/// most [`TRIED`]). When no pending file can account for one of them, the commit is a
/// change whatever the pending files hold: [`judge`](super::judge) on all the files would
/// say [`Verdict::Changes`](super::Verdict::Changes).
pub(super) fn proof<'a>(compared: &[&'a Differs]) -> Proof<'a> {
    // A file not renamed whose lines cannot be diffed fails every set it is in.
    if compared.iter().any(|d| !d.renamed && d.runs.is_none()) {
        return Proof::Shown;
    }
    let runs = || compared.iter().filter_map(|d| d.runs.as_ref());
    let lost: HashSet<&str> = runs()
        .flat_map(|(removed, _)| removed.iter().flatten())
        .map(|(l, _)| l.as_str())
        .collect();
    let gained: HashSet<&str> = runs()
        .flat_map(|(_, added)| added.iter().flatten())
        .map(|(l, _)| l.as_str())
        .collect();
    let own = || {
        compared
            .iter()
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
        .map(|text| Line { text, lost: true });
    // A gained line that is not wiring must be covered by a lost run.
    let gained_lines = own()
        .flat_map(|(_, added)| added.iter().flatten())
        .filter(|(_, wiring)| !*wiring)
        .map(|(l, _)| l.as_str())
        .filter(|l| !lost.contains(l))
        .map(|text| Line { text, lost: false });
    Proof::Lines(lost_lines.chain(gained_lines).take(TRIED).collect())
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
