//! The real agents as oracles: pinned Codex and OpenCode from npm (see
//! `oracles/npm.rs` for the versions) are asked what skills they load on
//! generated homes full of traps (`oracles/homes.rs`), and skilltui must
//! give the same answer, byte for byte where the agent prints text.
//!
//! One agent process per home. Needs npm and the registry the first time
//! (the packages are cached under the target dir); without them each test
//! prints why and skips. `SKILLTUI_ORACLE_SEED` moves the seed (default 1),
//! `SKILLTUI_ORACLE_KEEP=1` keeps the homes.

#[path = "oracles/homes.rs"]
mod homes;
#[path = "oracles/npm.rs"]
mod npm;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const TIMEOUT: Duration = Duration::from_secs(90);

fn seed() -> u64 {
    std::env::var("SKILLTUI_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// A line on the real stderr, past the test harness's capture: the
/// counts and a skip's reason show in every run.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The oracle tests run one at a time: each agent process is bounded in
/// time, and four of them at once on 2 cores would only race each other.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn installed(pkg: (&str, &str)) -> Option<PathBuf> {
    match npm::ensure(pkg) {
        Ok(root) => Some(root),
        Err(why) => {
            say(&format!("oracles: SKIPPED {}@{}: {why}", pkg.0, pkg.1));
            None
        }
    }
}

/// Runs `cmd` with only the variables given, killed after [`TIMEOUT`].
fn run(mut cmd: Command) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out.expect("wait"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("timed out after {TIMEOUT:?}: {cmd:?}");
        }
    }
}

fn env_cmd(program: &Path, case: &homes::Case, extra: &[(&str, &Path)]) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", &case.home)
        .env("XDG_CONFIG_HOME", case.home.join(".config"))
        .current_dir(&case.cwd);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd
}

fn skilltui(case: &homes::Case, extra: &[(&str, &Path)], args: &[&str]) -> String {
    let mut cmd = env_cmd(Path::new(env!("CARGO_BIN_EXE_skilltui")), case, extra);
    cmd.arg("--home").arg(case.root.join("cao")).args(args);
    let out = run(cmd);
    assert!(
        out.status.success(),
        "skilltui {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The `ok` rows of `list --agent ID --json` the model is shown.
fn listed(case: &homes::Case, extra: &[(&str, &Path)], id: &str) -> Vec<Value> {
    let out = skilltui(case, extra, &["list", "--agent", id, "--json"]);
    let rows: Vec<Value> = serde_json::from_str(&out).expect("list JSON");
    rows.into_iter()
        .filter(|r| r["status"] == "ok" && r["hidden"] != true)
        .collect()
}

fn workdir() -> tempfile::TempDir {
    let keep = std::env::var("SKILLTUI_ORACLE_KEEP").as_deref() == Ok("1");
    let dir = tempfile::Builder::new()
        .prefix("skilltui-oracles-")
        .disable_cleanup(keep)
        .tempdir()
        .expect("tempdir");
    if keep {
        eprintln!("oracles: keeping {}", dir.path().display());
    }
    dir
}

/// The dirs Codex 0.169.0 reads that a test may write (not /etc).
const CODEX_DIRS: &[&str] = &[
    "C/.codex/skills",
    "R/apps/.codex/skills",
    "R/.codex/skills",
    "~/.codex/skills",
    "~/.agents/skills",
    "R/.agents/skills",
    "C/.agents/skills",
];

const CODEX_CASES: u64 = 12;

#[test]
fn codex_prompt_input_skills_block_equals_catalog_agent_codex() {
    let _serial = one_at_a_time();
    let Some(pkg) = installed(npm::CODEX) else {
        return;
    };
    let codex = npm::bin(&pkg, "codex");
    let tmp = workdir();
    let base = tmp.path().canonicalize().unwrap();
    let started = Instant::now();
    let (mut skills, mut diffs) = (0, Vec::new());
    for i in 0..CODEX_CASES {
        let case = homes::generate(&base, seed() * 1000 + i, CODEX_DIRS, 18);
        skills += case.skills;
        let codex_home = case.home.join(".codex");
        std::fs::create_dir_all(&codex_home).unwrap();
        let extra = [("CODEX_HOME", codex_home.as_path())];
        // Codex first: it writes its bundled skills to $CODEX_HOME/skills/.system.
        let mut cmd = env_cmd(&codex, &case, &extra);
        cmd.args(["debug", "prompt-input"]);
        let out = run(cmd);
        assert!(
            out.status.success(),
            "codex debug prompt-input: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs = same_name_runs_sorted(&skills_block(&out.stdout).unwrap_or_default());
        let ours = skilltui(&case, &extra, &["catalog", "--agent", "codex"]);
        let ours = same_name_runs_sorted(ours.strip_suffix('\n').unwrap_or(&ours));
        if theirs != ours {
            diffs.push(format!(
                "case {}: catalog differs\n--- codex\n{theirs}\n--- skilltui\n{ours}",
                case.root.display()
            ));
            continue;
        }
        let named: BTreeSet<String> = theirs
            .lines()
            .filter(|l| l.starts_with("- ") && l.contains(" (file: "))
            .filter_map(|l| l[2..].split(':').next().map(str::to_string))
            .collect();
        let rows: BTreeSet<String> = listed(&case, &extra, "codex")
            .iter()
            .map(|r| r["name"].as_str().unwrap_or_default().to_string())
            .collect();
        if named != rows {
            diffs.push(format!(
                "case {}: codex names {named:?}, list --agent codex has {rows:?}",
                case.root.display()
            ));
        }
    }
    say(&format!(
        "oracles: codex {}: {CODEX_CASES} generated homes, {skills} skill folders, {} differences ({:.1}s)",
        npm::CODEX.1,
        diffs.len(),
        started.elapsed().as_secs_f64()
    ));
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
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
fn skills_block(stdout: &[u8]) -> Option<String> {
    let items: Vec<Value> = serde_json::from_slice(stdout).ok()?;
    items
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["text"].as_str().map(str::to_string))
        .find(|t| t.starts_with("<skills_instructions>"))
}

/// The dirs OpenCode 1.18.33 reads.
const OPENCODE_DIRS: &[&str] = &[
    "C/.opencode/skills",
    "R/.opencode/skills",
    "R/.agents/skills",
    "C/.claude/skills",
    "~/.config/opencode/skills",
    "~/.agents/skills",
    "~/.claude/skills",
];

const OPENCODE_CASES: u64 = 5;

#[test]
fn opencode_debug_skill_equals_list_agent_opencode() {
    let _serial = one_at_a_time();
    let Some(pkg) = installed(npm::OPENCODE) else {
        return;
    };
    let opencode = npm::bin(&pkg, "opencode");
    let tmp = workdir();
    let base = tmp.path().canonicalize().unwrap();
    let started = Instant::now();
    let (mut skills, mut diffs) = (0, Vec::new());
    for i in 0..OPENCODE_CASES {
        let case = homes::generate(&base, seed() * 1000 + 500 + i, OPENCODE_DIRS, 16);
        skills += case.skills;
        let mut cmd = env_cmd(&opencode, &case, &[]);
        cmd.args(["debug", "skill", "--pure"]);
        let out = run(cmd);
        assert!(
            out.status.success(),
            "opencode debug skill: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Vec<Value> = serde_json::from_slice(&out.stdout).expect("opencode JSON");
        let rows: Vec<Value> = {
            let out = skilltui(&case, &[], &["list", "--agent", "opencode", "--json"]);
            serde_json::from_str(&out).unwrap()
        };
        diffs.extend(
            opencode_diffs(&theirs, &rows)
                .into_iter()
                .map(|d| format!("case {}: {d}", case.root.display())),
        );
    }
    say(&format!(
        "oracles: opencode {}: {OPENCODE_CASES} generated homes, {skills} skill folders, {} differences ({:.1}s)",
        npm::OPENCODE.1,
        diffs.len(),
        started.elapsed().as_secs_f64()
    ));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// One line per difference between what OpenCode loaded and skilltui's
/// rows: each name it loads must be skilltui's `ok` copy of that name, or a
/// copy skilltui marks `may_win` (OpenCode loads dirs concurrently); each
/// `ok` name of skilltui must be loaded.
fn opencode_diffs(theirs: &[Value], rows: &[Value]) -> Vec<String> {
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

/// The dirs Gemini CLI reads (workspace trusted).
const GEMINI_DIRS: &[&str] = &[
    "C/.agents/skills",
    "C/.gemini/skills",
    "~/.agents/skills",
    "~/.gemini/skills",
];

const GEMINI_CASES: u64 = 8;

#[test]
fn gemini_cli_core_skills_equal_list_and_catalog_agent_gemini() {
    let _serial = one_at_a_time();
    let Some(pkg) = installed(npm::GEMINI) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/gemini_skills.mjs");
    let tmp = workdir();
    let base = tmp.path().canonicalize().unwrap();
    let started = Instant::now();
    let (mut skills, mut diffs, mut reordered) = (0, Vec::new(), 0);
    for i in 0..GEMINI_CASES {
        let case = homes::generate(&base, seed() * 1000 + 700 + i, GEMINI_DIRS, 16);
        skills += case.skills;
        // Even cases move the home's skill dirs under GEMINI_CLI_HOME.
        let alt = case.root.join("gemini-home");
        let moved = i % 2 == 0;
        if moved {
            std::fs::create_dir_all(&alt).unwrap();
            for d in [".gemini", ".agents"] {
                if case.home.join(d).exists() {
                    std::fs::rename(case.home.join(d), alt.join(d)).unwrap();
                }
            }
        }
        let extra: Vec<(&str, &Path)> = if moved {
            vec![("GEMINI_CLI_HOME", alt.as_path())]
        } else {
            Vec::new()
        };
        let mut cmd = env_cmd(Path::new("node"), &case, &extra);
        cmd.arg(&script).arg(&pkg);
        let out = run(cmd);
        assert!(
            out.status.success(),
            "node gemini_skills.mjs: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "gemini_skills.mjs printed no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let builtin = theirs["builtin"].as_str().unwrap_or_default().to_string();
        let as_ours = |s: &str| s.replace(&builtin, "<built-in>");
        let prompt = dir_runs_sorted(&as_ours(theirs["prompt"].as_str().unwrap_or_default()));
        let ours = skilltui(&case, &extra, &["catalog", "--agent", "gemini-cli"]);
        let ours = dir_runs_sorted(ours.strip_suffix('\n').unwrap_or(&ours));
        if prompt != ours {
            // Gemini puts each name where it was first loaded, inside a dir
            // in its file search's order: with a link or a clash in a dir,
            // that place is the file system's choice. The entries must
            // still be the same.
            if entries_sorted(&prompt) == entries_sorted(&ours) {
                reordered += 1;
            } else {
                diffs.push(format!(
                    "case {}: catalog differs\n--- gemini-cli-core\n{prompt}\n--- skilltui\n{ours}",
                    case.root.display()
                ));
            }
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
        let rows: BTreeSet<(String, String, String)> = listed(&case, &extra, "gemini-cli")
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
            diffs.push(format!(
                "case {}: gemini loads {:?}\nskilltui ok rows {:?}",
                case.root.display(),
                loaded.difference(&rows).collect::<Vec<_>>(),
                rows.difference(&loaded).collect::<Vec<_>>()
            ));
        }
    }
    say(&format!(
        "oracles: gemini-cli-core {}: {GEMINI_CASES} generated homes, {skills} skill folders, {} differences, {reordered} catalogs equal up to the file system's order ({:.1}s)",
        npm::GEMINI.1,
        diffs.len(),
        started.elapsed().as_secs_f64()
    ));
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
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

/// `agents --verify` runs the real Codex and OpenCode found on PATH: on a
/// generated home they agree with skilltui; behind a PATH wrapper that
/// edits Codex's answer (a skill root moved), the edited line is reported
/// as one line each side, with the version.
#[test]
fn agents_verify_reports_agreement_and_a_planted_difference() {
    let _serial = one_at_a_time();
    let (Some(codex), Some(opencode)) = (installed(npm::CODEX), installed(npm::OPENCODE)) else {
        return;
    };
    let tmp = workdir();
    let base = tmp.path().canonicalize().unwrap();
    let case = homes::generate(
        &base,
        seed() * 1000 + 900,
        &["C/.agents/skills", "~/.agents/skills"],
        8,
    );
    let codex_home = case.home.join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(npm::bin(&codex, "codex"), bin.join("codex")).unwrap();
    std::os::unix::fs::symlink(npm::bin(&opencode, "opencode"), bin.join("opencode")).unwrap();
    let path = std::ffi::OsString::from(format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display()));
    let extra = [
        ("CODEX_HOME", codex_home.as_path()),
        ("PATH", Path::new(&path)),
    ];
    let out = skilltui(&case, &extra, &["agents", "--verify"]);
    assert!(
        out.contains("codex (codex-cli 0.169.0): agrees with skilltui"),
        "{out}"
    );
    assert!(
        out.contains("opencode (1.18.33): agrees with skilltui"),
        "{out}"
    );

    // The planted difference: the first skill root Codex names is moved
    // (sed edits the first match of the one-line JSON).
    let wrapped = base.join("wrapped");
    std::fs::create_dir_all(&wrapped).unwrap();
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = debug ]; then \"{}\" \"$@\" | sed 's/` = `/` = `\\/planted/'; else exec \"{}\" \"$@\"; fi\n",
        npm::bin(&codex, "codex").display(),
        npm::bin(&codex, "codex").display()
    );
    std::fs::write(wrapped.join("codex"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        wrapped.join("codex"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let path = std::ffi::OsString::from(format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        wrapped.display()
    ));
    let extra = [
        ("CODEX_HOME", codex_home.as_path()),
        ("PATH", Path::new(&path)),
    ];
    let out = skilltui(&case, &extra, &["agents", "--verify", "codex"]);
    let planted: Vec<&str> = out.lines().filter(|l| l.contains("/planted/")).collect();
    assert_eq!(planted.len(), 1, "{out}");
    assert!(
        planted[0].starts_with("  codex shows:    - `r0` = `/planted/"),
        "{out}"
    );
    assert!(
        out.starts_with("codex (codex-cli 0.169.0): 2 differences\n"),
        "{out}"
    );
    assert!(out.contains("  skilltui shows: - `r0` = `/"), "{out}");
}
