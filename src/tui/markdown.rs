//! Renders a SKILL.md (its frontmatter as a small table, its body as
//! Markdown) into styled ratatui lines for the Preview pane. Rendering runs
//! once per selection, not per frame, and is cached by the [`Highlighter`].

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::FontStyle;
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;
use two_face::theme::LazyThemeSet;
use unicode_width::UnicodeWidthChar;

use super::theme::{NO_SYNTAX_THEME, Theme};
use crate::core::text::{sanitize, sanitize_line};

/// A rendered SKILL.md, ready to scroll through.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    pub lines: Vec<Line<'static>>,
    /// Columns the widest code line goes past its block: how far `>` can
    /// scroll code sideways.
    pub code_overflow: u16,
}

impl Rendered {
    /// The frontmatter table, a blank line, then the Markdown body, its
    /// code blocks scrolled `code_shift` columns sideways.
    pub fn skill(
        frontmatter: &[(String, String)],
        body: &str,
        width: u16,
        code_shift: u16,
        theme: &Theme,
        hl: &Highlighter,
    ) -> Rendered {
        let mut lines = render_frontmatter_table(frontmatter, width, theme);
        let body = render_shifted(body, width, code_shift, theme, hl);
        if !lines.is_empty() && !body.lines.is_empty() {
            lines.push(Line::default());
        }
        lines.extend(body.lines);
        Rendered {
            lines,
            code_overflow: body.code_overflow,
        }
    }
}

/// How many rendered documents the highlighter keeps.
const CACHE_ENTRIES: usize = 16;
/// Source bytes the render cache may hold in all. A rendered line costs
/// tens of times its text, so one 500 KiB skill is never kept twice (the
/// app holds the selected one itself).
const CACHE_BYTES: usize = 256 * 1024;
/// Code bigger than this is shown plain: syntect's regexes can take seconds
/// on huge generated blobs, and the preview must stay responsive.
const MAX_HIGHLIGHT_BYTES: usize = 256 * 1024;
/// Same for single very long lines (minified code), which are the slow case.
const MAX_HIGHLIGHT_LINE: usize = 4 * 1024;
/// Used when the app theme names a syntax theme that does not exist.
const FALLBACK_SYNTAX_THEME: &str = "base16-ocean.dark";

#[derive(Debug, Clone, PartialEq, Eq)]
struct CacheKey {
    content: u64,
    width: u16,
    code_shift: u16,
    theme: String,
    /// The theme's styles too, so an edited theme of the same name re-renders.
    theme_fingerprint: u64,
}

/// Highlighted code: one list of spans per line.
pub type CodeLines = Vec<Vec<Span<'static>>>;

/// Syntax highlighting for code blocks plus the render cache. `new` is cheap:
/// the syntax definitions load on the first highlighted block. Share one
/// (`&self` everywhere) for the app's life.
#[derive(Default)]
pub struct Highlighter {
    syntaxes: OnceLock<SyntaxSet>,
    themes: OnceLock<LazyThemeSet>,
    /// Most recently used last.
    cache: Mutex<Vec<Cached>>,
}

/// A rendered document and the size of its source.
type Cached = (CacheKey, Arc<Rendered>, usize);

impl Highlighter {
    /// A highlighter that has loaded nothing yet.
    pub fn new() -> Highlighter {
        Highlighter::default()
    }

    /// Highlights `code` (already sanitized) as language `lang` with syntect
    /// theme `syntax_theme`: one span list per line. `None` when the
    /// language is unknown, the theme is [`NO_SYNTAX_THEME`], or the code is
    /// too big to highlight quickly; the caller then shows it plain.
    pub fn highlight(&self, code: &str, lang: &str, syntax_theme: &str) -> Option<CodeLines> {
        if lang.is_empty() || syntax_theme == NO_SYNTAX_THEME || too_big(code) {
            return None;
        }
        let syntaxes = self.syntaxes.get_or_init(two_face::syntax::extra_newlines);
        let syntax = find_syntax(syntaxes, lang)?;
        let themes = self.themes.get_or_init(|| two_face::theme::extra().into());
        let theme = themes
            .get(syntax_theme)
            .or_else(|| themes.get(FALLBACK_SYNTAX_THEME))?;
        let mut lines = HighlightLines::new(syntax, theme);
        LinesWithEndings::from(code)
            .map(|line| {
                let ranges = lines.highlight_line(line, syntaxes).ok()?;
                Some(ranges.into_iter().filter_map(to_span).collect())
            })
            .collect()
    }

    /// Loads the syntax and theme sets now (the slow part, tens of ms):
    /// the app calls this on a background thread at start.
    pub fn warm(&self) {
        self.syntaxes.get_or_init(two_face::syntax::extra_newlines);
        self.themes.get_or_init(|| two_face::theme::extra().into());
    }

    /// True once highlighting will not block on loading.
    pub fn is_ready(&self) -> bool {
        self.syntaxes.get().is_some() && self.themes.get().is_some()
    }

    /// Forgets every cached rendering (after a theme change, say).
    pub fn clear_cache(&self) {
        self.lock_cache().clear();
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, Vec<Cached>> {
        // A panic while holding the lock leaves a usable Vec behind.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cached(&self, key: &CacheKey) -> Option<Arc<Rendered>> {
        let mut cache = self.lock_cache();
        let at = cache.iter().position(|(k, _, _)| k == key)?;
        let entry = cache.remove(at);
        let lines = Arc::clone(&entry.1);
        cache.push(entry);
        Some(lines)
    }

    fn store(&self, key: CacheKey, lines: Arc<Rendered>, bytes: usize) {
        if bytes > CACHE_BYTES / 2 {
            return;
        }
        let mut cache = self.lock_cache();
        while cache.len() >= CACHE_ENTRIES
            || cache.iter().map(|c| c.2).sum::<usize>() + bytes > CACHE_BYTES
        {
            cache.remove(0);
        }
        cache.push((key, lines, bytes));
    }
}

fn too_big(code: &str) -> bool {
    code.len() > MAX_HIGHLIGHT_BYTES || code.lines().any(|l| l.len() > MAX_HIGHLIGHT_LINE)
}

/// Finds a syntax by a fence's language tag (`rust`, `py`, `shell`...).
fn find_syntax<'s>(syntaxes: &'s SyntaxSet, lang: &str) -> Option<&'s SyntaxReference> {
    let lower = lang.to_ascii_lowercase();
    let token = match lower.as_str() {
        "shell" | "console" | "zsh" | "shellscript" => "bash",
        "text" | "txt" | "plain" | "plaintext" => return None,
        other => other,
    };
    syntaxes.find_syntax_by_token(token)
}

fn to_span((style, text): (syntect::highlighting::Style, &str)) -> Option<Span<'static>> {
    let text = text.trim_end_matches(['\n', '\r']);
    if text.is_empty() {
        return None;
    }
    let fg = style.foreground;
    let flags = [
        (FontStyle::BOLD, Modifier::BOLD),
        (FontStyle::ITALIC, Modifier::ITALIC),
        (FontStyle::UNDERLINE, Modifier::UNDERLINED),
    ];
    let modifiers = flags
        .iter()
        .filter(|(f, _)| style.font_style.contains(*f))
        .fold(Modifier::empty(), |acc, (_, m)| acc | *m);
    let style = Style::default()
        .fg(Color::Rgb(fg.r, fg.g, fg.b))
        .add_modifier(modifiers);
    Some(Span::styled(text.to_string(), style))
}

/// Renders Markdown `body` to lines at most `width` columns wide (code and
/// over-wide tables aside). Untrusted text is sanitized; nothing panics.
/// Results are cached in `hl` by content, width and theme.
pub fn render_markdown(
    body: &str,
    width: u16,
    theme: &Theme,
    hl: &Highlighter,
) -> Vec<Line<'static>> {
    render_shifted(body, width, 0, theme, hl).lines
}

/// As `render_markdown`, each code block scrolled `code_shift` columns
/// sideways (as far as its own widest line goes); prose still wraps.
pub fn render_shifted(
    body: &str,
    width: u16,
    code_shift: u16,
    theme: &Theme,
    hl: &Highlighter,
) -> Rendered {
    if width == 0 {
        return Rendered::default();
    }
    let key = CacheKey {
        content: hash_of(body),
        width,
        code_shift,
        theme: theme.name.clone(),
        theme_fingerprint: hash_of(theme),
    };
    if let Some(rendered) = hl.cached(&key) {
        return rendered.as_ref().clone();
    }
    let mut renderer = Renderer::new(usize::from(width), theme, hl);
    renderer.code_shift = usize::from(code_shift);
    let rendered = renderer.run(body);
    if body.len() <= CACHE_BYTES / 2 {
        hl.store(key, Arc::new(rendered.clone()), body.len());
    }
    rendered
}

fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// Renders frontmatter `pairs` as a two-column table; values wrap.
pub fn render_frontmatter_table(
    pairs: &[(String, String)],
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if pairs.is_empty() || width == 0 {
        return Vec::new();
    }
    let width = usize::from(width);
    let keys: Vec<String> = pairs
        .iter()
        .map(|(k, _)| sanitize_line(k).into_owned())
        .collect();
    let values: Vec<String> = pairs
        .iter()
        .map(|(_, v)| sanitize(v).into_owned())
        .collect();
    let key_w = keys.iter().map(|k| str_width(k)).max().unwrap_or(1);
    let key_w = key_w.clamp(1, (width / 3).max(1));
    let natural_value_w = values
        .iter()
        .flat_map(|v| v.split('\n'))
        .map(str_width)
        .max()
        .unwrap_or(1);
    // Borders and padding: "│ " + key + " │ " + value + " │".
    let value_w = natural_value_w.min(width.saturating_sub(key_w + 7)).max(1);
    let border = theme.table_border;
    let mut out = vec![rule_line(&[key_w, value_w], ['┌', '┬', '┐'], border)];
    for (key, value) in keys.iter().zip(&values) {
        let key_cell = truncate(vec![Span::styled(key.clone(), theme.accent)], key_w);
        let mut wrapped: Vec<Vec<Span<'static>>> = value
            .split('\n')
            .flat_map(|l| wrap_spans(&[Span::raw(l.to_string())], value_w))
            .collect();
        if wrapped.is_empty() {
            wrapped.push(Vec::new());
        }
        for (i, line) in wrapped.into_iter().enumerate() {
            let k = if i == 0 { key_cell.clone() } else { Vec::new() };
            out.push(row_line(vec![k, line], &[key_w, value_w], &[], border));
        }
    }
    out.push(rule_line(&[key_w, value_w], ['└', '┴', '┘'], border));
    out.into_iter().map(Line::from).collect()
}

/// What a container block draws before each of its lines.
struct Prefix {
    first: Vec<Span<'static>>,
    rest: Vec<Span<'static>>,
    used: bool,
    /// An unordered list item, whose bullet a task checkbox replaces.
    bullet: bool,
}

struct CodeBlock {
    lang: String,
    text: String,
}

#[derive(Default)]
struct TableState {
    aligns: Vec<Alignment>,
    rows: Vec<Vec<Vec<Span<'static>>>>,
    row: Vec<Vec<Span<'static>>>,
    header_rows: usize,
}

/// A link whose URL is shown after its text, unless the text is the URL.
struct OpenLink {
    url: Option<String>,
    text_start: usize,
}

/// The state of one rendering pass over pulldown-cmark's events.
struct Renderer<'a> {
    theme: &'a Theme,
    hl: &'a Highlighter,
    width: usize,
    out: Vec<Line<'static>>,
    /// Inline spans of the paragraph (or heading, item, cell) being built.
    inline: Vec<Span<'static>>,
    styles: Vec<Style>,
    prefixes: Vec<Prefix>,
    /// The next number of each open list; `None` for bullets.
    lists: Vec<Option<u64>>,
    links: Vec<OpenLink>,
    code: Option<CodeBlock>,
    html: Option<String>,
    table: Option<TableState>,
    /// A blank line goes before the next block's first line.
    need_blank: bool,
    /// Columns code blocks are scrolled sideways.
    code_shift: usize,
    /// The most any code line goes past its block.
    code_overflow: usize,
}

impl<'a> Renderer<'a> {
    fn new(width: usize, theme: &'a Theme, hl: &'a Highlighter) -> Self {
        Renderer {
            theme,
            hl,
            width,
            out: Vec::new(),
            inline: Vec::new(),
            styles: Vec::new(),
            prefixes: Vec::new(),
            lists: Vec::new(),
            links: Vec::new(),
            code: None,
            html: None,
            table: None,
            need_blank: false,
            code_shift: 0,
            code_overflow: 0,
        }
    }

    fn run(mut self, body: &str) -> Rendered {
        let options =
            Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
        for event in Parser::new_ext(body, options) {
            self.event(event);
        }
        self.flush_inline();
        Rendered {
            lines: self.out,
            code_overflow: self.code_overflow.min(usize::from(u16::MAX)) as u16,
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.text(&t),
            Event::Code(t) => self.inline_code(&t),
            Event::Html(t) | Event::InlineHtml(t) => self.html_text(&t),
            Event::InlineMath(t) | Event::DisplayMath(t) | Event::FootnoteReference(t) => {
                self.push_text(&t, self.style())
            }
            Event::SoftBreak => self.push_text(" ", self.style()),
            Event::HardBreak => self.flush_inline(),
            Event::Rule => self.rule(),
            Event::TaskListMarker(done) => self.task_marker(done),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::TableCell => self.flush_inline(),
            Tag::Heading { level, .. } => {
                self.flush_inline();
                let level = level as usize;
                let style = self.theme.heading(level);
                self.styles.push(style);
                self.push_text(&format!("{} ", "#".repeat(level)), style);
            }
            Tag::BlockQuote(_) => {
                self.flush_inline();
                // The gap before a quote belongs outside it: no bar.
                self.separate();
                let bar = vec![Span::styled("│ ", self.theme.quote)];
                self.push_prefix(bar.clone(), bar, false);
                self.styles.push(self.theme.quote);
            }
            Tag::CodeBlock(kind) => {
                self.flush_inline();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => fence_language(&info),
                    CodeBlockKind::Indented => String::new(),
                };
                let text = String::new();
                self.code = Some(CodeBlock { lang, text });
            }
            Tag::HtmlBlock => {
                self.flush_inline();
                self.html = Some(String::new());
            }
            Tag::List(start) => {
                self.flush_inline();
                self.lists.push(start);
            }
            Tag::Item => self.start_item(),
            Tag::Table(aligns) => {
                self.flush_inline();
                self.table = Some(TableState {
                    aligns,
                    ..TableState::default()
                });
            }
            Tag::Emphasis => self.push_modifier(Modifier::ITALIC),
            Tag::Strong => self.push_modifier(Modifier::BOLD),
            Tag::Strikethrough => self.push_modifier(Modifier::CROSSED_OUT),
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => self.start_link(link_type, &dest_url),
            Tag::Image { .. } => {
                self.push_text("[image: ", self.theme.dim);
                self.styles.push(self.theme.link);
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.end_block(),
            TagEnd::Heading(_) => {
                self.end_block();
                self.styles.pop();
            }
            TagEnd::BlockQuote(_) => {
                self.end_block();
                self.prefixes.pop();
                self.styles.pop();
            }
            TagEnd::CodeBlock => self.end_code_block(),
            TagEnd::HtmlBlock => self.end_html_block(),
            TagEnd::List(_) => {
                self.flush_inline();
                self.lists.pop();
                self.need_blank |= self.lists.is_empty();
            }
            TagEnd::Item => self.end_item(),
            TagEnd::Table => self.end_table(),
            TagEnd::TableHead => self.end_row(true),
            TagEnd::TableRow => self.end_row(false),
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                if let Some(t) = self.table.as_mut() {
                    t.row.push(cell);
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link => self.end_link(),
            TagEnd::Image => {
                self.styles.pop();
                self.push_text("]", self.theme.dim);
            }
            _ => {}
        }
    }

    /// The style inline text gets now: every open style layered in order.
    fn style(&self) -> Style {
        self.styles
            .iter()
            .fold(Style::default(), |acc, s| acc.patch(*s))
    }

    fn push_modifier(&mut self, modifier: Modifier) {
        self.styles.push(Style::default().add_modifier(modifier));
    }

    /// Adds untrusted inline text: sanitized, newlines as spaces.
    fn push_text(&mut self, text: &str, style: Style) {
        let clean = sanitize(text);
        let clean = if clean.contains('\n') {
            clean.replace('\n', " ")
        } else {
            clean.into_owned()
        };
        if !clean.is_empty() {
            self.inline.push(Span::styled(clean, style));
        }
    }

    fn text(&mut self, text: &str) {
        if let Some(code) = self.code.as_mut() {
            code.text.push_str(text);
        } else if let Some(html) = self.html.as_mut() {
            html.push_str(text);
        } else {
            self.push_text(text, self.style());
        }
    }

    fn inline_code(&mut self, text: &str) {
        let style = self.style().patch(self.theme.code_inline);
        let text = sanitize_line(text);
        // Without colours the backticks are the only thing marking code.
        if self.theme.code_inline == Style::default() {
            self.push_text(&format!("`{text}`"), style);
        } else {
            self.push_text(&text, style);
        }
    }

    fn html_text(&mut self, text: &str) {
        match self.html.as_mut() {
            Some(html) => html.push_str(text),
            None => self.push_text(text, self.theme.dim),
        }
    }

    fn start_link(&mut self, link_type: LinkType, url: &str) {
        let shown = !matches!(link_type, LinkType::Autolink | LinkType::Email) && !url.is_empty();
        self.links.push(OpenLink {
            url: shown.then(|| sanitize_line(url).into_owned()),
            text_start: self.inline.len(),
        });
        self.styles.push(self.theme.link);
    }

    fn end_link(&mut self) {
        self.styles.pop();
        let Some(link) = self.links.pop() else {
            return;
        };
        let Some(url) = link.url else {
            return;
        };
        let text: String = self
            .inline
            .get(link.text_start..)
            .unwrap_or_default()
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        if text != url && format!("mailto:{text}") != url {
            self.push_text(&format!(" ({url})"), self.theme.link_url);
        }
    }

    fn start_item(&mut self) {
        self.flush_inline();
        let depth = self.lists.len().saturating_sub(1);
        let (marker, bullet) = match self.lists.last_mut() {
            Some(Some(n)) => {
                let marker = format!("{n}. ");
                *n = n.saturating_add(1);
                (marker, false)
            }
            _ => (format!("{} ", ["•", "◦", "▪"][depth % 3]), true),
        };
        let indent = " ".repeat(str_width(&marker));
        let first = vec![Span::styled(marker, self.theme.accent)];
        self.push_prefix(first, vec![Span::raw(indent)], bullet);
    }

    fn end_item(&mut self) {
        self.flush_inline();
        // An empty item still shows its bullet or number.
        if self.prefixes.last().is_some_and(|p| !p.used) {
            self.emit(Vec::new());
        }
        self.prefixes.pop();
    }

    /// `[x]` / `[ ]`: a bullet item's bullet becomes the box; in a numbered
    /// item the box follows the number.
    fn task_marker(&mut self, done: bool) {
        let (mark, style) = if done {
            ("☑", self.theme.checkbox_on)
        } else {
            ("☐", self.theme.checkbox_off)
        };
        match self.prefixes.last_mut() {
            Some(p) if p.bullet && !p.used && self.inline.is_empty() => {
                p.first = vec![Span::styled(mark, style), Span::raw(" ")];
            }
            _ => {
                self.inline.push(Span::styled(mark, style));
                self.inline.push(Span::raw(" "));
            }
        }
    }

    fn push_prefix(&mut self, first: Vec<Span<'static>>, rest: Vec<Span<'static>>, bullet: bool) {
        self.prefixes.push(Prefix {
            first,
            rest,
            used: false,
            bullet,
        });
    }

    fn end_block(&mut self) {
        self.flush_inline();
        self.need_blank = true;
    }

    /// Columns left for content once the container prefixes are drawn.
    fn avail(&self) -> usize {
        let prefix: usize = self.prefixes.iter().map(|p| spans_width(&p.rest)).sum();
        self.width.saturating_sub(prefix).max(1)
    }

    /// Wraps the pending inline spans into lines.
    fn flush_inline(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let spans = std::mem::take(&mut self.inline);
        if spans.iter().all(|s| s.content.trim().is_empty()) {
            return;
        }
        for line in wrap_spans(&spans, self.avail()) {
            self.emit(line);
        }
    }

    /// Pushes one content line behind the container prefixes; the first line
    /// of a list item gets its marker, later ones the indent.
    fn emit(&mut self, content: Vec<Span<'static>>) {
        self.separate();
        let mut spans = Vec::with_capacity(self.prefixes.len() + content.len());
        for p in &mut self.prefixes {
            spans.extend(if p.used { &p.rest } else { &p.first }.iter().cloned());
            p.used = true;
        }
        spans.extend(content);
        self.out.push(Line::from(coalesce(spans)));
    }

    /// Emits the blank line a finished block asked for, if any.
    fn separate(&mut self) {
        if self.need_blank && !self.out.is_empty() {
            self.blank_line();
        }
        self.need_blank = false;
    }

    /// A separating line: quote bars stay, indentation does not.
    fn blank_line(&mut self) {
        let mut spans: Vec<Span<'static>> = self
            .prefixes
            .iter()
            .flat_map(|p| p.rest.iter().cloned())
            .collect();
        while spans.last().is_some_and(|s| s.content.trim().is_empty()) {
            spans.pop();
        }
        if let Some(last) = spans.last_mut() {
            let trimmed = last.content.trim_end().to_string();
            last.content = trimmed.into();
        }
        self.out.push(Line::from(spans));
    }

    fn rule(&mut self) {
        self.flush_inline();
        let line = "─".repeat(self.avail());
        self.emit(vec![Span::styled(line, self.theme.table_border)]);
        self.need_blank = true;
    }

    fn end_code_block(&mut self) {
        let Some(block) = self.code.take() else {
            return;
        };
        let text = sanitize(&block.text);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        let lines = self
            .hl
            .highlight(text, &block.lang, &self.theme.syntax_theme)
            .unwrap_or_else(|| {
                text.split('\n')
                    .map(|l| vec![Span::raw(l.to_string())])
                    .collect()
            });
        let bg = self.theme.code_block_bg;
        let marker = bg.patch(self.theme.dim);
        // One column of padding each side inside the background: a line
        // that goes on past the view shows `‹` or `›` there.
        let inner = self.avail().saturating_sub(2).max(1);
        let widest = lines.iter().map(|l| spans_width(l)).max().unwrap_or(0);
        let overflow = widest.saturating_sub(inner);
        self.code_overflow = self.code_overflow.max(overflow);
        // A block scrolls only as far as its own widest line needs.
        let shift = self.code_shift.min(overflow);
        for line in lines {
            // Code is never wrapped or broken inside a word: it scrolls
            // sideways (`<` `>`), cut at the view's edges.
            let width = spans_width(&line);
            let chunk = first_columns(skip_columns(line, shift), inner);
            let w = spans_width(&chunk);
            let edge = |goes_on: bool, mark: &'static str| match goes_on {
                true => Span::styled(mark, marker),
                false => Span::styled(" ", bg),
            };
            let mut spans = vec![edge(shift > 0 && width > 0, "‹")];
            spans.extend(chunk.into_iter().map(|s| {
                let style = bg.patch(s.style);
                s.style(style)
            }));
            spans.push(Span::styled(" ".repeat(inner.saturating_sub(w)), bg));
            spans.push(edge(width > shift + inner, "›"));
            self.emit(spans);
        }
        self.need_blank = true;
    }

    fn end_html_block(&mut self) {
        let Some(html) = self.html.take() else {
            return;
        };
        let text = sanitize(&html);
        let avail = self.avail();
        for line in text.trim_end_matches('\n').split('\n') {
            let span = Span::styled(line.to_string(), self.theme.dim);
            for (chunk, _) in hard_wrap(vec![span], avail) {
                self.emit(chunk);
            }
        }
        self.need_blank = true;
    }

    fn end_row(&mut self, header: bool) {
        if let Some(t) = self.table.as_mut() {
            let row = std::mem::take(&mut t.row);
            t.rows.push(row);
            if header {
                t.header_rows = t.rows.len();
            }
        }
    }

    fn end_table(&mut self) {
        let Some(mut table) = self.table.take() else {
            return;
        };
        let bold = Style::default().add_modifier(Modifier::BOLD);
        for row in table.rows.iter_mut().take(table.header_rows) {
            for cell in row.iter_mut() {
                for span in cell.iter_mut() {
                    span.style = span.style.patch(bold);
                }
            }
        }
        for line in table_lines(&table, self.avail(), self.theme.table_border) {
            self.emit(line);
        }
        self.need_blank = true;
    }
}

/// The language of a fence's info string: its first word, minus the
/// `{.lang}` / `lang,attrs` decorations some authors use.
fn fence_language(info: &str) -> String {
    let word = info.split([' ', ',', '\t']).next().unwrap_or_default();
    word.trim_matches(|c| c == '{' || c == '}' || c == '.')
        .to_string()
}

fn table_lines(table: &TableState, avail: usize, border: Style) -> Vec<Vec<Span<'static>>> {
    let ncols = table.rows.iter().map(Vec::len).max().unwrap_or(0);
    if ncols == 0 {
        return Vec::new();
    }
    let natural: Vec<usize> = (0..ncols)
        .map(|c| {
            let cells = table.rows.iter().filter_map(|r| r.get(c));
            cells
                .map(|cell| spans_width(cell))
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect();
    // Each column costs its width plus " │ "-style padding; one more "│".
    let widths = fit_columns(&natural, avail.saturating_sub(3 * ncols + 1));
    let mut out = vec![rule_line(&widths, ['┌', '┬', '┐'], border)];
    for (i, row) in table.rows.iter().enumerate() {
        // A cell wider than its column wraps onto more lines of the row.
        let wrapped: Vec<Vec<Vec<Span<'static>>>> = (0..ncols)
            .map(|c| {
                row.get(c)
                    .map(|cell| wrap_spans(cell, widths[c]))
                    .unwrap_or_default()
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(0).max(1);
        for line in 0..height {
            let cells: Vec<_> = wrapped
                .iter()
                .zip(&widths)
                .map(|(rows, w)| truncate(rows.get(line).cloned().unwrap_or_default(), *w))
                .collect();
            out.push(row_line(cells, &widths, &table.aligns, border));
        }
        if i + 1 == table.header_rows && table.rows.len() > table.header_rows {
            out.push(rule_line(&widths, ['├', '┼', '┤'], border));
        }
    }
    out.push(rule_line(&widths, ['└', '┴', '┘'], border));
    out
}

/// Shrinks the widest columns until the total fits `budget` (no column
/// below 1): the largest cap that fits, found by bisection.
fn fit_columns(natural: &[usize], budget: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= budget {
        return natural.to_vec();
    }
    let fits = |cap: usize| natural.iter().map(|w| (*w).min(cap)).sum::<usize>() <= budget;
    let (mut lo, mut hi) = (1, natural.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    natural.iter().map(|w| (*w).min(lo)).collect()
}

fn rule_line(widths: &[usize], [left, mid, right]: [char; 3], style: Style) -> Vec<Span<'static>> {
    let mut s = String::new();
    s.push(left);
    for (i, w) in widths.iter().enumerate() {
        if i > 0 {
            s.push(mid);
        }
        s.extend(std::iter::repeat_n('─', w + 2));
    }
    s.push(right);
    vec![Span::styled(s, style)]
}

/// One table row from already-truncated cells, padded per alignment.
fn row_line(
    cells: Vec<Vec<Span<'static>>>,
    widths: &[usize],
    aligns: &[Alignment],
    border: Style,
) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled("│", border)];
    for (i, (cell, w)) in cells.into_iter().zip(widths).enumerate() {
        let gap = w.saturating_sub(spans_width(&cell));
        let left = match aligns.get(i) {
            Some(Alignment::Right) => gap,
            Some(Alignment::Center) => gap / 2,
            _ => 0,
        };
        spans.push(Span::raw(" ".repeat(left + 1)));
        spans.extend(cell);
        spans.push(Span::raw(" ".repeat(gap - left + 1)));
        spans.push(Span::styled("│", border));
    }
    spans
}

/// `line` cut to `width` columns, ending with "…" when cut: a row that
/// must not wrap says that it goes on.
pub fn fit(line: Line<'static>, width: usize) -> Line<'static> {
    let style = line.style;
    Line::from(truncate(line.spans, width)).style(style)
}

/// Cuts spans to at most `width` columns, ending with "…" when cut.
fn truncate(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    if spans_width(&spans) <= width {
        return spans;
    }
    let keep = width.saturating_sub(1);
    let style = spans.last().map(|s| s.style).unwrap_or_default();
    let mut out = hard_wrap(spans, keep.max(1))
        .into_iter()
        .next()
        .map(|(line, _)| line)
        .unwrap_or_default();
    if keep == 0 {
        out.clear();
    }
    // A double-width char may not fit in the last column left.
    while spans_width(&out) > keep {
        out.pop();
    }
    out.push(Span::styled("…", style));
    out
}

/// The first `width` columns of `spans` (a double-width char that would
/// straddle the edge is left out).
fn first_columns(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    if spans_width(&spans) <= width {
        return spans;
    }
    let mut out = hard_wrap(spans, width.max(1))
        .into_iter()
        .next()
        .map(|(line, _)| line)
        .unwrap_or_default();
    while spans_width(&out) > width {
        out.pop();
    }
    out
}

/// `spans` without their first `n` columns; a double-width char cut in
/// half becomes a space, so the columns after it stay where they were.
fn skip_columns(spans: Vec<Span<'static>>, n: usize) -> Vec<Span<'static>> {
    let mut left = n;
    let mut out = Vec::new();
    for span in spans {
        if left == 0 {
            out.push(span);
            continue;
        }
        let mut kept = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if left == 0 {
                kept.push(c);
            } else if w > left {
                kept.push_str(&" ".repeat(w - left));
                left = 0;
            } else {
                left -= w;
            }
        }
        if !kept.is_empty() {
            out.push(Span::styled(kept, span.style));
        }
    }
    out
}

fn str_width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| str_width(&s.content)).sum()
}

/// A run of text without spaces, maybe in several styles.
#[derive(Default)]
struct Word {
    parts: Vec<Span<'static>>,
    width: usize,
    /// The style of the space before it, if there was one.
    space: Option<Style>,
}

impl Word {
    fn push(&mut self, text: &str, style: Style) {
        self.width += str_width(text);
        match self.parts.last_mut() {
            Some(last) if last.style == style => last.content.to_mut().push_str(text),
            _ => self.parts.push(Span::styled(text.to_string(), style)),
        }
    }
}

/// Splits spans into words at ASCII spaces (other spaces, like no-break
/// ones, do not break).
fn words(spans: &[Span<'static>]) -> Vec<Word> {
    let mut words = Vec::new();
    let mut word = Word::default();
    let mut space: Option<Style> = None;
    for span in spans {
        for (i, piece) in span.content.split(' ').enumerate() {
            if i > 0 {
                if !word.parts.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                space.get_or_insert(span.style);
            }
            if !piece.is_empty() {
                if word.parts.is_empty() {
                    word.space = space.take();
                }
                word.push(piece, span.style);
            }
        }
    }
    if !word.parts.is_empty() {
        words.push(word);
    }
    words
}

/// One line word-wrapped to `width` columns, keeping its styles.
pub fn wrap_line(line: &Line<'static>, width: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = wrap_spans(&line.spans, width)
        .into_iter()
        .map(|spans| Line::from(spans).style(line.style))
        .collect();
    if lines.is_empty() {
        lines.push(Line::default().style(line.style));
    }
    lines
}

/// Greedy word wrap to `width` columns; words longer than a line are cut.
fn wrap_spans(spans: &[Span<'static>], width: usize) -> Vec<Vec<Span<'static>>> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for word in words(spans) {
        let gap = usize::from(used > 0 && word.space.is_some());
        if used + gap + word.width <= width {
            if let (1, Some(style)) = (gap, word.space) {
                line.push(Span::styled(" ", style));
            }
            line.extend(word.parts);
            used += gap + word.width;
            continue;
        }
        if used > 0 {
            lines.push(std::mem::take(&mut line));
        }
        let mut chunks = break_word(word.parts, width);
        let (last, last_w) = chunks.pop().unwrap_or_default();
        lines.extend(chunks.into_iter().map(|(l, _)| l));
        line = last;
        used = last_w;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.into_iter().map(coalesce).collect()
}

/// Joins neighbouring spans of one style: wrapping leaves a span per word
/// and per space, and a 500 KiB document would keep millions of them.
fn coalesce(spans: Vec<Span<'static>>) -> Vec<Span<'static>> {
    let mut out: Vec<Span<'static>> = Vec::with_capacity(spans.len());
    for span in spans {
        match out.last_mut() {
            Some(last) if last.style == span.style => last.content.to_mut().push_str(&span.content),
            _ => out.push(span),
        }
    }
    out.shrink_to_fit();
    out
}

/// A word longer than a line, cut into lines of at most `width` columns:
/// after a `/` where one falls in the line's second half (a path wraps
/// between its folders), else where the line is full.
fn break_word(parts: Vec<Span<'static>>, width: usize) -> Vec<(Vec<Span<'static>>, usize)> {
    let chars: Vec<(char, Style)> = (parts.iter())
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut used = 0;
        let mut end = start;
        while end < chars.len() {
            let w = chars[end].0.width().unwrap_or(0);
            if used + w > width && end > start {
                break;
            }
            used += w;
            end += 1;
        }
        if end < chars.len()
            && let Some(slash) = (start + (end - start) / 2..end)
                .rev()
                .find(|&i| chars[i].0 == '/')
        {
            end = slash + 1;
        }
        let piece = &chars[start..end];
        let spans = piece
            .iter()
            .map(|&(c, style)| Span::styled(c.to_string(), style));
        let w = piece.iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
        out.push((coalesce(spans.collect()), w));
        start = end;
    }
    if out.is_empty() {
        out.push((Vec::new(), 0));
    }
    out
}

/// Cuts spans into lines of at most `width` columns (a char wider than the
/// line gets a line of its own), with each line's width.
fn hard_wrap(spans: Vec<Span<'static>>, width: usize) -> Vec<(Vec<Span<'static>>, usize)> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in spans {
        let mut buf = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width && used > 0 {
                if !buf.is_empty() {
                    line.push(Span::styled(std::mem::take(&mut buf), span.style));
                }
                out.push((std::mem::take(&mut line), used));
                used = 0;
            }
            buf.push(c);
            used += w;
        }
        if !buf.is_empty() {
            line.push(Span::styled(buf, span.style));
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push((line, used));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    fn render(body: &str, width: u16) -> Vec<String> {
        plain(&render_markdown(
            body,
            width,
            &Theme::dark(),
            &Highlighter::new(),
        ))
    }

    fn widest(lines: &[String]) -> usize {
        lines.iter().map(|l| str_width(l)).max().unwrap_or(0)
    }

    #[test]
    fn headings_get_markers_and_styles() {
        let theme = Theme::dark();
        let lines = render_markdown("# Top\n\n## Sub\n", 40, &theme, &Highlighter::new());
        assert_eq!(plain(&lines), ["# Top", "", "## Sub"]);
        assert_eq!(lines[0].spans[0].style, theme.heading1);
        assert_eq!(lines[2].spans[0].style, theme.heading2);
    }

    #[test]
    fn emphasis_strong_and_strikethrough_are_styled() {
        let lines = render_markdown("*a* **b** ~~c~~", 40, &Theme::dark(), &Highlighter::new());
        let style_of = |text: &str| {
            let spans = &lines[0].spans;
            spans
                .iter()
                .find(|s| s.content == text)
                .map(|s| s.style.add_modifier)
        };
        assert!(style_of("a").is_some_and(|m| m.contains(Modifier::ITALIC)));
        assert!(style_of("b").is_some_and(|m| m.contains(Modifier::BOLD)));
        assert!(style_of("c").is_some_and(|m| m.contains(Modifier::CROSSED_OUT)));
    }

    #[test]
    fn ordered_lists_count_from_their_start_and_nest() {
        let md = "3. three\n4. four\n   1. inner\n   2. inner two\n5. five\n";
        assert_eq!(
            render(md, 40),
            [
                "3. three",
                "4. four",
                "   1. inner",
                "   2. inner two",
                "5. five"
            ]
        );
    }

    #[test]
    fn bullets_nest_and_continuation_lines_indent() {
        let md = "- one two three four\n  - deep\n";
        assert_eq!(render(md, 12), ["• one two", "  three four", "  ◦ deep"]);
    }

    #[test]
    fn task_lists_show_boxes() {
        let md = "- [x] done\n- [ ] todo\n1. [x] numbered\n";
        let lines = render(md, 40);
        assert_eq!(lines, ["☑ done", "☐ todo", "", "1. ☑ numbered"]);
    }

    #[test]
    fn block_quotes_get_a_bar() {
        let lines = render("> quoted\n>\n> again\n\nafter", 40);
        assert_eq!(lines, ["│ quoted", "│", "│ again", "", "after"]);
    }

    #[test]
    fn links_show_their_url_dimmed_but_not_twice() {
        let theme = Theme::dark();
        let lines = render_markdown(
            "[docs](https://x.io/d) and <https://y.io>",
            80,
            &theme,
            &Highlighter::new(),
        );
        assert_eq!(plain(&lines), ["docs (https://x.io/d) and https://y.io"]);
        let url = lines[0].spans.iter().find(|s| s.content.contains("x.io"));
        assert_eq!(url.map(|s| s.style), Some(theme.link_url));
    }

    #[test]
    fn images_show_alt_text() {
        assert_eq!(render("![a cat](cat.png)", 40), ["[image: a cat]"]);
    }

    #[test]
    fn tables_align_with_box_drawing() {
        let md = "| a | bb |\n|---|---:|\n| ccc | d |\n";
        assert_eq!(
            render(md, 40),
            [
                "┌─────┬────┐",
                "│ a   │ bb │",
                "├─────┼────┤",
                "│ ccc │  d │",
                "└─────┴────┘",
            ]
        );
    }

    #[test]
    fn wide_tables_wrap_cells_to_fit() {
        let md = "| name | description |\n|---|---|\n| x | a very long description indeed |\n";
        let lines = render(md, 24);
        assert!(widest(&lines) <= 24, "{lines:#?}");
        assert!(!lines.iter().any(|l| l.contains('…')), "{lines:#?}");
        let text: String = lines.iter().map(|l| l.replace(['│', ' '], "")).collect();
        assert!(text.contains("averylongdescriptionindeed"), "{lines:#?}");
        assert_eq!(
            lines.len(),
            4 + 3,
            "the body row takes three lines: {lines:#?}"
        );
    }

    #[test]
    fn rules_and_inline_code() {
        let lines = render("a `b` c\n\n---\n", 5);
        assert_eq!(lines, ["a b c", "", "─────"]);
    }

    #[test]
    fn paragraphs_wrap_at_width() {
        let lines = render("alpha beta gamma delta epsilon", 11);
        assert_eq!(lines, ["alpha beta", "gamma delta", "epsilon"]);
        assert_eq!(render("abcdefghij", 4), ["abcd", "efgh", "ij"]);
    }

    #[test]
    fn long_code_lines_are_cut_with_a_marker_and_paths_wrap_at_slashes() {
        let lines = render("```\nalpha beta gamma delta epsilon\n```\n", 20);
        assert_eq!(lines, [" alpha beta gamma d›"]);
        let lines = render("/usr/share/doc/reference/guide.md", 20);
        assert_eq!(lines, ["/usr/share/doc/", "reference/guide.md"]);
        // A word with no slash in reach still breaks where the line is full.
        assert_eq!(render("abcdefghij", 4), ["abcd", "efgh", "ij"]);
    }

    #[test]
    fn code_scrolls_sideways_with_markers_and_prose_still_wraps() {
        let md = "Some prose here\n\n```\nalpha beta gamma delta epsilon\nshort\n```\n\n```\nfits\n```\n";
        let at = |shift: u16| {
            let r = render_shifted(md, 20, shift, &Theme::dark(), &Highlighter::new());
            (plain(&r.lines), r.code_overflow)
        };
        let (lines, overflow) = at(0);
        // 30 columns of code in an 18-column view: 12 to scroll.
        assert_eq!(overflow, 12);
        assert_eq!(lines[0], "Some prose here");
        assert_eq!(lines[2], " alpha beta gamma d›");
        assert_eq!(lines[3], " short              ");
        let (lines, _) = at(8);
        assert_eq!(lines[0], "Some prose here");
        assert_eq!(lines[2], "‹ta gamma delta eps›");
        // A line the view has passed still says it goes on to the left.
        assert_eq!(lines[3], "‹                   ");
        // A block that fits does not move.
        assert_eq!(lines[5], " fits               ");
        // Past the end: each block stops at its own widest line.
        let (lines, _) = at(40);
        assert_eq!(lines[2], "‹amma delta epsilon ");
        assert_eq!(lines[5], " fits               ");
    }

    #[test]
    fn skipping_columns_keeps_the_ones_after_a_cut_wide_char_in_place() {
        let spans = vec![Span::raw("a技b"), Span::raw("cd")];
        let cut = skip_columns(spans.clone(), 2);
        assert_eq!(plain(&[Line::from(cut)]), [" bcd"]);
        assert_eq!(plain(&[Line::from(skip_columns(spans.clone(), 4))]), ["cd"]);
        assert_eq!(plain(&[Line::from(first_columns(spans, 2))]), ["a"]);
    }

    #[test]
    fn code_is_highlighted_and_not_reflowed() {
        let md = "```rust\nfn main() { let x = 1; }\n```\n";
        let lines = render_markdown(md, 60, &Theme::dark(), &Highlighter::new());
        assert_eq!(lines.len(), 1);
        let colors: std::collections::HashSet<_> =
            lines[0].spans.iter().filter_map(|s| s.style.fg).collect();
        assert!(colors.len() > 2, "{:?}", lines[0]);
        assert!(plain(&lines)[0].contains("fn main() { let x = 1; }"));
    }

    #[test]
    fn unknown_language_and_no_color_fall_back_to_plain() {
        let md = "```nosuchlang\nlet x = 1;\n```\n";
        let lines = render_markdown(md, 30, &Theme::dark(), &Highlighter::new());
        assert!(lines[0].spans.iter().all(|s| s.style.fg.is_none()));
        let md = "```rust\nlet x = 1;\n```\n";
        let lines = render_markdown(md, 30, &Theme::no_color(), &Highlighter::new());
        assert!(lines[0].spans.iter().all(|s| s.style.fg.is_none()));
        assert_eq!(plain(&lines)[0].trim(), "let x = 1;");
    }

    #[test]
    fn html_blocks_are_plain_dim_text() {
        let theme = Theme::dark();
        let lines = render_markdown("<div>\nhi\n</div>\n", 40, &theme, &Highlighter::new());
        assert_eq!(plain(&lines), ["<div>", "hi", "</div>"]);
        assert!(
            lines
                .iter()
                .all(|l| l.spans.iter().all(|s| s.style == theme.dim))
        );
    }

    #[test]
    fn control_characters_become_visible_symbols() {
        let lines = render("evil \u{1b}[2J here\n\n```\ncode\u{1b}]52\n```\n", 40);
        let all = lines.concat();
        assert!(!all.contains('\u{1b}'), "{lines:?}");
        assert!(all.contains('\u{241b}'), "{lines:?}");
    }

    #[test]
    fn tiny_widths_do_not_panic() {
        let md =
            "# h\n\n- a\n  - b\n\n| x | y |\n|-|-|\n| 1 | 2 |\n\n```rust\nfn x() {}\n```\n> q 漢字";
        assert!(render(md, 0).is_empty());
        assert!(!render(md, 1).is_empty());
        assert!(!render(md, 2).is_empty());
    }

    #[test]
    fn frontmatter_table_lays_out_keys_and_wraps_values() {
        let pairs = vec![
            ("name".to_string(), "demo".to_string()),
            (
                "description".to_string(),
                "one two three four five".to_string(),
            ),
        ];
        let lines = plain(&render_frontmatter_table(&pairs, 30, &Theme::dark()));
        assert_eq!(
            lines,
            [
                "┌────────────┬───────────────┐",
                "│ name       │ demo          │",
                "│ descripti… │ one two three │",
                "│            │ four five     │",
                "└────────────┴───────────────┘",
            ]
        );
        assert!(render_frontmatter_table(&pairs, 0, &Theme::dark()).is_empty());
        assert!(render_frontmatter_table(&[], 30, &Theme::dark()).is_empty());
    }

    #[test]
    fn rendered_skill_joins_table_and_body() {
        let pairs = vec![("name".to_string(), "x".to_string())];
        let r = Rendered::skill(&pairs, "body", 20, 0, &Theme::dark(), &Highlighter::new());
        assert_eq!(plain(&r.lines).last().map(String::as_str), Some("body"));
        assert_eq!(plain(&r.lines)[3], "");
    }

    #[test]
    fn highlighter_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Highlighter>();
    }

    #[test]
    fn renders_are_cached() {
        let hl = Highlighter::new();
        let theme = Theme::dark();
        let a = render_markdown("# x", 20, &theme, &hl);
        assert_eq!(hl.lock_cache().len(), 1);
        assert_eq!(render_markdown("# x", 20, &theme, &hl), a);
        assert_eq!(hl.lock_cache().len(), 1);
        render_markdown("# x", 21, &theme, &hl);
        assert_eq!(hl.lock_cache().len(), 2);
        hl.clear_cache();
        assert!(hl.lock_cache().is_empty());
    }

    #[test]
    fn fit_columns_caps_the_widest() {
        assert_eq!(fit_columns(&[3, 10, 2], 20), [3, 10, 2]);
        assert_eq!(fit_columns(&[3, 10, 2], 11), [3, 6, 2]);
        assert_eq!(fit_columns(&[3, 10, 2], 0), [1, 1, 1]);
    }

    fn markdownish() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "# ",
            "- ",
            "1. ",
            "* ",
            "> ",
            "```",
            "```rust\n",
            "|",
            "|---|",
            "[",
            "](",
            ")",
            "![",
            "**",
            "_",
            "~~",
            "`",
            "\n",
            "\n\n",
            "  ",
            "\t",
            "[ ] ",
            "[x] ",
            "<div>",
            "---",
            "word",
            "漢字",
            "\u{1b}",
            "\u{202e}",
            "e\u{301}",
            "http://x.y",
            "    ",
            "\r\n",
        ]);
        prop::collection::vec(token, 0..60).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn never_panics_on_arbitrary_text(body in "(?s).{0,400}", width in 0u16..200) {
            let hl = Highlighter::new();
            render_markdown(&body, width, &Theme::dark(), &hl);
        }

        #[test]
        fn never_panics_on_markdown_soup(body in markdownish(), width in 0u16..200) {
            let hl = Highlighter::new();
            let lines = render_markdown(&body, width, &Theme::dark(), &hl);
            let text = plain(&lines).concat();
            prop_assert!(!text.contains('\u{1b}'), "an ESC reached the output");
        }

        #[test]
        fn frontmatter_never_panics(k in ".*", v in ".*", width in 0u16..200) {
            render_frontmatter_table(&[(k, v)], width, &Theme::dark());
        }
    }
}
