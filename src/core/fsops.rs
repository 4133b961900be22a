//! Every write skilltui makes goes through here: files are written to a
//! temporary sibling and renamed, folders are staged inside the store and
//! swapped in with one atomic rename, so a crash leaves the old state or the
//! new one, never a mix.

use crate::core::error::WriteError;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub mod inside;

/// Prefix of the staging folders skilltui makes inside the store (and of
/// its temporary files beside a profile). They hold the skill one level
/// down, so CAO never takes them for a skill; the `..` is what no skill
/// name may hold (CAO refuses it, as `store::check_name` does), so a
/// scratch name can never be a user's skill.
pub const STAGING_PREFIX: &str = ".skilltui..";

/// Random characters `tempfile` puts after the prefix (its default).
const SCRATCH_RANDOM_LEN: usize = 6;

/// True only for a name skilltui's scratch takes: the prefix, then
/// exactly the random part `tempfile` adds.
fn is_scratch_name(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .and_then(|n| n.strip_prefix(STAGING_PREFIX))
        .is_some_and(|r| {
            r.len() == SCRATCH_RANDOM_LEN && r.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Files CAO itself leaves out when it copies a skill.
const NEVER_COPIED: &[&str] = &[".cao-projection.json"];

/// Absolute, with symlinks resolved where the path exists (Python's
/// `Path.resolve()`).
pub fn absolute(p: &Path) -> PathBuf {
    fs::canonicalize(p)
        .unwrap_or_else(|_| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// Why a symlink inside `root` cannot be copied as what it points to, or
/// `None` when it resolves to a file or a folder inside `root` that does
/// not hold the link (which copying would follow forever).
pub fn symlink_problem(root: &Path, link: &Path) -> Option<&'static str> {
    let Ok(target) = fs::canonicalize(link) else {
        return Some("is a symlink that leads nowhere (a missing target or a loop of links)");
    };
    if !fs::canonicalize(root).is_ok_and(|r| target.starts_with(r)) {
        return Some("is a symlink that points outside the skill folder");
    }
    let parent = link.parent().and_then(|p| fs::canonicalize(p).ok());
    if target.is_dir() && parent.is_some_and(|p| p.starts_with(&target)) {
        return Some("is a symlink to a folder that holds it (a loop)");
    }
    None
}

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
        Err(not_regular())
    }
}

/// Opens `root/rel` for reading as [`open_regular`] does, but only if its
/// real path stays inside `root`'s: a SKILL.md (or any file skilltui
/// shows of a skill) that is a link to `/proc/self/environ` or
/// `~/.aws/credentials` is refused unread, with an error saying where it
/// leads. A file that is no link costs no more than `open_regular`: a
/// single name is opened without following a link, and only a link is
/// resolved.
///
/// A regular file with more than one name (`st_nlink > 1`) is refused the
/// same way: a hard link to `~/.aws/credentials` named SKILL.md is a plain
/// file in the folder, and its other name may be anywhere on the device.
/// This holds for what the agents' dirs hold (a cloned repository's
/// `.claude/skills`), never for CAO's store, whose verdict stays CAO's
/// (CAO reads a hard-linked SKILL.md there, and so does the store's
/// listing). A legitimate hard link (a package manager's shared store,
/// `cp -al`) is refused too; a copy reads. Git never checks a file out as a
/// hard link.
pub fn open_inside(root: &Path, rel: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let (file, meta) = open_inside_linked(root, rel)?;
    use std::os::unix::fs::MetadataExt;
    if meta.nlink() > 1 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "has {} names (a hard link; its other names may be anywhere): skilltui never reads it; replace it with a copy",
                meta.nlink()
            ),
        ));
    }
    Ok((file, meta))
}

/// Where `root/rel` really leads when that is outside `root`'s real path
/// (a link out), else `None`: the store's Preview names it rather than
/// drawing it, while CAO's verdict on the skill stays CAO's.
pub fn leads_out(root: &Path, rel: &Path) -> Option<PathBuf> {
    let real_root = fs::canonicalize(root).ok()?;
    let real = fs::canonicalize(root.join(rel)).ok()?;
    (!real.starts_with(&real_root)).then_some(real)
}

/// [`open_inside`] before the hard-link check.
fn open_inside_linked(root: &Path, rel: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let path = root.join(rel);
    if rel.components().count() == 1 {
        match open_no_follow(&path) {
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {}
            done => return done,
        }
    }
    let real_root = fs::canonicalize(root)?;
    let real = fs::canonicalize(&path)?;
    if !real.starts_with(&real_root) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "leads out of its folder (to {}): skilltui never reads it",
                real.display()
            ),
        ));
    }
    open_no_follow(&real)
}

/// [`open_regular`] without following a link at the last name (`ELOOP`
/// when it is one).
fn open_no_follow(path: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW)
        .open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok((file, meta))
    } else {
        Err(not_regular())
    }
}

fn not_regular() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "not a regular file (a folder, FIFO or device): replace it with a file",
    )
}

/// [`read_capped`] through [`open_inside`].
pub fn read_capped_inside(root: &Path, rel: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    read_opened(open_inside(root, rel)?, max)
}

/// The whole of a regular file (see [`open_regular`]).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular(path)?.0.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads `path` whole, as [`read_regular`], but refuses a file larger
/// than `max` bytes without reading it: a gigabyte where a small text is
/// expected must cost no memory. The error says the size and the limit.
pub fn read_capped(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    read_opened(open_regular(path)?, max)
}

fn read_opened(opened: (fs::File, fs::Metadata), max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let (file, meta) = opened;
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "is larger than the {} MiB skilltui reads (it holds {} MiB): shorten or replace it",
                max >> 20,
                meta.len().div_ceil(1 << 20)
            ),
        )
    };
    if meta.len() > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read stops at the limit too.
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A turn at rewriting the files of one folder: an exclusive `flock` on
/// the folder itself, held until dropped. Every skilltui writer that
/// checks a file's bytes before replacing it takes one, so two of them
/// never interleave their read, compare and exchange (with three or more,
/// the exchange and check alone can let one change vanish). Opening the
/// folder read-only makes no file in it.
pub struct Turn {
    dir: PathBuf,
    _handle: fs::File,
}

impl Turn {
    /// Waits for the turn on the folder `path` is written in.
    pub fn for_file(path: &Path) -> std::io::Result<Turn> {
        Turn::take(folder_of(path))
    }

    /// Waits for the turn on `dir`. Fails where the folder is missing,
    /// unreadable, or its filesystem has no `flock`.
    pub fn take(dir: &Path) -> std::io::Result<Turn> {
        let handle = fs::File::open(dir)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            loop {
                // SAFETY: the descriptor is open for the duration of the call.
                if unsafe { libc::flock(handle.as_raw_fd(), libc::LOCK_EX) } == 0 {
                    break;
                }
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
        Ok(Turn {
            dir: dir.to_path_buf(),
            _handle: handle,
        })
    }

    /// [`atomic_write`] for a caller that already holds the turn on the
    /// folder of `path` (to read, merge and write under one turn).
    pub fn atomic_write(
        &self,
        path: &Path,
        bytes: &[u8],
        expected: Option<&[u8]>,
    ) -> Result<(), WriteError> {
        debug_assert_eq!(folder_of(path), self.dir, "a turn on another folder");
        write(path, bytes, expected, false)
    }
}

/// What one read of a file shared by writers gave: the bytes it held and
/// the bytes to write over them (`None`: nothing to change).
pub struct Reread {
    pub read: Vec<u8>,
    pub new: Option<Vec<u8>>,
}

/// How often [`rewrite`] reads the file again after losing a race with
/// another writer before it gives up. Each lost race is another writer's
/// won one, so N writers at once need at most N tries: this bounds a
/// pathological case (a file rewritten nonstop), not a busy team.
const REWRITE_TRIES: usize = 1000;

/// Rewrites a file several processes change (the lock, the record of what
/// skilltui gave agents): under the folder's [`Turn`], `step` reads the
/// file and merges this process's changes over what it holds now, and the
/// result is written only over the bytes read. A writer that takes no turn
/// (an editor) makes the write fail: `step` reads and merges again. So no
/// change of another writer is ever lost, and none of ours.
pub fn rewrite(
    path: &Path,
    mut step: impl FnMut() -> Result<Reread, String>,
) -> Result<(), String> {
    // Without a turn (no folder, or no flock there) the write's own check
    // alone guards.
    let turn = Turn::for_file(path).ok();
    for attempt in 0..REWRITE_TRIES {
        let Reread { read, new } = step()?;
        let Some(new) = new else {
            return Ok(());
        };
        let written = match &turn {
            Some(turn) => turn.atomic_write(path, &new, Some(&read)),
            None => atomic_write(path, &new, Some(&read)),
        };
        match written {
            Ok(()) => return Ok(()),
            Err(WriteError::ChangedOnDisk(_)) => back_off(attempt),
            Err(e) => return Err(e.into()),
        }
    }
    Err(format!(
        "{} kept changing while skilltui wrote it ({REWRITE_TRIES} tries)",
        path.display()
    ))
}

/// A short wait, different for each process and growing a little with the
/// tries, so writers that keep colliding fall out of step.
fn back_off(attempt: usize) {
    let jitter = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| {
            d.subsec_nanos() as u64 ^ u64::from(std::process::id())
        });
    let micros = 200 + jitter % 2000 + 100 * attempt.min(50) as u64;
    std::thread::sleep(Duration::from_micros(micros));
}

/// The folder a file is written in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Writes `bytes` to `path` atomically. When `expected` is given, refuses
/// (and leaves the file as it is) if the file on disk no longer holds those
/// bytes: other skilltuis wait their [`Turn`], and since a writer that is
/// not skilltui takes none, the new file is exchanged in and what came out
/// is compared, so no change made meanwhile is overwritten.
pub fn atomic_write(path: &Path, bytes: &[u8], expected: Option<&[u8]>) -> Result<(), WriteError> {
    write(path, bytes, expected, true)
}

/// Writes the new file beside `path`, then swaps it in; only the swap
/// waits for the turn when `take_turn` says so (the caller may hold it).
fn write(
    path: &Path,
    bytes: &[u8],
    expected: Option<&[u8]>,
    take_turn: bool,
) -> Result<(), WriteError> {
    let dir = folder_of(path);
    clean_stale_staging(dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| WriteError::Io(format!("cannot write in {}: {e}", dir.display())))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| WriteError::Io(format!("cannot write {}: {e}", path.display())))?;
    if let Ok(meta) = fs::metadata(path) {
        let _ = fs::set_permissions(tmp.path(), meta.permissions());
    }
    // Without a turn (no flock there) the exchange and check still guard.
    let turn = (take_turn && expected.is_some())
        .then(|| Turn::take(dir).ok())
        .flatten();
    let swapped = swap_in(tmp, path, bytes, expected);
    drop(turn);
    if swapped.is_ok() {
        sync_dir(dir);
    }
    swapped
}

/// Puts `tmp` at `path`; with `expected`, only over a file that holds it.
fn swap_in(
    tmp: tempfile::NamedTempFile,
    path: &Path,
    bytes: &[u8],
    expected: Option<&[u8]>,
) -> Result<(), WriteError> {
    let changed = || WriteError::ChangedOnDisk(path.to_path_buf());
    if let Some(expected) = expected {
        let now = read_regular(path);
        if expected.is_empty() && matches!(&now, Err(e) if e.kind() == std::io::ErrorKind::NotFound)
        {
            // Read as absent: create it, but never over a file that appeared meanwhile.
            return match tmp.persist_noclobber(path) {
                Ok(_) => Ok(()),
                Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Err(changed()),
                Err(e) => Err(WriteError::Io(format!(
                    "cannot write {}: {}",
                    path.display(),
                    e.error
                ))),
            };
        }
        if now.ok().as_deref() != Some(expected) {
            return Err(changed());
        }
        if exchange(tmp.path(), path).is_ok() {
            // `tmp` now names the file that was at `path`.
            if read_regular(tmp.path()).ok().as_deref() == Some(expected) {
                return Ok(());
            }
            put_back(tmp.path(), path, bytes);
            return Err(changed());
        }
    }
    tmp.persist(path)
        .map_err(|e| WriteError::Io(format!("cannot replace {}: {}", path.display(), e.error)))?;
    Ok(())
}

/// Undoes an exchange whose swapped-out file was not the one read. Should
/// a writer have replaced `path` in between, its file is what comes back
/// out, and it goes in again: the newest write stays.
fn put_back(ours: &Path, path: &Path, bytes: &[u8]) {
    if exchange(ours, path).is_ok() && read_regular(ours).ok().as_deref() != Some(bytes) {
        let _ = exchange(ours, path);
    }
}

fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
}

/// Makes a rename in `dir` durable (best effort: some filesystems refuse).
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// A folder copied into a staging area inside `store`, ready to swap in.
pub struct Staged {
    dir: tempfile::TempDir,
    name: String,
    /// Already flushed to disk (by [`flush_staged`]).
    flushed: bool,
}

impl Staged {
    pub fn path(&self) -> PathBuf {
        self.dir.path().join(&self.name)
    }
}

/// Copies `src` (following symlinks that stay inside it, refusing any that
/// leave it) into a staging folder inside `store`.
pub fn stage_copy(src: &Path, store: &Path, name: &str) -> Result<Staged, String> {
    stage_walked(src, store, name, Links::StayInside, None)
}

/// Copies `src` into a staging folder inside `store` as Python's
/// `shutil.copytree` does for `cao init`: every file, every symlink
/// followed to what it points at, wherever that is.
pub fn stage_copy_all(src: &Path, store: &Path, name: &str) -> Result<Staged, String> {
    stage_walked(src, store, name, Links::Follow, None)
}

/// Walks `src` as `links` says, refusing it over `limits` or with a
/// symlink it cannot copy before anything is written, then copies what
/// the walk listed into a staging folder inside `store`.
pub fn stage_walked(
    src: &Path,
    store: &Path,
    name: &str,
    links: Links,
    limits: Option<&Limits>,
) -> Result<Staged, String> {
    let walked = walk(src, links, limits)?;
    if let Some(problem) = walked.problems.first() {
        return Err(format!("{problem}: replace it with the file itself"));
    }
    let staged = stage_empty(store, name)?;
    copy_walked(&walked, &staged.path())?;
    Ok(staged)
}

/// Copies `src` as [`stage_copy`] does into the folder `staged` (from
/// [`stage_empty`]), so a caller can note the staging folder (for a
/// signal's clean-up) before the copy starts; stops once `stop` says so.
pub fn copy_into(src: &Path, staged: &Staged, stop: &dyn Fn() -> bool) -> Result<(), String> {
    let walked = walk(src, Links::StayInside, None)?;
    if let Some(problem) = walked.problems.first() {
        return Err(format!("{problem}: replace it with the file itself"));
    }
    copy_walked_until(&walked, &staged.path(), stop)
}

/// How a walk (and the copy it serves) treats symlinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// As `cao skills add`: follow those that stay inside the folder,
    /// refuse the others, leave out CAO's bookkeeping files.
    StayInside,
    /// As `cao init`: follow them all, copy everything.
    Follow,
    /// For a skill from a repository: a link that stays inside is written
    /// as a link, so links to links cannot multiply what is written; the
    /// others are refused, CAO's bookkeeping files left out.
    Keep,
}

/// Hard limits on what a copy writes; the walk stops at the first one
/// crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Files, folders and links.
    pub entries: u64,
    pub file_bytes: u64,
    pub total_bytes: u64,
}

/// Folders deeper than this are not walked (named as a problem).
pub const MAX_DEPTH: usize = 32;

/// One entry a copy writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File { len: u64, executable: bool },
    Link(PathBuf),
}

#[derive(Clone, Debug)]
pub struct Item {
    /// Relative to the walked root.
    pub rel: PathBuf,
    /// Where it is read from.
    pub from: PathBuf,
    pub kind: Kind,
}

/// What a walk found: every entry a copy writes, in path order (a folder
/// before what it holds), their total, and what cannot be copied.
#[derive(Clone, Debug, Default)]
pub struct Walked {
    pub items: Vec<Item>,
    pub bytes: u64,
    /// One line per entry that cannot be copied (a symlink leaving the
    /// folder, a folder nested too deeply), relative path first.
    pub problems: Vec<String>,
    /// The symlinks among those, by relative path, with why (the audit
    /// names each as a finding).
    pub bad_links: Vec<(PathBuf, &'static str)>,
}

/// The one walk behind a copy, its limits, the lints and the lock's hash:
/// what a copy of `root` writes, at any depth up to [`MAX_DEPTH`]. Fails
/// only when `root` cannot be read or a limit is crossed (then at once, so
/// a hostile tree costs no more than the limit).
pub fn walk(root: &Path, links: Links, limits: Option<&Limits>) -> Result<Walked, String> {
    walk_leaving_out(root, links, limits, |_| false)
}

/// [`walk`], with the entries whose name `left_out` accepts never looked
/// at: not listed, not descended into, not counted against `limits`.
pub fn walk_leaving_out(
    root: &Path,
    links: Links,
    limits: Option<&Limits>,
    left_out: impl Fn(&std::ffi::OsStr) -> bool,
) -> Result<Walked, String> {
    let mut out = Walked::default();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            let from = entry.path();
            let name = entry.file_name();
            if (links != Links::Follow && NEVER_COPIED.iter().any(|n| name == *n))
                || left_out(&name)
            {
                continue;
            }
            let rel = from.strip_prefix(root).unwrap_or(&from).to_path_buf();
            let Some(kind) = walk_kind(root, &from, &rel, links, &mut out) else {
                continue;
            };
            if let Kind::File { len, .. } = kind {
                out.bytes += len;
                check_limits(limits, &rel, len, out.bytes, out.items.len() as u64 + 1)?;
            } else {
                check_limits(limits, &rel, 0, out.bytes, out.items.len() as u64 + 1)?;
            }
            if kind == Kind::Dir {
                if depth + 1 > MAX_DEPTH {
                    out.problems.push(format!(
                        "{} is nested more than {MAX_DEPTH} folders deep",
                        rel.display()
                    ));
                    continue;
                }
                stack.push((from.clone(), depth + 1));
            }
            out.items.push(Item { rel, from, kind });
        }
    }
    out.items.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

/// What `from` is written as, or `None` when it is left out (a special
/// file, or a symlink noted in `problems` and `bad_links`).
fn walk_kind(root: &Path, from: &Path, rel: &Path, links: Links, out: &mut Walked) -> Option<Kind> {
    let lmeta = fs::symlink_metadata(from).ok()?;
    let meta = if lmeta.file_type().is_symlink() {
        if links != Links::Follow
            && let Some(why) = symlink_problem(root, from)
        {
            out.problems.push(format!("{} {why}", rel.display()));
            out.bad_links.push((rel.to_path_buf(), why));
            return None;
        }
        if links == Links::Keep {
            return fs::read_link(from).ok().map(Kind::Link);
        }
        fs::metadata(from).ok()?
    } else {
        lmeta
    };
    if meta.is_dir() {
        Some(Kind::Dir)
    } else if meta.is_file() {
        Some(Kind::File {
            len: meta.len(),
            executable: is_executable(&meta),
        })
    } else {
        None
    }
}

fn check_limits(
    limits: Option<&Limits>,
    rel: &Path,
    len: u64,
    total: u64,
    entries: u64,
) -> Result<(), String> {
    let Some(l) = limits else {
        return Ok(());
    };
    let mib = |b: u64| b / (1024 * 1024);
    if len > l.file_bytes {
        return Err(format!(
            "{} is over {} MiB",
            rel.display(),
            mib(l.file_bytes)
        ));
    }
    if total > l.total_bytes {
        return Err(format!("it holds over {} MiB", mib(l.total_bytes)));
    }
    if entries > l.entries {
        return Err(format!("it holds over {} files", l.entries));
    }
    Ok(())
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

/// Writes what `walked` lists under `dest` (which must not exist).
fn copy_walked(walked: &Walked, dest: &Path) -> Result<(), String> {
    copy_walked_until(walked, dest, &|| false)
}

/// [`copy_walked`], stopping (with an error) before the next item once
/// `stop` says so: Ctrl-C ends a copy of thousands of files at once,
/// not once it is done.
fn copy_walked_until(walked: &Walked, dest: &Path, stop: &dyn Fn() -> bool) -> Result<(), String> {
    fs::create_dir(dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    for item in &walked.items {
        if stop() {
            return Err("stopped by a signal: nothing was kept".into());
        }
        let to = dest.join(&item.rel);
        let done = match &item.kind {
            Kind::Dir => fs::create_dir(&to),
            Kind::File { .. } => fs::copy(&item.from, &to).map(|_| ()),
            Kind::Link(target) => make_link(target, &to),
        };
        done.map_err(|e| format!("cannot copy {}: {e}", item.from.display()))?;
    }
    Ok(())
}

#[cfg(unix)]
fn make_link(target: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, to)
}

#[cfg(not(unix))]
fn make_link(_target: &Path, to: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other(format!(
        "{} is a symlink, which this system cannot copy",
        to.display()
    )))
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
        flushed: false,
    })
}

fn store_error(store: &Path, e: &std::io::Error) -> String {
    format!(
        "cannot write to the skill store {}: {e}: check its permissions",
        store.display()
    )
}

/// Moves a staged folder to `dest`, which must not exist.
pub fn install_new(staged: Staged, dest: &Path) -> Result<(), String> {
    if !staged.flushed {
        sync_staged(&staged.path());
    }
    let done = fs::rename(staged.path(), dest);
    sync_parent(dest);
    done.map_err(|e| match e.kind() {
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
    if !staged.flushed {
        sync_staged(&new);
    }
    if exchange(&new, dest).is_ok() {
        sync_parent(dest);
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
    sync_parent(dest);
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

/// Deletes, on a thread of its own, the staging folders and temporary files
/// a crashed run left in `dir` (named as only they can be, and older than
/// ten minutes, so a concurrent run's work is never touched): gigabytes of leftovers must not hold up
/// the command. What an exiting process leaves undone, the next run does.
pub fn clean_stale_staging(dir: &Path) -> Option<std::thread::JoinHandle<()>> {
    let dir = dir.to_path_buf();
    std::thread::Builder::new()
        .name("skilltui-clean".into())
        .spawn(move || remove_stale(&dir))
        .ok()
}

fn remove_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let cutoff = SystemTime::now() - Duration::from_secs(600);
    for entry in entries.flatten() {
        // Not a name check by prefix alone: a user's `.skilltui-notes`
        // skill, however old, is theirs.
        let ours = is_scratch_name(&entry.file_name());
        // Not followed: a link is removed, never what it points to.
        let Ok(meta) = entry.metadata() else { continue };
        if !ours || meta.modified().map_or(true, |t| t >= cutoff) {
            continue;
        }
        let _ = match meta.is_dir() {
            true => fs::remove_dir_all(entry.path()),
            false => fs::remove_file(entry.path()),
        };
    }
}

/// Flushes several staged folders with one [`sync_staged`]: `syncfs` (or
/// `sync`) flushes the whole filesystem, which holds them all (the store's).
pub fn flush_staged<'a>(staged: impl Iterator<Item = &'a mut Staged>) {
    let staged: Vec<&mut Staged> = staged.collect();
    if let Some(first) = staged.first() {
        sync_staged(&first.path());
    }
    for s in staged {
        s.flushed = true;
    }
}

/// Flushes the staged files and folders to disk before they are renamed
/// into place, so a power loss leaves the old skill or the new one, never
/// an empty one. One `syncfs` costs far less than a fsync per file.
fn sync_staged(staged: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(d) = fs::File::open(staged) {
        use std::os::fd::AsRawFd;
        // SAFETY: the descriptor is open for the duration of the call.
        unsafe { libc::syncfs(d.as_raw_fd()) };
        return;
    }
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() };
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
    let (added, removed, common) = split_keys(&a, &b);
    let changed = common
        .into_iter()
        .filter(|rel| !same_bytes(&old.join(rel), &new.join(rel)))
        .collect();
    FolderDiff {
        added,
        removed,
        changed,
    }
}

/// (only in `b`, only in `a`, in both), each in its list's order, with
/// hashed look-ups: a 100k-file replace must not compare every pair.
fn split_keys<K: std::hash::Hash + Eq + Clone>(a: &[K], b: &[K]) -> (Vec<K>, Vec<K>, Vec<K>) {
    let in_a: std::collections::HashSet<&K> = a.iter().collect();
    let in_b: std::collections::HashSet<&K> = b.iter().collect();
    let (common, added) = b.iter().cloned().partition(|k| in_a.contains(k));
    let removed = a.iter().filter(|k| !in_b.contains(k)).cloned().collect();
    (added, removed, common)
}

fn same_bytes(a: &Path, b: &Path) -> bool {
    read_regular(a).ok() == read_regular(b).ok()
}

fn list_files(root: &Path) -> Vec<String> {
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
                    let rel = path.strip_prefix(root).unwrap_or(&path);
                    out.push(rel.display().to_string());
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_walk_stops_at_the_first_limit_crossed() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for i in 0..6 {
            fs::write(root.join(format!("f{i}")), [0u8; 100]).unwrap();
        }
        let limits = |entries, file_bytes, total_bytes| Limits {
            entries,
            file_bytes,
            total_bytes,
        };
        let walked = walk(root, Links::Keep, Some(&limits(6, 100, 600))).unwrap();
        assert_eq!((walked.items.len(), walked.bytes), (6, 600));
        let e = walk(root, Links::Keep, Some(&limits(5, 100, 600))).unwrap_err();
        assert_eq!(e, "it holds over 5 files");
        let e = walk(root, Links::Keep, Some(&limits(6, 99, 600))).unwrap_err();
        assert!(e.ends_with("is over 0 MiB"), "{e}");
        let e = walk(root, Links::Keep, Some(&limits(6, 100, 599))).unwrap_err();
        assert_eq!(e, "it holds over 0 MiB");
    }

    thread_local! {
        static COMPARISONS: Cell<usize> = const { Cell::new(0) };
    }

    #[derive(Clone)]
    struct Counted(usize);

    impl std::hash::Hash for Counted {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.0.hash(state);
        }
    }

    impl PartialEq for Counted {
        fn eq(&self, other: &Self) -> bool {
            COMPARISONS.set(COMPARISONS.get() + 1);
            self.0 == other.0
        }
    }
    impl Eq for Counted {}

    #[test]
    fn folder_diff_is_linear_in_the_number_of_files() {
        let n = 20_000;
        let a: Vec<Counted> = (0..n).map(Counted).collect();
        let b: Vec<Counted> = (n / 2..n + n / 2).map(Counted).collect();
        let (added, removed, common) = split_keys(&a, &b);
        assert_eq!(
            (added.len(), removed.len(), common.len()),
            (n / 2, n / 2, n / 2)
        );
        assert_eq!(added[0].0, n);
        assert_eq!(removed[0].0, 0);
        // Hashed look-ups compare a few times per file, not once per pair.
        assert!(
            COMPARISONS.get() < 4 * n,
            "{} comparisons",
            COMPARISONS.get()
        );
    }

    fn age(path: &Path, secs: u64) {
        let t = SystemTime::now() - Duration::from_secs(secs);
        fs::File::open(path).unwrap().set_modified(t).unwrap();
    }

    #[test]
    fn crash_leftovers_are_cleaned_off_the_callers_thread() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let stale_dir = d.join(".skilltui..stale1");
        assert!(is_scratch_name(stale_dir.file_name().unwrap()));
        let staged = stage_empty(d, "x").unwrap();
        assert!(is_scratch_name(staged.dir.path().file_name().unwrap()));
        drop(staged);
        fs::create_dir_all(stale_dir.join("x/y")).unwrap();
        fs::write(stale_dir.join("x/y/f"), "f").unwrap();
        for (name, secs) in [
            (".skilltui..old1md", 3600),
            (".skilltui..new1md", 0),
            ("mine.md", 3600),
            // Users' own, however old: not a name skilltui's scratch takes.
            (".skilltui-notes.md", 3600),
            (".skilltui..notes.md", 3600),
        ] {
            fs::write(d.join(name), "t").unwrap();
            age(&d.join(name), secs);
        }
        age(&stale_dir, 3600);
        let skill = d.join(".skilltui-mine");
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join("SKILL.md"), "---\nname: .skilltui-mine\n---\n").unwrap();
        age(&skill, 3600);
        let cleaner = clean_stale_staging(d).unwrap();
        assert_ne!(cleaner.thread().id(), std::thread::current().id());
        cleaner.join().unwrap();
        let mut left: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".skilltui-mine",
                ".skilltui-notes.md",
                ".skilltui..new1md",
                ".skilltui..notes.md",
                "mine.md"
            ]
        );
    }

    #[test]
    fn a_profile_write_clears_old_temp_files_beside_it() {
        let tmp = tempfile::tempdir().unwrap();
        let (leftover, profile) = (
            tmp.path().join(".skilltui..k1k1k1"),
            tmp.path().join("p.md"),
        );
        fs::write(&leftover, "half a profile").unwrap();
        age(&leftover, 3600);
        fs::write(&profile, "old").unwrap();
        atomic_write(&profile, b"new", Some(b"old")).unwrap();
        assert_eq!(fs::read(&profile).unwrap(), b"new");
        // The cleaner runs on its own thread: wait for it, not for a time.
        for _ in 0..500 {
            if !leftover.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the stale temp file is still there");
    }

    #[test]
    fn a_file_read_as_absent_is_created_but_never_over_one_that_appeared() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = tmp.path().join("skilltui.lock");
        atomic_write(&lock, b"ours", Some(b"")).unwrap();
        assert_eq!(fs::read(&lock).unwrap(), b"ours");
        let other = tmp.path().join("other.lock");
        fs::write(&other, "a teammate's").unwrap();
        assert!(atomic_write(&other, b"ours", Some(b"")).is_err());
        assert_eq!(fs::read(&other).unwrap(), b"a teammate's");
    }
}
