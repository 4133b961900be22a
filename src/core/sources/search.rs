//! `find`: the skills.sh registry's search, the API its own CLI queries
//! (`GET $SKILLS_API_URL/api/search?q=…&limit=N[&owner=O]`, reply
//! `{"skills":[{"id","name","source","installs"}]}`, `source` being
//! `owner/repo`), and whether each result is installed here. Nothing is
//! cached: every search asks.

use std::sync::atomic::AtomicBool;

use serde::Deserialize;

use crate::core::cao::store::Home;
use crate::core::sources::http;
use crate::core::sources::lock::{self, Lock};
use crate::core::text::{sanitize_line, strip_credentials};

/// The registry asked when `SKILLS_API_URL` is not set.
pub const DEFAULT_API: &str = "https://skills.sh";
/// The most results one search asks for.
pub const MAX_LIMIT: usize = 100;
/// A search reply is a list of short rows: more than this is not one.
pub const MAX_REPLY: u64 = 1 << 20;

/// One search result, as the registry sent it (sanitize before showing).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hit {
    pub name: String,
    /// `owner/repo`, what `skilltui add` takes.
    pub source: String,
    pub installs: u64,
    pub installed: Installed,
}

/// Whether a result is in the store here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Installed {
    No,
    /// Installed from this source, as the lock pinned it.
    Current,
    /// Installed from this source, edited or missing since.
    Modified,
    /// A skill of that name is here, from elsewhere.
    Other,
}

#[derive(Deserialize)]
struct Reply {
    skills: Vec<RawHit>,
}

#[derive(Deserialize)]
struct RawHit {
    #[serde(default)]
    name: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    installs: u64,
}

/// The API's base URL: `SKILLS_API_URL`, else skills.sh. Credentials
/// written into it are taken out: they are never sent ([`api_warning`]
/// says so).
pub fn api_base() -> String {
    let set = std::env::var("SKILLS_API_URL")
        .ok()
        .map(|v| v.trim().trim_end_matches('/').to_string())
        .filter(|v| !v.is_empty());
    match set {
        Some(v) => strip_credentials(&v).into_owned(),
        None => DEFAULT_API.to_string(),
    }
}

/// The one line to show when `SKILLS_API_URL` holds credentials, which
/// skilltui never sends.
pub fn api_warning() -> Option<String> {
    let v = std::env::var("SKILLS_API_URL").ok()?;
    (strip_credentials(&v) != v).then(|| {
        format!(
            "SKILLS_API_URL holds credentials: they were left out and not sent (skilltui sends none to {})",
            http::shown(&v)
        )
    })
}

/// The search URL for `query`.
pub fn search_url(base: &str, query: &str, limit: usize, owner: Option<&str>) -> String {
    let mut url = format!(
        "{base}/api/search?q={}&limit={}",
        encode(query),
        limit.clamp(1, MAX_LIMIT)
    );
    if let Some(o) = owner {
        url.push_str("&owner=");
        url.push_str(&encode(o));
    }
    url
}

/// Percent-encoding of a query value (RFC 3986 unreserved kept).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Searches the registry; results sorted by installs (most first), each
/// marked with whether it is installed here.
pub fn find(
    home: &Home,
    query: &str,
    limit: usize,
    owner: Option<&str>,
    stop: Option<&AtomicBool>,
) -> Result<Vec<Hit>, String> {
    let query = query.trim();
    if query.is_empty() {
        return Err("the query is empty: give words to search for".into());
    }
    let url = search_url(&api_base(), query, limit, owner);
    let bytes = http::get(&url, MAX_REPLY, stop).map_err(|e| e.line(&url))?;
    let mut hits = parse(&bytes, &url)?;
    hits.truncate(limit.clamp(1, MAX_LIMIT));
    mark_installed(home, &mut hits);
    Ok(hits)
}

/// The results of a reply, sorted by installs then name.
pub fn parse(bytes: &[u8], url: &str) -> Result<Vec<Hit>, String> {
    let reply: Reply = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "{} did not answer with search results ({}): check SKILLS_API_URL",
            http::shown(url),
            sanitize_line(&e.to_string())
        )
    })?;
    let mut hits: Vec<Hit> = reply
        .skills
        .into_iter()
        .filter(|h| !h.name.is_empty() && !h.source.is_empty())
        .map(|h| Hit {
            name: h.name,
            source: h.source,
            installs: h.installs,
            installed: Installed::No,
        })
        .collect();
    hits.sort_by(|a, b| b.installs.cmp(&a.installs).then(a.name.cmp(&b.name)));
    Ok(hits)
}

/// The GitHub URL `add` would lock for `owner/repo`.
fn repo_url(source: &str) -> String {
    format!("https://github.com/{}", source.trim_matches('/'))
}

/// Marks each hit by the store and the lock as they are now.
fn mark_installed(home: &Home, hits: &mut [Hit]) {
    let lock = Lock::read(&lock::default_path(home)).ok();
    for h in hits.iter_mut() {
        let Ok(name) = crate::core::cao::store::check_name(&h.name) else {
            continue;
        };
        let dest = home.skills_dir().join(&name);
        let here = std::fs::symlink_metadata(&dest).is_ok();
        let pinned = lock.as_ref().and_then(|l| l.skills.get(&name));
        h.installed = match pinned {
            Some(e) if e.source.trim_end_matches(".git") == repo_url(&h.source) => {
                match lock::content_hash(&dest) {
                    Ok(hash) if hash == e.hash => Installed::Current,
                    _ => Installed::Modified,
                }
            }
            _ if here => Installed::Other,
            _ => Installed::No,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_encode_the_query() {
        assert_eq!(
            search_url("https://skills.sh", "pdf & docs", 500, Some("o/x")),
            "https://skills.sh/api/search?q=pdf%20%26%20docs&limit=100&owner=o%2Fx"
        );
    }

    #[test]
    fn replies_sort_by_installs_and_junk_is_one_line() {
        let json = br#"{"skills":[{"id":"a","name":"a","source":"o/a","installs":3},
            {"id":"b","name":"b","source":"o/b","installs":30},{"name":"","source":"x"}]}"#;
        let hits = parse(json, "https://s").unwrap();
        let names: Vec<&str> = hits.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        let e = parse(b"<html>\n\x1b[2J", "https://s").unwrap_err();
        assert!(!e.contains('\n') && !e.contains('\u{1b}'), "{e}");
    }
}
