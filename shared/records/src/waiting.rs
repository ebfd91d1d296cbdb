//! Blocking steps (a request, a browser reply, a regular-expression match) run on their
//! own thread and are waited for while polling SIGINT/SIGTERM (and a deadline), so a
//! signal ends a stage at once instead of after the step.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::exit::Exit;

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
    // Without a deadline the wait ends only with a value, a signal or a lost step.
    receive_until(&spawned(step), None, cancelled)?.ok_or(Interrupted::Lost)
}

/// [`wait_for`] until `deadline`: Ok(None) when the step has not ended by then (it is
/// left running, so it must not hold anything the caller needs).
pub fn wait_until<T: Send + 'static>(
    step: impl FnOnce() -> T + Send + 'static,
    deadline: Instant,
    cancelled: impl Fn() -> Option<Exit>,
) -> Result<Option<T>, Interrupted> {
    receive_until(&spawned(step), Some(deadline), cancelled)
}

/// `step` started on its own thread; its value arrives on the receiver.
fn spawned<T: Send + 'static>(step: impl FnOnce() -> T + Send + 'static) -> mpsc::Receiver<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone only when the wait was given up: nothing to report.
        let _ = tx.send(step());
    });
    rx
}

/// Waits for the next value on `rx` until `deadline` (Ok(None) past it), polling
/// `cancelled`.
fn receive_until<T>(
    rx: &mpsc::Receiver<T>,
    deadline: Option<Instant>,
    cancelled: impl Fn() -> Option<Exit>,
) -> Result<Option<T>, Interrupted> {
    loop {
        if let Some(exit) = cancelled() {
            return Err(Interrupted::Cancelled(exit));
        }
        let poll = match deadline {
            Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => left.min(CANCEL_POLL),
                _ => return Ok(None),
            },
            None => CANCEL_POLL,
        };
        match rx.recv_timeout(poll) {
            Ok(value) => return Ok(Some(value)),
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
    fn a_deadline_ends_the_wait_before_a_slow_step() {
        let deadline = Instant::now() + Duration::from_millis(50);
        let got = wait_until(
            || std::thread::sleep(Duration::from_secs(5)),
            deadline,
            || None,
        );
        assert_eq!(got, Ok(None));
    }

    #[test]
    fn a_step_done_before_the_deadline_gives_its_value() {
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(wait_until(|| 7, deadline, || None), Ok(Some(7)));
    }

    #[test]
    fn a_panicking_step_is_lost_not_hung() {
        let got: Result<u8, _> = wait_for(|| panic!("boom"), || None);
        assert_eq!(got, Err(Interrupted::Lost));
    }
}
