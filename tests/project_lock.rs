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

/// skilltui with `home` as its home, in `cwd`, everything else of the
/// machine (HOME, temp dir, git's remotes) under `root`.
fn skilltui(root: &Path, home: &Path, cwd: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.arg("--home")
        .arg(home)
        .args(args)
        .current_dir(cwd)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", root)
        .env("XDG_CONFIG_HOME", root.join(".config"))
        .env("TMPDIR", root.join("scratch"))
        .envs(git_repos::redirect_env(root));
    cmd
}

/// Runs [`skilltui`], its exit code and output as text.
fn run(root: &Path, home: &Path, cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = skilltui(root, home, cwd, args).output().expect("runs");
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
    let clone = clone_as_bob(&root, &project);
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

/// Every link under `dir` (not followed), with where it resolves.
fn links_under(dir: &Path) -> Vec<(PathBuf, PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let (p, t) = (e.path(), e.file_type().unwrap());
            if t.is_symlink() {
                let held = fs::read_link(&p).unwrap();
                out.push((p.clone(), held, p.canonicalize().ok()));
            } else if t.is_dir() && e.file_name() != ".git" {
                stack.push(p);
            }
        }
    }
    out
}

/// Each link under `project` is relative and resolves inside it.
fn assert_links_stay_in(project: &Path) -> usize {
    let links = links_under(project);
    for (link, held, resolved) in &links {
        assert!(
            held.is_relative(),
            "{} holds {}",
            link.display(),
            held.display()
        );
        let inside = resolved.as_ref().is_some_and(|r| r.starts_with(project));
        assert!(inside, "{} leads to {resolved:?}", link.display());
    }
    links.len()
}

#[test]
fn a_project_scope_skill_lives_in_the_project_and_a_teammate_gets_it_back() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("scratch")).unwrap();
    git_repos::repo(&root, "r", |w| {
        write_skill(&w.join("skills/alpha"), "alpha", "alpha body\n");
    });
    let project = root.join("alice/project");
    fs::create_dir_all(project.join(".claude")).unwrap();
    fs::write(project.join(".claude/settings.json"), "{}\n").unwrap();
    git_in(&project, &["init", "-q"]);
    let alice = root.join("alice/home");
    let (code, out, err) = run(&root, &alice, &project, &["add", "o/r", "--skill", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let enable = [
        "agent",
        "enable",
        "claude-code,codex",
        "alpha",
        "--scope",
        "project",
    ];
    let (code, out, err) = run(&root, &alice, &project, &enable);
    assert_eq!(code, 0, "{out}{err}");
    // One copy in the project, which Codex reads in place; Claude Code's
    // dir links to it, relatively.
    let copy = project.join(".agents/skills/alpha");
    assert!(!fs::symlink_metadata(&copy).unwrap().is_symlink());
    assert!(
        fs::read_to_string(copy.join("SKILL.md"))
            .unwrap()
            .contains("alpha body")
    );
    let link = project.join(".claude/skills/alpha");
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("../../.agents/skills/alpha")
    );
    assert!(!project.join(".codex").exists(), "no second copy for Codex");
    assert_eq!(assert_links_stay_in(&project), 1);
    let lock = fs::read_to_string(project.join("skilltui.lock")).expect("a project lock");
    assert!(
        lock.contains(r#"agents = ["claude-code:project", "codex:project"]"#),
        "{lock}"
    );
    git_repos::commit(&project, "the team's skills");

    // Bob clones it without the copy and the link (say the team ignores
    // them): `sync` on a fresh home makes both again, inside the project.
    let clone = clone_as_bob(&root, &project);
    assert!(
        clone.join(".claude/skills/alpha/SKILL.md").is_file(),
        "committed as is"
    );
    fs::remove_dir_all(clone.join(".agents")).unwrap();
    fs::remove_file(clone.join(".claude/skills/alpha")).unwrap();
    let bob = root.join("bob/home");
    let (code, out, err) = run(&root, &bob, &clone, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        clone.join(".claude/skills/alpha/SKILL.md").is_file(),
        "{out}{err}"
    );
    assert!(
        clone.join(".agents/skills/alpha/SKILL.md").is_file(),
        "{out}{err}"
    );
    assert_eq!(assert_links_stay_in(&clone), 1);

    // Alice takes it back: the folders skilltui made go once empty; her
    // `.claude` and its file stay, and a file she put in `.agents` too.
    fs::write(project.join(".agents/notes.md"), "mine\n").unwrap();
    for id in ["claude-code", "codex"] {
        let disable = ["agent", "disable", id, "alpha", "--scope", "project"];
        let (code, out, err) = run(&root, &alice, &project, &disable);
        assert_eq!(code, 0, "{out}{err}");
    }
    assert!(!project.join(".claude/skills").exists());
    assert!(!project.join(".agents/skills").exists());
    assert_eq!(
        fs::read_to_string(project.join(".agents/notes.md")).unwrap(),
        "mine\n"
    );
    assert!(project.join(".claude/settings.json").is_file());
    let lock = fs::read_to_string(project.join("skilltui.lock")).unwrap();
    assert!(!lock.contains(":project"), "{lock}");
}

#[test]
fn remove_in_a_project_drops_the_skill_from_the_projects_lock_too() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("scratch")).unwrap();
    git_repos::repo(&root, "r", |w| {
        write_skill(&w.join("skills/alpha"), "alpha", "alpha body\n");
        write_skill(&w.join("skills/beta"), "beta", "beta body\n");
    });
    let project = root.join("project");
    fs::create_dir_all(project.join("src")).unwrap();
    git_in(&project, &["init", "-q"]);
    let home = root.join("home");
    let add = [
        "add", "o/r", "--skill", "alpha", "--skill", "beta", "--scope", "project",
    ];
    let (code, out, err) = run(&root, &home, &project, &add);
    assert_eq!(code, 0, "{out}{err}");
    let project_lock = project.join("skilltui.lock");
    assert!(
        fs::read_to_string(&project_lock)
            .unwrap()
            .contains("[skills.alpha]")
    );

    let (code, out, err) = run(&root, &home, &project.join("src"), &["remove", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let lock = fs::read_to_string(&project_lock).unwrap();
    assert!(
        !lock.contains("alpha") && lock.contains("[skills.beta]"),
        "{lock}"
    );
    let home_lock = home.join("skilltui.lock");
    assert!(!fs::read_to_string(&home_lock).unwrap().contains("alpha"));
    let said: Vec<&str> = out.lines().filter(|l| l.starts_with("Dropped")).collect();
    assert_eq!(
        said,
        [format!(
            "Dropped 'alpha' from {} and {}: `sync` no longer installs it",
            home_lock.display(),
            project_lock.display()
        )],
        "{out}"
    );
}

/// Alice's project with `alpha` from `o/r` given to Claude Code and Codex
/// at project scope: the skills' working tree, the project, her home.
fn given_in_a_project(root: &Path, before: impl FnOnce(&Path)) -> (PathBuf, PathBuf, PathBuf) {
    fs::create_dir_all(root.join("scratch")).unwrap();
    let skills = git_repos::repo(root, "r", |w| {
        write_skill(&w.join("skills/alpha"), "alpha", "alpha body\n");
    });
    let project = root.join("project");
    fs::create_dir_all(&project).unwrap();
    git_in(&project, &["init", "-q"]);
    before(&project);
    let home = root.join("home");
    let (code, out, err) = run(root, &home, &project, &["add", "o/r", "--skill", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let enable = [
        "agent",
        "enable",
        "claude-code,codex",
        "alpha",
        "--scope",
        "project",
    ];
    let (code, out, err) = run(root, &home, &project, &enable);
    assert_eq!(code, 0, "{out}{err}");
    (skills, project, home)
}

fn upstream_edition(skills: &Path, body: &str) {
    write_skill(&skills.join("skills/alpha"), "alpha", body);
    git_repos::commit(skills, body);
    git_repos::push(skills);
}

#[test]
fn update_refreshes_the_projects_copy_but_never_an_edited_one() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (skills, project, home) = given_in_a_project(&root, |_| {});
    let skill_md = project.join(".agents/skills/alpha/SKILL.md");
    let read = || fs::read_to_string(&skill_md).unwrap();

    upstream_edition(&skills, "second edition\n");
    let (code, out, err) = run(&root, &home, &project, &["update", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("alpha: updated to"), "{out}");
    assert!(read().contains("second edition"), "the copy: {}", read());
    let link = project.join(".claude/skills/alpha/SKILL.md");
    assert!(fs::read_to_string(link).unwrap().contains("second edition"));

    // Her edit of the copy is kept, and said in one line.
    fs::write(&skill_md, format!("{}my note\n", read())).unwrap();
    upstream_edition(&skills, "third edition\n");
    let (code, out, err) = run(&root, &home, &project, &["update", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let said: Vec<&str> = err.lines().filter(|l| l.contains("was edited")).collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains("`skilltui sync`"), "{err}");
    assert!(read().contains("my note") && !read().contains("third"));

    // Moved aside, `sync` brings the copy to the store's locked revision.
    fs::rename(
        project.join(".agents/skills/alpha"),
        root.join("scratch/alpha"),
    )
    .unwrap();
    let (code, out, err) = run(&root, &home, &project, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(read().contains("third edition"), "{out}{err}");
    assert!(!err.contains("was edited"), "{err}");
    assert_eq!(assert_links_stay_in(&project), 1);

    // Replaced by an install (as the TUI's update does), it follows too.
    upstream_edition(&skills, "fourth edition\n");
    let add = ["add", "o/r", "--skill", "alpha", "--force"];
    let (code, out, err) = run(&root, &home, &project, &add);
    assert_eq!(code, 0, "{out}{err}");
    assert!(read().contains("fourth edition"), "{out}{err}");
}

#[test]
fn sync_in_the_project_brings_a_stale_copy_to_the_locked_revision() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (skills, project, home) = given_in_a_project(&root, |_| {});
    // A teammate re-pins the project's lock in the same folder; his
    // `sync` took the copy the project's lock gives as skilltui's, so his
    // `update` brings it along.
    let bob = root.join("bob");
    let (code, out, err) = run(&root, &bob, &project, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    upstream_edition(&skills, "second edition\n");
    let (code, out, err) = run(&root, &bob, &project, &["update", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let skill_md = project.join(".agents/skills/alpha/SKILL.md");
    assert!(fs::read_to_string(&skill_md).unwrap().contains("second"));
    // Alice's record still holds the first edition's hash: the copy is
    // the store's files once her `sync` brings her store to the lock,
    // not an edit of hers.
    let (code, out, err) = run(&root, &home, &project, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("edited"), "{err}");
    assert!(
        fs::read_to_string(&skill_md)
            .unwrap()
            .contains("second edition"),
        "{out}{err}"
    );
    assert_eq!(assert_links_stay_in(&project), 1);
}

#[test]
fn folders_sync_makes_again_go_with_disable_of_a_comma_list() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    // Her own skill was in `.claude/skills` then: that folder was hers.
    let (_, project, home) = given_in_a_project(&root, |p| {
        write_skill(&p.join(".claude/skills/mine"), "mine", "mine\n");
    });
    // She deletes the folder, link and all; `sync` makes both again, so
    // the folder is skilltui's now.
    fs::remove_dir_all(project.join(".claude/skills")).unwrap();
    let (code, out, err) = run(&root, &home, &project, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(project.join(".claude/skills/alpha/SKILL.md").is_file());
    let disable = [
        "agent",
        "disable",
        "claude-code,codex",
        "alpha",
        "--scope",
        "project",
    ];
    let (code, out, err) = run(&root, &home, &project, &disable);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!project.join(".agents").exists(), "{out}{err}");
    assert!(!project.join(".claude/skills").exists(), "{out}{err}");
    assert!(project.join(".claude").is_dir(), "it was there before");
}

/// A project (a repository at `root/project`) and a home whose store
/// holds `alpha`, added from a local folder, with `files` extra files.
fn local_skill_project(root: &Path, files: usize) -> (PathBuf, PathBuf) {
    fs::create_dir_all(root.join("scratch")).unwrap();
    let src = root.join("src/alpha");
    write_skill(&src, "alpha", "alpha body\n");
    for i in 0..files {
        fs::write(src.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    let home = root.join("home");
    let (code, out, err) = run(root, &home, root, &["add", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let project = root.join("project");
    fs::create_dir_all(&project).unwrap();
    git_in(&project, &["init", "-q"]);
    (project, home)
}

const ENABLE_CLAUDE: [&str; 6] = [
    "agent",
    "enable",
    "claude-code",
    "alpha",
    "--scope",
    "project",
];

// Before: a project's lock saying `claude-code:user` made a teammate's
// `sync` give the skill in their home, for every project.
#[test]
fn a_projects_lock_gives_only_in_the_project_never_in_the_home() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, project, _) = given_in_a_project(&root, |_| {});
    let path = project.join("skilltui.lock");
    let lock = fs::read_to_string(&path).unwrap().replace(
        r#"agents = ["claude-code:project", "codex:project"]"#,
        r#"agents = ["claude-code:project", "claude-code:user", "codex:user"]"#,
    );
    assert!(lock.contains("codex:user"), "{lock}");
    fs::write(&path, lock).unwrap();
    let bob = root.join("bob");
    let (code, out, err) = run(&root, &bob, &project, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    // HOME is `root`: nothing of the agents' user dirs is made there.
    for dir in [".claude", ".codex", ".agents"] {
        assert!(!root.join(dir).exists(), "{dir} made in the home: {err}");
    }
    let said: Vec<&str> = err.lines().filter(|l| l.contains("user scope")).collect();
    assert_eq!(said.len(), 1, "{err}");
    for part in ["claude-code", "codex", "`skilltui agent enable AGENT NAME`"] {
        assert!(said[0].contains(part), "{}", said[0]);
    }
    assert!(project.join(".claude/skills/alpha/SKILL.md").is_file());
}

// Before: `--scope project` from the home folder wrote the agents' user
// dirs (`~/.agents/skills`, `~/.claude/skills`).
#[test]
fn the_home_folder_is_never_taken_for_a_project() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, home) = local_skill_project(&root, 0);
    for dotfiles in [false, true] {
        if dotfiles {
            git_in(&root, &["init", "-q"]);
        }
        let (code, out, err) = run(&root, &home, &root, &ENABLE_CLAUDE);
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("home folder") && err.contains("inside the project"),
            "{err}"
        );
        assert!(!root.join(".agents").exists() && !root.join(".claude").exists());
    }
}

// Before: with `.claude -> .agents` the copy was written, the link then
// failed (os error 17) and the copy stayed, unrecorded.
#[test]
fn an_enable_that_cannot_finish_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = local_skill_project(&root, 0);
    fs::create_dir_all(project.join(".agents")).unwrap();
    std::os::unix::fs::symlink(".agents", project.join(".claude")).unwrap();
    let (code, out, err) = run(&root, &home, &project, &ENABLE_CLAUDE);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!project.join(".agents/skills").exists(), "{err}");
    assert!(
        fs::symlink_metadata(project.join(".claude"))
            .unwrap()
            .is_symlink()
    );
}

// Before: the relative link was computed from `.claude/skills` as written,
// but lives in `config/claude/skills`, and dangled.
#[test]
fn a_link_through_an_agent_dir_that_is_a_link_still_leads_to_the_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = local_skill_project(&root, 0);
    fs::create_dir_all(project.join("config/claude")).unwrap();
    std::os::unix::fs::symlink("config/claude", project.join(".claude")).unwrap();
    let (code, out, err) = run(&root, &home, &project, &ENABLE_CLAUDE);
    assert_eq!(code, 0, "{out}{err}");
    let link = project.join(".claude/skills/alpha");
    assert_eq!(
        link.canonicalize().ok(),
        project.join(".agents/skills/alpha").canonicalize().ok(),
        "{out}{err}"
    );
    assert_eq!(assert_links_stay_in(&project), 2, "the two links resolve");
}

/// Every entry under `dir` whose name starts as skilltui's staging does.
fn staging_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.file_name().to_string_lossy().starts_with(".skilltui..") {
                out.push(e.path());
            } else if e.file_type().is_ok_and(|t| t.is_dir() && !t.is_symlink()) {
                stack.push(e.path());
            }
        }
    }
    out
}

// Before: Ctrl-C during the copy left `.agents/skills/.skilltui..XXXXXX`,
// a half copy OpenCode loads, that nothing removed.
#[test]
fn ctrl_c_during_enable_leaves_no_half_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = local_skill_project(&root, 3000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(&home)
        .args(ENABLE_CLAUDE)
        .current_dir(&project)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", &root)
        .env("XDG_CONFIG_HOME", root.join(".config"))
        .env("TMPDIR", root.join("scratch"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Interrupted once the copy is being staged (or never, when it is
    // done before the staging folder is seen: then there is nothing to
    // check but the end state).
    let agents = project.join(".agents");
    let mut seen = false;
    while child.try_wait().unwrap().is_none() {
        if !staging_under(&agents).is_empty() {
            seen = true;
            let pid = child.id().to_string();
            Command::new("kill").args(["-INT", &pid]).status().unwrap();
            break;
        }
    }
    let status = child.wait().unwrap();
    assert_eq!(staging_under(&project), Vec::<PathBuf>::new());
    if seen && status.code() != Some(0) {
        assert!(!project.join(".agents/skills/alpha").exists());
        assert!(!project.join(".claude/skills").exists());
    }
    // Whatever was left is finished by enabling again, and taken back.
    let (code, out, err) = run(&root, &home, &project, &ENABLE_CLAUDE);
    assert_eq!(code, 0, "{out}{err}");
    let files = fs::read_dir(project.join(".agents/skills/alpha")).unwrap();
    assert_eq!(files.count(), 3001);
    let disable = ["agent", "disable", "claude-code", "alpha"];
    let (code, out, err) = run(&root, &home, &project, &disable);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!project.join(".agents").exists(), "{out}{err}");
}

/// A teammate's clone of `project`, at `ROOT/bob/project`.
fn clone_as_bob(root: &Path, project: &Path) -> PathBuf {
    let clone = root.join("bob/project");
    fs::create_dir_all(clone.parent().unwrap()).unwrap();
    git_in(
        root,
        &[
            "clone",
            "-q",
            project.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    clone
}

/// skilltui run with `args` in the background, its output dropped.
fn spawn_in(root: &Path, home: &Path, project: &Path, args: &[&str]) -> std::process::Child {
    skilltui(root, home, project, args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

// Before: while the copy was staged, `.agents/skills` swapped for a link
// to an outside folder received the finished copy (renamed by path,
// through the new link). A race: each round either refuses or places the
// copy in the project; never outside.
#[test]
fn a_folder_swapped_for_a_link_during_enable_is_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = local_skill_project(&root, 2000);
    let outside = root.join("outside");
    fs::create_dir_all(&outside).unwrap();
    let skills = project.join(".agents/skills");
    for round in 0..3 {
        let _ = fs::remove_dir_all(project.join(".agents"));
        let _ = fs::remove_dir_all(project.join(".claude"));
        let _ = fs::remove_file(home.join("skilltui-agents.json"));
        let mut child = spawn_in(&root, &home, &project, &ENABLE_CLAUDE);
        while child.try_wait().unwrap().is_none() {
            let real = fs::symlink_metadata(&skills).is_ok_and(|m| m.is_dir());
            if real && fs::rename(&skills, project.join(format!(".agents/moved{round}"))).is_ok() {
                std::os::unix::fs::symlink(&outside, &skills).unwrap();
                break;
            }
        }
        child.wait().unwrap();
        let written: Vec<_> = fs::read_dir(&outside).unwrap().flatten().collect();
        assert!(written.is_empty(), "round {round}: {written:?}");
    }
}

// Before: `disable` rewrote the record first; Ctrl-C while the copy was
// deleted left it (and the folders made for it) recorded nowhere, and the
// second `disable` said "skilltui has not given 'alpha'".
#[test]
fn an_interrupted_disable_is_finished_by_running_it_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = local_skill_project(&root, 3000);
    let (code, out, err) = run(&root, &home, &project, &ENABLE_CLAUDE);
    assert_eq!(code, 0, "{out}{err}");
    let disable = ["agent", "disable", "claude-code", "alpha"];
    let mut child = spawn_in(&root, &home, &project, &disable);
    // Interrupted once the link is gone, as the copy goes.
    let link = project.join(".claude/skills/alpha");
    while child.try_wait().unwrap().is_none() {
        if fs::symlink_metadata(&link).is_err() {
            let pid = child.id().to_string();
            Command::new("kill").args(["-INT", &pid]).status().unwrap();
            break;
        }
    }
    let first = child.wait().unwrap();
    let (_, out, err) = run(&root, &home, &project, &disable);
    for made in [".agents", ".claude"] {
        let left = snapshot(&project.join(made));
        assert!(
            !project.join(made).exists(),
            "{first:?} {out}{err}: {left:?}"
        );
    }
    let record = fs::read_to_string(home.join("skilltui-agents.json")).unwrap();
    assert!(!record.contains("alpha"), "{record}");
}

/// A staging folder as a killed run leaves it, an hour old, at `at`.
fn plant_leftover(at: &Path) {
    write_skill(&at.join("alpha"), "alpha", "half\n");
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let dir = fs::File::open(at).unwrap();
    dir.set_modified(hour_ago).unwrap();
}

// Before: only `enable` cleared what a killed run left in the project.
#[test]
fn every_command_in_the_project_clears_a_killed_runs_staging() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, project, home) = given_in_a_project(&root, |_| {});
    let leftovers = [
        project.join(".agents/.skilltui..Ab12Cd"),
        project.join(".agents/skills/.skilltui..Ef34Gh"),
    ];
    let commands: [&[&str]; 4] = [
        &["sync"],
        &["update", "alpha"],
        &["agent", "disable", "codex", "alpha"],
        &["remove", "alpha"],
    ];
    for args in commands {
        for at in &leftovers {
            plant_leftover(at);
        }
        let (code, out, err) = run(&root, &home, &project, args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert_eq!(staging_under(&project), Vec::<PathBuf>::new(), "{args:?}");
    }
}

// Before: `remove` run outside the project left the skill in the
// project's lock, and a teammate's `sync` brought it back.
#[test]
fn remove_anywhere_drops_the_skill_from_the_locks_of_the_projects_it_was_given_in() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, project, home) = given_in_a_project(&root, |_| {});
    let elsewhere = root.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let (code, out, err) = run(&root, &home, &elsewhere, &["remove", "alpha"]);
    assert_eq!(code, 0, "{out}{err}");
    let project_lock = project.join("skilltui.lock");
    let lock = fs::read_to_string(&project_lock).unwrap();
    assert!(!lock.contains("alpha"), "{lock}");
    let said = format!(
        "Dropped 'alpha' from {} and {}: `sync` no longer installs it",
        home.join("skilltui.lock").display(),
        project_lock.display()
    );
    assert!(out.lines().any(|l| l == said), "{out}");
    assert!(!project.join(".agents").exists() && !project.join(".claude").exists());
}

// Before: a teammate's `sync` warned that the committed Kiro copy
// "exists and skilltui did not make it", and their `disable` never took
// it (nor the link and the project's copy) back.
#[test]
fn a_teammates_sync_takes_the_committed_copies_skilltui_made_as_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, project, home) = given_in_a_project(&root, |_| {});
    let kiro = ["agent", "enable", "kiro-cli", "alpha", "--scope", "project"];
    let (code, out, err) = run(&root, &home, &project, &kiro);
    assert_eq!(code, 0, "{out}{err}");
    git_repos::commit(&project, "the team's skills");
    let clone = clone_as_bob(&root, &project);
    let bob = root.join("bob/home");
    let (code, out, err) = run(&root, &bob, &clone, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(git_in(&clone, &["status", "--porcelain"]), "");
    let disable = ["agent", "disable", "kiro-cli,claude-code,codex", "alpha"];
    let (code, out, err) = run(&root, &bob, &clone, &disable);
    assert_eq!(code, 0, "{out}{err}");
    // Its folders were there before this home gave anything: they stay.
    for made in [
        ".kiro/skills/alpha",
        ".claude/skills/alpha",
        ".agents/skills/alpha",
    ] {
        assert!(fs::symlink_metadata(clone.join(made)).is_err(), "{made}");
    }
}

// Before: a committed copy edited since (it differs from the locked
// revision) was kept, but `sync` said only "installed at".
#[test]
fn a_teammates_sync_says_the_committed_copy_differs_from_the_locked_revision() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, project, _) = given_in_a_project(&root, |_| {});
    let skill_md = project.join(".agents/skills/alpha/SKILL.md");
    let edited = format!(
        "{}a teammate's note\n",
        fs::read_to_string(&skill_md).unwrap()
    );
    fs::write(&skill_md, &edited).unwrap();
    git_repos::commit(&project, "the team's skills, edited");
    let clone = clone_as_bob(&root, &project);
    let bob = root.join("bob/home");
    for _ in 0..2 {
        let (code, out, err) = run(&root, &bob, &clone, &["sync"]);
        assert_eq!(code, 0, "{out}{err}");
        let said: Vec<&str> = err.lines().filter(|l| l.contains("differs")).collect();
        assert_eq!(said.len(), 1, "{err}");
        for part in [".agents/skills/alpha", "locked revision", "`skilltui sync`"] {
            assert!(said[0].contains(part), "{}", said[0]);
        }
        let copy = clone.join(".agents/skills/alpha/SKILL.md");
        assert_eq!(fs::read_to_string(copy).unwrap(), edited);
    }
}

// Before: the home's lock notes `claude-code:project` for a skill given in
// one project; `sync` in any other project gave it there too (a copy, a
// link and a new `skilltui.lock` in someone else's repository).
#[test]
fn sync_in_another_project_gives_nothing_there() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (_, _, home) = given_in_a_project(&root, |_| {});
    let other = root.join("other");
    fs::create_dir_all(&other).unwrap();
    git_in(&other, &["init", "-q"]);
    let (code, out, err) = run(&root, &home, &other, &["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    let made: Vec<_> = fs::read_dir(&other)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != ".git")
        .collect();
    assert!(made.is_empty(), "{made:?}");
}
