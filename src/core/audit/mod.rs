//! `audit`: a static, offline look at what a skill folder holds, for the
//! signs of a hostile skill (hidden text, instructions against the user,
//! exfiltration, remote code, destructive commands, encoded payloads, and
//! what it carries). It runs nothing and reads nothing outside the folder:
//! a link out is itself a finding, never followed.
//!
//! In order: `rules` (the one table), `files` (the walk and the capped
//! reads), `context` (code or prose, line by line), `chars` (hidden
//! characters), `patterns` (the line rules), `skill_md` (frontmatter and
//! references), then [`scan`] here, which ties them into a [`Report`].

pub mod rules;

mod chars;
mod context;
mod files;
mod patterns;
mod skill_md;

use std::path::Path;

use serde::Serialize;

pub use rules::{RULES, Rule};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 4] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    pub fn parse(text: &str) -> Result<Severity, String> {
        Severity::ALL
            .into_iter()
            .find(|s| s.label() == text)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a severity: give low, medium, high or critical",
                    crate::core::text::sanitize_line(text)
                )
            })
    }

    /// High and critical: what `audit` exits 1 for and the TUI marks.
    pub fn alarming(self) -> bool {
        self >= Severity::High
    }
}

/// One thing found. `file` is relative to the skill folder, with `/`;
/// `line` counts from 1 (`None`: the file as a whole). `excerpt` is
/// sanitized and short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
    pub excerpt: String,
}

impl Finding {
    /// `rule` at `file:line`, severity from the table.
    fn new(rule: &'static str, file: &str, line: Option<usize>, message: String) -> Finding {
        Finding {
            rule: rules::rule(rule).id,
            severity: rules::rule(rule).severity,
            file: file.to_string(),
            line,
            message,
            excerpt: String::new(),
        }
    }

    fn with_excerpt(mut self, line: &str, at: usize) -> Finding {
        self.excerpt = excerpt(line, at);
        self
    }

    /// `file:line`, or `file` for the file as a whole.
    pub fn place(&self) -> String {
        let file = crate::core::text::sanitize_line(&self.file);
        match self.line {
            Some(l) => format!("{file}:{l}"),
            None => file.into_owned(),
        }
    }

    /// One line for a person: `high pipe-to-shell scripts/x.sh:3: message`.
    pub fn summary(&self) -> String {
        format!(
            "{} {} {}: {}",
            self.severity.label(),
            self.rule,
            self.place(),
            self.message
        )
    }
}

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
        chars::scan(&file.rel, &text, &mut found.findings);
        found.lines(&text, kind);
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
    patterns::across_files(&creds, &sends, &mut out);
    report.findings = tidy(out);
    report
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

/// The excerpt's widest, in characters.
const EXCERPT_CHARS: usize = 80;

/// Up to [`EXCERPT_CHARS`] of `line` around byte `at`, sanitized, with
/// hidden characters shown by code point.
fn excerpt(line: &str, at: usize) -> String {
    let at = at.min(line.len());
    let start = line[..at]
        .char_indices()
        .rev()
        .nth(EXCERPT_CHARS / 4)
        .map_or(0, |(i, _)| i);
    let mut shown = String::new();
    let mut n = 0;
    for c in line[start..].chars() {
        if n >= EXCERPT_CHARS {
            shown.push('…');
            break;
        }
        if chars::is_hidden(c) {
            let code = format!("<U+{:04X}>", c as u32);
            n += code.len();
            shown.push_str(&code);
        } else {
            shown.push(c);
            n += 1;
        }
    }
    let shown = crate::core::text::sanitize_line(shown.trim());
    if start > 0 {
        format!("…{shown}")
    } else {
        shown.into_owned()
    }
}

#[cfg(test)]
mod tests;
