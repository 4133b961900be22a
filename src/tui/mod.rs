//! The terminal UI: state, panes, dialogs, rendering and keys. It calls the
//! core for every rule.

use crate::cli::Cli;
use crate::core::store::{self, Home};

/// Entry point for `skilltui` with no command. The interactive panes are
/// not built yet (issue 3); until then this prints where things stand and
/// what to run, so the first command on a new machine is still useful.
pub fn run(cli: &Cli) -> Result<(), String> {
    let home = Home::locate(cli.home.as_deref());
    let listing = store::list(&home, false);
    let valid = listing.valid().count();
    let profiles = crate::core::profile::list(&home).len();
    println!("skilltui: CAO home {}", home.root.display());
    println!(
        "  {valid} valid skill(s), {} other folder(s), {profiles} profile(s)",
        listing.entries.len() - valid
    );
    if valid == 0 {
        println!(
            "  no skills yet: `skilltui init` seeds the {} defaults",
            store::defaults(&home).len()
        );
    }
    println!(
        "The interactive panes are under construction; the CLI is complete: `skilltui --help`."
    );
    Ok(())
}
