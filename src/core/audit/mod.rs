//! `audit`: a static, offline look at what a skill folder holds, for the
//! signs of a hostile skill (hidden text, instructions against the user,
//! exfiltration, remote code, destructive commands, encoded payloads, and
//! what it carries). It runs nothing and reads nothing outside the folder:
//! a link out is itself a finding, never followed.
//!
//! In order: `rules` (the one table), `files` (the walk and the capped
//! reads), `context` (what a file is, code or prose), `markdown` (a
//! Markdown file's places, by pulldown-cmark), `normalize` (text as a
//! model reads it), `chars` (hidden characters), `words` (words against
//! the user), `shell` and `flow` (shell read, then followed from source
//! to sink), `pyjs` (the same for Python and JavaScript), `vendors` (the
//! vendor installers), `patterns` (each file judged where its lines
//! stand), `orders`, `encoded` and `typosquat` (orders in places and
//! forms the line rules do not read), `skill_md` (frontmatter and
//! references), then [`scan`] here,
//! which ties them into a [`Report`] and applies the severity policy.

pub mod finding;
pub mod rules;

mod chars;
mod configs;
mod context;
mod encoded;
mod files;
mod flow;
mod markdown;
mod normalize;
mod orders;
mod packages;
mod patterns;
mod pyjs;
mod set;
mod shell;
mod skill_md;
mod typosquat;
mod vendors;
mod words;

use std::path::Path;

use serde::Serialize;

pub use finding::{Finding, Severity};
pub use rules::{RULES, Rule};

/// What one skill folder holds, as far as the audit sees.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Worst first, then by file and line.
    pub findings: Vec<Finding>,
    /// Files looked at, and the bytes read from them.
    pub files: usize,
    pub bytes: u64,
}

impl Report {
    /// The highest severity found (`None`: nothing found).
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// The first finding of the worst severity.
    pub fn worst_finding(&self) -> Option<&Finding> {
        self.findings.first()
    }

    pub fn at_least(&self, min: Severity) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.severity >= min)
    }

    /// The findings of `self` that `before` (the installed version's
    /// report) does not have, compared by rule, file and excerpt (lines
    /// move when text is added above).
    pub fn added_since<'a>(&'a self, before: &Report) -> Vec<&'a Finding> {
        let key = |f: &Finding| (f.rule, f.file.clone(), f.excerpt.clone());
        let old: std::collections::HashSet<_> = before.findings.iter().map(key).collect();
        self.findings
            .iter()
            .filter(|f| !old.contains(&key(f)))
            .collect()
    }
}

/// The text a severity label is shown with: `none` for no finding.
pub fn worst_label(worst: Option<Severity>) -> &'static str {
    worst.map_or("none", Severity::label)
}

/// How many skills have each worst severity (`doctor`'s count).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub critical: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub none: usize,
}

impl Counts {
    /// Audits each folder and counts it under its worst severity.
    pub fn of<'a>(folders: impl IntoIterator<Item = &'a Path>) -> Counts {
        let mut counts = Counts::default();
        for folder in folders {
            *match scan(folder).worst() {
                Some(Severity::Critical) => &mut counts.critical,
                Some(Severity::High) => &mut counts.high,
                Some(Severity::Medium) => &mut counts.medium,
                Some(Severity::Low) => &mut counts.low,
                None => &mut counts.none,
            } += 1;
        }
        counts
    }

    pub fn total(&self) -> usize {
        self.critical + self.high + self.medium + self.low + self.none
    }
}

/// Findings of one rule in one file past this are not listed one by one.
const PER_RULE_FILE: usize = 5;

/// Audits the skill folder `folder`: every file, text files for content.
pub fn scan(folder: &Path) -> Report {
    let mut report = Report::default();
    let mut out = Vec::new();
    let walked = files::walk(folder, &mut out);
    let mut sends = Vec::new();
    let mut creds = Vec::new();
    let mut budget = files::SKILL_CAP;
    let own = own_names(folder, &walked);
    let mut follow = orders::Follow::default();
    for file in &walked {
        if budget == 0 {
            out.push(Finding::new(
                "not-fully-scanned",
                &file.rel,
                None,
                format!(
                    "the skill is over the {} MiB the audit reads: this file and the rest were not read",
                    files::SKILL_CAP >> 20
                ),
            ));
            break;
        }
        let Some(read) = files::read(&mut budget, file, &mut out) else {
            continue;
        };
        report.files += 1;
        report.bytes += read.bytes;
        let Some(text) = read.text else {
            continue;
        };
        let kind = context::Kind::of(&file.rel, &text);
        if kind == context::Kind::Script {
            out.push(Finding::new(
                "script-file",
                &file.rel,
                None,
                "a script an agent may run: read it before trusting the skill".into(),
            ));
        }
        let mut found = patterns::FileScan::new(&file.rel);
        found.own.clone_from(&own);
        chars::scan(&file.rel, &text, &mut found.findings);
        found.lines(&text, kind);
        orders::read(&file.rel, &text, kind, &mut found.findings, &mut follow);
        if let Some(c) = &found.cred {
            creds.push((file.rel.clone(), c.clone()));
        }
        if let Some(s) = &found.send {
            sends.push((file.rel.clone(), s.clone()));
        }
        out.extend(found.finish());
        if file.rel == "SKILL.md" {
            skill_md::scan(folder, &text, &walked, &mut out);
        }
    }
    follow.apply(&mut out);
    patterns::across_files(&creds, &sends, &mut out);
    policy(&mut out);
    report.findings = tidy(out);
    report
}

/// The skill's own names: its folder's and its frontmatter `name`.
fn own_names(folder: &Path, walked: &[files::File]) -> Vec<String> {
    use std::io::Read;
    let mut names: Vec<String> = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .into_iter()
        .collect();
    let mut head = Vec::new();
    if let Some(f) = walked.iter().find(|f| f.rel == "SKILL.md")
        && let Ok((handle, _)) = crate::core::fsops::open_regular(&f.path)
    {
        // The frontmatter is at the top; its first 16 KiB are enough.
        let _ = handle.take(16 << 10).read_to_end(&mut head);
    }
    let head = String::from_utf8_lossy(&head);
    let norm = crate::core::parse::frontmatter::Normalized::new(&head);
    if let Ok(fm) = crate::core::parse::frontmatter::parse_head(&norm.text)
        && let Some(name) = fm.get("name").and_then(|n| n.value.as_str())
    {
        names.push(name.to_string());
    }
    names
}

/// What one finding is worth beside the others: an unrestricted shell
/// grant is high when the skill has another medium-or-worse finding (the
/// grant pre-approves what that finding runs).
fn policy(out: &mut [Finding]) {
    let other = out
        .iter()
        .any(|f| f.rule != "unrestricted-shell" && f.severity >= Severity::Medium);
    if other {
        for f in out.iter_mut().filter(|f| f.rule == "unrestricted-shell") {
            f.severity = Severity::High;
            f.message
                .push_str(", and the skill has another medium-or-worse finding");
        }
    }
}

/// Worst first, at most [`PER_RULE_FILE`] per rule and file.
fn tidy(mut out: Vec<Finding>) -> Vec<Finding> {
    out.sort_by(|a, b| {
        (b.severity, &a.file, a.line, a.rule).cmp(&(a.severity, &b.file, b.line, b.rule))
    });
    let mut seen: std::collections::HashMap<(&'static str, String), usize> =
        std::collections::HashMap::new();
    out.retain(|f| {
        let n = seen.entry((f.rule, f.file.clone())).or_default();
        *n += 1;
        *n <= PER_RULE_FILE
    });
    out
}

#[cfg(test)]
mod cases;
#[cfg(test)]
mod tests;
