//! `skilltui doctor`: why CAO sees what it sees. Gathers the facts; the CLI
//! prints them.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::core::cao::profile;
use crate::core::cao::store::{self, Home, Status};
use crate::core::text::{lossy_opt_path, lossy_path};

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    #[serde(serialize_with = "lossy_path")]
    pub home: PathBuf,
    /// `--home`, `CAO_HOME_DIR` or `default`.
    pub home_from: &'static str,
    #[serde(serialize_with = "lossy_path")]
    pub store: PathBuf,
    pub extra_dirs: Vec<Dir>,
    pub profile_dirs: Vec<Dir>,
    pub cao: Cao,
    /// `git` on PATH, if any.
    #[serde(serialize_with = "lossy_opt_path")]
    pub git: Option<PathBuf>,
    pub clipboard: String,
    pub colours: &'static str,
    /// Each known agent, and how sure the table is of it.
    pub agents: Vec<AgentCheck>,
    /// The skills of the store and the extra dirs, by worst audit
    /// severity.
    pub audit: crate::core::audit::Counts,
    pub warnings: Vec<String>,
}

/// One agent of the table: installed here or not, and `verified` (an
/// oracle test runs it) or `documented` (its sources).
#[derive(Clone, Debug, Serialize)]
pub struct AgentCheck {
    pub id: String,
    pub detected: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documented: Option<String>,
}

fn agent_checks(home: &Home) -> Vec<AgentCheck> {
    use crate::core::agents::{scan, table::Certainty};
    let (table, ctx) = scan::open(home);
    table
        .agents
        .iter()
        .map(|a| {
            let (verified, documented) = match a.certainty() {
                Certainty::Verified(v) => (Some(v.to_string()), None),
                Certainty::Documented(d) => (None, Some(d.to_string())),
            };
            AgentCheck {
                id: a.id.clone(),
                detected: scan::detected(a, &ctx),
                verified,
                documented,
            }
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct Dir {
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    pub exists: bool,
    /// For a profile dir: CAO's source label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Cao {
    pub found: bool,
    #[serde(serialize_with = "lossy_opt_path")]
    pub package: Option<PathBuf>,
    pub version: Option<String>,
    /// How it was found, or why it was not.
    pub how: String,
}

/// Gathers the report; `home_flag` is `--home`, `clipboard` the route a
/// copy would take (the TUI knows it).
/// Every skill folder in the store and the extra dirs (what `audit` with
/// no argument audits), counted by worst severity.
fn audit_counts(home: &Home) -> crate::core::audit::Counts {
    let listing = crate::core::cao::store::list(home, false);
    crate::core::audit::Counts::of(listing.entries.iter().map(|e| e.checked.path.as_path()))
}

pub fn report(home: &Home, home_flag: Option<&Path>, clipboard: String) -> Report {
    let dir = |path: PathBuf, label: Option<String>| Dir {
        exists: path.is_dir(),
        path,
        label,
    };
    Report {
        home: home.root.clone(),
        home_from: home_source(home_flag),
        store: home.skills_dir(),
        extra_dirs: home
            .extra_skill_dirs()
            .into_iter()
            .map(|d| dir(PathBuf::from(d), None))
            .collect(),
        profile_dirs: profile::search_dirs(home)
            .into_iter()
            .map(|(p, l)| dir(p, Some(l)))
            .collect(),
        cao: match home.cao() {
            Ok(c) => Cao {
                found: true,
                package: Some(c.package.clone()),
                version: c.version.clone(),
                how: c.how.to_string(),
            },
            Err(why) => Cao {
                found: false,
                package: None,
                version: None,
                how: why.to_string(),
            },
        },
        git: which("git"),
        clipboard,
        colours: colours(|k| std::env::var(k).ok()),
        agents: agent_checks(home),
        audit: audit_counts(home),
        warnings: warnings(home),
    }
}

/// How the home was chosen: `--home`, `CAO_HOME_DIR` or the default.
pub fn home_source(flag: Option<&Path>) -> &'static str {
    // As `Home::locate` reads it: stripped, empty means unset.
    let env = std::env::var("CAO_HOME_DIR").unwrap_or_default();
    match (flag, crate::core::text::py_strip(&env).is_empty()) {
        (Some(_), _) => "--home",
        (None, false) => "CAO_HOME_DIR",
        (None, true) => "default",
    }
}

/// The shortest home name taken for a typo of another, and how alike the
/// two must be (1 - edits / length): `cli-agent-orchestrater` is 0.95 of
/// `cli-agent-orchestrator`.
const TYPO_MIN_LEN: usize = 10;
const TYPO_SIMILARITY: f64 = 0.85;

/// When `home` does not exist, a CAO home beside it whose name is close
/// (`cli-agent-orchestrater` beside `cli-agent-orchestrator`): the home
/// the user meant. A typo must be named, never created or seeded. The CLI
/// asks it before any command runs; the TUI's seeding (`S`) asks it too.
pub fn mistyped_home(home: &Path) -> Option<PathBuf> {
    if std::fs::symlink_metadata(home).is_ok() {
        return None;
    }
    let typed = home.file_name()?.to_str()?;
    let parent = home.parent()?;
    let homes: Vec<String> = std::fs::read_dir(parent)
        .ok()?
        .flatten()
        .take(10_000)
        .filter(|e| {
            ["skills", "agent-store", "skilltui.lock"]
                .iter()
                .any(|f| e.path().join(f).exists())
        })
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    // A typo is two keys swapped or one mistaken (`hmoe`, `hone` beside
    // `home`), or a long name a key or two away; `home2` beside `home`, or
    // `our-home` beside `cao-home`, is a second home made on purpose.
    let typo = |h: &str| {
        let (a, b) = (typed.chars().count(), h.chars().count());
        let slip = a == b && a >= 4 && strsim::osa_distance(typed, h) == 1;
        let long = a.min(b) >= TYPO_MIN_LEN
            && strsim::normalized_damerau_levenshtein(typed, h) >= TYPO_SIMILARITY;
        slip || long
    };
    let near = homes.iter().find(|h| typo(h))?;
    Some(parent.join(near))
}

/// The first `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    crate::core::cao::installed::which_in(name, &std::env::var_os("PATH")?)
}

/// The colours a terminal offers, from the variables that say so.
pub fn colours(var: impl Fn(&str) -> Option<String>) -> &'static str {
    let term = var("TERM").unwrap_or_default();
    let colorterm = var("COLORTERM").unwrap_or_default();
    if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        "none (NO_COLOR is set)"
    } else if term == "dumb" {
        "none (TERM=dumb)"
    } else if colorterm == "truecolor" || colorterm == "24bit" {
        "24-bit"
    } else if term.contains("256color") {
        "256"
    } else {
        "16"
    }
}

/// Shadowed skills, skills CAO skips, profiles CAO cannot load.
fn warnings(home: &Home) -> Vec<String> {
    let listing = store::list(home, false);
    let mut out = Vec::new();
    for e in &listing.entries {
        match e.status {
            Status::Shadowed => out.push(format!(
                "skill '{}' in {} is shadowed by an earlier one of the same name",
                e.name(),
                e.source_dir.display()
            )),
            Status::Invalid => out.push(format!(
                "CAO skips {}: {}",
                e.checked.path.display(),
                e.checked.errors.join("; ")
            )),
            Status::Ok => {}
        }
    }
    let env = profile::read_env(home);
    for l in profile::list(home) {
        if let Err(e) = profile::load_parsed(home, &l.name, &env) {
            out.push(format!("CAO cannot load profile '{}': {e}", l.name));
        }
    }
    out.extend(crate::core::delivery::checks::problems(home, &listing));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // A typo of a long home name is named; a short second home beside the
    // first (`home2`, `our-home` beside `cao-home`) is the user's intent.
    #[test]
    fn only_a_long_home_name_a_key_away_is_a_typo() {
        let tmp = tempfile::tempdir().unwrap();
        for real in ["cli-agent-orchestrator", "home", "cao-home"] {
            std::fs::create_dir_all(tmp.path().join(real).join("skills")).unwrap();
        }
        let asked = |typed: &str| mistyped_home(&tmp.path().join(typed));
        assert_eq!(
            asked("cli-agent-orchestrater"),
            Some(tmp.path().join("cli-agent-orchestrator"))
        );
        assert_eq!(asked("hmoe"), Some(tmp.path().join("home")));
        assert_eq!(asked("home2"), None);
        assert_eq!(asked("our-home"), None);
        assert_eq!(asked("something-else-entirely"), None);
    }

    #[test]
    fn colours_follow_the_environment() {
        let env = |pairs: &'static [(&str, &str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(colours(env(&[("TERM", "xterm-256color")])), "256");
        assert_eq!(
            colours(env(&[("TERM", "xterm"), ("COLORTERM", "truecolor")])),
            "24-bit"
        );
        assert_eq!(
            colours(env(&[("TERM", "xterm"), ("NO_COLOR", "1")])),
            "none (NO_COLOR is set)"
        );
        assert_eq!(colours(env(&[("TERM", "dumb")])), "none (TERM=dumb)");
        assert_eq!(colours(env(&[("TERM", "vt100")])), "16");
    }
}
