//! The agents table: `agents.toml` compiled in, then every
//! `<config>/skilltui/agents/*.toml` adding an agent or replacing one by id.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::core::fsops;

const BUILT_IN: &str = include_str!("agents.toml");

/// Where a location sits: the agent's own kinds of place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    #[default]
    User,
    Admin,
    Plugin,
    Builtin,
}

impl Scope {
    /// The scope [`Scope::label`] names.
    pub fn from_label(label: &str) -> Option<Scope> {
        [
            Scope::Project,
            Scope::User,
            Scope::Admin,
            Scope::Plugin,
            Scope::Builtin,
        ]
        .into_iter()
        .find(|s| s.label() == label)
    }

    pub fn label(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Admin => "admin",
            Scope::Plugin => "plugin",
            Scope::Builtin => "builtin",
        }
    }
}

/// Which directories a `{project}` location stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Walk {
    /// The working directory only.
    #[default]
    Cwd,
    /// The working directory, then each parent up to the git root (the
    /// first with `.git`, a folder or a worktree's file); cwd only outside
    /// a repository.
    CwdToGitRoot,
    /// The same directories, root first.
    GitRootToCwd,
    /// As `CwdToGitRoot`, but every parent up to `/` outside a repository
    /// (Copilot CLI 1.0.102, observed).
    CwdToGitRootOrTop,
    /// The git root, else the working directory.
    GitRoot,
}

/// How the agent resolves two skills of one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Clash {
    FirstWins,
    LastWins,
    Layered,
    /// Every copy loads (Codex: dedup by path only).
    KeepAll,
    /// Not documented: every copy is shown `ok`.
    Unknown,
    /// CAO's own rule (first valid wins, by folder name).
    Cao,
}

impl Clash {
    /// Whether a second copy of a name is shadowed by the first listed.
    pub fn shadows(self) -> bool {
        matches!(
            self,
            Clash::FirstWins | Clash::LastWins | Clash::Layered | Clash::Cao
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClashKey {
    Name,
    Dir,
}

/// Which documented reader decides whether a SKILL.md loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Parser {
    Cao,
    Claude,
    Codex,
    Opencode,
    Gemini,
    Agentskills,
    Amp,
    Omniforge,
    Cleo,
    /// Roo Code: the spec's name rules, the name equal to its folder's.
    Roo,
    /// Zed: Roo's rules, and `disable-model-invocation` hides.
    Zed,
    Cline,
    Goose,
    Qwen,
    Kilo,
    /// `name` optional (the folder's), `description` required.
    Described,
    /// GitHub Copilot CLI's own reading (`core::agents::copilot`).
    Copilot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symlinks {
    Yes,
    No,
    Unknown,
    Assumed,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub path: String,
    pub scope: Scope,
    #[serde(default)]
    pub walk: Walk,
    /// A variable whose value (plus `env_suffix`) replaces `path` when set.
    #[serde(default)]
    pub env: Option<String>,
    #[serde(default)]
    pub env_suffix: Option<String>,
    /// How deep below the location a SKILL.md is looked for (1: each
    /// immediate subfolder).
    #[serde(default = "one")]
    pub depth: usize,
    /// `*` expansions newest first (OmniForge's skills design: the
    /// last-installed plugin wins).
    #[serde(default)]
    pub newest_first: bool,
    /// Whether the scan enters folders whose name starts with `.`; unset:
    /// one level does, a deep scan does not (Codex's rule).
    #[serde(default)]
    pub dots: Option<bool>,
    /// The location itself may be a skill (a `SKILL.md` in it: Gemini's
    /// `SKILL.md` glob pattern).
    #[serde(default)]
    pub root_skill: bool,
    /// Every SKILL.md below the location at any depth, in byte order of
    /// its path, a skill folder's own subfolders not searched (Copilot's
    /// walk: `core::agents::tree`).
    #[serde(default)]
    pub tree: bool,
    /// Not read when this variable moves the agent's own dir elsewhere
    /// than `unless_env_default` (Copilot reads ~/.agents/skills only
    /// while COPILOT_HOME is unset or ~/.copilot).
    #[serde(default)]
    pub unless_env: Option<String>,
    #[serde(default)]
    pub unless_env_default: Option<String>,
    pub source: String,
}

fn one() -> usize {
    1
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    #[serde(default)]
    pub chars: Option<usize>,
    #[serde(default)]
    pub tokens: Option<usize>,
    #[serde(default)]
    pub per_entry: Option<usize>,
    /// What the agent does over budget: none | shorten |
    /// drop_descriptions_then_omit.
    #[serde(default)]
    pub overflow: Option<String>,
    pub source: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Agent {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub detect_dirs: Vec<String>,
    #[serde(default)]
    pub detect_binaries: Vec<String>,
    pub parser: Parser,
    pub clash: Clash,
    pub clash_key: ClashKey,
    pub symlinks: Symlinks,
    /// Whether a skill is given by a link (else a copy).
    #[serde(default)]
    pub link_ok: bool,
    #[serde(default)]
    pub catalog: Option<String>,
    #[serde(default)]
    pub show: Option<String>,
    pub source: String,
    /// The agent and version an oracle test runs (tests/agent_oracles.rs):
    /// set only where a test compares skilltui with the real agent.
    #[serde(default)]
    pub verified: Option<String>,
    /// Where no oracle test runs the agent: what is known of an offline
    /// way to ask it what it loads (a command found, or none).
    #[serde(default)]
    pub oracle_note: Option<String>,
    /// The agent loads its dirs concurrently: which of two clashing copies
    /// wins varies between runs (OpenCode).
    #[serde(default)]
    pub concurrent: bool,

    #[serde(default)]
    pub builtin_skills: Vec<String>,
    /// What the docs say each bundled skill is for.
    #[serde(default)]
    pub builtin_about: std::collections::BTreeMap<String, String>,
    /// The `skills.path` setting of Amp's skills design (custom paths).
    #[serde(default)]
    pub skills_path: Vec<String>,
    #[serde(default)]
    pub budget: Option<Budget>,
    /// The most folders the agent itself looks at under one location
    /// (Codex: 2,000), when it documents a bound; the rest are never read.
    #[serde(default)]
    pub max_dirs: Option<usize>,
    #[serde(default, rename = "location")]
    pub locations: Vec<Location>,
}

/// How sure the table is of an agent: checked against the agent itself,
/// or taken from its documentation and source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certainty<'a> {
    /// The agent and version an oracle test runs.
    Verified(&'a str),
    /// The sources its facts come from.
    Documented(&'a str),
}

impl Agent {
    pub fn certainty(&self) -> Certainty<'_> {
        match &self.verified {
            Some(v) => Certainty::Verified(v),
            None => Certainty::Documented(&self.source),
        }
    }
}

impl Certainty<'_> {
    /// `verified: codex 0.169.0` or `documented: <sources>`.
    pub fn line(&self) -> String {
        match self {
            Certainty::Verified(v) => format!("verified: {v}"),
            Certainty::Documented(s) => format!("documented: {s}"),
        }
    }

    /// One short line for a narrow pane, in a user's words: the sources
    /// stay in `agents`.
    pub fn short(&self) -> String {
        match self {
            Certainty::Verified(v) => format!("verified against {v}"),
            Certainty::Documented(_) => "documented: sources in `skilltui agents`".into(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    agent: Vec<Agent>,
}

/// The table, in the built-in order; user agents that add an id come last.
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub agents: Vec<Agent>,
    /// User files that could not be read, one line each.
    pub problems: Vec<String>,
}

impl Table {
    pub fn get(&self, id: &str) -> Option<&Agent> {
        self.agents.iter().find(|a| a.id == id)
    }

    /// The agent, or a one-line error naming the known ids.
    pub fn find(&self, id: &str) -> Result<&Agent, String> {
        self.get(id).ok_or_else(|| {
            let ids: Vec<&str> = self.agents.iter().map(|a| a.id.as_str()).collect();
            // The user's files that were refused are why their agent is
            // missing: said here, since an error ends the command.
            let refused = match self.problems.as_slice() {
                [] => String::new(),
                p => format!(" (refused: {})", p.join("; ")),
            };
            let hint = crate::core::suggest::did_you_mean(id, ids.iter().copied());
            format!(
                "no agent '{id}'{hint} (known: {}); add one in the config dir's skilltui/agents/{refused}",
                ids.join(", ")
            )
        })
    }
}

impl Table {
    /// The agents `ids` name, each item a single id or a comma list
    /// (`claude-code,codex`), in the order named and each once; the first
    /// unknown id is an error naming the known ones.
    pub fn find_many(&self, ids: &[String]) -> Result<Vec<&Agent>, String> {
        let mut out: Vec<&Agent> = Vec::new();
        for id in ids.iter().flat_map(|i| i.split(',')).map(str::trim) {
            if id.is_empty() {
                return Err(format!(
                    "an empty agent id in '{}': separate ids with single commas",
                    ids.join(",")
                ));
            }
            let agent = self.find(id)?;
            if !out.iter().any(|a| a.id == agent.id) {
                out.push(agent);
            }
        }
        Ok(out)
    }
}

/// The compiled-in table alone.
pub fn built_in() -> Vec<Agent> {
    // A test parses it; a broken built-in table is a build mistake.
    toml::from_str::<File>(BUILT_IN)
        .expect("the built-in agents.toml parses")
        .agent
}

/// The built-in table, with each `*.toml` of `dir` (sorted by file name)
/// replacing an agent of the same id or adding one.
pub fn load(dir: Option<&Path>) -> Table {
    let mut agents = built_in();
    let mut problems = Vec::new();
    for path in dir.map(toml_files).unwrap_or_default() {
        match read_user_file(&path) {
            Ok(found) => {
                for agent in found {
                    match agents.iter_mut().find(|a| a.id == agent.id) {
                        Some(slot) => *slot = agent,
                        None => agents.push(agent),
                    }
                }
            }
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    Table { agents, problems }
}

/// A user's agents file is a few KiB; a bigger one is refused unread so a
/// huge or sparse file costs neither memory nor time.
const MAX_USER_FILE: u64 = 1 << 20;

/// A problem line quotes at most this much of a parse error (which quotes
/// the offending line, as long as the file allows).
const MAX_PROBLEM: usize = 300;

fn read_user_file(path: &Path) -> Result<Vec<Agent>, String> {
    let bytes = fsops::read_capped(path, MAX_USER_FILE).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())?;
    let file: File = toml::from_str(&text).map_err(|e| one_line(&e.to_string()))?;
    for agent in &file.agent {
        check_agent(agent)?;
    }
    Ok(file.agent)
}

fn one_line(s: &str) -> String {
    let line = crate::core::text::collapse_whitespace(s);
    match line.char_indices().nth(MAX_PROBLEM) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// What a user's agent must be so that giving it a skill writes only in
/// its own dirs, and its id prints as itself: an id of letters, digits,
/// `-`, `_` and `.`; no location with a `..` component or that is `/`.
fn check_agent(agent: &Agent) -> Result<(), String> {
    let id_ok = !agent.id.is_empty()
        && agent.id.len() <= 64
        && agent
            .id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !id_ok {
        return Err(format!(
            "agent id '{}' is not 1-64 letters, digits, '-', '_' or '.': rename it",
            agent.id.escape_default()
        ));
    }
    for loc in &agent.locations {
        let climbs = loc.path.split('/').any(|part| part == "..")
            || loc
                .env_suffix
                .as_deref()
                .is_some_and(|s| s.split('/').any(|part| part == ".."));
        if climbs || loc.path.trim_end_matches('/').is_empty() {
            return Err(format!(
                "agent '{}': location '{}' climbs out with '..' or is '/': name the skill dir itself",
                agent.id,
                loc.path.escape_default()
            ));
        }
    }
    Ok(())
}

fn toml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    out.sort();
    out
}

/// `$XDG_CONFIG_HOME/skilltui/agents` (absolute values only), else
/// `~/.config/skilltui/agents`.
/// The table as this process sees it: the built-in agents and the user's
/// own definitions under `$XDG_CONFIG_HOME` (else `~/.config`).
pub fn load_for(user_home: &Path) -> Table {
    let xdg = std::env::var("XDG_CONFIG_HOME").ok();
    load(Some(&user_dir(xdg.as_deref(), user_home)))
}

pub fn user_dir(xdg_config: Option<&str>, user_home: &Path) -> PathBuf {
    config_home(xdg_config, user_home)
        .join("skilltui")
        .join("agents")
}

/// `$XDG_CONFIG_HOME` when absolute (the XDG spec ignores a relative
/// one), else `~/.config`.
pub fn config_home(xdg_config: Option<&str>, user_home: &Path) -> PathBuf {
    match xdg_config.map(Path::new) {
        Some(p) if p.is_absolute() => p.to_path_buf(),
        _ => user_home.join(".config"),
    }
}

/// The variables the table reads, looked up once.
pub fn env_snapshot(agents: &[Agent]) -> HashMap<String, String> {
    let mut names: Vec<String> = agents
        .iter()
        .flat_map(|a| {
            a.locations
                .iter()
                .filter_map(|l| l.env.clone())
                .chain(a.detect_dirs.iter().filter_map(|d| var_name(d)))
        })
        .collect();
    names.extend(["XDG_CONFIG_HOME".to_string(), "PATH".to_string()]);
    names
        .into_iter()
        .filter_map(|n| std::env::var(&n).ok().map(|v| (n, v)))
        .collect()
}

/// `FOO` for a template `$FOO` or `$FOO/rest`.
pub fn var_name(template: &str) -> Option<String> {
    let rest = template.strip_prefix('$')?;
    Some(rest.split('/').next().unwrap_or(rest).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_has_every_supported_agent() {
        let ids: Vec<String> = built_in().into_iter().map(|a| a.id).collect();
        assert!(ids.len() >= 21, "{} agents", ids.len());
        for id in [
            "cao",
            "claude-code",
            "codex",
            "opencode",
            "gemini-cli",
            "github-copilot",
            "cursor",
            "kiro-cli",
            "amp",
            "omniforge",
            "cleo",
            "windsurf",
            "cline",
            "roo",
            "goose",
            "kilo",
            "antigravity",
            "openclaw",
            "droid",
            "qwen-code",
            "zed",
        ] {
            assert!(ids.iter().any(|i| i == id), "{id} missing");
        }
        for agent in built_in() {
            assert!(!agent.source.is_empty(), "{} cites nothing", agent.id);
            for loc in &agent.locations {
                assert!(
                    !loc.source.is_empty(),
                    "{} {} cites nothing",
                    agent.id,
                    loc.path
                );
            }
        }
    }

    // `agent enable` takes several ids as a comma list.
    #[test]
    fn several_ids_as_a_comma_list_or_repeated() {
        let table = load(None);
        let ids = |v: &[&str]| -> Result<Vec<String>, String> {
            let v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
            table
                .find_many(&v)
                .map(|a| a.iter().map(|a| a.id.clone()).collect())
        };
        assert_eq!(
            ids(&["claude-code,codex", "amp", "codex"]).unwrap(),
            ["claude-code", "codex", "amp"]
        );
        assert!(
            ids(&["codex,nope"])
                .unwrap_err()
                .starts_with("no agent 'nope'")
        );
        assert!(ids(&["codex,,amp"]).unwrap_err().contains("empty agent id"));
    }

    #[test]
    fn a_user_file_replaces_an_agent_by_id_and_adds_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("mine.toml"),
            r#"
[[agent]]
id = "amp"
name = "My Amp"
parser = "amp"
clash = "first_wins"
clash_key = "name"
symlinks = "yes"
source = "mine"
[[agent]]
id = "newbie"
name = "New"
parser = "agentskills"
clash = "first_wins"
clash_key = "name"
symlinks = "no"
source = "mine"
[[agent.location]]
path = "~/.newbie/skills"
scope = "user"
source = "mine"
"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("broken.toml"), "[[agent]]\nid = 3\n").unwrap();
        let table = load(Some(dir.path()));
        assert_eq!(table.get("amp").unwrap().name, "My Amp");
        assert!(table.get("amp").unwrap().locations.is_empty());
        assert_eq!(table.agents.last().unwrap().id, "newbie");
        assert_eq!(table.problems.len(), 1);
        assert!(table.problems[0].contains("broken.toml"));
    }
}
