//! The user's installed CAO: where its Python package lives, its version,
//! and the files skilltui reads from it (built-in profiles, bundled skills).
//! Found from the filesystem alone, never by running Python.

use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::core::cao::skill;
use crate::core::text::py_strip;

/// The environment variable that overrides the search, like `--cao`.
pub const ENV: &str = "SKILLTUI_CAO";

/// The Python package's folder name.
const PACKAGE: &str = "cli_agent_orchestrator";

/// A cache entry is a few paths; anything longer is not ours.
const CACHE_MAX: u64 = 64 * 1024;

/// What to tell a user who has no CAO.
pub const INSTALL_HINT: &str = "install CAO (`uv tool install cli-agent-orchestrator` or `pipx install cli-agent-orchestrator`) or point `--cao DIR` at it";

/// How the install was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    Flag,
    Env,
    /// The `cao` executable on PATH, at this path.
    Path(PathBuf),
    UvTool,
    Pipx,
}

impl std::fmt::Display for How {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            How::Flag => write!(f, "--cao"),
            How::Env => write!(f, "${ENV}"),
            How::Path(p) => write!(f, "`cao` on PATH: {}", p.display()),
            How::UvTool => write!(f, "uv tool home"),
            How::Pipx => write!(f, "pipx home"),
        }
    }
}

/// An installed CAO package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Install {
    /// `.../site-packages/cli_agent_orchestrator`.
    pub package: PathBuf,
    /// From the `.dist-info`; `None` when it cannot be read.
    pub version: Option<String>,
    pub how: How,
}

impl Install {
    pub fn version_label(&self) -> &str {
        self.version.as_deref().unwrap_or("(unknown version)")
    }

    pub fn agent_store(&self) -> PathBuf {
        self.package.join("agent_store")
    }

    pub fn skills_dir(&self) -> PathBuf {
        self.package.join("skills")
    }

    /// Names of the built-in profiles (`agent_store/*.md`), sorted.
    pub fn built_in_profiles(&self) -> Vec<String> {
        let mut names: Vec<String> = read_names(&self.agent_store())
            .into_iter()
            .filter_map(|n| n.strip_suffix(".md").map(String::from))
            .collect();
        names.sort();
        names
    }

    /// The file of built-in profile `name`, if CAO ships one. Any entry
    /// counts, as CAO lists it: one that is not a readable file (a folder,
    /// a FIFO, a symlink loop) is a profile CAO cannot load, not none.
    pub fn built_in_path(&self, name: &str) -> Option<PathBuf> {
        let path = self.agent_store().join(format!("{name}.md"));
        let plain = path
            .file_name()
            .is_some_and(|f| *f == *format!("{name}.md"));
        (plain && fs::symlink_metadata(&path).is_ok()).then_some(path)
    }

    /// The bundled skills `cao init` seeds: subfolders holding a SKILL.md
    /// file, sorted.
    pub fn bundled_skills(&self) -> Vec<String> {
        let dir = self.skills_dir();
        let mut names: Vec<String> = read_names(&dir)
            .into_iter()
            .filter(|n| dir.join(n).join("SKILL.md").is_file())
            .collect();
        names.sort();
        names
    }
}

fn read_names(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .map(|it| {
            it.flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Where to look: an explicit choice, else PATH and the tool homes.
#[derive(Clone, Debug, Default)]
pub struct Search {
    pub flag: Option<PathBuf>,
    pub env: Option<PathBuf>,
    pub path: Option<std::ffi::OsString>,
    pub user_home: PathBuf,
    /// `$PIPX_HOME`, `$UV_TOOL_DIR`, `$XDG_DATA_HOME`.
    pub pipx_home: Option<PathBuf>,
    pub uv_tool_dir: Option<PathBuf>,
    pub xdg_data_home: Option<PathBuf>,
    /// Where the last PATH lookup is remembered (see [`Search::on_path`]).
    pub cache: Option<PathBuf>,
}

impl Search {
    /// The search this process's environment describes.
    pub fn from_env(flag: Option<&Path>, user_home: &Path) -> Search {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Search {
            flag: flag.map(Path::to_path_buf),
            env: env_override(std::env::var_os(ENV)),
            path: std::env::var_os("PATH"),
            user_home: user_home.to_path_buf(),
            pipx_home: var("PIPX_HOME"),
            uv_tool_dir: var("UV_TOOL_DIR"),
            xdg_data_home: var("XDG_DATA_HOME"),
            cache: var("XDG_CACHE_HOME")
                .unwrap_or_else(|| user_home.join(".cache"))
                .join("skilltui/cao.json")
                .into(),
        }
    }

    /// Finds CAO, or says in one phrase why none was found.
    pub fn find(&self) -> Result<Install, String> {
        if let Some(dir) = &self.flag {
            return at(dir, How::Flag)
                .ok_or_else(|| format!("--cao {} holds no CAO package", dir.display()));
        }
        if let Some(dir) = &self.env {
            return at(dir, How::Env)
                .ok_or_else(|| format!("${ENV}={} holds no CAO package", dir.display()));
        }
        if let Some(found) = self.on_path() {
            return Ok(found);
        }
        for (venv, how) in self.tool_venvs() {
            if let Some(found) = self.in_tool_venv(&venv, how) {
                return Ok(found);
            }
        }
        Err("no CAO was found (no `cao` on PATH, none in the uv tool or pipx homes)".into())
    }

    /// `cao` on PATH. What it leads to is cached, keyed by the script's
    /// resolved path and mtime (an install or upgrade rewrites the script),
    /// so a start-up costs a few stats instead of a venv walk.
    fn on_path(&self) -> Option<Install> {
        let exe = which_in("cao", self.path.as_ref()?)?;
        let key = cache_key(&exe);
        if let Some(hit) = self.cached(&key) {
            return Some(install_cached(hit, How::Path(exe)));
        }
        let found = install(package_of_executable(&exe)?, How::Path(exe));
        self.remember(key, &found);
        Some(found)
    }

    /// CAO in a uv tool or pipx venv, cached as the PATH lookup is: keyed
    /// by the venv's `cao` script, which an install or upgrade rewrites.
    fn in_tool_venv(&self, venv: &Path, how: How) -> Option<Install> {
        let exe = venv.join("bin/cao");
        let key = exe.is_file().then(|| cache_key(&exe));
        if let Some(hit) = key.as_ref().and_then(|k| self.cached(k)) {
            return Some(install_cached(hit, how));
        }
        let found = install(package_in_venv(venv)?, how);
        if let Some(key) = key {
            self.remember(key, &found);
        }
        Some(found)
    }

    /// The cached entry for `key`, if it still names a CAO package. The
    /// file is ours but anything may have replaced it: a FIFO or a huge file
    /// must not stall the start-up, nor an entry lead to another folder.
    fn cached(&self, key: &serde_json::Value) -> Option<serde_json::Value> {
        use std::io::Read;
        let (file, _) = crate::core::fsops::open_regular(self.cache.as_ref()?).ok()?;
        let mut bytes = Vec::new();
        file.take(CACHE_MAX).read_to_end(&mut bytes).ok()?;
        let entry: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        let package = Path::new(entry.get("package")?.as_str()?);
        (entry.get("key")? == key && is_package(package)).then_some(entry)
    }

    /// Best effort: a cache that cannot be written only costs the walk.
    fn remember(&self, key: serde_json::Value, found: &Install) {
        let (Some(path), Some(package)) = (&self.cache, found.package.to_str()) else {
            return;
        };
        let entry = serde_json::json!({"key": key, "package": package, "version": found.version});
        if path.parent().is_some_and(|d| fs::create_dir_all(d).is_ok()) {
            let _ = crate::core::fsops::atomic_write(path, entry.to_string().as_bytes(), None);
        }
    }

    /// The venvs `uv tool install` and `pipx install` make, newest layout
    /// first.
    fn tool_venvs(&self) -> Vec<(PathBuf, How)> {
        let data = self
            .xdg_data_home
            .clone()
            .unwrap_or_else(|| self.user_home.join(".local/share"));
        let uv = self.uv_tool_dir.clone().unwrap_or(data.join("uv/tools"));
        let mut out = vec![(uv.join("cli-agent-orchestrator"), How::UvTool)];
        let pipx_homes = match &self.pipx_home {
            Some(h) => vec![h.clone()],
            None => vec![data.join("pipx"), self.user_home.join(".local/pipx")],
        };
        for h in pipx_homes {
            out.push((h.join("venvs/cli-agent-orchestrator"), How::Pipx));
        }
        out
    }
}

/// `$SKILLTUI_CAO` as a path: stripped of surrounding spaces, unset when
/// empty, and taken as it is when it is not UTF-8 (a path may not be).
fn env_override(value: Option<std::ffi::OsString>) -> Option<PathBuf> {
    let value = value?;
    let path = match value.to_str() {
        Some(s) => PathBuf::from(py_strip(s)),
        None => PathBuf::from(value),
    };
    (!path.as_os_str().is_empty()).then_some(path)
}

/// What a cached PATH lookup is valid for: the script and its mtime.
fn cache_key(exe: &Path) -> serde_json::Value {
    let real = fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let mtime = fs::metadata(&real)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    serde_json::json!([
        exe.to_string_lossy(),
        real.to_string_lossy(),
        mtime.to_string()
    ])
}

fn install_cached(entry: serde_json::Value, how: How) -> Install {
    Install {
        package: PathBuf::from(entry["package"].as_str().unwrap_or_default()),
        version: entry["version"].as_str().map(String::from),
        how,
    }
}

/// The first executable file called `name` in the dirs of a PATH value,
/// as a shell finds it.
pub fn which_in(name: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| fs::metadata(p).is_ok_and(|m| m.is_file() && executable(&m)))
}

#[cfg(unix)]
fn executable(m: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &fs::Metadata) -> bool {
    true
}

fn install(package: PathBuf, how: How) -> Install {
    let version = version_of(&package);
    Install {
        package,
        version,
        how,
    }
}

/// Whether `dir` is CAO's Python package.
fn is_package(dir: &Path) -> bool {
    dir.file_name() == Some(PACKAGE.as_ref())
        && dir.join("agent_store").is_dir()
        && dir.join("__init__.py").is_file()
}

/// `dir` as the package itself, a venv holding it, or a `cao` executable.
fn at(dir: &Path, how: How) -> Option<Install> {
    let package = if is_package(dir) {
        Some(dir.to_path_buf())
    } else if dir.is_file() {
        package_of_executable(dir)
    } else {
        package_in_venv(dir)
    };
    package.map(|p| install(crate::core::fsops::absolute(&p), how))
}

/// The package a `cao` script runs: the venv of its shebang's interpreter,
/// else the venv the (symlink-resolved) script sits in, which also covers a
/// venv moved after it was made.
fn package_of_executable(exe: &Path) -> Option<PathBuf> {
    let real = fs::canonicalize(exe).ok()?;
    let from_shebang = interpreter(&real)
        .and_then(|py| Some(py.parent()?.parent()?.to_path_buf()))
        .and_then(|venv| package_in_venv(&venv));
    from_shebang.or_else(|| package_in_venv(real.parent()?.parent()?))
}

/// The interpreter a script's shebang names; the `/bin/sh` trampoline pip
/// and uv write for a long path or one with spaces included.
fn interpreter(script: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = vec![0; 1024];
    let mut file = fs::File::open(script).ok()?;
    let n = file.read(&mut head).ok()?;
    let head = String::from_utf8_lossy(&head[..n]);
    let mut lines = head.lines();
    let shebang = lines.next()?.strip_prefix("#!")?.trim();
    if shebang == "/bin/sh" {
        return trampoline_target(lines.next()?);
    }
    let first = shebang.split_whitespace().next()?;
    (!first.ends_with("/env")).then(|| PathBuf::from(first))
}

/// The python of a trampoline's second line, `'''exec' PYTHON "$0" "$@"`,
/// where PYTHON is bare (pip's form for a long path) or quoted (for a path
/// with spaces).
fn trampoline_target(line: &str) -> Option<PathBuf> {
    let rest = line.strip_prefix("'''exec' ")?;
    let python = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split(q).next()?,
        _ => rest.split_whitespace().next()?,
    };
    Some(PathBuf::from(python))
}

/// `<venv>/lib/python3.*/site-packages/cli_agent_orchestrator`.
fn package_in_venv(venv: &Path) -> Option<PathBuf> {
    ["lib", "lib64"].iter().find_map(|lib| {
        let mut pythons = read_names(&venv.join(lib));
        pythons.retain(|n| n.starts_with("python"));
        sort_by_version(&mut pythons, |n| n.strip_prefix("python"));
        pythons.iter().rev().find_map(|py| {
            let p = venv.join(lib).join(py).join("site-packages").join(PACKAGE);
            p.join("__init__.py").is_file().then_some(p)
        })
    })
}

/// `Version:` of the package's `.dist-info/METADATA`, else the version in
/// the `.dist-info` folder's name.
fn version_of(package: &Path) -> Option<String> {
    let site = package.parent()?;
    let prefix = format!("{PACKAGE}-");
    let mut infos: Vec<String> = read_names(site)
        .into_iter()
        .filter(|n| n.starts_with(&prefix) && n.ends_with(".dist-info"))
        .collect();
    // Several are left by an upgrade that did not finish; the newest is the
    // likelier one to match the package's files.
    sort_by_version(&mut infos, |n| {
        n.strip_prefix(&prefix)?.strip_suffix(".dist-info")
    });
    let info = infos.pop()?;
    // A FIFO in a broken install must not hang the start-up, nor a huge
    // file fill the memory: the headers come first and are short.
    let metadata = read_head(&site.join(&info).join("METADATA"), MAX_METADATA_BYTES);
    metadata
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix("Version:"))
        .map(|v| v.trim().to_string())
        .or_else(|| {
            let v = info.strip_prefix(&prefix)?.strip_suffix(".dist-info")?;
            Some(v.to_string())
        })
}

/// The most of a dist-info METADATA read for its `Version:` header.
const MAX_METADATA_BYTES: u64 = 1 << 20;

/// The first `max` bytes of a regular file, as text ("" when unreadable).
fn read_head(path: &Path, max: u64) -> String {
    use std::io::Read;
    let mut bytes = Vec::new();
    if let Ok((file, _)) = crate::core::fsops::open_regular(path) {
        let _ = file.take(max).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Sorts `names` oldest first by the PEP 440 version `version` finds in
/// each (so 2.9 comes before 2.10, 2.10rc1 before 2.10); names without one
/// come first, by name.
fn sort_by_version(names: &mut [String], version: impl Fn(&str) -> Option<&str>) {
    let key = |n: &str| version(n).and_then(|v| pep440_rs::Version::from_str(v).ok());
    names.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.cmp(b)));
}

/// One line on the CAO in use, for the TUI's help.
pub fn summary(found: Result<&Install, &str>) -> String {
    match found {
        Ok(i) => format!("CAO {} at {}", i.version_label(), i.package.display()),
        Err(why) => format!("CAO: {why}"),
    }
}

/// A bundled skill's description, for the seed menu.
pub fn skill_description(folder: &Path) -> String {
    skill::read_doc(&folder.join("SKILL.md"))
        .ok()
        .and_then(|doc| doc.string("description").map(|s| py_strip(s).to_string()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A venv at `root/venv` with CAO's package, its dist-info and a `cao`
    /// script whose shebang names `shebang`.
    fn fake_venv(root: &Path, shebang: &str) -> PathBuf {
        let venv = root.join("venv");
        let site = venv.join("lib/python3.12/site-packages");
        fs::create_dir_all(site.join(PACKAGE).join("agent_store")).unwrap();
        fs::create_dir_all(site.join(PACKAGE).join("skills/one")).unwrap();
        fs::create_dir_all(site.join(PACKAGE).join("skills/not-a-skill")).unwrap();
        fs::write(site.join(PACKAGE).join("__init__.py"), "").unwrap();
        fs::write(site.join(PACKAGE).join("skills/one/SKILL.md"), "x").unwrap();
        fs::write(site.join(PACKAGE).join("agent_store/dev.md"), "x").unwrap();
        fs::write(site.join(PACKAGE).join("agent_store/notes.txt"), "x").unwrap();
        fs::create_dir_all(site.join("cli_agent_orchestrator-9.1.dist-info")).unwrap();
        fs::write(
            site.join("cli_agent_orchestrator-9.1.dist-info/METADATA"),
            "Metadata-Version: 2.4\nName: cli-agent-orchestrator\nVersion: 9.1.0rc1\n\nVersion: body\n",
        )
        .unwrap();
        fs::create_dir_all(venv.join("bin")).unwrap();
        script(&venv.join("bin/cao"), &format!("{shebang}\nimport sys\n"));
        venv
    }

    fn script(path: &Path, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn search(root: &Path, path: Option<&Path>) -> Search {
        Search {
            path: path.map(|p| p.as_os_str().to_owned()),
            user_home: root.join("user"),
            ..Search::default()
        }
    }

    #[test]
    fn finds_cao_on_path_through_a_symlink_and_its_shebang() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "");
        // The script lives elsewhere; only its shebang leads to the venv.
        let elsewhere = tmp.path().join("elsewhere/bin");
        fs::create_dir_all(&elsewhere).unwrap();
        let shebang = format!("#!{}/bin/python3", venv.display());
        script(&elsewhere.join("cao-real"), &format!("{shebang}\n"));
        let on_path = tmp.path().join("path");
        fs::create_dir_all(&on_path).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("cao-real"), on_path.join("cao")).unwrap();
        let found = search(tmp.path(), Some(&on_path)).find().unwrap();
        assert_eq!(found.how, How::Path(on_path.join("cao")));
        assert!(found.package.starts_with(&venv));
        assert_eq!(found.version.as_deref(), Some("9.1.0rc1"));
        assert_eq!(found.built_in_profiles(), vec!["dev"]);
        assert_eq!(found.bundled_skills(), vec!["one"]);
    }

    #[test]
    fn a_path_lookup_is_cached_until_the_script_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/gone/bin/python");
        let s = Search {
            cache: Some(tmp.path().join("cache/cao.json")),
            ..search(tmp.path(), Some(&venv.join("bin")))
        };
        let first = s.find().unwrap();
        assert_eq!(first.version.as_deref(), Some("9.1.0rc1"));
        // The cache answers without reading the dist-info again...
        let info = first
            .package
            .with_file_name("cli_agent_orchestrator-9.1.dist-info");
        fs::write(info.join("METADATA"), "Version: 9.2\n").unwrap();
        assert_eq!(s.find().unwrap(), first);
        // ...until the script is rewritten, as an upgrade does.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        let script = fs::File::options()
            .write(true)
            .open(venv.join("bin/cao"))
            .unwrap();
        script.set_modified(later).unwrap();
        assert_eq!(s.find().unwrap().version.as_deref(), Some("9.2"));
    }

    #[test]
    fn a_uv_tool_lookup_is_cached_like_the_path_one() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/gone/bin/python");
        let tools = tmp.path().join("uv-tools");
        fs::create_dir_all(&tools).unwrap();
        fs::rename(&venv, tools.join("cli-agent-orchestrator")).unwrap();
        let s = Search {
            cache: Some(tmp.path().join("cache/cao.json")),
            uv_tool_dir: Some(tools),
            ..search(tmp.path(), None)
        };
        let first = s.find().unwrap();
        assert_eq!(first.how, How::UvTool);
        let info = first
            .package
            .with_file_name("cli_agent_orchestrator-9.1.dist-info");
        fs::write(info.join("METADATA"), "Version: 9.2\n").unwrap();
        assert_eq!(s.find().unwrap(), first);
    }

    #[test]
    fn a_hostile_cache_is_a_miss() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/gone/bin/python");
        let cache = tmp.path().join("cache/cao.json");
        let s = Search {
            cache: Some(cache.clone()),
            ..search(tmp.path(), Some(&venv.join("bin")))
        };
        let real = s.find().unwrap();
        let entry = fs::read_to_string(&cache).unwrap();
        // From here a hit answers 9.1.0rc1 (cached), a miss 9.2 (read).
        let info = real
            .package
            .with_file_name("cli_agent_orchestrator-9.1.dist-info");
        fs::write(info.join("METADATA"), "Version: 9.2\n").unwrap();
        let miss = |bytes: &[u8]| {
            let _ = fs::remove_file(&cache);
            fs::write(&cache, bytes).unwrap();
            assert_eq!(s.find().unwrap().version.as_deref(), Some("9.2"));
        };
        // The right key, but a package elsewhere that is not CAO's.
        let elsewhere = tmp.path().join("elsewhere");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("__init__.py"), "").unwrap();
        let old = entry.replace(real.package.to_str().unwrap(), elsewhere.to_str().unwrap());
        miss(old.as_bytes());
        // Longer than any entry of ours (it would parse), and garbage.
        miss(format!("{}{entry}", " ".repeat(CACHE_MAX as usize)).as_bytes());
        miss(b"\xff{garbage");
        // A FIFO does not hang the lookup.
        fs::remove_file(&cache).unwrap();
        let c = std::ffi::CString::new(cache.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(s.find().unwrap().version.as_deref(), Some("9.2"));
    }

    #[test]
    fn built_ins_cao_cannot_read_are_listed() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/usr/bin/env python3");
        let found = search(tmp.path(), Some(&venv.join("bin"))).find().unwrap();
        let store = found.agent_store();
        fs::create_dir(store.join("folder.md")).unwrap();
        std::os::unix::fs::symlink("loop.md", store.join("loop.md")).unwrap();
        let c = std::ffi::CString::new(store.join("fifo.md").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let names = found.built_in_profiles();
        assert_eq!(names, ["dev", "fifo", "folder", "loop"]);
        // That loading them fails is `profile`'s to test.
    }

    #[test]
    fn reads_pips_sh_trampoline_and_survives_a_moved_venv() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/bin/sh");
        let script = venv.join("bin/cao");
        let tramp = format!(
            "#!/bin/sh\n'''exec' \"{}/bin/python\" \"$0\" \"$@\"\n' '''\n",
            venv.display()
        );
        fs::write(&script, tramp).unwrap();
        assert!(interpreter(&script).unwrap().starts_with(&venv));
        for (line, python) in [
            (r#"'''exec' /v/bin/python "$0" "$@""#, "/v/bin/python"),
            (r#"'''exec' "/a b/bin/python" "$0" "$@""#, "/a b/bin/python"),
            (r#"'''exec' '/a b/bin/python' "$0" "$@""#, "/a b/bin/python"),
        ] {
            assert_eq!(trampoline_target(line), Some(PathBuf::from(python)));
        }
        assert_eq!(trampoline_target("exec python"), None);
        // A shebang naming a venv that no longer exists: the script's own.
        fs::write(&script, "#!/gone/bin/python\n").unwrap();
        let found = search(tmp.path(), Some(&venv.join("bin"))).find().unwrap();
        assert!(found.package.starts_with(&venv));
    }

    #[test]
    fn the_newest_dist_info_and_python_win_by_version_not_by_spelling() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = fake_venv(tmp.path(), "#!/usr/bin/env python3");
        let lib = venv.join("lib");
        fs::rename(lib.join("python3.12"), lib.join("python3.10")).unwrap();
        // A stale CAO under python3.9 must not win over python3.10's.
        let stale = lib.join("python3.9/site-packages").join(PACKAGE);
        fs::create_dir_all(&stale).unwrap();
        fs::write(stale.join("__init__.py"), "").unwrap();
        let site = lib.join("python3.10/site-packages");
        fs::remove_dir_all(site.join("cli_agent_orchestrator-9.1.dist-info")).unwrap();
        for v in ["2.9.0", "2.10.0", "2.10.0rc1", "junk"] {
            fs::create_dir_all(site.join(format!("cli_agent_orchestrator-{v}.dist-info"))).unwrap();
        }
        let found = search(tmp.path(), Some(&venv.join("bin"))).find().unwrap();
        assert!(found.package.starts_with(&site));
        assert_eq!(found.version.as_deref(), Some("2.10.0"));
        // A METADATA that is a FIFO is not read (it would block): the
        // folder's name tells the version.
        let metadata = site.join("cli_agent_orchestrator-2.10.0.dist-info/METADATA");
        let c = std::ffi::CString::new(metadata.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let found = search(tmp.path(), Some(&venv.join("bin"))).find().unwrap();
        assert_eq!(found.version.as_deref(), Some("2.10.0"));
    }

    #[test]
    fn falls_back_to_tool_homes_and_honours_overrides() {
        let tmp = tempfile::tempdir().unwrap();
        let tools = tmp.path().join("user/.local/share/uv/tools");
        fs::create_dir_all(&tools).unwrap();
        let venv = fake_venv(tmp.path(), "#!/usr/bin/env python3");
        fs::rename(&venv, tools.join("cli-agent-orchestrator")).unwrap();
        let empty = tmp.path().join("empty");
        fs::create_dir_all(&empty).unwrap();
        let s = search(tmp.path(), Some(&empty));
        assert_eq!(s.find().unwrap().how, How::UvTool);
        // A `cao` on PATH that is not executable is not what a shell runs.
        let other = fake_venv(
            tmp.path(),
            &format!("#!{}/venv/bin/python", tmp.path().display()),
        );
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(other.join("bin/cao"), fs::Permissions::from_mode(0o644)).unwrap();
        let unexecutable = search(tmp.path(), Some(&other.join("bin")));
        assert_eq!(unexecutable.find().unwrap().how, How::UvTool);
        let flagged = Search {
            flag: Some(empty.clone()),
            ..s.clone()
        };
        assert!(flagged.find().unwrap_err().contains("--cao"));
        let by_env = Search {
            env: Some(tools.join("cli-agent-orchestrator")),
            ..s.clone()
        };
        assert_eq!(by_env.find().unwrap().how, How::Env);
        let none = search(tmp.path().join("nobody").as_path(), Some(&empty));
        assert!(none.find().unwrap_err().contains("no CAO was found"));
    }

    #[test]
    fn the_env_override_is_a_path_even_when_not_utf8() {
        use std::os::unix::ffi::OsStringExt;
        let raw = std::ffi::OsString::from_vec(b"/opt/ca\xffo".to_vec());
        assert_eq!(env_override(Some(raw.clone())), Some(PathBuf::from(raw)));
        assert_eq!(
            env_override(Some(" /opt/cao\n".into())),
            Some("/opt/cao".into())
        );
        assert_eq!(env_override(Some(" ".into())), None);
        assert_eq!(env_override(None), None);
    }
}
