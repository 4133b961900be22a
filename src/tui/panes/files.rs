//! A skill's other files (the third stage of progressive disclosure: the
//! references and scripts SKILL.md points to). The Preview pane lists them
//! with their sizes and shows one: Markdown rendered, code highlighted, a
//! binary file named and never printed. Listing and reading are bounded;
//! links are listed, never followed.

use std::io::Read;
use std::path::{Path, PathBuf};

use ratatui::text::{Line, Span};

use crate::core::fsops;
use crate::core::text::sanitize_line;
use crate::tui::markdown::{Highlighter, Rendered, render_shifted};
use crate::tui::theme::Theme;

/// Rows listed at most: a skill with a vendored tree still lists fast.
const MAX_ROWS: usize = 500;
/// Folders deeper than this are listed, not entered.
const MAX_DEPTH: usize = 8;
/// Bytes of a file shown at most; the rest is said to be cut.
pub const MAX_SHOWN_BYTES: u64 = 256 * 1024;
/// Bytes looked at to tell text from binary.
const SNIFF_BYTES: usize = 8 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A symbolic link: shown with where it points, never followed.
    Link(String),
    /// A FIFO, socket or device.
    Other,
}

/// One row of the list: a path under the skill folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRow {
    /// Relative to the skill folder, `/`-separated (not sanitized).
    pub rel: String,
    pub path: PathBuf,
    pub size: u64,
    pub kind: Kind,
    pub depth: usize,
}

impl FileRow {
    pub fn opens(&self) -> bool {
        self.kind == Kind::File
    }
}

/// The files and folders under `folder`, folders first at each level and
/// by name, SKILL.md left out (the preview shows it); at most `MAX_ROWS`.
pub fn list(folder: &Path) -> (Vec<FileRow>, bool) {
    let mut rows = Vec::new();
    let cut = walk(folder, folder, 0, &mut rows);
    (rows, cut)
}

/// Lists `dir` into `rows`; true when rows were left out.
fn walk(root: &Path, dir: &Path, depth: usize, rows: &mut Vec<FileRow>) -> bool {
    let Ok(read) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut entries: Vec<(bool, String, PathBuf, std::fs::Metadata)> = read
        .flatten()
        .filter_map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            let name = e.file_name().to_string_lossy().into_owned();
            Some((!meta.is_dir(), name, e.path(), meta))
        })
        .collect();
    entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    for (_, name, path, meta) in entries {
        if depth == 0 && name == "SKILL.md" {
            continue;
        }
        if rows.len() >= MAX_ROWS {
            return true;
        }
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        let kind = if meta.file_type().is_symlink() {
            let to = std::fs::read_link(&path).unwrap_or_default();
            Kind::Link(to.to_string_lossy().into_owned())
        } else if meta.is_dir() {
            Kind::Dir
        } else if meta.is_file() {
            Kind::File
        } else {
            Kind::Other
        };
        let is_dir = kind == Kind::Dir;
        rows.push(FileRow {
            rel,
            path: path.clone(),
            size: meta.len(),
            kind,
            depth,
        });
        if is_dir && depth < MAX_DEPTH && walk(root, &path, depth + 1, rows) {
            return true;
        }
    }
    false
}

/// `1.2 KiB`, `340 B`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    }
}

/// One list row: indented name, then its size or what it is.
pub fn row_line(row: &FileRow, theme: &Theme) -> Line<'static> {
    let indent = "  ".repeat(row.depth);
    let name = sanitize_line(row.rel.rsplit('/').next().unwrap_or(&row.rel)).into_owned();
    let (name, what, style) = match &row.kind {
        Kind::Dir => (format!("{name}/"), String::new(), theme.accent),
        Kind::File => (name, size(row.size), theme.base),
        Kind::Link(to) => (
            name,
            format!("→ {} (link, not followed)", sanitize_line(to)),
            theme.dim,
        ),
        Kind::Other => (name, "not a regular file".into(), theme.dim),
    };
    Line::from(vec![
        Span::raw(indent),
        Span::styled(name, style),
        Span::styled(format!("  {what}"), theme.dim),
    ])
}

/// The short list under SKILL.md's verdict: `N other files: a, b, c…`.
pub fn summary(rows: &[FileRow], cut: bool) -> Option<String> {
    let files: Vec<&FileRow> = rows.iter().filter(|r| r.kind != Kind::Dir).collect();
    if files.is_empty() {
        return None;
    }
    let more = if cut { "+" } else { "" };
    let names: Vec<&str> = files.iter().take(4).map(|r| r.rel.as_str()).collect();
    let tail = if files.len() > 4 { ", …" } else { "" };
    Some(format!(
        "▸ {}{more} other file{}: {}{tail} (o lists them)",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

/// What a file holds, as shown: its text (cut at `MAX_SHOWN_BYTES`), or
/// why it is not shown.
#[derive(Debug, PartialEq, Eq)]
pub enum Content {
    Text { text: String, cut: bool },
    Binary,
    Unreadable(String),
}

pub fn read(path: &Path) -> Content {
    let (file, meta) = match fsops::open_regular(path) {
        Ok(f) => f,
        Err(e) => return Content::Unreadable(e.to_string()),
    };
    let mut bytes = Vec::new();
    if let Err(e) = file.take(MAX_SHOWN_BYTES).read_to_end(&mut bytes) {
        return Content::Unreadable(e.to_string());
    }
    let cut = meta.len() > MAX_SHOWN_BYTES;
    if bytes[..bytes.len().min(SNIFF_BYTES)].contains(&0) {
        return Content::Binary;
    }
    match String::from_utf8(bytes) {
        Ok(text) => Content::Text { text, cut },
        // Cut inside a character: drop the broken end.
        Err(e) if cut && e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            Content::Text {
                text: String::from_utf8(bytes).unwrap_or_default(),
                cut,
            }
        }
        Err(_) => Content::Binary,
    }
}

/// A file rendered for the preview: Markdown as Markdown, anything else
/// as a code block in the language its extension names, its code
/// scrolled `code_shift` columns sideways.
pub fn render(
    path: &Path,
    width: u16,
    code_shift: u16,
    theme: &Theme,
    hl: &Highlighter,
) -> Rendered {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let (text, cut) = match read(path) {
        Content::Text { text, cut } => (text, cut),
        Content::Binary => {
            let msg = format!("binary file, {}: not shown", self::size(size));
            return note(Line::styled(msg, theme.dim));
        }
        Content::Unreadable(e) => {
            let msg = format!("cannot read it: {}", sanitize_line(&e));
            return note(Line::styled(msg, theme.error));
        }
    };
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let markdown = match ext.as_str() {
        "md" | "markdown" => text,
        _ => fenced(&text, &ext),
    };
    let mut rendered = render_shifted(&markdown, width, code_shift, theme, hl);
    if cut {
        let note = format!(
            "… cut at {}; the file has {}",
            self::size(MAX_SHOWN_BYTES),
            self::size(size)
        );
        rendered.lines.push(Line::styled(note, theme.dim));
    }
    rendered
}

/// One line in place of the file.
fn note(line: Line<'static>) -> Rendered {
    Rendered {
        lines: vec![line],
        code_overflow: 0,
    }
}

/// `text` as a fenced code block whose fence no line of it can close.
fn fenced(text: &str, lang: &str) -> String {
    let longest = text
        .lines()
        .map(|l| l.trim_start().chars().take_while(|&c| c == '`').count())
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    // A language tag must be one word (a hostile extension is not).
    let lang = if lang.chars().all(|c| c.is_ascii_alphanumeric()) {
        lang
    } else {
        ""
    };
    format!("{fence}{lang}\n{text}\n{fence}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn lists_folders_first_with_sizes_and_leaves_skill_md_out() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        fs::write(d.join("SKILL.md"), "x").unwrap();
        fs::write(d.join("REFERENCE.md"), "abc").unwrap();
        fs::create_dir(d.join("scripts")).unwrap();
        fs::write(d.join("scripts/run.py"), vec![b'a'; 2048]).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc", d.join("out")).unwrap();
        let (rows, cut) = list(d);
        assert!(!cut);
        let shown: Vec<(&str, u64, usize)> = rows
            .iter()
            .filter(|r| !matches!(r.kind, Kind::Link(_)))
            .map(|r| (r.rel.as_str(), if r.opens() { r.size } else { 0 }, r.depth))
            .collect();
        assert_eq!(
            shown,
            [
                ("scripts", 0, 0),
                ("scripts/run.py", 2048, 1),
                ("REFERENCE.md", 3, 0)
            ]
        );
        #[cfg(unix)]
        assert!(rows.iter().any(|r| r.kind == Kind::Link("/etc".into())));
        assert_eq!(size(2048), "2.0 KiB");
    }

    #[test]
    fn a_huge_tree_is_cut_and_says_so() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..(MAX_ROWS + 5) {
            fs::write(tmp.path().join(format!("f{i}")), "").unwrap();
        }
        let (rows, cut) = list(tmp.path());
        assert_eq!(rows.len(), MAX_ROWS);
        assert!(cut);
        assert!(
            summary(&rows, cut)
                .unwrap()
                .starts_with("▸ 500+ other files")
        );
    }

    #[test]
    fn binary_is_named_never_printed_and_big_text_is_cut() {
        let tmp = tempfile::tempdir().unwrap();
        let bin = tmp.path().join("logo.png");
        fs::write(&bin, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\x1b[31m").unwrap();
        assert_eq!(read(&bin), Content::Binary);
        let latin1 = tmp.path().join("old.txt");
        fs::write(&latin1, b"caf\xe9").unwrap();
        assert_eq!(read(&latin1), Content::Binary);
        let big = tmp.path().join("big.txt");
        let mut text = "é".repeat(MAX_SHOWN_BYTES as usize);
        text.push('!');
        fs::write(&big, &text).unwrap();
        match read(&big) {
            Content::Text { text, cut } => {
                assert!(cut && text.len() as u64 <= MAX_SHOWN_BYTES);
                assert!(text.chars().all(|c| c == 'é'));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn code_is_fenced_so_that_no_line_closes_the_fence() {
        let f = fenced("a\n````\nb", "py");
        assert!(f.starts_with("`````py\n") && f.ends_with("\n`````\n"));
        assert!(fenced("x", "p y").starts_with("```\n"));
    }
}
