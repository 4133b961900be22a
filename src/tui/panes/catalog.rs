//! The Catalog pane: the block the selected profile injects and its cost.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Wrap};

use crate::core::cao::catalog::{self, Cost, Format};
use crate::core::cao::store::Entry;
use crate::core::text::{sanitize, sanitize_line};
use crate::tui::keymap::Cmd;
use crate::tui::model::{AgentRow, Data, ProfileRow};
use crate::tui::panes::agent_view;
use crate::tui::panes::{self, Look, Pane};
use crate::tui::theme::Theme;

pub struct CatalogPane {
    pub scroll: u16,
    pub format: Format,
    pub text: Result<String, String>,
    pub cost: Cost,
    /// Lines above the block: why CAO ignores the profile's frontmatter,
    /// then each pattern that matches no skill.
    pub warnings: Vec<String>,
    area: Rect,
    /// Byte ranges of the block's lines: a line is sanitized and styled
    /// only when it is on screen.
    spans: Vec<std::ops::Range<usize>>,
    /// Rows each line takes wrapped at `rows_width`, measured only once the
    /// pane is scrolled (once per catalog and width).
    rows: Vec<u16>,
    rows_width: u16,
    /// The selected agent, when the selected row is one: the pane then
    /// shows what it finds (`agent_view`).
    pub agent: Option<AgentRow>,
}

impl Default for CatalogPane {
    fn default() -> CatalogPane {
        CatalogPane {
            scroll: 0,
            format: Format::Cao,
            text: Ok(String::new()),
            cost: Cost::default(),
            warnings: Vec::new(),
            area: Rect::default(),
            spans: Vec::new(),
            rows: Vec::new(),
            rows_width: 0,
            agent: None,
        }
    }
}

impl CatalogPane {
    pub fn on_cmd(&mut self, cmd: Cmd) {
        if let Cmd::Move(m) = cmd {
            self.scroll = panes::scroll(self.scroll, m, panes::page(panes::inner(self.area)));
        }
    }

    /// Recomputes the block and its cost for `row`'s profile.
    pub fn refresh(&mut self, data: &Data, row: Option<&ProfileRow>) {
        self.warnings.clear();
        self.cost = Cost::default();
        self.text = match row.map(|r| (&r.listed.name, &r.loaded)) {
            None => Err("no agent profiles found".into()),
            Some((_, Err(e))) => Err(format!("CAO cannot load this profile: {e}")),
            Some((name, Ok(p))) => {
                let selection = catalog::select(&data.listing, p.skills.as_deref());
                self.warnings.extend(p.unread_frontmatter());
                self.warnings.extend(
                    selection
                        .unmatched
                        .iter()
                        .map(|p| format!("pattern '{p}' matches no installed skill")),
                );
                let offered: Vec<&Entry> = selection.offered.iter().map(|(e, _)| *e).collect();
                let skills = p.skills.as_deref();
                let text =
                    catalog::render_selection(self.format, &data.listing, skills, &selection, name);
                self.cost = catalog::cost(text.as_deref().unwrap_or(""), &offered);
                text
            }
        };
        self.spans = match &self.text {
            Ok(t) if !t.is_empty() => line_spans(t),
            // One line: the error or the note that the block is empty.
            _ => std::iter::once(0..0).collect(),
        };
        self.rows.clear();
    }

    fn len(&self) -> usize {
        self.warnings.len() + self.spans.len()
    }

    /// Line `i`: the unmatched patterns' warnings, then the block (or why
    /// there is none).
    fn line(&self, i: usize, theme: &Theme) -> Line<'static> {
        if let Some(w) = self.warnings.get(i) {
            return Line::styled(format!("! {}", sanitize_line(w)), theme.warning);
        }
        let span = self.spans[i - self.warnings.len()].clone();
        match &self.text {
            Err(e) => Line::styled(sanitize_line(e).into_owned(), theme.error),
            Ok(t) if t.is_empty() => {
                Line::styled("(empty: this profile injects no catalog)", theme.dim)
            }
            Ok(t) => Line::raw(sanitize(&t[span]).into_owned()),
        }
    }

    /// Measures the wrapped block (once per catalog and width, and only
    /// once scrolled) and clamps the scroll to it.
    pub fn update(&mut self, area: Rect, theme: &Theme) {
        self.area = area;
        if let Some(row) = &self.agent {
            if self.scroll > 0 {
                let inner = panes::inner(area);
                let lines = agent_view::finds_lines(row, theme);
                let rows = panes::wrapped_height(&lines, inner.width);
                self.scroll = self.scroll.min(rows.saturating_sub(inner.height));
            }
            return;
        }
        if area.is_empty() || self.scroll == 0 {
            return;
        }
        let inner = panes::inner(area);
        if self.rows.len() != self.len() || self.rows_width != inner.width {
            self.rows_width = inner.width;
            self.rows = (0..self.len())
                .map(|i| {
                    let line = self.line(i, theme);
                    match line.width() <= usize::from(inner.width) {
                        true => 1,
                        false => panes::wrapped_height(&[line], inner.width),
                    }
                })
                .collect();
        }
        let total: u32 = self.rows.iter().map(|&r| u32::from(r)).sum();
        let total = total.min(u32::from(u16::MAX)) as u16;
        self.scroll = self.scroll.min(total.saturating_sub(inner.height));
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Look) {
        if area.is_empty() {
            return;
        }
        if let Some(row) = &self.agent {
            return agent_view::render_catalog(frame, area, look, row, self.scroll);
        }
        let c = &self.cost;
        let title = format!("Catalog · {}", self.format.name());
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
        let block = panes::block(look, Pane::Catalog, title)
            .title_bottom(Line::styled(cost, look.theme.dim).right_aligned());
        let inner = block.inner(area);
        frame.render_widget(block, area);
        // Wrapping is per line: skip the lines wholly above the scroll and
        // draw from the first one it cuts into.
        let (mut first, mut skip) = (0, self.scroll);
        while let Some(&r) = self.rows.get(first)
            && r <= skip
        {
            skip -= r;
            first += 1;
        }
        let shown: Vec<Line> = (first..self.len())
            .take(usize::from(inner.height))
            .map(|i| self.line(i, look.theme))
            .collect();
        let para = Paragraph::new(Text::from(shown)).wrap(Wrap { trim: false });
        frame.render_widget(para.scroll((skip, 0)), inner);
    }
}

/// The byte range of each line of `text`, as `str::lines` splits it but
/// keeping a `\r`, which the sanitizer shows.
fn line_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            spans.push(start..i);
            start = i + 1;
        }
    }
    if start < text.len() {
        spans.push(start..text.len());
    }
    spans
}
