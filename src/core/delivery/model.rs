//! What one profile's agent receives about skills under one provider, and
//! why (CAO 2.5.4: `services/terminal_service.py`, `install_service.py`,
//! `utils/skill_injection.py`, `utils/opencode_config.py`, `providers/`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::core::cao::catalog::{self, Format};
use crate::core::cao::store::{self, Home, Listing};
use crate::core::delivery::agent::{self, Agent, RUNTIME_PROMPT, Source};
use crate::core::delivery::copilot;
use crate::core::text::{py_isspace, py_strip};

/// How skills reach the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// The catalog is appended to the prompt at launch.
    #[serde(rename = "prompt")]
    Prompt,
    /// The catalog was written into the agent file at `cao install`.
    #[serde(rename = "baked")]
    Baked,
    /// Kiro's `skill://` globs: Kiro reads each SKILL.md itself.
    #[serde(rename = "skill-resource")]
    SkillResource,
    /// OpenCode discovers skills through a link to the store.
    #[serde(rename = "symlink")]
    Symlink,
    #[serde(rename = "none")]
    None,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Prompt => "prompt",
            Kind::Baked => "baked",
            Kind::SkillResource => "skill-resource",
            Kind::Symlink => "symlink",
            Kind::None => "none",
        }
    }

    /// The profile's `skills:` list narrows what the agent gets (only
    /// the runtime catalog is built from it: `_apply_skill_prompt`).
    pub fn filters(self) -> bool {
        self == Kind::Prompt
    }

    /// What the agent gets whatever `skills:` says, for a person (`None`
    /// when the list decides).
    pub fn regardless(self) -> Option<&'static str> {
        match self {
            Kind::Prompt => None,
            Kind::Baked => Some("every skill, baked in at install"),
            Kind::SkillResource => Some("every skill through its resources"),
            Kind::Symlink => Some("every skill through its link to the store"),
            Kind::None => Some("no skills"),
        }
    }
}

/// A SKILL.md Kiro's globs reach, or a skill they do not (extra dirs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reach {
    #[serde(serialize_with = "crate::core::text::lossy_path")]
    pub path: PathBuf,
    /// Its folder, relative to the store or extra dir.
    pub skill: String,
    /// Deeper than one folder: only `**/SKILL.md` reaches it (CAO's own
    /// catalog never lists it).
    pub nested: bool,
    pub reached: bool,
}

impl Reach {
    /// What a person needs to know about it beside its name.
    pub fn mark(&self) -> &'static str {
        match (self.reached, self.nested) {
            (false, _) => "extra dir: not reached",
            (true, true) => "nested: Kiro only, not in CAO's catalog",
            (true, false) => "",
        }
    }
}

/// The file or link `cao install` made for this provider, as it is now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Installed {
    #[serde(serialize_with = "crate::core::text::lossy_path")]
    pub path: PathBuf,
    pub exists: bool,
    /// Differs from what CAO would write now; `None` when not knowable.
    pub stale: Option<bool>,
    /// Copilot: CAO's refresh rewrites it (a context copy exists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub managed: Option<bool>,
}

impl Installed {
    pub fn state(&self) -> &'static str {
        match (self.exists, self.stale, self.managed) {
            (false, _, _) => "missing",
            (true, _, Some(false)) => "not installed by CAO",
            (true, Some(true), _) => "stale: differs from what CAO writes now",
            (true, Some(false), _) => "as CAO writes it",
            (true, None, _) => "present",
        }
    }

    /// A baked Copilot file's state as advice to a person: what rewrites
    /// it, or why nothing does.
    pub fn baked_advice(&self) -> &'static str {
        match (self.exists, self.managed, self.stale) {
            (false, _, _) => "not installed: `cao install --provider copilot_cli` writes it",
            (true, Some(false), _) => "not installed by CAO: its refresh leaves it alone",
            (true, _, Some(true)) => "STALE: `skilltui refresh` (or any change here) rewrites it",
            (true, _, Some(false)) => "up to date",
            (true, _, None) => "its profile does not load by that name: CAO leaves it as it is",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Delivery {
    pub profile: String,
    pub provider: &'static str,
    pub provider_source: Source,
    pub delivery: Kind,
    /// The catalog text the agent receives (may be empty), or `None`.
    pub catalog: Option<String>,
    /// The prompt text skills are part of (or the agent's own prompt where
    /// skills come another way), `None` when the provider has none.
    pub prompt: Option<String>,
    /// Kiro: the `resources` CAO writes; OpenCode: the link; Copilot: the file.
    pub resources: Vec<String>,
    /// Kiro: the SKILL.md files its globs reach, and extra-dir skills not.
    pub reaches: Vec<Reach>,
    /// The profile's `skills:` list narrows what the agent gets.
    pub filtered: bool,
    /// Skills in extra skill dirs count.
    pub extra_dirs: bool,
    pub installed: Option<Installed>,
    /// One sentence for a person: how this agent gets skills.
    pub why: String,
}

/// Loads the profile and the store, then [`compute`].
pub fn for_profile(home: &Home, name: &str, explicit: Option<&str>) -> Result<Delivery, String> {
    let a = agent::load(home, name)?;
    let listing = store::list(home, false);
    compute(home, &listing, &a, explicit)
}

pub fn compute(
    home: &Home,
    listing: &Listing,
    a: &Agent,
    explicit: Option<&str>,
) -> Result<Delivery, String> {
    let (provider, source) = a.provider(explicit)?;
    let mut d = Delivery {
        profile: a.lookup.clone(),
        provider,
        provider_source: source,
        delivery: Kind::None,
        catalog: None,
        prompt: None,
        resources: Vec::new(),
        reaches: Vec::new(),
        filtered: false,
        extra_dirs: false,
        installed: None,
        why: String::new(),
    };
    match kind_of(provider, a) {
        Kind::Prompt => runtime(listing, a, &mut d),
        Kind::Baked => baked(home, listing, a, &mut d),
        Kind::SkillResource => kiro(home, listing, a, &mut d),
        Kind::Symlink => opencode(home, a, &mut d),
        Kind::None => {
            d.why = match a.native().filter(|_| provider == "claude_code") {
                Some(native) => format!(
                    "no skills: native_agent '{native}' makes CAO run `claude --agent`, which drops the catalog"
                ),
                None => {
                    format!("no skills: CAO hands {provider} no catalog and no skill resources")
                }
            }
        }
    }
    Ok(d)
}

/// How `provider` hands this profile's agent its skills.
pub fn kind_of(provider: &str, a: &Agent) -> Kind {
    match provider {
        "claude_code" if a.native().is_some() => Kind::None,
        p if RUNTIME_PROMPT.contains(&p) => Kind::Prompt,
        "copilot_cli" => Kind::Baked,
        "kiro_cli" => Kind::SkillResource,
        "opencode_cli" => Kind::Symlink,
        _ => Kind::None,
    }
}

/// `build_skill_catalog(profile.skills)` appended by `_apply_skill_prompt`.
fn runtime(listing: &Listing, a: &Agent, d: &mut Delivery) {
    let block =
        catalog::render(Format::Cao, listing, a.skills.as_deref(), &a.lookup).unwrap_or_default();
    // omp alone falls back to `prompt:`, unstripped.
    let base = match (d.provider, a.body.is_empty()) {
        ("omp", true) => a.prompt.as_deref().unwrap_or(""),
        _ => a.body.as_str(),
    };
    d.delivery = Kind::Prompt;
    d.prompt = Some(catalog::compose_prompt(base, &block));
    d.catalog = Some(block);
    d.filtered = Kind::Prompt.filters();
    d.extra_dirs = true;
    d.why = format!(
        "{}: CAO appends the catalog to the prompt at launch, filtered by `skills:`",
        d.provider
    );
}

fn baked(home: &Home, listing: &Listing, a: &Agent, d: &mut Delivery) {
    let path = copilot::file_for(home, &a.name);
    let mut installed = Installed {
        path: path.clone(),
        exists: std::fs::symlink_metadata(&path).is_ok(),
        stale: None,
        managed: Some(false),
    };
    let mut state = "not installed: `cao install --provider copilot_cli` writes it".to_string();
    let block = copilot::unfiltered_catalog(listing);
    if installed.exists {
        match copilot::examine(home, &block, &path) {
            Ok(b) => {
                installed.managed = Some(b.managed);
                installed.stale = b.stale();
                state = match (b.stale(), &b.skipped) {
                    (Some(true), _) => "stale: `skilltui refresh` rewrites it".into(),
                    (Some(false), _) => "up to date".into(),
                    (None, Some(why)) => format!("left alone by CAO's refresh: {why}"),
                    (None, None) => "state unknown".into(),
                };
            }
            Err(why) => state = why,
        }
    }
    d.delivery = Kind::Baked;
    d.prompt = Some(copilot::baked_prompt(&block, a));
    d.catalog = Some(block);
    d.resources = vec![path.display().to_string()];
    d.extra_dirs = true;
    d.installed = Some(installed);
    d.why = format!(
        "copilot_cli: the full catalog (every skill, `skills:` ignored) is baked into {} at install; {state}",
        path.display()
    );
}

/// `cao install`'s Kiro agent JSON: the context file, the two globs, then
/// the profile's own resources; `prompt` is `prompt:` stripped.
fn kiro(home: &Home, listing: &Listing, a: &Agent, d: &mut Delivery) {
    d.delivery = Kind::SkillResource;
    d.resources = kiro_resources(home, a);
    d.prompt = kiro_prompt(a);
    d.reaches = kiro_reaches(home, listing);
    d.installed = Some(kiro_installed(home, a, &d.resources, d.prompt.as_deref()));
    let fallback = match (d.provider_source, a.invalid_provider()) {
        (Source::Fallback, Some(p)) => format!(
            " (CAO's fallback: '{p}' is not a provider{})",
            crate::core::suggest::did_you_mean(p, agent::PROVIDERS)
        ),
        (Source::Fallback, None) => " (CAO's fallback: the profile names no provider)".into(),
        _ => String::new(),
    };
    d.why = format!(
        "kiro_cli{fallback}: no catalog; the agent's resources point Kiro at the store's SKILL.md files (nested folders too, extra dirs never, `skills:` ignored)"
    );
}

/// The agent JSON `cao install` wrote, and whether its `resources` or
/// `prompt` differ from `resources` and `prompt` (the rest depends on
/// roles and MCP servers, not on skills).
pub fn kiro_installed(
    home: &Home,
    a: &Agent,
    resources: &[String],
    prompt: Option<&str>,
) -> Installed {
    let path = kiro_agents_dir(home).join(format!("{}.json", copilot::flatten(&a.name)));
    let exists = std::fs::symlink_metadata(&path).is_ok();
    // CAO resolves a home given by CAO_HOME_DIR and not the default one,
    // and which it was is not known here: either spelling of the globs is
    // what CAO wrote.
    let (lexical, real) = (home.skills_dir(), real_path(&home.skills_dir()));
    let mut resolved = resources.to_vec();
    for r in resolved.iter_mut().skip(1).take(2) {
        *r = r.replacen(
            &lexical.display().to_string(),
            &real.display().to_string(),
            1,
        );
    }
    let stale = exists
        .then(|| read_agent_json(&path))
        .flatten()
        .map(|json| {
            kiro_json_differs(&json, resources, prompt)
                && kiro_json_differs(&json, &resolved, prompt)
        });
    Installed {
        path,
        exists,
        stale,
        managed: None,
    }
}

pub fn kiro_agents_dir(home: &Home) -> PathBuf {
    match std::env::var_os("CAO_AGENTS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => home.user_home.join(".kiro").join("agents"),
    }
}

/// The JSON's `prompt`: `prompt:` stripped, absent when empty.
pub fn kiro_prompt(a: &Agent) -> Option<String> {
    Some(py_strip(a.prompt.as_deref().unwrap_or("")))
        .filter(|p| !p.is_empty())
        .map(str::to_string)
}

pub fn kiro_resources(home: &Home, a: &Agent) -> Vec<String> {
    let context_dir = crate::core::cao::profile::installed_context_dirs(home)
        .into_iter()
        .next()
        .unwrap_or_else(|| home.agent_context());
    let context = real_path(&context_dir).join(format!("{}.md", a.name));
    let skills = home.skills_dir();
    let mut out = vec![
        format!("file://{}", context.display()),
        format!("skill://{}/**/SKILL.md", skills.display()),
        format!("skill://{}/*/SKILL.md", skills.display()),
    ];
    out.extend(a.resources.iter().cloned());
    out
}

fn kiro_json_differs(json: &serde_json::Value, resources: &[String], prompt: Option<&str>) -> bool {
    let have_res = json.get("resources").cloned().unwrap_or_default();
    let have_prompt = json.get("prompt").and_then(|p| p.as_str());
    have_res != serde_json::json!(resources) || have_prompt != prompt
}

/// An agent JSON larger than this is not read (CAO writes a few KiB).
const MAX_AGENT_JSON: u64 = 4 << 20;

/// A Kiro agent JSON, when it is a small regular file that parses.
pub fn read_agent_json(path: &Path) -> Option<serde_json::Value> {
    let bytes = crate::core::fsops::read_capped(path, MAX_AGENT_JSON).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// SKILL.md files the globs reach: the store's skill folders (valid for
/// CAO or not: Kiro reads each itself), SKILL.md files in folders below
/// the store's other folders (bounded), then the extra dirs' skills, which
/// no glob reaches.
fn kiro_reaches(home: &Home, listing: &Listing) -> Vec<Reach> {
    let store = home.skills_dir();
    let mut out: Vec<Reach> = listing
        .entries
        .iter()
        .filter(|e| e.source_dir == store)
        .map(|e| Reach {
            path: e.checked.path.join("SKILL.md"),
            skill: e.folder.clone(),
            nested: false,
            reached: true,
        })
        .collect();
    // The listing read the store's folders: those with no SKILL.md are
    // the ones to look below.
    let mut nested = Vec::new();
    for dir in &listing.not_skills {
        walk_nested(&store, dir, 2, &mut nested);
    }
    out.extend(nested);
    out.sort_by(|a, b| a.skill.cmp(&b.skill));
    for e in listing.valid().filter(|e| e.source_dir != store) {
        out.push(Reach {
            path: e.checked.path.join("SKILL.md"),
            skill: e.folder.clone(),
            nested: false,
            reached: false,
        });
    }
    out
}

/// Folders nested deeper than this are not searched, nor more than this
/// many found (a link loop or a vendored tree must not stall a key press).
const MAX_DEPTH: usize = 6;
const MAX_FOUND: usize = 5000;

/// SKILL.md files below a store folder that is not a skill. A skill's own
/// folders (scripts, references...) are not searched: a store of thousands
/// of skills is walked on every selection, and a SKILL.md in there is rare
/// (Kiro's `**` would reach it). Links below the store are not followed.
fn walk_nested(store: &Path, dir: &Path, depth: usize, out: &mut Vec<Reach>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if out.len() >= MAX_FOUND || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = e.path();
        let md = path.join("SKILL.md");
        if md.is_file() {
            let rel = path.strip_prefix(store).unwrap_or(&path);
            out.push(Reach {
                skill: rel.display().to_string(),
                path: md,
                nested: true,
                reached: true,
            });
        } else if depth < MAX_DEPTH {
            walk_nested(store, &path, depth + 1, out);
        }
    }
}

fn opencode(home: &Home, a: &Agent, d: &mut Delivery) {
    let link = opencode_link(home);
    let state = link_state(home, &link);
    d.delivery = Kind::Symlink;
    // The agent file's body: the body, else `prompt:`, right-stripped.
    let body = if a.body.is_empty() {
        a.prompt.as_deref().unwrap_or("")
    } else {
        &a.body
    };
    d.prompt = Some(body.trim_end_matches(py_isspace).to_string());
    d.resources = vec![link.display().to_string()];
    d.installed = Some(Installed {
        path: link.clone(),
        exists: state != LinkState::Missing,
        stale: (state != LinkState::Missing).then_some(state != LinkState::Store),
        managed: None,
    });
    d.why = format!(
        "opencode_cli: no catalog; OpenCode finds skills itself through {} -> {} ({})",
        link.display(),
        home.skills_dir().display(),
        state.label()
    );
}

/// `OPENCODE_CONFIG_DIR / "skills"`: under `$HOME` even with `CAO_HOME_DIR`.
pub fn opencode_link(home: &Home) -> PathBuf {
    home.user_home.join(".aws").join("opencode").join("skills")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    Missing,
    /// A link that resolves to the store (`ensure_skills_symlink` is happy).
    Store,
    /// A link elsewhere, or a real folder: CAO only warns, never repairs.
    Elsewhere,
}

impl LinkState {
    pub fn label(self) -> &'static str {
        match self {
            LinkState::Missing => "missing: `cao install --provider opencode_cli` makes it",
            LinkState::Store => "in place",
            LinkState::Elsewhere => "points elsewhere: OpenCode does not see the store",
        }
    }
}

pub fn link_state(home: &Home, link: &Path) -> LinkState {
    match std::fs::symlink_metadata(link) {
        Err(_) => LinkState::Missing,
        Ok(m) if m.file_type().is_symlink() => {
            if real_path(link) == real_path(&home.skills_dir()) {
                LinkState::Store
            } else {
                LinkState::Elsewhere
            }
        }
        Ok(_) => LinkState::Elsewhere,
    }
}

/// `os.path.realpath` / non-strict `Path.resolve()`: links resolved as far
/// as the path exists, the rest kept as written.
pub fn real_path(p: &Path) -> PathBuf {
    if let Ok(r) = std::fs::canonicalize(p) {
        return r;
    }
    match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => {
            real_path(parent).join(name)
        }
        _ => crate::core::fsops::absolute(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::ffi::OsStrExt;

    fn write_md(dir: &Path, name: &str) {
        fs::create_dir_all(dir).unwrap();
        let md = format!("---\nname: {name}\ndescription: d\n---\nbody\n");
        fs::write(dir.join("SKILL.md"), md).unwrap();
    }

    // Kiro's `**` reaches SKILL.md files below the store's folders that
    // are not skills: a folder whose name is not UTF-8, one that is a link
    // to a folder, each once, even when settings list the store again as
    // an extra dir.
    #[test]
    fn kiro_reaches_each_nested_skill_once() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, user) = (tmp.path().join("home"), tmp.path().join("user"));
        let store = root.join("skills");
        write_md(&store.join("top"), "top");
        write_md(&store.join("group/inner"), "inner");
        let odd = store.join(std::ffi::OsStr::from_bytes(b"odd\xff"));
        write_md(&odd.join("deep"), "deep");
        write_md(&tmp.path().join("elsewhere/linked"), "linked");
        std::os::unix::fs::symlink(tmp.path().join("elsewhere"), store.join("via")).unwrap();
        let settings = serde_json::json!({"skills": {"extra_dirs": [store]}});
        fs::write(root.join("settings.json"), settings.to_string()).unwrap();
        let home = Home::at(root, user);
        let listing = crate::core::cao::store::list(&home, false);
        let nested: Vec<String> = kiro_reaches(&home, &listing)
            .into_iter()
            .filter(|r| r.nested)
            .map(|r| r.skill)
            .collect();
        assert_eq!(nested, ["group/inner", "odd\u{fffd}/deep", "via/linked"]);
    }
}
