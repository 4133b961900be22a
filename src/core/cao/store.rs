//! The CAO home: where things live (`--home`, `CAO_HOME_DIR`,
//! `settings.json`), the skill store and extra dirs as CAO lists and
//! resolves them (CAO 2.5.4 `utils/skills.py`: the store, then the extra
//! dirs; the first valid copy wins), and the store operations add, remove
//! and seed (`cao skills add`, `cao skills remove`, `cao init`), done
//! atomically.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};
use serde_json::Value as Json;

use crate::core::audit;
use crate::core::cao::skill::{self, Checked};
use crate::core::cao::{installed, locks, plugins, verdicts};
use crate::core::fsops;
use crate::core::text::py_strip;

/// The default skills we ship, embedded so `cargo install` builds seed too.
pub static DEFAULT_SKILLS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/skills");

/// A CAO home directory and the settings read from it.
#[derive(Clone, Debug)]
pub struct Home {
    pub root: PathBuf,
    /// The user's home (`$HOME`), for `~/.kiro/agents`.
    pub user_home: PathBuf,
    pub settings: Json,
    /// `--cao`, and the CAO install found from it (with whether it was
    /// chosen by `--cao` or `$SKILLTUI_CAO`), looked up once on first use
    /// and shared by every clone.
    cao_flag: Option<PathBuf>,
    cao: std::sync::Arc<std::sync::OnceLock<(Result<installed::Install, String>, bool)>>,
    /// The last listing's verdicts, for the next (shared by every clone).
    pub verdicts: std::sync::Arc<verdicts::Kept>,
}

impl Home {
    /// `--home`, else `CAO_HOME_DIR` (stripped; empty means unset), else
    /// `$HOME/.aws/cli-agent-orchestrator`.
    pub fn locate(flag: Option<&Path>) -> Home {
        let user_home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/"));
        let env = std::env::var("CAO_HOME_DIR").ok();
        let env = env.as_deref().map(py_strip).filter(|s| !s.is_empty());
        let root = match (flag, env) {
            (Some(p), _) => fsops::absolute(&expand_user(p, &user_home)),
            (None, Some(e)) => fsops::absolute(&expand_user(Path::new(e), &user_home)),
            (None, None) => Home::default_root(&user_home),
        };
        Home::at(root, user_home)
    }

    /// Where the home is when neither `--home` nor `CAO_HOME_DIR` names one.
    pub fn default_root(user_home: &Path) -> PathBuf {
        user_home.join(".aws").join("cli-agent-orchestrator")
    }

    /// Whether this is the home a CAO started without `--home` or
    /// `CAO_HOME_DIR` would use.
    pub fn is_default(&self) -> bool {
        self.root == Home::default_root(&self.user_home)
    }

    pub fn at(root: PathBuf, user_home: PathBuf) -> Home {
        let settings = read_settings(&root.join("settings.json"));
        Home {
            root,
            user_home,
            settings,
            cao_flag: None,
            cao: Default::default(),
            verdicts: Default::default(),
        }
    }

    /// From now on the verdicts of each listing are also kept on disk
    /// between runs, in the user's cache dir (the TUI: it starts by
    /// re-stating the store instead of reading it).
    pub fn keep_verdicts_on_disk(&self) {
        if let Some(path) = verdicts::file::path_for(&self.root, &self.user_home) {
            self.verdicts.on_disk(path);
        }
    }

    /// The same home with CAO taken from `--cao DIR` (when given).
    pub fn with_cao(mut self, flag: Option<&Path>) -> Home {
        self.cao_flag = flag.map(Path::to_path_buf);
        self.cao = Default::default();
        self
    }

    /// The user's installed CAO, or why none was found.
    pub fn cao(&self) -> Result<&installed::Install, &str> {
        self.cao_lookup().0.as_ref().map_err(String::as_str)
    }

    /// Why the CAO the user named (`--cao`, `$SKILLTUI_CAO`) is not one;
    /// `None` when it is, or when none was named and the search found none.
    pub fn named_cao_error(&self) -> Option<&str> {
        match self.cao_lookup() {
            (Err(why), true) => Some(why),
            _ => None,
        }
    }

    fn cao_lookup(&self) -> &(Result<installed::Install, String>, bool) {
        self.cao.get_or_init(|| {
            let search = installed::Search::from_env(self.cao_flag.as_deref(), &self.user_home);
            (search.find(), search.flag.is_some() || search.env.is_some())
        })
    }

    pub fn skills_dir(&self) -> PathBuf {
        self.root.join("skills")
    }

    pub fn agent_store(&self) -> PathBuf {
        self.root.join("agent-store")
    }

    pub fn agent_context(&self) -> PathBuf {
        self.root.join("agent-context")
    }

    /// The skill store, then each extra skill dir, in CAO's order.
    pub fn skill_search_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.skills_dir()];
        dirs.extend(self.extra_skill_dirs().into_iter().map(PathBuf::from));
        dirs
    }

    /// `skills.extra_dirs`, else legacy `extra_skill_dirs`: strings only,
    /// stripped, empty ones dropped. CAO neither expands `~` nor anchors a
    /// relative entry anywhere but the working directory, and nor do we.
    pub fn extra_skill_dirs(&self) -> Vec<String> {
        string_list(nested_list(
            &self.settings,
            "skills",
            "extra_dirs",
            "extra_skill_dirs",
        ))
    }

    /// Re-reads settings.json (the TUI calls this when it changes).
    pub fn reload_settings(&mut self) {
        self.settings = read_settings(&self.root.join("settings.json"));
    }
}

/// `~` expansion as Python's `expanduser` does it for `~` and `~/...`.
pub fn expand_user(p: &Path, user_home: &Path) -> PathBuf {
    match p.strip_prefix("~") {
        Ok(rest) => user_home.join(rest),
        Err(_) => p.to_path_buf(),
    }
}

/// A settings file is a few hundred bytes; one past this (a sparse
/// gigabyte) is not read, so it costs every command nothing.
const MAX_SETTINGS: u64 = 16 << 20;

/// Unreadable, oversized or non-object JSON means "no settings".
fn read_settings(path: &Path) -> Json {
    crate::core::fsops::read_capped(path, MAX_SETTINGS)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| crate::core::parse::pyjson::parse(&s).ok())
        .map(|j| crate::core::parse::pyjson::to_serde(&j))
        .filter(Json::is_object)
        .unwrap_or_else(|| Json::Object(Default::default()))
}

/// `settings[section][key]` when that is a list, else `settings[legacy]`.
pub fn nested_list<'a>(
    settings: &'a Json,
    section: &str,
    key: &str,
    legacy: &str,
) -> Option<&'a Json> {
    let nested = settings
        .get(section)
        .filter(|s| s.is_object())
        .and_then(|s| s.get(key));
    match nested {
        Some(v) if v.is_array() => Some(v),
        _ => settings.get(legacy),
    }
}

fn string_list(v: Option<&Json>) -> Vec<String> {
    let Some(Json::Array(items)) = v else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(Json::as_str)
        .map(py_strip)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// CAO's name check for any lookup by name: no file is touched before it.
pub fn check_name(name: &str) -> Result<String, String> {
    let stripped = py_strip(name);
    if stripped.is_empty() {
        return Err("the skill name is empty: give the name of an installed skill".into());
    }
    if stripped.contains('/') || stripped.contains('\\') || stripped.contains("..") {
        return Err(format!(
            "invalid skill name '{name}': a name must not contain '/', '\\' or '..'"
        ));
    }
    Ok(stripped.to_string())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Invalid,
    Shadowed,
}

/// One candidate folder: a subfolder of a search dir that holds SKILL.md.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub folder: String,
    pub source_dir: PathBuf,
    pub status: Status,
    pub checked: Checked,
    /// Its verdict was read, or re-stated, since the TUI started; `false`
    /// only in the TUI's first listing (`core::cao::checking`), drawn
    /// before any SKILL.md is read.
    pub confirmed: bool,
}

impl Entry {
    /// The name shown for the entry: the skill's name when valid.
    pub fn name(&self) -> &str {
        self.checked
            .name
            .as_deref()
            .filter(|_| self.status != Status::Invalid)
            .unwrap_or(&self.folder)
    }

    pub fn description(&self) -> &str {
        self.checked.description.as_deref().unwrap_or("")
    }
}

/// Every candidate of every search dir, sorted by name then search order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    pub entries: Vec<Entry>,
    /// Search dirs that exist but could not be read, with the OS error.
    pub problems: Vec<String>,
    /// The store's skills an agent plugin owns, by folder path -> plugin
    /// (`cao skills remove` refuses them; see `plugins`).
    pub plugins: HashMap<PathBuf, String>,
    /// The store's folders that are not skills (no SKILL.md, or a name
    /// that is not UTF-8), sorted: where Kiro's `**` globs look deeper.
    pub not_skills: Vec<PathBuf>,
    /// How many entries' verdicts are not yet confirmed (0 but in the
    /// TUI's first listing): nothing computed from them is shown as sure.
    pub unconfirmed: usize,
}

impl Listing {
    /// What CAO's `list_skills()` returns: the winning valid skills.
    pub fn valid(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.status == Status::Ok)
    }

    pub fn find_valid(&self, name: &str) -> Option<&Entry> {
        self.valid().find(|e| e.folder == name)
    }

    /// `": did you mean NAME?"` for a skill name that is not found here.
    pub fn did_you_mean(&self, typed: &str) -> String {
        crate::core::suggest::did_you_mean(typed, self.valid().map(|e| e.folder.as_str()))
    }

    /// Every verdict is confirmed: what is computed from them may be shown.
    pub fn confirmed(&self) -> bool {
        self.unconfirmed == 0
    }

    /// The agent plugin that owns `e`, when one does.
    pub fn plugin(&self, e: &Entry) -> Option<&str> {
        self.plugins.get(&e.checked.path).map(String::as_str)
    }
}

/// Lists the store and extra dirs; `lint` adds the spec lints (slower: it
/// walks each folder).
pub fn list(home: &Home, lint: bool) -> Listing {
    let found = candidates(home);
    let checked = match lint {
        true => check_all(&found.folders, &|d, f| {
            skill::check_candidate(&d.join(f), true)
        }),
        false => check_all_kept(&found.folders, &home.verdicts),
    };
    assemble(&home.root, &found, checked.into_iter().map(|c| (c, true)))
}

/// Every search dir's candidate folders, in search order, none checked.
#[derive(Debug, Default)]
pub(crate) struct Candidates {
    pub(crate) folders: Vec<(PathBuf, String)>,
    pub(crate) problems: Vec<String>,
    /// The store's folders whose name is not UTF-8.
    pub(crate) odd: Vec<PathBuf>,
    pub(crate) store: PathBuf,
}

/// The search dirs read (names only: no SKILL.md is opened).
pub(crate) fn candidates(home: &Home) -> Candidates {
    let mut found = Candidates {
        store: home.skills_dir(),
        ..Candidates::default()
    };
    for dir in home.skill_search_dirs() {
        match folders_in(&dir) {
            Ok((names, odd)) => {
                if dir == found.store {
                    found.odd.extend(odd.into_iter().map(|f| dir.join(f)));
                }
                found
                    .folders
                    .extend(names.into_iter().map(|f| (dir.clone(), f)));
            }
            Err(e) => found.problems.push(e),
        }
    }
    found
}

/// The listing of `found` with one verdict per folder, in order, and
/// whether it is confirmed (a verdict not yet confirmed is the one kept
/// from before, or a guess from the folder's name: see `checking`). The
/// first valid folder of a name wins, in search order.
pub(crate) fn assemble(
    root: &Path,
    found: &Candidates,
    verdicts: impl Iterator<Item = (Option<Checked>, bool)>,
) -> Listing {
    assemble_at(root, found, verdicts).0
}

/// [`assemble`], and for each entry the position of its folder in
/// `found` (the checks update the first listing in place by it).
pub(crate) fn assemble_at(
    root: &Path,
    found: &Candidates,
    verdicts: impl Iterator<Item = (Option<Checked>, bool)>,
) -> (Listing, Vec<usize>) {
    let verdicts: Vec<(Option<Checked>, bool)> = verdicts.collect();
    let folders = &found.folders;
    let mut seen =
        HashSet::with_capacity_and_hasher(folders.len(), foldhash::fast::RandomState::default());
    let statuses: Vec<Status> = (folders.iter().zip(&verdicts))
        .map(
            |((_, folder), (c, _))| match c.as_ref().is_some_and(Checked::is_valid) {
                false => Status::Invalid,
                true if seen.insert(folder.as_str()) => Status::Ok,
                true => Status::Shadowed,
            },
        )
        .collect();
    drop(seen);
    let mut not_skills = found.odd.clone();
    let mut entries = Vec::with_capacity(folders.len());
    let mut unconfirmed = 0;
    for (i, (((dir, folder), (checked, confirmed)), status)) in
        folders.iter().zip(verdicts).zip(statuses).enumerate()
    {
        match checked {
            Some(checked) => {
                unconfirmed += usize::from(!confirmed);
                let entry = Entry {
                    folder: folder.clone(),
                    source_dir: dir.clone(),
                    status,
                    checked,
                    confirmed,
                };
                entries.push((entry, i));
            }
            None if *dir == found.store => not_skills.push(dir.join(folder)),
            None => {}
        }
    }
    // Stable: equal names keep search order.
    entries.sort_by(|(a, _), (b, _)| a.name().cmp(b.name()));
    let (entries, origin): (Vec<Entry>, Vec<usize>) = entries.into_iter().unzip();
    // Once each: settings may list the store again as an extra dir.
    not_skills.sort();
    not_skills.dedup();
    let store = &found.store;
    let in_store = entries.iter().filter(|e| e.source_dir == *store);
    let plugins = plugins::owners(root, in_store.map(|e| e.folder.as_str()))
        .into_iter()
        .map(|(folder, plugin)| (store.join(folder), plugin))
        .collect();
    let listing = Listing {
        entries,
        problems: found.problems.clone(),
        plugins,
        not_skills,
        unconfirmed,
    };
    (listing, origin)
}

/// Immediate subfolders (following symlinks), sorted; whether each holds a
/// SKILL.md is decided when it is checked. A missing dir has none; one that
/// cannot be read is an error.
pub(crate) fn subfolders(dir: &Path) -> Result<Vec<String>, String> {
    folders_in(dir).map(|(names, _)| names)
}

/// [`subfolders`], and apart those whose name is not UTF-8 (CAO's
/// listing skips them; Kiro's globs do not).
fn folders_in(dir: &Path) -> Result<(Vec<String>, Vec<std::ffi::OsString>), String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let (mut names, mut odd) = (Vec::new(), Vec::new());
    let is_folder = |e: &fs::DirEntry| match e.file_type() {
        Ok(t) if t.is_dir() => true,
        Ok(t) if t.is_symlink() => fs::metadata(e.path()).is_ok_and(|m| m.is_dir()),
        _ => false,
    };
    for e in entries.flatten().filter(is_folder) {
        match e.file_name().into_string() {
            Ok(name) => names.push(name),
            Err(name) => odd.push(name),
        }
    }
    names.sort();
    Ok((names, odd))
}

type Check<'a> = dyn Fn(&Path, &str) -> Option<Checked> + Sync + 'a;

/// Checks folders on all cores (a large store is mostly file reads), one
/// verdict per folder in order: a check that panics marks its own folder
/// invalid, never shifts the verdicts of the others.
fn check_all(folders: &[(PathBuf, String)], check: &Check<'_>) -> Vec<Option<Checked>> {
    par_map(folders, |(d, f)| check_caught(check, d, f))
}

/// `each` over `items` on all cores, the results in order. Threads take
/// small batches as they go, so one that the OS holds back (a busy
/// machine, a slow disk) does not leave the others idle at the end.
pub(crate) fn par_map<I: Sync, T: Send>(items: &[I], each: impl Fn(&I) -> T + Sync) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const BATCH: usize = 32;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if items.len() < 64 || threads == 1 {
        return items.iter().map(each).collect();
    }
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(BATCH, Ordering::Relaxed);
            let Some(batch) = items.get(start..(start + BATCH).min(items.len())) else {
                return done;
            };
            done.push((start, batch.iter().map(&each).collect::<Vec<_>>()));
        }
    };
    let mut batches: Vec<(usize, Vec<T>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("each catches its panics"))
            .collect()
    });
    batches.sort_unstable_by_key(|(start, _)| *start);
    batches.into_iter().flat_map(|(_, b)| b).collect()
}

/// One folder's verdict in a listing that keeps verdicts: its SKILL.md's
/// stamp (`None`: not kept), and whether the verdict was the kept one.
#[derive(Clone, Debug)]
pub(crate) struct Looked {
    pub(crate) checked: Option<Checked>,
    pub(crate) stamp: Option<verdicts::Stamp>,
    pub(crate) kept: bool,
}

/// The search dirs of `folders`, each opened once for stamps relative to it.
pub(crate) type OpenDirs = Vec<(PathBuf, Option<fs::File>)>;

pub(crate) fn open_dirs(folders: &[(PathBuf, String)]) -> OpenDirs {
    let mut dirs: OpenDirs = Vec::new();
    for (d, _) in folders {
        if dirs.last().is_none_or(|(last, _)| last != d) {
            dirs.push((d.clone(), open_dir(d)));
        }
    }
    dirs
}

/// `dir/folder`'s verdict: the kept one (`last`) while its SKILL.md's
/// stamp is unchanged, else read and checked.
pub(crate) fn look(last: &verdicts::Verdicts, dirs: &OpenDirs, d: &Path, f: &str) -> Looked {
    let path = d.join(f);
    let dir = dirs
        .iter()
        .find(|(dir, _)| dir == d)
        .and_then(|(_, f)| f.as_ref());
    let stamp = match dir {
        Some(dir) => verdicts::Stamp::in_dir(dir, f),
        None => verdicts::Stamp::of(&path.join("SKILL.md")),
    };
    match verdicts::lookup(last, &path, stamp) {
        Some(c) => Looked {
            checked: Some(Checked { path, ..c.clone() }),
            stamp,
            kept: true,
        },
        None => {
            let checked = check_caught(&|_, _| skill::check_candidate(&path, false), d, f);
            // Kept only if the file read is the one stamped: a search
            // dir or folder link retargeted in between (the stamp went
            // through the dir opened first) changes the stamp.
            let again = verdicts::Stamp::of(&path.join("SKILL.md"));
            Looked {
                checked,
                stamp: stamp.filter(|s| Some(*s) == again),
                kept: false,
            }
        }
    }
}

/// [`check_all`] without lints, with the verdicts of the last listing
/// for every SKILL.md that did not change since (`verdicts`); what this
/// listing saw is kept for the next.
fn check_all_kept(folders: &[(PathBuf, String)], kept: &verdicts::Kept) -> Vec<Option<Checked>> {
    let last = kept.get();
    let dirs = open_dirs(folders);
    let looked = par_map(folders, |(d, f)| look(&last, &dirs, d, f));
    keep_seen(folders, &looked, &last, kept);
    looked.into_iter().map(|l| l.checked).collect()
}

/// What a listing saw (`looked`, one per folder), kept for the next. When
/// it saw what was kept (`last`), word for word, the kept set stays as it
/// is (nothing is copied or saved).
pub(crate) fn keep_seen(
    folders: &[(PathBuf, String)],
    looked: &[Looked],
    last: &verdicts::Verdicts,
    kept: &verdicts::Kept,
) {
    let seen = looked.iter().map(|l| Seen {
        stamp: l.stamp,
        checked: l.checked.as_ref(),
        kept: l.kept,
    });
    keep_seen_of(folders, &seen.collect::<Vec<_>>(), last, kept);
}

/// What a listing saw of one folder: [`Looked`] with its verdict borrowed
/// (the checks keep theirs in the listing on screen).
pub(crate) struct Seen<'a> {
    pub(crate) stamp: Option<verdicts::Stamp>,
    pub(crate) checked: Option<&'a Checked>,
    pub(crate) kept: bool,
}

/// [`keep_seen`] of borrowed verdicts.
pub(crate) fn keep_seen_of(
    folders: &[(PathBuf, String)],
    seen: &[Seen<'_>],
    last: &verdicts::Verdicts,
    kept: &verdicts::Kept,
) {
    // A read that failed (a full fd table, EIO, a network file system's
    // hiccup) says nothing of the next one: never kept.
    let keepable =
        |l: &Seen<'_>| l.stamp.is_some() && l.checked.is_some_and(|c| !skill::read_failed(c));
    let from_last = seen.iter().filter(|l| l.kept).count();
    let fresh = seen.iter().any(|l| !l.kept && keepable(l));
    if fresh || from_last != last.len() {
        let seen = (folders.iter().zip(seen))
            .filter(|(_, l)| keepable(l))
            .filter_map(|((d, f), l)| match (l.stamp, l.checked) {
                (Some(stamp), Some(c)) => Some((d.join(f), (stamp, verdicts::pathless(c)))),
                _ => None,
            })
            .collect();
        kept.keep(std::sync::Arc::new(seen));
    }
}

/// A search dir opened for stamps relative to it; never blocks (a dir
/// swapped for a FIFO since it was read) and is never anything but a dir.
fn open_dir(dir: &Path) -> Option<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NONBLOCK)
        .open(dir)
        .ok()
}

fn check_caught(check: &Check<'_>, dir: &Path, folder: &str) -> Option<Checked> {
    let run = std::panic::AssertUnwindSafe(|| check(dir, folder));
    std::panic::catch_unwind(run).unwrap_or_else(|_| {
        Some(Checked {
            path: dir.join(folder),
            errors: vec!["skilltui crashed while checking this folder: please report it".into()],
            ..Checked::default()
        })
    })
}

/// `load_skill(name)`: the first valid folder of that name; else the first
/// candidate's error; else "no such skill".
pub fn resolve(home: &Home, name: &str) -> Result<Checked, String> {
    let name = check_name(name)?;
    let mut first_error = None;
    for dir in home.skill_search_dirs() {
        let folder = dir.join(&name);
        if !fs::metadata(folder.join("SKILL.md")).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let checked = skill::check_folder(&folder, false);
        if checked.is_valid() {
            return Ok(checked);
        }
        first_error.get_or_insert_with(|| checked.errors.join("; "));
    }
    Err(first_error.unwrap_or_else(|| {
        format!(
            "no skill named '{name}' in {}{}: `skilltui list` shows the installed ones",
            home.skills_dir().display(),
            list(home, false).did_you_mean(&name)
        )
    }))
}

/// What `add` did.
#[derive(Clone, Debug)]
pub struct Added {
    pub name: String,
    pub dest: PathBuf,
    /// Present when an existing skill was replaced.
    pub replaced: Option<fsops::FolderDiff>,
    /// The agent plugin that owned the replaced skill and gave the name up.
    pub released: Option<String>,
}

/// `cao skills add`: CAO's checks in CAO's order, then an atomic install.
pub fn add(home: &Home, src: &Path, force: bool) -> Result<Added, String> {
    add_as(home, src, force, AS_CAO)
}

/// How [`add_as`] copies a skill: the folder it is named after, its
/// symlinks, the hard limits on what it writes, and whether the copy must
/// pass the audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copying {
    pub named: skill::Named,
    pub links: fsops::Links,
    pub limits: Option<&'static fsops::Limits>,
    /// Audit the staged copy, the bytes about to be renamed into place,
    /// and refuse it for a critical finding ([`audit_refusal`]). The
    /// source's own audit (at discovery) is what a listing shows; this is
    /// what keeps a source changed after it from being installed unread.
    pub audit_gate: bool,
}

/// As `cao skills add` copies.
pub const AS_CAO: Copying = Copying {
    named: skill::Named::AsIs,
    links: fsops::Links::StayInside,
    limits: None,
    audit_gate: false,
};

/// Why a skill with a critical finding is refused: the rule, the file and
/// the line, and how to install it anyway. `shown` is the skill's name,
/// sanitized.
pub fn audit_refusal(shown: &str, report: &audit::Report) -> Option<String> {
    let f = report
        .worst_finding()
        .filter(|f| f.severity == audit::Severity::Critical)?;
    Some(format!(
        "skill '{shown}' is refused: the audit found {} at {}: {}; read it, then `--trust` installs it anyway",
        f.rule,
        f.place(),
        f.message
    ))
}

/// [`add`], with the copy made as `how` says (a source's skill is
/// installed under its `name`, whatever its folder is called).
pub fn add_as(home: &Home, src: &Path, force: bool, how: Copying) -> Result<Added, String> {
    let mut lock = None;
    let prepared = prepare(home, src, force, how, &mut lock)?;
    finish(home, prepared)
}

/// Installs several folders: all are checked and staged first (one that
/// fails installs nothing), flushed to disk together, then each renamed
/// into place.
pub fn add_many(
    home: &Home,
    srcs: &[&Path],
    force: bool,
    how: Copying,
) -> Result<Vec<Added>, String> {
    // One hold of CAO's plugin lock for the batch: a second would wait on
    // the first.
    let mut lock = None;
    let mut prepared = srcs
        .iter()
        .map(|src| prepare(home, src, force, how, &mut lock))
        .collect::<Result<Vec<_>, _>>()?;
    // One flush for all: each costs as much as the whole filesystem's.
    fsops::flush_staged(prepared.iter_mut().map(|p| &mut p.staged));
    prepared.into_iter().map(|p| finish(home, p)).collect()
}

/// A skill checked and copied into the store's staging area.
struct Prepared {
    name: String,
    dest: PathBuf,
    exists: bool,
    staged: fsops::Staged,
    released: Option<String>,
}

/// CAO's checks in CAO's order, then the copy into staging. Replacing a
/// skill is done as `cao skills add --force` does it: under CAO's plugin
/// lifecycle lock (`lock`, taken once and held until the caller is done),
/// a plugin's claim on the name is given up first.
fn prepare(
    home: &Home,
    src: &Path,
    force: bool,
    how: Copying,
    lock: &mut Option<locks::Held>,
) -> Result<Prepared, String> {
    let checked = skill::check_folder_as(src, false, how.named);
    if let Some(e) = checked.errors.first() {
        return Err(e.clone());
    }
    let name = check_name(checked.name.as_deref().unwrap_or_default())?;
    let store = home.skills_dir();
    let dest = store.join(&name);
    let exists = fs::symlink_metadata(&dest).is_ok();
    if exists && !force {
        return Err(format!(
            "Skill '{name}' already exists. Use --force to overwrite it."
        ));
    }
    let mut released = None;
    if exists {
        if lock.is_none() {
            *lock = Some(locks::lock_lifecycle(&home.root)?);
        }
        released = plugins::release_claim(&home.root, &name)?;
    }
    let staged = fsops::stage_walked(src, &store, &name, how.links, how.limits)?;
    if how.audit_gate {
        let shown = crate::core::text::sanitize_line(&name);
        // Dropping `staged` removes the copy.
        if let Some(why) = audit_refusal(&shown, &audit::scan(&staged.path())) {
            return Err(why);
        }
    }
    Ok(Prepared {
        name,
        dest,
        exists,
        staged,
        released,
    })
}

/// Moves a prepared skill into place, atomically.
fn finish(home: &Home, p: Prepared) -> Result<Added, String> {
    let replaced = if p.exists {
        let diff = fsops::diff_folders(&p.dest, &p.staged.path());
        // A symlinked (projected) skill is swapped for a real folder too.
        fsops::replace(p.staged, &p.dest)?;
        Some(diff)
    } else {
        fsops::install_new(p.staged, &p.dest)?;
        None
    };
    // After the install: its sync must not wait for the leftovers' deletion.
    fsops::clean_stale_staging(&home.skills_dir());
    Ok(Added {
        name: p.name,
        dest: p.dest,
        replaced,
        released: p.released,
    })
}

/// `cao skills remove`: name check first, then an atomic removal.
pub fn remove(home: &Home, name: &str) -> Result<PathBuf, String> {
    let name = check_name(name)?;
    let store = home.skills_dir();
    let dest = store.join(&name);
    match fs::symlink_metadata(&dest) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // CAO's words, then ours.
            let listing = list(home, false);
            let known = listing.valid().map(|e| e.folder.as_str());
            let hint = match crate::core::suggest::closest(&name, known) {
                Some(k) => format!(" Did you mean {k}?"),
                None => String::new(),
            };
            return Err(format!("Skill '{name}' does not exist.{hint}"));
        }
        Err(e) => return Err(format!("cannot read {}: {e}", dest.display())),
        Ok(_) => {}
    }
    if let Some(plugin) = plugins::owner(&home.root, &name) {
        return Err(format!(
            "'{name}' is provided by agent plugin '{plugin}', so it is not yours to remove: nothing was changed. Run `cao plugin remove {plugin}` to uninstall the plugin, or add your own copy with --force to take the name over"
        ));
    }
    fsops::clean_stale_staging(&store);
    fsops::remove(&dest, &store)?;
    Ok(dest)
}

/// Where a default skill comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Bundled with the user's CAO (this version), seeded as `cao init` does.
    Cao { version: String, folder: PathBuf },
    /// One of skilltui's own, embedded in the binary.
    Ours,
}

impl Origin {
    /// The heading of this source's group in the seed menu.
    pub fn heading(&self) -> String {
        match self {
            Origin::Cao { version, .. } => {
                format!("Bundled with CAO {version} (as `cao init` seeds them)")
            }
            Origin::Ours => "skilltui's own".into(),
        }
    }

    /// What a row says about where its skill comes from.
    pub fn label(&self) -> String {
        match self {
            Origin::Cao { version, .. } => format!("from CAO {version}"),
            Origin::Ours => "from skilltui".into(),
        }
    }
}

/// A default skill and whether the store already has one of that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultSkill {
    pub name: String,
    pub description: String,
    pub present: bool,
    pub origin: Origin,
}

/// Where CAO's own skills come from, when no CAO was found (else `None`).
pub fn cao_skills_note(home: &Home) -> Option<String> {
    let why = home.cao().err()?;
    Some(format!(
        "CAO's own skills come with CAO and are seeded from its install; {why}: {}",
        installed::INSTALL_HINT
    ))
}

/// The defaults: CAO's bundled skills (when CAO is found), then ours, each
/// group sorted by name and each marked new or already present.
pub fn defaults(home: &Home) -> Vec<DefaultSkill> {
    let present = |name: &str| fs::symlink_metadata(home.skills_dir().join(name)).is_ok();
    let mut out: Vec<DefaultSkill> = Vec::new();
    if let Ok(install) = home.cao() {
        for name in install.bundled_skills() {
            let folder = install.skills_dir().join(&name);
            out.push(DefaultSkill {
                description: installed::skill_description(&folder),
                present: present(&name),
                origin: Origin::Cao {
                    version: install.version_label().to_string(),
                    folder,
                },
                name,
            });
        }
    }
    let mut ours: Vec<DefaultSkill> = DEFAULT_SKILLS
        .dirs()
        .filter_map(|d| {
            let name = d.path().file_name()?.to_str()?.to_string();
            let text = d.get_file(d.path().join("SKILL.md"))?.contents_utf8()?;
            let description = skill::doc_from_text(text)
                .ok()
                .and_then(|doc| doc.string("description").map(|s| py_strip(s).to_string()))
                .unwrap_or_default();
            Some(DefaultSkill {
                present: present(&name),
                name,
                description,
                origin: Origin::Ours,
            })
        })
        .filter(|d| !out.iter().any(|c| c.name == d.name))
        .collect();
    ours.sort_by(|a, b| a.name.cmp(&b.name));
    out.extend(ours);
    out
}

/// What a seed did: the names seeded and the names kept as they were.
#[derive(Clone, Debug, Default)]
pub struct Seeded {
    pub seeded: Vec<String>,
    pub kept: Vec<String>,
}

/// Seeds the chosen defaults (all when `only` is `None`), never
/// overwriting a skill of the same name: each is staged in the store and
/// renamed into place, as CAO's `seed_default_skills` does.
pub fn seed(home: &Home, only: Option<&[String]>) -> Result<Seeded, String> {
    let store = home.skills_dir();
    fs::create_dir_all(&store).map_err(|e| store_unusable(&store, &e))?;
    fsops::clean_stale_staging(&store);
    let mut report = Seeded::default();
    for d in defaults(home) {
        if only.is_some_and(|names| !names.contains(&d.name)) {
            continue;
        }
        if d.present {
            report.kept.push(d.name);
            continue;
        }
        let staged = match &d.origin {
            Origin::Cao { folder, .. } => fsops::stage_copy_all(folder, &store, &d.name)?,
            Origin::Ours => stage_embedded(&store, &d.name)?,
        };
        let dest = store.join(&d.name);
        match fsops::install_new(staged, &dest) {
            Ok(()) => report.seeded.push(d.name),
            Err(_) if fs::symlink_metadata(&dest).is_ok() => report.kept.push(d.name),
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

fn store_unusable(store: &Path, e: &std::io::Error) -> String {
    if store.exists() && !store.is_dir() {
        return format!(
            "the skill store {} is not a folder: move it away and run again",
            store.display()
        );
    }
    format!(
        "cannot create the skill store {}: {e}: check the permissions of its parent",
        store.display()
    )
}

/// One of our embedded defaults, written into a staging folder.
fn stage_embedded(store: &Path, name: &str) -> Result<fsops::Staged, String> {
    let embedded = DEFAULT_SKILLS
        .get_dir(name)
        .ok_or("embedded skill missing")?;
    let staged = fsops::stage_empty(store, name)?;
    // `extract` writes files at their embedded paths (`name/...`) and does
    // not create the folder of the dir it is called on.
    let root = staged.path();
    fs::create_dir_all(&root)
        .and_then(|_| embedded.extract(root.parent().unwrap_or(&root)))
        .map_err(|e| format!("cannot write to the skill store {}: {e}", store.display()))?;
    Ok(staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_skill(dir: &Path, folder: &str, name: &str, desc: &str) {
        let d = dir.join(folder);
        fs::create_dir_all(&d).unwrap();
        fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\nbody of {folder}\n"),
        )
        .unwrap();
    }

    fn home(tmp: &Path) -> Home {
        Home::at(tmp.join("home"), tmp.to_path_buf())
    }

    #[test]
    fn first_valid_wins_and_invalid_does_not_reserve() {
        let tmp = tempfile::tempdir().unwrap();
        let h = home(tmp.path());
        let extra = tmp.path().join("extra");
        fs::create_dir_all(&h.root).unwrap();
        fs::write(
            h.root.join("settings.json"),
            format!(
                "{{\"skills\": {{\"extra_dirs\": [\" {} \", 3, null]}}}}",
                extra.display()
            ),
        )
        .unwrap();
        let h = Home::at(h.root.clone(), tmp.path().to_path_buf());
        write_skill(&h.skills_dir(), "a", "a", "store a");
        write_skill(&h.skills_dir(), "b", "b", "yes");
        write_skill(&extra, "a", "a", "extra a");
        write_skill(&extra, "b", "b", "extra b");
        let l = list(&h, false);
        let got: Vec<_> = l
            .entries
            .iter()
            .map(|e| (e.folder.as_str(), e.status, e.description()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a", Status::Ok, "store a"),
                ("a", Status::Shadowed, "extra a"),
                ("b", Status::Invalid, ""),
                ("b", Status::Ok, "extra b")
            ]
        );
        assert_eq!(
            resolve(&h, "b").unwrap().description.as_deref(),
            Some("extra b")
        );
    }

    #[test]
    fn add_force_and_remove_are_atomic_and_clean() {
        let tmp = tempfile::tempdir().unwrap();
        let h = home(tmp.path());
        let src = tmp.path().join("src");
        write_skill(&src, "x", "x", "v1");
        fs::write(src.join("x/old.txt"), "old").unwrap();
        add(&h, &src.join("x"), false).unwrap();
        assert!(
            add(&h, &src.join("x"), false)
                .unwrap_err()
                .contains("already exists")
        );
        fs::remove_file(src.join("x/old.txt")).unwrap();
        write_skill(&src, "x", "x", "v2");
        let added = add(&h, &src.join("x"), true).unwrap();
        let diff = added.replaced.unwrap();
        assert_eq!(
            (diff.removed, diff.changed),
            (vec!["old.txt".to_string()], vec!["SKILL.md".to_string()])
        );
        assert!(!h.skills_dir().join("x/old.txt").exists());
        let leftovers: Vec<_> = fs::read_dir(h.skills_dir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftovers, vec!["x"]);
        remove(&h, "x").unwrap();
        assert_eq!(fs::read_dir(h.skills_dir()).unwrap().count(), 0);
        for bad in ["../x", "a/b", " ", ".."] {
            assert!(remove(&h, bad).is_err());
        }
    }

    /// A CAO package with bundled skills `a` (with an executable script)
    /// and `code-style`, which one of ours is also called.
    fn fake_cao(tmp: &Path) -> PathBuf {
        let pkg = tmp.join("cli_agent_orchestrator");
        fs::create_dir_all(pkg.join("agent_store")).unwrap();
        fs::write(pkg.join("__init__.py"), "").unwrap();
        write_skill(&pkg.join("skills"), "a", "a", "CAO's a");
        write_skill(&pkg.join("skills"), "code-style", "code-style", "CAO's");
        let script = pkg.join("skills/a/run.sh");
        fs::write(&script, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        pkg
    }

    #[test]
    fn seeding_puts_caos_skills_first_and_copies_them_as_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fake_cao(tmp.path());
        let h = home(tmp.path()).with_cao(Some(&pkg));
        write_skill(&h.skills_dir(), "a", "a", "mine");
        let d = defaults(&h);
        let got: Vec<_> = d.iter().map(|d| (d.name.as_str(), d.present)).collect();
        assert_eq!(
            got,
            [
                ("a", true),
                ("code-style", false),
                ("python-testing", false),
                ("security-review", false)
            ]
        );
        assert_eq!(d[1].origin.label(), "from CAO (unknown version)");
        assert_eq!(d[2].origin, Origin::Ours);
        let report = seed(&h, None).unwrap();
        assert_eq!(report.kept, ["a"]);
        assert!(resolve(&h, "a").unwrap().description.as_deref() == Some("mine"));
        let seeded = fs::read(h.skills_dir().join("code-style/SKILL.md")).unwrap();
        assert_eq!(
            seeded,
            fs::read(pkg.join("skills/code-style/SKILL.md")).unwrap()
        );
        // Seeding again from scratch keeps the script's mode bits.
        remove(&h, "a").unwrap();
        seed(&h, Some(&["a".to_string()])).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(h.skills_dir().join("a/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert!(cao_skills_note(&h).is_none());
        let none = home(tmp.path()).with_cao(Some(&tmp.path().join("none")));
        assert!(
            cao_skills_note(&none)
                .unwrap()
                .contains("holds no CAO package")
        );
    }

    #[test]
    fn seeding_copies_what_caos_links_point_at_as_cao_init_does() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fake_cao(tmp.path());
        // shutil.copytree follows every symlink and copies every file.
        fs::write(pkg.join("shared.md"), "shared").unwrap();
        std::os::unix::fs::symlink(pkg.join("shared.md"), pkg.join("skills/a/shared.md")).unwrap();
        fs::write(pkg.join("skills/a/.cao-projection.json"), "{}").unwrap();
        let h = home(tmp.path()).with_cao(Some(&pkg));
        seed(&h, Some(&["a".to_string()])).unwrap();
        let copy = h.skills_dir().join("a/shared.md");
        assert!(fs::symlink_metadata(&copy).unwrap().is_file());
        assert_eq!(fs::read(copy).unwrap(), b"shared");
        assert!(h.skills_dir().join("a/.cao-projection.json").is_file());
    }

    #[test]
    fn add_refuses_symlinks_leaving_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let h = home(tmp.path());
        write_skill(tmp.path(), "x", "x", "d");
        fs::write(tmp.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), tmp.path().join("x/link")).unwrap();
        let e = add(&h, &tmp.path().join("x"), false).unwrap_err();
        assert!(e.contains("points outside"), "{e}");
        assert!(!h.skills_dir().join("x").exists());
    }

    // A listing again re-stats a SKILL.md that did not change (the kept
    // verdict is used: here a planted one, to show the file was not read),
    // and reads one that changed, one that is new, and one changed too
    // recently for its stamp to tell (git's racily clean).
    #[test]
    fn a_listing_again_reads_only_what_changed() {
        let tmp = tempfile::tempdir().unwrap();
        let h = home(tmp.path());
        let store = h.skills_dir();
        write_skill(&store, "a", "a", "real a");
        write_skill(&store, "b", "b", "real b");
        let desc = |l: &Listing, f: &str| {
            let e = l.entries.iter().find(|e| e.folder == f).unwrap();
            e.checked.description.clone().unwrap()
        };
        // Fresh files are racily clean: read every time, never kept.
        list(&h, false);
        assert!(h.verdicts.get().is_empty());
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let l = list(&h, false);
        assert_eq!(desc(&l, "a"), "real a");
        let mut kept = (*h.verdicts.get()).clone();
        assert_eq!(kept.len(), 2, "{kept:?}");
        for f in ["a", "b"] {
            kept.get_mut(&store.join(f)).unwrap().1.description = Some(format!("kept {f}"));
        }
        h.verdicts.keep(std::sync::Arc::new(kept));
        write_skill(&store, "b", "b", "new b");
        write_skill(&store, "c", "c", "real c");
        let l = list(&h, false);
        assert_eq!(desc(&l, "a"), "kept a", "unchanged: not read again");
        assert_eq!(desc(&l, "b"), "new b", "changed: read again");
        assert_eq!(desc(&l, "c"), "real c");
        // Lints walk the folder: never from the kept verdicts.
        assert_eq!(desc(&list(&h, true), "a"), "real a");
    }

    // The TUI keeps the verdicts on disk, so a start after one re-stats
    // what did not change. A planted verdict for an unchanged file is used
    // (so the file was not read); a changed file is read; a cut file is
    // ignored whole, and every verdict is read again.
    #[test]
    fn verdicts_kept_on_disk_spare_the_next_start_its_reads() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("cache/verdicts");
        let store = home(tmp.path()).skills_dir();
        write_skill(&store, "a", "a", "real a");
        write_skill(&store, "b", "b", "real b");
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let start = || {
            let h = home(tmp.path());
            h.verdicts.on_disk(cache.clone());
            let l = list(&h, false);
            h.verdicts.flush();
            let desc = |f: &str| {
                let e = l.entries.iter().find(|e| e.folder == f).unwrap();
                e.checked.description.clone().unwrap()
            };
            (desc("a"), desc("b"))
        };
        assert_eq!(start(), ("real a".into(), "real b".into()));
        let mut saved = verdicts::file::read(&cache);
        assert_eq!(saved.len(), 2, "both kept on disk");
        for (_, c) in saved.values_mut() {
            c.description = Some("planted".into());
        }
        verdicts::file::write(&cache, &saved).unwrap();
        write_skill(&store, "b", "b", "new b");
        assert_eq!(start(), ("planted".into(), "new b".into()));
        let bytes = fs::read(&cache).unwrap();
        fs::write(&cache, &bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(start(), ("real a".into(), "new b".into()));
    }

    // Every way to change what a folder's SKILL.md says while its size and
    // mtime stay as they were is read again: a rewrite in place, a rename
    // over, the SKILL.md link retargeted, the folder (a link) retargeted to
    // another holding the same size and time.
    #[test]
    fn a_changed_skill_md_with_its_size_and_mtime_kept_is_read_again() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let h = home(tmp.path());
        let store = h.skills_dir();
        let other = tmp.path().join("other");
        for f in ["inplace", "renamed", "mdlink", "dirlink"] {
            write_skill(&store, f, f, "old1");
            write_skill(&other, f, f, "new1");
        }
        for f in ["mdlink", "dirlink"] {
            fs::remove_dir_all(store.join(f)).unwrap();
            write_skill(&tmp.path().join("first"), f, f, "old1");
        }
        fs::create_dir(store.join("mdlink")).unwrap();
        symlink(
            tmp.path().join("first/mdlink/SKILL.md"),
            store.join("mdlink/SKILL.md"),
        )
        .unwrap();
        symlink(tmp.path().join("first/dirlink"), store.join("dirlink")).unwrap();
        let when = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let times = fs::FileTimes::new().set_modified(when).set_accessed(when);
        let age = |p: &Path| {
            let f = fs::OpenOptions::new().write(true).open(p).unwrap();
            f.set_times(times).unwrap();
        };
        for d in [&store, &other, &tmp.path().join("first")] {
            for e in fs::read_dir(d).unwrap().flatten() {
                if e.path().join("SKILL.md").is_file() {
                    age(&e.path().join("SKILL.md"));
                }
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let descs = |l: &Listing| -> Vec<String> {
            l.entries
                .iter()
                .map(|e| e.checked.description.clone().unwrap_or_default())
                .collect()
        };
        assert_eq!(descs(&list(&h, false)), ["old1"; 4]);
        let md = |f: &str| store.join(f).join("SKILL.md");
        let text = fs::read_to_string(md("inplace"))
            .unwrap()
            .replace("old1", "new1");
        fs::write(md("inplace"), text).unwrap();
        age(&md("inplace"));
        fs::rename(other.join("renamed/SKILL.md"), md("renamed")).unwrap();
        fs::remove_file(md("mdlink")).unwrap();
        symlink(other.join("mdlink/SKILL.md"), md("mdlink")).unwrap();
        fs::remove_file(store.join("dirlink")).unwrap();
        symlink(other.join("dirlink"), store.join("dirlink")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2100));
        assert_eq!(descs(&list(&h, false)), ["new1"; 4]);
    }

    // A SKILL.md that could not be read this time (a full fd table, EIO, a
    // network file system's hiccup) says nothing of the next read: its
    // verdict is never kept, so the next listing (and, in the TUI, the next
    // start) reads it again. Run in a child process: the lowered fd limit
    // must touch no other test.
    #[test]
    fn a_read_that_failed_is_never_kept() {
        const ENV: &str = "SKILLTUI_TEST_READ_FAILED";
        if let Some(dir) = std::env::var_os(ENV) {
            return read_fails_then_reads(Path::new(&dir));
        }
        let tmp = tempfile::tempdir().unwrap();
        write_skill(&home(tmp.path()).skills_dir(), "a", "a", "real a");
        // Settled, so that its verdict may be kept.
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "core::cao::store::tests::a_read_that_failed_is_never_kept",
            ])
            .args(["--test-threads=1", "--nocapture"])
            .env(ENV, tmp.path())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && said.contains("1 passed"),
            "{said}{err}"
        );
    }

    fn read_fails_then_reads(tmp: &Path) {
        let h = home(tmp);
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: plain calls on this process's own fd table and limit.
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        let free = |fd: i32| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
        // One free fd: the store's dir opens, its SKILL.md does not.
        let mut frees = 0;
        let low = (0..1024)
            .find(|&fd| {
                free(fd) && {
                    frees += 1;
                    frees == 2
                }
            })
            .unwrap();
        let lowered = libc::rlimit {
            rlim_cur: low as libc::rlim_t,
            ..limit
        };
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lowered) };
        let first = list(&h, false);
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) };
        let errors = |l: &Listing| l.entries.first().map(|e| e.checked.errors.clone());
        let failed = errors(&first).unwrap_or_default();
        assert!(
            failed.iter().any(|e| e.contains("cannot read")),
            "{failed:?}"
        );
        assert_eq!(errors(&list(&h, false)), Some(Vec::new()), "read again");
    }

    #[test]
    fn a_check_that_panics_marks_only_its_own_folder() {
        let folders: Vec<(PathBuf, String)> = (0..100)
            .map(|i| (PathBuf::from("/store"), format!("f{i:03}")))
            .collect();
        let checked = check_all(&folders, &|d, f| {
            assert_ne!(f, "f037", "a bug in one check");
            Some(Checked {
                path: d.join(f),
                name: Some(f.to_string()),
                ..Checked::default()
            })
        });
        assert_eq!(checked.len(), folders.len());
        for ((_, folder), c) in folders.iter().zip(&checked) {
            let c = c.as_ref().unwrap();
            assert!(
                c.path.ends_with(folder),
                "{folder} got {}",
                c.path.display()
            );
            let crashed = c.errors.iter().any(|e| e.contains("crashed"));
            assert_eq!(crashed, folder == "f037", "{folder}");
        }
    }
}
