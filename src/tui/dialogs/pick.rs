//! The skills found in a source, to pick from: each with CAO's verdict and
//! how it compares with the store. Space picks, Enter installs the picks.

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::sources::remote::Opened;
use crate::core::sources::source::{Found, StoreState};
use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
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
}

/// Rows of skills shown at once, screen allowing (also a page's move).
const SHOWN: usize = 12;
/// The popup's lines that are not rows: frame, heading, hint, gap, "… more".
const NOT_ROWS: u16 = 6;

pub struct Pick {
    pub opened: Opened,
    pub picked: Vec<bool>,
    pub sel: usize,
    /// The first row shown, and how many fit (set by `update`).
    top: usize,
    rows: usize,
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
            opened,
            sel: 0,
            top: 0,
            rows: SHOWN,
        }
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
            Cmd::Back => return Outcome::Say(Status::info("nothing installed")),
            Cmd::Toggle => return self.toggle(),
            Cmd::Accept if self.picked.iter().any(|p| *p) => return Outcome::InstallPicks,
            Cmd::Accept => {
                return Outcome::KeepSaying(Status::error(
                    "nothing picked: Space picks a skill, Esc cancels",
                ));
            }
            Cmd::Move(m) => self.sel = panes::move_in(self.sel, self.picked.len(), m, SHOWN as u16),
            _ => {}
        }
        Outcome::Keep
    }

    /// Space: a skill that would be refused at install is not picked, so
    /// it cannot sink the others' install.
    fn toggle(&mut self) -> Outcome {
        let (Some(found), Some(picked)) = (
            self.opened.found.get(self.sel),
            self.picked.get_mut(self.sel),
        ) else {
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
        self.top = panes::window(
            self.top,
            Some(self.sel),
            self.picked.len(),
            self.rows as u16,
        );
    }

    /// One line per skill, never wrapped, so the cursor's row is always
    /// among those drawn however long the descriptions.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let text = self.text(theme);
        let rect = popup(
            area,
            100,
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
        let mut lines = vec![
            Line::from(format!(
                "{n} skill{} in {}",
                if n == 1 { "" } else { "s" },
                self.opened.label
            )),
            Line::styled(
                "Space picks, Enter installs the picked ones, Esc cancels",
                theme.dim,
            ),
            Line::default(),
        ];
        let (start, rows) = (self.top, self.rows);
        for (i, f) in self.opened.found.iter().enumerate().skip(start).take(rows) {
            lines.push(self.row(i, f, theme));
        }
        if n > start + rows {
            lines.push(Line::styled(
                format!("  … and {} more", n - start - rows),
                theme.dim,
            ));
        }
        Text::from(lines)
    }

    fn row(&self, i: usize, f: &Found, theme: &Theme) -> Line<'static> {
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
        let line = Line::from(vec![
            Span::raw(format!("{tick} ")),
            Span::styled(format!("{verdict} "), vstyle),
            Span::raw(sanitize_line(&f.name()).into_owned()),
            Span::styled(format!("  [{state}]"), theme.accent),
            Span::styled(format!("  {}", sanitize_line(desc)), theme.dim),
        ]);
        if i == self.sel {
            line.style(theme.selected)
        } else {
            line
        }
    }
}
