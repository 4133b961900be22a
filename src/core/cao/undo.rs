//! Toggles taken back within a session. A toggle the editor wrote is kept
//! as the file's text before and after it; enabling a skill this session
//! disabled puts back exactly what the disable took out (its place, its
//! comment), and the last toggle can be undone. Both work on the file as
//! it is now: the changed span is found again by the lines around it, so
//! other toggles since do not stand in the way, and an edit that cannot be
//! placed with certainty falls back to the plain editor (or refuses).

use std::path::PathBuf;

use crate::core::cao::editor::{self, Plan};
use crate::core::cao::profile::{self, Profile};
use crate::core::cao::store::{Home, Listing};

/// A toggle written this session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toggled {
    pub path: PathBuf,
    pub profile: String,
    pub skill: String,
    /// True for an enable.
    pub enabled: bool,
    pub before: String,
    pub after: String,
}

impl Toggled {
    /// The record of `plan` applied to `p` (None when it changed nothing).
    pub fn of(p: &Profile, skill: &str, enabled: bool, plan: &Plan) -> Option<Toggled> {
        Some(Toggled {
            path: p.location.path.clone()?,
            profile: p.name.clone(),
            skill: skill.to_string(),
            enabled,
            before: p.raw.clone()?,
            after: plan.new_text.clone()?,
        })
    }
}

/// Enables `skill` for `p`: where this session's latest disable of it
/// took it out, with its comment, when that place can still be found;
/// else as [`editor::enable`] does.
pub fn enable(
    home: &Home,
    listing: &Listing,
    p: &Profile,
    skill: &str,
    done: &[Toggled],
) -> Result<Plan, String> {
    let plan = editor::enable(home, listing, p, skill)?;
    let (Some(wanted), Some(raw)) = (&plan.new_text, &p.raw) else {
        return Ok(plan);
    };
    let last_disable = done
        .iter()
        .rev()
        .find(|t| Some(&t.path) == p.location.path.as_ref() && t.skill == skill && !t.enabled);
    let restored = last_disable
        .and_then(|t| reverse(t, raw))
        .filter(|text| same_skills(home, text, wanted));
    Ok(match restored {
        Some(text) => Plan {
            new_text: Some(text),
            message: format!("enabled '{skill}' for '{}', back in its place", p.name),
        },
        None => plan,
    })
}

/// `z`: the plan that takes `last` back on `p` as the file is now.
pub fn undo(home: &Home, p: &Profile, last: &Toggled) -> Result<Plan, String> {
    let changed = || {
        format!(
            "{} changed since that toggle in a way skilltui cannot place: nothing undone",
            last.path.display()
        )
    };
    let raw = p.raw.as_ref().ok_or_else(changed)?;
    let text = reverse(last, raw).ok_or_else(changed)?;
    let skills = profile::parse_text(home, &text)
        .map_err(|_| changed())?
        .skills;
    // No list is every skill.
    let gets = skills.is_none_or(|s| s.contains(&last.skill));
    if gets == last.enabled {
        return Err(changed());
    }
    let what = if last.enabled {
        "enabling"
    } else {
        "disabling"
    };
    Ok(Plan {
        new_text: Some(text),
        message: format!("undid {what} '{}' for '{}'", last.skill, last.profile),
    })
}

/// True when `a` and `b` give the same skills (in any order).
fn same_skills(home: &Home, a: &str, b: &str) -> bool {
    let skills = |t: &str| {
        let mut s = profile::parse_text(home, t).ok()?.skills?;
        s.sort();
        Some(s)
    };
    skills(a).is_some_and(|s| Some(s) == skills(b))
}

/// `now` with `t`'s change turned back: the span it changed, with the
/// whole line before and after it, must occur in `now` exactly once.
pub fn reverse(t: &Toggled, now: &str) -> Option<String> {
    if now == t.after {
        return Some(t.before.clone());
    }
    let (before, after) = (t.before.as_str(), t.after.as_str());
    let (start, end_b, end_a) = changed_span(before, after);
    let from = line_before(after, start);
    let to = line_after(after, end_a);
    let pattern = &after[from..to];
    if pattern.is_empty() {
        return None;
    }
    let mut found = now.match_indices(pattern).map(|(i, _)| i);
    let at = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let mut out = String::with_capacity(now.len() + before.len() - after.len().min(before.len()));
    out.push_str(&now[..at]);
    out.push_str(&after[from..start]);
    out.push_str(&before[start..end_b]);
    out.push_str(&after[end_a..to]);
    out.push_str(&now[at + pattern.len()..]);
    Some(out)
}

/// (start, end in `a`, end in `b`) of the one span where `a` and `b`
/// differ, on char boundaries.
fn changed_span(a: &str, b: &str) -> (usize, usize, usize) {
    let mut start = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(start) || !b.is_char_boundary(start) {
        start -= 1;
    }
    let room = a.len().min(b.len()) - start;
    let mut tail = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(a.len() - tail) || !b.is_char_boundary(b.len() - tail) {
        tail -= 1;
    }
    (start, a.len() - tail, b.len() - tail)
}

/// The start of the line holding the character before `pos`: when `pos`
/// starts a line, the whole line before it.
fn line_before(t: &str, pos: usize) -> usize {
    let Some((prev, _)) = t[..pos].char_indices().next_back() else {
        return 0;
    };
    t[..prev].rfind('\n').map_or(0, |i| i + 1)
}

/// The end (after its newline) of the line `pos` is in.
fn line_after(t: &str, pos: usize) -> usize {
    t[pos..].find('\n').map_or(t.len(), |i| pos + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::cao::editor::tests::{listing as named, profile};

    fn listing() -> Listing {
        named(&["a", "b", "c", "d"])
    }

    /// A session: applies toggles to `raw` as the TUI does, recording them.
    struct Session {
        _tmp: tempfile::TempDir,
        home: Home,
        text: String,
        done: Vec<Toggled>,
    }

    impl Session {
        fn new(raw: &str) -> Session {
            let tmp = tempfile::tempdir().unwrap();
            let home = Home::at(tmp.path().to_path_buf(), tmp.path().to_path_buf());
            Session {
                _tmp: tmp,
                home,
                text: raw.into(),
                done: Vec::new(),
            }
        }

        fn toggle(&mut self, skill: &str, on: bool) {
            let p = profile(&self.home, &self.text);
            let plan = match on {
                true => enable(&self.home, &listing(), &p, skill, &self.done),
                false => editor::disable(&self.home, &listing(), &p, skill),
            }
            .unwrap();
            self.done.extend(Toggled::of(&p, skill, on, &plan));
            self.text = plan.new_text.unwrap();
        }

        fn undo(&mut self) -> Result<(), String> {
            let last = self.done.pop().unwrap();
            let p = profile(&self.home, &self.text);
            self.text = undo(&self.home, &p, &last)?.new_text.unwrap();
            Ok(())
        }
    }

    const RAW: &str = "---\r\nname: p\r\nskills:\r\n  - a   # the first\r\n  # keep b near a\r\n  - b  # second\r\n  - c\r\nrole: x\r\n---\r\nBody\r\n";

    #[test]
    fn disable_then_enable_gives_back_every_byte() {
        for skill in ["a", "b", "c"] {
            let mut s = Session::new(RAW);
            s.toggle(skill, false);
            assert_ne!(s.text, RAW);
            s.toggle(skill, true);
            assert_eq!(s.text, RAW, "{skill}");
        }
    }

    #[test]
    fn in_any_order_each_goes_back_to_its_place() {
        let mut s = Session::new(RAW);
        s.toggle("b", false);
        s.toggle("a", false);
        s.toggle("d", true);
        // Not the reverse order: b first, then a.
        s.toggle("b", true);
        s.toggle("a", true);
        s.toggle("d", false);
        assert_eq!(s.text, RAW);
    }

    #[test]
    fn flow_lists_come_back_too_in_reverse_order() {
        let raw = "---\nskills: [a, 'b', c]  # mine\n---\n";
        let mut s = Session::new(raw);
        s.toggle("c", false);
        s.toggle("a", false);
        s.toggle("a", true);
        s.toggle("c", true);
        assert_eq!(s.text, raw);
    }

    #[test]
    fn z_undoes_the_last_toggle_byte_for_byte() {
        let mut s = Session::new(RAW);
        s.toggle("d", true);
        s.toggle("b", false);
        s.undo().unwrap();
        s.undo().unwrap();
        assert_eq!(s.text, RAW);
    }

    #[test]
    fn z_undoes_writing_a_list_into_a_profile_that_had_none() {
        let raw = "---\nname: p\ndescription: every skill\n---\nBody\n";
        let mut s = Session::new(raw);
        s.toggle("b", false);
        assert!(s.text.contains("skills:"));
        s.undo().unwrap();
        assert_eq!(s.text, raw);
    }

    #[test]
    fn a_change_that_cannot_be_placed_is_refused_by_undo() {
        let mut s = Session::new(RAW);
        s.toggle("b", false);
        // Someone rewrote the lines around it.
        s.text = "---\nskills: [c]\n---\n".into();
        let e = s.undo().unwrap_err();
        assert!(e.contains("nothing undone"), "{e}");
    }

    #[test]
    fn with_no_place_found_enable_appends_as_before() {
        let mut s = Session::new(RAW);
        s.toggle("b", false);
        // The line it went back before is written another way now.
        s.text = s.text.replace("  - c\r\n", "  - 'c'\r\n");
        s.toggle("b", true);
        assert!(s.text.contains("  - 'c'\r\n  - b\r\nrole"), "{:?}", s.text);
    }
}
