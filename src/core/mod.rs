//! Everything that knows about skills, YAML, profiles, the store, catalogs
//! and sources. No terminal code lives here, and every file effect goes
//! through `fsops`.
//!
//! The modules are layers. Each may use the ones listed before it, never
//! one listed after it:
//! - `text`, `error`, `suggest`: the one sanitizer and Python's string
//!   rules; the typed errors a caller answers differently; "did you
//!   mean" for a mistyped name.
//! - `fsops`: every read and write of a file or folder, atomic.
//! - `parse/`: how CAO reads text (YAML, JSON, frontmatter, `.env`).
//! - `audit/`: what a skill folder holds that could turn an agent against
//!   its user (reads only inside the folder, runs nothing).
//! - `cao/`: CAO's rules (skills, the store, profiles, catalogs, the
//!   profile editor, the installed CAO package).
//! - `sources/`: where skills come from (folders, git, the lock, updates).
//! - `delivery/`: what each CAO provider hands its agent about skills.
//! - `agents/`: every agent's own skill dirs, order, parse and clash rules,
//!   what its model is shown, and the skills skilltui gives it.
//! - `watch`, `doctor`: what the TUI and `serve` watch, and the watcher
//!   itself; why CAO sees what it sees.
//! - `serve/`: what `skilltui serve` serves over MCP (the set, manifests,
//!   URIs, the audit gate, agents' MCP configuration).
//!
//! A new concern gets its own folder at the layer it needs.

pub mod error;
pub mod suggest;
pub mod text;

pub mod fsops;

pub mod parse;

pub mod audit;

pub mod cao;

pub mod sources;

pub mod delivery;

pub mod agents;

pub mod doctor;
pub mod watch;

pub mod serve;
