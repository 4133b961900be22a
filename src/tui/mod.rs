//! The terminal UI: state, panes, dialogs, rendering and keys. It calls the
//! core for every rule.
//!
//! One synchronous loop reads a single channel fed by an input thread, the
//! file watcher and the highlighter's warm-up thread; every event is
//! followed by one redraw.

pub mod app;
pub mod clipboard;
pub mod markdown;
pub mod theme;
pub mod ui;

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

use crate::cli::Cli;
use crate::core::store::Home;
use app::App;
use theme::Theme;

/// What wakes the loop.
pub enum AppEvent {
    Input(Event),
    /// Something under a watched directory changed (debounced).
    Changed,
    /// Syntax highlighting finished loading: re-render the preview.
    HighlighterReady,
    /// A worker thread rendered a big preview.
    PreviewReady(Box<(app::PreviewKey, std::sync::Arc<markdown::Rendered>)>),
}

/// `skilltui` with no command.
pub fn run(cli: &Cli) -> Result<(), String> {
    let theme = pick_theme(cli.theme.as_deref())?;
    let home = Home::locate(cli.home.as_deref());
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("the TUI needs a terminal: run it in one, or use a command such as `skilltui list` (see --help)".into());
    }
    let mut terminal =
        ratatui::try_init().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    install_panic_cleanup();
    let result = event_loop(&mut terminal, App::new(home, theme));
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// `--theme NAME`, else the default for the environment (NO_COLOR aware).
pub fn pick_theme(name: Option<&str>) -> Result<Theme, String> {
    match name {
        Some(n) => Theme::load(n, Theme::user_dir().as_deref()).map_err(|e| format!("{e:#}")),
        None => Ok(Theme::default_for_env()),
    }
}

/// ratatui's hook restores the screen; mouse capture must be undone too.
fn install_panic_cleanup() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, mut app: App) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    app.renders = Some(tx.clone());
    spawn_input(tx.clone());
    let hl = app.hl.clone();
    let warm_tx = tx.clone();
    std::thread::spawn(move || {
        hl.warm();
        let _ = warm_tx.send(AppEvent::HighlighterReady);
    });
    let mut watcher = Watch::new(tx);
    watcher.follow(&app);
    loop {
        terminal
            .draw(|f| ui::draw(f, &mut app))
            .map_err(|e| format!("cannot draw: {e}"))?;
        if app.quit {
            return Ok(());
        }
        let Ok(first) = rx.recv() else { return Ok(()) };
        let mut keyed = is_key(&first);
        let mut changed = handle(&mut app, first);
        // Drain what queued up meanwhile: one redraw for a burst of events.
        while let Ok(ev) = rx.try_recv() {
            // A click is mapped through the last frame: draw the keys
            // before it first, or it could land on a row that moved.
            if keyed && matches!(ev, AppEvent::Input(Event::Mouse(_))) {
                terminal
                    .draw(|f| ui::draw(f, &mut app))
                    .map_err(|e| format!("cannot draw: {e}"))?;
                keyed = false;
            }
            keyed |= is_key(&ev);
            changed |= handle(&mut app, ev);
        }
        if changed {
            app.reload();
            watcher.follow(&app);
        }
    }
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
        AppEvent::HighlighterReady => {}
        AppEvent::PreviewReady(done) => {
            let (key, rendered) = *done;
            app.preview_ready(key, rendered);
        }
    }
    false
}

fn spawn_input(tx: Sender<AppEvent>) {
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if tx.send(AppEvent::Input(ev)).is_err() {
                return;
            }
        }
    });
}

/// Watches the store, the extra dirs, the profile dirs and settings.json.
struct Watch {
    tx: Sender<AppEvent>,
    debouncer: Option<Debouncer<RecommendedWatcher, RecommendedCache>>,
    watched: Vec<PathBuf>,
}

impl Watch {
    fn new(tx: Sender<AppEvent>) -> Watch {
        Watch {
            tx,
            debouncer: None,
            watched: Vec::new(),
        }
    }

    /// (Re)starts watching when the set of existing directories changed
    /// (seeding creates the store, settings can add dirs).
    fn follow(&mut self, app: &App) {
        let mut dirs: Vec<PathBuf> = app.home.skill_search_dirs();
        dirs.extend(
            crate::core::profile::search_dirs(&app.home)
                .into_iter()
                .map(|(d, _)| d),
        );
        dirs.retain(|d| d.is_dir());
        dirs.sort();
        dirs.dedup();
        if self.debouncer.is_some() && dirs == self.watched {
            return;
        }
        let tx = self.tx.clone();
        let Ok(mut debouncer) = new_debouncer(
            Duration::from_millis(250),
            None,
            move |r: DebounceEventResult| {
                if r.is_ok_and(|events| !events.is_empty()) {
                    let _ = tx.send(AppEvent::Changed);
                }
            },
        ) else {
            return;
        };
        let _ = debouncer.watch(&app.home.root, RecursiveMode::NonRecursive);
        for d in &dirs {
            let _ = debouncer.watch(d, RecursiveMode::Recursive);
        }
        self.debouncer = Some(debouncer);
        self.watched = dirs;
    }
}

/// For tests and tools: a channel the App could be driven from.
pub fn channel() -> (Sender<AppEvent>, Receiver<AppEvent>) {
    mpsc::channel()
}
