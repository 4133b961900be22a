//! `E`: the TUI steps aside for the user's `$VISUAL` / `$EDITOR`. The
//! input thread is parked first (else it would read the keys meant for the
//! editor), the terminal is given back as it was, the editor runs, and the
//! UI comes back on a cleared screen.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{Clear, ClearType, EnterAlternateScreen, enable_raw_mode};

use crate::tui::events::AppEvent;

/// How long the input thread waits for a key before it looks at the gate.
const POLL: Duration = Duration::from_millis(50);

/// Lets the event loop park the input thread while another program owns
/// the terminal.
#[derive(Default)]
pub struct InputGate {
    paused: AtomicBool,
    parked: AtomicBool,
}

impl InputGate {
    /// Parks the input thread; true once it no longer reads the terminal.
    fn pause(&self) -> bool {
        self.paused.store(true, Ordering::SeqCst);
        let until = Instant::now() + POLL * 20;
        while !self.parked.load(Ordering::SeqCst) {
            if Instant::now() > until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}

/// Reads the terminal's events on a thread of its own, onto the loop's
/// channel, unless the gate has parked it.
pub fn spawn_input(tx: Sender<AppEvent>, gate: Arc<InputGate>) {
    std::thread::spawn(move || {
        loop {
            if gate.paused.load(Ordering::SeqCst) {
                gate.parked.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            gate.parked.store(false, Ordering::SeqCst);
            match event::poll(POLL) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => return,
            }
            let Ok(ev) = event::read() else { return };
            if tx.send(AppEvent::Input(ev)).is_err() {
                return;
            }
        }
    });
}

/// The editor to run: `$VISUAL`, else `$EDITOR`, else `vi` (as git and
/// crontab pick one).
pub fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into())
}

/// Runs the editor on `path` with the terminal handed over, then takes the
/// terminal back. Ok names what ran; Err says what went wrong.
pub fn edit(
    terminal: &mut ratatui::DefaultTerminal,
    gate: &InputGate,
    path: &Path,
) -> Result<String, String> {
    if !gate.pause() {
        gate.resume();
        return Err("the terminal is busy: press E again".into());
    }
    let _ = terminal.show_cursor();
    super::restore_terminal();
    let editor = editor_command();
    // Through the shell, so `code --wait` or `emacs -nw` work as typed;
    // the path is an argument, never part of the command text.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(path)
        .status();
    // Not `terminal.clear()`: it asks the terminal where the cursor is,
    // which some terminals never answer. A blank frame makes the next one
    // draw every cell instead.
    let back = enable_raw_mode()
        .and_then(|_| {
            execute!(
                std::io::stdout(),
                EnterAlternateScreen,
                EnableMouseCapture,
                Clear(ClearType::All)
            )
        })
        .and_then(|_| terminal.hide_cursor())
        .and_then(|_| terminal.draw(|_| {}).map(drop));
    gate.resume();
    back.map_err(|e| format!("cannot take the terminal back: {e}"))?;
    let shown = crate::core::text::sanitize_line(&editor).into_owned();
    match status {
        Ok(s) if s.success() => Ok(format!("{shown} closed; reloaded")),
        Ok(s) => Err(format!(
            "{shown} exited with {s}: the file is as the editor left it (set $VISUAL or $EDITOR to pick another)"
        )),
        Err(e) => Err(format!("cannot run {shown}: {e}")),
    }
}
