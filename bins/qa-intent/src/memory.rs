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
