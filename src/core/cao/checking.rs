//! The store listed before it is checked, for the TUI's first frame: the
//! search dirs' folder names with the verdicts kept from the last run
//! (else a guess from the folder's name), every one marked unconfirmed,
//! then confirmed in batches, the rows on screen first. Confirming is
//! what `store::list` does for one folder (`store::look`: a stat, and a
//! read when the SKILL.md changed), and the listing once all are
//! confirmed is the one `store::list` gives; the CLI never sees an
//! unconfirmed verdict.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::cao::skill::Checked;
use crate::core::cao::store::{self, Candidates, Home, Listing, Looked};
use crate::core::cao::verdicts::Verdicts;

/// The first listing and what confirming it has found so far.
pub struct Checking {
    root: PathBuf,
    found: Arc<Candidates>,
    /// The kept verdicts the guesses came from, shared with the worker.
    last: Arc<Verdicts>,
    /// One per folder of `found`, in its order.
    states: Vec<State>,
    left: usize,
}

enum State {
    /// Not confirmed: the kept verdict (its stamp not yet compared, read
    /// from `last` where it is, not copied), else the folder's name.
    Guess,
    Confirmed(Looked),
}

/// What the worker confirmed: positions in the first listing's folders.
#[derive(Debug, Default)]
pub struct Batch(Vec<(usize, Looked)>);

impl Batch {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a worker needs to confirm the folders, owned.
#[derive(Clone)]
pub struct Work {
    found: Arc<Candidates>,
    last: Arc<Verdicts>,
}

/// Folders confirmed per batch after the first (the rows on screen): a
/// batch is one rebuild of the listing on the UI thread, so not too many.
const BATCH: usize = 1024;

impl Checking {
    /// What is known without opening a SKILL.md: the search dirs' folder
    /// names and the verdicts kept on disk by the run before.
    pub fn start(home: &Home) -> Checking {
        let found = store::candidates(home);
        let last = home.verdicts.get();
        let states: Vec<State> = found.folders.iter().map(|_| State::Guess).collect();
        Checking {
            root: home.root.clone(),
            left: states.len(),
            found: Arc::new(found),
            last,
            states,
        }
    }

    /// The listing as known now: confirmed verdicts, and guesses marked
    /// unconfirmed.
    pub fn listing(&self) -> Listing {
        let verdicts = (self.found.folders.iter().zip(&self.states)).map(|((d, f), s)| match s {
            State::Confirmed(l) => (l.checked.clone(), true),
            State::Guess => {
                let path = d.join(f);
                let guess = match self.last.get(&path) {
                    Some((_, c)) => Checked { path, ..c.clone() },
                    None => Checked {
                        path,
                        ..Checked::default()
                    },
                };
                (Some(guess), false)
            }
        });
        store::assemble(&self.root, &self.found, verdicts)
    }

    /// For the worker.
    pub fn work(&self) -> Work {
        Work {
            found: Arc::clone(&self.found),
            last: Arc::clone(&self.last),
        }
    }

    /// The order to confirm in: the folders of `first` (a source dir and
    /// folder each: the rows on screen), then the others in search order;
    /// and how many came from `first`.
    pub fn order(&self, first: &[(PathBuf, String)]) -> (Vec<usize>, usize) {
        let folders = &self.found.folders;
        let mut early: Vec<usize> = (first.iter())
            .filter_map(|(d, f)| folders.iter().position(|(d2, f2)| d2 == d && f2 == f))
            .collect();
        early.sort_unstable();
        early.dedup();
        let rest: Vec<usize> = (0..folders.len())
            .filter(|i| early.binary_search(i).is_err())
            .collect();
        let n = early.len();
        early.extend(rest);
        (early, n)
    }

    /// What a worker confirmed.
    pub fn apply(&mut self, batch: Batch) {
        for (i, looked) in batch.0 {
            if let Some(state) = self.states.get_mut(i) {
                if matches!(state, State::Guess) {
                    self.left -= 1;
                }
                *state = State::Confirmed(looked);
            }
        }
    }

    /// Every folder is confirmed.
    pub fn done(&self) -> bool {
        self.left == 0
    }

    /// How many folders wait to be confirmed.
    pub fn left(&self) -> usize {
        self.left
    }

    /// The listing once every folder is confirmed (as `store::list` gives
    /// it), the verdicts seen kept for the next listing and run (`None`
    /// while some are not confirmed).
    pub fn finish(self, home: &Home) -> Result<Listing, Checking> {
        if !self.done() {
            return Err(self);
        }
        let looked: Vec<Looked> = (self.states.into_iter())
            .filter_map(|s| match s {
                State::Confirmed(l) => Some(l),
                State::Guess => None,
            })
            .collect();
        store::keep_seen(&self.found.folders, &looked, &self.last, &home.verdicts);
        drop(self.last);
        let verdicts = looked.into_iter().map(|l| (l.checked, true));
        Ok(store::assemble(&self.root, &self.found, verdicts))
    }
}

impl Work {
    /// Confirms the folders in `order`, the first `first` of them in a
    /// batch of their own, handing each batch to `each`; stops between
    /// batches once `stop` is set.
    pub fn run(
        &self,
        order: &[usize],
        first: usize,
        stop: &AtomicBool,
        mut each: impl FnMut(Batch),
    ) {
        let folders = &self.found.folders;
        let dirs = store::open_dirs(folders);
        let (head, tail) = order.split_at(first.min(order.len()));
        for chunk in std::iter::once(head).chain(tail.chunks(BATCH)) {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            if chunk.is_empty() {
                continue;
            }
            let looked = store::par_map(chunk, |&i| {
                let (d, f) = &folders[i];
                store::look(&self.last, &dirs, d, f)
            });
            each(Batch(chunk.iter().copied().zip(looked).collect()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &std::path::Path, folder: &str, text: &str) {
        let dir = root.join("skills").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    }

    fn summary(l: &Listing) -> Vec<(String, store::Status, bool, Option<String>)> {
        (l.entries.iter())
            .map(|e| {
                let d = e.checked.description.clone();
                (e.name().to_string(), e.status, e.confirmed, d)
            })
            .collect()
    }

    // Nothing read first: every row is a guess, unconfirmed; once all are
    // confirmed the listing is the one `store::list` gives.
    #[test]
    fn the_first_listing_guesses_and_the_last_is_the_stores() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        skill(&root, "alpha", "---\nname: alpha\ndescription: A\n---\n");
        skill(&root, "beta", "---\nname: beta\n---\n");
        std::fs::create_dir_all(root.join("skills/empty")).unwrap();
        let home = Home::at(root.clone(), tmp.path().to_path_buf());
        let checking = Checking::start(&home);
        let first = checking.listing();
        assert_eq!(first.unconfirmed, 3);
        assert!(!first.confirmed());
        assert!(first.entries.iter().all(|e| !e.confirmed));
        let names: Vec<_> = first.entries.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["alpha", "beta", "empty"]);

        let mut checking = checking;
        let (order, first) = checking.order(&[(home.skills_dir(), "empty".into())]);
        assert_eq!(
            (&order[..], first),
            (&[2, 0, 1][..], 1),
            "the rows on screen first"
        );
        let work = checking.work();
        let mut batches = Vec::new();
        work.run(&order, first, &AtomicBool::new(false), |b| batches.push(b));
        assert_eq!(batches.iter().map(Batch::len).collect::<Vec<_>>(), [1, 2]);
        let mut batches = batches.into_iter();
        checking.apply(batches.next().unwrap());
        let mid = checking.listing();
        assert_eq!(mid.unconfirmed, 2, "{:?}", summary(&mid));
        assert!(
            !mid.entries.iter().any(|e| e.folder == "empty"),
            "no SKILL.md: gone once confirmed"
        );
        let Err(mut checking) = checking.finish(&home) else {
            panic!("two are left to confirm");
        };
        checking.apply(batches.next().unwrap());
        let Ok(last) = checking.finish(&home) else {
            panic!("all are confirmed");
        };
        assert_eq!(summary(&last), summary(&store::list(&home, false)));
        assert!(last.confirmed());
        assert_eq!(last.not_skills, store::list(&home, false).not_skills);
    }

    // Stopped between batches: nothing more is confirmed.
    #[test]
    fn a_stopped_worker_confirms_nothing_more() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        skill(&root, "alpha", "---\nname: alpha\ndescription: A\n---\n");
        let home = Home::at(root, tmp.path().to_path_buf());
        let checking = Checking::start(&home);
        let (order, _) = checking.order(&[]);
        let mut got = 0;
        checking
            .work()
            .run(&order, 0, &AtomicBool::new(true), |_| got += 1);
        assert_eq!(got, 0);
    }
}
