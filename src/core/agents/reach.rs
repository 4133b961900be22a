//! Shared skill dirs: one dir is often read by several agents
//! (`~/.agents/skills` by Codex, Gemini CLI, OpenCode, Copilot, Cursor,
//! Cline, Goose, Qwen Code, Zed and more), so a skill given to one of them
//! reaches the others too. Which agents read a dir, by their own tables.

use std::path::{Path, PathBuf};

use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::Agent;

/// The agents other than `except` that read `dir`: one of their
/// locations, expanded from `ctx` (the walk, `~`, variables, `*`), is
/// `dir`, compared as written and, when both exist, as resolved (a link
/// to the dir is the dir). In table order.
pub fn readers<'a>(agents: &'a [Agent], ctx: &Ctx, dir: &Path, except: &str) -> Vec<&'a Agent> {
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let dir_real = real(dir);
    agents
        .iter()
        .filter(|a| a.id != except)
        .filter(|a| {
            scan::places(a, ctx).iter().any(|p| {
                !p.builtin && (p.path == dir || (dir_real.is_some() && real(&p.path) == dir_real))
            })
        })
        .collect()
}

/// The line that says so, naming them, or `None` when no other agent
/// reads `dir`: "also read by Codex, Gemini CLI (~/.agents/skills is
/// theirs too)".
pub fn also_read_by(readers: &[&Agent], dir: &Path, user_home: &Path) -> Option<String> {
    if readers.is_empty() {
        return None;
    }
    let names: Vec<&str> = readers.iter().map(|a| a.name.as_str()).collect();
    Some(format!(
        "also read by {} ({} is theirs too)",
        names.join(", "),
        tilde(dir, user_home).display()
    ))
}

/// `dir` with the user's home written `~`.
fn tilde(dir: &Path, user_home: &Path) -> PathBuf {
    match dir.strip_prefix(user_home) {
        Ok(rest) => Path::new("~").join(rest),
        Err(_) => dir.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::table;

    fn ctx(tmp: &Path) -> Ctx {
        Ctx {
            user_home: tmp.join("home"),
            cwd: tmp.join("proj"),
            env: Default::default(),
            cao: None,
        }
    }

    fn ids(agents: &[&Agent]) -> Vec<String> {
        agents.iter().map(|a| a.id.clone()).collect()
    }

    // ~/.agents/skills is read by Codex, Gemini CLI, OpenCode, Copilot,
    // Cursor and more: the dir names every agent that reads it.
    #[test]
    fn the_shared_user_dir_names_every_agent_that_reads_it() {
        let tmp = tempfile::tempdir().unwrap();
        let c = ctx(tmp.path());
        let agents = table::built_in();
        let dir = c.user_home.join(".agents/skills");
        let got = ids(&readers(&agents, &c, &dir, "codex"));
        for id in [
            "opencode",
            "gemini-cli",
            "github-copilot",
            "cursor",
            "cline",
            "roo",
            "goose",
            "kilo",
            "openclaw",
            "droid",
            "qwen-code",
            "zed",
            "windsurf",
        ] {
            assert!(got.iter().any(|g| g == id), "{id} missing from {got:?}");
        }
        assert!(!got.iter().any(|g| g == "codex"), "the giver is not named");
        assert!(!got.iter().any(|g| g == "claude-code" || g == "amp"));
        let line = also_read_by(&readers(&agents, &c, &dir, "codex"), &dir, &c.user_home).unwrap();
        assert!(
            line.starts_with("also read by OpenCode, Gemini CLI, GitHub Copilot, Cursor"),
            "{line}"
        );
        assert!(line.ends_with("(~/.agents/skills is theirs too)"), "{line}");
    }

    #[test]
    fn an_agents_own_dir_reaches_no_other_and_a_link_to_a_dir_is_that_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let c = ctx(tmp.path());
        let agents = table::built_in();
        let kiro = c.user_home.join(".kiro/skills");
        assert!(readers(&agents, &c, &kiro, "kiro-cli").is_empty());
        assert_eq!(also_read_by(&[], &kiro, &c.user_home), None);
        // ~/.claude/skills is Claude Code's and, by their docs, others'.
        let claude = c.user_home.join(".claude/skills");
        let got = ids(&readers(&agents, &c, &claude, "claude-code"));
        assert!(got.contains(&"amp".to_string()) && got.contains(&"opencode".to_string()));
        // A project dir that is a link to the shared user dir.
        let shared = c.user_home.join(".agents/skills");
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::create_dir_all(&c.cwd).unwrap();
        let linked = c.cwd.join("shared");
        std::os::unix::fs::symlink(&shared, &linked).unwrap();
        assert!(ids(&readers(&agents, &c, &linked, "x")).contains(&"zed".to_string()));
    }
}
