//! Where packages come from. A package index, a registry or a git host
//! given on a command line or in a requirements file decides what code
//! an install runs: a public registry or code forge is where packages
//! live; any other host is one the skill's author may run, so an install
//! from it runs whatever that host serves (`package-source`). The hosts
//! below are the public registries of each tool (their own docs name
//! them) and the public mirrors their users are told to use.

/// Public registries, code forges and well-known mirrors, by host (a
/// subdomain counts as its host).
const PUBLIC: &[&str] = &[
    // Code forges.
    "github.com",
    "githubusercontent.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "sr.ht",
    "googlesource.com",
    "huggingface.co",
    // Python: PyPI, and the extra indexes PyTorch, NVIDIA and PyG document.
    "pypi.org",
    "pypi.python.org",
    "pythonhosted.org",
    "download.pytorch.org",
    "pypi.nvidia.com",
    "pypi.ngc.nvidia.com",
    "data.pyg.org",
    "anaconda.org",
    // JavaScript, Rust, Ruby, Deno.
    "npmjs.org",
    "npmjs.com",
    "yarnpkg.com",
    "crates.io",
    "rubygems.org",
    "jsr.io",
    "deno.land",
    // Go's module hosts that are not forges (vanity paths of the Go
    // project and of widely used modules).
    "golang.org",
    "go.dev",
    "google.golang.org",
    "cloud.google.com",
    "gopkg.in",
    "k8s.io",
    "go.uber.org",
    "go.opentelemetry.io",
    "mvdan.cc",
    "honnef.co",
    "gotest.tools",
    // Mirrors of PyPI and npm run by universities and cloud vendors.
    "tsinghua.edu.cn",
    "ustc.edu.cn",
    "mirrors.aliyun.com",
    "mirrors.cloud.tencent.com",
    "npmmirror.com",
    "npm.taobao.org",
    // The user's own machine: a local index or registry.
    "localhost",
    "127.0.0.1",
];

/// The host of a URL or of a Go module path (`host/path@v`).
fn host(spec: &str) -> &str {
    let s = spec.trim_matches(['"', '\'']);
    let s = s.strip_prefix("git+").unwrap_or(s);
    let rest = s.split_once("://").map_or(s, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let h = authority.rsplit('@').next().unwrap_or(authority);
    h.split(':').next().unwrap_or(h)
}

/// A host that is not a public registry, forge or mirror, nor a
/// placeholder the reader fills in.
fn foreign(spec: &str) -> bool {
    let h = host(spec).to_ascii_lowercase();
    let placeholder = h.is_empty()
        || h.contains(['$', '<', '{', '*'])
        || !h.contains('.') && h != "localhost"
        || h.ends_with(".internal")
        || h.ends_with(".local")
        || h.ends_with(".corp");
    !placeholder
        && !PUBLIC
            .iter()
            .any(|p| h == *p || h.ends_with(&format!(".{p}")))
}

/// A URL whose host is not a public registry, forge or mirror.
pub fn foreign_host(url: &str) -> bool {
    foreign(url)
}

fn is_url(t: &str) -> bool {
    let t = t.strip_prefix("git+").unwrap_or(t);
    t.starts_with("https://") || t.starts_with("http://") || t.starts_with("ssh://")
}

/// The value of option `names` in `texts` (`--opt V` or `--opt=V`).
fn option<'a>(texts: &[&'a str], names: &[&str]) -> Option<&'a str> {
    texts.iter().enumerate().find_map(|(k, t)| {
        if names.contains(t) {
            texts.get(k + 1).copied()
        } else {
            names
                .iter()
                .find_map(|n| t.strip_prefix(n).and_then(|r| r.strip_prefix('=')))
        }
    })
}

/// A command that takes packages from a host the author may run: what it
/// does, for the finding's message.
pub fn foreign_source(name: &str, texts: &[&str]) -> Option<String> {
    let first = texts.first().copied().unwrap_or("");
    let sub = |a: &str, b: &str| texts.windows(2).any(|w| w[0] == a && w[1] == b);
    let found = match name {
        "pip" | "pip3" | "uv" | "pipx" | "poetry" => {
            let index = option(
                texts,
                &[
                    // `--find-links` names one page of wheels, not an index that
                    // answers for every package name.
                    "--index-url",
                    "-i",
                    "--extra-index-url",
                    "--index",
                    "--default-index",
                ],
            );
            let config = (sub("config", "set") || first == "config")
                .then(|| texts.iter().find(|t| is_url(t)).copied())
                .flatten();
            let package = texts
                .contains(&"install")
                .then(|| texts.iter().find(|t| is_url(t)).copied())
                .flatten();
            index.or(config).or(package)
        }
        "npm" | "pnpm" | "yarn" | "bun" => {
            let registry = option(texts, &["--registry"]);
            let config = (sub("config", "set") || first == "set")
                .then(|| texts.iter().find(|t| is_url(t)).copied())
                .flatten();
            let package = matches!(first, "install" | "i" | "add")
                .then(|| texts.iter().find(|t| is_url(t)).copied())
                .flatten();
            registry.or(config).or(package)
        }
        "cargo" if first == "install" => option(texts, &["--git", "--index", "--registry"]),
        "gem" => option(texts, &["--source", "--clear-sources"]),
        "go" if matches!(first, "run" | "install" | "get") => texts
            .iter()
            .skip(1)
            .find(|t| !t.starts_with(['-', '.', '/']) && t.contains('/') && t.contains('@'))
            .copied(),
        _ => None,
    }?;
    foreign(found).then(|| {
        format!(
            "takes packages from {}, not a public registry or code forge: they run what that host serves",
            host(found)
        )
    })
}

/// Lines of a requirements file, an `.npmrc`, a `pip.conf` or a
/// pre-commit config that name a package source on a foreign host: (line
/// from 1, message).
pub fn in_file(rel: &str, text: &str) -> Vec<(usize, String)> {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    let requirements =
        name.ends_with(".txt") && (name.contains("requirements") || name.contains("constraints"));
    let config = matches!(
        name.as_str(),
        ".npmrc"
            | "npmrc"
            | "pip.conf"
            | "pip.ini"
            | ".yarnrc"
            | ".yarnrc.yml"
            | "bunfig.toml"
            | "uv.toml"
    );
    let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
    let precommit = yaml && text.contains("repos:") && text.contains("hooks");
    if !requirements && !config && !precommit {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim().trim_start_matches("- ");
        let value = if requirements {
            ["--index-url", "--extra-index-url", "-i"]
                .iter()
                .find_map(|o| t.strip_prefix(o))
                .filter(|r| r.starts_with([' ', '=']))
                .map(|r| r.trim_start_matches([' ', '=']))
                .or_else(|| (t.starts_with("git+") || is_url(t)).then_some(t))
        } else if config {
            t.split_once(['=', ':'])
                .filter(|(k, _)| {
                    let k = k.trim().to_ascii_lowercase();
                    k.ends_with("registry")
                        || k.ends_with("index-url")
                        || k == "index"
                        || k == "url"
                })
                .map(|(_, v)| v.trim().trim_matches(['"', '\'']))
        } else {
            t.strip_prefix("repo:").map(str::trim)
        };
        let Some(v) = value.filter(|v| is_url(v) || v.starts_with("git+")) else {
            continue;
        };
        let v = v.split_whitespace().next().unwrap_or(v);
        if foreign(v) {
            out.push((
                k + 1,
                format!(
                    "names {} as a package source, not a public registry or code forge: installs run what that host serves",
                    host(v)
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_hosts_only() {
        let f = |n: &str, t: &[&str]| foreign_source(n, t).is_some();
        assert!(f(
            "pip",
            &[
                "install",
                "--extra-index-url",
                "https://pypi.fast.example/simple",
                "x"
            ]
        ));
        assert!(!f(
            "pip",
            &[
                "install",
                "--extra-index-url",
                "https://download.pytorch.org/whl/cu121",
                "torch"
            ]
        ));
        assert!(f(
            "npm",
            &["config", "set", "registry", "https://npm.mirror.example/"]
        ));
        assert!(!f(
            "npm",
            &["config", "set", "registry", "https://registry.npmjs.org/"]
        ));
        assert!(f("go", &["run", "gen.tools.example/cmd/gen@latest"]));
        assert!(!f("go", &["install", "golang.org/x/tools/gopls@latest"]));
        assert!(f("cargo", &["install", "--git", "https://git.x.example/a"]));
        assert!(!f("cargo", &["install", "--git", "https://github.com/a/b"]));
        assert!(!f("pip", &["install", "--index-url", "$INDEX_URL", "x"]));
    }

    #[test]
    fn files() {
        assert_eq!(
            in_file(
                "requirements.txt",
                "--index-url https://pypi.mirror.example/simple\nrequests==2\n"
            )
            .len(),
            1
        );
        assert!(
            in_file(
                "requirements.txt",
                "--extra-index-url https://download.pytorch.org/whl/cu121\ntorch\n"
            )
            .is_empty()
        );
        assert_eq!(
            in_file(
                ".pre-commit-config.yaml",
                "repos:\n  - repo: https://git.hooks.example/h\n    hooks: [{id: t}]\n"
            )
            .len(),
            1
        );
        assert!(
            in_file(
                ".pre-commit-config.yaml",
                "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    hooks: []\n"
            )
            .is_empty()
        );
    }
}
