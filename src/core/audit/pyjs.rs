//! Python, JavaScript, PHP and Ruby, statement by statement: a name
//! assigned from a decoder or a download (or from a name that holds one)
//! is followed to `exec`, `eval`, `compile`, `Function`, `vm.runIn…Context`,
//! a deserialiser that runs code (`pickle.loads`) or a shell call; a name
//! bound to `exec` or `eval` by `getattr` is a sink too. [`parts`] finds
//! the credential reads and the network sends with a body, which the file
//! joins into exfiltration. Lines are statements here: a call split over
//! lines is read by the line rules only.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

mod calls;

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(
        r"^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]., ]+)?=([^=].*)$",
    ))
    .expect("valid pattern")
});

static DECODER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r"\b(?:b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|unhexlify|fromhex|unquote(?:_to_bytes|_plus)?|atob|decodeURIComponent|unescape|fromCharCode|zlib\.decompress|gzip\.decompress|marshal\.loads|codecs\.decode|base64_decode|hex2bin|gzinflate|str_rot13|decode64|strict_decode64|urlsafe_decode64)\s*\(|Buffer\.from\s*\([^)]*[\x22'](?:base64|hex|base64url)[\x22']|\[::-1\]"))
        .expect("valid pattern")
});

static FETCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r"\b(?:requests\.get|httpx\.get|urlopen|urllib\.request\.urlopen|fetch|axios\.get|https?\.get|Net::HTTP\.get|URI\.open)\s*\(|\bfile_get_contents\s*\(\s*[\x22']https?:"))
        .expect("valid pattern")
});

static SINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r"\b(?:exec|eval|compile|Function|runInThisContext|runInNewContext|runInContext|execSync|spawnSync|system|popen|check_output|run|passthru|shell_exec|proc_open|assert|instance_eval|class_eval|pickle\.loads?|dill\.loads?|cloudpickle\.loads?|marshal\.loads|yaml\.unsafe_load|torch\.load|import)\s*\("))
        .expect("valid pattern")
});

/// `exec` or `eval` taken by name: `getattr(builtins, …)`,
/// `__builtins__.__dict__[…]` or `globals()[…]` with that name, a name
/// built (`"ex" + "ec"`) or held in a variable; or the bare function.
static BINDS_EXEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r"^\s*(?:(?:getattr\s*\(\s*(?:builtins|__builtins__|globals\(\)|__import__\s*\([^)]*\))\s*,|(?:__builtins__|builtins)\.__dict__\s*\[|globals\s*\(\s*\)\s*\[)\s*(?:[\x22'](?:exec|eval|compile|__import__)[\x22']|[^\x22'\s]|[\x22'][^\x22']*[\x22']\s*\+)|(?:builtins\.)?(?:exec|eval)\s*$)"))
        .expect("valid pattern")
});

/// A credential read in Python or JavaScript: a credential file named,
/// a keyring or browser store, or the whole environment taken (not
/// passed to a child process with `env=`).
static CRED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r#"["']\.(?:ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|git-credentials)["'/]|\bkeyring\.get_(?:password|credential)\s*\(|\bbrowser_cookie3\b|\bkeytar\.getPassword\s*\(|\{\s*\*\*os\.environ\s*\}|\bdict\s*\(\s*os\.environ\s*\)|\bos\.environ\.(?:copy|items)\s*\(|\bjson\.dumps\s*\(\s*(?:dict\s*\()?\s*os\.environ\b|\bprocess\.env\s*(?:[,})]|$)|\{\s*\.\.\.process\.env\s*\}|JSON\.stringify\s*\(\s*process\.env\s*\)|\bENV\.(?:to_h|to_hash|to_a|each|map|inspect|select)\b|(?:expanduser|Path\.home|homedir|Dir\.home)[^\n]*["']\*\.(?:pem|key|p12|pfx|ppk|kdbx)["']"#))
        .expect("valid pattern")
});

/// A network send with a body (a GET of a URL is not a send).
static SEND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(r#"\b(?:requests|httpx|session|client|axios|got|superagent|http)\.(?:post|put|patch)\s*\(|\.request\s*\(\s*["'](?:POST|PUT|PATCH)|\.request\s*\([^)]*\b(?:data|json|body|files|content)\s*[=:]|\burlopen\s*\([^()]*(?:\([^()]*\))?[^()]*data\s*=|\burlopen\s*\([^(),]*(?:\([^()]*\))?[^(),]*,\s*(?:[A-Za-z_][\w.]*\s*[,)]|[\x22'b{])|\bfetch\s*\([^)]*\bbody\b|\b(?:storbinary|storlines|sendmail|send_message|sendall|sendBeacon)\s*\(|\breq(?:uest)?\.(?:end|write)\s*\(\s*[A-Za-z_]|\bnet\.(?:connect|createConnection)\s*\(|Net::HTTP\.post|\bcurl_setopt\s*\([^)]*CURLOPT_POSTFIELDS|\.post_form\s*\(|->\s*(?:post|put)\s*\(|\bServerProxy\s*\([^)]*\)\s*(?:\.\w+)+\s*\(\s*[\w"']|\b(?:https?|requests|httpx|axios|got)\.get\s*\(\s*(?:["'][^"']*\?[^"']*["']\s*\+|f["'][^"']*\?[^"']*\{|`[^`]*\?[^`]*\$\{)|\.Upload(?:File|String|Data|Values)(?:Async)?\s*\("#))
        .expect("valid pattern")
});

/// The first credential read and the first network send of `text`, by
/// line (from 1).
pub fn parts(text: &str, shell: &dyn Fn(&str) -> ShellRead) -> (Option<usize>, Option<usize>) {
    let mut cred = None;
    let mut send = None;
    for (i, line) in text.lines().enumerate() {
        let code = line.split_once(" #").map_or(line, |(c, _)| c);
        let t = code.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        // `env=`/`env:` hands the environment to a child; serialised, it
        // is read to be sent.
        let serialised = code.contains("stringify") || code.contains("dumps");
        let to_child = (code.contains("env=") || code.contains("env:")) && !serialised;
        if cred.is_none() && ((CRED.is_match(code) && !to_child) || names_credential_file(code)) {
            cred = Some(i + 1);
        }
        if send.is_none() && SEND.is_match(code) {
            send = Some(i + 1);
        }
        let names = HashMap::new();
        let flows = argv_flow(code, shell)
            .into_iter()
            .chain(calls::shell_string(code, &names, shell));
        for flow in flows {
            if cred.is_none() && flow.cred {
                cred = Some(i + 1);
            }
            if send.is_none() && flow.send {
                send = Some(i + 1);
            }
        }
        if calls::vendor_key_elsewhere(code, super::context::VENDOR_VARS) {
            cred.get_or_insert(i + 1);
            send.get_or_insert(i + 1);
        }
    }
    (cred, send)
}

/// A credential file named in code: `.env` only where the line reads a
/// file (a docstring or a message saying "set it in your .env file" reads
/// nothing), and not in a pattern a scanner compiles.
fn names_credential_file(code: &str) -> bool {
    const READS: &[&str] = &[
        "open(",
        "read_text(",
        "read_bytes(",
        "readFileSync(",
        "readFile(",
        "File.read(",
        "file_get_contents(",
        "IO.read(",
    ];
    !code.contains("re.compile")
        && super::context::CRED_PATH
            .find_iter(code)
            .any(|m| !m.as_str().contains(".env") || READS.iter().any(|r| code.contains(r)))
}

/// A call that deletes a tree.
static RMTREE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(
        r"\b(?:shutil\.rmtree|rmtree|rmSync|rmdirSync|remove_tree|rm_rf|rm_r|Remove-Item)\s*\(",
    ))
    .expect("valid pattern")
});

/// `for NAME in …` / `for (const NAME of …)`: the name holds what the
/// list holds.
static FOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(
        r"^\s*for\s*\(?\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s+(?:in|of)\s+(.*)$",
    ))
    .expect("valid pattern")
});

/// Exactly the home folder, as Python, JavaScript or Ruby spell it.
static HOME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(
        r#"^(?:(?:pathlib\.)?Path\.home\(\)|Path\(\s*[\x22']~[\x22']\s*\)\.expanduser\(\)|os\.path\.expanduser\(\s*[\x22']~/?[\x22']\s*\)|os\.homedir\(\)|(?:path\.)?(?:join|resolve)\(\s*os\.homedir\(\)\s*(?:,\s*[\x22']/?[\x22']\s*)*\)|os\.environ\[\s*[\x22']HOME[\x22']\s*\]|os\.getenv\(\s*[\x22']HOME[\x22']\s*\)|process\.env\.HOME|Dir\.home|ENV\[\s*[\x22']HOME[\x22']\s*\]|[\x22']/[\x22'])(?:\.iterdir\(\)|\.glob\(\s*[\x22']\*[\x22']\s*\))?$"#,
    ))
    .expect("valid pattern")
});

/// True when `expr`, or an item of the list or tuple it is, is exactly
/// the home folder or the root.
fn names_home(expr: &str) -> bool {
    let e = expr.trim().trim_end_matches([':', ';']).trim();
    let inner = match e.strip_prefix(['[', '(']) {
        Some(rest) => until_close(rest),
        None => e,
    };
    split_top(inner).any(|item| HOME.is_match(item.trim()))
}

/// `text` up to the bracket that closes one opened just before it.
fn until_close(text: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return &text[..i],
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    text
}

/// `text` split at its commas outside brackets.
fn split_top(text: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter()
}

#[derive(Clone, Copy, Default)]
struct Held {
    decoded: bool,
    fetched: bool,
    home: bool,
}

impl Held {
    fn or(self, o: Held) -> Held {
        Held {
            decoded: self.decoded || o.decoded,
            fetched: self.fetched || o.fetched,
            home: self.home || o.home,
        }
    }
}

/// (line from 1, rule, message) for each flow into a sink.
pub fn analyse(
    text: &str,
    shell: &dyn Fn(&str) -> ShellRead,
) -> Vec<(usize, &'static str, &'static str)> {
    let mut names: HashMap<String, Held> = HashMap::new();
    // Names bound to `exec` or `eval` (`fn = getattr(builtins, "ex" + "ec")`).
    let mut aliases: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut written = calls::Written::default();
    for (i, line) in text.lines().enumerate() {
        let code = line.split_once(" #").map_or(line, |(c, _)| c);
        if written.loaded(code) {
            out.push((
                i + 1,
                "download-exec",
                "imports or runs a file it wrote from a download",
            ));
        }
        written.note(code, held_by(&names, code).fetched);
        if calls::evaluated_in_callback(code) {
            out.push((
                i + 1,
                "pipe-to-shell",
                "evaluates downloaded code in the callback that fetched it",
            ));
        }
        if let Some(flow) = calls::shell_string(code, &names, shell) {
            for rule in flow.rules {
                out.push((
                    i + 1,
                    rule,
                    "runs a shell command, built as a string, that does this",
                ));
            }
        }
        if let Some(c) = FOR.captures(code) {
            let list = &c[2];
            let mut h = held_by(&names, list);
            h.home |= names_home(list);
            names.insert(c[1].to_string(), h);
        }
        if let Some(m) = RMTREE.find(code) {
            let args = until_close(&code[m.end()..]);
            let first = split_top(args).next().unwrap_or("");
            let held = held_by(&names, first);
            if held.home || names_home(first) {
                out.push((
                    i + 1,
                    "rm-rf-root-home",
                    "deletes the home folder or the root",
                ));
            }
        }
        // A socket's descriptor copied onto standard input and output
        // hands whatever runs next to the other end.
        if code.contains("dup2(") && code.contains("fileno()") && text.contains(".connect(") {
            out.push((
                i + 1,
                "reverse-shell",
                "hands this process's input and output to a network connection",
            ));
        }
        if let Some(flow) = argv_flow(code, shell) {
            for rule in flow.rules {
                out.push((
                    i + 1,
                    rule,
                    "runs a command, given as an argument list, that does this",
                ));
            }
        }
        let call = SINK.find(code).map(|m| m.end()).or_else(|| {
            aliases
                .iter()
                .filter(|a| mentions(code, a))
                .find_map(|a| code.find(&format!("{a}(")).map(|at| at + a.len() + 1))
        });
        if let Some(end) = call {
            let args = &code[end..];
            let held = held_by(&names, args);
            let direct = Held {
                decoded: DECODER.is_match(args),
                fetched: FETCH.is_match(args),
                home: false,
            };
            if held.decoded || direct.decoded {
                out.push((i + 1, "decode-exec", "runs decoded data as code"));
            } else if held.fetched || direct.fetched {
                out.push((i + 1, "pipe-to-shell", "runs downloaded data as code"));
            }
        }
        if let Some(c) = ASSIGN.captures(code) {
            let rhs = &c[2];
            if BINDS_EXEC.is_match(rhs) {
                aliases.push(c[1].to_string());
            }
            let h = Held {
                decoded: DECODER.is_match(rhs),
                fetched: FETCH.is_match(rhs),
                home: names_home(rhs),
            };
            let from = held_by(&names, rhs);
            let h = h.or(Held {
                home: from.home && names.keys().any(|n| rhs.trim().trim_end_matches(';') == n),
                ..from
            });
            names.insert(c[1].to_string(), h);
        }
    }
    out
}

/// A process started from an argument list: Python's `subprocess` and
/// `os.exec*`/`os.spawn*`, Node's `child_process`, Deno and Bun.
static ARGV_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::context::ascii_classes(
        r"\b(?:subprocess\.(?:run|Popen|call|check_call|check_output)|os\.(?:exec|spawn|posix_spawn)[lvpe]*|(?:child_process\.)?(?:spawn|spawnSync|execFile|execFileSync)|new\s+Deno\.Command|Bun\.spawn(?:Sync)?)\s*\(",
    ))
    .expect("valid pattern")
});

/// A string literal in Python or JavaScript.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$]*)`"#).expect("valid pattern")
});

/// What the shell reader found in one command line: the rules it hit,
/// and whether it reads a credential or sends.
pub struct ShellRead {
    pub rules: Vec<&'static str>,
    pub cred: bool,
    pub send: bool,
}

/// The command an argument list runs, as one shell line (its string
/// literals quoted, each other item a placeholder word), read by the
/// shell flow model: `subprocess.run(["curl", "--data-binary", "@" + key,
/// url])` sends as `curl --data-binary @… url` does.
fn argv_flow(code: &str, shell: &dyn Fn(&str) -> ShellRead) -> Option<ShellRead> {
    let m = ARGV_CALL.find(code)?;
    let args = until_close(&code[m.end()..]);
    let mut words = Vec::new();
    for item in split_top(
        args.trim()
            .trim_start_matches(['[', '('])
            .trim_end_matches([']', ')']),
    ) {
        let item = item.trim().trim_start_matches('[').trim_end_matches(']');
        if item.is_empty() || item.contains('=') && !item.starts_with(['"', '\'', '`']) {
            continue;
        }
        for part in split_top(item) {
            let lits: Vec<String> = LITERAL
                .captures_iter(part)
                .filter_map(|c| {
                    c.get(1)
                        .or(c.get(2))
                        .or(c.get(3))
                        .map(|g| g.as_str().to_string())
                })
                .collect();
            if lits.is_empty() {
                words.push("ARG".to_string());
            } else {
                words.push(format!("'{}'", lits.concat().replace('\'', "")));
            }
        }
    }
    if words.len() < 2 {
        return None;
    }
    Some(shell(&words.join(" ")))
}

/// What the names `text` mentions hold.
fn held_by(names: &HashMap<String, Held>, text: &str) -> Held {
    names
        .iter()
        .filter(|(n, _)| mentions(text, n))
        .fold(Held::default(), |a, (_, h)| a.or(*h))
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
    use super::{ShellRead, analyse};

    /// The shell reader is the flow model's; these cases need none.
    fn no_shell(_: &str) -> ShellRead {
        ShellRead {
            rules: Vec::new(),
            cred: false,
            send: false,
        }
    }

    #[test]
    fn through_names_to_sinks() {
        let rules = |s: &str| {
            analyse(s, &no_shell)
                .into_iter()
                .map(|h| h.1)
                .collect::<Vec<_>>()
        };
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
