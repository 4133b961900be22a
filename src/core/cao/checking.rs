//! The store listed before it is checked, for the TUI's first frame: the
//! search dirs' folder names with the verdicts kept from the last run
//! (else a guess from the folder's name), every one marked unconfirmed,
//! then confirmed in batches, the rows on screen first. Confirming is
//! what `store::list` does for one folder (`store::look`: a stat, and a
//! read when the SKILL.md changed), and the listing once all are
//! confirmed is the one `store::list` gives; the CLI never sees an
//! unconfirmed verdict.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::cao::skill::Checked;
use crate::core::cao::store::{self, Candidates, Home, Listing, Looked, Seen, Status};
use crate::core::cao::verdicts::{self, Kept, Stamp};

/// The first listing's folders and what confirming them has found so far;
/// the listing itself is the caller's (on screen), updated in place by
/// [`Checking::apply`].
pub struct Checking {
    found: Arc<Candidates>,
    /// The kept verdicts, read by the worker (the first frame waits for
    /// no file).
    kept: Arc<Kept>,
    /// Per folder of `found`, in its order: confirmed yet.
    confirmed: Vec<bool>,
    /// Per folder, its entry's position in the listing ([`GONE`] once
    /// confirmed as no skill); and per entry, its folder.
    at: Vec<usize>,
    origin: Vec<usize>,
    /// Folders whose name another search dir has too, by name, in search
    /// order: the first valid one wins, so their statuses hang together.
    twins: HashMap<String, Vec<usize>>,
    left: usize,
}

/// A folder with no entry: confirmed as holding no SKILL.md.
const GONE: usize = usize::MAX;

/// What a worker confirmed: positions in the first listing's folders.
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

/// What one batch changed in the listing.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The entries whose verdict, status or mark changed, by position.
    pub changed: Vec<usize>,
    /// Entries went away or moved: positions from before mean nothing.
    pub reshaped: bool,
}

/// What a worker needs to confirm the folders, owned.
#[derive(Clone)]
pub struct Work {
    found: Arc<Candidates>,
    kept: Arc<Kept>,
}

/// Folders confirmed per batch after the first (the rows on screen).
const BATCH: usize = 1024;

impl Checking {
    /// What is known without opening a SKILL.md: the search dirs' folder
    /// names, and the verdicts kept by the run before when they are read
    /// already (the worker waits for them, not the first frame); the
    /// listing of those guesses, every entry unconfirmed.
    pub fn start(home: &Home) -> (Checking, Listing) {
        let found = store::candidates(home);
        let last = home.verdicts.ready().unwrap_or_default();
        let guesses = found.folders.iter().map(|(d, f)| {
            let path = d.join(f);
            let guess = match last.get(&path) {
                Some((_, c)) => Checked { path, ..c.clone() },
                None => Checked {
                    path,
                    ..Checked::default()
                },
            };
            (Some(guess), false)
        });
        let (listing, origin) = store::assemble_at(&home.root, &found, guesses);
        let checking = Checking {
            left: found.folders.len(),
            confirmed: vec![false; found.folders.len()],
            at: positions(found.folders.len(), &origin),
            origin,
            twins: twins(&found.folders),
            found: Arc::new(found),
            kept: Arc::clone(&home.verdicts),
        };
        (checking, listing)
    }

    /// For the worker.
    pub fn work(&self) -> Work {
        Work {
            found: Arc::clone(&self.found),
            kept: Arc::clone(&self.kept),
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

    /// What a worker confirmed, put into `listing` (the one
    /// [`Checking::start`] made, as the batches before left it): only
    /// the entries of the batch (and a name's twins) are touched, unless
    /// a folder turned out to hold no skill or a name changed, when the
    /// entries are sorted again as `store::list` sorts them.
    pub fn apply(&mut self, batch: Batch, listing: &mut Listing) -> Applied {
        let mut applied = Applied::default();
        let mut names = Vec::new();
        for (i, looked) in batch.0 {
            let Some(confirmed @ false) = self.confirmed.get_mut(i) else {
                continue;
            };
            *confirmed = true;
            self.left -= 1;
            let e = self.at[i];
            let Some(entry) = listing.entries.get_mut(e) else {
                continue;
            };
            listing.unconfirmed = listing.unconfirmed.saturating_sub(1);
            match looked.checked {
                Some(checked) => {
                    let was = entry.name().to_owned();
                    entry.checked = checked;
                    entry.confirmed = true;
                    names.push((i, was));
                    applied.changed.push(e);
                }
                None => {
                    // No SKILL.md (any more): no entry, as `store::list` has it.
                    let (dir, folder) = &self.found.folders[i];
                    if *dir == self.found.store {
                        let path = dir.join(folder);
                        listing.plugins.remove(&path);
                        if let Err(at) = listing.not_skills.binary_search(&path) {
                            listing.not_skills.insert(at, path);
                        }
                    }
                    self.at[i] = GONE;
                    applied.reshaped = true;
                }
            }
        }
        for &(i, _) in &names {
            applied.changed.extend(self.restatus(i, listing));
        }
        // A name that changed moves its entry.
        let renamed = |(i, was): &(usize, String)| {
            (listing.entries.get(self.at[*i])).is_some_and(|e| e.name() != was)
        };
        applied.reshaped |= names.iter().any(renamed);
        if applied.reshaped {
            self.resort(listing);
            applied.changed.clear();
        } else {
            applied.changed.sort_unstable();
            applied.changed.dedup();
        }
        applied
    }

    /// Folder `i`'s status again, with its twins' (the first valid folder
    /// of a name wins, in search order); the entries whose status changed.
    fn restatus(&self, i: usize, listing: &mut Listing) -> Vec<usize> {
        let name = &self.found.folders[i].1;
        let group = match self.twins.get(name) {
            Some(group) => group.as_slice(),
            None => std::slice::from_ref(&i),
        };
        let mut won = false;
        let mut changed = Vec::new();
        for &j in group {
            let Some(entry) = listing.entries.get_mut(self.at[j]) else {
                continue;
            };
            let status = match entry.checked.is_valid() {
                false => Status::Invalid,
                true if !won => {
                    won = true;
                    Status::Ok
                }
                true => Status::Shadowed,
            };
            if entry.status != status {
                entry.status = status;
                changed.push(self.at[j]);
            }
        }
        changed
    }

    /// The entries without those gone, sorted as `store::assemble` sorts
    /// them (by name, then search order), and the positions again.
    fn resort(&mut self, listing: &mut Listing) {
        let entries = std::mem::take(&mut listing.entries);
        let mut kept: Vec<_> = (entries.into_iter().zip(self.origin.iter().copied()))
            .filter(|(_, i)| self.at[*i] != GONE)
            .collect();
        kept.sort_by(|(a, i), (b, j)| a.name().cmp(b.name()).then(i.cmp(j)));
        (listing.entries, self.origin) = kept.into_iter().unzip();
        let gone: Vec<usize> = (0..self.at.len()).filter(|&i| self.at[i] == GONE).collect();
        self.at = positions(self.at.len(), &self.origin);
        for i in gone {
            self.at[i] = GONE;
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
}

/// For each of `n` folders, the position of its entry (`origin`: each
/// entry's folder); [`GONE`] for a folder with none.
fn positions(n: usize, origin: &[usize]) -> Vec<usize> {
    let mut at = vec![GONE; n];
    for (e, &i) in origin.iter().enumerate() {
        at[i] = e;
    }
    at
}

/// The folders of each name found in more than one search dir.
fn twins(folders: &[(PathBuf, String)]) -> HashMap<String, Vec<usize>> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    if folders.windows(2).all(|w| w[0].0 == w[1].0) {
        // One search dir: its names are unique.
        return HashMap::new();
    }
    for (i, (_, f)) in folders.iter().enumerate() {
        by_name.entry(f.as_str()).or_default().push(i);
    }
    (by_name.into_iter())
        .filter(|(_, v)| v.len() > 1)
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

impl Work {
    /// Confirms the folders in `order` (all of them, from
    /// [`Checking::order`]), the first `first` of them in a batch of their
    /// own, handing each batch to `each`; stops between batches once
    /// `stop` is set. Once all are confirmed, what they were found to be
    /// is kept for the next listing and run, here: at 10,000 skills that
    /// copies each verdict read, which the UI thread must not wait for.
    pub fn run(
        &self,
        order: &[usize],
        first: usize,
        stop: &AtomicBool,
        mut each: impl FnMut(Batch),
    ) {
        let folders = &self.found.folders;
        let dirs = store::open_dirs(folders);
        let last = self.kept.get();
        let mut seen: Vec<Option<Found>> = vec![None; folders.len()];
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
                store::look(&last, &dirs, d, f)
            });
            for (&i, l) in chunk.iter().zip(&looked) {
                seen[i] = Some(Found {
                    stamp: l.stamp,
                    kept: l.kept,
                    read: (l.checked.as_ref())
                        .filter(|_| !l.kept)
                        .map(verdicts::pathless),
                });
            }
            each(Batch(chunk.iter().copied().zip(looked).collect()));
        }
        self.keep(&seen, &last);
    }

    /// What the checks found kept, as `store::list` keeps it: a verdict
    /// that stood is the one in `last`, the others were read.
    fn keep(&self, seen: &[Option<Found>], last: &verdicts::Verdicts) {
        let folders = &self.found.folders;
        let seen: Vec<Seen<'_>> = (folders.iter().zip(seen))
            .map(|((d, f), s)| {
                let Some(s) = s else {
                    return Seen {
                        stamp: None,
                        checked: None,
                        kept: false,
                    };
                };
                let checked = match s.kept {
                    true => last.get(&d.join(f)).map(|(_, c)| c),
                    false => s.read.as_ref(),
                };
                Seen {
                    stamp: s.stamp,
                    checked,
                    kept: s.kept,
                }
            })
            .collect();
        store::keep_seen_of(folders, &seen, last, &self.kept);
    }
}

/// What the worker found of one folder, for [`Work::keep`].
#[derive(Clone)]
struct Found {
    stamp: Option<Stamp>,
    kept: bool,
    /// The verdict read, when the kept one did not stand.
    read: Option<Checked>,
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

    // Nothing read first: every row is a guess, unconfirmed; batches
    // update it in place; once all are confirmed the listing is the one
    // `store::list` gives.
    #[test]
    fn the_first_listing_guesses_and_the_last_is_the_stores() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        skill(&root, "alpha", "---\nname: alpha\ndescription: A\n---\n");
        skill(&root, "beta", "---\nname: beta\n---\n");
        std::fs::create_dir_all(root.join("skills/empty")).unwrap();
        let home = Home::at(root.clone(), tmp.path().to_path_buf());
        let (checking, mut listing) = Checking::start(&home);
        assert_eq!(listing.unconfirmed, 3);
        assert!(!listing.confirmed());
        assert!(listing.entries.iter().all(|e| !e.confirmed));
        let names: Vec<_> = listing.entries.iter().map(|e| e.name()).collect();
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
        let applied = checking.apply(batches.next().unwrap(), &mut listing);
        assert!(applied.reshaped, "an entry went away");
        assert_eq!(listing.unconfirmed, 2, "{:?}", summary(&listing));
        assert!(
            !listing.entries.iter().any(|e| e.folder == "empty"),
            "no SKILL.md: gone once confirmed"
        );
        assert!(!checking.done(), "two are left to confirm");
        let applied = checking.apply(batches.next().unwrap(), &mut listing);
        assert_eq!(
            applied,
            Applied {
                changed: vec![0, 1],
                reshaped: false
            },
            "alpha and beta changed in place"
        );
        assert!(checking.done(), "all are confirmed");
        assert_eq!(listing, store::list(&home, false));
        assert!(listing.confirmed());
    }

    // A name in two search dirs: the first valid copy wins, whichever is
    // confirmed first; a verdict that changes moves the win.
    #[test]
    fn twins_in_two_search_dirs_are_statused_together() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        let extra = tmp.path().join("extra");
        skill(&root, "dup", "---\nname: dup\n---\n");
        skill(&root, "solo", "---\nname: solo\ndescription: S\n---\n");
        let dup = extra.join("dup");
        std::fs::create_dir_all(&dup).unwrap();
        std::fs::write(
            dup.join("SKILL.md"),
            "---\nname: dup\ndescription: D\n---\n",
        )
        .unwrap();
        let settings = serde_json::json!({ "skills": { "extra_dirs": [extra] } });
        std::fs::write(root.join("settings.json"), settings.to_string()).unwrap();
        let home = Home::at(root.clone(), tmp.path().to_path_buf());
        let (mut checking, mut listing) = Checking::start(&home);
        let (order, first) = checking.order(&[]);
        let mut batches = Vec::new();
        (checking.work()).run(&order, first, &AtomicBool::new(false), |b| batches.push(b));
        for b in batches {
            checking.apply(b, &mut listing);
        }
        assert!(checking.done());
        assert_eq!(listing, store::list(&home, false));
        let dup = listing.entries.iter().filter(|e| e.folder == "dup");
        let statuses: Vec<_> = dup.map(|e| e.status).collect();
        assert_eq!(statuses, [Status::Invalid, Status::Ok]);
    }

    // Stopped between batches: nothing more is confirmed.
    #[test]
    fn a_stopped_worker_confirms_nothing_more() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        skill(&root, "alpha", "---\nname: alpha\ndescription: A\n---\n");
        let home = Home::at(root, tmp.path().to_path_buf());
        let (checking, _) = Checking::start(&home);
        let (order, _) = checking.order(&[]);
        let mut got = 0;
        checking
            .work()
            .run(&order, 0, &AtomicBool::new(true), |_| got += 1);
        assert_eq!(got, 0);
    }
}
