//! A project-scope skill lives in the project: one copy in
//! `<project>/.agents/skills/NAME`, and each agent's project dir links to
//! it by a relative link, so the project can be committed and cloned and
//! no link leads out of it (the `skills` CLI keeps its project skills the
//! same way: vercel-labs/skills `src/installer.ts`, one canonical copy in
//! `.agents/skills`, agents' dirs linked to it). This file knows the
//! place, the relative link, and the folders giving makes and takes back.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::core::fsops;
use crate::core::sources::interrupt;

/// Where a project keeps its one copy of each skill, from its root.
pub const DIR: &str = ".agents/skills";

/// The project's copy of skill `name`.
pub fn copy_path(root: &Path, name: &str) -> PathBuf {
    root.join(DIR).join(name)
}

/// The project a copy at `path` (`<root>/.agents/skills/NAME`) belongs
/// to, or `None` for a path of another shape.
pub fn root_of(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    if !dir.ends_with(DIR) {
        return None;
    }
    dir.parent()?.parent()
}

/// Where a copy for `dest` is staged: in a project (`root`, or the one
/// `dest` is the copy of), its `.agents` folder, beside `skills`, where no
/// agent looks for skills (OpenCode reads `.agents/skills/**`, staging
/// folders included) and on the project's filesystem, so the finished
/// copy is renamed in; elsewhere, beside `dest`. `None`: `.agents` leads
/// out of the project.
pub fn staging_area(dest: &Path, root: Option<&Path>) -> Option<PathBuf> {
    let root = root_of(dest).or(root.filter(|r| dest.starts_with(r)));
    let Some(root) = root else {
        return dest.parent().map(Path::to_path_buf);
    };
    let area = root.join(".agents");
    let real = fs::canonicalize(&area).ok();
    let inside = real.is_none_or(|r| fs::canonicalize(root).is_ok_and(|root| r.starts_with(root)));
    inside.then_some(area)
}

/// A copy of `from` staged in `area` for skill `name`, registered so a
/// signal ending skilltui removes it. The area is made when missing, and
/// the returned guard removes it again once empty.
pub fn stage(from: &Path, area: &Path, name: &str) -> Result<Staging, String> {
    let _busy = interrupt::busy();
    let made = fs::symlink_metadata(area).is_err();
    let staged = fsops::stage_empty(area, name)?;
    let folder = staged
        .path()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let held = interrupt::hold(&folder);
    fsops::copy_into(from, &staged, &interrupt::interrupted)?;
    Ok(Staging {
        staged: Some(staged),
        _held: held,
        made: made.then(|| area.to_path_buf()),
    })
}

/// A staged copy and what must go with it.
pub struct Staging {
    staged: Option<fsops::Staged>,
    _held: interrupt::Held,
    made: Option<PathBuf>,
}

impl Staging {
    pub fn path(&self) -> PathBuf {
        self.staged.as_ref().map(|s| s.path()).unwrap_or_default()
    }

    /// The staged copy, for [`fsops::install_new`] or [`fsops::replace`].
    pub fn take(&mut self) -> fsops::Staged {
        self.staged.take().expect("staged once")
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // The staging folder goes first (the TempDir's own drop), then the
        // area made for it, when nothing else is in it.
        drop(self.staged.take());
        if let Some(area) = &self.made {
            let _ = fs::remove_dir(area);
        }
    }
}

/// Clears what killed skilltui runs left in the project at `root`: its
/// staging folders (skilltui's names only, older than any live run's).
pub fn clear_leftovers(root: &Path) {
    let Ok(real_root) = fs::canonicalize(root) else {
        return;
    };
    let inside = |d: &Path| fs::canonicalize(d).is_ok_and(|d| d.starts_with(&real_root));
    for dir in [root.join(".agents"), root.join(DIR)]
        .iter()
        .filter(|d| inside(d))
    {
        if let Some(h) = fsops::clean_stale_staging(dir) {
            let _ = h.join();
        }
    }
}

/// [`clear_leftovers`] in the project a command runs in (from `cwd`).
pub fn clear_leftovers_in(cwd: &Path) {
    clear_leftovers(&crate::core::sources::lock::project_root(cwd));
}

/// What a relative link at `link` holds to lead to `copy`: computed from
/// where the link really lands (its folder with links resolved), since
/// the system resolves a relative link from there, not from the path
/// written (`.claude -> config/claude` puts the link in
/// `config/claude/skills`).
pub fn link_text(link: &Path, copy: &Path) -> Option<PathBuf> {
    let dir = fsops::inside::real_path(link.parent()?);
    Some(relative(&dir, &fsops::inside::real_path(copy)))
}

/// `to` as reached from the folder `from` (both absolute, with no `.` or
/// `..`): what a relative link in `from` holds, so the link still leads
/// to the copy wherever the project is cloned.
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    out
}

/// The folders from `root` (not itself) down to `dir` that do not exist
/// yet, outermost first: those creating `dir` makes, and so the only ones
/// taking back may remove.
pub fn missing(dir: &Path, root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|a| a.starts_with(root) && *a != root)
        .filter(|a| fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    out.reverse();
    out
}

/// Removes each of `made` that is an empty folder now, deepest first
/// (`rmdir`: a folder holding anything, the user's file included, stays).
/// Returns the ones still there.
pub fn prune(made: &[PathBuf]) -> Vec<PathBuf> {
    let mut deepest_first = made.to_vec();
    deepest_first.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    deepest_first
        .into_iter()
        .filter(|d| {
            let is_dir = fs::symlink_metadata(d).is_ok_and(|m| m.is_dir());
            is_dir && fs::remove_dir(d).is_err()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_link_climbs_to_the_common_folder() {
        let r = relative(
            Path::new("/p/src/.codex/skills"),
            Path::new("/p/.agents/skills/pdf"),
        );
        assert_eq!(r, Path::new("../../../.agents/skills/pdf"));
        assert_eq!(
            relative(
                Path::new("/p/.claude/skills"),
                Path::new("/p/.agents/skills/x")
            ),
            Path::new("../../.agents/skills/x")
        );
    }

    #[test]
    fn the_copy_names_its_project() {
        let p = copy_path(Path::new("/p"), "x");
        assert_eq!(root_of(&p), Some(Path::new("/p")));
        assert_eq!(root_of(Path::new("/p/.claude/skills/x")), None);
    }

    #[test]
    fn only_made_empty_folders_are_pruned() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join(".codex")).unwrap();
        let made = missing(&root.join(".codex/skills/a"), root);
        assert_eq!(
            made,
            vec![root.join(".codex/skills"), root.join(".codex/skills/a")]
        );
        fs::create_dir_all(root.join(".codex/skills/a")).unwrap();
        fs::write(root.join(".codex/skills/note"), "mine").unwrap();
        assert_eq!(prune(&made), vec![root.join(".codex/skills")]);
        assert!(root.join(".codex/skills/note").is_file());
        fs::remove_file(root.join(".codex/skills/note")).unwrap();
        assert!(prune(&made).is_empty());
        assert!(root.join(".codex").is_dir());
    }
}
