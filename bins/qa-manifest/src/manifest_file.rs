//! The manifest file on disk: where it is, reading it through qa-intent's parser (the one
//! parser of the format), and replacing it, one writer at a time, only with text that
//! parser accepts.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use qa_team_manifest::{self as manifest, Flow, Manifest, Suppression};

use crate::edit::{self, Line, Section};
use crate::lock::{self, Lock};
use qa_records::exit::{failure, Exit};

/// Where the manifest lives: `--manifest FILE`, else `REPO/.qa/manifest.yaml`.
#[derive(Debug, Clone)]
pub struct ManifestFile {
    pub path: PathBuf,
}

/// The manifest as it is now: its bytes as text, and what they mean.
#[derive(Debug, Clone)]
pub struct Current {
    pub text: String,
    pub manifest: Manifest,
}

impl ManifestFile {
    pub fn locate(repo: &Path, manifest: Option<&Path>) -> ManifestFile {
        ManifestFile {
            path: manifest.map_or_else(|| repo.join(".qa/manifest.yaml"), Path::to_path_buf),
        }
    }

    /// How messages name the file (the same name qa-intent's errors use).
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// The current manifest; None when there is no file. It is read as qa-intent reads
    /// it ([`manifest::load`]: a regular file of at most 1 MiB, no symlink, no FIFO); an
    /// invalid one is exit 65 with the parser's one-line error.
    pub fn read(&self) -> anyhow::Result<Option<Current>> {
        let Some(bytes) = manifest::load_bytes(&self.path)? else {
            return Ok(None);
        };
        let manifest = manifest::parse(&bytes, &self.name())?;
        let text = String::from_utf8(bytes).map_err(|_| {
            failure(
                Exit::DataErr,
                format!("manifest {}: not UTF-8", self.name()),
            )
        })?;
        Ok(Some(Current { text, manifest }))
    }

    /// The current manifest, which must exist (validate).
    pub fn read_existing(&self) -> anyhow::Result<Current> {
        self.read()?
            .ok_or_else(|| failure(Exit::NoInput, format!("{}: no such manifest", self.name())))
    }

    /// The manifest held for an edit: its directory locked ([`lock`]), waiting up to
    /// [`lock::WAIT`] for another writer. Read it again through the result: what was read
    /// before the lock may already be stale.
    pub fn edit(&self) -> anyhow::Result<Editing<'_>> {
        let lock = lock::lock(&self.dir(), &self.name())?;
        Ok(Editing {
            file: self,
            _lock: lock,
        })
    }

    /// The folder the manifest is in (where the temp file goes, and what is locked).
    fn dir(&self) -> PathBuf {
        match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }
}

/// The manifest while this process holds the lock: the only way to write it, so two
/// corrections at once cannot lose one another.
#[derive(Debug)]
pub struct Editing<'a> {
    file: &'a ManifestFile,
    _lock: Lock,
}

impl Editing<'_> {
    /// The manifest as it is now, under the lock.
    pub fn read(&self) -> anyhow::Result<Option<Current>> {
        self.file.read()
    }

    /// True when there is a manifest file (or anything else) at the path.
    pub fn exists(&self) -> bool {
        self.file.path.symlink_metadata().is_ok()
    }

    /// Appends `item` to `section` of the current text and writes the result, once the
    /// parser reads it back as exactly `wanted` (flows, suppressions): the old entries
    /// unchanged and the new one as meant.
    pub fn append(
        &self,
        current: &Current,
        section: Section,
        item: &[Line],
        wanted: (&[Flow], &[Suppression]),
    ) -> anyhow::Result<()> {
        let text = edit::append(&current.text, section, item)
            .with_context(|| format!("manifest {}", self.file.name()))?;
        self.write(&text, false, |edited| {
            if (edited.flows.as_slice(), edited.suppressions.as_slice()) == wanted {
                Ok(())
            } else {
                Err(failure(
                    Exit::DataErr,
                    format!(
                        "the item appended to `{}` did not read back as written",
                        section.key()
                    ),
                ))
            }
        })
    }

    /// Replaces the file with `text` (or creates it) once qa-intent's parser accepts it and
    /// `expect` confirms it means what the edit intended. The text goes to a temp file
    /// beside the manifest, renamed over it, so a reader never sees half a file; a refused
    /// edit leaves the file untouched. With `create_new`, an existing file is not replaced.
    pub fn write(
        &self,
        text: &str,
        create_new: bool,
        expect: impl FnOnce(&Manifest) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let file = self.file;
        let parsed = manifest::parse(text.as_bytes(), &file.name())
            .context("the edited manifest would not parse, so the file is left untouched")?;
        expect(&parsed).context(
            "the edited manifest would not mean what was asked, so the file is left untouched",
        )?;
        let dir = file.dir();
        let mut temp = tempfile::Builder::new()
            .prefix(".manifest.")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .with_context(|| format!("creating a temp file in {}", dir.display()))?;
        temp.write_all(text.as_bytes())
            .and_then(|()| temp.as_file().sync_all())
            .with_context(|| format!("writing a temp file in {}", dir.display()))?;
        // Keep the file's mode across the rename; a new manifest is an ordinary file.
        let permissions = match std::fs::metadata(&file.path) {
            Ok(meta) => meta.permissions(),
            Err(_) => ordinary_permissions(temp.as_file())?,
        };
        std::fs::set_permissions(temp.path(), permissions)
            .with_context(|| format!("setting the mode of {}", temp.path().display()))?;
        if create_new {
            temp.persist_noclobber(&file.path).map_err(|e| {
                if e.error.kind() == io::ErrorKind::AlreadyExists {
                    exists(&file.path)
                } else {
                    anyhow::Error::new(e.error).context(format!("writing {}", file.name()))
                }
            })?;
        } else {
            temp.persist(&file.path).map_err(|e| {
                anyhow::Error::new(e.error).context(format!("replacing {}", file.name()))
            })?;
        }
        Ok(())
    }
}

/// init never overwrites a manifest: a reviewed file is the team's, not the tool's.
pub fn exists(path: &Path) -> anyhow::Error {
    failure(
        Exit::Usage,
        format!(
            "{} already exists: init never overwrites a manifest (edit it with accept and reject, or remove it first)",
            path.display()
        ),
    )
}

#[cfg(unix)]
fn ordinary_permissions(_: &std::fs::File) -> anyhow::Result<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt as _;
    // A committed file: readable by all, like the files git checks out.
    Ok(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn ordinary_permissions(file: &std::fs::File) -> anyhow::Result<std::fs::Permissions> {
    Ok(file.metadata()?.permissions())
}
