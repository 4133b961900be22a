//! While a source is fetched: its phase and percent as a gauge; Esc
//! cancels (the core kills git and removes the staging folder).

use std::sync::atomic::Ordering;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Gauge, Paragraph};

use crate::core::sources::git::{Cancel, Progress};
use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::theme::Theme;

#[derive(Debug)]
pub struct Fetch {
    /// The job doing the fetch.
    pub id: u64,
    pub source: String,
    pub progress: Option<Progress>,
    pub cancel: Cancel,
    /// An update (`u`): install what was fetched, asking only on a change.
    pub update: bool,
}

impl Fetch {
    pub fn new(id: u64, source: &str, cancel: Cancel) -> Fetch {
        Fetch {
            id,
            source: sanitize_line(source).into_owned(),
            progress: None,
            cancel,
            update: false,
        }
    }

    pub fn on_cmd(&self, cmd: Cmd) -> Outcome {
        if cmd != Cmd::Back {
            return Outcome::Keep;
        }
        self.cancel.store(true, Ordering::SeqCst);
        Outcome::Say(Status::info(format!(
            "cancelled opening {}: nothing was installed",
            self.source
        )))
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let rect = popup(area, 72, 5);
        frame.render_widget(Clear, rect);
        let block = frame_block(theme, "Opening");
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [what, gauge, hint] = Layout::vertical([Constraint::Length(1); 3]).areas(inner);
        frame.render_widget(
            Paragraph::new(Line::from(format!("Opening {}", self.source))),
            what,
        );
        let (phase, percent) = match &self.progress {
            Some(p) => (sanitize_line(&p.phase).into_owned(), p.percent.min(100)),
            None => ("Starting".to_string(), 0),
        };
        let gauge_widget = Gauge::default()
            .gauge_style(theme.accent)
            .percent(u16::from(percent))
            .label(format!("{phase} {percent}%"));
        frame.render_widget(gauge_widget, gauge);
        frame.render_widget(Paragraph::new(Line::styled("Esc cancels", theme.dim)), hint);
    }
}
