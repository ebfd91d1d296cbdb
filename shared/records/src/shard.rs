//! Sharding an acceptance plan over a CI job matrix: the shard `I/N` a run is, and which
//! shard owns each check (deterministic and balanced, the slow browser checks spread first).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The most shards a plan can be split into.
pub const MAX_SHARDS: u32 = 1000;

/// One shard of a sharded run: `index` of `count`, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole plan as one shard: what an unsharded run amounts to.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 <= I <= N <= [`MAX_SHARDS`], digits only; the error is one line
    /// saying what is wrong.
    fn from_str(s: &str) -> Result<Shard, String> {
        let number = |part: &str| -> Option<u32> {
            (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse().ok())
                .flatten()
        };
        let Some((i, n)) = s.split_once('/') else {
            return Err(format!("--shard {s:?}: expected I/N, e.g. 2/4"));
        };
        let (Some(index), Some(count)) = (number(i), number(n)) else {
            return Err(format!(
                "--shard {s:?}: expected I/N with whole numbers, e.g. 2/4"
            ));
        };
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "--shard {s}: N must be 1 to {MAX_SHARDS} (the number of shards)"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "--shard {s}: I must be 1 to {count} (this shard's number)"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// A check as sharding sees it: its id and its kind.
#[derive(Debug, Clone, Copy)]
pub struct CheckRef<'a> {
    pub id: &'a str,
    pub kind: &'a str,
}

/// The shard index (1..=count) owning each of `checks`, in their order. Checks are ordered
/// by kind (browser checks, the slow ones, first) then by the SHA-256 of their id, and
/// dealt round-robin: every check lands in exactly one shard, the shards' check counts
/// (and browser check counts) differ by at most one, and the assignment depends only on
/// the plan's check ids and kinds, never on the order or the machine.
pub fn assign(checks: &[CheckRef<'_>], count: u32) -> Vec<u32> {
    let count = count.max(1);
    let mut order: Vec<(bool, [u8; 32], &str, usize)> = checks
        .iter()
        .enumerate()
        .map(|(at, c)| {
            let digest: [u8; 32] = Sha256::digest(c.id.as_bytes()).into();
            (c.kind != "browser", digest, c.id, at)
        })
        .collect();
    order.sort_unstable();
    let mut owners = vec![0; checks.len()];
    for (dealt, (_, _, _, at)) in order.into_iter().enumerate() {
        owners[at] = (dealt as u64 % u64::from(count)) as u32 + 1;
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs<'a>(ids: &'a [(&'a str, &'a str)]) -> Vec<CheckRef<'a>> {
        ids.iter()
            .map(|&(id, kind)| CheckRef { id, kind })
            .collect()
    }

    #[test]
    fn a_shard_reads_and_prints_as_i_of_n() {
        let shard: Shard = "2/4".parse().unwrap();
        assert_eq!(shard, Shard { index: 2, count: 4 });
        assert_eq!(shard.to_string(), "2/4");
        assert_eq!("1/1".parse::<Shard>().unwrap(), Shard::WHOLE);
    }

    #[test]
    fn bad_shards_are_refused_in_one_line_saying_why() {
        for (bad, why) in [
            ("0/4", "I must be 1 to 4"),
            ("5/4", "I must be 1 to 4"),
            ("1/0", "N must be 1 to"),
            ("1/1001", "N must be 1 to"),
            ("2", "expected I/N"),
            ("a/4", "whole numbers"),
            ("-1/4", "whole numbers"),
            ("1/4/2", "whole numbers"),
            (" 1/4", "whole numbers"),
            ("99999999999/4", "whole numbers"),
        ] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(!err.contains('\n'), "{bad}: {err}");
        }
    }

    #[test]
    fn every_check_lands_in_exactly_one_shard_and_the_shards_are_balanced() {
        let ids: Vec<String> = (0..23).map(|i| format!("check-{i}")).collect();
        let kinds = ["file", "http", "browser", "mcp"];
        let checks: Vec<CheckRef<'_>> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| CheckRef {
                id,
                kind: kinds[i % 4],
            })
            .collect();
        for count in [1, 2, 4, 7, 30] {
            let owners = assign(&checks, count);
            assert!(owners.iter().all(|&o| (1..=count).contains(&o)));
            let per = |browser: bool| {
                let mut n = vec![0; count as usize];
                for (c, &o) in checks.iter().zip(&owners) {
                    if !browser || c.kind == "browser" {
                        n[o as usize - 1] += 1;
                    }
                }
                n
            };
            for browser in [false, true] {
                let n = per(browser);
                let (min, max) = (n.iter().min().unwrap(), n.iter().max().unwrap());
                assert!(max - min <= 1, "{count} shards, browser {browser}: {n:?}");
            }
        }
    }

    #[test]
    fn the_assignment_does_not_depend_on_the_order_of_the_checks() {
        let forward = [
            ("a", "file"),
            ("b", "browser"),
            ("c", "http"),
            ("d", "browser"),
        ];
        let mut backward = forward;
        backward.reverse();
        let owners = |list: &[(&str, &str)]| {
            let got = assign(&refs(list), 3);
            let mut by_id: Vec<(String, u32)> = list
                .iter()
                .zip(got)
                .map(|((id, _), o)| (id.to_string(), o))
                .collect();
            by_id.sort();
            by_id
        };
        assert_eq!(owners(&forward), owners(&backward));
    }

    #[test]
    fn browser_checks_are_spread_over_the_shards_first() {
        let list = [
            ("b1", "browser"),
            ("b2", "browser"),
            ("f1", "file"),
            ("f2", "file"),
        ];
        let owners = assign(&refs(&list), 2);
        assert_ne!(owners[0], owners[1], "both browser checks in one shard");
        assert_ne!(owners[2], owners[3], "both file checks in one shard");
    }

    #[test]
    fn the_assignment_is_pinned_to_the_sha256_of_the_ids() {
        // Pinned values (computed independently with Python's hashlib: ids sorted by
        // SHA-256, dealt round-robin): a change here reshuffles every sharded CI run.
        let list = [
            ("alpha", "file"),
            ("beta", "http"),
            ("gamma", "file"),
            ("delta", "mcp"),
            ("epsilon", "file"),
        ];
        assert_eq!(assign(&refs(&list), 2), [1, 1, 2, 1, 2]);
        assert_eq!(assign(&refs(&list), 3), [3, 2, 1, 1, 2]);
    }
}
