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

/// Staging folders a command is writing in a place agents or teammates
/// see (a project's `.agents`): the signal handler removes them before it
/// ends skilltui, as it removes git's scratch folders.
static HELD: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A staging folder registered with [`hold`]; dropping it unregisters it
/// (the folder itself is the staging's own to remove).
#[must_use]
pub struct Held(std::path::PathBuf);

impl Drop for Held {
    fn drop(&mut self) {
        if let Ok(mut held) = HELD.lock()
            && let Some(at) = held.iter().position(|p| *p == self.0)
        {
            held.remove(at);
        }
    }
}

/// Marks the command as writing where a kill would leave a mess (before
/// it has a staging folder to name): a signal then asks it to stop and
/// waits for it to undo its work, as [`hold`] does, but removes nothing.
pub fn busy() -> Held {
    hold(std::path::Path::new(""))
}

/// Registers `folder` for removal should a signal end skilltui.
pub fn hold(folder: &std::path::Path) -> Held {
    if let Ok(mut held) = HELD.lock() {
        held.push(folder.to_path_buf());
    }
    Held(folder.to_path_buf())
}

/// Removes every held folder: for a signal handler about to end
/// skilltui. A copy still writing into one may refill it, so each is
/// tried a few times.
pub fn remove_held() {
    let folders = HELD.lock().map(|h| h.clone()).unwrap_or_default();
    for folder in folders.iter().filter(|f| !f.as_os_str().is_empty()) {
        for _ in 0..20 {
            if std::fs::symlink_metadata(folder).is_err() {
                break;
            }
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

/// True while a staging folder is held: the signal handler then asks the
/// command to stop and lets it unwind, rather than end it mid-copy.
pub fn holds_any() -> bool {
    HELD.lock().is_ok_and(|h| !h.is_empty())
}

/// Runs `install` (the rename that puts a finished copy in place) unless
/// a signal asked to stop. It runs under the held list's lock, so the
/// handler never removes a staging folder as it is renamed in.
pub fn unless_interrupted<T>(install: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let _held = HELD.lock();
    if interrupted() {
        return Err("stopped by a signal: nothing was kept".into());
    }
    install()
}
