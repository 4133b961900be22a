//! What the skills designs of OmniForge, Amp and CLEO carry beyond name and
//! description, for the preview (facts) and the lints (problems):
//! OmniForge's fields, Amp's fields and bundles (`mcp.json`, `toolbox/`),
//! and the composed spawn prompt of CLEO's two-tier design with its tokens
//! resolved.

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value as Json;

use crate::core::agents::read::Read;
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
        Parser::Omniforge => omniforge_fields(fm, folder, &mut r),
        Parser::Amp => amp_fields(fm, read, folder, &mut r),
        Parser::Cleo => cleo_manifest(folder, &mut r),
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

/// Lowercase letters and digits, in words joined by single hyphens.
pub fn kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn string_list(n: &Node) -> bool {
    matches!(&n.value, Value::Seq(items) if items.iter().all(|i| i.value.as_str().is_some()))
}

/// OmniForge's skills design, "YAML Frontmatter Fields" (the table),
/// "Skill Scoping" and the SKILL.md example (`hooks.pre:
/// scripts/validate-cluster.sh`, a path in the skill folder).
fn omniforge_fields(fm: &Rc<Node>, folder: &Path, r: &mut Report) {
    // OmniForge's design, "YAML Frontmatter Fields": "`name` | string | Yes
    // | Unique skill identifier (kebab-case)".
    if let Some(n) = fm.get("name").and_then(|n| n.value.as_str())
        && !kebab_case(n)
    {
        r.lints.push(format!(
            "name '{n}' is not kebab-case (lowercase words joined by single hyphens) (OmniForge's docs)"
        ));
    }
    // OmniForge's table types `allowed-tools` as `string[]`; the Agent
    // Skills spec since 2026-03-30 as one space-separated string (the
    // store's spec lint warns on the list: core/cao/skill.rs). An OmniForge
    // skill may be read either way: only a value that is neither is a lint.
    if let Some(n) = fm.get("allowed-tools") {
        r.facts.push(("allowed-tools".into(), show(n)));
        if !string_list(n) && n.value.as_str().is_none() {
            r.lints.push(
                "allowed-tools must be tool names: a list (OmniForge's docs) or one space-separated string (Agent Skills spec)"
                    .into(),
            );
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

/// Amp's skills design, "Frontmatter Fields", "MCP Server Bundling",
/// "Complex Skill (Full)" and "Constants" (not enforced by its code: lints
/// only).
fn amp_fields(fm: &Rc<Node>, read: &Read, folder: &Path, r: &mut Report) {
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
    amp_constants(folder, r);
}

/// Amp's skills design, "Constants": "Max files per skill 100", "Max single
/// file 512 KB", "Max total size 2 MB"; and "Keep SKILL.md under 500 lines"
/// (Token Budget): the whole file, frontmatter included. Lints: Amp's own
/// code in that design enforces none of them. KB and MB are read as 1,024 and
/// 1,048,576 bytes (decision).
pub const AMP_MAX_FILES: usize = 100;
pub const AMP_MAX_FILE: u64 = 512 * 1024;
pub const AMP_MAX_TOTAL: u64 = 2 * 1024 * 1024;
pub const AMP_MAX_LINES: usize = 500;

fn amp_constants(folder: &Path, r: &mut Report) {
    let ceiling = crate::core::cao::skill::LINT_CEILING;
    let walked = match fsops::walk(folder, fsops::Links::Keep, Some(&ceiling)) {
        Ok(w) => w,
        Err(e) => return r.lints.push(format!("{e} (Amp's documented limits)")),
    };
    let files: Vec<(&Path, u64)> = walked
        .items
        .iter()
        .filter_map(|i| match i.kind {
            fsops::Kind::File { len, .. } => Some((i.rel.as_path(), len)),
            _ => None,
        })
        .collect();
    if files.len() > AMP_MAX_FILES {
        r.lints.push(format!(
            "{} files; Amp's documented limits: Max files per skill 100",
            files.len()
        ));
    }
    for (rel, len) in files.iter().filter(|(_, len)| *len > AMP_MAX_FILE) {
        r.lints.push(format!(
            "{} is {} KB; Amp's documented limits: Max single file 512 KB",
            rel.display(),
            len.div_ceil(1024)
        ));
    }
    if walked.bytes > AMP_MAX_TOTAL {
        r.lints.push(format!(
            "the skill holds {:.1} MB; Amp's documented limits: Max total size 2 MB",
            walked.bytes as f64 / 1048576.0
        ));
    }
    if let Ok(text) = crate::core::cao::skill::read_text(&folder.join("SKILL.md")) {
        let lines = text.lines().count();
        if lines >= AMP_MAX_LINES {
            r.lints.push(format!(
                "SKILL.md is {lines} lines; Amp's documented token budget: Keep SKILL.md under 500 lines"
            ));
        }
    }
}

/// CLEO's two-tier design, "Skill Taxonomy": `skills[].tier: 0 | 1 | 2 |
/// 3` and `skills[].tags: ["research", "documentation", ...]`, read from
/// the manifest entry of this skill's folder (`skills/manifest.json`, the
/// source of truth).
fn cleo_manifest(folder: &Path, r: &mut Report) {
    let Some(dir) = folder.parent() else { return };
    let Ok(bytes) = fsops::read_capped(&dir.join("manifest.json"), 16 << 20) else {
        return;
    };
    let Ok(manifest) = serde_json::from_slice::<Json>(&bytes) else {
        return;
    };
    let name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let entry = manifest
        .get("skills")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .find(|e| {
            ["name", "id"]
                .iter()
                .any(|k| e.get(k).and_then(Json::as_str) == Some(name))
        });
    if let Some(e) = entry {
        r.lints.extend(manifest_lints(e));
    }
}

/// A manifest entry's lints: a `tier` that is not one of 0, 1, 2, 3, and
/// `tags` that are not a list.
pub fn manifest_lints(entry: &Json) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = entry.get("tier")
        && t.as_u64().is_none_or(|t| t > 3)
    {
        out.push(format!(
            "tier {t} is not 0, 1, 2 or 3 (CLEO's documented skill taxonomy: skills[].tier: 0 | 1 | 2 | 3)"
        ));
    }
    if let Some(tags) = entry.get("tags")
        && !tags.is_array()
    {
        out.push(format!(
            "tags {tags} is not a list (CLEO's documented skill taxonomy: skills[].tags: [\"research\", \"documentation\", ...])"
        ));
    }
    out
}

/// Amp's skills design, "MCP Server Bundling": `mcp.json`
/// `{"mcpServers": {NAME: {"command", "args", ...}}}`.
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

/// The composed spawn prompt of CLEO's two-tier design and its token
/// resolution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Spawn {
    pub prompt: String,
    pub fully_resolved: bool,
    pub unresolved: Vec<String>,
}

/// CLEO's two-tier design, `skill_prepare_spawn`: "1. Load base protocol 2. Load skill
/// SKILL.md 3. Read conditional protocol (if exists) 4. Resolve ALL tokens
/// 5. Compose final prompt". The Protocol Composition box names the two
/// parts: "1. Base Protocol (agents/cleo-subagent/AGENT.md)" and "2.
/// Conditional Protocol (skills/ct-*/SKILL.md)". So the prompt is the base
/// protocol, then the skill's SKILL.md as its conditional protocol when it
/// has one (a body that is not blank); the frontmatter was loaded in step
/// 2 and is not injected. Decision: parts are joined by `\n\n---\n\n`.
pub fn compose_cleo(
    base: &str,
    skill_body: &str,
    values: &BTreeMap<String, String>,
) -> Result<Spawn, String> {
    let mut parts = vec![base];
    if !skill_body.trim().is_empty() {
        parts.push(skill_body);
    }
    compose_spawn(&parts, values)
}

/// The parts joined, every `{{KEY}}` (as CLEO's two-tier design writes its
/// tokens: `{{TASK_ID}}`) with a value replaced by it. `fullyResolved` is
/// true only when no `{{…}}` of any case or spacing is left; `unresolved`
/// lists each one left once, in the order first met (skilltui's own: the
/// design names only `tokenResolution.fullyResolved`).
pub fn compose_spawn(parts: &[&str], values: &BTreeMap<String, String>) -> Result<Spawn, String> {
    static TOKEN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\{\{([A-Za-z0-9_]+)\}\}").expect("regex"));
    static ANY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\{\{[^{}]*\}\}").expect("regex"));
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
    // Any `{{…}}` left, of any case or spacing, each once in the order met.
    let mut seen = std::collections::HashSet::new();
    let unresolved: Vec<String> = ANY
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

    // OmniForge's skills design, "YAML Frontmatter Fields".
    #[test]
    fn omniforge_fields_are_shown_and_checked() {
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

    // Amp's skills design, "Frontmatter Fields" and "MCP Server Bundling".
    #[test]
    fn amp_fields_and_bundles_are_shown() {
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

    // CLEO's two-tier design, `skill_prepare_spawn`: tokens resolved, the
    // rest flagged.
    #[test]
    fn cleo_spawn_prompt_resolves_tokens_and_flags_the_rest() {
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
    // CLEO's two-tier design: "tokenResolution.fullyResolved: true/false"
    // and Anti-Patterns "Unresolved tokens in prompt |
    // Subagent can't execute | Check tokenResolution.fullyResolved": true
    // only when no {{…}} token of any case or spacing remains.
    #[test]
    fn cleo_fully_resolved_only_when_no_token_of_any_case_or_spacing_remains() {
        let values: BTreeMap<String, String> = [("TASK_ID", "T1234")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert!(
            compose_spawn(&["{{TASK_ID}}"], &values)
                .unwrap()
                .fully_resolved
        );
        for left in [
            "{{task_id}}",
            "{{ TASK_ID }}",
            "{{Date}}",
            "{{ x y }}",
            "{{}}",
        ] {
            let s = compose_spawn(&["{{TASK_ID}} ", left], &values).unwrap();
            assert!(!s.fully_resolved, "{left}");
            assert_eq!(s.unresolved, vec![left.to_string()]);
        }
    }

    // CLEO's two-tier design, `skill_prepare_spawn`: "4. Resolve ALL
    // tokens" / "tokenResolution.fullyResolved": the `unresolved` list
    // holds each token once.
    #[test]
    fn cleo_unresolved_holds_each_token_once() {
        let s = compose_spawn(
            &["{{A}} {{B}} {{A}}", "{{B}} {{C}} {{A}}"],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(s.unresolved, vec!["{{A}}", "{{B}}", "{{C}}"]);
    }

    // CLEO's two-tier design, `skill_prepare_spawn`: "3. Read conditional
    // protocol (if exists)"; Protocol Composition: "2.
    // Conditional Protocol (skills/ct-*/SKILL.md)". Composed when it
    // exists; the frontmatter ("2. Load skill SKILL.md") is not injected.
    #[test]
    fn cleo_conditional_protocol_is_composed_when_it_exists_without_frontmatter() {
        let v = BTreeMap::new();
        let read = rules::read(
            Parser::Cleo,
            "---\nname: ct-a\ndescription: d\n---\nDo {{X}}.\n",
            "ct-a",
        );
        let s = compose_cleo("Base", &read.body, &v).unwrap();
        assert_eq!(s.prompt, "Base\n\n---\n\nDo {{X}}.");
        assert!(!s.prompt.contains("name: ct-a"));
        let empty = rules::read(
            Parser::Cleo,
            "---\nname: ct-a\ndescription: d\n---\n\n",
            "ct-a",
        );
        assert_eq!(
            compose_cleo("Base", &empty.body, &v).unwrap().prompt,
            "Base"
        );
    }

    // CLEO's two-tier design, "Skill Taxonomy": "skills[].tier: 0 | 1 | 2 |
    // 3" and "skills[].tags: [\"research\", \"documentation\", ...]": a
    // tier outside 0-3 and non-list tags are lints.
    #[test]
    fn cleo_tier_outside_0_3_and_non_list_tags_are_lints() {
        let lints = |entry: &str| manifest_lints(&serde_json::from_str(entry).unwrap());
        assert!(lints(r#"{"name": "a", "tier": 3, "tags": ["x"]}"#).is_empty());
        for bad in [
            r#"{"tier": 4}"#,
            r#"{"tier": -1}"#,
            r#"{"tier": "2"}"#,
            r#"{"tier": 1.5}"#,
        ] {
            assert_eq!(lints(bad).len(), 1, "{bad}");
        }
        assert!(lints(r#"{"tags": "research"}"#)[0].starts_with("tags \"research\" is not a list"));
        // Through the report, from the manifest beside the skill.
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("ct-a");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            dir.path().join("manifest.json"),
            r#"{"skills": [{"name": "ct-a", "tier": 7, "tags": "x"}]}"#,
        )
        .unwrap();
        let read = rules::read(
            Parser::Cleo,
            "---\nname: ct-a\ndescription: d\n---\nb\n",
            "ct-a",
        );
        assert_eq!(report(Parser::Cleo, &read, &skill).lints.len(), 2);
    }

    // Amp's skills design, "Constants": "Max files per skill 100", "Max
    // single file 512 KB", "Max total size 2 MB"; "Token Budget": "Keep
    // SKILL.md under 500 lines" (the whole file).
    #[test]
    fn amp_constants_and_500_lines_are_lints() {
        let head = "---\nname: s\ndescription: d\n---\n";
        let ok = format!("{head}{}", "x\n".repeat(495));
        assert_eq!(ok.lines().count(), 499);
        assert!(
            report_for(Parser::Amp, &ok, &[("SKILL.md", &ok)])
                .lints
                .is_empty()
        );
        // 500 lines, four of them frontmatter: the body alone is under.
        let at = format!("{head}{}", "x\n".repeat(496));
        let r = report_for(Parser::Amp, &at, &[("SKILL.md", &at)]);
        assert_eq!(
            r.lints,
            vec![
                "SKILL.md is 500 lines; Amp's documented token budget: Keep SKILL.md under 500 lines"
            ]
        );
        let mut files: Vec<(String, String)> =
            (0..100).map(|i| (format!("f{i}"), String::new())).collect();
        files.push(("SKILL.md".into(), ok.clone()));
        let big = "b".repeat(512 * 1024 + 1);
        files.push(("big.bin".into(), big.clone()));
        files.push(("big2.bin".into(), big.clone()));
        files.push(("big3.bin".into(), big.clone()));
        files.push(("big4.bin".into(), big));
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let r = report_for(Parser::Amp, &ok, &refs);
        assert!(
            r.lints.contains(
                &"105 files; Amp's documented limits: Max files per skill 100".to_string()
            ),
            "{:?}",
            r.lints
        );
        assert!(r.lints.contains(
            &"big.bin is 513 KB; Amp's documented limits: Max single file 512 KB".to_string()
        ));
        assert!(
            r.lints
                .iter()
                .any(|l| l.ends_with("Amp's documented limits: Max total size 2 MB"))
        );
    }

    // OmniForge's skills design, "YAML Frontmatter Fields": "`name` |
    // string | Yes | Unique skill identifier (kebab-case)".
    #[test]
    fn omniforge_a_name_not_kebab_case_is_a_lint() {
        for bad in [
            "Deploy",
            "deploy_k8s",
            "de--ploy",
            "-deploy",
            "deploy-",
            "deploy k8s",
        ] {
            let text = format!("---\nname: '{bad}'\ndescription: d\n---\nb\n");
            let r = report_for(Parser::Omniforge, &text, &[]);
            assert_eq!(r.lints.len(), 1, "{bad}: {:?}", r.lints);
            assert!(r.lints[0].contains("is not kebab-case"));
        }
        let r = report_for(
            Parser::Omniforge,
            "---\nname: deploy-to-k8s\ndescription: d\n---\nb\n",
            &[],
        );
        assert!(r.lints.is_empty());
    }

    // `allowed-tools` is a space-separated string in the Agent Skills spec;
    // OmniForge's skills design types it `string[]`. Either form is fine
    // for OmniForge; only a value that is neither is a lint.
    #[test]
    fn omniforge_takes_allowed_tools_as_a_list_or_a_string() {
        let lint = |v: &str| {
            report_for(
                Parser::Omniforge,
                &format!("---\nname: k\ndescription: d\nallowed-tools: {v}\n---\nb\n"),
                &[],
            )
            .lints
        };
        assert!(lint("[Bash, Read]").is_empty());
        assert!(lint("Bash Read").is_empty());
        assert_eq!(lint("{a: b}").len(), 1);
    }
}
