//! End to end: the real binary in a pseudo-terminal, real keys, and the
//! files on disk checked afterwards.
//!
//! Each test runs `skilltui --home <temp home>` with HOME pointing at a
//! temp dir too, in its own 120x40 pty whose output a terminal emulator
//! parses (tests/common/pty.rs). The screen is polled until the expected
//! text shows (a generous timeout, never a timed assertion); before
//! asserting that something is absent, the screen must settle (no output
//! for a while). Needs nothing but the pty: no tmux.
//!
//! Unix only: the harness signals the program and reads the tty modes
//! with libc.
#![cfg(unix)]

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::fs;
use std::path::{Path, PathBuf};

use portable_pty::CommandBuilder;
use skilltui::core::cao::store::{self, Home};

#[path = "common/git_repos.rs"]
mod git_repos;
#[path = "common/http_server.rs"]
mod http_server;
#[path = "common/pty.rs"]
mod pty;
use pty::{Term, pane};

const BIN: &str = env!("CARGO_BIN_EXE_skilltui");
const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;

// ---- the setup ------------------------------------------------------------

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
            .tempdir_in("/tmp")
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

/// Starts skilltui on `env`'s home in a fresh pty.
fn start(env: &Env) -> Term {
    start_with(env, &[])
}

/// `start` with extra environment variables.
fn start_with(env: &Env, vars: &[(String, String)]) -> Term {
    let mut cmd = CommandBuilder::new(BIN);
    cmd.arg("--home");
    cmd.arg(env.root());
    cmd.cwd(env.user());
    for var in ["CAO_HOME_DIR", "NO_COLOR", "TMUX"] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", env.user());
    cmd.env("SKILLTUI_CAO", env.cao());
    cmd.env("TERM", "xterm-256color");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    Term::spawn(cmd, WIDTH, HEIGHT)
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
    let env = Env::seeded();
    write_skill(&env.skills(), "zebra-notes", "Keeps notes about stripes");
    let mut tui = start(&env);
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

/// A terminal sends Esc then `j` typed fast as one write, the bytes of
/// Alt-j: it must still leave the filter and then move.
#[test]
fn esc_then_a_key_in_one_write_is_esc_then_the_key() {
    let env = Env::seeded();
    let mut tui = start(&env);
    tui.wait_text(&preview_title_for(&env, "cao-supervisor-protocols"));
    tui.keys(&["/"]);
    tui.type_text("cao");
    tui.wait_pane("Skills (", "the filter line", |p| p.contains("/cao▏"));
    tui.type_text("\x1bj");
    tui.wait_text(&preview_title_for(&env, "cao-worker-protocols"));
    let skills = pane(&tui.settled(), "Skills (");
    assert!(!skills.contains("/cao"), "the filter stays:\n{skills}");
}

/// Inside tmux, `y` asks tmux for `set-clipboard`: the copy message
/// mentions it only when it is not on.
#[test]
fn the_copy_message_mentions_set_clipboard_only_when_tmux_drops_osc52() {
    use std::os::unix::fs::PermissionsExt;
    for (setting, hint) in [("on", false), ("external", true)] {
        let env = Env::seeded();
        // A provider that gets CAO's catalog, so that `y` has a block to copy.
        env.write_profile("reviewer", REVIEWER);
        let bin = env.user().join("bin");
        fs::create_dir_all(&bin).unwrap();
        let tmux = bin.join("tmux");
        fs::write(&tmux, format!("#!/bin/sh\necho {setting}\n")).unwrap();
        fs::set_permissions(&tmux, fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let vars: Vec<(String, String)> = [
            ("PATH", path.as_str()),
            ("TMUX", "/tmp/tmux-fake/default,1,0"),
            ("DISPLAY", ""),
            ("WAYLAND_DISPLAY", ""),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut tui = start_with(&env, &vars);
        tui.wait_text("Skills (");
        tui.keys(&["y"]);
        let screen = tui.wait_text("OSC 52");
        assert_eq!(
            screen.contains("set-clipboard"),
            hint,
            "{setting}:\n{screen}"
        );
    }
}

const REVIEWER: &str = "---\n\
name: reviewer\n\
description: Reviews diffs  # what it does\n\
provider: claude_code\n\
# Skills this agent may load; keep this comment.\n\
skills:\n\
  - code-style   # always\n\
  - \"security-*\"\n\
model: 'sonnet'\n\
---\n\
Review the diff.\n";

#[test]
fn toggle_a_skill_into_a_profile() {
    let env = Env::seeded();
    env.write_profile(
        "aaa-writer",
        "---\nname: aaa-writer\ndescription: Writes\n---\nWrite.\n",
    );
    let path = env.write_profile("reviewer", REVIEWER);
    let original = fs::read(&path).unwrap();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");

    tui.keys(&["3"]);
    tui.wait_text("┏ 3 Agents & profiles");
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
    let loaded = skilltui::core::cao::profile::load(&env.home(), "reviewer").expect("CAO loads it");
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
fn slash_in_a_profiles_checklist_then_space_toggles_the_row_shown() {
    let env = Env::seeded();
    let path = env.write_profile("reviewer", REVIEWER);
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["3"]);
    tui.wait_text("┏ 3 Agents & profiles");
    // Fuzzy in the list: scattered letters of "reviewer".
    tui.keys(&["/", "r", "v", "w", "Enter"]);
    tui.wait_text("/rvw · 1 of ");
    tui.keys(&["Enter", "/", "p", "y", "t", "s"]);
    tui.wait_text("/pyts▏ · 1 of 5");
    // Only python-testing is drawn; the cursor went to it from row 0.
    let screen = tui.settled();
    assert!(screen.contains("[ ] python-testing"), "{screen}");
    assert!(!screen.contains("] code-style"), "{screen}");
    tui.keys(&["Enter", "Space"]);
    tui.wait_text("enabled 'python-testing' for 'reviewer'");
    assert!(
        fs::read_to_string(&path)
            .unwrap()
            .contains("- python-testing")
    );
    // Esc clears the kept filter: every row is back.
    tui.keys(&["Escape"]);
    tui.wait_text("[x] code-style");
    assert!(tui.settled().contains("[x] python-testing"));
}

#[test]
fn capital_a_saves_the_agents_to_list_and_skilltui_agents_adds_to_them() {
    let env = Env::seeded();
    env.write_profile("reviewer", REVIEWER);
    let config = env.user().join("cfg");
    let vars = [("XDG_CONFIG_HOME".to_string(), config.display().to_string())];
    let mut tui = start_with(&env, &vars);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["3", "A"]);
    tui.wait_text("List in pane 3 even when not detected");
    // codex is the second row.
    tui.keys(&["j", "Space", "Enter"]);
    tui.wait_text("pane 3 lists 1 agent even when not detected");
    tui.wait_text("◆ codex");
    let file = config.join("skilltui/agents-listed");
    let text = fs::read_to_string(&file).unwrap();
    let ids: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(ids, ["codex"], "{text}");
    tui.keys(&["q"]);
    drop(tui);
    // A new run lists it again, and the variable adds another.
    let mut vars = vars.to_vec();
    vars.push(("SKILLTUI_AGENTS".into(), "opencode".into()));
    let mut tui = start_with(&env, &vars);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["3"]);
    tui.wait_text("◆ codex");
    tui.wait_text("◆ opencode");
    tui.keys(&["A"]);
    tui.wait_text("SKILLTUI_AGENTS lists it");
}

/// Someone who runs Claude Code and Codex without CAO starts skilltui for
/// the first time: no CAO installed, no CAO home, and `~/.claude` not made
/// yet (only the `claude` binary on PATH). The first screen lists both
/// agents in pane 3, the first selected, and pane 4 shows what it finds.
#[test]
fn without_cao_a_first_start_opens_on_the_agents_claude_code_found_by_its_binary() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    fs::create_dir_all(env.user().join(".codex")).unwrap();
    let bin = env.tmp.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    let claude = bin.join("claude");
    fs::write(&claude, "#!/bin/sh\nexit 0\n").unwrap();
    fs::set_permissions(&claude, fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = CommandBuilder::new(BIN);
    cmd.arg("--home");
    cmd.arg(env.root());
    cmd.cwd(env.user());
    for var in [
        "CAO_HOME_DIR",
        "NO_COLOR",
        "TMUX",
        "SKILLTUI_CAO",
        "XDG_DATA_HOME",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", env.user());
    cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    cmd.env("TERM", "xterm-256color");
    let mut tui = Term::spawn(cmd, WIDTH, HEIGHT);
    let screen = tui.wait_all(&["◆ claude-code", "◆ codex", "Finds · Claude Code"]);
    assert!(screen.contains("No CAO here"), "{screen}");
    assert!(!screen.contains("does not exist"), "{screen}");
    tui.keys(&["q"]);
    assert_eq!(tui.wait_exit(), 0);
    assert!(!env.root().exists(), "nothing is created unasked");
}

#[test]
fn install_over_an_existing_skill() {
    let env = Env::seeded();
    let installed = env.skills().join("code-style");
    let old_md = fs::read(installed.join("SKILL.md")).unwrap();
    let src = env.tmp.path().join("src").join("code-style");
    fs::create_dir_all(&src).unwrap();
    let new_md = "---\nname: code-style\ndescription: A newer code style\n---\n# New\n";
    fs::write(src.join("SKILL.md"), new_md).unwrap();
    fs::write(src.join("NOTES.md"), "notes\n").unwrap();
    let src_text = src.display().to_string();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");

    for answer in ["n", "y"] {
        tui.keys(&["a"]);
        tui.wait_text("Install from a folder");
        tui.type_text(&src_text);
        // The dialog previews the folder before installing.
        tui.wait_text("description: A newer code style");
        tui.keys(&["Enter"]);
        // It names the source and lists the files added and changed.
        tui.wait_for("the force prompt", |s| {
            let d = dialog(s);
            d.contains("'code-style' is already installed, and differs")
                && d.contains("added    NOTES.md")
                && d.contains("changed  SKILL.md")
                && d.contains("+ description: A newer code style")
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
    let env = Env::new();
    let defaults = store::defaults(&env.home());
    assert!(defaults.len() >= 5);
    let mut tui = start(&env);
    // The home does not exist: said on the first screen, and seeded only
    // when asked (S).
    tui.wait_text("does not exist: S creates it");
    assert!(!env.root().exists());
    tui.keys(&["S"]);
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
    tui.wait_text(&format!("seeded {n} skills"));
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
    let mut tui = start(&env);
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
    tui.wait_text(&format!("seeded {} skills", rest.len() - 1));
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
    let env = Env::seeded();
    write_skill(&env.skills(), "zap", "Short lived");
    let folder = env.skills().join("zap");
    let mut tui = start(&env);
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
    let env = Env::seeded();
    let mut tui = start(&env);
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
    let env = Env::seeded();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    assert_captured(&tui);
    tui.signal(libc::SIGTERM);
    assert_restored(&mut tui, 143);
}

/// While the UI runs: alternate screen, mouse captured, raw mode.
fn assert_captured(tui: &Term) {
    assert_eq!(
        tui.private_mode(1049),
        Some(true),
        "the UI uses the alternate screen"
    );
    assert_eq!(tui.private_mode(1000), Some(true), "mouse captured");
    assert_eq!(
        tui.line_modes(),
        (false, false),
        "raw mode: no icanon, no echo"
    );
}

/// After skilltui exited with `code`: the screen, mouse, cursor and tty
/// modes are back as they were; returns the final screen.
fn assert_restored(tui: &mut Term, code: u32) -> String {
    assert_eq!(tui.wait_exit(), code, "exit code");
    assert_eq!(tui.private_mode(1049), Some(false), "alternate screen left");
    for mouse in [1000, 1002, 1003, 1006] {
        assert_eq!(
            tui.private_mode(mouse),
            Some(false),
            "mouse mode {mouse} off"
        );
    }
    assert_eq!(tui.private_mode(25), Some(true), "cursor shown");
    assert_eq!(
        tui.line_modes(),
        (true, true),
        "raw mode left (icanon and echo on)"
    );
    tui.screen()
}

#[test]
fn quit_restores_the_terminal() {
    let env = Env::seeded();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    assert_captured(&tui);
    tui.keys(&["q"]);
    let screen = assert_restored(&mut tui, 0);
    for ui in ["Skills (", "Catalog", "? help"] {
        assert!(!screen.contains(ui), "{ui:?} left on the screen:\n{screen}");
    }
}

#[test]
fn arrows_tab_and_ctrl_keys() {
    let env = Env::seeded();
    let sources = env.tmp.path().join("src");
    write_skill(&sources, "fresh-skill", "Found by completion");
    let mut tui = start(&env);
    tui.wait_all(&[
        "Skills (5/5)",
        &preview_title_for(&env, "cao-supervisor-protocols"),
    ]);
    tui.keys(&["Down", "Down"]);
    tui.wait_text(&preview_title_for(&env, "code-style"));
    tui.keys(&["Up"]);
    tui.wait_text(&preview_title_for(&env, "cao-worker-protocols"));

    // Tab and Shift-Tab move the focus (the thick border) between panes.
    tui.keys(&["Tab"]);
    tui.wait_text("┏ 2 Preview");
    tui.keys(&["BTab", "BTab"]);
    tui.wait_text("┏ 4 Catalog");
    tui.keys(&["BTab"]);
    tui.wait_text("┏ 3 Agents & profiles");
    // → opens the profile's checklist, ← goes back to the profiles.
    // (A built-in profile: its bar offers c, not Space.)
    tui.keys(&["Right"]);
    tui.wait_text("← back to the profiles  c copy to edit");
    tui.keys(&["Left"]);
    tui.wait_text("Tab/1-4 panes");

    // The install dialog's line: Ctrl-U clears it, Tab completes a folder.
    tui.keys(&["1", "a"]);
    tui.wait_text("Install from a folder");
    tui.type_text("junk");
    tui.wait_for("the typed text", |s| dialog(s).contains("junk"));
    tui.keys(&["C-u"]);
    tui.wait_for("the line cleared", |s| {
        s.contains("Install from a folder") && !dialog(s).contains("junk")
    });
    tui.type_text(&format!("{}/fresh-s", sources.display()));
    tui.keys(&["Tab"]);
    tui.wait_text("description: Found by completion");
    tui.keys(&["Enter"]);
    tui.wait_text("installed 'fresh-skill'");
    assert!(env.skills().join("fresh-skill").join("SKILL.md").is_file());
    tui.wait_text("Skills (6/6)");

    // Ctrl-C quits as q does.
    tui.keys(&["C-c"]);
    assert_restored(&mut tui, 0);
}

/// The checks `assert_restored` relies on see a terminal left raw, in the
/// alternate screen and with the mouse captured (so their passing above
/// means something).
#[test]
fn restore_checks_catch_a_terminal_left_raw() {
    let mut cmd = CommandBuilder::new("sh");
    cmd.arg("-c");
    cmd.arg("stty raw -echo; printf '\\033[?1049h\\033[?1000h'; exit 3");
    let mut term = Term::spawn(cmd, WIDTH, HEIGHT);
    assert_eq!(term.wait_exit(), 3);
    assert_eq!(term.private_mode(1049), Some(true));
    assert_eq!(term.private_mode(1000), Some(true));
    assert_eq!(term.private_mode(25), None, "never touched");
    assert_eq!(term.line_modes(), (false, false));
}

#[test]
fn add_from_a_github_shorthand_picks_with_space_and_pins_the_lock() {
    let env = Env::seeded();
    let root = env.tmp.path();
    let work = git_repos::repo(root, "pack", |w| {
        write_skill(&w.join("skills"), "alpha", "Alpha from git");
        write_skill(&w.join("skills"), "beta", "Beta from git");
        write_skill(&w.join("skills"), "gamma", "Gamma from git");
    });
    let commit = git_repos::git_in(&work, &["rev-parse", "HEAD"]);
    // https://github.com/o/pack goes to the local bare repo, by git's config.
    let mut tui = start_with(&env, &git_repos::redirect_env(root));
    tui.wait_text("Skills (5/5)");
    tui.keys(&["a"]);
    tui.wait_text("Install from a folder");
    tui.type_text("o/pack");
    tui.keys(&["Enter"]);
    tui.wait_all(&["3 skills in o/pack", "alpha  [new]", "gamma  [new]"]);
    tui.keys(&["Space", "Down", "Down", "Space", "Enter"]);
    tui.wait_text("installed 'alpha'; installed 'gamma'");
    tui.wait_text("Skills (7/7)");
    for (name, desc) in [("alpha", "Alpha from git"), ("gamma", "Gamma from git")] {
        let md = fs::read_to_string(env.skills().join(name).join("SKILL.md")).unwrap();
        assert!(md.contains(desc), "{md}");
    }
    assert!(!env.skills().join("beta").exists());
    let lock = fs::read_to_string(env.root().join("skilltui.lock")).unwrap();
    assert!(
        lock.contains("[skills.alpha]") && lock.contains("[skills.gamma]"),
        "{lock}"
    );
    assert!(lock.contains("https://github.com/o/pack"), "{lock}");
    assert!(lock.contains(&commit), "{lock}");
    assert!(!lock.contains("beta"), "{lock}");
    // The preview shows where the selected skill came from.
    tui.wait_all(&[
        "⎇ from https://github.com/o/pack skills/alpha",
        &format!("at {}", &commit[..12]),
    ]);
    tui.keys(&["q"]);
    assert_eq!(tui.wait_exit(), 0);
}

/// Words typed in the add dialog search the registry (a local server
/// standing in for it, its results pointing at a repository built here);
/// → reads a result's SKILL.md, Enter opens its repository with that skill
/// picked, Enter installs and pins it; no scratch folder is left.
#[test]
fn search_read_a_result_and_install_it() {
    let env = Env::seeded();
    let root = env.tmp.path();
    let work = git_repos::repo(root, "found", |w| {
        write_skill(&w.join("skills"), "alpha", "Alpha from git");
        write_skill(&w.join("skills"), "beta", "Beta from git");
    });
    let commit = git_repos::git_in(&work, &["rev-parse", "HEAD"]);
    let server = http_server::Server::start();
    let reply = r#"{"skills":[
        {"id":"o/found/alpha","name":"alpha","source":"o/found","installs":90},
        {"id":"o/found/beta","name":"beta","source":"o/found","installs":1200}]}"#;
    server.route("/api/search", http_server::Reply::Ok(reply.into()));
    let temp = root.join("temp");
    fs::create_dir_all(&temp).unwrap();
    let mut vars = git_repos::redirect_env(root);
    vars.push(("SKILLS_API_URL".into(), server.base.clone()));
    vars.push(("TMPDIR".into(), temp.display().to_string()));
    let mut tui = start_with(&env, &vars);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["a"]);
    tui.wait_text("Install from a folder");
    tui.type_text("beta");
    tui.keys(&["Enter"]);
    tui.wait_all(&["2 results for 'beta'", "› beta", "o/found", "1200"]);
    tui.keys(&["Right"]);
    tui.wait_all(&[
        "beta from o/found",
        "skills/beta/SKILL.md",
        "Beta from git",
        "Enter opens it to install",
    ]);
    tui.keys(&["Enter"]);
    tui.wait_all(&["2 skills in o/found", "beta  [new]"]);
    tui.keys(&["Enter"]);
    tui.wait_text("installed 'beta'");
    tui.wait_text("Skills (6/6)");
    let md = fs::read_to_string(env.skills().join("beta/SKILL.md")).unwrap();
    assert!(md.contains("Beta from git"), "{md}");
    assert!(!env.skills().join("alpha").exists());
    let lock = fs::read_to_string(env.root().join("skilltui.lock")).unwrap();
    assert!(
        lock.contains("[skills.beta]") && !lock.contains("alpha"),
        "{lock}"
    );
    assert!(lock.contains("https://github.com/o/found"), "{lock}");
    assert!(lock.contains(&commit), "{lock}");
    let left = || fs::read_dir(&temp).unwrap().next().is_none();
    assert!(eventually(left), "scratch left in {}", temp.display());
    tui.keys(&["q"]);
    assert_eq!(tui.wait_exit(), 0);
}

/// Polls `done` up to a generous deadline (never a timed assertion).
fn eventually(done: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    done()
}

/// A `git` on PATH that hangs on every call, the first (git init)
/// included, writing its pid to `pids`; and TMPDIR at `temp`, where the
/// staging folders go.
struct HangingGit {
    vars: Vec<(String, String)>,
    temp: PathBuf,
    pids: PathBuf,
}

impl HangingGit {
    fn new(env: &Env) -> HangingGit {
        use std::os::unix::fs::PermissionsExt;
        let bin = env.tmp.path().join("bin");
        let temp = env.tmp.path().join("temp");
        fs::create_dir_all(&bin).unwrap();
        fs::create_dir_all(&temp).unwrap();
        let pids = env.tmp.path().join("pids");
        let git = bin.join("git");
        let script = format!("#!/bin/sh\necho $$ >> {}\nexec sleep 600\n", pids.display());
        fs::write(&git, script).unwrap();
        fs::set_permissions(&git, fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!("{}:/usr/bin:/bin", bin.display());
        let vars = [("PATH", path), ("TMPDIR", temp.display().to_string())];
        let vars = vars.map(|(k, v)| (k.to_string(), v)).to_vec();
        HangingGit { vars, temp, pids }
    }

    /// skilltui started with this git, and `a`, SOURCE, Enter: git runs.
    fn open(&self, env: &Env, source: &str) -> Term {
        let mut tui = start_with(env, &self.vars);
        tui.wait_text("Skills (5/5)");
        tui.keys(&["a"]);
        tui.wait_text("Install from a folder");
        tui.type_text(source);
        tui.keys(&["Enter"]);
        tui.wait_text("Esc cancels");
        assert!(eventually(|| self.pids.exists()), "git was started");
        tui
    }

    /// No staging folder left, and the git started is gone.
    fn assert_cleaned_up(&self) {
        let staging_gone = || fs::read_dir(&self.temp).unwrap().next().is_none();
        assert!(
            eventually(staging_gone),
            "staging left in {}",
            self.temp.display()
        );
        self.assert_git_gone();
    }

    fn assert_git_gone(&self) {
        let pid: i32 = fs::read_to_string(&self.pids)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: signal 0 only asks whether the process exists.
        let alive = || unsafe { libc::kill(pid, 0) } == 0;
        assert!(eventually(|| !alive()), "git {pid} still runs");
    }
}

#[test]
fn esc_stops_a_hanging_git_and_leaves_no_staging_folder() {
    let env = Env::seeded();
    let git = HangingGit::new(&env);
    let mut tui = git.open(&env, "o/hangs");
    tui.keys(&["Escape"]);
    tui.wait_text("cancelled opening o/hangs");
    git.assert_cleaned_up();
    tui.keys(&["q"]);
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn a_killed_skilltui_takes_its_git_with_it() {
    let env = Env::seeded();
    let git = HangingGit::new(&env);
    let mut tui = git.open(&env, "o/hangs");
    // No chance to clean up (as after a second signal): the kernel ends git;
    // the staging folder goes with the next fetch.
    tui.signal(libc::SIGKILL);
    tui.wait_exit();
    git.assert_git_gone();
}

/// A new user pressed Ctrl-C to stop an install and lost the whole TUI:
/// during a fetch Ctrl-C cancels it as Esc does, and a second one quits.
#[test]
fn ctrl_c_during_a_fetch_cancels_it_and_a_second_quits() {
    let env = Env::seeded();
    let git = HangingGit::new(&env);
    let mut tui = git.open(&env, "o/hangs");
    tui.keys(&["C-c"]);
    tui.wait_text("cancelled opening o/hangs");
    git.assert_cleaned_up();
    tui.keys(&["C-c"]);
    assert_eq!(tui.wait_exit(), 0);
}

// ---- the CLI on a terminal --------------------------------------------------

const LONG: &str =
    "A description long enough to run well past the edge of a narrow terminal window";

/// `skilltui ARGS` in a pty `cols` wide: its screen once it exited 0.
fn cli_in_pty(env: &Env, args: &[&str], cols: u16) -> String {
    let (code, screen) = cli_in_pty_exit(env, args, cols);
    assert_eq!(code, 0, "{screen}");
    screen
}

/// `skilltui ARGS` in a pty `cols` wide: its exit code and screen.
fn cli_in_pty_exit(env: &Env, args: &[&str], cols: u16) -> (u32, String) {
    let mut cmd = CommandBuilder::new(BIN);
    cmd.arg("--home");
    cmd.arg(env.root());
    cmd.args(args);
    cmd.cwd(env.user());
    cmd.env_remove("CAO_HOME_DIR");
    cmd.env("HOME", env.user());
    cmd.env("SKILLTUI_CAO", env.cao());
    cmd.env("TERM", "xterm-256color");
    let mut term = Term::spawn(cmd, cols, HEIGHT);
    let code = term.wait_exit();
    (code, term.screen())
}

/// `skilltui ARGS` piped: its stdout.
fn cli_piped(env: &Env, args: &[&str]) -> String {
    let out = std::process::Command::new(BIN)
        .arg("--home")
        .arg(env.root())
        .args(args)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", env.user())
        .env("SKILLTUI_CAO", env.cao())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn listings_cut_descriptions_to_the_terminal_and_keep_them_whole_when_piped() {
    let env = Env::seeded();
    write_skill(&env.skills(), "long-one", LONG);
    env.write_profile(
        "wide",
        "---\nname: wide\ndescription: d\nskills: [code-style, python-testing, security-review, cao-supervisor-protocols]\n---\n",
    );
    let cols = 60;
    for (args, row) in [
        (&["list"][..], "long-one"),
        (&["profile", "list"][..], "wide"),
    ] {
        let screen = cli_in_pty(&env, args, cols);
        let line = screen.lines().find(|l| l.starts_with(row)).expect(row);
        assert!(
            line.ends_with('…'),
            "{args:?} cut with an ellipsis: {line:?}"
        );
        assert!(line.chars().count() <= usize::from(cols), "{line:?}");
        let piped = cli_piped(&env, args);
        let line = piped.lines().find(|l| l.starts_with(row)).expect(row);
        assert!(!line.contains('…'), "{args:?} whole when piped: {line:?}");
    }
    assert!(cli_piped(&env, &["list"]).contains(LONG));
    assert!(cli_piped(&env, &["list", "--json"]).contains(LONG));

    // `add` on a folder of several skills lists them, cut the same way.
    let incoming = env.user().join("incoming");
    write_skill(&incoming, "first-one", LONG);
    write_skill(&incoming, "second-one", LONG);
    let source = incoming.to_string_lossy();
    let (code, screen) = cli_in_pty_exit(&env, &["add", &source], cols);
    assert_eq!(code, 1, "{screen}");
    let line = screen
        .lines()
        .find(|l| l.starts_with("first-one"))
        .expect("listed");
    assert!(line.ends_with('…'), "{line:?}");
}

#[test]
fn completions_and_the_man_page_are_printed() {
    let env = Env::new();
    // Scripts that ask the binary itself (names come from the home).
    let bash = cli_piped(&env, &["completions", "bash"]);
    assert!(
        bash.contains("_clap_complete_skilltui()") && bash.contains("COMPLETE=\"bash\""),
        "{bash}"
    );
    let zsh = cli_piped(&env, &["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef skilltui"), "{zsh}");
    let fish = cli_piped(&env, &["completions", "fish"]);
    assert!(fish.contains("--command skilltui"), "{fish}");
    let man = cli_piped(&env, &["man"]);
    assert!(man.contains(".TH skilltui 1"), "{man}");
    assert!(man.contains("completions"), "the subcommands are listed");
    // One page: every command on it, no page it points to that is not there.
    for section in [
        ".SH COMMANDS",
        ".SH ENVIRONMENT",
        ".SH FILES",
        "EXIT STATUS",
        "KEYS (THE TUI)",
    ] {
        assert!(man.contains(section), "{section}");
    }
    for usage in [
        "skilltui profile enable",
        "skilltui agent adopt",
        "skilltui catalog",
    ] {
        assert!(man.contains(&format!(".SS \"{usage}")), "{usage}");
    }
    assert!(!man.contains("skilltui\\-list(1)") && !man.contains("skilltui-list(1)"));
    for var in [
        "CAO_HOME_DIR",
        "SKILLTUI_CAO",
        "SKILLTUI_GIT_TIMEOUT",
        "NO_COLOR",
        "COLORTERM",
    ] {
        assert!(man.contains(var), "{var}");
    }
    // The TUI's keys as its keymap has them, not typed again.
    let plain = man.replace("\\-", "-").replace("\\*(Aq", "'");
    for (keys, help) in skilltui::tui::keymap::help_rows() {
        assert!(
            plain.contains(keys) && plain.contains(help),
            "{keys}: {help}"
        );
    }
}

#[test]
fn capital_e_hands_the_terminal_to_the_editor_and_reloads_after() {
    let env = Env::seeded();
    let marks = env.tmp.path().join("marks");
    // An editor that notes the tty modes it got, reads a line typed at
    // it, then changes the description in the file it was given.
    let script = env.tmp.path().join("ed.sh");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\nstty -a > '{m}.stty'\necho ready > '{m}.ready'\nread line\necho \"$line\" > '{m}.typed'\nsed -i 's/^description: .*/description: Edited outside/' \"$1\"\n",
            m = marks.display()
        ),
    )
    .unwrap();
    let mut perms = fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&script, perms).unwrap();
    let vars = [
        ("VISUAL".to_string(), String::new()),
        ("EDITOR".to_string(), script.display().to_string()),
    ];
    let mut tui = start_with(&env, &vars);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["j", "j"]);
    tui.wait_text(&preview_title_for(&env, "code-style"));
    tui.keys(&["E"]);
    let ready = marks.with_extension("ready");
    assert!(eventually(|| ready.exists()), "the editor ran");
    // The keys go to the editor, not to the parked UI.
    tui.type_text("jjq");
    tui.keys(&["Enter"]);
    tui.wait_all(&["Edited outside", "closed; reloaded"]);
    let typed = fs::read_to_string(marks.with_extension("typed")).unwrap();
    assert_eq!(typed.trim(), "jjq");
    let stty = fs::read_to_string(marks.with_extension("stty")).unwrap();
    assert!(stty.contains(" icanon") && stty.contains(" echo"), "{stty}");
    let text = fs::read_to_string(env.skills().join("code-style/SKILL.md")).unwrap();
    assert!(text.contains("description: Edited outside"));
    assert_captured(&tui);
    tui.wait_text(&preview_title_for(&env, "code-style"));
    tui.keys(&["q"]);
    assert_restored(&mut tui, 0);
}

/// The real binary: a detected agent is listed after the profiles, its
/// Finds view opens, and Space in its checklist gives it a store skill.
#[test]
fn an_agent_gets_a_skill_from_its_checklist() {
    let env = Env::seeded();
    fs::create_dir_all(env.user().join(".config/amp")).unwrap();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    // Agents are found off the first frame: G must land on Amp's row.
    tui.wait_text("◆ amp");
    tui.keys(&["3", "G"]);
    tui.wait_text("Finds · Amp");
    tui.keys(&["Enter", "Space"]);
    tui.wait_text("gave cao-supervisor-protocols to amp");
    let given = env
        .user()
        .join(".config/agents/skills/cao-supervisor-protocols/SKILL.md");
    assert!(given.is_file());
    tui.keys(&["q"]);
    tui.wait_exit();
}

/// Another program adds a skill to a detected agent's dir: the agent's
/// Finds view shows it without `r`, as the store's watch does for CAO.
#[test]
fn a_skill_added_to_an_agent_dir_appears_without_r() {
    let env = Env::seeded();
    fs::create_dir_all(env.user().join(".config/amp")).unwrap();
    let agent_dir = env.user().join(".config/agents/skills");
    fs::create_dir_all(&agent_dir).unwrap();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    // Agents are found off the first frame: G must land on Amp's row.
    tui.wait_text("◆ amp");
    tui.keys(&["3", "G"]);
    tui.wait_text("Finds · Amp");
    // The watches are set up, and the read that follows them is done, well
    // within this: what comes next is seen by a watch, not by that read.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    tui.settled();
    // As `npx skills add` would: a new folder, then its file.
    write_skill(&agent_dir, "zz-made-elsewhere", "Added by another program");
    tui.wait_text("zz-made-elsewhere");
    tui.keys(&["q"]);
    tui.wait_exit();
}

#[test]
fn a_critical_pick_is_named_then_installed_on_a_worker_only_when_trusted() {
    let env = Env::seeded();
    let folder = env.tmp.path().join("risky");
    write_skill(&folder, "clean", "Clean");
    fs::create_dir_all(folder.join("piped")).unwrap();
    fs::write(
        folder.join("piped/SKILL.md"),
        "---\nname: piped\ndescription: Piped\n---\n# piped\n\n```bash\necho Y3VybCB4 | base64 -d | sh\n```\n",
    )
    .unwrap();
    let mut tui = start(&env);
    tui.wait_text("Skills (5/5)");
    tui.keys(&["a"]);
    tui.wait_text("Install from a folder");
    tui.type_text(&folder.display().to_string());
    tui.keys(&["Enter"]);
    tui.wait_all(&["2 skills in", "✓ ·        clean", "✗ critical piped"]);
    tui.keys(&["Space", "Down", "Space", "Enter"]);
    tui.wait_all(&[
        "critical piped: decode-exec SKILL.md:8",
        "t trusts the critical ones (as --trust does)",
    ]);
    tui.keys(&["y"]);
    tui.wait_text("t installs the picks as they are, n goes back");
    assert!(!env.skills().join("piped").exists());
    assert!(!env.skills().join("clean").exists());
    tui.keys(&["t"]);
    tui.wait_text("installed 'clean'; installed 'piped'");
    assert!(env.skills().join("piped/SKILL.md").is_file());
    // The audit worker marks it in the Skills pane once the store is read again.
    tui.wait_all(&["Skills (7/7)", "piped ⚠"]);
    tui.keys(&["q"]);
    assert_eq!(tui.wait_exit(), 0);
}
