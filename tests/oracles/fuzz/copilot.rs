//! GitHub Copilot CLI (`copilot skill list --json`, offline, no login):
//! the skills it lists, in its order, must be the `ok` rows of
//! `list --agent github-copilot` (name, description, path, scope), and the
//! SKILL.md files it reports as failing to load must be skilltui's
//! `invalid` rows (as real files: Copilot reads a file reached twice once).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use super::{Env, Oracle, Outcome, exec, homes};

/// The dirs Copilot reads, and ones it does not (`~/.claude/skills`).
pub const DIRS: &[&str] = &[
    "C/.github/skills",
    "R/apps/.github/skills",
    "R/.github/skills",
    "C/.agents/skills",
    "R/.agents/skills",
    "C/.claude/skills",
    "R/.claude/skills",
    "~/.copilot/skills",
    "~/.agents/skills",
    "~/.claude/skills",
];

pub struct Copilot {
    pub version: &'static str,
    pub skills: usize,
    /// The package's unpacked cache, made once before the first case (each
    /// run otherwise unpacks 200 MB into the case's home).
    pub cache: OnceLock<Result<PathBuf, String>>,
}

impl Copilot {
    pub fn new(version: &'static str, skills: usize) -> Copilot {
        Copilot {
            version,
            skills,
            cache: OnceLock::new(),
        }
    }

    fn cache(&self, env: &Env) -> Result<PathBuf, String> {
        self.cache
            .get_or_init(|| {
                let cache = env.base.join("copilot-cache");
                let empty = env.base.join("copilot-warm-up");
                std::fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
                let mut cmd = std::process::Command::new(bin(env));
                cmd.env_clear()
                    .env("PATH", "/usr/local/bin:/usr/bin:/bin")
                    .env("HOME", &empty)
                    .env("XDG_CACHE_HOME", &cache)
                    .current_dir(&empty)
                    .args(["skill", "list", "--json"]);
                let out = exec::run(cmd)?;
                match out.status.success() {
                    true => Ok(cache),
                    false => Err(format!(
                        "copilot skill list: {}",
                        String::from_utf8_lossy(&out.stderr)
                    )),
                }
            })
            .clone()
    }
}

/// The platform's native `copilot` where npm installed it (a fifth less
/// CPU a case than through the package's node loader), else the loader.
fn bin(env: &Env) -> PathBuf {
    let bins = env.package.join("node_modules/.bin");
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    let native = bins.join(format!("copilot-{}-{arch}", std::env::consts::OS));
    match native.is_file() {
        true => native,
        false => bins.join("copilot"),
    }
}

impl Oracle for Copilot {
    fn name(&self) -> String {
        format!("copilot {}", self.version)
    }

    fn check(&self, env: &Env, seed: u64) -> Result<Outcome, String> {
        let cache = self.cache(env)?;
        let case = homes::generate(&env.base, seed, DIRS, self.skills);
        // COPILOT_HOME: a third of the cases move ~/.copilot elsewhere
        // (then ~/.agents/skills is not read), a third name it as itself.
        let moved = case.root.join("copilot-home");
        let default = case.home.join(".copilot");
        let copilot_home = match seed % 3 {
            0 => {
                if default.exists() {
                    std::fs::rename(&default, &moved).map_err(|e| e.to_string())?;
                }
                Some(moved)
            }
            1 => Some(default),
            _ => None,
        };
        let mut extra: Vec<(&str, &Path)> = Vec::new();
        if let Some(h) = &copilot_home {
            extra.push(("COPILOT_HOME", h.as_path()));
        }
        let mut with_cache = extra.clone();
        with_cache.push(("XDG_CACHE_HOME", cache.as_path()));
        let mut cmd = exec::command(&bin(env), &case, &with_cache);
        cmd.args(["skill", "list", "--json"]);
        let out = exec::run(cmd)?;
        if !out.status.success() {
            return Err(format!(
                "copilot skill list --json: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let theirs: Vec<Value> = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("copilot printed no JSON: {e}"))?;
        let failed = failed_paths(&String::from_utf8_lossy(&out.stderr), &case.cwd);
        let rows = exec::all_rows(&env.skilltui, &case, &extra, "github-copilot")?;
        Ok(Outcome {
            skills: case.skills,
            diffs: diffs(&theirs, &failed, &rows)
                .into_iter()
                .map(|d| format!("case {}: {d}", case.root.display()))
                .collect(),
        })
    }
}

/// One listed skill, as both sides can say it.
type Listed = (String, String, String, &'static str);

/// Copilot's list and failures against skilltui's rows: the list in order,
/// the failures as a set of SKILL.md paths.
pub fn diffs(theirs: &[Value], failed: &BTreeSet<String>, rows: &[Value]) -> Vec<String> {
    let str_of = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
    let listed: Vec<Listed> = theirs
        .iter()
        .map(|s| {
            let source = s["source"].as_str().unwrap_or_default();
            let path = match source {
                "builtin" => format!("<built-in>/{}", str_of(s, "name")),
                _ => str_of(s, "path"),
            };
            (
                str_of(s, "name"),
                str_of(s, "description"),
                path,
                scope_of(source),
            )
        })
        .collect();
    let ours: Vec<Listed> = rows
        .iter()
        .filter(|r| r["status"] == "ok")
        .map(|r| {
            let scope = match r["scope"].as_str().unwrap_or_default() {
                "project" => "project",
                "user" => "user",
                "builtin" => "builtin",
                _ => "other",
            };
            (
                str_of(r, "name"),
                str_of(r, "description"),
                str_of(r, "path"),
                scope,
            )
        })
        .collect();
    let mut out = Vec::new();
    if listed != ours {
        let show = |l: &[Listed]| {
            l.iter()
                .map(|(n, d, p, s)| format!("  {n} | {d:?} | {p} | {s}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        out.push(format!(
            "the list differs\n--- copilot\n{}\n--- skilltui\n{}",
            show(&listed),
            show(&ours)
        ));
    }
    // Copilot reads a SKILL.md reached twice through links once, and
    // reports it failing once: both sides are compared as real files.
    let real = |p: &str| {
        std::fs::canonicalize(p)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_else(|_| p.to_string())
    };
    let failed: BTreeSet<String> = failed.iter().map(|p| real(p)).collect();
    let invalid: BTreeSet<String> = rows
        .iter()
        .filter(|r| r["status"] == "invalid")
        .map(|r| real(&format!("{}/SKILL.md", str_of(r, "path"))))
        .collect();
    if invalid != failed {
        out.push(format!(
            "failing SKILL.md files differ: only copilot {:?}; only skilltui {:?}",
            failed.difference(&invalid).collect::<Vec<_>>(),
            invalid.difference(&failed).collect::<Vec<_>>()
        ));
    }
    out
}

/// Copilot's `source` as skilltui's scope: the cwd's dirs (`project`) and
/// its parents' (`inherited`) are project skills; `personal-*` are user.
fn scope_of(source: &str) -> &'static str {
    match source {
        "project" | "inherited" => "project",
        s if s.starts_with("personal") => "user",
        "builtin" => "builtin",
        _ => "other",
    }
}

/// The SKILL.md paths of Copilot's "failed to load" lines on stderr
/// (`  • PATH: why`, PATH relative to the cwd when below it).
pub fn failed_paths(stderr: &str, cwd: &Path) -> BTreeSet<String> {
    stderr
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("• "))
        .filter_map(|l| {
            l.split_once("/SKILL.md: ")
                .map(|(p, _)| format!("{p}/SKILL.md"))
        })
        .map(|p| match p.starts_with('/') {
            true => p,
            false => cwd.join(p).to_string_lossy().into_owned(),
        })
        .collect()
}
