//! Text rules shared by every face: the one sanitizer for untrusted text, and
//! Python's notion of whitespace (CAO strips with `str.strip()`).

use std::borrow::Cow;

/// Columns between tab stops when tabs are expanded for display.
pub const TAB_WIDTH: usize = 4;

/// Python's `str.isspace()`: Unicode White_Space plus the four information
/// separators U+001C..U+001F, which Python (but not Rust) counts as spaces.
pub fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` with no argument.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_isspace)
}

/// Bidirectional embeddings, overrides and isolates: they reorder what the
/// user sees (the "Trojan Source" trick), so they are dropped, not shown.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The visible symbol drawn in place of a control character.
fn control_picture(c: char) -> char {
    match c {
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        _ => '\u{fffd}',
    }
}

fn needs_sanitizing(c: char, keep_newlines: bool) -> bool {
    (c.is_control() && !(keep_newlines && c == '\n')) || is_bidi_control(c)
}

/// Makes untrusted text safe to draw on a terminal: tabs become spaces (to
/// the next stop), other control characters (ESC, CR, C1 codes...) become
/// visible symbols so no escape sequence can reach the terminal, and bidi
/// overrides are dropped. Newlines are kept.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    sanitize_with(s, true)
}

/// Like [`sanitize`] for text that must stay on one line: a newline is shown
/// as a symbol too.
pub fn sanitize_line(s: &str) -> Cow<'_, str> {
    sanitize_with(s, false)
}

fn sanitize_with(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_sanitizing(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut column = 0usize;
    for c in s.chars() {
        match c {
            '\n' if keep_newlines => {
                out.push('\n');
                column = 0;
                continue;
            }
            '\t' => {
                let pad = TAB_WIDTH - column % TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', pad));
                column += pad;
                continue;
            }
            c if is_bidi_control(c) => continue,
            c if c.is_control() => out.push(control_picture(c)),
            c => out.push(c),
        }
        column += 1;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible() {
        let s = sanitize("a\u{1b}]52;c;ZXZpbA==\u{7}b\u{1b}[2J");
        assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'));
        assert_eq!(s, "a\u{241b}]52;c;ZXZpbA==\u{2407}b\u{241b}[2J");
    }

    #[test]
    fn tabs_expand_to_the_next_stop() {
        assert_eq!(sanitize("a\tb\n\tc"), "a   b\n    c");
    }

    #[test]
    fn bidi_overrides_are_dropped_and_c1_is_visible() {
        assert_eq!(sanitize("x\u{202e}y\u{2066}z\u{9b}"), "xyz\u{fffd}");
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(sanitize("plain\ntext"), Cow::Borrowed(_)));
        assert_eq!(sanitize_line("a\nb"), "a\u{240a}b");
    }

    #[test]
    fn python_whitespace_includes_separators() {
        assert_eq!(py_strip("\u{1c} x \u{a0}\u{3000}"), "x");
        assert!(!py_isspace('\u{feff}'));
    }
}
