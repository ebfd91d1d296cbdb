//! Where the stage binaries are: --bin-dir alone when given, else next to qa-mcp's own
//! executable, else on PATH; all found once, at start.

use qa_records::exit::{failure, Exit};
use std::path::{Path, PathBuf};

/// Every binary a tool may start.
pub const NAMES: [&str; 8] = [
    "qa-diff",
    "qa-intent",
    "qa-route",
    "qa-trace",
    "qa-fetch",
    "qa-check",
    "qa-report",
    "qa-manifest",
];

/// The stage binaries, each an existing file.
#[derive(Debug, Clone)]
pub struct Bins {
    paths: Vec<(&'static str, PathBuf)>,
}

impl Bins {
    /// Finds every binary of [`NAMES`]: in `bin_dir` only when given (a usage error when it
    /// is not a folder), else beside `own_exe`, else on `path` (the PATH value). A binary
    /// found nowhere is exit 66 naming it and where it was looked for.
    pub fn locate(
        bin_dir: Option<&Path>,
        own_exe: Option<&Path>,
        path: Option<&std::ffi::OsStr>,
    ) -> anyhow::Result<Bins> {
        let dirs: Vec<PathBuf> = match bin_dir {
            Some(dir) if !dir.is_dir() => {
                return Err(failure(
                    Exit::Usage,
                    format!("--bin-dir {}: not a folder", dir.display()),
                ))
            }
            Some(dir) => vec![dir.to_path_buf()],
            None => own_exe
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .into_iter()
                .chain(
                    path.map(|p| std::env::split_paths(p).collect::<Vec<_>>())
                        .unwrap_or_default(),
                )
                .collect(),
        };
        let mut paths = Vec::with_capacity(NAMES.len());
        for name in NAMES {
            let found = dirs
                .iter()
                .map(|d| d.join(format!("{name}{}", std::env::consts::EXE_SUFFIX)))
                .find(|p| is_executable(p));
            match found {
                Some(p) => paths.push((name, p)),
                None => {
                    let looked = match bin_dir {
                        Some(dir) => format!("in --bin-dir {}", dir.display()),
                        None => "next to qa-mcp or on PATH".to_string(),
                    };
                    return Err(failure(
                        Exit::NoInput,
                        format!("{name} not found {looked}: install every qapipe binary together"),
                    ));
                }
            }
        }
        Ok(Bins { paths })
    }

    /// The path of `name`, one of [`NAMES`].
    pub fn get(&self, name: &str) -> &Path {
        self.paths
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| p.as_path())
            .expect("every name of NAMES is located at start")
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_bins(dir: &Path) {
        use std::os::unix::fs::PermissionsExt as _;
        for name in NAMES {
            let p = dir.join(name);
            std::fs::write(&p, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    #[test]
    fn binaries_next_to_qa_mcp_come_before_path() {
        let own = tempfile_dir("own");
        let other = tempfile_dir("other");
        fake_bins(&own);
        fake_bins(&other);
        let path = std::env::join_paths([&other]).unwrap();
        let bins = Bins::locate(None, Some(&own.join("qa-mcp")), Some(&path)).unwrap();
        assert_eq!(bins.get("qa-diff"), own.join("qa-diff"));
    }

    #[test]
    fn bin_dir_is_the_only_place_looked_in() {
        let own = tempfile_dir("own2");
        let empty = tempfile_dir("empty");
        fake_bins(&own);
        let err = Bins::locate(Some(&empty), Some(&own.join("qa-mcp")), None).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::NoInput);
        assert!(
            format!("{err:#}").contains("qa-diff not found in --bin-dir"),
            "{err:#}"
        );
    }

    #[test]
    fn a_bin_dir_that_is_not_a_folder_is_a_usage_error() {
        let err = Bins::locate(Some(Path::new("/nonexistent/qa")), None, None).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::Usage);
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qa-mcp-stages-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
