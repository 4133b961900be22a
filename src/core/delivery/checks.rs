//! What `doctor` says about the files `cao install` left behind: baked
//! Copilot files gone stale, Kiro agent JSON whose skill resources differ
//! from what CAO writes now, and OpenCode's skills link.

use std::path::Path;

use crate::core::cao::store::{Home, Listing};
use crate::core::delivery::agent;
use crate::core::delivery::{copilot, model};

/// One line per problem, each saying what to do.
pub fn problems(home: &Home, listing: &Listing) -> Vec<String> {
    let mut out = copilot_problems(home, listing);
    out.extend(kiro_problems(home));
    out.extend(opencode_problem(home));
    out
}

fn copilot_problems(home: &Home, listing: &Listing) -> Vec<String> {
    let (files, stopped) = copilot::scan(home, listing);
    let mut out: Vec<String> = files
        .iter()
        .filter(|b| b.stale() == Some(true))
        .map(|b| {
            format!(
                "Copilot agent {} is stale: its baked skills differ from what CAO writes now: `skilltui refresh` rewrites it",
                b.path.display()
            )
        })
        .collect();
    out.extend(stopped.map(|why| format!("Copilot agents cannot be refreshed: {why}")));
    out
}

/// Kiro agent files CAO installed (a context copy exists) whose profile
/// still loads, compared on `resources` and `prompt` only: the rest
/// depends on roles and MCP servers, not on skills.
fn kiro_problems(home: &Home) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(model::kiro_agents_dir(home)) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|path| kiro_problem(home, path))
        .collect()
}

fn kiro_problem(home: &Home, path: &Path) -> Option<String> {
    let json = model::read_agent_json(path)?;
    let name = json.get("name")?.as_str()?;
    if !copilot::is_managed(home, name) {
        return None;
    }
    let a = agent::load(home, name).ok()?;
    let resources = model::kiro_resources(home, &a);
    let i = model::kiro_installed(home, &a, &resources, model::kiro_prompt(&a).as_deref());
    (i.path == path && i.stale == Some(true)).then(|| {
        format!(
            "Kiro agent {} has resources or a prompt that differ from what CAO writes now: run `cao install {name} --provider kiro_cli`",
            path.display()
        )
    })
}

/// Only when OpenCode is in use: an installed OpenCode agent, or a
/// profile that names the provider.
fn opencode_problem(home: &Home) -> Option<String> {
    let link = model::opencode_link(home);
    let agents = link.with_file_name("agents");
    let in_use = std::fs::read_dir(&agents).is_ok_and(|mut d| d.next().is_some())
        || crate::core::cao::profile::list(home).iter().any(|l| {
            agent::load(home, &l.name).is_ok_and(|a| a.provider.as_deref() == Some("opencode_cli"))
        });
    if !in_use {
        return None;
    }
    match model::link_state(home, &link) {
        model::LinkState::Store => None,
        state => Some(format!(
            "OpenCode's skills link {} {}",
            link.display(),
            state.label()
        )),
    }
}
