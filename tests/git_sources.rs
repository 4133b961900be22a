//! Skills from git, end to end and offline: each test builds its repositories
//! (commits, tags, a bare remote) and sends `https://github.com/` (and a
//! GitLab host) to them with git's own `url.<base>.insteadOf`, set through
//! `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/git_repos.rs"]
mod git_repos;
use git_repos::git_in;
use skilltui::core::sources::git::SCRATCH_MARKER;

struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    /// Where git and skilltui make temporary folders: must end empty.
    scratch: PathBuf,
}

fn write_skill(dir: &Path, name: &str, body: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill\n---\n{body}"),
    )
    .unwrap();
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let scratch = root.join("scratch");
        fs::create_dir_all(&scratch).unwrap();
        fs::create_dir_all(root.join("remotes")).unwrap();
        Fixture {
            home: root.join("home"),
            root,
            scratch,
            _tmp: tmp,
        }
    }

    /// A work tree `work/NAME` whose commits are pushed to the bare
    /// `remotes/o/NAME`, which `https://github.com/o/NAME` reaches.
    fn repo(&self, name: &str, build: impl FnOnce(&Path)) -> PathBuf {
        git_repos::repo(&self.root, name, build)
    }

    fn commit(&self, work: &Path, msg: &str) -> String {
        git_repos::commit(work, msg)
    }

    fn push(&self, work: &Path) {
        git_repos::push(work)
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_with(args, &[])
    }

    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        cmd.arg("--home")
            .arg(&self.home)
            .args(args)
            .current_dir(&self.root)
            .env_remove("CAO_HOME_DIR")
            .env("HOME", &self.root)
            .env("TMPDIR", &self.scratch)
            .envs(git_repos::redirect_env(&self.root));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    }

    fn lock(&self) -> String {
        fs::read_to_string(self.home.join("skilltui.lock")).unwrap_or_default()
    }

    fn status(&self, names: &[&str]) -> BTreeMap<String, String> {
        let mut args = vec!["check", "--json"];
        args.extend(names);
        let rows: serde_json::Value = serde_json::from_str(&self.ok(&args)).unwrap();
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_string(),
                    r["status"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    /// Runs a command that must fail: one `error:` line, the home exactly
    /// as before, no staging folder left anywhere.
    fn refused(&self, args: &[&str], env: &[(&str, &str)], expect: &str) {
        let before = snapshot(&self.home);
        let (code, _, err) = self.run_with(args, env);
        assert_eq!(code, 1, "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line expected, got {err}");
        assert!(lines[0].starts_with("error: "), "{err}");
        assert!(lines[0].contains(expect), "{args:?}: {err}");
        assert_eq!(snapshot(&self.home), before, "{args:?} changed the home");
        assert_eq!(
            fs::read_dir(&self.scratch).unwrap().count(),
            0,
            "{args:?} left staging"
        );
    }
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

/// Extra environment for one run.
type Env<'a> = &'a [(&'a str, &'a str)];

fn two_skills(work: &Path) {
    write_skill(&work.join("skills/alpha"), "alpha", "alpha body\n");
    write_skill(&work.join(".claude/skills/beta"), "beta", "beta body\n");
    fs::write(work.join("README.md"), "a repo\n").unwrap();
}

#[test]
fn shorthand_add_lists_then_installs_and_pins() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    let head = git_in(&work, &["rev-parse", "HEAD"]);
    let (code, out, err) = f.run(&["add", "o/r"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("alpha") && out.contains("The beta skill"),
        "{out}"
    );
    assert!(out.contains("new") && out.contains("ok"), "{out}");
    // A header row names the columns, and each row lines up under it.
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[0].starts_with("Name ") && rows[0].contains("State"),
        "{out}"
    );
    let at = rows[0].find("Description").unwrap();
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.len() > at && r.as_bytes()[at - 1] == b' '),
        "{out}"
    );
    assert!(err.contains("--all"), "{err}");
    assert!(!f.home.join("skills").exists());
    let out = f.ok(&["add", "o/r", "--skill", "beta", "--skill", "beta"]);
    assert!(out.contains("Skill 'beta' installed successfully"), "{out}");
    assert!(!f.home.join("skills/alpha").exists());
    f.ok(&["add", "o/r", "--all"]);
    assert!(f.home.join("skills/alpha/SKILL.md").is_file());
    let lock = f.lock();
    assert!(
        lock.contains("[skills.alpha]") && lock.contains("path = \"skills/alpha\""),
        "{lock}"
    );
    assert!(lock.contains("path = \".claude/skills/beta\""), "{lock}");
    assert!(lock.contains(&format!("commit = \"{head}\"")), "{lock}");
    assert!(
        lock.contains("source = \"https://github.com/o/r\""),
        "{lock}"
    );
    assert_eq!(fs::read_dir(&f.scratch).unwrap().count(), 0);
}

#[test]
fn tree_urls_refs_and_plain_git_urls() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    git_in(&work, &["tag", "v1"]);
    let v1 = git_in(&work, &["rev-parse", "HEAD"]);
    fs::write(work.join("skills/alpha/extra.md"), "later\n").unwrap();
    f.commit(&work, "second");
    f.push(&work);
    f.ok(&["add", "https://github.com/o/r/tree/v1/skills/alpha"]);
    assert!(!f.home.join("skills/alpha/extra.md").exists());
    assert!(f.lock().contains(&format!("commit = \"{v1}\"")));
    assert!(f.lock().contains("ref = \"v1\""));
    f.ok(&[
        "add",
        "https://gitlab.example/group/r/-/tree/main/.claude/skills",
    ]);
    assert!(f.home.join("skills/beta").is_dir());
    let url = format!("file://{}/remotes/o/r@main", f.root.display());
    let out = f.ok(&["add", &url, "--skill", "alpha", "--force"]);
    assert!(out.contains("1 added"), "{out}");
    assert!(f.home.join("skills/alpha/extra.md").exists());
    assert_eq!(f.status(&["alpha"])["alpha"], "current");
}

#[test]
fn check_reports_each_state_with_one_ls_remote_per_repo_and_ref() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    let states = f.status(&[]);
    assert!(states.values().all(|s| s == "current"), "{states:?}");
    write_skill(&work.join("skills/alpha"), "alpha", "moved on\n");
    f.commit(&work, "second");
    f.push(&work);
    fs::write(f.home.join("skills/beta/notes.md"), "mine\n").unwrap();
    let states = f.status(&[]);
    assert_eq!(states["alpha"], "outdated");
    assert_eq!(states["beta"], "modified");
    fs::remove_dir_all(f.home.join("skills/alpha")).unwrap();
    assert_eq!(f.status(&["alpha"])["alpha"], "missing");
    let trace = f.root.join("trace");
    let (code, _, _) = f.run_with(&["check"], &[("GIT_TRACE", trace.to_str().unwrap())]);
    assert_eq!(code, 0);
    let calls = fs::read_to_string(&trace)
        .unwrap()
        .matches("ls-remote")
        .count();
    // git traces the built-in twice (the command line and the run).
    assert!(calls > 0 && calls <= 2, "{calls} ls-remote lines");
    let twice: serde_json::Value =
        serde_json::from_str(&f.ok(&["check", "--json", "beta", "beta"])).unwrap();
    assert_eq!(twice.as_array().unwrap().len(), 1, "{twice}");
    let (code, _, err) = f.run(&["check", "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("'nope' is not in"), "{err}");
}

#[test]
fn a_repository_that_is_one_skill_installs_without_its_git_folder() {
    let f = Fixture::new();
    f.repo("solo", |w| write_skill(w, "solo", "just me\n"));
    let out = f.ok(&["add", "o/solo"]);
    assert!(out.contains("Skill 'solo' installed"), "{out}");
    assert!(f.home.join("skills/solo/SKILL.md").is_file());
    assert!(!f.home.join("skills/solo/.git").exists());
    assert!(f.lock().contains("path = \"\""), "{}", f.lock());
    assert_eq!(f.status(&[])["solo"], "current");
}

#[test]
fn check_says_unknown_when_the_remote_cannot_be_asked_and_still_exits_0() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    let lock = f.home.join("skilltui.lock");
    let text = fs::read_to_string(&lock).unwrap();
    fs::write(
        &lock,
        text.replace("https://github.com/o/r", "http://127.0.0.1:9/o/r"),
    )
    .unwrap();
    let (code, out, err) = f.run(&["check"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("unknown").count(), 2, "{out}");
    assert!(err.contains("cannot reach http://127.0.0.1:9/o/r"), "{err}");
}

#[test]
fn update_refuses_local_edits_then_shows_the_diff_and_repins() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    write_skill(
        &work.join("skills/alpha"),
        "alpha",
        "alpha body\nnew line\n",
    );
    let tip = f.commit(&work, "second");
    f.push(&work);
    let edited = f.home.join("skills/beta/SKILL.md");
    fs::write(&edited, "---\nname: beta\ndescription: mine\n---\n").unwrap();
    let (code, out, err) = f.run(&["update"]);
    assert_eq!(code, 1);
    assert!(err.contains("'beta' was modified locally"), "{err}");
    assert!(fs::read_to_string(&edited).unwrap().contains("mine"));
    assert!(out.contains("alpha: updated to"), "{out}");
    assert!(
        out.contains("changed  SKILL.md") && out.contains("+ new line"),
        "{out}"
    );
    assert!(f.lock().contains(&format!("commit = \"{tip}\"")));
    let out = f.ok(&["update", "beta", "--force"]);
    assert!(out.contains("- description: mine"), "{out}");
    assert_eq!(
        f.status(&[]).values().filter(|s| *s == "current").count(),
        2
    );
    assert!(f.ok(&["update"]).contains("alpha: current"));
}

#[test]
fn sync_installs_the_pinned_commit_and_names_unlocked_skills() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    let team_lock = f.root.join("team.lock");
    fs::copy(f.home.join("skilltui.lock"), &team_lock).unwrap();
    write_skill(&work.join("skills/alpha"), "alpha", "tip only\n");
    f.commit(&work, "second");
    f.push(&work);
    let mate = Fixture {
        home: f.root.join("mate"),
        root: f.root.clone(),
        scratch: f.scratch.clone(),
        _tmp: tempfile::tempdir().unwrap(),
    };
    write_skill(&mate.home.join("skills/local-only"), "local-only", "x\n");
    let out = mate.ok(&["sync", "--lock", team_lock.to_str().unwrap()]);
    assert!(
        out.contains("local-only: installed here but not in the lock"),
        "{out}"
    );
    let body = fs::read_to_string(mate.home.join("skills/alpha/SKILL.md")).unwrap();
    assert!(
        body.contains("alpha body") && !body.contains("tip only"),
        "{body}"
    );
    assert_eq!(mate.status(&[])["alpha"], "outdated");
    assert!(mate.ok(&["sync"]).contains("alpha: current"));
    fs::write(mate.home.join("skills/beta/SKILL.md"), "edited").unwrap();
    let (code, _, err) = mate.run(&["sync", "--lock", team_lock.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("'beta' differs from the lock"), "{err}");
    assert_eq!(
        fs::read_to_string(mate.home.join("skills/beta/SKILL.md")).unwrap(),
        "edited"
    );
}

#[test]
fn bad_sources_are_refused_with_one_line_and_nothing_left() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.repo("empty", |w| {
        fs::write(w.join("README.md"), "no skills\n").unwrap()
    });
    f.repo("leaky", |w| {
        write_skill(&w.join("leaky"), "leaky", "x\n");
        std::os::unix::fs::symlink("/etc/hostname", w.join("leaky/host")).unwrap();
    });
    f.repo("broken", |w| {
        fs::create_dir_all(w.join("broken")).unwrap();
        fs::write(
            w.join("broken/SKILL.md"),
            "---\nname: broken\ndescription: 'x\n---\n",
        )
        .unwrap();
    });
    f.repo("loop", |w| {
        write_skill(&w.join("loop"), "loop", "x\n");
        fs::create_dir_all(w.join("loop/sub")).unwrap();
        std::os::unix::fs::symlink("..", w.join("loop/sub/up")).unwrap();
    });
    write_skill(&f.root.join("outside/s"), "s", "not in the repo\n");
    let outside = f.root.join("outside");
    f.repo("escape", |w| {
        std::os::unix::fs::symlink(&outside, w.join("out")).unwrap()
    });
    fs::create_dir_all(&f.home).unwrap();
    let no_git = f.root.join("no-git-here");
    fs::create_dir_all(&no_git).unwrap();
    let cases: &[(&[&str], Env, &str)] = &[
        (&["add", "http://127.0.0.1:9/o/r"], &[], "cannot reach"),
        (
            &["add", "o/missing"],
            &[],
            "no repository at https://github.com/o/missing",
        ),
        (&["add", "o/r@nope"], &[], "unknown ref 'nope'"),
        (
            &["add", "o/r", "--skill", "gamma"],
            &[],
            "no skill named 'gamma'",
        ),
        (&["add", "o/empty"], &[], "no skills in o/empty"),
        (&["add", "o/r/no/such/dir"], &[], "no folder 'no/such/dir'"),
        (&["add", "o/leaky"], &[], "points outside the skill folder"),
        (&["add", "o/escape/out"], &[], "no folder 'out'"),
        (
            &["add", "o/loop"],
            &[],
            "sub/up is a symlink to a folder that holds it",
        ),
        (&["add", "o/broken"], &[], "would not load in CAO"),
        (
            &["add", "o/r", "--all"],
            &[("PATH", no_git.to_str().unwrap())],
            "git is not installed",
        ),
    ];
    for (args, env, expect) in cases {
        f.refused(args, env, expect);
    }
}

#[test]
fn a_broken_lock_or_a_vanished_commit_is_one_clear_line() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    let team_lock = f.root.join("team.lock");
    fs::copy(f.home.join("skilltui.lock"), &team_lock).unwrap();
    // Rewrite history: the pinned commit is gone from the remote.
    git_in(&work, &["commit", "-q", "--amend", "-m", "rewritten"]);
    f.push(&work);
    let bare = f.root.join("remotes/o/r");
    git_in(&bare, &["reflog", "expire", "--expire=now", "--all"]);
    git_in(&bare, &["gc", "-q", "--prune=now"]);
    fs::remove_dir_all(f.home.join("skills/alpha")).unwrap();
    f.refused(&["sync", "--lock", team_lock.to_str().unwrap()], &[], "");
    let (_, _, err) = f.run(&["sync", "--lock", team_lock.to_str().unwrap()]);
    assert!(
        err.contains("is no longer in https://github.com/o/r"),
        "{err}"
    );
    let typo = f.root.join("team.lokc");
    f.refused(
        &["sync", "--lock", typo.to_str().unwrap()],
        &[],
        "no lock file at",
    );
    let lock = f.home.join("skilltui.lock");
    let text = fs::read_to_string(&lock).unwrap();
    fs::write(&lock, text.replace("commit = ", "commit == ")).unwrap();
    for args in [
        &["check"][..],
        &["update"],
        &["sync"],
        &["add", "o/r", "--all"],
    ] {
        f.refused(args, &[], "line 9");
    }
}

#[test]
fn a_local_folder_of_skills_installs_without_a_lock_entry() {
    let f = Fixture::new();
    let agents = f.root.join("agents/skills");
    write_skill(&agents.join("one"), "one", "1\n");
    write_skill(&agents.join("two"), "two", "2\n");
    f.ok(&["add", agents.to_str().unwrap(), "--all"]);
    assert!(f.home.join("skills/two/SKILL.md").is_file());
    assert!(!f.lock().contains("[skills."), "{}", f.lock());
    let out = f.ok(&["add", agents.to_str().unwrap(), "--skill", "one"]);
    assert!(out.contains("already installed as is"), "{out}");
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    assert!(f.lock().contains("[skills.alpha]"));
    write_skill(&agents.join("alpha"), "alpha", "my own\n");
    f.ok(&["add", agents.join("alpha").to_str().unwrap(), "--force"]);
    assert!(!f.lock().contains("[skills.alpha]"), "{}", f.lock());
}

#[test]
fn a_fetch_reports_progress_and_a_cancelled_one_leaves_nothing() {
    use skilltui::core::sources::git::{self, FetchSpec};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let f = Fixture::new();
    f.repo("r", two_skills);
    let url = format!("file://{}/remotes/o/r", f.root.display());
    let spec = FetchSpec {
        url: &url,
        reference: None,
        sub: "",
        max_blob: Some(1 << 20),
    };
    let mut seen = Vec::new();
    let checkout = git::fetch(&spec, &mut |p| seen.push(p), None).unwrap();
    assert!(checkout.root().join("skills/alpha/SKILL.md").is_file());
    assert!(seen.iter().any(|p| p.percent == 100), "{seen:?}");
    let staging = checkout.root();
    // Removed on a thread of its own; waited for as `main` does.
    drop(checkout);
    git::finish_removals();
    assert!(!staging.exists());
    let cancel = Arc::new(AtomicBool::new(true));
    let e = git::fetch(&spec, &mut |_| {}, Some(&cancel)).err().unwrap();
    assert!(e.contains("cancelled"), "{e}");
}

/// A scratch folder as skilltui leaves it when killed: its marker names it.
fn marked_scratch(scratch: &Path, name: &str) -> PathBuf {
    let dir = scratch.join(name);
    fs::create_dir_all(dir.join("r")).unwrap();
    fs::write(dir.join(SCRATCH_MARKER), name).unwrap();
    dir
}

#[test]
fn a_killed_fetch_leaves_its_staging_folder_to_the_next_one() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = gone.id();
    marked_scratch(&f.scratch, &format!("skilltui-git-{dead}-orphan"));
    let live = marked_scratch(
        &f.scratch,
        &format!("skilltui-git-{}-living", std::process::id()),
    );
    // A user's folders that share the shape but are not skilltui's own.
    let theirs = f.scratch.join(format!("skilltui-git-{dead}-theirs"));
    fs::create_dir_all(theirs.join("work")).unwrap();
    let copied = f.scratch.join(format!("skilltui-git-{dead}-copied"));
    fs::create_dir_all(&copied).unwrap();
    fs::write(copied.join(SCRATCH_MARKER), "another name").unwrap();
    let loose = f.scratch.join(format!("skilltui-git-{dead}-notes"));
    fs::create_dir_all(&loose).unwrap();
    fs::write(loose.join("todo.txt"), "mine").unwrap();
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    let mut left: Vec<_> = fs::read_dir(&f.scratch)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    left.sort();
    let mut kept = vec![live, theirs, copied, loose];
    kept.sort();
    assert_eq!(left, kept);
}

#[test]
fn an_annotated_tag_sharing_a_branch_name_checks_current() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    git_in(&work, &["tag", "-a", "x", "-m", "release x"]);
    let tagged = git_in(&work, &["rev-parse", "HEAD"]);
    write_skill(&work.join("skills/alpha"), "alpha", "on the branch\n");
    f.commit(&work, "second");
    git_in(&work, &["branch", "x"]);
    git_in(
        &work,
        &["push", "-q", "origin", "refs/heads/x", "refs/tags/x"],
    );
    f.ok(&["add", "o/r@x", "--skill", "alpha"]);
    // git fetch takes the tag, so the pin and ls-remote must agree on it.
    assert!(f.lock().contains(&format!("commit = \"{tagged}\"")));
    assert_eq!(f.status(&["alpha"])["alpha"], "current");
}

#[test]
fn an_update_killed_before_it_repinned_is_finished_by_the_next_one() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    write_skill(&work.join("skills/alpha"), "alpha", "alpha v2\n");
    let tip = f.commit(&work, "second");
    f.push(&work);
    // What a kill between the store's rename and the lock write leaves:
    // the new content installed, the lock still on the old pin.
    write_skill(&f.home.join("skills/alpha"), "alpha", "alpha v2\n");
    assert_eq!(f.status(&[])["alpha"], "modified");
    assert!(f.ok(&["update"]).contains("alpha: current"));
    assert!(f.lock().contains(&format!("commit = \"{tip}\"")));
    assert_eq!(f.status(&[])["alpha"], "current");
}

/// The look-alike of github.com/anthropics/skills, at `o/skills`.
fn anthropic_repo(f: &Fixture) -> PathBuf {
    f.repo("skills", git_repos::anthropic_like)
}

#[test]
fn add_all_of_an_anthropic_like_repository_installs_every_skill() {
    let f = Fixture::new();
    anthropic_repo(&f);
    let (code, out, err) = f.run(&["add", "o/skills", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    let skills = f.home.join("skills");
    for name in git_repos::ANTHROPIC_LIKE {
        assert!(
            skills.join(name).join("SKILL.md").is_file(),
            "{name}: {err}"
        );
    }
    // Named after its skill, not its folder.
    assert!(skills.join("template-skill/SKILL.md").is_file(), "{err}");
    assert!(!skills.join("template").exists());
    let fonts = skills.join("canvas-design/canvas-fonts");
    assert_eq!(fs::read_dir(fonts).unwrap().count(), 18);
    // The spec's size lints are warnings, as for a local folder.
    assert!(
        err.contains("canvas-design") && err.contains("512 KiB"),
        "{err}"
    );
    let lock = f.lock();
    assert!(
        lock.contains("[skills.template-skill]") && lock.contains("path = \"template\""),
        "{lock}"
    );
    assert_eq!(f.status(&[]).len(), 18);
    assert!(f.status(&[]).values().all(|s| s == "current"));
    // Updated and synced under its name too.
    let out = f.ok(&["update", "template-skill", "canvas-design"]);
    assert!(out.contains("template-skill: current"), "{out}");
    fs::remove_dir_all(skills.join("template-skill")).unwrap();
    f.ok(&["sync"]);
    assert!(skills.join("template-skill/SKILL.md").is_file());
    assert_eq!(fs::read_dir(&f.scratch).unwrap().count(), 0);
}

#[test]
fn add_all_skips_what_cannot_be_installed_one_line_each() {
    let f = Fixture::new();
    let work = anthropic_repo(&f);
    write_skill(&work.join("skills/bad"), "bad/name", "x\n");
    write_skill(&work.join("skills/twin-a"), "twin", "a\n");
    write_skill(&work.join("extra/twin-b"), "twin", "b\n");
    f.commit(&work, "hostile");
    f.push(&work);
    // The listing shows the verdict the install applies.
    let (code, out, _) = f.run(&["add", "o/skills"]);
    assert_eq!(code, 1);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {out}"))
            .to_string()
    };
    assert!(row("canvas-design").contains(" ok"), "{out}");
    assert!(row("template-skill").contains(" ok"), "{out}");
    assert!(!row("twin").contains(" ok"), "{out}");
    assert!(!row("bad/name").contains(" ok"), "{out}");
    let (code, _, err) = f.run(&["add", "o/skills", "--all"]);
    assert_eq!(code, 0, "{err}");
    let skipped: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
    assert_eq!(skipped.len(), 2, "{err}");
    assert!(skipped.iter().any(|l| l.contains("skills/bad")), "{err}");
    let twin = skipped.iter().find(|l| l.contains("twin")).unwrap();
    assert!(
        twin.contains("skills/twin-a") && twin.contains("extra/twin-b"),
        "{err}"
    );
    assert!(f.home.join("skills/canvas-design").is_dir());
    assert!(!f.home.join("skills/twin").exists());
    // A skill named on the command line that cannot be installed fails.
    let (code, _, err) = f.run(&["add", "o/skills", "--skill", "twin"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("skills/twin-a") && err.contains("extra/twin-b"),
        "{err}"
    );
}

#[test]
fn links_inside_a_skill_are_copied_as_links_and_hashed_as_written() {
    let f = Fixture::new();
    f.repo("links", |w| {
        let s = w.join("links");
        write_skill(&s, "links", "x\n");
        // Each level holds two links to the level below: followed, the
        // copy would write 2^10 copies of the file.
        fs::create_dir_all(s.join("l0")).unwrap();
        fs::write(s.join("l0/data.bin"), git_repos::noise(30_000, 7)).unwrap();
        for i in 1..=10 {
            let dir = s.join(format!("l{i}"));
            fs::create_dir_all(&dir).unwrap();
            for side in ["a", "b"] {
                std::os::unix::fs::symlink(format!("../l{}", i - 1), dir.join(side)).unwrap();
            }
        }
    });
    f.ok(&["add", "o/links"]);
    let dest = f.home.join("skills/links");
    let link = dest.join("l10/a");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("../l9"));
    let written: u64 = snapshot(&dest).values().map(|b| b.len() as u64).sum();
    assert!(written < 200_000, "{written} bytes written");
    assert_eq!(f.status(&[])["links"], "current");
}

#[test]
fn hard_limits_count_what_is_written_at_any_depth() {
    let f = Fixture::new();
    let deep = (0..17)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    f.repo("deep", |w| {
        let s = w.join("deep");
        write_skill(&s, "deep", "x\n");
        fs::create_dir_all(s.join(&deep)).unwrap();
        let big = fs::File::create(s.join(&deep).join("big.bin")).unwrap();
        big.set_len(33 * 1024 * 1024).unwrap();
    });
    let (code, out, err) = f.run(&["add", "o/deep"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!("{deep}/big.bin is over 32 MiB")) && err.contains("--allow-large"),
        "{err}"
    );
    assert!(!f.home.join("skills/deep").exists());
    let (code, _, err) = f.run(&["add", "o/deep", "--allow-large"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        f.home
            .join("skills/deep")
            .join(&deep)
            .join("big.bin")
            .is_file()
    );
    // Installed, it is still warned about.
    assert!(err.contains("big.bin is 33792 KiB"), "{err}");
}

#[test]
fn remove_drops_the_lock_entry_and_says_so() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    let out = f.ok(&["remove", "alpha"]);
    assert!(out.contains("Dropped 'alpha' from"), "{out}");
    assert!(!f.lock().contains("[skills.alpha]"), "{}", f.lock());
    assert!(f.lock().contains("[skills.beta]"));
    // The next sync does not bring it back.
    f.ok(&["sync"]);
    assert!(!f.home.join("skills/alpha").exists());
    // A skill that was never locked is removed without a word on the lock.
    fs::create_dir_all(f.root.join("local")).unwrap();
    write_skill(&f.root.join("local/gamma"), "gamma", "g\n");
    f.ok(&["add", "./local/gamma"]);
    let out = f.ok(&["remove", "gamma"]);
    assert!(!out.contains("Dropped"), "{out}");
}

#[test]
fn re_adding_a_changed_skill_without_force_lists_what_would_change() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    let out = f.ok(&["add", "o/r", "--skill", "alpha"]);
    assert!(out.contains("already installed as is"), "{out}");
    write_skill(&work.join("skills/alpha"), "alpha", "new body\n");
    fs::write(work.join("skills/alpha/extra.md"), "more\n").unwrap();
    f.commit(&work, "second");
    f.push(&work);
    let (code, out, err) = f.run(&["add", "o/r", "--skill", "alpha"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("Use --force"), "{err}");
    assert!(
        out.contains("1 added, 0 removed, 1 changed")
            && out.contains("added    extra.md")
            && out.contains("changed  SKILL.md"),
        "{out}"
    );
    // Not on a terminal: the files, not their lines.
    assert!(!out.contains("+ new body"), "{out}");
}

#[test]
fn an_unreachable_repository_is_one_error_not_one_per_skill() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    fs::rename(f.root.join("remotes/o/r"), f.root.join("gone")).unwrap();
    let (code, _, err) = f.run(&["update"]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("error: no repository at") && lines[0].contains("alpha, beta"),
        "{err}"
    );
    let (code, _, err) = f.run(&["check"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn validate_on_a_folder_of_skills_validates_each_one() {
    let f = Fixture::new();
    let dir = f.root.join("many");
    write_skill(&dir.join("one"), "one", "1\n");
    write_skill(&dir.join("two"), "not-two", "2\n");
    fs::create_dir_all(dir.join("notes")).unwrap();
    let (code, out, err) = f.run(&["validate", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("ok   ") && out.contains("many/one"), "{out}");
    assert!(out.contains("FAIL") && out.contains("many/two"), "{out}");
    assert!(!out.contains("notes"), "{out}");
    assert!(err.contains("1 of 2 folder(s)"), "{err}");
}

#[test]
fn outdated_is_per_skill_from_one_blobless_fetch_per_repository() {
    let f = Fixture::new();
    let work = f.repo("r", |w| {
        two_skills(w);
        write_skill(&w.join("skills/gamma"), "gamma", "gamma body\n");
    });
    f.ok(&["add", "o/r", "--all"]);
    assert!(f.lock().contains("tree = \""), "{}", f.lock());
    // A commit elsewhere in the repository leaves every skill current.
    fs::write(work.join("README.md"), "changed\n").unwrap();
    f.commit(&work, "docs");
    f.push(&work);
    assert!(
        f.status(&[]).values().all(|s| s == "current"),
        "{:?}",
        f.status(&[])
    );
    write_skill(&work.join("skills/alpha"), "alpha", "moved on\n");
    f.commit(&work, "alpha");
    f.push(&work);
    let states = f.status(&[]);
    assert_eq!(states["alpha"], "outdated");
    assert_eq!(
        (&states["beta"][..], &states["gamma"][..]),
        ("current", "current")
    );
    let trace = f.root.join("trace");
    f.run_with(&["check"], &[("GIT_TRACE", trace.to_str().unwrap())]);
    let trace = fs::read_to_string(&trace).unwrap();
    let fetches: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains("built-in: git fetch"))
        .collect();
    assert_eq!(fetches.len(), 1, "{trace}");
    assert!(fetches[0].contains("--filter=blob:none"), "{trace}");
}

#[test]
fn only_the_skill_folders_are_fetched_and_written() {
    let f = Fixture::new();
    f.repo("huge", |w| {
        write_skill(&w.join("skills/small"), "small", &"x".repeat(3000));
        let big = fs::File::create(w.join("dataset.bin")).unwrap();
        big.set_len(96 * 1024 * 1024).unwrap();
    });
    // Files over 32 or 64 MiB (the shell's blocks) cannot be written: a
    // checkout of the whole repository fails.
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -f 65536 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(&f.home)
        .args(["add", "o/huge"])
        .current_dir(&f.root)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", &f.root)
        .env("TMPDIR", &f.scratch)
        .envs(git_repos::redirect_env(&f.root));
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(f.home.join("skills/small/SKILL.md").is_file());
    assert_eq!(fs::read_dir(&f.scratch).unwrap().count(), 0);
}

#[test]
fn add_all_keeps_a_skill_installed_in_another_version_and_installs_the_rest() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    fs::create_dir_all(f.root.join("mine")).unwrap();
    write_skill(&f.root.join("mine/alpha"), "alpha", "my own alpha\n");
    f.ok(&["add", "./mine/alpha"]);
    let (code, _, err) = f.run(&["add", "o/r", "--all"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("skipped skills/alpha: 'alpha' is installed in another version"),
        "{err}"
    );
    assert!(f.home.join("skills/beta").is_dir());
    let mine = fs::read_to_string(f.home.join("skills/alpha/SKILL.md")).unwrap();
    assert!(mine.contains("my own alpha"));
    f.ok(&["add", "o/r", "--all", "--force"]);
    let theirs = fs::read_to_string(f.home.join("skills/alpha/SKILL.md")).unwrap();
    assert!(theirs.contains("alpha body"));
}

#[test]
fn a_file_over_the_limit_inside_a_skill_is_never_downloaded() {
    let f = Fixture::new();
    f.repo("r", |w| {
        two_skills(w);
        let big = w.join("skills/heavy");
        write_skill(&big, "heavy", "x\n");
        // Noise: a pack or a checkout holding it is over the file limit
        // set below, where compressed zeros would not be.
        fs::write(big.join("model.bin"), git_repos::noise(40 << 20, 3)).unwrap();
    });
    // No file over 16 or 32 MiB (the shell's blocks) can be written.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 32768 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(&f.home)
        .args(["add", "o/r", "--all"])
        .current_dir(&f.root)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", &f.root)
        .env("TMPDIR", &f.scratch)
        .envs(git_repos::redirect_env(&f.root))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("skills/heavy/model.bin is over 32 MiB and was not downloaded")
            && err.contains("--allow-large"),
        "{err}"
    );
    assert!(f.home.join("skills/alpha/SKILL.md").is_file());
    assert!(f.home.join("skills/beta/SKILL.md").is_file());
    assert!(!f.home.join("skills/heavy").exists());
    assert_eq!(fs::read_dir(&f.scratch).unwrap().count(), 0);
}

/// `skills/heavy`, holding a file over the 32 MiB limit.
fn heavy_skill(work: &Path) {
    let dir = work.join("skills/heavy");
    write_skill(&dir, "heavy", "v1\n");
    let big = fs::File::create(dir.join("weights.bin")).unwrap();
    big.set_len(33 * 1024 * 1024).unwrap();
}

#[test]
fn a_skill_added_with_allow_large_keeps_it_on_update_and_sync() {
    let f = Fixture::new();
    let work = f.repo("big", heavy_skill);
    f.ok(&["add", "o/big", "--allow-large"]);
    assert!(f.lock().contains("allow_large = true"), "{}", f.lock());
    write_skill(&work.join("skills/heavy"), "heavy", "v2\n");
    f.commit(&work, "second");
    f.push(&work);
    let out = f.ok(&["update"]);
    assert!(out.contains("heavy"), "{out}");
    let body = fs::read_to_string(f.home.join("skills/heavy/SKILL.md")).unwrap();
    assert!(body.ends_with("v2\n"), "{body}");
    assert!(f.lock().contains("allow_large = true"), "{}", f.lock());
    fs::remove_dir_all(f.home.join("skills/heavy")).unwrap();
    f.ok(&["sync"]);
    assert!(f.home.join("skills/heavy/weights.bin").is_file());
}

#[test]
fn update_and_sync_take_allow_large() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    assert!(!f.lock().contains("allow_large"), "{}", f.lock());
    let big = fs::File::create(work.join("skills/alpha/weights.bin")).unwrap();
    big.set_len(33 * 1024 * 1024).unwrap();
    f.commit(&work, "grown");
    f.push(&work);
    let (code, _, err) = f.run(&["update"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("over 32 MiB") && err.contains("--allow-large"),
        "{err}"
    );
    f.ok(&["update", "--allow-large"]);
    assert!(f.home.join("skills/alpha/weights.bin").is_file());
    assert!(f.lock().contains("allow_large = true"), "{}", f.lock());
    // A lock without the mark (an older one) syncs with the flag.
    let lock = f.lock().replace("allow_large = true\n", "");
    fs::write(f.home.join("skilltui.lock"), lock).unwrap();
    fs::remove_dir_all(f.home.join("skills/alpha")).unwrap();
    let (code, _, err) = f.run(&["sync"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--allow-large"), "{err}");
    f.ok(&["sync", "--allow-large"]);
    assert!(f.home.join("skills/alpha/weights.bin").is_file());
}

#[test]
fn a_team_lock_cannot_lift_the_size_limits() {
    let f = Fixture::new();
    f.repo("big", heavy_skill);
    f.ok(&["add", "o/big", "--allow-large"]);
    let team = f.root.join("team.lock");
    fs::write(&team, f.lock()).unwrap();
    assert!(f.lock().contains("allow_large = true"), "{}", f.lock());
    // A home that never chose it: the team's mark does not count.
    fs::remove_dir_all(f.home.join("skills/heavy")).unwrap();
    fs::remove_file(f.home.join("skilltui.lock")).unwrap();
    let (code, _, err) = f.run(&["sync", "--lock", team.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--allow-large"), "{err}");
    assert!(!f.home.join("skills/heavy").exists());
    f.ok(&["sync", "--lock", team.to_str().unwrap(), "--allow-large"]);
    assert!(f.home.join("skills/heavy/weights.bin").is_file());
}

#[test]
fn a_server_that_ignores_filters_is_fetched_from_once() {
    let f = Fixture::new();
    f.repo("plain", two_skills);
    let bare = f.root.join("remotes/o/plain");
    git_repos::git_in(&bare, &["config", "uploadpack.allowFilter", "false"]);
    let trace = f.root.join("trace");
    let (code, _, err) = f.run_with(
        &["add", "o/plain", "--all"],
        &[("GIT_TRACE", trace.to_str().unwrap())],
    );
    assert_eq!(code, 0, "{err}");
    assert!(f.home.join("skills/alpha/SKILL.md").is_file());
    // It sent every file with the trees: asking again would send the
    // skill folders twice.
    let trace = fs::read_to_string(&trace).unwrap();
    let fetches = trace
        .lines()
        .filter(|l| l.contains("built-in: git fetch"))
        .count();
    assert_eq!(fetches, 1, "{trace}");
}

#[test]
fn agents_given_a_locked_skill_are_in_the_lock_and_a_teammates_sync_gives_them_too() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    let xdg = f.root.join(".config").display().to_string();
    let env = [("XDG_CONFIG_HOME", xdg.as_str())];
    let (code, out, err) = f.run_with(
        &["add", "o/r", "--skill", "alpha", "--agent", "claude-code"],
        &env,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(f.root.join(".claude/skills/alpha/SKILL.md").is_file());
    assert!(
        f.lock().contains("agents = [\"claude-code:user\"]"),
        "{}",
        f.lock()
    );
    // A teammate: their own home and user dir, the committed lock.
    let team = f.root.join("team.lock");
    fs::write(&team, f.lock()).unwrap();
    let mate = f.root.join("mate");
    fs::create_dir_all(&mate).unwrap();
    let mate_xdg = mate.join(".config");
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--home")
        .arg(mate.join("home"))
        .args(["sync", "--lock", team.to_str().unwrap()])
        .current_dir(&mate)
        .env_remove("CAO_HOME_DIR")
        .env("HOME", &mate)
        .env("XDG_CONFIG_HOME", &mate_xdg)
        .env("TMPDIR", &f.scratch)
        .envs(git_repos::redirect_env(&f.root))
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let given = mate.join(".claude/skills/alpha");
    assert_eq!(
        fs::read_link(&given).unwrap(),
        mate.join("home/skills/alpha"),
        "{said}"
    );
    // Taken back here: the lock forgets it.
    let (code, out, err) = f.run_with(&["agent", "disable", "claude-code", "alpha"], &env);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!f.lock().contains("agents"), "{}", f.lock());
    assert!(fs::symlink_metadata(f.root.join(".claude/skills/alpha")).is_err());
}

#[test]
fn a_locks_agents_give_only_to_known_agents_and_never_over_a_users_folder() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    // A hostile or stale team lock: an unknown agent, an id that climbs,
    // a scope skilltui never gives at, and an agent whose dir already
    // holds a folder of that name the user made.
    let lock = f.lock().replace(
        "hash =",
        "agents = [\"../../x:user\", \"amp:admin\", \"claude-code:user\", \"nosuch:user\"]\nhash =",
    );
    let team = f.root.join("team.lock");
    fs::write(&team, lock).unwrap();
    let mine = f.root.join(".claude/skills/alpha");
    fs::create_dir_all(&mine).unwrap();
    fs::write(mine.join("notes.md"), "the user's own\n").unwrap();
    let xdg = f.root.join(".config").display().to_string();
    let (code, out, err) = f.run_with(
        &["sync", "--lock", team.to_str().unwrap()],
        &[("XDG_CONFIG_HOME", xdg.as_str())],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("skilltui did not make it"), "{err}");
    assert_eq!(
        fs::read_to_string(mine.join("notes.md")).unwrap(),
        "the user's own\n"
    );
    assert!(!f.root.join("x").exists() && !f.root.join("../x").exists());
    assert!(!f.root.join(".config/amp").exists());
}

// Issue 22 hole 14. Before: a team lock's junk agent labels were skipped
// without a word and copied into this home's lock.
#[test]
fn a_junk_agent_label_in_a_team_lock_is_named_and_not_copied() {
    let f = Fixture::new();
    f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--skill", "alpha"]);
    let lock = f.lock().replace(
        "hash =",
        "agents = [\"../../x:user\", \"amp:admin\", \"nosuch:user\"]\nhash =",
    );
    let team = f.root.join("team.lock");
    fs::write(&team, lock).unwrap();
    let xdg = f.root.join(".config").display().to_string();
    let (code, out, err) = f.run_with(
        &["sync", "--lock", team.to_str().unwrap()],
        &[("XDG_CONFIG_HOME", xdg.as_str())],
    );
    assert_eq!(code, 0, "{out}{err}");
    for label in ["../../x:user", "amp:admin"] {
        let line = err
            .lines()
            .find(|l| l.contains(&format!("agent label '{label}'")))
            .unwrap_or_else(|| panic!("{label} not named: {err}"));
        assert!(
            line.contains("skill 'alpha'") && line.contains("not copied"),
            "{line}"
        );
    }
    assert!(
        err.contains("agent label 'nosuch:user' names no agent"),
        "{err}"
    );
    let home_lock = f.lock();
    assert!(
        !home_lock.contains("../../x") && !home_lock.contains("amp:admin"),
        "{home_lock}"
    );
}

#[test]
fn a_skill_edited_here_and_moved_upstream_is_modified_and_outdated() {
    let f = Fixture::new();
    let work = f.repo("r", two_skills);
    f.ok(&["add", "o/r", "--all"]);
    let out = f.ok(&["check"]);
    // The default branch is named as such, not glued to the URL.
    assert!(
        out.contains("https://github.com/o/r (default branch)") && !out.contains("@default"),
        "{out}"
    );
    write_skill(&work.join("skills/alpha"), "alpha", "moved on\n");
    f.commit(&work, "second");
    f.push(&work);
    fs::write(f.home.join("skills/alpha/notes.md"), "mine\n").unwrap();
    fs::write(f.home.join("skills/beta/notes.md"), "mine\n").unwrap();
    let out = f.ok(&["check"]);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row: {out}"))
            .to_string()
    };
    assert!(row("alpha").contains("  modified, outdated  "), "{out}");
    assert!(row("beta").contains("  modified "), "{out}");
    assert!(!row("beta").contains("outdated"), "{out}");
    let rows: serde_json::Value = serde_json::from_str(&f.ok(&["check", "--json"])).unwrap();
    let alpha = &rows[0];
    assert_eq!(alpha["name"], "alpha");
    assert_eq!(alpha["status"], "modified", "the status stays one word");
    assert_eq!(alpha["upstream"], "moved");
    assert_eq!(rows[1]["upstream"], "same");
    assert_eq!(
        alpha["upstream_commit"].as_str().unwrap(),
        git_in(&work, &["rev-parse", "HEAD"])
    );
}

/// Reading a search result's SKILL.md before installing fetches the tree
/// and that one blob: the scratch clone holds no other blob (not the other
/// skill's, not the large file beside them).
#[test]
fn a_skills_skill_md_is_read_by_fetching_that_blob_alone() {
    use skilltui::core::sources::git::read_skill_md_into;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let work = git_repos::repo(root, "peek", |w| {
        write_skill(&w.join("skills/alpha"), "alpha", "Alpha's body");
        write_skill(&w.join("skills/beta"), "beta", "# Beta\n\nBeta's body");
        fs::write(w.join("skills/beta/big.bin"), git_repos::noise(1 << 20, 3)).unwrap();
        fs::write(w.join("README.md"), "readme").unwrap();
    });
    let url = format!("file://{}/remotes/o/peek", root.display());
    let clone = root.join("clone");
    let md = read_skill_md_into(&clone, &url, "beta", None).unwrap();
    assert_eq!(md.path, "skills/beta/SKILL.md");
    assert!(
        md.text.contains("Beta's body") && md.text.contains("name: beta"),
        "{}",
        md.text
    );
    let objects = git_in(
        &clone,
        &["cat-file", "--batch-all-objects", "--batch-check"],
    );
    let blobs: Vec<&str> = objects
        .lines()
        .filter(|l| l.split(' ').nth(1) == Some("blob"))
        .collect();
    let wanted = git_in(&work, &["rev-parse", "HEAD:skills/beta/SKILL.md"]);
    assert_eq!(blobs.len(), 1, "{objects}");
    assert!(blobs[0].starts_with(wanted.trim()), "{objects}");
    assert!(!clone.join("skills").exists(), "nothing is checked out");

    let err = read_skill_md_into(&root.join("c2"), &url, "zeta", None).unwrap_err();
    assert!(err.contains("no folder 'zeta' holding a SKILL.md"), "{err}");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let err = read_skill_md_into(&root.join("c3"), &url, "beta", Some(&stop)).unwrap_err();
    assert!(err.starts_with("cancelled"), "{err}");
}
