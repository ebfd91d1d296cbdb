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
use qa_records::private_dir::{self, PrivateDir};
use std::os::unix::fs::PermissionsExt as _;

/// Where the manifest lives: `--manifest FILE`, else `REPO/.qa/manifest.yaml`.
#[derive(Debug, Clone)]
pub struct ManifestFile {
    pub path: PathBuf,
    /// The repository: below it no symlink is followed to reach the manifest's folder.
    repo: PathBuf,
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
            repo: repo.to_path_buf(),
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
        let folder = self.folder()?;
        let lock = lock::lock(&folder, &self.name())?;
        Ok(Editing {
            file: self,
            folder,
            _lock: lock,
        })
    }

    /// The manifest's folder, made when missing; inside the repository no symlink on the
    /// way is followed (a committed `.qa -> /elsewhere` is exit 65, nothing written),
    /// while a `--manifest` outside it is reached as the person named it.
    fn folder(&self) -> anyhow::Result<PrivateDir> {
        let dir = self.dir();
        PrivateDir::create_path(&self.repo, &dir)
            .map(|(folder, _)| folder)
            .map_err(|e| {
                if private_dir::is_refusal(&e) {
                    failure(Exit::DataErr, format!("manifest {}: {e}", self.name()))
                } else {
                    anyhow::Error::new(e).context(format!("opening {}", dir.display()))
                }
            })
    }

    /// The manifest's file name in its folder.
    fn file_name(&self) -> anyhow::Result<&str> {
        self.path
            .file_name()
            .and_then(|n| n.to_str())
            .with_context(|| format!("{}: not a file name qa-manifest can write", self.name()))
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
    /// The manifest's folder, opened once: every write is relative to it.
    folder: PrivateDir,
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
        let name = file.file_name()?;
        let folder = &self.folder;
        let shown = folder.path().display().to_string();
        // Keep the file's mode across the rename; a new manifest is an ordinary file.
        let mode = match folder.open_file(name) {
            Ok(current) => current.metadata()?.permissions(),
            // A committed file: readable by all, like the files git checks out.
            Err(_) => std::fs::Permissions::from_mode(0o644),
        };
        let mut render = |f: &mut std::fs::File| {
            f.write_all(text.as_bytes())?;
            f.set_permissions(mode.clone())
        };
        if create_new {
            // Written aside, then linked to its name: linkat(2) never replaces a file.
            let temp = format!(".{name}.{}.tmp", std::process::id());
            let written = folder
                .create_file(&temp)
                .and_then(|mut f| render(&mut f).and_then(|()| f.sync_all()))
                .and_then(|()| folder.hard_link(&temp, name));
            let _ = folder.remove_file(&temp);
            written.map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    exists(&file.path)
                } else {
                    anyhow::Error::new(e).context(format!("writing {}", file.name()))
                }
            })?;
        } else {
            folder
                .write_with(name, &mut render)
                .with_context(|| format!("replacing {} (in {shown})", file.name()))?;
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
