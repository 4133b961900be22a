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

/// Installing picks from a source refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    /// The store holds a different skill of this name: the CLI says
    /// `--force`, the TUI asks with the diff.
    #[error("Skill '{0}' already exists. Use --force to overwrite it.")]
    Exists(String),
    #[error("{0}")]
    Other(String),
}

impl From<String> for InstallError {
    fn from(e: String) -> InstallError {
        InstallError::Other(e)
    }
}

impl From<InstallError> for String {
    fn from(e: InstallError) -> String {
        e.to_string()
    }
}
