//! The snippet that registers `skilltui serve` in an agent's own MCP
//! configuration, in that agent's format:
//! - Claude Code (`.mcp.json`), Cursor (`.cursor/mcp.json`), Gemini CLI
//!   (`settings.json`): a JSON `mcpServers` object of `command` and `args`;
//! - Codex (`config.toml`): a TOML `[mcp_servers.NAME]` table (Codex
//!   0.169.0, observed: `codex mcp list --json` lists it);
//! - OpenCode (`opencode.json`): its `mcp` object, a `local` server whose
//!   `command` is one array.

use serde_json::json;

/// The agents `--print-config` knows.
pub const AGENTS: &[&str] = &["claude-code", "cursor", "gemini-cli", "codex", "opencode"];

/// The server as an agent should start it.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The name the server is registered under.
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
}

impl Launch {
    /// `skilltui serve` with the options it was given (and the home, when
    /// one was named), started as `command`.
    pub fn new(command: String, before: Vec<String>, profile: Option<&str>, trust: bool) -> Launch {
        let mut args = before;
        args.push("serve".into());
        if let Some(p) = profile {
            args.extend(["--profile".into(), p.to_string()]);
        }
        if trust {
            args.push("--trust".into());
        }
        let name = match profile {
            Some(p) => format!("skilltui-{}", safe_name(p)),
            None => "skilltui".into(),
        };
        Launch {
            name,
            command,
            args,
        }
    }
}

/// The command that serves `profile`'s skills, as a user types it in a
/// POSIX shell (the profile's name quoted when it needs it).
pub fn serve_command(profile: &str) -> String {
    format!("skilltui serve --profile {}", shell_word(profile))
}

/// `word` as one POSIX shell word: as is when it holds only characters no
/// shell treats specially, else in single quotes (a `'` as `'\''`).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:/@+=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// A server name every agent accepts as a key: letters, digits, `-`, `_`.
fn safe_name(profile: &str) -> String {
    profile
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => c,
            _ => '-',
        })
        .collect()
}

/// The snippet for `agent`, or an error naming the agents known.
pub fn snippet(agent: &str, launch: &Launch) -> Result<String, String> {
    let text = match agent {
        "claude-code" | "cursor" | "gemini-cli" => pretty(&json!({
            "mcpServers": { &launch.name: { "command": launch.command, "args": launch.args } }
        })),
        "opencode" => {
            let mut command = vec![launch.command.clone()];
            command.extend(launch.args.iter().cloned());
            pretty(&json!({
                "$schema": "https://opencode.ai/config.json",
                "mcp": { &launch.name: { "type": "local", "command": command, "enabled": true } }
            }))
        }
        "codex" => codex(launch),
        other => {
            return Err(format!(
                "no MCP configuration format is known for '{other}': use one of {}",
                AGENTS.join(", ")
            ));
        }
    };
    Ok(text)
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn codex(launch: &Launch) -> String {
    let mut table = toml::Table::new();
    table.insert("command".into(), launch.command.clone().into());
    let args: Vec<toml::Value> = launch.args.iter().cloned().map(Into::into).collect();
    table.insert("args".into(), args.into());
    let mut servers = toml::Table::new();
    servers.insert(launch.name.clone(), table.into());
    let mut root = toml::Table::new();
    root.insert("mcp_servers".into(), servers.into());
    toml::to_string(&root).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch() -> Launch {
        Launch::new("/bin/skilltui".into(), vec![], Some("dev team"), true)
    }

    #[test]
    fn codex_gets_a_toml_table_named_after_the_profile() {
        let text = snippet("codex", &launch()).unwrap();
        let parsed: toml::Table = toml::from_str(&text).unwrap();
        let server = &parsed["mcp_servers"]["skilltui-dev-team"];
        assert_eq!(server["command"].as_str(), Some("/bin/skilltui"));
        let args: Vec<&str> = server["args"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a.as_str())
            .collect();
        assert_eq!(args, ["serve", "--profile", "dev team", "--trust"]);
    }

    #[test]
    fn opencode_gets_one_command_array() {
        let text = snippet("opencode", &launch()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let server = &v["mcp"]["skilltui-dev-team"];
        assert_eq!(server["type"], "local");
        assert_eq!(server["command"][0], "/bin/skilltui");
        assert_eq!(server["command"][1], "serve");
    }

    #[test]
    fn an_unknown_agent_names_the_known_ones() {
        let e = snippet("vim", &launch()).unwrap_err();
        assert!(e.contains("claude-code, cursor"), "{e}");
    }

    #[test]
    fn the_serve_command_quotes_a_name_a_shell_would_split() {
        assert_eq!(serve_command("dev"), "skilltui serve --profile dev");
        assert_eq!(
            serve_command("dev team"),
            "skilltui serve --profile 'dev team'"
        );
        assert_eq!(serve_command("it's"), "skilltui serve --profile 'it'\\''s'");
        assert_eq!(serve_command("$(x)"), "skilltui serve --profile '$(x)'");
    }
}
