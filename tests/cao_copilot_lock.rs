//! skilltui's Copilot refresh and the real CAO 2.5.4 on one home: both
//! take CAO's lock on the agent file (`utils/atomic_file.py`), the same
//! file by the same hash, so a `cao skills add` refresh and a skilltui
//! change never interleave.

#[path = "common/venv.rs"]
mod venv;

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use skilltui::core::cao::locks;
use skilltui::core::cao::store::Home;
use skilltui::core::delivery::copilot;

fn python() -> Option<PathBuf> {
    if std::env::var("SKILLTUI_SKIP_PARITY").as_deref() == Ok("1") {
        eprintln!("cao_copilot_lock: SKIPPED (SKILLTUI_SKIP_PARITY=1)");
        return None;
    }
    let python = venv::find_python3().expect("python3 (>= 3.10) builds the CAO venv");
    Some(venv::ensure_venv(&python))
}

struct Setup {
    _tmp: tempfile::TempDir,
    home: Home,
    user: PathBuf,
    target: PathBuf,
}

/// A home where CAO installed `dev` for Copilot, with one skill in the
/// store, and the agent file baked before that skill came.
fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let (root, user) = (tmp.path().join("home"), tmp.path().join("user"));
    let profile = "---\nname: dev\nprovider: copilot_cli\n---\nYou are dev.\n";
    for dir in ["agent-store", "agent-context"] {
        fs::create_dir_all(root.join(dir)).unwrap();
        fs::write(root.join(dir).join("dev.md"), profile).unwrap();
    }
    let skill = root.join("skills/x");
    fs::create_dir_all(&skill).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: x\ndescription: The x skill\n---\n",
    )
    .unwrap();
    let agents = user.join(".copilot/agents");
    fs::create_dir_all(&agents).unwrap();
    let target = agents.join("dev.agent.md");
    fs::write(&target, "---\nname: dev\n---\n\nYou are dev.").unwrap();
    Setup {
        home: Home::at(root, user.clone()),
        _tmp: tmp,
        user,
        target,
    }
}

/// CAO's own code, run against the setup's home.
fn cao(py: &Path, s: &Setup, script: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(py);
    cmd.arg("-c")
        .arg(script)
        .args(args)
        .env("CAO_HOME_DIR", &s.home.root)
        .env("HOME", &s.user)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    cmd
}

const LOCK_PATH: &str = r#"
import sys
from pathlib import Path
from cli_agent_orchestrator.utils.atomic_file import _lock_path_for
print(_lock_path_for(Path(sys.argv[1])))
"#;

/// Holds CAO's lock on the file, then, still holding it, writes the file
/// as a CAO writer would, and lets go.
const HOLD: &str = r#"
import sys, time
from pathlib import Path
from cli_agent_orchestrator.utils.atomic_file import _file_lock, _lock_path_for
target = Path(sys.argv[1])
with _file_lock(_lock_path_for(target), 10):
    print("held", flush=True)
    time.sleep(1.5)
    target.write_text("---\nname: dev\n---\n\nwritten by cao while it held the lock")
"#;

/// CAO's refresh of one file, waiting at most 0.3 s for the lock.
const REWRITE: &str = r#"
import sys
from pathlib import Path
from cli_agent_orchestrator.utils.atomic_file import locked_atomic_rewrite, LockTimeoutError
try:
    locked_atomic_rewrite(Path(sys.argv[1]), lambda old: old, lock_timeout=0.3)
    print("rewrote")
except LockTimeoutError:
    print("waited for the lock")
"#;

fn run(mut cmd: Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn skilltui_locks_the_file_cao_locks() {
    let Some(py) = python() else { return };
    let s = setup();
    let theirs = run(cao(&py, &s, LOCK_PATH, &[s.target.to_str().unwrap()]));
    let ours = locks::target_lock_path(&s.home.root, &s.target);
    assert_eq!(PathBuf::from(theirs), ours);
}

/// CAO holds the lock and writes the file before letting go: skilltui's
/// refresh waits, then reads what CAO wrote and rewrites it. Without the
/// lock it would finish first and CAO's write would be the last word.
#[test]
fn a_skilltui_refresh_waits_for_caos_lock_and_then_sees_its_write() {
    let Some(py) = python() else { return };
    let s = setup();
    let mut holder = cao(&py, &s, HOLD, &[s.target.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(holder.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "held");
    let done = copilot::refresh(&s.home);
    assert!(holder.wait().unwrap().success());
    assert_eq!(done.stopped, None);
    assert_eq!(done.rewritten, vec![s.target.clone()]);
    let text = fs::read_to_string(&s.target).unwrap();
    assert!(
        text.starts_with("---\nname: dev\n---\n\nYou are dev.\n\n## Available Skills"),
        "{text}"
    );
    assert!(text.ends_with("- **x**: The x skill"), "{text}");
}

/// While skilltui holds the lock, CAO's own rewrite of the file waits for
/// it (and gives up after its timeout); once let go, CAO goes ahead.
#[test]
fn cao_waits_while_skilltui_holds_the_lock() {
    let Some(py) = python() else { return };
    let s = setup();
    let held = locks::lock_target(&s.home.root, &s.target).unwrap();
    let rewrite = || cao(&py, &s, REWRITE, &[s.target.to_str().unwrap()]);
    assert_eq!(run(rewrite()), "waited for the lock");
    drop(held);
    assert_eq!(run(rewrite()), "rewrote");
}
