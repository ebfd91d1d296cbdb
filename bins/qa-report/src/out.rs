//! The report folder (--out): report.json, report.md, report.sarif, the input stream as
//! records.ndjson and SHA256SUMS over them, private to the user and written only inside
//! the folder. The input is saved while it is read, into a temporary file that becomes
//! records.ndjson only when a report is made; otherwise no folder is left behind.

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use qa_records::hash::hex;
use qa_records::private_dir::{self, PrivateDir};
use sha2::{Digest as _, Sha256};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write as _};
use std::os::unix::fs::PermissionsExt as _;
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
    /// That folder, opened without following a link below the repository.
    pub folder: PrivateDir,
    temp: String,
    file: BufWriter<File>,
    hasher: Sha256,
    /// The last byte written: the verdict line needs a line break before it.
    last: Option<u8>,
    /// The folders this run created, outermost first.
    created: Vec<PathBuf>,
    kept: bool,
}

/// A folder that cannot hold a report is a usage error naming it; a symlink or a file on
/// the way below the repository keeps its own exit (65) and line.
pub fn unwritable(dir: &Path, e: anyhow::Error) -> anyhow::Error {
    let refused = e
        .chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(private_dir::is_refusal);
    if refused {
        e
    } else {
        failure(Exit::Usage, format!("--out {}: {e:#}", dir.display()))
    }
}

impl Saved {
    /// Creates `dir` (0700, with parents; below `repo` when inside it, never through a
    /// link) and the temporary file in it. A failure is a usage error naming the folder:
    /// --out points somewhere that cannot hold a report.
    pub fn begin(repo: &Path, dir: &Path) -> anyhow::Result<Saved> {
        let usage = |e: anyhow::Error| unwritable(dir, e);
        let (folder, created) = PrivateDir::create_path(repo, dir)
            .context("creating the folder")
            .map_err(usage)?;
        let temp = format!(".{RECORDS}.{}.tmp", std::process::id());
        let file = match create_private(&folder, &temp) {
            Ok(file) => file,
            Err(e) => {
                remove_created(&created);
                return Err(usage(e));
            }
        };
        Ok(Saved {
            dir: dir.to_path_buf(),
            folder,
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
        self.file.write_all(bytes).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("writing {}: {e}", self.dir.join(&self.temp).display()),
            )
        })
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
    /// run folder inside it, `None` for the folder itself), writes each `(name, render)`
    /// there as it is rendered, one file at a time, and SHA256SUMS over all: those, then
    /// `written`, `(name, sha256)` of files their writer already put in `into` and hashed
    /// (the screenshots, verified as they were copied).
    pub fn keep(
        mut self,
        into: Option<&PrivateDir>,
        files: &[(&str, Render<'_>)],
        written: &[(String, String)],
    ) -> anyhow::Result<()> {
        let into_path = into.map_or_else(|| self.dir.clone(), |d| d.path().to_path_buf());
        let records_sha = hex(&std::mem::take(&mut self.hasher).finalize());
        let folder = &self.folder;
        let into = into.unwrap_or(folder);
        let result = (|| -> anyhow::Result<()> {
            self.file.flush().context("writing the saved stream")?;
            let file = self.file.get_ref();
            file.set_permissions(fs::Permissions::from_mode(0o600))
                .and_then(|()| file.sync_all())
                .context("writing the saved stream")?;
            folder
                .rename_to(&self.temp, into, RECORDS)
                .context("writing records.ndjson")?;
            let mut sums = format!("{records_sha}  {RECORDS}\n");
            for (name, render) in files {
                // A file in a folder of the report (screenshots/): the folder is made
                // private, and a symlink in its place is refused rather than followed.
                let sha = match name.rsplit_once('/') {
                    Some((sub, file)) => {
                        let sub = into.child(sub).with_context(|| format!("writing {name}"))?;
                        sub.restrict().with_context(|| format!("writing {name}"))?;
                        put_with(&sub, file, *render)
                    }
                    None => put_with(into, name, *render),
                }
                .with_context(|| format!("writing {name}"))?;
                sums.push_str(&format!("{sha}  {name}\n"));
            }
            for (name, sha) in written {
                sums.push_str(&format!("{sha}  {name}\n"));
            }
            put_with(into, SUMS, &|w| w.write_all(sums.as_bytes()))
                .with_context(|| format!("writing {SUMS}"))
                .map(|_| ())
        })();
        self.kept = result.is_ok();
        result.map_err(|e| unwritable(&into_path, e))
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
            let _ = self.folder.remove_file(&self.temp);
            remove_created(&self.created);
        }
    }
}

/// Removes the folders a run created, innermost first, each only while empty.
fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
}

/// A new private file (0600) `name` in `dir`; a leftover with the same name (an earlier
/// run with our pid) is removed first, never followed.
fn create_private(dir: &PrivateDir, name: &str) -> anyhow::Result<File> {
    match dir.create_file(name) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            dir.remove_file(name)
                .with_context(|| format!("removing {}", dir.path().join(name).display()))?;
            dir.create_file(name)
        }
        other => other,
    }
    .with_context(|| format!("creating {}", dir.path().join(name).display()))
}

/// Writes `name` in `dir` through a fresh temporary file renamed into place, the bytes
/// written by `render` as they come: an existing symlink at `name` is replaced, never
/// followed, so nothing outside `dir` is written. Returns their SHA-256 (hex).
fn put_with(dir: &PrivateDir, name: &str, render: Render<'_>) -> io::Result<String> {
    let mut hasher = Sha256::new();
    dir.write_with(name, &mut |file| {
        let mut out = Hashing {
            inner: BufWriter::new(file),
            hasher: Sha256::new(),
        };
        render(&mut out)?;
        out.inner.flush()?;
        hasher = out.hasher;
        Ok(())
    })?;
    Ok(hex(&hasher.finalize()))
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
