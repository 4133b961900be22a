//! OpenCode (`opencode debug skill --pure`, offline): each skill it loads
//! must be skilltui's `ok` copy of that name (or one skilltui marks
//! `may_win`), with the same location and description; each `ok` name of
//! `list --agent opencode` must be loaded.
//!
//! Cases move OpenCode's dirs with its environment: a third of them set
//! XDG_CONFIG_HOME to `~/xdg`, a quarter set OPENCODE_CONFIG_DIR to
//! `~/occ` (both given to OpenCode and to skilltui).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Env, Oracle, Outcome, exec, homes};

/// The dirs OpenCode reads: its config dirs (`skill/` and `skills/`),
/// the external `.agents` and `.claude` dirs, and dirs that only count
/// when a variable names them.
pub const DIRS: &[&str] = &[
    "C/.opencode/skills",
    "C/.opencode/skill",
    "R/.opencode/skills",
    "R/.opencode/skill",
    "R/apps/.opencode/skills",
    "R/.agents/skills",
    "C/.agents/skills",
    "C/.claude/skills",
    "~/.config/opencode/skills",
    "~/.config/opencode/skill",
    "~/xdg/opencode/skills",
    "~/.opencode/skills",
    "~/.opencode/skill",
    "~/occ/skills",
    "~/occ/skill",
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
        let opts = homes::Options { max_loops: 1 };
        let case = homes::generate_with(&env.base, seed, DIRS, self.skills, &opts);
        // OpenCode's own data (its database, migrated on first start) is
        // shared by every case: only its skills are under test.
        let data = env.base.join("opencode-data");
        let xdg = case.home.join("xdg");
        let occ = case.home.join("occ");
        let mut extra = vec![("XDG_DATA_HOME", data.as_path())];
        if seed % 3 == 1 {
            extra.push(("XDG_CONFIG_HOME", xdg.as_path()));
        }
        if seed % 4 == 2 {
            extra.push(("OPENCODE_CONFIG_DIR", occ.as_path()));
        }
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
        let rows = exec::all_rows(&env.skilltui, &case, &extra, "opencode")?;
        Ok(Outcome {
            skills: case.skills,
            diffs: diffs(&theirs, &rows)
                .into_iter()
                .map(|d| format!("case {}: {d}", case.root.display()))
                .collect(),
        })
    }
}

/// `path` with every link resolved one component at a time: OpenCode
/// reports paths through a loop up to 40 links deep, which one
/// `realpath` call refuses (ELOOP).
fn real(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::from("/");
    for part in path.components().skip(1) {
        out = out.join(part).canonicalize().ok()?;
    }
    Some(out)
}

/// Whether `path` passes twice through one real folder: OpenCode follows
/// a link looping back until the path resolution limit and may report
/// any of those copies; skilltui lists the file once, by its shortest
/// path.
fn through_loop(path: &Path) -> bool {
    let mut seen = HashSet::new();
    path.ancestors()
        .filter_map(real)
        .any(|found| !seen.insert(found))
}

/// Whether OpenCode's location `theirs` is skilltui's row location `ours`:
/// the same path, or the same file reached through a loop.
fn same_place(theirs: &str, ours: &str) -> bool {
    if theirs == ours {
        return true;
    }
    let theirs = Path::new(theirs);
    through_loop(theirs) && real(theirs).is_some() && real(theirs) == real(Path::new(ours))
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
                && same_place(loc, &location(r))
                && (r["status"] == "ok" || r["may_win"] == true)
                && (loc == "<built-in>" || text(&r["description"]) == text(&t["description"]))
        });
        if !fits {
            out.push(format!(
                "opencode loads {name:?} ({loc}, {:?}); skilltui has no such ok or may_win row",
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
