//! `cargo bench --bench audit -- DIR...`: audits every skill folder (a
//! folder holding a SKILL.md) under each DIR, in process, and prints the
//! findings at or above `AUDIT_MIN` (default `medium`) of each skill that
//! has any, then the time of the whole pass (median of 15 runs, after one
//! warm-up that also fills the page cache). Asserts nothing: shared
//! machines are noisy.
//!
//! `cargo bench --bench audit -- --store N` instead generates a store of N
//! skills (as `cargo bench --bench tui` does) and times the TUI's audit of
//! it on its worker: the first pass (every folder audited) and a pass after
//! a reload with nothing changed (the folders' stamps only), each as wall
//! time and CPU time over all threads, medians of 5.
//!
//! `cargo bench --bench audit -- --generate N` writes N skills of the
//! shape real ones have (a SKILL.md with prose and bash and Python blocks,
//! a shell script, a Python script, a reference page; 10 to 40 KiB each)
//! into a temporary folder and audits them as `-- DIR` does.
//!
//! With `AUDIT_CISCO=/path/to/skill-scanner` set, each DIR is then also
//! scanned once by cisco-ai-skill-scanner, side by side.
//!
//! `cargo bench --bench audit -- --corpus DIR` audits the real skills of
//! the repositories benches/audit_corpus.toml lists, checked out under DIR:
//! one row a repository (skills by worst severity, time), cisco's beside
//! with `AUDIT_CISCO` (see benches/audit/corpus.rs).
//!
//! The figures in docs/performance.md: anthropics/skills checked out at
//! /tmp/anthropics-skills (`git archive HEAD | tar -x`), then
//! `cargo bench --bench audit -- /tmp/anthropics-skills/skills`; and
//! `cargo bench --bench audit -- --generate 1000`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skilltui::core::audit::{self, Severity};
use skilltui::core::cao::store::Home;
use skilltui::tui::app::App;
use skilltui::tui::theme::Theme;

mod common;
use common::{cpu_time, ms};
#[path = "audit/corpus.rs"]
mod corpus;

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
    if let Some(at) = args.iter().position(|a| a == "--corpus") {
        return corpus::run(args.get(at + 1).map(String::as_str));
    }
    let generated = tempfile::tempdir().expect("tempdir");
    let mut dirs: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if let Some(at) = args.iter().position(|a| a == "--generate") {
        let n = args
            .get(at + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1000);
        dirs.retain(|d| d.to_str() != args.get(at + 1).map(String::as_str));
        generate(generated.path(), n);
        dirs.push(generated.path().to_path_buf());
    }
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
        if shown.is_empty() {
            continue;
        }
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
    if let Ok(scanner) = std::env::var("AUDIT_CISCO") {
        for d in &dirs {
            cisco(&scanner, d);
        }
    }
}

/// cisco-ai-skill-scanner on the same folder, side by side: one run of
/// `skill-scanner scan-all DIR --format json` (its default analyzers, no
/// LLM), wall clock with its start-up, and the skills it flags high or
/// critical. `AUDIT_CISCO` is the path of its `skill-scanner`, installed
/// with pip in a venv of its own.
fn cisco(scanner: &str, dir: &Path) {
    let out = tempfile::NamedTempFile::new().expect("temp file");
    let t = Instant::now();
    let status = std::process::Command::new(scanner)
        .args(["scan-all", &dir.to_string_lossy(), "--format", "json", "-o"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status();
    let took = t.elapsed();
    let Ok(status) = status else {
        return println!("cisco-ai-skill-scanner: {scanner} did not start");
    };
    let report: serde_json::Value = std::fs::read(out.path())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let flagged = report["results"]
        .as_array()
        .map(|skills| {
            skills
                .iter()
                .filter(|s| matches!(s["max_severity"].as_str(), Some("HIGH" | "CRITICAL")))
                .count()
        })
        .unwrap_or_default();
    println!(
        "cisco-ai-skill-scanner on {}: {:.1} s ({status}); {flagged} skill(s) high or critical",
        dir.display(),
        took.as_secs_f64()
    );
}

/// `n` skills under `dir`, each a SKILL.md, two scripts and a reference,
/// in sizes that vary from skill to skill; nothing in them is hostile.
fn generate(dir: &Path, n: usize) {
    use std::fmt::Write;
    for i in 0..n {
        let name = format!("skill-{i:04}");
        let root = dir.join(&name);
        std::fs::create_dir_all(root.join("scripts")).expect("mkdir");
        std::fs::create_dir_all(root.join("references")).expect("mkdir");
        let mut md = format!(
            "---\nname: {name}\ndescription: Builds report {i} from the project's data. Use when asked for report {i}.\nallowed-tools: Read, Grep\n---\n\n# {name}\n\nSee [the guide](references/guide.md).\n"
        );
        for s in 0..(4 + i % 12) {
            let _ = write!(
                md,
                "\n## Step {s}\n\n{}\n\n```bash\npython3 scripts/tool.py --step {s} --out build/{name}-{s}.json\njq '.items | length' build/{name}-{s}.json\n```\n\n```python\nimport json\nwith open('build/{name}-{s}.json') as f:\n    data = json.load(f)\nprint(len(data['items']))\n```\n",
                "Read the inputs, check each field against the schema, and write the result where the next step expects it. "
                    .repeat(4 + (i + s) % 8)
            );
        }
        std::fs::write(root.join("SKILL.md"), md).expect("write");
        let mut sh = String::from(
            "#!/usr/bin/env bash\nset -euo pipefail\nout=\"${1:-build}\"\nmkdir -p \"$out\"\n",
        );
        for s in 0..(10 + i % 30) {
            let _ = writeln!(
                sh,
                "# step {s}: collect and count\nfind src -name '*.json' -newer \"$out/stamp-{s}\" 2>/dev/null | sort | head -n 100 > \"$out/list-{s}.txt\"\nwc -l < \"$out/list-{s}.txt\""
            );
        }
        std::fs::write(root.join("scripts/run.sh"), sh).expect("write");
        let mut py = String::from("#!/usr/bin/env python3\nimport argparse, json, pathlib\n\n");
        for s in 0..(10 + i % 25) {
            let _ = write!(
                py,
                "def step_{s}(path):\n    \"\"\"Counts the items of step {s}.\"\"\"\n    data = json.loads(pathlib.Path(path).read_text())\n    return sum(1 for item in data.get('items', []) if item.get('step') == {s})\n\n"
            );
        }
        std::fs::write(root.join("scripts/tool.py"), py).expect("write");
        let guide = "The report lists each item once, sorted by date. A missing field is an error to report, not to guess.\n\n".repeat(20 + i % 40);
        std::fs::write(
            root.join("references/guide.md"),
            format!("# Guide\n\n{guide}"),
        )
        .expect("write");
    }
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
