//! `a`: install from a SOURCE. A skill folder shows its verdict as it is
//! typed and installs at once; a folder of skills or a git source is opened
//! on a worker (see `Fetch`) and its skills offered to pick (see `Pick`);
//! words are searched for in the registry (see `Results`).

use std::path::{Path, PathBuf};

use ratatui::crossterm::event::KeyEvent;
use ratatui::text::{Line, Span, Text};

use crate::core::cao::skill::{self, Checked};
use crate::core::cao::store::{self, Home};
use crate::core::text::sanitize_line;
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::input::LineInput;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes::skills::with_cursor;
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct Install {
    pub input: LineInput,
    pub completions: Vec<String>,
    /// The verdict on the folder typed so far, if it is one.
    pub preview: Option<Checked>,
    /// Why the last source could not be opened or installed, shown until
    /// the text changes.
    pub error: Option<String>,
}

impl Install {
    /// The dialog again after `source` failed: the text as typed, and why.
    pub fn failed(source: &str, error: String) -> Install {
        let mut i = Install::default();
        i.input.set(source);
        i.error = Some(error);
        i
    }

    /// A command, or else a key typed into the path.
    pub fn on_key(&mut self, cmd: Option<Cmd>, key: KeyEvent, home: &Home) -> Outcome {
        match cmd {
            Some(Cmd::Back) => return Outcome::Close,
            Some(Cmd::Complete) => complete_path(self, &home.user_home),
            Some(Cmd::Accept) => {
                let outcome = self.submit(home);
                if let Outcome::KeepSaying(s) = &outcome {
                    self.error = Some(s.text.clone());
                    return Outcome::Keep;
                }
                return outcome;
            }
            _ if self.input.key(key) => {
                self.completions.clear();
                self.error = None;
            }
            _ => return Outcome::Keep,
        }
        let path = expand(self.input.as_str(), home);
        self.preview = (!self.input.is_empty() && path.join("SKILL.md").is_file())
            .then(|| skill::check_folder(&path, true));
        Outcome::Keep
    }

    fn submit(&self, home: &Home) -> Outcome {
        let text = self.input.as_str().trim();
        if text.is_empty() {
            return Outcome::KeepSaying(Status::error(
                "type a skill folder, a folder of skills, owner/repo, a URL or words to search for (Tab completes paths)",
            ));
        }
        let src = expand(text, home);
        if crate::tui::dialogs::results::is_query(text) && !src.exists() {
            return Outcome::Search(text.to_string(), crate::tui::dialogs::results::LIMIT);
        }
        if !src.join("SKILL.md").is_file() {
            let source = if src.is_dir() {
                src.display().to_string()
            } else {
                text.to_string()
            };
            return Outcome::Open(source);
        }
        let checked = skill::check_folder(&src, false);
        match checked.errors.first() {
            Some(e) => Outcome::KeepSaying(Status::error(e.clone())),
            None => Outcome::Install {
                name: checked.name.unwrap_or_default(),
                src,
            },
        }
    }

    pub fn text(&self, theme: &Theme) -> Text<'static> {
        let mut lines = vec![
            Line::from("Install from a folder, owner/repo or a URL, or search by words"),
            Line::styled(
                "owner:NAME among the words keeps one owner's skills",
                theme.dim,
            ),
            // Its own line: wrapped after the sentence it read `Enter, Esc`.
            Line::styled("Tab completes  Enter opens it  Esc cancels", theme.dim),
            Line::from(vec![
                Span::styled("source: ", theme.accent),
                Span::raw(with_cursor(&self.input, "▏")),
            ]),
        ];
        if !self.completions.is_empty() {
            lines.push(Line::styled(
                sanitize_line(&self.completions.join("  ")).into_owned(),
                theme.dim,
            ));
        }
        if let Some(e) = &self.error {
            lines.push(Line::default());
            lines.push(Line::styled(format!("✗ {}", sanitize_line(e)), theme.error));
        }
        if let Some(c) = &self.preview {
            lines.push(Line::default());
            let field =
                |v: &Option<String>| sanitize_line(v.as_deref().unwrap_or("?")).into_owned();
            lines.push(Line::from(format!("name: {}", field(&c.name))));
            lines.push(Line::from(format!(
                "description: {}",
                field(&c.description)
            )));
            let errors = c
                .errors
                .iter()
                .map(|e| Line::styled(format!("✗ {}", sanitize_line(e)), theme.error));
            lines.extend(errors);
            let warnings = c
                .warnings
                .iter()
                .map(|w| Line::styled(format!("! {}", sanitize_line(w)), theme.warning));
            lines.extend(warnings);
            if c.is_valid() {
                lines.push(Line::styled("✓ CAO will load it", theme.ok));
            }
        }
        Text::from(lines)
    }
}

/// `~` and relative paths in the install box.
fn expand(input: &str, home: &Home) -> PathBuf {
    let p = store::expand_user(Path::new(input.trim()), &home.user_home);
    std::path::absolute(&p).unwrap_or(p)
}

/// Tab in the install box: complete the folder name; with several
/// candidates, complete their common prefix and list them.
fn complete_path(i: &mut Install, user_home: &Path) {
    let input = i.input.as_str();
    let (dir, prefix) = match input.rfind('/') {
        Some(pos) => (input[..=pos].to_string(), input[pos + 1..].to_string()),
        None => (String::new(), input.to_string()),
    };
    let base = store::expand_user(
        Path::new(if dir.is_empty() { "." } else { &dir }),
        user_home,
    );
    let Ok(entries) = std::fs::read_dir(&base) else {
        i.completions.clear();
        return;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with(&prefix) && (prefix.starts_with('.') || !n.starts_with('.')))
        .collect();
    names.sort();
    match names.as_slice() {
        [] => i.completions.clear(),
        [one] => {
            i.input.set(format!("{dir}{one}/"));
            i.completions.clear();
        }
        many => {
            let common = many.iter().skip(1).fold(many[0].clone(), |acc, n| {
                acc.chars()
                    .zip(n.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect()
            });
            i.input.set(format!("{dir}{common}"));
            i.completions = many.to_vec();
        }
    }
}
