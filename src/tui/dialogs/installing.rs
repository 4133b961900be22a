//! The pick dialog's install, running on a worker: how many were picked,
//! which one is being written (k of N), and each one's outcome. Esc stops
//! between two skills, never inside one: each install is atomic.

use std::sync::atomic::Ordering;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::sources::git::Cancel;
use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// The popup's widest.
const WIDTH: u16 = 100;
/// The outcome lines shown at most (the latest ones).
const OUTCOMES_SHOWN: usize = 12;

#[derive(Debug)]
pub struct Installing {
    /// The worker's job.
    pub id: u64,
    /// The source, sanitized.
    label: String,
    /// How many were picked.
    of: usize,
    /// The skill being written now, and its number from 1.
    pub writing: Option<(usize, String)>,
    /// Each finished skill's outcome line, and whether it failed.
    pub outcomes: Vec<(String, bool)>,
    cancel: Cancel,
    /// Esc was pressed: the worker stops after the skill it is writing.
    pub stopping: bool,
    /// The worker is done: Enter or Esc closes.
    pub ended: bool,
    /// The clashes the user kept, for the closing line.
    pub kept: Vec<String>,
    /// The first skill installed: selected once all are done.
    pub first: Option<String>,
}

impl Installing {
    pub fn new(id: u64, label: &str, of: usize, cancel: Cancel) -> Installing {
        Installing {
            id,
            label: sanitize_line(label).into_owned(),
            of,
            writing: None,
            outcomes: Vec::new(),
            cancel,
            stopping: false,
            ended: false,
            kept: Vec::new(),
            first: None,
        }
    }

    /// Esc asks the worker to stop between skills; once it ended, Enter
    /// or Esc closes.
    pub fn on_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) -> Outcome {
        let back = cmd == Some(Cmd::Back) || key.code == KeyCode::Esc;
        if self.ended && (back || key.code == KeyCode::Enter) {
            return Outcome::Close;
        }
        if back && !self.stopping {
            self.cancel.store(true, Ordering::SeqCst);
            self.stopping = true;
            return Outcome::KeepSaying(Status::info(
                "stopping after the skill being written: each install is whole or not at all",
            ));
        }
        Outcome::Keep
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let text = self.text(area, theme);
        let h = u16::try_from(text.lines.len()).unwrap_or(u16::MAX) + 2;
        let rect = popup(area, WIDTH, h);
        frame.render_widget(Clear, rect);
        let title = if self.ended {
            "Installed"
        } else {
            "Installing"
        };
        frame.render_widget(Paragraph::new(text).block(frame_block(theme, title)), rect);
    }

    fn text(&self, area: Rect, theme: &Theme) -> Text<'static> {
        let width = usize::from(WIDTH.min(area.width).saturating_sub(2));
        let done = self.outcomes.len();
        let mut lines = vec![Line::from(vec![
            Span::raw(format!("{} picked from {}", self.of, self.label)),
            Span::styled(format!(" · {done} of {} done", self.of), theme.accent),
        ])];
        lines.push(Line::styled(self.now(), theme.dim));
        // The latest outcomes that fit: frame, two lines above, one below.
        let room = usize::from(area.height.saturating_sub(6)).clamp(1, OUTCOMES_SHOWN);
        // With some left out, their line takes one of the rows.
        let skip = match done > room {
            true => done - room + 1,
            false => 0,
        };
        if skip > 0 {
            lines.push(Line::styled(format!("  ↑ {skip} more above"), theme.dim));
        }
        for (line, failed) in self.outcomes.iter().skip(skip) {
            let (mark, style) = if *failed {
                ("✗ ", theme.error)
            } else {
                ("✓ ", theme.ok)
            };
            lines.push(Line::from(vec![
                Span::styled(mark, style),
                Span::raw(panes::elide_right(line, width.saturating_sub(2))),
            ]));
        }
        lines.push(Line::styled(self.keys(), theme.dim));
        Text::from(lines)
    }

    /// What the worker is doing now.
    pub fn now(&self) -> String {
        match (&self.writing, self.ended) {
            (_, true) if self.outcomes.len() < self.of => format!(
                "stopped: {} not installed",
                panes::count(self.of - self.outcomes.len(), "pick")
            ),
            (_, true) => "all picks done".to_string(),
            (Some((k, name)), false) => {
                format!("writing {k} of {}: {}", self.of, sanitize_line(name))
            }
            (None, false) => "starting".to_string(),
        }
    }

    /// The status line's words once it ended: each outcome when there are
    /// few, else how many went which way.
    pub fn summary(&self) -> Vec<String> {
        if self.outcomes.len() <= 3 {
            return self.outcomes.iter().map(|(l, _)| l.clone()).collect();
        }
        let failed = self.outcomes.iter().filter(|(_, f)| *f).count();
        let mut said = vec![format!(
            "{} of {} installed",
            self.outcomes.len() - failed,
            panes::count(self.of, "pick")
        )];
        if failed > 0 {
            said.push(format!("{failed} failed (listed in the dialog)"));
        }
        said
    }

    fn keys(&self) -> &'static str {
        match (self.ended, self.stopping) {
            (true, _) => "Enter or Esc closes",
            (false, true) => "stopping after the skill being written…",
            (false, false) => "Esc stops after the skill being written",
        }
    }
}
