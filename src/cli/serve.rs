//! `serve`: the skills over MCP on stdio, or the snippet that registers
//! the server with an agent.

use clap::Args;

use super::Cli;
use super::names;
use super::output::{Outcome, Output};
use crate::core::cao::store::Home;
use crate::core::serve::catalog::Options;
use crate::core::serve::config::{self, Launch};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Serve exactly the skills this profile's `skills:` gives its agent
    #[arg(long, value_name = "NAME", add = names::profiles())]
    profile: Option<String>,
    /// Serve skills the audit finds critical too (held back otherwise)
    #[arg(long)]
    trust: bool,
    /// Print the snippet that registers this server with AGENT instead
    #[arg(long, value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(config::AGENTS))]
    print_config: Option<String>,
}

pub fn run(cli: &Cli, home: &Home, args: &ServeArgs, out: &mut Output) -> Outcome {
    if let Some(agent) = &args.print_config {
        let launch = Launch::new(
            command()?,
            global_args(cli, home)?,
            args.profile.as_deref(),
            args.trust,
        );
        out.line(config::snippet(agent, &launch)?.trim_end());
        return Ok(());
    }
    let opts = Options {
        profile: args.profile.clone(),
        trust: args.trust,
    };
    crate::mcp::run(home.clone(), opts)
}

/// This executable, by the absolute path it runs from: an agent starts it
/// without the user's shell, so PATH may differ.
fn command() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| {
        format!("cannot find the path of this skilltui to write into the snippet: {e}")
    })?;
    utf8(&exe)
}

/// The home, absolute, whenever it is not the default one (named by
/// `--home` or by `CAO_HOME_DIR`, which an agent does not pass on), and
/// `--cao` as given, absolute: the agent starts the server from its own
/// working directory and environment.
fn global_args(cli: &Cli, home: &Home) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    if cli.home.is_some() || !home.is_default() {
        args.extend(["--home".to_string(), utf8(&home.root)?]);
    }
    if let Some(cao) = &cli.cao {
        args.extend([
            "--cao".to_string(),
            utf8(&crate::core::fsops::absolute(cao))?,
        ]);
    }
    Ok(args)
}

/// JSON and TOML carry text only: a path that is not UTF-8 would be
/// written as another path.
fn utf8(path: &std::path::Path) -> Result<String, String> {
    path.to_str().map(str::to_string).ok_or_else(|| {
        format!(
            "{} is not UTF-8, and a JSON or TOML snippet cannot carry it: move it to a UTF-8 path and print the snippet again",
            crate::core::text::sanitize_line(&path.to_string_lossy())
        )
    })
}
