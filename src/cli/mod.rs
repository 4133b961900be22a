//! The scriptable CLI: clap commands over the core, one module per group
//! of commands, each with its arguments, its run functions and its output.
//! Output a script reads goes to stdout, warnings to stderr; text from disk
//! is sanitized when stdout is a terminal and passed through byte for byte
//! otherwise.

pub mod agents;
pub mod audit;
pub mod delivery;
pub mod doctor;
pub mod find;
pub mod git;
pub mod manpage;
pub mod names;
pub mod output;
pub mod profiles;
pub mod serve;
pub mod shell;
pub mod store;

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

use crate::core::cao::store::Home;
pub use git::end_git_on_signals;
pub use output::{Outcome, Output, warn};

/// The help heading of the options every command takes: after the
/// command's own, so `add --help` leads with what `add` does.
const GLOBAL: &str = "Global options";

/// The Examples sections of `--help` (and the man page).
const ADD_EXAMPLES: &str = "Examples:
  skilltui add anthropics/skills --skill pdf      one skill of a GitHub repository
  skilltui add anthropics/skills --all            every skill it holds
  skilltui add ./my-skill                         a folder on this machine
  skilltui add o/r --agent codex --scope project  then give it to Codex in this project";
const FIND_EXAMPLES: &str = "Examples:
  skilltui find pdf                  search the skills.sh registry
  skilltui find pdf --owner anthropics --limit 5
  skilltui find pdf --json | jq '.[0]'";
const SYNC_EXAMPLES: &str = "Examples:
  skilltui sync                        the project's skilltui.lock (found from here up to the
                                       repository root), else the home's
  skilltui sync --lock team/skilltui.lock";
const AGENT_EXAMPLES: &str = "Examples:
  skilltui agent enable codex pdf                    link pdf into Codex's user skills
  skilltui agent enable codex pdf --scope project    into this project's (.codex/skills)
  skilltui agent disable codex pdf
  skilltui agent adopt claude-code my-skill          copy a folder the agent has into the store";
const AUDIT_EXAMPLES: &str = "Examples:
  skilltui audit                  every installed skill
  skilltui audit pdf --min-severity high
  skilltui audit ./downloaded-skill";
const SERVE_EXAMPLES: &str = "Examples:
  skilltui serve                     every skill, on stdio
  skilltui serve --profile developer only what that profile lists
  skilltui serve --print-config codex the snippet that registers it with Codex";

#[derive(Parser, Debug)]
#[command(
    name = "skilltui",
    version,
    about = "Browse, install and assign Agent Skills for CLI Agent Orchestrator (CAO)"
)]
pub struct Cli {
    /// The CAO home (default: $CAO_HOME_DIR, else ~/.aws/cli-agent-orchestrator)
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub home: Option<PathBuf>,
    /// The installed CAO: its package, its venv or its `cao` executable
    /// (default: $SKILLTUI_CAO, else `cao` on PATH, else the uv tool and
    /// pipx homes)
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub cao: Option<PathBuf>,
    /// Colour theme for the TUI (a file in themes/ or the user's config dir)
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List valid skills (--json: every candidate folder with its status)
    List(store::ListArgs),
    /// Print the body CAO's load_skill returns for NAME
    Show(store::ShowArgs),
    /// Install skills from a folder, a folder of skills, a git repository
    /// (owner/repo[/path][@ref], a GitHub/GitLab tree URL, any git URL[@ref]),
    /// a site's well-known index (https://HOST), or a SKILL.md, .tar.gz,
    /// .tgz or .zip URL
    #[command(after_help = ADD_EXAMPLES)]
    Add(store::AddArgs),
    /// Search the skills.sh registry ($SKILLS_API_URL): name, source,
    /// installs, and whether each is installed here
    #[command(after_help = FIND_EXAMPLES)]
    Find(find::FindArgs),
    /// Locked skills: current, outdated, modified, missing, or unknown when
    /// the remote could not be asked
    Check(git::CheckArgs),
    /// Fetch locked skills, show what changes, replace them and re-pin
    Update(git::UpdateArgs),
    /// Install every skill of a lock file at its pinned commit
    #[command(after_help = SYNC_EXAMPLES)]
    Sync(git::SyncArgs),
    /// Remove an installed skill atomically, and every link or copy
    /// skilltui made of it for an agent
    Remove(store::RemoveArgs),
    /// Seed the default skills that are missing (never overwrites)
    Init,
    /// CAO's verdict plus Agent Skills lints, per folder
    Validate(store::ValidateArgs),
    /// The catalog PROFILE's agent receives under its provider (nothing
    /// when that provider gets none: stderr says what it gets instead), or
    /// with --agent what that agent's model is shown about skills
    Catalog(delivery::CatalogArgs),
    /// How PROFILE's agent receives skills under its provider
    Delivery(delivery::DeliveryArgs),
    /// Rewrite stale CAO-managed Copilot agent files as CAO's refresh would
    Refresh,
    /// Audit skills for hidden text, instructions against the user,
    /// exfiltration, remote code and more; exit 1 on a high or critical
    /// finding
    #[command(after_help = AUDIT_EXAMPLES)]
    Audit(audit::AuditArgs),
    /// Why CAO sees what it sees: home, dirs, the CAO found, warnings
    Doctor(doctor::DoctorArgs),
    /// Agent profiles and their skills
    #[command(subcommand)]
    Profile(profiles::ProfileCommand),
    /// The agents skilltui knows: detected or not, and where each looks
    Agents(agents::AgentsArgs),
    /// Give store skills to an agent, or take them back
    #[command(subcommand, after_help = AGENT_EXAMPLES)]
    Agent(agents::AgentCommand),
    /// Serve the skills (or one profile's) to any MCP client on stdio,
    /// through the MCP Skills extension and a `load_skill` tool
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(serve::ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff): `skilltui man > skilltui.1`
    Man,
}

/// Runs a parsed command (the TUI is started by `main` when none is given).
pub fn run(cli: &Cli, command: &Command) -> Outcome {
    let home = Home::locate(cli.home.as_deref()).with_cao(cli.cao.as_deref());
    let missing = command.reads_home() && std::fs::symlink_metadata(&home.root).is_err();
    if missing && let Some(meant) = crate::core::doctor::mistyped_home(&home.root) {
        let from = crate::core::doctor::home_source(cli.home.as_deref());
        return Err(format!(
            "the home {} (from {from}) does not exist: did you mean {}? Nothing was created",
            home.root.display(),
            meant.display()
        ));
    }
    let outcome = dispatch(cli, command);
    if command.changes_store() {
        // Even a failed command may have changed part of the store.
        let _ = delivery::refresh_copilot(&home, false);
    }
    match missing {
        true => name_a_missing_home(&home, cli.home.as_deref(), outcome),
        false => outcome,
    }
}

/// A home that does not exist is named by every command that reads it: a
/// typo in `--home` must not look like an empty store. A failure says it in
/// its one line; a command that made the home (`init`, `add`, `sync`) says
/// it did.
fn name_a_missing_home(home: &Home, flag: Option<&std::path::Path>, outcome: Outcome) -> Outcome {
    let from = crate::core::doctor::home_source(flag);
    let shown = home.root.display();
    match outcome {
        Err(e) => Err(format!(
            "{e} (the home {shown}, from {from}, does not exist)"
        )),
        Ok(()) if std::fs::symlink_metadata(&home.root).is_ok() => {
            output::note(&format!("created the home {shown} (from {from})"));
            Ok(())
        }
        Ok(()) => {
            warn(&format!(
                "the home {shown} (from {from}) does not exist: check the path, or `skilltui init` creates it and seeds the defaults"
            ));
            Ok(())
        }
    }
}

impl Command {
    /// Reads or writes the home (`validate`, `completions` and `man` do not).
    fn reads_home(&self) -> bool {
        !matches!(
            self,
            Command::Validate(_) | Command::Completions(_) | Command::Man
        )
    }

    /// Changes the store or a profile: Copilot's baked catalogs go stale.
    fn changes_store(&self) -> bool {
        match self {
            Command::Add(_)
            | Command::Remove(_)
            | Command::Update(_)
            | Command::Sync(_)
            | Command::Init => true,
            Command::Profile(p) => p.changes_store(),
            _ => false,
        }
    }
}

fn dispatch(cli: &Cli, command: &Command) -> Outcome {
    let home = Home::locate(cli.home.as_deref()).with_cao(cli.cao.as_deref());
    let out = &mut Output::stdout();
    match command {
        Command::List(args) => store::run_list(&home, args, out),
        Command::Show(args) => store::run_show(&home, args, out),
        Command::Add(args) => store::run_add(&home, args, out),
        Command::Find(args) => find::run(&home, args, out),
        Command::Remove(args) => store::run_remove(&home, args, out),
        Command::Init => store::init(&home, out),
        Command::Validate(args) => store::run_validate(args, out),
        Command::Check(args) => git::run_check(&home, args, out),
        Command::Update(args) => git::run_update(&home, args, out),
        Command::Sync(args) => git::run_sync(&home, args, out),
        Command::Catalog(args) => delivery::run_catalog(&home, args, out),
        Command::Delivery(args) => delivery::run_delivery(&home, args, out),
        Command::Refresh => delivery::refresh_copilot(&home, true),
        Command::Audit(args) => audit::run(&home, args, out),
        Command::Doctor(args) => doctor::run(&home, cli.home.as_deref(), args, out),
        Command::Profile(cmd) => profiles::run(&home, cmd, out),
        Command::Agents(args) => agents::run_agents(&home, args, out),
        Command::Agent(cmd) => agents::run(&home, cmd, out),
        Command::Completions(args) => shell::completions(args, &Cli::command(), out),
        Command::Serve(args) => serve::run(cli, &home, args, out),
        Command::Man => shell::man(Cli::command(), out),
    }
}
