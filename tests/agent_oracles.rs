//! The real agents as oracles: pinned Codex, OpenCode, Gemini CLI and
//! Copilot CLI from npm (see `oracles/npm.rs` for the versions) are asked
//! what skills they load on generated homes full of traps (`oracles/fuzz/homes.rs`), and
//! skilltui must give the same answer, byte for byte where the agent prints
//! text. This is a small fixed sample of the differential fuzzer
//! (`oracles/fuzz/`), which `cargo bench --bench agent_fuzz` runs at
//! thousands of cases.
//!
//! Needs npm and the registry the first time (the packages are cached under
//! the target dir); without them each test prints why and skips.
//! `SKILLTUI_ORACLE_SEED` moves the seed (default 1),
//! `SKILLTUI_ORACLE_KEEP=1` keeps the homes.

#[path = "oracles/fuzz/mod.rs"]
mod fuzz;
#[path = "oracles/npm.rs"]
mod npm;

use std::path::{Path, PathBuf};
use std::time::Instant;

use fuzz::{Env, Oracle, exec, homes};

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
/// time, and several of them at once on 2 cores would only race each other.
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

/// Runs `cases` seeds of `oracle` from `first`, and fails with every
/// difference found.
fn sample(pkg: (&str, &str), oracle: &dyn Oracle, first: u64, cases: u64) {
    let _serial = one_at_a_time();
    let Some(package) = installed(pkg) else {
        return;
    };
    let tmp = workdir();
    let env = Env {
        skilltui: PathBuf::from(env!("CARGO_BIN_EXE_skilltui")),
        package,
        base: tmp.path().canonicalize().unwrap(),
    };
    let started = Instant::now();
    let sum = fuzz::campaign(oracle, &env, first, cases, 1, true);
    say(&sum.line(oracle, started.elapsed().as_secs_f64()));
    assert!(
        sum.failed.is_empty() && sum.errors.is_empty(),
        "{}",
        sum.report(usize::MAX)
    );
}

#[test]
fn codex_prompt_input_skills_block_equals_catalog_agent_codex() {
    let codex = fuzz::codex::Codex {
        version: npm::CODEX.1,
        skills: 18,
    };
    sample(npm::CODEX, &codex, seed() * 1000, 12);
}

#[test]
fn opencode_debug_skill_equals_list_agent_opencode() {
    let opencode = fuzz::opencode::OpenCode {
        version: npm::OPENCODE.1,
        skills: 16,
    };
    sample(npm::OPENCODE, &opencode, seed() * 1000 + 500, 5);
}

#[test]
fn gemini_cli_core_skills_equal_list_and_catalog_agent_gemini() {
    let gemini = fuzz::gemini::Gemini {
        version: npm::GEMINI.1,
        skills: 16,
    };
    sample(npm::GEMINI, &gemini, seed() * 1000 + 700, 8);
}

#[test]
fn copilot_skill_list_equals_list_agent_github_copilot() {
    let copilot = fuzz::copilot::Copilot::new(npm::COPILOT.1, 16);
    sample(npm::COPILOT, &copilot, seed() * 1000 + 300, 6);
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
    let out = exec::skilltui(
        Path::new(env!("CARGO_BIN_EXE_skilltui")),
        &case,
        &extra,
        &["agents", "--verify"],
    )
    .unwrap();
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
    let out = exec::skilltui(
        Path::new(env!("CARGO_BIN_EXE_skilltui")),
        &case,
        &extra,
        &["agents", "--verify", "codex"],
    )
    .unwrap();
    // One root line whose text differs: one word diff, never the same
    // line shown twice.
    let planted: Vec<&str> = out.lines().filter(|l| l.contains("/planted/")).collect();
    assert_eq!(planted.len(), 1, "{out}");
    assert!(
        planted[0].starts_with("  text: - `r0` = [-`/planted/"),
        "{out}"
    );
    assert!(planted[0].contains("-]{+`/"), "{out}");
    assert!(
        out.starts_with("codex (codex-cli 0.169.0): 1 difference\n"),
        "{out}"
    );
}

/// `agents --verify github-copilot` runs the real Copilot CLI: on a
/// generated home it agrees; behind a PATH wrapper that swaps its first
/// two skills, adds a word to the third's description, drops the last
/// and adds one skilltui never saw, each is one line saying which.
#[test]
fn agents_verify_copilot_names_missing_extra_order_and_text() {
    let _serial = one_at_a_time();
    let Some(copilot) = installed(npm::COPILOT) else {
        return;
    };
    let tmp = workdir();
    let base = tmp.path().canonicalize().unwrap();
    let case = homes::generate(
        &base,
        seed() * 1000 + 950,
        &["C/.github/skills", "~/.copilot/skills"],
        8,
    );
    let real = npm::bin(&copilot, "copilot");
    let cache = base.join("cache");
    let verify = |dir: &Path| {
        let path =
            std::ffi::OsString::from(format!("{}:/usr/local/bin:/usr/bin:/bin", dir.display()));
        let extra = [
            ("XDG_CACHE_HOME", cache.as_path()),
            ("PATH", Path::new(&path)),
        ];
        exec::skilltui(
            Path::new(env!("CARGO_BIN_EXE_skilltui")),
            &case,
            &extra,
            &["agents", "--verify", "github-copilot"],
        )
        .unwrap()
    };
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(&real, bin.join("copilot")).unwrap();
    let out = verify(&bin);
    assert_eq!(
        out, "github-copilot (GitHub Copilot CLI 1.0.102.): agrees with skilltui\n",
        "{out}"
    );

    let wrapped = base.join("wrapped");
    std::fs::create_dir_all(&wrapped).unwrap();
    let edit = "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{\
        const a=JSON.parse(s);[a[0],a[1]]=[a[1],a[0]];a[2].description+=' planted';\
        a.pop();a.push({name:'ghost',description:'boo',source:'project',path:'/nowhere/ghost'});\
        console.log(JSON.stringify(a))})";
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = skill ]; then \"{0}\" \"$@\" | node -e \"{edit}\"; else exec \"{0}\" \"$@\"; fi\n",
        real.display()
    );
    std::fs::write(wrapped.join("copilot"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        wrapped.join("copilot"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let out = verify(&wrapped);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "github-copilot (GitHub Copilot CLI 1.0.102.): 4 differences",
        "{out}"
    );
    let kinds: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.trim_start().split(':').next().unwrap())
        .collect();
    assert_eq!(kinds, ["missing", "text", "extra", "order"], "{out}");
    assert!(lines[1].contains("github-pr-media: "), "{out}");
    assert!(lines[2].contains("[-planted"), "{out}");
    assert!(lines[3].contains("ghost: boo (/nowhere/ghost)"), "{out}");
    assert!(lines[4].ends_with("; skilltui shows it after"), "{out}");
}
