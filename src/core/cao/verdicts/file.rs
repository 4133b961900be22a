//! The kept verdicts on disk, one file per CAO home in the user's cache
//! dir, so that the TUI starts by re-stating the store rather than reading
//! it (154 MiB at 10,000 skills). A cache, never a source of truth: a
//! verdict is used only for a SKILL.md whose stamp is still the one it was
//! read with, and a file that is absent, cut, corrupt, too big or written
//! by another build of skilltui (whose checks may differ) is ignored whole.
//!
//! Format (integers little-endian): `MAGIC`, the build's identity, the
//! record count and a checksum of the records; then each record: the
//! folder's path bytes, its stamp, then its verdict (name, description,
//! errors, warnings, body bytes).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use sha2::{Digest, Sha256};

use super::{Stamp, Verdicts};
use crate::core::cao::skill::Checked;
use crate::core::fsops;

const MAGIC: &[u8] = b"skilltui verdicts 1\n";

/// 100,000 skills' verdicts are about 20 MiB: a bigger file is not ours.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// `$XDG_CACHE_HOME/skilltui/verdicts/<home>`, else under `~/.cache`;
/// `<home>` is a digest of the home's path, so each home has its own.
/// `None` when neither is absolute (`HOME=` empty or relative): a cache
/// is never made under the working directory.
pub fn path_for(root: &Path, user_home: &Path) -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from);
    let cache = match xdg {
        Some(p) if p.is_absolute() => p,
        _ => Some(user_home.join(".cache")).filter(|p| p.is_absolute())?,
    };
    let digest = Sha256::digest(root.as_os_str().as_bytes());
    let name: String = digest[..10].iter().map(|b| format!("{b:02x}")).collect();
    Some(cache.join("skilltui").join("verdicts").join(name))
}

/// The verdicts in `path`; none when it cannot be used.
pub fn read(path: &Path) -> Verdicts {
    fsops::read_capped(path, MAX_BYTES)
        .ok()
        .and_then(|bytes| decode(&bytes, identity()))
        .unwrap_or_default()
}

/// Writes `verdicts` to `path` whole (staged, then renamed over).
pub fn write(path: &Path, verdicts: &Verdicts) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let bytes = encode(verdicts, identity());
    fsops::atomic_write(path, &bytes, None).map_err(|e| e.to_string())
}

/// This build: its version, and the executable's size and time, so that a
/// rebuilt skilltui (whose checks may have changed) reads every file again.
/// Taken once (the first read, at start): an executable replaced while
/// this one runs is another build, whose label this one must not write.
fn identity() -> &'static [u8] {
    use std::os::unix::fs::MetadataExt;
    static ID: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().and_then(std::fs::metadata);
        let exe = exe.map_or((0, 0, 0), |m| (m.size(), m.mtime(), m.mtime_nsec()));
        format!(
            "{} {} {} {}",
            env!("CARGO_PKG_VERSION"),
            exe.0,
            exe.1,
            exe.2
        )
        .into_bytes()
    })
}

fn encode(verdicts: &Verdicts, identity: &[u8]) -> Vec<u8> {
    let mut records = Vec::with_capacity(verdicts.len() * 200);
    for (folder, (stamp, c)) in verdicts {
        put_bytes(&mut records, folder.as_os_str().as_bytes());
        for n in [stamp.dev, stamp.ino, stamp.size] {
            records.extend_from_slice(&n.to_le_bytes());
        }
        for n in [stamp.mtime.0, stamp.mtime.1, stamp.ctime.0, stamp.ctime.1] {
            records.extend_from_slice(&n.to_le_bytes());
        }
        for text in [&c.name, &c.description] {
            match text {
                Some(t) => {
                    records.push(1);
                    put_bytes(&mut records, t.as_bytes());
                }
                None => records.push(0),
            }
        }
        for list in [&c.errors, &c.warnings] {
            records.extend_from_slice(&(list.len() as u32).to_le_bytes());
            for t in list {
                put_bytes(&mut records, t.as_bytes());
            }
        }
        records.extend_from_slice(&(c.body_bytes as u64).to_le_bytes());
    }
    let mut out = MAGIC.to_vec();
    put_bytes(&mut out, identity);
    out.extend_from_slice(&(verdicts.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&records).to_le_bytes());
    out.extend_from_slice(&records);
    out
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The verdicts `bytes` hold, or `None` for anything but a whole file
/// written by this build.
fn decode(bytes: &[u8], identity: &[u8]) -> Option<Verdicts> {
    let mut r = Reader(bytes.strip_prefix(MAGIC)?);
    if r.bytes()? != identity {
        return None;
    }
    let count = r.u64()?;
    let sum = r.u64()?;
    if checksum(r.0) != sum {
        return None;
    }
    // Each record takes 78 bytes at least (4 path length, 56 stamp, 2
    // flags, 8 list counts, 8 body size): a count beyond that is a lie.
    let count = usize::try_from(count)
        .ok()
        .filter(|&n| n <= r.0.len() / 78)?;
    let mut out = Verdicts::with_capacity_and_hasher(count, Default::default());
    for _ in 0..count {
        let folder = PathBuf::from(OsStr::from_bytes(r.bytes()?));
        let stamp = Stamp {
            dev: r.u64()?,
            ino: r.u64()?,
            size: r.u64()?,
            mtime: (r.i64()?, r.i64()?),
            ctime: (r.i64()?, r.i64()?),
        };
        let checked = Checked {
            path: PathBuf::new(),
            name: r.maybe_text()?,
            description: r.maybe_text()?,
            errors: r.texts()?,
            warnings: r.texts()?,
            body_bytes: usize::try_from(r.u64()?).ok()?,
        };
        out.insert(folder, (stamp, checked));
    }
    r.0.is_empty().then_some(out)
}

/// Bounds-checked reads from the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(usize::try_from(n).ok()?)
    }

    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }

    fn maybe_text(&mut self) -> Option<Option<String>> {
        match self.take(1)? {
            [0] => Some(None),
            [1] => Some(Some(self.text()?)),
            _ => None,
        }
    }

    fn texts(&mut self) -> Option<Vec<String>> {
        let n = self.u32()?;
        (0..n).map(|_| self.text()).collect()
    }
}

/// A 64-bit checksum of the records (a cut or flipped file, not an
/// attacker: whoever can write the user's cache can write the store).
fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h
}

/// Writes the newest verdicts handed to it, on one thread at a time, so
/// that a listing never waits for the disk and an older set never lands
/// after a newer one.
#[derive(Debug)]
pub struct Saver {
    path: PathBuf,
    state: Mutex<Saving>,
    idle: Condvar,
}

#[derive(Debug, Default)]
struct Saving {
    pending: Option<Arc<Verdicts>>,
    running: bool,
}

impl Saver {
    pub fn new(path: PathBuf) -> Arc<Saver> {
        Arc::new(Saver {
            path,
            state: Mutex::default(),
            idle: Condvar::new(),
        })
    }

    /// Hands `verdicts` to the writer thread, starting it if it is idle.
    pub fn save(self: &Arc<Self>, verdicts: Arc<Verdicts>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.pending = Some(verdicts);
        if !state.running {
            state.running = true;
            let me = Arc::clone(self);
            std::thread::spawn(move || me.run());
        }
    }

    fn run(&self) {
        loop {
            let next = {
                let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                match state.pending.take() {
                    Some(v) => v,
                    None => {
                        state.running = false;
                        self.idle.notify_all();
                        return;
                    }
                }
            };
            // A cache that cannot be written costs the next start a read
            // of every file, nothing else: the error is dropped.
            let _ = write(&self.path, &next);
        }
    }

    /// Returns once nothing is pending or being written.
    pub fn wait(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while state.running {
            state = self.idle.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Verdicts {
        let mut v = Verdicts::default();
        let stamp = Stamp {
            dev: 1,
            ino: 2,
            size: 3,
            mtime: (4, 5),
            ctime: (-6, 7),
        };
        let good = Checked {
            name: Some("a".into()),
            description: Some("does ☃ things".into()),
            body_bytes: 42,
            ..Checked::default()
        };
        let bad = Checked {
            errors: vec!["one".into(), "two".into()],
            warnings: vec!["w".into()],
            ..Checked::default()
        };
        v.insert("/s/a".into(), (stamp, good));
        v.insert(PathBuf::from(OsStr::from_bytes(b"/s/\xff")), (stamp, bad));
        v
    }

    fn same(a: &Verdicts, b: &Verdicts) -> bool {
        a.len() == b.len()
            && a.iter().all(|(k, (s, c))| {
                b.get(k)
                    .is_some_and(|(s2, c2)| s == s2 && format!("{c:?}") == format!("{c2:?}"))
            })
    }

    #[test]
    fn verdicts_round_trip_through_the_file() {
        let v = sample();
        let back = decode(&encode(&v, b"id"), b"id").expect("decodes");
        assert!(same(&v, &back), "{back:?}");
    }

    // Every way the file can go wrong leaves no verdict at all: a cut
    // anywhere, any one byte changed, another build's file, trailing junk.
    #[test]
    fn a_cut_changed_or_foreign_file_gives_no_verdicts() {
        let bytes = encode(&sample(), b"id");
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], b"id").is_none(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[i] ^= 0x10;
            assert!(decode(&flipped, b"id").is_none(), "byte {i} changed");
        }
        assert!(decode(&bytes, b"another build").is_none());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, b"id").is_none());
    }

    // A count that claims more records than the bytes could hold is
    // refused before anything is allocated for them.
    #[test]
    fn a_lying_count_allocates_nothing() {
        let mut bytes = MAGIC.to_vec();
        put_bytes(&mut bytes, b"id");
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        bytes.extend_from_slice(&checksum(&[]).to_le_bytes());
        assert!(decode(&bytes, b"id").is_none());
    }

    // A cache path that is a folder, a FIFO (never waited on), a link loop,
    // a sparse 1 GiB file or a file this build wrote and then cut gives no
    // verdicts, at once; a write there fails without touching the folder
    // or what it holds.
    #[test]
    fn a_hostile_cache_path_gives_no_verdicts_and_loses_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("dir");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("keep"), "mine").unwrap();
        let fifo = tmp.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let looped = tmp.path().join("loop");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        let huge = tmp.path().join("huge");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        let cut = tmp.path().join("cut");
        write(&cut, &sample()).unwrap();
        assert_eq!(read(&cut).len(), 2, "this build reads its own file");
        let bytes = std::fs::read(&cut).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        for path in [
            &dir,
            &fifo,
            &looped,
            &huge,
            &cut,
            &tmp.path().join("absent"),
        ] {
            assert!(read(path).is_empty(), "{}", path.display());
        }
        assert!(write(&dir, &sample()).is_err());
        assert_eq!(std::fs::read_to_string(dir.join("keep")).unwrap(), "mine");
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 5, "no staging file left: {names:?}");
    }

    // A skilltui rebuilt while one runs (`cargo build`, `cargo install`)
    // must not label what the running one saves as the new build's: the
    // new one would trust the old checks' verdicts.
    #[test]
    fn this_builds_identity_stays_when_the_executable_is_replaced() {
        let exe = std::env::current_exe().unwrap();
        let before = identity();
        let was = std::fs::metadata(&exe).unwrap().modified().unwrap();
        let later = was + std::time::Duration::from_secs(1);
        // By path: the running executable cannot be opened for writing.
        let c = std::ffi::CString::new(exe.as_os_str().as_bytes()).unwrap();
        let set = |t: std::time::SystemTime| {
            let d = t.duration_since(std::time::UNIX_EPOCH).unwrap();
            let ts = libc::timespec {
                tv_sec: d.as_secs() as libc::time_t,
                tv_nsec: d.subsec_nanos() as _,
            };
            let times = [ts, ts];
            // SAFETY: a NUL-terminated path and two timespecs.
            let rc = unsafe { libc::utimensat(libc::AT_FDCWD, c.as_ptr(), times.as_ptr(), 0) };
            assert_eq!(rc, 0);
        };
        set(later);
        let after = identity();
        set(was);
        assert_eq!(before, after);
    }

    #[test]
    fn each_home_has_its_own_file_under_the_cache_dir() {
        let user = Path::new("/u");
        let a = path_for(Path::new("/h/a"), user).unwrap();
        let b = path_for(Path::new("/h/b"), user).unwrap();
        assert_ne!(a, b);
        if std::env::var_os("XDG_CACHE_HOME").is_none() {
            // `HOME=` (empty) or relative gives no cache path, never
            // `./.cache` in the working directory.
            for home in ["", "rel"] {
                assert_eq!(path_for(Path::new("/h/a"), Path::new(home)), None);
            }
            assert!(
                a.starts_with("/u/.cache/skilltui/verdicts"),
                "{}",
                a.display()
            );
        }
    }
}
