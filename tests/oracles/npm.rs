//! The agents the oracle tests run, installed pinned from npm into
//! `<target>/oracle-npm/<name>@<version>` once (the versions in one place:
//! [`CODEX`], [`OPENCODE`], [`GEMINI`], [`COPILOT`], [`KILO`]; docs/agents.md names them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `@openai/codex` 0.169.0: `codex debug prompt-input` prints the model's
/// input, skills block included, with no login and no network.
pub const CODEX: (&str, &str) = ("@openai/codex", "0.169.0");
/// `opencode-ai` 1.18.33: `opencode debug skill` prints the skills it loads.
pub const OPENCODE: (&str, &str) = ("opencode-ai", "1.18.33");
/// `@google/gemini-cli-core` 0.61.0: `tests/oracles/gemini_skills.mjs` runs
/// its own skill discovery and prompt rendering.
pub const GEMINI: (&str, &str) = ("@google/gemini-cli-core", "0.61.0");
/// `@github/copilot` 1.0.102: `copilot skill list --json` prints the
/// skills it loads (and stderr the ones that fail), offline, no login.
pub const COPILOT: (&str, &str) = ("@github/copilot", "1.0.102");
/// `@kilocode/cli-linux-x64` 7.7.9 (the build `@kilocode/cli` fetches on
/// linux-x64; 7.8.1 has none): `kilo debug skill` prints the skills it
/// loads (tests/oracle_kilo.rs; the other oracle tests leave it unused).
#[allow(dead_code)]
pub const KILO: (&str, &str) = ("@kilocode/cli-linux-x64", "7.7.9");

/// The package's folder with its `node_modules/.bin`, installed on first
/// use; `Err` with the reason when npm or the registry cannot be reached
/// (the caller prints it and skips).
pub fn ensure(pkg: (&str, &str)) -> Result<PathBuf, String> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (name, version) = pkg;
    let spec = format!("{name}@{version}");
    let root = target_dir().join("oracle-npm").join(spec.replace('/', "+"));
    let marker = root.join(".skilltui-oracle-ready");
    if std::fs::read_to_string(&marker).is_ok_and(|s| s.trim() == spec) {
        return Ok(root);
    }
    let npm_ok = Command::new("npm")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !npm_ok {
        return Err("npm is not on PATH".into());
    }
    let view = Command::new("npm")
        .args(["view", &spec, "version"])
        .output()
        .map_err(|e| format!("npm view {spec}: {e}"))?;
    if !view.status.success() {
        return Err(format!(
            "the registry does not answer `npm view {spec}`: {}",
            String::from_utf8_lossy(&view.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    eprintln!(
        "oracles: installing {spec} into {} (one time)",
        root.display()
    );
    let tmp = root.with_extension(format!("tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let st = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--prefix",
        ])
        .arg(&tmp)
        .arg(&spec)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !st.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(format!("npm install {spec} failed"));
    }
    std::fs::write(tmp.join(".skilltui-oracle-ready"), &spec).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&root);
    std::fs::rename(&tmp, &root).map_err(|e| e.to_string())?;
    Ok(root)
}

/// The installed command `bin` of a package folder.
#[allow(dead_code)]
pub fn bin(root: &Path, bin: &str) -> PathBuf {
    root.join("node_modules/.bin").join(bin)
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}
