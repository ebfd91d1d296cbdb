//! The active run (one at a time) and the last change report: what `status` shows,
//! what `cancel` signals, and what run_check, explain, accept and reject work on.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long stages get after SIGTERM to write their cancelled records (qa-report reads on
/// for 2 s, then writes its cancelled report; qa-check stops its command within 2 s)
/// before SIGKILL.
const KILL_AFTER: Duration = Duration::from_secs(10);

/// One stage process of the active run.
#[derive(Debug, Clone)]
struct Group {
    pgid: i32,
    /// Whether `cancel` signals it (qa-report of a change report or an acceptance run
    /// then writes its report marked cancelled; run_check's is left to report what
    /// qa-check finished).
    on_cancel: bool,
}

/// What `status` reports about the active run.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tool: &'static str,
    pub run_id: String,
    /// The run folder, once known (an acceptance run's is named by qa-report at its end).
    pub folder: Option<PathBuf>,
    pub stage: String,
    pub records: u64,
    pub seconds: u64,
    pub cancelled: bool,
}

#[derive(Debug)]
struct Active {
    serial: u64,
    tool: &'static str,
    run_id: String,
    folder: Option<PathBuf>,
    stage: String,
    records: u64,
    started: Instant,
    groups: Vec<Group>,
    cancelled: bool,
}

/// How the last run ended: what `status` and `cancel` name once it is over.
#[derive(Debug, Clone)]
pub struct Ended {
    pub tool: &'static str,
    pub run_id: String,
    pub folder: Option<PathBuf>,
    pub sums: Option<PathBuf>,
    pub status: &'static str,
}

/// The last change report that made a report: its repository and saved stream.
#[derive(Debug, Clone)]
pub struct LastChange {
    pub repo: PathBuf,
    pub folder: PathBuf,
    pub stream: PathBuf,
    pub sums: PathBuf,
}

#[derive(Debug, Default)]
struct State {
    active: Option<Active>,
    last_end: Option<Ended>,
    last_change: Option<LastChange>,
    serial: u64,
}

/// Shared by the tools, the stage runner and the signal watcher.
#[derive(Debug, Clone)]
pub struct Board {
    state: Arc<Mutex<State>>,
    /// Bumped each time a run ends, so `cancel` can wait for it.
    ended: Arc<watch::Sender<u64>>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            state: Arc::default(),
            ended: Arc::new(watch::channel(0).0),
        }
    }
}

/// The handle of the run a tool started; ends the run when finished or dropped.
#[derive(Debug)]
pub struct Run {
    board: Board,
    serial: u64,
    ended: Mutex<Option<Ended>>,
}

impl Board {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not take status and cancel down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the run of `tool`; an error line naming the active run when there is one.
    pub fn begin(
        &self,
        tool: &'static str,
        run_id: String,
        folder: Option<PathBuf>,
        first_stage: &str,
    ) -> Result<Run, String> {
        let mut state = self.lock();
        if let Some(a) = &state.active {
            return Err(format!(
                "another run is active ({} {}, stage {}): one run at a time; wait for it, call status, or cancel it",
                a.tool, a.run_id, a.stage
            ));
        }
        state.serial += 1;
        let serial = state.serial;
        state.active = Some(Active {
            serial,
            tool,
            run_id,
            folder,
            stage: first_stage.to_string(),
            records: 0,
            started: Instant::now(),
            groups: Vec::new(),
            cancelled: false,
        });
        Ok(Run {
            board: self.clone(),
            serial,
            ended: Mutex::new(None),
        })
    }

    /// The active run, if any.
    pub fn snapshot(&self) -> Option<Snapshot> {
        self.lock().active.as_ref().map(|a| Snapshot {
            tool: a.tool,
            run_id: a.run_id.clone(),
            folder: a.folder.clone(),
            stage: a.stage.clone(),
            records: a.records,
            seconds: a.started.elapsed().as_secs(),
            cancelled: a.cancelled,
        })
    }

    /// How the last run ended.
    pub fn last_end(&self) -> Option<Ended> {
        self.lock().last_end.clone()
    }

    pub fn last_change(&self) -> Option<LastChange> {
        self.lock().last_change.clone()
    }

    pub fn set_last_change(&self, change: LastChange) {
        self.lock().last_change = Some(change);
    }

    /// Sends SIGTERM to the active run's stages (those that take it); the name of the
    /// cancelled run's tool, or None when no run is active.
    pub fn cancel_active(&self) -> Option<&'static str> {
        let mut state = self.lock();
        let active = state.active.as_mut()?;
        let tool = active.tool;
        let serial = active.serial;
        drop(state);
        self.cancel_run(serial);
        Some(tool)
    }

    /// Marks run `serial` cancelled and sends SIGTERM to its stages; a stage still
    /// running `KILL_AFTER` later gets SIGKILL, so a cancel always ends the run.
    fn cancel_run(&self, serial: u64) {
        let mut state = self.lock();
        let Some(a) = state.active.as_mut().filter(|a| a.serial == serial) else {
            return;
        };
        let first = !a.cancelled;
        a.cancelled = true;
        // Downstream first (groups are in pipeline order): qa-report must hold the signal
        // before the stage feeding it dies and closes its input, or it can finish on that
        // end of input as a plain incomplete run (exit 2) instead of a cancelled one (143).
        for g in a.groups.iter().rev().filter(|g| g.on_cancel) {
            signal(g.pgid, libc::SIGTERM);
        }
        drop(state);
        if first {
            let board = self.clone();
            std::thread::spawn(move || {
                std::thread::sleep(KILL_AFTER);
                let state = board.lock();
                // Groups are forgotten once their leader is reaped, so every one still
                // listed is a live process (or an unreaped one): never a reused pid.
                if let Some(a) = state.active.as_ref().filter(|a| a.serial == serial) {
                    for g in a.groups.iter().filter(|g| g.on_cancel) {
                        signal(g.pgid, libc::SIGKILL);
                    }
                }
            });
        }
    }

    /// Waits until no run is active, at most `limit`; true when none is.
    pub async fn wait_idle(&self, limit: Duration) -> bool {
        let mut rx = self.ended.subscribe();
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if self.lock().active.is_none() {
                return true;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return self.lock().active.is_none();
            }
        }
    }
}

impl Run {
    fn with<R>(&self, f: impl FnOnce(&mut Active) -> R) -> Option<R> {
        let mut state = self.board.lock();
        match state.active.as_mut() {
            Some(a) if a.serial == self.serial => Some(f(a)),
            _ => None,
        }
    }

    /// Registers a started stage's process group; signalled at once when the run was
    /// cancelled before it started.
    pub fn add_group(&self, pgid: u32, on_cancel: bool) {
        let pgid = pgid as i32;
        let cancelled = self
            .with(|a| {
                a.groups.push(Group { pgid, on_cancel });
                a.cancelled
            })
            .unwrap_or(false);
        if cancelled && on_cancel {
            signal(pgid, libc::SIGTERM);
        }
    }

    /// Forgets a stage's group once its process was waited for (its pid may be reused).
    pub fn remove_group(&self, pgid: u32) {
        let pgid = pgid as i32;
        self.with(|a| a.groups.retain(|g| g.pgid != pgid));
    }

    /// Cancels this run (the client's notifications/cancelled for its request).
    pub fn cancel(&self) {
        self.board.cancel_run(self.serial);
    }

    pub fn cancelled(&self) -> bool {
        self.with(|a| a.cancelled).unwrap_or(false)
    }

    pub fn set_stage(&self, stage: &str) {
        self.with(|a| {
            if a.stage != stage {
                a.stage = stage.to_string();
            }
        });
    }

    pub fn set_records(&self, records: u64) {
        self.with(|a| a.records = records);
    }

    pub fn set_folder(&self, folder: PathBuf) {
        self.with(|a| a.folder = Some(folder));
    }

    /// Records how the run ended, for `status` and `cancel`.
    pub fn finish(&self, ended: Ended) {
        *self.ended.lock().unwrap_or_else(|e| e.into_inner()) = Some(ended);
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let mut state = self.board.lock();
        if state
            .active
            .as_ref()
            .is_some_and(|a| a.serial == self.serial)
        {
            let active = state.active.take().expect("checked above");
            let ended = self.ended.lock().unwrap_or_else(|e| e.into_inner()).take();
            state.last_end = Some(ended.unwrap_or(Ended {
                tool: active.tool,
                run_id: active.run_id,
                folder: active.folder,
                sums: None,
                status: "failed",
            }));
        }
        drop(state);
        self.ended_bump();
    }
}

impl Run {
    fn ended_bump(&self) {
        self.board.ended.send_modify(|n| *n += 1);
    }
}

/// `sig` to the process group `pgid` (a stage started as its group's leader).
fn signal(pgid: i32, sig: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is
        // shared. A group already gone is ESRCH, which is what cancelling wants anyway.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}
