//! How the TUI asks the C allocator to hold less memory: one arena for
//! its threads, and what a burst of work freed handed back to the OS.

/// glibc gives each thread that allocates its own arena (up to 8 per
/// core) and keeps what is freed in each: at 10,000 skills the checks',
/// the audit's and the highlighter's threads left 56 MiB of freed memory
/// held beside 11 MiB in use. One arena peaks at 62 MiB, two at 70, the
/// default at 80 (see the performance page); the TUI's threads rarely
/// allocate at the same moment, so sharing one costs little.
/// `MALLOC_ARENA_MAX`, when set, is the user's choice and stands.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn few_arenas() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: a tuning call made before any other thread starts.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn few_arenas() {}

/// Hands the memory freed after a burst of work (the store's audit)
/// back to the OS: glibc keeps it otherwise.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn give_back_memory() {
    // SAFETY: malloc_trim only releases free memory.
    unsafe { libc::malloc_trim(0) };
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn give_back_memory() {}
