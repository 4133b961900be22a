//! Where skills come from: a SOURCE argument parsed into a local folder or
//! a git repository (URL, ref, sub path), and the skills found in a tree.

use std::fs;
use std::path::{Path, PathBuf};

use crate::core::audit::{self, Severity};
use crate::core::cao::skill::{self, Checked};
use crate::core::cao::store::{self, Home, expand_user};
use crate::core::fsops;
use crate::core::text::sanitize_line;
use crate::core::text::strip_credentials;

/// A parsed SOURCE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A skill folder or a folder of skills on this machine.
    Local(PathBuf),
    Git(GitSource),
    /// A SKILL.md or an archive at an http(s) URL.
    Web(WebSource),
}

/// A file at a URL that is itself a skill or an archive of skills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSource {
    /// The URL without credentials: what is fetched, stored and shown.
    pub url: String,
    pub artifact: crate::core::sources::wellknown::Artifact,
}

/// The http(s) URL `text` names when it is a SKILL.md or an archive (and
/// not a repository's page of one, which git fetches).
fn web_source(text: &str) -> Option<WebSource> {
    use crate::core::sources::{archive, wellknown::Artifact};
    crate::core::sources::http::parts(text)?;
    let path = text.split(['?', '#']).next().unwrap_or(text);
    let artifact = if path.ends_with("/SKILL.md") {
        Artifact::SkillMd
    } else {
        Artifact::Archive(Some(archive::Kind::of_url(path)?))
    };
    let scheme = URL_SCHEMES.iter().find(|s| text.starts_with(*s))?;
    let browsed = parse_url(text, scheme).is_ok_and(|g| g.reference.is_some());
    (!browsed).then(|| WebSource {
        url: strip_credentials(text).into_owned(),
        artifact,
    })
}

/// The site a git source may also be, when it is an https (or loopback
/// http) address that is not a known git host's, not a `.git` URL and not
/// shaped `HOST/owner/repo`: its well-known index is asked for before git
/// is.
pub fn site_of(g: &GitSource) -> Option<&str> {
    let p = crate::core::sources::http::parts(&g.url)?;
    let git_host = ["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]
        .iter()
        .any(|h| p.authority.eq_ignore_ascii_case(h));
    // `HOST/owner/repo` is how a git server names a repository: git's.
    let repo_shaped = p.path.trim_matches('/').split('/').count() == 2;
    let plain =
        g.reference.is_none() && g.sub.is_empty() && !g.url.ends_with(".git") && !repo_shaped;
    (plain && !git_host && crate::core::sources::http::refuse(&g.url).is_none())
        .then_some(g.url.as_str())
}

/// A repository, the ref asked for (`None`: its default branch) and the
/// folder inside it to look in (`""`: the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitSource {
    /// The URL without credentials: what is stored and shown.
    pub url: String,
    pub reference: Option<String>,
    pub sub: String,
    /// The URL as typed, credentials included, when it had any: given to
    /// git for this run only (a lock's entries have none, and the user's
    /// credential helpers answer for them).
    pub typed_url: Option<String>,
}

impl GitSource {
    /// The URL git fetches from.
    pub fn fetch_url(&self) -> &str {
        self.typed_url.as_deref().unwrap_or(&self.url)
    }
}

const URL_SCHEMES: &[&str] = &["https://", "http://", "ssh://", "git://", "file://"];

/// Parses SOURCE. An existing path, or one written as a path (`/`, `./`,
/// `../`, `~`), is local; then URLs; then GitHub's `owner/repo` shorthand.
pub fn parse(text: &str, user_home: &Path) -> Result<Source, String> {
    parse_typed(text, user_home).map_err(|e| strip_credentials(&e).into_owned())
}

fn parse_typed(text: &str, user_home: &Path) -> Result<Source, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("the source is empty: give a folder, owner/repo or a git URL".into());
    }
    let as_path = expand_user(Path::new(text), user_home);
    let path_like = ["/", "./", "../", "~"].iter().any(|p| text.starts_with(p)) || text == ".";
    if path_like || fs::symlink_metadata(&as_path).is_ok() {
        return Ok(Source::Local(as_path));
    }
    if let Some(web) = web_source(text) {
        if let Some(why) = crate::core::sources::http::refuse(&web.url) {
            return Err(why);
        }
        return Ok(Source::Web(web));
    }
    let mut git = if let Some(scheme) = URL_SCHEMES.iter().find(|s| text.starts_with(*s)) {
        parse_url(text, scheme)?
    } else if let Some((user_host, path)) = scp_like(text) {
        let (path, reference) = split_ref(path);
        GitSource {
            url: format!("{user_host}:{path}"),
            reference,
            sub: String::new(),
            typed_url: None,
        }
    } else {
        parse_shorthand(text)?
    };
    check_git_parts(&git.url, git.reference.as_deref(), &git.sub)?;
    let clean = strip_credentials(&git.url).into_owned();
    if clean != git.url {
        git.typed_url = Some(std::mem::replace(&mut git.url, clean));
    }
    Ok(Source::Git(git))
}

/// Refuses what git would read as an option, and a sub path that climbs
/// out of the repository. The lock file's entries are checked the same way.
pub fn check_git_parts(url: &str, reference: Option<&str>, sub: &str) -> Result<(), String> {
    // Only the transports SOURCE is parsed into: a teammate's lock must not
    // reach git's `ext::` or other remote helpers.
    let known = URL_SCHEMES.iter().any(|s| url.starts_with(s)) || scp_like(url).is_some();
    if !known || url.starts_with('-') {
        return Err(format!(
            "'{}' is not a repository URL: give https://, ssh://, git@host:path or owner/repo",
            crate::core::text::sanitize_line(url)
        ));
    }
    // git's own ref-name rules, so a bad ref is named as one, not as a
    // refspec error from the fetch.
    let bad_ref = |r: &&str| {
        r.starts_with('-')
            || r.contains("..")
            || r.contains("@{")
            || r.chars().any(|c| c.is_control() || " ~^:?*[\\".contains(c))
    };
    if let Some(r) = reference.filter(bad_ref) {
        return Err(format!(
            "'{}' is not a ref: give a branch, a tag or a commit id",
            crate::core::text::sanitize_line(r)
        ));
    }
    let climbs = Path::new(sub)
        .components()
        .any(|c| !matches!(c, std::path::Component::Normal(_)));
    if climbs {
        return Err(format!(
            "'{}' is not a folder inside the repository: give a relative path without '..'",
            crate::core::text::sanitize_line(sub)
        ));
    }
    Ok(())
}

/// `git@host:owner/repo.git`: a user and host, a colon, no scheme.
fn scp_like(text: &str) -> Option<(&str, &str)> {
    let (head, path) = text.split_once(':')?;
    (head.contains('@') && !head.contains('/') && !path.is_empty()).then_some((head, path))
}

/// Splits a trailing `@ref` off a path (a ref may hold `/`, a repo path may
/// not hold `@`).
fn split_ref(path: &str) -> (&str, Option<String>) {
    match path.split_once('@') {
        Some((p, r)) if !r.is_empty() => (p, Some(r.to_string())),
        Some((p, _)) => (p, None),
        None => (path, None),
    }
}

fn parse_url(text: &str, scheme: &str) -> Result<GitSource, String> {
    let rest = &text[scheme.len()..];
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    if authority.is_empty() && scheme != "file://" {
        return Err(format!(
            "{text} has no host: write it as {scheme}HOST/OWNER/REPO"
        ));
    }
    let base = format!("{scheme}{authority}");
    let segments: Vec<&str> = path.split('/').collect();
    // GitLab: .../-/tree/REF/path; GitHub: owner/repo/tree/REF/path; a
    // page of a file (`blob`) names the folder it is in.
    let browse = |i: usize| matches!(segments.get(i), Some(&"tree" | &"blob"));
    let tree_at = match segments.iter().position(|s| *s == "-") {
        Some(i) if browse(i + 1) => Some((i, i + 2)),
        _ if authority.ends_with("github.com") && browse(2) => Some((2, 3)),
        _ => None,
    };
    let segments = match segments.split_last() {
        Some((&"SKILL.md", folder)) if tree_at.is_some() => folder.to_vec(),
        _ => segments,
    };
    if let Some((repo_end, ref_at)) = tree_at {
        let Some(reference) = segments.get(ref_at).filter(|r| !r.is_empty()) else {
            return Err(format!(
                "{text} names no ref after /tree/: add the branch or tag"
            ));
        };
        return Ok(GitSource {
            url: format!("{base}/{}", segments[..repo_end].join("/")),
            reference: Some(reference.to_string()),
            sub: segments[ref_at + 1..]
                .join("/")
                .trim_matches('/')
                .to_string(),
            typed_url: None,
        });
    }
    let (path, reference) = split_ref(path);
    Ok(GitSource {
        // One repository, one lock key: `…/r/` is `…/r`.
        url: format!("{base}/{}", path.trim_end_matches('/')),
        reference,
        sub: String::new(),
        typed_url: None,
    })
}

/// `owner/repo[/sub/path][@ref]` on GitHub; `host.tld/…` (a GitHub owner
/// never holds a dot) is an https URL without its scheme.
fn parse_shorthand(text: &str) -> Result<GitSource, String> {
    if text.split('/').next().is_some_and(|h| h.contains('.')) {
        return parse_url(&format!("https://{text}"), "https://");
    }
    let (path, reference) = split_ref(text);
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let ok = |s: &str| {
        !s.is_empty()
            && s != "."
            && s != ".."
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    if parts.len() < 2 || !ok(parts[0]) || !ok(parts[1]) || parts[2..].contains(&"..") {
        return Err(format!(
            "{text} is neither an existing folder nor a repository: give a path, owner/repo[/path][@ref] or a git URL"
        ));
    }
    Ok(GitSource {
        url: format!("https://github.com/{}/{}", parts[0], parts[1]),
        reference,
        sub: parts[2..].join("/"),
        typed_url: None,
    })
}

/// How a found skill compares with the store's skill of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreState {
    New,
    Same,
    Different,
}

/// A skill folder found in a source.
#[derive(Clone, Debug)]
pub struct Found {
    /// Its path relative to the tree searched (`""`: the root itself).
    pub rel: String,
    /// CAO's verdict and our lints.
    pub checked: Checked,
    pub state: StoreState,
    /// Where other skills of the same name sit (relative paths): picking
    /// this name is ambiguous.
    pub also_at: Vec<String>,
    /// Why installing it would be refused, as the install will say it:
    /// what a listing shows is what the install applies.
    pub refused: Option<String>,
    /// What the audit found in it (a critical finding refuses it unless
    /// `Rules::trust`).
    pub audit: audit::Report,
}

impl Found {
    /// Refused only for a critical audit finding: `--trust` (or the TUI's
    /// trust prompt) installs it.
    pub fn trustable(&self) -> bool {
        let shown = sanitize_line(&self.name()).into_owned();
        self.refused.is_some() && self.refused == store::audit_refusal(&shown, &self.audit)
    }

    /// The skill's name, else its folder's.
    pub fn name(&self) -> String {
        self.checked
            .name
            .clone()
            .unwrap_or_else(|| skill::folder_name(&self.checked.path))
    }

    /// The warning lines an install prints for it: each high or critical
    /// finding (a critical one is installed only with `--trust`). Bare
    /// lines: the printer adds its own `warning: `.
    pub fn audit_warnings(&self) -> Vec<String> {
        let name = sanitize_line(&self.name()).into_owned();
        self.audit
            .at_least(Severity::High)
            .map(|f| format!("skill '{name}': {}", f.summary()))
            .collect()
    }
}

/// The user read the findings of `found` and trusts it: it is judged again
/// under `--trust`, the rule the CLI's flag applies, so only what `--trust`
/// lifts is lifted (a clash of names within the source stays refused).
pub fn trust(home: &Home, rules: Rules, found: &mut Found) {
    if !found.trustable() || !found.also_at.is_empty() {
        return;
    }
    let rules = Rules {
        trust: true,
        ..rules
    };
    *found = judge(home, rules, found.checked.path.clone(), found.rel.clone());
}

/// How a source's skills are judged and copied. A skill from a repository
/// is copied under its `name` whatever its folder is called, its symlinks
/// are copied as links, and it must fit [`GIT_LIMITS`] unless
/// `allow_large`; the spec's size lints are warnings either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub from_git: bool,
    pub allow_large: bool,
    /// Install a skill with a critical audit finding (`--trust`).
    pub trust: bool,
}

/// The hard limits on a skill from a repository, over what is written.
pub const GIT_LIMITS: fsops::Limits = fsops::Limits {
    entries: 10_000,
    file_bytes: 32 * 1024 * 1024,
    total_bytes: 64 * 1024 * 1024,
};

impl Rules {
    pub fn named(&self) -> skill::Named {
        if self.from_git {
            skill::Named::AfterSkill
        } else {
            skill::Named::AsIs
        }
    }

    pub fn links(&self) -> fsops::Links {
        if self.from_git {
            fsops::Links::Keep
        } else {
            fsops::Links::StayInside
        }
    }

    /// The limits the copy enforces (`None`: none).
    pub fn limits(&self) -> Option<&'static fsops::Limits> {
        (self.from_git && !self.allow_large).then_some(&GIT_LIMITS)
    }

    /// The copy's rules; without `--trust` the staged copy is audited
    /// again before it is renamed in, so what is installed is what passed.
    pub fn copying(&self) -> store::Copying {
        store::Copying {
            audit_gate: !self.trust,
            named: self.named(),
            links: self.links(),
            limits: self.limits(),
        }
    }
}

/// Folders deeper than this are not searched (a monorepo's skills sit at
/// most a few levels down).
const MAX_DEPTH: usize = 5;
const SKIPPED: &[&str] = &[".git", "node_modules"];

/// The skills in `root`: the root itself when it is a skill, else every
/// folder holding a SKILL.md down to [`MAX_DEPTH`] (not inside another
/// skill), shallowest first; a name found again is noted in the first's
/// `also_at` (and refuses it).
pub fn discover(root: &Path, home: &Home, rules: Rules) -> Vec<Found> {
    let mut folders = Vec::new();
    let mut level = vec![root.to_path_buf()];
    for _ in 0..=MAX_DEPTH {
        let mut next = Vec::new();
        for dir in level {
            // Any SKILL.md entry makes a skill, so a FIFO or a dangling link
            // gets the verdict's own reason instead of "no skills".
            if fs::symlink_metadata(dir.join("SKILL.md")).is_ok() {
                folders.push(dir);
            } else {
                next.extend(subdirs(&dir));
            }
        }
        level = next;
    }
    let mut out: Vec<Found> = Vec::new();
    let mut by_name: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for path in folders {
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        let f = judge(home, rules, path, rel);
        match by_name.get(&f.name()) {
            Some(&i) => out[i].also_at.push(f.rel),
            None => {
                by_name.insert(f.name(), out.len());
                out.push(f);
            }
        }
    }
    for f in out.iter_mut().filter(|f| !f.also_at.is_empty()) {
        f.refused = Some(format!(
            "the source holds {} skills named '{}' (in {}, {}): add the one you want by its folder's path",
            f.also_at.len() + 1,
            sanitize_line(&f.name()),
            sanitize_line(&f.rel),
            sanitize_line(&f.also_at.join(", "))
        ));
    }
    out
}

/// CAO's verdict, the lints and the hard limits on one skill folder, from
/// one walk of what its copy would write.
fn judge(home: &Home, rules: Rules, path: PathBuf, rel: String) -> Found {
    let mut checked = skill::check_folder_as(&path, false, rules.named());
    let walked = fsops::walk(
        &path,
        rules.links(),
        Some(rules.limits().unwrap_or(&skill::LINT_CEILING)),
    );
    let shown = sanitize_line(
        checked
            .name
            .as_deref()
            .unwrap_or(&skill::folder_name(&path)),
    )
    .into_owned();
    let mut refused = checked
        .errors
        .first()
        .map(|e| format!("skill '{shown}' would not load in CAO: {e}"));
    if refused.is_none()
        && let Some(name) = &checked.name
        && let Err(e) = store::check_name(name)
    {
        refused = Some(format!("skill '{shown}' is refused: {e}"));
    }
    if checked.is_valid() {
        checked.warnings = skill::doc_lints(&path.join("SKILL.md"));
    }
    match &walked {
        Ok(w) => {
            checked.warnings.extend(skill::walked_lints(w));
            // A link out of the folder would copy what is not the skill's.
            if refused.is_none() && !w.problems.is_empty() {
                refused = Some(format!(
                    "skill '{shown}' is refused: {}",
                    w.problems.join("; ")
                ));
            }
        }
        Err(e) if rules.limits().is_some() && refused.is_none() => {
            refused = Some(format!(
                "skill '{shown}' is refused: {e}; `--allow-large` installs it anyway"
            ));
        }
        Err(e) => checked.warnings.push(e.clone()),
    }
    let audit = audit::scan(&path);
    if refused.is_none() && !rules.trust {
        refused = store::audit_refusal(&shown, &audit);
    }
    let mut found = Found {
        rel,
        checked,
        state: StoreState::New,
        also_at: Vec::new(),
        refused,
        audit,
    };
    found.state = store_state(home, &found);
    found
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !SKIPPED.iter().any(|s| e.file_name() == *s))
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// How `found` compares with the store's skill of its name, now.
pub fn store_state(home: &Home, found: &Found) -> StoreState {
    let Ok(name) = store::check_name(&found.name()) else {
        return StoreState::New;
    };
    let dest = home.skills_dir().join(name);
    if fs::symlink_metadata(&dest).is_err() {
        return StoreState::New;
    }
    let diff = fsops::diff_folders(&dest, &found.checked.path);
    if diff.added.is_empty() && diff.removed.is_empty() && diff.changed.is_empty() {
        StoreState::Same
    } else {
        StoreState::Different
    }
}

/// What `--skill NAME`s (or `all`) pick from a source: the skills to
/// install, and with `all` those skipped for their [`Found::refused`].
#[derive(Debug)]
pub struct Picked<'a> {
    pub install: Vec<&'a Found>,
    pub skipped: Vec<&'a Found>,
}

/// The found skills `--skill NAME`s pick (all of them with `all`), or why
/// none can be picked: a skill named, or the only one, that would be
/// refused is an error; with `all` it is skipped.
pub fn pick<'a>(
    found: &'a [Found],
    names: &[String],
    all: bool,
    source: &str,
) -> Result<Picked<'a>, String> {
    if found.is_empty() {
        return Err(format!(
            "no skills in {source}: a skill is a folder with a SKILL.md (looked in the root, skills/, .claude/skills/, .agents/skills/ and below)"
        ));
    }
    let picks = pick_by_name(found, names, all, source)?;
    if all {
        let (skipped, install) = picks.into_iter().partition(|f| f.refused.is_some());
        return Ok(Picked { install, skipped });
    }
    match picks.iter().find_map(|f| f.refused.as_ref()) {
        Some(why) => Err(why.clone()),
        None => Ok(Picked {
            install: picks,
            skipped: Vec::new(),
        }),
    }
}

fn pick_by_name<'a>(
    found: &'a [Found],
    names: &[String],
    all: bool,
    source: &str,
) -> Result<Vec<&'a Found>, String> {
    if all {
        return Ok(found.iter().collect());
    }
    if names.is_empty() {
        return match found {
            [one] => Ok(vec![one]),
            _ => Err(format!(
                "{source} holds {} skills: pick with --skill NAME (repeatable) or take them all with --all",
                found.len()
            )),
        };
    }
    let mut unique = names.to_vec();
    unique.sort();
    unique.dedup();
    unique
        .iter()
        .map(|n| {
            found.iter().find(|f| f.name() == *n).ok_or_else(|| {
                format!(
                    "no skill named '{}' in {source}: it holds {}",
                    crate::core::text::sanitize_line(n),
                    found.iter().map(Found::name).collect::<Vec<_>>().join(", ")
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(url: &str, reference: Option<&str>, sub: &str) -> Source {
        Source::Git(GitSource {
            url: url.into(),
            reference: reference.map(String::from),
            sub: sub.into(),
            typed_url: None,
        })
    }

    fn p(text: &str) -> Source {
        parse(text, Path::new("/nonexistent-home")).unwrap()
    }

    #[test]
    fn shorthand_and_urls_parse() {
        let gh = "https://github.com/o/r";
        assert_eq!(p("o/r"), git(gh, None, ""));
        assert_eq!(p("o/r@v1.2"), git(gh, Some("v1.2"), ""));
        assert_eq!(
            p("o/r/skills/x@feat/y"),
            git(gh, Some("feat/y"), "skills/x")
        );
        assert_eq!(
            p("https://github.com/o/r/tree/main/skills/pdf"),
            git(gh, Some("main"), "skills/pdf")
        );
        assert_eq!(
            p("https://gitlab.com/g/sub/r/-/tree/dev/a/b"),
            git("https://gitlab.com/g/sub/r", Some("dev"), "a/b")
        );
        assert_eq!(
            p("ssh://git@host:22/o/r.git@v2"),
            git("ssh://git@host:22/o/r.git", Some("v2"), "")
        );
        assert_eq!(
            p("git@github.com:o/r.git@main"),
            git("git@github.com:o/r.git", Some("main"), "")
        );
        assert_eq!(p("file:///srv/r.git"), git("file:///srv/r.git", None, ""));
        assert_eq!(p("https://github.com/o/r/"), git(gh, None, ""));
        assert_eq!(
            p("https://github.com/o/r/blob/main/skills/pdf/SKILL.md"),
            git(gh, Some("main"), "skills/pdf")
        );
        assert_eq!(
            p("https://gitlab.com/g/r/-/blob/dev/a/SKILL.md"),
            git("https://gitlab.com/g/r", Some("dev"), "a")
        );
        assert_eq!(p("github.com/o/r"), git(gh, None, ""));
        assert_eq!(p("github.com/o/r/tree/v1/s"), git(gh, Some("v1"), "s"));
        assert_eq!(
            p("gitlab.com/g/sub/r.git@dev"),
            git("https://gitlab.com/g/sub/r.git", Some("dev"), "")
        );
        assert_eq!(
            p("https://example.com/o/r.git"),
            git("https://example.com/o/r.git", None, "")
        );
    }

    #[test]
    fn credentials_are_kept_for_git_only() {
        let Source::Git(g) = p("https://u:TOK@github.com/o/r@v1") else {
            panic!("a git source");
        };
        assert_eq!(
            (g.url.as_str(), g.reference.as_deref()),
            ("https://github.com/o/r", Some("v1"))
        );
        assert_eq!(g.fetch_url(), "https://u:TOK@github.com/o/r");
        let e = parse("https://u:TOK@github.com/o/r/tree/", Path::new("/x")).unwrap_err();
        assert!(!e.contains("TOK"), "{e}");
    }

    #[test]
    fn skill_md_and_archive_urls_are_web_sources_and_pages_of_repos_stay_git() {
        use crate::core::sources::{archive::Kind, wellknown::Artifact};
        let web = |u: &str, artifact| {
            Source::Web(WebSource {
                url: u.into(),
                artifact,
            })
        };
        let u = "https://ex.com/s/pdf/SKILL.md";
        assert_eq!(p(u), web(u, Artifact::SkillMd));
        let u = "http://127.0.0.1:9/a.tgz";
        assert_eq!(p(u), web(u, Artifact::Archive(Some(Kind::TarGz))));
        assert_eq!(
            p("https://t@ex.com/a.zip"),
            web("https://ex.com/a.zip", Artifact::Archive(Some(Kind::Zip)))
        );
        // A repository's page of a SKILL.md is its folder, fetched by git.
        assert!(matches!(
            p("https://github.com/o/r/blob/main/s/SKILL.md"),
            Source::Git(_)
        ));
        let e = parse("http://ex.com/a.zip", Path::new("/h")).unwrap_err();
        assert!(e.contains("plain http"), "{e}");
        let Source::Git(g) = p("https://skills.ex.com") else {
            panic!("a site parses as git until its index answers");
        };
        assert_eq!(site_of(&g), Some("https://skills.ex.com/"));
        for repo in [
            "o/r",
            "https://git.ex.com/o/r",
            "https://git.ex.com/o/r.git",
        ] {
            let Source::Git(g) = p(repo) else { panic!() };
            assert_eq!(site_of(&g), None, "{repo}");
        }
    }

    #[test]
    fn paths_stay_local_and_nonsense_is_refused() {
        assert_eq!(p("./x"), Source::Local(PathBuf::from("./x")));
        assert_eq!(p("/abs/x"), Source::Local(PathBuf::from("/abs/x")));
        assert_eq!(
            p("~/skills"),
            Source::Local(PathBuf::from("/nonexistent-home/skills"))
        );
        for bad in [
            "",
            "justone",
            "o/../r",
            "o/r/../../x",
            "https:///o/r",
            "https://github.com/o/r/tree/main/../../x",
            "o/r@--upload-pack=x",
            "o/r@\x1b[2J",
            "o/r@a b",
            "o/r@HEAD@{1}",
            "o/r@v1^",
            "-oProxyCommand=x@h:p",
        ] {
            assert!(parse(bad, Path::new("/h")).is_err(), "{bad}");
        }
        assert!(parse("https://github.com/o/r/tree/", Path::new("/h")).is_err());
    }

    fn write_skill(dir: &Path, name: &str) {
        fs::create_dir_all(dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d {name}\n---\nbody\n"),
        )
        .unwrap();
    }

    #[test]
    fn discovery_finds_the_usual_places_and_skips_git_and_node_modules() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let home = Home::at(t.join("home"), t.to_path_buf());
        let repo = t.join("repo");
        write_skill(&repo.join("skills/a"), "a");
        write_skill(&repo.join(".claude/skills/b"), "b");
        write_skill(&repo.join(".agents/skills/c"), "c");
        write_skill(&repo.join("deep/er/d"), "d");
        write_skill(&repo.join("skills/a/inner"), "inner");
        write_skill(&repo.join("node_modules/x"), "x");
        write_skill(&repo.join(".git/y"), "y");
        write_skill(&repo.join("1/2/3/4/5/6/z"), "z");
        write_skill(&repo.join("dup/a"), "a");
        let found = discover(&repo, &home, Rules::default());
        let mut names: Vec<String> = found.iter().map(Found::name).collect();
        names.sort();
        assert_eq!(names, ["a", "b", "c", "d"]);
        let a = found.iter().find(|f| f.name() == "a").unwrap();
        assert_eq!(
            (a.rel.as_str(), &a.also_at[..]),
            ("dup/a", &["skills/a".to_string()][..])
        );
        let e = pick(&found, &["a".into()], false, "r").unwrap_err();
        assert!(e.contains("2 skills named 'a' (in dup/a, skills/a)"), "{e}");
        // `--all` skips the clash and installs the rest.
        let all = pick(&found, &[], true, "r").unwrap();
        let skipped: Vec<String> = all.skipped.iter().map(|f| f.name()).collect();
        assert_eq!(skipped, ["a"]);
        assert_eq!(all.install.len(), 3);
        assert!(pick(&found, &["b".into()], false, "r").is_ok());
        let root_skill = discover(&repo.join("skills/a"), &home, Rules::default());
        assert_eq!(root_skill.len(), 1);
        assert_eq!(root_skill[0].rel, "");
        write_skill(&home.skills_dir().join("a"), "a");
        let found = discover(&repo.join("skills"), &home, Rules::default());
        assert_eq!(found[0].state, StoreState::Different);
        fs::write(
            home.skills_dir().join("a/SKILL.md"),
            fs::read(repo.join("skills/a/SKILL.md")).unwrap(),
        )
        .unwrap();
        fs::remove_dir_all(repo.join("skills/a/inner")).unwrap();
        assert_eq!(
            discover(&repo.join("skills"), &home, Rules::default())[0].state,
            StoreState::Same
        );
    }

    #[test]
    fn picking_needs_a_choice_when_there_are_several() {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().join("home"), tmp.path().to_path_buf());
        write_skill(&tmp.path().join("r/a"), "a");
        write_skill(&tmp.path().join("r/b"), "b");
        let found = discover(&tmp.path().join("r"), &home, Rules::default());
        assert!(pick(&found, &[], false, "r").unwrap_err().contains("--all"));
        assert_eq!(pick(&found, &[], true, "r").unwrap().install.len(), 2);
        assert_eq!(
            pick(&found, &["b".into()], false, "r").unwrap().install[0].name(),
            "b"
        );
        assert!(
            pick(&found, &["c".into()], false, "r")
                .unwrap_err()
                .contains("a, b")
        );
        assert!(
            pick(&[], &[], true, "r")
                .unwrap_err()
                .starts_with("no skills")
        );
    }
}
