//! Installing from any SOURCE and keeping git installs pinned: `add`
//! (open a source, pick skills, install), `check`, `update` and `sync`.
//! Every install goes through `store::add` (staging + atomic rename or
//! exchange); the lock is read before anything is installed, so a lock that
//! does not parse stops the run with nothing changed.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::core::cao::skill;
use crate::core::cao::store::{self, Home};
use crate::core::error::InstallError;
use crate::core::sources::changes::{self, Changes};
use crate::core::sources::git::{self, Cancel, Checkout, FetchSpec, Progress};
use crate::core::sources::http::Local;
use crate::core::sources::lock::{self, Entry, Lock};
use crate::core::sources::source::{self, Found, Source, StoreState};
use crate::core::sources::wellknown::{self, Reach, Served, Staged, Upstream};
use crate::core::text::{sanitize_line, strip_credentials};

/// Where an opened git source came from.
#[derive(Clone, Debug)]
pub struct GitOrigin {
    pub url: String,
    pub reference: Option<String>,
    pub sub: String,
    pub commit: String,
}

/// Where an opened HTTP source came from: what the lock records as its
/// `source` (the site, or the URL itself), and what was downloaded.
pub struct WebOrigin {
    pub source: String,
    pub staged: Staged,
}

/// A source opened for picking: the skills found in it, and for git the
/// checkout they live in, for HTTP the downloads (removed when this is
/// dropped).
pub struct Opened {
    pub label: String,
    /// How its skills were judged and are copied.
    pub rules: source::Rules,
    pub git: Option<GitOrigin>,
    pub web: Option<Box<WebOrigin>>,
    pub found: Vec<Found>,
    /// What was left out while opening (an index entry whose digest did
    /// not match), one line each, to show beside the skills.
    pub notes: Vec<String>,
    checkout: Option<Box<Checkout>>,
}

impl Opened {
    fn new(label: String, rules: source::Rules, found: Vec<Found>) -> Opened {
        Opened {
            label,
            rules,
            git: None,
            web: None,
            found,
            notes: Vec::new(),
            checkout: None,
        }
    }
}

/// A site's index as listed, nothing of it downloaded: `add SITE` with
/// neither `--skill` nor `--all`, when it lists several skills.
pub struct Listing {
    pub label: String,
    /// Each entry's name and description, as the index gives them.
    pub entries: Vec<(String, String)>,
    /// The entries left out, one line each.
    pub notes: Vec<String>,
}

/// What `add` opens to pick from.
pub enum ToPick {
    Opened(Box<Opened>),
    /// A site's index of several skills, none named: its listing, from
    /// the one request for the index.
    Listed(Listing),
}

/// As [`open`], for `add`: with no skill named and not `all`, a site's
/// index of several skills comes back listed, none of them downloaded.
#[allow(clippy::too_many_arguments)]
pub fn open_to_pick(
    home: &Home,
    text: &str,
    only: &[String],
    all: bool,
    allow_large: bool,
    trust: bool,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<ToPick, String> {
    let listing_only = only.is_empty() && !all;
    let site = match source::parse(text, &home.user_home) {
        Ok(Source::Git(g)) if listing_only => source::site_of(&g).map(str::to_string),
        _ => None,
    };
    let Some(site) = site else {
        let opened = open(home, text, only, allow_large, trust, progress, cancel)?;
        return Ok(ToPick::Opened(Box::new(opened)));
    };
    let local = Local::typed(&site);
    let reach = Reach {
        stop: cancel.map(|c| &**c),
        local: &local,
        by: None,
    };
    match wellknown::read_index(&site, reach)? {
        Some((entries, notes)) if entries.len() > 1 => Ok(ToPick::Listed(Listing {
            label: sanitize_line(&strip_credentials(text)).into_owned(),
            entries: entries
                .into_iter()
                .map(|e| (e.name, e.description))
                .collect(),
            notes,
        })),
        Some(listed) => {
            let rules = source::Rules {
                from_git: true,
                allow_large,
                trust,
            };
            let label = sanitize_line(&strip_credentials(text)).into_owned();
            open_site(home, label, rules, &site, listed, only, reach)
                .map(|o| ToPick::Opened(Box::new(o)))
        }
        None => {
            let opened = open(home, text, only, allow_large, trust, progress, cancel)?;
            Ok(ToPick::Opened(Box::new(opened)))
        }
    }
}

/// Downloads the entries of a site's index named in `only` (all when it
/// is empty) and finds their skills.
fn open_site(
    home: &Home,
    label: String,
    rules: source::Rules,
    site: &str,
    (entries, notes): wellknown::Listed,
    only: &[String],
    reach: Reach,
) -> Result<Opened, String> {
    let staged = wellknown::stage_index(&entries, notes, only, reach)?;
    let root = staged.root().to_path_buf();
    open_staged(home, label, rules, site.to_string(), staged, &root)
}

/// Parses and opens SOURCE; a git source is fetched (reporting progress,
/// cancellable) into a staging folder. Of a site's index, only the entries
/// named in `only` are downloaded (all when it is empty).
pub fn open(
    home: &Home,
    text: &str,
    only: &[String],
    allow_large: bool,
    trust: bool,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<Opened, String> {
    let label = sanitize_line(&strip_credentials(text)).into_owned();
    let mut rules = source::Rules {
        from_git: false,
        allow_large,
        trust,
    };
    match source::parse(text, &home.user_home)? {
        Source::Local(path) => {
            if !path.is_dir() {
                let checked = skill::check_folder(&path, false);
                return Err(checked
                    .errors
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| format!("{} is not a folder of skills", path.display())));
            }
            let found = source::discover(&path, home, rules);
            Ok(Opened::new(label, rules, found))
        }
        Source::Web(w) => {
            rules.from_git = true;
            let local = Local::typed(&w.url);
            let reach = Reach {
                stop: cancel.map(|c| &**c),
                local: &local,
                by: None,
            };
            let (staged, root) = wellknown::stage_url(&w.url, &w.artifact, None, "", reach)?;
            open_staged(home, label, rules, w.url, staged, &root)
        }
        Source::Git(g) => {
            rules.from_git = true;
            if let Some(site) = source::site_of(&g) {
                let local = Local::typed(site);
                let reach = Reach {
                    stop: cancel.map(|c| &**c),
                    local: &local,
                    by: None,
                };
                let Some(listed) = wellknown::read_index(site, reach)? else {
                    return open_git(home, label, rules, g, progress, cancel);
                };
                return open_site(home, label, rules, site, listed, only, reach);
            }
            open_git(home, label, rules, g, progress, cancel)
        }
    }
}

/// Fetches a git source into a staging folder and finds its skills.
fn open_git(
    home: &Home,
    label: String,
    rules: source::Rules,
    g: source::GitSource,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<Opened, String> {
    let spec = FetchSpec {
        url: g.fetch_url(),
        reference: g.reference.as_deref(),
        sub: &g.sub,
        max_blob: max_blob(rules),
    };
    let checkout = git::fetch(&spec, progress, cancel)?;
    let Some(root) = checkout.folder(&g.sub) else {
        return Err(format!(
            "no folder '{}' in {} at {}: check the path",
            sanitize_line(&g.sub),
            sanitize_line(&g.url),
            g.reference.as_deref().unwrap_or("its default branch")
        ));
    };
    let mut found = source::discover(&root, home, rules);
    refuse_not_fetched(&mut found, &checkout, &g.sub);
    let mut opened = Opened::new(label, rules, found);
    opened.git = Some(GitOrigin {
        url: g.url,
        reference: g.reference,
        sub: g.sub,
        commit: checkout.commit.clone(),
    });
    opened.checkout = Some(Box::new(checkout));
    Ok(opened)
}

/// The skills under `root` of what was downloaded from `source`; with
/// none, the notes on what was left out are the error.
fn open_staged(
    home: &Home,
    label: String,
    rules: source::Rules,
    source: String,
    staged: Staged,
    root: &Path,
) -> Result<Opened, String> {
    let found = source::discover(root, home, rules);
    if found.is_empty() && !staged.notes.is_empty() {
        return Err(staged.notes.join("; "));
    }
    let mut opened = Opened::new(label, rules, found);
    opened.notes = staged.notes.clone();
    opened.web = Some(Box::new(WebOrigin { source, staged }));
    Ok(opened)
}

impl Opened {
    /// The skills `names` asks for: a name a site's index gives an entry
    /// stands for the skill that entry holds, named by its SKILL.md.
    pub fn skill_names(&self, names: &[String]) -> Vec<String> {
        let Some(web) = &self.web else {
            return names.to_vec();
        };
        names
            .iter()
            .map(|n| {
                if self.found.iter().any(|f| f.name() == *n) {
                    return n.clone();
                }
                let held = self.found.iter().find(|f| {
                    web.staged
                        .artifact_of(&f.rel)
                        .is_some_and(|(a, _)| a.entry.as_deref() == Some(n))
                });
                held.map_or_else(|| n.clone(), Found::name)
            })
            .collect()
    }
}

/// One skill installed (or left alone because the store has it as is).
#[derive(Clone, Debug)]
pub struct Installed {
    pub name: String,
    pub dest: PathBuf,
    /// What replacing the previous version changed; `None` when it was new.
    pub changes: Option<Changes>,
    /// True when the store already held exactly this skill.
    pub unchanged: bool,
    /// The agent plugin that owned the replaced skill and gave it up.
    pub released: Option<String>,
    /// One line per copy of it in this project kept as it is (edited
    /// since skilltui wrote it) while the others followed the store.
    pub kept_copies: Vec<String>,
}

/// Installs the picked skills of an opened source: all are checked first
/// (CAO's verdict, lints, clashes with the store as it is now, not as it
/// was when the source was opened), so one bad pick installs nothing.
pub fn install(
    home: &Home,
    opened: &Opened,
    picks: &[&Found],
    force: bool,
) -> Result<Vec<Installed>, InstallError> {
    let mut lock = Lock::read(&lock::default_path(home))?;
    let states: Vec<StoreState> = picks.iter().map(|f| source::store_state(home, f)).collect();
    for (f, state) in picks.iter().zip(&states) {
        if let Some(why) = &f.refused {
            return Err(why.clone().into());
        }
        if *state == StoreState::Different && !force {
            return Err(InstallError::Exists(sanitize_line(&f.name()).into_owned()));
        }
    }
    // Staged together, flushed once, then renamed in one by one.
    let fresh: Vec<&Path> = picks
        .iter()
        .zip(&states)
        .filter(|(_, s)| **s != StoreState::Same)
        .map(|(f, _)| f.checked.path.as_path())
        .collect();
    let before: Vec<Option<Changes>> = picks
        .iter()
        .zip(&states)
        .filter(|(_, s)| **s != StoreState::Same)
        .map(|(f, s)| {
            let dest = home.skills_dir().join(f.name());
            (*s == StoreState::Different).then(|| changes::between(&dest, &f.checked.path))
        })
        .collect();
    let added = store::add_many(home, &fresh, force, opened.rules.copying())?;
    let mut added = added.into_iter().zip(before);
    let mut done = Vec::new();
    for (f, state) in picks.iter().zip(states) {
        let name = store::check_name(&f.name())?;
        let dest = home.skills_dir().join(&name);
        if state == StoreState::Same {
            done.push(Installed {
                name,
                dest,
                changes: None,
                unchanged: true,
                released: None,
                kept_copies: Vec::new(),
            });
        } else {
            let (added, changes) = added.next().expect("one added per fresh pick");
            done.push(Installed {
                name: added.name,
                dest: added.dest,
                changes,
                unchanged: false,
                released: added.released,
                kept_copies: Vec::new(),
            });
        }
        let last = done.last().expect("just pushed");
        match &opened.git {
            Some(origin) => {
                let path = join_path(&origin.sub, &f.rel);
                let entry = Entry {
                    source: origin.url.clone(),
                    tree: opened.checkout.as_ref().and_then(|c| c.tree(&path)),
                    path,
                    reference: origin.reference.clone(),
                    commit: origin.commit.clone(),
                    hash: lock::content_hash(&last.dest)?,
                    allow_large: opened.rules.allow_large,
                    // Re-added: still given to the same agents.
                    agents: (lock.skills.get(&last.name))
                        .map(|e| e.agents.clone())
                        .unwrap_or_default(),
                    url: None,
                    digest: None,
                    version: None,
                    entry: None,
                };
                lock.skills.insert(last.name.clone(), entry);
            }
            None => match web_entry(opened, f, &last.dest) {
                Some(entry) => {
                    let entry = Entry {
                        agents: (lock.skills.get(&last.name))
                            .map(|e| e.agents.clone())
                            .unwrap_or_default(),
                        ..entry?
                    };
                    lock.skills.insert(last.name.clone(), entry);
                }
                None => {
                    lock.skills.remove(&last.name);
                }
            },
        }
    }
    let names: Vec<&str> = done.iter().map(|i| i.name.as_str()).collect();
    lock.write().map_err(|e| unpinned(&names, &e))?;
    follow_in_project(home, &mut done);
    Ok(done)
}

/// The copies skilltui made in this project of the skills just replaced
/// follow the store (the TUI's update installs this way); those kept are
/// said with their skill.
fn follow_in_project(home: &Home, done: &mut [Installed]) {
    let replaced: Vec<&str> = (done.iter())
        .filter(|i| !i.unchanged)
        .map(|i| i.name.as_str())
        .collect();
    let Ok(cwd) = std::env::current_dir() else {
        return;
    };
    if replaced.is_empty() {
        return;
    }
    let root = lock::project_root(&cwd);
    let lines = crate::core::agents::give::refresh_copies(home, &root, Some(&replaced));
    for (skill, line) in lines {
        let at = (done.iter_mut()).find(|i| !i.unchanged && (skill.is_empty() || i.name == skill));
        if let Some(i) = at {
            i.kept_copies.push(line);
        }
    }
}

/// A step of [`install_one_by_one`], as it happens.
pub enum Step<'a> {
    /// Pick `k` (from 1) of `of` is being written.
    Writing { k: usize, of: usize, name: &'a str },
    /// What writing it did.
    Wrote(String, Result<Installed, InstallError>),
}

/// Installs the picks one at a time, each as [`install`] does (checked,
/// staged, renamed in: never half-written); `force` replaces a different
/// skill of its name. Before each one after the first, `stop` is looked
/// at: set, the rest are left alone. Returns whether it stopped early.
pub fn install_one_by_one(
    home: &Home,
    opened: &Opened,
    picks: &[(&Found, bool)],
    stop: &Cancel,
    mut on: impl FnMut(Step),
) -> bool {
    let of = picks.len();
    for (k, (f, force)) in picks.iter().enumerate() {
        if k > 0 && stop.load(std::sync::atomic::Ordering::SeqCst) {
            return true;
        }
        let name = f.name();
        on(Step::Writing {
            k: k + 1,
            of,
            name: &name,
        });
        let result = install(home, opened, &[*f], *force).map(|mut done| done.remove(0));
        on(Step::Wrote(name, result));
    }
    false
}

/// The lock entry of a skill installed (at `dest`) from an HTTP source,
/// or `None` when the source was not one.
fn web_entry(opened: &Opened, f: &Found, dest: &Path) -> Option<Result<Entry, String>> {
    let web = opened.web.as_ref()?;
    let (fetched, path) = web.staged.artifact_of(&f.rel)?;
    Some(lock::content_hash(dest).map(|hash| Entry {
        source: web.source.clone(),
        path,
        reference: None,
        commit: String::new(),
        tree: None,
        hash,
        allow_large: opened.rules.allow_large,
        agents: Vec::new(),
        url: Some(fetched.url.clone()),
        digest: Some(fetched.digest.clone()),
        version: fetched.version.clone(),
        entry: fetched.entry.clone().filter(|e| *e != f.name()),
    }))
}

/// The error of a lock write that failed after skills were installed: the
/// store has them, the lock does not say so.
fn unpinned(names: &[&str], why: &str) -> String {
    let names: Vec<_> = names.iter().map(|n| sanitize_line(n)).collect();
    format!(
        "installed {}, but the lock was not written: {why}: run the command again to pin them",
        names.join(", ")
    )
}

/// The largest file a fetch under `rules` downloads (`None`: any).
fn max_blob(rules: source::Rules) -> Option<u64> {
    Some(rules.limits()?.file_bytes)
}

/// Refuses each skill (found under `base` of the checkout) holding a file
/// the fetch left on the server for its size.
fn refuse_not_fetched(found: &mut [Found], checkout: &Checkout, base: &str) {
    for f in found.iter_mut().filter(|f| f.refused.is_none()) {
        if let Some(path) = checkout.not_fetched(&join_path(base, &f.rel)) {
            f.refused = Some(format!(
                "skill '{}' is refused: {} is over {} MiB and was not downloaded; `--allow-large` installs it anyway",
                sanitize_line(&f.name()),
                sanitize_line(path),
                source::GIT_LIMITS.file_bytes >> 20
            ));
        }
    }
}

fn join_path(a: &str, b: &str) -> String {
    [a, b]
        .iter()
        .map(|s| s.trim_matches('/'))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// What [`remove`] did.
#[derive(Clone, Debug)]
pub struct Removed {
    pub dest: PathBuf,
    /// The lock file whose entry for the skill was dropped, if it had one.
    pub unpinned: Option<PathBuf>,
    /// The projects' locks whose entry was dropped too: the one found
    /// from the working directory (as `sync` finds it), and those of the
    /// projects skilltui gave the skill in.
    pub unpinned_projects: Vec<PathBuf>,
}

/// `remove`: removes a skill from the store, then drops its lock entry
/// (the home's, and the project's when run in a project whose lock has
/// it) so that the next `sync` (here or a teammate's) does not bring it
/// back.
impl Removed {
    /// The locks the skill's entry was dropped from, as one phrase (`A`,
    /// `A and B`, `A, B and C`), or `None` when no lock had it.
    pub fn dropped_from(&self) -> Option<String> {
        let mut locks: Vec<String> = (self.unpinned.iter())
            .chain(&self.unpinned_projects)
            .map(|l| l.display().to_string())
            .collect();
        let last = locks.pop()?;
        Some(match locks.is_empty() {
            true => last,
            false => format!("{} and {last}", locks.join(", ")),
        })
    }

    /// Drops the skill's entry from the project lock at `path` too (once).
    pub fn unpin_project(&mut self, path: &Path, name: &str) -> Result<(), String> {
        if self.unpinned_projects.iter().any(|p| p == path) {
            return Ok(());
        }
        if let Some(p) = lock::unpin(path, name)? {
            self.unpinned_projects.push(p);
        }
        Ok(())
    }
}

pub fn remove(home: &Home, name: &str) -> Result<Removed, String> {
    let dest = store::remove(home, name)?;
    let name = store::check_name(name)?;
    let but = |e: String| format!("removed {}, but {e}", dest.display());
    let unpinned = lock::unpin(&lock::default_path(home), &name).map_err(but)?;
    let project = (std::env::current_dir().ok())
        .and_then(|cwd| lock::project_lock(&cwd))
        .filter(|p| !lock::is_home_lock(home, p));
    let mut removed = Removed {
        dest: dest.clone(),
        unpinned,
        unpinned_projects: Vec::new(),
    };
    if let Some(path) = project {
        removed.unpin_project(&path, &name).map_err(but)?;
    }
    Ok(removed)
}

/// How a locked skill is judged and copied when it is updated or synced:
/// without limits when it was installed so or `allow_large` is asked now.
fn locked_rules(entry: &Entry, allow_large: bool, trust: bool) -> source::Rules {
    source::Rules {
        from_git: true,
        allow_large: allow_large || entry.allow_large,
        trust,
    }
}

/// Locked skills to fetch, by (repository, ref or commit).
type Groups = BTreeMap<(String, Option<String>), Vec<(String, Entry)>>;

/// A locked skill's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Current,
    /// The ref it was installed from has moved upstream.
    Outdated,
    /// The installed folder no longer matches the hash in the lock.
    Modified,
    /// The lock names it; the store does not have it.
    Missing,
    /// The remote could not be asked (see the error).
    Unknown,
}

#[derive(Clone, Debug)]
pub struct CheckRow {
    pub name: String,
    pub status: Status,
    pub entry: Entry,
    /// The commit the ref points to upstream, when asked.
    pub upstream: Option<String>,
    /// Whether the skill's folder changed upstream, when asked: known for
    /// a skill modified here too, whose `status` says only `modified`.
    pub moved: Option<bool>,
    pub error: Option<String>,
}

/// The locked skills `names` picks (all when empty); an unknown name is
/// an error.
fn selected(lock: &Lock, names: &[String]) -> Result<Vec<(String, Entry)>, String> {
    if names.is_empty() {
        return Ok(lock
            .skills
            .iter()
            .map(|(n, e)| (n.clone(), e.clone()))
            .collect());
    }
    let mut unique = names.to_vec();
    unique.sort();
    unique.dedup();
    unique
        .iter()
        .map(|n| match lock.skills.get(n) {
            Some(e) => Ok((n.clone(), e.clone())),
            None => Err(format!(
                "'{}' is not in {}{}: only skills installed from git are locked",
                sanitize_line(n),
                lock.path.display(),
                crate::core::suggest::did_you_mean(n, lock.skills.keys().map(String::as_str))
            )),
        })
        .collect()
}

/// The local state of a locked skill, without asking the remote.
fn local_status(home: &Home, name: &str, entry: &Entry) -> Status {
    let dest = home.skills_dir().join(name);
    if fs::symlink_metadata(&dest).is_err() {
        return Status::Missing;
    }
    match lock::content_hash(&dest) {
        Ok(h) if h == entry.hash => Status::Current,
        _ => Status::Modified,
    }
}

/// True when `name` is locked and its folder no longer matches the pinned
/// hash: replacing it loses the user's edits. An unreadable lock says no,
/// as the replace prompt that asks this shows the changes anyway.
pub fn edited_locally(home: &Home, name: &str) -> bool {
    let Ok(lock) = Lock::read(&lock::in_use(home)) else {
        return false;
    };
    lock.skills
        .get(name)
        .is_some_and(|e| local_status(home, name, e) == Status::Modified)
}

/// `check`: one `git ls-remote` per (repository, ref), run side by side;
/// where the ref moved, one fetch of commits and trees (no blobs) per
/// (repository, ref) tells which skills' folders changed. The cost grows
/// with repositories, not skills.
pub fn check(home: &Home, names: &[String]) -> Result<Vec<CheckRow>, String> {
    let lock = Lock::read(&lock::in_use(home))?;
    let (web, chosen): (Vec<_>, Vec<_>) = selected(&lock, names)?
        .into_iter()
        .partition(|(_, e)| e.is_web());
    let mut rows = check_git(home, chosen);
    rows.extend(check_web(home, web));
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(rows)
}

/// `check` of the skills from git.
fn check_git(home: &Home, chosen: Vec<(String, Entry)>) -> Vec<CheckRow> {
    let keys: std::collections::BTreeSet<(String, Option<String>)> = chosen
        .iter()
        .map(|(_, e)| (e.source.clone(), e.reference.clone()))
        .collect();
    let tips: BTreeMap<_, Result<String, String>> =
        side_by_side(&keys, |(url, r)| git::ls_remote(url, r.as_deref()));
    // The folders to look at upstream: pinned with a tree, behind the tip.
    let mut moved: BTreeMap<(String, Option<String>), Vec<String>> = BTreeMap::new();
    for (_, e) in &chosen {
        let key = (e.source.clone(), e.reference.clone());
        let behind = tips
            .get(&key)
            .is_some_and(|t| t.as_ref().is_ok_and(|c| *c != e.commit));
        if behind && e.tree.is_some() {
            moved.entry(key).or_default().push(e.path.clone());
        }
    }
    let trees: BTreeMap<_, Result<(String, git::Trees), String>> =
        side_by_side(&moved.keys().cloned().collect(), |key| {
            let paths: Vec<&str> = moved[key].iter().map(String::as_str).collect();
            git::trees_at(&key.0, key.1.as_deref(), &paths)
        });
    chosen
        .into_iter()
        .map(|(name, entry)| {
            let key = (entry.source.clone(), entry.reference.clone());
            let asked = tips
                .get(&key)
                .cloned()
                .unwrap_or_else(|| Err("not asked".into()));
            let mut status = local_status(home, &name, &entry);
            let (upstream, error) = match asked {
                Ok(c) => (Some(c), None),
                Err(e) => (None, Some(e)),
            };
            let same_tree = || {
                let upstream_tree = trees
                    .get(&key)
                    .and_then(|t| t.as_ref().ok())
                    .and_then(|(_, t)| t.get(entry.path.trim_matches('/')));
                entry.tree.is_some() && upstream_tree == entry.tree.as_ref()
            };
            let moved = upstream
                .as_ref()
                .map(|c| *c != entry.commit && !same_tree());
            if status == Status::Current {
                status = match moved {
                    Some(true) => Status::Outdated,
                    Some(false) => Status::Current,
                    None => Status::Unknown,
                };
            }
            CheckRow {
                name,
                status,
                entry,
                upstream,
                moved,
                error,
            }
        })
        .collect()
}

/// What `check` says of a skill whose site publishes no digest.
const NO_DIGEST: &str = "the site publishes no digest for it (the older /.well-known/skills/ form): `check` cannot tell whether it moved; `skilltui update` fetches it again and compares with the digest pinned when it was fetched";

/// `check` of the skills from HTTP: one request per site (its index) or
/// URL, side by side; a skill is outdated when the digest served moved.
fn check_web(home: &Home, chosen: Vec<(String, Entry)>) -> Vec<CheckRow> {
    let keys: std::collections::BTreeSet<(String, bool)> = chosen
        .iter()
        .map(|(_, e)| (e.source.clone(), e.from_index()))
        .collect();
    // This home's own lock: its entries reach what its `add` reached.
    let asked = side_by_side(&keys, |(source, index)| {
        let local = Local::typed(source);
        let reach = Reach {
            stop: None,
            local: &local,
            by: None,
        };
        Upstream::ask(source, *index, reach)
    });
    chosen
        .into_iter()
        .map(|(name, entry)| {
            let key = (entry.source.clone(), entry.from_index());
            let served = match asked.get(&key) {
                Some(Ok(up)) => up.find(
                    entry.index_name(&name),
                    entry.url.as_deref().unwrap_or_default(),
                ),
                Some(Err(e)) => Err(e.clone()),
                None => Err("not asked".into()),
            };
            let mut status = local_status(home, &name, &entry);
            let (upstream, error) = match served {
                Ok(Served {
                    digest: Some(digest),
                    ..
                }) => (Some(digest), None),
                Ok(_) => (None, Some(NO_DIGEST.to_string())),
                Err(e) => (None, Some(e)),
            };
            let moved = upstream.as_ref().map(|d| Some(d) != entry.digest.as_ref());
            if status == Status::Current {
                status = match moved {
                    Some(true) => Status::Outdated,
                    Some(false) => Status::Current,
                    None => Status::Unknown,
                };
            }
            CheckRow {
                name,
                status,
                entry,
                upstream,
                moved,
                error,
            }
        })
        .collect()
}

/// `ask` for each key, each on its own thread (each runs git over the
/// network: waiting on them one after the other adds up the latencies).
fn side_by_side<K: Ord + Clone + Sync, T: Send>(
    keys: &std::collections::BTreeSet<K>,
    ask: impl Fn(&K) -> Result<T, String> + Sync,
) -> BTreeMap<K, Result<T, String>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = keys.iter().map(|k| s.spawn(|| ask(k))).collect();
        keys.iter()
            .zip(handles)
            .map(|(k, h)| {
                let got = h.join().unwrap_or_else(|_| Err("git crashed".into()));
                (k.clone(), got)
            })
            .collect()
    })
}

/// What `update` or `sync` did to one skill.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: String,
    pub result: Result<Done, String>,
}

#[derive(Clone, Debug)]
pub enum Done {
    /// Already at the wanted commit with the locked content.
    Current,
    /// Installed or replaced at `commit`; `changes` is `None` for a fresh
    /// install.
    Installed {
        commit: String,
        changes: Option<Changes>,
        /// The high and critical audit findings of what was installed.
        warnings: Vec<String>,
    },
}

/// `update`: fetch each (repository, ref) once, replace what moved,
/// re-pin. A locally modified skill is refused without `force`.
pub fn update(
    home: &Home,
    names: &[String],
    force: bool,
    allow_large: bool,
    trust: bool,
    dry_run: bool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Outcome>, String> {
    let mut lock = Lock::read(&lock::in_use(home))?;
    let chosen = selected(&lock, names)?;
    let mut out = Vec::new();
    let mut todo: Groups = BTreeMap::new();
    let mut web = WebGroups::new();
    for (name, entry) in chosen {
        if entry.is_web() {
            web.entry(entry.source.clone())
                .or_default()
                .push((name, entry));
            continue;
        }
        let key = (entry.source.clone(), entry.reference.clone());
        todo.entry(key).or_default().push((name, entry));
    }
    for (source, items) in web {
        let how = WebRun {
            keep_edits: !force,
            allow_large,
            trust,
            sync: false,
            foreign: false,
            allow_local: false,
            by: None,
            dry_run,
        };
        apply_web(home, &mut lock, &source, &items, how, &mut out);
    }
    for ((url, reference), items) in todo {
        let group = Group {
            url: &url,
            reference: reference.as_deref(),
            items: &items,
            keep_edits: !force,
            allow_large,
            trust,
            dry_run,
        };
        apply_group(home, &mut lock, &group, progress, &mut out);
    }
    if dry_run {
        return Ok(out);
    }
    lock.write()
        .map_err(|e| unpinned(&installed_names(&out), &e))?;
    refresh_project_copies(home, &mut out);
    Ok(out)
}

/// The copies skilltui made of the skills just updated in the project the
/// command runs in follow the store; a copy it keeps (edited) is a
/// warning of its skill's outcome.
fn refresh_project_copies(home: &Home, out: &mut [Outcome]) {
    let names = installed_names(out);
    let Ok(cwd) = std::env::current_dir() else {
        return;
    };
    crate::core::agents::shared::clear_leftovers_in(&cwd);
    if names.is_empty() {
        return;
    }
    let root = lock::project_root(&cwd);
    let lines = crate::core::agents::give::refresh_copies(home, &root, Some(&names));
    for (skill, line) in lines {
        let at = out.iter_mut().find(|o| {
            matches!(o.result, Ok(Done::Installed { .. })) && (skill.is_empty() || o.name == skill)
        });
        if let Some(Outcome {
            result: Ok(Done::Installed { warnings, .. }),
            ..
        }) = at
        {
            warnings.push(line);
        }
    }
}

fn installed_names(outcomes: &[Outcome]) -> Vec<&str> {
    outcomes
        .iter()
        .filter(|o| matches!(o.result, Ok(Done::Installed { .. })))
        .map(|o| o.name.as_str())
        .collect()
}

/// Locked skills fetched together from one repository at one ref.
struct Group<'a> {
    url: &'a str,
    reference: Option<&'a str>,
    items: &'a [(String, Entry)],
    /// Refuse to replace a skill edited since it was pinned.
    keep_edits: bool,
    /// Lift the limits on every skill of the group (`--allow-large`).
    allow_large: bool,
    /// Install skills with a critical audit finding (`--trust`).
    trust: bool,
    /// `update --dry-run`: say what would change, write nothing.
    dry_run: bool,
}

/// Fetches the group's repository once and installs each item from it.
fn apply_group(
    home: &Home,
    lock: &mut Lock,
    group: &Group,
    progress: &mut dyn FnMut(Progress),
    out: &mut Vec<Outcome>,
) {
    let items = group.items;
    let sub = match items {
        [(_, e)] => e.path.as_str(),
        _ => "",
    };
    // One fetch for the group: without a size filter when any of its
    // skills is allowed large (the copy still holds the others to limits).
    let max_blob = items
        .iter()
        .map(|(_, e)| max_blob(locked_rules(e, group.allow_large, group.trust)))
        .min()
        .flatten();
    let spec = FetchSpec {
        url: group.url,
        reference: group.reference,
        sub,
        max_blob,
    };
    let checkout = git::fetch(&spec, progress, None);
    install_each(lock, items, checkout, out, |checkout, name, entry| {
        install_locked(home, checkout, name, entry, group)
    });
}

/// Installs each item from what its group's source gave (a checkout, a
/// site's answer), pinning what installed; a source that could not be
/// asked fails every item with its error.
fn install_each<T>(
    lock: &mut Lock,
    items: &[(String, Entry)],
    opened: Result<T, String>,
    out: &mut Vec<Outcome>,
    mut install: impl FnMut(&T, &str, &Entry) -> Result<(Done, Entry), String>,
) {
    let opened = match opened {
        Ok(o) => o,
        Err(e) => {
            out.extend(items.iter().map(|(name, _)| Outcome {
                name: name.clone(),
                result: Err(e.clone()),
            }));
            return;
        }
    };
    for (name, entry) in items {
        let result = install(&opened, name, entry);
        if let Ok((_, pinned)) = &result {
            lock.skills.insert(name.clone(), pinned.clone());
        }
        out.push(Outcome {
            name: name.clone(),
            result: result.map(|(done, _)| done),
        });
    }
}

/// Installs one locked skill from a checkout, unless the store already
/// holds that commit's content (also after an update killed before it
/// re-pinned); returns what it did and the new pin. With `keep_edits`, a
/// skill changed since it was pinned is refused.
fn install_locked(
    home: &Home,
    checkout: &Checkout,
    name: &str,
    entry: &Entry,
    group: &Group,
) -> Result<(Done, Entry), String> {
    let rules = locked_rules(entry, group.allow_large, group.trust);
    let (folder, found) = locked_found(home, checkout, name, entry, rules)?;
    let pinned = |hash: String| Entry {
        commit: checkout.commit.clone(),
        tree: checkout.tree(&entry.path),
        hash,
        allow_large: rules.allow_large,
        ..entry.clone()
    };
    let put = Put {
        folder: &folder,
        found,
        rules,
        keep_edits: group.keep_edits,
        version: &checkout.commit,
        dry_run: group.dry_run,
    };
    put_locked(home, name, entry, put, pinned)
}

/// A locked skill's new content, found in a checkout or a download.
struct Put<'a> {
    folder: &'a Path,
    found: Found,
    rules: source::Rules,
    keep_edits: bool,
    /// The commit, or the digest's hex, it is installed at.
    version: &'a str,
    /// Say what would change; write nothing (the pin stays as it was).
    dry_run: bool,
}

/// Installs a locked skill's new content, unless the store already holds
/// it (also after an update killed before it re-pinned); returns what it
/// did and the new pin. With `keep_edits`, a skill changed since it was
/// pinned is refused.
fn put_locked(
    home: &Home,
    name: &str,
    entry: &Entry,
    put: Put,
    pinned: impl Fn(String) -> Entry,
) -> Result<(Done, Entry), String> {
    let dest = home.skills_dir().join(store::check_name(name)?);
    let shown = sanitize_line(name);
    if let Some(why) = &put.found.refused {
        return Err(why.clone());
    }
    if put.found.state == StoreState::Same {
        return Ok((Done::Current, pinned(lock::content_hash(&dest)?)));
    }
    if put.keep_edits && local_status(home, name, entry) == Status::Modified {
        return Err(format!(
            "'{shown}' was modified locally: your edits were kept; `skilltui update {shown} --force` replaces them"
        ));
    }
    let changes =
        (put.found.state == StoreState::Different).then(|| changes::between(&dest, put.folder));
    let done = Done::Installed {
        commit: put.version.to_string(),
        changes,
        warnings: put.found.audit_warnings(),
    };
    if put.dry_run {
        return Ok((done, entry.clone()));
    }
    store::add_as(home, put.folder, true, put.rules.copying())?;
    Ok((done, pinned(lock::content_hash(&dest)?)))
}

/// Locked skills from HTTP, by the site or URL asked.
type WebGroups = BTreeMap<String, Vec<(String, Entry)>>;

/// How `update` or `sync` treats skills from HTTP.
#[derive(Clone, Copy)]
struct WebRun {
    keep_edits: bool,
    allow_large: bool,
    /// Install skills with a critical audit finding (`--trust`).
    trust: bool,
    /// `sync`: install exactly the digest the lock pins, or refuse.
    sync: bool,
    /// The lock was made elsewhere (`sync --lock FILE`): nothing on this
    /// machine is reached, unless `allow_local`.
    foreign: bool,
    /// `--allow-local`: any address on this machine may be reached.
    allow_local: bool,
    /// When the group's downloads must be done by: one timeout after its
    /// site answered, however many skills it holds.
    by: Option<std::time::Instant>,
    /// `update --dry-run`: say what would change, write nothing.
    dry_run: bool,
}

impl WebRun {
    /// Which of this machine's addresses a locked skill from `source`
    /// may reach: this home's own lock reaches what its `add` reached.
    fn local(&self, source: &str) -> Local {
        if self.allow_local {
            Local::Any
        } else if self.foreign {
            Local::Lock
        } else {
            Local::typed(source)
        }
    }
}

/// Why an entry of a lock made elsewhere may not be fetched without
/// `--allow-local` (it names plain http, this machine's repositories
/// through `file://`, or an address on this machine or its network, by
/// http(s), ssh, git or `user@host:path`), or `None`.
fn reaches_here(name: &str, entry: &Entry, lock: &Path) -> Option<String> {
    let urls = [Some(entry.source.as_str()), entry.url.as_deref()];
    let here = urls.into_iter().flatten().find(|u| names_here(u))?;
    Some(format!(
        "'{}' in {}: {} is plain http, file:// or an address on this machine, and that lock was made elsewhere: not fetched; `skilltui sync --allow-local` fetches it",
        sanitize_line(name),
        lock.display(),
        crate::core::sources::http::shown(here)
    ))
}

/// True for a URL a lock from elsewhere may not make skilltui fetch.
fn names_here(url: &str) -> bool {
    use crate::core::sources::http::is_local;
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("file://") {
        return true;
    }
    let authority = match lower.split_once("://") {
        Some(("https" | "ssh" | "git", rest)) => rest.split(['/', '?', '#']).next(),
        Some(_) => None,
        // `user@host:path`, as git reads it.
        None => lower
            .split_once(':')
            .map(|(head, _)| head)
            .filter(|head| !head.contains('/')),
    };
    authority.is_some_and(|a| is_local(a.rsplit('@').next().unwrap_or(a)))
}

/// Asks the group's site or URL once, then installs each item whose
/// digest moved (update) or that the lock pins (sync).
fn apply_web(
    home: &Home,
    lock: &mut Lock,
    source: &str,
    items: &[(String, Entry)],
    how: WebRun,
    out: &mut Vec<Outcome>,
) {
    let from_index = items.iter().any(|(_, e)| e.from_index());
    let local = how.local(source);
    let reach = Reach {
        stop: None,
        local: &local,
        by: None,
    };
    let upstream = Upstream::ask(source, from_index, reach);
    let how = WebRun {
        by: Some(std::time::Instant::now() + crate::core::sources::http::timeout()),
        ..how
    };
    install_each(lock, items, upstream, out, |upstream, name, entry| {
        install_web(home, upstream, name, entry, how)
    });
}

/// One locked skill from HTTP: downloaded again (its digest checked
/// before anything is written) and installed, unless nothing moved.
fn install_web(
    home: &Home,
    upstream: &Upstream,
    name: &str,
    entry: &Entry,
    how: WebRun,
) -> Result<(Done, Entry), String> {
    let served = upstream.find(
        entry.index_name(name),
        entry.url.as_deref().unwrap_or_default(),
    )?;
    let pinned_digest = entry.digest.as_deref().unwrap_or_default();
    let current = || local_status(home, name, entry) == Status::Current;
    if let Some(digest) = &served.digest {
        if how.sync && digest != pinned_digest {
            return Err(format!(
                "the lock pins '{}' to {}, and {} now serves {}: not installed; `skilltui update {}` takes the new one",
                sanitize_line(name),
                sanitize_line(pinned_digest),
                sanitize_line(&entry.source),
                digest,
                sanitize_line(name)
            ));
        }
        if !how.sync && digest == pinned_digest && current() {
            return Ok((Done::Current, entry.clone()));
        }
    }
    // A site that publishes no digest: `sync` installs only what hashes
    // to the digest pinned when it was fetched.
    let expected = served
        .digest
        .as_deref()
        .or(how.sync.then_some(pinned_digest));
    let local = how.local(&entry.source);
    let reach = Reach {
        stop: None,
        local: &local,
        by: how.by,
    };
    let (staged, folder) =
        wellknown::stage_url(&served.url, &served.artifact, expected, &entry.path, reach)?;
    let digest = staged.fetched[0].digest.clone();
    if served.digest.is_none() && !how.sync && digest == pinned_digest && current() {
        return Ok((Done::Current, entry.clone()));
    }
    let rules = locked_rules(entry, how.allow_large, how.trust);
    let found = one_found(home, &folder, name, entry, rules)?;
    let fetched = &staged.fetched[0];
    let pinned = |hash: String| Entry {
        hash,
        allow_large: rules.allow_large,
        url: Some(fetched.url.clone()),
        digest: Some(fetched.digest.clone()),
        version: served.version.clone(),
        ..entry.clone()
    };
    let version = digest.strip_prefix("sha256:").unwrap_or(&digest);
    let put = Put {
        folder: &folder,
        found,
        rules,
        keep_edits: how.keep_edits,
        version,
        dry_run: how.dry_run,
    };
    put_locked(home, name, entry, put, pinned)
}

/// The locked skill `name` in a checkout of its repository, where the lock
/// says it is and still under that name.
fn locked_found(
    home: &Home,
    checkout: &Checkout,
    name: &str,
    entry: &Entry,
    rules: source::Rules,
) -> Result<(PathBuf, Found), String> {
    let shown = sanitize_line(name);
    let folder = checkout
        .folder(&entry.path)
        .filter(|f| f.join("SKILL.md").is_file());
    let Some(folder) = folder else {
        return Err(format!(
            "'{shown}' is no longer at '{}' in {} at {}: remove it or add it again from its new place",
            sanitize_line(&entry.path),
            sanitize_line(&entry.source),
            &checkout.commit[..checkout.commit.len().min(12)]
        ));
    };
    let mut one = [one_found(home, &folder, name, entry, rules)?];
    refuse_not_fetched(&mut one, checkout, &entry.path);
    let [found] = one;
    Ok((folder, found))
}

/// The skill at `folder`, the root of a checkout or download, checked to
/// be the locked skill `name`.
fn one_found(
    home: &Home,
    folder: &Path,
    name: &str,
    entry: &Entry,
    rules: source::Rules,
) -> Result<Found, String> {
    let shown = sanitize_line(name);
    let found = source::discover(folder, home, rules).into_iter().next();
    let Some(found) = found.filter(|f| f.rel.is_empty()) else {
        return Err(format!("'{shown}' has no SKILL.md at its locked path"));
    };
    if found.name() != name {
        return Err(format!(
            "the skill at '{}' is now named '{}', not '{shown}': add it under its new name",
            sanitize_line(&entry.path),
            sanitize_line(&found.name())
        ));
    }
    Ok(found)
}

/// Opens the repository a locked skill came from at the tip of its ref,
/// holding just that skill: the TUI's `u` shows its changes, then
/// [`install`] replaces and re-pins it.
pub fn open_locked(
    home: &Home,
    name: &str,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<Opened, String> {
    let lock = Lock::read(&lock::in_use(home))?;
    let (_, entry) = selected(&lock, &[name.to_string()])?
        .pop()
        .expect("one name asked, one entry or an error");
    let rules = locked_rules(&entry, false, false);
    let label = sanitize_line(&entry.source).into_owned();
    if entry.is_web() {
        // This home's own lock: its entries reach what its `add` reached.
        let local = Local::typed(&entry.source);
        let reach = Reach {
            stop: cancel.map(|c| &**c),
            local: &local,
            by: None,
        };
        let upstream = Upstream::ask(&entry.source, entry.from_index(), reach)?;
        let served = upstream.find(
            entry.index_name(name),
            entry.url.as_deref().unwrap_or_default(),
        )?;
        let (mut staged, folder) = wellknown::stage_url(
            &served.url,
            &served.artifact,
            served.digest.as_deref(),
            &entry.path,
            reach,
        )?;
        staged.fetched[0].version = served.version;
        let found = one_found(home, &folder, name, &entry, rules)?;
        let mut opened = Opened::new(label, rules, vec![found]);
        opened.web = Some(Box::new(WebOrigin {
            source: entry.source,
            staged,
        }));
        return Ok(opened);
    }
    let spec = FetchSpec {
        url: &entry.source,
        reference: entry.reference.as_deref(),
        sub: &entry.path,
        max_blob: max_blob(rules),
    };
    let checkout = git::fetch(&spec, progress, cancel)?;
    let (_, found) = locked_found(home, &checkout, name, &entry, rules)?;
    let mut opened = Opened::new(label, rules, vec![found]);
    opened.git = Some(GitOrigin {
        url: entry.source,
        reference: entry.reference,
        sub: entry.path,
        commit: checkout.commit.clone(),
    });
    opened.checkout = Some(Box::new(checkout));
    Ok(opened)
}

/// Why `sync` must not take `name` over from what installed it here, or
/// `None`: a skill in the store that the home's lock does not pin (added
/// from a folder, or seeded: a hash every user shares proves nothing), or
/// pins to another repository or path, stays where it came from. A team
/// lock must not re-point it to a source its user never chose.
fn claimed_here(home: &Home, pins: &Lock, name: &str, entry: &Entry) -> Option<String> {
    let dest = home.skills_dir().join(name);
    fs::symlink_metadata(&dest).ok()?;
    let from = match pins.skills.get(name) {
        Some(p) if p.source == entry.source && p.path == entry.path => return None,
        Some(p) => format!("from {}", located(p)),
        None => "not from git".to_string(),
    };
    Some(format!(
        "'{}' is installed here {from}, and the lock names {}: kept; `skilltui sync --force` takes the lock's",
        sanitize_line(name),
        located(entry)
    ))
}

/// `URL` or `URL` + ` at PATH`, for a message.
fn located(e: &Entry) -> String {
    let url = sanitize_line(&e.source);
    match e.path.as_str() {
        "" => url.into_owned(),
        p => format!("{url} at {}", sanitize_line(p)),
    }
}

/// The items whose pinned commit their ref reaches upstream (one
/// commits-only fetch per ref); each other one gets an outcome naming it.
fn reached_pins(
    url: &str,
    items: Vec<(String, Entry)>,
    outcomes: &mut Vec<Outcome>,
) -> Vec<(String, Entry)> {
    // Keyed by all the answer depends on: the ref and the pinned commit.
    let mut asked: BTreeMap<(Option<String>, String), Result<bool, String>> = BTreeMap::new();
    let mut kept = Vec::new();
    for (name, entry) in items {
        let verdict = asked
            .entry((entry.reference.clone(), entry.commit.clone()))
            .or_insert_with(|| git::reachable(url, entry.reference.as_deref(), &entry.commit))
            .clone();
        let why = match verdict {
            Ok(true) => {
                kept.push((name, entry));
                continue;
            }
            Ok(false) => format!(
                "the lock pins '{}' to commit {}, which is no longer in {} on {} (history rewritten, or a deleted branch's or a fork's commit): not installed; `skilltui update` re-pins to the ref's tip",
                sanitize_line(&name),
                &entry.commit[..12],
                sanitize_line(url),
                sanitize_line(entry.reference.as_deref().unwrap_or("the default branch")),
            ),
            Err(e) => format!("'{}': {e}", sanitize_line(&name)),
        };
        outcomes.push(Outcome {
            name,
            result: Err(why),
        });
    }
    kept
}

/// Drops a project lock's user-scope agent labels from `entry` (each noted
/// in `asked` as `NAME to ID`) and puts back this home's own ones for the
/// skill (`here`), so following the project's lock neither gives in the
/// home nor forgets what this user gave there.
fn keep_user_labels_here(
    entry: &mut lock::Entry,
    here: Option<&lock::Entry>,
    name: &str,
    asked: &mut Vec<String>,
) {
    let is_user = |l: &String| l.ends_with(":user");
    for label in entry.agents.iter().filter(|l| is_user(l)) {
        let id = label.trim_end_matches(":user");
        asked.push(format!("'{name}' to {id}"));
    }
    entry.agents.retain(|l| !is_user(l));
    let own = here.into_iter().flat_map(|e| e.agents.iter());
    entry.agents.extend(own.filter(|l| is_user(l)).cloned());
    entry.agents.sort();
    entry.agents.dedup();
}

/// What `sync` did: each locked skill's outcome, and the store's skills
/// the lock does not name.
#[derive(Clone, Debug)]
pub struct Synced {
    pub outcomes: Vec<Outcome>,
    pub unlocked: Vec<String>,
    /// One line per thing of the lock left out (a junk agent label).
    pub warnings: Vec<String>,
}

/// `sync`: makes the store match `lock_file` (default: the home's lock),
/// each skill at its pinned commit. A skill whose content differs from
/// both that lock and the home's lock (edited here), or that is installed
/// here from another source or from none, is kept unless `force`. A lock
/// from elsewhere reaches plain http and this machine's addresses only
/// with `allow_local`.
pub fn sync(
    home: &Home,
    lock_file: Option<&Path>,
    force: bool,
    allow_large: bool,
    trust: bool,
    allow_local: bool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Synced, String> {
    let home_path = lock::default_path(home);
    // A missing home lock is an empty one; a missing named one is a typo.
    if let Some(path) = lock_file.filter(|p| fs::symlink_metadata(p).is_err()) {
        return Err(format!(
            "no lock file at {}: give the path of a skilltui.lock, such as your team's committed one",
            path.display()
        ));
    }
    let wanted_path = lock_file.map_or_else(|| lock::in_use(home), Path::to_path_buf);
    let wanted = Lock::read(&wanted_path)?;
    let mut pins = Lock::read(&home_path)?;
    let foreign = !lock::is_home_lock(home, &wanted_path);
    let mut outcomes = Vec::new();
    let mut warnings = Vec::new();
    let mut todo: Groups = BTreeMap::new();
    let mut web = WebGroups::new();
    // A lock found in the project (not one named with `--lock`) is any
    // clone's: it gives only inside the project, never in this user's
    // home, where a skill reaches every project.
    let from_project = lock_file.is_none() && foreign;
    let mut user_asked = Vec::new();
    for (name, entry) in &wanted.skills {
        // Another lock (a team's) cannot lift the size limits: only this
        // home's own lock or `--allow-large` says a skill may be large.
        let mut entry = entry.clone();
        entry.allow_large &= pins.skills.get(name).is_some_and(|e| e.allow_large);
        // A label that is no agent at a scope skilltui gives at is named,
        // and never copied into this home's lock.
        entry
            .agents
            .retain(|label| match lock::label_problem(label) {
                None => true,
                Some(why) => {
                    warnings.push(format!(
                    "skill '{}' in {}: agent label '{}' {why}: not copied into this home's lock",
                    sanitize_line(name),
                    wanted.path.display(),
                    sanitize_line(label)
                ));
                    false
                }
            });
        if from_project {
            keep_user_labels_here(&mut entry, pins.skills.get(name), name, &mut user_asked);
        }
        let entry = &entry;
        let dest = home.skills_dir().join(name);
        if let Some(why) =
            reaches_here(name, entry, &wanted.path).filter(|_| foreign && !allow_local)
        {
            outcomes.push(Outcome {
                name: name.clone(),
                result: Err(why),
            });
            continue;
        }
        if !force && let Some(why) = claimed_here(home, &pins, name, entry) {
            outcomes.push(Outcome {
                name: name.clone(),
                result: Err(why),
            });
            continue;
        }
        let here = lock::content_hash(&dest).ok();
        if here.as_deref() == Some(entry.hash.as_str()) {
            pins.skills.insert(name.clone(), entry.clone());
            outcomes.push(Outcome {
                name: name.clone(),
                result: Ok(Done::Current),
            });
            continue;
        }
        let pinned_here = pins.skills.get(name).map(|e| e.hash.as_str());
        if here.is_some() && here.as_deref() != pinned_here && !force {
            outcomes.push(Outcome {
                name: name.clone(),
                result: Err(format!(
                    "'{}' differs from the lock and was changed here: kept; `skilltui sync --force` replaces it",
                    sanitize_line(name)
                )),
            });
            continue;
        }
        if entry.is_web() {
            web.entry(entry.source.clone())
                .or_default()
                .push((name.clone(), entry.clone()));
            continue;
        }
        let key = (entry.source.clone(), Some(entry.commit.clone()));
        todo.entry(key)
            .or_default()
            .push((name.clone(), entry.clone()));
    }
    if !user_asked.is_empty() {
        warnings.push(format!(
            "{} asks to give {} at user scope: a project's lock gives only in the project, so not given; to give one on purpose, run `skilltui agent enable AGENT NAME`",
            wanted.path.display(),
            sanitize_line(&user_asked.join(", "))
        ));
    }
    for (source, items) in web {
        // Edits were weighed above, against both locks.
        let how = WebRun {
            keep_edits: false,
            allow_large,
            trust,
            sync: true,
            foreign,
            allow_local,
            by: None,
            dry_run: false,
        };
        apply_web(home, &mut pins, &source, &items, how, &mut outcomes);
    }
    for ((url, commit), items) in todo {
        let items = reached_pins(&url, items, &mut outcomes);
        if items.is_empty() {
            continue;
        }
        // Edits were weighed above, against both locks.
        let group = Group {
            url: &url,
            reference: commit.as_deref(),
            items: &items,
            keep_edits: false,
            allow_large,
            trust,
            dry_run: false,
        };
        apply_group(home, &mut pins, &group, progress, &mut outcomes);
    }
    pins.write()
        .map_err(|e| unpinned(&installed_names(&outcomes), &e))?;
    let unlocked = store::list(home, false)
        .valid()
        .filter(|e| e.source_dir == home.skills_dir())
        .map(|e| e.name().to_string())
        .filter(|n| !wanted.skills.contains_key(n))
        .collect();
    outcomes.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Synced {
        outcomes,
        unlocked,
        warnings,
    })
}
