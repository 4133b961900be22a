//! OpenCode (`opencode debug skill --pure`, offline): each skill it loads
//! must be skilltui's `ok` copy of that name (or one skilltui marks
//! `may_win`), with the same location and description; each `ok` name of
//! `list --agent opencode` must be loaded.

use serde_json::Value;

use super::{Env, Oracle, Outcome, exec, homes};

/// The dirs OpenCode reads.
pub const DIRS: &[&str] = &[
    "C/.opencode/skills",
    "R/.opencode/skills",
    "R/.agents/skills",
    "C/.claude/skills",
    "~/.config/opencode/skills",
    "~/.agents/skills",
    "~/.claude/skills",
];

pub struct OpenCode {
    pub version: &'static str,
    pub skills: usize,
}

impl Oracle for OpenCode {
    fn name(&self) -> String {
        format!("opencode {}", self.version)
    }

    fn check(&self, env: &Env, seed: u64) -> Result<Outcome, String> {
        let case = homes::generate(&env.base, seed, DIRS, self.skills);
        // OpenCode's own data (its database, migrated on first start) is
        // shared by every case: only its skills are under test.
        let data = env.base.join("opencode-data");
        let extra = [("XDG_DATA_HOME", data.as_path())];
        let bin = env.package.join("node_modules/.bin/opencode");
        let mut cmd = exec::command(&bin, &case, &extra);
        cmd.args(["debug", "skill", "--pure"]);
        let out = exec::run(cmd)?;
        if !out.status.success() {
            return Err(format!(
                "opencode debug skill: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let theirs: Vec<Value> = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("opencode printed no JSON: {e}"))?;
        let rows = exec::all_rows(&env.skilltui, &case, &[], "opencode")?;
        Ok(Outcome {
            skills: case.skills,
            diffs: diffs(&theirs, &rows)
                .into_iter()
                .map(|d| format!("case {}: {d}", case.root.display()))
                .collect(),
        })
    }
}

/// One line per difference between what OpenCode loaded and skilltui's
/// rows.
fn diffs(theirs: &[Value], rows: &[Value]) -> Vec<String> {
    // OpenCode's null description is skilltui's empty one.
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let location = |r: &Value| -> String {
        let path = r["path"].as_str().unwrap_or_default();
        match path.strip_prefix("<built-in>/") {
            Some(_) => "<built-in>".into(),
            None => format!("{path}/SKILL.md"),
        }
    };
    let mut out = Vec::new();
    for t in theirs {
        let name = t["name"].as_str().unwrap_or_default();
        let loc = t["location"].as_str().unwrap_or_default();
        let fits = rows.iter().any(|r| {
            r["name"] == name
                && location(r) == loc
                && (r["status"] == "ok" || r["may_win"] == true)
                && (loc == "<built-in>" || text(&r["description"]) == text(&t["description"]))
        });
        if !fits {
            out.push(format!(
                "opencode loads {name} ({loc}, {:?}); skilltui has no such ok or may_win row",
                t["description"]
            ));
        }
    }
    for r in rows.iter().filter(|r| r["status"] == "ok") {
        if !theirs.iter().any(|t| t["name"] == r["name"]) {
            out.push(format!(
                "skilltui says {} loads {}; opencode does not",
                r["name"],
                location(r)
            ));
        }
    }
    out
}
