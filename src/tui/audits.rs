//! The store's audit reports, for the Skills pane's marks and the
//! Preview's findings: made on a worker after the first frame (so they cost
//! the first frame and the keys nothing), kept by folder, and made again
//! only for a folder whose files changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::UNIX_EPOCH;

use crate::core::audit::{self, Report, Severity};

/// What a folder's files look like from their metadata: how many entries,
/// their bytes and the newest change. An edit, an added or removed file
/// moves it; reading it costs a walk of metadata, not a read of the files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    entries: u64,
    bytes: u64,
    newest: u128,
}

/// Shared by the App, the panes that draw from it and the worker that
/// fills it; each holds the lock only to look one folder up or to put one
/// report in.
#[derive(Clone, Default)]
pub struct Cache(Arc<Mutex<Inner>>);

#[derive(Default)]
struct Inner {
    by_folder: HashMap<PathBuf, (Stamp, Arc<Report>)>,
    /// The audits were asked for: a folder missing is still being audited.
    started: bool,
}

impl Cache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A worker that panicked mid-insert leaves whole entries only.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The report of the skill folder `folder`, once audited.
    pub fn get(&self, folder: &Path) -> Option<Arc<Report>> {
        self.lock().by_folder.get(folder).map(|(_, r)| r.clone())
    }

    /// The worst severity of each folder asked about (`None`: not audited
    /// yet), under one lock: for the rows of a frame.
    pub fn worst_of<'a>(
        &self,
        folders: impl Iterator<Item = &'a Path>,
    ) -> Vec<Option<Option<Severity>>> {
        let inner = self.lock();
        folders
            .map(|f| inner.by_folder.get(f).map(|(_, r)| r.worst()))
            .collect()
    }

    pub fn started(&self) -> bool {
        self.lock().started
    }

    pub fn start(&self) {
        self.lock().started = true;
    }

    /// Audits each of `folders` whose stamp moved since its report was
    /// made, and forgets the folders no longer listed. Runs on a worker;
    /// returns how many were audited.
    pub fn refresh(&self, folders: &[PathBuf]) -> usize {
        let mut audited = 0;
        for folder in folders {
            let now = stamp(folder);
            let known = self.lock().by_folder.get(folder).map(|(s, _)| *s);
            if known == Some(now) {
                continue;
            }
            let report = Arc::new(audit::scan(folder));
            self.lock().by_folder.insert(folder.clone(), (now, report));
            audited += 1;
        }
        let listed: std::collections::HashSet<&PathBuf> = folders.iter().collect();
        self.lock().by_folder.retain(|f, _| listed.contains(f));
        audited
    }
}

/// Past this many entries a folder's stamp stops counting (the audit
/// itself caps what it reads too).
const STAMP_ENTRIES: u64 = 20_000;

/// The folder's stamp: links are not followed, except the folder itself.
pub fn stamp(folder: &Path) -> Stamp {
    let mut s = Stamp::default();
    // A rename inside moves the folder's own time only.
    let own = std::fs::metadata(folder).and_then(|m| m.modified()).ok();
    let own = own.and_then(|t| t.duration_since(UNIX_EPOCH).ok());
    s.newest = own.map_or(0, |d| d.as_nanos());
    let mut dirs = vec![folder.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            s.entries += 1;
            s.bytes += meta.len();
            let changed = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok());
            s.newest = s.newest.max(changed.map_or(0, |d| d.as_nanos()));
            if meta.is_dir() {
                dirs.push(entry.path());
            }
            if s.entries >= STAMP_ENTRIES {
                return s;
            }
        }
    }
    s
}
