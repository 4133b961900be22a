//! The differential fuzzer: seeded homes and projects full of traps
//! (`homes`), run through a real agent and through skilltui, every
//! difference reported. One module per agent says how to ask it and how to
//! compare (`codex`, `opencode`, `gemini`, `copilot`); `exec` runs processes, bounded.
//!
//! Two drivers share it: tests/agent_oracles.rs runs a small fixed sample
//! in `cargo test`, and `cargo bench --bench agent_fuzz` runs thousands of
//! cases (docs/agents.md names the command and its last result).

pub mod codex;
pub mod copilot;
pub mod exec;
pub mod gemini;
pub mod homes;
pub mod opencode;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// What every agent check is given.
pub struct Env {
    /// The skilltui binary under test.
    pub skilltui: PathBuf,
    /// The agent's installed package folder (see `npm.rs`).
    pub package: PathBuf,
    /// Where cases are written; each case is `base/case-SEED`.
    pub base: PathBuf,
}

/// One case's result: how many SKILL.md files it held, and each
/// difference as a readable paragraph (empty when the agent agrees).
#[derive(Default)]
pub struct Outcome {
    pub skills: usize,
    pub diffs: Vec<String>,
}

/// A real agent asked about one generated case.
pub trait Oracle: Sync {
    /// `name version`, as the summary line prints it.
    fn name(&self) -> String;
    /// Generates case `seed` under `env.base`, asks the agent and skilltui,
    /// and compares. `Err` is a failure of the harness, not a difference.
    fn check(&self, env: &Env, seed: u64) -> Result<Outcome, String>;
}

/// The totals of a run.
#[derive(Default)]
pub struct Summary {
    pub cases: u64,
    pub skills: usize,
    /// Cases with at least one difference, with their seed.
    pub failed: Vec<(u64, Vec<String>)>,
    pub errors: Vec<(u64, String)>,
}

impl Summary {
    pub fn line(&self, oracle: &dyn Oracle, secs: f64) -> String {
        format!(
            "fuzz: {}: {} cases, {} skill files, {} cases differ, {} harness errors ({secs:.1}s)",
            oracle.name(),
            self.cases,
            self.skills,
            self.failed.len(),
            self.errors.len()
        )
    }

    /// The first `n` differing cases, in full, for a person to read.
    pub fn report(&self, n: usize) -> String {
        let mut out = String::new();
        for (seed, diffs) in self.failed.iter().take(n) {
            out.push_str(&format!("== seed {seed}\n{}\n", diffs.join("\n")));
        }
        for (seed, e) in self.errors.iter().take(n) {
            out.push_str(&format!("== seed {seed}: harness error: {e}\n"));
        }
        out
    }
}

/// Runs seeds `first..first + cases` on `jobs` threads. A case that
/// agrees is deleted unless `keep`; a differing case stays for reading.
pub fn campaign(
    oracle: &dyn Oracle,
    env: &Env,
    first: u64,
    cases: u64,
    jobs: usize,
    keep: bool,
) -> Summary {
    let next = AtomicU64::new(first);
    let summary = Mutex::new(Summary::default());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let seed = next.fetch_add(1, Ordering::SeqCst);
                    if seed >= first + cases {
                        break;
                    }
                    let result = oracle.check(env, seed);
                    let mut sum = summary.lock().unwrap_or_else(|e| e.into_inner());
                    sum.cases += 1;
                    match result {
                        Ok(o) => {
                            sum.skills += o.skills;
                            if o.diffs.is_empty() {
                                if !keep {
                                    let _ = std::fs::remove_dir_all(case_dir(&env.base, seed));
                                }
                            } else {
                                sum.failed.push((seed, o.diffs));
                            }
                        }
                        Err(e) => sum.errors.push((seed, e)),
                    }
                }
            });
        }
    });
    let mut sum = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    sum.failed.sort_by_key(|f| f.0);
    sum.errors.sort_by_key(|f| f.0);
    sum
}

/// The folder of case `seed`.
pub fn case_dir(base: &Path, seed: u64) -> PathBuf {
    base.join(format!("case-{seed}"))
}
