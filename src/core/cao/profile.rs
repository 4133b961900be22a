//! Agent profiles (CAO 2.5.4 `utils/agent_profiles.py`): where CAO finds
//! them, how it loads them (`.env` substitution, python-frontmatter,
//! pydantic's AgentProfile), and what their `skills` field says.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value as Json;

use crate::core::cao::store::{Home, expand_user, nested_list};
use crate::core::parse::frontmatter::{self, Frontmatter, Normalized};
use crate::core::parse::yaml::{Node, Value};

/// The built-in profiles CAO 2.5.4 ships, by name only: without a CAO
/// install, asking for one says where it comes from.
const CAO_PROFILE_NAMES: &[&str] = &[
    "code_supervisor",
    "developer",
    "memory_manager",
    "retrospector",
    "reviewer",
    "workflow_scout",
];

/// The file of the profile built into the user's CAO under `name`.
pub fn built_in_path(home: &Home, name: &str) -> Option<PathBuf> {
    home.cao().ok()?.built_in_path(name)
}

/// Where a profile was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// `None` for a profile built into CAO.
    pub path: Option<PathBuf>,
    /// CAO's source label: local, kiro, claude_code, codex, installed,
    /// custom, built-in.
    pub source: String,
}

/// A profile as CAO loads it.
#[derive(Clone, Debug)]
pub struct Profile {
    pub name: String,
    pub location: Location,
    /// The `skills` field: `None` when absent or null (every skill).
    pub skills: Option<Vec<String>>,
    /// The system prompt: the body, stripped, after `.env` substitution.
    pub body: String,
    /// The raw file text (before substitution), for the editor; for a
    /// built-in profile, the text packaged in CAO.
    pub raw: Option<String>,
}

impl Profile {
    /// Why CAO reads no frontmatter from this profile's file although it
    /// seems to have one (so its `skills` list is ignored).
    pub fn unread_frontmatter(&self) -> Option<String> {
        self.location.path.as_ref()?;
        let raw = self.raw.as_deref()?;
        raw.starts_with('\u{feff}').then(|| {
            format!(
                "profile '{}' starts with a byte-order mark, so CAO reads no frontmatter and offers it every skill: save it as UTF-8 without BOM",
                self.name
            )
        })
    }
}

/// The directories CAO's discovery scans, each once, with its label.
pub fn search_dirs(home: &Home) -> Vec<(PathBuf, String)> {
    let disabled = disabled_dirs(home);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut push = |dir: PathBuf, label: &str, out: &mut Vec<(PathBuf, String)>| {
        let norm = normalized(&dir, home);
        if !disabled.contains(&norm) && seen.insert(norm) {
            out.push((dir, label.to_string()));
        }
    };
    push(home.agent_store(), "local", &mut out);
    for (key, dir) in provider_dirs(home) {
        push(dir, provider_label(&key), &mut out);
    }
    for dir in extra_agent_dirs(home).into_iter().flatten() {
        push(dir, "custom", &mut out);
    }
    out
}

/// `os.path.realpath(os.path.expanduser(p))`, CAO's way to compare dirs.
fn normalized(p: &Path, home: &Home) -> PathBuf {
    let p = expand_user(p, &home.user_home);
    crate::core::fsops::absolute(&p)
}

fn disabled_dirs(home: &Home) -> HashSet<PathBuf> {
    let list = match home
        .settings
        .get("agents")
        .and_then(|a| a.get("disabled_dirs"))
    {
        Some(v @ Json::Array(_)) => Some(v),
        _ => home.settings.get("disabled_agent_dirs"),
    };
    let Some(Json::Array(items)) = list else {
        return HashSet::new();
    };
    items
        .iter()
        .filter_map(Json::as_str)
        .map(|s| normalized(Path::new(s), home))
        .collect()
}

/// `usable_agent_dirs()`: the four defaults overridden by `agents.dirs`
/// (or legacy `agent_dirs`); blank or relative values fall back.
fn provider_dirs(home: &Home) -> Vec<(String, PathBuf)> {
    let defaults = [
        ("kiro_cli", home.user_home.join(".kiro").join("agents")),
        ("claude_code", home.agent_store()),
        ("codex", home.agent_store()),
        ("cao_installed", home.agent_context()),
    ];
    let nested = home
        .settings
        .get("agents")
        .filter(|a| a.is_object())
        .and_then(|a| a.get("dirs"));
    let saved = match nested {
        Some(Json::Object(m)) => Some(m),
        _ => home.settings.get("agent_dirs").and_then(Json::as_object),
    };
    let mut out: Vec<(String, PathBuf)> = defaults
        .iter()
        .map(|(k, d)| (k.to_string(), d.clone()))
        .collect();
    for (key, value) in saved.into_iter().flatten() {
        let usable = value
            .as_str()
            .filter(|s| !s.trim().is_empty())
            .map(|s| expand_user(Path::new(s), &home.user_home))
            .filter(|p| p.is_absolute());
        match (out.iter_mut().find(|(k, _)| k == key), usable) {
            (Some(slot), Some(p)) => slot.1 = p,
            (None, Some(p)) => out.push((key.clone(), p)),
            _ => {}
        }
    }
    out
}

/// `installed_context_lookup_dirs(AGENT_CONTEXT_DIR)`: where CAO finds an
/// install's context copy, the `agents.dirs.cao_installed` override first
/// (when it departs from the default), then the default.
pub fn installed_context_dirs(home: &Home) -> Vec<PathBuf> {
    let default = home.agent_context();
    let configured = provider_dirs(home)
        .into_iter()
        .find(|(k, _)| k == "cao_installed")
        .map(|(_, d)| d)
        .filter(|d| normalized(d, home) != normalized(&default, home));
    configured.into_iter().chain([default]).collect()
}

/// `agents.extra_dirs`, else legacy `extra_agent_dirs`, unfiltered as CAO
/// keeps them: a non-string entry fails any lookup that reaches it.
fn extra_agent_dirs(home: &Home) -> Vec<Result<PathBuf, String>> {
    let Some(Json::Array(items)) =
        nested_list(&home.settings, "agents", "extra_dirs", "extra_agent_dirs")
    else {
        return Vec::new();
    };
    items
        .iter()
        .map(|v| {
            v.as_str().map(PathBuf::from).ok_or_else(|| {
                format!("settings.json lists {v} as an extra agent dir; CAO fails every profile lookup that reaches it: remove it")
            })
        })
        .collect()
}

/// Names CAO reserves for its live ephemeral store: files never serve them.
pub fn is_reserved_ephemeral(name: &str) -> bool {
    static RESERVED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^[A-Z][A-Za-z0-9]{1,23}-[a-z][a-z0-9_]{2,31}-[0-9a-f]{4}$")
            .expect("reserved-name regex")
    });
    RESERVED.is_match(name)
}

/// Finds a profile's file the way CAO's lookup does: the local store's
/// flat file, then each provider dir, then each extra dir (flat file, then
/// `<name>/agent.md`), skipping disabled dirs but not repeated ones.
pub fn locate(home: &Home, name: &str) -> Result<Location, String> {
    if name.contains('/') || name.contains('\\') || name.contains("..") {
        return Err(format!(
            "invalid agent name '{name}': it must not contain '/', '\\' or '..'"
        ));
    }
    if is_reserved_ephemeral(name) {
        return Err(format!(
            "'{name}' is a reserved ephemeral profile name: CAO serves it only from its live store, never from a file"
        ));
    }
    let disabled = disabled_dirs(home);
    let enabled = |d: &Path| !disabled.contains(&normalized(d, home));
    let found = |path: PathBuf, source: &str| {
        Ok(Location {
            path: Some(path),
            source: source.into(),
        })
    };
    let local = home.agent_store();
    let flat = local.join(format!("{name}.md"));
    if enabled(&local) && inside(&local, &flat) && flat.exists() {
        return found(flat, "local");
    }
    for (key, dir) in provider_dirs(home) {
        if let Some(path) = enabled(&dir).then(|| lookup_in(&dir, name)).flatten() {
            return found(path, provider_label(&key));
        }
    }
    for dir in extra_agent_dirs(home) {
        let dir = dir?;
        if let Some(path) = enabled(&dir).then(|| lookup_in(&dir, name)).flatten() {
            return found(path, "custom");
        }
    }
    if built_in_path(home, name).is_some() {
        return Ok(Location {
            path: None,
            source: "built-in".into(),
        });
    }
    if let Some((link, dir)) = link_leaving_its_dir(home, name) {
        return Err(format!(
            "agent profile '{name}': {} is a symlink that leads outside {}, which CAO refuses to read: replace the link with the file itself",
            link.display(),
            dir.display()
        ));
    }
    if let (Err(why), true) = (home.cao(), CAO_PROFILE_NAMES.contains(&name)) {
        return Err(format!(
            "agent profile '{name}' comes with CAO, but {why}: {}",
            crate::core::cao::installed::INSTALL_HINT
        ));
    }
    let known = list(home);
    let hint = crate::core::suggest::did_you_mean(name, known.iter().map(|l| l.name.as_str()));
    // A typo is pointed at the name, never told to become a new file.
    if !hint.is_empty() {
        return Err(format!(
            "agent profile '{name}' not found{hint} (`skilltui profile list` shows the known ones)"
        ));
    }
    Err(format!(
        "agent profile '{name}' not found: put it in {} (`skilltui profile list` shows the known ones)",
        home.agent_store().join(format!("{name}.md")).display()
    ))
}

/// A profile file CAO's lookup skipped because it resolves outside its dir.
fn link_leaving_its_dir(home: &Home, name: &str) -> Option<(PathBuf, PathBuf)> {
    search_dirs(home).into_iter().find_map(|(dir, _)| {
        [
            dir.join(format!("{name}.md")),
            dir.join(name).join("agent.md"),
        ]
        .into_iter()
        .find(|p| fs::symlink_metadata(p).is_ok() && !inside(&dir, p))
        .map(|p| (p, dir.clone()))
    })
}

fn provider_label(key: &str) -> &str {
    match key {
        "kiro_cli" => "kiro",
        "cao_installed" => "installed",
        other => other,
    }
}

/// `<dir>/<name>.md`, else `<dir>/<name>/agent.md`, each kept inside `dir`.
fn lookup_in(dir: &Path, name: &str) -> Option<PathBuf> {
    if !dir.exists() {
        return None;
    }
    [
        dir.join(format!("{name}.md")),
        dir.join(name).join("agent.md"),
    ]
    .into_iter()
    .find(|p| inside(dir, p) && p.exists())
}

/// CAO's `_safe_join`: the resolved path must stay inside the resolved dir.
fn inside(dir: &Path, path: &Path) -> bool {
    let root = crate::core::fsops::absolute(dir);
    crate::core::fsops::absolute(path).starts_with(root)
}

/// The `.env` variables CAO substitutes into every profile, or why it
/// cannot read them (then no profile loads).
pub type Env = Result<HashMap<String, String>, String>;

/// Reads `.env` once: a caller loading many profiles passes it to each.
pub fn read_env(home: &Home) -> Env {
    crate::core::parse::dotenv::load(&home.root.join(".env"))
}

/// `load_agent_profile(name)`.
/// The most of a profile skilltui reads: far more than any prompt, and a
/// gigabyte file must not take gigabytes (CAO itself would read it all).
pub const MAX_PROFILE_BYTES: u64 = 16 << 20;

pub fn load(home: &Home, name: &str) -> Result<Profile, String> {
    load_parsed(home, name, &read_env(home)).map(|(p, _)| p)
}

/// [`load`] with `.env` already read, and the parse it made, so that
/// [`fields_of`] need not parse the profile again.
pub fn load_parsed(home: &Home, name: &str, env: &Env) -> Result<(Profile, Parsed), String> {
    let location = locate(home, name)?;
    let Some(path) = location.path.clone() else {
        // Built in: read from the user's CAO as CAO reads it (with `.env`
        // substitution), never written: it belongs to CAO's package.
        let file = built_in_path(home, name).unwrap_or_default();
        let raw = crate::core::fsops::read_capped(&file, MAX_PROFILE_BYTES)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or_else(|| {
                format!(
                    "cannot read CAO's built-in profile {}: reinstall CAO",
                    file.display()
                )
            })?;
        let parsed = parse_text_in(env, &raw)
            .map_err(|e| format!("profile '{name}' (built into CAO): {e}"))?;
        let profile = Profile {
            name: name.into(),
            location,
            skills: parsed.skills.clone(),
            body: parsed.body.clone(),
            raw: Some(raw),
        };
        return Ok((profile, parsed));
    };
    let raw = crate::core::fsops::read_capped(&path, MAX_PROFILE_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let raw = String::from_utf8(raw).map_err(|e| {
        format!(
            "{} is not valid UTF-8 (byte {}): save it as UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let parsed = parse_text_in(env, &raw)
        .map_err(|e| format!("profile '{name}' ({}): {e}", path.display()))?;
    let profile = Profile {
        name: name.into(),
        location,
        skills: parsed.skills.clone(),
        body: parsed.body.clone(),
        raw: Some(raw),
    };
    Ok((profile, parsed))
}

/// A profile's text parsed as CAO would: the `skills` field and body.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub skills: Option<Vec<String>>,
    pub body: String,
    pub frontmatter: Frontmatter,
    /// The frontmatter's text, which the nodes' spans index.
    pub fm_text: String,
}

/// A profile's frontmatter as (key, value) pairs for display, from a parse
/// already made (after `.env` substitution, as CAO sees it).
pub fn fields_of(parsed: &Parsed) -> Vec<(String, String)> {
    crate::core::cao::skill::metadata_pairs(&parsed.frontmatter, &parsed.fm_text)
}

/// `parse_agent_profile_text(resolve_env_vars(raw))`, with AgentProfile's
/// validation of every field it declares.
pub fn parse_text(home: &Home, raw: &str) -> Result<Parsed, String> {
    parse_text_in(&read_env(home), raw)
}

/// [`parse_text`] with `.env` already read.
pub fn parse_text_in(env: &Env, raw: &str) -> Result<Parsed, String> {
    let text = safe_substitute(raw, env.as_ref().map_err(Clone::clone)?);
    let norm = Normalized::new(&text);
    let fm = frontmatter::parse(&norm.text).map_err(|e| e.to_string())?;
    let fm_text = &norm.text[fm.fm_range.clone()];
    if let Some(meta) = fm.metadata() {
        validate_fields(meta, fm_text)?;
    }
    let skills = match fm.get("skills") {
        None => None,
        Some(node) => skills_value(node, fm_text)?,
    };
    Ok(Parsed {
        skills,
        body: fm.body.clone(),
        fm_text: fm_text.to_string(),
        frontmatter: fm,
    })
}

fn skills_value(node: &Rc<Node>, fm_text: &str) -> Result<Option<Vec<String>>, String> {
    let items = match &node.value {
        Value::Null => return Ok(None),
        Value::Seq(items) => items,
        // `!!omap []`: pydantic takes an empty list of pairs as `[]`.
        Value::Pairs(pairs) if pairs.is_empty() => return Ok(Some(Vec::new())),
        other => {
            return Err(format!(
                "`skills` is {}, not a list of skill names: write `skills: [name, ...]`",
                other.type_name()
            ));
        }
    };
    items
        .iter()
        .map(|item| match &item.value {
            Value::Str(s) => Ok(s.clone()),
            // pydantic decodes bytes (`!!binary`) into a str.
            Value::Bytes(b) if std::str::from_utf8(b).is_ok() => {
                Ok(String::from_utf8_lossy(b).into_owned())
            }
            other => Err(crate::core::cao::skill::not_a_string(
                "skills item",
                item,
                other,
                fm_text,
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The pydantic types AgentProfile declares, for the fields a hand-written
/// profile is likely to carry. A mistyped one makes CAO refuse the profile.
#[derive(Clone, Copy)]
enum Field {
    Str,
    NonEmptyStr,
    StrList,
    Dict,
    StrDict,
    LaxBool,
    StrictBool,
    LaxInt,
    Concurrency,
    PermissionMode,
    Engine,
    /// `ContainerConfig`: an optional `path_maps` list of {host, guest}.
    Container,
}

const FIELDS: &[(&str, Field)] = &[
    ("name", Field::Str),
    ("description", Field::Str),
    ("provider", Field::Str),
    ("role", Field::Str),
    ("model", Field::Str),
    ("native_agent", Field::Str),
    ("prompt", Field::Str),
    ("codexProfile", Field::NonEmptyStr),
    ("hermesProfile", Field::NonEmptyStr),
    ("resources", Field::StrList),
    ("capabilities", Field::StrList),
    ("tags", Field::StrList),
    ("tools", Field::StrList),
    ("allowedTools", Field::StrList),
    ("mcpServers", Field::Dict),
    ("toolsSettings", Field::Dict),
    ("hooks", Field::Dict),
    ("codexConfig", Field::Dict),
    ("claudeConfig", Field::Dict),
    ("toolAliases", Field::StrDict),
    ("useLegacyMcpJson", Field::LaxBool),
    ("grokNativeWorkflows", Field::LaxBool),
    ("kimiSwarm", Field::StrictBool),
    ("provider_init_timeout", Field::LaxInt),
    ("container", Field::Container),
    ("kimiSwarmMaxConcurrency", Field::Concurrency),
    ("permissionMode", Field::PermissionMode),
    ("engine", Field::Engine),
];

fn validate_fields(meta: &Node, fm_text: &str) -> Result<(), String> {
    let mut problems = Vec::new();
    for (key, kind) in FIELDS {
        let Some(node) = meta.get(key) else { continue };
        // name and description are required (CAO fills them in when absent)
        // and so may not be null.
        let required = matches!(*key, "name" | "description");
        if matches!(node.value, Value::Null) && !required {
            continue;
        }
        if !field_ok(*kind, &node.value) {
            let reason = match (&node.value, kind) {
                (Value::Str(_), _) => format!("`{key}` has a value CAO does not accept"),
                (v, Field::Str | Field::NonEmptyStr) => {
                    crate::core::cao::skill::not_a_string(key, node, v, fm_text)
                }
                (v, _) => format!(
                    "`{key}` is {}, which CAO does not accept there",
                    v.type_name()
                ),
            };
            problems.push(reason);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

fn field_ok(kind: Field, v: &Value) -> bool {
    match kind {
        Field::Str => is_text(v),
        Field::NonEmptyStr => is_text(v) && !matches!(v, Value::Str(s) if s.is_empty()),
        Field::StrList => match v {
            Value::Seq(items) => items.iter().all(|i| is_text(&i.value)),
            Value::Pairs(pairs) => pairs.is_empty(),
            _ => false,
        },
        Field::Dict => matches!(v, Value::Map(p) if p.iter().all(|(k, _)| is_text(&k.value))),
        Field::StrDict => {
            matches!(v, Value::Map(p) if p.iter().all(|(k, x)| is_text(&k.value) && is_text(&x.value)))
        }
        Field::StrictBool => matches!(v, Value::Bool(_)),
        Field::LaxBool => lax_bool(v),
        Field::LaxInt => lax_int(v).is_some(),
        Field::Concurrency => matches!(v, Value::Int(i) if (1..=10).contains(i)),
        Field::PermissionMode => {
            matches!(v, Value::Str(s) if ["default", "acceptEdits", "plan", "auto", "bypassPermissions"].contains(&s.as_str()))
        }
        Field::Engine => matches!(v, Value::Str(s) if s == "v2" || s == "kas"),
        Field::Container => container_ok(v),
    }
}

fn container_ok(v: &Value) -> bool {
    let Value::Map(pairs) = v else { return false };
    let path_map_ok = |item: &Rc<Node>| match &item.value {
        Value::Map(_) => ["host", "guest"]
            .iter()
            .all(|k| item.get(k).is_some_and(|n| is_text(&n.value))),
        _ => false,
    };
    // PyYAML keeps the last of duplicate keys: only that one counts.
    let path_maps = pairs
        .iter()
        .rev()
        .find(|(k, _)| k.value.as_str() == Some("path_maps"));
    match path_maps.map(|(_, x)| &x.value) {
        None | Some(Value::Null) => true,
        Some(Value::Seq(items)) => items.iter().all(path_map_ok),
        Some(Value::Pairs(p)) => p.is_empty(),
        Some(_) => false,
    }
}

fn is_text(v: &Value) -> bool {
    matches!(v, Value::Str(_)) || matches!(v, Value::Bytes(b) if std::str::from_utf8(b).is_ok())
}

fn lax_bool(v: &Value) -> bool {
    match v {
        Value::Bool(_) => true,
        Value::Int(i) => *i == 0 || *i == 1,
        Value::Float(f) => *f == 0.0 || *f == 1.0,
        Value::Str(s) => matches!(
            s.to_lowercase().as_str(),
            "0" | "off" | "f" | "false" | "n" | "no" | "1" | "on" | "t" | "true" | "y" | "yes"
        ),
        _ => false,
    }
}

fn lax_int(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i128),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Some(*f as i128),
        Value::Str(s) => pydantic_int_str(s),
        Value::Bytes(b) => std::str::from_utf8(b).ok().and_then(pydantic_int_str),
        _ => None,
    }
}

/// pydantic's lax int from a str: blanks around, a sign, digits with single
/// `_` between them, and an optional `.0…` tail (`"30"`, `" 1_000 "`, `"12.00"`).
fn pydantic_int_str(s: &str) -> Option<i128> {
    // pydantic trims Unicode White_Space, which Rust's trim matches (not
    // Python's isspace, which adds U+001C-001F).
    let s = s.trim();
    let (int, zeros) = s.split_once('.').unwrap_or((s, "0"));
    if zeros.is_empty() || !zeros.bytes().all(|b| b == b'0') {
        return None;
    }
    let digits = int.strip_prefix(['+', '-']).unwrap_or(int);
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    // Python ints have no bound: past i128 it saturates, still an int.
    let saturated = if int.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    };
    well_formed.then(|| int.replace('_', "").parse().unwrap_or(saturated))
}

/// Python's `string.Template(text).safe_substitute(env)`: `$$` becomes `$`,
/// `$name` and `${name}` are replaced when known, anything else stays.
pub fn safe_substitute(text: &str, env: &HashMap<String, String>) -> String {
    if !text.contains('$') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
            continue;
        }
        let (ident, braced) = match after.strip_prefix('{') {
            Some(b) => (identifier(b), true),
            None => (identifier(after), false),
        };
        let closed = !braced || after[1 + ident.len()..].starts_with('}');
        match env.get(ident).filter(|_| !ident.is_empty() && closed) {
            Some(value) => {
                out.push_str(value);
                rest = &after[ident.len() + if braced { 2 } else { 0 }..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `[_a-z][_a-z0-9]*`, ASCII, case-insensitive.
fn identifier(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// One row of `profile list`: what CAO's discovery finds.
#[derive(Clone, Debug)]
pub struct Listed {
    pub name: String,
    pub location: Location,
    /// Other places the same name is defined (shadowed by this one).
    pub also_in: Vec<PathBuf>,
}

/// Every profile CAO would list, first found per name, sorted by name.
pub fn list(home: &Home) -> Vec<Listed> {
    let mut out: Vec<Listed> = Vec::new();
    for (dir, label) in search_dirs(home) {
        for (name, path) in profiles_in(&dir)
            .into_iter()
            .filter(|(n, _)| !is_reserved_ephemeral(n))
        {
            match out.iter_mut().find(|l| l.name == name) {
                Some(first) => first.also_in.push(path),
                None => out.push(Listed {
                    name,
                    location: Location {
                        path: Some(path),
                        source: label.clone(),
                    },
                    also_in: vec![],
                }),
            }
        }
    }
    let built_in = home.cao().map(|c| c.built_in_profiles());
    for name in built_in.unwrap_or_default() {
        if !out.iter().any(|l| l.name == name) {
            out.push(Listed {
                name,
                location: Location {
                    path: None,
                    source: "built-in".into(),
                },
                also_in: vec![],
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// `<name>.md` files and `<name>/agent.md` folders.
fn profiles_in(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let name = e.file_name().into_string().ok()?;
            let meta = fs::metadata(&path).ok()?;
            if meta.is_dir() {
                let agent = path.join("agent.md");
                agent.exists().then_some((name, agent))
            } else {
                let stem = name.strip_suffix(".md")?;
                (meta.is_file() && !stem.is_empty()).then(|| (stem.to_string(), path))
            }
        })
        .collect();
    out.sort();
    out
}

/// The profiles whose `skills:` list offers `folder`, by its name or by a
/// pattern (shown as `NAME (via PATTERN)`), as the catalog selects them:
/// removing the skill takes it from them, and a name left in a list
/// matches nothing.
pub fn listing_skill(home: &Home, folder: &str) -> Vec<String> {
    use crate::core::cao::catalog::Pattern;
    let env = read_env(home);
    let lists = |l: &Listed| {
        let (p, _) = load_parsed(home, &l.name, &env).ok()?;
        let skills = p.skills?;
        if skills.iter().any(|s| s == folder) {
            return Some(l.name.clone());
        }
        let pattern = skills.iter().find(|s| Pattern::new(s).matches(folder))?;
        Some(format!("{} (via {pattern})", l.name))
    };
    list(home).iter().filter_map(lists).collect()
}

/// Copies the built-in profile `name` into the agent store as `<name>.md`,
/// byte for byte, so it can be edited: CAO looks in the agent store before
/// its built-ins (see [`locate`]), so the copy is what it loads from then
/// on. Never over an existing file.
pub fn copy_built_in(home: &Home, name: &str) -> Result<PathBuf, String> {
    let src = built_in_path(home, name)
        .ok_or_else(|| format!("'{name}' is not a profile built into CAO: nothing to copy"))?;
    let bytes = crate::core::fsops::read_regular(&src)
        .map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    let store = home.agent_store();
    let dest = store.join(format!("{name}.md"));
    let taken = || {
        format!(
            "{} already exists, and skilltui never overwrites it: edit that file instead",
            dest.display()
        )
    };
    if fs::symlink_metadata(&dest).is_ok() {
        return Err(taken());
    }
    fs::create_dir_all(&store).map_err(|e| format!("cannot create {}: {e}", store.display()))?;
    // An empty expected text: create, never replace a file that appeared.
    match crate::core::fsops::atomic_write(&dest, &bytes, Some(b"")) {
        Ok(()) => Ok(dest),
        Err(crate::core::error::WriteError::ChangedOnDisk(_)) => Err(taken()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn built_ins_cao_cannot_read_fail_to_load_with_a_reinstall_hint() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = tmp.path().join("cli_agent_orchestrator");
        let store = pkg.join("agent_store");
        fs::create_dir_all(store.join("folder.md")).unwrap();
        fs::write(pkg.join("__init__.py"), "").unwrap();
        std::os::unix::fs::symlink("loop.md", store.join("loop.md")).unwrap();
        let c = std::ffi::CString::new(store.join("fifo.md").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let home = Home::at(tmp.path().join("home"), tmp.path().into()).with_cao(Some(&pkg));
        for name in ["fifo", "folder", "loop"] {
            let e = load(&home, name).unwrap_err();
            assert!(
                e.contains("built-in profile") && e.contains("reinstall CAO"),
                "{e}"
            );
        }
    }

    #[test]
    fn copying_a_built_in_makes_the_local_copy_cao_loads_and_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = tmp.path().join("cli_agent_orchestrator");
        fs::create_dir_all(pkg.join("agent_store")).unwrap();
        fs::write(pkg.join("__init__.py"), "").unwrap();
        let text = "---\nname: developer\ndescription: Dev\n---\r\nBuild it.\n";
        fs::write(pkg.join("agent_store/developer.md"), text).unwrap();
        let home = Home::at(tmp.path().join("home"), tmp.path().into()).with_cao(Some(&pkg));
        assert_eq!(locate(&home, "developer").unwrap().path, None);
        let dest = copy_built_in(&home, "developer").unwrap();
        assert_eq!(dest, home.agent_store().join("developer.md"));
        assert_eq!(fs::read_to_string(&dest).unwrap(), text, "byte for byte");
        assert_eq!(locate(&home, "developer").unwrap().path, Some(dest.clone()));
        // A second copy, or one over the user's own file, refuses.
        fs::write(&dest, "mine").unwrap();
        let e = copy_built_in(&home, "developer").unwrap_err();
        assert!(e.contains("already exists"), "{e}");
        assert_eq!(fs::read_to_string(&dest).unwrap(), "mine");
        fs::write(&dest, "").unwrap();
        assert!(
            copy_built_in(&home, "developer").is_err(),
            "not even an empty file"
        );
        assert!(
            copy_built_in(&home, "nobody")
                .unwrap_err()
                .contains("not a profile built into CAO")
        );
    }

    #[test]
    fn template_safe_substitute() {
        let e = env(&[("A", "x"), ("b_1", "y")]);
        assert_eq!(
            safe_substitute("$A ${b_1} $$A ${C} $ ${A", &e),
            "x y $A ${C} $ ${A"
        );
        assert_eq!(safe_substitute("$Ab", &e), "$Ab");
    }

    #[test]
    fn dotenv_forms() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join(".env");
        fs::write(
            &p,
            "A=1\nexport B=\"x y\" # c\nC=${A}2\nE=v # com\n# skip\nF\n",
        )
        .unwrap();
        let e = crate::core::parse::dotenv::load(&p).unwrap();
        assert_eq!(
            (
                e["A"].as_str(),
                e["B"].as_str(),
                e["C"].as_str(),
                e["E"].as_str()
            ),
            ("1", "x y", "12", "v")
        );
        assert!(!e.contains_key("F"));
    }

    fn parse(src: &str) -> Result<Option<Vec<String>>, String> {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().to_path_buf(), tmp.path().to_path_buf());
        parse_text(&home, src).map(|p| p.skills)
    }

    #[test]
    fn pydantic_coercions_and_nested_models() {
        for ok in [
            "'1.0'",
            "' 1_000 '",
            "'-12.00'",
            "'+1_0'",
            "2.0",
            "'\u{3000}7'",
        ] {
            let src = format!("---\nprovider_init_timeout: {ok}\n---\n");
            assert!(parse(&src).is_ok(), "{ok}");
        }
        for ok in [
            "'99999999999999999999999999999999999999999'",
            "!!binary MTI=",
        ] {
            let src = format!("---\nprovider_init_timeout: {ok}\n---\n");
            assert!(parse(&src).is_ok(), "{ok}");
        }
        assert!(parse("---\ncontainer: {path_maps: 5, path_maps: ~}\n---\n").is_ok());
        for bad in [
            "'1.5'",
            "'1__0'",
            "'1.'",
            "'_1'",
            "'1e3'",
            "1.5",
            "\"\\x1c7\"",
        ] {
            let src = format!("---\nprovider_init_timeout: {bad}\n---\n");
            assert!(parse(&src).is_err(), "{bad}");
        }
        for ok in [
            "{}",
            "{path_maps: ~}",
            "{path_maps: [{host: a, guest: b, x: 1}]}",
        ] {
            assert!(
                parse(&format!("---\ncontainer: {ok}\n---\n")).is_ok(),
                "{ok}"
            );
        }
        for bad in [
            "[]",
            "{path_maps: [{host: a}]}",
            "{path_maps: {}}",
            "{path_maps: [[a]]}",
        ] {
            assert!(
                parse(&format!("---\ncontainer: {bad}\n---\n")).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn skills_field_rules() {
        assert_eq!(parse("---\nname: p\n---\nbody").unwrap(), None);
        assert_eq!(parse("---\nskills:\n---\n").unwrap(), None);
        assert_eq!(parse("---\nskills: []\n---\n").unwrap(), Some(vec![]));
        assert_eq!(
            parse("---\nskills: [a, 'b*']\n---\n").unwrap(),
            Some(vec!["a".into(), "b*".into()])
        );
        assert!(parse("---\nskills: a\n---\n").is_err());
        assert!(
            parse("---\nskills:\n  - yes\n---\n")
                .unwrap_err()
                .contains("quote it")
        );
        assert!(parse("---\ndescription: 5\n---\n").is_err());
        assert_eq!(parse("no frontmatter at all").unwrap(), None);
        assert_eq!(
            parse("---\nskills: !!omap []\n---\n").unwrap(),
            Some(vec![])
        );
        assert_eq!(
            parse("---\nskills: [!!binary YWxwaGE=]\n---\n").unwrap(),
            Some(vec!["alpha".into()])
        );
        assert_eq!(parse("---\n- a list\n---\n").unwrap(), None);
    }
}
