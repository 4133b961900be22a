//! Colour depth: how many colours the terminal shows, read from COLORTERM
//! and TERM, and every colour of a drawn frame mapped down to it. Themes
//! and the code highlighter speak 24-bit; a 256- or 16-colour terminal
//! would misread those sequences. Knows ratatui's buffer only.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Depth {
    /// 24-bit colour.
    #[default]
    True,
    /// The xterm 256-colour palette.
    Ansi256,
    /// The 16 ANSI colours.
    Ansi16,
}

/// The 16 ANSI colours, by index.
const ANSI16: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

impl Depth {
    pub fn from_env() -> Depth {
        Depth::detect(|k| std::env::var(k).ok())
    }

    /// 24-bit only when COLORTERM says so (`truecolor` or `24bit`), else
    /// 256 colours for a `*256color*` TERM, else 16: the rule `doctor`
    /// reports (`core::doctor::colours`).
    pub fn detect(var: impl Fn(&str) -> Option<String>) -> Depth {
        match crate::core::doctor::colours(var) {
            "24-bit" => Depth::True,
            "256" => Depth::Ansi256,
            _ => Depth::Ansi16,
        }
    }

    /// `c` as this depth can show it: the nearest palette colour.
    pub fn map(self, c: Color) -> Color {
        match (self, c) {
            (Depth::True, c) => c,
            (Depth::Ansi256, Color::Rgb(r, g, b)) => {
                Color::Indexed(ansi_colours::ansi256_from_rgb((r, g, b)))
            }
            (Depth::Ansi16, Color::Rgb(r, g, b)) => nearest16((r, g, b)),
            (Depth::Ansi16, Color::Indexed(i)) if i < 16 => ANSI16[usize::from(i)],
            (Depth::Ansi16, Color::Indexed(i)) => nearest16(ansi_colours::rgb_from_ansi256(i)),
            (_, c) => c,
        }
    }
}

/// The ANSI colour closest to `rgb` in the xterm default palette.
fn nearest16(rgb: (u8, u8, u8)) -> Color {
    let distance = |i: u8| {
        let (r, g, b) = ansi_colours::rgb_from_ansi256(i);
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(r, rgb.0) + d(g, rgb.1) + d(b, rgb.2)
    };
    let best = (0..16u8).min_by_key(|i| distance(*i)).unwrap_or(0);
    ANSI16[usize::from(best)]
}

/// Maps every cell's colours down to `depth`, after a draw.
pub fn map_buffer(buf: &mut Buffer, depth: Depth) {
    if depth == Depth::True {
        return;
    }
    for cell in &mut buf.content {
        cell.fg = depth.map(cell.fg);
        cell.bg = depth.map(cell.bg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truecolor_only_when_colorterm_says_so() {
        let d = |colorterm: Option<&str>, term: Option<&str>| {
            Depth::detect(|k| match k {
                "COLORTERM" => colorterm.map(String::from),
                "TERM" => term.map(String::from),
                _ => None,
            })
        };
        assert_eq!(d(Some("truecolor"), Some("xterm-256color")), Depth::True);
        assert_eq!(d(Some("24bit"), None), Depth::True);
        assert_eq!(d(None, Some("xterm-256color")), Depth::Ansi256);
        assert_eq!(d(Some(""), Some("tmux-256color")), Depth::Ansi256);
        assert_eq!(d(None, Some("xterm")), Depth::Ansi16);
        assert_eq!(d(None, None), Depth::Ansi16);
    }

    #[test]
    fn colours_map_to_the_nearest_the_depth_has() {
        let red = Color::Rgb(250, 10, 10);
        assert_eq!(Depth::True.map(red), red);
        assert_eq!(Depth::Ansi256.map(red), Color::Indexed(196));
        assert_eq!(Depth::Ansi16.map(red), Color::LightRed);
        assert_eq!(Depth::Ansi16.map(Color::Rgb(0, 0, 0)), Color::Black);
        assert_eq!(Depth::Ansi16.map(Color::Indexed(1)), Color::Red);
        assert_eq!(Depth::Ansi16.map(Color::Indexed(231)), Color::White);
        assert_eq!(Depth::Ansi256.map(Color::Cyan), Color::Cyan);
        assert_eq!(Depth::Ansi16.map(Color::Reset), Color::Reset);
    }
}
