//! CAO's own inter-process locks, taken as CAO 2.5.4 takes them so that a
//! `cao` command and skilltui never interleave their writes:
//!
//! - a file CAO rewrites in place (a Copilot agent file) is guarded by an
//!   exclusive `flock` on `<home>/locks/<first 16 hex digits of the SHA-256
//!   of the file's resolved path>.lock` (`utils/atomic_file.py`,
//!   `_lock_path_for` and `_file_lock`: polled every 50 ms, 10 s at most);
//! - the agent-plugin store's lifecycle (`agent-plugins/.state/.lifecycle.lock`,
//!   polled every 100 ms, 60 s at most) and record (`agent-plugins/.state/.lock`,
//!   waited for) locks (`agent_plugins/store.py`). Lifecycle before record,
//!   never the reverse.
//!
//! A lock file is never deleted: `flock` locks an inode.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// `DEFAULT_LOCK_TIMEOUT_SECONDS` and `_LOCK_POLL_INTERVAL_SECONDS`.
pub const TARGET_TIMEOUT: Duration = Duration::from_secs(10);
const TARGET_POLL: Duration = Duration::from_millis(50);
/// `_LIFECYCLE_LOCK_TIMEOUT_SECONDS` (`cli/commands/skills.py`) and
/// `_LIFECYCLE_POLL_SECONDS`.
pub const LIFECYCLE_TIMEOUT: Duration = Duration::from_secs(60);
const LIFECYCLE_POLL: Duration = Duration::from_millis(100);

/// An exclusive `flock`, held until dropped (closing the file releases it).
#[derive(Debug)]
pub struct Held {
    _file: fs::File,
}

/// The lock file CAO takes before rewriting `target`; `home` is the CAO
/// home's root.
pub fn target_lock_path(home: &Path, target: &Path) -> PathBuf {
    let resolved = resolve_lenient(target);
    let digest = Sha256::digest(resolved.as_os_str().as_encoded_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    home.join("locks").join(format!("{hex}.lock"))
}

/// Waits (up to CAO's 10 s) for CAO's lock on `target`.
pub fn lock_target(home: &Path, target: &Path) -> Result<Held, String> {
    let path = target_lock_path(home, target);
    acquire(&path, 0o600, TARGET_TIMEOUT, TARGET_POLL).map_err(|e| match e {
        Wait::Busy => format!(
            "{} is being rewritten by another process (lock {} held for {} s): retry when it is done",
            target.display(),
            path.display(),
            TARGET_TIMEOUT.as_secs()
        ),
        Wait::Failed(e) => format!("cannot take the lock {}: {e}", path.display()),
    })
}

/// `<home>/agent-plugins/.state`, where CAO keeps plugin records and locks.
pub fn plugin_state_dir(home: &Path) -> PathBuf {
    home.join("agent-plugins").join(".state")
}

/// CAO's agent-plugin lifecycle lock, waited for as `cao skills add
/// --force` waits (60 s), else the refusal CAO gives.
pub fn lock_lifecycle(home: &Path) -> Result<Held, String> {
    let path = plugin_state_dir(home).join(".lifecycle.lock");
    acquire(&path, 0o666, LIFECYCLE_TIMEOUT, LIFECYCLE_POLL).map_err(|e| match e {
        Wait::Busy => "refusing to replace the skill: another agent-plugin operation is in progress; nothing was changed: retry when it finishes".to_string(),
        Wait::Failed(e) => format!("cannot take CAO's agent-plugin lock {}: {e}", path.display()),
    })
}

/// CAO's agent-plugin record lock (`_store_lock`: waited for, no limit).
pub fn lock_records(home: &Path) -> Result<Held, String> {
    let path = plugin_state_dir(home).join(".lock");
    acquire(&path, 0o666, Duration::MAX, LIFECYCLE_POLL).map_err(|e| match e {
        Wait::Busy => format!("{} stayed locked: retry", path.display()),
        Wait::Failed(e) => format!(
            "cannot take CAO's agent-plugin lock {}: {e}",
            path.display()
        ),
    })
}

enum Wait {
    Busy,
    Failed(std::io::Error),
}

/// Opens (creating it with `mode` less the umask, as CAO creates it, its
/// folder 0700) and locks `path`, polling a non-blocking `flock` as CAO
/// does, for at most `limit`.
fn acquire(path: &Path, mode: u32, limit: Duration, poll: Duration) -> Result<Held, Wait> {
    let file = open_lock_file(path, mode).map_err(Wait::Failed)?;
    let deadline = Instant::now().checked_add(limit);
    loop {
        match try_flock(&file) {
            Ok(true) => return Ok(Held { _file: file }),
            Ok(false) if deadline.is_some_and(|d| Instant::now() >= d) => return Err(Wait::Busy),
            Ok(false) => std::thread::sleep(poll),
            Err(e) => return Err(Wait::Failed(e)),
        }
    }
}

#[cfg(unix)]
fn open_lock_file(path: &Path, mode: u32) -> std::io::Result<fs::File> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(mode)
        .open(path)
}

#[cfg(not(unix))]
fn open_lock_file(path: &Path, _mode: u32) -> std::io::Result<fs::File> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
}

/// One `LOCK_EX | LOCK_NB` attempt: `Ok(false)` when another holds it.
#[cfg(unix)]
fn try_flock(file: &fs::File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: the descriptor stays open for the duration of the call.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

/// No `flock`: CAO proceeds unlocked there, and so does skilltui.
#[cfg(not(unix))]
fn try_flock(_file: &fs::File) -> std::io::Result<bool> {
    Ok(true)
}

/// `Path.resolve(strict=False)`: absolute, every existing component's
/// links followed, the missing tail appended as it is.
pub fn resolve_lenient(p: &Path) -> PathBuf {
    let abs = crate::core::fsops::absolute(p);
    if let Ok(real) = fs::canonicalize(&abs) {
        return real;
    }
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => resolve_lenient(parent).join(name),
        _ => abs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_makes_the_next_taker_wait_and_a_dropped_one_frees_it() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let target = tmp.path().join("a.agent.md");
        let held = lock_target(&home, &target).unwrap();
        let path = target_lock_path(&home, &target);
        assert!(path.starts_with(home.join("locks")));
        let other = open_lock_file(&path, 0o600).unwrap();
        assert!(!try_flock(&other).unwrap(), "held by the first");
        drop(held);
        assert!(try_flock(&other).unwrap(), "free once dropped");
        assert!(path.exists(), "a lock file stays");
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_tail_is_appended_to_the_resolved_parent() {
        let tmp = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(tmp.path()).unwrap();
        std::os::unix::fs::symlink(&real, real.join("link")).unwrap();
        assert_eq!(
            resolve_lenient(&real.join("link/nope/x.md")),
            real.join("nope/x.md")
        );
    }
}
