//! Every key binding, once. Key dispatch (`lookup`), the help popup
//! (`help_rows`) and the hint bar (`hints`) are all read from `ROWS`, and a
//! test holds the README's key table to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::model::Pane;

/// What a key asks for; the focused component decides what it means there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    Quit,
    /// Ctrl-C: quit, unless the editor holds unsaved text.
    Interrupt,
    Help,
    NextPane,
    PrevPane,
    Focus(Pane),
    Reload,
    Install,
    Seed,
    Format,
    Copy,
    Filter,
    Remove,
    Edit,
    /// Check every skill installed from git, in the background.
    CheckAll,
    /// Update the selected skill from its source.
    Update,
    Move(Move),
    /// Enter or → on a list: the skill's preview, the profile's checklist.
    Open,
    /// Leave the checklist, clear the filter, close a dialog.
    Back,
    /// Keep the filter, confirm a dialog.
    Accept,
    Toggle,
    /// An agent's checklist: give skills at user or project scope.
    Scope,
    Yes,
    No,
    Complete,
    Save,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
}

/// Where keys go at a moment: the component that receives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    Skills,
    Preview,
    Profiles,
    Checklist,
    Catalog,
    Filter,
    Help,
    Confirm,
    Seed,
    Install,
    Editor,
    /// A source being fetched.
    Fetch,
    /// The skills found in a source.
    Pick,
}

/// The hint bars at the bottom of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    Main,
    Checklist,
}

/// One entry of a hint bar: shown at tiers `min..=max` (wider is higher),
/// ordered by `rank`.
pub struct Hint {
    pub bar: Bar,
    pub rank: u8,
    pub min: u8,
    pub max: u8,
    pub text: &'static str,
}

pub struct Bind {
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub cmd: Cmd,
    pub scope: &'static [Ctx],
}

/// A row of the help popup and of the README's table; `help` empty keeps a
/// row out of both (dialog keys each dialog names itself).
pub struct Row {
    pub keys: &'static str,
    pub help: &'static str,
    pub binds: &'static [Bind],
    pub hints: &'static [Hint],
}

const PANES: &[Ctx] = &[
    Ctx::Skills,
    Ctx::Preview,
    Ctx::Profiles,
    Ctx::Checklist,
    Ctx::Catalog,
];
const LISTS: &[Ctx] = &[
    Ctx::Skills,
    Ctx::Preview,
    Ctx::Profiles,
    Ctx::Checklist,
    Ctx::Catalog,
    Ctx::Help,
    Ctx::Seed,
    Ctx::Pick,
];
const TEXT_PANES: &[Ctx] = &[Ctx::Preview, Ctx::Catalog, Ctx::Help];
const SKILL_PANES: &[Ctx] = &[Ctx::Skills, Ctx::Preview];
const EVERYWHERE: &[Ctx] = &[
    Ctx::Skills,
    Ctx::Preview,
    Ctx::Profiles,
    Ctx::Checklist,
    Ctx::Catalog,
    Ctx::Filter,
    Ctx::Help,
    Ctx::Confirm,
    Ctx::Seed,
    Ctx::Install,
    Ctx::Editor,
    Ctx::Fetch,
    Ctx::Pick,
];

const fn key(code: KeyCode, cmd: Cmd, scope: &'static [Ctx]) -> Bind {
    Bind {
        code,
        mods: KeyModifiers::NONE,
        cmd,
        scope,
    }
}

const fn ch(c: char, cmd: Cmd, scope: &'static [Ctx]) -> Bind {
    key(KeyCode::Char(c), cmd, scope)
}

const fn ctrl(c: char, cmd: Cmd, scope: &'static [Ctx]) -> Bind {
    Bind {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
        cmd,
        scope,
    }
}

const fn hint(bar: Bar, rank: u8, min: u8, max: u8, text: &'static str) -> Hint {
    Hint {
        bar,
        rank,
        min,
        max,
        text,
    }
}

const fn mv(m: Move) -> Cmd {
    Cmd::Move(m)
}

/// The first matching bind wins: specific scopes come before general ones.
pub const ROWS: &[Row] = &[
    Row {
        keys: "Tab / Shift-Tab, 1-4",
        help: "move between panes",
        binds: &[
            key(KeyCode::Tab, Cmd::NextPane, PANES),
            key(KeyCode::BackTab, Cmd::PrevPane, PANES),
            ch('1', Cmd::Focus(Pane::Skills), PANES),
            ch('2', Cmd::Focus(Pane::Preview), PANES),
            ch('3', Cmd::Focus(Pane::Profiles), PANES),
            ch('4', Cmd::Focus(Pane::Catalog), PANES),
        ],
        hints: &[
            hint(Bar::Main, 2, 0, 1, "Tab panes"),
            hint(Bar::Main, 2, 2, 3, "Tab/1-4 panes"),
        ],
    },
    Row {
        keys: "↑ ↓ / j k, PgUp PgDn, g G",
        help: "move or scroll",
        binds: &[
            key(KeyCode::Up, mv(Move::Up), LISTS),
            ch('k', mv(Move::Up), LISTS),
            key(KeyCode::Down, mv(Move::Down), LISTS),
            ch('j', mv(Move::Down), LISTS),
            key(KeyCode::PageUp, mv(Move::PageUp), LISTS),
            key(KeyCode::PageDown, mv(Move::PageDown), LISTS),
            key(KeyCode::Home, mv(Move::Top), LISTS),
            ch('g', mv(Move::Top), LISTS),
            key(KeyCode::End, mv(Move::Bottom), LISTS),
            ch('G', mv(Move::Bottom), LISTS),
            // Leaving the filter by moving keeps its results.
            key(KeyCode::Up, mv(Move::Up), &[Ctx::Filter]),
            key(KeyCode::Down, mv(Move::Down), &[Ctx::Filter]),
        ],
        hints: &[],
    },
    Row {
        keys: "Enter / →, l",
        help: "open: a skill's preview, a profile's checklist",
        binds: &[
            key(KeyCode::Enter, Cmd::Open, &[Ctx::Skills, Ctx::Profiles]),
            key(KeyCode::Right, Cmd::Open, &[Ctx::Skills, Ctx::Profiles]),
            ch('l', Cmd::Open, &[Ctx::Profiles]),
        ],
        hints: &[],
    },
    Row {
        keys: "Space",
        help: "toggle the skill (checklist); scroll a page",
        binds: &[
            ch(' ', Cmd::Toggle, &[Ctx::Checklist, Ctx::Seed, Ctx::Pick]),
            ch(' ', mv(Move::PageDown), TEXT_PANES),
        ],
        hints: &[
            hint(Bar::Main, 8, 2, 3, "Space toggle"),
            hint(Bar::Checklist, 0, 0, 0, "Space toggle"),
            hint(
                Bar::Checklist,
                0,
                1,
                1,
                "Space toggle the skill in this profile",
            ),
        ],
    },
    Row {
        keys: "s",
        help: "agent checklist: give skills at user / project scope",
        binds: &[ch('s', Cmd::Scope, &[Ctx::Checklist])],
        hints: &[hint(Bar::Checklist, 2, 1, 1, "s scope")],
    },
    Row {
        keys: "← / Esc, h",
        help: "leave the checklist; clear the filter",
        binds: &[
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Skills, Ctx::Checklist]),
            key(KeyCode::Left, Cmd::Back, &[Ctx::Checklist]),
            ch('h', Cmd::Back, &[Ctx::Checklist]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Filter]),
        ],
        hints: &[
            hint(Bar::Checklist, 1, 0, 0, "← back"),
            hint(Bar::Checklist, 1, 1, 1, "← back to the profiles"),
        ],
    },
    Row {
        keys: "/",
        help: "fuzzy filter the skills (Enter keeps it)",
        binds: &[
            ch('/', Cmd::Filter, PANES),
            key(KeyCode::Enter, Cmd::Accept, &[Ctx::Filter]),
        ],
        hints: &[hint(Bar::Main, 3, 0, 3, "/ filter")],
    },
    Row {
        keys: "← → Home End ^A ^E ^U ^K ^W",
        help: "in a text field: move; delete to start, to end, a word",
        // The text fields take these themselves (tui::input).
        binds: &[],
        hints: &[],
    },
    Row {
        keys: "a",
        help: "add skills: a folder, owner/repo or a git URL",
        binds: &[
            ch('a', Cmd::Install, PANES),
            key(KeyCode::Tab, Cmd::Complete, &[Ctx::Install]),
        ],
        hints: &[hint(Bar::Main, 4, 1, 3, "a add")],
    },
    Row {
        keys: "d",
        help: "remove the selected skill",
        binds: &[ch('d', Cmd::Remove, SKILL_PANES)],
        hints: &[hint(Bar::Main, 5, 1, 3, "d remove")],
    },
    Row {
        keys: "U",
        help: "check skills from git: ⇡ outdated, ✎ modified",
        binds: &[ch('U', Cmd::CheckAll, PANES)],
        hints: &[hint(Bar::Main, 12, 3, 3, "U check")],
    },
    Row {
        keys: "u",
        help: "update the selected skill from git, diff first",
        binds: &[ch('u', Cmd::Update, SKILL_PANES)],
        hints: &[hint(Bar::Main, 11, 3, 3, "u update")],
    },
    Row {
        keys: "S",
        help: "seed the default skills",
        binds: &[ch('S', Cmd::Seed, PANES)],
        hints: &[hint(Bar::Main, 6, 1, 3, "S seed")],
    },
    Row {
        keys: "e",
        help: "edit the selected SKILL.md",
        binds: &[ch('e', Cmd::Edit, SKILL_PANES)],
        hints: &[hint(Bar::Main, 7, 1, 3, "e edit")],
    },
    Row {
        keys: "Ctrl-S / Esc, Ctrl-L",
        help: "in the editor: save / close; load a file changed on disk",
        binds: &[
            ctrl('s', Cmd::Save, &[Ctx::Editor]),
            ctrl('l', Cmd::Reload, &[Ctx::Editor]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Editor]),
        ],
        hints: &[],
    },
    Row {
        keys: "f",
        help: "catalog format: cao, v1, xml, json",
        binds: &[ch('f', Cmd::Format, PANES)],
        hints: &[
            hint(Bar::Main, 9, 2, 3, "f format"),
            hint(Bar::Checklist, 2, 1, 1, "f format"),
        ],
    },
    Row {
        keys: "y",
        help: "copy the catalog block",
        binds: &[ch('y', Cmd::Copy, PANES)],
        hints: &[
            hint(Bar::Main, 10, 1, 3, "y copy"),
            hint(Bar::Checklist, 3, 1, 1, "y copy"),
        ],
    },
    Row {
        keys: "r",
        help: "reload from disk",
        binds: &[ch('r', Cmd::Reload, PANES)],
        hints: &[],
    },
    Row {
        keys: "?",
        help: "help, headed by the CAO in use (version and path)",
        binds: &[ch('?', Cmd::Help, PANES)],
        hints: &[
            hint(Bar::Main, 0, 0, 3, "? help"),
            hint(Bar::Checklist, 4, 0, 1, "? help"),
        ],
    },
    Row {
        keys: "q, Ctrl-C",
        help: "quit",
        binds: &[
            ch('q', Cmd::Quit, PANES),
            ctrl('c', Cmd::Interrupt, EVERYWHERE),
        ],
        hints: &[hint(Bar::Main, 1, 0, 3, "q quit")],
    },
    Row {
        keys: "mouse",
        help: "click selects, wheel scrolls",
        binds: &[],
        hints: &[],
    },
    // Dialog keys: each dialog says them on screen.
    Row {
        keys: "y / n",
        help: "",
        binds: &[
            ch('y', Cmd::Yes, &[Ctx::Confirm]),
            key(
                KeyCode::Enter,
                Cmd::Accept,
                &[Ctx::Confirm, Ctx::Seed, Ctx::Install, Ctx::Pick],
            ),
            ch('n', Cmd::No, &[Ctx::Confirm]),
            key(KeyCode::Esc, Cmd::No, &[Ctx::Confirm]),
            key(
                KeyCode::Esc,
                Cmd::Back,
                &[Ctx::Help, Ctx::Seed, Ctx::Install, Ctx::Fetch, Ctx::Pick],
            ),
            ch('q', Cmd::Back, &[Ctx::Help, Ctx::Seed]),
            ch('?', Cmd::Back, &[Ctx::Help]),
            key(KeyCode::Enter, Cmd::Back, &[Ctx::Help]),
        ],
        hints: &[],
    },
];

/// The command `key` gives in `ctx`, if any.
pub fn lookup(ctx: Ctx, key: &KeyEvent) -> Option<Cmd> {
    // Shift is part of the character (`G`, `S`, `?`); only Ctrl and Alt
    // make another key.
    let mods = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
    ROWS.iter()
        .flat_map(|r| r.binds)
        .find(|b| b.code == key.code && b.mods == mods && b.scope.contains(&ctx))
        .map(|b| b.cmd)
}

/// (keys, what they do) for the help popup and the README.
pub fn help_rows() -> impl Iterator<Item = (&'static str, &'static str)> {
    ROWS.iter()
        .filter(|r| !r.help.is_empty())
        .map(|r| (r.keys, r.help))
}

/// Tiers of a bar, widest first.
pub fn tiers(bar: Bar) -> u8 {
    ROWS.iter()
        .flat_map(|r| r.hints)
        .filter(|h| h.bar == bar)
        .map(|h| h.max)
        .max()
        .unwrap_or(0)
}

/// The hint bar `bar` at `tier`.
pub fn hints(bar: Bar, tier: u8) -> String {
    let mut shown: Vec<&Hint> = ROWS
        .iter()
        .flat_map(|r| r.hints)
        .filter(|h| h.bar == bar && (h.min..=h.max).contains(&tier))
        .collect();
    shown.sort_by_key(|h| h.rank);
    let texts: Vec<&str> = shown.iter().map(|h| h.text).collect();
    format!(" {}", texts.join("  "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(ctx: Ctx, code: KeyCode) -> Option<Cmd> {
        lookup(ctx, &KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn right_opens_in_skills_and_h_l_work_in_profiles() {
        assert_eq!(press(Ctx::Skills, KeyCode::Right), Some(Cmd::Open));
        assert_eq!(press(Ctx::Profiles, KeyCode::Char('l')), Some(Cmd::Open));
        assert_eq!(press(Ctx::Checklist, KeyCode::Char('h')), Some(Cmd::Back));
        // Enter in the checklist must not toggle.
        assert_eq!(press(Ctx::Checklist, KeyCode::Enter), None);
        // Letters in the filter are typed, not commands.
        assert_eq!(press(Ctx::Filter, KeyCode::Char('q')), None);
    }

    #[test]
    fn shift_does_not_hide_a_capital_and_ctrl_makes_another_key() {
        let shifted = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(lookup(Ctx::Skills, &shifted), Some(Cmd::Move(Move::Bottom)));
        let ctrl_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL);
        assert_eq!(lookup(Ctx::Skills, &ctrl_q), None);
    }

    /// The key a hint starts with, as a key code.
    fn hint_key(text: &str) -> KeyCode {
        let word = text.split([' ', '/']).next().unwrap_or("");
        match word {
            "Space" => KeyCode::Char(' '),
            "Tab" => KeyCode::Tab,
            "←" => KeyCode::Left,
            "" => KeyCode::Char('/'),
            w if w.chars().count() == 1 => KeyCode::Char(w.chars().next().unwrap()),
            w => panic!("a hint starting with an unknown key: {w}"),
        }
    }

    #[test]
    fn every_hint_names_a_key_its_row_binds() {
        for row in ROWS {
            for h in row.hints {
                let code = hint_key(h.text);
                assert!(
                    row.binds.iter().any(|b| b.code == code),
                    "hint '{}' names a key row '{}' does not bind",
                    h.text,
                    row.keys
                );
            }
        }
    }

    #[test]
    fn the_bars_run_from_widest_to_narrowest() {
        assert_eq!(hints(Bar::Main, 0), " ? help  q quit  Tab panes  / filter");
        assert_eq!(hints(Bar::Checklist, 0), " Space toggle  ← back  ? help");
        for bar in [Bar::Main, Bar::Checklist] {
            for t in 1..=tiers(bar) {
                assert!(hints(bar, t).len() > hints(bar, t - 1).len());
            }
        }
    }

    /// The README's `### Keys` table, as (keys, what they do).
    fn readme_rows() -> Vec<(String, String)> {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));
        let section = readme.split("### Keys").nth(1).expect("a Keys section");
        let section = section.split("\n#").next().unwrap_or("");
        section
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| key |"))
            .map(|l| {
                let cells: Vec<&str> = l.trim_matches('|').split(" | ").collect();
                (cells[0].trim().to_string(), cells[1].trim().to_string())
            })
            .collect()
    }

    #[test]
    fn the_readme_key_table_is_the_keymap() {
        let keymap: Vec<(String, String)> = help_rows()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(readme_rows(), keymap);
    }
}
