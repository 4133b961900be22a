//! How every dialog looks: a double frame, centered over the panes.

use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, BorderType, Borders};

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
