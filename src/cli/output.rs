//! What every command group shares: stdout that sanitizes for a person,
//! warnings and notes on stderr, and the outcome a command returns.

use std::io::{IsTerminal, Write};

use crate::core::text::{sanitize, sanitize_line};

/// A user-facing failure: one line, printed as `error: ...`, exit 1.
pub type Outcome = Result<(), String>;

/// Stdout that sanitizes only when a person is looking at it; buffered
/// (flushed when dropped) so a long listing is one write, not one a line.
pub struct Output {
    tty: bool,
    /// The terminal's columns: listings cut their last cell to it. `None`
    /// when piped, so a script gets the full text.
    columns: Option<usize>,
    inner: std::io::BufWriter<std::io::Stdout>,
}

impl Output {
    pub fn stdout() -> Output {
        let stdout = std::io::stdout();
        let tty = stdout.is_terminal();
        let columns = tty
            .then(|| ratatui::crossterm::terminal::size().ok())
            .flatten()
            .map(|(w, _)| usize::from(w))
            .filter(|w| *w > 0);
        Output {
            tty,
            columns,
            inner: std::io::BufWriter::with_capacity(64 * 1024, stdout),
        }
    }

    /// A listing row: `head` then `tail` (a description, a list) cut with
    /// an ellipsis to the terminal's width; whole when piped. Both are
    /// sanitized already.
    pub fn row(&mut self, head: &str, tail: &str) {
        let Some(columns) = self.columns else {
            return self.line(&format!("{head}{tail}"));
        };
        let used = unicode_width::UnicodeWidthStr::width(head);
        let tail = crate::tui::panes::elide_right(tail, columns.saturating_sub(used));
        self.line(&format!("{head}{tail}"));
    }

    /// A listing row whose tail is a list of names (`a, b, c`): cut to the
    /// terminal's width at a whole name, the ellipsis right after the last
    /// name shown (`a, b…`, never `a,…`); whole when piped.
    pub fn names_row(&mut self, head: &str, names: &[String]) {
        let joined = names.join(", ");
        let Some(columns) = self.columns else {
            return self.line(&format!("{head}{joined}"));
        };
        let used = unicode_width::UnicodeWidthStr::width(head);
        let tail = cut_names(names, columns.saturating_sub(used));
        self.line(&format!("{head}{tail}"));
    }

    /// Writes text read from disk (or built from it).
    pub fn text(&mut self, s: &str) {
        let s = if self.tty { sanitize(s) } else { s.into() };
        let _ = self.inner.write_all(s.as_bytes());
    }

    pub fn line(&mut self, s: &str) {
        self.text(s);
        self.text("\n");
    }

    /// The stream itself, for bytes we generate (completion scripts, roff)
    /// that must not be sanitized.
    pub fn raw(&mut self) -> &mut impl Write {
        &mut self.inner
    }
}

/// What a command built before printing: stdout text, and warnings and
/// notes for stderr.
#[derive(Default)]
pub struct Printed {
    pub out: String,
    pub warnings: Vec<String>,
    /// Plain lines for stderr (facts, not warnings).
    pub notes: Vec<String>,
    /// The command's error, printed after what it did do (a command over
    /// several names that did some and not others).
    pub failed: Option<String>,
}

impl Printed {
    pub fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }
}

/// Prints what a command built: warnings first, then its text.
pub fn printed(warnings: Vec<String>, p: Printed, out: &mut Output) -> Outcome {
    for w in warnings.iter().chain(&p.warnings) {
        warn(w);
    }
    for n in &p.notes {
        eprintln!("{}", sanitize_line(n));
    }
    out.text(&p.out);
    p.failed.map_or(Ok(()), Err)
}

/// Warnings to stderr, sanitized (they may quote file contents).
pub fn warn(msg: &str) {
    eprintln!("warning: {}", sanitize_line(msg));
}

/// A fact on stderr that is not a warning (how an agent gets skills).
pub fn note(msg: &str) {
    eprintln!("note: {}", sanitize_line(msg));
}

/// `names` joined with `, ` in at most `max` columns: as many whole names
/// as fit with an ellipsis after the last, or the first name cut when not
/// even it fits.
pub fn cut_names(names: &[String], max: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    let joined = names.join(", ");
    if joined.width() <= max {
        return joined;
    }
    let mut shown = String::new();
    for name in names {
        let next = match shown.is_empty() {
            true => name.clone(),
            false => format!("{shown}, {name}"),
        };
        // Room for the ellipsis that follows the last name shown.
        if next.width() + 1 > max {
            break;
        }
        shown = next;
    }
    match shown.is_empty() {
        true => crate::tui::panes::elide_right(&joined, max),
        false => format!("{shown}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_list_of_names_ends_on_a_whole_name_then_the_ellipsis_at_every_width() {
        let names: Vec<String> = [
            "cao-contributing",
            "cao-supervisor-protocols",
            "pdf",
            "skill-creator",
            "mcp-builder",
            "webapp-testing",
        ]
        .map(String::from)
        .to_vec();
        let joined = names.join(", ");
        for width in 0..=120usize {
            let tail = cut_names(&names, width);
            let w = unicode_width::UnicodeWidthStr::width(tail.as_str());
            assert!(w <= width, "{width}: {tail:?} is {w} wide");
            if joined.chars().count() <= width {
                assert_eq!(tail, joined);
                continue;
            }
            assert!(
                !tail.contains(",…") && !tail.contains(", …"),
                "{width}: {tail:?}"
            );
            let kept = tail.trim_end_matches('…');
            if width > names[0].len() {
                assert!(
                    kept.split(", ").all(|n| names.contains(&n.to_string())),
                    "{width}: {tail:?} cuts a name"
                );
            }
        }
    }
}
