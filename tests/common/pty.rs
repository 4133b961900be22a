//! A program in a pseudo-terminal, its screen parsed by a terminal
//! emulator (vt100): spawn, press keys, wait for text, read the settled
//! screen and one pane of it, then check how the program left the
//! terminal. Nothing beyond the pty is needed (no tmux).
//!
//! Waiting is by polling the emulated screen against a generous timeout,
//! never a timed assertion: the machine may be loaded.

use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// How long any one wait may take before the test fails.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The screen is settled once no output came for this long.
const QUIET: Duration = Duration::from_millis(300);
/// crossterm reads ESC followed at once by a key as Alt+key.
const AFTER_ESC: Duration = Duration::from_millis(200);

/// What the reader thread has seen of the program's output.
struct Output {
    parser: vt100::Parser,
    raw: Vec<u8>,
    /// Bumped on every chunk: a cheap "did anything change" check.
    chunks: u64,
    closed: bool,
}

type Shared = Arc<(Mutex<Output>, Condvar)>;

/// One program running in its own pty.
pub struct Term {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    out: Shared,
}

impl Drop for Term {
    fn drop(&mut self) {
        // A failed test must not leave the program running.
        if let Ok(None) = self.child.try_wait() {
            if let Some(pid) = self.child.process_id() {
                // SAFETY: kill(2) on the pid of our own, not yet reaped child.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            }
            let _ = self.child.wait();
        }
    }
}

impl Term {
    /// Starts `cmd` in a `cols` x `rows` pty.
    pub fn spawn(cmd: CommandBuilder, cols: u16, rows: u16) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let child = pair.slave.spawn_command(cmd).expect("spawn in the pty");
        // Our copy of the slave must go, or reading never sees the exit.
        drop(pair.slave);
        let out: Shared = Arc::new((
            Mutex::new(Output {
                parser: vt100::Parser::new(rows, cols, 0),
                raw: Vec::new(),
                chunks: 0,
                closed: false,
            }),
            Condvar::new(),
        ));
        let reader = pair.master.try_clone_reader().expect("pty reader");
        let feed = out.clone();
        std::thread::spawn(move || read_all(reader, &feed));
        let writer = pair.master.take_writer().expect("pty writer");
        Term {
            master: pair.master,
            writer,
            child,
            out,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Output> {
        self.out.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Named keys, one write each: `Enter`, `Escape`, `Space`, `Tab`,
    /// `BTab`, `Up`, `Down`, `Left`, `Right`, `BSpace`, `C-x` (Ctrl), or
    /// a single character.
    pub fn keys(&mut self, keys: &[&str]) {
        for k in keys {
            self.write(&key_bytes(k));
            if *k == "Escape" {
                std::thread::sleep(AFTER_ESC);
            }
        }
    }

    /// Literal text, as typed.
    pub fn type_text(&mut self, text: &str) {
        self.write(text.as_bytes());
    }

    fn write(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write to the pty");
        self.writer.flush().expect("flush the pty");
    }

    /// The screen as text: one line per row, trailing blanks trimmed.
    pub fn screen(&self) -> String {
        screen_text(&self.lock().parser)
    }

    /// Waits until `ok` holds for the screen; panics with the last screen
    /// after the timeout.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + TIMEOUT;
        let mut out = self.lock();
        loop {
            let screen = screen_text(&out.parser);
            if ok(&screen) {
                return screen;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                panic!("timed out waiting for {what}; the screen was:\n{screen}");
            };
            out = self.out.1.wait_timeout(out, left).unwrap().0;
        }
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until every one of `texts` shows at once (a frame can be
    /// caught half drawn, so what a test asserts on is waited for whole).
    pub fn wait_all(&self, texts: &[&str]) -> String {
        self.wait_for(&format!("{texts:?}"), |s| {
            texts.iter().all(|t| s.contains(t))
        })
    }

    /// Waits until the pane titled `title` shows and `ok` holds for its
    /// text; returns that text.
    pub fn wait_pane(&self, title: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let screen = self.wait_for(what, |s| s.contains(title) && ok(&pane(s, title)));
        pane(&screen, title)
    }

    /// The screen once the program has written nothing for a while: what
    /// a test asserts is absent is checked on this.
    pub fn settled(&self) -> String {
        let deadline = Instant::now() + TIMEOUT;
        let mut out = self.lock();
        loop {
            let seen = out.chunks;
            let (next, waited) = self.out.1.wait_timeout(out, QUIET).unwrap();
            out = next;
            if waited.timed_out() && out.chunks == seen {
                return screen_text(&out.parser);
            }
            if Instant::now() > deadline {
                panic!(
                    "the screen never settled; last:\n{}",
                    screen_text(&out.parser)
                );
            }
        }
    }

    /// The program's process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("the child's pid")
    }

    /// Sends `signal` to the program.
    pub fn signal(&self, signal: libc::c_int) {
        let pid = self.pid();
        // SAFETY: kill(2) on the pid of our own, not yet reaped child.
        let rc = unsafe { libc::kill(pid as libc::pid_t, signal) };
        assert_eq!(rc, 0, "kill({pid}, {signal}) failed");
    }

    /// Waits for the program to exit and for its last output to be read;
    /// returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for the child") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the program did not exit; the screen was:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let out = self.lock();
        let left = deadline.saturating_duration_since(Instant::now());
        let (out, _) = self
            .out
            .1
            .wait_timeout_while(out, left, |o| !o.closed)
            .unwrap();
        assert!(out.closed, "the pty stayed open after the exit");
        status.exit_code()
    }

    /// Whether the program last set (`h`) or reset (`l`) the private mode
    /// `mode` (1049 alternate screen, 1000 mouse, 25 cursor...), read from
    /// the raw output stream; `None` if it never touched it.
    pub fn private_mode(&self, mode: u16) -> Option<bool> {
        let raw = &self.lock().raw;
        let last = |end: char| {
            let seq = format!("\x1b[?{mode}{end}");
            raw.windows(seq.len()).rposition(|w| w == seq.as_bytes())
        };
        match (last('h'), last('l')) {
            (None, None) => None,
            (on, off) => Some(on > off),
        }
    }

    /// The tty's line discipline: (canonical input, echo), as `stty` would
    /// show them. The pty's master reports the program's side.
    pub fn line_modes(&self) -> (bool, bool) {
        let fd = self.master.as_raw_fd().expect("the pty's fd");
        // SAFETY: termios is plain data; tcgetattr fills it or fails.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::tcgetattr(fd, &mut t) };
        assert_eq!(rc, 0, "tcgetattr: {}", std::io::Error::last_os_error());
        (t.c_lflag & libc::ICANON != 0, t.c_lflag & libc::ECHO != 0)
    }
}

fn read_all(mut reader: Box<dyn Read + Send>, out: &Shared) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut o = out.0.lock().unwrap_or_else(|e| e.into_inner());
                o.parser.process(&buf[..n]);
                o.raw.extend_from_slice(&buf[..n]);
                o.chunks += 1;
                out.1.notify_all();
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // EIO once the program and everything it started are gone.
            Err(_) => break,
        }
    }
    out.0.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
    out.1.notify_all();
}

fn screen_text(parser: &vt100::Parser) -> String {
    let (_, cols) = parser.screen().size();
    let mut text = String::new();
    for row in parser.screen().rows(0, cols) {
        text.push_str(row.trim_end());
        text.push('\n');
    }
    text
}

/// The bytes a terminal sends for the key named `name` (tmux's names).
fn key_bytes(name: &str) -> Vec<u8> {
    let bytes: &[u8] = match name {
        "Enter" => b"\r",
        "Escape" => b"\x1b",
        "Space" => b" ",
        "Tab" => b"\t",
        "BTab" => b"\x1b[Z",
        "BSpace" => b"\x7f",
        "Up" => b"\x1b[A",
        "Down" => b"\x1b[B",
        "Right" => b"\x1b[C",
        "Left" => b"\x1b[D",
        _ => {
            if let Some(c) = name.strip_prefix("C-").filter(|c| c.len() == 1) {
                return vec![c.as_bytes()[0].to_ascii_lowercase() & 0x1f];
            }
            assert_eq!(name.chars().count(), 1, "unknown key name {name:?}");
            name.as_bytes()
        }
    };
    bytes.to_vec()
}

/// The text inside the pane whose title contains `title`: the rows below
/// its top border down to its bottom border, between its side borders.
pub fn pane(screen: &str, title: &str) -> String {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, col) = rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let s: String = r.iter().collect();
            let at = s.find(title)?;
            Some((i, s[..at].chars().count()))
        })
        .unwrap_or_else(|| panic!("no pane titled {title:?} in:\n{screen}"));
    let row = &rows[top];
    let left = (0..col)
        .rev()
        .find(|&c| matches!(row[c], '┏' | '╭' | '╔'))
        .unwrap_or(0);
    let right = (col..row.len())
        .find(|&c| matches!(row[c], '┓' | '╮' | '╗'))
        .unwrap_or(row.len());
    let mut out = String::new();
    for r in &rows[top + 1..] {
        if matches!(r.get(left), Some('┗' | '╰' | '╚')) {
            break;
        }
        let end = right.min(r.len());
        let start = (left + 1).min(end);
        out.extend(&r[start..end]);
        out.push('\n');
    }
    out
}
