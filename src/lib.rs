//! skilltui: manage the Agent Skills of CLI Agent Orchestrator (CAO).
//!
//! `core` knows everything about skills, profiles, the store and catalogs and
//! has no terminal dependency; `cli`, `tui` and `mcp` (the `serve`
//! server) are thin faces over it.

pub mod cli;
pub mod core;
pub mod mcp;
pub mod tui;
