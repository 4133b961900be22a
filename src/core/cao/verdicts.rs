//! The verdicts of the last store listing, kept by each SKILL.md's identity
//! so that a listing again (the TUI's `r`, a file watch event, a toggle's
//! Copilot refresh, the discovery worker) re-stats a skill that did not
//! change instead of reading and parsing it again: at 10,000 skills a
//! listing reads 154 MiB. CAO's verdict stays exact: anything that changes
//! the file (its bytes, its mode, a rename over it, a link retargeted)
//! changes one of dev, inode, size, mtime or ctime.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::core::cao::skill::Checked;

/// What identifies one version of a SKILL.md (through links, as it is
/// opened): its inode, size, and both times to the nanosecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// A file changed this recently may change again within the same clock
/// tick (a file system's timestamps move in steps of a few ms) with the
/// same size, and its stamp would not show it: its verdict is not kept
/// (git's "racily clean" rule).
const SETTLED: Duration = Duration::from_secs(2);

impl Stamp {
    /// The stamp of a regular file that has settled, else `None` (absent,
    /// not a regular file, or changed within [`SETTLED`]).
    pub fn of(skill_md: &Path) -> Option<Stamp> {
        let m = fs::metadata(skill_md).ok().filter(|m| m.is_file())?;
        let newest = m.modified().ok()?.max(changed(&m));
        let settled = SystemTime::now().checked_sub(SETTLED)?;
        (newest < settled).then_some(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }
}

/// The inode's change time (`st_ctime`) to the nanosecond; the epoch
/// for one before it.
fn changed(m: &fs::Metadata) -> SystemTime {
    let (s, ns) = (m.ctime(), m.ctime_nsec());
    match (u64::try_from(s), u32::try_from(ns)) {
        (Ok(s), Ok(ns)) => SystemTime::UNIX_EPOCH + Duration::new(s, ns),
        _ => SystemTime::UNIX_EPOCH,
    }
}

/// Skill folder -> the stamp its SKILL.md had and the verdict read then.
pub type Verdicts = HashMap<PathBuf, (Stamp, Checked)>;

/// The last listing's verdicts (without lints) in one home, shared by its
/// clones (the TUI's UI thread and its workers: agent discovery lists the
/// store too, at each reload). Each listing reads the last one kept and
/// keeps what it saw; two at once both read the same kept verdicts, and
/// the one that ends last is kept.
#[derive(Debug, Default)]
pub struct Kept(Mutex<Arc<Verdicts>>);

impl Kept {
    /// The verdicts the last listing kept.
    pub fn get(&self) -> Arc<Verdicts> {
        Arc::clone(&self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// What one listing saw, kept for the next.
    pub fn keep(&self, seen: Verdicts) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(seen);
    }
}

/// The kept verdict for `folder` if its SKILL.md still has `stamp`.
pub fn lookup<'a>(kept: &'a Verdicts, folder: &Path, stamp: Option<Stamp>) -> Option<&'a Checked> {
    let (was, checked) = kept.get(folder)?;
    (Some(*was) == stamp).then_some(checked)
}
