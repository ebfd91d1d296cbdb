//! Screenshots as evidence: the PNGs a browser check keeps of the page, checked (signature,
//! size), hashed and stored content-addressed and private under `<repo>/.qa/screenshots/`.
//!
//! The store never follows a symlink: `.qa` and `.qa/screenshots` are opened component by
//! component with `O_NOFOLLOW` (a symlink there is refused), the PNG is written to a new
//! temp file (`O_EXCL`, mode 0600) in that directory and renamed over its final name, and
//! rename replaces whatever is at that name instead of writing through it.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use qa_records::acceptance::{Moment, Screenshot};
use qa_records::hash::sha256_hex;

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
    let root = File::options()
        .read(true)
        .custom_flags(libc::O_DIRECTORY)
        .open(repo)?;
    let qa = directory_at(root.as_raw_fd(), ".qa", ".qa")?;
    let dir = directory_at(qa.as_raw_fd(), "screenshots", Screenshot::DIR)?;
    let dirfd = dir.as_raw_fd();
    // SAFETY: fchmod(2) on a descriptor this function owns.
    if unsafe { libc::fchmod(dirfd, 0o700) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if same_file_at(dirfd, name, bytes) {
        return Ok(());
    }
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let temp = format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let fd = open_at(
        dirfd,
        &temp,
        libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
        0o600,
    )?;
    let mut file = File::from(fd);
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| rename_at(dirfd, &temp, name));
    if written.is_err() {
        let temp = c_name(&temp)?;
        // SAFETY: unlinkat(2) with a descriptor this function owns and a NUL-terminated name.
        unsafe { libc::unlinkat(dirfd, temp.as_ptr(), 0) };
    }
    written
}

/// Whether `name` in `dirfd` is a regular file (not a symlink) holding exactly `bytes`.
fn same_file_at(dirfd: RawFd, name: &str, bytes: &[u8]) -> bool {
    let Ok(fd) = open_at(dirfd, name, libc::O_RDONLY | libc::O_NOFOLLOW, 0) else {
        return false;
    };
    let mut file = File::from(fd);
    let regular = file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    let mut held = Vec::with_capacity(bytes.len());
    regular && file.read_to_end(&mut held).is_ok() && held == bytes
}

/// The directory `name` in `parent` (`shown` in messages), created (0700) when missing; a
/// symlink or anything else that is not a directory is refused.
fn directory_at(parent: RawFd, name: &str, shown: &str) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
    match open_at(parent, name, flags, 0) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let c = c_name(name)?;
            // SAFETY: mkdirat(2) with a valid descriptor and a NUL-terminated name.
            if unsafe { libc::mkdirat(parent, c.as_ptr(), 0o700) } != 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
            }
            open_at(parent, name, flags, 0).map_err(|e| refused(shown, e))
        }
        other => other.map_err(|e| refused(shown, e)),
    }
}

/// A directory that could not be opened without following a link says so.
fn refused(name: &str, e: io::Error) -> io::Error {
    if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) {
        io::Error::other(format!(
            "{name} is a symlink or not a directory: not followed"
        ))
    } else {
        e
    }
}

fn open_at(dirfd: RawFd, name: &str, flags: i32, mode: libc::mode_t) -> io::Result<OwnedFd> {
    let c = c_name(name)?;
    // SAFETY: openat(2) with a valid descriptor and a NUL-terminated name; the returned
    // descriptor is owned by the OwnedFd alone.
    let fd = unsafe { libc::openat(dirfd, c.as_ptr(), flags | libc::O_CLOEXEC, mode) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn rename_at(dirfd: RawFd, from: &str, to: &str) -> io::Result<()> {
    let (from, to) = (c_name(from)?, c_name(to)?);
    // SAFETY: renameat(2) within one directory this function owns, NUL-terminated names.
    if unsafe { libc::renameat(dirfd, from.as_ptr(), dirfd, to.as_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn c_name(name: &str) -> io::Result<CString> {
    CString::new(name).map_err(|_| io::Error::other("a NUL in a file name"))
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
}
