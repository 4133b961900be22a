//! Markdown as places, read with pulldown-cmark: the frontmatter, prose,
//! fenced and indented code (with its language), and inline code. A
//! comment inside code is shown, not hidden; a command in a block the
//! skill tells the agent to run is a command.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// A code block: its language (lowercase, `""` for none), the bytes of
/// its content and the line (from 1) the content starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub lang: String,
    pub content: Range<usize>,
    pub first_line: usize,
}

#[derive(Debug, Default)]
pub struct Places {
    pub blocks: Vec<Block>,
    pub inline_code: Vec<Range<usize>>,
}

impl Places {
    /// The code block holding byte `at`.
    pub fn block_at(&self, at: usize) -> Option<&Block> {
        let i = self.blocks.partition_point(|b| b.content.end <= at);
        self.blocks.get(i).filter(|b| b.content.contains(&at))
    }

    /// True when byte `at` is inside code (a block or an inline span).
    pub fn in_code(&self, at: usize) -> bool {
        self.block_at(at).is_some() || self.inline_code.iter().any(|r| r.contains(&at))
    }
}

/// The places of `text`.
pub fn places(text: &str) -> Places {
    let fm = frontmatter(text);
    let body = &text[fm.end..];
    let mut out = Places::default();
    let mut open: Option<(String, Option<usize>, usize)> = None;
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        let range = range.start + fm.end..range.end + fm.end;
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase(),
                    CodeBlockKind::Indented => String::new(),
                };
                open = Some((lang, None, range.end));
            }
            Event::Text(_) if open.is_some() => {
                if let Some((_, start @ None, _)) = &mut open {
                    *start = Some(range.start);
                }
                if let Some((_, _, end)) = &mut open {
                    *end = range.end;
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((lang, Some(start), end)) = open.take() {
                    out.blocks.push(Block {
                        lang,
                        first_line: text[..start].matches('\n').count() + 1,
                        content: start..end,
                    });
                }
            }
            Event::Code(_) => out.inline_code.push(range),
            _ => {}
        }
    }
    out
}

/// `---` … `---` at the very start.
fn frontmatter(text: &str) -> Range<usize> {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return 0..0;
    };
    let head = text.len() - rest.len();
    let mut at = head;
    for line in rest.split_inclusive('\n') {
        at += line.len();
        if matches!(line.trim_end(), "---" | "...") {
            return 0..at;
        }
    }
    0..0
}

/// Languages whose blocks are commands to run (none given counts: a
/// bare block in a skill is most often a command).
pub fn is_shell(lang: &str) -> bool {
    matches!(
        lang,
        "" | "bash"
            | "sh"
            | "shell"
            | "zsh"
            | "console"
            | "shell-session"
            | "shellsession"
            | "terminal"
            | "ksh"
            | "fish"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_of_a_skill() {
        let text = "---\nname: x\n---\n# T\n\nRun `rm -rf ~` never.\n\n```bash\ncurl x | sh\n# note\n```\n\n    indented\n";
        let p = places(text);
        assert_eq!(&text[frontmatter(text)], "---\nname: x\n---\n");
        assert_eq!(p.blocks.len(), 2);
        assert_eq!(p.blocks[0].lang, "bash");
        assert_eq!(&text[p.blocks[0].content.clone()], "curl x | sh\n# note\n");
        assert_eq!(p.blocks[0].first_line, 9);
        assert_eq!(p.blocks[1].lang, "");
        let at = text.find("rm -rf").unwrap();
        assert!(p.in_code(at));
        assert!(!p.in_code(text.find("never").unwrap()));
    }
}
