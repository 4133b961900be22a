//! `profile list|enable|disable`: agent profiles and their skills.

use clap::Subcommand;
use serde_json::json;

use super::names;
use super::output::{Outcome, Output};
use crate::core::cao::editor;
use crate::core::cao::profile;
use crate::core::cao::store::{self, Home};
use crate::core::error::WriteError;
use crate::core::text::sanitize_line;

#[derive(Subcommand, Debug)]
pub enum ProfileCommand {
    /// Profiles with their file, source and declared skills
    List {
        /// Print JSON for scripts instead of text
        #[arg(long)]
        json: bool,
    },
    /// Add skills to the profile's `skills:` list, in place
    Enable {
        /// The agent profile (`skilltui profile list` names them)
        #[arg(add = names::profiles())]
        profile: String,
        /// Skill names, or patterns such as 'cao-*'
        #[arg(required = true, add = names::skills())]
        skills: Vec<String>,
    },
    /// Remove skills from the profile's `skills:` list, in place
    Disable {
        /// The agent profile (`skilltui profile list` names them)
        #[arg(add = names::profiles())]
        profile: String,
        /// Skill names, or patterns, as the list holds them
        #[arg(required = true, add = names::skills())]
        skills: Vec<String>,
    },
    /// Copy a profile built into CAO into the agent store, byte for byte,
    /// so it can be edited (CAO loads the copy from then on)
    Copy {
        /// The built-in profile (`profile list` shows them as built-in)
        #[arg(add = names::built_in_profiles())]
        name: String,
    },
}

impl ProfileCommand {
    /// Edits a profile (Copilot's baked catalogs may go stale).
    pub fn changes_store(&self) -> bool {
        matches!(
            self,
            ProfileCommand::Enable { .. } | ProfileCommand::Disable { .. }
        )
    }
}

pub fn run(home: &Home, cmd: &ProfileCommand, out: &mut Output) -> Outcome {
    match cmd {
        ProfileCommand::List { json } => profile_list(home, *json, out),
        ProfileCommand::Enable { profile, skills } => toggle(home, profile, skills, true, out),
        ProfileCommand::Disable { profile, skills } => toggle(home, profile, skills, false, out),
        ProfileCommand::Copy { name } => copy(home, name, out),
    }
}

/// `profile copy NAME`: the CLI's twin of the TUI's `c`.
fn copy(home: &Home, name: &str, out: &mut Output) -> Outcome {
    let dest = profile::copy_built_in(home, name)?;
    out.line(&format!(
        "copied the built-in profile '{name}' to {}: CAO loads this copy from now on",
        dest.display()
    ));
    Ok(())
}

fn profile_list(home: &Home, json: bool, out: &mut Output) -> Outcome {
    let env = profile::read_env(home);
    let rows: Vec<_> = profile::list(home)
        .into_iter()
        .map(|l| {
            let loaded = profile::load_parsed(home, &l.name, &env).map(|(p, _)| p);
            (l, loaded)
        })
        .collect();
    if json {
        let items: Vec<_> = rows
            .iter()
            .map(|(l, loaded)| {
                json!({
                    "name": l.name,
                    "path": l.location.path.clone()
                        .or_else(|| profile::built_in_path(home, &l.name))
                        .map(|p| p.to_string_lossy().into_owned()),
                    "source": l.location.source,
                    "skills": loaded.as_ref().ok().map(|p| p.skills.clone()),
                    "error": loaded.as_ref().err(),
                    "warning": loaded.as_ref().ok().and_then(|p| p.unread_frontmatter()),
                    "shadows": l.also_in.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&items).unwrap_or_default());
        return Ok(());
    }
    let width = rows
        .iter()
        .map(|(l, _)| l.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(7);
    out.line(&format!("{:width$}  {:11}  Skills", "Profile", "Source"));
    for (l, loaded) in &rows {
        let head = format!("{:width$}  {:11}  ", l.name, l.location.source);
        if let Ok(p) = loaded
            && p.unread_frontmatter().is_none()
            && let Some(names) = p.skills.as_ref().filter(|s| !s.is_empty())
        {
            let names: Vec<String> = names.iter().map(|n| sanitize_line(n).into()).collect();
            out.names_row(&head, &names);
            continue;
        }
        let skills = match loaded {
            Ok(p) if p.unread_frontmatter().is_some() => {
                "(every skill: starts with a byte-order mark, so CAO reads no frontmatter)".into()
            }
            Ok(p) => match &p.skills {
                None => "(every skill)".to_string(),
                Some(s) if s.is_empty() => "(none)".to_string(),
                Some(s) => s.join(", "),
            },
            Err(e) => format!("(fails to load: {e})"),
        };
        out.row(&head, &sanitize_line(&skills));
    }
    Ok(())
}

/// Tries of a profile edit whose file another writer changed between the
/// read and the write: each try loads it again and plans again, and one
/// writer wins each round, so this bounds the writers that can race.
const TOGGLE_TRIES: usize = 64;

/// Applies every change in memory, then writes once: one bad skill name
/// leaves the file untouched. Another writer's change is never
/// overwritten: the edit is planned again over it.
fn toggle(home: &Home, name: &str, skills: &[String], on: bool, out: &mut Output) -> Outcome {
    let mut tries = 1;
    let messages = loop {
        match toggle_once(home, name, skills, on)? {
            Ok(messages) => break messages,
            Err(WriteError::ChangedOnDisk(_)) if tries < TOGGLE_TRIES => tries += 1,
            Err(e) => return Err(e.into()),
        }
    };
    for m in messages {
        out.line(&m);
    }
    Ok(())
}

/// One read, plan and write of [`toggle`]: a planning error, or the write's
/// outcome with the messages to print.
fn toggle_once(
    home: &Home,
    name: &str,
    skills: &[String],
    on: bool,
) -> Result<Result<Vec<String>, WriteError>, String> {
    let original = profile::load(home, name)?;
    let listing = store::list(home, false);
    let mut current = original.clone();
    let mut messages = Vec::new();
    for skill in skills {
        let plan = if on {
            editor::enable(home, &listing, &current, skill)?
        } else {
            editor::disable(home, &listing, &current, skill)?
        };
        messages.push(plan.message.clone());
        if let Some(text) = plan.new_text {
            let parsed = profile::parse_text(home, &text)?;
            current.skills = parsed.skills;
            current.raw = Some(text);
        }
    }
    if current.raw != original.raw {
        let plan = editor::Plan {
            new_text: current.raw.clone(),
            message: String::new(),
        };
        if let Err(e) = editor::apply(&original, &plan) {
            return Ok(Err(e));
        }
    }
    Ok(Ok(messages))
}
