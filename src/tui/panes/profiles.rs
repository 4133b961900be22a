//! The Agents & profiles pane: CAO's profiles, then each detected agent;
//! the selected one's detail, and its checklist of skills (an agent's rows
//! come from `agent_view`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{List, ListItem, ListState, Paragraph, Wrap};

use crate::core::agents::table::Scope;
use crate::core::cao::catalog::Pattern;
use crate::core::delivery::agent::Source;
use crate::core::text::sanitize_line;
use crate::tui::input::LineInput;
use crate::tui::keymap::Cmd;
use crate::tui::markdown::{fit, wrap_line};
use crate::tui::model::{AgentRow, Data, ProfileRow};
use crate::tui::panes::agent_view;
use crate::tui::panes::{self, Look, Pane};
use crate::tui::theme::Theme;

/// Rows left under the profile list while choosing a profile: the
/// detail's first lines and a glimpse of the checklist.
const BELOW_LIST: u16 = 8;

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

/// Which part of the pane has the cursor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Within {
    #[default]
    List,
    Checklist,
}

#[derive(Default)]
pub struct ProfilesPane {
    pub sel: usize,
    pub within: Within,
    /// The cursor in the checklist, an index into the valid skills.
    pub check_sel: usize,
    pub offset: usize,
    pub check_offset: usize,
    pub list_area: Rect,
    pub checklist_area: Rect,
    detail_area: Rect,
    /// Over the checklist: the provider ignores `skills:` (else empty).
    note_area: Rect,
    /// How the selected profile picks skills, compiled once per profile
    /// change; a checkbox is worked out only when it is on screen.
    rule: Rule,
    /// Where Space gives an agent a skill (`s` switches).
    pub agent_scope: Scope,
    /// The selected agent's checklist at `agent_scope`, built with `rule`
    /// on each refresh (it stats the agent's dir): frames and keys read it.
    pub agent_checks: Vec<agent_view::Check>,
    /// Names the selected profile's list holds that no valid skill has:
    /// rows after the skills, ticked, so that Space can take them out.
    pub missing: Vec<String>,
    /// Each checklist's (cursor, scroll), by `checklist_key`: a checklist
    /// opens where it was left, a new one at its top.
    cursors: std::collections::HashMap<String, (usize, usize)>,
    /// The checklist `check_sel` and `check_offset` belong to.
    cursor_of: Option<String>,
    /// `/` in the list: the profiles and agents it matches (fuzzy, as the
    /// Skills filter).
    pub filter: LineInput,
    /// `/` in an open checklist: its rows it matches. Each checklist
    /// opens unfiltered.
    pub check_filter: LineInput,
    /// Keys are typed into `filter`, or `check_filter` in a checklist.
    pub typing: bool,
}

/// The selected profile's `skills:` value, ready to tick a skill.
#[derive(Default)]
enum Rule {
    /// No profile, or one CAO cannot load.
    #[default]
    Nothing,
    /// No list: every skill.
    Every,
    List(Vec<(String, Pattern)>),
}

impl Rule {
    fn new(row: Option<&ProfileRow>) -> Rule {
        match row.map(|r| &r.loaded) {
            Some(Ok(p)) => match &p.skills {
                None => Rule::Every,
                Some(list) => {
                    Rule::List(list.iter().map(|s| (s.clone(), Pattern::new(s))).collect())
                }
            },
            _ => Rule::Nothing,
        }
    }

    /// As `catalog::select` offers it: by any matching entry, an exact
    /// name shown as such.
    fn tick(&self, folder: &str) -> Tick {
        let list = match self {
            Rule::Nothing => return Tick::Off,
            Rule::Every => return Tick::All,
            Rule::List(list) => list,
        };
        let hits: Vec<String> = list
            .iter()
            .filter(|(_, p)| p.matches(folder))
            .map(|(s, _)| s.clone())
            .collect();
        if hits.is_empty() {
            Tick::Off
        } else if list.iter().any(|(s, _)| s == folder) {
            Tick::Exact
        } else {
            Tick::Pattern(hits)
        }
    }
}

/// What the app must do after a key or click in this pane.
#[derive(Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// Another profile is selected: recompute its catalog.
    Selected,
    Toggle,
}

impl ProfilesPane {
    pub fn in_checklist(&self) -> bool {
        self.within == Within::Checklist
    }

    pub fn selected<'a>(&self, data: &'a Data) -> Option<&'a ProfileRow> {
        data.profiles.get(self.sel).filter(|_| self.sel_drawn(data))
    }

    /// Whether the selected row is drawn: a filter that shows no row
    /// leaves none for a key to act on, or for pane 4 to show.
    pub fn sel_drawn(&self, data: &Data) -> bool {
        self.filter.is_empty() || self.shown(data).contains(&self.sel)
    }

    /// The selected agent: the rows after the profiles (none while the
    /// list is not drawn).
    pub fn selected_agent<'a>(&self, data: &'a Data) -> Option<&'a AgentRow> {
        self.sel
            .checked_sub(data.profiles.len())
            .filter(|_| Self::drawn(data) && self.sel_drawn(data))
            .and_then(|i| data.agents.get(i))
    }

    /// Whether the list is drawn: with no profile and no agent the pane
    /// says so and draws no row, so no key may act on one. Agents are
    /// listed without any CAO profile (a user of agents alone).
    fn drawn(data: &Data) -> bool {
        !data.profiles.is_empty() || !data.agents.is_empty()
    }

    /// The rows drawn, which are all the keys can reach.
    fn rows(data: &Data) -> usize {
        match Self::drawn(data) {
            true => data.profiles.len() + data.agents.len(),
            false => 0,
        }
    }

    /// Rows in the checklist: the store's valid skills for a profile; for
    /// an agent, those and what it finds elsewhere.
    fn checks(&self, data: &Data) -> usize {
        match self.selected_agent(data) {
            Some(_) => self.agent_checks.len(),
            None if Self::drawn(data) && self.sel_drawn(data) => {
                data.valid.len() + self.missing.len()
            }
            None => 0,
        }
    }

    /// The listed name of checklist row `n` that no valid skill has.
    pub fn missing_at(&self, data: &Data, n: usize) -> Option<&str> {
        let i = n.checked_sub(data.valid.len())?;
        self.missing.get(i).map(String::as_str)
    }

    /// Whose checklist the cursor is in: a profile's or an agent's.
    fn checklist_key(&self, data: &Data) -> Option<String> {
        match self.selected_agent(data) {
            Some(a) => Some(format!("agent {}", a.agent.id)),
            None => (self.selected(data)).map(|r| format!("profile {}", r.listed.name)),
        }
    }

    /// Keeps the cursor of the checklist left and takes up the one shown.
    fn switch_cursor(&mut self, data: &Data) {
        let key = self.checklist_key(data);
        if key == self.cursor_of {
            return;
        }
        if let Some(old) = self.cursor_of.take() {
            (self.cursors).insert(old, (self.check_sel, self.check_offset));
        }
        let kept = key.as_ref().and_then(|k| self.cursors.get(k)).copied();
        (self.check_sel, self.check_offset) = kept.unwrap_or((0, 0));
        self.cursor_of = key;
    }

    /// `s` in an agent's checklist: user <-> project.
    pub fn switch_scope(&mut self) -> Option<Scope> {
        self.agent_scope = match self.agent_scope {
            Scope::Project => Scope::User,
            _ => Scope::Project,
        };
        Some(self.agent_scope)
    }

    /// The list rows the filter lets through, best first as the Skills
    /// filter ranks them (all, in order, without one).
    pub fn shown(&self, data: &Data) -> Vec<usize> {
        let rows = Self::rows(data);
        if self.filter.is_empty() {
            return (0..rows).collect();
        }
        let profiles = data.profiles.iter().map(|r| (r.listed.name.as_str(), ""));
        let agents = (data.agents.iter()).map(|a| (a.agent.id.as_str(), a.agent.name.as_str()));
        let items = profiles.chain(agents).take(rows);
        crate::tui::rank::filter(self.filter.as_str(), items)
    }

    /// The checklist rows its filter lets through, ranked as `shown`.
    pub fn check_shown(&self, data: &Data) -> Vec<usize> {
        let n = self.checks(data);
        if self.check_filter.is_empty() {
            return (0..n).collect();
        }
        let query = self.check_filter.as_str();
        match self.selected_agent(data) {
            Some(_) => {
                crate::tui::rank::filter(query, self.agent_checks.iter().map(|c| (c.name(), "")))
            }
            None => {
                let valid = data.valid_entries().map(|e| (e.name(), e.description()));
                let missing = self.missing.iter().map(|m| (m.as_str(), ""));
                crate::tui::rank::filter(query, valid.chain(missing).take(n))
            }
        }
    }

    /// The filter keys go to: the open checklist's, else the list's.
    pub fn active_filter(&mut self) -> &mut LineInput {
        match self.in_checklist() {
            true => &mut self.check_filter,
            false => &mut self.filter,
        }
    }

    /// The checklist cursor is on a row the filter shows: Space acts only
    /// on a row the user sees.
    fn check_drawn(&self, data: &Data) -> bool {
        self.check_shown(data).contains(&self.check_sel)
    }

    /// Where the selection is among the shown rows.
    fn shown_at(&self, shown: &[usize]) -> Option<usize> {
        shown.iter().position(|&i| i == self.sel)
    }

    /// A key typed into the filter: a selection it hides moves to the
    /// first row it shows.
    pub fn type_in_filter(
        &mut self,
        key: ratatui::crossterm::event::KeyEvent,
        data: &Data,
    ) -> Action {
        if !self.active_filter().key(key) {
            return Action::None;
        }
        if self.in_checklist() {
            let shown = self.check_shown(data);
            if !shown.contains(&self.check_sel)
                && let Some(&first) = shown.first()
            {
                self.check_sel = first;
            }
            return Action::None;
        }
        let shown = self.shown(data);
        match (self.shown_at(&shown), shown.first()) {
            (None, Some(&first)) => self.select(first),
            _ => Action::None,
        }
    }

    pub fn on_cmd(&mut self, cmd: Cmd, data: &Data) -> Action {
        match (self.within, cmd) {
            (Within::List, Cmd::Open) if self.shown_at(&self.shown(data)).is_some() => {
                self.within = Within::Checklist;
                self.check_filter.clear();
            }
            (Within::List, Cmd::Back) => {
                let hidden = !self.sel_drawn(data);
                self.filter.clear();
                if hidden {
                    // The selection is drawn again: pane 4 shows it.
                    return Action::Selected;
                }
            }
            (Within::List, Cmd::Move(m)) => {
                let page = panes::page(self.list_area);
                let shown = self.shown(data);
                let at = self.shown_at(&shown).unwrap_or(0);
                let at = panes::move_in(at, shown.len(), m, page);
                return match shown.get(at) {
                    Some(&sel) => self.select(sel),
                    None => Action::None,
                };
            }
            // Esc clears a filter first, then leaves.
            (Within::Checklist, Cmd::Back) if !self.check_filter.is_empty() => {
                self.check_filter.clear();
            }
            (Within::Checklist, Cmd::Back) => self.within = Within::List,
            (Within::Checklist, Cmd::Toggle) if self.check_drawn(data) => return Action::Toggle,
            (Within::Checklist, Cmd::Move(m)) => {
                let page = panes::page(self.checklist_area);
                let shown = self.check_shown(data);
                let at = shown.iter().position(|&i| i == self.check_sel).unwrap_or(0);
                let at = panes::move_in(at, shown.len(), m, page);
                if let Some(&sel) = shown.get(at) {
                    self.check_sel = sel;
                }
            }
            _ => {}
        }
        Action::None
    }

    fn select(&mut self, sel: usize) -> Action {
        if sel == self.sel {
            return Action::None;
        }
        self.sel = sel;
        Action::Selected
    }

    /// A click on a profile or a checkbox.
    pub fn click(&mut self, at: Position, data: &Data) -> Action {
        let row = |r: Rect, offset: usize| usize::from(at.y - r.y) + offset;
        if self.list_area.contains(at) {
            let i = row(self.list_area, self.offset);
            self.within = Within::List;
            if let Some(&i) = self.shown(data).get(i) {
                return self.select(i);
            }
        } else if self.checklist_area.contains(at) {
            let i = row(self.checklist_area, self.check_offset);
            if let Some(&i) = self.check_shown(data).get(i) {
                // As Space does on that row.
                self.within = Within::Checklist;
                self.check_sel = i;
                return Action::Toggle;
            }
        }
        Action::None
    }

    /// Takes in the selected profile's list and clamps the cursors.
    pub fn refresh(&mut self, data: &Data) {
        self.sel = self.sel.min(Self::rows(data).saturating_sub(1));
        self.agent_checks = self
            .selected_agent(data)
            .map(|a| agent_view::checklist(data, a, self.agent_scope))
            .unwrap_or_default();
        self.missing = match (self.selected_agent(data), self.selected(data)) {
            (None, Some(row)) => missing(data, row),
            _ => Vec::new(),
        };
        self.switch_cursor(data);
        self.check_sel = self.check_sel.min(self.checks(data).saturating_sub(1));
        self.rule = Rule::new(self.selected(data));
    }

    /// How the selected profile gets checklist row `n`: a valid skill, or
    /// a listed name no skill has (listed by name, so `Exact`).
    pub fn tick(&self, data: &Data, n: usize) -> Tick {
        match data.valid_skill(n) {
            Some(e) => self.rule.tick(&e.folder),
            None if self.missing_at(data, n).is_some() => Tick::Exact,
            None => Tick::Off,
        }
    }

    /// Rows for the profile list. Choosing a profile, it gets what it
    /// needs, leaving `BELOW_LIST` rows for the detail and the checklist;
    /// in the checklist, none: the folded detail names the profile and
    /// the checklist takes the pane.
    fn list_height(&self, data: &Data, height: u16) -> u16 {
        let rows = self.shown(data).len().min(usize::from(u16::MAX)) as u16;
        match self.in_checklist() {
            true => 0,
            false => rows.clamp(1, height.saturating_sub(BELOW_LIST).max(1)),
        }
    }

    /// Splits the pane into list, detail and checklist, and scrolls both
    /// lists to their cursors.
    pub fn update(&mut self, area: Rect, data: &Data, theme: &Theme) {
        if area.is_empty() {
            // Not shown: no click may land on where it was.
            (self.list_area, self.checklist_area) = (Rect::default(), Rect::default());
            return;
        }
        let inner = panes::inner(area);
        let detail = self.detail_of(data, theme, usize::from(inner.width));
        // The path and the skills line wrap rather than hide each other;
        // folded over a checklist, the detail is one line (an agent's: two,
        // the second naming the other agents its dir reaches). An agent's
        // detail may take half the pane, a profile's a third.
        let share = if self.selected_agent(data).is_some() {
            2
        } else {
            3
        };
        let detail_height = match self.in_checklist() {
            true => detail.lines.len().min(2) as u16,
            false => panes::wrapped_height(&detail.lines, inner.width)
                .clamp(2, (inner.height / share).max(2)),
        };
        let note = self.note(data, theme);
        let most = if self.in_checklist() { 2 } else { 3 };
        let note_height = note.map_or(0, |n| panes::wrapped_height(&[n], inner.width).min(most));
        let list_height = self.list_height(data, inner.height);
        [
            self.list_area,
            self.detail_area,
            self.note_area,
            self.checklist_area,
        ] = Layout::vertical([
            Constraint::Length(list_height),
            Constraint::Length(detail_height),
            Constraint::Length(note_height),
            Constraint::Min(0),
        ])
        .areas(inner);
        let shown = self.shown(data);
        self.offset = panes::window(self.offset, self.shown_at(&shown), shown.len(), list_height);
        let checks = self.check_shown(data);
        let at = checks.iter().position(|&i| i == self.check_sel);
        let sel = at.filter(|_| self.in_checklist());
        self.check_offset = panes::window(
            self.check_offset,
            sel,
            checks.len(),
            self.checklist_area.height,
        );
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Look, data: &Data) {
        if area.is_empty() {
            return;
        }
        let theme = look.theme;
        let shown = self.shown(data);
        let title = self.title(data, shown.len(), area.width);
        let mut title = title;
        if data.agents_refreshing {
            // The agents shown are the last discovery's until the next ends.
            title.push_str(" · refreshing agents");
        }
        frame.render_widget(self.block(look, title), area);
        if !Self::drawn(data) {
            let para = Paragraph::new(no_profiles(data, theme)).wrap(Wrap { trim: false });
            frame.render_widget(para, panes::inner(area));
            return;
        }
        let all: Vec<ListItem> = data
            .profiles
            .iter()
            .map(|r| {
                let broken = r.loaded.is_err();
                ListItem::new(Line::from(vec![
                    Span::styled(if broken { "✗ " } else { "  " }, theme.error),
                    Span::raw(sanitize_line(&r.listed.name).into_owned()),
                    Span::styled(format!("  {}", r.listed.location.source), theme.dim),
                ]))
            })
            .chain(
                data.agents
                    .iter()
                    .map(|a| agent_view::list_line(a, theme))
                    .map(|line| ListItem::new(fit(line, usize::from(self.list_area.width)))),
            )
            .collect();
        // The filter's rows only (all of them without one).
        let mut all: Vec<Option<ListItem>> = all.into_iter().map(Some).collect();
        let items: Vec<ListItem> = shown.iter().filter_map(|&i| all[i].take()).collect();
        let highlight = match self.within {
            Within::Checklist => theme.accent.add_modifier(Modifier::BOLD),
            Within::List => theme.selected,
        };
        let mut state = ListState::default()
            .with_selected(self.shown_at(&shown))
            .with_offset(self.offset);
        let list = List::new(items).highlight_style(highlight);
        frame.render_stateful_widget(list, self.list_area, &mut state);
        let detail = self.detail_of(data, theme, usize::from(self.detail_area.width));
        let para = Paragraph::new(detail).wrap(Wrap { trim: false });
        frame.render_widget(para, self.detail_area);
        if let Some(note) = self.note(data, theme) {
            let para = Paragraph::new(note).wrap(Wrap { trim: false });
            frame.render_widget(para, self.note_area);
        }
        self.render_checklist(frame, look, data);
    }

    /// The pane's border; a query a new `/` selected shows as the Skills
    /// filter shows it: in the selection's colours, as typing replaces it.
    fn block(&self, look: &Look, title: String) -> ratatui::widgets::Block<'static> {
        let filter = match self.in_checklist() {
            true => &self.check_filter,
            false => &self.filter,
        };
        let query = format!("/{}", sanitize_line(filter.as_str()));
        let at = title
            .find(&query)
            .filter(|_| self.typing && filter.is_selected());
        let Some(at) = at else {
            return panes::block(look, Pane::Profiles, title);
        };
        let (head, rest) = title.split_at(at + 1);
        let (query, tail) = rest.split_at(query.len() - 1);
        let spans = vec![
            Span::styled(head.to_string(), look.theme.title),
            Span::styled(query.to_string(), look.theme.selected),
            Span::styled(format!("{tail} "), look.theme.title),
        ];
        panes::block_spans(look, Pane::Profiles, spans)
    }

    /// `Agents & profiles (7)`; under a filter, its query and `N of M`
    /// (the checklist's, in one), dropping the pane's name when narrow.
    fn title(&self, data: &Data, shown: usize, width: u16) -> String {
        let (name, filter, n, of) = match self.in_checklist() {
            true => {
                let n = self.check_shown(data).len();
                ("Checklist", &self.check_filter, n, self.checks(data))
            }
            false => ("Agents & profiles", &self.filter, shown, Self::rows(data)),
        };
        if !self.typing && filter.is_empty() {
            let all = format!("Agents & profiles ({})", Self::rows(data));
            return panes::fit_title(all, width);
        }
        // A selected query has no cursor: typing replaces it all.
        let cursor = if self.typing && !filter.is_selected() {
            "▏"
        } else {
            ""
        };
        let query = format!("/{}{cursor}", sanitize_line(filter.as_str()));
        panes::filter_title(name, &query, n, of, width)
    }

    /// For a profile whose provider ignores `skills:`: what its agent gets
    /// instead. The ticks stay: they count when CAO runs it as another
    /// provider (`--provider`).
    fn note(&self, data: &Data, theme: &Theme) -> Option<Line<'static>> {
        if data.profiles.is_empty() && !self.in_checklist() {
            // Under the agents listed: where profiles would come from, said
            // only to someone who has CAO or a home for it.
            return (!data.without_cao()).then(|| no_profiles(data, theme));
        }
        if self.selected_agent(data).is_some() {
            return None;
        }
        let (provider, _, kind) = self.selected(data)?.delivery?;
        let gets = kind.regardless()?;
        Some(Line::styled(
            format!("{provider} ignores the skills: list; it gets {gets}"),
            theme.warning,
        ))
    }

    /// In a checklist, folded to one line: the checklist takes the rest.
    fn detail_of(&self, data: &Data, theme: &Theme, width: usize) -> Text<'static> {
        if !self.sel_drawn(data) {
            let query = sanitize_line(self.filter.as_str());
            // Kept (not typing), Backspace does nothing: `/` edits it.
            let edit = if self.typing { "Backspace" } else { "/" };
            let text = format!(
                "No profile or agent matches “{query}”.\n{edit} edits the filter, Esc clears it."
            );
            return Text::styled(text, theme.dim);
        }
        match (self.selected_agent(data), self.in_checklist()) {
            (Some(a), true) => agent_view::folded(a, self.agent_scope, theme, width),
            (Some(a), false) => agent_view::detail(a, self.agent_scope, theme),
            (None, true) => folded(self.selected(data), theme, width),
            (None, false) => detail(self.selected(data), theme, width),
        }
    }

    /// A valid skill's row: its box, its name and the patterns offering it.
    fn check_line(&self, name: &str, folder: &str, theme: &Theme) -> Line<'static> {
        let tick = self.rule.tick(folder);
        let (box_, style) = match tick {
            Tick::Off => ("[ ]", theme.checkbox_off),
            Tick::Exact => ("[x]", theme.checkbox_on),
            Tick::Pattern(_) => ("[*]", theme.pattern_match),
            Tick::All => ("[x]", theme.dim),
        };
        let mut spans = vec![
            Span::styled(format!("{box_} "), style),
            Span::raw(sanitize_line(name).into_owned()),
        ];
        if let Tick::Pattern(p) = &tick {
            spans.push(Span::styled(
                format!("  via {}", sanitize_line(&p.join(", "))),
                theme.pattern_match,
            ));
        }
        Line::from(spans)
    }

    /// Only the rows on screen are built.
    fn render_checklist(&self, frame: &mut Frame, look: &Look, data: &Data) {
        let theme = look.theme;
        let area = self.checklist_area;
        let shown = self.check_shown(data);
        let rows = shown
            .iter()
            .skip(self.check_offset)
            .take(usize::from(area.height));
        let valid = data.valid.len();
        let items: Vec<ListItem> = rows
            .map(
                |&i| match (self.selected_agent(data), data.valid_skill(i)) {
                    (Some(_), _) => agent_view::check_line(&self.agent_checks[i], theme),
                    (None, Some(e)) => self.check_line(e.name(), &e.folder, theme),
                    (None, None) => missing_line(&self.missing[i - valid], theme),
                },
            )
            .map(|line| ListItem::new(fit(line, usize::from(area.width))))
            .collect();
        let at = shown.iter().position(|&i| i == self.check_sel);
        let sel = at.filter(|_| self.in_checklist());
        let mut state =
            ListState::default().with_selected(sel.and_then(|s| s.checked_sub(self.check_offset)));
        let list = List::new(items).highlight_style(theme.selected);
        frame.render_stateful_widget(list, area, &mut state);
    }
}

/// `skills: a, b, c` in one line of `width`: the names that fit, then
/// how many more (never a dangling comma).
fn skills_summary(list: &[String], width: usize) -> String {
    let names: Vec<String> = list.iter().map(|s| sanitize_line(s).into_owned()).collect();
    let all = format!("skills: {}", names.join(", "));
    if all.chars().count() <= width {
        return all;
    }
    for shown in (1..names.len()).rev() {
        let more = names.len() - shown;
        let text = format!("skills: {} … +{more}", names[..shown].join(", "));
        if text.chars().count() <= width {
            return text;
        }
    }
    // Not even one name fits: let it wrap.
    all
}

/// Where CAO reads profiles from, for a home that has none; without CAO,
/// where agents are looked for.
fn no_profiles(data: &Data, theme: &Theme) -> Line<'static> {
    if data.without_cao() {
        return Line::styled(
            "No agent found on this machine. `skilltui agents` says where each one looks; A lists one anyway.",
            theme.dim,
        );
    }
    let store = panes::tilde(&data.home.agent_store(), &data.home.user_home);
    let mut text = format!("No profiles. CAO reads yours from {store}/NAME.md.");
    if data.home.cao().is_err() {
        text.push_str(" Its built-in ones come with CAO, which was not found.");
    }
    Line::styled(text, theme.dim)
}

/// A listed name no skill has: ticked (it is listed), marked missing.
fn missing_line(name: &str, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled("[x] ", theme.checkbox_on),
        Span::raw(sanitize_line(name).into_owned()),
        Span::styled("  missing", theme.error),
    ])
}

/// The names `row`'s list holds that no valid skill has (CAO warns and
/// goes on); patterns are not names, so they are left to the Catalog's
/// warning.
fn missing(data: &Data, row: &ProfileRow) -> Vec<String> {
    let Ok(p) = &row.loaded else {
        return Vec::new();
    };
    let unmatched = crate::core::cao::catalog::unmatched(&data.listing, p.skills.as_deref());
    (unmatched.into_iter())
        .filter(|n| crate::core::cao::store::check_name(n).is_ok())
        .collect()
}

/// The detail folded to one line, over a checklist that takes the rest
/// of the pane: whose checklist it is and how it is delivered.
fn folded(row: Option<&ProfileRow>, theme: &Theme, width: usize) -> Text<'static> {
    let Some(row) = row else {
        return Text::default();
    };
    let mut text = format!("▸ {}", sanitize_line(&row.listed.name));
    if let Some((provider, source, kind)) = row.delivery {
        text.push_str(&format!(
            " · {provider} ({}) · {}",
            source.label(),
            kind.label()
        ));
    }
    if row.listed.location.path.is_none() {
        text.push_str(" · built-in (c copies it)");
    }
    let mut lines = vec![Line::styled(panes::elide_right(&text, width), theme.accent)];
    // Why the ticks are not what CAO reads stays in view.
    if let Some(why) = row
        .loaded
        .as_ref()
        .ok()
        .and_then(|p| p.unread_frontmatter())
    {
        let why = format!("! {}", sanitize_line(&why));
        lines.push(Line::styled(panes::elide_right(&why, width), theme.warning));
    }
    Text::from(lines)
}

/// ` 'x' is not CAO's` when the profile names a provider CAO does not know.
fn invalid_provider(row: &ProfileRow) -> String {
    row.fields
        .iter()
        .rev()
        .find(|(k, v)| k == "provider" && !v.is_empty())
        .filter(|_| row.delivery.is_some_and(|(_, s, _)| s == Source::Fallback))
        .map(|(_, v)| format!(" '{}' is not CAO's", sanitize_line(v)))
        .unwrap_or_default()
}

/// The selected profile's file, `skills:` value and other fields.
fn detail(row: Option<&ProfileRow>, theme: &Theme, width: usize) -> Text<'static> {
    let Some(row) = row else {
        return Text::styled("no profiles: add one to the agent store", theme.dim);
    };
    let where_ = match &row.listed.location.path {
        Some(p) => sanitize_line(&p.display().to_string()).into_owned(),
        None => "built into CAO (read-only)".into(),
    };
    let skills = match &row.loaded {
        Err(e) => Line::styled(format!("✗ {}", sanitize_line(e)), theme.error),
        Ok(p) => match &p.skills {
            None => Line::styled("skills: (not listed: every skill)", theme.dim),
            Some(s) if s.is_empty() => Line::styled("skills: [] (no catalog)", theme.dim),
            Some(s) => Line::styled(skills_summary(s, width), theme.dim),
        },
    };
    // A path wraps between its folders.
    let mut lines = wrap_line(&Line::styled(where_, theme.dim), width.max(1));
    lines.push(skills);
    if let Some((provider, source, kind)) = row.delivery {
        lines.push(Line::from(vec![
            Span::styled("provider: ", theme.accent),
            Span::styled(format!("{provider} ({})", source.label()), theme.dim),
            Span::styled(invalid_provider(row), theme.warning),
        ]));
        lines.push(Line::from(vec![
            Span::styled("delivery: ", theme.accent),
            Span::styled(kind.label(), theme.dim),
        ]));
    }
    // Right under `skills`: it says why that line is not what CAO uses.
    if let Some(why) = row
        .loaded
        .as_ref()
        .ok()
        .and_then(|p| p.unread_frontmatter())
    {
        lines.push(Line::styled(
            format!("! {}", sanitize_line(&why)),
            theme.warning,
        ));
    }
    // The other frontmatter fields after, one row each: they matter less
    // than `skills` and are the first to go when the pane is short.
    for (key, value) in row
        .fields
        .iter()
        .filter(|(k, _)| k != "skills" && (k != "provider" || row.delivery.is_none()))
    {
        let key = format!("{}: ", sanitize_line(key));
        let room = width.saturating_sub(key.chars().count());
        let mut first = sanitize_line(value.lines().next().unwrap_or("")).into_owned();
        if value.trim_end().contains('\n') {
            first.push_str(" …");
        }
        lines.push(Line::from(vec![
            Span::styled(key, theme.accent),
            Span::styled(panes::elide_right(&first, room), theme.dim),
        ]));
    }
    Text::from(lines)
}
