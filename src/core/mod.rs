//! Everything that knows about skills, frontmatter, profiles, the store and
//! catalogs. No terminal code lives here.

pub mod catalog;
pub mod dotenv;
pub mod editor;
pub mod frontmatter;
pub mod fsops;
pub mod libyaml;
pub mod profile;
pub mod pyjson;
pub mod skill;
pub mod store;
pub mod text;
pub mod yaml;
