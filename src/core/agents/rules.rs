//! How each agent reads a SKILL.md: whether it loads, under which name and
//! description, and whether the model's list shows it. One reader per
//! documented parser; each cites where its rule comes from.

use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;

use crate::core::agents::table::Parser;
use crate::core::parse::frontmatter::{self, Normalized};
use crate::core::parse::yaml::{self, Node, Value};

use crate::core::agents::read::Read;

/// Reads `text` (the SKILL.md of folder `dir_name`) with `parser`'s rule.
/// `Parser::Cao` and `Parser::Cleo` read like the Agent Skills baseline
/// here; CAO's own verdict and CLEO's manifest are applied by the caller.
pub fn read(parser: Parser, text: &str, dir_name: &str) -> Read {
    match parser {
        Parser::Amp => amp(text),
        Parser::Codex => codex(text, dir_name),
        Parser::Gemini => gemini(text),
        Parser::Claude => claude(text, dir_name),
        Parser::Opencode => crate::core::agents::opencode_read::read(text),
        Parser::Roo => strict_spec(text, dir_name, false),
        Parser::Zed => strict_spec(text, dir_name, true),
        Parser::Cline => cline(text, dir_name),
        Parser::Goose => goose(text),
        Parser::Qwen => qwen(text),
        Parser::Kilo => kilo(text),
        Parser::Described => described(text, dir_name),
        Parser::Copilot => crate::core::agents::copilot::read(text, dir_name),
        Parser::Omniforge | Parser::Agentskills | Parser::Cleo | Parser::Cao => baseline(text),
    }
}

/// Amp's skills design, "Parsing SKILL.md", to the letter:
/// `/^---\n([\s\S]*?)\n---\n([\s\S]*)$/`; no match, or an empty group 1 or
/// 2 (so an empty body), throws "SKILL.md must have YAML frontmatter";
/// `!frontmatter.name || !frontmatter.description` throws "SKILL.md
/// frontmatter must include name and description". Its "Available Skills
/// Prompt" drops skills whose `disable-model-invocation` is truthy.
/// Decision: the YAML is read with skilltui's YAML 1.1 reader, where the
/// design's `yaml` package reads 1.2 (they differ on `yes`/`no` scalars).
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

/// The regex of Amp's skills design,
/// `/^---\n([\s\S]*?)\n---\n([\s\S]*)$/`, without a regex engine
/// (capturing 16 KiB bodies with a lazy group is slow): the text opens
/// with `---\n`; group 1 ends at the first `\n---\n` after that (lazy);
/// group 2 is everything after it (`$` without the `m` flag is the end of
/// the input).
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

/// Codex 0.169.0 (openai/codex core-skills/src/loader.rs
/// `extract_frontmatter`, `parse_skill_file`, `validate_len`; the rest
/// observed with `codex debug prompt-input`): the first line trimmed is
/// `---`, the frontmatter ends at the next line trimmed `---` (so a BOM or
/// a blank line first refuses the file); the fields are read as
/// `codex_read` says; whitespace runs become one space; an empty name is
/// the folder's (`skill` when that is empty too), a name over 64
/// characters refuses the file; the description is required, and one
/// over 1,024 characters is shown as its first 1,021 and `...`.
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
    let fm = fm.join("\n");
    let fields = match crate::core::agents::codex_read::fields(&fm) {
        Ok(f) => f,
        Err(e) => return Read::refused(e),
    };
    let collapse = crate::core::text::collapse_whitespace;
    let name = fields
        .name
        .map(|n| collapse(&n))
        .filter(|n| !n.is_empty())
        .or_else(|| Some(collapse(dir_name)).filter(|n| !n.is_empty()))
        .unwrap_or_else(|| "skill".to_string());
    let description = fields.description.map(|d| collapse(&d)).unwrap_or_default();
    if description.is_empty() {
        return Read::refused("missing field `description`");
    }
    if name.chars().count() > 64 {
        return Read::refused("invalid name: exceeds maximum length of 64 characters");
    }
    let description = if description.chars().count() > 1024 {
        let cut: String = description.chars().take(1021).collect();
        format!("{cut}...")
    } else {
        description
    };
    Read {
        name: Some(name),
        description: Some(description),
        frontmatter: yaml::load(&fm).ok().flatten(),
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
    // js-yaml takes the end of the input as a line break (`>` or `|` as
    // the last field gives `text\n`): the newline the regex left out is
    // put back, unless the frontmatter already ends with one (`>+` keeps
    // no extra line; gemini-cli-core 0.61.0, observed).
    // js-yaml 4 throws on a key repeated in one mapping: the line reader
    // then takes over (gemini-cli-core 0.61.0, observed).
    let src = match fm.ends_with('\n') {
        true => fm.to_string(),
        false => format!("{fm}\n"),
    };
    let root = (yaml::load(&src).ok().flatten())
        .filter(|r| crate::core::agents::opencode_read::repeated_key(r, &src).is_none());
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

/// Kilo's base reading: OpenCode's as skilltui read it before OpenCode
/// 1.18.33 was modelled (`opencode_read`), which tests/oracle_kilo.rs
/// checks against kilo 7.7.9 (packages/opencode/src/skill/index.ts
/// @a2cc772, `isSkillFrontmatter`): a mapping with a string `name`;
/// `description` absent or a string. Without one it loads but `fmt`
/// leaves it out of the list.
fn kilo_base(text: &str) -> Read {
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
/// Frontmatter fields), OmniForge (its skills design's YAML Frontmatter
/// Fields: both "Required: Yes") and CLEO (its two-tier design gives no
/// parse rule: decision).
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

// The readers of the remaining agents. Each follows the agent's own
// source where it was read (Roo Code, Cline, Goose, Qwen Code, Kilo) or its
// docs (Zed, Antigravity, OpenClaw); YAML is skilltui's YAML 1.1 reader
// where the agent's is a JavaScript or Rust YAML library (they differ on
// plain `yes`/`no` scalars: decision).

/// The Agent Skills name rule (agentskills.io/specification): 1-64
/// lowercase letters, digits and single hyphens, not at either end.
pub fn spec_name(name: &str) -> bool {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\z").expect("regex"));
    name.len() <= 64 && RE.is_match(name)
}

/// The frontmatter mapping and body, the file's newlines normalized and
/// (for agents that strip one) a leading BOM removed.
fn yaml_parts(text: &str, strip_bom: bool) -> Result<(Option<Rc<Node>>, String), String> {
    let text = match strip_bom {
        true => text.strip_prefix('\u{feff}').unwrap_or(text),
        false => text,
    };
    let norm = Normalized::new(text);
    let fm = frontmatter::parse(&norm.text).map_err(|e| e.to_string())?;
    Ok((fm.metadata().cloned(), fm.body))
}

fn field<'a>(root: &'a Option<Rc<Node>>, key: &str) -> Option<&'a Value> {
    root.as_ref().and_then(|r| r.get(key)).map(|n| &n.value)
}

/// A non-empty string field (JavaScript's `!x || typeof x !== "string"`).
fn nonempty_str(root: &Option<Rc<Node>>, key: &str) -> Option<String> {
    match field(root, key) {
        Some(Value::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// Roo Code's and Cline's shared checks (both `!x || typeof x !==
/// "string"`, then the name against the folder's): the name and
/// description, or the refusal in their words.
fn named_as_folder(root: &Option<Rc<Node>>, dir_name: &str) -> Result<(String, String), Read> {
    let Some(name) = nonempty_str(root, "name") else {
        return Err(Read::refused("missing required 'name' field"));
    };
    let Some(description) = nonempty_str(root, "description") else {
        return Err(Read::refused("missing required 'description' field"));
    };
    if name != dir_name {
        return Err(Read::refused(format!(
            "Skill name \"{name}\" doesn't match directory \"{dir_name}\""
        )));
    }
    Ok((name, description))
}

/// Roo Code (RooCodeInc/Roo-Code src/services/skills/SkillsManager.ts
/// @cb83656 `loadSkillMetadata`; gray-matter): a string `name` equal to
/// the folder's name and valid per the spec; a string `description`,
/// trimmed, 1-1,024 characters. Zed (docs/src/ai/skills.md "Frontmatter
/// fields", "Name validation") documents the same rules and hides a skill
/// with `disable-model-invocation: true` from the catalog.
fn strict_spec(text: &str, dir_name: &str, honours_hidden: bool) -> Read {
    let (root, body) = match yaml_parts(text, false) {
        Ok(parts) => parts,
        Err(e) => return Read::refused(e),
    };
    let (name, description) = match named_as_folder(&root, dir_name) {
        Ok(pair) => pair,
        Err(refused) => return refused,
    };
    if !spec_name(&name) {
        return Read::refused(format!(
            "Skill name \"{name}\" is invalid: 1-64 lowercase letters, digits and single hyphens"
        ));
    }
    let description = description.trim().to_string();
    let len = description.chars().count();
    if !(1..=1024).contains(&len) {
        return Read::refused(format!(
            "invalid description length: must be 1-1024 characters (got {len})"
        ));
    }
    let hidden = honours_hidden
        && matches!(
            field(&root, "disable-model-invocation"),
            Some(Value::Bool(true))
        );
    Read {
        name: Some(name),
        description: Some(description),
        hidden,
        frontmatter: root,
        body,
        ..Read::default()
    }
}

/// Cline (cline/cline apps/vscode .../user-instructions/frontmatter.ts and
/// skills.ts @21cb8d2): a leading BOM stripped, then
/// `/^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/`; YAML that does not
/// parse leaves no fields (fail-open), so the skill is dropped for want of
/// a name; `name` and `description` truthy strings, `name` equal to the
/// folder's.
fn cline(text: &str, dir_name: &str) -> Read {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\A---\r?\n((?s:.)*?)\r?\n---\r?\n?((?s:.)*)\z").expect("regex")
    });
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (root, body) = match RE.captures(text) {
        Some(c) => (yaml::load(&c[1]).ok().flatten(), c[2].to_string()),
        None => (None, text.to_string()),
    };
    let (name, description) = match named_as_folder(&root, dir_name) {
        Ok(pair) => pair,
        Err(refused) => return refused,
    };
    Read::loaded(name, description, root, body)
}

/// Goose (aaif-goose/goose crates/goose/src/agents/platform_extensions/
/// skills.rs @51afe27 `parse_skill_content`): `name` and `description`
/// deserialized as strings (serde: both required, empty allowed); a name
/// holding `/` is skipped.
fn goose(text: &str) -> Read {
    let (root, body) = match yaml_parts(text, false) {
        Ok(parts) => parts,
        Err(e) => return Read::refused(e),
    };
    let string = |k: &str| match field(&root, k) {
        Some(Value::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let (Some(name), Some(description)) = (string("name"), string("description")) else {
        return Read::refused(
            "Failed to parse skill frontmatter: `name` and `description` must be strings",
        );
    };
    if name.contains('/') {
        return Read::refused(format!("Skill name '{name}' contains '/', skipping"));
    }
    Read::loaded(name, description, root, body)
}

/// A value of Qwen Code's own frontmatter reader (`parseValue`).
#[derive(Clone, Debug, PartialEq)]
enum QwenValue {
    Str(String),
    Num(f64),
    Bool(bool),
    Null,
    /// A list or nested mapping.
    Other,
}

impl QwenValue {
    fn parse(v: &str) -> QwenValue {
        match v {
            "true" => return QwenValue::Bool(true),
            "false" => return QwenValue::Bool(false),
            "null" => return QwenValue::Null,
            "" => return QwenValue::Str(String::new()),
            _ => {}
        }
        if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') {
            let inner = &v[1..v.len() - 1];
            return QwenValue::Str(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        match js_number(v) {
            Some(n) => QwenValue::Num(n),
            None => QwenValue::Str(v.to_string()),
        }
    }

    /// JavaScript's `String(value)`.
    fn js_string(&self) -> String {
        match self {
            QwenValue::Str(s) => s.clone(),
            QwenValue::Num(n) if n.fract() == 0.0 && n.abs() < 1e21 => format!("{}", *n as i64),
            QwenValue::Num(n) => n.to_string(),
            QwenValue::Bool(b) => b.to_string(),
            QwenValue::Null => "null".into(),
            QwenValue::Other => "[object Object]".into(),
        }
    }
}

/// JavaScript's `Number(v)` when finite (decimal forms only; the hex,
/// octal and binary literals it also takes are read as text: decision).
fn js_number(v: &str) -> Option<f64> {
    let t = v.trim();
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    t.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// Qwen Code's line reader (@qwen-code/qwen-code 0.15.10 cli.js,
/// packages/core/src/utils/yaml-parser.ts `parse`): not YAML. Blank and
/// `#` lines are dropped; `  - x` lines build a list, two-space-indented
/// `k: v` lines a nested mapping; any other line with a `:` is
/// `key: rest` split at the first colon, trimmed (so `a: b: c` is `b: c`,
/// and single quotes are kept).
fn qwen_fields(fm: &str) -> Vec<(String, QwenValue)> {
    let lines: Vec<&str> = fm
        .split('\n')
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .collect();
    let mut out: Vec<(String, QwenValue)> = Vec::new();
    let set = |out: &mut Vec<(String, QwenValue)>, k: String, v: QwenValue| {
        out.retain(|(key, _)| *key != k);
        out.push((k, v));
    };
    let (mut key, mut in_array, mut in_object, mut object_key) =
        (String::new(), false, false, String::new());
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("  - ") {
            in_array = true;
            continue;
        }
        if in_array {
            set(&mut out, std::mem::take(&mut key), QwenValue::Other);
            in_array = false;
        }
        if line.starts_with("  ") && in_object {
            continue;
        }
        if in_object {
            set(&mut out, std::mem::take(&mut object_key), QwenValue::Other);
            in_object = false;
        }
        let Some((k, rest)) = line.split_once(':') else {
            continue;
        };
        let value = rest.trim();
        if value.is_empty() {
            key = k.trim().to_string();
            match lines.get(i + 1) {
                Some(next) if next.starts_with("  - ") => continue,
                Some(next) if next.starts_with("  ") => {
                    in_object = true;
                    object_key = std::mem::take(&mut key);
                    continue;
                }
                _ => {}
            }
        } else {
            set(&mut out, k.trim().to_string(), QwenValue::parse(value));
        }
    }
    if in_array {
        set(&mut out, key, QwenValue::Other);
    }
    if in_object {
        set(&mut out, object_key, QwenValue::Other);
    }
    out
}

/// Qwen Code (cli.js packages/core/src/skills/skill-manager.ts
/// `parseSkillContent`, types.ts `validateSkillName`, `validateConfig`): a
/// BOM removed and newlines normalized; `/^---\n([\s\S]*?)\n---(?:\n|$)
/// ([\s\S]*)$/`; `name` and `description` neither null nor empty, made
/// strings; the name matches `/^[\p{L}\p{N}_:.-]+$/u`; the description is
/// not blank; `disable-model-invocation` true (or "true") hides it.
fn qwen(text: &str) -> Read {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\A---\n((?s:.)*?)\n---(?:\n|\z)((?s:.)*)\z").expect("regex"));
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\A[\p{L}\p{N}_:.-]+\z").expect("regex"));
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let norm = text.replace("\r\n", "\n").replace('\r', "\n");
    let Some(caps) = RE.captures(&norm) else {
        return Read::refused("Invalid format: missing YAML frontmatter");
    };
    let fields = qwen_fields(&caps[1]);
    let get = |k: &str| fields.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let present = |k: &str| {
        get(k)
            .filter(|v| !matches!(v, QwenValue::Null) && **v != QwenValue::Str(String::new()))
            .map(QwenValue::js_string)
    };
    let Some(name) = present("name") else {
        return Read::refused("Missing \"name\" in frontmatter");
    };
    let Some(description) = present("description") else {
        return Read::refused("Missing \"description\" in frontmatter");
    };
    if !NAME.is_match(&name) {
        return Read::refused(format!(
            "\"name\" must match /^[\\p{{L}}\\p{{N}}_:.-]+$/u (letters, digits, _, :, ., -); got \"{name}\""
        ));
    }
    if description.trim().is_empty() {
        return Read::refused("Validation failed: \"description\" cannot be empty");
    }
    let hidden = matches!(get("disable-model-invocation"), Some(QwenValue::Bool(true)))
        || get("disable-model-invocation") == Some(&QwenValue::Str("true".into()));
    Read {
        name: Some(name),
        description: Some(description),
        hidden,
        // For previews and lints only: Qwen itself never reads it as YAML.
        frontmatter: yaml::load(&caps[1]).ok().flatten(),
        body: caps[2].trim().to_string(),
        ..Read::default()
    }
}

/// Kilo Code, observed (`kilo debug skill`, kilo 7.7.9): OpenCode's rule
/// (a string `name`, an optional `description`, no folder match), and a
/// frontmatter that is not valid YAML is still read line by line, so
/// `description: has: colon` loads. Decision: that fallback takes each
/// unindented `key: value` line, the value after the first `: `, trimmed,
/// matching quotes removed.
fn kilo(text: &str) -> Read {
    let read = kilo_base(text);
    let norm = Normalized::new(text);
    if read.error.is_none() || frontmatter::parse(&norm.text).is_ok() {
        return read;
    }
    let Some(rest) = norm.text.strip_prefix("---\n") else {
        return read;
    };
    let Some(end) = rest.find("\n---") else {
        return read;
    };
    let mut name = None;
    let mut description = None;
    for line in rest[..end].lines().filter(|l| !l.starts_with([' ', '\t'])) {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            .unwrap_or(v)
            .to_string();
        match k.trim() {
            "name" => name = Some(v),
            "description" => description = Some(v),
            _ => {}
        }
    }
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return read;
    };
    let body = rest[end + 4..].trim_start_matches('\n').to_string();
    Read {
        name: Some(name),
        hidden: description.is_none(),
        description,
        body,
        ..Read::default()
    }
}

/// `name` optional (the folder's name), a non-empty string `description`
/// required: what Antigravity's docs (antigravity.google/docs/skills) and
/// OpenClaw's (docs/tools/skills.md: "or the directory name when `name`
/// is missing") document.
fn described(text: &str, dir_name: &str) -> Read {
    let (root, body) = match yaml_parts(text, false) {
        Ok(parts) => parts,
        Err(e) => return Read::refused(e),
    };
    let Some(description) = nonempty_str(&root, "description").filter(|d| !d.trim().is_empty())
    else {
        return Read::refused("frontmatter needs a string `description`");
    };
    let name = nonempty_str(&root, "name").unwrap_or_else(|| dir_name.to_string());
    Read::loaded(name, description, root, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amp_err(text: &str) -> Option<String> {
        amp(text).error
    }

    // Amp's skills design, "Parsing SKILL.md" (the regex and both throws).
    #[test]
    fn amp_parser_refuses_what_its_regex_and_checks_refuse() {
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
    fn amp_ends_the_frontmatter_at_the_first_fence_and_keeps_the_body_verbatim() {
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
        let shown = codex(&long, "f").description.unwrap();
        assert_eq!(shown, format!("{}...", "d".repeat(1021)));
        let name = format!("---\nname: {}\ndescription: d\n---\n", "n".repeat(65));
        assert!(codex(&name, "f").error.unwrap().contains("64"));
        // CRLF is fine (str::lines), an empty body too.
        assert!(
            codex("---\r\nname: x\r\ndescription: d\r\n---\r\n", "f")
                .error
                .is_none()
        );
    }

    // Observed with Codex 0.169.0 (`codex debug prompt-input`): values as
    // written, a 1,024-character cap shown with `...`, a repeated key
    // refusing the file, nothing before the opening fence.
    #[test]
    fn codex_keeps_values_as_written_and_refuses_repeats() {
        let r = codex("---\nname: 2024-06-19\ndescription: 16832\n---\n", "f");
        assert_eq!(
            (r.name.as_deref(), r.description.as_deref()),
            (Some("2024-06-19"), Some("16832"))
        );
        let r = codex("---\nname: off\ndescription: True\n---\n", "f");
        assert_eq!(
            (r.name.as_deref(), r.description.as_deref()),
            (Some("off"), Some("True"))
        );
        let r = codex("---\nname: ~\ndescription: \"a\u{a0}b\"\n---\n", "f");
        assert_eq!(
            (r.name.as_deref(), r.description.as_deref()),
            (Some("f"), Some("a b"))
        );
        let refused = |t: &str| codex(t, "f").error.is_some();
        assert!(refused("---\nname: a\nname: b\ndescription: d\n---\n"));
        assert!(refused("---\nname: a\ndescription: [d]\n---\n"));
        assert!(refused("\u{feff}---\nname: a\ndescription: d\n---\n"));
        assert!(refused("\n---\nname: a\ndescription: d\n---\n"));
        let r = codex("---\nname: a\ndescription: has: colon\n---\n", "f");
        assert_eq!(r.description.as_deref(), Some("has: colon"));
    }

    // @google/gemini-cli-core 0.61.0 skillLoader.js.
    // gemini-cli-core 0.61.0, observed: a `>+` block as the last field
    // keeps one final line break, not one more.
    #[test]
    fn gemini_keeps_one_final_break_of_a_keep_block() {
        let text = "---\nname: n\ndescription: >+\n  a\n   b\n\n---\nbody\n";
        let r = read(Parser::Gemini, text, "x");
        assert_eq!(r.description.as_deref(), Some("a\n b\n"));
    }

    // gemini-cli-core 0.61.0, observed: js-yaml 4 throws "duplicated
    // mapping key", so the line reader gives the raw text, quotes kept.
    #[test]
    fn gemini_reads_lines_when_a_key_repeats() {
        let r = read(
            Parser::Gemini,
            "---\nname: n\ndescription: \"quoted\"\ndescription: \"again\"\n---\nbody\n",
            "x",
        );
        assert_eq!(r.description.as_deref(), Some("\"again\""));
    }

    #[test]
    fn gemini_reads_lines_where_yaml_fails_and_sanitises_the_name() {
        assert!(
            gemini("---\r\nname: a\r\ndescription: b\r\n---\r\n")
                .error
                .is_none()
        );
        assert!(gemini("---\nname: a\n---\nx").error.is_some());
        // A value holding `: `: YAML refuses it, the line reader loads it.
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
    fn kilo_needs_a_name_and_hides_a_skill_without_description() {
        let r = kilo_base("---\nname: a\n---\nx");
        assert!(r.error.is_none() && r.hidden);
        assert!(kilo_base("---\ndescription: d\n---\nx").error.is_some());
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
    fn refused(parser: Parser, text: &str, dir: &str) -> bool {
        read(parser, text, dir).error.is_some()
    }

    // RooCodeInc/Roo-Code SkillsManager.ts @cb83656 loadSkillMetadata;
    // zed docs/src/ai/skills.md Name validation.
    #[test]
    fn roo_and_zed_want_a_spec_name_equal_to_the_folder() {
        let ok = "---\nname: my-skill\ndescription: ' d '\n---\nb";
        let r = read(Parser::Roo, ok, "my-skill");
        assert_eq!(r.description.as_deref(), Some("d"));
        assert!(
            read(Parser::Roo, ok, "other")
                .error
                .unwrap()
                .contains("doesn't match directory")
        );
        let bad = "---\nname: My--Skill\ndescription: d\n---\n";
        assert!(refused(Parser::Zed, bad, "My--Skill"));
        let long = format!("---\nname: s\ndescription: {}\n---\n", "d".repeat(1025));
        assert!(refused(Parser::Roo, &long, "s"));
        let hidden = "---\nname: s\ndescription: d\ndisable-model-invocation: true\n---\n";
        assert!(read(Parser::Zed, hidden, "s").hidden);
        assert!(!read(Parser::Roo, hidden, "s").hidden);
    }

    // cline/cline apps/vscode frontmatter.ts, skills.ts @21cb8d2.
    #[test]
    fn cline_strips_a_bom_and_drops_a_skill_whose_yaml_fails() {
        let r = read(
            Parser::Cline,
            "\u{feff}---\r\nname: s\r\ndescription: d\r\n---\r\nb",
            "s",
        );
        assert!(r.error.is_none(), "{:?}", r.error);
        assert!(refused(
            Parser::Cline,
            "---\nname: s\ndescription: [unclosed\n---\n",
            "s"
        ));
        assert!(refused(
            Parser::Cline,
            "---\nname: t\ndescription: d\n---\n",
            "s"
        ));
    }

    // aaif-goose/goose skills.rs @51afe27 parse_skill_content.
    #[test]
    fn goose_wants_two_strings_and_no_slash_in_the_name() {
        assert!(!refused(
            Parser::Goose,
            "---\nname: a\ndescription: ''\n---\n",
            "x"
        ));
        assert!(refused(
            Parser::Goose,
            "---\nname: a/b\ndescription: d\n---\n",
            "x"
        ));
        assert!(refused(
            Parser::Goose,
            "---\nname: 1\ndescription: d\n---\n",
            "x"
        ));
    }

    // @qwen-code/qwen-code 0.15.10 cli.js: yaml-parser.ts parse,
    // skill-manager.ts parseSkillContent.
    #[test]
    fn qwen_reads_lines_not_yaml() {
        let r = read(
            Parser::Qwen,
            "---\nname: a\ndescription: has: colon\nallowedTools:\n  - x\n---\n body \n",
            "x",
        );
        assert_eq!(r.description.as_deref(), Some("has: colon"));
        assert_eq!(r.body, "body");
        // Single quotes are kept, and a quote is not a name character.
        assert!(refused(
            Parser::Qwen,
            "---\nname: 'a'\ndescription: d\n---\n",
            "x"
        ));
        // A number is made a string; `:` and `.` are name characters.
        assert_eq!(
            read(Parser::Qwen, "---\nname: 12\ndescription: d\n---\n", "x")
                .name
                .as_deref(),
            Some("12")
        );
        assert_eq!(
            read(
                Parser::Qwen,
                "---\nname: ns:a.b\ndescription: d\n---\n",
                "x"
            )
            .name
            .as_deref(),
            Some("ns:a.b")
        );
        assert!(refused(
            Parser::Qwen,
            "---\nname: a\ndescription: \"  \"\n---\n",
            "x"
        ));
        assert!(refused(Parser::Qwen, "---\nname: a\n---\n", "x"));
        let hidden = read(
            Parser::Qwen,
            "---\nname: a\ndescription: d\ndisable-model-invocation: true\n---\n",
            "x",
        );
        assert!(hidden.hidden);
    }

    // Observed with kilo 7.7.9 `kilo debug skill`: the folder `colon`
    // loaded as `colon` with description "has: colon"; `nodesc` loaded
    // without one; `name: 123` and no name were dropped; `other` loaded as
    // `different`.
    #[test]
    fn kilo_loads_what_kilo_debug_skill_loaded() {
        let r = read(
            Parser::Kilo,
            "---\nname: colon\ndescription: has: colon\n---\nb\n",
            "colon",
        );
        assert_eq!(
            (r.name.as_deref(), r.description.as_deref()),
            (Some("colon"), Some("has: colon"))
        );
        let r = read(Parser::Kilo, "---\nname: nodesc\n---\nb\n", "nodesc");
        assert!(r.error.is_none() && r.hidden);
        assert!(refused(
            Parser::Kilo,
            "---\nname: 123\ndescription: d\n---\nb\n",
            "n"
        ));
        assert!(refused(Parser::Kilo, "---\ndescription: d\n---\nb\n", "n"));
        assert_eq!(
            read(
                Parser::Kilo,
                "---\nname: different\ndescription: d\n---\nb\n",
                "other"
            )
            .name
            .as_deref(),
            Some("different")
        );
        assert!(!refused(
            Parser::Kilo,
            "---\nname: empty\ndescription: d\n---\n",
            "empty"
        ));
    }

    #[test]
    fn described_takes_the_folder_name_when_there_is_none() {
        let r = read(Parser::Described, "---\ndescription: d\n---\n", "folder");
        assert_eq!(r.name.as_deref(), Some("folder"));
        assert!(refused(Parser::Described, "---\nname: a\n---\n", "f"));
    }
}
