//! What replacing a skill would change: the files added, removed and
//! changed, and for a changed text file its line diff. The force prompt and
//! `update` show the same thing.

use std::path::Path;
use std::time::{Duration, Instant};

use similar::{ChangeTag, DiffOp, TextDiff};

use crate::core::audit;
use crate::core::fsops::{self, FolderDiff};

/// Lines of context around each change in a line diff.
const CONTEXT: usize = 2;
/// Text files larger than this show as "changed" without their lines.
const MAX_DIFF_BYTES: u64 = 256 * 1024;
/// The time all the line diffs of one replacement may take: past it, the
/// diff is coarser (whole blocks replaced), then skipped. A file whose
/// every line changed would otherwise take a quadratic minute.
const DIFF_BUDGET: Duration = Duration::from_millis(300);
/// The most lines one file's diff shows; a summary line says the rest.
const MAX_LINES: usize = 400;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Context,
    Added,
    Removed,
    /// A gap between hunks.
    Skip,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: LineKind,
    pub text: String,
}

/// One changed file; `lines` is `None` for a binary or very large file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    pub path: String,
    pub lines: Option<Vec<Line>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<Changed>,
    /// Audit findings the incoming version has and the installed one has
    /// not, one line each: how a compromised upstream shows.
    pub findings: Vec<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// "2 added, 0 removed, 1 changed" (", adds 1 audit finding").
    pub fn summary(&self) -> String {
        let findings = match self.findings.len() {
            0 => String::new(),
            1 => ", adds 1 audit finding".into(),
            n => format!(", adds {n} audit findings"),
        };
        format!(
            "{} added, {} removed, {} changed{findings}",
            self.added.len(),
            self.removed.len(),
            self.changed.len()
        )
    }

    /// The changes as lines of a unified-style listing (untrusted text:
    /// the caller sanitizes).
    pub fn render(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(self.findings.iter().map(|f| format!("  adds finding  {f}")));
        out.extend(self.added.iter().map(|p| format!("  added    {p}")));
        out.extend(self.removed.iter().map(|p| format!("  removed  {p}")));
        for c in &self.changed {
            out.push(format!("  changed  {}", c.path));
            for l in c.lines.iter().flatten() {
                let mark = match l.kind {
                    LineKind::Context => ' ',
                    LineKind::Added => '+',
                    LineKind::Removed => '-',
                    LineKind::Skip => '~',
                };
                out.push(format!("    {mark} {}", l.text));
            }
        }
        out
    }
}

/// The changes from the folder `old` (installed) to `new` (incoming),
/// within [`DIFF_BUDGET`].
pub fn between(old: &Path, new: &Path) -> Changes {
    between_until(old, new, Instant::now() + DIFF_BUDGET)
}

/// [`between`], the line diffs bounded by `deadline`.
pub fn between_until(old: &Path, new: &Path, deadline: Instant) -> Changes {
    let FolderDiff {
        added,
        removed,
        changed,
    } = fsops::diff_folders(old, new);
    let changed = changed
        .into_iter()
        .map(|path| {
            let lines = text_of(&old.join(&path))
                .zip(text_of(&new.join(&path)))
                .map(|(a, b)| line_diff_until(&a, &b, deadline));
            Changed { path, lines }
        })
        .collect();
    let findings = audit::scan(new)
        .added_since(&audit::scan(old))
        .into_iter()
        .map(|f| f.summary())
        .collect();
    Changes {
        added,
        removed,
        changed,
        findings,
    }
}

fn text_of(path: &Path) -> Option<String> {
    // Refused by its size before it is read.
    let bytes = fsops::read_capped(path, MAX_DIFF_BYTES).ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// The changed lines of two texts with a little context, hunks separated
/// by a `Skip` line, within [`DIFF_BUDGET`].
pub fn line_diff(old: &str, new: &str) -> Vec<Line> {
    line_diff_until(old, new, Instant::now() + DIFF_BUDGET)
}

fn summary(text: String) -> Line {
    Line {
        kind: LineKind::Skip,
        text,
    }
}

/// [`line_diff`] by `deadline`: past it, none; at [`MAX_LINES`], a
/// summary line for the rest.
fn line_diff_until(old: &str, new: &str, deadline: Instant) -> Vec<Line> {
    if Instant::now() >= deadline {
        return vec![summary(
            "… lines not compared: the other files' diffs took the time".into(),
        )];
    }
    let diff = TextDiff::configure()
        .deadline(deadline)
        .diff_lines(old, new);
    let groups = diff.grouped_ops(CONTEXT);
    let total: usize = groups.iter().flatten().map(changed_lines).sum();
    let mut shown = 0;
    let mut out = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        if i > 0 {
            out.push(summary(String::new()));
        }
        for change in group.iter().flat_map(|op| diff.iter_changes(op)) {
            if out.len() >= MAX_LINES {
                let rest = total - shown;
                out.push(summary(format!("… {rest} more changed lines not shown")));
                return out;
            }
            let kind = match change.tag() {
                ChangeTag::Equal => LineKind::Context,
                ChangeTag::Insert => LineKind::Added,
                ChangeTag::Delete => LineKind::Removed,
            };
            shown += usize::from(kind != LineKind::Context);
            let text = change.value().trim_end_matches(['\n', '\r']).to_string();
            out.push(Line { kind, text });
        }
    }
    out
}

/// Lines an operation removes or adds.
fn changed_lines(op: &DiffOp) -> usize {
    let (tag, old, new) = op.as_tag_tuple();
    match tag {
        similar::DiffTag::Equal => 0,
        _ => old.len() + new.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_files_expand_into_lines_and_binaries_do_not() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        for d in [&a, &b] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(a.join("SKILL.md"), "one\ntwo\nthree\n").unwrap();
        std::fs::write(b.join("SKILL.md"), "one\n2\nthree\n").unwrap();
        std::fs::write(a.join("bin"), [0u8, 1]).unwrap();
        std::fs::write(b.join("bin"), [0u8, 2]).unwrap();
        std::fs::write(a.join("gone"), "x").unwrap();
        std::fs::write(b.join("new"), "y").unwrap();
        let c = between(&a, &b);
        assert_eq!(c.added, ["new"]);
        assert_eq!(c.removed, ["gone"]);
        assert_eq!(c.summary(), "1 added, 1 removed, 2 changed");
        let md = c.changed.iter().find(|x| x.path == "SKILL.md").unwrap();
        let kinds: Vec<_> = md.lines.as_ref().unwrap().iter().map(|l| l.kind).collect();
        use LineKind::*;
        assert_eq!(kinds, [Context, Removed, Added, Context]);
        assert!(
            c.changed
                .iter()
                .find(|x| x.path == "bin")
                .unwrap()
                .lines
                .is_none()
        );
        assert!(c.render().contains(&"    + 2".to_string()));
    }

    #[test]
    fn distant_changes_are_separate_hunks() {
        let old: String = (0..20).map(|i| format!("a{i}\n")).collect();
        let new = old.replace("a1\n", "one\n").replace("a18\n", "eighteen\n");
        let lines = line_diff(&old, &new);
        assert_eq!(lines.iter().filter(|l| l.kind == LineKind::Skip).count(), 1);
    }

    /// 250 KB where every line changes: the diff stays bounded and says
    /// how much it left out.
    #[test]
    fn a_file_whose_every_line_changed_is_summed_up() {
        let old: String = (0..10_000).map(|i| format!("old line {i:>14}\n")).collect();
        let new: String = (0..10_000).map(|i| format!("new line {i:>14}\n")).collect();
        let lines = line_diff(&old, &new);
        assert_eq!(lines.len(), MAX_LINES + 1);
        let last = lines.last().unwrap();
        assert_eq!(last.kind, LineKind::Skip);
        assert_eq!(
            last.text,
            format!("… {} more changed lines not shown", 20_000 - MAX_LINES)
        );
        // Past the deadline no diff is made at all.
        let late = line_diff_until(&old, &new, Instant::now());
        assert_eq!(late.len(), 1);
        assert!(late[0].text.contains("not compared"), "{late:?}");
    }
}
