//! What Codex 0.169.0 keeps of its skill list within its budget: 2% of
//! the model's context window in tokens, a line costing its bytes (and
//! its line break) divided by 4, rounded up (openai/codex
//! core-skills/src/render.rs `default_skill_metadata_budget`,
//! `render_skill_lines_from_lines`, `render_lines_with_description_budget`,
//! `render_minimum_skill_lines_until_budget`, `build_available_skills`,
//! `aliased_render_is_better`; the exact output checked against `codex
//! debug prompt-input` by the fuzzer at several `model_context_window`
//! values, tests/oracles/fuzz/codex.rs).

use std::path::Path;

/// One entry of the list, before the budget.
pub struct Line<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The short path (`rN/…/SKILL.md`).
    pub path: String,
}

/// The entries as Codex shows them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Fitted {
    pub lines: Vec<String>,
    /// Descriptions shortened (or dropped when names alone are over).
    pub shortened: usize,
    /// Entries left out.
    pub omitted: usize,
    /// What every entry whole would cost.
    pub full_cost: usize,
    /// Description characters not shown (every description's, when they
    /// are all dropped).
    pub cut_chars: usize,
    /// What the lines shown cost.
    pub cost: usize,
}

/// The model context window `$CODEX_HOME/config.toml` sets
/// (`model_context_window`), when it sets a positive one.
pub fn configured_window(codex_home: &Path) -> Option<usize> {
    let bytes = crate::core::fsops::read_capped(&codex_home.join("config.toml"), 1 << 20).ok()?;
    let doc: toml::Table = toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()?;
    let w = doc.get("model_context_window")?.as_integer()?;
    usize::try_from(w).ok().filter(|w| *w > 0)
}

/// 2% of a context window, at least 1 token.
pub fn limit_for(window: usize) -> usize {
    (window.saturating_mul(2) / 100).max(1)
}

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

fn render(l: &Line, chars: usize) -> String {
    if chars == 0 {
        return format!("- {}: (file: {})", l.name, l.path);
    }
    let end = l
        .description
        .char_indices()
        .nth(chars)
        .map_or(l.description.len(), |(i, _)| i);
    format!("- {}: {} (file: {})", l.name, &l.description[..end], l.path)
}

fn cost(line: &str) -> usize {
    tokens(line.len() + 1)
}

/// Codex's three cases: every line whole when that fits; else, when every
/// line without its description fits, description characters handed out
/// one at a time to each line in turn while the tokens they add fit (so
/// long descriptions end cut to about one length, mid-word, no marker);
/// else descriptions dropped and each line, in order, kept while it fits
/// (a later, shorter one may still fit).
pub fn fit(lines: &[Line], limit: usize) -> Fitted {
    let full: Vec<String> = lines
        .iter()
        .map(|l| render(l, l.description.chars().count()))
        .collect();
    let full_cost = full.iter().map(|l| cost(l)).sum();
    if full_cost <= limit {
        return Fitted {
            lines: full,
            full_cost,
            cost: full_cost,
            ..Fitted::default()
        };
    }
    let bare: Vec<String> = lines.iter().map(|l| render(l, 0)).collect();
    let minimum: usize = bare.iter().map(|l| cost(l)).sum();
    if minimum > limit {
        let mut used = 0;
        let mut kept = Vec::new();
        for l in bare {
            if used + cost(&l) <= limit {
                used += cost(&l);
                kept.push(l);
            }
        }
        return Fitted {
            omitted: lines.len() - kept.len(),
            shortened: lines.iter().filter(|l| !l.description.is_empty()).count(),
            lines: kept,
            full_cost,
            cut_chars: lines.iter().map(|l| l.description.chars().count()).sum(),
            cost: used,
        };
    }
    let chars = share(lines, &bare, limit - minimum);
    let shown: Vec<String> = lines
        .iter()
        .zip(&chars)
        .map(|(l, n)| render(l, *n))
        .collect();
    let cut: Vec<usize> = lines
        .iter()
        .zip(&chars)
        .map(|(l, n)| l.description.chars().count() - n)
        .collect();
    Fitted {
        shortened: cut.iter().filter(|c| **c > 0).count(),
        cut_chars: cut.iter().sum(),
        cost: shown.iter().map(|l| cost(l)).sum(),
        lines: shown,
        omitted: 0,
        full_cost,
    }
}

/// The intro of the list whose paths are `rN/…` under a roots table
/// (`strings` of @openai/codex-linux-x64 0.169.0's binary holds it; the
/// words of openai/codex core-skills/src/render.rs
/// `SKILLS_INTRO_WITH_ALIASES`).
pub const INTRO_ALIASES: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";

/// The intro of the list whose paths are whole (observed with Codex
/// 0.169.0 where the roots table does not pay).
pub const INTRO_ABSOLUTE: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `cloud package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.";

/// The block's text up to its first entry, with the roots table when
/// there is one.
fn head(roots: &[String]) -> String {
    let mut t = String::from("\n## Skills\n");
    if roots.is_empty() {
        t.push_str(INTRO_ABSOLUTE);
        t.push('\n');
    } else {
        t.push_str(INTRO_ALIASES);
        t.push_str("\n### Skill roots\n");
        for r in roots {
            t.push_str(r);
            t.push('\n');
        }
    }
    t.push_str("### Available skills\n");
    t
}

/// The `<skills_instructions>` block: the head and the lines.
pub fn block(roots: &[String], lines: &[String]) -> String {
    let mut t = format!("<skills_instructions>{}", head(roots));
    for l in lines {
        t.push_str(l);
        t.push('\n');
    }
    t.push_str("</skills_instructions>");
    t
}

/// Which list Codex shows: the one with whole paths, or the one with a
/// roots table (`roots`, its lines `- `rN` = `…``) and short paths, whose
/// table costs what it adds to the head; the table one when its table
/// leaves room and it shows more entries, else cuts fewer description
/// characters, else costs less. `true` with the table.
pub fn choose(
    absolute: &[Line],
    aliased: &[Line],
    roots: &[String],
    limit: usize,
) -> (Fitted, bool) {
    let whole = fit(absolute, limit);
    let table = tokens(head(roots).len()).saturating_sub(tokens(head(&[]).len()));
    if table >= limit {
        return (whole, false);
    }
    let short = fit(aliased, limit - table);
    let better = if short.lines.len() != whole.lines.len() {
        short.lines.len() > whole.lines.len()
    } else if short.cut_chars != whole.cut_chars {
        short.cut_chars < whole.cut_chars
    } else {
        table + short.cost < whole.cost
    };
    if better {
        (short, true)
    } else {
        (whole, false)
    }
}

/// How many description characters each line gets from `room` tokens:
/// in passes over the lines, each takes its next character when the
/// tokens that adds (its line's cost with it, less its cost without any
/// description) fit in what is left.
fn share(lines: &[Line], bare: &[String], mut room: usize) -> Vec<usize> {
    // Per line: the bytes of each description prefix, by characters.
    let prefixes: Vec<Vec<usize>> = lines
        .iter()
        .map(|l| {
            let mut acc = 0;
            l.description
                .chars()
                .map(|c| {
                    acc += c.len_utf8();
                    acc
                })
                .collect()
        })
        .collect();
    let extra = |i: usize, n: usize| -> usize {
        if n == 0 {
            return 0;
        }
        let base = bare[i].len() + 1;
        // The description and the space before it.
        tokens(base + prefixes[i][n - 1] + 1) - tokens(base)
    };
    let mut chars = vec![0usize; lines.len()];
    loop {
        let mut changed = false;
        for i in 0..lines.len() {
            if chars[i] >= prefixes[i].len() {
                continue;
            }
            let delta = extra(i, chars[i] + 1) - extra(i, chars[i]);
            if delta <= room {
                chars[i] += 1;
                room -= delta;
                changed = true;
            }
        }
        if !changed {
            return chars;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line<'a>(name: &'a str, description: &'a str) -> Line<'a> {
        Line {
            name,
            description,
            path: format!("r0/{name}/SKILL.md"),
        }
    }

    #[test]
    fn whole_lines_when_they_fit() {
        let lines = [line("a", "one"), line("b", "two")];
        let f = fit(&lines, 100);
        assert_eq!(f.lines[0], "- a: one (file: r0/a/SKILL.md)");
        assert_eq!((f.shortened, f.omitted), (0, 0));
    }

    // Observed with Codex 0.169.0 at model_context_window 20000 (400
    // tokens): the long descriptions end at one length give or take the
    // 4 bytes of a token, the earlier lines taking the extra characters.
    #[test]
    fn descriptions_are_cut_to_a_common_length_in_turn() {
        let long = "x".repeat(100);
        let lines = [line("a", &long), line("b", "short"), line("c", &long)];
        let bare: usize = lines.iter().map(|l| cost(&render(l, 0))).sum();
        let f = fit(&lines, bare + 20);
        assert_eq!(f.lines[1], "- b: short (file: r0/b/SKILL.md)");
        let kept = |s: &str| s.matches('x').count();
        assert!(kept(&f.lines[0]) >= kept(&f.lines[2]));
        assert!(kept(&f.lines[0]) - kept(&f.lines[2]) <= 4);
        assert_eq!(f.shortened, 2);
        let used: usize = f.lines.iter().map(|l| cost(l)).sum();
        assert!(used <= bare + 20, "{used}");
    }

    // Observed with Codex 0.169.0 at model_context_window 1000 (20
    // tokens): a line that does not fit is left out and a later, shorter
    // one still shown.
    #[test]
    fn names_alone_over_budget_keep_what_fits_in_order() {
        let lines = [
            line("imagegen", "d"),
            line("openai-docs", "d"),
            line("s0", "d"),
        ];
        let f = fit(&lines, 20);
        assert_eq!(
            f.lines,
            vec![
                "- imagegen: (file: r0/imagegen/SKILL.md)".to_string(),
                "- s0: (file: r0/s0/SKILL.md)".to_string()
            ]
        );
        assert_eq!(f.omitted, 1);
    }

    // Observed with Codex 0.169.0 at model_context_window 20000 (400
    // tokens) over eight roots of one skill each: the roots table costs
    // 309 tokens, so whole paths show more entries and win.
    #[test]
    fn whole_paths_win_when_the_roots_table_costs_entries() {
        let long = "/a-rather-long-directory-name/".repeat(6);
        let names: Vec<String> = (0..8).map(|i| format!("k{i}")).collect();
        let roots: Vec<String> = (0..8)
            .map(|i| format!("- `r{i}` = `{long}{i}/.codex/skills`"))
            .collect();
        let abs: Vec<Line> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Line {
                name: n,
                description: "d",
                path: format!("{long}{i}/.codex/skills/{n}/SKILL.md"),
            })
            .collect();
        let short: Vec<Line> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Line {
                name: n,
                description: "d",
                path: format!("r{i}/{n}/SKILL.md"),
            })
            .collect();
        let (_, aliased) = choose(&abs, &short, &roots, 100_000);
        assert!(aliased, "no pressure: the short list costs less");
        let (f, aliased) = choose(&abs, &short, &roots, 150);
        assert!(!aliased);
        assert!(block(&[], &f.lines).contains(INTRO_ABSOLUTE));
        let (f, _) = choose(&abs, &short, &roots, 1);
        assert_eq!(
            block(&[], &f.lines),
            format!(
                "<skills_instructions>\n## Skills\n{INTRO_ABSOLUTE}\n### Available skills\n</skills_instructions>"
            )
        );
    }

    #[test]
    fn the_limit_is_two_percent() {
        assert_eq!(limit_for(272_000), 5440);
        assert_eq!(limit_for(20_000), 400);
        assert_eq!(limit_for(10), 1);
    }
}
