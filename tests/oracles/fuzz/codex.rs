//! Codex (`codex debug prompt-input`, offline, no login): the
//! `<skills_instructions>` block it shows the model must equal skilltui's
//! `catalog --agent codex` byte for byte (order included), and the skills
//! it names must be `ok` rows of `list --agent codex` (all of them unless
//! the budget left some out). Each case also picks, from its seed, where
//! `CODEX_HOME` points, a `model_context_window` (small ones hold fewer
//! skills than the case has) and the plugins installed (`plugins`).

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Env, Oracle, Outcome, exec, homes};

mod plugins;

/// The dirs Codex reads that a case may write (not /etc).
pub const DIRS: &[&str] = &[
    "C/.codex/skills",
    "R/apps/.codex/skills",
    "R/.codex/skills",
    "~/.codex/skills",
    "~/.agents/skills",
    "R/.agents/skills",
    "C/.agents/skills",
];

pub struct Codex {
    pub version: &'static str,
    /// Skill folders per case.
    pub skills: usize,
}

impl Oracle for Codex {
    fn name(&self) -> String {
        format!("codex {}", self.version)
    }

    fn check(&self, env: &Env, seed: u64) -> Result<Outcome, String> {
        let case = homes::generate(&env.base, seed, DIRS, self.skills);
        let mut rng = homes::Rng::new(seed ^ 0xC0DE);
        // The environment override: CODEX_HOME away from ~/.codex (whose
        // skills/ is then nobody's).
        let codex_home = match rng.below(5) {
            0 => case.root.join("codex-home"),
            _ => case.home.join(".codex"),
        };
        std::fs::create_dir_all(&codex_home).map_err(|e| e.to_string())?;
        // A top-level key before any table.
        let mut config = match *rng.pick(WINDOWS) {
            Some(window) => format!("model_context_window = {window}\n"),
            None => String::new(),
        };
        if rng.below(2) == 0 {
            config.push_str(&plugins::install(&mut rng, &codex_home));
        }
        if !config.is_empty() {
            std::fs::write(codex_home.join("config.toml"), config).map_err(|e| e.to_string())?;
        }
        let extra = [("CODEX_HOME", codex_home.as_path())];
        // Codex first: it writes its bundled skills to $CODEX_HOME/skills/.system.
        let bin = env.package.join("node_modules/.bin/codex");
        let mut cmd = exec::command(&bin, &case, &extra);
        cmd.args(["debug", "prompt-input"]);
        let out = exec::run(cmd)?;
        if !out.status.success() {
            return Err(format!(
                "codex debug prompt-input: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let mut outcome = Outcome {
            skills: case.skills,
            diffs: Vec::new(),
        };
        let theirs = skills_block(&out.stdout).unwrap_or_default();
        let ours = exec::skilltui(
            &env.skilltui,
            &case,
            &extra,
            &["catalog", "--agent", "codex"],
        )?;
        let ours = ours.strip_suffix('\n').unwrap_or(&ours);
        if theirs != ours {
            outcome.diffs.push(format!(
                "case {}: catalog differs\n--- codex\n{theirs}\n--- skilltui\n{ours}",
                case.root.display()
            ));
            return Ok(outcome);
        }
        // Names may hold `:` (a plugin's `name:skill`): a line names a
        // row when it starts `- NAME: `.
        let entries: Vec<&str> = theirs
            .lines()
            .filter(|l| l.starts_with("- ") && l.contains(" (file: "))
            .collect();
        let listed = exec::listed(&env.skilltui, &case, &extra, "codex")?;
        let names: BTreeSet<String> = listed
            .iter()
            .map(|r| format!("- {}: ", r["name"].as_str().unwrap_or_default()))
            .collect();
        let unknown: Vec<&&str> = (entries.iter())
            .filter(|l| !names.iter().any(|n| l.starts_with(n.as_str())))
            .collect();
        let missing: Vec<&String> = (names.iter())
            .filter(|n| !entries.iter().any(|l| l.starts_with(n.as_str())))
            .filter(|_| entries.len() == listed.len())
            .collect();
        if !unknown.is_empty() || !missing.is_empty() {
            outcome.diffs.push(format!(
                "case {}: codex shows {unknown:?} that list --agent codex lacks; it lacks {missing:?}",
                case.root.display()
            ));
        }
        Ok(outcome)
    }
}

/// The `model_context_window` a case sets (`None`: the model's own,
/// 272,000): 2% of each is the budget, 5,440 tokens down to 20.
const WINDOWS: &[Option<u32>] = &[
    None,
    None,
    None,
    Some(40_000),
    Some(20_000),
    Some(12_000),
    Some(5_000),
    Some(1_000),
];

/// The `<skills_instructions>` text of `codex debug prompt-input`'s JSON.
pub fn skills_block(stdout: &[u8]) -> Option<String> {
    let items: Vec<Value> = serde_json::from_slice(stdout).ok()?;
    items
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["text"].as_str().map(str::to_string))
        .find(|t| t.starts_with("<skills_instructions>"))
}
