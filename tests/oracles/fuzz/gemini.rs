//! Gemini CLI (its own core package's discovery and prompt renderer, run
//! by `gemini_skills.mjs`): the prompt section must equal skilltui's
//! `catalog --agent gemini-cli`, and the skills it loads must be the `ok`
//! rows of `list --agent gemini-cli`.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

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
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/gemini_skills.mjs");
        let mut cmd = exec::command(Path::new("node"), &case, &extra);
        cmd.arg(&script).arg(&env.package);
        let out = exec::run(cmd)?;
        if !out.status.success() {
            return Err(format!(
                "node gemini_skills.mjs: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let theirs: Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("gemini_skills.mjs printed no JSON: {e}"))?;
        let builtin = theirs["builtin"].as_str().unwrap_or_default().to_string();
        let as_ours = |s: &str| s.replace(&builtin, "<built-in>");
        let mut outcome = Outcome {
            skills: case.skills,
            diffs: Vec::new(),
        };
        let prompt = dir_runs_sorted(&as_ours(theirs["prompt"].as_str().unwrap_or_default()));
        let ours = exec::skilltui(
            &env.skilltui,
            &case,
            &extra,
            &["catalog", "--agent", "gemini-cli"],
        )?;
        let ours = dir_runs_sorted(ours.strip_suffix('\n').unwrap_or(&ours));
        // Gemini lists a dir's skills in its file search's order, and puts
        // each name where it was first loaded: with a link or a clash in a
        // dir, that place is the file system's choice. The entries must
        // still be the same.
        if prompt != ours && entries_sorted(&prompt) != entries_sorted(&ours) {
            outcome.diffs.push(format!(
                "case {}: catalog differs\n--- gemini-cli-core\n{prompt}\n--- skilltui\n{ours}",
                case.root.display()
            ));
        }
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

/// The prompt's text around its entries, then its entries sorted.
fn entries_sorted(prompt: &str) -> (String, Vec<String>) {
    let mut parts = prompt.split("\n  <skill>");
    let head = parts.next().unwrap_or_default().to_string();
    let mut entries: Vec<String> = parts.map(str::to_string).collect();
    entries.sort();
    (head, entries)
}

/// The prompt with each run of `<skill>` entries from one skills dir
/// sorted: Gemini lists a dir's skills in its file search's order, which
/// is the file system's (the model says so: render.rs).
fn dir_runs_sorted(prompt: &str) -> String {
    let Some(start) = prompt.find("  <skill>") else {
        return prompt.to_string();
    };
    let end = prompt
        .rfind("  </skill>")
        .map_or(prompt.len(), |e| e + "  </skill>".len());
    let entries: Vec<&str> = prompt[start..end].split("\n  <skill>").collect();
    let dir = |e: &str| {
        let loc = e.split("<location>").nth(1).unwrap_or("");
        if loc.starts_with("<built-in>") {
            return "<built-in>".to_string();
        }
        loc.rfind("/skills/").map_or(loc, |i| &loc[..i]).to_string()
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let mut j = i + 1;
        while j < entries.len() && dir(entries[j]) == dir(entries[i]) {
            j += 1;
        }
        let mut run: Vec<String> = entries[i..j]
            .iter()
            .map(|e| e.trim_start_matches("  <skill>").to_string())
            .collect();
        run.sort();
        out.extend(run);
        i = j;
    }
    format!(
        "{}  <skill>{}{}",
        &prompt[..start],
        out.join("\n  <skill>"),
        &prompt[end..]
    )
}
