//! skilltui against the user's installed CAO: the parity venv's `cao` on
//! PATH stands in for a real install, and a stripped PATH with an empty
//! HOME for a machine without CAO.

#[path = "common/venv.rs"]
mod venv;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Our own defaults, seeded beside CAO's.
const OURS: &[&str] = &["code-style", "python-testing", "security-review"];

/// The venv's dir, or `None` (loudly) when `SKILLTUI_SKIP_PARITY=1`.
fn venv_dir() -> Option<PathBuf> {
    if std::env::var("SKILLTUI_SKIP_PARITY").as_deref() == Ok("1") {
        eprintln!("cao_install: SKIPPED (SKILLTUI_SKIP_PARITY=1)");
        return None;
    }
    let python = venv::find_python3().expect("python3 (>= 3.10) builds the CAO venv");
    let py = venv::ensure_venv(&python);
    Some(py.parent()?.parent()?.to_path_buf())
}

/// A sandbox: an empty HOME and a PATH of only `path_dirs`.
struct Sandbox {
    tmp: tempfile::TempDir,
    path: std::ffi::OsString,
}

impl Sandbox {
    fn new(path_dirs: &[PathBuf]) -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let empty = tmp.path().join("empty-bin");
        fs::create_dir_all(&empty).unwrap();
        let dirs = path_dirs.iter().cloned().chain([empty]);
        Sandbox {
            path: std::env::join_paths(dirs).unwrap(),
            tmp,
        }
    }

    fn user(&self) -> PathBuf {
        self.tmp.path().join("user")
    }

    fn skilltui(&self, home: &Path, args: &[&str]) -> Output {
        self.command(args).arg("--home").arg(home).output().unwrap()
    }

    /// skilltui with only this sandbox's PATH and HOME in its environment.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        cmd.args(args)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.user());
        cmd
    }
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// CAO 2.5.4 itself, in the venv: seeds `home` as `cao init` does and
/// prints the prompt it composes for its built-in `developer`.
const CAO_SCRIPT: &str = r#"
import sys, types
from cli_agent_orchestrator.cli.commands.init import seed_default_skills
from cli_agent_orchestrator.utils import agent_profiles as AP, skills as S
from cli_agent_orchestrator.providers.base import BaseProvider
seed_default_skills()
prof = AP.load_agent_profile("developer")
stub = types.SimpleNamespace(_skill_prompt=S.build_skill_catalog(prof.skills))
sys.stdout.write(BaseProvider._apply_skill_prompt(stub, prof.system_prompt or ""))
"#;

fn run_cao(venv: &Path, sandbox: &Sandbox, home: &Path) -> String {
    let out = Command::new(venv::venv_python(venv))
        .args(["-c", CAO_SCRIPT])
        .env_clear()
        .env("HOME", sandbox.user())
        .env("CAO_HOME_DIR", home)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "CAO failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every file under `dir` (relative path) with its bytes and mode bits.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let meta = fs::metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                let mode = meta.permissions().mode() & 0o777;
                out.insert(rel, (fs::read(&p).unwrap(), mode));
            }
        }
    }
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn init_seeds_what_cao_init_seeds_and_the_prompt_is_caos() {
    let Some(venv) = venv_dir() else { return };
    let sandbox = Sandbox::new(&[venv.join("bin")]);
    let cao_home = sandbox.tmp.path().join("cao-home");
    let cao_prompt = run_cao(&venv, &sandbox, &cao_home);
    let ours = sandbox.tmp.path().join("our-home");
    let out = stdout(&sandbox.skilltui(&ours, &["init"]));

    let cao_skills = names(&cao_home.join("skills"));
    assert!(cao_skills.contains(&"cao-worker-protocols".to_string()));
    let mut expected = cao_skills.clone();
    expected.extend(OURS.iter().map(|s| s.to_string()));
    expected.sort();
    assert_eq!(names(&ours.join("skills")), expected, "{out}");
    for name in &cao_skills {
        assert_eq!(
            tree(&ours.join("skills").join(name)),
            tree(&cao_home.join("skills").join(name)),
            "{name} differs from what CAO seeds"
        );
    }
    // The prompt CAO composes for its built-in developer, byte for byte.
    let ours_prompt = stdout(&sandbox.skilltui(
        &cao_home,
        &[
            "catalog",
            "developer",
            "--prompt",
            "--provider",
            "claude_code",
        ],
    ));
    assert_eq!(ours_prompt, format!("{cao_prompt}\n"));
    // And a second init keeps everything.
    let again = stdout(&sandbox.skilltui(&ours, &["init"]));
    assert!(
        again.contains(&format!("0 seeded, {} kept", expected.len())),
        "{again}"
    );
}

#[test]
fn profiles_and_doctor_see_the_installed_cao() {
    let Some(venv) = venv_dir() else { return };
    let sandbox = Sandbox::new(&[venv.join("bin")]);
    let home = sandbox.tmp.path().join("home");
    let list = stdout(&sandbox.skilltui(&home, &["profile", "list"]));
    assert!(
        list.contains("developer") && list.contains("built-in"),
        "{list}"
    );

    // A home with a shadowed skill, an invalid one and a missing extra dir.
    let skill = |dir: &Path, name: &str, desc: &str| {
        fs::create_dir_all(dir.join(name)).unwrap();
        let md = format!("---\nname: {name}\ndescription: {desc}\n---\nbody\n");
        fs::write(dir.join(name).join("SKILL.md"), md).unwrap();
    };
    let extra = sandbox.tmp.path().join("extra");
    skill(&home.join("skills"), "twin", "first");
    skill(&extra, "twin", "second");
    skill(&home.join("skills"), "broken", "yes");
    fs::create_dir_all(home.join("agent-store")).unwrap();
    fs::write(home.join("agent-store/bad.md"), "---\nname: [\n---\n").unwrap();
    let missing = sandbox.tmp.path().join("missing");
    let settings = serde_json::json!({"skills": {"extra_dirs": [extra, missing]}});
    fs::write(home.join("settings.json"), settings.to_string()).unwrap();

    let json: Value =
        serde_json::from_str(&stdout(&sandbox.skilltui(&home, &["doctor", "--json"]))).unwrap();
    assert_eq!(json["home_from"], "--home");
    assert_eq!(json["cao"]["version"], "2.5.4");
    assert!(json["cao"]["how"].as_str().unwrap().contains("PATH"));
    let dirs: Vec<(&str, bool)> = json["extra_dirs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["path"].as_str().unwrap(), d["exists"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        dirs,
        vec![
            (extra.to_str().unwrap(), true),
            (missing.to_str().unwrap(), false)
        ]
    );
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("'twin'") && warnings.contains("shadowed"),
        "{warnings}"
    );
    assert!(
        warnings.contains("CAO skips") && warnings.contains("broken"),
        "{warnings}"
    );
    let text = stdout(&sandbox.skilltui(&home, &["doctor"]));
    assert!(text.contains("cao         2.5.4 "), "{text}");
    assert!(text.contains("(missing)"), "{text}");
}

#[test]
fn without_cao_the_errors_say_where_it_comes_from() {
    let sandbox = Sandbox::new(&[]);
    let home = sandbox.tmp.path().join("home");
    let out = sandbox.skilltui(&home, &["catalog", "developer"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    for part in ["'developer' comes with CAO", "uv tool install", "--cao"] {
        assert!(err.contains(part), "{part}: {err}");
    }
    let list = stdout(&sandbox.skilltui(&home, &["profile", "list"]));
    assert!(!list.contains("built-in"), "{list}");
    let seeded = stdout(&sandbox.skilltui(&home, &["init"]));
    assert_eq!(names(&home.join("skills")), OURS, "{seeded}");
    let doctor = stdout(&sandbox.skilltui(&home, &["doctor"]));
    assert!(doctor.contains("cao         not found"), "{doctor}");
    // How the home was chosen.
    let by_env = sandbox
        .command(&["doctor"])
        .env("CAO_HOME_DIR", &home)
        .output();
    let by_env = stdout(&by_env.unwrap());
    assert!(by_env.contains("(from CAO_HOME_DIR)"), "{by_env}");
    let default = stdout(&sandbox.command(&["doctor"]).output().unwrap());
    let expected = sandbox.user().join(".aws/cli-agent-orchestrator");
    let line = format!("home        {} (from default)", expected.display());
    assert!(default.contains(&line), "{default}");
    // A --cao that holds no CAO says so, whatever PATH has.
    let bad = sandbox.tmp.path().join("nowhere");
    let out = sandbox.skilltui(
        &home,
        &["--cao", bad.to_str().unwrap(), "catalog", "reviewer"],
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("holds no CAO package"), "{err}");
}
