//! Runs the `git` command, so the user's credentials, SSH config and proxies
//! apply as they do for any clone. git never prompts: it runs with
//! `GIT_TERMINAL_PROMPT=0` in its own session (no controlling terminal for
//! ssh to ask on), and a fetch can be cancelled (the whole process group is
//! killed and the staging folder removed).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::core::text::{sanitize_line, strip_credentials};

/// One step of a fetch, parsed from `git --progress` (e.g. "Receiving
/// objects", 45).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub phase: String,
    pub percent: u8,
}

/// Set from another thread (the TUI's Esc) to stop a running fetch.
pub type Cancel = Arc<AtomicBool>;

/// A commit checked out into a staging folder that is deleted when this is
/// dropped, whatever happened: on a thread of its own, so that the answer
/// of a command never waits on it (see [`finish_removals`]).
pub struct Checkout {
    dir: Scratch,
    name: String,
    pub commit: String,
    /// The git tree id of each folder of the commit (`""`: its root).
    trees: Trees,
    /// Files of the skill folders left on the server for their size (their
    /// blob was filtered out of the fetch): neither downloaded nor written.
    not_fetched: Vec<String>,
}

/// The scratch folder of a checkout, removed on a thread of its own when
/// dropped.
struct Scratch(Option<tempfile::TempDir>);

impl Scratch {
    fn path(&self) -> &Path {
        self.0
            .as_ref()
            .map_or(Path::new(""), tempfile::TempDir::path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            remove_later(dir);
        }
    }
}

/// Scratch folders being removed on their own threads. A large checkout
/// takes seconds to delete (2 s of a 2.4 s `add --all` on one disk): the
/// command prints its answer meanwhile. A process killed before they end
/// leaves them marked as its own, for the next run to clear.
static REMOVING: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(Vec::new());

fn remove_later(dir: tempfile::TempDir) {
    let spawned = std::thread::Builder::new()
        .name("scratch-removal".into())
        .spawn(move || drop(dir));
    // With no thread to be had, the closure is dropped, and the folder
    // with it: removed here and now.
    if let Ok(handle) = spawned {
        REMOVING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(handle);
    }
}

/// Waits for the scratch folders still being removed: `main` calls it once
/// the command's answer is out, so that nothing is left behind.
pub fn finish_removals() {
    let pending = std::mem::take(
        &mut *REMOVING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    for handle in pending {
        let _ = handle.join();
    }
}

/// A repository whose root is a skill must not bring its `.git` along: it
/// is moved beside the checkout (one rename, where deleting it walks every
/// file) and goes with the scratch folder. A repository's folder name never
/// starts with a dot (see [`repo_name`]), so the names cannot meet.
fn set_git_aside(dir: &tempfile::TempDir, repo: &Path) -> Result<(), String> {
    std::fs::rename(repo.join(".git"), dir.path().join(".git-aside"))
        .map_err(|e| format!("cannot clean the staging folder {}: {e}", repo.display()))
}

/// Folder path (`""`: the root) → git tree id.
pub type Trees = std::collections::HashMap<String, String>;

impl Checkout {
    /// The root of the checked-out tree, a folder named after the
    /// repository (CAO wants a skill's folder named as the skill, and a
    /// repository that is one skill is usually named after it).
    pub fn root(&self) -> PathBuf {
        self.dir.path().join(&self.name)
    }

    /// The folder `rel` of the tree, unless it is missing or a symlink
    /// takes it outside the tree.
    /// The git tree id of the folder `rel` of the commit: what a skill's
    /// lock entry records, to tell whether that folder changed upstream.
    pub fn tree(&self, rel: &str) -> Option<String> {
        self.trees.get(rel.trim_matches('/')).cloned()
    }

    /// The first file under the folder `rel` (`""`: the root) that was
    /// too large to download, as its path in the repository.
    pub fn not_fetched(&self, rel: &str) -> Option<&str> {
        let rel = rel.trim_matches('/');
        self.not_fetched
            .iter()
            .map(String::as_str)
            .find(|p| rel.is_empty() || p.strip_prefix(rel).is_some_and(|r| r.starts_with('/')))
    }

    pub fn folder(&self, rel: &str) -> Option<PathBuf> {
        let root = std::fs::canonicalize(self.root()).ok()?;
        let path = std::fs::canonicalize(root.join(rel)).ok()?;
        (path.starts_with(&root) && path.is_dir()).then_some(path)
    }
}

/// What to fetch: a repository URL, the ref asked for (`None`: the remote's
/// HEAD; a branch, a tag or a full commit id), and the sub path to check out
/// (`""`: all of it).
#[derive(Clone, Debug)]
pub struct FetchSpec<'a> {
    pub url: &'a str,
    pub reference: Option<&'a str>,
    pub sub: &'a str,
    /// Blobs larger than this (bytes) in the skill folders are neither
    /// downloaded nor checked out (`None`: any size).
    pub max_blob: Option<u64>,
}

fn base_command() -> Command {
    let mut cmd = Command::new("git");
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        // ssh falls back to a graphical askpass when it has no terminal.
        .env("SSH_ASKPASS_REQUIRE", "never")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid and prctl are async-signal-safe and touch no memory
        // of ours.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                // Out of our session, git would outlive a skilltui that is
                // killed or leaves at a second signal: let the kernel end it.
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    cmd
}

fn spawn_error(e: std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            "git is not installed or not on PATH: install git to use skills from a repository"
                .into()
        }
        _ => format!("cannot run git: {e}: check that git is installed and runs"),
    }
}

/// Runs git to completion and returns its stdout; the error is git's
/// last `fatal:`/`error:` line.
fn run(args: &[&str], cwd: Option<&Path>) -> Result<String, String> {
    watch(args, cwd, &[], &mut |_| {}, None).map(|(out, _)| out)
}

/// The line of git's stderr that says what went wrong: the first error
/// line (git follows a cause with generic ones like "Could not read from
/// remote repository").
fn first_error(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .find(|l| {
            ["fatal:", "error:", "ERROR:", "ssh:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .or(lines.last())
        .map(|l| sanitize_line(&strip_credentials(l)).into_owned())
        .unwrap_or_else(|| "git failed without saying why".into())
}

/// True for a full hexadecimal commit id, which names itself.
pub fn is_commit_id(reference: &str) -> bool {
    reference.len() == 40 && reference.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The commit `reference` (`None`: HEAD) points to on the remote, with one
/// `git ls-remote`. A full commit id is returned as is.
pub fn ls_remote(url: &str, reference: Option<&str>) -> Result<String, String> {
    if let Some(r) = reference.filter(|r| is_commit_id(r)) {
        return Ok(r.to_ascii_lowercase());
    }
    let pattern = reference.unwrap_or("HEAD");
    // ls-remote matches patterns on whole names, so a tag's peeled line
    // (`v1^{}`) needs a pattern of its own.
    let peeled = format!("{pattern}^{{}}");
    let out = run(&["ls-remote", "--", url, pattern, &peeled], None)
        .map_err(|e| explain(url, reference, &e))?;
    pick_ref(&out, pattern).ok_or_else(|| unknown_ref(url, reference))
}

/// Picks the commit `git fetch origin PATTERN` would get from an
/// ls-remote listing: git's own order for a short name (as is, `refs/`,
/// `refs/tags/`, `refs/heads/`, `refs/remotes/`), a tag peeled to its commit.
fn pick_ref(listing: &str, pattern: &str) -> Option<String> {
    let rows: Vec<(&str, &str)> = listing.lines().filter_map(|l| l.split_once('\t')).collect();
    let full_names = [
        pattern.to_string(),
        format!("refs/{pattern}"),
        format!("refs/tags/{pattern}"),
        format!("refs/heads/{pattern}"),
        format!("refs/remotes/{pattern}"),
        format!("refs/remotes/{pattern}/HEAD"),
    ];
    let find = |name: &str| rows.iter().find(|(_, n)| *n == name).map(|(sha, _)| sha);
    full_names
        .iter()
        .find_map(|n| find(&format!("{n}^{{}}")).or_else(|| find(n)))
        .map(|sha| sha.to_string())
}

fn unknown_ref(url: &str, reference: Option<&str>) -> String {
    let url = sanitize_line(&strip_credentials(url)).into_owned();
    let Some(r) = reference else {
        return format!(
            "{url} has no default branch (is it empty?): name a branch, tag or commit with @REF"
        );
    };
    // Like an abbreviated id: hex, with a letter (not a date or a number).
    let abbreviated = r.len() >= 7
        && r.bytes().all(|b| b.is_ascii_hexdigit())
        && r.bytes().any(|b| b.is_ascii_alphabetic());
    let what = if abbreviated {
        "a commit is named by its full 40-character id"
    } else {
        "give a branch, a tag or a commit the repository has"
    };
    format!("unknown ref '{}' in {url}: {what}", sanitize_line(r))
}

/// Turns git's own failure line into one line that says what to do.
fn explain(url: &str, reference: Option<&str>, git_line: &str) -> String {
    let url_shown = sanitize_line(&strip_credentials(url)).into_owned();
    if let Some(secs) = git_line.strip_prefix(TIMED_OUT) {
        return format!(
            "{} did not answer for{secs} ({url_shown}): check the address and the network, or allow longer with SKILLTUI_GIT_TIMEOUT=SECONDS",
            sanitize_line(&host_of(url))
        );
    }
    let lower = git_line.to_ascii_lowercase();
    if lower.contains("could not resolve host")
        || lower.contains("could not connect")
        || lower.contains("couldn't connect")
        || lower.contains("failed to connect")
        || lower.contains("connection refused")
        || lower.contains("timed out")
        || lower.contains("network is unreachable")
    {
        return format!("cannot reach {url_shown} ({git_line}): check the address and the network");
    }
    if lower.contains("couldn't find remote ref")
        || lower.contains("not our ref")
        || lower.contains("unadvertised object")
        || lower.contains("no such remote ref")
    {
        return match reference.filter(|r| is_commit_id(r)) {
            Some(c) => format!(
                "commit {c} is no longer in {url_shown} (history was rewritten): `skilltui update` re-pins to the ref's tip"
            ),
            None => unknown_ref(url, reference),
        };
    }
    if lower.contains("not found")
        || lower.contains("does not appear to be a git repository")
        || lower.contains("does not exist")
        || lower.contains("authentication failed")
        || lower.contains("could not read username")
    {
        return format!(
            "no repository at {url_shown} ({git_line}): check the owner and name, and your access"
        );
    }
    format!("git failed on {url_shown}: {git_line}")
}

/// Fetches one commit of `spec` (shallow, blobs only for the sub path when
/// the server allows it, no submodules) into a fresh staging folder.
pub fn fetch(
    spec: &FetchSpec,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<Checkout, String> {
    let dir = scratch_dir()?;
    let name = repo_name(spec.url);
    let repo = dir.path().join(&name);
    let repo_str = repo.to_string_lossy().into_owned();
    // Even these local steps can hang (a stuck filesystem, a git wrapper):
    // Esc must stop them as it stops the fetch.
    let mut quiet = |_| {};
    run_with_progress(&["init", "-q", &repo_str], dir.path(), &mut quiet, cancel)?;
    let origin = ["remote", "add", "origin", spec.url];
    run_with_progress(&origin, &repo, &mut quiet, cancel)?;
    let wanted = spec.reference.unwrap_or("HEAD");
    let args = [
        "fetch",
        "--depth=1",
        "--filter=blob:none",
        "--no-tags",
        "--no-recurse-submodules",
        "--no-auto-gc",
        "--progress",
        "origin",
        wanted,
    ];
    let said = run_with_progress(&args, &repo, progress, cancel)
        .map_err(|e| explain(spec.url, spec.reference, &e))?;
    // A server that ignores filters (git warns so) sent every file already.
    let filtered = !said.contains("filtering not recognized");
    let (commit, root_tree) = tip(&repo)?;
    // Every entry of the commit (trees only: a blob-less fetch has them).
    let listing = run(&["ls-tree", "-r", "-t", "-z", "FETCH_HEAD"], Some(&repo))?;
    let mut trees = tree_rows(&listing);
    trees.insert(String::new(), root_tree);
    // Only the skill folders are checked out (their blobs fetched): a
    // large file beside them is never downloaded nor written.
    let sub = spec.sub.trim_matches('/');
    let paths = listing
        .split('\0')
        .filter_map(|row| Some(row.split_once('\t')?.1));
    let patterns = skill_patterns(paths, sub);
    if patterns.is_empty() {
        // No skill: nothing to fetch; the folder asked for still exists,
        // so the caller says "no skills" rather than "no folder".
        if trees.contains_key(sub) {
            std::fs::create_dir_all(repo.join(sub))
                .map_err(|e| format!("cannot write the staging folder: {e}"))?;
        }
        set_git_aside(&dir, &repo)?;
        return Ok(Checkout {
            dir: Scratch(Some(dir)),
            name,
            commit,
            trees,
            not_fetched: Vec::new(),
        });
    }
    let (mut patterns, folders) = patterns.into_iter().unzip::<_, _, Vec<_>, Vec<_>>();
    let tree_ids: Vec<&str> = folders
        .iter()
        .filter_map(|f| trees.get(f).map(String::as_str))
        .collect();
    let missing = match spec.max_blob.filter(|_| filtered) {
        Some(max) => fetch_blobs_up_to(&repo, &tree_ids, max, progress, cancel)
            .map_err(|e| explain(spec.url, spec.reference, &e))?,
        None => None,
    };
    let not_fetched = missing
        .as_ref()
        .map(|ids| blob_paths(&listing, ids))
        .unwrap_or_default();
    // Later patterns win: a file left on the server is not checked out.
    patterns.extend(
        not_fetched
            .iter()
            .map(|p| format!("!/{}", escape_pattern(p))),
    );
    // What `git sparse-checkout set --no-cone` writes, without its run.
    let info = repo.join(".git/info");
    std::fs::create_dir_all(&info)
        .and_then(|()| std::fs::write(info.join("sparse-checkout"), patterns.join("\n") + "\n"))
        .map_err(|e| format!("cannot write the staging folder: {e}"))?;
    let checkout = [
        "-c",
        "advice.detachedHead=false",
        "-c",
        "core.sparseCheckout=true",
        "-c",
        "core.sparseCheckoutCone=false",
        "checkout",
        "-q",
        "--progress",
        "--detach",
        "FETCH_HEAD",
    ];
    // With a size limit every blob wanted was fetched above, so git must
    // not fetch a missing one on demand; without, a partial clone fetches
    // the blobs it checks out here (cancellable too).
    let lazy = match missing {
        Some(_) => NO_LAZY_FETCH,
        None => &[],
    };
    watch(&checkout, Some(&repo), lazy, progress, cancel)
        .map_err(|e| explain(spec.url, spec.reference, &e))?;
    set_git_aside(&dir, &repo)?;
    Ok(Checkout {
        dir: Scratch(Some(dir)),
        name,
        commit,
        trees,
        not_fetched,
    })
}

/// Fetches the blobs of the trees `tree_ids` that are at most `max` bytes
/// (the server filters the rest out) and returns the ids of those left out;
/// `None` from a git too old to refetch (before 2.36): the checkout then
/// fetches every blob and the copy's limits refuse a large one.
/// The trees are already here, so only `--refetch` makes git ask for them;
/// the noop negotiation keeps git from claiming the commit, whose blobs
/// it lacks.
fn fetch_blobs_up_to(
    repo: &Path,
    tree_ids: &[&str],
    max: u64,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<Option<std::collections::HashSet<String>>, String> {
    let filter = format!("--filter=blob:limit={}", max + 1);
    let mut args = vec![
        "-c",
        "fetch.negotiationAlgorithm=noop",
        "fetch",
        "--refetch",
        "--no-write-fetch-head",
        "--no-tags",
        "--no-recurse-submodules",
        "--no-auto-gc",
        "--progress",
        &filter,
        "origin",
    ];
    args.extend(tree_ids);
    match run_with_progress(&args, repo, progress, cancel) {
        Err(e) if e.contains("unknown option") && e.contains("refetch") => return Ok(None),
        other => drop(other?),
    }
    let mut list = vec![
        "rev-list",
        "--objects",
        "--missing=print",
        "--no-object-names",
    ];
    list.extend(tree_ids);
    let (out, _) = watch(&list, Some(repo), NO_LAZY_FETCH, &mut |_| {}, cancel)?;
    Ok(Some(
        out.lines()
            .filter_map(|l| l.strip_prefix('?'))
            .map(str::to_string)
            .collect(),
    ))
}

/// git must not fetch a missing object on its own.
const NO_LAZY_FETCH: &[(&str, &str)] = &[("GIT_NO_LAZY_FETCH", "1")];

/// The paths of the blobs `ids` in an `ls-tree -r -z` listing.
fn blob_paths(listing: &str, ids: &std::collections::HashSet<String>) -> Vec<String> {
    if ids.is_empty() {
        return Vec::new();
    }
    listing
        .split('\0')
        .filter_map(|row| {
            let (meta, path) = row.split_once('\t')?;
            let id = meta.split(' ').nth(2)?;
            ids.contains(id).then(|| path.to_string())
        })
        .collect()
}

/// Skill folders are not searched deeper than this below the folder asked
/// for (discovery looks five levels down).
const SKILL_DEPTH: usize = 6;

/// The sparse-checkout patterns (non-cone) for the skill folders under
/// `sub` among the paths of a commit, each with its folder: `sub` alone
/// when it is a skill, else each folder holding a SKILL.md.
fn skill_patterns<'a>(paths: impl Iterator<Item = &'a str>, sub: &str) -> Vec<(String, String)> {
    let prefix = if sub.is_empty() {
        String::new()
    } else {
        format!("{sub}/")
    };
    let mut folders: Vec<&str> = paths
        .filter_map(|p| p.strip_prefix(prefix.as_str()))
        .filter_map(|p| match p {
            "SKILL.md" => Some(""),
            _ => p.strip_suffix("/SKILL.md"),
        })
        .filter(|f| f.split('/').count() <= SKILL_DEPTH)
        .filter(|f| !f.split('/').any(|c| c == "node_modules"))
        .collect();
    if folders.contains(&"") {
        folders = vec![""];
    }
    folders
        .into_iter()
        .map(|f| {
            let path = [sub, f]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>();
            match path.join("/") {
                all if all.is_empty() => ("/*".to_string(), all),
                folder => (format!("/{}/", escape_pattern(&folder)), folder),
            }
        })
        .collect()
}

/// A path as a gitignore-style pattern that matches only itself.
fn escape_pattern(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if "*?[]\\!# ".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// FETCH_HEAD's commit and root tree ids, with one git call.
fn tip(repo: &Path) -> Result<(String, String), String> {
    let out = run(
        &["rev-parse", "FETCH_HEAD^{commit}", "FETCH_HEAD^{tree}"],
        Some(repo),
    )?;
    let mut lines = out.lines().map(|l| l.trim().to_string());
    match (lines.next(), lines.next()) {
        (Some(commit), Some(tree)) => Ok((commit, tree)),
        _ => Err("git rev-parse named no commit for FETCH_HEAD".into()),
    }
}

/// `ls-tree -z` rows (`MODE tree ID\tPATH\0`) → path → tree id.
fn tree_rows(listing: &str) -> Trees {
    listing
        .split('\0')
        .filter_map(|row| {
            let (meta, path) = row.split_once('\t')?;
            let mut parts = meta.split(' ');
            let (_, kind, id) = (parts.next()?, parts.next()?, parts.next()?);
            (kind == "tree").then(|| (path.to_string(), id.to_string()))
        })
        .collect()
}

/// The tip commit of `reference` and the tree id of each of `paths` in it
/// (absent: no such folder), from one fetch of commits and trees only
/// (`--filter=blob:none`, depth 1) into a scratch repository: what `check`
/// compares a skill's pinned tree with, at one fetch per repository.
pub fn trees_at(
    url: &str,
    reference: Option<&str>,
    paths: &[&str],
) -> Result<(String, Trees), String> {
    let dir = scratch_fetch(url, reference, &["-q", "--depth=1", "--filter=blob:none"])?;
    let repo = dir.path();
    let (commit, root_tree) = tip(repo)?;
    let mut args = vec!["ls-tree", "-z", "FETCH_HEAD", "--"];
    let named: Vec<&str> = paths.iter().copied().filter(|p| !p.is_empty()).collect();
    args.extend(&named);
    let mut trees = if named.is_empty() {
        Trees::new()
    } else {
        tree_rows(&run(&args, Some(repo))?)
    };
    trees.insert(String::new(), root_tree);
    Ok((commit, trees))
}

/// A skill's SKILL.md read from a repository without cloning it whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillMd {
    /// Its path in the repository.
    pub path: String,
    pub text: String,
}

/// The SKILL.md of skill `name` at the tip of `url`'s default branch, to
/// read before installing: a blobless, no-checkout, depth-1 clone gives the
/// tree (commits and trees only), `ls-tree` finds the file, and `cat-file`
/// fetches that one blob. The scratch clone is removed on return; `cancel`
/// kills git at any step.
pub fn read_skill_md(url: &str, name: &str, cancel: Option<&Cancel>) -> Result<SkillMd, String> {
    let dir = scratch_dir()?;
    read_skill_md_into(&dir.path().join("repo"), url, name, cancel)
}

/// [`read_skill_md`] with the clone made at `repo` (left there: tests look
/// at what it holds).
pub fn read_skill_md_into(
    repo: &Path,
    url: &str,
    name: &str,
    cancel: Option<&Cancel>,
) -> Result<SkillMd, String> {
    let said = |e: String| match e.starts_with("cancelled") {
        true => e,
        false => explain(url, None, &e),
    };
    let parent = repo.parent().unwrap_or(repo);
    let repo_str = repo.to_string_lossy().into_owned();
    let clone = [
        "clone",
        "-q",
        "--filter=blob:none",
        "--no-checkout",
        "--depth=1",
        "--no-tags",
        "--",
        url,
        &repo_str,
    ];
    let quiet = &mut |_| {};
    watch(&clone, Some(parent), &[], quiet, cancel).map_err(said)?;
    let list = ["ls-tree", "-r", "--name-only", "-z", "HEAD"];
    let (listing, _) = watch(&list, Some(repo), NO_LAZY_FETCH, quiet, cancel).map_err(said)?;
    let paths: Vec<&str> = listing.split('\0').filter(|p| !p.is_empty()).collect();
    let Some(path) = skill_md_of(&paths, name) else {
        return Err(format!(
            "{} has no folder '{}' holding a SKILL.md: Enter opens the repository to pick from what it holds",
            sanitize_line(&strip_credentials(url)),
            sanitize_line(name)
        ));
    };
    let blob = format!("HEAD:{path}");
    let (text, _) =
        watch(&["cat-file", "blob", &blob], Some(repo), &[], quiet, cancel).map_err(said)?;
    Ok(SkillMd {
        path: path.to_string(),
        text,
    })
}

/// Among a commit's paths, the SKILL.md of skill `name`: the one in a
/// folder of that name, else the only one there is.
fn skill_md_of<'a>(paths: &[&'a str], name: &str) -> Option<&'a str> {
    let found: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| *p == "SKILL.md" || p.ends_with("/SKILL.md"))
        .filter(|p| p.split('/').count() <= SKILL_DEPTH + 1)
        .filter(|p| !p.split('/').any(|c| c == "node_modules"))
        .collect();
    let named = found.iter().find(|p| p.rsplit('/').nth(1) == Some(name));
    named.copied().or(match found[..] {
        [only] => Some(only),
        _ => None,
    })
}

/// A scratch bare repository holding `reference` (`None`: HEAD) of `url`
/// as `FETCH_HEAD`, fetched with `flags` (what to leave out) and no tags.
fn scratch_fetch(
    url: &str,
    reference: Option<&str>,
    flags: &[&str],
) -> Result<tempfile::TempDir, String> {
    let dir = scratch_dir()?;
    run(&["init", "-q", "--bare"], Some(dir.path()))?;
    let mut args = vec!["fetch"];
    args.extend(flags);
    args.extend(["--no-tags", "--", url, reference.unwrap_or("HEAD")]);
    run(&args, Some(dir.path())).map_err(|e| explain(url, reference, &e))?;
    Ok(dir)
}

/// Whether `commit` is in the history of `reference` (`None`: HEAD) on the
/// remote. A server may hand out any commit it holds (a deleted branch's,
/// a fork's through its parent's URL), so a pin is trusted only when its
/// ref reaches it: checked with a fetch of commits alone (no trees, no
/// blobs) into a scratch repository.
pub fn reachable(url: &str, reference: Option<&str>, commit: &str) -> Result<bool, String> {
    let dir = scratch_fetch(
        url,
        reference,
        &["--filter=tree:0", "--no-recurse-submodules"],
    )?;
    let repo = dir.path();
    let object = format!("{commit}^{{commit}}");
    let present = run(&["cat-file", "-e", &object], Some(repo)).is_ok();
    Ok(present
        && run(
            &["merge-base", "--is-ancestor", commit, "FETCH_HEAD"],
            Some(repo),
        )
        .is_ok())
}

/// Staging folders are named `skilltui-git-PID-…` after the process that
/// owns them.
const STAGING_PREFIX: &str = "skilltui-git-";

/// Random characters `tempfile` puts after the prefix (its default).
const SCRATCH_RANDOM_LEN: usize = 6;

/// The file skilltui writes first in each of its git scratch folders,
/// holding the folder's own name: only a folder that has it is ever
/// removed as an orphan, so a user's folder that merely shares the name's
/// shape is never touched.
pub const SCRATCH_MARKER: &str = ".skilltui-git-scratch";

/// A fresh scratch folder (for git, or a download) in the temp folder, marked as
/// skilltui's own, after the orphans of killed processes are cleared.
pub(crate) fn scratch_dir() -> Result<tempfile::TempDir, String> {
    let temp = std::env::temp_dir();
    remove_orphans(&temp);
    let cannot = |e: std::io::Error| format!("cannot create a scratch folder for git: {e}");
    let dir = tempfile::Builder::new()
        .prefix(&format!("{STAGING_PREFIX}{}-", std::process::id()))
        .tempdir_in(&temp)
        .map_err(cannot)?;
    let name = dir
        .path()
        .file_name()
        .unwrap_or_default()
        .as_encoded_bytes();
    std::fs::write(dir.path().join(SCRATCH_MARKER), name).map_err(cannot)?;
    Ok(dir)
}

/// The process that made the scratch folder `entry`, when skilltui can
/// prove the folder is one of its own: the exact name shape, a real
/// folder (not a link), and the marker file inside naming it.
fn scratch_owner(entry: &std::fs::DirEntry) -> Option<i32> {
    let name = entry.file_name();
    let (pid, random) = name
        .to_str()?
        .strip_prefix(STAGING_PREFIX)?
        .split_once('-')?;
    let shaped = !pid.is_empty()
        && pid.bytes().all(|b| b.is_ascii_digit())
        && random.len() == SCRATCH_RANDOM_LEN
        && random.bytes().all(|b| b.is_ascii_alphanumeric());
    if !shaped || !entry.file_type().ok()?.is_dir() {
        return None;
    }
    let marker = entry.path().join(SCRATCH_MARKER);
    let meta = std::fs::symlink_metadata(&marker).ok()?;
    if !meta.is_file() || meta.len() != name.len() as u64 {
        return None;
    }
    let held = std::fs::read(&marker).ok()?;
    (held == name.as_encoded_bytes()).then(|| pid.parse().ok())?
}

/// Removes the scratch folders of processes that are gone (killed before
/// their checkout was dropped); a live process's folder, another user's,
/// or anything not provably skilltui's is left alone.
fn remove_orphans(temp: &Path) {
    remove_scratch_where(temp, |pid| pid > 0 && !process_exists(pid));
}

/// Removes the scratch folders under `temp` that are provably skilltui's
/// and whose owner `pid` passes `whose`.
fn remove_scratch_where(temp: &Path, whose: impl Fn(i32) -> bool) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        if scratch_owner(&entry).is_some_and(&whose) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Clears the scratch folders a killed skilltui left (SIGKILL gives it no
/// chance to): every command calls this as it starts.
pub fn clear_orphans() {
    remove_orphans(&std::env::temp_dir());
}

/// True while this process has a scratch folder in the temp folder.
pub fn has_own_scratch() -> bool {
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    std::fs::read_dir(std::env::temp_dir()).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| scratch_owner(&e).is_some_and(|pid| pid == me))
    })
}

/// Removes this process's own scratch folders: for a signal handler
/// about to end skilltui when the command did not unwind in time.
pub fn remove_own_scratch() {
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    remove_scratch_where(&std::env::temp_dir(), |pid| pid == me);
}

#[cfg(unix)]
fn process_exists(pid: i32) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let gone = unsafe { libc::kill(pid, 0) } != 0
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    !gone
}

#[cfg(not(unix))]
fn process_exists(_pid: i32) -> bool {
    true
}

/// The host a URL names (credentials left out), or the URL itself for a
/// local path.
fn host_of(url: &str) -> String {
    let clean = strip_credentials(url);
    let rest = match clean.split_once("://") {
        Some(("file", _)) => return clean.into_owned(),
        Some((_, rest)) => rest,
        None => &clean,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    // `host:port`, or scp-like `host:path`; a bracketed IPv6 keeps its own.
    match host.strip_prefix('[') {
        Some(v6) => format!("[{}]", v6.split(']').next().unwrap_or(v6)),
        None => host.split(':').next().unwrap_or(host).to_string(),
    }
}

/// The last segment of a repository URL without `.git`, as a folder name.
fn repo_name(url: &str) -> String {
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or_default();
    let last = last.strip_suffix(".git").unwrap_or(last);
    let ok = !last.is_empty()
        && !last.starts_with('.')
        && last
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok { last.to_string() } else { "repo".into() }
}

/// Runs git, feeding each progress step to `progress`; kills git's whole
/// process group when `cancel` is set. Returns the rest of git's stderr
/// (its warnings).
fn run_with_progress(
    args: &[&str],
    cwd: &Path,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<String, String> {
    watch(args, Some(cwd), &[], progress, cancel).map(|(_, said)| said)
}

/// What git's output threads report.
enum Heard {
    /// A line of stderr (a progress step, or part of the error log).
    Line(String),
    /// Some bytes of stdout: git is working.
    Output,
}

/// Default of `SKILLTUI_GIT_TIMEOUT`: seconds git may go without a word
/// before it is given up on.
const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// The start of the error a silent remote gives, recognised by [`explain`].
const TIMED_OUT: &str = "no answer for";
/// More stdout than any ls-remote or rev-parse of ours needs.
const MAX_STDOUT: usize = 16 << 20;

/// `SKILLTUI_GIT_TIMEOUT` (whole seconds, more than 0), else the default.
fn timeout() -> Duration {
    let secs = std::env::var("SKILLTUI_GIT_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(DEFAULT_TIMEOUT_SECS);
    Duration::from_secs(secs)
}

/// Runs git and returns its stdout and the stderr lines that are not
/// progress (with `env` set for it). Any output counts as progress; after
/// [`timeout`] without any, or when `cancel` is set, git's whole process
/// group (remote helpers, ssh) is killed.
fn watch(
    args: &[&str],
    cwd: Option<&Path>,
    env: &[(&str, &str)],
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&Cancel>,
) -> Result<(String, String), String> {
    let mut cmd = base_command();
    cmd.args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().map_err(spawn_error)?;
    let _running = Running::register(&child);
    let (tx, rx) = mpsc::channel::<Heard>();
    let stderr = child.stderr.take().ok_or("git has no stderr")?;
    let stdout = child.stdout.take().ok_or("git has no stdout")?;
    let err_reader = std::thread::spawn({
        let tx = tx.clone();
        move || read_lines(stderr, &tx)
    });
    let out_reader = std::thread::spawn(move || read_capped(stdout, &tx));
    let limit = timeout();
    let mut heard_at = Instant::now();
    let mut log = String::new();
    let stopped = loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || crate::core::sources::interrupt::interrupted()
        {
            break Some("cancelled: nothing was installed".to_string());
        }
        if heard_at.elapsed() >= limit {
            break Some(format!("{TIMED_OUT} {} s", limit.as_secs()));
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(heard) => {
                heard_at = Instant::now();
                if let Heard::Line(line) = heard {
                    match parse_progress(&line) {
                        Some(p) => progress(p),
                        None => {
                            log.push_str(&line);
                            log.push('\n');
                        }
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break None,
        }
    };
    if let Some(why) = stopped {
        kill_group(&mut child);
        let _ = (err_reader.join(), out_reader.join());
        return Err(why);
    }
    let _ = err_reader.join();
    let out = out_reader.join().unwrap_or_default();
    let status = child
        .wait()
        .map_err(|e| format!("git did not finish: {e}"))?;
    match (status.success(), out) {
        (true, Some(out)) => Ok((String::from_utf8_lossy(&out).into_owned(), log)),
        (true, None) => Err("git's answer is too large to be a repository's".into()),
        (false, _) => Err(first_error(&log)),
    }
}

fn read_lines(mut from: impl Read, tx: &mpsc::Sender<Heard>) {
    let mut buf = [0u8; 4096];
    let mut pending = String::new();
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        pending.push_str(&String::from_utf8_lossy(&buf[..n]));
        while let Some(i) = pending.find(['\r', '\n']) {
            let line: String = pending.drain(..=i).collect();
            let _ = tx.send(Heard::Line(line.trim_end().to_string()));
        }
        // A line that never ends is not kept whole.
        if pending.len() > 64 * 1024 {
            let _ = tx.send(Heard::Line(std::mem::take(&mut pending)));
        }
    }
    if !pending.is_empty() {
        let _ = tx.send(Heard::Line(pending));
    }
}

/// All of `from`, or `None` past [`MAX_STDOUT`] (read on to the end so git
/// is not blocked on a full pipe).
fn read_capped(mut from: impl Read, tx: &mpsc::Sender<Heard>) -> Option<Vec<u8>> {
    let mut out = Some(Vec::new());
    let mut buf = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let _ = tx.send(Heard::Output);
        if let Some(o) = out.as_mut() {
            o.extend_from_slice(&buf[..n]);
            if o.len() > MAX_STDOUT {
                out = None;
            }
        }
    }
    out
}

/// The process groups of the gits running now, so a signal that ends
/// skilltui can end them and their helpers first: the kernel's
/// parent-death signal reaches git alone, not the ssh it started.
static RUNNING: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

/// Registered while a git runs.
struct Running(i32);

impl Running {
    fn register(child: &Child) -> Running {
        let pid = i32::try_from(child.id()).unwrap_or(0);
        if let Ok(mut all) = RUNNING.lock() {
            all.push(pid);
        }
        Running(pid)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut all) = RUNNING.lock() {
            all.retain(|p| *p != self.0);
        }
    }
}

/// Kills every running git with its helpers (ssh, remote-https, credential
/// helpers): for a signal handler about to end skilltui.
pub fn kill_all() {
    let Ok(all) = RUNNING.lock() else { return };
    for pid in all.iter().filter(|p| **p > 0) {
        #[cfg(unix)]
        // SAFETY: each registered git leads its own session (setsid), so
        // -pid is that git and its helpers and nothing else.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: git leads its own session (setsid), so -pid is git and
        // its helpers (remote-https, ssh) and nothing else.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// "Receiving objects:  45% (9/20)" → ("Receiving objects", 45); also with
/// git's "remote: " prefix.
pub fn parse_progress(line: &str) -> Option<Progress> {
    let line = line.strip_prefix("remote: ").unwrap_or(line).trim();
    let (phase, rest) = line.split_once(':')?;
    let (percent, after) = rest.trim_start().split_once('%')?;
    // git follows the percentage with "(done/total)" or nothing.
    if !(after.is_empty() || after.starts_with(" (")) {
        return None;
    }
    let percent = percent.trim();
    let percent: u8 = percent.parse().ok().filter(|p| *p <= 100)?;
    if phase.is_empty() || !phase.chars().all(|c| c.is_ascii_alphabetic() || c == ' ') {
        return None;
    }
    Some(Progress {
        phase: phase.to_string(),
        percent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_checkout_is_removed_on_its_own_thread_and_waited_for_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        for i in 0..200 {
            std::fs::write(path.join(format!("f{i}")), "x").unwrap();
        }
        let removing = || REMOVING.lock().unwrap().len();
        drop(Scratch(Some(dir)));
        // Handed to a thread rather than removed in the drop: the command
        // goes on to print its answer.
        assert!(removing() >= 1, "no removal was handed to a thread");
        finish_removals();
        assert_eq!(removing(), 0);
        assert!(!path.exists(), "finish_removals waits until it is gone");
    }

    #[test]
    fn progress_lines_parse_with_and_without_the_remote_prefix() {
        assert_eq!(
            parse_progress("Receiving objects:  45% (9/20), 1.2 KiB"),
            Some(Progress {
                phase: "Receiving objects".into(),
                percent: 45
            })
        );
        assert_eq!(
            parse_progress("remote: Counting objects: 100% (3/3), done."),
            Some(Progress {
                phase: "Counting objects".into(),
                percent: 100
            })
        );
        assert_eq!(parse_progress("fatal: 50% of nothing"), None);
        assert_eq!(parse_progress("From file:///x"), None);
        assert_eq!(parse_progress("Resolving deltas: 140%"), None);
    }

    #[test]
    fn ls_remote_rows_pick_what_fetch_gets() {
        // fetch takes the tag over a branch of the same name, peeled.
        let listing = "aaa\trefs/heads/v1\nbbb\trefs/tags/v1\nccc\trefs/tags/v1^{}\n";
        assert_eq!(pick_ref(listing, "v1").as_deref(), Some("ccc"));
        let light = "aaa\trefs/heads/v1\nddd\trefs/tags/v1\n";
        assert_eq!(pick_ref(light, "v1").as_deref(), Some("ddd"));
        assert_eq!(pick_ref(listing, "refs/heads/v1").as_deref(), Some("aaa"));
        // A pattern matching only a longer name is not what fetch takes.
        assert_eq!(pick_ref("eee\trefs/heads/feature/x\n", "x"), None);
        assert_eq!(pick_ref("", "v2"), None);
    }

    #[test]
    fn only_skill_folders_are_checked_out() {
        let listing = "README.md\0big.bin\0skills/a/SKILL.md\0skills/a/x.md\0skills/b c/SKILL.md\0node_modules/n/SKILL.md\0";
        let patterns = |paths: &mut dyn Iterator<Item = &str>, sub: &str| -> Vec<String> {
            skill_patterns(paths, sub)
                .into_iter()
                .map(|(p, _)| p)
                .collect()
        };
        assert_eq!(
            patterns(&mut listing.split('\0'), ""),
            ["/skills/a/", "/skills/b\\ c/"]
        );
        assert_eq!(
            skill_patterns(listing.split('\0'), "skills/a"),
            [("/skills/a/".to_string(), "skills/a".to_string())]
        );
        assert_eq!(
            patterns(&mut listing.split('\0'), "skills"),
            ["/skills/a/", "/skills/b\\ c/"]
        );
        assert_eq!(
            skill_patterns(["SKILL.md", "big.bin"].into_iter(), ""),
            [("/*".to_string(), String::new())]
        );
        assert!(skill_patterns(listing.split('\0'), "docs").is_empty());
    }

    #[test]
    fn checkouts_are_named_after_the_repository() {
        assert_eq!(repo_name("https://github.com/o/pdf-skill"), "pdf-skill");
        assert_eq!(repo_name("git@host:o/r.git"), "r");
        assert_eq!(repo_name("file:///srv/x.git/"), "x");
        assert_eq!(repo_name("https://host/.."), "repo");
        assert_eq!(repo_name("git@host:"), "repo");
    }

    #[test]
    fn a_timeout_names_the_host_alone() {
        assert_eq!(host_of("https://u:T@h.example:8443/o/r"), "h.example");
        assert_eq!(host_of("git@github.com:o/r.git"), "github.com");
        assert_eq!(host_of("ssh://git@[::1]:22/r"), "[::1]");
        let e = explain(
            "https://u:T@h.example/o/r",
            None,
            &format!("{TIMED_OUT} 5 s"),
        );
        assert!(e.starts_with("h.example did not answer for 5 s"), "{e}");
        assert!(!e.contains(":T@"), "{e}");
    }

    #[test]
    fn git_errors_become_advice() {
        let e = explain(
            "https://x.invalid/o/r",
            None,
            "fatal: unable to access: Could not resolve host: x.invalid",
        );
        assert!(e.starts_with("cannot reach"), "{e}");
        let e = explain("u", Some("nope"), "fatal: couldn't find remote ref nope");
        assert!(e.starts_with("unknown ref 'nope'"), "{e}");
        let e = explain(
            "u",
            Some("abc1234"),
            "fatal: couldn't find remote ref abc1234",
        );
        assert!(e.ends_with("full 40-character id"), "{e}");
        let e = explain("u", None, "fatal: couldn't find remote ref HEAD");
        assert!(e.starts_with("u has no default branch"), "{e}");
        let stderr = "hint: x\nfatal: 'p' does not appear to be a git repository\nfatal: Could not read from remote repository.\n";
        assert_eq!(
            first_error(stderr),
            "fatal: 'p' does not appear to be a git repository"
        );
        let e = explain("u", None, "fatal: repository 'u' not found");
        assert!(e.starts_with("no repository at u"), "{e}");
    }
}
