//! Unpacking a downloaded `.tar.gz`/`.tgz` or `.zip` into a fresh staging
//! folder, within bounds: 25 MiB unpacked, 1,000 entries, no entry that
//! leaves the folder (`../`, an absolute path, a link pointing out, a path
//! through a link), no device, FIFO, sparse file or hard link, no long-name
//! or pax header over 8 KiB, and no zip bomb's ratio. A `.tar.gz` counts
//! every decompressed byte (headers and skipped entries too) toward the
//! size and ratio bounds. The first bound crossed stops the unpack with one
//! short line naming the entry.

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use crate::core::text::sanitize_line;

/// The most an archive may unpack to.
pub const MAX_UNPACKED: u64 = 25 << 20;
/// The most entries (files, folders, links) an archive may hold.
pub const MAX_ENTRIES: u64 = 1_000;
/// Unpacked bytes per packed byte above which an archive is a bomb (text
/// compresses about 3 to 10 times; a bomb thousands). Applies past
/// [`RATIO_FLOOR`] bytes, so a tiny file of one repeated byte still passes.
pub const MAX_RATIO: u64 = 100;
const RATIO_FLOOR: u64 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    TarGz,
    Zip,
}

impl Kind {
    /// The archive kind a URL's path ends with (`.tar.gz`, `.tgz`, `.zip`).
    pub fn of_url(url: &str) -> Option<Kind> {
        let path = url
            .split(['?', '#'])
            .next()
            .unwrap_or(url)
            .to_ascii_lowercase();
        if path.ends_with(".tar.gz") || path.ends_with(".tgz") {
            Some(Kind::TarGz)
        } else if path.ends_with(".zip") {
            Some(Kind::Zip)
        } else {
            None
        }
    }

    /// The kind the bytes are, by their magic number.
    pub fn sniff(bytes: &[u8]) -> Option<Kind> {
        match bytes {
            [0x1f, 0x8b, ..] => Some(Kind::TarGz),
            [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => Some(Kind::Zip),
            _ => None,
        }
    }
}

/// Unpacks `bytes` into `into` (an empty folder that exists); returns the
/// bytes of the files written.
pub fn unpack(bytes: &[u8], kind: Kind, into: &Path) -> Result<u64, String> {
    let mut out = Unpacker {
        root: into.to_path_buf(),
        packed: bytes.len() as u64,
        unpacked: 0,
        entries: 0,
        links: HashSet::new(),
        placed: HashSet::new(),
    };
    match kind {
        Kind::TarGz => untar(bytes, &mut out)?,
        Kind::Zip => unzip(bytes, &mut out)?,
    }
    Ok(out.unpacked)
}

/// The most a GNU long name or link (`L`, `K`) or a pax header (`x`, `g`)
/// may hold: a path is at most 4 KiB on Linux. Checked against the header's
/// size before its data is read (the `tar` crate, left to itself, reads a
/// long name whole into memory, however large).
pub const MAX_HEADER: u64 = 8 << 10;
/// The longest entry name or link target an error line shows.
const SHOWN_NAME: usize = 120;

/// `name` for an error line: sanitized, and cut to [`SHOWN_NAME`] characters.
fn shown(name: &str) -> String {
    let clean = sanitize_line(name);
    match clean.char_indices().nth(SHOWN_NAME) {
        Some((i, _)) => format!("{}…", &clean[..i]),
        None => clean.into_owned(),
    }
}

/// The decompressed stream of a `.tar.gz`, counted as it is read: the first
/// read past [`MAX_UNPACKED`] or past [`MAX_RATIO`] times the packed size
/// fails, whatever the bytes are for (headers, padding, skipped entries).
struct Counted<R> {
    inner: R,
    packed: u64,
    read: u64,
    /// Why the stream was cut, for the error line (the `tar` crate wraps
    /// the read error in its own words).
    cut: std::rc::Rc<std::cell::Cell<Option<String>>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        let why = if self.read > MAX_UNPACKED {
            Some(too_big())
        } else if self.read > RATIO_FLOOR && self.read / self.packed.max(1) > MAX_RATIO {
            Some(format!(
                "the archive unpacks to more than {MAX_RATIO} times its size (a zip bomb): refused"
            ))
        } else {
            None
        };
        match why {
            Some(why) => {
                self.cut.set(Some(why.clone()));
                Err(std::io::Error::other(why))
            }
            None => Ok(n),
        }
    }
}

/// What the extension headers before an entry said about it.
#[derive(Default)]
struct Pending {
    name: Option<Vec<u8>>,
    link: Option<Vec<u8>>,
    size: Option<u64>,
}

impl Pending {
    /// Takes in an `L`, `K` or `x` header's data (already capped).
    fn take_in(&mut self, kind: tar::EntryType, data: Vec<u8>) -> Result<(), String> {
        let strip = |mut d: Vec<u8>| {
            while d.last() == Some(&0) {
                d.pop();
            }
            d
        };
        if kind.is_gnu_longname() {
            self.name = Some(strip(data));
        } else if kind.is_gnu_longlink() {
            self.link = Some(strip(data));
        } else if kind.is_pax_local_extensions() {
            for ext in tar::PaxExtensions::new(&data) {
                let ext = ext.map_err(|_| "the archive's pax header is malformed: refused")?;
                match ext.key_bytes() {
                    b"path" => self.name = Some(ext.value_bytes().to_vec()),
                    b"linkpath" => self.link = Some(ext.value_bytes().to_vec()),
                    b"size" => {
                        let size = ext.value().ok().and_then(|v| v.parse().ok());
                        self.size =
                            Some(size.ok_or("the archive's pax size is not a number: refused")?);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

fn untar(bytes: &[u8], out: &mut Unpacker) -> Result<(), String> {
    let cut = std::rc::Rc::new(std::cell::Cell::new(None));
    let counted = Counted {
        // Several gzip members one after the other are one valid stream
        // (what `cat a.gz b.gz` makes; GNU tar reads it whole).
        inner: flate2::read::MultiGzDecoder::new(bytes),
        packed: bytes.len() as u64,
        read: 0,
        cut: cut.clone(),
    };
    let mut archive = tar::Archive::new(counted);
    let bad = |e: std::io::Error| match cut.take() {
        Some(why) => why,
        None => format!(
            "the archive is not a readable .tar.gz: {}",
            shown(&e.to_string())
        ),
    };
    let mut pending = Pending::default();
    // Raw: the long-name and pax headers come to us, to be capped here.
    for entry in archive.entries().map_err(bad)?.raw(true) {
        let mut entry = entry.map_err(bad)?;
        use tar::EntryType as T;
        let kind = entry.header().entry_type();
        if kind.is_gnu_longname()
            || kind.is_gnu_longlink()
            || kind.is_pax_local_extensions()
            || kind.is_pax_global_extensions()
        {
            out.count()?;
            if entry.size() > MAX_HEADER {
                return Err(format!(
                    "the archive holds a long-name or pax header of {} bytes (more than {MAX_HEADER}): refused",
                    entry.size()
                ));
            }
            let mut data = Vec::new();
            (&mut entry)
                .take(MAX_HEADER)
                .read_to_end(&mut data)
                .map_err(bad)?;
            pending.take_in(kind, data)?;
            continue;
        }
        let taken = std::mem::take(&mut pending);
        let raw = taken
            .name
            .unwrap_or_else(|| entry.path_bytes().into_owned());
        let name = String::from_utf8_lossy(&raw).into_owned();
        if taken.size.is_some_and(|s| s != entry.size()) {
            return Err(format!(
                "the archive gives {} two sizes (its pax header and its header disagree): refused",
                shown(&name)
            ));
        }
        match kind {
            T::Directory => out.dir(&name)?,
            T::Regular | T::Continuous => {
                let exec = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
                out.file(&name, &mut entry, exec)?
            }
            T::Symlink => {
                let target = match taken.link {
                    Some(t) => t,
                    None => entry.link_name_bytes().unwrap_or_default().into_owned(),
                };
                out.link(&name, &String::from_utf8_lossy(&target))?
            }
            T::Link => {
                return Err(format!(
                    "the archive holds a hard link ({}): skilltui does not unpack links between entries",
                    shown(&name)
                ));
            }
            T::Char | T::Block | T::Fifo => {
                return Err(format!(
                    "the archive holds a device or FIFO ({}): a skill holds files only",
                    shown(&name)
                ));
            }
            T::GNUSparse => {
                return Err(format!(
                    "the archive holds a sparse file ({}): a skill holds plain files only",
                    shown(&name)
                ));
            }
            // Anything else (a volume label, a vendor's type) is counted
            // and skipped: its bytes still count toward the limits.
            _ => out.count()?,
        }
    }
    Ok(())
}

fn unzip(bytes: &[u8], out: &mut Unpacker) -> Result<(), String> {
    let bad = |e: zip::result::ZipError| format!("the archive is not a readable .zip: {e}");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(bad)?;
    if archive.len() as u64 > MAX_ENTRIES {
        return Err(too_many());
    }
    // The zip crate keeps one entry per name (the last): a name the
    // central directory lists twice is found here, before any is read.
    if archive.has_duplicate_names() {
        let named = first_twin(bytes, archive.central_directory_start());
        return Err(twice(named.as_deref().unwrap_or("one path")));
    }
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).map_err(bad)?;
        let name = file.name().map_err(bad)?.into_owned();
        let declared = file.size();
        let packed = file.compressed_size().max(1);
        if declared > RATIO_FLOOR && declared / packed > MAX_RATIO {
            return Err(bomb(&name));
        }
        let mode = file.unix_mode().unwrap_or(0o644);
        let kind = mode & 0o170000;
        if file.is_dir() {
            out.dir(&name)?;
        } else if file.is_symlink() {
            let mut target = String::new();
            (&mut file)
                .take(4096)
                .read_to_string(&mut target)
                .map_err(|e| format!("the archive is not a readable .zip: {e}"))?;
            out.link(&name, &target)?;
        } else if kind != 0 && kind != 0o100000 {
            return Err(format!(
                "the archive holds a device or FIFO ({}): a skill holds files only",
                shown(&name)
            ));
        } else {
            out.file(&name, &mut file, mode & 0o111 != 0)?;
        }
    }
    Ok(())
}

fn twice(name: &str) -> String {
    format!(
        "the archive holds {} twice: refused (which copy is meant is a guess)",
        shown(name)
    )
}

/// The first name the central directory (at `start`) lists twice,
/// read from its records: signature, 42 bytes of fields, then the name,
/// extra field and comment whose lengths sit at offsets 28, 30 and 32.
fn first_twin(bytes: &[u8], start: u64) -> Option<String> {
    let mut seen = HashSet::new();
    let mut at = usize::try_from(start).ok()?;
    for _ in 0..=MAX_ENTRIES {
        let record = bytes.get(at..at + 46)?;
        if &record[..4] != b"PK\x01\x02" {
            return None;
        }
        let len = |i: usize| usize::from(u16::from_le_bytes([record[i], record[i + 1]]));
        let name = bytes.get(at + 46..at + 46 + len(28))?;
        if !seen.insert(name) {
            return Some(String::from_utf8_lossy(name).into_owned());
        }
        at += 46 + len(28) + len(30) + len(32);
    }
    None
}

fn too_big() -> String {
    format!(
        "the archive unpacks to more than {} MiB: that is not a skill",
        MAX_UNPACKED >> 20
    )
}

fn too_many() -> String {
    format!("the archive holds more than {MAX_ENTRIES} files: that is not a skill")
}

fn bomb(name: &str) -> String {
    format!(
        "the archive unpacks {} to more than {MAX_RATIO} times its size (a zip bomb): refused",
        shown(name)
    )
}

/// Writes entries under `root`, counting against the bounds.
struct Unpacker {
    root: PathBuf,
    packed: u64,
    unpacked: u64,
    entries: u64,
    /// The links written so far (relative): nothing is written through one.
    links: HashSet<PathBuf>,
    /// Every path placed so far, normalised: an archive naming one path
    /// twice is refused, since which copy lands is the unpacker's guess.
    placed: HashSet<PathBuf>,
}

impl Unpacker {
    /// One more entry or header read, refused past [`MAX_ENTRIES`].
    fn count(&mut self) -> Result<(), String> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(too_many());
        }
        Ok(())
    }

    /// The entry's path under the root, refused when it climbs out, is
    /// absolute, or passes through a link written before it.
    fn place(&mut self, name: &str) -> Result<Option<PathBuf>, String> {
        self.count()?;
        let rel = Path::new(name);
        let named = || shown(name);
        let mut clean = PathBuf::new();
        for c in rel.components() {
            match c {
                Component::Normal(p) => {
                    if self.links.contains(&clean) && !clean.as_os_str().is_empty() {
                        return Err(format!(
                            "the archive writes {} through a link it holds: refused",
                            named()
                        ));
                    }
                    clean.push(p);
                }
                Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Err(format!(
                        "the archive holds {}, which leaves its folder (an absolute path or '..'): refused",
                        named()
                    ));
                }
            }
        }
        if self.links.contains(&clean) {
            return Err(format!(
                "the archive writes {} through a link it holds: refused",
                named()
            ));
        }
        if clean.as_os_str().is_empty() {
            return Ok(None);
        }
        if !self.placed.insert(clean.clone()) {
            return Err(twice(&clean.to_string_lossy()));
        }
        Ok(Some(clean))
    }

    fn dir(&mut self, name: &str) -> Result<(), String> {
        if let Some(rel) = self.place(name)? {
            fs::create_dir_all(self.root.join(rel)).map_err(cannot_write)?;
        }
        Ok(())
    }

    fn file(&mut self, name: &str, from: &mut dyn Read, exec: bool) -> Result<(), String> {
        let Some(rel) = self.place(name)? else {
            return Ok(());
        };
        let path = self.root.join(&rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(cannot_write)?;
        }
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if exec { 0o755 } else { 0o644 });
        }
        let mut file = options.open(&path).map_err(|e| {
            format!(
                "the archive holds {} twice or over a folder: {e}",
                shown(name)
            )
        })?;
        let room = MAX_UNPACKED - self.unpacked;
        let mut buf = [0u8; 64 * 1024];
        let mut limited = from.take(room + 1);
        loop {
            let n = limited
                .read(&mut buf)
                .map_err(|e| format!("cannot unpack {}: {e}", shown(name)))?;
            if n == 0 {
                break;
            }
            self.unpacked += n as u64;
            if self.unpacked > MAX_UNPACKED {
                return Err(too_big());
            }
            if self.unpacked > RATIO_FLOOR && self.unpacked / self.packed.max(1) > MAX_RATIO {
                return Err(bomb(name));
            }
            file.write_all(&buf[..n]).map_err(cannot_write)?;
        }
        Ok(())
    }

    /// A link whose target, read from where the link sits, stays inside.
    fn link(&mut self, name: &str, target: &str) -> Result<(), String> {
        let Some(rel) = self.place(name)? else {
            return Ok(());
        };
        let mut depth = rel.components().count() as i64 - 1;
        let mut inside = !target.is_empty() && !target.starts_with('/');
        for c in Path::new(target).components() {
            match c {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => depth -= 1,
                _ => inside = false,
            }
            inside &= depth >= 0;
        }
        if !inside {
            return Err(format!(
                "the archive holds a link {} → {} that points outside it: refused",
                shown(name),
                shown(target)
            ));
        }
        let path = self.root.join(&rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(cannot_write)?;
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(target, &path).map_err(cannot_write)?;
        self.links.insert(rel);
        Ok(())
    }
}

fn cannot_write(e: std::io::Error) -> String {
    format!("cannot write the staging folder: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_gz(build: impl FnOnce(&mut tar::Builder<Vec<u8>>)) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        build(&mut b);
        let raw = b.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&raw).unwrap();
        gz.finish().unwrap()
    }

    fn add(b: &mut tar::Builder<Vec<u8>>, path: &str, body: &[u8]) {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // `set_path` refuses `..`: a hostile archive writes the bytes itself.
        let name = &mut h.as_old_mut().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        h.set_cksum();
        b.append(&h, body).unwrap();
    }

    fn link(b: &mut tar::Builder<Vec<u8>>, path: &str, target: &str, kind: tar::EntryType) {
        let mut h = tar::Header::new_gnu();
        h.set_size(0);
        h.set_entry_type(kind);
        h.set_path(path).unwrap();
        h.set_link_name(target).unwrap();
        h.set_cksum();
        b.append(&h, &[][..]).unwrap();
    }

    fn run(bytes: &[u8]) -> (tempfile::TempDir, Result<u64, String>) {
        let dir = tempfile::tempdir().unwrap();
        let kind = Kind::sniff(bytes).unwrap();
        let r = unpack(bytes, kind, dir.path());
        (dir, r)
    }

    #[test]
    fn a_plain_archive_unpacks_with_its_modes() {
        let bytes = tar_gz(|b| {
            add(b, "s/SKILL.md", b"---\nname: s\n---\n");
            add(b, "./s/run.sh", b"echo");
            link(b, "s/again.md", "SKILL.md", tar::EntryType::Symlink);
        });
        let (dir, r) = run(&bytes);
        r.unwrap();
        assert!(dir.path().join("s/SKILL.md").is_file());
        assert_eq!(
            fs::read_link(dir.path().join("s/again.md")).unwrap(),
            Path::new("SKILL.md")
        );
    }

    #[test]
    fn entries_that_leave_the_folder_are_refused() {
        for (what, bytes) in [
            ("..", tar_gz(|b| add(b, "../evil", b"x"))),
            ("..", tar_gz(|b| add(b, "a/../../evil", b"x"))),
            ("absolute", tar_gz(|b| add(b, "/tmp/evil", b"x"))),
            (
                "outside",
                tar_gz(|b| link(b, "s/l", "../../etc", tar::EntryType::Symlink)),
            ),
            (
                "outside",
                tar_gz(|b| link(b, "s/l", "/etc/passwd", tar::EntryType::Symlink)),
            ),
            (
                "through a link",
                tar_gz(|b| {
                    link(b, "s/l", ".", tar::EntryType::Symlink);
                    add(b, "s/l/x", b"x");
                }),
            ),
            (
                "hard link",
                tar_gz(|b| link(b, "s/h", "/etc/passwd", tar::EntryType::Link)),
            ),
        ] {
            let (dir, r) = run(&bytes);
            let e = r.unwrap_err();
            assert!(e.contains(what), "{what}: {e}");
            assert!(!dir.path().parent().unwrap().join("evil").exists());
        }
    }

    #[test]
    fn devices_are_refused() {
        let bytes = tar_gz(|b| {
            let mut h = tar::Header::new_gnu();
            h.set_size(0);
            h.set_entry_type(tar::EntryType::Fifo);
            h.set_path("s/pipe").unwrap();
            h.set_cksum();
            b.append(&h, &[][..]).unwrap();
        });
        assert!(run(&bytes).1.unwrap_err().contains("device or FIFO"));
    }

    #[test]
    fn the_bounds_stop_the_unpack() {
        let many = tar_gz(|b| {
            for i in 0..=MAX_ENTRIES {
                add(b, &format!("f{i}"), b"x");
            }
        });
        assert!(run(&many).1.unwrap_err().contains("more than 1000 files"));
        // One repeated byte: a bomb by its ratio long before 25 MiB.
        let bomb = tar_gz(|b| add(b, "big", &vec![0u8; 8 << 20]));
        assert!(run(&bomb).1.unwrap_err().contains("zip bomb"));
        // Random bytes do not compress: the size bound speaks.
        let mut noise = vec![0u8; (MAX_UNPACKED + 1) as usize];
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for b in noise.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        let big = tar_gz(|b| add(b, "big", &noise));
        assert!(run(&big).1.unwrap_err().contains("more than 25 MiB"));
    }

    /// A `.tar.gz` of one raw header of `kind` declaring `size` bytes of
    /// `fill`, streamed (never held whole), then a plain SKILL.md.
    fn header_then_skill(kind: tar::EntryType, size: u64, fill: u8) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let mut h = tar::Header::new_gnu();
        h.set_size(size);
        h.set_entry_type(kind);
        h.as_old_mut().name[..9].copy_from_slice(b"././@Long");
        h.set_cksum();
        gz.write_all(h.as_bytes()).unwrap();
        let chunk = vec![fill; 1 << 20];
        let mut left = size.next_multiple_of(512);
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            gz.write_all(&chunk[..n]).unwrap();
            left -= n as u64;
        }
        let mut b = tar::Builder::new(Vec::new());
        add(&mut b, "s/SKILL.md", b"---\nname: s\n---\n");
        gz.write_all(&b.into_inner().unwrap()).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn long_name_and_pax_headers_are_capped_before_they_are_read() {
        for kind in [
            tar::EntryType::GNULongName,
            tar::EntryType::GNULongLink,
            tar::EntryType::XHeader,
            tar::EntryType::XGlobalHeader,
        ] {
            let bytes = header_then_skill(kind, 16 << 20, b'a');
            assert!(bytes.len() < 300 << 10, "{}", bytes.len());
            let (dir, r) = run(&bytes);
            let e = r.unwrap_err();
            assert!(e.contains("long-name or pax header"), "{kind:?}: {e:.300}");
            assert!(e.len() < 200, "{kind:?}: {} bytes", e.len());
            assert!(fs::read_dir(dir.path()).unwrap().next().is_none());
        }
        // A long name within the cap names its entry, cut short in errors.
        let long = format!("s/{}", "n".repeat(3000));
        let bytes = tar_gz(|b| {
            let mut h = tar::Header::new_gnu();
            h.set_size(0);
            h.set_entry_type(tar::EntryType::Fifo);
            b.append_data(&mut h, &long, &[][..]).unwrap();
        });
        let e = run(&bytes).1.unwrap_err();
        assert!(e.contains("device or FIFO") && e.len() < 300, "{e}");
    }

    #[test]
    fn every_decompressed_byte_counts_and_pax_cannot_lie_about_sizes() {
        // An entry type nobody unpacks still has its 30 MiB read.
        let mut noise = vec![0u8; 30 << 20];
        let mut x: u64 = 0x2545f4914f6cdd1d;
        for b in noise.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        let skipped = tar_gz(|b| {
            let mut h = tar::Header::new_gnu();
            h.set_size(noise.len() as u64);
            h.set_entry_type(tar::EntryType::new(b'V'));
            h.set_path("label").unwrap();
            h.set_cksum();
            b.append(&h, &noise[..]).unwrap();
        });
        assert!(run(&skipped).1.unwrap_err().contains("more than 25 MiB"));
        // Zeros a header says nothing about: a bomb by its ratio.
        let zeros = header_then_skill(tar::EntryType::new(b'V'), 20 << 20, 0);
        assert!(run(&zeros).1.unwrap_err().contains("zip bomb"));
        // A pax `size` other than the header's: two readers would disagree.
        let lying = tar_gz(|b| {
            b.append_pax_extensions([("size", &b"999"[..])]).unwrap();
            add(b, "s/SKILL.md", b"---\nname: s\n---\n");
        });
        assert!(run(&lying).1.unwrap_err().contains("two sizes"));
        // A pax path is the entry's name, and is held to the same rules.
        let renamed = tar_gz(|b| {
            b.append_pax_extensions([("path", &b"../evil"[..])])
                .unwrap();
            add(b, "s/SKILL.md", b"x");
        });
        assert!(run(&renamed).1.unwrap_err().contains("leaves its folder"));
        let sparse = tar_gz(|b| {
            let mut h = tar::Header::new_gnu();
            h.set_size(0);
            h.set_entry_type(tar::EntryType::GNUSparse);
            h.set_path("s/holes").unwrap();
            h.set_cksum();
            b.append(&h, &[][..]).unwrap();
        });
        assert!(run(&sparse).1.unwrap_err().contains("sparse"));
    }

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, body) in entries {
            w.start_file(*name, opts).unwrap();
            w.write_all(body).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    /// The offset of the first central directory record and of the end
    /// record in a zip written by `zip_of`.
    fn zip_records(z: &[u8]) -> (usize, usize) {
        let find = |sig: &[u8]| z.windows(4).rposition(|w| w == sig).unwrap();
        (find(b"PK\x01\x02"), find(b"PK\x05\x06"))
    }

    fn noise(len: usize, mut x: u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    /// Second round, zip: one entry's data named by several central
    /// directory records (an overlapping-entries bomb), sizes the headers
    /// lie about, and names that differ only in Unicode normalisation.
    #[test]
    fn overlapping_entries_lying_sizes_and_look_alike_names() {
        // Six records over one 6 MiB entry: 36 MiB unpacked from 6 MiB.
        let one = zip_of(&[("a/f0", &noise(6 << 20, 7))]);
        let (cd, end) = zip_records(&one);
        let record = one[cd..end].to_vec();
        let mut z = one[..end].to_vec();
        for i in 1..6u8 {
            let mut r = record.clone();
            let at = r.len() - 1;
            r[at] = b'0' + i;
            z.extend_from_slice(&r);
        }
        let mut tail = one[end..].to_vec();
        tail[8..10].copy_from_slice(&6u16.to_le_bytes());
        tail[10..12].copy_from_slice(&6u16.to_le_bytes());
        tail[12..16].copy_from_slice(&((record.len() * 6) as u32).to_le_bytes());
        z.extend_from_slice(&tail);
        let (_, r) = run(&z);
        let e = r.unwrap_err();
        assert!(e.contains("more than 25 MiB"), "{e}");

        // A header saying 10 bytes over 20 MiB of zeros: what is read counts.
        let liar = zip_of(&[("big", &vec![0u8; 20 << 20])]);
        let mut z = liar;
        let (cd, _) = zip_records(&z);
        z[22..26].copy_from_slice(&10u32.to_le_bytes());
        z[cd + 24..cd + 28].copy_from_slice(&10u32.to_le_bytes());
        let (dir, r) = run(&z);
        let written = fs::metadata(dir.path().join("big")).map_or(0, |m| m.len());
        assert!(r.unwrap_err().contains("larger than its declared"));
        assert!(written <= 10, "{written} bytes");

        // `é` composed and decomposed: two files, neither overwriting the other.
        let nfc = "s/caf\u{e9}.md";
        let nfd = "s/cafe\u{301}.md";
        let z = zip_of(&[(nfc, b"one"), (nfd, b"two"), ("s/SKILL.md", b"x")]);
        let (dir, r) = run(&z);
        r.unwrap();
        assert_eq!(fs::read(dir.path().join(nfc)).unwrap(), b"one");
        assert_eq!(fs::read(dir.path().join(nfd)).unwrap(), b"two");
    }

    /// A zip whose central directory names one path twice (the second
    /// record's name patched to the first's): the zip crate keeps the
    /// last, so without a check the second copy is what installs.
    #[test]
    fn a_path_held_twice_is_refused_by_name() {
        let z = zip_of(&[("s/SKILL.md", b"first"), ("s/SKILL.mx", b"second")]);
        // `zip_records` gives the last record: the second of two.
        let (second, _) = zip_records(&z);
        let mut z = z;
        let name_at = second + 46;
        assert_eq!(&z[name_at..name_at + 10], b"s/SKILL.mx");
        z[name_at + 9] = b'd';
        let (dir, r) = run(&z);
        let e = r.unwrap_err();
        assert!(e.contains("s/SKILL.md twice"), "{e}");
        assert!(!dir.path().join("s/SKILL.md").exists());
        // After normalisation, in a zip and in a tar; case is not folded.
        let z = zip_of(&[("s/a.md", b"1"), ("s/./a.md", b"2")]);
        assert!(run(&z).1.unwrap_err().contains("s/a.md twice"));
        let t = tar_gz(|b| {
            add(b, "s//a.md", b"1");
            add(b, "s/a.md", b"2");
        });
        assert!(run(&t).1.unwrap_err().contains("s/a.md twice"));
        let cased = tar_gz(|b| {
            add(b, "s/A.md", b"1");
            add(b, "s/a.md", b"2");
        });
        run(&cased).1.unwrap();
    }

    /// `cat a.gz b.gz`: two gzip members, one stream, as GNU tar reads it;
    /// the second member's bytes count toward the same bounds.
    #[test]
    fn a_gzip_of_several_members_is_read_whole() {
        let mut b = tar::Builder::new(Vec::new());
        add(&mut b, "s/SKILL.md", b"---\nname: s\n---\n");
        add(&mut b, "s/more.md", b"more");
        let raw = b.into_inner().unwrap();
        let member = |part: &[u8]| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(part).unwrap();
            gz.finish().unwrap()
        };
        let mut two = member(&raw[..1024]);
        two.extend(member(&raw[1024..]));
        let (dir, r) = run(&two);
        r.unwrap();
        assert_eq!(fs::read(dir.path().join("s/more.md")).unwrap(), b"more");
        let mut b = tar::Builder::new(Vec::new());
        add(&mut b, "s/SKILL.md", b"---\nname: s\n---\n");
        add(&mut b, "s/zeros", &vec![0u8; 8 << 20]);
        let raw = b.into_inner().unwrap();
        let mut bomb = member(&raw[..1024]);
        bomb.extend(member(&raw[1024..]));
        assert!(run(&bomb).1.unwrap_err().contains("zip bomb"));
    }

    #[test]
    fn zips_unpack_and_hostile_ones_are_refused() {
        let ok = zip_of(&[("s/SKILL.md", b"---\nname: s\n---\n")]);
        let (dir, r) = run(&ok);
        r.unwrap();
        assert!(dir.path().join("s/SKILL.md").is_file());
        let slip = zip_of(&[("../../evil", b"x")]);
        assert!(run(&slip).1.unwrap_err().contains("leaves its folder"));
        let bomb = zip_of(&[("big", &vec![0u8; 4 << 20])]);
        assert!(run(&bomb).1.unwrap_err().contains("zip bomb"));
    }
}
