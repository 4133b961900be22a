//! Skills published over HTTP: a site's discovery index, and a SKILL.md or
//! archive at a URL.
//!
//! The index is the Agent Skills discovery RFC v0.2.0's
//! (`/.well-known/agent-skills/index.json`, or a pinned
//! `/.well-known/agent-skills/vX.Y.Z/index.json` when typed): a `$schema`
//! skilltui knows (another stops the read), entries with `name`,
//! `description`, `type` `skill-md` or `archive` (another type is left out
//! with a note), `url` resolved against the index, `digest` `sha256:HEX` of
//! the artifact, and an optional `version`. When a site has none, the older
//! form many docs platforms publish is read:
//! `/.well-known/skills/index.json`, `{"skills":[{"name","description",
//! "files":[…]}]}`, each file at `/.well-known/skills/NAME/FILE`, with no
//! digest (the digest of what was fetched is pinned instead).
//!
//! Only the entries picked are downloaded, at most [`POOL`] at a time,
//! all within one timeout and [`MAX_INDEX_BYTES`] in all; each artifact's
//! digest is checked in memory before anything is written into a staging
//! folder for `source::discover`.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::core::cao::store;
use crate::core::sources::archive;
use crate::core::sources::http::{self, Failure, Local};
use crate::core::text::{sanitize_line, strip_credentials};

/// Where a site publishes its index, from its root.
pub const INDEX_PATH: &str = "/.well-known/agent-skills/index.json";
/// The older form's index, read when the site has no [`INDEX_PATH`].
pub const OLD_INDEX_PATH: &str = "/.well-known/skills/index.json";
/// The `$schema` of a v0.2.0 index, the one skilltui reads.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// The most entries of an index read; the rest are counted and noted.
pub const MAX_INDEX_ENTRIES: usize = 1_000;
/// The most notes on entries left out that are kept; the rest are counted.
const MAX_NOTES: usize = 20;
/// The most files one entry of the older form may list.
pub const MAX_FILES: usize = 200;
/// Downloads of an index's entries running at once.
pub const POOL: usize = 4;
/// The most bytes one index's picked entries may download and write in
/// all; an entry not started by then is left out with a note.
pub const MAX_INDEX_BYTES: u64 = 100 << 20;

/// What an artifact is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// One SKILL.md: the whole skill.
    SkillMd,
    /// An archive of a skill's folder (or of several skills).
    Archive(Option<archive::Kind>),
    /// The older form's files, each relative to the entry's folder URL.
    Files(Vec<String>),
}

impl Artifact {
    /// The artifact a URL alone names: a SKILL.md, else an archive.
    pub fn of_url(url: &str) -> Artifact {
        if url
            .split(['?', '#'])
            .next()
            .unwrap_or(url)
            .ends_with("SKILL.md")
        {
            Artifact::SkillMd
        } else {
            Artifact::Archive(archive::Kind::of_url(url))
        }
    }
}

/// One skill of an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    pub name: String,
    pub description: String,
    pub artifact: Artifact,
    /// Absolute, resolved against the index's URL (the older form: the
    /// entry's folder, ending in `/`).
    pub url: String,
    /// `None`: the site publishes none (the older form).
    pub digest: Option<String>,
    /// The entry's `version`, when the index gives one.
    pub version: Option<String>,
}

#[derive(Deserialize)]
struct RawIndex<T> {
    #[serde(default, rename = "$schema")]
    schema: Option<serde_json::Value>,
    skills: Capped<T>,
}

/// At most [`MAX_INDEX_ENTRIES`] entries, the rest skipped unread (not
/// kept in memory) and counted.
struct Capped<T> {
    entries: Vec<T>,
    more: usize,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Capped<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = Capped<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of skills")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Capped<T>, A::Error> {
                let mut entries = Vec::new();
                let mut more = 0;
                while entries.len() < MAX_INDEX_ENTRIES {
                    match seq.next_element::<Lenient<T>>()? {
                        Some(Lenient(Some(e))) => entries.push(e),
                        Some(Lenient(None)) => more += 1,
                        None => return Ok(Capped { entries, more }),
                    }
                }
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    more += 1;
                }
                Ok(Capped { entries, more })
            }
        }
        d.deserialize_seq(Visit(std::marker::PhantomData))
    }
}

/// An entry that does not have the shape of one is counted, not fatal.
struct Lenient<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Ok(Lenient(T::deserialize(v).ok()))
    }
}

#[derive(Deserialize)]
struct RawEntry {
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    digest: String,
    #[serde(default)]
    version: Option<String>,
}

#[derive(Deserialize)]
struct OldEntry {
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    files: Vec<String>,
}

/// The index URL a site names: the site's own when it is an index's path
/// (`/.well-known/agent-skills/index.json`, a pinned
/// `/.well-known/agent-skills/vX.Y.Z/index.json`, the older form's), else
/// the well-known path at the host's root, as RFC 8615 places it.
pub fn index_url(site: &str) -> Option<String> {
    let p = http::parts(site)?;
    let path = p.path.split(['?', '#']).next().unwrap_or("");
    let at = |path: &str| format!("{}://{}{path}", p.scheme, p.authority);
    Some(if is_index_path(path) {
        at(path)
    } else {
        at(INDEX_PATH)
    })
}

/// `/.well-known/agent-skills/index.json`, its pinned `vX.Y.Z` form, or
/// the older form's index.
fn is_index_path(path: &str) -> bool {
    if path == INDEX_PATH || path == OLD_INDEX_PATH {
        return true;
    }
    let pinned = path
        .strip_prefix("/.well-known/agent-skills/v")
        .and_then(|p| p.strip_suffix("/index.json"));
    pinned.is_some_and(|v| {
        let parts: Vec<&str> = v.split('.').collect();
        parts.len() == 3
            && parts.iter().all(|n| {
                !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit())
                    && (n.len() == 1 || !n.starts_with('0'))
            })
    })
}

/// An index's usable entries, and a note on each one left out.
pub type Listed = (Vec<IndexEntry>, Vec<String>);

/// How downloads are bounded besides their size: a cancel flag, and which
/// of this machine's addresses they may reach.
#[derive(Clone, Copy)]
pub struct Reach<'a> {
    pub stop: Option<&'a AtomicBool>,
    pub local: &'a Local,
    /// When the downloads of [`stage_url`] must be done by: a run's
    /// several skills from one site share it (`None`: one timeout each).
    pub by: Option<Instant>,
}

impl Reach<'_> {
    fn ask(&self, max: u64, deadline: Instant) -> http::Ask<'_> {
        http::Ask {
            max,
            stop: self.stop,
            local: self.local,
            deadline,
        }
    }

    fn get(&self, url: &str, max: u64, deadline: Instant) -> Result<Vec<u8>, String> {
        http::fetch(url, &self.ask(max, deadline)).map_err(|e| e.line(url))
    }
}

/// The site's index: `Ok(None)` when it has none (HTTP 404 or 410 at the
/// v0.2.0 path and at the older form's), so the address can be tried as a
/// git repository; entries that cannot be used come back as notes.
pub fn read_index(site: &str, reach: Reach) -> Result<Option<Listed>, String> {
    let Some(url) = index_url(site) else {
        return Err(format!("{} is not an http(s) URL", http::shown(site)));
    };
    let typed = http::parts(site)
        .is_some_and(|p| is_index_path(p.path.split(['?', '#']).next().unwrap_or("")));
    let fetch = |url: &str| {
        let deadline = Instant::now() + http::timeout();
        http::fetch(url, &reach.ask(http::MAX_DOWNLOAD, deadline))
    };
    let (bytes, url) = match fetch(&url) {
        Ok(b) => (b, url),
        Err(Failure::Status(404 | 410)) if typed => {
            return Err(format!(
                "{} answered that there is no index there: check the address",
                http::shown(&url)
            ));
        }
        Err(Failure::Status(404 | 410)) => {
            let old =
                index_url(&format!("{}{OLD_INDEX_PATH}", http::origin(&url))).unwrap_or_default();
            match fetch(&old) {
                Ok(b) => (b, old),
                Err(Failure::Status(404 | 410)) => return Ok(None),
                Err(e) => return Err(e.line(&old)),
            }
        }
        Err(e) => return Err(e.line(&url)),
    };
    parse_index(&bytes, &url).map(Some)
}

/// The entries of an index's bytes (at `url`, which says which form it
/// is), and a note for each one left out.
pub fn parse_index(bytes: &[u8], url: &str) -> Result<Listed, String> {
    let not_index = |e: serde_json::Error| {
        format!(
            "{} is not a skills index ({}): the site publishes something else there",
            http::shown(url),
            sanitize_line(&e.to_string())
        )
    };
    let local = Local::typed(url);
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    let old = http::parts(url).is_some_and(|p| p.path.starts_with(OLD_INDEX_PATH));
    let more = if old {
        let raw: RawIndex<OldEntry> = serde_json::from_slice(bytes).map_err(not_index)?;
        for r in raw.skills.entries {
            match old_entry(r, url, &local) {
                Ok(e) => entries.push(e),
                Err(why) => notes.push(why),
            }
        }
        raw.skills.more
    } else {
        let raw: RawIndex<RawEntry> = serde_json::from_slice(bytes).map_err(not_index)?;
        check_schema(raw.schema.as_ref(), url)?;
        for r in raw.skills.entries {
            match entry(r, url, &local) {
                Ok(e) => entries.push(e),
                Err(why) => notes.push(why),
            }
        }
        raw.skills.more
    };
    drop_twins(&mut entries, &mut notes);
    if notes.len() > MAX_NOTES {
        let left = notes.len() - MAX_NOTES;
        notes.truncate(MAX_NOTES);
        notes.push(format!("and {left} more index entries left out"));
    }
    if more > 0 {
        notes.push(format!(
            "{} lists {more} more entries than skilltui reads (the first {MAX_INDEX_ENTRIES}, or entries that are not objects): left out",
            http::shown(url)
        ));
    }
    Ok((entries, notes))
}

/// A name the index lists twice names no one skill: which copy is meant
/// is the site's guess, so every copy is left out, with a note.
fn drop_twins(entries: &mut Vec<IndexEntry>, notes: &mut Vec<String>) {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for e in entries.iter() {
        *seen.entry(e.name.clone()).or_default() += 1;
    }
    let mut twins: Vec<&String> = seen
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(k, _)| k)
        .collect();
    twins.sort();
    for name in twins {
        let shown = sanitize_line(name);
        notes.push(format!(
            "the index lists '{shown}' more than once: every copy left out"
        ));
    }
    entries.retain(|e| seen.get(&e.name).is_none_or(|n| *n == 1));
}

/// The RFC asks a client to stop at a schema it does not know.
fn check_schema(schema: Option<&serde_json::Value>, url: &str) -> Result<(), String> {
    match schema {
        None => Ok(()),
        Some(serde_json::Value::String(s)) if s == SCHEMA => Ok(()),
        Some(other) => {
            let text = other
                .as_str()
                .map_or_else(|| other.to_string(), str::to_string);
            let text: String = sanitize_line(&text).chars().take(120).collect();
            Err(format!(
                "{} is an index of schema '{text}', which skilltui does not read (it reads {SCHEMA}): nothing was fetched",
                http::shown(url)
            ))
        }
    }
}

/// A name an index may give: a store name, no control characters.
fn entry_name(name: &str) -> Result<(), String> {
    let shown: String = sanitize_line(name).chars().take(80).collect();
    if let Err(e) = store::check_name(name) {
        return Err(format!("index entry '{shown}' left out: {e}"));
    }
    if name.chars().any(char::is_control) {
        return Err(format!(
            "index entry '{shown}' left out: its name holds control characters"
        ));
    }
    Ok(())
}

fn entry(r: RawEntry, index: &str, local: &Local) -> Result<IndexEntry, String> {
    entry_name(&r.name)?;
    let shown = sanitize_line(&r.name).into_owned();
    let artifact = match r.kind.as_str() {
        "skill-md" => Artifact::SkillMd,
        "archive" => Artifact::Archive(archive::Kind::of_url(&r.url)),
        other => {
            let other: String = sanitize_line(other).chars().take(40).collect();
            return Err(format!(
                "index entry '{shown}' left out: its type '{other}' is not one skilltui reads (skill-md, archive)"
            ));
        }
    };
    if !is_digest(&r.digest) {
        return Err(format!(
            "index entry '{shown}' left out: its digest is not sha256: and 64 hex digits"
        ));
    }
    let url = http::resolve(index, &r.url);
    if let Some(why) = http::refuse(&url).or_else(|| local.refuse(&url)) {
        return Err(format!("index entry '{shown}' left out: {why}"));
    }
    let version = r
        .version
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_graphic()));
    Ok(IndexEntry {
        name: r.name,
        description: r.description,
        artifact,
        url,
        digest: Some(r.digest.to_ascii_lowercase()),
        version,
    })
}

/// An entry of the older form: its files at `/.well-known/skills/NAME/`.
fn old_entry(r: OldEntry, index: &str, local: &Local) -> Result<IndexEntry, String> {
    entry_name(&r.name)?;
    let shown = sanitize_line(&r.name).into_owned();
    let left_out = |why: &str| format!("index entry '{shown}' left out: {why}");
    if r.files.len() > MAX_FILES {
        return Err(left_out(&format!("it lists more than {MAX_FILES} files")));
    }
    if !r.files.iter().any(|f| f == "SKILL.md") {
        return Err(left_out("its files do not include SKILL.md"));
    }
    if let Some(bad) = r.files.iter().find(|f| !is_file_path(f)) {
        let bad: String = sanitize_line(bad).chars().take(80).collect();
        return Err(left_out(&format!(
            "its file '{bad}' is not a relative path of printable characters without '..'"
        )));
    }
    let url = http::resolve(index, &format!("{}/", r.name));
    if let Some(why) = local.refuse(&url) {
        return Err(left_out(&why));
    }
    let mut files = r.files;
    files.sort();
    files.dedup();
    Ok(IndexEntry {
        name: r.name,
        description: r.description,
        artifact: Artifact::Files(files),
        url,
        digest: None,
        version: None,
    })
}

/// A file path as the discovery RFC allows one: relative, `/`-separated,
/// no `.` or `..` segment, printable ASCII without `\ ? # [ ]`.
fn is_file_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 256
        && path
            .bytes()
            .all(|b| (0x20..=0x7e).contains(&b) && !b"\\?#[]".contains(&b))
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// `sha256:` and 64 hex digits.
pub fn is_digest(d: &str) -> bool {
    d.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The digest of a skill's files as the discovery RFC computes a
/// skill-level digest: each `PATH\0HEX\n` (HEX the file's SHA-256), sorted
/// by path, hashed.
pub fn files_digest(files: &[(String, Vec<u8>)]) -> String {
    let mut lines: Vec<(&str, String)> = files
        .iter()
        .map(|(p, b)| (p.as_str(), digest_of(b)["sha256:".len()..].to_string()))
        .collect();
    lines.sort();
    let mut manifest = Vec::new();
    for (p, hex) in lines {
        manifest.extend_from_slice(p.as_bytes());
        manifest.push(0);
        manifest.extend_from_slice(hex.as_bytes());
        manifest.push(b'\n');
    }
    digest_of(&manifest)
}

/// The digest of bytes as an index writes it.
pub fn digest_of(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// What [`materialize`] wrote.
struct Written {
    digest: String,
    /// Bytes downloaded plus bytes written: what an index's budget counts.
    spent: u64,
}

/// Downloads `url` (by `deadline`), checks its digest against `expected`
/// (when given), then writes it into `folder` (created): a SKILL.md as the
/// folder's SKILL.md, an archive unpacked, the older form's files each at
/// its path. Returns the digest of what was served.
fn materialize(
    url: &str,
    artifact: &Artifact,
    expected: Option<&str>,
    folder: &Path,
    reach: Reach,
    deadline: Instant,
) -> Result<Written, String> {
    let cannot = |e: std::io::Error| format!("cannot write the staging folder: {e}");
    if let Artifact::Files(paths) = artifact {
        let mut files = Vec::new();
        let mut total = 0u64;
        for path in paths {
            let at = http::resolve(url, path);
            let bytes = reach.get(&at, http::MAX_DOWNLOAD, deadline)?;
            total += bytes.len() as u64;
            if total > archive::MAX_UNPACKED {
                return Err(format!(
                    "{}'s files are more than {} MiB in all: that is not a skill",
                    http::shown(url),
                    archive::MAX_UNPACKED >> 20
                ));
            }
            files.push((path.clone(), bytes));
        }
        let digest = files_digest(&files);
        check_digest(url, expected, &digest)?;
        for (path, bytes) in &files {
            let to = folder.join(path);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(cannot)?;
            }
            std::fs::write(&to, bytes).map_err(cannot)?;
        }
        return Ok(Written {
            digest,
            spent: 2 * total,
        });
    }
    let bytes = reach.get(url, http::MAX_DOWNLOAD, deadline)?;
    let digest = digest_of(&bytes);
    check_digest(url, expected, &digest)?;
    std::fs::create_dir_all(folder).map_err(cannot)?;
    let written = match artifact {
        Artifact::Archive(kind) => {
            let Some(kind) = kind.or_else(|| archive::Kind::sniff(&bytes)) else {
                return Err(format!(
                    "{} is neither a .tar.gz nor a .zip",
                    http::shown(url)
                ));
            };
            archive::unpack(&bytes, kind, folder)
                .map_err(|e| format!("{}: {e}", http::shown(url)))?
        }
        _ => {
            std::fs::write(folder.join("SKILL.md"), &bytes).map_err(cannot)?;
            bytes.len() as u64
        }
    };
    Ok(Written {
        digest,
        spent: bytes.len() as u64 + written,
    })
}

fn check_digest(url: &str, expected: Option<&str>, digest: &str) -> Result<(), String> {
    match expected.filter(|w| !w.eq_ignore_ascii_case(digest)) {
        Some(want) => Err(format!(
            "{} does not match its digest ({} expected, {digest} served): nothing was written",
            http::shown(url),
            sanitize_line(want)
        )),
        None => Ok(()),
    }
}

/// An artifact written into a staging folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// Its folder, relative to the staging root (`""`: the root).
    pub rel: String,
    /// Where that folder sits inside the artifact (`""`: its top).
    pub base: String,
    pub url: String,
    pub digest: String,
    /// The index entry's `version`, when it gave one.
    pub version: Option<String>,
    /// The index entry's name (`None`: a URL alone, not an index's).
    pub entry: Option<String>,
}

/// Artifacts downloaded, verified and written into a scratch folder that
/// is removed when this is dropped.
pub struct Staged {
    pub dir: tempfile::TempDir,
    pub fetched: Vec<Fetched>,
    /// One line per artifact left out (a wrong digest, a hostile archive).
    pub notes: Vec<String>,
}

impl Staged {
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The artifact a found skill (at `rel` under the root) came from, and
    /// the skill's path inside that artifact.
    pub fn artifact_of(&self, rel: &str) -> Option<(&Fetched, String)> {
        self.fetched.iter().find_map(|f| {
            let inside = match rel.strip_prefix(f.rel.as_str()) {
                Some(r) if f.rel.is_empty() || r.is_empty() || r.starts_with('/') => r,
                _ => return None,
            };
            let path = [f.base.as_str(), inside.trim_start_matches('/')]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("/");
            Some((f, path))
        })
    }
}

fn scratch() -> Result<tempfile::TempDir, String> {
    crate::core::sources::git::scratch_dir()
}

/// Downloads the entries of an index named in `only` (all when empty),
/// each into its own folder named after it: at most [`POOL`] at a time,
/// all within one timeout from now and [`MAX_INDEX_BYTES`] in all. An
/// entry whose download fails, whose digest does not match, or that is
/// not started within those bounds is left out with a note. `stop` ends
/// the downloads running and the ones after.
pub fn stage_index(
    entries: &[IndexEntry],
    mut notes: Vec<String>,
    only: &[String],
    reach: Reach,
) -> Result<Staged, String> {
    let dir = scratch()?;
    let todo: Vec<&IndexEntry> = entries
        .iter()
        .filter(|e| only.is_empty() || only.contains(&e.name))
        .collect();
    // Of the notes on entries left out, only those on the entries named;
    // a name the index does not list is said so.
    if !only.is_empty() {
        let quoted = |o: &String| format!("'{}'", sanitize_line(o));
        notes.retain(|n| only.iter().any(|o| n.contains(&quoted(o))));
        for o in only {
            let known =
                todo.iter().any(|e| e.name == *o) || notes.iter().any(|n| n.contains(&quoted(o)));
            if !known {
                let listed: Vec<String> = entries
                    .iter()
                    .take(10)
                    .map(|e| sanitize_line(&e.name).into_owned())
                    .collect();
                let more = if entries.len() > 10 { ", …" } else { "" };
                notes.push(format!(
                    "the site's index lists no skill {} (it lists: {}{more})",
                    quoted(o),
                    listed.join(", ")
                ));
            }
        }
    }
    let deadline = Instant::now() + http::timeout();
    let next = AtomicUsize::new(0);
    let spent = AtomicU64::new(0);
    let done: Mutex<Vec<(usize, Result<Written, String>)>> = Mutex::new(Vec::new());
    let stopped = || http::stopped(reach.stop);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some(e) = todo.get(i) else { break };
            let result = if stopped() {
                Err("cancelled".to_string())
            } else if Instant::now() >= deadline {
                Err(format!(
                    "not fetched: the site's skills took more than {} s in all; SKILLTUI_HTTP_TIMEOUT=SECONDS allows longer, or name fewer with --skill",
                    http::timeout().as_secs()
                ))
            } else if spent.load(Ordering::SeqCst) > MAX_INDEX_BYTES {
                Err(format!(
                    "not fetched: the site's skills came to more than {} MiB in all; name fewer with --skill",
                    MAX_INDEX_BYTES >> 20
                ))
            } else {
                let folder = dir.path().join(&e.name);
                let got = materialize(
                    &e.url,
                    &e.artifact,
                    e.digest.as_deref(),
                    &folder,
                    reach,
                    deadline,
                );
                match &got {
                    Ok(w) => {
                        spent.fetch_add(w.spent, Ordering::SeqCst);
                    }
                    Err(_) => {
                        let _ = std::fs::remove_dir_all(&folder);
                    }
                }
                got
            };
            done.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((i, result));
        }
    };
    std::thread::scope(|s| {
        for _ in 0..POOL.min(todo.len()) {
            s.spawn(work);
        }
    });
    if stopped() {
        return Err("cancelled: nothing was installed".into());
    }
    let mut done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    done.sort_by_key(|(i, _)| *i);
    let mut fetched = Vec::new();
    for (i, result) in done {
        let e = todo[i];
        match result {
            Ok(w) => fetched.push(Fetched {
                rel: e.name.clone(),
                base: String::new(),
                url: strip_credentials(&e.url).into_owned(),
                digest: w.digest,
                version: e.version.clone(),
                entry: Some(e.name.clone()),
            }),
            Err(why) => notes.push(format!(
                "skill '{}' left out: {why}",
                sanitize_line(&e.name)
            )),
        }
    }
    Ok(Staged {
        dir,
        fetched,
        notes,
    })
}

/// Downloads one artifact (a SKILL.md, an archive URL, an older-form
/// entry's files) into a folder named after it; `expected` checks its
/// digest first. `base` is the folder inside the artifact that ends up at
/// the returned root.
pub fn stage_url(
    url: &str,
    artifact: &Artifact,
    expected: Option<&str>,
    base: &str,
    reach: Reach,
) -> Result<(Staged, std::path::PathBuf), String> {
    let dir = scratch()?;
    let name = folder_name(url, artifact);
    let folder = dir.path().join(&name);
    let deadline = reach.by.unwrap_or_else(|| Instant::now() + http::timeout());
    let written = materialize(url, artifact, expected, &folder, reach, deadline)?;
    let root = folder.join(base);
    let staged = Staged {
        dir,
        // The returned root is what `discover` is given: the skills'
        // folders are relative to it.
        fetched: vec![Fetched {
            rel: String::new(),
            base: base.to_string(),
            url: strip_credentials(url).into_owned(),
            digest: written.digest,
            version: None,
            entry: None,
        }],
        notes: Vec::new(),
    };
    Ok((staged, root))
}

/// A folder name for an artifact: the folder a SKILL.md (or the older
/// form's files) sits in, an archive's name without its extension, when
/// they make a skill name.
fn folder_name(url: &str, artifact: &Artifact) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let mut segments = path.rsplit('/');
    let last = segments.next().unwrap_or_default();
    let candidate = match artifact {
        Artifact::SkillMd | Artifact::Files(_) => segments.next().unwrap_or_default().to_string(),
        Artifact::Archive(_) => {
            let lower = last.to_ascii_lowercase();
            let cut = [".tar.gz", ".tgz", ".zip"]
                .iter()
                .find(|x| lower.ends_with(*x))
                .map_or(0, |x| x.len());
            last[..last.len() - cut].to_string()
        }
    };
    match store::check_name(&candidate) {
        Ok(n) if !n.contains(':') => n,
        _ => "skill".into(),
    }
}

/// What a site or URL serves now, asked with one request.
pub enum Upstream {
    Index(Vec<IndexEntry>),
    /// A URL alone: the digest of what it serves.
    File {
        url: String,
        digest: String,
    },
}

/// What [`Upstream::find`] finds for a locked skill.
pub struct Served {
    /// The digest served now (`None`: the site publishes none).
    pub digest: Option<String>,
    pub url: String,
    pub artifact: Artifact,
    /// The index entry's `version`, when it gives one.
    pub version: Option<String>,
}

impl Upstream {
    /// Asks `source` (a site when `from_index`, else the artifact's URL).
    pub fn ask(source: &str, from_index: bool, reach: Reach) -> Result<Upstream, String> {
        if from_index {
            return match read_index(source, reach)? {
                Some((entries, _)) => Ok(Upstream::Index(entries)),
                None => Err(format!(
                    "{} no longer publishes a skills index ({INDEX_PATH} is gone)",
                    http::shown(source)
                )),
            };
        }
        let deadline = Instant::now() + http::timeout();
        let bytes = reach.get(source, http::MAX_DOWNLOAD, deadline)?;
        Ok(Upstream::File {
            url: source.to_string(),
            digest: digest_of(&bytes),
        })
    }

    /// The digest, URL and kind served now for the skill `name` locked at
    /// `url`: an index's entry of that name, else the one at that URL.
    pub fn find(&self, name: &str, url: &str) -> Result<Served, String> {
        match self {
            Upstream::File { url, digest } => Ok(Served {
                digest: Some(digest.clone()),
                url: url.clone(),
                artifact: Artifact::of_url(url),
                version: None,
            }),
            Upstream::Index(entries) => entries
                .iter()
                .find(|e| e.name == name)
                .or_else(|| entries.iter().find(|e| e.url == url))
                .map(|e| Served {
                    digest: e.digest.clone(),
                    url: e.url.clone(),
                    artifact: e.artifact.clone(),
                    version: e.version.clone(),
                })
                .ok_or_else(|| {
                    format!(
                        "'{}' is no longer in the site's index: remove it or add it again from where it went",
                        sanitize_line(name)
                    )
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_listed_twice_leaves_every_copy_out() {
        let d = format!("sha256:{}", "a".repeat(64));
        let json = format!(
            r#"{{"skills":[
            {{"name":"a","type":"skill-md","url":"a/SKILL.md","digest":"{d}"}},
            {{"name":"b","type":"skill-md","url":"b/SKILL.md","digest":"{d}"}},
            {{"name":"a","type":"skill-md","url":"evil/SKILL.md","digest":"{d}"}}
            ]}}"#
        );
        let url = "https://ex.com/.well-known/agent-skills/index.json";
        let (entries, notes) = parse_index(json.as_bytes(), url).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["b"]);
        assert_eq!(
            notes,
            ["the index lists 'a' more than once: every copy left out"]
        );
    }

    #[test]
    fn an_index_parses_and_bad_entries_become_notes() {
        let d = format!("sha256:{}", "a".repeat(64));
        let json = format!(
            r#"{{"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[
            {{"name":"one","type":"skill-md","description":"d","url":"one/SKILL.md","digest":"{d}"}},
            {{"name":"two","type":"archive","description":"d","url":"/x/two.tar.gz","digest":"{d}"}},
            {{"name":"../up","type":"skill-md","url":"a","digest":"{d}"}},
            {{"name":"bad\u001b[2J","type":"skill-md","url":"a","digest":"{d}"}},
            {{"name":"three","type":"zip","url":"a","digest":"{d}"}},
            {{"name":"four","type":"skill-md","url":"a","digest":"md5:00"}},
            {{"name":"five","type":"skill-md","url":"http://example.com/a","digest":"{d}"}}
            ]}}"#
        );
        let url = "https://ex.com/.well-known/agent-skills/index.json";
        let (entries, notes) = parse_index(json.as_bytes(), url).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["one", "two"]);
        assert_eq!(
            entries[0].url,
            "https://ex.com/.well-known/agent-skills/one/SKILL.md"
        );
        assert_eq!(
            entries[1].artifact,
            Artifact::Archive(Some(archive::Kind::TarGz))
        );
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[2].contains("not one skilltui reads"), "{notes:?}");
        assert!(notes.iter().all(|n| !n.contains('\u{1b}')), "{notes:?}");
        assert!(
            parse_index(b"<html>", url)
                .unwrap_err()
                .contains("not a skills index")
        );
    }

    #[test]
    fn an_unknown_schema_stops_and_the_entries_read_are_capped() {
        let url = "https://ex.com/.well-known/agent-skills/index.json";
        let e = parse_index(
            br#"{"$schema":"https://x.example/v9.json","skills":[]}"#,
            url,
        )
        .unwrap_err();
        assert!(e.contains("does not read") && e.contains("v9.json"), "{e}");
        let d = format!("sha256:{}", "a".repeat(64));
        let many: Vec<String> = (0..MAX_INDEX_ENTRIES + 500)
            .map(|i| format!(r#"{{"name":"n{i}","type":"skill-md","url":"a","digest":"{d}"}}"#))
            .collect();
        let many = many.join(",");
        let json = format!(r#"{{"skills":[{many}, 5, "x"]}}"#);
        let (entries, notes) = parse_index(json.as_bytes(), url).unwrap();
        assert_eq!(entries.len(), MAX_INDEX_ENTRIES);
        assert!(
            notes.last().unwrap().contains("502 more entries"),
            "{notes:?}"
        );
    }

    /// Second round: an index of 100,000 entries, each left out (no name),
    /// is read as its first 1,000, and says so in 22 lines, not 100,000.
    #[test]
    fn an_index_of_100_000_entries_is_read_in_bounds() {
        let url = "https://ex.com/.well-known/agent-skills/index.json";
        let json = format!(r#"{{"skills":[{}{{}}]}}"#, "{},".repeat(99_999));
        assert!(json.len() < http::MAX_DOWNLOAD as usize);
        let (entries, notes) = parse_index(json.as_bytes(), url).unwrap();
        assert!(entries.is_empty());
        assert_eq!(notes.len(), MAX_NOTES + 2, "{notes:?}");
        assert!(notes[MAX_NOTES].contains("980 more"), "{notes:?}");
        assert!(notes[MAX_NOTES + 1].contains("99000 more"), "{notes:?}");
    }

    #[test]
    fn pinned_and_older_index_paths_are_read_where_typed() {
        assert_eq!(
            index_url("https://ex.com/.well-known/agent-skills/v1.20.3/index.json").unwrap(),
            "https://ex.com/.well-known/agent-skills/v1.20.3/index.json"
        );
        for not_pinned in ["v01.2.3", "v1.2", "v1.2.3.4", "vx.2.3", "v1..3"] {
            let site = format!("https://ex.com/.well-known/agent-skills/{not_pinned}/index.json");
            assert_eq!(
                index_url(&site).unwrap(),
                format!("https://ex.com{INDEX_PATH}")
            );
        }
        let old = "https://ex.com/.well-known/skills/index.json";
        assert_eq!(index_url(old).unwrap(), old);
        let json = br#"{"skills":[{"name":"a","description":"d","files":["SKILL.md","x/y.md"]},
            {"name":"b","files":["x.md"]},{"name":"c","files":["SKILL.md","/etc/passwd"]},
            {"name":"e","files":["SKILL.md","a\b"]}]}"#;
        let (entries, notes) = parse_index(json, old).unwrap();
        assert_eq!(entries.len(), 1, "{notes:?}");
        assert_eq!(entries[0].url, "https://ex.com/.well-known/skills/a/");
        assert_eq!(entries[0].digest, None);
        assert_eq!(notes.len(), 3, "{notes:?}");
    }

    /// The discovery RFC's worked example of a skill-level digest.
    #[test]
    fn the_files_digest_is_the_rfcs_skill_level_digest() {
        let files = vec![
            ("scripts/run.sh".to_string(), b"#!/bin/sh\n".to_vec()),
            ("SKILL.md".to_string(), b"# Hello\n".to_vec()),
        ];
        assert_eq!(
            files_digest(&files),
            "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"
        );
    }

    #[test]
    fn digests_are_sha256_of_the_bytes() {
        assert_eq!(
            digest_of(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert!(is_digest(&digest_of(b"x")));
        assert_eq!(
            index_url("https://u:t@ex.com/docs/").unwrap(),
            "https://ex.com/.well-known/agent-skills/index.json"
        );
    }
}
