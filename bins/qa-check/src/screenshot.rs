//! Screenshots as evidence: the PNGs a browser check keeps of the page, checked (signature,
//! size), hashed and stored content-addressed and private under `<repo>/.qa/screenshots/`.
//!
//! The store never follows a symlink: `.qa/screenshots` is a private folder of the
//! repository (`qa_records::private_dir`: a symlink on the way is refused), the PNG is
//! written to a new temp file (`O_EXCL`, mode 0600) there and renamed over its final name,
//! which replaces whatever is at that name instead of writing through it.

use std::io;
use std::path::{Path, PathBuf};

use qa_records::acceptance::{Moment, Screenshot};
use qa_records::hash::sha256_hex;
use qa_records::private_dir::PrivateDir;

use crate::secret::Secret;

/// Where and how browser checks keep screenshots (absent with `--no-screenshots`).
#[derive(Debug, Clone)]
pub struct Screenshots {
    /// The project root (`--repo`) whose `.qa/screenshots/` receives them.
    pub repo: PathBuf,
    /// The `--auth-env` token: a page whose text shows it is not photographed (pixels are
    /// not redacted).
    pub token: Option<Secret>,
}

impl Screenshots {
    /// The strings whose presence in the page's text keeps a screenshot from being taken:
    /// the token as given.
    pub fn hidden(&self) -> Vec<String> {
        self.token
            .iter()
            .filter_map(|t| t.bearer().strip_prefix("Bearer ").map(str::to_string))
            .collect()
    }

    /// Checks `png` (base64, as the driver sends it) and stores it as `moment`'s picture.
    pub fn keep(&self, moment: Moment, base64: &str) -> Result<Screenshot, String> {
        let png = decode_base64(base64)?;
        if png.len() as u64 > Screenshot::MAX_BYTES {
            return Err(over_bound(png.len() as u64));
        }
        let (width, height) = png_size(&png)?;
        let sha256 = sha256_hex(&png);
        let name = format!("{sha256}.png");
        let path = Screenshot::path_of(&sha256);
        store(&self.repo, &name, &png).map_err(|e| format!("writing {path}: {e}"))?;
        Ok(Screenshot {
            moment,
            path,
            sha256,
            bytes: png.len() as u64,
            width,
            height,
        })
    }
}

/// Why a PNG of `bytes` was not kept.
pub fn over_bound(bytes: u64) -> String {
    format!(
        "the PNG is {bytes} bytes, over the {}-byte bound",
        Screenshot::MAX_BYTES
    )
}

/// Decodes standard base64 (RFC 4648, `=` padding, no line breaks).
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    fn value(byte: u8) -> Option<u32> {
        Some(u32::from(match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err("the screenshot is not base64 (length not a multiple of 4)".to_string());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let last = bytes.len() / 4;
    for (i, quad) in bytes.chunks_exact(4).enumerate() {
        let pad = quad.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && i + 1 != last) {
            return Err("the screenshot is not base64 (misplaced padding)".to_string());
        }
        let mut n = 0u32;
        for &b in &quad[..4 - pad] {
            let v = value(b).ok_or("the screenshot is not base64 (a stray character)")?;
            n = n << 6 | v;
        }
        n <<= 6 * pad as u32;
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad]);
    }
    Ok(out)
}

/// The width and height of a PNG: its signature, an IHDR chunk first and an IEND chunk
/// last; anything else is refused.
pub fn png_size(png: &[u8]) -> Result<(u32, u32), String> {
    const IEND: &[u8] = b"\0\0\0\0IEND\xae\x42\x60\x82";
    let not = |why: &str| Err(format!("the screenshot is not a PNG ({why})"));
    if !png.starts_with(Screenshot::PNG_SIGNATURE) {
        return not("no PNG signature");
    }
    let Some(ihdr) = png.get(8..8 + 8 + 13) else {
        return not("cut short");
    };
    if ihdr[..8] != *b"\0\0\0\x0dIHDR" {
        return not("no IHDR chunk first");
    }
    if !png.ends_with(IEND) || png.len() < 8 + 25 + IEND.len() {
        return not("no IEND chunk last");
    }
    let word = |at: usize| u32::from_be_bytes([ihdr[at], ihdr[at + 1], ihdr[at + 2], ihdr[at + 3]]);
    let (width, height) = (word(8), word(12));
    if width == 0 || height == 0 {
        return not("zero width or height");
    }
    Ok((width, height))
}

/// Writes `bytes` as `<repo>/.qa/screenshots/<name>` (see the module doc). A file already
/// there with the same bytes is left as it is (content-addressed: a repeat is a no-op).
fn store(repo: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let dir = PrivateDir::open_as(repo, Path::new(Screenshot::DIR), Path::new(""))?;
    dir.restrict()?;
    if dir.holds(name, bytes) {
        return Ok(());
    }
    dir.write(name, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    /// A 1x1 PNG (as Chromium would not make it, but as the format has it).
    const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("aGVsbG8h").unwrap(), b"hello!");
        assert_eq!(decode_base64("").unwrap(), b"");
    }

    #[test]
    fn base64_with_stray_characters_or_padding_is_refused() {
        assert!(decode_base64("aGVs bG8=").is_err());
        assert!(decode_base64("aGk=aGk=").is_err());
        assert!(decode_base64("aGk").is_err());
        assert!(decode_base64("a===").is_err());
    }

    #[test]
    fn a_png_tells_its_width_and_height() {
        assert_eq!(png_size(&decode_base64(PIXEL).unwrap()), Ok((1, 1)));
    }

    #[test]
    fn bytes_that_are_not_a_whole_png_are_refused() {
        let png = decode_base64(PIXEL).unwrap();
        assert!(png_size(b"GIF89a").unwrap_err().contains("signature"));
        assert!(png_size(&png[..png.len() - 1])
            .unwrap_err()
            .contains("IEND"));
        assert!(png_size(&png[..20]).unwrap_err().contains("cut short"));
    }

    #[test]
    fn a_kept_screenshot_is_a_private_file_named_by_its_hash() {
        let repo = tempfile::tempdir().unwrap();
        let store = Screenshots {
            repo: repo.path().to_path_buf(),
            token: None,
        };
        let shot = store.keep(Moment::After, PIXEL).unwrap();
        let png = decode_base64(PIXEL).unwrap();
        assert_eq!(shot.sha256, sha256_hex(&png));
        assert_eq!(shot.path, format!(".qa/screenshots/{}.png", shot.sha256));
        let file = repo.path().join(&shot.path);
        assert_eq!(std::fs::read(&file).unwrap(), png);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&repo.path().join(Screenshot::DIR)), 0o700);
        // A repeat is a no-op, and no temp file is left behind.
        assert_eq!(
            store.keep(Moment::Before, PIXEL).unwrap().sha256,
            shot.sha256
        );
        assert_eq!(
            std::fs::read_dir(repo.path().join(Screenshot::DIR))
                .unwrap()
                .count(),
            1
        );
    }

    #[test]
    fn a_symlink_at_the_final_name_is_replaced_not_written_through() {
        let repo = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let png = decode_base64(PIXEL).unwrap();
        let dir = repo.path().join(Screenshot::DIR);
        std::fs::create_dir_all(&dir).unwrap();
        let name = format!("{}.png", sha256_hex(&png));
        std::os::unix::fs::symlink(&victim, dir.join(&name)).unwrap();
        let store = Screenshots {
            repo: repo.path().to_path_buf(),
            token: None,
        };
        store.keep(Moment::After, PIXEL).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        let kept = std::fs::symlink_metadata(dir.join(&name)).unwrap();
        assert!(kept.is_file(), "the link was replaced by the file");
        assert_eq!(std::fs::read(dir.join(&name)).unwrap(), png);
    }

    #[test]
    fn a_symlinked_qa_folder_is_refused_and_nothing_is_written_where_it_points() {
        let repo = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), repo.path().join(".qa")).unwrap();
        let store = Screenshots {
            repo: repo.path().to_path_buf(),
            token: None,
        };
        let err = store.keep(Moment::After, PIXEL).unwrap_err();
        assert!(
            err.ends_with(": .qa is a symlink, not followed: nothing written there"),
            "{err}"
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
