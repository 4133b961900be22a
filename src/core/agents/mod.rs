//! Every agent's own skills: the table of agents skilltui knows (built in,
//! extended from the config dir), what each one finds from a directory in
//! its own order with its own parse and clash rules, what its model is
//! shown, and the links or copies skilltui makes to give it a skill.
//!
//! Knows each agent's documented rules (`agents.toml` cites them). Uses
//! `text`, `fsops`, `parse/` (YAML), `cao/` (CAO's store is the `cao`
//! agent and the source of what is given) and `sources/` (`remove`, and
//! the lock's record of who was given what); nothing above it. The modules,
//! each using only those before it: `table`, `scan` (with Codex's
//! installed plugins, `codex_plugins`), `read` (the verdict on one
//! SKILL.md), `rules` (with Codex's frontmatter fields, `codex_read`, and
//! the readers of OpenCode, `opencode_read`, and Copilot, `copilot`), `discover`, `formats`, `lints`, `render` (with
//! Codex's budget, `codex_budget`), `reach`, `give`, `verify` (runs the
//! agent itself where it can list its skills).

pub mod asked;
pub mod table;

pub mod codex_budget;
pub mod codex_plugins;
pub mod codex_read;
pub mod copilot;
pub mod opencode_read;
pub mod read;
pub mod rules;
pub mod scan;
pub mod tree;

pub mod discover;

pub mod formats;
pub mod lints;
pub mod render;

pub mod reach;

pub mod shared;

pub mod give;
pub mod removal;

pub mod differences;
pub mod verify;
