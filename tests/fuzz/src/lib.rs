//! Fuzz entry points: each feeds arbitrary bytes to one parser that takes outside input and
//! panics only on a bug (an error return is the parser doing its job).
//!
//! The same functions serve the AFL++ driver (`src/bin/qa-fuzz-afl.rs`, `make fuzz`) and
//! the stable regression test (`tests/corpus.rs`) that replays the committed corpus and
//! every crash found.

pub mod diff;
pub mod discovery;
pub mod documents;
pub mod plan;
pub mod stream;
pub mod syntax;

/// One fuzz target: its name (the corpus folder's too) and its entry point.
pub struct Target {
    pub name: &'static str,
    pub what: &'static str,
    pub run: fn(&[u8]),
}

/// Every target, in the order `make fuzz` runs them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "envelope",
        what: "one NDJSON line as a record envelope, its id recomputed",
        run: stream::envelope,
    },
    Target {
        name: "canonical",
        what: "any JSON value to canonical JSON, which must be a fixed point",
        run: stream::canonical,
    },
    Target {
        name: "ndjson",
        what: "a whole stream: line limits, CR/LF, blank lines, forwarding",
        run: stream::ndjson,
    },
    Target {
        name: "plan",
        what: "an acceptance plan (qa-intent --plan), sources resolved in a fixed root",
        run: plan::plan,
    },
    Target {
        name: "profile",
        what: "a host profile (qa-profile): YAML, rules, normalized record",
        run: documents::profile,
    },
    Target {
        name: "manifest",
        what: "a team manifest (.qa/manifest.yaml): YAML, globs, lookups",
        run: documents::manifest,
    },
    Target {
        name: "discovery",
        what: "Cargo.toml and package.json as validation-command discovery reads them",
        run: discovery::discovery,
    },
    Target {
        name: "diff",
        what: "qa-diff's path, hunk, role and commit-message readers",
        run: diff::diff,
    },
    Target {
        name: "syntax",
        what: "a source file's outline and imports in every grammar, and a component's split",
        run: syntax::syntax,
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Splits `data` at its first `n - 1` NUL bytes into `n` parts (missing parts empty): how
/// a target that needs several inputs takes them from one byte string.
pub fn parts<const N: usize>(data: &[u8]) -> [&[u8]; N] {
    let mut out = [&data[data.len()..]; N];
    let mut rest = data;
    for (i, slot) in out.iter_mut().enumerate() {
        if i + 1 == N {
            *slot = rest;
            break;
        }
        match rest.iter().position(|&b| b == 0) {
            Some(at) => {
                *slot = &rest[..at];
                rest = &rest[at + 1..];
            }
            None => {
                *slot = rest;
                rest = &rest[rest.len()..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_split_at_the_first_nuls_and_keep_the_rest_whole() {
        assert_eq!(parts::<3>(b"a\0b\0c\0d"), [&b"a"[..], b"b", b"c\0d"]);
        assert_eq!(parts::<3>(b"a"), [&b"a"[..], b"", b""]);
        assert_eq!(parts::<2>(b""), [&b""[..], b""]);
    }

    #[test]
    fn target_names_are_unique() {
        for (i, t) in TARGETS.iter().enumerate() {
            assert!(
                TARGETS[i + 1..].iter().all(|o| o.name != t.name),
                "{}",
                t.name
            );
        }
    }
}
