//! From an agent's location templates to the directories they stand for
//! (the walk from the working directory, `~`, variables, `*`), and the
//! skill folders inside each.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::core::agents::table::{self, Agent, Location, Scope, Symlinks, Walk};
use crate::core::cao::store::Home;

/// Everything discovery depends on, passed in so tests never touch the
/// real home: the user's home, the working directory, the variables the
/// table names, and CAO's home for the `cao` agent.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub user_home: PathBuf,
    pub cwd: PathBuf,
    pub env: HashMap<String, String>,
    pub cao: Option<Home>,
}

/// The agents table as this process sees it (built in, plus the user's
/// definitions) and the context to scan it in.
pub fn open(home: &Home) -> (table::Table, Ctx) {
    let table = table::load_for(&home.user_home);
    let ctx = Ctx::from_process(home, &table.agents);
    (table, ctx)
}

impl Ctx {
    fn var(&self, name: &str) -> Option<&str> {
        self.env
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }

    /// `path` absolute (a relative one is taken from the working
    /// directory) and normalised: no `.`, no repeated `/`, and a `..`
    /// takes off the name before it, as Node's `path.resolve` does for the
    /// agents written in it. The table refuses locations that hold a
    /// `..`; a variable (`CLAUDE_CONFIG_DIR=..`) may, and a dir given with
    /// one must be the plain path the record keeps and `disable` accepts.
    pub fn absolute(&self, path: PathBuf) -> PathBuf {
        let path = if path.is_absolute() {
            path
        } else {
            self.cwd.join(path)
        };
        let mut out = PathBuf::new();
        for part in path.components() {
            match part {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::CurDir => {}
                other => out.push(other),
            }
        }
        out
    }

    fn config_home(&self) -> PathBuf {
        table::config_home(self.var("XDG_CONFIG_HOME"), &self.user_home)
    }

    /// The first ancestor of cwd (itself included) holding `.git`.
    pub fn git_root(&self) -> Option<PathBuf> {
        self.cwd
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf)
    }

    /// The directories a `{project}` location stands for.
    pub fn walk(&self, walk: Walk) -> Vec<PathBuf> {
        let root = self.git_root();
        let up: Vec<PathBuf> = match &root {
            Some(r) => self
                .cwd
                .ancestors()
                .take_while(|d| d.starts_with(r))
                .map(Path::to_path_buf)
                .collect(),
            None => vec![self.cwd.clone()],
        };
        match walk {
            Walk::Cwd => vec![self.cwd.clone()],
            Walk::CwdToGitRootOrTop if root.is_none() => {
                self.cwd.ancestors().map(Path::to_path_buf).collect()
            }
            Walk::CwdToGitRoot | Walk::CwdToGitRootOrTop => up,
            Walk::GitRootToCwd => up.into_iter().rev().collect(),
            Walk::GitRoot => vec![root.unwrap_or_else(|| self.cwd.clone())],
        }
    }
}

/// One concrete directory an agent looks in.
#[derive(Clone, Debug)]
pub struct Place {
    /// Index of the table location it comes from.
    pub loc: usize,
    pub path: PathBuf,
    pub scope: Scope,
    pub exists: bool,
    /// The agent's bundled skills (no directory).
    pub builtin: bool,
}

pub const BUILT_IN: &str = "<built-in>";

/// Every place of `agent`, in its precedence order.
pub fn places(agent: &Agent, ctx: &Ctx) -> Vec<Place> {
    let mut out = Vec::new();
    for (i, loc) in agent.locations.iter().enumerate() {
        if loc.path == BUILT_IN {
            out.push(Place {
                loc: i,
                path: PathBuf::from(BUILT_IN),
                scope: loc.scope,
                exists: !agent.builtin_skills.is_empty(),
                builtin: true,
            });
            continue;
        }
        for path in expand(agent, loc, ctx) {
            if out.iter().any(|p: &Place| p.path == path) {
                continue;
            }
            out.push(Place {
                loc: i,
                exists: path.is_dir(),
                path,
                scope: loc.scope,
                builtin: false,
            });
        }
    }
    out
}

/// Where a location's environment variable moves it (`$CODEX_HOME` +
/// `skills`), when that variable is set and not blank.
pub fn env_dir(loc: &Location, ctx: &Ctx) -> Option<PathBuf> {
    let base = PathBuf::from(ctx.var(loc.env.as_deref()?)?);
    Some(ctx.absolute(match &loc.env_suffix {
        Some(s) => base.join(s),
        None => base,
    }))
}

fn expand(agent: &Agent, loc: &Location, ctx: &Ctx) -> Vec<PathBuf> {
    if moved_away(loc, ctx) {
        return Vec::new();
    }
    if let Some(dir) = env_dir(loc, ctx) {
        return vec![dir];
    }
    let paths: Vec<PathBuf> = match loc.path.as_str() {
        "{setting:skills.path}" => (agent.skills_path.iter())
            .flat_map(|b| template(b, ctx))
            .collect(),
        // Codex's installed plugins: their skill roots, in Codex's order.
        "{codex_plugins}" => {
            return crate::core::agents::codex_plugins::skill_roots(&codex_home(ctx));
        }
        p if p.starts_with("{project}") => (ctx.walk(loc.walk).iter())
            .flat_map(|d| with_project(p, d, ctx))
            .collect(),
        p => template(p, ctx),
    };
    paths
        .iter()
        .flat_map(|p| stars(p, loc.newest_first))
        .collect()
}

/// `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home(ctx: &Ctx) -> PathBuf {
    match ctx.var("CODEX_HOME") {
        Some(h) => ctx.absolute(PathBuf::from(h)),
        None => ctx.user_home.join(".codex"),
    }
}

/// Whether the location's `unless_env` variable names a dir other than
/// its `unless_env_default` (then the agent does not read the location).
fn moved_away(loc: &Location, ctx: &Ctx) -> bool {
    let Some(value) = loc.unless_env.as_deref().and_then(|v| ctx.var(v)) else {
        return false;
    };
    let default = loc.unless_env_default.as_deref().map(|d| template(d, ctx));
    !default.is_some_and(|d| d.contains(&ctx.absolute(PathBuf::from(value))))
}

/// A location template's paths with `{project}` standing for `dir`, as a
/// path: a working directory whose name is not UTF-8 stays itself.
pub fn with_project(t: &str, dir: &Path, ctx: &Ctx) -> Vec<PathBuf> {
    match t.strip_prefix("{project}") {
        Some(rest) => vec![ctx.absolute(join_rest(dir.to_path_buf(), rest))],
        None => template(t, ctx),
    }
}

/// One template to its paths: `~`, `$VAR`, `{config}`, `{git_root}` and
/// CAO's `{cao_home}`, `{cao_store}`, `{cao_extra}` (the first two also
/// with a rest, `{cao_store}/x`). A variable that is not set stands for
/// nothing. Every path is absolute (a relative one is taken from the
/// working directory, once, here) and normalised (`/.` is `/`).
pub fn template(t: &str, ctx: &Ctx) -> Vec<PathBuf> {
    let cao = ctx.cao.as_ref();
    if t == "{cao_extra}" {
        return cao
            .map(|h| h.skill_search_dirs().into_iter().skip(1).collect())
            .unwrap_or_default();
    }
    for (key, base) in [
        ("{cao_home}", cao.map(|h| h.root.clone())),
        ("{cao_store}", cao.map(Home::skills_dir)),
    ] {
        if let Some(rest) = t
            .strip_prefix(key)
            .filter(|r| r.is_empty() || r.starts_with('/'))
        {
            return base
                .map(|b| ctx.absolute(join_rest(b, rest)))
                .into_iter()
                .collect();
        }
    }
    let path = if let Some(rest) = t.strip_prefix("~/") {
        ctx.user_home.join(rest)
    } else if t == "~" {
        ctx.user_home.clone()
    } else if let Some(rest) = t.strip_prefix("{config}") {
        join_rest(ctx.config_home(), rest)
    } else if let Some(rest) = t.strip_prefix("{git_root}") {
        join_rest(ctx.git_root().unwrap_or_else(|| ctx.cwd.clone()), rest)
    } else if let Some(name) = table::var_name(t) {
        match ctx.var(&name) {
            Some(v) => join_rest(PathBuf::from(v), &t[1 + name.len()..]),
            None => return Vec::new(),
        }
    } else {
        PathBuf::from(t)
    };
    vec![ctx.absolute(path)]
}

fn join_rest(base: PathBuf, rest: &str) -> PathBuf {
    match rest.trim_start_matches('/') {
        "" => base,
        r => base.join(r),
    }
}

/// At most this many directories one location's `*` segments stand for
/// (an agent's plugin or extension dir holds a few dozen), and at most
/// this many entries read from one directory to find them: a location of
/// `/*/*/*/*` from a user's agents file must not walk the whole disk.
const MAX_STARS: usize = 256;
const MAX_STAR_ENTRIES: usize = 10_000;

/// A path with `*` segments expanded to every subfolder (sorted by name,
/// or newest first), at most [`MAX_STARS`] of them.
fn stars(path: &Path, newest_first: bool) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::new()];
    for part in path.components() {
        if part.as_os_str() == "*" {
            out = out
                .iter()
                .flat_map(|base| subdirs(base, newest_first))
                .take(MAX_STARS)
                .collect();
        } else {
            for p in &mut out {
                p.push(part);
            }
        }
    }
    out
}

fn subdirs(base: &Path, newest_first: bool) -> Vec<PathBuf> {
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(base)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_STAR_ENTRIES)
        .filter(|e| e.path().is_dir())
        .map(|e| {
            let t = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, e.path())
        })
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    if newest_first {
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
    }
    found.into_iter().map(|(_, p)| p).collect()
}

/// skilltui's own bound on the folders one location's walk looks at, for
/// an agent that documents none (Codex's is `Agent::max_dirs`): a cloned
/// repository's skill dir with a million folders stays bounded.
pub const MAX_FOLDERS: usize = 10_000;

/// skilltui's bound on the entries one folder read takes (files, dots and
/// folders alike, in the file system's order): a project whose skill dir
/// holds 100,000 entries costs each agent this many `readdir` entries, not
/// seconds. No agent documents one; Codex's 2,000 folders (`max_dirs`)
/// apply after it, by name, as Codex does.
pub const MAX_ENTRIES: usize = 10_000;

/// Which bound cut a walk short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The location's folder cap (`max`).
    Folders,
    /// One folder held more than [`MAX_ENTRIES`] entries.
    Entries,
}

/// Every folder a location's walk looks into, in its order (breadth
/// first, sorted by name in each folder), SKILL.md or not, `depth` levels
/// down, at most `max` of them, and what cut the walk short if anything
/// did (`max`, or a folder of more than [`MAX_ENTRIES`] entries). A
/// deep scan skips names starting with `.` (Codex's rule; one level is
/// what the other agents read). Links are followed unless the agent says
/// it does not, and each real folder is entered once (Codex keeps a set
/// of visited dirs, loader.rs): a folder of links back to itself is a few
/// entries, not `links^depth`.
pub fn folders(
    dir: &Path,
    depth: usize,
    links: Symlinks,
    max: usize,
) -> (Vec<PathBuf>, Option<Cut>) {
    folders_with(dir, depth, links, max, None)
}

/// [`folders`], entering `.` folders or not as `dots` says (unset: only
/// on a one-level scan).
pub fn folders_with(
    dir: &Path,
    depth: usize,
    links: Symlinks,
    max: usize,
    dots: Option<bool>,
) -> (Vec<PathBuf>, Option<Cut>) {
    let skip_dots = !dots.unwrap_or(depth <= 1);
    let mut cut = None;
    let mut out = Vec::new();
    let mut level = vec![dir.to_path_buf()];
    let mut entered: HashSet<(u64, u64)> = real_id(dir).into_iter().collect();
    for _ in 0..depth.max(1) {
        if level.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for parent in &level {
            let (kids, all) = children(parent, links, skip_dots);
            if !all {
                cut = Some(Cut::Entries);
            }
            for child in kids {
                if out.len() == max {
                    return (out, Some(Cut::Folders));
                }
                if real_id(&child).is_none_or(|id| entered.insert(id)) {
                    next.push(child.clone());
                }
                out.push(child);
            }
        }
        level = next;
    }
    (out, cut)
}

/// A folder's (device, inode), through links.
fn real_id(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(dir).ok().map(|m| (m.dev(), m.ino()))
}

/// A folder's subfolders by name, from at most [`MAX_ENTRIES`] of its
/// entries; `false` when there were more.
fn children(dir: &Path, links: Symlinks, skip_dots: bool) -> (Vec<PathBuf>, bool) {
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_ENTRIES + 1)
        .collect();
    let all = entries.len() <= MAX_ENTRIES;
    entries.truncate(MAX_ENTRIES);
    let mut out: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| !(skip_dots && e.file_name().to_string_lossy().starts_with('.')))
        .filter(|e| match e.file_type() {
            Ok(t) if t.is_dir() => true,
            Ok(t) if t.is_symlink() => links != Symlinks::No && e.path().is_dir(),
            _ => false,
        })
        .map(|e| e.path())
        .collect();
    // One parent: by name, which is the paths' order, without comparing
    // every component of both (a 100,000-entry folder spent most of its
    // discovery there).
    out.sort_unstable_by(|a, b| a.file_name().cmp(&b.file_name()));
    (out, all)
}

impl Ctx {
    /// The real process's view: `$HOME` (through CAO's home), the working
    /// directory and the variables `table` names.
    pub fn from_process(home: &Home, agents: &[Agent]) -> Ctx {
        Ctx {
            user_home: home.user_home.clone(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            env: table::env_snapshot(agents),
            cao: Some(home.clone()),
        }
    }
}

/// Whether the agent is installed: one of its marker dirs exists, or one
/// of its binaries is on `PATH`.
pub fn detected(agent: &Agent, ctx: &Ctx) -> bool {
    let dir = agent
        .detect_dirs
        .iter()
        .flat_map(|d| template(d, ctx))
        .any(|p| p.exists());
    dir || agent.detect_binaries.iter().any(|b| on_path(b, ctx))
}

fn on_path(binary: &str, ctx: &Ctx) -> bool {
    which(binary, ctx).is_some()
}

/// The first executable file `binary` in the context's `PATH`. Empty and
/// relative entries (`::`, a trailing `:`, `.`) are skipped, as Go's
/// `exec.LookPath` skips them since Go 1.19: they name the working
/// directory, where a cloned repository could ship a `codex` of its own.
pub fn which(binary: &str, ctx: &Ctx) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = ctx.var("PATH")?;
    std::env::split_paths(path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(binary))
        .find(|p| fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// `f` over `items` on up to 8 threads, results in order (a thousand
/// SKILL.md files are mostly reads).
pub fn par_map<T: Sync, R: Send>(items: &[T], f: &(dyn Fn(&T) -> R + Sync)) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if items.len() < 64 || threads == 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
