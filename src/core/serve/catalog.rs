//! What `skilltui serve` serves: CAO's valid skills (or one profile's set),
//! each with the manifest the MCP Skills extension asks for (every file
//! once, its `sha256:` digest and size), minus those the audit holds back.
//! A snapshot: the server rebuilds it when the watcher sees a change.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};

use super::frontmatter;
use super::uri;
use crate::core::audit::{self, rules::Severity};
use crate::core::cao::catalog::select;
use crate::core::cao::skill::{self, spec_name_problem};
use crate::core::cao::store::{self, Entry, Home};
use crate::core::cao::verdicts::Stamp;
use crate::core::delivery;
use crate::core::fsops::{self, Kind, Limits, Links};

/// The Skills extension's limits per skill (a conforming host need load
/// no more): files, and the bytes of them all.
pub const MAX_FILES: usize = 512;
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// What to serve.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only what this profile's `skills:` gives its agent (CAO's rules).
    pub profile: Option<String>,
    /// Serve a skill the audit finds critical.
    pub trust: bool,
}

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
}

/// One snapshot of what is served.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// By name.
    pub skills: Vec<Served>,
    /// One line per skill held back, naming it and why.
    pub held: Vec<String>,
    /// The server's `instructions` and `load_skill`'s description, made
    /// once per snapshot: a client may ask for them with every request.
    pub instructions: String,
    pub tool_description: String,
    by_uri: HashMap<String, (usize, usize)>,
    by_name: HashMap<String, usize>,
}

/// Digests and audit verdicts kept between snapshots, so that a change to
/// one skill does not re-read every other one.
#[derive(Default)]
pub struct Cache {
    digests: HashMap<PathBuf, (Stamp, String)>,
    audits: HashMap<(PathBuf, String), Option<String>>,
}

/// Where a resource read fails.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// No served file has this URI.
    Unknown,
    /// It is served but cannot be read now (removed, a link made to lead
    /// out, grown past the limit): the message says which.
    Unreadable(String),
}

/// A directory's child: a file or a folder, by URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    pub uri: String,
    pub name: String,
    pub is_dir: bool,
}

impl Catalog {
    pub fn find(&self, name: &str) -> Option<&Served> {
        self.by_name.get(name).map(|&i| &self.skills[i])
    }

    /// The skill whose SKILL.md is at `uri`, if it is in the extension.
    pub fn by_skill_uri(&self, uri: &str) -> Option<&Served> {
        let (s, f) = *self.by_uri.get(uri)?;
        let served = &self.skills[s];
        (served.files[f].rel == "SKILL.md").then_some(served)
    }

    /// The skills listed by the extension, in name order.
    pub fn extension_skills(&self) -> impl Iterator<Item = &Served> {
        self.skills.iter().filter(|s| s.in_extension)
    }

    /// The bytes of a served file, read now through the folder's real
    /// path: a link that has come to lead out, or a file that has become a
    /// hard link, is refused; nothing that is not listed is ever opened.
    pub fn read(&self, uri: &str) -> Result<(&File, Vec<u8>), ReadError> {
        let &(s, f) = self.by_uri.get(uri).ok_or(ReadError::Unknown)?;
        let (served, file) = (&self.skills[s], &self.skills[s].files[f]);
        fsops::read_capped_inside(&served.dir, Path::new(&file.rel), MAX_BYTES)
            .map(|bytes| (file, bytes))
            .map_err(|e| ReadError::Unreadable(format!("{uri} cannot be read: {e}")))
    }

    /// The direct children of a served folder (`skill://NAME` or
    /// `skill://NAME/sub`), `None` when `uri` is no such folder.
    pub fn children(&self, uri: &str) -> Option<Vec<Child>> {
        let (name, rel) = uri::split_dir(uri)?;
        let served = self.find(name).filter(|s| s.in_extension)?;
        if !rel.is_empty() && !served.dirs.contains(rel) {
            return None;
        }
        let prefix = if rel.is_empty() {
            String::new()
        } else {
            format!("{rel}/")
        };
        let mut out = Vec::new();
        for dir in served.dirs.iter().filter(|d| is_child(d, &prefix)) {
            out.push(Child {
                uri: uri::dir(name, dir),
                name: leaf(dir).to_string(),
                is_dir: true,
            });
        }
        for file in served.files.iter().filter(|f| is_child(&f.rel, &prefix)) {
            out.push(Child {
                uri: file.uri.clone(),
                name: leaf(&file.rel).to_string(),
                is_dir: false,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    /// What a client should know of the change from `self` to `new`:
    /// (any served skill, file or frontmatter changed, `load_skill`'s
    /// description changed).
    pub fn changes(&self, new: &Catalog) -> (bool, bool) {
        let same_skill = |a: &Served, b: &Served| {
            a.name == b.name && a.files == b.files && a.frontmatter == b.frontmatter
        };
        let listed = self.skills.len() != new.skills.len()
            || self
                .skills
                .iter()
                .zip(&new.skills)
                .any(|(a, b)| !same_skill(a, b));
        (listed, self.tool_description != new.tool_description)
    }

    fn index(mut self) -> Catalog {
        self.skills.sort_by(|a, b| a.name.cmp(&b.name));
        self.instructions = instructions(&self);
        self.tool_description = tool_description(&self);
        for (s, served) in self.skills.iter().enumerate() {
            self.by_name.insert(served.name.clone(), s);
            if !served.in_extension {
                continue;
            }
            for (f, file) in served.files.iter().enumerate() {
                self.by_uri.insert(file.uri.clone(), (s, f));
            }
        }
        self
    }
}

fn is_child(rel: &str, prefix: &str) -> bool {
    rel.strip_prefix(prefix)
        .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
}

fn leaf(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The skills to serve now: CAO's valid ones (the winner of each name),
/// or exactly those `--profile`'s `skills:` patterns select, each read,
/// digested and audited (on all cores; unchanged files from `cache`).
pub fn build(home: &Home, opts: &Options, cache: &mut Cache) -> Result<Catalog, String> {
    let listing = store::list(home, false);
    let entries: Vec<&Entry> = match &opts.profile {
        None => listing.valid().collect(),
        Some(name) => {
            let agent = delivery::agent::load(home, name)?;
            select(&listing, agent.skills.as_deref())
                .offered
                .into_iter()
                .map(|(e, _)| e)
                .collect()
        }
    };
    let results = read_all(&entries, opts.trust, cache);
    let mut catalog = Catalog::default();
    for (result, digests, audit) in results {
        cache.digests.extend(digests);
        if let Some((key, verdict)) = audit {
            cache.audits.insert(key, verdict);
        }
        match result {
            Ok(served) => catalog.skills.push(served),
            Err(line) => catalog.held.push(line),
        }
    }
    Ok(catalog.index())
}

type Read = (
    Result<Served, String>,
    Vec<(PathBuf, (Stamp, String))>,
    Option<((PathBuf, String), Option<String>)>,
);

fn read_all(entries: &[&Entry], trust: bool, cache: &Cache) -> Vec<Read> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = entries.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|e| read_one(e, trust, cache))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// One skill read whole: its files walked (links that stay inside
/// followed, others left out), digested, its frontmatter typed, audited.
fn read_one(entry: &Entry, trust: bool, cache: &Cache) -> Read {
    let name = entry.folder.clone();
    let dir = entry.checked.path.clone();
    let held = |why: String| format!("skill '{name}' is held back: {why}");
    let mut fresh = Vec::new();
    let files = match manifest(&name, &dir, cache, &mut fresh) {
        Ok(f) => f,
        Err(why) => return (Err(held(why)), fresh, None),
    };
    let (files, dirs) = files;
    let key = (dir.clone(), audit_key(&files));
    let verdict = match cache.audits.get(&key) {
        Some(v) => v.clone(),
        None => critical(&audit::scan(&dir)),
    };
    let audit = Some((key, verdict.clone()));
    if let Some(finding) = verdict.filter(|_| !trust) {
        let why = format!("the audit found {finding}; `--trust` serves it anyway");
        return (Err(held(why)), fresh, audit);
    }
    let served = skill_md(&dir).map(|(fm, description)| Served {
        in_extension: spec_name_problem(&name).is_none()
            && fm.get("name").and_then(Json::as_str) == Some(name.as_str()),
        name: name.clone(),
        description,
        dir: dir.clone(),
        frontmatter: fm,
        files,
        dirs,
    });
    (served.map_err(held), fresh, audit)
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
fn manifest(
    name: &str,
    dir: &Path,
    cache: &Cache,
    fresh: &mut Vec<(PathBuf, (Stamp, String))>,
) -> Result<Manifest, String> {
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
                let (digest, size) = digest(dir, rel, cache, fresh)?;
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
fn digest(
    dir: &Path,
    rel: &str,
    cache: &Cache,
    fresh: &mut Vec<(PathBuf, (Stamp, String))>,
) -> Result<(String, u64), String> {
    let path = dir.join(rel);
    let stamp = Stamp::of(&path);
    if let (Some(now), Some((kept, digest))) = (stamp, cache.digests.get(&path))
        && now == *kept
    {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        return Ok((digest.clone(), size));
    }
    let bytes = fsops::read_capped_inside(dir, Path::new(rel), MAX_BYTES)
        .map_err(|e| format!("{rel} cannot be read: {e}"))?;
    let digest = format!("sha256:{}", hex(&Sha256::digest(&bytes)));
    if let Some(stamp) = stamp {
        fresh.push((path, (stamp, digest.clone())));
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
    let fm = frontmatter::to_json(meta, &doc.fm_text).ok_or("its frontmatter is not a mapping")?;
    let description = doc
        .string("description")
        .map(|d| crate::core::text::py_strip(d).to_string())
        .unwrap_or_default();
    Ok((fm, description))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The server's `instructions`: each served skill's name and description,
/// so a model knows what to ask `load_skill` for.
fn instructions(catalog: &Catalog) -> String {
    let mut text = String::from(
        "Agent Skills served by skilltui. Call the `load_skill` tool with a skill's name to read its instructions",
    );
    text.push_str(
        "; a client with the MCP Skills extension reads skill://NAME/SKILL.md and its files instead.\n",
    );
    if catalog.skills.is_empty() {
        text.push_str("No skill is served.\n");
    }
    for s in &catalog.skills {
        text.push_str(&format!("- {}: {}\n", s.name, one_line(&s.description)));
    }
    text
}

/// `load_skill`'s description: what it returns and the names it knows.
fn tool_description(catalog: &Catalog) -> String {
    let names: Vec<&str> = catalog.skills.iter().map(|s| s.name.as_str()).collect();
    format!(
        "Load a skill's instructions by name: the body of its SKILL.md, as CAO's load_skill returns it. Skills: {}",
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    )
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// CAO's `load_skill` answer for `name` from what is served: the body
/// `skilltui show NAME` prints; an error naming it when it is not served.
pub fn load_skill(catalog: &Catalog, name: &str) -> Result<String, String> {
    let Some(served) = catalog.find(name) else {
        let known = catalog.skills.iter().map(|s| s.name.as_str());
        return Err(format!(
            "no skill named '{name}' is served here{}",
            crate::core::suggest::did_you_mean(name, known)
        ));
    };
    let doc = skill::read_doc(&served.dir.join("SKILL.md"))?;
    Ok(doc.frontmatter.body)
}

/// Folders to watch beyond what CAO reads: each served skill's own
/// subfolders, so that a file changed deep in one is seen (bounded).
pub fn skill_dirs(catalog: &Catalog, max: usize) -> Vec<PathBuf> {
    catalog
        .skills
        .iter()
        .flat_map(|s| s.dirs.iter().map(move |d| s.dir.join(d)))
        .take(max)
        .collect()
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
