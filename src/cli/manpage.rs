//! `skilltui man`: one page with every command, from the clap definitions
//! the parser uses, then the environment, files, exit status and the TUI's
//! keys (from its keymap, the table its help popup shows).

use std::io::Write;

use roff::{Roff, bold, italic, roman};

/// The variables skilltui reads, and what for.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "CAO_HOME_DIR",
        "The CAO home when --home is not given (as CAO reads it).",
    ),
    (
        "SKILLTUI_CAO",
        "The installed CAO when --cao is not given: its package, venv or cao executable.",
    ),
    (
        "SKILLTUI_GIT_TIMEOUT",
        "Seconds a git remote may stay silent before skilltui gives up (default 60).",
    ),
    (
        "CAO_AGENTS_DIR",
        "Where Kiro agent JSON files are (default ~/.kiro/agents), as CAO reads it.",
    ),
    (
        "HOME",
        "The user's home: ~ in paths, the default CAO home, the agents' user dirs.",
    ),
    (
        "XDG_CONFIG_HOME",
        "The config dir: user themes and agents (skilltui/themes, skilltui/agents), the agents pane 3 lists (skilltui/agents-listed).",
    ),
    (
        "SKILLTUI_AGENTS",
        "Agent ids, comma separated, that the TUI's pane 3 lists even when not detected, added to skilltui/agents-listed.",
    ),
    (
        "XDG_CACHE_HOME",
        "The cache dir: where the CAO found on PATH is remembered (skilltui/cao.json).",
    ),
    ("NO_COLOR", "Set: no colour in the TUI."),
    (
        "COLORTERM, TERM",
        "How many colours the terminal shows (truecolor, 256, 16).",
    ),
    (
        "COMPLETE",
        "Set by the completion scripts: the binary answers a completion request.",
    ),
];

/// The files skilltui reads and writes.
const FILES: &[(&str, &str)] = &[
    ("<home>/skills/", "The skill store CAO loads from."),
    (
        "<home>/agent-store/",
        "Agent profiles of the user (profile copy puts built-ins here).",
    ),
    (
        "<home>/skilltui.lock",
        "Skills installed from git, pinned (sync installs them).",
    ),
    (
        "<home>/settings.json",
        "CAO's settings: extra skill and profile dirs.",
    ),
    (
        "$XDG_CONFIG_HOME/skilltui/agents/",
        "The user's own agent definitions.",
    ),
    (
        "$XDG_CONFIG_HOME/skilltui/agents-listed",
        "The agents the TUI's pane 3 lists even when not detected (A saves it; one id a line).",
    ),
    (
        "$XDG_CONFIG_HOME/skilltui/themes/",
        "The user's TUI themes.",
    ),
    (
        "~/.copilot/agents/",
        "Copilot agent files CAO bakes the catalog into (refresh rewrites stale ones).",
    ),
];

const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Success."),
    (
        "1",
        "A user-facing error: one line on stderr starting with error:.",
    ),
    ("2", "Bad usage: an unknown command, flag or value."),
];

/// Writes the page for `cli`.
pub fn write(cli: clap::Command, w: &mut dyn Write) -> std::io::Result<()> {
    let mut cli = cli.disable_help_subcommand(true);
    cli.build();
    let page = clap_mangen::Man::new(cli.clone());
    page.render_title(w)?;
    page.render_name_section(w)?;
    page.render_synopsis_section(w)?;
    page.render_description_section(w)?;
    page.render_options_section(w)?;
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    for sub in cli.get_subcommands() {
        command(&mut roff, sub);
    }
    table(&mut roff, "ENVIRONMENT", ENVIRONMENT);
    table(&mut roff, "FILES", FILES);
    table(&mut roff, "EXIT STATUS", EXIT_STATUS);
    let keys: Vec<_> = crate::tui::keymap::help_rows().collect();
    table(&mut roff, "KEYS (THE TUI)", &keys);
    roff.to_writer(w)?;
    page.render_version_section(w)
}

/// A command's subsection (its usage, what it does, its arguments), then
/// its own commands'.
fn command(roff: &mut Roff, cmd: &clap::Command) {
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string();
    roff.control("SS", [usage.as_str()]);
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        roff.text([roman(about.to_string())]);
    }
    let own = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_global_set() && a.get_id() != "help");
    for arg in own {
        roff.control("TP", []);
        roff.text([bold(flag(arg))]);
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string());
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        let mut text = vec![roman(help.unwrap_or_default())];
        if !values.is_empty() {
            text.push(italic(format!(" [{}]", values.join(", "))));
        }
        roff.text(text);
    }
    if let Some(examples) = cmd.get_after_help() {
        // The Examples section `--help` ends with, one line each.
        for line in examples
            .to_string()
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            roff.control("br", []);
            roff.text([roman(line.trim_end().to_string())]);
        }
    }
    for sub in cmd.get_subcommands() {
        command(roff, sub);
    }
}

/// `--json`, `--agent <ID>`, or `<NAME>`.
fn flag(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|v| v.first())
        .map_or_else(|| arg.get_id().as_str().to_uppercase(), |v| v.to_string());
    match arg.get_long() {
        Some(long) if arg.get_action().takes_values() => format!("--{long} <{value}>"),
        Some(long) => format!("--{long}"),
        None => format!("<{value}>"),
    }
}

fn table(roff: &mut Roff, title: &str, rows: &[(&str, &str)]) {
    roff.control("SH", [title]);
    for (name, what) in rows {
        roff.control("TP", []);
        roff.text([bold(*name)]);
        roff.text([roman(*what)]);
    }
}
