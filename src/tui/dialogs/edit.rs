//! `e`: the SKILL.md editor. Saves only what CAO would load, and never over
//! a file that changed on disk since it was opened.

use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

use crate::core::cao::skill::{self, Checked};
use crate::core::error::WriteError;
use crate::core::fsops;
use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::frame_block;
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::keymap::Cmd;
use crate::tui::model::{Level, Status};
use crate::tui::theme::Theme;

/// A question the editor asked about unsaved text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Esc was pressed once.
    Discard,
    /// Ctrl-C was pressed once.
    Quit,
    /// The file changed on disk: Ctrl-L loads it.
    Reload,
}

pub struct Edit {
    pub path: PathBuf,
    pub original: String,
    pub area: ratatui_textarea::TextArea<'static>,
    pub message: Option<Status>,
    pub asked: Option<Question>,
}

impl std::fmt::Debug for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Edit").field("path", &self.path).finish()
    }
}

impl Edit {
    /// Opens `path`; its read error otherwise.
    pub fn open(path: PathBuf) -> Result<Edit, String> {
        let original = skill::read_text(&path)?;
        Ok(Edit {
            area: text_area(&original),
            path,
            original,
            message: None,
            asked: None,
        })
    }

    /// Loads the file as it is on disk now, dropping the edits.
    fn reload(&mut self) {
        match skill::read_text(&self.path) {
            Ok(text) => {
                self.area = text_area(&text);
                self.original = text;
                self.message = Some(Status::info("loaded the file as it is on disk now"));
            }
            Err(e) => self.message = Some(Status::error(e)),
        }
    }

    /// The text with the file's own newline style and final newline.
    pub fn text(&self) -> String {
        let nl = if self.original.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let mut text = self.area.lines().join(nl);
        if self.original.ends_with('\n') {
            text.push_str(nl);
        }
        text
    }

    pub fn unsaved(&self) -> bool {
        self.text() != self.original
    }

    fn ask(&mut self, q: Question, text: &str) {
        self.asked = Some(q);
        self.message = Some(Status::error(text));
    }

    /// Ctrl-C: true when the app may quit; else it asks once.
    pub fn may_quit(&mut self) -> bool {
        if !self.unsaved() || self.asked == Some(Question::Quit) {
            return true;
        }
        self.ask(
            Question::Quit,
            "unsaved changes: Ctrl-C again to quit without saving, Ctrl-S to save",
        );
        false
    }

    pub fn on_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) -> Outcome {
        if cmd == Some(Cmd::Back) {
            if !self.unsaved() || self.asked == Some(Question::Discard) {
                return Outcome::Close;
            }
            self.ask(
                Question::Discard,
                "unsaved changes: Esc again to discard, Ctrl-S to save",
            );
            return Outcome::Keep;
        }
        if cmd == Some(Cmd::Reload) && self.asked == Some(Question::Reload) {
            self.asked = None;
            self.reload();
            return Outcome::Keep;
        }
        if self.asked.take().is_some() {
            // The question was not answered: do not leave it showing.
            self.message = None;
        }
        match cmd {
            Some(Cmd::Save) => return self.save(),
            Some(Cmd::Undo) => drop(self.area.undo()),
            Some(Cmd::Redo) => drop(self.area.redo()),
            _ => self.type_key(key),
        }
        Outcome::Keep
    }

    /// A key for the text. Ctrl-U deletes to the start of the line as in
    /// every text field here; the text area's own Ctrl-U (undo) and
    /// Ctrl-R (redo) are not passed on: Ctrl-Z and Ctrl-Y do those.
    fn type_key(&mut self, key: KeyEvent) {
        use ratatui::crossterm::event::{KeyCode, KeyModifiers};
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => drop(self.area.delete_line_by_head()),
            KeyCode::Char('r') if ctrl => {}
            _ => drop(self.area.input(key)),
        }
    }

    /// Validates with CAO's rules, then writes atomically unless the file
    /// changed on disk meanwhile.
    fn save(&mut self) -> Outcome {
        let text = self.text();
        let folder = skill::folder_name(self.path.parent().unwrap_or(Path::new("")));
        let mut checked = Checked::default();
        match skill::doc_from_text(&text) {
            Ok(doc) => skill::check_doc(&doc, &folder, &mut checked),
            Err(e) => checked.errors.push(e),
        }
        if let Some(e) = checked.errors.first() {
            self.message = Some(Status::error(format!("not saved: {e}")));
            return Outcome::Keep;
        }
        match fsops::atomic_write(&self.path, text.as_bytes(), Some(self.original.as_bytes())) {
            // The editor stays open on what was saved: Esc closes it.
            Ok(()) => {
                self.original = text;
                let saved = format!("saved {} (Esc closes)", self.path.display());
                self.message = Some(Status::info(saved));
                Outcome::Saved(self.path.clone())
            }
            Err(e @ WriteError::ChangedOnDisk(_)) => {
                let offer = format!("{e}; Ctrl-L loads it (dropping your edits)");
                self.ask(Question::Reload, &offer);
                Outcome::Keep
            }
            Err(e) => {
                self.message = Some(Status::error(e.to_string()));
                Outcome::Keep
            }
        }
    }

    /// The whole screen: an editor wants every column.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        frame.render_widget(Clear, area);
        let block = frame_block(
            theme,
            "Edit SKILL.md · Ctrl-S save · Esc close · Ctrl-Z undo · Ctrl-Y redo",
        );
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [text_area, msg] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
        frame.render_widget(&self.area, text_area);
        let line = match &self.message {
            Some(Status {
                text,
                level: Level::Error,
            }) => Line::styled(sanitize_line(text).into_owned(), theme.error),
            Some(Status {
                text,
                level: Level::Info,
            }) => Line::styled(sanitize_line(text).into_owned(), theme.ok),
            None => Line::styled(
                sanitize_line(&self.path.display().to_string()).into_owned(),
                theme.dim,
            ),
        };
        frame.render_widget(Paragraph::new(line), msg);
    }
}

fn text_area(text: &str) -> ratatui_textarea::TextArea<'static> {
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let mut area = ratatui_textarea::TextArea::new(lines);
    area.set_cursor_line_style(ratatui::style::Style::default());
    area
}
