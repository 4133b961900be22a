//! Seeding the default skills off the key path: the status line says
//! which one is being seeded as it goes, then one short line of result.

use crate::core::cao::store::{self, Seeded};
use crate::tui::app::App;
use crate::tui::jobs::Report;
use crate::tui::model::Status;

impl App {
    /// Seeds `names` on a worker, one at a time so progress can show.
    pub(crate) fn seed_in_background(&mut self, names: Vec<String>) {
        if self.jobs.seeding {
            return self.say(Status::info(
                "already seeding: the result shows when it ends",
            ));
        }
        self.jobs.seeding = true;
        let home = self.data.home.clone();
        let of = names.len();
        self.say(Status::info(format!(
            "seeding {}…",
            crate::tui::panes::count(of, "skill")
        )));
        self.jobs.spawn(move |_, report| {
            let mut all = Seeded::default();
            for (done, name) in names.iter().enumerate() {
                report.send(Report::Seeding(done, of, name.clone()));
                match store::seed(&home, Some(std::slice::from_ref(name))) {
                    Ok(s) => {
                        all.seeded.extend(s.seeded);
                        all.kept.extend(s.kept);
                    }
                    Err(e) => return report.send(Report::Seeded(Err(e))),
                }
            }
            report.send(Report::Seeded(Ok(all)));
        });
    }

    pub(crate) fn seeding(&mut self, done: usize, of: usize, name: &str) {
        let name = crate::core::text::sanitize_line(name);
        self.say(Status::info(format!("seeding {}/{of}: {name}…", done + 1)));
    }

    pub(crate) fn seeded(&mut self, result: Result<Seeded, String>) {
        self.jobs.seeding = false;
        self.say(match result {
            Ok(s) => Status::info(seed_summary(&s)),
            Err(e) => Status::error(e),
        });
        self.store_changed();
        self.reload();
    }
}

/// One short line: counts, not the names (the Skills pane shows those).
fn seed_summary(s: &Seeded) -> String {
    let skills = |n: usize| crate::tui::panes::count(n, "skill");
    match (s.seeded.len(), s.kept.len()) {
        (0, 0) => "nothing to seed".into(),
        (0, k) => format!("nothing seeded: {} already there, kept", skills(k)),
        (n, 0) => format!("seeded {}", skills(n)),
        (n, k) => format!("seeded {}; kept {} already there", skills(n), k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_counts_on_one_short_line() {
        let names = |n: usize| (0..n).map(|i| format!("skill-number-{i}")).collect();
        let s = |a, b| {
            seed_summary(&Seeded {
                seeded: names(a),
                kept: names(b),
            })
        };
        assert_eq!(s(16, 0), "seeded 16 skills");
        assert_eq!(s(3, 13), "seeded 3 skills; kept 13 already there");
        assert_eq!(s(0, 1), "nothing seeded: 1 skill already there, kept");
        assert!(s(16, 16).len() < 60);
    }
}
