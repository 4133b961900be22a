//! The Preview pane: CAO's verdict on the selected skill, its findings and
//! its SKILL.md rendered. Rendering happens in the update pass (on a worker
//! thread for a big file), never while drawing.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::Sender;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Paragraph};

use crate::core::cao::skill;
use crate::core::cao::store::{Entry, Status};
use crate::core::fsops;
use crate::core::sources::lock;
use crate::core::text::sanitize_line;
use crate::tui::events::{AppEvent, PreviewKey};
use crate::tui::keymap::Cmd;
use crate::tui::markdown::{Highlighter, Rendered, wrap_line};
use crate::tui::panes::files::{self, FileRow};
use crate::tui::panes::search::Search;
use crate::tui::panes::skills::with_cursor;
use crate::tui::panes::{self, Look, Pane};
use crate::tui::theme::{NO_SYNTAX_THEME, Theme};

/// SKILL.md files bigger than this render off the UI thread: a 500 KiB one
/// takes about 100 ms the first time, several frames.
const BACKGROUND_RENDER_BYTES: u64 = 64 * 1024;

#[derive(Default)]
pub struct PreviewPane {
    pub scroll: u16,
    /// Where worker threads report finished previews; `None` (tests, tools)
    /// renders every preview on the spot.
    pub renders: Option<Sender<AppEvent>>,
    area: Rect,
    /// The preview being rendered on a worker thread.
    rendering: Option<PreviewKey>,
    cache: Option<(PreviewKey, Arc<Rendered>)>,
    /// The spec lints of the selected folder: the listing skips them (they
    /// walk every folder), so they are found for the one on screen only.
    lints: Option<(PathBuf, Vec<String>)>,
    /// The audit reports: the selected skill's findings show under the
    /// verdict.
    pub audits: crate::tui::audits::Cache,
    /// What the update pass picked for the next frame.
    header: Vec<Line<'static>>,
    body: Arc<Rendered>,
    /// `/` in this pane: the query, its matches and the current one.
    pub search: Search,
    /// SKILL.md, the list of the skill's other files, or one of them.
    pub view: View,
    /// The cursor in the file list.
    pub file_sel: usize,
    /// `o` opened the file list from the Skills pane: backing out of the
    /// list goes straight back there.
    pub files_from_skills: bool,
    /// The files of the folder shown: (folder, rows, cut short), listed
    /// once per selection and again after a reload.
    files: Option<(PathBuf, Vec<FileRow>, bool)>,
    files_stale: bool,
    /// The list's body as built for this cursor: while it is still the
    /// body shown, a frame reuses it (and the search does not run again).
    list_drawn: Option<(usize, Arc<Rendered>)>,
    /// `<` `>`: columns the code blocks are scrolled sideways; back to 0
    /// for another file.
    pub code_shift: u16,
}

/// Columns one `<` or `>` scrolls code.
const CODE_STEP: u16 = 8;

/// What the Preview pane shows of the selected skill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    #[default]
    Skill,
    Files,
    /// The file at this row of the list.
    File(usize),
}

impl PreviewPane {
    /// A command in this pane; true when it backs out of the pane, to
    /// where Enter (or `o`) came from.
    pub fn on_cmd(&mut self, cmd: Cmd) -> bool {
        match cmd {
            Cmd::Move(m) if self.view != View::Files => {
                self.scroll = panes::scroll(self.scroll, m, panes::page(panes::inner(self.area)));
            }
            // From what shows (a wider pane may need less than was shifted).
            Cmd::CodeLeft => {
                let most = self.body.code_overflow;
                self.code_shift = self.code_shift.min(most).saturating_sub(CODE_STEP);
            }
            // As far as the widest code line goes past its block.
            Cmd::CodeRight => {
                let most = self.body.code_overflow;
                self.code_shift = self.code_shift.saturating_add(CODE_STEP).min(most);
            }
            Cmd::NextMatch | Cmd::PrevMatch => {
                let row = self.search.step(if cmd == Cmd::NextMatch { 1 } else { -1 });
                self.show_row(row);
            }
            Cmd::Back if self.search.is_active() => self.search.clear(),
            _ => return self.files_cmd(cmd),
        }
        false
    }

    /// Moves, Enter and Esc in the file list and in an opened file; true
    /// when Esc leaves the pane.
    fn files_cmd(&mut self, cmd: Cmd) -> bool {
        let len = self.file_rows().len();
        match (self.view, cmd) {
            (View::Files, Cmd::Move(m)) => {
                let page = panes::page(panes::inner(self.area));
                self.file_sel = panes::move_in(self.file_sel, len, m, page);
            }
            (View::Files, Cmd::Open)
                if self
                    .file_rows()
                    .get(self.file_sel)
                    .is_some_and(FileRow::opens) =>
            {
                self.view = View::File(self.file_sel);
                self.scroll = 0;
            }
            (View::File(_), Cmd::Back) => self.view = View::Files,
            (View::Files, Cmd::Back) => {
                self.show_skill();
                return std::mem::take(&mut self.files_from_skills);
            }
            (View::Skill, Cmd::Back) => return true,
            _ => {}
        }
        false
    }

    /// `o`: the file list, or back to SKILL.md from it; a message when
    /// there is nothing to list.
    /// `folder` is the selected skill's, which keys queued in one burst
    /// may have changed since the last frame.
    pub fn toggle_files(&mut self, folder: Option<&Path>) -> Option<String> {
        self.follow_folder(folder);
        if self.view != View::Skill {
            self.show_skill();
            return None;
        }
        if self.file_rows().is_empty() {
            return Some("this skill has no other files: SKILL.md is all of it".into());
        }
        self.view = View::Files;
        self.search.clear();
        None
    }

    fn show_skill(&mut self) {
        self.view = View::Skill;
        self.scroll = 0;
        self.search.clear();
    }

    pub fn file_rows(&self) -> &[FileRow] {
        self.files.as_ref().map_or(&[], |(_, rows, _)| rows)
    }

    /// Lists the folder's files when another skill is shown (back to its
    /// SKILL.md) or after a reload (keeping the view where it still fits).
    fn follow_folder(&mut self, folder: Option<&Path>) {
        let same = self.files.as_ref().map(|(p, _, _)| p.as_path()) == folder;
        if same && !self.files_stale {
            return;
        }
        self.files_stale = false;
        self.list_drawn = None;
        self.files = folder.map(|p| {
            let (rows, cut) = files::list(p);
            (p.to_path_buf(), rows, cut)
        });
        let len = self.file_rows().len();
        if !same {
            self.view = View::Skill;
            self.file_sel = 0;
        } else if matches!(self.view, View::File(i) if i >= len) {
            self.view = View::Files;
        }
        self.file_sel = self.file_sel.min(len.saturating_sub(1));
    }

    /// Columns the widest code line on screen goes past its block.
    pub fn code_overflow(&self) -> u16 {
        self.body.code_overflow
    }

    /// `/`: a new search from the rows on screen.
    pub fn start_search(&mut self) {
        self.search.clear();
        self.search.typing = true;
        self.search.origin = usize::from(self.scroll);
    }

    /// A key typed into the query: the view jumps to the first match from
    /// where the search started, as the query grows.
    pub fn type_in_search(&mut self, key: ratatui::crossterm::event::KeyEvent) {
        let before = self.search.input.as_str().to_string();
        self.search.input.key(key);
        if self.search.input.as_str() != before {
            self.search.jump_from = Some(self.search.origin);
        }
    }

    /// Scrolls so that `row` shows a third of the way down the view.
    fn show_row(&mut self, row: Option<usize>) {
        if let Some(row) = row {
            let third = usize::from(panes::inner(self.area).height / 3);
            self.scroll = row.saturating_sub(third).min(usize::from(u16::MAX)) as u16;
        }
    }

    /// Picks (and if need be renders) what shows for `entry` in `area`, and
    /// clamps the scroll to it.
    pub fn update(
        &mut self,
        area: Rect,
        entry: Option<&Entry>,
        pin: Option<&lock::Entry>,
        theme: &Theme,
        hl: &Arc<Highlighter>,
    ) {
        self.area = area;
        if area.is_empty() {
            return;
        }
        let inner = panes::inner(area);
        let width = inner.width.saturating_sub(1);
        self.follow_folder(entry.map(|e| e.checked.path.as_path()));
        match (self.view, entry) {
            (_, None) => {
                self.header = Vec::new();
                self.body = Arc::new(Rendered::default());
            }
            (View::Skill, Some(e)) => {
                let lints = self.lints(e).to_vec();
                self.header = header(e, &lints, pin, theme, usize::from(width));
                let at = self.header.len().saturating_sub(1);
                let audit = audit_lines(&self.audits, &e.checked.path, theme, usize::from(width));
                self.header.splice(at..at, audit);
                let (rows, cut) = self
                    .files
                    .as_ref()
                    .map_or((&[][..], false), |f| (&f.1[..], f.2));
                if let Some(s) = files::summary(rows, cut) {
                    let at = self.header.len().saturating_sub(1);
                    let line = Line::styled(sanitize_line(&s).into_owned(), theme.accent);
                    self.header
                        .splice(at..at, wrap_line(&line, usize::from(width)));
                }
                self.body = self.fetch(&e.checked.path.join("SKILL.md"), width, theme, hl);
            }
            (View::Files, Some(_)) => self.update_file_list(inner.height, theme),
            (View::File(i), Some(_)) => {
                let row = self.file_rows()[i].clone();
                let about = format!(
                    "{} · {} · Esc: the file list",
                    row.rel,
                    files::size(row.size)
                );
                self.header = vec![
                    Line::styled(sanitize_line(&about).into_owned(), theme.dim),
                    Line::default(),
                ];
                self.body = self.fetch(&row.path, width, theme, hl);
            }
        }
        if self.search.is_active() {
            let lines: Vec<&Line> = self.header.iter().chain(self.body.lines.iter()).collect();
            let id = Arc::as_ptr(&self.body) as usize;
            let row = self.search.refresh(&lines, id);
            self.show_row(row);
        }
        let total = self.header.len() + self.body.lines.len();
        let max = total.saturating_sub(usize::from(inner.height));
        self.scroll = self.scroll.min(max.min(usize::from(u16::MAX)) as u16);
    }

    /// The file list, scrolled to its cursor.
    fn update_file_list(&mut self, height: u16, theme: &Theme) {
        let (rows, cut) = self
            .files
            .as_ref()
            .map_or((&[][..], false), |f| (&f.1[..], f.2));
        let drawn = (self.list_drawn.as_ref())
            .is_some_and(|(sel, body)| *sel == self.file_sel && Arc::ptr_eq(body, &self.body));
        if !drawn {
            self.header = list_header(rows.len(), cut, theme);
            self.body = Arc::new(Rendered {
                lines: list_lines(rows, self.file_sel, theme),
                code_overflow: 0,
            });
            self.list_drawn = Some((self.file_sel, self.body.clone()));
        }
        let total = self.header.len() + rows.len();
        let at = self.header.len() + self.file_sel;
        let first = panes::window(usize::from(self.scroll), Some(at), total, height);
        self.scroll = first.min(usize::from(u16::MAX)) as u16;
    }

    /// The lints of `e`'s folder, found once per selection and reload.
    fn lints(&mut self, e: &Entry) -> &[String] {
        let path = &e.checked.path;
        if self.lints.as_ref().is_none_or(|(p, _)| p != path) {
            let found = skill::check_candidate(path, true).map(|c| c.warnings);
            self.lints = Some((path.clone(), found.unwrap_or_default()));
        }
        self.lints.as_ref().map_or(&[], |(_, l)| l)
    }

    /// The folders may have changed: find the lints again.
    pub fn forget_lints(&mut self) {
        self.lints = None;
        self.files_stale = true;
    }

    /// The rendering of `skill_md` at `width`, made once per (file, mtime,
    /// width) and plain until syntect has loaded. A big file renders on a
    /// worker thread when the event loop listens for it; its old rendering,
    /// or a note, shows meanwhile.
    fn fetch(
        &mut self,
        skill_md: &Path,
        width: u16,
        theme: &Theme,
        hl: &Arc<Highlighter>,
    ) -> Arc<Rendered> {
        if (self.cache.as_ref()).is_some_and(|(k, _)| k.path != skill_md) {
            self.code_shift = 0;
        }
        let meta = std::fs::metadata(skill_md).ok();
        let key = PreviewKey {
            modified: meta.as_ref().and_then(|m| m.modified().ok()),
            path: skill_md.to_path_buf(),
            width,
            code_shift: self.code_shift,
            highlighted: hl.is_ready(),
        };
        if let Some((k, r)) = &self.cache
            && *k == key
        {
            return r.clone();
        }
        let big = meta.is_some_and(|m| m.len() > BACKGROUND_RENDER_BYTES);
        if big && let Some(tx) = self.renders.clone() {
            return self.render_in_background(key, tx, theme, hl);
        }
        let rendered = Arc::new(render_file(&key, theme, hl));
        self.cache = Some((key, rendered.clone()));
        rendered
    }

    fn render_in_background(
        &mut self,
        key: PreviewKey,
        tx: Sender<AppEvent>,
        theme: &Theme,
        hl: &Arc<Highlighter>,
    ) -> Arc<Rendered> {
        if self.rendering.as_ref() != Some(&key) {
            self.rendering = Some(key.clone());
            let (theme, hl) = (theme.clone(), hl.clone());
            std::thread::spawn(move || {
                let rendered = Arc::new(render_file(&key, &theme, &hl));
                let _ = tx.send(AppEvent::PreviewReady(Box::new((key, rendered))));
            });
        }
        match &self.cache {
            // The same file at another width or mtime: better than nothing.
            Some((k, r)) if Some(&k.path) == self.rendering.as_ref().map(|r| &r.path) => r.clone(),
            _ => Arc::new(Rendered {
                lines: vec![Line::styled("rendering…", theme.dim)],
                code_overflow: 0,
            }),
        }
    }

    /// A worker thread finished rendering a preview.
    pub fn ready(&mut self, key: PreviewKey, rendered: Arc<Rendered>) {
        if self.rendering.as_ref() == Some(&key) {
            self.rendering = None;
        }
        self.cache = Some((key, rendered));
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Look, entry: Option<&Entry>) {
        if area.is_empty() {
            return;
        }
        // Borders, " 2 ", "Preview · " and the trailing space take 16 columns.
        let room = usize::from(area.width).saturating_sub(16);
        let shown = match (self.view, entry) {
            (View::File(i), Some(_)) => self.file_rows().get(i).map(|r| r.path.clone()),
            (_, e) => e.map(|e| e.checked.path.clone()),
        };
        let title = match shown {
            Some(p) => format!(
                "Preview · {}",
                panes::elide_left(&sanitize_line(&p.display().to_string()), room)
            ),
            None => "Preview".into(),
        };
        let block = panes::block(look, Pane::Preview, title);
        let inner = block.inner(area);
        let block = self.footer(block, look, area.width, inner.height);
        frame.render_widget(block, area);
        // Only the visible rows are cloned: a 500 KiB SKILL.md has thousands.
        let theme = look.theme;
        let hit = theme.warning.add_modifier(Modifier::REVERSED);
        let first = usize::from(self.scroll);
        let visible: Vec<Line> = self
            .header
            .iter()
            .chain(self.body.lines.iter())
            .enumerate()
            .skip(first)
            .take(usize::from(inner.height))
            .map(|(row, l)| match self.search.is_active() {
                true => self.search.mark(row, l, hit, theme.selected),
                false => l.clone(),
            })
            .collect();
        frame.render_widget(Paragraph::new(Text::from(visible)), inner);
    }

    /// The border's bottom: the search on the left, the rows shown of how
    /// many on the right (`1-38/80`) when they do not all fit.
    fn footer<'a>(&self, block: Block<'a>, look: &Look, width: u16, height: u16) -> Block<'a> {
        let theme = look.theme;
        let total = self.header.len() + self.body.lines.len();
        let total = total.min(usize::from(u16::MAX)) as u16;
        let fits = |a: &String| a.len() + 2 <= usize::from(width);
        let block = match panes::position(self.scroll, height, total).filter(fits) {
            None => block,
            Some(at) => block.title_bottom(Line::styled(at, theme.dim).right_aligned()),
        };
        if !self.search.is_active() {
            return block;
        }
        let cursor = if self.search.typing { "▏" } else { "" };
        let query = with_cursor(&self.search.input, cursor);
        block.title_bottom(Line::from(vec![
            Span::styled(" /", theme.accent),
            Span::raw(query),
            Span::styled(format!("  {} ", self.search.counter()), theme.dim),
        ]))
    }
}

fn list_header(entries: usize, cut: bool, theme: &Theme) -> Vec<Line<'static>> {
    let more = if cut { " (cut short)" } else { "" };
    let title = format!("{entries} entries{more} · Enter opens · Esc: SKILL.md");
    vec![Line::styled(title, theme.dim), Line::default()]
}

/// The file list's rows, the cursor's highlighted.
fn list_lines(rows: &[FileRow], cursor: usize, theme: &Theme) -> Vec<Line<'static>> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let line = files::row_line(r, theme);
            match i == cursor {
                // Over each span, as a list's highlight is: a theme's
                // selection colours win over the name's own.
                true => Line::from(
                    line.spans
                        .into_iter()
                        .map(|sp| {
                            let style = sp.style.patch(theme.selected);
                            sp.style(style)
                        })
                        .collect::<Vec<_>>(),
                ),
                false => line,
            }
        })
        .collect()
}

/// The verdict and the findings above the rendered file.
fn header(
    e: &Entry,
    lints: &[String],
    pin: Option<&lock::Entry>,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let status = match e.status {
        Status::Ok => Span::styled("✓ CAO loads this skill", theme.ok),
        Status::Invalid => Span::styled("✗ CAO skips this folder", theme.error),
        Status::Shadowed => Span::styled(
            "◌ shadowed: an earlier folder of this name wins",
            theme.warning,
        ),
    };
    let mut lines = wrap_line(&Line::from(status), width);
    for err in &e.checked.errors {
        lines.extend(finding("✗", err, theme.error, width));
    }
    for w in lints {
        lines.extend(finding("!", w, theme.warning, width));
    }
    if let Some(pin) = pin {
        lines.extend(wrap_line(&provenance(pin, theme), width));
    }
    lines.push(Line::default());
    lines
}

/// The findings shown one by one; the rest are counted.
const FINDINGS_SHOWN: usize = 8;

/// The audit's findings on the skill in `folder`, worst first, each with
/// its severity, rule, file and line (nothing before the audits start).
fn audit_lines(
    audits: &crate::tui::audits::Cache,
    folder: &Path,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    if !audits.started() {
        return Vec::new();
    }
    let Some(report) = audits.get(folder) else {
        return vec![Line::styled(
            "◌ audit: reading the skill's files…",
            theme.dim,
        )];
    };
    let Some(worst) = report.worst() else {
        return vec![Line::styled("✓ audit: nothing found", theme.dim)];
    };
    let n = report.findings.len();
    let head = format!(
        "{} audit: worst {}, {}",
        if worst.alarming() { "⚠" } else { "·" },
        worst.label(),
        panes::count(n, "finding")
    );
    let mut lines = wrap_line(&Line::styled(head, theme.severity(Some(worst))), width);
    // Low findings (a script file, say) are what most skills have: listed
    // one by one they pushed the skill's text off the first screen.
    let (listed, low): (Vec<_>, Vec<_>) =
        (report.findings.iter()).partition(|f| f.severity > crate::core::audit::Severity::Low);
    for f in listed.iter().take(FINDINGS_SHOWN) {
        let mark = if f.severity.alarming() { "⚠" } else { "·" };
        lines.extend(finding(
            mark,
            &f.summary(),
            theme.severity(Some(f.severity)),
            width,
        ));
    }
    if listed.len() > FINDINGS_SHOWN {
        let more = format!("    … {} more", listed.len() - FINDINGS_SHOWN);
        lines.push(Line::styled(more, theme.dim));
    }
    if !low.is_empty() {
        let text = format!("  · {}", low_summary(&low));
        lines.push(Line::styled(panes::elide_right(&text, width), theme.dim));
    }
    lines
}

/// The low findings in one line: how many, of which rules, and where the
/// list is (`8 low: script-file ×8 (skilltui audit lists them)`).
fn low_summary(low: &[&crate::core::audit::Finding]) -> String {
    let mut rules: Vec<(&str, usize)> = Vec::new();
    for f in low {
        match rules.iter_mut().find(|(r, _)| *r == f.rule) {
            Some((_, n)) => *n += 1,
            None => rules.push((f.rule, 1)),
        }
    }
    let rules: Vec<String> = (rules.iter())
        .map(|&(r, n)| match n {
            1 => r.to_string(),
            n => format!("{r} ×{n}"),
        })
        .collect();
    format!(
        "{} low: {} (skilltui audit lists them)",
        low.len(),
        rules.join(", ")
    )
}

/// Where a locked skill came from: its source, the ref asked for and the
/// commit installed.
fn provenance(pin: &lock::Entry, theme: &Theme) -> Line<'static> {
    let path = match pin.path.as_str() {
        "" => String::new(),
        p => format!(" {p}"),
    };
    let reference = pin.reference.as_deref().unwrap_or("default branch");
    let commit = &pin.commit[..pin.commit.len().min(12)];
    let text = format!(
        "⎇ from {}{path} ({reference}), pinned at {commit}",
        pin.source
    );
    Line::styled(sanitize_line(&text).into_owned(), theme.accent)
}

/// A finding under the verdict: `  ✗ message`, wrapped with the message's
/// later lines indented under its first.
fn finding(mark: &str, text: &str, style: Style, width: usize) -> Vec<Line<'static>> {
    let body = Line::styled(sanitize_line(text).into_owned(), style);
    wrap_line(&body, width.saturating_sub(4).max(1))
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let lead = if i == 0 {
                format!("  {mark} ")
            } else {
                "    ".into()
            };
            let mut spans = vec![Span::raw(lead)];
            spans.extend(l.spans);
            Line::from(spans).style(style)
        })
        .collect()
}

/// A SKILL.md rendered for the preview (plain when highlighting is not
/// loaded yet), or its read error.
fn render_file(key: &PreviewKey, theme: &Theme, hl: &Highlighter) -> Rendered {
    let mut theme = theme.clone();
    if !key.highlighted {
        theme.syntax_theme = NO_SYNTAX_THEME.into();
    }
    if key.path.file_name() != Some(std::ffi::OsStr::new("SKILL.md")) {
        return files::render(&key.path, key.width, key.code_shift, &theme, hl);
    }
    if let Some(real) = key
        .path
        .parent()
        .and_then(|folder| fsops::leads_out(folder, Path::new("SKILL.md")))
    {
        return Rendered {
            lines: links_out_lines(&real, key.width, &theme),
            code_overflow: 0,
        };
    }
    match skill::read_doc(&key.path) {
        Ok(doc) => {
            let body = &doc.frontmatter.body;
            Rendered::skill(&doc.pairs(), body, key.width, key.code_shift, &theme, hl)
        }
        // The findings above already say why; show what can be shown.
        Err(_) => Rendered {
            lines: lossy_lines(&key.path, key.width, &theme),
            code_overflow: 0,
        },
    }
}

/// A SKILL.md that links out of its folder (maybe to a secret): where it
/// leads, not what it holds. CAO reads it as the skill, so the listing's
/// verdict and `show` stay CAO's; only the drawing is withheld.
fn links_out_lines(real: &Path, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let text = format!(
        "SKILL.md links out of its folder, to {}: not shown here (CAO reads it as this skill).",
        crate::core::text::sanitize(&real.display().to_string())
    );
    wrap_line(&Line::styled(text, theme.dim), usize::from(width.max(1)))
}

/// A SKILL.md that is not UTF-8, as plain text with each bad byte as `�`,
/// so the user can find it; nothing for a file that cannot be read.
fn lossy_lines(path: &Path, width: u16, theme: &Theme) -> Vec<Line<'static>> {
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
        lines.extend(wrap_line(
            &Line::raw(l.to_string()),
            usize::from(width.max(1)),
        ));
    }
    lines
}
