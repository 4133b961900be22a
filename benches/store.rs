//! `cargo bench --bench store`: whole-process timings of `skilltui list` and
//! `skilltui catalog P` and `skilltui list --agent amp` on a generated store of 1000 skills (3-30 sections
//! each, about 16 MiB), side by side with CAO 2.5.4 doing the same work in
//! the parity venv (`target/parity-venv`, made by `cargo test --test
//! cao_parity`). Prints medians and peak memory; asserts nothing, since
//! shared machines are noisy.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{SKILLS, generate};

const RUNS: usize = 15;

fn main() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("home");
    let bytes = generate(&home);
    println!(
        "store: {SKILLS} skills, {:.1} MiB, in {}",
        bytes as f64 / 1048576.0,
        home.display()
    );
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_skilltui"));
    let ours = |args: &[&str]| {
        let mut c = Command::new(&bin);
        c.arg("--home").arg(&home).args(args);
        c
    };
    let list = measure(|| ours(&["list"]));
    let catalog = measure(|| ours(&["catalog", "bench", "--provider", "claude_code"]));
    report("skilltui list", &list);
    report("skilltui catalog bench", &catalog);
    // The same 1000 skills as Amp's global dir (a link to the store), read
    // with the parser of Amp's skills design and first-name-wins rule, from an empty cwd.
    let user = tmp.path().join("user");
    std::fs::create_dir_all(user.join(".config/agents")).expect("user home");
    std::os::unix::fs::symlink(home.join("skills"), user.join(".config/agents/skills"))
        .expect("link");
    let agent = measure(|| {
        let mut c = ours(&["list", "--agent", "amp"]);
        c.env("HOME", &user).current_dir(&user);
        c
    });
    report("skilltui list --agent amp", &agent);
    match venv_python() {
        Some(py) => {
            let cao = |code: &str| {
                let mut c = Command::new(&py);
                c.args(["-c", code])
                    .env("CAO_HOME_DIR", &home)
                    .env("HOME", tmp.path());
                c
            };
            let cao_cli = measure(|| cao(CAO_CLI_LIST));
            report("CAO `cao skills list` (its CLI)", &cao_cli);
            let cao_list = measure(|| cao(CAO_LIST));
            let cao_catalog = measure(|| cao(CAO_CATALOG));
            report("CAO list_skills (python process)", &cao_list);
            report("CAO catalog for bench (python process)", &cao_catalog);
            println!(
                "speed-up: list {:.0}x against `cao skills list`, {:.0}x against list_skills(); catalog {:.0}x",
                cao_cli.median.as_secs_f64() / list.median.as_secs_f64(),
                cao_list.median.as_secs_f64() / list.median.as_secs_f64(),
                cao_catalog.median.as_secs_f64() / catalog.median.as_secs_f64()
            );
        }
        None => {
            println!("CAO: no venv at target/parity-venv; run `cargo test --test cao_parity` first")
        }
    }
}

const CAO_CLI_LIST: &str = "import sys\nsys.argv = ['cao', 'skills', 'list']\nfrom cli_agent_orchestrator.cli.main import cli\ncli()";
const CAO_LIST: &str =
    "from cli_agent_orchestrator.utils.skills import list_skills\nfor s in list_skills(): pass";
const CAO_CATALOG: &str = "from cli_agent_orchestrator.utils.agent_profiles import load_agent_profile\nfrom cli_agent_orchestrator.utils.skills import build_skill_catalog\nprint(build_skill_catalog(load_agent_profile('bench').skills)[:0], end='')";

struct Stats {
    median: Duration,
    min: Duration,
    peak_kib: i64,
}

fn measure(make: impl Fn() -> Command) -> Stats {
    let mut times = Vec::new();
    let mut peak = 0;
    for _ in 0..RUNS {
        let mut cmd = make();
        let start = Instant::now();
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child; rusage is a plain C struct.
        unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        times.push(start.elapsed());
        peak = peak.max(usage.ru_maxrss);
        let _ = child.try_wait();
    }
    times.sort();
    Stats {
        median: times[RUNS / 2],
        min: times[0],
        peak_kib: peak,
    }
}

fn report(what: &str, s: &Stats) {
    println!(
        "{what:40} median {:7.1} ms  min {:7.1} ms  peak RSS {:6.1} MiB",
        s.median.as_secs_f64() * 1000.0,
        s.min.as_secs_f64() * 1000.0,
        s.peak_kib as f64 / 1024.0
    );
}

fn venv_python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/parity-venv/bin/python");
    root.exists().then_some(root)
}
