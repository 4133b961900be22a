use std::process::ExitCode;

use clap::Parser;
use skilltui::cli::{self, Cli};
use skilltui::core::text::sanitize_line;

fn main() -> ExitCode {
    let args = Cli::parse();
    let result = match &args.command {
        Some(command) => cli::run(&args, command),
        None => skilltui::tui::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", sanitize_line(&e));
            ExitCode::from(1)
        }
    }
}
