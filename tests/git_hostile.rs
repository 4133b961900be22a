//! Skills from git against hostile input, offline and bounded in time:
//! credentials in URLs, scratch-named skills, a team lock that claims a
//! skill installed here, silent remotes, orphaned commits, racing adds.
//! Repositories are built in the test; `https://github.com/` is sent to
//! them with git's own `url.<base>.insteadOf`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "common/git_repos.rs"]
mod git_repos;

/// A scratch root: `home/` for skilltui, `scratch/` its TMPDIR (which
/// must end empty), repositories under `work/` and `remotes/`.
struct Fixture(tempfile::TempDir);

fn write_skill(dir: &Path, name: &str, body: &str) {
    let text = format!("---\nname: {name}\ndescription: The {name} skill\n---\n{body}");
    fs::create_dir_all(dir)
        .and_then(|_| fs::write(dir.join("SKILL.md"), text))
        .unwrap();
}

impl Fixture {
    fn new() -> Fixture {
        let f = Fixture(tempfile::tempdir().unwrap());
        fs::create_dir_all(f.scratch()).unwrap();
        f
    }

    fn root(&self) -> &Path {
        self.0.path()
    }

    fn home(&self) -> PathBuf {
        self.root().join("home")
    }

    fn scratch(&self) -> PathBuf {
        self.root().join("scratch")
    }

    fn repo(&self, name: &str, build: impl FnOnce(&Path)) -> PathBuf {
        git_repos::repo(self.root(), name, build)
    }

    fn command(&self, args: &[&str], env: &[(&str, &str)]) -> Command {
        self.command_at(&self.home(), args, env)
    }

    fn command_at(&self, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        cmd.arg("--home")
            .arg(home)
            .args(args)
            .current_dir(self.root())
            .env_remove("CAO_HOME_DIR")
            .env("HOME", self.root())
            .env("TMPDIR", self.scratch())
            .envs(git_repos::redirect_env(self.root()))
            .envs(env.iter().copied());
        cmd
    }

    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
        self.run_at(&self.home(), args, env)
    }

    fn run_at(&self, home: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
        let out: Output = self.command_at(home, args, env).output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run_with(args, &[]);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    }

    fn lock(&self) -> String {
        fs::read_to_string(self.home().join("skilltui.lock")).unwrap_or_default()
    }
}

/// Only the URL with the token reaches the repository; the same URL
/// without it goes nowhere (and never to the network).
fn token_env(root: &Path) -> Vec<(String, String)> {
    let remotes = format!("file://{}/remotes/", root.display());
    [
        ("GIT_CONFIG_NOSYSTEM", "1".to_string()),
        ("GIT_CONFIG_COUNT", "2".to_string()),
        ("GIT_CONFIG_KEY_0", format!("url.{remotes}.insteadOf")),
        (
            "GIT_CONFIG_VALUE_0",
            "https://bob:TOKEN123@github.com/".into(),
        ),
        (
            "GIT_CONFIG_KEY_1",
            "url.file:///nonexistent/.insteadOf".into(),
        ),
        ("GIT_CONFIG_VALUE_1", "https://github.com/".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

#[test]
fn a_token_in_the_url_reaches_git_but_is_never_stored_or_printed() {
    let f = Fixture::new();
    f.repo("r", |w| write_skill(&w.join("skills/a"), "a", "A\n"));
    let env = token_env(f.root());
    let run = |args: &[&str]| {
        let out = f
            .command(args, &[])
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let (code, text) = run(&["add", "https://bob:TOKEN123@github.com/o/r", "--all"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("TOKEN123"), "{text}");
    assert!(f.home().join("skills/a/SKILL.md").is_file());
    let lock = f.lock();
    assert!(
        lock.contains("source = \"https://github.com/o/r\""),
        "{lock}"
    );
    assert!(
        !lock.contains("TOKEN123") && !lock.contains("bob"),
        "{lock}"
    );
    // Errors name the repository without the token.
    let (code, text) = run(&["add", "https://bob:TOKEN123@github.com/o/missing"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("github.com/o/missing") && !text.contains("TOKEN123"),
        "{text}"
    );
    let (_, text) = run(&["add", "bob:TOKEN123@github.com/o"]);
    assert!(!text.contains("TOKEN123"), "{text}");
    // A lock written by an older skilltui: `check` does not print its token.
    let old = lock.replace("https://github.com/", "https://bob:TOKEN123@github.com/");
    fs::write(f.home().join("skilltui.lock"), old).unwrap();
    let (_, text) = run(&["check"]);
    assert!(
        text.contains("github.com/o/r") && !text.contains("TOKEN123"),
        "{text}"
    );
    let (_, text) = run(&["check", "--json"]);
    assert!(!text.contains("TOKEN123"), "{text}");
}

/// A lock from `o/REPO` pinning skill `a` with `body`, made in a home of
/// its own (as a teammate's committed lock is).
fn team_lock(f: &Fixture, repo: &str, body: &str) -> PathBuf {
    f.repo(repo, |w| write_skill(&w.join("a"), "a", body));
    let theirs = f.root().join(format!("team-{repo}"));
    let (code, out, err) = f.run_at(&theirs, &["add", &format!("o/{repo}")], &[]);
    assert_eq!(code, 0, "{out}{err}");
    theirs.join("skilltui.lock")
}

#[test]
fn sync_never_repoints_a_skill_installed_here_from_elsewhere() {
    let f = Fixture::new();
    // `a` installed here from a folder, with the very bytes the lock pins
    // (a seeded skill's hash is the same for every user).
    write_skill(&f.root().join("mine/a"), "a", "shared\n");
    f.ok(&["add", "./mine/a"]);
    let evil = team_lock(&f, "evil", "shared\n");
    let evil_arg = evil.to_str().unwrap();
    let (code, _, err) = f.run_with(&["sync", "--lock", evil_arg], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("'a' is installed here not from git"), "{err}");
    assert!(
        err.contains("github.com/o/evil") && err.contains("--force"),
        "{err}"
    );
    assert!(!f.lock().contains("evil"), "{}", f.lock());
    // From another repository: not replaced by the lock's either.
    let other = f.root().join("home2");
    let run2 = |args: &[&str]| f.run_at(&other, args, &[]);
    f.repo("good", |w| write_skill(&w.join("a"), "a", "good\n"));
    assert_eq!(run2(&["add", "o/good"]).0, 0);
    let (code, _, err) = run2(&["sync", "--lock", evil_arg]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("installed here from https://github.com/o/good"),
        "{err}"
    );
    let text = fs::read_to_string(other.join("skills/a/SKILL.md")).unwrap();
    assert!(text.contains("good"), "{text}");
    // --force takes the lock's.
    let (code, out, err) = run2(&["sync", "--lock", evil_arg, "--force"]);
    assert_eq!(code, 0, "{out}{err}");
    let text = fs::read_to_string(other.join("skills/a/SKILL.md")).unwrap();
    assert!(text.contains("shared"), "{text}");
    let lock = fs::read_to_string(other.join("skilltui.lock")).unwrap();
    assert!(lock.contains("o/evil"), "{lock}");
}

/// A TCP server on 127.0.0.1 that accepts every connection and never
/// says a word; the connections stay open as long as the test runs.
fn silent_listener() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    port
}

/// Waits at most `secs` for `child`; a child still running is killed
/// and `None` returned (the test fails instead of hanging).
fn wait_bounded(child: &mut std::process::Child, secs: u64) -> Option<(i32, String)> {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(secs) {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return Some((status.code().unwrap_or(-1), err));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn alive(pid: i32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit(')')
            .next()
            .is_some_and(|r| !r.trim_start().starts_with('Z'))
    })
}

/// Waits at most a few seconds for `pid` to be gone (SIGKILL is not
/// instant); kills it if it is not, so no test leaves it behind.
fn gone(pid: i32) -> bool {
    for _ in 0..100 {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    unsafe { libc::kill(pid, libc::SIGKILL) };
    false
}

/// An `ssh` for git that notes its pid and waits forever, as one to a
/// host that never answers does.
fn silent_ssh(f: &Fixture) -> (PathBuf, PathBuf) {
    let script = f.root().join("fake-ssh");
    let pidfile = f.root().join("ssh.pid");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 300\n",
            pidfile.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    (script, pidfile)
}

fn spawn(f: &Fixture, args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    f.command(args, env)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_silent_remote_times_out_naming_its_host_and_leaves_no_helper() {
    let f = Fixture::new();
    let port = silent_listener();
    let url = format!("http://127.0.0.1:{port}/o/r");
    let quick = [("SKILLTUI_GIT_TIMEOUT", "1")];
    let mut child = spawn(&f, &["add", &url], &quick);
    let (code, err) = wait_bounded(&mut child, 20).expect("add gave up on the silent remote");
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("127.0.0.1 did not answer for 1 s"), "{err}");
    assert!(err.contains("SKILLTUI_GIT_TIMEOUT"), "{err}");
    // `check` asks with ls-remote: it gives up too, and says which host.
    let lock = format!(
        "version = 1\n\n[skills.a]\nsource = \"{url}\"\npath = \"\"\ncommit = \"{}\"\nhash = \"sha256:00\"\n",
        "a".repeat(40)
    );
    fs::create_dir_all(f.home()).unwrap();
    fs::write(f.home().join("skilltui.lock"), lock).unwrap();
    let mut child = spawn(&f, &["check"], &quick);
    let (code, err) = wait_bounded(&mut child, 20).expect("check gave up on the silent remote");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("127.0.0.1 did not answer"), "{err}");
    // Over ssh: the ssh git started is killed with it.
    let (script, pidfile) = silent_ssh(&f);
    let ssh = [
        ("SKILLTUI_GIT_TIMEOUT", "1"),
        ("GIT_SSH_COMMAND", script.to_str().unwrap()),
    ];
    let mut child = spawn(&f, &["add", "ssh://git@silent.invalid/o/r"], &ssh);
    let (code, err) = wait_bounded(&mut child, 20).expect("add gave up on the silent ssh");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("silent.invalid did not answer"), "{err}");
    let pid: i32 = fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(gone(pid), "git's ssh {pid} outlived the timeout");
    assert_eq!(fs::read_dir(f.scratch()).unwrap().count(), 0);
}

#[test]
fn ctrl_c_ends_git_and_its_ssh() {
    let f = Fixture::new();
    let (script, pidfile) = silent_ssh(&f);
    let ssh = [("GIT_SSH_COMMAND", script.to_str().unwrap())];
    let mut child = spawn(&f, &["add", "ssh://git@silent.invalid/o/r"], &ssh);
    let mut waited = 0;
    while !fs::read_to_string(&pidfile).is_ok_and(|s| s.ends_with('\n')) && waited < 400 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    let pid: i32 = fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    assert!(
        wait_bounded(&mut child, 20).is_some(),
        "skilltui outlived Ctrl-C"
    );
    assert!(gone(pid), "git's ssh {pid} outlived Ctrl-C");
}

#[test]
fn parallel_adds_pin_every_skill_they_install() {
    let f = Fixture::new();
    const N: usize = 24;
    f.repo("many", |w| {
        for i in 0..N {
            write_skill(&w.join(format!("skills/s{i}")), &format!("s{i}"), "x\n");
        }
    });
    let children: Vec<_> = (0..N)
        .map(|i| {
            f.command(&["add", "o/many", "--skill", &format!("s{i}")], &[])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        let (code, err) = wait_bounded(&mut c, 120).expect("an add finished");
        assert_eq!(code, 0, "{err}");
    }
    let lock = f.lock();
    let pinned = (0..N)
        .filter(|i| lock.contains(&format!("[skills.s{i}]")))
        .count();
    assert_eq!(pinned, N, "{lock}");
}

#[test]
fn sync_refuses_a_commit_its_ref_does_not_reach() {
    let f = Fixture::new();
    let work = f.repo("r", |w| write_skill(&w.join("a"), "a", "main\n"));
    // A commit on a branch that is pushed, pinned by a teammate, deleted.
    git_repos::git_in(&work, &["checkout", "-q", "-b", "tmp"]);
    write_skill(&work.join("a"), "a", "from a deleted branch\n");
    git_repos::commit(&work, "tmp");
    git_repos::git_in(&work, &["push", "-q", "origin", "tmp"]);
    let theirs = f.root().join("team");
    let (code, out, err) = f.run_at(&theirs, &["add", "o/r@tmp"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    git_repos::git_in(&work, &["push", "-q", "origin", "--delete", "tmp"]);
    let team_lock = theirs.join("skilltui.lock");
    let lock = fs::read_to_string(&team_lock).unwrap();
    // The same commit claimed for the default branch, which never had it.
    let on_main = f.root().join("on-main.lock");
    fs::write(&on_main, lock.replace("ref = \"tmp\"\n", "")).unwrap();
    let (code, _, err) = f.run_with(&["sync", "--lock", on_main.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the lock pins 'a' to commit"), "{err}");
    assert!(
        err.contains("is no longer in https://github.com/o/r on the default branch"),
        "{err}"
    );
    assert!(!f.home().join("skills/a").exists());
    // Its own ref gone: refused too, naming the entry.
    let (code, _, err) = f.run_with(&["sync", "--lock", team_lock.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: 'a': unknown ref 'tmp'"), "{err}");
    assert!(!f.home().join("skills/a").exists());
    // A reachable pin installs.
    f.ok(&["add", "o/r"]);
    let (code, out, err) = f.run_at(
        &f.root().join("fresh"),
        &[
            "sync",
            "--lock",
            f.home().join("skilltui.lock").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
}
