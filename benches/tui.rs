//! `cargo bench --bench tui`: on generated stores of 1,000 and 10,000
//! skills, first the real release binary in a 120x40 pty, cold (no kept
//! verdicts, the store's pages evicted) and warm: the time to its first
//! frame, to the frame with every row confirmed, its peak memory once
//! idle, beside the floors (`stat` of the files, reading their bytes),
//! and keys while the checks run. Then, in this process, at 120x40, the
//! time from nothing to the first drawn frame
//! (`App::checks_later`, as the real UI starts, the update pass and one draw), from a key to the redrawn
//! frame (a move, a key typed in the filter, a toggle that writes the
//! profile and recomputes the catalog), and the peak memory. Each size runs
//! in a child process so that its peak is its own. Every agent is detected
//! (their dirs made in the temp home, 50 skills in ~/.agents/skills);
//! their discovery, which the real UI does on a worker after the first
//! frame and after every reload, is timed on its own, also over a project
//! of 100,000 entries. Each figure is printed beside the same thing done
//! the older way (agent discovery on the UI thread, `App::new`),
//! measured in the same run. Prints medians; asserts nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::core::cao::store::Home;
use skilltui::tui::app::App;
use skilltui::tui::theme::Theme;
use skilltui::tui::ui;

mod common;
use common::{cpu_time, ms};
#[allow(dead_code)]
#[path = "../tests/common/pty.rs"]
mod pty;

/// Set in the child process: the store size it measures.
const SIZE_VAR: &str = "SKILLTUI_BENCH_SKILLS";

fn main() {
    match std::env::var(SIZE_VAR).ok().and_then(|v| v.parse().ok()) {
        Some(n) => measure(n),
        None => {
            for n in [1_000usize, 10_000] {
                let exe = std::env::current_exe().expect("the bench's path");
                let status = std::process::Command::new(exe)
                    .env(SIZE_VAR, n.to_string())
                    .status()
                    .expect("run the bench for one size");
                assert!(status.success(), "the {n}-skill run failed");
            }
        }
    }
}

type Term = Terminal<TestBackend>;

/// The user home (the temp dir) with every agent detected and 50 skills in
/// `~/.agents/skills`, which several of them read: the first frame
/// includes discovering what each agent finds.
fn agents_home(user: &std::path::Path) {
    for d in [
        ".claude",
        ".codex",
        ".config/opencode",
        ".gemini",
        ".copilot",
        ".cursor",
        ".kiro",
        ".config/amp",
        ".omniforge",
    ] {
        std::fs::create_dir_all(user.join(d)).expect("agent dir");
    }
    for i in 0..50 {
        let dir = user.join(format!(".agents/skills/agent-skill-{i}"));
        std::fs::create_dir_all(&dir).expect("skill dir");
        let text =
            format!("---\nname: agent-skill-{i}\ndescription: Agent skill {i}\n---\nBody {i}.\n");
        std::fs::write(dir.join("SKILL.md"), text).expect("skill");
    }
}

fn measure(n: usize) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("home");
    let bytes = common::generate_n(&root, n);
    // Written back before timing: the kernel flushing the generator's
    // 154 MiB is not part of starting the TUI.
    unsafe { libc::sync() };
    agents_home(tmp.path());
    // The real binary in a pty first, before this process's own runs fill
    // the page cache and the verdict cache.
    real_start(n, &root, tmp.path());
    if std::env::var_os("SKILLTUI_BENCH_START_ONLY").is_some() {
        // The real binary's starts and the floors, nothing else.
        return;
    }
    let home = || Home::at(root.clone(), tmp.path().to_path_buf());
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    println!(
        "{n} skills ({:.1} MiB), 120x40:",
        bytes as f64 / 1024.0 / 1024.0
    );
    // A store's files are older than the 2 s for which a stamp cannot
    // tell a change: as they are in use, not just written.
    std::thread::sleep(Duration::from_millis(2100));
    // As the real UI starts: verdicts kept on disk by the run before, the
    // agents found on a worker after the first frame.
    let cache =
        skilltui::core::cao::verdicts::file::path_for(&root, tmp.path()).expect("an absolute dir");
    let first_ever = median(5, || {
        let _ = std::fs::remove_file(&cache);
        let start = Instant::now();
        let h = started(&mut term, home());
        let took = start.elapsed();
        h.verdicts.flush();
        took
    });
    let first_cpu = median(5, || {
        let start = cpu_time();
        started(&mut term, home());
        cpu_time() - start
    });
    let first = median(5, || {
        let start = Instant::now();
        started(&mut term, home());
        start.elapsed()
    });
    if std::env::var_os("SKILLTUI_BENCH_FIRST_FRAME_ONLY").is_some() {
        // For a profiler: nothing but first frames after the store is made.
        for _ in 0..40 {
            started(&mut term, home());
        }
        return;
    }
    let before_cpu = median(5, || {
        let start = cpu_time();
        let mut app = App::new(home(), Theme::dark());
        term.draw(|f| ui::draw(f, &mut app)).expect("draw");
        cpu_time() - start
    });
    let before = median(5, || {
        let start = Instant::now();
        let mut app = App::new(home(), Theme::dark());
        term.draw(|f| ui::draw(f, &mut app)).expect("draw");
        start.elapsed()
    });
    println!(
        "  start to first frame, the verdicts kept on disk by the run before: median {:.1} ms, {:.1} ms of CPU on all threads{}",
        ms(first),
        ms(first_cpu),
        was(n, "140.8 ms, 243.1 ms of CPU; target 60 ms"),
    );
    println!(
        "  start to first frame, first run ever (no verdicts on disk, every SKILL.md read): median {:.1} ms; the older way (agents found on the UI thread first, nothing kept): {:.1} ms, {:.1} ms of CPU",
        ms(first_ever),
        ms(before),
        ms(before_cpu)
    );
    let agents = median(5, || {
        let start = Instant::now();
        let (_, rows) = skilltui::tui::panes::agent_view::load(&home(), Some(tmp.path()), &[]);
        assert!(!rows.is_empty());
        start.elapsed()
    });
    println!(
        "  agent discovery (9 agents detected), on a worker after the first frame: median {:.1} ms",
        ms(agents)
    );

    if n == 10_000 {
        big_project(tmp.path(), &home());
    }

    // As the real UI runs: discovery on a worker after every reload.
    let mut app = App::agents_later(home(), Theme::dark());
    app.start_agents();
    app.settle();
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    let moves = keys(&mut term, &mut app, &[KeyCode::Char('j')], 50);
    println!(
        "  key to redrawn frame, move in Skills: median {:.2} ms{}",
        ms(moves),
        was(n, "1.64 ms; target 8 ms")
    );
    press(&mut term, &mut app, KeyCode::Char('/'));
    // Typing and erasing: every key changes the query.
    let typed = keys(
        &mut term,
        &mut app,
        &[KeyCode::Char('9'), KeyCode::Backspace],
        50,
    );
    println!(
        "  key to redrawn frame, typed in the filter: median {:.2} ms{}",
        ms(typed),
        was(n, "1.72 ms; target 8 ms")
    );
    press(&mut term, &mut app, KeyCode::Esc);
    press(&mut term, &mut app, KeyCode::Char('3'));
    press(&mut term, &mut app, KeyCode::Enter);
    // The last skill: no pattern offers it, so each Space writes.
    press(&mut term, &mut app, KeyCode::Char('G'));
    let toggles = keys(&mut term, &mut app, &[KeyCode::Char(' ')], 20);
    app.settle();
    // The catalog a worker computes, from the key to the frame showing it.
    let catalog = median(9, || {
        until_shown(&mut term, &mut app, KeyCode::Char(' '), |a| {
            a.catalog.updating
        })
    });
    // The older way: the toggle's reload found the agents on the UI thread.
    let mut inline = App::new(home(), Theme::dark());
    term.draw(|f| ui::draw(f, &mut inline)).expect("draw");
    for code in [KeyCode::Char('3'), KeyCode::Enter, KeyCode::Char('G')] {
        press(&mut term, &mut inline, code);
    }
    let before = keys(&mut term, &mut inline, &[KeyCode::Char(' ')], 20);
    println!(
        "  key to redrawn frame, toggle + write + catalog: median {:.2} ms (discovery on the UI thread, the older way: {:.2} ms){}",
        ms(toggles),
        ms(before),
        was(n, "23.17 ms; target 8 ms")
    );
    println!(
        "  toggle to the frame showing the worker's catalog: median {:.1} ms (not a key's wait: the UI answers keys meanwhile)",
        ms(catalog)
    );
    if n == common::SKILLS {
        big_preview(&root, &home());
    }
    println!("  peak memory (VmHWM): {}", peak_memory());
}

/// The floors and the real binary's starts, cold and warm, printed.
fn real_start(n: usize, root: &Path, user: &Path) {
    // A store's files are older than the 2 s for which a stamp cannot
    // tell a change: as they are in use, not just written.
    std::thread::sleep(Duration::from_millis(2100));
    let files: Vec<PathBuf> = (0..n)
        .map(|i| root.join(format!("skills/skill-{i:04}/SKILL.md")))
        .collect();
    evict(&files);
    let cat_cold = time(|| cat(&files));
    let cat_warm = median(5, || time(|| cat(&files)));
    let stat = median(5, || {
        time(|| {
            for f in &files {
                std::fs::metadata(f).expect("stat");
            }
        })
    });
    println!(
        "  floors: stat of the {n} SKILL.md files {:.1} ms; cat of their bytes {:.1} ms from the disk (pages evicted), {:.1} ms from the page cache",
        ms(stat),
        ms(cat_cold),
        ms(cat_warm)
    );
    let cache = user.join("cache");
    let kept = skilltui::core::cao::verdicts::file::path_for(root, user);
    let _ = std::fs::remove_dir_all(&cache);
    evict(&files);
    let cold = run_binary(root, user, &cache);
    println!(
        "  the real binary in a 120x40 pty, cold (no kept verdicts, the store's pages evicted): first frame {:.1} ms; every row confirmed {:.1} ms; peak memory once idle {} KiB",
        ms(cold.first),
        ms(cold.confirmed),
        cold.peak_kib
    );
    assert!(
        kept.is_some_and(|_| cache.join("skilltui/verdicts").is_dir()),
        "the cold run kept its verdicts"
    );
    let warm: Vec<Started> = (0..5).map(|_| run_binary(root, user, &cache)).collect();
    let pick = |f: fn(&Started) -> Duration| median_of(warm.iter().map(f).collect());
    let peak = warm.iter().map(|s| s.peak_kib).max().unwrap_or(0);
    println!(
        "  the real binary, warm (verdicts kept by the run before), median of 5: first frame {:.1} ms; every row confirmed {:.1} ms; peak memory once idle, the highest of 5: {peak} KiB",
        ms(pick(|s| s.first)),
        ms(pick(|s| s.confirmed)),
    );
    keys_while_checking(root, user, &files);
}

/// What one start of the real binary took.
struct Started {
    first: Duration,
    confirmed: Duration,
    peak_kib: u64,
}

/// `skilltui --home ROOT` in a 120x40 pty: to the first skill drawn, to
/// the frame with no row left to check; its peak memory once it is idle
/// (the audit and agent discovery done); then `q`.
fn run_binary(root: &Path, user: &Path, cache: &Path) -> Started {
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.arg("--home");
    cmd.arg(root);
    cmd.env("HOME", user);
    cmd.env("XDG_CACHE_HOME", cache);
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("SKILLTUI_AGENTS");
    cmd.cwd(user);
    let start = Instant::now();
    let mut term = pty::Term::spawn(cmd, 120, 40);
    term.wait_text("skill-0000");
    let first = start.elapsed();
    term.wait_for("every row confirmed", |s| {
        s.contains("Skills (") && !s.contains("checking")
    });
    let confirmed = start.elapsed();
    let pid = term.pid();
    wait_idle(pid);
    let peak_kib = status_kib(pid, "VmHWM");
    term.keys(&["q"]);
    term.wait_exit();
    Started {
        first,
        confirmed,
        peak_kib,
    }
}

/// Waits until `pid` has used no CPU for 500 ms (at most 60 s).
fn wait_idle(pid: u32) {
    let cpu = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // utime and stime: fields 14 and 15, counted after the name's ')'.
        let after = stat.rsplit(')').next().unwrap_or("");
        let f: Vec<&str> = after.split_whitespace().collect();
        let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        n(11) + n(12)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = cpu();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        let now = cpu();
        if now == last {
            return;
        }
        last = now;
    }
}

fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The files' pages dropped from the page cache (they were flushed
/// first): the next read comes from the disk. Only these files: the
/// machine's other work keeps its cache.
fn evict(files: &[PathBuf]) {
    unsafe { libc::sync() };
    for f in files {
        if let Ok(file) = std::fs::File::open(f) {
            use std::os::fd::AsRawFd;
            // SAFETY: an open fd; advice only, nothing is written.
            unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
    }
}

fn cat(files: &[PathBuf]) {
    let mut total = 0;
    for f in files {
        total += std::fs::read(f).expect("read").len();
    }
    assert!(total > 0);
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// Keys while the first listing is being checked (cold: nothing kept,
/// pages evicted), on the App as the event loop drives it: each key and
/// its frame timed, and each landing of the checks' batches (the UI
/// thread rebuilds the listing then, and a key pressed meanwhile waits).
fn keys_while_checking(root: &Path, user: &Path, files: &[PathBuf]) {
    let h = Home::at(root.to_path_buf(), user.to_path_buf());
    evict(files);
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut app = App::checks_later(h, Theme::dark());
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    app.start_checks();
    let (mut keys, mut landed) = (Vec::new(), Vec::new());
    let codes = [KeyCode::Char('j'), KeyCode::Char('k')];
    while app.checking.is_some() {
        for &code in &codes {
            let start = Instant::now();
            app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
            term.draw(|f| ui::draw(f, &mut app)).expect("draw");
            keys.push(start.elapsed());
        }
        let start = Instant::now();
        if app.poll_one(Duration::from_millis(2)) {
            app.poll_jobs();
            landed.push(start.elapsed());
        }
    }
    app.settle();
    let worst = landed.iter().max().copied().unwrap_or_default();
    println!(
        "  keys while the checks run (cold): median {:.2} ms over {} keys; a batch landing takes the UI thread {:.2} ms at most ({} batches), so a key waits at most {:.2} ms",
        ms(median_of(keys.clone())),
        keys.len(),
        ms(worst),
        landed.len(),
        ms(worst + keys.iter().max().copied().unwrap_or_default())
    );
}

/// As the real UI starts `h`: verdicts kept on disk by the run before,
/// the agents found on a worker after the first frame, which is drawn.
fn started(term: &mut Term, h: Home) -> Home {
    h.keep_verdicts_on_disk();
    let mut app = App::checks_later(h.clone(), Theme::dark());
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    h
}

/// The figure of `TODAY` and the target, for the 10,000-skill run (the
/// one they were measured on).
fn was(n: usize, figures: &str) -> String {
    match n {
        10_000 => format!(" [{TODAY}: {figures}]"),
        _ => String::new(),
    }
}

/// Where the figures in brackets come from: `cargo bench --bench tui` on
/// main before this branch, idle (load 1.5), 2026-11-26.
const TODAY: &str = "main on 2026-11-26";

/// One key and the redraw, timed; then, untimed, what workers reported
/// meanwhile is taken, as the event loop takes it when woken.
fn press(term: &mut Term, app: &mut App, code: KeyCode) -> Duration {
    let start = Instant::now();
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
    term.draw(|f| ui::draw(f, app)).expect("draw");
    let took = start.elapsed();
    app.poll_jobs();
    took
}

/// From `code` to the frame that shows what its worker computed, while
/// `waiting` says the worker's result has not landed.
fn until_shown(
    term: &mut Term,
    app: &mut App,
    code: KeyCode,
    waiting: fn(&App) -> bool,
) -> Duration {
    let start = Instant::now();
    press(term, app, code);
    while waiting(app) {
        std::thread::sleep(Duration::from_micros(200));
        app.poll_jobs();
    }
    term.draw(|f| ui::draw(f, app)).expect("draw");
    start.elapsed()
}

/// A project of 100,000 entries in `.agents/skills` (and a few skills): the
/// agents' discovery over it, timed, and what a reload there costs the UI
/// thread now that discovery runs on a worker.
fn big_project(user: &std::path::Path, home: &Home) {
    let proj = user.join("big-project");
    let skills = proj.join(".agents/skills");
    for i in 0..100_000 {
        let dir = skills.join(format!("d{i:06}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        if i % 10_000 == 0 {
            let text = format!("---\nname: d{i:06}\ndescription: Project skill {i}\n---\n");
            std::fs::write(dir.join("SKILL.md"), text).expect("skill");
        }
    }
    let found = median(3, || {
        let start = Instant::now();
        let (_, rows) = skilltui::tui::panes::agent_view::load(home, Some(&proj), &[]);
        assert!(!rows.is_empty());
        start.elapsed()
    });
    let mut app = App::agents_later(home.clone(), Theme::dark());
    app.data.agent_cwd = Some(proj.clone());
    app.start_agents();
    app.settle();
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    term.draw(|f| ui::draw(f, &mut app)).expect("draw");
    let reload = keys(&mut term, &mut app, &[KeyCode::Char('r')], 10);
    app.settle();
    // The worker's listing, from the key to the frame that shows it (the
    // discovery runs beside it, as it does in the real UI).
    let landed = median(5, || {
        until_shown(&mut term, &mut app, KeyCode::Char('r'), |a| {
            a.skills.refreshing
        })
    });
    app.settle();
    let mut inline = App::new(home.clone(), Theme::dark());
    inline.data.agent_cwd = Some(proj.clone());
    let before = keys(&mut term, &mut inline, &[KeyCode::Char('r')], 3);
    println!(
        "  agent discovery over a project of 100,000 entries in .agents/skills: median {:.1} ms, on a worker; key r (reload) to redrawn frame there: median {:.2} ms, the store read on a worker (all on the UI thread, the older way: {:.2} ms) [{TODAY}, before the 10,000-entry read cap: 5127.4 ms, r 199.02 ms; target r 8 ms]",
        ms(found),
        ms(reload),
        ms(before)
    );
    println!(
        "  key r to the frame showing the worker's listing: median {:.1} ms (not a key's wait: the UI answers keys meanwhile)",
        ms(landed)
    );
    std::fs::remove_dir_all(&proj).expect("clean up");
}

/// The median time of `times` rounds of `codes`, each key timed alone.
fn keys(term: &mut Term, app: &mut App, codes: &[KeyCode], times: usize) -> Duration {
    let all = (0..times)
        .flat_map(|_| codes)
        .map(|&c| press(term, app, c))
        .collect();
    median_of(all)
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
        "  500 KiB SKILL.md, render + highlight (once per selection; on a worker thread in the app): {:.1} ms",
        ms(start.elapsed())
    );
    press(&mut term, &mut app, KeyCode::Char('2'));
    let scrolls = keys(&mut term, &mut app, &[KeyCode::PageDown], 50);
    assert!(app.preview.scroll > 0, "the preview scrolled");
    println!(
        "  500 KiB SKILL.md, key to redrawn frame while scrolling: median {:.2} ms",
        ms(scrolls)
    );
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
