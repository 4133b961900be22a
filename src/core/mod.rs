//! Everything that knows about skills, frontmatter, profiles, the store and
//! catalogs. No terminal code lives here.

pub mod cao;
pub mod catalog;
pub mod changes;
pub mod doctor;
pub mod dotenv;
pub mod editor;
pub mod error;
pub mod frontmatter;
pub mod fsops;
pub mod git;
pub mod libyaml;
pub mod lock;
pub mod profile;
pub mod pyjson;
pub mod remote;
pub mod skill;
pub mod source;
pub mod store;
pub mod text;
pub mod watch;
pub mod yaml;
