//! "Did you mean …?" for a name the user typed: the known name closest to
//! it by Jaro-Winkler similarity (as clap suggests a subcommand), so a
//! typo or a short form (`claude` for `claude-code`) points to the name.

/// How alike two names must be to be offered (1.0 is the same name).
const ALIKE: f64 = 0.8;

/// The known name closest to `typed`, when it is alike enough.
pub fn closest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .filter(|k| *k != typed)
        .map(|k| (strsim::jaro_winkler(typed, k), k))
        .filter(|(score, _)| *score >= ALIKE)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

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
        assert_eq!(
            did_you_mean("claude", agents),
            ": did you mean claude-code?"
        );
        assert_eq!(did_you_mean("zzz", agents), "");
    }
}
