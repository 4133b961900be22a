//! The TUI's start as the real UI starts it (`App::checks_later`): the
//! first frame drawn from the folder names and the verdicts kept from the
//! run before, every row marked as being checked, then confirmed by a
//! worker. Keys and reports fed into the App, frames on ratatui's
//! TestBackend as insta snapshots.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::core::cao::skill::Checked;
use skilltui::core::cao::store::{Home, Status};
use skilltui::core::cao::verdicts::{Stamp, Verdicts};
use skilltui::tui::app::App;
use skilltui::tui::clipboard::{ClipEnv, Clipboard, SystemClipboard};
use skilltui::tui::theme::Theme;
use skilltui::tui::ui;

#[allow(dead_code)]
mod common;
use common::write_skill;

fn key(app: &mut App, c: char) {
    app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
}

/// The frame at `w`x`h`, the temp dir's random part hidden.
fn frame(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    let tmp = regex::Regex::new(r"(/tmp/)?\.tmp[A-Za-z0-9]{6}|…[A-Za-z0-9.]+/").unwrap();
    tmp.replace_all(&format!("{}", t.backend()), "[TMP]")
        .into_owned()
}

/// A home under /tmp (paths drawn are the same length on every machine).
fn home_dir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    let root = tmp.path().join("home");
    fs::create_dir_all(root.join("agent-store")).unwrap();
    (tmp, root)
}

/// A stamp no SKILL.md of the test has: a verdict kept under it is one
/// whose file changed since the run that kept it.
fn foreign_stamp() -> Stamp {
    Stamp::of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml has not changed in the last 2 s")
}

/// What the run before kept: `folder`'s verdict, valid, described as
/// `description`.
fn kept_valid(home: &Home, folder: &str, description: &str) {
    let path = home.skills_dir().join(folder);
    let checked = Checked {
        name: Some(folder.into()),
        description: Some(description.into()),
        ..Checked::default()
    };
    let mut v = Verdicts::default();
    v.insert(path, (foreign_stamp(), checked));
    home.verdicts.keep(Arc::new(v));
}

fn said(app: &App) -> String {
    app.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

// The first frame shows what the run before kept (beta valid) with the
// checking mark; the worker finds beta's SKILL.md changed, reads it,
// finds no description, and the row is drawn again as invalid.
#[test]
fn a_row_whose_verdict_changes_on_confirmation_is_redrawn() {
    let (tmp, root) = home_dir();
    write_skill(&root.join("skills"), "alpha", "First skill");
    let beta = root.join("skills/beta");
    fs::create_dir_all(&beta).unwrap();
    fs::write(
        beta.join("SKILL.md"),
        "---\nname: beta\n---\nNo description.\n",
    )
    .unwrap();
    let home = Home::at(root.clone(), tmp.path().to_path_buf());
    kept_valid(&home, "beta", "Kept from the run before");
    let mut app = App::checks_later(home, Theme::dark());

    let first = frame(&mut app, 100, 12);
    insta::assert_snapshot!("start_checking", first);
    let beta_row = |app: &App| {
        let e = app.data.listing.entries.iter().find(|e| e.folder == "beta");
        e.map(|e| (e.status, e.confirmed)).unwrap()
    };
    assert_eq!(beta_row(&app), (Status::Ok, false), "the kept verdict");
    assert!(first.contains("… beta"), "{first}");
    assert!(first.contains("Kept from the run before"), "{first}");

    app.start_checks();
    app.settle();
    assert!(app.checking.is_none(), "every verdict confirmed");
    assert_eq!(beta_row(&app), (Status::Invalid, true));
    let after = frame(&mut app, 100, 12);
    insta::assert_snapshot!("start_confirmed", after);
    assert!(after.contains("✗ beta"), "{after}");
    assert!(!after.contains("Kept from the run before"), "{after}");
    assert!(!after.contains("checking"), "{after}");
}

/// What the stand-in clipboard was given.
static CLIPPED: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

struct Recorder;

impl SystemClipboard for Recorder {
    fn set_text(&mut self, text: &str) -> Result<(), String> {
        *CLIPPED.lock().unwrap() = text.to_string();
        Ok(())
    }
}

// A profile whose block would be made of the store's skills: while any
// verdict is unconfirmed (none, then only the rows on screen), pane 4
// says it is updating, holds no block, and `y` copies nothing; once all
// are confirmed, the block is there and `y` copies it. Among the
// guesses, `skill-05` looks valid (the run before kept it so) but is not:
// a block made from the guesses would list it.
#[test]
fn the_catalog_never_draws_a_block_from_unconfirmed_verdicts() {
    let (tmp, root) = home_dir();
    for i in 0..30 {
        write_skill(
            &root.join("skills"),
            &format!("skill-{i:02}"),
            "Does one thing",
        );
    }
    fs::write(
        root.join("skills/skill-05/SKILL.md"),
        "---\nname: skill-05\n---\nNo description.\n",
    )
    .unwrap();
    fs::write(
        root.join("agent-store/worker.md"),
        "---\nname: worker\ndescription: Works\nprovider: claude_code\nskills: ['skill-*']\n---\nWork.\n",
    )
    .unwrap();
    let home = Home::at(root.clone(), tmp.path().to_path_buf());
    kept_valid(&home, "skill-05", "Kept from the run before");
    let mut app = App::checks_later(home, Theme::dark());
    app.clipboard = Clipboard::with_opener(
        ClipEnv {
            display: true,
            ssh: false,
            tmux: false,
        },
        || Ok(Box::new(Recorder) as Box<dyn SystemClipboard>),
    );
    key(&mut app, '3');
    let worker = (app.data.profiles.iter())
        .position(|p| p.listed.name == "worker")
        .unwrap();
    app.profiles.sel = worker;
    app.refresh_profile();
    key(&mut app, '4');

    let unconfirmed = |app: &mut App| {
        assert!(app.catalog.updating);
        assert_eq!(app.catalog.text, Ok(String::new()), "no block computed");
        // Below 60 columns only the focused pane (4) is drawn.
        let shown = frame(app, 58, 20);
        assert!(shown.contains("Catalog (updating)"), "{shown}");
        assert!(!shown.contains("skill-0"), "a block drawn:\n{shown}");
        key(app, 'y');
        assert!(said(app).contains("still updating"), "{}", said(app));
        assert!(CLIPPED.lock().unwrap().is_empty(), "y copied a block");
    };
    unconfirmed(&mut app);
    insta::assert_snapshot!("catalog_before_checks", frame(&mut app, 58, 12));

    // The rows on screen come first, in a batch of their own: drawn with
    // the Skills pane, whose rows are then known.
    frame(&mut app, 120, 20);
    app.start_checks();
    assert!(app.poll_one(Duration::from_secs(60)), "the first batch");
    let confirmed = app.data.listing.entries.iter().filter(|e| e.confirmed);
    let n = confirmed.count();
    assert!(n > 0 && n < 30, "{n} confirmed of 30");
    unconfirmed(&mut app);

    app.settle();
    assert!(app.data.listing.confirmed());
    assert!(!app.catalog.updating);
    let block = app.catalog.text.clone().unwrap();
    assert!(block.contains("skill-29"), "{block}");
    assert!(
        !block.contains("skill-05"),
        "CAO refuses skill-05:\n{block}"
    );
    key(&mut app, 'y');
    assert_eq!(*CLIPPED.lock().unwrap(), block);
    insta::assert_snapshot!("catalog_after_checks", frame(&mut app, 58, 12));
}

// Space in a profile's checklist would write a skill whose verdict may
// change: it waits for the checks, and says so.
#[test]
fn a_toggle_waits_for_the_checks() {
    let (tmp, root) = home_dir();
    write_skill(&root.join("skills"), "alpha", "First skill");
    fs::write(
        root.join("agent-store/worker.md"),
        "---\nname: worker\ndescription: Works\nskills: []\n---\nWork.\n",
    )
    .unwrap();
    let home = Home::at(root.clone(), tmp.path().to_path_buf());
    let mut app = App::checks_later(home, Theme::dark());
    key(&mut app, '3');
    app.profiles.sel = (app.data.profiles.iter())
        .position(|p| p.listed.name == "worker")
        .unwrap();
    app.refresh_profile();
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let before = fs::read_to_string(root.join("agent-store/worker.md")).unwrap();
    key(&mut app, ' ');
    assert!(said(&app).contains("still being checked"), "{}", said(&app));
    assert_eq!(
        fs::read_to_string(root.join("agent-store/worker.md")).unwrap(),
        before
    );
    app.start_checks();
    app.settle();
    key(&mut app, ' ');
    let after = fs::read_to_string(root.join("agent-store/worker.md")).unwrap();
    assert!(after.contains("alpha"), "{after}");
}

// A batch landing updates its rows where they are: a filter typed while
// the checks run stays, and so does the selected skill; a folder found to
// hold no SKILL.md goes, and the selection stays on its skill.
#[test]
fn batches_land_in_place_under_a_filter_and_a_selection() {
    let (tmp, root) = home_dir();
    for i in 0..40 {
        write_skill(
            &root.join("skills"),
            &format!("skill-{i:02}"),
            "Does one thing",
        );
    }
    fs::create_dir_all(root.join("skills/skill-07-empty")).unwrap();
    let home = Home::at(root.clone(), tmp.path().to_path_buf());
    let mut app = App::checks_later(home, Theme::dark());
    key(&mut app, '/');
    for c in "skill-0".chars() {
        key(&mut app, c);
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let shown = |app: &App| -> Vec<String> {
        let listing = &app.data.listing;
        (app.skills.filtered.iter())
            .map(|&i| listing.entries[i].folder.clone())
            .collect()
    };
    let before = shown(&app);
    assert!(before.contains(&"skill-07-empty".to_string()), "{before:?}");
    // The last match but the empty folder, selected.
    let picked = (before.iter().rev())
        .find(|f| *f != "skill-07-empty")
        .unwrap()
        .clone();
    app.skills.sel = before.iter().position(|f| *f == picked).unwrap();
    frame(&mut app, 120, 20);
    app.start_checks();
    app.settle();
    assert!(app.checking.is_none());
    assert_eq!(app.skills.filter.as_str(), "skill-0");
    let mut expected = before.clone();
    expected.retain(|f| f != "skill-07-empty");
    assert_eq!(shown(&app), expected, "the empty folder went, no other");
    assert_eq!(app.selected_entry().unwrap().folder, picked);
    let after = frame(&mut app, 120, 20);
    let counts = format!("Skills ({}/40)", expected.len());
    assert!(after.contains(&counts), "{after}");
}

// The file watches are set while the first listing is being checked: a
// folder made before them is seen by no watch and not among the folders
// checked, so the store is read again once the checks end.
#[test]
fn watches_set_during_the_checks_read_the_store_again_after_them() {
    let (tmp, root) = home_dir();
    write_skill(&root.join("skills"), "alpha", "First skill");
    let home = Home::at(root.clone(), tmp.path().to_path_buf());
    let mut app = App::checks_later(home, Theme::dark());
    write_skill(&root.join("skills"), "gamma", "Made before the watches");
    app.rewatched();
    assert!(!app.skills.refreshing, "no reload beside the checks");
    app.start_workers();
    app.settle();
    let names: Vec<_> = (app.data.listing.entries.iter())
        .map(|e| e.folder.as_str())
        .collect();
    assert_eq!(names, ["alpha", "gamma"]);
    assert!(app.data.listing.confirmed());
}
