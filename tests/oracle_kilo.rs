//! Kilo Code as its own oracle: `kilo debug skill` (offline; the JSON list
//! of the skills it loads, with their locations) of the pinned
//! `@kilocode/cli-linux-x64` against `skilltui list --agent kilo --json`'s
//! `ok` rows, on generated homes and projects: clashing copies in every
//! dir Kilo reads, dirs it does not read (`.opencode`), and odd
//! frontmatter (no name, no description, `description: has: colon`, a
//! numeric name, CRLF, an empty body).
//!
//! The binary (pinned in tests/oracles/npm.rs) is installed once with
//! `npm install`; without npm, or when the registry cannot be reached, the
//! test says so on stderr and skips. `SKILLTUI_KILO_HOMES` sets how many
//! homes are generated (default 8), `SKILLTUI_KILO_SEED` the seed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

#[allow(dead_code)]
#[path = "oracles/npm.rs"]
mod npm;

const RUN_TIMEOUT: Duration = Duration::from_secs(90);

/// The dirs Kilo was seen to read, as `(base, rest)`: base `h` is the
/// home, `p` the project.
const READ: [(&str, &str); 11] = [
    ("h", ".kilo/skills"),
    ("h", ".kilocode/skills"),
    ("p", ".kilo/skill"),
    ("p", ".kilo/skills"),
    ("p", ".kilocode/skills"),
    ("h", ".config/kilo/skills"),
    ("h", ".config/kilo/skill"),
    ("p", ".agents/skills"),
    ("p", ".claude/skills"),
    ("h", ".agents/skills"),
    ("h", ".claude/skills"),
];
/// Dirs it does not read (OpenCode's).
const NOT_READ: [(&str, &str); 2] = [("p", ".opencode/skills"), ("h", ".config/opencode/skills")];

/// The Kilo binary, installed on first use; `None` (said on stderr) when
/// npm or the registry is not there.
fn kilo_binary() -> Option<PathBuf> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        eprintln!("oracle_kilo: SKIPPED: the pinned build is linux-x64 only");
        return None;
    }
    match npm::ensure(npm::KILO) {
        Ok(root) => Some(root.join("node_modules/@kilocode/cli-linux-x64/bin/kilo")),
        Err(why) => {
            eprintln!("oracle_kilo: SKIPPED: {why}");
            None
        }
    }
}

/// A small deterministic generator (the homes are the same on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// One SKILL.md, by trap.
fn skill_md(trap: u64, name: &str, tag: &str) -> String {
    match trap {
        0 => format!("---\nname: {name}\ndescription: from {tag}\n---\nbody\n"),
        1 => format!("---\nname: {name}\n---\nno description\n"),
        2 => format!("---\nname: {name}\ndescription: has: colon {tag}\n---\nbody\n"),
        3 => format!("---\ndescription: no name {tag}\n---\nbody\n"),
        4 => "---\nname: 123\ndescription: numeric\n---\nbody\n".to_string(),
        5 => format!("---\r\nname: {name}\r\ndescription: crlf {tag}\r\n---\r\nbody\r\n"),
        _ => format!("---\nname: {name}\ndescription: empty body {tag}\n---\n"),
    }
}

struct Home {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    proj: PathBuf,
}

fn generate(rng: &mut Lcg) -> Home {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let proj = tmp.path().join("proj");
    fs::create_dir_all(proj.join(".git")).unwrap();
    fs::create_dir_all(&home).unwrap();
    for (i, (base, rest)) in READ.iter().chain(NOT_READ.iter()).enumerate() {
        let root = if *base == "h" { &home } else { &proj };
        for name in ["alpha", "beta", "gamma"] {
            if rng.next(10) < 4 {
                let trap = if rng.next(3) == 0 { rng.next(7) } else { 0 };
                let dir = root.join(rest).join(format!("{name}-{i}"));
                fs::create_dir_all(&dir).unwrap();
                fs::write(dir.join("SKILL.md"), skill_md(trap, name, &i.to_string())).unwrap();
            }
        }
    }
    Home {
        _tmp: tmp,
        home,
        proj,
    }
}

fn env_of<'a>(cmd: &'a mut Command, h: &Home) -> &'a mut Command {
    let home = &h.home;
    cmd.current_dir(&h.proj)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
}

/// Runs a command to its end, bounded in time.
fn output(cmd: &mut Command) -> String {
    let mut child = cmd.spawn().expect("runs");
    let start = Instant::now();
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > RUN_TIMEOUT {
            let _ = child.kill();
            panic!("oracle_kilo: {cmd:?} ran over {RUN_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

type Row = (String, String, Option<String>);

fn kilo_rows(bin: &Path, h: &Home) -> BTreeSet<Row> {
    let text = output(env_of(Command::new(bin).args(["debug", "skill"]), h));
    let v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("kilo debug skill is not JSON ({e}): {text}"));
    v.as_array()
        .unwrap()
        .iter()
        .filter(|s| s["location"] != "builtin")
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["location"].as_str().unwrap().to_string(),
                s["description"].as_str().map(String::from),
            )
        })
        .collect()
}

fn skilltui_rows(h: &Home) -> BTreeSet<Row> {
    let cao = h.home.join("cao");
    let text = output(
        env_of(&mut Command::new(env!("CARGO_BIN_EXE_skilltui")), h)
            .arg("--home")
            .arg(&cao)
            .args(["list", "--agent", "kilo", "--json"]),
    );
    let v: Value = serde_json::from_str(&text).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "ok" && r["scope"] != "builtin")
        .map(|r| {
            let path = format!("{}/SKILL.md", r["path"].as_str().unwrap());
            let desc =
                (r["hidden"] != true).then(|| r["description"].as_str().unwrap().to_string());
            (r["name"].as_str().unwrap().to_string(), path, desc)
        })
        .collect()
}

/// The config dir a SKILL.md's skills dir sits in, `skill/` and `skills/`
/// alike (`.../.kilo/skill/x/SKILL.md` and `.../.kilo/skills/y/SKILL.md`
/// give `.../.kilo`).
fn config_dir(location: &str) -> Option<PathBuf> {
    let skills_dir = Path::new(location).parent()?.parent()?;
    let last = skills_dir.file_name()?.to_str()?;
    matches!(last, "skill" | "skills").then(|| skills_dir.parent().map(Path::to_path_buf))?
}

#[test]
fn kilo_loads_what_skilltui_says_kilo_loads() {
    let Some(bin) = kilo_binary() else {
        return;
    };
    let homes: u64 = std::env::var("SKILLTUI_KILO_HOMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let seed: u64 = std::env::var("SKILLTUI_KILO_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(21);
    let mut rng = Lcg(seed);
    let (mut skills, mut varied, mut differences) = (0, 0, Vec::new());
    for n in 0..homes {
        let h = generate(&mut rng);
        let theirs = kilo_rows(&bin, &h);
        let ours = skilltui_rows(&h);
        skills += theirs.len();
        let only_theirs: Vec<&Row> = theirs.difference(&ours).collect();
        let only_ours: Vec<&Row> = ours.difference(&theirs).collect();
        for row in &only_theirs {
            // Kilo loads a config dir's `skill/` and `skills/` concurrently:
            // which of two clashing copies there wins varies from run to
            // run (seen on one home: 1 run in 5 the other way). Both are
            // possible; skilltui names `skills/`'s.
            let tied = only_ours
                .iter()
                .any(|o| o.0 == row.0 && config_dir(&o.1) == config_dir(&row.1));
            if tied {
                varied += 1;
                continue;
            }
            differences.push(format!("home {n}: kilo only: {row:?}"));
        }
        for row in &only_ours {
            if !only_theirs
                .iter()
                .any(|t| t.0 == row.0 && config_dir(&t.1) == config_dir(&row.1))
            {
                differences.push(format!("home {n}: skilltui only: {row:?}"));
            }
        }
    }
    eprintln!(
        "oracle_kilo: {homes} homes, {skills} skills loaded by kilo, {varied} clashes between `skill/` and `skills/` (either copy possible), {} differences",
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// `skilltui agents --verify kilo` runs the installed Kilo from the working
/// directory and agrees; with a copy only skilltui expects planted (a
/// wrapper drops it from Kilo's answer), the difference is one line.
#[test]
fn agents_verify_runs_kilo_and_reports_a_planted_difference() {
    let Some(bin) = kilo_binary() else {
        return;
    };
    // A home with no copies of one name in a config dir's `skill/` and
    // `skills/` (Kilo orders those differently run to run).
    let tmp = tempfile::tempdir().unwrap();
    let h = Home {
        home: tmp.path().join("home"),
        proj: tmp.path().join("proj"),
        _tmp: tmp,
    };
    fs::create_dir_all(h.proj.join(".git")).unwrap();
    for (dir, name, trap) in [
        (h.home.join(".agents/skills"), "shared", 0),
        (h.proj.join(".agents/skills"), "shared", 2),
        (h.home.join(".kilo/skills"), "mine", 1),
        (h.proj.join(".kilo/skills"), "planted", 0),
    ] {
        let skill = dir.join(name);
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join("SKILL.md"), skill_md(trap, name, "v")).unwrap();
    }
    // A Kilo run once in this home first, as on a user's machine: its
    // first start sets up its state, which can take longer than the bound.
    kilo_rows(&bin, &h);
    // skilltui bounds Kilo in time (verify::TIMEOUT); a machine too loaded for that is
    // said, and the comparison is left to the other test.
    let run = |path_dir: &Path| -> Option<String> {
        let o = env_of(&mut Command::new(env!("CARGO_BIN_EXE_skilltui")), &h)
            .env("PATH", format!("{}:/usr/bin:/bin", path_dir.display()))
            .arg("--home")
            .arg(h.home.join("cao"))
            .args(["agents", "--verify", "kilo"])
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if err.contains("gave no answer in") {
            eprintln!("oracle_kilo: --verify INCONCLUSIVE here: {}", err.trim());
            return None;
        }
        Some(String::from_utf8_lossy(&o.stdout).into_owned() + &err)
    };
    let Some(out) = run(bin.parent().unwrap()) else {
        return;
    };
    assert!(out.contains("): agrees with skilltui"), "{out}");
    assert!(out.starts_with("kilo ("), "{out}");
    // A `kilo` that forgets the planted skill.
    let wrap = h.home.join("wrap");
    fs::create_dir_all(&wrap).unwrap();
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = debug ]; then\n  {} \"$@\" | python3 -c 'import json,sys; print(json.dumps([s for s in json.load(sys.stdin) if s[\"name\"] != \"planted\"]))'\nelse\n  exec {} \"$@\"\nfi\n",
        bin.display(),
        bin.display()
    );
    fs::write(wrap.join("kilo"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(wrap.join("kilo"), fs::Permissions::from_mode(0o755)).unwrap();
    let Some(out) = run(&wrap) else {
        return;
    };
    assert!(out.contains("): 1 difference\n"), "{out}");
    assert!(
        out.contains("skilltui expects planted from ") && out.contains("; kilo does not load it"),
        "{out}"
    );
}
