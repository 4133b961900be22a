//! `remove NAME` everywhere: the store's copy and lock entries (the
//! sources' rule), then every link or copy skilltui gave of it (giving's
//! rule). Its own file so that neither of the two imports the other.

use crate::core::agents::give::{Taken, Target, disable_where};
use crate::core::agents::scan::Ctx;
use crate::core::agents::table::Agent;
use crate::core::cao::store::{self, Home};
use crate::core::sources::remote;

/// `remove NAME` everywhere: the store first (if it refuses, no agent loses
/// the skill; a link left dangling still points where it was made, so it is
/// taken back after), its lock entry, then every link or copy skilltui gave
/// of it, each only as [`disable_where`] allows.
pub fn remove_everywhere(
    home: &Home,
    agents: &[Agent],
    ctx: &Ctx,
    name: &str,
) -> Result<(remote::Removed, Vec<(Target, Taken)>), String> {
    let removed = remote::remove(home, name)?;
    let name = store::check_name(name)?;
    let taken = disable_where(home, agents, ctx, &|t| t.skill == name)
        .map_err(|e| format!("removed {}, but {e}", removed.dest.display()))?;
    Ok((removed, taken))
}
