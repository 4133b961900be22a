//! The differential fuzzer, at scale: seeded homes and projects full of
//! traps, run through the real agents and through skilltui, every
//! difference printed (tests/oracles/fuzz/).
//!
//! `cargo bench --bench agent_fuzz -- [--agent codex|opencode|gemini-cli|copilot|all]
//! [--cases N] [--seed S] [--jobs J] [--skills K] [--keep] [--show N]`
//!
//! Defaults: all agents, 200 cases each from seed 1, 2 jobs, 18 skill
//! folders a case, the first 5 differing cases shown. Cases that agree
//! are deleted; differing ones stay under the printed folder. Exits 1 when
//! any case differs. Needs npm (the agents are installed pinned, once).

#[path = "../tests/oracles/fuzz/mod.rs"]
mod fuzz;
#[path = "../tests/oracles/npm.rs"]
mod npm;

use std::path::PathBuf;
use std::time::Instant;

use fuzz::{Env, Oracle};

struct Args {
    agents: Vec<String>,
    cases: u64,
    seed: u64,
    jobs: usize,
    skills: usize,
    keep: bool,
    show: usize,
}

fn args() -> Args {
    let mut a = Args {
        agents: vec![
            "codex".into(),
            "opencode".into(),
            "gemini-cli".into(),
            "copilot".into(),
        ],
        cases: 200,
        seed: 1,
        jobs: 2,
        skills: 18,
        keep: false,
        show: 5,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let value = argv.get(i + 1).cloned().unwrap_or_default();
        let number = || value.parse::<u64>().unwrap_or_else(|_| usage(&argv[i]));
        match argv[i].as_str() {
            "--agent" if value != "all" => a.agents = value.split(',').map(String::from).collect(),
            "--agent" => {}
            "--cases" => a.cases = number(),
            "--seed" => a.seed = number(),
            "--jobs" => a.jobs = number() as usize,
            "--skills" => a.skills = number() as usize,
            "--show" => a.show = number() as usize,
            "--keep" => {
                a.keep = true;
                i += 1;
                continue;
            }
            // `cargo bench` passes --bench to every bench binary.
            "--bench" => {
                i += 1;
                continue;
            }
            other => usage(other),
        }
        i += 2;
    }
    a
}

fn usage(at: &str) -> ! {
    eprintln!(
        "agent_fuzz: unexpected `{at}`; usage: cargo bench --bench agent_fuzz -- \
         [--agent codex|opencode|gemini-cli|copilot|all] [--cases N] [--seed S] [--jobs J] \
         [--skills K] [--keep] [--show N]"
    );
    std::process::exit(2)
}

/// An npm package: name and pinned version.
type Package = (&'static str, &'static str);

fn oracle(id: &str, skills: usize) -> Option<(Package, Box<dyn Oracle>)> {
    Some(match id {
        "codex" => (
            npm::CODEX,
            Box::new(fuzz::codex::Codex {
                version: npm::CODEX.1,
                skills,
            }),
        ),
        "opencode" => (
            npm::OPENCODE,
            Box::new(fuzz::opencode::OpenCode {
                version: npm::OPENCODE.1,
                skills,
            }),
        ),
        "copilot" => (
            npm::COPILOT,
            Box::new(fuzz::copilot::Copilot::new(npm::COPILOT.1, skills)),
        ),
        "gemini-cli" => (
            npm::GEMINI,
            Box::new(fuzz::gemini::Gemini {
                version: npm::GEMINI.1,
                skills,
            }),
        ),
        _ => return None,
    })
}

fn main() {
    let a = args();
    let base = std::env::temp_dir().join(format!("skilltui-fuzz-{}", std::process::id()));
    let mut differ = false;
    for id in &a.agents {
        let Some((pkg, oracle)) = oracle(id, a.skills) else {
            usage(id)
        };
        let package = match npm::ensure(pkg) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("fuzz: {id}: cannot install {}@{}: {e}", pkg.0, pkg.1);
                differ = true;
                continue;
            }
        };
        let env = Env {
            skilltui: PathBuf::from(env!("CARGO_BIN_EXE_skilltui")),
            package,
            base: base.join(id),
        };
        std::fs::create_dir_all(&env.base).expect("case folder");
        let started = Instant::now();
        let sum = fuzz::campaign(oracle.as_ref(), &env, a.seed, a.cases, a.jobs, a.keep);
        println!(
            "{}",
            sum.line(oracle.as_ref(), started.elapsed().as_secs_f64())
        );
        if !sum.failed.is_empty() || !sum.errors.is_empty() {
            differ = true;
            print!("{}", sum.report(a.show));
            println!("fuzz: differing cases kept under {}", env.base.display());
        } else if !a.keep {
            let _ = std::fs::remove_dir_all(&env.base);
        }
    }
    std::process::exit(i32::from(differ));
}
