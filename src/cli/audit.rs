//! `audit [PATH|NAME…] [--agent ID] [--format text|json|sarif]
//! [--min-severity S]`: what the core's audit finds in skills, grouped by
//! skill, worst first; exit 1 when any skill has a high or critical
//! finding.

mod sarif;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;

use super::output::{Outcome, Output, warn};
use crate::core::agents::discover;
use crate::core::audit::{self, Report, Severity};
use crate::core::cao::store::{self, Home};
use crate::core::sources::source;
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Skill folders, folders of skills, or store skills by name (default:
    /// every skill in the store and the extra dirs)
    #[arg(value_name = "PATH|NAME")]
    targets: Vec<String>,
    /// Audit the skills this agent finds instead
    #[arg(long, value_name = "ID", conflicts_with = "targets")]
    agent: Option<String>,
    /// Print JSON for scripts instead of text (`--format json`)
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// text, json, or sarif (SARIF 2.1.0, for code scanning in CI)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    format: Format,
    /// Show findings of this severity or worse (low, medium, high, critical)
    #[arg(long, value_name = "S", default_value = "low", value_parser = Severity::parse)]
    min_severity: Severity,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Sarif,
}

/// One audited skill.
struct Audited {
    name: String,
    path: PathBuf,
    report: Report,
}

/// A skill folder to audit, with its report when discovery already made it.
type Target = (String, PathBuf, Option<Report>);

pub fn run(home: &Home, args: &AuditArgs, out: &mut Output) -> Outcome {
    let skills: Vec<Target> = match &args.agent {
        Some(id) => unaudited(of_agent(home, id)?),
        None if args.targets.is_empty() => unaudited(of_store(home)),
        None => of_targets(home, &args.targets)?,
    };
    let mut skills: Vec<Audited> = skills
        .into_iter()
        .map(|(name, path, report)| Audited {
            report: report.unwrap_or_else(|| audit::scan(&path)),
            name,
            path,
        })
        .collect();
    skills.sort_by(|a, b| {
        b.report
            .worst()
            .cmp(&a.report.worst())
            .then(a.name.cmp(&b.name))
            .then(a.path.cmp(&b.path))
    });
    match (args.json, args.format) {
        (true, _) | (_, Format::Json) => print_json(&skills, args.min_severity, out),
        (_, Format::Sarif) => print_sarif(&skills, args.min_severity, out),
        (_, Format::Text) => print_text(&skills, args.min_severity, out),
    }
    let alarming = skills
        .iter()
        .filter(|s| s.report.worst().is_some_and(Severity::alarming))
        .count();
    match alarming {
        0 => Ok(()),
        n => Err(format!(
            "{n} of {} skill(s) have high or critical findings: read them before an agent does",
            skills.len()
        )),
    }
}

/// Every skill folder in the store and the extra dirs, shadowed or not.
fn of_store(home: &Home) -> Vec<(String, PathBuf)> {
    store::list(home, false)
        .entries
        .iter()
        .map(|e| (e.name().to_string(), e.checked.path.clone()))
        .collect()
}

fn of_agent(home: &Home, id: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let (table, ctx, warnings) = super::agents::open(home);
    for w in &warnings {
        warn(w);
    }
    let agent = table.find(id)?;
    let finds = discover::find(agent, &ctx);
    // Skills bundled in the agent's program have no folder to read.
    let on_disk = |c: &&discover::Candidate| !finds.places.get(c.place).is_some_and(|p| p.builtin);
    Ok(finds
        .candidates
        .iter()
        .filter(on_disk)
        .map(|c| (c.name.clone(), folder_of(&c.path)))
        .collect())
}

/// A SKILL.md's folder, or the folder itself.
fn folder_of(path: &Path) -> PathBuf {
    match path.file_name() {
        Some(n) if n == "SKILL.md" => path.parent().unwrap_or(path).to_path_buf(),
        _ => path.to_path_buf(),
    }
}

fn unaudited(skills: Vec<(String, PathBuf)>) -> Vec<Target> {
    skills.into_iter().map(|(n, p)| (n, p, None)).collect()
}

/// A PATH is a skill folder or a folder of skills; anything else names a
/// store skill.
fn of_targets(home: &Home, targets: &[String]) -> Result<Vec<Target>, String> {
    let mut out = Vec::new();
    for t in targets {
        let path = store::expand_user(Path::new(t), &home.user_home);
        if path.is_dir() {
            let found = source::discover(&path, home, source::Rules::default());
            if found.is_empty() {
                return Err(format!(
                    "no skills in {}: a skill is a folder with a SKILL.md",
                    path.display()
                ));
            }
            out.extend(every_folder(&path, found));
            continue;
        }
        let name = store::check_name(t).map_err(|_| not_found(t))?;
        let dest = home.skills_dir().join(&name);
        if !dest.is_dir() {
            return Err(not_found(t));
        }
        out.push((name, dest, None));
    }
    Ok(out)
}

/// Every skill folder discovery found under `root`, those sharing a name
/// included: an install refuses the clash, but each of them is a skill an
/// agent may read, and each is audited (discovery's own report is kept).
fn every_folder(root: &Path, found: Vec<source::Found>) -> Vec<Target> {
    let mut out = Vec::new();
    for f in found {
        let name = f.name();
        out.extend(
            f.also_at
                .iter()
                .map(|rel| (name.clone(), root.join(rel), None)),
        );
        out.push((name, f.checked.path, Some(f.audit)));
    }
    out
}

fn not_found(t: &str) -> String {
    format!(
        "'{}' is neither a folder nor a skill in the store: give a path or a name `skilltui list` shows",
        sanitize_line(t)
    )
}

fn print_text(skills: &[Audited], min: Severity, out: &mut Output) {
    for s in skills {
        let worst = audit::worst_label(s.report.worst());
        out.line(&format!(
            "{worst:8}  {}  ({})",
            sanitize_line(&s.name),
            sanitize_line(&s.path.to_string_lossy())
        ));
        for f in s.report.at_least(min) {
            out.line(&format!("  {}", f.summary()));
            if !f.excerpt.is_empty() {
                out.line(&format!("      {}", f.excerpt));
            }
        }
    }
    if skills.is_empty() {
        warn("no skills to audit");
    }
}

fn print_json(skills: &[Audited], min: Severity, out: &mut Output) {
    let rows: Vec<_> = skills
        .iter()
        .map(|s| {
            let findings: Vec<_> = s
                .report
                .at_least(min)
                .map(|f| {
                    json!({
                        "rule": f.rule,
                        "severity": f.severity,
                        "file": f.file,
                        "line": f.line,
                        "message": f.message,
                        "excerpt": f.excerpt,
                    })
                })
                .collect();
            json!({
                "name": s.name,
                "path": s.path.to_string_lossy(),
                "severity": audit::worst_label(s.report.worst()),
                "findings": findings,
            })
        })
        .collect();
    out.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
}

fn print_sarif(skills: &[Audited], min: Severity, out: &mut Output) {
    let results = skills
        .iter()
        .flat_map(|s| sarif::results(&s.name, &s.path, &s.report, min))
        .collect();
    let log = sarif::log(results);
    out.line(&serde_json::to_string_pretty(&log).unwrap_or_default());
}
