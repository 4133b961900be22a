//! Plugin-owned skills, skilltui against the real CAO 2.5.4 with
//! `CAO_AGENT_PLUGINS_ENABLED=1`: a local plugin is installed by CAO itself
//! (`cao plugin add DIR`), which projects its skills into the store as
//! links or marked copies; then skilltui and CAO answer the same
//! questions on the same home: who owns each skill, does `remove` refuse,
//! does `add --force` take the name over and write the record as CAO does.

#[path = "common/venv.rs"]
mod venv;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skilltui::core::cao::store::{self, Home};

fn venv_bin() -> Option<PathBuf> {
    if std::env::var("SKILLTUI_SKIP_PARITY").as_deref() == Ok("1") {
        eprintln!("cao_plugins: SKIPPED (SKILLTUI_SKIP_PARITY=1)");
        return None;
    }
    let python = venv::find_python3().expect("python3 (>= 3.10) builds the CAO venv");
    Some(venv::ensure_venv(&python).parent()?.to_path_buf())
}

fn skill(dir: &Path, name: &str, desc: &str) {
    fs::create_dir_all(dir.join(name)).unwrap();
    let text = format!("---\nname: {name}\ndescription: {desc}\n---\nBody of {name}.\n");
    fs::write(dir.join(name).join("SKILL.md"), text).unwrap();
}

struct World {
    tmp: tempfile::TempDir,
    bin: PathBuf,
}

impl World {
    fn new(bin: PathBuf) -> World {
        let w = World {
            tmp: tempfile::tempdir().unwrap(),
            bin,
        };
        // The plugin: two skills, one named as a skill CAO bundles.
        let plug = w.tmp.path().join("plug");
        skill(&plug.join("skills"), "alpha", "Alpha from the plugin");
        skill(&plug.join("skills"), "beta", "Beta from the plugin");
        // Nested folders, for the digest a copy's marker holds.
        fs::create_dir_all(plug.join("skills/alpha/refs/deep")).unwrap();
        fs::write(plug.join("skills/alpha/refs/a.md"), "a").unwrap();
        fs::write(plug.join("skills/alpha/refs/deep/b.md"), "bb").unwrap();
        fs::write(plug.join("skills/alpha/.hidden"), "h").unwrap();
        fs::write(
            plug.join("plugin.json"),
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo", "version": "1.0.0"}"#,
        )
        .unwrap();
        // The user's own alpha, to add with --force.
        skill(&w.tmp.path().join("mine"), "alpha", "My own alpha");
        fs::create_dir_all(w.tmp.path().join("user")).unwrap();
        w
    }

    /// A home where CAO installed the plugin, projected `mode`
    /// (`symlink` or `copy`), beside a skill of the user's.
    fn home(&self, label: &str, mode: &str) -> Home {
        let root = self.tmp.path().join(label);
        fs::create_dir_all(&root).unwrap();
        let settings = format!(r#"{{"skills": {{"projection_mode": "{mode}"}}}}"#);
        fs::write(root.join("settings.json"), settings).unwrap();
        skill(&root.join("skills"), "users", "The user's own");
        let plug = self.tmp.path().join("plug");
        let out = self.cao(&root, &["plugin", "add", plug.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out));
        Home::at(root, self.tmp.path().join("user"))
    }

    fn cao(&self, root: &Path, args: &[&str]) -> Output {
        Command::new(self.bin.join("cao"))
            .args(args)
            .env("CAO_HOME_DIR", root)
            .env("HOME", self.tmp.path().join("user"))
            .env("CAO_AGENT_PLUGINS_ENABLED", "1")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .unwrap()
    }

    /// CAO's `projection_owner` for every entry of the store.
    fn cao_owners(&self, root: &Path) -> BTreeMap<String, String> {
        let script = r#"
import json
from cli_agent_orchestrator.constants import SKILLS_DIR
from cli_agent_orchestrator.agent_plugins.projection import projection_owner
out = {}
for p in sorted(SKILLS_DIR.iterdir()):
    if p.name.startswith("."):
        continue
    owner = projection_owner(p.name, skills_dir=SKILLS_DIR)
    if owner is not None:
        out[p.name] = owner
print(json.dumps(out))
"#;
        let out = Command::new(self.bin.join("python"))
            .args(["-c", script])
            .env("CAO_HOME_DIR", root)
            .env("HOME", self.tmp.path().join("user"))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// The record as CAO's store reads it and would write it back.
    fn cao_record_json(&self, root: &Path) -> String {
        let script = r#"
from cli_agent_orchestrator.agent_plugins.store import InstalledPluginStore
print(InstalledPluginStore().get("demo").to_json(), end="")
"#;
        let out = Command::new(self.bin.join("python"))
            .args(["-c", script])
            .env("CAO_HOME_DIR", root)
            .env("HOME", self.tmp.path().join("user"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8(out.stdout).unwrap()
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ours(home: &Home) -> BTreeMap<String, String> {
    let listing = store::list(home, false);
    let owned = listing.entries.iter().filter_map(|e| {
        let plugin = listing.plugin(e)?;
        Some((e.folder.clone(), plugin.to_string()))
    });
    owned.collect()
}

fn demo(names: &[&str]) -> BTreeMap<String, String> {
    names
        .iter()
        .map(|n| (n.to_string(), "demo".to_string()))
        .collect()
}

#[test]
fn the_listing_marks_what_cao_says_a_plugin_owns_in_both_modes() {
    let Some(bin) = venv_bin() else { return };
    let w = World::new(bin);
    for mode in ["symlink", "copy"] {
        let home = w.home(mode, mode);
        let alpha = home.skills_dir().join("alpha");
        let linked = fs::symlink_metadata(&alpha)
            .unwrap()
            .file_type()
            .is_symlink();
        assert_eq!(linked, mode == "symlink", "{mode}");
        assert_eq!(ours(&home), demo(&["alpha", "beta"]), "{mode}");
        assert_eq!(w.cao_owners(&home.root), demo(&["alpha", "beta"]), "{mode}");
    }
    // Copies edited in place, or a marker moved to another name, are no
    // longer the plugin's; a dangling link is nobody's; a corrupt record
    // leaves only what the disk proves.
    let home = w.home("edited", "copy");
    let skills = home.skills_dir();
    fs::write(skills.join("alpha/extra.md"), "mine now").unwrap();
    fs::create_dir_all(skills.join("gamma")).unwrap();
    fs::copy(skills.join("beta/SKILL.md"), skills.join("gamma/SKILL.md")).unwrap();
    fs::copy(
        skills.join("beta/.cao-projection.json"),
        skills.join("gamma/.cao-projection.json"),
    )
    .unwrap();
    assert_eq!(ours(&home), demo(&["beta"]));
    assert_eq!(w.cao_owners(&home.root), demo(&["beta"]));
    let home = w.home("corrupt", "symlink");
    let record = home.root.join("agent-plugins/.state/demo.json");
    fs::write(&record, "{ not json").unwrap();
    std::os::unix::fs::symlink(
        home.root.join("agent-plugins/demo/skills/gone"),
        home.skills_dir().join("gone"),
    )
    .unwrap();
    assert_eq!(ours(&home), demo(&["alpha", "beta"]));
    assert_eq!(w.cao_owners(&home.root), demo(&["alpha", "beta"]));
}

#[test]
fn remove_refuses_a_plugins_skill_as_cao_does() {
    let Some(bin) = venv_bin() else { return };
    let w = World::new(bin);
    for mode in ["symlink", "copy"] {
        let home = w.home(mode, mode);
        let e = store::remove(&home, "alpha").unwrap_err();
        assert!(e.contains("agent plugin 'demo'"), "{e}");
        let out = w.cao(&home.root, &["skills", "remove", "alpha"]);
        assert!(!out.status.success());
        assert!(
            text(&out).contains("is provided by agent plugin 'demo'"),
            "{}",
            text(&out)
        );
        assert!(home.skills_dir().join("alpha/SKILL.md").is_file());
        // The user's own skill goes, for both.
        store::remove(&home, "users").unwrap();
        skill(&home.skills_dir(), "users", "again");
        let out = w.cao(&home.root, &["skills", "remove", "users"]);
        assert!(out.status.success(), "{}", text(&out));
    }
}

/// `add --force` over a plugin's skill: the plugin's record gives up the
/// name (written as CAO writes records), the user's folder replaces the
/// projection, and from then on the name is the user's for both.
#[test]
fn add_force_takes_the_name_over_as_cao_does() {
    let Some(bin) = venv_bin() else { return };
    let w = World::new(bin);
    let mine = w.tmp.path().join("mine/alpha");
    for mode in ["symlink", "copy"] {
        let ours_home = w.home(&format!("ours-{mode}"), mode);
        let cao_home = w.home(&format!("cao-{mode}"), mode);
        let added = store::add(&ours_home, &mine, true).unwrap();
        assert_eq!(added.released.as_deref(), Some("demo"));
        let out = w.cao(
            &cao_home.root,
            &["skills", "add", mine.to_str().unwrap(), "--force"],
        );
        assert!(
            text(&out).contains("was provided by agent plugin 'demo'"),
            "{}",
            text(&out)
        );
        for home in [&ours_home, &cao_home] {
            let alpha = home.skills_dir().join("alpha");
            assert!(fs::symlink_metadata(&alpha).unwrap().is_dir(), "{mode}");
            assert!(!alpha.join(".cao-projection.json").exists());
            let record = home.root.join("agent-plugins/.state/demo.json");
            let record: serde_json::Value =
                serde_json::from_slice(&fs::read(record).unwrap()).unwrap();
            assert_eq!(record["projected_skill_names"], serde_json::json!(["beta"]));
            assert_eq!(ours(home), demo(&["beta"]), "{mode}");
            assert_eq!(w.cao_owners(&home.root), demo(&["beta"]), "{mode}");
        }
        // Byte for byte what CAO's store writes for that record.
        let written =
            fs::read_to_string(ours_home.root.join("agent-plugins/.state/demo.json")).unwrap();
        assert_eq!(written, w.cao_record_json(&ours_home.root));
        // A second --force finds no claim to give up.
        assert_eq!(store::add(&ours_home, &mine, true).unwrap().released, None);
        // Now the user's: both remove it.
        store::remove(&ours_home, "alpha").unwrap();
        let out = w.cao(&cao_home.root, &["skills", "remove", "alpha"]);
        assert!(out.status.success(), "{}", text(&out));
    }
}

/// While a plugin operation holds CAO's lifecycle lock, `add --force`
/// waits for it (CAO waits 60 s, then refuses); plain `add` of a new
/// name does not take it.
#[test]
fn add_force_waits_for_caos_plugin_lock() {
    let Some(bin) = venv_bin() else { return };
    let w = World::new(bin);
    let home = w.home("locked", "symlink");
    // The holder keeps CAO's lock until the test says "go" on its stdin,
    // then rewrites the plugin's record as a rebuild does: no sleeps, so the
    // order is the same on a loaded machine.
    let hold = r#"
import sys
from cli_agent_orchestrator.agent_plugins.store import InstalledPluginStore
with InstalledPluginStore().lifecycle_lock(120):
    print("held", flush=True)
    sys.stdin.readline()
    s = InstalledPluginStore()
    s.update_projected_names("demo", ("alpha", "beta"))
    print("done", flush=True)
"#;
    let mut holder = Command::new(w.bin.join("python"))
        .args(["-c", hold])
        .env("CAO_HOME_DIR", &home.root)
        .env("HOME", w.tmp.path().join("user"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.as_mut().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "held");
    // A new name takes no lock: it finishes while the holder still holds it
    // (were it to wait, it would wait for ever; the bound only ends the test).
    skill(&w.tmp.path().join("new"), "delta", "New");
    let (tx, rx) = std::sync::mpsc::channel();
    let (h, new) = (home.clone(), w.tmp.path().join("new/delta"));
    std::thread::spawn(move || tx.send(store::add(&h, &new, false).map(|_| ())));
    let added_new = rx.recv_timeout(std::time::Duration::from_secs(300));
    assert!(
        matches!(added_new, Ok(Ok(()))),
        "a new name does not wait for the plugin lock: {added_new:?}"
    );
    // Taking a plugin's name over waits for the lock; the holder's write
    // lands first, so the release is the last word.
    let (h, mine) = (home.clone(), w.tmp.path().join("mine/alpha"));
    let force = std::thread::spawn(move || store::add(&h, &mine, true));
    // Time for it to reach the lock, so that one taking none would write
    // before the holder and lose; a slow start only makes the check weaker.
    std::thread::sleep(std::time::Duration::from_millis(500));
    std::io::Write::write_all(holder.stdin.as_mut().unwrap(), b"go\n").unwrap();
    assert!(holder.wait().unwrap().success());
    let added = force.join().unwrap().unwrap();
    assert_eq!(added.released.as_deref(), Some("demo"));
    let record = home.root.join("agent-plugins/.state/demo.json");
    let record: serde_json::Value = serde_json::from_slice(&fs::read(record).unwrap()).unwrap();
    assert_eq!(record["projected_skill_names"], serde_json::json!(["beta"]));
    assert_eq!(ours(&home), demo(&["beta"]));
}

/// The CLI says it too: `list` marks the plugin's skills, `remove` refuses
/// with one line, `add --force` prints CAO's notice.
#[test]
fn the_cli_marks_refuses_and_takes_over_as_cao_says() {
    let Some(bin) = venv_bin() else { return };
    let w = World::new(bin);
    let home = w.home("cli", "symlink");
    let skilltui = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .args(args)
            .arg("--home")
            .arg(&home.root)
            .env("HOME", w.tmp.path().join("user"))
            .env("SKILLTUI_CAO", w.bin.join("cao"))
            .output()
            .unwrap()
    };
    let list = text(&skilltui(&["list"]));
    let row = |name: &str| {
        list.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("alpha").ends_with("[plugin: demo]"), "{list}");
    assert!(!row("users").contains("plugin"), "{list}");
    let out = skilltui(&["remove", "alpha"]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(said.contains("agent plugin 'demo'"), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    let mine = w.tmp.path().join("mine/alpha");
    let out = skilltui(&["add", mine.to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(
            "Skill 'alpha' was provided by agent plugin 'demo'; it is now user-owned and will win future collisions."
        ),
        "{}",
        text(&out)
    );
}
