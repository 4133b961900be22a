//! What the seeds' formats carry beyond name and description, for the
//! preview (facts) and the lints (problems): seed 001's fields, seed 003's
//! fields and bundles (`mcp.json`, `toolbox/`), and seed 002's composed
//! spawn prompt with its tokens resolved.

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value as Json;

use crate::core::agents::rules::Read;
use crate::core::agents::table::Parser;
use crate::core::fsops;
use crate::core::parse::yaml::{Node, Value};

/// Facts to show and problems to fix, for one skill under one agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub facts: Vec<(String, String)>,
    pub lints: Vec<String>,
}

/// The report for `read` (the agent's reading of `folder`'s SKILL.md).
pub fn report(parser: Parser, read: &Read, folder: &Path) -> Report {
    let mut r = Report::default();
    let Some(fm) = read.frontmatter.as_ref() else {
        return r;
    };
    match parser {
        Parser::Omniforge => seed_001(fm, folder, &mut r),
        Parser::Amp => seed_003(fm, read, folder, &mut r),
        _ => {}
    }
    r
}

fn show(n: &Node) -> String {
    match &n.value {
        Value::Str(s) => s.clone(),
        Value::Seq(items) => items.iter().map(|i| show(i)).collect::<Vec<_>>().join(", "),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        other => other.type_name().into(),
    }
}

fn string_list(n: &Node) -> bool {
    matches!(&n.value, Value::Seq(items) if items.iter().all(|i| i.value.as_str().is_some()))
}

/// Seed 001 "YAML Frontmatter Fields" (the table), "Skill Scoping" and the
/// SKILL.md example (`hooks.pre: scripts/validate-cluster.sh`, a path in
/// the skill folder).
fn seed_001(fm: &Rc<Node>, folder: &Path, r: &mut Report) {
    if let Some(n) = fm.get("allowed-tools") {
        r.facts.push(("allowed-tools".into(), show(n)));
        if !string_list(n) {
            r.lints
                .push("allowed-tools must be a list of tool names (OmniForge's docs)".into());
        }
    }
    if let Some(n) = fm.get("model") {
        r.facts.push(("model".into(), show(n)));
    }
    let context = fm.get("context").map(|n| show(n));
    if let Some(c) = &context {
        r.facts.push(("context".into(), c.clone()));
        if c != "inherit" && c != "fork" {
            r.lints.push(format!(
                "context must be `inherit` or `fork`, not `{c}` (OmniForge's docs)"
            ));
        }
    }
    if let Some(n) = fm.get("agent") {
        r.facts.push(("agent".into(), show(n)));
        if context.as_deref() != Some("fork") {
            r.lints
                .push("agent requires `context: fork` (OmniForge's docs)".into());
        }
    }
    if let Some(hooks) = fm.get("hooks") {
        for key in ["pre", "post"] {
            let Some(n) = hooks.get(key) else { continue };
            let script = show(n);
            r.facts.push((format!("hooks.{key}"), script.clone()));
            let inside = !script.starts_with('/') && !script.split('/').any(|p| p == "..");
            if !inside || !folder.join(&script).is_file() {
                r.lints.push(format!(
                    "hooks.{key}: {script} is not a file in the skill folder (OmniForge's docs)"
                ));
            }
        }
    }
    if let Some(n) = fm.get("priority") {
        r.facts.push(("priority".into(), show(n)));
        if !matches!(n.value, Value::Int(_) | Value::Float(_)) {
            r.lints
                .push("priority must be a number (OmniForge's docs)".into());
        }
    }
    if let Some(n) = fm.get("tags") {
        r.facts.push(("tags".into(), show(n)));
        if !string_list(n) {
            r.lints
                .push("tags must be a list of strings (OmniForge's docs)".into());
        }
    }
    if let Some(n) = fm.get("scope") {
        for key in ["agents", "tenants", "environments"] {
            if let Some(v) = n.get(key) {
                r.facts.push((format!("scope.{key}"), show(v)));
            }
        }
    }
    if fm
        .get("description")
        .is_some_and(|d| show(d).contains('\n'))
    {
        r.lints
            .push("description should be one line (OmniForge's docs)".into());
    }
}

/// Seed 003 "Frontmatter Fields", "MCP Server Bundling", "Complex Skill
/// (Full)" and "Constants" (not enforced by its code: lints only).
fn seed_003(fm: &Rc<Node>, read: &Read, folder: &Path, r: &mut Report) {
    if let Some(n) = fm.get("argument-hint") {
        r.facts.push(("argument-hint".into(), show(n)));
    }
    if read.hidden {
        r.facts.push((
            "disable-model-invocation".into(),
            "true: hidden from the model's skill list".into(),
        ));
    }
    if let Some(n) = fm.get("builtin-tools") {
        r.facts.push(("builtin-tools".into(), show(n)));
        if !string_list(n) {
            r.lints
                .push("builtin-tools must be a list of tool names (Amp's docs)".into());
        }
    }
    if let Some(n) = fm.get("isolatedContext") {
        r.facts.push(("isolatedContext".into(), show(n)));
        if !matches!(n.value, Value::Bool(_)) {
            r.lints
                .push("isolatedContext must be a boolean (Amp's docs)".into());
        }
    }
    mcp_servers(folder, r);
    // Listed only when the folder's own: a `toolbox` link to `~/.ssh`
    // would print the names there.
    let toolbox = folder.join("toolbox");
    let own = fsops::absolute(&toolbox).starts_with(fsops::absolute(folder));
    let tools: Vec<String> = std::fs::read_dir(&toolbox)
        .into_iter()
        .filter(|_| own)
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if !tools.is_empty() {
        r.facts.push(("toolbox".into(), tools.join(", ")));
    }
    let name = read.name.as_deref().unwrap_or("");
    if name.chars().count() > 64 {
        r.lints
            .push("name is over 64 characters (Amp's documented limits)".into());
    }
    if read.description.as_deref().unwrap_or("").chars().count() > 1024 {
        r.lints
            .push("description is over 1024 characters (Amp's documented limits)".into());
    }
    if read.body.lines().count() > 500 {
        r.lints
            .push("SKILL.md body is over 500 lines (Amp's documented token budget)".into());
    }
}

/// Seed 003: `mcp.json` `{"mcpServers": {NAME: {"command", "args", ...}}}`.
fn mcp_servers(folder: &Path, r: &mut Report) {
    let Ok(bytes) = fsops::read_capped_inside(folder, Path::new("mcp.json"), 16 << 20) else {
        return;
    };
    match serde_json::from_slice::<Json>(&bytes) {
        Ok(json) => {
            let servers: Vec<String> = json
                .get("mcpServers")
                .and_then(Json::as_object)
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| match v.get("command").and_then(Json::as_str) {
                            Some(c) => format!("{k} ({c})"),
                            None => k.clone(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            r.facts.push(("mcp servers".into(), servers.join(", ")));
        }
        Err(e) => r
            .lints
            .push(format!("mcp.json is not valid JSON: {e} (Amp's docs)")),
    }
}

/// Seed 002's composed spawn prompt and its token resolution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Spawn {
    pub prompt: String,
    pub fully_resolved: bool,
    pub unresolved: Vec<String>,
}

/// Seed 002 "Protocol Injection Flow" / `skill_prepare_spawn`: base
/// protocol, then SKILL.md, then the conditional protocol if any, with
/// every `{{TOKEN}}` replaced by the user's value. Decisions: parts are
/// joined by `\n\n---\n\n`; a token is `{{` upper-case letters, digits or
/// `_` `}}`; every one left is listed (`unresolved` is ours; seed 002 names
/// only `tokenResolution.fullyResolved`).
pub fn compose_spawn(parts: &[&str], values: &BTreeMap<String, String>) -> Result<Spawn, String> {
    static TOKEN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\{\{([A-Z0-9_]+)\}\}").expect("regex"));
    let joined = parts.join("\n\n---\n\n");
    // Built piece by piece and stopped at the cap: a value repeated by a
    // million tokens must not be allocated first.
    let mut prompt = String::new();
    let mut last = 0;
    for c in TOKEN.captures_iter(&joined) {
        let whole = c.get(0).expect("a match");
        let value = values.get(&c[1]).map_or(whole.as_str(), String::as_str);
        if prompt.len() + (whole.start() - last) + value.len() > MAX_SPAWN_BYTES {
            return Err(spawn_too_large());
        }
        prompt.push_str(&joined[last..whole.start()]);
        prompt.push_str(value);
        last = whole.end();
    }
    if prompt.len() + (joined.len() - last) > MAX_SPAWN_BYTES {
        return Err(spawn_too_large());
    }
    prompt.push_str(&joined[last..]);
    let mut seen = std::collections::HashSet::new();
    let unresolved: Vec<String> = TOKEN
        .find_iter(&prompt)
        .map(|m| m.as_str())
        .filter(|t| seen.insert(*t))
        .map(str::to_string)
        .collect();
    Ok(Spawn {
        fully_resolved: unresolved.is_empty(),
        prompt,
        unresolved,
    })
}

/// The most a composed spawn prompt may hold (the SKILL.md limit): what
/// an agent would be handed, not gigabytes.
pub const MAX_SPAWN_BYTES: usize = crate::core::cao::skill::MAX_SKILL_MD_BYTES as usize;

fn spawn_too_large() -> String {
    format!(
        "the composed spawn prompt would be over {} MiB: shorten the --set values or the SKILL.md's {{{{TOKEN}}}}s",
        MAX_SPAWN_BYTES >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::rules;

    fn report_for(parser: Parser, text: &str, files: &[(&str, &str)]) -> Report {
        let dir = tempfile::tempdir().unwrap();
        for (p, body) in files {
            let path = dir.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        }
        let read = rules::read(parser, text, "s");
        report(parser, &read, dir.path())
    }

    // Seed 001 "YAML Frontmatter Fields".
    #[test]
    fn seed_001_fields_are_shown_and_checked() {
        let text = "---\nname: k\ndescription: d\nallowed-tools: [Bash, Read]\nmodel: claude-sonnet-4\ncontext: fork\nagent: reviewer\nhooks:\n  pre: scripts/pre.sh\n  post: scripts/missing.sh\npriority: 1000\ntags: [ops]\n---\nbody\n";
        let r = report_for(
            Parser::Omniforge,
            text,
            &[("scripts/pre.sh", "#!/bin/sh\n")],
        );
        assert!(
            r.facts
                .contains(&("allowed-tools".into(), "Bash, Read".into()))
        );
        assert!(r.facts.contains(&("priority".into(), "1000".into())));
        assert_eq!(
            r.lints,
            vec![
                "hooks.post: scripts/missing.sh is not a file in the skill folder (OmniForge's docs)"
            ]
        );
        let r = report_for(
            Parser::Omniforge,
            "---\nname: k\ndescription: d\nagent: x\ncontext: maybe\n---\nb\n",
            &[],
        );
        assert!(r.lints.iter().any(|l| l.starts_with("context must be")));
        assert!(
            r.lints
                .iter()
                .any(|l| l.starts_with("agent requires `context: fork`"))
        );
    }

    // Seed 003 "Frontmatter Fields" and "MCP Server Bundling".
    #[test]
    fn seed_003_fields_and_bundles_are_shown() {
        let text = "---\nname: web-scraper\ndescription: d\nargument-hint: <url>\nbuiltin-tools:\n  - web_search\nisolatedContext: yes please\n---\nbody\n";
        let r = report_for(
            Parser::Amp,
            text,
            &[
                (
                    "mcp.json",
                    r#"{"mcpServers": {"my-server": {"command": "node", "args": ["./server.js"]}}}"#,
                ),
                ("toolbox/my-tool", "x"),
            ],
        );
        assert!(r.facts.contains(&("argument-hint".into(), "<url>".into())));
        assert!(
            r.facts
                .contains(&("mcp servers".into(), "my-server (node)".into()))
        );
        assert!(r.facts.contains(&("toolbox".into(), "my-tool".into())));
        assert_eq!(
            r.lints,
            vec!["isolatedContext must be a boolean (Amp's docs)"]
        );
    }

    // Seed 002 `skill_prepare_spawn`: tokens resolved, the rest flagged.
    #[test]
    fn seed_002_spawn_prompt_resolves_tokens_and_flags_the_rest() {
        let values: BTreeMap<String, String> = [("TASK_ID", "T1234"), ("DATE", "2026-01-27")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let s = compose_spawn(&["Base {{TASK_ID}}", "Skill {{DATE}}", "Cond"], &values).unwrap();
        assert_eq!(
            s.prompt,
            "Base T1234\n\n---\n\nSkill 2026-01-27\n\n---\n\nCond"
        );
        assert!(s.fully_resolved);
        let s = compose_spawn(&["{{TASK_ID}} {{SESSION_ID}}"], &values).unwrap();
        assert!(!s.fully_resolved);
        assert_eq!(s.unresolved, vec!["{{SESSION_ID}}"]);
    }
}
