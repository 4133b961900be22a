//! The terminal UI: state, panes, dialogs, rendering and keys. It calls the
//! core for every rule.
//!
//! One synchronous loop reads a single channel fed by an input thread, the
//! file watcher and the highlighter's warm-up thread; every event is
//! followed by one redraw.

pub mod app;
pub mod audits;
pub mod clipboard;
pub mod colors;
pub mod dialogs;
pub mod events;
pub mod input;
pub mod jobs;
pub mod keymap;
pub mod layout;
pub mod markdown;
pub mod memory;
pub mod model;
pub mod panes;
pub mod rank;
pub mod seeding;
pub mod sources;
pub mod suspend;
pub mod theme;
pub mod ui;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use std::path::Path;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

use crate::core::cao::store::Home;
use app::App;
pub use events::AppEvent;
use theme::Theme;

/// `skilltui` with no command: `--theme`, `--home` and `--cao` as given.
pub fn run(theme: Option<&str>, home: Option<&Path>, cao: Option<&Path>) -> Result<(), String> {
    memory::few_arenas();
    let theme = pick_theme(theme)?;
    let home = Home::locate(home).with_cao(cao);
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("the TUI needs a terminal: run it in one, or use a command such as `skilltui list` (see --help)".into());
    }
    // Read on a thread from now: the terminal is set up meanwhile.
    home.keep_verdicts_on_disk();
    let mut terminal =
        ratatui::try_init().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    install_panic_cleanup();
    let mut app = App::checks_later(home, theme);
    app.depth = colors::Depth::from_env();
    let result = event_loop(&mut terminal, app);
    restore_terminal();
    // Dropping the terminal shows the cursor again; exit() would skip it.
    drop(terminal);
    match result {
        // Killed by a signal: the shell's convention, once the screen is back.
        Ok(Some(signal)) => std::process::exit(128 + signal),
        Ok(None) => Ok(()),
        Err(e) => Err(e),
    }
}

/// `--theme NAME`, else the default for the environment (NO_COLOR aware).
pub fn pick_theme(name: Option<&str>) -> Result<Theme, String> {
    match name {
        Some(n) => Theme::load(n, Theme::user_dir().as_deref()).map_err(|e| format!("{e:#}")),
        None => Ok(Theme::default_for_env()),
    }
}

/// Mouse capture off, then ratatui's restore (raw mode, alternate screen).
pub(crate) fn restore_terminal() {
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// ratatui's hook restores the screen; mouse capture must be undone too.
fn install_panic_cleanup() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
}

/// Runs until quit; `Some(signal)` when a signal ended it.
fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    mut app: App,
) -> Result<Option<i32>, String> {
    let (tx, rx) = mpsc::channel();
    app.preview.renders = Some(tx.clone());
    app.jobs.wake = Some(tx.clone());
    let gate = Arc::new(suspend::InputGate::default());
    suspend::spawn_input(tx.clone(), gate.clone());
    spawn_signals(tx.clone());
    // Listening now: a worker's report wakes the loop. The first frame
    // is drawn first, so the checks start with the rows it shows.
    draw(terminal, &mut app)?;
    app.start_workers();
    // Loading the highlighter takes a core for a while: after the first
    // frame, beside the checks (which wait on the disk more than a core).
    let hl = app.hl.clone();
    let warm_tx = tx.clone();
    std::thread::spawn(move || {
        hl.warm();
        let _ = warm_tx.send(AppEvent::HighlighterReady);
    });
    let mut watcher = Watch::new(tx);
    // The watches are set once the first listing is checked: the checks
    // read every folder, and setting thousands of watches beside them
    // would slow them; what changed meanwhile is read again then.
    let mut followed = None;
    loop {
        if app.checking.is_none() && followed != Some(app.reloads) {
            watcher.follow(&app);
            followed = Some(app.reloads);
        }
        // Before drawing: after SIGHUP the terminal is gone.
        if app.quit {
            return Ok(app.exit_signal);
        }
        draw(terminal, &mut app)?;
        let Ok(first) = rx.recv() else {
            return Ok(None);
        };
        let mut keyed = is_key(&first);
        let mut changed = handle(&mut app, first);
        // Drain what queued up meanwhile: one redraw for a burst of events.
        while let Ok(ev) = rx.try_recv() {
            // A click is mapped through the last frame: draw the keys
            // before it first, or it could land on a row that moved.
            if keyed && matches!(ev, AppEvent::Input(Event::Mouse(_))) {
                draw(terminal, &mut app)?;
                keyed = false;
            }
            keyed |= is_key(&ev);
            changed |= handle(&mut app, ev);
        }
        if let Some(path) = app.external_edit.take() {
            let r = suspend::edit(terminal, &gate, &path);
            app.edited(r);
            changed = false;
        }
        if changed {
            app.reload_later(false);
        }
    }
}

/// The update pass, then a draw that only reads the App.
fn draw(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> Result<(), String> {
    terminal
        .draw(|f| ui::draw(f, app))
        .map_err(|e| format!("cannot draw: {e}"))?;
    Ok(())
}

fn is_key(ev: &AppEvent) -> bool {
    matches!(ev, AppEvent::Input(Event::Key(_)))
}

/// Applies one event; true when the disk changed and a reload is due.
fn handle(app: &mut App, ev: AppEvent) -> bool {
    match ev {
        AppEvent::Input(Event::Key(k)) => app.on_key(k),
        AppEvent::Input(Event::Mouse(m)) => app.on_mouse(m),
        AppEvent::Input(_) => {}
        AppEvent::Changed => return true,
        AppEvent::Rewatched => app.rewatched(),
        AppEvent::HighlighterReady => {}
        AppEvent::Worked => app.poll_jobs(),
        AppEvent::PreviewReady(done) => {
            let (key, rendered) = *done;
            app.preview_ready(key, rendered);
        }
        AppEvent::Terminate(signal) => {
            app.quit = true;
            app.exit_signal = Some(signal);
        }
    }
    false
}

/// A signal must not leave the terminal in raw mode on the alternate
/// screen with the mouse captured: it becomes an orderly quit.
fn spawn_signals(tx: Sender<AppEvent>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) else {
        return;
    };
    std::thread::spawn(move || {
        let mut asked = false;
        for signal in signals.forever() {
            // Leaving either way: git's ssh and helpers must not outlive us.
            crate::core::sources::git::kill_all();
            if asked {
                // A second signal while the loop is busy: leave at once.
                restore_terminal();
                std::process::exit(128 + signal);
            }
            asked = true;
            let _ = tx.send(AppEvent::Terminate(signal));
        }
    });
}

/// Watches what CAO and each detected agent read (see `core::watch`): a
/// change wakes the loop with `AppEvent::Changed`.
struct Watch {
    watcher: crate::core::watch::Watcher,
    /// For [`AppEvent::Rewatched`].
    tx: Sender<AppEvent>,
}

impl Watch {
    fn new(tx: Sender<AppEvent>) -> Watch {
        let changed = Mutex::new(tx.clone());
        Watch {
            watcher: crate::core::watch::Watcher::new(move || {
                if let Ok(tx) = changed.lock() {
                    let _ = tx.send(AppEvent::Changed);
                }
            }),
            tx,
        }
    }

    /// (Re)starts watching when the set of directories to watch changed
    /// (seeding creates the store, settings can add dirs).
    fn follow(&mut self, app: &App) {
        let home = app.data.home.clone();
        let agents: Vec<_> = app.data.agents.iter().map(|r| r.agent.clone()).collect();
        let ctx = app.data.agent_ctx.clone();
        let tx = self.tx.clone();
        let targets = move || {
            let mut targets = crate::core::watch::watch_set(&home);
            if let Some(ctx) = &ctx {
                targets.extend(crate::core::watch::agent_watch_set(&agents, ctx));
            }
            targets
        };
        self.watcher.follow_then(targets, move || {
            let _ = tx.send(AppEvent::Rewatched);
        });
    }
}
