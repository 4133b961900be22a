//! CAO's providers, how one is chosen for a profile, and the profile
//! fields delivery depends on (`provider`, `prompt`, `native_agent`,
//! `resources`, `name`, `description`), read from the load `cao::profile`
//! makes: the same `.env` substitution and validation CAO applies.

use std::rc::Rc;

use serde::Serialize;

use crate::core::cao::profile;
use crate::core::cao::store::Home;
use crate::core::parse::yaml::{Node, Value};

/// `constants.PROVIDERS` of CAO 2.5.4 (`models/provider.py:ProviderType`),
/// in its order: CAO's error messages list them so.
pub const PROVIDERS: [&str; 13] = [
    "kiro_cli",
    "claude_code",
    "codex",
    "kimi_cli",
    "copilot_cli",
    "opencode_cli",
    "hermes",
    "cursor_cli",
    "antigravity_cli",
    "omp",
    "grok_cli",
    "mcode",
    "mock_cli",
];

/// `constants.DEFAULT_PROVIDER`: what `cao launch`, `cao install` and the
/// API use for a profile with no or an invalid `provider:`.
pub const FALLBACK: &str = "kiro_cli";

/// `services/terminal_service.py:RUNTIME_SKILL_PROMPT_PROVIDERS`: the
/// providers whose prompt gets the catalog appended at launch.
pub const RUNTIME_PROMPT: [&str; 7] = [
    "claude_code",
    "codex",
    "kimi_cli",
    "antigravity_cli",
    "omp",
    "grok_cli",
    "mcode",
];

/// Where the provider came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `--provider`, as `cao launch --provider` overrides the profile.
    Explicit,
    /// The profile's own `provider:`, one of [`PROVIDERS`].
    Profile,
    /// [`FALLBACK`]: no `provider:`, an empty one or one CAO does not know.
    Fallback,
}

impl Source {
    pub fn label(self) -> &'static str {
        match self {
            Source::Explicit => "explicit",
            Source::Profile => "profile",
            Source::Fallback => "fallback",
        }
    }
}

/// An unknown provider name: one line naming CAO's providers.
pub fn check_provider(name: &str) -> Result<&'static str, String> {
    PROVIDERS
        .iter()
        .copied()
        .find(|p| *p == name)
        .ok_or_else(|| {
            format!(
                "unknown provider '{name}': CAO's providers are {}",
                PROVIDERS.join(", ")
            )
        })
}

/// The profile fields delivery reads, after `.env` substitution.
#[derive(Clone, Debug)]
pub struct Agent {
    /// The name it was looked up by (the file stem; `cao launch` uses it).
    pub lookup: String,
    /// `name:` (CAO fills in the lookup name when absent): installed
    /// files are named after it.
    pub name: String,
    pub description: String,
    pub provider: Option<String>,
    pub prompt: Option<String>,
    pub native_agent: Option<String>,
    pub resources: Vec<String>,
    /// The body, stripped (`system_prompt`).
    pub body: String,
    pub skills: Option<Vec<String>>,
    /// Why CAO reads no frontmatter although the file seems to have one.
    pub unread: Option<String>,
}

impl Agent {
    /// `resolve_provider`: the explicit one wins, then a valid `provider:`,
    /// else the fallback. Matching is exact (`Claude_Code` is invalid).
    pub fn provider(&self, explicit: Option<&str>) -> Result<(&'static str, Source), String> {
        if let Some(p) = explicit {
            return Ok((check_provider(p)?, Source::Explicit));
        }
        let own = self.provider.as_deref().filter(|p| !p.is_empty());
        match own.and_then(|p| PROVIDERS.iter().find(|k| **k == p)) {
            Some(p) => Ok((p, Source::Profile)),
            None => Ok((FALLBACK, Source::Fallback)),
        }
    }

    /// Why the provider is the fallback, when the profile named one.
    pub fn invalid_provider(&self) -> Option<&str> {
        self.provider
            .as_deref()
            .filter(|p| !p.is_empty() && !PROVIDERS.contains(p))
    }

    /// `native_agent` makes claude_code run `claude --agent NAME`, which
    /// drops the catalog; an empty one does not.
    pub fn native(&self) -> Option<&str> {
        self.native_agent.as_deref().filter(|n| !n.is_empty())
    }
}

/// Loads the profile as CAO's `load_agent_profile` does.
pub fn load(home: &Home, lookup: &str) -> Result<Agent, String> {
    let (p, parsed) = profile::load_parsed(home, lookup, &profile::read_env(home))?;
    Ok(from_parsed(&p, &parsed))
}

/// The fields of a profile already loaded (the TUI loads each once).
pub fn from_parsed(p: &profile::Profile, parsed: &profile::Parsed) -> Agent {
    let meta = parsed.frontmatter.metadata();
    let text = |key: &str| meta.and_then(|m| m.get(key)).and_then(string);
    let resources = meta
        .and_then(|m| m.get("resources"))
        .map(|n| match &n.value {
            Value::Seq(items) => items.iter().filter_map(string).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    Agent {
        lookup: p.name.clone(),
        name: text("name").unwrap_or_else(|| p.name.clone()),
        description: text("description").unwrap_or_default(),
        provider: text("provider"),
        prompt: text("prompt"),
        native_agent: text("native_agent"),
        resources,
        unread: p.unread_frontmatter(),
        body: p.body.clone(),
        skills: p.skills.clone(),
    }
}

/// A str field as pydantic takes it (bytes decoded); null and absent are
/// `None` (validation already refused any other type).
fn string(node: &Rc<Node>) -> Option<String> {
    match &node.value {
        Value::Str(s) => Some(s.clone()),
        Value::Bytes(b) => std::str::from_utf8(b).ok().map(str::to_string),
        _ => None,
    }
}
