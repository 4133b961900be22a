//! The documentation a user reads: the README stays a short page, every
//! relative link in it and in docs/ leads to a file and a heading that exist,
//! and nothing a user reads, nor the source, cites what is not in the
//! repository (our design notes, issue numbers). The key tables are held to
//! the keymap by its own tests (`src/tui/keymap.rs`).

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// README.md, ARCHITECTURE.md and every Markdown file under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("a docs/ folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A page's links (and images) and its headings' text, as a Markdown
/// reader sees them: nothing inside code counts.
fn parse(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut links, mut headings) = (Vec::new(), Vec::new());
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push(dest_url.to_string())
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t)
                }
            }
            Event::End(TagEnd::Heading(_)) => headings.extend(heading.take()),
            _ => {}
        }
    }
    (links, headings)
}

/// GitHub's anchors for a page's headings: lowercase, punctuation other
/// than `-` and `_` dropped, spaces made `-`; a repeated one gets `-1`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for title in parse(text).1 {
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn the_readme_is_a_short_page() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(lines <= 300, "README.md has {lines} lines: at most 300");
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut known: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    let mut broken = Vec::new();
    for page in pages() {
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for target in parse(&read(&page)).0 {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !dest.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !anchor.is_empty()
                && !known
                    .entry(dest.clone())
                    .or_insert_with(|| anchors(&read(&dest)))
                    .contains(anchor)
            {
                broken.push(format!("{name}: {target}: no such heading"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Files under `dir` whose names end in one of `exts`.
fn files_under(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, exts, out);
        } else if exts.iter().any(|x| path.to_string_lossy().ends_with(x)) {
            out.push(path);
        }
    }
}

#[test]
fn nothing_cites_what_is_not_in_the_repository() {
    // Our design notes and tracker live outside the repository: a reader
    // can follow neither. Name the system and the rule instead.
    let internal = Regex::new(
        r"(?i)seed[ _-]?00[0-9]|\bissues? #?[0-9]+\b|\bholes? [0-9]+\b|cao-compat|shared/spec|\bseeds?/",
    )
    .unwrap();
    let mut files = pages();
    files_under(&root().join("src"), &[".rs", ".toml", ".md"], &mut files);
    let mut hits = Vec::new();
    for file in files {
        for (n, line) in read(&file).lines().enumerate() {
            if internal.is_match(line) {
                let name = file.strip_prefix(root()).unwrap().display();
                hits.push(format!("{name}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "cites what a reader cannot open:\n{}",
        hits.join("\n")
    );
}
