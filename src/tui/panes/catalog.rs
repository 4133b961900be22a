//! The Catalog pane: what the selected profile's agent receives under its
//! provider (or the one `p` chose): the catalog block and its cost, or
//! what reaches the agent instead (Kiro's globs, OpenCode's link, nothing).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Wrap};

use crate::core::cao::catalog::{self, Cost, Format};
use crate::core::cao::profile::Profile;
use crate::core::cao::store::Entry;
use crate::core::delivery::agent::{Agent, PROVIDERS};
use crate::core::delivery::model::{self, Delivery, Kind};
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
    /// The provider `p` chose for the profile shown; `None`: the profile's
    /// own (or CAO's fallback).
    pub provider: Option<&'static str>,
    /// `p`'s choices, by profile name: each belongs to the profile it was
    /// chosen on, so selecting another shows that one's own provider.
    overrides: std::collections::HashMap<String, &'static str>,
    /// The profile shown, whose override `p` and `P` change.
    profile: Option<String>,
    /// Provider, where it came from and how it delivers, for the title.
    pub heading: Option<(&'static str, &'static str, &'static str)>,
    /// How the agent gets skills, when not (only) through the block.
    pub notes: Vec<String>,
    /// The provider hands over a catalog (so `f` and `y` act on it).
    pub has_catalog: bool,
    /// The command that serves the profile's skills over MCP, shown on
    /// the first line; `y` copies it when there is no catalog to copy.
    pub serve: Option<String>,
    area: Rect,
    /// Byte ranges of the block's lines: a line is sanitized and styled
    /// only when it is on screen.
    spans: Vec<std::ops::Range<usize>>,
    /// Rows each line takes wrapped at `rows_width` (measured once per
    /// catalog and width), and their sum: the border shows where the view
    /// is in them.
    rows: Vec<u16>,
    total: u16,
    rows_width: u16,
    /// The selected agent, when the selected row is one: the pane then
    /// shows what it finds (`agent_view`).
    pub agent: Option<AgentRow>,
    /// A worker computes the catalog: the one shown is the last one.
    pub updating: bool,
    /// With no agent and no CAO, the title says what the pane is for
    /// instead of naming a catalog format nobody receives.
    no_agent: bool,
}

impl Default for CatalogPane {
    fn default() -> CatalogPane {
        CatalogPane {
            scroll: 0,
            format: Format::Cao,
            text: Ok(String::new()),
            cost: Cost::default(),
            warnings: Vec::new(),
            provider: None,
            overrides: Default::default(),
            profile: None,
            heading: None,
            notes: Vec::new(),
            has_catalog: true,
            serve: None,
            area: Rect::default(),
            spans: Vec::new(),
            rows: Vec::new(),
            total: 0,
            rows_width: 0,
            agent: None,
            updating: false,
            no_agent: false,
        }
    }
}

impl CatalogPane {
    pub fn on_cmd(&mut self, cmd: Cmd) {
        if let Cmd::Move(m) = cmd {
            self.scroll = panes::scroll(self.scroll, m, panes::page(panes::inner(self.area)));
        }
    }

    /// The profile's own provider, then each of CAO's in CAO's order.
    /// `own`: the profile's provider (or CAO's fallback), which the cycle
    /// starts and ends on, so it is not offered again as an explicit one.
    pub fn cycle_provider(&mut self, own: Option<&str>) {
        let mut next = match self.provider {
            None => 0,
            Some(p) => PROVIDERS.iter().position(|q| *q == p).map_or(0, |i| i + 1),
        };
        if PROVIDERS.get(next).is_some_and(|p| Some(*p) == own) {
            next += 1;
        }
        self.provider = PROVIDERS.get(next).copied();
        self.keep_override();
        self.scroll = 0;
    }

    /// `P`: the profile shown gets its own provider again; false when it
    /// had no override.
    pub fn reset_provider(&mut self) -> bool {
        let had = self.provider.take().is_some();
        self.keep_override();
        self.scroll = 0;
        had
    }

    /// Files `provider` under the profile shown.
    fn keep_override(&mut self) {
        let Some(name) = self.profile.clone() else {
            return;
        };
        match self.provider {
            Some(p) => self.overrides.insert(name, p),
            None => self.overrides.remove(&name),
        };
    }

    /// What [`Filled::fill`] needs to compute what `row`'s agent receives
    /// (owned, so a worker can: see `App::refresh_profile`), after taking
    /// the provider `p` chose for `row`.
    pub fn ask(&mut self, data: &Data, row: Option<&ProfileRow>) -> Ask {
        self.profile = row.map(|r| r.listed.name.clone());
        self.provider = (self.profile.as_ref()).and_then(|n| self.overrides.get(n).copied());
        Ask {
            home: data.home.clone(),
            listing: std::sync::Arc::clone(&data.listing),
            profiles_exist: !data.profiles.is_empty(),
            without_cao: data.without_cao(),
            row: row.map(|r| (r.loaded.clone(), r.agent.clone())),
            provider: self.provider,
            format: self.format,
        }
    }

    /// Shows what [`Ask::fill`] computed.
    pub fn put(&mut self, f: Filled) {
        self.text = f.text;
        self.cost = f.cost;
        self.warnings = f.warnings;
        self.heading = f.heading;
        self.notes = f.notes;
        self.has_catalog = f.has_catalog;
        self.serve = f.serve;
        self.no_agent = f.no_agent;
        self.spans = f.spans;
        self.rows.clear();
    }
    /// No block until every verdict of the store is confirmed (the
    /// first listing's checks): a note says so, and `y` waits.
    pub fn wait_for_checks(&mut self) {
        self.put(Filled {
            text: Ok(String::new()),
            cost: Cost::default(),
            warnings: Vec::new(),
            heading: None,
            notes: vec![
                "Checking the skills: the catalog follows once each one's verdict is confirmed."
                    .into(),
            ],
            has_catalog: false,
            serve: None,
            no_agent: false,
            spans: Vec::new(),
        });
    }

    fn len(&self) -> usize {
        self.warnings.len() + self.notes.len() + self.spans.len()
    }

    /// Line `i`: the unmatched patterns' warnings, then the block (or why
    /// there is none).
    fn line(&self, i: usize, theme: &Theme) -> Line<'static> {
        if let Some(w) = self.warnings.get(i) {
            return Line::styled(format!("! {}", sanitize_line(w)), theme.warning);
        }
        let i = i - self.warnings.len();
        if let Some(n) = self.notes.get(i) {
            return Line::styled(sanitize_line(n).into_owned(), theme.dim);
        }
        let span = self.spans[i - self.notes.len()].clone();
        match &self.text {
            Err(e) => Line::styled(sanitize_line(e).into_owned(), theme.error),
            Ok(t) if t.is_empty() => {
                Line::styled("(empty: this agent receives no catalog)", theme.dim)
            }
            Ok(t) => Line::raw(sanitize(&t[span]).into_owned()),
        }
    }

    /// Line `i` as drawn at `width` columns. Our own notes wrap here, a
    /// path between its folders and under its indent; the block itself is
    /// left to the paragraph's wrap, which keeps its bytes' spacing.
    fn drawn(&self, i: usize, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        let line = self.line(i, theme);
        let is_note = (self.warnings.len()..self.warnings.len() + self.notes.len()).contains(&i);
        if !is_note || line.width() <= usize::from(width) {
            return vec![line];
        }
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        let body = text.trim_start_matches(' ');
        let indent = (text.len() - body.len()).min(usize::from(width) / 2);
        let rest = Line::styled(body.to_string(), line.style);
        crate::tui::markdown::wrap_line(&rest, usize::from(width) - indent)
            .into_iter()
            .map(|mut piece| {
                piece.spans.insert(0, " ".repeat(indent).into());
                piece
            })
            .collect()
    }

    /// Measures the wrapped block (once per catalog and width) and clamps
    /// the scroll to it.
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
        if area.is_empty() {
            return;
        }
        let inner = panes::inner(area);
        if self.rows.len() != self.len() || self.rows_width != inner.width {
            self.rows_width = inner.width;
            self.rows = (0..self.len())
                .map(|i| {
                    let lines = self.drawn(i, inner.width, theme);
                    match lines.len() == 1 && lines[0].width() <= usize::from(inner.width) {
                        true => 1,
                        false => panes::wrapped_height(&lines, inner.width),
                    }
                })
                .collect();
        }
        let total: u32 = self.rows.iter().map(|&r| u32::from(r)).sum();
        self.total = total.min(u32::from(u16::MAX)) as u16;
        self.scroll = self.scroll.min(self.total.saturating_sub(inner.height));
    }

    /// `<provider> (<where from>) · <delivery>`.
    pub fn delivering_as(&self) -> String {
        self.heading
            .map(|(p, from, how)| format!("{p} ({from}) · {how}"))
            .unwrap_or_default()
    }

    /// `Catalog · <provider> (<from>) · <delivery> · <format>`, dropping
    /// the least telling parts first when the pane is narrow.
    fn title(&self, width: usize) -> String {
        // The block shown is the last one until a worker's lands.
        let name = match self.updating {
            true => "Catalog (updating)",
            false => "Catalog",
        };
        if self.no_agent {
            let titles = [NO_AGENT_TITLE, "No agent yet"];
            let fits = titles.into_iter().find(|t| t.chars().count() + 6 <= width);
            return fits.unwrap_or("No agent yet").to_string();
        }
        let Some((provider, from, how)) = self.heading else {
            return format!("{name} · {}", self.format.name());
        };
        let format = match self.has_catalog {
            true => format!(" · {}", self.format.name()),
            false => String::new(),
        };
        // An override says so at every width; the widest names the key
        // that drops it.
        let titles = match self.provider {
            Some(_) => [
                format!("{name} · {provider} (override: P resets) · {how}{format}"),
                format!("{name} · {provider} (override) · {how}{format}"),
                format!("{name} · {provider} (override) · {how}"),
                format!("{name} · {provider} (override)"),
            ],
            None => [
                format!("{name} · {provider} ({from}) · {how}{format}"),
                format!("{name} · {provider} · {how}{format}"),
                format!("{name} · {provider} · {how}"),
                format!("{name} · {provider}"),
            ],
        };
        let [.., last] = &titles;
        let last = last.clone();
        titles
            .into_iter()
            .find(|t| t.chars().count() + 6 <= width)
            .unwrap_or(last)
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Look) {
        if area.is_empty() {
            return;
        }
        if let Some(row) = &self.agent {
            return agent_view::render_catalog(frame, area, look, row, self.scroll);
        }
        let c = &self.cost;
        let title = self.title(usize::from(area.width));
        // The cost sits on the bottom border, where it is not cut by the title.
        let (chars, tok, bodies) = (c.block_chars, c.block_tokens, c.bodies_tokens);
        let at = panes::position(self.scroll, panes::inner(area).height, self.total)
            .filter(|a| a.len() + 2 <= usize::from(area.width));
        let room = usize::from(area.width).saturating_sub(at.as_ref().map_or(0, |a| a.len() + 1));
        let cost = [
            format!(" {chars} chars ≈{tok} tok · bodies ≈{bodies} tok on demand "),
            format!(" {chars} chars ≈{tok} tok · bodies ≈{bodies} tok "),
            format!(" {chars} chars ≈{tok} tok "),
        ]
        .into_iter()
        .find(|t| t.chars().count() + 4 <= room)
        .filter(|_| self.has_catalog)
        .unwrap_or_default();
        let mut block = panes::block(look, Pane::Catalog, title)
            .title_bottom(Line::styled(cost, look.theme.dim).right_aligned());
        let inner = block.inner(area);
        if let Some(at) = at {
            block = block.title_bottom(Line::styled(at, look.theme.dim));
        }
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
            .flat_map(|i| self.drawn(i, inner.width, look.theme))
            .collect();
        let para = Paragraph::new(Text::from(shown)).wrap(Wrap { trim: false });
        frame.render_widget(para.scroll((skip, 0)), inner);
    }
}

/// Where the baked block lives and whether the file on disk is stale.
fn baked_state(d: &Delivery) -> Option<String> {
    let i = d.installed.as_ref()?;
    Some(format!(
        "baked into {}: {}",
        i.path.display(),
        i.baked_advice()
    ))
}

/// The inputs of pane 4 for one profile row.
pub struct Ask {
    home: crate::core::cao::store::Home,
    listing: std::sync::Arc<crate::core::cao::store::Listing>,
    profiles_exist: bool,
    /// No CAO installed and no CAO home: no profile can come.
    without_cao: bool,
    row: Option<(Result<Profile, String>, Option<Agent>)>,
    provider: Option<&'static str>,
    format: Format,
}

/// What pane 4 shows for one profile row: the block (or why there is
/// none), its cost, the warnings and notes around it.
pub struct Filled {
    text: Result<String, String>,
    cost: Cost,
    warnings: Vec<String>,
    heading: Option<(&'static str, &'static str, &'static str)>,
    notes: Vec<String>,
    has_catalog: bool,
    serve: Option<String>,
    no_agent: bool,
    spans: Vec<std::ops::Range<usize>>,
}

impl Ask {
    /// Computes what the agent receives (at 10,000 skills, longer than a
    /// key may take: a worker's job then).
    pub fn fill(&self) -> Filled {
        let mut f = Filled {
            text: Ok(String::new()),
            cost: Cost::default(),
            warnings: Vec::new(),
            heading: None,
            notes: Vec::new(),
            has_catalog: true,
            serve: None,
            no_agent: false,
            spans: Vec::new(),
        };
        f.text = match &self.row {
            // Profiles exist, but pane 3's filter draws none of them.
            None if self.profiles_exist => {
                Err("no profile shown: pane 3's filter matches none".into())
            }
            None if self.without_cao => {
                (f.no_agent, f.has_catalog, f.notes) = (true, false, no_agent_notes());
                Ok(String::new())
            }
            None => Err("no agent profiles found".into()),
            Some((Err(e), _)) => Err(format!("CAO cannot load this profile: {e}")),
            Some((Ok(p), Some(a))) => {
                let text = self.deliver(p, a, &mut f);
                serve_line(p, &mut f);
                text
            }
            Some((Ok(_), None)) => Err("CAO cannot load this profile".into()),
        };
        f.spans = match &f.text {
            Ok(t) if !t.is_empty() => line_spans(t),
            Ok(_) if !f.has_catalog => Vec::new(),
            // One line: the error or the note that the block is empty.
            _ => std::iter::once(0..0).collect(),
        };
        f
    }

    fn deliver(&self, p: &Profile, a: &Agent, f: &mut Filled) -> Result<String, String> {
        let d = model::compute(&self.home, &self.listing, a, self.provider)?;
        f.heading = Some((d.provider, d.provider_source.label(), d.delivery.label()));
        f.warnings.extend(p.unread_frontmatter());
        if d.catalog.is_none() {
            f.has_catalog = false;
            f.notes = instead(&d);
            return Ok(String::new());
        }
        // Copilot's baked block ignores `skills:`.
        let skills = p.skills.as_deref().filter(|_| d.filtered);
        let selection = catalog::select(&self.listing, skills);
        f.warnings.extend(
            selection
                .unmatched
                .iter()
                .map(|p| format!("pattern '{p}' matches no installed skill")),
        );
        if let Some(state) = baked_state(&d) {
            f.notes.extend([state, String::new()]);
        }
        let offered: Vec<&Entry> = selection.offered.iter().map(|(e, _)| *e).collect();
        let text =
            catalog::render_selection(self.format, &self.listing, skills, &selection, &p.name);
        f.cost = catalog::cost(text.as_deref().unwrap_or(""), &offered);
        text
    }
}

/// Pane 4's title with no agent and no CAO.
const NO_AGENT_TITLE: &str = "What an agent sees · no agent yet";

/// What pane 4 says with no agent and no CAO: what it will show, and the
/// keys that get there.
fn no_agent_notes() -> Vec<String> {
    [
        "No agent found on this machine, and no CAO.",
        "",
        "Once an agent is installed (Claude Code, Codex, OpenCode, …) or listed with A in pane 3, this pane shows the skills it finds and the text its model is shown about them.",
        "",
        "S makes a skill store; a installs a skill folder into it.",
    ]
    .map(String::from)
    .to_vec()
}

/// The first line: how any MCP client gets the profile's skills
/// (`skilltui serve`), and what `y` copies when no block is shown.
fn serve_line(p: &Profile, f: &mut Filled) {
    let command = crate::core::serve::config::serve_command(&p.name);
    let how = match f.has_catalog {
        true => format!("serve over MCP: {command}"),
        false => format!("serve over MCP: {command}  (y copies it)"),
    };
    f.notes.insert(0, how);
    f.serve = Some(command);
}

/// What reaches the agent when no block does.
fn instead(d: &Delivery) -> Vec<String> {
    let mut out = vec![d.why.clone()];
    if d.delivery == Kind::SkillResource {
        out.push(String::new());
        out.push("resources in the agent's JSON:".into());
        out.extend(d.resources.iter().map(|r| format!("  {r}")));
        out.push(String::new());
        out.push("SKILL.md files the globs reach:".into());
        out.extend(d.reaches.iter().map(|r| match r.mark() {
            "" => format!("  {}", r.skill),
            mark => format!("  {}  ({mark})", r.skill),
        }));
    }
    if let Some(i) = &d.installed {
        out.push(String::new());
        out.push(format!("on disk: {} ({})", i.path.display(), i.state()));
    }
    out
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
