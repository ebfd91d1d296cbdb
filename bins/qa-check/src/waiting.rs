//! Blocking steps (a request, a browser reply) run on their own thread and are waited for
//! while polling SIGINT/SIGTERM, so a signal ends a check at once instead of after the step.

use std::sync::mpsc;
use std::time::Duration;

use qa_shared::Exit;

/// How often a waiting check looks for SIGINT/SIGTERM.
pub const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Why a step gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interrupted {
    /// A signal came first; the step's thread is left to end on its own bound.
    Cancelled(Exit),
    /// The step's thread ended without a value (it panicked).
    Lost,
}

/// Runs `step` on its own thread and waits for its value, polling `cancelled`. The step
/// must bound itself in time: a cancelled wait does not stop it, it only stops waiting.
pub fn wait_for<T: Send + 'static>(
    step: impl FnOnce() -> T + Send + 'static,
    cancelled: impl Fn() -> Option<Exit>,
) -> Result<T, Interrupted> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone only when the wait was cancelled: nothing to report.
        let _ = tx.send(step());
    });
    receive(&rx, cancelled)
}

/// Waits for the next value on `rx`, polling `cancelled`.
pub fn receive<T>(
    rx: &mpsc::Receiver<T>,
    cancelled: impl Fn() -> Option<Exit>,
) -> Result<T, Interrupted> {
    loop {
        if let Some(exit) = cancelled() {
            return Err(Interrupted::Cancelled(exit));
        }
        match rx.recv_timeout(CANCEL_POLL) {
            Ok(value) => return Ok(value),
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(Interrupted::Lost),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_value_comes_back() {
        assert_eq!(wait_for(|| 7, || None), Ok(7));
    }

    #[test]
    fn a_signal_ends_the_wait_before_a_slow_step() {
        let got = wait_for(
            || std::thread::sleep(Duration::from_secs(5)),
            || Some(Exit::Interrupted),
        );
        assert_eq!(got, Err(Interrupted::Cancelled(Exit::Interrupted)));
    }

    #[test]
    fn a_panicking_step_is_lost_not_hung() {
        let got: Result<u8, _> = wait_for(|| panic!("boom"), || None);
        assert_eq!(got, Err(Interrupted::Lost));
    }
}
