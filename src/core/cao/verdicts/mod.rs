//! The verdicts of the last store listing, kept by each SKILL.md's identity
//! so that a listing again (the TUI's `r`, a file watch event, a toggle's
//! Copilot refresh, the discovery worker) re-stats a skill that did not
//! change instead of reading and parsing it again: at 10,000 skills a
//! listing reads 154 MiB. CAO's verdict stays exact: anything that changes
//! the file (its bytes, its mode, a rename over it, a link retargeted)
//! changes one of dev, inode, size, mtime or ctime.
//!
//! The TUI also keeps them on disk between runs ([`file`]), so that it
//! starts without reading the files that did not change since.

pub mod file;

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
        Stamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
        .settled()
    }

    /// [`Stamp::of`] for `<folder>/SKILL.md` in the open dir `dir`: the
    /// kernel walks two names instead of the whole path, a fifth of a
    /// listing's time at 10,000 skills. `None` as for [`Stamp::of`].
    pub fn in_dir(dir: &fs::File, folder: &str) -> Option<Stamp> {
        use std::os::fd::AsRawFd;
        const MD: &[u8] = b"/SKILL.md\0";
        let mut rel = [0u8; 512];
        let name = folder.as_bytes();
        if name.contains(&0) || name.len() + MD.len() > rel.len() {
            return None;
        }
        rel[..name.len()].copy_from_slice(name);
        rel[name.len()..name.len() + MD.len()].copy_from_slice(MD);
        // SAFETY: `st` is a plain struct for fstatat to fill; `rel` holds
        // a NUL-terminated name; `dir` is an open fd for the call.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::fstatat(dir.as_raw_fd(), rel.as_ptr().cast(), &mut st, 0) };
        (rc == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG).then_some(())?;
        Stamp {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            size: st.st_size as u64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime as i64, st.st_ctime_nsec as i64),
        }
        .settled()
    }

    /// This stamp if its file has not changed within [`SETTLED`].
    fn settled(self) -> Option<Stamp> {
        let newest = time(self.mtime).max(time(self.ctime));
        let settled = SystemTime::now().checked_sub(SETTLED)?;
        (newest < settled).then_some(self)
    }
}

/// A file time (seconds, nanoseconds) as a `SystemTime`; the epoch for
/// one before it.
fn time((s, ns): (i64, i64)) -> SystemTime {
    match (u64::try_from(s), u32::try_from(ns)) {
        (Ok(s), Ok(ns)) => SystemTime::UNIX_EPOCH + Duration::new(s, ns),
        _ => SystemTime::UNIX_EPOCH,
    }
}

/// Skill folder -> the stamp its SKILL.md had and the verdict read then
/// (without its `path`, which is the key: [`pathless`]).
pub type Verdicts = HashMap<PathBuf, (Stamp, Checked), foldhash::fast::RandomState>;

/// The last listing's verdicts (without lints) in one home, shared by its
/// clones (the TUI's UI thread and its workers: agent discovery lists the
/// store too, at each reload). Each listing reads the last one kept and
/// keeps what it saw; two at once both read the same kept verdicts, and
/// the one that ends last is kept.
#[derive(Debug, Default)]
pub struct Kept {
    last: Mutex<Arc<Verdicts>>,
    /// The file's verdicts being read on a thread of their own (from
    /// [`Kept::on_disk`] to the first [`Kept::get`]), while the listing
    /// that needs them reads the store's folders.
    reading: Mutex<Option<std::thread::JoinHandle<Verdicts>>>,
    /// Where they are also kept between runs, once asked (the TUI).
    disk: Mutex<Option<Arc<file::Saver>>>,
}

impl Kept {
    /// The verdicts the last listing kept.
    pub fn get(&self) -> Arc<Verdicts> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let reading = self
            .reading
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(read) = reading.and_then(|r| r.join().ok()) {
            *last = Arc::new(read);
        }
        Arc::clone(&last)
    }

    /// The verdicts the last listing kept when they are at hand without
    /// waiting; `None` while the file's are still being read (the TUI's
    /// first frame is drawn without them then, from the folder names).
    pub fn ready(&self) -> Option<Arc<Verdicts>> {
        let reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        if reading.as_ref().is_some_and(|r| !r.is_finished()) {
            return None;
        }
        drop(reading);
        Some(self.get())
    }

    /// What one listing saw, kept for the next (and, on a worker, saved
    /// to disk when [`Kept::on_disk`] asked for it). A listing that found
    /// everything as it was keeps the same `Arc`: nothing to save.
    pub fn keep(&self, seen: Arc<Verdicts>) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::ptr_eq(&last, &seen) {
            return;
        }
        *last = Arc::clone(&seen);
        drop(last);
        if let Some(saver) = self.disk.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            saver.save(seen);
        }
    }

    /// From now on the verdicts are also kept in `path` between runs,
    /// starting with those it holds now (none when it is absent, corrupt,
    /// or written by another build of skilltui).
    pub fn on_disk(&self, path: PathBuf) {
        let from = path.clone();
        let reading = std::thread::spawn(move || file::read(&from));
        *self.reading.lock().unwrap_or_else(|e| e.into_inner()) = Some(reading);
        *self.disk.lock().unwrap_or_else(|e| e.into_inner()) = Some(file::Saver::new(path));
    }

    /// Waits for the verdicts handed to the disk to be written (tests,
    /// benches; the TUI never waits).
    pub fn flush(&self) {
        let saver = self.disk.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(saver) = saver {
            saver.wait();
        }
    }
}

/// `c` as kept: its path left empty (no allocation; the key holds it).
pub fn pathless(c: &Checked) -> Checked {
    Checked {
        path: PathBuf::new(),
        name: c.name.clone(),
        description: c.description.clone(),
        errors: c.errors.clone(),
        warnings: c.warnings.clone(),
        body_bytes: c.body_bytes,
    }
}

/// The kept verdict for `folder` if its SKILL.md still has `stamp`; its
/// `path` is empty (see [`pathless`]).
pub fn lookup<'a>(kept: &'a Verdicts, folder: &Path, stamp: Option<Stamp>) -> Option<&'a Checked> {
    let (was, checked) = kept.get(folder)?;
    (Some(*was) == stamp).then_some(checked)
}
