//! `agents --verify`: where the agent itself is installed and has a
//! command that lists the skills it loads, run it (bounded in time and
//! output) from the working directory and compare its answer with
//! skilltui's model, one line per difference. The commands are the ones
//! the oracle tests run (tests/agent_oracles.rs): `codex debug
//! prompt-input` (its `<skills_instructions>` block against the catalog)
//! and `opencode debug skill` / `kilo debug skill` (name and location of each
//! skill loaded), and `copilot skill list --json` (its skills in order).
//! Differences are shown as `differences` words them: missing, extra,
//! order, text.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::core::agents::differences::{self, Entry};
use crate::core::agents::discover::{self, Finds};
use crate::core::agents::render;
use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::Agent;

/// How long the agent may take to answer; it is killed after (OpenCode
/// 1.18.33 takes 5 s on an idle machine, several times that on a busy one).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Most bytes read from the agent's output (Codex's prompt input is tens
/// of KiB).
const MAX_OUTPUT: u64 = 16 << 20;

/// The agent's own command that lists its skills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// `codex debug prompt-input`: the model's input as JSON.
    CodexPromptInput,
    /// `opencode debug skill`: the skills loaded, as JSON.
    OpencodeDebugSkill,
    /// `copilot skill list --json`: the skills listed, in its order.
    CopilotSkillList,
}

impl Probe {
    pub fn of(agent: &Agent) -> Option<Probe> {
        match agent.id.as_str() {
            "codex" => Some(Probe::CodexPromptInput),
            // Kilo Code is an OpenCode fork: `kilo debug skill` prints the
            // same list (checked by tests/oracle_kilo.rs).
            "opencode" | "kilo" => Some(Probe::OpencodeDebugSkill),
            "github-copilot" => Some(Probe::CopilotSkillList),
            _ => None,
        }
    }

    fn args(self) -> &'static [&'static str] {
        match self {
            Probe::CodexPromptInput => &["debug", "prompt-input"],
            Probe::OpencodeDebugSkill => &["debug", "skill"],
            Probe::CopilotSkillList => &["skill", "list", "--json"],
        }
    }
}

/// What one agent said, compared.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// The agent's `--version` line.
    pub version: String,
    /// One line per difference; empty when the agent agrees.
    pub differences: Vec<String>,
}

/// Runs `agent`'s probe from `ctx.cwd`, then compares it with skilltui's
/// model of the same directory, read after the agent ran (Codex writes its
/// bundled skills under `$CODEX_HOME/skills/.system` as it starts). `Err`
/// is one line: not installed, no probe, timed out, or an answer that is
/// not understood.
pub fn verify(agent: &Agent, ctx: &Ctx, timeout: Duration) -> Result<Verdict, String> {
    let probe = Probe::of(agent).ok_or_else(|| {
        format!(
            "{} has no command that lists its skills: nothing to compare (its facts are documented)",
            agent.name
        )
    })?;
    let bin = agent
        .detect_binaries
        .iter()
        .find_map(|b| scan::which(b, ctx))
        .ok_or_else(|| {
            format!(
                "{} is not installed here (no {} on PATH)",
                agent.name,
                agent.detect_binaries.join(" or ")
            )
        })?;
    let version = run(&bin, &["--version"], &ctx.cwd, timeout)?;
    let version = version.lines().next().unwrap_or("").trim().to_string();
    let out = run(&bin, probe.args(), &ctx.cwd, timeout)?;
    let finds = discover::find(agent, ctx);
    let differences = match probe {
        Probe::CodexPromptInput => codex(agent, &finds, &out)?,
        Probe::OpencodeDebugSkill => opencode(agent, &finds, &out)?,
        Probe::CopilotSkillList => copilot(&finds, &out)?,
    };
    Ok(Verdict {
        version,
        differences,
    })
}

/// `bin args` in `cwd`, its stdout; killed after `timeout`. The agent
/// runs in its own process group, and the group is killed once the agent
/// has exited (or at the deadline): a helper it leaves behind holding the
/// output open never makes `--verify` wait past the deadline.
fn run(bin: &Path, args: &[&str], cwd: &Path, timeout: Duration) -> Result<String, String> {
    use std::os::unix::process::CommandExt;
    let shown = format!("{} {}", bin.display(), args.join(" "));
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{shown}: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.take(MAX_OUTPUT).read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    let deadline = Instant::now() + timeout;
    let timed_out = || format!("{shown} gave no answer in {} s: killed", timeout.as_secs());
    while !exited(&child) {
        if Instant::now() > deadline {
            kill_group(&mut child);
            return Err(timed_out());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    kill_group(&mut child);
    let status = child.wait().map_err(|e| format!("{shown}: {e}"))?;
    let remaining = deadline.saturating_duration_since(Instant::now());
    let bytes = rx.recv_timeout(remaining).map_err(|_| timed_out())?;
    if !status.success() {
        return Err(format!("{shown} failed ({status})"));
    }
    String::from_utf8(bytes).map_err(|_| format!("{shown}: output is not UTF-8"))
}

/// Whether `child` has exited, without reaping it: until it is reaped its
/// pid, and so its process group's id, cannot be reused.
fn exited(child: &std::process::Child) -> bool {
    let pid: libc::id_t = child.id();
    // SAFETY: a zeroed siginfo_t is valid; waitid with WNOWAIT only looks.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    let r = unsafe { libc::waitid(libc::P_PID, pid, &mut info, flags) };
    // SAFETY: waitid filled `info` (or left it zeroed: no child changed).
    r != 0 || unsafe { info.si_pid() } != 0
}

/// Kills the agent's process group: the agent (unless it has exited) and
/// whatever it started and left running.
fn kill_group(child: &mut std::process::Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: the agent leads its own process group (`process_group(0)`)
        // and is not reaped yet, so -pid is that group and nothing else.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

/// Codex's skills block against skilltui's catalog, line by line.
fn codex(agent: &Agent, finds: &Finds, out: &str) -> Result<Vec<String>, String> {
    let items: Vec<Value> = serde_json::from_str(out)
        .map_err(|e| format!("codex debug prompt-input: not the JSON expected ({e})"))?;
    let theirs = items
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["text"].as_str().map(str::to_string))
        .find(|t| t.starts_with("<skills_instructions>"))
        .unwrap_or_default();
    let ours = render::catalog(agent, finds).text.unwrap_or_default();
    Ok(differences::compare(
        "codex",
        &differences::text_entries(&theirs),
        &differences::text_entries(&ours),
    ))
}

/// Copilot's list against skilltui's `ok` copies, in order: each skill
/// keyed by its folder (`<built-in>/NAME` for a bundled one), shown as
/// `name: description (folder)`.
fn copilot(finds: &Finds, out: &str) -> Result<Vec<String>, String> {
    let listed: Vec<Value> = serde_json::from_str(out)
        .map_err(|e| format!("copilot skill list --json: not the JSON expected ({e})"))?;
    let entry = |name: &str, description: &str, path: String| {
        Entry::new(path.clone(), format!("{name}: {description} ({path})"))
    };
    let theirs: Vec<Entry> = listed
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap_or_default();
            let path = match s["source"].as_str() {
                Some("builtin") => format!("{}/{name}", scan::BUILT_IN),
                _ => s["path"].as_str().unwrap_or_default().to_string(),
            };
            entry(name, s["description"].as_str().unwrap_or_default(), path)
        })
        .collect();
    let ours: Vec<Entry> = finds
        .winners()
        .map(|c| entry(&c.name, &c.description, c.path.display().to_string()))
        .collect();
    Ok(differences::compare("copilot", &theirs, &ours))
}

/// OpenCode's loaded skills against skilltui's rows: each it loads must be
/// the `ok` copy of its name or one skilltui marks as possibly winning;
/// each `ok` name must be loaded.
fn opencode(agent: &Agent, finds: &Finds, out: &str) -> Result<Vec<String>, String> {
    let loaded: Vec<Value> = serde_json::from_str(out)
        .map_err(|e| format!("{} debug skill: not the JSON expected ({e})", agent.id))?;
    let location = |path: &Path| -> String {
        if path.starts_with(scan::BUILT_IN) {
            scan::BUILT_IN.to_string()
        } else {
            path.join("SKILL.md").to_string_lossy().into_owned()
        }
    };
    // Kilo names its bundled skills' location `builtin`.
    let same = |ours: &str, theirs: &str| {
        ours == theirs
            || (ours == scan::BUILT_IN && theirs == "builtin")
            || same_file_through_loop(ours, theirs)
    };
    let id = &agent.id;
    let mut lines = Vec::new();
    for skill in &loaded {
        let name = skill["name"].as_str().unwrap_or_default();
        let loc = skill["location"].as_str().unwrap_or_default();
        let known = finds.candidates.iter().any(|c| {
            c.name == name
                && same(&location(&c.path), loc)
                && (c.status == crate::core::cao::store::Status::Ok || discover::may_win(agent, c))
        });
        if !known {
            lines.push(format!(
                "{id} loads {name} from {loc}; skilltui does not expect it"
            ));
        }
    }
    for c in finds.winners() {
        if !loaded.iter().any(|s| s["name"] == c.name.as_str()) {
            lines.push(format!(
                "skilltui expects {} from {}; {id} does not load it",
                c.name,
                location(&c.path)
            ));
        }
    }
    Ok(lines)
}

/// Whether OpenCode's location `theirs` is the file skilltui lists as
/// `ours`, reached through a link looping back: opencode-ai 1.18.33
/// follows a loop until the path resolution limit and may name any of
/// those copies (observed); skilltui reads each real folder once.
fn same_file_through_loop(ours: &str, theirs: &str) -> bool {
    // Resolved a component at a time: one `realpath` of a path 40 links
    // deep fails (ELOOP).
    let real = |p: &Path| -> Option<std::path::PathBuf> {
        let mut out = std::path::PathBuf::from("/");
        for part in p.components().skip(1) {
            out = out.join(part).canonicalize().ok()?;
        }
        Some(out)
    };
    let theirs = Path::new(theirs);
    let mut seen = std::collections::HashSet::new();
    let looped = theirs.ancestors().filter_map(real).any(|r| !seen.insert(r));
    looped && real(theirs).is_some() && real(theirs) == real(Path::new(ours))
}

/// The agents `--verify` covers, for a listing of which can be run.
pub fn probed(agents: &[Agent]) -> impl Iterator<Item = &Agent> {
    agents.iter().filter(|a| Probe::of(a).is_some())
}
