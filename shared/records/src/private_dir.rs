//! Private folders a stage writes into a repository: every component below the root opened without following symlinks, created 0700, files created new or renamed into place inside the folder.
//!
//! A repository is data: it may hold `.qa -> /elsewhere`, or a `.gitignore` symlink where
//! a stage writes one. So below the root (the repository, or a folder the person named)
//! each component is opened with `openat(O_NOFOLLOW|O_DIRECTORY)` and made with
//! `mkdirat(0700)` when missing; every later operation (create, rename, link, remove) is
//! relative to the folder's descriptor, so nothing is resolved through a path again. A
//! symlink, or anything that is not a folder, where a folder is expected is a
//! refusal: exit 65, one line naming the path, nothing made past it ([`is_refusal`]).

use crate::exit::{Exit, Failure};
use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// An open private folder: its descriptor, and its path for messages only.
#[derive(Debug)]
pub struct PrivateDir {
    fd: OwnedFd,
    path: PathBuf,
}

impl PrivateDir {
    /// `root/below`, each component of `below` opened without following a link and made
    /// (0700) when missing. `root` itself is opened as given: the caller named it (the
    /// repository, or the folder the person chose). `below` must be relative without `..`.
    pub fn open(root: &Path, below: &Path) -> io::Result<PrivateDir> {
        PrivateDir::open_as(root, below, root)
    }

    /// [`PrivateDir::open`], its messages naming the root `shown` (`""`: paths relative to
    /// the root, as a record quotes them).
    pub fn open_as(root: &Path, below: &Path, shown: &Path) -> io::Result<PrivateDir> {
        let mut dir = PrivateDir::root(root)?;
        dir.path = shown.to_path_buf();
        for part in below.components() {
            match part {
                Component::CurDir => {}
                Component::Normal(name) => dir = dir.child(name)?,
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{}: not a path below {}", below.display(), root.display()),
                    ))
                }
            }
        }
        Ok(dir)
    }

    /// `root/below` as it is, never made nor followed: for reading what a run left.
    pub fn open_existing(root: &Path, below: &Path) -> io::Result<PrivateDir> {
        let mut dir = PrivateDir::root(root)?;
        for part in below.components() {
            let Component::Normal(name) = part else {
                return Err(io::Error::from(io::ErrorKind::InvalidInput));
            };
            let path = dir.path.join(name);
            let fd = open_dir_at(dir.raw(), name.as_bytes(), &path)?;
            dir = PrivateDir { fd, path };
        }
        Ok(dir)
    }

    /// `path`, the part of it that exists opened as given (the person named it), the rest
    /// made as [`PrivateDir::open`] does. When `path` is inside `repo`, the root is `repo`:
    /// nothing below the repository is followed. Returns the folder and the paths of the
    /// folders it made, outermost first (for a caller that removes them on failure).
    pub fn create_path(repo: &Path, path: &Path) -> io::Result<(PrivateDir, Vec<PathBuf>)> {
        let (root, below) = split(repo, path);
        let mut dir = PrivateDir::root(&root)?;
        let mut made = Vec::new();
        for part in below.components() {
            let Component::Normal(name) = part else {
                continue;
            };
            let (child, new) = dir.child_made(name)?;
            if new {
                made.push(child.path.clone());
            }
            dir = child;
        }
        Ok((dir, made))
    }

    fn root(root: &Path) -> io::Result<PrivateDir> {
        let fd = open_at(
            libc::AT_FDCWD,
            root.as_os_str().as_bytes(),
            libc::O_RDONLY | libc::O_DIRECTORY,
            0,
        )
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", root.display())))?;
        Ok(PrivateDir {
            fd,
            path: root.to_path_buf(),
        })
    }

    /// The path this folder was reached by (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `name` in this one, made (0700) when missing.
    pub fn child(&self, name: impl AsRef<std::ffi::OsStr>) -> io::Result<PrivateDir> {
        self.child_made(name.as_ref()).map(|(dir, _)| dir)
    }

    fn child_made(&self, name: &std::ffi::OsStr) -> io::Result<(PrivateDir, bool)> {
        let bytes = name.as_bytes();
        let path = self.path.join(name);
        let made = match mkdir_at(self.raw(), bytes) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
            Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        };
        let fd = open_dir_at(self.raw(), bytes, &path)?;
        Ok((PrivateDir { fd, path }, made))
    }

    /// A new folder `name` (0700); `AlreadyExists` when anything is at that name.
    pub fn create_new(&self, name: &str) -> io::Result<PrivateDir> {
        let path = self.path.join(name);
        mkdir_at(self.raw(), name.as_bytes())?;
        let fd = open_dir_at(self.raw(), name.as_bytes(), &path)?;
        Ok(PrivateDir { fd, path })
    }

    /// This folder opened again (`.` relative to it: a new open file, not a duplicate
    /// descriptor), as a file: what `flock(2)` locks and releases on its own.
    pub fn reopen_file(&self) -> io::Result<File> {
        open_at(self.raw(), b".", libc::O_RDONLY | libc::O_DIRECTORY, 0).map(File::from)
    }

    /// Makes this folder private (0700) whatever it was.
    pub fn restrict(&self) -> io::Result<()> {
        // SAFETY: fchmod(2) on a descriptor this value owns.
        if unsafe { libc::fchmod(self.raw(), 0o700) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// A new private file (0600) `name`; `AlreadyExists` when anything, a symlink too, is
    /// at that name.
    pub fn create_file(&self, name: &str) -> io::Result<File> {
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW;
        open_at(self.raw(), name.as_bytes(), flags, 0o600).map(File::from)
    }

    /// The regular file `name` for reading; a symlink there is a refusal, never followed.
    pub fn open_file(&self, name: &str) -> io::Result<File> {
        let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK;
        let path = self.path.join(name);
        let fd =
            open_at(self.raw(), name.as_bytes(), flags, 0).map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => refused(self.raw(), name.as_bytes(), &path),
                _ => io::Error::new(e.kind(), format!("{}: {e}", path.display())),
            })?;
        let file = File::from(fd);
        if !file.metadata()?.is_file() {
            return Err(io::Error::other(format!(
                "{}: not a regular file",
                path.display()
            )));
        }
        Ok(file)
    }

    /// Whether `name` is a regular file (never a symlink) holding exactly `bytes`.
    pub fn holds(&self, name: &str, bytes: &[u8]) -> bool {
        let Ok(mut file) = self.open_file(name) else {
            return false;
        };
        let mut held = Vec::with_capacity(bytes.len());
        file.metadata().is_ok_and(|m| m.len() == bytes.len() as u64)
            && file.read_to_end(&mut held).is_ok()
            && held == bytes
    }

    /// Writes `name` (0600) through a new temporary file renamed over it in this folder:
    /// whatever was at `name` (a symlink too) is replaced, never written through.
    pub fn write_with(
        &self,
        name: &str,
        render: &mut dyn FnMut(&mut File) -> io::Result<()>,
    ) -> io::Result<()> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let temp = format!(
            ".{name}.{}-{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut file = self.create_file(&temp)?;
        let written = render(&mut file)
            .and_then(|()| file.sync_all())
            .and_then(|()| self.rename(&temp, name));
        if written.is_err() {
            let _ = self.remove_file(&temp);
        }
        written
    }

    /// [`PrivateDir::write_with`] of `bytes`.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        self.write_with(name, &mut |f| f.write_all(bytes))
    }

    /// Renames `from` to `to`, both in this folder (`to` is replaced).
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        let (from, to) = (c_name(from.as_bytes())?, c_name(to.as_bytes())?);
        // SAFETY: renameat(2) within the folder this value owns, NUL-terminated names.
        let r = unsafe { libc::renameat(self.raw(), from.as_ptr(), self.raw(), to.as_ptr()) };
        check(r)
    }

    /// Renames `from` in this folder to `to` in folder `into` (`to` is replaced).
    pub fn rename_to(&self, from: &str, into: &PrivateDir, to: &str) -> io::Result<()> {
        let (from, to) = (c_name(from.as_bytes())?, c_name(to.as_bytes())?);
        // SAFETY: renameat(2) between folders these values own, NUL-terminated names.
        let r = unsafe { libc::renameat(self.raw(), from.as_ptr(), into.raw(), to.as_ptr()) };
        check(r)
    }

    /// Links `to` to the file `from`, both in this folder; `AlreadyExists` when `to` is
    /// there (an exclusive create of a file already written).
    pub fn hard_link(&self, from: &str, to: &str) -> io::Result<()> {
        let (from, to) = (c_name(from.as_bytes())?, c_name(to.as_bytes())?);
        // SAFETY: linkat(2) within the folder this value owns (no AT_SYMLINK_FOLLOW).
        let r = unsafe { libc::linkat(self.raw(), from.as_ptr(), self.raw(), to.as_ptr(), 0) };
        check(r)
    }

    /// Removes the file (or symlink, not followed) `name` in this folder.
    pub fn remove_file(&self, name: &str) -> io::Result<()> {
        let c = c_name(name.as_bytes())?;
        // SAFETY: unlinkat(2) with a descriptor this value owns and a NUL-terminated name.
        check(unsafe { libc::unlinkat(self.raw(), c.as_ptr(), 0) })
    }

    /// Removes the empty folder `name` in this folder.
    pub fn remove_dir(&self, name: &str) -> io::Result<()> {
        let c = c_name(name.as_bytes())?;
        // SAFETY: unlinkat(2) with a descriptor this value owns and a NUL-terminated name.
        check(unsafe { libc::unlinkat(self.raw(), c.as_ptr(), libc::AT_REMOVEDIR) })
    }

    fn raw(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

/// True when `err` is the refusal of a symlink or non-folder on the way (it carries a
/// [`Failure`] with exit 65).
pub fn is_refusal(err: &io::Error) -> bool {
    err.get_ref()
        .and_then(|inner| inner.downcast_ref::<Failure>())
        .is_some()
}

/// The root `path` is opened from, and the rest below it: `repo` when `path` is inside it
/// (lexically), else the longest part of `path` that exists.
fn split(repo: &Path, path: &Path) -> (PathBuf, PathBuf) {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (repo_abs, path_abs) = (absolute(repo), absolute(path));
    let plain = path_abs
        .components()
        .all(|c| !matches!(c, Component::ParentDir));
    if let (true, Ok(below)) = (plain, path_abs.strip_prefix(&repo_abs)) {
        return (repo.to_path_buf(), below.to_path_buf());
    }
    let mut root = path.to_path_buf();
    let mut below = Vec::new();
    while root.symlink_metadata().is_err() {
        match (root.file_name().map(ToOwned::to_owned), root.parent()) {
            (Some(name), Some(parent)) => {
                below.push(name);
                root = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => break,
        }
    }
    (root, below.iter().rev().collect())
}

/// The folder `name` in `parent` (`path` in messages), never through a link.
fn open_dir_at(parent: RawFd, name: &[u8], path: &Path) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
    open_at(parent, name, flags, 0).map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP | libc::ENOTDIR) => refused(parent, name, path),
        _ => io::Error::new(e.kind(), format!("{}: {e}", path.display())),
    })
}

/// The refusal of `name` in `parent`: says whether it is a symlink or another non-folder.
fn refused(parent: RawFd, name: &[u8], path: &Path) -> io::Error {
    let what = if is_symlink_at(parent, name) {
        "a symlink, not followed"
    } else {
        "not a folder"
    };
    io::Error::other(Failure {
        exit: Exit::DataErr,
        message: format!("{} is {what}: nothing written there", path.display()),
    })
}

fn is_symlink_at(parent: RawFd, name: &[u8]) -> bool {
    let Ok(c) = c_name(name) else { return false };
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstatat(2) with a valid descriptor, a NUL-terminated name and a stat buffer.
    let r = unsafe { libc::fstatat(parent, c.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
    r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFLNK
}

fn mkdir_at(parent: RawFd, name: &[u8]) -> io::Result<()> {
    let c = c_name(name)?;
    // SAFETY: mkdirat(2) with a valid descriptor and a NUL-terminated name.
    check(unsafe { libc::mkdirat(parent, c.as_ptr(), 0o700) })
}

fn open_at(dirfd: RawFd, name: &[u8], flags: i32, mode: libc::mode_t) -> io::Result<OwnedFd> {
    let c = c_name(name)?;
    // SAFETY: openat(2) with a valid descriptor (or AT_FDCWD) and a NUL-terminated name;
    // the returned descriptor is owned by the OwnedFd alone.
    let fd = unsafe { libc::openat(dirfd, c.as_ptr(), flags | libc::O_CLOEXEC, mode) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn check(r: libc::c_int) -> io::Result<()> {
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn c_name(name: &[u8]) -> io::Result<CString> {
    CString::new(name).map_err(|_| io::Error::other("a NUL in a file name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::exit_of;
    use std::os::unix::fs::{symlink, PermissionsExt as _};

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
    }

    /// An outside folder a link points at, and a check that nothing was made in it.
    fn outside() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn is_empty(dir: &Path) -> bool {
        std::fs::read_dir(dir).unwrap().next().is_none()
    }

    #[test]
    fn missing_folders_are_made_private() {
        let repo = tempfile::tempdir().unwrap();
        let dir = PrivateDir::open(repo.path(), Path::new(".qa/mcp")).unwrap();
        assert_eq!(dir.path(), repo.path().join(".qa/mcp"));
        assert_eq!(mode(&repo.path().join(".qa")), 0o700);
        assert_eq!(mode(&repo.path().join(".qa/mcp")), 0o700);
    }

    #[test]
    fn an_existing_folder_is_reused_as_it_is() {
        let repo = tempfile::tempdir().unwrap();
        std::fs::create_dir(repo.path().join(".qa")).unwrap();
        std::fs::write(repo.path().join(".qa/manifest.yaml"), "kept").unwrap();
        std::fs::set_permissions(
            repo.path().join(".qa"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        let dir = PrivateDir::open(repo.path(), Path::new(".qa")).unwrap();
        dir.write("new", b"x").unwrap();
        assert_eq!(
            std::fs::read_to_string(repo.path().join(".qa/manifest.yaml")).unwrap(),
            "kept"
        );
        assert_eq!(mode(&repo.path().join(".qa")), 0o755);
    }

    #[test]
    fn a_symlink_at_each_level_is_refused_with_exit_65_and_nothing_made_behind_it() {
        for (link, below) in [
            (".qa", ".qa/mcp/run"),
            (".qa/mcp", ".qa/mcp/run"),
            (".qa/mcp/run", ".qa/mcp/run"),
        ] {
            let repo = tempfile::tempdir().unwrap();
            let target = outside();
            let at = repo.path().join(link);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            symlink(target.path(), &at).unwrap();
            let err = PrivateDir::open(repo.path(), Path::new(below)).unwrap_err();
            assert!(is_refusal(&err), "{link}: {err}");
            assert_eq!(
                err.to_string(),
                format!(
                    "{} is a symlink, not followed: nothing written there",
                    at.display()
                )
            );
            assert_eq!(exit_of(&anyhow::Error::new(err)), Exit::DataErr);
            assert!(
                is_empty(target.path()),
                "{link}: something was made through the link"
            );
        }
    }

    #[test]
    fn a_file_where_a_folder_is_expected_is_refused() {
        let repo = tempfile::tempdir().unwrap();
        std::fs::write(repo.path().join(".qa"), "a file").unwrap();
        let err = PrivateDir::open(repo.path(), Path::new(".qa/mcp")).unwrap_err();
        assert!(is_refusal(&err));
        assert!(
            err.to_string()
                .ends_with(".qa is not a folder: nothing written there"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(repo.path().join(".qa")).unwrap(),
            "a file"
        );
    }

    #[test]
    fn a_path_climbing_out_of_the_root_is_refused() {
        let repo = tempfile::tempdir().unwrap();
        let err = PrivateDir::open(repo.path(), Path::new("../x")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn a_file_is_written_private_and_a_symlink_at_its_name_is_replaced_not_followed() {
        let repo = tempfile::tempdir().unwrap();
        let target = outside();
        let victim = target.path().join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        let dir = PrivateDir::open(repo.path(), Path::new(".qa/mcp")).unwrap();
        symlink(&victim, repo.path().join(".qa/mcp/.gitignore")).unwrap();
        dir.write(".gitignore", b"*\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        let written = repo.path().join(".qa/mcp/.gitignore");
        assert!(std::fs::symlink_metadata(&written).unwrap().is_file());
        assert_eq!(std::fs::read(&written).unwrap(), b"*\n");
        assert_eq!(mode(&written), 0o600);
        assert_eq!(
            std::fs::read_dir(repo.path().join(".qa/mcp"))
                .unwrap()
                .count(),
            1
        );
    }

    #[test]
    fn a_new_file_or_folder_never_takes_a_name_already_there() {
        let repo = tempfile::tempdir().unwrap();
        let target = outside();
        let dir = PrivateDir::open(repo.path(), Path::new("out")).unwrap();
        symlink(target.path().join("f"), repo.path().join("out/f")).unwrap();
        assert_eq!(
            dir.create_file("f").unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        dir.create_new("run").unwrap();
        assert_eq!(
            dir.create_new("run").unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        assert!(is_empty(target.path()));
        assert!(!dir.holds("f", b""));
    }

    #[test]
    fn a_path_inside_the_repository_is_opened_from_the_repository() {
        let repo = tempfile::tempdir().unwrap();
        let target = outside();
        symlink(target.path(), repo.path().join(".qa")).unwrap();
        let err =
            PrivateDir::create_path(repo.path(), &repo.path().join(".qa/acceptance")).unwrap_err();
        assert!(is_refusal(&err), "{err}");
        assert!(is_empty(target.path()));
        // The control: a folder outside the repository is opened as the person named it,
        // through their own links, and only the missing part is made (and listed).
        let named = outside();
        let link = repo.path().join("named");
        symlink(named.path(), &link).unwrap();
        let (dir, made) =
            PrivateDir::create_path(Path::new("/nonexistent-repo"), &link.join("a/b")).unwrap();
        assert_eq!(made, vec![link.join("a"), link.join("a/b")]);
        dir.write("f", b"x").unwrap();
        assert!(named.path().join("a/b/f").is_file());
    }
}
