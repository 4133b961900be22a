//! The Skills pane: the listing, its fuzzy filter and the selection.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph, Wrap};

use crate::core::cao::store::{Entry, Listing, Status};
use crate::core::sources::remote;
use crate::core::text::sanitize_line;
use crate::tui::input::LineInput;
use crate::tui::keymap::Cmd;
use crate::tui::markdown::fit;
use crate::tui::panes::{self, Look, Pane};

#[derive(Default)]
pub struct SkillsPane {
    pub sel: usize,
    /// What the last `U` found, by the folder of a skill in the store.
    pub checked: std::collections::HashMap<PathBuf, remote::Status>,
    /// The audit reports, for the mark of a skill with a high or
    /// critical finding.
    pub audits: crate::tui::audits::Cache,
    /// How many detected agents load each skill name.
    pub agent_marks: std::collections::HashMap<String, usize>,
    /// A reload is under way on a worker: the title says so.
    pub refreshing: bool,
    pub filter: LineInput,
    /// Indices into the listing's entries that pass the filter, best first.
    pub filtered: Vec<usize>,
    /// The first list row shown.
    pub offset: usize,
    /// Where the list rows were laid out, for clicks and PgUp/PgDn.
    pub list_area: Rect,
    /// (name, description) of each entry in lowercase, made once per
    /// reload: the filter runs on every key.
    haystacks: Vec<(String, String)>,
}

/// What the app must do after a key in this pane.
#[derive(Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// Another skill is selected: its preview starts at the top.
    Selected,
    Open,
}

impl SkillsPane {
    /// A new listing: rebuilds the haystacks and the filter, keeping the
    /// selection on `picked` (folder, dir, read from the old listing) when
    /// it is still there. False when that skill went away.
    pub fn set_listing(&mut self, listing: &Listing, picked: Option<(String, PathBuf)>) -> bool {
        self.haystacks = listing
            .entries
            .iter()
            .map(|e| (e.name().to_lowercase(), e.description().to_lowercase()))
            .collect();
        self.apply_filter();
        let kept = picked.and_then(|(folder, dir)| {
            self.filtered.iter().position(|&i| {
                let e = &listing.entries[i];
                e.folder == folder && e.source_dir == dir
            })
        });
        if let Some(pos) = kept {
            self.sel = pos;
        }
        self.clamp();
        kept.is_some()
    }

    /// Entries of the listing changed in place (a batch of the checks):
    /// their haystacks again; the filter follows in [`SkillsPane::refilter`].
    pub fn rows_changed(&mut self, listing: &Listing, changed: &[usize]) {
        for &i in changed {
            if let (Some(e), Some(hay)) = (listing.entries.get(i), self.haystacks.get_mut(i)) {
                *hay = (e.name().to_lowercase(), e.description().to_lowercase());
            }
        }
    }

    /// The filter again over the same entries (their text changed), the
    /// selected entry kept. Nothing to do with no filter typed.
    pub fn refilter(&mut self, listing: &Listing) {
        if self.filter.is_empty() && self.filtered.len() == listing.entries.len() {
            return;
        }
        let picked = self.filtered.get(self.sel).copied();
        self.apply_filter();
        if let Some(pos) = picked.and_then(|i| self.filtered.iter().position(|&j| j == i)) {
            self.sel = pos;
        }
        self.clamp();
    }

    /// The filter, ranked by `tui::rank`: exact name, name prefix, fuzzy
    /// name, then words of the description.
    pub fn apply_filter(&mut self) {
        if self.filter.is_empty() {
            self.filtered = (0..self.haystacks.len()).collect();
            return;
        }
        let items = self.haystacks.iter().map(|(n, d)| (n.as_str(), d.as_str()));
        self.filtered = crate::tui::rank::filter(self.filter.as_str(), items);
    }

    fn clamp(&mut self) {
        self.sel = self.sel.min(self.filtered.len().saturating_sub(1));
    }

    pub fn selected<'a>(&self, listing: &'a Listing) -> Option<&'a Entry> {
        self.filtered
            .get(self.sel)
            .and_then(|&i| listing.entries.get(i))
    }

    /// Selects the entry at `index` in the listing, if it is shown.
    pub fn select_index(&mut self, index: usize) -> bool {
        match self.filtered.iter().position(|&i| i == index) {
            Some(pos) => {
                self.sel = pos;
                true
            }
            None => false,
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Action {
        let before = self.sel;
        match cmd {
            Cmd::Back if !self.filter.is_empty() => self.clear_filter(),
            Cmd::Open => return Action::Open,
            Cmd::Move(m) => {
                let page = panes::page(self.list_area);
                self.sel = panes::move_in(self.sel, self.filtered.len(), m, page);
            }
            _ => {}
        }
        match before != self.sel {
            true => Action::Selected,
            false => Action::None,
        }
    }

    /// A key typed in the filter; true when the query changed.
    pub fn type_in_filter(&mut self, key: KeyEvent) -> bool {
        let before = self.filter.as_str().to_string();
        self.filter.key(key);
        if self.filter.as_str() == before {
            return false;
        }
        self.apply_filter();
        // A new query: start at its best match.
        self.sel = 0;
        true
    }

    /// Shows every skill again, still on the one picked.
    pub fn clear_filter(&mut self) {
        let picked = self.filtered.get(self.sel).copied();
        self.filter.clear();
        self.apply_filter();
        self.sel = picked.unwrap_or(0);
    }

    /// A click on a row; true when it selected another skill.
    pub fn click(&mut self, at: Position) -> bool {
        if !self.list_area.contains(at) {
            return false;
        }
        let i = usize::from(at.y - self.list_area.y) + self.offset;
        if i < self.filtered.len() && i != self.sel {
            self.sel = i;
            return true;
        }
        false
    }

    fn shows_filter(&self, filtering: bool) -> bool {
        filtering || !self.filter.is_empty()
    }

    fn split(&self, area: Rect, filtering: bool) -> [Rect; 2] {
        let rows = u16::from(self.shows_filter(filtering));
        Layout::vertical([Constraint::Length(rows), Constraint::Min(0)]).areas(panes::inner(area))
    }

    /// Lays the list out in `area` and scrolls it to the selection.
    pub fn update(&mut self, area: Rect, filtering: bool) {
        if area.is_empty() {
            // Not shown: no click may land on where it was.
            self.list_area = Rect::default();
            return;
        }
        let [_, list] = self.split(area, filtering);
        self.list_area = list;
        self.offset = panes::window(
            self.offset,
            Some(self.sel),
            self.filtered.len(),
            list.height,
        );
    }

    pub fn render(
        &self,
        frame: &mut Frame,
        area: Rect,
        look: &Look,
        listing: &Listing,
        filtering: bool,
    ) {
        if area.is_empty() {
            return;
        }
        let theme = look.theme;
        let counts = format!("Skills ({}/{})", self.filtered.len(), listing.entries.len());
        // The list shown is the last reload's until the next lands; where
        // both do not fit, the counts (about to change) give way.
        // Checking: the first listing's verdicts are being confirmed.
        let busy = match (self.refreshing, listing.confirmed()) {
            (true, _) => Some("refreshing"),
            (false, false) => Some("checking"),
            (false, true) => None,
        };
        let title = match busy {
            None => counts,
            Some(what) if counts.chars().count() + what.len() + 9 <= usize::from(area.width) => {
                format!("{counts} · {what}")
            }
            Some(what) => format!("Skills · {what}"),
        };
        let title = panes::fit_title(title, area.width);
        frame.render_widget(panes::block(look, Pane::Skills, title), area);
        let [filter_area, list_area] = self.split(area, filtering);
        if self.shows_filter(filtering) {
            let cursor = if filtering { "▏" } else { "" };
            // Selected, the query shows as the selection typing replaces.
            let query = match self.filter.is_selected() {
                true => Span::styled(
                    sanitize_line(self.filter.as_str()).into_owned(),
                    theme.selected,
                ),
                false => Span::raw(with_cursor(&self.filter, cursor)),
            };
            let line = Line::from(vec![Span::styled("/", theme.accent), query]);
            frame.render_widget(Paragraph::new(line), filter_area);
        }
        let hint = if listing.entries.is_empty() {
            "No skills in the store.\nPress S to seed the defaults, a to install a folder.".into()
        } else if self.filtered.is_empty() {
            format!(
                "No skill matches “{}”.\nBackspace edits the filter, Esc clears it.",
                sanitize_line(self.filter.as_str())
            )
        } else {
            return self.render_rows(frame, list_area, look, listing);
        };
        let para = Paragraph::new(hint)
            .style(theme.dim)
            .wrap(Wrap { trim: true });
        frame.render_widget(para, list_area);
    }

    /// Only the rows on screen are built.
    fn render_rows(&self, frame: &mut Frame, area: Rect, look: &Look, listing: &Listing) {
        let theme = look.theme;
        let end = self
            .filtered
            .len()
            .min(self.offset + usize::from(area.height));
        let shown = &self.filtered[self.offset.min(end)..end];
        let worst = (self.audits).worst_of(
            shown
                .iter()
                .map(|&i| listing.entries[i].checked.path.as_path()),
        );
        let items: Vec<ListItem> = (shown.iter().zip(worst))
            .map(|(&i, worst)| {
                let e = &listing.entries[i];
                let style = match (e.confirmed, e.status) {
                    (false, _) => theme.dim,
                    (true, Status::Ok) => theme.ok,
                    (true, Status::Invalid) => theme.invalid_mark,
                    (true, Status::Shadowed) => theme.shadowed_mark,
                };
                let name_style = if e.status == Status::Ok || !e.confirmed {
                    theme.base
                } else {
                    style
                };
                let desc = e.description().lines().next().unwrap_or("");
                let width = usize::from(area.width);
                ListItem::new(fit(
                    Line::from(vec![
                        Span::styled(format!("{} ", row_mark(e)), style),
                        Span::styled(sanitize_line(e.name()).into_owned(), name_style),
                        Span::styled(audit_mark(worst), theme.severity(worst.flatten())),
                        Span::styled(self.check_mark(e), theme.warning),
                        Span::styled(self.agent_mark(e), theme.accent),
                        Span::styled(plugin_mark(listing, e), theme.accent),
                        Span::styled(format!("  {}", sanitize_line(desc)), theme.dim),
                    ]),
                    width,
                ))
            })
            .collect();
        let mut state = ListState::default().with_selected(self.sel.checked_sub(self.offset));
        let list = List::new(items).highlight_style(theme.selected);
        frame.render_stateful_widget(list, area, &mut state);
    }
}

/// ` ⚠` after a skill with a high or critical audit finding.
fn audit_mark(worst: Option<Option<crate::core::audit::Severity>>) -> &'static str {
    match worst.flatten() {
        Some(s) if s.alarming() => " ⚠",
        _ => "",
    }
}

/// ` [plugin: NAME]`: an agent plugin owns this skill of the store.
fn plugin_mark(listing: &Listing, e: &Entry) -> String {
    match listing.plugin(e) {
        Some(p) => format!(" [plugin: {}]", sanitize_line(p)),
        None => String::new(),
    }
}

impl SkillsPane {
    /// ` ◆N`: N detected agents load a skill of this name.
    fn agent_mark(&self, e: &Entry) -> String {
        match self.agent_marks.get(e.name()) {
            Some(n) => format!(" ◆{n}"),
            None => String::new(),
        }
    }

    /// ` ⇡` when upstream moved, ` ✎` when edited here, as `U` found.
    fn check_mark(&self, e: &Entry) -> &'static str {
        match self.checked.get(&e.checked.path) {
            Some(remote::Status::Outdated) => " ⇡",
            Some(remote::Status::Modified) => " ✎",
            _ => "",
        }
    }
}

/// A field's text, sanitized, with `mark` where the cursor is.
pub fn with_cursor(input: &LineInput, mark: &str) -> String {
    let (before, after) = input.split();
    format!("{}{mark}{}", sanitize_line(before), sanitize_line(after))
}

/// A row's mark: its status, or `…` while its verdict is being checked
/// (the first listing's guess).
fn row_mark(e: &Entry) -> &'static str {
    match e.confirmed {
        true => mark(e.status),
        false => "…",
    }
}

/// A skill's status mark.
pub fn mark(status: Status) -> &'static str {
    match status {
        Status::Ok => "✓",
        Status::Invalid => "✗",
        Status::Shadowed => "◌",
    }
}
