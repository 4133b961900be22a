//! The dialogs over the panes. Each owns its state, turns a command or a
//! typed key into an `Outcome` for the app to carry out, and draws itself.

pub mod confirm;
pub mod edit;
pub mod fetch;
pub mod help;
pub mod install;
pub mod pick;
pub mod seed;

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Span, Text};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

pub use confirm::{Confirm, Pending};
pub use edit::Edit;
pub use fetch::Fetch;
pub use help::Help;
pub use install::Install;
pub use pick::Pick;
pub use seed::Seed;

use crate::tui::app::Status;
use crate::tui::keymap::Ctx;
use crate::tui::panes::wrapped_height;
use crate::tui::theme::Theme;

#[derive(Debug)]
pub enum Dialog {
    Help(Help),
    Install(Install),
    /// A yes/no question before a change: replace, remove, write a list.
    Confirm(Confirm),
    Seed(Seed),
    Edit(Box<Edit>),
    /// A source being fetched.
    Fetch(Fetch),
    /// The skills found in a source.
    Pick(Box<Pick>),
}

/// What a dialog asks of the app after a key.
#[derive(Debug)]
pub enum Outcome {
    Keep,
    Close,
    /// Close, showing this.
    Say(Status),
    /// Keep the dialog open, showing this.
    KeepSaying(Status),
    /// The user said yes.
    Run(Pending),
    /// A checked skill folder and the name it installs under.
    Install {
        src: PathBuf,
        name: String,
    },
    /// Open this SOURCE (git, or a folder of skills) on a worker.
    Open(String),
    /// Install what the pick dialog has picked.
    InstallPicks,
    /// The user kept the installed skill of this name.
    Declined(String),
    Seed(Vec<String>),
    /// The editor saved this file.
    Saved(PathBuf),
}

impl Dialog {
    /// Where keys go while this dialog is open.
    pub fn ctx(&self) -> Ctx {
        match self {
            Dialog::Help(_) => Ctx::Help,
            Dialog::Install(_) => Ctx::Install,
            Dialog::Confirm(_) => Ctx::Confirm,
            Dialog::Seed(_) => Ctx::Seed,
            Dialog::Edit(_) => Ctx::Editor,
            Dialog::Fetch(_) => Ctx::Fetch,
            Dialog::Pick(_) => Ctx::Pick,
        }
    }

    /// Clamps what depends on the screen's size.
    pub fn update(&mut self, area: Rect) {
        match self {
            Dialog::Help(h) => h.update(area),
            Dialog::Seed(s) => s.update(area),
            Dialog::Pick(p) => p.update(area),
            _ => {}
        }
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        match self {
            Dialog::Help(h) => h.render(frame, area, theme),
            Dialog::Edit(e) => e.render(frame, area, theme),
            Dialog::Fetch(f) => f.render(frame, area, theme),
            Dialog::Pick(p) => p.render(frame, area, theme),
            Dialog::Install(i) => {
                popup_text(frame, area, theme, "Install", i.text(theme), (80, 16))
            }
            Dialog::Seed(s) => {
                popup_text(frame, area, theme, "Seed defaults", s.text(theme), s.size())
            }
            Dialog::Confirm(c) => {
                let (title, text, size) = c.question(theme);
                popup_text(frame, area, theme, title, text, size)
            }
        }
    }
}

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
fn popup_text(
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
