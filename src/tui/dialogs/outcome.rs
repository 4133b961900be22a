//! What a dialog hands back to the app: an `Outcome` after each key, and
//! the `Pending` change a yes/no question carries out.

use std::path::PathBuf;

use crate::core::delivery::model::Kind;
use crate::core::sources::changes::Changes;
use crate::tui::model::Status;

/// What a dialog asks of the app after a key.
#[derive(Debug)]
pub enum Outcome {
    Keep,
    Close,
    /// Close, showing this.
    Say(Status),
    /// Keep the dialog open, showing this.
    KeepSaying(Status),
    /// The user said yes.
    Run(Pending),
    /// A checked skill folder and the name it installs under.
    Install {
        src: PathBuf,
        name: String,
    },
    /// Open this SOURCE (git, or a folder of skills) on a worker.
    Open(String),
    /// Search the registry for these words (`owner:NAME` among them), this
    /// many results at most, on a worker.
    Search(String, usize),
    /// Read a search result's SKILL.md (its skill in SOURCE) on a worker.
    Read {
        source: String,
        skill: String,
    },
    /// Open a search result's SOURCE with its skill picked.
    OpenFound {
        source: String,
        skill: String,
    },
    /// Install what the pick dialog has picked.
    InstallPicks,
    /// The user kept the installed skill of this name.
    Declined(String),
    Seed(Vec<String>),
    /// Save these ids as the agents pane 3 lists even when not detected.
    ListAgents(Vec<String>),
    /// The editor saved this file.
    Saved(PathBuf),
}

/// A change waiting for a yes.
#[derive(Clone, Debug)]
pub enum Pending {
    /// Replace an installed skill with the folder `src`: shows its
    /// changes as the git one does, a changed text file as its line diff.
    Replace {
        src: PathBuf,
        name: String,
        changes: Changes,
        /// The installed copy was edited since it was pinned.
        edited: bool,
    },
    /// Replace an installed skill with one picked from a source: shows
    /// its changes, a changed text file as its line diff.
    ReplaceFound {
        name: String,
        source: String,
        changes: Changes,
        /// The installed copy was edited since it was pinned.
        edited: bool,
    },
    Remove {
        name: String,
        path: PathBuf,
        /// The profiles whose `skills:` list names it, by name or pattern
        /// (`supervisor (via cao-*)`).
        listed_by: Vec<String>,
        /// The agents skilltui gave it to, as `id (scope)`: their copies
        /// or links stay behind.
        given_to: Vec<String>,
        /// The profiles with no `skills:` list, which CAO offers every
        /// skill, this one too.
        unlisted: Vec<String>,
    },
    /// The profile has no `skills:` list; turning `skill` off writes an
    /// explicit one. `delivery`: its provider and how that one hands over
    /// skills, which decides what the list changes.
    WriteList {
        profile: String,
        skill: String,
        delivery: Option<(&'static str, Kind)>,
    },
}
