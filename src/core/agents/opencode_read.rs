//! How OpenCode 1.18.33 reads a SKILL.md (packages/opencode/src/skill
//! `uA`, config/markdown.ts `parse`, as bundled in opencode-ai 1.18.33 and
//! observed with `opencode debug skill`):
//! - gray-matter 4 splits the file: a BOM is dropped, the frontmatter is
//!   there only when the text opens with `---` (not `----`), and it ends
//!   at the first `\n---` anywhere after, or at the end of the file;
//! - js-yaml 3 reads it: `on`/`off`/`yes`/`no` stay text, while the
//!   `true`/`false` forms, `null`, numbers (`1e3` too) and dates are not
//!   strings; a key repeated in one mapping fails the file;
//! - when that fails, markdown.ts `fallbackSanitization` retries once with
//!   each unquoted top-level `key: value` whose value holds a `:` made a
//!   `|-` block (only when the text, BOM included, opens with `---\n`);
//! - the skill loads when `name` is a string (even empty) and
//!   `description` is absent or a string; without a description it is left
//!   out of the model's list.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;

use crate::core::agents::read::Read;
use crate::core::parse::yaml::{self, Node, Style, Value};

/// OpenCode's verdict on one SKILL.md text.
pub fn read(text: &str) -> Read {
    let Some(first) = split(text) else {
        return refused("no frontmatter: OpenCode skips a SKILL.md that does not open with `---`");
    };
    let (root, body) = match data(&first) {
        Ok(root) => (root, first.body),
        Err(e) => match sanitized(text).as_deref().and_then(split) {
            Some(again) => match data(&again) {
                Ok(root) => (root, again.body),
                Err(_) => return refused(format!("invalid YAML frontmatter: {e}")),
            },
            None => return refused(format!("invalid YAML frontmatter: {e}")),
        },
    };
    let src = root.as_ref().map_or("", |r| r.src.as_str());
    let field = |k: &str| root.as_ref().and_then(|r| r.node.get(k));
    let Some(name) = field("name").and_then(|n| string(n, src)) else {
        return refused("frontmatter has no string `name` (js-yaml 3 types)");
    };
    let description = match field("description") {
        None => None,
        Some(n) => match string(n, src) {
            Some(d) => Some(d),
            None => return refused("`description` is not a string (js-yaml 3 types)"),
        },
    };
    Read {
        name: Some(name),
        hidden: description.is_none(),
        description,
        frontmatter: root.map(|r| r.node),
        body,
        ..Read::default()
    }
}

fn refused(msg: impl Into<String>) -> Read {
    Read {
        error: Some(msg.into()),
        ..Read::default()
    }
}

/// gray-matter's split: the frontmatter's YAML text and the body.
struct Split {
    matter: String,
    body: String,
}

/// The parsed frontmatter and the text its spans point into.
struct Root {
    node: Rc<Node>,
    src: String,
}

/// gray-matter 4 `parseMatter` with its defaults (`---` both ways).
fn split(text: &str) -> Option<Split> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // The rest of the opening line names the language (`---yaml`); an
    // unknown one throws "engine is not registered".
    // (JavaScript's `slice(0, -1)` when there is no line break at all.)
    let last_char = rest.char_indices().last().map_or(0, |(i, _)| i);
    let line_end = rest
        .find('\n')
        .map_or(last_char, |i| i - usize::from(rest[..i].ends_with('\r')));
    let language = rest[..line_end].trim();
    let rest = match language {
        "" => rest,
        "yaml" | "yml" => &rest[line_end..],
        _ => return Some(unreadable()),
    };
    let close = rest.find("\n---").unwrap_or(rest.len());
    let body = rest.get(close + 4..).unwrap_or("");
    let body = body.strip_prefix('\r').unwrap_or(body);
    let body = body.strip_prefix('\n').unwrap_or(body);
    Some(Split {
        matter: rest[..close].to_string(),
        body: body.to_string(),
    })
}

/// A frontmatter no YAML reader accepts (an unregistered language).
fn unreadable() -> Split {
    Split {
        matter: "\t: [".into(),
        body: String::new(),
    }
}

/// js-yaml 3 `safeLoad` of the frontmatter, as far as OpenCode looks at
/// it: `None` when it holds nothing but comments and blanks (gray-matter
/// then gives `{}`).
fn data(split: &Split) -> Result<Option<Root>, String> {
    static COMMENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^\s*#[^\n]+").expect("regex"));
    if COMMENT.replace_all(&split.matter, "").trim().is_empty() {
        return Ok(None);
    }
    let src = split.matter.replace("\r\n", "\n");
    let mut src = src.strip_suffix('\r').unwrap_or(&src).to_string();
    // js-yaml takes the end of the input as a line break: a `>` or `|`
    // block as the last field ends with `\n` (opencode-ai 1.18.33,
    // observed); gray-matter's split leaves that break out.
    if !src.ends_with('\n') {
        src.push('\n');
    }
    let node = yaml::load(&src).map_err(|e| e.to_string())?;
    let Some(node) = node else { return Ok(None) };
    if let Some(key) = repeated_key(&node, &src) {
        return Err(format!("duplicated mapping key `{key}`"));
    }
    Ok(node.is_map().then_some(Root { node, src }))
}

/// The first key found twice in one mapping (js-yaml 3 and 4 throw
/// "duplicated mapping key"; skilltui's YAML reader keeps the last).
pub fn repeated_key(node: &Node, src: &str) -> Option<String> {
    match &node.value {
        Value::Map(pairs) => {
            let mut seen = HashSet::new();
            for (k, v) in pairs {
                let key = src.get(k.span.clone()).unwrap_or_default().trim();
                let key = k.value.as_str().unwrap_or(key).to_string();
                if key != "<<" && !seen.insert(key.clone()) {
                    return Some(key);
                }
                if let Some(found) = repeated_key(v, src) {
                    return Some(found);
                }
            }
            None
        }
        Value::Seq(items) => items.iter().find_map(|i| repeated_key(i, src)),
        _ => None,
    }
}

/// The node's text when js-yaml 3 makes it a JavaScript string.
fn string(node: &Node, src: &str) -> Option<String> {
    if node.style != Style::Plain {
        return node.value.as_str().map(str::to_string);
    }
    let raw = src.get(node.span.clone()).unwrap_or_default().trim();
    if !js_yaml3_plain_is_string(raw) {
        return None;
    }
    match &node.value {
        Value::Str(s) => Some(s.clone()),
        // YAML 1.1 words (`yes`, `off`) and forms only PyYAML types.
        Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Timestamp(_) => {
            Some(raw.to_string())
        }
        _ => None,
    }
}

/// Whether js-yaml 3's default safe schema leaves a plain scalar a string
/// (js-yaml 3.14 lib/js-yaml/type/{null,bool,int,float,timestamp}.js).
pub fn js_yaml3_plain_is_string(raw: &str) -> bool {
    static TYPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"\A(?:",
            // null, bool
            r"~|null|Null|NULL|true|True|TRUE|false|False|FALSE",
            // int: binary, hex, octal, decimal, base 60
            r"|[-+]?0b[01_]*[01][01_]*|[-+]?0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*",
            r"|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
            // float
            r"|[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?",
            r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?",
            r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*",
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
            // timestamp
            r"|[0-9]{4}-[0-9]{2}-[0-9]{2}",
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}",
            r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?",
            r")\z"
        ))
        .expect("regex")
    });
    !raw.is_empty() && !TYPED.is_match(raw)
}

/// markdown.ts `fallbackSanitization`: `None` when the text (BOM
/// included) does not open with a `---` fenced block.
fn sanitized(text: &str) -> Option<String> {
    static FM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\A---\r?\n((?s:.)*?)\r?\n---").expect("regex"));
    static KV: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\A([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)\z").expect("regex"));
    let fm = FM.captures(text)?.get(1)?.as_str();
    let mut out: Vec<String> = Vec::new();
    for line in fm.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        let kv = KV.captures(line).filter(|_| {
            !(line.trim().starts_with('#')
                || line.trim().is_empty()
                || line.starts_with(char::is_whitespace))
        });
        let Some(kv) = kv else {
            out.push(line.to_string());
            continue;
        };
        let value = kv[2].trim();
        let kept = value.is_empty()
            || value == ">"
            || value == "|"
            || value.starts_with(['"', '\''])
            || !value.contains(':');
        if kept {
            out.push(line.to_string());
        } else {
            out.push(format!("{}: |-", &kv[1]));
            out.push(format!("  {value}"));
        }
    }
    Some(text.replacen(fm, &out.join("\n"), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loads(text: &str) -> Option<(String, Option<String>)> {
        let r = read(text);
        r.error.is_none().then(|| (r.name.unwrap(), r.description))
    }

    fn ok(name: &str, d: &str) -> Option<(String, Option<String>)> {
        Some((name.into(), Some(d.into())))
    }

    // Each case below is what opencode-ai 1.18.33 `opencode debug skill`
    // loaded (or skipped) for the same file.
    #[test]
    fn yaml_1_1_words_stay_text_and_js_yaml_types_are_skipped() {
        let md = |d: &str| format!("---\nname: n\ndescription: {d}\n---\nb\n");
        assert_eq!(loads(&md("on")), ok("n", "on"));
        assert_eq!(loads(&md("off")), ok("n", "off"));
        assert_eq!(loads(&md("Yes")), ok("n", "Yes"));
        assert_eq!(loads(&md("a:b")), ok("n", "a:b"));
        for typed in [
            "True",
            "false",
            "null",
            "~",
            "2024-06-19",
            "16832",
            "1e3",
            "0x1F",
            ".5",
        ] {
            assert_eq!(loads(&md(typed)), None, "{typed}");
        }
        assert_eq!(loads("---\nname: 16832\ndescription: d\n---\n"), None);
        assert_eq!(
            loads("---\nname: '16832'\ndescription: d\n---\n"),
            ok("16832", "d")
        );
        // `description:` with nothing is null: not a string, skipped.
        assert_eq!(loads("---\nname: n\ndescription:\n---\n"), None);
        // An empty string is a string.
        assert_eq!(loads("---\nname: ''\ndescription: x\n---\n"), ok("", "x"));
    }

    #[test]
    fn frontmatter_only_at_the_start_and_to_the_first_fence() {
        assert_eq!(loads("\n---\nname: n\ndescription: d\n---\n"), None);
        assert_eq!(loads("----\nname: n\ndescription: d\n---\n"), None);
        assert_eq!(
            loads("\u{feff}---\nname: n\ndescription: d\n---\n"),
            ok("n", "d")
        );
        assert_eq!(
            loads("---\r\nname: n\r\ndescription: d\r\n---\r\n"),
            ok("n", "d")
        );
        // Unclosed: the whole rest is YAML; `----` closes it too.
        assert_eq!(loads("---\nname: n\ndescription: u\n"), ok("n", "u"));
        assert_eq!(
            loads("---\nname: n\ndescription: x\n----\nbody\n"),
            ok("n", "x")
        );
    }

    #[test]
    fn a_block_as_the_last_field_ends_with_a_line_break() {
        assert_eq!(
            loads("---\nname: n\ndescription: >\n  folded\n  on two lines\n---\nb\n"),
            ok("n", "folded on two lines\n")
        );
        assert_eq!(
            loads("---\nname: n\ndescription: |-\n  kept\n---\nb\n"),
            ok("n", "kept")
        );
    }

    #[test]
    fn a_repeated_key_rejects_the_file() {
        assert_eq!(loads("---\nname: a\ndescription: d\nname: b\n---\n"), None);
    }

    #[test]
    fn a_colon_value_is_retried_as_a_block_unless_a_bom_opens_the_file() {
        assert_eq!(
            loads("---\nname: n\ndescription: has: colon\n---\nb\n"),
            ok("n", "has: colon")
        );
        assert_eq!(
            loads("\u{feff}---\nname: n\ndescription: has: colon\n---\nb\n"),
            None
        );
    }

    #[test]
    fn no_description_loads_hidden() {
        let r = read("---\nname: a\n---\nx");
        assert!(r.error.is_none() && r.hidden);
        assert!(read("---\ndescription: d\n---\nx").error.is_some());
    }
}
