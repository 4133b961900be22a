//! Text rules shared by every face: the one sanitizer for untrusted text, and
//! Python's notion of whitespace (CAO strips with `str.strip()`).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// A path as JSON text (`#[serde(serialize_with)]`): serde refuses a path
/// that is not UTF-8, which would leave a `--json` output with nothing to
/// print or panic; such bytes show as U+FFFD.
pub fn lossy_path<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// [`lossy_path`] for an optional path.
pub fn lossy_opt_path<S: serde::Serializer>(
    path: &Option<PathBuf>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match path {
        Some(p) => lossy_path(p, s),
        None => s.serialize_none(),
    }
}

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

/// `text` with the credentials of every URL in it taken out, so a token
/// typed into a SOURCE is never stored or shown: an `http(s)://` URL loses
/// its whole user part (a token is often the user name), any other loses a
/// password (`ssh://git@host` keeps the `git` ssh needs). A `@` after a `/`
/// (`owner/repo@ref`) is not a user part.
pub fn strip_credentials(text: &str) -> Cow<'_, str> {
    if !text.contains('@') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        let head = &rest[..at];
        // Where the user part would begin: after `://`, else after the
        // last space or quote (a bare `user:pass@host:path`).
        let start = head
            .rfind("://")
            .map(|i| i + 3)
            .into_iter()
            .chain(head.rfind([' ', '\'', '"', '(', '<']).map(|i| i + 1))
            .max()
            .unwrap_or(0);
        let user = &head[start..];
        let scheme = &head[..start];
        let web = scheme.ends_with("http://") || scheme.ends_with("https://");
        let is_user_part = !user.is_empty() && !user.contains(['/', '@']);
        if is_user_part && (web || user.contains(':')) {
            out.push_str(scheme);
            if !web && let Some((name, _)) = user.split_once(':') {
                out.push_str(name);
                out.push('@');
            }
        } else {
            out.push_str(head);
            out.push('@');
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Every run of whitespace as one space, none at the ends: one line.
pub fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Untrusted text as one safe line of at most `max` characters: runs of
/// whitespace (newlines too) as one space, then [`sanitize_line`], cut
/// with `…` past `max`. Reads no further than it keeps, however long `s`.
pub fn one_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0usize;
    for word in s.split_whitespace() {
        for c in (count > 0).then_some(' ').into_iter().chain(word.chars()) {
            if count == max {
                out.push('…');
                return sanitize_line(&out).into_owned();
            }
            out.push(c);
            count += 1;
        }
    }
    sanitize_line(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_folds_sanitizes_and_cuts() {
        assert_eq!(
            one_line("a\n- forged\u{1b}[2J\u{202e}", 100),
            "a - forged\u{241b}[2J"
        );
        assert_eq!(one_line("  ab  cd ", 4), "ab c…");
        assert_eq!(one_line("abcd", 4), "abcd");
        assert_eq!(one_line(&"x".repeat(1 << 20), 3), "xxx…");
    }

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

    #[test]
    fn credentials_leave_urls_but_ssh_users_and_refs_stay() {
        let cases = [
            ("https://u:TOK@host/o/r", "https://host/o/r"),
            ("https://TOK@host/o/r@v1", "https://host/o/r@v1"),
            (
                "ssh://git@host:22/o/r.git@v2",
                "ssh://git@host:22/o/r.git@v2",
            ),
            ("ssh://git:pw@host/o/r", "ssh://git@host/o/r"),
            ("git@github.com:o/r.git", "git@github.com:o/r.git"),
            ("u:pw@host:o/r", "u@host:o/r"),
            ("o/r@main", "o/r@main"),
            (
                "fatal: 'https://u:TOK@h/r' not found",
                "fatal: 'https://h/r' not found",
            ),
        ];
        for (text, shown) in cases {
            assert_eq!(strip_credentials(text), shown, "{text}");
        }
    }
}
