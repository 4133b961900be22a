//! What each CAO provider really hands its agent about skills (CAO 2.5.4
//! `services/terminal_service.py`, `services/install_service.py`,
//! `utils/skill_injection.py`): the catalog appended at launch, baked
//! into Copilot's agent file, Kiro's `skill://` resources, OpenCode's link
//! to the store, or nothing; and keeping Copilot's baked files fresh.
//!
//! Knows CAO's providers and the files `cao install` writes for them.
//! Uses `text`, `fsops`, `parse/` and `cao/` (profiles, the store, the
//! catalog); never `sources/` or anything above. In order: `pyyaml` (the
//! metadata text PyYAML writes), `agent` (providers and the profile fields
//! delivery reads), `copilot` (baked files and their refresh), `model`,
//! `checks` (what `doctor` reports).

pub mod agent;
pub mod checks;
pub mod copilot;
pub mod model;
pub mod pyyaml;
