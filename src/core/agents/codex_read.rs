//! How Codex 0.169.0 reads the fields of a SKILL.md frontmatter: its
//! `serde_yaml` frontmatter struct (openai/codex core-skills loader.rs
//! `SkillFrontmatter`: `name`, `description`, `metadata.short-description`
//! as `Option<String>`), on libyaml's events as `serde_yaml` reads them,
//! and the second try Codex makes when that fails, with some values
//! quoted. Every rule here was observed with `codex debug prompt-input`
//! (@openai/codex 0.169.0) and is checked by the fuzzer
//! (tests/oracles/fuzz/codex.rs).

use std::collections::HashMap;

use saphyr_parser::{Event, ScalarStyle};

use crate::core::parse::libyaml;

/// The fields Codex takes from a frontmatter: each the text as written
/// (`2024-06-19`, `0x1F`, `off` stay text), `None` when absent or null.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields {
    pub name: Option<String>,
    pub description: Option<String>,
}

/// The fields of frontmatter `fm` (its lines between the fences), or the
/// reason Codex refuses it. A first read takes the YAML as it is; when it
/// fails, a second read takes it with values quoted ([`requoted`]).
pub fn fields(fm: &str) -> Result<Fields, String> {
    match strict(fm) {
        Ok(f) => Ok(f),
        Err(e) => requoted(fm)
            .and_then(|t| strict(&t).ok())
            .ok_or(format!("invalid YAML: {e}")),
    }
}

/// `serde_yaml::from_str::<SkillFrontmatter>`: a mapping; a string field
/// is any scalar's text (tags other than `!!null` are ignored), `None` for
/// a plain `~`, `null`, `Null`, `NULL` or nothing; a list or mapping there
/// is an error; a repeated `name`, `description`, `metadata` or
/// `metadata.short-description` is an error; other keys are skipped,
/// repeated or not.
fn strict(fm: &str) -> Result<Fields, String> {
    let events = libyaml::events(fm).map_err(|r| r.error.message)?;
    let mut r = Reader {
        events: events.into_iter().map(|(e, _)| e).collect(),
        at: 0,
        anchors: HashMap::new(),
    };
    while matches!(r.peek(), Some(Event::DocumentStart(_))) {
        r.at += 1;
    }
    if !matches!(r.peek(), Some(Event::MappingStart(..))) {
        return Err("the frontmatter is not a mapping".into());
    }
    r.at += 1;
    let mut out = Fields::default();
    let mut seen: Vec<String> = Vec::new();
    while !matches!(r.peek(), Some(Event::MappingEnd) | None) {
        let key = r.key()?;
        if matches!(key.as_str(), "name" | "description" | "metadata") {
            if seen.contains(&key) {
                return Err(format!("duplicate field `{key}`"));
            }
            seen.push(key.clone());
        }
        match key.as_str() {
            "name" => out.name = r.string()?,
            "description" => out.description = r.string()?,
            "metadata" => r.metadata()?,
            _ => r.skip()?,
        }
    }
    Ok(out)
}

/// What an anchor names: a scalar (its text, style and tag) or a list or
/// mapping.
#[derive(Clone)]
enum Anchored {
    Scalar(String, ScalarStyle, bool),
    Collection,
}

struct Reader {
    events: Vec<Event<'static>>,
    at: usize,
    anchors: HashMap<usize, Anchored>,
}

impl Reader {
    fn peek(&self) -> Option<&Event<'static>> {
        self.events.get(self.at)
    }

    fn next(&mut self) -> Result<Event<'static>, String> {
        let e = self.events.get(self.at).cloned().ok_or("unexpected end")?;
        self.at += 1;
        Ok(e)
    }

    /// A mapping key: a scalar's text (an alias to one too).
    fn key(&mut self) -> Result<String, String> {
        match self.node()? {
            Anchored::Scalar(s, ..) => Ok(s),
            Anchored::Collection => Ok(String::new()),
        }
    }

    /// A string field: `None` for null, an error for a list or mapping.
    fn string(&mut self) -> Result<Option<String>, String> {
        match self.node()? {
            Anchored::Collection => Err("invalid type: expected a string".into()),
            Anchored::Scalar(s, style, null_tag) => {
                let null_text = matches!(s.as_str(), "" | "~" | "null" | "Null" | "NULL");
                match (null_tag, style == ScalarStyle::Plain && null_text) {
                    (true, true) => Ok(None),
                    (true, false) => Err("invalid value for a null".into()),
                    (false, true) => Ok(None),
                    (false, false) => Ok(Some(s)),
                }
            }
        }
    }

    /// `metadata`: a mapping whose `short-description` is a string field
    /// (read for its errors; skilltui does not show it), or null.
    fn metadata(&mut self) -> Result<(), String> {
        if !matches!(self.peek(), Some(Event::MappingStart(..))) {
            return match self.string()? {
                None => Ok(()),
                Some(_) => Err("invalid type: metadata expects a mapping".into()),
            };
        }
        self.node_start();
        let mut seen = false;
        while !matches!(self.peek(), Some(Event::MappingEnd) | None) {
            if self.key()? == "short-description" {
                if seen {
                    return Err("duplicate field `short-description`".into());
                }
                seen = true;
                self.string()?;
            } else {
                self.skip()?;
            }
        }
        self.next()?;
        Ok(())
    }

    /// Consumes a collection's start event, recording its anchor.
    fn node_start(&mut self) {
        if let Some(Event::MappingStart(a, _) | Event::SequenceStart(a, _)) = self.peek() {
            let a = *a;
            if a != 0 {
                self.anchors.insert(a, Anchored::Collection);
            }
        }
        self.at += 1;
    }

    fn skip(&mut self) -> Result<(), String> {
        self.node().map(|_| ())
    }

    /// One node, whole, with the anchors it defines recorded.
    fn node(&mut self) -> Result<Anchored, String> {
        match self.peek().cloned() {
            Some(Event::Scalar(s, style, anchor, tag)) => {
                self.at += 1;
                let null_tag =
                    tag.is_some_and(|t| t.handle == "tag:yaml.org,2002:" && t.suffix == "null");
                let node = Anchored::Scalar(s.into_owned(), style, null_tag);
                if anchor != 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                Ok(node)
            }
            Some(Event::Alias(id)) => {
                self.at += 1;
                self.anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| "unknown anchor".to_string())
            }
            Some(Event::MappingStart(..) | Event::SequenceStart(..)) => {
                self.node_start();
                while !matches!(
                    self.peek(),
                    Some(Event::MappingEnd | Event::SequenceEnd) | None
                ) {
                    self.node()?;
                }
                self.next()?;
                Ok(Anchored::Collection)
            }
            _ => Err("unexpected event".into()),
        }
    }
}

/// The frontmatter with some values quoted, `None` when none is: each
/// line `key: value` (at any indent, the key ending at the first `:`
/// followed by a blank) whose value is not quoted already
/// and either holds a `:` followed by a blank, or starts with `[`, `{`,
/// `@` or `` ` `` and is no YAML by itself. The value quoted ends before a
/// ` #` comment. Observed with Codex 0.169.0: `description: has: colon`
/// and `description: [draft] notes` load as written, `description: [a]`
/// stays a list (refused), `description: - a` and `description: %x` stay
/// refused.
fn requoted(fm: &str) -> Option<String> {
    let mut changed = false;
    let lines: Vec<String> = fm
        .split('\n')
        .map(|line| match quote_line(line) {
            Some(q) => {
                changed = true;
                q
            }
            None => line.to_string(),
        })
        .collect();
    changed.then(|| lines.join("\n"))
}

fn quote_line(line: &str) -> Option<String> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    if body.is_empty() || body.starts_with('#') {
        return None;
    }
    let sep = colon_blank(body)?;
    let raw = body[sep + 1..].trim();
    if raw.is_empty() || raw.starts_with(['\'', '"']) {
        return None;
    }
    let value = match comment_start(raw) {
        Some(i) => raw[..i].trim_end(),
        None => raw,
    };
    let odd = value.starts_with(['[', '{', '@', '`']) && libyaml::events(value).is_err();
    if colon_blank(value).is_none() && !odd {
        return None;
    }
    let quoted = serde_json::to_string(value).ok()?;
    Some(format!("{indent}{}: {quoted}", &body[..sep]))
}

/// The byte index of the first `:` followed by a space or a tab.
fn colon_blank(s: &str) -> Option<usize> {
    s.as_bytes()
        .windows(2)
        .position(|w| w[0] == b':' && (w[1] == b' ' || w[1] == b'\t'))
}

/// Where a ` #` (or tab `#`) comment starts.
fn comment_start(s: &str) -> Option<usize> {
    s.as_bytes()
        .windows(2)
        .position(|w| (w[0] == b' ' || w[0] == b'\t') && w[1] == b'#')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(fm: &str) -> Result<Option<String>, String> {
        fields(fm).map(|f| f.description)
    }

    fn ok(s: &str) -> Result<Option<String>, String> {
        Ok(Some(s.to_string()))
    }

    // Observed with Codex 0.169.0: dates, numbers and YAML 1.1 words keep
    // their text; escapes, anchors and tags are YAML's.
    #[test]
    fn values_are_the_text_as_written() {
        for v in [
            "2024-06-19",
            "16832",
            "True",
            "off",
            "0x1F",
            "1_000",
            ".inf",
            "012",
            "12:30:45",
        ] {
            assert_eq!(desc(&format!("description: {v}")), ok(v), "{v}");
        }
        assert_eq!(desc("description: \"a\\x41\""), ok("aA"));
        assert_eq!(desc("description: 'it''s'"), ok("it's"));
        assert_eq!(desc("description: !!str 12"), ok("12"));
        assert_eq!(desc("description: &x anchor"), ok("anchor"));
        assert_eq!(desc("other: &a x\ndescription: *a"), ok("x"));
        assert_eq!(desc("description: a #c"), ok("a"));
    }

    // Observed with Codex 0.169.0: null, empty and lists are refused (as a
    // missing description later); a repeated known key refuses the file,
    // a repeated unknown one does not.
    #[test]
    fn null_is_none_and_lists_and_repeats_are_errors() {
        for v in ["~", "null", "NULL", "Null", ""] {
            assert_eq!(desc(&format!("description: {v}")), Ok(None), "{v}");
        }
        assert_eq!(desc("description: ''"), ok(""));
        for fm in [
            "description: [a, b]",
            "description: []",
            "description: {a}",
            "description:\n  a: b",
            "description: - a",
            "description: *undefined",
            "description: d\ndescription: e",
            "name: a\nname: b\ndescription: d",
            "description: x\nmetadata: 1\nmetadata: 2",
            "description: x\nmetadata:\n  short-description: a\n  short-description: b",
        ] {
            assert!(desc(fm).is_err(), "{fm}");
        }
        assert_eq!(desc("description: x\nfoo: 1\nfoo: 2"), ok("x"));
        assert_eq!(
            desc("description: x\nmetadata:\n  a: 1\n  a: 2"),
            ok("x"),
            "a repeated key Codex skips"
        );
    }

    // Observed with Codex 0.169.0: the second read quotes values holding
    // `: ` and values starting with `[`, `{`, `@` or a backtick that are no
    // YAML alone.
    #[test]
    fn a_failed_read_is_retried_with_values_quoted() {
        assert_eq!(desc("description: has: colon"), ok("has: colon"));
        assert_eq!(desc("description: {a: 1}"), ok("{a: 1}"));
        assert_eq!(desc("description: a: b #c"), ok("a: b"));
        assert_eq!(desc("description: [a"), ok("[a"));
        assert_eq!(desc("description: [a] b"), ok("[a] b"));
        assert_eq!(desc("description: @x"), ok("@x"));
        assert_eq!(desc("description: x\nfoo: [1"), ok("x"));
        assert_eq!(desc("description: ok\nmetadata:\n  x: y: z"), ok("ok"));
        assert_eq!(desc("description: it's: \"x\" \\n"), ok("it's: \"x\" \\n"));
        for fm in [
            "description: [a]\nfoo: [1",
            "description: %x",
            "description: 'a' b",
            "description: \"a\" b",
            "description: ]a",
            "description: a: b\n  c",
            "description: x\nfoo: - a",
            "description: a:",
        ] {
            assert!(desc(fm).is_err(), "{fm}");
        }
    }
}
