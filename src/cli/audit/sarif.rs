//! `audit --format sarif`: the findings as one SARIF 2.1.0 log (OASIS
//! Static Analysis Results Interchange Format), which code-scanning UIs
//! show inline on a pull request. Every rule of the table is listed with
//! its id, its help text from the table and its level; each result points
//! at the file and line, relative to the working directory when it lies
//! under it (as a repository's checkout does in CI).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::core::audit::{self, RULES, Rule, Severity};

/// The schema the log names (SchemaStore's copy of the OASIS schema).
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF level of a severity: high and critical are errors (what
/// `audit` exits 1 for), medium a warning, low a note.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

/// GitHub code scanning's `security-severity` score for a severity: it
/// reads > 9.0 as critical, 7.0-8.9 high, 4.0-6.9 medium, below low.
fn security_severity(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.0",
        Severity::Low => "2.0",
    }
}

/// The help text of a rule: the table's row in words.
pub fn help(r: &Rule) -> String {
    format!(
        "{}: {}. Example: {}",
        capitalised(r.catches),
        r.why,
        r.example
    )
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn rule(r: &Rule) -> Value {
    json!({
        "id": r.id,
        "name": r.id,
        "shortDescription": { "text": capitalised(r.catches) },
        "fullDescription": { "text": capitalised(r.why) },
        "help": { "text": help(r) },
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": {
            "tags": ["security", r.family.label()],
            "severity": r.severity.label(),
            "security-severity": security_severity(r.severity),
        },
    })
}

/// One skill's findings at or above `min`, as SARIF results.
pub fn results(name: &str, folder: &Path, report: &audit::Report, min: Severity) -> Vec<Value> {
    let base = std::env::current_dir().unwrap_or_default();
    report
        .at_least(min)
        .map(|f| {
            let index = RULES.iter().position(|r| r.id == f.rule).unwrap_or(0);
            let mut region = json!({});
            if let Some(line) = f.line {
                region["startLine"] = json!(line);
            }
            if !f.excerpt.is_empty() {
                region["snippet"] = json!({ "text": f.excerpt });
            }
            let mut location =
                json!({ "artifactLocation": artifact(&base, &folder.join(&f.file)) });
            if region.as_object().is_some_and(|r| !r.is_empty()) {
                location["region"] = region;
            }
            json!({
                "ruleId": f.rule,
                "ruleIndex": index,
                "level": level(f.severity),
                "message": { "text": format!("skill '{name}': {}", f.message) },
                "locations": [{ "physicalLocation": location }],
                "properties": { "skill": name, "severity": f.severity.label() },
            })
        })
        .collect()
}

/// The whole log: the tool with every rule, then the results.
pub fn log(results: Vec<Value>) -> Value {
    let base = std::env::current_dir().unwrap_or_default();
    let mut root = format!("file://{}", uri_path(&base));
    if !root.ends_with('/') {
        root.push('/');
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "skilltui",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": RULES.iter().map(rule).collect::<Vec<_>>(),
            }},
            "originalUriBaseIds": { "SRCROOT": {
                "uri": root,
                "description": { "text": "the working directory audit ran in" },
            }},
            "results": results,
        }],
    })
}

/// A file's location: relative to `base` (the working directory) when it
/// lies under it, else an absolute `file:` URI.
fn artifact(base: &Path, file: &Path) -> Value {
    let abs: PathBuf = if file.is_absolute() {
        file.to_path_buf()
    } else {
        base.join(file)
    };
    match abs.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            json!({ "uri": uri_path(rel), "uriBaseId": "SRCROOT" })
        }
        _ => json!({ "uri": format!("file://{}", uri_path(&abs)) }),
    }
}

/// A path as a URI path: `/`-separated segments, each percent-encoded
/// but for RFC 3986's unreserved characters (so a space, `#` or `%` in a
/// name cannot end or bend the URI). `.` and `..` never occur: the paths
/// come from a walk.
fn uri_path(p: &Path) -> String {
    let mut out = String::new();
    for (i, part) in p.iter().enumerate() {
        let part = part.to_string_lossy();
        if part == "/" {
            continue;
        }
        if i > 0 || p.is_absolute() {
            out.push('/');
        }
        for b in part.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uris_relative_to_the_working_directory() {
        let base = Path::new("/repo");
        assert_eq!(
            artifact(base, Path::new("/repo/skills/a b/SKILL.md")),
            json!({ "uri": "skills/a%20b/SKILL.md", "uriBaseId": "SRCROOT" })
        );
        assert_eq!(
            artifact(base, Path::new("skills/x#1/run.sh")),
            json!({ "uri": "skills/x%231/run.sh", "uriBaseId": "SRCROOT" })
        );
        assert_eq!(
            artifact(base, Path::new("/elsewhere/100%/SKILL.md")),
            json!({ "uri": "file:///elsewhere/100%25/SKILL.md" })
        );
    }

    #[test]
    fn every_rule_is_listed_with_its_table_row() {
        let log = log(Vec::new());
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), RULES.len());
        for (r, v) in RULES.iter().zip(rules) {
            assert_eq!(v["id"], r.id);
            assert_eq!(v["defaultConfiguration"]["level"], level(r.severity));
            let help = v["help"]["text"].as_str().unwrap();
            assert!(help.contains(r.why) && help.contains(r.example), "{help}");
        }
    }
}
