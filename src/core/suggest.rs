//! "Did you mean …?" for a name the user typed: the known name closest to
//! it by Jaro-Winkler similarity (as clap suggests a subcommand), so a
//! typo or a short form (`claude` for `claude-code`) points to the name,
//! or one edit away (two letters swapped, one left out, added or wrong):
//! Jaro-Winkler alone misses `pfd` for `pdf`, whose letters are too near
//! the start for its matching window. Every command taking a skill,
//! profile or agent name suggests through here.

/// How alike two names must be to be offered (1.0 is the same name).
const ALIKE: f64 = 0.8;

/// The known name closest to `typed`, when it is alike enough.
pub fn closest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .filter(|k| *k != typed)
        .filter_map(|k| Some((alike(typed, k)?, k)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// How alike `typed` is to `known`, when alike enough to offer: one edit
/// away (for names of three letters or more) counts as very alike.
fn alike(typed: &str, known: &str) -> Option<f64> {
    let score = strsim::jaro_winkler(typed, known);
    let one_edit = typed.chars().count() >= 3 && strsim::osa_distance(typed, known) <= 1;
    match (one_edit, score >= ALIKE) {
        (true, _) => Some(score.max(ONE_EDIT)),
        (false, true) => Some(score),
        (false, false) => None,
    }
}

/// The score of a name one edit away: above most Jaro-Winkler matches,
/// below a longer name sharing a long prefix.
const ONE_EDIT: f64 = 0.95;

/// `": did you mean NAME?"` after a message about `typed`, or nothing.
pub fn did_you_mean<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(typed, known)
        .map(|k| format!(": did you mean {k}?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_or_a_short_form_finds_the_name_and_a_stranger_finds_none() {
        let agents = ["cao", "claude-code", "codex", "opencode", "gemini-cli"];
        assert_eq!(closest("claude", agents), Some("claude-code"));
        assert_eq!(closest("codx", agents), Some("codex"));
        assert_eq!(closest("gemini", agents), Some("gemini-cli"));
        assert_eq!(closest("zzz", agents), None);
        assert_eq!(closest("codex", agents), None, "itself is not a suggestion");
        // Two letters swapped in a short name: one edit away.
        assert_eq!(closest("pfd", ["pdf", "docx", "xlsx"]), Some("pdf"));
        assert_eq!(
            closest("develper", ["developer", "reviewer"]),
            Some("developer")
        );
        assert_eq!(closest("ab", ["ba", "xy"]), None, "too short to guess");
        assert_eq!(
            did_you_mean("claude", agents),
            ": did you mean claude-code?"
        );
        assert_eq!(did_you_mean("zzz", agents), "");
    }
}
