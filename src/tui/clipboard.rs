//! Copying text out of the TUI: the system clipboard when there is a local
//! display, else the OSC 52 escape sequence, which the user's terminal turns
//! into a clipboard write (this works over SSH).

use std::io::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// Which route a copy took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyOutcome {
    /// The system clipboard (arboard) holds the text.
    System,
    /// The OSC 52 sequence was written to the terminal; whether the terminal
    /// honours it cannot be known.
    Osc52,
    /// Nothing worked; the reason is for the status line.
    Failed(String),
}

/// The parts of the environment that choose the route, captured once so
/// tests can inject them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClipEnv {
    /// `DISPLAY` or `WAYLAND_DISPLAY` is set (or the OS always has one).
    pub display: bool,
    /// `SSH_TTY` or `SSH_CONNECTION` is set: the user's screen is remote.
    pub ssh: bool,
    /// `TMUX` is set: OSC 52 must be wrapped to pass through tmux.
    pub tmux: bool,
}

impl ClipEnv {
    /// Reads the real environment.
    pub fn from_env() -> ClipEnv {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        // Only X11/Wayland systems need a display variable for a clipboard.
        let needs_display = cfg!(all(unix, not(target_os = "macos")));
        ClipEnv {
            display: !needs_display || set("DISPLAY") || set("WAYLAND_DISPLAY"),
            ssh: set("SSH_TTY") || set("SSH_CONNECTION"),
            tmux: set("TMUX"),
        }
    }

    /// The route a copy takes here, for `skilltui doctor`.
    pub fn describe(&self) -> String {
        let route = if self.prefers_system() {
            "system clipboard (a local display), else OSC 52"
        } else {
            "OSC 52 (no local display, or over SSH)"
        };
        match self.tmux {
            true => format!("{route}; inside tmux, OSC 52 needs `set -g set-clipboard on`"),
            false => route.to_string(),
        }
    }

    /// Whether the system clipboard is worth trying: a local display.
    fn prefers_system(&self) -> bool {
        self.display && !self.ssh
    }
}

/// A place text can be put, so tests can stand in for arboard.
pub trait SystemClipboard {
    /// Puts `text` on the clipboard.
    fn set_text(&mut self, text: &str) -> Result<(), String>;
}

impl SystemClipboard for arboard::Clipboard {
    fn set_text(&mut self, text: &str) -> Result<(), String> {
        arboard::Clipboard::set_text(self, text).map_err(|e| e.to_string())
    }
}

/// Opens the system clipboard (arboard, or a stand-in in tests).
pub type Opener = fn() -> Result<Box<dyn SystemClipboard>, String>;

fn open_arboard() -> Result<Box<dyn SystemClipboard>, String> {
    arboard::Clipboard::new()
        .map(|c| Box::new(c) as Box<dyn SystemClipboard>)
        .map_err(|e| e.to_string())
}

/// The app's clipboard. Keep one for the app's whole life: on X11 the copied
/// text disappears when the arboard handle that owns it is dropped.
pub struct Clipboard {
    env: ClipEnv,
    /// The tmux program asked for its settings (a stand-in in tests).
    pub tmux: std::path::PathBuf,
    open: Opener,
    /// `None` until the first copy; `Some(Err)` remembers that opening failed
    /// so every later copy does not wait on a dead display again.
    system: Option<Result<Box<dyn SystemClipboard>, String>>,
}

impl Clipboard {
    /// A clipboard for the real environment. Cheap: nothing is opened yet.
    pub fn new() -> Clipboard {
        Clipboard::with_env(ClipEnv::from_env())
    }

    /// A clipboard for a given environment, using arboard.
    pub fn with_env(env: ClipEnv) -> Clipboard {
        Clipboard::with_opener(env, open_arboard)
    }

    /// A clipboard with a stand-in for the system one (tests).
    pub fn with_opener(env: ClipEnv, open: Opener) -> Clipboard {
        Clipboard {
            env,
            tmux: "tmux".into(),
            open,
            system: None,
        }
    }

    /// True inside tmux, where OSC 52 depends on tmux's settings.
    pub fn in_tmux(&self) -> bool {
        self.env.tmux
    }

    /// Inside tmux: whether tmux passes an application's OSC 52 on
    /// (`set-clipboard on`; its default `external` drops it). `false`
    /// when tmux does not answer within a short time.
    pub fn tmux_takes_osc52(&self) -> bool {
        tmux_option(&self.tmux, "set-clipboard").as_deref() == Some("on")
    }

    /// Copies `text`, writing OSC 52 (if needed) to the process's stdout,
    /// which is the terminal the TUI draws on.
    pub fn copy(&mut self, text: &str) -> CopyOutcome {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        self.copy_to(text, &mut out)
    }

    /// Copies `text`: the system clipboard when there is a local display,
    /// else (or when that fails) OSC 52 written to `term`.
    pub fn copy_to(&mut self, text: &str, term: &mut dyn Write) -> CopyOutcome {
        let system_error = if self.env.prefers_system() {
            match self.copy_system(text) {
                Ok(()) => return CopyOutcome::System,
                Err(e) => Some(e),
            }
        } else {
            None
        };
        match write_osc52(term, text, self.env.tmux) {
            Ok(()) => CopyOutcome::Osc52,
            Err(e) => CopyOutcome::Failed(match system_error {
                Some(se) => format!("clipboard: {se}; terminal: {e}"),
                None => format!("terminal: {e}"),
            }),
        }
    }

    fn copy_system(&mut self, text: &str) -> Result<(), String> {
        let open = self.open;
        match self.system.get_or_insert_with(open) {
            Ok(clip) => clip.set_text(text),
            Err(e) => Err(e.clone()),
        }
    }
}

impl Default for Clipboard {
    fn default() -> Self {
        Clipboard::new()
    }
}

/// How long tmux may take to say an option: a copy must not hang on it.
const TMUX_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// `tmux show -gv NAME`, or `None` when tmux fails or is slow.
fn tmux_option(tmux: &std::path::Path, name: &str) -> Option<String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(tmux)
        .args(["show", "-gv", name])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + TMUX_WAIT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    Some(out.trim().to_string())
}

/// The OSC 52 "set clipboard" sequence for `text`. Inside tmux it is sent
/// twice: plain, which tmux itself takes when `set-clipboard` is on (and
/// forwards), and wrapped in tmux's passthrough (`ESC P tmux; ... ESC \`,
/// inner ESCs doubled), which reaches the outer terminal when
/// `allow-passthrough` is on. tmux's defaults (`set-clipboard external`,
/// `allow-passthrough off`) drop both, so the status line says so.
pub fn osc52_sequence(text: &str, tmux: bool) -> Vec<u8> {
    let osc = format!("\x1b]52;c;{}\x07", STANDARD.encode(text));
    if !tmux {
        return osc.into_bytes();
    }
    let inner = osc.replace('\x1b', "\x1b\x1b");
    format!("{osc}\x1bPtmux;{inner}\x1b\\").into_bytes()
}

fn write_osc52(term: &mut dyn Write, text: &str, tmux: bool) -> std::io::Result<()> {
    term.write_all(&osc52_sequence(text, tmux))?;
    term.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    thread_local! {
        static COPIED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    struct Fake;
    impl SystemClipboard for Fake {
        fn set_text(&mut self, text: &str) -> Result<(), String> {
            COPIED.with(|c| c.borrow_mut().push(text.to_string()));
            Ok(())
        }
    }

    fn open_fake() -> Result<Box<dyn SystemClipboard>, String> {
        Ok(Box::new(Fake))
    }

    fn open_broken() -> Result<Box<dyn SystemClipboard>, String> {
        Err("no X11 server".to_string())
    }

    struct BrokenTerm;
    impl Write for BrokenTerm {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("closed"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    const LOCAL: ClipEnv = ClipEnv {
        display: true,
        ssh: false,
        tmux: false,
    };

    #[test]
    fn osc52_plain_bytes() {
        assert_eq!(osc52_sequence("hi", false), b"\x1b]52;c;aGk=\x07");
    }

    #[test]
    fn osc52_tmux_wrapped_with_doubled_escapes() {
        assert_eq!(
            osc52_sequence("hi", true),
            b"\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"
        );
    }

    #[test]
    fn local_display_uses_the_system_clipboard_and_keeps_it() {
        let mut clip = Clipboard::with_opener(LOCAL, open_fake);
        let mut term = Vec::new();
        assert_eq!(clip.copy_to("one", &mut term), CopyOutcome::System);
        assert_eq!(clip.copy_to("two", &mut term), CopyOutcome::System);
        assert!(term.is_empty());
        assert!(matches!(clip.system, Some(Ok(_))));
        COPIED.with(|c| assert_eq!(*c.borrow(), ["one", "two"]));
    }

    #[test]
    fn no_display_or_ssh_uses_osc52() {
        for env in [ClipEnv::default(), ClipEnv { ssh: true, ..LOCAL }] {
            let mut clip = Clipboard::with_opener(env, open_fake);
            let mut term = Vec::new();
            assert_eq!(clip.copy_to("hi", &mut term), CopyOutcome::Osc52);
            assert_eq!(term, osc52_sequence("hi", false));
            assert!(clip.system.is_none(), "arboard must not be opened");
        }
    }

    #[test]
    fn tmux_over_ssh_wraps_the_sequence() {
        let env = ClipEnv {
            display: false,
            ssh: true,
            tmux: true,
        };
        let mut term = Vec::new();
        let out = Clipboard::with_opener(env, open_fake).copy_to("hi", &mut term);
        assert_eq!(out, CopyOutcome::Osc52);
        assert_eq!(term, osc52_sequence("hi", true));
    }

    #[test]
    fn arboard_failure_falls_back_to_osc52() {
        let mut clip = Clipboard::with_opener(LOCAL, open_broken);
        let mut term = Vec::new();
        assert_eq!(clip.copy_to("x", &mut term), CopyOutcome::Osc52);
        assert_eq!(term, osc52_sequence("x", false));
    }

    #[test]
    fn every_route_failing_reports_why() {
        let mut clip = Clipboard::with_opener(LOCAL, open_broken);
        match clip.copy_to("x", &mut BrokenTerm) {
            CopyOutcome::Failed(why) => {
                assert!(
                    why.contains("no X11 server") && why.contains("closed"),
                    "{why}"
                )
            }
            other => panic!("expected failure, got {other:?}"),
        }
    }

    /// A stand-in tmux: a script that runs `body`.
    #[cfg(unix)]
    fn fake_tmux(dir: &std::path::Path, body: &str) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("tmux");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[cfg(unix)]
    #[test]
    fn tmux_is_asked_for_set_clipboard_and_a_slow_one_is_not_waited_for() {
        let tmp = tempfile::tempdir().unwrap();
        let mut clip = Clipboard::with_env(ClipEnv {
            tmux: true,
            ..ClipEnv::default()
        });
        clip.tmux = fake_tmux(
            tmp.path(),
            "[ \"$*\" = 'show -gv set-clipboard' ] && echo on",
        );
        assert!(clip.tmux_takes_osc52());
        let off = tempfile::tempdir().unwrap();
        clip.tmux = fake_tmux(off.path(), "echo external");
        assert!(!clip.tmux_takes_osc52());
        let slow = tempfile::tempdir().unwrap();
        clip.tmux = fake_tmux(slow.path(), "exec sleep 30");
        assert!(!clip.tmux_takes_osc52(), "no answer in time: not on");
        clip.tmux = tmp.path().join("no-such-tmux");
        assert!(!clip.tmux_takes_osc52());
    }
}
