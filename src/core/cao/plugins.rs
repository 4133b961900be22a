//! Skills an agent plugin owns. CAO 2.5.4 places an installed plugin's
//! skills in the store as links into `<home>/agent-plugins/<plugin>/skills/`,
//! or as copies holding a `.cao-projection.json` marker
//! (`agent_plugins/projection.py`); the install records in
//! `<home>/agent-plugins/.state/*.json` say which names each projected
//! (`agent_plugins/store.py`). `cao skills remove` refuses such a skill
//! (`projection_owner`), and `cao skills add --force` takes the name over
//! (`release_projection_claim`) under CAO's plugin locks (`locks`).
//!
//! Every function takes the CAO home's root, so that `store` can use them.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use crate::core::cao::locks;

/// `MARKER_FILENAME`: never copied by `add` (see `fsops::NEVER_COPIED`).
pub const MARKER: &str = ".cao-projection.json";
const DIGEST_PREFIX: &str = "sha256-tree-v1:";

/// `<home>/agent-plugins`: CAO's plugin store.
pub fn plugins_dir(home: &Path) -> PathBuf {
    home.join("agent-plugins")
}

/// One readable install record (`PluginRecord.from_dict`), and its file.
struct Record {
    name: String,
    projected: Vec<String>,
    json: serde_json::Map<String, Json>,
}

/// `list_installed`: every record CAO can read, sorted by plugin name; one
/// it cannot read is skipped, as CAO skips it.
fn records(home: &Path) -> Vec<Record> {
    let Ok(entries) = fs::read_dir(locks::plugin_state_dir(home)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or(".");
            !name.starts_with('.') && name.ends_with(".json") && p.is_file()
        })
        .collect();
    files.sort();
    let mut out: Vec<Record> = files.iter().filter_map(|p| read_record(p)).collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A record as `from_dict` takes it: an object with a `name`, a `source`
/// object when present, findings with their four keys.
fn read_record(path: &Path) -> Option<Record> {
    let text = fs::read_to_string(path).ok()?;
    let Json::Object(json) = serde_json::from_str(&text).ok()? else {
        return None;
    };
    let name = match json.get("name")? {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    if json.get("source").is_some_and(|s| !s.is_object()) {
        return None;
    }
    let findings_ok = match json.get("findings") {
        None => true,
        Some(Json::Array(items)) => items.iter().all(|f| {
            ["severity", "code", "spec_ref", "message"]
                .iter()
                .all(|k| f.get(k).is_some())
        }),
        Some(_) => false,
    };
    // `tuple(...)` of a string is its characters, of an object its keys.
    let projected = match json.get("projected_skill_names") {
        None => Vec::new(),
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect(),
        Some(Json::String(s)) => s.chars().map(String::from).collect(),
        Some(Json::Object(m)) => m.keys().cloned().collect(),
        Some(_) => return None,
    };
    findings_ok.then_some(Record {
        name,
        projected,
        json,
    })
}

/// `_previous_projection`: skill name -> the first plugin (by name) whose
/// record says it projected it.
fn claims(records: &[Record]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for r in records {
        for skill in &r.projected {
            out.entry(skill.clone()).or_insert_with(|| r.name.clone());
        }
    }
    out
}

/// `projection_owner`: the plugin that owns the store's entry `name`, or
/// `None` when it is the user's.
pub fn owner(home: &Path, name: &str) -> Option<String> {
    if !plugins_dir(home).is_dir() {
        return None;
    }
    owner_among(home, &claims(&records(home)), name)
}

/// [`owner`] for every name given (the store's listing), reading the
/// records once; empty when no plugin was ever installed.
pub fn owners<'a>(home: &Path, names: impl Iterator<Item = &'a str>) -> HashMap<String, String> {
    if !plugins_dir(home).is_dir() {
        return HashMap::new();
    }
    let claimed = claims(&records(home));
    names
        .filter_map(|n| Some((n.to_string(), owner_among(home, &claimed, n)?)))
        .collect()
}

fn owner_among(home: &Path, claimed: &HashMap<String, String>, name: &str) -> Option<String> {
    let path = home.join("skills").join(name);
    let plugins = plugins_dir(home);
    let Some(plugin) = claimed.get(name) else {
        return structural_owner(&path, &plugins);
    };
    let source = plugin_root(&plugins, plugin)
        .map(|r| r.join("skills").join(name))
        .filter(|s| s.is_dir());
    managed(&path, &plugins, source.as_deref()).then(|| plugin.clone())
}

/// `_structural_owner`: with no record claiming the name, only a live link
/// into the plugin store or a verified marker names the plugin.
fn structural_owner(path: &Path, plugins: &Path) -> Option<String> {
    let kind = lkind(path)?;
    if kind.is_symlink() {
        let resolved = locks::resolve_lenient(path);
        if !within(&resolved, plugins) || !resolved.exists() {
            return None;
        }
        return plugin_named_by(&resolved, plugins);
    }
    if !kind.is_dir() {
        return None;
    }
    let source = verified_marker(path, plugins)?;
    plugin_named_by(&locks::resolve_lenient(Path::new(&source)), plugins)
}

/// `_is_managed_projection`: a link into the plugin store, a copy whose
/// marker verifies, or a copy byte-identical to the plugin's `source`.
fn managed(path: &Path, plugins: &Path, source: Option<&Path>) -> bool {
    let Some(kind) = lkind(path) else {
        return false;
    };
    if kind.is_symlink() {
        return within(&locks::resolve_lenient(path), plugins);
    }
    if !kind.is_dir() {
        return false;
    }
    if verified_marker(path, plugins).is_some() {
        return true;
    }
    source.is_some_and(|s| tree_digest(path).is_some_and(|ours| Some(ours) == tree_digest(s)))
}

/// `_verified_marker`: the marker's `source` when it is CAO's, bound to
/// this folder's name, and its digest still matches the folder.
fn verified_marker(path: &Path, plugins: &Path) -> Option<String> {
    let marker = path.join(MARKER);
    if !marker.is_file() {
        return None;
    }
    let loaded: Json = serde_json::from_str(&fs::read_to_string(marker).ok()?).ok()?;
    // Python's `== 1`: `1`, `1.0` and `true` all pass.
    let format_ok = match loaded.get("format")? {
        Json::Bool(b) => *b,
        n => n.as_f64() == Some(1.0),
    };
    let source = loaded.get("source")?.as_str()?;
    let folder = path.file_name()?.to_str()?;
    let (parent, base) = split_posix(source);
    let bound = loaded.get("skill").and_then(Json::as_str) == Some(folder) && base == folder;
    if !format_ok || !within(&locks::resolve_lenient(Path::new(&parent)), plugins) || !bound {
        return None;
    }
    let digest = loaded.get("digest")?.as_str()?;
    (Some(digest.to_string()) == tree_digest(path)).then(|| source.to_string())
}

/// `os.path.dirname` and `os.path.basename` of a POSIX path.
fn split_posix(p: &str) -> (String, &str) {
    let cut = p.rfind('/').map_or(0, |i| i + 1);
    let head = &p[..cut];
    let head = match head.trim_end_matches('/') {
        "" => head,
        trimmed => trimmed,
    };
    (head.to_string(), &p[cut..])
}

/// `_within`: lexically inside the plugin store (itself resolved).
fn within(candidate: &Path, plugins: &Path) -> bool {
    let root = locks::resolve_lenient(plugins);
    candidate == root
        || candidate
            .as_os_str()
            .as_encoded_bytes()
            .starts_with(&[root.as_os_str().as_encoded_bytes(), b"/"].concat())
}

/// `_plugin_name_for_store_path`: the installed plugin's folder a path in
/// the store lies under.
fn plugin_named_by(candidate: &Path, plugins: &Path) -> Option<String> {
    let root = locks::resolve_lenient(plugins);
    let first = candidate.strip_prefix(&root).ok()?.iter().next()?;
    let first = first.to_str()?;
    let dir = plugin_root(plugins, first)?;
    dir.is_dir().then(|| first.to_string())
}

/// `plugin_root`: refuses a name that could leave the plugin store.
fn plugin_root(plugins: &Path, name: &str) -> Option<PathBuf> {
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.contains(['\0', '/', '\\'])
        || name.contains("..");
    (!bad).then(|| plugins.join(name))
}

/// The entry's own kind, from one `lstat`: the store's listing asks each
/// skill "a link? a folder?" with this one call (not a `lstat` then a
/// `stat`); for anything but a link the two agree, and a link is decided
/// before the folder question is asked.
fn lkind(p: &Path) -> Option<fs::FileType> {
    fs::symlink_metadata(p).ok().map(|m| m.file_type())
}

fn is_symlink(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// `_tree_digest`: sorted relative paths with each entry's kind, size and
/// bytes, nothing followed, the top-level marker left out; `None` when the
/// tree cannot be read.
pub fn tree_digest(root: &Path) -> Option<String> {
    let mut hash = Sha256::new();
    digest_dir(root, Path::new("."), &mut hash, true)?;
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("{DIGEST_PREFIX}{hex}"))
}

/// One `os.walk` step: folders (links to folders included, as `os.walk`
/// lists them), then the rest, then into the real folders, all sorted.
fn digest_dir(dir: &Path, rel: &Path, hash: &mut Sha256, top: bool) -> Option<()> {
    // `os.walk` skips a folder it cannot list.
    let Ok(entries) = fs::read_dir(dir) else {
        return Some(());
    };
    let (mut dirs, mut files) = (Vec::new(), Vec::new());
    for e in entries.flatten() {
        let name = e.file_name().into_string().ok()?;
        match fs::metadata(e.path()).is_ok_and(|m| m.is_dir()) {
            true => dirs.push(name),
            false => files.push(name),
        }
    }
    dirs.sort();
    files.sort();
    let show = |name: &str| rel.join(name).to_str().map(String::from);
    for d in &dirs {
        hash.update(format!("d\0{}\0", show(d)?).as_bytes());
    }
    for f in &files {
        if top && f == MARKER {
            continue;
        }
        digest_entry(&dir.join(f), &show(f)?, hash)?;
    }
    for d in &dirs {
        let path = dir.join(d);
        if !is_symlink(&path) {
            digest_dir(&path, &rel_child(rel, d), hash, false)?;
        }
    }
    Some(())
}

/// `os.path.relpath` of a sub-folder: no `./` prefix below the top.
fn rel_child(rel: &Path, name: &str) -> PathBuf {
    match rel == Path::new(".") {
        true => PathBuf::from(name),
        false => rel.join(name),
    }
}

fn digest_entry(path: &Path, rel: &str, hash: &mut Sha256) -> Option<()> {
    let meta = fs::symlink_metadata(path).ok()?;
    let kind = meta.file_type();
    if kind.is_symlink() {
        hash.update(format!("l\0{rel}\0").as_bytes());
        hash.update(fs::read_link(path).ok()?.to_str()?.as_bytes());
        return Some(());
    }
    if !kind.is_file() {
        use std::os::unix::fs::MetadataExt;
        let ifmt = meta.mode() & libc::S_IFMT;
        hash.update(format!("s\0{rel}\0{ifmt}\0").as_bytes());
        return Some(());
    }
    hash.update(format!("f\0{rel}\0{}\0", meta.len()).as_bytes());
    let mut file = open_no_follow(path).ok()?;
    let mut buf = vec![0u8; 65536];
    loop {
        match file.read(&mut buf).ok()? {
            0 => return Some(()),
            n => hash.update(&buf[..n]),
        }
    }
}

fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// `release_projection_claim`: under CAO's record lock, drops `name` from
/// the first record (by plugin name) that projected it and writes that
/// record back as CAO does; the plugin that gave it up, if any.
pub fn release_claim(home: &Path, name: &str) -> Result<Option<String>, String> {
    let refuse = |why: String| {
        format!(
            "refusing to install skill '{name}': it is provided by an agent plugin whose install record could not be updated ({why}); nothing was changed: fix the agent-plugin state folder and retry"
        )
    };
    let _held = locks::lock_records(home).map_err(refuse)?;
    let Some(mut r) = records(home)
        .into_iter()
        .find(|r| r.projected.iter().any(|s| s == name))
    else {
        return Ok(None);
    };
    let remaining: Vec<Json> = (r.projected.iter())
        .filter(|s| *s != name)
        .map(|s| Json::String(s.clone()))
        .collect();
    r.json
        .insert("projected_skill_names".into(), Json::Array(remaining));
    let state = locks::plugin_state_dir(home);
    let file = plugin_root(&state, &r.name)
        .map(|_| state.join(format!("{}.json", r.name)))
        .ok_or_else(|| {
            refuse(format!(
                "the plugin name '{}' is not a safe file name",
                r.name
            ))
        })?;
    write_record(&file, &python_json(&Json::Object(r.json)))
        .map_err(|e| refuse(format!("{}: {e}", file.display())))?;
    Ok(Some(r.name))
}

/// `write_record`: `.<name>.json.tmp` beside it, then renamed over it.
fn write_record(file: &Path, text: &str) -> std::io::Result<()> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("record");
    let tmp = file.with_file_name(format!(".{name}.tmp"));
    let mut f = fs::File::create(&tmp)?;
    std::io::Write::write_all(&mut f, text.as_bytes())?;
    f.sync_all()?;
    fs::rename(&tmp, file)
}

/// `json.dumps(value, indent=2, sort_keys=True)`: keys sorted at every
/// level, non-ASCII escaped as `\uXXXX`.
fn python_json(v: &Json) -> String {
    fn sorted(v: &Json) -> Json {
        match v {
            Json::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Json::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Json::Array(a) => Json::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let text = serde_json::to_string_pretty(&sorted(v)).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_dirname_and_basename() {
        assert_eq!(split_posix("/a/b/c"), ("/a/b".to_string(), "c"));
        assert_eq!(split_posix("/c"), ("/".to_string(), "c"));
        assert_eq!(split_posix("c"), (String::new(), "c"));
        assert_eq!(split_posix("/a/b/"), ("/a/b".to_string(), ""));
    }

    #[test]
    fn records_are_written_as_pythons_json_dumps_writes_them() {
        let v: Json =
            serde_json::from_str(r#"{"z": [], "a": {"y": "é", "b": null}, "m": [1]}"#).unwrap();
        assert_eq!(
            python_json(&v),
            "{\n  \"a\": {\n    \"b\": null,\n    \"y\": \"\\u00e9\"\n  },\n  \"m\": [\n    1\n  ],\n  \"z\": []\n}"
        );
    }
}
