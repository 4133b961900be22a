//! `?`: every key, generated from the keymap.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::{self, Cmd};
use crate::tui::markdown::wrap_line;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// The least room the descriptions keep beside the keys column.
const MIN_HELP: usize = 24;
/// Below this, a keys column is too narrow to be one: keys go above.
const MIN_KEY_COL: usize = 12;
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
        let full = help_text(usize::from(WIDTH - 2), &self.cao, Style::default())
            .lines
            .len();
        let full = u16::try_from(full).unwrap_or(u16::MAX);
        popup(area, WIDTH, full.saturating_add(2))
    }

    pub fn update(&mut self, area: Rect) {
        let rect = self.rect(area);
        let width = usize::from(rect.width.saturating_sub(2));
        let text = help_text(width, &self.cao, Style::default());
        let view = rect.height.saturating_sub(2);
        self.max = (text.lines.len() as u16).saturating_sub(view);
        self.scroll = self.scroll.min(self.max);
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let rect = self.rect(area);
        let width = usize::from(rect.width.saturating_sub(2));
        let text = help_text(width, &self.cao, theme.title);
        let title = if self.max > 0 {
            "Keys · j/k scroll"
        } else {
            "Keys"
        };
        let mut block = frame_block(theme, title);
        // More below: say so where the eye stops, on the bottom border.
        if self.scroll < self.max {
            let more = format!(
                " ↓ {} more ",
                panes::count(usize::from(self.max - self.scroll), "line")
            );
            block = block.title_bottom(Line::styled(more, theme.accent).right_aligned());
        }
        frame.render_widget(Clear, rect);
        let para = Paragraph::new(text).block(block).scroll((self.scroll, 0));
        frame.render_widget(para, rect);
    }
}

/// The CAO in use, then the keys grouped by pane (as lazygit's help
/// groups them), each group under its heading, in two columns wrapped
/// under their description; when the width is too small for two columns,
/// each key above its description.
pub fn help_text(width: usize, cao: &str, heading: Style) -> Text<'static> {
    let mut lines = wrap_line(&Line::from(sanitize_line(cao).into_owned()), width.max(1));
    let col = key_column(width);
    let mut group = None;
    for (g, k, v) in keymap::grouped_rows() {
        if group != Some(g) {
            group = Some(g);
            lines.push(Line::default());
            lines.push(Line::styled(g.label().to_string(), heading));
        }
        lines.extend(key_lines(k, v, col, width));
    }
    Text::from(lines)
}

/// The keys column: as wide as the widest key (and a space), leaving the
/// descriptions [`MIN_HELP`] columns; 0 when two columns do not fit.
fn key_column(width: usize) -> usize {
    use unicode_width::UnicodeWidthStr;
    let widest = keymap::help_rows().map(|(k, _)| k.width()).max();
    let col = (widest.unwrap_or(0) + 1)
        .min(width / 2)
        .min(width.saturating_sub(MIN_HELP));
    match col >= MIN_KEY_COL {
        true => col,
        false => 0,
    }
}

/// One key's lines: the key in its column and the description wrapped
/// beside it; a key wider than its column (or no column) stands on its own
/// line with the description indented under it.
fn key_lines(k: &str, v: &str, col: usize, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let fits = col > 0 && unicode_width::UnicodeWidthStr::width(k) < col;
    let (first, indent) = match (col > 0, fits) {
        (true, true) => (format!("{k:w$}", w = col), col),
        (true, false) => {
            lines.push(Line::from(k.to_string()));
            (" ".repeat(col), col)
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
    lines
}
