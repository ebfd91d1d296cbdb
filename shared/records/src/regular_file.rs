//! Reading a file a stage does not control (a committed manifest, a host profile): a regular
//! file only, never blocking on a FIFO nor reading a device without end, and size-capped.

use std::fmt;
use std::io::{self, Read as _};
use std::path::Path;

/// One mebibyte: the cap on the manifest and the host profile, like build files.
pub const MIB: u64 = 1 << 20;

/// Whether a symlink at the last component of the path is read or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symlinks {
    /// The path a person gave: a symlink is followed (its target must still be regular).
    Follow,
    /// A path a repository decides: a symlink could lead anywhere (`/dev/zero`), so it is
    /// refused.
    Refuse,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// Nothing at that path.
    Missing,
    /// A symlink where [`Symlinks::Refuse`] applies.
    Symlink,
    /// Something that is not a regular file: a FIFO, a device, a socket, a directory.
    NotRegular(&'static str),
    /// More bytes than the cap.
    TooLarge { max: u64 },
    /// The file could not be opened or read.
    Io(io::Error),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Missing => f.write_str("does not exist"),
            Refusal::Symlink => f.write_str("is a symlink, not a regular file"),
            Refusal::NotRegular(kind) => write!(f, "is a {kind}, not a regular file"),
            Refusal::TooLarge { max } => write!(f, "is over the {} limit", size(*max)),
            Refusal::Io(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

/// `max` bytes said the way the documentation says it (`1 MiB`).
fn size(max: u64) -> String {
    if max.is_multiple_of(MIB) {
        format!("{} MiB", max / MIB)
    } else {
        format!("{max}-byte")
    }
}

/// The bytes of the regular file at `path`, at most `max` of them. The file is opened
/// without blocking (a FIFO with no writer would block `open` forever) and checked on the
/// opened descriptor, so a file swapped after a check cannot slip through.
pub fn read(path: &Path, max: u64, symlinks: Symlinks) -> Result<Vec<u8>, Refusal> {
    let file = open_capped(path, max, symlinks)?;
    let len = file.metadata().map_or(0, |m| m.len());
    // The file may grow between the check and the read: read one byte past the cap.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > max {
        return Err(Refusal::TooLarge { max });
    }
    Ok(bytes)
}

/// The regular file at `path` opened for reading as [`read`] opens it, when it holds at
/// most `max` bytes now: for a reader that streams it rather than holding it. The file
/// may still grow: the reader reads at most `max + 1` bytes and refuses the extra one.
pub fn open_capped(path: &Path, max: u64, symlinks: Symlinks) -> Result<std::fs::File, Refusal> {
    if symlinks == Symlinks::Refuse
        && path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(Refusal::Symlink);
    }
    let file = open(path, symlinks)?;
    let meta = file.metadata().map_err(Refusal::Io)?;
    if let Some(kind) = special_kind(meta.file_type()) {
        return Err(Refusal::NotRegular(kind));
    }
    if meta.len() > max {
        return Err(Refusal::TooLarge { max });
    }
    Ok(file)
}

#[cfg(unix)]
fn open(path: &Path, symlinks: Symlinks) -> Result<std::fs::File, Refusal> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let mut flags = libc::O_NONBLOCK;
    if symlinks == Symlinks::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            _ if e.kind() == io::ErrorKind::NotFound => Refusal::Missing,
            Some(libc::ELOOP) if symlinks == Symlinks::Refuse => Refusal::Symlink,
            // A socket cannot be opened at all.
            Some(libc::ENXIO) => Refusal::NotRegular("socket"),
            _ => Refusal::Io(e),
        })
}

#[cfg(not(unix))]
fn open(path: &Path, _: Symlinks) -> Result<std::fs::File, Refusal> {
    std::fs::File::open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Refusal::Missing,
        _ => Refusal::Io(e),
    })
}

/// What a file that is not regular is (`FIFO`, `device`, ...), or None for a regular file.
pub fn special_kind(ft: std::fs::FileType) -> Option<&'static str> {
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if ft.is_fifo() {
            return Some("FIFO");
        }
        if ft.is_socket() {
            return Some("socket");
        }
        if ft.is_block_device() || ft.is_char_device() {
            return Some("device");
        }
    }
    Some("special file")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::process::Command;

    fn mkfifo(path: &Path) {
        let status = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(status.success());
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"hello").unwrap();
        assert_eq!(read(&path, MIB, Symlinks::Refuse).unwrap(), b"hello");
    }

    #[test]
    fn a_file_at_the_cap_is_read_and_one_byte_more_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, [b'x'; 10]).unwrap();
        assert_eq!(read(&path, 10, Symlinks::Follow).unwrap().len(), 10);
        let err = read(&path, 9, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::TooLarge { max: 9 }), "{err:?}");
    }

    #[test]
    fn the_cap_is_named_in_mib() {
        assert_eq!(
            Refusal::TooLarge { max: MIB }.to_string(),
            "is over the 1 MiB limit"
        );
    }

    #[test]
    fn a_missing_file_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(&dir.path().join("none"), MIB, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::Missing), "{err:?}");
    }

    #[test]
    fn a_fifo_without_a_writer_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        mkfifo(&path);
        let err = read(&path, MIB, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::NotRegular("FIFO")), "{err:?}");
    }

    #[test]
    fn a_device_is_refused() {
        let err = read(Path::new("/dev/zero"), MIB, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::NotRegular("device")), "{err:?}");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path(), MIB, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::NotRegular("directory")), "{err:?}");
    }

    #[test]
    fn a_symlink_is_refused_or_followed_as_asked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("target"), b"text").unwrap();
        let link = dir.path().join("link");
        symlink("target", &link).unwrap();
        let err = read(&link, MIB, Symlinks::Refuse).unwrap_err();
        assert!(matches!(err, Refusal::Symlink), "{err:?}");
        assert_eq!(read(&link, MIB, Symlinks::Follow).unwrap(), b"text");
    }

    #[test]
    fn a_followed_symlink_to_a_device_is_still_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero");
        symlink("/dev/zero", &link).unwrap();
        let err = read(&link, MIB, Symlinks::Follow).unwrap_err();
        assert!(matches!(err, Refusal::NotRegular("device")), "{err:?}");
    }
}
