//! What each CAO provider's agent receives, against the real CAO 2.5.4.
//!
//! `tests/parity/gen_and_oracle.py --delivery N` generates homes with profiles over every
//! provider, none and invalid ones (`skills:` names, globs, `[]` and absent; bodies and
//! `prompt:`; `native_agent`; extra dirs; nested and invalid skills), installs agents with CAO's
//! own `install_agent` (what `cao install` runs) for Copilot, Kiro and OpenCode, stales the
//! Copilot files (a skill added or removed, a profile edited), then asks CAO's own functions
//! for every field of every (profile, provider) case, and lets CAO's
//! `refresh_all_cao_managed_agents` rewrite the Copilot files (then puts the stale ones back).
//! This test computes the same with skilltui's core and compares; then skilltui refreshes the
//! stale files and they must equal CAO's, byte for byte. A few cases go through the binary.
//!
//! Knobs (env): `SKILLTUI_DELIVERY_SEED` (default 1), `SKILLTUI_DELIVERY_COUNT` (default 60),
//! `SKILLTUI_SKIP_PARITY=1` (skip, loudly).

#[path = "common/venv.rs"]
mod venv;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use skilltui::core::cao::store;
use skilltui::core::cao::store::Home;
use skilltui::core::delivery::{checks, copilot, model};

fn oracle(root: &Path, seed: &str, count: usize) -> Option<Value> {
    if std::env::var("SKILLTUI_SKIP_PARITY").as_deref() == Ok("1") {
        eprintln!("cao_delivery: SKIPPED (SKILLTUI_SKIP_PARITY=1)");
        return None;
    }
    let python = venv::find_python3().expect("python3 (>= 3.10) builds the CAO venv");
    let py = venv::ensure_venv(&python);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parity/gen_and_oracle.py");
    let status = Command::new(py)
        .arg(script)
        .arg(root)
        .args(["--seed", seed, "--delivery", &count.to_string()])
        .env_remove("CAO_AGENTS_DIR")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUTF8", "1")
        .status()
        .expect("run gen_and_oracle.py --delivery");
    assert!(status.success(), "the delivery oracle failed: {status}");
    let text = std::fs::read_to_string(root.join("delivery.json")).expect("delivery.json");
    Some(serde_json::from_str(&text).expect("delivery.json parses"))
}

/// skilltui's answer in the oracle's shape.
fn ours(home: &Home, profile: &str, explicit: Option<&str>) -> Value {
    match model::for_profile(home, profile, explicit) {
        Err(_) => json!({"error": true}),
        Ok(d) => {
            let mut v = serde_json::to_value(&d).unwrap();
            let obj = v.as_object_mut().unwrap();
            for extra in ["profile", "reaches", "why"] {
                obj.remove(extra);
            }
            v
        }
    }
}

/// CAO's answer, with errors reduced to "it does not load".
fn theirs(cao: &Value) -> Value {
    if cao.get("error").is_some() {
        return json!({"error": true});
    }
    let mut v = cao.clone();
    // `managed` is reported for Copilot only.
    if let Some(Value::Object(i)) = v.get_mut("installed")
        && i.get("managed").is_some_and(Value::is_null)
    {
        i.remove("managed");
    }
    v
}

#[test]
fn delivery_matches_cao_on_generated_homes() {
    let seed = std::env::var("SKILLTUI_DELIVERY_SEED").unwrap_or_else(|_| "1".into());
    let count = std::env::var("SKILLTUI_DELIVERY_COUNT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(60);
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap().join("root");
    let Some(expected) = oracle(&root, &seed, count) else {
        return;
    };
    let homes = expected["homes"].as_array().unwrap();
    let (mut cases, mut files, mut diffs) = (0usize, 0usize, Vec::new());
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for h in homes {
        let home = Home::at(
            PathBuf::from(h["home"].as_str().unwrap()),
            PathBuf::from(h["fake_home"].as_str().unwrap()),
        );
        for c in h["cases"].as_array().unwrap() {
            let profile = c["profile"].as_str().unwrap();
            let explicit = c["explicit"].as_str();
            let (want, got) = (theirs(&c["cao"]), ours(&home, profile, explicit));
            cases += 1;
            let kind = want["delivery"].as_str().unwrap_or("error").to_string();
            *kinds.entry(kind).or_default() += 1;
            if want != got {
                diffs.push(format!(
                    "{} {profile} --provider {explicit:?}\n  cao:  {want}\n  ours: {got}",
                    h["id"]
                ));
            }
        }
        files += check_refresh(h, &home, &mut diffs);
    }
    eprintln!(
        "cao_delivery: {} homes, {cases} (profile, provider) cases {kinds:?}, {files} refreshed Copilot files compared, {} differences",
        homes.len(),
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{} differences with CAO:\n{}",
        diffs.len(),
        diffs
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(files > 0 && cases > 0, "the generator made no cases");
    check_cli(homes.iter().take(3), &mut diffs);
    check_doctor_on_kiro_and_opencode(homes, &mut diffs);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// skilltui's refresh of the stale files equals CAO's, byte for byte, and
/// it counts the same files as CAO-managed.
fn check_refresh(h: &Value, home: &Home, diffs: &mut Vec<String>) -> usize {
    let dir = copilot::agents_dir(home);
    let after = h["copilot_after"].as_object().unwrap();
    // Before: doctor names exactly the files CAO's refresh changes.
    let listing = store::list(home, false);
    let problems = checks::problems(home, &listing);
    for (name, text) in after {
        let path = dir.join(name);
        let stale = std::fs::read_to_string(&path).unwrap_or_default() != text.as_str().unwrap();
        let named = problems
            .iter()
            .any(|p| p.starts_with(&format!("Copilot agent {} is stale", path.display())));
        if stale != named {
            diffs.push(format!(
                "{} doctor on {name}: stale {stale}, named {named}",
                h["id"]
            ));
        }
    }
    let done = copilot::refresh(home);
    let managed: Vec<String> = done
        .managed
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let cao: Vec<String> = h["refreshed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    if managed != cao || done.stopped.is_some() {
        diffs.push(format!(
            "{} refresh: cao rewrote {cao:?}, ours managed {managed:?} (stopped: {:?})",
            h["id"], done.stopped
        ));
    }
    for (name, text) in after {
        let ours = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        if ours != text.as_str().unwrap() {
            diffs.push(format!(
                "{} {name} after refresh:\n  cao:  {text}\n  ours: {ours:?}",
                h["id"]
            ));
        }
    }
    after.len()
}

/// The binary says the same: `delivery --json`, and `catalog` prints the
/// catalog (or nothing, with one note on stderr).
fn check_cli<'a>(homes: impl Iterator<Item = &'a Value>, diffs: &mut Vec<String>) {
    for h in homes {
        for c in h["cases"].as_array().unwrap() {
            let cao = theirs(&c["cao"]);
            if cao.get("error").is_some() || !c["explicit"].is_null() {
                continue;
            }
            let profile = c["profile"].as_str().unwrap();
            let run = |args: &[&str]| {
                Command::new(env!("CARGO_BIN_EXE_skilltui"))
                    .args(args)
                    .arg("--home")
                    .arg(h["home"].as_str().unwrap())
                    .env("HOME", h["fake_home"].as_str().unwrap())
                    .env_remove("CAO_HOME_DIR")
                    .env_remove("CAO_AGENTS_DIR")
                    .output()
                    .unwrap()
            };
            let out = run(&["delivery", profile, "--json"]);
            let mut got: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            for extra in ["profile", "reaches", "why"] {
                got.as_object_mut().map(|o| o.remove(extra));
            }
            // The refresh above made the Copilot files fresh.
            let mut want = cao.clone();
            if want["delivery"] == "baked" && want["installed"]["stale"] == true {
                want["installed"]["stale"] = json!(false);
            }
            if got != want {
                diffs.push(format!(
                    "delivery {profile} --json:\n  cao:  {want}\n  ours: {got}"
                ));
            }
            let out = run(&["catalog", profile]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let ok = match cao["catalog"].as_str() {
                Some("") => stdout.is_empty(),
                Some(text) => stdout == format!("{text}\n"),
                None => stdout.is_empty() && stderr.lines().any(|l| l.starts_with("note: ")),
            };
            if !ok || !out.status.success() {
                diffs.push(format!(
                    "catalog {profile}: stdout {stdout:?} stderr {stderr:?}"
                ));
            }
            // `--prompt`: the prompt text skills are part of, or the
            // agent's own prompt where they come another way.
            let out = run(&["catalog", profile, "--prompt"]);
            let want = match cao["prompt"].as_str() {
                None | Some("") => String::new(),
                Some(text) => format!("{text}\n"),
            };
            if out.stdout != want.as_bytes() {
                diffs.push(format!(
                    "catalog {profile} --prompt: {:?}, cao {want:?}",
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
    }
}

#[test]
fn an_unknown_provider_is_a_usage_error_listing_caos() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in ["catalog", "delivery"] {
        let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .args([cmd, "p", "--provider", "Claude_Code", "--home"])
            .arg(tmp.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("kiro_cli, claude_code, codex"), "{err}");
    }
}

/// Every Kiro JSON and OpenCode link CAO made is fine (nothing named);
/// once changed behind CAO's back, each is named.
fn check_doctor_on_kiro_and_opencode(homes: &[Value], diffs: &mut Vec<String>) {
    let mut changed = 0;
    for h in homes {
        let home = Home::at(
            PathBuf::from(h["home"].as_str().unwrap()),
            PathBuf::from(h["fake_home"].as_str().unwrap()),
        );
        let listing = store::list(&home, false);
        // A profile for OpenCode that was never installed has no link yet:
        // doctor rightly says so.
        let installed_opencode = h["installs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i[1] == "opencode_cli" && i[2] == true);
        let mut before = checks::problems(&home, &listing);
        before.retain(|p| installed_opencode || !p.starts_with("OpenCode's skills link"));
        if !before.is_empty() {
            diffs.push(format!(
                "{} doctor after CAO's installs: {before:?}",
                h["id"]
            ));
        }
        let kiro = home.user_home.join(".kiro/agents");
        let mut want = Vec::new();
        for entry in std::fs::read_dir(&kiro).into_iter().flatten().flatten() {
            let mut json: Value =
                serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
            json["resources"].as_array_mut().unwrap().reverse();
            std::fs::write(entry.path(), serde_json::to_string_pretty(&json).unwrap()).unwrap();
            want.push(format!(
                "Kiro agent {} has resources",
                entry.path().display()
            ));
        }
        let link = model::opencode_link(&home);
        if std::fs::symlink_metadata(&link).is_ok() {
            std::fs::remove_file(&link).unwrap();
            want.push(format!("OpenCode's skills link {} missing", link.display()));
        }
        let after = checks::problems(&home, &listing);
        for w in &want {
            changed += 1;
            if !after.iter().any(|p| p.starts_with(w.as_str())) {
                diffs.push(format!("{} doctor does not say `{w}`: {after:?}", h["id"]));
            }
        }
    }
    assert!(changed > 0, "no Kiro or OpenCode install to change");
}

/// A Copilot file CAO installed follows every change skilltui makes (add,
/// profile enable, remove, init); a file CAO did not install is left alone.
#[test]
fn store_changes_keep_copilot_fresh_and_leave_other_files_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, user) = (tmp.path().join("home"), tmp.path().join("user"));
    let skill = |dir: &Path, name: &str| {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        let text = format!("---\nname: {name}\ndescription: The {name} skill\n---\nBody\n");
        std::fs::write(dir.join(name).join("SKILL.md"), text).unwrap();
    };
    skill(&root.join("skills"), "alpha");
    std::fs::create_dir_all(root.join("agent-store")).unwrap();
    std::fs::create_dir_all(root.join("agent-context")).unwrap();
    let profile = "---\nname: cop\ndescription: Copilot\nprovider: copilot_cli\nskills: []\n---\nYou are cop.\n";
    std::fs::write(root.join("agent-store/cop.md"), profile).unwrap();
    std::fs::write(root.join("agent-context/cop.md"), profile).unwrap();
    let home = Home::at(root.clone(), user.clone());
    let a = skilltui::core::delivery::agent::load(&home, "cop").unwrap();
    let file = copilot::file_for(&home, "cop");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let listing = store::list(&home, false);
    std::fs::write(&file, copilot::installed_text(&listing, &a).unwrap()).unwrap();
    let foreign = file.with_file_name("mine.agent.md");
    let foreign_text = "---\nname: mine\n---\n\nHand-made.";
    std::fs::write(&foreign, foreign_text).unwrap();

    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .args(args)
            .arg("--home")
            .arg(&root)
            .env("HOME", &user)
            .env_remove("CAO_AGENTS_DIR")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&file).unwrap()
    };
    let src = tmp.path().join("src");
    skill(&src, "beta");
    let text = run(&["add", src.join("beta").to_str().unwrap()]);
    assert!(text.ends_with("- **beta**: The beta skill"), "{text}");
    let text = run(&["profile", "enable", "cop", "beta"]);
    assert!(
        text.contains("- **alpha**") && text.contains("- **beta**"),
        "{text}"
    );
    let text = run(&["remove", "alpha"]);
    assert!(!text.contains("**alpha**"), "{text}");
    let d = model::for_profile(&home, "cop", None).unwrap();
    assert_eq!(d.installed.unwrap().stale, Some(false));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), foreign_text);
}
