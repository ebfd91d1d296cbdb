//! The `execution` record payload: what `qa-check --exec` did with the one routed
//! repository command (or why it refused), and what the command changed in the repository.
//!
//! Raw output is never stored: only byte counts and SHA-256. Enumerations serialize to
//! the kebab-case names below; readers ignore unknown fields.

use serde::{Deserialize, Serialize};

/// Most changed paths an execution record lists; `changed_paths_total` counts them all.
pub const MAX_CHANGED_PATHS: usize = 8;

/// How the command ended, or why it never started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExecutionStatus {
    /// Exit 0 and the repository unchanged.
    Passed,
    /// A non-zero exit or a signal.
    Failed,
    /// Exit 0, but HEAD, the branch, the index, the worktree or the git internals
    /// (config, hooks, info, refs, stash) changed: never a clean pass.
    RepositoryChanged,
    /// Exit 0, but the runner reported no test run: not a pass (qapipe's verdict:
    /// incomplete).
    Empty,
    /// Exit 0, but a changed test the route named did not run: not a pass.
    Incomplete,
    /// Refused before starting, or started without its runner (see `blocked`): not a
    /// verdict on the tests.
    Blocked,
    /// Past `--timeout`: the process group was terminated, then killed.
    TimedOut,
    /// SIGINT or SIGTERM reached qa-check first; a started command's group was killed.
    Cancelled,
}

/// Why a command was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockedReason {
    /// `--allow-exec` was not given.
    ExecNotAllowed,
    /// The stream holds no scenario route (or none for `--scenario`).
    NoRoute,
    /// The route's action is not `run-repository-command` (a draft is never executed).
    NotACommandRoute,
    /// The route asks to run a command but names none.
    NoCommand,
    /// The command is not among the ones discovered again in the repository's build files.
    NotDiscovered,
    /// Longer than 2,048 bytes.
    TooLong,
    /// Holds NUL, CR or LF.
    ControlCharacter,
    /// Holds instruction-like text (or the boundary's marker).
    InstructionLike,
    /// The runner is not on PATH, or the command could not start it (exit 126/127, a
    /// not-found message: the repository's dependencies are not installed).
    RunnerMissing,
    /// The command's directory is not a directory inside the repository.
    DirectoryOutside,
    /// `--repo` is not a git repository: nothing could be fingerprinted.
    NotARepository,
}

/// A fingerprint bound that was hit, leaving part of the worktree unobserved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    /// More modified or untracked paths than the fingerprint hashes.
    Paths,
    /// More bytes of modified or untracked files than the fingerprint reads.
    Bytes,
}

impl Bound {
    /// The kebab-case name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::Paths => "paths",
            Bound::Bytes => "bytes",
        }
    }
}

/// The repository state on one side of the command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitState {
    /// The commit HEAD names; null on an unborn branch.
    pub head: Option<String>,
    /// The checked-out branch (`refs/heads/...` shortened); null when detached.
    pub branch: Option<String>,
    /// SHA-256 of the index entries (path, mode, blob id, stage), stat data left out.
    pub index_sha256: String,
    /// Tracked-modified and untracked-not-ignored paths hashed.
    pub dirty_paths: u64,
    /// SHA-256 over those paths with their mode and content hashes.
    pub worktree_sha256: String,
    /// The bound that stopped hashing; null when every dirty path was observed.
    pub unobserved: Option<Bound>,
}

/// Which parts of the repository differ between before and after.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed {
    pub head: bool,
    pub branch: bool,
    pub index: bool,
    pub worktree: bool,
    /// The git directory's internals: `config`, `hooks/*`, `info/*`, refs (branches, tags,
    /// packed-refs) or the stash; `changed_git` names them. Absent in older records.
    #[serde(default)]
    pub git: bool,
}

impl Changed {
    pub fn any(self) -> bool {
        self.head || self.branch || self.index || self.worktree || self.git
    }
}

/// Where the test counts of an execution come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Count {
    /// Read from the runner's report or its own summary lines.
    Counted,
    /// The runner's output could not be read: the verdict rests on the exit code alone.
    Unverified,
}

/// Tests the runner reported, summed over every test binary or file it ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCounts {
    pub ran: u64,
    pub passed: u64,
    pub failed: u64,
    /// Skipped, ignored or pending: reported, not run.
    pub skipped: u64,
}

/// How one test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestOutcome {
    Passed,
    Failed,
    Skipped,
}

/// A changed test the route's command names, and what the runner said of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedTest {
    /// The test file, repository-relative.
    pub file: String,
    /// The test's name (function, case or title).
    pub name: String,
    /// True when the runner reported it run (passed or failed).
    pub ran: bool,
    /// Null when the runner did not report it.
    pub outcome: Option<TestOutcome>,
}

/// `execution` data.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecutionData {
    /// The route record id the command came from; null when there was no route.
    pub route: Option<String>,
    /// The scenario id that route names.
    pub subject: Option<String>,
    /// The command line as qa-route wrote it; null when the route names none.
    pub command: Option<String>,
    /// The program that must be on PATH.
    pub runner: Option<String>,
    /// Repository-relative directory the command runs in (`.` for the root).
    pub dir: Option<String>,
    pub status: ExecutionStatus,
    /// Set when `status` is blocked.
    pub blocked: Option<BlockedReason>,
    /// Why it was blocked, cancelled or timed out, or what changed; null for a clean pass
    /// or a plain failure.
    pub reason: Option<String>,
    /// The command's time limit in seconds.
    pub timeout_secs: u64,
    /// The exit code; null when nothing ran or a signal ended it.
    pub exit_code: Option<i32>,
    /// The signal that ended the command's process, if one did.
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// Wall time of the command; 0 when nothing ran.
    pub duration_ms: u64,
    pub stdout_bytes: u64,
    /// SHA-256 of every stdout byte; null when nothing ran.
    pub stdout_sha256: Option<String>,
    pub stderr_bytes: u64,
    pub stderr_sha256: Option<String>,
    /// Null when nothing ran.
    pub git_before: Option<GitState>,
    pub git_after: Option<GitState>,
    pub changed: Option<Changed>,
    /// Up to [`MAX_CHANGED_PATHS`] changed worktree paths, in path order.
    pub changed_paths: Vec<String>,
    pub changed_paths_total: u64,
    /// What changed inside the git directory (`config`, `hooks/pre-commit`,
    /// `refs/tags/v1`, ...), in name order. Absent in older records.
    #[serde(default)]
    pub changed_git: Vec<String>,
    /// Options qa-check added to the command it ran so the runner reports its tests
    /// (`-json`, `--junitxml=<private file>`); `command` stays the routed line.
    #[serde(default)]
    pub reporter_options: Vec<String>,
    /// Where `tests` came from; null when nothing ran.
    #[serde(default)]
    pub count: Option<Count>,
    /// The tests the runner reported; null when its output could not be read.
    #[serde(default)]
    pub tests: Option<TestCounts>,
    /// Each changed test the route's command names, and whether it ran.
    #[serde(default)]
    pub changed_tests: Vec<ChangedTest>,
}

impl ExecutionData {
    /// A record of a command that never started.
    pub fn blocked(reason: BlockedReason, why: impl Into<String>, timeout_secs: u64) -> Self {
        ExecutionData {
            blocked: Some(reason),
            reason: Some(why.into()),
            ..ExecutionData::not_started(ExecutionStatus::Blocked, timeout_secs)
        }
    }

    /// A record with `status` and nothing observed yet: no route, no output, no
    /// fingerprint.
    pub fn not_started(status: ExecutionStatus, timeout_secs: u64) -> Self {
        ExecutionData {
            route: None,
            subject: None,
            command: None,
            runner: None,
            dir: None,
            status,
            blocked: None,
            reason: None,
            timeout_secs,
            exit_code: None,
            signal: None,
            timed_out: false,
            duration_ms: 0,
            stdout_bytes: 0,
            stdout_sha256: None,
            stderr_bytes: 0,
            stderr_sha256: None,
            git_before: None,
            git_after: None,
            changed: None,
            changed_paths: Vec::new(),
            changed_paths_total: 0,
            changed_git: Vec::new(),
            reporter_options: Vec::new(),
            count: None,
            tests: None,
            changed_tests: Vec::new(),
        }
    }
}
