//! The skills found in a source, to pick from: each with CAO's verdict and
//! how it compares with the store. Space picks, `a` picks all shown (or
//! none when all are), `/` filters by name and description, Enter installs
//! the picks.

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::sources::remote::Opened;
use crate::core::sources::source::{Found, StoreState};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use unicode_width::UnicodeWidthStr;

use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::input::LineInput;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// The picks of a source while each clash is asked about.
pub(crate) struct Batch {
    pub(crate) pick: Box<Pick>,
    /// Clashing names still to ask about, in order.
    pub(crate) ask: VecDeque<String>,
    /// Clashing names the user said to replace.
    pub(crate) replace: Vec<String>,
    /// Clashing names the user kept.
    pub(crate) kept: Vec<String>,
    /// Changes a worker already worked out, by name.
    pub(crate) diffs: crate::tui::jobs::Diffs,
    /// The job working out the changes the next prompts show.
    pub(crate) diffing: Option<u64>,
}

/// Rows of skills shown at once, screen allowing (also a page's move).
const SHOWN: usize = 12;
/// The popup's lines that are not rows: frame, heading, hint, filter,
/// "more above", "more below".
const NOT_ROWS: u16 = 7;
/// The popup's widest.
const WIDTH: u16 = 100;

pub struct Pick {
    pub opened: Opened,
    pub picked: Vec<bool>,
    /// The cursor, a position in `shown`.
    pub sel: usize,
    /// Narrows the rows to names and descriptions holding it.
    pub filter: LineInput,
    /// Keys are typed into the filter.
    pub typing: bool,
    /// The rows the filter lets through, as indices into `opened.found`.
    shown: Vec<usize>,
    /// The first row shown, how many fit and how wide (set by `update`).
    top: usize,
    rows: usize,
    width: usize,
}

impl std::fmt::Debug for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pick")
            .field("source", &self.opened.label)
            .field("picked", &self.picked)
            .finish()
    }
}

impl Pick {
    /// A source holding one skill starts with it picked.
    pub fn new(opened: Opened) -> Pick {
        let one = opened.found.len() == 1;
        Pick {
            picked: vec![one; opened.found.len()],
            shown: (0..opened.found.len()).collect(),
            opened,
            sel: 0,
            filter: LineInput::default(),
            typing: false,
            top: 0,
            rows: SHOWN,
            width: usize::from(WIDTH - 2),
        }
    }

    /// The found skill under the cursor, as an index into `opened.found`.
    fn current(&self) -> Option<usize> {
        self.shown.get(self.sel).copied()
    }

    /// Re-applies the filter: case-blind, on the name and the description.
    fn refilter(&mut self) {
        let query = self.filter.as_str().to_lowercase();
        self.shown = (self.opened.found.iter().enumerate())
            .filter(|(_, f)| {
                let desc = f.checked.description.as_deref().unwrap_or("");
                f.name().to_lowercase().contains(&query) || desc.to_lowercase().contains(&query)
            })
            .map(|(i, _)| i)
            .collect();
        self.sel = 0;
        self.top = 0;
    }

    /// A key while the dialog is open: typed into the filter while it has
    /// the keys, else a command.
    pub fn on_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) -> Outcome {
        if !self.typing {
            return match (cmd, key.code) {
                (Some(cmd), _) => self.on_cmd(cmd),
                (None, KeyCode::Char('/')) => {
                    self.typing = true;
                    Outcome::Keep
                }
                (None, KeyCode::Char('a')) => self.pick_all_shown(),
                _ => Outcome::Keep,
            };
        }
        match key.code {
            KeyCode::Enter => self.typing = false,
            KeyCode::Esc => {
                self.typing = false;
                self.filter.clear();
                self.refilter();
            }
            KeyCode::Up | KeyCode::Down => {
                self.typing = false;
                return self.on_cmd(cmd.unwrap_or(Cmd::Complete));
            }
            _ => {
                if self.filter.key(key) {
                    self.refilter();
                }
            }
        }
        Outcome::Keep
    }

    /// `a`: picks every shown row that can be, or, when they all are
    /// picked, unpicks them.
    fn pick_all_shown(&mut self) -> Outcome {
        let can: Vec<usize> = (self.shown.iter().copied())
            .filter(|&i| self.opened.found[i].refused.is_none())
            .collect();
        let all = can.iter().all(|&i| self.picked[i]);
        for &i in &can {
            self.picked[i] = !all;
        }
        let refused = self.shown.len() - can.len();
        if !all && refused > 0 {
            return Outcome::KeepSaying(Status::error(format!(
                "picked {}; {refused} cannot be installed (✗: the install would refuse them)",
                can.len()
            )));
        }
        Outcome::Keep
    }

    pub fn picks(&self) -> Vec<&Found> {
        self.opened
            .found
            .iter()
            .zip(&self.picked)
            .filter(|(_, p)| **p)
            .map(|(f, _)| f)
            .collect()
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        match cmd {
            Cmd::Back if !self.filter.is_empty() => {
                self.filter.clear();
                self.refilter();
            }
            Cmd::Back => return Outcome::Say(Status::info("nothing installed")),
            Cmd::Toggle => return self.toggle(),
            Cmd::Accept if self.picked.iter().any(|p| *p) => return Outcome::InstallPicks,
            Cmd::Accept => {
                return Outcome::KeepSaying(Status::error(
                    "nothing picked: Space picks a skill, Esc cancels",
                ));
            }
            Cmd::Move(m) => self.sel = panes::move_in(self.sel, self.shown.len(), m, SHOWN as u16),
            _ => {}
        }
        Outcome::Keep
    }

    /// Space: a skill that would be refused at install is not picked, so
    /// it cannot sink the others' install.
    fn toggle(&mut self) -> Outcome {
        let Some(i) = self.current() else {
            return Outcome::Keep;
        };
        let (Some(found), Some(picked)) = (self.opened.found.get(i), self.picked.get_mut(i)) else {
            return Outcome::Keep;
        };
        if !*picked && let Some(why) = &found.refused {
            return Outcome::KeepSaying(Status::error(why.clone()));
        }
        *picked = !*picked;
        Outcome::Keep
    }

    /// Fits the rows to the screen and scrolls only as far as it takes to
    /// show the cursor's row.
    pub fn update(&mut self, area: Rect) {
        self.rows = usize::from(area.height.saturating_sub(NOT_ROWS)).clamp(1, SHOWN);
        self.width = usize::from(WIDTH.min(area.width).saturating_sub(2));
        self.top = panes::window(self.top, Some(self.sel), self.shown.len(), self.rows as u16);
    }

    /// One line per skill, never wrapped, so the cursor's row is always
    /// among those drawn however long the descriptions.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let text = self.text(theme);
        let rect = popup(
            area,
            WIDTH,
            u16::try_from(text.lines.len()).unwrap_or(u16::MAX) + 2,
        );
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(text).block(frame_block(theme, "Pick skills")),
            rect,
        );
    }

    fn text(&self, theme: &Theme) -> Text<'static> {
        let n = self.opened.found.len();
        let picked = self.picked.iter().filter(|p| **p).count();
        let mut lines = vec![
            Line::from(vec![
                Span::raw(format!(
                    "{} in {}",
                    panes::count(n, "skill"),
                    sanitize_line(&self.opened.label)
                )),
                Span::styled(format!(" · {picked} picked"), theme.accent),
            ]),
            Line::styled(self.keys_line(), theme.dim),
            self.filter_line(theme),
        ];
        let (start, rows) = (self.top, self.rows);
        if start > 0 {
            lines.push(Line::styled(format!("  ↑ {start} more above"), theme.dim));
        }
        for (pos, &i) in self.shown.iter().enumerate().skip(start).take(rows) {
            lines.push(self.row(pos, i, theme));
        }
        let shown = self.shown.len();
        if shown > start + rows {
            lines.push(Line::styled(
                format!("  ↓ {} more below", shown - start - rows),
                theme.dim,
            ));
        }
        Text::from(lines)
    }

    /// The keys that act now: while the filter is typed, Space and `a` are
    /// text, so Enter must end it first.
    fn keys_line(&self) -> &'static str {
        if self.typing {
            "typing the filter: Enter ends it (then Space picks), Esc clears it"
        } else {
            "Space picks, a all/none, / filter, Enter installs the picks, Esc cancels"
        }
    }

    /// The filter when there is one (or it is being typed), else a gap.
    fn filter_line(&self, theme: &Theme) -> Line<'static> {
        if !self.typing && self.filter.is_empty() {
            return Line::default();
        }
        let (before, after) = self.filter.split();
        let cursor = if self.typing { "▏" } else { "" };
        let count = format!("  {} of {}", self.shown.len(), self.opened.found.len());
        Line::from(vec![
            Span::styled("/", theme.accent),
            Span::raw(format!("{before}{cursor}{after}")),
            Span::styled(count, theme.dim),
        ])
    }

    /// One row, cut to the popup's width so that it never wraps or runs
    /// past the frame, highlighted or not.
    fn row(&self, pos: usize, i: usize, theme: &Theme) -> Line<'static> {
        let f = &self.opened.found[i];
        let tick = if self.picked[i] { "[x]" } else { "[ ]" };
        // The install's own verdict: CAO's, the hard limits, a clash of names.
        let (verdict, vstyle) = if f.refused.is_none() {
            ("✓", theme.ok)
        } else {
            ("✗", theme.error)
        };
        let state = match f.state {
            StoreState::New => "new",
            StoreState::Same => "same",
            StoreState::Different => "different",
        };
        let desc = f.checked.description.as_deref().unwrap_or("");
        let desc = desc.lines().next().unwrap_or("");
        let name = panes::elide_right(&sanitize_line(&f.name()), self.width.saturating_sub(6));
        let state = format!("  [{state}]");
        let used = 6 + UnicodeWidthStr::width(name.as_str()) + state.len();
        let desc = format!("  {}", sanitize_line(desc));
        let desc = panes::elide_right(&desc, self.width.saturating_sub(used));
        // The highlighted row in one style: the marks' colours could
        // vanish into the highlight.
        let selected = pos == self.sel;
        let style = |s| if selected { theme.selected } else { s };
        let line = Line::from(vec![
            Span::raw(format!("{tick} ")),
            Span::styled(format!("{verdict} "), style(vstyle)),
            Span::raw(name),
            Span::styled(state, style(theme.accent)),
            Span::styled(desc, style(theme.dim)),
        ]);
        if selected {
            line.style(theme.selected)
        } else {
            line
        }
    }
}
