//! The report folder (--out): report.json, report.md, report.sarif, the input stream as
//! records.ndjson and SHA256SUMS over them, private to the user and written only inside
//! the folder.

use anyhow::Context as _;
use qa_shared::exit::{failure, Exit};
use qa_shared::hash::sha256_hex;
use std::fs::{self, DirBuilder, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;

/// The checksum file's name; it lists every other file.
pub const SUMS: &str = "SHA256SUMS";

/// Creates `dir` (0700, with parents) and writes each `(name, bytes)` and SHA256SUMS in
/// it, each 0600. A failure is a usage error naming the folder: --out points somewhere
/// that cannot hold a report.
pub fn write(dir: &Path, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
    write_all(dir, files)
        .map_err(|e| failure(Exit::Usage, format!("--out {}: {e:#}", dir.display())))
}

fn write_all(dir: &Path, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .context("creating the folder")?;
    let mut sums = String::new();
    for (name, bytes) in files {
        put(dir, name, bytes)?;
        sums.push_str(&format!("{}  {name}\n", sha256_hex(bytes)));
    }
    put(dir, SUMS, sums.as_bytes())
}

/// Writes `dir/name` through a fresh temporary file renamed into place: an existing
/// symlink at `name` is replaced, never followed, so nothing outside `dir` is written.
fn put(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let target = dir.join(name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let open = || {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)
    };
    let mut file = match open() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            // A leftover of an earlier run with our pid: remove the entry, not its target.
            fs::remove_file(&temp).with_context(|| format!("removing {}", temp.display()))?;
            open()
        }
        other => other,
    }
    .with_context(|| format!("creating {}", temp.display()))?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.set_permissions(fs::Permissions::from_mode(0o600)))
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&temp, &target));
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(anyhow::Error::new(e).context(format!("writing {name}")));
    }
    Ok(())
}
