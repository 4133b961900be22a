//! Work that must not run on the draw or key path (git fetches, `check`,
//! registry searches):
//! each job runs on a thread of its own and reports through one channel the
//! App drains. The event loop is woken by `wake`; tests wait with `settle`.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::core::agents::scan::Ctx as AgentCtx;
use crate::core::cao::store::Seeded;
use crate::core::sources::changes::Changes;
use crate::core::sources::git::{Cancel, Progress, SkillMd};
use crate::core::sources::remote::{CheckRow, Installed, Opened};
use crate::core::sources::search::Hit;
use crate::tui::events::AppEvent;
use crate::tui::model::AgentRow;

/// Skill name and the changes replacing it makes.
pub type Diffs = Vec<(String, Changes)>;

/// What a job reports; `id` tells a job from a later one of the same kind.
pub enum Report {
    Progress(u64, Progress),
    /// The end of a job: a source opened for picking, with the changes
    /// replacing each installed skill would make when the job is an update
    /// (a diff can take a while: it is made here, not on the UI thread).
    Opened(u64, Result<Opened, String>, Box<Diffs>),
    /// The end of a job: the changes replacing the clashes `a` picked
    /// would make, asked for before the first replace prompt.
    Diffed(u64, Box<Diffs>),
    /// The end of a job: every locked skill's state.
    Checked(Result<Vec<CheckRow>, String>),
    /// Seeding: (done, of), and the skill being seeded now.
    Seeding(usize, usize, String),
    /// The end of a job: what seeding did.
    Seeded(Result<Seeded, String>),
    /// A registry search (or a result's SKILL.md) still being fetched: the
    /// spinner steps on.
    Searching(u64),
    /// The end of a job: a registry search's results.
    Found(u64, Result<Vec<Hit>, String>),
    /// The pick dialog's install is writing skill `.1` (from 1), `.2`.
    Writing(u64, usize, String),
    /// One skill of the pick dialog's install is done (or failed).
    Wrote(u64, String, Result<Installed, String>),
    /// The end of a job: the pick dialog's install ended (true: stopped
    /// by Esc before the last pick), with the source handed back when
    /// picks (named) turned out to clash with skills installed meanwhile.
    Installed(u64, bool, Option<Box<(Opened, Vec<String>)>>),
    /// The end of a job: the store's audit reports are up to date.
    Audited(u64),
    /// The end of a job: a search result's SKILL.md, read before installing.
    Read(u64, Result<SkillMd, String>),
    /// The end of a job: the agents discovery number `.0` found.
    Agents(u64, Box<(Option<AgentCtx>, Vec<AgentRow>)>),
    /// The end of a job: pane 4's catalog number `.0`.
    Cataloged(u64, Result<Box<crate::tui::panes::catalog::Filled>, String>),
    /// Verdicts the checks of the first listing (number `.0`) confirmed.
    Confirmed(u64, crate::core::cao::checking::Batch),
    /// The end of a job: the checks number `.0` ended (with why, when
    /// they crashed).
    ChecksEnded(u64, Option<String>),
    /// The end of a job: what reload number `.0` read.
    Reloaded(u64, Result<Box<crate::tui::model::Loaded>, String>),
}

impl Report {
    fn ends_a_job(&self) -> bool {
        !matches!(
            self,
            Report::Progress(..)
                | Report::Confirmed(..)
                | Report::Seeding(..)
                | Report::Searching(..)
                | Report::Writing(..)
                | Report::Wrote(..)
        )
    }
}

/// One worker at a time for work whose newest result alone counts (agent
/// discovery, a reload, pane 4's catalog, the store's audit): an ask while
/// one runs waits (a newer ask replaces it) and starts when it ends, and a
/// result whose generation is not the newest is stale.
pub struct Latest<T> {
    generation: u64,
    running: bool,
    waiting: Option<T>,
}

impl<T> Default for Latest<T> {
    fn default() -> Self {
        Latest {
            generation: 0,
            running: false,
            waiting: None,
        }
    }
}

impl<T> Latest<T> {
    /// Asks for a result from `input`: the generation and input of the
    /// worker to start now, or `None` while one runs (it waits for it).
    pub fn ask(&mut self, input: T) -> Option<(u64, T)> {
        self.generation += 1;
        self.waiting = Some(input);
        self.start_waiting()
    }

    /// The waiting ask, to start now, when no worker runs.
    pub fn start_waiting(&mut self) -> Option<(u64, T)> {
        if self.running {
            return None;
        }
        let input = self.waiting.take()?;
        self.running = true;
        Some((self.generation, input))
    }

    /// A result newer than any worker's was made on the UI thread: theirs
    /// is stale, and a waiting ask (older than it) is dropped.
    pub fn made_here(&mut self) {
        self.generation += 1;
        self.waiting = None;
    }

    /// A worker ended: whether its result is the newest.
    pub fn ended(&mut self, generation: u64) -> bool {
        self.running = false;
        generation == self.generation
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }
}

pub struct Jobs {
    tx: Sender<Report>,
    rx: Receiver<Report>,
    /// The event loop's channel: a report wakes it.
    pub wake: Option<Sender<AppEvent>>,
    running: usize,
    last_id: u64,
    /// A `U` check is running: a second one would only repeat it.
    pub checking: bool,
    /// Seeding is running: a second one would race it.
    pub seeding: bool,
    /// Cancellable jobs (fetches), stopped and waited for when the App
    /// goes, so quitting mid-fetch leaves no git running and no staging.
    stoppable: Vec<(Cancel, JoinHandle<()>)>,
}

impl Default for Jobs {
    fn default() -> Jobs {
        let (tx, rx) = mpsc::channel();
        Jobs {
            tx,
            rx,
            wake: None,
            running: 0,
            last_id: 0,
            checking: false,
            seeding: false,
            stoppable: Vec::new(),
        }
    }
}

/// A running job's way to report.
#[derive(Clone)]
pub struct Reporter {
    tx: Sender<Report>,
    wake: Option<Sender<AppEvent>>,
}

impl Reporter {
    pub fn send(&self, r: Report) {
        let _ = self.tx.send(r);
        if let Some(w) = &self.wake {
            let _ = w.send(AppEvent::Worked);
        }
    }
}

impl Jobs {
    /// Runs `work` on a new thread; returns its id.
    pub fn spawn(&mut self, work: impl FnOnce(u64, Reporter) + Send + 'static) -> u64 {
        self.start(work).0
    }

    /// `spawn` for work that stops soon after `cancel` is set.
    pub fn spawn_stoppable(
        &mut self,
        cancel: Cancel,
        work: impl FnOnce(u64, Reporter) + Send + 'static,
    ) -> u64 {
        let (id, handle) = self.start(work);
        self.stoppable.retain(|(_, h)| !h.is_finished());
        self.stoppable.push((cancel, handle));
        id
    }

    fn start(
        &mut self,
        work: impl FnOnce(u64, Reporter) + Send + 'static,
    ) -> (u64, JoinHandle<()>) {
        self.last_id += 1;
        self.running += 1;
        let id = self.last_id;
        let reporter = Reporter {
            tx: self.tx.clone(),
            wake: self.wake.clone(),
        };
        (id, std::thread::spawn(move || work(id, reporter)))
    }

    pub fn busy(&self) -> bool {
        self.running > 0
    }

    /// The reports that arrived, without waiting.
    pub fn drain(&mut self) -> Vec<Report> {
        let got: Vec<Report> = self.rx.try_iter().collect();
        self.count_ends(&got);
        got
    }

    /// The next report, waiting up to `limit` (for tests and the e2e-free
    /// paths that have no event loop).
    pub fn next(&mut self, limit: Duration) -> Option<Report> {
        match self.rx.recv_timeout(limit) {
            Ok(r) => {
                self.count_ends(std::slice::from_ref(&r));
                Some(r)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    fn count_ends(&mut self, got: &[Report]) {
        let ended = got.iter().filter(|r| r.ends_a_job()).count();
        self.running = self.running.saturating_sub(ended);
    }
}

impl Drop for Jobs {
    fn drop(&mut self) {
        for (cancel, _) in &self.stoppable {
            cancel.store(true, Ordering::SeqCst);
        }
        for (_, handle) in self.stoppable.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Latest;

    // One worker at a time; an ask while it runs waits, a newer ask
    // replaces it; the running one's result is then stale.
    #[test]
    fn asks_wait_for_the_running_worker_and_the_newest_wins() {
        let mut l = Latest::default();
        let (first, a) = l.ask("a").expect("none runs: starts now");
        assert_eq!(a, "a");
        assert_eq!(l.ask("b"), None);
        assert_eq!(l.ask("c"), None);
        assert!(!l.ended(first), "two asks came since");
        let (second, c) = l.start_waiting().expect("the newest waits");
        assert_eq!(c, "c");
        assert_eq!(l.start_waiting(), None, "one at a time");
        assert!(l.ended(second));
        assert_eq!(l.start_waiting(), None, "nothing waits");
    }

    // A result made on the UI thread is newer than the worker's under way
    // and than an ask waiting for it, which is dropped.
    #[test]
    fn a_result_made_here_makes_the_worker_stale_and_drops_the_waiting_ask() {
        let mut l = Latest::default();
        let (running, ()) = l.ask(()).unwrap();
        assert_eq!(l.ask(()), None);
        l.made_here();
        assert!(!l.ended(running));
        assert_eq!(l.start_waiting(), None);
    }
}
