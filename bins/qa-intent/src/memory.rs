//! The heap between the run's phases: what a finished phase freed goes back to the system.

/// Gives the pages of freed heap back to the system, in every malloc arena.
///
/// glibc keeps freed memory mapped for reuse, and a thread's arena outlives the thread:
/// the behavior graph's thread leaves about 7.5 MB of its arena free (libgit2's cache of
/// delta bases, its parsers), which the tree readers and the verdicts would otherwise
/// carry to the end of the run under their own peaks. Called at the few points where a
/// phase has just ended (about a millisecond each), never in a loop.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own arenas, under
    // their locks; it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The repository's handles let go together between the behavior graph's two trees, so
/// that libgit2's cache of delta bases goes with the pack.
///
/// libgit2 shares a pack among every handle of the process and keeps, per pack, the delta
/// bases its reads inflated (up to 16 MB; no option bounds it) until the last handle on
/// it closes. While the graph is built only its thread and this thread's reader of the
/// changed files hold the pack; the head tree's reads filled 3-5 MB of that cache by the
/// time the base tree is read. The graph's thread lets its handle go and waits
/// ([`PackHandoff::hand_over`]) until the reader, between two files, has let its own go
/// and opened another ([`PackHandoff::wanted`], [`PackHandoff::handed`]), or holds none.
#[derive(Debug, Default)]
pub struct PackHandoff {
    state: std::sync::Mutex<Handoff>,
    changed: std::sync::Condvar,
}

#[derive(Debug, Default)]
struct Handoff {
    /// The reader holds a handle on the pack.
    reading: bool,
    /// The graph's thread waits for the reader's handle to go.
    wanted: bool,
}

impl PackHandoff {
    /// The reader holds a handle until the guard is dropped (a panic included: the graph's
    /// thread must not wait for a reader that is gone).
    pub fn reading(&self) -> Reading<'_> {
        self.update(|s| s.reading = true);
        Reading(self)
    }

    /// On the graph's thread, its own handle let go: returns once the reader's has gone
    /// too, or at once when no reader holds one.
    pub fn hand_over(&self) {
        let mut state = self.lock();
        if state.reading {
            state.wanted = true;
            let _waited = self
                .changed
                .wait_while(state, |s| s.wanted && s.reading)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// True when the graph's thread waits for the reader's handle to go.
    pub fn wanted(&self) -> bool {
        self.lock().wanted
    }

    /// The reader has let its handle go (and may hold a new one).
    pub fn handed(&self) {
        self.update(|s| s.wanted = false);
    }

    fn update(&self, change: impl FnOnce(&mut Handoff)) {
        change(&mut self.lock());
        self.changed.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Handoff> {
        // A poisoned lock only means a thread panicked between two plain assignments.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A reader's hold on the pack, for [`PackHandoff`].
#[derive(Debug)]
pub struct Reading<'a>(&'a PackHandoff);

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.0.update(|s| {
            s.reading = false;
            s.wanted = false;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::PackHandoff;

    #[test]
    fn without_a_reader_the_handoff_does_not_wait() {
        PackHandoff::default().hand_over();
    }

    #[test]
    fn the_handoff_waits_until_the_reader_has_let_its_handle_go() {
        let handoff = PackHandoff::default();
        let reading = handoff.reading();
        let order = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            scope.spawn(|| {
                handoff.hand_over();
                order.lock().unwrap().push("handed over");
            });
            while !handoff.wanted() {
                std::thread::yield_now();
            }
            order.lock().unwrap().push("reader let go");
            handoff.handed();
        });
        assert_eq!(*order.lock().unwrap(), ["reader let go", "handed over"]);
        assert!(!handoff.wanted());
        drop(reading);
    }

    #[test]
    fn a_reader_that_ends_releases_a_waiting_handoff() {
        let handoff = PackHandoff::default();
        let reading = handoff.reading();
        std::thread::scope(|scope| {
            scope.spawn(|| handoff.hand_over());
            while !handoff.wanted() {
                std::thread::yield_now();
            }
            drop(reading);
        });
        assert!(!handoff.wanted());
    }
}
