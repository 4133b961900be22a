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
/// GitLab host to `ROOT/remotes/`.
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
