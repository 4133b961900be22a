//! Editing a profile's `skills:` list in place: only that value changes;
//! comments, key order, quoting, the body and CRLF line endings are kept,
//! and enabling then disabling a skill gives back the original bytes.

use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

use crate::core::cao::catalog::Pattern;
use crate::core::cao::profile::{self, Profile};
use crate::core::cao::store::{Home, Listing};
use crate::core::error::WriteError;
use crate::core::fsops;
use crate::core::parse::frontmatter::{self, Format, Normalized};
use crate::core::parse::yaml::{self, Node, Style, Value};

/// A planned edit: the new file text, or `None` when nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub new_text: Option<String>,
    pub message: String,
}

/// Enables `skill` for the profile (plans only; see [`apply`]).
pub fn enable(home: &Home, listing: &Listing, p: &Profile, skill: &str) -> Result<Plan, String> {
    let skill = &editable(p, skill)?;
    // CAO matches every entry of the list with fnmatch: `cao-*` is kept
    // as written and offers whatever it matches.
    let pattern = is_pattern(skill);
    if !pattern && listing.find_valid(skill).is_none() {
        return Err(format!(
            "no valid skill named '{skill}'{}: `skilltui list` shows the installed ones",
            listing.did_you_mean(skill)
        ));
    }
    let Some(list) = &p.skills else {
        return Ok(no_change(format!(
            "profile '{}' has no skills list, so it already gets every skill, '{skill}' included",
            p.name
        )));
    };
    if list.iter().any(|s| s == skill) {
        return Ok(no_change(format!(
            "'{skill}' is already enabled for '{}'",
            p.name
        )));
    }
    let offered_by = list.iter().find(|pat| Pattern::new(pat).matches(skill));
    if let (false, Some(by)) = (pattern, offered_by) {
        return Ok(no_change(format!(
            "'{skill}' is already offered to '{}' through the pattern '{by}'",
            p.name
        )));
    }
    let mut wanted = list.clone();
    wanted.push(skill.to_string());
    let text = edit(home, p, &wanted, Op::Append(skill))?;
    let message = match pattern {
        false => format!("enabled '{skill}' for '{}'", p.name),
        true => pattern_message(listing, &p.name, skill),
    };
    Ok(Plan {
        new_text: Some(text),
        message,
    })
}

/// Disables `skill`. A profile without a list (every skill) gets an explicit
/// list of every other skill.
pub fn disable(home: &Home, listing: &Listing, p: &Profile, skill: &str) -> Result<Plan, String> {
    let skill = &editable(p, skill)?;
    let Some(list) = &p.skills else {
        let wanted: Vec<String> = listing
            .valid()
            .map(|e| e.folder.clone())
            .filter(|n| n != skill)
            .collect();
        let text = edit(home, p, &wanted, Op::Replace)?;
        return Ok(Plan {
            new_text: Some(text),
            message: format!(
                "'{}' now lists {} skills, all but '{skill}' (it had no list)",
                p.name,
                wanted.len()
            ),
        });
    };
    if !list.iter().any(|s| s == skill) {
        if let Some(pattern) = list.iter().find(|pat| Pattern::new(pat).matches(skill)) {
            return Err(format!(
                "'{skill}' is offered to '{}' only through the pattern '{pattern}': remove or narrow that pattern",
                p.name
            ));
        }
        return Ok(no_change(format!(
            "'{skill}' is not enabled for '{}'",
            p.name
        )));
    }
    let wanted: Vec<String> = list.iter().filter(|s| *s != skill).cloned().collect();
    let text = edit(home, p, &wanted, Op::Remove(skill))?;
    let still = wanted.iter().find(|pat| Pattern::new(pat).matches(skill));
    let message = match still {
        Some(pattern) => format!(
            "removed '{skill}' from the list of '{}', but the pattern '{pattern}' still offers it",
            p.name
        ),
        None => format!("disabled '{skill}' for '{}'", p.name),
    };
    Ok(Plan {
        new_text: Some(text),
        message,
    })
}

/// Writes a plan atomically, refusing if the file changed since it was
/// read ([`WriteError::ChangedOnDisk`]: load it again and plan again).
pub fn apply(p: &Profile, plan: &Plan) -> Result<Option<PathBuf>, WriteError> {
    let (Some(text), Some(path), Some(raw)) = (&plan.new_text, &p.location.path, &p.raw) else {
        return Ok(None);
    };
    fsops::atomic_write(path, text.as_bytes(), Some(raw.as_bytes()))?;
    Ok(Some(path.clone()))
}

/// True for a list entry fnmatch reads as more than its letters.
fn is_pattern(entry: &str) -> bool {
    entry.contains(['*', '?', '['])
}

/// What enabling the pattern `pat` offers now.
fn pattern_message(listing: &Listing, profile: &str, pat: &str) -> String {
    let compiled = Pattern::new(pat);
    let hits: Vec<&str> = listing
        .valid()
        .map(|e| e.folder.as_str())
        .filter(|n| compiled.matches(n))
        .collect();
    match hits.is_empty() {
        true => format!(
            "enabled the pattern '{pat}' for '{profile}'; it matches no installed skill yet"
        ),
        false => format!(
            "enabled the pattern '{pat}' for '{profile}': it offers {}",
            hits.join(", ")
        ),
    }
}

/// The skill name as CAO reads a name (stripped, no path parts), once the
/// profile is one whose list CAO reads at all.
fn editable(p: &Profile, skill: &str) -> Result<String, String> {
    if let Some(problem) = p.unread_frontmatter() {
        return Err(problem);
    }
    crate::core::cao::store::check_name(skill)
}

fn no_change(message: String) -> Plan {
    Plan {
        new_text: None,
        message,
    }
}

enum Op<'a> {
    Append(&'a str),
    Remove(&'a str),
    Replace,
}

/// Computes the new raw text and proves it: CAO must read back `wanted`.
fn edit(home: &Home, p: &Profile, wanted: &[String], op: Op) -> Result<String, String> {
    let raw = match (&p.raw, &p.location.path) {
        (Some(raw), Some(_)) => raw,
        _ => {
            return Err(format!(
                "'{}' is built into CAO and cannot be edited: copy it to the agent store first",
                p.name
            ));
        }
    };
    let norm = Normalized::new(raw);
    let splices = plan_splices(&norm, wanted, op)?;
    let mut out = raw.clone();
    for (range, text) in splices.into_iter().rev() {
        let raw_range = norm.raw_offset(range.start)..norm.raw_offset(range.end);
        // A plan that does not fit the text is a bug here, never a reason
        // to panic or to write a mangled file.
        if raw_range.start > raw_range.end || out.get(raw_range.clone()).is_none() {
            return Err(format!(
                "could not edit the skills of '{}' safely: edit the file by hand",
                p.name
            ));
        }
        out.replace_range(raw_range, &text.replace('\n', norm.newline()));
    }
    let back = profile::parse_text(home, &out)
        .map_err(|e| format!("the edit would break the profile ({e}): edit it by hand"))?;
    if back.skills.as_deref() != Some(wanted) {
        return Err(format!(
            "could not edit the skills of '{}' safely: edit the file by hand",
            p.name
        ));
    }
    Ok(out)
}

type Splice = (Range<usize>, String);

/// The edits to the normalized text, in increasing position order.
fn plan_splices(norm: &Normalized, wanted: &[String], op: Op) -> Result<Vec<Splice>, String> {
    let t = &norm.text;
    let fm = frontmatter::parse(t).map_err(|e| e.to_string())?;
    match fm.format {
        Format::Json => {
            return Err(
                "profiles with JSON frontmatter are not editable: convert it to YAML".into(),
            );
        }
        Format::None if fm.unterminated => {
            return Err("the frontmatter is never closed: add a `---` line".into());
        }
        Format::None => {
            let lead = t.len() - t.trim_start_matches(crate::core::text::py_isspace).len();
            return Ok(vec![(
                lead..lead,
                format!("---\n{}\n---\n", key_and_list(wanted)),
            )]);
        }
        Format::Yaml => {}
    }
    let base = fm.fm_range.start;
    let fm_text = &t[fm.fm_range.clone()];
    if yaml::has_yaml11_breaks(fm_text) {
        return Err(
            "the frontmatter holds a NEL (U+0085) line break: edit `skills` by hand".into(),
        );
    }
    let (root, exact) = yaml::load_with_spans(fm_text).map_err(|e| e.to_string())?;
    if !exact {
        return Err(
            "the frontmatter uses YAML that only CAO's reader (libyaml) reads this way: edit `skills` by hand"
                .into(),
        );
    }
    let root = match root {
        None => {
            return Ok(vec![(
                fm.fm_range.end..fm.fm_range.end,
                format!("{}\n", key_and_list(wanted)),
            )]);
        }
        Some(r) if r.style == Style::BlockMap => r,
        Some(_) => {
            return Err("the frontmatter is not a block mapping: edit `skills` by hand".into());
        }
    };
    let at = |r: &Range<usize>| base + r.start..base + r.end;
    let Some((key, value)) = root.entry("skills") else {
        let pos = match root.entry("description") {
            Some((_, d)) => line_end_after(t, base + trimmed_end(fm_text, &d.span)),
            None => fm.fm_range.end,
        };
        return Ok(vec![(pos..pos, format!("{}\n", key_and_list(wanted)))]);
    };
    let items = match &value.value {
        Value::Seq(items) => items.clone(),
        _ => Vec::new(),
    };
    if let Some(problem) = not_editable_in_place(fm_text, &root, key, value, &items) {
        return Err(problem);
    }
    let whole_value = || {
        let colon = base + key.span.end + fm_text[key.span.end..].find(':').unwrap_or(0);
        let end = match items.last() {
            Some(last) => line_end_before_newline(t, base + trimmed_end(fm_text, &last.span)),
            None => line_end_before_newline(t, at(&value.span).end.max(colon + 1)),
        };
        (colon..end, format!(":{}", list_after_colon(wanted)))
    };
    match (op, &value.value, value.style) {
        (Op::Replace, ..) | (_, Value::Null, _) => Ok(vec![whole_value()]),
        (Op::Remove(_), Value::Seq(_), Style::BlockSeq) if wanted.is_empty() => {
            Ok(vec![whole_value()])
        }
        (Op::Append(name), Value::Seq(_), Style::FlowSeq) => {
            let pos = match items.last() {
                Some(last) => base + trimmed_end(fm_text, &last.span),
                None => at(&value.span).start + 1,
            };
            let sep = if items.is_empty() { "" } else { ", " };
            Ok(vec![(pos..pos, format!("{sep}{}", scalar(name, true)))])
        }
        (Op::Append(name), Value::Seq(_), Style::BlockSeq) => {
            let last = items.last().ok_or("empty block list")?;
            let start = base + last.span.start;
            let dash = t[..start].rfind('-').unwrap_or(start);
            let indent_start = t[..dash].rfind('\n').map_or(0, |i| i + 1);
            let indent = &t[indent_start..dash];
            let pos = line_end_after(t, base + trimmed_end(fm_text, &last.span));
            Ok(vec![(
                pos..pos,
                format!("{indent}- {}\n", scalar(name, false)),
            )])
        }
        (Op::Remove(name), Value::Seq(_), style) => {
            Ok(removals(t, base, fm_text, &items, name, style))
        }
        _ => Err("`skills` is not a list: fix it by hand".into()),
    }
}

/// Why `skills` cannot be edited where it is written, if it cannot.
fn not_editable_in_place(
    fm_text: &str,
    root: &Node,
    key: &Node,
    value: &Node,
    items: &[Rc<Node>],
) -> Option<String> {
    let line_start = fm_text[..key.span.start].rfind('\n').map_or(0, |i| i + 1);
    if fm_text[line_start..key.span.start]
        .trim_start()
        .starts_with('?')
    {
        return Some("`skills` is written as an explicit key (`? skills`): edit it by hand".into());
    }
    if !written_in_place(fm_text, root, key, value, items) {
        return Some(
            "`skills` uses a YAML alias (`*name`) or merge key (`<<`), so its text is elsewhere: edit it by hand"
                .into(),
        );
    }
    // An anchored list or item may be read again elsewhere through `*name`,
    // which an edit here would change too.
    let before_value = &fm_text[key.span.end..value.span.start];
    let before_value = before_value.split('#').next().unwrap_or_default();
    let anchors = std::iter::once(before_value.rfind('&').map(|i| &before_value[i..]))
        .chain(std::iter::once(Some(&fm_text[value.span.clone()])))
        .chain(items.iter().map(|i| Some(&fm_text[i.span.clone()])))
        .flatten()
        .filter_map(|t| t.strip_prefix('&'));
    let name = anchors.map(anchor_name).find(|n| !n.is_empty())?;
    Some(format!(
        "`skills` carries the YAML anchor `&{name}`, so `*{name}` elsewhere would change too: edit it by hand"
    ))
}

fn anchor_name(after_amp: &str) -> &str {
    let end = after_amp
        .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
        .unwrap_or(after_amp.len());
    &after_amp[..end]
}

/// True when the value follows its key and each item follows the one
/// before, inside the value. An alias (`*a`) breaks this: its node, and so
/// its span, is the anchored one written earlier, where an edit must not go.
fn written_in_place(
    fm_text: &str,
    root: &Node,
    key: &Node,
    value: &Node,
    items: &[Rc<Node>],
) -> bool {
    // A key merged in (`<<: *base`) is written elsewhere: not at the start
    // of a line in the column of the top mapping's keys.
    let column = |at: usize| at - fm_text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before_key = &fm_text[key.span.start - column(key.span.start)..key.span.start];
    if !before_key.trim_start_matches(' ').is_empty()
        || column(key.span.start) != column(root.span.start)
    {
        return false;
    }
    if value.span.start < key.span.end {
        return false;
    }
    let mut after = value.span.start;
    items.iter().all(|item| {
        let ok = item.span.start >= after && item.span.end <= value.span.end;
        after = item.span.end.max(item.span.start + 1);
        ok
    })
}

/// Removes every item equal to `name`: in a flow list each run of removed
/// items goes with the separator before it (or after it, at the start); in
/// a block list each item goes with its whole line.
fn removals(
    t: &str,
    base: usize,
    fm_text: &str,
    items: &[Rc<Node>],
    name: &str,
    style: Style,
) -> Vec<Splice> {
    let gone = |i: usize| items[i].value.as_str() == Some(name);
    let start = |i: usize| base + items[i].span.start;
    let end = |i: usize| base + trimmed_end(fm_text, &items[i].span);
    let mut out = Vec::new();
    let mut i = 0;
    while i < items.len() {
        if !gone(i) {
            i += 1;
            continue;
        }
        let first = i;
        while i < items.len() && gone(i) {
            i += 1;
        }
        let last = i - 1;
        if style != Style::FlowSeq {
            for k in first..=last {
                let dash = t[..start(k)].rfind('-').unwrap_or(start(k));
                let line_start = t[..dash].rfind('\n').map_or(0, |n| n + 1);
                out.push((line_start..line_end_after(t, end(k)), String::new()));
            }
        } else if first > 0 {
            out.push((end(first - 1)..end(last), String::new()));
        } else if i < items.len() {
            out.push((start(first)..start(i), String::new()));
        } else {
            out.push((start(first)..end(last), String::new()));
        }
    }
    out
}

/// A node's end without the trailing blanks saphyr may include.
fn trimmed_end(fm_text: &str, span: &Range<usize>) -> usize {
    let s = &fm_text[span.clone()];
    span.start + s.trim_end_matches([' ', '\t']).len()
}

/// The position just after the newline ending the line that holds `pos`
/// (or `pos` itself when it already starts a line).
fn line_end_after(t: &str, pos: usize) -> usize {
    if pos > 0 && t.as_bytes()[pos - 1] == b'\n' {
        return pos;
    }
    t[pos..].find('\n').map_or(t.len(), |i| pos + i + 1)
}

/// The end of the line holding `pos`, before its newline.
fn line_end_before_newline(t: &str, pos: usize) -> usize {
    t[pos..].find('\n').map_or(t.len(), |i| pos + i)
}

fn key_and_list(wanted: &[String]) -> String {
    format!("skills:{}", list_after_colon(wanted))
}

fn list_after_colon(wanted: &[String]) -> String {
    if wanted.is_empty() {
        return " []".into();
    }
    wanted
        .iter()
        .map(|w| format!("\n  - {}", scalar(w, false)))
        .collect()
}

/// A skill name as a YAML scalar CAO reads back as that exact string.
pub fn scalar(s: &str, flow: bool) -> String {
    let plain_safe = !s.is_empty()
        && yaml::resolve_plain(s) == "str"
        && !s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.chars().any(char::is_control)
        && !(flow && s.contains([',', '[', ']', '{', '}']));
    if plain_safe {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::cao::profile::Location;
    use crate::core::cao::store::{Entry, Status};

    /// Valid skills named `names`, for editor tests here and in `undo`.
    pub(crate) fn listing(names: &[&str]) -> Listing {
        Listing {
            entries: names
                .iter()
                .map(|n| Entry {
                    folder: n.to_string(),
                    source_dir: PathBuf::new(),
                    status: Status::Ok,
                    checked: crate::core::cao::skill::Checked {
                        name: Some(n.to_string()),
                        description: Some("d".into()),
                        ..Default::default()
                    },
                    confirmed: true,
                })
                .collect(),
            ..Listing::default()
        }
    }

    /// A local profile `p` holding `raw`.
    pub(crate) fn profile(home: &Home, raw: &str) -> Profile {
        let parsed = profile::parse_text(home, raw).unwrap();
        Profile {
            name: "p".into(),
            location: Location {
                path: Some(PathBuf::from("/nonexistent/p.md")),
                source: "local".into(),
            },
            skills: parsed.skills,
            body: parsed.body,
            raw: Some(raw.to_string()),
        }
    }

    fn home() -> (tempfile::TempDir, Home) {
        let t = tempfile::tempdir().unwrap();
        let h = Home::at(t.path().to_path_buf(), t.path().to_path_buf());
        (t, h)
    }

    fn toggle(raw: &str, skill: &str, on: bool) -> String {
        let (_t, h) = home();
        let l = listing(&["a", "b", "c", "yes", "new"]);
        let p = profile(&h, raw);
        let plan = if on {
            enable(&h, &l, &p, skill)
        } else {
            disable(&h, &l, &p, skill)
        }
        .unwrap();
        plan.new_text.expect("a change")
    }

    #[test]
    fn enable_takes_a_pattern_as_written_and_disable_takes_it_back() {
        let raw = "---\nskills:\n  - c  # kept\n---\n";
        let (_t, h) = home();
        let l = listing(&["a", "b", "c", "yes", "new"]);
        let p = profile(&h, raw);
        let plan = enable(&h, &l, &p, "[ab]*").unwrap();
        assert_eq!(
            plan.message,
            "enabled the pattern '[ab]*' for 'p': it offers a, b"
        );
        let on = plan.new_text.unwrap();
        let back = profile::parse_text(&h, &on).unwrap();
        assert_eq!(back.skills.unwrap(), ["c", "[ab]*"]);
        assert_eq!(toggle(&on, "[ab]*", false), raw);
        let none = enable(&h, &l, &p, "zz-*").unwrap();
        assert!(none.message.contains("matches no installed skill yet"));
        // Listed already: nothing to do.
        let again = enable(&h, &l, &profile(&h, &on), "[ab]*").unwrap();
        assert_eq!(again.new_text, None);
    }

    #[test]
    fn block_list_round_trip_keeps_every_byte() {
        let raw = "---\r\nname: p  # the name\r\nskills:\r\n    - a   # first\r\n    - 'b'\r\nrole: x\r\n---\r\nBody\r\n";
        let on = toggle(raw, "new", true);
        assert_eq!(
            on,
            "---\r\nname: p  # the name\r\nskills:\r\n    - a   # first\r\n    - 'b'\r\n    - new\r\nrole: x\r\n---\r\nBody\r\n"
        );
        assert_eq!(toggle(&on, "new", false), raw);
    }

    #[test]
    fn flow_list_round_trip() {
        let raw = "---\nskills: [a, \"b\" ]  # c\n---\n";
        let on = toggle(raw, "c", true);
        assert_eq!(on, "---\nskills: [a, \"b\", c ]  # c\n---\n");
        assert_eq!(toggle(&on, "c", false), raw);
        let empty = "---\nskills: []\n---\n";
        assert_eq!(toggle(empty, "a", true), "---\nskills: [a]\n---\n");
        assert_eq!(toggle("---\nskills: [a]\n---\n", "a", false), empty);
    }

    #[test]
    fn last_block_item_becomes_empty_flow_list() {
        assert_eq!(
            toggle("---\nskills:\n  - a\nx: 1\n---\n", "a", false),
            "---\nskills: []\nx: 1\n---\n"
        );
    }

    #[test]
    fn names_that_yaml_would_retype_are_quoted() {
        assert_eq!(
            toggle("---\nskills: [a]\n---\n", "yes", true),
            "---\nskills: [a, \"yes\"]\n---\n"
        );
    }

    #[test]
    fn absent_list_materializes_after_description() {
        let raw = "---\nname: p\ndescription: |\n  multi\n  line\nrole: r\n---\nbody";
        let out = toggle(raw, "b", false);
        assert_eq!(
            out,
            "---\nname: p\ndescription: |\n  multi\n  line\nskills:\n  - a\n  - c\n  - \"yes\"\n  - new\nrole: r\n---\nbody"
        );
    }

    #[test]
    fn aliased_lists_and_items_are_refused_not_mangled() {
        let (_t, h) = home();
        let l = listing(&["a", "b"]);
        for raw in [
            "---\nbase: &s [a]\nskills: *s\n---\nbody\n",
            "---\nx: &n a\nskills: [*n, b]\n---\n",
            "---\nx: &n a\nskills:\n  - b\n  - *n\n---\n",
            "---\nskills: [&n a, *n]\n---\n",
            "---\nb: &b {skills: [a]}\n<<: *b\n---\n",
            "---\nb: &b\n  skills: [a]\n<<: *b\n---\n",
        ] {
            let p = profile(&h, raw);
            let err = disable(&h, &l, &p, "a").unwrap_err();
            assert!(err.contains("alias"), "{raw:?}: {err}");
        }
    }

    #[test]
    fn yaml_saphyr_reads_differently_is_refused_not_mangled() {
        let (_t, h) = home();
        let l = listing(&["a", "b"]);
        // libyaml reads `"b"#c` as "b"; saphyr refuses it, so its spans are unknown
        let p = profile(&h, "---\nskills:\n  - a\n  - \"b\"#c\n---\n");
        let err = disable(&h, &l, &p, "a").unwrap_err();
        assert!(err.contains("by hand"), "{err}");
    }

    #[test]
    fn patterns_explain_themselves() {
        let (_t, h) = home();
        let l = listing(&["a", "b"]);
        let p = profile(&h, "---\nskills: ['[ab]*']\n---\n");
        assert!(
            enable(&h, &l, &p, "a")
                .unwrap()
                .message
                .contains("pattern '[ab]*'")
        );
        assert!(
            disable(&h, &l, &p, "a")
                .unwrap_err()
                .contains("only through the pattern")
        );
        assert!(
            enable(&h, &l, &p, "zzz")
                .unwrap_err()
                .contains("no valid skill")
        );
        let both = profile(&h, "---\nskills: [a, '[ab]*']\n---\n");
        let plan = disable(&h, &l, &both, "a").unwrap();
        assert!(
            plan.message.contains("'[ab]*' still offers it"),
            "{}",
            plan.message
        );
    }

    #[test]
    fn anchors_explicit_keys_and_boms_are_refused_by_name() {
        let (_t, h) = home();
        let l = listing(&["a", "b", "c"]);
        for (raw, expect) in [
            ("---\nskills: &sk [a, b]\nmore: *sk\n---\n", "`&sk`"),
            ("---\nskills: &sk\n  - a\nmore: *sk\n---\n", "`&sk`"),
            ("---\nskills: [&one a, b]\nmore: *one\n---\n", "`&one`"),
            ("---\n? skills\n: [a, b]\n---\n", "explicit key"),
            ("\u{feff}---\nskills: [a, b]\n---\n", "byte-order mark"),
        ] {
            let p = profile(&h, raw);
            for on in [true, false] {
                let skill = if on { "c" } else { "a" };
                let err = match on {
                    true => enable(&h, &l, &p, skill),
                    false => disable(&h, &l, &p, skill),
                }
                .unwrap_err();
                assert!(err.contains(expect), "{raw:?} {on}: {err}");
            }
        }
        // A comment mentioning `&x` is no anchor.
        let p = profile(&h, "---\nskills: # a & b, &c\n  - a\n---\n");
        assert!(enable(&h, &l, &p, "b").is_ok());
    }

    #[test]
    fn skill_names_are_stripped_as_cao_strips_them() {
        let (_t, h) = home();
        let l = listing(&["a", "keep"]);
        let p = profile(&h, "---\nskills: [a]\n---\n");
        let on = enable(&h, &l, &p, "keep ").unwrap();
        assert_eq!(
            on.new_text.as_deref(),
            Some("---\nskills: [a, keep]\n---\n")
        );
        let p = profile(&h, "---\nskills: [a, keep]\n---\n");
        let off = disable(&h, &l, &p, " keep\t").unwrap();
        assert_eq!(off.new_text.as_deref(), Some("---\nskills: [a]\n---\n"));
        assert!(
            enable(&h, &l, &p, "a/b")
                .unwrap_err()
                .contains("must not contain")
        );
    }
}
