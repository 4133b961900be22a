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
use crate::tui::keymap::Cmd;
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
        data.profiles.get(self.sel)
    }

    /// The selected agent: the rows after the profiles (none while the
    /// list is not drawn).
    pub fn selected_agent<'a>(&self, data: &'a Data) -> Option<&'a AgentRow> {
        self.sel
            .checked_sub(data.profiles.len())
            .filter(|_| Self::drawn(data))
            .and_then(|i| data.agents.get(i))
    }

    /// Whether the list is drawn: with no profile the pane says so and
    /// draws no row, so no key may act on one (an agent's row included).
    fn drawn(data: &Data) -> bool {
        !data.profiles.is_empty()
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
            None if Self::drawn(data) => data.valid.len(),
            None => 0,
        }
    }

    /// `s` in an agent's checklist: user <-> project.
    pub fn switch_scope(&mut self) -> Option<Scope> {
        self.agent_scope = match self.agent_scope {
            Scope::Project => Scope::User,
            _ => Scope::Project,
        };
        Some(self.agent_scope)
    }

    pub fn on_cmd(&mut self, cmd: Cmd, data: &Data) -> Action {
        match (self.within, cmd) {
            (Within::List, Cmd::Open) if Self::rows(data) > 0 => self.within = Within::Checklist,
            (Within::List, Cmd::Move(m)) => {
                let page = panes::page(self.list_area);
                let sel = panes::move_in(self.sel, Self::rows(data), m, page);
                return self.select(sel);
            }
            (Within::Checklist, Cmd::Back) => self.within = Within::List,
            (Within::Checklist, Cmd::Toggle) => return Action::Toggle,
            (Within::Checklist, Cmd::Move(m)) => {
                let page = panes::page(self.checklist_area);
                self.check_sel = panes::move_in(self.check_sel, self.checks(data), m, page);
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
            if i < Self::rows(data) {
                return self.select(i);
            }
        } else if self.checklist_area.contains(at) {
            let i = row(self.checklist_area, self.check_offset);
            if i < self.checks(data) {
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
        self.check_sel = self.check_sel.min(self.checks(data).saturating_sub(1));
        self.rule = Rule::new(self.selected(data));
    }

    /// How the selected profile gets the `n`th valid skill.
    pub fn tick(&self, data: &Data, n: usize) -> Tick {
        data.valid_skill(n)
            .map_or(Tick::Off, |e| self.rule.tick(&e.folder))
    }

    /// Rows for the profile list. Choosing a profile, it gets what it
    /// needs, leaving `BELOW_LIST` rows for the detail and the checklist;
    /// in the checklist it keeps a third, or what a short checklist leaves.
    fn list_height(&self, data: &Data, height: u16, detail_height: u16) -> u16 {
        let rows = Self::rows(data).min(usize::from(u16::MAX)) as u16;
        if !self.in_checklist() {
            return rows.clamp(1, height.saturating_sub(BELOW_LIST).max(1));
        }
        let checks = self.checks(data).min(usize::from(u16::MAX)) as u16;
        let spare = height.saturating_sub(detail_height.saturating_add(checks));
        rows.clamp(1, (height / 3).max(spare).max(1))
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
        // The path and the skills line wrap rather than hide each other.
        let detail_height =
            panes::wrapped_height(&detail.lines, inner.width).clamp(2, (inner.height / 3).max(2));
        let note = self.note(data, theme);
        let note_height = note.map_or(0, |n| panes::wrapped_height(&[n], inner.width).min(3));
        // The note is part of what stands above the checklist.
        let above = detail_height + note_height;
        let list_height = self.list_height(data, inner.height, above);
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
        self.offset = panes::window(self.offset, Some(self.sel), Self::rows(data), list_height);
        let sel = self.in_checklist().then_some(self.check_sel);
        let n_checks = self.checks(data);
        self.check_offset =
            panes::window(self.check_offset, sel, n_checks, self.checklist_area.height);
    }

    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Look, data: &Data) {
        if area.is_empty() {
            return;
        }
        let theme = look.theme;
        let mut title = format!("Agents & profiles ({})", Self::rows(data));
        if data.agents_refreshing {
            // The agents shown are the last discovery's until the next ends.
            title.push_str(" · refreshing agents");
        }
        frame.render_widget(panes::block(look, Pane::Profiles, title), area);
        if data.profiles.is_empty() {
            // No checklist: it would belong to no profile.
            let store = panes::tilde(&data.home.agent_store(), &data.home.user_home);
            let mut text = format!("No profiles. CAO reads yours from {store}/NAME.md.");
            if data.home.cao().is_err() {
                text.push_str(" Its built-in ones come with CAO, which was not found.");
            }
            let para = Paragraph::new(Line::styled(text, theme.dim)).wrap(Wrap { trim: false });
            frame.render_widget(para, panes::inner(area));
            return;
        }
        let items: Vec<ListItem> = data
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
                    .map(|a| ListItem::new(agent_view::list_line(a, theme))),
            )
            .collect();
        let highlight = match self.within {
            Within::Checklist => theme.accent.add_modifier(Modifier::BOLD),
            Within::List => theme.selected,
        };
        let mut state = ListState::default()
            .with_selected(Some(self.sel))
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

    /// For a profile whose provider ignores `skills:`: what its agent gets
    /// instead. The ticks stay: they count when CAO runs it as another
    /// provider (`--provider`).
    fn note(&self, data: &Data, theme: &Theme) -> Option<Line<'static>> {
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

    fn detail_of(&self, data: &Data, theme: &Theme, width: usize) -> Text<'static> {
        match self.selected_agent(data) {
            Some(a) => agent_view::detail(a, self.agent_scope, theme),
            None => detail(self.selected(data), theme, width),
        }
    }

    /// Only the rows on screen are built.
    fn render_checklist(&self, frame: &mut Frame, look: &Look, data: &Data) {
        let theme = look.theme;
        let area = self.checklist_area;
        if self.selected_agent(data).is_some() {
            let items: Vec<ListItem> = (self.agent_checks.iter())
                .skip(self.check_offset)
                .take(usize::from(area.height))
                .map(|c| ListItem::new(agent_view::check_line(c, theme)))
                .collect();
            let sel = self.in_checklist().then_some(self.check_sel);
            let mut state = ListState::default()
                .with_selected(sel.and_then(|s| s.checked_sub(self.check_offset)));
            let list = List::new(items).highlight_style(theme.selected);
            frame.render_stateful_widget(list, area, &mut state);
            return;
        }
        let items: Vec<ListItem> = data
            .valid_entries()
            .skip(self.check_offset)
            .take(usize::from(area.height))
            .map(|e| {
                let tick = self.rule.tick(&e.folder);
                let (box_, style) = match tick {
                    Tick::Off => ("[ ]", theme.checkbox_off),
                    Tick::Exact => ("[x]", theme.checkbox_on),
                    Tick::Pattern(_) => ("[*]", theme.pattern_match),
                    Tick::All => ("[x]", theme.dim),
                };
                let mut spans = vec![
                    Span::styled(format!("{box_} "), style),
                    Span::raw(sanitize_line(e.name()).into_owned()),
                ];
                if let Tick::Pattern(p) = &tick {
                    spans.push(Span::styled(
                        format!("  via {}", sanitize_line(&p.join(", "))),
                        theme.pattern_match,
                    ));
                }
                ListItem::new(Line::from(spans))
            })
            .collect();
        let sel = self.in_checklist().then_some(self.check_sel);
        let mut state =
            ListState::default().with_selected(sel.and_then(|s| s.checked_sub(self.check_offset)));
        let list = List::new(items).highlight_style(theme.selected);
        frame.render_stateful_widget(list, area, &mut state);
    }
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
            Some(s) => Line::styled(
                format!("skills: {}", sanitize_line(&s.join(", "))),
                theme.dim,
            ),
        },
    };
    let mut lines = vec![Line::styled(where_, theme.dim), skills];
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
