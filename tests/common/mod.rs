//! Helpers the TUI's tests share: a SKILL.md fixture writer and picking a
//! skill by its folder.

use std::fs;
use std::path::Path;

use skilltui::tui::app::App;

/// `dir/name/SKILL.md` with `description: desc` (YAML as written) and a
/// short Markdown body with a code block.
pub fn write_skill(dir: &Path, name: &str, desc: &str) {
    fs::create_dir_all(dir.join(name)).unwrap();
    fs::write(
        dir.join(name).join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\nSome *text*.\n\n```rust\nfn main() {{}}\n```\n"),
    )
    .unwrap();
}

/// Selects the skill listed from `folder` (the first such row).
pub fn select_folder(app: &mut App, folder: &str) {
    let entries = &app.data.listing.entries;
    let index = entries
        .iter()
        .position(|e| e.folder == folder)
        .unwrap_or_else(|| panic!("no skill in a folder '{folder}'"));
    assert!(
        app.skills.select_index(index),
        "'{folder}' is hidden by the filter"
    );
}
