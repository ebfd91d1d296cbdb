//! The report folder (--out): report.json, report.md, report.sarif, the input stream as
//! records.ndjson and SHA256SUMS over them, private to the user and written only inside
//! the folder. The input is saved while it is read, into a temporary file that becomes
//! records.ndjson only when a report is made; otherwise no folder is left behind.

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use qa_records::hash::hex;
use sha2::{Digest as _, Sha256};
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, BufWriter, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

/// The checksum file's name; it lists every other file.
pub const SUMS: &str = "SHA256SUMS";

/// Writes one report file's bytes as they are rendered.
pub type Render<'a> = &'a dyn Fn(&mut dyn io::Write) -> io::Result<()>;

/// The name records.ndjson has in a report folder.
pub const RECORDS: &str = "records.ndjson";

/// The input stream being saved for a report folder: a private temporary file in the
/// folder (or, for acceptance runs, in the folder run folders go in), hashed as written.
/// Dropped without [`Saved::keep`], it removes the file and every folder it created.
pub struct Saved {
    /// Where the report files go (or run folders, for an acceptance run).
    pub dir: PathBuf,
    temp: PathBuf,
    file: BufWriter<File>,
    hasher: Sha256,
    /// The last byte written: the verdict line needs a line break before it.
    last: Option<u8>,
    /// The folders this run created, outermost first.
    created: Vec<PathBuf>,
    kept: bool,
}

impl Saved {
    /// Creates `dir` (0700, with parents) and the temporary file in it. A failure is a
    /// usage error naming the folder: --out points somewhere that cannot hold a report.
    pub fn begin(dir: &Path) -> anyhow::Result<Saved> {
        let usage =
            |e: anyhow::Error| failure(Exit::Usage, format!("--out {}: {e:#}", dir.display()));
        let created = create_dirs(dir).map_err(usage)?;
        let temp = dir.join(format!(".{RECORDS}.{}.tmp", std::process::id()));
        let file = match create_private(&temp) {
            Ok(file) => file,
            Err(e) => {
                remove_created(&created);
                return Err(usage(e));
            }
        };
        Ok(Saved {
            dir: dir.to_path_buf(),
            temp,
            file: BufWriter::new(file),
            hasher: Sha256::new(),
            last: None,
            created,
            kept: false,
        })
    }

    /// Appends `bytes`; a failure names the temporary file.
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.hasher.update(bytes);
        self.last = bytes.last().copied();
        self.file
            .write_all(bytes)
            .map_err(|e| io::Error::new(e.kind(), format!("writing {}: {e}", self.temp.display())))
    }

    /// Appends `line` on a line of its own.
    pub fn append_line(&mut self, line: &[u8]) -> anyhow::Result<()> {
        if self.last.is_some_and(|b| b != b'\n') {
            self.append(b"\n")?;
        }
        self.append(line)?;
        self.append(b"\n")?;
        Ok(())
    }

    /// Puts the saved stream in place as `into/records.ndjson` (`into` is the folder or a
    /// run folder inside it), writes each `(name, render)` there as it is rendered, one
    /// file at a time, and SHA256SUMS over all.
    pub fn keep(mut self, into: &Path, files: &[(&str, Render<'_>)]) -> anyhow::Result<()> {
        let usage =
            |e: anyhow::Error| failure(Exit::Usage, format!("--out {}: {e:#}", into.display()));
        let records_sha = hex(&std::mem::take(&mut self.hasher).finalize());
        (|| -> anyhow::Result<()> {
            self.file.flush().context("writing the saved stream")?;
            let file = self.file.get_ref();
            file.set_permissions(fs::Permissions::from_mode(0o600))
                .and_then(|()| file.sync_all())
                .context("writing the saved stream")?;
            fs::rename(&self.temp, into.join(RECORDS)).context("writing records.ndjson")?;
            self.kept = true;
            let mut sums = format!("{records_sha}  {RECORDS}\n");
            for (name, render) in files {
                // A file in a folder of the report (screenshots/): the folder is made
                // private, and a symlink in its place is refused rather than followed.
                if let Some((folder, _)) = name.rsplit_once('/') {
                    private_folder(&into.join(folder))?;
                }
                let sha = put_with(into, name, *render)?;
                sums.push_str(&format!("{sha}  {name}\n"));
            }
            put(into, SUMS, sums.as_bytes())
        })()
        .map_err(usage)
    }
}

/// The stream is saved as it is read: every byte, in order.
impl io::Write for Saved {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.append(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Saved {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(&self.temp);
            remove_created(&self.created);
        }
    }
}

/// Creates `dir` and its missing parents (0700); returns those it created, outermost first.
fn create_dirs(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(path) = at {
        if path.as_os_str().is_empty() || fs::symlink_metadata(path).is_ok() {
            break;
        }
        missing.push(path.to_path_buf());
        at = path.parent();
    }
    missing.reverse();
    DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .context("creating the folder")?;
    Ok(missing)
}

/// `dir` as a private folder of the report: created (0700), or already a real folder.
fn private_folder(dir: &Path) -> anyhow::Result<()> {
    match DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let meta = fs::symlink_metadata(dir).context("reading the folder")?;
            anyhow::ensure!(
                meta.is_dir(),
                "{} is not a folder (a symlink is never followed)",
                dir.display()
            );
            Ok(())
        }
        Err(e) => Err(e).with_context(|| format!("creating {}", dir.display())),
    }
}

/// Removes the folders a run created, innermost first, each only while empty.
fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
}

/// A new private file (0600) at `path`; a leftover with the same name (an earlier run with
/// our pid) is removed first, never followed.
fn create_private(path: &Path) -> anyhow::Result<File> {
    let open = || {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
    };
    match open() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
            open()
        }
        other => other,
    }
    .with_context(|| format!("creating {}", path.display()))
}

/// Writes `dir/name` through a fresh temporary file renamed into place: an existing
/// symlink at `name` is replaced, never followed, so nothing outside `dir` is written.
fn put(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    put_with(dir, name, &|w| w.write_all(bytes)).map(|_| ())
}

/// [`put`], the bytes written by `render` as they come; returns their SHA-256 (hex).
fn put_with(dir: &Path, name: &str, render: Render<'_>) -> anyhow::Result<String> {
    let target = dir.join(name);
    let (folder, file) = name.rsplit_once('/').unwrap_or(("", name));
    let temp = dir
        .join(folder)
        .join(format!(".{file}.{}.tmp", std::process::id()));
    let file = create_private(&temp)?;
    let mut out = Hashing {
        inner: BufWriter::new(file),
        hasher: Sha256::new(),
    };
    let written = render(&mut out)
        .and_then(|()| out.inner.flush())
        .and_then(|()| {
            let file = out.inner.get_ref();
            file.set_permissions(fs::Permissions::from_mode(0o600))
                .and_then(|()| file.sync_all())
                .and_then(|()| fs::rename(&temp, &target))
        });
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(anyhow::Error::new(e).context(format!("writing {name}")));
    }
    Ok(hex(&out.hasher.finalize()))
}

/// A writer that hashes what it writes.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
}

impl<W: io::Write> io::Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
