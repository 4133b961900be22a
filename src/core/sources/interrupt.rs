//! Ctrl-C as a request to stop: the faces' signal handlers set it, and
//! every fetch (git's and HTTP's) polls it beside its own cancel flag, so
//! the command unwinds and its scratch folders are removed on the way out.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked to stop (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Asks every running and later fetch to stop, because of `signal`.
pub fn interrupt(signal: i32) {
    SIGNAL.store(signal.max(1), Ordering::SeqCst);
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    signal().is_some()
}

/// The signal [`interrupt`] was called for.
pub fn signal() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|s| *s != 0)
}
