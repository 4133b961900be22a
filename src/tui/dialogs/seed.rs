//! `S`: pick which default skills to seed.

use ratatui::text::{Line, Text};

use crate::core::store::DefaultSkill;
use crate::core::text::sanitize_line;
use crate::tui::app::Status;
use crate::tui::dialogs::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::panes;
use crate::tui::theme::Theme;

#[derive(Debug)]
pub struct Seed {
    pub items: Vec<DefaultSkill>,
    pub chosen: Vec<bool>,
    pub cursor: usize,
}

impl Seed {
    /// The missing ones picked.
    pub fn new(items: Vec<DefaultSkill>) -> Seed {
        let chosen = items.iter().map(|d| !d.present).collect();
        Seed {
            items,
            chosen,
            cursor: 0,
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        match cmd {
            Cmd::Back => return Outcome::Close,
            Cmd::Toggle => {
                if let (Some(c), Some(item)) = (
                    self.chosen.get_mut(self.cursor),
                    self.items.get(self.cursor),
                ) {
                    *c = !*c && !item.present;
                }
            }
            Cmd::Accept => {
                let names: Vec<String> = self
                    .items
                    .iter()
                    .zip(&self.chosen)
                    .filter(|(_, c)| **c)
                    .map(|(d, _)| d.name.clone())
                    .collect();
                if names.is_empty() {
                    return Outcome::Say(Status::info("nothing chosen to seed"));
                }
                return Outcome::Seed(names);
            }
            Cmd::Move(m) => self.cursor = panes::move_in(self.cursor, self.items.len(), m, 10),
            _ => {}
        }
        Outcome::Keep
    }

    pub fn size(&self) -> (u16, u16) {
        (72, self.items.len() as u16 + 12)
    }

    pub fn text(&self, theme: &Theme) -> Text<'static> {
        let mut lines = vec![
            Line::from("Default skills (Space picks, Enter seeds, Esc closes)"),
            Line::default(),
        ];
        for (i, (d, c)) in self.items.iter().zip(&self.chosen).enumerate() {
            let (box_, note) = match (d.present, *c) {
                (true, _) => ("   ", "already present (kept)"),
                (false, true) => ("[x]", "new"),
                (false, false) => ("[ ]", "new"),
            };
            let style = if i == self.cursor {
                theme.selected
            } else if d.present {
                theme.dim
            } else {
                theme.base
            };
            lines.push(Line::styled(format!("{box_} {:28} {note}", d.name), style));
        }
        // What the highlighted one is for, so the pick is informed.
        if let Some(d) = self.items.get(self.cursor) {
            lines.push(Line::default());
            lines.push(Line::styled(
                sanitize_line(&d.description).into_owned(),
                theme.dim,
            ));
        }
        Text::from(lines)
    }
}
