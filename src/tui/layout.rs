//! Where the panes go: four, two or one by the screen's width, and the
//! status line's rows. The update pass lays out; the draw only reads.

use ratatui::layout::{Constraint, Layout, Position, Rect};

use crate::core::text::sanitize_line;
use crate::tui::model::{Pane, Status};

/// Wide enough for all four panes at once.
const FULL_WIDTH: u16 = 100;
/// Below this, one pane at a time.
const PAIR_WIDTH: u16 = 60;

/// Where each pane goes; a pane that does not fit gets an empty rect.
#[derive(Clone, Copy, Debug, Default)]
pub struct Areas {
    pub skills: Rect,
    pub preview: Rect,
    pub profiles: Rect,
    pub catalog: Rect,
    pub status: Rect,
}

impl Areas {
    pub fn pane_at(&self, at: Position) -> Option<Pane> {
        [
            (self.skills, Pane::Skills),
            (self.preview, Pane::Preview),
            (self.profiles, Pane::Profiles),
            (self.catalog, Pane::Catalog),
        ]
        .into_iter()
        .find(|(r, _)| r.contains(at))
        .map(|(_, p)| p)
    }
}

/// The panes and the status line for the whole screen `area`.
pub fn layout(area: Rect, focus: Pane, status: Option<&Status>) -> Areas {
    let rows = status_height(status, area);
    let [body, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(rows)]).areas(area);
    let mut a = Areas {
        status,
        ..Areas::default()
    };
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(38), Constraint::Percentage(62)]).areas(body);
    if body.width >= FULL_WIDTH && body.height >= 16 {
        let halves = [Constraint::Percentage(55), Constraint::Percentage(45)];
        [a.skills, a.profiles] = Layout::vertical(halves).areas(left);
        [a.preview, a.catalog] = Layout::vertical(halves).areas(right);
    } else if body.width < PAIR_WIDTH {
        match focus {
            Pane::Skills => a.skills = body,
            Pane::Preview => a.preview = body,
            Pane::Profiles => a.profiles = body,
            Pane::Catalog => a.catalog = body,
        }
    } else if matches!(focus, Pane::Skills | Pane::Preview) {
        (a.skills, a.preview) = (left, right);
    } else {
        (a.profiles, a.catalog) = (left, right);
    }
    a
}

/// A message takes up to three rows, wrapped, so that its fix stays
/// readable; the key hints take one.
fn status_height(status: Option<&Status>, area: Rect) -> u16 {
    let Some(status) = status else {
        return 1;
    };
    let width = usize::from(area.width.max(1));
    let cols = unicode_width::UnicodeWidthStr::width(sanitize_line(&status.text).as_ref()) + 2;
    let rows = cols.div_ceil(width).clamp(1, 3) as u16;
    rows.min(area.height / 4).max(1)
}
