//! Typed errors, only where a caller answers one failure differently from
//! the others. Each displays as the one line a user sees.

use std::path::PathBuf;

/// A write refused or failed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The file no longer holds what was read: the editor offers a reload.
    #[error(
        "{} changed on disk since it was read: nothing was written; reload and try again",
        .0.display()
    )]
    ChangedOnDisk(PathBuf),
    #[error("{0}")]
    Io(String),
}

impl From<WriteError> for String {
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}
