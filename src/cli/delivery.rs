//! What a profile's agent receives: `catalog`, `delivery`, `refresh`.

use clap::{Args, ValueEnum};

use super::agents;
use super::names;
use super::output::{Outcome, Output, note, warn};
use crate::core::cao::catalog::{self, Format};
use crate::core::cao::store::{self, Home};
use crate::core::delivery;
use crate::core::delivery::model::{self, Delivery, Kind};
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct CatalogArgs {
    /// The agent profile (`skilltui profile list` names them)
    #[arg(required_unless_present = "agent", add = names::profiles())]
    profile: Option<String>,
    /// What this agent's model is shown about skills instead
    #[arg(long, value_name = "ID", conflicts_with = "profile", add = names::agents())]
    agent: Option<String>,
    /// The catalog's format: CAO's block, the first skills design's, the
    /// Agent Skills XML, or an ACP notification
    #[arg(long, value_enum, default_value_t = FormatArg::Cao)]
    format: FormatArg,
    /// Print the prompt text skills are part of (body, blank line, block)
    #[arg(long)]
    prompt: bool,
    /// Deliver as this CAO provider (as `cao launch --provider` does)
    #[arg(long, value_name = "P", value_parser = provider_arg())]
    provider: Option<String>,
}

#[derive(Args, Debug)]
pub struct DeliveryArgs {
    /// The agent profile (`skilltui profile list` names them)
    #[arg(add = names::profiles())]
    profile: String,
    /// Deliver as this CAO provider (as `cao launch --provider` does)
    #[arg(long, value_name = "P", value_parser = provider_arg())]
    provider: Option<String>,
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
}

/// CAO's providers: anything else is a usage error (exit 2) listing them.
fn provider_arg() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(delivery::agent::PROVIDERS)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    Cao,
    V1,
    Xml,
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Cao => Format::Cao,
            FormatArg::V1 => Format::V1,
            FormatArg::Xml => Format::Xml,
            FormatArg::Json => Format::Json,
        }
    }
}

/// `catalog PROFILE`, or with `--agent` what that agent's model is shown.
pub fn run_catalog(home: &Home, args: &CatalogArgs, out: &mut Output) -> Outcome {
    if let Some(id) = &args.agent {
        return agents::with_table(home, out, |table, ctx| agents::catalog(table, ctx, id));
    }
    let profile = args.profile.as_deref().unwrap_or_default();
    let provider = args.provider.as_deref();
    catalog(
        home,
        profile,
        args.format.into(),
        args.prompt,
        provider,
        out,
    )
}

/// The one note for a provider that gets no catalog: what it gets, what
/// `--prompt` printed, and the command that shows the catalog under a
/// provider that gets one.
fn no_catalog(name: &str, a: &delivery::agent::Agent, d: &Delivery, prompt: bool) -> String {
    let mut text = d.why.clone();
    let own_prompt = d.prompt.as_deref().is_some_and(|p| !p.is_empty());
    match (prompt, d.delivery) {
        (true, Kind::SkillResource) if own_prompt => {
            text.push_str("; --prompt printed the prompt Kiro gets: the profile's `prompt:`");
        }
        (true, Kind::SkillResource) => {
            text.push_str("; the profile has no `prompt:`, so Kiro gets no prompt");
        }
        _ => {}
    }
    let gets_one = delivery::agent::PROVIDERS
        .iter()
        .find(|p| model::kind_of(p, a) == Kind::Prompt);
    if let Some(p) = gets_one {
        text.push_str(&format!(
            "; `skilltui catalog {name} --provider {p}` shows the catalog a provider that gets one receives"
        ));
    }
    text
}

/// `delivery PROFILE [--provider P] [--json]`.
pub fn run_delivery(home: &Home, args: &DeliveryArgs, out: &mut Output) -> Outcome {
    let provider = args.provider.as_deref();
    delivery_print(home, &args.profile, provider, args.json, out)
}

fn catalog(
    home: &Home,
    name: &str,
    format: Format,
    prompt: bool,
    provider: Option<&str>,
    out: &mut Output,
) -> Outcome {
    let a = delivery::agent::load(home, name)?;
    if let Some(problem) = &a.unread {
        warn(problem);
    }
    let listing = store::list(home, false);
    let d = model::compute(home, &listing, &a, provider)?;
    let Some(block) = &d.catalog else {
        note(&no_catalog(name, &a, &d, prompt));
        if let Some(text) = d.prompt.as_deref().filter(|p| prompt && !p.is_empty()) {
            out.line(text);
        }
        return Ok(());
    };
    // Copilot's baked catalog ignores `skills:`; only a filter applies.
    let skills = a.skills.as_deref().filter(|_| d.filtered);
    if skills.is_some() {
        for pattern in &catalog::select(&listing, skills).unmatched {
            warn(&format!(
                "pattern '{pattern}' in profile '{name}' matches no installed skill"
            ));
        }
    }
    let text = match (format, prompt) {
        (Format::Cao, false) => block.clone(),
        (Format::Cao, true) => d.prompt.clone().unwrap_or_default(),
        (_, false) => catalog::render(format, &listing, skills, name)?,
        (_, true) => {
            catalog::compose_prompt(&a.body, &catalog::render(format, &listing, skills, name)?)
        }
    };
    if !text.is_empty() {
        out.line(&text);
    }
    Ok(())
}

fn delivery_print(
    home: &Home,
    name: &str,
    provider: Option<&str>,
    json: bool,
    out: &mut Output,
) -> Outcome {
    let d = model::for_profile(home, name, provider)?;
    if json {
        out.line(&serde_json::to_string_pretty(&d).unwrap_or_default());
        return Ok(());
    }
    for line in delivery_lines(&d) {
        out.line(&sanitize_line(&line));
    }
    if let Some(block) = d.catalog.as_deref().filter(|c| !c.is_empty()) {
        out.line("");
        out.line(block);
    }
    Ok(())
}

fn delivery_lines(d: &Delivery) -> Vec<String> {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut lines = vec![
        format!("profile     {}", d.profile),
        format!("provider    {} ({})", d.provider, d.provider_source.label()),
        format!("delivery    {}", d.delivery.label()),
        format!("how         {}", d.why),
        format!(
            "filtered    {} (by the profile's `skills:` list)",
            yes_no(d.filtered)
        ),
        format!("extra dirs  {}", yes_no(d.extra_dirs)),
    ];
    lines.extend(d.resources.iter().map(|r| format!("resource    {r}")));
    for r in &d.reaches {
        let mark = r.mark();
        let sep = if mark.is_empty() { "" } else { "  " };
        lines.push(format!("skill       {}{sep}{mark}", r.skill));
    }
    if let Some(i) = &d.installed {
        lines.push(format!("installed   {} ({})", i.path.display(), i.state()));
    }
    match (&d.catalog, &d.prompt) {
        (Some(c), _) => lines.push(format!("catalog     {} chars", c.chars().count())),
        (None, Some(p)) => lines.push(format!("prompt      {} chars", p.chars().count())),
        (None, None) => {}
    }
    lines
}

/// Rewrites CAO-managed Copilot files whose baked catalog is stale. After
/// a change (`verbose` false) it only says what it rewrote, on stderr.
pub fn refresh_copilot(home: &Home, verbose: bool) -> Outcome {
    let done = delivery::copilot::refresh(home);
    let mut out = Output::stdout();
    for path in &done.rewritten {
        let line = format!("refreshed {} (its baked catalog was stale)", path.display());
        if verbose {
            out.line(&sanitize_line(&line));
        } else {
            note(&line);
        }
    }
    if verbose {
        for (path, why) in &done.skipped {
            out.line(&sanitize_line(&format!(
                "left alone {}: {why}",
                path.display()
            )));
        }
        out.line(&format!(
            "{} CAO-managed Copilot agent file(s), {} rewritten",
            done.managed.len(),
            done.rewritten.len()
        ));
    }
    match done.stopped {
        Some(why) if verbose => Err(why),
        Some(why) => {
            warn(&format!("Copilot agents not refreshed: {why}"));
            Ok(())
        }
        None => Ok(()),
    }
}
