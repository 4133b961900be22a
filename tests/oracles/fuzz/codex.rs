//! Codex (`codex debug prompt-input`, offline, no login): the
//! `<skills_instructions>` block it shows the model must equal skilltui's
//! `catalog --agent codex`, and the skills it names must be the `ok` rows
//! of `list --agent codex`.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Env, Oracle, Outcome, exec, homes};

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
        let codex_home = case.home.join(".codex");
        std::fs::create_dir_all(&codex_home).map_err(|e| e.to_string())?;
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
        let theirs = same_name_runs_sorted(&skills_block(&out.stdout).unwrap_or_default());
        let ours = exec::skilltui(
            &env.skilltui,
            &case,
            &extra,
            &["catalog", "--agent", "codex"],
        )?;
        let ours = same_name_runs_sorted(ours.strip_suffix('\n').unwrap_or(&ours));
        if theirs != ours {
            outcome.diffs.push(format!(
                "case {}: catalog differs\n--- codex\n{theirs}\n--- skilltui\n{ours}",
                case.root.display()
            ));
            return Ok(outcome);
        }
        let named: BTreeSet<String> = theirs
            .lines()
            .filter(|l| l.starts_with("- ") && l.contains(" (file: "))
            .filter_map(|l| l[2..].split(':').next().map(str::to_string))
            .collect();
        let rows: BTreeSet<String> = exec::listed(&env.skilltui, &case, &extra, "codex")?
            .iter()
            .map(|r| r["name"].as_str().unwrap_or_default().to_string())
            .collect();
        if named != rows {
            outcome.diffs.push(format!(
                "case {}: codex names {named:?}, list --agent codex has {rows:?}",
                case.root.display()
            ));
        }
        Ok(outcome)
    }
}

/// The block with each run of lines naming one skill sorted: Codex lists
/// copies of one name found in one root in its directory read order,
/// which varies by file system (the model says so: render.rs).
fn same_name_runs_sorted(block: &str) -> String {
    let name = |l: &str| {
        l.strip_prefix("- ")
            .and_then(|r| r.split(':').next())
            .map(str::to_string)
    };
    let lines: Vec<&str> = block.lines().collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i + 1;
        while j < lines.len() && name(lines[i]).is_some() && name(lines[j]) == name(lines[i]) {
            j += 1;
        }
        let mut run = lines[i..j].to_vec();
        run.sort_unstable();
        out.extend(run);
        i = j;
    }
    out.join("\n")
}

/// The `<skills_instructions>` text of `codex debug prompt-input`'s JSON.
pub fn skills_block(stdout: &[u8]) -> Option<String> {
    let items: Vec<Value> = serde_json::from_slice(stdout).ok()?;
    items
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["text"].as_str().map(str::to_string))
        .find(|t| t.starts_with("<skills_instructions>"))
}
