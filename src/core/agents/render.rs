//! What an agent's model is shown about skills, where the agent (or its
//! seed) documents it, measured against its budget; and what its skill
//! tool returns for one skill.

use std::path::{Path, PathBuf};

use crate::core::agents::discover::{Candidate, Finds};
use crate::core::agents::formats;
use crate::core::agents::table::{Agent, Scope};

/// The model-facing text and its meter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalog {
    /// `None` where the agent documents no text (or lists no skill and
    /// then shows nothing).
    pub text: Option<String>,
    /// Where the format comes from and how exact it is.
    pub about: String,
    /// Size of what the budget counts.
    pub size: usize,
    /// `chars`, `bytes` or `tokens (estimated: 4 chars a token)`.
    pub unit: &'static str,
    pub budget: Option<usize>,
    /// What the agent would shorten or drop, one line each.
    pub actions: Vec<String>,
}

impl Catalog {
    /// `N / budget unit`, or `N unit` without a budget.
    pub fn meter(&self) -> String {
        match self.budget {
            Some(b) => format!("{} / {b} {}", self.size, self.unit),
            None => format!("{} {} (no documented budget)", self.size, self.unit),
        }
    }
}

/// The agent's text over the skills it loads and lists.
pub fn catalog(agent: &Agent, finds: &Finds) -> Catalog {
    let visible: Vec<&Candidate> = finds.winners().filter(|c| !c.hidden).collect();
    match agent.catalog.as_deref() {
        Some("amp") => amp(&visible, agent),
        Some("omniforge") => omniforge(&visible, agent),
        Some("codex") => codex(&visible, finds, agent),
        Some("opencode") => opencode(&visible),
        Some("gemini") => gemini(&visible),
        Some("claude") => claude(&visible, agent),
        _ => Catalog {
            about: format!("{} documents no model-facing skills text", agent.name),
            unit: "chars",
            ..Catalog::default()
        },
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn tokens_meter(text: Option<String>, about: String, agent: &Agent) -> Catalog {
    let size = crate::core::cao::catalog::estimate_tokens(text.as_deref().map_or(0, chars));
    let budget = agent.budget.as_ref().and_then(|b| b.tokens);
    let mut actions = Vec::new();
    if budget.is_some_and(|b| size > b) {
        actions.push(
            "over the informative budget; the source defines no shortening: nothing dropped".into(),
        );
    }
    Catalog {
        text,
        about,
        size,
        unit: "tokens (estimated: 4 chars a token)",
        budget,
        actions,
    }
}

/// Seed 003 "Available Skills Prompt" (`formatAvailableSkills`), to the
/// letter: no visible skill gives null (nothing); the `argument-hint` is
/// computed there but never printed; names and descriptions unescaped;
/// discovery order.
fn amp(visible: &[&Candidate], agent: &Agent) -> Catalog {
    let text = (!visible.is_empty()).then(|| {
        let list: Vec<String> = visible
            .iter()
            .map(|c| {
                format!(
                    "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n  </skill>",
                    c.name, c.description
                )
            })
            .collect();
        format!(
            "{}{}\n</available_skills>",
            formats::AMP_HEAD,
            list.join("\n")
        )
    });
    tokens_meter(
        text,
        "Amp's documented Available Skills prompt (exact)".into(),
        agent,
    )
}

/// Seed 001 "Skill Tool Description": the whole tool description with
/// `"name": description` entries, one blank line between them. Decisions:
/// entries in discovery order (layer, then folder); with no skill the
/// description is still emitted with an empty block; the budget counts the
/// entries' bytes against "< 1KB" (Success Criteria) and nothing is
/// dropped (seed 001 defines no shortening).
fn omniforge(visible: &[&Candidate], agent: &Agent) -> Catalog {
    let entries: Vec<String> = visible
        .iter()
        .map(|c| format!("\"{}\": {}", c.name, c.description))
        .collect();
    let body = entries.join("\n\n");
    let block = if body.is_empty() {
        String::new()
    } else {
        format!("{body}\n")
    };
    let text = format!(
        "{}<available_skills>\n{block}</available_skills>\n{}",
        formats::OMNIFORGE_HEAD,
        formats::OMNIFORGE_TAIL
    );
    let budget = agent.budget.as_ref().and_then(|b| b.chars);
    let size = body.len();
    let mut actions = Vec::new();
    if budget.is_some_and(|b| size > b) {
        actions.push("over OmniForge's documented \"< 1KB\" Stage 1 criterion; OmniForge documents no shortening: nothing dropped".into());
    }
    Catalog {
        text: Some(text),
        about: "OmniForge's documented Skill tool description (exact)".into(),
        size,
        unit: "bytes",
        budget,
        actions,
    }
}

/// Codex (openai/codex core-skills/src/render.rs @deae88d): one line
/// `- name: description (file: path)` per skill, ordered System, Admin,
/// Repo, User, then name, then path; with the context window unknown the
/// budget is 8,000 characters, each line costing its length plus a
/// newline, and a line that does not fit is omitted whole (the source's
/// rule; the docs also mention shortening descriptions first, which that
/// commit does not do).
fn codex(visible: &[&Candidate], finds: &Finds, agent: &Agent) -> Catalog {
    let rank = |s: Scope| match s {
        Scope::Builtin => 0,
        Scope::Admin => 1,
        Scope::Project => 2,
        Scope::User | Scope::Plugin => 3,
    };
    let mut rows: Vec<&&Candidate> = visible.iter().collect();
    rows.sort_by(|a, b| {
        (rank(finds.scope(a)), &a.name, &a.path).cmp(&(rank(finds.scope(b)), &b.name, &b.path))
    });
    let budget = agent.budget.as_ref().and_then(|b| b.chars).unwrap_or(8000);
    let (mut used, mut kept, mut omitted) = (0, Vec::new(), Vec::new());
    for c in rows {
        let file = c.path.join("SKILL.md").to_string_lossy().replace('\\', "/");
        let line = format!("- {}: {} (file: {file})", c.name, c.description);
        let cost = chars(&line) + 1;
        if used + cost <= budget {
            used += cost;
            kept.push(line);
        } else {
            omitted.push(format!("{} ({})", c.name, codex_scope(finds.scope(c))));
        }
    }
    let mut actions = Vec::new();
    if !omitted.is_empty() {
        let total = kept.len() + omitted.len();
        let mut names: Vec<String> = omitted.iter().take(5).cloned().collect();
        if omitted.len() > 5 {
            names.push(format!("{} more", omitted.len() - 5));
        }
        actions.push(format!(
            "Skills list trimmed to fit the metadata budget: showing {} of {total} enabled skills ({budget} characters). Omitted skills include {}. Explicitly mention a skill by name or path if needed, or disable unused skills to reduce the list.",
            kept.len(),
            names.join(", ")
        ));
    }
    let text = (!visible.is_empty()).then(|| {
        let mut t = format!("{}{}\n", formats::CODEX_HEAD, kept.join("\n"));
        for a in &actions {
            t.push_str(a);
            t.push('\n');
        }
        t.push_str("### How to use skills\n…\n</skills_instructions>");
        t
    });
    Catalog {
        text,
        about: "Codex render.rs @deae88d (the fixed \"How to use skills\" text is elided: …)"
            .into(),
        size: used,
        unit: "chars",
        budget: Some(budget),
        actions,
    }
}

fn codex_scope(s: Scope) -> &'static str {
    match s {
        Scope::Builtin => "system",
        Scope::Admin => "admin",
        Scope::Project => "repo",
        Scope::User | Scope::Plugin => "user",
    }
}

/// OpenCode (packages/opencode/src/skill/index.ts @a2cc772, `fmt`,
/// verbose): skills with a description, by name; the location escaped.
fn opencode(visible: &[&Candidate]) -> Catalog {
    let mut rows: Vec<&&Candidate> = visible.iter().collect();
    rows.sort_by_key(|c| c.name.to_lowercase());
    let text = if rows.is_empty() {
        "No skills are currently available.".to_string()
    } else {
        let list: Vec<String> = rows
            .iter()
            .map(|c| {
                format!(
                    "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
                    c.name,
                    c.description,
                    escape_html(&c.path.join("SKILL.md").to_string_lossy())
                )
            })
            .collect();
        format!(
            "<available_skills>\n{}\n</available_skills>",
            list.join("\n")
        )
    };
    Catalog {
        size: chars(&text),
        text: Some(text),
        about: "OpenCode skill/index.ts @a2cc772 fmt (verbose form)".into(),
        unit: "chars",
        ..Catalog::default()
    }
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Gemini CLI (`renderAgentSkills`): entries joined by a newline; none
/// gives nothing. Decision: entries in load order (lowest precedence
/// first), the reverse of the table's.
fn gemini(visible: &[&Candidate]) -> Catalog {
    let text = (!visible.is_empty()).then(|| {
        let list: Vec<String> = visible
            .iter()
            .rev()
            .map(|c| {
                format!(
                    "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
                    c.name,
                    c.description,
                    c.path.join("SKILL.md").display()
                )
            })
            .collect();
        format!("{}{}\n</available_skills>", formats::GEMINI_HEAD, list.join("\n"))
    });
    Catalog {
        size: text.as_deref().map_or(0, chars),
        text,
        about: "Gemini CLI renderAgentSkills (from its source; wording varies by version)".into(),
        unit: "chars",
        ..Catalog::default()
    }
}

/// Claude Code: the budget is documented (1% of the context window, else
/// 8,000 characters; each entry's description capped at 1,536; names
/// always stay, descriptions are shortened starting with the least-invoked
/// skills); the text is not. skilltui knows no invocation counts: it
/// shortens from the end of the list.
fn claude(visible: &[&Candidate], agent: &Agent) -> Catalog {
    let budget = agent.budget.as_ref();
    let cap = budget.and_then(|b| b.per_entry).unwrap_or(1536);
    let limit = budget.and_then(|b| b.chars).unwrap_or(8000);
    let mut actions = Vec::new();
    let mut descs: Vec<String> = visible
        .iter()
        .map(|c| {
            if chars(&c.description) > cap {
                actions.push(format!("{}: description cut to {cap} characters", c.name));
                c.description.chars().take(cap).collect()
            } else {
                c.description.clone()
            }
        })
        .collect();
    let entry = |name: &str, d: &str| format!("- {name}: {d}");
    let total = |descs: &[String]| -> usize {
        visible
            .iter()
            .zip(descs)
            .map(|(c, d)| chars(&entry(&c.name, d)) + 1)
            .sum()
    };
    let mut i = descs.len();
    while total(&descs) > limit && i > 0 {
        i -= 1;
        if !descs[i].is_empty() {
            actions.push(format!(
                "{}: description shortened away to fit",
                visible[i].name
            ));
            descs[i].clear();
        }
    }
    let lines: Vec<String> = visible
        .iter()
        .zip(&descs)
        .map(|(c, d)| entry(&c.name, d))
        .collect();
    let text = (!visible.is_empty()).then(|| {
        format!(
            "{}{}\n</system-reminder>",
            formats::CLAUDE_HEAD,
            lines.join("\n")
        )
    });
    Catalog {
        text,
        about: "Claude Code: budget documented (code.claude.com/docs/en/skills); the text is NOT documented, this shape is reverse-engineered".into(),
        size: total(&descs),
        unit: "chars",
        budget: Some(limit),
        actions,
    }
}

/// What seed 003's `skill` tool returns (`loadSkill`, "Skill Loading"):
/// `<loaded_skill name="N">`, the body, an empty line or `\nArguments: A`,
/// `</loaded_skill>`, joined by newlines.
pub fn amp_loaded(name: &str, content: &str, args: Option<&str>) -> String {
    let args = args.map_or(String::new(), |a| format!("\nArguments: {a}"));
    [
        format!("<loaded_skill name=\"{name}\">"),
        content.to_string(),
        args,
        "</loaded_skill>".to_string(),
    ]
    .join("\n")
}

/// What OpenCode's `skill` tool returns for one skill
/// (anomalyco/opencode packages/opencode/src/tool/skill.ts @097ed81): the
/// trimmed body under `# Skill: N`, the folder as a `file://` URL, and up
/// to 10 of its files other than SKILL.md, in `<skill_content name="N">`.
pub fn opencode_loaded(name: &str, body: &str, dir: &Path, files: &[PathBuf]) -> String {
    let files: Vec<String> = files
        .iter()
        .map(|f| format!("<file>{}</file>", f.display()))
        .collect();
    [
        format!("<skill_content name=\"{name}\">"),
        format!("# Skill: {name}"),
        String::new(),
        body.trim().to_string(),
        String::new(),
        format!("Base directory for this skill: {}", file_url(dir)),
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.".into(),
        "Note: file list is sampled.".into(),
        String::new(),
        "<skill_files>".into(),
        files.join("\n"),
        "</skill_files>".into(),
        "</skill_content>".into(),
    ]
    .join("\n")
}

/// Node's `pathToFileURL` for an absolute path: `%` and the URL path
/// percent-encode set (WHATWG URL "path percent-encode set": C0 controls,
/// space, `"`, `#`, `<`, `>`, `?`, `` ` ``, `{`, `}`, and non-ASCII) as
/// `%XX` of the UTF-8 bytes.
fn file_url(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b <= 0x20 || b >= 0x7f || b"\"#<>?`{}%".contains(&b) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(b as char);
        }
    }
    out
}

/// What seed 001's SkillTool does for one skill ("Tool Invocation Flow"):
/// the loading line, then the tool result with the complete SKILL.md as
/// `content` and the skill folder as `base_path`, written as the seed
/// writes it (one line, `", "` and `": "` separators).
pub fn omniforge_invoked(name: &str, base_path: &str, content: &str) -> String {
    let s = |v: &str| serde_json::to_string(v).unwrap_or_default();
    format!(
        "The \"{name}\" skill is loading\n{{\"success\": true, \"result\": {{\"skill_name\": {}, \"base_path\": {}, \"content\": {}}}}}",
        s(name),
        s(base_path),
        s(content)
    )
}

/// Seed 003's error for an unknown name: every discovered skill, hidden
/// ones and built-ins included.
pub fn amp_not_found(name: &str, finds: &Finds) -> String {
    let names: Vec<&str> = finds.winners().map(|c| c.name.as_str()).collect();
    format!(
        "Skill \"{name}\" not found. Available: {}",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::scan::Place;
    use crate::core::agents::table;
    use crate::core::cao::store::Status;
    use std::path::PathBuf;

    fn agent(id: &str) -> Agent {
        table::built_in().into_iter().find(|a| a.id == id).unwrap()
    }

    fn finds(rows: &[(&str, &str, Scope, bool)]) -> Finds {
        let places = [Scope::Project, Scope::User, Scope::Admin, Scope::Builtin]
            .iter()
            .enumerate()
            .map(|(i, s)| Place {
                loc: i,
                path: PathBuf::from(format!("/p{i}")),
                scope: *s,
                exists: true,
                builtin: false,
            })
            .collect();
        let candidates = rows
            .iter()
            .map(|(name, desc, scope, hidden)| Candidate {
                name: name.to_string(),
                description: desc.to_string(),
                path: PathBuf::from(format!("/s/{name}")),
                place: match scope {
                    Scope::Project => 0,
                    Scope::User => 1,
                    Scope::Admin => 2,
                    _ => 3,
                },
                status: Status::Ok,
                shadowed_by: None,
                error: None,
                hidden: *hidden,
                priority: 0,
                manifest: Vec::new(),
            })
            .collect();
        Finds { places, candidates }
    }

    // Seed 003 "Available Skills Prompt": exact bytes, hidden skills out,
    // none visible gives nothing.
    #[test]
    fn amp_catalog_is_seed_003s_format() {
        let f = finds(&[
            ("A", "descA", Scope::Project, false),
            ("H", "hidden", Scope::User, true),
            ("B", "descB", Scope::User, false),
        ]);
        let cat = catalog(&agent("amp"), &f);
        assert_eq!(
            cat.text.as_deref(),
            Some(
                "The following skills provide specialized instructions for specific tasks.\nUse the skill tool to load a skill when the task matches its description.\n\n<available_skills>\n  <skill>\n    <name>A</name>\n    <description>descA</description>\n  </skill>\n  <skill>\n    <name>B</name>\n    <description>descB</description>\n  </skill>\n</available_skills>"
            )
        );
        assert_eq!(cat.budget, Some(100));
        let none = finds(&[("H", "hidden", Scope::User, true)]);
        assert_eq!(catalog(&agent("amp"), &none).text, None);
    }

    // Seed 001 "Tool Invocation Flow".
    #[test]
    fn omniforge_invocation_is_seed_001s_result() {
        assert_eq!(
            omniforge_invoked(
                "code-review",
                "/p/code-review",
                "---\nname: x\n---\nA \"q\"\n"
            ),
            "The \"code-review\" skill is loading\n{\"success\": true, \"result\": {\"skill_name\": \"code-review\", \"base_path\": \"/p/code-review\", \"content\": \"---\\nname: x\\n---\\nA \\\"q\\\"\\n\"}}"
        );
    }

    // Seed 003 "Skill Loading".
    #[test]
    fn amp_loaded_skill_is_seed_003s_join() {
        assert_eq!(
            amp_loaded("N", "body\n", None),
            "<loaded_skill name=\"N\">\nbody\n\n\n</loaded_skill>"
        );
        assert_eq!(
            amp_loaded("N", "body\n", Some("x y")),
            "<loaded_skill name=\"N\">\nbody\n\n\nArguments: x y\n</loaded_skill>"
        );
    }

    // Seed 001 "Skill Tool Description": its own three example entries
    // give its block, one blank line between entries.
    #[test]
    fn omniforge_catalog_is_seed_001s_tool_description() {
        let f = finds(&[
            (
                "commit-message-generator",
                "Generates clear, conventional commit messages from git diffs. Use when writing commit messages or reviewing staged changes.",
                Scope::Admin,
                false,
            ),
            (
                "pdf-processing",
                "Extract text and tables from PDFs, fill form fields, merge documents. Use when working with PDF files, forms, or document processing.",
                Scope::User,
                false,
            ),
            (
                "kubernetes-deploy",
                "Deploy applications to Kubernetes following team standards. Use when deploying to K8s or managing cluster resources.",
                Scope::Project,
                false,
            ),
        ]);
        let text = catalog(&agent("omniforge"), &f).text.unwrap();
        let block = "## Available Skills\n\nThe following skills are available:\n\n<available_skills>\n\"commit-message-generator\": Generates clear, conventional commit messages from git diffs. Use when writing commit messages or reviewing staged changes.\n\n\"pdf-processing\": Extract text and tables from PDFs, fill form fields, merge documents. Use when working with PDF files, forms, or document processing.\n\n\"kubernetes-deploy\": Deploy applications to Kubernetes following team standards. Use when deploying to K8s or managing cluster resources.\n</available_skills>\n\n## Important Requirements\n";
        assert!(text.contains(block), "{text}");
        assert!(text.starts_with("# Skill Tool\n\nExecute specialized skills"));
        assert!(
            text.ends_with("This keeps context lean while providing full capability when needed.")
        );
        let cat = catalog(&agent("omniforge"), &f);
        assert_eq!((cat.unit, cat.budget), ("bytes", Some(1024)));
        assert!(cat.actions.is_empty());
    }

    // Codex render.rs @deae88d: 8,000 characters, whole lines omitted.
    #[test]
    fn codex_omits_whole_lines_past_8000_characters() {
        let long = "d".repeat(3000);
        let rows: Vec<(String, Scope)> = (0..4).map(|i| (format!("s{i}"), Scope::User)).collect();
        let f = finds(
            &rows
                .iter()
                .map(|(n, s)| (n.as_str(), long.as_str(), *s, false))
                .collect::<Vec<_>>(),
        );
        let cat = catalog(&agent("codex"), &f);
        assert_eq!(cat.budget, Some(8000));
        assert!(cat.size <= 8000);
        assert_eq!(cat.actions.len(), 1);
        assert!(cat.actions[0].starts_with("Skills list trimmed to fit the metadata budget: showing 2 of 4 enabled skills (8000 characters). Omitted skills include s2 (user), s3 (user)."));
    }

    // code.claude.com/docs/en/skills: 1,536 per entry; names always stay.
    #[test]
    fn claude_caps_each_description_and_keeps_every_name() {
        let long = "d".repeat(2000);
        let rows: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
        let f = finds(
            &rows
                .iter()
                .map(|n| (n.as_str(), long.as_str(), Scope::User, false))
                .collect::<Vec<_>>(),
        );
        let cat = catalog(&agent("claude-code"), &f);
        let text = cat.text.unwrap();
        assert!(cat.size <= 8000);
        for n in &rows {
            assert!(text.contains(&format!("- {n}:")));
        }
        assert!(cat.actions.iter().any(|a| a.contains("cut to 1536")));
    }
}
