//! SKILL.md's own rules: an `allowed-tools` that grants any shell
//! command, and relative links to files the skill does not hold.

use std::collections::HashSet;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::files::File;
use super::finding::Finding;
use crate::core::parse::frontmatter::{self, Normalized};
use crate::core::parse::yaml::Value;

pub fn scan(folder: &Path, text: &str, files: &[File], out: &mut Vec<Finding>) {
    let norm = Normalized::new(text);
    if let Ok(fm) = frontmatter::parse_head(&norm.text)
        && let Some(node) = fm.metadata().and_then(|m| m.get("allowed-tools"))
    {
        let tools: Vec<String> = match &node.value {
            Value::Str(s) => tool_list(s),
            Value::Seq(items) => items
                .iter()
                .filter_map(|n| n.value.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        if let Some(t) = tools.iter().find(|t| unrestricted_shell(t)) {
            let line = line_of(text, "allowed-tools");
            out.push(
                Finding::new(
                    "unrestricted-shell",
                    "SKILL.md",
                    line,
                    format!("allowed-tools grants '{}': any command, unasked", short(t)),
                )
                .with_excerpt(t, 0),
            );
        }
    }
    missing_links(folder, text, files, out);
}

/// The tools of an `allowed-tools` string: split at commas and spaces
/// outside parentheses (`Bash(git status:*) Read` is two tools).
fn tool_list(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c == ',' || c.is_whitespace()) {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out.retain(|t| !t.is_empty());
    out
}

/// `Bash`, `Bash(*)`, `Bash(*:*)`, `shell` …: a shell tool not narrowed to
/// named commands; or narrowed to a program that runs whatever code its
/// arguments hold (`Bash(sh:*)`, `Bash(python3:*)`), a shell by another
/// name.
fn unrestricted_shell(tool: &str) -> bool {
    let t = tool.trim().to_ascii_lowercase();
    let (name, arg) = match t.split_once('(') {
        Some((n, a)) => (n.trim(), Some(a.trim_end_matches(')').trim())),
        None => (t.as_str(), None),
    };
    let shell = matches!(
        name,
        "bash" | "shell" | "sh" | "run_shell_command" | "execute_command" | "terminal" | "exec"
    );
    shell
        && arg
            .is_none_or(|a| a.is_empty() || a == "*" || a == "*:*" || a == ":*" || runs_any_code(a))
}

/// A command grant whose program runs any code given as its argument,
/// with any arguments: `sh:*`, `python3 *`, `env:*`.
fn runs_any_code(arg: &str) -> bool {
    let Some(prog) = arg
        .strip_suffix(":*")
        .or_else(|| arg.strip_suffix(" *"))
        .or_else(|| arg.strip_suffix('*'))
    else {
        return false;
    };
    let prog = prog.trim();
    let prog = prog.rsplit('/').next().unwrap_or(prog);
    let base = prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    matches!(
        base,
        "sh" | "bash"
            | "zsh"
            | "dash"
            | "ksh"
            | "fish"
            | "python"
            | "node"
            | "perl"
            | "ruby"
            | "php"
            | "pwsh"
            | "powershell"
            | "osascript"
            | "eval"
            | "exec"
            | "env"
            | "xargs"
            | "sudo"
            | "su"
            | "busybox"
    )
}

fn short(s: &str) -> String {
    crate::core::text::sanitize_line(&s.chars().take(40).collect::<String>()).into_owned()
}

/// The number of the first line holding `needle`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// Markdown links and images: `[text](target)`.
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\]\(\s*<?([^)\s>]+)>?(?:\s+[\x22'][^)]*)?\)").expect("valid"));

/// Relative links in SKILL.md to files the folder does not hold.
fn missing_links(folder: &Path, text: &str, files: &[File], out: &mut Vec<Finding>) {
    let held: HashSet<&str> = files.iter().map(|f| f.rel.as_str()).collect();
    for (i, line) in text.lines().enumerate() {
        for c in LINK.captures_iter(line) {
            let Some(target) = c.get(1) else { continue };
            let Some(rel) = local_target(target.as_str()) else {
                continue;
            };
            // A folder, or a file the walk skipped (a link inside), is there.
            if held.contains(rel.as_str()) || std::fs::symlink_metadata(folder.join(&rel)).is_ok() {
                continue;
            }
            out.push(
                Finding::new(
                    "missing-reference",
                    "SKILL.md",
                    Some(i + 1),
                    format!("links to {}, which the skill does not hold", short(&rel)),
                )
                .with_excerpt(line, target.start()),
            );
        }
    }
}

/// A link's file inside the folder (no scheme, anchor or query; `./`
/// dropped), or `None` for a URL, an anchor or a path that climbs out.
fn local_target(target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
        return None;
    }
    let path = target.split(['#', '?']).next()?;
    let path = path.trim_start_matches("./");
    if path.is_empty()
        || path.starts_with('/')
        || path.starts_with('~')
        || path.contains('{')
        || path.split('/').any(|p| p == "..")
    {
        return None;
    }
    Some(path.trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_grants() {
        for t in [
            "Bash",
            "bash(*)",
            "Bash(*:*)",
            "shell",
            "run_shell_command",
            "Bash(sh:*)",
            "Bash(python3:*)",
            "Bash(/usr/bin/env *)",
        ] {
            assert!(unrestricted_shell(t), "{t}");
        }
        for t in [
            "Bash(git status:*)",
            "Bash(npm test)",
            "Read",
            "Grep",
            "BashOutput",
            "Bash(python3 scripts/run.py:*)",
            "Bash(shellcheck:*)",
        ] {
            assert!(!unrestricted_shell(t), "{t}");
        }
    }

    #[test]
    fn tool_lists() {
        assert_eq!(
            tool_list("Bash(git status:*) Read, Write"),
            ["Bash(git status:*)", "Read", "Write"]
        );
    }

    #[test]
    fn link_targets() {
        assert_eq!(
            local_target("./scripts/a.py#x"),
            Some("scripts/a.py".into())
        );
        assert_eq!(local_target("https://x.example/a"), None);
        assert_eq!(local_target("#section"), None);
        assert_eq!(local_target("../other/SKILL.md"), None);
    }
}
