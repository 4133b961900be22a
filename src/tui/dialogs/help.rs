//! `?`: every key, generated from the keymap.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::{self, Cmd};
use crate::tui::markdown::wrap_line;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// Room for the keys column.
const KEY_COL: usize = 29;
/// The popup's widest.
const WIDTH: u16 = 80;

#[derive(Debug, Default)]
pub struct Help {
    pub scroll: u16,
    /// The rows below the view: scrolling stops there.
    max: u16,
    /// The CAO in use (or why none was found), worked out when help opens.
    cao: String,
}

impl Help {
    pub fn new(cao: String) -> Help {
        Help {
            cao,
            ..Help::default()
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        match cmd {
            Cmd::Back => Outcome::Close,
            Cmd::Move(m) => {
                self.scroll = panes::scroll(self.scroll, m, 10);
                Outcome::Keep
            }
            _ => Outcome::Keep,
        }
    }

    fn rect(&self, area: Rect) -> Rect {
        // As tall as the text at the widest the popup gets.
        let full = help_text(usize::from(WIDTH - 2), &self.cao).lines.len() as u16;
        popup(area, WIDTH, full.saturating_add(2))
    }

    pub fn update(&mut self, area: Rect) {
        let rect = self.rect(area);
        let text = help_text(usize::from(rect.width.saturating_sub(2)), &self.cao);
        let view = rect.height.saturating_sub(2);
        self.max = (text.lines.len() as u16).saturating_sub(view);
        self.scroll = self.scroll.min(self.max);
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let rect = self.rect(area);
        let text = help_text(usize::from(rect.width.saturating_sub(2)), &self.cao);
        let title = if self.max > 0 {
            "Keys · j/k scroll"
        } else {
            "Keys"
        };
        frame.render_widget(Clear, rect);
        let para = Paragraph::new(text)
            .block(frame_block(theme, title))
            .scroll((self.scroll, 0));
        frame.render_widget(para, rect);
    }
}

/// The CAO in use, then the keys in two columns, wrapped under their
/// description; when the width is too small for two columns, each key
/// above its description.
pub fn help_text(width: usize, cao: &str) -> Text<'static> {
    let mut lines = wrap_line(&Line::from(sanitize_line(cao).into_owned()), width.max(1));
    lines.push(Line::default());
    for (k, v) in keymap::help_rows() {
        let two_columns = width >= KEY_COL + 20;
        let fits = unicode_width::UnicodeWidthStr::width(k) < KEY_COL;
        let (first, indent) = match (two_columns, fits) {
            (true, true) => (format!("{k:28} "), KEY_COL),
            // Keys longer than their column stand on their own line.
            (true, false) => {
                lines.push(Line::from(k.to_string()));
                (" ".repeat(KEY_COL), KEY_COL)
            }
            (false, _) => {
                lines.push(Line::from(k.to_string()));
                (String::from("  "), 2)
            }
        };
        let rows = wrap_line(
            &Line::from(v.to_string()),
            width.saturating_sub(indent).max(1),
        );
        for (n, row) in rows.into_iter().enumerate() {
            let lead = if n == 0 {
                first.clone()
            } else {
                " ".repeat(indent)
            };
            let mut spans = vec![Span::raw(lead)];
            spans.extend(row.spans);
            lines.push(Line::from(spans));
        }
    }
    Text::from(lines)
}
