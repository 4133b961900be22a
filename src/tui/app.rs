//! The TUI's state: the model (`Data`, focus, status), the panes and the
//! open dialog, and what each command does. Every rule comes from the core;
//! this file only decides which core function a command calls and what to
//! show.

use std::path::Path;
use std::sync::Arc;

use ratatui::crossterm::event::{KeyEvent, KeyEventKind, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use crate::core::cao::editor;
use crate::core::cao::profile::{self, Profile};
use crate::core::cao::store::{self, Entry, Home, Listing};
use crate::core::fsops;
use crate::core::sources::lock;
use crate::tui::clipboard::{Clipboard, CopyOutcome};
use crate::tui::dialogs::{Confirm, Dialog, Edit, Help, Install, Outcome, Pending, Seed};
use crate::tui::events::PreviewKey;
use crate::tui::jobs::Jobs;
use crate::tui::keymap::{self, Cmd, Ctx, Move};
use crate::tui::layout::Areas;
use crate::tui::markdown::{Highlighter, Rendered};
use crate::tui::panes::agent_view;
use crate::tui::panes::catalog::CatalogPane;
use crate::tui::panes::preview::PreviewPane;
use crate::tui::panes::profiles::{self as profiles_pane, ProfilesPane};
use crate::tui::panes::skills::{self as skills_pane, SkillsPane};
use crate::tui::theme::Theme;

use crate::tui::model::{Data, Mode, Pane, ProfileRow, Status};
use crate::tui::panes::profiles::Tick;

pub struct App {
    pub data: Data,
    pub theme: Theme,
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
    /// Picks from a source waiting on their replace prompts.
    pub(crate) batch: Option<crate::tui::dialogs::pick::Batch>,
}

impl App {
    pub fn new(home: Home, theme: Theme) -> App {
        let mut app = App {
            data: Data {
                home,
                listing: Listing::default(),
                profiles: Vec::new(),
                valid: Vec::new(),
                pins: Default::default(),
                agents: Vec::new(),
                agent_ctx: None,
                agent_cwd: None,
            },
            theme,
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
        };
        app.reload();
        if app.data.listing.entries.is_empty() {
            app.open_seed();
            app.status = Some(Status::info(
                "No skills yet: pick the defaults to seed (Enter), or Esc",
            ));
        }
        app
    }

    /// Re-reads the store and profiles, keeping the selections by name.
    pub fn reload(&mut self) {
        self.reloads += 1;
        let skill = self
            .selected_entry()
            .map(|e| (e.folder.clone(), e.source_dir.clone()));
        let profile = self.selected_profile().map(|p| p.listed.name.clone());
        let checked = self
            .data
            .valid_skill(self.profiles.check_sel)
            .map(|e| e.folder.clone());
        let data = &mut self.data;
        data.home.reload_settings();
        // Without the lints, which walk every folder: the preview finds
        // them for the skill it shows.
        data.listing = store::list(&data.home, false);
        data.valid = (0..data.listing.entries.len())
            .filter(|&i| data.listing.entries[i].status == store::Status::Ok)
            .collect();
        let env = profile::read_env(&data.home);
        data.profiles = profile::list(&data.home)
            .into_iter()
            .map(|listed| ProfileRow::load(&data.home, listed, &env))
            .collect();
        data.profiles
            .sort_by_key(|r| r.listed.location.path.is_none());
        data.pins = lock::Lock::read(&lock::default_path(&data.home))
            .map(|l| l.skills)
            .unwrap_or_default();
        (data.agent_ctx, data.agents) = agent_view::load(&data.home, data.agent_cwd.as_deref());
        self.skills.agent_marks = agent_view::marks(&self.data.agents);
        self.preview.forget_lints();
        if !self.skills.set_listing(&self.data.listing, skill) {
            // The skill went away: the next one starts at its top.
            self.preview.scroll = 0;
        }
        if let Some(name) = profile
            && let Some(pos) = self
                .data
                .profiles
                .iter()
                .position(|p| p.listed.name == name)
        {
            self.profiles.sel = pos;
        }
        // By name: a skill added above must not shift Space onto another one.
        if let Some(pos) = checked.and_then(|f| self.data.valid_position(&f)) {
            self.profiles.check_sel = pos;
        }
        // The rendered preview stays: its key holds the file's mtime.
        self.refresh_profile();
    }

    /// Re-reads one profile (after our own write) and the catalog.
    fn reload_profile(&mut self, name: &str) {
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
        self.catalog.refresh(&self.data, row);
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.skills.selected(&self.data.listing)
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
        if self.mode == Mode::Filter {
            return Ctx::Filter;
        }
        match self.focus {
            Pane::Skills => Ctx::Skills,
            Pane::Preview => Ctx::Preview,
            Pane::Profiles if self.profiles.in_checklist() => Ctx::Checklist,
            Pane::Profiles => Ctx::Profiles,
            Pane::Catalog => Ctx::Catalog,
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctx = self.ctx();
        let cmd = keymap::lookup(ctx, &key);
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
            | Ctx::Pick => self.dialog_key(cmd, key),
            Ctx::Filter => self.filter_key(cmd, key),
            _ => {
                if let Some(cmd) = cmd {
                    self.run(cmd);
                }
            }
        }
    }

    /// Ctrl-C quits, unless the editor holds unsaved text: then it asks
    /// once, like Esc does.
    fn interrupt(&mut self) {
        if let Some(Dialog::Edit(edit)) = &mut self.dialog
            && !edit.may_quit()
        {
            return;
        }
        self.quit = true;
    }

    fn filter_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
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
            Cmd::Reload => {
                self.reload();
                self.say(Status::info("reloaded"));
            }
            Cmd::Install => self.dialog = Some(Dialog::Install(Install::default())),
            Cmd::Seed => self.open_seed(),
            Cmd::Format => {
                self.catalog.format = self.catalog.format.next();
                self.catalog.scroll = 0;
                self.refresh_profile();
                let name = self.catalog.format.name();
                self.say(Status::info(format!("catalog format: {name}")));
            }
            Cmd::Copy => self.copy_catalog(),
            Cmd::Scope if self.focus == Pane::Profiles => {
                if self.profiles.selected_agent(&self.data).is_some()
                    && let Some(scope) = self.profiles.switch_scope()
                {
                    self.profiles.refresh(&self.data);
                    self.say(Status::info(format!("agent scope: {}", scope.label())));
                }
            }
            Cmd::Filter => {
                self.focus = Pane::Skills;
                self.mode = Mode::Filter;
            }
            Cmd::Remove => self.open_remove(),
            Cmd::Edit => self.open_edit(),
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
            Pane::Preview => self.preview.on_cmd(cmd),
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
            Ok(_) => return self.say(Status::error("the catalog is empty: nothing to copy")),
            Err(e) => return self.say(Status::error(e)),
        };
        let n = text.chars().count();
        let status = match self.clipboard.copy(&text) {
            CopyOutcome::System => {
                Status::info(format!("copied {n} characters to the system clipboard"))
            }
            CopyOutcome::Osc52 if self.clipboard.in_tmux() => Status::info(format!(
                "sent {n} chars by OSC 52 (tmux needs `set -g set-clipboard on` or `set -g allow-passthrough on`)"
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
            let result = agent_view::toggle(&self.data, agent, scope, self.profiles.check_sel);
            self.report(result);
            return self.reload();
        }
        let Some(skill) = self
            .data
            .valid_skill(self.profiles.check_sel)
            .map(|e| e.folder.clone())
        else {
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
                    "'{}' is built into CAO and cannot be edited: copy it to the agent store first",
                    profile.name
                )));
            }
            let pending = Pending::WriteList {
                profile: profile.name,
                skill,
            };
            self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
            return;
        }
        let d = &self.data;
        let plan = match self.profiles.tick(d, self.profiles.check_sel) {
            Tick::Off => editor::enable(&d.home, &d.listing, &profile, &skill),
            _ => editor::disable(&d.home, &d.listing, &profile, &skill),
        };
        self.apply_plan(&profile, plan);
    }

    fn apply_plan(&mut self, profile: &Profile, plan: Result<editor::Plan, String>) {
        let result = plan.and_then(|plan| editor::apply(profile, &plan).map(|_| plan.message));
        self.report(result);
        self.reload_profile(&profile.name);
    }

    fn open_seed(&mut self) {
        let items = store::defaults(&self.data.home);
        let note = store::cao_skills_note(&self.data.home);
        self.dialog = Some(Dialog::Seed(Seed::new(items, note)));
    }

    fn open_remove(&mut self) {
        let Some(e) = self.selected_entry() else {
            return;
        };
        if e.source_dir != self.data.home.skills_dir() {
            let msg = format!(
                "'{}' lives in an extra dir ({}); skilltui only removes skills from the store",
                e.folder,
                e.source_dir.display()
            );
            return self.say(Status::error(msg));
        }
        let pending = Pending::Remove {
            name: e.folder.clone(),
            path: e.checked.path.clone(),
        };
        self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
    }

    fn open_edit(&mut self) {
        let Some(e) = self.selected_entry() else {
            return;
        };
        match Edit::open(e.checked.path.join("SKILL.md")) {
            Ok(edit) => self.dialog = Some(Dialog::Edit(Box::new(edit))),
            Err(err) => self.say(Status::error(err)),
        }
    }

    // ---- dialogs --------------------------------------------------------

    fn dialog_key(&mut self, cmd: Option<Cmd>, key: KeyEvent) {
        let Some(mut dialog) = self.dialog.take() else {
            return;
        };
        let outcome = match (&mut dialog, cmd) {
            (Dialog::Install(i), _) => i.on_key(cmd, key, &self.data.home),
            (Dialog::Edit(e), _) => e.on_key(cmd, key),
            (_, None) => Outcome::Keep,
            (Dialog::Help(h), Some(cmd)) => h.on_cmd(cmd),
            (Dialog::Confirm(c), Some(cmd)) => c.on_cmd(cmd),
            (Dialog::Seed(s), Some(cmd)) => s.on_cmd(cmd),
            (Dialog::Fetch(f), Some(cmd)) => f.on_cmd(cmd),
            (Dialog::Pick(p), Some(cmd)) => p.on_cmd(cmd),
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
            Outcome::Open(source) => self.open_source(source),
            Outcome::InstallPicks => {
                if let Dialog::Pick(pick) = dialog {
                    self.install_picks(pick);
                }
            }
            Outcome::Declined(name) => self.answer_clash(name, false),
            Outcome::Seed(names) => {
                let r = store::seed(&self.data.home, Some(&names)).map(|s| {
                    format!(
                        "seeded {}; kept {}",
                        list_or_none(&s.seeded),
                        list_or_none(&s.kept)
                    )
                });
                self.report(r);
                self.reload();
            }
            Outcome::Saved(path) => {
                self.say(Status::info(format!("saved {}", path.display())));
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
                let r = store::remove(&self.data.home, &name)
                    .map(|p| format!("removed '{name}' ({})", p.display()));
                self.report(r);
                self.reload();
            }
            Pending::WriteList { profile, skill } => {
                let found = self.data.profiles.iter().find(|r| r.listed.name == profile);
                if let Some(Ok(p)) = found.map(|r| r.loaded.clone()) {
                    let plan = editor::disable(&self.data.home, &self.data.listing, &p, &skill);
                    self.apply_plan(&p, plan);
                }
            }
        }
    }

    /// Installs a checked folder, asking first when its name is taken.
    fn submit_install(&mut self, src: &Path, name: String) {
        let dest = self.data.home.skills_dir().join(&name);
        if std::fs::symlink_metadata(&dest).is_ok() {
            let diff = fsops::diff_folders(&dest, src);
            let pending = Pending::Replace {
                src: src.to_path_buf(),
                name,
                diff,
            };
            self.dialog = Some(Dialog::Confirm(Confirm::new(pending)));
            return;
        }
        self.install(src, false);
    }

    fn install(&mut self, src: &Path, force: bool) {
        let added = store::add(&self.data.home, src, force);
        let name = added.as_ref().ok().map(|a| a.name.clone());
        let r = added.map(|a| match a.replaced {
            Some(d) => format!(
                "replaced '{}': {} added, {} removed, {} changed",
                a.name,
                d.added.len(),
                d.removed.len(),
                d.changed.len()
            ),
            None => format!("installed '{}'", a.name),
        });
        self.report(r);
        self.reload();
        if let Some(name) = name {
            self.select_skill(&name);
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

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
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
