//! `cargo bench --bench tui`: on the 1000-skill store, the time from
//! nothing to the first drawn frame (App::new plus one draw at 120x40),
//! and from a keystroke to the redrawn frame (a move, a toggle that writes
//! the profile and recomputes the catalog). Prints medians and the
//! process's peak memory; asserts nothing.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::core::store::Home;
use skilltui::tui::app::App;
use skilltui::tui::theme::Theme;
use skilltui::tui::ui;

mod common;

fn main() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("home");
    common::generate(&root);
    let home = || Home::at(root.clone(), tmp.path().to_path_buf());
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");

    let first = median(9, || {
        let start = Instant::now();
        let mut app = App::new(home(), Theme::dark());
        term.draw(|f| ui::draw(f, &mut app)).expect("draw");
        start.elapsed()
    });
    println!(
        "start to first frame (1000 skills, 120x40): median {:.1} ms",
        ms(first)
    );

    let mut app = App::new(home(), Theme::dark());
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    let mut key = |app: &mut App, code: KeyCode| {
        let start = Instant::now();
        app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
        term.draw(|f| ui::draw(f, app)).expect("draw");
        start.elapsed()
    };
    let moves = median_of((0..50).map(|_| key(&mut app, KeyCode::Char('j'))).collect());
    println!(
        "key to redrawn frame, move in Skills: median {:.2} ms",
        ms(moves)
    );
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Enter);
    let toggles = median_of((0..20).map(|_| key(&mut app, KeyCode::Char(' '))).collect());
    println!(
        "key to redrawn frame, toggle + write + catalog: median {:.2} ms",
        ms(toggles)
    );
    big_preview(&root, &home());
    println!("peak memory (VmHWM): {}", peak_memory());
}

/// A 500 KiB SKILL.md: the first frame renders and highlights it (once),
/// the frames after only scroll.
fn big_preview(root: &std::path::Path, home: &Home) {
    use std::fmt::Write as _;
    let dir = root.join("skills").join("aaa-big");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut text = String::from("---\nname: aaa-big\ndescription: A very long skill\n---\n");
    let mut s = 0;
    while text.len() < 500 * 1024 {
        let _ = write!(
            text,
            "\n## Part {s}\n\nSome *prose* with `code` and a [link](https://example.com/{s}). {}\n\n1. one\n   - nested\n2. two\n\n| a | b |\n|---|---|\n| {s} | x |\n\n```rust\nfn part_{s}(x: u32) -> u32 {{\n    x * {s}\n}}\n```\n",
            "Words that wrap. ".repeat(20)
        );
        s += 1;
    }
    std::fs::write(dir.join("SKILL.md"), &text).expect("write");
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut app = App::new(home.clone(), Theme::dark());
    // Highlighting loaded, as it is a moment after start.
    app.hl.warm();
    let start = Instant::now();
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    println!(
        "500 KiB SKILL.md, render + highlight (once per selection; on a worker thread in the app): {:.1} ms",
        ms(start.elapsed())
    );
    app.on_key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE));
    let scrolls = median_of(
        (0..50)
            .map(|_| {
                let start = Instant::now();
                app.on_key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
                term.draw(|f| ui::draw(f, &mut app)).expect("draw");
                start.elapsed()
            })
            .collect(),
    );
    assert!(app.preview.scroll > 0, "the preview scrolled");
    println!(
        "500 KiB SKILL.md, key to redrawn frame while scrolling: median {:.2} ms",
        ms(scrolls)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    median_of((0..n).map(|_| f()).collect())
}

fn median_of(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| "unknown".into())
}
