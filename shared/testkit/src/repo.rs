//! `Repo`: a git repository in a temp dir, under a private HOME, a fixed identity and a
//! fixed, advancing clock. `init`, `add -A`, `commit` and `checkout -b` go through libgit2
//! in the test's own process, giving what the git CLI gives (tests below hold the two side
//! by side; the CLI takes over where libgit2 declines, as during a merge): a git process
//! is several milliseconds of CPU, and the suite built ~8,000 of them (bench/README.md,
//! issue 28). Everything else is the git CLI.

use crate::run::{Invocation, Program, ToolStubs};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A git repository in a temp dir, with a fixed identity and clock.
pub struct Repo {
    /// Holds the repository (`repo/`) and files beside it.
    dir: tempfile::TempDir,
    root: PathBuf,
    /// A private HOME, so the machine's ~/.gitconfig cannot change results.
    home: tempfile::TempDir,
    tick: u32,
}

impl Default for Repo {
    fn default() -> Repo {
        Repo::new()
    }
}

impl Repo {
    /// `git init` with `main` as the first branch.
    pub fn new() -> Repo {
        let repo = Repo::empty();
        if repo.init_in_process().is_err() {
            repo.git(&["init", "-q", "-b", "main"]);
        }
        repo.never_sign();
        repo
    }

    /// `git init -q -b main` through libgit2: the same .git/config and HEAD (a test holds
    /// them beside the CLI's), no git process.
    fn init_in_process(&self) -> Result<(), git2::Error> {
        let mut options = git2::RepositoryInitOptions::new();
        options.initial_head("main").external_template(false);
        git2::Repository::init_opts(self.path(), &options).map(drop)
    }

    /// `git config commit.gpgsign false`, written into .git/config without a git process
    /// (the suite builds thousands of repositories; each process is ~2 ms of CPU).
    fn never_sign(&self) {
        use std::io::Write as _;
        std::fs::OpenOptions::new()
            .append(true)
            .open(self.path().join(".git/config"))
            .and_then(|mut config| config.write_all(b"[commit]\n\tgpgsign = false\n"))
            .expect("writing .git/config");
    }

    /// The commit HEAD names, read from .git/HEAD and its loose ref as `git rev-parse HEAD`
    /// would answer, without a process; `git rev-parse` when the ref is not a loose file.
    fn head(&self) -> String {
        let git = self.path().join(".git");
        let head = std::fs::read_to_string(git.join("HEAD")).expect("reading .git/HEAD");
        let id = match head.trim().strip_prefix("ref: ") {
            Some(reference) => std::fs::read_to_string(git.join(reference)).unwrap_or_default(),
            None => head,
        };
        let id = id.trim();
        if id.len() >= 40 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
            id.to_string()
        } else {
            self.rev("HEAD")
        }
    }

    /// The temp dirs, without running git.
    fn empty() -> Repo {
        let dir = tempfile::tempdir().expect("creating a temp dir");
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).expect("creating the repository dir");
        Repo {
            dir,
            root,
            home: tempfile::tempdir().expect("creating a temp HOME"),
            tick: 0,
        }
    }

    /// The repository's working tree.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The directory holding the repository: a neutral working directory, and the place
    /// `write_outside` writes to.
    pub fn outside(&self) -> &Path {
        self.dir.path()
    }

    /// The private HOME used for git and for the binaries run here.
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    fn command(&self, dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(dir)
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Tester")
            .env("GIT_AUTHOR_EMAIL", "tester@example.com")
            .env("GIT_COMMITTER_NAME", "Tester")
            .env("GIT_COMMITTER_EMAIL", "tester@example.com")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        cmd
    }

    /// Runs git in the repository; panics with its stderr on failure. Returns stdout.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(self.path(), args)
    }

    /// Runs git in `dir` with this repository's identity and HOME.
    pub fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.command(dir).args(args).output().expect("running git");
        succeeded(&out, &format!("git {args:?}"));
        String::from_utf8(out.stdout).expect("git printed UTF-8")
    }

    /// A history to build with [`Repo::import`], its commits dated by this repository's
    /// clock (as [`Repo::commit`] dates them).
    pub fn history(&self) -> History {
        History {
            tick: self.tick,
            ..History::default()
        }
    }

    /// Writes `history` with one `git fast-import` and checks out `branch`: one process
    /// for a history of hundreds of commits, where [`Repo::commit`] costs three a commit.
    pub fn import(&mut self, history: History, branch: &str) {
        use std::io::Write as _;
        let mut child = self
            .command(self.path())
            .args(["fast-import", "--quiet"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("running git fast-import");
        child
            .stdin
            .take()
            .expect("fast-import's stdin")
            .write_all(&history.stream)
            .expect("writing the fast-import stream");
        let out = child
            .wait_with_output()
            .expect("waiting for git fast-import");
        succeeded(&out, "git fast-import");
        self.tick = history.tick;
        self.git(&["checkout", "-q", "-f", branch]);
    }

    /// Writes a file in the working tree, creating its directories.
    pub fn write(&self, path: &str, content: impl AsRef<[u8]>) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a path inside the repository"))
            .expect("creating directories");
        std::fs::write(full, content).expect("writing a file");
    }

    /// Writes a file beside the repository (not inside it), reachable as `../NAME`.
    pub fn write_outside(&self, name: &str, content: impl AsRef<[u8]>) {
        std::fs::write(self.dir.path().join(name), content).expect("writing a file");
    }

    /// Deletes a file from the working tree.
    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.path().join(path)).expect("removing a file");
    }

    /// Creates branch `name` at HEAD and checks it out.
    pub fn branch(&self, name: &str) {
        if self.branch_in_process(name).is_err() {
            self.git(&["checkout", "-q", "-b", name]);
        }
    }

    /// `git checkout -q -b NAME` through libgit2 where HEAD is a commit: the branch at it,
    /// HEAD on the branch, the index and working tree as they are (as the CLI leaves them).
    fn branch_in_process(&self, name: &str) -> Result<(), git2::Error> {
        let repo = open_hermetic(self.path())?;
        let head = repo.head()?.peel_to_commit()?;
        repo.branch(name, &head, false)?;
        repo.set_head(&format!("refs/heads/{name}"))
    }

    /// Stages everything and commits with a fixed, advancing date. Returns the commit id.
    pub fn commit(&mut self, message: &str) -> String {
        if self.stage_all().is_err() {
            self.git(&["add", "-A"]);
        }
        self.commit_staged(message)
    }

    /// `git add -A` through libgit2, in this process: the suite builds thousands of
    /// commits, and a git process is ~2-5 ms of CPU each (bench/README.md, issue 28).
    fn stage_all(&self) -> Result<(), git2::Error> {
        let repo = open_hermetic(self.path())?;
        let mut index = repo.index()?;
        index.add_all(["*"], git2::IndexAddOption::DEFAULT, None)?;
        index.update_all(["*"], None)?;
        index.write()
    }

    /// Commits what is staged, as `git commit -q --allow-empty -m MESSAGE` with the
    /// repository's identity and clock would (the same commit id; a test below holds the
    /// two side by side), through libgit2; by the git CLI when a merge or another
    /// operation is under way (it knows what that adds to a commit).
    pub fn commit_staged(&mut self, message: &str) -> String {
        self.tick += 1;
        match self.commit_in_process(message) {
            Ok(id) => id,
            Err(_) => self.commit_by_cli(message),
        }
    }

    /// `git commit -q --allow-empty -m MESSAGE` dated by the clock's current tick.
    fn commit_by_cli(&self, message: &str) -> String {
        let date = format!(
            "2026-01-01T00:{:02}:{:02}Z",
            self.tick / 60 % 60,
            self.tick % 60
        );
        let out = self
            .command(self.path())
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .args(["commit", "-q", "--allow-empty", "-m", message])
            .output()
            .expect("running git commit");
        succeeded(&out, "git commit");
        self.head()
    }

    /// The commit of the index on HEAD, by libgit2; an error, with nothing written, when
    /// the repository is not in its plain state or HEAD is neither a commit nor unborn.
    fn commit_in_process(&self, message: &str) -> Result<String, git2::Error> {
        let repo = open_hermetic(self.path())?;
        if repo.state() != git2::RepositoryState::Clean {
            return Err(git2::Error::from_str("an operation is under way"));
        }
        let parent = match repo.head() {
            Ok(head) => Some(head.peel_to_commit()?),
            Err(e) if e.code() == git2::ErrorCode::UnbornBranch => None,
            Err(e) => return Err(e),
        };
        let tree = repo.find_tree(repo.index()?.write_tree()?)?;
        let when = git2::Time::new(i64::from(date_of(self.tick)), 0);
        let who = git2::Signature::new("Tester", "tester@example.com", &when)?;
        // `git commit -m` keeps the message as `--cleanup=whitespace` leaves it.
        let message = git2::message_prettify(message, None)?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        let id = repo.commit(Some("HEAD"), &who, &who, &message, &tree, &parents)?;
        Ok(id.to_string())
    }

    /// The object id `spec` names.
    pub fn rev(&self, spec: &str) -> String {
        self.git(&["rev-parse", spec]).trim().to_string()
    }

    /// A fresh clone in its own temp dir, with every local branch of this repository
    /// recreated locally and the same branch checked out.
    pub fn clone_repo(&self) -> Repo {
        let copy = Repo::empty();
        let source = self.path().to_str().expect("a UTF-8 temp path");
        let target = copy.path().to_str().expect("a UTF-8 temp path");
        copy.git_in(
            copy.outside(),
            &["clone", "-q", "--no-local", source, target],
        );
        copy.never_sign();
        let current = self.git(&["branch", "--show-current"]);
        for branch in self
            .git(&["for-each-ref", "--format=%(refname:short)", "refs/heads"])
            .lines()
            .filter(|b| *b != current.trim())
        {
            copy.git(&["branch", "-q", branch, &format!("origin/{branch}")]);
        }
        Repo {
            tick: self.tick,
            ..copy
        }
    }

    /// The built qa-diff's stream of the current branch against `base`, run from inside
    /// the repository (asserting exit 0).
    pub fn diff_stream(&self, base: &str) -> Vec<u8> {
        self.run(&Program::built("qa-diff"))
            .args(["--base", base])
            .run()
            .success()
            .stdout
    }

    /// An invocation of `program` from inside the repository, with the private HOME.
    pub fn run(&self, program: &Program) -> Invocation {
        program
            .invocation()
            .dir(self.path())
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.home())
    }

    /// The change flow (the built `qa-diff --base main | qa-intent | qa-route | qa-trace`)
    /// over this repository, run from beside it with only `tools` on PATH; every stage
    /// must exit 0.
    pub fn change_flow(&self, tools: &ToolStubs) -> Vec<u8> {
        let root = self.path().to_str().expect("a UTF-8 temp path");
        self.pipe(
            &tools.path_var(),
            &[
                ("qa-diff", &["--repo", root, "--base", "main"][..]),
                ("qa-intent", &["--repo", root][..]),
                ("qa-route", &["--repo", root][..]),
                ("qa-trace", &[][..]),
            ],
        )
    }

    /// The built `stages` (name and arguments) piped one into the next, from beside this
    /// repository with `path` as PATH and make's own variables removed; every stage must
    /// exit 0. The last one's stdout.
    pub fn pipe(&self, path: &std::ffi::OsStr, stages: &[(&str, &[&str])]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (stage, args) in stages {
            bytes = self
                .run(&Program::built(stage))
                .dir(self.outside())
                .env("PATH", path)
                // Under `make test`, an outer make's flags would reach a make a stage runs.
                .env_remove("MAKEFLAGS")
                .env_remove("MAKELEVEL")
                .args(*args)
                .stdin(bytes)
                .run()
                .success()
                .stdout;
        }
        bytes
    }
}

/// Sections of the machine's git config (system, global, XDG) that cannot change what
/// `add -A`, `commit` or `checkout -b` write: identities, credentials, remotes, display.
const INERT_MACHINE_CONFIG: &[&str] = &[
    "user.",
    "credential",
    "safe.",
    "color.",
    "alias.",
    "advice.",
    "http.",
    "url.",
    "pull.",
    "push.",
    "fetch.",
    "gpg.",
    "commit.gpgsign",
    "tag.gpgsign",
    "help.",
    "web.",
];

/// The repository at `path` for libgit2, or an error when the machine's git config holds
/// a setting outside [`INERT_MACHINE_CONFIG`] (a global `core.excludesFile` or
/// `core.autocrlf`, say): libgit2 in this process reads the machine's config, the git CLI
/// under the private HOME and `GIT_CONFIG_NOSYSTEM` does not, so the CLI takes over.
fn open_hermetic(path: &Path) -> Result<git2::Repository, git2::Error> {
    let repo = git2::Repository::open(path)?;
    let config = repo.config()?.snapshot()?;
    let mut entries = config.entries(None)?;
    while let Some(entry) = entries.next() {
        let entry = entry?;
        if changes_what_is_written(entry.level(), entry.name()?) {
            return Err(git2::Error::from_str("the machine's git config"));
        }
    }
    Ok(repo)
}

/// Whether the setting `name` found at `level` is one the git CLI under the private HOME
/// would not read and that could change what libgit2 writes.
fn changes_what_is_written(level: git2::ConfigLevel, name: &str) -> bool {
    let machine = matches!(
        level,
        git2::ConfigLevel::ProgramData
            | git2::ConfigLevel::System
            | git2::ConfigLevel::XDG
            | git2::ConfigLevel::Global
    );
    let name = name.to_ascii_lowercase();
    machine
        && !INERT_MACHINE_CONFIG
            .iter()
            .any(|inert| name.starts_with(inert))
}

/// The commit date of tick `tick` of a repository's clock, in seconds since the epoch:
/// 2026-01-01T00:00:00Z plus `tick` seconds, within the hour (as `commit_staged` writes it).
fn date_of(tick: u32) -> u32 {
    1_767_225_600 + tick % 3600
}

/// A `git fast-import` stream ([`Repo::history`], [`Repo::import`]): commits on named
/// branches, each with its changes to its first parent's tree, by the repository's
/// identity at its clock's next tick.
#[derive(Default)]
pub struct History {
    stream: Vec<u8>,
    tick: u32,
    /// Commits so far: commit `n` is mark `:n`.
    marks: usize,
    /// Each branch's last commit mark.
    tips: std::collections::BTreeMap<String, usize>,
    /// The changes of the commit being written.
    changes: Vec<u8>,
}

impl History {
    /// Sets `path` (in the next commit) to `content`.
    pub fn write(&mut self, path: &str, content: impl AsRef<[u8]>) {
        let content = content.as_ref();
        self.changes
            .extend(format!("M 100644 inline {path}\ndata {}\n", content.len()).as_bytes());
        self.changes.extend(content);
        self.changes.push(b'\n');
    }

    /// Deletes `path` in the next commit.
    pub fn remove(&mut self, path: &str) {
        self.changes.extend(format!("D {path}\n").as_bytes());
    }

    /// Commits the changes so far on `branch`, whose first commit here starts from
    /// `from`'s tip (a branch without one starts with an empty tree, as `main` does);
    /// `merge` names a second parent's branch.
    pub fn commit(&mut self, branch: &str, from: &str, merge: Option<&str>, message: &str) {
        self.marks += 1;
        self.tick += 1;
        let mark = self.marks;
        let date = date_of(self.tick);
        let mut head = format!(
            "commit refs/heads/{branch}\nmark :{mark}\n\
             author Tester <tester@example.com> {date} +0000\n\
             committer Tester <tester@example.com> {date} +0000\n\
             data {}\n{message}\n",
            message.len()
        );
        if let Some(parent) = self.tips.get(branch).or_else(|| self.tips.get(from)) {
            head += &format!("from :{parent}\n");
        }
        if let Some(other) = merge {
            head += &format!("merge :{}\n", self.tips[other]);
        }
        self.stream.extend(head.as_bytes());
        self.stream.append(&mut self.changes);
        self.stream.push(b'\n');
        self.tips.insert(branch.to_string(), mark);
    }
}

/// Panics with `what` and its stderr unless it exited 0.
fn succeeded(out: &std::process::Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_commits() -> (Repo, String) {
        let mut r = Repo::new();
        r.write("a.txt", "a\n");
        r.commit("init");
        r.branch("feature");
        r.write("a.txt", "b\n");
        let head = r.commit("feat: b");
        (r, head)
    }

    /// `Repo::commit` as the git CLI alone makes it (the way it was made before libgit2).
    fn cli_commit(r: &mut Repo, message: &str) -> String {
        r.git(&["add", "-A"]);
        r.tick += 1;
        r.commit_by_cli(message)
    }

    /// A history touching what `git add -A` must get right: nested folders, an executable,
    /// a symlink, an ignored file, a deletion, an empty commit and a message to clean up.
    fn history(commit: fn(&mut Repo, &str) -> String) -> (Vec<String>, Repo) {
        use std::os::unix::fs::PermissionsExt as _;
        let mut r = Repo::new();
        let mut ids = Vec::new();
        r.write("a.txt", "a\n");
        r.write("src/deep/b.rs", "fn b() {}\n");
        r.write(".gitignore", "*.log\n");
        r.write("run.log", "ignored\n");
        ids.push(commit(&mut r, "init"));
        r.write("tool.sh", "#!/bin/sh\n");
        let tool = r.path().join("tool.sh");
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::symlink("a.txt", r.path().join("link")).unwrap();
        r.remove("src/deep/b.rs");
        ids.push(commit(&mut r, "  feat: tool\n\n\nbody line   \n\n"));
        ids.push(commit(&mut r, "empty"));
        r.branch("feature");
        r.write("a.txt", "changed\n");
        ids.push(commit(&mut r, "fix: a"));
        (ids, r)
    }

    #[test]
    fn commits_have_the_ids_the_git_cli_gives_the_same_changes() {
        let (ours, r) = history(Repo::commit);
        let (cli, _) = history(cli_commit);
        assert_eq!(ours, cli);
        // Same ids, so the same trees: the CLI sees a clean working tree, the ignored
        // file untracked and ignored.
        assert_eq!(r.git(&["status", "--porcelain"]), "");
        assert_eq!(r.git(&["ls-files", "run.log"]), "");
    }

    #[test]
    fn a_machine_setting_that_changes_what_is_committed_hands_the_commit_to_the_cli() {
        use git2::ConfigLevel::{Global, Local, System, XDG};
        assert!(changes_what_is_written(Global, "core.excludesFile"));
        assert!(changes_what_is_written(System, "core.autocrlf"));
        assert!(changes_what_is_written(XDG, "i18n.commitEncoding"));
        // The controls: identities and credentials change nothing written, and the
        // repository's own settings are the CLI's too.
        assert!(!changes_what_is_written(Global, "user.name"));
        assert!(!changes_what_is_written(
            System,
            "credential.https://example.com.helper"
        ));
        assert!(!changes_what_is_written(Local, "core.autocrlf"));
    }

    #[test]
    fn a_new_repository_is_the_one_git_init_makes() {
        let ours = Repo::new();
        let cli = Repo::empty();
        cli.git(&["init", "-q", "-b", "main"]);
        cli.never_sign();
        // The same settings (in another order in the file, which git does not read into).
        let config = |r: &Repo| {
            let list = r.git(&["config", "--local", "--list"]);
            list.lines()
                .map(str::to_string)
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert_eq!(config(&ours), config(&cli));
        let head = |r: &Repo| std::fs::read_to_string(r.path().join(".git/HEAD")).unwrap();
        assert_eq!(head(&ours), "ref: refs/heads/main\n");
        assert_eq!(head(&ours), head(&cli));
    }

    #[test]
    fn a_branch_starts_at_head_keeping_uncommitted_changes_as_the_cli_does() {
        let (r, head) = two_commits();
        r.write("a.txt", "uncommitted\n");
        r.write("new.txt", "untracked\n");
        r.branch("next");
        assert_eq!(r.git(&["branch", "--show-current"]).trim(), "next");
        assert_eq!(r.rev("next"), head);
        assert_eq!(r.git(&["status", "--porcelain"]), " M a.txt\n?? new.txt\n");
    }

    #[test]
    fn a_branch_before_the_first_commit_renames_the_unborn_one_as_the_cli_does() {
        let mut r = Repo::new();
        r.branch("first");
        r.write("a.txt", "a\n");
        r.commit("init");
        assert_eq!(r.git(&["branch", "--show-current"]).trim(), "first");
        assert_eq!(r.git(&["branch", "--list"]).trim(), "* first");
    }

    #[test]
    fn a_commit_during_a_merge_records_both_parents_as_the_cli_does() {
        let (mut r, feature) = two_commits();
        r.git(&["checkout", "-q", "main"]);
        r.write("other.txt", "o\n");
        let main = r.commit("other");
        r.git(&["merge", "-q", "--no-commit", "--no-ff", "feature"]);
        let merge = r.commit("merge feature");
        let parents = r.git(&["log", "-1", "--format=%P", &merge]);
        assert_eq!(parents.trim(), format!("{main} {feature}"));
    }

    #[test]
    fn a_commit_returns_the_id_git_names_for_head() {
        let (r, head) = two_commits();
        assert_eq!(head, r.git(&["rev-parse", "HEAD"]).trim());
        assert_eq!(head.len(), 40, "{head}");
    }

    #[test]
    fn a_commit_on_a_detached_head_returns_the_id_git_names_for_head() {
        let (mut r, _) = two_commits();
        r.git(&["checkout", "-q", "--detach"]);
        r.write("a.txt", "c\n");
        let head = r.commit("detached");
        assert_eq!(head, r.git(&["rev-parse", "HEAD"]).trim());
    }

    #[test]
    fn a_commit_whose_branch_ref_is_packed_returns_the_id_git_names_for_head() {
        let (mut r, _) = two_commits();
        r.write("a.txt", "c\n");
        let head = r.commit("then packed");
        r.git(&["pack-refs", "--all"]);
        assert!(!r.path().join(".git/refs/heads/feature").exists());
        assert_eq!(r.head(), head);
    }

    #[test]
    fn a_new_repository_and_a_clone_never_sign_commits() {
        let (r, _) = two_commits();
        assert_eq!(r.git(&["config", "commit.gpgsign"]).trim(), "false");
        assert_eq!(
            r.clone_repo().git(&["config", "commit.gpgsign"]).trim(),
            "false"
        );
        // The control: a repository git made alone has no such setting.
        let bare = Repo::empty();
        bare.git(&["init", "-q"]);
        assert!(bare
            .command(bare.path())
            .args(["config", "commit.gpgsign"])
            .output()
            .unwrap()
            .stdout
            .is_empty());
    }

    #[test]
    fn the_same_history_gives_the_same_commit_ids() {
        assert_eq!(two_commits().1, two_commits().1);
    }

    #[test]
    fn a_clone_keeps_every_branch_and_the_checked_out_one() {
        let (r, head) = two_commits();
        let copy = r.clone_repo();
        assert_eq!(copy.rev("HEAD"), head);
        assert_eq!(copy.rev("main"), r.rev("main"));
        assert_eq!(copy.git(&["branch", "--show-current"]).trim(), "feature");
        assert_ne!(copy.path(), r.path());
    }

    #[test]
    fn an_imported_history_is_checked_out_on_its_branch_with_parents_and_merges() {
        let mut r = Repo::new();
        let mut h = r.history();
        h.write("a.txt", "one\n");
        h.commit("main", "main", None, "first");
        h.write("b.txt", "side\n");
        h.commit("side", "main", None, "side work");
        h.remove("a.txt");
        h.commit("topic", "main", Some("side"), "merge side");
        r.import(h, "topic");
        assert_eq!(r.git(&["branch", "--show-current"]).trim(), "topic");
        assert!(!r.path().join("a.txt").exists());
        assert_eq!(r.rev("topic^1"), r.rev("main"));
        assert_eq!(r.rev("topic^2"), r.rev("side"));
        assert_eq!(
            r.git(&["log", "-1", "--format=%s %an", "side"]).trim(),
            "side work Tester"
        );
    }

    #[test]
    fn commits_after_an_import_are_dated_after_it() {
        let mut r = Repo::new();
        let mut h = r.history();
        h.write("a.txt", "one\n");
        h.commit("main", "main", None, "imported");
        r.import(h, "main");
        r.write("a.txt", "two\n");
        r.commit("committed");
        let dates = r.git(&["log", "--format=%ct"]);
        let dates: Vec<u64> = dates.lines().map(|d| d.parse().unwrap()).collect();
        assert!(dates[0] > dates[1], "{dates:?}");
    }
}
