//! `doctor`: why CAO sees what it sees.

use std::path::Path;

use clap::Args;

use super::output::{Outcome, Output};
use crate::core::cao::store::Home;
use crate::core::doctor;
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct DoctorArgs {
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
}

/// `doctor [--json]`; `named` is the `--home` given, if any.
pub fn run(home: &Home, named: Option<&Path>, args: &DoctorArgs, out: &mut Output) -> Outcome {
    let clipboard = crate::tui::clipboard::ClipEnv::from_env().describe();
    let report = doctor::report(home, named, clipboard);
    doctor_print(&report, args.json, out);
    Ok(())
}

fn doctor_print(r: &doctor::Report, json: bool, out: &mut Output) {
    if json {
        out.line(&serde_json::to_string_pretty(r).unwrap_or_default());
        return;
    }
    // Each line is one fact: a newline inside a path or a name must not
    // start a line of its own.
    for line in doctor_lines(r) {
        out.line(&sanitize_line(&line));
    }
}

fn doctor_lines(r: &doctor::Report) -> Vec<String> {
    let mark = |d: &doctor::Dir| if d.exists { "" } else { "  (missing)" };
    let mut lines = vec![
        format!("home        {} (from {})", r.home.display(), r.home_from),
        format!("store       {}", r.store.display()),
    ];
    for d in &r.extra_dirs {
        lines.push(format!("extra dir   {}{}", d.path.display(), mark(d)));
    }
    for d in &r.profile_dirs {
        let label = d.label.as_deref().unwrap_or("");
        let (path, missing) = (d.path.display(), mark(d));
        lines.push(format!("profiles    {path} ({label}){missing}"));
    }
    lines.push(match (&r.cao.package, &r.cao.version) {
        (Some(p), v) => format!(
            "cao         {} {} (via {})",
            v.as_deref().unwrap_or("(unknown version)"),
            p.display(),
            r.cao.how
        ),
        (None, _) => format!("cao         not found: {}", r.cao.how),
    });
    let git = r.git.as_ref().map(|g| g.display().to_string());
    lines.push(format!(
        "git         {}",
        git.as_deref().unwrap_or("not on PATH")
    ));
    lines.push(format!("clipboard   {}", r.clipboard));
    let verified = r.agents.iter().filter(|a| a.verified.is_some()).count();
    lines.push(format!(
        "agents      {} known, {verified} verified by an oracle test (the rest documented: `skilltui agents`)",
        r.agents.len()
    ));
    for a in r.agents.iter().filter(|a| a.detected) {
        let how = match (&a.verified, &a.documented) {
            (Some(v), _) => format!("verified: {v}"),
            (None, Some(d)) => format!("documented: {d}"),
            (None, None) => String::new(),
        };
        lines.push(format!("agent       {}  {how}", a.id));
    }
    let a = &r.audit;
    lines.push(format!(
        "audit       {} skill(s): {} critical, {} high, {} medium, {} low, {} none (`skilltui audit` lists the findings)",
        a.total(),
        a.critical,
        a.high,
        a.medium,
        a.low,
        a.none
    ));
    lines.push(format!("colours     {}", r.colours));
    lines.extend(r.warnings.iter().map(|w| format!("warning     {w}")));
    if r.warnings.is_empty() {
        lines.push("warnings    none".into());
    }
    lines
}
