//! The shell's side: `completions` and `man`, both generated from the
//! same clap definitions the parser uses.

use clap::Args;
use clap_complete::env::Shells;

use super::output::{Outcome, Output};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to print the script for
    shell: clap_complete::Shell,
}

/// The variable that makes the binary answer a completion request
/// (clap_complete's `CompleteEnv`, which `main` runs first).
pub const COMPLETE_VAR: &str = "COMPLETE";

/// `completions SHELL`: the script that registers skilltui with the shell.
/// The shell then asks the binary itself, so skill, profile, agent and
/// provider names come from the home on the line being completed.
pub fn completions(args: &CompletionsArgs, cli: &clap::Command, out: &mut Output) -> Outcome {
    let shell = args.shell.to_string();
    let shells = Shells::builtins();
    let completer = shells
        .completer(&shell)
        .ok_or_else(|| format!("no completion for {shell}"))?;
    let name = cli.get_name();
    completer
        .write_registration(COMPLETE_VAR, name, name, &invoked_as(), out.raw())
        .map_err(|e| format!("cannot write the completion script: {e}"))
}

/// The binary as the user ran it, made absolute when given by a path, as
/// `COMPLETE=SHELL skilltui` would print it.
fn invoked_as() -> String {
    let argv0 = std::env::args_os()
        .next()
        .unwrap_or_else(|| "skilltui".into());
    let path = std::path::PathBuf::from(argv0);
    let path = match std::env::current_dir() {
        Ok(cwd) if path.components().count() > 1 => cwd.join(path),
        _ => path,
    };
    path.to_string_lossy().into_owned()
}

/// `man`: the roff page for `cli`, every command on it.
pub fn man(cli: clap::Command, out: &mut Output) -> Outcome {
    super::manpage::write(cli, out.raw()).map_err(|e| format!("cannot write the man page: {e}"))
}
