//! CAO's rules, as CAO 2.5.4 applies them (its `utils/skills.py`,
//! `utils/agent_profiles.py` and `services/settings_service.py`): what
//! makes a skill folder valid, the home and its skill store, agent profiles
//! and their `skills:` lists, the catalog a profile injects, the
//! byte-preserving profile editor, and the installed CAO package it reads
//! built-in profiles and bundled skills from, and CAO's own file locks.
//!
//! Uses `text`, `error`, `fsops` and `parse/`; never `sources/` or anything
//! above. In order: `installed`, `skill`, `store`, `checking`, `profile`, `catalog`,
//! `editor`, `undo`.

pub mod catalog;
pub mod checking;
pub mod editor;
pub mod installed;
pub mod locks;
pub mod plugins;
pub mod profile;
pub mod skill;
pub mod store;
pub mod undo;
pub mod verdicts;
