//! Splitting a Markdown file into frontmatter and body exactly as CAO does
//! (python-frontmatter 1.x over a file read in Python text mode), keeping
//! enough bookkeeping to map positions back to the raw bytes on disk.

use std::ops::Range;
use std::rc::Rc;

use crate::core::parse::pyjson::Json;
use crate::core::parse::yaml::{self, Node, Style, Value};
use crate::core::text::{py_isspace, py_strip};

/// A file's text as Python's `read_text()` sees it: `\r\n` and lone `\r`
/// become `\n`. Remembers where carriage returns were removed so an edit
/// made on this text can be applied to the raw bytes.
#[derive(Clone, Debug)]
pub struct Normalized {
    pub text: String,
    /// Positions in `text` (each a `\n`) that were `\r\n` in the raw file.
    crlf_at: Vec<usize>,
}

impl Normalized {
    pub fn new(raw: &str) -> Self {
        if !raw.contains('\r') {
            return Normalized {
                text: raw.to_string(),
                crlf_at: Vec::new(),
            };
        }
        let mut text = String::with_capacity(raw.len());
        let mut crlf_at = Vec::new();
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\r' {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                    crlf_at.push(text.len());
                }
                text.push('\n');
            } else {
                text.push(c);
            }
        }
        Normalized { text, crlf_at }
    }

    /// The raw byte offset of a position in the normalized text.
    pub fn raw_offset(&self, pos: usize) -> usize {
        pos + self.crlf_at.partition_point(|&q| q < pos)
    }

    /// The newline the file mostly uses, for inserted lines.
    pub fn newline(&self) -> &'static str {
        if self.crlf_at.is_empty() {
            "\n"
        } else {
            "\r\n"
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// No frontmatter was recognised (or it was never closed).
    None,
    Yaml,
    Json,
}

/// The result of reading a file's frontmatter the CAO way.
#[derive(Clone, Debug)]
pub struct Frontmatter {
    pub format: Format,
    /// The parsed document root (any kind), `None` when empty or absent.
    pub root: Option<Rc<Node>>,
    /// The stripped body (CAO's `content.strip()`).
    pub body: String,
    /// The body's length in bytes, known even when `body` was not kept.
    pub body_len: usize,
    /// Where the frontmatter text sits in the normalized text (YAML only:
    /// node spans are relative to its start).
    pub fm_range: Range<usize>,
    /// True when the file opens a fence but never closes it.
    pub unterminated: bool,
}

impl Frontmatter {
    /// The metadata mapping, or `None` when the frontmatter is not a mapping
    /// (CAO then sees empty metadata).
    pub fn metadata(&self) -> Option<&Rc<Node>> {
        self.root.as_ref().filter(|r| r.is_map())
    }

    /// The value of a metadata key (last duplicate wins).
    pub fn get(&self, key: &str) -> Option<&Rc<Node>> {
        self.metadata().and_then(|m| m.get(key))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub format: Format,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.format == Format::Json {
            "JSON"
        } else {
            "YAML"
        };
        write!(f, "frontmatter {what} does not parse: {}", self.message)
    }
}

/// Parses normalized text the way `frontmatter.loads` does.
pub fn parse(norm: &str) -> Result<Frontmatter, ParseError> {
    parse_with(norm, true)
}

/// Like [`parse`] but leaves `body` empty: listing a large store only
/// needs the metadata, and copying every body would double the work.
pub fn parse_head(norm: &str) -> Result<Frontmatter, ParseError> {
    parse_with(norm, false)
}

/// The length in bytes of the frontmatter text [`parse`] would read,
/// found by the fence scan alone (nothing parsed); 0 when there is none.
pub fn frontmatter_len(norm: &str) -> usize {
    let text = py_strip(norm);
    let fences = if yaml_fence_at(text, 0).is_some() {
        find_fences(text, yaml_fence_at)
    } else if json_fence_at(text, 0).is_some() {
        find_fences(text, json_fence_at)
    } else {
        None
    };
    fences.map_or(0, |(first, second)| second.start - first.end)
}

fn parse_with(norm: &str, keep_body: bool) -> Result<Frontmatter, ParseError> {
    let lead = norm.len() - norm.trim_start_matches(py_isspace).len();
    let text = py_strip(norm);
    let (format, fences) = if yaml_fence_at(text, 0).is_some() {
        (Format::Yaml, find_fences(text, yaml_fence_at))
    } else if json_fence_at(text, 0).is_some() {
        (Format::Json, find_fences(text, json_fence_at))
    } else {
        return Ok(no_frontmatter(text, false, keep_body));
    };
    let Some((first, second)) = fences else {
        // python-frontmatter cannot split and silently keeps the whole text.
        return Ok(no_frontmatter(text, true, keep_body));
    };
    let fm = &text[first.end..second.start];
    let body_text = py_strip(&text[second.end..]);
    let body_len = body_text.len();
    let body = if keep_body {
        body_text.to_string()
    } else {
        String::new()
    };
    let root = match format {
        Format::Json => Some(Rc::new(json_to_node(&format!("{{{fm}}}"))?)),
        _ => yaml::load(fm).map_err(|e| ParseError {
            format,
            message: e.to_string(),
        })?,
    };
    if let Some(Value::Map(pairs)) = root.as_ref().map(|r| &r.value) {
        check_keys(pairs, format)?;
    }
    Ok(Frontmatter {
        format,
        root,
        body,
        body_len,
        fm_range: lead + first.end..lead + second.start,
        unterminated: false,
    })
}

/// python-frontmatter passes the metadata as keyword arguments
/// (`Post(content, handler, **metadata)`), so a key that is not a string,
/// or is `content` or `handler`, makes CAO fail to load the file.
fn check_keys(pairs: &[(Rc<Node>, Rc<Node>)], format: Format) -> Result<(), ParseError> {
    for (key, _) in pairs {
        let message = match &key.value {
            Value::Str(k) if k == "content" || k == "handler" => format!(
                "the key `{k}` clashes with python-frontmatter's own argument, so CAO cannot load the file: rename it"
            ),
            Value::Str(_) => continue,
            other => format!(
                "a frontmatter key is {}, not a string, so CAO cannot load the file: quote the key",
                other.type_name()
            ),
        };
        return Err(ParseError { format, message });
    }
    Ok(())
}

fn no_frontmatter(text: &str, unterminated: bool, keep_body: bool) -> Frontmatter {
    Frontmatter {
        format: Format::None,
        root: None,
        body: if keep_body {
            text.to_string()
        } else {
            String::new()
        },
        body_len: text.len(),
        fm_range: 0..0,
        unterminated,
    }
}

/// The first two fence matches, as `re.split(pattern, text, 2)` finds them
/// (the first one is known to sit at offset 0).
fn find_fences(
    text: &str,
    fence_at: fn(&str, usize) -> Option<usize>,
) -> Option<(Range<usize>, Range<usize>)> {
    let first_end = fence_at(text, 0)?;
    let mut pos = first_end;
    loop {
        let at_line_start = pos == 0 || text.as_bytes()[pos - 1] == b'\n';
        if at_line_start && let Some(end) = fence_at(text, pos) {
            return Some((0..first_end, pos..end));
        }
        pos += text[pos..].find('\n')? + 1;
    }
}

/// `^-{3,}\s*$` (MULTILINE) at `pos`: the end of the match, if any. `\s*` is
/// greedy and may run over newlines; `$` holds before a `\n` or at the end.
fn yaml_fence_at(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    let dashes = rest.len() - rest.trim_start_matches('-').len();
    if dashes < 3 {
        return None;
    }
    let after = pos + dashes;
    let ws_len = text[after..].len() - text[after..].trim_start_matches(py_isspace).len();
    let run_end = after + ws_len;
    if run_end == text.len() {
        return Some(run_end);
    }
    text[after..run_end].rfind('\n').map(|i| after + i)
}

/// `^(?:{|})$` (MULTILINE) at `pos`.
fn json_fence_at(text: &str, pos: usize) -> Option<usize> {
    let b = text.as_bytes();
    let brace = matches!(b.get(pos), Some(b'{' | b'}'));
    let eol = matches!(b.get(pos + 1), None | Some(b'\n'));
    (brace && eol).then_some(pos + 1)
}

/// Python's `json.loads` into our node tree (no spans: JSON frontmatter is
/// read, never edited).
fn json_to_node(src: &str) -> Result<Node, ParseError> {
    let value = crate::core::parse::pyjson::parse(src).map_err(|message| ParseError {
        format: Format::Json,
        message,
    })?;
    Ok(from_json(&value))
}

fn from_json(v: &Json) -> Node {
    use Json as J;
    let (value, style) = match v {
        J::Null => (Value::Null, Style::Plain),
        J::Bool(b) => (Value::Bool(*b), Style::Plain),
        J::Int(i) => (Value::Int(i.unwrap_or(i128::MAX)), Style::Plain),
        J::Float(f) => (Value::Float(*f), Style::Plain),
        J::Str(s) => (Value::Str(s.clone()), Style::DoubleQuoted),
        J::Array(a) => (
            Value::Seq(a.iter().map(|x| Rc::new(from_json(x))).collect()),
            Style::FlowSeq,
        ),
        J::Object(o) => (
            Value::Map(
                o.iter()
                    .map(|(k, x)| {
                        let key = from_json(&J::Str(k.clone()));
                        (Rc::new(key), Rc::new(from_json(x)))
                    })
                    .collect(),
            ),
            Style::FlowMap,
        ),
    };
    Node {
        value,
        style,
        span: 0..0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(src: &str) -> Frontmatter {
        parse(&Normalized::new(src).text).expect("parses")
    }

    fn name(src: &str) -> Option<String> {
        fm(src)
            .get("name")
            .and_then(|n| n.value.as_str().map(String::from))
    }

    #[test]
    fn recognises_cao_fences() {
        assert_eq!(name("---\nname: a\n---\nbody"), Some("a".into()));
        assert_eq!(name("\n\n  ---\nname: a\n---\n"), Some("a".into()));
        assert_eq!(name("-----   \nname: a\n---- \nbody"), Some("a".into()));
        assert_eq!(name("---\r\nname: a\r\n---\r\nbody"), Some("a".into()));
        assert_eq!(name("---\rname: a\r---\rbody"), Some("a".into()));
        assert_eq!(
            name("--- x\nname: a\n---\n"),
            None,
            "a fence line holds only dashes"
        );
    }

    #[test]
    fn bom_and_unterminated_mean_no_frontmatter() {
        assert_eq!(name("\u{feff}---\nname: a\n---\n"), None);
        let open = fm("---\nname: a\nbody");
        assert!(open.unterminated && open.root.is_none());
        assert_eq!(open.body, "---\nname: a\nbody");
    }

    #[test]
    fn body_is_stripped_and_blank_lines_after_fence_are_eaten() {
        let f = fm("---\n\n\nname: a\n---\n\n  # Title\n\n");
        assert_eq!(f.body, "# Title");
        assert_eq!(f.get("name").unwrap().value.as_str(), Some("a"));
    }

    #[test]
    fn json_frontmatter() {
        let f = fm("{\n\"name\": \"j\", \"description\": \"d\"\n}\nbody");
        assert_eq!(f.format, Format::Json);
        assert_eq!(f.get("name").unwrap().value.as_str(), Some("j"));
        assert_eq!(f.body, "body");
        assert!(parse("{\nnot json\n}\n").is_err());
    }

    #[test]
    fn raw_offsets_skip_removed_carriage_returns() {
        let n = Normalized::new("a\r\nb\r\nc");
        assert_eq!(n.text, "a\nb\nc");
        assert_eq!(n.raw_offset(1), 1);
        assert_eq!(n.raw_offset(2), 3);
        assert_eq!(n.raw_offset(4), 6);
        assert_eq!(n.newline(), "\r\n");
    }

    #[test]
    fn frontmatter_range_points_into_the_normalized_text() {
        let text = "  ---\nname: a\n---\n";
        let f = fm(text);
        assert_eq!(&text[f.fm_range.clone()], "\nname: a\n");
    }
}
