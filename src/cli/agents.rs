//! The agent commands (`agents`, `agent …`) and the agent side of others
//! (`list --agent`, `catalog --agent`, `show --agent`, `add --agent`,
//! `remove`, `sync`): each builds its output as a [`Printed`].

use std::collections::BTreeMap;
use std::path::Path;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;

use super::names;
use super::output::{Outcome, Output, Printed, printed};
use crate::core::agents::discover::{self, Finds};
use crate::core::agents::give::{self, Given, Kind, Taken};
use crate::core::agents::lints;
use crate::core::agents::reach;
use crate::core::agents::render;
use crate::core::agents::rules;
use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::{Agent, Certainty, Parser, Scope, Table};
use crate::core::agents::verify;
use crate::core::cao::skill;
use crate::core::cao::store::Home;
use crate::core::fsops;
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct AgentsArgs {
    /// One agent: where it looks for skills, and how sure skilltui is
    #[arg(value_name = "ID", add = names::agents(), conflicts_with = "verify")]
    id: Option<String>,
    /// Also list where each agent looks for skills
    #[arg(long)]
    paths: bool,
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
    /// Run each installed agent that can list its own skills (or only ID)
    /// and show where it differs from skilltui's model here
    #[arg(long, value_name = "ID", num_args = 0..=1, default_missing_value = "")]
    verify: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum AgentCommand {
    /// Link (or copy) store skills into the agents' skill dirs (AGENT: one
    /// id or a comma list, e.g. claude-code,codex)
    Enable {
        /// The agent's id (`skilltui agents` lists them)
        #[arg(add = names::agents())]
        agent: String,
        /// Skills of the store
        #[arg(required = true, add = names::skills())]
        skills: Vec<String>,
        /// Where the agent gets them: its user dir, or the project's
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        /// Copy instead of linking
        #[arg(long)]
        copy: bool,
    },
    /// Take back links or copies skilltui made (never anything else;
    /// AGENT: one id or a comma list, e.g. claude-code,codex)
    Disable {
        /// The agent's id (`skilltui agents` lists them)
        #[arg(add = names::agents())]
        agent: String,
        /// Skills skilltui gave the agent
        #[arg(required = true, add = names::skills())]
        skills: Vec<String>,
        /// Only this scope (default: every scope)
        #[arg(long, value_enum)]
        scope: Option<ScopeArg>,
    },
    /// Copy a skill folder the user made in the agent's dirs into the store
    Adopt {
        /// The agent's id (`skilltui agents` lists them)
        #[arg(add = names::agents())]
        agent: String,
        /// Folders of the agent's dirs, by skill name (`skilltui list
        /// --agent ID` lists them)
        #[arg(required = true)]
        skills: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
}

impl ScopeArg {
    pub fn scope(self) -> Scope {
        match self {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

/// `skilltui agents [--json]`.
pub fn run_agents(home: &Home, args: &AgentsArgs, out: &mut Output) -> Outcome {
    with_table(home, out, |table, ctx| match &args.verify {
        Some(id) => verify(table, ctx, id),
        None => {
            let picked = match &args.id {
                Some(id) => vec![table.find(id)?],
                None => table.agents.iter().collect(),
            };
            let paths = args.paths || args.id.is_some();
            Ok(agents(&picked, ctx, args.json, paths))
        }
    })
}

/// `skilltui agents --verify [ID]`: per agent, its version and one line
/// per difference from skilltui's model (or `agrees`); an agent that is
/// not installed is a note, unless it was asked for by id.
fn verify(table: &Table, ctx: &Ctx, id: &str) -> Result<Printed, String> {
    let agents: Vec<&crate::core::agents::table::Agent> = if id.is_empty() {
        verify::probed(&table.agents).collect()
    } else {
        vec![table.find(id)?]
    };
    let mut p = Printed::default();
    for agent in agents {
        match verify::verify(agent, ctx, verify::TIMEOUT) {
            Ok(v) if v.differences.is_empty() => p.line(&sanitize_line(&format!(
                "{} ({}): agrees with skilltui",
                agent.id, v.version
            ))),
            Ok(v) => {
                let n = v.differences.len();
                p.line(&sanitize_line(&format!(
                    "{} ({}): {n} difference{}",
                    agent.id,
                    v.version,
                    if n == 1 { "" } else { "s" }
                )));
                for d in &v.differences {
                    p.line(&sanitize_line(&format!("  {d}")));
                }
            }
            Err(e) if id.is_empty() => p.notes.push(format!("{}: {e}", agent.id)),
            Err(e) => return Err(e),
        }
    }
    Ok(p)
}

/// `skilltui agent enable|disable|adopt`.
pub fn run(home: &Home, cmd: &AgentCommand, out: &mut Output) -> Outcome {
    with_table(home, out, |table, ctx| match cmd {
        AgentCommand::Enable {
            agent,
            skills,
            scope,
            copy,
        } => enable(
            home,
            table,
            ctx,
            std::slice::from_ref(agent),
            skills,
            scope.scope(),
            *copy,
        ),
        AgentCommand::Disable {
            agent,
            skills,
            scope,
        } => disable(
            home,
            table,
            ctx,
            std::slice::from_ref(agent),
            skills,
            scope.map(ScopeArg::scope),
        ),
        AgentCommand::Adopt { agent, skills } => adopt(home, table, ctx, agent, skills),
    })
}

/// Opens the table, builds a command's output over it, and prints the
/// table's problems with it (nothing when the command fails).
pub fn with_table(
    home: &Home,
    out: &mut Output,
    build: impl FnOnce(&Table, &Ctx) -> Result<Printed, String>,
) -> Outcome {
    let (table, ctx, warnings) = open(home);
    printed(warnings, build(&table, &ctx)?, out)
}

/// The table and the process's context, with the table's problems as
/// warnings.
pub fn open(home: &Home) -> (Table, Ctx, Vec<String>) {
    let (table, ctx) = scan::open(home);
    let warnings = table.problems.clone();
    (table, ctx, warnings)
}

/// `skilltui agents [ID] [--paths] [--json]`: one line per agent (found
/// here or not, the skills its model is shown, verified or documented),
/// then with `--paths` or an ID where each looks.
pub fn agents(picked: &[&Agent], ctx: &Ctx, json: bool, paths: bool) -> Printed {
    let mut p = Printed::default();
    // Each agent's places once: they expand globs and stat every dir.
    let found: Vec<_> = picked
        .iter()
        .map(|a| (*a, scan::places(a, ctx), scan::detected(a, ctx)))
        .collect();
    let skills: Vec<usize> = scan::par_map(picked, &|a: &&Agent| {
        discover::find(a, ctx).winners().count()
    });
    if json {
        let rows: Vec<_> = found
            .iter()
            .enumerate()
            .map(|(i, (a, places, detected))| {
                let places: Vec<_> = places
                    .iter()
                    .map(|pl| json!({"path": pl.path.to_string_lossy(), "scope": pl.scope, "exists": pl.exists}))
                    .collect();
                let mut row = json!({
                    "id": a.id,
                    "name": a.name,
                    "detected": detected,
                    "skills": skills[i],
                    "clash": a.clash,
                    "symlinks": a.symlinks,
                    "source": a.source,
                    "locations": places,
                });
                match a.certainty() {
                    Certainty::Verified(v) => row["verified"] = json!(v),
                    Certainty::Documented(s) => row["documented"] = json!(s),
                }
                if let Some(n) = &a.oracle_note {
                    row["oracle_note"] = json!(n);
                }
                row
            })
            .collect();
        p.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return p;
    }
    summary(&found, &skills, &mut p);
    if !paths {
        p.notes.push(
            "where each agent looks: `skilltui agents --paths`, or `skilltui agents ID`".into(),
        );
        return p;
    }
    for (a, places, _) in &found {
        p.line("");
        p.line(&format!("{}  {}", a.id, sanitize_line(&a.name)));
        p.line(&sanitize_line(&format!("    {}", a.certainty().line())));
        for place in places {
            let exists = if place.exists { "" } else { "  (missing)" };
            p.line(&format!(
                "    {:8} {}{exists}",
                place.scope.label(),
                sanitize_line(&place.path.to_string_lossy())
            ));
        }
    }
    p
}

/// One line per agent: `◆` when found on this machine, its id and name,
/// the skills its model is shown from here, and whether skilltui's model
/// of it was checked against the installed agent.
fn summary(found: &[(&Agent, Vec<scan::Place>, bool)], skills: &[usize], p: &mut Printed) {
    let id_w = found
        .iter()
        .map(|(a, ..)| a.id.chars().count())
        .max()
        .unwrap_or(2)
        .max(5);
    let name_w = (found.iter())
        .map(|(a, ..)| sanitize_line(&a.name).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    p.line(&format!(
        "  {:id_w$}  {:name_w$}  {:12}  {:>6}  Model",
        "Agent", "Name", "Here", "Skills"
    ));
    for ((a, _, detected), n) in found.iter().zip(skills) {
        let mark = if *detected { "◆" } else { " " };
        let here = if *detected { "detected" } else { "not found" };
        let checked = match a.certainty() {
            Certainty::Verified(v) => format!("verified against {v}"),
            Certainty::Documented(_) => "from its documentation".to_string(),
        };
        p.line(&sanitize_line(&format!(
            "{mark} {:id_w$}  {:name_w$}  {here:12}  {n:>6}  {checked}",
            a.id, a.name
        )));
    }
}

/// `skilltui list --agent ID [--json]`: every candidate, in the agent's
/// order, with its status under the agent's own rules.
pub fn list(table: &Table, ctx: &Ctx, id: &str, json: bool) -> Result<Printed, String> {
    let agent = table.find(id)?;
    let finds = discover::find(agent, ctx);
    let mut p = Printed {
        warnings: finds.warnings.clone(),
        ..Printed::default()
    };
    if json {
        let rows: Vec<_> = finds
            .candidates
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "description": c.description,
                    "path": c.path.to_string_lossy(),
                    "location": finds.location(c).to_string_lossy(),
                    "scope": finds.scope(c),
                    "status": c.status,
                    "shadowed_by": c.shadowed_by.as_ref().map(|p| p.to_string_lossy()),
                    "error": c.error,
                    "hidden": c.hidden,
                    "may_win": discover::may_win(agent, c),
                })
            })
            .collect();
        p.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(p);
    }
    text_rows(&finds, &mut p);
    if finds.candidates.is_empty() {
        p.warnings
            .push(format!("{} finds no skills from here", agent.name));
    }
    Ok(p)
}

fn text_rows(finds: &Finds, p: &mut Printed) {
    let width = finds
        .candidates
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    p.line(&format!("{:width$}  {:8}  Location", "Name", "Status"));
    for c in &finds.candidates {
        let status = serde_json::to_value(c.status).unwrap_or_default();
        let why = match (&c.shadowed_by, &c.error) {
            (Some(w), _) => format!("  (by {})", w.display()),
            (None, Some(e)) => format!("  ({e})"),
            _ => String::new(),
        };
        p.line(&sanitize_line(&format!(
            "{:width$}  {:8}  {}{why}",
            c.name,
            status.as_str().unwrap_or(""),
            finds.location(c).display()
        )));
    }
}

/// `agent enable ID[,ID…] SKILL…` (and `add … --agent ID…`): each skill to
/// each agent, and for each dir given in, the other agents that read it
/// too (a skill given there reaches them as well).
pub fn enable(
    home: &Home,
    table: &Table,
    ctx: &Ctx,
    ids: &[String],
    skills: &[String],
    scope: Scope,
    copy: bool,
) -> Result<Printed, String> {
    let agents = table.find_many(ids)?;
    let mut p = Printed::default();
    let mut failed = Vec::new();
    for agent in agents {
        let mut not = Vec::new();
        for name in skills {
            let (line, dir) = match give::enable(home, agent, ctx, name, scope, copy) {
                Ok(Given::Made(t)) => {
                    let how = if t.kind == Kind::Link {
                        "linked"
                    } else {
                        "copied"
                    };
                    let mut line = format!("{name}: {how} for {} ({}", agent.id, t.path.display());
                    // A project link names the project's copy it leads to,
                    // whose dir other agents read too.
                    let dirs = match &t.shared {
                        Some(s) => {
                            let held = std::fs::read_link(&t.path).unwrap_or_default();
                            line.push_str(&format!(" -> {})", held.display()));
                            vec![t.path.parent(), s.path.parent()]
                        }
                        None => {
                            line.push(')');
                            vec![t.path.parent()]
                        }
                    };
                    (
                        line,
                        dirs.into_iter().flatten().map(Path::to_path_buf).collect(),
                    )
                }
                Ok(Given::Already(path)) => (
                    format!("{name}: {} already has it ({})", agent.id, path.display()),
                    Vec::new(),
                ),
                Err(e) => {
                    not.push((name.as_str(), e));
                    continue;
                }
            };
            p.line(&sanitize_line(&line));
            for dir in dir {
                let others = reach::readers(&table.agents, ctx, &dir, &agent.id);
                if let Some(also) = reach::also_read_by(&others, &dir, &ctx.user_home) {
                    p.line(&sanitize_line(&format!("  {also}")));
                }
            }
        }
        failed.extend(not_done("gave", skills.len(), &not, &agent.id));
    }
    if scope == Scope::Project {
        // A teammate's `sync` in the project installs and gives them too.
        match crate::core::sources::lock::record_in_project(home, skills, &ctx.cwd) {
            Ok(Some(path)) => p.notes.push(format!("recorded in {}", path.display())),
            Ok(None) => {}
            Err(e) => failed.push(e),
        }
    }
    p.failed = (!failed.is_empty()).then(|| failed.join("; "));
    Ok(p)
}

/// The one error line of a command over several names that did not do
/// them all: how many it did, then each name it did not with why (each
/// name is still tried: `enable a nosuch b` gives `b`).
fn not_done(verb: &str, asked: usize, not: &[(&str, String)], agent: &str) -> Option<String> {
    match not {
        [] => return None,
        // One name asked: its own error, as it was.
        [(_, why)] if asked == 1 => return Some(why.clone()),
        _ => {}
    }
    let each: Vec<String> = not.iter().map(|(n, why)| format!("{n} ({why})")).collect();
    let to = if verb == "gave" { "to" } else { "from" };
    Some(format!(
        "{verb} {} of {asked} skill(s) {to} {agent}; not: {}",
        asked - not.len(),
        each.join("; ")
    ))
}

/// Whether every agent `ids` names is known and has a skill dir at
/// `scope` (`add --agent` asks before it installs anything).
pub fn can_give(table: &Table, ctx: &Ctx, ids: &[String], scope: Scope) -> Result<(), String> {
    for agent in table.find_many(ids)? {
        give::target_dir(agent, ctx, scope)?;
    }
    Ok(())
}

/// `agent disable ID[,ID…] SKILL…`: each skill from each agent.
pub fn disable(
    home: &Home,
    table: &Table,
    ctx: &Ctx,
    ids: &[String],
    skills: &[String],
    scope: Option<Scope>,
) -> Result<Printed, String> {
    let agents = table.find_many(ids)?;
    let mut p = Printed::default();
    let mut failed = Vec::new();
    for agent in agents {
        let mut not = Vec::new();
        for name in skills {
            match give::disable(home, agent, ctx, name, scope) {
                Ok(done) => report_taken(&done, &mut p),
                Err(e) => not.push((name.as_str(), e)),
            }
        }
        failed.extend(not_done("took", skills.len(), &not, &agent.id));
    }
    p.failed = (!failed.is_empty()).then(|| failed.join("; "));
    Ok(p)
}

/// `remove NAME [--agent ID]`: takes back what skilltui gave agents of it
/// (only that agent's with `--agent`, which must be a known agent).
pub fn take_back_all(
    home: &Home,
    table: &Table,
    ctx: &Ctx,
    name: &str,
    agent: Option<&str>,
) -> Result<Printed, String> {
    if let Some(id) = agent {
        table.find(id)?;
    }
    let name = crate::core::cao::store::check_name(name)?;
    let done = give::disable_where(home, &table.agents, ctx, &|t| {
        t.skill == name && agent.is_none_or(|a| t.agent == a)
    })?;
    if let (Some(id), true) = (agent, done.is_empty()) {
        return Err(format!(
            "skilltui has not given '{name}' to {id}: nothing to take back (`skilltui list --agent {id}` lists what it finds)"
        ));
    }
    let mut p = Printed::default();
    report_taken(&done, &mut p);
    Ok(p)
}

/// `remove NAME`: the store, its lock entry, then what skilltui gave of it.
pub fn remove_everywhere(
    home: &Home,
    name: &str,
) -> Result<(crate::core::sources::remote::Removed, Printed), String> {
    let (table, ctx, warnings) = open(home);
    let (removed, taken) =
        crate::core::agents::removal::remove_everywhere(home, &table.agents, &ctx, name)?;
    let mut p = Printed {
        warnings,
        ..Printed::default()
    };
    report_taken(&taken, &mut p);
    Ok((removed, p))
}

fn report_taken(done: &[(give::Target, Taken)], p: &mut Printed) {
    for (t, taken) in done {
        match taken {
            Taken::Removed(path) => p.line(&sanitize_line(&format!(
                "{}: taken from {} ({})",
                t.skill,
                t.agent,
                path.display()
            ))),
            Taken::Gone(path) => p
                .warnings
                .push(format!("{} was already gone; forgotten", path.display())),
            Taken::LeftChanged(path) => p.warnings.push(format!(
                "{} changed since skilltui made it: left in place, no longer tracked",
                path.display()
            )),
            Taken::NotOurs(path) => p.warnings.push(format!(
                "{} is not where skilltui gives {} skills (the record was edited?): left in place, no longer tracked",
                path.display(),
                t.agent
            )),
            Taken::Shared(path) => p.line(&sanitize_line(&format!(
                "{}: taken from {}; the project's copy {} stays, another agent's link leads to it",
                t.skill,
                t.agent,
                path.display()
            ))),
        }
    }
}

/// `sync`: the links and copies the record lists that are missing.
pub fn restore(home: &Home, table: &Table, ctx: &Ctx) -> Result<Printed, String> {
    let mut p = Printed::default();
    let (restored, problems) = give::restore(home, &table.agents, ctx)?;
    for path in restored {
        p.line(&sanitize_line(&format!("restored {}", path.display())));
    }
    p.warnings.extend(problems);
    Ok(p)
}

/// `agent adopt ID SKILL…`: copies a folder the user made in one of the
/// agent's dirs (the copy the agent loads) into the store; the folder
/// stays.
pub fn adopt(
    home: &Home,
    table: &Table,
    ctx: &Ctx,
    id: &str,
    skills: &[String],
) -> Result<Printed, String> {
    let agent = table.find(id)?;
    let finds = discover::find(agent, ctx);
    let record = give::Record::read(home)?;
    let mut p = Printed::default();
    for name in skills {
        let found = finds
            .candidates
            .iter()
            .filter(|c| &c.name == name && !c.path.starts_with(scan::BUILT_IN))
            .find(|c| record.made(&c.path).is_none())
            .ok_or_else(|| format!("{} finds no folder of its own named '{name}'", agent.id))?;
        let added = give::adopt(home, &found.path)?;
        p.line(&sanitize_line(&format!(
            "{name}: copied into the store ({}); {} is left as it is",
            added.dest.display(),
            found.path.display()
        )));
    }
    Ok(p)
}

/// `catalog --agent ID`: the text on stdout; the meter, what the agent
/// would shorten or drop, and where the format comes from on stderr.
pub fn catalog(table: &Table, ctx: &Ctx, id: &str) -> Result<Printed, String> {
    let agent = table.find(id)?;
    let finds = discover::find(agent, ctx);
    let cat = render::catalog(agent, &finds);
    let mut p = Printed {
        warnings: finds.warnings.clone(),
        ..Printed::default()
    };
    if let Some(text) = &cat.text {
        p.line(text);
    }
    p.notes.push(format!("format: {}", cat.about));
    p.notes.push(format!("budget: {}", cat.meter()));
    p.notes
        .extend(cat.actions.iter().map(|a| format!("over budget: {a}")));
    if agent.parser == Parser::Cao {
        // CAO's catalog belongs to a profile, not to CAO as a whole.
        p.notes.push(
            "CAO's catalog is per agent profile: `skilltui catalog PROFILE` prints what that profile's agent receives (`skilltui profile list` names them)".into(),
        );
    }
    Ok(p)
}

/// `show NAME --agent ID`: what the agent's skill tool returns where that
/// is documented (Amp's skills design for `amp`, OmniForge's skills design
/// for `omniforge`, OpenCode's tool/skill.ts for `opencode`; the spawn
/// prompt of CLEO's two-tier design for `cleo`), else the body the agent
/// reads; its facts and lints on stderr.
pub fn show(
    table: &Table,
    ctx: &Ctx,
    id: &str,
    name: &str,
    args: Option<&str>,
    values: &BTreeMap<String, String>,
) -> Result<Printed, String> {
    let agent = table.find(id)?;
    let finds = discover::find(agent, ctx);
    let amp = agent.show.as_deref() == Some("amp");
    let Some(c) = finds.winner(name) else {
        return Err(if amp {
            render::amp_not_found(name, &finds)
        } else {
            format!(
                "{} finds no skill '{name}': `skilltui list --agent {id}` lists what it finds",
                agent.name
            )
        });
    };
    if c.path.starts_with(scan::BUILT_IN) {
        return Err(format!(
            "'{name}' is bundled with {}: its text is not on disk",
            agent.name
        ));
    }
    // Read once: the agent's parse, omniforge's and cleo's outputs all
    // come from this text.
    let text = discover::read_skill_md(c)?;
    let read = rules::read(agent.parser, &text, &skill::folder_name(&c.path));
    if let Some(e) = read.error.clone() {
        return Err(e);
    }
    let mut p = Printed::default();
    let report = lints::report(agent.parser, &read, &c.path);
    p.notes.extend(
        c.manifest
            .iter()
            .chain(&report.facts)
            .map(|(k, v)| format!("{k}: {v}")),
    );
    p.warnings.extend(report.lints);
    if agent.parser == Parser::Cleo {
        let (json, tokens) = cleo_spawn(ctx, &read.body, values)?;
        if let Some(budget) = agent.budget.as_ref().and_then(|b| b.tokens) {
            p.notes.push(format!(
                "prompt: ~{tokens} tokens; CLEO's documented context budget (orchestrator): {budget} tokens"
            ));
        }
        p.line(&json);
    } else if agent.show.as_deref() == Some("omniforge") {
        let base = c.path.to_string_lossy();
        p.line(&render::omniforge_invoked(&c.name, &base, &text));
    } else if amp {
        p.line(&render::amp_loaded(&c.name, &read.body, args));
    } else if agent.show.as_deref() == Some("opencode") {
        let files = discover::skill_files(&c.path, 10);
        p.line(&render::opencode_loaded(
            &c.name, &read.body, &c.path, &files,
        ));
    } else {
        p.notes.push(format!(
            "{} documents no skill-tool output: this is the body it reads",
            agent.name
        ));
        p.line(&read.body);
    }
    Ok(p)
}

/// The JSON of `skill_prepare_spawn` in CLEO's two-tier design (key casing
/// as that design writes it) and the prompt's estimated tokens: the base protocol
/// `agents/cleo-subagent/AGENT.md` of the project root (git root, else
/// cwd), then the SKILL.md's body as the conditional protocol
/// ([`lints::compose_cleo`]), tokens resolved from `--set` values.
fn cleo_spawn(
    ctx: &Ctx,
    skill_body: &str,
    values: &BTreeMap<String, String>,
) -> Result<(String, usize), String> {
    const BASE: &str = "agents/cleo-subagent/AGENT.md";
    let root = ctx.git_root().unwrap_or_else(|| ctx.cwd.clone());
    let why = |e: &dyn std::fmt::Display| {
        format!(
            "cannot read {}: {e}: CLEO's base protocol is {BASE}",
            root.join(BASE).display()
        )
    };
    // Only the project's own file: a link out of it is never read.
    let bytes = fsops::read_capped_inside(&root, Path::new(BASE), skill::MAX_SKILL_MD_BYTES)
        .map_err(|e| why(&e))?;
    let base = String::from_utf8(bytes).map_err(|_| why(&"it is not UTF-8"))?;
    let spawn = lints::compose_cleo(&base, skill_body, values)?;
    let get = |k: &str| values.get(k).cloned();
    let out = json!({
        "taskId": get("TASK_ID"),
        "epicId": get("EPIC_ID"),
        "date": get("DATE"),
        "prompt": spawn.prompt,
        "tokenResolution": {"fullyResolved": spawn.fully_resolved, "unresolved": spawn.unresolved},
    });
    let tokens = crate::core::cao::catalog::estimate_tokens(spawn.prompt.chars().count());
    Ok((
        serde_json::to_string_pretty(&out).unwrap_or_default(),
        tokens,
    ))
}

/// `KEY=VALUE` pairs from `--set`.
pub fn values(pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    pairs
        .iter()
        .map(|p| match p.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!(
                "--set {p}: expected KEY=VALUE, e.g. --set TASK_ID=T1234"
            )),
        })
        .collect()
}
