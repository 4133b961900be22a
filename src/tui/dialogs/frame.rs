//! How every dialog looks: a double frame, centered over the panes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Span, Text};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use crate::tui::panes::wrapped_height;
use crate::tui::theme::Theme;

/// A dialog's double frame.
pub fn frame_block<'a>(theme: &Theme, title: &str) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(format!(" {title} "), theme.title))
        .style(theme.base)
}

/// A centered popup of at most `w` x `h`.
pub fn popup(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// `text` in a popup as tall as it needs, up to `size`.
pub fn popup_text(
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    title: &str,
    text: Text,
    size: (u16, u16),
) {
    let content_width = size.0.min(area.width).saturating_sub(2);
    let needed = wrapped_height(&text.lines, content_width).saturating_add(2);
    let rect = popup(area, size.0, size.1.min(needed));
    frame.render_widget(Clear, rect);
    let para = Paragraph::new(text)
        .block(frame_block(theme, title))
        .wrap(Wrap { trim: false });
    frame.render_widget(para, rect);
}
