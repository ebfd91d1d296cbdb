//! Cancellation by SIGINT or SIGTERM: a stage notes the signal, finishes the record it is
//! writing, keeps what it already wrote, and exits 130 or 143.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::exit::Exit;

static SIGNAL: std::sync::OnceLock<Arc<AtomicUsize>> = std::sync::OnceLock::new();

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
    }
}
