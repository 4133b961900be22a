//! Colour themes: named ratatui styles loaded from TOML files, built-in ones
//! embedded from `themes/` and user ones from the config dir.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, anyhow, bail};
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use crate::core::text::sanitize_line;

/// The themes shipped inside the binary, so the app works with no files.
const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

/// The syntax theme name meaning "do not highlight code".
pub const NO_SYNTAX_THEME: &str = "none";

/// Declares every style of a theme once, so the struct, the TOML file shape
/// and the list of keys cannot drift apart.
macro_rules! theme_styles {
    ($($(#[$doc:meta])* $field:ident),* $(,)?) => {
        /// Every style the TUI draws with. Build one with [`Theme::load`],
        /// [`Theme::default_for_env`] or [`Theme::no_color`].
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct Theme {
            /// The name it was loaded under (`dark`, a user file's stem...).
            pub name: String,
            /// A syntect / two-face theme name for code blocks, or
            /// [`NO_SYNTAX_THEME`] to leave code uncoloured.
            pub syntax_theme: String,
            $($(#[$doc])* pub $field: Style,)*
        }

        /// The shape of a theme file; every key is optional.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ThemeFile {
            syntax_theme: Option<String>,
            $($field: Option<StyleSpec>,)*
        }

        /// The style keys a theme file may set.
        pub const STYLE_KEYS: &[&str] = &[$(stringify!($field)),*];

        impl Theme {
            /// A theme whose every style is empty.
            fn blank(name: &str) -> Theme {
                Theme {
                    name: name.to_string(),
                    syntax_theme: NO_SYNTAX_THEME.to_string(),
                    $($field: Style::default(),)*
                }
            }

            /// Overrides the styles the file sets, keeping the others.
            fn apply(&mut self, file: ThemeFile) {
                if let Some(s) = file.syntax_theme {
                    self.syntax_theme = s;
                }
                $(if let Some(s) = file.$field {
                    self.$field = s.to_style();
                })*
            }
        }
    };
}

theme_styles! {
    /// Pane text: the default foreground and background.
    base,
    /// Unfocused pane borders.
    border,
    /// The focused pane's border.
    border_focused,
    /// Pane titles.
    title,
    /// The highlighted row.
    selected,
    /// Secondary text.
    dim,
    /// Emphasised UI text (keys in help, counts).
    accent,
    /// Success messages.
    ok,
    /// Warnings (spec lints).
    warning,
    /// Errors (CAO rejections).
    error,
    /// The mark beside an invalid skill.
    invalid_mark,
    /// The mark beside a shadowed skill.
    shadowed_mark,
    /// A ticked checkbox.
    checkbox_on,
    /// An unticked checkbox.
    checkbox_off,
    /// A skill matched by a pattern such as `cao-*`.
    pattern_match,
    /// Markdown level-1 headings.
    heading1,
    /// Markdown level-2 headings.
    heading2,
    /// Markdown level-3 (and deeper) headings.
    heading3,
    /// Inline `code`.
    code_inline,
    /// The background of fenced code blocks.
    code_block_bg,
    /// Block quotes and their bar.
    quote,
    /// Link text.
    link,
    /// The URL shown after a link's text.
    link_url,
    /// Table rules and frames.
    table_border,
    /// The status line after a success.
    status_ok,
    /// The status line after a failure.
    status_err,
}

/// One style as written in a theme file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<ColorSpec>,
    bg: Option<ColorSpec>,
    #[serde(default)]
    bold: bool,
    #[serde(default)]
    italic: bool,
    #[serde(default, alias = "underlined")]
    underline: bool,
    #[serde(default)]
    dim: bool,
    #[serde(default, alias = "reversed")]
    reverse: bool,
    #[serde(default)]
    crossed_out: bool,
}

impl StyleSpec {
    fn to_style(&self) -> Style {
        let flags = [
            (self.bold, Modifier::BOLD),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.dim, Modifier::DIM),
            (self.reverse, Modifier::REVERSED),
            (self.crossed_out, Modifier::CROSSED_OUT),
        ];
        let modifiers = flags
            .iter()
            .filter(|(on, _)| *on)
            .fold(Modifier::empty(), |acc, (_, m)| acc | *m);
        let mut style = Style::default().add_modifier(modifiers);
        style.fg = self.fg.map(|c| c.0);
        style.bg = self.bg.map(|c| c.0);
        style
    }
}

/// A colour parsed from `"#rrggbb"`, a ratatui name or an ANSI index.
#[derive(Debug, Clone, Copy)]
struct ColorSpec(Color);

impl<'de> Deserialize<'de> for ColorSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Color::from_str(&s).map(ColorSpec).map_err(|_| {
            serde::de::Error::custom(format!(
                "invalid colour {s:?} (use \"#rrggbb\", a colour name or 0-255)"
            ))
        })
    }
}

impl Theme {
    /// Loads theme `name`: `user_dir/NAME.toml` first when `user_dir` is
    /// given (see [`Theme::user_dir`]), then the built-in themes. Keys a file
    /// leaves out take the dark theme's values.
    pub fn load(name: &str, user_dir: Option<&Path>) -> Result<Theme> {
        check_name(name)?;
        if let Some(path) = user_dir.map(|d| d.join(format!("{name}.toml")))
            && path.is_file()
        {
            let text = std::fs::read_to_string(&path).with_context(|| {
                format!(
                    "cannot read theme {}",
                    sanitize_line(&path.to_string_lossy())
                )
            })?;
            return parse(name, &text, &path.display().to_string());
        }
        match builtin_text(name) {
            Some(text) => parse(name, text, &format!("built-in theme {name}")),
            None => bail!(
                "unknown theme {name:?} (available: {})",
                Theme::names(user_dir).join(", ")
            ),
        }
    }

    /// The built-in dark theme, the default when colours are allowed.
    pub fn dark() -> Theme {
        // The embedded file is checked by a test; the fallback only guards
        // against a broken build ever panicking at startup.
        builtin_text("dark")
            .and_then(|text| parse_over(Theme::blank("dark"), text, "dark").ok())
            .unwrap_or_else(Theme::no_color)
    }

    /// A theme with no colours at all, for `NO_COLOR`: only bold, reverse
    /// and underline, so the selection and focus stay visible.
    pub fn no_color() -> Theme {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let under = Style::default().add_modifier(Modifier::UNDERLINED);
        Theme {
            border_focused: bold,
            title: bold,
            selected: Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            error: bold,
            invalid_mark: bold,
            checkbox_on: bold,
            pattern_match: under,
            heading1: bold.add_modifier(Modifier::UNDERLINED),
            heading2: bold,
            heading3: bold,
            link: under,
            status_ok: Style::default().add_modifier(Modifier::REVERSED),
            status_err: Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            ..Theme::blank("no-color")
        }
    }

    /// The dark theme, or [`Theme::no_color`] when `NO_COLOR` is set and
    /// non-empty (<https://no-color.org>).
    pub fn default_for_env() -> Theme {
        Theme::for_no_color(std::env::var_os("NO_COLOR"))
    }

    /// [`Theme::default_for_env`] with the variable passed in, for tests.
    pub fn for_no_color(no_color: Option<OsString>) -> Theme {
        match no_color {
            Some(v) if !v.is_empty() => Theme::no_color(),
            _ => Theme::dark(),
        }
    }

    /// Whether this theme draws any colour (false for [`Theme::no_color`]).
    pub fn has_color(&self) -> bool {
        self.syntax_theme != NO_SYNTAX_THEME || self.base.fg.is_some() || self.accent.fg.is_some()
    }

    /// The style an audit severity is drawn in (`None`: nothing found).
    pub fn severity(&self, worst: Option<crate::core::audit::Severity>) -> Style {
        use crate::core::audit::Severity;
        match worst {
            Some(Severity::Critical | Severity::High) => self.error,
            Some(Severity::Medium) => self.warning,
            Some(Severity::Low) | None => self.dim,
        }
    }

    /// The style of a Markdown heading of `level` (1-based; deeper levels
    /// share level 3's).
    pub fn heading(&self, level: usize) -> Style {
        match level {
            0 | 1 => self.heading1,
            2 => self.heading2,
            _ => self.heading3,
        }
    }

    /// The user's theme directory: `$XDG_CONFIG_HOME/skilltui/themes`, else
    /// `~/.config/skilltui/themes`.
    pub fn user_dir() -> Option<PathBuf> {
        user_dir_from(
            std::env::var_os("XDG_CONFIG_HOME"),
            std::env::var_os("HOME"),
        )
    }

    /// Built-in theme names followed by the user's, sorted, without repeats.
    pub fn names(user_dir: Option<&Path>) -> Vec<String> {
        let mut names: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
        names.extend(user_dir.map(user_theme_names).unwrap_or_default());
        names.sort();
        names.dedup();
        names
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::dark()
    }
}

fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Theme names become file names, so they must not walk out of the dir.
fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(anyhow!(
            "invalid theme name {:?}: use letters, digits, '-', '_' and '.'",
            sanitize_line(name)
        ))
    }
}

fn user_dir_from(xdg: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    // The XDG spec says a relative XDG_CONFIG_HOME is invalid and ignored.
    let config = xdg
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home.filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".config"))
        })?;
    Some(config.join("skilltui").join("themes"))
}

fn user_theme_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let stem = path.file_stem()?.to_str()?.to_string();
            let is_toml = path.extension().is_some_and(|x| x == "toml");
            (is_toml && check_name(&stem).is_ok()).then_some(stem)
        })
        .collect()
}

/// Parses a theme file over the dark theme; `origin` names the file in errors.
fn parse(name: &str, text: &str, origin: &str) -> Result<Theme> {
    let base = Theme {
        name: name.to_string(),
        ..Theme::dark()
    };
    parse_over(base, text, origin)
}

fn parse_over(mut theme: Theme, text: &str, origin: &str) -> Result<Theme> {
    let file: ThemeFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .and_then(|s| text.get(..s.start))
            .map(|before| before.matches('\n').count() + 1);
        // File names and quoted keys are untrusted; errors reach the screen.
        let msg = sanitize_line(e.message().trim()).into_owned();
        let origin = sanitize_line(origin);
        match line {
            Some(line) => anyhow!("{origin}: line {line}: {msg}"),
            None => anyhow!("{origin}: {msg}"),
        }
    })?;
    theme.apply(file);
    Ok(theme)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(s: &str) -> Color {
        Color::from_str(s).unwrap_or(Color::Reset)
    }

    #[test]
    fn builtin_themes_parse_and_set_every_key() {
        for (name, text) in BUILTIN {
            let table: toml::Table = toml::from_str(text).expect("valid TOML");
            for key in STYLE_KEYS.iter().chain(&["syntax_theme"]) {
                assert!(table.contains_key(*key), "{name} lacks {key}");
            }
            let theme = Theme::load(name, None).expect("loads");
            assert_eq!(theme.name, *name);
            assert!(theme.has_color());
        }
    }

    #[test]
    fn dark_values_come_from_the_file() {
        let dark = Theme::dark();
        assert_eq!(dark.selected.bg, Some(rgb("#88c0d0")));
        assert!(dark.selected.add_modifier.contains(Modifier::BOLD));
        assert_eq!(dark.syntax_theme, "Nord");
        assert_eq!(dark, Theme::default());
    }

    #[test]
    fn user_theme_wins_and_missing_keys_fall_back_to_dark() {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = "selected = { fg = \"black\", bg = \"#ff0000\", reverse = true }\n";
        std::fs::write(dir.path().join("mine.toml"), text).expect("write");
        std::fs::write(dir.path().join("light.toml"), "syntax_theme = \"GitHub\"\n")
            .expect("write");
        let mine = Theme::load("mine", Some(dir.path())).expect("loads");
        assert_eq!(mine.selected.fg, Some(Color::Black));
        assert_eq!(mine.selected.bg, Some(Color::Rgb(255, 0, 0)));
        assert!(mine.selected.add_modifier.contains(Modifier::REVERSED));
        assert_eq!(mine.border, Theme::dark().border);
        assert_eq!(mine.name, "mine");
        // A user file shadows the built-in of the same name.
        let light = Theme::load("light", Some(dir.path())).expect("loads");
        assert_eq!(light.syntax_theme, "GitHub");
        assert_eq!(light.base, Theme::dark().base);
    }

    #[test]
    fn malformed_file_names_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bad.toml");
        let text = "border = { fg = \"#4c566a\" }\n\ntitle = { fg = \"#12\" }\n";
        std::fs::write(&path, text).expect("write");
        let err = Theme::load("bad", Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("invalid colour"), "{err}");

        std::fs::write(&path, "border = {\n").expect("write");
        let err = Theme::load("bad", Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 1") || err.contains("line 2"), "{err}");

        std::fs::write(&path, "# c\nbordr = { bold = true }\n").expect("write");
        let err = Theme::load("bad", Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2") && err.contains("bordr"), "{err}");
    }

    #[test]
    fn unknown_and_unsafe_names_are_errors() {
        let err = Theme::load("nope", None).unwrap_err().to_string();
        assert!(err.contains("nope") && err.contains("dark"), "{err}");
        assert!(Theme::load("../etc/passwd", None).is_err());
        assert!(Theme::load("", None).is_err());
        assert!(Theme::load(".hidden", None).is_err());
    }

    #[test]
    fn names_list_builtin_and_user_themes() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("zebra.toml"), "").expect("write");
        std::fs::write(dir.path().join("dark.toml"), "").expect("write");
        std::fs::write(dir.path().join("notes.txt"), "").expect("write");
        let names = Theme::names(Some(dir.path()));
        assert_eq!(names, ["dark", "high-contrast", "light", "zebra"]);
        assert_eq!(Theme::names(None), ["dark", "high-contrast", "light"]);
    }

    #[test]
    fn no_color_has_only_modifiers() {
        let t = Theme::no_color();
        let styles = [
            t.base,
            t.selected,
            t.error,
            t.link,
            t.code_block_bg,
            t.heading1,
        ];
        assert!(styles.iter().all(|s| s.fg.is_none() && s.bg.is_none()));
        assert!(t.selected.add_modifier.contains(Modifier::REVERSED));
        assert!(!t.has_color());
        assert_eq!(t.syntax_theme, NO_SYNTAX_THEME);
    }

    #[test]
    fn no_color_env_is_honoured_only_when_non_empty() {
        assert_eq!(Theme::for_no_color(Some("1".into())), Theme::no_color());
        assert_eq!(Theme::for_no_color(Some("".into())), Theme::dark());
        assert_eq!(Theme::for_no_color(None), Theme::dark());
    }

    #[test]
    fn user_dir_prefers_absolute_xdg() {
        let dir = user_dir_from(Some("/x/cfg".into()), Some("/home/u".into()));
        assert_eq!(dir, Some(PathBuf::from("/x/cfg/skilltui/themes")));
        let dir = user_dir_from(Some("rel".into()), Some("/home/u".into()));
        assert_eq!(dir, Some(PathBuf::from("/home/u/.config/skilltui/themes")));
        assert_eq!(user_dir_from(None, None), None);
    }

    #[test]
    fn heading_levels_map_to_three_styles() {
        let t = Theme::dark();
        assert_eq!(t.heading(1), t.heading1);
        assert_eq!(t.heading(2), t.heading2);
        assert_eq!(t.heading(6), t.heading3);
    }
}
