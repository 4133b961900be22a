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
use skilltui::core::cao::store::Home;
use skilltui::core::delivery::{copilot, model};

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
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// skilltui's refresh of the stale files equals CAO's, byte for byte, and
/// it counts the same files as CAO-managed.
fn check_refresh(h: &Value, home: &Home, diffs: &mut Vec<String>) -> usize {
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
    let dir = copilot::agents_dir(home);
    let after = h["copilot_after"].as_object().unwrap();
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
