//! What one agent finds from a directory: every candidate in the agent's
//! order, judged by its parser, with shadowed copies pointing at the copy
//! that wins under its clash rule.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::core::agents::codex_plugins;
use crate::core::agents::read::Read;
use crate::core::agents::rules;
use crate::core::agents::scan::{self, Ctx, Place};
use crate::core::agents::table::{Agent, ClashKey, Parser, Scope};
use crate::core::agents::tree;
use crate::core::cao::skill;
use crate::core::cao::store::{self, Status};
use crate::core::fsops;

/// One SKILL.md folder (or bundled skill) the agent looks at.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The name the agent knows it by (the folder's when it does not load).
    pub name: String,
    pub description: String,
    /// The skill folder (`<built-in>/NAME` for bundled skills).
    pub path: PathBuf,
    /// Index into `Finds::places`.
    pub place: usize,
    pub status: Status,
    pub shadowed_by: Option<PathBuf>,
    pub error: Option<String>,
    /// Loaded, but not in the model's list.
    pub hidden: bool,
    /// OmniForge's `priority` field (0 when absent).
    pub priority: i128,
    /// Facts a manifest adds (CLEO's two-tier design: tier, tags).
    pub manifest: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct Finds {
    pub places: Vec<Place>,
    pub candidates: Vec<Candidate>,
    /// One line per limit that cut what is listed (a location's folder
    /// cap, a manifest refused as too large).
    pub warnings: Vec<String>,
}

impl Finds {
    pub fn location(&self, c: &Candidate) -> &Path {
        &self.places[c.place].path
    }

    pub fn scope(&self, c: &Candidate) -> Scope {
        self.places[c.place].scope
    }

    /// The copies the agent loads, in its order.
    pub fn winners(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.status == Status::Ok)
    }

    pub fn winner(&self, name: &str) -> Option<&Candidate> {
        self.winners().find(|c| c.name == name)
    }
}

/// Everything `agent` finds from `ctx.cwd`.
pub fn find(agent: &Agent, ctx: &Ctx) -> Finds {
    let places = scan::places(agent, ctx);
    if let (Parser::Cao, Some(home)) = (agent.parser, &ctx.cao) {
        return cao(home, places);
    }
    // Each candidate with its folder's (device, inode), read on the same
    // worker as its SKILL.md: a thousand folders are read in parallel.
    let mut found: Vec<(Candidate, Option<FileId>)> = Vec::new();
    let mut warnings = Vec::new();
    for (i, place) in places.iter().enumerate() {
        if place.builtin {
            found.extend(
                agent
                    .builtin_skills
                    .iter()
                    .map(|n| (builtin(agent, n, i), None)),
            );
            continue;
        }
        if !place.exists {
            continue;
        }
        let cap = agent.max_dirs.unwrap_or(scan::MAX_FOLDERS);
        let loc = agent.locations.get(place.loc);
        let (mut folders, cut) = match loc.is_some_and(|l| l.tree) {
            true => tree::skill_folders(&place.path, agent.symlinks, cap),
            false => scan::folders_with(
                &place.path,
                depth(agent, place),
                agent.symlinks,
                cap,
                loc.and_then(|l| l.dots),
            ),
        };
        if let Some(cut) = cut {
            warnings.push(cap_warning(agent, &place.path, cap, cut));
        }
        if loc.is_some_and(|l| l.root_skill) {
            // Gemini CLI's glob lists the dir's own `SKILL.md` first and
            // the later copy of a name wins, so in precedence order
            // (highest first) it comes last (gemini-cli-core 0.61.0
            // skillLoader.js `['SKILL.md', '*/SKILL.md']`, observed).
            match agent.parser {
                Parser::Gemini => folders.push(place.path.clone()),
                _ => folders.insert(0, place.path.clone()),
            }
        }
        let mut here: Vec<(Candidate, Option<FileId>)> =
            scan::par_map(&folders, &|folder: &PathBuf| {
                read_one(agent, folder, i).map(|c| (c, file_id(folder)))
            })
            .into_iter()
            .flatten()
            .collect();
        if agent.parser == Parser::Cleo {
            warnings.extend(apply_manifest(&place.path, here.iter_mut().map(|(c, _)| c)));
        }
        if agent.parser == Parser::Omniforge {
            // OmniForge's skills design contradicts itself on `priority`
            // across layers: its field table says "Override priority
            // (higher wins in conflicts)" and Journey 2 sets
            // `priority: 1000  # High priority to override project
            // skills`, while Override Rules say "Enterprise > Personal >
            // Project > Plugin" and the Evolution Notes "No ambiguity
            // about which skill wins". skilltui reads it as: layers first,
            // then a higher `priority` wins inside a layer (docs/agents.md).
            here.sort_by_key(|(c, _)| std::cmp::Reverse(c.priority));
        }
        found.extend(here);
    }
    let (mut candidates, ids): (Vec<Candidate>, Vec<Option<FileId>>) = found.into_iter().unzip();
    resolve(agent, &mut candidates, &ids);
    Finds {
        places,
        candidates,
        warnings,
    }
}

/// The one line saying a cap cut a location's listing, and whose cap it is.
fn cap_warning(agent: &Agent, dir: &Path, cap: usize, cut: scan::Cut) -> String {
    if cut == scan::Cut::Entries {
        return format!(
            "{}: a folder there holds more than {} entries; skilltui reads that many of it, the rest are not listed",
            dir.display(),
            scan::MAX_ENTRIES
        );
    }
    let whose = match agent.max_dirs {
        Some(_) => format!("{} reads", agent.name),
        None => format!("{} documents no limit; skilltui reads", agent.name),
    };
    format!(
        "{}: {whose} at most {cap} folders there; the rest are not listed",
        dir.display()
    )
}

/// Up to `max` files of a skill folder other than its SKILL.md, absolute,
/// in path order, links not followed (OpenCode lists 10 "sampled" files in
/// ripgrep's order, hidden ones included: tool/skill.ts @097ed81). The walk
/// is bounded: a folder too large to walk lists none.
pub fn skill_files(dir: &Path, max: usize) -> Vec<PathBuf> {
    let limits = fsops::Limits {
        entries: 10_000,
        file_bytes: u64::MAX,
        total_bytes: u64::MAX,
    };
    let Ok(walked) = fsops::walk(dir, fsops::Links::Keep, Some(&limits)) else {
        return Vec::new();
    };
    walked
        .items
        .into_iter()
        .filter(|i| matches!(i.kind, fsops::Kind::File { .. }))
        .filter(|i| i.rel != Path::new("SKILL.md"))
        .map(|i| i.from)
        .take(max)
        .collect()
}

/// Whether the agent may load this copy instead of the one marked `ok`: an
/// agent that loads its dirs concurrently (OpenCode) lets any valid copy of
/// a name win, so the model says so rather than pick one.
pub fn may_win(agent: &Agent, c: &Candidate) -> bool {
    agent.concurrent && c.status == Status::Shadowed
}

/// A folder's (device, inode): one folder reached twice through a link
/// has one.
type FileId = (u64, u64);

fn file_id(folder: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(folder).ok().map(|m| (m.dev(), m.ino()))
}

fn depth(agent: &Agent, place: &Place) -> usize {
    agent.locations.get(place.loc).map_or(1, |l| l.depth)
}

fn builtin(agent: &Agent, name: &str, place: usize) -> Candidate {
    Candidate {
        name: name.to_string(),
        description: agent
            .builtin_about
            .get(name)
            .cloned()
            .unwrap_or_else(|| "(bundled with the agent)".into()),
        path: Path::new(scan::BUILT_IN).join(name),
        place,
        status: Status::Ok,
        shadowed_by: None,
        error: None,
        hidden: false,
        priority: 0,
        manifest: Vec::new(),
    }
}

/// What the agent reads in `c`'s SKILL.md (its body, its frontmatter):
/// read again on demand, so a listing keeps only what it shows.
pub fn reread(agent: &Agent, c: &Candidate) -> Read {
    match read_text_for(agent, &c.path).unwrap_or_else(|| {
        Err(format!(
            "{} holds no SKILL.md file any more",
            c.path.display()
        ))
    }) {
        Ok(text) => rules::read(agent.parser, &text, &skill::folder_name(&c.path)),
        Err(e) => Read {
            error: Some(e),
            ..Read::default()
        },
    }
}

/// The text of `c`'s SKILL.md, read again, only from inside its folder
/// (what the agent's listing, its tool and the TUI show).
pub fn read_skill_md(c: &Candidate) -> Result<String, String> {
    skill::read_text_in(&c.path).unwrap_or_else(|| {
        Err(format!(
            "{} holds no SKILL.md file any more",
            c.path.display()
        ))
    })
}

/// `folder`'s SKILL.md as `agent` decodes it, or `None` when there is
/// none: Gemini CLI and OpenCode replace bytes that are not UTF-8 with
/// U+FFFD and load the skill (gemini-cli-core 0.61.0 skillLoader.js
/// `fs.readFile(path, 'utf-8')`; opencode-ai 1.18.33 and copilot 1.0.102,
/// observed); the others refuse it.
fn read_text_for(agent: &Agent, folder: &Path) -> Option<Result<String, String>> {
    let read = skill::read_text_in(folder)?;
    if read.is_ok()
        || !matches!(
            agent.parser,
            Parser::Gemini | Parser::Opencode | Parser::Copilot
        )
    {
        return Some(read);
    }
    Some(read_lossy_in(folder))
}

/// `folder`'s SKILL.md (opened inside it, at most the SKILL.md size limit)
/// with each invalid UTF-8 sequence as one U+FFFD, as the WHATWG decoder
/// of Node and Bun does.
fn read_lossy_in(folder: &Path) -> Result<String, String> {
    use std::io::Read as _;
    let path = folder.join("SKILL.md");
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let (file, _) = fsops::open_inside(folder, Path::new("SKILL.md")).map_err(fail)?;
    let mut bytes = Vec::new();
    file.take(skill::MAX_SKILL_MD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(fail)?;
    if bytes.len() as u64 > skill::MAX_SKILL_MD_BYTES {
        return Err(format!(
            "{} is over skilltui's {} MiB limit: split it into referenced files",
            path.display(),
            skill::MAX_SKILL_MD_BYTES >> 20
        ));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The candidate in `folder`, or `None` when it holds no SKILL.md file.
fn read_one(agent: &Agent, folder: &Path, place: usize) -> Option<Candidate> {
    let dir_name = skill::folder_name(folder);
    // Codex names a skill without a name after its folder with links
    // resolved (observed with Codex 0.169.0: a link `b` to folder `a`
    // lists as `a`, from `b/SKILL.md`).
    let default_name = match agent.parser {
        Parser::Codex => skill::folder_name(&fsops::absolute(folder)),
        _ => dir_name.clone(),
    };
    let read = match read_text_for(agent, folder)? {
        Ok(text) => rules::read(agent.parser, &text, &default_name),
        Err(e) => Read {
            error: Some(e),
            ..Read::default()
        },
    };
    let name = match agent.clash_key {
        ClashKey::Dir => dir_name.clone(),
        ClashKey::Name => read.name.clone().unwrap_or(dir_name),
    };
    // Codex names a skill inside a plugin `plugin_name:name`.
    let name = match (agent.parser, &read.error) {
        (Parser::Codex, None) => codex_plugins::namespace(&folder.join("SKILL.md"))
            .map_or(name.clone(), |ns| format!("{ns}:{name}")),
        _ => name,
    };
    Some(Candidate {
        name,
        description: read.description.clone().unwrap_or_default(),
        path: folder.to_path_buf(),
        place,
        status: if read.error.is_some() {
            Status::Invalid
        } else {
            Status::Ok
        },
        shadowed_by: None,
        error: read.error.clone(),
        hidden: read.hidden || (agent.parser == Parser::Codex && rules::codex_hidden(folder)),
        priority: priority(&read),
        manifest: Vec::new(),
    })
}

fn priority(read: &Read) -> i128 {
    read.frontmatter
        .as_ref()
        .and_then(|f| f.get("priority"))
        .and_then(|n| match n.value {
            crate::core::parse::yaml::Value::Int(i) => Some(i),
            _ => None,
        })
        .unwrap_or(0)
}

/// The agent's clash rule over candidates already in precedence order: an
/// invalid copy never reserves its name; a second copy of one real file
/// (reached through a link) is always a shadow of the first.
fn resolve(agent: &Agent, candidates: &mut [Candidate], ids: &[Option<FileId>]) {
    let mut by_name: HashMap<String, PathBuf> = HashMap::new();
    // A stat each (`ids`), where resolving every path would read every link.
    let mut by_file: HashMap<FileId, PathBuf> = HashMap::new();
    for (c, id) in candidates.iter_mut().zip(ids) {
        if c.status != Status::Ok {
            continue;
        }
        if let Some(id) = id {
            if let Some(first) = by_file.get(id) {
                c.status = Status::Shadowed;
                c.shadowed_by = Some(first.clone());
                continue;
            }
            by_file.insert(*id, c.path.clone());
        }
        if !agent.clash.shadows() {
            continue;
        }
        match by_name.get(&c.name) {
            Some(winner) => {
                c.status = Status::Shadowed;
                c.shadowed_by = Some(winner.clone());
            }
            None => {
                by_name.insert(c.name.clone(), c.path.clone());
            }
        }
    }
}

/// CAO's verdicts, as `cao list` gives them (CAO 2.5.4 `utils/skills.py`:
/// the store, then the extra dirs; the first valid copy wins).
fn cao(home: &store::Home, places: Vec<Place>) -> Finds {
    let listing = store::list(home, false);
    let winners: HashMap<String, PathBuf> = listing
        .valid()
        .map(|e| (e.folder.clone(), e.checked.path.clone()))
        .collect();
    let candidates = listing
        .entries
        .iter()
        .map(|e| Candidate {
            name: e.name().to_string(),
            description: e.description().to_string(),
            path: e.checked.path.clone(),
            place: places
                .iter()
                .position(|p| p.path == e.source_dir)
                .unwrap_or(0),
            status: e.status,
            shadowed_by: (e.status == Status::Shadowed)
                .then(|| winners.get(&e.folder).cloned())
                .flatten(),
            error: e.checked.errors.first().cloned(),
            hidden: false,
            priority: 0,
            manifest: Vec::new(),
        })
        .collect();
    Finds {
        places,
        candidates,
        warnings: Vec::new(),
    }
}

/// CLEO's two-tier design, "Filesystem Structure": `skills/manifest.json`
/// is the source of truth. Decision: a folder the manifest does not list
/// is `invalid`; an entry is matched by `name` (or `id`) against the folder
/// name; tier and tags come from the manifest only ("Skill Taxonomy"). The
/// entries are looked up through a map, and a manifest over
/// [`MAX_MANIFEST`] entries (or bytes) is refused whole: a cloned
/// repository's manifest is a stranger's. Returns the one line saying it
/// was refused.
fn apply_manifest<'a>(dir: &Path, here: impl Iterator<Item = &'a mut Candidate>) -> Option<String> {
    let (entries, problem) = match read_manifest(dir) {
        Ok(m) => (Some(m), None),
        Err(e) => (None, Some(e)),
    };
    let by_folder: HashMap<&str, &ManifestEntry> = entries
        .iter()
        .flatten()
        .rev()
        .flat_map(|e| {
            [&e.name, &e.id]
                .into_iter()
                .flatten()
                .map(move |k| (k.as_str(), e))
        })
        .collect();
    for c in here {
        let folder = skill::folder_name(&c.path);
        match by_folder.get(folder.as_str()) {
            Some(e) => c.manifest = e.facts(),
            None if c.status == Status::Ok => {
                c.status = Status::Invalid;
                c.error = Some(match &problem {
                    None => "not listed in skills/manifest.json (the source of truth)".into(),
                    Some(_) => "no readable manifest.json beside it (the source of truth)".into(),
                });
            }
            None => {}
        }
    }
    problem.filter(|p| !p.is_empty())
}

/// At most this many entries in a CLEO manifest (a project's skills; the
/// set in CLEO's two-tier design is a few dozen), and at most
/// [`MAX_MANIFEST_BYTES`].
pub const MAX_MANIFEST: usize = 10_000;
const MAX_MANIFEST_BYTES: u64 = 4 << 20;

#[derive(serde::Deserialize)]
struct Manifest {
    #[serde(default)]
    skills: Vec<ManifestEntry>,
}

#[derive(serde::Deserialize)]
struct ManifestEntry {
    #[serde(default, deserialize_with = "lenient_str")]
    name: Option<String>,
    #[serde(default, deserialize_with = "lenient_str")]
    id: Option<String>,
    #[serde(default)]
    tier: Option<Json>,
    #[serde(default)]
    tags: Option<Json>,
}

/// A string, or nothing for any other JSON value (an entry whose `name`
/// is a number matches no folder, as before).
fn lenient_str<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    use serde::Deserialize;
    Ok(match Json::deserialize(d)? {
        Json::String(s) => Some(s),
        _ => None,
    })
}

impl ManifestEntry {
    fn facts(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(t) = &self.tier {
            out.push(("tier".into(), t.to_string()));
        }
        if let Some(tags) = self.tags.as_ref().and_then(Json::as_array) {
            let tags: Vec<&str> = tags.iter().filter_map(Json::as_str).collect();
            out.push(("tags".into(), tags.join(", ")));
        }
        out
    }
}

/// The manifest's entries, or why there are none: an empty line when it
/// is missing or not the JSON of CLEO's two-tier design (each folder says
/// so), one line naming the file when it is over the limits.
fn read_manifest(dir: &Path) -> Result<Vec<ManifestEntry>, String> {
    let path = dir.join("manifest.json");
    let bytes = fsops::read_capped_inside(dir, Path::new("manifest.json"), MAX_MANIFEST_BYTES)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => String::new(),
            _ => format!("{}: {e}", path.display()),
        })?;
    let manifest: Manifest = serde_json::from_slice(&bytes).map_err(|_| String::new())?;
    if manifest.skills.len() > MAX_MANIFEST {
        return Err(format!(
            "{} lists {} skills, over the {MAX_MANIFEST} skilltui reads: it is refused, so no skill there loads",
            path.display(),
            manifest.skills.len()
        ));
    }
    Ok(manifest.skills)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::table;

    struct World {
        _tmp: tempfile::TempDir,
        home: PathBuf,
        repo: PathBuf,
        cwd: PathBuf,
    }

    /// A user home and a git repository with a nested working directory.
    fn world() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let repo = tmp.path().join("repo");
        let cwd = repo.join("apps/web");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(&cwd).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        World {
            _tmp: tmp,
            home,
            repo,
            cwd,
        }
    }

    impl World {
        fn ctx(&self, env: &[(&str, &str)]) -> Ctx {
            Ctx {
                user_home: self.home.clone(),
                cwd: self.cwd.clone(),
                env: env
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                cao: None,
            }
        }
    }

    fn skill(dir: &Path, folder: &str, text: &str) -> PathBuf {
        let d = dir.join(folder);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), text).unwrap();
        d
    }

    fn md(name: &str) -> String {
        format!("---\nname: {name}\ndescription: does {name}\n---\nbody\n")
    }

    fn agent(id: &str) -> Agent {
        table::built_in().into_iter().find(|a| a.id == id).unwrap()
    }

    fn statuses(f: &Finds, name: &str) -> Vec<(PathBuf, Status)> {
        f.candidates
            .iter()
            .filter(|c| c.name == name)
            .map(|c| (c.path.clone(), c.status))
            .collect()
    }

    // Amp's skills design, "Discovery Order": the nine locations, first
    // match wins.
    #[test]
    fn amp_finds_its_nine_locations_in_its_discovery_order() {
        let w = world();
        let amp = agent("amp");
        let toolbox = w.home.join("tb");
        let ctx = w.ctx(&[("AMP_TOOLBOX", toolbox.to_str().unwrap())]);
        let paths: Vec<PathBuf> = scan::places(&amp, &ctx)
            .into_iter()
            .map(|p| p.path)
            .collect();
        let h = &w.home;
        assert_eq!(
            paths,
            vec![
                w.cwd.join(".agents/skills"),
                h.join(".config/agents/skills"),
                h.join(".config/amp/skills"),
                w.cwd.join(".claude/skills"),
                h.join(".claude/skills"),
                h.join(".claude/plugins/cache"),
                toolbox,
                PathBuf::from("<built-in>"),
            ]
        );
        // Without AMP_TOOLBOX (or with it empty: JS `||`), the default.
        let ctx = w.ctx(&[("AMP_TOOLBOX", "")]);
        assert!(
            scan::places(&amp, &ctx)
                .iter()
                .any(|p| p.path == h.join(".config/amp/tools"))
        );
    }

    // What `Path::is_file` said before each SKILL.md is opened: a folder
    // without one, or whose SKILL.md is a folder, FIFO or dangling link, is
    // no candidate; one that cannot be decoded is an invalid one.
    #[test]
    fn only_folders_with_a_skill_md_file_are_candidates() {
        let w = world();
        let dir = w.home.join(".config/agents/skills");
        let good = skill(&dir, "good", &md("good"));
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::create_dir_all(dir.join("dir-md/SKILL.md")).unwrap();
        std::fs::create_dir_all(dir.join("fifo")).unwrap();
        let fifo = std::ffi::CString::new(
            dir.join("fifo/SKILL.md")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        std::fs::create_dir_all(dir.join("dangling")).unwrap();
        std::os::unix::fs::symlink("nowhere", dir.join("dangling/SKILL.md")).unwrap();
        let bad = dir.join("latin1");
        std::fs::create_dir_all(&bad).unwrap();
        std::fs::write(bad.join("SKILL.md"), b"---\nname: caf\xe9\n---\n").unwrap();
        let f = find(&agent("amp"), &w.ctx(&[]));
        let mut got: Vec<(PathBuf, Status)> = f
            .candidates
            .iter()
            .filter(|c| c.path.starts_with(&dir))
            .map(|c| (c.path.clone(), c.status))
            .collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(got, vec![(good, Status::Ok), (bad, Status::Invalid)]);
    }

    #[test]
    fn amp_first_location_wins_and_user_beats_project_claude_dirs() {
        let w = world();
        let ws = skill(&w.cwd.join(".agents/skills"), "x", &md("x"));
        let glob = skill(&w.home.join(".config/agents/skills"), "x", &md("x"));
        let amp_user = skill(&w.home.join(".config/amp/skills"), "y", &md("y"));
        let local_claude = skill(&w.cwd.join(".claude/skills"), "y", &md("y"));
        // An invalid copy (empty body) does not reserve its name.
        skill(
            &w.cwd.join(".agents/skills"),
            "z1",
            "---\nname: z\ndescription: d\n---\n",
        );
        let z = skill(&w.home.join(".claude/skills"), "z2", &md("z"));
        // A user skill named like a built-in hides it (Amp's skills design,
        // "Built-in Skills").
        let review = skill(&w.home.join(".claude/skills"), "cr", &md("code-review"));
        let f = find(&agent("amp"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "x"),
            vec![(ws.clone(), Status::Ok), (glob, Status::Shadowed)]
        );
        assert_eq!(
            statuses(&f, "y"),
            vec![(amp_user, Status::Ok), (local_claude, Status::Shadowed)]
        );
        assert_eq!(f.winner("z").unwrap().path, z);
        assert_eq!(f.winner("code-review").unwrap().path, review);
        let builtin = f
            .candidates
            .iter()
            .find(|c| c.name == "code-review" && c.status == Status::Shadowed)
            .unwrap();
        assert_eq!(builtin.shadowed_by.as_deref(), Some(review.as_path()));
        assert!(f.winner("painter").is_some());
        let shadow = f
            .candidates
            .iter()
            .find(|c| c.name == "x" && c.status == Status::Shadowed)
            .unwrap();
        assert_eq!(shadow.shadowed_by.as_deref(), Some(ws.as_path()));
    }

    // OmniForge's skills design, "Four Storage Layers" / "Override Rules".
    #[test]
    fn omniforge_enterprise_beats_personal_beats_project_beats_plugin() {
        let w = world();
        let ent = skill(&w.home.join(".omniforge/enterprise/skills"), "a", &md("k"));
        let per = skill(&w.home.join(".omniforge/skills"), "b", &md("k"));
        let proj = skill(&w.repo.join(".omniforge/skills"), "c", &md("k"));
        let plug = skill(&w.home.join(".omniforge/plugins/p1/skills"), "d", &md("k"));
        let f = find(&agent("omniforge"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "k"),
            vec![
                (ent.clone(), Status::Ok),
                (per, Status::Shadowed),
                (proj, Status::Shadowed),
                (plug, Status::Shadowed),
            ]
        );
        // Complete replacement: the winner's own fields only.
        assert_eq!(f.winner("k").unwrap().path, ent);
    }

    #[test]
    fn omniforge_last_installed_plugin_wins_in_the_plugin_layer() {
        let w = world();
        let old = skill(&w.home.join(".omniforge/plugins/old/skills"), "s", &md("k"));
        let new = skill(&w.home.join(".omniforge/plugins/new/skills"), "s", &md("k"));
        let t = std::time::SystemTime::now();
        let set = |p: &Path, t| {
            std::fs::File::open(p).unwrap().set_modified(t).unwrap();
        };
        set(
            &w.home.join(".omniforge/plugins/old"),
            t - std::time::Duration::from_secs(100),
        );
        set(&w.home.join(".omniforge/plugins/new"), t);
        let f = find(&agent("omniforge"), &w.ctx(&[]));
        assert_eq!(f.winner("k").unwrap().path, new);
        assert_eq!(statuses(&f, "k")[1], (old, Status::Shadowed));
    }

    // openai/codex loader.rs: project root down to cwd, no dedup by name.
    #[test]
    fn codex_walks_root_to_cwd_and_keeps_same_name_copies() {
        let w = world();
        let root = skill(&w.repo.join(".agents/skills"), "a", &md("a"));
        let here = skill(&w.cwd.join(".agents/skills"), "a", &md("a"));
        let f = find(&agent("codex"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![(root, Status::Ok), (here, Status::Ok)]
        );
        // CODEX_HOME moves the user dir.
        let ch = w.home.join("ch");
        let f = find(
            &agent("codex"),
            &w.ctx(&[("CODEX_HOME", ch.to_str().unwrap())]),
        );
        assert!(f.places.iter().any(|p| p.path == ch.join("skills")));
    }

    #[test]
    fn codex_reaches_the_same_file_through_a_link_once() {
        let w = world();
        let real = skill(&w.home.join(".agents/skills"), "a", &md("a"));
        std::fs::create_dir_all(w.home.join(".codex/skills")).unwrap();
        std::os::unix::fs::symlink(&real, w.home.join(".codex/skills/a")).unwrap();
        let f = find(&agent("codex"), &w.ctx(&[]));
        let s = statuses(&f, "a");
        // Codex's root order puts $CODEX_HOME/skills first: the link is
        // reached first, the real folder is the same file again.
        assert_eq!(s[0], (w.home.join(".codex/skills/a"), Status::Ok));
        assert_eq!(s[1], (real, Status::Shadowed));
    }

    // code.claude.com/docs/en/skills: personal beats project; the folder
    // name is the command name; project dirs from cwd up to the repo root.
    #[test]
    fn claude_personal_beats_project_by_folder_name() {
        let w = world();
        let personal = skill(&w.home.join(".claude/skills"), "deploy", &md("one"));
        let project = skill(&w.repo.join(".claude/skills"), "deploy", &md("two"));
        let f = find(&agent("claude-code"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "deploy"),
            vec![(personal, Status::Ok), (project, Status::Shadowed)]
        );
        let cfg = w.home.join("cfg");
        let f = find(
            &agent("claude-code"),
            &w.ctx(&[("CLAUDE_CONFIG_DIR", cfg.to_str().unwrap())]),
        );
        assert!(f.places.iter().any(|p| p.path == cfg.join("skills")));
    }

    // gemini-cli skillManager.ts: workspace > user; .agents alias first.
    #[test]
    fn gemini_workspace_beats_user_and_does_not_walk_up() {
        let w = world();
        let user = skill(&w.home.join(".gemini/skills"), "a", &md("a"));
        let ws = skill(&w.cwd.join(".gemini/skills"), "a", &md("a"));
        let alias = skill(&w.cwd.join(".agents/skills"), "a2", &md("a"));
        skill(&w.repo.join(".gemini/skills"), "b", &md("b"));
        let f = find(&agent("gemini-cli"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![
                (alias, Status::Ok),
                (ws, Status::Shadowed),
                (user, Status::Shadowed)
            ]
        );
        assert!(f.winner("b").is_none());
    }

    // gemini-cli-core 0.61.0: the workspace's copy wins over the user's
    // (the order of the catalog is render.rs's test).
    #[test]
    fn gemini_workspace_copy_wins_over_the_users() {
        let w = world();
        skill(&w.home.join(".gemini/skills"), "a-x", &md("a-x"));
        let ws = skill(&w.cwd.join(".agents/skills"), "a", &md("a-x"));
        let f = find(&agent("gemini-cli"), &w.ctx(&[]));
        assert_eq!(f.winner("a-x").unwrap().path, ws);
    }

    // gemini-cli-core 0.61.0: of two copies in one dir the later in its
    // glob wins, so a folder's copy beats the dir's own SKILL.md.
    #[test]
    fn gemini_prefers_a_folder_to_the_dirs_own_skill_md_of_one_name() {
        let w = world();
        let dir = w.cwd.join(".gemini/skills");
        let folder = skill(&dir, "f", &md("same"));
        std::fs::write(dir.join("SKILL.md"), md("same")).unwrap();
        let f = find(&agent("gemini-cli"), &w.ctx(&[]));
        assert_eq!(f.winner("same").unwrap().path, folder);
    }

    // gemini-cli-core 0.61.0 reads with fs.readFile(path, 'utf-8'): an
    // invalid byte is U+FFFD and the skill loads; Codex refuses the file.
    #[test]
    fn gemini_and_opencode_decode_invalid_utf8_with_replacement_characters() {
        let w = world();
        let mut text = b"---\nname: bad\ndescription: caf".to_vec();
        text.extend([0xE9, b' ', 0xFF, 0xFE]);
        text.extend(b"\n---\nbody\n");
        for dir in [".gemini/skills", ".opencode/skills", ".agents/skills"] {
            let d = w.cwd.join(dir).join("bad");
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("SKILL.md"), &text).unwrap();
        }
        for id in ["gemini-cli", "opencode"] {
            let f = find(&agent(id), &w.ctx(&[]));
            let c = f.winner("bad").unwrap_or_else(|| panic!("{id}"));
            assert_eq!(c.description, "caf\u{fffd} \u{fffd}\u{fffd}", "{id}");
        }
        let f = find(&agent("codex"), &w.ctx(&[]));
        assert!(f.winner("bad").is_none());
    }

    // OpenCode docs: last loaded wins, load order global -> project.
    #[test]
    fn opencode_project_copy_beats_global_and_walks_to_the_worktree() {
        let w = world();
        let global = skill(&w.home.join(".config/opencode/skills"), "a", &md("a"));
        let root = skill(&w.repo.join(".opencode/skills"), "a", &md("a"));
        let f = find(&agent("opencode"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![(root, Status::Ok), (global, Status::Shadowed)]
        );
    }

    // opencode-ai 1.18.33, observed with `opencode debug skill`: config
    // dirs take `{skill,skills}/**/SKILL.md` (a SKILL.md directly there,
    // any depth, `.` folders skipped), ~/.opencode and
    // $OPENCODE_CONFIG_DIR are config dirs; the external dirs enter `.`
    // folders.
    #[test]
    fn opencode_reads_every_config_dir_at_any_depth() {
        let w = world();
        let occ = w.home.join("occ");
        let config = w.home.join(".config/opencode");
        let want = [
            skill(&config.join("skill"), "sing", &md("sing")),
            config.join("skills"),
            skill(&config.join("skills/a/b/c/d/e/f/g"), "deep", &md("deep")),
            skill(&w.home.join(".opencode/skills"), "home", &md("home")),
            skill(&occ.join("skill"), "env", &md("env")),
            skill(&w.home.join(".agents/skills/.dot"), "ext", &md("ext")),
            skill(&w.cwd.join(".opencode/skill"), "here", &md("here")),
        ];
        std::fs::write(config.join("skills/SKILL.md"), md("root")).unwrap();
        skill(&config.join("skills/.dot"), "hidden", &md("hidden"));
        let f = find(
            &agent("opencode"),
            &w.ctx(&[("OPENCODE_CONFIG_DIR", occ.to_str().unwrap())]),
        );
        let ok: Vec<&PathBuf> = f.winners().map(|c| &c.path).collect();
        for p in &want {
            assert!(ok.contains(&p), "{} not in {ok:?}", p.display());
        }
        assert!(f.winner("hidden").is_none());
        // Unset, the variable names no dir.
        let f = find(&agent("opencode"), &w.ctx(&[]));
        assert!(f.winner("env").is_none() && f.winner("home").is_some());
    }

    // Copilot CLI reference: first found wins; Kiro: workspace wins.
    #[test]
    fn copilot_and_kiro_project_beats_user() {
        let w = world();
        let p = skill(&w.cwd.join(".github/skills"), "a", &md("a"));
        let u = skill(&w.home.join(".copilot/skills"), "a", &md("a"));
        let f = find(&agent("github-copilot"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![(p, Status::Ok), (u, Status::Shadowed)]
        );
        let p = skill(&w.cwd.join(".kiro/skills"), "a", &md("a"));
        let u = skill(&w.home.join(".kiro/skills"), "a", &md("a"));
        let f = find(&agent("kiro-cli"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![(p, Status::Ok), (u, Status::Shadowed)]
        );
    }

    // cursor.com/docs/skills.md gives no clash rule: both stay ok.
    #[test]
    fn cursor_invents_no_winner() {
        let w = world();
        skill(&w.cwd.join(".cursor/skills"), "a", &md("a"));
        skill(&w.home.join(".cursor/skills"), "a", &md("a"));
        let f = find(&agent("cursor"), &w.ctx(&[]));
        assert!(statuses(&f, "a").iter().all(|(_, s)| *s == Status::Ok));
    }

    // CLEO's two-tier design, "Filesystem Structure" and "Skill Taxonomy".
    #[test]
    fn cleo_takes_the_manifest_as_the_source_of_truth() {
        let w = world();
        let skills = w.repo.join("skills");
        skill(&skills, "ct-research-agent", &md("ct-research-agent"));
        skill(&skills, "ct-stray", &md("ct-stray"));
        std::fs::create_dir_all(skills.join("_shared")).unwrap();
        std::fs::write(
            skills.join("manifest.json"),
            r#"{"skills": [{"name": "ct-research-agent", "tier": 2, "tags": ["research", "documentation"]}]}"#,
        )
        .unwrap();
        let f = find(&agent("cleo"), &w.ctx(&[]));
        let ok = f.winner("ct-research-agent").unwrap();
        assert_eq!(
            ok.manifest,
            vec![
                ("tier".to_string(), "2".to_string()),
                ("tags".to_string(), "research, documentation".to_string())
            ]
        );
        let stray = f.candidates.iter().find(|c| c.name == "ct-stray").unwrap();
        assert_eq!(stray.status, Status::Invalid);
        assert_eq!(f.candidates.len(), 2);
    }

    // 2,000 folders against a manifest of 10,000 entries (each folder
    // listed near the end) is 20 million look-ups when each folder
    // searches the list, a few thousand through a map.
    #[test]
    fn cleo_matches_folders_to_the_manifest_through_a_map() {
        let w = world();
        let skills = w.repo.join("skills");
        let mut entries: Vec<String> = (0..MAX_MANIFEST - 2_000)
            .map(|i| format!(r#"{{"name": "other-{i}"}}"#))
            .collect();
        for i in 0..2_000 {
            let name = format!("s{i:04}");
            skill(&skills, &name, &md(&name));
            entries.push(format!(r#"{{"name": "{name}", "tier": {}}}"#, i % 3));
        }
        std::fs::write(
            skills.join("manifest.json"),
            format!(r#"{{"skills": [{}]}}"#, entries.join(",")),
        )
        .unwrap();
        let f = find(&agent("cleo"), &w.ctx(&[]));
        assert_eq!(f.winners().count(), 2_000);
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
        let c = f.winner("s1999").unwrap();
        assert_eq!(c.manifest, vec![("tier".to_string(), "1".to_string())]);
    }

    // A manifest over the cap is refused whole, with one line.
    #[test]
    fn a_cleo_manifest_over_the_cap_is_refused_with_one_line() {
        let w = world();
        let skills = w.repo.join("skills");
        skill(&skills, "a", &md("a"));
        let entries: Vec<String> = (0..=MAX_MANIFEST)
            .map(|i| format!(r#"{{"name": "a{i}"}}"#))
            .chain([r#"{"name": "a"}"#.to_string()])
            .collect();
        std::fs::write(
            skills.join("manifest.json"),
            format!(r#"{{"skills": [{}]}}"#, entries.join(",")),
        )
        .unwrap();
        let f = find(&agent("cleo"), &w.ctx(&[]));
        assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
        assert!(
            f.warnings[0].contains("manifest.json lists 10002 skills, over the 10000"),
            "{:?}",
            f.warnings
        );
        assert_eq!(f.candidates[0].status, Status::Invalid);
    }

    // The 2,000-folder cap is Codex's (loader.rs); Claude Code
    // documents none, so a dir of 2,001 skills lists them all.
    #[test]
    fn only_codex_stops_at_2000_folders_and_says_so() {
        let w = world();
        for dir in [".claude/skills", ".agents/skills"] {
            for i in 0..2_001 {
                let name = format!("s{i:04}");
                skill(&w.cwd.join(dir), &name, &md(&name));
            }
        }
        let claude = find(&agent("claude-code"), &w.ctx(&[]));
        let dir = w.cwd.join(".claude/skills");
        assert_eq!(
            claude
                .winners()
                .filter(|c| c.path.starts_with(&dir))
                .count(),
            2_001
        );
        assert!(claude.warnings.is_empty(), "{:?}", claude.warnings);
        let codex = find(&agent("codex"), &w.ctx(&[]));
        assert_eq!(codex.candidates.len(), 2_000);
        assert_eq!(codex.warnings.len(), 1, "{:?}", codex.warnings);
        assert!(
            codex.warnings[0].contains("Codex reads at most 2000 folders there"),
            "{:?}",
            codex.warnings
        );
    }

    // One folder read takes at most `MAX_ENTRIES` entries, files
    // included, and one line says so; a folder of exactly that many is
    // read whole and says nothing.
    #[test]
    fn a_folder_read_stops_at_max_entries_and_says_so() {
        let w = world();
        let full = w.cwd.join(".claude/skills");
        let over = w.cwd.join(".agents/skills");
        for (dir, n) in [(&full, scan::MAX_ENTRIES), (&over, scan::MAX_ENTRIES + 1)] {
            skill(dir, "real", &md("real"));
            std::fs::create_dir_all(dir).unwrap();
            for i in 1..n {
                std::fs::write(dir.join(format!("f{i:06}")), "").unwrap();
            }
        }
        let claude = find(&agent("claude-code"), &w.ctx(&[]));
        let named = full.display().to_string();
        assert!(
            !claude.warnings.iter().any(|l| l.contains(&named)),
            "{:?}",
            claude.warnings
        );
        assert!(claude.winner("real").is_some());
        let codex = find(&agent("codex"), &w.ctx(&[]));
        assert_eq!(codex.warnings.len(), 1, "{:?}", codex.warnings);
        assert!(
            codex.warnings[0].contains(&format!(
                "holds more than {} entries; skilltui reads that many",
                scan::MAX_ENTRIES
            )),
            "{:?}",
            codex.warnings
        );
        assert!(codex.candidates.len() <= 1);
    }

    #[test]
    fn outside_a_repository_the_walk_is_the_cwd_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let ctx = Ctx {
            user_home: tmp.path().join("h"),
            cwd: tmp.path().join("a/b"),
            env: HashMap::new(),
            cao: None,
        };
        assert_eq!(
            ctx.walk(table::Walk::CwdToGitRoot),
            vec![tmp.path().join("a/b")]
        );
        assert_eq!(ctx.walk(table::Walk::GitRoot), vec![tmp.path().join("a/b")]);
    }
    // cline skills.ts getAvailableSkills: global beats project; Roo Code
    // SkillsManager: project beats global, .roo beats .agents; kilo 7.7.9
    // `kilo debug skill`: ~/.kilo/skills beats the project's .kilo/skills,
    // which beats ~/.agents/skills.
    #[test]
    fn the_added_agents_resolve_clashes_by_their_own_order() {
        let w = world();
        let home_agents = skill(&w.home.join(".agents/skills"), "a", &md("a"));
        let proj_agents = skill(&w.cwd.join(".agents/skills"), "a", &md("a"));
        let f = find(&agent("cline"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "a"),
            vec![
                (home_agents.clone(), Status::Ok),
                (proj_agents.clone(), Status::Shadowed)
            ]
        );
        let roo = skill(&w.cwd.join(".roo/skills"), "a", &md("a"));
        let f = find(&agent("roo"), &w.ctx(&[]));
        assert_eq!(f.winner("a").unwrap().path, roo);
        let kilo_home = skill(&w.home.join(".kilo/skills"), "k", &md("k"));
        let kilo_proj = skill(&w.cwd.join(".kilo/skills"), "k", &md("k"));
        let f = find(&agent("kilo"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "k"),
            vec![(kilo_home, Status::Ok), (kilo_proj, Status::Shadowed)]
        );
        assert_eq!(f.winner("a").unwrap().path, proj_agents);
    }
    // OmniForge's skills design contradicts itself: "`priority` | number |
    // No | Override priority (higher wins in conflicts)" against
    // "Resolution order (highest priority wins): Enterprise > Personal >
    // Project > Plugin". skilltui reads it as: layers first, then
    // `priority` inside a layer.
    #[test]
    fn omniforge_priority_orders_copies_inside_a_layer_never_across_layers() {
        let w = world();
        let pri = |p: i64| format!("---\nname: k\ndescription: d\npriority: {p}\n---\nb\n");
        let ent = skill(&w.home.join(".omniforge/enterprise/skills"), "a", &pri(0));
        let proj_low = skill(&w.repo.join(".omniforge/skills"), "b", &pri(1));
        let proj_high = skill(&w.repo.join(".omniforge/skills"), "c", &pri(1000));
        let f = find(&agent("omniforge"), &w.ctx(&[]));
        assert_eq!(
            statuses(&f, "k"),
            vec![
                (ent, Status::Ok),
                (proj_high, Status::Shadowed),
                (proj_low, Status::Shadowed)
            ]
        );
    }

    // Observed with Codex 0.169.0 (`codex debug prompt-input`): a skill
    // without a name behind a link is named after the folder the link
    // resolves to; one inside a plugin is prefixed `plugin_name:`; a
    // SKILL.md in the root itself loads, named after the root.
    #[test]
    fn codex_names_follow_links_plugins_and_the_root() {
        let w = world();
        let dir = w.home.join(".agents/skills");
        let real = skill(
            &w.home.join("elsewhere"),
            "real",
            "---\ndescription: d\n---\n",
        );
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(&real, dir.join("link")).unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\ndescription: at the root\n---\n").unwrap();
        let plugin = w.home.join(".codex/plugins/cache/m/demo/1.0.0");
        std::fs::create_dir_all(plugin.join(".codex-plugin")).unwrap();
        std::fs::write(
            plugin.join(".codex-plugin/plugin.json"),
            r#"{"name":"demo"}"#,
        )
        .unwrap();
        skill(&plugin.join("skills"), "hello", &md("hello"));
        std::fs::write(w.home.join(".codex/config.toml"), "[plugins.\"demo@m\"]\n").unwrap();
        let f = find(&agent("codex"), &w.ctx(&[]));
        let names: Vec<&str> = f.winners().map(|c| c.name.as_str()).collect();
        for n in ["real", "skills", "demo:hello"] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        assert!(!names.contains(&"link"), "{names:?}");
    }
}
