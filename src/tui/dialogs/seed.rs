//! `S`: pick which default skills to seed.

use ratatui::layout::Rect;
use ratatui::text::{Line, Text};

use crate::core::cao::store::DefaultSkill;
use crate::core::text::sanitize_line;
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// `↑ 3 more above`, or an empty line when there are none.
pub(crate) fn more_line(n: usize, place: &str, theme: &Theme) -> Line<'static> {
    let arrow = if place == "above" { "↑" } else { "↓" };
    match n {
        0 => Line::default(),
        n => Line::styled(format!("  {arrow} {n} more {place}"), theme.dim),
    }
}

/// The rows of a dialog's list of `total` that show in `view` rows around
/// `cursor`: (first, how many). Cut short, the list gives two of its rows
/// to the `more above` and `more below` lines.
pub(crate) fn list_window(total: usize, cursor: usize, view: u16) -> (usize, usize) {
    let view = match total > usize::from(view.max(1)) {
        true => view.saturating_sub(2).max(1),
        false => view,
    };
    let first = panes::window(0, Some(cursor), total, view);
    (first, total.min(usize::from(view.max(1))))
}

#[derive(Debug)]
pub struct Seed {
    pub items: Vec<DefaultSkill>,
    pub chosen: Vec<bool>,
    pub cursor: usize,
    /// Where CAO's skills come from, when no CAO was found.
    note: Option<String>,
    /// Rows of the list the screen has room for.
    view: u16,
}

impl Seed {
    /// The missing ones picked.
    pub fn new(items: Vec<DefaultSkill>, note: Option<String>) -> Seed {
        let chosen = items.iter().map(|d| !d.present).collect();
        Seed {
            items,
            chosen,
            cursor: 0,
            note,
            view: u16::MAX,
        }
    }

    /// The list's rows: what the screen leaves beside the fixed lines.
    pub fn update(&mut self, area: Rect) {
        let fixed = 8 + 2 * u16::from(self.note.is_some());
        self.view = area.height.saturating_sub(fixed);
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
        (100, u16::MAX)
    }

    pub fn text(&self, theme: &Theme) -> Text<'static> {
        let mut lines = vec![
            Line::from("Default skills (Space picks, Enter seeds, Esc closes)"),
            Line::default(),
        ];
        // Each source under its heading; the list scrolls with the cursor.
        let mut rows: Vec<Line> = Vec::new();
        let mut cursor_row = 0;
        for (i, (d, c)) in self.items.iter().zip(&self.chosen).enumerate() {
            if i == 0 || self.items[i - 1].origin.heading() != d.origin.heading() {
                rows.push(Line::styled(d.origin.heading(), theme.heading2));
            }
            let (box_, note) = match (d.present, *c) {
                (true, _) => ("   ", "already present (kept)"),
                (false, true) => ("[x]", "new"),
                (false, false) => ("[ ]", "new"),
            };
            let style = if i == self.cursor {
                cursor_row = rows.len();
                theme.selected
            } else if d.present {
                theme.dim
            } else {
                theme.base
            };
            let origin = d.origin.label();
            let row = format!("{box_} {:28} {note:22} {origin}", sanitize_line(&d.name));
            rows.push(Line::styled(row, style));
        }
        // Cut short, the list says what is above and below it (those two
        // lines come out of its rows).
        let total = rows.len();
        let (first, shown) = list_window(total, cursor_row, self.view);
        let cut = shown < total;
        if cut {
            lines.push(more_line(first, "above", theme));
        }
        lines.extend(rows.into_iter().skip(first).take(shown));
        if cut {
            lines.push(more_line(
                total - (first + shown).min(total),
                "below",
                theme,
            ));
        }
        // What the highlighted one is for, so the pick is informed.
        if let Some(d) = self.items.get(self.cursor) {
            lines.push(Line::default());
            lines.push(Line::styled(
                sanitize_line(&d.description).into_owned(),
                theme.dim,
            ));
        }
        if let Some(note) = &self.note {
            lines.push(Line::default());
            lines.push(Line::styled(sanitize_line(note).into_owned(), theme.dim));
        }
        Text::from(lines)
    }
}
