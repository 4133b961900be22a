//! The audit's walk and reads: every entry of the skill folder, symlinks
//! never followed out of it, each file opened once and read at most to a
//! cap. Binary files are read no further than their first block: only
//! their magic matters.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::finding::Finding;
use crate::core::fsops::{self, Kind, Links};

/// Files (and folders and links) one skill may hold for the walk to list
/// them all; past it nothing is read and the skill is not vouched for.
pub const MAX_ENTRIES: u64 = 10_000;
/// The bytes of one text file the line rules read.
pub const TEXT_CAP: u64 = 4 * 1024 * 1024;
/// The bytes read from one skill in all.
pub const SKILL_CAP: u64 = 64 * 1024 * 1024;
/// The first block, which decides text or binary.
const HEAD: usize = 8 * 1024;

/// A regular file of the skill (links inside the folder are not read
/// again: what they point to is read where it sits).
pub struct File {
    /// Relative, with `/`.
    pub rel: String,
    pub path: PathBuf,
}

/// The skill's files in path order; links that leave the folder, dangle or
/// loop become findings.
pub fn walk(folder: &Path, out: &mut Vec<Finding>) -> Vec<File> {
    let limits = fsops::Limits {
        entries: MAX_ENTRIES,
        file_bytes: u64::MAX,
        total_bytes: u64::MAX,
    };
    let walked = match fsops::walk(folder, Links::Keep, Some(&limits)) {
        Ok(w) => w,
        Err(e) => {
            out.push(Finding::new(
                "not-fully-scanned",
                ".",
                None,
                format!("the folder was not audited: {e}"),
            ));
            return Vec::new();
        }
    };
    for (rel, why) in &walked.bad_links {
        let rel = slashed(rel);
        let target = std::fs::read_link(folder.join(&rel))
            .map(|t| t.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(
            Finding::new("link-out", &rel, None, format!("{why}: not followed"))
                .with_excerpt(&format!("{rel} -> {target}"), 0),
        );
    }
    for p in walked.problems.iter().filter(|p| p.contains("nested")) {
        out.push(Finding::new(
            "not-fully-scanned",
            ".",
            None,
            format!("{p}: not audited below"),
        ));
    }
    walked
        .items
        .into_iter()
        .filter(|i| matches!(i.kind, Kind::File { .. }))
        .map(|i| File {
            rel: slashed(&i.rel),
            path: i.from,
        })
        .collect()
}

fn slashed(rel: &Path) -> String {
    let parts: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
    parts.join("/")
}

/// What one read gave: the text of a text file (up to [`TEXT_CAP`]), and
/// the bytes read.
pub struct Contents {
    pub text: Option<String>,
    pub bytes: u64,
}

/// Reads `file` once: the first block decides; a binary stops there (an
/// executable is a finding), a text file is read on to the cap.
pub fn read(budget: &mut u64, file: &File, out: &mut Vec<Finding>) -> Option<Contents> {
    if *budget == 0 {
        return None;
    }
    let Ok((handle, meta)) = fsops::open_regular(&file.path) else {
        return None;
    };
    let mut head = Vec::with_capacity(HEAD);
    let mut reader = handle.take((*budget).min(TEXT_CAP));
    (&mut reader)
        .take(HEAD as u64)
        .read_to_end(&mut head)
        .ok()?;
    if let Some(what) = executable(&head) {
        out.push(Finding::new(
            "executable-binary",
            &file.rel,
            None,
            format!("a {what} executable"),
        ));
    }
    if head.contains(&0) {
        *budget = budget.saturating_sub(head.len() as u64);
        return Some(Contents {
            text: None,
            bytes: head.len() as u64,
        });
    }
    let mut bytes = head;
    reader.read_to_end(&mut bytes).ok()?;
    *budget = budget.saturating_sub(bytes.len() as u64);
    if meta.len() > bytes.len() as u64 {
        out.push(Finding::new(
            "not-fully-scanned",
            &file.rel,
            None,
            format!(
                "only its first {} MiB of {} MiB were audited",
                bytes.len() >> 20,
                meta.len().div_ceil(1 << 20)
            ),
        ));
    }
    let len = bytes.len() as u64;
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Some(Contents {
        text: Some(text),
        bytes: len,
    })
}

/// The executable format `head` starts with, if any.
fn executable(head: &[u8]) -> Option<&'static str> {
    let word = |at: usize| -> Option<[u8; 4]> { head.get(at..at + 4)?.try_into().ok() };
    match word(0)? {
        [0x7f, b'E', b'L', b'F'] => Some("ELF"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf] | [0xce | 0xcf, 0xfa, 0xed, 0xfe] => Some("Mach-O"),
        // A fat Mach-O; a Java class file shares the magic but its next
        // word (the class version) is far above any count of slices.
        [0xca, 0xfe, 0xba, 0xbe] if word(4).is_some_and(|w| u32::from_be_bytes(w) < 32) => {
            Some("Mach-O (universal)")
        }
        [b'M', b'Z', ..] => {
            let at = u32::from_le_bytes(word(0x3c)?) as usize;
            (word(at)? == *b"PE\0\0").then_some("PE (Windows)")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::executable;

    #[test]
    fn magic_names_the_format() {
        let mut pe = vec![0u8; 0x90];
        pe[..2].copy_from_slice(b"MZ");
        pe[0x3c] = 0x80;
        pe[0x80..0x84].copy_from_slice(b"PE\0\0");
        assert_eq!(executable(&pe), Some("PE (Windows)"));
        assert_eq!(executable(b"\x7fELF\x02\x01"), Some("ELF"));
        assert_eq!(executable(b"\xcf\xfa\xed\xfe...."), Some("Mach-O"));
        assert_eq!(
            executable(b"\xca\xfe\xba\xbe\0\0\0\x02"),
            Some("Mach-O (universal)")
        );
        // Look-alikes: a Java class, a text starting with MZ, a PNG.
        assert_eq!(executable(b"\xca\xfe\xba\xbe\0\0\0\x34"), None);
        assert_eq!(executable(b"MZ is a postcode prefix in this table"), None);
        assert_eq!(executable(b"\x89PNG\r\n\x1a\n"), None);
    }
}
