//! Hostile input to the agent and delivery commands through the real
//! binary (HOME, XDG_CONFIG_HOME and the working directory in a temp dir):
//! huge or wrong user agent files, a hand-edited record of what skilltui
//! gave agents, a FIFO in a copy, huge Copilot agent files. Each case is
//! bounded: sparse files cost no disk, and a run that would hang is killed
//! by a watchdog so the test fails instead of blocking.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    cao: PathBuf,
    cwd: PathBuf,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let home = root.join("home");
    let cao = root.join("cao");
    let cwd = root.join("proj");
    for d in [&home, &cwd, &cao.join("skills")] {
        fs::create_dir_all(d).unwrap();
    }
    let x = cao.join("skills/x");
    fs::create_dir_all(&x).unwrap();
    fs::write(
        x.join("SKILL.md"),
        "---\nname: x\ndescription: d\n---\nbody\n",
    )
    .unwrap();
    World {
        _tmp: tmp,
        root,
        home,
        cao,
        cwd,
    }
}

impl World {
    /// The binary on this world's home, run from `cwd` with `$HOME` at
    /// `home`, no variable from the test's own environment leaking in.
    fn command(&self, cwd: &Path, home: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.arg("--home")
            .arg(&self.cao)
            .args(args)
            .current_dir(cwd)
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("PATH", "/nonexistent")
            .env_remove("CAO_HOME_DIR")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .stdin(Stdio::null());
        c
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_in(&self.cwd, &self.home, args)
    }

    /// Runs the binary from `cwd` with `$HOME` at `home` ([`watched`]).
    fn run_in(&self, cwd: &Path, home: &Path, args: &[&str]) -> (i32, String, String) {
        watched(self.command(cwd, home, args))
    }

    fn user_agents(&self) -> PathBuf {
        let d = self.home.join(".config/skilltui/agents");
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn record(&self) -> PathBuf {
        self.cao.join("skilltui-agents.json")
    }
}

/// Runs the command; one still going after a minute is killed and
/// reported as a hang (exit -1), so a regression fails, never blocks.
fn watched(mut command: Command) -> (i32, String, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    (code, out, err)
}

fn sparse(path: &Path, len: u64) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::File::create(path).unwrap().set_len(len).unwrap();
}

// Before: the whole file was read and its parse error, quoting the line of
// NULs, was printed whole (1 GiB: 190 s, 5 GB, a 3 GB warning).
#[test]
fn a_huge_user_agents_file_is_refused_unread_with_a_short_warning() {
    let w = world();
    sparse(&w.user_agents().join("big.toml"), 64 << 20);
    let (code, out, err) = w.run(&["agents"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("claude-code"), "{out}");
    assert!(err.len() < 1000, "warning of {} bytes", err.len());
    assert!(
        err.contains("big.toml") && err.contains("larger than"),
        "{err}"
    );
}

#[test]
fn a_user_agents_parse_error_is_one_short_line() {
    let w = world();
    let line = format!("a = \"{}", "y".repeat(200_000));
    fs::write(w.user_agents().join("long.toml"), line).unwrap();
    let (code, _, err) = w.run(&["agents"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.len() < 1000, "warning of {} bytes", err.len());
    let warnings = err.lines().filter(|l| l.contains("long.toml"));
    assert_eq!(warnings.count(), 1, "{err}");
}

fn evil_agent(id: &str, user: &str, project: &str) -> String {
    format!(
        r#"[[agent]]
id = "{id}"
name = "Evil"
parser = "claude"
clash = "first_wins"
clash_key = "name"
symlinks = "yes"
link_ok = true
source = "test"
[[agent.location]]
path = "{user}"
scope = "user"
source = "test"
[[agent.location]]
path = "{project}"
scope = "project"
source = "test"
"#
    )
}

// Before: `{project}/..` made a link in the project's parent, and an id
// with an escape sequence was accepted.
#[test]
fn a_user_agent_with_a_location_climbing_out_or_an_odd_id_is_refused() {
    let w = world();
    let d = w.user_agents();
    fs::write(
        d.join("a.toml"),
        evil_agent("evil", "~/.evil/../../up", "{project}/.."),
    )
    .unwrap();
    fs::write(
        d.join("b.toml"),
        evil_agent("ev\\u001b[31mil", "~/.ok", "{project}/.ok"),
    )
    .unwrap();
    let (code, _, err) = w.run(&["agent", "enable", "evil", "x", "--scope", "project"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("a.toml") && err.contains(".."), "{err}");
    assert!(err.contains("b.toml") && err.contains("id"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(fs::symlink_metadata(w.root.join("x")).is_err());
    assert!(fs::symlink_metadata(w.root.join("up/x")).is_err());
}

fn claim(w: &World, path: &Path, kind: &str, from: &Path, skill: &str) {
    let mut record: serde_json::Value = fs::read(w.record())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| serde_json::json!({"targets": []}));
    record["targets"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "agent": "claude-code", "skill": skill, "scope": "user",
            "path": path, "kind": kind, "from": from,
        }));
    fs::write(w.record(), serde_json::to_vec(&record).unwrap()).unwrap();
}

// Before: `agent disable` deleted a user's link anywhere the record named,
// and `sync` made links wherever it said, to whatever it said.
#[test]
fn a_record_pointing_outside_the_agents_dirs_neither_deletes_nor_writes_there() {
    let w = world();
    let outside = w.root.join("outside");
    fs::create_dir_all(&outside).unwrap();
    let theirs = outside.join("x");
    std::os::unix::fs::symlink(w.cao.join("skills/x"), &theirs).unwrap();
    claim(&w, &theirs, "link", &w.cao.join("skills/x"), "x");
    claim(&w, &outside.join("etc"), "link", Path::new("/etc"), "x");
    let dotdot = w.home.join(".claude/skills/../../../outside/y");
    claim(&w, &dotdot, "link", &w.cao.join("skills/x"), "y");

    let (code, _, err) = w.run(&["sync"]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(fs::symlink_metadata(outside.join("etc")).is_err(), "{err}");
    assert!(fs::symlink_metadata(outside.join("y")).is_err(), "{err}");

    let (_, _, err) = w.run(&["agent", "disable", "claude-code", "x"]);
    assert_eq!(
        fs::read_link(&theirs).unwrap(),
        w.cao.join("skills/x"),
        "{err}"
    );
    let (_, _, err) = w.run(&["remove", "x"]);
    assert!(fs::symlink_metadata(&theirs).is_ok(), "{err}");
}

// Before: hashing the copy to see whether it was still skilltui's opened
// the FIFO and waited forever.
#[test]
fn a_fifo_in_a_copy_given_to_an_agent_does_not_hang_disable() {
    let w = world();
    let (code, _, err) = w.run(&["agent", "enable", "kiro-cli", "x"]);
    assert_eq!(code, 0, "{err}");
    let copy = w.home.join(".kiro/skills/x");
    assert!(copy.join("SKILL.md").is_file());
    let fifo = copy.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, err) = w.run(&["agent", "disable", "kiro-cli", "x"]);
    assert_ne!(code, -1, "agent disable hung on a FIFO");
    assert!(err.contains("left in place"), "{err}");
    assert!(copy.join("SKILL.md").is_file());
}

// Before: every *.agent.md was read whole (1 GiB sparse: 7 s, 4.2 GB).
#[test]
fn a_huge_copilot_agent_file_is_left_alone_unread() {
    let w = world();
    sparse(&w.home.join(".copilot/agents/big.agent.md"), 64 << 20);
    let (code, out, err) = w.run(&["refresh"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("big.agent.md") && out.contains("larger than"),
        "{out}"
    );
}

// Before: exit 0 and nothing said.
#[test]
fn remove_for_an_unknown_agent_or_a_bad_name_is_an_error() {
    let w = world();
    let (code, _, err) = w.run(&["remove", "x", "--agent", "nosuch"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: no agent 'nosuch'"), "{err}");
    let (code, _, err) = w.run(&["remove", "../x", "--agent", "claude-code"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: invalid skill name"), "{err}");
    assert!(w.cao.join("skills/x/SKILL.md").is_file());
}

// Before: clap echoed the argument raw in its usage error, so on a
// terminal `\e]0;…\a` retitled the window and `\e[2J` cleared the screen
// (CLICOLOR_FORCE stands in for the terminal here).
#[test]
fn a_usage_error_never_echoes_an_escape_sequence() {
    let w = world();
    for args in [
        vec!["completions", "\u{1b}]0;PWNED\u{7}"],
        vec!["agents", "--bogus\u{1b}[2J"],
        vec![
            "agent",
            "enable",
            "claude-code",
            "x",
            "--scope",
            "\u{1b}[31mu",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .arg("--home")
            .arg(&w.cao)
            .args(&args)
            .env("HOME", &w.home)
            .env("CLICOLOR_FORCE", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err:?}");
        assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    }
    // Help is still printed as clap writes it.
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage:"));
}

// Before: `list --agent --json` panicked (exit 101) on a folder name that
// is not UTF-8, `agents --json` too from such a working directory, and
// `delivery --json` printed an empty line. Such bytes show as U+FFFD.
#[test]
fn json_output_stays_valid_with_paths_that_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let w = world();
    let odd = std::ffi::OsStr::from_bytes(b"bad\xff");
    let folder = w.home.join(".claude/skills").join(odd);
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("SKILL.md"),
        "---\nname: bad\ndescription: d\n---\n",
    )
    .unwrap();
    let (code, out, err) = w.run(&["list", "--agent", "claude-code", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect(&out);
    assert!(out.contains("bad\u{fffd}"), "{rows}");
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["validate", "--json"])
        .arg(&folder)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_ne!(
        out.status.code(),
        Some(101),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str::<serde_json::Value>(&text).expect(&text);

    let odd_cwd = w.root.join(odd);
    fs::create_dir_all(&odd_cwd).unwrap();
    let (code, text, err) = w.run_in(&odd_cwd, &w.home, &["agents", "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<serde_json::Value>(&text).expect(&text);

    let odd_home = w.root.join(std::ffi::OsStr::from_bytes(b"home\xfe"));
    fs::create_dir_all(&odd_home).unwrap();
    fs::create_dir_all(w.cao.join("agent-store")).unwrap();
    fs::write(
        w.cao.join("agent-store/dev.md"),
        "---\nname: dev\nprovider: copilot_cli\n---\nYou are dev.\n",
    )
    .unwrap();
    let (code, text, err) = w.run_in(&w.cwd, &odd_home, &["delivery", "dev", "--json"]);
    assert_eq!(code, 0, "{err}");
    let d: serde_json::Value = serde_json::from_str(&text).expect(&text);
    assert_eq!(d["provider"], "copilot_cli", "{d}");
}

// Before: the skill was installed, then the unknown agent (or `cao`, whose
// skills are the store) was an error: exit 1 with the store changed.
#[test]
fn add_for_an_agent_that_cannot_be_given_skills_installs_nothing() {
    let w = world();
    let src = w.root.join("src/y");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("SKILL.md"), "---\nname: y\ndescription: d\n---\n").unwrap();
    for agent in ["nosuch", "cao"] {
        let (code, _, err) = w.run(&["add", src.to_str().unwrap(), "--agent", agent]);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!w.cao.join("skills/y").exists(), "--agent {agent}: {err}");
    }
}

/// The peak resident size of one run, in KiB (`wait4`'s `ru_maxrss` for
/// that child alone). `wait4` reaps the child, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn peak_kib(w: &World, args: &[&str]) -> (i32, i64) {
    let child = w
        .command(&w.cwd, &w.home, args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4 for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss)
}

// Before: CAO's settings.json was read whole by every command (1 GiB
// sparse: `list` 3.3 s, 1 GB).
#[test]
fn a_huge_settings_file_is_not_read_whole() {
    let w = world();
    sparse(&w.cao.join("settings.json"), 256 << 20);
    let (code, kib) = peak_kib(&w, &["list"]);
    assert_eq!(code, 0);
    assert!(kib < 96 * 1024, "peak {kib} KiB");
}

// Before: the name was joined to the agent's dir unchecked, so `''` and
// `..` were reported as "…/skills/ was not made by skilltui".
#[test]
fn agent_disable_checks_the_skill_name_first() {
    let w = world();
    let dir = w.home.join(".claude/skills");
    fs::create_dir_all(&dir).unwrap();
    for (name, why) in [
        ("", "the skill name is empty"),
        ("..", "invalid skill name"),
        ("a/b", "invalid skill name"),
    ] {
        let (code, _, err) = w.run(&["agent", "disable", "claude-code", name]);
        assert_eq!(code, 1, "{err}");
        assert!(err.starts_with(&format!("error: {why}")), "{name:?}: {err}");
    }
    assert!(dir.is_dir());
}

// Before: `/*/*/*/*/*/*` walked the whole disk (`agents` and `list
// --agent` still running after 120 s).
#[test]
fn a_user_location_of_stars_over_the_whole_disk_is_bounded() {
    let w = world();
    let agent = evil_agent("stars", "/*/*/*/*/*/*", "{project}/.stars");
    fs::write(w.user_agents().join("stars.toml"), agent).unwrap();
    let (code, out, err) = w.run(&["agents", "--json"]);
    assert_eq!(code, 0, "hung or failed: {err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let stars = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "stars")
        .unwrap();
    assert!(
        stars["locations"].as_array().unwrap().len() <= 257,
        "{stars}"
    );
    let (code, _, err) = w.run(&["list", "--agent", "stars"]);
    assert_ne!(code, -1, "hung: {err}");
}

// Issue 22 hole 1. Before: a cloned repository's `.claude/skills/y/SKILL.md`
// linking to `/proc/self/environ` or a credentials file was read, and
// `list --agent`, `catalog --agent` and `show --agent` printed what it held.
#[test]
fn a_skill_md_linking_out_of_its_folder_is_invalid_and_never_read() {
    let w = world();
    let secret = w.root.join("credentials");
    fs::write(
        &secret,
        "---\nname: y\ndescription: aws_secret_access_key=SECRET-IN-FILE\n---\nSECRET-IN-FILE body\n",
    )
    .unwrap();
    let skills = w.cwd.join(".claude/skills");
    for (folder, target) in [
        ("y", secret.as_path()),
        ("env", Path::new("/proc/self/environ")),
    ] {
        fs::create_dir_all(skills.join(folder)).unwrap();
        std::os::unix::fs::symlink(target, skills.join(folder).join("SKILL.md")).unwrap();
    }
    // A link that stays inside its folder is read as before.
    let ok = skills.join("ok");
    fs::create_dir_all(ok.join("docs")).unwrap();
    fs::write(
        ok.join("docs/main.md"),
        "---\nname: ok\ndescription: fine\n---\nOk.\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("docs/main.md", ok.join("SKILL.md")).unwrap();
    let run = |args: &[&str]| {
        let out = w
            .command(&w.cwd, &w.home, args)
            .env("SKILLTUI_TEST_SECRET", "SECRET-IN-ENV")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !text.contains("SECRET-IN"),
            "{args:?} printed a secret: {text}"
        );
        (out.status.code().unwrap_or(-1), text)
    };
    let (code, out) = run(&["list", "--agent", "claude-code", "--json"]);
    assert_eq!(code, 0, "{out}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect(&out);
    for folder in ["y", "env"] {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["path"] == skills.join(folder).to_str().unwrap())
            .unwrap_or_else(|| panic!("no row for {folder}: {rows}"));
        assert_eq!(row["status"], "invalid", "{row}");
        assert!(
            row["error"]
                .as_str()
                .unwrap()
                .contains("leads out of its folder"),
            "{row}"
        );
    }
    let ok_row = rows.as_array().unwrap().iter().find(|r| r["name"] == "ok");
    assert_eq!(ok_row.unwrap()["status"], "ok", "{rows}");
    let (code, out) = run(&["catalog", "--agent", "claude-code"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("fine"), "{out}");
    for name in ["y", "env"] {
        let (code, _) = run(&["show", name, "--agent", "claude-code"]);
        assert_eq!(code, 1);
    }
    let (code, _) = run(&["list", "--agent", "claude-code"]);
    assert_eq!(code, 0);
}

// Issue 22: a SKILL.md hard-linked to a secret is a regular file inside
// its folder; in an agent's dir it is refused unread (its other name may
// be anywhere). The same hard link in CAO's store keeps CAO's verdict: CAO
// reads it, so `list` shows it valid.
#[test]
fn a_hard_linked_skill_md_in_an_agent_dir_is_refused_unread() {
    let w = world();
    let secret = w.root.join("credentials");
    fs::write(
        &secret,
        "---\nname: h\ndescription: aws_secret_access_key=SECRET-IN-FILE\n---\nSECRET-IN-FILE\n",
    )
    .unwrap();
    let h = w.cwd.join(".claude/skills/h");
    fs::create_dir_all(&h).unwrap();
    fs::hard_link(&secret, h.join("SKILL.md")).unwrap();
    let in_store = w.cao.join("skills/h");
    fs::create_dir_all(&in_store).unwrap();
    fs::hard_link(&secret, in_store.join("SKILL.md")).unwrap();
    let run = |args: &[&str]| {
        let out = w.command(&w.cwd, &w.home, args).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code().unwrap_or(-1), text)
    };
    let (code, out) = run(&["list", "--agent", "claude-code", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("SECRET-IN"), "{out}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"] == h.to_str().unwrap())
        .unwrap_or_else(|| panic!("no row for h: {rows}"));
    assert_eq!(row["status"], "invalid", "{row}");
    assert!(
        row["error"].as_str().unwrap().contains("a hard link"),
        "{row}"
    );
    let (code, out) = run(&["show", "h", "--agent", "claude-code"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("SECRET-IN"), "{out}");
    let (code, out) = run(&["list", "--json"]);
    assert_eq!(code, 0, "{out}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let row = rows.as_array().unwrap().iter().find(|r| r["name"] == "h");
    assert_eq!(
        row.unwrap_or_else(|| panic!("{rows}"))["status"],
        "ok",
        "{rows}"
    );
}

// Issue 22 hole 2. Before: 2,000 folders and a 400,000-entry manifest took
// 81 s and 443 MB in `list --agent cleo` (every folder searched the whole
// list). Now a manifest over 10,000 entries is refused with one line, and
// the folders beside it are invalid, naming why.
#[test]
fn a_cleo_manifest_over_the_cap_is_refused_with_one_line() {
    let w = world();
    fs::create_dir_all(w.cwd.join(".git")).unwrap();
    let skills = w.cwd.join("skills");
    fs::create_dir_all(skills.join("a")).unwrap();
    fs::write(
        skills.join("a/SKILL.md"),
        "---\nname: a\ndescription: d\n---\nb\n",
    )
    .unwrap();
    let entries: Vec<String> = (0..10_001)
        .map(|i| format!(r#"{{"name":"a{i}"}}"#))
        .collect();
    fs::write(
        skills.join("manifest.json"),
        format!(r#"{{"skills":[{}]}}"#, entries.join(",")),
    )
    .unwrap();
    let (code, out, err) = w.run(&["list", "--agent", "cleo", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: ")
            && err.contains("manifest.json lists 10001 skills, over the 10000"),
        "{err}"
    );
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["status"], "invalid", "{rows}");
}

// Issue 22 hole 14. Before: every agent stopped at 2,000 folders, silently.
// The cap is Codex's (loader.rs); Claude Code documents none.
#[test]
fn only_codex_stops_at_2000_folders_and_one_warning_says_so() {
    let w = world();
    for dir in [".claude/skills", ".agents/skills"] {
        for i in 0..2_001 {
            let d = w.home.join(dir).join(format!("s{i:04}"));
            fs::create_dir_all(&d).unwrap();
            fs::write(
                d.join("SKILL.md"),
                format!("---\nname: s{i:04}\ndescription: d\n---\nb\n"),
            )
            .unwrap();
        }
    }
    let (code, out, err) = w.run(&["list", "--agent", "claude-code", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let under = |r: &&serde_json::Value| r["path"].as_str().unwrap().contains(".claude/skills/");
    assert_eq!(rows.as_array().unwrap().iter().filter(under).count(), 2_001);
    assert!(err.is_empty(), "{err}");
    let (code, out, err) = w.run(&["list", "--agent", "codex", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 2_000);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("Codex reads at most 2000 folders there"),
        "{err}"
    );
}

// Issue 22 hole 14. Before: `agent disable` deleted the link and wrote
// the record, then failed on the lock: the change half made.
#[test]
fn an_unparseable_lock_stops_agent_disable_before_anything_is_touched() {
    let w = world();
    let (code, _, err) = w.run(&["agent", "enable", "claude-code", "x"]);
    assert_eq!(code, 0, "{err}");
    let link = w.home.join(".claude/skills/x");
    let record = fs::read(w.record()).unwrap();
    fs::write(
        w.cao.join("skilltui.lock"),
        "version = 1\n[skills.x]\nsource = \n",
    )
    .unwrap();
    let (code, _, err) = w.run(&["agent", "disable", "claude-code", "x"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("skilltui.lock"),
        "{err}"
    );
    assert_eq!(fs::read_link(&link).unwrap(), w.cao.join("skills/x"));
    assert_eq!(fs::read(w.record()).unwrap(), record);
}

fn record_targets(w: &World, targets: &[serde_json::Value]) {
    let record = serde_json::json!({ "targets": targets });
    fs::write(w.record(), serde_json::to_vec(&record).unwrap()).unwrap();
}

fn target(agent: &str, scope: &str, path: &Path, kind: &str, from: &Path) -> serde_json::Value {
    let skill = path.file_name().unwrap().to_str().unwrap();
    serde_json::json!({
        "agent": agent, "skill": skill, "scope": scope,
        "path": path, "kind": kind, "from": from,
    })
}

// Issue 22 hole 6. Before: `sync` made `~/.ssh/skills/x` (CLEO's project
// dir is `skills`, and any path ending so passed), recreated a project
// folder that was gone, and stopped at the first entry it could not make.
#[test]
fn sync_restores_only_in_the_agents_own_dirs_and_goes_on_past_a_failure() {
    let w = world();
    let from = w.cao.join("skills/x");
    fs::write(w.home.join(".kiro"), "a file where Kiro's dir would be").unwrap();
    let amp = w.home.join(".config/agents/skills/x");
    let gone = w.root.join("gone/.claude/skills/x");
    let ssh = w.home.join(".ssh/skills/x");
    record_targets(
        &w,
        &[
            target(
                "kiro-cli",
                "user",
                &w.home.join(".kiro/skills/x"),
                "link",
                &from,
            ),
            target("cleo", "project", &ssh, "link", &from),
            target("claude-code", "project", &gone, "link", &from),
            target(
                "claude-code",
                "admin",
                &w.home.join(".claude/skills/x"),
                "link",
                &from,
            ),
            target("amp", "user", &amp, "link", &from),
        ],
    );
    let (code, out, err) = w.run(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(fs::read_link(&amp).unwrap(), from, "{out}{err}");
    assert!(fs::symlink_metadata(w.home.join(".ssh")).is_err(), "{out}");
    assert!(fs::symlink_metadata(w.root.join("gone")).is_err(), "{out}");
    assert!(
        fs::symlink_metadata(w.home.join(".claude")).is_err(),
        "{out}"
    );
    // The entry it cannot make is named, with its path and what is in the
    // way, in one line; the others were made.
    let failed: Vec<&str> = err.lines().filter(|l| l.contains(".kiro")).collect();
    assert_eq!(failed.len(), 1, "{err}");
    let kiro = w.home.join(".kiro");
    let line = format!(
        "warning: cannot make kiro-cli's link of 'x' again at {}: {} is a file, not a folder",
        kiro.join("skills/x").display(),
        kiro.display()
    );
    assert_eq!(failed[0], line, "{err}");
}

// Issue 22 hole 8. Before: a relative CLAUDE_CONFIG_DIR made a link the
// record named relatively, which `remove` then never took back; a user
// location `{cao_store}/x` made a folder named `{cao_store}` in the cwd.
#[test]
fn agent_dirs_are_absolute_or_refused() {
    let w = world();
    let run = |env: &[(&str, &str)], args: &[&str]| {
        let mut c = w.command(&w.cwd, &w.home, args);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let rel = [("CLAUDE_CONFIG_DIR", "cfg")];
    let (code, err) = run(&rel, &["agent", "enable", "claude-code", "x"]);
    assert_eq!(code, 0, "{err}");
    let link = w.cwd.join("cfg/skills/x");
    assert_eq!(fs::read_link(&link).unwrap(), w.cao.join("skills/x"));
    let record = fs::read_to_string(w.record()).unwrap();
    assert!(record.contains(link.to_str().unwrap()), "{record}");
    let (code, err) = run(&rel, &["remove", "x"]);
    assert_eq!(code, 0, "{err}");
    assert!(fs::symlink_metadata(&link).is_err(), "{err}");

    fs::create_dir_all(w.cao.join("skills/y")).unwrap();
    fs::write(
        w.cao.join("skills/y/SKILL.md"),
        "---\nname: y\ndescription: d\n---\nb\n",
    )
    .unwrap();
    fs::write(
        w.user_agents().join("store.toml"),
        evil_agent("instore", "{cao_store}/x", "{project}/.instore"),
    )
    .unwrap();
    let (code, err) = run(&[], &["agent", "enable", "instore", "y"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("CAO's home or store"), "{err}");
    assert!(fs::symlink_metadata(w.cwd.join("{cao_store}")).is_err());
    assert!(fs::symlink_metadata(w.cao.join("skills/x/y")).is_err());
}

// Issue 22 hole 9. Before: the project dir of a working directory whose
// name is not UTF-8 was written with U+FFFD in its place: a new, wrong
// folder.
#[test]
fn a_project_dir_under_a_non_utf8_cwd_is_that_dir() {
    use std::os::unix::ffi::OsStrExt;
    let w = world();
    let odd = w.root.join(std::ffi::OsStr::from_bytes(b"proj\xff"));
    fs::create_dir_all(&odd).unwrap();
    let args = ["agent", "enable", "claude-code", "x", "--scope", "project"];
    let (code, _, err) = w.run_in(&odd, &w.home, &args);
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_link(odd.join(".claude/skills/x")).is_ok(), "{err}");
    let names: Vec<_> = fs::read_dir(&w.root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !names
            .iter()
            .any(|n| n.to_string_lossy().contains('\u{fffd}') && n.as_bytes() != b"proj\xff"),
        "{names:?}"
    );
    let args = ["agent", "disable", "claude-code", "x", "--scope", "project"];
    let (code, _, err) = w.run_in(&odd, &w.home, &args);
    assert_eq!(code, 0, "{err}");
    assert!(fs::symlink_metadata(odd.join(".claude/skills/x")).is_err());
}

// Issue 22 hole 12. Before: `~/.` passed the check that a location is
// not the home folder, and `agent enable` linked a skill into `$HOME`.
#[test]
fn a_location_of_the_home_folder_written_oddly_is_still_refused() {
    let w = world();
    fs::write(
        w.user_agents().join("home.toml"),
        evil_agent("homey", "~/.", "{project}/.homey"),
    )
    .unwrap();
    let (code, _, err) = w.run(&["agent", "enable", "homey", "x"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the home folder"), "{err}");
    assert!(fs::symlink_metadata(w.home.join("x")).is_err());
}

// Issue 22 hole 13. Before: a project's `.claude` linking out of the
// project was written through: the link landed in the folder it leads to.
#[test]
fn a_project_skill_dir_linking_out_of_the_project_is_not_written_through() {
    let w = world();
    let elsewhere = w.root.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, w.cwd.join(".claude")).unwrap();
    let args = ["agent", "enable", "claude-code", "x", "--scope", "project"];
    let (code, _, err) = w.run(&args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("leads out of the project") && err.contains(elsewhere.to_str().unwrap()),
        "{err}"
    );
    assert!(fs::read_dir(&elsewhere).unwrap().next().is_none());
}

// Issue 22 hole 11. Before: the copy's hash stopped at depth 32, so a
// file the user put deeper was deleted with the copy by `agent disable`.
#[test]
fn a_copy_holding_a_file_deeper_than_the_hash_goes_is_kept() {
    let w = world();
    let (code, _, err) = w.run(&["agent", "enable", "kiro-cli", "x"]);
    assert_eq!(code, 0, "{err}");
    let copy = w.home.join(".kiro/skills/x");
    let deep = (0..40).fold(copy.clone(), |p, i| p.join(format!("d{i}")));
    fs::create_dir_all(&deep).unwrap();
    fs::write(deep.join("mine.txt"), "the user's").unwrap();
    let (code, _, err) = w.run(&["agent", "disable", "kiro-cli", "x"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("left in place"), "{err}");
    assert_eq!(
        fs::read_to_string(deep.join("mine.txt")).unwrap(),
        "the user's"
    );
}

// Issue 22 hole 7. Before: `show --agent cleo --set` composed the prompt
// whole, whatever its size (a 2.6 GB allocation aborted with a
// backtrace). Now over 16 MiB it is one error line. (Sized at 30 MB here:
// before, exit 0 and 30 MB printed.)
#[test]
fn a_spawn_prompt_over_the_cap_is_one_error_line() {
    let w = world();
    fs::create_dir_all(w.cwd.join(".git")).unwrap();
    fs::create_dir_all(w.cwd.join("agents/cleo-subagent")).unwrap();
    fs::write(w.cwd.join("agents/cleo-subagent/AGENT.md"), "Base\n").unwrap();
    let skills = w.cwd.join("skills");
    fs::create_dir_all(skills.join("ct-big")).unwrap();
    fs::write(
        skills.join("ct-big/SKILL.md"),
        format!(
            "---\nname: ct-big\ndescription: d\n---\n{}\n",
            "{{A}}".repeat(30_000)
        ),
    )
    .unwrap();
    fs::write(
        skills.join("manifest.json"),
        r#"{"skills": [{"name": "ct-big"}]}"#,
    )
    .unwrap();
    let value = format!("A={}", "v".repeat(1_000));
    let (code, out, err) = w.run(&["show", "ct-big", "--agent", "cleo", "--set", &value]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{} bytes on stdout", out.len());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: the composed spawn prompt would be over 16 MiB"),
        "{err}"
    );
}

// Issue 22 hole 14. Before: `agent enable claude-code a nosuch b` stopped
// at `nosuch` (b never given, nothing said of it); `disable` the same;
// `remove nosuch --agent X` said nothing and exited 0.
#[test]
fn several_names_report_each_done_and_not_done() {
    let w = world();
    for n in ["a", "b"] {
        fs::create_dir_all(w.cao.join("skills").join(n)).unwrap();
        fs::write(
            w.cao.join("skills").join(n).join("SKILL.md"),
            format!("---\nname: {n}\ndescription: d\n---\nb\n"),
        )
        .unwrap();
    }
    let (code, out, err) = w.run(&["agent", "enable", "claude-code", "a", "nosuch", "b"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("a: linked") && out.contains("b: linked"),
        "{out}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: gave 2 of 3 skill(s) to claude-code; not: nosuch ("),
        "{err}"
    );
    assert!(fs::read_link(w.home.join(".claude/skills/b")).is_ok());
    let (code, out, err) = w.run(&["agent", "disable", "claude-code", "a", "nosuch", "b"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("a: taken from") && out.contains("b: taken from"),
        "{out}"
    );
    assert!(
        err.starts_with("error: took 2 of 3 skill(s) from claude-code; not: nosuch ("),
        "{err}"
    );
    assert!(fs::symlink_metadata(w.home.join(".claude/skills/b")).is_err());
    let (code, _, err) = w.run(&["remove", "nosuch", "--agent", "claude-code"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: skilltui has not given 'nosuch' to claude-code"),
        "{err}"
    );
}

// Issue 22's second adversarial pass (by someone who did not write the
// fixes): what the issue's 14 holes did not list.

fn write_skill(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: d\n---\nbody\n"),
    )
    .unwrap();
}

// Before: one folder holding 10 links to itself was walked 6 levels deep
// as 10^6 folders: OpenCode's listing stopped at skilltui's 100,000-folder
// bound after 16 s and 357 MB, Codex's at 2,000 copies of one skill (Codex
// itself keeps a set of visited dirs and finds one).
#[test]
fn a_folder_of_links_to_itself_is_entered_once() {
    let w = world();
    let a = w.cwd.join(".agents/skills/a");
    write_skill(&a, "a");
    for i in 0..10 {
        std::os::unix::fs::symlink(".", a.join(format!("l{i}"))).unwrap();
    }
    for agent in ["opencode", "codex"] {
        let (code, out, err) = w.run(&["list", "--agent", agent, "--json"]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("at most"), "{agent}: {err}");
        let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
        let here = rows
            .iter()
            .filter(|r| r["path"].as_str().unwrap().contains(".agents/skills/a"))
            .count();
        assert!(here <= 11, "{agent}: {here} rows");
        let ok = rows
            .iter()
            .filter(|r| r["name"] == "a" && r["status"] == "ok")
            .count();
        assert_eq!(ok, 1, "{agent}");
    }
}

impl World {
    /// [`World::run`] with these variables set on top.
    fn run_env(&self, env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
        let mut c = self.command(&self.cwd, &self.home, args);
        for (k, v) in env {
            c.env(k, v);
        }
        watched(c)
    }
}

// Before: `CLAUDE_CONFIG_DIR=..` (or `/somewhere/..`) made a link at
// `<cwd>/../skills/x` and recorded that path; `agent disable` then took
// the `..` for a hand-edited record, left the link and forgot it.
#[test]
fn an_agent_dir_variable_holding_dotdot_is_given_and_taken_back() {
    let w = world();
    let up = format!("{}/../proj/..", w.cwd.display());
    for value in ["..", up.as_str()] {
        let env = [("CLAUDE_CONFIG_DIR", value)];
        let (code, _, err) = w.run_env(&env, &["agent", "enable", "claude-code", "x"]);
        assert_eq!(code, 0, "{value}: {err}");
        let link = w.root.join("skills/x");
        assert_eq!(fs::read_link(&link).unwrap(), w.cao.join("skills/x"));
        let record = fs::read_to_string(w.record()).unwrap();
        assert!(!record.contains(".."), "{value}: {record}");
        let (code, _, err) = w.run_env(&env, &["agent", "disable", "claude-code", "x"]);
        assert_eq!(code, 0, "{value}: {err}");
        assert!(!err.contains("warning"), "{value}: {err}");
        assert!(
            fs::symlink_metadata(&link).is_err(),
            "{value}: left {link:?}"
        );
    }
}

/// A fake `codex` for `agents --verify`: `version` is its `--version`
/// script, its `debug prompt-input` prints an empty list.
fn fake_codex(w: &World, version: &str) -> String {
    let bin = w.root.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let script =
        format!("#!/bin/sh\nif [ \"$1\" = --version ]; then {version}; exit 0; fi\necho '[]'\n");
    let path = bin.join("codex");
    fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    bin.display().to_string()
}

// Before: an agent that exits but leaves a helper holding its output open
// (`sleep 100 &`) made `agents --verify` wait for the helper, past its
// 30 s deadline (forever for a helper that never ends); the helper was
// left running.
#[test]
fn verify_does_not_wait_for_what_the_agent_left_running() {
    let w = world();
    let marker = w.root.join("helper-ran");
    let bin = fake_codex(
        &w,
        &format!(
            "(/bin/sleep 100; touch {}) & echo 'codex 9.9'",
            marker.display()
        ),
    );
    let (code, out, err) = w.run_env(&[("PATH", &bin)], &["agents", "--verify", "codex"]);
    assert_ne!(code, -1, "hung: {out}{err}");
    assert!(out.contains("codex 9.9"), "{out}{err}");
    // The helper is a copy of the script's shell: its command line names
    // the fake codex.
    let codex = format!("{bin}/codex");
    let alive = fs::read_dir("/proc").unwrap().flatten().any(|p| {
        fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&codex))
    });
    assert!(!alive, "the agent's helper is still running");
}

// Before: from `/`, `agent enable ID x --scope project` (and `sync` of a
// team lock labelling a skill `claude-code:project`) took `/` for the
// project and made `/.claude/skills/x`.
#[test]
fn project_scope_from_the_root_folder_is_refused() {
    let w = world();
    let (code, _, err) = w.run_in(
        Path::new("/"),
        &w.home,
        &["agent", "enable", "claude-code", "x", "--scope", "project"],
    );
    let made = Path::new("/.claude/skills/x");
    if fs::read_link(made).is_ok_and(|to| to.starts_with(&w.cao)) {
        let _ = fs::remove_file(made);
        // Only empty ones: what that run made.
        let _ = fs::remove_dir("/.claude/skills");
        let _ = fs::remove_dir("/.claude");
    }
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("project folder would be /"), "{err}");
}
