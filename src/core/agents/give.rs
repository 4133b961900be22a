//! Giving a store skill to an agent (a link, or a copy where the agent is
//! not known to follow links) and taking it back. Every link or copy made
//! is recorded in `<home>/skilltui-agents.json` (written atomically, never
//! over another writer's change), and only what that record says skilltui
//! made, still as it made it, is ever deleted: a link still pointing where
//! it was made to, a copy whose hash is what was written. A folder the
//! user made in an agent's dir is shown, can be adopted into the store,
//! and is never deleted.

use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::shared;
use crate::core::agents::table::{Agent, Parser, Scope, Walk};
use crate::core::cao::store::{self, Home};
use crate::core::fsops;
use crate::core::sources::{interrupt, lock};

pub const FILE_NAME: &str = "skilltui-agents.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Link,
    Copy,
}

/// One link or copy skilltui made.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Target {
    pub agent: String,
    pub skill: String,
    pub scope: Scope,
    /// The link or folder made.
    #[serde(with = "path_bytes")]
    pub path: PathBuf,
    pub kind: Kind,
    /// The store folder linked to or copied from.
    #[serde(with = "path_bytes")]
    pub from: PathBuf,
    /// A copy's content hash when it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// A project-scope link's target: the project's one copy, linked to
    /// relatively (`from` stays the store folder it was copied from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<Shared>,
}

/// The project's one copy of a skill (`<project>/.agents/skills/NAME`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shared {
    #[serde(with = "path_bytes")]
    pub path: PathBuf,
    /// Its content hash when skilltui wrote it; `None` when it was there
    /// already (a teammate's, committed): then it is never deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// A folder skilltui created to give a skill (`.codex`, `.codex/skills`,
/// `.agents/skills`): removed once empty, and no other folder ever is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MadeDir {
    #[serde(with = "path_bytes")]
    pub path: PathBuf,
}

/// A path in the record: text when it is UTF-8, else its bytes (a JSON
/// array), so a project under a folder whose name is not UTF-8 is
/// recorded as itself, never as a lossy copy of its name.
mod path_bytes {
    use std::ffi::OsString;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    use std::path::{Path, PathBuf};

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Form {
        Text(String),
        Bytes(Vec<u8>),
    }

    pub fn serialize<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
        match p.to_str() {
            Some(t) => Form::Text(t.to_string()),
            None => Form::Bytes(p.as_os_str().as_bytes().to_vec()),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        Ok(match Form::deserialize(d)? {
            Form::Text(t) => PathBuf::from(t),
            Form::Bytes(b) => PathBuf::from(OsString::from_vec(b)),
        })
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Record {
    #[serde(default)]
    pub targets: Vec<Target>,
    /// The folders skilltui created for project-scope skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dirs: Vec<MadeDir>,
    /// The targets as read: a write carries over only what changed since.
    #[serde(skip)]
    read_targets: Vec<Target>,
    #[serde(skip)]
    read_dirs: Vec<MadeDir>,
}

/// At most this much record is read: a hostile file stays bounded.
const MAX_RECORD: u64 = 16 * 1024 * 1024;

impl Record {
    pub fn path(home: &Home) -> PathBuf {
        home.root.join(FILE_NAME)
    }

    /// The record; a missing file is an empty one.
    pub fn read(home: &Home) -> Result<Record, String> {
        Ok(Record::read_bytes(home)?.0)
    }

    /// The record and the bytes it was read from.
    fn read_bytes(home: &Home) -> Result<(Record, Vec<u8>), String> {
        let path = Record::path(home);
        let bytes = match fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Record::default(), Vec::new()));
            }
            Ok(m) if m.len() > MAX_RECORD => {
                return Err(format!(
                    "{} is too large to be skilltui's record",
                    path.display()
                ));
            }
            _ => fsops::read_regular(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        };
        let mut record: Record = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} is not valid JSON ({e}): fix or move it", path.display()))?;
        record.read_targets = record.targets.clone();
        record.read_dirs = record.dirs.clone();
        Ok((record, bytes))
    }

    /// Writes the targets this process added, changed or dropped since it
    /// read the record over what the file holds now, under the folder's
    /// turn, as the lock is written: twelve `agent disable`s at once each
    /// keep the others' changes.
    pub fn write(&mut self, home: &Home) -> Result<(), String> {
        let mut merged = None;
        fsops::rewrite(&Record::path(home), || {
            let (now, read) = Record::read_bytes(home)?;
            let targets = self.changes_over(now.targets);
            let dirs = merged_over(&self.read_dirs, &self.dirs, now.dirs);
            let mut bytes = serde_json::to_vec_pretty(&Record {
                targets: targets.clone(),
                dirs: dirs.clone(),
                ..Record::default()
            })
            .map_err(|e| e.to_string())?;
            bytes.push(b'\n');
            let new = (bytes != read).then_some(bytes);
            merged = Some((targets, dirs));
            Ok(fsops::Reread { read, new })
        })?;
        if let Some((targets, dirs)) = merged {
            self.read_targets = targets.clone();
            self.targets = targets;
            self.read_dirs = dirs.clone();
            self.dirs = dirs;
        }
        Ok(())
    }

    /// Notes folders just created (once each).
    fn note_dirs(&mut self, made: Vec<PathBuf>) {
        for path in made {
            let d = MadeDir { path };
            if !self.dirs.contains(&d) {
                self.dirs.push(d);
            }
        }
    }

    /// `theirs` with the targets added or changed here since the read put
    /// in (by path), and those dropped here taken out.
    fn changes_over(&self, mut theirs: Vec<Target>) -> Vec<Target> {
        use std::collections::HashSet;
        let ours: HashSet<&PathBuf> = self.targets.iter().map(|t| &t.path).collect();
        let dropped: HashSet<&PathBuf> = (self.read_targets.iter())
            .map(|t| &t.path)
            .filter(|p| !ours.contains(p))
            .collect();
        let read: HashSet<&Target> = self.read_targets.iter().collect();
        let changed: Vec<&Target> = (self.targets.iter())
            .filter(|t| !read.contains(t))
            .collect();
        let replaced: HashSet<&PathBuf> = changed.iter().map(|t| &t.path).collect();
        theirs.retain(|t| !dropped.contains(&t.path) && !replaced.contains(&t.path));
        theirs.extend(changed.into_iter().cloned());
        theirs
    }

    pub fn of(&self, agent: &str, skill: &str) -> impl Iterator<Item = &Target> {
        let (agent, skill) = (agent.to_string(), skill.to_string());
        self.targets
            .iter()
            .filter(move |t| t.agent == agent && t.skill == skill)
    }

    pub fn made(&self, path: &Path) -> Option<&Target> {
        self.targets.iter().find(|t| t.path == path)
    }

    /// The copy at `path` was written hashed `hash`: so say all the
    /// targets that are it or link to it.
    fn copy_written(&mut self, path: &Path, hash: &str) {
        for t in &mut self.targets {
            match &mut t.shared {
                Some(s) if s.path == path => s.hash = Some(hash.to_string()),
                None if t.kind == Kind::Copy && t.path == path => t.hash = Some(hash.to_string()),
                _ => {}
            }
        }
    }

    /// A target that is, or links to, the project copy at `path`.
    fn using(&self, path: &Path) -> Option<&Target> {
        self.targets
            .iter()
            .find(|t| t.path == path || t.shared.as_ref().is_some_and(|s| s.path == path))
    }
}

/// `theirs` with what was added here since `read` put in and what was
/// dropped here taken out.
fn merged_over(read: &[MadeDir], ours: &[MadeDir], mut theirs: Vec<MadeDir>) -> Vec<MadeDir> {
    theirs.retain(|d| ours.contains(d) || !read.contains(d));
    for d in ours {
        if !read.contains(d) && !theirs.contains(d) {
            theirs.push(d.clone());
        }
    }
    theirs
}

/// Whether a record entry is one skilltui could have made: the skill's own
/// name, directly in a skill dir of that agent for that scope, linked to
/// or copied from that name in one of CAO's skill dirs. The record is a
/// file anyone can edit: an entry naming anything else is never acted on,
/// so nothing is deleted or made outside the agents' dirs.
pub fn plausible(t: &Target, home: &Home, agents: &[Agent], ctx: &Ctx) -> bool {
    let Ok(name) = store::check_name(&t.skill) else {
        return false;
    };
    let plain = |p: &Path| {
        p.is_absolute()
            && p.file_name().is_some_and(|n| n == name.as_str())
            && p.components()
                .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
    };
    if name != t.skill || !plain(&t.path) || !plain(&t.from) || !GIVEN_SCOPES.contains(&t.scope) {
        return false;
    }
    let from_store = t
        .from
        .parent()
        .is_some_and(|d| home.skill_search_dirs().iter().any(|s| s == d));
    // A project copy is that name in a project's `.agents/skills`, and the
    // link to it is in that same project.
    let shared_ok = t.shared.as_ref().is_none_or(|s| {
        plain(&s.path)
            && t.kind == Kind::Link
            && shared::root_of(&s.path).is_some_and(|root| t.path.starts_with(root))
    });
    if !shared_ok {
        return false;
    }
    let agent = agents.iter().find(|a| a.id == t.agent);
    let dir = t.path.parent();
    match (agent, dir) {
        (Some(agent), Some(dir)) => from_store && is_agent_dir(agent, ctx, t.scope, dir),
        _ => false,
    }
}

/// Whether `dir` is where skilltui gives `agent` skills at `scope`: that
/// dir from here, or (for a project location) the same location under
/// another project folder, as a link made from another working directory.
fn is_agent_dir(agent: &Agent, ctx: &Ctx, scope: Scope, dir: &Path) -> bool {
    if target_dir(agent, ctx, scope).is_ok_and(|d| d == dir) {
        return true;
    }
    // The project's copies, for an agent that reads them in place.
    let reads_copies = agent.locations.iter().any(|l| {
        l.scope == Scope::Project
            && l.path
                .strip_prefix("{project}/")
                .is_some_and(|rest| rest == shared::DIR)
    });
    if scope == Scope::Project && agent.link_ok && reads_copies && dir.ends_with(shared::DIR) {
        return true;
    }
    give_location(agent, scope)
        .and_then(|loc| loc.path.strip_prefix("{project}"))
        .map(|rest| rest.trim_start_matches('/'))
        .is_some_and(|rest| !rest.is_empty() && dir.ends_with(rest))
}

/// The location skilltui gives skills in for `scope`: the agent's first
/// one of that scope that is a plain directory.
fn give_location(agent: &Agent, scope: Scope) -> Option<&crate::core::agents::table::Location> {
    agent
        .locations
        .iter()
        .find(|l| l.scope == scope && l.path != scan::BUILT_IN && !l.path.contains('*'))
}

/// The scopes skilltui gives skills at (an agent's user and project dirs).
const GIVEN_SCOPES: [Scope; 2] = [Scope::User, Scope::Project];

/// The dir where `agent` gets skills at `scope`: its first location of
/// that scope, with `{project}` the working directory (the git root for
/// agents that read only the root), absolute. Refused: any scope but user
/// and project; a project scope from `/` (a team lock's `ID:project`
/// synced there would write `/.claude/skills`); `/`, the user's home,
/// CAO's home or one of its skill dirs (a user's agent file saying `/.`
/// or `{cao_store}`); and a project dir
/// that, through a link, leads out of the project.
pub fn target_dir(agent: &Agent, ctx: &Ctx, scope: Scope) -> Result<PathBuf, String> {
    if agent.parser == Parser::Cao {
        return Err("CAO's skills are the store itself: use `skilltui add`".into());
    }
    let loc = give_location(agent, scope)
        .filter(|_| GIVEN_SCOPES.contains(&scope))
        .ok_or_else(|| format!("{} has no {} skill dir", agent.name, scope.label()))?;
    let base = match loc.walk {
        Walk::GitRoot => ctx.git_root().unwrap_or_else(|| ctx.cwd.clone()),
        _ => ctx.cwd.clone(),
    };
    if scope == Scope::Project && base.parent().is_none() {
        return Err(format!(
            "the project folder would be {}: skilltui gives no project skills there; run it in the project's folder",
            base.display()
        ));
    }
    if scope == Scope::Project {
        not_the_home(ctx, &base)?;
    }
    let dir = match scan::env_dir(loc, ctx) {
        Some(dir) => dir,
        None => scan::with_project(&loc.path, &base, ctx)
            .into_iter()
            .next()
            .ok_or_else(|| format!("{}'s {} dir is not set", agent.name, scope.label()))?,
    };
    never_there(agent, ctx, &dir)?;
    if scope == Scope::Project && loc.path.starts_with("{project}") {
        stays_in_project(&dir, &base)?;
    }
    Ok(dir)
}

/// Refuses a project that is the user's home folder (run from `~`, or
/// in a dotfiles repository there): its `.claude/skills` and
/// `.agents/skills` are the agents' user dirs, read in every project.
fn not_the_home(ctx: &Ctx, base: &Path) -> Result<(), String> {
    let home = fsops::absolute(&ctx.user_home);
    let root = lock::project_root(&ctx.cwd);
    if [base, root.as_path()]
        .iter()
        .any(|p| fsops::absolute(p) == home)
    {
        return Err(format!(
            "the project folder would be your home folder {}: its skill dirs are every project's; run it inside the project's folder, or give at user scope (`--scope user`)",
            ctx.user_home.display()
        ));
    }
    Ok(())
}

/// Refuses a skill dir that is `/` or the user's home, or is in CAO's
/// home or one of its skill dirs: giving there would write among what is
/// not the agent's. Compared as written and with links resolved.
fn never_there(agent: &Agent, ctx: &Ctx, dir: &Path) -> Result<(), String> {
    let real = fsops::absolute(dir);
    let is = |f: &Path| dir == f || real == fsops::absolute(f);
    let under = |f: &Path| dir.starts_with(f) || real.starts_with(fsops::absolute(f));
    let cao = ctx
        .cao
        .iter()
        .flat_map(|h| std::iter::once(h.root.clone()).chain(h.skill_search_dirs()));
    let bad = is(Path::new("/")) || is(&ctx.user_home) || cao.into_iter().any(|d| under(&d));
    if bad {
        return Err(format!(
            "{}'s skill dir {} is /, the home folder, or in CAO's home or store: skilltui never gives skills there; fix the agent's location",
            agent.id,
            dir.display()
        ));
    }
    Ok(())
}

/// Refuses a project skill dir (`skills`, `.claude/skills`) that is, or
/// sits under, a link leading out of the project: a cloned repository's
/// `skills -> ~/.ssh` must not be written through.
fn stays_in_project(dir: &Path, project: &Path) -> Result<(), String> {
    let project_real = fsops::absolute(project);
    let mut at = dir;
    // The deepest part of the dir that exists is what a write goes through.
    while fs::symlink_metadata(at).is_err() {
        match at.parent() {
            Some(p) if p.starts_with(project) => at = p,
            _ => return Ok(()),
        }
    }
    let real = fsops::absolute(at);
    if real.starts_with(&project_real) {
        return Ok(());
    }
    Err(format!(
        "{} leads out of the project (to {}): skilltui does not give skills through it",
        at.display(),
        real.display()
    ))
}

/// What giving did.
#[derive(Debug, PartialEq, Eq)]
pub enum Given {
    Made(Target),
    /// skilltui had already given it, unchanged.
    Already(PathBuf),
}

/// Gives store skill `name` to `agent` at `scope`: a link, or a copy when
/// `copy` or when the agent is not known to follow links. At project
/// scope a link leads, relatively, to the project's one copy
/// (`<project>/.agents/skills/NAME`, made when missing), never out of the
/// project, and the project's lock notes it. Refuses when anything
/// skilltui did not make sits at the destination.
pub fn enable(
    home: &Home,
    agent: &Agent,
    ctx: &Ctx,
    name: &str,
    scope: Scope,
    copy: bool,
) -> Result<Given, String> {
    // Recorded under the name CAO resolves (`'x '` is `x`), so `remove x`
    // finds it.
    let name = &store::check_name(name)?;
    let from = store::resolve(home, name)?.path;
    let dir = give_dir(agent, ctx, scope, copy)?;
    let dest = dir.join(name);
    let mut record = Record::read(home)?;
    let mut kind = if copy || !agent.link_ok {
        Kind::Copy
    } else {
        Kind::Link
    };
    let project = in_project(ctx, scope, &dir);
    let mut shared_at = (project.as_ref())
        .filter(|_| kind == Kind::Link)
        .map(|root| shared::copy_path(root, name));
    if shared_at.as_ref() == Some(&dest) {
        // The agent reads the project's copy itself: it is that copy.
        (kind, shared_at) = (Kind::Copy, None);
    }
    if fs::symlink_metadata(&dest).is_ok() {
        let hash = match already_there(
            &record,
            agent,
            (name, &from, scope),
            &dest,
            shared_at.as_deref(),
        )? {
            There::Done => return Ok(Given::Already(dest)),
            There::Join(hash) => hash,
        };
        let target = Target {
            agent: agent.id.clone(),
            skill: name.to_string(),
            scope,
            path: dest,
            kind: Kind::Copy,
            from,
            hash,
            shared: None,
        };
        // Nothing was made: nothing to undo should the record fail.
        return keep(home, ctx, &mut record, target, Vec::new(), false);
    }
    if let Some(root) = &project {
        shared::clear_leftovers(root);
    }
    // From the first folder made: Ctrl-C lets this call undo its work.
    let _busy = interrupt::busy();
    if let Some(at) = shared_at.as_ref().filter(|at| is_the_copy(&dest, at)) {
        return Err(format!(
            "{} is the project's copy {} itself (a link on its path leads there): nothing was written; make {} a folder of its own, not a link",
            dest.display(),
            at.display(),
            dir.display()
        ));
    }
    let mut made = (project.as_ref()).map_or_else(Vec::new, |root| shared::missing(&dir, root));
    if let (Some(at), Some(root)) = (&shared_at, &project) {
        let copies = at.parent().unwrap_or(root);
        stays_in_project(copies, root)?;
        made.extend(shared::missing(copies, root));
    }
    let target = Target {
        agent: agent.id.clone(),
        skill: name.to_string(),
        scope,
        path: dest,
        kind,
        from,
        hash: None,
        shared: None,
    };
    let target = match make_all(&record, target, shared_at.as_deref(), project.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            // Nothing recorded: what this call made would be no one's.
            shared::prune(&made);
            return Err(e);
        }
    };
    keep(home, ctx, &mut record, target, made, true)
}

/// Whether `dest`, as written, lands on the project's copy `at` (a link
/// on its path, such as `.claude -> .agents`).
fn is_the_copy(dest: &Path, at: &Path) -> bool {
    dest != at && fsops::inside::real_path(dest) == fsops::inside::real_path(at)
}

/// Makes `target`'s folder, the project's copy at `shared_at` when
/// missing, and the link or copy itself. On failure what it made of
/// these (the copy included) is taken back; the folders are the caller's.
fn make_all(
    record: &Record,
    mut target: Target,
    shared_at: Option<&Path>,
    root: Option<&Path>,
) -> Result<Target, String> {
    let dir = target.path.parent().ok_or("a target with no folder")?;
    make_dir(dir, root)?;
    if let Some(at) = shared_at {
        target.shared = Some(ensure_shared(record, &target.from, at, &target.skill)?);
    }
    make(target.clone(), root).inspect_err(|_| drop_shared(&target, record))
}

/// Makes `dir` and the folders missing on its way; inside the project at
/// `root`, never through a link swapped in on the way.
fn make_dir(dir: &Path, root: Option<&Path>) -> Result<(), String> {
    match root.filter(|r| dir.starts_with(r)) {
        Some(root) => fsops::inside::make_dirs(root, dir),
        None => fs::create_dir_all(dir),
    }
    .map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// Records `target` and the folders `made` for it, then notes it in the
/// locks. When the record cannot be written and `undo`, what was just
/// made is taken back: not recorded means never deletable.
fn keep(
    home: &Home,
    ctx: &Ctx,
    record: &mut Record,
    target: Target,
    made: Vec<PathBuf>,
    undo: bool,
) -> Result<Given, String> {
    let before = record.clone();
    record.note_dirs(made);
    record.targets.push(target.clone());
    if let Err(e) = record.write(home) {
        if undo {
            let _ = take_back(&target);
            drop_shared(&target, &before);
        }
        return Err(e);
    }
    note_in_locks(home, ctx, &target, true)
        .map_err(|e| format!("gave {} to {}, but {e}", target.skill, target.agent))?;
    Ok(Given::Made(target))
}

/// The project root when `dir` is a project-scope dir inside the project
/// (not, say, OpenClaw's workspace in the home).
fn in_project(ctx: &Ctx, scope: Scope, dir: &Path) -> Option<PathBuf> {
    let root = lock::project_root(&ctx.cwd);
    (scope == Scope::Project && dir.starts_with(&root) && dir != root).then_some(root)
}

/// Makes the link or copy `target` names (in the project at `root`, if
/// any) and says what was made, with the copy's hash.
fn make(mut target: Target, root: Option<&Path>) -> Result<Target, String> {
    match target.kind {
        Kind::Link => make_link(&target)?,
        Kind::Copy => {
            let hash = copy_in(&target.from, &target.path, root, &target.skill)?;
            target.hash = Some(hash);
        }
    }
    Ok(target)
}

/// Makes `t`'s link; one to the project's copy must lead there, as the
/// system resolves it, or it is taken back and refused.
fn make_link(t: &Target) -> Result<(), String> {
    // symlink() fails if anything appeared at the link's place meanwhile;
    // in a project it is made in the folder as checked, never through a
    // link swapped in on the way.
    let root = t.shared.as_ref().and_then(|s| shared::root_of(&s.path));
    let made = match root {
        Some(root) => fsops::inside::symlink(&link_target(t), &t.path, root),
        None => std::os::unix::fs::symlink(link_target(t), &t.path),
    };
    made.map_err(|e| {
        format!(
            "cannot link {}: {e}: nothing was kept; move what is in the way aside and try again",
            t.path.display()
        )
    })?;
    let Some(s) = &t.shared else {
        return Ok(());
    };
    let lands = fs::canonicalize(&t.path).ok();
    if lands.is_some() && lands == fs::canonicalize(&s.path).ok() {
        return Ok(());
    }
    let _ = fs::remove_file(&t.path);
    Err(format!(
        "the link {} would not lead to the project's copy {}: nothing was kept; make its folder a real folder (not a link) and try again",
        t.path.display(),
        s.path.display()
    ))
}

/// Writes a copy of `from` at `dest`, which must not exist, staged where no agent looks (see
/// [`shared::staging_area`]); returns its hash.
fn copy_in(from: &Path, dest: &Path, root: Option<&Path>, name: &str) -> Result<String, String> {
    let area = shared::staging_area(dest, root).ok_or_else(|| {
        format!(
            "{} leads out of the project: skilltui does not stage copies through it",
            dest.display()
        )
    })?;
    let mut staging = shared::stage(from, &area, name)?;
    let hash = staged_hash(&staging.path())?;
    // In a project, the rename never follows a link swapped in on the way.
    let project = shared::root_of(dest).or(root.filter(|r| dest.starts_with(r)));
    interrupt::unless_interrupted(|| match project {
        Some(root) => fsops::inside::install_new(staging.take(), dest, root),
        None => fsops::install_new(staging.take(), dest),
    })?;
    Ok(hash)
}

/// What is at a destination that exists.
enum There {
    /// Nothing to do.
    Done,
    /// The project's copy, which this agent reads as it is: recorded for
    /// it too, with the hash skilltui wrote it with (`None`: not
    /// skilltui's, never deleted).
    Join(Option<String>),
}

/// What is already at `dest`: skilltui's own for this agent, unchanged;
/// or, in a project, the relative link a teammate committed to the
/// project's copy (given, never claimed); or the project's copy itself,
/// which this agent reads as it is. Anything else is refused.
fn already_there(
    record: &Record,
    agent: &Agent,
    (name, from, scope): (&str, &Path, Scope),
    dest: &Path,
    shared_at: Option<&Path>,
) -> Result<There, String> {
    let mine = (record.targets.iter()).find(|t| t.path == dest && t.agent == agent.id);
    match mine {
        Some(t) if still_ours(t) || shared_copy(t) => return Ok(There::Done),
        Some(_) => {
            return Err(format!(
                "{} was changed since skilltui made it: it is left as it is",
                dest.display()
            ));
        }
        None => {}
    }
    if shared_at.is_some_and(|at| links_to(dest, at)) {
        return Ok(There::Done);
    }
    let project_copy = scope == Scope::Project && shared::root_of(dest).is_some();
    if project_copy && shared_at.is_none() {
        return Ok(There::Join(ensure_shared(record, from, dest, name)?.hash));
    }
    if record.made(dest).is_some_and(still_ours) {
        return Ok(There::Done);
    }
    Err(format!(
        "{} exists and skilltui did not make it: it is never replaced (`skilltui agent adopt {} {}` copies it into the store)",
        dest.display(),
        agent.id,
        name
    ))
}

/// A project's copy recorded for an agent that reads it in place, not
/// written by skilltui (a teammate's): kept as it is, never deleted.
fn shared_copy(t: &Target) -> bool {
    t.kind == Kind::Copy
        && t.hash.is_none()
        && t.scope == Scope::Project
        && shared::root_of(&t.path).is_some()
}

/// Where `agent` is given skills at `scope` from here: [`target_dir`],
/// except that at project scope an agent that follows links and reads the
/// project's `.agents/skills` itself is given the project's copy there,
/// as it is (a link in its own dir besides would show it the skill twice).
pub fn give_dir(agent: &Agent, ctx: &Ctx, scope: Scope, copy: bool) -> Result<PathBuf, String> {
    let dir = target_dir(agent, ctx, scope)?;
    let root = lock::project_root(&ctx.cwd);
    if scope != Scope::Project || copy || !agent.link_ok || !dir.starts_with(&root) {
        return Ok(dir);
    }
    let copies = root.join(shared::DIR);
    let reads = scan::places(agent, ctx)
        .iter()
        .any(|p| !p.builtin && p.scope == Scope::Project && p.path == copies);
    if !reads {
        return Ok(dir);
    }
    never_there(agent, ctx, &copies)?;
    stays_in_project(&copies, &root)?;
    Ok(copies)
}

/// Whether `link` is the relative link to the project's copy `copy`.
fn links_to(link: &Path, copy: &Path) -> bool {
    let to = shared::link_text(link, copy);
    to.is_some_and(|to| fs::read_link(link).is_ok_and(|p| p == to)) && copy.is_dir()
}

/// The project's copy at `at`: made from the store when missing; reused
/// when skilltui made it or it holds the store's files (a teammate's,
/// committed: never deleted); refused when it holds other files.
fn ensure_shared(record: &Record, from: &Path, at: &Path, name: &str) -> Result<Shared, String> {
    let path = at.to_path_buf();
    match fs::symlink_metadata(at) {
        Err(_) => {
            let dir = at.parent().ok_or("a copy with no folder")?;
            make_dir(dir, shared::root_of(at))?;
            let hash = Some(copy_in(from, at, None, name)?);
            Ok(Shared { path, hash })
        }
        Ok(m) if m.is_dir() => {
            if let Some(t) = record.using(at) {
                let hash = match &t.shared {
                    Some(s) => s.hash.clone(),
                    None => t.hash.clone(),
                };
                return Ok(Shared { path, hash });
            }
            let same = folder_hash(at).is_some_and(|h| folder_hash(from) == Some(h));
            if same {
                return Ok(Shared { path, hash: None });
            }
            Err(format!(
                "{} exists and differs from the store's {name}: skilltui links only to the same files; move it aside, or add it to the store with `skilltui add {}`",
                at.display(),
                at.display()
            ))
        }
        Ok(_) => Err(format!(
            "{} exists and is not a folder: move it aside",
            at.display()
        )),
    }
}

/// What a link holds: the project's copy, relatively, or the store folder.
fn link_target(t: &Target) -> PathBuf {
    match t
        .shared
        .as_ref()
        .and_then(|s| shared::link_text(&t.path, &s.path))
    {
        Some(text) => text,
        None => t.from.clone(),
    }
}

/// Deletes the project copy `t` linked to when skilltui wrote it, it is
/// still as written, and nothing in `record` uses it any more.
fn drop_shared(t: &Target, record: &Record) {
    let Some(s) = t.shared.as_ref().filter(|s| s.hash.is_some()) else {
        return;
    };
    if record.using(&s.path).is_some() {
        return;
    }
    let copy = Target {
        path: s.path.clone(),
        kind: Kind::Copy,
        hash: s.hash.clone(),
        shared: None,
        ..t.clone()
    };
    let _ = take_back_copy(&copy);
}

/// Notes (`given`) or drops `t`'s agent in its skill's entry of the
/// home's lock and, at project scope, of the project's lock, made at the
/// project's root for a skill from git, so a teammate's `sync` gives it.
fn note_in_locks(home: &Home, ctx: &Ctx, t: &Target, given: bool) -> Result<(), String> {
    let label = lock_label(t);
    lock::note_agent(home, &t.skill, &label, given)?;
    if t.scope != Scope::Project {
        return Ok(());
    }
    if given {
        lock::record_in_project(home, std::slice::from_ref(&t.skill), &ctx.cwd)?;
    } else if let Some(path) = lock::project_lock(&ctx.cwd).filter(|p| !lock::is_home_lock(home, p))
    {
        lock::note_agent_at(&path, &t.skill, &label, false)?;
    }
    Ok(())
}

/// How the lock names a target's agent: `ID:SCOPE`.
fn lock_label(t: &Target) -> String {
    format!("{}:{}", t.agent, t.scope.label())
}

/// Whether what the record says skilltui made is still there as made.
pub fn still_ours(t: &Target) -> bool {
    match t.kind {
        Kind::Link => fs::read_link(&t.path).is_ok_and(|p| p == link_target(t)),
        Kind::Copy => same_copy(t.hash.as_deref(), &t.path),
    }
}

/// What taking back one target did.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    Removed(PathBuf),
    /// Already gone: only the record entry was dropped.
    Gone(PathBuf),
    /// Changed since skilltui made it: left in place, record dropped.
    LeftChanged(PathBuf),
    /// The record entry names a place skilltui does not give skills in
    /// (a hand-edited record): left in place, record dropped.
    NotOurs(PathBuf),
    /// The project's copy another agent's link still leads to: left in
    /// place, record dropped.
    Shared(PathBuf),
}

/// Deletes one target if it is still exactly what skilltui made. A copy
/// is first moved aside, hashed there, and moved back if it changed.
fn take_back(t: &Target) -> Taken {
    if fs::symlink_metadata(&t.path).is_err() {
        return Taken::Gone(t.path.clone());
    }
    match t.kind {
        Kind::Link if still_ours(t) => match fs::remove_file(&t.path) {
            Ok(()) => Taken::Removed(t.path.clone()),
            Err(_) => Taken::LeftChanged(t.path.clone()),
        },
        Kind::Link => Taken::LeftChanged(t.path.clone()),
        Kind::Copy => take_back_copy(t),
    }
}

fn take_back_copy(t: &Target) -> Taken {
    // Checked in place first: a folder that is clearly not ours is never
    // even moved.
    let Some(dir) = t.path.parent().filter(|_| still_ours(t)) else {
        return Taken::LeftChanged(t.path.clone());
    };
    // Moved aside where no agent looks (in a project, its `.agents`: a
    // folder being deleted in `.agents/skills` is a skill to OpenCode),
    // held so that a signal ending skilltui deletes it.
    let root = project_of(t);
    let area = shared::staging_area(&t.path, root.as_deref()).unwrap_or_else(|| dir.to_path_buf());
    let Ok(trash) = tempfile::Builder::new()
        .prefix(fsops::STAGING_PREFIX)
        .tempdir_in(&area)
    else {
        return Taken::LeftChanged(t.path.clone());
    };
    let aside = trash.path().join("taken");
    if fs::rename(&t.path, &aside).is_err() {
        return Taken::LeftChanged(t.path.clone());
    }
    let same = same_copy(t.hash.as_deref(), &aside);
    if same {
        // Held only now: a kill while it was checked never deletes what
        // could be the user's.
        let _held = interrupt::hold(trash.path());
        drop(trash);
        return Taken::Removed(t.path.clone());
    }
    // Put it back; should something have appeared there meanwhile, keep
    // the user's folder beside it rather than lose either.
    if fs::rename(&aside, &t.path).is_err() {
        let keep = dir.join(format!(
            "{}.kept-by-skilltui",
            t.path.file_name().unwrap_or_default().to_string_lossy()
        ));
        let _ = fs::rename(&aside, keep);
    }
    Taken::LeftChanged(t.path.clone())
}

/// Takes back the targets `pick` selects. Each is taken back while the
/// record still lists it, and the record is written last, so a run that
/// stops halfway (Ctrl-C, a kill) is finished by running it again: what
/// is already gone is then only forgotten. A signal stops it between two
/// targets, with what was done recorded. The lock is checked before, so
/// a lock that cannot be noted in stops it before anything is touched.
/// Only an entry [`plausible`] for `agents` is ever deleted.
pub fn disable_where(
    home: &Home,
    agents: &[Agent],
    ctx: &Ctx,
    pick: &dyn Fn(&Target) -> bool,
) -> Result<Vec<(Target, Taken)>, String> {
    let mut record = Record::read(home)?;
    let chosen: Vec<Target> = record.targets.iter().filter(|t| pick(t)).cloned().collect();
    for root in project_roots(&chosen) {
        shared::clear_leftovers(&root);
    }
    if chosen.is_empty() {
        return Ok(Vec::new());
    }
    lock::Lock::read(&lock::default_path(home))?;
    let _busy = interrupt::busy();
    // What the record will hold: the chosen targets' copies are used by
    // none of them any more.
    let mut left = record.clone();
    left.targets.retain(|t| !pick(t));
    let mut done: Vec<(Target, Taken)> = Vec::new();
    for t in chosen {
        if interrupt::interrupted() {
            break;
        }
        let taken = if !plausible(&t, home, agents, ctx) {
            Taken::NotOurs(t.path.clone())
        } else if shared_copy(&t) || t.kind == Kind::Copy && left.using(&t.path).is_some() {
            Taken::Shared(t.path.clone())
        } else {
            take_back(&t)
        };
        if matches!(taken, Taken::Removed(_) | Taken::Gone(_)) {
            drop_shared(&t, &left);
        }
        done.push((t, taken));
    }
    // Every step before the record's write is one a second run repeats
    // harmlessly: the folders made, then the locks, then the record.
    prune_made_dirs(&mut record, &done);
    for (t, taken) in &done {
        if matches!(taken, Taken::Removed(_) | Taken::Gone(_)) {
            note_in_locks(home, ctx, t, false)?;
        }
    }
    record
        .targets
        .retain(|t| !done.iter().any(|(d, _)| d.path == t.path && pick(t)));
    record.write(home)?;
    if interrupt::interrupted() {
        return Err("stopped by a signal: what was taken back is recorded; run the same command again to finish".into());
    }
    Ok(done)
}

/// The projects the project-scope targets `ts` are in.
pub fn project_roots(ts: &[Target]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    for root in ts.iter().filter_map(project_of) {
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

/// The project a project-scope target is in: the one its project copy
/// names, else the repository it is in (a copy of its own outside any
/// repository names none).
fn project_of(t: &Target) -> Option<PathBuf> {
    if t.scope != Scope::Project {
        return None;
    }
    let copy = t.shared.as_ref().map_or(&t.path, |s| &s.path);
    if let Some(root) = shared::root_of(copy) {
        return Some(root.to_path_buf());
    }
    let root = lock::project_root(&t.path);
    (root != t.path).then_some(root)
}

/// Removes the folders skilltui created for the targets just taken back
/// (those on their paths) once they are empty, and forgets them (the
/// caller writes the record).
fn prune_made_dirs(record: &mut Record, done: &[(Target, Taken)]) {
    let touched: Vec<&Path> = (done.iter())
        .flat_map(|(t, _)| std::iter::once(&t.path).chain(t.shared.as_ref().map(|s| &s.path)))
        .map(PathBuf::as_path)
        .collect();
    let candidates: Vec<PathBuf> = (record.dirs.iter())
        .map(|d| d.path.clone())
        .filter(|d| touched.iter().any(|p| p.starts_with(d)))
        .collect();
    if candidates.is_empty() {
        return;
    }
    let kept = shared::prune(&candidates);
    let still_there = |d: &Path| kept.iter().any(|k| k == d) || !candidates.iter().any(|c| c == d);
    record.dirs.retain(|d| still_there(&d.path));
}

/// `agent disable ID SKILL`: what skilltui gave `agent` of `name` (at
/// `scope`, or at every scope). Refuses to touch a folder it did not make.
pub fn disable(
    home: &Home,
    agent: &Agent,
    ctx: &Ctx,
    name: &str,
    scope: Option<Scope>,
) -> Result<Vec<(Target, Taken)>, String> {
    let name = &store::check_name(name)?;
    shared::clear_leftovers_in(&ctx.cwd);
    let record = Record::read(home)?;
    let any = record
        .of(&agent.id, name)
        .any(|t| scope.is_none_or(|s| t.scope == s));
    if !any {
        let scopes = scope.map_or(GIVEN_SCOPES.to_vec(), |s| vec![s]);
        for s in scopes {
            if let Ok(dir) = give_dir(agent, ctx, s, false) {
                let there = dir.join(name);
                if fs::symlink_metadata(&there).is_ok() {
                    return Err(format!(
                        "{} was not made by skilltui: it is never deleted",
                        there.display()
                    ));
                }
            }
        }
        return Err(format!("skilltui has not given '{name}' to {}", agent.id));
    }
    disable_where(home, std::slice::from_ref(agent), ctx, &|t| {
        t.agent == agent.id && t.skill == *name && scope.is_none_or(|s| t.scope == s)
    })
}

/// `sync`: makes again every recorded link or copy that is missing, only
/// where skilltui would give that skill from here (the agent's own user
/// dir, or its dir in this project: never a project folder that is gone,
/// never a dir a hand-edited record names), then gives what the lock's
/// `agents` name and this home has not given yet. Returns the paths made,
/// and one line per entry that could not be made (the rest go on).
pub fn restore(
    home: &Home,
    agents: &[Agent],
    ctx: &Ctx,
) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let mut record = Record::read(home)?;
    let (mut restored, mut problems) = (Vec::new(), Vec::new());
    let (mut made, mut written) = (Vec::new(), Vec::new());
    for t in &mut record.targets {
        if fs::symlink_metadata(&t.path).is_ok() || !t.from.is_dir() {
            continue;
        }
        let Some(agent) = agents.iter().find(|a| a.id == t.agent) else {
            continue;
        };
        // A copy in the agent's own dir was asked for (`--copy`) unless it
        // is the project's copy.
        let asked_copy = t.kind == Kind::Copy && shared::root_of(&t.path).is_none();
        let here = give_dir(agent, ctx, t.scope, asked_copy).ok();
        if !plausible(t, home, agents, ctx) || t.path.parent() != here.as_deref() {
            continue;
        }
        let root = (t.scope == Scope::Project).then(|| lock::project_root(&ctx.cwd));
        match make_again(t, root.as_deref()) {
            Ok(dirs) => {
                made.extend(dirs);
                restored.push(t.path.clone());
                written.extend(copy_of(t));
            }
            Err(e) => problems.push(e),
        }
    }
    if !restored.is_empty() {
        for (path, hash) in &written {
            record.copy_written(path, hash);
        }
        // The folders made again are skilltui's: `disable` prunes them.
        record.note_dirs(made);
        record.write(home)?;
    }
    let (given, more) = give_as_locked(home, agents, ctx)?;
    restored.extend(given);
    problems.extend(more);
    let root = lock::project_root(&ctx.cwd);
    let refreshed = refresh_copies(home, &root, None);
    problems.extend(refreshed.into_iter().map(|(_, line)| line));
    problems.extend(differing_copies(home, &root));
    Ok((restored, problems))
}

/// After the store's skills `names` (every one when `None`) moved: each
/// copy skilltui wrote of them in the project at `root` (the one all
/// agents' links lead to, or an agent's own) is replaced by the store's
/// (staged, then swapped in), so the project follows the store as the
/// links to the store did. A copy not as skilltui wrote it (edited, or a
/// teammate's) is never replaced: one line per copy, with its skill, says
/// so and what to do. A missing copy is made again in its folder.
pub fn refresh_copies(home: &Home, root: &Path, names: Option<&[&str]>) -> Vec<(String, String)> {
    shared::clear_leftovers(root);
    let mut record = match Record::read(home) {
        Ok(r) => r,
        Err(e) => return vec![(String::new(), e)],
    };
    let mut lines = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut fresh: Vec<(PathBuf, String)> = Vec::new();
    for t in &record.targets {
        let asked = names.is_none_or(|n| n.contains(&t.skill.as_str()));
        let Some((path, hash)) = copy_of(t) else {
            continue;
        };
        if !asked || t.scope != Scope::Project || !in_root(&path, root) || seen.contains(&path) {
            continue;
        }
        seen.push(path.clone());
        match refresh_one((&t.from, root), &path, &hash, &t.skill) {
            Ok(Some(new)) => fresh.push((path, new)),
            Ok(None) => {}
            Err(line) => lines.push((t.skill.clone(), line)),
        }
    }
    if fresh.is_empty() {
        return lines;
    }
    for (path, new) in &fresh {
        record.copy_written(path, new);
    }
    if let Err(e) = record.write(home) {
        lines.push((String::new(), e));
    }
    lines
}

/// The copy `t` is or links to, with the hash skilltui wrote it with.
fn copy_of(t: &Target) -> Option<(PathBuf, String)> {
    match (&t.shared, t.kind) {
        (Some(s), _) => Some((s.path.clone(), s.hash.clone()?)),
        (None, Kind::Copy) => Some((t.path.clone(), t.hash.clone()?)),
        (None, Kind::Link) => None,
    }
}

/// Whether the copy at `path` is of the project at `root` itself (not of
/// a project in a folder below it).
fn in_root(path: &Path, root: &Path) -> bool {
    match shared::root_of(path) {
        Some(r) => r == root,
        None => lock::project_root(path) == root,
    }
}

/// Replaces the copy at `path` (written hashed `hash`) by the store
/// folder `from` when they differ: its new hash, or `None` when nothing
/// was written; an edited copy is a line saying so.
fn refresh_one(
    (from, root): (&Path, &Path),
    path: &Path,
    hash: &str,
    name: &str,
) -> Result<Option<String>, String> {
    if !path.parent().is_some_and(|d| d.is_dir()) {
        return Ok(None);
    }
    let there = fs::symlink_metadata(path).is_ok();
    // Already the store's files (another home of the project's wrote
    // them): nothing to write, and the copy is as skilltui would write it.
    let now = there.then(|| folder_hash(path)).flatten();
    if now.is_some() && from.is_dir() && now != Some(hash.to_string()) && now == folder_hash(from) {
        return Ok(now);
    }
    if there && !same_copy(Some(hash), path) {
        return Err(format!(
            "{} was edited since skilltui wrote it: it keeps your edits, not the store's '{name}'; to take the store's, move it aside and run `skilltui sync` here",
            path.display()
        ));
    }
    if !from.is_dir() {
        return Ok(None);
    }
    let area = shared::staging_area(path, Some(root)).ok_or_else(|| {
        format!(
            "{} leads out of the project",
            root.join(".agents").display()
        )
    })?;
    let mut staging = shared::stage(from, &area, name)?;
    let new = staged_hash(&staging.path())?;
    if there && new == hash {
        return Ok(None);
    }
    interrupt::unless_interrupted(|| match there {
        true => fsops::inside::replace(staging.take(), path, root),
        false => fsops::inside::install_new(staging.take(), path, root),
    })?;
    Ok(Some(new))
}

/// Makes a recorded link or copy again (a copy's hash is its new one).
/// What cannot be made is one line naming the record's entry (agent and
/// skill) and its path, and what is in the way.
fn make_again(t: &mut Target, root: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let entry = format!(
        "cannot make {}'s {} of '{}' again at {}",
        t.agent,
        match t.kind {
            Kind::Link => "link",
            Kind::Copy => "copy",
        },
        t.skill,
        t.path.display()
    );
    make_again_inner(t, root)
        .map_err(|why| crate::core::text::sanitize_line(&format!("{entry}: {why}")).into_owned())
}

/// Returns the folders of the project at `root` it created.
fn make_again_inner(t: &mut Target, root: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let dir = t.path.parent().ok_or("a target with no folder")?;
    if let Some(file) = dir
        .ancestors()
        .find(|a| fs::symlink_metadata(a).is_ok_and(|m| !m.is_dir() && !a.is_dir()))
    {
        return Err(format!("{} is a file, not a folder", file.display()));
    }
    let mut made = root.map_or_else(Vec::new, |r| shared::missing(dir, r));
    make_dir(dir, root)?;
    if let Some(s) = t
        .shared
        .as_mut()
        .filter(|s| fs::symlink_metadata(&s.path).is_err())
    {
        let copies = s.path.parent().ok_or("a copy with no folder")?;
        made.extend(root.map_or_else(Vec::new, |r| shared::missing(copies, r)));
        make_dir(copies, root)?;
        s.hash = Some(copy_in(&t.from, &s.path, root, &t.skill)?);
    }
    match t.kind {
        Kind::Link => make_link(t)?,
        Kind::Copy => t.hash = Some(copy_in(&t.from, &t.path, root, &t.skill)?),
    }
    Ok(made)
}

/// The lock's `agents` (a teammate's, once `sync` brought their lock in)
/// that this home has not given yet: given now, each by the agent's own
/// rule (link or copy). What cannot be given is said, not fatal.
fn give_as_locked(
    home: &Home,
    agents: &[Agent],
    ctx: &Ctx,
) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let lock = lock::Lock::read(&lock::default_path(home))?;
    let record = Record::read(home)?;
    let (mut given, mut problems) = (Vec::new(), Vec::new());
    let project = (lock::project_lock(&ctx.cwd))
        .filter(|p| !lock::is_home_lock(home, p))
        .and_then(|p| lock::Lock::read(&p).ok());
    // Whether the project's own lock gives `skill` to `label`: then what
    // a teammate committed of it is skilltui's.
    let project_asks = |skill: &str, label: &str| {
        (project.as_ref())
            .and_then(|l| l.skills.get(skill))
            .is_some_and(|e| e.agents.iter().any(|a| a == label))
    };
    for (skill, entry) in &lock.skills {
        for label in &entry.agents {
            let Some((id, scope)) = label.split_once(':') else {
                continue;
            };
            let Some(scope) = Scope::from_label(scope).filter(|s| GIVEN_SCOPES.contains(s)) else {
                continue;
            };
            let Some(agent) = agents.iter().find(|a| a.id == id) else {
                problems.push(format!(
                    "skill '{skill}' in the lock: agent label '{label}' names no agent skilltui knows: not given"
                ));
                continue;
            };
            // Given here: a project's link in another project is not.
            let here = give_dir(agent, ctx, scope, false).ok();
            let done = record.targets.iter().any(|t| {
                t.agent == id
                    && t.skill == *skill
                    && t.scope == scope
                    && (scope == Scope::User || t.path.parent() == here.as_deref())
            });
            if done || !home.skills_dir().join(skill).is_dir() {
                continue;
            }
            // The home's lock says which agents got the skill in some
            // project, not in which: only this project's own lock gives
            // at project scope here.
            if scope == Scope::Project && !project_asks(skill, label) {
                continue;
            }
            let committed = here.as_ref().map(|d| d.join(skill));
            let committed = committed.filter(|p| fs::symlink_metadata(p).is_ok());
            if let Some(dest) = committed.filter(|_| scope == Scope::Project) {
                if let Err(e) = adopt_committed(home, agent, ctx, skill, &dest) {
                    problems.push(e);
                }
                continue;
            }
            match enable(home, agent, ctx, skill, scope, false) {
                Ok(Given::Made(t)) => given.push(t.path),
                Ok(Given::Already(_)) => {}
                Err(e) => problems.push(format!(
                    "cannot give '{skill}' to {id} ({}) as the lock asks: {e}",
                    scope.label()
                )),
            }
        }
    }
    Ok((given, problems))
}

/// A teammate's committed link or copy at `dest`, which the project's
/// lock says skilltui gave `agent` (at project scope): recorded as
/// skilltui's when it is what skilltui would have made (the relative link
/// to the project's copy; a copy holding the store's files, which `sync`
/// just brought to the locked revision), so this home's `disable` and
/// `remove` take it back. The project's copy the link leads to is
/// skilltui's too when it holds the store's files; else it is kept, never
/// deleted (see [`differing_copies`]). A copy of other files is one line
/// saying so and how to take the store's.
fn adopt_committed(
    home: &Home,
    agent: &Agent,
    ctx: &Ctx,
    name: &str,
    dest: &Path,
) -> Result<(), String> {
    let from = store::resolve(home, name)?.path;
    let Some(root) = shared::root_of(dest)
        .map(Path::to_path_buf)
        .or_else(|| in_project(ctx, Scope::Project, dest.parent()?))
    else {
        return enable(home, agent, ctx, name, Scope::Project, false).map(|_| ());
    };
    let at = shared::copy_path(&root, name);
    let store_hash = folder_hash(&from);
    let ours = |p: &Path| {
        let h = folder_hash(p);
        (fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) && h.is_some() && h == store_hash)
            .then_some(h)
            .flatten()
    };
    let mut record = Record::read(home)?;
    let (kind, hash, shared) = if agent.link_ok && dest != at && links_to(dest, &at) {
        let hash = match record.using(&at) {
            Some(t) => t.shared.as_ref().map_or(t.hash.clone(), |s| s.hash.clone()),
            None => ours(&at),
        };
        (Kind::Link, None, Some(Shared { path: at, hash }))
    } else if let Some(hash) = ours(dest) {
        (Kind::Copy, Some(hash), None)
    } else if dest == at && fs::symlink_metadata(dest).is_ok_and(|m| m.is_dir()) {
        // The project's copy, read in place: given as it is, never
        // deleted; [`differing_copies`] says it differs.
        (Kind::Copy, None, None)
    } else if fs::symlink_metadata(dest).is_ok_and(|m| m.is_dir()) {
        return Err(differs(dest, name));
    } else {
        // Not what skilltui makes: enable's own refusal says so.
        return enable(home, agent, ctx, name, Scope::Project, false).map(|_| ());
    };
    let target = Target {
        agent: agent.id.clone(),
        skill: name.to_string(),
        scope: Scope::Project,
        path: dest.to_path_buf(),
        kind,
        from,
        hash,
        shared,
    };
    keep(home, ctx, &mut record, target, Vec::new(), false).map(|_| ())
}

/// The line for a project copy that holds other files than the store's
/// locked revision of `name`: kept, as `update` keeps an edited copy.
fn differs(copy: &Path, name: &str) -> String {
    format!(
        "{} differs from the locked revision of '{name}': it is kept as it is, and the agents read it; to take the store's, move it aside and run `skilltui sync` here",
        copy.display()
    )
}

/// One line for each copy in the project at `root` that an agent was
/// given and skilltui did not write (a teammate's, committed, never
/// replaced) and that differs from the store's revision: the agents read
/// it, not the locked one.
fn differing_copies(home: &Home, root: &Path) -> Vec<String> {
    let Ok(record) = Record::read(home) else {
        return Vec::new();
    };
    let mut seen: Vec<&Path> = Vec::new();
    let mut lines = Vec::new();
    for t in record.targets.iter().filter(|t| t.scope == Scope::Project) {
        let copy = match (&t.shared, t.kind) {
            (Some(s), _) if s.hash.is_none() => &s.path,
            (None, Kind::Copy) if t.hash.is_none() => &t.path,
            _ => continue,
        };
        if seen.contains(&copy.as_path()) || !in_root(copy, root) || !copy.is_dir() {
            continue;
        }
        seen.push(copy);
        if folder_hash(copy) != folder_hash(&t.from) {
            lines.push(differs(copy, &t.skill));
        }
    }
    lines
}

/// Copies a folder the user made in an agent's dir into the store (the
/// folder itself stays where it is).
pub fn adopt(home: &Home, folder: &Path) -> Result<store::Added, String> {
    store::add(home, folder, false)
}

/// A folder's content: every file's relative path and bytes, and every
/// link's target, in sorted order, names as their bytes. Files are hashed
/// as they are read, so a huge one costs no memory; a FIFO or device is
/// never opened (it would block) and counts as something skilltui never
/// writes. `None` when the hash cannot cover the whole folder (nested
/// deeper than a copy goes, or a folder that cannot be read): such a copy
/// counts as changed, so it is kept.
pub fn folder_hash(root: &Path) -> Option<String> {
    let mut entries = Vec::new();
    collect(root, root, &mut entries, 0)?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut h = Sha256::new();
    for (rel, what) in entries {
        h.update((rel.len() as u64).to_le_bytes());
        h.update(&rel);
        match what {
            Entry::Link(to) => {
                h.update((to.len() as u64).to_le_bytes());
                h.update(&to);
            }
            Entry::File(path) => hash_file(&path, &mut h),
            Entry::Special => h.update(u64::MAX.to_le_bytes()),
        }
    }
    Some(format!("{:x}", h.finalize()))
}

/// Whether `dir` holds what a copy hashed `hash` held.
fn same_copy(hash: Option<&str>, dir: &Path) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
        && hash.is_some_and(|h| folder_hash(dir).as_deref() == Some(h))
}

/// The hash of a copy just staged (never deeper than a copy goes).
fn staged_hash(staged: &Path) -> Result<String, String> {
    folder_hash(staged).ok_or_else(|| format!("cannot read back the copy at {}", staged.display()))
}

enum Entry {
    Link(Vec<u8>),
    File(PathBuf),
    Special,
}

/// The file's length, then its bytes, streamed (as hashing the whole
/// bytes with their length in front would give).
fn hash_file(path: &Path, h: &mut Sha256) {
    let Ok((mut file, meta)) = fsops::open_regular(path) else {
        h.update(0u64.to_le_bytes());
        return;
    };
    h.update(meta.len().to_le_bytes());
    // A file that changes size while it is read no longer matches its
    // length, so its hash differs: it is not what skilltui wrote.
    let _ = std::io::copy(&mut (&mut file).take(meta.len()), h);
}

/// Lists `dir` into `out`; `None` past [`fsops::MAX_DEPTH`] (the deepest
/// a copy goes) or where a folder cannot be read.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(Vec<u8>, Entry)>, depth: usize) -> Option<()> {
    use std::os::unix::ffi::OsStrExt;
    if depth > fsops::MAX_DEPTH {
        return None;
    }
    for e in fs::read_dir(dir).ok()? {
        let e = e.ok()?;
        let p = e.path();
        let rel = p
            .strip_prefix(root)
            .unwrap_or(&p)
            .as_os_str()
            .as_bytes()
            .to_vec();
        match e.file_type() {
            Ok(t) if t.is_symlink() => {
                let to = fs::read_link(&p).unwrap_or_default();
                let mut key = rel;
                key.extend_from_slice(b" ->");
                out.push((key, Entry::Link(to.as_os_str().as_bytes().to_vec())));
            }
            Ok(t) if t.is_dir() => collect(root, &p, out, depth + 1)?,
            Ok(t) if t.is_file() => out.push((rel, Entry::File(p))),
            Ok(_) => out.push((rel, Entry::Special)),
            Err(_) => return None,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::table;

    struct World {
        _tmp: tempfile::TempDir,
        home: Home,
        ctx: Ctx,
    }

    fn world() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let user = tmp.path().join("user");
        let cwd = tmp.path().join("proj");
        fs::create_dir_all(&cwd).unwrap();
        let home = Home::at(tmp.path().join("cao"), user.clone());
        let skill = home.skills_dir().join("x");
        fs::create_dir_all(&skill).unwrap();
        fs::write(
            skill.join("SKILL.md"),
            "---\nname: x\ndescription: d\n---\nbody\n",
        )
        .unwrap();
        let ctx = Ctx {
            user_home: user,
            cwd,
            env: Default::default(),
            cao: Some(home.clone()),
        };
        World {
            _tmp: tmp,
            home,
            ctx,
        }
    }

    fn agent(id: &str) -> Agent {
        table::built_in().into_iter().find(|a| a.id == id).unwrap()
    }

    fn made(g: Given) -> Target {
        match g {
            Given::Made(t) => t,
            other => panic!("expected Made, got {other:?}"),
        }
    }

    #[test]
    fn a_link_is_made_recorded_and_taken_back() {
        let w = world();
        let claude = agent("claude-code");
        let t = made(enable(&w.home, &claude, &w.ctx, "x", Scope::User, false).unwrap());
        assert_eq!(t.kind, Kind::Link);
        assert_eq!(t.path, w.ctx.user_home.join(".claude/skills/x"));
        assert_eq!(
            fs::read_link(&t.path).unwrap(),
            w.home.skills_dir().join("x")
        );
        assert_eq!(Record::read(&w.home).unwrap().targets, vec![t.clone()]);
        // Giving twice is a no-op.
        assert_eq!(
            enable(&w.home, &claude, &w.ctx, "x", Scope::User, false).unwrap(),
            Given::Already(t.path.clone())
        );
        let done = disable(&w.home, &claude, &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::Removed(t.path.clone()));
        assert!(fs::symlink_metadata(&t.path).is_err());
        assert!(Record::read(&w.home).unwrap().targets.is_empty());
        assert!(w.home.skills_dir().join("x/SKILL.md").is_file());
    }

    #[test]
    fn an_agent_not_known_to_follow_links_gets_a_copy_in_its_project_dir() {
        let w = world();
        let t = made(
            enable(
                &w.home,
                &agent("kiro-cli"),
                &w.ctx,
                "x",
                Scope::Project,
                false,
            )
            .unwrap(),
        );
        assert_eq!(t.kind, Kind::Copy);
        assert_eq!(t.path, w.ctx.cwd.join(".kiro/skills/x"));
        assert!(t.path.join("SKILL.md").is_file());
        assert!(
            !fs::symlink_metadata(&t.path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_folder_the_user_made_is_never_replaced_nor_deleted() {
        let w = world();
        let amp = agent("amp");
        let theirs = w.ctx.user_home.join(".config/agents/skills/x");
        fs::create_dir_all(&theirs).unwrap();
        fs::write(theirs.join("SKILL.md"), "mine").unwrap();
        let err = enable(&w.home, &amp, &w.ctx, "x", Scope::User, false).unwrap_err();
        assert!(err.contains("did not make it"), "{err}");
        let err = disable(&w.home, &amp, &w.ctx, "x", None).unwrap_err();
        assert!(err.contains("never deleted"), "{err}");
        assert_eq!(fs::read_to_string(theirs.join("SKILL.md")).unwrap(), "mine");
    }

    #[test]
    fn a_link_pointed_elsewhere_since_is_left_alone() {
        let w = world();
        let claude = agent("claude-code");
        let t = made(enable(&w.home, &claude, &w.ctx, "x", Scope::User, false).unwrap());
        let other = w.ctx.cwd.join("other");
        fs::create_dir_all(&other).unwrap();
        fs::remove_file(&t.path).unwrap();
        std::os::unix::fs::symlink(&other, &t.path).unwrap();
        let done = disable(&w.home, &claude, &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::LeftChanged(t.path.clone()));
        assert_eq!(fs::read_link(&t.path).unwrap(), other);
    }

    #[test]
    fn an_edited_copy_is_left_alone_and_an_unchanged_one_removed() {
        let w = world();
        let amp = agent("amp");
        let t = made(enable(&w.home, &amp, &w.ctx, "x", Scope::User, true).unwrap());
        fs::write(t.path.join("notes.md"), "the user's").unwrap();
        let done = disable(&w.home, &amp, &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::LeftChanged(t.path.clone()));
        assert_eq!(
            fs::read_to_string(t.path.join("notes.md")).unwrap(),
            "the user's"
        );
        // Nothing left behind beside it.
        let names: Vec<_> = fs::read_dir(t.path.parent().unwrap())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("x")]);

        fs::remove_dir_all(&t.path).unwrap();
        let t = made(enable(&w.home, &amp, &w.ctx, "x", Scope::User, true).unwrap());
        let done = disable(&w.home, &amp, &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::Removed(t.path.clone()));
        assert!(!t.path.exists());
    }

    #[test]
    fn restore_makes_again_what_was_recorded_and_is_missing() {
        let w = world();
        let claude = agent("claude-code");
        let t = made(enable(&w.home, &claude, &w.ctx, "x", Scope::User, false).unwrap());
        fs::remove_file(&t.path).unwrap();
        assert_eq!(
            restore(&w.home, &table::built_in(), &w.ctx).unwrap(),
            (vec![t.path.clone()], Vec::new())
        );
        assert!(still_ours(&t));
        assert!(
            restore(&w.home, &table::built_in(), &w.ctx)
                .unwrap()
                .0
                .is_empty()
        );
    }

    // A record edited to claim a folder the user made: its hash is not
    // what that folder holds, so nothing is deleted.
    #[test]
    fn a_record_claiming_a_users_folder_deletes_nothing() {
        let w = world();
        let theirs = w.ctx.user_home.join(".kiro/skills/x");
        fs::create_dir_all(&theirs).unwrap();
        fs::write(theirs.join("SKILL.md"), "mine").unwrap();
        let mut record = Record::read(&w.home).unwrap();
        record.targets.push(Target {
            agent: "kiro-cli".into(),
            skill: "x".into(),
            scope: Scope::User,
            path: theirs.clone(),
            kind: Kind::Copy,
            from: w.home.skills_dir().join("x"),
            hash: Some("not-its-hash".into()),
            shared: None,
        });
        record.write(&w.home).unwrap();
        let done = disable(&w.home, &agent("kiro-cli"), &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::LeftChanged(theirs.clone()));
        assert_eq!(fs::read_to_string(theirs.join("SKILL.md")).unwrap(), "mine");
    }

    #[test]
    fn a_record_entry_is_plausible_only_in_the_agents_own_dir() {
        let w = world();
        let agents = table::built_in();
        let t = made(
            enable(
                &w.home,
                &agent("claude-code"),
                &w.ctx,
                "x",
                Scope::User,
                false,
            )
            .unwrap(),
        );
        assert!(plausible(&t, &w.home, &agents, &w.ctx));
        let moved = |path: &str, from: &Path, skill: &str| Target {
            path: PathBuf::from(path),
            from: from.to_path_buf(),
            skill: skill.into(),
            ..t.clone()
        };
        let store_x = w.home.skills_dir().join("x");
        for bad in [
            moved("/tmp/elsewhere/x", &store_x, "x"),
            moved(
                &format!("{}/../x", t.path.parent().unwrap().display()),
                &store_x,
                "x",
            ),
            moved(&t.path.to_string_lossy(), Path::new("/etc/x"), "x"),
            moved(&t.path.to_string_lossy(), &store_x, "../x"),
            Target {
                agent: "nosuch".into(),
                ..t.clone()
            },
        ] {
            assert!(!plausible(&bad, &w.home, &agents, &w.ctx), "{bad:?}");
        }
        // A project link made from another working directory still counts.
        let mut other = t.clone();
        other.scope = Scope::Project;
        other.path = PathBuf::from("/some/other/proj/.claude/skills/x");
        assert!(plausible(&other, &w.home, &agents, &w.ctx));
    }

    // `/.` is `/`, `~/.` the home, `{cao_store}/.` the store: each refused
    // before anything is written.
    #[test]
    fn odd_spellings_of_root_home_and_store_are_refused() {
        let w = world();
        for path in [
            "/.",
            "//",
            "/./",
            "~/.",
            "~/./",
            "{cao_store}/.",
            "{cao_home}/x",
        ] {
            let mut a = agent("claude-code");
            a.locations = vec![table::Location {
                path: path.into(),
                scope: Scope::User,
                walk: Walk::Cwd,
                env: None,
                env_suffix: None,
                depth: 1,
                newest_first: false,
                dots: None,
                root_skill: false,
                tree: false,
                unless_env: None,
                unless_env_default: None,
                source: "test".into(),
            }];
            let e = target_dir(&a, &w.ctx, Scope::User).unwrap_err();
            assert!(e.contains("never gives skills there"), "{path}: {e}");
        }
    }

    // A project link leads to the project's one copy, relatively; a record
    // edited to name a copy outside that project is never acted on.
    #[test]
    fn a_project_link_leads_to_the_projects_copy_and_only_there() {
        let w = world();
        let agents = table::built_in();
        let claude = agent("claude-code");
        let t = made(enable(&w.home, &claude, &w.ctx, "x", Scope::Project, false).unwrap());
        let copy = w.ctx.cwd.join(".agents/skills/x");
        assert_eq!(t.shared.as_ref().map(|s| &s.path), Some(&copy));
        assert_eq!(
            fs::read_link(&t.path).unwrap(),
            Path::new("../../.agents/skills/x")
        );
        assert!(plausible(&t, &w.home, &agents, &w.ctx));
        let mut elsewhere = t.clone();
        elsewhere.shared = Some(Shared {
            path: PathBuf::from("/etc/.agents/skills/x"),
            hash: None,
        });
        assert!(!plausible(&elsewhere, &w.home, &agents, &w.ctx));
        // Codex reads the project's copy itself: it gets that, no link.
        let codex =
            made(enable(&w.home, &agent("codex"), &w.ctx, "x", Scope::Project, false).unwrap());
        assert_eq!((codex.kind, &codex.path), (Kind::Copy, &copy));
        let done = disable(&w.home, &claude, &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::Removed(t.path.clone()));
        assert!(copy.join("SKILL.md").is_file(), "Codex still reads it");
        let done = disable(&w.home, &agent("codex"), &w.ctx, "x", None).unwrap();
        assert_eq!(done[0].1, Taken::Removed(copy.clone()));
        assert!(
            fs::read_dir(&w.ctx.cwd).unwrap().next().is_none(),
            "the folders made are gone"
        );
    }

    #[test]
    fn cao_is_not_given_skills_through_agent_dirs() {
        let w = world();
        assert!(target_dir(&agent("cao"), &w.ctx, Scope::User).is_err());
    }
}
