//! A location searched as a tree (`tree = true` in the table): every
//! SKILL.md below it at any depth, as GitHub Copilot CLI 1.0.102 searches
//! its skill dirs (observed with `copilot skill list --json`, checked by
//! tests/oracles/fuzz/copilot.rs):
//! - a folder holding a SKILL.md is a skill, and its subfolders are not
//!   searched (the location itself too: a SKILL.md directly in it makes it
//!   the only skill there);
//! - folders whose name starts with `.` are not entered; links are
//!   followed;
//! - the skills come in byte order of their path (`g-x` before `g.y`
//!   before `g/deep`), not level by level;
//! - a skill folder reached twice through links is listed once, at the
//!   path the walk (depth first, each folder in the file system's order)
//!   reached first, so which of the two paths is shown follows that order.

use std::collections::HashSet;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::core::agents::scan::{Cut, MAX_ENTRIES};
use crate::core::agents::table::Symlinks;

/// The skill folders below `dir` in the agent's order, at most `max`
/// folders looked into, and what cut the search short if anything did.
/// The walk goes depth first in the file system's order of each folder;
/// each real folder is entered once (links that loop cost one visit) and
/// a skill folder reached twice through links is kept where the walk first
/// reached it; the skills are then sorted by path.
pub fn skill_folders(dir: &Path, links: Symlinks, max: usize) -> (Vec<PathBuf>, Option<Cut>) {
    if holds_skill(dir) {
        return (vec![dir.to_path_buf()], None);
    }
    let mut out = Vec::new();
    let mut cut = None;
    let mut looked = 0usize;
    let mut entered: HashSet<(u64, u64)> = real_id(dir).into_iter().collect();
    let mut skills: HashSet<(u64, u64)> = HashSet::new();
    let (kids, all) = subfolders(dir, links);
    if !all {
        cut = Some(Cut::Entries);
    }
    let mut stack = vec![kids.into_iter()];
    while let Some(level) = stack.last_mut() {
        let Some(kid) = level.next() else {
            stack.pop();
            continue;
        };
        if looked == max {
            cut = Some(Cut::Folders);
            break;
        }
        looked += 1;
        let id = real_id(&kid);
        if holds_skill(&kid) {
            if id.is_none_or(|id| skills.insert(id)) {
                out.push(kid);
            }
        } else if id.is_none_or(|id| entered.insert(id)) {
            let (kids, all) = subfolders(&kid, links);
            if !all {
                cut = Some(Cut::Entries);
            }
            stack.push(kids.into_iter());
        }
    }
    out.sort_by(|a, b| a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes()));
    (out, cut)
}

fn holds_skill(dir: &Path) -> bool {
    dir.join("SKILL.md").is_file()
}

fn real_id(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(dir).ok().map(|m| (m.dev(), m.ino()))
}

/// A folder's subfolders (links to folders included unless the agent
/// does not follow links), `.` names left out, in the file system's
/// order; `false` when it held more than [`MAX_ENTRIES`] entries.
fn subfolders(dir: &Path, links: Symlinks) -> (Vec<PathBuf>, bool) {
    let entries: Vec<fs::DirEntry> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_ENTRIES + 1)
        .collect();
    let all = entries.len() <= MAX_ENTRIES;
    let out: Vec<PathBuf> = entries
        .into_iter()
        .take(MAX_ENTRIES)
        .filter(|e| !e.file_name().as_bytes().starts_with(b"."))
        .filter(|e| match e.file_type() {
            Ok(t) if t.is_dir() => true,
            Ok(t) if t.is_symlink() => links != Symlinks::No && e.path().is_dir(),
            _ => false,
        })
        .map(|e| e.path())
        .collect();
    (out, all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    }

    fn rel(root: &Path, found: &[PathBuf]) -> Vec<String> {
        found
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn skills_come_in_path_byte_order_and_a_skill_folder_is_not_searched() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        for d in ["g/deep", "g-x", "g.y", "B", "a", "a/sub", "1/2/3/4/5/6/7/8"] {
            skill(&root.join(d));
        }
        skill(&root.join(".hidden"));
        let (found, cut) = skill_folders(root, Symlinks::Yes, 100);
        assert_eq!(cut, None);
        assert_eq!(
            rel(root, &found),
            ["1/2/3/4/5/6/7/8", "B", "a", "g-x", "g.y", "g/deep"]
        );
    }

    #[test]
    fn a_skill_md_in_the_location_makes_it_the_only_skill_and_loops_end() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::create_dir_all(root.join("x")).unwrap();
        std::os::unix::fs::symlink(root, root.join("x/loop")).unwrap();
        skill(&root.join("x/y"));
        let (found, _) = skill_folders(root, Symlinks::Yes, 100);
        assert_eq!(rel(root, &found), ["x/y"]);
        // A second way to one skill folder: listed once.
        std::os::unix::fs::symlink(root.join("x/y"), root.join("z")).unwrap();
        assert_eq!(skill_folders(root, Symlinks::Yes, 100).0.len(), 1);
        skill(root);
        assert_eq!(
            skill_folders(root, Symlinks::Yes, 100).0,
            [root.to_path_buf()]
        );
    }
}
