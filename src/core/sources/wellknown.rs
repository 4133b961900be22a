//! Skills published over HTTP: a site's discovery index
//! (`/.well-known/agent-skills/index.json`, the Agent Skills Discovery RFC
//! v0.2: entries with `name`, `description`, `type` `skill-md` or
//! `archive`, `url` resolved against the index, and `digest`
//! `sha256:HEX` of the artifact), and a SKILL.md or archive at a URL.
//! Each artifact is downloaded whole, its digest checked in memory, and
//! only then written into a staging folder for `source::discover`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::core::cao::store;
use crate::core::sources::archive;
use crate::core::sources::http::{self, Failure};
use crate::core::text::sanitize_line;

/// Where a site publishes its index, from its root.
pub const INDEX_PATH: &str = "/.well-known/agent-skills/index.json";

/// What an artifact is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// One SKILL.md: the whole skill.
    SkillMd,
    /// An archive of a skill's folder (or of several skills).
    Archive(Option<archive::Kind>),
}

/// One skill of an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    pub name: String,
    pub description: String,
    pub artifact: Artifact,
    /// Absolute, resolved against the index's URL.
    pub url: String,
    pub digest: String,
}

#[derive(Deserialize)]
struct RawIndex {
    skills: Vec<RawEntry>,
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
}

/// The index URL of a site (`https://HOST[/path]`): the well-known path
/// is at the host's root, as RFC 8615 places it.
pub fn index_url(site: &str) -> Option<String> {
    let p = http::parts(site)?;
    Some(format!("{}://{}{INDEX_PATH}", p.scheme, p.authority))
}

/// An index's usable entries, and a note on each one left out.
pub type Listed = (Vec<IndexEntry>, Vec<String>);

/// The site's index: `Ok(None)` when it has none (HTTP 404 or 410), so the
/// address can be tried as a git repository; entries that cannot be used
/// come back as notes, one line each.
pub fn read_index(site: &str, stop: Option<&AtomicBool>) -> Result<Option<Listed>, String> {
    let Some(url) = index_url(site) else {
        return Err(format!("{} is not an http(s) URL", http::shown(site)));
    };
    let bytes = match http::get(&url, http::MAX_DOWNLOAD, stop) {
        Ok(b) => b,
        Err(Failure::Status(404 | 410)) => return Ok(None),
        Err(e) => return Err(e.line(&url)),
    };
    parse_index(&bytes, &url).map(Some)
}

/// The entries of an index's bytes, and a note for each one left out.
pub fn parse_index(bytes: &[u8], url: &str) -> Result<Listed, String> {
    let raw: RawIndex = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "{} is not a skills index ({}): the site publishes something else there",
            http::shown(url),
            sanitize_line(&e.to_string())
        )
    })?;
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    for r in raw.skills {
        match entry(r, url) {
            Ok(e) => entries.push(e),
            Err(why) => notes.push(why),
        }
    }
    Ok((entries, notes))
}

fn entry(r: RawEntry, index: &str) -> Result<IndexEntry, String> {
    let shown = sanitize_line(&r.name).into_owned();
    if let Err(e) = store::check_name(&r.name) {
        return Err(format!("index entry '{shown}' left out: {e}"));
    }
    if r.name.chars().any(char::is_control) {
        return Err(format!(
            "index entry '{shown}' left out: its name holds control characters"
        ));
    }
    let artifact = match r.kind.as_str() {
        "skill-md" => Artifact::SkillMd,
        "archive" => Artifact::Archive(archive::Kind::of_url(&r.url)),
        other => {
            return Err(format!(
                "index entry '{shown}' left out: its type '{}' is neither skill-md nor archive",
                sanitize_line(other)
            ));
        }
    };
    if !is_digest(&r.digest) {
        return Err(format!(
            "index entry '{shown}' left out: its digest is not sha256: and 64 hex digits"
        ));
    }
    let url = http::resolve(index, &r.url);
    if let Some(why) = http::refuse(&url) {
        return Err(format!("index entry '{shown}' left out: {why}"));
    }
    Ok(IndexEntry {
        name: r.name,
        description: r.description,
        artifact,
        url,
        digest: r.digest.to_ascii_lowercase(),
    })
}

/// `sha256:` and 64 hex digits.
pub fn is_digest(d: &str) -> bool {
    d.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The digest of bytes as an index writes it.
pub fn digest_of(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Downloads `url`, checks its digest against `expected` (when given),
/// then writes it into `folder` (created): a SKILL.md as the folder's
/// SKILL.md, an archive unpacked. Returns the digest of what was served.
pub fn materialize(
    url: &str,
    artifact: Artifact,
    expected: Option<&str>,
    folder: &Path,
    stop: Option<&AtomicBool>,
) -> Result<String, String> {
    let bytes = http::get(url, http::MAX_DOWNLOAD, stop).map_err(|e| e.line(url))?;
    let digest = digest_of(&bytes);
    if let Some(want) = expected.filter(|w| !w.eq_ignore_ascii_case(&digest)) {
        return Err(format!(
            "{} does not match its digest ({} expected, {digest} served): nothing was written",
            http::shown(url),
            sanitize_line(want)
        ));
    }
    std::fs::create_dir_all(folder).map_err(|e| format!("cannot write the staging folder: {e}"))?;
    match artifact {
        Artifact::SkillMd => std::fs::write(folder.join("SKILL.md"), &bytes)
            .map_err(|e| format!("cannot write the staging folder: {e}"))?,
        Artifact::Archive(kind) => {
            let Some(kind) = kind.or_else(|| archive::Kind::sniff(&bytes)) else {
                return Err(format!(
                    "{} is neither a .tar.gz nor a .zip",
                    http::shown(url)
                ));
            };
            archive::unpack(&bytes, kind, folder)
                .map_err(|e| format!("{}: {e}", http::shown(url)))?;
        }
    }
    Ok(digest)
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

/// Downloads each entry of an index into its own folder, named after it;
/// an entry whose download fails or whose digest does not match is left
/// out with a note. `stop` ends the download running and the ones after.
pub fn stage_index(
    entries: &[IndexEntry],
    mut notes: Vec<String>,
    stop: Option<&AtomicBool>,
) -> Result<Staged, String> {
    let dir = scratch()?;
    let mut fetched = Vec::new();
    for e in entries {
        if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
            return Err("cancelled: nothing was installed".into());
        }
        let folder = dir.path().join(&e.name);
        match materialize(&e.url, e.artifact, Some(&e.digest), &folder, stop) {
            Ok(digest) => fetched.push(Fetched {
                rel: e.name.clone(),
                base: String::new(),
                url: e.url.clone(),
                digest,
            }),
            Err(why) => {
                notes.push(format!(
                    "skill '{}' left out: {why}",
                    sanitize_line(&e.name)
                ));
                let _ = std::fs::remove_dir_all(&folder);
            }
        }
    }
    Ok(Staged {
        dir,
        fetched,
        notes,
    })
}

/// Downloads one artifact (a SKILL.md or an archive URL) into a folder
/// named after it; `expected` checks its digest first. `base` is the
/// folder inside the artifact that ends up at the returned root.
pub fn stage_url(
    url: &str,
    artifact: Artifact,
    expected: Option<&str>,
    base: &str,
    stop: Option<&AtomicBool>,
) -> Result<(Staged, std::path::PathBuf), String> {
    let dir = scratch()?;
    let name = folder_name(url, artifact);
    let folder = dir.path().join(&name);
    let digest = materialize(url, artifact, expected, &folder, stop)?;
    let root = folder.join(base);
    let staged = Staged {
        dir,
        // The returned root is what `discover` is given: the skills'
        // folders are relative to it.
        fetched: vec![Fetched {
            rel: String::new(),
            base: base.to_string(),
            url: url.to_string(),
            digest,
        }],
        notes: Vec::new(),
    };
    Ok((staged, root))
}

/// A folder name for an artifact: the folder a SKILL.md sits in, an
/// archive's name without its extension, when they make a skill name.
fn folder_name(url: &str, artifact: Artifact) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let mut segments = path.rsplit('/');
    let last = segments.next().unwrap_or_default();
    let candidate = match artifact {
        Artifact::SkillMd => segments.next().unwrap_or_default().to_string(),
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

impl Upstream {
    /// Asks `source` (a site when `from_index`, else the artifact's URL).
    pub fn ask(source: &str, from_index: bool) -> Result<Upstream, String> {
        if from_index {
            return match read_index(source, None)? {
                Some((entries, _)) => Ok(Upstream::Index(entries)),
                None => Err(format!(
                    "{} no longer publishes a skills index ({INDEX_PATH} is gone)",
                    http::shown(source)
                )),
            };
        }
        let bytes = http::get(source, http::MAX_DOWNLOAD, None).map_err(|e| e.line(source))?;
        Ok(Upstream::File {
            url: source.to_string(),
            digest: digest_of(&bytes),
        })
    }

    /// The digest, URL and kind served now for the skill `name` locked at
    /// `url`: an index's entry of that name, else the one at that URL.
    pub fn find(&self, name: &str, url: &str) -> Result<(String, String, Artifact), String> {
        match self {
            Upstream::File { url, digest } => {
                let artifact = if url.split(['?', '#']).next().unwrap_or(url).ends_with("SKILL.md") {
                    Artifact::SkillMd
                } else {
                    Artifact::Archive(archive::Kind::of_url(url))
                };
                Ok((digest.clone(), url.clone(), artifact))
            }
            Upstream::Index(entries) => entries
                .iter()
                .find(|e| e.name == name)
                .or_else(|| entries.iter().find(|e| e.url == url))
                .map(|e| (e.digest.clone(), e.url.clone(), e.artifact))
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
        assert!(notes.iter().all(|n| !n.contains('\u{1b}')), "{notes:?}");
        assert!(
            parse_index(b"<html>", url)
                .unwrap_err()
                .contains("not a skills index")
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
