//! Content manifests of file and directory targets: a bounded, fail-closed walk under the
//! repository root, each file stream-hashed on two cores, and the manifest's own hash.

use crate::exclusion;
use crate::root;
use qa_records::acceptance::{Entry, Excluded};
use qa_records::{canonical, hash, Exit};
use sha2::{Digest, Sha256};
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

/// At most this many bytes per file.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// At most this many bytes in all the files of one target.
pub const MAX_TOTAL_BYTES: u64 = 32 << 20;
/// At most this many files in one target.
pub const MAX_ENTRIES: usize = 10_000;
/// At most this many directories walked in one target: empty folders cost no entries, so
/// they get their own bound.
pub const MAX_DIRECTORIES: usize = 10_000;

/// Files are read in chunks this big: no file is ever held whole in memory.
const CHUNK: usize = 64 * 1024;
/// Hashing threads: the documented "both cores".
const WORKERS: usize = 2;

/// A target's captured content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// Every captured file, sorted by path.
    pub entries: Vec<Entry>,
    /// What was left out, sorted by path.
    pub excluded: Vec<Excluded>,
    /// SHA-256 of the canonical JSON of `entries`.
    pub sha256: String,
}

/// Why a capture did not produce a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The target cannot be captured (limit, symlink, special file, missing): the reason.
    Failed(String),
    /// SIGINT or SIGTERM arrived: the stage must stop with this exit.
    Cancelled(Exit),
}

impl From<String> for Stop {
    fn from(reason: String) -> Stop {
        Stop::Failed(reason)
    }
}

/// The manifest of a file target: one entry named after the file.
pub fn of_file(repo: &Path, value: &str) -> Result<Manifest, Stop> {
    refuse_excluded(value)?;
    let found = root::resolve(repo, value)?;
    let name = root::components(value)?
        .last()
        .map(|s| s.to_string())
        .ok_or_else(|| format!("{value} is the repository root, not a file"))?;
    if found.metadata.is_dir() {
        return Err(Stop::Failed(format!(
            "{value} is a directory: the target kind is file"
        )));
    }
    refuse_special(value, found.metadata.file_type())?;
    check_file_size(value, found.metadata.len())?;
    let file = Found {
        rel: name,
        shown: value.to_string(),
        identity: Identity::of(&found.metadata),
        path: found.path,
    };
    let ((), entries) = hash_with(|queue| {
        queue.push(file);
        Ok(())
    })?;
    Ok(Manifest::new(entries, Vec::new()))
}

/// The manifest of a directory target: every file under it, but the excluded names.
pub fn of_directory(repo: &Path, value: &str) -> Result<Manifest, Stop> {
    refuse_excluded(value)?;
    let found = root::resolve(repo, value)?;
    if !found.metadata.is_dir() {
        refuse_special(value, found.metadata.file_type())?;
        return Err(Stop::Failed(format!(
            "{value} is a file: the target kind is directory"
        )));
    }
    let prefix = root::components(value)?.join("/");
    // Hashing starts while the walk goes on: the walk is the serial part of a capture.
    let (excluded, entries) = hash_with(|queue| walk(found.path, &prefix, queue))?;
    Ok(Manifest::new(entries, excluded))
}

impl Manifest {
    fn new(mut entries: Vec<Entry>, mut excluded: Vec<Excluded>) -> Manifest {
        entries.sort();
        excluded.sort();
        let sha256 = manifest_hash(&entries);
        Manifest {
            entries,
            excluded,
            sha256,
        }
    }
}

/// SHA-256 of the canonical JSON of the entries array: what `target.data.sha256` holds.
pub fn manifest_hash(entries: &[Entry]) -> String {
    let value = serde_json::to_value(entries).expect("entries serialize");
    hash::sha256_hex(&canonical::to_vec(&value).expect("entries hold no floats"))
}

/// A target path that is itself excluded (or inside an excluded folder) is never evidence.
fn refuse_excluded(value: &str) -> Result<(), Stop> {
    for part in root::components(value)? {
        if let Some(reason) = exclusion::of(part) {
            return Err(Stop::Failed(format!(
                "{value} is excluded ({})",
                reason.as_str()
            )));
        }
    }
    Ok(())
}

/// Symlinks and special files fail closed: a FIFO would block, a device never ends.
fn refuse_special(shown: &str, file_type: std::fs::FileType) -> Result<(), Stop> {
    let kind = special_kind(file_type);
    match kind {
        None => Ok(()),
        Some(kind) => Err(Stop::Failed(format!(
            "{shown} is a {kind}: not followed or read"
        ))),
    }
}

/// What a non-regular, non-directory file is, or None for those two.
fn special_kind(ft: std::fs::FileType) -> Option<&'static str> {
    if ft.is_dir() {
        None
    } else if ft.is_symlink() {
        Some("symlink")
    } else {
        qa_records::regular_file::special_kind(ft)
    }
}

fn check_file_size(shown: &str, size: u64) -> Result<(), Stop> {
    if size > MAX_FILE_BYTES {
        return Err(Stop::Failed(format!(
            "{shown} has {size} bytes, over the 4 MiB per-file limit"
        )));
    }
    Ok(())
}

fn cancelled() -> Result<(), Stop> {
    match qa_records::cancel::requested() {
        Some(exit) => Err(Stop::Cancelled(exit)),
        None => Ok(()),
    }
}

/// The file a walk saw (its inode, which the directory listing gives without a stat), so
/// a file swapped between walk and read is noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    inode: u64,
}

impl Identity {
    #[cfg(unix)]
    fn of_entry(entry: &std::fs::DirEntry) -> Identity {
        use std::os::unix::fs::DirEntryExt;
        Identity { inode: entry.ino() }
    }

    #[cfg(unix)]
    fn of(metadata: &Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            inode: metadata.ino(),
        }
    }

    #[cfg(not(unix))]
    fn of_entry(_: &std::fs::DirEntry) -> Identity {
        Identity { inode: 0 }
    }

    #[cfg(not(unix))]
    fn of(_: &Metadata) -> Identity {
        Identity { inode: 0 }
    }
}

/// A regular file to hash.
#[derive(Debug, Clone)]
struct Found {
    /// Path relative to the target, `/`-separated: the manifest entry's path.
    rel: String,
    /// Repository-relative path, for reasons.
    shown: String,
    path: PathBuf,
    identity: Identity,
}

/// Files the walk found, handed to the hashing workers as they are found.
#[derive(Default)]
struct Queue {
    state: Mutex<Queued>,
    ready: Condvar,
}

#[derive(Default)]
struct Queued {
    files: Vec<Found>,
    next: usize,
    closed: bool,
}

impl Queue {
    fn push(&self, file: Found) {
        self.lock().files.push(file);
        self.ready.notify_one();
    }

    /// No more files: workers finish what is queued and stop.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// The next file and its position, waiting while the walk goes on.
    fn take(&self) -> Option<(usize, Found)> {
        let mut state = self.lock();
        loop {
            if state.next < state.files.len() {
                let i = state.next;
                state.next += 1;
                return Some((i, state.files[i].clone()));
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn joined(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

/// Walks `dir` depth first in name order with an explicit stack (deep trees cannot
/// overflow the call stack), stopping at the first symlink, special file or limit.
fn walk(dir: PathBuf, prefix: &str, queue: &Queue) -> Result<Vec<Excluded>, Stop> {
    let mut excluded = Vec::new();
    let mut found = 0usize;
    let mut directories = 0usize;
    let mut stack = vec![(dir, String::new())];
    while let Some((path, rel)) = stack.pop() {
        cancelled()?;
        directories += 1;
        let shown_dir = joined(prefix, &rel);
        if directories > MAX_DIRECTORIES {
            return Err(Stop::Failed(format!(
                "{shown_dir}: over the {MAX_DIRECTORIES}-directory limit"
            )));
        }
        let mut children = Vec::new();
        let read = std::fs::read_dir(&path).map_err(|e| format!("{shown_dir}: {e}"))?;
        for entry in read {
            let entry = entry.map_err(|e| format!("{shown_dir}: {e}"))?;
            let name = entry.file_name().into_string().map_err(|name| {
                format!(
                    "{}: a file name that is not UTF-8",
                    joined(&shown_dir, &name.to_string_lossy())
                )
            })?;
            // The listing's own file type: no stat per entry (a symlink is reported as
            // a symlink, never as what it points at).
            let file_type = entry.file_type().map_err(|e| format!("{shown_dir}: {e}"))?;
            children.push((name, entry.path(), file_type, Identity::of_entry(&entry)));
        }
        children.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut subdirectories = Vec::new();
        for (name, child, file_type, identity) in children {
            let child_rel = joined(&rel, &name);
            if let Some(reason) = exclusion::of(&name) {
                excluded.push(Excluded {
                    path: child_rel,
                    reason: reason.as_str().to_string(),
                });
                continue;
            }
            let shown = joined(prefix, &child_rel);
            if file_type.is_dir() {
                subdirectories.push((child, child_rel));
                continue;
            }
            refuse_special(&shown, file_type)?;
            // Sizes and the 32 MiB total are checked as files are hashed (one open and
            // one fstat per file, no stat here).
            if found == MAX_ENTRIES {
                return Err(Stop::Failed(format!(
                    "{shown}: over the {MAX_ENTRIES}-entry limit"
                )));
            }
            found += 1;
            queue.push(Found {
                rel: child_rel,
                shown,
                identity,
                path: child,
            });
        }
        stack.extend(subdirectories.into_iter().rev());
    }
    Ok(excluded)
}

/// Runs `produce` (which queues the files: the walk, or one file) while [`WORKERS`]
/// threads hash what it queues. Entries come back in queue order. The producer's own
/// failure wins (the walk stops at its first symlink or limit, in walk order); then a
/// read failure, the first by position, so the reason does not depend on thread timing.
fn hash_with<T>(produce: impl FnOnce(&Queue) -> Result<T, Stop>) -> Result<(T, Vec<Entry>), Stop> {
    let queue = Queue::default();
    let stop = AtomicBool::new(false);
    let mut interrupted = None;
    let mut done: Vec<(usize, Result<Entry, String>)> = Vec::new();
    let produced = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                scope.spawn(|| {
                    let mut buf = vec![0u8; CHUNK];
                    let mut done = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        if let Some(exit) = qa_records::cancel::requested() {
                            stop.store(true, Ordering::Relaxed);
                            return (done, Some(exit));
                        }
                        let Some((i, file)) = queue.take() else { break };
                        done.push((i, hash_file(&file, &mut buf)));
                    }
                    (done, None)
                })
            })
            .collect();
        let produced = produce(&queue);
        if produced.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        queue.close();
        for worker in workers {
            let (mut hashed, exit) = worker.join().expect("a hashing thread panicked");
            interrupted = interrupted.or(exit);
            done.append(&mut hashed);
        }
        produced
    });
    let produced = produced?;
    if let Some(exit) = interrupted {
        return Err(Stop::Cancelled(exit));
    }
    let files = std::mem::take(&mut queue.lock().files);
    let mut results: Vec<Option<Result<Entry, String>>> = Vec::with_capacity(files.len());
    results.resize_with(files.len(), || None);
    for (i, result) in done {
        results[i] = Some(result);
    }
    let mut entries = Vec::with_capacity(files.len());
    let mut total: u64 = 0;
    for (file, result) in files.iter().zip(results) {
        let entry = result.expect("every queued file was hashed")?;
        total += entry.size;
        if total > MAX_TOTAL_BYTES {
            return Err(Stop::Failed(format!(
                "{}: the target passes the 32 MiB total limit there",
                file.shown
            )));
        }
        entries.push(entry);
    }
    Ok((produced, entries))
}

/// Streams one file through SHA-256, refusing it if it is no longer the regular file the
/// walk saw or grows past the per-file limit.
fn hash_file(file: &Found, buf: &mut [u8]) -> Result<Entry, String> {
    let shown = &file.shown;
    let mut handle = open_without_waiting(&file.path).map_err(|e| format!("{shown}: {e}"))?;
    let metadata = handle.metadata().map_err(|e| format!("{shown}: {e}"))?;
    if !metadata.is_file() || Identity::of(&metadata) != file.identity {
        return Err(format!("{shown} changed while it was being captured"));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{shown} has {} bytes, over the 4 MiB per-file limit",
            metadata.len()
        ));
    }
    let mut hasher = Sha256::new();
    let mut size: u64 = 0;
    loop {
        let n = match handle.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{shown}: {e}")),
        };
        size += n as u64;
        if size > MAX_FILE_BYTES {
            return Err(format!(
                "{shown} has over {MAX_FILE_BYTES} bytes, over the 4 MiB per-file limit"
            ));
        }
        hasher.update(&buf[..n]);
    }
    Ok(Entry {
        path: file.rel.clone(),
        size,
        sha256: hash::hex(&hasher.finalize()),
    })
}

/// Opens `path` for reading without waiting: a FIFO put in a regular file's place after it
/// was looked at would block `open` until a writer came (O_NONBLOCK; reads of a regular
/// file are the same with it). The caller checks what it opened.
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// Streams a whole file through SHA-256 (plan and source files: no size limit, but never
/// a special file, which could block). What is checked is what was opened.
pub fn hash_regular_file(path: &Path, shown: &str) -> Result<String, String> {
    let mut handle = open_without_waiting(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("{shown} not found")
        } else {
            format!("{shown}: {e}")
        }
    })?;
    let metadata = handle.metadata().map_err(|e| format!("{shown}: {e}"))?;
    if let Some(kind) =
        special_kind(metadata.file_type()).or(metadata.is_dir().then_some("directory"))
    {
        return Err(format!("{shown} is a {kind}, not a file"));
    }
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        match handle.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{shown}: {e}")),
        }
    }
    Ok(hash::hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, content) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, content).unwrap();
        }
        dir
    }

    fn failed(result: Result<Manifest, Stop>) -> String {
        match result {
            Err(Stop::Failed(reason)) => reason,
            other => panic!("expected a failed capture, got {other:?}"),
        }
    }

    #[test]
    fn entries_are_sorted_by_full_path_with_sizes_and_hashes() {
        let dir = tree(&[
            ("site/a/b.txt", "b"),
            ("site/a-c.txt", "ac"),
            ("site/z.txt", ""),
        ]);
        let m = of_directory(dir.path(), "site").unwrap();
        let paths: Vec<&str> = m.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, vec!["a-c.txt", "a/b.txt", "z.txt"]);
        assert_eq!(m.entries[0].size, 2);
        assert_eq!(m.entries[0].sha256, hash::sha256_hex(b"ac"));
    }

    #[test]
    fn the_manifest_hash_is_the_sha256_of_the_canonical_entries() {
        let dir = tree(&[("site/index.html", "hi")]);
        let m = of_directory(dir.path(), "site").unwrap();
        let canonical = format!(
            r#"[{{"path":"index.html","sha256":"{}","size":2}}]"#,
            hash::sha256_hex(b"hi")
        );
        assert_eq!(m.sha256, hash::sha256_hex(canonical.as_bytes()));
    }

    #[test]
    fn a_file_target_has_one_entry_named_after_the_file() {
        let dir = tree(&[("docs/page.html", "<p>")]);
        let m = of_file(dir.path(), "docs/page.html").unwrap();
        assert_eq!(m.entries.len(), 1);
        assert_eq!(m.entries[0].path, "page.html");
    }

    #[test]
    fn the_kind_must_match_what_is_on_disk() {
        let dir = tree(&[("site/index.html", "x")]);
        assert!(failed(of_file(dir.path(), "site")).contains("is a directory"));
        assert!(failed(of_directory(dir.path(), "site/index.html")).contains("is a file"));
    }

    #[test]
    fn a_file_exactly_at_the_per_file_limit_is_captured() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("site")).unwrap();
        fs::write(
            dir.path().join("site/big"),
            vec![0u8; MAX_FILE_BYTES as usize],
        )
        .unwrap();
        assert!(of_directory(dir.path(), "site").is_ok());
    }

    #[test]
    fn an_empty_directory_gives_an_empty_manifest() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("site")).unwrap();
        let m = of_directory(dir.path(), "site").unwrap();
        assert!(m.entries.is_empty());
        assert_eq!(m.sha256, hash::sha256_hex(b"[]"));
    }

    #[test]
    fn the_directory_limit_stops_a_tree_of_empty_folders() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..MAX_DIRECTORIES {
            fs::create_dir_all(dir.path().join(format!("site/d{i}"))).unwrap();
        }
        let reason = failed(of_directory(dir.path(), "site"));
        assert!(reason.contains("10000-directory limit"), "{reason}");
    }

    #[test]
    fn a_target_inside_an_excluded_folder_is_refused() {
        let dir = tree(&[("node_modules/pkg/index.js", "x")]);
        let reason = failed(of_directory(dir.path(), "node_modules/pkg"));
        assert_eq!(
            reason,
            "node_modules/pkg is excluded (installed dependencies)"
        );
    }

    #[test]
    fn a_regular_file_hashes_whole_and_a_directory_is_refused() {
        let dir = tree(&[("docs/spec.md", "spec")]);
        let path = dir.path().join("docs/spec.md");
        assert_eq!(
            hash_regular_file(&path, "docs/spec.md").unwrap(),
            hash::sha256_hex(b"spec")
        );
        let err = hash_regular_file(&dir.path().join("docs"), "docs").unwrap_err();
        assert_eq!(err, "docs is a directory, not a file");
    }

    #[test]
    fn a_fifo_without_a_writer_is_refused_without_waiting_for_one() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("plan.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Opened first, then checked: a FIFO put in place after a look is never waited on.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(hash_regular_file(&fifo, "plan.json")));
        let hashed = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("opening the FIFO waited for a writer");
        assert_eq!(hashed.unwrap_err(), "plan.json is a FIFO, not a file");
    }
}
