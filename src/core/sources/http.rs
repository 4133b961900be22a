//! The one HTTP client behind `find` and the sources that are not git (a
//! site's well-known index, a SKILL.md or archive URL): https only (plain
//! http for loopback hosts, which is what tests use), every request bounded
//! in time as a whole (`SKILLTUI_HTTP_TIMEOUT`, a slow-drip body included)
//! and in size, and a URL's credentials never shown.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::core::text::{sanitize_line, strip_credentials};

/// The most one reply may hold: an index, a SKILL.md or an archive.
pub const MAX_DOWNLOAD: u64 = 10 << 20;

/// Default of `SKILLTUI_HTTP_TIMEOUT`: seconds a whole request may take.
const DEFAULT_TIMEOUT_SECS: u64 = 15;

/// `SKILLTUI_HTTP_TIMEOUT` (whole seconds, more than 0), else 15 s.
pub fn timeout() -> Duration {
    let secs = std::env::var("SKILLTUI_HTTP_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(DEFAULT_TIMEOUT_SECS);
    Duration::from_secs(secs)
}

/// The scheme, host and path of an http(s) URL (credentials left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts<'a> {
    pub scheme: &'a str,
    /// `host[:port]` without any user part.
    pub authority: &'a str,
    /// From the first `/` (empty: none).
    pub path: &'a str,
}

/// Splits an `http://` or `https://` URL; `None` for anything else.
pub fn parts(url: &str) -> Option<Parts<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    (!authority.is_empty()).then_some(Parts {
        scheme,
        authority,
        path: &rest[end..],
    })
}

/// The host of an authority, without port or IPv6 brackets.
fn host(authority: &str) -> &str {
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.split(':').next().unwrap_or(authority),
    }
}

/// True for `localhost`, `127.x.x.x` and `::1`.
pub fn is_loopback(authority: &str) -> bool {
    let h = host(authority);
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Why skilltui will not fetch `url` over HTTP, or `None`.
pub fn refuse(url: &str) -> Option<String> {
    let shown = shown(url);
    match parts(url) {
        None => Some(format!(
            "{shown} is not an http(s) URL: give https://HOST/…"
        )),
        Some(p) if p.scheme == "http" && !is_loopback(p.authority) => Some(format!(
            "{shown} is plain http: use https:// (plain http is only for this machine's own addresses)"
        )),
        Some(_) => None,
    }
}

/// `url` as it may be shown: no credentials, no control characters.
pub fn shown(url: &str) -> String {
    sanitize_line(&strip_credentials(url)).into_owned()
}

/// What a failed request says, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The server answered with this status (404 and the like).
    Status(u16),
    /// The caller's cancel flag was set while the request ran: it was
    /// ended, not left to finish.
    Cancelled,
    /// Anything else: no answer, too slow, too large, refused.
    Other(String),
}

impl Failure {
    pub fn line(self, url: &str) -> String {
        match self {
            Failure::Status(code) => {
                format!("{} answered HTTP {code}: check the address", shown(url))
            }
            Failure::Cancelled => format!("cancelled fetching {}", shown(url)),
            Failure::Other(why) => why,
        }
    }
}

/// Bytes read from the body at a time: the cancel flag is looked at
/// between two reads.
const CHUNK: usize = 16 << 10;
/// The longest wait for a connection, within [`timeout`].
const CONNECT: Duration = Duration::from_secs(10);

/// GETs `url` whole, at most `max` bytes, within [`timeout`]; when `stop`
/// is set while it runs, the request is ended and `Failure::Cancelled`
/// comes back (at the latest when the next read returns, which the
/// timeout bounds).
pub fn get(url: &str, max: u64, stop: Option<&AtomicBool>) -> Result<Vec<u8>, Failure> {
    if let Some(why) = refuse(url) {
        return Err(Failure::Other(why));
    }
    let stopped = || stop.is_some_and(|s| s.load(Ordering::SeqCst));
    let limit = timeout();
    let loopback = parts(url).is_some_and(|p| is_loopback(p.authority));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(limit))
        .timeout_connect(Some(CONNECT.min(limit)))
        .http_status_as_error(false)
        // A redirect may not leave https, except on this machine.
        .https_only(!loopback)
        .max_redirects(5)
        .user_agent(concat!("skilltui/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let said = |e: ureq::Error| Failure::Other(explain(url, &e, limit, max));
    let mut reply = agent.get(url).call().map_err(said)?;
    if stopped() {
        return Err(Failure::Cancelled);
    }
    let status = reply.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(Failure::Status(status));
    }
    let mut reader = reply.body_mut().with_config().limit(max).reader();
    let mut body = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if stopped() {
            // Dropping the reader closes the connection.
            return Err(Failure::Cancelled);
        }
        match reader.read(&mut chunk) {
            Ok(0) => return Ok(body),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(said(ureq::Error::from(e))),
        }
    }
}

/// One line for a failed request, naming the host and what to do.
fn explain(url: &str, e: &ureq::Error, limit: Duration, max: u64) -> String {
    let shown = shown(url);
    match e {
        ureq::Error::Timeout(_) => format!(
            "{shown} did not answer in full within {} s: check the address and the network, or allow longer with SKILLTUI_HTTP_TIMEOUT=SECONDS",
            limit.as_secs()
        ),
        ureq::Error::BodyExceedsLimit(_) => format!(
            "{shown} sent more than {} MiB: that is more than a skill needs, so it was not read",
            max >> 20
        ),
        ureq::Error::Io(io) => format!(
            "cannot reach {shown}: {}: check the address and the network",
            sanitize_line(&strip_credentials(&io.to_string()))
        ),
        other => format!(
            "cannot fetch {shown}: {}",
            sanitize_line(&strip_credentials(&other.to_string()))
        ),
    }
}

/// `reference` resolved against `base` (RFC 3986 section 5.2, for the
/// shapes an index holds: absolute, `//host/…`, `/path`, `rel/path`, with
/// `.` and `..` segments removed).
pub fn resolve(base: &str, reference: &str) -> String {
    if parts(reference).is_some() {
        return reference.to_string();
    }
    let Some(b) = parts(base) else {
        return reference.to_string();
    };
    if let Some(rest) = reference.strip_prefix("//") {
        return format!("{}://{rest}", b.scheme);
    }
    let base_path = b.path.split(['?', '#']).next().unwrap_or("");
    let path = if reference.starts_with('/') {
        reference.to_string()
    } else {
        let dir = &base_path[..base_path.rfind('/').map_or(0, |i| i + 1)];
        let dir = if dir.is_empty() { "/" } else { dir };
        format!("{dir}{reference}")
    };
    format!("{}://{}{}", b.scheme, b.authority, remove_dots(&path))
}

/// A path without its `.` and `..` segments (never above the root).
fn remove_dots(path: &str) -> String {
    let (path, query) = match path.find(['?', '#']) {
        Some(i) => (&path[..i], &path[i..]),
        None => (path, ""),
    };
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    for (i, s) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *s {
            "." if last => out.push(""),
            "." => {}
            ".." => {
                out.pop();
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("/{}{query}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_loopback_http() {
        assert!(refuse("https://example.com/x").is_none());
        assert!(refuse("http://127.0.0.1:8080/x").is_none());
        assert!(refuse("http://localhost/x").is_none());
        assert!(refuse("http://[::1]:9/x").is_none());
        let e = refuse("http://u:TOK@example.com/x").unwrap();
        assert!(e.contains("plain http") && !e.contains("TOK"), "{e}");
        assert!(refuse("ftp://example.com/x").is_some());
        assert!(refuse("file:///etc/passwd").is_some());
    }

    #[test]
    fn references_resolve_as_rfc_3986_says() {
        let base = "https://ex.com/.well-known/agent-skills/index.json";
        let r = |x| resolve(base, x);
        assert_eq!(
            r("a/SKILL.md"),
            "https://ex.com/.well-known/agent-skills/a/SKILL.md"
        );
        assert_eq!(r("/x/y.zip"), "https://ex.com/x/y.zip");
        assert_eq!(r("../../up.tgz"), "https://ex.com/up.tgz");
        assert_eq!(r("../../../../up.tgz"), "https://ex.com/up.tgz");
        assert_eq!(r("//cdn.ex.com/z.zip"), "https://cdn.ex.com/z.zip");
        assert_eq!(r("https://other.org/s.md"), "https://other.org/s.md");
        assert_eq!(
            r("./b/./c.md"),
            "https://ex.com/.well-known/agent-skills/b/c.md"
        );
    }
}
