//! Running the agents and skilltui on a case: a clean environment (only
//! the variables given), the case's home and working directory, and a
//! bound on time.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::homes::Case;

pub const TIMEOUT: Duration = Duration::from_secs(90);

/// Runs `cmd`, killed after [`TIMEOUT`]; `Err` when it does not end.
pub fn run(mut cmd: Command) -> Result<Output, String> {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn {cmd:?}: {e}"))?;
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out.map_err(|e| e.to_string()),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            Err(format!("timed out after {TIMEOUT:?}: {cmd:?}"))
        }
    }
}

/// `program` in the case's cwd with HOME, XDG_CONFIG_HOME, a fixed PATH
/// and `extra`, nothing else from this process.
pub fn command(program: &Path, case: &Case, extra: &[(&str, &Path)]) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", &case.home)
        .env("XDG_CONFIG_HOME", case.home.join(".config"))
        .current_dir(&case.cwd);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd
}

/// skilltui's stdout for `args` on the case (its CAO home inside the case).
pub fn skilltui(
    bin: &Path,
    case: &Case,
    extra: &[(&str, &Path)],
    args: &[&str],
) -> Result<String, String> {
    let mut cmd = command(bin, case, extra);
    cmd.arg("--home").arg(case.root.join("cao")).args(args);
    let out = run(cmd)?;
    if !out.status.success() {
        return Err(format!(
            "skilltui {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("skilltui {args:?}: {e}"))
}

/// The rows of `list --agent ID --json` the model is shown (`ok`, not
/// hidden).
pub fn listed(
    bin: &Path,
    case: &Case,
    extra: &[(&str, &Path)],
    id: &str,
) -> Result<Vec<Value>, String> {
    Ok(all_rows(bin, case, extra, id)?
        .into_iter()
        .filter(|r| r["status"] == "ok" && r["hidden"] != true)
        .collect())
}

/// Every row of `list --agent ID --json`.
pub fn all_rows(
    bin: &Path,
    case: &Case,
    extra: &[(&str, &Path)],
    id: &str,
) -> Result<Vec<Value>, String> {
    let out = skilltui(bin, case, extra, &["list", "--agent", id, "--json"])?;
    serde_json::from_str(&out).map_err(|e| format!("list --agent {id} --json: {e}"))
}
