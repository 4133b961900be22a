//! Every write skilltui makes goes through here: files are written to a
//! temporary sibling and renamed, folders are staged inside the store and
//! swapped in with one atomic rename, so a crash leaves the old state or the
//! new one, never a mix.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Prefix of the staging folders skilltui makes inside the store. They hold
/// the skill one level down, so CAO never takes them for a skill.
pub const STAGING_PREFIX: &str = ".skilltui-";

/// Files CAO itself leaves out when it copies a skill.
const NEVER_COPIED: &[&str] = &[".cao-projection.json"];

/// Opens `path` for reading only if it is a regular file. The open does not
/// block: a FIFO named SKILL.md or `agent.md` would otherwise hang skilltui
/// (and CAO) until something writes to it.
/// The metadata comes along: listing a store is mostly system calls.
pub fn open_regular(path: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok((file, meta))
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, FIFO or device): replace it with a file",
        ))
    }
}

/// The whole of a regular file (see [`open_regular`]).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular(path)?.0.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically. When `expected` is given, refuses
/// (and writes nothing) if the file on disk no longer holds those bytes.
pub fn atomic_write(path: &Path, bytes: &[u8], expected: Option<&[u8]>) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if let Ok(meta) = fs::metadata(path) {
        let _ = fs::set_permissions(tmp.path(), meta.permissions());
    }
    if let Some(expected) = expected {
        let now = read_regular(path).unwrap_or_default();
        if now != expected {
            return Err(format!(
                "{} changed on disk since it was read: nothing was written; reload and try again",
                path.display()
            ));
        }
    }
    tmp.persist(path)
        .map_err(|e| format!("cannot replace {}: {}", path.display(), e.error))?;
    Ok(())
}

/// A folder copied into a staging area inside `store`, ready to swap in.
pub struct Staged {
    dir: tempfile::TempDir,
    name: String,
}

impl Staged {
    pub fn path(&self) -> PathBuf {
        self.dir.path().join(&self.name)
    }
}

/// Copies `src` (following symlinks that stay inside it, refusing any that
/// leave it) into a staging folder inside `store`.
pub fn stage_copy(src: &Path, store: &Path, name: &str) -> Result<Staged, String> {
    let staged = stage_empty(store, name)?;
    copy_tree(src, src, &staged.path(), Links::StayInside, 0)?;
    Ok(staged)
}

/// Copies `src` into a staging folder inside `store` as Python's
/// `shutil.copytree` does for `cao init`: every file, every symlink
/// followed to what it points at, wherever that is.
pub fn stage_copy_all(src: &Path, store: &Path, name: &str) -> Result<Staged, String> {
    let staged = stage_empty(store, name)?;
    copy_tree(src, src, &staged.path(), Links::Follow, 0)?;
    Ok(staged)
}

/// How a copy treats symlinks (and the files CAO leaves out of a copy).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Links {
    /// As `cao skills add`: follow those that stay inside the folder,
    /// refuse the others, leave out CAO's bookkeeping files.
    StayInside,
    /// As `cao init`: follow them all, copy everything.
    Follow,
}

/// A fresh staging area inside `store` for a folder `name`, which the
/// caller creates at [`Staged::path`].
pub fn stage_empty(store: &Path, name: &str) -> Result<Staged, String> {
    fs::create_dir_all(store).map_err(|e| store_error(store, &e))?;
    let dir = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempdir_in(store)
        .map_err(|e| store_error(store, &e))?;
    Ok(Staged {
        dir,
        name: name.to_string(),
    })
}

fn store_error(store: &Path, e: &std::io::Error) -> String {
    format!(
        "cannot write to the skill store {}: {e}: check its permissions",
        store.display()
    )
}

fn copy_tree(
    root: &Path,
    src: &Path,
    dest: &Path,
    links: Links,
    depth: usize,
) -> Result<(), String> {
    if depth > 32 {
        return Err(format!("{} is nested too deeply to copy", src.display()));
    }
    fs::create_dir(dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    let entries = fs::read_dir(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", src.display()))?;
        let from = entry.path();
        let name = entry.file_name();
        if links == Links::StayInside && NEVER_COPIED.iter().any(|n| name == *n) {
            continue;
        }
        let link = fs::symlink_metadata(&from)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false);
        let refused = links == Links::StayInside && link;
        if refused && !crate::core::skill::symlink_stays_inside(root, &from) {
            return Err(format!(
                "{} is a symlink that points outside the skill folder: replace it with the file itself",
                from.display()
            ));
        }
        let meta =
            fs::metadata(&from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        let to = dest.join(&name);
        if meta.is_dir() {
            copy_tree(root, &from, &to, links, depth + 1)?;
        } else if meta.is_file() {
            fs::copy(&from, &to).map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
        }
    }
    Ok(())
}

/// Moves a staged folder to `dest`, which must not exist.
pub fn install_new(staged: Staged, dest: &Path) -> Result<(), String> {
    fs::rename(staged.path(), dest).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::DirectoryNotEmpty => {
            format!(
                "{} appeared while installing: nothing was changed",
                dest.display()
            )
        }
        _ => format!("cannot install into {}: {e}", dest.display()),
    })
}

/// Replaces `dest` by the staged folder with one atomic exchange; the old
/// folder ends in the staging area and is deleted with it.
pub fn replace(staged: Staged, dest: &Path) -> Result<(), String> {
    let new = staged.path();
    if exchange(&new, dest).is_ok() {
        return Ok(());
    }
    // No atomic exchange on this filesystem: move the old folder aside, move
    // the new one in, and put the old one back if that fails.
    let aside = staged.dir.path().join(".previous");
    fs::rename(dest, &aside).map_err(|e| format!("cannot replace {}: {e}", dest.display()))?;
    if let Err(e) = fs::rename(&new, dest) {
        let _ = fs::rename(&aside, dest);
        return Err(format!(
            "cannot replace {}: {e}: the old skill was kept",
            dest.display()
        ));
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths; renameat2 only reads them.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("no atomic exchange"))
}

/// Removes `dest` from the store: one rename into a staging folder (the
/// atomic step), then the staging folder is deleted.
pub fn remove(dest: &Path, store: &Path) -> Result<(), String> {
    let trash = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempdir_in(store)
        .map_err(|e| store_error(store, &e))?;
    fs::rename(dest, trash.path().join("removed"))
        .map_err(|e| format!("cannot remove {}: {e}", dest.display()))?;
    drop(trash);
    Ok(())
}

/// Deletes staging folders a crashed run left behind (older than ten
/// minutes, so a concurrent run's work is never touched).
pub fn clean_stale_staging(store: &Path) {
    let Ok(entries) = fs::read_dir(store) else {
        return;
    };
    let cutoff = SystemTime::now() - Duration::from_secs(600);
    for entry in entries.flatten() {
        let stale = entry
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < cutoff);
        if stale {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Files added, removed and changed between two folders (relative paths).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
}

pub fn diff_folders(old: &Path, new: &Path) -> FolderDiff {
    let (a, b) = (list_files(old), list_files(new));
    let mut diff = FolderDiff::default();
    for (rel, _) in &b {
        match a.iter().find(|(r, _)| r == rel) {
            None => diff.added.push(rel.clone()),
            Some((_, old_path))
                if read_regular(old_path).ok() != read_regular(&new.join(rel)).ok() =>
            {
                diff.changed.push(rel.clone())
            }
            Some(_) => {}
        }
    }
    diff.removed = a
        .iter()
        .filter(|(r, _)| !b.iter().any(|(x, _)| x == r))
        .map(|(r, _)| r.clone())
        .collect();
    diff
}

fn list_files(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match fs::metadata(&path) {
                Ok(m) if m.is_dir() && out.len() < 10_000 => stack.push(path),
                Ok(m) if m.is_file() => {
                    let rel = path
                        .strip_prefix(root)
                        .unwrap_or(&path)
                        .display()
                        .to_string();
                    out.push((rel, path));
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}
