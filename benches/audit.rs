//! `cargo bench --bench audit -- DIR...`: audits every skill folder (a
//! folder holding a SKILL.md) under each DIR, in process, and prints each
//! skill's findings at or above `AUDIT_MIN` (default `medium`), then the
//! time of the whole pass (median of 15 runs, after one warm-up that also
//! fills the page cache). Asserts nothing: shared machines are noisy.
//!
//! `cargo bench --bench audit -- --store N` instead generates a store of N
//! skills (as `cargo bench --bench tui` does) and times the TUI's audit of
//! it on its worker: the first pass (every folder audited) and a pass after
//! a reload with nothing changed (the folders' stamps only), each as wall
//! time and CPU time over all threads, medians of 5.
//!
//! The figure in docs/performance.md: anthropics/skills checked out at
//! /tmp/anthropics-skills (`git archive HEAD | tar -x`), then
//! `cargo bench --bench audit -- /tmp/anthropics-skills/skills`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skilltui::core::audit::{self, Severity};
use skilltui::core::cao::store::Home;
use skilltui::tui::app::App;
use skilltui::tui::theme::Theme;

mod common;
use common::{cpu_time, ms};

const RUNS: usize = 15;

fn skill_folders(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("SKILL.md").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    subs.sort();
    for s in subs {
        skill_folders(&s, out);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--store") {
        let n = args
            .get(at + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(10_000);
        return store(n);
    }
    let dirs: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if dirs.is_empty() {
        println!(
            "audit bench: give the folders of skills to audit (see the header of benches/audit.rs)"
        );
        return;
    }
    let min = std::env::var("AUDIT_MIN")
        .ok()
        .and_then(|s| Severity::parse(&s).ok())
        .unwrap_or(Severity::Medium);
    let mut folders = Vec::new();
    for d in &dirs {
        skill_folders(d, &mut folders);
    }
    let (mut files, mut bytes) = (0, 0);
    let mut worst_counts = std::collections::BTreeMap::new();
    for f in &folders {
        let r = audit::scan(f);
        files += r.files;
        bytes += r.bytes;
        *worst_counts
            .entry(audit::worst_label(r.worst()))
            .or_insert(0) += 1;
        let shown: Vec<_> = r.at_least(min).collect();
        println!(
            "{}: {} ({} findings)",
            f.display(),
            audit::worst_label(r.worst()),
            r.findings.len()
        );
        for x in shown {
            println!("  {}  [{}]", x.summary(), x.excerpt);
        }
    }
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            for f in &folders {
                std::hint::black_box(audit::scan(f));
            }
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "audited {} skills, {files} files, {:.1} MiB read; by worst severity {worst_counts:?}; median {:.1} ms, min {:.1} ms over {RUNS} runs",
        folders.len(),
        bytes as f64 / 1048576.0,
        times[RUNS / 2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0
    );
}

/// The TUI's audit of an N-skill store on its worker, cold then warm.
fn store(n: usize) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("home");
    let bytes = common::generate_n(&root, n);
    let home = || Home::at(root.clone(), tmp.path().to_path_buf());
    let timed = |f: &mut dyn FnMut()| {
        let (wall, cpu) = (Instant::now(), cpu_time());
        f();
        (wall.elapsed(), cpu_time() - cpu)
    };
    let mut cold = Vec::new();
    let mut warm = Vec::new();
    for _ in 0..5 {
        let mut app = App::agents_later(home(), Theme::dark());
        cold.push(timed(&mut || {
            app.start_audits();
            app.settle();
        }));
        warm.push(timed(&mut || {
            app.reload();
            app.settle();
        }));
    }
    let med = |v: &mut Vec<(Duration, Duration)>| {
        v.sort();
        let wall = v[v.len() / 2].0;
        let mut cpu: Vec<Duration> = v.iter().map(|t| t.1).collect();
        cpu.sort();
        (ms(wall), ms(cpu[cpu.len() / 2]))
    };
    let (cw, cc) = med(&mut cold);
    let (ww, wc) = med(&mut warm);
    println!(
        "{n} skills ({:.1} MiB): the TUI's audit on its worker: first pass median {cw:.0} ms ({cc:.0} ms of CPU); after a reload with nothing changed (reload included) median {ww:.0} ms ({wc:.0} ms of CPU)",
        bytes as f64 / 1048576.0
    );
}
