//! The frame: where the panes go (four, two or one by width), the status
//! line, and the draw, which reads `&App` only: `App::update` has laid
//! everything out and filled every cache before it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use crate::core::text::sanitize_line;
use crate::tui::app::{App, Level, Mode, Status};
use crate::tui::keymap::{self, Bar};
use crate::tui::panes::{Look, Pane};

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

/// The update pass, then a draw that only reads the App (the event loop,
/// tests and tools all draw through here).
pub fn draw(frame: &mut Frame, app: &mut App) {
    app.update(frame.area());
    render(frame, app);
}

/// Draws `app` as the last update pass laid it out.
pub fn render(frame: &mut Frame, app: &App) {
    let area = frame.area();
    frame.render_widget(Block::default().style(app.theme.base), area);
    let look = Look {
        theme: &app.theme,
        focus: app.focus,
    };
    let a = app.areas;
    let data = &app.data;
    let filtering = app.mode == Mode::Filter;
    app.skills
        .render(frame, a.skills, &look, &data.listing, filtering);
    app.preview
        .render(frame, a.preview, &look, app.selected_entry());
    app.profiles.render(frame, a.profiles, &look, data);
    app.catalog.render(frame, a.catalog, &look);
    render_status(frame, app, a.status);
    if let Some(d) = &app.dialog {
        d.render(frame, area, &app.theme);
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

fn render_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let line = match &app.status {
        Some(s) => {
            let style = match s.level {
                Level::Error => theme.status_err,
                Level::Info => theme.status_ok,
            };
            Line::styled(format!(" {} ", sanitize_line(&s.text)), style)
        }
        None => {
            let bar = if app.profiles.in_checklist() && app.focus == Pane::Profiles {
                Bar::Checklist
            } else {
                Bar::Main
            };
            Line::styled(hint_bar(bar, usize::from(area.width)), theme.dim)
        }
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
}

/// The widest tier of `bar` that fits in `width`, else the narrowest.
fn hint_bar(bar: Bar, width: usize) -> String {
    (0..=keymap::tiers(bar))
        .rev()
        .map(|t| keymap::hints(bar, t))
        .find(|h| h.chars().count() <= width)
        .unwrap_or_else(|| keymap::hints(bar, 0))
}
