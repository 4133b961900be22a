//! Placing a finished copy, or a link, in a folder inside a project so
//! that a folder on the way swapped for a link meanwhile (by another
//! program writing in the project) is never written through. Checking
//! the path and then renaming by path leaves a gap in which
//! `.agents/skills` can become a link to anywhere; here the folders are
//! opened one name at a time from the project's real path, never
//! following a link, and the rename or link is made relative to the
//! opened folders (`renameat2`, `symlinkat`), which stay the folders that
//! were checked whatever their path leads to later.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::Staged;

/// A folder opened inside a project without following a link, and the
/// real path it was opened at.
pub struct Dir {
    fd: OwnedFd,
    path: PathBuf,
}

/// `path` with the links on the part of it that exists resolved, the rest
/// (not made yet) as written: where a write to it lands.
pub fn real_path(path: &Path) -> PathBuf {
    for at in path.ancestors() {
        if let Ok(real) = std::fs::canonicalize(at) {
            let rest = path.strip_prefix(at).unwrap_or(Path::new(""));
            return if rest.as_os_str().is_empty() {
                real
            } else {
                real.join(rest)
            };
        }
    }
    path.to_path_buf()
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Opens the folder `name` in `at`, never following a link.
fn open_at(at: &OwnedFd, name: &OsStr) -> io::Result<OwnedFd> {
    let c = c_name(name)?;
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: `at` is an open descriptor and `c` a NUL-terminated name.
    let fd = unsafe { libc::openat(at.as_raw_fd(), c.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn leads_out(dir: &Path, root: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} leads out of the project {}: nothing was written through it; make it a folder inside the project",
            dir.display(),
            root.display()
        ),
    )
}

/// Opens `dir`, which must lead to a folder inside `root` (links inside
/// the project, such as `.claude -> config/claude`, are resolved first),
/// one name at a time from `root`'s real path with no link followed; with
/// `make`, the folders missing on the way are made. A link (or a file)
/// found on the way is an error: it appeared after the path was resolved.
pub fn open(root: &Path, dir: &Path, make: bool) -> io::Result<Dir> {
    let real_root = std::fs::canonicalize(root)?;
    let real = real_path(dir);
    let rel = real
        .strip_prefix(&real_root)
        .map_err(|_| leads_out(dir, root))?;
    let top = std::fs::File::open(&real_root)?;
    let mut fd = OwnedFd::from(top);
    for c in rel.components() {
        let Component::Normal(name) = c else {
            return Err(leads_out(dir, root));
        };
        fd = match open_at(&fd, name) {
            Err(e) if make && e.kind() == io::ErrorKind::NotFound => {
                let c = c_name(name)?;
                // SAFETY: `fd` is open and `c` a NUL-terminated name.
                let made = check(unsafe { libc::mkdirat(fd.as_raw_fd(), c.as_ptr(), 0o777) });
                match made {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                    _ => open_at(&fd, name)?,
                }
            }
            other => other.map_err(|e| swapped(&real_root.join(rel), e))?,
        };
    }
    Ok(Dir { fd, path: real })
}

/// A step that is a link (`ELOOP`) or not a folder (`ENOTDIR`): something
/// was swapped in after the path was resolved.
fn swapped(dir: &Path, e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ELOOP) | Some(libc::ENOTDIR) => io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "a folder on the way to {} became a link or a file while skilltui worked: nothing was written through it",
                dir.display()
            ),
        ),
        _ => e,
    }
}

impl Dir {
    /// Whether the folder opened is still the one its real path names,
    /// with no link on the way (a folder moved or swapped since is not).
    pub fn still_there(&self) -> bool {
        let Ok(now) = std::fs::symlink_metadata(&self.path) else {
            return false;
        };
        // SAFETY: an all-zero `stat` is a valid value for fstat to fill.
        let mut opened: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: the descriptor is open and `opened` is writable.
        if unsafe { libc::fstat(self.fd.as_raw_fd(), &mut opened) } != 0 {
            return false;
        }
        let canonical = std::fs::canonicalize(&self.path).is_ok_and(|p| p == self.path);
        canonical && now.dev() == opened.st_dev as u64 && now.ino() == opened.st_ino as u64
    }

    fn sync(&self) {
        // SAFETY: the descriptor is open for the call.
        let _ = unsafe { libc::fsync(self.fd.as_raw_fd()) };
    }
}

/// Renames `from_name` in `from` to `to_name` in `to`, never over
/// anything there (`RENAME_NOREPLACE`; where the filesystem lacks it, a
/// check just before a plain rename).
fn rename_new(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
    let (a, b) = (c_name(from_name)?, c_name(to_name)?);
    let (fa, fb) = (from.fd.as_raw_fd(), to.fd.as_raw_fd());
    match renameat2(fa, &a, fb, &b, NOREPLACE) {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
            // SAFETY: an all-zero `stat` is a valid value for fstatat to fill.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: the descriptor is open and the name NUL-terminated.
            let there =
                unsafe { libc::fstatat(fb, b.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
            if there == 0 {
                return Err(io::Error::from(io::ErrorKind::AlreadyExists));
            }
            // SAFETY: as above.
            check(unsafe { libc::renameat(fa, a.as_ptr(), fb, b.as_ptr()) })
        }
        done => done,
    }
}

/// Swaps `a_name` in `a` with `b_name` in `b` in one step.
fn exchange(a: &Dir, a_name: &OsStr, b: &Dir, b_name: &OsStr) -> io::Result<()> {
    let (ca, cb) = (c_name(a_name)?, c_name(b_name)?);
    let (fa, fb) = (a.fd.as_raw_fd(), b.fd.as_raw_fd());
    renameat2(fa, &ca, fb, &cb, EXCHANGE)
}

#[cfg(target_os = "linux")]
const NOREPLACE: libc::c_uint = libc::RENAME_NOREPLACE;
#[cfg(target_os = "linux")]
const EXCHANGE: libc::c_uint = libc::RENAME_EXCHANGE;
#[cfg(not(target_os = "linux"))]
const NOREPLACE: libc::c_uint = 1;
#[cfg(not(target_os = "linux"))]
const EXCHANGE: libc::c_uint = 2;

#[cfg(target_os = "linux")]
fn renameat2(fa: i32, a: &CString, fb: i32, b: &CString, flags: libc::c_uint) -> io::Result<()> {
    // SAFETY: both descriptors are open and both names NUL-terminated.
    check(unsafe { libc::renameat2(fa, a.as_ptr(), fb, b.as_ptr(), flags) })
}

/// Elsewhere neither flag exists: the callers' fallbacks run.
#[cfg(not(target_os = "linux"))]
fn renameat2(_: i32, _: &CString, _: i32, _: &CString, _: libc::c_uint) -> io::Result<()> {
    Err(io::Error::from_raw_os_error(libc::EINVAL))
}

/// The staging folder holding `staged` and the name in it, opened inside
/// `root`.
fn staged_in(staged: &Staged, root: &Path) -> io::Result<Dir> {
    open(root, staged.dir.path(), false)
}

fn name_of(path: &Path) -> io::Result<&OsStr> {
    path.file_name()
        .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))
}

/// The folders a staged copy moves between, each opened inside the
/// project without following a link, and the name it takes.
struct Ends<'a> {
    from: Dir,
    to: Dir,
    parent: &'a Path,
    name: &'a OsStr,
}

/// [`Ends`] of moving `staged` to `dest`, the staged copy flushed first.
fn ends<'a>(staged: &Staged, dest: &'a Path, root: &Path) -> io::Result<Ends<'a>> {
    let parent = dest
        .parent()
        .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
    let from = staged_in(staged, root)?;
    let to = open(root, parent, false)?;
    let name = name_of(dest)?;
    if !staged.flushed {
        super::sync_staged(&staged.path());
    }
    Ok(Ends {
        from,
        to,
        parent,
        name,
    })
}

/// [`super::install_new`] for `dest` inside the project at `root`: the
/// staged folder is renamed between folders opened without following a
/// link, and moved back (and refused) should the destination's folder
/// have been moved or swapped meanwhile.
pub fn install_new(staged: Staged, dest: &Path, root: &Path) -> Result<(), String> {
    let failed = |e: io::Error| format!("cannot install into {}: {e}", dest.display());
    let Ends {
        from,
        to,
        parent,
        name,
    } = ends(&staged, dest, root).map_err(failed)?;
    let own = OsStr::new(&staged.name);
    rename_new(&from, own, &to, name).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists | io::ErrorKind::DirectoryNotEmpty => format!(
            "{} appeared while installing: nothing was changed",
            dest.display()
        ),
        _ => failed(e),
    })?;
    if !to.still_there() {
        let _ = rename_new(&to, name, &from, own);
        return Err(format!(
            "{} was moved or replaced by a link while skilltui copied: nothing was kept there; run the command again",
            parent.display()
        ));
    }
    to.sync();
    Ok(())
}

/// [`super::replace`] for `dest` inside the project at `root`, the same
/// way: one exchange between folders opened without following a link
/// (undone should the destination's folder have moved meanwhile); the old
/// folder ends in the staging folder and goes with it.
pub fn replace(staged: Staged, dest: &Path, root: &Path) -> Result<(), String> {
    let failed = |e: io::Error| format!("cannot replace {}: {e}", dest.display());
    let Ends {
        from,
        to,
        parent,
        name,
    } = ends(&staged, dest, root).map_err(failed)?;
    let own = OsStr::new(&staged.name);
    if let Err(e) = exchange(&from, own, &to, name) {
        if e.raw_os_error() != Some(libc::EINVAL) {
            return Err(failed(e));
        }
        // No atomic exchange on this filesystem: the old folder aside,
        // the new one in, the old one back if that fails.
        let aside = OsStr::new(".previous");
        rename_new(&to, name, &from, aside).map_err(failed)?;
        if let Err(e) = rename_new(&from, own, &to, name) {
            let _ = rename_new(&from, aside, &to, name);
            return Err(format!("{}: the old skill was kept", failed(e)));
        }
    }
    if !to.still_there() {
        let _ = exchange(&from, own, &to, name);
        return Err(format!(
            "{} was moved or replaced by a link while skilltui copied: nothing was changed there; run the command again",
            parent.display()
        ));
    }
    to.sync();
    Ok(())
}

/// Makes the link `link` holding `text`, in its folder opened inside the
/// project at `root` without following a link (so a folder swapped for a
/// link meanwhile never receives it).
pub fn symlink(text: &Path, link: &Path, root: &Path) -> io::Result<()> {
    let parent = link
        .parent()
        .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
    let dir = open(root, parent, false)?;
    let (t, n) = (c_name(text.as_os_str())?, c_name(name_of(link)?)?);
    // SAFETY: the descriptor is open and both strings NUL-terminated.
    check(unsafe { libc::symlinkat(t.as_ptr(), dir.fd.as_raw_fd(), n.as_ptr()) })?;
    if dir.still_there() {
        return Ok(());
    }
    // SAFETY: as above.
    let _ = unsafe { libc::unlinkat(dir.fd.as_raw_fd(), n.as_ptr(), 0) };
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} was moved or replaced by a link meanwhile: the link was not kept",
            parent.display()
        ),
    ))
}

/// Makes the folder `dir` inside the project at `root` and those missing
/// on its way, never through a link swapped in meanwhile.
pub fn make_dirs(root: &Path, dir: &Path) -> io::Result<()> {
    open(root, dir, true).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn staged(area: &Path) -> Staged {
        let s = super::super::stage_empty(area, "x").unwrap();
        fs::create_dir_all(s.path()).unwrap();
        fs::write(s.path().join("SKILL.md"), "x").unwrap();
        s
    }

    // The path is checked, then `skills` becomes a link out: the rename
    // goes nowhere through it.
    #[test]
    fn a_folder_swapped_for_a_link_after_the_check_is_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let (p, outside) = (tmp.path().join("p"), tmp.path().join("outside"));
        fs::create_dir_all(p.join(".agents/skills")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        let s = staged(&p.join(".agents"));
        fs::rename(p.join(".agents/skills"), p.join(".agents/moved")).unwrap();
        std::os::unix::fs::symlink(&outside, p.join(".agents/skills")).unwrap();
        let err = install_new(s, &p.join(".agents/skills/x"), &p).unwrap_err();
        assert!(err.contains("leads out of the project"), "{err}");
        let link = symlink(Path::new("../x"), &p.join(".agents/skills/y"), &p);
        assert!(link.is_err());
        assert!(make_dirs(&p, &p.join(".agents/skills/z")).is_err());
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
    }

    #[test]
    fn a_link_inside_the_project_is_followed_as_it_resolves() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("p");
        fs::create_dir_all(p.join("config/claude/skills")).unwrap();
        std::os::unix::fs::symlink("config/claude", p.join(".claude")).unwrap();
        let s = staged(&p.join(".agents"));
        install_new(s, &p.join(".claude/skills/x"), &p).unwrap();
        assert!(p.join("config/claude/skills/x/SKILL.md").is_file());
        let s = staged(&p.join(".agents"));
        let err = install_new(s, &p.join(".claude/skills/x"), &p).unwrap_err();
        assert!(err.contains("appeared"), "{err}");
        let s = staged(&p.join(".agents"));
        fs::write(s.path().join("SKILL.md"), "new").unwrap();
        replace(s, &p.join(".claude/skills/x"), &p).unwrap();
        let now = fs::read_to_string(p.join("config/claude/skills/x/SKILL.md")).unwrap();
        assert_eq!(now, "new");
        make_dirs(&p, &p.join("a/b")).unwrap();
        symlink(Path::new("../../config"), &p.join("a/b/c"), &p).unwrap();
        assert!(p.join("a/b/c/claude").is_dir());
    }
}
