use std::process::ExitCode;

use clap::Parser;
use skilltui::cli::{self, Cli};
use skilltui::core::text::sanitize_line;

fn main() -> ExitCode {
    let args = Cli::parse();
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
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", sanitize_line(&e));
            ExitCode::from(1)
        }
    }
}
