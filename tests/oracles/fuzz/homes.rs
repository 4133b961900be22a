//! Homes and projects full of traps, generated from a seed: the same seed
//! gives the same files. Each case is a user home, a git repository and a
//! working directory two levels inside it, with skills spread over the
//! dirs an agent reads (`~/` the home, `R/` the repository root, `C/` the
//! working directory).

use std::fs;
use std::path::{Path, PathBuf};

pub struct Case {
    pub root: PathBuf,
    pub home: PathBuf,
    pub cwd: PathBuf,
    /// SKILL.md files written (links and invalid ones included).
    pub skills: usize,
}

/// xorshift64*: small, seeded, the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names several dirs share, so that copies clash across scopes.
const SHARED: &[&str] = &["shared-a", "shared-b", "shared-c"];

/// One SKILL.md text and its trap's name, for folder `folder`.
fn text(rng: &mut Rng, folder: &str, name: &str) -> (String, &'static str) {
    let desc = format!("does {folder} things");
    match rng.below(14) {
        0 => (
            format!("---\nname: {name}\ndescription: has: colon\n---\nbody\n"),
            "colon",
        ),
        1 => (
            format!("---\r\nname: {name}\r\ndescription: {desc}\r\n---\r\nbody\r\n"),
            "crlf",
        ),
        2 => (
            format!("\u{feff}---\nname: {name}\ndescription: {desc}\n---\nbody\n"),
            "bom",
        ),
        3 => (
            format!("---\nname: {name}\ndescription: {desc}\n---\n"),
            "empty body",
        ),
        4 => (
            format!("---\nname: {name}\n---\nFirst paragraph\nof {folder}.\n\nSecond.\n"),
            "no description",
        ),
        5 => (
            format!(
                "---\nname: {name}\ndescription: {desc}\nwhen_to_use: when {folder} is asked\n---\nbody\n"
            ),
            "when_to_use",
        ),
        6 => (
            format!("---\nname: {name}\ndescription: \"quoted: {desc}\"\n---\nbody\n"),
            "quoted colon",
        ),
        7 => (
            format!("# {folder}\n\nNo frontmatter at all.\n"),
            "no frontmatter",
        ),
        8 => (
            format!(
                "---\nname: {name}\ndescription: >\n  folded {desc}\n  on two lines\n---\nbody\n"
            ),
            "folded",
        ),
        9 => (format!("---\ndescription: {desc}\n---\nbody\n"), "no name"),
        10 => (
            format!("---\nname: [a, b]\ndescription: {desc}\n---\nbody\n"),
            "list name",
        ),
        _ => (
            format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\nbody\n"),
            "plain",
        ),
    }
}

/// A case with `n` skill folders over `dirs` (templates `~/…`, `R/…`,
/// `C/…`), links in and out, nested and dot folders.
pub fn generate(base: &Path, seed: u64, dirs: &[&str], n: usize) -> Case {
    let mut rng = Rng::new(seed);
    let root = base.join(format!("case-{seed}"));
    let home = root.join("home");
    let repo = root.join("repo");
    let cwd = repo.join("apps/web");
    for d in [&home, &cwd, &root.join("outside")] {
        fs::create_dir_all(d).unwrap();
    }
    // A real repository: Codex finds its project config layers (each
    // dir's .codex/) only in one `git` recognises.
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&repo)
        .status()
        .expect("git init");
    assert!(git.success());
    let place = |t: &str| -> PathBuf {
        if let Some(r) = t.strip_prefix("~/") {
            home.join(r)
        } else if let Some(r) = t.strip_prefix("R/") {
            repo.join(r)
        } else if let Some(r) = t.strip_prefix("C/") {
            cwd.join(r)
        } else {
            PathBuf::from(t)
        }
    };
    let mut written: Vec<PathBuf> = Vec::new();
    let mut skills = 0;
    for i in 0..n {
        let dir: &str = rng.pick::<&str>(dirs);
        let dir = place(dir);
        let folder = format!("s{seed}-{i}");
        let name = if rng.below(4) == 0 {
            rng.pick(SHARED).to_string()
        } else {
            folder.clone()
        };
        let shape = rng.below(10);
        let at = match shape {
            // Nested one level down, and a dot folder.
            0 => dir.join("group").join(&folder),
            1 => dir.join(format!(".{folder}")),
            _ => dir.join(&folder),
        };
        match shape {
            // A link in: another dir's skill folder, reached again.
            2 if !written.is_empty() => {
                let target = rng.pick(&written).clone();
                fs::create_dir_all(&dir).unwrap();
                std::os::unix::fs::symlink(&target, &at).unwrap();
            }
            // A link out: a skill folder outside every skill dir.
            3 => {
                let out = root.join("outside").join(&folder);
                fs::create_dir_all(&out).unwrap();
                fs::write(out.join("SKILL.md"), text(&mut rng, &folder, &name).0).unwrap();
                fs::create_dir_all(&dir).unwrap();
                std::os::unix::fs::symlink(&out, &at).unwrap();
            }
            _ => {
                fs::create_dir_all(&at).unwrap();
                fs::write(at.join("SKILL.md"), text(&mut rng, &folder, &name).0).unwrap();
                written.push(at.clone());
            }
        }
        skills += 1;
    }
    Case {
        root,
        home,
        cwd,
        skills,
    }
}
