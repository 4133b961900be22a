//! What `skilltui serve` serves: CAO's valid skills (or one profile's set),
//! by name, each read whole ([`skill::judge`]: manifest, digests, audit
//! verdict) only when first needed, so that the server answers at once
//! whatever the size of the store. A skill is never listed, read or
//! loaded before its verdict is known. One catalog per state of the disk:
//! the server opens a new one when the watcher sees a change.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::skill::{self, Cache, File, Judged, MAX_BYTES, Served};
use super::uri;
use crate::core::cao::catalog::select;
use crate::core::cao::skill as cao_skill;
use crate::core::cao::store::{self, Entry, Home};
use crate::core::delivery;
use crate::core::fsops;

/// The skills named in the server's `instructions` and `load_skill`'s
/// description, at most: naming a skill needs its verdict, so these are
/// the skills read before the server answers. The rest are found through
/// `skills/list` and `resources/list`, read a page at a time.
pub const INSTRUCTED: usize = 100;

/// What to serve.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only what this profile's `skills:` gives its agent (CAO's rules).
    pub profile: Option<String>,
    /// Serve a skill the audit finds critical.
    pub trust: bool,
}

/// Told the line of each skill held back, once per catalog, when it is
/// first read.
pub type OnHeld = Arc<dyn Fn(&str) + Send + Sync>;

/// The skills a state of the disk offers, each read on first need.
pub struct Catalog {
    /// Name and folder of each skill offered, by name.
    offered: Vec<(String, PathBuf)>,
    by_name: HashMap<String, usize>,
    judged: Vec<OnceLock<Judged>>,
    trust: bool,
    cache: Arc<Mutex<Cache>>,
    on_held: OnHeld,
    /// The server's `instructions` and `load_skill`'s description, made
    /// when the catalog opens: a client may ask for them with every request.
    pub instructions: String,
    pub tool_description: String,
}

/// Where a resource read fails.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// No served file has this URI.
    Unknown,
    /// It is served but cannot be read now (removed, a link made to lead
    /// out, grown past the limit): the message says which.
    Unreadable(String),
}

/// A directory's child: a file or a folder, by URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    pub uri: String,
    pub name: String,
    pub is_dir: bool,
}

impl Catalog {
    /// The skills offered now: CAO's valid ones (the winner of each name),
    /// or exactly those `--profile`'s `skills:` patterns select. Reads the
    /// store's listing (each SKILL.md, as `skilltui list` does) and the
    /// first [`INSTRUCTED`] skills whole, for the instructions.
    pub fn open(
        home: &Home,
        opts: &Options,
        cache: Arc<Mutex<Cache>>,
        on_held: OnHeld,
    ) -> Result<Catalog, String> {
        let listing = store::list(home, false);
        let entries: Vec<&Entry> = match &opts.profile {
            None => listing.valid().collect(),
            Some(name) => {
                let agent = delivery::agent::load(home, name)?;
                select(&listing, agent.skills.as_deref())
                    .offered
                    .into_iter()
                    .map(|(e, _)| e)
                    .collect()
            }
        };
        let mut offered: Vec<(String, PathBuf)> = entries
            .iter()
            .map(|e| (e.folder.clone(), e.checked.path.clone()))
            .collect();
        offered.sort_by(|a, b| a.0.cmp(&b.0));
        offered.dedup_by(|a, b| a.0 == b.0);
        let by_name = offered
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.clone(), i))
            .collect();
        let mut catalog = Catalog {
            judged: offered.iter().map(|_| OnceLock::new()).collect(),
            offered,
            by_name,
            trust: opts.trust,
            cache,
            on_held,
            instructions: String::new(),
            tool_description: String::new(),
        };
        catalog.judge(0..INSTRUCTED.min(catalog.len()));
        catalog.instructions = instructions(&catalog);
        catalog.tool_description = tool_description(&catalog);
        Ok(catalog)
    }

    /// How many skills are offered (served or held back once read).
    pub fn len(&self) -> usize {
        self.offered.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offered.is_empty()
    }

    /// Reads the skills at `indices` not read yet, on all cores.
    pub fn judge(&self, indices: impl IntoIterator<Item = usize>) {
        let todo: Vec<usize> = indices
            .into_iter()
            .filter(|&i| i < self.len() && self.judged[i].get().is_none())
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = todo.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            for part in todo.chunks(chunk) {
                scope.spawn(move || {
                    for &i in part {
                        self.at(i);
                    }
                });
            }
        });
    }

    /// Skill `i` read whole (now, if it was not yet).
    fn at(&self, i: usize) -> &Judged {
        self.judged[i].get_or_init(|| {
            let (name, dir) = &self.offered[i];
            let judged = skill::judge(name, dir, self.trust, &self.cache);
            if let Err(line) = &judged {
                (self.on_held)(line);
            }
            judged
        })
    }

    fn served(&self, i: usize) -> Option<&Served> {
        self.at(i).as_ref().ok()
    }

    /// The served skill named `name`, read if it was not yet.
    pub fn find(&self, name: &str) -> Option<&Served> {
        self.served(*self.by_name.get(name)?)
    }

    /// The served skills of the extension among the offered
    /// `from..from + size` (each read first), and where the next page
    /// starts: a page may hold fewer, never a skill held back.
    pub fn page(&self, from: usize, size: usize) -> (Vec<&Served>, Option<usize>) {
        let from = from.min(self.len());
        let to = from.saturating_add(size).min(self.len());
        self.judge(from..to);
        let page = (from..to)
            .filter_map(|i| self.served(i))
            .filter(|s| s.in_extension)
            .collect();
        (page, (to < self.len()).then_some(to))
    }

    /// Files of the extension's skills from file `file` of offered skill
    /// `skill` on, at most `max`, and where the next page starts. Skills
    /// are read [`INSTRUCTED`] at a time, as far as the page needs.
    pub fn files(&self, skill: usize, file: usize, max: usize) -> FilesPage<'_> {
        let mut out = Vec::new();
        let (mut s, mut f) = (skill, file);
        while s < self.len() {
            if out.len() == max {
                return (out, Some((s, f)));
            }
            if self.judged[s].get().is_none() {
                self.judge(s..s.saturating_add(INSTRUCTED));
            }
            if let Some(served) = self.served(s).filter(|x| x.in_extension) {
                for one in served.files.iter().skip(f) {
                    if out.len() == max {
                        return (out, Some((s, f)));
                    }
                    out.push((served, one));
                    f += 1;
                }
            }
            (s, f) = (s + 1, 0);
        }
        (out, None)
    }

    /// The skill whose SKILL.md is at `uri`, if it is in the extension.
    pub fn by_skill_uri(&self, uri: &str) -> Option<&Served> {
        let served = self.find(name_in(uri)?)?;
        (served.in_extension && served.uri() == uri).then_some(served)
    }

    /// The bytes of a served file, read now through the folder's real
    /// path: a link that has come to lead out, or a file that has become a
    /// hard link, is refused; nothing that is not listed is ever opened.
    pub fn read(&self, uri: &str) -> Result<(&File, Vec<u8>), ReadError> {
        let served = name_in(uri)
            .and_then(|name| self.find(name))
            .filter(|s| s.in_extension)
            .ok_or(ReadError::Unknown)?;
        let file = served
            .files
            .iter()
            .find(|f| f.uri == uri)
            .ok_or(ReadError::Unknown)?;
        let bytes = fsops::read_capped_inside(&served.dir, Path::new(&file.rel), MAX_BYTES)
            .map_err(|e| ReadError::Unreadable(format!("{uri} cannot be read: {e}")))?;
        // Only the bytes the audit judged and the listing digested are
        // served: a file rewritten since waits for the watcher's next look.
        if !same_bytes(file, &bytes) {
            return Err(ReadError::Unreadable(format!(
                "{uri} changed since it was listed: list the skills again"
            )));
        }
        Ok((file, bytes))
    }

    /// The direct children of a served folder (`skill://NAME` or
    /// `skill://NAME/sub`), `None` when `uri` is no such folder.
    pub fn children(&self, uri: &str) -> Option<Vec<Child>> {
        let (name, rel) = uri::split_dir(uri)?;
        let served = self.find(name).filter(|s| s.in_extension)?;
        if !rel.is_empty() && !served.dirs.contains(rel) {
            return None;
        }
        let prefix = if rel.is_empty() {
            String::new()
        } else {
            format!("{rel}/")
        };
        let mut out = Vec::new();
        for dir in served.dirs.iter().filter(|d| is_child(d, &prefix)) {
            out.push(Child {
                uri: uri::dir(name, dir),
                name: leaf(dir).to_string(),
                is_dir: true,
            });
        }
        for file in served.files.iter().filter(|f| is_child(&f.rel, &prefix)) {
            out.push(Child {
                uri: file.uri.clone(),
                name: leaf(&file.rel).to_string(),
                is_dir: false,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    /// The names read so far: what a client may have seen.
    fn seen(&self) -> impl Iterator<Item = &str> {
        (self.offered.iter().zip(&self.judged))
            .filter(|(_, j)| j.get().is_some())
            .map(|((name, _), _)| name.as_str())
    }

    /// Reads in `self` the skills read in `old`, so that a change to one
    /// a client has seen is found (unchanged files cost a stat).
    pub fn read_as(&self, old: &Catalog) {
        self.judge(old.seen().filter_map(|n| self.by_name.get(n).copied()));
    }

    /// What a client should know of the change from `self` to `new`
    /// (after [`Catalog::read_as`]): (a skill offered, or one it has seen,
    /// changed; `load_skill`'s description changed).
    pub fn changes(&self, new: &Catalog) -> (bool, bool) {
        let names = |c: &Catalog| c.offered.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        let same = |name: &str| {
            let old = self.by_name.get(name).and_then(|&i| self.judged[i].get());
            let now = new.by_name.get(name).and_then(|&i| new.judged[i].get());
            match (old, now) {
                (Some(Ok(a)), Some(Ok(b))) => a.same_as(b),
                (Some(Err(_)), Some(Err(_))) => true,
                _ => false,
            }
        };
        let listed = names(self) != names(new) || !self.seen().all(same);
        (listed, self.tool_description != new.tool_description)
    }

    /// Folders to watch beyond what CAO reads: each read skill's own
    /// subfolders, so that a file changed deep in one is seen (bounded).
    pub fn skill_dirs(&self, max: usize) -> Vec<PathBuf> {
        (self.judged.iter())
            .filter_map(|j| j.get().and_then(|j| j.as_ref().ok()))
            .flat_map(|s| s.dirs.iter().map(move |d| s.dir.join(d)))
            .take(max)
            .collect()
    }

    /// How many skills have been read, for the watcher to follow more.
    pub fn read_count(&self) -> usize {
        self.judged.iter().filter(|j| j.get().is_some()).count()
    }
}

/// A page of files and where the next starts: (offered skill, file).
pub type FilesPage<'a> = (Vec<(&'a Served, &'a File)>, Option<(usize, usize)>);

/// The skill name of a `skill://NAME/...` URI as written (never decoded).
fn name_in(uri: &str) -> Option<&str> {
    let rest = uri.strip_prefix(uri::SCHEME)?;
    rest.split_once('/').map(|(name, _)| name)
}

fn is_child(rel: &str, prefix: &str) -> bool {
    rel.strip_prefix(prefix)
        .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
}

fn leaf(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The served skills the instructions name: those of the first
/// [`INSTRUCTED`] offered (already read).
/// A name that breaks the Agent Skills naming rule is left out (it could
/// carry a line break or an escape); `load_skill` still serves it.
fn instructed(catalog: &Catalog) -> impl Iterator<Item = &Served> {
    (0..INSTRUCTED.min(catalog.len()))
        .filter_map(|i| catalog.served(i))
        .filter(|s| cao_skill::spec_name_problem(&s.name).is_none())
}

/// How many skills the instructions leave to the listings.
fn beyond(catalog: &Catalog) -> usize {
    catalog.len().saturating_sub(INSTRUCTED)
}

/// The server's `instructions`: each served skill's name and description,
/// so a model knows what to ask `load_skill` for (the first [`INSTRUCTED`];
/// past them, where to find the rest).
fn instructions(catalog: &Catalog) -> String {
    let mut text = String::from(
        "Agent Skills served by skilltui. Call the `load_skill` tool with a skill's name to read its instructions",
    );
    text.push_str(
        "; a client with the MCP Skills extension reads skill://NAME/SKILL.md and its files instead.\n",
    );
    let mut any = false;
    for s in instructed(catalog) {
        text.push_str(&format!("- {}: {}\n", s.name, one_line(&s.description)));
        any = true;
    }
    match beyond(catalog) {
        0 if !any => text.push_str("No skill is served.\n"),
        0 => {}
        more => text.push_str(&format!(
            "Up to {more} more skills, past these by name: `resources/list` gives each SKILL.md with its description.\n"
        )),
    }
    text
}

/// `load_skill`'s description: what it returns and the names it knows.
fn tool_description(catalog: &Catalog) -> String {
    let mut names: Vec<&str> = instructed(catalog).map(|s| s.name.as_str()).collect();
    let more = format!("and up to {} more", beyond(catalog));
    if beyond(catalog) > 0 {
        names.push(&more);
    }
    format!(
        "Load a skill's instructions by name: the body of its SKILL.md, as CAO's load_skill returns it. Skills: {}",
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    )
}

/// Characters of a description the instructions carry: the Agent Skills
/// limit of `description`.
pub const MAX_DESCRIPTION: usize = 1024;

/// Names are at most 64 characters (the Agent Skills rule): a longer one
/// gets no "did you mean", and is echoed cut.
const MAX_NAME: usize = 64;

fn one_line(text: &str) -> String {
    crate::core::text::one_line(text, MAX_DESCRIPTION)
}

/// CAO's `load_skill` answer for `name` from what is served: the body
/// `skilltui show NAME` prints; an error naming it when it is not served.
pub fn load_skill(catalog: &Catalog, name: &str) -> Result<String, String> {
    let Some(served) = catalog.find(name) else {
        // Only names whose verdict is known: a held-back skill is never named.
        let known = (catalog.offered.iter().zip(&catalog.judged))
            .filter(|(_, j)| matches!(j.get(), Some(Ok(_))))
            .map(|((n, _), _)| n.as_str());
        let hint = match name.chars().nth(MAX_NAME) {
            Some(_) => String::new(),
            None => crate::core::suggest::did_you_mean(name, known),
        };
        let shown = crate::core::text::one_line(name, MAX_NAME);
        return Err(format!("no skill named '{shown}' is served here{hint}"));
    };
    // Through the confined reader, as resources/read: a SKILL.md that has
    // come to link out of the folder (to a skill not served) is refused.
    let text = cao_skill::read_text_in(&served.dir)
        .unwrap_or_else(|| Err(format!("skill '{}' has no SKILL.md now", served.name)))?;
    let listed = served.files.iter().find(|f| f.rel == "SKILL.md");
    if listed.is_some_and(|f| !same_bytes(f, text.as_bytes())) {
        return Err(format!(
            "skill '{}' changed since it was judged: ask again in a moment",
            served.name
        ));
    }
    let doc = cao_skill::doc_from_text(&text)?;
    Ok(doc.frontmatter.body)
}

/// Whether `bytes` are the ones `file` was listed (and audited) with.
fn same_bytes(file: &File, bytes: &[u8]) -> bool {
    file.size == bytes.len() as u64 && file.digest == skill::digest_of(bytes)
}
