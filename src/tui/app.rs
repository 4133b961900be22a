//! The TUI's state: the model (`Data`, focus, status), the panes and the
//! open dialog, and what each command does. Every rule comes from the core;
//! this file only decides which core function a command calls and what to
//! show.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use crate::core::cao::checking::{Batch, Checking};
use crate::core::cao::profile::{self, Profile};
use crate::core::cao::store::{self, Entry, Home};
use crate::core::cao::{editor, undo};
use crate::core::sources::remote;
use crate::tui::clipboard::{Clipboard, CopyOutcome};
use crate::tui::dialogs::{
    self, Confirm, Dialog, Edit, Help, Install, ListAgents, Outcome, Pending, Seed,
};
use crate::tui::events::PreviewKey;
use crate::tui::jobs::{Jobs, Latest};
use crate::tui::keymap::{self, Cmd, Copies, Ctx, Move};
use crate::tui::layout::Areas;
use crate::tui::markdown::{Highlighter, Rendered};
use crate::tui::panes::agent_view;
use crate::tui::panes::catalog::CatalogPane;
use crate::tui::panes::preview::PreviewPane;
use crate::tui::panes::profiles::{self as profiles_pane, ProfilesPane};
use crate::tui::panes::skills::{self as skills_pane, SkillsPane};
use crate::tui::theme::Theme;

use crate::core::agents::asked;
use crate::core::agents::scan::Ctx as AgentCtx;
use crate::tui::model::{AgentRow, Data, Loaded, Mode, Pane, ProfileRow, Status, read_pins};
use crate::tui::panes::profiles::Tick;

/// The selected skill (folder, source dir) and the profile's (folder).
type Picked = (Option<(String, std::path::PathBuf)>, Option<String>);

pub struct App {
    pub data: Data,
    pub theme: Theme,
    /// How many colours the terminal shows: each frame is mapped down to it.
    pub depth: crate::tui::colors::Depth,
    pub hl: Arc<Highlighter>,
    pub clipboard: Clipboard,
    pub skills: SkillsPane,
    pub preview: PreviewPane,
    pub profiles: ProfilesPane,
    pub catalog: CatalogPane,
    pub focus: Pane,
    pub mode: Mode,
    pub dialog: Option<Dialog>,
    pub status: Option<Status>,
    pub quit: bool,
    /// Counts reloads: the watcher follows the dirs again after each.
    pub reloads: u64,
    /// The signal that ended the UI, for the exit status (128 + it).
    pub exit_signal: Option<i32>,
    /// Where the update pass laid the panes out.
    pub areas: Areas,
    /// Work running off the key path (fetches, checks).
    pub jobs: Jobs,
    /// A file `E` asked to open in the user's editor: the event loop
    /// hands it the terminal, then calls [`App::edited`].
    pub external_edit: Option<std::path::PathBuf>,
    /// The toggles written this session, oldest first: `z` takes the last
    /// back, and enabling a skill puts it where its disable took it from.
    pub toggles: Vec<undo::Toggled>,
    /// Picks from a source waiting on their replace prompts.
    pub(crate) batch: Option<crate::tui::dialogs::pick::Batch>,
    /// A folder to install whose changes to the installed skill a worker
    /// is working out (the job's id, the folder).
    pub(crate) comparing: Option<(u64, std::path::PathBuf)>,
    /// The install dialog's text while its source is opened: a failure
    /// brings the dialog back with it, and the error inside.
    pub(crate) typed: Option<String>,
    /// The skill a search result named: picked when its source opens.
    pub(crate) preselect: Option<String>,
    /// Where agent discovery runs: on a worker in the real UI, so that no
    /// frame or key waits for it.
    pub(crate) agents_mode: AgentsMode,
    /// Agent discovery's worker: each reload asks for a new one, and a
    /// worker's result for an older one is dropped.
    pub discovery: Latest<()>,
    /// The pick dialog's install waits for its worker before the key
    /// returns (App::new: tests and benches); the real UI draws its
    /// progress instead.
    pub wait_for_installs: bool,
    /// The store's audit reports, made on a worker (see `tui::audits`).
    pub audits: crate::tui::audits::Cache,
    /// The audit's worker: a reload while it runs asks for another.
    auditing: Latest<()>,
    /// `r` and file events read the store on a worker (see `reload_later`).
    reloading: Latest<()>,
    /// Whether the reload that lands says so (`r` does; a file event not).
    reload_said: bool,
    /// Pane 4's catalog over a big store is computed on a worker.
    cataloging: Latest<crate::tui::panes::catalog::Ask>,
    /// Stores of more skills than this get their catalog on a worker once
    /// the UI runs (a test lowers it).
    pub catalog_inline_max: usize,
    /// No CAO installed and no CAO home: the first screen is about the
    /// agents found here, the first one selected in pane 3 when discovery
    /// lands. A key clears it, so the selection never jumps under the
    /// user's hands.
    pub agents_first: bool,
    /// The store's first listing, drawn before any SKILL.md is read and
    /// confirmed on a worker, the rows on screen first (see
    /// `core::cao::checking`); `None` once every verdict is confirmed.
    pub checking: Option<Checking>,
    /// The confirming worker: its generation (a newer listing makes its
    /// batches stale) and the flag that stops it.
    checks: (u64, Arc<AtomicBool>),
    /// Batches landed since the listing was last rebuilt from them.
    checks_landed: bool,
    /// Agent discovery and the audit start once the checks end: both
    /// read the store, which the checks are reading.
    workers_after_checks: bool,
    /// The file watches were (re)set while the checks ran: the store is
    /// read again once they end (see [`App::rewatched`]).
    rewatched: bool,
}

/// How the App finds the agents (see [`App::start_agents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AgentsMode {
    /// On the calling thread, at each reload (tests, benches).
    Inline,
    /// Not yet: the first frame is drawn without them.
    Deferred,
    /// On a worker, at each reload; the last result stays on screen,
    /// marked as refreshing, until the new one arrives.
    Worker,
}

impl App {
    /// The App with everything read, agents included.
    pub fn new(home: Home, theme: Theme) -> App {
        App::build(home, theme, false, false)
    }

    /// The App for the real UI's first frame: the store listed from its
    /// folder names and the verdicts the run before kept, no SKILL.md
    /// read and every row marked unconfirmed; [`App::start_workers`]
    /// confirms them on a worker, then finds the agents and audits.
    pub fn checks_later(home: Home, theme: Theme) -> App {
        App::build(home, theme, true, true)
    }

    /// What the real UI starts once its event loop listens: the checks
    /// of the first listing, then (or at once, when nothing is left to
    /// check) agent discovery and the audit.
    pub fn start_workers(&mut self) {
        if self.checking.is_none() {
            self.start_agents();
            return self.start_audits();
        }
        self.workers_after_checks = true;
        self.start_checks();
    }

    /// Confirms the first listing on a worker: the rows on screen first,
    /// then the others in batches, each shown as it lands.
    pub fn start_checks(&mut self) {
        let Some(checking) = &self.checking else {
            return;
        };
        let listing = &self.data.listing;
        let rows = usize::from(self.skills.list_area.height);
        let on_screen: Vec<(std::path::PathBuf, String)> = (self.skills.filtered.iter())
            .skip(self.skills.offset)
            .take(rows)
            .filter_map(|&i| listing.entries.get(i))
            .map(|e| (e.source_dir.clone(), e.folder.clone()))
            .collect();
        let (order, first) = checking.order(&on_screen);
        let work = checking.work();
        self.checks.1.store(true, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        self.checks = (self.checks.0 + 1, Arc::clone(&stop));
        let generation = self.checks.0;
        self.jobs.spawn(move |_, reporter| {
            let send = |b: Batch| reporter.send(crate::tui::jobs::Report::Confirmed(generation, b));
            let ran = caught(|| work.run(&order, first, &stop, send));
            reporter.send(crate::tui::jobs::Report::ChecksEnded(generation, ran.err()));
        });
    }

    /// A batch the checks confirmed, put into the listing on screen: its
    /// rows only, unless entries went away or moved; what depends on the
    /// whole listing follows once the reports that came with it are taken
    /// ([`App::show_checks`]).
    pub(crate) fn confirmed(&mut self, generation: u64, batch: Batch) {
        if generation != self.checks.0 || self.checking.is_none() {
            return;
        }
        let picked = self.picked();
        // No worker holds the listing while it is being checked (pane 4
        // computes nothing from it): no copy is made.
        let listing = Arc::make_mut(&mut self.data.listing);
        let Some(checking) = self.checking.as_mut() else {
            return;
        };
        let applied = checking.apply(batch, listing);
        let data = &mut self.data;
        data.valid = (0..data.listing.entries.len())
            .filter(|&i| data.listing.entries[i].status == store::Status::Ok)
            .collect();
        match applied.reshaped {
            true => self.put_picked_again(picked),
            false => self
                .skills
                .rows_changed(&self.data.listing, &applied.changed),
        }
        self.checks_landed = true;
    }

    /// The checks' worker ended: a crash leaves verdicts unconfirmed, so
    /// the store is listed whole instead.
    pub(crate) fn checks_ended(&mut self, generation: u64, failed: Option<String>) {
        if generation != self.checks.0 || self.checking.is_none() {
            return;
        }
        self.show_checks();
        if let Some(e) = failed {
            self.say(Status::error(format!("checking the skills failed: {e}")));
            self.stop_checks();
            self.reload();
        }
    }

    /// After the batches that landed: the filter and pane 3 and 4 again;
    /// once every verdict is confirmed, the verdicts kept, and the workers
    /// that waited for it start.
    pub(crate) fn show_checks(&mut self) {
        if !std::mem::take(&mut self.checks_landed) {
            return;
        }
        self.skills.refilter(&self.data.listing);
        // Its worker kept the verdicts it found before it ended.
        if self.checking.as_ref().is_some_and(Checking::done) {
            self.checking = None;
        }
        self.refresh_profile();
        if self.checking.is_none() {
            self.after_checks();
        }
    }

    /// The file watches were (re)set: a change made before them was seen
    /// by none, so the store is read again, on a worker. While the first
    /// listing is being checked, that waits for the checks: they read
    /// every folder anyway, and a reload beside them would read the store
    /// twice at once (and, landing first, replace their work).
    pub fn rewatched(&mut self) {
        match self.checking.is_some() {
            true => self.rewatched = true,
            false => self.reload_later(false),
        }
    }

    /// The checks are over (done, or a whole listing replaced them).
    fn stop_checks(&mut self) {
        self.checks.1.store(true, Ordering::Relaxed);
        self.checks.0 += 1;
        self.checking = None;
        self.checks_landed = false;
        self.after_checks();
    }

    fn after_checks(&mut self) {
        if std::mem::take(&mut self.workers_after_checks) {
            self.start_agents();
            self.start_audits();
        }
        // The watches were set while the store was being checked: what
        // changed before them is read now. The agents are not: their
        // discovery starts after the checks, so after the watches.
        if std::mem::take(&mut self.rewatched) && self.agents_mode == AgentsMode::Worker {
            self.reload_on_worker(false);
        }
    }

    /// The App for a first frame: everything read but the agents, which
    /// [`App::start_agents`] finds on a worker (the real UI calls it once
    /// its event loop is listening).
    pub fn agents_later(home: Home, theme: Theme) -> App {
        App::build(home, theme, true, false)
    }

    /// From now on agent discovery runs on a worker, starting now; its
    /// result reaches [`App::agents_found`] through the jobs channel.
    pub fn start_agents(&mut self) {
        if self.agents_mode != AgentsMode::Worker {
            self.agents_mode = AgentsMode::Worker;
            self.find_agents();
        }
    }

    /// Asks for a fresh discovery; what is on screen stays, marked as
    /// refreshing, until it arrives.
    fn find_agents(&mut self) {
        self.data.agents_refreshing = true;
        if let Some((generation, ())) = self.discovery.ask(()) {
            self.spawn_discovery(generation);
        }
    }

    fn spawn_discovery(&mut self, generation: u64) {
        let (home, cwd) = (self.data.home.clone(), self.data.agent_cwd.clone());
        let asked = self.data.asked_agents.clone();
        self.jobs.spawn(move |_, reporter| {
            let found = agent_view::load(&home, cwd.as_deref(), &asked);
            reporter.send(crate::tui::jobs::Report::Agents(
                generation,
                Box::new(found),
            ));
        });
    }

    /// From now on the store is audited on a worker, now and after each
    /// reload; the Skills pane and the Preview draw from its reports.
    pub fn start_audits(&mut self) {
        if !self.audits.started() {
            self.audits.start();
            self.skills.audits = self.audits.clone();
            self.preview.audits = self.audits.clone();
            self.audit_store();
        }
    }

    /// Audits on a worker the folders that changed (one worker at a
    /// time: a reload meanwhile asks for the next when it ends).
    fn audit_store(&mut self) {
        if let Some((generation, ())) = self.auditing.ask(()) {
            self.spawn_audit(generation);
        }
    }

    fn spawn_audit(&mut self, generation: u64) {
        let folders: Vec<std::path::PathBuf> = (self.data.listing.entries.iter())
            .map(|e| e.checked.path.clone())
            .collect();
        let cache = self.audits.clone();
        self.jobs.spawn(move |_, reporter| {
            if cache.refresh(&folders) > 0 {
                // It read the files of each folder it audited: what it
                // freed goes back (off the UI thread: a trim takes a while).
                crate::tui::memory::give_back_memory();
            }
            reporter.send(crate::tui::jobs::Report::Audited(generation));
        });
    }

    /// An audit worker ended: another runs when a reload asked for one.
    pub(crate) fn audited(&mut self, generation: u64) {
        // Its reports went into the cache: stale or not, they stand.
        let _ = self.auditing.ended(generation);
        if let Some((generation, ())) = self.auditing.start_waiting() {
            self.spawn_audit(generation);
        }
    }

    fn build(home: Home, theme: Theme, agents_later: bool, checks_later: bool) -> App {
        let asked = asked_agents(&home.user_home);
        let mut app = App {
            data: Data {
                home,
                listing: Default::default(),
                profiles: Vec::new(),
                valid: Vec::new(),
                pins: Default::default(),
                agents: Vec::new(),
                agents_refreshing: false,
                agent_ctx: None,
                agent_cwd: None,
                asked_agents: asked,
            },
            theme,
            depth: Default::default(),
            hl: Arc::new(Highlighter::new()),
            clipboard: Clipboard::new(),
            skills: SkillsPane::default(),
            preview: PreviewPane::default(),
            profiles: ProfilesPane::default(),
            catalog: CatalogPane::default(),
            focus: Pane::Skills,
            mode: Mode::Normal,
            dialog: None,
            status: None,
            quit: false,
            reloads: 0,
            exit_signal: None,
            areas: Areas::default(),
            jobs: Jobs::default(),
            batch: None,
            external_edit: None,
            toggles: Vec::new(),
            comparing: None,
            typed: None,
            preselect: None,
            agents_mode: match agents_later {
                true => AgentsMode::Deferred,
                false => AgentsMode::Inline,
            },
            discovery: Latest::default(),
            wait_for_installs: !agents_later,
            audits: Default::default(),
            auditing: Latest::default(),
            reloading: Latest::default(),
            reload_said: false,
            cataloging: Latest::default(),
            catalog_inline_max: CATALOG_INLINE_MAX,
            agents_first: false,
            checking: None,
            checks: Default::default(),
            checks_landed: false,
            workers_after_checks: false,
            rewatched: false,
        };
        match checks_later {
            true => app.reload_unchecked(),
            false => app.reload(),
        }
        let home = &app.data.home;
        let shown = crate::tui::panes::tilde(&home.root, &home.user_home);
        let no_home = std::fs::symlink_metadata(&home.root).is_err();
        if app.data.without_cao() {
            // Someone who runs agents without CAO: their agents, not CAO's
            // profiles, and nothing said in CAO's words.
            app.agents_first = true;
            app.focus = Pane::Profiles;
            app.select_first_agent();
            app.status = Some(Status::info(format!(
                "No CAO here: pane 3 lists the agents found on this machine; S makes a skill store in {shown}"
            )));
        } else if no_home {
            // A typo in --home is not made into a store unasked: S is the ask.
            app.status = Some(Status::error(format!(
                "{shown} does not exist: S creates it and seeds the defaults"
            )));
        } else if app.data.listing.entries.is_empty() {
            app.open_seed();
            app.status = Some(Status::info(format!(
                "No skills in {shown} yet: pick the defaults to seed (Enter), or Esc"
            )));
        }
        app
    }

    /// The first reload of the real UI: the store listed from what is
    /// known without reading a SKILL.md (see [`App::checks_later`]).
    fn reload_unchecked(&mut self) {
        let mut checking = None;
        let loaded = Loaded::read_with(&self.data.home, |home| {
            let (started, listing) = Checking::start(home);
            checking = Some(started);
            listing
        });
        let checking = checking.expect("read_with lists the store");
        self.reloading.made_here();
        self.skills.refreshing = false;
        self.put_on_screen(loaded, true);
        // Done already: nothing to confirm (no folder in any search dir).
        if !checking.done() {
            self.checking = Some(checking);
        }
    }

    /// Re-reads the store and profiles, keeping the selections by name.
    pub fn reload(&mut self) {
        let loaded = Loaded::read(&self.data.home);
        // A worker's reload under way read before this one: it is stale.
        self.reloading.made_here();
        self.skills.refreshing = false;
        self.put_on_screen(loaded, true);
    }

    /// What a reload read, shown: the selections kept by name. `agents`:
    /// find the agents again too (a worker's reload started that already).
    fn put_on_screen(&mut self, loaded: Loaded, agents: bool) {
        // A whole listing: the first one's checks are over.
        if self.checking.is_some() {
            self.stop_checks();
        }
        self.reloads += 1;
        let profile = self.selected_profile().map(|p| p.listed.name.clone());
        let data = &mut self.data;
        data.home.settings = loaded.settings;
        data.profiles = loaded.profiles;
        data.pins = loaded.pins;
        self.put_listing(loaded.listing);
        if agents {
            self.refresh_agents();
        }
        if self.audits.started() {
            self.audit_store();
        }
        self.preview.forget_lints();
        if let Some(name) = profile
            && let Some(pos) = self
                .data
                .profiles
                .iter()
                .position(|p| p.listed.name == name)
        {
            self.profiles.sel = pos;
        }
        // The rendered preview stays: its key holds the file's mtime.
        self.refresh_profile();
    }

    /// A new listing on screen, the selected skill and the profile's
    /// checklist row kept by name. The same listing as on screen (a
    /// reload that found nothing changed) costs nothing more.
    fn put_listing(&mut self, listing: store::Listing) {
        if *self.data.listing == listing {
            return;
        }
        let picked = self.picked();
        self.put_picked(listing, picked);
    }

    /// The listing on screen changed in place (entries went away or
    /// moved): the panes' rows again, with what [`App::picked`] found
    /// selected before.
    fn put_picked_again(&mut self, (skill, checked): Picked) {
        if !self.skills.set_listing(&self.data.listing, skill) {
            self.preview.scroll = 0;
        }
        if let Some(pos) = checked.and_then(|f| self.data.valid_position(&f)) {
            self.profiles.check_sel = pos;
        }
    }

    /// What the Skills and Profiles panes have selected: the skill (its
    /// folder and source dir) and the profile's skill (its folder), found
    /// again in the next listing.
    fn picked(&self) -> Picked {
        let skill = self
            .selected_entry()
            .map(|e| (e.folder.clone(), e.source_dir.clone()));
        let checked = self
            .data
            .valid_skill(self.profiles.check_sel)
            .map(|e| e.folder.clone());
        (skill, checked)
    }

    /// `listing` on screen, with what [`App::picked`] found selected in
    /// the one before.
    fn put_picked(&mut self, listing: store::Listing, (skill, checked): Picked) {
        let data = &mut self.data;
        data.listing = std::sync::Arc::new(listing);
        data.valid = (0..data.listing.entries.len())
            .filter(|&i| data.listing.entries[i].status == store::Status::Ok)
            .collect();
        if !self.skills.set_listing(&self.data.listing, skill) {
            // The skill went away: the next one starts at its top.
            self.preview.scroll = 0;
        }
        // By name: a skill added above must not shift Space onto another one.
        if let Some(pos) = checked.and_then(|f| self.data.valid_position(&f)) {
            self.profiles.check_sel = pos;
        }
    }

    /// `r`, or files changed outside: the store and profiles read again,
    /// on a worker once the UI runs (at 10,000 skills a listing takes
    /// longer than a key may), what is on screen staying until it lands.
    pub fn reload_later(&mut self, said: bool) {
        if self.agents_mode != AgentsMode::Worker {
            self.reload();
            if said {
                self.say(Status::info("reloaded"));
            }
            return;
        }
        self.reload_on_worker(said);
        // Discovery reads no listing: it starts now, beside the reload.
        self.refresh_agents();
    }

    /// The store and profiles read again on a worker, what is on screen
    /// staying until it lands.
    fn reload_on_worker(&mut self, said: bool) {
        self.reload_said |= said;
        self.skills.refreshing = true;
        if let Some((generation, ())) = self.reloading.ask(()) {
            self.spawn_reload(generation);
        }
    }

    fn spawn_reload(&mut self, generation: u64) {
        let home = self.data.home.clone();
        self.jobs.spawn(move |_, reporter| {
            let loaded = caught(|| Loaded::read(&home)).map(Box::new);
            reporter.send(crate::tui::jobs::Report::Reloaded(generation, loaded));
        });
    }

    /// We wrote and read back only what we wrote: a reload worker under
    /// way may have read before, so its result is dropped and the store
    /// read again (else it would put the state of before on screen).
    fn outdate_reload(&mut self) {
        if self.reloading.running() {
            // Waits for the one running: `ask` starts nothing now.
            let _ = self.reloading.ask(());
        }
    }

    /// A reload worker's result: dropped when a reload came since (one
    /// asked for then starts now), else put on screen.
    pub(crate) fn reloaded(&mut self, generation: u64, loaded: Result<Box<Loaded>, String>) {
        if !self.reloading.ended(generation) {
            match self.reloading.start_waiting() {
                Some((generation, ())) => self.spawn_reload(generation),
                // Read again on the UI thread since: what is shown is newer
                // (and the status says what that action did).
                None => (self.skills.refreshing, self.reload_said) = (false, false),
            }
            return;
        }
        let loaded = match loaded {
            Ok(loaded) => *loaded,
            Err(e) => {
                (self.skills.refreshing, self.reload_said) = (false, false);
                return self.say(Status::error(format!("reloading failed: {e}")));
            }
        };
        self.skills.refreshing = false;
        // Discovery started with the settings of before: again if they changed.
        let settings_changed = loaded.settings != self.data.home.settings;
        self.put_on_screen(loaded, settings_changed);
        if std::mem::take(&mut self.reload_said) {
            self.say(Status::info("reloaded"));
        }
    }

    /// The agents again, after a reload or a change to what skilltui gave
    /// them: on a worker once the UI runs, with what skilltui gave (a
    /// small file) read now, so that the checklists are right at once.
    fn refresh_agents(&mut self) {
        let data = &mut self.data;
        match self.agents_mode {
            AgentsMode::Inline => {
                (data.agent_ctx, data.agents) =
                    agent_view::load(&data.home, data.agent_cwd.as_deref(), &data.asked_agents);
                self.skills.agent_marks = agent_view::marks(&self.data.agents);
            }
            AgentsMode::Deferred => data.agents_refreshing = true,
            AgentsMode::Worker => {
                agent_view::regive(&data.home, &mut data.agents);
                self.find_agents();
            }
        }
    }

    /// The agents a worker found for discovery number `generation`. A
    /// reload since it started asked for a newer one: this one is dropped
    /// and the newer one started.
    pub fn agents_found(&mut self, generation: u64, ctx: Option<AgentCtx>, rows: Vec<AgentRow>) {
        if !self.discovery.ended(generation) {
            if self.agents_mode == AgentsMode::Worker
                && let Some((generation, ())) = self.discovery.start_waiting()
            {
                self.spawn_discovery(generation);
            }
            return;
        }
        self.data.agents_refreshing = false;
        (self.data.agent_ctx, self.data.agents) = (ctx, rows);
        self.skills.agent_marks = agent_view::marks(&self.data.agents);
        // Counted as a reload, so the watcher follows the agents' dirs too.
        self.reloads += 1;
        self.select_first_agent();
        self.refresh_profile();
    }

    /// For a first screen about the agents ([`App::agents_first`]): the
    /// first detected agent selected in pane 3 (else the first listed),
    /// and pane 4 showing what it finds and what its model sees.
    fn select_first_agent(&mut self) {
        if !self.agents_first || self.data.agents.is_empty() {
            return;
        }
        self.agents_first = false;
        let agents = &self.data.agents;
        let first = agents.iter().position(|a| a.detected).unwrap_or(0);
        self.profiles.sel = self.data.profiles.len() + first;
        self.refresh_profile();
    }

    /// Re-reads one profile (after our own write) and the catalog.
    fn reload_profile(&mut self, name: &str) {
        self.outdate_reload();
        let home = &self.data.home;
        if let Some(row) = self
            .data
            .profiles
            .iter_mut()
            .find(|r| r.listed.name == name)
        {
            *row = ProfileRow::load(home, row.listed.clone(), &profile::read_env(home));
        }
        self.refresh_profile();
    }

    /// The selected profile's ticks and catalog, after it or the data changed.
    pub fn refresh_profile(&mut self) {
        self.profiles.refresh(&self.data);

        self.catalog.agent = self.profiles.selected_agent(&self.data).cloned();
        let row = self.profiles.selected(&self.data);
        let ask = self.catalog.ask(&self.data, row);
        if self.catalog.agent.is_none() && !self.data.listing.confirmed() {
            // A block from guessed verdicts could name a skill CAO refuses:
            // none is computed until every verdict is confirmed.
            self.cataloging.made_here();
            self.catalog.updating = true;
            return self.catalog.wait_for_checks();
        }
        let big = self.data.listing.entries.len() > self.catalog_inline_max;
        // The real UI (agents found on a worker, now or once the checks
        // end) computes a big store's block on a worker: the checks'
        // last batch must not wait for it.
        if self.agents_mode == AgentsMode::Inline || !big || self.catalog.agent.is_some() {
            return self.put_catalog_now(ask);
        }
        self.catalog.updating = true;
        if let Some((generation, ask)) = self.cataloging.ask(ask) {
            self.spawn_catalog(generation, ask);
        }
    }

    /// Computes `ask` here and shows it: newer than any worker's under
    /// way, or one waiting for it (read from older data: never started).
    fn put_catalog_now(&mut self, ask: crate::tui::panes::catalog::Ask) {
        self.cataloging.made_here();
        self.catalog.updating = false;
        self.catalog.put(ask.fill());
    }

    /// Computes `ask`, catalog number `generation`, on a worker.
    fn spawn_catalog(&mut self, generation: u64, ask: crate::tui::panes::catalog::Ask) {
        self.jobs.spawn(move |_, reporter| {
            let filled = caught(|| ask.fill()).map(Box::new);
            reporter.send(crate::tui::jobs::Report::Cataloged(generation, filled));
        });
    }

    /// A catalog worker's result: shown unless a newer one was asked for
    /// since (which starts now).
    pub(crate) fn cataloged(
        &mut self,
        generation: u64,
        filled: Result<Box<crate::tui::panes::catalog::Filled>, String>,
    ) {
        if self.cataloging.ended(generation) {
            self.catalog.updating = false;
            match filled {
                Ok(filled) => self.catalog.put(*filled),
                Err(e) => self.say(Status::error(format!("the catalog failed: {e}"))),
            }
        }
        if let Some((generation, ask)) = self.cataloging.start_waiting() {
            self.spawn_catalog(generation, ask);
        }
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.skills.selected(&self.data.listing)
    }

    /// Whether `cmd` has something to act on now: the hint bar offers
    /// only those (a key pressed anyway says why it did nothing).
    pub fn can(&self, cmd: Cmd) -> bool {
        let entry = self.selected_entry();
        match cmd {
            Cmd::Edit | Cmd::Files | Cmd::CopyPath => entry.is_some(),
            Cmd::Remove => entry.is_some_and(|e| self.data.in_store(e)),
            Cmd::Update => entry.is_some_and(|e| self.data.pin(e).is_some()),
            Cmd::CheckAll => !self.data.pins.is_empty(),
            Cmd::Filter => !self.data.listing.entries.is_empty(),
            // An agent's text, the profile's block, or (with no block) the
            // command that serves the profile over MCP.
            Cmd::Copy => {
                self.catalog.agent.is_some()
                    || self.profile_catalog()
                    || (self.selected_profile().is_some() && self.catalog.serve.is_some())
            }
            Cmd::Copying(what) => self.copies() == Some(what),
            Cmd::Format => self.profile_catalog(),
            Cmd::Provider => self.catalog.agent.is_none() && self.selected_profile().is_some(),
            Cmd::ResetProvider => self.catalog.agent.is_none() && self.catalog.provider.is_some(),
            // A built-in profile: the copy is what can be toggled.
            Cmd::CopyProfile => self
                .selected_profile()
                .is_some_and(|r| r.listed.location.path.is_none()),
            Cmd::UndoToggle => !self.toggles.is_empty(),
            // A code line goes past its block.
            Cmd::CodeLeft | Cmd::CodeRight => self.preview.code_overflow() > 0,
            // A built-in profile's ticks cannot change until it is copied.
            Cmd::Toggle if self.focus == Pane::Profiles => self
                .selected_profile()
                .is_none_or(|r| r.listed.location.path.is_some()),
            _ => true,
        }
    }

    /// What `y` copies now (as `copy_catalog` decides), for its hint.
    fn copies(&self) -> Option<Copies> {
        if self.catalog.agent.is_some() {
            Some(Copies::AgentText)
        } else if self.profile_catalog() {
            Some(Copies::Block)
        } else if self.selected_profile().is_some() && self.catalog.serve.is_some() {
            Some(Copies::Serve)
        } else {
            None
        }
    }

    /// A profile selected whose provider (as pane 4 delivers) gets a catalog.
    fn profile_catalog(&self) -> bool {
        self.catalog.agent.is_none()
            && self.selected_profile().is_some()
            && self.catalog.has_catalog
    }

    pub fn selected_profile(&self) -> Option<&ProfileRow> {
        self.profiles.selected(&self.data)
    }

    /// Lays out the frame for `area`: pane areas, list windows, scroll
    /// clamps, the preview's rendering. The draw after reads only.
    pub fn update(&mut self, area: Rect) {
        self.areas = crate::tui::layout::layout(area, self.focus, self.status.as_ref());
        let a = self.areas;
        self.skills.update(a.skills, self.mode == Mode::Filter);
        let entry = self.skills.selected(&self.data.listing);
        let pin = entry.and_then(|e| self.data.pin(e));
        self.preview
            .update(a.preview, entry, pin, &self.theme, &self.hl);
        self.profiles.update(a.profiles, &self.data, &self.theme);
        self.catalog.update(a.catalog, &self.theme);
        if let Some(d) = &mut self.dialog {
            d.update(area);
        }
    }

    /// A worker thread finished rendering a preview.
    pub fn preview_ready(&mut self, key: PreviewKey, rendered: Arc<Rendered>) {
        self.preview.ready(key, rendered);
    }

    pub fn say(&mut self, status: Status) {
        self.status = Some(status);
    }

    fn report(&mut self, r: Result<String, String>) {
        self.say(match r {
            Ok(m) => Status::info(m),
            Err(e) => Status::error(e),
        });
    }

    /// Where keys go now.
    pub fn ctx(&self) -> Ctx {
        if let Some(d) = &self.dialog {
            return d.ctx();
        }
        if self.mode == Mode::Filter || self.profiles.typing {
            return Ctx::Filter;
        }
        if self.preview.search.typing {
            return Ctx::Search;
        }
        match self.focus {
            Pane::Skills => Ctx::Skills,
            Pane::Preview => Ctx::Preview,
            Pane::Profiles if self.profiles.in_checklist() => {
                match self.profiles.selected_agent(&self.data) {
                    Some(_) => Ctx::AgentChecklist,
                    None => Ctx::Checklist,
                }
            }
            Pane::Profiles => Ctx::Profiles,
            Pane::Catalog => Ctx::Catalog,
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctx = self.ctx();
        // Esc then a key, typed fast, arrives as the bytes of Alt-key. No
        // skilltui key uses Alt outside the editor (whose text area does),
        // so there it is read as what was typed: Esc, then the key.
        if key.modifiers.contains(KeyModifiers::ALT)
            && matches!(key.code, KeyCode::Char(_))
            && ctx != Ctx::Editor
        {
            self.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
            return self.on_key(KeyEvent::new(key.code, key.modifiers - KeyModifiers::ALT));
        }
        let cmd = keymap::lookup(ctx, &key);
        self.agents_first = false;
        if cmd == Some(Cmd::Interrupt) {
            return self.interrupt();
        }
        // A message stays until the next key.
        self.status = None;
        match ctx {
            Ctx::Help
            | Ctx::Install
            | Ctx::Confirm
            | Ctx::Seed
            | Ctx::Editor
            | Ctx::Fetch
            | Ctx::Pick
            | Ctx::Results => self.dialog_key(cmd, key),
            Ctx::Filter => self.filter_key(cmd, key),
            Ctx::Search => self.search_key(cmd, key),
            _ => match cmd {
                Some(cmd) => self.run(cmd),
                None => {
                    if let Some(why) = keymap::not_here(ctx, &key) {
                        self.say(Status::info(why));
                    }
                }
            },
        }
    }

    /// Ctrl-C quits, unless the editor holds unsaved text: then it asks
    /// once, like Esc does. During an install, or the fetch before it,
    /// Ctrl-C cancels it as Esc does: quitting would leave the worker's
    /// staging folder behind and the user meant "stop that".
    fn interrupt(&mut self) {
        if let Some(Dialog::Edit(edit)) = &mut self.dialog
            && !edit.may_quit()
        {
            return;
        }
        let running = match &self.dialog {
            Some(Dialog::Fetch(_)) => true,
            Some(Dialog::Installing(i)) => !i.ended,
            _ => false,
        };
        match running {
            true => self.cancel_with_esc(),
            false => self.quit = true,
        }
    }

    fn cancel_with_esc(&mut self) {
        self.status = None;
        let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
        self.dialog_key(Some(Cmd::Back), esc);
    }

    fn filter_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
        if self.profiles.typing {
            return self.profiles_filter_key(cmd, key);
        }
        match cmd {
            Some(Cmd::Back) => {
                self.mode = Mode::Normal;
                self.skills.clear_filter();
            }
            // Keep the query and whatever is picked in its results.
            Some(Cmd::Accept) => self.mode = Mode::Normal,
            Some(Cmd::Move(m)) => {
                self.mode = Mode::Normal;
                self.pane_cmd(Pane::Skills, Cmd::Move(m));
            }
            _ => {
                if self.skills.type_in_filter(key) {
                    self.preview.scroll = 0;
                }
            }
        }
    }

    /// A key while typing pane 3's filter: as in the Skills filter.
    fn profiles_filter_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
        let drawn = self.profiles.sel_drawn(&self.data);
        let action = match cmd {
            Some(Cmd::Back) => {
                self.profiles.typing = false;
                self.profiles.active_filter().clear();
                profiles_pane::Action::None
            }
            Some(Cmd::Accept) => {
                self.profiles.typing = false;
                profiles_pane::Action::None
            }
            Some(Cmd::Move(m)) => {
                self.profiles.typing = false;
                self.profiles.on_cmd(Cmd::Move(m), &self.data)
            }
            _ => self.profiles.type_in_filter(key, &self.data),
        };
        // A query that hides every row, or lets the selection back: pane 4
        // follows what is drawn.
        let action = match action {
            profiles_pane::Action::None if drawn != self.profiles.sel_drawn(&self.data) => {
                profiles_pane::Action::Selected
            }
            action => action,
        };
        self.profiles_action(action);
    }

    /// A key while typing a search in the Preview pane.
    fn search_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
        match cmd {
            Some(Cmd::Back) => self.preview.search.clear(),
            // Keep the query: n and N go through its matches.
            Some(Cmd::Accept) => self.preview.search.typing = false,
            _ => self.preview.type_in_search(key),
        }
    }

    /// A command with no dialog open.
    fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Quit => self.quit = true,
            Cmd::Help => {
                let cao = crate::core::cao::installed::summary(self.data.home.cao());
                self.dialog = Some(Dialog::Help(Help::new(cao)));
            }
            Cmd::NextPane => self.focus = self.focus.step(1),
            Cmd::PrevPane => self.focus = self.focus.step(-1),
            Cmd::Focus(p) => self.focus = p,
            Cmd::Reload => self.reload_later(true),
            Cmd::Install => self.dialog = Some(Dialog::Install(Install::default())),
            Cmd::Seed => self.open_seed(),
            Cmd::ListAgents => self.open_list_agents(),
            Cmd::Format => {
                self.catalog.format = self.catalog.format.next();
                self.catalog.scroll = 0;
                self.refresh_profile();
                let name = self.catalog.format.name();
                self.say(Status::info(format!("catalog format: {name}")));
            }
            Cmd::Provider => {
                let own = self.selected_profile().and_then(|r| r.delivery);
                self.catalog.cycle_provider(own.map(|(p, _, _)| p));
                self.refresh_profile();
                let which = self.catalog.delivering_as();
                self.say(Status::info(format!("delivering as {which}")));
            }
            Cmd::ResetProvider => {
                let had = self.catalog.reset_provider();
                self.refresh_profile();
                let which = self.catalog.delivering_as();
                self.say(Status::info(match had {
                    true => format!("back to the profile's own provider: {which}"),
                    false => format!("already the profile's own provider: {which}"),
                }));
            }
            Cmd::Copy => self.copy_catalog(),
            Cmd::CopyPath => self.copy_path(),
            Cmd::Scope if self.focus == Pane::Profiles => {
                if self.profiles.selected_agent(&self.data).is_some()
                    && let Some(scope) = self.profiles.switch_scope()
                {
                    self.profiles.refresh(&self.data);
                    self.say(Status::info(format!("agent scope: {}", scope.label())));
                }
            }
            // A new `/` starts a new query: the kept one is selected, so
            // typing replaces it (an arrow key keeps it to edit).
            // In pane 3, `/` filters the profiles and agents, or the open
            // checklist's rows.
            Cmd::Filter if self.focus == Pane::Profiles => {
                self.profiles.typing = true;
                self.profiles.active_filter().select_all();
            }
            Cmd::Filter => {
                self.focus = Pane::Skills;
                self.mode = Mode::Filter;
                self.skills.filter.select_all();
            }
            Cmd::Search => self.preview.start_search(),
            Cmd::Files => {
                self.preview.files_from_skills = self.focus == Pane::Skills;
                self.focus = Pane::Preview;
                let folder = self.selected_entry().map(|e| e.checked.path.clone());
                if let Some(why) = self.preview.toggle_files(folder.as_deref()) {
                    self.say(Status::info(why));
                }
            }
            Cmd::Remove => self.open_remove(),
            Cmd::Edit => self.open_edit(),
            Cmd::ExternalEdit => self.ask_external_edit(),
            Cmd::CopyProfile => self.copy_profile(),
            Cmd::UndoToggle => self.undo_toggle(),
            Cmd::CheckAll => self.check_all(),
            Cmd::Update => self.update_selected(),
            _ => self.pane_cmd(self.focus, cmd),
        }
    }

    /// A command for one pane.
    fn pane_cmd(&mut self, pane: Pane, cmd: Cmd) {
        match pane {
            Pane::Skills => match self.skills.on_cmd(cmd) {
                skills_pane::Action::Selected => self.preview.scroll = 0,
                skills_pane::Action::Open => self.focus = Pane::Preview,
                skills_pane::Action::None => {}
            },
            // Back out of the preview: the only way in by Enter (or `o`)
            // is from the Skills list.
            Pane::Preview => {
                if self.preview.on_cmd(cmd) {
                    self.focus = Pane::Skills;
                }
            }
            Pane::Profiles => {
                let action = self.profiles.on_cmd(cmd, &self.data);
                self.profiles_action(action);
            }
            Pane::Catalog => self.catalog.on_cmd(cmd),
        }
    }

    fn profiles_action(&mut self, action: profiles_pane::Action) {
        match action {
            profiles_pane::Action::Selected => {
                self.catalog.scroll = 0;
                self.refresh_profile();
            }
            profiles_pane::Action::Toggle => self.toggle_selected(),
            profiles_pane::Action::None => {}
        }
    }

    pub fn on_mouse(&mut self, m: MouseEvent) {
        if self.dialog.is_some() {
            return;
        }
        let at = Position::new(m.column, m.row);
        let Some(pane) = self.areas.pane_at(at) else {
            return;
        };
        match m.kind {
            MouseEventKind::Down(_) => {
                self.preview.search.typing = false;
                self.profiles.typing = false;
                self.focus = pane;
                self.click(at);
            }
            MouseEventKind::ScrollDown => self.pane_cmd(pane, Cmd::Move(Move::Down)),
            MouseEventKind::ScrollUp => self.pane_cmd(pane, Cmd::Move(Move::Up)),
            _ => {}
        }
    }

    /// A click on a list row selects that item (after the list's scroll).
    fn click(&mut self, at: Position) {
        if self.skills.click(at) {
            self.preview.scroll = 0;
        }
        let action = self.profiles.click(at, &self.data);
        self.profiles_action(action);
    }

    // ---- actions --------------------------------------------------------

    fn copy_catalog(&mut self) {
        if self.catalog.agent.is_none() && self.catalog.updating {
            // The block shown is the one before the last change.
            return self.say(Status::error(
                "the catalog is still updating: y again in a moment",
            ));
        }
        // An agent selected: its model-facing text is what pane 4 shows.
        let source =
            match &self.catalog.agent {
                Some(a) => a.catalog.text.clone().ok_or_else(|| {
                    format!("{} documents no model-facing skills text", a.agent.name)
                }),
                None => self.catalog.text.clone(),
            };
        let text = match source {
            Ok(t) if !t.is_empty() => t,
            Ok(_) if self.catalog.agent.is_none() && !self.catalog.has_catalog => {
                if let Some(command) = self.catalog.serve.clone() {
                    return self.copy_text(&command);
                }
                return self.say(Status::error(
                    "this provider gets no catalog: nothing to copy",
                ));
            }
            Ok(_) => return self.say(Status::error("the catalog is empty: nothing to copy")),
            Err(e) => return self.say(Status::error(e)),
        };
        self.copy_text(&text);
    }

    /// `y` in the Skills pane and the Preview: the selected skill's folder.
    fn copy_path(&mut self) {
        let Some(e) = self.selected_entry() else {
            return self.say(no_skill());
        };
        let path = e.checked.path.display().to_string();
        self.copy_text(&path);
    }

    /// Puts `text` on a clipboard and says which one got it.
    fn copy_text(&mut self, text: &str) {
        let n = text.chars().count();
        let status = match self.clipboard.copy(text) {
            CopyOutcome::System => {
                Status::info(format!("copied {n} characters to the system clipboard"))
            }
            CopyOutcome::Osc52
                if self.clipboard.in_tmux() && !self.clipboard.tmux_takes_osc52() =>
            {
                Status::info(format!(
                    "sent {n} chars by OSC 52: tmux passes it on with `set -g set-clipboard on`"
                ))
            }
            CopyOutcome::Osc52 if self.clipboard.in_tmux() => Status::info(format!(
                "sent {n} characters to the terminal clipboard through tmux (OSC 52)"
            )),
            CopyOutcome::Osc52 => Status::info(format!(
                "sent {n} characters to the terminal clipboard (OSC 52; no display here)"
            )),
            CopyOutcome::Failed(why) => Status::error(format!("could not copy: {why}")),
        };
        self.say(status);
    }

    /// Space on a checkbox: enable or disable through the core's editor.
    pub fn toggle_selected(&mut self) {
        if let Some(agent) = self.profiles.selected_agent(&self.data) {
            let scope = self.profiles.agent_scope;
            let rows = &self.profiles.agent_checks;
            let result =
                agent_view::toggle(&self.data, agent, rows, scope, self.profiles.check_sel);
            self.report(result);
            // Only agents' dirs, the record and the lock's agents changed:
            // the store is not listed again (10,000 skills take a while).
            self.outdate_reload();
            self.data.pins = read_pins(&self.data.home);
            self.refresh_agents();
            return self.refresh_profile();
        }
        if !self.data.listing.confirmed() {
            // The row may name a skill whose verdict is about to change.
            return self.say(Status::error(
                "the skills are still being checked: Space again in a moment",
            ));
        }
        let n = self.profiles.check_sel;
        let listed = self.profiles.missing_at(&self.data, n).map(String::from);
        let Some(skill) = (self.data.valid_skill(n).map(|e| e.folder.clone())).or(listed) else {
            return;
        };
        let Some(row) = self.selected_profile() else {
            return;
        };
        let profile = match &row.loaded {
            Ok(p) => p.clone(),
            Err(e) => {
                return self.say(Status::error(format!("CAO cannot load this profile: {e}")));
            }
        };
        if profile.skills.is_none() {
            if profile.location.path.is_none() {
                return self.say(Status::error(format!(
                    "'{}' is built into CAO: c copies it to the agent store to edit",
                    profile.name
                )));
            }
            let pending = Pending::WriteList {
                profile: profile.name,
                skill,
                delivery: row.delivery.map(|(p, _, kind)| (p, kind)),
            };
            self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
            return;
        }
        let d = &self.data;
        let on = self.profiles.tick(d, self.profiles.check_sel) == Tick::Off;
        let plan = match on {
            true => undo::enable(&d.home, &d.listing, &profile, &skill, &self.toggles),
            false => editor::disable(&d.home, &d.listing, &profile, &skill),
        };
        self.apply_plan(&profile, plan, Some((&skill, on)));
    }

    /// Writes `plan`; a toggle (skill, enabled) written is remembered.
    fn apply_plan(
        &mut self,
        profile: &Profile,
        plan: Result<editor::Plan, String>,
        toggle: Option<(&str, bool)>,
    ) {
        let result = plan.and_then(|plan| {
            let wrote = editor::apply(profile, &plan).map_err(String::from)?;
            if let (Some(_), Some((skill, on))) = (wrote, toggle) {
                self.toggles
                    .extend(undo::Toggled::of(profile, skill, on, &plan));
            }
            Ok(plan.message)
        });
        self.report(result);
        self.store_changed();
        self.reload_profile(&profile.name);
    }

    /// `z`: the last toggle taken back, in whichever profile it was.
    fn undo_toggle(&mut self) {
        let Some(last) = self.toggles.pop() else {
            return self.say(Status::error("no toggle to undo in this session"));
        };
        let row = self
            .data
            .profiles
            .iter()
            .find(|r| r.listed.location.path.as_ref() == Some(&last.path));
        let Some(Ok(profile)) = row.map(|r| r.loaded.clone()) else {
            let msg = format!(
                "'{}' is gone or no longer loads: nothing undone",
                last.profile
            );
            return self.say(Status::error(msg));
        };
        let plan = undo::undo(&self.data.home, &profile, &last);
        self.apply_plan(&profile, plan, None);
    }

    /// `A`: every agent skilltui knows, the ones listed even when not
    /// detected ticked.
    fn open_list_agents(&mut self) {
        let user_home = self.data.home.user_home.clone();
        let path = asked::path(&user_home);
        let (ids, expected) = match asked::read(&path) {
            Ok(read) => read,
            Err(e) => return self.say(Status::error(e)),
        };
        let table = crate::core::agents::table::load_for(&user_home);
        let detected = |id: &str| (self.data.agents.iter()).any(|r| r.agent.id == id && r.detected);
        let items = (table.agents.iter())
            .filter(|a| a.parser != crate::core::agents::table::Parser::Cao)
            .map(|a| dialogs::agents::Known {
                id: a.id.clone(),
                name: a.name.clone(),
                detected: detected(&a.id),
            })
            .collect();
        let env = asked::merged(
            Vec::new(),
            &std::env::var("SKILLTUI_AGENTS").unwrap_or_default(),
        );
        let file = crate::tui::panes::tilde(&path, &user_home);
        let mut dialog = ListAgents::new(items, &ids, env, file);
        dialog.expected = expected;
        self.dialog = Some(Dialog::ListAgents(dialog));
    }

    /// Enter in `A`'s dialog: the file first, then pane 3 from it.
    fn save_list_agents(&mut self, ids: Vec<String>, expected: Option<Vec<u8>>) {
        let user_home = self.data.home.user_home.clone();
        let path = asked::path(&user_home);
        if let Err(e) = asked::write(&path, &ids, expected.as_deref()) {
            return self.say(Status::error(e));
        }
        self.data.asked_agents = asked_agents(&user_home);
        self.refresh_agents();
        self.refresh_profile();
        let shown = crate::tui::panes::tilde(&path, &user_home);
        let n = crate::tui::panes::count(ids.len(), "agent");
        self.say(Status::info(format!(
            "pane 3 lists {n} even when not detected (saved in {shown})"
        )));
    }

    fn open_seed(&mut self) {
        let items = store::defaults(&self.data.home);
        let note = store::cao_skills_note(&self.data.home);
        self.dialog = Some(Dialog::Seed(Seed::new(items, note)));
    }

    fn open_remove(&mut self) {
        let Some(e) = self.selected_entry() else {
            return self.say(no_skill());
        };
        if !self.data.in_store(e) {
            let msg = format!(
                "'{}' is in an extra dir ({}), not the store: left alone",
                e.folder,
                e.source_dir.display()
            );
            return self.say(Status::error(msg));
        }
        if let Some(plugin) = self.data.listing.plugin(e) {
            // As `cao skills remove` refuses it.
            let msg = format!(
                "'{}' is provided by agent plugin '{plugin}': `cao plugin remove {plugin}` removes it",
                e.folder
            );
            return self.say(Status::error(msg));
        }
        let pending = Pending::Remove {
            name: e.folder.clone(),
            path: e.checked.path.clone(),
            listed_by: self.profiles_listing(&e.folder),
            given_to: self.given_to(&e.folder),
            unlisted: self.profiles_without_list(),
        };
        self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
    }

    /// The store, the lock entry, then every link or copy skilltui gave of
    /// `name` (the core's one rule for `remove`); how many were taken back.
    fn remove_everywhere(&self, name: &str) -> Result<(remote::Removed, usize), String> {
        use crate::core::agents::{give, scan};
        let home = &self.data.home;
        let (table, fresh) = scan::open(home);
        let ctx = self.data.agent_ctx.clone().unwrap_or(fresh);
        let (removed, taken) =
            crate::core::agents::removal::remove_everywhere(home, &table.agents, &ctx, name)?;
        let n = taken
            .iter()
            .filter(|(_, t)| matches!(t, give::Taken::Removed(_)))
            .count();
        Ok((removed, n))
    }

    /// The agents skilltui gave `folder` to, as `id (scope)`.
    fn given_to(&self, folder: &str) -> Vec<String> {
        let rows = self.data.agents.iter().flat_map(|a| {
            a.given
                .iter()
                .filter(move |(s, _, _)| s == folder)
                .map(move |(_, scope, _)| format!("{} ({})", a.agent.id, scope.label()))
        });
        rows.collect()
    }

    /// The profiles whose `skills:` list offers `folder`, by name or by a
    /// pattern (named after the profile), as the catalog selects them.
    fn profiles_listing(&self, folder: &str) -> Vec<String> {
        use crate::core::cao::catalog::Pattern;
        let listing = |row: &ProfileRow| {
            let list = row.loaded.as_ref().ok()?.skills.as_ref()?;
            if list.iter().any(|s| s == folder) {
                return Some(row.listed.name.clone());
            }
            let pattern = list.iter().find(|s| Pattern::new(s).matches(folder))?;
            Some(format!("{} (via {pattern})", row.listed.name))
        };
        self.data.profiles.iter().filter_map(listing).collect()
    }

    /// The profiles that load and have no `skills:` list: CAO offers them
    /// every skill.
    fn profiles_without_list(&self) -> Vec<String> {
        let rows = self.data.profiles.iter();
        rows.filter(|r| r.loaded.as_ref().is_ok_and(|p| p.skills.is_none()))
            .map(|r| r.listed.name.clone())
            .collect()
    }

    fn open_edit(&mut self) {
        let Some(e) = self.selected_entry() else {
            return self.say(no_skill());
        };
        match Edit::open(e.checked.path.join("SKILL.md")) {
            Ok(edit) => self.dialog = Some(Dialog::Edit(Box::new(edit))),
            Err(err) => self.say(Status::error(err)),
        }
    }

    /// `E`: the selected profile's file in the Profiles pane, else the
    /// selected skill's SKILL.md.
    fn ask_external_edit(&mut self) {
        let path = if self.focus == Pane::Profiles {
            let Some(row) = self.selected_profile() else {
                return self.say(Status::error("no profile selected"));
            };
            match &row.listed.location.path {
                Some(p) => p.clone(),
                None => {
                    let msg = format!(
                        "'{}' is built into CAO (read-only): c copies it to the agent store",
                        row.listed.name
                    );
                    return self.say(Status::error(msg));
                }
            }
        } else {
            match self.selected_entry() {
                Some(e) => e.checked.path.join("SKILL.md"),
                None => return self.say(Status::error("no skill selected")),
            }
        };
        self.external_edit = Some(path);
    }

    /// `c`: the selected built-in profile copied into the agent store,
    /// then selected (the copy, now CAO's, under the same name).
    fn copy_profile(&mut self) {
        let Some(row) = self.selected_profile() else {
            return self.say(Status::error("no profile selected"));
        };
        let name = row.listed.name.clone();
        if let Some(path) = &row.listed.location.path {
            let msg = format!(
                "'{name}' is already a file ({}): Space toggles its skills, E opens it",
                path.display()
            );
            return self.say(Status::error(msg));
        }
        let copied = profile::copy_built_in(&self.data.home, &name);
        self.reload();
        if let Some(pos) = self
            .data
            .profiles
            .iter()
            .position(|p| p.listed.name == name)
        {
            self.profiles.sel = pos;
            self.refresh_profile();
        }
        // The path is in the detail under the list: the line stays short.
        self.report(
            copied.map(|_| {
                format!("copied '{name}' to the agent store: Space toggles its skills now")
            }),
        );
    }

    /// The user's editor closed: show its outcome and read everything again.
    pub fn edited(&mut self, outcome: Result<String, String>) {
        self.reload();
        self.report(outcome);
    }

    // ---- dialogs --------------------------------------------------------

    fn dialog_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
        let Some(mut dialog) = self.dialog.take() else {
            return;
        };
        let outcome = match (&mut dialog, cmd) {
            (Dialog::Install(i), _) => i.on_key(cmd, key, &self.data.home),
            (Dialog::Edit(e), _) => e.on_key(cmd, key),
            (Dialog::Pick(p), _) => p.on_key(cmd, key),
            (Dialog::Installing(i), _) => i.on_key(cmd, key),
            (_, None) => Outcome::Keep,
            (Dialog::Help(h), Some(cmd)) => h.on_cmd(cmd),
            (Dialog::Confirm(c), Some(cmd)) => c.on_cmd(cmd),
            (Dialog::Seed(s), Some(cmd)) => s.on_cmd(cmd),
            (Dialog::ListAgents(l), Some(cmd)) => l.on_cmd(cmd),
            (Dialog::Fetch(f), Some(cmd)) => f.on_cmd(cmd),
            (Dialog::Results(r), Some(cmd)) => r.on_cmd(cmd),
        };
        match outcome {
            Outcome::Keep => self.dialog = Some(dialog),
            Outcome::KeepSaying(status) => {
                self.dialog = Some(dialog);
                self.say(status);
            }
            Outcome::Close => {}
            Outcome::Say(status) => self.say(status),
            Outcome::Run(pending) => self.carry_out(pending),
            Outcome::Install { src, name } => self.submit_install(&src, name),
            Outcome::Open(source) => {
                if let Dialog::Install(i) = &dialog {
                    self.typed = Some(i.input.as_str().to_string());
                }
                self.preselect = None;
                self.open_source(source)
            }
            Outcome::Search(query, limit) => self.search_in_background(query, limit),
            Outcome::Read { source, skill } => {
                self.dialog = Some(dialog);
                self.read_in_background(&source, skill);
            }
            Outcome::OpenFound { source, skill } => {
                if let Dialog::Results(r) = &dialog {
                    self.typed = Some(r.query.clone());
                }
                self.preselect = Some(skill);
                self.open_source(source)
            }
            Outcome::InstallPicks => {
                if let Dialog::Pick(mut pick) = dialog {
                    pick.trust_picks(&self.data.home);
                    self.install_picks(pick);
                }
            }
            Outcome::Declined(name) => self.answer_clash(name, false),
            Outcome::Seed(names) => self.seed_in_background(names),
            Outcome::ListAgents(ids) => {
                let expected = match &dialog {
                    Dialog::ListAgents(l) => l.expected.clone(),
                    _ => None,
                };
                self.save_list_agents(ids, expected);
            }
            // Ctrl-S saves and stays: the editor says so itself.
            Outcome::Saved(_) => {
                self.dialog = Some(dialog);
                self.store_changed();
                self.reload();
            }
        }
    }

    /// What a confirm dialog's yes does.
    fn carry_out(&mut self, pending: Pending) {
        match pending {
            Pending::Replace { src, .. } => self.install(&src, true),
            Pending::ReplaceFound { name, .. } => self.answer_clash(name, true),
            Pending::Remove { name, .. } => {
                let r = self.remove_everywhere(&name).map(|(r, taken)| {
                    let unpinned = (r.dropped_from())
                        .map(|locks| format!(" and its entry in {locks}"))
                        .unwrap_or_default();
                    let given = match taken {
                        0 => String::new(),
                        n => format!("; taken back from {n} agent dir(s)"),
                    };
                    format!("removed '{name}'{unpinned} ({}){given}", r.dest.display())
                });
                self.report(r);
                self.store_changed();
                self.reload();
            }
            Pending::WriteList { profile, skill, .. } => {
                let found = self.data.profiles.iter().find(|r| r.listed.name == profile);
                if let Some(Ok(p)) = found.map(|r| r.loaded.clone()) {
                    let plan = editor::disable(&self.data.home, &self.data.listing, &p, &skill);
                    self.apply_plan(&p, plan, Some((&skill, false)));
                }
            }
        }
    }

    pub(crate) fn install(&mut self, src: &Path, force: bool) {
        let added = store::add(&self.data.home, src, force);
        let name = added.as_ref().ok().map(|a| a.name.clone());
        let r = added.map(|a| {
            let done = match a.replaced {
                Some(d) => format!(
                    "replaced '{}': {} added, {} removed, {} changed",
                    a.name,
                    d.added.len(),
                    d.removed.len(),
                    d.changed.len()
                ),
                None => format!("installed '{}'", a.name),
            };
            match a.released {
                Some(p) => format!("{done}; agent plugin '{p}' gave the name up: it is yours now"),
                None => done,
            }
        });
        self.report(r);
        self.store_changed();
        self.reload();
        if let Some(name) = name {
            self.select_skill(&name);
        }
    }

    /// After skilltui changed the store or a profile: the Copilot agent
    /// files CAO installed get the catalog CAO would bake now. Only a
    /// failure is said (the Catalog pane shows each file's state).
    pub(crate) fn store_changed(&mut self) {
        if let Some(why) = crate::core::delivery::copilot::refresh(&self.data.home).stopped {
            self.say(Status::error(format!(
                "Copilot agents not refreshed: {why}"
            )));
        }
    }

    /// Moves the selection to the skill CAO loads under `name`, if shown.
    pub(crate) fn select_skill(&mut self, name: &str) {
        let store = self.data.home.skills_dir();
        let index = self
            .data
            .listing
            .entries
            .iter()
            .position(|e| e.folder == name && e.source_dir == store);
        if index.is_some_and(|i| self.skills.select_index(i)) {
            self.preview.scroll = 0;
        }
    }
}

/// `work`'s result, or a line saying it crashed: a worker that panics
/// must still report, or what waits for it (a title marked refreshing or
/// updating, the next reload) would wait for ever.
fn caught<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .map_err(|_| "skilltui crashed: please report it".to_string())
}

/// At 2,000 skills a catalog takes about 2 ms on a slow machine: above
/// that it is computed on a worker (the key's frame keeps the last one,
/// marked as updating).
const CATALOG_INLINE_MAX: usize = 2000;

/// The agents pane 3 lists detected or not: those `A` saved, then those
/// `SKILLTUI_AGENTS` names (a file that cannot be read adds none).
fn asked_agents(user_home: &std::path::Path) -> Vec<String> {
    let saved = asked::read(&asked::path(user_home)).map(|(ids, _)| ids);
    let env = std::env::var("SKILLTUI_AGENTS").unwrap_or_default();
    asked::merged(saved.unwrap_or_default(), &env)
}

/// `e`, `d` or `u` with no skill selected.
pub(crate) fn no_skill() -> Status {
    Status::info("no skill selected: a adds skills, S seeds the defaults")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse::dotenv::READS;

    #[test]
    fn a_reload_reads_dotenv_once_for_every_profile() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        let store = root.join("agent-store");
        std::fs::create_dir_all(&store).unwrap();
        std::fs::write(root.join(".env"), "WHO=bob\n").unwrap();
        for name in ["a", "b", "c"] {
            let text = format!("---\nname: {name}\ndescription: by $WHO\n---\nHi\n");
            std::fs::write(store.join(format!("{name}.md")), text).unwrap();
        }
        READS.with(|n| n.set(0));
        let mut app = App::new(Home::at(root, tmp.path().into()), Theme::dark());
        assert_eq!(READS.with(|n| n.get()), 1, "App::new reads .env once");
        app.reload();
        assert_eq!(READS.with(|n| n.get()), 2, "each reload reads it once");
        let mine: Vec<_> = app
            .data
            .profiles
            .iter()
            .filter(|r| r.listed.location.path.is_some())
            .collect();
        assert_eq!(mine.len(), 3);
        for row in mine {
            let desc = row.fields.iter().find(|(k, _)| k == "description");
            assert_eq!(desc.map(|(_, v)| v.as_str()), Some("by bob"), "{row:?}");
        }
    }
}
