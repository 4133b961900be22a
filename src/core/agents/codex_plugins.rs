//! Codex's installed plugins that bundle skills (Codex 0.169.0): where
//! their skills are, the `plugin_name:` prefix of those skills' names, and
//! the short root a plugin skill's path is shown from. From openai/codex
//! codex-rs/core-plugins/src/store.rs (`plugins/cache`, the active
//! version), manifest.rs (the `skills` paths), utils/plugins
//! plugin_namespace.rs (the prefix) and core-skills/src/render.rs (the
//! roots table); each observed with `codex debug prompt-input`.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::core::fsops;

/// The manifests a plugin root may hold, the first present one read.
const MANIFESTS: [&str; 2] = [".codex-plugin/plugin.json", ".claude-plugin/plugin.json"];

/// Most bytes read of a `config.toml` or a `plugin.json`.
const MAX_FILE: u64 = 1 << 20;

/// Most plugins read from one `config.toml`.
const MAX_PLUGINS: usize = 256;

/// The skill roots of the plugins `$CODEX_HOME/config.toml` names, sorted
/// by path (Codex's root order): each `[plugins."NAME@MARKETPLACE"]` not
/// `enabled = false`, installed at `plugins/cache/MARKETPLACE/NAME/VERSION`
/// (`local` when present, else the highest version, semver where both
/// parse, else by text) with a manifest that is JSON; its `skills` paths
/// (`./`-relative strings), or `skills/` when it names none valid.
pub fn skill_roots(codex_home: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = enabled(codex_home)
        .into_iter()
        .take(MAX_PLUGINS)
        .filter_map(|(name, market)| {
            let base = codex_home.join("plugins/cache").join(market).join(name);
            let root = base.join(active_version(&base)?);
            let manifest = manifest(&root)?;
            Some(skill_paths(&root, &manifest))
        })
        .flatten()
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

/// `(plugin, marketplace)` of each plugin the config does not disable.
fn enabled(codex_home: &Path) -> Vec<(String, String)> {
    let Ok(bytes) = fsops::read_capped(&codex_home.join("config.toml"), MAX_FILE) else {
        return Vec::new();
    };
    let Some(doc) = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|t| toml::from_str::<toml::Table>(t).ok())
    else {
        return Vec::new();
    };
    let Some(plugins) = doc.get("plugins").and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    plugins
        .iter()
        .filter(|(_, v)| v.get("enabled").and_then(toml::Value::as_bool) != Some(false))
        .filter_map(|(id, _)| {
            let (name, market) = id.split_once('@')?;
            (segment(name) && segment(market)).then(|| (name.to_string(), market.to_string()))
        })
        .collect()
}

/// A name that stays one folder (store.rs `validate_plugin_version_segment`
/// for versions; the same letters for names here).
fn segment(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}

/// The version folder Codex uses (store.rs `active_plugin_version`).
fn active_version(base: &Path) -> Option<String> {
    let mut versions: Vec<String> = std::fs::read_dir(base)
        .ok()?
        .flatten()
        .take(1000)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|v| segment(v))
        .collect();
    if versions.iter().any(|v| v == "local") {
        return Some("local".into());
    }
    versions.sort_by(|a, b| compare_versions(a, b));
    versions.pop()
}

fn compare_versions(a: &str, b: &str) -> Ordering {
    match (semver::Version::parse(a), semver::Version::parse(b)) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        _ => a.cmp(b),
    }
}

/// The first manifest present in `root`, parsed; `None` when it is not
/// JSON (the other one is then not read).
fn manifest(root: &Path) -> Option<Value> {
    let path = MANIFESTS
        .iter()
        .map(|m| root.join(m))
        .find(|p| p.is_file())?;
    let bytes = fsops::read_capped(&path, MAX_FILE).ok()?;
    serde_json::from_slice::<Value>(&bytes)
        .ok()
        .filter(Value::is_object)
}

/// manifest.rs `resolve_manifest_paths`: a string or a list of strings
/// starting with `./`, staying inside the root; none valid: `skills/`.
fn skill_paths(root: &Path, manifest: &Value) -> Vec<PathBuf> {
    let listed: Vec<&str> = match &manifest["skills"] {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let valid: Vec<PathBuf> = listed
        .iter()
        .filter_map(|p| p.strip_prefix("./"))
        .filter(|rel| {
            !rel.is_empty()
                && Path::new(rel)
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
        })
        .map(|rel| root.join(rel))
        .collect();
    if valid.is_empty() {
        vec![root.join("skills")]
    } else {
        valid
    }
}

/// The prefix Codex gives a skill (`NAME:`): the `name` of the nearest
/// folder above `skill_md` whose first manifest reads (the folder's own
/// name when that name is blank); a manifest that is not JSON, or whose
/// name is not a string, is passed over.
pub fn namespace(skill_md: &Path) -> Option<String> {
    for dir in skill_md.ancestors().skip(1) {
        let Some(path) = MANIFESTS.iter().map(|m| dir.join(m)).find(|p| p.is_file()) else {
            continue;
        };
        let Some(doc) = fsops::read_capped(&path, MAX_FILE)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        else {
            continue;
        };
        let name = match &doc["name"] {
            Value::String(s) => s.as_str(),
            Value::Null => "",
            _ => continue,
        };
        return if name.trim().is_empty() {
            dir.file_name().map(|n| n.to_string_lossy().into_owned())
        } else {
            Some(name.to_string())
        };
    }
    None
}

/// `…/plugins/cache/MARKETPLACE` above `path`, when there is one.
fn marketplace_base(path: &Path) -> Option<&Path> {
    path.ancestors().find(|a| {
        let parent = a.parent();
        parent.and_then(Path::file_name) == Some("cache".as_ref())
            && parent.and_then(Path::parent).and_then(Path::file_name) == Some("plugins".as_ref())
    })
}

/// `…/plugins/cache/MARKETPLACE/PLUGIN/VERSION` above `path`.
fn version_base(path: &Path) -> Option<PathBuf> {
    let market = marketplace_base(path)?;
    let mut rest = path.strip_prefix(market).ok()?.components();
    let (plugin, version) = (rest.next()?, rest.next()?);
    Some(market.join(plugin).join(version))
}

/// The root the roots table names for skill root `root` (render.rs
/// `alias_root_for_skill_root`): inside a plugin version that lists one
/// skill, its marketplace folder; otherwise the root itself. `listed` are
/// the SKILL.md paths the list shows.
pub fn alias_root(root: &Path, listed: &[PathBuf]) -> PathBuf {
    let Some(version) = version_base(root) else {
        return root.to_path_buf();
    };
    let skills = listed
        .iter()
        .filter(|p| version_base(p).is_some_and(|v| v == version))
        .count();
    match marketplace_base(root) {
        Some(market) if skills <= 1 => market.to_path_buf(),
        _ => root.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plugin(home: &Path, market: &str, name: &str, version: &str, manifest: &str) -> PathBuf {
        let root = home
            .join("plugins/cache")
            .join(market)
            .join(name)
            .join(version);
        std::fs::create_dir_all(root.join(".codex-plugin")).unwrap();
        std::fs::write(root.join(".codex-plugin/plugin.json"), manifest).unwrap();
        root
    }

    // Observed with Codex 0.169.0: `enabled` defaults to true; `local`, else
    // the highest version; a `skills` path without `./` falls back to
    // skills/; a manifest that is not JSON loads nothing.
    #[test]
    fn enabled_installed_plugins_give_their_skill_roots() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        plugin(home, "m", "a", "1.9.0", r#"{"name":"a"}"#);
        let a = plugin(home, "m", "a", "1.10.0", r#"{"name":"a"}"#);
        let b = plugin(home, "m", "b", "local", r#"{"name":"b","skills":"extra"}"#);
        plugin(home, "m", "b", "2.0.0", r#"{"name":"b"}"#);
        let c = plugin(
            home,
            "m",
            "c",
            "1.0.0",
            r#"{"skills":["./more","./skills"]}"#,
        );
        plugin(home, "m", "off", "1.0.0", r#"{"name":"off"}"#);
        plugin(home, "m", "bad", "1.0.0", "not json");
        std::fs::write(
            home.join("config.toml"),
            "[plugins.\"a@m\"]\n[plugins.\"b@m\"]\nenabled = true\n[plugins.\"c@m\"]\n\
             [plugins.\"off@m\"]\nenabled = false\n[plugins.\"bad@m\"]\n[plugins.\"gone@m\"]\n",
        )
        .unwrap();
        assert_eq!(
            skill_roots(home),
            vec![
                a.join("skills"),
                b.join("skills"),
                c.join("more"),
                c.join("skills")
            ]
        );
    }

    // Observed with Codex 0.169.0: `demo:hello`; a blank name is the
    // plugin root folder's (the version folder).
    #[test]
    fn the_prefix_is_the_nearest_manifest_name() {
        let tmp = tempfile::tempdir().unwrap();
        let root = plugin(tmp.path(), "m", "p", "1.0.0", r#"{"name":"demo"}"#);
        let skill = root.join("skills/hello/SKILL.md");
        assert_eq!(namespace(&skill).as_deref(), Some("demo"));
        let blank = plugin(tmp.path(), "m", "q", "2.0.0", r#"{"name":"  "}"#);
        assert_eq!(
            namespace(&blank.join("skills/x/SKILL.md")).as_deref(),
            Some("2.0.0")
        );
        assert_eq!(namespace(&tmp.path().join("other/SKILL.md")), None);
    }

    // Observed with Codex 0.169.0: a plugin version listing one skill is
    // shown from its marketplace folder, one listing more from its root.
    #[test]
    fn a_plugin_root_is_named_by_its_marketplace_when_it_holds_one_skill() {
        let root = Path::new("/h/plugins/cache/m/p/1.0.0/skills");
        let one = [root.join("a/SKILL.md")];
        assert_eq!(alias_root(root, &one), PathBuf::from("/h/plugins/cache/m"));
        let two = [root.join("a/SKILL.md"), root.join("b/SKILL.md")];
        assert_eq!(alias_root(root, &two), root);
        let plain = Path::new("/h/.agents/skills");
        assert_eq!(alias_root(plain, &one), plain);
    }
}
