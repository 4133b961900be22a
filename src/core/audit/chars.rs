//! Hidden characters: tag characters, bidi controls, zero-width characters
//! inside words, runs of variation selectors, and terminal escapes. One pass over the characters, and
//! only lines that hold something outside printable ASCII are looked at.

use super::finding::Finding;

fn is_tag(c: char) -> bool {
    ('\u{e0000}'..='\u{e007f}').contains(&c)
}

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

/// The byte a variation selector stands for when used to smuggle data:
/// VS1-16 are 0-15, VS17-256 are 16-255.
fn selector_byte(c: char) -> Option<u8> {
    match c {
        '\u{fe00}'..='\u{fe0f}' => Some((c as u32 - 0xfe00) as u8),
        '\u{e0100}'..='\u{e01ef}' => Some((c as u32 - 0xe0100 + 16) as u8),
        _ => None,
    }
}

/// Hangul fillers: letters (so valid in a name) that draw nothing. In
/// Korean text they pad a syllable; anywhere else they are a name no one
/// sees (`const { timeout, \u{3164} } = req.query`).
fn is_filler(c: char) -> bool {
    matches!(c, '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}')
}

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11ff}' | '\u{3130}'..='\u{318f}' | '\u{a960}'..='\u{a97f}'
        | '\u{ac00}'..='\u{d7af}' | '\u{d7b0}'..='\u{d7ff}' | '\u{ffa1}'..='\u{ffdc}')
        && !is_filler(c)
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
}

/// The emoji that opens a subdivision flag (its tag characters spell the
/// region, as in the flag of Scotland).
const BLACK_FLAG: char = '\u{1f3f4}';

/// Each rule at most once per line: the first character that trips it.
pub fn scan(rel: &str, text: &str, out: &mut Vec<Finding>) {
    for (i, line) in text.lines().enumerate() {
        if line
            .bytes()
            .all(|b| (0x20..0x7f).contains(&b) || b == b'\t')
        {
            continue;
        }
        scan_line(rel, i + 1, line, out);
    }
}

fn scan_line(rel: &str, n: usize, line: &str, out: &mut Vec<Finding>) {
    let mut hit = |rule: &'static str, at: usize, message: String| {
        if !out
            .iter()
            .any(|f| f.rule == rule && f.line == Some(n) && f.file == rel)
        {
            out.push(Finding::new(rule, rel, Some(n), message).with_excerpt(line, at));
        }
    };
    let mut prev: Option<char> = None;
    let mut in_flag = false;
    let mut tags = String::new();
    let mut tag_at = None;
    let mut run: Vec<u8> = Vec::new();
    let mut run_at = 0;
    let mut runs: Vec<(usize, Vec<u8>)> = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    for (k, &(at, c)) in chars.iter().enumerate() {
        if c == BLACK_FLAG {
            in_flag = true;
        } else if is_tag(c) {
            if !in_flag {
                tag_at.get_or_insert(at);
                // A tag character's low byte is the ASCII it smuggles.
                if let Some(a) = char::from_u32(c as u32 - 0xe0000).filter(char::is_ascii_graphic) {
                    tags.push(a);
                } else if c != '\u{e007f}' {
                    tags.push(' ');
                }
            }
        } else {
            in_flag = false;
        }
        if is_bidi(c) {
            hit(
                "bidi-control",
                at,
                format!("U+{:04X} reorders the text shown", c as u32),
            );
        }
        if is_zero_width(c) {
            let next = chars.get(k + 1).map(|(_, c)| *c);
            let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            if letter(prev) && letter(next) {
                hit(
                    "zero-width-in-word",
                    at,
                    format!("U+{:04X} splits a word", c as u32),
                );
            }
        }
        if is_filler(c) {
            let near = |k: Option<&(usize, char)>| k.is_some_and(|(_, c)| is_hangul(*c));
            if !near(k.checked_sub(1).and_then(|j| chars.get(j))) && !near(chars.get(k + 1)) {
                hit(
                    "zero-width-in-word",
                    at,
                    format!(
                        "U+{:04X}, a Hangul filler outside Korean text, draws nothing: an invisible name",
                        c as u32
                    ),
                );
            }
        }
        match selector_byte(c) {
            Some(b) => {
                if run.is_empty() {
                    run_at = at;
                }
                run.push(b);
            }
            None if run.len() >= 2 => runs.push((run_at, std::mem::take(&mut run))),
            None => run.clear(),
        }
        if c == '\u{1b}' || is_c1(c) {
            hit(
                "terminal-escape",
                at,
                format!("control U+{:04X} would drive the terminal", c as u32),
            );
        }
        prev = Some(c);
    }
    if run.len() >= 2 {
        runs.push((run_at, run));
    }
    if let Some((at, bytes)) = runs.into_iter().next() {
        let spelled: String = bytes
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() || *b == b' ' {
                    *b as char
                } else {
                    '.'
                }
            })
            .collect();
        hit(
            "variation-selector-run",
            at,
            format!(
                "{} variation selectors in a row carry bytes no screen shows (\"{}\")",
                bytes.len(),
                cut(&crate::core::text::sanitize_line(&spelled), 60)
            ),
        );
    }
    if let Some(at) = tag_at {
        let spelled = crate::core::text::sanitize_line(tags.trim()).into_owned();
        hit(
            "hidden-tag-chars",
            at,
            format!("invisible tag characters spell \"{}\"", cut(&spelled, 60)),
        );
    }
}

fn cut(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
