//! The agent commands through the real binary, with HOME, the working
//! directory and XDG_CONFIG_HOME in a temp dir: `agents`, `list --agent`,
//! `agent enable/disable/adopt`, `add --agent`, `remove [--agent]`,
//! `sync`, `catalog --agent`, `show --agent`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

struct World {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    cao: PathBuf,
    cwd: PathBuf,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let cao = tmp.path().join("cao");
    let cwd = tmp.path().join("proj");
    for d in [&home, &cwd, &cao.join("skills")] {
        fs::create_dir_all(d).unwrap();
    }
    World {
        _tmp: tmp,
        home,
        cao,
        cwd,
    }
}

impl World {
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .arg("--home")
            .arg(&self.cao)
            .args(args)
            .current_dir(&self.cwd)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("PATH", "/nonexistent")
            .env_remove("CAO_HOME_DIR")
            .env_remove("AMP_TOOLBOX")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .output()
            .expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn json(&self, args: &[&str]) -> Value {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str(&out).unwrap()
    }
}

fn skill(dir: &Path, folder: &str, text: &str) -> PathBuf {
    let d = dir.join(folder);
    fs::create_dir_all(&d).unwrap();
    fs::write(d.join("SKILL.md"), text).unwrap();
    d
}

fn md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\nBody of {name}.\n")
}

#[test]
fn agents_lists_each_agent_with_its_locations_in_order() {
    let w = world();
    fs::create_dir_all(w.home.join(".config/amp")).unwrap();
    let rows = w.json(&["agents", "--json"]);
    let amp = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "amp")
        .unwrap();
    assert_eq!(amp["name"], "Amp");
    assert_eq!(amp["detected"], true);
    let locs = amp["locations"].as_array().unwrap();
    assert_eq!(
        locs[0]["path"],
        w.cwd.join(".agents/skills").to_str().unwrap()
    );
    assert_eq!(locs[0]["scope"], "project");
    assert_eq!(locs[0]["exists"], false);
    assert_eq!(
        locs[1]["path"],
        w.home.join(".config/agents/skills").to_str().unwrap()
    );
    assert_eq!(locs.last().unwrap()["scope"], "builtin");
    let kiro = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "kiro-cli")
        .unwrap();
    assert_eq!(kiro["detected"], false);
}

// Seed 003: first name wins; its parser refuses an empty body.
#[test]
fn list_agent_judges_by_the_agents_own_rules() {
    let w = world();
    let win = skill(&w.cwd.join(".agents/skills"), "x", &md("x", "local"));
    skill(
        &w.home.join(".config/agents/skills"),
        "x",
        &md("x", "global"),
    );
    skill(
        &w.home.join(".config/amp/skills"),
        "empty",
        "---\nname: empty\ndescription: d\n---\n",
    );
    let rows = w.json(&["list", "--agent", "amp", "--json"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows[0]["name"], "x");
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(
        rows[0]["location"],
        w.cwd.join(".agents/skills").to_str().unwrap()
    );
    assert_eq!(rows[1]["status"], "shadowed");
    assert_eq!(rows[1]["shadowed_by"], win.to_str().unwrap());
    assert_eq!(rows[2]["status"], "invalid");
    assert_eq!(rows[2]["name"], "empty");
    for key in [
        "name",
        "description",
        "path",
        "location",
        "status",
        "shadowed_by",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    let (code, _, err) = w.run(&["list", "--agent", "nope"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: no agent 'nope'"), "{err}");
}

#[test]
fn a_user_agent_definition_is_read_from_the_config_dir() {
    let w = world();
    let dir = w.home.join(".config/skilltui/agents");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("mine.toml"),
        "[[agent]]\nid = \"mine\"\nname = \"Mine\"\nparser = \"agentskills\"\nclash = \"first_wins\"\nclash_key = \"name\"\nsymlinks = \"yes\"\nlink_ok = true\nsource = \"me\"\n[[agent.location]]\npath = \"~/.mine/skills\"\nscope = \"user\"\nsource = \"me\"\n",
    )
    .unwrap();
    skill(&w.home.join(".mine/skills"), "a", &md("a", "d"));
    let rows = w.json(&["list", "--agent", "mine", "--json"]);
    assert_eq!(rows[0]["name"], "a");
    assert_eq!(rows[0]["status"], "ok");
}

#[test]
fn enable_disable_remove_and_sync_touch_only_what_skilltui_made() {
    let w = world();
    skill(&w.cao.join("skills"), "x", &md("x", "d"));
    skill(&w.cao.join("skills"), "y", &md("y", "d"));
    let (code, out, err) = w.run(&["agent", "enable", "claude-code", "x", "y"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("x: linked for claude-code"), "{out}");
    let link = w.home.join(".claude/skills/x");
    assert_eq!(fs::read_link(&link).unwrap(), w.cao.join("skills/x"));
    // The user's own folder in another agent's dir.
    let theirs = skill(&w.home.join(".kiro/skills"), "x", "user made");
    let (code, _, err) = w.run(&["agent", "disable", "kiro-cli", "x"]);
    assert_eq!(code, 1);
    assert!(err.contains("never deleted"), "{err}");
    // A copy for Kiro at project scope.
    let (code, _, err) = w.run(&["agent", "enable", "kiro-cli", "y", "--scope", "project"]);
    assert_eq!(code, 0, "{err}");
    assert!(w.cwd.join(".kiro/skills/y/SKILL.md").is_file());
    // sync puts back a link that went missing.
    fs::remove_file(&link).unwrap();
    let (code, out, err) = w.run(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("restored"), "{out}");
    assert!(fs::read_link(&link).is_ok());
    // remove --agent takes only that agent's.
    let (code, _, err) = w.run(&["remove", "y", "--agent", "kiro-cli"]);
    assert_eq!(code, 0, "{err}");
    assert!(!w.cwd.join(".kiro/skills/y").exists());
    assert!(w.cao.join("skills/y").is_dir());
    // remove takes every link, then the store copy.
    let (code, _, err) = w.run(&["remove", "x"]);
    assert_eq!(code, 0, "{err}");
    assert!(fs::symlink_metadata(&link).is_err());
    assert!(!w.cao.join("skills/x").exists());
    assert_eq!(
        fs::read_to_string(theirs.join("SKILL.md")).unwrap(),
        "user made"
    );
}

#[test]
fn adopt_copies_the_users_folder_into_the_store_and_leaves_it() {
    let w = world();
    let theirs = skill(&w.home.join(".kiro/skills"), "mine", &md("mine", "d"));
    let (code, _, err) = w.run(&["agent", "adopt", "kiro-cli", "mine"]);
    assert_eq!(code, 0, "{err}");
    assert!(w.cao.join("skills/mine/SKILL.md").is_file());
    assert!(theirs.join("SKILL.md").is_file());
}

#[test]
fn add_with_agent_installs_then_gives() {
    let w = world();
    let src = skill(&w.cwd, "srcskill", &md("srcskill", "d"));
    let (code, out, err) = w.run(&[
        "add",
        src.to_str().unwrap(),
        "--agent",
        "amp",
        "--scope",
        "project",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("copied for amp"), "{out}");
    assert!(w.cwd.join(".agents/skills/srcskill/SKILL.md").is_file());
}

// Issue 21 part 5: "`add … --agent A --agent B` gives to several agents
// at once; `agent enable` takes several ids as a comma list". Part 3: a
// dir another agent reads too is said, with their names.
#[test]
fn several_agents_at_once_and_the_agents_a_shared_dir_reaches() {
    let w = world();
    let src = skill(&w.cwd, "srcskill", &md("srcskill", "d"));
    let (code, out, err) = w.run(&[
        "add",
        src.to_str().unwrap(),
        "--agent",
        "claude-code",
        "--agent",
        "kiro-cli,gemini-cli",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("srcskill: linked for claude-code"), "{out}");
    assert!(out.contains("srcskill: copied for kiro-cli"), "{out}");
    assert!(out.contains("srcskill: copied for gemini-cli"), "{out}");
    assert!(w.home.join(".claude/skills/srcskill").is_symlink());
    assert!(w.home.join(".kiro/skills/srcskill/SKILL.md").is_file());
    let shared = w.home.join(".agents/skills/srcskill");
    assert!(shared.join("SKILL.md").is_file());
    assert!(
        out.contains("  also read by Codex, OpenCode, GitHub Copilot, Cursor, "),
        "{out}"
    );
    assert!(out.contains("(~/.agents/skills is theirs too)"), "{out}");
    // Kiro's own dir is read by no one else: no such line after it.
    let kiro_line = out
        .lines()
        .position(|l| l.contains("copied for kiro-cli"))
        .unwrap();
    assert!(
        !out.lines()
            .nth(kiro_line + 1)
            .unwrap_or("")
            .starts_with("  also"),
        "{out}"
    );

    skill(&w.cao.join("skills"), "z", &md("z", "d"));
    let (code, out, err) = w.run(&["agent", "enable", "gemini-cli,amp", "z"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("z: copied for gemini-cli"), "{out}");
    assert!(out.contains("z: copied for amp"), "{out}");
    // An unknown id in the list stops before anything is given.
    let (code, _, err) = w.run(&["agent", "enable", "amp,nope", "z"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: no agent 'nope'"), "{err}");
    let (code, _, err) = w.run(&["add", src.to_str().unwrap(), "--force", "--agent", "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("no agent 'nope'"), "{err}");
}

// Seed 003 "Available Skills Prompt" and "Skill Loading".
#[test]
fn catalog_and_show_for_amp_follow_seed_003() {
    let w = world();
    skill(&w.cwd.join(".agents/skills"), "x", &md("x", "does x"));
    skill(
        &w.cwd.join(".agents/skills"),
        "quiet",
        "---\nname: quiet\ndescription: q\ndisable-model-invocation: true\n---\nQuiet body.\n",
    );
    let (code, out, err) = w.run(&["catalog", "--agent", "amp"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(
        "The following skills provide specialized instructions for specific tasks.\n"
    ));
    assert!(out.contains(
        "  <skill>\n    <name>x</name>\n    <description>does x</description>\n  </skill>\n"
    ));
    assert!(!out.contains("quiet"));
    assert!(err.contains("budget: "), "{err}");
    let (code, out, _) = w.run(&["show", "quiet", "--agent", "amp", "--arguments", "go"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "<loaded_skill name=\"quiet\">\nQuiet body.\n\n\nArguments: go\n</loaded_skill>\n"
    );
    // Seed 003 (003_0f931e5b56874718.txt) Skill Loading: "args ?
    // `\nArguments: ${args}` : \"\"": `--arguments ""` adds nothing.
    let (code, out, _) = w.run(&["show", "quiet", "--agent", "amp", "--arguments", ""]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "<loaded_skill name=\"quiet\">\nQuiet body.\n\n\n</loaded_skill>\n"
    );
    // Seed 003 Constants and Token Budget are lints of `show --agent amp`:
    // "Keep SKILL.md under 500 lines".
    let long = format!(
        "---\nname: long\ndescription: d\n---\n{}",
        "x\n".repeat(600)
    );
    skill(&w.cwd.join(".agents/skills"), "long", &long);
    let (code, _, err) = w.run(&["show", "long", "--agent", "amp"]);
    assert_eq!(code, 0);
    assert!(
        err.contains(
            "SKILL.md is 604 lines; Amp's documented token budget: Keep SKILL.md under 500 lines"
        ),
        "{err}"
    );
    let (code, _, err) = w.run(&["show", "nope", "--agent", "amp"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "error: Skill \"nope\" not found. Available: long, quiet, x, building-skills"
        ),
        "{err}"
    );
    let (code, _, _) = w.run(&["catalog"]);
    assert_eq!(code, 2);
}

// Seed 002 skill_prepare_spawn: tokens resolved, fullyResolved false when
// one is left, tier and tags from manifest.json.
#[test]
fn show_for_cleo_composes_the_spawn_prompt() {
    let w = world();
    fs::create_dir_all(w.cwd.join(".git")).unwrap();
    fs::create_dir_all(w.cwd.join("agents/cleo-subagent")).unwrap();
    fs::write(
        w.cwd.join("agents/cleo-subagent/AGENT.md"),
        "Base for {{TASK_ID}}",
    )
    .unwrap();
    let skills = w.cwd.join("skills");
    skill(
        &skills,
        "ct-research-agent",
        "---\nname: ct-research-agent\ndescription: r\n---\nResearch {{TASK_ID}} on {{DATE}} in {{SESSION_ID}}\n",
    );
    fs::write(
        skills.join("manifest.json"),
        r#"{"skills": [{"name": "ct-research-agent", "tier": 2, "tags": ["research"]}]}"#,
    )
    .unwrap();
    let (code, out, err) = w.run(&[
        "show",
        "ct-research-agent",
        "--agent",
        "cleo",
        "--set",
        "TASK_ID=T1234",
        "--set",
        "DATE=2026-01-27",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["taskId"], "T1234");
    assert_eq!(v["tokenResolution"]["fullyResolved"], false);
    assert_eq!(v["tokenResolution"]["unresolved"][0], "{{SESSION_ID}}");
    // Seed 002: "Composes prompt with base protocol + conditional
    // protocol"; the frontmatter is not injected as body.
    let prompt = v["prompt"].as_str().unwrap();
    assert_eq!(
        prompt,
        "Base for T1234\n\n---\n\nResearch T1234 on 2026-01-27 in {{SESSION_ID}}"
    );
    // Seed 002 TIER 0: "Context budget: 10K tokens".
    assert!(
        err.contains("CLEO's documented context budget (orchestrator): 10000 tokens"),
        "{err}"
    );
    assert!(
        err.contains("tier: 2") && err.contains("tags: research"),
        "{err}"
    );
    let (code, _, err) = w.run(&["catalog", "--agent", "cleo"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("budget: 6 / 10000 tokens of manifest summaries"),
        "{err}"
    );
}

// cao-compat.md 1 and 4: the store, then each extra dir; first valid wins.
#[test]
fn list_agent_cao_is_cao_s_own_listing() {
    let w = world();
    let extra = w.cwd.join("extra");
    skill(&w.cao.join("skills"), "x", &md("x", "store copy"));
    skill(&extra, "x", &md("x", "extra copy"));
    fs::write(
        w.cao.join("settings.json"),
        format!(
            "{{\"skills\": {{\"extra_dirs\": [\"{}\"]}}}}",
            extra.display()
        ),
    )
    .unwrap();
    let rows = w.json(&["list", "--agent", "cao", "--json"]);
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[0]["location"], w.cao.join("skills").to_str().unwrap());
    assert_eq!(rows[1]["status"], "shadowed");
    assert_eq!(
        rows[1]["shadowed_by"],
        w.cao.join("skills/x").to_str().unwrap()
    );
    assert_eq!(rows[1]["location"], extra.to_str().unwrap());
}

// OpenCode's skill tool result (anomalyco/opencode
// packages/opencode/src/tool/skill.ts @097ed81): the trimmed body, the
// folder as a file URL (Node's pathToFileURL: a space is %20, `#` is
// %23), and its files other than SKILL.md, hidden ones included.
#[test]
fn show_for_opencode_is_its_skill_tool_result() {
    let w = world();
    let dir = skill(
        &w.home.join(".config/opencode/skills"),
        "my tool#1",
        "---\nname: tool\ndescription: d\n---\n\n  Body.\n\n",
    );
    fs::create_dir_all(dir.join("scripts")).unwrap();
    fs::write(dir.join("scripts/run.sh"), "echo\n").unwrap();
    fs::write(dir.join(".env.example"), "A=1\n").unwrap();
    let (code, out, err) = w.run(&["show", "tool", "--agent", "opencode"]);
    assert_eq!(code, 0, "{err}");
    let url = format!(
        "file://{}",
        dir.display()
            .to_string()
            .replace(' ', "%20")
            .replace('#', "%23")
    );
    assert_eq!(
        out,
        format!(
            "<skill_content name=\"tool\">\n# Skill: tool\n\nBody.\n\nBase directory for this skill: {url}\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n<file>{}</file>\n<file>{}</file>\n</skill_files>\n</skill_content>\n",
            dir.join(".env.example").display(),
            dir.join("scripts/run.sh").display()
        )
    );
}

// Issue 22 hole 5. Before: of 12 parallel `agent enable`s, 9 refused (the
// record had changed under them); of 12 parallel `agent disable`s, 9
// failed after deleting their links, and the next `sync` brought those
// skills back. The record is now merged under the folder's lock.
#[test]
fn twelve_parallel_enables_and_disables_all_succeed_and_the_record_stays_right() {
    let w = world();
    let names: Vec<String> = (0..12).map(|i| format!("s{i:02}")).collect();
    for n in &names {
        skill(&w.cao.join("skills"), n, &md(n, "d"));
    }
    let record = w.cao.join("skilltui-agents.json");
    let recorded = || -> Vec<String> {
        let v: Value = serde_json::from_slice(&fs::read(&record).unwrap()).unwrap();
        let mut got: Vec<String> = v["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["skill"].as_str().unwrap().to_string())
            .collect();
        got.sort();
        got
    };
    let all = |verb: &str| {
        let runs: Vec<_> = names
            .iter()
            .map(|n| {
                let (verb, n) = (verb.to_string(), n.clone());
                (n.clone(), {
                    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
                    c.arg("--home")
                        .arg(&w.cao)
                        .args(["agent", &verb, "claude-code", &n])
                        .current_dir(&w.cwd)
                        .env("HOME", &w.home)
                        .env("XDG_CONFIG_HOME", w.home.join(".config"))
                        .env("PATH", "/nonexistent")
                        .env_remove("CAO_HOME_DIR")
                        .env_remove("CLAUDE_CONFIG_DIR")
                        .stdout(std::process::Stdio::piped())
                        .stderr(std::process::Stdio::piped());
                    c.spawn().unwrap()
                })
            })
            .collect();
        for (n, child) in runs {
            let out = child.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{verb} {n}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    };
    all("enable");
    assert_eq!(recorded(), names);
    for n in &names {
        assert!(
            fs::read_link(w.home.join(".claude/skills").join(n)).is_ok(),
            "{n}"
        );
    }
    all("disable");
    assert!(recorded().is_empty(), "{:?}", recorded());
    for n in &names {
        assert!(
            fs::symlink_metadata(w.home.join(".claude/skills").join(n)).is_err(),
            "{n}"
        );
    }
    let (code, out, err) = w.run(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("restored"), "{out}");
    assert!(
        fs::read_dir(w.home.join(".claude/skills"))
            .unwrap()
            .next()
            .is_none()
    );
}

// Issue 21: every agent says how sure the table is of it.
#[test]
fn agents_json_says_verified_or_documented_for_every_agent() {
    let w = world();
    let rows = w.json(&["agents", "--json"]);
    for row in rows.as_array().unwrap() {
        let verified = row.get("verified").and_then(Value::as_str);
        let documented = row.get("documented").and_then(Value::as_str);
        assert!(
            verified.is_some() != documented.is_some(),
            "{}: one of verified / documented: {row}",
            row["id"]
        );
        assert!(!verified.or(documented).unwrap().is_empty());
    }
    let get = |id: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(get("codex")["verified"], "codex 0.169.0");
    assert_eq!(get("opencode")["verified"], "opencode 1.18.33");
    assert_eq!(get("gemini-cli")["verified"], "gemini-cli-core 0.61.0");
    assert!(
        get("amp")["documented"]
            .as_str()
            .unwrap()
            .contains("Amp's skills design")
    );
    // One line per agent, its skills counted, its search paths elsewhere.
    let (code, out, _) = w.run(&["agents"]);
    assert_eq!(code, 0);
    let agents = rows.as_array().unwrap().len();
    assert_eq!(out.lines().count(), agents + 1, "{out}");
    let codex = out.lines().find(|l| l.contains(" codex ")).unwrap();
    assert!(codex.ends_with("verified against codex 0.169.0"), "{out}");
    assert!(
        !out.contains("documented:") && !out.contains("(missing)"),
        "{out}"
    );
    let (code, out, _) = w.run(&["agents", "--paths"]);
    assert_eq!(code, 0);
    assert!(out.contains("    verified: codex 0.169.0\n"), "{out}");
    let (code, out, _) = w.run(&["agents", "codex"]);
    assert_eq!(code, 0);
    assert!(out.contains("    verified: codex 0.169.0\n"), "{out}");
}
