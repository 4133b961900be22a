//! A finding and its severity: what every scanner of the audit reports.

use serde::Serialize;

use super::rules;
pub use super::rules::Severity;

/// One thing found. `file` is relative to the skill folder, with `/`;
/// `line` counts from 1 (`None`: the file as a whole). `excerpt` is
/// sanitized and short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
    pub excerpt: String,
}

impl Finding {
    /// `rule` at `file:line`, severity from the table.
    pub(super) fn new(
        rule: &'static str,
        file: &str,
        line: Option<usize>,
        message: String,
    ) -> Finding {
        Finding {
            rule: rules::rule(rule).id,
            severity: rules::rule(rule).severity,
            file: file.to_string(),
            line,
            message,
            excerpt: String::new(),
        }
    }

    pub(super) fn with_excerpt(mut self, line: &str, at: usize) -> Finding {
        self.excerpt = excerpt(line, at);
        self
    }

    /// `file:line`, or `file` for the file as a whole.
    pub fn place(&self) -> String {
        let file = crate::core::text::sanitize_line(&self.file);
        match self.line {
            Some(l) => format!("{file}:{l}"),
            None => file.into_owned(),
        }
    }

    /// One line for a person: `high pipe-to-shell scripts/x.sh:3: message`.
    pub fn summary(&self) -> String {
        format!(
            "{} {} {}: {}",
            self.severity.label(),
            self.rule,
            self.place(),
            self.message
        )
    }
}

/// The excerpt's widest, in characters.
const EXCERPT_CHARS: usize = 80;

/// Up to [`EXCERPT_CHARS`] of `line` around byte `at`, sanitized, with
/// hidden characters shown by code point.
pub(super) fn excerpt(line: &str, at: usize) -> String {
    let at = at.min(line.len());
    let start = line[..at]
        .char_indices()
        .rev()
        .nth(EXCERPT_CHARS / 4)
        .map_or(0, |(i, _)| i);
    let mut shown = String::new();
    let mut n = 0;
    for c in line[start..].chars() {
        if n >= EXCERPT_CHARS {
            shown.push('…');
            break;
        }
        if is_hidden(c) {
            let code = format!("<U+{:04X}>", c as u32);
            n += code.len();
            shown.push_str(&code);
        } else {
            shown.push(c);
            n += 1;
        }
    }
    let shown = crate::core::text::sanitize_line(shown.trim());
    if start > 0 {
        format!("…{shown}")
    } else {
        shown.into_owned()
    }
}

/// Characters a reader does not see (shown by code point in excerpts):
/// tag characters, bidi controls, zero-width characters, ESC and C1.
pub fn is_hidden(c: char) -> bool {
    matches!(c, '\u{e0000}'..='\u{e007f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{1b}' | '\u{80}'..='\u{9f}')
}
