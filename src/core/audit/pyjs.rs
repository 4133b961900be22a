//! Python and JavaScript, statement by statement: a name assigned from a
//! decoder or a download (or from a name that holds one) is followed to
//! `exec`, `eval`, `compile`, `Function`, `vm.runIn…Context` or a shell
//! call. Lines are statements here: a call split over lines is read by
//! the line rules only.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]., ]+)?=([^=].*)$")
        .expect("valid pattern")
});

static DECODER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|unhexlify|fromhex|unquote(?:_to_bytes|_plus)?|atob|decodeURIComponent|unescape|fromCharCode|zlib\.decompress|gzip\.decompress|marshal\.loads|codecs\.decode)\s*\(|Buffer\.from\s*\([^)]*[\x22'](?:base64|hex|base64url)[\x22']|\[::-1\]")
        .expect("valid pattern")
});

static FETCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:requests\.get|httpx\.get|urlopen|urllib\.request\.urlopen|fetch|axios\.get|https?\.get)\s*\(")
        .expect("valid pattern")
});

static SINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:exec|eval|compile|Function|runInThisContext|runInNewContext|runInContext|execSync|spawnSync|system|popen|check_output|run)\s*\(")
        .expect("valid pattern")
});

#[derive(Clone, Copy, Default)]
struct Held {
    decoded: bool,
    fetched: bool,
}

/// (line from 1, rule, message) for each flow into a sink.
pub fn analyse(text: &str) -> Vec<(usize, &'static str, &'static str)> {
    let mut names: HashMap<String, Held> = HashMap::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split_once(" #").map_or(line, |(c, _)| c);
        if let Some(m) = SINK.find(code) {
            let args = &code[m.end()..];
            let held = names.iter().filter(|(n, _)| mentions(args, n)).fold(
                Held::default(),
                |a, (_, h)| Held {
                    decoded: a.decoded || h.decoded,
                    fetched: a.fetched || h.fetched,
                },
            );
            let direct = Held {
                decoded: DECODER.is_match(args),
                fetched: FETCH.is_match(args),
            };
            if held.decoded || direct.decoded {
                out.push((i + 1, "decode-exec", "runs decoded data as code"));
            } else if held.fetched || direct.fetched {
                out.push((i + 1, "pipe-to-shell", "runs downloaded data as code"));
            }
        }
        if let Some(c) = ASSIGN.captures(code) {
            let rhs = &c[2];
            let mut h = Held {
                decoded: DECODER.is_match(rhs),
                fetched: FETCH.is_match(rhs),
            };
            for (n, v) in &names {
                if mentions(rhs, n) {
                    h.decoded |= v.decoded;
                    h.fetched |= v.fetched;
                }
            }
            names.insert(c[1].to_string(), h);
        }
    }
    out
}

/// `name` as a whole identifier in `text`.
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        let before = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !ident(c) && c != '.');
        let after = text[at + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

#[cfg(test)]
mod tests {
    use super::analyse;

    #[test]
    fn through_names_to_sinks() {
        let rules = |s: &str| analyse(s).into_iter().map(|h| h.1).collect::<Vec<_>>();
        assert_eq!(
            rules("code = base64.b64decode(P)\nexec(code)\n"),
            ["decode-exec"]
        );
        assert_eq!(
            rules("const s = Buffer.from(x, 'base64').toString();\nvm.runInThisContext(s);\n"),
            ["decode-exec"]
        );
        assert_eq!(rules("exec(unquote('%69'))\n"), ["decode-exec"]);
        assert_eq!(
            rules("r = requests.get(u).text\nexec(r)\n"),
            ["pipe-to-shell"]
        );
        assert!(rules("code = base64.b64decode(P)\nprint(code)\nexec(other)\n").is_empty());
    }
}
