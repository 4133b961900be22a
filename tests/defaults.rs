//! The default skills we ship: valid for CAO, clean under our lints, and
//! seeded without ever overwriting a user's copy.

use std::fs;
use std::process::Command;

use skilltui::core::cao::skill;
use skilltui::core::cao::store::{self, Home};

#[test]
fn every_default_is_valid_and_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    // No CAO: only our own defaults, none named like one of CAO's.
    let home = Home::at(tmp.path().join("home"), tmp.path().to_path_buf())
        .with_cao(Some(&tmp.path().join("no-cao")));
    let report = store::seed(&home, None).unwrap();
    assert_eq!(
        report.seeded,
        ["code-style", "python-testing", "security-review"]
    );
    for name in &report.seeded {
        let c = skill::check_folder(&home.skills_dir().join(name), true);
        assert!(
            c.errors.is_empty() && c.warnings.is_empty(),
            "{name}: {:?} {:?}",
            c.errors,
            c.warnings
        );
    }
}

#[test]
fn init_keeps_user_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let home_dir = tmp.path().join("home");
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .arg("--home")
            .arg(&home_dir)
            .arg("init")
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    assert!(first.contains("seeded code-style"), "{first}");
    let edited = home_dir.join("skills/code-style/SKILL.md");
    fs::write(&edited, "---\nname: code-style\ndescription: mine\n---\n").unwrap();
    let second = run();
    assert!(
        second.contains("kept code-style (already present)") && second.contains("0 seeded"),
        "{second}"
    );
    assert!(fs::read_to_string(&edited).unwrap().contains("mine"));
}
