//! The one HTTP client behind `find` and the sources that are not git (a
//! site's well-known index, a SKILL.md or archive URL): https only (plain
//! http for loopback hosts, which is what tests use), at every redirect;
//! this machine's and its network's addresses only where the user named
//! them, judged on the addresses a name resolves to (each hop's, connected
//! to as checked: no second lookup a DNS server could answer otherwise);
//! Ctrl-C and the caller's cancel flag end a request at once; every request
//! bounded in time as a whole (`SKILLTUI_HTTP_TIMEOUT`, a slow-drip body
//! and redirects included) and in size; a URL's credentials never shown
//! nor sent.

use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::core::sources::interrupt;
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
/// Redirects followed, each one checked as the first URL is.
const MAX_REDIRECTS: usize = 5;

/// Which addresses of this machine (loopback, `0.0.0.0`) a request may
/// reach, at its first URL and at every redirect. Plain http is only ever
/// allowed to them, so this also says where plain http may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Local {
    /// Only this origin (`scheme://host:port`): the one the user typed, or
    /// the one of the index they typed.
    Origin(String),
    /// None: the URL came from a lock made elsewhere (`sync --lock FILE`).
    Lock,
    /// Any (`--allow-local`).
    Any,
}

impl Local {
    /// Where a URL the user typed may lead: its own origin, if local.
    pub fn typed(url: &str) -> Local {
        Local::Origin(origin(url))
    }

    /// Why `url` may not be fetched under this rule, or `None`.
    pub fn refuse(&self, url: &str) -> Option<String> {
        let p = parts(url)?;
        if !is_local(p.authority) {
            return None;
        }
        self.refuse_here(url, None)
    }

    /// Why `url`, whose host resolved to `ip`, may not be fetched under
    /// this rule, or `None`: a name is judged as the address it leads to.
    pub fn refuse_resolved(&self, url: &str, ip: IpAddr) -> Option<String> {
        if !is_local_ip(ip) {
            return None;
        }
        self.refuse_here(url, Some(ip))
    }

    /// The refusal of a URL that leads to this machine or its network.
    fn refuse_here(&self, url: &str, ip: Option<IpAddr>) -> Option<String> {
        let why = match self {
            Local::Any => return None,
            Local::Origin(o) if *o == origin(url) => return None,
            Local::Origin(_) => "and neither you nor the index you named it on typed it",
            Local::Lock => {
                "and the lock naming it was made elsewhere; `--allow-local` fetches it anyway"
            }
        };
        let what = match ip {
            Some(ip) => format!("leads to {ip}, an address on this machine or its network"),
            None => "is an address on this machine or its network".to_string(),
        };
        Some(format!("{} {what}, {why}: refused", shown(url)))
    }
}

/// `scheme://host:port` of a URL, lowercased, no credentials.
pub fn origin(url: &str) -> String {
    match parts(url) {
        Some(p) => format!("{}://{}", p.scheme, p.authority).to_ascii_lowercase(),
        None => String::new(),
    }
}

/// True for a host written as an address on this machine or its network
/// (see [`is_local_ip`]), or `localhost`.
pub fn is_local(authority: &str) -> bool {
    match host(authority).parse::<IpAddr>() {
        Ok(ip) => is_local_ip(ip),
        Err(_) => is_loopback(authority),
    }
}

/// True for an address of this machine (loopback, and `0.0.0.0` or `::`,
/// which connect here too) or of the networks around it (RFC 1918 and
/// RFC 6598 private, link-local where cloud metadata services answer, IPv6
/// unique local and link-local), also as an IPv4-mapped IPv6 address.
pub fn is_local_ip(ip: IpAddr) -> bool {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        ip => ip,
    };
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_unspecified()
                || v4.is_private()
                || v4.is_link_local()
                || (a == 100 && (64..128).contains(&b))
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
    }
}

/// How a request is bounded: its size, its cancel flag, where it may lead,
/// and the instant it must be done by (redirects included).
pub struct Ask<'a> {
    pub max: u64,
    pub stop: Option<&'a AtomicBool>,
    pub local: &'a Local,
    pub deadline: Instant,
}

/// GETs `url` whole, at most `max` bytes, within [`timeout`]; when `stop`
/// is set while it runs, the request is ended and `Failure::Cancelled`
/// comes back (at the latest when the next read returns, which the
/// timeout bounds). A URL the user typed: it may lead to its own origin
/// on this machine only.
pub fn get(url: &str, max: u64, stop: Option<&AtomicBool>) -> Result<Vec<u8>, Failure> {
    let local = Local::typed(url);
    let ask = Ask {
        max,
        stop,
        local: &local,
        deadline: Instant::now() + timeout(),
    };
    fetch(url, &ask)
}

/// GETs `url` as `ask` bounds it. Credentials in the URL are never sent;
/// redirects are followed here, each hop checked as the first URL is
/// (https, or plain http to this machine only, as `ask.local` allows).
pub fn fetch(url: &str, ask: &Ask) -> Result<Vec<u8>, Failure> {
    let typed = url;
    let mut url = strip_credentials(url).into_owned();
    for hop in 0..=MAX_REDIRECTS {
        if let Some(why) = refuse(&url).or_else(|| ask.local.refuse(&url)) {
            return Err(Failure::Other(match hop {
                0 => why,
                _ => format!("{} redirects: {why}", shown(typed)),
            }));
        }
        match hop_abortable(&url, ask)? {
            Hop::Body(b) => return Ok(b),
            Hop::Redirect(to) => url = resolve(&url, &strip_credentials(&to)),
        }
    }
    Err(Failure::Other(format!(
        "{} redirects more than {MAX_REDIRECTS} times: check the address",
        shown(typed)
    )))
}

enum Hop {
    Body(Vec<u8>),
    Redirect(String),
}

/// True when `stop` or Ctrl-C asks the running fetches to end.
pub fn stopped(stop: Option<&AtomicBool>) -> bool {
    stop.is_some_and(|s| s.load(Ordering::SeqCst)) || interrupt::interrupted()
}

/// How often a waiting request looks at its cancel flags.
const POLL: Duration = Duration::from_millis(50);

/// One request on a thread of its own, so that a cancel ends it at once
/// even while it waits on a silent server: the thread is then told to
/// drop its connection at its next read, and is not waited for (it holds
/// the reply in memory only, and its deadline bounds it).
fn hop_abortable(url: &str, ask: &Ask) -> Result<Hop, Failure> {
    let abandon = Arc::new(AtomicBool::new(false));
    let job = OneHop {
        url: url.to_string(),
        max: ask.max,
        local: ask.local.clone(),
        deadline: ask.deadline,
        abandon: abandon.clone(),
    };
    let (tx, rx) = mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new()
        .name("http".into())
        .spawn(move || tx.send(job.run()));
    if spawned.is_err() {
        return Err(Failure::Other(
            "cannot start a thread for the request".into(),
        ));
    }
    loop {
        if stopped(ask.stop) {
            abandon.store(true, Ordering::SeqCst);
            return Err(Failure::Cancelled);
        }
        match rx.recv_timeout(POLL) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Failure::Other(format!(
                    "cannot fetch {}: the request ended without an answer",
                    shown(url)
                )));
            }
        }
    }
}

/// One request, redirects not followed, with all it needs owned.
struct OneHop {
    url: String,
    max: u64,
    local: Local,
    deadline: Instant,
    abandon: Arc<AtomicBool>,
}

impl OneHop {
    fn run(self) -> Result<Hop, Failure> {
        let url = self.url.as_str();
        let stopped = || self.abandon.load(Ordering::SeqCst);
        let limit = timeout();
        let left = self.deadline.saturating_duration_since(Instant::now());
        let refused: Arc<Mutex<Option<String>>> = Arc::default();
        let said = |e: ureq::Error| {
            let why = refused.lock().ok().and_then(|mut r| r.take());
            Failure::Other(why.unwrap_or_else(|| explain(url, &e, limit, self.max)))
        };
        if left.is_zero() {
            return Err(said(ureq::Error::Timeout(ureq::Timeout::Global)));
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(left))
            .timeout_connect(Some(CONNECT.min(left)))
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(concat!("skilltui/", env!("CARGO_PKG_VERSION")))
            .build();
        let resolver = Checked {
            url: url.to_string(),
            local: self.local.clone(),
            refused: refused.clone(),
        };
        let agent = ureq::Agent::with_parts(config, DefaultConnector::new(), resolver);
        let mut reply = agent.get(url).call().map_err(said)?;
        if stopped() {
            return Err(Failure::Cancelled);
        }
        let status = reply.status().as_u16();
        if matches!(status, 301 | 302 | 303 | 307 | 308) {
            let to = reply
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok());
            return match to {
                Some(to) => Ok(Hop::Redirect(to.to_string())),
                None => Err(Failure::Status(status)),
            };
        }
        if !(200..300).contains(&status) {
            return Err(Failure::Status(status));
        }
        let mut reader = reply.body_mut().with_config().limit(self.max).reader();
        let mut body = Vec::new();
        let mut chunk = vec![0u8; CHUNK];
        loop {
            if stopped() {
                // Dropping the reader closes the connection.
                return Err(Failure::Cancelled);
            }
            match reader.read(&mut chunk) {
                Ok(0) => return Ok(Hop::Body(body)),
                Ok(n) => body.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(said(ureq::Error::from(e))),
            }
        }
    }
}

/// The resolver of one request: the addresses a host name gives are
/// judged as [`Local`] judges a typed address, every one of them, before
/// any is connected to; the connection then goes to exactly those (ureq
/// connects to what its resolver returns), so a second lookup cannot
/// answer otherwise.
#[derive(Debug)]
struct Checked {
    url: String,
    local: Local,
    /// Why the host was refused, for the error line.
    refused: Arc<Mutex<Option<String>>>,
}

impl Resolver for Checked {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let found = DefaultResolver::default().resolve(uri, config, timeout)?;
        // A proxy the user set (`HTTPS_PROXY`) is resolved here too, and is
        // theirs to choose: only the request's own host is judged.
        let asked = uri.host().unwrap_or_default();
        let asked = asked.trim_start_matches('[').trim_end_matches(']');
        let own = parts(&self.url).is_some_and(|p| host(p.authority).eq_ignore_ascii_case(asked));
        if !own {
            return Ok(found);
        }
        let why = found
            .iter()
            .find_map(|a| self.local.refuse_resolved(&self.url, a.ip()));
        match why {
            Some(why) => {
                if let Ok(mut r) = self.refused.lock() {
                    *r = Some(why);
                }
                Err(ureq::Error::HostNotFound)
            }
            None => Ok(found),
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
    fn this_machine_is_reached_only_from_its_own_origin() {
        let typed = Local::typed("http://127.0.0.1:8080/.well-known/agent-skills/index.json");
        assert!(typed.refuse("http://127.0.0.1:8080/a/SKILL.md").is_none());
        assert!(typed.refuse("https://example.com/a/SKILL.md").is_none());
        for other in [
            "http://127.0.0.1:9090/a",
            "http://localhost:8080/a",
            "http://0.0.0.0:8080/a",
            "http://[::ffff:127.0.0.1]:8080/a",
        ] {
            assert!(typed.refuse(other).is_some(), "{other}");
        }
        let remote = Local::typed("https://example.com/");
        assert!(remote.refuse("https://127.0.0.1/x").is_some());
        let e = Local::Lock.refuse("http://127.0.0.1:1/admin").unwrap();
        assert!(e.contains("--allow-local"), "{e}");
        assert!(Local::Any.refuse("http://127.0.0.1:1/admin").is_none());
    }

    #[test]
    fn addresses_of_this_machine_and_its_network_are_local() {
        for ip in [
            "127.0.0.1",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_local_ip(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700::1"] {
            assert!(!is_local_ip(ip.parse().unwrap()), "{ip}");
        }
        let typed = Local::typed("https://docs.example.com/");
        let entry = "https://probe.example.net:22/SKILL.md";
        let e = typed
            .refuse_resolved(entry, "127.0.0.1".parse().unwrap())
            .unwrap();
        assert!(
            e.contains("leads to 127.0.0.1") && e.contains("refused"),
            "{e}"
        );
        assert!(
            typed
                .refuse_resolved(entry, "93.184.216.34".parse().unwrap())
                .is_none()
        );
        let own = Local::typed(entry);
        assert!(
            own.refuse_resolved(entry, "10.0.0.1".parse().unwrap())
                .is_none()
        );
        assert!(
            Local::Lock
                .refuse_resolved(entry, "10.0.0.1".parse().unwrap())
                .is_some()
        );
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
