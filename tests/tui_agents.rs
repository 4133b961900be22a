//! The agents in the TUI: pane 3 lists the detected agents after the
//! profiles, an agent's checklist gives and takes store skills (Space) at
//! user or project scope (`s`), never touching a folder skilltui did not
//! make, and pane 4 shows what the agent finds with its text and meter.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::fs;
use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::core::cao::store::{self, Home};
use skilltui::tui::app::App;
use skilltui::tui::model::Pane;
use skilltui::tui::panes::agent_view;
use skilltui::tui::theme::Theme;
use skilltui::tui::ui;

struct Fixture {
    _tmp: tempfile::TempDir,
    user: PathBuf,
    proj: PathBuf,
    app: App,
}

fn skill(dir: &std::path::Path, folder: &str, desc: &str) {
    let d = dir.join(folder);
    fs::create_dir_all(&d).unwrap();
    fs::write(
        d.join("SKILL.md"),
        format!("---\nname: {folder}\ndescription: {desc}\n---\nBody.\n"),
    )
    .unwrap();
}

/// A user home where Amp is detected, a project with a skill that shadows
/// the user's copy, and a store with the defaults.
fn fixture() -> Fixture {
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    let user = tmp.path().to_path_buf();
    let proj = tmp.path().join("proj");
    let cao = fake_cao::make(tmp.path());
    let home = Home::at(tmp.path().join("home"), user.clone()).with_cao(Some(&cao));
    store::seed(&home, None).unwrap();
    fs::create_dir_all(user.join(".config/amp")).unwrap();
    skill(
        &proj.join(".agents/skills"),
        "deploy",
        "Deploys from the project",
    );
    skill(
        &user.join(".config/agents/skills"),
        "deploy",
        "The user's older deploy",
    );
    let mut app = App::new(home, Theme::dark());
    app.data.agent_cwd = Some(proj.clone());
    app.reload();
    Fixture {
        _tmp: tmp,
        user,
        proj,
        app,
    }
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn select_agent(app: &mut App, id: &str) {
    key(app, KeyCode::Char('3'));
    let i = app
        .data
        .agents
        .iter()
        .position(|a| a.agent.id == id)
        .unwrap();
    app.profiles.sel = app.data.profiles.len() + i;
    app.refresh_profile();
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    let tmp = regex::Regex::new(r"(/tmp/)?\.tmp[A-Za-z0-9]{6}|…[A-Za-z0-9.]+/").unwrap();
    tmp.replace_all(&format!("{}", t.backend()), "[TMP]")
        .into_owned()
}

#[test]
fn a_detected_agent_is_listed_after_the_profiles_with_what_it_finds() {
    let mut f = fixture();
    assert!(f.app.data.agents.iter().any(|a| a.agent.id == "amp"));
    assert!(!f.app.data.agents.iter().any(|a| a.agent.id == "cao"));
    select_agent(&mut f.app, "amp");
    let text = screen(&mut f.app, 120, 40);
    assert!(text.contains("Agents & profiles"), "{text}");
    assert!(text.contains("◆ amp"), "{text}");
    assert!(text.contains("Finds · Amp"), "{text}");
    assert!(text.contains("shadowed by"), "{text}");
    insta::assert_snapshot!("agent_catalog_120x40", text);
}

#[test]
fn space_gives_and_takes_at_the_scope_s_chooses() {
    let mut f = fixture();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Enter);
    assert_eq!(f.app.focus, Pane::Profiles);
    assert!(f.app.profiles.in_checklist());
    let first = f.app.data.valid_entries().next().unwrap().folder.clone();
    f.app.profiles.check_sel = 0;
    key(&mut f.app, KeyCode::Char(' '));
    let given = f.user.join(".config/agents/skills").join(&first);
    assert!(given.join("SKILL.md").is_file(), "{:?}", f.app.status);
    // The place is named from ~, to keep to one status line.
    let said = f.app.status.clone().unwrap().text;
    // Issue 21 part 3: a dir another agent reads too is named, with them.
    assert_eq!(
        said,
        format!(
            "gave {first} to amp (~/.config/agents/skills/{first}); also read by Goose (~/.config/agents/skills is theirs too)"
        )
    );
    insta::assert_snapshot!("agent_checklist_given_120x40", screen(&mut f.app, 120, 40));
    key(&mut f.app, KeyCode::Char(' '));
    assert!(!given.exists(), "{:?}", f.app.status);
    key(&mut f.app, KeyCode::Char('s'));
    key(&mut f.app, KeyCode::Char(' '));
    assert!(
        f.proj
            .join(".agents/skills")
            .join(&first)
            .join("SKILL.md")
            .is_file()
    );
    // The project's .agents/skills is read by Codex, Gemini CLI, OpenCode,
    // Copilot, Cursor and more: the status line names them.
    let said = f.app.status.clone().unwrap().text;
    assert!(
        said.contains("; also read by Codex, OpenCode, Gemini CLI, GitHub Copilot, Cursor"),
        "{said}"
    );
}

#[test]
fn space_on_a_folder_the_user_made_deletes_nothing() {
    let mut f = fixture();
    let first = f.app.data.valid_entries().next().unwrap().folder.clone();
    let theirs = f.user.join(".config/agents/skills").join(&first);
    fs::create_dir_all(&theirs).unwrap();
    fs::write(theirs.join("SKILL.md"), "mine").unwrap();
    f.app.reload();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Enter);
    f.app.profiles.check_sel = 0;
    key(&mut f.app, KeyCode::Char(' '));
    let status = f.app.status.clone().unwrap();
    assert!(
        status.is_error() && status.text.contains("never deleted"),
        "{status:?}"
    );
    assert_eq!(fs::read_to_string(theirs.join("SKILL.md")).unwrap(), "mine");
}

#[test]
fn the_finds_view_scrolls_to_the_end_of_the_agents_text() {
    let mut f = fixture();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Char('4'));
    key(&mut f.app, KeyCode::Char('G'));
    let text = screen(&mut f.app, 120, 40);
    assert!(text.contains("</available_skills>"), "{text}");
}

// Seed 003 "Frontmatter Fields" and "MCP Server Bundling" in the view.
#[test]
fn the_finds_view_shows_seed_fields_and_lints() {
    let mut f = fixture();
    let dir = f.proj.join(".agents/skills/scraper");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: scraper\ndescription: Scrapes\nargument-hint: <url>\nisolatedContext: maybe\n---\nBody.\n",
    )
    .unwrap();
    fs::write(
        dir.join("mcp.json"),
        r#"{"mcpServers": {"my-server": {"command": "node"}}}"#,
    )
    .unwrap();
    f.app.reload();
    select_agent(&mut f.app, "amp");
    let text = screen(&mut f.app, 120, 40);
    assert!(text.contains("argument-hint: <url>"), "{text}");
    assert!(text.contains("mcp servers: my-server (node)"), "{text}");
    assert!(
        text.contains("! isolatedContext must be a boolean"),
        "{text}"
    );
}

#[test]
fn a_skill_the_user_made_in_the_agents_own_folder_is_listed_in_its_checklist() {
    let mut f = fixture();
    skill(
        &f.user.join(".config/agents/skills"),
        "my-own",
        "Made by hand",
    );
    f.app.reload();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Enter);
    let text = screen(&mut f.app, 120, 40);
    let row = text
        .lines()
        .find(|l| l.contains(" ·  my-own"))
        .unwrap_or_else(|| panic!("no my-own row: {text}"));
    assert!(row.contains("  ~/.config/agents/skills"), "{row}");
    // The bar speaks of the agent, not of a profile.
    let bar = text.lines().last().unwrap_or("");
    assert!(
        bar.contains("Space give or take the skill  ← back to the list"),
        "{bar}"
    );
    assert!(!bar.contains("profile"), "{bar}");
    // Space on it: one line at 80 columns, naming it and where it is.
    let agent = f.app.profiles.selected_agent(&f.app.data).unwrap();
    let checks = agent_view::checklist(&f.app.data, agent, f.app.profiles.agent_scope);
    f.app.profiles.check_sel = checks
        .iter()
        .position(|c| matches!(c, agent_view::Check::Found { name, .. } if name == "my-own"))
        .unwrap();
    key(&mut f.app, KeyCode::Char(' '));
    let said = f.app.status.clone().unwrap().text;
    assert_eq!(
        said,
        "my-own is in ~/.config/agents/skills, not the store: read-only here"
    );
    assert!(said.chars().count() + 2 <= 80);
}

#[test]
fn removing_a_skill_given_to_an_agent_names_the_agent_and_takes_it_back() {
    let mut f = fixture();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Enter);
    let first = f.app.data.valid_entries().next().unwrap().folder.clone();
    f.app.profiles.check_sel = 0;
    key(&mut f.app, KeyCode::Char(' '));
    let given = f.user.join(".config/agents/skills").join(&first);
    assert!(given.join("SKILL.md").is_file(), "{:?}", f.app.status);
    key(&mut f.app, KeyCode::Char('1'));
    while f.app.selected_entry().map(|e| e.folder.clone()) != Some(first.clone()) {
        key(&mut f.app, KeyCode::Char('j'));
    }
    key(&mut f.app, KeyCode::Char('d'));
    let text = screen(&mut f.app, 80, 24);
    assert!(
        text.contains("Given to amp (user): its link or copy skilltui made goes"),
        "{text}"
    );
    // Yes: the store's folder and what skilltui gave amp both go, as the
    // CLI's `remove` does.
    key(&mut f.app, KeyCode::Char('y'));
    let said = f.app.status.clone().unwrap().text;
    assert!(said.contains("taken back from 1 agent dir"), "{said}");
    assert!(!given.exists() && fs::symlink_metadata(&given).is_err());
    assert!(!f.app.data.home.skills_dir().join(&first).exists());
}

/// The App as the real UI runs it: the first frame has no agents, and
/// from then on every reload finds them on a worker.
fn worker_app(f: &Fixture) -> App {
    let mut app = App::agents_later(f.app.data.home.clone(), Theme::dark());
    app.data.agent_cwd = Some(f.proj.clone());
    assert!(app.data.agents.is_empty() && app.data.agents_refreshing);
    app.start_agents();
    app.settle();
    assert!(!app.data.agents_refreshing);
    app
}

fn finds(app: &App, id: &str) -> Vec<String> {
    let row = app.data.agents.iter().find(|r| r.agent.id == id).unwrap();
    row.finds.winners().map(|c| c.name.clone()).collect()
}

/// The real UI draws its first frame before the agents are found; after
/// that, `r` (as a toggle or a watched change) reads the store at once and
/// leaves discovery to a worker: the last agents stay on screen, marked as
/// refreshing, until it ends. What it found counts as a reload, so the
/// watcher follows the agents' dirs.
#[test]
fn a_reload_keeps_the_agents_on_screen_marked_refreshing_until_the_worker_ends() {
    let f = fixture();
    let mut app = worker_app(&f);
    assert!(finds(&app, "amp").contains(&"deploy".to_string()));
    skill(&f.proj.join(".agents/skills"), "lint", "Lints the project");
    let reloads = app.reloads;
    key(&mut app, KeyCode::Char('r'));
    assert!(app.data.agents_refreshing);
    assert!(!finds(&app, "amp").contains(&"lint".to_string()), "not yet");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("refreshing agents"), "{text}");
    assert!(text.contains("◆ amp"), "the last result stays: {text}");
    insta::assert_snapshot!("agents_refreshing_120x40", text);
    app.settle();
    assert!(!app.data.agents_refreshing);
    assert!(finds(&app, "amp").contains(&"lint".to_string()));
    assert_eq!(
        app.reloads,
        reloads + 2,
        "the reload, then the agents found"
    );
    assert!(!screen(&mut app, 120, 40).contains("refreshing agents"));
}

/// Two reloads in a row: one worker runs at a time, the first one's result
/// is stale when it arrives and is dropped (never shown), and the second
/// discovery, started then, is the one that lands.
#[test]
fn a_stale_discovery_is_dropped_and_the_newest_one_lands() {
    let f = fixture();
    let mut app = worker_app(&f);
    let shown = app.data.agents.len();
    key(&mut app, KeyCode::Char('r'));
    let first = app.discovery.generation();
    skill(&f.proj.join(".agents/skills"), "lint", "Lints the project");
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(app.discovery.generation(), first + 1);
    // A result for the first discovery: stale, so nothing changes.
    app.agents_found(first, None, Vec::new());
    assert_eq!(app.data.agents.len(), shown, "the stale result is dropped");
    assert!(app.data.agent_ctx.is_some());
    assert!(app.data.agents_refreshing, "still waiting for the newest");
    app.settle();
    assert!(!app.data.agents_refreshing);
    assert!(finds(&app, "amp").contains(&"lint".to_string()));
}

/// A toggle in an agent's checklist is right at once (the record is read
/// on the key), though discovery runs on a worker.
#[test]
fn an_agent_toggle_shows_its_tick_before_discovery_ends() {
    let f = fixture();
    let mut app = worker_app(&f);
    select_agent(&mut app, "amp");
    key(&mut app, KeyCode::Enter);
    app.profiles.check_sel = 0;
    key(&mut app, KeyCode::Char(' '));
    assert!(app.data.agents_refreshing);
    let ticked = matches!(
        app.profiles.agent_checks.first(),
        Some(agent_view::Check::Store {
            state: agent_view::State::Given,
            ..
        })
    );
    assert!(ticked, "{:?}", app.status);
    // A second Space takes it back, from the state shown.
    key(&mut app, KeyCode::Char(' '));
    let first = app.data.valid_entries().next().unwrap().folder.clone();
    let given = f.user.join(".config/agents/skills").join(&first);
    assert!(fs::symlink_metadata(&given).is_err(), "{:?}", app.status);
    app.settle();
}

/// Issue 22 hole 1. Before: a SKILL.md (or a seed 003 `mcp.json`) linking
/// out of its folder was read, and pane 4 and `y` showed and copied what
/// the file it leads to held.
#[test]
fn a_file_linking_out_of_its_skill_folder_is_never_shown_or_copied() {
    let mut f = fixture();
    let secret = f.user.join("credentials");
    fs::write(
        &secret,
        "---\nname: leak\ndescription: SECRET-KEY\n---\nSECRET-KEY body\n",
    )
    .unwrap();
    let servers = f.user.join("servers.json");
    fs::write(
        &servers,
        r#"{"mcpServers": {"SECRET-SERVER": {"command": "x"}}}"#,
    )
    .unwrap();
    let leak = f.proj.join(".agents/skills/leak");
    fs::create_dir_all(&leak).unwrap();
    std::os::unix::fs::symlink(&secret, leak.join("SKILL.md")).unwrap();
    let tools = f.proj.join(".agents/skills/tools");
    skill(&f.proj.join(".agents/skills"), "tools", "Has tools");
    std::os::unix::fs::symlink(&servers, tools.join("mcp.json")).unwrap();
    f.app.reload();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Char('4'));
    let text = screen(&mut f.app, 200, 60);
    assert!(text.contains("leads out of"), "{text}");
    assert!(!text.contains("SECRET"), "{text}");
    // What `y` copies: the agent's model-facing text.
    let row = f.app.profiles.selected_agent(&f.app.data).unwrap();
    let copied = row.catalog.text.clone().unwrap_or_default();
    assert!(
        copied.contains("Has tools") && !copied.contains("SECRET"),
        "{copied}"
    );
}

/// Issue 22 hole 10. Before: with no CAO profile pane 3 drew no rows, yet
/// Enter, `j` and Space gave the first store skill to the first agent.
/// Now the agents are drawn without any profile (a user of agents alone),
/// under a note on where profiles come from, and the keys act on the rows
/// drawn: Space gives the skill on the row shown to the agent shown. With
/// no agent either, nothing is drawn and no key gives anything.
#[test]
fn with_no_profile_the_agents_are_drawn_and_keys_act_on_them() {
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    let user = tmp.path().to_path_buf();
    let home = Home::at(tmp.path().join("home"), user.clone());
    store::seed(&home, None).unwrap();
    let mut app = App::new(home.clone(), Theme::dark());
    app.data.agent_cwd = Some(tmp.path().join("proj"));
    app.reload();
    assert!(app.data.profiles.is_empty() && app.data.agents.is_empty());
    for code in [KeyCode::Char('3'), KeyCode::Enter, KeyCode::Char(' ')] {
        key(&mut app, code);
    }
    assert!(!fs::exists(home.root.join("skilltui-agents.json")).unwrap());
    assert!(screen(&mut app, 120, 40).contains("No profiles."));

    fs::create_dir_all(user.join(".config/amp")).unwrap();
    app.reload();
    assert!(app.data.agents.iter().any(|a| a.agent.id == "amp"));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("◆ amp"), "the agent rows are drawn: {text}");
    assert!(text.contains("No profiles."), "{text}");
    select_agent(&mut app, "amp");
    insta::assert_snapshot!("agents_without_profiles_120x40", screen(&mut app, 120, 40));
    key(&mut app, KeyCode::Enter);
    let n = app.profiles.check_sel;
    let row = app.profiles.agent_checks[n].name().to_string();
    key(&mut app, KeyCode::Char(' '));
    let given = user.join(".config/agents/skills").join(&row);
    assert!(given.join("SKILL.md").exists(), "{:?}", app.status);
}

/// Issue 22 hole 14: where Codex's 2,000-folder cap cuts what it finds,
/// pane 4 says so in one line above the list.
#[test]
fn a_cap_that_cuts_a_listing_is_said_in_the_finds_view() {
    let mut f = fixture();
    fs::create_dir_all(f.user.join(".codex")).unwrap();
    for i in 0..2_001 {
        skill(&f.user.join(".agents/skills"), &format!("s{i:04}"), "d");
    }
    f.app.reload();
    select_agent(&mut f.app, "codex");
    let text = screen(&mut f.app, 200, 50);
    let said: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("Codex reads at most 2000"))
        .collect();
    assert_eq!(said.len(), 1, "{text}");
}

#[test]
fn an_agent_given_a_skill_or_asked_for_is_listed_undetected_and_can_be_taken_back() {
    use skilltui::core::agents::{give, scan, table::Scope};
    let mut f = fixture();
    let home = f.app.data.home.clone();
    assert!(!f.app.data.agents.iter().any(|a| a.agent.id == "codex"));
    // skilltui gave codex a skill, though codex is not on this machine.
    // (At project scope: Codex's user dir is under ~/.codex, which would
    // make it detected.)
    let (table, mut ctx) = scan::open(&home);
    ctx.cwd = f.proj.clone();
    let codex = table.agents.iter().find(|a| a.id == "codex").unwrap();
    assert!(!scan::detected(codex, &ctx));
    give::enable(&home, codex, &ctx, "code-style", Scope::Project, false).unwrap();
    assert!(!scan::detected(codex, &ctx));
    f.app.reload();
    let row = f.app.data.agents.iter().find(|a| a.agent.id == "codex");
    assert!(
        row.is_some_and(|r| !r.detected),
        "listed, marked undetected"
    );
    select_agent(&mut f.app, "codex");
    let text = screen(&mut f.app, 120, 40);
    assert!(
        text.contains("◆ codex") && text.contains("not detected"),
        "{text}"
    );
    insta::assert_snapshot!("agent_undetected_given_120x40", text);
    insta::assert_snapshot!("agent_undetected_given_80x24", screen(&mut f.app, 80, 24));
    // Its checklist, at project scope, takes the skill back.
    key(&mut f.app, KeyCode::Enter);
    key(&mut f.app, KeyCode::Char('s'));
    let n = f.app.data.valid_position("code-style").unwrap();
    f.app.profiles.check_sel = n;
    key(&mut f.app, KeyCode::Char(' '));
    let said = f.app.status.clone().unwrap().text;
    assert!(said.starts_with("took code-style"), "{said}");
    // Nothing given any more, not detected: gone from the list...
    f.app.reload();
    assert!(!f.app.data.agents.iter().any(|a| a.agent.id == "codex"));
    // ...unless the user asks for it.
    f.app.data.asked_agents = vec!["codex".into()];
    f.app.reload();
    assert!(f.app.data.agents.iter().any(|a| a.agent.id == "codex"));
}

// Seed 003 (003_0f931e5b56874718.txt): "Keep SKILL.md under 500 lines" and
// Constants "Max single file 512 KB" are lints in the TUI preview too.
#[test]
fn the_finds_view_shows_seed_003s_constants_as_lints() {
    let mut f = fixture();
    let dir = f.proj.join(".agents/skills/long");
    fs::create_dir_all(&dir).unwrap();
    let body = "x\n".repeat(520);
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: long\ndescription: Long\n---\n{body}"),
    )
    .unwrap();
    fs::write(dir.join("data.bin"), vec![b'b'; 600 * 1024]).unwrap();
    f.app.reload();
    select_agent(&mut f.app, "amp");
    let text = screen(&mut f.app, 120, 40);
    assert!(
        text.contains("! SKILL.md is 524 lines; Amp's documented token budget: Keep"),
        "{text}"
    );
    assert!(
        text.contains("! data.bin is 600 KB; Amp's documented limits: Max single file 512"),
        "{text}"
    );
}

#[test]
fn slash_in_an_agents_checklist_filters_its_rows_and_space_gives_the_row_shown() {
    let mut f = fixture();
    select_agent(&mut f.app, "amp");
    key(&mut f.app, KeyCode::Enter);
    for c in "/pyts".chars() {
        key(&mut f.app, KeyCode::Char(c));
    }
    let shown = f.app.profiles.check_shown(&f.app.data);
    assert_eq!(shown.len(), 1);
    assert_eq!(
        f.app.profiles.agent_checks[shown[0]].name(),
        "python-testing"
    );
    assert_eq!(f.app.profiles.check_sel, shown[0]);
    let text = screen(&mut f.app, 120, 40);
    assert!(text.contains("Checklist /pyts▏ · 1 of "), "{text}");
    insta::assert_snapshot!("agent_checklist_filtered_120x40", text);
    insta::assert_snapshot!("agent_checklist_filtered_80x24", screen(&mut f.app, 80, 24));
    key(&mut f.app, KeyCode::Enter);
    key(&mut f.app, KeyCode::Char(' '));
    let given = f.user.join(".config/agents/skills/python-testing");
    assert!(given.join("SKILL.md").is_file(), "{:?}", f.app.status);
    // Only the row shown was given.
    let dir = fs::read_dir(f.user.join(".config/agents/skills")).unwrap();
    let names: Vec<String> = dir
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "deploy and python-testing: {names:?}");
}

#[test]
fn capital_a_ticks_agents_to_list_and_saves_them_in_the_config_dir() {
    use skilltui::core::agents::asked;
    use skilltui::tui::dialogs::Dialog;
    let mut f = fixture();
    let path = asked::path(&f.user);
    assert!(
        path.starts_with(&f.user),
        "XDG_CONFIG_HOME is set: this test would write outside its temp dir"
    );
    assert!(!f.app.data.agents.iter().any(|a| a.agent.id == "codex"));
    key(&mut f.app, KeyCode::Char('3'));
    key(&mut f.app, KeyCode::Char('A'));
    let Some(Dialog::ListAgents(d)) = &f.app.dialog else {
        panic!("no dialog: {:?}", f.app.status);
    };
    // Every agent skilltui knows (22), but CAO, whose agents are pane 3's
    // profiles.
    let known = skilltui::core::agents::table::load(None).agents;
    assert_eq!(known.len(), 22);
    assert_eq!(d.items.len(), 21, "{:?}", d.items);
    assert!(!d.items.iter().any(|k| k.id == "cao"));
    let codex = d.items.iter().position(|k| k.id == "codex").unwrap();
    insta::assert_snapshot!("list_agents_120x40", screen(&mut f.app, 120, 40));
    insta::assert_snapshot!("list_agents_80x24", screen(&mut f.app, 80, 24));
    for _ in 0..codex {
        key(&mut f.app, KeyCode::Char('j'));
    }
    key(&mut f.app, KeyCode::Char(' '));
    key(&mut f.app, KeyCode::Enter);
    assert!(f.app.dialog.is_none());
    let said = f.app.status.clone().unwrap().text;
    assert!(said.starts_with("pane 3 lists 1 agent"), "{said}");
    // Saved, and listed now though not detected.
    assert_eq!(asked::read(&path).unwrap().0, ["codex"]);
    let row = f.app.data.agents.iter().find(|a| a.agent.id == "codex");
    assert!(row.is_some_and(|r| !r.detected));
    // A new skilltui reads it back; the dialog shows it ticked.
    let mut again = App::new(f.app.data.home.clone(), Theme::dark());
    again.reload();
    assert_eq!(again.data.asked_agents, ["codex"]);
    key(&mut again, KeyCode::Char('3'));
    key(&mut again, KeyCode::Char('A'));
    let Some(Dialog::ListAgents(d)) = &again.dialog else {
        panic!("no dialog");
    };
    assert!(d.chosen[codex]);
    // Unticked and saved: gone again.
    for _ in 0..codex {
        key(&mut again, KeyCode::Char('j'));
    }
    key(&mut again, KeyCode::Char(' '));
    key(&mut again, KeyCode::Enter);
    assert!(asked::read(&path).unwrap().0.is_empty());
    assert!(!again.data.agents.iter().any(|a| a.agent.id == "codex"));
}

/// A user home where Codex and Amp are detected, with no CAO installed
/// and no CAO home: an agents-only user's first start.
fn agents_only_app(tmp: &std::path::Path) -> App {
    let user = tmp.to_path_buf();
    fs::create_dir_all(user.join(".codex")).unwrap();
    fs::create_dir_all(user.join(".config/amp")).unwrap();
    skill(&user.join(".codex/skills"), "pdf", "Reads PDF files");
    let home = Home::at(tmp.join("no-cao-home"), user);
    assert!(
        home.cao().is_err(),
        "this test needs a process that finds no CAO (unset SKILLTUI_CAO)"
    );
    let mut app = App::new(home, Theme::dark());
    app.data.agent_cwd = Some(tmp.join("proj"));
    app
}

/// Someone who runs agents without CAO met `code_supervisor` and
/// `Catalog · kiro_cli (fallback)` first: with no CAO and no CAO home the
/// first screen is their agents, the first one selected, pane 4 showing
/// what it finds and what its model sees.
#[test]
fn without_cao_the_first_screen_is_the_agents_found_here() {
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    let mut app = agents_only_app(tmp.path());
    assert_eq!(app.focus, Pane::Profiles);
    let first = app.data.agents.iter().find(|a| a.detected).unwrap();
    let first = first.agent.id.clone();
    let selected = app.profiles.selected_agent(&app.data).unwrap();
    assert_eq!(selected.agent.id, first);
    let status = app.status.clone().unwrap();
    assert!(status.text.starts_with("No CAO here"), "{status:?}");
    assert!(!status.is_error(), "{status:?}");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Finds · Codex"), "{text}");
    assert!(!text.contains("Catalog ·"), "{text}");
    insta::assert_snapshot!("agents_only_first_screen_120x40", text);
    // 80x24 shows the focused pair: the agents and what the first finds.
    let text = screen(&mut app, 80, 24);
    assert!(
        text.contains("Finds · Codex") && text.contains("◆ codex"),
        "{text}"
    );
    insta::assert_snapshot!("agents_only_first_screen_80x24", text);
}

/// The agents found on a worker (as the real UI finds them) land after the
/// first frame: the first is selected then, unless a key came first.
#[test]
fn without_cao_the_first_agent_is_selected_when_discovery_lands_unless_a_key_came_first() {
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    agents_only_app(tmp.path());
    let home = Home::at(tmp.path().join("no-cao-home"), tmp.path().to_path_buf());
    let mut app = App::agents_later(home.clone(), Theme::dark());
    app.data.agent_cwd = Some(tmp.path().join("proj"));
    assert!(app.data.agents.is_empty());
    app.start_agents();
    app.settle();
    let selected = app.profiles.selected_agent(&app.data).map(|a| &a.agent.id);
    assert_eq!(selected.map(String::as_str), Some("codex"));

    let mut app = App::agents_later(home, Theme::dark());
    app.data.agent_cwd = Some(tmp.path().join("proj"));
    key(&mut app, KeyCode::Char('1'));
    app.start_agents();
    app.settle();
    assert_eq!(app.focus, Pane::Skills);
    assert_eq!(app.profiles.sel, 0, "no jump after the user's key");
}

/// A CAO user's first screen stays as it was: the Skills pane focused and
/// the first profile selected, whatever agents are found.
#[test]
fn with_cao_the_first_screen_stays_on_skills_and_profiles() {
    let f = fixture();
    assert_eq!(f.app.focus, Pane::Skills);
    assert!(f.app.profiles.selected_agent(&f.app.data).is_none());
    assert!(!f.app.agents_first);
}
