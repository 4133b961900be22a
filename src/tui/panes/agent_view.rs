//! The agents in pane 3 ("Agents & profiles") and pane 4: each detected
//! agent's row, its checklist (the store's skills, given or not at the
//! current scope, then what it finds elsewhere), and what it finds in its
//! order with its model-facing text and budget meter. Every rule is the
//! core's (`core::agents`); this file only lays the answers out.

use std::collections::HashMap;
use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};

use crate::core::agents::discover::{self, Finds};
use crate::core::agents::give::{self, Given, Record, Taken};
use crate::core::agents::lints::{self, Report};
use crate::core::agents::reach;
use crate::core::agents::render::{self, Catalog};
use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::{self, Parser, Scope};
use crate::core::cao::store::{Home, Status};
use crate::core::text::{sanitize, sanitize_line};
use crate::tui::model::{AgentRow, Data};
use crate::tui::panes::{self, Look, Pane};
use crate::tui::theme::Theme;

/// Every agent but CAO (CAO is what the profiles are) that is detected,
/// that skilltui gave a skill to (so it can be seen and taken back), or
/// that the user `asked` for; with what it finds from the working
/// directory, and the context used.
pub fn load(
    home: &Home,
    cwd: Option<&std::path::Path>,
    asked: &[String],
) -> (Option<Ctx>, Vec<AgentRow>) {
    let (table, mut ctx) = scan::open(home);
    if let Some(cwd) = cwd {
        ctx.cwd = cwd.to_path_buf();
    }
    let record = Record::read(home).unwrap_or_default();
    let shared_of = |agent: &table::Agent| -> Vec<(Scope, String)> {
        [Scope::User, Scope::Project]
            .into_iter()
            .filter_map(|scope| {
                let dir = give::target_dir(agent, &ctx, scope).ok()?;
                let others = reach::readers(&table.agents, &ctx, &dir, &agent.id);
                Some((scope, reach::also_read_by(&others, &dir, &ctx.user_home)?))
            })
            .collect()
    };
    let listed: Vec<(bool, table::Agent)> = table
        .agents
        .iter()
        .filter(|a| a.parser != Parser::Cao)
        .map(|a| (scan::detected(a, &ctx), a))
        .filter(|(detected, a)| {
            *detected || record.targets.iter().any(|t| t.agent == a.id) || asked.contains(&a.id)
        })
        .map(|(detected, a)| (detected, a.clone()))
        .collect();
    let rows = listed
        .into_iter()
        .map(|(detected, agent)| {
            let shared = shared_of(&agent);
            let finds = discover::find(&agent, &ctx);
            let catalog = render::catalog(&agent, &finds);
            let given = given_to(&record, &agent.id);
            let reports = reports(&agent, &finds);
            AgentRow {
                agent,
                detected,
                finds,
                catalog,
                given,
                reports,
                shared,
            }
        })
        .collect();
    (Some(ctx), rows)
}

/// What skilltui's record says it gave `agent`: (skill, scope, path).
fn given_to(record: &Record, agent: &str) -> Vec<(String, Scope, PathBuf)> {
    let mine = record.targets.iter().filter(|t| t.agent == agent);
    mine.map(|t| (t.skill.clone(), t.scope, t.path.clone()))
        .collect()
}

/// Each row's `given`, read again from the record (one small file), for
/// a reload whose discovery runs on a worker.
pub fn regive(home: &Home, rows: &mut [AgentRow]) {
    let record = Record::read(home).unwrap_or_default();
    for row in rows {
        row.given = given_to(&record, &row.agent.id);
    }
}

/// The extra fields and lints of every skill the agent loads (its own
/// files, read again: an agent's dirs hold few skills), plus what a
/// manifest says of it (CLEO's two-tier design).
fn reports(agent: &table::Agent, finds: &Finds) -> HashMap<PathBuf, Report> {
    finds
        .winners()
        .filter(|c| !c.path.starts_with(scan::BUILT_IN))
        .map(|c| {
            let read = discover::reread(agent, c);
            let mut r = lints::report(agent.parser, &read, &c.path);
            r.facts.splice(0..0, c.manifest.iter().cloned());
            (c.path.clone(), r)
        })
        .filter(|(_, r)| !r.facts.is_empty() || !r.lints.is_empty())
        .collect()
}

/// How many detected agents load each skill name (the Skills pane's mark).
pub fn marks(rows: &[AgentRow]) -> std::collections::HashMap<String, usize> {
    let mut out = std::collections::HashMap::new();
    for r in rows {
        for c in r.finds.winners() {
            *out.entry(c.name.clone()).or_insert(0) += 1;
        }
    }
    out
}

/// The list row: `◆ id  n skills`.
pub fn list_line(row: &AgentRow, theme: &Theme) -> Line<'static> {
    let n = row.finds.winners().count();
    let mut spans = vec![
        Span::styled("◆ ", theme.accent),
        Span::raw(sanitize_line(&row.agent.id).into_owned()),
        Span::styled(format!("  {}", panes::count(n, "skill")), theme.dim),
    ];
    if !row.detected {
        spans.push(Span::styled("  not detected", theme.warning));
    }
    Line::from(spans)
}

/// The lines under the list for an agent: its name, the scope, clash and
/// links, and which other agents read the dir it gets skills in at this
/// scope (a skill given there reaches them too).
pub fn detail(row: &AgentRow, scope: Scope, theme: &Theme) -> Text<'static> {
    let a = &row.agent;
    let shared = row
        .shared
        .iter()
        .find(|(s, _)| *s == scope)
        .map(|(_, line)| Line::styled(sanitize_line(line).into_owned(), theme.dim));
    Text::from(
        vec![
            Line::styled(sanitize_line(&a.name).into_owned(), theme.dim),
            Line::styled(
                format!(
                    "scope: {} (s switches) · clash: {} · links: {}",
                    scope.label(),
                    serde_json::to_value(a.clash)
                        .unwrap_or_default()
                        .as_str()
                        .unwrap_or(""),
                    serde_json::to_value(a.symlinks)
                        .unwrap_or_default()
                        .as_str()
                        .unwrap_or("")
                ),
                theme.dim,
            ),
            Line::styled(
                sanitize_line(&a.certainty().short()).into_owned(),
                theme.dim,
            ),
        ]
        .into_iter()
        .chain(shared)
        .collect::<Vec<_>>(),
    )
}

/// The detail folded over the agent's checklist: one line, and a second
/// naming the other agents that read the dir it gets skills in at this
/// scope, when any do.
pub fn folded(row: &AgentRow, scope: Scope, theme: &Theme, width: usize) -> Text<'static> {
    let text = format!(
        "◆ {} · scope: {} (s switches)",
        sanitize_line(&row.agent.id),
        scope.label()
    );
    let shared = row
        .shared
        .iter()
        .find(|(s, _)| *s == scope)
        .map(|(_, line)| Line::styled(panes::elide_right(&sanitize_line(line), width), theme.dim));
    Text::from(
        std::iter::once(Line::styled(panes::elide_right(&text, width), theme.accent))
            .chain(shared)
            .collect::<Vec<_>>(),
    )
}

/// One checklist row of an agent.
pub enum Check {
    /// A store skill: given by skilltui at this scope, a folder the user
    /// made there, or neither.
    Store { name: String, state: State },
    /// Found elsewhere (read-only), with its location.
    Found { name: String, location: String },
}

impl Check {
    /// The skill's name, which the checklist's filter matches.
    pub fn name(&self) -> &str {
        match self {
            Check::Store { name, .. } | Check::Found { name, .. } => name,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Off,
    Given,
    Users,
}

/// The agent's checklist at `scope`: every valid store skill, then what
/// the agent loads from anywhere else.
pub fn checklist(data: &Data, row: &AgentRow, scope: Scope) -> Vec<Check> {
    let dir = data
        .agent_ctx
        .as_ref()
        .and_then(|ctx| give::target_dir(&row.agent, ctx, scope).ok());
    let mut out: Vec<Check> = data
        .valid_entries()
        .map(|e| {
            let given = row
                .given
                .iter()
                .any(|(s, sc, _)| s == &e.folder && *sc == scope);
            let state = if given {
                State::Given
            } else if dir
                .as_ref()
                .is_some_and(|d| std::fs::symlink_metadata(d.join(&e.folder)).is_ok())
            {
                State::Users
            } else {
                State::Off
            };
            Check::Store {
                name: e.folder.clone(),
                state,
            }
        })
        .collect();
    let store: Vec<PathBuf> = row.given.iter().map(|(_, _, p)| p.clone()).collect();
    out.extend(
        row.finds
            .winners()
            .filter(|c| !store.contains(&c.path))
            // A store skill's name in the scope's folder is its checkbox
            // row above (`user's`); any other folder there is the user's
            // own skill and listed here.
            .filter(|c| {
                let in_dir = dir
                    .as_ref()
                    .is_some_and(|d| c.path.parent() == Some(d.as_path()));
                let folder = c.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                !(in_dir && data.valid_position(folder).is_some())
            })
            .map(|c| Check::Found {
                name: c.name.clone(),
                location: panes::tilde(row.finds.location(c), &data.home.user_home),
            }),
    );
    out
}

pub fn check_line(check: &Check, theme: &Theme) -> Line<'static> {
    match check {
        Check::Store { name, state } => {
            let (box_, style, note) = match state {
                State::Off => ("[ ]", theme.checkbox_off, ""),
                State::Given => ("[x]", theme.checkbox_on, ""),
                State::Users => ("[x]", theme.dim, "  user's"),
            };
            Line::from(vec![
                Span::styled(format!("{box_} "), style),
                Span::raw(sanitize_line(name).into_owned()),
                Span::styled(note, theme.dim),
            ])
        }
        Check::Found { name, location } => Line::from(vec![
            Span::styled(" ·  ", theme.dim),
            Span::raw(sanitize_line(name).into_owned()),
            Span::styled(format!("  {}", sanitize_line(location)), theme.dim),
        ]),
    }
}

/// Space on a checklist row: give or take a store skill at `scope`.
/// `rows` is [`checklist`] for `row` at `scope`, as the pane shows it.
pub fn toggle(
    data: &Data,
    row: &AgentRow,
    rows: &[Check],
    scope: Scope,
    n: usize,
) -> Result<String, String> {
    let ctx = data.agent_ctx.as_ref().ok_or("no agent context")?;
    // Paths from `~`: the message stays one status line.
    let at = |p: &std::path::Path| panes::tilde(p, &data.home.user_home);
    let a = &row.agent;
    match rows.get(n) {
        Some(Check::Store {
            name,
            state: State::Off,
        }) => match give::enable(&data.home, a, ctx, name, scope, false)? {
            Given::Made(t) => {
                let said = format!("gave {name} to {} ({})", a.id, at(&t.path));
                Ok(match row.shared.iter().find(|(s, _)| *s == scope) {
                    Some((_, also)) => format!("{said}; {also}"),
                    None => said,
                })
            }
            Given::Already(p) => Ok(format!("{} already has {name} ({})", a.id, at(&p))),
        },
        Some(Check::Store {
            name,
            state: State::Given,
        }) => {
            let done = give::disable(&data.home, a, ctx, name, Some(scope))?;
            Ok(match done.first().map(|(_, t)| t) {
                Some(Taken::LeftChanged(p)) => {
                    format!("{} changed since skilltui made it: left in place", at(p))
                }
                Some(Taken::NotOurs(p)) => format!(
                    "{} is not where skilltui gives {} skills: left in place",
                    p.display(),
                    a.id
                ),
                _ => format!("took {name} from {}", a.id),
            })
        }
        Some(Check::Store {
            name,
            state: State::Users,
        }) => Err(format!(
            "{name} in {}'s dir was not made by skilltui: it is never deleted",
            a.id
        )),
        Some(Check::Found { name, location }) => Err(format!(
            "{name} is in {location}, not the store: read-only here"
        )),
        None => Ok(String::new()),
    }
}

/// Pane 4 for an agent: what it finds in its order (shadowed copies with
/// their winners, invalid ones with why), then its text.
pub fn finds_lines(row: &AgentRow, theme: &Theme) -> Vec<Line<'static>> {
    let f: &Finds = &row.finds;
    // A cap that cut the listing, a refused manifest: said first.
    let mut lines: Vec<Line<'static>> = (f.warnings.iter())
        .map(|w| Line::styled(format!("! {}", sanitize_line(w)), theme.warning))
        .collect();
    for c in &f.candidates {
        let (mark, style) = match c.status {
            Status::Ok => ("✓", theme.ok),
            Status::Shadowed => ("◌", theme.shadowed_mark),
            Status::Invalid => ("✗", theme.invalid_mark),
        };
        let why = match (&c.shadowed_by, &c.error) {
            (Some(w), _) => format!("  shadowed by {}", w.display()),
            (None, Some(e)) => format!("  {e}"),
            _ if c.hidden => "  (hidden from the model)".into(),
            _ => String::new(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::raw(sanitize_line(&c.name).into_owned()),
            Span::styled(
                sanitize_line(&format!("  {}{why}", f.location(c).display())).into_owned(),
                theme.dim,
            ),
        ]));
        if let Some(r) = row.reports.get(&c.path) {
            for (k, v) in &r.facts {
                let text = sanitize_line(&format!("    {k}: {v}")).into_owned();
                lines.push(Line::styled(text, theme.dim));
            }
            for l in &r.lints {
                let text = sanitize_line(&format!("    ! {l}")).into_owned();
                lines.push(Line::styled(text, theme.warning));
            }
        }
    }
    if f.candidates.is_empty() {
        lines.push(Line::styled("finds no skills from here", theme.dim));
    }
    lines.push(Line::raw(""));
    let cat: &Catalog = &row.catalog;
    lines.push(Line::styled(
        format!("— {}", sanitize_line(&cat.about)),
        theme.accent,
    ));
    for a in &cat.actions {
        lines.push(Line::styled(
            format!("! {}", sanitize_line(a)),
            theme.warning,
        ));
    }
    match &cat.text {
        Some(t) => lines.extend(t.lines().map(|l| Line::raw(sanitize(l).into_owned()))),
        None => lines.push(Line::styled(
            "this agent documents no text for its model",
            theme.dim,
        )),
    }
    lines
}

/// Draws pane 4 for an agent: title `Finds · <name>`, the meter on the
/// bottom border.
pub fn render_catalog(frame: &mut Frame, area: Rect, look: &Look, row: &AgentRow, scroll: u16) {
    let title = format!("Finds · {}", sanitize_line(&row.agent.name));
    let meter = format!(" {} ", row.catalog.meter());
    let block = panes::block(look, Pane::Catalog, title)
        .title_bottom(Line::styled(meter, look.theme.dim).right_aligned());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let para = Paragraph::new(Text::from(finds_lines(row, look.theme)))
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0));
    frame.render_widget(para, inner);
}
