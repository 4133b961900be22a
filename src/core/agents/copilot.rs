//! How GitHub Copilot CLI reads a SKILL.md. Every rule here was observed
//! with `copilot skill list --json` of `@github/copilot` 1.0.102, whose
//! loader is native code (its errors are serde_yaml's over libyaml's
//! parser: "duplicate entry with key", "mapping values are not allowed in
//! this context"); the differential fuzzer (tests/oracles/fuzz/copilot.rs)
//! checks them on generated homes.
//!
//! - The file (a BOM dropped) opens with a `---` line and the frontmatter
//!   ends at the next `---` line; anything else is "missing or malformed
//!   YAML frontmatter".
//! - The YAML is parsed by libyaml and typed the way serde_yaml types a
//!   plain scalar (YAML 1.2 core words: `off`, `yes`, `y` and dates stay
//!   text; `true`/`True`/`TRUE`, `null`/`~`, `0x1F`, `1e3` and `.inf` do
//!   not; digits with a leading zero stay text). `!!bool`, `!!int`,
//!   `!!float` and `!!null` type a scalar (a value of another kind fails
//!   the file); other `!!` tags keep the text; a local tag (`!x`) types
//!   plain text as if untagged. A repeated key at any level rejects the
//!   file.
//! - `name`: a string, else the folder's name; trimmed, each run of spaces
//!   made one `-`; 1-64 characters of ASCII letters, digits, `-`, `_`,
//!   `.` and `:`, starting with a letter or digit.
//! - `description`: a string of at most 1,024 characters; when absent,
//!   the body's first three lines that are not blank and do not start
//!   with `#`, trimmed, joined by one space and cut at 1,024 characters.
//! - The YAML ends before the line break ahead of the closing `---`, so a
//!   block scalar at its end has no final newline.

use std::collections::HashMap;

use saphyr_parser::{Event, ScalarStyle};

use crate::core::agents::read::Read;
use crate::core::parse::libyaml;
use crate::core::parse::yaml;

/// Copilot's longest description and name, in characters.
const MAX_DESCRIPTION: usize = 1024;
const MAX_NAME: usize = 64;
/// How many lines of the body make a missing description.
const BODY_LINES: usize = 3;

const MALFORMED: &str = "missing or malformed YAML frontmatter";

/// Copilot's verdict on one SKILL.md of folder `dir_name`.
pub fn read(text: &str, dir_name: &str) -> Read {
    let Some((yaml_text, body)) = split(text) else {
        return refused(MALFORMED);
    };
    let fields = match top_level(yaml_text) {
        Ok(f) => f,
        Err(e) => return refused(e),
    };
    let name = match fields.get("name") {
        None => dir_name.to_string(),
        Some(Field::Str(s)) => s.clone(),
        Some(_) => return refused("Skill name must be a string"),
    };
    let name = match checked_name(&name) {
        Ok(n) => n,
        Err(e) => return refused(e),
    };
    let description = match fields.get("description") {
        None => from_body(body),
        Some(Field::Str(s)) if s.chars().count() > MAX_DESCRIPTION => {
            return refused("Skill description must be at most 1024 characters");
        }
        Some(Field::Str(s)) => s.clone(),
        Some(_) => return refused("Skill description must be a string"),
    };
    Read {
        name: Some(name),
        description: Some(description),
        // For previews only: skilltui's own reader, where it can.
        frontmatter: yaml::load(yaml_text).ok().flatten(),
        body: body.to_string(),
        ..Read::default()
    }
}

fn refused(msg: impl Into<String>) -> Read {
    Read {
        error: Some(msg.into()),
        ..Read::default()
    }
}

/// The frontmatter text and the body: an opening `---` line, then the
/// text up to the next `---` line.
fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "---" {
            // The YAML ends before the line break that precedes `---`: a
            // block scalar at the end keeps no final newline.
            let yaml = &rest[..at];
            let yaml = yaml
                .strip_suffix("\r\n")
                .or_else(|| yaml.strip_suffix('\n'))
                .unwrap_or(yaml);
            return Some((yaml, &rest[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// A top-level value, as far as Copilot's checks go.
#[derive(Clone, Debug, PartialEq)]
enum Field {
    Str(String),
    /// Null, a boolean, a number, a list or a mapping.
    Other,
}

/// The frontmatter's top-level keys, or Copilot's complaint. A repeated
/// key at any level rejects the file, as serde_yaml's mapping does.
fn top_level(text: &str) -> Result<HashMap<String, Field>, String> {
    let events = libyaml::events(text)
        .map_err(|r| format!("failed to parse YAML frontmatter: {}", r.error))?;
    let mut walker = Walker {
        events: events.into_iter().map(|(e, _)| e).collect(),
        at: 0,
        anchors: HashMap::new(),
    };
    walker.skip_to_document();
    match walker.peek() {
        // An empty frontmatter is an empty mapping.
        None | Some(Event::DocumentEnd) | Some(Event::StreamEnd) => Ok(HashMap::new()),
        Some(Event::MappingStart(..)) => walker.mapping(),
        Some(Event::Scalar(v, ScalarStyle::Plain, ..)) if plain_is_null(v) => Ok(HashMap::new()),
        _ => Err(MALFORMED.to_string()),
    }
}

struct Walker {
    events: Vec<Event<'static>>,
    at: usize,
    /// Anchored scalars (an alias of a collection is not a string).
    anchors: HashMap<usize, Field>,
}

impl Walker {
    fn peek(&self) -> Option<&Event<'static>> {
        self.events.get(self.at)
    }

    fn advance(&mut self) -> Option<Event<'static>> {
        let e = self.events.get(self.at).cloned();
        self.at += 1;
        e
    }

    fn skip_to_document(&mut self) {
        while matches!(
            self.peek(),
            Some(Event::StreamStart | Event::DocumentStart(_) | Event::Nothing)
        ) {
            self.at += 1;
        }
    }

    /// The mapping starting here: its keys (as text) and values.
    fn mapping(&mut self) -> Result<HashMap<String, Field>, String> {
        let Some(Event::MappingStart(anchor, _)) = self.advance() else {
            return Err(MALFORMED.to_string());
        };
        let mut out = HashMap::new();
        loop {
            if matches!(self.peek(), Some(Event::MappingEnd) | None) {
                self.at += 1;
                break;
            }
            let key = self.node()?;
            let value = self.node()?;
            if let Field::Str(k) = key {
                if out.contains_key(&k) {
                    return Err(format!(
                        "failed to parse YAML frontmatter: duplicate entry with key \"{k}\""
                    ));
                }
                out.insert(k, value);
            }
        }
        self.anchors.insert(anchor, Field::Other);
        Ok(out)
    }

    /// One node: a scalar as serde_yaml types it; a collection walked
    /// (its repeated keys refused) and reported as `Other`.
    fn node(&mut self) -> Result<Field, String> {
        match self.peek().cloned() {
            Some(Event::Scalar(value, style, anchor, tag)) => {
                self.at += 1;
                let core = tag
                    .as_ref()
                    .filter(|t| t.is_yaml_core_schema())
                    .map(|t| t.suffix.clone());
                let is_str = match core.as_deref() {
                    Some(kind @ ("bool" | "int" | "float" | "null")) => {
                        if !core_value_ok(kind, &value) {
                            return Err(format!(
                                "failed to parse YAML frontmatter: invalid value {value:?} for !!{kind}"
                            ));
                        }
                        false
                    }
                    // !!str, !!binary, !!timestamp: the text itself.
                    Some(_) => true,
                    // Untagged, or a local tag: plain text is typed.
                    None => style != ScalarStyle::Plain || !plain_is_typed(&value),
                };
                let f = match is_str {
                    true => Field::Str(value.into_owned()),
                    false => Field::Other,
                };
                self.anchors.insert(anchor, f.clone());
                Ok(f)
            }
            Some(Event::Alias(id)) => {
                self.at += 1;
                Ok(self.anchors.get(&id).cloned().unwrap_or(Field::Other))
            }
            Some(Event::MappingStart(..)) => self.mapping().map(|_| Field::Other),
            Some(Event::SequenceStart(anchor, _)) => {
                self.at += 1;
                while !matches!(self.peek(), Some(Event::SequenceEnd) | None) {
                    self.node()?;
                }
                self.at += 1;
                self.anchors.insert(anchor, Field::Other);
                Ok(Field::Other)
            }
            _ => Err(MALFORMED.to_string()),
        }
    }
}

/// Whether a scalar tagged `!!bool`, `!!int`, `!!float` or `!!null`
/// holds such a value (serde_yaml refuses the file otherwise).
fn core_value_ok(kind: &str, s: &str) -> bool {
    match kind {
        "bool" => matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE"),
        "int" => is_int(s),
        "float" => is_int(s) || is_float(s),
        _ => plain_is_null(s),
    }
}

fn plain_is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

/// Whether serde_yaml 0.9 reads this plain scalar as something other than
/// a string (its `visit_untagged_scalar`: null, bool, int, then float).
fn plain_is_typed(s: &str) -> bool {
    let bool_word = matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE");
    plain_is_null(s) || bool_word || is_int(s) || (!leading_zero_digits(s) && is_float(s))
}

/// YAML 1.2: digits after a leading zero are a string, not octal.
fn leading_zero_digits(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    s.len() > 1 && s.starts_with('0') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn is_int(s: &str) -> bool {
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let fits = |digits: &str, radix: u32| {
        !digits.starts_with(['+', '-'])
            && match negative {
                true => i64::from_str_radix(&format!("-{digits}"), radix).is_ok(),
                false => u64::from_str_radix(digits, radix).is_ok(),
            }
    };
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = body.strip_prefix(prefix) {
            return fits(digits, radix);
        }
    }
    !leading_zero_digits(s) && fits(body, 10)
}

/// serde_yaml's `parse_f64`: the `.inf`/`.nan` words, or what Rust's
/// float parser reads as a finite number.
fn is_float(s: &str) -> bool {
    let unsigned = match s.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return false,
        Some(u) => u,
        None => s,
    };
    let words = [".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"];
    if words.contains(&unsigned) || matches!(s, "-.inf" | "-.Inf" | "-.INF") {
        return true;
    }
    unsigned.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The name Copilot lists: trimmed, runs of spaces made one `-`, checked.
fn checked_name(raw: &str) -> Result<String, String> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join("-");
    if name.is_empty() {
        return Err("Skill name must not be empty".into());
    }
    if name.chars().count() > MAX_NAME {
        return Err("Skill name must be at most 64 characters".into());
    }
    let first_ok = name.starts_with(|c: char| c.is_ascii_alphanumeric());
    let rest_ok = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if !(first_ok && rest_ok) {
        return Err(
            "Skill name must start with an ASCII letter or number and contain only \
                    ASCII letters (a-z, A-Z), numbers, hyphens, underscores, dots, colons, \
                    and spaces"
                .into(),
        );
    }
    Ok(name)
}

/// The description Copilot makes from the body when the frontmatter has
/// none.
fn from_body(body: &str) -> String {
    let joined = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(BODY_LINES)
        .collect::<Vec<_>>()
        .join(" ");
    joined.chars().take(MAX_DESCRIPTION).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str, dir: &str) -> (String, String) {
        let r = read(text, dir);
        assert!(r.error.is_none(), "{text:?}: {:?}", r.error);
        (r.name.unwrap(), r.description.unwrap())
    }

    fn err(text: &str) -> String {
        read(text, "dir").error.expect("refused")
    }

    // Copilot 1.0.102, observed: YAML 1.2 words and dates stay text;
    // booleans, null and numbers are not strings.
    #[test]
    fn values_are_typed_as_serde_yaml_types_them() {
        for text in ["off", "yes", "y", "2024-06-19", "1_000", "012", "inf", "0x"] {
            let d = format!("---\nname: a\ndescription: {text}\n---\n");
            assert_eq!(ok(&d, "x").1, text, "{text}");
        }
        for typed in [
            "True", "FALSE", "null", "~", "42", "+12", "0x1F", "0o17", "1e3", ".5",
        ] {
            let d = format!("---\nname: a\ndescription: {typed}\n---\n");
            assert_eq!(err(&d), "Skill description must be a string", "{typed}");
        }
        assert_eq!(
            err("---\nname: 16832\ndescription: d\n---\n"),
            "Skill name must be a string"
        );
        assert_eq!(
            ok("---\nname: a\ndescription: !!str 42\n---\n", "x").1,
            "42"
        );
        // Tags, observed: core types are typed (a bad value fails the
        // file); !!binary is text; a local tag types plain text as if untagged.
        for (tagged, want) in [
            ("!!binary aGVsbG8=", Some("aGVsbG8=")),
            ("!custom does things", Some("does things")),
            ("!custom 'quoted'", Some("quoted")),
            ("!custom 42", None),
            ("! 42", None),
            ("!!int \"7\"", None),
            ("!!bool true", None),
        ] {
            let d = format!("---\nname: a\ndescription: {tagged}\n---\n");
            assert_eq!(read(&d, "x").description.as_deref(), want, "{tagged}");
        }
        assert!(err("---\nname: a\ndescription: !!int abc\n---\n").starts_with("failed to parse"));
        assert!(err("---\nname: a\ndescription: d\nk: {b: 1, b: 2}\n---\n").contains("duplicate"));
        assert_eq!(
            ok("---\nname: &n t40\ndescription: *n\n---\n", "x").1,
            "t40"
        );
    }

    #[test]
    fn a_repeated_key_or_a_missing_fence_refuses_the_file() {
        assert!(err("---\nname: a\ndescription: x\ndescription: y\n---\n").contains("duplicate"));
        assert_eq!(err("\n---\nname: a\ndescription: d\n---\n"), MALFORMED);
        assert_eq!(err("---\nname: a\ndescription: d\n"), MALFORMED);
        assert_eq!(err("---\nname: a\ndescription: d\n...\n"), MALFORMED);
        assert_eq!(
            ok("\u{feff}---\r\nname: a\r\ndescription: d\r\n---\r\n", "x").1,
            "d"
        );
        assert_eq!(ok("---\n---\nonly body\n", "fold").0, "fold");
    }

    #[test]
    fn names_are_made_of_ascii_and_spaces_become_hyphens() {
        assert_eq!(
            ok("---\nname: \"  a  b  \"\ndescription: d\n---\n", "x").0,
            "a-b"
        );
        assert_eq!(ok("---\ndescription: d\n---\n", "Has Space").0, "Has-Space");
        assert_eq!(
            ok("---\nname: a:b.c_d\ndescription: d\n---\n", "x").0,
            "a:b.c_d"
        );
        assert!(err("---\nname: a/b\ndescription: d\n---\n").contains("ASCII letter"));
        assert!(err("---\nname: t-é\ndescription: d\n---\n").contains("ASCII letter"));
        let long = format!("---\nname: {}\ndescription: d\n---\n", "n".repeat(65));
        assert_eq!(err(&long), "Skill name must be at most 64 characters");
        assert_eq!(
            err("---\nname: \"\"\ndescription: d\n---\n"),
            "Skill name must not be empty"
        );
    }

    fn places(ctx: &crate::core::agents::scan::Ctx) -> Vec<std::path::PathBuf> {
        let table = crate::core::agents::table::built_in();
        let agent = table.iter().find(|a| a.id == "github-copilot").unwrap();
        crate::core::agents::scan::places(agent, ctx)
            .into_iter()
            .map(|p| p.path)
            .collect()
    }

    // Copilot 1.0.102, observed: outside a repository every parent's
    // .github/skills is read; ~/.agents/skills only while COPILOT_HOME is
    // unset or ~/.copilot.
    #[test]
    fn copilot_walks_every_parent_outside_a_repository_and_honours_copilot_home() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let mut ctx = crate::core::agents::scan::Ctx {
            user_home: home.clone(),
            cwd: t.path().join("a/b"),
            env: HashMap::new(),
            cao: None,
        };
        let found = places(&ctx);
        assert!(
            found.contains(&t.path().join("a/.github/skills")),
            "{found:?}"
        );
        assert!(found.contains(&std::path::PathBuf::from("/.github/skills")));
        assert!(found.contains(&home.join(".agents/skills")));
        ctx.env.insert(
            "COPILOT_HOME".into(),
            home.join(".copilot").display().to_string(),
        );
        assert!(places(&ctx).contains(&home.join(".agents/skills")));
        ctx.env.insert(
            "COPILOT_HOME".into(),
            t.path().join("elsewhere").display().to_string(),
        );
        let found = places(&ctx);
        assert!(!found.contains(&home.join(".agents/skills")), "{found:?}");
        assert!(found.contains(&t.path().join("elsewhere/skills")));
    }

    #[test]
    fn a_missing_description_comes_from_the_body_cut_at_1024() {
        let (_, d) = ok(
            "---\nname: a\n---\n# Title\n\n  Some *text*\n\n#x\n- item\n",
            "x",
        );
        assert_eq!(d, "Some *text* - item");
        let (_, d) = ok("---\nname: a\n---\none\n\ntwo\n# h\nthree\nfour\n", "x");
        assert_eq!(d, "one two three");
        let (_, d) = ok("---\nname: a\ndescription: >\n  folded\n  text\n---\n", "x");
        assert_eq!(d, "folded text");
        let long = format!("---\nname: a\n---\n{}\n", "ab ".repeat(600));
        assert_eq!(ok(&long, "x").1.chars().count(), 1024);
        let over = format!("---\nname: a\ndescription: {}\n---\n", "é".repeat(1025));
        assert!(err(&over).contains("at most 1024"));
        let at = format!("---\nname: a\ndescription: {}\n---\n", "é".repeat(1024));
        assert_eq!(ok(&at, "x").1.chars().count(), 1024);
        assert_eq!(
            ok("---\nname: a\ndescription: \"\"\n---\nbody\n", "x").1,
            ""
        );
    }
}
