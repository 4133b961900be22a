//! The bad-input table: each case gets one clear `error:` line on stderr,
//! exit 1, and leaves the store and the profiles exactly as they were.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn skilltui(home: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env_remove("CAO_HOME_DIR")
        // The stand-in CAO `setup` makes beside the home.
        .env("SKILLTUI_CAO", home.with_file_name("cao-venv"))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under the home with its bytes (symlinks as their target).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                out.insert(
                    p.clone(),
                    fs::read_link(&p)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                );
            } else if meta.is_dir() {
                out.insert(p.clone(), b"<dir>".to_vec());
                stack.push(p);
            } else if meta.is_file() {
                out.insert(p.clone(), fs::read(&p).unwrap());
            } else {
                // A FIFO or device: reading it could block.
                out.insert(p.clone(), b"<special>".to_vec());
            }
        }
    }
    out
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    fake_cao::make(tmp.path());
    let home = tmp.path().join("home");
    let good = home.join("skills/good");
    fs::create_dir_all(&good).unwrap();
    fs::write(
        good.join("SKILL.md"),
        "---\nname: good\ndescription: A good skill\n---\nBody\n",
    )
    .unwrap();
    fs::create_dir_all(home.join("agent-store")).unwrap();
    fs::write(
        home.join("agent-store/dev.md"),
        "---\nname: dev\ndescription: d\nskills: [good]  # keep\n---\nPrompt\n",
    )
    .unwrap();
    (tmp, home)
}

fn source(tmp: &Path, name: &str, skill_md: &[u8]) -> PathBuf {
    let dir = tmp.join("src").join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), skill_md).unwrap();
    dir
}

fn assert_refused(home: &Path, args: &[&str], expect: &str) {
    let before = snapshot(home);
    let (code, _out, err) = skilltui(home, args);
    assert_eq!(code, 1, "{args:?} should fail: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: one line, got {err:?}");
    assert!(lines[0].starts_with("error: "), "{err}");
    assert!(
        err.contains(expect),
        "{args:?}: {err:?} should mention {expect:?}"
    );
    assert_eq!(snapshot(home), before, "{args:?} changed the home");
}

#[test]
fn bad_skill_sources_are_refused_without_touching_the_store() {
    let (tmp, home) = setup();
    let t = tmp.path();
    let broken = source(
        t,
        "broken",
        b"---\nname: broken\ndescription: 'unclosed\n---\n",
    );
    let binary = source(t, "binary", &[0u8, 159, 146, 150, 255, 0, 1, 2]);
    let latin1 = source(
        t,
        "latin1",
        b"---\nname: latin1\ndescription: caf\xe9\n---\n",
    );
    let typed = source(
        t,
        "typed",
        b"---\nname: typed\ndescription: 2024-01-01\n---\n",
    );
    let huge = source(t, "huge", b"---\nname: huge\ndescription: big\n---\n");
    let f = fs::OpenOptions::new()
        .append(true)
        .open(huge.join("SKILL.md"))
        .unwrap();
    f.set_len(50 * 1024 * 1024).unwrap();
    let file_not_dir = t.join("src/plainfile");
    fs::write(&file_not_dir, "x").unwrap();
    let tabbed = source(
        t,
        "tabbed",
        b"---\nname: tabbed\n\t# a note\ndescription: d\n---\n",
    );
    let leaky = source(t, "leaky", b"---\nname: leaky\ndescription: d\n---\n");
    std::os::unix::fs::symlink("/etc/hostname", leaky.join("host")).unwrap();
    let cases: &[(&Path, &str)] = &[
        (&broken, "does not parse"),
        (&binary, "not valid UTF-8"),
        (&latin1, "not valid UTF-8"),
        (&typed, "quote it"),
        (&tabbed, "a tab in the indentation"),
        (&huge, "MiB"),
        (&file_not_dir, "not a directory"),
        (&leaky, "points outside the skill folder"),
        (&t.join("src/missing"), "does not exist"),
    ];
    for (path, expect) in cases {
        assert_refused(&home, &["add", path.to_str().unwrap()], expect);
    }
    let (code, _, _) = skilltui(&home, &["validate", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
}

#[test]
fn unsafe_names_are_refused_before_any_file_is_touched() {
    let (_tmp, home) = setup();
    for name in ["../x", "a/b", " ", "..", "a\\b"] {
        assert_refused(&home, &["remove", name], "name");
    }
    assert_refused(&home, &["remove", "nope"], "does not exist");
    assert_refused(&home, &["show", "../good"], "invalid skill name");
}

#[test]
fn symlink_loops_and_odd_folders_do_not_break_listing() {
    let (_tmp, home) = setup();
    std::os::unix::fs::symlink(home.join("skills/loop"), home.join("skills/loop")).unwrap();
    fs::write(home.join("skills/stray-file"), "not a folder").unwrap();
    fs::create_dir_all(home.join("skills/dir-skill/SKILL.md")).unwrap();
    let (code, out, _) = skilltui(&home, &["list"]);
    assert_eq!(code, 0);
    assert!(out.contains("good"));
}

#[test]
fn profile_edits_that_cannot_apply_leave_the_file_alone() {
    let (_tmp, home) = setup();
    assert_refused(
        &home,
        &["profile", "enable", "dev", "good", "no-such-skill"],
        "no-such-skill",
    );
    fs::write(home.join("agent-store/bad.md"), "---\nskills: yes\n---\n").unwrap();
    assert_refused(&home, &["profile", "enable", "bad", "good"], "skills");
    assert_refused(&home, &["catalog", "bad"], "skills");
    assert_refused(
        &home,
        &["profile", "disable", "developer", "good"],
        "built into CAO",
    );
}

#[test]
fn an_unwritable_store_fails_cleanly() {
    let (tmp, home) = setup();
    let src = source(
        tmp.path(),
        "fresh",
        b"---\nname: fresh\ndescription: d\n---\n",
    );
    // Running as root defeats permission bits, so make the store a file.
    fs::remove_dir_all(home.join("skills")).unwrap();
    fs::write(home.join("skills"), "not a directory").unwrap();
    assert_refused(&home, &["add", src.to_str().unwrap()], "skill store");
    assert_refused(&home, &["init"], "skill store");
}

/// A name or a pattern (`ex*`, kept as written: CAO fnmatches every
/// entry) goes in, shows in the catalog, and comes out byte for byte.
#[test]
fn toggle_on_then_off_restores_the_file_and_catalog_follows() {
    let (tmp, home) = setup();
    let src = source(
        tmp.path(),
        "extra",
        b"---\nname: extra\ndescription: An extra skill\n---\n",
    );
    assert_eq!(skilltui(&home, &["add", src.to_str().unwrap()]).0, 0);
    let path = home.join("agent-store/dev.md");
    let original = fs::read(&path).unwrap();
    for (entry, said) in [
        ("extra", "enabled 'extra' for 'dev'"),
        (
            "ex*",
            "enabled the pattern 'ex*' for 'dev': it offers extra",
        ),
    ] {
        let (code, out, err) = skilltui(&home, &["profile", "enable", "dev", entry]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(said), "{out}");
        let (_, catalog, _) = skilltui(&home, &["catalog", "dev", "--provider", "claude_code"]);
        assert!(
            catalog.ends_with("- **extra**: An extra skill\n- **good**: A good skill\n"),
            "{catalog}"
        );
        assert_eq!(skilltui(&home, &["profile", "disable", "dev", entry]).0, 0);
        assert_eq!(fs::read(&path).unwrap(), original);
    }
}

/// Runs skilltui and fails if it has not finished after a generous while:
/// the point is "does not hang", not how fast.
fn skilltui_or_hang(home: &Path, args: &[&str]) -> (i32, String, String) {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env_remove("CAO_HOME_DIR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("skilltui {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn fifos_where_files_belong_never_hang() {
    let (_tmp, home) = setup();
    fs::create_dir_all(home.join("skills/fifo-skill")).unwrap();
    mkfifo(&home.join("skills/fifo-skill/SKILL.md"));
    mkfifo(&home.join("agent-store/fifo-profile.md"));
    mkfifo(&home.join(".env"));
    let before = snapshot(&home);
    // CAO skips a SKILL.md that is not a regular file; so does the listing.
    let (code, out, _) = skilltui_or_hang(&home, &["list"]);
    assert_eq!(code, 0);
    assert!(out.contains("good") && !out.contains("fifo-skill"), "{out}");
    let (code, _, err) = skilltui_or_hang(&home, &["catalog", "fifo-profile"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a regular file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, _) = skilltui_or_hang(&home, &["catalog", "dev"]);
    assert_eq!(code, 0);
    assert_eq!(snapshot(&home), before);
}

/// Runs skilltui with its heap (RLIMIT_DATA) capped at 512 MiB, so a read
/// of a huge file aborts it instead of filling the machine's memory.
fn skilltui_small_heap(home: &Path, args: &[&str]) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.arg("--home")
        .arg(home)
        .args(args)
        .env_remove("CAO_HOME_DIR")
        .env("SKILLTUI_CAO", home.with_file_name("cao-venv"));
    // SAFETY: setrlimit is async-signal-safe and touches no memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: 512 << 20,
                rlim_max: 512 << 20,
            };
            libc::setrlimit(libc::RLIMIT_DATA, &cap);
            Ok(())
        });
    }
    let out = cmd.output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text`, then holes up to 2 GiB: no disk used, but a read takes it all.
fn sparse(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
}

#[test]
fn huge_profiles_and_metadata_are_refused_by_size_not_read() {
    let (_tmp, home) = setup();
    sparse(
        &home.join("agent-store/huge.md"),
        "---\nname: huge\ndescription: d\n---\n",
    );
    let info = home.with_file_name("cao-venv/lib/python3.12/site-packages");
    let metadata = fs::read_dir(&info)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".dist-info"))
        .expect("the stand-in CAO has a dist-info")
        .path()
        .join("METADATA");
    sparse(
        &metadata,
        "Metadata-Version: 2.1\nName: x\nVersion: 7.7.7\n\n",
    );
    let (code, out, err) = skilltui_small_heap(&home, &["profile", "list"]);
    assert_eq!(code, 0, "{out}{err}");
    let huge = out
        .lines()
        .find(|l| l.starts_with("huge"))
        .unwrap_or_default();
    assert!(
        huge.contains("huge.md: is larger than the 16 MiB skilltui reads (it holds 2048 MiB)"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("dev ")), "{out}");
    let (code, out, err) = skilltui_small_heap(&home, &["doctor"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("7.7.7"), "{out}");
    assert!(out.contains("CAO cannot load profile 'huge'"), "{out}");
}

/// Nested `<<: [*a, *a, ...]` merges: 4 * 8^8 entries if built.
fn merge_bomb() -> String {
    let mut doc = "l0: &l0 {a: 1, b: 2, c: 3, d: 4}\n".to_string();
    for i in 1..=8 {
        let refs = vec![format!("*l{}", i - 1); 8].join(", ");
        doc.push_str(&format!("l{i}: &l{i} {{<<: [{refs}]}}\n"));
    }
    doc
}

#[test]
fn a_merge_key_bomb_is_one_invalid_file_not_a_stall() {
    let (_tmp, home) = setup();
    let bomb = merge_bomb();
    fs::create_dir_all(home.join("skills/bomb")).unwrap();
    fs::write(
        home.join("skills/bomb/SKILL.md"),
        format!("---\nname: bomb\ndescription: b\n{bomb}---\n"),
    )
    .unwrap();
    fs::write(
        home.join("agent-store/bomb.md"),
        format!("---\nname: bomb\ndescription: b\n{bomb}---\n"),
    )
    .unwrap();
    let (code, out, _) = skilltui_or_hang(&home, &["list", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let status = |name: &str| {
        let e = json.as_array().unwrap().iter().find(|e| e["name"] == name);
        e.map(|e| (e["status"].clone(), e["errors"].to_string()))
            .unwrap()
    };
    assert_eq!(status("good").0, "ok");
    assert_eq!(status("bomb").0, "invalid");
    assert!(status("bomb").1.contains("merge keys"), "{out}");
    let (code, out, _) = skilltui_or_hang(&home, &["profile", "list"]);
    assert_eq!(code, 0);
    assert!(out.contains("merge keys") && out.contains("dev"), "{out}");
}

/// Runs skilltui as an unprivileged user (root reads anything), or `None`
/// when that is not possible here.
fn skilltui_unprivileged(home: &Path, args: &[&str]) -> Option<(i32, String, String)> {
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        return Some(skilltui(home, args));
    }
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env_remove("CAO_HOME_DIR")
        .output()
        .ok()?;
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn unreadable_files_are_invalid_with_the_os_error() {
    let (tmp, home) = setup();
    chmod(tmp.path(), 0o755);
    fs::create_dir_all(home.join("skills/locked")).unwrap();
    fs::write(
        home.join("skills/locked/SKILL.md"),
        "---\nname: locked\ndescription: d\n---\n",
    )
    .unwrap();
    chmod(&home.join("skills/locked/SKILL.md"), 0o000);
    let Some((code, out, err)) = skilltui_unprivileged(&home, &["list", "--json"]) else {
        eprintln!("skipped: cannot run as an unprivileged user (no setpriv)");
        return;
    };
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"good\""), "{out}");
    let locked = out.split("\"locked\"").nth(1).unwrap_or_default();
    assert!(locked.contains("\"invalid\""), "{out}");
    assert!(locked.contains("Permission denied"), "{out}");
    chmod(&home.join("skills"), 0o000);
    let (_, _, err) = skilltui_unprivileged(&home, &["list"]).unwrap();
    assert!(err.contains("Permission denied"), "{err}");
    assert!(!err.contains("init"), "{err}");
    let (code, _, err) = skilltui_unprivileged(&home, &["remove", "good"]).unwrap();
    assert_eq!(code, 1);
    assert!(
        err.contains("Permission denied") && !err.contains("does not exist"),
        "{err}"
    );
    chmod(&home.join("skills"), 0o755);
}

#[test]
fn messages_name_the_real_problem() {
    let (tmp, home) = setup();
    let src = tmp.path().join("src/fifo");
    fs::create_dir_all(&src).unwrap();
    mkfifo(&src.join("SKILL.md"));
    assert_refused(&home, &["add", src.to_str().unwrap()], "not a regular file");
    fs::write(
        tmp.path().join("elsewhere.md"),
        "---\nskills: [good]\n---\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        tmp.path().join("elsewhere.md"),
        home.join("agent-store/linked.md"),
    )
    .unwrap();
    assert_refused(
        &home,
        &["profile", "enable", "linked", "good"],
        "symlink that leads outside",
    );
    // CAO strips names it looks up: remove and enable agree on 'good '.
    let (code, out, err) = skilltui(&home, &["profile", "enable", "dev", "good "]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("already enabled"), "{out}");
    assert_eq!(skilltui(&home, &["remove", "good "]).0, 0);
    assert!(!home.join("skills/good").exists());
}

#[test]
fn a_bom_profile_is_flagged_and_never_edited() {
    let (_tmp, home) = setup();
    fs::write(
        home.join("agent-store/bom.md"),
        "\u{feff}---\nname: bom\ndescription: d\nskills: [good]\n---\nPrompt\n",
    )
    .unwrap();
    let (code, out, _) = skilltui(&home, &["profile", "list"]);
    assert_eq!(code, 0);
    let row = out.lines().find(|l| l.starts_with("bom ")).unwrap();
    assert!(row.contains("byte-order mark"), "{row}");
    let (_, _, err) = skilltui(&home, &["catalog", "bom"]);
    assert!(err.contains("byte-order mark"), "{err}");
    for verb in ["enable", "disable"] {
        assert_refused(
            &home,
            &["profile", verb, "bom", "good"],
            "save it as UTF-8 without BOM",
        );
    }
}

/// The system calls `add` makes, traced, or `None` without strace.
fn traced_add(home: &Path, src: &Path, force: bool) -> Option<Vec<String>> {
    let trace = home.with_file_name("trace");
    let mut cmd = Command::new("strace");
    cmd.args([
        "-f",
        "-e",
        "trace=syncfs,fsync,rename,renameat,renameat2",
        "-o",
    ])
    .arg(&trace)
    .arg(env!("CARGO_BIN_EXE_skilltui"))
    .arg("--home")
    .arg(home)
    .arg("add")
    .arg(src);
    if force {
        cmd.arg("--force");
    }
    // strace fails as a whole where tracing is not permitted.
    let status = cmd.env_remove("CAO_HOME_DIR").output().ok()?.status;
    if !status.success() {
        return None;
    }
    let text = fs::read_to_string(&trace).ok()?;
    Some(text.lines().map(|l| l.to_string()).collect())
}

#[test]
fn a_skill_is_on_disk_before_it_is_renamed_into_place() {
    let (tmp, home) = setup();
    let src = source(
        tmp.path(),
        "fresh",
        b"---\nname: fresh\ndescription: d\n---\n",
    );
    for force in [false, true] {
        if force {
            // Same content is "already installed": give --force something to replace.
            fs::write(
                src.join("SKILL.md"),
                "---\nname: fresh\ndescription: changed\n---\n",
            )
            .unwrap();
        }
        let Some(calls) = traced_add(&home, &src, force) else {
            eprintln!("skipped: strace is not available");
            return;
        };
        let at = |what: &str| calls.iter().position(|l| l.contains(what));
        let swap = at("rename").unwrap_or_else(|| panic!("no rename: {calls:?}"));
        let synced = at("syncfs(").or(at("fsync("));
        assert!(synced.is_some_and(|s| s < swap), "{calls:?}");
        let dir_synced = calls[swap..].iter().any(|l| l.contains("fsync("));
        assert!(
            dir_synced,
            "the store is not synced after the rename: {calls:?}"
        );
    }
}
