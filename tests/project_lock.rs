//! A team's project, as a teammate meets it: the project's committed
//! `skilltui.lock` followed by `sync`, `check` and `update` from any folder
//! of the repository, on a home that does not exist yet, and
//! `update --dry-run` writing nothing. Git is redirected to local
//! repositories with `url.<base>.insteadOf`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/git_repos.rs"]
mod git_repos;
use git_repos::git_in;

fn write_skill(dir: &Path, name: &str, body: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill\n---\n{body}"),
    )
    .unwrap();
}

/// Runs skilltui with `home` as its home, in `cwd`, everything else of the
/// machine (HOME, temp dir, git's remotes) under `root`.
fn run(root: &Path, home: &Path, cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(home)
        .args(args)
        .current_dir(cwd)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", root)
        .env("XDG_CONFIG_HOME", root.join(".config"))
        .env("TMPDIR", root.join("scratch"))
        .envs(git_repos::redirect_env(root))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p.clone());
                out.insert(p, b"<dir>".to_vec());
            } else {
                out.insert(p.clone(), fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

#[test]
fn a_teammate_restores_the_projects_lock_from_a_subfolder_on_a_fresh_home() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("scratch")).unwrap();
    let skills = git_repos::repo(&root, "r", |w| {
        write_skill(&w.join("skills/alpha"), "alpha", "alpha body\n");
        write_skill(&w.join("skills/beta"), "beta", "beta body\n");
    });
    // Alice's project: `add --scope project` records into its lock.
    let project = root.join("alice/project");
    fs::create_dir_all(project.join("src")).unwrap();
    fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    git_in(&project, &["init", "-q"]);
    let alice = root.join("alice/home");
    let (code, out, err) = run(
        &root,
        &alice,
        &project.join("src"),
        &["add", "o/r", "--skill", "alpha", "--scope", "project"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let lock = fs::read_to_string(project.join("skilltui.lock")).expect("a project lock");
    assert!(
        lock.contains("[skills.alpha]") && !lock.contains("beta"),
        "{lock}"
    );
    git_repos::commit(&project, "the team's skills");

    // Bob clones it; his home does not exist yet.
    let clone = root.join("bob/project");
    fs::create_dir_all(clone.parent().unwrap()).unwrap();
    git_in(
        &root,
        &[
            "clone",
            "-q",
            project.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let bob = root.join("bob/home");
    let sub = clone.join("src");
    let (code, out, err) = run(&root, &bob, &sub, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    let shown = clone.join("skilltui.lock");
    assert!(
        out.lines()
            .any(|l| l == format!("Lock: {} (the project's)", shown.display())),
        "{out}"
    );
    assert!(err.contains("created the home"), "{err}");
    let body = fs::read_to_string(bob.join("skills/alpha/SKILL.md")).unwrap();
    assert!(body.contains("alpha body"), "{body}");
    assert!(!bob.join("skills/beta").exists());

    // The project's lock wins over the home's: from outside the project
    // the home's lock is the one followed.
    let (code, out, _) = run(&root, &bob, &sub, &["check"]);
    assert_eq!(code, 0);
    assert!(out.contains("(the project's)"), "{out}");
    let (code, out, _) = run(&root, &bob, &root, &["check"]);
    assert_eq!(code, 0);
    assert!(out.contains("(this home's)"), "{out}");

    // Upstream moves: `update --dry-run` shows the diff and writes nothing.
    write_skill(
        &skills.join("skills/alpha"),
        "alpha",
        "alpha body, second edition\n",
    );
    git_repos::commit(&skills, "second");
    git_repos::push(&skills);
    let home_before = snapshot(&bob);
    let lock_before = fs::read(&shown).unwrap();
    let (code, out, err) = run(&root, &bob, &sub, &["update", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("alpha: would update to"), "{out}");
    assert!(out.contains("second edition"), "the diff: {out}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(snapshot(&bob), home_before, "--dry-run changed the home");
    assert_eq!(
        fs::read(&shown).unwrap(),
        lock_before,
        "--dry-run changed the lock"
    );
    // Without it, the project's lock is re-pinned.
    let (code, out, err) = run(&root, &bob, &sub, &["update"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("alpha: updated to"), "{out}");
    assert_ne!(fs::read(&shown).unwrap(), lock_before);
    // A mistyped locked name is pointed at the lock's name.
    let (code, _, err) = run(&root, &bob, &sub, &["update", "apha"]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean alpha?"), "{err}");
}

#[test]
fn a_lock_outside_any_repository_is_only_taken_from_the_working_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("scratch")).unwrap();
    fs::create_dir_all(root.join("a/b")).unwrap();
    // A stray lock above a folder that is in no repository is not a project's.
    fs::write(root.join("a/skilltui.lock"), "version = 1\n").unwrap();
    let home = root.join("home");
    let (code, out, err) = run(&root, &home, &root.join("a/b"), &["check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(this home's)"), "{out}");
    let (_, out, _) = run(&root, &home, &root.join("a"), &["check"]);
    assert!(out.contains("(the project's)"), "{out}");
}
