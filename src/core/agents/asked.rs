//! The agents the user asks pane 3 to list whether they are detected or
//! not. A choice of the user's, not a fact about one CAO home: it lives in
//! the user's config dir beside the user's agent definitions
//! (`<config>/skilltui/agents-listed`), one id a line, and is the same
//! whichever `--home` skilltui opens.

use std::path::{Path, PathBuf};

use crate::core::agents::table;
use crate::core::fsops;

/// A list of ids is a few hundred bytes: more is not this file.
const MAX_BYTES: u64 = 64 * 1024;

const HEADER: &str = "# Agents skilltui lists in pane 3 whether detected or not (one id a line).\n\
                      # Written by skilltui's A key; SKILLTUI_AGENTS adds to it.\n";

/// `$XDG_CONFIG_HOME/skilltui/agents-listed`, else under `~/.config`.
pub fn path(user_home: &Path) -> PathBuf {
    let xdg = std::env::var("XDG_CONFIG_HOME").ok();
    (table::config_home(xdg.as_deref(), user_home))
        .join("skilltui")
        .join("agents-listed")
}

/// The file as read: its ids (comments and blank lines left out) and its
/// bytes, which a write checks are still there. No file: no ids.
pub fn read(path: &Path) -> Result<(Vec<String>, Option<Vec<u8>>), String> {
    let bytes = match fsops::read_capped(path, MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let ids = String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    Ok((ids, Some(bytes)))
}

/// Writes `ids` atomically; refused when the file no longer holds
/// `expected` (what `read` returned), so another writer's change is kept.
pub fn write(path: &Path, ids: &[String], expected: Option<&[u8]>) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut text = HEADER.to_string();
    for id in ids {
        text.push_str(id);
        text.push('\n');
    }
    fsops::atomic_write(path, text.as_bytes(), expected).map_err(|e| e.to_string())
}

/// The ids to list: the file's, then `SKILLTUI_AGENTS`'s (comma
/// separated), each once.
pub fn merged(file: Vec<String>, env: &str) -> Vec<String> {
    let mut ids = file;
    for id in env.split(',').map(str::trim).filter(|id| !id.is_empty()) {
        if !ids.iter().any(|i| i == id) {
            ids.push(id.to_string());
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_ids_read_back_and_the_env_adds_to_them() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("skilltui/agents-listed");
        assert_eq!(read(&path).unwrap(), (Vec::new(), None));
        let ids = ["codex".to_string(), "opencode".to_string()];
        write(&path, &ids, None).unwrap();
        let (read_ids, bytes) = read(&path).unwrap();
        assert_eq!(read_ids, ids);
        assert_eq!(
            merged(read_ids, " amp, codex,,"),
            ["codex", "opencode", "amp"]
        );
        // Another writer's change is not overwritten.
        std::fs::write(&path, "amp\n").unwrap();
        let err = write(&path, &ids[..1], bytes.as_deref()).unwrap_err();
        assert!(err.contains("changed on disk"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "amp\n");
    }
}
