//! How each agent reads a SKILL.md: whether it loads, under which name and
//! description, and whether the model's list shows it. One reader per
//! documented parser; each cites where its rule comes from.

use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;

use crate::core::agents::table::Parser;
use crate::core::parse::frontmatter::{self, Normalized};
use crate::core::parse::yaml::{self, Node, Value};

/// What one agent makes of one SKILL.md.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The name the agent knows it by (`None` when it does not load).
    pub name: Option<String>,
    pub description: Option<String>,
    /// Why the agent refuses it, in the agent's words where it has some.
    pub error: Option<String>,
    /// Loaded but left out of the model's list (seed 003's
    /// `disable-model-invocation`, OpenCode without a description).
    pub hidden: bool,
    /// The frontmatter mapping, for previews and lints.
    pub frontmatter: Option<Rc<Node>>,
    /// The body as the agent hands it to the model.
    pub body: String,
}

impl Read {
    fn refused(msg: impl Into<String>) -> Read {
        Read {
            error: Some(msg.into()),
            ..Read::default()
        }
    }
}

/// Reads `text` (the SKILL.md of folder `dir_name`) with `parser`'s rule.
/// `Parser::Cao` and `Parser::Cleo` read like the Agent Skills baseline
/// here; CAO's own verdict and CLEO's manifest are applied by the caller.
pub fn read(parser: Parser, text: &str, dir_name: &str) -> Read {
    match parser {
        Parser::Amp => amp(text),
        Parser::Codex => codex(text, dir_name),
        Parser::Gemini => gemini(text),
        Parser::Claude => claude(text, dir_name),
        Parser::Opencode => opencode(text),
        Parser::Omniforge | Parser::Agentskills | Parser::Cleo | Parser::Cao => baseline(text),
    }
}

/// Seed 003 "Parsing SKILL.md", to the letter:
/// `/^---\n([\s\S]*?)\n---\n([\s\S]*)$/`; no match, or an empty group 1 or
/// 2 (so an empty body), throws "SKILL.md must have YAML frontmatter";
/// `!frontmatter.name || !frontmatter.description` throws "SKILL.md
/// frontmatter must include name and description". Seed 003 "Available
/// Skills Prompt" drops skills whose `disable-model-invocation` is truthy.
/// Decision: the YAML is read with skilltui's YAML 1.1 reader, where the
/// seed's `yaml` package reads 1.2 (they differ on `yes`/`no` scalars).
fn amp(text: &str) -> Read {
    const NO_FM: &str = "SKILL.md must have YAML frontmatter";
    let Some((fm, body)) = amp_split(text) else {
        return Read::refused(NO_FM);
    };
    if fm.is_empty() || body.is_empty() {
        return Read::refused(NO_FM);
    }
    let root = match yaml::load(fm) {
        Ok(root) => root,
        Err(e) => return Read::refused(format!("invalid YAML: {e}")),
    };
    let field = |k: &str| root.as_ref().and_then(|r| r.get(k)).cloned();
    let (name, description) = (field("name"), field("description"));
    let truthy = |n: &Option<Rc<Node>>| n.as_ref().is_some_and(|n| js_truthy(&n.value));
    if !truthy(&name) || !truthy(&description) {
        return Read::refused("SKILL.md frontmatter must include name and description");
    }
    Read {
        name: name.map(|n| js_string(&n.value)),
        description: description.map(|n| js_string(&n.value)),
        error: None,
        hidden: field("disable-model-invocation").is_some_and(|n| js_truthy(&n.value)),
        frontmatter: root,
        body: body.to_string(),
    }
}

/// Seed 003's regex `/^---\n([\s\S]*?)\n---\n([\s\S]*)$/` without a
/// regex engine (capturing 16 KiB bodies with a lazy group is slow): the
/// text opens with `---\n`; group 1 ends at the first `\n---\n` after
/// that (lazy); group 2 is everything after it (`$` without the `m` flag
/// is the end of the input).
fn amp_split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = memchr::memmem::find(rest.as_bytes(), b"\n---\n")?;
    Some((&rest[..end], &rest[end + 5..]))
}

/// JavaScript's truthiness of a parsed YAML value.
fn js_truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Float(f) => *f != 0.0 && !f.is_nan(),
        Value::Str(s) => !s.is_empty(),
        _ => true,
    }
}

/// JavaScript's `String(value)` for the scalars a name can be.
fn js_string(v: &Value) -> String {
    match v {
        Value::Str(s) | Value::Timestamp(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        Value::Seq(_) | Value::Pairs(_) => "[list]".into(),
        Value::Map(_) => "[object Object]".into(),
        Value::Bytes(_) => "[binary]".into(),
    }
}

/// Codex (openai/codex core-skills/src/loader.rs @c9d127cf,
/// `extract_frontmatter`, `parse_skill_file`, `validate_len`): the first
/// line trimmed is `---`, the frontmatter ends at the next line trimmed
/// `---`; the name (whitespace collapsed, empty: the folder's) is at most
/// 64 chars; the description is required and at most 1,024 chars (the
/// error behaviour, not the newer truncation: decision).
fn codex(text: &str, dir_name: &str) -> Read {
    const MISSING: &str = "missing YAML frontmatter delimited by ---";
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some("---") {
        return Read::refused(MISSING);
    }
    let mut fm = Vec::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim() == "---" {
            closed = true;
            break;
        }
        fm.push(line);
    }
    if !closed || fm.is_empty() {
        return Read::refused(MISSING);
    }
    let (root, fallback) = match yaml::load(&fm.join("\n")) {
        Ok(root) => (root, None),
        // Codex 0.169.0 loads what its YAML parser refuses when every line
        // is `key: value` (`description: has: colon` gives `has: colon`;
        // an indented line refuses it): tests/agent_oracles.rs.
        Err(e) => match line_fields(&fm) {
            Some(fields) => (None, Some(fields)),
            None => return Read::refused(format!("invalid YAML: {e}")),
        },
    };
    let string = |k: &str| -> Result<Option<String>, String> {
        if let Some(fields) = &fallback {
            let v = fields.iter().find(|(key, _)| key == k).map(|(_, v)| v);
            return Ok(v.map(|v| crate::core::text::collapse_whitespace(v)));
        }
        match root.as_ref().and_then(|r| r.get(k)).map(|n| &n.value) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Str(s)) => Ok(Some(crate::core::text::collapse_whitespace(s))),
            Some(_) => Err(format!("invalid YAML: {k}: expected a string")),
        }
    };
    let (name, description) = match (string("name"), string("description")) {
        (Ok(n), Ok(d)) => (n, d),
        (Err(e), _) | (_, Err(e)) => return Read::refused(e),
    };
    let name = name
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| dir_name.to_string());
    let Some(description) = description.filter(|d| !d.is_empty()) else {
        return Read::refused("missing field `description`");
    };
    if name.chars().count() > 64 {
        return Read::refused("invalid name: exceeds maximum length of 64 characters");
    }
    if description.chars().count() > 1024 {
        return Read::refused("invalid description: exceeds maximum length of 1024 characters");
    }
    Read {
        name: Some(name),
        description: Some(description),
        frontmatter: root,
        body: lines.collect::<Vec<_>>().join("\n"),
        ..Read::default()
    }
}

/// A frontmatter read line by line, where a YAML parser refuses it: each
/// non-blank line is `key: value` with the key at the line's start (the
/// value is what follows the first `:`, trimmed); any other line refuses
/// the whole.
fn line_fields(lines: &[&str]) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for line in lines.iter().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line.split_once(':')?;
        if key.is_empty() || key.starts_with(char::is_whitespace) {
            return None;
        }
        out.push((key.trim_end().to_string(), value.trim().to_string()));
    }
    Some(out)
}

/// Whether Codex keeps a skill out of the model's list: its
/// `agents/openai.yaml` says `policy: allow_implicit_invocation: false`
/// (the bundled `.system/review-agent` of @openai/codex 0.169.0 does;
/// openai/codex core-skills `SkillPolicy`, `allowed_skills_for_implicit_invocation`).
pub fn codex_hidden(folder: &std::path::Path) -> bool {
    let Ok(bytes) = crate::core::fsops::read_capped(&folder.join("agents/openai.yaml"), 64 << 10)
    else {
        return false;
    };
    let Ok(Some(root)) = yaml::load(&String::from_utf8_lossy(&bytes)) else {
        return false;
    };
    root.get("policy")
        .and_then(|p| p.get("allow_implicit_invocation"))
        .is_some_and(|n| matches!(n.value, Value::Bool(false)))
}

/// Gemini CLI (@google/gemini-cli-core 0.61.0
/// dist/src/skills/skillLoader.js, `loadSkillFromFile`):
/// `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/` (the body is
/// optional; a BOM fails it), then js-yaml with string `name` and
/// `description`, else the line reader (`gemini_lines`); the name has each
/// of `:\/<>*?"|` replaced by `-`; the body trimmed.
fn gemini(text: &str) -> Read {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\A---\r?\n((?s:.)*?)\r?\n---(?:\r?\n((?s:.)*))?").expect("regex")
    });
    let Some(caps) = RE.captures(text) else {
        return Read::refused("no frontmatter (skipped)");
    };
    let fm = &caps[1];
    // js-yaml keeps a block scalar's final line break at the end of the
    // input (`>` or `|` as the last field gives `text\n`): the newline the
    // regex left out is put back.
    let root = yaml::load(&format!("{fm}\n")).ok().flatten();
    let s = |k: &str| {
        root.as_ref()
            .and_then(|r| r.get(k))
            .and_then(|n| n.value.as_str())
            .map(str::to_string)
    };
    let fields = match (s("name"), s("description")) {
        (Some(n), Some(d)) => Some((n, d)),
        _ => gemini_lines(fm),
    };
    let Some((name, description)) = fields else {
        return Read::refused("no string name and description (skipped)");
    };
    let name = name
        .chars()
        .map(|c| if ":\\/<>*?\"|".contains(c) { '-' } else { c })
        .collect();
    Read {
        name: Some(name),
        description: Some(description),
        frontmatter: root,
        body: caps.get(2).map_or("", |m| m.as_str()).trim().to_string(),
        ..Read::default()
    }
}

/// Gemini's `parseSimpleFrontmatter` (skillLoader.js 0.61.0): the last
/// line `name: x` (leading blanks allowed) gives the name; a line
/// `description: x` and the indented lines after it, trimmed and joined by
/// a space (empty parts dropped), the description; both are needed.
fn gemini_lines(fm: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = fm
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(v) = line.strip_prefix("name:") {
            name = Some(v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("description:") {
            let mut parts = vec![v.trim().to_string()];
            while let Some(next) = lines.get(i + 1) {
                let indented = next.starts_with([' ', '\t']) && !next.trim().is_empty();
                if !indented {
                    break;
                }
                parts.push(next.trim().to_string());
                i += 1;
            }
            parts.retain(|p| !p.is_empty());
            description = Some(parts.join(" "));
        }
        i += 1;
    }
    Some((name?, description?))
}

/// Claude Code (https://code.claude.com/docs/en/skills, Frontmatter
/// reference): every field optional, unparseable YAML still loads with no
/// fields, the command name is the folder's, the description defaults to
/// the first paragraph of the body. Nothing is refused.
fn claude(text: &str, dir_name: &str) -> Read {
    let norm = Normalized::new(text);
    let (root, body) = match frontmatter::parse(&norm.text) {
        Ok(fm) => (fm.metadata().cloned(), fm.body),
        Err(_) => (None, norm.text.clone()),
    };
    let field = |k: &str| {
        root.as_ref()
            .and_then(|r| r.get(k))
            .and_then(|n| n.value.as_str())
            .map(str::to_string)
    };
    // The listing's text is `description` plus `when_to_use` (Frontmatter
    // reference: "Appended to description in the skill listing"; joined by
    // a space: decision); with no description, the first paragraph.
    let description = field("description")
        .or_else(|| first_paragraph(&body))
        .map(|d| match field("when_to_use") {
            Some(w) if !w.trim().is_empty() => format!("{d} {w}"),
            _ => d,
        });
    let hidden = root
        .as_ref()
        .and_then(|r| r.get("disable-model-invocation"))
        .is_some_and(|n| matches!(n.value, Value::Bool(true)));
    Read {
        name: Some(dir_name.to_string()),
        description,
        hidden,
        frontmatter: root,
        body,
        ..Read::default()
    }
}

/// The body's first paragraph (lines up to the first blank line, each
/// trimmed, joined by a space), `None` for an empty body.
fn first_paragraph(body: &str) -> Option<String> {
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// OpenCode (packages/opencode/src/skill/index.ts @a2cc772,
/// `isSkillFrontmatter`): a mapping with a string `name`; `description`
/// absent or a string. Without one it loads but `fmt` leaves it out of
/// the list. The docs' name pattern is not enforced by the code.
fn opencode(text: &str) -> Read {
    // opencode-ai 1.18.33 reads a SKILL.md that opens with a BOM
    // (tests/agent_oracles.rs).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let norm = Normalized::new(text);
    let fm = match frontmatter::parse(&norm.text) {
        Ok(fm) => fm,
        // OpenCode 1.18.33 loads `description: has: colon` as `has: colon`
        // (tests/agent_oracles.rs): the line-by-line reading.
        Err(e) => {
            return opencode_lines(&norm.text).unwrap_or_else(|| Read::refused(e.to_string()));
        }
    };
    let Some(name) = fm.get("name").and_then(|n| n.value.as_str()) else {
        return Read::refused("frontmatter has no string `name`");
    };
    let description = match fm.get("description").map(|n| &n.value) {
        None => None,
        Some(Value::Str(s)) => Some(s.clone()),
        Some(_) => return Read::refused("`description` is not a string"),
    };
    Read {
        name: Some(name.to_string()),
        hidden: description.is_none(),
        description,
        frontmatter: fm.metadata().cloned(),
        body: fm.body,
        ..Read::default()
    }
}

/// OpenCode's reading of a frontmatter its YAML parser refuses: `---`,
/// lines of `key: value`, `---`, then the body.
fn opencode_lines(text: &str) -> Option<Read> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---")?;
    let lines: Vec<&str> = rest[..end].lines().collect();
    let fields = line_fields(&lines)?;
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let name = get("name")?;
    let description = get("description");
    let body = rest[end + 4..].trim_start_matches(['\r', '\n']).to_string();
    Some(Read {
        name: Some(name),
        hidden: description.is_none(),
        description,
        body,
        ..Read::default()
    })
}

/// The Agent Skills baseline (agentskills.io): frontmatter with non-empty
/// string `name` and `description`. Used where the agent documents those
/// two as required and gives no parser of its own: Copilot
/// (docs.github.com add-skills), Cursor, Kiro (kiro.dev/docs/skills
/// Frontmatter fields), seed 001 (YAML Frontmatter Fields: both
/// "Required: Yes") and seed 002 (no parse rule given: decision).
fn baseline(text: &str) -> Read {
    let norm = Normalized::new(text);
    let fm = match frontmatter::parse(&norm.text) {
        Ok(fm) => fm,
        Err(e) => return Read::refused(e.to_string()),
    };
    let s = |k: &str| {
        fm.get(k)
            .and_then(|n| n.value.as_str())
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
    };
    let (Some(name), Some(description)) = (s("name"), s("description")) else {
        return Read::refused("frontmatter needs a string `name` and `description`");
    };
    Read {
        name: Some(name),
        description: Some(description),
        frontmatter: fm.metadata().cloned(),
        body: fm.body,
        ..Read::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amp_err(text: &str) -> Option<String> {
        amp(text).error
    }

    // Seed 003 "Parsing SKILL.md" (the regex and both throws).
    #[test]
    fn seed_003_parser_refuses_what_its_regex_and_checks_refuse() {
        let fm = "SKILL.md must have YAML frontmatter";
        let fields = "SKILL.md frontmatter must include name and description";
        assert_eq!(amp_err("---\nname: a\ndescription: b\n---\nbody\n"), None);
        // An empty body: match[2] === "".
        assert_eq!(
            amp_err("---\nname: a\ndescription: b\n---\n").as_deref(),
            Some(fm)
        );
        // A body of one newline is not empty.
        assert_eq!(amp_err("---\nname: a\ndescription: b\n---\n\n"), None);
        // CRLF, a BOM, a leading blank line, no newline after the fence.
        assert_eq!(
            amp_err("---\r\nname: a\r\ndescription: b\r\n---\r\nx\r\n").as_deref(),
            Some(fm)
        );
        assert_eq!(
            amp_err("\u{feff}---\nname: a\ndescription: b\n---\nx").as_deref(),
            Some(fm)
        );
        assert_eq!(
            amp_err("\n---\nname: a\ndescription: b\n---\nx").as_deref(),
            Some(fm)
        );
        assert_eq!(
            amp_err("---\nname: a\ndescription: b\n---").as_deref(),
            Some(fm)
        );
        // Empty frontmatter.
        assert_eq!(amp_err("---\n\n---\nx").as_deref(), Some(fm));
        // Falsy name or description.
        assert_eq!(amp_err("---\nname: a\n---\nx").as_deref(), Some(fields));
        assert_eq!(
            amp_err("---\nname: ''\ndescription: b\n---\nx").as_deref(),
            Some(fields)
        );
        assert_eq!(
            amp_err("---\nname: 0\ndescription: b\n---\nx").as_deref(),
            Some(fields)
        );
        assert_eq!(
            amp_err("---\nname: a\ndescription: false\n---\nx").as_deref(),
            Some(fields)
        );
        // A truthy non-string name passes and becomes String(name).
        assert_eq!(
            amp("---\nname: 123\ndescription: b\n---\nx")
                .name
                .as_deref(),
            Some("123")
        );
    }

    #[test]
    fn seed_003_ends_the_frontmatter_at_the_first_fence_and_keeps_the_body_verbatim() {
        let r = amp("---\nname: a\ndescription: b\n---\n\n# T\n---\nmore\n");
        assert_eq!(r.body, "\n# T\n---\nmore\n");
        assert!(!r.hidden);
        let hidden = amp("---\nname: a\ndescription: b\ndisable-model-invocation: true\n---\nx");
        assert!(hidden.hidden && hidden.error.is_none());
    }

    // openai/codex loader.rs @c9d127cf.
    #[test]
    fn codex_requires_a_description_and_takes_the_folder_name() {
        let r = codex("---\ndescription: d\n---\nbody", "folder");
        assert_eq!(r.name.as_deref(), Some("folder"));
        assert_eq!(
            codex("---\nname: x\n---\n", "f").error.as_deref(),
            Some("missing field `description`")
        );
        assert_eq!(
            codex("name: x\n", "f").error.as_deref(),
            Some("missing YAML frontmatter delimited by ---")
        );
        let long = format!("---\nname: x\ndescription: {}\n---\n", "d".repeat(1025));
        assert!(codex(&long, "f").error.unwrap().contains("1024"));
        // CRLF is fine (str::lines), an empty body too.
        assert!(
            codex("---\r\nname: x\r\ndescription: d\r\n---\r\n", "f")
                .error
                .is_none()
        );
    }

    // @google/gemini-cli-core 0.61.0 skillLoader.js.
    #[test]
    fn gemini_reads_lines_where_yaml_fails_and_sanitises_the_name() {
        assert!(
            gemini("---\r\nname: a\r\ndescription: b\r\n---\r\n")
                .error
                .is_none()
        );
        assert!(gemini("---\nname: a\n---\nx").error.is_some());
        // The issue's case: YAML refuses it, the line reader loads it.
        let r = gemini("---\nname: a:b\ndescription: has: colon\n---");
        assert_eq!(r.name.as_deref(), Some("a-b"));
        assert_eq!(r.description.as_deref(), Some("has: colon"));
        assert_eq!(r.body, "");
        // A number is not a string to js-yaml; the line reader takes it.
        let r = gemini("---\nname: 1\ndescription: |\n  two\n  lines\n---\nx");
        assert_eq!(r.name.as_deref(), Some("1"));
        assert_eq!(r.description.as_deref(), Some("| two lines"));
        assert!(
            gemini("\u{feff}---\nname: a\ndescription: b\n---\n")
                .error
                .is_some()
        );
    }

    // code.claude.com/docs/en/skills Frontmatter reference.
    #[test]
    fn claude_loads_anything_under_the_folder_name() {
        let r = claude("\n# Title line\nsecond line\n\nbody", "deploy");
        assert_eq!(r.name.as_deref(), Some("deploy"));
        assert_eq!(r.description.as_deref(), Some("# Title line second line"));
        let r = claude("---\ndescription: d\nwhen_to_use: w\n---\nx", "deploy");
        assert_eq!(r.description.as_deref(), Some("d w"));
        let r = claude("---\nname: other\ndescription: d\n---\nx", "deploy");
        assert_eq!(r.name.as_deref(), Some("deploy"));
        assert!(r.error.is_none());
    }

    // opencode skill/index.ts @a2cc772.
    #[test]
    fn opencode_needs_a_name_and_hides_a_skill_without_description() {
        let r = opencode("---\nname: a\n---\nx");
        assert!(r.error.is_none() && r.hidden);
        assert!(opencode("---\ndescription: d\n---\nx").error.is_some());
    }

    #[test]
    fn the_baseline_needs_both_fields() {
        assert!(
            baseline("---\nname: a\ndescription: b\n---\n")
                .error
                .is_none()
        );
        assert!(baseline("---\nname: a\n---\n").error.is_some());
        assert!(baseline("no frontmatter").error.is_some());
    }
}
