//! The skills found in a source, to pick from: each with CAO's verdict and
//! how it compares with the store. Space picks, `a` picks all shown (or
//! none when all are), `/` filters as the Skills pane does (exact name
//! first), Enter installs the picks.

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Clear, Paragraph};

use crate::core::audit::{Finding, Severity};
use crate::core::cao::store::Home;
use crate::core::sources::remote::Opened;
use crate::core::sources::source::{self, Found, StoreState};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use unicode_width::UnicodeWidthStr;

use crate::core::text::sanitize_line;
use crate::tui::dialogs::frame::{frame_block, popup};
use crate::tui::dialogs::outcome::Outcome;
use crate::tui::input::LineInput;
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::panes;
use crate::tui::theme::Theme;

/// The picks of a source while each clash is asked about.
pub(crate) struct Batch {
    pub(crate) pick: Box<Pick>,
    /// Clashing names still to ask about, in order.
    pub(crate) ask: VecDeque<String>,
    /// Clashing names the user said to replace.
    pub(crate) replace: Vec<String>,
    /// Clashing names the user kept.
    pub(crate) kept: Vec<String>,
    /// Changes a worker already worked out, by name.
    pub(crate) diffs: crate::tui::jobs::Diffs,
    /// The job working out the changes the next prompts show.
    pub(crate) diffing: Option<u64>,
}

/// Rows of skills shown at once, screen allowing (also a page's move).
const SHOWN: usize = 12;
/// The popup's lines that are not rows: frame, heading, hint, filter,
/// "more above", "more below".
const NOT_ROWS: u16 = 7;
/// The popup's widest.
const WIDTH: u16 = 100;

pub struct Pick {
    pub opened: Opened,
    pub picked: Vec<bool>,
    /// The cursor, a position in `shown`.
    pub sel: usize,
    /// Narrows the rows to names and descriptions holding it.
    pub filter: LineInput,
    /// Keys are typed into the filter.
    pub typing: bool,
    /// The rows the filter lets through, as indices into `opened.found`.
    shown: Vec<usize>,
    /// Enter met picks with high or critical findings: the prompt naming
    /// them is shown, and `y` (or `t`, for a critical one) goes on.
    pub asking: bool,
    /// The user said to trust the picks with a critical finding.
    pub trusting: bool,
    /// The first row shown, how many fit and how wide (set by `update`).
    top: usize,
    rows: usize,
    width: usize,
}

impl std::fmt::Debug for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pick")
            .field("source", &self.opened.label)
            .field("picked", &self.picked)
            .finish()
    }
}

impl Pick {
    /// A source holding one skill starts with it picked.
    pub fn new(opened: Opened) -> Pick {
        let one = opened.found.len() == 1;
        Pick {
            picked: vec![one; opened.found.len()],
            shown: (0..opened.found.len()).collect(),
            opened,
            sel: 0,
            filter: LineInput::default(),
            typing: false,
            asking: false,
            trusting: false,
            top: 0,
            rows: SHOWN,
            width: usize::from(WIDTH - 2),
        }
    }

    /// Picks the skill named `name` (a search result's) and puts the
    /// cursor on it, unless it would be refused at install.
    pub fn preselect(&mut self, name: &str) {
        let Some(i) = self.opened.found.iter().position(|f| f.name() == name) else {
            return;
        };
        self.sel = self.shown.iter().position(|&s| s == i).unwrap_or(0);
        if self.opened.found[i].refused.is_none() {
            self.picked[i] = true;
        }
    }

    /// The found skill under the cursor, as an index into `opened.found`.
    fn current(&self) -> Option<usize> {
        self.shown.get(self.sel).copied()
    }

    /// Re-applies the filter, ranked as the Skills pane ranks
    /// (`tui::rank`): the exact name first, the repository's order only
    /// among equals.
    fn refilter(&mut self) {
        let found = &self.opened.found;
        self.shown = match self.filter.is_empty() {
            true => (0..found.len()).collect(),
            false => {
                let names: Vec<String> = found.iter().map(|f| f.name()).collect();
                let descs = found
                    .iter()
                    .map(|f| f.checked.description.as_deref().unwrap_or(""));
                let items = names.iter().map(String::as_str).zip(descs);
                crate::tui::rank::filter(self.filter.as_str(), items)
            }
        };
        self.sel = 0;
        self.top = 0;
    }

    /// A key while the dialog is open: typed into the filter while it has
    /// the keys, else a command.
    pub fn on_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) -> Outcome {
        if self.asking {
            return self.answer(key.code);
        }
        if !self.typing {
            return match (cmd, key.code) {
                (Some(cmd), _) => self.on_cmd(cmd),
                (None, KeyCode::Char('/')) => {
                    self.typing = true;
                    Outcome::Keep
                }
                (None, KeyCode::Char('a')) => self.pick_all_shown(),
                _ => Outcome::Keep,
            };
        }
        match key.code {
            KeyCode::Enter => self.typing = false,
            KeyCode::Esc => {
                self.typing = false;
                self.filter.clear();
                self.refilter();
            }
            KeyCode::Up | KeyCode::Down => {
                self.typing = false;
                return self.on_cmd(cmd.unwrap_or(Cmd::Complete));
            }
            _ => {
                if self.filter.key(key) {
                    self.refilter();
                }
            }
        }
        Outcome::Keep
    }

    /// `a`: picks every shown row that can be, or, when they all are
    /// picked, unpicks them.
    fn pick_all_shown(&mut self) -> Outcome {
        let can: Vec<usize> = (self.shown.iter().copied())
            .filter(|&i| self.opened.found[i].refused.is_none())
            .collect();
        let all = can.iter().all(|&i| self.picked[i]);
        for &i in &can {
            self.picked[i] = !all;
        }
        let refused = self.shown.len() - can.len();
        if !all && refused > 0 {
            return Outcome::KeepSaying(Status::error(format!(
                "picked {}; {refused} cannot be installed (✗: the install would refuse them)",
                can.len()
            )));
        }
        Outcome::Keep
    }

    /// The picks with a high or critical finding, worst first.
    fn risky(&self) -> Vec<&Found> {
        let mut risky: Vec<&Found> = (self.picks().into_iter())
            .filter(|f| f.audit.worst() >= Some(Severity::High))
            .collect();
        risky.sort_by_key(|f| std::cmp::Reverse(f.audit.worst()));
        risky
    }

    /// Some pick has a critical finding: only trusting it installs it.
    fn needs_trust(&self) -> bool {
        (self.picks().iter()).any(|f| f.audit.worst() == Some(Severity::Critical))
    }

    /// The prompt's answer: `y` goes on (`t` when a pick is critical:
    /// that one is trusted), `n` or Esc goes back to the picks.
    fn answer(&mut self, code: KeyCode) -> Outcome {
        let go = if self.needs_trust() { 't' } else { 'y' };
        match code {
            KeyCode::Char(c) if c == go => {
                self.asking = false;
                self.trusting = go == 't';
                Outcome::InstallPicks
            }
            KeyCode::Char('n') | KeyCode::Esc => {
                self.asking = false;
                Outcome::Keep
            }
            _ => Outcome::KeepSaying(Status::error(format!(
                "{go} installs the picks as they are, n goes back to the picks"
            ))),
        }
    }

    /// The user said to trust them: each pick refused only for a critical
    /// finding is judged again under `--trust`, as the CLI's flag does.
    pub fn trust_picks(&mut self, home: &Home) {
        if !self.trusting {
            return;
        }
        // The install that follows copies under the same rules: trusted,
        // its staged copy is not refused again for what the user accepted.
        self.opened.rules.trust = true;
        let rules = self.opened.rules;
        for (f, picked) in self.opened.found.iter_mut().zip(&self.picked) {
            if *picked {
                source::trust(home, rules, f);
            }
        }
    }

    pub fn picks(&self) -> Vec<&Found> {
        self.opened
            .found
            .iter()
            .zip(&self.picked)
            .filter(|(_, p)| **p)
            .map(|(f, _)| f)
            .collect()
    }

    pub fn on_cmd(&mut self, cmd: Cmd) -> Outcome {
        match cmd {
            Cmd::Back if !self.filter.is_empty() => {
                self.filter.clear();
                self.refilter();
            }
            Cmd::Back => return Outcome::Say(Status::info("nothing installed")),
            Cmd::Toggle => return self.toggle(),
            Cmd::Accept if self.picked.iter().any(|p| *p) => {
                if self.risky().is_empty() {
                    return Outcome::InstallPicks;
                }
                self.asking = true;
            }
            Cmd::Accept => {
                return Outcome::KeepSaying(Status::error(
                    "nothing picked: Space picks a skill, Esc cancels",
                ));
            }
            Cmd::Move(m) => self.sel = panes::move_in(self.sel, self.shown.len(), m, SHOWN as u16),
            _ => {}
        }
        Outcome::Keep
    }

    /// Space: a skill that would be refused at install is not picked, so
    /// it cannot sink the others' install.
    fn toggle(&mut self) -> Outcome {
        let Some(i) = self.current() else {
            return Outcome::Keep;
        };
        let (Some(found), Some(picked)) = (self.opened.found.get(i), self.picked.get_mut(i)) else {
            return Outcome::Keep;
        };
        if !*picked
            && !found.trustable()
            && let Some(why) = &found.refused
        {
            return Outcome::KeepSaying(Status::error(why.clone()));
        }
        *picked = !*picked;
        Outcome::Keep
    }

    /// Fits the rows to the screen and scrolls only as far as it takes to
    /// show the cursor's row.
    pub fn update(&mut self, area: Rect) {
        self.rows = usize::from(area.height.saturating_sub(NOT_ROWS)).clamp(1, SHOWN);
        self.width = usize::from(WIDTH.min(area.width).saturating_sub(2));
        self.top = panes::window(self.top, Some(self.sel), self.shown.len(), self.rows as u16);
    }

    /// One line per skill, never wrapped, so the cursor's row is always
    /// among those drawn however long the descriptions.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let text = self.text(theme);
        let rect = popup(
            area,
            WIDTH,
            u16::try_from(text.lines.len()).unwrap_or(u16::MAX) + 2,
        );
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(text).block(frame_block(theme, "Pick skills")),
            rect,
        );
    }

    fn text(&self, theme: &Theme) -> Text<'static> {
        let n = self.opened.found.len();
        let picked = self.picked.iter().filter(|p| **p).count();
        let mut lines = vec![
            Line::from(vec![
                Span::raw(format!(
                    "{} in {}",
                    panes::count(n, "skill"),
                    sanitize_line(&self.opened.label)
                )),
                Span::styled(format!(" · {picked} picked"), theme.accent),
            ]),
            Line::styled(self.keys_line(), theme.dim),
            self.filter_line(theme),
        ];
        if self.asking {
            lines.extend(self.prompt(theme));
            return Text::from(lines);
        }
        let (start, rows) = (self.top, self.rows);
        if start > 0 {
            lines.push(Line::styled(format!("  ↑ {start} more above"), theme.dim));
        }
        for (pos, &i) in self.shown.iter().enumerate().skip(start).take(rows) {
            lines.push(self.row(pos, i, theme));
        }
        let shown = self.shown.len();
        if shown > start + rows {
            lines.push(Line::styled(
                format!("  ↓ {} more below", shown - start - rows),
                theme.dim,
            ));
        }
        Text::from(lines)
    }

    /// Before installing picks with high or critical findings: each one's
    /// worst findings (rule, file and line), then the keys.
    fn prompt(&self, theme: &Theme) -> Vec<Line<'static>> {
        let risky = self.risky();
        let mut lines = vec![Line::styled(
            format!(
                "The audit found what an agent could be turned against you with, in {}:",
                panes::count(risky.len(), "pick")
            ),
            theme.warning,
        )];
        let room = self.rows.saturating_sub(2).max(1);
        for f in risky.iter().take(room) {
            let worst = f.audit.worst();
            let name = sanitize_line(&f.name()).into_owned();
            let of_worst: Vec<&Finding> = (f.audit.findings.iter())
                .filter(|x| Some(x.severity) == worst)
                .collect();
            let more = f.audit.findings.len() - of_worst.len().min(2);
            let first = |x: &Finding| format!("{} {}", x.rule, x.place());
            let named: Vec<String> = of_worst.iter().take(2).map(|x| first(x)).collect();
            let more = match more {
                0 => String::new(),
                n => format!(" (+{n} more: the preview lists them)"),
            };
            let text = format!(" {name}: {}{more}", named.join(", "));
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:<8}", audit_label(worst)),
                    theme.severity(worst),
                ),
                Span::raw(panes::elide_right(&text, self.width.saturating_sub(10))),
            ]));
        }
        if risky.len() > room {
            let more = format!("  … and {} more", risky.len() - room);
            lines.push(Line::styled(more, theme.dim));
        }
        let keys = if self.needs_trust() {
            "t trusts the critical ones (as --trust does) and installs, n goes back"
        } else {
            "y installs the picks anyway, n goes back"
        };
        lines.push(Line::styled(keys, theme.accent));
        lines
    }

    /// The keys that act now: while the filter is typed, Space and `a` are
    /// text, so Enter must end it first.
    fn keys_line(&self) -> &'static str {
        if self.asking {
            "read the findings before installing:"
        } else if self.typing {
            "typing the filter: Enter ends it (then Space picks), Esc clears it"
        } else {
            "Space picks, a all/none, / filter, Enter installs the picks, Esc cancels"
        }
    }

    /// The filter when there is one (or it is being typed), else a gap.
    fn filter_line(&self, theme: &Theme) -> Line<'static> {
        if !self.typing && self.filter.is_empty() {
            return Line::default();
        }
        let (before, after) = self.filter.split();
        let cursor = if self.typing { "▏" } else { "" };
        let count = format!("  {} of {}", self.shown.len(), self.opened.found.len());
        Line::from(vec![
            Span::styled("/", theme.accent),
            Span::raw(format!("{before}{cursor}{after}")),
            Span::styled(count, theme.dim),
        ])
    }

    /// One row, cut to the popup's width so that it never wraps or runs
    /// past the frame, highlighted or not.
    fn row(&self, pos: usize, i: usize, theme: &Theme) -> Line<'static> {
        let f = &self.opened.found[i];
        let tick = if self.picked[i] { "[x]" } else { "[ ]" };
        // The install's own verdict: CAO's, the hard limits, a clash of names.
        let (verdict, vstyle) = if f.refused.is_none() {
            ("✓", theme.ok)
        } else {
            ("✗", theme.error)
        };
        let state = match f.state {
            StoreState::New => "new",
            StoreState::Same => "same",
            StoreState::Different => "different",
        };
        let desc = f.checked.description.as_deref().unwrap_or("");
        let desc = desc.lines().next().unwrap_or("");
        let name = panes::elide_right(&sanitize_line(&f.name()), self.width.saturating_sub(15));
        let state = format!("  [{state}]");
        let worst = f.audit.worst();
        let audit = format!("{:<9}", audit_label(worst));
        let used = 6
            + UnicodeWidthStr::width(audit.as_str())
            + UnicodeWidthStr::width(name.as_str())
            + state.len();
        let desc = format!("  {}", sanitize_line(desc));
        let desc = panes::elide_right(&desc, self.width.saturating_sub(used));
        // The highlighted row in one style: the marks' colours could
        // vanish into the highlight.
        let selected = pos == self.sel;
        let style = |s| if selected { theme.selected } else { s };
        let line = Line::from(vec![
            Span::raw(format!("{tick} ")),
            Span::styled(format!("{verdict} "), style(vstyle)),
            Span::styled(audit, style(theme.severity(worst))),
            Span::raw(name),
            Span::styled(state, style(theme.accent)),
            Span::styled(desc, style(theme.dim)),
        ]);
        if selected {
            line.style(theme.selected)
        } else {
            line
        }
    }
}

/// A severity as the pick dialog's column shows it (`·`: nothing found).
fn audit_label(worst: Option<Severity>) -> &'static str {
    worst.map_or("·", Severity::label)
}
