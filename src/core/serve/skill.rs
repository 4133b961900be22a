//! One served skill, read whole on first need: every file walked (links
//! that stay inside followed, others left out), digested, its frontmatter
//! typed, and the audit's verdict. Digests and verdicts are kept in a
//! [`Cache`] by each file's identity, so that reading a skill again after
//! a change re-stats the files that did not change instead of reading them.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};

use super::frontmatter;
use super::uri;
use crate::core::audit::{self, rules::Severity};
use crate::core::cao::skill::{self, spec_name_problem};
use crate::core::cao::verdicts::Stamp;
use crate::core::fsops::{self, Kind, Limits, Links};

/// The Skills extension's limits per skill (a conforming host need load
/// no more): files, and the bytes of them all.
pub const MAX_FILES: usize = 512;
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// One file of a served skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Relative to the skill folder, `/`-separated.
    pub rel: String,
    pub uri: String,
    pub digest: String,
    pub size: u64,
}

/// One served skill.
#[derive(Clone, Debug)]
pub struct Served {
    /// The folder name, which CAO requires to equal `name:`.
    pub name: String,
    /// `description:` stripped, as CAO reads it.
    pub description: String,
    /// The folder's real path when it was judged (links resolved): every
    /// read goes there.
    pub dir: PathBuf,
    /// Every frontmatter field the author wrote.
    pub frontmatter: Map<String, Json>,
    /// In path order; SKILL.md among them.
    pub files: Vec<File>,
    /// Its folders below the skill root, relative, `/`-separated.
    pub dirs: BTreeSet<String>,
    /// False when the name breaks the Agent Skills rules the extension
    /// requires of a `skill://` URI: then only `load_skill` serves it.
    pub in_extension: bool,
}

impl Served {
    pub fn uri(&self) -> String {
        uri::skill_md(&self.name)
    }

    /// What a client sees of it: changed when any of this changes.
    pub fn same_as(&self, other: &Served) -> bool {
        self.name == other.name
            && self.files == other.files
            && self.frontmatter == other.frontmatter
            && self.in_extension == other.in_extension
    }
}

/// A skill read whole: served, or the line that says why it is held back.
pub type Judged = Result<Served, String>;

/// Digests and audit verdicts kept between reads, shared by the threads
/// that read skills (each holds the lock for one look-up or one insert).
#[derive(Default)]
pub struct Cache {
    digests: HashMap<PathBuf, (Stamp, String)>,
    audits: HashMap<(PathBuf, String), Option<String>>,
}

fn lock(cache: &Mutex<Cache>) -> std::sync::MutexGuard<'_, Cache> {
    // A reader that panicked leaves whole entries only.
    cache.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads skill `name` in `dir` whole and judges it: held back (the line
/// names it and why) when it cannot be read within the extension's limits
/// or, unless `trust`, when the audit finds something critical.
pub fn judge(name: &str, dir: &Path, trust: bool, cache: &Mutex<Cache>) -> Judged {
    let held = |why: String| format!("skill '{name}' is held back: {why}");
    // Everything is read, and later served, from the folder's real path as
    // it is now: a folder link re-pointed afterwards leads nowhere new.
    let real =
        std::fs::canonicalize(dir).map_err(|e| held(format!("cannot open its folder: {e}")))?;
    let dir = real.as_path();
    let (files, dirs) = manifest(name, dir, cache).map_err(held)?;
    let key = (dir.to_path_buf(), audit_key(&files));
    let kept = lock(cache).audits.get(&key).cloned();
    let verdict = match kept {
        Some(v) => v,
        None => {
            let v = critical(&audit::scan(dir));
            lock(cache).audits.insert(key, v.clone());
            v
        }
    };
    if let Some(finding) = verdict.filter(|_| !trust) {
        return Err(held(format!(
            "the audit found {finding}; `--trust` serves it anyway"
        )));
    }
    let (fm, description) = skill_md(dir).map_err(held)?;
    Ok(Served {
        in_extension: spec_name_problem(name).is_none()
            && fm.get("name").and_then(Json::as_str) == Some(name),
        name: name.to_string(),
        description,
        dir: dir.to_path_buf(),
        frontmatter: fm,
        files,
        dirs,
    })
}

/// The critical finding that holds a skill back: rule, place, message.
fn critical(report: &audit::Report) -> Option<String> {
    let f = report
        .worst_finding()
        .filter(|f| f.severity == Severity::Critical)?;
    Some(format!("{} at {}: {}", f.rule, f.place(), f.message))
}

fn audit_key(files: &[File]) -> String {
    let mut h = Sha256::new();
    for f in files {
        h.update(f.rel.as_bytes());
        h.update([0]);
        h.update(f.digest.as_bytes());
    }
    hex(&h.finalize())
}

type Manifest = (Vec<File>, BTreeSet<String>);

/// Every file of the skill once, hidden entries (a name starting with
/// `.`) left out as the extension's own catalog does, within its limits.
fn manifest(name: &str, dir: &Path, cache: &Mutex<Cache>) -> Result<Manifest, String> {
    let limits = Limits {
        entries: 4 * MAX_FILES as u64,
        file_bytes: MAX_BYTES,
        total_bytes: MAX_BYTES,
    };
    let walked = fsops::walk(dir, Links::StayInside, Some(&limits))
        .map_err(|e| format!("{e}, over what the Skills extension lets a host load"))?;
    let (mut files, mut dirs) = (Vec::new(), BTreeSet::new());
    for item in &walked.items {
        let Some(rel) = item.rel.to_str().filter(|r| !hidden(r)) else {
            continue;
        };
        match item.kind {
            Kind::Dir => {
                dirs.insert(rel.to_string());
            }
            Kind::File { .. } => {
                let (digest, size) = digest(dir, rel, cache)?;
                files.push(File {
                    uri: uri::file(name, rel),
                    rel: rel.to_string(),
                    digest,
                    size,
                });
            }
            Kind::Link(_) => {}
        }
    }
    if files.len() > MAX_FILES {
        return Err(format!(
            "it holds {} files, over the {MAX_FILES} the Skills extension lets a host load",
            files.len()
        ));
    }
    Ok((files, dirs))
}

fn hidden(rel: &str) -> bool {
    rel.split('/').any(|part| part.starts_with('.'))
}

/// The digest and size of one file, read through the folder's real path.
fn digest(dir: &Path, rel: &str, cache: &Mutex<Cache>) -> Result<(String, u64), String> {
    let path = dir.join(rel);
    let stamp = Stamp::of(&path);
    let kept = lock(cache).digests.get(&path).cloned();
    if let (Some(now), Some((kept, digest))) = (stamp, kept)
        && now == kept
    {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        return Ok((digest, size));
    }
    let bytes = fsops::read_capped_inside(dir, Path::new(rel), MAX_BYTES)
        .map_err(|e| format!("{rel} cannot be read: {e}"))?;
    let digest = digest_of(&bytes);
    if let Some(stamp) = stamp {
        lock(cache).digests.insert(path, (stamp, digest.clone()));
    }
    Ok((digest, bytes.len() as u64))
}

/// The frontmatter as JSON and the stripped description, read as CAO reads
/// the file.
fn skill_md(dir: &Path) -> Result<(Map<String, Json>, String), String> {
    let text = match skill::read_text_in(dir) {
        Some(read) => read?,
        None => return Err("it has no SKILL.md any more".into()),
    };
    let doc = skill::doc_from_text(&text)?;
    let meta = doc
        .frontmatter
        .metadata()
        .ok_or("its frontmatter is not a mapping")?;
    let fm = frontmatter::to_json(meta, &doc.fm_text)?;
    let description = doc
        .string("description")
        .map(|d| crate::core::text::py_strip(d).to_string())
        .unwrap_or_default();
    Ok((fm, description))
}

/// The extension's digest form of `bytes`: `sha256:` and lowercase hex.
pub fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The MIME type of a skill file, by its extension: SKILL.md and other
/// Markdown are `text/markdown`, as the extension asks.
pub fn mime_type(rel: &str) -> &'static str {
    let ext = rel
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "sh" | "bash" => "text/x-shellscript",
        "js" | "mjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// Bytes a client can take as text: UTF-8 without NUL. Anything else is
/// sent as a base64 blob.
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && simdutf8::basic::from_utf8(bytes).is_ok()
}
