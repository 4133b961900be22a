//! The TUI's remove, started in a project whose lock has the skill: the
//! skill's entry goes from the home's lock and the project's, and what it
//! says names both. One test in its own binary: it sets the working
//! directory, as the TUI started in the project has it.

use std::fs;
use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::core::cao::store::Home;
use skilltui::tui::app::App;
use skilltui::tui::theme::Theme;

mod common;
use common::{select_folder, write_skill};

fn locked(path: &Path, name: &str) {
    fs::write(
        path,
        format!(
            "version = 1\n\n[skills.{name}]\nsource = \"https://example.com/o/r.git\"\npath = \"skills/{name}\"\ncommit = \"{}\"\nhash = \"sha256:00\"\n",
            "a".repeat(40)
        ),
    )
    .unwrap();
}

#[test]
fn remove_in_a_project_names_the_projects_lock_too() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("home");
    write_skill(&root.join("skills"), "alpha", "The alpha skill");
    let project = base.join("project");
    fs::create_dir_all(project.join(".git")).unwrap();
    let (home_lock, project_lock) = (root.join("skilltui.lock"), project.join("skilltui.lock"));
    locked(&home_lock, "alpha");
    locked(&project_lock, "alpha");
    std::env::set_current_dir(&project).unwrap();
    let mut app = App::new(Home::at(root.clone(), base.clone()), Theme::dark());
    select_folder(&mut app, "alpha");
    for c in "dy".chars() {
        app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    assert!(!root.join("skills/alpha").exists());
    for lock in [&home_lock, &project_lock] {
        let text = fs::read_to_string(lock).unwrap();
        assert!(!text.contains("alpha"), "{}: {text}", lock.display());
    }
    let said = app.status.clone().expect("a result").text;
    let both = format!(
        "and its entry in {} and {}",
        home_lock.display(),
        project_lock.display()
    );
    assert!(said.contains(&both), "{said}");
}
