//! The names a command line takes, completed from the home the line names
//! (clap_complete's dynamic completion: the shell asks the binary itself,
//! `COMPLETE=bash skilltui -- skilltui show co`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use crate::core::agents::scan;
use crate::core::cao::profile;
use crate::core::cao::store::{self, Home};
use crate::core::sources::lock::{self, Lock};

/// The skills of the store (and extra dirs) CAO would load.
pub fn skills() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        let listing = store::list(&home(), false);
        listing
            .valid()
            .map(|e| {
                let first = e.description().lines().next().unwrap_or("").to_string();
                CompletionCandidate::new(&e.folder).help(Some(first.into()))
            })
            .collect()
    })
}

/// The skills the lock in use pins (what `check` and `update` take).
pub fn locked() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        let lock = Lock::read(&lock::in_use(&home()));
        let names: Vec<String> = lock
            .map(|l| l.skills.into_keys().collect())
            .unwrap_or_default();
        names.into_iter().map(CompletionCandidate::new).collect()
    })
}

/// Every agent profile CAO would list, with where it comes from.
pub fn profiles() -> ArgValueCandidates {
    ArgValueCandidates::new(|| profile_names(|_| true))
}

/// The profiles built into the installed CAO (what `profile copy` takes).
pub fn built_in_profiles() -> ArgValueCandidates {
    ArgValueCandidates::new(|| profile_names(|l| l.location.path.is_none()))
}

fn profile_names(keep: fn(&profile::Listed) -> bool) -> Vec<CompletionCandidate> {
    profile::list(&home())
        .into_iter()
        .filter(keep)
        .map(|l| CompletionCandidate::new(l.name).help(Some(l.location.source.into())))
        .collect()
}

/// The agents skilltui knows (its table plus the user's).
pub fn agents() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        let (table, _) = scan::open(&home());
        table
            .agents
            .iter()
            .map(|a| CompletionCandidate::new(&a.id).help(Some(a.name.clone().into())))
            .collect()
    })
}

/// The home of the line being completed: its `--home` and `--cao`, else
/// what `Home::locate` finds.
fn home() -> Home {
    let args: Vec<OsString> = std::env::args_os().collect();
    let flag = |name: &str| -> Option<PathBuf> {
        let joined = format!("{name}=");
        args.iter().enumerate().find_map(|(i, a)| {
            if a == name {
                return args.get(i + 1).map(PathBuf::from);
            }
            let value = a.to_str()?.strip_prefix(&joined)?;
            Some(PathBuf::from(value))
        })
    };
    Home::locate(flag("--home").as_deref()).with_cao(flag("--cao").as_deref())
}
