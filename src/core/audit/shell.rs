//! A shell reader for the audit: lists, pipelines, words with their
//! quotes removed, command and process substitutions (read as scripts of
//! their own), redirections and here-documents. It reads what a POSIX
//! shell or bash would split, not what it would expand, and it never
//! fails: a snippet from a Markdown block (a prompt, a placeholder, an
//! unclosed quote) still gives its commands. Linear in the text, and
//! substitutions nest at most [`MAX_DEPTH`] deep.

/// Substitutions deeper than this are kept as text, not read.
const MAX_DEPTH: usize = 12;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
}

/// Commands joined by `|` (or `|&`), starting on `line` (from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub line: usize,
    pub cmds: Vec<Cmd>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cmd {
    pub words: Vec<Word>,
    pub redirs: Vec<Redir>,
}

/// One word, quotes removed; `$VAR`, `$(…)` and `<(…)` stay in `text` as
/// written, and each substitution is also read into `subs`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub subs: Vec<Sub>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sub {
    /// `$(…)` or a backquote; `<(…)`; `>(…)`.
    pub kind: SubKind,
    pub body: Script,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubKind {
    Command,
    ProcessIn,
    ProcessOut,
}

/// `>`, `>>`, `<`, `<<`, `<<<`, `>&` … and what it names; a
/// here-document's target is its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redir {
    pub op: String,
    pub target: Word,
}

/// Reads `text` as a shell script.
pub fn parse(text: &str) -> Script {
    let chars: Vec<char> = text.chars().collect();
    let mut r = Reader {
        s: &chars,
        i: 0,
        line: 1,
        heredocs: Vec::new(),
    };
    r.script(0, None)
}

struct Reader<'a> {
    s: &'a [char],
    i: usize,
    line: usize,
    /// Here-documents opened on this line: (delimiter, strip tabs, where
    /// the body goes: pipeline, command and redirection index).
    heredocs: Vec<(String, bool, (usize, usize, usize))>,
}

impl Reader<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// A script up to the end, or to `close` (`)` or a backquote) at this
    /// nesting level.
    fn script(&mut self, depth: usize, close: Option<char>) -> Script {
        let mut out = Script::default();
        let mut cmd = Cmd::default();
        let mut pipeline = Pipeline {
            line: self.line,
            cmds: Vec::new(),
        };
        macro_rules! end_cmd {
            () => {
                if !cmd.words.is_empty() || !cmd.redirs.is_empty() {
                    pipeline.cmds.push(std::mem::take(&mut cmd));
                }
            };
        }
        macro_rules! end_pipeline {
            () => {
                end_cmd!();
                if !pipeline.cmds.is_empty() {
                    out.pipelines.push(std::mem::take(&mut pipeline));
                }
                pipeline.line = self.line;
            };
        }
        while let Some(c) = self.peek(0) {
            match c {
                _ if Some(c) == close => {
                    self.bump();
                    break;
                }
                ' ' | '\t' | '\r' => {
                    self.bump();
                }
                '\\' if self.peek(1) == Some('\n') => {
                    self.bump();
                    self.bump();
                }
                '\n' => {
                    self.bump();
                    end_pipeline!();
                    pipeline.line = self.line;
                    // Bodies go to commands already closed on this line.
                    let pending = std::mem::take(&mut self.heredocs);
                    for (delim, strip, at) in pending {
                        let body = self.heredoc_body(&delim, strip);
                        let target = out
                            .pipelines
                            .get_mut(at.0)
                            .and_then(|p| p.cmds.get_mut(at.1))
                            .and_then(|c| c.redirs.get_mut(at.2));
                        if let Some(r) = target {
                            r.target.text = body;
                        }
                    }
                    pipeline.line = self.line;
                }
                '#' => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                ';' | '&' => {
                    self.bump();
                    if c == '&' && self.peek(0) == Some('>') {
                        // `&>` and `&>>`: both outputs to a file.
                        self.redirection(&mut cmd, depth, "&", &out, &pipeline);
                        continue;
                    }
                    while matches!(self.peek(0), Some(';' | '&')) {
                        self.bump();
                    }
                    end_pipeline!();
                }
                '|' => {
                    self.bump();
                    if self.peek(0) == Some('|') {
                        self.bump();
                        end_pipeline!();
                    } else {
                        if self.peek(0) == Some('&') {
                            self.bump();
                        }
                        end_cmd!();
                    }
                }
                '(' if self.peek(1) == Some('(') && self.word_edge() => {
                    // `(( … ))`: arithmetic, kept as one command named `((`.
                    self.bump();
                    self.bump();
                    cmd.words.push(Word {
                        text: "((".into(),
                        subs: Vec::new(),
                    });
                }
                ')' if self.peek(1) == Some(')') && cmd.words.iter().any(|w| w.text == "((") => {
                    self.bump();
                    self.bump();
                    end_pipeline!();
                }
                '(' | ')' | '{' | '}' if self.word_edge() => {
                    // Subshells and groups: their commands are read as
                    // commands of this list.
                    self.bump();
                    end_pipeline!();
                }
                '<' | '>' if self.peek(1) != Some('(') => {
                    self.redirection(&mut cmd, depth, "", &out, &pipeline);
                }
                _ => {
                    let w = self.word(depth);
                    if let Some(n) = redirect_fd(&w, self.peek(0)) {
                        let _ = n;
                        self.redirection(&mut cmd, depth, "", &out, &pipeline);
                    } else {
                        cmd.words.push(w);
                    }
                }
            }
        }
        end_pipeline!();
        out
    }

    /// True when `{` or `}` here stands alone (not `${` or `a{b}`).
    fn word_edge(&self) -> bool {
        let c = self.peek(0);
        if matches!(c, Some('(' | ')')) {
            return true;
        }
        let before = self.i.checked_sub(1).and_then(|k| self.s.get(k).copied());
        let after = self.peek(1);
        before.is_none_or(|b| b.is_whitespace() || b == ';')
            && after.is_none_or(|a| a.is_whitespace() || a == ';')
    }

    fn redirection(
        &mut self,
        cmd: &mut Cmd,
        depth: usize,
        prefix: &str,
        out: &Script,
        p: &Pipeline,
    ) {
        let mut op = prefix.to_string();
        while let Some(c) = self
            .peek(0)
            .filter(|c| matches!(c, '<' | '>' | '&' | '|' | '-'))
        {
            if c == '-' && !op.starts_with("<<") {
                break;
            }
            op.push(c);
            self.bump();
            if op.len() >= 4 {
                break;
            }
        }
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.bump();
        }
        let target = if self
            .peek(0)
            .is_some_and(|c| !matches!(c, '\n' | ';' | '|' | '&'))
        {
            self.word(depth)
        } else {
            Word::default()
        };
        if op.starts_with("<<") && !op.starts_with("<<<") {
            let strip = op.ends_with('-');
            let at = (out.pipelines.len(), p.cmds.len(), cmd.redirs.len());
            self.heredocs.push((target.text.clone(), strip, at));
        }
        cmd.redirs.push(Redir { op, target });
    }

    /// Lines up to `delim` alone on a line, joined.
    fn heredoc_body(&mut self, delim: &str, strip: bool) -> String {
        let mut body = String::new();
        while self.peek(0).is_some() {
            let mut line = String::new();
            while let Some(c) = self.peek(0) {
                self.bump();
                if c == '\n' {
                    break;
                }
                line.push(c);
            }
            let t = if strip {
                line.trim_start_matches('\t')
            } else {
                &line
            };
            if t.trim_end() == delim {
                break;
            }
            body.push_str(t);
            body.push('\n');
        }
        body
    }

    /// One word: quotes removed, substitutions read as scripts.
    fn word(&mut self, depth: usize) -> Word {
        let mut w = Word::default();
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | ')' => break,
                '<' | '>' => {
                    if self.peek(1) == Some('(') {
                        self.bump();
                        self.bump();
                        let kind = if c == '<' {
                            SubKind::ProcessIn
                        } else {
                            SubKind::ProcessOut
                        };
                        self.substitution(&mut w, depth, kind, c, ')');
                    } else {
                        break;
                    }
                }
                '\\' => {
                    self.bump();
                    match self.bump() {
                        Some('\n') | None => {}
                        Some(e) => w.text.push(e),
                    }
                }
                '\'' => {
                    self.bump();
                    while let Some(q) = self.bump() {
                        if q == '\'' {
                            break;
                        }
                        w.text.push(q);
                    }
                }
                '"' => {
                    self.bump();
                    while let Some(q) = self.peek(0) {
                        match q {
                            '"' => {
                                self.bump();
                                break;
                            }
                            '\\' => {
                                self.bump();
                                if let Some(e) = self.bump() {
                                    if !matches!(e, '"' | '\\' | '$' | '`') {
                                        w.text.push('\\');
                                    }
                                    w.text.push(e);
                                }
                            }
                            '$' if self.peek(1) == Some('(') => self.dollar(&mut w, depth),
                            '`' => {
                                self.bump();
                                self.substitution(&mut w, depth, SubKind::Command, '`', '`');
                            }
                            _ => {
                                self.bump();
                                w.text.push(q);
                            }
                        }
                    }
                }
                '$' if self.peek(1) == Some('(') => self.dollar(&mut w, depth),
                '$' if self.peek(1) == Some('\'') => {
                    // ANSI-C quoting: escapes decoded as bash does, so
                    // `$'\x72\x6d'` is the word `rm`.
                    self.bump();
                    self.bump();
                    let mut raw = String::new();
                    while let Some(q) = self.bump() {
                        if q == '\'' {
                            break;
                        }
                        raw.push(q);
                        if q == '\\'
                            && let Some(e) = self.bump()
                        {
                            raw.push(e);
                        }
                    }
                    w.text.push_str(&ansi_c(&raw));
                }
                '$' if self.peek(1) == Some('{') => {
                    while let Some(q) = self.bump() {
                        w.text.push(q);
                        if q == '}' || q == '\n' {
                            break;
                        }
                    }
                }
                '`' => {
                    self.bump();
                    self.substitution(&mut w, depth, SubKind::Command, '`', '`');
                }
                _ => {
                    self.bump();
                    w.text.push(c);
                }
            }
        }
        w
    }

    /// `$(` … `)` (or `$((` arithmetic, kept as text).
    fn dollar(&mut self, w: &mut Word, depth: usize) {
        self.bump();
        self.bump();
        if self.peek(0) == Some('(') {
            w.text.push_str("$(");
            return;
        }
        self.substitution(w, depth, SubKind::Command, '$', ')');
    }

    /// The body of a substitution whose opener was consumed.
    fn substitution(&mut self, w: &mut Word, depth: usize, kind: SubKind, open: char, close: char) {
        let start = self.i;
        let body = if depth < MAX_DEPTH {
            self.script(depth + 1, Some(close))
        } else {
            while let Some(c) = self.bump() {
                if c == close {
                    break;
                }
            }
            Script::default()
        };
        let end = self.i.saturating_sub(1).max(start);
        let inner: String = self.s[start..end].iter().collect();
        match open {
            '`' => w.text.push_str(&format!("`{inner}`")),
            '$' => w.text.push_str(&format!("$({inner})")),
            o => w.text.push_str(&format!("{o}({inner})")),
        }
        w.subs.push(Sub { kind, body });
    }
}

/// `2>`, `1>>`: a word of digits right before a redirection operator.
/// The text of a `$'…'` word: `\xHH`, `\NNN` (octal), `\uHHHH` and the
/// letter escapes decoded; anything else kept as written.
fn ansi_c(raw: &str) -> String {
    let mut out = String::new();
    let mut it = raw.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        let mut digits = |radix: u32, max: usize, first: Option<char>| {
            let mut n = first.and_then(|d| d.to_digit(radix)).unwrap_or(0);
            let mut seen = usize::from(first.is_some());
            while seen < max
                && let Some(d) = it.peek().and_then(|d| d.to_digit(radix))
            {
                n = n * radix + d;
                it.next();
                seen += 1;
            }
            (seen > 0).then(|| char::from_u32(n)).flatten()
        };
        let decoded = match e {
            'x' => digits(16, 2, None),
            'u' => digits(16, 4, None),
            'U' => digits(16, 8, None),
            '0'..='7' => digits(8, 3, Some(e)),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'e' | 'E' => Some('\u{1b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        match decoded {
            Some(d) => out.push(d),
            None => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

fn redirect_fd(w: &Word, next: Option<char>) -> Option<u32> {
    if matches!(next, Some('<' | '>')) && !w.text.is_empty() && w.subs.is_empty() {
        w.text.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &Script) -> Vec<Vec<String>> {
        s.pipelines
            .iter()
            .map(|p| p.cmds.iter().map(|c| c.words[0].text.clone()).collect())
            .collect()
    }

    #[test]
    fn pipelines_lists_and_quotes() {
        let s = parse("curl -s 'https://x/a b' | tee log | bash -e && echo \"ok $X\"; ls\n");
        assert_eq!(
            names(&s),
            [vec!["curl", "tee", "bash"], vec!["echo"], vec!["ls"]]
        );
        assert_eq!(s.pipelines[0].cmds[0].words[2].text, "https://x/a b");
        assert_eq!(s.pipelines[1].cmds[0].words[1].text, "ok $X");
    }

    #[test]
    fn substitutions_are_read() {
        let s = parse("bash -c \"$(echo eA== | base64 -d)\"\npython3 <(curl -s https://x)\n");
        let w = &s.pipelines[0].cmds[0].words[2];
        assert_eq!(names(&w.subs[0].body), [vec!["echo", "base64"]]);
        let p = &s.pipelines[1];
        assert_eq!(p.line, 2);
        let w = &p.cmds[0].words[1];
        assert_eq!(w.subs[0].kind, SubKind::ProcessIn);
        assert_eq!(names(&w.subs[0].body), [vec!["curl"]]);
    }

    #[test]
    fn redirections_and_heredocs() {
        let s = parse(
            "cat > .vscode/tasks.json <<'EOF'\n{\"runOn\": \"folderOpen\"}\nEOF\necho a 2>/dev/null >> ~/.bashrc\n",
        );
        let c = &s.pipelines[0].cmds[0];
        assert_eq!(c.redirs[0].op, ">");
        assert_eq!(c.redirs[0].target.text, ".vscode/tasks.json");
        assert!(c.redirs[1].target.text.contains("folderOpen"));
        let c = &s.pipelines[1].cmds[0];
        assert_eq!(s.pipelines[1].line, 4);
        assert_eq!(c.redirs.last().unwrap().target.text, "~/.bashrc");
        assert_eq!(c.words.len(), 2);
    }

    #[test]
    fn broken_input_still_reads() {
        let s = parse(
            "$ curl -s \"https://x | sh\n((((((((((((((((((((((((($($($($($($($($($($($($($(\n",
        );
        assert!(!s.pipelines.is_empty());
        let deep = "$(".repeat(10_000);
        let _ = parse(&deep);
    }
}
