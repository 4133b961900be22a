//! The MCP face: `skilltui serve` on stdio, through the official Rust SDK
//! (rmcp), which speaks both protocol eras: the `initialize` handshake
//! (2025-06-18, 2025-11-25) and 2026-07-28, found through
//! `server/discover`. What is served and every rule about it is
//! `core::serve`; this module only answers the protocol's methods from a
//! snapshot and swaps the snapshot when the watcher sees a change.

mod handler;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::sync::{broadcast, mpsc};

use crate::core::cao::store::Home;
use crate::core::serve::catalog::{self, Cache, Catalog, Options};
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

/// The snapshot served now and the channel its changes go out on.
pub struct Shared {
    catalog: RwLock<Arc<Catalog>>,
    changes: broadcast::Sender<Change>,
}

impl Shared {
    fn new(catalog: Catalog) -> Shared {
        Shared {
            catalog: RwLock::new(Arc::new(catalog)),
            changes: broadcast::channel(16).0,
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
}

/// Serves until the client closes stdin. Skills held back are named on
/// stderr, one line each, before the first request is read.
pub fn run(home: Home, opts: Options) -> Result<(), String> {
    let mut cache = Cache::default();
    let first = catalog::build(&home, &opts, &mut cache)?;
    print_held(&first, &Catalog::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(serve(home, opts, first, cache))
}

async fn serve(home: Home, opts: Options, first: Catalog, cache: Cache) -> Result<(), String> {
    let shared = Arc::new(Shared::new(first));
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = AsyncRwTransport::new_server(stdin, stdout).with_max_line_length(MAX_LINE);
    let server = handler::Server::new(shared.clone());
    let running = match server.serve(transport).await {
        Ok(r) => r,
        // The client left before it said hello: nothing to serve.
        Err(e) if closed_early(&e) => return Ok(()),
        Err(e) => return Err(format!("the MCP client's first message was refused: {e}")),
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let watcher = Watcher::new(move || {
        let _ = tx.send(());
    });
    follow(&watcher, &home, &shared.now());
    let peer = running.peer().clone();
    let refresher = Refresher {
        home,
        opts,
        cache: Arc::new(Mutex::new(cache)),
        shared,
        watcher,
        peer,
    };
    let refreshing = tokio::spawn(refresher.run(rx));
    let _ = running.waiting().await;
    refreshing.abort();
    Ok(())
}

fn closed_early(e: &rmcp::service::ServerInitializeError) -> bool {
    matches!(e, rmcp::service::ServerInitializeError::ConnectionClosed(_))
}

/// Watches what CAO reads (the same set as the TUI) and every folder of
/// the skills served, which CAO's set leaves out.
fn follow(watcher: &Watcher, home: &Home, now: &Catalog) {
    let (home, deep) = (home.clone(), catalog::skill_dirs(now, MAX_SKILL_DIRS));
    watcher.follow(move || {
        let mut targets: Vec<PathBuf> = watch::watch_set(&home);
        targets.extend(deep);
        targets
    });
}

/// Rebuilds the snapshot after each burst of changes and tells the client.
struct Refresher {
    home: Home,
    opts: Options,
    cache: Arc<Mutex<Cache>>,
    shared: Arc<Shared>,
    watcher: Watcher,
    peer: rmcp::Peer<rmcp::RoleServer>,
}

impl Refresher {
    async fn run(self, mut rx: mpsc::UnboundedReceiver<()>) {
        while rx.recv().await.is_some() {
            // One rebuild for a burst.
            while rx.try_recv().is_ok() {}
            let (home, opts, cache) = (self.home.clone(), self.opts.clone(), self.cache.clone());
            let built = tokio::task::spawn_blocking(move || {
                let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
                catalog::build(&home, &opts, &mut cache)
            })
            .await;
            let new = match built {
                Ok(Ok(c)) => Arc::new(c),
                // A profile removed while serving: keep serving what was.
                Ok(Err(e)) => {
                    eprintln!("skilltui serve: {}", sanitize_line(&e));
                    continue;
                }
                Err(_) => continue,
            };
            let old = self.shared.replace(new.clone());
            print_held(&new, &old);
            let (listed, named) = old.changes(&new);
            if listed || named {
                follow(&self.watcher, &self.home, &new);
            }
            self.tell(listed, named).await;
        }
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

/// One stderr line per skill held back that was not held back before.
fn print_held(new: &Catalog, old: &Catalog) {
    for line in new.held.iter().filter(|l| !old.held.contains(l)) {
        eprintln!("skilltui serve: {}", sanitize_line(line));
    }
}
