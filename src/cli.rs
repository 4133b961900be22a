//! The scriptable CLI: clap commands over the core. Output a script reads
//! goes to stdout, warnings to stderr; text from disk is sanitized when
//! stdout is a terminal and passed through byte for byte otherwise.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::cli_agents;
use crate::core::agents::table::Scope;
use crate::core::cao::catalog::{self, Format};
use crate::core::cao::editor;
use crate::core::cao::profile;
use crate::core::cao::skill;
use crate::core::cao::store::{self, Home};
use crate::core::delivery;
use crate::core::doctor;
use crate::core::error::{InstallError, WriteError};
use crate::core::sources::changes::{self, Changes};
use crate::core::sources::git;
use crate::core::sources::remote;
use crate::core::sources::source;
use crate::core::text::{sanitize, sanitize_line};

#[derive(Parser, Debug)]
#[command(
    name = "skilltui",
    version,
    about = "Browse, install and assign Agent Skills for CLI Agent Orchestrator (CAO)"
)]
pub struct Cli {
    /// The CAO home (default: $CAO_HOME_DIR, else ~/.aws/cli-agent-orchestrator)
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The installed CAO: its package, its venv or its `cao` executable
    /// (default: $SKILLTUI_CAO, else `cao` on PATH, else the uv tool and
    /// pipx homes)
    #[arg(long, global = true, value_name = "DIR")]
    pub cao: Option<PathBuf>,
    /// Colour theme for the TUI (a file in themes/ or the user's config dir)
    #[arg(long, global = true, value_name = "NAME")]
    pub theme: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List valid skills (--json: every candidate folder with its status)
    List {
        #[arg(long)]
        json: bool,
        /// What this agent finds from the current directory, by its rules
        #[arg(long, value_name = "ID")]
        agent: Option<String>,
    },
    /// Print the body CAO's load_skill returns for NAME
    Show {
        name: String,
        /// What this agent's skill tool returns instead (seed 003 for amp,
        /// seed 001 for omniforge, seed 002's spawn prompt for cleo)
        #[arg(long, value_name = "ID")]
        agent: Option<String>,
        /// The arguments passed to the skill tool (with --agent)
        #[arg(long, value_name = "TEXT", requires = "agent")]
        arguments: Option<String>,
        /// A token value for seed 002's spawn prompt (with --agent cleo)
        #[arg(long = "set", value_name = "KEY=VALUE", requires = "agent")]
        set: Vec<String>,
    },
    /// Install skills from a folder, a folder of skills or a git repository
    /// (owner/repo[/path][@ref], a GitHub/GitLab tree URL, any git URL[@ref])
    Add {
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
        /// Then give the installed skills to this agent
        #[arg(long, value_name = "ID")]
        agent: Option<String>,
        /// Where the agent gets them (with --agent)
        #[arg(long, value_enum, default_value_t = ScopeArg::User, requires = "agent")]
        scope: ScopeArg,
        /// Copy instead of linking (with --agent)
        #[arg(long, requires = "agent")]
        copy: bool,
    },
    /// Locked skills: current, outdated, modified or missing
    Check {
        names: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Fetch locked skills, show what changes, replace them and re-pin
    Update {
        names: Vec<String>,
        /// Also replace skills modified locally (their edits are lost)
        #[arg(long)]
        force: bool,
        /// Lift the limits on a skill from git (skills added with
        /// --allow-large keep it without this)
        #[arg(long)]
        allow_large: bool,
    },
    /// Install every skill of a lock file at its pinned commit
    Sync {
        /// The lock file to follow (default: <home>/skilltui.lock)
        #[arg(long, value_name = "FILE")]
        lock: Option<PathBuf>,
        /// Also replace skills changed locally, or installed here from
        /// another source or from none
        #[arg(long)]
        force: bool,
        /// Lift the limits on a skill from git (skills added with
        /// --allow-large keep it without this)
        #[arg(long)]
        allow_large: bool,
    },
    /// Remove an installed skill atomically, and every link or copy
    /// skilltui made of it for an agent
    Remove {
        name: String,
        /// Only take it from this agent (the store keeps it)
        #[arg(long, value_name = "ID")]
        agent: Option<String>,
    },
    /// Seed the default skills that are missing (never overwrites)
    Init,
    /// CAO's verdict plus Agent Skills lints, per folder
    Validate {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// The catalog PROFILE's agent receives under its provider (nothing
    /// when that provider gets none: stderr says what it gets instead), or
    /// with --agent what that agent's model is shown about skills
    Catalog {
        #[arg(required_unless_present = "agent")]
        profile: Option<String>,
        #[arg(long, value_name = "ID", conflicts_with = "profile")]
        agent: Option<String>,
        #[arg(long, value_enum, default_value_t = FormatArg::Cao)]
        format: FormatArg,
        /// Print the prompt text skills are part of (body, blank line, block)
        #[arg(long)]
        prompt: bool,
        /// Deliver as this CAO provider (as `cao launch --provider` does)
        #[arg(long, value_name = "P", value_parser = provider_arg())]
        provider: Option<String>,
    },
    /// How PROFILE's agent receives skills under its provider
    Delivery {
        profile: String,
        /// Deliver as this CAO provider (as `cao launch --provider` does)
        #[arg(long, value_name = "P", value_parser = provider_arg())]
        provider: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Rewrite stale CAO-managed Copilot agent files as CAO's refresh would
    Refresh,
    /// Why CAO sees what it sees: home, dirs, the CAO found, warnings
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Agent profiles and their skills
    #[command(subcommand)]
    Profile(ProfileCommand),
    /// The agents skilltui knows: detected or not, and where each looks
    Agents {
        #[arg(long)]
        json: bool,
    },
    /// Give store skills to an agent, or take them back
    #[command(subcommand)]
    Agent(AgentCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff): `skilltui man > skilltui.1`
    Man,
}

#[derive(Subcommand, Debug)]
pub enum AgentCommand {
    /// Link (or copy) store skills into the agent's skill dir
    Enable {
        agent: String,
        #[arg(required = true)]
        skills: Vec<String>,
        #[arg(long, value_enum, default_value_t = ScopeArg::User)]
        scope: ScopeArg,
        /// Copy instead of linking
        #[arg(long)]
        copy: bool,
    },
    /// Take back links or copies skilltui made (never anything else)
    Disable {
        agent: String,
        #[arg(required = true)]
        skills: Vec<String>,
        /// Only this scope (default: every scope)
        #[arg(long, value_enum)]
        scope: Option<ScopeArg>,
    },
    /// Copy a skill folder the user made in the agent's dirs into the store
    Adopt {
        agent: String,
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
    fn scope(self) -> Scope {
        match self {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum ProfileCommand {
    /// Profiles with their file, source and declared skills
    List {
        #[arg(long)]
        json: bool,
    },
    /// Add skills to the profile's `skills:` list, in place
    Enable {
        profile: String,
        #[arg(required = true)]
        skills: Vec<String>,
    },
    /// Remove skills from the profile's `skills:` list, in place
    Disable {
        profile: String,
        #[arg(required = true)]
        skills: Vec<String>,
    },
}

/// CAO's providers: anything else is a usage error (exit 2) listing them.
fn provider_arg() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(delivery::agent::PROVIDERS)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    Cao,
    V1,
    Xml,
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Cao => Format::Cao,
            FormatArg::V1 => Format::V1,
            FormatArg::Xml => Format::Xml,
            FormatArg::Json => Format::Json,
        }
    }
}

/// A user-facing failure: one line, printed as `error: ...`, exit 1.
pub type Outcome = Result<(), String>;

/// Runs a parsed command (the TUI is started by `main` when none is given).
pub fn run(cli: &Cli, command: &Command) -> Outcome {
    let outcome = dispatch(cli, command);
    if command.changes_store() {
        // Even a failed command may have changed part of the store.
        let home = Home::locate(cli.home.as_deref()).with_cao(cli.cao.as_deref());
        let _ = refresh_copilot(&home, false);
    }
    outcome
}

impl Command {
    /// Changes the store or a profile: Copilot's baked catalogs go stale.
    fn changes_store(&self) -> bool {
        matches!(
            self,
            Command::Add { .. }
                | Command::Remove { .. }
                | Command::Update { .. }
                | Command::Sync { .. }
                | Command::Init
                | Command::Profile(ProfileCommand::Enable { .. } | ProfileCommand::Disable { .. })
        )
    }
}

fn dispatch(cli: &Cli, command: &Command) -> Outcome {
    let home = Home::locate(cli.home.as_deref()).with_cao(cli.cao.as_deref());
    let mut out = Output::stdout();
    match command {
        Command::List { json, agent: None } => list(&home, *json, &mut out),
        Command::List {
            json,
            agent: Some(id),
        } => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            printed(
                warnings,
                cli_agents::list(&table, &ctx, id, *json)?,
                &mut out,
            )
        }
        Command::Agent(cmd) => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            let p = match cmd {
                AgentCommand::Enable {
                    agent,
                    skills,
                    scope,
                    copy,
                } => cli_agents::enable(&home, &table, &ctx, agent, skills, scope.scope(), *copy)?,
                AgentCommand::Disable {
                    agent,
                    skills,
                    scope,
                } => cli_agents::disable(
                    &home,
                    &table,
                    &ctx,
                    agent,
                    skills,
                    scope.map(ScopeArg::scope),
                )?,
                AgentCommand::Adopt { agent, skills } => {
                    cli_agents::adopt(&home, &table, &ctx, agent, skills)?
                }
            };
            printed(warnings, p, &mut out)
        }
        Command::Agents { json } => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            printed(warnings, cli_agents::agents(&table, &ctx, *json), &mut out)
        }
        Command::Show {
            name, agent: None, ..
        } => show(&home, name, &mut out),
        Command::Show {
            name,
            agent: Some(id),
            arguments,
            set,
        } => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            let values = cli_agents::values(set)?;
            let p = cli_agents::show(&table, &ctx, id, name, arguments.as_deref(), &values)?;
            printed(warnings, p, &mut out)
        }
        Command::Add {
            source,
            skills,
            all,
            force,
            allow_large,
            agent,
            scope,
            copy,
        } => {
            let pick = Picking {
                names: skills,
                all: *all,
                force: *force,
                allow_large: *allow_large,
            };
            // An agent that cannot be given skills is refused before the
            // store changes.
            let opened = match agent {
                Some(id) => {
                    let (table, ctx, warnings) = cli_agents::open(&home);
                    cli_agents::can_give(&table, &ctx, id, scope.scope())?;
                    Some((table, ctx, warnings))
                }
                None => None,
            };
            let installed = add(&home, source, &pick, &mut out)?;
            match (agent, opened) {
                (Some(id), Some((table, ctx, warnings))) => {
                    let p = cli_agents::enable(
                        &home,
                        &table,
                        &ctx,
                        id,
                        &installed,
                        scope.scope(),
                        *copy,
                    )?;
                    printed(warnings, p, &mut out)
                }
                _ => Ok(()),
            }
        }
        Command::Check { names, json } => check(&home, names, *json, &mut out),
        Command::Update {
            names,
            force,
            allow_large,
        } => update(&home, names, (*force, *allow_large), &mut out),
        Command::Sync {
            lock,
            force,
            allow_large,
        } => {
            sync(&home, lock.as_deref(), (*force, *allow_large), &mut out)?;
            let (table, ctx, warnings) = cli_agents::open(&home);
            printed(
                warnings,
                cli_agents::restore(&home, &table, &ctx)?,
                &mut out,
            )
        }
        Command::Remove {
            name,
            agent: Some(id),
        } => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            let p = cli_agents::take_back_all(&home, &table, &ctx, name, Some(id))?;
            printed(warnings, p, &mut out)
        }
        Command::Remove { name, agent: None } => {
            let (removed, taken) = cli_agents::remove_everywhere(&home, name)?;
            let name = store::check_name(name)?;
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
            printed(Vec::new(), taken, &mut out)
        }
        Command::Init => init(&home, &mut out),
        Command::Validate { paths, json } => validate(paths, *json, &mut out),
        Command::Catalog {
            agent: Some(id), ..
        } => {
            let (table, ctx, warnings) = cli_agents::open(&home);
            printed(warnings, cli_agents::catalog(&table, &ctx, id)?, &mut out)
        }
        Command::Catalog {
            profile,
            format,
            prompt,
            provider,
            agent: None,
        } => {
            let profile = profile.as_deref().unwrap_or_default();
            catalog(
                &home,
                profile,
                (*format).into(),
                *prompt,
                provider.as_deref(),
                &mut out,
            )
        }
        Command::Delivery {
            profile,
            provider,
            json,
        } => delivery_print(&home, profile, provider.as_deref(), *json, &mut out),
        Command::Refresh => refresh_copilot(&home, true),
        Command::Doctor { json } => {
            let clipboard = crate::tui::clipboard::ClipEnv::from_env().describe();
            let report = doctor::report(&home, cli.home.as_deref(), clipboard);
            doctor_print(&report, *json, &mut out);
            Ok(())
        }
        Command::Profile(ProfileCommand::List { json }) => profile_list(&home, *json, &mut out),
        Command::Completions { shell } => {
            clap_complete::generate(*shell, &mut Cli::command(), "skilltui", &mut out.inner);
            Ok(())
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut out.inner)
            .map_err(|e| format!("cannot write the man page: {e}")),
        Command::Profile(ProfileCommand::Enable { profile, skills }) => {
            toggle(&home, profile, skills, true, &mut out)
        }
        Command::Profile(ProfileCommand::Disable { profile, skills }) => {
            toggle(&home, profile, skills, false, &mut out)
        }
    }
}

/// Stdout that sanitizes only when a person is looking at it; buffered
/// (flushed when dropped) so a long listing is one write, not one a line.
pub struct Output {
    tty: bool,
    /// The terminal's columns: listings cut their last cell to it. `None`
    /// when piped, so a script gets the full text.
    columns: Option<usize>,
    inner: std::io::BufWriter<std::io::Stdout>,
}

impl Output {
    pub fn stdout() -> Output {
        let stdout = std::io::stdout();
        let tty = stdout.is_terminal();
        let columns = tty
            .then(|| ratatui::crossterm::terminal::size().ok())
            .flatten()
            .map(|(w, _)| usize::from(w))
            .filter(|w| *w > 0);
        Output {
            tty,
            columns,
            inner: std::io::BufWriter::with_capacity(64 * 1024, stdout),
        }
    }

    /// A listing row: `head` then `tail` (a description, a list) cut with
    /// an ellipsis to the terminal's width; whole when piped. Both are
    /// sanitized already.
    pub fn row(&mut self, head: &str, tail: &str) {
        let Some(columns) = self.columns else {
            return self.line(&format!("{head}{tail}"));
        };
        let used = unicode_width::UnicodeWidthStr::width(head);
        let tail = crate::tui::panes::elide_right(tail, columns.saturating_sub(used));
        self.line(&format!("{head}{tail}"));
    }

    /// Writes text read from disk (or built from it).
    pub fn text(&mut self, s: &str) {
        let s = if self.tty { sanitize(s) } else { s.into() };
        let _ = self.inner.write_all(s.as_bytes());
    }

    pub fn line(&mut self, s: &str) {
        self.text(s);
        self.text("\n");
    }
}

/// Prints what an agent command built: warnings first, then its text.
fn printed(warnings: Vec<String>, p: cli_agents::Printed, out: &mut Output) -> Outcome {
    for w in warnings.iter().chain(&p.warnings) {
        warn(w);
    }
    for n in &p.notes {
        eprintln!("{}", sanitize_line(n));
    }
    out.text(&p.out);
    Ok(())
}

/// Warnings to stderr, sanitized (they may quote file contents).
pub fn warn(msg: &str) {
    eprintln!("warning: {}", sanitize_line(msg));
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
        out.row(&head, &sanitize_line(first));
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
}

fn add(home: &Home, source: &str, how: &Picking, out: &mut Output) -> Result<Vec<String>, String> {
    let opened = remote::open(home, source, how.allow_large, &mut progress_meter(), None)?;
    let picked = match source::pick(&opened.found, how.names, how.all, &opened.label) {
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
        .unwrap_or_default();
    for i in &installed {
        if i.unchanged {
            out.line(&format!(
                "Skill '{}' is already installed as is{pinned}",
                i.name
            ));
            continue;
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

/// The skills a source holds: name, CAO verdict, store state, description.
fn found_table(found: &[source::Found], out: &mut Output) {
    let width = found
        .iter()
        .map(|f| f.name().chars().count())
        .max()
        .unwrap_or(4);
    for f in found {
        // The verdict the install applies, not CAO's alone.
        let verdict = match &f.refused {
            None => "ok".to_string(),
            Some(e) => format!("refused: {e}"),
        };
        let state = format!("{:?}", f.state).to_lowercase();
        let first = f.checked.description.as_deref().unwrap_or("");
        let first = first.lines().next().unwrap_or("");
        let head = format!(
            "{:width$}  {:9}  {}  ",
            sanitize_line(&f.name()),
            state,
            sanitize_line(&verdict),
        );
        out.row(&head, &sanitize_line(first));
    }
}

/// A found skill's path in its source, `.` for the root.
fn path_shown(rel: &str) -> String {
    if rel.is_empty() {
        ".".into()
    } else {
        sanitize_line(rel).into_owned()
    }
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

fn print_changes(what: &str, c: &Changes, out: &mut Output) {
    out.line(&format!("{what}: {}", c.summary()));
    for l in c.render() {
        out.line(&sanitize_line(&l));
    }
}

/// The files of `c` without their line diffs, for output that is not read
/// on a terminal.
fn files_only(c: Changes) -> Changes {
    let changed = c
        .changed
        .into_iter()
        .map(|f| changes::Changed { lines: None, ..f })
        .collect();
    Changes { changed, ..c }
}

/// Ctrl-C (or SIGTERM, SIGHUP) ends a command as it would, but first ends
/// the gits it runs with their ssh and helpers: they run in a session of
/// their own, out of the terminal's reach.
pub fn end_git_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            git::kill_all();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
}

/// Shows git's progress on stderr when a person is watching it.
fn progress_meter() -> impl FnMut(git::Progress) {
    let tty = std::io::stderr().is_terminal();
    move |p: git::Progress| {
        if tty {
            eprint!("\r\x1b[2K{}: {}%", p.phase, p.percent);
            if p.percent == 100 {
                eprintln!();
            }
        }
    }
}

fn check(home: &Home, names: &[String], json: bool, out: &mut Output) -> Outcome {
    let rows = remote::check(home, names)?;
    if json {
        let items: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "name": r.name,
                    "status": r.status,
                    "source": r.entry.source,
                    "path": r.entry.path,
                    "ref": r.entry.reference,
                    "commit": r.entry.commit,
                    "upstream": r.upstream,
                    "error": r.error,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&items).unwrap_or_default());
    } else {
        let width = rows
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        out.line(&format!("{:width$}  {:8}  Source", "Name", "Status"));
        for r in &rows {
            let status = format!("{:?}", r.status).to_lowercase();
            let at = r.entry.reference.as_deref().unwrap_or("default branch");
            out.line(&format!(
                "{:width$}  {status:8}  {}@{at}",
                sanitize_line(&r.name),
                sanitize_line(&r.entry.source)
            ));
        }
    }
    let failed = rows
        .iter()
        .filter_map(|r| r.error.as_ref().map(|e| (r.name.as_str(), e.as_str())));
    for (e, names) in by_cause(failed) {
        warn(&format!("{}: {e}", names.join(", ")));
    }
    if rows.is_empty() {
        warn("no skills are locked: `skilltui add OWNER/REPO` installs and pins one");
    }
    Ok(())
}

/// Failures grouped by their message, in order of first appearance: an
/// unreachable repository is one line naming its skills, not one per skill.
fn by_cause<'a>(failed: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut causes: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, e) in failed {
        match causes.iter_mut().find(|(c, _)| *c == e) {
            Some((_, names)) => names.push(name),
            None => causes.push((e, vec![name])),
        }
    }
    causes
}

/// Prints each outcome; any failure makes the command fail after the rest
/// ran, with one line per cause.
fn report_outcomes(outcomes: &[remote::Outcome], verb: &str, out: &mut Output) -> Outcome {
    let failed = outcomes.iter().filter_map(|o| {
        o.result
            .as_ref()
            .err()
            .map(|e| (o.name.as_str(), e.as_str()))
    });
    let causes = by_cause(failed);
    for o in outcomes {
        match &o.result {
            Ok(remote::Done::Current) => out.line(&format!("{}: current", o.name)),
            Ok(remote::Done::Installed { commit, changes }) => match changes {
                Some(c) => {
                    print_changes(&format!("{}: {verb} to {}", o.name, short(commit)), c, out)
                }
                None => out.line(&format!("{}: installed at {}", o.name, short(commit))),
            },
            Err(_) => {}
        }
    }
    let named = |e: &str, names: &[&str]| match names {
        [_] => e.to_string(),
        _ => format!("{e} (skills {})", names.join(", ")),
    };
    match &causes[..] {
        [] => Ok(()),
        [(e, names)] => Err(named(e, names)),
        _ => {
            for (e, names) in &causes {
                eprintln!("error: {}", sanitize_line(&named(e, names)));
            }
            let n: usize = causes.iter().map(|(_, names)| names.len()).sum();
            Err(format!(
                "{n} of {} skill(s) were not {verb}: see the lines above",
                outcomes.len()
            ))
        }
    }
}

/// `(force, allow_large)`, as given to `update` and `sync`.
type Lifts = (bool, bool);

fn update(home: &Home, names: &[String], lifts: Lifts, out: &mut Output) -> Outcome {
    let (force, large) = lifts;
    let outcomes = remote::update(home, names, force, large, &mut progress_meter())?;
    if outcomes.is_empty() {
        warn("no skills are locked: `skilltui add OWNER/REPO` installs and pins one");
    }
    report_outcomes(&outcomes, "updated", out)
}

fn sync(home: &Home, lock: Option<&std::path::Path>, lifts: Lifts, out: &mut Output) -> Outcome {
    let (force, large) = lifts;
    let synced = remote::sync(home, lock, force, large, &mut progress_meter())?;
    for name in &synced.unlocked {
        out.line(&format!("{name}: installed here but not in the lock"));
    }
    report_outcomes(&synced.outcomes, "synced", out)
}

fn init(home: &Home, out: &mut Output) -> Outcome {
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

fn catalog(
    home: &Home,
    name: &str,
    format: Format,
    prompt: bool,
    provider: Option<&str>,
    out: &mut Output,
) -> Outcome {
    let a = delivery::agent::load(home, name)?;
    if let Some(problem) = &a.unread {
        warn(problem);
    }
    let listing = store::list(home, false);
    let d = delivery::model::compute(home, &listing, &a, provider)?;
    let Some(block) = &d.catalog else {
        note(&d.why);
        if let Some(text) = d.prompt.as_deref().filter(|p| prompt && !p.is_empty()) {
            out.line(text);
        }
        return Ok(());
    };
    // Copilot's baked catalog ignores `skills:`; only a filter applies.
    let skills = a.skills.as_deref().filter(|_| d.filtered);
    if skills.is_some() {
        for pattern in &catalog::select(&listing, skills).unmatched {
            warn(&format!(
                "pattern '{pattern}' in profile '{name}' matches no installed skill"
            ));
        }
    }
    let text = match (format, prompt) {
        (Format::Cao, false) => block.clone(),
        (Format::Cao, true) => d.prompt.clone().unwrap_or_default(),
        (_, false) => catalog::render(format, &listing, skills, name)?,
        (_, true) => {
            catalog::compose_prompt(&a.body, &catalog::render(format, &listing, skills, name)?)
        }
    };
    if !text.is_empty() {
        out.line(&text);
    }
    Ok(())
}

/// A fact on stderr that is not a warning (how an agent gets skills).
fn note(msg: &str) {
    eprintln!("note: {}", sanitize_line(msg));
}

fn delivery_print(
    home: &Home,
    name: &str,
    provider: Option<&str>,
    json: bool,
    out: &mut Output,
) -> Outcome {
    let d = delivery::model::for_profile(home, name, provider)?;
    if json {
        out.line(&serde_json::to_string_pretty(&d).unwrap_or_default());
        return Ok(());
    }
    for line in delivery_lines(&d) {
        out.line(&sanitize_line(&line));
    }
    if let Some(block) = d.catalog.as_deref().filter(|c| !c.is_empty()) {
        out.line("");
        out.line(block);
    }
    Ok(())
}

fn delivery_lines(d: &delivery::model::Delivery) -> Vec<String> {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut lines = vec![
        format!("profile     {}", d.profile),
        format!("provider    {} ({})", d.provider, d.provider_source.label()),
        format!("delivery    {}", d.delivery.label()),
        format!("how         {}", d.why),
        format!(
            "filtered    {} (by the profile's `skills:` list)",
            yes_no(d.filtered)
        ),
        format!("extra dirs  {}", yes_no(d.extra_dirs)),
    ];
    lines.extend(d.resources.iter().map(|r| format!("resource    {r}")));
    for r in &d.reaches {
        let mark = r.mark();
        let sep = if mark.is_empty() { "" } else { "  " };
        lines.push(format!("skill       {}{sep}{mark}", r.skill));
    }
    if let Some(i) = &d.installed {
        lines.push(format!("installed   {} ({})", i.path.display(), i.state()));
    }
    match (&d.catalog, &d.prompt) {
        (Some(c), _) => lines.push(format!("catalog     {} chars", c.chars().count())),
        (None, Some(p)) => lines.push(format!("prompt      {} chars", p.chars().count())),
        (None, None) => {}
    }
    lines
}

/// Rewrites CAO-managed Copilot files whose baked catalog is stale. After
/// a change (`verbose` false) it only says what it rewrote, on stderr.
fn refresh_copilot(home: &Home, verbose: bool) -> Outcome {
    let done = delivery::copilot::refresh(home);
    let mut out = Output::stdout();
    for path in &done.rewritten {
        let line = format!("refreshed {} (its baked catalog was stale)", path.display());
        if verbose {
            out.line(&sanitize_line(&line));
        } else {
            note(&line);
        }
    }
    if verbose {
        for (path, why) in &done.skipped {
            out.line(&sanitize_line(&format!(
                "left alone {}: {why}",
                path.display()
            )));
        }
        out.line(&format!(
            "{} CAO-managed Copilot agent file(s), {} rewritten",
            done.managed.len(),
            done.rewritten.len()
        ));
    }
    match done.stopped {
        Some(why) if verbose => Err(why),
        Some(why) => {
            warn(&format!("Copilot agents not refreshed: {why}"));
            Ok(())
        }
        None => Ok(()),
    }
}

fn doctor_print(r: &doctor::Report, json: bool, out: &mut Output) {
    if json {
        out.line(&serde_json::to_string_pretty(r).unwrap_or_default());
        return;
    }
    // Each line is one fact: a newline inside a path or a name must not
    // start a line of its own.
    for line in doctor_lines(r) {
        out.line(&sanitize_line(&line));
    }
}

fn doctor_lines(r: &doctor::Report) -> Vec<String> {
    let mark = |d: &doctor::Dir| if d.exists { "" } else { "  (missing)" };
    let mut lines = vec![
        format!("home        {} (from {})", r.home.display(), r.home_from),
        format!("store       {}", r.store.display()),
    ];
    for d in &r.extra_dirs {
        lines.push(format!("extra dir   {}{}", d.path.display(), mark(d)));
    }
    for d in &r.profile_dirs {
        let label = d.label.as_deref().unwrap_or("");
        let (path, missing) = (d.path.display(), mark(d));
        lines.push(format!("profiles    {path} ({label}){missing}"));
    }
    lines.push(match (&r.cao.package, &r.cao.version) {
        (Some(p), v) => format!(
            "cao         {} {} (via {})",
            v.as_deref().unwrap_or("(unknown version)"),
            p.display(),
            r.cao.how
        ),
        (None, _) => format!("cao         not found: {}", r.cao.how),
    });
    let git = r.git.as_ref().map(|g| g.display().to_string());
    lines.push(format!(
        "git         {}",
        git.as_deref().unwrap_or("not on PATH")
    ));
    lines.push(format!("clipboard   {}", r.clipboard));
    lines.push(format!("colours     {}", r.colours));
    lines.extend(r.warnings.iter().map(|w| format!("warning     {w}")));
    if r.warnings.is_empty() {
        lines.push("warnings    none".into());
    }
    lines
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
                    "path": l.location.path.as_ref().map(|p| p.to_string_lossy()),
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
        let head = format!("{:width$}  {:11}  ", l.name, l.location.source);
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
