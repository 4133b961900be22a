//! A set of patterns matched in one pass, each compiled on its own only
//! when the set says it matched: most files match none, so most patterns
//! are never compiled twice.

use std::sync::OnceLock;

use regex::{Regex, RegexSet};

pub struct PatternSet {
    pub set: RegexSet,
    sources: Vec<String>,
    each: Vec<OnceLock<Regex>>,
}

impl PatternSet {
    /// `sources` as one set; panics on an invalid pattern (they are ours,
    /// and a test compiles every one).
    pub fn new(sources: Vec<String>) -> PatternSet {
        PatternSet {
            set: RegexSet::new(&sources).expect("valid audit patterns"),
            each: sources.iter().map(|_| OnceLock::new()).collect(),
            sources,
        }
    }

    /// Pattern `i` alone, to find where it matched.
    pub fn get(&self, i: usize) -> &Regex {
        self.each[i].get_or_init(|| Regex::new(&self.sources[i]).expect("valid audit pattern"))
    }

    /// Every pattern compiled alone (for the test that they all compile).
    #[cfg(test)]
    pub fn compile_all(&self) {
        (0..self.sources.len()).for_each(|i| {
            self.get(i);
        });
    }
}
