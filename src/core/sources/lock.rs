//! `<home>/skilltui.lock`: where each skill installed from git came from
//! and what it held. TOML, one table per skill sorted by name, so a team
//! can commit it and review its diffs; written atomically, and never over a
//! change another process made since it was read.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::core::cao::store::{self, Home};
use crate::core::fsops;

pub const FILE_NAME: &str = "skilltui.lock";
const HEADER: &str = "# Written by skilltui: the skills installed from git, pinned.\n# Commit it; teammates run `skilltui sync`.\n\n";

/// One pinned skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The repository URL, as given to git.
    pub source: String,
    /// The skill's folder inside the repository (`""`: its root).
    #[serde(default)]
    pub path: String,
    /// The ref asked for; absent means the default branch.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The commit installed (a skill from a URL has none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub commit: String,
    /// The git tree id of the skill's folder in that commit: `check` calls
    /// the skill outdated only when its folder's tree moved, not on any
    /// commit to the repository. Absent in locks written before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    /// [`content_hash`] of the folder as installed.
    pub hash: String,
    /// Installed with `--allow-large`: `update` and `sync` lift the limits
    /// on it too. Absent (false) in locks written before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_large: bool,
    /// The agents skilltui gave this skill to, as `ID:SCOPE` (`amp:user`),
    /// so that `sync`, here or a teammate's, gives it to them again. Absent
    /// (none) in locks written before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<String>,
    /// For a skill fetched over HTTP (not git): the artifact downloaded, a
    /// SKILL.md or an archive. `source` is then the site whose index
    /// lists it, or this same URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The `sha256:HEX` of that artifact as installed (for a site that
    /// publishes no digest, the digest of what was fetched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The `version` the site's index gave the skill, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The name of the site's index entry the skill came from, when it is
    /// not the skill's own (its SKILL.md's `name`, which names the skill
    /// and this entry): `check` and `update` look the entry up by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
}

impl Entry {
    /// Installed over HTTP, from an index or a URL, not from git.
    pub fn is_web(&self) -> bool {
        self.url.is_some()
    }

    /// Listed in a site's index (`source` the site), not a URL alone.
    pub fn from_index(&self) -> bool {
        self.url.as_ref().is_some_and(|u| *u != self.source)
    }

    /// The index entry to look up for the skill `name` of this entry.
    pub fn index_name<'a>(&'a self, name: &'a str) -> &'a str {
        self.entry.as_deref().unwrap_or(name)
    }

    /// What it was installed at, for a message: the commit's first 12
    /// characters, or the digest's.
    pub fn version(&self) -> &str {
        let v = match &self.digest {
            Some(d) => d.strip_prefix("sha256:").unwrap_or(d),
            None => &self.commit,
        };
        &v[..v.len().min(12)]
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileFormat {
    version: u32,
    #[serde(default)]
    skills: BTreeMap<String, Entry>,
}

/// A lock file as read, with the bytes and entries it held (to detect a
/// concurrent writer and carry only this process's changes over its).
#[derive(Clone, Debug)]
pub struct Lock {
    pub path: PathBuf,
    pub skills: BTreeMap<String, Entry>,
    read_bytes: Vec<u8>,
    read_skills: BTreeMap<String, Entry>,
}

/// A lock of 10,000 skills is about 2 MiB; a teammate's huge one must not
/// take the memory.
const MAX_LOCK_BYTES: u64 = 16 << 20;

/// Adds (`given`) or drops `agent` (`ID:SCOPE`) in the home lock's entry
/// for `skill`. A skill that is not locked (not from git) has no entry:
/// nothing to note.
pub fn note_agent(home: &Home, skill: &str, agent: &str, given: bool) -> Result<(), String> {
    note_agent_at(&default_path(home), skill, agent, given)
}

/// [`note_agent`] in the lock at `path` (a project's).
pub fn note_agent_at(path: &Path, skill: &str, agent: &str, given: bool) -> Result<(), String> {
    let mut lock = Lock::read(path)?;
    let Some(entry) = lock.skills.get_mut(skill) else {
        return Ok(());
    };
    let had = entry.agents.iter().any(|a| a == agent);
    match (given, had) {
        (true, false) => {
            entry.agents.push(agent.to_string());
            entry.agents.sort();
        }
        (false, true) => entry.agents.retain(|a| a != agent),
        _ => return Ok(()),
    }
    lock.write()
}

/// Drops `skill`'s entry from the lock at `path`; its path when it had one.
pub fn unpin(path: &Path, skill: &str) -> Result<Option<PathBuf>, String> {
    let mut lock = Lock::read(path)?;
    if lock.skills.remove(skill).is_none() {
        return Ok(None);
    }
    lock.write()?;
    Ok(Some(lock.path))
}

/// Why an entry's agent label is not one skilltui writes (`ID:SCOPE`: an
/// id of 1-64 letters, digits, `-`, `_` or `.`, at `user` or `project`),
/// or `None` for a good one. Whether the id is a known agent is the
/// agents table's to say, when the label is given.
pub fn label_problem(label: &str) -> Option<&'static str> {
    let Some((id, scope)) = label.split_once(':') else {
        return Some("is not ID:SCOPE");
    };
    let id_ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && id != "."
        && id != "..";
    if !id_ok {
        return Some("has an agent id that is not 1-64 letters, digits, '-', '_' or '.'");
    }
    if !matches!(scope, "user" | "project") {
        return Some("has a scope skilltui never gives at (only user and project)");
    }
    None
}

pub fn default_path(home: &Home) -> PathBuf {
    home.root.join(FILE_NAME)
}

/// The project's committed lock, as cargo and npm find theirs: the first
/// `skilltui.lock` from `cwd` up to the repository root (the first folder
/// holding `.git`); outside a repository, only `cwd` itself is looked at,
/// so a stray lock in `/tmp` or `~` is never taken for a project's.
pub fn project_lock(cwd: &Path) -> Option<PathBuf> {
    let root = project_root(cwd);
    cwd.ancestors()
        .take_while(|d| d.starts_with(&root))
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// The project `cwd` is in: its repository root, else `cwd` itself.
pub fn project_root(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// The lock `check`, `update` and `sync` follow: the project's (from the
/// working directory) when there is one, else the home's.
pub fn in_use(home: &Home) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| project_lock(&cwd))
        .unwrap_or_else(|| default_path(home))
}

/// Whether `path` is the home's own lock (not a project's or a team's).
pub fn is_home_lock(home: &Home, path: &Path) -> bool {
    let own = default_path(home);
    path == own || (path.canonicalize().ok()).is_some_and(|p| Some(p) == own.canonicalize().ok())
}

/// Copies the home lock's entries for `names` (skills just installed and
/// given at project scope) into the project's lock, made at the project's
/// root when it has none, so teammates' `sync` installs them too. Returns
/// the project lock's path when it recorded anything.
pub fn record_in_project(
    home: &Home,
    names: &[String],
    cwd: &Path,
) -> Result<Option<PathBuf>, String> {
    let pins = Lock::read(&default_path(home))?;
    let path = project_lock(cwd).unwrap_or_else(|| project_root(cwd).join(FILE_NAME));
    if is_home_lock(home, &path) {
        return Ok(None);
    }
    let mut project = Lock::read(&path)?;
    let mut any = false;
    for name in names {
        if let Some(e) = pins.skills.get(name) {
            // The pin travels; this user's own agents do not. The project's
            // lock keeps only what was given in the project.
            let agents = project
                .skills
                .get(name)
                .map(|p| p.agents.clone())
                .unwrap_or_default();
            let kept = e.agents.iter().filter(|a| a.ends_with(":project"));
            let mut entry = e.clone();
            entry.agents = agents.into_iter().chain(kept.cloned()).collect();
            entry.agents.sort();
            entry.agents.dedup();
            project.skills.insert(name.clone(), entry);
            any = true;
        }
    }
    if !any {
        return Ok(None);
    }
    project.write()?;
    Ok(Some(path))
}

impl Lock {
    /// Reads `path`; a missing file is an empty lock.
    pub fn read(path: &Path) -> Result<Lock, String> {
        let bytes = match fsops::read_capped(path, MAX_LOCK_BYTES) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let skills = parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Lock {
            path: path.to_path_buf(),
            read_skills: skills.clone(),
            skills,
            read_bytes: bytes,
        })
    }

    /// Writes this process's changes atomically. When another process
    /// wrote the file since it was read (two `update`s at once), the
    /// entries it wrote are kept and only the ones changed here replace
    /// theirs: the store already holds what both installed.
    pub fn write(&mut self) -> Result<(), String> {
        let path = self.path.clone();
        let mut written = None;
        fsops::rewrite(&path, || {
            let now = Lock::read(&path)?;
            let skills = self.changes_over(now.skills);
            let text = render(&skills);
            // No churn: an unchanged lock, or no lock at all for no git skills.
            let absent_and_empty = skills.is_empty() && now.read_bytes.is_empty();
            let unchanged = absent_and_empty || text.as_bytes() == now.read_bytes;
            let new = (!unchanged).then(|| text.into_bytes());
            let bytes = new.clone().unwrap_or_else(|| now.read_bytes.clone());
            written = Some((skills, bytes));
            Ok(fsops::Reread {
                read: now.read_bytes,
                new,
            })
        })?;
        if let Some((skills, bytes)) = written {
            self.read_bytes = bytes;
            self.read_skills = skills.clone();
            self.skills = skills;
        }
        Ok(())
    }

    /// `theirs` with every entry this process added, replaced or removed
    /// since the read applied to it.
    fn changes_over(&self, mut theirs: BTreeMap<String, Entry>) -> BTreeMap<String, Entry> {
        let names = self.skills.keys().chain(self.read_skills.keys());
        for name in names {
            match (self.skills.get(name), self.read_skills.get(name)) {
                (ours, read) if ours == read => {}
                (Some(e), _) => {
                    theirs.insert(name.clone(), e.clone());
                }
                (None, _) => {
                    theirs.remove(name);
                }
            }
        }
        theirs
    }
}

fn parse(bytes: &[u8]) -> Result<BTreeMap<String, Entry>, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| "is not valid UTF-8: restore it from version control".to_string())?;
    if text.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    let file: FileFormat = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        let what = e.message().trim().replace('\n', " ");
        match line {
            Some(n) => format!("line {n}: {what}: fix the line or restore the file"),
            None => format!("{what}: fix the file or restore it"),
        }
    })?;
    if file.version != 1 {
        return Err(format!(
            "lock version {} is not one this skilltui reads (1): upgrade skilltui",
            file.version
        ));
    }
    let mut skills = file.skills;
    for (name, e) in skills.iter_mut() {
        // A lock is committed: an old one's token goes at its next write.
        e.source = crate::core::text::strip_credentials(&e.source).into_owned();
        if let Some(u) = &mut e.url {
            *u = crate::core::text::strip_credentials(u).into_owned();
        }
        check_entry(name, e).map_err(|why| {
            format!(
                "skill '{}': {why}: fix the entry",
                crate::core::text::sanitize_line(name)
            )
        })?;
    }
    Ok(skills)
}

/// A lock may come from a teammate: its names and paths must stay inside
/// the store and the repository, and nothing may reach git as an option.
fn check_entry(name: &str, e: &Entry) -> Result<(), String> {
    if store::check_name(name)? != name {
        return Err("the name has surrounding spaces".into());
    }
    if e.is_web() {
        return check_web_entry(e);
    }
    crate::core::sources::source::check_git_parts(&e.source, e.reference.as_deref(), &e.path)?;
    if !crate::core::sources::git::is_commit_id(&e.commit) {
        return Err("`commit` is not a 40-character commit id".into());
    }
    let hex = |t: &String| t.len() >= 40 && t.bytes().all(|b| b.is_ascii_hexdigit());
    if e.tree.as_ref().is_some_and(|t| !hex(t)) {
        return Err("`tree` is not a git tree id".into());
    }
    Ok(())
}

/// A skill from HTTP: https (or loopback http) URLs, a digest, a path
/// inside what was unpacked, and none of git's fields.
fn check_web_entry(e: &Entry) -> Result<(), String> {
    use crate::core::sources::{http, wellknown};
    let url = e.url.as_deref().unwrap_or_default();
    if let Some(why) = http::refuse(&e.source).or_else(|| http::refuse(url)) {
        return Err(why);
    }
    if !e.digest.as_deref().is_some_and(wellknown::is_digest) {
        return Err("`digest` is not sha256: and 64 hex digits".into());
    }
    if !e.commit.is_empty() || e.reference.is_some() || e.tree.is_some() {
        return Err("a skill from a URL has no `commit`, `ref` or `tree`".into());
    }
    let climbs = std::path::Path::new(&e.path)
        .components()
        .any(|c| !matches!(c, std::path::Component::Normal(_)));
    if climbs {
        return Err("`path` leaves the folder: give a relative path without '..'".into());
    }
    Ok(())
}

fn render(skills: &BTreeMap<String, Entry>) -> String {
    let file = FileFormat {
        version: 1,
        skills: skills.clone(),
    };
    let body = toml::to_string(&file).unwrap_or_default();
    format!("{HEADER}{body}")
}

/// A hash of what a folder holds, as [`fsops::walk`] lists it with links
/// kept (relative paths and bytes in path order, the executable bit, a
/// link's target; timestamps do not count), as `sha256:HEX`.
pub fn content_hash(root: &Path) -> Result<String, String> {
    let walked = fsops::walk(root, fsops::Links::Keep, None)?;
    let mut hasher = Sha256::new();
    let mut buf = Vec::new();
    // In the order of the paths as text, as earlier locks were hashed.
    let mut items: Vec<(String, &fsops::Item)> = walked
        .items
        .iter()
        .map(|i| (i.rel.to_string_lossy().into_owned(), i))
        .collect();
    items.sort_by(|a, b| a.0.cmp(&b.0));
    for (rel, item) in items {
        match &item.kind {
            fsops::Kind::Dir => continue,
            fsops::Kind::File { executable, .. } => {
                buf.clear();
                let path = &item.from;
                let (mut file, _) = fsops::open_regular(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                file.read_to_end(&mut buf)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                hasher.update(rel.as_bytes());
                hasher.update([0, *executable as u8]);
            }
            fsops::Kind::Link(target) => {
                buf.clear();
                buf.extend_from_slice(target.to_string_lossy().as_bytes());
                hasher.update(rel.as_bytes());
                hasher.update([0, 2]);
            }
        }
        hasher.update((buf.len() as u64).to_le_bytes());
        hasher.update(&buf);
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_that_leave_the_store_or_reach_git_as_options_are_refused() {
        let good = entry(&"a".repeat(40));
        assert!(check_entry("x", &good).is_ok());
        assert!(check_entry("../x", &good).is_err());
        for bad in [
            Entry {
                path: "../../etc".into(),
                ..good.clone()
            },
            Entry {
                source: "--upload-pack=sh".into(),
                ..good.clone()
            },
            Entry {
                source: "ext::sh -c touch% /tmp/x".into(),
                ..good.clone()
            },
            Entry {
                source: "fd::3".into(),
                ..good.clone()
            },
            Entry {
                reference: Some("-x".into()),
                ..good.clone()
            },
            Entry {
                commit: "main".into(),
                ..good.clone()
            },
        ] {
            assert!(check_entry("x", &bad).is_err(), "{bad:?}");
        }
    }

    fn entry(commit: &str) -> Entry {
        Entry {
            source: "https://github.com/o/r".into(),
            path: "skills/a".into(),
            reference: Some("main".into()),
            commit: commit.into(),
            tree: None,
            hash: "sha256:00".into(),
            allow_large: false,
            agents: Vec::new(),
            url: None,
            digest: None,
            version: None,
            entry: None,
        }
    }

    #[test]
    fn a_pin_copied_into_a_project_leaves_this_users_own_agents_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let home = crate::core::cao::store::Home::at(tmp.path().join("cao"), tmp.path().into());
        std::fs::create_dir_all(&home.root).unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let mut pins = Lock::read(&default_path(&home)).unwrap();
        let mut e = entry(&"1".repeat(40));
        e.agents = vec!["claude-code:project".into(), "codex:user".into()];
        pins.skills.insert("alpha".into(), e);
        pins.write().unwrap();
        let names = ["alpha".to_string()];
        let path = record_in_project(&home, &names, &project).unwrap().unwrap();
        let agents = &Lock::read(&path).unwrap().skills["alpha"].agents;
        assert_eq!(agents, &["claude-code:project"]);
    }

    #[test]
    fn round_trips_sorted_and_stable() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(FILE_NAME);
        let mut lock = Lock::read(&path).unwrap();
        assert!(lock.skills.is_empty());
        lock.skills.insert("zeta".into(), entry(&"2".repeat(40)));
        lock.skills.insert("alpha".into(), entry(&"1".repeat(40)));
        lock.write().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.find("[skills.alpha]") < text.find("[skills.zeta]"),
            "{text}"
        );
        let again = Lock::read(&path).unwrap();
        assert_eq!(again.skills, lock.skills);
        assert_eq!(render(&again.skills), text);
        // `allow_large` is written only when set, so older locks read and
        // write the same.
        assert!(!text.contains("allow_large"), "{text}");
        lock.skills.get_mut("zeta").unwrap().allow_large = true;
        lock.write().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("allow_large = true"), "{text}");
        assert!(Lock::read(&path).unwrap().skills["zeta"].allow_large);
    }

    #[test]
    fn a_bad_lock_names_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(FILE_NAME);
        std::fs::write(&path, "version = 1\n\n[skills.a]\nsource = \n").unwrap();
        let e = Lock::read(&path).unwrap_err();
        assert!(e.contains("line 4"), "{e}");
    }

    #[test]
    fn two_writers_from_one_read_keep_each_others_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(FILE_NAME);
        let mut seed = Lock::read(&path).unwrap();
        seed.skills.insert("gone".into(), entry(&"0".repeat(40)));
        seed.skills.insert("kept".into(), entry(&"0".repeat(40)));
        seed.write().unwrap();
        let mut first = Lock::read(&path).unwrap();
        let mut second = Lock::read(&path).unwrap();
        first.skills.insert("a".into(), entry(&"a".repeat(40)));
        first.skills.remove("gone");
        first.write().unwrap();
        second.skills.insert("b".into(), entry(&"b".repeat(40)));
        second.write().unwrap();
        let names: Vec<String> = Lock::read(&path).unwrap().skills.into_keys().collect();
        assert_eq!(names, ["a", "b", "kept"]);
        // A file that no longer parses is not written over.
        std::fs::write(&path, "version = 1\n[skills.x]\nsource = \n").unwrap();
        second.skills.insert("c".into(), entry(&"c".repeat(40)));
        assert!(second.write().unwrap_err().contains("line 3"));
    }

    #[test]
    fn the_hash_follows_content_and_names_not_times() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::create_dir_all(d.join("s/sub")).unwrap();
        std::fs::write(d.join("s/SKILL.md"), "x").unwrap();
        std::fs::write(d.join("s/sub/f"), "y").unwrap();
        let h1 = content_hash(&d.join("s")).unwrap();
        std::fs::write(d.join("s/sub/f"), "y").unwrap();
        assert_eq!(content_hash(&d.join("s")).unwrap(), h1);
        std::fs::write(d.join("s/sub/f"), "z").unwrap();
        assert_ne!(content_hash(&d.join("s")).unwrap(), h1);
        std::fs::rename(d.join("s/sub/f"), d.join("s/sub/g")).unwrap();
        std::fs::write(d.join("s/sub/g"), "y").unwrap();
        assert_ne!(content_hash(&d.join("s")).unwrap(), h1);
    }
}
