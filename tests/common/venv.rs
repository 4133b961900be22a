//! The CAO oracle venv at `<target>/parity-venv`, shared by the tests that
//! need the real CAO: created once with `python3 -m venv` and pip.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The oracle, plus the libraries that decide its behaviour (YAML and JSON frontmatter parsing,
/// model validation, .env parsing, skills-ref's strictyaml) pinned so that answers do not drift.
pub const REQUIREMENTS: &[&str] = &[
    "cli-agent-orchestrator==2.5.4",
    "skills-ref==0.1.1",
    "PyYAML==6.0.3",
    "python-frontmatter==1.3.0",
    "pydantic==2.14.3",
    "python-dotenv==1.2.4",
    "strictyaml==1.7.3",
];
pub fn find_python3() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Ok(p) = std::env::var("SKILLTUI_PYTHON") {
        candidates.push(p.into());
    }
    candidates.push("python3".into());
    if cfg!(windows) {
        candidates.push("python".into());
    }
    candidates.into_iter().find(|c| {
        Command::new(c)
            .args([
                "-c",
                "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

pub fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

/// `<target>/parity-venv`, created once (atomically: built aside, then renamed into place).
pub fn ensure_venv(python: &Path) -> PathBuf {
    ensure_named_venv(python, "parity-venv", REQUIREMENTS)
}

/// `<target>/NAME` with `requirements` installed, created once as
/// [`ensure_venv`] makes the CAO one (another oracle, another folder).
pub fn ensure_named_venv(python: &Path, name: &str, requirements: &[&str]) -> PathBuf {
    // The tests of one binary run on threads of one process: one builds the
    // venv while the others wait (the scratch folder is named by pid).
    static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let venv = target.join(name);
    let marker_text = requirements.join(" ");
    let ready = |v: &Path| {
        std::fs::read_to_string(v.join(".skilltui-parity-ready"))
            .is_ok_and(|s| s.trim() == marker_text)
            && venv_python(v).exists()
    };
    if ready(&venv) {
        return venv_python(&venv);
    }
    eprintln!(
        "parity: creating the oracle venv {} (one time: {})",
        venv.display(),
        marker_text
    );
    std::fs::create_dir_all(&target).expect("create target dir");
    let tmp = target.join(format!("{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let st = Command::new(python)
        .args(["-m", "venv"])
        .arg(&tmp)
        .status()
        .expect("run python3 -m venv");
    assert!(
        st.success(),
        "parity: `{} -m venv {}` failed",
        python.display(),
        tmp.display()
    );
    let st = Command::new(venv_python(&tmp))
        .args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            "-q",
        ])
        .args(requirements)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .status()
        .expect("run pip");
    if !st.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        panic!(
            "parity: `pip install {marker_text}` failed (network?); set SKILLTUI_SKIP_PARITY=1 to skip"
        );
    }
    point_scripts_at(&tmp, &venv);
    std::fs::write(tmp.join(".skilltui-parity-ready"), &marker_text).expect("write venv marker");
    if !ready(&venv) {
        let _ = std::fs::remove_dir_all(&venv); // a stale, incomplete one
    }
    if std::fs::rename(&tmp, &venv).is_err() {
        // another test process won the race
        let _ = std::fs::remove_dir_all(&tmp);
        assert!(
            ready(&venv),
            "parity: could not put the venv in place at {}",
            venv.display()
        );
    }
    venv_python(&venv)
}

/// pip writes the venv's own path into each script's `#!` line (`bin/cao`),
/// and the venv is built aside: point them where it is renamed to, or every
/// script would name a folder that no longer exists.
fn point_scripts_at(tmp: &Path, venv: &Path) {
    let (from, to) = (tmp.to_string_lossy(), venv.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(tmp.join("bin")) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_symlink() {
            continue;
        }
        let Ok(text) = std::fs::read(&path) else {
            continue;
        };
        let Some(end) = text.iter().position(|&b| b == b'\n') else {
            continue;
        };
        let first = String::from_utf8_lossy(&text[..end]);
        if first.starts_with("#!") && first.contains(from.as_ref()) {
            let mut fixed = first.replace(from.as_ref(), to.as_ref()).into_bytes();
            fixed.extend_from_slice(&text[end..]);
            std::fs::write(&path, fixed).expect("rewrite a venv script's #! line");
        }
    }
}
