//! The store's commands: `list`, `show`, `add`, `remove`, `init`,
//! `validate`.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::agents::{self, ScopeArg};
use super::git::{files_only, print_changes, progress_meter, short};
use super::names;
use super::output::{self, Outcome, Output, printed, warn};
use crate::core::agents::table::Scope;
use crate::core::cao::skill;
use crate::core::cao::store::{self, Home};
use crate::core::error::InstallError;
use crate::core::sources::changes;
use crate::core::sources::remote;
use crate::core::sources::source;
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
    /// What this agent finds from the current directory, by its rules
    #[arg(long, value_name = "ID", add = names::agents())]
    agent: Option<String>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The skill's name (its folder in the store)
    #[arg(add = names::skills())]
    name: String,
    /// What this agent's skill tool returns instead (as Amp and OmniForge
    /// document it, CLEO's spawn prompt for cleo)
    #[arg(long, value_name = "ID", add = names::agents())]
    agent: Option<String>,
    /// The arguments passed to the skill tool (with --agent)
    #[arg(long, value_name = "TEXT", requires = "agent")]
    arguments: Option<String>,
    /// A token value for CLEO's spawn prompt (with --agent cleo)
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "agent")]
    set: Vec<String>,
}

#[derive(Args, Debug)]
pub struct AddArgs {
    /// A skill folder, a folder of skills, owner/repo[/path][@ref], a
    /// GitHub/GitLab tree URL or any git URL[@ref]
    source: String,
    /// Install the skill of this name from the source (repeatable)
    #[arg(long = "skill", value_name = "NAME")]
    skills: Vec<String>,
    /// Install every skill the source holds
    #[arg(long)]
    all: bool,
    /// Replace installed skills of the same name
    #[arg(long)]
    force: bool,
    /// Lift the limits on a skill from git (10,000 files, 32 MiB per
    /// file, 64 MiB per skill)
    #[arg(long)]
    allow_large: bool,
    /// Install a skill even when the audit finds something critical in it
    #[arg(long)]
    trust: bool,
    /// Then give the installed skills to this agent (repeat, or a comma
    /// list, for several)
    #[arg(long, value_name = "ID", add = names::agents())]
    agent: Vec<String>,
    /// Where the agent gets them: its user dir, or the project's; at
    /// project scope the project's skilltui.lock records them too
    #[arg(long, value_enum, default_value_t = ScopeArg::User)]
    scope: ScopeArg,
    /// Copy instead of linking (with --agent)
    #[arg(long, requires = "agent")]
    copy: bool,
}

#[derive(Args, Debug)]
pub struct RemoveArgs {
    /// The skill's name (its folder in the store)
    #[arg(add = names::skills())]
    name: String,
    /// Only take it from this agent (the store keeps it)
    #[arg(long, value_name = "ID", add = names::agents())]
    agent: Option<String>,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Skill folders, or folders of skills (each subfolder with a SKILL.md)
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
}

/// `list [--json]`, or with `--agent` what that agent finds.
pub fn run_list(home: &Home, args: &ListArgs, out: &mut Output) -> Outcome {
    match &args.agent {
        None => list(home, args.json, out),
        Some(id) => agents::with_table(home, out, |table, ctx| {
            agents::list(table, ctx, id, args.json)
        }),
    }
}

/// `show NAME`, or with `--agent` what that agent's skill tool returns.
pub fn run_show(home: &Home, args: &ShowArgs, out: &mut Output) -> Outcome {
    let Some(id) = &args.agent else {
        return show(home, &args.name, out);
    };
    agents::with_table(home, out, |table, ctx| {
        let values = agents::values(&args.set)?;
        let arguments = args.arguments.as_deref();
        agents::show(table, ctx, id, &args.name, arguments, &values)
    })
}

/// `add SOURCE`, then with `--agent` gives what it installed to the agent.
pub fn run_add(home: &Home, args: &AddArgs, out: &mut Output) -> Outcome {
    let pick = Picking {
        names: &args.skills,
        all: args.all,
        force: args.force,
        allow_large: args.allow_large,
        trust: args.trust,
    };
    let scope = args.scope.scope();
    // An agent that cannot be given skills is refused before the store
    // changes.
    let opened = match args.agent.as_slice() {
        [] => None,
        ids => {
            let (table, ctx, warnings) = agents::open(home);
            agents::can_give(&table, &ctx, ids, scope)?;
            Some((table, ctx, warnings))
        }
    };
    let installed = add(home, &args.source, &pick, out)?;
    let Some((table, ctx, warnings)) = opened else {
        return record_in_project(home, &installed, scope);
    };
    let p = agents::enable(
        home,
        &table,
        &ctx,
        &args.agent,
        &installed,
        scope,
        args.copy,
    )?;
    printed(warnings, p, out)
}

/// `add --scope project` without an agent: the project's lock records
/// what was installed, so the project's `sync` installs it for teammates.
fn record_in_project(home: &Home, installed: &[String], scope: Scope) -> Outcome {
    if scope != Scope::Project {
        return Ok(());
    }
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    if let Some(path) = crate::core::sources::lock::record_in_project(home, installed, &cwd)? {
        output::note(&format!("recorded in {}", path.display()));
    }
    Ok(())
}

/// `remove NAME`: from the store and every agent, or with `--agent` only
/// from that agent.
pub fn run_remove(home: &Home, args: &RemoveArgs, out: &mut Output) -> Outcome {
    if let Some(id) = &args.agent {
        return agents::with_table(home, out, |table, ctx| {
            agents::take_back_all(home, table, ctx, &args.name, Some(id))
        });
    }
    let listed_by = crate::core::cao::profile::listing_skill(home, args.name.trim());
    let (removed, taken) = agents::remove_everywhere(home, &args.name)?;
    let name = store::check_name(&args.name)?;
    if !listed_by.is_empty() {
        warn(&format!(
            "profiles still listing '{name}': {} (`skilltui profile disable PROFILE {name}` takes it out of a list)",
            listed_by.join(", ")
        ));
    }
    out.line(&format!(
        "Skill '{name}' removed ({})",
        removed.dest.display()
    ));
    if let Some(lock) = removed.unpinned {
        out.line(&format!(
            "Dropped '{name}' from {}: `sync` no longer installs it",
            lock.display()
        ));
    }
    printed(Vec::new(), taken, out)
}

/// `validate PATH…`.
pub fn run_validate(args: &ValidateArgs, out: &mut Output) -> Outcome {
    validate(&args.paths, args.json, out)
}

fn list(home: &Home, json: bool, out: &mut Output) -> Outcome {
    let listing = store::list(home, json);
    for problem in &listing.problems {
        warn(problem);
    }
    if json {
        let rows: Vec<_> = listing
            .entries
            .iter()
            .map(|e| {
                json!({
                    "name": e.name(),
                    "description": e.checked.description,
                    "path": e.checked.path.to_string_lossy(),
                    "source_dir": e.source_dir.to_string_lossy(),
                    "status": e.status,
                    "plugin": listing.plugin(e),
                    "errors": e.checked.errors,
                    "warnings": e.checked.warnings,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(());
    }
    let valid: Vec<_> = listing.valid().collect();
    let width = valid
        .iter()
        .map(|e| e.name().chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    out.line(&format!("{:width$}  Description", "Name"));
    for e in &valid {
        let first = e.description().lines().next().unwrap_or("");
        let head = format!("{:width$}  ", sanitize_line(e.name()));
        let text = match listing.plugin(e) {
            Some(p) => format!("{first} [plugin: {p}]"),
            None => first.to_string(),
        };
        out.row(&head, &sanitize_line(&text));
    }
    let hidden = listing.entries.len() - valid.len();
    if hidden > 0 {
        warn(&format!(
            "{hidden} skill folder(s) are invalid or shadowed: `skilltui list --json` says why"
        ));
    }
    if valid.is_empty() && listing.problems.is_empty() {
        warn(&format!(
            "no skills in {}: `skilltui init` seeds the defaults",
            home.skills_dir().display()
        ));
    }
    Ok(())
}

fn show(home: &Home, name: &str, out: &mut Output) -> Outcome {
    let checked = store::resolve(home, name)?;
    let doc = skill::read_doc(&checked.path.join("SKILL.md"))?;
    out.line(&doc.frontmatter.body);
    Ok(())
}

/// What `add` was asked to pick and how.
struct Picking<'a> {
    names: &'a [String],
    all: bool,
    force: bool,
    allow_large: bool,
    trust: bool,
}

fn add(home: &Home, source: &str, how: &Picking, out: &mut Output) -> Result<Vec<String>, String> {
    // Of a site's index, only the skills named are downloaded; none
    // named, the index alone is listed.
    let opened = match remote::open_to_pick(
        home,
        source,
        how.names,
        how.all,
        how.allow_large,
        how.trust,
        &mut progress_meter(),
        None,
    )? {
        remote::ToPick::Opened(opened) => opened,
        remote::ToPick::Listed(listing) => return Err(listed_table(&listing, out)),
    };
    for note in &opened.notes {
        eprintln!("{}", sanitize_line(note));
    }
    let names = opened.skill_names(how.names);
    let picked = match source::pick(&opened.found, &names, how.all, &opened.label) {
        Ok(p) => p,
        Err(e) => {
            if opened.found.len() > 1 && how.names.is_empty() {
                found_table(&opened.found, out);
            }
            return Err(e);
        }
    };
    // With --all, a skill installed here in another version is kept (the
    // rest still installs); named with --skill, it is the command's error.
    let (kept, picks): (Vec<&source::Found>, Vec<&source::Found>) = picked
        .install
        .into_iter()
        .partition(|f| how.all && !how.force && f.state == source::StoreState::Different);
    // One line each: where it is and why, so the rest still installs.
    for f in &picked.skipped {
        let why = f.refused.as_deref().unwrap_or_default();
        eprintln!("skipped {}: {}", path_shown(&f.rel), sanitize_line(why));
    }
    for f in &kept {
        eprintln!(
            "skipped {}: '{}' is installed in another version: --force replaces it",
            path_shown(&f.rel),
            sanitize_line(&f.name())
        );
    }
    for f in &picks {
        for w in f.audit_warnings() {
            warn(&w);
        }
    }
    if picks.is_empty() {
        return Err(format!(
            "none of the {} skills in {} was installed (see above)",
            picked.skipped.len() + kept.len(),
            opened.label
        ));
    }
    let installed = match remote::install(home, &opened, &picks, how.force) {
        Ok(done) => done,
        Err(InstallError::Exists(name)) => {
            // As the TUI's replace prompt: what --force would change.
            let dest = home.skills_dir().join(&name);
            if let Some(f) = picks.iter().find(|f| f.name() == name) {
                let c = changes::between(&dest, &f.checked.path);
                let c = if std::io::stdout().is_terminal() {
                    c
                } else {
                    files_only(c)
                };
                print_changes(&format!("'{name}' differs from the installed one"), &c, out);
            }
            return Err(InstallError::Exists(name).to_string());
        }
        Err(e) => return Err(e.to_string()),
    };
    let pinned = opened
        .git
        .as_ref()
        .map(|g| format!(" (pinned at {})", short(&g.commit)))
        .or_else(|| {
            opened
                .web
                .as_ref()
                .map(|_| " (pinned by its sha256 digest)".into())
        })
        .unwrap_or_default();
    for i in &installed {
        if i.unchanged {
            out.line(&format!(
                "Skill '{}' is already installed as is{pinned}",
                i.name
            ));
            continue;
        }
        if let Some(plugin) = &i.released {
            // CAO's own notice (`cli/commands/skills.py`).
            out.line(&format!(
                "Skill '{}' was provided by agent plugin '{}'; it is now user-owned and will win future collisions.",
                i.name,
                sanitize_line(plugin)
            ));
        }
        out.line(&format!(
            "Skill '{}' installed successfully{pinned}",
            i.name
        ));
        if let Some(c) = &i.changes {
            print_changes("replaced the previous version", c, out);
        }
        // Named, as `--all` warns about many skills at once.
        for w in skill::check_folder(&i.dest, true).warnings {
            warn(&format!("{}: {w}", sanitize_line(&i.name)));
        }
    }
    Ok(installed.into_iter().map(|i| i.name).collect())
}

/// The skills a source holds under a header row: name, store state,
/// the install's verdict, description.
fn found_table(found: &[source::Found], out: &mut Output) {
    // The verdict the install applies, not CAO's alone.
    let verdict = |f: &source::Found| match &f.refused {
        None => "ok".to_string(),
        Some(e) => sanitize_line(&format!("refused: {e}")).into_owned(),
    };
    let names = found.iter().map(|f| f.name().chars().count());
    let width = names.max().unwrap_or(0).max("Name".len());
    let verdicts = found.iter().map(|f| verdict(f).chars().count());
    let vwidth = verdicts.max().unwrap_or(0).max("Verdict".len());
    out.line(&format!(
        "{:width$}  {:9}  {:vwidth$}  Description",
        "Name", "State", "Verdict"
    ));
    for f in found {
        let state = format!("{:?}", f.state).to_lowercase();
        let first = f.checked.description.as_deref().unwrap_or("");
        let first = first.lines().next().unwrap_or("");
        let head = format!(
            "{:width$}  {:9}  {:vwidth$}  ",
            sanitize_line(&f.name()),
            state,
            verdict(f),
        );
        out.row(&head, &sanitize_line(first));
    }
}

/// A site's index as it lists its skills, and the error that asks for a
/// pick.
fn listed_table(listing: &remote::Listing, out: &mut Output) -> String {
    for note in &listing.notes {
        eprintln!("{}", sanitize_line(note));
    }
    let names = listing.entries.iter().map(|(n, _)| sanitize_line(n));
    let width = names.map(|n| n.chars().count()).max().unwrap_or(0).max(4);
    out.line(&format!("{:width$}  Description", "Name"));
    for (name, description) in &listing.entries {
        let first = description.lines().next().unwrap_or("");
        let head = format!("{:width$}  ", sanitize_line(name));
        out.row(&head, &sanitize_line(first));
    }
    format!(
        "{} lists {} skills: pick with --skill NAME (repeatable) or take them all with --all",
        listing.label,
        listing.entries.len()
    )
}

/// A found skill's path in its source, `.` for the root.
fn path_shown(rel: &str) -> String {
    if rel.is_empty() {
        ".".into()
    } else {
        sanitize_line(rel).into_owned()
    }
}

pub fn init(home: &Home, out: &mut Output) -> Outcome {
    // A CAO the user named but that is not one is a typo to fix, not a
    // reason to seed only our own skills (the TUI's menu shows why instead).
    if let Some(why) = home.named_cao_error() {
        return Err(format!(
            "{why}: {}",
            crate::core::cao::installed::INSTALL_HINT
        ));
    }
    let report = store::seed(home, None)?;
    if let Some(note) = store::cao_skills_note(home) {
        warn(&note);
    }
    for name in &report.seeded {
        out.line(&format!("seeded {name}"));
    }
    for name in &report.kept {
        out.line(&format!("kept {name} (already present)"));
    }
    out.line(&format!(
        "{} seeded, {} kept, in {}",
        report.seeded.len(),
        report.kept.len(),
        home.skills_dir().display()
    ));
    Ok(())
}

fn validate(paths: &[PathBuf], json: bool, out: &mut Output) -> Outcome {
    let results: Vec<_> = paths
        .iter()
        .flat_map(|p| skill_folders(p))
        .map(|p| skill::check_folder(&p, true))
        .collect();
    if json {
        let rows: Vec<_> = results
            .iter()
            .map(|c| {
                json!({
                    "path": c.path.to_string_lossy(),
                    "valid": c.is_valid(),
                    "name": c.name,
                    "description": c.description,
                    "errors": c.errors,
                    "warnings": c.warnings,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
    } else {
        for c in &results {
            let mark = if c.is_valid() { "ok  " } else { "FAIL" };
            out.line(&format!("{mark} {}", c.path.display()));
            for e in &c.errors {
                out.line(&format!("     error: {e}"));
            }
            for w in &c.warnings {
                out.line(&format!("     warning: {w}"));
            }
        }
    }
    let failed = results.iter().filter(|c| !c.is_valid()).count();
    match failed {
        0 => Ok(()),
        n => Err(format!(
            "{n} of {} folder(s) would not load in CAO",
            results.len()
        )),
    }
}

/// `path` itself, or when it is a folder of skills (no SKILL.md of its own,
/// subfolders that have one) each of those, in name order.
fn skill_folders(path: &std::path::Path) -> Vec<PathBuf> {
    let own = std::fs::symlink_metadata(path.join("SKILL.md")).is_ok();
    let mut subs: Vec<PathBuf> = match std::fs::read_dir(path) {
        Ok(entries) if !own => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && std::fs::symlink_metadata(p.join("SKILL.md")).is_ok())
            .collect(),
        _ => Vec::new(),
    };
    if subs.is_empty() {
        return vec![path.to_path_buf()];
    }
    subs.sort();
    subs
}
