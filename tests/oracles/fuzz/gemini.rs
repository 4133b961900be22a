//! Gemini CLI (its own core package's discovery and prompt renderer, run
//! by `gemini_skills.mjs`): the prompt section must equal skilltui's
//! `catalog --agent gemini-cli` byte for byte (order included), and the
//! skills it loads must be the `ok` rows of `list --agent gemini-cli`.
//!
//! One node process answers many cases (a line of JSON each way): the
//! script sets HOME, GEMINI_CLI_HOME and the working directory per case,
//! which gemini-cli-core reads on every call. Each campaign thread takes a
//! process from a pool and gives it back.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use serde_json::{Value, json};

use super::{Env, Oracle, Outcome, exec, homes};

/// The dirs Gemini CLI reads (workspace trusted).
pub const DIRS: &[&str] = &[
    "C/.agents/skills",
    "C/.gemini/skills",
    "~/.agents/skills",
    "~/.gemini/skills",
];

pub struct Gemini {
    pub version: &'static str,
    pub skills: usize,
}

/// One `node gemini_skills.mjs` answering cases a line at a time.
struct Node {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Idle node processes, per package folder.
static POOL: Mutex<Vec<(PathBuf, Node)>> = Mutex::new(Vec::new());

impl Node {
    fn start(package: &Path) -> Result<Node, String> {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/gemini_skills.mjs");
        let mut child = Command::new("node")
            .arg(&script)
            .arg(package)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("node gemini_skills.mjs: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Node {
            child,
            stdin,
            lines,
        })
    }

    /// The answer for one case, bounded by [`exec::TIMEOUT`].
    fn ask(&mut self, case: &Value) -> Result<Value, String> {
        writeln!(self.stdin, "{case}").map_err(|e| format!("gemini_skills.mjs: {e}"))?;
        let line = self
            .lines
            .recv_timeout(exec::TIMEOUT)
            .map_err(|e| format!("gemini_skills.mjs gave no answer: {e}"))?;
        let answer: Value = serde_json::from_str(&line)
            .map_err(|e| format!("gemini_skills.mjs printed no JSON: {e}"))?;
        match answer["error"].as_str() {
            Some(e) => Err(format!("gemini_skills.mjs: {e}")),
            None => Ok(answer),
        }
    }
}

/// Asks a pooled node process (a new one when none is idle); a process
/// that failed is killed, not returned.
fn ask(package: &Path, case: &Value) -> Result<Value, String> {
    let idle = {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        pool.iter()
            .position(|(p, _)| p == package)
            .map(|i| pool.swap_remove(i).1)
    };
    let mut node = match idle {
        Some(n) => n,
        None => Node::start(package)?,
    };
    let answer = node.ask(case);
    if answer.is_ok() {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        pool.push((package.to_path_buf(), node));
    } else {
        let _ = node.child.kill();
        let _ = node.child.wait();
    }
    answer
}

/// How many times a differing catalog is asked again.
const RETRIES: usize = 3;

/// Gemini's prompt section with its built-in dir written as skilltui
/// writes it.
fn prompt(theirs: &Value) -> String {
    let builtin = theirs["builtin"].as_str().unwrap_or_default();
    let text = theirs["prompt"].as_str().unwrap_or_default();
    match builtin {
        "" => text.to_string(),
        b => text.replace(b, "<built-in>"),
    }
}

impl Oracle for Gemini {
    fn name(&self) -> String {
        format!("gemini-cli-core {}", self.version)
    }

    fn check(&self, env: &Env, seed: u64) -> Result<Outcome, String> {
        let case = homes::generate(&env.base, seed, DIRS, self.skills);
        // Even seeds move the home's skill dirs under GEMINI_CLI_HOME.
        let alt = case.root.join("gemini-home");
        let moved = seed.is_multiple_of(2);
        if moved {
            std::fs::create_dir_all(&alt).map_err(|e| e.to_string())?;
            for d in [".gemini", ".agents"] {
                if case.home.join(d).exists() {
                    std::fs::rename(case.home.join(d), alt.join(d)).map_err(|e| e.to_string())?;
                }
            }
        }
        let extra: Vec<(&str, &Path)> = if moved {
            vec![("GEMINI_CLI_HOME", alt.as_path())]
        } else {
            Vec::new()
        };
        let ours = exec::skilltui(
            &env.skilltui,
            &case,
            &extra,
            &["catalog", "--agent", "gemini-cli"],
        )?;
        let ours = ours.strip_suffix('\n').unwrap_or(&ours);
        let question = json!({
            "cwd": case.cwd,
            "home": case.home,
            "gemini_home": moved.then_some(&alt),
        });
        // Gemini's glob walks a dir on several workers, and now and then
        // two neighbours come out swapped (observed with 0.61.0, more
        // often on a loaded machine): a catalog that differs is asked
        // again, and any answer byte for byte equal agrees.
        let mut theirs = ask(&env.package, &question)?;
        for _ in 0..RETRIES {
            if prompt(&theirs) == ours {
                break;
            }
            theirs = ask(&env.package, &question)?;
        }
        let mut outcome = Outcome {
            skills: case.skills,
            diffs: Vec::new(),
        };
        let theirs_prompt = prompt(&theirs);
        if theirs_prompt != ours {
            outcome.diffs.push(format!(
                "case {}: catalog differs\n--- gemini-cli-core\n{theirs_prompt}\n--- skilltui\n{ours}",
                case.root.display()
            ));
        }
        let builtin = theirs["builtin"].as_str().unwrap_or_default().to_string();
        let as_ours = |s: &str| s.replace(&builtin, "<built-in>");
        let loaded: BTreeSet<(String, String, String)> = theirs["skills"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                (
                    s["name"].as_str().unwrap_or_default().to_string(),
                    s["description"].as_str().unwrap_or_default().to_string(),
                    as_ours(s["location"].as_str().unwrap_or_default()),
                )
            })
            .collect();
        let rows: BTreeSet<(String, String, String)> =
            exec::listed(&env.skilltui, &case, &extra, "gemini-cli")?
                .iter()
                .map(|r| {
                    (
                        r["name"].as_str().unwrap_or_default().to_string(),
                        r["description"].as_str().unwrap_or_default().to_string(),
                        format!("{}/SKILL.md", r["path"].as_str().unwrap_or_default()),
                    )
                })
                .collect();
        if loaded != rows {
            outcome.diffs.push(format!(
                "case {}: gemini loads {:?}\nskilltui ok rows {:?}",
                case.root.display(),
                loaded.difference(&rows).collect::<Vec<_>>(),
                rows.difference(&loaded).collect::<Vec<_>>()
            ));
        }
        Ok(outcome)
    }
}
