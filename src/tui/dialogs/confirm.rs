//! The one yes/no dialog: what is asked comes from the change it guards.

use ratatui::text::{Line, Text};

use crate::core::delivery::model::Kind;
use crate::core::sources::changes::Changes;
use crate::core::text::sanitize_line;
use crate::tui::dialogs::outcome::{Outcome, Pending};
use crate::tui::keymap::Cmd;
use crate::tui::model::Status;
use crate::tui::theme::Theme;

/// Lines of a source's changes shown in its replace prompt.
const CHANGE_LINES_SHOWN: usize = 20;

#[derive(Debug)]
pub struct Confirm {
    pub pending: Pending,
}

impl Confirm {
    pub fn new(pending: Pending) -> Confirm {
        Confirm { pending }
    }

    pub fn on_cmd(&self, cmd: Cmd) -> Outcome {
        // Enter does not delete: removing takes a typed `y`.
        let enter_says_yes = !matches!(self.pending, Pending::Remove { .. });
        match cmd {
            Cmd::Yes => Outcome::Run(self.pending.clone()),
            Cmd::Accept if enter_says_yes => Outcome::Run(self.pending.clone()),
            Cmd::No => match &self.pending {
                Pending::Replace { name, .. } => {
                    Outcome::Say(Status::info(format!("kept the installed '{name}'")))
                }
                Pending::ReplaceFound { name, .. } => Outcome::Declined(name.clone()),
                _ => Outcome::Close,
            },
            _ => Outcome::Keep,
        }
    }

    /// (title, text, largest size) of the question.
    pub fn question(&self, theme: &Theme) -> (&'static str, Text<'static>, (u16, u16)) {
        match &self.pending {
            Pending::Replace {
                src,
                name,
                changes,
                edited,
            } => (
                "Replace?",
                changes_text(name, &src.display().to_string(), changes, *edited, theme),
                (100, 34),
            ),
            Pending::ReplaceFound {
                name,
                source,
                changes,
                edited,
            } => (
                "Replace?",
                changes_text(name, source, changes, *edited, theme),
                (100, 34),
            ),
            Pending::Remove {
                name,
                path,
                listed_by,
                given_to,
                unlisted,
            } => (
                "Remove?",
                Text::from(
                    [
                        Line::from(format!("Remove the skill '{}'?", sanitize_line(name))),
                        Line::from(format!(
                            "This deletes the folder {}",
                            sanitize_line(&path.display().to_string())
                        )),
                        listed_line(listed_by, theme),
                    ]
                    .into_iter()
                    .chain(unlisted_line(unlisted, theme))
                    .chain(given_line(given_to, theme))
                    .chain([Line::default(), Line::from("y remove   n keep")])
                    .collect::<Vec<_>>(),
                ),
                (72, 13),
            ),
            Pending::WriteList {
                profile,
                skill,
                delivery,
            } => (
                "Write an explicit list?",
                Text::from(vec![
                    Line::from(no_list_means(profile, *delivery)),
                    Line::from(format!(
                        "Turning '{}' off writes an explicit list of all the others.",
                        sanitize_line(skill)
                    )),
                    Line::default(),
                    Line::from("y write the list   n leave the profile as it is"),
                ]),
                (76, 9),
            ),
        }
    }
}

fn changes_text(
    name: &str,
    source: &str,
    changes: &Changes,
    edited: bool,
    theme: &Theme,
) -> Text<'static> {
    let mut lines = vec![
        Line::from(format!(
            "'{}' is already installed, and differs: {}.",
            sanitize_line(name),
            changes.summary()
        )),
        Line::from(format!(
            "Replace it with the one from {}?",
            sanitize_line(source)
        )),
    ];
    if edited {
        lines.push(Line::styled(
            "It was edited here since it was installed: its local edits will be lost.",
            theme.warning,
        ));
    }
    lines.push(Line::default());
    let listed = changes.render();
    lines.extend(listed.iter().take(CHANGE_LINES_SHOWN).map(|l| {
        let style = [
            ("  added", theme.ok),
            ("  removed", theme.error),
            ("  changed", theme.warning),
            ("    +", theme.ok),
            ("    -", theme.error),
        ]
        .into_iter()
        .find(|(prefix, _)| l.starts_with(prefix))
        .map_or(theme.dim, |(_, style)| style);
        Line::styled(sanitize_line(l).into_owned(), style)
    }));
    if listed.len() > CHANGE_LINES_SHOWN {
        let more = listed.len() - CHANGE_LINES_SHOWN;
        lines.push(Line::styled(
            format!("  … and {more} more lines"),
            theme.dim,
        ));
    }
    lines.push(Line::default());
    lines.push(Line::from("y replace (atomic)   n keep the installed one"));
    Text::from(lines)
}

/// What a profile with no `skills:` list gets, as its provider delivers.
fn no_list_means(profile: &str, delivery: Option<(&str, Kind)>) -> String {
    let profile = sanitize_line(profile);
    match delivery.and_then(|(p, kind)| Some((p, kind.regardless()?))) {
        Some((provider, gets)) => format!(
            "'{profile}' has no skills: list; as {provider} it gets {gets} whatever the list says."
        ),
        None => format!("'{profile}' has no skills: list, so CAO offers it every skill."),
    }
}

/// Which agents lose the link or copy skilltui gave them: removing takes
/// those back too (only as skilltui made them).
fn given_line(given_to: &[String], theme: &Theme) -> Option<Line<'static>> {
    if given_to.is_empty() {
        return None;
    }
    let names: Vec<String> = given_to
        .iter()
        .map(|n| sanitize_line(n).into_owned())
        .collect();
    Some(Line::styled(
        format!(
            "Given to {}: its link or copy skilltui made goes too",
            names.join(", ")
        ),
        theme.warning,
    ))
}

/// The profiles that lose the skill through having no list.
fn unlisted_line(unlisted: &[String], theme: &Theme) -> Option<Line<'static>> {
    let n = unlisted.len();
    let names: Vec<String> = (unlisted.iter().take(4))
        .map(|n| sanitize_line(n).into_owned())
        .collect();
    let more = if n > 4 { ", …" } else { "" };
    let text = match n {
        0 => return None,
        1 => format!("1 profile has no skills: list and gets it: {}", names[0]),
        _ => format!(
            "{n} profiles have no skills: list and get it: {}{more}",
            names.join(", ")
        ),
    };
    Some(Line::styled(text, theme.warning))
}

/// Which profiles lose the skill: their lists will name a missing one.
fn listed_line(listed_by: &[String], theme: &Theme) -> Line<'static> {
    if listed_by.is_empty() {
        return Line::styled("No profile names it in its skills: list.", theme.dim);
    }
    let names: Vec<String> = listed_by
        .iter()
        .map(|n| sanitize_line(n).into_owned())
        .collect();
    let whose = if names.len() == 1 {
        "profile"
    } else {
        "profiles"
    };
    Line::styled(
        format!("Listed by the {whose} {}", names.join(", ")),
        theme.warning,
    )
}
