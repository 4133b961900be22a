//! What an agent's model is shown about skills, where the agent (or its
//! skills design) documents it, measured against its budget; and what its skill
//! tool returns for one skill.

use std::path::{Path, PathBuf};

use crate::core::agents::codex_budget;
use crate::core::agents::codex_plugins;
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
        Some("cleo") => cleo(&visible, agent),
        Some("codex") => codex(&visible, finds, agent),
        Some("opencode") => opencode(&visible),
        Some("gemini") => gemini(finds),
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

/// Amp's skills design, "Available Skills Prompt" (`formatAvailableSkills`),
/// to the letter: no visible skill gives null (nothing); the
/// `argument-hint` is computed there but never printed; names and
/// descriptions unescaped; discovery order. The budget is the design's
/// Token Budget row "Level 1 |
/// Startup | ~100 tokens | Name + description only": per skill, so each
/// skill's name and description is measured against it (the meter shows
/// the largest), never the whole list.
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
    let budget = agent.budget.as_ref().and_then(|b| b.tokens);
    let tokens = |c: &Candidate| {
        crate::core::cao::catalog::estimate_tokens(chars(&c.name) + chars(&c.description))
    };
    let size = visible.iter().map(|c| tokens(c)).max().unwrap_or(0);
    let actions = visible
        .iter()
        .filter(|c| budget.is_some_and(|b| tokens(c) > b))
        .map(|c| {
            format!(
                "{}: name + description ~{} tokens, over Amp's documented ~100 per skill (informative: nothing dropped)",
                c.name,
                tokens(c)
            )
        })
        .collect();
    Catalog {
        text,
        about: "Amp's documented Available Skills prompt (exact); budget per skill".into(),
        size,
        unit: "tokens a skill, largest (est. 4 chars a token)",
        budget,
        actions,
    }
}

/// OmniForge's skills design, "Skill Tool Description": the whole tool
/// description with `"name": description` entries, one blank line between
/// them. Decisions: entries in discovery order (layer, then folder); with
/// no skill the description is still emitted with an empty block; nothing
/// is dropped (the design defines no shortening). The budget is Success Criteria's
/// "Stage 1 loading adds < 1KB to agent context regardless of skill
/// count", measured over what stage 1 really adds: the whole tool
/// description it loads ("Skills list embedded in the `SkillTool`
/// description"), fixed text and entries, in bytes; not the entries alone.
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
    let size = text.len();
    let fixed = size - block.len();
    let mut actions = Vec::new();
    if budget.is_some_and(|b| size > b) {
        actions.push(format!(
            "over OmniForge's documented \"< 1KB\" Stage 1 criterion ({fixed} bytes of it the tool's fixed text, {} the {} entries); OmniForge documents no shortening: nothing dropped",
            block.len(),
            entries.len()
        ));
    }
    Catalog {
        text: Some(text),
        about: "OmniForge's documented Skill tool description (exact); budget over the whole description stage 1 loads".into(),
        size,
        unit: "bytes",
        budget,
        actions,
    }
}

/// CLEO's two-tier design documents no model-facing skill list: the
/// orchestrator (tier 0) "Reads manifest summaries only" within "Context
/// budget: 10K tokens". The meter measures those summaries (each loaded
/// skill's name and description, one line each) against that budget.
fn cleo(visible: &[&Candidate], agent: &Agent) -> Catalog {
    let lines: usize = visible
        .iter()
        .map(|c| chars(&c.name) + 2 + chars(&c.description) + 1)
        .sum();
    let size = crate::core::cao::catalog::estimate_tokens(lines);
    let budget = agent.budget.as_ref().and_then(|b| b.tokens);
    let mut actions = Vec::new();
    if budget.is_some_and(|b| size > b) {
        actions.push("over CLEO's documented orchestrator context budget (10K tokens): informative, nothing dropped".into());
    }
    Catalog {
        text: None,
        about: "CLEO documents no skill list; the orchestrator reads manifest summaries within a 10K-token context budget".into(),
        size,
        unit: "tokens of manifest summaries (est.)",
        budget,
        actions,
    }
}

/// Codex 0.169.0 (`codex debug prompt-input`, checked by the fuzzer,
/// tests/oracles/fuzz/codex.rs): the block names each skill root that
/// holds a listed skill as `rN` (roots in Codex's own root order: the
/// places' order here), then one line `- name: description (file:
/// rN/rel/SKILL.md)` per skill, ordered System, Admin, Repo, User, then
/// name, then the SKILL.md path with links resolved, byte by byte (the
/// ordering of openai/codex core-skills/src/render.rs; the path shown is
/// the one found, links unresolved). The budget and what Codex shows over
/// it: `codex_budget`.
fn codex(visible: &[&Candidate], finds: &Finds, agent: &Agent) -> Catalog {
    let rows = codex_order(visible, finds);
    let (roots, alias_of) = codex_alias_roots(visible, finds);
    let path = |p: &Path| p.to_string_lossy().replace('\\', "/");
    let absolute: Vec<codex_budget::Line> = rows
        .iter()
        .map(|c| codex_line(c, path(&c.path.join("SKILL.md"))))
        .collect();
    let aliased: Vec<codex_budget::Line> = rows
        .iter()
        .map(|c| {
            let root = alias_of(c.place);
            let i = roots.iter().position(|r| *r == root).unwrap_or(0);
            let rel = c.path.join("SKILL.md");
            let rel = rel.strip_prefix(&root).map(path).unwrap_or_default();
            codex_line(c, format!("r{i}/{rel}"))
        })
        .collect();
    let table: Vec<String> = (roots.iter().enumerate())
        .map(|(i, r)| format!("- `r{i}` = `{}`", path(r)))
        .collect();
    let window = codex_home(finds, agent).and_then(|h| codex_budget::configured_window(&h));
    let budget = match window {
        Some(w) => codex_budget::limit_for(w),
        None => agent.budget.as_ref().and_then(|b| b.tokens).unwrap_or(5440),
    };
    let (fitted, with_table) = codex_budget::choose(&absolute, &aliased, &table, budget);
    let shown_table = if with_table { &table[..] } else { &[] };
    Catalog {
        text: (!visible.is_empty()).then(|| codex_budget::block(shown_table, &fitted.lines)),
        about: "Codex's skills text, verified against Codex 0.169.0".into(),
        size: fitted.full_cost,
        unit: "tokens (estimated: 4 bytes a token)",
        budget: Some(budget),
        actions: codex_actions(&fitted, budget),
    }
}

fn codex_line(c: &Candidate, path: String) -> codex_budget::Line<'_> {
    codex_budget::Line {
        name: &c.name,
        description: &c.description,
        path,
    }
}

/// Codex's order: System, Admin, Repo, User (plugins with users), then
/// name, then the SKILL.md path with links resolved, byte by byte.
fn codex_order<'a>(visible: &[&'a Candidate], finds: &Finds) -> Vec<&'a Candidate> {
    use std::os::unix::ffi::OsStrExt;
    let rank = |s: Scope| match s {
        Scope::Builtin => 0,
        Scope::Admin => 1,
        Scope::Project => 2,
        Scope::User | Scope::Plugin => 3,
    };
    let mut rows: Vec<(&Candidate, PathBuf)> = visible
        .iter()
        .map(|c| (*c, crate::core::fsops::absolute(&c.path.join("SKILL.md"))))
        .collect();
    rows.sort_by(|(a, ra), (b, rb)| {
        (rank(finds.scope(a)), &a.name, ra.as_os_str().as_bytes()).cmp(&(
            rank(finds.scope(b)),
            &b.name,
            rb.as_os_str().as_bytes(),
        ))
    });
    rows.into_iter().map(|(c, _)| c).collect()
}

/// The roots the table names, in order, and each place's: a plugin's may
/// be its marketplace folder (`codex_plugins::alias_root`), and roots
/// naming one folder are one entry.
fn codex_alias_roots<'a>(
    visible: &[&Candidate],
    finds: &'a Finds,
) -> (Vec<PathBuf>, impl Fn(usize) -> PathBuf + 'a) {
    let listed: Vec<PathBuf> = visible.iter().map(|c| c.path.join("SKILL.md")).collect();
    let alias_of =
        move |place: usize| codex_plugins::alias_root(&finds.places[place].path, &listed);
    let mut roots: Vec<PathBuf> = Vec::new();
    for place in codex_roots(visible) {
        let alias = alias_of(place);
        if !roots.contains(&alias) {
            roots.push(alias);
        }
    }
    (roots, alias_of)
}

/// What Codex's budget did to the list, one line each.
fn codex_actions(fitted: &codex_budget::Fitted, budget: usize) -> Vec<String> {
    if fitted.omitted > 0 {
        vec![format!(
            "names and paths alone are over Codex's {budget} tokens: every description is dropped and {} skills are left out",
            fitted.omitted
        )]
    } else if fitted.shortened > 0 {
        vec![format!(
            "the list costs about {} tokens, over Codex's {budget}: {} descriptions are cut to fit",
            fitted.full_cost, fitted.shortened
        )]
    } else {
        Vec::new()
    }
}

/// `$CODEX_HOME`: the folder above the user layer's `skills` place (the
/// location that `CODEX_HOME` moves).
fn codex_home(finds: &Finds, agent: &Agent) -> Option<PathBuf> {
    finds
        .places
        .iter()
        .find(|p| {
            agent.locations.get(p.loc).is_some_and(|l| {
                l.env.as_deref() == Some("CODEX_HOME") && l.env_suffix.as_deref() == Some("skills")
            })
        })
        .and_then(|p| p.path.parent().map(Path::to_path_buf))
}

/// The places holding a listed skill, in the places' order: Codex's `rN`.
fn codex_roots(visible: &[&Candidate]) -> Vec<usize> {
    let mut used: Vec<usize> = visible.iter().map(|c| c.place).collect();
    used.sort_unstable();
    used.dedup();
    used
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
        about: "OpenCode's skills text as its source writes it (the verbose form)".into(),
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

/// Gemini CLI (@google/gemini-cli-core 0.61.0 dist/src/prompts/snippets.js
/// `renderAgentSkills`, trimmed): entries joined by a newline; none gives
/// nothing. The order is its skill map's (skillManager.js
/// `addSkillsWithPrecedence`, a JavaScript `Map`): every copy in load
/// order, each name where it was first loaded, holding the copy that won.
/// The load order is the candidates' precedence order reversed: dirs from
/// built-in up to `./.agents/skills`, and inside one dir its glob's order,
/// the dir's own `SKILL.md` first, then subfolders in descending byte
/// order of name (observed with gemini-cli-core 0.61.0: its glob walks on
/// several threads and now and then two neighbours swap; this is the
/// usual order).
fn gemini(finds: &Finds) -> Catalog {
    let mut seen = std::collections::HashSet::new();
    let mut entries: Vec<&Candidate> = Vec::new();
    let loaded = (finds.candidates.iter().rev())
        .filter(|c| c.status != crate::core::cao::store::Status::Invalid);
    for c in loaded {
        if seen.insert(c.name.as_str()) {
            entries.extend(finds.winner(&c.name).filter(|w| !w.hidden));
        }
    }
    let text = (!entries.is_empty()).then(|| {
        let list: Vec<String> = entries
            .iter()
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
        about: "Gemini CLI's skills text, verified against gemini-cli-core 0.61.0; inside one folder its glob's usual order (the dir's SKILL.md, then folders by name descending), which its worker threads now and then swap".into(),
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
    let full: Vec<usize> = visible
        .iter()
        .zip(&descs)
        .map(|(c, d)| chars(&entry(&c.name, d)) + 1)
        .collect();
    let bare: Vec<usize> = visible
        .iter()
        .map(|c| chars(&entry(&c.name, "")) + 1)
        .collect();
    let (cleared, size) = shorten_from_the_end(&full, &bare, limit).0;
    for &i in &cleared {
        actions.push(format!(
            "{}: description shortened away to fit",
            visible[i].name
        ));
        descs[i].clear();
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
        size,
        unit: "chars",
        budget: Some(limit),
        actions,
    }
}

/// Which entries lose their description, from the end of the list, until
/// the total fits `limit`: `full[i]` and `bare[i]` are entry i's cost with
/// and without it. The total is kept as it changes, so the work is linear
/// (recomputing it at every step is quadratic: seconds for 10,000 skills).
/// Returns the cleared indices and the final total, then the number of
/// entries looked at.
fn shorten_from_the_end(
    full: &[usize],
    bare: &[usize],
    limit: usize,
) -> ((Vec<usize>, usize), usize) {
    let mut total: usize = full.iter().sum();
    let (mut cleared, mut steps) = (Vec::new(), 0);
    for i in (0..full.len()).rev() {
        if total <= limit {
            break;
        }
        steps += 1;
        if full[i] > bare[i] {
            total -= full[i] - bare[i];
            cleared.push(i);
        }
    }
    ((cleared, total), steps)
}

/// What the `skill` tool of Amp's skills design returns (`loadSkill`,
/// "Skill Loading"): `<loaded_skill name="N">`, the body, an empty line or
/// `\nArguments: A`, `</loaded_skill>`, joined by newlines.
/// `args ? ... : ""` is JavaScript: an empty string is falsy, so
/// `--arguments ""` adds nothing.
pub fn amp_loaded(name: &str, content: &str, args: Option<&str>) -> String {
    let args = args
        .filter(|a| !a.is_empty())
        .map_or(String::new(), |a| format!("\nArguments: {a}"));
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

/// What the SkillTool of OmniForge's skills design does for one skill
/// ("Tool Invocation Flow"): the loading line, then the tool result with
/// the complete SKILL.md as `content` and the skill folder as `base_path`,
/// written as the design writes it (one line, `", "` and `": "` separators).
pub fn omniforge_invoked(name: &str, base_path: &str, content: &str) -> String {
    let s = |v: &str| serde_json::to_string(v).unwrap_or_default();
    format!(
        "The \"{name}\" skill is loading\n{{\"success\": true, \"result\": {{\"skill_name\": {}, \"base_path\": {}, \"content\": {}}}}}",
        s(name),
        s(base_path),
        s(content)
    )
}

/// The error of Amp's skills design for an unknown name: every discovered
/// skill, hidden ones and built-ins included.
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
        Finds {
            places,
            candidates,
            ..Finds::default()
        }
    }

    fn skill(dir: &std::path::Path, folder: &str, name: &str) {
        let d = dir.join(folder);
        std::fs::create_dir_all(&d).unwrap();
        let text = format!("---\nname: {name}\ndescription: does {name}\n---\nbody\n");
        std::fs::write(d.join("SKILL.md"), text).unwrap();
    }

    // gemini-cli-core 0.61.0, observed: a dir's own SKILL.md first, then
    // its folders in descending byte order; dirs from built-in to
    // ./.agents/skills; an overriding copy keeps the first copy's place.
    #[test]
    fn gemini_lists_each_dir_in_its_glob_order_and_keeps_the_first_place() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let cwd = tmp.path().join("repo/apps/web");
        std::fs::create_dir_all(tmp.path().join("repo/.git")).unwrap();
        std::fs::create_dir_all(&cwd).unwrap();
        let user = home.join(".gemini/skills");
        for name in ["b-x", "a-x", "B-x", "c-x"] {
            skill(&user, name, name);
        }
        skill(&user, "", "root-x");
        skill(&home.join(".agents/skills"), "z", "z-x");
        // The workspace copy of a-x wins and stays where a-x came first.
        skill(&cwd.join(".agents/skills"), "a", "a-x");
        let ctx = crate::core::agents::scan::Ctx {
            user_home: home,
            cwd,
            env: Default::default(),
            cao: None,
        };
        let a = agent("gemini-cli");
        let found = crate::core::agents::discover::find(&a, &ctx);
        let text = catalog(&a, &found).text.unwrap_or_default();
        let order: Vec<&str> = (text.lines())
            .filter_map(|l| l.trim().strip_prefix("<name>"))
            .map(|l| l.trim_end_matches("</name>"))
            .collect();
        let user_order = ["root-x", "c-x", "b-x", "a-x", "B-x", "z-x"];
        assert_eq!(order[order.len() - 6..], user_order);
    }

    // Amp's skills design, "Available Skills Prompt": exact bytes, hidden
    // skills out, none visible gives nothing.
    #[test]
    fn amp_catalog_is_the_available_skills_prompt() {
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

    // OmniForge's skills design, "Tool Invocation Flow".
    #[test]
    fn omniforge_invocation_is_the_tool_result() {
        assert_eq!(
            omniforge_invoked(
                "code-review",
                "/p/code-review",
                "---\nname: x\n---\nA \"q\"\n"
            ),
            "The \"code-review\" skill is loading\n{\"success\": true, \"result\": {\"skill_name\": \"code-review\", \"base_path\": \"/p/code-review\", \"content\": \"---\\nname: x\\n---\\nA \\\"q\\\"\\n\"}}"
        );
    }

    // Amp's skills design, "Skill Loading".
    #[test]
    fn amp_loaded_skill_is_the_loaded_skill_join() {
        assert_eq!(
            amp_loaded("N", "body\n", None),
            "<loaded_skill name=\"N\">\nbody\n\n\n</loaded_skill>"
        );
        assert_eq!(
            amp_loaded("N", "body\n", Some("x y")),
            "<loaded_skill name=\"N\">\nbody\n\n\nArguments: x y\n</loaded_skill>"
        );
    }

    // OmniForge's skills design, "Skill Tool Description": its own three
    // example entries give its block, one blank line between entries.
    #[test]
    fn omniforge_catalog_is_the_skill_tool_description() {
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
        assert_eq!(cat.size, text.len());
    }

    // OmniForge's skills design, "Success Criteria": "Stage 1 loading adds
    // < 1KB to agent context regardless of skill count",
    // measured over what stage 1 really adds: the whole SkillTool
    // description ("Skills list embedded in the `SkillTool` description"),
    // not its entries alone.
    #[test]
    fn omniforge_stage_1_is_measured_over_the_whole_tool_description() {
        let none = catalog(&agent("omniforge"), &finds(&[]));
        let fixed = none.text.as_deref().unwrap().len();
        assert_eq!(none.size, fixed);
        assert_eq!(
            fixed,
            formats::OMNIFORGE_HEAD.len()
                + "<available_skills>\n</available_skills>\n".len()
                + formats::OMNIFORGE_TAIL.len()
        );
        // The design's fixed text alone is over 1 KB: said, nothing dropped.
        assert!(fixed > 1024);
        assert!(none.actions[0].contains(&format!("{fixed} bytes of it the tool's fixed text")));
        let one = catalog(
            &agent("omniforge"),
            &finds(&[("k", "d", Scope::User, false)]),
        );
        assert_eq!(one.size, fixed + "\"k\": d\n".len());
    }

    // Amp's skills design, "Token Budget": "Level 1 | Startup | ~100 tokens
    // | Name + description only": per skill, not the list.
    #[test]
    fn amp_100_tokens_is_a_budget_per_skill() {
        let many: Vec<(String, String)> = (0..20)
            .map(|i| (format!("s{i}"), "d".repeat(200)))
            .collect();
        let rows: Vec<(&str, &str, Scope, bool)> = many
            .iter()
            .map(|(n, d)| (n.as_str(), d.as_str(), Scope::User, false))
            .collect();
        let cat = catalog(&agent("amp"), &finds(&rows));
        // 20 skills of ~51 tokens each: the list is ~1,000, each is under.
        assert_eq!((cat.size, cat.budget), (51, Some(100)));
        assert!(cat.actions.is_empty(), "{:?}", cat.actions);
        let long = "d".repeat(400);
        let cat = catalog(
            &agent("amp"),
            &finds(&[
                ("a", "short", Scope::User, false),
                ("big", &long, Scope::User, false),
            ]),
        );
        assert_eq!(cat.size, 101);
        assert_eq!(cat.actions.len(), 1);
        assert!(cat.actions[0].starts_with("big: name + description ~101 tokens"));
    }

    // Amp's skills design, "Skill Loading":
    // "args ? `\nArguments: ${args}` : \"\"": `--arguments ""` adds nothing.
    #[test]
    fn amp_empty_arguments_add_nothing() {
        assert_eq!(amp_loaded("N", "b", Some("")), amp_loaded("N", "b", None));
    }

    // CLEO's two-tier design, "TIER 0": "Context budget: 10K tokens";
    // "Reads manifest summaries only".
    #[test]
    fn cleo_the_10k_token_budget_is_shown() {
        let cat = catalog(
            &agent("cleo"),
            &finds(&[("ct-a", "desc", Scope::Project, false)]),
        );
        assert_eq!(cat.budget, Some(10000));
        assert_eq!(cat.text, None);
        assert_eq!(cat.meter(), format!("{} / 10000 {}", cat.size, cat.unit));
        assert_eq!(cat.size, "ct-a: desc\n".len().div_ceil(4));
    }

    // Codex 0.169.0 `codex debug prompt-input` (tests/agent_oracles.rs
    // compares on generated homes): roots numbered in place order, only
    // those holding a listed skill; entries by scope rank then name.
    #[test]
    fn codex_names_its_roots_and_lists_short_paths() {
        let f = finds(&[
            ("b", "desc b", Scope::User, false),
            ("a", "", Scope::Project, false),
            ("h", "hidden", Scope::Admin, true),
        ]);
        // Each skill folder inside its place; places with real-length
        // paths (with `/p0`, whole paths cost no more than short ones, and
        // Codex then shows them: codex_budget::choose).
        let mut places = f.places.clone();
        for p in &mut places {
            p.path = PathBuf::from(format!("/home/someone/.agents/skills{}", p.path.display()));
        }
        let f = Finds {
            candidates: f
                .candidates
                .iter()
                .map(|c| Candidate {
                    path: places[c.place].path.join(&c.name),
                    ..c.clone()
                })
                .collect(),
            places,
            ..Finds::default()
        };
        let cat = catalog(&agent("codex"), &f);
        let text = cat.text.unwrap();
        assert!(text.ends_with(
            "### Skill roots\n- `r0` = `/home/someone/.agents/skills/p0`\n- `r1` = `/home/someone/.agents/skills/p1`\n### Available skills\n- a: (file: r0/a/SKILL.md)\n- b: desc b (file: r1/b/SKILL.md)\n</skills_instructions>"
        ), "{text}");
        assert_eq!(cat.budget, Some(5440));
        assert!(cat.actions.is_empty());
    }

    // Shortening looks at each entry at most once.
    #[test]
    fn claude_shortening_is_linear_in_the_entries() {
        let n = 10_000;
        let full = vec![100; n];
        let bare = vec![10; n];
        let ((cleared, total), steps) = shorten_from_the_end(&full, &bare, 8000);
        assert!(steps <= n, "{steps} steps for {n} entries");
        assert_eq!(cleared.len(), steps);
        assert!(total > 8000, "names alone exceed the budget: all cleared");
        let ((cleared, total), steps) = shorten_from_the_end(&full[..90], &bare[..90], 8000);
        assert_eq!((cleared.len(), steps), (12, 12));
        assert!(total <= 8000);
        assert_eq!(cleared[0], 89, "from the end");
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
