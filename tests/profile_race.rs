//! A profile edit racing a writer that rewrites the file in a loop: every
//! one of the writer's updates survives (the edit is refused instead).

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use skilltui::core::cao::store::{self, Home};
use skilltui::core::cao::{editor, profile};

fn write_skill(store: &Path, name: &str) {
    fs::create_dir_all(store.join(name)).unwrap();
    fs::write(
        store.join(name).join("SKILL.md"),
        format!("---\nname: {name}\ndescription: d\n---\n"),
    )
    .unwrap();
}

/// A home in `root` holding the skills `good` and `more`, and the profile
/// `dev` (version 0) that lists `good`; returns the profile's path too.
fn home_with_dev(root: &Path, more: &[String]) -> (Home, std::path::PathBuf) {
    let home = Home::at(root.join("home"), root.to_path_buf());
    write_skill(&home.skills_dir(), "good");
    for name in more {
        write_skill(&home.skills_dir(), name);
    }
    fs::create_dir_all(home.agent_store()).unwrap();
    let path = home.agent_store().join("dev.md");
    let text = "---\nname: dev\ndescription: v0\nskills: [good]\n---\n";
    fs::write(&path, text).unwrap();
    (home, path)
}

fn version(text: &str) -> u64 {
    let line = text.lines().find(|l| l.starts_with("description: v"));
    line.and_then(|l| l["description: v".len()..].parse().ok())
        .unwrap_or(0)
}

/// True when the file holds a version older than `want`, and still does a
/// moment later. An edit racing a writer that takes no turn is exchanged in
/// and, when what came out was not what it read, put back at once: a
/// reader that lands between the two sees the edit for that instant, but
/// nothing is lost. On a loaded machine the instant can outlast the
/// writer's pause, so a loss is what stays.
fn behind(path: &Path, want: u64) -> bool {
    for _ in 0..3 {
        let now = fs::read_to_string(path).unwrap_or_default();
        if version(&now) >= want {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// The writer's loop: each round checks its previous version is still on
/// disk (or a newer edit of it), then writes the next one as editors do,
/// through a temporary file and a rename. Returns the updates lost.
fn writer(path: &Path, rounds: u64, done: &AtomicBool) -> u64 {
    let tmp = path.with_extension("writer-tmp");
    let mut lost = 0;
    for i in 1..=rounds {
        if behind(path, i - 1) {
            lost += 1;
        }
        let text = format!("---\nname: dev\ndescription: v{i}\nskills: [good]\n---\nPrompt\n");
        fs::write(&tmp, text).unwrap();
        fs::rename(&tmp, path).unwrap();
        // Room for edits to land between the writer's updates.
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    done.store(true, Ordering::SeqCst);
    lost
}

#[test]
fn a_concurrent_writer_loses_no_update() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, path) = home_with_dev(tmp.path(), &["extra".to_string()]);
    let listing = store::list(&home, false);
    let done = AtomicBool::new(false);
    let (lost, applied) = std::thread::scope(|s| {
        let w = s.spawn(|| writer(&path, 1000, &done));
        let mut applied = 0;
        let mut on = true;
        while !done.load(Ordering::SeqCst) {
            let Ok(p) = profile::load(&home, "dev") else {
                continue;
            };
            let plan = match on {
                true => editor::enable(&home, &listing, &p, "extra"),
                false => editor::disable(&home, &listing, &p, "extra"),
            };
            if let Ok(plan) = plan
                && editor::apply(&p, &plan).is_ok()
            {
                applied += 1;
                on = !on;
            }
        }
        (w.join().unwrap(), applied)
    });
    assert_eq!(lost, 0, "{lost} of the writer's updates were overwritten");
    assert!(applied > 0, "no edit ever applied");
}

/// One skilltui writer's loop: turns its own skill on and off `rounds`
/// times, ending on. Its skill is no one else's, so at the start of each
/// round the file must still show what this writer last wrote; returns
/// how often it did not (a change some other writer overwrote).
fn toggler(home: &Home, listing: &store::Listing, skill: &str, rounds: usize) -> usize {
    let mut lost = 0;
    let mut wrote: Option<bool> = None;
    let mut done = 0;
    while done < rounds {
        let p = profile::load(home, "dev").unwrap();
        let on_disk = p.skills.as_ref().unwrap().iter().any(|s| s == skill);
        if wrote.is_some_and(|w| w != on_disk) {
            lost += 1;
        }
        let want = done % 2 == 0 || done + 1 == rounds;
        let plan = match want {
            true => editor::enable(home, listing, &p, skill),
            false => editor::disable(home, listing, &p, skill),
        }
        .unwrap();
        // A refused write (the file changed since the load) is retried.
        if editor::apply(&p, &plan).is_ok() {
            wrote = Some(want);
            done += 1;
        } else {
            wrote = Some(on_disk);
        }
    }
    lost
}

#[test]
fn several_skilltui_writers_lose_no_change() {
    const WRITERS: usize = 8;
    let tmp = tempfile::tempdir().unwrap();
    let skills: Vec<String> = (0..WRITERS).map(|i| format!("s{i}")).collect();
    let (home, _) = home_with_dev(tmp.path(), &skills);
    let listing = store::list(&home, false);
    let lost: usize = std::thread::scope(|s| {
        let handles: Vec<_> = skills
            .iter()
            .map(|skill| s.spawn(|| toggler(&home, &listing, skill, 81)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(lost, 0, "{lost} changes were overwritten by another writer");
    let end = profile::load(&home, "dev").unwrap().skills.unwrap();
    for s in &skills {
        assert!(end.contains(s), "{s} is missing at the end: {end:?}");
    }
}

#[test]
fn profile_enable_run_in_parallel_applies_every_change() {
    const RUNS: usize = 8;
    let tmp = tempfile::tempdir().unwrap();
    let skills: Vec<String> = (0..RUNS).map(|i| format!("s{i}")).collect();
    let (home, _) = home_with_dev(tmp.path(), &skills);
    for verb in ["enable", "disable", "enable"] {
        let runs: Vec<_> = skills
            .iter()
            .map(|s| {
                std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
                    .arg("--home")
                    .arg(&home.root)
                    .args(["profile", verb, "dev", s])
                    .stderr(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for run in runs {
            let out = run.wait_with_output().unwrap();
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{verb}: {said}");
        }
    }
    let end = profile::load(&home, "dev").unwrap().skills.unwrap();
    assert_eq!(end[0], "good");
    for s in &skills {
        assert!(end.contains(s), "{s} is missing at the end: {end:?}");
    }
}
