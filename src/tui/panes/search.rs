//! `/` in the Preview pane: a search through the rendered lines, its
//! matches, the current one, and the styling that marks them. The lines
//! are already wrapped to the view, so a match's line is a screen row.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::input::LineInput;

/// One match: a rendered line and a range of its characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub line: usize,
    pub start: usize,
    pub len: usize,
}

#[derive(Default)]
pub struct Search {
    pub input: LineInput,
    /// Keys go to the query.
    pub typing: bool,
    pub hits: Vec<Hit>,
    /// Index into `hits` of the one jumped to.
    pub current: usize,
    /// What `hits` were found for: (query, a fingerprint of the lines).
    found_for: Option<(String, usize, usize)>,
    /// Jump to the first match at or after this row once found.
    pub jump_from: Option<usize>,
    /// The first row shown when the search began.
    pub origin: usize,
}

impl Search {
    pub fn is_active(&self) -> bool {
        self.typing || !self.input.is_empty()
    }

    pub fn clear(&mut self) {
        *self = Search::default();
    }

    /// Finds the matches again when the query or the lines changed; then,
    /// if a jump is pending, the row to show. `lines_id` tells renderings
    /// apart (the body's address and the number of lines).
    pub fn refresh(&mut self, lines: &[&Line], lines_id: usize) -> Option<usize> {
        let key = (self.input.as_str().to_string(), lines_id, lines.len());
        if self.found_for.as_ref() != Some(&key) {
            self.hits = find(lines, self.input.as_str());
            self.current = self.current.min(self.hits.len().saturating_sub(1));
            self.found_for = Some(key);
        }
        let from = self.jump_from.take()?;
        let next = self.hits.iter().position(|h| h.line >= from);
        self.current = next.unwrap_or(0);
        self.hits.get(self.current).map(|h| h.line)
    }

    /// `n` (1) or `N` (-1): the row of the next match, wrapping around.
    pub fn step(&mut self, by: isize) -> Option<usize> {
        if self.hits.is_empty() {
            return None;
        }
        let n = self.hits.len() as isize;
        self.current = (self.current as isize + by).rem_euclid(n) as usize;
        Some(self.hits[self.current].line)
    }

    /// `2/5`, or `no match`, for the pane's border.
    pub fn counter(&self) -> String {
        match self.hits.len() {
            0 => "no match".into(),
            n => format!("{}/{n}", self.current + 1),
        }
    }

    /// `line` (row `row`) with its matches marked: `style` on each, `now`
    /// on the current one.
    pub fn mark(
        &self,
        row: usize,
        line: &Line<'static>,
        style: Style,
        now: Style,
    ) -> Line<'static> {
        let first = self.hits.partition_point(|h| h.line < row);
        let on_row = self.hits[first..].iter().take_while(|h| h.line == row);
        let ranges: Vec<(usize, usize, Style)> = on_row
            .enumerate()
            .map(|(i, h)| {
                let s = if first + i == self.current {
                    now
                } else {
                    style
                };
                (h.start, h.start + h.len, s)
            })
            .collect();
        if ranges.is_empty() {
            return line.clone();
        }
        restyle(line, &ranges)
    }
}

/// Every match of `query` in `lines`, in order; smart case: a query with
/// no capital ignores case.
pub fn find(lines: &[&Line], query: &str) -> Vec<Hit> {
    if query.is_empty() {
        return Vec::new();
    }
    let fold = !query.chars().any(char::is_uppercase);
    let norm = |c: char| {
        if fold {
            c.to_lowercase().next().unwrap_or(c)
        } else {
            c
        }
    };
    let needle: Vec<char> = query.chars().map(norm).collect();
    let mut hits = Vec::new();
    for (row, line) in lines.iter().enumerate() {
        let hay: Vec<char> = line
            .spans
            .iter()
            .flat_map(|s| s.content.chars())
            .map(norm)
            .collect();
        let mut at = 0;
        while at + needle.len() <= hay.len() {
            if hay[at..at + needle.len()] == needle[..] {
                hits.push(Hit {
                    line: row,
                    start: at,
                    len: needle.len(),
                });
                at += needle.len();
            } else {
                at += 1;
            }
        }
    }
    hits
}

/// `line` with the char ranges `(start, end, style)` (in order, apart)
/// patched with their style.
fn restyle(line: &Line<'static>, ranges: &[(usize, usize, Style)]) -> Line<'static> {
    let mut out: Vec<Span<'static>> = Vec::new();
    let mut pos = 0;
    for span in &line.spans {
        let mut piece = String::new();
        let mut piece_style = None;
        for c in span.content.chars() {
            let style = ranges
                .iter()
                .find(|(s, e, _)| (*s..*e).contains(&pos))
                .map(|(_, _, st)| span.style.patch(*st));
            if piece_style != Some(style) && !piece.is_empty() {
                let st = piece_style.flatten().unwrap_or(span.style);
                out.push(Span::styled(std::mem::take(&mut piece), st));
            }
            piece_style = Some(style);
            piece.push(c);
            pos += 1;
        }
        if !piece.is_empty() {
            let st = piece_style.flatten().unwrap_or(span.style);
            out.push(Span::styled(piece, st));
        }
    }
    Line::from(out).style(line.style)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Modifier};

    fn lines(texts: &[&str]) -> Vec<Line<'static>> {
        texts.iter().map(|t| Line::raw(t.to_string())).collect()
    }

    #[test]
    fn finds_every_match_smart_case_across_spans() {
        let mut ls = lines(&["Forms and forms", "none", "a FORM"]);
        ls[1] = Line::from(vec![Span::raw("fo"), Span::raw("rmat")]);
        let refs: Vec<&Line> = ls.iter().collect();
        let hits = find(&refs, "form");
        let at: Vec<(usize, usize)> = hits.iter().map(|h| (h.line, h.start)).collect();
        assert_eq!(at, [(0, 0), (0, 10), (1, 0), (2, 2)]);
        assert_eq!(find(&refs, "Form").len(), 1, "a capital matches case");
        assert!(find(&refs, "").is_empty());
    }

    #[test]
    fn n_and_shift_n_wrap_around_and_a_jump_starts_at_the_view() {
        let ls = lines(&["x", "x", "y", "x"]);
        let refs: Vec<&Line> = ls.iter().collect();
        let mut s = Search::default();
        s.input.set("x");
        s.jump_from = Some(2);
        assert_eq!(s.refresh(&refs, 1), Some(3));
        assert_eq!(s.counter(), "3/3");
        assert_eq!(s.step(1), Some(0));
        assert_eq!(s.step(-1), Some(3));
        assert_eq!(s.step(-1), Some(1));
        s.input.set("zzz");
        assert_eq!(s.refresh(&refs, 1), None);
        assert_eq!((s.step(1), s.counter().as_str()), (None, "no match"));
    }

    #[test]
    fn marking_keeps_the_text_and_styles_only_the_match() {
        let red = Style::default().fg(Color::Red);
        let line = Line::from(vec![Span::styled("abXY", red), Span::raw("Zcd")]);
        let mut s = Search::default();
        s.input.set("xyz");
        s.refresh(&[&line], 7);
        let hit = Style::default().add_modifier(Modifier::REVERSED);
        let marked = s.mark(0, &line, hit, hit);
        let text: String = marked.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "abXYZcd");
        let styled: Vec<(&str, bool)> = marked
            .spans
            .iter()
            .map(|s| {
                let on = s.style.add_modifier.contains(Modifier::REVERSED);
                (s.content.as_ref(), on)
            })
            .collect();
        assert_eq!(
            styled,
            [("ab", false), ("XY", true), ("Z", true), ("cd", false)]
        );
        assert_eq!(
            marked.spans[1].style.fg,
            Some(Color::Red),
            "patched, not replaced"
        );
    }
}
