//! The TUI's state and what every key does. Every rule comes from the core;
//! this file only decides which core function a key calls and what to show.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::Sender;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use crate::core::catalog::{self, Cost, Format, Offer};
use crate::core::editor;
use crate::core::fsops::{self, FolderDiff};
use crate::core::profile::{self, Listed, Profile};
use crate::core::skill::{self, Checked};
use crate::core::store::{self, DefaultSkill, Entry, Home, Listing, Status};
use crate::tui::AppEvent;
use crate::tui::clipboard::{Clipboard, CopyOutcome};
use crate::tui::markdown::{Highlighter, Rendered};
use crate::tui::theme::{NO_SYNTAX_THEME, Theme};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Skills,
    Preview,
    Profiles,
    Catalog,
}

impl Pane {
    pub const ALL: [Pane; 4] = [Pane::Skills, Pane::Preview, Pane::Profiles, Pane::Catalog];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Skills => "Skills",
            Pane::Preview => "Preview",
            Pane::Profiles => "Profiles",
            Pane::Catalog => "Catalog",
        }
    }

    fn step(self, by: isize) -> Pane {
        let i = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0) as isize;
        Pane::ALL[(i + by).rem_euclid(4) as usize]
    }
}

/// A profile row: where it was found and what CAO makes of it.
#[derive(Clone, Debug)]
pub struct ProfileRow {
    pub listed: Listed,
    pub loaded: Result<Profile, String>,
    /// Its frontmatter as (key, value), for the detail under the list.
    pub fields: Vec<(String, String)>,
}

impl ProfileRow {
    fn load(home: &Home, listed: Listed) -> ProfileRow {
        let loaded = profile::load(home, &listed.name);
        let fields = loaded
            .as_ref()
            .map(|p| profile::fields(home, p))
            .unwrap_or_default();
        ProfileRow {
            listed,
            loaded,
            fields,
        }
    }
}

/// How the selected profile gets one skill, for its checkbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tick {
    Off,
    /// Listed by exact name.
    Exact,
    /// Offered through these patterns only.
    Pattern(Vec<String>),
    /// The profile has no list: it gets every skill.
    All,
}

#[derive(Debug)]
pub enum Dialog {
    /// Every key; scrolls when the screen is too small for it.
    Help {
        scroll: u16,
    },
    Install(Install),
    /// Replace an installed skill: shows what would change.
    Force {
        src: PathBuf,
        name: String,
        diff: FolderDiff,
    },
    Remove {
        name: String,
        path: PathBuf,
    },
    Seed {
        items: Vec<DefaultSkill>,
        chosen: Vec<bool>,
        cursor: usize,
    },
    Edit(Box<Edit>),
    /// The profile has no `skills:` list; toggling writes an explicit one.
    Materialize {
        profile: String,
        skill: String,
    },
}

/// A one-line text field: the filter and the install path. Keys edit as
/// in a shell: arrows, Home/End, Ctrl-A/E/B/F, Ctrl-U/K, Ctrl-W (back to
/// the previous space or `/`), Delete; other Ctrl and Alt keys are ignored,
/// never typed as letters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// A byte offset on a char boundary.
    cursor: usize,
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
    }

    pub fn clear(&mut self) {
        self.set("");
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

#[derive(Debug, Default)]
pub struct Install {
    pub input: LineInput,
    pub completions: Vec<String>,
    /// The verdict on the folder typed so far, if it is one.
    pub preview: Option<Checked>,
}

pub struct Edit {
    pub path: PathBuf,
    pub original: String,
    pub area: ratatui_textarea::TextArea<'static>,
    pub message: Option<(String, bool)>,
    pub confirm_discard: bool,
    /// Ctrl-C was pressed once over unsaved text.
    pub confirm_quit: bool,
}

impl std::fmt::Debug for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Edit").field("path", &self.path).finish()
    }
}

/// Where the panes were drawn last, for mouse clicks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Areas {
    pub skills: Rect,
    pub preview: Rect,
    pub profiles: Rect,
    pub catalog: Rect,
    /// The rows of each list inside its pane.
    pub skills_list: Rect,
    pub profiles_list: Rect,
    pub checklist: Rect,
}

/// First visible row of each list, kept between frames so the view does
/// not jump and a click can be mapped to an item.
#[derive(Clone, Copy, Debug, Default)]
pub struct Offsets {
    pub skills: usize,
    pub profiles: usize,
    pub checklist: usize,
}

pub struct App {
    pub home: Home,
    pub theme: Theme,
    pub hl: Arc<Highlighter>,
    pub clipboard: Clipboard,
    pub listing: Listing,
    pub profiles: Vec<ProfileRow>,
    pub focus: Pane,
    /// Indices into `listing.entries` that pass the filter.
    pub filtered: Vec<usize>,
    pub skill_sel: usize,
    pub filter: LineInput,
    pub filtering: bool,
    pub profile_sel: usize,
    /// True when the cursor is in the selected profile's skill checklist.
    pub in_checklist: bool,
    pub check_sel: usize,
    pub preview_scroll: u16,
    pub catalog_scroll: u16,
    pub format: Format,
    pub catalog_text: Result<String, String>,
    /// (width, rows) of the wrapped catalog, cached: wrapping a
    /// 1000-skill block on every frame costs more than the rest of a frame.
    pub catalog_rows: Option<(u16, u16)>,
    pub cost: Cost,
    pub unmatched: Vec<String>,
    pub dialog: Option<Dialog>,
    pub status: Option<(String, bool)>,
    pub quit: bool,
    /// Counts reloads: the watcher follows the dirs again after each.
    pub reloads: u64,
    /// The signal that ended the UI, for the exit status (128 + it).
    pub exit_signal: Option<i32>,
    pub areas: Areas,
    pub offsets: Offsets,
    /// Where worker threads report finished previews; `None` (tests, tools)
    /// renders every preview on the spot.
    pub renders: Option<Sender<AppEvent>>,
    /// The preview being rendered on a worker thread.
    rendering: Option<PreviewKey>,
    preview: Option<(PreviewKey, Arc<Rendered>)>,
}

/// SKILL.md files bigger than this render off the UI thread: a 500 KiB one
/// takes about 100 ms the first time, several frames.
const BACKGROUND_RENDER_BYTES: u64 = 64 * 1024;

/// What a rendered preview depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewKey {
    path: PathBuf,
    modified: Option<std::time::SystemTime>,
    width: u16,
    highlighted: bool,
}

impl App {
    pub fn new(home: Home, theme: Theme) -> App {
        let mut app = App {
            home,
            theme,
            hl: Arc::new(Highlighter::new()),
            clipboard: Clipboard::new(),
            listing: Listing::default(),
            profiles: Vec::new(),
            focus: Pane::Skills,
            filtered: Vec::new(),
            skill_sel: 0,
            filter: LineInput::default(),
            filtering: false,
            profile_sel: 0,
            in_checklist: false,
            check_sel: 0,
            preview_scroll: 0,
            catalog_scroll: 0,
            format: Format::Cao,
            catalog_text: Ok(String::new()),
            catalog_rows: None,
            cost: Cost::default(),
            unmatched: Vec::new(),
            dialog: None,
            status: None,
            quit: false,
            reloads: 0,
            exit_signal: None,
            areas: Areas::default(),
            offsets: Offsets::default(),
            renders: None,
            rendering: None,
            preview: None,
        };
        app.reload();
        if app.listing.entries.is_empty() {
            app.open_seed();
            app.status = Some((
                "No skills yet: pick the defaults to seed (Enter), or Esc".into(),
                false,
            ));
        }
        app
    }

    /// Re-reads the store and profiles, keeping the selections by name.
    pub fn reload(&mut self) {
        self.reloads += 1;
        let skill = self
            .selected_entry()
            .map(|e| (e.folder.clone(), e.source_dir.clone()));
        let profile = self.selected_profile().map(|p| p.listed.name.clone());
        let checked = self
            .valid_skills()
            .get(self.check_sel)
            .map(|e| e.folder.clone());
        self.home.reload_settings();
        self.listing = store::list(&self.home, true);
        self.profiles = profile::list(&self.home)
            .into_iter()
            .map(|listed| ProfileRow::load(&self.home, listed))
            .collect();
        // The user's own (editable) profiles first, CAO's built-ins after.
        self.profiles
            .sort_by_key(|r| r.listed.location.path.is_none());
        self.apply_filter();
        if let Some((folder, dir)) = skill
            && let Some(pos) = self.filtered.iter().position(|&i| {
                let e = &self.listing.entries[i];
                e.folder == folder && e.source_dir == dir
            })
        {
            self.skill_sel = pos;
        } else {
            // The skill went away: the next one starts at its top.
            self.preview_scroll = 0;
        }
        if let Some(name) = profile
            && let Some(pos) = self.profiles.iter().position(|p| p.listed.name == name)
        {
            self.profile_sel = pos;
        }
        // By name: a skill added above must not shift Space onto another one.
        if let Some(folder) = checked
            && let Some(pos) = self.valid_skills().iter().position(|e| e.folder == folder)
        {
            self.check_sel = pos;
        }
        self.clamp();
        // The rendered preview stays: its key holds the file's mtime.
        self.refresh_catalog();
    }

    fn clamp(&mut self) {
        self.skill_sel = self.skill_sel.min(self.filtered.len().saturating_sub(1));
        self.profile_sel = self.profile_sel.min(self.profiles.len().saturating_sub(1));
        self.check_sel = self
            .check_sel
            .min(self.valid_skills().len().saturating_sub(1));
    }

    /// Fuzzy filter over names and descriptions (nucleo's matcher), best first.
    pub fn apply_filter(&mut self) {
        use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
        use nucleo_matcher::{Config, Matcher, Utf32Str};
        if self.filter.is_empty() {
            self.filtered = (0..self.listing.entries.len()).collect();
            return;
        }
        let pattern = Pattern::parse(
            self.filter.as_str(),
            CaseMatching::Smart,
            Normalization::Smart,
        );
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, usize)> = self
            .listing
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let hay = format!("{} {}", e.name(), e.description());
                let score = pattern.score(Utf32Str::new(&hay, &mut buf), &mut matcher)?;
                Some((score, i))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.filtered = scored.into_iter().map(|(_, i)| i).collect();
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.filtered
            .get(self.skill_sel)
            .and_then(|&i| self.listing.entries.get(i))
    }

    pub fn selected_profile(&self) -> Option<&ProfileRow> {
        self.profiles.get(self.profile_sel)
    }

    /// The skills a profile can tick: the valid ones, in list order.
    pub fn valid_skills(&self) -> Vec<&Entry> {
        self.listing.valid().collect()
    }

    /// How the selected profile gets each valid skill.
    pub fn ticks(&self) -> Vec<Tick> {
        let valid = self.valid_skills();
        let Some(Ok(p)) = self.selected_profile().map(|r| &r.loaded) else {
            return vec![Tick::Off; valid.len()];
        };
        let Some(list) = &p.skills else {
            return vec![Tick::All; valid.len()];
        };
        let selection = catalog::select(&self.listing, Some(list));
        valid
            .iter()
            .map(
                |e| match selection.offered.iter().find(|(o, _)| o.folder == e.folder) {
                    None => Tick::Off,
                    Some(_) if list.contains(&e.folder) => Tick::Exact,
                    Some((_, Offer::Patterns(p))) => Tick::Pattern(p.clone()),
                    Some((_, Offer::All)) => Tick::All,
                },
            )
            .collect()
    }

    /// Recomputes the catalog block and its cost for the selected profile.
    pub fn refresh_catalog(&mut self) {
        self.unmatched.clear();
        self.catalog_rows = None;
        let Some(row) = self.selected_profile() else {
            self.catalog_text = Err("no agent profiles found".into());
            self.cost = Cost::default();
            return;
        };
        let name = row.listed.name.clone();
        let p = match &row.loaded {
            Ok(p) => p.clone(),
            Err(e) => {
                self.catalog_text = Err(format!("CAO cannot load this profile: {e}"));
                self.cost = Cost::default();
                return;
            }
        };
        let selection = catalog::select(&self.listing, p.skills.as_deref());
        self.unmatched = selection.unmatched.clone();
        let offered: Vec<&Entry> = selection.offered.iter().map(|(e, _)| *e).collect();
        let text = catalog::render(self.format, &self.listing, p.skills.as_deref(), &name);
        self.cost = catalog::cost(text.as_deref().unwrap_or(""), &offered);
        self.catalog_text = text;
    }

    /// The rendered preview of the selected skill at `width`, rendered once
    /// per (file, mtime, width) and plain until syntect has loaded. A big
    /// file renders on a worker thread when the event loop listens for it
    /// (`renders`); its old rendering, or a note, shows meanwhile.
    pub fn preview(&mut self, width: u16) -> Arc<Rendered> {
        let Some(entry) = self.selected_entry() else {
            return Arc::new(Rendered::default());
        };
        let skill_md = entry.checked.path.join("SKILL.md");
        let meta = std::fs::metadata(&skill_md).ok();
        let key = PreviewKey {
            modified: meta.as_ref().and_then(|m| m.modified().ok()),
            path: skill_md,
            width,
            highlighted: self.hl.is_ready(),
        };
        if let Some((k, r)) = &self.preview
            && *k == key
        {
            return r.clone();
        }
        let big = meta.is_some_and(|m| m.len() > BACKGROUND_RENDER_BYTES);
        if big && let Some(tx) = self.renders.clone() {
            return self.render_in_background(key, tx);
        }
        let rendered = Arc::new(render_file(&key, &self.theme, &self.hl));
        self.preview = Some((key, rendered.clone()));
        rendered
    }

    fn render_in_background(&mut self, key: PreviewKey, tx: Sender<AppEvent>) -> Arc<Rendered> {
        if self.rendering.as_ref() != Some(&key) {
            self.rendering = Some(key.clone());
            let (theme, hl) = (self.theme.clone(), self.hl.clone());
            std::thread::spawn(move || {
                let rendered = Arc::new(render_file(&key, &theme, &hl));
                let _ = tx.send(AppEvent::PreviewReady(Box::new((key, rendered))));
            });
        }
        match &self.preview {
            // The same file at another width or mtime: better than nothing.
            Some((k, r)) if Some(&k.path) == self.rendering.as_ref().map(|r| &r.path) => r.clone(),
            _ => Arc::new(Rendered {
                lines: vec![ratatui::text::Line::styled("rendering…", self.theme.dim)],
            }),
        }
    }

    /// A worker thread finished rendering a preview.
    pub fn preview_ready(&mut self, key: PreviewKey, rendered: Arc<Rendered>) {
        if self.rendering.as_ref() == Some(&key) {
            self.rendering = None;
        }
        self.preview = Some((key, rendered));
    }

    pub fn set_status(&mut self, msg: impl Into<String>, error: bool) {
        self.status = Some((msg.into(), error));
    }

    fn report(&mut self, r: Result<String, String>) {
        match r {
            Ok(m) => self.set_status(m, false),
            Err(e) => self.set_status(e, true),
        }
    }

    // ---- input ----------------------------------------------------------

    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return self.interrupt();
        }
        // A message stays until the next key.
        self.status = None;
        if self.dialog.is_some() {
            self.dialog_key(key);
            return;
        }
        if self.filtering {
            self.filter_key(key);
            return;
        }
        if self.global_key(key) {
            return;
        }
        match self.focus {
            Pane::Skills => self.skills_key(key),
            Pane::Preview => {
                self.preview_scroll =
                    scroll(self.preview_scroll, key, page(inner(self.areas.preview)))
            }
            Pane::Profiles => self.profiles_key(key),
            Pane::Catalog => {
                self.catalog_scroll =
                    scroll(self.catalog_scroll, key, page(inner(self.areas.catalog)))
            }
        }
    }

    /// Ctrl-C quits, unless the editor holds unsaved text: then it asks
    /// once, like Esc does.
    fn interrupt(&mut self) {
        if let Some(Dialog::Edit(edit)) = &mut self.dialog
            && edit_text(edit) != edit.original
            && !edit.confirm_quit
        {
            edit.confirm_quit = true;
            edit.confirm_discard = false;
            edit.message = Some((
                "unsaved changes: Ctrl-C again to quit without saving, Ctrl-S to save".into(),
                true,
            ));
            return;
        }
        self.quit = true;
    }

    /// Keys that work in every pane. True when handled.
    fn global_key(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') => self.dialog = Some(Dialog::Help { scroll: 0 }),
            KeyCode::Tab => self.focus = self.focus.step(1),
            KeyCode::BackTab => self.focus = self.focus.step(-1),
            KeyCode::Char(c @ '1'..='4') => self.focus = Pane::ALL[(c as u8 - b'1') as usize],
            KeyCode::Char('r') => {
                self.reload();
                self.set_status("reloaded", false);
            }
            KeyCode::Char('a') => self.dialog = Some(Dialog::Install(Install::default())),
            KeyCode::Char('S') => self.open_seed(),
            KeyCode::Char('f') => {
                self.format = self.format.next();
                self.catalog_scroll = 0;
                self.refresh_catalog();
                self.set_status(format!("catalog format: {}", self.format.name()), false);
            }
            KeyCode::Char('y') => self.copy_catalog(),
            KeyCode::Char('/') => {
                self.focus = Pane::Skills;
                self.filtering = true;
            }
            KeyCode::Char('d') if matches!(self.focus, Pane::Skills | Pane::Preview) => {
                self.open_remove()
            }
            KeyCode::Char('e') if matches!(self.focus, Pane::Skills | Pane::Preview) => {
                self.open_edit()
            }
            _ => return false,
        }
        true
    }

    fn filter_key(&mut self, key: KeyEvent) {
        let before = self.filter.as_str().to_string();
        match key.code {
            KeyCode::Esc => {
                self.filtering = false;
                return self.clear_filter();
            }
            // Keep the query and whatever is picked in its results.
            KeyCode::Enter => return self.filtering = false,
            KeyCode::Down | KeyCode::Up => {
                self.filtering = false;
                return self.skills_key(key);
            }
            _ => {
                self.filter.key(key);
            }
        }
        if self.filter.as_str() != before {
            self.apply_filter();
            // A new query: start at its best match.
            self.skill_sel = 0;
            self.preview_scroll = 0;
        }
    }

    /// Esc on a filter: show every skill again, still on the one picked.
    fn clear_filter(&mut self) {
        let picked = self.filtered.get(self.skill_sel).copied();
        self.filter.clear();
        self.apply_filter();
        self.skill_sel = picked.unwrap_or(0);
    }

    fn skills_key(&mut self, key: KeyEvent) {
        let before = self.skill_sel;
        match key.code {
            KeyCode::Esc if !self.filter.is_empty() => self.clear_filter(),
            KeyCode::Enter => self.focus = Pane::Preview,
            _ => {
                self.skill_sel = move_in(
                    self.skill_sel,
                    self.filtered.len(),
                    key,
                    page(self.areas.skills_list),
                )
            }
        }
        if before != self.skill_sel {
            self.preview_scroll = 0;
        }
    }

    fn profiles_key(&mut self, key: KeyEvent) {
        if !self.in_checklist {
            let before = self.profile_sel;
            match key.code {
                KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') => self.in_checklist = true,
                _ => {
                    self.profile_sel = move_in(
                        self.profile_sel,
                        self.profiles.len(),
                        key,
                        page(self.areas.profiles_list),
                    )
                }
            }
            if before != self.profile_sel {
                self.catalog_scroll = 0;
                self.refresh_catalog();
            }
            return;
        }
        match key.code {
            KeyCode::Esc | KeyCode::Left | KeyCode::Char('h') => self.in_checklist = false,
            KeyCode::Char(' ') => self.toggle_selected(),
            _ => {
                self.check_sel = move_in(
                    self.check_sel,
                    self.valid_skills().len(),
                    key,
                    page(self.areas.checklist),
                )
            }
        }
    }

    pub fn on_mouse(&mut self, m: MouseEvent) {
        if self.dialog.is_some() {
            return;
        }
        let at = Position::new(m.column, m.row);
        let a = self.areas;
        let pane = [
            (a.skills, Pane::Skills),
            (a.preview, Pane::Preview),
            (a.profiles, Pane::Profiles),
            (a.catalog, Pane::Catalog),
        ]
        .into_iter()
        .find(|(r, _)| r.contains(at))
        .map(|(_, p)| p);
        let Some(pane) = pane else { return };
        match m.kind {
            MouseEventKind::Down(_) => {
                self.focus = pane;
                self.click(at);
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let code = if m.kind == MouseEventKind::ScrollDown {
                    KeyCode::Down
                } else {
                    KeyCode::Up
                };
                let key = KeyEvent::new(code, KeyModifiers::NONE);
                match pane {
                    Pane::Skills => self.skills_key(key),
                    Pane::Preview => {
                        self.preview_scroll =
                            scroll(self.preview_scroll, key, page(inner(self.areas.preview)))
                    }
                    Pane::Profiles => self.profiles_key(key),
                    Pane::Catalog => {
                        self.catalog_scroll =
                            scroll(self.catalog_scroll, key, page(inner(self.areas.catalog)))
                    }
                }
            }
            _ => {}
        }
    }

    /// A click on a list row selects that item (after the list's scroll).
    fn click(&mut self, at: Position) {
        let a = self.areas;
        let row = |r: Rect, offset: usize| usize::from(at.y - r.y) + offset;
        if a.skills_list.contains(at) {
            let i = row(a.skills_list, self.offsets.skills);
            if i < self.filtered.len() && i != self.skill_sel {
                self.skill_sel = i;
                self.preview_scroll = 0;
            }
        } else if a.profiles_list.contains(at) {
            let i = row(a.profiles_list, self.offsets.profiles);
            self.in_checklist = false;
            if i < self.profiles.len() && i != self.profile_sel {
                self.profile_sel = i;
                self.catalog_scroll = 0;
                self.refresh_catalog();
            }
        } else if a.checklist.contains(at) {
            let i = row(a.checklist, self.offsets.checklist);
            if i < self.valid_skills().len() {
                self.in_checklist = true;
                self.check_sel = i;
            }
        }
    }

    // ---- actions --------------------------------------------------------

    fn copy_catalog(&mut self) {
        let text = match &self.catalog_text {
            Ok(t) if !t.is_empty() => t.clone(),
            Ok(_) => return self.set_status("the catalog is empty: nothing to copy", true),
            Err(e) => return self.set_status(e.clone(), true),
        };
        let outcome = self.clipboard.copy(&text);
        let n = text.chars().count();
        match outcome {
            CopyOutcome::System => self.set_status(
                format!("copied {n} characters to the system clipboard"),
                false,
            ),
            CopyOutcome::Osc52 if self.clipboard.in_tmux() => self.set_status(
                format!(
                    "sent {n} chars by OSC 52 (tmux needs `set -g set-clipboard on` or `set -g allow-passthrough on`)"
                ),
                false,
            ),
            CopyOutcome::Osc52 => self.set_status(
                format!("sent {n} characters to the terminal clipboard (OSC 52; no display here)"),
                false,
            ),
            CopyOutcome::Failed(why) => self.set_status(format!("could not copy: {why}"), true),
        }
    }

    /// Space on a checkbox: enable or disable through the core's editor.
    pub fn toggle_selected(&mut self) {
        let Some(skill) = self
            .valid_skills()
            .get(self.check_sel)
            .map(|e| e.folder.clone())
        else {
            return;
        };
        let Some(row) = self.selected_profile() else {
            return;
        };
        let profile = match &row.loaded {
            Ok(p) => p.clone(),
            Err(e) => return self.set_status(format!("CAO cannot load this profile: {e}"), true),
        };
        if profile.skills.is_none() {
            if profile.location.path.is_none() {
                return self.set_status(
                    format!("'{}' is built into CAO and cannot be edited: copy it to the agent store first", profile.name),
                    true,
                );
            }
            self.dialog = Some(Dialog::Materialize {
                profile: profile.name,
                skill,
            });
            return;
        }
        let tick = self
            .ticks()
            .get(self.check_sel)
            .cloned()
            .unwrap_or(Tick::Off);
        let plan = match tick {
            Tick::Off => editor::enable(&self.home, &self.listing, &profile, &skill),
            _ => editor::disable(&self.home, &self.listing, &profile, &skill),
        };
        self.apply_plan(&profile, plan);
    }

    fn apply_plan(&mut self, profile: &Profile, plan: Result<editor::Plan, String>) {
        let result = plan.and_then(|plan| editor::apply(profile, &plan).map(|_| plan.message));
        self.report(result);
        self.reload_profile(&profile.name);
    }

    /// Re-reads one profile (after our own write) and the catalog.
    fn reload_profile(&mut self, name: &str) {
        if let Some(row) = self.profiles.iter_mut().find(|r| r.listed.name == name) {
            *row = ProfileRow::load(&self.home, row.listed.clone());
        }
        self.refresh_catalog();
    }

    fn open_seed(&mut self) {
        let items = store::defaults(&self.home);
        let chosen = items.iter().map(|d| !d.present).collect();
        self.dialog = Some(Dialog::Seed {
            items,
            chosen,
            cursor: 0,
        });
    }

    fn open_remove(&mut self) {
        let Some(e) = self.selected_entry() else {
            return;
        };
        if e.source_dir != self.home.skills_dir() {
            let msg = format!(
                "'{}' lives in an extra dir ({}); skilltui only removes skills from the store",
                e.folder,
                e.source_dir.display()
            );
            return self.set_status(msg, true);
        }
        self.dialog = Some(Dialog::Remove {
            name: e.folder.clone(),
            path: e.checked.path.clone(),
        });
    }

    fn open_edit(&mut self) {
        let Some(e) = self.selected_entry() else {
            return;
        };
        let path = e.checked.path.join("SKILL.md");
        match skill::read_text(&path) {
            Ok(original) => {
                let lines: Vec<String> = original.lines().map(String::from).collect();
                let mut area = ratatui_textarea::TextArea::new(lines);
                area.set_cursor_line_style(ratatui::style::Style::default());
                self.dialog = Some(Dialog::Edit(Box::new(Edit {
                    path,
                    original,
                    area,
                    message: None,
                    confirm_discard: false,
                    confirm_quit: false,
                })));
            }
            Err(err) => self.set_status(err, true),
        }
    }

    // ---- dialogs --------------------------------------------------------

    fn dialog_key(&mut self, key: KeyEvent) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        self.dialog = match dialog {
            Dialog::Help { scroll } => match key.code {
                KeyCode::Esc | KeyCode::Char('?') | KeyCode::Char('q') | KeyCode::Enter => None,
                // Drawing clamps it to the text's end.
                _ => Some(Dialog::Help {
                    scroll: self::scroll(scroll, key, 10),
                }),
            },
            Dialog::Install(i) => self.install_key(i, key),
            Dialog::Force { src, name, diff } => match key.code {
                KeyCode::Char('y') | KeyCode::Enter => {
                    self.install(&src, true);
                    None
                }
                KeyCode::Char('n') | KeyCode::Esc => {
                    self.set_status(format!("kept the installed '{name}'"), false);
                    None
                }
                _ => Some(Dialog::Force { src, name, diff }),
            },
            Dialog::Remove { name, path } => match key.code {
                KeyCode::Char('y') => {
                    let r = store::remove(&self.home, &name)
                        .map(|p| format!("removed '{name}' ({})", p.display()));
                    self.report(r);
                    self.reload();
                    None
                }
                KeyCode::Char('n') | KeyCode::Esc => None,
                _ => Some(Dialog::Remove { name, path }),
            },
            Dialog::Seed {
                items,
                chosen,
                cursor,
            } => self.seed_key(items, chosen, cursor, key),
            Dialog::Edit(edit) => self.edit_key(edit, key),
            Dialog::Materialize { profile, skill } => match key.code {
                KeyCode::Char('y') | KeyCode::Enter => {
                    if let Some(Ok(p)) = self
                        .profiles
                        .iter()
                        .find(|r| r.listed.name == profile)
                        .map(|r| r.loaded.clone())
                    {
                        let plan = editor::disable(&self.home, &self.listing, &p, &skill);
                        self.apply_plan(&p, plan);
                    }
                    None
                }
                KeyCode::Char('n') | KeyCode::Esc => None,
                _ => Some(Dialog::Materialize { profile, skill }),
            },
        };
    }

    fn install_key(&mut self, mut i: Install, key: KeyEvent) -> Option<Dialog> {
        match key.code {
            KeyCode::Esc => return None,
            KeyCode::Tab => complete_path(&mut i, &self.home.user_home),
            KeyCode::Enter => return self.submit_install(i),
            _ if i.input.key(key) => {}
            _ => return Some(Dialog::Install(i)),
        }
        if key.code != KeyCode::Tab {
            i.completions.clear();
        }
        let path = expand(i.input.as_str(), &self.home);
        i.preview = (!i.input.is_empty() && path.join("SKILL.md").is_file())
            .then(|| skill::check_folder(&path, true));
        Some(Dialog::Install(i))
    }

    fn submit_install(&mut self, i: Install) -> Option<Dialog> {
        if i.input.as_str().trim().is_empty() {
            self.set_status("type the path of a skill folder (Tab completes)", true);
            return Some(Dialog::Install(i));
        }
        let src = expand(i.input.as_str(), &self.home);
        let checked = skill::check_folder(&src, false);
        if let Some(e) = checked.errors.first() {
            self.set_status(e.clone(), true);
            return Some(Dialog::Install(i));
        }
        let name = checked.name.clone().unwrap_or_default();
        let dest = self.home.skills_dir().join(&name);
        if std::fs::symlink_metadata(&dest).is_ok() {
            let diff = fsops::diff_folders(&dest, &src);
            return Some(Dialog::Force { src, name, diff });
        }
        self.install(&src, false);
        None
    }

    fn install(&mut self, src: &Path, force: bool) {
        let added = store::add(&self.home, src, force);
        let name = added.as_ref().ok().map(|a| a.name.clone());
        let r = added.map(|a| match a.replaced {
            Some(d) => format!(
                "replaced '{}': {} added, {} removed, {} changed",
                a.name,
                d.added.len(),
                d.removed.len(),
                d.changed.len()
            ),
            None => format!("installed '{}'", a.name),
        });
        self.report(r);
        self.reload();
        if let Some(name) = name {
            self.select_skill(&name);
        }
    }

    /// Moves the selection to the skill CAO loads under `name`, if shown.
    fn select_skill(&mut self, name: &str) {
        let store = self.home.skills_dir();
        let pos = self.filtered.iter().position(|&i| {
            let e = &self.listing.entries[i];
            e.folder == name && e.source_dir == store
        });
        if let Some(pos) = pos {
            self.skill_sel = pos;
            self.preview_scroll = 0;
        }
    }

    fn seed_key(
        &mut self,
        items: Vec<DefaultSkill>,
        mut chosen: Vec<bool>,
        mut cursor: usize,
        key: KeyEvent,
    ) -> Option<Dialog> {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return None,
            KeyCode::Char(' ') => {
                if let (Some(c), Some(item)) = (chosen.get_mut(cursor), items.get(cursor)) {
                    *c = !*c && !item.present;
                }
            }
            KeyCode::Enter => {
                let names: Vec<String> = items
                    .iter()
                    .zip(&chosen)
                    .filter(|(_, c)| **c)
                    .map(|(d, _)| d.name.clone())
                    .collect();
                if names.is_empty() {
                    self.set_status("nothing chosen to seed", false);
                    return None;
                }
                let r = store::seed(&self.home, Some(&names)).map(|s| {
                    format!(
                        "seeded {}; kept {}",
                        list_or_none(&s.seeded),
                        list_or_none(&s.kept)
                    )
                });
                self.report(r);
                self.reload();
                return None;
            }
            _ => cursor = move_in(cursor, items.len(), key, 10),
        }
        Some(Dialog::Seed {
            items,
            chosen,
            cursor,
        })
    }

    fn edit_key(&mut self, mut edit: Box<Edit>, key: KeyEvent) -> Option<Dialog> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if key.code == KeyCode::Esc {
            if edit_text(&edit) == edit.original || edit.confirm_discard {
                return None;
            }
            edit.confirm_discard = true;
            edit.message = Some((
                "unsaved changes: Esc again to discard, Ctrl-S to save".into(),
                true,
            ));
            edit.confirm_quit = false;
            return Some(Dialog::Edit(edit));
        }
        if std::mem::take(&mut edit.confirm_discard) | std::mem::take(&mut edit.confirm_quit) {
            // The question was not answered: do not leave it showing.
            edit.message = None;
        }
        if ctrl && key.code == KeyCode::Char('s') {
            return self.save_edit(edit);
        }
        edit.area.input(key);
        Some(Dialog::Edit(edit))
    }

    /// Validates with CAO's rules, then writes atomically unless the file
    /// changed on disk meanwhile.
    fn save_edit(&mut self, mut edit: Box<Edit>) -> Option<Dialog> {
        let text = edit_text(&edit);
        let folder = skill::folder_name(edit.path.parent().unwrap_or(Path::new("")));
        let mut checked = Checked::default();
        match skill::doc_from_text(&text) {
            Ok(doc) => skill::check_doc(&doc, &folder, &mut checked),
            Err(e) => checked.errors.push(e),
        }
        if let Some(e) = checked.errors.first() {
            edit.message = Some((format!("not saved: {e}"), true));
            return Some(Dialog::Edit(edit));
        }
        match fsops::atomic_write(&edit.path, text.as_bytes(), Some(edit.original.as_bytes())) {
            Ok(()) => {
                self.set_status(format!("saved {}", edit.path.display()), false);
                self.reload();
                None
            }
            Err(e) => {
                edit.message = Some((e, true));
                Some(Dialog::Edit(edit))
            }
        }
    }
}

/// A SKILL.md rendered for the preview (plain when highlighting is not
/// loaded yet), or its read error.
fn render_file(key: &PreviewKey, theme: &Theme, hl: &Highlighter) -> Rendered {
    match skill::read_doc(&key.path) {
        Ok(doc) => {
            let mut theme = theme.clone();
            if !key.highlighted {
                theme.syntax_theme = NO_SYNTAX_THEME.into();
            }
            Rendered::skill(&doc.pairs(), &doc.frontmatter.body, key.width, &theme, hl)
        }
        // The findings above already say why; show what can be shown.
        Err(_) => Rendered {
            lines: lossy_lines(&key.path, key.width, theme),
        },
    }
}

/// A SKILL.md that is not UTF-8, as plain text with each bad byte as `�`,
/// so the user can find it; nothing for a file that cannot be read.
fn lossy_lines(path: &Path, width: u16, theme: &Theme) -> Vec<ratatui::text::Line<'static>> {
    use ratatui::text::Line;
    let Ok(bytes) = fsops::read_regular(path) else {
        return Vec::new();
    };
    if std::str::from_utf8(&bytes).is_ok() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = vec![
        Line::styled("(not UTF-8: each invalid byte shows as �)", theme.dim),
        Line::default(),
    ];
    for l in crate::core::text::sanitize(&text).lines() {
        let line = Line::raw(l.to_string());
        lines.extend(crate::tui::markdown::wrap_line(
            &line,
            usize::from(width.max(1)),
        ));
    }
    lines
}

/// The editor's text with the file's own newline style and final newline.
fn edit_text(edit: &Edit) -> String {
    let nl = if edit.original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut text = edit.area.lines().join(nl);
    if edit.original.ends_with('\n') {
        text.push_str(nl);
    }
    text
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Cursor movement shared by every list.
/// Rows PgUp/PgDn move in a view: what shows, less one kept for context.
/// A rect not drawn yet counts as ten rows.
fn page(view: Rect) -> u16 {
    match view.height {
        0 => 10,
        h => h.saturating_sub(1).max(1),
    }
}

/// A bordered pane's inside.
fn inner(pane: Rect) -> Rect {
    Rect {
        height: pane.height.saturating_sub(2),
        ..pane
    }
}

/// A list's selection after a movement key; `page` rows for PgUp/PgDn.
pub fn move_in(sel: usize, len: usize, key: KeyEvent, page: u16) -> usize {
    let page = usize::from(page);
    if len == 0 {
        return 0;
    }
    let last = len - 1;
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => (sel + 1).min(last),
        KeyCode::Up | KeyCode::Char('k') => sel.saturating_sub(1),
        KeyCode::PageDown => (sel + page).min(last),
        KeyCode::PageUp => sel.saturating_sub(page),
        KeyCode::Home | KeyCode::Char('g') => 0,
        KeyCode::End | KeyCode::Char('G') => last,
        _ => sel.min(last),
    }
}

/// Scrolling shared by the text panes (clamped when drawn).
fn scroll(offset: u16, key: KeyEvent, page: u16) -> u16 {
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => offset.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => offset.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => offset.saturating_add(page),
        KeyCode::PageUp => offset.saturating_sub(page),
        KeyCode::Home | KeyCode::Char('g') => 0,
        KeyCode::End | KeyCode::Char('G') => u16::MAX,
        _ => offset,
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

/// Statuses of entries, for the Skills pane's marks.
pub fn mark(status: Status) -> &'static str {
    match status {
        Status::Ok => "✓",
        Status::Invalid => "✗",
        Status::Shadowed => "◌",
    }
}
