//! Browser checks' screenshots carried into the run folder: each PNG an observation names
//! (`.qa/screenshots/<sha256>.png` under the project root) is read as a regular file of
//! at most 2 MiB, never through a symlink, checked to be a PNG whose SHA-256 is the one
//! recorded, and only then copied to `screenshots/<sha256>.png` and embedded in
//! report.html. Anything else is said, never copied. A merge takes the shards' screenshots
//! their own SHA256SUMS verified.

use qa_records::acceptance::Screenshot;
use qa_records::hash::{is_sha256_hex, sha256_hex};
use qa_records::regular_file::{self, Refusal, Symlinks};
use std::collections::BTreeMap;
use std::path::Path;

/// The folder of a run folder the screenshots are copied into.
pub const FOLDER: &str = "screenshots";

/// Where the run folder keeps the screenshot of SHA-256 `sha256`: `screenshots/<sha256>.png`.
pub fn file(sha256: &str) -> String {
    format!("{FOLDER}/{sha256}.png")
}

/// What became of one screenshot.
#[derive(Debug, Clone)]
pub enum Carried {
    /// Verified bytes, copied into the run folder (when there is one).
    Verified(Vec<u8>),
    /// Why it was not copied.
    Refused(String),
}

/// Every screenshot of a run by its SHA-256.
#[derive(Debug, Default)]
pub struct Screenshots(pub BTreeMap<String, Carried>);

impl Screenshots {
    /// The screenshots `shots` name, read under `root`.
    pub fn from_project<'a>(
        root: &Path,
        shots: impl Iterator<Item = &'a Screenshot>,
    ) -> Screenshots {
        let mut all = Screenshots::default();
        for shot in shots {
            if !all.0.contains_key(&shot.sha256) {
                all.0.insert(shot.sha256.clone(), carry(root, shot));
            }
        }
        all
    }

    /// The screenshots `shots` name, from `verified` (a merge's shard folders).
    pub fn from_verified<'a>(
        verified: &BTreeMap<String, Vec<u8>>,
        shots: impl Iterator<Item = &'a Screenshot>,
    ) -> Screenshots {
        let mut all = Screenshots::default();
        for shot in shots {
            let carried = match verified.get(&shot.sha256) {
                Some(bytes) => Carried::Verified(bytes.clone()),
                None => Carried::Refused(
                    "not copied: no shard's run folder holds it under its SHA256SUMS".into(),
                ),
            };
            all.0.entry(shot.sha256.clone()).or_insert(carried);
        }
        all
    }

    pub fn get(&self, sha256: &str) -> Option<&Carried> {
        self.0.get(sha256)
    }

    /// The verified ones: `(screenshots/<sha256>.png, bytes)`.
    pub fn files(&self) -> Vec<(String, &[u8])> {
        self.0
            .iter()
            .filter_map(|(sha, c)| match c {
                Carried::Verified(bytes) => Some((file(sha), &bytes[..])),
                Carried::Refused(_) => None,
            })
            .collect()
    }
}

/// `shot` read under `root` and verified, or why not.
fn carry(root: &Path, shot: &Screenshot) -> Carried {
    match read(root, shot) {
        Ok(bytes) => Carried::Verified(bytes),
        Err(why) => Carried::Refused(format!("not copied: {why}")),
    }
}

fn read(root: &Path, shot: &Screenshot) -> Result<Vec<u8>, String> {
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
    let bytes = regular_file::read(
        &root.join(&shot.path),
        Screenshot::MAX_BYTES,
        Symlinks::Refuse,
    )
    .map_err(|why| match why {
        Refusal::TooLarge { .. } => format!("{} is over the 2 MiB limit", shot.path),
        why => format!("{} {why}", shot.path),
    })?;
    check(&bytes, &shot.sha256).map_err(|why| format!("{} {why}", shot.path))?;
    Ok(bytes)
}

/// Why `bytes` are not the PNG of SHA-256 `sha256`, if they are not.
pub fn check(bytes: &[u8], sha256: &str) -> Result<(), String> {
    if bytes.len() as u64 > Screenshot::MAX_BYTES {
        return Err("is over the 2 MiB limit".into());
    }
    if !bytes.starts_with(Screenshot::PNG_SIGNATURE) {
        return Err("is not a PNG".into());
    }
    let actual = sha256_hex(bytes);
    if actual != sha256 {
        return Err(format!(
            "was changed: its SHA-256 is {actual}, the observation says {sha256}"
        ));
    }
    Ok(())
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

    #[test]
    fn a_png_whose_hash_matches_is_verified() {
        let sha = sha256_hex(PIXEL);
        let dir = project(PIXEL, &sha);
        assert!(matches!(carry(dir.path(), &shot(&sha)), Carried::Verified(b) if b == PIXEL));
    }

    #[test]
    fn a_file_that_is_not_a_png_is_refused_even_with_its_hash() {
        let bytes = b"<script>alert(1)</script>";
        let sha = sha256_hex(bytes);
        let dir = project(bytes, &sha);
        assert!(
            matches!(carry(dir.path(), &shot(&sha)), Carried::Refused(w) if w.contains("not a PNG"))
        );
    }

    #[test]
    fn a_path_other_than_its_own_hash_name_is_refused_unread() {
        let sha = sha256_hex(PIXEL);
        let dir = project(PIXEL, &sha);
        let mut s = shot(&sha);
        s.path = "../outside.png".into();
        assert!(
            matches!(carry(dir.path(), &s), Carried::Refused(w) if w.contains("is not .qa/screenshots"))
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
            matches!(carry(dir.path(), &shot(&sha)), Carried::Refused(w) if w.contains("symlink"))
        );
    }

    #[test]
    fn the_ihdr_chunk_gives_the_dimensions() {
        assert_eq!(dimensions(PIXEL), Some((1, 1)));
        assert_eq!(dimensions(b"\x89PNG"), None);
    }
}
