//! What the TUI and `serve` watch for changes: the dirs whose entries CAO
//! reads, each watched on its own, and the watcher that runs notify over
//! them. Nothing is watched recursively, so a symlink in the store (to
//! `/`, say) never drags the rest of the disk in.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::Agent;
use crate::core::cao::profile;
use crate::core::cao::store::{self, Home};

/// Folders watched per search dir, at most: inotify watches are a limited,
/// per-user resource.
pub const MAX_FOLDERS_PER_DIR: usize = 4096;

/// The dirs to watch, none recursively: each search dir (store, extra dirs)
/// and each folder in it, where CAO reads SKILL.md; each profile dir and
/// each folder in it (`<name>/agent.md`); for a dir that does not exist
/// yet, its parent, so its creation is seen; and the home (settings.json),
/// or its nearest existing ancestor. Only reads the disk.
pub fn watch_set(home: &Home) -> Vec<PathBuf> {
    let mut dirs = home.skill_search_dirs();
    dirs.extend(profile::search_dirs(home).into_iter().map(|(d, _)| d));
    let mut out = Vec::new();
    for dir in dirs {
        if dir.is_dir() {
            out.extend(folders_in(&dir));
            out.push(dir);
        } else if let Some(parent) = dir.parent().filter(|p| p.is_dir()) {
            out.push(parent.to_path_buf());
        }
    }
    out.extend(
        home.root
            .ancestors()
            .find(|a| a.is_dir())
            .map(Path::to_path_buf),
    );
    out.sort();
    out.dedup();
    out
}

/// The dirs to watch for the given (detected) agents, none recursively:
/// each location dir that exists and each folder in it, where the agent
/// reads SKILL.md. A location that does not exist is not watched: `r`
/// reads it once made. Only reads the disk.
pub fn agent_watch_set(agents: &[Agent], ctx: &Ctx) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for agent in agents {
        for place in scan::places(agent, ctx) {
            if place.builtin || !place.exists {
                continue;
            }
            out.extend(folders_in(&place.path));
            out.push(place.path);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Subfolders, a symlinked one included (watching it watches the one
/// folder it points to, nothing below).
fn folders_in(dir: &Path) -> Vec<PathBuf> {
    store::subfolders(dir)
        .unwrap_or_default()
        .into_iter()
        .take(MAX_FOLDERS_PER_DIR)
        .map(|name| dir.join(name))
        .collect()
}

/// How long notify gathers events before one change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// Runs notify over a set of dirs (none recursively) and calls `on_change`
/// after each burst of changes. Re-targeting runs on a thread of its own,
/// so registering thousands of watches never delays the caller.
pub struct Watcher {
    on_change: Arc<dyn Fn() + Send + Sync>,
    state: Arc<Mutex<Watching>>,
}

type Watching = (
    Option<Debouncer<RecommendedWatcher, RecommendedCache>>,
    Vec<PathBuf>,
);

impl Watcher {
    pub fn new(on_change: impl Fn() + Send + Sync + 'static) -> Watcher {
        Watcher {
            on_change: Arc::new(on_change),
            state: Arc::new(Mutex::new((None, Vec::new()))),
        }
    }

    /// (Re)starts watching what `targets` returns (called on the thread)
    /// when that differs from what is watched now. After a restart
    /// `on_change` is called once: what changed between the caller's last
    /// read and these watches is seen by no watch (the same set next time,
    /// so no loop).
    pub fn follow(&self, targets: impl FnOnce() -> Vec<PathBuf> + Send + 'static) {
        let on_change = self.on_change.clone();
        self.follow_then(targets, move || on_change());
    }

    /// [`Watcher::follow`], with `restarted` called after a restart
    /// instead of `on_change`: a caller that will read everything again
    /// anyway (the TUI checking its first listing) tells it from a change.
    pub fn follow_then(
        &self,
        targets: impl FnOnce() -> Vec<PathBuf> + Send + 'static,
        restarted: impl FnOnce() + Send + 'static,
    ) {
        let (on_change, state) = (self.on_change.clone(), self.state.clone());
        std::thread::spawn(move || {
            let mut targets = targets();
            targets.sort();
            targets.dedup();
            let Ok(mut state) = state.lock() else { return };
            if state.0.is_some() && targets == state.1 {
                return;
            }
            let notify = on_change.clone();
            let Ok(mut debouncer) = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
                if r.is_ok_and(|events| events.iter().any(|e| is_change(&e.kind))) {
                    notify();
                }
            }) else {
                return;
            };
            for dir in &targets {
                let _ = debouncer.watch(dir, RecursiveMode::NonRecursive);
            }
            *state = (Some(debouncer), targets);
            drop(state);
            restarted();
        });
    }
}

/// True for an event that can change what skilltui shows. Opening or
/// reading a file is not one: a reload reads every SKILL.md, so counting
/// those would reload forever.
pub fn is_change(kind: &EventKind) -> bool {
    // `Other` stays a change: notify reports a lost-events rescan so.
    !matches!(kind, EventKind::Access(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify_debouncer_full::notify::event::{
        AccessKind, AccessMode, CreateKind, DataChange, ModifyKind, RemoveKind,
    };
    use std::fs;

    #[test]
    fn reading_files_is_not_a_change_but_writing_them_is() {
        assert!(!is_change(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!is_change(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(is_change(&EventKind::Create(CreateKind::Folder)));
        assert!(is_change(&EventKind::Modify(ModifyKind::Data(
            DataChange::Content
        ))));
        assert!(is_change(&EventKind::Remove(RemoveKind::File)));
        assert!(is_change(&EventKind::Any));
        assert!(is_change(&EventKind::Other));
    }

    #[test]
    fn a_file_made_in_a_watched_dir_is_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let tx = Mutex::new(tx);
        let watcher = Watcher::new(move || {
            let _ = tx.lock().unwrap().send(());
        });
        let dir = tmp.path().to_path_buf();
        watcher.follow(move || vec![dir]);
        // The first call says the watches are set.
        rx.recv_timeout(Duration::from_secs(30)).unwrap();
        fs::write(tmp.path().join("new"), "x").unwrap();
        rx.recv_timeout(Duration::from_secs(30)).unwrap();
    }

    #[test]
    fn a_store_link_to_the_root_adds_one_folder_not_the_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().join("home"), tmp.path().to_path_buf());
        let store = home.skills_dir();
        fs::create_dir_all(store.join("a/references/deep")).unwrap();
        fs::create_dir_all(home.agent_store().join("agent-dir")).unwrap();
        std::os::unix::fs::symlink("/", store.join("root-link")).unwrap();
        let set = watch_set(&home);
        let expected: Vec<PathBuf> = vec![
            home.root.clone(),
            home.agent_store(),
            home.agent_store().join("agent-dir"),
            store.clone(),
            store.join("a"),
            store.join("root-link"),
        ];
        let mut got: Vec<PathBuf> = set
            .into_iter()
            .filter(|p| p.starts_with(tmp.path()))
            .collect();
        got.sort();
        let mut expected = expected;
        expected.sort();
        assert_eq!(got, expected);
    }

    #[test]
    fn an_agent_is_watched_in_its_existing_locations_and_their_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let user = tmp.path().join("user");
        let home = Home::at(tmp.path().join("h"), user.clone());
        let table = crate::core::agents::table::load(None);
        let amp = table.find("amp").unwrap().clone();
        let skills = user.join(".config/agents/skills");
        fs::create_dir_all(skills.join("one/deeper")).unwrap();
        std::os::unix::fs::symlink("/", skills.join("root-link")).unwrap();
        let ctx = Ctx {
            user_home: user.clone(),
            cwd: user.clone(),
            env: Default::default(),
            cao: Some(home),
        };
        let set = agent_watch_set(&[amp], &ctx);
        let mut expected = vec![skills.clone(), skills.join("one"), skills.join("root-link")];
        expected.sort();
        assert_eq!(set, expected);
    }

    #[test]
    fn missing_dirs_are_watched_through_their_parent() {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().join("home"), tmp.path().to_path_buf());
        fs::create_dir_all(&home.root).unwrap();
        let set = watch_set(&home);
        assert!(set.contains(&home.root), "{set:?}");
        assert!(!set.contains(&home.skills_dir()));
    }
}
