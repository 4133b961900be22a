//! `skilltui serve`: what an MCP server of skills serves, whatever speaks
//! the protocol. The set (CAO's valid skills, or one profile's), each
//! skill's manifest for the MCP Skills extension, the audit gate, the
//! `skill://` URIs, `load_skill`'s answer, and the snippets that register
//! the server with an agent. The protocol itself is `src/mcp/`.

pub mod catalog;
pub mod config;
pub mod frontmatter;
pub mod skill;
pub mod uri;
