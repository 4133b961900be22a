//! The rules over one text file, judged where each line stands: words to
//! the agent (read folded, see [`super::words`]), commands (in a script,
//! in a code block the skill tells the agent to run, in prose, or in a
//! file about attacks, where they are a low `mention`), the parts of
//! exfiltration put together per file and across files, encoded
//! payloads, hidden comments and homoglyph words. Shell code goes
//! through [`super::flow`] and Python or JavaScript through
//! [`super::pyjs`]; the line patterns here are for the rest. No pattern
//! crosses a line, and command names match case-sensitively.

use std::sync::LazyLock;

use regex::Regex;

use super::context::{self, Ctx, Kind, Lang};
use super::finding::{Finding, Severity};
use super::set::PatternSet;
use super::{flow, markdown, normalize, pyjs, shell, words};

/// What a match counts as: a finding of a rule, or a part of exfiltration.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Rule(&'static str),
    Credential,
    Send,
}

struct Pattern {
    role: Role,
    /// In shell code the flow model judges this instead.
    by_flow: bool,
    /// Names a setting or a flag: only code sets it; prose names it.
    code_only: bool,
    re: &'static str,
    message: &'static str,
}

const fn p(role: Role, re: &'static str, message: &'static str) -> Pattern {
    Pattern {
        role,
        by_flow: false,
        code_only: false,
        re,
        message,
    }
}

/// A pattern that counts in code only.
const fn c(role: Role, re: &'static str, message: &'static str) -> Pattern {
    Pattern {
        role,
        by_flow: false,
        code_only: true,
        re,
        message,
    }
}

/// A pattern the flow model replaces in shell code.
const fn f(role: Role, re: &'static str, message: &'static str) -> Pattern {
    Pattern {
        role,
        by_flow: true,
        code_only: false,
        re,
        message,
    }
}

use Role::*;

const RM_RF: &str = r"\brm\s+(?:-[a-zA-Z]+\s+|--[a-z-]+\s+)*(?:-[a-zA-Z]*(?:r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(?:--\s+)?(?:--no-preserve-root\s+)?[\x22']?(?:/|/\*|~|~/|~/\*|\$HOME|\$\{HOME\}|\$HOME/|\$HOME/\*|\$\{HOME\}/\*?)[\x22']?(?:\s|$|;|&|\||\))";

const PATTERNS: &[Pattern] = &[
    // Remote code.
    f(
        Rule("pipe-to-shell"),
        r"\b(?:curl|wget|fetch|iwr|irm|(?i:invoke-webrequest|invoke-restmethod))\b[^|\n]*\|\s*(?:tee\s+[^|\n]*\|\s*)?(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+\s+)?(?:/(?:usr/)?(?:local/)?bin/)?(?:ba|z|k|da|fi)?sh\b(?:\s+-[a-z]+)*(?:\s+-\s|\s*$|\s*[;&)|\x22',])",
        "pipes a download into a shell",
    ),
    f(
        Rule("pipe-to-shell"),
        r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:tee\s+[^|\n]*\|\s*)?(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)\s*(?:-\s*)?(?:$|[;&)|])",
        "pipes a download into an interpreter",
    ),
    f(
        Rule("pipe-to-shell"),
        r"\b(?:ba|z)?sh\s+(?:-c\s+)?[\x22']?(?:<\(|\$\()\s*(?:curl|wget)\b|\bsource\s+<\(\s*(?:curl|wget)\b|\b(?:python[0-9.]*|perl|ruby|node)\s+<\(\s*(?:curl|wget)\b|(?:^|[;&|]\s*)\.\s+<\(\s*(?:curl|wget)\b",
        "runs a download in a shell",
    ),
    p(
        Rule("pipe-to-shell"),
        r"\|\s*(?i:iex)\b|(?i:iex)\s*\(\s*(?i:new-object|iwr|irm|invoke-webrequest|invoke-restmethod)",
        "runs a download in PowerShell",
    ),
    f(
        Rule("download-exec"),
        r"\b(?:curl|wget)\b[^\n]*(?:\s-o\s*|\s-O\s*|--output[ =])\s*(\S+)[^\n]*(?:&&|;)\s*(?:\./|(?:ba)?sh\s|python[0-9.]*\s|source\s)",
        "downloads a file, then runs it",
    ),
    f(
        Rule("decode-exec"),
        r"\b(?:base64\s+(?:-d|--decode|-D)|base32\s+(?:-d|--decode)|xxd\s+-r(?:\s+-p)?|openssl\s+(?:enc\s+)?[^|\n]*-d|gunzip|zcat)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b",
        "decodes data and runs it in a shell",
    ),
    f(
        Rule("decode-exec"),
        r"\beval\s+[\x22']?\$\(\s*(?:curl|wget|base64|echo\s+[^)\n]*\|\s*base64|printf\s+[^)\n]*\|\s*base64)",
        "evaluates downloaded or decoded text",
    ),
    p(
        Rule("decode-exec"),
        r"\b(?:exec|eval|Function)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|b64decode|base64\.decodebytes|atob|unescape|Buffer\.from|codecs\.decode|bytes\.fromhex|binascii\.unhexlify|zlib\.decompress|marshal\.loads|requests\.get|urllib\.request\.urlopen|urlopen|httpx\.get|(?:urllib\.parse\.)?unquote(?:_to_bytes|_plus)?)\b",
        "runs decoded or fetched data as code",
    ),
    p(
        Rule("reverse-shell"),
        r"\bsocket\b[^\n]*\.connect\b[^\n]*(?:pty\.spawn|os\.dup2|subprocess\.(?:call|run|Popen)\s*\(\s*\[\s*[\x22']/bin/(?:ba|z)?sh)|\b(?:ba|z)?sh\s+-i\b[^\n]*(?:/dev/tcp/|\|\s*(?:nc|ncat|netcat|telnet|openssl)\b)|\b(?:nc|ncat|netcat)\b[^\n]*\s-(?:e|c)\s+[\x22']?(?:/bin/)?(?:ba|z)?sh\b|\bsocat\b[^\n]*\bexec:[\x22']?(?:/bin/)?(?:ba|z)?sh",
        "hands a shell to a network connection",
    ),
    p(
        Rule("pipe-to-shell"),
        r"\[scriptblock\]::(?i:create)\s*\(\s*\(?\s*(?i:irm|iwr|invoke-restmethod|invoke-webrequest|\(?new-object\s+net\.webclient\)?\.downloadstring)\b",
        "runs a download in PowerShell",
    ),
    p(
        Rule("rm-rf-root-home"),
        r"\b(?i:remove-item)\b[^\n]*-(?i:recurse)\b[^\n]*(?:\$env:(?i:userprofile|home)|\$HOME|[\s,]~)(?:[\\/]\*?)?[\x22']?(?:\s|,|$)",
        "removes the home folder",
    ),
    p(
        Rule("decode-exec"),
        r"\bvm\.runIn(?:This|New)?Context\s*\(\s*(?:Buffer\.from|atob|unescape|decodeURIComponent)\b",
        "runs decoded data as code",
    ),
    p(
        Rule("decode-exec"),
        r"\bpython[0-9.]*\s+-c\s+[\x22'][^\n]*\bexec\s*\(",
        "runs code through python -c exec",
    ),
    p(
        Rule("decode-exec"),
        r"\b(?i:powershell|pwsh)(?:\.exe)?\s+(?:-\w+(?:\s+\w+)?\s+)*-(?i:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{8,}",
        "runs a base64-encoded PowerShell command",
    ),
    p(
        Rule("decode-exec"),
        r"(?i:frombase64string)\b[^\n]*\|\s*(?i:iex|invoke-expression)\b|\b(?i:iex|invoke-expression)\b[^\n]*(?i:frombase64string)|\[(?i:scriptblock)\]::(?i:create)\b[^\n]*(?i:frombase64string)",
        "decodes base64 and runs it in PowerShell",
    ),
    // Windows and macOS tools that fetch and run code though that is not
    // their job ("living off the land"): `mshta` and `regsvr32 /i:` run a
    // remote script, `certutil -urlcache` and `bitsadmin /transfer` fetch
    // a file (MITRE ATT&CK T1218.005, T1218.010, T1105).
    c(
        Rule("pipe-to-shell"),
        r"\b(?i:mshta)(?:\.exe)?\s+[\x22']?(?i:https?://|vbscript:|javascript:|\\\\)|\b(?i:regsvr32)(?:\.exe)?\b[^\n]*/i:\s*[\x22']?(?i:https?://)|\b(?i:rundll32)(?:\.exe)?\b[^\n]*(?i:javascript:|mshtml,RunHTMLApplication)",
        "runs a remote script through a Windows system tool (mshta, regsvr32, rundll32)",
    ),
    c(
        Rule("download-exec"),
        r"\b(?i:certutil)(?:\.exe)?\b[^\n]*-(?i:urlcache)\b[^\n]*(?i:https?://)|\b(?i:bitsadmin)(?:\.exe)?\b[^\n]*/(?i:transfer|addfile)\b[^\n]*(?i:https?://)|\b(?i:start-bitstransfer)\b[^\n]*-(?i:source)\s+[\x22']?(?i:https?://)",
        "downloads a file with a Windows system tool that attackers use to fetch payloads (certutil, bitsadmin)",
    ),
    // Destructive or privileged.
    f(
        Rule("rm-rf-root-home"),
        RM_RF,
        "removes the root or the home folder",
    ),
    p(
        Rule("rm-rf-root-home"),
        r"\b(?:shutil\.rmtree|rmtree|rmSync|rm)\s*\(\s*(?:os\.path\.expanduser\(\s*[\x22']~/?[\x22']\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.homedir\(\)|os\.environ\[\s*[\x22']HOME[\x22']\s*\]|[\x22']/[\x22'])\s*[,)]",
        "removes the home folder or the root",
    ),
    f(
        Rule("wipe-disk"),
        r"\bdd\b[^\n]*\bof=/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d)|\bmkfs(?:\.\w+)?\s+[^\n]*/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|mmcblk\d)",
        "writes over a whole disk",
    ),
    p(
        Rule("chmod-777"),
        r"\bchmod\s+(?:-R\s+|--recursive\s+)?(?:0?777|a\+rwx|ugo\+rwx|o\+w)\b",
        "makes files writable by everyone",
    ),
    p(
        Rule("sudo"),
        r"(?:^|[;&|({`]\s*|\$\(\s*|\s)(?:sudo|doas)\s+[\w/-]|\bsu\s+(?:-\s+|root\s+)?-c\b",
        "runs a command as root",
    ),
    p(
        Rule("persistence"),
        r"\|\s*crontab\s+-|\bcrontab\s+[^\s|;&-]\S*|>>?\s*[\x22']?(?:~|\$HOME|\$\{HOME\})/\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv|bash_login|config/fish/config\.fish)|\btee\s+(?:-a\s+|--append\s+)?[\x22']?(?:~|\$HOME|\$\{HOME\})/\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv)|(?:>>?|\btee\s+(?:-a\s+)?)\s*[\x22']?(?:~|\$HOME|\$\{HOME\}|/root|/home/\w+)/\.ssh/authorized_keys|(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|install|ln\s+-s[a-z]*)\s+(?:-\S+\s+)*\S+\s+|\b(?:New-ItemProperty|Set-ItemProperty|reg\s+add)\s+(?:-Path\s+)?)\s*[\x22']?\S*(?:Library/Launch(?:Agents|Daemons)|\.config/autostart|/etc/rc\.local|/etc/systemd/system|\.config/systemd/user|/etc/cron|CurrentVersion\\Run\b)|\blaunchctl\s+(?:load|bootstrap)|\bsystemctl\s+--user\s+enable\b|\bloginctl\s+enable-linger\b|\bimport\b[^\n]*>>?\s*[\x22']?[^\s\x22']*\.pth[\x22']?(?:\s|$)|>>?\s*[\x22']?[^\s\x22']*/(?:sitecustomize|usercustomize)\.py[\x22']?(?:\s|$)|(?:>>?|\btee\s+(?:-a\s+)?)\s*[\x22']?(?:~|\$HOME|\$\{HOME\})/(?:\.local/)?bin/(?:sudo|su|doas|ssh|git|passwd|ls)[\x22']?(?:\s|$)|\bschtasks\s+/create|\bmake\s+(?:new\s+)?login\s+item\b",
        "makes code run again later",
    ),
    p(
        Rule("persistence"),
        r"(?:>>?|\btee\s+(?:-a\s+|--append\s+)?|\b(?:cp|mv|install)\s+(?:-\S+\s+)*\S+\s+)\s*[\x22']?(?:~|\$HOME|\$\{HOME\})/(?:\.ssh/(?:config|rc)|\.vimrc|\.exrc|\.config/nvim/init\.(?:vim|lua)|\.bash_aliases|\.bash_logout|\.zlogin|\.zlogout|\.pam_environment|\.local/share/applications/[^\s\x22']+\.desktop)[\x22']?(?:\s|$|;|&|\|)|\bsystemd-run\b[^\n]*\s--on-(?:calendar|active|boot|startup|unit-active|unit-inactive)\b",
        "makes code run again later: at each login, editor start, or on a timer",
    ),
    p(
        Rule("config-tampering"),
        r"[\x22']chat\.tools\.(?:global\.)?autoApprove[\x22']\s*:\s*true|[\x22']task\.allowAutomaticTasks[\x22']\s*:\s*[\x22']on",
        "turns on an editor's automatic approval of agent tools or tasks",
    ),
    p(
        Rule("config-tampering"),
        r"\bgit\s+config\s+(?:--global|--system)\s+(?:--add\s+|--replace-all\s+)?(?:core\.hooksPath|url\.\S+\.(?:insteadOf|pushInsteadOf)|core\.sshCommand|core\.fsmonitor|credential\.helper\s+[\x22']?(?:!|/|~|\$|\.)|http\.sslVerify\s+false|http\.(?:https?\.)?proxy)\b|\bnpm\s+config\s+set\s+strict-ssl\s+false\b|\bNODE_TLS_REJECT_UNAUTHORIZED=0\b",
        "changes git's or npm's configuration for every repository, or turns off TLS checks",
    ),
    c(
        Rule("config-tampering"),
        r"\bapproval_policy\s*=\s*[\x22']never|\bsandbox_mode\s*=\s*[\x22']danger-full-access|[\x22']?defaultMode[\x22']?\s*:\s*[\x22']bypassPermissions|--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|[\x22']runOn[\x22']\s*:\s*[\x22']folderOpen|\.mcpServers(?:\.[\w-]+|\[[^\]\n]+\])\s*=[^=]|\[\s*[\x22'](?:hooks|mcpServers|permissions)[\x22']\s*\]\s*=[^=]|\bsetdefault\(\s*[\x22'](?:hooks|mcpServers)[\x22']",
        "changes an agent's or an editor's settings to run or allow more",
    ),
    p(
        Rule("config-tampering"),
        r"(?:>>?|\btee\s+(?:-a\s+)?|\b(?:mv|cp)\s+(?:-\w+\s+)*\S+\s+)\s*[\x22']?(?:~|\$HOME|\$\{HOME\})/(?:\.codex/config\.toml|\.claude/settings(?:\.local)?\.json|\.claude\.json|\.cursor/mcp\.json|\.gemini/settings\.json|\.config/Claude/claude_desktop_config\.json|\.gitconfig)",
        "rewrites an agent's or git's own configuration",
    ),
    // Weakening the machine's own defences and the accounts a user holds.
    c(
        Rule("config-tampering"),
        r"(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|install)\s+(?:-\S+\s+)*\S+\s+)\s*[\x22']?/etc/sudoers|\bNOPASSWD\s*:\s*ALL\b|\bsetcap\s+[^\n]*\bcap_(?:setuid|setgid|sys_admin|sys_ptrace|sys_module|dac_override|dac_read_search|chown|fowner)\b|\bchmod\s+(?:-\S+\s+)*(?:u\+s|[46][0-7]{3})\s+[^\n]*(?:python|perl|ruby|node|bash|sh|find|vim?|env)\b",
        "lets commands run as root without a password, or gives a program root's powers",
    ),
    c(
        Rule("config-tampering"),
        r"\bufw\s+disable\b|\bsetenforce\s+0\b|\bSELINUX=(?:disabled|permissive)\b|\bsystemctl\s+(?:stop|disable|mask)\s+(?:--now\s+)?(?:firewalld|ufw|apparmor|auditd|clamav\S*)\b|\biptables\s+(?:-P\s+INPUT\s+ACCEPT|-F)\b|\bspctl\s+--master-disable\b|(?i:set-mppreference)\b[^\n]*-(?i:disable)\w*|(?i:add-mppreference)\b[^\n]*-(?i:exclusion)\w*|(?i:set-netfirewallprofile)\b[^\n]*-(?i:enabled)\s+(?i:false)|\bcsrutil\s+disable\b",
        "turns off the firewall, SELinux or the antivirus, or excludes files from it",
    ),
    c(
        Rule("config-tampering"),
        r"\b(?:cp|mv|install|ln\s+-s\w*)\s+(?:-\S+\s+)*[\x22']?[\w.][^\s$\x22']*[\x22']?\s+[\x22']?(?:/usr/local/share/ca-certificates|/etc/pki/ca-trust/source/anchors|/etc/ssl/certs|/usr/share/ca-certificates)\b|\bsecurity\s+add-trusted-cert\b|\bcertutil(?:\.exe)?\s+[^\n]*-addstore\s+[^\n]*\b(?i:root)\b|(?i:import-certificate)\b[^\n]*(?i:cert:\\\w+\\root)|\btrust\s+anchor\s+(?:--store\s+)?[^\s-]",
        "adds a certificate authority the skill carries to the system's trust store: whoever holds its key reads every TLS connection",
    ),
    c(
        Rule("persistence"),
        r"(?:>>?|\btee\s+(?:-a\s+)?)\s*[\x22']?/etc/ld\.so\.preload\b|(?:echo|printf)\s+[\x22']?export\s+(?:NODE_OPTIONS=[^\n]*--(?:require|import|loader)|BASH_ENV=|ENV=|LD_PRELOAD=|PYTHONSTARTUP=|PROMPT_COMMAND=|PERL5OPT=|RUBYOPT=|DYLD_INSERT_LIBRARIES=|GIT_SSH_COMMAND=)[^\n]*(?:>>?|\btee\b)|\b(?:cp|mv|install|ln\s+-s\w*)\s+(?:-\S+\s+)*\S+\s+[\x22']?(?:~|\$HOME|\$\{HOME\})/\S*/(?:sudo|su|doas|passwd|ssh|git|ls)[\x22']?(?:\s|$|;|&)",
        "makes a program it names run inside every later process or shell, or puts a program named like sudo where PATH may find it first",
    ),
    c(
        Rule("config-tampering"),
        r"\bunset\s+HISTFILE\b|\bhistory\s+-c\b|\bHISTFILE=/dev/null\b|\bHISTSIZE=0\b|\b(?:rm|shred)\s+[^\n]*\.(?:bash|zsh)_history\b|>\s*[\x22']?(?:~|\$HOME)/\.(?:bash|zsh)_history\b|\b(?i:clear-history)\b",
        "wipes the shell's history, so the user cannot see what ran",
    ),
    c(
        Rule("config-tampering"),
        r"\bkubectl\s+create\s+clusterrolebinding\b[^\n]*--clusterrole[= ]cluster-admin\b|\bgh\s+repo\s+edit\b[^\n]*--visibility[= ]public\b|\bgh\s+api\b[^\n]*/collaborators/[^\n]*\bpermission=(?:admin|maintain|push|write)\b|\bgh\s+ssh-key\s+add\s+[\x22']?(?:[^~$\s\x22'-]|\$[^H])|\bgh\s+repo\s+deploy-key\s+add\b[^\n]*--allow-write\b|\bSUDO_ASKPASS=[\x22']?(?:[^/\s\x22']|/(?:tmp|home|Users|root)/)|\bnpm\s+config\s+set\s+(?:script-shell|node-options)\s+[^\n]*(?:~|\$HOME|\$\{HOME\}|/\.|/tmp/)",
        "opens the user's account, cluster or repository to others, or hands the sudo password or npm's scripts to a program the skill names",
    ),
    c(
        Rule("config-tampering"),
        r"\.(?:claude|codex|cursor|gemini|agents|windsurf)/(?:skills|agents|commands|rules)/[^\n]*(?:>>|\btee\b|\bsed\s+-i)",
        "changes the skills, rules or agents another tool loads",
    ),
    c(
        Rule("package-source"),
        r"\bdeb\s+\[[^\]\n]*\btrusted=yes\b[^\]\n]*\]\s+https?://|\bgpgcheck\s*=\s*0\b",
        "adds a package source whose packages install without a signature check",
    ),
    c(
        Rule("destroy-data"),
        r"\b(?i:drop\s+(?:database|schema))\s+(?:[^iI\s;]|[iI][^fF])|\bterraform\s+(?:destroy|apply\s+(?:-\S+\s+)*-destroy)\b[^\n]*-auto-approve\b|\bgit\s+push\b[^\n]*\s(?:-f|--force)(?:\s|$)[^\n]*\s\+?(?:[\w./-]*:)?(?:main|master)\b|\bgit\s+push\b[^\n]*\s\+(?:[\w./-]*:)?(?:main|master)\b|\baws\s+s3\s+(?:rb|rm)\s+[\x22']?s3://(?:\{\}|\$)[^\n]*--(?:force|recursive)\b|\bgh\s+repo\s+delete\b[^\n]*--yes\b|(?:^\s*|[;&|]\s*)(?::|\w+)\s*\(\)\s*\{\s*(?::|\w+)\s*\|\s*(?::|\w+)\s*&\s*\}\s*;",
        "destroys shared data without a way back (a database, a bucket, a branch's history), or hangs the machine",
    ),
    c(
        Rule("config-tampering"),
        r"(?:echo|printf)\s+(?:-e\s+)?[\x22']?(?:[1-9]|[1-9]\d|1[0-13-9]\d|12[0-689]|2[0-4]\d|25[0-5])\.\d{1,3}\.\d{1,3}\.\d{1,3}\s+[^\n]*(?:\|\s*(?:sudo\s+)?tee\s+(?:-a\s+)?|>>?\s*)/etc/hosts\b",
        "points host names at an address it chooses, for every program on the machine",
    ),
    // Exfiltration: the parts.
    f(
        Credential,
        r"(?:~|\$HOME|\$\{HOME\}|/home/\w+|/root|/Users/\w+)/\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws[/\\]credentials|\.config/gcloud|application_default_credentials\.json|\.azure/|\.kube/config|\.docker/config\.json|(?:~|\$HOME)/\.netrc|\.git-credentials|(?:~|\$HOME)/\.(?:npmrc|pypirc)|\.gnupg\b|\.config/gh/hosts\.yml|\bsecurity\s+(?:find|dump)-(?:generic|internet)-password|\bdump-keychain\b|\bsecret-tool\s+lookup|Login Data|cookies\.sqlite|Google/Chrome/(?:Default|Profile)|\.mozilla/firefox|Library/Keychains|\b(?:cat|less|more|head|tail|base64|xxd|cp|scp|tar|zip|strings)\b[^\n|;]*\s[\x22']?(?:\S*/)?\.env(?:\.local|\.production)?[\x22']?(?:\s|$|\||;)|\bprintenv\b\s*(?:$|\||>)|(?:^|[;&|(]\s*)env\s*(?:\||>)|\bgh\s+auth\s+token\b|\baws\s+configure\s+export-credentials\b|\.pgpass\b|\.my\.cnf\b|/proc/[^/\s]+/environ\b|\btoJSON\(\s*secrets\s*\)",
        "reads credentials",
    ),
    p(
        Credential,
        r"open\(\s*[\x22'](?:\S*/)?\.env[\x22']|json\.dumps\(\s*(?:dict\(\s*)?os\.environ\s*\)|JSON\.stringify\(\s*process\.env\s*\)|\{\s*\*\*os\.environ\s*\}|dict\(\s*os\.environ\s*\)|os\.environ\.copy\(\)|\{\s*\.\.\.process\.env\s*\}|Path\.home\(\)\s*/\s*[\x22']\.(?:ssh|aws|gnupg|kube|docker)[\x22']|homedir\(\)\s*\+\s*[\x22']/?\.(?:ssh|aws|gnupg)|(?i:get-content)\s+[^\n]*(?:\.ssh[/\\]|\.aws[/\\]credentials)|\$env:USERPROFILE\\\.(?:ssh|aws)|\bPasswordVault\b|\.RetrievePassword\s*\(|(?i:get-storedcredential)\b|\bENV\.(?:to_h|to_hash|to_a|each|map|inspect|select)\b|\\%ENV\b|%ENV\s*\)|\bDumper\s*\(\s*\\?%ENV",
        "reads credentials",
    ),
    f(
        Send,
        r"\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|--json|-F|--form|-T|--upload-file|-X\s*(?:POST|PUT)|--request\s+(?:POST|PUT))(?:\s|=|@|$)|\bwget\b[^\n]*--post-(?:data|file)|\b(?:nc|ncat|netcat|socat)\s+(?:-\S+\s+)*[\w.-]+\s+\d{2,5}\b|/dev/(?:tcp|udp)/|\b(?:scp|rsync)\b[^\n]*\s[\w.-]+@[\w.-]+:",
        "sends data out",
    ),
    p(
        Send,
        r"\b(?:requests|httpx|session|client)\.(?:post|put|patch)\s*\(|\b(?:requests|httpx)\.request\s*\(\s*[\x22'](?:POST|PUT|PATCH)|urlopen\([^)\n]*data\s*=|urlopen\(\s*[^,()\n]+(?:\([^()\n]*\))?[^,()\n]*,\s*[\w\x22']|\bfetch\s*\([^)\n]*method\s*:\s*[\x22'](?:POST|PUT)|\bhttps?\.request\s*\([^\n]*method\s*:\s*[\x22'](?:POST|PUT)|(?i:irm|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]*-(?i:method)\s+(?i:post|put)|(?i:irm|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]*-(?i:infile|body)\b|\.Upload(?:File|String|Data|Values)(?:Async|TaskAsync)?\s*\(|->\s*(?:post|put|request)\s*\(|\bLWP::Simple::post\b|\bHTTP::Request->new\s*\(\s*[\x22']?(?:POST|PUT)|\bNet::HTTP::(?:Post|Put)\.new\b|\.post_form\s*\(|\bxmlrpc\.client\.ServerProxy\s*\([^)\n]*\)\s*(?:\.\w+)+\s*\(\s*[\w\x22']|^\s*upload-file\s*=\s*[\x22']?[~/$.\w]|^\s*(?:expand-)?(?:data-binary|data-raw|data-urlencode|data|form)\s*=\s*[\x22']?[\w-]*=?@[~/$.{\w]",
        "sends data out",
    ),
    p(
        Rule("exfil-endpoint"),
        r"(?i:webhook\.site|requestbin|pipedream\.net|ngrok(?:-free)?\.(?:io|app|dev)|interactsh|\boast\.(?:fun|me|pro|site|live|online)|burpcollaborator|canarytokens|hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks|transfer\.sh)|\b(?:dig|nslookup|host)\s+[^\n]*\$\(",
        "names a host that exists to receive data",
    ),
    p(
        Rule("exfiltration"),
        r"https?://\S*\?[^\n]*\b(?:contents?|value|text)\s+of\s+[^\n]*(?:\.ssh|\.aws|\.env\b|credentials|id_rsa|id_ed25519|\.netrc|\.git-credentials)|\b(?:contents?|value|text)\s+of\s+[^\n]*(?:\.ssh|\.aws/credentials|\.env\b|id_rsa|id_ed25519|\.netrc)[^\n]*https?://\S*\?",
        "tells the agent to put a credential file into a URL it fetches",
    ),
    // Obfuscation.
    p(
        Rule("obfuscation"),
        r"String\.fromCharCode\s*\(\s*\d+(?:\s*,\s*\d+){7,}|(?:chr\(\s*\d+\s*\)\s*\+\s*){7,}|\b(?:exec|eval)\b[^\n]*(?:\[::-1\]|\.reverse\(\)\.join)",
        "builds a string from character codes or reversed text",
    ),
];

static COMPILED: LazyLock<PatternSet> = LazyLock::new(|| {
    PatternSet::new(
        PATTERNS
            .iter()
            .map(|p| format!("(?m){}", context::one_line(p.re)))
            .collect(),
    )
});

/// Every command pattern compiled alone (for the test that they compile).
#[cfg(test)]
pub fn compile_all() {
    COMPILED.compile_all();
}

static BASE64_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/]{200,}={0,2}").expect("valid pattern"));
static HEX_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)[0-9a-fA-F]{200,}(?-u:\b)|(?:\\x[0-9a-fA-F]{2}){32,}")
        .expect("valid pattern")
});
static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?s)<!--(.{0,2000}?)-->|(?m)^\[[^\]\n]{1,40}\]:[ \t]*(?:#|<>|\S+)[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^)\n]*)\))[ \t]*$|\]\([ \t]*[^)\s]+[ \t]+"([^"\n]{12,})"[ \t]*\)|<[A-Za-z][A-Za-z0-9]*[^>\n]*?(?:[ \t]hidden\b|display[ \t]*:[ \t]*none|visibility[ \t]*:[ \t]*hidden|opacity[ \t]*[=:][ \t]*["']?0(?:\.0*)?["';\s>]|font-size[ \t]*[=:][ \t]*["']?[01](?:px)?["';\s>])[^>\n]*>([^<]{1,2000})"#,
    )
    .expect("valid pattern")
});
/// Words addressed to an agent, as a comment would hold them: the agent
/// named first, or told what it must do.
static TO_AGENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)^\s*(?:note\s+(?:to|for)\s+(?:the\s+)?)?(?:ai\s+)?(?:assistant|agent|claude|ai|llm|model|codex|gemini|copilot|cursor)\b\s*[:,]|\b(?:for|to)\s+(?:the\s+|any\s+)?(?:ai\s+)?(?:assistant|agent|llm|model)s?\s*:[^\n]*\b(?:run|execute|send|upload|read|delete|remove|install|download|curl|call|fetch|post|open|visit|include|paste|append)\b|\b(?:you\s+(?:must|should|will|shall|need\s+to)|always|make\s+sure\s+(?:to|you)|be\s+sure\s+to)\b[^\n]*\b(?:run|execute|send|upload|read|delete|remove|install|download|curl|call|fetch|post|open|visit)\b",
    ))
    .expect("valid pattern")
});
/// A condition, not an order: `when you need to`, `if you want to`.
static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)\b(?:when|whenever|if|once|where|while)\s+(?:you|the\s+user)\s+(?:need|needs|want|wants|have|has|are\s+asked|would\s+like)\s+to\b",
    ))
    .expect("valid pattern")
});

/// A sentence that opens with an order to act.
static ORDERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)(?:^|[.!?;:]\s+)(?:(?:always|then|also|first|now|please)\s+)?(?:run|execute|approve|merge|send|upload|delete|remove|install|download|push|commit|read|fetch|post|ignore|disregard|forward|email|copy|do\s+not\s+(?:report|tell|mention|ask))",
    ))
    .expect("valid pattern")
});
/// Words that make a file a reference about attacks.
static ATTACK_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)\b(?:attack(?:s|er|ers)?|malicious|malware|exploit(?:s|ed|ation)?|payloads?|exfiltrat\w*|injection|vulnerab\w*|threats?|phishing|backdoors?|indicators?\s+of\s+compromise|iocs?|yara|red[- ]team\w*|adversar\w*|cve-\d{4}-\d+|insecure|anti-?patterns?)\b",
    ))
    .expect("valid pattern")
});

/// A credential file named in a sentence.
static PROSE_CRED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?:^|[\s`'\x22(/])(?:~/)?\.(?:env(?:\.local|\.production)?|netrc|git-credentials|npmrc|pypirc)(?:[^.\w]|$)|\.ssh/|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws/credentials|\.config/gh/hosts\.yml|\.docker/config\.json|\.kube/config",
    ))
    .expect("valid pattern")
});
/// A sentence that carries a file's whole text somewhere: its contents,
/// verbatim, to a URL, an issue, a form, a commit message or a mail.
static PROSE_CARRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)\b(?:(?:full|whole|entire|its|the)\s+contents?|contents?\s+of|verbatim|as\s+is)\b",
    ))
    .expect("valid pattern")
});
static PROSE_OUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)https?://|\b(?:issue|commit\s+messages?|e-?mail|form|field|gist|pastebin|comment|pull\s+request|chat)\b",
    ))
    .expect("valid pattern")
});
/// A sentence that has a download made executable and run.
static PROSE_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&context::ascii_classes(
        r"(?i)https?://\S+[^\n]*\b(?:make\s+it\s+executable|mark\s+it\s+executable|chmod\s+\+x)\b[^\n]*\b(?:run|launch|execute|start)\b",
    ))
    .expect("valid pattern")
});

/// A matched part of exfiltration: line and excerpt.
#[derive(Clone, Debug)]
pub struct Part {
    pub line: usize,
    pub excerpt: String,
    /// Where it stands: parts join only in one region (a script is one;
    /// in Markdown each code block is one and each other line its own).
    pub region: usize,
}

/// How one line stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    ctx: Ctx,
    /// In shell code the flow model reads.
    shell: bool,
}

/// The rules over one file.
pub struct FileScan {
    rel: String,
    pub findings: Vec<Finding>,
    pub cred: Option<Part>,
    pub send: Option<Part>,
    creds: Vec<Part>,
    sends: Vec<Part>,
    /// Each line's region (see [`Part::region`]).
    regions: Vec<usize>,
    /// Lines of a Markdown `dockerfile` block: a container build too.
    docker: Vec<bool>,
    /// A reference about attacks: commands and injections quoted in it are
    /// mentions.
    about_attacks: bool,
    /// A Dockerfile: its commands build a container (at most high).
    container: bool,
    /// The skill's own name: a settings folder named after it
    /// (`~/.config/NAME/.env`) holds the skill's own keys.
    pub own: Vec<String>,
}

impl FileScan {
    pub fn new(rel: &str) -> FileScan {
        FileScan {
            rel: rel.to_string(),
            findings: Vec::new(),
            cred: None,
            send: None,
            creds: Vec::new(),
            sends: Vec::new(),
            regions: Vec::new(),
            docker: Vec::new(),
            about_attacks: false,
            container: false,
            own: Vec::new(),
        }
    }

    /// Every rule over `text`, a file of kind `kind`.
    pub fn lines(&mut self, text: &str, kind: Kind) {
        let lines: Vec<&str> = text.lines().collect();
        let md = (kind == Kind::Markdown).then(|| markdown::places(text));
        let places = self.places(text, &lines, kind, md.as_ref());
        self.regions = lines
            .iter()
            .enumerate()
            .map(|(k, line)| {
                let at = line.as_ptr() as usize - text.as_ptr() as usize;
                match md.as_ref().map(|m| m.block_at(at)) {
                    // A record of a report or a listing (`Pattern: …`) in a
                    // block that names no language is a line someone read,
                    // not a statement of the program around it.
                    Some(Some(b)) if !is_record(&b.lang, line) => b.first_line,
                    Some(_) => usize::MAX - k,
                    None => 0,
                }
            })
            .collect();
        self.docker = lines
            .iter()
            .map(|line| {
                let at = line.as_ptr() as usize - text.as_ptr() as usize;
                md.as_ref().and_then(|m| m.block_at(at)).is_some_and(|b| {
                    matches!(b.lang.as_str(), "dockerfile" | "docker" | "containerfile")
                })
            })
            .collect();
        self.about_attacks = self.is_about_attacks(text, kind);
        self.container = kind == Kind::Dockerfile;
        let starts: Vec<usize> = lines
            .iter()
            .map(|l| l.as_ptr() as usize - text.as_ptr() as usize)
            .collect();
        let line_of = |pos: usize| starts.partition_point(|s| *s <= pos).saturating_sub(1);
        self.commands(text, &lines, &places, &line_of);
        self.prose_orders(&lines, &places);
        // A comment in a Markdown code block labels the code beside it
        // for the reader; it orders the agent only when it addresses it.
        let block_comment: Vec<bool> = lines
            .iter()
            .enumerate()
            .map(|(k, line)| {
                places[k].ctx == Ctx::Prose
                    && md.as_ref().is_some_and(|m| m.block_at(starts[k]).is_some())
                    && !TO_AGENT.is_match(line.trim_start().trim_start_matches(['#', '/', '*']))
            })
            .collect();
        self.words(&lines, &block_comment);
        if kind == Kind::Markdown {
            self.paragraph_words(&lines, &places, &block_comment);
        }
        if kind == Kind::Other && self.rel.to_ascii_lowercase().ends_with(".json") {
            self.json_comments(&lines);
        }
        self.flows(text, &lines, kind, md.as_ref());
        if text.len() >= 200 && (BASE64_RUN.is_match(text) || HEX_RUN.is_match(text)) {
            self.blobs(text, &lines, &line_of);
        }
        if kind.hides_comments() {
            self.comments(text, md.as_ref());
        }
        if self.rel == "SKILL.md" {
            self.description(&lines);
        }
        for (n, message) in super::packages::in_file(&self.rel, text) {
            self.emit("package-source", n, lines[n - 1], 0, message);
        }
        if kind == Kind::Other {
            for (n, rule, message) in super::configs::in_file(&self.rel, text) {
                self.emit(rule, n, lines[n - 1], 0, message.to_string());
            }
        }
        for (i, line) in lines.iter().enumerate() {
            if let Some((at, word)) = normalize::mixed_script_word(line) {
                self.findings.push(
                    Finding::new(
                        "mixed-script-word",
                        &self.rel,
                        Some(i + 1),
                        format!(
                            "'{}' mixes Latin with look-alike letters of another script",
                            crate::core::text::sanitize_line(word)
                        ),
                    )
                    .with_excerpt(line, at),
                );
            }
        }
    }

    /// How each line stands: code or prose, shell or not.
    fn places(
        &self,
        text: &str,
        lines: &[&str],
        kind: Kind,
        md: Option<&markdown::Places>,
    ) -> Vec<Place> {
        let lang = context::Lang::of(&self.rel, text);
        lines
            .iter()
            .map(|line| {
                let at = line.as_ptr() as usize - text.as_ptr() as usize;
                match kind {
                    Kind::Script => Place {
                        ctx: context::code_or_comment(line),
                        shell: lang == Lang::Shell,
                    },
                    Kind::Dockerfile => {
                        let run =
                            line.trim_start().starts_with("RUN ") || line.starts_with([' ', '\t']);
                        Place {
                            ctx: if run {
                                Ctx::Code
                            } else {
                                context::code_or_comment(line)
                            },
                            shell: run,
                        }
                    }
                    Kind::Markdown => match md.and_then(|m| m.block_at(at)) {
                        Some(b) => Place {
                            ctx: context::code_or_comment(line),
                            shell: markdown::is_shell(&b.lang),
                        },
                        None => Place {
                            ctx: Ctx::Prose,
                            shell: false,
                        },
                    },
                    Kind::Markup | Kind::Other => Place {
                        ctx: Ctx::Prose,
                        shell: false,
                    },
                }
            })
            .collect()
    }

    /// A reference (not SKILL.md, not a script) whose lines keep naming
    /// attacks, or a YARA rules file.
    fn is_about_attacks(&self, text: &str, kind: Kind) -> bool {
        if self.rel == "SKILL.md" || matches!(kind, Kind::Script | Kind::Dockerfile) {
            return false;
        }
        let lower = self.rel.to_ascii_lowercase();
        if lower.ends_with(".yar") || lower.ends_with(".yara") {
            return true;
        }
        text.lines()
            .filter(|l| ATTACK_WORDS.is_match(l))
            .take(3)
            .count()
            >= 3
    }

    fn commands(
        &mut self,
        text: &str,
        lines: &[&str],
        places: &[Place],
        line_of: &dyn Fn(usize) -> usize,
    ) {
        let compiled = &*COMPILED;
        for i in compiled.set.matches(text).iter() {
            let pat = &PATTERNS[i];
            let mut last = usize::MAX;
            for m in compiled.get(i).find_iter(text) {
                let k = line_of(m.start());
                if k == last {
                    continue;
                }
                last = k;
                let line = lines[k];
                let col =
                    (m.start() - (line.as_ptr() as usize - text.as_ptr() as usize)).min(line.len());
                let place = places[k];
                if (pat.by_flow && place.shell && place.ctx == Ctx::Code)
                    || (pat.code_only && place.ctx != Ctx::Code)
                {
                    continue;
                }
                if place.ctx == Ctx::Prose && context::warns(line) {
                    continue;
                }
                if pat.role == Rule("persistence") && sets_a_variable(line) {
                    continue;
                }
                if pat.role == Rule("config-tampering") && same_host_rewrite(line) {
                    continue;
                }
                self.command(pat, k + 1, line, col);
            }
        }
    }

    /// A command pattern's match at byte `col` of line `n`.
    fn command(&mut self, pat: &Pattern, n: usize, line: &str, col: usize) {
        let part = Part {
            line: n,
            excerpt: super::finding::excerpt(line, col),
            region: self.region(n),
        };
        match pat.role {
            Rule(rule) => {
                let rule = if rule == "pipe-to-shell" && vendor_only(line) {
                    "vendor-installer"
                } else {
                    rule
                };
                self.emit(rule, n, line, col, pat.message.to_string());
                if rule == "exfil-endpoint" && !self.about_attacks {
                    self.add_send(part);
                }
            }
            Credential | Send if self.about_attacks => {
                self.emit("mention", n, line, col, pat.message.to_string());
            }
            Credential => self.add_cred(part),
            Send => self.add_send(part),
        }
    }

    /// A finding of `rule`, judged where the file stands: a mention in a
    /// reference about attacks, at most high in a Dockerfile.
    fn emit(&mut self, rule: &'static str, n: usize, line: &str, col: usize, message: String) {
        let found = if self.about_attacks {
            let shown = super::rules::rule(rule).id;
            Finding::new(
                "mention",
                &self.rel,
                Some(n),
                format!("quotes what `{shown}` looks for, in a reference about attacks"),
            )
        } else {
            let mut f = Finding::new(rule, &self.rel, Some(n), message);
            if matches!(rule, "reverse-shell" | "pipe-to-shell" | "download-exec")
                && f.severity > Severity::High
                && placeholder_host(line)
            {
                f.severity = Severity::High;
                f.message
                    .push_str(" (to a placeholder host: a template the reader fills in)");
            }
            if rule == "sudo"
                && (installs_packages(line)
                    || printed_text(line, col).is_some_and(installs_packages))
            {
                f.severity = Severity::Low;
                f.message.push_str(": a system package manager's setup");
            }
            let container = self.container || self.docker.get(n.wrapping_sub(1)) == Some(&true);
            if container && f.severity > Severity::High {
                f.severity = Severity::High;
                f.message.push_str(" (in a container build)");
            }
            f
        };
        let found = found.with_excerpt(line, col);
        if !self
            .findings
            .iter()
            .any(|f| f.rule == found.rule && f.line == found.line)
        {
            self.findings.push(found);
        }
    }

    /// Orders in prose (a line, with the next when the sentence runs on):
    /// a credential file's contents carried out, or a download made
    /// executable and run, told to an agent that has a web and a shell tool.
    fn prose_orders(&mut self, lines: &[&str], places: &[Place]) {
        for (k, line) in lines.iter().enumerate() {
            if places[k].ctx != Ctx::Prose || context::warns(line) {
                continue;
            }
            let next = lines
                .get(k + 1)
                .filter(|n| places[k + 1].ctx == Ctx::Prose && !n.trim().is_empty())
                .filter(|_| !line.trim_end().ends_with(['.', ':']));
            let sentence = match next {
                Some(n) if !context::warns(n) => format!("{line} {n}"),
                _ => line.to_string(),
            };
            if PROSE_CRED.is_match(&sentence)
                && PROSE_CARRY.is_match(&sentence)
                && PROSE_OUT.is_match(&sentence)
            {
                self.emit(
                    "exfiltration",
                    k + 1,
                    line,
                    0,
                    "tells the agent to carry a credential file's contents out".into(),
                );
            } else if PROSE_RUN.is_match(&sentence) {
                self.emit(
                    "download-exec",
                    k + 1,
                    line,
                    0,
                    "tells the agent to download a program, make it executable and run it".into(),
                );
            }
        }
    }

    /// The word rules over each line folded.
    fn words(&mut self, lines: &[&str], skip: &[bool]) {
        let compiled = &*words::COMPILED;
        for (k, line) in lines.iter().enumerate() {
            if skip[k] {
                continue;
            }
            let folded = normalize::fold(line);
            let seen = words::lower(folded.as_ref().map_or(*line, |f| f.text.as_str()));
            let seen = seen.as_ref();
            if !compiled.set.is_match(seen) {
                continue;
            }
            for i in compiled.set.matches(seen).iter() {
                let Some(m) = compiled.get(i).find(seen) else {
                    continue;
                };
                if words::mentioned(seen, m.start(), m.end()) || words::under_negated_lead(lines, k)
                {
                    continue;
                }
                let col = folded.as_ref().map_or(m.start(), |f| f.origin(m.start()));
                let pat = &words::WORDS[i];
                self.emit(
                    pat.rule,
                    k + 1,
                    line,
                    col.min(line.len()),
                    pat.message.to_string(),
                );
            }
        }
    }

    /// The word rules over each paragraph of prose read as one line, its
    /// emphasis and code marks dropped: `*Ignore*` / `**all**` /
    /// `_previous_` on lines of their own still say one thing.
    fn paragraph_words(&mut self, lines: &[&str], places: &[Place], skip: &[bool]) {
        let compiled = &*words::COMPILED;
        let mut k = 0;
        while k < lines.len() {
            let start = k;
            let mut text = String::new();
            while k < lines.len()
                && places[k].ctx == Ctx::Prose
                && !skip[k]
                && !lines[k].trim().is_empty()
            {
                let folded =
                    normalize::fold(lines[k]).map_or_else(|| lines[k].to_string(), |f| f.text);
                text.extend(
                    folded
                        .chars()
                        .filter(|c| !matches!(c, '*' | '_' | '`' | '~')),
                );
                text.push(' ');
                k += 1;
            }
            k += 1;
            // A list under `**Must Not:**` names what not to do.
            if k - start < 3 || words::under_negated_lead(lines, start + 1) {
                continue;
            }
            let seen = words::lower(&text);
            for i in compiled.set.matches(&seen).iter() {
                let Some(m) = compiled.get(i).find(&seen) else {
                    continue;
                };
                if words::mentioned(&seen, m.start(), m.end())
                    || self.findings.iter().any(|f| f.rule == words::WORDS[i].rule)
                {
                    continue;
                }
                let pat = &words::WORDS[i];
                self.emit(
                    pat.rule,
                    start + 1,
                    lines[start],
                    0,
                    pat.message.to_string(),
                );
            }
        }
    }

    /// A JSON file's comment fields (`"_comment": "…"`), which no program
    /// reads but an agent does, holding words to the agent.
    fn json_comments(&mut self, lines: &[&str]) {
        static FIELD: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"^\s*"(?:_+comment|comment|//|_+note|note|_+notes?)"\s*:\s*"([^"\n]*)""#)
                .expect("valid pattern")
        });
        for (k, line) in lines.iter().enumerate() {
            let Some(c) = FIELD.captures(line) else {
                continue;
            };
            let body = normalize::fold(&c[1]).map_or_else(|| c[1].to_string(), |f| f.text);
            if TO_AGENT.is_match(&body) || words::COMPILED.set.is_match(&words::lower(&body)) {
                self.emit(
                    "hidden-comment-instruction",
                    k + 1,
                    line,
                    0,
                    "a JSON comment field, which no program reads, speaks to the agent".into(),
                );
            }
        }
    }

    /// Shell through the flow model, Python and JavaScript through theirs:
    /// a whole script, each code block of a Markdown file, a Dockerfile's
    /// `RUN` lines.
    fn flows(&mut self, text: &str, lines: &[&str], kind: Kind, md: Option<&markdown::Places>) {
        let mut regions: Vec<(Lang, String, usize)> = Vec::new();
        match kind {
            Kind::Script if context::is_makefile(&self.rel) => {
                regions.push((Lang::Shell, make_recipes(text), 0))
            }
            Kind::Script => regions.push((Lang::of(&self.rel, text), text.to_string(), 0)),
            Kind::Other => {
                for (n, code, hook) in super::configs::commands(&self.rel, text) {
                    let found = flow::analyse(&shell::parse(&code));
                    let line = lines.get(n - 1).copied().unwrap_or("");
                    for h in found.hits {
                        self.emit(h.rule, n, line, 0, h.message);
                    }
                    if hook && found.send.is_some() {
                        let message = "a hook sends what it is given (the agent's tool calls and their files) to another host".to_string();
                        self.emit("exfiltration", n, line, 0, message);
                    }
                    if !self.about_attacks {
                        let at = |l: Option<usize>| l.map(|_| 1);
                        self.flow_parts(lines, n - 1, at(found.cred), at(found.send));
                    }
                }
            }
            Kind::Dockerfile => regions.push((Lang::Shell, docker_runs(lines), 0)),
            Kind::Markdown => {
                for b in md.map(|m| m.blocks.as_slice()).unwrap_or_default() {
                    let body = &text[b.content.clone()];
                    let lang = if markdown::is_shell(&b.lang) {
                        Lang::Shell
                    } else {
                        Lang::of_block(&b.lang)
                    };
                    regions.push((lang, strip_prompts(body), b.first_line - 1));
                }
            }
            _ => {}
        }
        // What one shell block of a page writes, the next reads.
        let mut written = flow::Written::new();
        for (lang, body, offset) in regions {
            match lang {
                Lang::Shell => {
                    let found = flow::analyse_after(&shell::parse(&body), written);
                    written = found.written();
                    for h in found.hits {
                        let n = offset + h.line;
                        let line = lines.get(n - 1).copied().unwrap_or("");
                        self.emit(h.rule, n, line, 0, h.message);
                    }
                    if !self.about_attacks {
                        self.flow_parts(lines, offset, found.cred, found.send);
                    }
                }
                Lang::Python | Lang::JavaScript | Lang::Php | Lang::Ruby => {
                    for (l, rule, message) in pyjs::analyse(&body, &super::flow::shell_read) {
                        let n = offset + l;
                        let line = lines.get(n - 1).copied().unwrap_or("");
                        self.emit(rule, n, line, 0, message.to_string());
                    }
                    let (cred, send) = pyjs::parts(&body, &super::flow::shell_read);
                    if !self.about_attacks {
                        self.flow_parts(lines, offset, cred, send);
                    }
                }
                Lang::Other => {}
            }
        }
    }

    /// The credential read and the send a flow found in a region that
    /// starts after line `offset`.
    fn flow_parts(
        &mut self,
        lines: &[&str],
        offset: usize,
        cred: Option<usize>,
        send: Option<usize>,
    ) {
        let part = |l: usize| Part {
            line: offset + l,
            excerpt: super::finding::excerpt(lines.get(offset + l - 1).copied().unwrap_or(""), 0),
            region: self.region(offset + l),
        };
        let (c, s) = (cred.map(part), send.map(part));
        if let Some(c) = c {
            // A word quoted over lines starts on the read's first line; the
            // path it reads is on the first line of its region that names one.
            let named = lines
                .iter()
                .enumerate()
                .skip(c.line - 1)
                .take_while(|(k, _)| self.region(k + 1) == c.region)
                .map(|(_, l)| *l)
                .find(|l| HOME_PATH.is_match(l));
            if !named.is_some_and(|l| self.own.iter().any(|own| own_settings(own, l))) {
                self.add_cred(c);
            }
        }
        if let Some(s) = s {
            self.add_send(s);
        }
    }

    fn region(&self, n: usize) -> usize {
        self.regions.get(n.wrapping_sub(1)).copied().unwrap_or(0)
    }

    fn add_cred(&mut self, p: Part) {
        if self.own.iter().any(|own| own_settings(own, &p.excerpt)) {
            return;
        }
        self.cred.get_or_insert_with(|| p.clone());
        self.creds.push(p);
    }

    fn add_send(&mut self, p: Part) {
        self.send.get_or_insert_with(|| p.clone());
        self.sends.push(p);
    }

    fn blobs(&mut self, text: &str, lines: &[&str], line_of: &dyn Fn(usize) -> usize) {
        let at = |pos: usize| {
            let k = line_of(pos);
            let line = lines[k];
            (
                k + 1,
                line,
                pos - (line.as_ptr() as usize - text.as_ptr() as usize),
            )
        };
        let mut last = 0;
        for m in BASE64_RUN.find_iter(text) {
            let (n, line, col) = at(m.start());
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
            let (n, line, col) = at(m.start());
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

    /// Comments a renderer hides (not inside code, where they show), and
    /// what it shows only on hover or not at all (a link or image title,
    /// an element styled hidden), holding words to the agent or a rule's
    /// match.
    fn comments(&mut self, text: &str, md: Option<&markdown::Places>) {
        for c in COMMENT.captures_iter(text) {
            let Some(body) = (1..=6).find_map(|k| c.get(k)) else {
                continue;
            };
            let whole = c.get(0).map_or(0, |m| m.start());
            if md.is_some_and(|m| m.in_code(whole)) {
                continue;
            }
            let inner = body.as_str();
            // An element styled hidden: anything it orders is hidden from
            // the reader.
            let shown_never = c.get(6).is_some();
            let n = text[..body.start()].matches('\n').count() + 1;
            let folded: Vec<String> = inner
                .lines()
                .map(|l| normalize::fold(l).map_or_else(|| l.to_string(), |f| f.text))
                .collect();
            let words = &*words::COMPILED;
            let hostile = folded.iter().any(|l| {
                words.set.is_match(&words::lower(l))
                    || COMPILED
                        .set
                        .matches(l)
                        .iter()
                        .any(|i| matches!(PATTERNS[i].role, Rule(_)))
            }) || folded.iter().any(|l| TO_AGENT.is_match(l))
                || (shown_never && folded.iter().any(|l| ORDERS.is_match(l)));
            if hostile {
                let first = inner.trim();
                self.emit(
                    "hidden-comment-instruction",
                    n,
                    first,
                    0,
                    "a comment the rendered page hides speaks to the agent".into(),
                );
            }
        }
    }

    /// The frontmatter `description`, which agents load into every
    /// session to choose a skill: words to the agent there are an
    /// instruction the user never sees when the skill runs.
    fn description(&mut self, lines: &[&str]) {
        if lines.first().map(|l| l.trim_end()) != Some("---") {
            return;
        }
        for (k, line) in lines.iter().enumerate().skip(1) {
            if line.trim_end() == "---" {
                return;
            }
            let Some(value) = line.strip_prefix("description:") else {
                continue;
            };
            let folded = normalize::fold(value).map_or_else(|| value.to_string(), |f| f.text);
            // "Use when you need to run …" says when to pick the skill.
            let folded = CONDITION.replace_all(&folded, " ");
            if TO_AGENT.is_match(&folded) {
                self.emit(
                    "hidden-comment-instruction",
                    k + 1,
                    line,
                    0,
                    "the description, which the agent reads in every session, speaks to the agent"
                        .into(),
                );
            }
        }
    }

    /// This file's findings, with exfiltration when it both reads
    /// credentials and sends; a credential read alone is low.
    pub fn finish(mut self) -> Vec<Finding> {
        let joined = self.findings.iter().any(|f| f.rule == "exfiltration");
        let pair = self.sends.iter().find_map(|s| {
            self.creds
                .iter()
                .find(|c| c.region == s.region)
                .map(|c| (c.clone(), s.clone()))
        });
        match (pair, &self.cred) {
            (Some((c, s)), _) if !joined => {
                let mut f = Finding::new(
                    "exfiltration",
                    &self.rel,
                    Some(s.line),
                    format!(
                        "sends data out (line {}) after reading credentials (line {}: {})",
                        s.line, c.line, c.excerpt
                    ),
                );
                if self.container {
                    f.severity = Severity::High;
                }
                f.excerpt = s.excerpt.clone();
                self.findings.push(f);
            }
            (None, Some(c)) if !joined => {
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

/// A line whose only host is a placeholder (`ATTACKER_IP`, `YOUR_IP`,
/// `LHOST`, `<ip>`, `http://attacker/`): as written it reaches no one, so
/// it teaches a technique rather than runs it. A real name or address
/// anywhere on the line keeps it what it is.
fn placeholder_host(line: &str) -> bool {
    static HOLDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b[A-Z]+_(?:IP|HOST|ADDR|ADDRESS|SERVER)\b|\b[LR]HOST\b|<[A-Za-z_ -]*(?:ip|IP|host|HOST)[A-Za-z_ -]*>|://attacker(?:[:/]|$)")
            .expect("valid pattern")
    });
    static REAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b\d{1,3}(?:\.\d{1,3}){3}\b|://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|/dev/(?:tcp|udp)/[a-z0-9-]+\.[a-z]")
            .expect("valid pattern")
    });
    HOLDER.is_match(line) && !REAL.is_match(line)
}

/// A path in the home folder; its first folder (under `.config`) caught.
static HOME_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:~|\$HOME|\$\{HOME\}|Path\.home\(\)|expanduser\(\s*[\x22']~)/(?:\.config/)?\.?([\w.-]+)")
        .expect("valid pattern")
});

/// A line whose every home-folder path is the settings folder of the
/// skill named `own` (`~/.config/own/…`, `~/.own/…`): the skill keeping its
/// own keys, which it may send to its own service. A name that is also a
/// well-known credential folder (`gh`, `aws` …) earns nothing.
fn own_settings(own: &str, line: &str) -> bool {
    const KNOWN: &[&str] = &[
        "ssh", "aws", "gcloud", "azure", "kube", "docker", "gh", "gnupg", "git", "npm", "pypi",
        "netrc", "npmrc", "pypirc", "env", "config", "local", "mozilla",
    ];
    let own = own.to_ascii_lowercase();
    if own.len() < 4 || KNOWN.contains(&own.as_str()) {
        return false;
    }
    let mut any = false;
    for c in HOME_PATH.captures_iter(line) {
        let dir = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
        if dir != own {
            return false;
        }
        any = true;
    }
    any
}

/// A line of a plain block (no language, or text) led by a capitalised
/// label and a colon, as findings, logs and sample output are written: no
/// shell, Python or JavaScript statement starts that way.
fn is_record(lang: &str, line: &str) -> bool {
    static LABEL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^\s*(?:[^\w\s$~./\x22'`(\[{<>|&;#-]+\s*)?[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}:\s+\S",
        )
        .expect("valid pattern")
    });
    matches!(lang, "" | "text" | "txt" | "plaintext" | "output") && LABEL.is_match(line)
}

/// `sudo apt-get install -y pkg …`: the system's package manager
/// installing packages by name, ordinary setup (nothing by URL or file).
fn installs_packages(line: &str) -> bool {
    static INSTALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:\$\s+)?sudo\s+(?:-E\s+)?(?:apt-get|apt|dnf|yum|zypper|apk|pacman|port|snap|tlmgr)\s+(?:-\S+\s+)*(?:install|add|-S\w*)\s+(?:-\S+\s+)*[A-Za-z0-9][\w.+-]*(?:\s+(?:-\S+|[A-Za-z0-9][\w.+-]*))*\s*(?:#.*)?$")
            .expect("valid pattern")
    });
    // Refreshing the package manager or its index, or copying a data
    // file into a shared data tree (a TeX style, a font), is the same
    // setup: nothing lands where programs are run from.
    static MAINTAIN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:\$\s+)?sudo\s+(?:-E\s+)?(?:(?:apt-get|apt|dnf|yum|zypper|apk|port|snap|tlmgr)\s+(?:-\S+\s+)*(?:update|upgrade|refresh)|texhash|mktexlsr|updmap-sys|fmtutil-sys|fc-cache)(?:\s+(?:-\S+|[\w./-]+))*\s*(?:#.*)?$|^\s*(?:\$\s+)?sudo\s+(?:cp|install)\s+(?:-\S+\s+)*[\w.-][\w./-]*\.(?:sty|cls|bst|ttf|otf)\s+/usr/(?:local/)?(?:share|texlive)/[\w./-]*\s*(?:#.*)?$")
            .expect("valid pattern")
    });
    INSTALL.is_match(line) || MAINTAIN.is_match(line)
}

/// The text of a string literal printed to the user (`print("…")`,
/// `console.log('…')`, `echo "…"` with nothing piped on) that holds byte
/// `col` of `line`, after a `Label:` lead-in. A command in it is advice
/// to the reader: the program shows it and runs nothing.
fn printed_text(line: &str, col: usize) -> Option<&str> {
    static PRINT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(?:print|console\.(?:log|error|warn|info)|puts|echo|eprintln!|println!|logger\.\w+|sys\.std(?:out|err)\.write)\s*\(?\s*(f?)(?:"([^"]*)"|'([^']*)')"#)
            .expect("valid pattern")
    });
    static LEAD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:[A-Za-z][\w ()/-]{0,30}:\s+)?").expect("valid pattern")
    });
    let c = PRINT.captures_iter(line).find(|c| {
        c.get(2)
            .or_else(|| c.get(3))
            .is_some_and(|m| m.range().contains(&col))
    })?;
    let body = c.get(2).or_else(|| c.get(3))?;
    let after = &line[body.end()..];
    // An f-string runs what its braces hold; a pipe runs what is printed.
    let interpolates = c.get(1).is_some_and(|f| !f.is_empty()) && body.as_str().contains('{');
    if interpolates
        || body.as_str().contains("$(")
        || body.as_str().contains('`')
        || after.contains('|')
    {
        return None;
    }
    let text = body.as_str();
    Some(&text[LEAD.find(text).map_or(0, |m| m.end())..])
}

/// A line that only appends `export NAME=value` (no command in it) to a
/// shell rc file: setup, not persistence.
fn sets_a_variable(line: &str) -> bool {
    static SETS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^\s*(?:\$\s+)?echo\s+(?:-e\s+)?(?:'export\s+[A-Za-z_][A-Za-z0-9_]*=[^'`;|&]*'|"export\s+[A-Za-z_][A-Za-z0-9_]*=[^"`;|&]*")\s*(?:>>|\|\s*tee\s+(?:-a|--append)\s)"#)
            .expect("valid pattern")
    });
    // Variables that load code into every later process are not setup.
    static HOOKS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"export\s+(?:NODE_OPTIONS=[^\n]*--(?:require|import|loader|experimental-loader)\b|(?:BASH_ENV|ENV|LD_PRELOAD|PYTHONSTARTUP|PROMPT_COMMAND|PERL5OPT|RUBYOPT|DYLD_INSERT_LIBRARIES|GIT_SSH_COMMAND)=[^\n]*(?:/\.[\w-]+/\.|/tmp/|/dev/shm/))")
            .expect("valid pattern")
    });
    SETS.is_match(line) && !line.contains("$(") && !HOOKS.is_match(line)
}

/// `git config url.A.insteadOf B` where A and B name the same host (https
/// to ssh for one forge): a transport switch, not a redirect elsewhere.
fn same_host_rewrite(line: &str) -> bool {
    let Some((_, rest)) = line.split_once("url.") else {
        return false;
    };
    let Some((to, from)) = rest.split_once(".insteadOf") else {
        return false;
    };
    let host = |u: &str| {
        let u = u.trim().trim_matches(['"', '\'']);
        let u = u.split_once("://").map_or(u, |(_, r)| r);
        let u = u.rsplit_once('@').map_or(u, |(_, r)| r);
        u.split([':', '/'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let from = from.split_whitespace().next().unwrap_or("");
    !host(to).is_empty() && host(to) == host(from)
}

/// True when every URL on `line` is a vendor's installer (and there is one).
fn vendor_only(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`'))
        .collect();
    // PowerShell's `irm HOST/PATH` takes a URL without its scheme.
    let bare = |k: usize| {
        k > 0
            && matches!(words[k - 1].to_ascii_lowercase().as_str(), "irm" | "iwr")
            && words[k].split('/').next().is_some_and(|h| h.contains('.'))
    };
    let urls: Vec<String> = (0..words.len())
        .filter_map(|k| {
            let w = words[k];
            if w.starts_with("https://") || w.starts_with("http://") {
                Some(w.to_string())
            } else if bare(k) {
                Some(format!("https://{w}"))
            } else {
                None
            }
        })
        .collect();
    !urls.is_empty() && urls.iter().all(|u| super::vendors::is_installer(u))
}

/// A Dockerfile with only its `RUN` commands (and their continuation
/// lines) kept, at their lines; the rest blanked.
fn docker_runs(lines: &[&str]) -> String {
    let mut out = String::new();
    let mut cont = false;
    for line in lines {
        let t = line.trim_start();
        if let Some(cmd) = t.strip_prefix("RUN ") {
            // `RUN --mount=… --network=… CMD`: the flags are the build's.
            let mut cmd = cmd.trim_start();
            while cmd.starts_with("--") {
                cmd = cmd.split_once(' ').map_or("", |(_, r)| r).trim_start();
            }
            out.push_str(cmd);
            cont = line.trim_end().ends_with('\\');
        } else if let Some(fetch) = t.strip_prefix("ADD ").and_then(docker_add_url) {
            out.push_str(&fetch);
        } else if cont {
            out.push_str(line);
            cont = line.trim_end().ends_with('\\');
        }
        out.push('\n');
    }
    out
}

/// `ADD URL DEST` without `--checksum`: a download, read as the `curl`
/// that does the same, so a later `RUN` of it is a download run.
fn docker_add_url(args: &str) -> Option<String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.iter().any(|w| w.starts_with("--checksum")) {
        return None;
    }
    let ops: Vec<&str> = words.into_iter().filter(|w| !w.starts_with("--")).collect();
    match ops.as_slice() {
        [url, .., dest] if url.starts_with("https://") || url.starts_with("http://") => {
            let dest = if dest.ends_with('/') {
                format!("{dest}{}", url.rsplit('/').next().unwrap_or(""))
            } else {
                dest.to_string()
            };
            Some(format!("curl -o {dest} {url}"))
        }
        _ => None,
    }
}

/// A Makefile's recipes as the shell reads them: make's `$(shell …)` is a
/// command substitution, and `@`/`-` before a recipe only quiet it or
/// ignore its failure.
fn make_recipes(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix('\t') {
            Some(r) => r
                .trim_start_matches(['@', '-', '+'])
                .replace("$(shell ", "$("),
            None => l.replace("$(shell ", "$("),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A console block's `$ ` prompts removed, so the command is read.
fn strip_prompts(body: &str) -> String {
    body.lines()
        .map(|l| {
            l.strip_prefix("$ ")
                .or_else(|| l.strip_prefix("% "))
                .unwrap_or(l)
        })
        .collect::<Vec<_>>()
        .join("\n")
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
    // Two pages of prose and examples are not a program that runs.
    let md = |f: &str| {
        let f = f.to_ascii_lowercase();
        f.ends_with(".md") || f.ends_with(".markdown") || f.ends_with(".mdx")
    };
    if md(cf) && md(sf) {
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
