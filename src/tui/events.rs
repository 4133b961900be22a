//! What wakes the event loop: keys and mouse, the watcher, and workers
//! (highlighter warm-up, big previews, background jobs). Workers send these
//! on the loop's one channel, so they depend on this file and not on the loop.

use std::path::PathBuf;
use std::sync::Arc;

use ratatui::crossterm::event::Event;

use crate::tui::markdown::Rendered;

/// What a rendered preview depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewKey {
    pub path: PathBuf,
    pub modified: Option<std::time::SystemTime>,
    pub width: u16,
    /// Columns the code blocks are scrolled sideways.
    pub code_shift: u16,
    pub highlighted: bool,
}

/// What wakes the loop.
pub enum AppEvent {
    Input(Event),
    /// Something under a watched directory changed (debounced).
    Changed,
    /// The watches were (re)set: a change before them was seen by none.
    Rewatched,
    /// Syntax highlighting finished loading: re-render the preview.
    HighlighterReady,
    /// A worker thread rendered a big preview.
    PreviewReady(Box<(PreviewKey, Arc<Rendered>)>),
    /// A background job reported (see `jobs`).
    Worked,
    /// SIGTERM, SIGHUP or SIGINT: leave the way `q` does, terminal restored.
    Terminate(i32),
}
