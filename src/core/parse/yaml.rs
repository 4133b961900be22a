//! YAML read the way CAO reads it: PyYAML's `SafeLoader` (YAML 1.1 implicit
//! typing of plain scalars, last duplicate key wins, anchors, merge keys),
//! built from saphyr-parser events so that every node keeps its byte span
//! and style for the byte-preserving editor.
//!
//! Construction errors PyYAML would raise anywhere in the document (an
//! invalid date, `0x_`, an unknown tag, an unhashable key) fail the whole
//! load, as they do in CAO.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;
use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

use crate::core::parse::position::CharToByte;
pub use crate::core::parse::position::YamlError;

/// How a node was written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
    BlockSeq,
    FlowSeq,
    BlockMap,
    FlowMap,
}

/// A mapping's entries, in source order.
pub type Pairs = Vec<(Rc<Node>, Rc<Node>)>;

/// A constructed value, with Python's types in mind.
#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Timestamp(String),
    Seq(Vec<Rc<Node>>),
    Map(Vec<(Rc<Node>, Rc<Node>)>),
    /// `!!omap` / `!!pairs`: a list of (key, value) tuples in Python.
    Pairs(Vec<(Rc<Node>, Rc<Node>)>),
}

#[derive(Clone, Debug)]
pub struct Node {
    pub value: Value,
    pub style: Style,
    /// Byte range in the parsed text.
    pub span: Range<usize>,
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// How Python would name this value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Str(_) => "a string",
            Value::Bytes(_) => "binary data",
            Value::Timestamp(_) => "a date",
            Value::Seq(_) | Value::Pairs(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

impl Node {
    /// The value of the last entry whose key is the string `key` (PyYAML:
    /// the last duplicate wins).
    pub fn get(&self, key: &str) -> Option<&Rc<Node>> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The last (key, value) entry whose key is the string `key`.
    pub fn entry(&self, key: &str) -> Option<(&Rc<Node>, &Rc<Node>)> {
        match &self.value {
            Value::Map(pairs) => pairs
                .iter()
                .rev()
                .find(|(k, _)| k.value.as_str() == Some(key))
                .map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self.value, Value::Map(_))
    }
}

/// Parses one YAML document. `Ok(None)` for an empty document.
/// Values, styles and spans come from libyaml's events, as CAO reads them;
/// a span can differ from the source's only where saphyr would read the text
/// differently, which is why the editor uses [`load_with_spans`] instead.
pub fn load(text: &str) -> Result<Option<Rc<Node>>, YamlError> {
    load_libyaml(text)
}

fn load_libyaml(text: &str) -> Result<Option<Rc<Node>>, YamlError> {
    let events = match crate::core::parse::libyaml::events(text) {
        Ok(events) => events,
        Err(r) if r.precise => return Err(r.error),
        Err(r) => return Err(load_saphyr(text).err().unwrap_or(r.error)),
    };
    Builder::new(text).run_events(events.into_iter().map(Ok))
}

/// The document, and whether its spans index `text` exactly (the editor
/// needs that). libyaml, which CAO runs, decides what parses and what the
/// values are; saphyr's tree is kept when it agrees, for its exact spans.
pub fn load_with_spans(text: &str) -> Result<(Option<Rc<Node>>, bool), YamlError> {
    let cao = load_libyaml(text)?;
    match load_saphyr(text) {
        Ok(root) if same_tree(root.as_deref(), cao.as_deref()) => Ok((root, true)),
        _ => Ok((cao, false)),
    }
}

/// Same values and shape (spans and styles aside: saphyr places a
/// collection after its tag and anchor, libyaml at them); NaN equals NaN.
fn same_tree(a: Option<&Node>, b: Option<&Node>) -> bool {
    let (a, b) = match (a, b) {
        (None, None) => return true,
        (Some(a), Some(b)) => (a, b),
        _ => return false,
    };
    let nodes = |x: &[Rc<Node>], y: &[Rc<Node>]| {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_tree(Some(p), Some(q)))
    };
    let pairs = |x: &Pairs, y: &Pairs| {
        x.len() == y.len()
            && x.iter().zip(y).all(|((k1, v1), (k2, v2))| {
                same_tree(Some(k1), Some(k2)) && same_tree(Some(v1), Some(v2))
            })
    };
    match (&a.value, &b.value) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) | (Value::Timestamp(x), Value::Timestamp(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Seq(x), Value::Seq(y)) => nodes(x, y),
        (Value::Map(x), Value::Map(y)) | (Value::Pairs(x), Value::Pairs(y)) => pairs(x, y),
        _ => false,
    }
}

fn load_saphyr(text: &str) -> Result<Option<Rc<Node>>, YamlError> {
    check_printable(text)?;
    if has_yaml11_breaks(text) {
        // YAML 1.1 (libyaml) breaks lines at NEL, LS and PS; saphyr follows
        // YAML 1.2, which does not. Spans then no longer match the source,
        // which is why the editor refuses such files.
        let replaced: String = text
            .chars()
            .map(|c| if is_yaml11_break(c) { '\n' } else { c })
            .collect();
        return parse_lenient_quotes(&replaced);
    }
    parse_lenient_quotes(text)
}

/// saphyr's complaint about `key:<TAB>value`, which libyaml accepts.
const TAB_AFTER_COLON: &str = "':' must be followed by a valid YAML whitespace";

/// Where saphyr is stricter than libyaml, parse again on that error only:
/// a quoted scalar whose continuation lines sit at column 0 gets them
/// indented (folding drops that indentation, so values are unchanged); a
/// tab separating `:` from a plain value becomes a space.
fn parse_lenient_quotes(text: &str) -> Result<Option<Rc<Node>>, YamlError> {
    parse_lenient(text, false)
}

/// Each fix is applied at most once, then the text is parsed again.
fn parse_lenient(text: &str, quotes_fixed: bool) -> Result<Option<Rc<Node>>, YamlError> {
    match Builder::new(text).run() {
        Err(e) if !quotes_fixed && e.message.contains("indentation in quoted scalar") => {
            parse_lenient(&indent_quoted_continuations(text), true)
        }
        Err(e) if e.message.contains(TAB_AFTER_COLON) => match space_tab_separators(text) {
            Some(fixed) if fixed != text => parse_lenient(&fixed, quotes_fixed),
            _ => Err(e),
        },
        other => other,
    }
}

/// The text with each tab that saphyr refuses right after a `:` turned into
/// a space. Same length, so every span still indexes the source.
fn space_tab_separators(text: &str) -> Option<String> {
    let mut fixed = text.to_string();
    for _ in 0..256 {
        let Some((message, at)) = first_scan_error(&fixed) else {
            return Some(fixed);
        };
        if !message.contains(TAB_AFTER_COLON) {
            return Some(fixed);
        }
        let byte = fixed.char_indices().nth(at).map_or(fixed.len(), |(i, _)| i);
        let before = fixed[..byte].trim_end_matches('\t');
        if !before.ends_with(':') || before.len() == byte {
            return None;
        }
        let tab = before.len();
        fixed.replace_range(tab..tab + 1, " ");
    }
    None
}

/// saphyr's first error as (message, char index).
fn first_scan_error(text: &str) -> Option<(String, usize)> {
    Parser::new_from_str(text).find_map(|item| {
        item.err()
            .map(|e| (e.info().to_string(), e.marker().index()))
    })
}

fn indent_quoted_continuations(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut quote: Option<(char, usize)> = None;
    let mut chars = text.chars().peekable();
    let (mut prev, mut line_indent, mut at_indent) = ('\n', 0usize, true);
    while let Some(c) = chars.next() {
        out.push(c);
        match quote {
            Some((q, indent)) => match c {
                '\n' => out.push_str(&" ".repeat(indent + 1)),
                '\\' if q == '"' => out.extend(chars.next()),
                '\'' if q == '\'' && chars.peek() == Some(&'\'') => out.extend(chars.next()),
                c if c == q => quote = None,
                _ => {}
            },
            None => match c {
                '\n' => (line_indent, at_indent) = (0, true),
                ' ' if at_indent => line_indent += 1,
                '#' if prev.is_whitespace() => {
                    while chars.peek().is_some_and(|&n| n != '\n') {
                        out.extend(chars.next());
                    }
                }
                '\'' | '"' if " \t\n[{,".contains(prev) => quote = Some((c, line_indent)),
                _ => at_indent = false,
            },
        }
        if c != ' ' {
            at_indent = at_indent && c == '\n';
        }
        prev = c;
    }
    out
}

/// NEL is a line break to libyaml and folds like one. (LS and PS are line
/// breaks too, but libyaml keeps them in quoted text, as saphyr does; only a
/// plain scalar holding one is refused, in `Builder::scalar`.)
fn is_yaml11_break(c: char) -> bool {
    c == '\u{85}'
}

fn is_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// True when the text holds NEL, which is rewritten before parsing.
pub fn has_yaml11_breaks(text: &str) -> bool {
    text.contains(is_yaml11_break)
}

/// libyaml's reader refuses control characters outside tab and newlines
/// (and other non-printable code points) anywhere in the stream.
fn check_printable(text: &str) -> Result<(), YamlError> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c >= '\u{10000}'
    };
    match text.char_indices().find(|(_, c)| !printable(*c)) {
        None => Ok(()),
        Some((i, c)) => Err(YamlError {
            message: format!(
                "unacceptable character #x{:04x}: control characters are not allowed",
                c as u32
            ),
            line: Some(text[..i].matches('\n').count() + 1),
        }),
    }
}

enum Frame {
    Seq {
        anchor: usize,
        tag: Option<Tag>,
        start: usize,
        items: Vec<Rc<Node>>,
    },
    Map {
        anchor: usize,
        tag: Option<Tag>,
        start: usize,
        pairs: Vec<(Rc<Node>, Rc<Node>)>,
        key: Option<Rc<Node>>,
    },
}

struct Builder<'a> {
    text: &'a str,
    chars: CharToByte,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Rc<Node>>,
    anchor_names: std::collections::HashSet<String>,
    root: Option<Rc<Node>>,
    documents: usize,
    /// Aliases resolved plus entries copied by merges, bounded by
    /// [`MAX_WORK`]: nested `<<: [*a, *a]` grows exponentially.
    work: usize,
}

/// Far beyond any hand-written frontmatter, far below a stall.
pub const MAX_WORK: usize = 100_000;

fn spend(work: &mut usize, amount: usize, span: &Span) -> Result<(), YamlError> {
    *work = work.saturating_add(amount);
    if *work > MAX_WORK {
        return Err(err(
            format!(
                "aliases and merge keys (<<) expand to over {MAX_WORK} entries: write the values out instead"
            ),
            Some(span),
        ));
    }
    Ok(())
}

fn err(message: impl Into<String>, span: Option<&Span>) -> YamlError {
    YamlError {
        message: message.into(),
        line: span.map(|s| s.start.line()),
    }
}

impl<'a> Builder<'a> {
    fn new(text: &'a str) -> Self {
        Builder {
            text,
            chars: CharToByte::new(text),
            stack: Vec::new(),
            anchors: HashMap::new(),
            anchor_names: std::collections::HashSet::new(),
            root: None,
            documents: 0,
            work: 0,
        }
    }

    fn run(self) -> Result<Option<Rc<Node>>, YamlError> {
        let events = Parser::new_from_str(self.text).map(|item| {
            item.map_err(|e| YamlError {
                message: e.info().to_string(),
                line: Some(e.marker().line()),
            })
        });
        self.run_events(events)
    }

    fn run_events<'e>(
        mut self,
        events: impl Iterator<Item = Result<(Event<'e>, Span), YamlError>>,
    ) -> Result<Option<Rc<Node>>, YamlError> {
        for item in events {
            let (event, span) = item?;
            self.event(event, &span)?;
        }
        Ok(self.root)
    }

    fn event(&mut self, event: Event<'_>, span: &Span) -> Result<(), YamlError> {
        match event {
            Event::DocumentStart(explicit) => {
                let start = self.chars.byte(span.start.index());
                if !explicit && follows_document_end(&self.text[..start]) {
                    return Err(err("did not find expected <document start>", Some(span)));
                }
                self.documents += 1;
                if self.documents > 1 {
                    return Err(err(
                        "expected a single document in the stream, found another",
                        Some(span),
                    ));
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let node = Rc::new(self.scalar(&value, style, tag.as_deref(), span)?);
                self.finish(node, anchor, span)?;
            }
            Event::SequenceStart(anchor, tag) => self.stack.push(Frame::Seq {
                anchor,
                tag: tag.map(|t| t.into_owned()),
                start: self.chars.byte(span.start.index()),
                items: Vec::new(),
            }),
            Event::MappingStart(anchor, tag) => self.stack.push(Frame::Map {
                anchor,
                tag: tag.map(|t| t.into_owned()),
                start: self.chars.byte(span.start.index()),
                pairs: Vec::new(),
                key: None,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                let end = self.chars.byte(span.end.index());
                let frame = self
                    .stack
                    .pop()
                    .ok_or_else(|| err("unbalanced", Some(span)))?;
                let (node, anchor) = self.collection(frame, end, span)?;
                self.finish(Rc::new(node), anchor, span)?;
            }
            Event::Alias(id) => {
                let node = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| err("found undefined alias", Some(span)))?;
                spend(&mut self.work, 1, span)?;
                self.push(node, span)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, node: Rc<Node>, anchor: usize, span: &Span) -> Result<(), YamlError> {
        if anchor != 0 {
            if let Some(name) = self.anchor_name(node.span.start)
                && !self.anchor_names.insert(name.clone())
            {
                return Err(err(format!("found duplicate anchor '{name}'"), Some(span)));
            }
            self.anchors.insert(anchor, node.clone());
        }
        if self.is_missing_key(&node) {
            return Err(err(
                "while parsing a block mapping did not find expected key",
                Some(span),
            ));
        }
        self.push(node, span)
    }

    fn in_flow(&self) -> bool {
        self.stack.iter().any(|f| {
            let start = match f {
                Frame::Seq { start, .. } | Frame::Map { start, .. } => *start,
            };
            self.content(start).starts_with(['[', '{'])
        })
    }

    /// The text of a node from where it starts, past its tag and anchor.
    fn content(&self, start: usize) -> &str {
        let mut rest = &self.text[start..];
        loop {
            let skip = match rest.chars().next() {
                Some('!') => tag_length(rest),
                Some('&') => {
                    let name = rest.find(char::is_whitespace).unwrap_or(rest.len());
                    name + rest[name..].len() - rest[name..].trim_start().len()
                }
                _ => return rest,
            };
            rest = &rest[skip..];
        }
    }

    /// The name of the anchor written before a node: saphyr numbers anchors
    /// without telling their names, and PyYAML refuses a name used twice.
    fn anchor_name(&self, node_start: usize) -> Option<String> {
        // A scalar's span starts at its properties (a tag may come before the
        // anchor); a collection's starts after them.
        let start = node_start + tag_length(&self.text[node_start..]);
        let amp = if self.text[start..].starts_with('&') {
            start
        } else {
            self.text[..node_start].rfind('&')?
        };
        let name: String = self.text[amp + 1..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
            .collect();
        (!name.is_empty()).then_some(name)
    }

    /// `: value` with nothing before the colon: saphyr (YAML 1.2) reads an
    /// empty key, libyaml refuses it.
    fn is_missing_key(&self, node: &Node) -> bool {
        let block_map_key = matches!(
            self.stack.last(),
            Some(Frame::Map { key: None, start, .. }) if !self.content(*start).starts_with('{')
        );
        block_map_key
            && node.style == Style::Plain
            && matches!(node.value, Value::Null)
            && node.span.is_empty()
            && self.text[node.span.start..]
                .trim_start_matches([' ', '\t'])
                .starts_with(':')
    }

    /// Places a finished node. The merge (`<<`) and value (`=`) marks are
    /// only meaningful as mapping keys; anywhere else PyYAML has no
    /// constructor for them.
    fn push(&mut self, node: Rc<Node>, span: &Span) -> Result<(), YamlError> {
        let mark = match node.value.as_str() {
            Some(MERGE_MARK) => Some("merge"),
            Some(VALUE_MARK) => Some("value"),
            _ => None,
        };
        let in_key_position = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
        if let Some(tag) = mark.filter(|_| !in_key_position) {
            return Err(err(
                format!("could not determine a constructor for the tag 'tag:yaml.org,2002:{tag}'"),
                Some(span),
            ));
        }
        let node = if mark == Some("value") {
            Rc::new(Node {
                value: Value::Str("=".into()),
                ..(*node).clone()
            })
        } else {
            node
        };
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { pairs, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => pairs.push((k, node)),
            },
        }
        Ok(())
    }

    fn scalar(
        &self,
        value: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        span: &Span,
    ) -> Result<Node, YamlError> {
        let node_style = match style {
            ScalarStyle::Plain => Style::Plain,
            ScalarStyle::SingleQuoted => Style::SingleQuoted,
            ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
            ScalarStyle::Literal => Style::Literal,
            ScalarStyle::Folded => Style::Folded,
        };
        let tag_name = tag.map(tag_name);
        // libyaml treats the non-specific `!` tag like no tag at all, for
        // quoted scalars too (`! "12"` is the integer 12).
        let implicit = match tag_name.as_deref() {
            None => node_style == Style::Plain,
            Some("!") => true,
            Some(_) => false,
        };
        let kind = match tag_name.as_deref() {
            Some(t) if t != "!" => t.to_string(),
            _ if implicit => resolve_plain(value).to_string(),
            _ => "str".to_string(),
        };
        let start = self.chars.byte(span.start.index());
        if node_style == Style::Plain
            && self.in_flow()
            && self.text[start..].starts_with(['?', ':'])
        {
            // Inside [] or {} libyaml always reads these as indicators.
            return Err(err(
                "while parsing a flow node did not find expected node content",
                Some(span),
            ));
        }
        if node_style == Style::Plain && value.contains(is_separator) {
            return Err(err(
                "while scanning a plain scalar found a line separator (U+2028/U+2029)",
                Some(span),
            ));
        }
        let value = construct_scalar(&kind, value).map_err(|m| err(m, Some(span)))?;
        Ok(Node {
            value,
            style: node_style,
            span: self.chars.byte(span.start.index())..self.chars.byte(span.end.index()),
        })
    }

    fn collection(
        &mut self,
        frame: Frame,
        end: usize,
        span: &Span,
    ) -> Result<(Node, usize), YamlError> {
        match frame {
            Frame::Seq {
                anchor,
                tag,
                start,
                items,
            } => {
                let style = if self.content(start).starts_with('[') {
                    Style::FlowSeq
                } else {
                    Style::BlockSeq
                };
                let value = match tag.as_ref().map(tag_name).as_deref() {
                    None | Some("!") | Some("seq") => Value::Seq(items),
                    Some("omap") | Some("pairs") => Value::Pairs(pairs_of(&items, span)?),
                    Some(other) => return Err(unsupported_tag(other, "sequence", span)),
                };
                let span = start..end.max(start);
                Ok((Node { value, style, span }, anchor))
            }
            Frame::Map {
                anchor,
                tag,
                start,
                pairs,
                ..
            } => {
                let style = if self.content(start).starts_with('{') {
                    Style::FlowMap
                } else {
                    Style::BlockMap
                };
                let pairs = flatten_merges(pairs, span, &mut self.work)?;
                for (key, _) in &pairs {
                    if matches!(key.value, Value::Seq(_) | Value::Map(_)) {
                        return Err(err(
                            "while constructing a mapping found unhashable key",
                            Some(span),
                        ));
                    }
                }
                let value = match tag.as_ref().map(tag_name).as_deref() {
                    None | Some("!") | Some("map") => Value::Map(pairs),
                    // A set is a mapping of keys to nulls; a list is close enough.
                    Some("set") => Value::Seq(pairs.into_iter().map(|(k, _)| k).collect()),
                    Some(other) => return Err(unsupported_tag(other, "mapping", span)),
                };
                let span = start..end.max(start);
                Ok((Node { value, style, span }, anchor))
            }
        }
    }
}

/// The length of a tag property (`!!str `, `!<x> `) with the blanks after
/// it, at the start of `text`; 0 when there is none.
fn tag_length(text: &str) -> usize {
    if !text.starts_with('!') {
        return 0;
    }
    let tag = text.find(char::is_whitespace).unwrap_or(text.len());
    let rest = &text[tag..];
    tag + rest.len() - rest.trim_start().len()
}

/// libyaml wants `---` before any document that follows a `...` marker.
fn follows_document_end(before: &str) -> bool {
    before.lines().any(|l| {
        l.strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    })
}

fn unsupported_tag(tag: &str, kind: &str, span: &Span) -> YamlError {
    let known = ["str", "int", "float", "bool", "null", "timestamp", "binary"];
    if known.contains(&tag) {
        err(
            format!("expected a scalar node, but found {kind}"),
            Some(span),
        )
    } else {
        err(
            format!("could not determine a constructor for the tag '{tag}'"),
            Some(span),
        )
    }
}

/// `!!omap`/`!!pairs`: a sequence of one-pair mappings.
fn pairs_of(items: &[Rc<Node>], span: &Span) -> Result<Pairs, YamlError> {
    items
        .iter()
        .map(|item| match &item.value {
            Value::Map(p) if p.len() == 1 => Ok(p[0].clone()),
            _ => Err(err(
                "expected a mapping of length 1 in an ordered mapping",
                Some(span),
            )),
        })
        .collect()
}

/// PyYAML's `flatten_mapping`: `<<` merges mappings in, explicit keys win
/// (they come later, and the last duplicate wins).
fn flatten_merges(pairs: Pairs, span: &Span, work: &mut usize) -> Result<Pairs, YamlError> {
    if !pairs.iter().any(|(k, _)| is_merge_key(k)) {
        return Ok(pairs);
    }
    let mut merged = Vec::new();
    let mut own = Vec::new();
    for (key, value) in pairs {
        if !is_merge_key(&key) {
            own.push((key, value));
            continue;
        }
        match &value.value {
            Value::Map(p) => {
                spend(work, p.len(), span)?;
                merged.extend(p.iter().cloned());
            }
            Value::Seq(items) => {
                for item in items.iter().rev() {
                    match &item.value {
                        Value::Map(p) => {
                            spend(work, p.len(), span)?;
                            merged.extend(p.iter().cloned());
                        }
                        _ => {
                            return Err(err(
                                "while constructing a mapping expected a mapping for merging",
                                Some(span),
                            ));
                        }
                    }
                }
            }
            _ => {
                return Err(err(
                    "while constructing a mapping expected a mapping or list of mappings for merging",
                    Some(span),
                ));
            }
        }
    }
    merged.extend(own);
    Ok(merged)
}

fn is_merge_key(node: &Node) -> bool {
    matches!(&node.value, Value::Str(s) if s == MERGE_MARK)
}

/// The constructed stand-in for a plain `<<` key: never a real string, since
/// real strings cannot contain a NUL from YAML source.
const MERGE_MARK: &str = "\u{0}<<merge>>";
const VALUE_MARK: &str = "\u{0}=value=";

fn tag_name(tag: &Tag) -> String {
    if tag.handle == "tag:yaml.org,2002:" {
        tag.suffix.clone()
    } else if tag.handle == "!" && tag.suffix.is_empty() {
        "!".to_string()
    } else {
        format!("{}{}", tag.handle, tag.suffix)
    }
}

static BOOL_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")
        .expect("bool regex")
});
static INT_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
    )
    .expect("int regex")
});
static FLOAT_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
    )
    .expect("float regex")
});
static TIMESTAMP_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
    )
    .expect("timestamp resolver regex")
});
static TIMESTAMP_PARTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$",
    )
    .expect("timestamp parts regex")
});

/// PyYAML's implicit resolvers, keyed on the first character as PyYAML does.
pub fn resolve_plain(value: &str) -> &'static str {
    let first = value.chars().next();
    let is = |re: &Regex| re.is_match(value);
    match first {
        None => "null",
        Some('~') if value == "~" => "null",
        Some('y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O') if is(&BOOL_RE) => "bool",
        Some('n' | 'N') if matches!(value, "null" | "Null" | "NULL") => "null",
        Some('-' | '+' | '0'..='9' | '.') if is(&FLOAT_RE) => "float",
        Some('-' | '+' | '0'..='9') if is(&INT_RE) => "int",
        Some('0'..='9') if is(&TIMESTAMP_RE) => "timestamp",
        Some('<') if value == "<<" => "merge",
        Some('=') if value == "=" => "value",
        _ => "str",
    }
}

/// Builds the Python value for a scalar of the given tag, failing where
/// PyYAML's constructor raises.
fn construct_scalar(tag: &str, value: &str) -> Result<Value, String> {
    Ok(match tag {
        "str" => Value::Str(value.to_string()),
        "null" => Value::Null,
        "bool" => Value::Bool(match value.to_lowercase().as_str() {
            "yes" | "true" | "on" => true,
            "no" | "false" | "off" => false,
            _ => return Err(format!("'{value}' is not a boolean")),
        }),
        "int" => Value::Int(construct_int(value)?),
        "float" => Value::Float(construct_float(value)?),
        "timestamp" => Value::Timestamp(check_timestamp(value)?),
        "binary" => Value::Bytes(decode_base64(value)?),
        "merge" => Value::Str(MERGE_MARK.to_string()),
        "value" => Value::Str(VALUE_MARK.to_string()),
        other => {
            return Err(format!(
                "could not determine a constructor for the tag '{other}'"
            ));
        }
    })
}

fn split_sign(value: &str) -> (i128, &str) {
    match value.as_bytes().first() {
        Some(b'-') => (-1, &value[1..]),
        Some(b'+') => (1, &value[1..]),
        _ => (1, value),
    }
}

/// PyYAML's `construct_yaml_int`: `_` dropped, one sign, then a base picked
/// by prefix and the rest handed to Python's lenient `int()`.
fn construct_int(value: &str) -> Result<i128, String> {
    let cleaned = value.replace('_', "");
    let (sign, digits) = split_sign(&cleaned);
    let bad = || format!("invalid literal for int(): '{value}'");
    let parse = |s: &str, radix: u32| py_int(s, radix).ok_or_else(bad);
    let magnitude = if digits.is_empty() {
        return Err(bad());
    } else if digits == "0" {
        0
    } else if let Some(bin) = digits.strip_prefix("0b") {
        parse(bin, 2)?
    } else if let Some(hex) = digits.strip_prefix("0x") {
        parse(hex, 16)?
    } else if digits.starts_with('0') {
        parse(digits, 8)?
    } else if digits.contains(':') {
        let mut total: i128 = 0;
        for part in digits.split(':') {
            total = total.saturating_mul(60).saturating_add(parse(part, 10)?);
        }
        total
    } else {
        parse(digits, 10)?
    };
    Ok(sign.saturating_mul(magnitude))
}

/// Python's `int()` allows at most this many digits in a decimal string.
pub(crate) const PY_INT_MAX_STR_DIGITS: usize = 4300;

/// Python's `int(text, radix)`: blanks around, one sign, the radix's own
/// prefix (`0x` for 16...), any Unicode decimal digit, no leading zeros in
/// base 10. Past i128 the value saturates (Python's ints are unbounded).
fn py_int(text: &str, radix: u32) -> Option<i128> {
    let t = text.trim_matches(crate::core::text::py_isspace);
    let (sign, t) = split_sign(t);
    let prefix = match radix {
        2 => ["0b", "0B"],
        8 => ["0o", "0O"],
        16 => ["0x", "0X"],
        _ => ["", ""],
    };
    let t = prefix
        .iter()
        .filter(|p| !p.is_empty())
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    let digits: Vec<u32> = t
        .chars()
        .map(|c| decimal_value(c).or_else(|| c.is_ascii_hexdigit().then(|| c.to_digit(16))?))
        .collect::<Option<_>>()?;
    let too_long = radix == 10 && digits.len() > PY_INT_MAX_STR_DIGITS;
    let leading_zero = radix == 10 && digits.len() > 1 && digits[0] == 0;
    if digits.is_empty() || too_long || (leading_zero && digits.iter().any(|&d| d != 0)) {
        return None;
    }
    let mut total: i128 = 0;
    for d in digits {
        if d >= radix {
            return None;
        }
        total = total
            .saturating_mul(radix as i128)
            .saturating_add(d as i128);
    }
    Some(sign.saturating_mul(total))
}

/// The value of a Unicode decimal digit (category Nd), which Python's
/// `int()` reads like an ASCII one. Nd digits come in runs of ten, 0 to 9.
fn decimal_value(c: char) -> Option<u32> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let is_nd = |c: char| c.general_category() == GeneralCategory::DecimalNumber;
    if c.is_ascii_digit() {
        return c.to_digit(10);
    }
    if !is_nd(c) {
        return None;
    }
    let run = (1..)
        .map_while(|back| char::from_u32(c as u32 - back).filter(|&p| is_nd(p)))
        .count();
    Some(run as u32 % 10)
}

fn construct_float(value: &str) -> Result<f64, String> {
    let cleaned = value.replace('_', "").to_lowercase();
    let (sign, digits) = split_sign(&cleaned);
    let sign = sign as f64;
    let bad = || format!("could not convert string to float: '{value}'");
    if digits == ".inf" {
        return Ok(sign * f64::INFINITY);
    }
    if digits == ".nan" {
        return Ok(f64::NAN);
    }
    if digits.contains(':') {
        let mut total = 0.0;
        for part in digits.split(':') {
            total = total * 60.0 + part.parse::<f64>().map_err(|_| bad())?;
        }
        return Ok(sign * total);
    }
    python_float(digits).map(|f| sign * f).ok_or_else(bad)
}

/// Python's `float()` on an already sign-stripped string: decimal forms plus
/// inf/nan spellings; Rust's parser accepts a few extra forms we refuse.
fn python_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(crate::core::text::py_isspace);
    let ok = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        || matches!(t, "inf" | "infinity" | "nan");
    if !ok {
        return None;
    }
    t.parse::<f64>().ok()
}

fn check_timestamp(value: &str) -> Result<String, String> {
    let caps = TIMESTAMP_PARTS
        .captures(value)
        .ok_or_else(|| format!("'{value}' is not a timestamp"))?;
    let num = |i: usize| {
        caps.get(i)
            .map(|m| m.as_str().parse::<u32>().unwrap_or(u32::MAX))
    };
    let (year, month, day) = (
        num(1).unwrap_or(0),
        num(2).unwrap_or(0),
        num(3).unwrap_or(0),
    );
    if year == 0 {
        return Err(format!("year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Err("month must be in 1..12".into());
    }
    if day == 0 || day > days_in_month(year, month) {
        return Err("day is out of range for month".into());
    }
    if let (Some(h), Some(m), Some(s)) = (num(4), num(5), num(6))
        && (h > 23 || m > 59 || s > 59)
    {
        return Err("time is out of range".into());
    }
    if let (Some(h), m) = (num(10), num(11).unwrap_or(0))
        && h * 60 + m >= 24 * 60
    {
        return Err("offset must be a timedelta strictly between -24h and 24h".into());
    }
    Ok(value.to_string())
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `base64.decodebytes` (binascii's lenient mode): characters outside the
/// alphabet are skipped and a complete pad ends the data, whatever follows.
fn decode_base64(value: &str) -> Result<Vec<u8>, String> {
    if !value.is_ascii() {
        return Err("failed to convert base64 data into ascii".into());
    }
    let sextet = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut quad, mut pads, mut left) = (Vec::new(), 0u32, 0u32, 0u8);
    for b in value.bytes() {
        if b == b'=' {
            pads += 1;
            if quad >= 2 && quad + pads >= 4 {
                return Ok(out);
            }
            continue;
        }
        let Some(v) = sextet(b) else { continue };
        pads = 0;
        match quad {
            0 => {}
            1 => out.push((left << 2) | (v >> 4)),
            2 => out.push((left << 4) | (v >> 2)),
            _ => out.push((left << 6) | v),
        }
        left = v & [0x3f, 0x0f, 0x03, 0][quad as usize];
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Ok(out),
        1 => Err("failed to decode base64 data: Invalid base64-encoded string".into()),
        _ => Err("failed to decode base64 data: Incorrect padding".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(doc: &str, key: &str) -> Value {
        let root = load(doc).expect("parses").expect("a document");
        root.get(key).expect("key present").value.clone()
    }

    fn kind(doc: &str) -> &'static str {
        get(doc, "a").type_name()
    }

    #[test]
    fn yaml11_typing_of_plain_scalars() {
        for (src, want) in [
            ("a: yes", "a boolean"),
            ("a: No", "a boolean"),
            ("a: OFF", "a boolean"),
            ("a: yES", "a string"),
            ("a: y", "a string"),
            ("a: ~", "null"),
            ("a:", "null"),
            ("a: Null", "null"),
            ("a: nULL", "a string"),
            ("a: 1.5", "a float"),
            ("a: .5", "a float"),
            ("a: -.5", "a string"),
            ("a: 1e3", "a string"),
            ("a: 1.0e+3", "a float"),
            ("a: 1.e3", "a string"),
            ("a: 0x1F", "an integer"),
            ("a: 017", "an integer"),
            ("a: 09", "a string"),
            ("a: 0o17", "a string"),
            ("a: 1_000", "an integer"),
            ("a: 1:20", "an integer"),
            ("a: 1:20.5", "a float"),
            ("a: 2024-01-01", "a date"),
            ("a: 2024-01-01 10:00:00", "a date"),
            ("a: .inf", "a float"),
            ("a: .NaN", "a float"),
            ("a: ._", "a string"),
            ("a: '1.5'", "a string"),
            ("a: \"yes\"", "a string"),
            ("a: !!str 1.5", "a string"),
            ("a: ! 12", "an integer"),
            ("a: ! \"12\"", "an integer"),
            ("a: !!binary aGk=", "binary data"),
        ] {
            assert_eq!(kind(src), want, "{src}");
        }
    }

    #[test]
    fn values_match_python() {
        assert!(matches!(get("a: 1:20", "a"), Value::Int(80)));
        assert!(matches!(get("a: 190:20:30", "a"), Value::Int(685230)));
        assert!(matches!(get("a: -0x1F", "a"), Value::Int(-31)));
        assert!(matches!(get("a: 0_", "a"), Value::Int(0)));
        assert!(matches!(get("a: !!int '0x1f'", "a"), Value::Int(31)));
    }

    #[test]
    fn construction_errors_fail_the_load() {
        for src in [
            "a: =",
            "a: <<",
            "a: 0b_",
            "a: 0x_",
            "a: 2024-13-45",
            "a: 2023-02-29",
            "a: !foo x",
            "a: !!str [a]",
            "a: !!bool 'maybe'",
            "a: !!timestamp 2024",
            "[a]: 1",
            "a: 1\n---\nb: 2",
            "a: x\u{1}y",
            "a: x\u{7f}y",
            "a: x\u{85}y",
            ": novalue",
            "a: &x 1\nb: &x 2",
        ] {
            assert!(load(src).is_err(), "{src} should fail");
        }
    }

    #[test]
    fn yaml11_line_breaks_fold_in_quotes() {
        assert_eq!(get("a: 'foo\u{85}bar'", "a").as_str(), Some("foo bar"));
        assert_eq!(get("a: \"x\u{2028}y\"", "a").as_str(), Some("x\u{2028}y"));
        assert!(load("a: x\u{2029}y").is_err());
        assert!(load("...\nname: x").is_err());
        assert!(load("s: [a, ??]").is_err());
        assert!(load("s: ?? # block context is fine").is_ok());
        assert!(load("name: x\n...\n").is_ok());
        assert_eq!(
            get("k: 1\na: 'x\ny # not a comment'\n", "a").as_str(),
            Some("x y # not a comment")
        );
        assert_eq!(
            get("a: \"it's\n  \\\"q\\\"\"", "a").as_str(),
            Some("it's \"q\"")
        );
    }

    #[test]
    fn a_tab_after_the_colon_separates_as_in_libyaml() {
        assert_eq!(
            get("description:\tUse it\n", "description").as_str(),
            Some("Use it")
        );
        assert_eq!(get("a: 1\nb:\t\tx y\nc:\tz\n", "c").as_str(), Some("z"));
        let root = load("a:\tplain\nm: {k:\tv}\n").unwrap().unwrap();
        assert_eq!(root.get("a").unwrap().span, 3..8);
        assert!(matches!(&root.get("m").unwrap().value, Value::Map(p) if p.len() == 1));
        // with a quoted scalar continued at column 0 before it
        assert_eq!(get("a: \"x\ny\"\nb:\tz\n", "b").as_str(), Some("z"));
        // a tab that is part of a value is never touched
        assert_eq!(get("q: \"a:\tb\"\n", "q").as_str(), Some("a:\tb"));
    }

    #[test]
    fn tab_lines_are_read_as_libyaml_reads_them() {
        // a tab-indented comment or tab-only line after a plain value ends the
        // scalar with "found a tab character that violates indentation"
        for src in [
            "name: demo\n\t# comment\ndescription: x",
            "name: demo\ndescription: x\n\t# comment",
            "name: demo\n\t\ndescription: x",
            "name: \"demo\"\n\t# comment",
        ] {
            assert!(load(src).is_err(), "{src:?} should fail");
        }
        // tabs inside quoted continuations are folded away
        assert_eq!(get("a: \"x\n\ty\"", "a").as_str(), Some("x y"));
        assert_eq!(get("a: 'x\n\ty'", "a").as_str(), Some("x y"));
        assert_eq!(get("a:\n  b: x\n  c: y\n", "a").type_name(), "a mapping");
    }

    #[test]
    fn libyaml_scanner_quirks() {
        assert_eq!(get("a: \"x\"#c", "a").as_str(), Some("x"));
        assert_eq!(get("a: 'x'#c", "a").as_str(), Some("x"));
        assert!(matches!(get("m: {a: , b: 1}", "m"), Value::Map(p) if p.len() == 2));
        for src in ["m: [>]", "m: [|]", "m: {a: >}"] {
            assert!(load(src).is_err(), "{src:?} should fail");
        }
        assert_eq!(
            get("a: !<tag:yaml.org,2002:str> 5", "a").as_str(),
            Some("5")
        );
        assert!(load("a: !<!foo> 5").is_err());
        assert_eq!(get("a: x\u{feff}y", "a").as_str(), Some("x\u{feff}y"));
        assert_eq!(get("\u{feff}a: b", "a").as_str(), Some("b"));
        // a simple key is at most 1024 characters long in libyaml
        let long = "k".repeat(1030);
        assert!(load(&format!("m: {{{long}: v}}")).is_err());
        assert!(load(&format!("{long}: v")).is_err());
        assert!(load(&format!("m: {{{}: v}}", "k".repeat(1000))).is_ok());
    }

    #[test]
    fn ints_follow_python_int() {
        let int = |src: &str| match get(&format!("a: {src}"), "a") {
            Value::Int(i) => Some(i),
            _ => None,
        };
        let big = "9".repeat(60);
        assert_eq!(int(&big), Some(i128::MAX));
        assert_eq!(int(&format!("-{big}")), Some(-i128::MAX));
        assert_eq!(int(&format!("0x{big}")), Some(i128::MAX));
        assert_eq!(int(&"1".repeat(4300)), Some(i128::MAX));
        assert!(load(&format!("a: {}", "1".repeat(4301))).is_err());
        assert_eq!(int("!!int ' 12 '"), Some(12));
        assert_eq!(int("!!int '0o17'"), Some(15));
        assert_eq!(int("!!int '0x0x1f'"), Some(31));
        assert_eq!(int("!!int '+-5'"), Some(-5));
        assert_eq!(int("!!int '- 5'"), Some(-5));
        assert_eq!(int("!!int '١٢'"), Some(12));
        assert_eq!(int("!!int '𝟙𝟚'"), Some(12));
        assert_eq!(int("!!int '1:-5'"), Some(55));
        for bad in [
            "!!int '012x'",
            "!!int '-+-5'",
            "!!int '0b2'",
            "!!int '+'",
            "!!int '1 2'",
        ] {
            assert!(load(&format!("a: {bad}")).is_err(), "{bad}");
        }
    }

    #[test]
    fn binary_is_decoded_as_leniently_as_python() {
        let bytes = |src: &str| match get(&format!("a: !!binary '{src}'"), "a") {
            Value::Bytes(b) => b,
            other => panic!("{other:?}"),
        };
        assert_eq!(bytes("aGk=x"), b"hi");
        assert_eq!(bytes("aGk=="), b"hi");
        assert_eq!(bytes("aG!k ="), b"hi");
        assert_eq!(bytes("!!!"), b"");
        for bad in ["a", "aGk", "aG=k", "é"] {
            assert!(load(&format!("a: !!binary '{bad}'")).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_tag_before_an_anchor_does_not_hide_its_name() {
        for src in [
            "a: &x 1\nb: !!str &y 2\nc: *y",
            "a: &x [1]\nb: !!seq &y [2]",
            "m: &m {a: 1}\nn: !!map &q {a: 2}",
        ] {
            assert!(load(src).is_ok(), "{src:?}");
        }
        assert!(load("a: &x 1\nb: !!str &x 2").is_err());
    }

    #[test]
    fn line_and_paragraph_separators_break_lines_outside_quotes() {
        for sep in ['\u{2028}', '\u{2029}'] {
            let root = load(&format!("name: demo{sep}description: x"))
                .unwrap()
                .unwrap();
            assert_eq!(root.get("description").unwrap().value.as_str(), Some("x"));
            // a comment ends at the separator, and what follows is not a key
            assert!(load(&format!("a: x # c{sep}d")).is_err());
            assert_eq!(
                get(&format!("a: 'x{sep}y'"), "a").as_str(),
                Some(&*format!("x{sep}y"))
            );
        }
    }

    #[test]
    fn deep_nesting_is_read_as_cao_reads_it_up_to_a_bound() {
        let nested = |n: usize| format!("m: {}{}", "[".repeat(n), "]".repeat(n));
        // CAO reads these; saphyr alone stopped at 255 flow levels
        assert!(load(&nested(999)).is_ok());
        for n in [1000, 100_000] {
            let e = load(&nested(n)).unwrap_err();
            assert!(e.message.contains("nested more than 1000"), "{e}");
        }
    }

    #[test]
    fn spans_are_exact_only_when_saphyr_agrees() {
        assert!(load_with_spans("a: 'x'\n").unwrap().1);
        // saphyr's span of a tagged collection starts after the tag, libyaml's at it
        let (root, exact) = load_with_spans("s: !!seq &t [a]\n").unwrap();
        assert!(exact);
        assert_eq!(root.unwrap().get("s").unwrap().style, Style::FlowSeq);
        assert!(!load_with_spans("a: 'x'#c\n").unwrap().1);
        let (root, _) = load_with_spans("d: \"é\"#c\nb: [1]").unwrap();
        assert!(root.unwrap().get("b").is_some());
    }

    #[test]
    fn last_duplicate_wins_and_aliases_resolve() {
        assert_eq!(get("a: 1\na: two", "a").as_str(), Some("two"));
        assert_eq!(get("x: &d hello\na: *d", "a").as_str(), Some("hello"));
        let merged = "base: &b {a: one, c: 3}\nm:\n  <<: *b\n  a: own\n";
        let root = load(merged).unwrap().unwrap();
        let m = root.get("m").unwrap();
        assert_eq!(m.get("a").unwrap().value.as_str(), Some("own"));
        assert!(matches!(m.get("c").unwrap().value, Value::Int(3)));
    }

    #[test]
    fn spans_are_bytes_and_styles_are_kept() {
        let src = "d: \"é\"\nskills: [a, 'b']\nl:\n  - x\n";
        let root = load(src).unwrap().unwrap();
        let skills = root.get("skills").unwrap();
        assert_eq!(skills.style, Style::FlowSeq);
        let Value::Seq(items) = &skills.value else {
            panic!()
        };
        assert_eq!(items[1].style, Style::SingleQuoted);
        assert_eq!(&src[items[0].span.clone()], "a");
        assert!(src[items[1].span.clone()].contains('b'));
        assert_eq!(root.get("l").unwrap().style, Style::BlockSeq);
    }

    /// Nested merges of eight aliases each: 4 * 8^8 entries if expanded.
    fn merge_bomb(levels: usize) -> String {
        let mut doc = "l0: &l0 {a: 1, b: 2, c: 3, d: 4}\n".to_string();
        for i in 1..=levels {
            let refs = vec![format!("*l{}", i - 1); 8].join(", ");
            doc.push_str(&format!("l{i}: &l{i} {{<<: [{refs}]}}\n"));
        }
        doc
    }

    #[test]
    fn merge_and_alias_work_is_bounded() {
        let e = load(&merge_bomb(8)).unwrap_err();
        assert!(e.message.contains("merge keys"), "{e}");
        // A few levels stay well inside the bound and keep PyYAML's result.
        let root = load(&merge_bomb(2)).unwrap().unwrap();
        assert!(matches!(
            root.get("l2").unwrap().get("d").unwrap().value,
            Value::Int(4)
        ));
        let aliases = format!("a: &a x\nl: [{}]\n", vec!["*a"; MAX_WORK + 1].join(", "));
        assert!(load(&aliases).unwrap_err().message.contains("aliases"));
    }

    #[test]
    fn empty_and_non_mapping_documents() {
        assert!(load("").unwrap().is_none());
        assert!(load("# only a comment\n").unwrap().is_none());
        assert!(!load("- a\n").unwrap().unwrap().is_map());
    }
}
