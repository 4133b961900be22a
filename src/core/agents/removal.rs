//! `remove NAME` everywhere: the store's copy and lock entries (the
//! sources' rule), then every link or copy skilltui gave of it (giving's
//! rule). Its own file so that neither of the two imports the other.

use crate::core::agents::give::{Taken, Target, disable_where, project_roots};
use crate::core::agents::scan::Ctx;
use crate::core::agents::shared;
use crate::core::agents::table::Agent;
use crate::core::cao::store::{self, Home};
use crate::core::sources::{lock, remote};

/// `remove NAME` everywhere: the store first (if it refuses, no agent loses
/// the skill; a link left dangling still points where it was made, so it is
/// taken back after), its lock entry, then every link or copy skilltui gave
/// of it, each only as [`disable_where`] allows, and its entry in the lock
/// of each project it was given in (wherever `remove` runs: a teammate's
/// `sync` would bring it back).
pub fn remove_everywhere(
    home: &Home,
    agents: &[Agent],
    ctx: &Ctx,
    name: &str,
) -> Result<(remote::Removed, Vec<(Target, Taken)>), String> {
    let mut removed = remote::remove(home, name)?;
    let name = store::check_name(name)?;
    shared::clear_leftovers_in(&ctx.cwd);
    let but = |e: String| format!("removed {}, but {e}", removed.dest.display());
    let taken = disable_where(home, agents, ctx, &|t| t.skill == name).map_err(but)?;
    let given: Vec<Target> = taken.iter().map(|(t, _)| t.clone()).collect();
    for root in project_roots(&given) {
        let Some(path) = lock::project_lock(&root).filter(|p| !lock::is_home_lock(home, p)) else {
            continue;
        };
        let dropped = removed.unpin_project(&path, &name);
        dropped.map_err(|e| format!("removed {}, but {e}", removed.dest.display()))?;
    }
    Ok((removed, taken))
}
