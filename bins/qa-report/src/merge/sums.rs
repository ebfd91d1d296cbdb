//! A shard's run folder checked against its SHA256SUMS before anything in it is believed:
//! every listed file present, regular and matching, records.ndjson among them; screenshots
//! (`screenshots/<sha256>.png`) also PNGs of at most 2 MiB whose name is their hash, each
//! hashed as it is read, one at a time, not held.

use crate::acceptance::folder::RECORDS;
use crate::acceptance::screenshots;
use crate::out::SUMS;
use crate::reading::MAX_STREAM;
use qa_records::acceptance::Screenshot;
use qa_records::exit::{failure, Exit};
use qa_records::hash::{is_sha256_hex, sha256_hex};
use qa_records::regular_file::{self, Symlinks};
use std::collections::BTreeSet;
use std::path::Path;

/// The most bytes a SHA256SUMS file may hold: a run folder lists seven report files and
/// its screenshots (at most three per check).
const MAX_SUMS: u64 = 4 << 20;

/// What a run folder's SHA256SUMS vouches for.
pub struct Verified {
    /// records.ndjson.
    pub records: Vec<u8>,
    /// The SHA-256 of each screenshot it holds (read again when the merge copies it).
    pub screenshots: BTreeSet<String>,
    /// Every file SHA256SUMS lists (and that matches it), in its order.
    pub listed: Vec<String>,
}

/// The bytes of `dir`'s records.ndjson and its screenshots' hashes, once every file its SHA256SUMS
/// lists matches its checksum. Anything else is bad input (65) naming the file and what
/// is wrong.
pub fn verify(dir: &Path) -> anyhow::Result<Verified> {
    let sums_path = dir.join(SUMS);
    let sums = read(&sums_path, MAX_STREAM)?;
    if sums.len() as u64 > MAX_SUMS {
        return Err(bad(format!(
            "{}: over {MAX_SUMS} bytes: not a run folder's SHA256SUMS",
            sums_path.display()
        )));
    }
    let text = String::from_utf8(sums)
        .map_err(|_| bad(format!("{}: not UTF-8 text", sums_path.display())))?;
    let mut records = None;
    let mut screenshots = BTreeSet::new();
    let mut names = Vec::new();
    for (at, line) in text.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let Some((listed, name)) = entry(line) else {
            return Err(bad(format!(
                "{} line {}: not `SHA-256  FILE`",
                sums_path.display(),
                at + 1
            )));
        };
        let path = dir.join(name);
        let shot = screenshot(name);
        if shot.is_some() {
            let folder = dir.join(screenshots::FOLDER);
            if folder.symlink_metadata().is_ok_and(|m| !m.is_dir()) {
                return Err(bad(format!(
                    "{}: not a folder (a symlink is never followed)",
                    folder.display()
                )));
            }
        }
        let mismatch = |actual: &str| {
            bad(format!(
                "{}: does not match SHA256SUMS (its SHA-256 is {actual}, SHA256SUMS says {listed}): changed after the run wrote it",
                path.display()
            ))
        };
        if let Some(sha) = shot {
            let mut file =
                regular_file::open_capped(&path, Screenshot::MAX_BYTES, Symlinks::Refuse)
                    .map_err(|why| bad(format!("{}: {why}", path.display())))?;
            let scan = screenshots::Scan::of(&mut file)
                .map_err(|why| bad(format!("{}: {why}", path.display())))?;
            if scan.sha256 != listed {
                return Err(mismatch(&scan.sha256));
            }
            scan.verify(sha)
                .map_err(|why| bad(format!("{}: {why}", path.display())))?;
            screenshots.insert(sha.to_string());
        } else {
            let bytes = read(&path, MAX_STREAM)?;
            let actual = sha256_hex(&bytes);
            if actual != listed {
                return Err(mismatch(&actual));
            }
            if name == RECORDS {
                records = Some(bytes);
            }
        }
        names.push(name.to_string());
    }
    let records = records.ok_or_else(|| {
        bad(format!(
            "{}: does not list {RECORDS}: not an acceptance run folder",
            sums_path.display()
        ))
    })?;
    Ok(Verified {
        records,
        screenshots,
        listed: names,
    })
}

/// The SHA-256 a `screenshots/<sha256>.png` name carries; None for other names.
fn screenshot(name: &str) -> Option<&str> {
    let sha = name
        .strip_prefix(screenshots::FOLDER)?
        .strip_prefix('/')?
        .strip_suffix(".png")?;
    is_sha256_hex(sha).then_some(sha)
}

/// `(sha256, name)` of one `sha256sum` line (text or binary mode), the name a plain file
/// name of the folder.
fn entry(line: &str) -> Option<(&str, &str)> {
    let (sha, rest) = line.split_at_checked(64)?;
    let name = rest
        .strip_prefix("  ")
        .or_else(|| rest.strip_prefix(" *"))?;
    let plain = !name.is_empty() && !name.contains('/') && name != "." && name != "..";
    (is_sha256_hex(sha) && (plain || screenshot(name).is_some())).then_some((sha, name))
}

/// A regular file of the folder (never a symlink out of it), or why not.
fn read(path: &Path, max: u64) -> anyhow::Result<Vec<u8>> {
    regular_file::read(path, max, Symlinks::Refuse)
        .map_err(|why| bad(format!("{}: {why}", path.display())))
}

fn bad(message: String) -> anyhow::Error {
    failure(Exit::DataErr, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sums_line_is_a_hash_two_spaces_and_a_plain_file_name() {
        let sha = "a".repeat(64);
        assert_eq!(
            entry(&format!("{sha}  records.ndjson")),
            Some((sha.as_str(), "records.ndjson"))
        );
        assert_eq!(
            entry(&format!("{sha} *junit.xml")),
            Some((sha.as_str(), "junit.xml"))
        );
        let shot = format!("screenshots/{sha}.png");
        assert_eq!(
            entry(&format!("{sha}  {shot}")),
            Some((sha.as_str(), shot.as_str()))
        );
        for bad in [
            format!("{sha} records.ndjson"),
            format!("{sha}  ../records.ndjson"),
            format!("{sha}  .."),
            format!("{sha}  screenshots/../records.ndjson"),
            format!("{sha}  screenshots/{}.png", "A".repeat(64)),
            format!("{sha}  other/{sha}.png"),
            format!("{}  records.ndjson", "A".repeat(64)),
            "short  records.ndjson".to_string(),
        ] {
            assert_eq!(entry(&bad), None, "{bad}");
        }
    }
}
