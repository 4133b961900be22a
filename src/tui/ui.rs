//! Drawing the App: four panes (two or one when narrow), the dialogs, and
//! the status line. Text read from disk is sanitized before it is drawn.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{
    Block, BorderType, Borders, Clear, List, ListItem, ListState, Paragraph, Wrap,
};

use crate::core::store::Status;
use crate::core::text::{sanitize, sanitize_line};
use crate::tui::app::{App, Areas, Dialog, Pane, Tick, mark};
use crate::tui::markdown::wrap_line;

/// Wide enough for all four panes at once.
const FULL_WIDTH: u16 = 100;
/// Below this, one pane at a time.
const PAIR_WIDTH: u16 = 60;

pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    frame.render_widget(Block::default().style(app.theme.base), area);
    let status_rows = status_height(app, area);
    let [body, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(status_rows)]).areas(area);
    app.areas = layout(body, app.focus);
    let a = app.areas;
    draw_skills(frame, app, a.skills);
    draw_preview(frame, app, a.preview);
    draw_profiles(frame, app, a.profiles);
    draw_catalog(frame, app, a.catalog);
    draw_status(frame, app, status);
    draw_dialog(frame, app, area);
}

/// Where each pane goes; a pane that does not fit gets an empty rect.
pub fn layout(body: Rect, focus: Pane) -> Areas {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(38), Constraint::Percentage(62)]).areas(body);
    if body.width >= FULL_WIDTH && body.height >= 16 {
        let [skills, profiles] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(left);
        let [preview, catalog] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        return Areas {
            skills,
            preview,
            profiles,
            catalog,
            ..Areas::default()
        };
    }
    let mut a = Areas::default();
    if body.width < PAIR_WIDTH {
        match focus {
            Pane::Skills => a.skills = body,
            Pane::Preview => a.preview = body,
            Pane::Profiles => a.profiles = body,
            Pane::Catalog => a.catalog = body,
        }
    } else if matches!(focus, Pane::Skills | Pane::Preview) {
        (a.skills, a.preview) = (left, right);
    } else {
        (a.profiles, a.catalog) = (left, right);
    }
    a
}

fn pane_block<'a>(app: &App, pane: Pane, title: String) -> Block<'a> {
    let focused = app.focus == pane;
    let n = Pane::ALL.iter().position(|p| *p == pane).unwrap_or(0) + 1;
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(if focused {
            app.theme.border_focused
        } else {
            app.theme.border
        })
        .title(Line::from(vec![
            Span::styled(format!(" {n} "), app.theme.dim),
            Span::styled(format!("{title} "), app.theme.title),
        ]))
}

fn draw_skills(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.is_empty() {
        return;
    }
    let title = format!(
        "Skills ({}/{})",
        app.filtered.len(),
        app.listing.entries.len()
    );
    let block = pane_block(app, Pane::Skills, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let show_filter = app.filtering || !app.filter.is_empty();
    let [filter_area, list_area] = Layout::vertical([
        Constraint::Length(u16::from(show_filter)),
        Constraint::Min(0),
    ])
    .areas(inner);
    if show_filter {
        let cursor = if app.filtering { "▏" } else { "" };
        let line = Line::from(vec![
            Span::styled("/", app.theme.accent),
            Span::raw(with_cursor(&app.filter, cursor)),
        ]);
        frame.render_widget(Paragraph::new(line), filter_area);
    }
    if app.listing.entries.is_empty() {
        let hint = "No skills in the store.\nPress S to seed the defaults, a to install a folder.";
        frame.render_widget(
            Paragraph::new(hint)
                .style(app.theme.dim)
                .wrap(Wrap { trim: true }),
            list_area,
        );
        return;
    }
    if app.filtered.is_empty() {
        let hint = format!(
            "No skill matches “{}”.\nBackspace edits the filter, Esc clears it.",
            sanitize_line(app.filter.as_str())
        );
        frame.render_widget(
            Paragraph::new(hint)
                .style(app.theme.dim)
                .wrap(Wrap { trim: true }),
            list_area,
        );
        app.areas.skills_list = list_area;
        return;
    }
    let sel = app.skill_sel;
    let first = window(
        app.offsets.skills,
        Some(sel),
        app.filtered.len(),
        list_area.height,
    );
    let shown = &app.filtered[first
        ..app
            .filtered
            .len()
            .min(first + usize::from(list_area.height))];
    let items: Vec<ListItem> = shown
        .iter()
        .map(|&i| {
            let e = &app.listing.entries[i];
            let style = match e.status {
                Status::Ok => app.theme.ok,
                Status::Invalid => app.theme.invalid_mark,
                Status::Shadowed => app.theme.shadowed_mark,
            };
            let desc = e.description().lines().next().unwrap_or("");
            ListItem::new(Line::from(vec![
                Span::styled(format!("{} ", mark(e.status)), style),
                Span::styled(
                    sanitize_line(e.name()).into_owned(),
                    if e.status == Status::Ok {
                        app.theme.base
                    } else {
                        style
                    },
                ),
                Span::styled(format!("  {}", sanitize_line(desc)), app.theme.dim),
            ]))
        })
        .collect();
    let mut state = ListState::default().with_selected(sel.checked_sub(first));
    let list = List::new(items).highlight_style(app.theme.selected);
    frame.render_stateful_widget(list, list_area, &mut state);
    app.offsets.skills = first;
    app.areas.skills_list = list_area;
}

/// The first row of a list window `height` rows tall that shows `selected`,
/// moving from the previous `offset` as little as possible. Only that
/// window is built: a 1000-skill list costs no more than a short one.
fn window(offset: usize, selected: Option<usize>, len: usize, height: u16) -> usize {
    let height = usize::from(height.max(1));
    let mut first = offset.min(len.saturating_sub(height));
    if let Some(sel) = selected {
        if sel < first {
            first = sel;
        } else if sel >= first + height {
            first = sel + 1 - height;
        }
    }
    first
}

fn draw_preview(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.is_empty() {
        return;
    }
    // Borders, " 2 ", "Preview · " and the trailing space take 16 columns.
    let room = usize::from(area.width).saturating_sub(16);
    let title = match app.selected_entry() {
        Some(e) => format!(
            "Preview · {}",
            elide_left(&sanitize_line(&e.checked.path.display().to_string()), room)
        ),
        None => "Preview".into(),
    };
    let block = pane_block(app, Pane::Preview, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width.saturating_sub(1));
    let mut header: Vec<Line> = Vec::new();
    if let Some(e) = app.selected_entry() {
        let status = match e.status {
            Status::Ok => Span::styled("✓ CAO loads this skill", app.theme.ok),
            Status::Invalid => Span::styled("✗ CAO skips this folder", app.theme.error),
            Status::Shadowed => Span::styled(
                "◌ shadowed: an earlier folder of this name wins",
                app.theme.warning,
            ),
        };
        header.extend(wrap_line(&Line::from(status), width));
        for err in &e.checked.errors {
            header.extend(finding("✗", err, app.theme.error, width));
        }
        for w in &e.checked.warnings {
            header.extend(finding("!", w, app.theme.warning, width));
        }
        header.push(Line::default());
    }
    let rendered = app.preview(inner.width.saturating_sub(1));
    let total = header.len() + rendered.lines.len();
    let max = total.saturating_sub(inner.height as usize);
    app.preview_scroll = app
        .preview_scroll
        .min(max.min(usize::from(u16::MAX)) as u16);
    // Only the visible rows are cloned: a 500 KiB SKILL.md has thousands.
    let visible: Vec<Line> = header
        .iter()
        .chain(rendered.lines.iter())
        .skip(usize::from(app.preview_scroll))
        .take(usize::from(inner.height))
        .cloned()
        .collect();
    frame.render_widget(Paragraph::new(Text::from(visible)), inner);
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

/// `text` cut to `max` columns from the left, so a path keeps its end.
fn elide_left(text: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let width: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if width <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut kept = Vec::new();
    let mut used = 1; // the ellipsis
    for c in text.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > max {
            break;
        }
        used += w;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

fn draw_profiles(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.is_empty() {
        return;
    }
    let block = pane_block(
        app,
        Pane::Profiles,
        format!("Profiles ({})", app.profiles.len()),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let detail = profile_detail(app, usize::from(inner.width));
    // The path and the skills line wrap rather than hide each other.
    let detail_height =
        wrapped_height(&detail.lines, inner.width).clamp(2, (inner.height / 3).max(2));
    // The list gets a third, and whatever a short checklist leaves unused.
    let checks = app.listing.valid().count() as u16;
    let spare = inner.height.saturating_sub(detail_height + checks);
    let list_height = (app.profiles.len() as u16).clamp(1, (inner.height / 3).max(spare).max(1));
    let [list_area, detail_area, checks_area] = Layout::vertical([
        Constraint::Length(list_height),
        Constraint::Length(detail_height),
        Constraint::Min(0),
    ])
    .areas(inner);
    let items: Vec<ListItem> = app
        .profiles
        .iter()
        .map(|r| {
            let broken = r.loaded.is_err();
            ListItem::new(Line::from(vec![
                Span::styled(if broken { "✗ " } else { "  " }, app.theme.error),
                Span::raw(sanitize_line(&r.listed.name).into_owned()),
                Span::styled(format!("  {}", r.listed.location.source), app.theme.dim),
            ]))
        })
        .collect();
    let highlight = if app.in_checklist {
        app.theme.accent.add_modifier(Modifier::BOLD)
    } else {
        app.theme.selected
    };
    let mut state = ListState::default()
        .with_selected(Some(app.profile_sel))
        .with_offset(app.offsets.profiles);
    frame.render_stateful_widget(
        List::new(items).highlight_style(highlight),
        list_area,
        &mut state,
    );
    app.offsets.profiles = state.offset();
    app.areas.profiles_list = list_area;
    frame.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: false }),
        detail_area,
    );
    draw_checklist(frame, app, checks_area);
}

fn profile_detail(app: &App, width: usize) -> Text<'static> {
    let Some(row) = app.selected_profile() else {
        return Text::styled("no profiles: add one to the agent store", app.theme.dim);
    };
    let where_ = match &row.listed.location.path {
        Some(p) => sanitize_line(&p.display().to_string()).into_owned(),
        None => "built into CAO (read-only)".into(),
    };
    let skills = match &row.loaded {
        Err(e) => Line::styled(format!("✗ {}", sanitize_line(e)), app.theme.error),
        Ok(p) => match &p.skills {
            None => Line::styled("skills: (not listed: every skill)", app.theme.dim),
            Some(s) if s.is_empty() => Line::styled("skills: [] (no catalog)", app.theme.dim),
            Some(s) => Line::styled(
                format!("skills: {}", sanitize_line(&s.join(", "))),
                app.theme.dim,
            ),
        },
    };
    let mut lines = vec![Line::styled(where_, app.theme.dim), skills];
    // The other frontmatter fields after, one row each: they matter less
    // than `skills` and are the first to go when the pane is short.
    for (key, value) in row.fields.iter().filter(|(k, _)| k != "skills") {
        let key = format!("{}: ", sanitize_line(key));
        let room = width.saturating_sub(key.chars().count());
        let mut first = sanitize_line(value.lines().next().unwrap_or("")).into_owned();
        if value.trim_end().contains('\n') {
            first.push_str(" …");
        }
        lines.push(Line::from(vec![
            Span::styled(key, app.theme.accent),
            Span::styled(elide_right(&first, room), app.theme.dim),
        ]));
    }
    Text::from(lines)
}

/// `text` cut to `max` columns, an ellipsis marking the cut.
fn elide_right(text: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let width = |c: char| c.width().unwrap_or(0);
    if text.chars().map(width).sum::<usize>() <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut used = 1; // the ellipsis
    let mut out: String = text
        .chars()
        .take_while(|&c| {
            used += width(c);
            used <= max
        })
        .collect();
    out.push('…');
    out
}

fn draw_checklist(frame: &mut Frame, app: &mut App, area: Rect) {
    let ticks = app.ticks();
    let valid = app.valid_skills();
    let sel = app.in_checklist.then_some(app.check_sel);
    let first = window(app.offsets.checklist, sel, valid.len(), area.height);
    let items: Vec<ListItem> = valid
        .iter()
        .zip(&ticks)
        .skip(first)
        .take(usize::from(area.height))
        .map(|(e, tick)| {
            let (box_, style) = match tick {
                Tick::Off => ("[ ]", app.theme.checkbox_off),
                Tick::Exact => ("[x]", app.theme.checkbox_on),
                Tick::Pattern(_) => ("[*]", app.theme.pattern_match),
                Tick::All => ("[x]", app.theme.dim),
            };
            let mut spans = vec![
                Span::styled(format!("{box_} "), style),
                Span::raw(sanitize_line(e.name()).into_owned()),
            ];
            if let Tick::Pattern(p) = tick {
                spans.push(Span::styled(
                    format!("  via {}", sanitize_line(&p.join(", "))),
                    app.theme.pattern_match,
                ));
            }
            ListItem::new(Line::from(spans))
        })
        .collect();
    let mut state = ListState::default().with_selected(sel.and_then(|s| s.checked_sub(first)));
    frame.render_stateful_widget(
        List::new(items).highlight_style(app.theme.selected),
        area,
        &mut state,
    );
    app.offsets.checklist = first;
    app.areas.checklist = area;
}

fn draw_catalog(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.is_empty() {
        return;
    }
    let c = &app.cost;
    let title = format!("Catalog · {}", app.format.name());
    // The cost sits on the bottom border, where it is not cut by the title.
    let (chars, tok, bodies) = (c.block_chars, c.block_tokens, c.bodies_tokens);
    let cost = [
        format!(" {chars} chars ≈{tok} tok · bodies ≈{bodies} tok on demand "),
        format!(" {chars} chars ≈{tok} tok · bodies ≈{bodies} tok "),
        format!(" {chars} chars ≈{tok} tok "),
    ]
    .into_iter()
    .find(|t| t.chars().count() + 4 <= usize::from(area.width))
    .unwrap_or_default();
    let block = pane_block(app, Pane::Catalog, title)
        .title_bottom(Line::styled(cost, app.theme.dim).right_aligned());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines: Vec<Line> = app
        .unmatched
        .iter()
        .map(|p| {
            Line::styled(
                format!(
                    "! pattern '{}' matches no installed skill",
                    sanitize_line(p)
                ),
                app.theme.warning,
            )
        })
        .collect();
    match &app.catalog_text {
        Err(e) => lines.push(Line::styled(sanitize_line(e).into_owned(), app.theme.error)),
        Ok(t) if t.is_empty() => lines.push(Line::styled(
            "(empty: this profile injects no catalog)",
            app.theme.dim,
        )),
        Ok(t) => lines.extend(sanitize(t).lines().map(|l| Line::raw(l.to_string()))),
    }
    let para = Paragraph::new(Text::from(lines)).wrap(Wrap { trim: false });
    // Clamping needs the wrapped height, which is only worth computing
    // (once per catalog and width) when the pane is scrolled.
    if app.catalog_scroll > 0 {
        let total = match app.catalog_rows {
            Some((w, rows)) if w == inner.width => rows,
            _ => {
                let rows = para.line_count(inner.width.max(1));
                let rows = rows.min(usize::from(u16::MAX)) as u16;
                app.catalog_rows = Some((inner.width, rows));
                rows
            }
        };
        app.catalog_scroll = app.catalog_scroll.min(total.saturating_sub(inner.height));
    }
    frame.render_widget(para.scroll((app.catalog_scroll, 0)), inner);
}

/// Rows the lines take when word-wrapped at `width`, as ratatui wraps them.
fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let para = Paragraph::new(Text::from(lines.to_vec())).wrap(Wrap { trim: false });
    para.line_count(width.max(1)).min(usize::from(u16::MAX)) as u16
}

/// Key hints, longest first: the widest that fits is shown.
const HINTS: [&str; 3] = [
    " ? help  q quit  Tab/1-4 panes  / filter  a add  d remove  S seed  e edit  Space toggle  f format  y copy",
    " ? help  q quit  Tab panes  / filter  a add  d remove  S seed  e edit  y copy",
    " ? help  q quit  Tab panes  / filter",
];
/// In a profile's checklist, the keys that matter there.
const CHECKLIST_HINTS: [&str; 2] = [
    " Space toggle the skill in this profile  ← back to the profiles  f format  y copy  ? help",
    " Space toggle  ← back  ? help",
];

/// A message takes up to three rows, wrapped, so that its fix stays
/// readable; the key hints take one.
fn status_height(app: &App, area: Rect) -> u16 {
    let Some((msg, _)) = &app.status else {
        return 1;
    };
    let width = usize::from(area.width.max(1));
    let cols = unicode_width::UnicodeWidthStr::width(sanitize_line(msg).as_ref()) + 2;
    let rows = cols.div_ceil(width).clamp(1, 3) as u16;
    rows.min(area.height / 4).max(1)
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let line = match &app.status {
        Some((msg, true)) => {
            Line::styled(format!(" {} ", sanitize_line(msg)), app.theme.status_err)
        }
        Some((msg, false)) => {
            Line::styled(format!(" {} ", sanitize_line(msg)), app.theme.status_ok)
        }
        None => {
            let hints: &[&str] = if app.in_checklist && app.focus == Pane::Profiles {
                &CHECKLIST_HINTS
            } else {
                &HINTS
            };
            let width = usize::from(area.width);
            let fits = hints.iter().find(|h| h.chars().count() <= width);
            Line::styled(*fits.unwrap_or(&hints[hints.len() - 1]), app.theme.dim)
        }
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
}

/// Files listed per kind (added, removed, changed) in the replace prompt.
const FORCE_FILES_SHOWN: usize = 6;

/// A centered popup of at most `w` x `h`.
fn popup(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

fn draw_dialog(frame: &mut Frame, app: &mut App, area: Rect) {
    let Some(dialog) = app.dialog.as_mut() else {
        return;
    };
    let theme = &app.theme;
    let frame_block = |title: &str| {
        Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Double)
            .border_style(theme.border_focused)
            .title(Span::styled(format!(" {title} "), theme.title))
            .style(theme.base)
    };
    let (title, body, size): (&str, Text, (u16, u16)) = match dialog {
        Dialog::Help { scroll } => {
            // As tall as the text at the widest the popup gets.
            let cao = crate::core::cao::summary(app.home.cao());
            let full = help_text(78, &cao).lines.len() as u16;
            let rect = popup(area, 80, full.saturating_add(2));
            let width = usize::from(rect.width.saturating_sub(2));
            let text = help_text(width, &cao);
            let view = rect.height.saturating_sub(2);
            let max = (text.lines.len() as u16).saturating_sub(view);
            *scroll = (*scroll).min(max);
            let title = if max > 0 {
                "Keys · j/k scroll"
            } else {
                "Keys"
            };
            frame.render_widget(Clear, rect);
            frame.render_widget(
                Paragraph::new(text)
                    .block(frame_block(title))
                    .scroll((*scroll, 0)),
                rect,
            );
            return;
        }
        Dialog::Install(i) => {
            let mut lines = vec![
                Line::from("Install a skill folder (Tab completes, Enter installs, Esc cancels)"),
                Line::from(vec![
                    Span::styled("path: ", theme.accent),
                    Span::raw(with_cursor(&i.input, "▏")),
                ]),
            ];
            if !i.completions.is_empty() {
                lines.push(Line::styled(
                    sanitize_line(&i.completions.join("  ")).into_owned(),
                    theme.dim,
                ));
            }
            if let Some(c) = &i.preview {
                lines.push(Line::default());
                lines.push(Line::from(format!(
                    "name: {}",
                    sanitize_line(c.name.as_deref().unwrap_or("?"))
                )));
                lines.push(Line::from(format!(
                    "description: {}",
                    sanitize_line(c.description.as_deref().unwrap_or("?"))
                )));
                lines.extend(
                    c.errors
                        .iter()
                        .map(|e| Line::styled(format!("✗ {}", sanitize_line(e)), theme.error)),
                );
                lines.extend(
                    c.warnings
                        .iter()
                        .map(|w| Line::styled(format!("! {}", sanitize_line(w)), theme.warning)),
                );
                if c.is_valid() {
                    lines.push(Line::styled("✓ CAO will load it", theme.ok));
                }
            }
            ("Install", Text::from(lines), (80, 16))
        }
        Dialog::Force { src, name, diff } => {
            let mut lines = vec![
                Line::from(format!("'{}' is already installed.", sanitize_line(name))),
                Line::from(format!(
                    "Replace it with {}?",
                    sanitize_line(&src.display().to_string())
                )),
                Line::default(),
            ];
            let files = |sign: &str, v: &Vec<String>, style: Style| {
                let mut out: Vec<Line> = v
                    .iter()
                    .take(FORCE_FILES_SHOWN)
                    .map(|f| Line::styled(format!("  {sign} {}", sanitize_line(f)), style))
                    .collect();
                if v.len() > FORCE_FILES_SHOWN {
                    let more = v.len() - FORCE_FILES_SHOWN;
                    out.push(Line::styled(format!("  {sign} … and {more} more"), style));
                }
                out
            };
            lines.extend(files("+", &diff.added, theme.ok));
            lines.extend(files("-", &diff.removed, theme.error));
            lines.extend(files("~", &diff.changed, theme.warning));
            if diff.added.is_empty() && diff.removed.is_empty() && diff.changed.is_empty() {
                lines.push(Line::styled("  (no file differs)", theme.dim));
            }
            lines.push(Line::default());
            lines.push(Line::from("y replace (atomic)   n keep the installed one"));
            ("Replace?", Text::from(lines), (72, 30))
        }
        Dialog::Remove { name, path } => (
            "Remove?",
            Text::from(vec![
                Line::from(format!("Remove the skill '{}'?", sanitize_line(name))),
                Line::from(format!(
                    "This deletes the folder {}",
                    sanitize_line(&path.display().to_string())
                )),
                Line::default(),
                Line::from("y remove   n keep"),
            ]),
            (72, 7),
        ),
        Dialog::Seed {
            items,
            chosen,
            cursor,
        } => {
            let mut lines = vec![
                Line::from("Default skills (Space picks, Enter seeds, Esc closes)"),
                Line::default(),
            ];
            // Each source under its heading; the list scrolls with the cursor.
            let mut rows: Vec<Line> = Vec::new();
            let mut cursor_row = 0;
            for (i, (d, c)) in items.iter().zip(chosen.iter()).enumerate() {
                if i == 0 || items[i - 1].origin.heading() != d.origin.heading() {
                    rows.push(Line::styled(d.origin.heading(), theme.heading2));
                }
                let (box_, note) = if d.present {
                    ("   ", "already present (kept)")
                } else if *c {
                    ("[x]", "new")
                } else {
                    ("[ ]", "new")
                };
                let style = if i == *cursor {
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
            let note = crate::core::store::cao_skills_note(&app.home);
            let view = area
                .height
                .saturating_sub(8 + 2 * u16::from(note.is_some()));
            let first = window(0, Some(cursor_row), rows.len(), view);
            let shown = rows.len().min(usize::from(view.max(1)));
            lines.extend(rows.into_iter().skip(first).take(shown));
            // What the highlighted one is for, so the pick is informed.
            if let Some(d) = items.get(*cursor) {
                lines.push(Line::default());
                lines.push(Line::styled(
                    sanitize_line(&d.description).into_owned(),
                    theme.dim,
                ));
            }
            if let Some(note) = note {
                lines.push(Line::default());
                lines.push(Line::styled(sanitize_line(&note).into_owned(), theme.dim));
            }
            let height = lines.len() as u16 + 4;
            ("Seed defaults", Text::from(lines), (100, height))
        }
        Dialog::Materialize { profile, skill } => (
            "Write an explicit list?",
            Text::from(vec![
                Line::from(format!(
                    "'{}' has no skills: list, so CAO offers it every skill.",
                    sanitize_line(profile)
                )),
                Line::from(format!(
                    "Turning '{}' off writes an explicit list of all the others.",
                    sanitize_line(skill)
                )),
                Line::default(),
                Line::from("y write the list   n leave the profile as it is"),
            ]),
            (76, 7),
        ),
        Dialog::Edit(edit) => {
            // The whole screen: an editor wants every column.
            let rect = area;
            frame.render_widget(Clear, rect);
            let block = frame_block("Edit SKILL.md · Ctrl-S save · Esc close");
            let inner = block.inner(rect);
            frame.render_widget(block, rect);
            let [text_area, msg] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
            frame.render_widget(&edit.area, text_area);
            let line = match &edit.message {
                Some((m, true)) => Line::styled(sanitize_line(m).into_owned(), theme.error),
                Some((m, false)) => Line::styled(sanitize_line(m).into_owned(), theme.ok),
                None => Line::styled(
                    sanitize_line(&edit.path.display().to_string()).into_owned(),
                    theme.dim,
                ),
            };
            frame.render_widget(Paragraph::new(line), msg);
            return;
        }
    };
    // As tall as the content needs, up to the requested size.
    let content_width = size.0.min(area.width).saturating_sub(2);
    let needed = wrapped_height(&body.lines, content_width).saturating_add(2);
    let rect = popup(area, size.0, size.1.min(needed));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(body)
            .block(frame_block(title))
            .wrap(Wrap { trim: false }),
        rect,
    );
}

pub const KEYS: &[(&str, &str)] = &[
    ("Tab / Shift-Tab, 1-4", "move between panes"),
    ("↑ ↓ / j k, PgUp PgDn, g G", "move or scroll"),
    (
        "Enter / →",
        "open: a skill's preview, a profile's checklist",
    ),
    ("Space", "toggle the skill in the profile (checklist)"),
    ("← / Esc", "leave the checklist; clear the filter"),
    ("/", "fuzzy filter the skills (Enter keeps it)"),
    (
        "← → Home End ^A ^E ^U ^K ^W",
        "in a text field: move; delete to start, to end, a word",
    ),
    ("a", "install a skill folder (Tab completes)"),
    ("d", "remove the selected skill"),
    ("S", "seed the default skills"),
    ("e", "edit the selected SKILL.md"),
    ("Ctrl-S / Esc", "in the editor: save / close"),
    ("f", "catalog format: cao, v1, xml, json"),
    ("y", "copy the catalog block"),
    ("r", "reload from disk"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit"),
    ("mouse", "click selects, wheel scrolls"),
];

/// A field's text, sanitized, with `mark` where the cursor is.
fn with_cursor(input: &crate::tui::app::LineInput, mark: &str) -> String {
    let (before, after) = input.split();
    format!("{}{mark}{}", sanitize_line(before), sanitize_line(after))
}

/// The CAO in use, then the keys in two columns, wrapped under their
/// description; when the width is too small for two columns, each key
/// above its description.
fn help_text(width: usize, cao: &str) -> Text<'static> {
    const KEY_COL: usize = 29;
    let mut lines = wrap_line(&Line::from(sanitize_line(cao).into_owned()), width.max(1));
    lines.push(Line::default());
    for (k, v) in KEYS {
        let (first, indent) = if width >= KEY_COL + 20 {
            (format!("{k:28} "), KEY_COL)
        } else {
            lines.push(Line::from(k.to_string()));
            (String::from("  "), 2)
        };
        let desc = Line::from(v.to_string());
        let rows = wrap_line(&desc, width.saturating_sub(indent).max(1));
        for (n, row) in rows.into_iter().enumerate() {
            let lead = if n == 0 {
                first.clone()
            } else {
                " ".repeat(indent)
            };
            let mut spans = vec![Span::raw(lead)];
            spans.extend(row.spans);
            lines.push(Line::from(spans));
        }
    }
    Text::from(lines)
}

#[cfg(test)]
mod tests {
    use super::elide_left;

    #[test]
    fn window_follows_the_selection_and_fills_the_view() {
        use super::window;
        assert_eq!(window(0, Some(3), 100, 10), 0);
        assert_eq!(window(0, Some(10), 100, 10), 1);
        assert_eq!(window(50, Some(49), 100, 10), 49);
        assert_eq!(window(50, Some(55), 100, 10), 50);
        // A shorter list (a filter) pulls the window back to fill the view.
        assert_eq!(window(50, Some(2), 5, 10), 0);
        assert_eq!(window(95, None, 100, 10), 90);
        assert_eq!(window(7, None, 0, 0), 0);
    }

    #[test]
    fn elide_right_keeps_the_start_within_the_width() {
        use super::elide_right;
        assert_eq!(elide_right("sonnet", 6), "sonnet");
        assert_eq!(elide_right("Reviews diffs", 8), "Reviews…");
        assert_eq!(elide_right("技能技能", 5), "技能…");
        assert_eq!(elide_right("abc", 0), "");
    }

    #[test]
    fn elide_left_keeps_the_end_within_the_width() {
        assert_eq!(elide_left("/a/b/skill", 20), "/a/b/skill");
        assert_eq!(elide_left("/long/path/to/skill", 8), "…o/skill");
        assert_eq!(elide_left("/x/技能", 5), "…技能");
        assert_eq!(elide_left("/x/技能", 6), "…/技能");
        assert_eq!(elide_left("abc", 1), "…");
        assert_eq!(elide_left("abc", 0), "");
    }
}
