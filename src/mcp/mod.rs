//! The MCP face: `skilltui serve` on stdio, through the official Rust SDK
//! (rmcp), which speaks both protocol eras: the `initialize` handshake
//! (2025-06-18, 2025-11-25) and 2026-07-28, found through
//! `server/discover`. What is served and every rule about it is
//! `core::serve`; this module only answers the protocol's methods from a
//! snapshot and swaps the snapshot when the watcher sees a change.

mod gate;
mod handler;

pub use gate::{MAX_IN_FLIGHT, MAX_LISTENS};

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::sync::{Notify, broadcast, mpsc};

use crate::core::cao::store::Home;
use crate::core::serve::catalog::{Catalog, OnHeld, Options};
use crate::core::serve::skill::Cache;
use crate::core::text::sanitize_line;
use crate::core::watch::{self, Watcher};

/// A longer request line is dropped unread (and the server goes on): no
/// request this server answers comes near it, and memory stays bounded.
pub const MAX_LINE: usize = 4 * 1024 * 1024;

/// Folders inside served skills watched beyond what CAO reads (inotify
/// watches are a per-user resource).
const MAX_SKILL_DIRS: usize = 4096;

/// What a change is about, for subscribers of the 2026-07-28 era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Resources,
    Tools,
}

/// The catalog served now, the channel its changes go out on, and the
/// word that a request read more skills (whose folders to watch).
pub struct Shared {
    catalog: RwLock<Arc<Catalog>>,
    changes: broadcast::Sender<Change>,
    read_more: Notify,
}

impl Shared {
    fn new(catalog: Catalog) -> Shared {
        Shared {
            catalog: RwLock::new(Arc::new(catalog)),
            changes: broadcast::channel(16).0,
            read_more: Notify::new(),
        }
    }

    pub fn now(&self) -> Arc<Catalog> {
        self.catalog
            .read()
            .map(|c| c.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    fn replace(&self, new: Arc<Catalog>) -> Arc<Catalog> {
        let mut slot = self.catalog.write().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *slot, new)
    }

    /// Runs `work` on the catalog served now, off the protocol's thread
    /// (it may read skills), and says when it read more of them.
    pub async fn with_catalog<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Catalog) -> T + Send + 'static,
    ) -> Result<T, String> {
        let now = self.now();
        let done = tokio::task::spawn_blocking(move || {
            let before = now.read_count();
            let out = work(&now);
            (out, now.read_count() > before)
        })
        .await
        .map_err(|e| format!("a request's worker failed: {e}"))?;
        if done.1 {
            self.read_more.notify_one();
        }
        Ok(done.0)
    }
}

/// Serves until the client closes stdin. The skills named in the
/// instructions are read first (a bounded number); any other only when a
/// request needs it. A skill held back is named on stderr, one line, when
/// it is first read.
pub fn run(home: Home, opts: Options) -> Result<(), String> {
    let cache = Arc::new(Mutex::new(Cache::default()));
    let on_held = held_printer();
    let first = Catalog::open(&home, &opts, cache.clone(), on_held.clone())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let keep = Keep {
        home,
        opts,
        cache,
        on_held,
    };
    runtime.block_on(serve(keep, first))
}

/// What every new catalog is opened with.
#[derive(Clone)]
struct Keep {
    home: Home,
    opts: Options,
    cache: Arc<Mutex<Cache>>,
    on_held: OnHeld,
}

/// One stderr line per skill held back, the first time it is held back
/// for that reason.
fn held_printer() -> OnHeld {
    let said = Mutex::new(HashSet::new());
    Arc::new(move |line: &str| {
        let mut said = said.lock().unwrap_or_else(|e| e.into_inner());
        if said.insert(line.to_string()) {
            eprintln!("skilltui serve: {}", sanitize_line(line));
        }
    })
}

async fn serve(keep: Keep, first: Catalog) -> Result<(), String> {
    let shared = Arc::new(Shared::new(first));
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = AsyncRwTransport::new_server(stdin, stdout).with_max_line_length(MAX_LINE);
    let started = Arc::new(AtomicBool::new(false));
    let transport = gate::Gate::new(transport, started.clone());
    let server = handler::Server::new(shared.clone());
    let running = match server.serve(transport).await {
        Ok(r) => r,
        // The client left before it said hello: nothing to serve.
        Err(e) if closed_early(&e) => return Ok(()),
        Err(e) => return Err(refused(&e)),
    };
    // No await since the handshake returned: the session's loop has not
    // read a message yet.
    started.store(true, Ordering::Release);
    let (tx, rx) = mpsc::unbounded_channel();
    let watcher = Watcher::new(move || {
        let _ = tx.send(());
    });
    follow(&watcher, &keep.home, &shared.now());
    let peer = running.peer().clone();
    let refresher = Refresher {
        keep,
        shared,
        watcher,
        peer,
    };
    let refreshing = tokio::spawn(refresher.run(rx));
    let _ = running.waiting().await;
    refreshing.abort();
    Ok(())
}

/// Longest stderr line about a refused handshake: the error may quote
/// the client's message, which may be megabytes.
const MAX_REFUSAL: usize = 200;

/// One bounded line naming what the client sent, never the message itself.
fn refused(e: &rmcp::service::ServerInitializeError) -> String {
    use rmcp::model::JsonRpcMessage;
    use rmcp::service::ServerInitializeError as E;
    let why = match e {
        E::ExpectedInitializeRequest(Some(msg)) => match msg {
            JsonRpcMessage::Request(_) => "a request it could not start a session with",
            JsonRpcMessage::Notification(_) => "a notification",
            JsonRpcMessage::Response(_) => "a response",
            JsonRpcMessage::Error(_) => "an error",
        }
        .to_string(),
        other => {
            let head: String = other.to_string().chars().take(MAX_REFUSAL).collect();
            sanitize_line(&head).into_owned()
        }
    };
    let line = format!(
        "the MCP client's first message was refused ({why}): a client starts with `initialize` or a 2026-07-28 request"
    );
    match line.char_indices().nth(MAX_REFUSAL) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

fn closed_early(e: &rmcp::service::ServerInitializeError) -> bool {
    matches!(e, rmcp::service::ServerInitializeError::ConnectionClosed(_))
}

/// Watches what CAO reads (the same set as the TUI) and every folder of
/// the skills served, which CAO's set leaves out.
fn follow(watcher: &Watcher, home: &Home, now: &Catalog) {
    let (home, deep) = (home.clone(), now.skill_dirs(MAX_SKILL_DIRS));
    watcher.follow(move || {
        let mut targets: Vec<PathBuf> = watch::watch_set(&home);
        targets.extend(deep);
        targets
    });
}

/// Opens a new catalog after each burst of changes and tells the client;
/// follows the folders of skills read since.
struct Refresher {
    keep: Keep,
    shared: Arc<Shared>,
    watcher: Watcher,
    peer: rmcp::Peer<rmcp::RoleServer>,
}

impl Refresher {
    async fn run(self, mut rx: mpsc::UnboundedReceiver<()>) {
        loop {
            tokio::select! {
                got = rx.recv() => {
                    if got.is_none() {
                        return;
                    }
                    // One catalog for a burst.
                    while rx.try_recv().is_ok() {}
                    self.reopen().await;
                }
                _ = self.shared.read_more.notified() => {
                    follow(&self.watcher, &self.keep.home, &self.shared.now());
                }
            }
        }
    }

    async fn reopen(&self) {
        let (keep, old) = (self.keep.clone(), self.shared.now());
        let opened = tokio::task::spawn_blocking(move || {
            let new = Catalog::open(&keep.home, &keep.opts, keep.cache, keep.on_held)?;
            new.read_as(&old);
            let changes = old.changes(&new);
            Ok::<_, String>((new, changes))
        })
        .await;
        let (new, (listed, named)) = match opened {
            Ok(Ok(done)) => done,
            // A profile removed while serving: keep serving what was.
            Ok(Err(e)) => {
                eprintln!("skilltui serve: {}", sanitize_line(&e));
                return;
            }
            Err(_) => return,
        };
        let new = Arc::new(new);
        self.shared.replace(new.clone());
        if listed || named {
            follow(&self.watcher, &self.keep.home, &new);
        }
        self.tell(listed, named).await;
    }

    /// A client of the handshake era hears of a change unasked (the
    /// capability says it may); one of the 2026-07-28 era only on the
    /// subscriptions it opened.
    async fn tell(&self, listed: bool, named: bool) {
        let handshake = self.peer.peer_info().is_some();
        if listed {
            if handshake {
                let _ = self.peer.notify_resource_list_changed().await;
            }
            let _ = self.shared.changes.send(Change::Resources);
        }
        if named {
            if handshake {
                let _ = self.peer.notify_tool_list_changed().await;
            }
            let _ = self.shared.changes.send(Change::Tools);
        }
    }
}
