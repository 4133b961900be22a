//! `<home>/.env` read as CAO reads it: python-dotenv 1.2's `dotenv_values`
//! (its parser, escapes and `${VAR:-default}` interpolation), keeping only
//! the keys that have a value. Profiles substitute these before parsing.

use std::collections::HashMap;
use std::path::Path;

use crate::core::text::py_isspace;

#[cfg(test)]
thread_local! {
    /// How many times this thread read a `.env`: callers must read it once
    /// per reload, not once per profile.
    pub static READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The variables of a `.env` file; empty when it is missing or unreadable.
/// One that is not UTF-8 is an error: CAO then fails to load any profile.
pub fn load(path: &Path) -> Result<HashMap<String, String>, String> {
    #[cfg(test)]
    READS.with(|n| n.set(n.get() + 1));
    let Ok(bytes) = crate::core::fsops::read_regular(path) else {
        return Ok(HashMap::new());
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not valid UTF-8 (byte {}), so CAO cannot read it: save it as UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    // A variable that is not Unicode cannot be one Python interpolates.
    let environ: HashMap<String, String> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    Ok(resolve(parse(&text), &environ)
        .into_iter()
        .filter_map(|(k, v)| Some((k, v?)))
        .collect())
}

/// (key, value) bindings in file order; `None` for a key without `=`.
pub fn parse(text: &str) -> Vec<(String, Option<String>)> {
    // Python opens the file in text mode: universal newlines.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut reader = Reader { s: text, pos: 0 };
    let mut out = Vec::new();
    while reader.pos < text.len() {
        match reader.binding() {
            Ok(Some(binding)) => out.push(binding),
            Ok(None) => {}
            // dotenv skips the rest of a line it cannot parse.
            Err(Skip) => {
                let _ = reader.take_while(|c| c != '\n', 0);
                reader.eat('\n');
            }
        }
    }
    out
}

/// `resolve_variables(values, override=True)`: each value's `${NAME}` and
/// `${NAME:-default}` from the process environment overlaid with the
/// values read so far.
fn resolve(
    values: Vec<(String, Option<String>)>,
    environ: &HashMap<String, String>,
) -> Vec<(String, Option<String>)> {
    let mut seen: HashMap<String, Option<String>> = HashMap::new();
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for (name, value) in values {
        let result = value.map(|v| interpolate(&v, &seen, environ));
        seen.insert(name.clone(), result.clone());
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = result,
            None => out.push((name, result)),
        }
    }
    out
}

fn interpolate(
    value: &str,
    seen: &HashMap<String, Option<String>>,
    environ: &HashMap<String, String>,
) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let name_len = after.find([':', '}']).unwrap_or(after.len());
        let name = &after[..name_len];
        let tail = &after[name_len..];
        let (default, used) = if let Some(d) = tail.strip_prefix(":-") {
            match d.find('}') {
                Some(end) => (Some(&d[..end]), name_len + 2 + end + 1),
                None => (None, usize::MAX),
            }
        } else if tail.starts_with('}') {
            (None, name_len + 1)
        } else {
            (None, usize::MAX)
        };
        if used == usize::MAX {
            // Not a variable: `$` and `{` stay, the scan goes on after them.
            out.push_str("${");
            rest = after;
            continue;
        }
        let found = match seen.get(name) {
            Some(v) => Some(v.clone().unwrap_or_default()),
            None => environ.get(name).cloned(),
        };
        out.push_str(&found.unwrap_or_else(|| default.unwrap_or("").to_string()));
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

/// A line dotenv cannot parse.
struct Skip;

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

/// Python's `[^\S\r\n]`: whitespace other than a line break.
fn blank(c: char) -> bool {
    py_isspace(c) && c != '\r' && c != '\n'
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.pos += c.len_utf8();
        }
        hit
    }

    /// Consumes the longest run of `f` chars; `Err` when shorter than `min`.
    fn take_while(&mut self, f: impl Fn(char) -> bool, min: usize) -> Result<&str, Skip> {
        let rest = &self.s[self.pos..];
        let len = rest.find(|c: char| !f(c)).unwrap_or(rest.len());
        if rest[..len].chars().count() < min {
            return Err(Skip);
        }
        self.pos += len;
        Ok(&rest[..len])
    }

    fn binding(&mut self) -> Result<Option<(String, Option<String>)>, Skip> {
        self.take_while(py_isspace, 0)?;
        if self.pos >= self.s.len() {
            return Ok(None);
        }
        self.export_prefix();
        let key = self.key()?;
        self.take_while(blank, 0)?;
        let value = if self.eat('=') {
            let spaced = !self.take_while(blank, 0)?.is_empty();
            if spaced && self.peek() == Some('#') {
                Some(String::new())
            } else {
                Some(self.value()?)
            }
        } else {
            None
        };
        self.comment_and_end()?;
        Ok(key.map(|k| (k, value)))
    }

    /// `(?:export[^\S\r\n]+)?`
    fn export_prefix(&mut self) {
        let rest = &self.s[self.pos..];
        if let Some(after) = rest.strip_prefix("export") {
            let n = after.find(|c: char| !blank(c)).unwrap_or(after.len());
            if n > 0 {
                self.pos += "export".len() + n;
            }
        }
    }

    /// `None` for a comment line (`#...`).
    fn key(&mut self) -> Result<Option<String>, Skip> {
        match self.peek() {
            Some('#') => Ok(None),
            Some('\'') => {
                let rest = &self.s[self.pos + 1..];
                let end = rest.find('\'').filter(|&e| e > 0).ok_or(Skip)?;
                self.pos += end + 2;
                Ok(Some(rest[..end].to_string()))
            }
            _ => {
                let key = self.take_while(|c| c != '=' && c != '#' && !py_isspace(c), 1)?;
                Ok(Some(key.to_string()))
            }
        }
    }

    fn value(&mut self) -> Result<String, Skip> {
        match self.peek() {
            Some(q @ ('\'' | '"')) => self.quoted(q),
            None | Some('\n') | Some('\r') => Ok(String::new()),
            _ => {
                let part = self.take_while(|c| c != '\n' && c != '\r', 0)?;
                Ok(strip_inline_comment(part))
            }
        }
    }

    /// `'((?:\\.|[^'\\])*)'` (or with `"`), then dotenv's escapes.
    fn quoted(&mut self, q: char) -> Result<String, Skip> {
        let body_start = self.pos + 1;
        let mut chars = self.s[body_start..].char_indices();
        let mut out = String::new();
        while let Some((i, c)) = chars.next() {
            if c == q {
                self.pos = body_start + i + 1;
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, next)) = chars.next() else {
                return Err(Skip);
            };
            match unescape(q, next) {
                Some(decoded) => out.push(decoded),
                None => {
                    out.push('\\');
                    out.push(next);
                }
            }
        }
        Err(Skip)
    }

    /// `(?:[^\S\r\n]*#[^\r\n]*)?` then `[^\S\r\n]*(?:\r\n|\n|\r|$)`.
    fn comment_and_end(&mut self) -> Result<(), Skip> {
        let save = self.pos;
        self.take_while(blank, 0)?;
        if self.eat('#') {
            self.take_while(|c| c != '\n' && c != '\r', 0)?;
        } else {
            self.pos = save;
        }
        self.take_while(blank, 0)?;
        if self.pos >= self.s.len() || self.eat('\n') {
            Ok(())
        } else {
            Err(Skip)
        }
    }
}

/// dotenv decodes `\\ \'` in single quotes and also `\" \a \b \f \n \r \t
/// \v` in double quotes; any other backslash stays as written.
fn unescape(quote: char, c: char) -> Option<char> {
    match (quote, c) {
        (_, '\\') => Some('\\'),
        (_, '\'') => Some('\''),
        ('"', '"') => Some('"'),
        ('"', 'a') => Some('\u{7}'),
        ('"', 'b') => Some('\u{8}'),
        ('"', 'f') => Some('\u{c}'),
        ('"', 'n') => Some('\n'),
        ('"', 'r') => Some('\r'),
        ('"', 't') => Some('\t'),
        ('"', 'v') => Some('\u{b}'),
        _ => None,
    }
}

/// `re.sub(r"\s+#.*", "", part).rstrip()`
fn strip_inline_comment(part: &str) -> String {
    let mut cut = part.len();
    let mut run_start = None;
    for (i, c) in part.char_indices() {
        if py_isspace(c) {
            run_start.get_or_insert(i);
        } else if c == '#' && run_start.is_some() {
            cut = run_start.unwrap_or(i);
            break;
        } else {
            run_start = None;
        }
    }
    part[..cut].trim_end_matches(py_isspace).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(text: &str) -> Vec<(String, Option<String>)> {
        resolve(parse(text), &HashMap::new())
    }

    fn get(text: &str, key: &str) -> Option<String> {
        vars(text)
            .into_iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v)
    }

    #[test]
    fn quoted_values_decode_dotenv_escapes() {
        assert_eq!(get("V=\"say \\\"hi\\\"\"\n", "V").unwrap(), "say \"hi\"");
        assert_eq!(get("V=\"a\\tb\"\n", "V").unwrap(), "a\tb");
        assert_eq!(get("V=\"a\\\\b\"\n", "V").unwrap(), "a\\b");
        assert_eq!(get("V=\"a\\qb\"\n", "V").unwrap(), "a\\qb");
        assert_eq!(get("V='it\\'s'\n", "V").unwrap(), "it's");
        assert_eq!(get("V='a\\nb'\n", "V").unwrap(), "a\\nb");
        assert_eq!(get("V=\"multi\nline\"\n", "V").unwrap(), "multi\nline");
    }

    #[test]
    fn unquoted_values_lose_inline_comments() {
        assert_eq!(get("V=a\t#b\n", "V").unwrap(), "a");
        assert_eq!(get("V=a#b\n", "V").unwrap(), "a#b");
        assert_eq!(get("V=  a b  # c\n", "V").unwrap(), "a b");
        assert_eq!(get("V= # c\n", "V").unwrap(), "");
        assert_eq!(get("V=#c\n", "V").unwrap(), "#c");
    }

    #[test]
    fn bad_lines_are_skipped_and_the_rest_is_read() {
        assert_eq!(get("V=\"x\" trailing\nW=ok\n", "V"), None);
        assert_eq!(get("V=\"x\" trailing\nW=ok\n", "W").unwrap(), "ok");
        assert_eq!(get("V=\"open\nW=ok\n", "W").unwrap(), "ok");
        assert_eq!(get("''=x\nW=1", "W").unwrap(), "1");
        assert_eq!(get("K=${K}x\nK=${K}y", "K").unwrap(), "xy");
        assert_eq!(get("=x\nW=ok\n", "W").unwrap(), "ok");
    }

    #[test]
    fn keys_bom_export_and_line_breaks() {
        assert_eq!(get("\u{feff}V=bom\n", "V").unwrap(), "bom");
        assert_eq!(get("'V'=qk\n", "V").unwrap(), "qk");
        assert_eq!(get("export V=e\n", "V").unwrap(), "e");
        assert_eq!(get("exportV=e\n", "exportV").unwrap(), "e");
        assert_eq!(get("V=a\rW=b\n", "W").unwrap(), "b");
        assert_eq!(get("# c\nV = spaced\n", "V").unwrap(), "spaced");
        assert_eq!(vars("K\n"), vec![("K".to_string(), None)]);
    }

    #[test]
    fn interpolation_uses_earlier_values_then_the_environment() {
        let env: HashMap<String, String> = [("E".to_string(), "env".to_string())].into();
        let got = resolve(
            parse("A=a\nB=${A}-${E}-${X:-dflt}-${N}\nN\nC=${N:-d}${A:x}\n"),
            &env,
        );
        assert_eq!(got[1].1.as_deref(), Some("a-env-dflt-"));
        assert_eq!(got[3].1.as_deref(), Some("${A:x}"));
    }
}
