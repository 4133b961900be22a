//! One skill folder: CAO's verdict on it (CAO 2.5.4 `utils/skills.py`), in
//! CAO's order, and the lints beyond CAO that warn but never block what CAO accepts.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::core::fsops;
use crate::core::parse::frontmatter::{self, Format, Frontmatter, Normalized};
use crate::core::parse::yaml::{Node, Style, Value};
use crate::core::text::py_strip;

/// SKILL.md files larger than this are refused outright: CAO would read
/// them whole into every agent that loads the skill.
pub const MAX_SKILL_MD_BYTES: u64 = 16 * 1024 * 1024;
/// A SKILL.md whose frontmatter is longer than this is refused before it
/// is parsed, as one over [`MAX_SKILL_MD_BYTES`] is (CAO 2.5.4 has no
/// limit and parses megabytes on every listing). The Agent Skills
/// specification caps `name` at 64 characters, `description` at 1,024 and
/// `compatibility` at 500: a real frontmatter is a few KiB.
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;
/// In every error of a limit above: a skill refused by skilltui, not CAO.
const OVER_LIMIT: &str = "over skilltui's";
const LINT_MAX_FILES: usize = 100;
const LINT_MAX_FILE_BYTES: u64 = 512 * 1024;
const LINT_MAX_FOLDER_BYTES: u64 = 2 * 1024 * 1024;

/// A skill folder as read from disk, with CAO's verdict and our lints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    pub path: PathBuf,
    /// The stripped `name` when it is a non-blank string.
    pub name: Option<String>,
    /// The stripped `description` when it is a non-blank string.
    pub description: Option<String>,
    /// Why CAO refuses the folder; empty when CAO loads it.
    pub errors: Vec<String>,
    /// Lints: never block what CAO accepts.
    pub warnings: Vec<String>,
    /// Bytes of the body an agent loads on demand (0 when unreadable).
    pub body_bytes: usize,
}

impl Checked {
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// A SKILL.md read and split, for callers that need the body or the
/// metadata (preview, `show`, catalog formats beyond CAO's).
#[derive(Clone, Debug)]
pub struct SkillDoc {
    pub frontmatter: Frontmatter,
    pub fm_text: String,
    pub had_bom: bool,
}

impl SkillDoc {
    /// A metadata string value (not stripped), if present and a string.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.frontmatter.get(key).and_then(|n| n.value.as_str())
    }

    /// Top-level metadata as (key, source text) pairs for display.
    pub fn pairs(&self) -> Vec<(String, String)> {
        metadata_pairs(&self.frontmatter, &self.fm_text)
    }
}

/// Top-level frontmatter entries as (key, value) text: strings as read,
/// anything else as written in the source.
pub fn metadata_pairs(fm: &Frontmatter, fm_text: &str) -> Vec<(String, String)> {
    let Some(Value::Map(pairs)) = fm.metadata().map(|m| &m.value) else {
        return Vec::new();
    };
    pairs
        .iter()
        .map(|(k, v)| (display_value(k, fm_text), display_value(v, fm_text)))
        .collect()
}

fn display_value(node: &Node, fm_text: &str) -> String {
    match &node.value {
        Value::Str(s) => s.clone(),
        _ => fm_text
            .get(node.span.clone())
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

/// Reads SKILL.md the way CAO does (UTF-8, universal newlines) and splits it.
pub fn read_doc(skill_md: &Path) -> Result<SkillDoc, String> {
    let text = read_text(skill_md)?;
    doc_from_text(&text)
}

/// Splits already-read text (the in-app editor validates unsaved text).
pub fn doc_from_text(text: &str) -> Result<SkillDoc, String> {
    split_doc(text, frontmatter::parse)
}

fn split_doc(
    text: &str,
    parse: fn(&str) -> Result<Frontmatter, frontmatter::ParseError>,
) -> Result<SkillDoc, String> {
    let norm = Normalized::new(text);
    check_frontmatter_len(&norm.text)?;
    let frontmatter = parse(&norm.text).map_err(|e| e.to_string())?;
    let fm_text = norm.text[frontmatter.fm_range.clone()].to_string();
    Ok(SkillDoc {
        frontmatter,
        fm_text,
        had_bom: text.starts_with('\u{feff}'),
    })
}

/// The one rule on how much frontmatter is parsed, for every reader of a
/// SKILL.md (`list`, `show`, `serve`, the editor).
fn check_frontmatter_len(norm: &str) -> Result<(), String> {
    let len = frontmatter::frontmatter_len(norm);
    if len <= MAX_FRONTMATTER_BYTES {
        return Ok(());
    }
    Err(format!(
        "SKILL.md's frontmatter is {} KiB, {OVER_LIMIT} {} KiB limit: keep `description` short and move long text into the body",
        len.div_ceil(1024),
        MAX_FRONTMATTER_BYTES / 1024
    ))
}

/// The error of a skill that CAO may load but skilltui refuses, as too
/// large to read ([`MAX_SKILL_MD_BYTES`], [`MAX_FRONTMATTER_BYTES`]).
pub fn over_limit(c: &Checked) -> Option<&str> {
    c.errors
        .iter()
        .find(|e| e.contains(OVER_LIMIT))
        .map(String::as_str)
}

/// Reads a file as UTF-8 text with one clear error for each way it fails.
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    read_bytes(path, &mut bytes)?;
    utf8(path, &bytes)?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not valid UTF-8", path.display()))
}

/// `folder`'s SKILL.md read as [`read_text`] reads it, or `None` when the
/// folder holds no regular SKILL.md (what `Path::is_file` says): one open,
/// with no stat before it. A SKILL.md whose real path leaves the folder
/// (a link to a secret) is an error, never read.
pub fn read_text_in(folder: &Path) -> Option<Result<String, String>> {
    let path = folder.join("SKILL.md");
    let (file, meta) = match fsops::open_inside(folder, Path::new("SKILL.md")) {
        Ok(opened) => opened,
        Err(_) if !path.is_file() => return None,
        Err(e) => return Some(Err(format!("cannot read {}: {e}", path.display()))),
    };
    let mut bytes = Vec::new();
    Some(
        read_open(file, meta.len(), &path, &mut bytes).and_then(|len| {
            bytes.truncate(len);
            utf8(&path, &bytes)?;
            String::from_utf8(bytes).map_err(|_| format!("{} is not valid UTF-8", path.display()))
        }),
    )
}

/// Reads a file into `buf` (reused across calls), refusing huge files.
fn read_bytes(path: &Path, buf: &mut Vec<u8>) -> Result<(), String> {
    let (file, meta) =
        fsops::open_regular(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let len = read_open(file, meta.len(), path, buf)?;
    buf.truncate(len);
    Ok(())
}

/// Reads the file into the start of `buf` and returns how many bytes it
/// holds; `buf` only grows, so a reused one is not zeroed per file.
fn read_open(file: fs::File, size: u64, path: &Path, buf: &mut Vec<u8>) -> Result<usize, String> {
    if size > MAX_SKILL_MD_BYTES {
        return Err(format!(
            "{} is {:.1} MiB, {OVER_LIMIT} {} MiB limit: split it into referenced files",
            path.display(),
            size as f64 / (1024.0 * 1024.0),
            MAX_SKILL_MD_BYTES / (1024 * 1024)
        ));
    }
    let mut file = file;
    // One read of the size fstat gave, then a check for more (a file that
    // grew meanwhile); the common case costs a single read call.
    let size = size as usize;
    if buf.len() < size {
        buf.resize(size, 0);
    }
    let filled = read_full(&mut file, &mut buf[..size])
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if filled == size && size > 0 {
        return Ok(filled);
    }
    buf.truncate(filled);
    file.take(MAX_SKILL_MD_BYTES + 1 - filled as u64)
        .read_to_end(buf)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(buf.len())
}

fn read_full(file: &mut fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// CAO decodes the whole file, so one bad byte anywhere fails it.
fn utf8<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, String> {
    // SIMD first: every byte of every SKILL.md is checked when listing;
    // the std check runs only to say where a bad byte is.
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not valid UTF-8 (byte {}): CAO cannot read it; save it as UTF-8",
            path.display(),
            e.valid_up_to()
        )
    })
}

thread_local! {
    /// One read buffer per thread: listing a large store then allocates
    /// (and page-faults) once, not once per skill.
    static READ_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The metadata of an opened SKILL.md, without keeping its body.
fn read_head(file: fs::File, size: u64, skill_md: &Path) -> Result<SkillDoc, String> {
    READ_BUF.with_borrow_mut(|buf| {
        let len = read_open(file, size, skill_md, buf)?;
        let text = utf8(skill_md, &buf[..len])?;
        // SIMD: this scans every byte of the store.
        if memchr::memchr(b'\r', text.as_bytes()).is_some() {
            return split_doc(text, frontmatter::parse_head);
        }
        check_frontmatter_len(text)?;
        let frontmatter = frontmatter::parse_head(text).map_err(|e| e.to_string())?;
        let fm_text = text[frontmatter.fm_range.clone()].to_string();
        Ok(SkillDoc {
            frontmatter,
            fm_text,
            had_bom: text.starts_with('\u{feff}'),
        })
    })
}

/// CAO's verdict on a folder, plus our lints when `lint` is set.
pub fn check_folder(path: &Path, lint: bool) -> Checked {
    check_folder_as(path, lint, Named::AsIs)
}

/// The folder a skill is checked in: as it is (CAO's own check), or as the
/// copy skilltui makes of a source's skill, which is named after `name`
/// whatever the source folder is called (anthropics/skills' `template/`
/// holds `template-skill`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    AsIs,
    AfterSkill,
}

/// [`check_folder`], for a folder that is copied under the name `named`
/// gives it.
pub fn check_folder_as(path: &Path, lint: bool, named: Named) -> Checked {
    if let Err(e) = check_structure(path) {
        return Checked {
            path: path.to_path_buf(),
            errors: vec![e],
            ..Checked::default()
        };
    }
    check_candidate_as(path, lint, named).unwrap_or_else(|| Checked {
        path: path.to_path_buf(),
        errors: vec![format!("cannot read {}", path.join("SKILL.md").display())],
        ..Checked::default()
    })
}

/// Checks a subfolder of a search dir, or `None` when it holds no regular
/// SKILL.md (CAO then ignores it silently); one that cannot be opened is
/// invalid with the OS error. Opens SKILL.md once: listing a large store is
/// mostly system calls.
pub fn check_candidate(path: &Path, lint: bool) -> Option<Checked> {
    check_candidate_as(path, lint, Named::AsIs)
}

fn check_candidate_as(path: &Path, lint: bool, named: Named) -> Option<Checked> {
    let skill_md = path.join("SKILL.md");
    let mut out = Checked {
        path: path.to_path_buf(),
        ..Checked::default()
    };
    let (file, meta) = match fsops::open_regular(&skill_md) {
        Ok(opened) => opened,
        Err(e) if is_absent(&e) => return None,
        Err(e) => {
            out.errors
                .push(format!("cannot read {}: {e}", skill_md.display()));
            return Some(out);
        }
    };
    let doc = match read_head(file, meta.len(), &skill_md) {
        Ok(doc) => doc,
        Err(e) => {
            out.errors.push(e);
            return Some(out);
        }
    };
    out.body_bytes = doc.frontmatter.body_len;
    let mut folder = folder_name(path);
    if named == Named::AfterSkill {
        let mut probe = Checked::default();
        check_doc(&doc, &folder, &mut probe);
        folder = probe.name.unwrap_or(folder);
    }
    check_doc(&doc, &folder, &mut out);
    if lint {
        lint_doc(&doc, &mut out.warnings);
        lint_folder(path, &mut out.warnings);
    }
    Some(out)
}

/// No SKILL.md, or one that is not a regular file (what `is_file()` says).
fn is_absent(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{InvalidInput, NotADirectory, NotFound};
    matches!(e.kind(), NotFound | InvalidInput | NotADirectory)
}

/// The checks CAO makes before reading SKILL.md.
fn check_structure(path: &Path) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{} does not exist", path.display()),
        _ => format!("cannot read {}: {e}", path.display()),
    })?;
    if !meta.is_dir() {
        return Err(format!(
            "{} is not a directory: a skill is a folder that contains SKILL.md",
            path.display()
        ));
    }
    let skill_md = path.join("SKILL.md");
    match fs::metadata(&skill_md) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(format!(
            "{} is not a regular file (a folder, FIFO or device): replace it with a file",
            skill_md.display()
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "missing SKILL.md in {}: add a SKILL.md with `name` and `description` frontmatter",
            path.display()
        )),
        Err(e) => Err(format!("cannot read {}: {e}", skill_md.display())),
    }
}

/// True when `c` holds an error from opening or reading its SKILL.md (the
/// `cannot read` errors above): what an I/O hiccup gave, not the file.
pub fn read_failed(c: &Checked) -> bool {
    c.errors.iter().any(|e| e.starts_with("cannot read "))
}

pub fn folder_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// CAO's metadata checks: `name` and `description` non-blank strings, and
/// the folder named after the skill.
pub fn check_doc(doc: &SkillDoc, folder: &str, out: &mut Checked) {
    if doc.frontmatter.format == Format::None {
        out.errors.push(no_frontmatter_reason(doc, folder));
        return;
    }
    out.name = required_string(doc, "name", folder, &mut out.errors);
    out.description = required_string(doc, "description", folder, &mut out.errors);
    if let Some(name) = &out.name
        && name != folder
    {
        out.errors.push(format!(
                "folder name '{folder}' does not match skill name '{name}': rename the folder or change `name`"
            ));
    }
}

fn no_frontmatter_reason(doc: &SkillDoc, folder: &str) -> String {
    if doc.had_bom {
        "SKILL.md starts with a byte-order mark, so CAO sees no frontmatter: save it as UTF-8 without BOM".into()
    } else if doc.frontmatter.unterminated {
        "the frontmatter is never closed, so CAO sees none: add a `---` line after it".into()
    } else {
        format!(
            "SKILL.md has no frontmatter: start it with `---`, `name: {folder}`, `description: ...`, `---`"
        )
    }
}

/// A required string field, stripped; pushes CAO's reason when it is not.
fn required_string(
    doc: &SkillDoc,
    key: &str,
    folder: &str,
    errors: &mut Vec<String>,
) -> Option<String> {
    let Some(node) = doc.frontmatter.get(key) else {
        let example = if key == "name" {
            folder
        } else {
            "what it does and when to use it"
        };
        errors.push(format!(
            "frontmatter has no `{key}`: add `{key}: {example}`"
        ));
        return None;
    };
    let value = match &node.value {
        Value::Str(s) => s.as_str(),
        // pydantic decodes bytes (`!!binary`) to a string.
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s,
            Err(_) => {
                errors.push(format!(
                    "`{key}` is binary data that is not UTF-8: write it as text"
                ));
                return None;
            }
        },
        other => {
            errors.push(not_a_string(key, node, other, &doc.fm_text));
            return None;
        }
    };
    let stripped = py_strip(value);
    if stripped.is_empty() {
        errors.push(format!("`{key}` is blank: CAO needs a non-empty {key}"));
        return None;
    }
    Some(stripped.to_string())
}

/// "`description: yes` is read by CAO as a boolean: quote it".
pub fn not_a_string(key: &str, node: &Node, value: &Value, fm_text: &str) -> String {
    let source = fm_text.get(node.span.clone()).unwrap_or("").trim();
    let first_line = source.lines().next().unwrap_or("");
    match value {
        Value::Null => format!("`{key}` is empty (null): give it a value"),
        Value::Seq(_) | Value::Map(_) | Value::Pairs(_) => {
            format!(
                "`{key}` is {}, not a string: write it as one line of text",
                value.type_name()
            )
        }
        _ if node.style == Style::Plain => format!(
            "`{key}: {first_line}` is read by CAO as {}: quote it (`{key}: \"{first_line}\"`)",
            value.type_name()
        ),
        _ => format!("`{key}` is {}, not a string", value.type_name()),
    }
}

/// The lints on a SKILL.md's text and metadata (not on its folder).
pub fn doc_lints(skill_md: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Ok(doc) = read_doc(skill_md) {
        lint_doc(&doc, &mut warnings);
    }
    warnings
}

/// Agent Skills spec rules and CAO traps in the metadata.
fn lint_doc(doc: &SkillDoc, warnings: &mut Vec<String>) {
    if let Some(name) = doc.string("name")
        && let Some(problem) = spec_name_problem(py_strip(name))
    {
        warnings.push(problem);
    }
    if let Some(desc) = doc.string("description") {
        let n = py_strip(desc).chars().count();
        if n > 1024 {
            warnings.push(format!(
                "description is {n} characters; the Agent Skills spec allows 1-1024"
            ));
        }
    }
    lint_optional_fields(doc, warnings);
    lint_typing_traps(doc, warnings);
}

/// The Agent Skills spec's name rule, as one message when broken.
pub fn spec_name_problem(name: &str) -> Option<String> {
    let n = name.chars().count();
    let charset_ok = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let hyphens_ok = !name.starts_with('-') && !name.ends_with('-') && !name.contains("--");
    if (1..=64).contains(&n) && charset_ok && hyphens_ok {
        return None;
    }
    Some(format!(
        "name '{name}' breaks the Agent Skills spec: 1-64 lowercase letters, digits and single hyphens, not at either end"
    ))
}

fn lint_optional_fields(doc: &SkillDoc, warnings: &mut Vec<String>) {
    if let Some(node) = doc.frontmatter.get("compatibility") {
        match &node.value {
            Value::Str(s) if s.chars().count() > 500 => warnings.push(format!(
                "compatibility is {} characters; the spec allows at most 500",
                s.chars().count()
            )),
            Value::Str(_) => {}
            other => warnings.push(format!(
                "compatibility is {}; the spec wants a string",
                other.type_name()
            )),
        }
    }
    if let Some(node) = doc.frontmatter.get("metadata") {
        let all_strings = match &node.value {
            Value::Map(pairs) => pairs.iter().all(|(k, v)| is_str(k) && is_str(v)),
            _ => false,
        };
        if !all_strings {
            warnings.push(
                "metadata should be a map of strings to strings: quote numbers, booleans and dates"
                    .into(),
            );
        }
    }
    // The Agent Skills spec made `allowed-tools` one space-separated
    // string on 2026-03-30 (a list before; `gh skill publish` rejects one).
    if let Some(node) = doc.frontmatter.get("allowed-tools") {
        match &node.value {
            Value::Str(_) => {}
            Value::Seq(_) => warnings.push(
                "allowed-tools is a list; the spec wants one space-separated string (e.g. `allowed-tools: Read Bash(git:*)`)"
                    .into(),
            ),
            other => warnings.push(format!(
                "allowed-tools is {}; the spec wants one space-separated string of tool names",
                other.type_name()
            )),
        }
    }
}

fn is_str(node: &Rc<Node>) -> bool {
    matches!(node.value, Value::Str(_))
}

/// Optional keys that YAML 1.1 quietly turns into non-strings.
fn lint_typing_traps(doc: &SkillDoc, warnings: &mut Vec<String>) {
    for key in ["license", "compatibility"] {
        if let Some(node) = doc.frontmatter.get(key)
            && node.style == Style::Plain
            && !matches!(node.value, Value::Str(_) | Value::Null)
        {
            warnings.push(not_a_string(key, node, &node.value, &doc.fm_text));
        }
    }
}

/// The folder lints alone (sizes, with their figures, and symlinks that
/// leave the folder): a skill from a repository is refused on these.
pub fn folder_lints(root: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    lint_folder(root, &mut warnings);
    warnings
}

/// Size limits and symlinks that leave the folder, over the folder as it
/// is on disk (a link counted once, as itself: an installed skill from git
/// holds its links as links).
fn lint_folder(root: &Path, warnings: &mut Vec<String>) {
    match fsops::walk(root, fsops::Links::Keep, Some(&LINT_CEILING)) {
        Ok(walked) => warnings.extend(walked_lints(&walked)),
        Err(e) => warnings.push(e),
    }
}

/// Where a lint walk stops: far past what the spec recommends, short of
/// what a hostile folder (links to links) could make it list.
pub const LINT_CEILING: fsops::Limits = fsops::Limits {
    entries: 100_000,
    file_bytes: u64::MAX,
    total_bytes: u64::MAX,
};

/// The spec's size lints and the walk's problems, over a walk of a folder.
pub fn walked_lints(walked: &fsops::Walked) -> Vec<String> {
    let mut warnings = walked.problems.clone();
    let mut files = 0;
    for item in &walked.items {
        if let fsops::Kind::File { len, .. } = item.kind {
            files += 1;
            if len > LINT_MAX_FILE_BYTES {
                warnings.push(format!(
                    "{} is {} KiB; keep files under 512 KiB",
                    item.rel.display(),
                    len / 1024
                ));
            }
        }
    }
    if files > LINT_MAX_FILES {
        warnings.push(format!(
            "{files} files in the folder; keep a skill under {LINT_MAX_FILES}"
        ));
    }
    if walked.bytes > LINT_MAX_FOLDER_BYTES {
        warnings.push(format!(
            "the folder holds {:.1} MiB; keep a skill under 2 MiB",
            walked.bytes as f64 / 1048576.0
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn symlinks_that_loop_or_lead_nowhere_are_named() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("s");
        fs::create_dir_all(root.join("sub/deeper")).unwrap();
        fs::write(root.join("f.md"), "x").unwrap();
        symlink("..", root.join("sub/deeper/up")).unwrap();
        symlink(".", root.join("self")).unwrap();
        symlink("b", root.join("a")).unwrap();
        symlink("a", root.join("b")).unwrap();
        symlink("../sub/deeper", root.join("sub/side")).unwrap();
        symlink("f.md", root.join("file-link")).unwrap();
        let mut lints = folder_lints(&root);
        lints.sort();
        assert_eq!(
            lints,
            [
                "a is a symlink that leads nowhere (a missing target or a loop of links)",
                "b is a symlink that leads nowhere (a missing target or a loop of links)",
                "self is a symlink to a folder that holds it (a loop)",
                "sub/deeper/up is a symlink to a folder that holds it (a loop)",
            ]
        );
    }

    fn folder(name: &str, skill_md: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), skill_md).unwrap();
        (tmp, dir)
    }

    #[test]
    fn valid_skill_is_stripped() {
        let (_t, dir) = folder(
            "a",
            b"---\nname: ' a '\ndescription: \"  does x \"\n---\nbody",
        );
        let c = check_folder(&dir, true);
        assert!(c.is_valid(), "{:?}", c.errors);
        assert_eq!(c.name.as_deref(), Some("a"));
        assert_eq!(c.description.as_deref(), Some("does x"));
    }

    #[test]
    fn yaml11_trap_says_how_to_fix() {
        let (_t, dir) = folder("a", b"---\nname: a\ndescription: yes\n---\n");
        let c = check_folder(&dir, false);
        assert_eq!(
            c.errors,
            vec![
                "`description: yes` is read by CAO as a boolean: quote it (`description: \"yes\"`)"
            ]
        );
    }

    #[test]
    fn mismatch_bom_and_unterminated() {
        let (_t, dir) = folder("b", b"---\nname: a\ndescription: d\n---\n");
        assert!(check_folder(&dir, false).errors[0].contains("does not match"));
        let (_t, dir) = folder(
            "a",
            "\u{feff}---\nname: a\ndescription: d\n---\n".as_bytes(),
        );
        assert!(check_folder(&dir, false).errors[0].contains("byte-order mark"));
        let (_t, dir) = folder("a", b"---\nname: a\ndescription: d\n");
        assert!(check_folder(&dir, false).errors[0].contains("never closed"));
    }

    #[test]
    fn binary_and_missing() {
        let (_t, dir) = folder("a", b"---\nname: a\xff\n---\n");
        assert!(check_folder(&dir, false).errors[0].contains("not valid UTF-8"));
        let tmp = tempfile::tempdir().unwrap();
        assert!(check_folder(&tmp.path().join("nope"), false).errors[0].contains("does not exist"));
        assert!(check_folder(tmp.path(), false).errors[0].contains("missing SKILL.md"));
    }

    #[test]
    fn spec_lints_warn_only() {
        let (_t, dir) = folder(
            "Bad_Name",
            b"---\nname: Bad_Name\ndescription: d\nlicense: 2024-01-01\nmetadata:\n  v: 1.0\nallowed-tools: [Read]\n---\n",
        );
        let c = check_folder(&dir, true);
        assert!(c.is_valid());
        assert_eq!(c.warnings.len(), 4, "{:?}", c.warnings);
    }

    // `allowed-tools` is a space-separated string in the Agent Skills
    // specification (a list until 2026-03-30; `gh skill publish` rejects a
    // list): the lint warns on a list, not on a string.
    #[test]
    fn allowed_tools_warns_on_a_list_not_on_a_string() {
        let warnings = |v: &str| {
            let text = format!("---\nname: a\ndescription: d\nallowed-tools: {v}\n---\n");
            let (_t, dir) = folder("a", text.as_bytes());
            check_folder(&dir, true).warnings
        };
        assert!(warnings("Read Bash(git:*)").is_empty());
        let list = warnings("[Read, Bash]");
        assert_eq!(list.len(), 1);
        assert!(
            list[0]
                .starts_with("allowed-tools is a list; the spec wants one space-separated string")
        );
        assert_eq!(warnings("\n  - Read").len(), 1);
        assert_eq!(warnings("3").len(), 1);
    }
}
