//! `cargo bench --bench audit -- --corpus DIR`: the audit on real skills.
//! DIR holds one folder per repository of benches/audit_corpus.toml,
//! named `OWNER+NAME`, checked out at the manifest's commit. Each
//! repository's skills are audited once (their findings at or above
//! `AUDIT_MIN`, default `high`, are printed), then timed over `RUNS`
//! passes; one row a repository gives its skills by worst severity and
//! the median time. With `AUDIT_CISCO` set, cisco-ai-skill-scanner scans
//! each repository too and gets a row of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skilltui::core::audit::{self, Severity};

const MANIFEST: &str = include_str!("../audit_corpus.toml");
const RUNS: usize = 3;

#[derive(serde::Deserialize)]
struct Manifest {
    repo: Vec<Repo>,
}

#[derive(serde::Deserialize)]
struct Repo {
    name: String,
    commit: String,
    skills: usize,
}

/// Skills of one repository by their worst severity.
#[derive(Default)]
struct Row {
    skills: usize,
    critical: usize,
    high: usize,
    medium: usize,
    millis: f64,
}

impl Row {
    fn count(&mut self, worst: Option<Severity>) {
        self.skills += 1;
        match worst {
            Some(Severity::Critical) => self.critical += 1,
            Some(Severity::High) => self.high += 1,
            Some(Severity::Medium) => self.medium += 1,
            _ => {}
        }
    }

    fn add(&mut self, other: &Row) {
        self.skills += other.skills;
        self.critical += other.critical;
        self.high += other.high;
        self.medium += other.medium;
        self.millis += other.millis;
    }

    fn print(&self, who: &str, repo: &str) {
        println!(
            "{who:<8} {repo:<44} {:>6} {:>8} {:>5} {:>6} {:>10.1}",
            self.skills, self.critical, self.high, self.medium, self.millis
        );
    }
}

pub fn run(dir: Option<&str>) {
    let manifest: Manifest = toml::from_str(MANIFEST).expect("benches/audit_corpus.toml parses");
    let Some(dir) = dir.map(Path::new).filter(|d| d.is_dir()) else {
        return println!(
            "audit bench: no corpus folder; check out each repository of benches/audit_corpus.toml at its commit into DIR/OWNER+NAME (git archive COMMIT | tar -x -C DIR/OWNER+NAME), then run with --corpus DIR"
        );
    };
    let min = std::env::var("AUDIT_MIN")
        .ok()
        .and_then(|s| Severity::parse(&s).ok())
        .unwrap_or(Severity::High);
    let mut rows = BTreeMap::new();
    for repo in &manifest.repo {
        let root = dir.join(repo.name.replace('/', "+"));
        if !root.is_dir() {
            println!(
                "{}: missing at {} (commit {})",
                repo.name,
                root.display(),
                repo.commit
            );
            continue;
        }
        let mut folders = Vec::new();
        super::skill_folders(&root, &mut folders);
        if folders.len() != repo.skills {
            println!(
                "{}: {} skills here, the manifest says {}: is it at commit {}?",
                repo.name,
                folders.len(),
                repo.skills,
                repo.commit
            );
        }
        rows.insert(repo.name.as_str(), audit_repo(&root, &folders, min));
    }
    println!(
        "\n{:<8} {:<44} {:>6} {:>8} {:>5} {:>6} {:>10}",
        "scanner", "repository", "skills", "critical", "high", "medium", "ms"
    );
    let mut total = Row::default();
    for (name, row) in &rows {
        row.print("skilltui", name);
        total.add(row);
    }
    total.print("skilltui", "all");
    if let Ok(scanner) = std::env::var("AUDIT_CISCO") {
        let mut total = Row::default();
        for name in rows.keys() {
            let row = cisco(&scanner, &dir.join(name.replace('/', "+")));
            row.print("cisco", name);
            total.add(&row);
        }
        total.print("cisco", "all");
    }
}

/// Counts and prints the findings of each skill once, then times
/// [`RUNS`] passes over them and keeps the median.
fn audit_repo(root: &Path, folders: &[PathBuf], min: Severity) -> Row {
    let mut row = Row::default();
    for f in folders {
        let r = audit::scan(f);
        row.count(r.worst());
        for x in r.at_least(min) {
            let skill = f.strip_prefix(root.parent().unwrap_or(root)).unwrap_or(f);
            println!("{}  {}  [{}]", skill.display(), x.summary(), x.excerpt);
        }
    }
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            for f in folders {
                std::hint::black_box(audit::scan(f));
            }
            t.elapsed()
        })
        .collect();
    times.sort();
    row.millis = times[RUNS / 2].as_secs_f64() * 1000.0;
    row
}

/// cisco-ai-skill-scanner on one repository: `skill-scanner scan-all DIR
/// --recursive --format json` (its default static analyzers, no LLM), one
/// run, wall time with its start-up; skills counted by `max_severity`.
fn cisco(scanner: &str, dir: &Path) -> Row {
    let out = tempfile::NamedTempFile::new().expect("temp file");
    let t = Instant::now();
    let status = std::process::Command::new(scanner)
        .arg("scan-all")
        .arg(dir)
        .args(["--recursive", "--format", "json", "-o"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let mut row = Row {
        millis: t.elapsed().as_secs_f64() * 1000.0,
        ..Row::default()
    };
    if status.is_err() {
        println!("cisco-ai-skill-scanner: {scanner} did not start");
        return row;
    }
    let report: serde_json::Value = std::fs::read(out.path())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    for skill in report["results"].as_array().into_iter().flatten() {
        row.count(match skill["max_severity"].as_str() {
            Some("CRITICAL") => Some(Severity::Critical),
            Some("HIGH") => Some(Severity::High),
            Some("MEDIUM") => Some(Severity::Medium),
            _ => None,
        });
    }
    row
}
