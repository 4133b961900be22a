//! Skills over HTTP and `find`, end to end and offline: a server on
//! 127.0.0.1 started by each test serves a well-known index, SKILL.md and
//! archive URLs, the registry's search API (whose results point at git
//! repositories built here, reached through git's `insteadOf`), and the
//! hostile replies each bound is tested with.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[path = "common/git_repos.rs"]
mod git_repos;
#[path = "common/http_server.rs"]
mod http_server;
#[path = "common/pty.rs"]
#[allow(dead_code)]
mod pty;
use http_server::{Reply, Server};
use skilltui::core::sources::wellknown::digest_of;

struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    scratch: PathBuf,
    server: Server,
}

fn skill_md(name: &str, body: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: The {name} skill\n---\n{body}\n").into_bytes()
}

fn tar_gz(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (path, body) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        let name = &mut h.as_old_mut().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        h.set_cksum();
        b.append(&h, *body).unwrap();
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&b.into_inner().unwrap()).unwrap();
    gz.finish().unwrap()
}

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in files {
        w.start_file(*name, opts).unwrap();
        w.write_all(body).unwrap();
    }
    w.finish().unwrap().into_inner()
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let scratch = root.join("scratch");
        fs::create_dir_all(&scratch).unwrap();
        Fixture {
            home: root.join("home"),
            root,
            scratch,
            server: Server::start(),
            _tmp: tmp,
        }
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        cmd.arg("--home")
            .arg(&self.home)
            .args(args)
            .current_dir(&self.root)
            .env_remove("CAO_HOME_DIR")
            .env("HOME", &self.root)
            .env("TMPDIR", &self.scratch)
            .env("SKILLS_API_URL", &self.server.base)
            .env("SKILLTUI_HTTP_TIMEOUT", "5")
            .envs(git_repos::redirect_env(&self.root));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args, &[]);
        assert_eq!(code, 0, "{args:?}: {out}\n{err}");
        out
    }

    fn fails(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let (code, out, err) = self.run(args, env);
        assert_eq!(code, 1, "{args:?} should fail: {out}\n{err}");
        assert!(!out.contains('\u{1b}') && !err.contains('\u{1b}'), "{err}");
        err
    }

    fn store(&self) -> PathBuf {
        self.home.join("skills")
    }

    fn lock(&self) -> String {
        fs::read_to_string(self.home.join("skilltui.lock")).unwrap_or_default()
    }

    /// Serves an index of `entries` (name, type, url, digest).
    fn index(&self, entries: &[(&str, &str, &str, String)]) {
        let skills: Vec<_> = entries
            .iter()
            .map(|(name, kind, url, digest)| {
                serde_json::json!({"name": name, "type": kind, "description": "d",
                    "url": url, "digest": digest})
            })
            .collect();
        let index = serde_json::json!({
            "$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
            "skills": skills,
        });
        self.server.route(
            "/.well-known/agent-skills/index.json",
            Reply::Ok(serde_json::to_vec(&index).unwrap()),
        );
    }

    /// Nothing of skilltui's is left in the temp folder.
    fn scratch_is_empty(&self) {
        let left: Vec<_> = fs::read_dir(&self.scratch).unwrap().flatten().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

fn serve_alpha_beta_gamma(f: &Fixture, alpha: &[u8]) {
    let beta = tar_gz(&[
        ("beta/SKILL.md", &skill_md("beta", "b")),
        ("beta/notes.md", b"n"),
    ]);
    f.server
        .route("/s/alpha/SKILL.md", Reply::Ok(alpha.to_vec()));
    f.server.route("/s/beta.tar.gz", Reply::Ok(beta.clone()));
    f.server
        .route("/s/gamma/SKILL.md", Reply::Ok(skill_md("gamma", "g")));
    f.index(&[
        (
            "alpha",
            "skill-md",
            "../../s/alpha/SKILL.md",
            digest_of(alpha),
        ),
        ("beta", "archive", "/s/beta.tar.gz", digest_of(&beta)),
        // Served bytes that do not match: never written.
        (
            "gamma",
            "skill-md",
            "/s/gamma/SKILL.md",
            digest_of(b"other"),
        ),
    ]);
}

#[test]
fn a_sites_index_installs_checks_updates_and_syncs_by_digest() {
    let f = Fixture::new();
    let alpha = skill_md("alpha", "one");
    serve_alpha_beta_gamma(&f, &alpha);
    let site = f.server.base.clone();
    let (code, out, err) = f.run(&["add", &site, "--all"], &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains("'gamma' left out") && err.contains("digest"),
        "{err}"
    );
    assert!(f.store().join("alpha/SKILL.md").is_file());
    assert!(f.store().join("beta/notes.md").is_file());
    assert!(!f.store().join("gamma").exists());
    let lock = f.lock();
    assert!(
        lock.contains(&format!("url = \"{site}/s/alpha/SKILL.md\"")),
        "{lock}"
    );
    assert!(
        lock.contains(&format!("digest = \"{}\"", digest_of(&alpha))),
        "{lock}"
    );
    assert!(!lock.contains("commit"), "{lock}");
    // Asking for the bad entry by name says why it is not there.
    let err = f.fails(&["add", &site, "--skill", "gamma"], &[]);
    assert!(err.contains("does not match its digest"), "{err}");

    let check = f.ok(&["check", "--json"]);
    assert_eq!(check.matches("\"current\"").count(), 2, "{check}");
    let old_lock = f.root.join("old.lock");
    fs::copy(f.home.join("skilltui.lock"), &old_lock).unwrap();

    // The site publishes a new alpha: check sees it, update shows and takes it.
    let alpha2 = skill_md("alpha", "two");
    serve_alpha_beta_gamma(&f, &alpha2);
    let check = f.ok(&["check"]);
    assert!(
        check
            .lines()
            .any(|l| l.starts_with("alpha") && l.contains("outdated")),
        "{check}"
    );
    let out = f.ok(&["update", "alpha"]);
    assert!(
        out.contains("alpha: updated to") && out.contains("SKILL.md"),
        "{out}"
    );
    assert_eq!(fs::read(f.store().join("alpha/SKILL.md")).unwrap(), alpha2);
    assert!(f.lock().contains(&digest_of(&alpha2)));
    assert!(f.ok(&["update"]).contains("alpha: current"));

    // A lock pinning the old digest is refused by name, nothing replaced.
    // The test's site is on this machine: a lock from elsewhere needs
    // `--allow-local` to reach it.
    let old_lock = old_lock.to_str().unwrap();
    let err = f.fails(&["sync", "--lock", old_lock, "--allow-local"], &[]);
    assert!(
        err.contains("the lock pins 'alpha'") && err.contains(&digest_of(&alpha2)),
        "{err}"
    );
    assert_eq!(fs::read(f.store().join("alpha/SKILL.md")).unwrap(), alpha2);
    // A teammate with the current lock gets both from the site.
    fs::remove_dir_all(f.store().join("alpha")).unwrap();
    let out = f.ok(&["sync"]);
    assert!(out.contains("alpha: installed at"), "{out}");
    f.scratch_is_empty();
}

#[test]
fn skill_md_and_archive_urls_install_what_they_hold() {
    let f = Fixture::new();
    f.server
        .route("/x/delta/SKILL.md", Reply::Ok(skill_md("delta", "d")));
    let two = zip_of(&[
        ("pack/one/SKILL.md", &skill_md("one", "1")),
        ("pack/two/SKILL.md", &skill_md("two", "2")),
    ]);
    f.server.route("/pack.zip", Reply::Ok(two));
    let tgz = tar_gz(&[("SKILL.md", &skill_md("solo", "s"))]);
    f.server.route("/solo.tgz", Reply::Ok(tgz.clone()));
    f.ok(&["add", &f.server.url("/x/delta/SKILL.md")]);
    f.ok(&["add", &f.server.url("/pack.zip"), "--all"]);
    f.ok(&["add", &f.server.url("/solo.tgz")]);
    for name in ["delta", "one", "two", "solo"] {
        assert!(f.store().join(name).join("SKILL.md").is_file(), "{name}");
    }
    let lock = f.lock();
    assert!(lock.contains("path = \"pack/two\""), "{lock}");
    assert!(lock.contains(&digest_of(&tgz)), "{lock}");
    assert_eq!(f.ok(&["check", "--json"]).matches("\"current\"").count(), 4);
    // Credentials typed into a URL are neither stored nor printed.
    let with_token = f
        .server
        .url("/x/delta/SKILL.md")
        .replace("http://", "http://u:TOKEN@");
    let (_, out, err) = f.run(&["add", &with_token, "--force"], &[]);
    assert!(!out.contains("TOKEN") && !err.contains("TOKEN") && !f.lock().contains("TOKEN"));
    f.scratch_is_empty();
}

#[test]
fn hostile_archives_write_nothing() {
    let f = Fixture::new();
    let slip = zip_of(&[("../../evil/SKILL.md", &skill_md("evil", "e"))]);
    f.server.route("/slip.zip", Reply::Ok(slip));
    let bomb = tar_gz(&[
        ("b/SKILL.md", &skill_md("b", "b")),
        ("b/zeros", &vec![0u8; 20 << 20]),
    ]);
    f.server.route("/bomb.tar.gz", Reply::Ok(bomb));
    let many: Vec<(String, Vec<u8>)> = (0..1001).map(|i| (format!("m/f{i}"), vec![b'x'])).collect();
    let many: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    f.server.route("/many.tgz", Reply::Ok(tar_gz(&many)));
    let err = f.fails(&["add", &f.server.url("/slip.zip")], &[]);
    assert!(err.contains("leaves its folder"), "{err}");
    let err = f.fails(&["add", &f.server.url("/bomb.tar.gz")], &[]);
    assert!(err.contains("zip bomb"), "{err}");
    let err = f.fails(&["add", &f.server.url("/many.tgz")], &[]);
    assert!(err.contains("more than 1000 files"), "{err}");
    assert!(!f.store().exists() || fs::read_dir(f.store()).unwrap().next().is_none());
    assert!(!f.root.join("evil").exists() && !f.scratch.join("evil").exists());
    f.scratch_is_empty();
}

#[test]
fn slow_endless_huge_and_junk_replies_each_end_in_one_line() {
    let f = Fixture::new();
    f.server.route(
        "/slow/SKILL.md",
        Reply::Slow {
            every: Duration::from_millis(300),
            bytes: 100,
        },
    );
    f.server.route("/endless.zip", Reply::Endless);
    f.server.route("/huge.tgz", Reply::Ok(vec![0x1f; 11 << 20]));
    let fast = [("SKILLTUI_HTTP_TIMEOUT", "1")];
    let err = f.fails(&["add", &f.server.url("/slow/SKILL.md")], &fast);
    assert!(
        err.contains("within 1 s") && err.contains("SKILLTUI_HTTP_TIMEOUT"),
        "{err}"
    );
    let err = f.fails(&["add", &f.server.url("/endless.zip")], &[]);
    assert!(err.contains("more than 10 MiB"), "{err}");
    let err = f.fails(&["add", &f.server.url("/huge.tgz")], &[]);
    assert!(err.contains("more than 10 MiB"), "{err}");
    f.server.route(
        "/.well-known/agent-skills/index.json",
        Reply::Ok(b"<html>".to_vec()),
    );
    let err = f.fails(&["add", &f.server.base], &[]);
    assert!(err.contains("not a skills index"), "{err}");
    let err = f.fails(&["add", "http://example.invalid/x/SKILL.md"], &[]);
    assert!(err.contains("plain http"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn find_lists_by_installs_marks_installed_and_installs_through_add() {
    let f = Fixture::new();
    git_repos::repo(&f.root, "pdfs", |w| {
        fs::create_dir_all(w.join("skills/pdf")).unwrap();
        fs::write(w.join("skills/pdf/SKILL.md"), skill_md("pdf", "p")).unwrap();
    });
    let reply = serde_json::json!({"skills": [
        {"id": "o/pdfs/pdf", "name": "pdf", "source": "o/pdfs", "installs": 10},
        {"id": "o/x/pdf-pro", "name": "pdf-pro", "source": "o/x", "installs": 900},
        {"id": "e", "name": "evil\u{1b}[2J\nline", "source": "o/e\u{7}", "installs": 1},
    ]});
    f.server.route(
        "/api/search",
        Reply::Ok(serde_json::to_vec(&reply).unwrap()),
    );
    let out = f.ok(&["find", "pdf"]);
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[1].starts_with("pdf-pro") && rows[2].starts_with("pdf "),
        "{out}"
    );
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}') && out.contains("evil␛[2J␊line"),
        "{out}"
    );
    assert_eq!(
        out.matches("skilltui add SOURCE --skill NAME").count(),
        1,
        "{out}"
    );
    f.ok(&["add", "o/pdfs", "--skill", "pdf"]);
    let json: serde_json::Value = serde_json::from_str(&f.ok(&["find", "pdf", "--json"])).unwrap();
    let pdf = json
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "pdf")
        .unwrap();
    assert_eq!(
        (pdf["installed"].as_str(), pdf["installs"].as_u64()),
        (Some("current"), Some(10))
    );

    f.server
        .route("/api/search", Reply::Ok(b"not json\x1b[2J".to_vec()));
    assert!(
        f.fails(&["find", "pdf"], &[])
            .contains("did not answer with search results")
    );
    f.server
        .route("/api/search", Reply::Ok(vec![b' '; 2 << 20]));
    assert!(f.fails(&["find", "pdf"], &[]).contains("more than 1 MiB"));
    f.server.route(
        "/api/search",
        Reply::Slow {
            every: Duration::from_millis(300),
            bytes: 100,
        },
    );
    let err = f.fails(&["find", "pdf"], &[("SKILLTUI_HTTP_TIMEOUT", "1")]);
    assert!(err.contains("within 1 s"), "{err}");
    f.server.route("/api/search", Reply::Status(500));
    assert!(f.fails(&["find", "pdf"], &[]).contains("HTTP 500"));
    let closed = "http://127.0.0.1:9";
    let err = f.fails(&["find", "pdf"], &[("SKILLS_API_URL", closed)]);
    assert!(err.contains("cannot reach"), "{err}");
}

/// Esc in the TUI sets a cancel flag: the request in flight must end (not
/// run on to the timeout with its answer dropped). The server drips a byte
/// every 50 ms for a minute; the call must come back `Cancelled` once the
/// flag is set. The 60 s wait only guards against a hang: the outcome is
/// what is asserted, not a time.
#[test]
fn a_download_in_flight_ends_when_its_cancel_flag_is_set() {
    use skilltui::core::sources::http::{self, Failure};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let server = Server::start();
    server.route(
        "/drip/SKILL.md",
        Reply::Slow {
            every: Duration::from_millis(50),
            bytes: 1200,
        },
    );
    let url = server.url("/drip/SKILL.md");
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn({
        let stop = stop.clone();
        move || {
            let _ = tx.send(http::get(&url, http::MAX_DOWNLOAD, Some(&stop)));
        }
    });
    std::thread::sleep(Duration::from_millis(400));
    stop.store(true, Ordering::SeqCst);
    let got = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the request did not end after its cancel flag was set");
    assert_eq!(got, Err(Failure::Cancelled));
    let line = Failure::Cancelled.line(&server.url("/drip/SKILL.md"));
    assert!(
        line.starts_with("cancelled fetching http://127.0.0.1:"),
        "{line}"
    );
}

/// `check` names where a web skill comes from (its site and entry URL, or
/// its URL), not "owner/repo (default branch)"; `--json` has the pinned
/// `url` and `digest`, and the digest served now as `upstream_digest`
/// (`upstream_commit` is a git skill's).
#[test]
fn check_shows_a_web_skills_url_and_digests() {
    let f = Fixture::new();
    let alpha = skill_md("alpha", "one");
    serve_alpha_beta_gamma(&f, &alpha);
    let site = f.server.base.clone();
    f.ok(&["add", &site, "--skill", "alpha"]);
    f.server
        .route("/x/delta/SKILL.md", Reply::Ok(skill_md("delta", "d")));
    f.ok(&["add", &f.server.url("/x/delta/SKILL.md")]);
    let alpha2 = skill_md("alpha", "two");
    serve_alpha_beta_gamma(&f, &alpha2);

    let rows: serde_json::Value = serde_json::from_str(&f.ok(&["check", "--json"])).unwrap();
    let row = |name: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {rows}"))
            .clone()
    };
    let a = row("alpha");
    assert_eq!(a["status"], "outdated", "{a}");
    assert_eq!(a["url"], format!("{site}/s/alpha/SKILL.md"), "{a}");
    assert_eq!(a["digest"], digest_of(&alpha), "{a}");
    assert_eq!(a["upstream_digest"], digest_of(&alpha2), "{a}");
    assert!(
        a["upstream_commit"].is_null() && a["commit"].is_null(),
        "{a}"
    );
    let d = row("delta");
    assert_eq!(d["status"], "current", "{d}");
    assert_eq!(d["url"], f.server.url("/x/delta/SKILL.md"), "{d}");
    assert_eq!(d["digest"], d["upstream_digest"], "{d}");

    let text = f.ok(&["check"]);
    assert!(!text.contains("default branch"), "{text}");
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .to_string()
    };
    assert!(
        line("alpha").ends_with(&format!("{site}/ (index) {site}/s/alpha/SKILL.md")),
        "{text}"
    );
    assert!(
        line("delta").ends_with(&f.server.url("/x/delta/SKILL.md")),
        "{text}"
    );
}

/// A `.tar.gz` whose first entry is a GNU long-name header declaring
/// `size` bytes of name, streamed through the encoder (never held whole),
/// then a skill.
fn long_name_archive(size: u64) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut h = tar::Header::new_gnu();
    h.set_size(size);
    h.set_entry_type(tar::EntryType::GNULongName);
    h.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
    h.set_cksum();
    gz.write_all(h.as_bytes()).unwrap();
    let chunk = vec![b'n'; 1 << 20];
    let mut left = size.next_multiple_of(512);
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        gz.write_all(&chunk[..n]).unwrap();
        left -= n as u64;
    }
    gz.write_all(&tar_gz_raw(&[("s/SKILL.md", &skill_md("s", "s"))]))
        .unwrap();
    gz.finish().unwrap()
}

/// The tar stream of `files`, not compressed.
fn tar_gz_raw(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (path, body) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_path(path).unwrap();
        h.set_cksum();
        b.append(&h, *body).unwrap();
    }
    b.into_inner().unwrap()
}

/// A 200 MiB GNU long name packed into about 200 KB: the unpack refuses
/// it by its header's size, in one short line, under a memory limit the
/// name alone would pass (the `tar` crate reads a long name whole).
#[test]
fn a_long_name_header_is_refused_before_it_is_read_under_a_memory_limit() {
    let f = Fixture::new();
    let bomb = long_name_archive(200 << 20);
    assert!(bomb.len() < 400 << 10, "{}", bomb.len());
    f.server.route("/long.tgz", Reply::Ok(bomb));
    let url = f.server.url("/long.tgz");
    let mut cmd = Command::new("sh");
    // 160 MiB of address space: less than the name it declares.
    cmd.args(["-c", "ulimit -v 163840 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(&f.home)
        .args(["add", &url])
        .current_dir(&f.root)
        .env("HOME", &f.root)
        .env("TMPDIR", &f.scratch)
        .env("SKILLTUI_HTTP_TIMEOUT", "20");
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{:.400}", err);
    assert!(err.contains("long-name or pax header"), "{:.400}", err);
    assert!(err.len() < 400, "an error of {} bytes", err.len());
    assert!(!f.store().exists() || fs::read_dir(f.store()).unwrap().next().is_none());
    f.scratch_is_empty();
}

/// Serves an index of `n` SKILL.md entries `s0`…, each at `/e/sI/SKILL.md`.
fn serve_many(f: &Fixture, n: usize, reply: impl Fn(&[u8]) -> Reply) {
    let mut entries = Vec::new();
    for i in 0..n {
        let name = format!("s{i}");
        let body = skill_md(&name, "x");
        f.server.route(&format!("/e/{name}/SKILL.md"), reply(&body));
        entries.push((name, format!("/e/s{i}/SKILL.md"), digest_of(&body)));
    }
    let entries: Vec<(&str, &str, &str, String)> = entries
        .iter()
        .map(|(n, u, d)| (n.as_str(), "skill-md", u.as_str(), d.clone()))
        .collect();
    f.index(&entries);
}

#[test]
fn an_index_downloads_only_the_skills_named() {
    let f = Fixture::new();
    serve_many(&f, 40, |b| Reply::Ok(b.to_vec()));
    f.ok(&["add", &f.server.base, "--skill", "s7"]);
    assert!(f.store().join("s7/SKILL.md").is_file());
    let asked = f.server.requested();
    assert_eq!(
        asked,
        ["/.well-known/agent-skills/index.json", "/e/s7/SKILL.md"],
        "{asked:?}"
    );
    // A name the index does not list: said so, nothing downloaded.
    let err = f.fails(&["add", &f.server.base, "--skill", "nope"], &[]);
    assert!(err.contains("lists no skill 'nope'"), "{err}");
    assert_eq!(f.server.requested().len(), 3);
    f.scratch_is_empty();
}

/// Ten entries dripping a byte a second, with a 2 s timeout: the index's
/// downloads share one timeout, so only the first pool's four are ever
/// asked for; the rest are left out with a note naming the timeout.
#[test]
fn a_slow_index_holds_add_for_one_timeout_not_one_per_entry() {
    let f = Fixture::new();
    serve_many(&f, 10, |_| Reply::Slow {
        every: Duration::from_secs(1),
        bytes: 100,
    });
    let err = f.fails(
        &["add", &f.server.base, "--all"],
        &[("SKILLTUI_HTTP_TIMEOUT", "2")],
    );
    assert!(err.contains("SKILLTUI_HTTP_TIMEOUT"), "{err}");
    let asked = f.server.requested();
    assert!(asked.len() <= 5, "{} requests: {asked:?}", asked.len());
    f.scratch_is_empty();
}

#[test]
fn plain_http_is_refused_at_every_redirect() {
    let f = Fixture::new();
    f.server
        .route("/x/delta/SKILL.md", Reply::Ok(skill_md("delta", "d")));
    // To this machine's 0.0.0.0 in plain http: what typed would be refused.
    let elsewhere = f
        .server
        .url("/x/delta/SKILL.md")
        .replace("127.0.0.1", "0.0.0.0");
    f.server
        .route("/away/delta/SKILL.md", Reply::Redirect(elsewhere));
    let err = f.fails(&["add", &f.server.url("/away/delta/SKILL.md")], &[]);
    assert!(
        err.contains("redirects") && err.contains("plain http"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!f.store().join("delta").exists());
    assert!(
        !f.server
            .requested()
            .contains(&"/x/delta/SKILL.md".to_string())
    );
    // A redirect on the origin typed is followed.
    f.server.route(
        "/moved/delta/SKILL.md",
        Reply::Redirect("/x/delta/SKILL.md".into()),
    );
    f.ok(&["add", &f.server.url("/moved/delta/SKILL.md")]);
    assert!(f.store().join("delta/SKILL.md").is_file());
}

#[test]
fn credentials_in_skills_api_url_are_never_sent() {
    let f = Fixture::new();
    let reply = serde_json::json!({"skills": [
        {"id": "o/x/pdf", "name": "pdf", "source": "o/x", "installs": 1},
    ]});
    f.server.route(
        "/api/search",
        Reply::Ok(serde_json::to_vec(&reply).unwrap()),
    );
    let api = f.server.base.replace("http://", "http://user:S3CRET@");
    let (code, out, err) = f.run(&["find", "pdf"], &[("SKILLS_API_URL", &api)]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("pdf"), "{out}");
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("SKILLS_API_URL"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].contains("credentials") && !err.contains("S3CRET"),
        "{err}"
    );
    let heads = f.server.heads().join("\n").to_ascii_lowercase();
    assert!(
        !heads.contains("authorization") && !heads.contains("s3cret"),
        "{heads}"
    );
}

/// An index entry's URL holding credentials: they are neither sent nor
/// written into the lock (the entry's URL is recorded without them).
#[test]
fn credentials_in_an_index_entry_are_never_stored() {
    let f = Fixture::new();
    let md = skill_md("alpha", "a");
    f.server.route("/s/alpha/SKILL.md", Reply::Ok(md.clone()));
    let url = format!(
        "{}/s/alpha/SKILL.md",
        f.server.base.replace("http://", "http://user:T0KEN@")
    );
    f.index(&[("alpha", "skill-md", &url, digest_of(&md))]);
    f.ok(&["add", &f.server.base, "--all"]);
    assert!(f.store().join("alpha/SKILL.md").is_file());
    let lock = f.lock();
    assert!(lock.contains("/s/alpha/SKILL.md"), "{lock}");
    assert!(!lock.contains("T0KEN") && !lock.contains("user:"), "{lock}");
    let heads = f.server.heads().join("\n").to_ascii_lowercase();
    assert!(!heads.contains("authorization"), "{heads}");
}

/// `agents --verify` looks a binary up as Go's `exec.LookPath` does: an
/// empty `PATH` entry (a trailing `:`) or a relative one is not the
/// working directory's `codex`, which a cloned repository could ship.
#[test]
fn agents_verify_never_runs_a_binary_from_the_working_directory() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::new();
    let planted = f.root.join("codex");
    let ran = f.root.join("ran");
    fs::write(
        &planted,
        format!("#!/bin/sh\ntouch '{}'\necho codex 9\n", ran.display()),
    )
    .unwrap();
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o755)).unwrap();
    fs::create_dir_all(f.root.join("bin")).unwrap();
    fs::copy(&planted, f.root.join("bin/codex")).unwrap();
    for path in [
        "/nonexistent:",
        ":/nonexistent",
        "/nonexistent::/x",
        ".",
        "bin",
    ] {
        let (code, out, err) = f.run(&["agents", "--verify", "codex"], &[("PATH", path)]);
        assert!(!ran.exists(), "PATH={path} ran ./codex: {out}\n{err}");
        assert_ne!(code, 0, "PATH={path}: {out}\n{err}");
        assert!(err.contains("not installed"), "PATH={path}: {err}");
    }
}

/// A lock made elsewhere names a URL on this machine: `sync` refuses it
/// by name, asking for nothing, until `--allow-local`; a remote index's
/// entry on another origin of this machine is left out the same way.
#[test]
fn a_lock_or_index_from_elsewhere_cannot_reach_this_machine() {
    let f = Fixture::new();
    let admin = f.server.url("/admin/shutdown?confirm=yes");
    let lock = f.root.join("team.lock");
    fs::write(
        &lock,
        format!(
            "version = 1\n\n[skills.evil]\nsource = \"{admin}\"\npath = \"\"\nhash = \"{d}\"\nurl = \"{admin}\"\ndigest = \"{d}\"\n",
            d = digest_of(b"x")
        ),
    )
    .unwrap();
    let lock = lock.to_str().unwrap();
    let err = f.fails(&["sync", "--lock", lock], &[]);
    assert!(
        err.contains("--allow-local") && err.contains("'evil'"),
        "{err}"
    );
    assert!(
        f.server.requested().is_empty(),
        "{:?}",
        f.server.requested()
    );
    let (_, _, err) = f.run(&["sync", "--lock", lock, "--allow-local"], &[]);
    assert!(
        f.server
            .requested()
            .contains(&"/admin/shutdown?confirm=yes".to_string()),
        "{err}"
    );

    // An index on 127.0.0.1 whose entry points at localhost: another origin.
    let f = Fixture::new();
    let body = skill_md("alpha", "a");
    f.server.route("/a/SKILL.md", Reply::Ok(body.clone()));
    let other = f
        .server
        .url("/a/SKILL.md")
        .replace("127.0.0.1", "localhost");
    f.index(&[("alpha", "skill-md", &other, digest_of(&body))]);
    let err = f.fails(&["add", &f.server.base, "--all"], &[]);
    assert!(err.contains("address on this machine"), "{err}");
    assert_eq!(
        f.server.requested(),
        ["/.well-known/agent-skills/index.json"]
    );
}

/// The discovery RFC v0.2.0, to the letter: a `$schema` skilltui does not
/// know stops the read; an entry of an unknown `type` is left out with a
/// note; an entry's `version` is recorded in the lock; a pinned index
/// (`/.well-known/agent-skills/vX.Y.Z/index.json`) is read where typed.
#[test]
fn the_discovery_rfc_schema_types_versions_and_pinned_indexes() {
    let f = Fixture::new();
    let alpha = skill_md("alpha", "a");
    f.server
        .route("/s/alpha/SKILL.md", Reply::Ok(alpha.clone()));
    let index = |schema: &str| {
        serde_json::json!({
            "$schema": schema,
            "skills": [
                {"name": "alpha", "type": "skill-md", "description": "d",
                 "url": "/s/alpha/SKILL.md", "digest": digest_of(&alpha), "version": "1.4.0"},
                {"name": "beta", "type": "mcp-server", "description": "d",
                 "url": "/s/beta", "digest": digest_of(b"b")},
            ],
        })
    };
    let route = |path: &str, v: serde_json::Value| {
        f.server
            .route(path, Reply::Ok(serde_json::to_vec(&v).unwrap()))
    };
    route(
        "/.well-known/agent-skills/index.json",
        index("https://schemas.agentskills.io/discovery/9.0.0/schema.json"),
    );
    let err = f.fails(&["add", &f.server.base, "--all"], &[]);
    assert!(
        err.contains("9.0.0") && err.contains("does not read"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(f.server.requested().len(), 1);

    let pinned = "/.well-known/agent-skills/v1.4.0/index.json";
    route(
        pinned,
        index("https://schemas.agentskills.io/discovery/0.2.0/schema.json"),
    );
    let (code, out, err) = f.run(&["add", &f.server.url(pinned), "--all"], &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains("'beta' left out") && err.contains("mcp-server"),
        "{err}"
    );
    let lock = f.lock();
    assert!(lock.contains("version = \"1.4.0\""), "{lock}");
    assert!(
        lock.contains(&format!("source = \"{}\"", f.server.url(pinned))),
        "{lock}"
    );
    assert!(f.ok(&["check"]).contains("current"));
}

/// The older form docs platforms publish (`/.well-known/skills/index.json`,
/// files listed, no digests) is read when the v0.2.0 path is missing; the
/// digest of what was fetched is pinned, and `check` says the site
/// publishes none; `sync` installs only what matches that pin.
#[test]
fn the_older_well_known_skills_form_installs_and_pins_what_was_fetched() {
    let f = Fixture::new();
    let skill = skill_md("docs-helper", "h");
    let serve = |skill: &[u8]| {
        f.server.route(
            "/.well-known/skills/docs-helper/SKILL.md",
            Reply::Ok(skill.to_vec()),
        );
    };
    serve(&skill);
    f.server.route(
        "/.well-known/skills/docs-helper/references/api.md",
        Reply::Ok(b"# API".to_vec()),
    );
    let index = serde_json::json!({"skills": [
        {"name": "docs-helper", "description": "d",
         "files": ["SKILL.md", "references/api.md"]},
        {"name": "sneaky", "description": "d", "files": ["SKILL.md", "../../etc/passwd"]},
    ]});
    f.server.route(
        "/.well-known/skills/index.json",
        Reply::Ok(serde_json::to_vec(&index).unwrap()),
    );
    let (code, out, err) = f.run(&["add", &f.server.base, "--skill", "docs-helper"], &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(f.store().join("docs-helper/references/api.md").is_file());
    let asked = f.server.requested();
    assert_eq!(
        asked[0], "/.well-known/agent-skills/index.json",
        "{asked:?}"
    );
    assert_eq!(asked[1], "/.well-known/skills/index.json", "{asked:?}");
    // The discovery RFC's skill-level digest of the files fetched.
    let files = vec![
        ("SKILL.md".to_string(), skill.clone()),
        ("references/api.md".to_string(), b"# API".to_vec()),
    ];
    let pinned = skilltui::core::sources::wellknown::files_digest(&files);
    assert!(f.lock().contains(&pinned), "{}", f.lock());
    let (_, out, err) = f.run(&["check"], &[]);
    assert!(err.contains("publishes no digest"), "{out}\n{err}");
    // The site changes the file: sync from the lock refuses it.
    fs::remove_dir_all(f.store().join("docs-helper")).unwrap();
    serve(&skill_md("docs-helper", "changed"));
    let err = f.fails(&["sync"], &[]);
    assert!(err.contains("does not match its digest"), "{err}");
    assert!(!f.store().join("docs-helper").exists());
    // Served as pinned again: sync installs it.
    serve(&skill);
    f.ok(&["sync"]);
    assert!(f.store().join("docs-helper/SKILL.md").is_file());
    let err = f.fails(&["add", &f.server.base, "--skill", "sneaky"], &[]);
    assert!(err.contains("'..'"), "{err}");
    f.scratch_is_empty();
}

/// `update` of three skills from one site that now drips a byte a second:
/// the group's downloads share one timeout after the index, so only the
/// first is asked for; the others fail naming the timeout, unasked.
#[test]
fn a_slow_site_holds_update_for_one_timeout_not_one_per_skill() {
    let f = Fixture::new();
    serve_many(&f, 3, |b| Reply::Ok(b.to_vec()));
    f.ok(&["add", &f.server.base, "--all"]);
    let before = f.server.requested().len();
    // New digests, served slowly.
    let entries: Vec<(String, String)> = (0..3)
        .map(|i| (format!("s{i}"), format!("/slow/s{i}/SKILL.md")))
        .collect();
    for (_, url) in &entries {
        f.server.route(
            url,
            Reply::Slow {
                every: Duration::from_secs(1),
                bytes: 100,
            },
        );
    }
    let listed: Vec<(&str, &str, &str, String)> = entries
        .iter()
        .map(|(n, u)| (n.as_str(), "skill-md", u.as_str(), digest_of(u.as_bytes())))
        .collect();
    f.index(&listed);
    let err = f.fails(&["update"], &[("SKILLTUI_HTTP_TIMEOUT", "2")]);
    assert!(err.contains("SKILLTUI_HTTP_TIMEOUT"), "{err}");
    let asked = &f.server.requested()[before..];
    assert_eq!(asked.len(), 2, "{asked:?}");
}

/// Hosts that are names, not addresses, yet resolve to 127.0.0.1 on any
/// glibc resolver without a hosts file entry (`127.1`, and the address as
/// one decimal number): judged by the address they resolve to, at the
/// entry and at a redirect, before any connection is made.
#[test]
fn a_name_that_resolves_to_this_machine_is_refused_before_connecting() {
    let f = Fixture::new();
    let probe = Server::start();
    let body = skill_md("alpha", "a");
    for host in ["127.1", "2130706433"] {
        let url = format!("https://{host}:{}/a/SKILL.md", probe.port());
        f.index(&[("alpha", "skill-md", &url, digest_of(&body))]);
        let err = f.fails(&["add", &f.server.base, "--skill", "alpha"], &[]);
        assert!(
            err.contains("leads to 127.0.0.1") && err.contains("refused"),
            "{err}"
        );
        // The same name at a redirect from the site the user typed.
        f.server
            .route("/hop/SKILL.md", Reply::Redirect(url.clone()));
        let err = f.fails(&["add", &f.server.url("/hop/SKILL.md")], &[]);
        assert!(err.contains("leads to 127.0.0.1"), "{err}");
    }
    assert_eq!(probe.connections(), 0, "{:?}", probe.requested());
    assert!(!f.store().exists() || fs::read_dir(f.store()).unwrap().next().is_none());
    // `--allow-local` has no say over an index the user typed: the rule is
    // the typed origin's. A typed name is the user's own choice.
    let (_, _, err) = f.run(
        &["add", &format!("https://127.1:{}/a/SKILL.md", probe.port())],
        &[],
    );
    assert!(!err.contains("leads to 127.0.0.1"), "{err}");
    assert_eq!(probe.connections_reaching(1), 1, "{err}");
    f.scratch_is_empty();
}

/// `add SITE` naming no skill lists the index's names and descriptions
/// from the index alone: one request, nothing downloaded or written.
#[test]
fn add_site_without_a_pick_lists_the_index_alone() {
    let f = Fixture::new();
    serve_many(&f, 3, |b| Reply::Ok(b.to_vec()));
    let (code, out, err) = f.run(&["add", &f.server.base], &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        err.contains("lists 3 skills") && err.contains("--skill"),
        "{err}"
    );
    for name in ["s0", "s1", "s2"] {
        assert!(
            out.lines().any(|l| l.starts_with(name) && l.contains('d')),
            "{out}"
        );
    }
    assert_eq!(
        f.server.requested(),
        ["/.well-known/agent-skills/index.json"]
    );
    assert!(!f.store().exists() || fs::read_dir(f.store()).unwrap().next().is_none());
    f.scratch_is_empty();
}

/// An index entry `alpha` whose SKILL.md says `name: beta`: the skill is
/// `beta` (its SKILL.md decides), and the lock keeps the entry's name, so
/// `check` and `update` still find it in the index.
#[test]
fn an_entry_named_otherwise_than_its_skill_is_checked_and_updated() {
    let f = Fixture::new();
    let serve = |body: &[u8]| {
        f.server
            .route("/e/alpha/SKILL.md", Reply::Ok(body.to_vec()));
        f.index(&[("alpha", "skill-md", "/e/alpha/SKILL.md", digest_of(body))]);
    };
    let one = skill_md("beta", "one");
    serve(&one);
    f.ok(&["add", &f.server.base, "--skill", "alpha"]);
    assert_eq!(fs::read(f.store().join("beta/SKILL.md")).unwrap(), one);
    assert!(!f.store().join("alpha").exists());
    let lock = f.lock();
    assert!(
        lock.contains("[skills.beta]") && lock.contains("entry = \"alpha\""),
        "{lock}"
    );
    let check = f.ok(&["check", "--json"]);
    assert!(check.contains("\"current\""), "{check}");
    let two = skill_md("beta", "two");
    serve(&two);
    let check = f.ok(&["check"]);
    assert!(
        check
            .lines()
            .any(|l| l.starts_with("beta") && l.contains("outdated")),
        "{check}"
    );
    let out = f.ok(&["update", "beta"]);
    assert!(out.contains("beta: updated to"), "{out}");
    assert_eq!(fs::read(f.store().join("beta/SKILL.md")).unwrap(), two);
    assert!(f.ok(&["update"]).contains("beta: current"));
    f.scratch_is_empty();
}

/// A teammate's lock naming a repository of this machine by `file://`
/// is refused by name without `--allow-local`, and git is not run on it.
#[test]
fn a_foreign_locks_file_url_needs_allow_local() {
    let f = Fixture::new();
    git_repos::repo(&f.root, "mine", |w| {
        fs::create_dir_all(w.join("secret")).unwrap();
        fs::write(w.join("secret/SKILL.md"), skill_md("secret", "s")).unwrap();
    });
    f.ok(&["add", "https://github.com/o/mine", "--skill", "secret"]);
    let bare = f.root.join("remotes/o/mine");
    let lock = f.lock().replace(
        "https://github.com/o/mine",
        &format!("file://{}", bare.display()),
    );
    assert!(lock.contains("file://"), "{lock}");
    let team = f.root.join("team.lock");
    fs::write(&team, lock).unwrap();
    fs::remove_dir_all(f.store().join("secret")).unwrap();
    fs::remove_file(f.home.join("skilltui.lock")).unwrap();
    let team = team.to_str().unwrap();
    let err = f.fails(&["sync", "--lock", team], &[]);
    assert!(
        err.contains("'secret'") && err.contains("file://") && err.contains("--allow-local"),
        "{err}"
    );
    assert!(!f.store().join("secret").exists());
    f.ok(&["sync", "--lock", team, "--allow-local"]);
    assert!(f.store().join("secret/SKILL.md").is_file());
    f.scratch_is_empty();
}

/// Ctrl-C while a download waits on a silent server: the command stops
/// at once, removes its scratch folder and exits 130.
#[test]
#[cfg(unix)]
fn ctrl_c_mid_fetch_leaves_no_scratch() {
    let f = Fixture::new();
    f.server.route("/quiet/SKILL.md", Reply::Silent);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.arg("--home")
        .arg(&f.home)
        .args(["add", &f.server.url("/quiet/SKILL.md")])
        .env("HOME", &f.root)
        .env("TMPDIR", &f.scratch)
        .env("SKILLTUI_HTTP_TIMEOUT", "100")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    let waited = std::time::Instant::now();
    while f.server.requested().is_empty() && waited.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(f.server.requested(), ["/quiet/SKILL.md"]);
    assert!(fs::read_dir(&f.scratch).unwrap().next().is_some());
    // SAFETY: the child is ours and still running (the server never answers).
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("cancelled"), "{err}");
    f.scratch_is_empty();
}

/// A skilltui killed outright (SIGKILL) leaves its scratch folder; the
/// next command of any kind removes it, and leaves alone what only looks
/// like one (no marker) or belongs to a live process.
#[test]
#[cfg(unix)]
fn any_command_clears_the_scratch_a_killed_run_left() {
    let f = Fixture::new();
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let orphan = f.scratch.join(format!("skilltui-git-{dead}-abc123"));
    fs::create_dir_all(orphan.join("repo")).unwrap();
    fs::write(orphan.join("repo/big"), vec![0u8; 4096]).unwrap();
    fs::write(
        orphan.join(".skilltui-git-scratch"),
        orphan.file_name().unwrap().as_encoded_bytes(),
    )
    .unwrap();
    let lookalike = f.scratch.join(format!("skilltui-git-{dead}-xyz789"));
    fs::create_dir_all(&lookalike).unwrap();
    let live = f
        .scratch
        .join(format!("skilltui-git-{}-live00", std::process::id()));
    fs::create_dir_all(&live).unwrap();
    fs::write(
        live.join(".skilltui-git-scratch"),
        live.file_name().unwrap().as_encoded_bytes(),
    )
    .unwrap();
    f.ok(&["list"]);
    assert!(!orphan.exists());
    assert!(lookalike.exists() && live.exists());
}

/// `add` from git on a terminal: each progress step is shown once (git
/// writes a step at 100% twice, as it reaches it and with ", done.").
#[test]
fn add_shows_each_git_progress_step_once() {
    let f = Fixture::new();
    git_repos::repo(&f.root, "shown", |w| {
        fs::create_dir_all(w.join("one")).unwrap();
        fs::write(w.join("one/SKILL.md"), skill_md("one", "1")).unwrap();
    });
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.arg("--home");
    cmd.arg(&f.home);
    cmd.args(["add", "https://github.com/o/shown"]);
    cmd.cwd(&f.root);
    cmd.env_remove("CAO_HOME_DIR");
    cmd.env("HOME", &f.root);
    cmd.env("TMPDIR", &f.scratch);
    for (k, v) in git_repos::redirect_env(&f.root) {
        cmd.env(k, v);
    }
    let mut term = pty::Term::spawn(cmd, 120, 40);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    let screen = term.screen();
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines.iter().any(|l| l.ends_with("100%")), "{screen}");
    for pair in lines.windows(2) {
        assert!(
            !(pair[0].ends_with("100%") && pair[0] == pair[1]),
            "{screen}"
        );
    }
    f.scratch_is_empty();
}
