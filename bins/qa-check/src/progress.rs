//! Live progress on stderr (`qa-check: 3/10 checks`), only when stderr is a terminal:
//! stdout carries records only, and a log file gets no carriage returns.

use std::io::{IsTerminal, Write};

/// Checks done out of the plan's total.
pub struct Progress {
    total: usize,
    done: usize,
    shown: bool,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            shown: total > 0 && std::io::stderr().is_terminal(),
        }
    }

    /// One more check is done.
    pub fn tick(&mut self) {
        self.done += 1;
        if self.shown {
            let mut err = std::io::stderr().lock();
            // Progress is a courtesy: a closed stderr must not stop the checks.
            let _ = write!(err, "\rqa-check: {}/{} checks", self.done, self.total);
            let _ = err.flush();
        }
    }

    /// Ends the progress line.
    pub fn finish(self) {
        if self.shown {
            let _ = writeln!(std::io::stderr());
        }
    }
}
