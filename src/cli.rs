//! The scriptable CLI: clap commands over the core. Output a script reads
//! goes to stdout, warnings to stderr; text from disk is sanitized when
//! stdout is a terminal and passed through byte for byte otherwise.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::core::catalog::{self, Format};
use crate::core::doctor;
use crate::core::editor;
use crate::core::profile;
use crate::core::skill;
use crate::core::store::{self, Home};
use crate::core::text::{sanitize, sanitize_line};

#[derive(Parser, Debug)]
#[command(
    name = "skilltui",
    version,
    about = "Browse, install and assign Agent Skills for CLI Agent Orchestrator (CAO)"
)]
pub struct Cli {
    /// The CAO home (default: $CAO_HOME_DIR, else ~/.aws/cli-agent-orchestrator)
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The installed CAO: its package, its venv or its `cao` executable
    /// (default: $SKILLTUI_CAO, else `cao` on PATH, else the uv tool and
    /// pipx homes)
    #[arg(long, global = true, value_name = "DIR")]
    pub cao: Option<PathBuf>,
    /// Colour theme for the TUI (a file in themes/ or the user's config dir)
    #[arg(long, global = true, value_name = "NAME")]
    pub theme: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List valid skills (--json: every candidate folder with its status)
    List {
        #[arg(long)]
        json: bool,
    },
    /// Print the body CAO's load_skill returns for NAME
    Show { name: String },
    /// Validate a skill folder and install it atomically
    Add {
        path: PathBuf,
        /// Replace an installed skill of the same name
        #[arg(long)]
        force: bool,
    },
    /// Remove an installed skill atomically
    Remove { name: String },
    /// Seed the default skills that are missing (never overwrites)
    Init,
    /// CAO's verdict plus Agent Skills lints, per folder
    Validate {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// The catalog block PROFILE would inject
    Catalog {
        profile: String,
        #[arg(long, value_enum, default_value_t = FormatArg::Cao)]
        format: FormatArg,
        /// Print the whole composed prompt: body, blank line, block
        #[arg(long)]
        prompt: bool,
    },
    /// Why CAO sees what it sees: home, dirs, the CAO found, warnings
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Agent profiles and their skills
    #[command(subcommand)]
    Profile(ProfileCommand),
}

#[derive(Subcommand, Debug)]
pub enum ProfileCommand {
    /// Profiles with their file, source and declared skills
    List {
        #[arg(long)]
        json: bool,
    },
    /// Add skills to the profile's `skills:` list, in place
    Enable {
        profile: String,
        #[arg(required = true)]
        skills: Vec<String>,
    },
    /// Remove skills from the profile's `skills:` list, in place
    Disable {
        profile: String,
        #[arg(required = true)]
        skills: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    Cao,
    V1,
    Xml,
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Cao => Format::Cao,
            FormatArg::V1 => Format::V1,
            FormatArg::Xml => Format::Xml,
            FormatArg::Json => Format::Json,
        }
    }
}

/// A user-facing failure: one line, printed as `error: ...`, exit 1.
pub type Outcome = Result<(), String>;

/// Runs a parsed command (the TUI is started by `main` when none is given).
pub fn run(cli: &Cli, command: &Command) -> Outcome {
    let home = Home::locate(cli.home.as_deref()).with_cao(cli.cao.as_deref());
    let mut out = Output::stdout();
    match command {
        Command::List { json } => list(&home, *json, &mut out),
        Command::Show { name } => show(&home, name, &mut out),
        Command::Add { path, force } => add(&home, path, *force, &mut out),
        Command::Remove { name } => {
            let dest = store::remove(&home, name)?;
            out.line(&format!(
                "Skill '{}' removed ({})",
                store::check_name(name)?,
                dest.display()
            ));
            Ok(())
        }
        Command::Init => init(&home, &mut out),
        Command::Validate { paths, json } => validate(paths, *json, &mut out),
        Command::Catalog {
            profile,
            format,
            prompt,
        } => catalog(&home, profile, (*format).into(), *prompt, &mut out),
        Command::Doctor { json } => {
            let clipboard = crate::tui::clipboard::ClipEnv::from_env().describe();
            let report = doctor::report(&home, cli.home.as_deref(), clipboard);
            doctor_print(&report, *json, &mut out);
            Ok(())
        }
        Command::Profile(ProfileCommand::List { json }) => profile_list(&home, *json, &mut out),
        Command::Profile(ProfileCommand::Enable { profile, skills }) => {
            toggle(&home, profile, skills, true, &mut out)
        }
        Command::Profile(ProfileCommand::Disable { profile, skills }) => {
            toggle(&home, profile, skills, false, &mut out)
        }
    }
}

/// Stdout that sanitizes only when a person is looking at it; buffered
/// (flushed when dropped) so a long listing is one write, not one a line.
pub struct Output {
    tty: bool,
    inner: std::io::BufWriter<std::io::Stdout>,
}

impl Output {
    pub fn stdout() -> Output {
        let stdout = std::io::stdout();
        Output {
            tty: stdout.is_terminal(),
            inner: std::io::BufWriter::with_capacity(64 * 1024, stdout),
        }
    }

    /// Writes text read from disk (or built from it).
    pub fn text(&mut self, s: &str) {
        let s = if self.tty { sanitize(s) } else { s.into() };
        let _ = self.inner.write_all(s.as_bytes());
    }

    pub fn line(&mut self, s: &str) {
        self.text(s);
        self.text("\n");
    }
}

/// Warnings to stderr, sanitized (they may quote file contents).
pub fn warn(msg: &str) {
    eprintln!("warning: {}", sanitize_line(msg));
}

fn list(home: &Home, json: bool, out: &mut Output) -> Outcome {
    let listing = store::list(home, json);
    if json {
        let rows: Vec<_> = listing
            .entries
            .iter()
            .map(|e| {
                json!({
                    "name": e.name(),
                    "description": e.checked.description,
                    "path": e.checked.path,
                    "source_dir": e.source_dir,
                    "status": e.status,
                    "errors": e.checked.errors,
                    "warnings": e.checked.warnings,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(());
    }
    let valid: Vec<_> = listing.valid().collect();
    let width = valid
        .iter()
        .map(|e| e.name().chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    out.line(&format!("{:width$}  Description", "Name"));
    for e in &valid {
        let first = e.description().lines().next().unwrap_or("");
        out.line(&format!(
            "{:width$}  {}",
            sanitize_line(e.name()),
            sanitize_line(first)
        ));
    }
    let hidden = listing.entries.len() - valid.len();
    if hidden > 0 {
        warn(&format!(
            "{hidden} skill folder(s) are invalid or shadowed: `skilltui list --json` says why"
        ));
    }
    if valid.is_empty() {
        warn(&format!(
            "no skills in {}: `skilltui init` seeds the defaults",
            home.skills_dir().display()
        ));
    }
    Ok(())
}

fn show(home: &Home, name: &str, out: &mut Output) -> Outcome {
    let checked = store::resolve(home, name)?;
    let doc = skill::read_doc(&checked.path.join("SKILL.md"))?;
    out.line(&doc.frontmatter.body);
    Ok(())
}

fn add(home: &Home, path: &std::path::Path, force: bool, out: &mut Output) -> Outcome {
    let added = store::add(home, path, force)?;
    out.line(&format!("Skill '{}' installed successfully", added.name));
    if let Some(d) = added.replaced {
        out.line(&format!(
            "replaced the previous version: {} added, {} removed, {} changed",
            d.added.len(),
            d.removed.len(),
            d.changed.len()
        ));
    }
    for w in skill::check_folder(&added.dest, true).warnings {
        warn(&w);
    }
    Ok(())
}

fn init(home: &Home, out: &mut Output) -> Outcome {
    // A CAO the user named but that is not one is a typo to fix, not a
    // reason to seed only our own skills (the TUI's menu shows why instead).
    if let Some(why) = home.named_cao_error() {
        return Err(format!("{why}: {}", crate::core::cao::INSTALL_HINT));
    }
    let report = store::seed(home, None)?;
    if let Some(note) = store::cao_skills_note(home) {
        warn(&note);
    }
    for name in &report.seeded {
        out.line(&format!("seeded {name}"));
    }
    for name in &report.kept {
        out.line(&format!("kept {name} (already present)"));
    }
    out.line(&format!(
        "{} seeded, {} kept, in {}",
        report.seeded.len(),
        report.kept.len(),
        home.skills_dir().display()
    ));
    Ok(())
}

fn validate(paths: &[PathBuf], json: bool, out: &mut Output) -> Outcome {
    let results: Vec<_> = paths.iter().map(|p| skill::check_folder(p, true)).collect();
    if json {
        let rows: Vec<_> = results
            .iter()
            .map(|c| {
                json!({
                    "path": c.path,
                    "valid": c.is_valid(),
                    "name": c.name,
                    "description": c.description,
                    "errors": c.errors,
                    "warnings": c.warnings,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
    } else {
        for c in &results {
            let mark = if c.is_valid() { "ok  " } else { "FAIL" };
            out.line(&format!("{mark} {}", c.path.display()));
            for e in &c.errors {
                out.line(&format!("     error: {e}"));
            }
            for w in &c.warnings {
                out.line(&format!("     warning: {w}"));
            }
        }
    }
    let failed = results.iter().filter(|c| !c.is_valid()).count();
    match failed {
        0 => Ok(()),
        n => Err(format!(
            "{n} of {} folder(s) would not load in CAO",
            results.len()
        )),
    }
}

fn catalog(home: &Home, name: &str, format: Format, prompt: bool, out: &mut Output) -> Outcome {
    let p = profile::load(home, name)?;
    let listing = store::list(home, false);
    let selection = catalog::select(&listing, p.skills.as_deref());
    for pattern in &selection.unmatched {
        warn(&format!(
            "pattern '{pattern}' in profile '{name}' matches no installed skill"
        ));
    }
    let block = catalog::render(format, &listing, p.skills.as_deref(), name)?;
    let text = if prompt {
        catalog::compose_prompt(&p.body, &block)
    } else {
        block
    };
    if !text.is_empty() {
        out.line(&text);
    }
    Ok(())
}

fn doctor_print(r: &doctor::Report, json: bool, out: &mut Output) {
    if json {
        out.line(&serde_json::to_string_pretty(r).unwrap_or_default());
        return;
    }
    // Each line is one fact: a newline inside a path or a name must not
    // start a line of its own.
    for line in doctor_lines(r) {
        out.line(&sanitize_line(&line));
    }
}

fn doctor_lines(r: &doctor::Report) -> Vec<String> {
    let mark = |d: &doctor::Dir| if d.exists { "" } else { "  (missing)" };
    let mut lines = vec![
        format!("home        {} (from {})", r.home.display(), r.home_from),
        format!("store       {}", r.store.display()),
    ];
    for d in &r.extra_dirs {
        lines.push(format!("extra dir   {}{}", d.path.display(), mark(d)));
    }
    for d in &r.profile_dirs {
        let label = d.label.as_deref().unwrap_or("");
        let (path, missing) = (d.path.display(), mark(d));
        lines.push(format!("profiles    {path} ({label}){missing}"));
    }
    lines.push(match (&r.cao.package, &r.cao.version) {
        (Some(p), v) => format!(
            "cao         {} {} (via {})",
            v.as_deref().unwrap_or("(unknown version)"),
            p.display(),
            r.cao.how
        ),
        (None, _) => format!("cao         not found: {}", r.cao.how),
    });
    let git = r.git.as_ref().map(|g| g.display().to_string());
    lines.push(format!(
        "git         {}",
        git.as_deref().unwrap_or("not on PATH")
    ));
    lines.push(format!("clipboard   {}", r.clipboard));
    lines.push(format!("colours     {}", r.colours));
    lines.extend(r.warnings.iter().map(|w| format!("warning     {w}")));
    if r.warnings.is_empty() {
        lines.push("warnings    none".into());
    }
    lines
}

fn profile_list(home: &Home, json: bool, out: &mut Output) -> Outcome {
    let rows: Vec<_> = profile::list(home)
        .into_iter()
        .map(|l| {
            let loaded = profile::load(home, &l.name);
            (l, loaded)
        })
        .collect();
    if json {
        let items: Vec<_> = rows
            .iter()
            .map(|(l, loaded)| {
                json!({
                    "name": l.name,
                    "path": l.location.path,
                    "source": l.location.source,
                    "skills": loaded.as_ref().ok().map(|p| p.skills.clone()),
                    "error": loaded.as_ref().err(),
                    "shadows": l.also_in,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&items).unwrap_or_default());
        return Ok(());
    }
    let width = rows
        .iter()
        .map(|(l, _)| l.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(7);
    out.line(&format!("{:width$}  {:11}  Skills", "Profile", "Source"));
    for (l, loaded) in &rows {
        let skills = match loaded {
            Ok(p) => match &p.skills {
                None => "(every skill)".to_string(),
                Some(s) if s.is_empty() => "(none)".to_string(),
                Some(s) => s.join(", "),
            },
            Err(e) => format!("(fails to load: {e})"),
        };
        out.line(&format!(
            "{:width$}  {:11}  {}",
            l.name,
            l.location.source,
            sanitize_line(&skills)
        ));
    }
    Ok(())
}

/// Applies every change in memory, then writes once: one bad skill name
/// leaves the file untouched.
fn toggle(home: &Home, name: &str, skills: &[String], on: bool, out: &mut Output) -> Outcome {
    let original = profile::load(home, name)?;
    let listing = store::list(home, false);
    let mut current = original.clone();
    let mut messages = Vec::new();
    for skill in skills {
        let plan = if on {
            editor::enable(home, &listing, &current, skill)?
        } else {
            editor::disable(home, &listing, &current, skill)?
        };
        messages.push(plan.message.clone());
        if let Some(text) = plan.new_text {
            let parsed = profile::parse_text(home, &text)?;
            current.skills = parsed.skills;
            current.raw = Some(text);
        }
    }
    if current.raw != original.raw {
        let plan = editor::Plan {
            new_text: current.raw.clone(),
            message: String::new(),
        };
        editor::apply(&original, &plan)?;
    }
    for m in messages {
        out.line(&m);
    }
    Ok(())
}
