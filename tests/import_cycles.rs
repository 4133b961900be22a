//! The architecture holds: no two files of the library import each other,
//! directly or round a longer loop. Read from the source text: every
//! `crate::`, `super::` and child-module path is resolved to the file that
//! defines the longest module prefix it names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module path (`crate::core::cao::store`) of every library file.
fn modules(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect();
                if parts == ["main"] {
                    continue; // the binary: it imports the library by name
                }
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                    parts.pop();
                }
                let module = std::iter::once("crate".to_string())
                    .chain(parts)
                    .collect::<Vec<_>>();
                out.insert(module.join("::"), path);
            }
        }
    }
    out
}

/// The text without comments and string literals, which may quote paths.
fn code_only(text: &str) -> String {
    let (mut out, mut chars) = (String::new(), text.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                out.push_str("\"\"");
            }
            // A char literal such as '{' or '\'' (but not a lifetime).
            '\'' if chars.peek() == Some(&'\\') => {
                chars.next();
                chars.next();
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                }
                out.push_str("' '");
            }
            '\'' if chars.clone().nth(1) == Some('\'') => {
                chars.next();
                chars.next();
                out.push_str("' '");
            }
            _ => out.push(c),
        }
    }
    out
}

/// The inline `mod NAME { … }` blocks of a file, as (start, end, name).
fn inline_mods(code: &str) -> Vec<(usize, usize, String)> {
    let open = regex::Regex::new(r"\bmod\s+(\w+)\s*\{").unwrap();
    let mut out = Vec::new();
    for m in open.captures_iter(code) {
        let start = m.get(0).unwrap().end();
        let mut depth = 1;
        let end = code[start..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(code.len(), |(i, _)| start + i);
        out.push((start, end, m[1].to_string()));
    }
    out
}

/// Every path a `use` tree names, braces expanded: `a::{b, c::d}` gives
/// `a::b` and `a::c::d`.
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap().trim();
        if !path.is_empty() {
            out.push(format!("{prefix}{path}"));
        }
        return;
    };
    let head = format!("{prefix}{}", &tree[..open]);
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&inner[start..i], &head, out);
                start = i + 1;
            }
            _ => {}
        }
    }
    expand(&inner[start..], &head, out);
}

/// The paths a file names: its `use` trees and the `crate::`/`super::`
/// paths written inline.
fn named_paths(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let use_stmt = regex::Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);").unwrap();
    for tree in use_stmt.captures_iter(code) {
        let mut paths = Vec::new();
        expand(&tree[1], "", &mut paths);
        let at = tree.get(0).unwrap().start();
        out.extend(paths.into_iter().map(|p| (at, p)));
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0
                && (bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b':')
            {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |n| i + n);
            out.push((i, code[i..end].trim_end_matches(':').to_string()));
        }
    }
    out
}

/// The module a path leads to: the longest prefix that is a file of ours.
/// `own` is where the path is written: the file's module, plus any inline
/// `mod` blocks around it.
fn resolve(
    path: &str,
    own: &[&str],
    is_mod_file: bool,
    mods: &BTreeMap<String, PathBuf>,
) -> Option<String> {
    let mut parts: Vec<&str> = path.split("::").collect();
    // `super` is relative to the module; a `mod.rs` or `lib.rs` is its own parent.
    let mut base: Vec<&str> = own.to_vec();
    let mut relative = false;
    while parts.first() == Some(&"super") {
        parts.remove(0);
        base.pop();
        relative = true;
    }
    if parts.first() == Some(&"self") {
        parts.remove(0);
        relative = true;
    }
    let full: Vec<&str> = if parts.first() == Some(&"crate") {
        parts
    } else if relative || is_mod_file {
        base.into_iter().chain(parts).collect()
    } else {
        return None; // std, or another crate
    };
    (1..=full.len())
        .rev()
        .map(|n| full[..n].join("::"))
        .find(|m| mods.contains_key(m))
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&root);
    let mut edges = BTreeMap::new();
    for (module, path) in &mods {
        let is_mod_file = matches!(
            path.file_stem().and_then(|s| s.to_str()),
            Some("mod" | "lib")
        );
        let code = code_only(&fs::read_to_string(path).unwrap());
        let blocks = inline_mods(&code);
        let targets: BTreeSet<String> = named_paths(&code)
            .iter()
            .filter_map(|(at, p)| {
                let mut own: Vec<&str> = module.split("::").collect();
                own.extend(
                    blocks
                        .iter()
                        .filter(|b| b.0 <= *at && *at < b.1)
                        .map(|b| b.2.as_str()),
                );
                let inline = own.len() > module.split("::").count();
                resolve(p, &own, is_mod_file && !inline, &mods)
            })
            .filter(|t| t != module && t != "crate")
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// A loop through `from`, if any, as the modules along it.
fn loop_through(from: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut stack = vec![(from.to_string(), vec![from.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, trail)) = stack.pop() {
        for next in edges.get(&at).into_iter().flatten() {
            if next == from {
                return Some(trail);
            }
            if seen.insert(next.clone()) {
                let mut t = trail.clone();
                t.push(next.clone());
                stack.push((next.clone(), t));
            }
        }
    }
    None
}

#[test]
fn no_file_of_src_imports_itself_round_a_loop() {
    let edges = graph();
    assert!(
        edges.len() > 40,
        "the module map found only {} files",
        edges.len()
    );
    let loops: Vec<String> = edges
        .keys()
        .filter_map(|m| loop_through(m, &edges))
        .map(|l| l.join(" -> "))
        .collect();
    assert!(loops.is_empty(), "import cycles:\n{}", loops.join("\n"));
}

#[test]
fn the_reader_sees_real_imports() {
    // The check above is only as good as its reading; hold it to known edges.
    let edges = graph();
    let of = |m: &str| edges.get(m).cloned().unwrap_or_default();
    assert!(of("crate::core::cao::store").contains("crate::core::fsops"));
    assert!(of("crate::core::parse::yaml").contains("crate::core::parse::libyaml"));
    assert!(of("crate::tui::app").contains("crate::tui::model"));
    assert!(
        of("crate::tui").contains("crate::tui::app"),
        "child paths in mod.rs"
    );
    assert!(
        !of("crate::core::text")
            .iter()
            .any(|m| m.starts_with("crate::tui"))
    );
    let mut looped = edges.clone();
    looped
        .get_mut("crate::core::text")
        .unwrap()
        .insert("crate::core::cao::store".into());
    assert!(
        loop_through("crate::core::text", &looped).is_some(),
        "a planted loop is found"
    );
}

#[test]
fn core_never_reaches_the_terminal() {
    for (module, targets) in graph() {
        if module.starts_with("crate::core") {
            let up: Vec<_> = targets
                .iter()
                .filter(|t| !t.starts_with("crate::core"))
                .collect();
            assert!(up.is_empty(), "{module} imports {up:?}");
        }
    }
}
