//! Unpacking a downloaded `.tar.gz`/`.tgz` or `.zip` into a fresh staging
//! folder, within bounds: 25 MiB unpacked, 1,000 entries, no entry that
//! leaves the folder (`../`, an absolute path, a link pointing out, a path
//! through a link), no device or FIFO, and no zip bomb's ratio. The first
//! bound crossed stops the unpack with one line naming the entry.

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

/// Unpacks `bytes` into `into` (an empty folder that exists).
pub fn unpack(bytes: &[u8], kind: Kind, into: &Path) -> Result<(), String> {
    let mut out = Unpacker {
        root: into.to_path_buf(),
        packed: bytes.len() as u64,
        unpacked: 0,
        entries: 0,
        links: HashSet::new(),
    };
    match kind {
        Kind::TarGz => untar(bytes, &mut out),
        Kind::Zip => unzip(bytes, &mut out),
    }
}

fn untar(bytes: &[u8], out: &mut Unpacker) -> Result<(), String> {
    let gz = flate2::read::GzDecoder::new(bytes);
    let mut archive = tar::Archive::new(gz);
    let bad = |e: std::io::Error| format!("the archive is not a readable .tar.gz: {e}");
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let raw = entry.path_bytes().into_owned();
        let name = String::from_utf8_lossy(&raw).into_owned();
        use tar::EntryType as T;
        match entry.header().entry_type() {
            T::Directory => out.dir(&name)?,
            T::Regular | T::Continuous => {
                let exec = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
                out.file(&name, &mut entry, exec)?
            }
            T::Symlink => {
                let target = entry.link_name_bytes().unwrap_or_default().into_owned();
                out.link(&name, &String::from_utf8_lossy(&target))?
            }
            T::Link => {
                return Err(format!(
                    "the archive holds a hard link ({}): skilltui does not unpack links between entries",
                    sanitize_line(&name)
                ));
            }
            T::Char | T::Block | T::Fifo => {
                return Err(format!(
                    "the archive holds a device or FIFO ({}): a skill holds files only",
                    sanitize_line(&name)
                ));
            }
            // Headers (pax, GNU long names) are read by `tar` itself.
            _ => {}
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
                sanitize_line(&name)
            ));
        } else {
            out.file(&name, &mut file, mode & 0o111 != 0)?;
        }
    }
    Ok(())
}

fn too_many() -> String {
    format!("the archive holds more than {MAX_ENTRIES} files: that is not a skill")
}

fn bomb(name: &str) -> String {
    format!(
        "the archive unpacks {} to more than {MAX_RATIO} times its size (a zip bomb): refused",
        sanitize_line(name)
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
}

impl Unpacker {
    /// The entry's path under the root, refused when it climbs out, is
    /// absolute, or passes through a link written before it.
    fn place(&mut self, name: &str) -> Result<Option<PathBuf>, String> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(too_many());
        }
        let rel = Path::new(name);
        let shown = || sanitize_line(name).into_owned();
        let mut clean = PathBuf::new();
        for c in rel.components() {
            match c {
                Component::Normal(p) => {
                    if self.links.contains(&clean) && !clean.as_os_str().is_empty() {
                        return Err(format!(
                            "the archive writes {} through a link it holds: refused",
                            shown()
                        ));
                    }
                    clean.push(p);
                }
                Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Err(format!(
                        "the archive holds {}, which leaves its folder (an absolute path or '..'): refused",
                        shown()
                    ));
                }
            }
        }
        if self.links.contains(&clean) {
            return Err(format!(
                "the archive writes {} through a link it holds: refused",
                shown()
            ));
        }
        Ok((!clean.as_os_str().is_empty()).then_some(clean))
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
                sanitize_line(name)
            )
        })?;
        let room = MAX_UNPACKED - self.unpacked;
        let mut buf = [0u8; 64 * 1024];
        let mut limited = from.take(room + 1);
        loop {
            let n = limited
                .read(&mut buf)
                .map_err(|e| format!("cannot unpack {}: {e}", sanitize_line(name)))?;
            if n == 0 {
                break;
            }
            self.unpacked += n as u64;
            if self.unpacked > MAX_UNPACKED {
                return Err(format!(
                    "the archive unpacks to more than {} MiB: that is not a skill",
                    MAX_UNPACKED >> 20
                ));
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
                sanitize_line(name),
                sanitize_line(target)
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

    fn run(bytes: &[u8]) -> (tempfile::TempDir, Result<(), String>) {
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
