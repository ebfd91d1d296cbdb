//! Cancellation by SIGINT or SIGTERM: a stage notes the signal, finishes the record it is
//! writing, keeps what it already wrote, and exits 130 or 143.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::exit::Exit;

static SIGNAL: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// When this process first saw the signal: the start of its [`GRACE`] period.
static NOTICED: OnceLock<Instant> = OnceLock::new();

/// How long a stage keeps reading its input after a signal. The stages before it got the
/// same signal and are writing what they finished; past this, it stops reading (a stream
/// that never ends, an upstream that ignores signals) and exits within a second.
pub const GRACE: Duration = Duration::from_millis(900);

/// Installs the handlers (once per process). Until then, or on platforms without these
/// signals, [`requested`] is always None.
pub fn install() -> anyhow::Result<()> {
    let flag = SIGNAL.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    #[cfg(unix)]
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_usize(signal, Arc::clone(flag), signal as usize)?;
    }
    Ok(())
}

/// The exit a received signal asks for: 130 for SIGINT, 143 for SIGTERM.
pub fn requested() -> Option<Exit> {
    let exit = signalled()?;
    NOTICED.get_or_init(Instant::now);
    Some(exit)
}

/// The exit a received signal asks for once its [`GRACE`] period is over: when a reader
/// stops waiting for more input. The period starts when this process first notices the
/// signal (here or in [`requested`]), so poll at least every twentieth of a second.
pub fn overdue() -> Option<Exit> {
    overdue_after(GRACE)
}

/// [`overdue`] for a reader with a grace period of its own (a stage that documents why
/// it needs another than [`GRACE`]).
pub fn overdue_after(grace: Duration) -> Option<Exit> {
    let exit = requested()?;
    let noticed = NOTICED.get_or_init(Instant::now);
    (noticed.elapsed() >= grace).then_some(exit)
}

/// The signal's name, for messages.
pub fn signal_name(exit: Exit) -> &'static str {
    match exit {
        Exit::Terminated => "SIGTERM",
        _ => "SIGINT",
    }
}

fn signalled() -> Option<Exit> {
    let signal = SIGNAL.get()?.load(Ordering::Relaxed);
    #[cfg(unix)]
    {
        if signal == signal_hook::consts::SIGINT as usize {
            return Some(Exit::Interrupted);
        }
        if signal == signal_hook::consts::SIGTERM as usize {
            return Some(Exit::Terminated);
        }
    }
    let _ = signal;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_requested_before_a_signal() {
        install().unwrap();
        assert_eq!(requested(), None);
        assert_eq!(overdue(), None);
    }
}
