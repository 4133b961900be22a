//! The dialogs over the panes. Each owns its state, turns a command or a
//! typed key into an `Outcome` for the app to carry out, and draws itself.

pub mod agents;
pub mod confirm;
pub mod edit;
pub mod fetch;
pub mod frame;
pub mod help;
pub mod install;
pub mod installing;
pub mod outcome;
pub mod pick;
pub mod results;
pub mod seed;

use ratatui::Frame;
use ratatui::layout::Rect;

pub use agents::ListAgents;
pub use confirm::Confirm;
pub use edit::Edit;
pub use fetch::Fetch;
pub use help::Help;
pub use install::Install;
pub use installing::Installing;
pub use outcome::{Outcome, Pending};
pub use pick::Pick;
pub use results::Results;
pub use seed::Seed;

use crate::tui::keymap::Ctx;
use crate::tui::markdown::Highlighter;
use crate::tui::theme::Theme;
use frame::popup_text;

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
    /// A registry search, running or answered.
    Results(Results),
    /// The pick dialog's install, on a worker.
    Installing(Installing),
    /// `A`: the agents pane 3 lists even when not detected.
    ListAgents(ListAgents),
}

impl Dialog {
    /// Where keys go while this dialog is open.
    pub fn ctx(&self) -> Ctx {
        match self {
            Dialog::Help(_) => Ctx::Help,
            Dialog::Install(_) => Ctx::Install,
            Dialog::Confirm(_) => Ctx::Confirm,
            // A list to tick, as the seed dialog's: the same keys.
            Dialog::Seed(_) | Dialog::ListAgents(_) => Ctx::Seed,
            Dialog::Edit(_) => Ctx::Editor,
            Dialog::Fetch(_) | Dialog::Installing(_) => Ctx::Fetch,
            Dialog::Pick(_) => Ctx::Pick,
            Dialog::Results(_) => Ctx::Results,
        }
    }

    /// Clamps what depends on the screen's size.
    pub fn update(&mut self, area: Rect) {
        match self {
            Dialog::Help(h) => h.update(area),
            Dialog::Seed(s) => s.update(area),
            Dialog::ListAgents(l) => l.update(area),
            Dialog::Pick(p) => p.update(area),
            _ => {}
        }
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme, hl: &Highlighter) {
        match self {
            Dialog::Help(h) => h.render(frame, area, theme),
            Dialog::Edit(e) => e.render(frame, area, theme),
            Dialog::Fetch(f) => f.render(frame, area, theme),
            Dialog::Pick(p) => p.render(frame, area, theme),
            Dialog::Installing(i) => i.render(frame, area, theme),
            Dialog::Install(i) => {
                popup_text(frame, area, theme, "Install", i.text(theme), (80, 16))
            }
            Dialog::Results(r) => r.render(frame, area, theme, hl),
            Dialog::Seed(s) => {
                popup_text(frame, area, theme, "Seed defaults", s.text(theme), s.size())
            }
            Dialog::ListAgents(l) => popup_text(
                frame,
                area,
                theme,
                "Agents to list",
                l.text(theme),
                l.size(),
            ),
            Dialog::Confirm(c) => {
                let (title, text, size) = c.question(theme);
                popup_text(frame, area, theme, title, text, size)
            }
        }
    }
}
