//! Renders the real TUI on ratatui's TestBackend into `screenshots/`: an
//! SVG per screen (and a PNG beside it when `rsvg-convert` is installed).
//!
//! ```sh
//! cargo run --example screenshots            # writes screenshots/*.svg (+ .png)
//! cargo run --example screenshots -- --text  # also prints each screen as text
//! ```
//!
//! The demo home is rebuilt from scratch at `$TMPDIR/skilltui-demo` on every
//! run and nothing depends on the clock, so the output is the same each
//! time. Each screenshot starts a fresh `App` and drives it with key events
//! only, as a user would.

use std::error::Error;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};
use skilltui::core::cao::store::{self, Home};
use skilltui::tui::app::App;
use skilltui::tui::dialogs::{Confirm, Dialog, Pending};
use skilltui::tui::theme::Theme;
use skilltui::tui::ui;
use unicode_width::UnicodeWidthStr;

type Res<T> = Result<T, Box<dyn Error>>;

// ---- the demo home ----------------------------------------------------------

/// Where everything of the demo lives.
struct Demo {
    /// The CAO home.
    root: PathBuf,
    /// The user's HOME (no `~/.kiro/agents` there).
    user: PathBuf,
    /// Skill folders to install from the install dialog.
    incoming: PathBuf,
    /// A home where two defaults are already present, for the seed menu.
    partial: PathBuf,
    /// A home with nothing yet: the seed menu opens by itself.
    empty: PathBuf,
    /// A user home where Amp is installed, and the project it runs in
    /// (kept apart so the other screens show no agents).
    amp_user: PathBuf,
    project: PathBuf,
}

impl Demo {
    fn home(&self) -> Home {
        Home::at(self.root.clone(), self.user.clone())
    }
}

const REVIEWER: &str = "\
---
name: reviewer
description: Reviews every change before it merges
provider: claude_code
# Exact names and fnmatch patterns, as CAO reads them.
skills:
  - security-review
  - \"code-*\"          # code-style, and any code-* skill added later
---
You review diffs. Report findings by severity, each with a fix.
";

const DEPLOY_NEW: &str = "---\nname: deploy\ndescription: Deploys this project to staging, then production\n---\nRun the pipeline.\n";
const DEPLOY_OLD: &str =
    "---\nname: deploy\ndescription: An older deploy from the user's dir\n---\nDeploy by hand.\n";

const SUPERVISOR: &str = "\
---
name: supervisor
description: Splits the work and hands it to workers
provider: copilot_cli
skills: [cao-supervisor-protocols, python-testing]
---
You coordinate the workers.
";

/// What `cao install supervisor` wrote before any skill was installed.
const SUPERVISOR_BAKED: &str = "\
---
description: Splits the work and hands it to workers
name: supervisor
---

You coordinate the workers.";

const WRITER: &str = "\
---
name: writer
description: Writes and edits the docs
---
You write documentation. No skills list: CAO offers every skill.
";

const BROKEN_YES: &str = "\
---
name: broken-yes
description: yes
---
# Broken on purpose

An unquoted `yes` is a YAML 1.1 boolean, so CAO skips this folder.
";

const OLD_CODE_STYLE: &str = "\
---
name: code-style
description: \"An older copy of code-style, kept in an extra dir\"
---
# Code style (old)

The store's copy wins: this one is shadowed.
";

const GIT_HOOKS: &str = "\
---
name: git-hooks
description: Pre-commit hooks that run the formatter and the fast tests before every commit.
---
# Git hooks
";

const RELEASE_NOTES: &str = "\
---
name: release-notes
description: Release notes grouped by what users notice, each line linking its change.
---
# Release notes
";

const GIT_COMMITS: &str = "\
---
name: git-commits
description: Small, reviewable commits with messages that say why the change was made.
license: MIT
metadata:
  version: 2
---
# Git commits

- One logical change per commit.
- Subject in the imperative, at most 50 characters.
";

const NEW_CODE_STYLE: &str = "\
---
name: code-style
description: \"Code style, second edition: names, functions, comments and errors.\"
---
# Code style, second edition

See `examples/naming.md`.
";

const TESTING_REFERENCE: &str = "\
# Fixtures reference

Prefer `tmp_path` over hand-made temp dirs, and `monkeypatch` over
editing `os.environ`. A fixture that needs cleanup yields.
";

const TESTING_SCRIPT: &str = "\
\"\"\"Runs the suite the way CI does.\"\"\"
import subprocess
import sys


def main() -> int:
    args = [sys.executable, \"-m\", \"pytest\", \"-q\", \"--strict-markers\"]
    return subprocess.call(args + sys.argv[1:])


if __name__ == \"__main__\":
    sys.exit(main())
";

fn skill_at(dir: &Path, folder: &str, text: &str) -> Res<()> {
    fs::create_dir_all(dir.join(folder))?;
    fs::write(dir.join(folder).join("SKILL.md"), text)?;
    Ok(())
}

/// Wipes and rebuilds the demo at a fixed path.
fn build_demo() -> Res<Demo> {
    // A fixed path, not $TMPDIR: the paths shown must not differ by machine.
    let base = PathBuf::from("/tmp/skilltui-demo");
    let marker = base.join(".skilltui-demo");
    if base.exists() {
        if !marker.is_file() {
            return Err(format!(
                "{} exists but was not made by this example: move it away first",
                base.display()
            )
            .into());
        }
        fs::remove_dir_all(&base)?;
    }
    fs::create_dir_all(&base)?;
    fs::write(&marker, "made by `cargo run --example screenshots`\n")?;
    let demo = Demo {
        root: base.join("home"),
        user: base.join("user"),
        incoming: base.join("incoming"),
        partial: base.join("partial"),
        empty: base.join("empty"),
        amp_user: base.join("amp-user"),
        project: base.join("project"),
    };
    fs::create_dir_all(&demo.user)?;
    fs::create_dir_all(&demo.empty)?;

    // The defaults, one invalid skill and one shadowed by an extra dir.
    let home = demo.home();
    store::seed(&home, None).map_err(|e| format!("seed: {e}"))?;
    let skills = home.skills_dir();
    skill_at(&skills, "broken-yes", BROKEN_YES)?;
    fs::write(skills.join("code-style").join("NOTES.md"), "Local notes.\n")?;
    // Files beside a SKILL.md: the preview lists them and opens one.
    let testing = skills.join("python-testing");
    fs::write(testing.join("REFERENCE.md"), TESTING_REFERENCE)?;
    fs::create_dir_all(testing.join("scripts"))?;
    fs::write(testing.join("scripts/run_tests.py"), TESTING_SCRIPT)?;
    let extra = base.join("extra");
    skill_at(&extra, "code-style", OLD_CODE_STYLE)?;
    fs::write(
        demo.root.join("settings.json"),
        format!(
            "{{\"skills\": {{\"extra_dirs\": [{}]}}}}\n",
            json_string(&extra.to_string_lossy())
        ),
    )?;

    // Profiles: exact names and a pattern, a flow list, and no list.
    let agents = home.agent_store();
    fs::create_dir_all(&agents)?;
    fs::write(agents.join("reviewer.md"), REVIEWER)?;
    fs::write(agents.join("supervisor.md"), SUPERVISOR)?;
    fs::write(agents.join("writer.md"), WRITER)?;
    // The supervisor installed for Copilot before the store had skills:
    // its baked catalog is stale (a context copy marks it CAO's).
    fs::create_dir_all(home.agent_context())?;
    fs::write(home.agent_context().join("supervisor.md"), SUPERVISOR)?;
    let copilot = demo.user.join(".copilot/agents");
    fs::create_dir_all(&copilot)?;
    fs::write(copilot.join("supervisor.agent.md"), SUPERVISOR_BAKED)?;

    // Folders to install: a new skill, and a new version of code-style.
    skill_at(&demo.incoming, "git-commits", GIT_COMMITS)?;
    skill_at(&demo.incoming, "code-style", NEW_CODE_STYLE)?;
    skill_at(&demo.incoming, "git-hooks", GIT_HOOKS)?;
    skill_at(&demo.incoming, "release-notes", RELEASE_NOTES)?;
    fs::create_dir_all(demo.incoming.join("code-style/examples"))?;
    fs::write(
        demo.incoming.join("code-style/examples/naming.md"),
        "# Naming\n",
    )?;

    // Amp (Amp's skills design): a project skill shadowing the user's older copy.
    fs::create_dir_all(demo.amp_user.join(".config/amp"))?;
    skill_at(&demo.project.join(".agents/skills"), "deploy", DEPLOY_NEW)?;
    skill_at(
        &demo.amp_user.join(".config/agents/skills"),
        "deploy",
        DEPLOY_OLD,
    )?;
    skill_at(
        &demo.amp_user.join(".claude/skills"),
        "git-commits",
        GIT_COMMITS,
    )?;

    // A home that has two of the defaults already.
    let partial = Home::at(demo.partial.clone(), demo.user.clone());
    let some: Vec<String> = vec!["code-style".into(), "python-testing".into()];
    store::seed(&partial, Some(&some)).map_err(|e| format!("seed: {e}"))?;
    Ok(demo)
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

// ---- driving the app ----------------------------------------------------------

fn new_app(root: &Path, user: &Path) -> App {
    let app = App::new(
        Home::at(root.to_path_buf(), user.to_path_buf()),
        Theme::dark(),
    );
    // Highlight code at once instead of on the background thread.
    app.hl.warm();
    app
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn ctrl(app: &mut App, c: char) {
    app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

/// Types `text` one key per character.
fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// The demo's app with the pick dialog open over the incoming folder.
fn picking(demo: &Demo) -> App {
    let mut app = new_app(&demo.root, &demo.user);
    key(&mut app, KeyCode::Char('a'));
    typed(&mut app, &demo.incoming.to_string_lossy());
    key(&mut app, KeyCode::Enter);
    app.settle();
    app
}

/// Presses `j` until `done` holds (at most `limit` times).
fn down_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) -> Res<()> {
    for _ in 0..50 {
        if done(app) {
            return Ok(());
        }
        key(app, KeyCode::Char('j'));
    }
    Err(format!("could not reach {what}").into())
}

fn select_skill(app: &mut App, name: &str) -> Res<()> {
    down_until(app, name, |a| {
        a.selected_entry()
            .is_some_and(|e| e.name() == name && e.source_dir == a.data.home.skills_dir())
    })
}

fn select_profile(app: &mut App, name: &str) -> Res<()> {
    down_until(app, name, |a| {
        a.selected_profile().is_some_and(|p| p.listed.name == name)
    })
}

fn select_check(app: &mut App, name: &str) -> Res<()> {
    down_until(app, name, |a| {
        a.data
            .valid_skill(a.profiles.check_sel)
            .is_some_and(|e| e.name() == name)
    })
}

struct Shot {
    name: &'static str,
    width: u16,
    height: u16,
    app: App,
}

/// Each screen must show what its name says, or the run fails.
fn want(ok: bool, what: &str) -> Res<()> {
    if ok {
        Ok(())
    } else {
        Err(format!("screenshot setup did not reach {what}").into())
    }
}

fn shots(demo: &Demo) -> Res<Vec<Shot>> {
    let (root, user) = (&demo.root, &demo.user);
    let mut out = Vec::new();
    let mut shot = |name, width, height, app| {
        out.push(Shot {
            name,
            width,
            height,
            app,
        })
    };

    // The four panes, Skills focused, a valid skill selected.
    let mut app = new_app(root, user);
    select_skill(&mut app, "cao-supervisor-protocols")?;
    shot("main", 120, 40, app);

    // An invalid skill: CAO's verdict and why.
    let mut app = new_app(root, user);
    select_skill(&mut app, "broken-yes")?;
    want(
        !app.selected_entry().is_some_and(|e| e.checked.is_valid()),
        "an invalid skill selected",
    )?;
    shot("invalid", 120, 40, app);

    // Preview focused, scrolled to the code blocks.
    let mut app = new_app(root, user);
    select_skill(&mut app, "python-testing")?;
    key(&mut app, KeyCode::Enter);
    for _ in 0..20 {
        key(&mut app, KeyCode::Char('j'));
    }
    shot("preview", 120, 40, app);

    // Search in the preview: matches marked, the second one current.
    let mut app = new_app(root, user);
    select_skill(&mut app, "python-testing")?;
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "/fixture");
    key(&mut app, KeyCode::Enter);
    // The matches are found in the update pass, as on screen.
    app.update(ratatui::layout::Rect::new(0, 0, 120, 40));
    key(&mut app, KeyCode::Char('n'));
    want(app.preview.search.hits.len() > 1, "several matches")?;
    shot("preview-search", 120, 40, app);

    // The skill's other files, then one of them opened.
    let mut app = new_app(root, user);
    select_skill(&mut app, "python-testing")?;
    app.update(ratatui::layout::Rect::new(0, 0, 120, 40));
    key(&mut app, KeyCode::Char('o'));
    want(!app.preview.file_rows().is_empty(), "the file list")?;
    shot("files", 120, 40, app);
    let mut app = new_app(root, user);
    select_skill(&mut app, "python-testing")?;
    app.update(ratatui::layout::Rect::new(0, 0, 120, 40));
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Enter);
    shot("file-code", 120, 40, app);

    // A profile's checklist: exact names, a pattern, and off.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('3'));
    select_profile(&mut app, "reviewer")?;
    key(&mut app, KeyCode::Enter);
    select_check(&mut app, "python-testing")?;
    shot("profiles", 120, 40, app);

    // An agent: what Amp finds in its design's discovery order, a shadowed copy and
    // its winner, then the text its model is shown against its budget.
    let mut app = new_app(root, &demo.amp_user);
    app.data.agent_cwd = Some(demo.project.clone());
    app.reload();
    key(&mut app, KeyCode::Char('3'));
    down_until(&mut app, "the amp agent", |a| {
        a.profiles
            .selected_agent(&a.data)
            .is_some_and(|r| r.agent.id == "amp")
    })?;
    want(
        app.catalog
            .agent
            .as_ref()
            .is_some_and(|r| r.finds.candidates.iter().any(|c| c.shadowed_by.is_some())),
        "a shadowed copy in Amp's view",
    )?;
    shot("agent-amp", 120, 40, app);

    // The catalog in the Agent Skills XML format.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('f'));
    key(&mut app, KeyCode::Char('f'));
    want(app.catalog.format.name() == "xml", "the xml format")?;
    shot("catalog-xml", 120, 40, app);

    // A profile with no provider: CAO's fallback, Kiro, gets no catalog.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('3'));
    select_profile(&mut app, "writer")?;
    key(&mut app, KeyCode::Char('4'));
    want(!app.catalog.has_catalog, "Kiro: no catalog")?;
    shot("catalog-kiro", 120, 40, app);

    // A Copilot profile: the unfiltered catalog baked into its agent file.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('3'));
    select_profile(&mut app, "supervisor")?;
    key(&mut app, KeyCode::Char('4'));
    want(
        app.catalog.notes.iter().any(|n| n.contains("STALE")),
        "a stale Copilot file",
    )?;
    shot("catalog-copilot", 120, 40, app);

    // The fuzzy filter, still typing.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('/'));
    typed(&mut app, "review");
    shot("filter", 120, 40, app);

    // Help.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('?'));
    want(
        matches!(app.dialog, Some(Dialog::Help(_))),
        "the help dialog",
    )?;
    shot("help", 120, 40, app);

    // Install: a path typed, the folder previewed.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('a'));
    typed(
        &mut app,
        &demo.incoming.join("git-commits").to_string_lossy(),
    );
    want(
        matches!(&app.dialog, Some(Dialog::Install(i)) if i.preview.is_some()),
        "the install dialog previewing a folder",
    )?;
    shot("install", 120, 40, app);

    // Install from a folder of skills (as from git): the pick dialog.
    let mut app = picking(demo);
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char(' '));
    want(
        matches!(&app.dialog, Some(Dialog::Pick(_))),
        "the pick dialog over a folder of skills",
    )?;
    shot("pick", 120, 40, app);

    // The pick dialog filtered to `git`, then `a`: every shown row picked.
    let mut app = picking(demo);
    key(&mut app, KeyCode::Char('/'));
    typed(&mut app, "git");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('a'));
    want(
        matches!(&app.dialog, Some(Dialog::Pick(p)) if p.picks().len() == 2),
        "the pick dialog filtered, two picked",
    )?;
    shot("pick-filter", 120, 40, app);

    // Install over an existing skill: the force prompt.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('a'));
    typed(
        &mut app,
        &demo.incoming.join("code-style").to_string_lossy(),
    );
    key(&mut app, KeyCode::Enter);
    // The changes are worked out on a worker behind a gauge.
    app.settle();
    want(
        matches!(
            &app.dialog,
            Some(Dialog::Confirm(Confirm {
                pending: Pending::Replace { .. }
            }))
        ),
        "the force prompt",
    )?;
    shot("force", 120, 40, app);

    // Remove: the confirmation names the folder.
    let mut app = new_app(root, user);
    select_skill(&mut app, "python-testing")?;
    key(&mut app, KeyCode::Char('d'));
    want(
        matches!(
            &app.dialog,
            Some(Dialog::Confirm(Confirm {
                pending: Pending::Remove { .. }
            }))
        ),
        "the remove prompt",
    )?;
    shot("remove", 120, 40, app);

    // Seed: new and already-present defaults, one unpicked.
    let mut app = new_app(&demo.partial, user);
    key(&mut app, KeyCode::Char('S'));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char(' '));
    want(matches!(app.dialog, Some(Dialog::Seed(_))), "the seed menu")?;
    shot("seed", 120, 40, app);

    // First run on an empty home: the seed menu opens by itself.
    let app = new_app(&demo.empty, user);
    want(
        matches!(app.dialog, Some(Dialog::Seed(_))),
        "the first-run seed menu",
    )?;
    shot("seed-first-run", 120, 40, app);

    // The in-app editor, cursor moved into the text.
    let mut app = new_app(root, user);
    select_skill(&mut app, "code-style")?;
    key(&mut app, KeyCode::Char('e'));
    for _ in 0..6 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::End);
    want(matches!(app.dialog, Some(Dialog::Edit(_))), "the editor")?;
    shot("editor", 120, 40, app);

    // The editor refusing an invalid save.
    let mut app = new_app(root, user);
    select_skill(&mut app, "code-style")?;
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::End);
    for _ in 0..("code-style".len()) {
        key(&mut app, KeyCode::Backspace);
    }
    typed(&mut app, "Code Style");
    ctrl(&mut app, 's');
    want(
        matches!(&app.dialog, Some(Dialog::Edit(e)) if e.message.as_ref().is_some_and(|m| m.is_error())),
        "the editor refusing to save",
    )?;
    shot("editor-invalid", 120, 40, app);

    // Space on a profile with no skills list.
    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('3'));
    select_profile(&mut app, "writer")?;
    key(&mut app, KeyCode::Enter);
    select_check(&mut app, "python-testing")?;
    key(&mut app, KeyCode::Char(' '));
    want(
        matches!(
            &app.dialog,
            Some(Dialog::Confirm(Confirm {
                pending: Pending::WriteList { .. }
            }))
        ),
        "the list prompt",
    )?;
    shot("materialize", 120, 40, app);

    // 80x24: the focused pair of panes.
    let mut app = new_app(root, user);
    select_skill(&mut app, "security-review")?;
    shot("collapsed-80x24", 80, 24, app);

    let mut app = new_app(root, user);
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Enter);
    shot("collapsed-80x24-profiles", 80, 24, app);

    // Below 60 columns: one pane.
    let mut app = new_app(root, user);
    select_skill(&mut app, "security-review")?;
    key(&mut app, KeyCode::Enter);
    shot("narrow-50x20", 50, 20, app);

    Ok(out)
}

// ---- buffer to SVG ------------------------------------------------------------

const CELL_W: f64 = 8.4;
const CELL_H: f64 = 17.0;
const FONT_SIZE: f64 = 14.0;
/// Baseline from the top of a cell.
const BASELINE: f64 = 13.0;
const PAD: f64 = 8.0;
const FONT: &str = "'DejaVu Sans Mono', 'Cascadia Mono', Menlo, Consolas, monospace";
/// Stroke widths of light and heavy box-drawing lines.
const LIGHT: f64 = 1.1;
const HEAVY: f64 = 2.2;
/// Half the gap between the two strokes of a double line.
const DOUBLE: f64 = 1.6;

/// xterm's 16 colours.
const ANSI: [Rgb; 16] = [
    (0x00, 0x00, 0x00),
    (0xcd, 0x00, 0x00),
    (0x00, 0xcd, 0x00),
    (0xcd, 0xcd, 0x00),
    (0x00, 0x00, 0xee),
    (0xcd, 0x00, 0xcd),
    (0x00, 0xcd, 0xcd),
    (0xe5, 0xe5, 0xe5),
    (0x7f, 0x7f, 0x7f),
    (0xff, 0x00, 0x00),
    (0x00, 0xff, 0x00),
    (0xff, 0xff, 0x00),
    (0x5c, 0x5c, 0xff),
    (0xff, 0x00, 0xff),
    (0x00, 0xff, 0xff),
    (0xff, 0xff, 0xff),
];

type Rgb = (u8, u8, u8);

/// xterm's 256-colour palette.
fn indexed(i: u8) -> Rgb {
    match i {
        0..=15 => ANSI[i as usize],
        16..=231 => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let i = i - 16;
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        _ => {
            let g = 8 + 10 * (i - 232);
            (g, g, g)
        }
    }
}

/// A colour as drawn; `Reset` is the theme's base colour.
fn rgb(c: Color, reset: Rgb) -> Rgb {
    match c {
        Color::Reset => reset,
        Color::Black => ANSI[0],
        Color::Red => ANSI[1],
        Color::Green => ANSI[2],
        Color::Yellow => ANSI[3],
        Color::Blue => ANSI[4],
        Color::Magenta => ANSI[5],
        Color::Cyan => ANSI[6],
        Color::Gray => ANSI[7],
        Color::DarkGray => ANSI[8],
        Color::LightRed => ANSI[9],
        Color::LightGreen => ANSI[10],
        Color::LightYellow => ANSI[11],
        Color::LightBlue => ANSI[12],
        Color::LightMagenta => ANSI[13],
        Color::LightCyan => ANSI[14],
        Color::White => ANSI[15],
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => indexed(i),
    }
}

fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A coordinate with at most two decimals, trailing zeros dropped.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A cell resolved to what is drawn.
#[derive(Clone, PartialEq)]
struct Look {
    fg: Rgb,
    bg: Rgb,
    bold: bool,
    italic: bool,
    dim: bool,
    underline: bool,
    crossed: bool,
    hidden: bool,
}

impl Look {
    fn same_text_style(&self, other: &Look) -> bool {
        self.fg == other.fg
            && self.bold == other.bold
            && self.italic == other.italic
            && self.dim == other.dim
    }
}

fn look(cell: &ratatui::buffer::Cell, base: (Rgb, Rgb)) -> Look {
    let m = cell.modifier;
    let (mut fg, mut bg) = (rgb(cell.fg, base.0), rgb(cell.bg, base.1));
    if m.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
    }
    Look {
        fg,
        bg,
        bold: m.contains(Modifier::BOLD),
        italic: m.contains(Modifier::ITALIC),
        dim: m.contains(Modifier::DIM),
        underline: m.contains(Modifier::UNDERLINED),
        crossed: m.contains(Modifier::CROSSED_OUT),
        hidden: m.contains(Modifier::HIDDEN),
    }
}

/// Line weights of a box-drawing character's four arms (up, down, left,
/// right): 0 none, 1 light, 2 heavy, 3 double; and whether it is rounded.
fn box_arms(c: char) -> Option<([u8; 4], bool)> {
    let arms = match c {
        '─' => [0, 0, 1, 1],
        '│' => [1, 1, 0, 0],
        '┌' | '╭' => [0, 1, 0, 1],
        '┐' | '╮' => [0, 1, 1, 0],
        '└' | '╰' => [1, 0, 0, 1],
        '┘' | '╯' => [1, 0, 1, 0],
        '├' => [1, 1, 0, 1],
        '┤' => [1, 1, 1, 0],
        '┬' => [0, 1, 1, 1],
        '┴' => [1, 0, 1, 1],
        '┼' => [1, 1, 1, 1],
        '━' => [0, 0, 2, 2],
        '┃' => [2, 2, 0, 0],
        '┏' => [0, 2, 0, 2],
        '┓' => [0, 2, 2, 0],
        '┗' => [2, 0, 0, 2],
        '┛' => [2, 0, 2, 0],
        '┣' => [2, 2, 0, 2],
        '┫' => [2, 2, 2, 0],
        '┳' => [0, 2, 2, 2],
        '┻' => [2, 0, 2, 2],
        '╋' => [2, 2, 2, 2],
        '═' => [0, 0, 3, 3],
        '║' => [3, 3, 0, 0],
        '╔' => [0, 3, 0, 3],
        '╗' => [0, 3, 3, 0],
        '╚' => [3, 0, 0, 3],
        '╝' => [3, 0, 3, 0],
        _ => return None,
    };
    Some((arms, matches!(c, '╭' | '╮' | '╰' | '╯')))
}

/// Hundredths of a pixel, so segments can be compared and merged exactly.
type Fixed = i64;

fn fixed(v: f64) -> Fixed {
    (v * 100.0).round() as Fixed
}

fn unfixed(v: Fixed) -> String {
    num(v as f64 / 100.0)
}

/// The lines of one colour and width: horizontal (y, x0, x1), vertical
/// (x, y0, y1), and other path data.
type Lines = (Vec<[Fixed; 3]>, Vec<[Fixed; 3]>, String);

/// Frame lines, collected per (colour, width) so that runs of cells merge
/// into single segments: no seams between cells, and a small file.
#[derive(Default)]
struct Strokes {
    lines: std::collections::BTreeMap<(String, Fixed), Lines>,
}

impl Strokes {
    fn entry(&mut self, color: &str, width: f64) -> &mut Lines {
        self.lines
            .entry((color.to_string(), fixed(width)))
            .or_default()
    }

    fn h(&mut self, color: &str, width: f64, y: f64, x0: f64, x1: f64) {
        let (a, b) = (fixed(x0.min(x1)), fixed(x0.max(x1)));
        self.entry(color, width).0.push([fixed(y), a, b]);
    }

    fn v(&mut self, color: &str, width: f64, x: f64, y0: f64, y1: f64) {
        let (a, b) = (fixed(y0.min(y1)), fixed(y0.max(y1)));
        self.entry(color, width).1.push([fixed(x), a, b]);
    }

    fn raw(&mut self, color: &str, width: f64, d: &str) {
        self.entry(color, width).2.push_str(d);
    }

    /// Draws a box-drawing character in the cell at (x, y); false when `c`
    /// is not one it knows (the font draws it then).
    fn cell(&mut self, c: char, x: f64, y: f64, color: &str) -> bool {
        let Some(([up, down, left, right], rounded)) = box_arms(c) else {
            return false;
        };
        let (cx, cy) = (x + CELL_W / 2.0, y + CELL_H / 2.0);
        let (x0, x1, y0, y1) = (x, x + CELL_W, y, y + CELL_H);
        if [up, down, left, right].contains(&3) {
            let o = DOUBLE;
            if left == 3 && right == 3 {
                self.h(color, LIGHT, cy - o, x0, x1);
                self.h(color, LIGHT, cy + o, x0, x1);
            } else if up == 3 && down == 3 {
                self.v(color, LIGHT, cx - o, y0, y1);
                self.v(color, LIGHT, cx + o, y0, y1);
            } else {
                // A corner: two nested elbows. h is +1 when the horizontal
                // arm goes right, v +1 when the vertical one goes down.
                let h = if right == 3 { 1.0 } else { -1.0 };
                let v = if down == 3 { 1.0 } else { -1.0 };
                let edge_x = if h > 0.0 { x1 } else { x0 };
                let edge_y = if v > 0.0 { y1 } else { y0 };
                for s in [-1.0, 1.0] {
                    let (px, py) = (cx + s * h * o, cy + s * v * o);
                    self.h(color, LIGHT, py, px, edge_x);
                    self.v(color, LIGHT, px, py, edge_y);
                }
            }
            return true;
        }
        let width = |w: u8| if w == 2 { HEAVY } else { LIGHT };
        if rounded {
            let r = CELL_W / 2.0;
            let (ex, sx) = if right > 0 { (x1, 1.0) } else { (x0, -1.0) };
            let (ey, sy) = if down > 0 { (y1, 1.0) } else { (y0, -1.0) };
            self.h(color, LIGHT, cy, cx + sx * r, ex);
            self.v(color, LIGHT, cx, cy + sy * r, ey);
            let d = format!(
                "M{} {}Q{} {} {} {}",
                num(cx + sx * r),
                num(cy),
                num(cx),
                num(cy),
                num(cx),
                num(cy + sy * r)
            );
            self.raw(color, LIGHT, &d);
            return true;
        }
        // Straight arms from the centre; square caps fill the joint.
        if up > 0 {
            self.v(color, width(up), cx, cy, y0);
        }
        if down > 0 {
            self.v(color, width(down), cx, cy, y1);
        }
        if left > 0 {
            self.h(color, width(left), cy, cx, x0);
        }
        if right > 0 {
            self.h(color, width(right), cy, cx, x1);
        }
        true
    }

    /// One path per (colour, width), touching segments merged.
    fn write(self, out: &mut String) {
        fn merged(mut segs: Vec<[Fixed; 3]>) -> Vec<[Fixed; 3]> {
            segs.sort();
            let mut out: Vec<[Fixed; 3]> = Vec::new();
            for s in segs {
                match out.last_mut() {
                    Some(last) if last[0] == s[0] && s[1] <= last[2] + 1 => {
                        last[2] = last[2].max(s[2])
                    }
                    _ => out.push(s),
                }
            }
            out
        }
        for ((color, width), (hs, vs, raw)) in self.lines {
            let mut d = String::new();
            for [y, a, b] in merged(hs) {
                let _ = write!(d, "M{} {}H{}", unfixed(a), unfixed(y), unfixed(b));
            }
            for [x, a, b] in merged(vs) {
                let _ = write!(d, "M{} {}V{}", unfixed(x), unfixed(a), unfixed(b));
            }
            d.push_str(&raw);
            let _ = writeln!(
                out,
                r#"<path d="{d}" stroke="{color}" stroke-width="{}" stroke-linecap="square" fill="none"/>"#,
                unfixed(width)
            );
        }
    }
}

/// Block elements the font may not draw to the cell's edges: (x, y, w, h)
/// as fractions of the cell.
fn block_rect(c: char) -> Option<(f64, f64, f64, f64)> {
    Some(match c {
        '█' => (0.0, 0.0, 1.0, 1.0),
        '▏' => (0.0, 0.0, 0.125, 1.0),
        '▌' => (0.0, 0.0, 0.5, 1.0),
        '▐' => (0.5, 0.0, 0.5, 1.0),
        '▀' => (0.0, 0.0, 1.0, 0.5),
        '▄' => (0.0, 0.5, 1.0, 0.5),
        _ => return None,
    })
}

/// A run of text being built: its look, the x of its first cell, the text.
type Run = Option<(Look, f64, String)>;

/// The buffer as an SVG: background runs, then text (one element per
/// word, each at its own cell, so no font's advance widths can push text
/// off the grid), frames and blocks as shapes, underlines as rules.
fn svg(buf: &Buffer, theme: &Theme) -> String {
    let base = (
        theme.base.fg.map_or(ANSI[7], |c| rgb(c, ANSI[7])),
        theme.base.bg.map_or(ANSI[0], |c| rgb(c, ANSI[0])),
    );
    let area = buf.area;
    let (w, h) = (area.width as usize, area.height as usize);
    let width = PAD * 2.0 + CELL_W * w as f64;
    let height = PAD * 2.0 + CELL_H * h as f64;
    let cell = |col: usize, row: usize| &buf[(area.x + col as u16, area.y + row as u16)];
    let cell_x = |col: usize| PAD + CELL_W * col as f64;
    let cell_y = |row: usize| PAD + CELL_H * row as f64;
    let looks: Vec<Vec<Look>> = (0..h)
        .map(|row| (0..w).map(|col| look(cell(col, row), base)).collect())
        .collect();

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="{}" font-size="{}px">"#,
        num(width),
        num(height),
        num(width),
        num(height),
        FONT.replace('\'', "&apos;"),
        num(FONT_SIZE)
    );
    let _ = writeln!(
        out,
        r#"<rect width="{}" height="{}" rx="6" fill="{}"/>"#,
        num(width),
        num(height),
        hex(base.1)
    );

    // Backgrounds: runs of one colour per row.
    for (row, line) in looks.iter().enumerate() {
        let mut col = 0;
        while col < w {
            let (start, bg) = (col, line[col].bg);
            while col < w && line[col].bg == bg {
                col += 1;
            }
            if bg != base.1 {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                    num(cell_x(start)),
                    num(cell_y(row)),
                    num(CELL_W * (col - start) as f64),
                    num(CELL_H),
                    hex(bg)
                );
            }
        }
    }

    // Text, blocks and rules; frames are collected and drawn last.
    let mut strokes = Strokes::default();
    for (row, line) in looks.iter().enumerate() {
        let y = cell_y(row);
        let mut run: Run = None;
        let mut col = 0;
        while col < w {
            let symbol = cell(col, row).symbol();
            let lk = &line[col];
            let span = symbol.width().max(1);
            let x = cell_x(col);
            let fill = hex(lk.fg);
            let mut chars = symbol.chars();
            let single = match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            };
            if lk.underline || lk.crossed {
                let rule_y = if lk.underline { y + 15.0 } else { y + 9.0 };
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="1" fill="{fill}"/>"#,
                    num(x),
                    num(rule_y),
                    num(CELL_W * span as f64)
                );
            }
            let block = single.and_then(block_rect);
            let drawn_apart = lk.hidden
                || symbol.trim().is_empty()
                || block.is_some()
                || single.is_some_and(|c| strokes.cell(c, x, y, &fill));
            if let Some((dx, dy, dw, dh)) = block.filter(|_| !lk.hidden) {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/>"#,
                    num(x + dx * CELL_W),
                    num(y + dy * CELL_H),
                    num(dw * CELL_W),
                    num(dh * CELL_H)
                );
            }
            if drawn_apart {
                flush(&mut out, run.take(), y);
            } else {
                // ASCII words are one element each; anything else (wide,
                // symbols, clusters) gets an element of its own.
                let ascii = symbol.is_ascii() && single.is_some();
                let joins = ascii
                    && run
                        .as_ref()
                        .is_some_and(|(l, _, text)| text.is_ascii() && l.same_text_style(lk));
                if !joins {
                    flush(&mut out, run.take(), y);
                }
                let (_, _, text) = run.get_or_insert_with(|| (lk.clone(), x, String::new()));
                text.push_str(symbol);
                if !ascii {
                    flush(&mut out, run.take(), y);
                }
            }
            col += span;
        }
        flush(&mut out, run.take(), y);
    }
    strokes.write(&mut out);
    out.push_str("</svg>\n");
    out
}

fn flush(out: &mut String, run: Run, y: f64) {
    let Some((lk, x, text)) = run else {
        return;
    };
    let mut attrs = format!(r#" fill="{}""#, hex(lk.fg));
    if lk.bold {
        attrs.push_str(r#" font-weight="bold""#);
    }
    if lk.italic {
        attrs.push_str(r#" font-style="italic""#);
    }
    if lk.dim {
        attrs.push_str(r#" fill-opacity="0.6""#);
    }
    // Pin a run to its cells: a fallback font narrower or wider than the
    // cell would otherwise drift into the borders.
    let cells = text.width();
    if cells > 1 {
        let _ = write!(
            attrs,
            r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
            num(CELL_W * cells as f64)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}"{attrs}>{}</text>"#,
        num(x),
        num(y + BASELINE),
        escape(&text)
    );
}

/// The buffer as plain text, for `--text`.
fn plain(buf: &Buffer) -> String {
    let mut s = String::new();
    for row in 0..buf.area.height {
        let mut col = 0;
        while col < buf.area.width {
            let sym = buf[(col, row)].symbol();
            s.push_str(sym);
            col += sym.width().max(1) as u16;
        }
        s.push('\n');
    }
    s
}

fn have_rsvg() -> bool {
    Command::new("rsvg-convert")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The screens show CAO's own skills and profiles, so a CAO is needed: the
/// one `SKILLTUI_CAO` names, else the parity test's venv. Its package is
/// copied to a fixed place (a link would be resolved), so that no machine's
/// path shows in the help.
fn pin_cao() -> Res<()> {
    if std::env::var_os(skilltui::core::cao::installed::ENV).is_some() {
        return Ok(());
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/parity-venv");
    let site = fs::read_dir(venv.join("lib"))
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| e.ok())
        .map(|e| e.path().join("site-packages"));
    let Some(site) = site.filter(|s| s.join("cli_agent_orchestrator").is_dir()) else {
        return Err("no CAO: run `cargo test --test cao_parity` once (it builds target/parity-venv), or set SKILLTUI_CAO".into());
    };
    let root = Path::new("/tmp/skilltui-demo-cao");
    // An older run left a link here: remove the link, never what it leads to.
    if fs::symlink_metadata(root).is_ok_and(|m| m.file_type().is_symlink()) {
        fs::remove_file(root)?;
    }
    let fixed = root.join("site-packages");
    let _ = fs::remove_dir_all(&fixed);
    fs::create_dir_all(&fixed)?;
    for entry in fs::read_dir(&site)? {
        let name = entry?.file_name();
        if name.to_string_lossy().starts_with("cli_agent_orchestrator") {
            copy_tree(&site.join(&name), &fixed.join(&name))?;
        }
    }
    let package = fixed.join("cli_agent_orchestrator");
    // SAFETY: set before any thread starts.
    unsafe { std::env::set_var(skilltui::core::cao::installed::ENV, package) };
    Ok(())
}

/// A plain recursive copy of the demo CAO's files (no links in it).
fn copy_tree(from: &Path, to: &Path) -> Res<()> {
    if from.is_dir() {
        fs::create_dir_all(to)?;
        for entry in fs::read_dir(from)? {
            let name = entry?.file_name();
            copy_tree(&from.join(&name), &to.join(&name))?;
        }
    } else if from.is_file() {
        fs::copy(from, to)?;
    }
    Ok(())
}

fn main() -> Res<()> {
    let print_text = std::env::args().any(|a| a == "--text");
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    fs::create_dir_all(&out_dir)?;
    pin_cao()?;
    let demo = build_demo()?;
    let png = have_rsvg();
    if !png {
        eprintln!(
            "rsvg-convert not found: writing SVGs only (apt-get install librsvg2-bin for PNGs)"
        );
    }
    for mut shot in shots(&demo)? {
        let mut terminal = Terminal::new(TestBackend::new(shot.width, shot.height))?;
        terminal.draw(|f| ui::draw(f, &mut shot.app))?;
        let buf = terminal.backend().buffer();
        let svg_path = out_dir.join(format!("{}.svg", shot.name));
        fs::write(&svg_path, svg(buf, &shot.app.theme))?;
        if print_text {
            println!(
                "== {} ({}x{})\n{}",
                shot.name,
                shot.width,
                shot.height,
                plain(buf)
            );
        }
        let mut written = vec![svg_path.clone()];
        if png {
            let png_path = svg_path.with_extension("png");
            let status = Command::new("rsvg-convert")
                .arg("-o")
                .arg(&png_path)
                .arg(&svg_path)
                .status()?;
            if status.success() {
                written.push(png_path);
            } else {
                eprintln!("rsvg-convert failed on {}", svg_path.display());
            }
        }
        for p in written {
            println!("wrote {}", p.display());
        }
    }
    Ok(())
}
