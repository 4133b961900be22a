//! The TUI's shared model: what was read from disk (`Data`, one
//! `ProfileRow` per profile), which pane has the focus, where typed keys
//! go, and the status line. The panes, the dialogs and `app` all read it;
//! it depends on none of them.

use crate::core::agents::discover::Finds;
use crate::core::agents::lints::Report;
use crate::core::agents::render::Catalog;
use crate::core::agents::scan::Ctx;
use crate::core::agents::table::{Agent, Scope};
use crate::core::cao::profile::{self, Listed, Profile};
use crate::core::cao::store::{self, Entry, Home, Listing};
use crate::core::delivery::agent::{self, Source};
use crate::core::delivery::model::{self, Kind};
use crate::core::sources::lock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Skills,
    Preview,
    Profiles,
    Catalog,
}

impl Pane {
    pub const ALL: [Pane; 4] = [Pane::Skills, Pane::Preview, Pane::Profiles, Pane::Catalog];

    pub fn step(self, by: isize) -> Pane {
        let i = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0) as isize;
        Pane::ALL[(i + by).rem_euclid(4) as usize]
    }

    pub fn number(self) -> usize {
        Pane::ALL.iter().position(|p| *p == self).unwrap_or(0) + 1
    }
}

/// A profile row: where it was found and what CAO makes of it.
#[derive(Clone, Debug)]
pub struct ProfileRow {
    pub listed: Listed,
    pub loaded: Result<Profile, String>,
    /// Its frontmatter as (key, value), for the detail under the list.
    pub fields: Vec<(String, String)>,
    /// What CAO makes of its `provider:` and how that provider hands over
    /// skills (when it loads).
    pub delivery: Option<(&'static str, Source, Kind)>,
    /// The fields delivery reads, from the same parse.
    pub agent: Option<agent::Agent>,
}

impl ProfileRow {
    /// One parse per profile: its fields come from the same one.
    pub fn load(home: &Home, listed: Listed, env: &profile::Env) -> ProfileRow {
        let (loaded, fields, agent) = match profile::load_parsed(home, &listed.name, env) {
            Ok((p, parsed)) => {
                let a = agent::from_parsed(&p, &parsed);
                (Ok(p), profile::fields_of(&parsed), Some(a))
            }
            Err(e) => (Err(e), Vec::new(), None),
        };
        let delivery = agent.as_ref().and_then(|a| {
            let (provider, source) = a.provider(None).ok()?;
            Some((provider, source, model::kind_of(provider, a)))
        });
        ProfileRow {
            listed,
            loaded,
            fields,
            delivery,
            agent,
        }
    }
}

/// A detected agent (pane 3, after the profiles): what it finds from the
/// working directory, its model-facing text, and what skilltui gave it
/// (skill, scope, path).
#[derive(Clone, Debug)]
pub struct AgentRow {
    pub agent: Agent,
    /// Found on this machine; else listed because skilltui gave it a
    /// skill or the user asked for it.
    pub detected: bool,
    pub finds: Finds,
    pub catalog: Catalog,
    pub given: Vec<(String, Scope, std::path::PathBuf)>,
    /// The extra fields (OmniForge's, Amp's, CLEO's) and lints of each
    /// loaded skill, by its path.
    pub reports: std::collections::HashMap<std::path::PathBuf, Report>,
    /// For each scope skilltui gives at, which other agents read that dir
    /// too (`core::agents::reach`), as one line.
    pub shared: Vec<(Scope, String)>,
}

/// What was read from disk, shared by every pane.
pub struct Data {
    pub home: Home,
    /// Shared with the workers that compute from it (pane 4's catalog).
    pub listing: std::sync::Arc<Listing>,
    /// The user's own (editable) profiles first, CAO's built-ins after.
    pub profiles: Vec<ProfileRow>,
    /// Indices of the valid entries: the skills a profile can tick.
    pub valid: Vec<usize>,
    /// The lock file's pins, by skill name (none when it cannot be read:
    /// the CLI's commands say why).
    pub pins: std::collections::BTreeMap<String, lock::Entry>,
    /// The detected agents, and the context they were looked at from.
    pub agents: Vec<AgentRow>,
    /// A discovery is under way: `agents` is the last one's, shown marked.
    pub agents_refreshing: bool,
    pub agent_ctx: Option<Ctx>,
    /// Where the agents are looked at from (default: the process's cwd).
    pub agent_cwd: Option<std::path::PathBuf>,
    /// Agents to list whether detected or not (`SKILLTUI_AGENTS`, ids
    /// separated by commas).
    pub asked_agents: Vec<String>,
}

impl Data {
    /// No CAO installed, none named, and no CAO home: someone who runs
    /// agents without CAO, whose screens speak of agents only.
    pub fn without_cao(&self) -> bool {
        let home = &self.home;
        std::fs::symlink_metadata(&home.root).is_err()
            && home.cao().is_err()
            && home.named_cao_error().is_none()
    }

    pub fn valid_entries(&self) -> impl Iterator<Item = &Entry> {
        self.valid.iter().map(|&i| &self.listing.entries[i])
    }

    /// The `n`th valid skill.
    pub fn valid_skill(&self, n: usize) -> Option<&Entry> {
        self.valid.get(n).map(|&i| &self.listing.entries[i])
    }

    /// Whether `e` is in the store (not an extra dir): what skilltui may
    /// remove or update.
    pub fn in_store(&self, e: &Entry) -> bool {
        e.source_dir == self.home.skills_dir()
    }

    /// The pin of a skill in the store, if it came from git.
    pub fn pin(&self, e: &Entry) -> Option<&lock::Entry> {
        self.in_store(e).then(|| self.pins.get(&e.folder)).flatten()
    }

    /// Where the valid skill in `folder` is among the valid ones.
    pub fn valid_position(&self, folder: &str) -> Option<usize> {
        self.valid_entries().position(|e| e.folder == folder)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Error,
}

/// A message in the status line; it stays until the next key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub level: Level,
}

impl Status {
    pub fn info(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            level: Level::Info,
        }
    }

    pub fn error(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            level: Level::Error,
        }
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

/// Where typed keys go when no dialog is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Normal,
    /// Typing in the Skills filter.
    Filter,
}

/// What a reload reads from disk: the settings, the store's listing, the
/// profiles and the lock's pins.
pub struct Loaded {
    pub settings: serde_json::Value,
    pub listing: Listing,
    pub profiles: Vec<ProfileRow>,
    pub pins: std::collections::BTreeMap<String, lock::Entry>,
}

impl Loaded {
    pub fn read(home: &Home) -> Loaded {
        // Without the lints, which walk every folder: the preview finds
        // them for the skill it shows.
        Loaded::read_with(home, |home| store::list(home, false))
    }

    /// [`Loaded::read`] with the store's listing from `listing` (the
    /// first frame's: see `core::cao::checking`).
    pub fn read_with(home: &Home, listing: impl FnOnce(&Home) -> Listing) -> Loaded {
        let mut home = home.clone();
        home.reload_settings();
        // The profiles first: at start the kept verdicts the listing
        // needs are being read on a thread meanwhile.
        let env = profile::read_env(&home);
        let mut profiles: Vec<ProfileRow> = profile::list(&home)
            .into_iter()
            .map(|listed| ProfileRow::load(&home, listed, &env))
            .collect();
        profiles.sort_by_key(|r| r.listed.location.path.is_none());
        let pins = read_pins(&home);
        let listing = listing(&home);
        Loaded {
            pins,
            settings: home.settings,
            listing,
            profiles,
        }
    }
}

/// The lock file's pins, by skill name (none when it cannot be read: the
/// CLI's commands say why).
pub(crate) fn read_pins(home: &Home) -> std::collections::BTreeMap<String, lock::Entry> {
    lock::Lock::read(&lock::default_path(home))
        .map(|l| l.skills)
        .unwrap_or_default()
}
