//! Code or prose, line by line: a command in a script or a fenced block
//! is the command; the same words in a sentence that warns against them
//! are not. Comments inside code are read as prose.

use std::sync::LazyLock;

use regex::Regex;

/// A path a credential lives at (home-relative or absolute).
pub static CRED_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[/~@=\s'\x22])\.ssh(?:/|$|\b)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws[/\\]credentials|\.aws/config|\.config/gcloud|application_default_credentials\.json|\.azure/|\.kube/config|\.docker/config\.json|\.netrc\b|\.git-credentials|\.npmrc|\.pypirc|\.gnupg\b|\.config/gh/hosts\.yml|\.password-store|\.(?:bash|zsh|sh)_history\b|Library/Keychains|Login Data|cookies\.sqlite|/proc/[^/\s]+/environ\b|\.pgpass\b|\.my\.cnf\b|(?:^|[\s'\x22=@:])/run/secrets/[\w.-]+|(?:^|[/\s'\x22@])\.env(?:\.local|\.production)?(?:$|[\s'\x22])")
        .expect("valid pattern")
});

/// Env variables that hold a vendor's credential, and that vendor's hosts.
pub const VENDOR_VARS: &[(&str, &[&str])] = &[
    ("GITHUB_TOKEN", &["github.com", "githubusercontent.com"]),
    ("GH_TOKEN", &["github.com"]),
    ("AWS_SECRET_ACCESS_KEY", &["amazonaws.com"]),
    ("AWS_SESSION_TOKEN", &["amazonaws.com"]),
    ("OPENAI_API_KEY", &["openai.com", "azure.com"]),
    ("ANTHROPIC_API_KEY", &["anthropic.com"]),
    ("NPM_TOKEN", &["npmjs.org", "npmjs.com"]),
    ("SLACK_TOKEN", &["slack.com"]),
    ("GITLAB_TOKEN", &["gitlab.com"]),
    ("HF_TOKEN", &["huggingface.co"]),
];

/// What a text file is, by its name and first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Markdown: prose with fenced code blocks; HTML comments hide text.
    Markdown,
    /// A script: every line is code, comments aside.
    Script,
    /// HTML or XML: markup, whose comments hide text.
    Markup,
    /// A Dockerfile: its `RUN` lines are shell that builds a container.
    Dockerfile,
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
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if name == "Dockerfile" || name.starts_with("Dockerfile.") || ext == "dockerfile" {
            Kind::Dockerfile
        } else if text.starts_with("#!") || SCRIPT_EXTS.contains(&ext.as_str()) || is_makefile(rel)
        {
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

/// A Makefile: its recipes are shell.
pub fn is_makefile(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    ["Makefile", "makefile", "GNUmakefile"]
        .iter()
        .any(|m| name == *m || name.starts_with(&format!("{m}.")))
        || name.ends_with(".mk")
}

/// How one line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    Code,
    /// A comment inside code, or a sentence.
    Prose,
}

/// A line of code, or a comment in it (read as prose).
pub fn code_or_comment(line: &str) -> Ctx {
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

/// The language a script or a code block is in, for the flow models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Shell,
    Python,
    JavaScript,
    Php,
    Ruby,
    Other,
}

impl Lang {
    /// A script's language, by its `#!` line, then its extension.
    pub fn of(rel: &str, text: &str) -> Lang {
        let first = text.lines().next().unwrap_or("");
        if let Some(bang) = first.strip_prefix("#!") {
            let prog = bang
                .split_whitespace()
                .find(|w| !w.ends_with("/env") && !w.starts_with('-'))
                .map(|w| w.rsplit('/').next().unwrap_or(w))
                .unwrap_or("");
            return Lang::of_block(prog);
        }
        let ext = rel
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        Lang::of_block(&ext)
    }

    /// A code block's language from its info string (or an extension).
    pub fn of_block(lang: &str) -> Lang {
        match lang {
            "sh" | "bash" | "zsh" | "ksh" | "dash" | "ash" | "shell" | "command" => Lang::Shell,
            l if l.starts_with("python") || l == "py" => Lang::Python,
            "js" | "javascript" | "mjs" | "cjs" | "node" | "ts" | "typescript" => Lang::JavaScript,
            "php" => Lang::Php,
            "rb" | "ruby" => Lang::Ruby,
            _ => Lang::Other,
        }
    }
}

/// `re` held to one line: `\s` and negated classes never match a newline
/// (a negated class must not open with `-` or `]`); its word and digit
/// classes and word boundaries ASCII.
pub fn one_line(re: &str) -> String {
    debug_assert!(!re.contains("[^-") && !re.contains("[^]"), "{re}");
    ascii_classes(&re.replace("[^", "[^\\n").replace("\\s", "[^\\S\\n]"))
}

/// `re` with ASCII `\w`, `\d` and `\b`. A Unicode `\b` makes the regex
/// engine leave its fast DFA on any non-ASCII text. The rules name ASCII commands and
/// words (text is folded to ASCII before the word rules), and Unicode
/// word and digit classes, hundreds of ranges each, made compiling the
/// audit's patterns cost seconds of CPU in every process. Written as
/// bracketed classes, so they also work inside a class (`[\w.-]`).
pub fn ascii_classes(re: &str) -> String {
    let mut out = String::with_capacity(re.len() + 64);
    let mut chars = re.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('d') => out.push_str("[0-9]"),
            Some('b') => out.push_str("(?-u:\\b)"),
            Some(e) => {
                out.push('\\');
                out.push(e);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Words that make a sentence a warning, a refusal or a description of an
/// attack rather than an instruction to do the thing.
static WARNING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii_classes(
        r"(?i)\b(never|don'?t|do\s+not|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|won'?t|not|avoid|avoids|dangerous|danger|careful|caution|warning|warns?|unsafe|instead|prohibited|forbidden|blocks?|blocked|refuses?|refused|malicious|attacks?|attackers?|hostile|flagged|detects?)\b",
    ))
    .expect("a valid pattern")
});

/// True when the prose `line` warns against, refuses or describes what it
/// mentions (anywhere in the line).
pub fn warns(line: &str) -> bool {
    WARNING.is_match(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_in_code_are_prose() {
        assert_eq!(code_or_comment("# rm note"), Ctx::Prose);
        assert_eq!(code_or_comment("rm x"), Ctx::Code);
        assert_eq!(code_or_comment("#!/bin/sh"), Ctx::Code);
    }

    #[test]
    fn warnings() {
        assert!(warns("Never run rm -rf ~ on a shared machine."));
        assert!(!warns("Run rm -rf ~ to start fresh."));
    }

    #[test]
    fn patterns_stay_on_their_line() {
        let re = regex::Regex::new(&one_line(r"a\s+b[^x]*c")).unwrap();
        assert!(re.is_match("a  b-c"));
        assert!(!re.is_match("a\nb c"));
        assert!(!re.is_match("a b\nc"));
    }

    #[test]
    fn languages() {
        assert_eq!(Lang::of("x", "#!/usr/bin/env bash\n"), Lang::Shell);
        assert_eq!(Lang::of("a.py", ""), Lang::Python);
        assert_eq!(Lang::of_block("javascript"), Lang::JavaScript);
        assert_eq!(Kind::of("Dockerfile", ""), Kind::Dockerfile);
    }
}
