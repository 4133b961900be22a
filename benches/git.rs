//! `cargo bench --bench git`: `skilltui check` over 50 locked skills from 5
//! repositories whose branches moved (counting the git calls through a
//! logging git wrapper on PATH), `skilltui add --all` of a repository of
//! 100 skills, and `add --all` of a generated repository shaped like
//! anthropics/skills (about 10 MB) beside a plain `git clone --depth=1` of
//! it. Local bare repositories stand in for GitHub through git's
//! `url.<base>.insteadOf`; nothing touches the network. Prints medians;
//! asserts only the call counts, which do not depend on the machine.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "../tests/common/git_repos.rs"]
mod git_repos;

const RUNS: usize = 7;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args([
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@b",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

/// A bare repository `remotes/o/NAME` holding `count` skills under skills/.
fn make_repo(root: &Path, name: &str, count: usize) {
    let work = root.join("work").join(name);
    for i in 0..count {
        let dir = work.join(format!("skills/{name}-skill-{i}"));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}-skill-{i}\ndescription: Skill {i} of {name}, for benchmarks.\n---\n\n# Skill {i}\n\nSteps.\n"
            ),
        )
        .unwrap();
        fs::write(dir.join("reference.md"), "details\n".repeat(50)).unwrap();
    }
    git(&work, &["init", "-q"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "skills"]);
    let bare = root.join("remotes/o").join(name);
    fs::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "-q", "--bare"]);
    // The local upload-pack honours blob filters, as GitHub's does (in the
    // repository's config: git clears the environment's for it).
    git(&bare, &["config", "uploadpack.allowFilter", "true"]);
    git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);
}

/// A `git` on PATH that logs each call's arguments, then runs the real git.
fn wrapper(root: &Path) -> (PathBuf, PathBuf) {
    let real = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let bin = root.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let log = root.join("git-calls.log");
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
        log.display(),
        real.trim()
    );
    let path = bin.join("git");
    fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    (bin, log)
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for r in 0..5 {
        make_repo(root, &format!("team{r}"), 10);
    }
    make_repo(root, "big", 100);
    let (bin, log) = wrapper(root);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let remotes = format!("file://{}/remotes/", root.display());
    let skilltui = |home: &Path, args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.arg("--home")
            .arg(home)
            .args(args)
            .env("PATH", &path)
            .env("GIT_CONFIG_COUNT", "1")
            .env("GIT_CONFIG_KEY_0", format!("url.{remotes}.insteadOf"))
            .env("GIT_CONFIG_VALUE_0", "https://github.com/");
        c
    };
    let home = root.join("home");
    for r in 0..5 {
        let ok = skilltui(&home, &["add", &format!("o/team{r}"), "--all"])
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "add o/team{r}");
    }
    // Every branch moves, no skill changes: check must look at the trees.
    for r in 0..5 {
        let work = root.join("work").join(format!("team{r}"));
        fs::write(work.join("README.md"), "moved\n").unwrap();
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-q", "-m", "docs"]);
        let bare = root.join("remotes/o").join(format!("team{r}"));
        git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);
    }
    let _ = fs::remove_file(&log);
    let check = measure(|| skilltui(&home, &["check"]));
    let calls = fs::read_to_string(&log).unwrap_or_default();
    let count = |verb: &str| calls.lines().filter(|l| l.starts_with(verb)).count() / RUNS;
    let (ls_remote, fetch) = (count("ls-remote"), count("fetch"));
    println!(
        "check, 50 locked skills from 5 moved repos: {ls_remote} ls-remote and {fetch} blob-less fetches per run, median {check:?}"
    );
    assert_eq!(ls_remote, 5, "one ls-remote per (repo, ref)");
    assert_eq!(fetch, 5, "one trees fetch per (repo, ref), not per skill");
    let out = skilltui(&home, &["check"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("current").count(), 50, "{text}");
    anthropic_like(root, &skilltui);
    let mut n = 0;
    let add = measure(|| {
        n += 1;
        skilltui(
            &root.join(format!("home-big-{n}")),
            &["add", "o/big", "--all"],
        )
    });
    let installed = fs::read_dir(root.join("home-big-1/skills"))
        .unwrap()
        .count();
    println!("add --all of a repo of 100 skills: {installed} installed, median {add:?}");
}

/// `add --all` of the anthropics/skills look-alike beside a plain shallow
/// clone of it, the floor any installer from git stands on.
fn anthropic_like(root: &Path, skilltui: &dyn Fn(&Path, &[&str]) -> Command) {
    git_repos::repo(root, "skills", git_repos::anthropic_like);
    let url = format!("file://{}/remotes/o/skills", root.display());
    // Each add runs right beside a clone, so both see the machine as loaded
    // as it is then: the ratio is taken per pair.
    let mut answers = Vec::new();
    let pairs: Vec<(Duration, Duration)> = (1..=RUNS)
        .map(|n| {
            let mut add = skilltui(
                &root.join(format!("home-skills-{n}")),
                &["add", "o/skills", "--all"],
            );
            // The real git, as the clone runs it: the logging wrapper's
            // shell would cost skilltui a process per git call.
            add.env("PATH", std::env::var_os("PATH").unwrap_or_default());
            let mut clone = Command::new("git");
            clone
                .args(["clone", "-q", "--depth=1", &url])
                .arg(root.join(format!("clone-{n}")));
            let (answer, exit) = answer_and_exit(add);
            answers.push(answer.as_secs_f64());
            (exit, time(clone))
        })
        .collect();
    let installed = fs::read_dir(root.join("home-skills-1/skills"))
        .unwrap()
        .count();
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio = median(
        pairs
            .iter()
            .map(|(a, c)| a.as_secs_f64() / c.as_secs_f64())
            .collect(),
    );
    let adds = median(pairs.iter().map(|(a, _)| a.as_secs_f64()).collect());
    let clones = median(pairs.iter().map(|(_, c)| c.as_secs_f64()).collect());
    // The scratch checkout is removed on a thread once its skills are
    // installed: the answer is printed before the process waits for it.
    println!(
        "add --all of the look-alike: its answer on stdout after a median {:.0} ms, the process ends after {:.0} ms",
        median(answers) * 1000.0,
        adds * 1000.0
    );
    println!(
        "add --all of an anthropics/skills look-alike (18 skills, ~10 MB): {installed} installed, median {:.0} ms; git clone --depth=1 of it, run beside each add: median {:.0} ms; median ratio of the pairs {ratio:.1}x",
        adds * 1000.0,
        clones * 1000.0
    );
}

/// How long `cmd` takes to print its first byte on stdout (its answer is
/// one buffered write), and to end; it must succeed.
fn answer_and_exit(mut cmd: Command) -> (Duration, Duration) {
    use std::io::Read;
    let start = Instant::now();
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    let mut stdout = child.stdout.take().expect("piped");
    let _ = stdout.read(&mut [0u8; 1]);
    let answer = start.elapsed();
    let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    assert!(child.wait().expect("waits").success());
    (answer, start.elapsed())
}

/// How long `cmd` takes, which must succeed.
fn time(mut cmd: Command) -> Duration {
    let start = Instant::now();
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    start.elapsed()
}

fn measure(mut cmd: impl FnMut() -> Command) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| time(cmd())).collect();
    times.sort();
    times[RUNS / 2]
}
