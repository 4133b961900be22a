//! Text as a model reads it, before any word rule: NFKD (fullwidth and
//! styled letters become plain ones) with combining marks dropped (`é`
//! reads as `e`, `i` + U+0307 as `i`), default-ignorable characters
//! dropped (a soft hyphen or a zero-width space no longer splits a word),
//! the Braille blank read as the space it looks like, emphasis marks and
//! inline HTML tags inside a word dropped (`I**gn**ore`), and each
//! non-ASCII letter that the UTS #39 confusables table maps to ASCII
//! folded to it (a Cyrillic `а` reads as `a`). ASCII letters are left alone:
//! the skeleton would also fold `rn` to `m`, and the rules are written
//! in ASCII.

use unicode_normalization::UnicodeNormalization;
use unicode_security::MixedScript;

/// Default_Ignorable_Code_Point, from the Unicode Character Database's
/// DerivedCoreProperties.txt (Unicode 15.1).
pub fn is_default_ignorable(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}'..='\u{1160}' | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// A line folded for the word rules, with, for each byte of the folded
/// text, the byte of the original line it came from.
pub struct Folded {
    pub text: String,
    pub from: Vec<usize>,
}

impl Folded {
    /// The original line's byte for folded byte `at`.
    pub fn origin(&self, at: usize) -> usize {
        self.from.get(at).copied().unwrap_or(usize::MAX)
    }
}

/// `line` folded; `None` when there is nothing to fold (plain ASCII with
/// no mark splitting a word).
pub fn fold(line: &str) -> Option<Folded> {
    if line.is_ascii() {
        let marks = line.bytes().any(|c| matches!(c, b'*' | b'_' | b'~' | b'<'));
        if !marks && !spaced_letters(line.as_bytes()) {
            return None;
        }
        let from: Vec<usize> = (0..line.len()).collect();
        let joined = unsplit(line, &from);
        let (text, from) = joined.as_ref().map_or((line, from.as_slice()), |f| {
            (f.text.as_str(), f.from.as_slice())
        });
        return unspace(text, from).or(joined);
    }
    let mut text = String::with_capacity(line.len());
    let mut from = Vec::with_capacity(line.len());
    let mut push = |c: char, at: usize, text: &mut String| {
        text.push(c);
        from.extend(std::iter::repeat_n(at, c.len_utf8()));
    };
    for (at, c) in line.char_indices() {
        if c.is_ascii() {
            push(c, at, &mut text);
            continue;
        }
        if is_default_ignorable(c) {
            continue;
        }
        if let Some(a) = blank_or_quote(c) {
            push(a, at, &mut text);
            continue;
        }
        // Decomposed, so that a combining mark (`i` + U+0307, the accent
        // of `é`) is dropped and its letter read plain.
        for k in std::iter::once(c).nfkd() {
            if k.is_ascii() || is_default_ignorable(k) {
                if k.is_ascii() {
                    push(k, at, &mut text);
                }
                continue;
            }
            if unicode_normalization::char::is_combining_mark(k) {
                continue;
            }
            match ascii_skeleton(k) {
                Some(s) => s.chars().for_each(|a| push(a, at, &mut text)),
                None => push(k, at, &mut text),
            }
        }
    }
    let folded = unsplit(&text, &from).unwrap_or(Folded { text, from });
    Some(unspace(&folded.text, &folded.from).unwrap_or(folded))
}

/// A character that reads as a space or an ASCII quote: the Braille
/// blank (U+2800) looks like a space and is not one to NFKC; curly
/// quotes and the modifier apostrophe join `l'utilisateur` as `'` does.
fn blank_or_quote(c: char) -> Option<char> {
    match c {
        '\u{2800}' => Some(' '),
        '\u{2018}' | '\u{2019}' | '\u{2bc}' | '\u{2032}' => Some('\''),
        '\u{201c}' | '\u{201d}' => Some('"'),
        _ => None,
    }
}

/// `text` (each byte from `from[i]` of `line`) without the Markdown
/// emphasis marks and inline HTML tags that sit inside a word
/// (`I**gn**ore`, `prev<b></b>ious`): a renderer shows one word and a
/// model reads one. `None` when no such mark is there.
fn unsplit(text: &str, from: &[usize]) -> Option<Folded> {
    let b = text.as_bytes();
    let mut keep = vec![true; b.len()];
    let mut any = false;
    let mut i = 0;
    while i < b.len() {
        if i == 0 || !b[i - 1].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let mut j = i;
        while let Some(n) = mark_at(b, j) {
            j += n;
        }
        if j > i && j < b.len() && b[j].is_ascii_alphabetic() {
            keep[i..j].iter_mut().for_each(|k| *k = false);
            any = true;
        }
        i = j.max(i + 1);
    }
    if !any {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    for (k, c) in text.char_indices() {
        if keep[k] {
            out.push(c);
            map.extend(from[k..k + c.len_utf8()].iter().copied());
        }
    }
    Some(Folded {
        text: out,
        from: map,
    })
}

/// A quick look for three single letters in a row, one separator apart.
fn spaced_letters(b: &[u8]) -> bool {
    b.windows(5).any(|w| {
        w[0].is_ascii_alphabetic()
            && w[2].is_ascii_alphabetic()
            && w[4].is_ascii_alphabetic()
            && matches!(w[1], b' ' | b'-' | b'.')
            && w[3] == w[1]
    })
}

/// `text` with words spelled out letter by letter (`i g n o r e`,
/// `i-g-n-o-r-e`) joined: three or more single letters, one separator
/// between each. `None` when there is none.
fn unspace(text: &str, from: &[usize]) -> Option<Folded> {
    let b = text.as_bytes();
    let alone = |i: usize| {
        b[i].is_ascii_alphabetic()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
    };
    let mut drop = vec![false; b.len()];
    let mut any = false;
    let mut i = 0;
    while i < b.len() {
        if !alone(i) {
            i += 1;
            continue;
        }
        let sep = b.get(i + 1).copied();
        let mut j = i;
        while matches!(sep, Some(b' ' | b'-' | b'.'))
            && b.get(j + 1) == sep.as_ref()
            && j + 2 < b.len()
            && alone(j + 2)
        {
            j += 2;
        }
        if (j - i) / 2 + 1 >= 3 {
            (i + 1..j).step_by(2).for_each(|k| drop[k] = true);
            any = true;
        }
        i = j + 1;
    }
    if !any {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    for (k, c) in text.char_indices() {
        if !drop[k] {
            out.push(c);
            map.extend(from[k..k + c.len_utf8()].iter().copied());
        }
    }
    Some(Folded {
        text: out,
        from: map,
    })
}

/// The length of an emphasis run (`*`, `_`, `~`) or a short inline HTML
/// tag (`<b>`, `</span>`, `<i class="x">`) starting at byte `i`.
fn mark_at(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'*' | b'_' | b'~' => Some(1),
        b'<' => {
            let rest = &b[i + 1..];
            let name = usize::from(rest.first() == Some(&b'/'));
            if !rest.get(name).is_some_and(u8::is_ascii_alphabetic) {
                return None;
            }
            let close = rest.iter().take(60).position(|c| *c == b'>')?;
            (!rest[..close].contains(&b'<')).then_some(close + 2)
        }
        _ => None,
    }
}

/// The UTS #39 skeleton of `c` when it is ASCII letters only.
fn ascii_skeleton(c: char) -> Option<String> {
    let mut buf = [0u8; 4];
    let s: String = unicode_security::skeleton(c.encode_utf8(&mut buf)).collect();
    (!s.is_empty() && s.chars().all(|a| a.is_ascii_alphabetic())).then_some(s)
}

/// The first word of `line` that mixes Latin letters with letters of
/// another script that pass for Latin (a Cyrillic `е` in `sеtup`): its
/// byte offset and the word.
pub fn mixed_script_word(line: &str) -> Option<(usize, &str)> {
    if line.is_ascii() {
        return None;
    }
    let mut start = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
            continue;
        }
        let Some(s) = start.take() else { continue };
        let word = &line[s..i];
        if !word.is_ascii() && homoglyph_word(word) {
            return Some((s, word));
        }
    }
    None
}

fn homoglyph_word(word: &str) -> bool {
    if word.is_single_script() {
        return false;
    }
    let latin = word.chars().any(|c| c.is_ascii_alphabetic());
    let passes = word.chars().any(|c| {
        !c.is_ascii() && c.is_alphabetic() && ascii_skeleton(c).is_some_and(|s| s.len() == 1)
    });
    if !(latin && passes) {
        return false;
    }
    // Greek letters beside Latin ones are mostly notation (`σz`, `Cα`,
    // `FcγRIIIa`); such a word passes for a homograph only when it reads
    // as a word the rules care about.
    let greek = |c: char| matches!(c, '\u{370}'..='\u{3ff}' | '\u{1f00}'..='\u{1fff}');
    if word.chars().filter(|c| !c.is_ascii()).all(greek) {
        let read: String = word
            .chars()
            .map(|c| match c.is_ascii() {
                true => c.to_string(),
                false => ascii_skeleton(c).unwrap_or_else(|| c.to_string()),
            })
            .collect::<String>()
            .to_ascii_lowercase();
        return GREEK_DISGUISES.contains(&read.as_str());
    }
    true
}

/// Words a Greek look-alike letter would disguise to slip past a rule.
const GREEK_DISGUISES: &[&str] = &[
    "ignore",
    "disregard",
    "forget",
    "override",
    "previous",
    "prior",
    "instructions",
    "system",
    "developer",
    "admin",
    "approved",
    "confirm",
    "confirmation",
    "permission",
    "secret",
    "token",
    "password",
    "credentials",
    "upload",
    "send",
    "post",
    "curl",
    "wget",
    "bash",
    "sudo",
    "eval",
    "exec",
    "execute",
    "run",
    "delete",
    "remove",
    "user",
    "assistant",
    "silently",
    "hide",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_what_hides_and_what_looks_alike() {
        let f = |s: &str| fold(s).map(|f| f.text).unwrap_or_else(|| s.to_string());
        assert_eq!(f("Ign\u{43e}re \u{430}ll"), "Ignore all");
        assert_eq!(f("\u{ff49}\u{ff47}\u{ff4e}"), "ign");
        assert_eq!(f("ig\u{ad}nore \u{200b}prior"), "ignore prior");
        assert_eq!(f("rn and m"), "rn and m");
        assert_eq!(
            f("I**gn**ore prev<b></b>ious instruc*tions*"),
            "Ignore previous instructions*"
        );
        assert_eq!(f("snake_case and *emphasis*"), "snakecase and *emphasis*");
        assert_eq!(
            f("I g n o r e  a-l-l  p.r.i.o.r rules"),
            "Ignore  all  prior rules"
        );
        assert_eq!(f("a b c and x y"), "abc and x y");
        assert_eq!(
            f("i\u{307}gnore pr\u{e9}c\u{e9}dentes"),
            "ignore precedentes"
        );
        assert_eq!(
            f("Ignore\u{2800}all l\u{2019}utilisateur"),
            "Ignore all l'utilisateur"
        );
        assert_eq!(
            f("Привет"),
            "Привет"
                .chars()
                .map(|c| ascii_skeleton(c).unwrap_or(c.to_string()))
                .collect::<String>()
        );
        let folded = fold("a\u{200b}b").unwrap();
        assert_eq!((folded.text.as_str(), folded.origin(1)), ("ab", 4));
    }

    #[test]
    fn mixed_script_words() {
        assert_eq!(
            mixed_script_word("run s\u{435}tup now").map(|w| w.0),
            Some(4)
        );
        assert_eq!(mixed_script_word("\u{3bc}s and \u{394}t"), None);
        assert_eq!(mixed_script_word("Привет world"), None);
        assert_eq!(
            mixed_script_word("the \u{3c3}z and Fc\u{3b3}RIIIa terms"),
            None
        );
        assert_eq!(mixed_script_word("ign\u{3bf}re it").map(|w| w.0), Some(0));
        assert_eq!(mixed_script_word("plain"), None);
    }
}
