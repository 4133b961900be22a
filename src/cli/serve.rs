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
            command(),
            global_args(cli),
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
fn command() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| "skilltui".into())
}

/// `--home` and `--cao` as given, absolute: the agent starts the server
/// from its own working directory.
fn global_args(cli: &Cli) -> Vec<String> {
    let mut args = Vec::new();
    for (flag, value) in [("--home", &cli.home), ("--cao", &cli.cao)] {
        if let Some(v) = value {
            args.push(flag.to_string());
            args.push(
                crate::core::fsops::absolute(v)
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    args
}
