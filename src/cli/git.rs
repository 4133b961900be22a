//! The commands over locked skills from git: `check`, `update`, `sync`,
//! and git's progress and change listings that `add` shares.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::agents;
use super::names;
use super::output::{self, Outcome, Output, warn};
use crate::core::cao::store::Home;
use crate::core::sources::changes::{self, Changes};
use crate::core::sources::git;
use crate::core::sources::http;
use crate::core::sources::interrupt;
use crate::core::sources::lock;
use crate::core::sources::remote;
use crate::core::text::sanitize_line;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Locked skills to check (default: every one)
    #[arg(add = names::locked())]
    names: Vec<String>,
    /// Print JSON for scripts instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct UpdateArgs {
    /// Locked skills to update (default: every one)
    #[arg(add = names::locked())]
    names: Vec<String>,
    /// Also replace skills modified locally (their edits are lost)
    #[arg(long)]
    force: bool,
    /// Lift the limits on a skill from git (skills added with
    /// --allow-large keep it without this)
    #[arg(long)]
    allow_large: bool,
    /// Install a skill even when the audit finds something critical in it
    #[arg(long)]
    trust: bool,
    /// Fetch and show what would change, and write nothing (neither the
    /// skills nor the lock)
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args, Debug)]
pub struct SyncArgs {
    /// The lock file to follow (default: <home>/skilltui.lock)
    #[arg(long, value_name = "FILE")]
    lock: Option<PathBuf>,
    /// Also replace skills changed locally, or installed here from
    /// another source or from none
    #[arg(long)]
    force: bool,
    /// Lift the limits on a skill from git (skills added with
    /// --allow-large keep it without this)
    #[arg(long)]
    allow_large: bool,
    /// Install a skill even when the audit finds something critical in it
    #[arg(long)]
    trust: bool,
    /// Let a lock from elsewhere (--lock FILE) fetch plain-http URLs and
    /// addresses on this machine
    #[arg(long)]
    allow_local: bool,
}

/// `check [NAME…] [--json]`.
pub fn run_check(home: &Home, args: &CheckArgs, out: &mut Output) -> Outcome {
    if !args.json {
        say_lock(home, None, out);
    }
    check(home, &args.names, args.json, out)
}

/// The one line naming the lock a command follows: the project's, the
/// home's, or the one given.
fn say_lock(home: &Home, given: Option<&std::path::Path>, out: &mut Output) {
    let path = given.map_or_else(|| lock::in_use(home), std::path::Path::to_path_buf);
    let whose = match (given, lock::is_home_lock(home, &path)) {
        (_, true) => "this home's",
        (Some(_), false) => "given",
        (None, false) => "the project's",
    };
    out.line(&format!("Lock: {} ({whose})", path.display()));
}

/// `update [NAME…]`.
pub fn run_update(home: &Home, args: &UpdateArgs, out: &mut Output) -> Outcome {
    say_lock(home, None, out);
    update(
        home,
        &args.names,
        (args.force, args.allow_large, args.trust),
        args.dry_run,
        out,
    )
}

/// `sync`: the lock's skills, then the links and copies skilltui made of
/// them for agents.
pub fn run_sync(home: &Home, args: &SyncArgs, out: &mut Output) -> Outcome {
    let lifts = (args.force, args.allow_large, args.trust);
    say_lock(home, args.lock.as_deref(), out);
    sync(home, args.lock.as_deref(), lifts, args.allow_local, out)?;
    agents::with_table(home, out, |table, ctx| agents::restore(home, table, ctx))
}

pub fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

pub fn print_changes(what: &str, c: &Changes, out: &mut Output) {
    out.line(&format!("{what}: {}", c.summary()));
    for l in c.render() {
        out.line(&sanitize_line(&l));
    }
}

/// The files of `c` without their line diffs, for output that is not read
/// on a terminal.
pub fn files_only(c: Changes) -> Changes {
    let changed = c
        .changed
        .into_iter()
        .map(|f| changes::Changed { lines: None, ..f })
        .collect();
    Changes { changed, ..c }
}

/// How long a command that is fetching gets to unwind after Ctrl-C
/// (its fetch polls every 50 ms; removing a large scratch checkout takes
/// a second or two) before it is ended where it stands.
const UNWIND: std::time::Duration = std::time::Duration::from_secs(10);

/// Ctrl-C (or SIGTERM, SIGHUP) ends a command. One that is fetching (it
/// has scratch folders) is asked to stop: its fetch ends, the normal
/// clean-up removes the scratch, and `main` exits 130. One that does not
/// unwind within [`UNWIND`], or a second signal, ends it there, after its
/// scratch folders are removed. Either way the gits it runs go first,
/// with their ssh and helpers: they run in a session of their own, out of
/// the terminal's reach. Also clears what killed runs left behind.
pub fn end_git_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    git::clear_orphans();
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        let Some(signal) = signals.forever().next() else {
            return;
        };
        if git::has_own_scratch() {
            interrupt::interrupt(signal);
            git::kill_all();
            let until = std::time::Instant::now() + UNWIND;
            while std::time::Instant::now() < until && signals.pending().next().is_none() {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
        git::kill_all();
        git::remove_own_scratch();
        let _ = signal_hook::low_level::emulate_default_handler(signal);
        std::process::exit(128 + signal);
    });
}

/// Shows git's progress on stderr when a person is watching it. git
/// writes a step at 100% twice (as it reaches it, then with ", done."):
/// a step is shown again only when it moved.
pub fn progress_meter() -> impl FnMut(git::Progress) {
    let tty = std::io::stderr().is_terminal();
    let mut last: Option<(String, u8)> = None;
    move |p: git::Progress| {
        let step = Some((p.phase, p.percent));
        if !tty || step == last {
            return;
        }
        let Some((phase, percent)) = &step else {
            return;
        };
        eprint!("\r\x1b[2K{phase}: {percent}%");
        if *percent == 100 {
            eprintln!();
        }
        last = step;
    }
}

fn check(home: &Home, names: &[String], json: bool, out: &mut Output) -> Outcome {
    let rows = remote::check(home, names)?;
    if json {
        let items: Vec<_> = rows
            .iter()
            .map(|r| {
                // A web skill is pinned by a digest, a git one by a commit:
                // `upstream` is whichever of the two is served now.
                let web = r.entry.is_web();
                json!({
                    "name": r.name,
                    "status": r.status,
                    "source": r.entry.source,
                    "url": r.entry.url,
                    "path": r.entry.path,
                    "ref": r.entry.reference,
                    "commit": (!web).then_some(&r.entry.commit),
                    "digest": r.entry.digest,
                    "upstream": r.moved.map(|m| if m { "moved" } else { "same" }),
                    "upstream_commit": r.upstream.as_ref().filter(|_| !web),
                    "upstream_digest": r.upstream.as_ref().filter(|_| web),
                    "error": r.error,
                })
            })
            .collect();
        out.line(&serde_json::to_string_pretty(&items).unwrap_or_default());
    } else {
        let width = rows
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let statuses: Vec<String> = rows.iter().map(status_words).collect();
        let column = statuses.iter().map(String::len).max().unwrap_or(0).max(8);
        out.line(&format!("{:width$}  {:column$}  Source", "Name", "Status"));
        for (r, status) in rows.iter().zip(&statuses) {
            out.line(&format!(
                "{:width$}  {status:column$}  {}",
                sanitize_line(&r.name),
                where_from(&r.entry)
            ));
        }
    }
    let failed = rows
        .iter()
        .filter_map(|r| r.error.as_ref().map(|e| (r.name.as_str(), e.as_str())));
    for (e, names) in by_cause(failed) {
        warn(&format!("{}: {e}", names.join(", ")));
    }
    if rows.is_empty() {
        warn("no skills are locked: `skilltui add OWNER/REPO` installs and pins one");
    }
    Ok(())
}

/// Where a locked skill comes from, as `check` shows it: a git source at
/// its ref (or default branch); a site's index entry as the site and the
/// entry's URL; a URL alone as itself.
fn where_from(e: &lock::Entry) -> String {
    match e.url.as_deref() {
        Some(url) if e.from_index() => {
            format!("{} (index) {}", http::shown(&e.source), http::shown(url))
        }
        Some(url) => http::shown(url),
        None => {
            let at = match e.reference.as_deref() {
                Some(reference) => format!("@{reference}"),
                None => " (default branch)".into(),
            };
            sanitize_line(&format!("{}{at}", e.source)).into_owned()
        }
    }
}

/// A row's state in words: a skill edited here whose folder also changed
/// upstream is both.
fn status_words(r: &remote::CheckRow) -> String {
    let status = format!("{:?}", r.status).to_lowercase();
    match (r.status, r.moved) {
        (remote::Status::Modified, Some(true)) => format!("{status}, outdated"),
        _ => status,
    }
}

/// Failures grouped by their message, in order of first appearance: an
/// unreachable repository is one line naming its skills, not one per skill.
fn by_cause<'a>(failed: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut causes: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, e) in failed {
        match causes.iter_mut().find(|(c, _)| *c == e) {
            Some((_, names)) => names.push(name),
            None => causes.push((e, vec![name])),
        }
    }
    causes
}

/// Prints each outcome; any failure makes the command fail after the rest
/// ran, with one line per cause.
fn report_outcomes(outcomes: &[remote::Outcome], verb: &str, out: &mut Output) -> Outcome {
    let failed = outcomes.iter().filter_map(|o| {
        o.result
            .as_ref()
            .err()
            .map(|e| (o.name.as_str(), e.as_str()))
    });
    let causes = by_cause(failed);
    for o in outcomes {
        match &o.result {
            Ok(remote::Done::Current) => out.line(&format!("{}: current", o.name)),
            Ok(remote::Done::Installed {
                commit,
                changes,
                warnings,
            }) => {
                match changes {
                    Some(c) => {
                        print_changes(&format!("{}: {verb} to {}", o.name, short(commit)), c, out)
                    }
                    None => out.line(&format!("{}: installed at {}", o.name, short(commit))),
                }
                for w in warnings {
                    warn(w);
                }
            }
            Err(_) => {}
        }
    }
    let named = |e: &str, names: &[&str]| match names {
        [_] => e.to_string(),
        _ => format!("{e} (skills {})", names.join(", ")),
    };
    match &causes[..] {
        [] => Ok(()),
        [(e, names)] => Err(named(e, names)),
        _ => {
            for (e, names) in &causes {
                eprintln!("error: {}", sanitize_line(&named(e, names)));
            }
            let n: usize = causes.iter().map(|(_, names)| names.len()).sum();
            Err(format!(
                "{n} of {} skill(s) were not {verb}: see the lines above",
                outcomes.len()
            ))
        }
    }
}

/// `(force, allow_large, trust)`, as given to `update` and `sync`.
type Lifts = (bool, bool, bool);

fn update(home: &Home, names: &[String], lifts: Lifts, dry: bool, out: &mut Output) -> Outcome {
    let (force, large, trust) = lifts;
    let meter = &mut progress_meter();
    let outcomes = remote::update(home, names, force, large, trust, dry, meter)?;
    if outcomes.is_empty() {
        warn("no skills are locked: `skilltui add OWNER/REPO` installs and pins one");
    }
    let verb = if dry { "would update" } else { "updated" };
    let done = report_outcomes(&outcomes, verb, out);
    if dry {
        output::note("dry run: nothing was written");
    }
    done
}

fn sync(
    home: &Home,
    lock: Option<&std::path::Path>,
    lifts: Lifts,
    allow_local: bool,
    out: &mut Output,
) -> Outcome {
    let (force, large, trust) = lifts;
    let meter = &mut progress_meter();
    let synced = remote::sync(home, lock, force, large, trust, allow_local, meter)?;
    for w in &synced.warnings {
        warn(w);
    }
    for name in &synced.unlocked {
        out.line(&format!("{name}: installed here but not in the lock"));
    }
    report_outcomes(&synced.outcomes, "synced", out)
}
