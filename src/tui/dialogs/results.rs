//! `a` with words instead of a source: the registry's answers (see
//! `core::sources::search`), searched on a worker behind a spinner that
//! Esc cancels. Enter opens the result's source like any other, its skill
//! picked.

use std::sync::atomic::Ordering;

use ratatui::text::{Line, Text};

use crate::core::sources::git::Cancel;
use crate::core::sources::search::{Hit, Installed};
use crate::core::text::sanitize_line;
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// Results asked for at once.
pub const LIMIT: usize = 20;
/// Result rows shown at once (also a page's move). Marks: ✓ installed
/// from this source as pinned, ✎ installed from it and edited since, !
/// a skill of that name is installed from elsewhere.
const ROWS: usize = 10;
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

#[derive(Debug)]
pub struct Results {
    /// The job searching.
    pub id: u64,
    pub query: String,
    cancel: Cancel,
    /// `None` while the search runs.
    pub hits: Option<Vec<Hit>>,
    /// The spinner's step: one per tick the worker sends.
    pub spin: usize,
    pub sel: usize,
}

impl Results {
    pub fn new(id: u64, query: String, cancel: Cancel) -> Results {
        Results {
            id,
            query,
            cancel,
            hits: None,
            spin: 0,
            sel: 0,
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        let hits = self.hits.as_deref().unwrap_or_default();
        match cmd {
            Cmd::Back => {
                self.cancel.store(true, Ordering::SeqCst);
                let what = match self.hits {
                    None => "cancelled the search",
                    Some(_) => "nothing installed",
                };
                return Outcome::Say(Status::info(what));
            }
            Cmd::Accept => {
                let Some(hit) = hits.get(self.sel) else {
                    return Outcome::Keep;
                };
                if !repo_shaped(&hit.source) {
                    return Outcome::KeepSaying(Status::error(format!(
                        "the registry gave '{}' as the source, not owner/repo: it is not opened",
                        sanitize_line(&hit.source)
                    )));
                }
                return Outcome::OpenFound {
                    source: hit.source.clone(),
                    skill: hit.name.clone(),
                };
            }
            Cmd::Move(m) => self.sel = panes::move_in(self.sel, hits.len(), m, ROWS as u16),
            _ => {}
        }
        Outcome::Keep
    }

    pub fn text(&self, theme: &Theme) -> Text<'static> {
        let query = sanitize_line(&self.query).into_owned();
        let Some(hits) = &self.hits else {
            let spin = SPINNER[self.spin % SPINNER.len()];
            return Text::from(vec![
                Line::from(format!("{spin} Searching the registry for '{query}'…")),
                Line::styled("Esc cancels", theme.dim),
            ]);
        };
        let mut lines = vec![
            Line::from(format!(
                "{} for '{query}', most installed first",
                panes::count(hits.len(), "result")
            )),
            Line::styled("↑↓ choose  Enter opens its source  Esc cancels", theme.dim),
            Line::styled(
                format!("  {:<24} {:<28} {:>8}", "name", "source", "installs"),
                theme.dim,
            ),
        ];
        let top = self.sel.saturating_sub(ROWS - 1);
        for (i, h) in hits.iter().enumerate().skip(top).take(ROWS) {
            let mark = match h.installed {
                Installed::No => "",
                Installed::Current => "  ✓ installed",
                Installed::Modified => "  ✎ edited here",
                Installed::Other => "  ! name taken",
            };
            let text = format!(
                "{} {:<24} {:<28} {:>8}{mark}",
                if i == self.sel { "›" } else { " " },
                sanitize_line(&h.name),
                sanitize_line(&h.source),
                h.installs,
            );
            lines.push(match i == self.sel {
                true => Line::styled(text, theme.selected),
                false => Line::from(text),
            });
        }
        Text::from(lines)
    }
}

/// `owner/repo` and nothing else: a registry's answer must not name a
/// local path or another kind of source.
fn repo_shaped(source: &str) -> bool {
    let ok = |p: &str| {
        !p.is_empty()
            && !p.starts_with('.')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    matches!(source.split_once('/'), Some((o, r)) if ok(o) && ok(r))
}

/// Whether what was typed in `a` is words to search for: not a path, a URL,
/// `host:path` or `owner/repo` (those all hold `/` or `:`, or exist here).
pub fn is_query(text: &str) -> bool {
    !text.contains('/') && !text.contains(':') && !text.starts_with('~') && text != "."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_words_are_searched_and_only_owner_repo_is_opened() {
        assert!(is_query("pdf tools"));
        for s in ["o/r", "./x", "~", "https://h", "git@h:o/r", "."] {
            assert!(!is_query(s), "{s}");
        }
        assert!(repo_shaped("anthropics/skills"));
        for s in ["/etc", "../x", "o/r/s", "o", "o/.git", "o/r\u{1b}"] {
            assert!(!repo_shaped(s), "{s}");
        }
    }
}
