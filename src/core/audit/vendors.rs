//! The vendor installers a skill may pipe to a shell: the official install
//! command of a tool, by host and path, each as its vendor's install page
//! gives it. Running one is still running downloaded code (high, not
//! critical): the table says whose code it is, not that it is safe.

/// (host, path prefix, where the vendor documents it). A `*` in the
/// prefix stands for one path segment.
pub const INSTALLERS: &[(&str, &str, &str)] = &[
    ("sh.rustup.rs", "", "rustup: https://rustup.rs"),
    (
        "astral.sh",
        "/uv/",
        "uv: https://docs.astral.sh/uv/getting-started/installation/",
    ),
    (
        "astral.sh",
        "/ruff/",
        "ruff: https://docs.astral.sh/ruff/installation/",
    ),
    (
        "raw.githubusercontent.com",
        "/Homebrew/install/",
        "Homebrew: https://brew.sh",
    ),
    (
        "raw.githubusercontent.com",
        "/nvm-sh/nvm/",
        "nvm: https://github.com/nvm-sh/nvm#install--update-script",
    ),
    (
        "bun.sh",
        "/install",
        "Bun: https://bun.sh/docs/installation",
    ),
    (
        "deno.land",
        "/install.sh",
        "Deno: https://docs.deno.com/runtime/getting_started/installation/",
    ),
    (
        "get.docker.com",
        "",
        "Docker: https://docs.docker.com/engine/install/ubuntu/#install-using-the-convenience-script",
    ),
    (
        "install.python-poetry.org",
        "",
        "Poetry: https://python-poetry.org/docs/#installing-with-the-official-installer",
    ),
    (
        "get.pnpm.io",
        "/install.sh",
        "pnpm: https://pnpm.io/installation",
    ),
    (
        "fnm.vercel.app",
        "/install",
        "fnm: https://github.com/Schniz/fnm#installation",
    ),
    (
        "ollama.com",
        "/install.sh",
        "Ollama: https://ollama.com/download/linux",
    ),
    (
        "claude.ai",
        "/install.sh",
        "Claude Code: https://docs.anthropic.com/en/docs/claude-code/setup",
    ),
    (
        "sdk.cloud.google.com",
        "",
        "Google Cloud SDK: https://cloud.google.com/sdk/docs/downloads-interactive",
    ),
    (
        "fluxcd.io",
        "/install.sh",
        "Flux: https://fluxcd.io/flux/installation/",
    ),
    (
        "run.linkerd.io",
        "/install",
        "Linkerd: https://linkerd.io/2/getting-started/",
    ),
    ("apt.llvm.org", "/llvm.sh", "LLVM: https://apt.llvm.org"),
    ("get.scoop.sh", "", "Scoop: https://scoop.sh"),
    (
        "dl.cloudsmith.io",
        "/public/*/*/setup.",
        "Cloudsmith's repository setup script (the same script for every repository it hosts): https://help.cloudsmith.io/docs/debian-repository",
    ),
    (
        "cli.github.com",
        "/packages/",
        "GitHub CLI: https://github.com/cli/cli/blob/trunk/docs/install_linux.md",
    ),
];

/// True when `url` is one of [`INSTALLERS`] (https only).
pub fn is_installer(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://") else {
        return false;
    };
    let (host, path) = rest.split_once('/').map_or((rest, "/"), |(h, p)| (h, p));
    let path = format!("/{}", path.split(['?', '#']).next().unwrap_or(""));
    INSTALLERS
        .iter()
        .any(|(h, p, _)| host == *h && has_prefix(&path, p))
}

/// `path` starts with `prefix`, each `*` of which matches one segment.
fn has_prefix(path: &str, prefix: &str) -> bool {
    let mut rest = path;
    let mut parts = prefix.split('*').peekable();
    while let Some(part) = parts.next() {
        let Some(after) = rest.strip_prefix(part) else {
            return false;
        };
        rest = after;
        if parts.peek().is_some() {
            let seg = rest.find('/').unwrap_or(rest.len());
            if seg == 0 {
                return false;
            }
            rest = &rest[seg..];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_installer;

    #[test]
    fn by_host_and_path() {
        assert!(is_installer("https://sh.rustup.rs"));
        assert!(is_installer("https://astral.sh/uv/install.sh"));
        assert!(is_installer(
            "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh"
        ));
        assert!(!is_installer(
            "https://raw.githubusercontent.com/someone/x/main/i.sh"
        ));
        assert!(!is_installer("http://sh.rustup.rs"));
        assert!(!is_installer("https://astral.sh.example.net/uv/install.sh"));
        assert!(is_installer(
            "https://dl.cloudsmith.io/public/mull-project/mull-stable/setup.deb.sh"
        ));
        assert!(!is_installer(
            "https://dl.cloudsmith.io/public/mull-project/payload.sh"
        ));
    }
}
