//! `a` with words instead of a source: the registry's answers (see
//! `core::sources::search`), searched on a worker behind a spinner that
//! Esc cancels. `owner:NAME` among the words keeps one owner's skills; when
//! the first answer fills [`LIMIT`], a last row asks for more. → reads a
//! result's SKILL.md (one blob fetched, on a worker); Enter, in the list or
//! while reading, opens the result's source like any other, its skill
//! picked.

use std::sync::atomic::Ordering;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::cao::skill;
use crate::core::sources::git::{Cancel, SkillMd};
use crate::core::sources::search::{Hit, Installed, MAX_LIMIT};
use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup, popup_text};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::markdown::{Highlighter, Rendered, render_markdown};
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// Results asked for at first; the "more results" row asks for
/// [`MAX_LIMIT`], the most the registry gives.
pub const LIMIT: usize = 20;
/// Result rows shown at once (also a page's move). Marks: ✓ installed
/// from this source as pinned, ✎ installed from it and edited since, !
/// a skill of that name is installed from elsewhere.
const ROWS: usize = 10;
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];
/// The most of a SKILL.md drawn while reading it: the render cache keeps
/// documents up to this size, so scrolling does not render it again.
const MAX_READ: usize = 128 << 10;

#[derive(Debug)]
pub struct Results {
    /// The job searching.
    pub id: u64,
    /// What was typed, `owner:NAME` included.
    pub query: String,
    /// Results asked for.
    pub limit: usize,
    cancel: Cancel,
    /// `None` while the search runs.
    pub hits: Option<Vec<Hit>>,
    /// The spinner's step: one per tick the worker sends.
    pub spin: usize,
    /// A result's row, or `hits.len()` for the "more results" row.
    pub sel: usize,
    /// A result's SKILL.md being read (→).
    pub reading: Option<Reading>,
}

/// A result's SKILL.md, fetched on a worker.
#[derive(Debug)]
pub struct Reading {
    /// The job fetching it.
    pub id: u64,
    cancel: Cancel,
    hit: Hit,
    /// `None` while it is fetched.
    pub got: Option<Result<SkillMd, String>>,
    pub scroll: u16,
    /// The largest useful `scroll`, as the last frame drawn found it: a
    /// move past the end is taken back to it.
    max_scroll: std::cell::Cell<u16>,
    pub spin: usize,
}

impl Results {
    pub fn new(id: u64, query: String, limit: usize, cancel: Cancel) -> Results {
        Results {
            id,
            query,
            limit,
            cancel,
            hits: None,
            spin: 0,
            sel: 0,
            reading: None,
        }
    }

    /// Whether the registry may hold more than it gave: the answer filled
    /// the limit, and a larger one can be asked for.
    fn more(&self) -> bool {
        let got = self.hits.as_ref().map_or(0, Vec::len);
        got >= self.limit && self.limit < MAX_LIMIT
    }

    /// A worker's tick for job `id`: the search's or the reading's spinner.
    pub fn tick(&mut self, id: u64) {
        match &mut self.reading {
            Some(r) if r.id == id => r.spin += 1,
            _ if self.id == id => self.spin += 1,
            _ => {}
        }
    }

    /// A reading's answer; dropped when Esc left it.
    pub fn read(&mut self, id: u64, got: Result<SkillMd, String>) {
        if let Some(r) = self.reading.as_mut().filter(|r| r.id == id) {
            r.got = Some(got);
        }
    }

    /// Starts reading the selected result's SKILL.md (the worker is the
    /// app's: see `App::read_in_background`).
    pub fn start_reading(&mut self, id: u64, cancel: Cancel) {
        let hits = self.hits.as_deref().unwrap_or_default();
        if let Some(hit) = hits.get(self.sel) {
            self.reading = Some(Reading {
                id,
                cancel,
                hit: hit.clone(),
                got: None,
                scroll: 0,
                max_scroll: Default::default(),
                spin: 0,
            });
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        if let Some(r) = &mut self.reading {
            match cmd {
                Cmd::Back => {
                    r.cancel.store(true, Ordering::SeqCst);
                    self.reading = None;
                }
                Cmd::Accept => return open(&r.hit),
                Cmd::Move(m) => {
                    let to = panes::scroll(r.scroll.min(r.max_scroll.get()), m, ROWS as u16);
                    r.scroll = to.min(r.max_scroll.get());
                }
                _ => {}
            }
            return Outcome::Keep;
        }
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
            Cmd::Accept if self.sel == hits.len() && self.more() => {
                return Outcome::Search(self.query.clone(), MAX_LIMIT);
            }
            Cmd::Accept => return hits.get(self.sel).map_or(Outcome::Keep, open),
            Cmd::Open => {
                if let Some(hit) = hits.get(self.sel) {
                    return match repo_shaped(&hit.source) {
                        true => Outcome::Read {
                            source: hit.source.clone(),
                            skill: hit.name.clone(),
                        },
                        false => not_a_repo(hit),
                    };
                }
            }
            Cmd::Move(m) => {
                let rows = hits.len() + usize::from(self.more());
                self.sel = panes::move_in(self.sel, rows, m, ROWS as u16);
            }
            _ => {}
        }
        Outcome::Keep
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme, hl: &Highlighter) {
        match &self.reading {
            Some(r) => r.render(frame, area, theme, hl),
            None => {
                let width = usize::from(WIDTH.min(area.width).saturating_sub(2));
                let text = self.text(theme, width);
                popup_text(frame, area, theme, "Search", text, (WIDTH, 17));
            }
        }
    }

    /// The dialog's lines for a popup `width` wide inside its frame: one
    /// line per result at any width.
    pub fn text(&self, theme: &Theme, width: usize) -> Text<'static> {
        let query = sanitize_line(&self.query).into_owned();
        let Some(hits) = &self.hits else {
            let spin = SPINNER[self.spin % SPINNER.len()];
            return Text::from(vec![
                Line::from(format!("{spin} Searching the registry for '{query}'…")),
                Line::styled("Esc cancels", theme.dim),
            ]);
        };
        let count = match self.more() {
            true => format!("The first {} results", hits.len()),
            false => panes::count(hits.len(), "result"),
        };
        let mut lines = vec![
            Line::from(format!("{count} for '{query}', most installed first")),
            Line::styled(panes::fitting(&LIST_KEYS, width), theme.dim),
            Line::styled(header(width), theme.dim),
        ];
        let rows = hits.len() + usize::from(self.more());
        let top = self.sel.saturating_sub(ROWS - 1);
        for i in (top..rows).take(ROWS) {
            let text = match hits.get(i) {
                Some(h) => row(h, i == self.sel, width),
                None => panes::elide_right(
                    &format!(
                        "{} more results: the registry gave {}, ask for up to {MAX_LIMIT}",
                        if i == self.sel { "›" } else { " " },
                        self.limit
                    ),
                    width,
                ),
            };
            lines.push(match i == self.sel {
                true => Line::styled(text, theme.selected),
                false => Line::from(text),
            });
        }
        if hits.len() >= MAX_LIMIT {
            lines.push(Line::styled(
                format!("the registry gives at most {MAX_LIMIT}: add words, or owner:NAME"),
                theme.dim,
            ));
        }
        Text::from(lines)
    }
}

impl Reading {
    fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme, hl: &Highlighter) {
        let rect = popup(area, 100, area.height.saturating_sub(2));
        frame.render_widget(Clear, rect);
        let title = format!(
            "{} from {}",
            sanitize_line(&self.hit.name),
            sanitize_line(&self.hit.source)
        );
        let block = frame_block(theme, &title);
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [body, hint] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
        let lines = match &self.got {
            None => {
                let spin = SPINNER[self.spin % SPINNER.len()];
                vec![Line::from(format!("{spin} Fetching its SKILL.md…"))]
            }
            Some(Err(e)) => vec![Line::styled(format!("✗ {}", sanitize_line(e)), theme.error)],
            Some(Ok(md)) => document(md, body.width, theme, hl),
        };
        let last = lines.len().saturating_sub(usize::from(body.height));
        self.max_scroll.set(u16::try_from(last).unwrap_or(u16::MAX));
        let top = usize::from(self.scroll).min(last);
        let shown: Vec<Line> = lines
            .into_iter()
            .skip(top)
            .take(body.height.into())
            .collect();
        frame.render_widget(Paragraph::new(shown), body);
        let keys = match self.got {
            None => &READING_KEYS[2..],
            Some(_) => &READING_KEYS[..],
        };
        let keys = panes::fitting(keys, usize::from(hint.width));
        frame.render_widget(Paragraph::new(Line::styled(keys, theme.dim)), hint);
    }
}

/// A fetched SKILL.md as the Preview pane draws one: its path, then the
/// frontmatter as a table and the body as Markdown (all of it as Markdown
/// when the frontmatter does not parse), cut at [`MAX_READ`].
fn document(md: &SkillMd, width: u16, theme: &Theme, hl: &Highlighter) -> Vec<Line<'static>> {
    let mut text = md.text.as_str();
    let cut = text.len() > MAX_READ;
    if cut {
        let mut end = MAX_READ;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let mut lines = vec![
        Line::styled(sanitize_line(&md.path).into_owned(), theme.dim),
        Line::default(),
    ];
    lines.extend(match skill::doc_from_text(text) {
        Ok(doc) => Rendered::skill(&doc.pairs(), &doc.frontmatter.body, width, 0, theme, hl).lines,
        Err(_) => render_markdown(text, width, theme, hl),
    });
    if cut {
        lines.push(Line::styled(
            format!(
                "(cut at {} KiB: install it to read the rest)",
                MAX_READ >> 10
            ),
            theme.dim,
        ));
    }
    lines
}

/// The list's keys, longest first: the widest that fits is shown.
const LIST_KEYS: [&str; 3] = [
    "↑↓ choose  → reads its SKILL.md  Enter opens its source  Esc cancels",
    "↑↓ choose  → read  Enter open  Esc cancel",
    "→ read  ⏎ open  Esc",
];
/// The keys while reading a SKILL.md, longest first; the last two are
/// the forms for while it is still fetched.
const READING_KEYS: [&str; 4] = [
    "↑↓ scroll  Enter opens it to install  Esc back to the results",
    "↑↓ scroll  Enter install  Esc back",
    "Esc back to the results",
    "Esc back",
];
/// The popup's widest.
const WIDTH: u16 = 100;
/// The installs column, and the spaces and cursor around the columns.
const INSTALLS: usize = 8;
const GAPS: usize = 4;

/// The name and source columns' widths in `width`: 24 and 28 where they
/// fit, else shared out so that a row stays on one line.
fn columns(width: usize) -> (usize, usize) {
    let room = width.saturating_sub(INSTALLS + GAPS);
    match room >= 24 + 28 {
        true => (24, 28),
        false => {
            let name = (room / 2).max(1);
            (name, room.saturating_sub(name).max(1))
        }
    }
}

fn header(width: usize) -> String {
    let (n, s) = columns(width);
    let text = format!(
        "  {:<n$} {:<s$} {:>INSTALLS$}",
        "name", "source", "installs"
    );
    panes::elide_right(&text, width)
}

fn row(h: &Hit, selected: bool, width: usize) -> String {
    let (n, s) = columns(width);
    let roomy = width >= 24 + 28 + INSTALLS + GAPS + 15;
    let mark = match (h.installed, roomy) {
        (Installed::No, _) => "",
        (Installed::Current, true) => "  ✓ installed",
        (Installed::Modified, true) => "  ✎ edited here",
        (Installed::Other, true) => "  ! name taken",
        (Installed::Current, false) => " ✓",
        (Installed::Modified, false) => " ✎",
        (Installed::Other, false) => " !",
    };
    let text = format!(
        "{} {:<n$} {:<s$} {:>INSTALLS$}{mark}",
        if selected { "›" } else { " " },
        panes::elide_right(&sanitize_line(&h.name), n),
        panes::elide_right(&sanitize_line(&h.source), s),
        h.installs,
    );
    panes::elide_right(&text, width)
}

/// Enter on a result: its source opened with its skill picked.
fn open(hit: &Hit) -> Outcome {
    if !repo_shaped(&hit.source) {
        return not_a_repo(hit);
    }
    Outcome::OpenFound {
        source: hit.source.clone(),
        skill: hit.name.clone(),
    }
}

fn not_a_repo(hit: &Hit) -> Outcome {
    Outcome::KeepSaying(Status::error(format!(
        "the registry gave '{}' as the source, not owner/repo: it is not opened",
        sanitize_line(&hit.source)
    )))
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

/// What was typed in `a` as the words to search for and the `owner:NAME`
/// among them, if any.
pub fn split_query(text: &str) -> (String, Option<String>) {
    let mut owner = None;
    let mut words = Vec::new();
    for word in text.split_whitespace() {
        match word.strip_prefix("owner:") {
            Some(name) => owner = Some(name.to_string()),
            None => words.push(word),
        }
    }
    (words.join(" "), owner)
}

/// Whether what was typed in `a` is words to search for (`owner:NAME`
/// among them): not a path, a URL, `host:path` or `owner/repo` (those all
/// hold `/` or `:`, or exist here).
pub fn is_query(text: &str) -> bool {
    let (words, owner) = split_query(text);
    let plain = |t: &str| !t.contains('/') && !t.contains(':') && !t.starts_with('~') && t != ".";
    plain(&words) && owner.as_deref().is_none_or(|o| !o.is_empty() && plain(o))
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

    #[test]
    fn owner_among_the_words_narrows_the_search() {
        assert!(is_query("pdf owner:anthropics"));
        assert_eq!(
            split_query("owner:anthropics  pdf tools"),
            ("pdf tools".to_string(), Some("anthropics".to_string()))
        );
        assert_eq!(split_query("pdf"), ("pdf".to_string(), None));
        for s in ["pdf owner:", "pdf owner:a/b", "host:path"] {
            assert!(!is_query(s), "{s}");
        }
    }
}
