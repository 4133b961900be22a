//! The App's work with sources: opening one on a worker behind a gauge,
//! the pick dialog's installs with a replace prompt per clash, `U`'s check
//! and `u`'s update. The rules are the core's (`core::sources::remote`).

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use crate::core::cao::store::Home;
use crate::core::error::InstallError;
use crate::core::sources::changes;
use crate::core::sources::git::{self, Cancel, Progress};
use crate::core::sources::remote::{self, Opened, Step};
use crate::core::sources::search;
use crate::core::sources::source::{self, Found, Source, StoreState};
use crate::tui::app::App;
use crate::tui::dialogs::pick::Batch;
use crate::tui::dialogs::results::split_query;
use crate::tui::dialogs::{Confirm, Dialog, Fetch, Install, Installing, Pending, Pick, Results};
use crate::tui::jobs::{Diffs, Report};
use crate::tui::model::Status;

impl App {
    /// Opens SOURCE on a worker, showing its progress until it is done.
    pub(crate) fn open_source(&mut self, source: String) {
        let label = crate::core::text::strip_credentials(&source).into_owned();
        self.open_in_background(&label, false, move |home, progress, cancel| {
            remote::open(home, &source, &[], false, false, progress, Some(cancel))
        });
    }

    /// Searches the registry for `query` (`owner:NAME` among its words), at
    /// most `limit` results, on a worker behind a spinner that Esc cancels:
    /// the cancel flag ends the request between two reads of its body (a
    /// silent server, at `SKILLTUI_HTTP_TIMEOUT`).
    pub(crate) fn search_in_background(&mut self, query: String, limit: usize) {
        let home = self.data.home.clone();
        let cancel = Cancel::default();
        let (words, owner) = split_query(&query);
        let id = self.spawn_ticking(cancel.clone(), Report::Found, move |stop| {
            search::find(&home, &words, limit, owner.as_deref(), Some(stop))
        });
        self.dialog = Some(Dialog::Results(Results::new(id, query, limit, cancel)));
    }

    /// Reads the SKILL.md of search result `skill` in `source` (owner/repo)
    /// on a worker, fetching that one file (see `git::read_skill_md`); the
    /// results dialog shows it, Esc cancels.
    pub(crate) fn read_in_background(&mut self, source: &str, skill: String) {
        let url = match source::parse(source, &self.data.home.user_home) {
            Ok(Source::Git(g)) => g.fetch_url().to_string(),
            _ => return,
        };
        let cancel = Cancel::default();
        let id = self.spawn_ticking(cancel.clone(), Report::Read, move |stop| {
            git::read_skill_md(&url, &skill, Some(stop))
        });
        if let Some(Dialog::Results(r)) = &mut self.dialog {
            r.start_reading(id, cancel);
        }
    }

    /// Runs `work` on a worker, ticking the spinner of its job while it
    /// runs (until `cancel` is set) and reporting its answer with `done`.
    /// Once cancelled, the job waits up to [`CANCEL_GRACE`] for `work` to
    /// end (git is killed at once, a download ends at its next read), so
    /// its scratch folder is gone when the App quits; a server silent past
    /// that does not hold the quit up (its request ends at the timeout).
    fn spawn_ticking<T: Send + 'static>(
        &mut self,
        cancel: Cancel,
        done: fn(u64, Result<T, String>) -> Report,
        work: impl FnOnce(&Cancel) -> Result<T, String> + Send + 'static,
    ) -> u64 {
        let stop = cancel.clone();
        self.jobs.spawn_stoppable(cancel, move |id, report| {
            let (tx, rx) = mpsc::channel();
            let flag = stop.clone();
            std::thread::spawn(move || {
                let _ = tx.send(work(&flag));
            });
            let mut cancelled_at = None;
            let answer = loop {
                match rx.recv_timeout(SPIN_EVERY) {
                    Ok(answer) => break answer,
                    Err(RecvTimeoutError::Timeout) if stop.load(Ordering::SeqCst) => {
                        let since = *cancelled_at.get_or_insert_with(std::time::Instant::now);
                        if since.elapsed() >= CANCEL_GRACE {
                            break Err("cancelled".into());
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => report.send(Report::Searching(id)),
                    Err(RecvTimeoutError::Disconnected) => {
                        break Err("the worker ended without an answer".into());
                    }
                }
            };
            report.send(done(id, answer));
        })
    }

    /// A search's answer: its results, or the install dialog again with
    /// why; dropped when Esc closed the search.
    fn found(&mut self, id: u64, found: Result<Vec<search::Hit>, String>) {
        let Some(Dialog::Results(r)) = &mut self.dialog else {
            return;
        };
        if r.id != id {
            return;
        }
        match found {
            Ok(hits) if !hits.is_empty() => r.hits = Some(hits),
            Ok(_) => {
                let why = format!(
                    "the registry found nothing for '{}': try other words, or type owner/repo",
                    r.query
                );
                self.dialog = Some(Dialog::Install(Install::failed(&r.query.clone(), why)));
            }
            Err(e) => self.dialog = Some(Dialog::Install(Install::failed(&r.query.clone(), e))),
        }
    }

    /// Runs `open` on a worker behind a gauge that Esc cancels; `update`
    /// installs what it opens, asking only about a change.
    fn open_in_background<F>(&mut self, label: &str, update: bool, open: F)
    where
        F: FnOnce(&Home, &mut dyn FnMut(Progress), &Cancel) -> Result<remote::Opened, String>
            + Send
            + 'static,
    {
        let home = self.data.home.clone();
        let cancel = Cancel::default();
        let stop = cancel.clone();
        let id = self
            .jobs
            .spawn_stoppable(cancel.clone(), move |id, report| {
                let mut progress = |p| report.send(Report::Progress(id, p));
                let opened = open(&home, &mut progress, &stop);
                let diffs = match (&opened, update) {
                    (Ok(o), true) => diffs_of(&home, o),
                    _ => Vec::new(),
                };
                report.send(Report::Opened(id, opened, Box::new(diffs)));
            });
        let mut fetch = Fetch::new(id, label, cancel);
        fetch.update = update;
        self.dialog = Some(Dialog::Fetch(fetch));
    }

    /// Takes what the workers reported (the event loop calls this when
    /// woken).
    pub fn poll_jobs(&mut self) {
        for r in self.jobs.drain() {
            self.on_report(r);
        }
        self.show_checks();
    }

    /// Waits for the running jobs and takes their reports (for callers
    /// with no event loop, such as tests).
    pub fn settle(&mut self) {
        while self.jobs.busy() {
            match self.jobs.next(std::time::Duration::from_secs(120)) {
                Some(r) => {
                    self.on_report(r);
                    self.show_checks();
                }
                None => break,
            }
        }
    }

    /// Takes the next report, waiting up to `limit` (tests step through
    /// a worker's reports one by one); false when none came.
    pub fn poll_one(&mut self, limit: std::time::Duration) -> bool {
        let Some(r) = self.jobs.next(limit) else {
            return false;
        };
        self.on_report(r);
        self.show_checks();
        true
    }

    fn on_report(&mut self, report: Report) {
        let fetching = match &mut self.dialog {
            Some(Dialog::Fetch(f)) => Some(f),
            _ => None,
        };
        match report {
            Report::Progress(id, p) => {
                if let Some(f) = fetching.filter(|f| f.id == id) {
                    f.progress = Some(p);
                }
            }
            // Not the open dialog's: it was cancelled, and dropping the
            // result removes its checkout.
            Report::Opened(id, ..) if fetching.as_deref().is_none_or(|f| f.id != id) => {}
            Report::Opened(_, result, diffs) => {
                let update = fetching.as_deref().is_some_and(|f| f.update);
                self.dialog = None;
                let typed = self.typed.take();
                let wanted = self.preselect.take();
                match result {
                    Err(e) => self.source_failed(typed, e),
                    Ok(o) if update => self.install_picks_diffed(Box::new(Pick::new(o)), *diffs),
                    Ok(o) if o.found.is_empty() => {
                        let why = format!(
                            "no skills in {}: a skill is a folder holding a SKILL.md",
                            o.label
                        );
                        self.source_failed(typed, why)
                    }
                    Ok(o) => {
                        let mut pick = Pick::new(o);
                        if let Some(name) = wanted {
                            pick.preselect(&name);
                        }
                        self.dialog = Some(Dialog::Pick(Box::new(pick)))
                    }
                }
            }
            Report::Searching(id) => {
                if let Some(Dialog::Results(r)) = &mut self.dialog {
                    r.tick(id);
                }
            }
            Report::Found(id, found) => self.found(id, found),
            Report::Read(id, got) => {
                if let Some(Dialog::Results(r)) = &mut self.dialog {
                    r.read(id, got);
                }
            }
            Report::Diffed(id, diffs) => self.diffed(id, *diffs),
            Report::Checked(rows) => {
                self.jobs.checking = false;
                self.checked(rows)
            }
            Report::Seeding(done, of, name) => self.seeding(done, of, &name),
            Report::Writing(id, k, name) => self.writing(id, k, name),
            Report::Wrote(id, name, result) => self.wrote(id, name, result),
            Report::Installed(id, stopped, back) => self.installs_ended(id, stopped, back),
            Report::Audited(generation) => self.audited(generation),
            Report::Seeded(result) => self.seeded(result),
            Report::Agents(generation, found) => {
                let (ctx, rows) = *found;
                self.agents_found(generation, ctx, rows);
            }
            Report::Reloaded(generation, loaded) => self.reloaded(generation, loaded),
            Report::Confirmed(generation, batch) => self.confirmed(generation, batch),
            Report::ChecksEnded(generation, failed) => self.checks_ended(generation, failed),
            Report::Cataloged(generation, filled) => self.cataloged(generation, filled),
        }
    }

    /// A source typed in the install dialog failed: the dialog comes back
    /// with the text as typed and the error inside it (an update has no
    /// dialog: the status line says why).
    fn source_failed(&mut self, typed: Option<String>, error: String) {
        match typed {
            Some(text) => self.dialog = Some(Dialog::Install(Install::failed(&text, error))),
            None => self.say(Status::error(error)),
        }
    }

    /// `U`: checks every locked skill on a worker (git ls-remote).
    pub(crate) fn check_all(&mut self) {
        if self.data.pins.is_empty() {
            return self.say(Status::info(
                "no skills from git to check: `a` adds some from owner/repo or a git URL",
            ));
        }
        if self.jobs.checking {
            return self.say(Status::info(
                "already checking the skills from git: the marks show when it ends",
            ));
        }
        self.jobs.checking = true;
        let home = self.data.home.clone();
        self.jobs.spawn(move |_, report| {
            report.send(Report::Checked(remote::check(&home, &[])));
        });
        let n = self.data.pins.len();
        self.say(Status::info(format!(
            "checking {} from git…",
            crate::tui::panes::count(n, "skill")
        )));
    }

    /// The checks are back: mark the Skills pane and sum them up.
    fn checked(&mut self, rows: Result<Vec<remote::CheckRow>, String>) {
        let rows = match rows {
            Ok(r) => r,
            Err(e) => return self.say(Status::error(e)),
        };
        let store = self.data.home.skills_dir();
        self.skills.checked = rows
            .iter()
            .map(|r| (store.join(&r.name), r.status))
            .collect();
        let count = |s| rows.iter().filter(|r| r.status == s).count();
        use remote::Status as S;
        let mut text = format!(
            "{} current, {} outdated ⇡, {} modified ✎, {} missing",
            count(S::Current),
            count(S::Outdated),
            count(S::Modified),
            count(S::Missing)
        );
        if let Some(r) = rows.iter().find(|r| r.error.is_some()) {
            let e = r.error.as_deref().unwrap_or_default();
            text.push_str(&format!("; {} could not be asked: {e}", count(S::Unknown)));
        }
        self.say(Status::info(text));
    }

    /// `u`: fetches the selected skill's source; its changes are asked
    /// about before anything is replaced.
    pub(crate) fn update_selected(&mut self) {
        let Some(e) = self.selected_entry() else {
            return self.say(crate::tui::app::no_skill());
        };
        let name = e.folder.clone();
        if self.data.pin(e).is_none() {
            return self.say(Status::error(format!(
                "'{name}' is not from git: nothing to update"
            )));
        }
        let wanted = name.clone();
        self.typed = None;
        self.open_in_background(&name, true, move |home, progress, cancel| {
            remote::open_locked(home, &wanted, progress, Some(cancel))
        });
    }

    /// Enter in the pick dialog: each picked clash is asked about first.
    pub(crate) fn install_picks(&mut self, pick: Box<Pick>) {
        self.install_picks_diffed(pick, Vec::new());
    }

    /// [`App::install_picks`] with the changes a worker already made.
    fn install_picks_diffed(&mut self, pick: Box<Pick>, diffs: Diffs) {
        let ask = pick
            .picks()
            .iter()
            .filter(|f| f.state == StoreState::Different)
            .map(|f| f.name())
            .collect();
        self.batch = Some(Batch {
            pick,
            ask,
            replace: Vec::new(),
            kept: Vec::new(),
            diffs,
            diffing: None,
        });
        self.next_clash();
    }

    /// The user's answer about replacing `name`; then the next question.
    pub(crate) fn answer_clash(&mut self, name: String, replace: bool) {
        if let Some(b) = &mut self.batch {
            match replace {
                true => b.replace.push(name),
                false => b.kept.push(name),
            }
        }
        self.next_clash();
    }

    /// Asks about the next clash, or installs once all are answered.
    fn next_clash(&mut self) {
        let Some(batch) = &mut self.batch else {
            return;
        };
        let Some(name) = batch.ask.pop_front() else {
            let batch = self.batch.take().expect("checked above");
            return self.finish_batch(batch);
        };
        let picks = batch.pick.picks();
        if !picks.iter().any(|f| f.name() == name) {
            return self.next_clash();
        }
        let Some(made) = batch.diffs.iter().position(|(n, _)| *n == name) else {
            batch.ask.push_front(name);
            return self.diff_in_background();
        };
        let changes = batch.diffs.swap_remove(made).1;
        let pending = Pending::ReplaceFound {
            changes,
            edited: remote::edited_locally(&self.data.home, &name),
            source: batch.pick.opened.label.clone(),
            name,
        };
        self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
    }

    /// Installs a checked folder, asking first when its name is taken by
    /// a different skill (the changes are worked out on a worker); the
    /// same one is said to be installed as is.
    pub(crate) fn submit_install(&mut self, src: &Path, name: String) {
        let dest = self.data.home.skills_dir().join(&name);
        if std::fs::symlink_metadata(&dest).is_err() {
            return self.install(src, false);
        }
        let new = src.to_path_buf();
        let id = self.jobs.spawn(move |id, report| {
            let changes = changes::between(&dest, &new);
            report.send(Report::Diffed(id, Box::new(vec![(name, changes)])));
        });
        self.comparing = Some((id, src.to_path_buf()));
        self.dialog = Some(comparing_gauge(id, &src.display().to_string()));
    }

    /// The folder's changes are back: ask before replacing, unless there
    /// are none.
    fn ask_to_replace(&mut self, src: PathBuf, diffs: Diffs) {
        let Some((name, changes)) = diffs.into_iter().next() else {
            return;
        };
        if changes.is_empty() {
            self.say(Status::info(format!("'{name}' is already installed as is")));
            return self.select_skill(&name);
        }
        let pending = Pending::Replace {
            src,
            edited: remote::edited_locally(&self.data.home, &name),
            name,
            changes,
        };
        self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
    }

    /// Works out on a worker the changes replacing each clash still to be
    /// asked about would make (a diff can take a while), behind a gauge
    /// that Esc cancels; [`App::diffed`] asks on once they are back.
    fn diff_in_background(&mut self) {
        let Some(batch) = &mut self.batch else {
            return;
        };
        let store = self.data.home.skills_dir();
        let wanted: Vec<Wanted> = batch
            .pick
            .picks()
            .iter()
            .filter(|f| batch.ask.contains(&f.name()))
            .filter(|f| batch.diffs.iter().all(|(n, _)| *n != f.name()))
            .map(|f| (f.name(), store.join(f.name()), f.checked.path.clone()))
            .collect();
        let id = self.jobs.spawn(move |id, report| {
            report.send(Report::Diffed(id, Box::new(diff_each(wanted))));
        });
        batch.diffing = Some(id);
        self.dialog = Some(comparing_gauge(id, &batch.pick.opened.label));
    }

    /// The changes for the prompts are back: ask on, unless Esc cancelled
    /// the wait (then nothing is installed).
    fn diffed(&mut self, id: u64, diffs: Diffs) {
        let waited = matches!(&self.dialog, Some(Dialog::Fetch(f)) if f.id == id);
        if let Some((_, src)) = self.comparing.take_if(|(job, _)| *job == id) {
            if waited {
                self.dialog = None;
                self.ask_to_replace(src, diffs);
            }
            return;
        }
        if self.batch.as_ref().is_none_or(|b| b.diffing != Some(id)) {
            return;
        }
        if !waited {
            self.batch = None;
            return;
        }
        self.dialog = None;
        if let Some(batch) = &mut self.batch {
            batch.diffing = None;
            batch.diffs.extend(diffs);
        }
        self.next_clash();
    }

    /// Installs the new picks, then replaces the clashes the user said yes
    /// to (only those are forced), one at a time on a worker behind the
    /// install's progress; Esc stops between two.
    fn finish_batch(&mut self, b: Batch) {
        // The new ones first, then the clashes the user said to replace.
        let mut order: Vec<(String, bool)> = (b.pick.picks().iter())
            .map(|f| (f.name(), f.state == StoreState::Different))
            .filter(|(name, forced)| !forced || b.replace.contains(name))
            .collect();
        order.sort_by_key(|(_, forced)| *forced);
        if order.is_empty() {
            return self.say(Status::info(format!(
                "kept the installed {}",
                b.kept.join(", ")
            )));
        }
        let (home, cancel) = (self.data.home.clone(), Cancel::default());
        let (label, of, stop) = (b.pick.opened.label.clone(), order.len(), cancel.clone());
        let kept = b.kept;
        let pick = b.pick;
        let id = self
            .jobs
            .spawn_stoppable(cancel.clone(), move |id, report| {
                let found = |name: &str| pick.opened.found.iter().find(|f| f.name() == name);
                let picks: Vec<(&Found, bool)> = (order.iter())
                    .filter_map(|(name, force)| Some((found(name)?, *force)))
                    .collect();
                let mut clashed = Vec::new();
                let stopped =
                    remote::install_one_by_one(&home, &pick.opened, &picks, &stop, |step| {
                        report.send(match step {
                            Step::Writing { k, name, .. } => {
                                Report::Writing(id, k, name.to_string())
                            }
                            Step::Wrote(name, Err(InstallError::Exists(_))) => {
                                clashed.push(name);
                                return;
                            }
                            Step::Wrote(name, r) => {
                                Report::Wrote(id, name, r.map_err(|e| e.to_string()))
                            }
                        })
                    });
                drop(picks);
                let back = (!clashed.is_empty()).then(|| Box::new((pick.opened, clashed)));
                report.send(Report::Installed(id, stopped, back));
            });
        let mut installing = Installing::new(id, &label, of, cancel);
        installing.kept = kept;
        self.dialog = Some(Dialog::Installing(installing));
        if self.wait_for_installs {
            self.settle();
        }
    }

    /// The worker is writing skill `k`.
    fn writing(&mut self, id: u64, k: usize, name: String) {
        if let Some(Dialog::Installing(i)) = &mut self.dialog
            && i.id == id
        {
            i.writing = Some((k, name));
        }
    }

    /// One skill is done: its outcome joins the list.
    fn wrote(&mut self, id: u64, name: String, result: Result<remote::Installed, String>) {
        let line = match &result {
            Ok(d) => installed_line(d),
            Err(e) => format!(
                "'{}' not installed: {e}",
                crate::core::text::sanitize_line(&name)
            ),
        };
        let Some(Dialog::Installing(i)) = &mut self.dialog else {
            return;
        };
        if i.id != id {
            return;
        }
        i.outcomes.push((line, result.is_err()));
        if let Ok(d) = result {
            // What `U` found no longer holds for what was just installed.
            self.skills.checked.remove(&d.dest);
            i.first.get_or_insert(d.name);
        }
    }

    /// The install ended: the store is read again and the first skill
    /// installed selected. All done, the dialog closes and the status line
    /// says what happened; a failure or a stop keeps it open to be read.
    fn installs_ended(&mut self, id: u64, stopped: bool, back: Option<Box<(Opened, Vec<String>)>>) {
        let Some(Dialog::Installing(i)) = &mut self.dialog else {
            return;
        };
        if i.id != id {
            return;
        }
        i.ended = true;
        let failed = i.outcomes.iter().any(|(_, f)| *f);
        let mut said = i.summary();
        if !i.kept.is_empty() {
            said.push(format!("kept the installed {}", i.kept.join(", ")));
        }
        if stopped {
            said.push(i.now());
        }
        let first = i.first.take();
        if !failed && !stopped {
            self.dialog = None;
        }
        match failed {
            true => self.say(Status::error(said.join("; "))),
            false => self.say(Status::info(said.join("; "))),
        }
        self.store_changed();
        self.reload();
        if let Some(first) = first {
            self.select_skill(&first);
        }
        if let Some(back) = back
            && !stopped
        {
            let (opened, clashed) = *back;
            self.ask_again(opened, clashed);
        }
    }

    /// Picks found installed meanwhile (by another program) were left
    /// alone: each is asked about like the other clashes, with its diff.
    fn ask_again(&mut self, opened: Opened, clashed: Vec<String>) {
        let mut pick = Pick::new(opened);
        for (f, picked) in pick.opened.found.iter_mut().zip(pick.picked.iter_mut()) {
            *picked = clashed.contains(&f.name());
            if *picked {
                f.state = StoreState::Different;
            }
        }
        self.dialog = None;
        self.install_picks(Box::new(pick));
    }
}

/// How often a running search's spinner steps.
const SPIN_EVERY: Duration = Duration::from_millis(150);
/// How long a cancelled search or reading is waited for.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// The gauge shown while job `id` compares `label`'s skills with the
/// installed ones; Esc cancels the install.
fn comparing_gauge(id: u64, label: &str) -> Dialog {
    let mut wait = Fetch::new(id, label, Cancel::default());
    wait.progress = Some(Progress {
        phase: "Comparing with the installed skills".to_string(),
        percent: 0,
    });
    Dialog::Fetch(wait)
}

/// A skill's name, where it is installed and where its replacement is.
type Wanted = (String, PathBuf, PathBuf);

/// The changes replacing each clashing skill of `opened` would make.
fn diffs_of(home: &Home, opened: &remote::Opened) -> Diffs {
    let store = home.skills_dir();
    let wanted = opened
        .found
        .iter()
        .filter(|f| f.state == StoreState::Different)
        .map(|f| (f.name(), store.join(f.name()), f.checked.path.clone()))
        .collect();
    diff_each(wanted)
}

/// The changes replacing each installed skill by its replacement makes.
fn diff_each(wanted: Vec<Wanted>) -> Diffs {
    wanted
        .into_iter()
        .map(|(name, dest, new)| {
            let changes = changes::between(&dest, &new);
            (name, changes)
        })
        .collect()
}

/// What installing one pick did, for the status line.
fn installed_line(i: &remote::Installed) -> String {
    let name = crate::core::text::sanitize_line(&i.name);
    let line = match (&i.changes, i.unchanged) {
        (_, true) => format!("'{name}' is current: already installed as is"),
        (Some(c), _) => format!("replaced '{name}' ({})", c.summary()),
        (None, _) => format!("installed '{name}'"),
    };
    // A project copy kept as the user edited it is said with the rest.
    let kept = i.kept_copies.iter().map(|k| format!("; {k}"));
    line + &crate::core::text::sanitize_line(&kept.collect::<String>())
}
