//! How `agents --verify` shows where an agent and skilltui differ, so a
//! person can act on it: what is missing, what is extra, which two entries
//! swapped places, and a word diff of an entry whose text differs. Each
//! side is a list of entries with a key (the same entry on both sides has
//! the same key); two entries of one key and byte-identical text are never
//! a difference.

use std::collections::HashMap;

/// One entry of a listing: what identifies it, and the text shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub text: String,
}

impl Entry {
    pub fn new(key: impl Into<String>, text: impl Into<String>) -> Entry {
        Entry {
            key: key.into(),
            text: text.into(),
        }
    }
}

/// The most order lines shown: one moved entry in a long list would
/// otherwise name every neighbour it passed.
const MAX_ORDER_LINES: usize = 20;

/// One line per difference between the agent's entries (`theirs`) and
/// skilltui's (`ours`); `who` names the agent in the lines.
pub fn compare(who: &str, theirs: &[Entry], ours: &[Entry]) -> Vec<String> {
    let theirs = unique_keys(theirs);
    let ours = unique_keys(ours);
    let in_theirs: HashMap<&str, &Entry> = theirs.iter().map(|e| (e.key.as_str(), e)).collect();
    let in_ours: HashMap<&str, &Entry> = ours.iter().map(|e| (e.key.as_str(), e)).collect();
    let mut out = Vec::new();
    for e in &ours {
        if !in_theirs.contains_key(e.key.as_str()) {
            out.push(format!(
                "missing: {} (skilltui shows it; {who} does not)",
                e.text
            ));
        }
    }
    for e in &theirs {
        match in_ours.get(e.key.as_str()) {
            None => out.push(format!(
                "extra: {} ({who} shows it; skilltui does not)",
                e.text
            )),
            Some(o) if o.text != e.text => out.push(format!(
                "text: {} ([-{who}-] {{+skilltui+}})",
                word_diff(&e.text, &o.text)
            )),
            Some(_) => {}
        }
    }
    let common = |side: &[Entry], other: &HashMap<&str, &Entry>| -> Vec<String> {
        side.iter()
            .filter(|e| other.contains_key(e.key.as_str()))
            .map(|e| e.key.clone())
            .collect()
    };
    let swaps = swapped(&common(&theirs, &in_ours), &common(&ours, &in_theirs));
    let shown = |key: &str| {
        in_theirs
            .get(key)
            .map_or(key, |e| e.text.as_str())
            .to_string()
    };
    for (first, second) in swaps.iter().take(MAX_ORDER_LINES) {
        out.push(format!(
            "order: {who} shows {} before {}; skilltui shows it after",
            shown(first),
            shown(second)
        ));
    }
    if swaps.len() > MAX_ORDER_LINES {
        out.push(format!(
            "order: {} more entries out of place",
            swaps.len() - MAX_ORDER_LINES
        ));
    }
    out
}

/// Keys made unique by their occurrence (`key`, `key#2`, ...): a listing
/// may repeat a line (a blank one, a same-name copy).
fn unique_keys(entries: &[Entry]) -> Vec<Entry> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    entries
        .iter()
        .map(|e| {
            let n = seen.entry(e.key.as_str()).or_insert(0);
            *n += 1;
            match *n {
                1 => e.clone(),
                n => Entry::new(format!("{}#{n}", e.key), e.text.clone()),
            }
        })
        .collect()
}

/// The moves that turn skilltui's order into the agent's, as pairs (the
/// entry the agent shows first, the one skilltui shows in its place): at
/// the first place the orders differ, the agent's entry is moved up, and
/// so on. Both lists hold the same keys.
fn swapped(theirs: &[String], ours: &[String]) -> Vec<(String, String)> {
    let mut ours = ours.to_vec();
    let mut out = Vec::new();
    for (i, want) in theirs.iter().enumerate() {
        if ours.get(i) == Some(want) {
            continue;
        }
        let Some(at) = ours.iter().position(|k| k == want) else {
            continue;
        };
        out.push((want.clone(), ours[i].clone()));
        let moved = ours.remove(at);
        ours.insert(i, moved);
    }
    out
}

/// `old` and `new` as one text, words only in `old` as `[-…-]` and words
/// only in `new` as `{+…+}`.
pub fn word_diff(old: &str, new: &str) -> String {
    use similar::ChangeTag;
    let diff = similar::TextDiff::from_words(old, new);
    let mut out = String::new();
    let mut open: Option<ChangeTag> = None;
    for change in diff.iter_all_changes() {
        let tag = change.tag();
        if open != Some(tag) {
            match open {
                Some(ChangeTag::Delete) => out.push_str("-]"),
                Some(ChangeTag::Insert) => out.push_str("+}"),
                _ => {}
            }
            match tag {
                ChangeTag::Delete => out.push_str("[-"),
                ChangeTag::Insert => out.push_str("{+"),
                ChangeTag::Equal => {}
            }
            open = Some(tag);
        }
        out.push_str(change.value());
    }
    match open {
        Some(ChangeTag::Delete) => out.push_str("-]"),
        Some(ChangeTag::Insert) => out.push_str("+}"),
        _ => {}
    }
    out
}

/// The lines of a model-facing text as entries: a skill line (`- name:
/// description (file: PATH)`) keyed by its path, a roots-table line
/// (`` - `r0` = `PATH` ``) by its root, any other line by itself.
pub fn text_entries(text: &str) -> Vec<Entry> {
    text.lines()
        .map(|line| {
            let key = line
                .rsplit_once(" (file: ")
                .map(|(_, path)| format!("file: {path}"))
                .or_else(|| {
                    let rest = line.strip_prefix("- `")?;
                    let (root, _) = rest.split_once("` = `")?;
                    Some(format!("root {root}"))
                })
                .unwrap_or_else(|| line.to_string());
            Entry::new(key, line)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &[(&str, &str)]) -> Vec<Entry> {
        list.iter().map(|(k, t)| Entry::new(*k, *t)).collect()
    }

    #[test]
    fn identical_lists_have_no_difference() {
        let a = entries(&[("a", "a: one"), ("b", "b: two"), ("", ""), ("", "")]);
        assert!(compare("x", &a, &a).is_empty());
    }

    #[test]
    fn missing_extra_and_text_each_say_what_to_look_at() {
        let theirs = entries(&[("a", "a: the first skill"), ("c", "c: three")]);
        let ours = entries(&[("a", "a: the second skill"), ("b", "b: two")]);
        let d = compare("copilot", &theirs, &ours);
        assert_eq!(
            d,
            [
                "missing: b: two (skilltui shows it; copilot does not)",
                "text: a: the [-first-]{+second+} skill ([-copilot-] {+skilltui+})",
                "extra: c: three (copilot shows it; skilltui does not)",
            ]
        );
    }

    #[test]
    fn a_swap_names_the_two_entries_and_nothing_else() {
        let theirs = entries(&[("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]);
        let ours = entries(&[("a", "A"), ("c", "C"), ("b", "B"), ("d", "D")]);
        assert_eq!(
            compare("gemini", &theirs, &ours),
            ["order: gemini shows B before C; skilltui shows it after"]
        );
    }

    #[test]
    fn codex_lines_are_keyed_by_path_and_root() {
        let theirs = text_entries("## Skills\n- `r0` = `/planted/x`\n- a: d (file: /x/a/SKILL.md)");
        let ours = text_entries("## Skills\n- `r0` = `/x`\n- a: d (file: /x/a/SKILL.md)");
        assert_eq!(
            compare("codex", &theirs, &ours),
            ["text: - `r0` = [-`/planted/x`-]{+`/x`+} ([-codex-] {+skilltui+})"]
        );
    }
}
