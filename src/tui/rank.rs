//! How the Skills filter ranks a skill against a query, the way people
//! search: the exact name first, then names that start with the query,
//! then a fuzzy match on the name, then the query's words in the
//! description. Pure: the pane only sorts by what this returns.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// Where a skill ranks; smaller is better (`Ord` follows the tiers, then
/// what orders within one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// The name is the query (case aside).
    Exact,
    /// The name starts with the query: the shorter name first.
    Prefix(usize),
    /// The name matches fuzzily: the better score first.
    Fuzzy(std::cmp::Reverse<u32>),
    /// Every word of the query starts a word of the description: the
    /// earlier the first one, the better.
    Words(usize),
}

/// A query parsed once for a whole listing.
pub struct Query {
    lower: String,
    words: Vec<String>,
    pattern: Pattern,
    matcher: Matcher,
    buf: Vec<char>,
}

impl Query {
    pub fn new(query: &str) -> Query {
        let lower = query.trim().to_lowercase();
        Query {
            words: lower.split_whitespace().map(String::from).collect(),
            pattern: Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart),
            matcher: Matcher::new(Config::DEFAULT),
            buf: Vec::new(),
            lower,
        }
    }

    /// Where `name` with `description` ranks, `None` when it does not match.
    pub fn rank(&mut self, name: &str, description: &str) -> Option<Rank> {
        if self.lower.is_empty() {
            return None;
        }
        let name_lower = lowercase(name);
        if *name_lower == self.lower {
            return Some(Rank::Exact);
        }
        if name_lower.starts_with(&self.lower) {
            return Some(Rank::Prefix(name.chars().count()));
        }
        let hay = Utf32Str::new(name, &mut self.buf);
        if let Some(score) = self.pattern.score(hay, &mut self.matcher) {
            return Some(Rank::Fuzzy(std::cmp::Reverse(score)));
        }
        words_at(&self.words, &lowercase(description)).map(Rank::Words)
    }
}

/// `text` in lowercase, copied only when it has a capital: the pane
/// passes text lowercased once per reload, so a key allocates nothing.
fn lowercase(text: &str) -> std::borrow::Cow<'_, str> {
    match text.chars().any(char::is_uppercase) {
        true => text.to_lowercase().into(),
        false => text.into(),
    }
}

/// Where the first of `words` starts a word of `text` when every one of
/// them does; all lowercase.
fn words_at(words: &[String], text: &str) -> Option<usize> {
    let mut first = None;
    for w in words {
        let at = word_start(text, w)?;
        first = Some(first.map_or(at, |f: usize| f.min(at)));
    }
    first
}

/// The first place `word` occurs in `text` at the start of a word.
fn word_start(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The indices of `items` (name, description) that match `query`, best
/// first; ties keep the listing's order.
pub fn filter<'a>(query: &str, items: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<usize> {
    let mut q = Query::new(query);
    let mut ranked: Vec<(Rank, usize)> = items
        .enumerate()
        .filter_map(|(i, (name, desc))| Some((q.rank(name, desc)?, i)))
        .collect();
    ranked.sort();
    ranked.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shaped like anthropics/skills: descriptions that mention other
    /// formats, names that share letters.
    const SKILLS: &[(&str, &str)] = &[
        (
            "docx",
            "Document creation and editing: tracked changes, comments; also reads PDF exports",
        ),
        ("pdf", "PDF manipulation: extract text, fill forms, merge"),
        ("pdf-forms", "Fill in PDF forms"),
        ("pptx", "Presentation creation, editing and analysis"),
        ("xlsx", "Spreadsheets with formulas, formatting and data"),
        ("claude-api", "Build apps with the Claude API and SDKs"),
        (
            "agui-author",
            "Author AG-UI components; calls the claude api at build time",
        ),
        ("slack-gif-creator", "Animated GIFs for Slack"),
        ("webapp-testing", "Test web apps with Playwright"),
    ];

    fn names(query: &str) -> Vec<&'static str> {
        filter(query, SKILLS.iter().map(|(n, d)| (*n, *d)))
            .into_iter()
            .map(|i| SKILLS[i].0)
            .collect()
    }

    #[test]
    fn the_exact_name_comes_first_then_prefixes_then_the_description() {
        assert_eq!(names("pdf"), ["pdf", "pdf-forms", "docx"]);
        assert_eq!(names("PDF"), ["pdf", "pdf-forms", "docx"]);
    }

    #[test]
    fn a_hyphenated_name_does_not_match_scattered_letters_in_a_description() {
        assert_eq!(names("claude-api"), ["claude-api"]);
        // As words, the description counts.
        assert_eq!(names("claude api"), ["claude-api", "agui-author"]);
    }

    #[test]
    fn fuzzy_on_the_name_ranks_above_the_description() {
        assert_eq!(names("sgc")[0], "slack-gif-creator");
        assert_eq!(names("wbt"), ["webapp-testing"]);
        // "form" starts a word in pdf's and pdf-forms' descriptions only,
        // "formulas" in xlsx's: all three, pdf-forms first by its name.
        assert_eq!(names("form")[0], "pdf-forms");
    }

    #[test]
    fn description_words_must_start_a_word() {
        // "ting" ends "editing" and "formatting" but starts no word: only
        // the fuzzy name match is left.
        assert_eq!(names("ting"), ["webapp-testing"]);
        assert_eq!(word_start("re-editing it", "edit"), Some(3));
        assert_eq!(word_start("credit", "edit"), None);
    }

    #[test]
    fn ranks_order_by_tier_then_within() {
        use std::cmp::Reverse;
        assert!(Rank::Exact < Rank::Prefix(1));
        assert!(Rank::Prefix(3) < Rank::Prefix(9));
        assert!(Rank::Prefix(99) < Rank::Fuzzy(Reverse(1000)));
        assert!(Rank::Fuzzy(Reverse(90)) < Rank::Fuzzy(Reverse(10)));
        assert!(Rank::Fuzzy(Reverse(0)) < Rank::Words(0));
        assert_eq!(Query::new("  ").rank("a", "b"), None);
    }
}
