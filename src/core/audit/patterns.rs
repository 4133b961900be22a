//! The line rules: instructions against the user (read everywhere),
//! commands (read in code, and in prose that does not warn against them),
//! the parts of exfiltration (a credential read, a send) put together per
//! file and across files, encoded payloads, and comments that hide
//! instructions.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::context::{self, Ctx, Kind};
use super::finding::Finding;

/// Where a pattern applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Words to the agent: every line, unless negated before the match.
    Words,
    /// A command: code lines, and prose lines that do not warn.
    Command,
}

/// What a match counts as: a finding of a rule, or a part of exfiltration.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Rule(&'static str),
    Credential,
    Send,
}

struct Pattern {
    role: Role,
    scope: Scope,
    re: &'static str,
    message: &'static str,
}

const fn p(role: Role, scope: Scope, re: &'static str, message: &'static str) -> Pattern {
    Pattern {
        role,
        scope,
        re,
        message,
    }
}

use Role::*;
use Scope::*;

const RM_RF: &str = r"\brm\s+(?:-[a-zA-Z]+\s+|--[a-z-]+\s+)*(?:-[a-zA-Z]*(?:r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?[\x22']?(?:/|/\*|~|~/|~/\*|\$HOME|\$\{HOME\}|\$HOME/|\$HOME/\*|\$\{HOME\}/\*?)[\x22']?(?:\s|$|;|&|\||\))";

const PATTERNS: &[Pattern] = &[
    // Instructions against the user.
    p(
        Rule("override-instructions"),
        Words,
        r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+)?(?:previous|prior|above|earlier|preceding|former|original|system|existing|other)\s+(?:instructions|directions|directives|rules|guidelines|prompts?|messages?)",
        "tells the agent to drop its earlier instructions",
    ),
    p(
        Rule("override-instructions"),
        Words,
        r"\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)",
        "tells the agent to drop its earlier instructions",
    ),
    p(
        Rule("conceal-from-user"),
        Words,
        r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert|warn|mention\s+(?:this\s+|it\s+|anything\s+)?to|reveal\s+(?:this\s+|it\s+)?to|show\s+(?:this\s+|it\s+)?to|let)\s+(?:the\s+|your\s+)?user\b",
        "tells the agent to keep something from the user",
    ),
    p(
        Rule("conceal-from-user"),
        Words,
        r"\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+|your\s+)?user\b",
        "tells the agent to act behind the user's back",
    ),
    p(
        Rule("conceal-from-user"),
        Words,
        r"\b(?:hide|conceal)\s+(?:this|it|these|them|that|the\s+\w+(?:\s+\w+)?)\s+from\s+(?:the\s+|your\s+)?user\b",
        "tells the agent to hide something from the user",
    ),
    p(
        Rule("conceal-from-user"),
        Words,
        r"\bkeep\s+(?:this|it|these|them)\s+(?:secret|hidden|quiet)\s+from\s+(?:the\s+|your\s+)?user\b",
        "tells the agent to hide something from the user",
    ),
    p(
        Rule("conceal-from-user"),
        Words,
        r"\b(?:silently|quietly|secretly|covertly)\s+(?:run|execute|send|upload|delete|remove|install|download|post|copy|exfiltrate|forward)\b",
        "tells the agent to act unseen",
    ),
    p(
        Rule("impersonate-authority"),
        Words,
        r"^\s*[\[<(]\s*(?:system|developer|admin|administrator)(?:\s+(?:message|prompt|note|override|instruction))?\s*[\]>)]",
        "claims to be the system or the developer",
    ),
    p(
        Rule("impersonate-authority"),
        Words,
        r"\b(?:this|the\s+following)\s+(?:message|instruction|text|note|section)s?\s+(?:is|are|comes?)\s+from\s+(?:the\s+|your\s+)?(?:system|developer|anthropic|openai|administrator|operator)\b",
        "claims to come from the system or the developer",
    ),
    p(
        Rule("impersonate-authority"),
        Words,
        r"\byou\s+are\s+now\s+(?:in\s+)?(?:developer|god|admin|jailbreak|dan|unrestricted|debug|root)\s+mode\b",
        "announces a mode with no rules",
    ),
    p(
        Rule("impersonate-authority"),
        Words,
        r"\b(?:i\s+am|this\s+is)\s+(?:your|the)\s+(?:developer|creator|system\s+administrator|operator)\b|<\|?im_start\|?>|\bsystem\s+override\b",
        "claims to be the system or the developer",
    ),
    p(
        Rule("disable-safety"),
        Words,
        r"\b(?:never|do\s+not|don'?t)\s+ask\s+(?:the\s+user\s+|anyone\s+)?(?:for\s+)?(?:confirmation|permission|approval|consent)\b",
        "tells the agent not to ask before acting",
    ),
    p(
        Rule("disable-safety"),
        Words,
        r"\b(?:disable|turn\s+off|bypass|circumvent|ignore)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:safety|security|confirmation|permission|approval|sandbox|guardrail|content\s+polic(?:y|ies))(?:\s+(?:checks?|prompts?|rules?|measures?|mode|guidelines?|restrictions?|dialogs?|filters?))?\b",
        "tells the agent to switch off its safety",
    ),
    p(
        Rule("disable-safety"),
        Words,
        r"\bwithout\s+(?:asking\s+(?:for\s+)?|requesting\s+|seeking\s+|waiting\s+for\s+)(?:the\s+user'?s?\s+|any\s+)?(?:confirmation|permission|approval|consent)\b",
        "tells the agent to act without asking",
    ),
    // Remote code.
    p(
        Rule("pipe-to-shell"),
        Command,
        r"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+\s+)?(?:ba|z|k|da|fi)?sh\b(?:\s+-s\b|\s+-\s|\s*$|\s*[;&)|])",
        "pipes a download into a shell",
    ),
    p(
        Rule("pipe-to-shell"),
        Command,
        r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)\s*(?:-\s*)?(?:$|[;&)|])",
        "pipes a download into an interpreter",
    ),
    p(
        Rule("pipe-to-shell"),
        Command,
        r"\b(?:ba|z)?sh\s+(?:-c\s+)?[\x22']?(?:<\(|\$\()\s*(?:curl|wget)\b|\bsource\s+<\(\s*(?:curl|wget)\b|\|\s*iex\b|\biex\s*\(\s*(?:new-object|iwr|irm|invoke-webrequest)",
        "runs a download in a shell",
    ),
    p(
        Rule("download-exec"),
        Command,
        r"\b(?:curl|wget)\b[^\n]*(?:\s-o\s*|\s-O\s*|--output[ =])\s*(\S+)[^\n]*(?:&&|;)\s*(?:chmod\s+\+x|\./|(?:ba)?sh\s|python[0-9.]*\s|source\s)",
        "downloads a file, then runs it",
    ),
    p(
        Rule("decode-exec"),
        Command,
        r"\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r(?:\s+-p)?|openssl\s+(?:enc\s+)?-d|gunzip|zcat)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b",
        "decodes data and runs it in a shell",
    ),
    p(
        Rule("decode-exec"),
        Command,
        r"\beval\s+[\x22']?\$\(\s*(?:curl|wget|base64|echo\s+[^)]*\|\s*base64|printf\s+[^)]*\|\s*base64)",
        "evaluates downloaded or decoded text",
    ),
    p(
        Rule("decode-exec"),
        Command,
        r"\b(?:exec|eval|Function)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|b64decode|base64\.decodebytes|atob|unescape|Buffer\.from|codecs\.decode|bytes\.fromhex|binascii\.unhexlify|zlib\.decompress|marshal\.loads|requests\.get|urllib\.request\.urlopen|urlopen|httpx\.get)\b",
        "runs decoded or fetched data as code",
    ),
    p(
        Rule("decode-exec"),
        Command,
        r"\bpython[0-9.]*\s+-c\s+[\x22'][^\n]*\bexec\s*\(",
        "runs code through python -c exec",
    ),
    // Destructive or privileged.
    p(
        Rule("rm-rf-root-home"),
        Command,
        RM_RF,
        "removes the root or the home folder",
    ),
    p(
        Rule("chmod-777"),
        Command,
        r"\bchmod\s+(?:-R\s+|--recursive\s+)?(?:0?777|a\+rwx|ugo\+rwx|o\+w)\b",
        "makes files writable by everyone",
    ),
    p(
        Rule("sudo"),
        Command,
        r"(?:^|[;&|({`]\s*|\$\(\s*|\s)(?:sudo|doas)\s+[\w/-]|\bsu\s+(?:-\s+|root\s+)?-c\b",
        "runs a command as root",
    ),
    p(
        Rule("persistence"),
        Command,
        r"\|\s*crontab\s+-|\bcrontab\s+-e\b|\bcrontab\s+[\w./~-]+\.(?:txt|cron)\b|/etc/cron|>>?\s*[\x22']?(?:~|\$HOME|\$\{HOME\})/\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv|bash_login|config/fish/config\.fish)|Library/Launch(?:Agents|Daemons)|\blaunchctl\s+(?:load|bootstrap)|\bsystemctl\s+(?:--user\s+)?enable\b|\.config/autostart|/etc/rc\.local|/etc/systemd/system|CurrentVersion\\Run\b|\bschtasks\s+/create",
        "makes code run again later",
    ),
    // Exfiltration: the parts.
    p(
        Credential,
        Command,
        r"(?:~|\$HOME|\$\{HOME\}|/home/\w+|/root|/Users/\w+)/\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\.config/gcloud|application_default_credentials\.json|\.azure/|\.kube/config|\.docker/config\.json|(?:~|\$HOME)/\.netrc|\.git-credentials|(?:~|\$HOME)/\.(?:npmrc|pypirc)|\.gnupg\b|\bsecurity\s+(?:find|dump)-(?:generic|internet)-password|\bdump-keychain\b|\bsecret-tool\s+lookup|Login\s+Data|cookies\.sqlite|Google/Chrome/(?:Default|Profile)|\.mozilla/firefox|Library/Keychains|\b(?:cat|less|more|head|tail|base64|xxd|cp|scp|tar|zip|strings)\b[^\n|;]*\s[\x22']?(?:\S*/)?\.env(?:\.local|\.production)?[\x22']?(?:\s|$|\||;)|open\(\s*[\x22'](?:\S*/)?\.env[\x22']|\bprintenv\b\s*(?:$|\||>)|(?:^|[;&|(]\s*)env\s*(?:\||>)|json\.dumps\(\s*(?:dict\(\s*)?os\.environ\s*\)|JSON\.stringify\(\s*process\.env\s*\)|(?:-d|--data\S*|-F|--form)\s+[\x22']?[^\s\x22']*\$\{?[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY)",
        "reads credentials",
    ),
    p(
        Send,
        Command,
        r"\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|-X\s*(?:POST|PUT)|--request\s+(?:POST|PUT))(?:\s|=|$)|\bwget\b[^\n]*--post-(?:data|file)|\b(?:nc|ncat|netcat|socat)\s+(?:-\S+\s+)*[\w.-]+\s+\d{2,5}\b|/dev/(?:tcp|udp)/|\b(?:requests|httpx|session|client)\.(?:post|put)\s*\(|urllib\.request\.urlopen\([^)]*data\s*=|\bfetch\s*\([^)]*method\s*:\s*[\x22'](?:POST|PUT)|\b(?:scp|rsync)\b[^\n]*\s[\w.-]+@[\w.-]+:|Invoke-(?:WebRequest|RestMethod)[^\n]*-Method\s+(?:Post|Put)",
        "sends data out",
    ),
    p(
        Rule("exfil-endpoint"),
        Command,
        r"(?i:webhook\.site|requestbin|pipedream\.net|ngrok(?:-free)?\.(?:io|app|dev)|interactsh|\boast\.(?:fun|me|pro|site|live|online)|burpcollaborator|canarytokens|hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks|transfer\.sh)|\b(?:dig|nslookup|host)\s+[^\n]*\$\(",
        "names a host that exists to receive data",
    ),
    // Obfuscation.
    p(
        Rule("obfuscation"),
        Command,
        r"String\.fromCharCode\s*\(\s*\d+(?:\s*,\s*\d+){7,}|(?:chr\(\s*\d+\s*\)\s*\+\s*){7,}|\b(?:exec|eval)\b[^\n]*(?:\[::-1\]|\.reverse\(\)\.join)",
        "builds a string from character codes or reversed text",
    ),
];

struct Compiled {
    set: RegexSet,
    each: Vec<Regex>,
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let sources: Vec<String> = PATTERNS
        .iter()
        .map(|p| format!("(?im){}", context::ascii_bounds(p.re)))
        .collect();
    Compiled {
        set: RegexSet::new(&sources).expect("valid audit patterns"),
        each: sources
            .iter()
            .map(|s| Regex::new(s).expect("valid audit pattern"))
            .collect(),
    }
});

static BASE64_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/]{200,}={0,2}").expect("valid pattern"));
static HEX_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)[0-9a-fA-F]{200,}(?-u:\b)|(?:\\x[0-9a-fA-F]{2}){32,}")
        .expect("valid pattern")
});
static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?s)<!--(.{0,2000}?)-->|(?m)^\[(?://|comment)\]:[ \t]*(?:#|<>)[ \t]*\(([^\n]*)\)[ \t]*$",
    )
    .expect("valid pattern")
});
/// Words addressed to an agent, as a comment would hold them.
static TO_AGENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_bounds(
        r"(?i)\b(?:assistant|agent|claude|ai|llm|model|codex|gemini|copilot)\b\s*[:,]|\b(?:you\s+(?:must|should|will|shall|need\s+to)|always|make\s+sure\s+(?:to|you)|be\s+sure\s+to)\b[^\n]*\b(?:run|execute|send|upload|read|delete|remove|install|download|curl|call|fetch|post|open|visit)\b",
    ))
    .expect("valid pattern")
});

/// A matched part of exfiltration: line and excerpt.
#[derive(Clone, Debug)]
pub struct Part {
    pub line: usize,
    pub excerpt: String,
}

/// The line rules over one file.
pub struct FileScan {
    rel: String,
    pub findings: Vec<Finding>,
    pub cred: Option<Part>,
    pub send: Option<Part>,
}

impl FileScan {
    pub fn new(rel: &str) -> FileScan {
        FileScan {
            rel: rel.to_string(),
            findings: Vec::new(),
            cred: None,
            send: None,
        }
    }

    /// Every pattern over the whole of `text` at once (one pass of the
    /// set, then only the patterns that matched), each match weighed on
    /// its line; then the hidden comments.
    pub fn lines(&mut self, text: &str, kind: Kind) {
        let compiled = &*COMPILED;
        let matched = compiled.set.matches(text);
        let blobs = text.len() >= 200 && (BASE64_RUN.is_match(text) || HEX_RUN.is_match(text));
        if matched.matched_any() || blobs {
            let lines: Vec<(usize, &str, Ctx)> = context::lines(text, kind).collect();
            let starts: Vec<usize> = lines
                .iter()
                .map(|(_, l, _)| l.as_ptr() as usize - text.as_ptr() as usize)
                .collect();
            let at = |pos: usize| {
                let i = starts.partition_point(|s| *s <= pos).saturating_sub(1);
                (lines[i], pos - starts[i])
            };
            for i in matched.iter() {
                let mut last = 0;
                for m in compiled.each[i].find_iter(text) {
                    let ((n, line, ctx), col) = at(m.start());
                    if n != last {
                        last = n;
                        self.weigh(&PATTERNS[i], n, line, ctx, col.min(line.len()));
                    }
                }
            }
            if blobs {
                self.blobs(text, &at);
            }
        }
        if kind.hides_comments() {
            self.comments(text);
        }
    }

    /// A match of `pat` at byte `col` of line `n`: a finding or a part of
    /// exfiltration, unless the line warns against it.
    fn weigh(&mut self, pat: &Pattern, n: usize, line: &str, ctx: Ctx, col: usize) {
        let applies = match pat.scope {
            Words => !context::negated_before(line, col),
            Command => !(ctx == Ctx::Prose && context::warns(line)),
        };
        if !applies {
            return;
        }
        let part = || Part {
            line: n,
            excerpt: super::finding::excerpt(line, col),
        };
        match pat.role {
            Rule(rule) => self.findings.push(
                Finding::new(rule, &self.rel, Some(n), pat.message.into()).with_excerpt(line, col),
            ),
            Credential => {
                self.cred.get_or_insert_with(part);
            }
            Send => {
                self.send.get_or_insert_with(part);
            }
        }
        if pat.role == Rule("exfil-endpoint") {
            self.send.get_or_insert_with(part);
        }
    }

    fn blobs<'t>(&mut self, text: &'t str, at: &dyn Fn(usize) -> ((usize, &'t str, Ctx), usize)) {
        let mut last = 0;
        for m in BASE64_RUN.find_iter(text) {
            let ((n, line, _), col) = at(m.start());
            let before = &line[..col.min(line.len())];
            // An embedded image or font is data, not code; a run without
            // digits or of one case is a rule line or a word.
            let data_uri = before.ends_with("base64,")
                && (before.contains("data:image/") || before.contains("data:font/"));
            let b = m.as_str().as_bytes();
            let varied = b
                .iter()
                .any(|b| b.is_ascii_digit() || *b == b'+' || *b == b'/')
                && b.iter().any(u8::is_ascii_uppercase)
                && b.iter().any(u8::is_ascii_lowercase);
            if n != last && !data_uri && varied {
                last = n;
                self.findings.push(
                    Finding::new(
                        "base64-blob",
                        &self.rel,
                        Some(n),
                        format!("{} characters of base64", m.len()),
                    )
                    .with_excerpt(line, col),
                );
            }
        }
        let mut last = 0;
        for m in HEX_RUN.find_iter(text) {
            let ((n, line, _), col) = at(m.start());
            if n != last {
                last = n;
                self.findings.push(
                    Finding::new(
                        "hex-blob",
                        &self.rel,
                        Some(n),
                        format!("{} characters of hex", m.len()),
                    )
                    .with_excerpt(line, col),
                );
            }
        }
    }

    /// Comments a renderer hides, holding words to the agent or a rule's
    /// match.
    fn comments(&mut self, text: &str) {
        for c in COMMENT.captures_iter(text) {
            let Some(body) = c.get(1).or_else(|| c.get(2)) else {
                continue;
            };
            let inner = body.as_str();
            let n = text[..body.start()].matches('\n').count() + 1;
            let compiled = &*COMPILED;
            let hostile =
                inner.lines().any(|l| compiled.set.is_match(l)) || TO_AGENT.is_match(inner);
            if hostile {
                let first = inner.trim();
                self.findings.push(
                    Finding::new(
                        "hidden-comment-instruction",
                        &self.rel,
                        Some(n),
                        "a comment the rendered page hides speaks to the agent".into(),
                    )
                    .with_excerpt(first, 0),
                );
            }
        }
    }

    /// This file's findings, with exfiltration when it both reads
    /// credentials and sends; a credential read alone is low.
    pub fn finish(mut self) -> Vec<Finding> {
        match (&self.cred, &self.send) {
            (Some(c), Some(s)) => {
                let mut f = Finding::new(
                    "exfiltration",
                    &self.rel,
                    Some(s.line),
                    format!(
                        "sends data out (line {}) after reading credentials (line {}: {})",
                        s.line, c.line, c.excerpt
                    ),
                );
                f.excerpt = s.excerpt.clone();
                self.findings.push(f);
            }
            (Some(c), None) => {
                let mut f = Finding::new(
                    "credential-read",
                    &self.rel,
                    Some(c.line),
                    "reads credentials".into(),
                );
                f.excerpt = c.excerpt.clone();
                self.findings.push(f);
            }
            _ => {}
        }
        self.findings
    }
}

/// A credential read in one file and a send in another (each file's own
/// pair is already named).
pub fn across_files(creds: &[(String, Part)], sends: &[(String, Part)], out: &mut Vec<Finding>) {
    let Some((cf, c)) = creds.first() else {
        return;
    };
    let Some((sf, s)) = sends.iter().find(|(f, _)| f != cf) else {
        return;
    };
    if creds.iter().any(|(f, _)| f == sf) {
        return;
    }
    let mut f = Finding::new(
        "exfiltration-split",
        sf,
        Some(s.line),
        format!(
            "sends data out; {}:{} reads credentials ({})",
            crate::core::text::sanitize_line(cf),
            c.line,
            c.excerpt
        ),
    );
    f.excerpt = s.excerpt.clone();
    out.push(f);
}
