//! Local git repositories for the tests: a work tree per repository whose
//! commits are pushed to a bare remote under `ROOT/remotes/o/NAME`, and the
//! `url.<base>.insteadOf` environment that sends `https://github.com/o/NAME`
//! (and a GitLab host) there, so no test touches the network. Each test binary uses a part.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `ROOT/work/NAME`, built by `build`, committed and pushed to the bare
/// `ROOT/remotes/o/NAME`.
pub fn repo(root: &Path, name: &str, build: impl FnOnce(&Path)) -> PathBuf {
    let work = root.join("work").join(name);
    fs::create_dir_all(&work).unwrap();
    git_in(&work, &["init", "-q"]);
    build(&work);
    commit(&work, "first");
    let bare = root.join("remotes/o").join(name);
    fs::create_dir_all(bare.parent().unwrap()).unwrap();
    git_in(root, &["init", "-q", "--bare", bare.to_str().unwrap()]);
    // In the repository's own config: git clears the environment's config
    // for a local upload-pack.
    git_in(&bare, &["config", "uploadpack.allowFilter", "true"]);
    git_in(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
    push(&work);
    work
}

pub fn commit(work: &Path, msg: &str) -> String {
    git_in(work, &["add", "-A"]);
    git_in(work, &["commit", "-q", "--allow-empty", "-m", msg]);
    git_in(work, &["rev-parse", "HEAD"])
}

pub fn push(work: &Path) {
    git_in(work, &["push", "-q", "--force", "--tags", "origin", "main"]);
}

/// git's own configuration, by environment, that sends GitHub and a
/// GitLab host to `ROOT/remotes/`, whose upload-pack honours partial-clone
/// filters as GitHub's does (set in each remote, see [`repo`]).
pub fn redirect_env(root: &Path) -> Vec<(String, String)> {
    let remotes = format!("file://{}/remotes/", root.display());
    [
        ("GIT_CONFIG_NOSYSTEM", "1".to_string()),
        ("GIT_CONFIG_COUNT", "2".to_string()),
        ("GIT_CONFIG_KEY_0", format!("url.{remotes}.insteadOf")),
        ("GIT_CONFIG_VALUE_0", "https://github.com/".to_string()),
        ("GIT_CONFIG_KEY_1", format!("url.{remotes}o/.insteadOf")),
        (
            "GIT_CONFIG_VALUE_1",
            "https://gitlab.example/group/".to_string(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Bytes that do not compress (a font, an image), from a seed.
pub fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The skills under `skills/` of the generated anthropics/skills look-alike.
pub const ANTHROPIC_LIKE: [&str; 17] = [
    "algorithmic-art",
    "brand-guidelines",
    "canvas-design",
    "doc-coauthoring",
    "docx",
    "frontend-design",
    "internal-comms",
    "mcp-builder",
    "pdf",
    "pptx",
    "skill-creator",
    "slack-gif-creator",
    "theme-factory",
    "web-artifacts-builder",
    "webapp-testing",
    "xlsx",
    "claude-api",
];

/// A repository shaped like github.com/anthropics/skills (as of 2026): 17
/// skills under `skills/`, a `template/` folder whose skill is named
/// `template-skill`, `canvas-design` holding about 5 MiB of binary fonts
/// (some over the 512 KiB lint), office skills with many schema files, and
/// about 10 MB in all.
pub fn anthropic_like(work: &Path) {
    let skill = |dir: &Path, name: &str| {
        fs::create_dir_all(dir).unwrap();
        let body = format!(
            "---\nname: {name}\ndescription: Use {name} when the task needs it. A generated stand-in.\nlicense: Complete terms in LICENSE.txt\n---\n\n# {name}\n\n{}",
            "Steps to follow, one per line.\n".repeat(40)
        );
        fs::write(dir.join("SKILL.md"), body).unwrap();
        fs::write(dir.join("LICENSE.txt"), "Licensed for tests.\n".repeat(60)).unwrap();
    };
    for (i, name) in ANTHROPIC_LIKE.iter().enumerate() {
        let dir = work.join("skills").join(name);
        skill(&dir, name);
        fs::create_dir_all(dir.join("scripts")).unwrap();
        fs::write(dir.join("scripts/run.py"), "print('x')\n".repeat(300)).unwrap();
        fs::write(dir.join("reference.md"), noise(40_000, i as u64)).unwrap();
    }
    let fonts = work.join("skills/canvas-design/canvas-fonts");
    fs::create_dir_all(&fonts).unwrap();
    for i in 0..18u64 {
        let len = if i < 2 { 600 * 1024 } else { 256 * 1024 };
        fs::write(
            fonts.join(format!("Font{i}-Regular.ttf")),
            noise(len, 100 + i),
        )
        .unwrap();
    }
    for office in ["docx", "pptx", "xlsx"] {
        let schemas = work.join("skills").join(office).join("ooxml/schemas");
        fs::create_dir_all(&schemas).unwrap();
        for i in 0..40u64 {
            let bytes = noise(24 * 1024, 1000 + i);
            fs::write(schemas.join(format!("schema-{i}.xsd")), bytes).unwrap();
        }
    }
    skill(&work.join("template"), "template-skill");
    fs::create_dir_all(work.join("spec")).unwrap();
    fs::write(work.join("spec/agent-skills-spec.md"), "# Spec\n").unwrap();
    fs::write(work.join("README.md"), "# Skills\n").unwrap();
}
