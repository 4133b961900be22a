use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use skilltui::cli::{self, Cli};
use skilltui::core::text::{sanitize, sanitize_line};

fn main() -> ExitCode {
    // A shell asking for completions (COMPLETE=SHELL) is answered, then exit.
    clap_complete::CompleteEnv::with_factory(Cli::command)
        .var(cli::shell::COMPLETE_VAR)
        .complete();
    let args = match Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    let result = match &args.command {
        Some(command) => {
            cli::end_git_on_signals();
            cli::run(&args, command)
        }
        None => skilltui::tui::run(
            args.theme.as_deref(),
            args.home.as_deref(),
            args.cao.as_deref(),
        ),
    };
    let code = match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", sanitize_line(&e));
            ExitCode::from(1)
        }
    };
    // The answer is out: only now wait for the scratch checkouts still
    // being removed.
    skilltui::core::sources::git::finish_removals();
    // Ctrl-C stopped the command, which then cleaned up: exit as a shell
    // expects of a command ended by that signal (130 for SIGINT).
    if let Some(signal) = skilltui::core::sources::interrupt::signal() {
        return ExitCode::from(u8::try_from(128 + signal).unwrap_or(130));
    }
    code
}

/// Clap's help and version as clap prints them; a usage error as plain
/// text with the arguments it quotes sanitized, since they may hold escape
/// sequences a terminal would act on (exit 2).
fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    // `to_string` is the message without clap's styling.
    eprint!("{}", sanitize(&e.to_string()));
    ExitCode::from(e.exit_code() as u8)
}
