//! Finding a runner on PATH: looked up as an executable file, never started.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The directories of a PATH value, and the answers already looked up (every scenario
/// asks about the same few runners).
#[derive(Debug, Clone)]
pub struct SearchPath {
    dirs: Vec<PathBuf>,
    known: RefCell<HashMap<String, bool>>,
}

impl SearchPath {
    /// The directories of `path` (a PATH value). Empty and relative entries are dropped:
    /// they name the current directory, which is not where an installed runner lives.
    pub fn new(path: &OsStr) -> SearchPath {
        SearchPath {
            dirs: std::env::split_paths(path)
                .filter(|dir| dir.is_absolute())
                .collect(),
            known: RefCell::new(HashMap::new()),
        }
    }

    /// The process's own PATH.
    pub fn from_env() -> SearchPath {
        SearchPath::new(&std::env::var_os("PATH").unwrap_or_default())
    }

    /// True when an executable file named `program` is in one of the directories.
    pub fn has(&self, program: &str) -> bool {
        if let Some(&known) = self.known.borrow().get(program) {
            return known;
        }
        let found = !program.contains('/')
            && self
                .dirs
                .iter()
                .any(|dir| is_executable(&dir.join(program)));
        self.known.borrow_mut().insert(program.to_string(), found);
        found
    }
}

/// True for a regular file (after symlinks) with an execute bit.
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, mode: u32) {
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 99\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        #[cfg(not(unix))]
        let _ = mode;
    }

    #[test]
    fn an_executable_file_in_a_path_directory_is_found() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "pytest", 0o755);
        let path =
            std::env::join_paths(["/nonexistent-qa-route", dir.path().to_str().unwrap()]).unwrap();
        assert!(SearchPath::new(&path).has("pytest"));
        assert!(!SearchPath::new(&path).has("cargo"));
    }

    #[cfg(unix)]
    #[test]
    fn a_file_without_an_execute_bit_is_not_a_runner() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "pytest", 0o644);
        assert!(!SearchPath::new(dir.path().as_os_str()).has("pytest"));
    }

    #[test]
    fn a_directory_named_like_the_runner_is_not_a_runner() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("go")).unwrap();
        assert!(!SearchPath::new(dir.path().as_os_str()).has("go"));
    }

    #[test]
    fn relative_path_entries_are_ignored() {
        let kept = SearchPath::new(OsStr::new(".:bin::/usr/bin"));
        assert_eq!(kept.dirs, [PathBuf::from("/usr/bin")]);
    }
}
