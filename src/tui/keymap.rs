//! Every key binding, once. Key dispatch (`lookup`), the help popup
//! (`help_rows`), the hint bar (`hints`) and the "not here" message
//! (`not_here`) are all read from `ROWS`, and a test holds the key table
//! of docs/tui.md (`## Keys`) to it.
//!
//! A hint names its key first (`d remove`, `Ctrl-Z undo`, `Enter open`);
//! the bar of a context shows it only when that key, pressed there, gives
//! the command its row binds it to. A new key shows in the right panes by
//! declaring its bind's scope; a test fails on a hint naming no bound key.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::model::Pane;

/// What a key asks for; the focused component decides what it means there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    Quit,
    /// Ctrl-C: quit, unless the editor holds unsaved text or an install
    /// (or its fetch) runs: then it stops that, as Esc does.
    Interrupt,
    Help,
    NextPane,
    PrevPane,
    Focus(Pane),
    Reload,
    Install,
    Seed,
    /// `A` in pane 3: which agents to list even when not detected.
    ListAgents,
    Format,
    /// Catalog: deliver as the next CAO provider.
    Provider,
    /// Catalog: back to the profile's own provider.
    ResetProvider,
    Copy,
    /// `y` in the Skills pane and the Preview: the skill's folder.
    CopyPath,
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
    /// `/` in the Preview pane: search its text.
    Search,
    /// `<` `>` in the Preview pane: scroll code blocks sideways.
    CodeLeft,
    CodeRight,
    NextMatch,
    PrevMatch,
    /// `o`: the selected skill's other files.
    Files,
    /// `E`: the selected SKILL.md or profile in `$VISUAL` / `$EDITOR`.
    ExternalEdit,
    Undo,
    Redo,
    /// `c`: copy a built-in profile into the agent store.
    CopyProfile,
    /// `z`: take the last toggle back.
    UndoToggle,
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
    /// The checklist of an agent (pane 3, an agent selected).
    AgentChecklist,
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
    /// A registry search's results.
    Results,
    /// Typing a search in the Preview pane.
    Search,
}

impl Ctx {
    /// How the "not here" message names the place.
    fn name(self) -> &'static str {
        match self {
            Ctx::Skills => "Skills",
            Ctx::Preview => "Preview",
            Ctx::Profiles => "the profile list",
            Ctx::Checklist => "a profile's checklist",
            Ctx::AgentChecklist => "an agent's checklist",
            Ctx::Catalog => "Catalog",
            Ctx::Filter => "the filter",
            Ctx::Help => "help",
            Ctx::Confirm | Ctx::Seed | Ctx::Install | Ctx::Fetch | Ctx::Pick | Ctx::Results => {
                "a dialog"
            }
            Ctx::Editor => "the editor",
            Ctx::Search => "the preview search",
        }
    }
}

/// The hint bars at the bottom of the screen: which texts and order; each
/// context then keeps the hints whose key acts there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    Main,
    Checklist,
    /// An agent's checklist: its keys give and take, per scope.
    Agent,
    /// Typing a search in the Preview pane.
    Search,
    Filter,
}

impl Bar {
    /// A dialog names its own keys: under it the bar is empty.
    pub fn of(ctx: Ctx) -> Option<Bar> {
        match ctx {
            Ctx::Checklist => Some(Bar::Checklist),
            Ctx::AgentChecklist => Some(Bar::Agent),
            Ctx::Filter => Some(Bar::Filter),
            Ctx::Search => Some(Bar::Search),
            Ctx::Skills | Ctx::Preview | Ctx::Profiles | Ctx::Catalog => Some(Bar::Main),
            _ => None,
        }
    }
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

/// Where a key acts: the help popup and the key table of docs/tui.md
/// group the keys by pane, as lazygit's help does, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Everywhere,
    Skills,
    Preview,
    Agents,
    Catalog,
    /// Text fields and the SKILL.md editor.
    Text,
}

impl Group {
    pub const ALL: [Group; 6] = [
        Group::Everywhere,
        Group::Skills,
        Group::Preview,
        Group::Agents,
        Group::Catalog,
        Group::Text,
    ];

    /// The group's heading.
    pub fn label(self) -> &'static str {
        match self {
            Group::Everywhere => "everywhere",
            Group::Skills => "1 Skills",
            Group::Preview => "2 Preview",
            Group::Agents => "3 Agents & profiles",
            Group::Catalog => "4 Catalog",
            Group::Text => "text fields and the editor",
        }
    }
}

/// A row of the help popup and of the key table in docs/tui.md; `help`
/// empty keeps a row out of both (dialog keys each dialog names itself).
pub struct Row {
    pub group: Group,
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
    Ctx::AgentChecklist,
    Ctx::Catalog,
];
const LISTS: &[Ctx] = &[
    Ctx::Skills,
    Ctx::Preview,
    Ctx::Profiles,
    Ctx::Checklist,
    Ctx::AgentChecklist,
    Ctx::Catalog,
    Ctx::Help,
    Ctx::Seed,
    Ctx::Pick,
    Ctx::Results,
];
const TEXT_PANES: &[Ctx] = &[Ctx::Preview, Ctx::Catalog, Ctx::Help];
const SKILL_PANES: &[Ctx] = &[Ctx::Skills, Ctx::Preview];
const EVERYWHERE: &[Ctx] = &[
    Ctx::Skills,
    Ctx::Preview,
    Ctx::Profiles,
    Ctx::Checklist,
    Ctx::AgentChecklist,
    Ctx::Catalog,
    Ctx::Filter,
    Ctx::Help,
    Ctx::Confirm,
    Ctx::Seed,
    Ctx::Install,
    Ctx::Editor,
    Ctx::Fetch,
    Ctx::Pick,
    Ctx::Results,
    Ctx::Search,
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
        group: Group::Everywhere,
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
        group: Group::Everywhere,
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
        group: Group::Everywhere,
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
        group: Group::Everywhere,
        keys: "Space",
        help: "toggle the skill (checklist); scroll a page",
        binds: &[
            ch(
                ' ',
                Cmd::Toggle,
                &[Ctx::Checklist, Ctx::AgentChecklist, Ctx::Seed, Ctx::Pick],
            ),
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
            hint(Bar::Agent, 0, 0, 0, "Space give/take"),
            hint(Bar::Agent, 0, 1, 1, "Space give or take the skill"),
        ],
    },
    Row {
        group: Group::Agents,
        keys: "s",
        help: "agent checklist: give skills at user / project scope",
        binds: &[ch('s', Cmd::Scope, &[Ctx::AgentChecklist])],
        hints: &[hint(Bar::Agent, 2, 0, 1, "s scope")],
    },
    Row {
        group: Group::Everywhere,
        keys: "← / Esc, h",
        help: "leave the checklist; clear the filter",
        binds: &[
            key(
                KeyCode::Esc,
                Cmd::Back,
                &[
                    Ctx::Skills,
                    Ctx::Profiles,
                    Ctx::Checklist,
                    Ctx::AgentChecklist,
                ],
            ),
            key(
                KeyCode::Left,
                Cmd::Back,
                &[Ctx::Checklist, Ctx::AgentChecklist],
            ),
            ch('h', Cmd::Back, &[Ctx::Checklist, Ctx::AgentChecklist]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Filter]),
        ],
        hints: &[
            hint(Bar::Checklist, 1, 0, 0, "← back"),
            hint(Bar::Checklist, 1, 1, 1, "← back to the profiles"),
            hint(Bar::Agent, 1, 0, 0, "← back"),
            hint(Bar::Agent, 1, 1, 1, "← back to the list"),
            hint(Bar::Filter, 1, 0, 0, "Esc clears it"),
        ],
    },
    Row {
        group: Group::Preview,
        keys: "/ n N (preview)",
        help: "search the preview: next, previous match (Esc clears)",
        binds: &[
            ch('/', Cmd::Search, &[Ctx::Preview]),
            ch('n', Cmd::NextMatch, &[Ctx::Preview]),
            ch('N', Cmd::PrevMatch, &[Ctx::Preview]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Search]),
            key(KeyCode::Enter, Cmd::Accept, &[Ctx::Search]),
        ],
        hints: &[
            hint(Bar::Main, 3, 0, 3, "/ search"),
            hint(Bar::Search, 0, 0, 0, "Enter keeps it (n/N go through it)"),
            hint(Bar::Search, 1, 0, 0, "Esc clears it"),
        ],
    },
    Row {
        group: Group::Preview,
        keys: "o Enter → Esc ← h (preview)",
        help: "the skill's other files: list them, open one; back out to where you came from",
        binds: &[
            ch('o', Cmd::Files, SKILL_PANES),
            key(KeyCode::Enter, Cmd::Open, &[Ctx::Preview]),
            key(KeyCode::Right, Cmd::Open, &[Ctx::Preview]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Preview]),
            key(KeyCode::Left, Cmd::Back, &[Ctx::Preview]),
            ch('h', Cmd::Back, &[Ctx::Preview]),
        ],
        hints: &[hint(Bar::Main, 14, 2, 3, "o files")],
    },
    Row {
        group: Group::Preview,
        keys: "< > (preview)",
        help: "scroll code blocks sideways (‹ › mark a line that goes on)",
        binds: &[
            ch('<', Cmd::CodeLeft, &[Ctx::Preview]),
            ch('>', Cmd::CodeRight, &[Ctx::Preview]),
        ],
        hints: &[hint(Bar::Main, 15, 2, 3, "< > code")],
    },
    Row {
        group: Group::Everywhere,
        keys: "/",
        help: "filter (fuzzy): the skills; in pane 3, the profiles and agents or the open checklist",
        binds: &[
            ch('/', Cmd::Filter, PANES),
            key(KeyCode::Enter, Cmd::Accept, &[Ctx::Filter]),
        ],
        hints: &[
            hint(Bar::Main, 3, 0, 3, "/ filter"),
            hint(Bar::Filter, 0, 0, 0, "Enter keeps the filter"),
        ],
    },
    Row {
        group: Group::Text,
        keys: "← → Home End ^A ^E ^U ^K ^W",
        help: "in a text field: move; delete to start, to end, a word",
        // The text fields take these themselves (tui::input).
        binds: &[],
        hints: &[],
    },
    Row {
        group: Group::Skills,
        keys: "a",
        help: "add skills: folder, owner/repo, URL, or search",
        binds: &[
            ch('a', Cmd::Install, PANES),
            key(KeyCode::Tab, Cmd::Complete, &[Ctx::Install]),
        ],
        hints: &[hint(Bar::Main, 4, 1, 3, "a add")],
    },
    Row {
        group: Group::Skills,
        keys: "d",
        help: "remove the selected skill",
        binds: &[ch('d', Cmd::Remove, SKILL_PANES)],
        hints: &[hint(Bar::Main, 5, 1, 3, "d remove")],
    },
    Row {
        group: Group::Skills,
        keys: "U",
        help: "check skills from git: ⇡ outdated, ✎ modified",
        binds: &[ch('U', Cmd::CheckAll, PANES)],
        hints: &[hint(Bar::Main, 12, 3, 3, "U check")],
    },
    Row {
        group: Group::Skills,
        keys: "u",
        help: "update the selected skill from git, diff first",
        binds: &[ch('u', Cmd::Update, SKILL_PANES)],
        hints: &[hint(Bar::Main, 11, 3, 3, "u update")],
    },
    Row {
        group: Group::Agents,
        keys: "A",
        help: "pane 3: which agents to list even when not detected (saved)",
        binds: &[ch('A', Cmd::ListAgents, &[Ctx::Profiles])],
        hints: &[hint(Bar::Main, 12, 3, 3, "A agents")],
    },
    Row {
        group: Group::Skills,
        keys: "S",
        help: "seed the default skills",
        binds: &[ch('S', Cmd::Seed, PANES)],
        hints: &[hint(Bar::Main, 6, 1, 3, "S seed")],
    },
    Row {
        group: Group::Skills,
        keys: "e",
        help: "edit the selected SKILL.md",
        binds: &[ch('e', Cmd::Edit, SKILL_PANES)],
        hints: &[hint(Bar::Main, 7, 1, 3, "e edit")],
    },
    Row {
        group: Group::Agents,
        keys: "z",
        help: "undo the last toggle (this session)",
        binds: &[ch('z', Cmd::UndoToggle, &[Ctx::Profiles, Ctx::Checklist])],
        hints: &[
            hint(Bar::Main, 15, 3, 3, "z undo"),
            hint(Bar::Checklist, 5, 0, 1, "z undo"),
        ],
    },
    Row {
        group: Group::Agents,
        keys: "c",
        help: "copy a built-in profile to the agent store, to edit it",
        binds: &[ch('c', Cmd::CopyProfile, &[Ctx::Profiles, Ctx::Checklist])],
        hints: &[
            hint(Bar::Main, 5, 1, 3, "c copy to edit"),
            hint(Bar::Checklist, 1, 0, 1, "c copy to edit"),
        ],
    },
    Row {
        group: Group::Skills,
        keys: "E",
        help: "open the SKILL.md or the profile in $VISUAL / $EDITOR",
        binds: &[ch('E', Cmd::ExternalEdit, PANES)],
        hints: &[],
    },
    Row {
        group: Group::Text,
        keys: "Ctrl-S / Esc, Ctrl-L, Ctrl-Z / Ctrl-Y",
        help: "in the editor: save / close; load a file changed on disk; undo / redo",
        binds: &[
            ctrl('z', Cmd::Undo, &[Ctx::Editor]),
            ctrl('y', Cmd::Redo, &[Ctx::Editor]),
            ctrl('s', Cmd::Save, &[Ctx::Editor]),
            ctrl('l', Cmd::Reload, &[Ctx::Editor]),
            key(KeyCode::Esc, Cmd::Back, &[Ctx::Editor]),
        ],
        hints: &[],
    },
    Row {
        group: Group::Catalog,
        keys: "f",
        help: "catalog format: cao, v1, xml, json",
        binds: &[ch('f', Cmd::Format, PANES)],
        hints: &[
            hint(Bar::Main, 9, 2, 3, "f format"),
            hint(Bar::Checklist, 2, 1, 1, "f format"),
        ],
    },
    Row {
        group: Group::Catalog,
        keys: "p",
        help: "Catalog: deliver as the next CAO provider (its own first)",
        binds: &[ch('p', Cmd::Provider, &[Ctx::Catalog])],
        hints: &[hint(Bar::Main, 13, 3, 3, "p provider")],
    },
    Row {
        group: Group::Catalog,
        keys: "P",
        help: "Catalog: back to the profile's own provider",
        binds: &[ch('P', Cmd::ResetProvider, &[Ctx::Catalog])],
        hints: &[hint(Bar::Main, 13, 1, 3, "P own provider")],
    },
    Row {
        group: Group::Skills,
        keys: "y (skills, preview)",
        help: "copy the selected skill's folder path to the clipboard",
        binds: &[ch('y', Cmd::CopyPath, SKILL_PANES)],
        hints: &[
            hint(Bar::Main, 10, 1, 1, "y path"),
            hint(Bar::Main, 10, 2, 3, "y copy path"),
        ],
    },
    Row {
        group: Group::Catalog,
        keys: "y",
        help: "copy the catalog block (an agent's text; with no block, the serve command) to the clipboard",
        binds: &[ch('y', Cmd::Copy, PANES)],
        hints: &[
            hint(Bar::Main, 10, 1, 3, "y copy catalog"),
            hint(Bar::Checklist, 3, 1, 1, "y copy catalog"),
            hint(Bar::Agent, 3, 1, 1, "y copy text"),
        ],
    },
    Row {
        group: Group::Everywhere,
        keys: "r",
        help: "reload from disk",
        binds: &[ch('r', Cmd::Reload, PANES)],
        hints: &[],
    },
    Row {
        group: Group::Everywhere,
        keys: "?",
        help: "help, headed by the CAO in use (version and path)",
        binds: &[ch('?', Cmd::Help, PANES)],
        hints: &[
            hint(Bar::Main, 0, 0, 3, "? help"),
            hint(Bar::Checklist, 4, 0, 1, "? help"),
            hint(Bar::Agent, 4, 0, 1, "? help"),
        ],
    },
    Row {
        group: Group::Everywhere,
        keys: "q, Ctrl-C",
        help: "quit; during an install or a fetch, Ctrl-C stops it as Esc does",
        binds: &[
            ch('q', Cmd::Quit, PANES),
            ctrl('c', Cmd::Interrupt, EVERYWHERE),
        ],
        hints: &[hint(Bar::Main, 1, 0, 3, "q quit")],
    },
    Row {
        group: Group::Everywhere,
        keys: "mouse",
        help: "click selects, wheel scrolls",
        binds: &[],
        hints: &[],
    },
    // Dialog keys: each dialog says them on screen.
    Row {
        group: Group::Everywhere,
        keys: "y / n",
        help: "",
        binds: &[
            ch('y', Cmd::Yes, &[Ctx::Confirm]),
            key(
                KeyCode::Enter,
                Cmd::Accept,
                &[
                    Ctx::Confirm,
                    Ctx::Seed,
                    Ctx::Install,
                    Ctx::Pick,
                    Ctx::Results,
                ],
            ),
            ch('n', Cmd::No, &[Ctx::Confirm]),
            key(KeyCode::Right, Cmd::Open, &[Ctx::Results]),
            key(KeyCode::Esc, Cmd::No, &[Ctx::Confirm]),
            key(
                KeyCode::Esc,
                Cmd::Back,
                &[
                    Ctx::Help,
                    Ctx::Seed,
                    Ctx::Install,
                    Ctx::Fetch,
                    Ctx::Pick,
                    Ctx::Results,
                ],
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

/// (keys, what they do) for the help popup, the man page and
/// docs/tui.md: grouped by pane (in [`Group::ALL`]'s order), each group in
/// the table's order.
pub fn help_rows() -> impl Iterator<Item = (&'static str, &'static str)> {
    grouped_rows().map(|(_, k, h)| (k, h))
}

/// [`help_rows`] with each row's group.
pub fn grouped_rows() -> impl Iterator<Item = (Group, &'static str, &'static str)> {
    Group::ALL.into_iter().flat_map(|g| {
        ROWS.iter()
            .filter(move |r| r.group == g && !r.help.is_empty())
            .map(move |r| (g, r.keys, r.help))
    })
}

/// The key a hint names: its first word (`Tab/1-4 panes` names Tab,
/// `Ctrl-Z undo` Ctrl and z).
pub fn hint_key(text: &str) -> Option<(KeyCode, KeyModifiers)> {
    let word = text.split(' ').next()?;
    let word = word.split('/').find(|w| !w.is_empty()).unwrap_or(word);
    if let Some(rest) = word
        .strip_prefix("Ctrl-")
        .or_else(|| word.strip_prefix('^'))
    {
        let c = rest.chars().next()?.to_ascii_lowercase();
        return (rest.chars().count() == 1).then_some((KeyCode::Char(c), KeyModifiers::CONTROL));
    }
    let code = match word {
        "Space" => KeyCode::Char(' '),
        "Tab" => KeyCode::Tab,
        "Shift-Tab" => KeyCode::BackTab,
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "←" => KeyCode::Left,
        "→" => KeyCode::Right,
        "↑" => KeyCode::Up,
        "↓" => KeyCode::Down,
        w if w.chars().count() == 1 => KeyCode::Char(w.chars().next()?),
        _ => return None,
    };
    Some((code, KeyModifiers::NONE))
}

/// The command the key `h` names gives in `ctx`, when it is the one
/// `row` binds it to.
fn acts_in(row: &Row, h: &Hint, ctx: Ctx) -> Option<Cmd> {
    let (code, mods) = hint_key(h.text)?;
    let own = row
        .binds
        .iter()
        .find(|b| b.code == code && b.mods == mods)?;
    (lookup(ctx, &KeyEvent::new(code, mods)) == Some(own.cmd)).then_some(own.cmd)
}

/// The hints of `ctx`'s bar whose key acts in `ctx` and whose command
/// `can` says has something to act on now (a skill selected, one from git).
fn hints_in(ctx: Ctx, can: &dyn Fn(Cmd) -> bool) -> impl Iterator<Item = &'static Hint> {
    let bar = Bar::of(ctx);
    ROWS.iter().flat_map(move |r| {
        r.hints
            .iter()
            .filter(move |h| Some(h.bar) == bar && acts_in(r, h, ctx).is_some_and(can))
    })
}

/// Tiers of `ctx`'s bar, widest first.
pub fn tiers(ctx: Ctx, can: &dyn Fn(Cmd) -> bool) -> u8 {
    hints_in(ctx, can).map(|h| h.max).max().unwrap_or(0)
}

/// The hint bar of `ctx` at `tier`: only keys that act there, now.
pub fn hints(ctx: Ctx, tier: u8, can: &dyn Fn(Cmd) -> bool) -> String {
    let mut shown: Vec<&Hint> = hints_in(ctx, can)
        .filter(|h| (h.min..=h.max).contains(&tier))
        .collect();
    shown.sort_by_key(|h| h.rank);
    let texts: Vec<&str> = shown.iter().map(|h| h.text).collect();
    if texts.is_empty() {
        return String::new();
    }
    format!(" {}", texts.join("  "))
}

/// A key as the help and the hints spell it (`Enter`, `Ctrl-Z`, `G`).
fn key_name(code: KeyCode, mods: KeyModifiers) -> String {
    let name = match code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        other => other.to_string(),
    };
    match (
        mods.contains(KeyModifiers::CONTROL),
        mods.contains(KeyModifiers::ALT),
    ) {
        (true, _) => format!("Ctrl-{}", name.to_uppercase()),
        (_, true) => format!("Alt-{name}"),
        _ => name,
    }
}

/// Why `key` does nothing in the pane context `ctx`, when it acts in
/// another pane: what it does and where.
pub fn not_here(ctx: Ctx, key: &KeyEvent) -> Option<String> {
    if !PANES.contains(&ctx) || lookup(ctx, key).is_some() {
        return None;
    }
    let mods = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
    let row = ROWS.iter().find(|r| {
        !r.help.is_empty()
            && r.binds.iter().any(|b| {
                b.code == key.code && b.mods == mods && b.scope.iter().any(|c| PANES.contains(c))
            })
    })?;
    let acts: Vec<Ctx> = PANES
        .iter()
        .copied()
        .filter(|c| lookup(*c, key).is_some())
        .collect();
    let both = [Ctx::Checklist, Ctx::AgentChecklist];
    let mut places: Vec<&str> = Vec::new();
    for c in &acts {
        match c {
            _ if both.contains(c) && both.iter().all(|b| acts.contains(b)) => {
                if !places.contains(&"the checklists") {
                    places.push("the checklists");
                }
            }
            _ => places.push(c.name()),
        }
    }
    let places = match places.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => places.join(""),
    };
    let name = key_name(key.code, mods);
    // The longest that fits an 80-column status: what the key does and
    // where, else where, else a pointer to help.
    [
        format!("{name} ({}) works in {places}, not here", row.help),
        format!("{name} works in {places}, not here"),
        format!("{name} does nothing here: ? lists every key"),
    ]
    .into_iter()
    .find(|s| s.chars().count() <= STATUS_ROOM)
}

/// Characters of a status line at 80 columns (it is drawn padded).
const STATUS_ROOM: usize = 78;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command has something to act on.
    const ANY: fn(Cmd) -> bool = |_| true;

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

    #[test]
    fn every_hint_names_a_key_its_row_binds() {
        for row in ROWS {
            for h in row.hints {
                let (code, mods) = hint_key(h.text)
                    .unwrap_or_else(|| panic!("hint '{}' starts with no known key", h.text));
                assert!(
                    row.binds.iter().any(|b| b.code == code && b.mods == mods),
                    "hint '{}' names a key row '{}' does not bind",
                    h.text,
                    row.keys
                );
            }
        }
    }

    #[test]
    fn the_bars_run_from_widest_to_narrowest() {
        assert_eq!(
            hints(Ctx::Skills, 0, &ANY),
            " ? help  q quit  Tab panes  / filter"
        );
        assert_eq!(
            hints(Ctx::Checklist, 0, &ANY),
            " Space toggle  ← back  c copy to edit  ? help  z undo"
        );
        // A file profile, nothing toggled yet: neither c nor z.
        let file = |c: Cmd| !matches!(c, Cmd::CopyProfile | Cmd::UndoToggle);
        assert_eq!(
            hints(Ctx::Checklist, 0, &file),
            " Space toggle  ← back  ? help"
        );
        assert_eq!(
            hints(Ctx::AgentChecklist, 1, &ANY),
            " Space give or take the skill  ← back to the list  s scope  y copy text  ? help"
        );
        for ctx in PANES {
            for t in 1..=tiers(*ctx, &ANY) {
                assert!(hints(*ctx, t, &ANY).len() >= hints(*ctx, t - 1, &ANY).len());
            }
        }
    }

    #[test]
    fn a_bar_offers_only_keys_that_act_in_its_pane() {
        let widest = |ctx: Ctx| hints(ctx, tiers(ctx, &ANY), &ANY);
        assert!(widest(Ctx::Skills).contains("e edit"));
        assert!(widest(Ctx::Skills).contains("d remove"));
        for ctx in [Ctx::Profiles, Ctx::Catalog, Ctx::Checklist] {
            assert!(!widest(ctx).contains("e edit"), "{ctx:?}");
            assert!(!widest(ctx).contains("d remove"), "{ctx:?}");
        }
        assert!(!widest(Ctx::Skills).contains("Space"));
        // `/` searches the preview and filters elsewhere: each bar says which.
        assert!(widest(Ctx::Preview).contains("/ search"));
        assert!(!widest(Ctx::Preview).contains("/ filter"));
        assert!(!widest(Ctx::Skills).contains("/ search"));
        assert!(widest(Ctx::Preview).contains("o files"));
        assert_eq!(
            hints(Ctx::Search, 0, &ANY),
            " Enter keeps it (n/N go through it)  Esc clears it"
        );
        assert_eq!(
            hints(Ctx::Filter, 0, &ANY),
            " Enter keeps the filter  Esc clears it"
        );
        // Every hint shown anywhere names a key that acts there.
        for ctx in EVERYWHERE {
            for t in 0..=tiers(*ctx, &ANY) {
                for text in hints(*ctx, t, &ANY).split("  ").map(str::trim) {
                    let Some((code, mods)) = hint_key(text) else {
                        continue;
                    };
                    let pressed = lookup(*ctx, &KeyEvent::new(code, mods));
                    assert!(pressed.is_some(), "'{text}' in {ctx:?}");
                }
            }
        }
    }

    #[test]
    fn a_hint_may_name_ctrl_and_arrow_keys() {
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(hint_key("Ctrl-Z undo"), Some((KeyCode::Char('z'), ctrl)));
        assert_eq!(hint_key("^Y redo"), Some((KeyCode::Char('y'), ctrl)));
        assert_eq!(
            hint_key("→ open"),
            Some((KeyCode::Right, KeyModifiers::NONE))
        );
        assert_eq!(
            hint_key("/ filter"),
            Some((KeyCode::Char('/'), KeyModifiers::NONE))
        );
        assert_eq!(
            hint_key("Tab/1-4 panes"),
            Some((KeyCode::Tab, KeyModifiers::NONE))
        );
        assert_eq!(hint_key("Alt-x what"), None);
    }

    #[test]
    fn a_key_of_another_pane_says_where_it_works() {
        let e = KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE);
        let why = not_here(Ctx::Profiles, &e).unwrap();
        assert_eq!(
            why,
            "e (edit the selected SKILL.md) works in Skills and Preview, not here"
        );
        assert_eq!(not_here(Ctx::Skills, &e), None);
        let x = KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE);
        assert_eq!(not_here(Ctx::Profiles, &x), None);
        // A key that is no letter is named as such, not by its help row.
        let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        let why = not_here(Ctx::Catalog, &enter).unwrap();
        assert_eq!(
            why,
            "Enter works in Skills, Preview and the profile list, not here"
        );
        let space = KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE);
        let why = not_here(Ctx::Skills, &space).unwrap();
        assert_eq!(
            why,
            "Space works in Preview, the checklists and Catalog, not here"
        );
        for ctx in PANES {
            for row in ROWS {
                for b in row.binds {
                    let said = not_here(*ctx, &KeyEvent::new(b.code, b.mods));
                    let len = said.as_deref().map_or(0, |s| s.chars().count());
                    assert!(len <= STATUS_ROOM, "{said:?}");
                    assert!(said.is_none_or(|s| s.contains(" works in ")), "{ctx:?}");
                }
            }
        }
    }

    #[test]
    fn a_hint_whose_command_has_nothing_to_act_on_is_hidden() {
        let no_skill = |c: Cmd| !matches!(c, Cmd::Edit | Cmd::Remove | Cmd::Update);
        let widest = hints(Ctx::Skills, tiers(Ctx::Skills, &no_skill), &no_skill);
        for gone in ["e edit", "d remove", "u update"] {
            assert!(!widest.contains(gone), "{widest}");
        }
        assert!(
            widest.contains("a add") && widest.contains("S seed"),
            "{widest}"
        );
    }

    /// The key table of `doc` under the line `heading`, each row's cells.
    fn table_rows(doc: &str, heading: &str) -> Vec<Vec<String>> {
        let mut lines = doc.lines().skip_while(|l| *l != heading);
        assert_eq!(lines.next(), Some(heading), "no `{heading}`");
        lines
            .take_while(|l| !l.starts_with('#'))
            .filter(|l| l.starts_with("| ") && !l.starts_with("| key |"))
            .filter(|l| !l.starts_with("| pane |"))
            .map(|l| {
                (l.trim_matches('|').split(" | "))
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect()
    }

    fn keymap_rows() -> Vec<Vec<String>> {
        help_rows()
            .map(|(k, v)| vec![k.to_string(), v.to_string()])
            .collect()
    }

    /// docs/tui.md's table is the keymap row for row, grouped by pane as
    /// the help popup groups it.
    #[test]
    fn the_docs_key_table_is_the_keymap() {
        let doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tui.md"));
        let want: Vec<Vec<String>> = grouped_rows()
            .map(|(g, k, v)| vec![g.label().to_string(), k.to_string(), v.to_string()])
            .collect();
        assert_eq!(table_rows(doc, "## Keys"), want);
    }

    /// The README's short table is rows of the keymap, word for word.
    #[test]
    fn the_readme_keys_are_keymap_rows() {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));
        let short = table_rows(readme, "### Keys");
        let keymap = keymap_rows();
        assert!(short.len() >= 10, "{short:?}");
        for row in &short {
            assert!(
                keymap.contains(row),
                "README key row not in the keymap: {row:?}"
            );
        }
    }
}
