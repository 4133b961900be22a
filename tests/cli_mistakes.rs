//! The mistakes people make on the CLI, run on the real binary: a name
//! mistyped anywhere gets the same "did you mean", a closed pipe ends a
//! listing quietly, `--help` puts the global options last and shows
//! examples, and `remove` names the profiles that still list the skill.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::fs;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    cao: PathBuf,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let cao = fake_cao::make(&root);
    let home = root.join("home");
    // Enough skills that a listing outgrows a pipe's buffer.
    for i in 0..400 {
        let name = if i == 0 {
            "pdf".into()
        } else {
            format!("skill-{i:03}")
        };
        let dir = home.join("skills").join(&name);
        fs::create_dir_all(&dir).unwrap();
        let about = "Does one thing well and says so at length. ".repeat(4);
        fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {about}\n---\n{}\n",
                "Body. ".repeat(200)
            ),
        )
        .unwrap();
    }
    fs::create_dir_all(home.join("agent-store")).unwrap();
    fs::write(
        home.join("agent-store/developer.md"),
        "---\nname: developer\ndescription: Develops\nskills:\n  - pdf\n  - skill-001\n---\nDevelop well.\n",
    )
    .unwrap();
    fs::create_dir_all(root.join("user")).unwrap();
    World {
        _tmp: tmp,
        root,
        home,
        cao,
    }
}

impl World {
    fn command(&self, home: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.arg("--home")
            .arg(home)
            .args(args)
            .current_dir(&self.root)
            .env("HOME", self.root.join("user"))
            .env("XDG_CONFIG_HOME", self.root.join("user/.config"))
            .env("SKILLTUI_CAO", &self.cao)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("CAO_HOME_DIR")
            .env_remove("COMPLETE")
            .stdin(Stdio::null());
        c
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.command(&self.home, args).output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

#[test]
fn a_mistyped_name_gets_the_same_did_you_mean_everywhere() {
    let w = world();
    for args in [
        &["show", "pfd"][..],
        &["remove", "pfd"],
        &["catalog", "develper"],
    ] {
        let (code, out, err) = w.run(args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        let wanted = if args[0] == "catalog" {
            "developer"
        } else {
            "pdf"
        };
        assert!(
            err.to_lowercase()
                .contains(&format!("did you mean {wanted}?")),
            "{args:?}: {err}"
        );
    }
    // A typo is never told to become a new profile file.
    let (_, _, err) = w.run(&["catalog", "develper"]);
    assert!(!err.contains("develper.md"), "{err}");
    // --limit says its range instead of quietly asking for 1.
    let (code, _, err) = w.run(&["find", "pdf", "--limit", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("1..=100") || err.contains("1-100"), "{err}");
}

#[test]
fn a_closed_pipe_ends_every_long_listing_quietly() {
    let w = world();
    for args in [
        &["list"][..],
        &["list", "--json"],
        &["show", "pdf"],
        &["catalog", "developer"],
        &["agents"],
        &["audit"],
        &["profile", "list"],
    ] {
        let mut child = w
            .command(&w.home, args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `| head -c 1`: one byte read, then the pipe is closed.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        let _ = stdout.read(&mut first);
        drop(stdout);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        let quiet = status.code() == Some(0) || status.signal() == Some(libc::SIGPIPE);
        assert!(quiet, "{args:?}: {status:?} {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn help_puts_global_options_last_and_shows_examples() {
    let w = world();
    for cmd in ["add", "find", "sync", "agent", "audit", "serve"] {
        let (code, out, err) = w.run(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        let own = out.find("Options:").expect("its own options");
        let global = out.find("Global options:").expect("a global heading");
        let examples = out.find("Examples:").expect("examples");
        assert!(own < global && global < examples, "{cmd}: {out}");
        assert!(!out[..global].contains("--home"), "{cmd}: {out}");
        assert!(
            out[examples..].contains(&format!("skilltui {cmd}")),
            "{out}"
        );
    }
    let (_, man, _) = w.run(&["man"]);
    assert!(
        man.contains("skilltui add anthropics/skills \\-\\-all")
            || man.contains("skilltui add anthropics/skills --all"),
        "the man page has the examples"
    );
}

#[test]
fn remove_names_the_profiles_that_still_list_the_skill() {
    let w = world();
    let (code, out, err) = w.run(&["remove", "pdf"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("profiles still listing 'pdf': developer"),
        "{err}"
    );
    let (code, _, err) = w.run(&["remove", "skill-002"]);
    assert_eq!(code, 0);
    assert!(!err.contains("still listing"), "{err}");
}

#[test]
fn a_mistyped_home_beside_a_real_one_is_named_and_never_created() {
    let w = world();
    let typo = w.root.join("hmoe");
    for args in [&["list"][..], &["init"], &["sync"]] {
        let out = w.command(&typo, args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(&format!("did you mean {}?", w.home.display())),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("skilltui init"),
            "{args:?} offers seeding: {err}"
        );
        assert!(
            fs::symlink_metadata(&typo).is_err(),
            "{args:?} made the typo"
        );
    }
}
