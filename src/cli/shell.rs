//! The shell's side: `completions` and `man`, both generated from the
//! same clap definitions the parser uses.

use clap::Args;

use super::output::{Outcome, Output};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    shell: clap_complete::Shell,
}

/// `completions SHELL`: the script for `cli`, the whole command.
pub fn completions(args: &CompletionsArgs, mut cli: clap::Command, out: &mut Output) -> Outcome {
    clap_complete::generate(args.shell, &mut cli, "skilltui", out.raw());
    Ok(())
}

/// `man`: the roff page for `cli`.
pub fn man(cli: clap::Command, out: &mut Output) -> Outcome {
    clap_mangen::Man::new(cli)
        .render(out.raw())
        .map_err(|e| format!("cannot write the man page: {e}"))
}
