//! How CAO reads text, byte for byte: YAML as PyYAML's `CSafeLoader` builds
//! it (libyaml's events, PyYAML's typing), JSON as Python's `json`,
//! Markdown frontmatter as python-frontmatter, `.env` as python-dotenv.
//!
//! Knows nothing of skills or profiles. Uses only `text`, `fsops` (to read
//! `.env`) and its own modules: `position` at the bottom, then `libyaml`,
//! `yaml`, `pyjson`, `frontmatter` and `dotenv`.

pub mod dotenv;
pub mod frontmatter;
pub mod libyaml;
pub mod position;
pub mod pyjson;
pub mod yaml;
