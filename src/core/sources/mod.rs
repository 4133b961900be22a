//! Where skills come from and how they stay current: a SOURCE parsed into a
//! folder or a git repository, the `git` command run cancellably, the lock
//! file that pins each git install, what a replacement would change, and
//! `add`, `check`, `update` and `sync` built on them.
//!
//! Uses `text`, `error`, `fsops`, `parse/` and `cao/` (every install goes
//! through `cao::store::add`). In order: `git`, `source`, `changes`,
//! `lock`, `remote`.

pub mod changes;
pub mod git;
pub mod lock;
pub mod remote;
pub mod source;
