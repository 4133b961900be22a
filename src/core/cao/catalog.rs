//! The catalog block a profile injects (CAO 2.5.4 `utils/skills.py`,
//! `build_skill_catalog`) and the other formats skilltui offers, plus Python's `fnmatch.fnmatchcase` for `skills` patterns.

use crate::core::cao::skill;
use crate::core::cao::store::{Entry, Listing};
use crate::core::parse::yaml::Value;

pub const CAO_INSTRUCTION: &str = "The following skills are available exclusively in this CAO orchestration context. To load a skill's full content, use the `mcp__cao-mcp-server__load_skill` tool (NOT the Skill command). These skills are not accessible through provider-native skill commands or directories.";
pub const V1_INSTRUCTION: &str = "The following skills are available exclusively in this CAO orchestration context. To load a skill's full content, use the `get_skill` MCP tool provided by the CAO MCP server. These skills are not accessible through provider-native skill commands or directories.";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Cao,
    V1,
    Xml,
    Json,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Cao, Format::V1, Format::Xml, Format::Json];

    pub fn name(self) -> &'static str {
        match self {
            Format::Cao => "cao",
            Format::V1 => "v1",
            Format::Xml => "xml",
            Format::Json => "json",
        }
    }

    pub fn next(self) -> Format {
        let i = Format::ALL.iter().position(|f| *f == self).unwrap_or(0);
        Format::ALL[(i + 1) % Format::ALL.len()]
    }
}

/// Why a skill is offered to a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The profile has no `skills` list: every skill.
    All,
    /// Matched by these entries of the list (an exact name is a pattern too).
    Patterns(Vec<String>),
}

/// The skills a `skills` field selects, in list order, with unmatched
/// patterns (CAO only warns about them).
#[derive(Clone, Debug, Default)]
pub struct Selection<'a> {
    pub offered: Vec<(&'a Entry, Offer)>,
    pub unmatched: Vec<String>,
}

pub fn select<'a>(listing: &'a Listing, skills: Option<&[String]>) -> Selection<'a> {
    let Some(patterns) = skills else {
        return Selection {
            offered: listing.valid().map(|e| (e, Offer::All)).collect(),
            unmatched: vec![],
        };
    };
    let compiled: Vec<Pattern> = patterns.iter().map(|p| Pattern::new(p)).collect();
    let mut matched = vec![false; patterns.len()];
    let mut offered = Vec::new();
    for entry in listing.valid() {
        // Once per name, not once per pattern.
        let name: Vec<char> = entry.folder.chars().collect();
        let hits: Vec<String> = compiled
            .iter()
            .enumerate()
            .filter(|(_, p)| match_at(&p.tokens, &name))
            .map(|(i, _)| {
                matched[i] = true;
                patterns[i].clone()
            })
            .collect();
        if !hits.is_empty() {
            offered.push((entry, Offer::Patterns(hits)));
        }
    }
    let unmatched = patterns
        .iter()
        .zip(&matched)
        .filter(|(_, m)| !**m)
        .map(|(p, _)| p.clone())
        .collect();
    Selection { offered, unmatched }
}

/// `select(listing, skills).unmatched` without building the selection:
/// each pattern stops at its first match (pane 3 asks at every key).
pub fn unmatched(listing: &Listing, skills: Option<&[String]>) -> Vec<String> {
    let mut out = Vec::new();
    let mut name: Vec<char> = Vec::new();
    for p in skills.unwrap_or_default() {
        let pattern = Pattern::new(p);
        let hit = listing.valid().any(|e| {
            name.clear();
            name.extend(e.folder.chars());
            match_at(&pattern.tokens, &name)
        });
        if !hit {
            out.push(p.clone());
        }
    }
    out
}

/// Renders the block for a selection. `Err` only for `v1`, where a declared
/// skill that does not exist is an error.
pub fn render(
    format: Format,
    listing: &Listing,
    skills: Option<&[String]>,
    profile: &str,
) -> Result<String, String> {
    match format {
        Format::V1 => render_v1(listing, skills),
        _ => render_selection(format, listing, skills, &select(listing, skills), profile),
    }
}

/// [`render`] from a selection already made: the TUI shows its cost too,
/// and selecting from 10,000 skills twice per key costs a frame.
pub fn render_selection(
    format: Format,
    listing: &Listing,
    skills: Option<&[String]>,
    sel: &Selection,
    profile: &str,
) -> Result<String, String> {
    match format {
        Format::Cao => Ok(markdown_block(CAO_INSTRUCTION, sel)),
        Format::V1 => render_v1(listing, skills),
        Format::Xml => Ok(xml_block(sel)),
        Format::Json => Ok(json_block(sel, profile)),
    }
}

fn markdown_block(instruction: &str, sel: &Selection) -> String {
    if sel.offered.is_empty() {
        return String::new();
    }
    let mut lines = vec![
        "## Available Skills".to_string(),
        String::new(),
        instruction.to_string(),
        String::new(),
    ];
    lines.extend(
        sel.offered
            .iter()
            .map(|(e, _)| format!("- **{}**: {}", e.name(), e.description())),
    );
    lines.join("\n")
}

fn render_v1(listing: &Listing, skills: Option<&[String]>) -> Result<String, String> {
    if let Some(names) = skills {
        let missing: Vec<&str> = names
            .iter()
            .filter(|n| listing.find_valid(n).is_none())
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the v1 design needs every declared skill to exist; missing: {}",
                missing.join(", ")
            ));
        }
    }
    let sel = match skills {
        None => select(listing, None),
        Some(names) => Selection {
            offered: listing
                .valid()
                .filter(|e| names.contains(&e.folder))
                .map(|e| (e, Offer::All))
                .collect(),
            unmatched: vec![],
        },
    };
    Ok(markdown_block(V1_INSTRUCTION, &sel))
}

/// skills-ref's `to_prompt`: each tag and value on its own line.
fn xml_block(sel: &Selection) -> String {
    let mut lines = vec!["<available_skills>".to_string()];
    for (entry, _) in &sel.offered {
        let dir = crate::core::fsops::absolute(&entry.checked.path);
        lines.extend([
            "<skill>".into(),
            "<name>".into(),
            html_escape(entry.name()),
            "</name>".into(),
            "<description>".into(),
            html_escape(entry.description()),
            "</description>".into(),
            "<location>".into(),
            dir.join("SKILL.md").display().to_string(),
            "</location>".into(),
            "</skill>".into(),
        ]);
    }
    lines.push("</available_skills>".into());
    lines.join("\n")
}

/// Python's `html.escape(s, quote=True)`.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// An ACP `session/update` notification carrying the skills.
fn json_block(sel: &Selection, profile: &str) -> String {
    let skills: Vec<serde_json::Value> = sel.offered.iter().map(|(e, _)| acp_skill(e)).collect();
    let note = serde_json::json!({
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": format!("cao-profile:{profile}"),
            "update": {
                "sessionUpdate": "available_skills_update",
                "skills": skills,
            }
        }
    });
    serde_json::to_string_pretty(&note).unwrap_or_default()
}

fn acp_skill(entry: &Entry) -> serde_json::Value {
    let doc = skill::read_doc(&entry.checked.path.join("SKILL.md")).ok();
    let string = |key: &str| doc.as_ref().and_then(|d| d.string(key)).map(String::from);
    let allowed: Option<Vec<String>> = doc
        .as_ref()
        .and_then(|d| d.frontmatter.get("allowed-tools"))
        .and_then(|n| match &n.value {
            Value::Seq(items) => items
                .iter()
                .map(|i| i.value.as_str().map(String::from))
                .collect(),
            Value::Str(s) => Some(s.split_whitespace().map(String::from).collect()),
            _ => None,
        });
    serde_json::json!({
        "name": entry.name(),
        "description": entry.description(),
        "license": string("license"),
        "compatibility": string("compatibility"),
        "allowedTools": allowed,
    })
}

/// The composed prompt: body, a blank line, the block (either may be empty).
pub fn compose_prompt(body: &str, block: &str) -> String {
    match (body.is_empty(), block.is_empty()) {
        (true, _) => block.to_string(),
        (false, true) => body.to_string(),
        (false, false) => format!("{body}\n\n{block}"),
    }
}

/// Sizes for the Catalog pane: what the block costs up front, and what the
/// offered skills' bodies would cost once loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub block_chars: usize,
    pub block_tokens: usize,
    pub bodies_bytes: usize,
    pub bodies_tokens: usize,
}

/// A rough token estimate (about four characters a token for English).
pub fn estimate_tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

/// Uses the body sizes the listing already measured: no file is read.
pub fn cost(block: &str, offered: &[&Entry]) -> Cost {
    let block_chars = block.chars().count();
    let bodies_bytes: usize = offered.iter().map(|e| e.checked.body_bytes).sum();
    Cost {
        block_chars,
        block_tokens: estimate_tokens(block_chars),
        bodies_bytes,
        bodies_tokens: estimate_tokens(bodies_bytes),
    }
}

/// A compiled `fnmatch` pattern, translated as Python 3.11's
/// `fnmatch.translate` does (so odd patterns behave identically).
#[derive(Clone, Debug)]
pub struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Clone, Debug)]
enum Token {
    Star,
    Any,
    Lit(char),
    Set {
        negated: bool,
        items: Vec<(char, char)>,
    },
    Never,
}

impl Pattern {
    pub fn new(pat: &str) -> Pattern {
        let p: Vec<char> = pat.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < p.len() {
            let c = p[i];
            i += 1;
            match c {
                '*' => {
                    if !matches!(tokens.last(), Some(Token::Star)) {
                        tokens.push(Token::Star);
                    }
                }
                '?' => tokens.push(Token::Any),
                '[' => i = translate_set(&p, i, &mut tokens),
                c => tokens.push(Token::Lit(c)),
            }
        }
        Pattern { tokens }
    }

    /// `fnmatch.fnmatchcase(name, pattern)`.
    pub fn matches(&self, name: &str) -> bool {
        let s: Vec<char> = name.chars().collect();
        match_at(&self.tokens, &s)
    }
}

/// The `[...]` branch of `fnmatch.translate`, from just after the `[`.
fn translate_set(p: &[char], start: usize, tokens: &mut Vec<Token>) -> usize {
    let n = p.len();
    let mut j = start;
    if j < n && p[j] == '!' {
        j += 1;
    }
    if j < n && p[j] == ']' {
        j += 1;
    }
    while j < n && p[j] != ']' {
        j += 1;
    }
    if j >= n {
        tokens.push(Token::Lit('['));
        return start;
    }
    let stuff: Vec<char> = p[start..j].to_vec();
    let chunks = set_chunks(p, start, j);
    let negated = stuff.first() == Some(&'!');
    tokens.push(if chunks.iter().all(|c| c.is_empty()) || stuff.is_empty() {
        Token::Never
    } else if stuff == ['!'] {
        Token::Any
    } else {
        Token::Set {
            negated,
            items: set_items(&chunks, negated),
        }
    });
    j + 1
}

/// Python splits the set on range hyphens into chunks and drops empty
/// ranges (`z-a`) by merging their neighbours.
fn set_chunks(p: &[char], start: usize, j: usize) -> Vec<Vec<char>> {
    let stuff = &p[start..j];
    if !stuff.contains(&'-') {
        return vec![stuff.to_vec()];
    }
    let mut chunks: Vec<Vec<char>> = Vec::new();
    let mut i = start;
    let mut k = if p[i] == '!' { i + 2 } else { i + 1 };
    while let Some(off) = p.get(k..j).and_then(|s| s.iter().position(|&c| c == '-')) {
        let found = k + off;
        chunks.push(p[i..found].to_vec());
        i = found + 1;
        k = found + 3;
    }
    let last = p[i..j].to_vec();
    if last.is_empty() {
        if let Some(c) = chunks.last_mut() {
            c.push('-');
        }
    } else {
        chunks.push(last);
    }
    let mut k = chunks.len();
    while k > 1 {
        k -= 1;
        let (prev_last, next_first) = (chunks[k - 1].last().copied(), chunks[k].first().copied());
        if let (Some(a), Some(b)) = (prev_last, next_first)
            && a > b
        {
            let tail: Vec<char> = chunks[k][1..].to_vec();
            chunks[k - 1].pop();
            chunks[k - 1].extend(tail);
            chunks.remove(k);
        }
    }
    chunks
}

/// The characters and ranges of the regex class the chunks join into:
/// consecutive chunks are joined by a range hyphen.
fn set_items(chunks: &[Vec<char>], negated: bool) -> Vec<(char, char)> {
    let mut flat: Vec<(char, bool)> = Vec::new(); // (char, is_range_hyphen)
    for (idx, chunk) in chunks.iter().enumerate() {
        if idx > 0 {
            flat.push(('-', true));
        }
        flat.extend(chunk.iter().map(|&c| (c, false)));
    }
    if negated && !flat.is_empty() {
        flat.remove(0);
    }
    // Parse like sre: an item, then `-` item makes a range.
    let mut items = Vec::new();
    let mut i = 0;
    while i < flat.len() {
        let lo = flat[i].0;
        if i + 2 < flat.len() + 1 && flat.get(i + 1).is_some_and(|&(_, r)| r) && i + 2 < flat.len()
        {
            items.push((lo, flat[i + 2].0));
            i += 3;
        } else {
            items.push((lo, lo));
            i += 1;
        }
    }
    items
}

fn match_at(tokens: &[Token], s: &[char]) -> bool {
    // Classic glob matching with single-star backtracking.
    let (mut t, mut i) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < s.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t, i));
                t += 1;
                continue;
            }
            Some(tok) if one(tok, s[i]) => {
                t += 1;
                i += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((st, si)) => {
                t = st + 1;
                i = si + 1;
                star = Some((st, si + 1));
            }
            None => return false,
        }
    }
    tokens[t..].iter().all(|tok| matches!(tok, Token::Star))
}

fn one(tok: &Token, c: char) -> bool {
    match tok {
        Token::Any => true,
        Token::Lit(l) => *l == c,
        Token::Set { negated, items } => {
            items.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
        }
        Token::Never | Token::Star => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pat: &str, name: &str) -> bool {
        Pattern::new(pat).matches(name)
    }

    #[test]
    fn fnmatchcase_like_python() {
        assert!(m("cao-*", "cao-worker"));
        assert!(!m("cao-*", "Cao-worker"));
        assert!(m("?", "a") && !m("?", "ab"));
        assert!(m("[abc]*", "beta") && !m("[abc]*", "delta"));
        assert!(m("[!a]*", "beta") && !m("[!a]*", "alpha"));
        assert!(m("[a-", "[a-") && !m("[a-", "a"));
        assert!(m("[", "[") && !m("[", "a"));
        assert!(m("[]]", "]"));
        assert!(m("[!]]", "a") && !m("[!]]", "]"));
        assert!(m("[a-c]x", "bx") && !m("[a-c]x", "dx"));
        assert!(m("[z-a]", "-") || !m("[z-a]", "a"));
        assert!(
            !m("[!]", "!"),
            "an unclosed [! is literal: pattern is '[!]'"
        );
        assert!(m("a\\b", "a\\b"));
        assert!(m("*a*b", "xxaxxb") && !m("*a*b", "xxaxx"));
        assert!(m("[!]a]", "b") && !m("[!]a]", "a"));
        assert!(m("[-a]", "-") && m("[a-]", "-"));
    }

    #[test]
    fn html_escape_like_python() {
        assert_eq!(
            html_escape("<a href=\"x\">'&'"),
            "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;"
        );
    }

    #[test]
    fn prompt_composition() {
        assert_eq!(compose_prompt("", "B"), "B");
        assert_eq!(compose_prompt("A", ""), "A");
        assert_eq!(compose_prompt("A", "B"), "A\n\nB");
    }

    // Pane 3's shortcut names exactly what the selection leaves unmatched.
    #[test]
    fn unmatched_is_what_select_leaves() {
        use crate::core::cao::store::{Entry, Status};
        let entries = ["alpha", "beta", "cao-x"].map(|n| Entry {
            folder: n.into(),
            source_dir: Default::default(),
            status: Status::Ok,
            checked: Default::default(),
            confirmed: true,
        });
        let listing = Listing {
            entries: entries.into(),
            ..Listing::default()
        };
        let cases: [&[&str]; 4] = [
            &["alpha", "nosuch", "cao-*", "z*"],
            &["*"],
            &[],
            &["[ab]*", "beta", "beta", "?"],
        ];
        for case in cases {
            let skills: Vec<String> = case.iter().map(|s| s.to_string()).collect();
            let want = select(&listing, Some(&skills)).unmatched;
            assert_eq!(unmatched(&listing, Some(&skills)), want, "{case:?}");
        }
        assert!(unmatched(&listing, None).is_empty());
    }
}
