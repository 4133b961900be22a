//! The four panes. Each owns its view state (selection, scroll, where it
//! was drawn), turns commands into changes of that state, and draws itself
//! from `&self` after the update pass has laid it out.

pub mod agent_view;
pub mod catalog;
pub mod files;
pub mod preview;
pub mod profiles;
pub mod search;
pub mod skills;

use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use crate::tui::keymap::Move;
pub use crate::tui::model::Pane;
use crate::tui::theme::Theme;

/// What every pane's render reads besides itself.
pub struct Look<'a> {
    pub theme: &'a Theme,
    pub focus: Pane,
}

/// A pane's frame: its number, its title, thick when focused.
pub fn block<'a>(look: &Look, pane: Pane, title: String) -> Block<'a> {
    let span = Span::styled(format!("{title} "), look.theme.title);
    block_spans(look, pane, vec![span])
}

/// As `block`, the title in spans of its own styles (a selected query).
pub fn block_spans<'a>(look: &Look, pane: Pane, title: Vec<Span<'a>>) -> Block<'a> {
    let focused = look.focus == pane;
    let theme = look.theme;
    let number = Span::styled(format!(" {} ", pane.number()), theme.dim);
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(Line::from([vec![number], title].concat()))
}

/// `1 skill`, `2 skills`: `n` and the noun, plural by `s` unless one.
pub fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// `title` for a border `width` wide: a trailing count ` (3/7)` goes
/// first when it would be cut, so that no border shows part of a number.
pub fn fit_title(title: String, width: u16) -> String {
    // Corners, ` N ` and the space after the title.
    let room = usize::from(width).saturating_sub(6);
    if title.chars().count() <= room {
        return title;
    }
    match title.rfind(" (") {
        Some(i) if title.ends_with(')') => title[..i].to_string(),
        _ => title,
    }
}

/// A filtered list's title for a border `width` wide: `name /query · N of
/// M`, then without the name, then the query alone (a narrow pane keeps
/// what the user typed).
pub fn filter_title(name: &str, query: &str, n: usize, of: usize, width: u16) -> String {
    let room = usize::from(width).saturating_sub(6);
    let titles = [
        format!("{name} {query} · {n} of {of}"),
        format!("{query} · {n} of {of}"),
        format!("{query} {n}/{of}"),
    ];
    let fits = |t: &&String| t.chars().count() <= room;
    (titles.iter().find(fits)).unwrap_or(&titles[2]).clone()
}

/// ` 1-38/80 `: the rows a view of `height` shows from `scroll` of
/// `total`, when they do not all fit and the view shows any.
pub fn position(scroll: u16, height: u16, total: u16) -> Option<String> {
    if height == 0 || total <= height {
        return None;
    }
    // (A caller drops it when the border is too short to hold it.)
    let first = scroll.min(total - 1);
    let last = first.saturating_add(height).min(total);
    Some(format!(" {}-{last}/{total} ", first + 1))
}

/// `path` for the screen, with `~` for the user's home.
pub fn tilde(path: &std::path::Path, user_home: &std::path::Path) -> String {
    let shown = match path.strip_prefix(user_home) {
        Ok(rest) if user_home != std::path::Path::new("/") => std::path::Path::new("~").join(rest),
        _ => path.to_path_buf(),
    };
    crate::core::text::sanitize_line(&shown.to_string_lossy()).into_owned()
}

/// The inside of a bordered pane.
pub fn inner(area: Rect) -> Rect {
    Block::default().borders(Borders::ALL).inner(area)
}

/// Rows PgUp/PgDn move in a view: what shows, less one kept for context.
/// A view not laid out yet counts as ten rows.
pub fn page(view: Rect) -> u16 {
    match view.height {
        0 => 10,
        h => h.saturating_sub(1).max(1),
    }
}

/// A list's selection after a move; `page` rows for PgUp/PgDn.
pub fn move_in(sel: usize, len: usize, m: Move, page: u16) -> usize {
    let page = usize::from(page);
    if len == 0 {
        return 0;
    }
    let last = len - 1;
    match m {
        Move::Down => (sel + 1).min(last),
        Move::Up => sel.saturating_sub(1),
        Move::PageDown => (sel + page).min(last),
        Move::PageUp => sel.saturating_sub(page),
        Move::Top => 0,
        Move::Bottom => last,
    }
}

/// A text view's offset after a move (clamped by the update pass).
pub fn scroll(offset: u16, m: Move, page: u16) -> u16 {
    match m {
        Move::Down => offset.saturating_add(1),
        Move::Up => offset.saturating_sub(1),
        Move::PageDown => offset.saturating_add(page),
        Move::PageUp => offset.saturating_sub(page),
        Move::Top => 0,
        Move::Bottom => u16::MAX,
    }
}

/// The first row of a list window `height` rows tall that shows `selected`,
/// moving from the previous `offset` as little as possible. Only that
/// window is built: a long list costs no more than a short one.
pub fn window(offset: usize, selected: Option<usize>, len: usize, height: u16) -> usize {
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

/// Rows the lines take when word-wrapped at `width`, as ratatui wraps them.
pub fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let para = Paragraph::new(Text::from(lines.to_vec())).wrap(Wrap { trim: false });
    para.line_count(width.max(1)).min(usize::from(u16::MAX)) as u16
}

/// `text` cut to `max` columns from the left, so a path keeps its end.
pub fn elide_left(text: &str, max: usize) -> String {
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

/// A path cut to `max` columns from the left at a `/`, so that whole
/// folders stay (`…/cao/home`); its last folder cut only when it alone is
/// too wide.
pub fn elide_path(path: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if path.width() <= max {
        return path.to_string();
    }
    let tail = (path.match_indices('/'))
        .map(|(i, _)| &path[i..])
        .find(|t| t.width() < max);
    match tail {
        Some(t) => format!("…{t}"),
        None => elide_left(path, max),
    }
}

/// The first of `forms` (a hint, longest first) that fits in `max`
/// columns; the shortest, cut, when none does. A hint is better shorter
/// than cut to a stray word.
pub fn fitting(forms: &[&str], max: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    match forms.iter().find(|f| f.width() <= max) {
        Some(f) => f.to_string(),
        None => elide_right(forms.last().copied().unwrap_or(""), max),
    }
}

/// `text` cut to `max` columns, an ellipsis marking the cut.
pub fn elide_right(text: &str, max: usize) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_follows_the_selection_and_fills_the_view() {
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
        assert_eq!(elide_right("sonnet", 6), "sonnet");
        assert_eq!(elide_right("Reviews diffs", 8), "Reviews…");
        assert_eq!(elide_right("技能技能", 5), "技能…");
        assert_eq!(elide_right("abc", 0), "");
    }

    #[test]
    fn elide_path_keeps_whole_folders_and_the_last_one() {
        assert_eq!(elide_path("~/work/cao-home", 20), "~/work/cao-home");
        assert_eq!(elide_path("~/work/cao-home", 12), "…/cao-home");
        assert_eq!(elide_path("/a/very/long/path/home", 12), "…/path/home");
        assert_eq!(elide_path("~/averyveryverylongname", 8), "…ongname");
        assert_eq!(count(1, "skill"), "1 skill");
        assert_eq!(count(0, "skill"), "0 skills");
        assert_eq!(position(0, 10, 40).as_deref(), Some(" 1-10/40 "));
        assert_eq!(position(35, 10, 40).as_deref(), Some(" 36-40/40 "));
        assert_eq!(position(0, 0, 40), None);
        assert_eq!(position(0, 10, 10), None);
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
