//! Copilot's baked agent files (`~/.copilot/agents/<name>.agent.md`): the
//! text `cao install` and CAO's `refresh_all_cao_managed_agents` write
//! (`utils/skill_injection.py`, `services/install_service.py`), whether a
//! file on disk is stale, and the refresh itself, done atomically.
//!
//! CAO refreshes only after `cao skills add/remove`; every other change to
//! the store or a profile leaves the baked catalog stale, so skilltui runs
//! [`refresh`] after each change it makes.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::core::cao::catalog::{self, Format};
use crate::core::cao::profile;
use crate::core::cao::store::{Home, Listing};
use crate::core::delivery::agent::{self, Agent};
use crate::core::delivery::pyyaml;
use crate::core::fsops;
use crate::core::parse::frontmatter::{self, Format as FmFormat, Normalized};
use crate::core::parse::yaml::Value;
use crate::core::text::{py_isspace, py_strip};

/// `COPILOT_AGENTS_DIR`: always under `$HOME`, even with `CAO_HOME_DIR`.
pub fn agents_dir(home: &Home) -> PathBuf {
    home.user_home.join(".copilot").join("agents")
}

/// The file `cao install --provider copilot_cli` writes for a profile
/// (`flatten_path_separators(profile.name)`).
pub fn file_for(home: &Home, name: &str) -> PathBuf {
    agents_dir(home).join(format!("{}.agent.md", flatten(name)))
}

/// `utils/path_validation.py:flatten_path_separators`.
pub fn flatten(name: &str) -> String {
    name.replace(['/', '\\'], "__")
}

/// What Copilot's agent reads after its frontmatter: the body (else
/// `prompt:`), stripped, a blank line, then the catalog of every skill
/// (`compose_agent_prompt`: the `skills:` list is ignored on purpose),
/// right-stripped as the refresh writes it.
/// `block` is [`unfiltered_catalog`], the same for every agent file.
pub fn baked_prompt(block: &str, a: &Agent) -> String {
    let base = match py_strip(&a.body) {
        "" => py_strip(a.prompt.as_deref().unwrap_or("")),
        body => body,
    };
    catalog::compose_prompt(base, block)
        .trim_end_matches(py_isspace)
        .to_string()
}

/// `build_skill_catalog()` with no filter: store and extra dirs. The
/// `cao` format names no profile, so one block serves every agent file.
pub fn unfiltered_catalog(listing: &Listing) -> String {
    catalog::render(Format::Cao, listing, None, "").unwrap_or_default()
}

/// `frontmatter.dumps(Post(content, **metadata))`: sorted PyYAML metadata
/// between `---` fences, a blank line, the content, all stripped.
pub fn file_text(metadata: &[(String, String)], content: &str) -> Result<String, String> {
    let meta = pyyaml::dump_str_map(metadata)?;
    let text = format!("---\n{meta}\n---\n\n{content}\n");
    Ok(py_strip(&text).to_string())
}

/// The text `cao install` writes for this profile, or why it refuses.
pub fn installed_text(listing: &Listing, a: &Agent) -> Result<String, String> {
    let base_empty =
        py_strip(&a.body).is_empty() && py_strip(a.prompt.as_deref().unwrap_or("")).is_empty();
    if base_empty {
        return Err(format!(
            "Agent '{}' has no usable prompt content for Copilot (both system_prompt and prompt are empty or whitespace)",
            a.name
        ));
    }
    let meta = [
        ("name".to_string(), a.name.clone()),
        ("description".to_string(), a.description.clone()),
    ];
    file_text(&meta, &baked_prompt(&unfiltered_catalog(listing), a))
}

/// One `*.agent.md` file as CAO's refresh sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Baked {
    #[serde(serialize_with = "crate::core::text::lossy_path")]
    pub path: PathBuf,
    /// The frontmatter `name`, when it is a non-empty string.
    pub name: Option<String>,
    /// A context copy `agent-context/<name>.md` exists: CAO installed it.
    pub managed: bool,
    /// What the refresh would write now; `None` when CAO would leave the
    /// file alone (unmanaged, reserved name, profile does not load).
    #[serde(skip)]
    pub fresh: Option<String>,
    #[serde(skip)]
    pub current: String,
    /// Why the file is left alone, when it is.
    pub skipped: Option<String>,
}

impl Baked {
    /// `Some(true)` when the refresh would change it, `None` when unknown.
    pub fn stale(&self) -> Option<bool> {
        self.fresh.as_ref().map(|f| *f != self.current)
    }
}

/// Every `*.agent.md` in Copilot's agents dir, sorted as CAO sorts them,
/// each with what a refresh would write. `Err` where CAO's refresh would
/// abort (a file it cannot read or parse): the files before it are still
/// returned, as CAO rewrites those before it stops.
pub fn scan(home: &Home, listing: &Listing) -> (Vec<Baked>, Option<String>) {
    let mut out = Vec::new();
    let block = unfiltered_catalog(listing);
    for path in agent_files(home) {
        match examine(home, &block, &path) {
            Ok(b) => out.push(b),
            Err(why) => return (out, Some(why)),
        }
    }
    (out, None)
}

fn agent_files(home: &Home) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(agents_dir(home)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".agent.md"))
        })
        .collect();
    files.sort();
    files
}

/// A baked agent file is a profile plus a catalog: far below this. A
/// bigger one (a sparse gigabyte) is left alone unread.
const MAX_AGENT_FILE: u64 = 16 << 20;

/// Reads one file as `frontmatter.load` does and decides what the refresh
/// makes of it.
/// `block` is [`unfiltered_catalog`].
pub fn examine(home: &Home, block: &str, path: &Path) -> Result<Baked, String> {
    let stop = |why: String| {
        format!(
            "{}: {why}; CAO's refresh stops at this file: fix or remove it",
            path.display()
        )
    };
    let mut baked = Baked {
        path: path.to_path_buf(),
        name: None,
        managed: false,
        fresh: None,
        current: String::new(),
        skipped: None,
    };
    let bytes = match fsops::read_capped(path, MAX_AGENT_FILE) {
        // CAO would read it; skilltui leaves it alone rather than hold it.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            baked.skipped = Some(e.to_string());
            return Ok(baked);
        }
        read => read.map_err(|e| stop(e.to_string()))?,
    };
    let current = String::from_utf8(bytes).map_err(|_| stop("not valid UTF-8".into()))?;
    let norm = Normalized::new(&current);
    let fm = frontmatter::parse(&norm.text).map_err(|e| stop(e.to_string()))?;
    baked.current = current.clone();
    let name = fm
        .get("name")
        .and_then(|n| n.value.as_str())
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    let Some(name) = name else {
        baked.skipped = Some("its frontmatter has no name".into());
        return Ok(baked);
    };
    baked.name = Some(name.clone());
    baked.managed = is_managed(home, &name);
    let stem = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".agent.md"))
        .unwrap_or("");
    if !baked.managed {
        baked.skipped = Some(format!("no CAO context copy for '{name}': not CAO's"));
    } else if profile::is_reserved_ephemeral(stem) || profile::is_reserved_ephemeral(&name) {
        baked.skipped = Some("a reserved ephemeral name".into());
    } else {
        match agent::load(home, &name) {
            Err(why) => baked.skipped = Some(why),
            // What skilltui cannot write exactly it leaves alone, saying why.
            Ok(a) => match string_metadata(&fm) {
                Err(why) => baked.skipped = Some(why),
                Ok(meta) => match file_text(&meta, &baked_prompt(block, &a)) {
                    Ok(text) => baked.fresh = Some(text),
                    Err(why) => baked.skipped = Some(why),
                },
            },
        }
    }
    Ok(baked)
}

/// The metadata as (key, value) strings: the only kind CAO writes. Other
/// values would need PyYAML's representers for them, which we do not have.
fn string_metadata(fm: &frontmatter::Frontmatter) -> Result<Vec<(String, String)>, String> {
    if fm.format != FmFormat::Yaml {
        return Err("its frontmatter is not YAML, which skilltui cannot rewrite exactly: run `cao skills add` to refresh it".into());
    }
    let Some(Value::Map(pairs)) = fm.metadata().map(|m| &m.value) else {
        return Ok(Vec::new());
    };
    pairs
        .iter()
        .map(|(k, v)| match (&k.value, &v.value) {
            (Value::Str(k), Value::Str(v)) => Ok((k.clone(), v.clone())),
            (Value::Str(k), _) => Err(format!(
                "its frontmatter key '{k}' is not a string, which skilltui cannot rewrite exactly: run `cao skills add` to refresh it"
            )),
            _ => Err("its frontmatter has a key that is not a string, which skilltui cannot rewrite exactly: run `cao skills add` to refresh it".into()),
        })
        .collect()
}

/// `_is_cao_managed_copilot_agent`: a safe path component with a context
/// copy in one of CAO's installed-context dirs.
pub fn is_managed(home: &Home, name: &str) -> bool {
    let safe = name != "."
        && name != ".."
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    safe && profile::installed_context_dirs(home)
        .iter()
        .any(|d| d.join(format!("{name}.md")).exists())
}

/// What a refresh did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Refreshed {
    /// CAO-managed files whose profile loads (what CAO's refresh returns).
    pub managed: Vec<PathBuf>,
    /// Those whose bytes changed.
    pub rewritten: Vec<PathBuf>,
    /// Files left alone, with why (not CAO's, profile does not load...).
    pub skipped: Vec<(PathBuf, String)>,
    /// Why it stopped early, as CAO's refresh would, or a write failed.
    pub stopped: Option<String>,
}

/// `refresh_all_cao_managed_agents`, byte for byte, atomically, and never
/// over a change made since the file was read. Each file is read and
/// rewritten under CAO's own lock on it (`utils/atomic_file.py`), so a
/// `cao skills add` refreshing the same file never interleaves with this.
pub fn refresh(home: &Home) -> Refreshed {
    let files = agent_files(home);
    // Listing a big store costs more than the rest: only when needed.
    if files.is_empty() {
        return Refreshed::default();
    }
    let listing = crate::core::cao::store::list(home, false);
    let block = unfiltered_catalog(&listing);
    let mut done = Refreshed::default();
    for path in files {
        if let Err(why) = refresh_one(home, &block, &path, &mut done) {
            done.stopped = Some(why);
            break;
        }
    }
    done
}

/// One file, read and (when stale) rewritten while CAO's lock on it is held.
fn refresh_one(home: &Home, block: &str, path: &Path, done: &mut Refreshed) -> Result<(), String> {
    let _held = crate::core::cao::locks::lock_target(&home.root, path)?;
    let b = examine(home, block, path)?;
    let Some(fresh) = &b.fresh else {
        done.skipped.push((b.path, b.skipped.unwrap_or_default()));
        return Ok(());
    };
    done.managed.push(b.path.clone());
    if *fresh != b.current {
        fsops::atomic_write(&b.path, fresh.as_bytes(), Some(b.current.as_bytes()))
            .map_err(|e| e.to_string())?;
        done.rewritten.push(b.path);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_file_skilltui_cannot_write_exactly_is_left_alone_and_the_rest_refreshed() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, user) = (tmp.path().join("home"), tmp.path().join("user"));
        write(
            &root.join("skills/x/SKILL.md"),
            "---\nname: x\ndescription: The x skill\n---\n",
        );
        for name in ["a", "b", "c"] {
            let profile =
                format!("---\nname: {name}\nprovider: copilot_cli\n---\nYou are {name}.\n");
            write(&root.join(format!("agent-store/{name}.md")), &profile);
            if name != "c" {
                write(&root.join(format!("agent-context/{name}.md")), &profile);
            }
        }
        let agents = user.join(".copilot/agents");
        let odd = "---\nname: a\ntools:\n- read\n---\n\nold";
        write(&agents.join("a.agent.md"), odd);
        write(&agents.join("b.agent.md"), "---\nname: b\n---\n\nold");
        // No context copy: not CAO's.
        write(&agents.join("c.agent.md"), "---\nname: c\n---\n\nold");
        let home = Home::at(root, user);
        let done = refresh(&home);
        assert_eq!(done.rewritten, vec![agents.join("b.agent.md")]);
        assert_eq!(done.stopped, None);
        assert_eq!(
            std::fs::read_to_string(agents.join("a.agent.md")).unwrap(),
            odd
        );
        let b = std::fs::read_to_string(agents.join("b.agent.md")).unwrap();
        assert!(
            b.starts_with("---\nname: b\n---\n\nYou are b.\n\n## Available Skills"),
            "{b}"
        );
        assert!(b.ends_with("- **x**: The x skill"), "{b}");
        let why: Vec<&str> = done.skipped.iter().map(|(_, w)| w.as_str()).collect();
        assert!(why[0].contains("'tools' is not a string"), "{why:?}");
        assert!(why[1].contains("not CAO's"), "{why:?}");
        // A second run finds nothing stale.
        assert!(refresh(&home).rewritten.is_empty());
    }
}
