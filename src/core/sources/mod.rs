//! Where skills come from and how they stay current: a SOURCE parsed into a
//! folder or a git repository, the `git` command run cancellably, the lock
//! file that pins each git install, what a replacement would change, and
//! `add`, `check`, `update` and `sync` built on them.
//!
//! Besides git, skills come over HTTP (`http`, the one client): a site's
//! well-known index or a SKILL.md or archive URL (`wellknown`, unpacked by
//! `archive`), and the registry's search behind `find` (`search`).
//!
//! Uses `text`, `error`, `fsops`, `parse/` and `cao/` (every install goes
//! through `cao::store::add`). `interrupt` carries
//! Ctrl-C to every fetch. In order: `interrupt`, `git`, `http`, `archive`,
//! `wellknown`, `source`, `changes`, `lock`, `search`, `remote`.

pub mod archive;
pub mod changes;
pub mod git;
pub mod http;
pub mod interrupt;
pub mod lock;
pub mod remote;
pub mod search;
pub mod source;
pub mod wellknown;
