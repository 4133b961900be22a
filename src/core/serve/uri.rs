//! `skill://` URIs as the MCP Skills extension writes them:
//! `skill://NAME/PATH`, a folder without a trailing slash.
//!
//! Only URIs made here are ever served: a request's URI is looked up as
//! written, never decoded, so `..`, `%2e%2e` or `%2F` match nothing.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

pub const SCHEME: &str = "skill://";

/// What a path segment may hold unencoded: RFC 3986's `pchar` less `%`.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

fn encoded(rel: &str) -> String {
    rel.split('/')
        .map(|seg| utf8_percent_encode(seg, SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// `skill://NAME/SKILL.md`.
pub fn skill_md(name: &str) -> String {
    file(name, "SKILL.md")
}

/// A file of skill `name` at `rel` (`/`-separated).
pub fn file(name: &str, rel: &str) -> String {
    format!("{SCHEME}{name}/{}", encoded(rel))
}

/// A folder of skill `name`: its root when `rel` is empty.
pub fn dir(name: &str, rel: &str) -> String {
    match rel {
        "" => format!("{SCHEME}{name}"),
        _ => format!("{SCHEME}{name}/{}", encoded(rel)),
    }
}

/// (name, relative folder) of a folder URI written as [`dir`] writes it,
/// `None` for anything else (a trailing slash, an escape, a dot segment).
pub fn split_dir(uri: &str) -> Option<(&str, &str)> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (name, rel) = match rest.split_once('/') {
        Some((_, "")) => return None,
        Some(split) => split,
        None => (rest, ""),
    };
    let clean = |s: &str| !s.contains(['%', '?', '#', '\\']);
    let segments_ok = rel.is_empty() || rel.split('/').all(|seg| !matches!(seg, "" | "." | ".."));
    (!name.is_empty() && clean(name) && clean(rel) && segments_ok).then_some((name, rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_encoded_segment_by_segment() {
        assert_eq!(file("a", "SKILL.md"), "skill://a/SKILL.md");
        assert_eq!(
            file("a", "refs/my file%.md"),
            "skill://a/refs/my%20file%25.md"
        );
        assert_eq!(dir("a", ""), "skill://a");
        assert_eq!(dir("a", "templates"), "skill://a/templates");
    }

    #[test]
    fn folder_uris_with_escapes_or_dot_segments_are_no_folder() {
        assert_eq!(split_dir("skill://a"), Some(("a", "")));
        assert_eq!(split_dir("skill://a/t/x"), Some(("a", "t/x")));
        for bad in [
            "skill://a/",
            "skill://a/../b",
            "skill://a/%2e%2e",
            "skill://a/./t",
            "skill://",
            "file:///etc",
            "skill://a/t?x",
        ] {
            assert_eq!(split_dir(bad), None, "{bad}");
        }
    }
}
