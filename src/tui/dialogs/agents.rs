//! `A` in pane 3: which agents to list whether detected or not, saved in
//! the file `core::agents::asked` owns.

use ratatui::layout::Rect;
use ratatui::text::{Line, Text};

use crate::core::text::sanitize_line;
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::dialogs::seed::{list_window, more_line};
use crate::tui::keymap::Cmd;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// One known agent.
#[derive(Debug)]
pub struct Known {
    pub id: String,
    pub name: String,
    pub detected: bool,
}

#[derive(Debug)]
pub struct ListAgents {
    pub items: Vec<Known>,
    pub chosen: Vec<bool>,
    pub cursor: usize,
    /// Ids `SKILLTUI_AGENTS` adds: listed whatever is ticked here.
    env: Vec<String>,
    /// Where the choice is saved, as shown (`~` for the home).
    file: String,
    /// What the file held when read: the write checks it still does.
    pub expected: Option<Vec<u8>>,
    /// Rows of the list the screen has room for.
    view: u16,
    /// Columns inside the popup.
    width: u16,
}

impl ListAgents {
    pub fn new(items: Vec<Known>, asked: &[String], env: Vec<String>, file: String) -> ListAgents {
        let chosen = items.iter().map(|k| asked.contains(&k.id)).collect();
        ListAgents {
            items,
            chosen,
            cursor: 0,
            env,
            file,
            expected: None,
            view: u16::MAX,
            width: u16::MAX,
        }
    }

    pub fn update(&mut self, area: Rect) {
        // The popup's border, the two lines above the list, the three under.
        self.view = area.height.saturating_sub(9);
        self.width = area.width.min(self.size().0).saturating_sub(2);
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        match cmd {
            Cmd::Back => return Outcome::Close,
            Cmd::Toggle => {
                if let Some(c) = self.chosen.get_mut(self.cursor) {
                    *c = !*c;
                }
            }
            Cmd::Accept => {
                let ids = (self.items.iter().zip(&self.chosen))
                    .filter(|(_, c)| **c)
                    .map(|(k, _)| k.id.clone())
                    .collect();
                return Outcome::ListAgents(ids);
            }
            Cmd::Move(m) => self.cursor = panes::move_in(self.cursor, self.items.len(), m, 10),
            _ => {}
        }
        Outcome::Keep
    }

    pub fn size(&self) -> (u16, u16) {
        (72, u16::MAX)
    }

    pub fn text(&self, theme: &Theme) -> Text<'static> {
        let mut lines = vec![
            Line::from("List in pane 3 even when not detected"),
            Line::styled("Space ticks, Enter saves, Esc closes", theme.dim),
        ];
        let total = self.items.len();
        let (first, shown) = list_window(total, self.cursor, self.view);
        let cut = shown < total;
        // `↑ N more above`, or the blank line that stands in its place.
        lines.push(more_line(first, "above", theme));
        let rows = (self.items.iter().zip(&self.chosen).enumerate())
            .skip(first)
            .take(shown);
        for (i, (k, c)) in rows {
            let box_ = if *c { "[x]" } else { "[ ]" };
            let note = match (k.detected, self.env.contains(&k.id)) {
                (_, true) => "SKILLTUI_AGENTS lists it",
                (true, false) => "detected",
                (false, false) => "",
            };
            let id = sanitize_line(&k.id);
            let name = sanitize_line(&k.name);
            let row = format!("{box_} {id:16} {name:22} {note}");
            let style = if i == self.cursor {
                theme.selected
            } else {
                theme.base
            };
            lines.push(Line::styled(row.trim_end().to_string(), style));
        }
        if cut {
            lines.push(more_line(total - (first + shown), "below", theme));
        }
        lines.push(Line::default());
        // The path cut at a folder, never inside a name.
        let room = usize::from(self.width).saturating_sub("saved in ".len());
        let file = panes::elide_path(&self.file, room);
        lines.push(Line::styled(format!("saved in {file}"), theme.dim));
        Text::from(lines)
    }
}
