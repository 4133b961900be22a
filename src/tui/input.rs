//! The one-line text field shared by the filter and the install path.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A one-line text field: the filter and the install path. Keys edit as
/// in a shell: arrows, Home/End, Ctrl-A/E/B/F, Ctrl-U/K, Ctrl-W (back to
/// the previous space or `/`), Delete; other Ctrl and Alt keys are ignored,
/// never typed as letters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// A byte offset on a char boundary.
    cursor: usize,
    /// The whole text is selected: the next character typed replaces it,
    /// Backspace clears it, a move keeps it.
    selected: bool,
}

impl LineInput {
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Replaces the text, cursor at the end.
    pub fn set(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.cursor = self.text.len();
        self.selected = false;
    }

    pub fn clear(&mut self) {
        self.set("");
    }

    /// Selects the whole text, so that typing starts a new one.
    pub fn select_all(&mut self) {
        self.selected = !self.text.is_empty();
        self.cursor = self.text.len();
    }

    pub fn is_selected(&self) -> bool {
        self.selected
    }

    /// The text before and after the cursor.
    pub fn split(&self) -> (&str, &str) {
        self.text.split_at(self.cursor)
    }

    fn prev(&self) -> usize {
        self.text[..self.cursor]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next(&self) -> usize {
        self.text[self.cursor..]
            .chars()
            .next()
            .map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    /// Where Ctrl-W deletes back to: past blanks and separators, then to
    /// the previous space or `/`.
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end_matches([' ', '/']);
        trimmed.rfind([' ', '/']).map_or(0, |i| i + 1)
    }

    /// Applies an editing key; false when the key is not one.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        if std::mem::take(&mut self.selected) {
            match key.code {
                // Typing replaces the selection; deleting deletes it.
                KeyCode::Char(_) if !ctrl && !alt => self.clear(),
                KeyCode::Backspace | KeyCode::Delete => {
                    self.clear();
                    return true;
                }
                KeyCode::Char('u' | 'k' | 'w') if ctrl => {
                    self.clear();
                    return true;
                }
                _ => {}
            }
        }
        match key.code {
            KeyCode::Char(c) if !ctrl && !alt => {
                self.text.insert(self.cursor, c);
                self.cursor += c.len_utf8();
            }
            KeyCode::Char('a') | KeyCode::Home if !alt => self.cursor = 0,
            KeyCode::Char('e') | KeyCode::End if !alt => self.cursor = self.text.len(),
            KeyCode::Char('b') | KeyCode::Left if !alt => self.cursor = self.prev(),
            KeyCode::Char('f') | KeyCode::Right if !alt => self.cursor = self.next(),
            KeyCode::Char('u') if ctrl => {
                self.text.drain(..self.cursor);
                self.cursor = 0;
            }
            KeyCode::Char('k') if ctrl => self.text.truncate(self.cursor),
            KeyCode::Char('w') if ctrl => {
                let start = self.word_start();
                self.text.drain(start..self.cursor);
                self.cursor = start;
            }
            KeyCode::Backspace if self.cursor > 0 => {
                let start = self.prev();
                self.text.drain(start..self.cursor);
                self.cursor = start;
            }
            KeyCode::Delete if self.cursor < self.text.len() => {
                let end = self.next();
                self.text.drain(self.cursor..end);
            }
            KeyCode::Backspace | KeyCode::Delete => {}
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(input: &mut LineInput, code: KeyCode) {
        input.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn a_selected_text_is_replaced_by_typing_and_cleared_by_backspace() {
        let mut i = LineInput::default();
        i.set("pdf");
        i.select_all();
        press(&mut i, KeyCode::Char('g'));
        assert_eq!((i.as_str(), i.is_selected()), ("g", false));
        i.select_all();
        press(&mut i, KeyCode::Backspace);
        assert_eq!(i.as_str(), "");
        // A move keeps the text and ends the selection.
        i.set("pdf");
        i.select_all();
        press(&mut i, KeyCode::Left);
        press(&mut i, KeyCode::Char('x'));
        assert_eq!(i.as_str(), "pdxf");
        // Nothing to select in an empty field.
        i.clear();
        i.select_all();
        assert!(!i.is_selected());
    }
}
