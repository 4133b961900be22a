//! Code or prose, line by line: a command in a script or a fenced block
//! is the command; the same words in a sentence that warns against them
//! are not. Comments inside code are read as prose.

use std::sync::LazyLock;

use regex::Regex;

/// What a text file is, by its name and first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Markdown: prose with fenced code blocks; HTML comments hide text.
    Markdown,
    /// A script: every line is code, comments aside.
    Script,
    /// HTML or XML: markup, whose comments hide text.
    Markup,
    /// Anything else (text, JSON, YAML …): read as prose.
    Other,
}

const SCRIPT_EXTS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "ksh", "ps1", "psm1", "bat", "cmd", "py", "rb", "pl", "js", "mjs",
    "cjs", "ts", "php", "lua", "command",
];

impl Kind {
    pub fn of(rel: &str, text: &str) -> Kind {
        let ext = rel
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if text.starts_with("#!") || SCRIPT_EXTS.contains(&ext.as_str()) {
            Kind::Script
        } else if matches!(ext.as_str(), "md" | "markdown" | "mdx") {
            Kind::Markdown
        } else if matches!(ext.as_str(), "html" | "htm" | "xml" | "svg" | "xhtml") {
            Kind::Markup
        } else {
            Kind::Other
        }
    }

    /// Markdown and markup render without their comments.
    pub fn hides_comments(self) -> bool {
        matches!(self, Kind::Markdown | Kind::Markup)
    }
}

/// How one line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    Code,
    /// A comment inside code, or a sentence.
    Prose,
}

/// Each line of `text` with its number (from 1) and how it is read.
pub fn lines(text: &str, kind: Kind) -> impl Iterator<Item = (usize, &str, Ctx)> {
    let mut fence: Option<(char, usize)> = None;
    text.lines().enumerate().map(move |(i, line)| {
        let ctx = match kind {
            Kind::Script => code_or_comment(line),
            Kind::Markdown => {
                let trimmed = line.trim_start();
                let opener = fence_of(trimmed);
                match (fence, opener) {
                    (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n => {
                        fence = None;
                        Ctx::Prose
                    }
                    (Some(_), _) => code_or_comment(line),
                    (None, Some(f)) => {
                        fence = Some(f);
                        Ctx::Prose
                    }
                    (None, None) => Ctx::Prose,
                }
            }
            Kind::Markup | Kind::Other => Ctx::Prose,
        };
        (i + 1, line, ctx)
    })
}

/// A fence's character and length: three or more backticks or tildes.
fn fence_of(trimmed: &str) -> Option<(char, usize)> {
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = trimmed.chars().take_while(|x| *x == c).count();
    (n >= 3).then_some((c, n))
}

fn code_or_comment(line: &str) -> Ctx {
    let t = line.trim_start();
    let comment = (t.starts_with('#') && !t.starts_with("#!"))
        || t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with("* ")
        || t.starts_with("-- ")
        || t.starts_with("REM ")
        || t.starts_with("::");
    if comment { Ctx::Prose } else { Ctx::Code }
}

/// `re` with ASCII word boundaries: a Unicode `\b` makes the regex engine
/// leave its fast DFA on any non-ASCII text (ten times slower here).
pub fn ascii_bounds(re: &str) -> String {
    re.replace(r"\b", r"(?-u:\b)")
}

/// Words that make a sentence a warning, a refusal or a description of an
/// attack rather than an instruction to do the thing.
static WARNING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii_bounds(
        r"(?i)\b(never|don'?t|do\s+not|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|won'?t|not|avoid|avoids|dangerous|danger|careful|caution|warning|warns?|unsafe|instead|prohibited|forbidden|blocks?|blocked|refuses?|refused|malicious|attacks?|attackers?|hostile|flagged|detects?)\b",
    ))
    .expect("a valid pattern")
});

/// True when the prose `line` warns against, refuses or describes what it
/// mentions (anywhere in the line).
pub fn warns(line: &str) -> bool {
    WARNING.is_match(line)
}

/// True when the words before byte `at` of `line`, in its sentence, negate
/// what follows (`Never hide …`).
pub fn negated_before(line: &str, at: usize) -> bool {
    let before = &line[..at.min(line.len())];
    let sentence = before
        .rfind(['.', '!', '?', ';'])
        .map_or(before, |i| &before[i + 1..]);
    WARNING.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_lines_are_code_and_comments_prose() {
        let text = "intro rm\n```bash\nrm -rf x\n# rm note\n```\nafter\n~~~~\ncode\n~~~~\n";
        let got: Vec<Ctx> = lines(text, Kind::Markdown).map(|(_, _, c)| c).collect();
        use Ctx::*;
        assert_eq!(
            got,
            [Prose, Prose, Code, Prose, Prose, Prose, Prose, Code, Prose]
        );
        let script: Vec<Ctx> = lines("#!/bin/sh\n# c\nrm x\n", Kind::Script)
            .map(|(_, _, c)| c)
            .collect();
        assert_eq!(script, [Code, Prose, Code]);
    }

    #[test]
    fn warnings_and_negations() {
        assert!(warns("Never run rm -rf ~ on a shared machine."));
        assert!(!warns("Run rm -rf ~ to start fresh."));
        assert!(negated_before("Never hide changes from the user", 6));
        assert!(!negated_before("Done. Hide it from the user", 6));
    }
}
