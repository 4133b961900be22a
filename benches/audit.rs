//! `cargo bench --bench audit -- DIR...`: audits every skill folder (a
//! folder holding a SKILL.md) under each DIR, in process, and prints each
//! skill's findings at or above `AUDIT_MIN` (default `medium`), then the
//! time of the whole pass (median of 15 runs, after one warm-up that also
//! fills the page cache). Asserts nothing: shared machines are noisy.
//!
//! The figure in the README: anthropics/skills checked out at
//! /tmp/anthropics-skills (`git archive HEAD | tar -x`), then
//! `cargo bench --bench audit -- /tmp/anthropics-skills/skills`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skilltui::core::audit::{self, Severity};

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
