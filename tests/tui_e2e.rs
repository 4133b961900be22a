//! End to end: the real binary in a real terminal (tmux), real keys, and
//! the files on disk checked afterwards.
//!
//! Each test starts its own tmux server (`tmux -L <unique name>`, killed by
//! a Drop guard even when the test fails) with one 120x40 pane running
//! `skilltui --home <temp home>` with HOME pointing at a temp dir too. The
//! screen is polled with `capture-pane` until the expected text shows (a
//! generous timeout, never a timed assertion); before asserting that
//! something is absent, the screen must settle (two identical captures).
//!
//! Needs `tmux`; without it every test fails with a clear message, unless
//! `SKILLTUI_SKIP_TMUX=1`, which skips them.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use skilltui::core::store::{self, Home};

const BIN: &str = env!("CARGO_BIN_EXE_skilltui");
const TIMEOUT: Duration = Duration::from_secs(10);
const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;
/// What the wrapper shell prints when skilltui has exited.
const EXITED: &str = "[skilltui exited";

// ---- the harness ----------------------------------------------------------

/// True when the tests should run; panics with a clear message when tmux
/// is missing and skipping was not asked for.
fn tmux_available() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return true;
    }
    if std::env::var("SKILLTUI_SKIP_TMUX").is_ok_and(|v| v == "1") {
        eprintln!("tmux not found: skipping the end-to-end test (SKILLTUI_SKIP_TMUX=1)");
        return false;
    }
    panic!(
        "the end-to-end TUI tests need tmux, which is not installed \
         (apt-get install tmux); set SKILLTUI_SKIP_TMUX=1 to skip them"
    );
}

/// A temp dir holding the user's HOME (`user/`) and the CAO home (`h/`,
/// kept short so paths fit on one line of a dialog).
struct Env {
    tmp: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        // Under /tmp, not $TMPDIR: a CI runner's long TMPDIR would push the
        // paths the tests look for off the edge of a pane.
        let tmp = tempfile::Builder::new()
            .prefix("skt")
            .tempdir_in(if cfg!(unix) {
                Path::new("/tmp")
            } else {
                Path::new(".")
            })
            .expect("temp dir");
        fs::create_dir_all(tmp.path().join("user")).unwrap();
        Env { tmp }
    }

    fn root(&self) -> PathBuf {
        self.tmp.path().join("h")
    }

    fn user(&self) -> PathBuf {
        self.tmp.path().join("user")
    }

    /// The stand-in CAO every run of this env uses.
    fn cao(&self) -> PathBuf {
        let venv = self.tmp.path().join("cao-venv");
        if !venv.exists() {
            fake_cao::make(self.tmp.path());
        }
        venv
    }

    fn home(&self) -> Home {
        Home::at(self.root(), self.user()).with_cao(Some(&self.cao()))
    }

    fn skills(&self) -> PathBuf {
        self.root().join("skills")
    }

    /// The home with the default skills seeded.
    fn seeded() -> Env {
        let env = Env::new();
        store::seed(&env.home(), None).expect("seed");
        env
    }

    fn write_profile(&self, name: &str, text: &str) -> PathBuf {
        let dir = self.root().join("agent-store");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.md"));
        fs::write(&path, text).unwrap();
        path
    }
}

fn write_skill(dir: &Path, name: &str, description: &str) {
    fs::create_dir_all(dir.join(name)).unwrap();
    fs::write(
        dir.join(name).join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nBody.\n"),
    )
    .unwrap();
}

fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// One private tmux server with skilltui running in its only pane.
struct Tui {
    socket: String,
    target: String,
    /// The server's socket file, which `kill-server` leaves behind.
    socket_path: Option<PathBuf>,
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
        if let Some(p) = &self.socket_path {
            let _ = fs::remove_file(p);
        }
    }
}

impl Tui {
    /// Starts skilltui on `env`'s home. The pane runs it under `sh`, which
    /// reports the exit and the terminal's mode, then lingers so the final
    /// screen can still be read.
    fn start(env: &Env) -> Tui {
        static N: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "skilltui-e2e-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let script = format!(
            "unset CAO_HOME_DIR NO_COLOR TMUX; export HOME={home} SKILLTUI_CAO={cao}; \
             timeout --foreground 300 {bin} --home {root}; \
             echo \"{EXITED} with $?]\"; \
             stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; \
             echo; sleep 60",
            home = sh_quote(&env.user().to_string_lossy()),
            cao = sh_quote(&env.cao().to_string_lossy()),
            bin = sh_quote(BIN),
            root = sh_quote(&env.root().to_string_lossy()),
        );
        let mut tui = Tui {
            target: format!("{socket}:0.0"),
            socket,
            socket_path: None,
        };
        tui.tmux_ok(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            &tui.socket,
            "-x",
            &WIDTH.to_string(),
            "-y",
            &HEIGHT.to_string(),
            "-c",
            &env.user().to_string_lossy(),
            "sh",
            "-c",
            &script,
        ]);
        let path = tui.display("#{socket_path}");
        tui.socket_path = (!path.is_empty()).then(|| PathBuf::from(path));
        tui
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .env_remove("TMUX")
            .env_remove("CAO_HOME_DIR")
            .env_remove("NO_COLOR")
            .output()
            .expect("run tmux")
    }

    fn tmux_ok(&self, args: &[&str]) -> String {
        let out = self.tmux(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.tmux_ok(&["capture-pane", "-p", "-t", &self.target])
    }

    /// Named keys (`Enter`, `Space`, `j`...), one send each. Escape is
    /// sent alone and followed by a pause: crossterm reads ESC followed
    /// at once by a key as Alt+key.
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux_ok(&["send-keys", "-t", &self.target, k]);
            if *k == "Escape" {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }

    /// Literal text, as typed.
    fn type_text(&self, text: &str) {
        self.tmux_ok(&["send-keys", "-t", &self.target, "-l", text]);
    }

    fn display(&self, format: &str) -> String {
        self.tmux_ok(&["display", "-p", "-t", &self.target, format])
            .trim()
            .to_string()
    }

    /// Polls the screen until `ok` holds; panics with the last screen after
    /// the timeout.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            if start.elapsed() > TIMEOUT {
                panic!("timed out waiting for {what}; the screen was:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until every one of `texts` shows at once (a frame can be
    /// caught half drawn, so what a test asserts on is waited for whole).
    fn wait_all(&self, texts: &[&str]) -> String {
        self.wait_for(&format!("{texts:?}"), |s| {
            texts.iter().all(|t| s.contains(t))
        })
    }

    /// Waits until the pane titled `title` shows and `ok` holds for its
    /// text.
    fn wait_pane(&self, title: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let screen = self.wait_for(what, |s| s.contains(title) && ok(&pane(s, title)));
        pane(&screen, title)
    }

    /// The screen once two captures 300 ms apart are identical.
    fn settled(&self) -> String {
        let start = Instant::now();
        let mut last = self.screen();
        loop {
            std::thread::sleep(Duration::from_millis(300));
            let now = self.screen();
            if now == last {
                return now;
            }
            if start.elapsed() > TIMEOUT {
                panic!("the screen never settled; last:\n{now}");
            }
            last = now;
        }
    }
}

/// The text inside the pane whose title contains `title`: the rows below
/// its top border down to its bottom border, between its side borders.
fn pane(screen: &str, title: &str) -> String {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, col) = rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let s: String = r.iter().collect();
            let at = s.find(title)?;
            Some((i, s[..at].chars().count()))
        })
        .unwrap_or_else(|| panic!("no pane titled {title:?} in:\n{screen}"));
    let row = &rows[top];
    let left = (0..col)
        .rev()
        .find(|&c| matches!(row[c], '┏' | '╭' | '╔'))
        .unwrap_or(0);
    let right = (col..row.len())
        .find(|&c| matches!(row[c], '┓' | '╮' | '╗'))
        .unwrap_or(row.len());
    let mut out = String::new();
    for r in &rows[top + 1..] {
        if matches!(r.get(left), Some('┗' | '╰' | '╚')) {
            break;
        }
        let end = right.min(r.len());
        let start = (left + 1).min(end);
        out.extend(&r[start..end]);
        out.push('\n');
    }
    out
}

/// The text of the open dialog (between its double borders), joined.
fn dialog(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| {
            let a = l.find('║')?;
            let b = l.rfind('║')?;
            (b > a).then(|| l[a + '║'.len_utf8()..b].trim_end().to_string())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect()
}

/// The Preview pane's title names the selected skill's folder.
fn preview_title_for(env: &Env, folder: &str) -> String {
    format!("Preview · {}", env.skills().join(folder).display())
}

// ---- the scenarios --------------------------------------------------------

#[test]
fn navigate_and_filter() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    write_skill(&env.skills(), "zebra-notes", "Keeps notes about stripes");
    let tui = Tui::start(&env);
    tui.wait_all(&[
        "Skills (6/6)",
        &preview_title_for(&env, "cao-supervisor-protocols"),
    ]);

    tui.keys(&["j"]);
    tui.wait_text(&preview_title_for(&env, "cao-worker-protocols"));
    tui.keys(&["j"]);
    tui.wait_text(&preview_title_for(&env, "code-style"));
    tui.keys(&["k"]);
    tui.wait_text(&preview_title_for(&env, "cao-worker-protocols"));

    tui.keys(&["/"]);
    tui.type_text("zebra-notes");
    tui.wait_pane("Skills (1/6)", "the filter line and its one match", |p| {
        p.contains("/zebra-notes▏") && p.contains("✓ zebra-notes  Keeps notes")
    });
    // The filter selects the best match, which drives the preview.
    tui.wait_text(&preview_title_for(&env, "zebra-notes"));
    let skills = pane(&tui.settled(), "Skills (1/6)");
    assert!(skills.contains("zebra-notes"), "{skills}");
    for other in ["cao-supervisor-protocols", "code-style", "python-testing"] {
        assert!(
            !skills.contains(other),
            "{other} should be filtered out:\n{skills}"
        );
    }

    tui.keys(&["Escape"]);
    tui.wait_text("Skills (6/6)");
    let skills = pane(&tui.settled(), "Skills (6/6)");
    assert!(
        !skills.contains("/zebra"),
        "the filter line stays:\n{skills}"
    );
    for name in ["cao-supervisor-protocols", "python-testing", "zebra-notes"] {
        assert!(skills.contains(name), "{name} missing after Esc:\n{skills}");
    }
}

const REVIEWER: &str = "---\n\
name: reviewer\n\
description: Reviews diffs  # what it does\n\
# Skills this agent may load; keep this comment.\n\
skills:\n\
  - code-style   # always\n\
  - \"security-*\"\n\
model: 'sonnet'\n\
---\n\
Review the diff.\n";

#[test]
fn toggle_a_skill_into_a_profile() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    env.write_profile(
        "aaa-writer",
        "---\nname: aaa-writer\ndescription: Writes\n---\nWrite.\n",
    );
    let path = env.write_profile("reviewer", REVIEWER);
    let original = fs::read(&path).unwrap();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (5/5)");

    tui.keys(&["3"]);
    tui.wait_text("┏ 3 Profiles");
    tui.keys(&["j"]);
    // The detail under the list shows the selected profile's skills.
    tui.wait_text("skills: code-style, security-*");
    tui.keys(&["Enter"]);
    // Checklist order is the store's: python-testing is the fourth.
    tui.keys(&["j", "j", "j", "Space"]);
    tui.wait_text("enabled 'python-testing' for 'reviewer'");
    let after = fs::read_to_string(&path).unwrap();
    let before = String::from_utf8(original.clone()).unwrap();
    let (a, b): (Vec<&str>, Vec<&str>) = (after.lines().collect(), before.lines().collect());
    assert_eq!(a.len(), b.len() + 1, "one line added:\n{after}");
    let added = (0..a.len())
        .find(|&i| b.get(i) != Some(&a[i]))
        .expect("an added line");
    assert_eq!(a[added].trim(), "- python-testing", "added line:\n{after}");
    let mut without = a.clone();
    without.remove(added);
    assert_eq!(without, b, "only the skills value changed:\n{after}");
    assert_eq!(
        after.replacen(&format!("{}\n", a[added]), "", 1).as_bytes(),
        &original[..],
        "every other byte is kept"
    );
    assert!(after.contains("# Skills this agent may load; keep this comment.\n"));
    assert_eq!(
        a[added - 1].trim(),
        "- \"security-*\"",
        "appended to the list:\n{after}"
    );
    let loaded = skilltui::core::profile::load(&env.home(), "reviewer").expect("CAO loads it");
    assert_eq!(
        loaded.skills.as_deref(),
        Some(&["code-style", "security-*", "python-testing"].map(String::from)[..])
    );
    tui.wait_pane("4 Catalog", "the catalog with python-testing", |p| {
        p.contains("- **code-style**:") && p.contains("- **python-testing**:")
    });

    tui.keys(&["Space"]);
    tui.wait_text("disabled 'python-testing' for 'reviewer'");
    assert_eq!(
        fs::read(&path).unwrap(),
        original,
        "toggling back restores the bytes"
    );
    let catalog = pane(&tui.settled(), "4 Catalog");
    assert!(!catalog.contains("**python-testing**"), "{catalog}");
}

#[test]
fn install_over_an_existing_skill() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    let installed = env.skills().join("code-style");
    let old_md = fs::read(installed.join("SKILL.md")).unwrap();
    let src = env.tmp.path().join("src").join("code-style");
    fs::create_dir_all(&src).unwrap();
    let new_md = "---\nname: code-style\ndescription: A newer code style\n---\n# New\n";
    fs::write(src.join("SKILL.md"), new_md).unwrap();
    fs::write(src.join("NOTES.md"), "notes\n").unwrap();
    let src_text = src.display().to_string();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (5/5)");

    for answer in ["n", "y"] {
        tui.keys(&["a"]);
        tui.wait_text("Install a skill folder");
        tui.type_text(&src_text);
        // The dialog previews the folder before installing.
        tui.wait_text("description: A newer code style");
        tui.keys(&["Enter"]);
        // It names the source and lists the files added and changed.
        tui.wait_for("the force prompt", |s| {
            let d = dialog(s);
            d.contains("'code-style' is already installed.")
                && d.contains("+ NOTES.md")
                && d.contains("~ SKILL.md")
                && d.contains("y replace")
                && squash(&d).contains(&squash(&src_text))
        });
        tui.keys(&[answer]);
        if answer == "n" {
            tui.wait_text("kept the installed 'code-style'");
            assert_eq!(fs::read(installed.join("SKILL.md")).unwrap(), old_md);
            assert!(!installed.join("NOTES.md").exists());
        } else {
            tui.wait_text("replaced 'code-style': 1 added, 0 removed, 1 changed");
            assert_eq!(
                fs::read_to_string(installed.join("SKILL.md")).unwrap(),
                new_md
            );
            assert!(installed.join("NOTES.md").is_file());
            // The list shows the new description.
            tui.wait_text("code-style  A newer code style");
        }
    }
}

#[test]
fn seed_from_the_menu() {
    if !tmux_available() {
        return;
    }
    let env = Env::new();
    let defaults = store::defaults(&env.home());
    assert!(defaults.len() >= 5);
    let tui = Tui::start(&env);
    // Every default is offered as new and picked.
    tui.wait_for("the seed menu", |s| {
        let d = dialog(s);
        d.contains("Default skills (Space picks, Enter seeds")
            && defaults
                .iter()
                .all(|x| d.contains(&format!("[x] {:28} new", x.name)))
    });
    tui.keys(&["Enter"]);
    let n = defaults.len();
    tui.wait_text("seeded cao-");
    tui.wait_pane(&format!("Skills ({n}/{n})"), "the seeded skills", |p| {
        defaults
            .iter()
            .all(|x| p.contains(&format!("✓ {}", x.name)))
    });
    for s in &defaults {
        let dir = env.skills().join(&s.name);
        assert!(
            dir.join("SKILL.md").is_file(),
            "{} seeded on disk",
            dir.display()
        );
    }
    assert!(dialog(&tui.settled()).is_empty(), "the menu closed");

    // The store did not exist when the UI started; it is watched now.
    write_skill(&env.skills(), "zz-outside", "Added by another process");
    let m = n + 1;
    tui.wait_all(&[
        &format!("Skills ({m}/{m})"),
        "✓ zz-outside  Added by another process",
    ]);
    // And a profile dir created later is picked up too.
    env.write_profile(
        "late",
        "---\nname: late\ndescription: d\nskills: [zz-*]\n---\n",
    );
    tui.wait_text("late  local");
}

#[test]
fn seed_menu_seeds_only_the_picked_and_keeps_the_present() {
    if !tmux_available() {
        return;
    }
    let env = Env::new();
    let defaults = store::defaults(&env.home());
    let (present, rest) = defaults.split_at(2);
    let names: Vec<String> = present.iter().map(|d| d.name.clone()).collect();
    store::seed(&env.home(), Some(&names)).expect("seed two");
    // A local change to a present default must survive the menu.
    let kept_md = env.skills().join(&present[0].name).join("SKILL.md");
    let mut kept = fs::read_to_string(&kept_md).unwrap();
    kept.push_str("\nMy own note.\n");
    fs::write(&kept_md, &kept).unwrap();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (2/2)");
    tui.keys(&["S"]);
    tui.wait_for("the seed menu with present ones kept", |s| {
        let d = dialog(s);
        present
            .iter()
            .all(|x| d.contains(&format!("{:28} already present (kept)", x.name)))
            && rest
                .iter()
                .all(|x| d.contains(&format!("[x] {:28} new", x.name)))
    });
    // Down past the present two, untick the first new one.
    tui.keys(&["j", "j", "Space"]);
    let dropped = &rest[0].name;
    tui.wait_for("the first new one unticked", |s| {
        dialog(s).contains(&format!("[ ] {dropped:28} new"))
    });
    tui.keys(&["Enter"]);
    tui.wait_text("seeded ");
    let n = defaults.len() - 1;
    tui.wait_text(&format!("Skills ({n}/{n})"));
    assert!(
        !env.skills().join(dropped).exists(),
        "{dropped} was unticked"
    );
    for x in &rest[1..] {
        assert!(env.skills().join(&x.name).join("SKILL.md").is_file());
    }
    assert_eq!(fs::read_to_string(&kept_md).unwrap(), kept, "present kept");
}

#[test]
fn remove_with_confirmation() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    write_skill(&env.skills(), "zap", "Short lived");
    let folder = env.skills().join("zap");
    let tui = Tui::start(&env);
    tui.wait_text("Skills (6/6)");
    tui.keys(&["G"]);
    tui.wait_text(&preview_title_for(&env, "zap"));

    tui.keys(&["d"]);
    let expected = squash(&format!("This deletes the folder {}", folder.display()));
    tui.wait_for("the confirmation naming the folder", |s| {
        let d = dialog(s);
        d.contains("Remove the skill 'zap'?")
            && squash(&d).contains(&expected)
            && d.contains("y remove   n keep")
    });
    tui.keys(&["n"]);
    tui.wait_for("the dialog to close", |s| !s.contains("Remove the skill"));
    let screen = tui.settled();
    assert!(!screen.contains("Remove the skill"), "n closes:\n{screen}");
    assert!(folder.join("SKILL.md").is_file(), "n keeps the folder");
    assert!(screen.contains("Skills (6/6)"));

    tui.keys(&["d"]);
    tui.wait_text("Remove the skill 'zap'?");
    tui.keys(&["y"]);
    tui.wait_text("removed 'zap'");
    assert!(!folder.exists(), "y removes the folder");
    tui.wait_text("Skills (5/5)");
    let skills = pane(&tui.settled(), "Skills (5/5)");
    assert!(!skills.contains("zap"), "{skills}");
}

#[test]
fn external_edits_appear_and_keep_the_selection() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["j", "j"]);
    let selected = preview_title_for(&env, "code-style");
    tui.wait_text(&selected);

    // As `cao skills add` or an editor would: a new folder, then its file.
    // It sorts first, so a selection kept by index would move.
    let dir = env.skills().join("aaa-fresh");
    fs::create_dir(&dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: aaa-fresh\ndescription: Made outside the TUI\n---\nHello.\n",
    )
    .unwrap();
    tui.wait_all(&["Skills (6/6)", "✓ aaa-fresh  Made outside the TUI"]);
    let screen = tui.settled();
    assert!(screen.contains(&selected), "selection kept:\n{screen}");
    // And it moves on from there: the next skill is python-testing.
    tui.keys(&["j"]);
    tui.wait_text(&preview_title_for(&env, "python-testing"));
}

#[test]
fn sigterm_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (5/5)");
    let pid = tui.display("#{pane_pid}");
    // The pane runs sh, which runs timeout, which runs skilltui: kill the
    // skilltui of this pane's session only (tests run side by side).
    let killed = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "for p in $(pgrep -x skilltui); do \
               if [ \"$(ps -o sid= -p $p | tr -d ' ')\" = \"$(ps -o sid= -p {pid} | tr -d ' ')\" ]; then kill -TERM $p; echo $p; fi; \
             done"
        ))
        .output()
        .expect("run sh");
    assert!(
        !killed.stdout.is_empty(),
        "found no skilltui process in the pane's session"
    );
    assert_restored(&tui, 143);
}

/// After skilltui exited with `code`: the screen, mouse, cursor and tty
/// modes are back as they were; returns the final screen.
fn assert_restored(tui: &Tui, code: i32) -> String {
    let screen = tui.wait_text(EXITED);
    assert!(
        screen.contains(&format!("{EXITED} with {code}]")),
        "{screen}"
    );
    assert_eq!(tui.display("#{alternate_on}"), "0", "alternate screen left");
    assert_eq!(tui.display("#{mouse_any_flag}"), "0", "mouse capture off");
    assert_eq!(tui.display("#{cursor_flag}"), "1", "cursor shown");
    let screen = tui.wait_for("stty's report", |s| s.contains("icanon"));
    assert!(
        screen.contains("icanon") && !screen.contains("-icanon") && !screen.contains("-echo"),
        "raw mode left (stty: icanon and echo on):\n{screen}"
    );
    screen
}

#[test]
fn quit_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let env = Env::seeded();
    let tui = Tui::start(&env);
    tui.wait_text("Skills (5/5)");
    assert_eq!(
        tui.display("#{alternate_on}"),
        "1",
        "the UI uses the alternate screen"
    );
    assert_eq!(tui.display("#{mouse_any_flag}"), "1", "mouse captured");
    tui.keys(&["q"]);
    let screen = assert_restored(&tui, 0);
    for ui in ["Skills (", "Catalog", "? help"] {
        assert!(!screen.contains(ui), "{ui:?} left on the screen:\n{screen}");
    }
}
