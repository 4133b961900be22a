//! Installed Codex plugins, from a seed: up to three plugins in two
//! marketplaces under `$CODEX_HOME/plugins/cache`, with one to three
//! versions each (semver, `local`, text), a manifest of either kind
//! (sometimes nameless, sometimes not JSON, sometimes with its own skills
//! paths, some invalid), one to three skills each, and `config.toml`
//! entries that enable, disable or forget them.

use std::fs;
use std::path::Path;

use super::super::homes::Rng;

const VERSIONS: &[&str] = &["1.0.0", "1.10.0", "1.9.0", "2.0.0-beta", "local", "abc"];

/// Writes the plugins; returns the `config.toml` lines that name them.
pub fn install(rng: &mut Rng, codex_home: &Path) -> String {
    let mut config = String::new();
    for i in 0..rng.below(4) {
        let market = *rng.pick(&["m1", "m2"]);
        let name = format!("p{i}");
        for _ in 0..1 + rng.below(3) {
            let root = codex_home
                .join("plugins/cache")
                .join(market)
                .join(&name)
                .join(rng.pick(VERSIONS));
            version(rng, &root, &name);
        }
        config.push_str(&match rng.below(4) {
            0 => format!("[plugins.\"{name}@{market}\"]\nenabled = false\n"),
            1 => format!("[plugins.\"{name}@{market}\"]\n"),
            2 if i > 0 => String::new(),
            _ => format!("[plugins.\"{name}@{market}\"]\nenabled = true\n"),
        });
    }
    config
}

/// One installed version: its manifest and skills.
fn version(rng: &mut Rng, root: &Path, name: &str) {
    let manifest_dir = rng.pick(&[".codex-plugin", ".codex-plugin", ".claude-plugin"]);
    let (manifest, dirs): (String, Vec<&str>) = match rng.below(6) {
        0 => ("{\"name\": \"  \"}".into(), vec!["skills"]),
        1 => ("not json".into(), vec!["skills"]),
        2 => (
            format!("{{\"name\": \"{name}\", \"skills\": [\"./extra\", \"./skills\"]}}"),
            vec!["extra", "skills"],
        ),
        3 => (
            format!("{{\"name\": \"{name}-x\", \"skills\": \"extra\"}}"),
            vec!["extra", "skills"],
        ),
        _ => (format!("{{\"name\": \"{name}\"}}"), vec!["skills"]),
    };
    fs::create_dir_all(root.join(manifest_dir)).unwrap();
    fs::write(root.join(manifest_dir).join("plugin.json"), manifest).unwrap();
    for dir in dirs {
        for k in 0..1 + rng.below(3) {
            let skill = match rng.below(5) {
                0 => root.join(dir),
                1 => root.join(dir).join("group").join(format!("s{k}")),
                _ => root.join(dir).join(format!("s{k}")),
            };
            fs::create_dir_all(&skill).unwrap();
            let skill_name = match rng.below(3) {
                0 => "shared-a".to_string(),
                _ => format!("{name}-{dir}-{k}"),
            };
            fs::write(
                skill.join("SKILL.md"),
                format!("---\nname: {skill_name}\ndescription: plugin skill {k} of {name}\n---\n"),
            )
            .unwrap();
        }
    }
}
