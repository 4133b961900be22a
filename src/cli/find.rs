//! `find QUERY`: the registry's search, each result marked with whether
//! it is installed here, and how to install one.

use clap::Args;

use super::output::{Outcome, Output, warn};
use crate::core::cao::store::Home;
use crate::core::sources::search::{self, Installed};
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct FindArgs {
    /// Words to search for
    #[arg(required = true)]
    query: Vec<String>,
    /// At most this many results (1 to 100)
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(1..=100))]
    limit: u8,
    /// Only this owner's skills
    #[arg(long, value_name = "OWNER")]
    owner: Option<String>,
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
}

/// `find QUERY [--limit N] [--owner O] [--json]`.
pub fn run(home: &Home, args: &FindArgs, out: &mut Output) -> Outcome {
    let query = args.query.join(" ");
    if let Some(w) = search::api_warning() {
        warn(&w);
    }
    let hits = search::find(
        home,
        &query,
        usize::from(args.limit),
        args.owner.as_deref(),
        None,
    )?;
    if args.json {
        let items: Vec<_> = hits
            .iter()
            .map(|h| {
                serde_json::json!({
                    "name": h.name,
                    "source": h.source,
                    "installs": h.installs,
                    "installed": h.installed,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&items).unwrap_or_default());
        return Ok(());
    }
    if hits.is_empty() {
        return Err(format!(
            "no skills found for '{}': try other words",
            sanitize_line(&query)
        ));
    }
    // Names and sources come from the network: one line each, always.
    let name = |s: &str| sanitize_line(s).into_owned();
    let width = hits
        .iter()
        .map(|h| name(&h.name).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let src_width = (hits.iter().map(|h| name(&h.source).chars().count()))
        .max()
        .unwrap_or(6)
        .max(6);
    out.line(&format!(
        "{:width$}  {:src_width$}  {:>8}  Installed",
        "Name", "Source", "Installs"
    ));
    for h in &hits {
        let installed = match h.installed {
            Installed::No => "",
            Installed::Current => "yes, current",
            Installed::Modified => "yes, modified",
            Installed::Other => "another of that name",
        };
        out.line(&format!(
            "{:width$}  {:src_width$}  {:>8}  {installed}",
            name(&h.name),
            name(&h.source),
            h.installs
        ));
    }
    out.line("");
    out.line("Install one with: skilltui add SOURCE --skill NAME");
    Ok(())
}
