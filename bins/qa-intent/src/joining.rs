//! Joining behaviour commits into intents: shared tickets or behaviour files, re-split
//! around one anchor so a chain of pairwise links cannot merge unrelated work.

use std::collections::BTreeSet;

use crate::behaviour::Rank;

/// What joining needs to know of one behaviour-bearing commit.
#[derive(Debug, Clone)]
pub struct Member {
    pub rank: Rank,
    pub tickets: BTreeSet<String>,
    /// Changed product, command and analysis-rule paths.
    pub files: BTreeSet<String>,
}

/// True when two commits belong to the same intent by direct evidence: a shared ticket,
/// or a shared behaviour-bearing file unless both carry tickets and none is shared
/// (distinct ticket tags are a hard boundary). Vocabulary never links.
pub fn linked(a: &Member, b: &Member) -> bool {
    if !a.tickets.is_disjoint(&b.tickets) {
        return true;
    }
    if !a.tickets.is_empty() && !b.tickets.is_empty() {
        return false;
    }
    !a.files.is_disjoint(&b.files)
}

/// Groups members (given in commit order) into intents. Each group lists member indices,
/// anchor first then commit order; groups are ordered by their anchor's position.
pub fn group(members: &[Member]) -> Vec<Vec<usize>> {
    // The anchor: the strongest type, earliest first.
    group_by(
        members.len(),
        |a, b| linked(&members[a], &members[b]),
        |i| (members[i].rank, i),
    )
}

/// Connected components of `0..n` under `linked`, each re-split around its anchor (the
/// member with the lowest `priority`): the anchor keeps the members linked to it directly
/// and the rest is grouped again, so a chain of pairwise links cannot merge unrelated
/// work. Groups list the anchor first, then the others in index order, and are ordered by
/// their anchor.
pub fn group_by<K: Ord>(
    n: usize,
    linked: impl Fn(usize, usize) -> bool,
    priority: impl Fn(usize) -> K,
) -> Vec<Vec<usize>> {
    let mut groups = Vec::new();
    let all: Vec<usize> = (0..n).collect();
    for component in components(&all, &linked) {
        split(component, &linked, &priority, &mut groups);
    }
    groups.sort_by_key(|g| g[0]);
    groups
}

/// Connected components of `subset`, each in index order, ordered by first member.
fn components(subset: &[usize], linked: &impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut seen = vec![false; subset.len()];
    let mut out = Vec::new();
    for start in 0..subset.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let mut component = Vec::new();
        while let Some(i) = stack.pop() {
            component.push(subset[i]);
            for j in 0..subset.len() {
                if !seen[j] && linked(subset[i], subset[j]) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        component.sort_unstable();
        out.push(component);
    }
    out
}

fn split<K: Ord>(
    component: Vec<usize>,
    linked: &impl Fn(usize, usize) -> bool,
    priority: &impl Fn(usize) -> K,
    groups: &mut Vec<Vec<usize>>,
) {
    let anchor = *component
        .iter()
        .min_by_key(|&&i| priority(i))
        .expect("components are never empty");
    let (kept, rest): (Vec<usize>, Vec<usize>) = component
        .into_iter()
        .partition(|&i| i == anchor || linked(anchor, i));
    let mut group = vec![anchor];
    group.extend(kept.into_iter().filter(|&i| i != anchor));
    groups.push(group);
    for component in components(&rest, linked) {
        split(component, linked, priority, groups);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rank: Rank, tickets: &[&str], files: &[&str]) -> Member {
        Member {
            rank,
            tickets: tickets.iter().map(|s| s.to_string()).collect(),
            files: files.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn independent_commits_stay_apart() {
        let ms = [
            m(Rank::Feature, &[], &["a.ts"]),
            m(Rank::Feature, &[], &["b.ts"]),
            m(Rank::Feature, &[], &["c.ts"]),
            m(Rank::Feature, &[], &["d.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![0], vec![1], vec![2], vec![3]]);
    }

    #[test]
    fn a_shared_ticket_joins_commits_on_different_files() {
        let ms = [
            m(Rank::Feature, &["PROJ-12"], &["a.ts"]),
            m(Rank::Fix, &["PROJ-12"], &["b.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![0, 1]]);
    }

    #[test]
    fn distinct_tickets_never_join_even_on_a_shared_file() {
        let ms = [
            m(Rank::Feature, &["ABC-1"], &["a.ts"]),
            m(Rank::Feature, &["ABC-2"], &["a.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![0], vec![1]]);
    }

    #[test]
    fn a_shared_behaviour_file_joins_commits_without_tickets() {
        let ms = [
            m(Rank::Feature, &[], &["a.ts"]),
            m(Rank::Fix, &["X-1"], &["a.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![0, 1]]);
    }

    #[test]
    fn a_chain_is_resplit_around_its_anchor() {
        // A -- B share coupon.ts, B -- C share invoice.ts, A and C share nothing.
        let ms = [
            m(Rank::Feature, &[], &["coupon.ts"]),
            m(Rank::Fix, &[], &["coupon.ts", "invoice.ts"]),
            m(Rank::Feature, &[], &["invoice.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn the_anchor_is_the_strongest_type_not_the_first_commit() {
        let ms = [
            m(Rank::Fix, &[], &["a.ts"]),
            m(Rank::Feature, &[], &["a.ts", "b.ts"]),
            m(Rank::Fix, &[], &["b.ts"]),
        ];
        assert_eq!(group(&ms), vec![vec![1, 0, 2]]);
    }
}
