//! The event stream CAO's YAML loader really sees. python-frontmatter loads
//! with PyYAML's `CSafeLoader`, i.e. libyaml's scanner and parser; its
//! rules on tabs, comments, flow indicators, simple-key length and BOMs
//! differ from saphyr's (YAML 1.2) in ways no pre-pass captures fully, so
//! we run libyaml itself (`unsafe-libyaml`, a faithful Rust translation)
//! and hand its events to the same builder, in saphyr's event types.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::CStr;
use std::mem::MaybeUninit;

use saphyr_parser::{Event, Marker, ScalarStyle, Span, Tag};
use unsafe_libyaml as unsafe_ly;

use crate::core::parse::position::{CharToByte, YamlError};

const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// Collections nested deeper than this are refused. CAO reads a few
/// thousand levels and crashes (a C stack overflow) somewhere past 20,000;
/// our tree is dropped and compared recursively on 2 MiB worker stacks, and
/// libyaml slows down with depth, so we stop well before either.
pub const MAX_DEPTH: usize = 1000;

/// Why the text was refused; `precise` when the message names the cause
/// (otherwise saphyr's own complaint, if it has one, says more).
pub struct Refusal {
    pub error: YamlError,
    pub precise: bool,
}

/// Every event of the text, or why libyaml (or our depth limit) refused it.
pub fn events(text: &str) -> Result<Vec<(Event<'static>, Span)>, Refusal> {
    let mut parser = MaybeUninit::<unsafe_ly::yaml_parser_t>::uninit();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut anchors = Anchors::default();
    let chars = CharToByte::new(text);
    // SAFETY: the parser is initialised before use and deleted on every
    // path; `text` outlives it; each event is read once, then deleted.
    unsafe {
        if unsafe_ly::yaml_parser_initialize(parser.as_mut_ptr()).fail {
            return Err(Refusal {
                error: plain_error("could not start the YAML parser"),
                precise: true,
            });
        }
        let parser = parser.as_mut_ptr();
        // PyYAML hands libyaml a str as UTF-8 with the encoding set.
        unsafe_ly::yaml_parser_set_encoding(parser, unsafe_ly::YAML_UTF8_ENCODING);
        unsafe_ly::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as _);
        let result = loop {
            let mut event = MaybeUninit::<unsafe_ly::yaml_event_t>::uninit();
            if unsafe_ly::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                let last_line = out.last().map_or(1, |(_, s): &(Event, Span)| s.end.line());
                break Err(parser_error(text, last_line));
            }
            let event = event.as_mut_ptr();
            let done = (*event).type_ == unsafe_ly::YAML_STREAM_END_EVENT;
            match (*event).type_ {
                unsafe_ly::YAML_SEQUENCE_START_EVENT | unsafe_ly::YAML_MAPPING_START_EVENT => {
                    depth += 1
                }
                unsafe_ly::YAML_SEQUENCE_END_EVENT | unsafe_ly::YAML_MAPPING_END_EVENT => {
                    depth -= 1
                }
                _ => {}
            }
            if depth > MAX_DEPTH {
                let line = (*event).start_mark.line as usize + 1;
                unsafe_ly::yaml_event_delete(event);
                break Err(Refusal {
                    error: YamlError {
                        message: format!(
                            "lists and mappings are nested more than {MAX_DEPTH} levels deep: \
                             flatten them"
                        ),
                        line: Some(line),
                    },
                    precise: true,
                });
            }
            let converted = convert(&*event, &mut anchors, &chars);
            unsafe_ly::yaml_event_delete(event);
            out.extend(converted);
            if done {
                break Ok(out);
            }
        };
        unsafe_ly::yaml_parser_delete(parser);
        result
    }
}

/// libyaml names anchors; saphyr's events number them. A redefined name
/// gets a new number, so an alias refers to the latest definition.
#[derive(Default)]
struct Anchors {
    ids: HashMap<Vec<u8>, usize>,
    defined: usize,
}

impl Anchors {
    unsafe fn define(&mut self, name: *const u8) -> usize {
        match unsafe { bytes(name) } {
            None => 0,
            Some(name) => {
                self.defined += 1;
                self.ids.insert(name, self.defined);
                self.defined
            }
        }
    }

    unsafe fn refer(&self, name: *const u8) -> usize {
        unsafe { bytes(name) }
            .and_then(|n| self.ids.get(&n).copied())
            .unwrap_or(usize::MAX)
    }
}

unsafe fn bytes(p: *const u8) -> Option<Vec<u8>> {
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p.cast()) }.to_bytes().to_vec())
}

unsafe fn string(p: *const u8) -> Option<String> {
    unsafe { bytes(p) }.map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A resolved tag in the shape `yaml::tag_name` expects.
fn tag(full: Option<String>) -> Option<Cow<'static, Tag>> {
    let full = full?;
    let (handle, suffix) = match full.strip_prefix(CORE_PREFIX) {
        Some(rest) => (CORE_PREFIX.to_string(), rest.to_string()),
        None if full == "!" => ("!".to_string(), String::new()),
        None => (String::new(), full),
    };
    Some(Cow::Owned(Tag { handle, suffix }))
}

/// libyaml counts bytes; saphyr's markers (and the builder) count chars.
fn marker(chars: &CharToByte, m: unsafe_ly::yaml_mark_t) -> Marker {
    let index = chars.char_at(m.index as usize);
    Marker::new(index, m.line as usize + 1, m.column as usize)
}

unsafe fn convert(
    e: &unsafe_ly::yaml_event_t,
    anchors: &mut Anchors,
    chars: &CharToByte,
) -> Option<(Event<'static>, Span)> {
    let span = Span::new(marker(chars, e.start_mark), marker(chars, e.end_mark));
    let event = unsafe {
        match e.type_ {
            unsafe_ly::YAML_DOCUMENT_START_EVENT => {
                Event::DocumentStart(!e.data.document_start.implicit)
            }
            unsafe_ly::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
            unsafe_ly::YAML_ALIAS_EVENT => Event::Alias(anchors.refer(e.data.alias.anchor)),
            unsafe_ly::YAML_SCALAR_EVENT => {
                let s = e.data.scalar;
                let value = std::slice::from_raw_parts(s.value, s.length as usize);
                Event::Scalar(
                    Cow::Owned(String::from_utf8_lossy(value).into_owned()),
                    scalar_style(s.style),
                    anchors.define(s.anchor),
                    tag(string(s.tag)),
                )
            }
            unsafe_ly::YAML_SEQUENCE_START_EVENT => {
                let s = e.data.sequence_start;
                Event::SequenceStart(anchors.define(s.anchor), tag(string(s.tag)))
            }
            unsafe_ly::YAML_MAPPING_START_EVENT => {
                let m = e.data.mapping_start;
                Event::MappingStart(anchors.define(m.anchor), tag(string(m.tag)))
            }
            unsafe_ly::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
            unsafe_ly::YAML_MAPPING_END_EVENT => Event::MappingEnd,
            _ => return None,
        }
    };
    Some((event, span))
}

fn scalar_style(style: unsafe_ly::yaml_scalar_style_t) -> ScalarStyle {
    match style {
        unsafe_ly::YAML_SINGLE_QUOTED_SCALAR_STYLE => ScalarStyle::SingleQuoted,
        unsafe_ly::YAML_DOUBLE_QUOTED_SCALAR_STYLE => ScalarStyle::DoubleQuoted,
        unsafe_ly::YAML_LITERAL_SCALAR_STYLE => ScalarStyle::Literal,
        unsafe_ly::YAML_FOLDED_SCALAR_STYLE => ScalarStyle::Folded,
        _ => ScalarStyle::Plain,
    }
}

fn plain_error(message: &str) -> YamlError {
    YamlError {
        message: message.to_string(),
        line: None,
    }
}

/// unsafe-libyaml keeps its error text private, so the message is ours:
/// libyaml stopped after the last good event, and when a line from there on
/// is indented with a tab (by far the most common cause), it names it.
fn parser_error(text: &str, last_line: usize) -> Refusal {
    let tabbed = text
        .split('\n')
        .enumerate()
        .skip(last_line.saturating_sub(1))
        .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'));
    let (message, line) = match tabbed {
        Some((i, _)) => (
            "a tab in the indentation, which CAO's YAML reader (libyaml) refuses even on a \
             comment or blank line: indent with spaces",
            i + 1,
        ),
        None => (
            "CAO's YAML reader (libyaml) cannot parse this: check quotes, indentation and \
             brackets",
            last_line,
        ),
    };
    Refusal {
        error: YamlError {
            message: message.to_string(),
            line: Some(line),
        },
        precise: tabbed.is_some(),
    }
}
