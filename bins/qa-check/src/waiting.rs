//! Blocking steps run on their own thread and waited for while polling SIGINT/SIGTERM:
//! the shared helper (`qa_records::waiting`), which qa-fetch uses too.

pub use qa_records::waiting::{wait_for, Interrupted, CANCEL_POLL};
