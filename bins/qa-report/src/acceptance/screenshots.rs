//! Browser checks' screenshots carried into the run folder: each PNG an observation names
//! (`.qa/screenshots/<sha256>.png` under the project root, or a shard's `screenshots/`
//! its SHA256SUMS vouched for) is opened as a regular file of at most 2 MiB, never
//! through a symlink, and read once, one at a time, into a temporary file of the run
//! folder's `screenshots/` while it is hashed; only a PNG whose SHA-256 is the one recorded
//! is renamed to `screenshots/<sha256>.png`, the rest removed and said. report.html embeds
//! from those copies, checked again when read, so no more than one PNG is held in memory.

use crate::acceptance::ShotSource;
use qa_records::acceptance::Screenshot;
use qa_records::hash::{hex, is_sha256_hex};
use qa_records::private_dir::PrivateDir;
use qa_records::regular_file::{self, Refusal, Symlinks};
use sha2::{Digest as _, Sha256};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::Path;

/// The folder of a run folder the screenshots are copied into.
pub const FOLDER: &str = "screenshots";

/// Where the run folder keeps the screenshot of SHA-256 `sha256`: `screenshots/<sha256>.png`.
pub fn file(sha256: &str) -> String {
    format!("{FOLDER}/{}", name(sha256))
}

/// The file name of the screenshot of SHA-256 `sha256` in a `screenshots/` folder.
fn name(sha256: &str) -> String {
    format!("{sha256}.png")
}

/// A screenshot whose bytes were verified: what the reports say of it (its bytes stay in
/// its copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// Its size in bytes.
    pub bytes: u64,
    /// Width and height, as its IHDR chunk says.
    pub size: Option<(u32, u32)>,
}

/// What became of one screenshot.
#[derive(Debug, Clone)]
pub enum Carried {
    /// Verified, and copied into the run folder (when there is one).
    Verified(Verified),
    /// Why it was not copied.
    Refused(String),
}

/// Every screenshot of a run by its SHA-256, and the run folder's `screenshots/` holding
/// the verified ones' copies (None without a run folder, or when none was verified).
#[derive(Debug, Default)]
pub struct Screenshots {
    shots: BTreeMap<String, Carried>,
    copies: Option<PrivateDir>,
}

impl Screenshots {
    /// Each screenshot `shots` name, once, taken from `source` and verified as it is
    /// copied into `run`'s `screenshots/` (only verified, without a run folder). Refusals
    /// are said in the reports; a failure to write the run folder is an error.
    pub fn carry<'a>(
        source: &ShotSource,
        shots: impl Iterator<Item = &'a Screenshot>,
        run: Option<&PrivateDir>,
    ) -> io::Result<Screenshots> {
        let mut all = Screenshots::default();
        let mut copies = None;
        for shot in shots {
            if all.shots.contains_key(&shot.sha256) {
                continue;
            }
            let carried = match open(source, shot) {
                Err(why) => Carried::Refused(format!("not copied: {why}")),
                Ok(file) => {
                    if let (Some(run), None) = (run, &copies) {
                        let dir = run.child(FOLDER)?;
                        dir.restrict()?;
                        copies = Some(dir);
                    }
                    match copy(file, &shot.sha256, copies.as_ref())? {
                        Ok(verified) => Carried::Verified(verified),
                        Err(why) => Carried::Refused(format!("not copied: {} {why}", shot.path)),
                    }
                }
            };
            all.shots.insert(shot.sha256.clone(), carried);
        }
        let any = all
            .shots
            .values()
            .any(|c| matches!(c, Carried::Verified(_)));
        match (run, copies) {
            // A run whose every screenshot was refused keeps no screenshots/ folder.
            (Some(run), Some(_)) if !any => run.remove_dir(FOLDER)?,
            (_, copies) => all.copies = copies,
        }
        Ok(all)
    }

    pub fn get(&self, sha256: &str) -> Option<&Carried> {
        self.shots.get(sha256)
    }

    /// Every screenshot by SHA-256, in that order.
    pub fn all(&self) -> impl Iterator<Item = (&String, &Carried)> {
        self.shots.iter()
    }

    /// The copies in the run folder: `(screenshots/<sha256>.png, sha256)`.
    pub fn files(&self) -> Vec<(String, String)> {
        if self.copies.is_none() {
            return Vec::new();
        }
        self.shots
            .iter()
            .filter(|(_, c)| matches!(c, Carried::Verified(_)))
            .map(|(sha, _)| (file(sha), sha.clone()))
            .collect()
    }

    /// The bytes of the verified screenshot `sha256`, read back from its copy in the run
    /// folder (which this run wrote) and checked again before they are trusted.
    pub fn bytes(&self, sha256: &str) -> Result<Vec<u8>, String> {
        let Some(dir) = &self.copies else {
            return Err("not embedded: no run folder holds a copy".into());
        };
        let mut bytes = Vec::new();
        dir.open_file(&name(sha256))
            .and_then(|f| f.take(Screenshot::MAX_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("not embedded: its copy cannot be read: {e}"))?;
        check(&bytes, sha256).map_err(|why| format!("not embedded: its copy {why}"))?;
        Ok(bytes)
    }
}

/// The screenshot `shot` opened for reading from `source`, or why not.
fn open(source: &ShotSource, shot: &Screenshot) -> Result<std::fs::File, String> {
    match source {
        ShotSource::Project(root) => open_in_project(root, shot),
        ShotSource::Shards(dirs) => {
            let Some(dir) = dirs.get(&shot.sha256) else {
                return Err("no shard's run folder holds it under its SHA256SUMS".into());
            };
            PrivateDir::open_existing(dir, Path::new(FOLDER))
                .and_then(|d| d.open_file(&name(&shot.sha256)))
                .map_err(|e| e.to_string())
        }
    }
}

fn open_in_project(root: &Path, shot: &Screenshot) -> Result<std::fs::File, String> {
    if !is_sha256_hex(&shot.sha256) || shot.path != Screenshot::path_of(&shot.sha256) {
        return Err(format!(
            "{} is not .qa/screenshots/<its sha256>.png",
            shot.path
        ));
    }
    // Neither folder on the way may be a symlink out of the root.
    for dir in [".qa", Screenshot::DIR] {
        match root.join(dir).symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!("{dir} is a symlink, not a folder of the project"))
            }
            Ok(m) if !m.is_dir() => return Err(format!("{dir} is not a folder")),
            Ok(_) => {}
            Err(_) => return Err(format!("{} does not exist", shot.path)),
        }
    }
    regular_file::open_capped(
        &root.join(&shot.path),
        Screenshot::MAX_BYTES,
        Symlinks::Refuse,
    )
    .map_err(|why| match why {
        Refusal::TooLarge { .. } => format!("{} is over the 2 MiB limit", shot.path),
        why => format!("{} {why}", shot.path),
    })
}

/// Reads `from` once into a temporary file of `into` while hashing it, and renames it to
/// `<sha256>.png` only when it is the PNG of that SHA-256 (without `into`, only checks
/// it). Ok(Err(why)) when it is not (nothing is left in `into`); Err when `into` cannot be
/// written.
fn copy(
    mut from: std::fs::File,
    sha256: &str,
    into: Option<&PrivateDir>,
) -> io::Result<Result<Verified, String>> {
    let Some(into) = into else {
        return Ok(scan(&mut from, &mut io::sink())?.and_then(|s| s.verify(sha256)));
    };
    let mut outcome = None;
    let written = into.write_with(&name(sha256), &mut |file| {
        let mut out = io::BufWriter::new(file);
        let verified = scan(&mut from, &mut out)?.and_then(|s| s.verify(sha256));
        out.flush()?;
        let refused = verified.is_err();
        outcome = Some(verified);
        if refused {
            // Not renamed into place: write_with removes the temporary file.
            return Err(io::Error::other("refused"));
        }
        Ok(())
    });
    match (outcome, written) {
        (Some(Err(why)), _) => Ok(Err(why)),
        (Some(Ok(verified)), Ok(())) => Ok(Ok(verified)),
        (_, Err(e)) => Err(e),
        (None, Ok(())) => Err(io::Error::other("the copy was not made")),
    }
}

/// What one pass over a screenshot's bytes found.
pub struct Scan {
    /// How many bytes were read: at most one past [`Screenshot::MAX_BYTES`].
    bytes: u64,
    /// Their SHA-256 (hex).
    pub sha256: String,
    /// The first bytes: the signature and the IHDR chunk.
    head: Vec<u8>,
}

impl Scan {
    /// One pass over `from` (at most one byte past [`Screenshot::MAX_BYTES`]), its bytes
    /// hashed, not held; or why it cannot be read.
    pub fn of(from: &mut dyn Read) -> Result<Scan, String> {
        scan(from, &mut io::sink()).map_err(|e| e.to_string())?
    }

    /// These bytes as the PNG of SHA-256 `sha256`, or why they are not.
    pub fn verify(self, sha256: &str) -> Result<Verified, String> {
        if self.bytes > Screenshot::MAX_BYTES {
            return Err("is over the 2 MiB limit".into());
        }
        if !self.head.starts_with(Screenshot::PNG_SIGNATURE) {
            return Err("is not a PNG".into());
        }
        if self.sha256 != sha256 {
            return Err(format!(
                "was changed: its SHA-256 is {}, the observation says {sha256}",
                self.sha256
            ));
        }
        Ok(Verified {
            bytes: self.bytes,
            size: dimensions(&self.head),
        })
    }
}

/// Reads `from`, at most one byte past [`Screenshot::MAX_BYTES`], hashing it and writing
/// each part to `to`. Ok(Err(why)) when `from` cannot be read; Err when `to` fails.
fn scan(from: &mut dyn Read, to: &mut dyn Write) -> io::Result<Result<Scan, String>> {
    let mut from = from.take(Screenshot::MAX_BYTES + 1);
    let mut hasher = Sha256::new();
    let mut head = Vec::with_capacity(24);
    let mut bytes = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Ok(Err(format!("cannot be read: {e}"))),
        };
        let part = &buf[..n];
        hasher.update(part);
        let want = 24usize.saturating_sub(head.len()).min(n);
        head.extend_from_slice(&part[..want]);
        to.write_all(part)?;
        bytes += n as u64;
    }
    Ok(Ok(Scan {
        bytes,
        sha256: hex(&hasher.finalize()),
        head,
    }))
}

/// Why `bytes` are not the PNG of SHA-256 `sha256`, if they are not.
pub fn check(bytes: &[u8], sha256: &str) -> Result<Verified, String> {
    Scan::of(&mut &bytes[..])?.verify(sha256)
}

/// The width and height a PNG's IHDR chunk declares.
pub fn dimensions(png: &[u8]) -> Option<(u32, u32)> {
    let ihdr = png.get(12..24)?;
    if &ihdr[..4] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(ihdr[4..8].try_into().ok()?);
    let height = u32::from_be_bytes(ihdr[8..12].try_into().ok()?);
    Some((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::acceptance::Moment;
    use qa_records::hash::sha256_hex;

    /// A 1x1 PNG.
    const PIXEL: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\0\x05\0\x01\xff\x89\x99=\x1d\0\0\0\0IEND\xaeB`\x82";

    fn shot(sha: &str) -> Screenshot {
        Screenshot {
            moment: Moment::After,
            path: format!(".qa/screenshots/{sha}.png"),
            sha256: sha.into(),
            bytes: PIXEL.len() as u64,
            width: 1,
            height: 1,
        }
    }

    fn project(bytes: &[u8], sha: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".qa/screenshots")).unwrap();
        std::fs::write(dir.path().join(format!(".qa/screenshots/{sha}.png")), bytes).unwrap();
        dir
    }

    /// What became of `shot` read under `root` and copied into a new run folder, and
    /// the names that folder's screenshots/ holds.
    fn carry(root: &Path, shot: &Screenshot) -> (Carried, Vec<String>) {
        let out = tempfile::tempdir().unwrap();
        let run = PrivateDir::open(out.path(), Path::new("run")).unwrap();
        let source = ShotSource::Project(root.to_path_buf());
        let all = Screenshots::carry(&source, std::iter::once(shot), Some(&run)).unwrap();
        let names = match std::fs::read_dir(out.path().join("run").join(FOLDER)) {
            Ok(dir) => dir
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect(),
            Err(_) => Vec::new(),
        };
        (all.get(&shot.sha256).unwrap().clone(), names)
    }

    #[test]
    fn a_png_whose_hash_matches_is_verified_and_copied_under_its_hash() {
        let sha = sha256_hex(PIXEL);
        let dir = project(PIXEL, &sha);
        let (carried, names) = carry(dir.path(), &shot(&sha));
        let expected = Verified {
            bytes: PIXEL.len() as u64,
            size: Some((1, 1)),
        };
        assert!(matches!(carried, Carried::Verified(v) if v == expected));
        assert_eq!(names, [format!("{sha}.png")]);
    }

    #[test]
    fn a_png_whose_hash_differs_is_refused_and_leaves_no_file() {
        let sha = sha256_hex(PIXEL);
        let mut other = PIXEL.to_vec();
        *other.last_mut().unwrap() ^= 1;
        let dir = project(&other, &sha);
        let (carried, names) = carry(dir.path(), &shot(&sha));
        assert!(matches!(carried, Carried::Refused(w) if w.contains("was changed")));
        assert_eq!(names, Vec::<String>::new());
    }

    #[test]
    fn a_file_that_is_not_a_png_is_refused_even_with_its_hash() {
        let bytes = b"<script>alert(1)</script>";
        let sha = sha256_hex(bytes);
        let dir = project(bytes, &sha);
        assert!(
            matches!(carry(dir.path(), &shot(&sha)).0, Carried::Refused(w) if w.contains("not a PNG"))
        );
    }

    #[test]
    fn a_path_other_than_its_own_hash_name_is_refused_unread() {
        let sha = sha256_hex(PIXEL);
        let dir = project(PIXEL, &sha);
        let mut s = shot(&sha);
        s.path = "../outside.png".into();
        assert!(
            matches!(carry(dir.path(), &s).0, Carried::Refused(w) if w.contains("is not .qa/screenshots"))
        );
    }

    #[test]
    fn a_symlinked_screenshots_folder_is_refused() {
        let sha = sha256_hex(PIXEL);
        let outside = project(PIXEL, &sha);
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".qa")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join(".qa/screenshots"),
            dir.path().join(".qa/screenshots"),
        )
        .unwrap();
        assert!(
            matches!(carry(dir.path(), &shot(&sha)).0, Carried::Refused(w) if w.contains("symlink"))
        );
    }

    #[test]
    fn bytes_past_the_cap_are_refused_before_the_signature_or_hash() {
        let mut big = PIXEL.to_vec();
        big.resize(Screenshot::MAX_BYTES as usize + 1, 0);
        let sha = sha256_hex(&big);
        assert_eq!(check(&big, &sha), Err("is over the 2 MiB limit".into()));
        big.pop();
        let sha = sha256_hex(&big);
        assert!(check(&big, &sha).is_ok());
    }

    #[test]
    fn the_ihdr_chunk_gives_the_dimensions() {
        assert_eq!(dimensions(PIXEL), Some((1, 1)));
        assert_eq!(dimensions(b"\x89PNG"), None);
    }
}
