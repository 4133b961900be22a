//! The frame: where the panes go (four, two or one by width), the status
//! line, and the draw, which reads `&App` only: `App::update` has laid
//! everything out and filled every cache before it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use crate::core::text::sanitize_line;
use crate::tui::app::App;
use crate::tui::keymap;
use crate::tui::model::{Level, Mode};
use crate::tui::panes::{self, Look};

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
    render_home(frame, app);
    render_status(frame, app, a.status);
    if let Some(d) = &app.dialog {
        d.render(frame, area, &app.theme, &app.hl);
    }
    crate::tui::colors::map_buffer(frame.buffer_mut(), app.depth);
}

/// The home in use on the bottom border of the Skills pane (else of the
/// Profiles pane): a typo in `--home` must not look like an empty store.
fn render_home(frame: &mut Frame, app: &App) {
    let a = app.areas;
    let Some(pane) = [a.skills, a.profiles].into_iter().find(|r| r.height > 2) else {
        return;
    };
    // Inside the corners, one column of border kept on the right.
    let room = usize::from(pane.width.saturating_sub(3));
    if room < 12 {
        return;
    }
    let home = &app.data.home;
    let path = panes::tilde(&home.root, &home.user_home);
    // The word and the path's tail stay longest: the path is cut from the
    // left at a folder, with `…` where it was cut, then the padding goes.
    let label = [
        format!(" home {path} "),
        format!(" home {} ", panes::elide_path(&path, room - 7)),
        format!("home {}", panes::elide_path(&path, room - 5)),
    ]
    .into_iter()
    .find(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= room)
    .unwrap_or_else(|| format!("home {}", panes::elide_left(&path, room - 5)));
    let width = u16::try_from(unicode_width::UnicodeWidthStr::width(label.as_str()))
        .unwrap_or(pane.width)
        .min(pane.width.saturating_sub(3));
    let at = Rect::new(
        pane.right().saturating_sub(width + 2).max(pane.x + 1),
        pane.bottom() - 1,
        width,
        1,
    );
    frame.render_widget(Line::styled(label, app.theme.dim), at);
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
        None => Line::styled(hint_bar(app, usize::from(area.width)), theme.dim),
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
}

/// The widest tier of the bar that fits in `width`, else the narrowest;
/// a command with nothing to act on now is not offered.
fn hint_bar(app: &App, width: usize) -> String {
    let ctx = app.ctx();
    let can = |cmd| app.can(cmd);
    (0..=keymap::tiers(ctx, &can))
        .rev()
        .map(|t| keymap::hints(ctx, t, &can))
        .find(|h| h.chars().count() <= width)
        .unwrap_or_else(|| keymap::hints(ctx, 0, &can))
}
